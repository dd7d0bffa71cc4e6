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

/// The default strides SCHEMA.md states: 4 for a split 40-bit run (its high
/// bytes packed one per byte), `bits / 8` rounded up to 4 otherwise.
#[test]
fn report_layout_default_strides() {
    let text = r#"
block: fmt
space: mmio
source: test
report_formats:
  - name: F
    projects: hsw
    select: 1
    size: 256
    layout:
      - { name: "S{n}", count: 2, offset: 0x0, bits: 40, high_byte_offset: 0x8 }
      - { name: "W{n}", count: 2, offset: 0x10, bits: 40 }
      - { name: "N{n}", count: 2, offset: 0x20, bits: 32 }
      - { name: "H{n}", count: 2, offset: 0x28, bits: 16 }
"#;
    let ir = compile(&[("f.yaml".into(), text.into())]).expect("valid");
    let f = &ir.formats[0];
    let at = |n: &str| {
        let c = f.counters.iter().find(|c| c.name == n).expect(n);
        (c.offset, c.high_byte_offset)
    };
    assert_eq!(at("S0"), (0x0, Some(0x8)));
    assert_eq!(at("S1"), (0x4, Some(0x9)));
    assert_eq!(at("W1"), (0x18, None));
    assert_eq!(at("N1"), (0x24, None));
    assert_eq!(at("H1"), (0x2C, None));
}
