//! Description keys added for metric sets: `config:` on registers,
//! `opaque_ranges:` and `commands:` in block files. Valid uses reach the IR;
//! invalid ones give located diagnostics.

use crate::support::fixtures;

use fixtures::{compile, fixture};
use perfregs_codegen::ir::ConfigKind;
use std::path::Path;

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

/// The valid ranges of `opaque.yaml` (the first two), without the broken ones.
fn opaque_ok() -> (String, String) {
    let (name, text) = fixture("opaque.yaml");
    let cut = text.find("  - name: BAD_ORDER").expect("fixture layout");
    (name, text[..cut].to_string())
}

#[test]
fn opaque_range_errors_are_located() {
    let got = compile(&[fixture("opaque.yaml")]).unwrap_err();
    assert_eq!(
        got,
        [
            "PR126 opaque.yaml:32:10 BAD_ORDER",
            "PR112 opaque.yaml:35:12 BAD_ALIGN",
            "PR112 opaque.yaml:36:10 BAD_ALIGN",
            "PR108 opaque.yaml:39:12 HOLDS_REG",
            "PR108 opaque.yaml:43:12 OVERLAPS",
            "PR128 opaque.yaml:47:12 RESERVED_PART",
            "PR121 opaque.yaml:49:11 bad_name",
            "PR203 opaque.yaml:53:13 bad_name",
        ]
    );
}

#[test]
fn opaque_ranges_reach_the_ir_sorted_with_their_domain() {
    let ir = compile(&[opaque_ok()]).expect("valid");
    let hsw = ir.catalogue.find("hsw").expect("hsw");
    let ivb = ir.catalogue.find("ivb").expect("ivb");
    let on = |p: usize| -> Vec<(&str, u64, u64)> {
        ir.opaque
            .iter()
            .filter(|o| o.project == p)
            .map(|o| (o.name.as_str(), o.start, o.end))
            .collect()
    };
    assert_eq!(
        on(hsw),
        [("UNIT_A", 0x8100, 0x81FF), ("UNIT_B", 0x9000, 0x90FF)]
    );
    assert_eq!(on(ivb), [("UNIT_A", 0x8100, 0x81FF)]);
    let b = ir.opaque_at(hsw, 0x90FC).expect("inside UNIT_B");
    assert_eq!(b.name, "UNIT_B");
    assert_eq!(b.config, Some(ConfigKind::Noa));
    assert_eq!(
        (b.description.as_str(), b.note.as_str()),
        ("The second unit.", "Fixture.")
    );
    assert_eq!(b.defined_at, "opaque.yaml:18:9");
    let dom = b
        .domain
        .map(|d| (ir.domains[d].project, ir.domains[d].name.as_str()));
    assert_eq!(dom, Some((hsw, "aon")));
    // ivb has no address map here: no domain.
    assert_eq!(ir.opaque_at(ivb, 0x8100).and_then(|o| o.domain), None);
    assert_eq!(ir.opaque_at(ivb, 0x9000), None);
    assert_eq!(ir.opaque_at(hsw, 0x9100), None);
    assert_eq!(ir.opaque_at(hsw, 0x80FF), None);
}

/// Opaque ranges of a file whose space is not MMIO, and ranges straddling
/// map rows with different targets, are refused.
#[test]
fn opaque_ranges_are_mmio_and_under_one_target() {
    let (name, text) = opaque_ok();
    let msr = edit(&text, "space: mmio", "space: msr");
    let msr = edit(&msr, "address_map:", "address_map_unused:");
    let got = compile(&[(name.clone(), msr)]).unwrap_err();
    assert!(got.iter().any(|d| d.starts_with("PR003 ")), "{got:?}");
    let two = edit(
        &text,
        "      - { start: 0x0, end: 0xFFFF, wake: aon }",
        "      - { start: 0x0, end: 0x8FFF, wake: aon }\n      - { start: 0x9000, end: 0xFFFF, wake: aon2 }",
    );
    let two = edit(
        &two,
        "      - { name: aon, always_on: true }",
        "      - { name: aon, always_on: true }\n      - { name: aon2, always_on: true }",
    );
    assert!(compile(&[(name.clone(), two.clone())]).is_ok());
    let straddle = edit(
        &two,
        "    start: 0x9000\n    end: 0x90FF",
        "    start: 0x8F00\n    end: 0x90FF",
    );
    let got = compile(&[(name, straddle)]).unwrap_err();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("PR127 opaque.yaml:22:12 UNIT_B"),
        "{got:?}"
    );
}

