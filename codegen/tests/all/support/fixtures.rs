//! Fixture files and compiling them to diagnostics as tests compare them.

use perfregs_codegen::{compile_sources, Ir};
use perfregs_regdefs::PROJECTS_YAML as STANDARD_PROJECTS;
use std::path::Path;

/// `(name, text)` of `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (name.to_string(), text)
}

/// Compile sources with the standard catalogue; each diagnostic as
/// `CODE file:line:column item`.
pub fn compile(sources: &[(String, String)]) -> Result<Ir, Vec<String>> {
    compile_sources(sources, Some(("projects.yaml", STANDARD_PROJECTS))).map_err(|diags| {
        diags
            .iter()
            .map(|d| {
                format!(
                    "{} {}:{}:{} {}",
                    d.code, d.file, d.pos.line, d.pos.column, d.item
                )
            })
            .collect()
    })
}
