//! A description starting with a UTF-8 byte-order mark reads as the same text
//! without it, through every loader: `compile_sources` (the CLI and the HAL's
//! build script), `compile_user_sources` (the `regdefs!` macro) and
//! `compile_path_with`; diagnostics keep their positions.

use perfregs_codegen::{
    compile_path_with, compile_sources, compile_user_sources, generate, EmitOptions,
};
use perfregs_regdefs::PROJECTS_YAML as STANDARD_PROJECTS;
use std::path::{Path, PathBuf};

const BOM: &str = "\u{FEFF}";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn read(rel: &str) -> String {
    let p = dir().join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn shown(r: Result<perfregs_codegen::Ir, Vec<perfregs_codegen::Error>>) -> Vec<String> {
    match r {
        Ok(ir) => ir
            .registers
            .iter()
            .map(|r| format!("{} {:?}", r.name, r.instances.len()))
            .collect(),
        Err(d) => d.iter().map(|d| format!("{d}")).collect(),
    }
}

/// The checked-in fixtures really start with a BOM (an editor could drop it).
#[test]
fn fixtures_start_with_a_bom() {
    for f in ["fixtures/bom_ok.yaml", "fixtures/bom_overlap.yaml"] {
        assert!(read(f).starts_with(BOM), "{f}");
    }
}

#[test]
fn a_bom_is_not_part_of_the_first_key() {
    let cat = Some(("projects.yaml", STANDARD_PROJECTS));
    let plain = compile_sources(&[("f.yaml".into(), read("fixtures/ok.yaml"))], cat);
    let bom = compile_sources(&[("f.yaml".into(), read("fixtures/bom_ok.yaml"))], cat);
    let plain = shown(plain);
    assert!(
        !plain.is_empty() && !plain[0].starts_with("error"),
        "{plain:?}"
    );
    assert_eq!(shown(bom), plain);
}

#[test]
fn a_catalogue_with_a_bom_is_a_catalogue() {
    let body: String = STANDARD_PROJECTS
        .lines()
        .skip_while(|l| l.starts_with('#') || l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(body.starts_with("families:"), "{body}");
    let cat = format!("{BOM}{body}");
    let got = compile_sources(
        &[
            ("f.yaml".into(), read("fixtures/ok.yaml")),
            ("projects.yaml".into(), cat),
        ],
        None,
    );
    assert!(got.is_ok(), "{:?}", shown(got));
}

/// Errors in a file with a BOM are located as in the same file without it.
#[test]
fn diagnostics_keep_their_positions() {
    let cat = Some(("projects.yaml", STANDARD_PROJECTS));
    let plain = shown(compile_sources(
        &[("f.yaml".into(), read("fixtures/overlap.yaml"))],
        cat,
    ));
    let bom = shown(compile_sources(
        &[("f.yaml".into(), read("fixtures/bom_overlap.yaml"))],
        cat,
    ));
    assert_eq!(plain.len(), 2, "{plain:?}");
    assert!(plain[0].contains("f.yaml:10:26"), "{plain:?}");
    assert_eq!(bom, plain);
    // The BOM is dropped before parsing: a syntax error is placed as without it.
    let bad = "block: x\nspace: mmio\nsource: t\nregisters: [\n";
    let plain = shown(compile_sources(&[("f.yaml".into(), bad.into())], cat));
    let bom = shown(compile_sources(
        &[("f.yaml".into(), format!("{BOM}{bad}"))],
        cat,
    ));
    assert!(plain[0].contains("PR002"), "{plain:?}");
    assert_eq!(bom, plain);
}

/// The `regdefs!` path emits the same code for a description with a BOM.
#[test]
fn the_macro_path_reads_a_bom() {
    // Without its leading comment: a BOM right before the first key is the case that failed.
    let input: String = read("cases/rw_basic/input.yaml")
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(input.starts_with("block:"), "{input}");
    let opts = EmitOptions::for_macro(quote::quote!(::perfregs::hal));
    let name = "rw_basic/input.yaml".to_string();
    let plain = compile_user_sources(built_in(), &[(name.clone(), input.clone())]).expect("plain");
    let bom =
        compile_user_sources(built_in(), &[(name, format!("{BOM}{input}"))]).expect("with a BOM");
    assert_eq!(generate(&bom, &opts), generate(&plain, &opts));
}

/// A folder compiled from disk (the HAL's build script) reads the BOM file.
#[test]
fn the_path_loader_reads_a_bom() {
    let got = compile_path_with(
        &dir().join("fixtures/bom_ok.yaml"),
        ("projects.yaml", STANDARD_PROJECTS),
    );
    assert!(got.is_ok(), "{:?}", shown(got));
}

/// The built-in descriptions of the `regdefs!` path (`perfregs_regdefs::FILES`),
/// loaded once per process.
fn built_in() -> &'static perfregs_codegen::BuiltIn {
    static B: std::sync::OnceLock<perfregs_codegen::BuiltIn> = std::sync::OnceLock::new();
    B.get_or_init(|| {
        perfregs_codegen::BuiltIn::from_files(perfregs_regdefs::FILES).expect("the shipped files")
    })
}
