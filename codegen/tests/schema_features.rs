//! Description keys added for metric sets: `config:` on registers,
//! `opaque_ranges:` and `commands:` in block files. Valid uses reach the IR;
//! invalid ones give located diagnostics.

use perfregs_codegen::ir::ConfigKind;
use perfregs_codegen::{compile_sources, Ir, STANDARD_PROJECTS};
use std::path::Path;

fn fixture(name: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (name.to_string(), text)
}

fn compile(sources: &[(String, String)]) -> Result<Ir, Vec<String>> {
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

/// `text` with the lines containing `from` replaced by `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` not in the text");
    text.replace(from, to)
}

#[test]
fn config_kinds_are_checked_and_located() {
    let got = compile(&[fixture("config.yaml")]).unwrap_err();
    assert_eq!(
        got,
        [
            "PR203 config.yaml:12:13 FLEX_A",
            "PR203 config.yaml:16:13 OTHER"
        ]
    );
}

#[test]
fn config_kinds_reach_the_ir() {
    let (name, text) = fixture("config.yaml");
    let text = edit(&text, "config: noa", "config: FLEX");
    let text = edit(&text, "config: BOGUS", "config: OA");
    let ir = compile(&[(name, text)]).expect("valid");
    let kind = |n: &str| {
        ir.registers
            .iter()
            .find(|r| r.name == n)
            .unwrap_or_else(|| panic!("{n}"))
            .config
    };
    assert_eq!(kind("NOA_WRITE"), Some(ConfigKind::Noa));
    assert_eq!(kind("FLEX_A"), Some(ConfigKind::Flex));
    assert_eq!(kind("OTHER"), Some(ConfigKind::Oa));
    assert_eq!(kind("PLAIN"), None);
}