#[test]
fn command_errors_are_located() {
    let got = compile(&[fixture("commands.yaml")]).unwrap_err();
    assert_eq!(
        got,
        [
            "PR115 commands.yaml:19:19 MI_BAD",
            "PR109 commands.yaml:21:51 MI_BAD.opcode",
            // No value for hsw and tgl; a value for snb, not a project of the field.
            "PR114 commands.yaml:22:49 MI_BAD.length",
            "PR114 commands.yaml:22:49 MI_BAD.length",
            "PR121 commands.yaml:23:21 MI_BAD.Wide",
            "PR103 commands.yaml:23:33 MI_BAD.Wide",
            "PR104 commands.yaml:24:32 MI_BAD.low",
            "PR106 commands.yaml:25:21 MI_BAD.opcode",
            "PR104 commands.yaml:25:35 MI_BAD.opcode",
        ]
    );
}

#[test]
fn commands_reach_the_ir_per_project() {
    let (name, text) = fixture("commands.yaml");
    let cut = text.find("  - name: MI_BAD").expect("fixture layout");
    let ir = compile(&[(name, text[..cut].to_string())]).expect("valid");
    let hsw = ir.catalogue.find("hsw").expect("hsw");
    let bdw = ir.catalogue.find("bdw").expect("bdw");
    let on = |p: usize| {
        let c = ir
            .commands
            .iter()
            .find(|c| c.project == p)
            .expect("command");
        let fields: Vec<(&str, u32, u32, Option<u64>)> = c
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.dword, f.lsb, f.value))
            .collect();
        (c.dwords, fields)
    };
    // (project, dwords, fields)
    type Field = (&'static str, u32, u32, Option<u64>); // name, dword, lsb, value
    #[rustfmt::skip]
    let want: [(usize, _, &[Field]); 2] = [
        (hsw, 2, &[("dword_length", 0, 0, Some(1)), ("opcode", 0, 23, Some(0x28)), ("report_id", 1, 0, None)]),
        (bdw, 3, &[
            ("dword_length", 0, 0, Some(2)), ("opcode", 0, 23, Some(0x28)),
            ("extra", 1, 0, None), ("report_id", 2, 0, None),
        ]),
    ];
    for (p, dwords, fields) in want {
        assert_eq!(on(p), (dwords, fields.to_vec()));
    }
}

/// The shipped MI_REPORT_PERF_COUNT: 3 dwords on IVB..HSW (PRM 000), 4 on
/// BDW and TGL (Linux i915), none on SNB; Core Mode Enable from HSW on.
#[test]
fn shipped_mi_report_perf_count() {
    let ir = perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir()))
        .expect("shipped descriptions");
    let len = |tag: &str| {
        let p = ir.catalogue.find(tag).expect(tag);
        ir.commands
            .iter()
            .find(|c| c.project == p && c.name == "MI_REPORT_PERF_COUNT")
            .map(|c| {
                let has = |n: &str| c.fields.iter().any(|f| f.name == n);
                (
                    c.dwords,
                    has("core_mode_enable"),
                    has("memory_address_high"),
                )
            })
    };
    assert_eq!(len("snb"), None);
    assert_eq!(len("ivb"), Some((3, false, false)));
    assert_eq!(len("vlv"), Some((3, false, false)));
    assert_eq!(len("hsw"), Some((3, true, false)));
    assert_eq!(len("bdw"), Some((4, true, true)));
    assert_eq!(len("tgl"), Some((4, true, true)));
}
