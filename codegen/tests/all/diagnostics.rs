//! Broken descriptions: each fixture must give exactly the listed diagnostics,
//! with their codes and `line:column`, and never a panic.

use crate::support::fixtures;
use crate::support::harness;
use crate::support::mutate;

use fixtures::{compile, fixture};
use perfregs_codegen::{compile_sources, Error};
use perfregs_regdefs::PROJECTS_YAML as STANDARD_PROJECTS;

fn diagnose(names: &[&str]) -> Vec<String> {
    let sources: Vec<_> = names.iter().map(|n| fixture(n)).collect();
    compile(&sources).err().unwrap_or_default()
}

#[track_caller]
fn expect(name: &str, expected: &[&str]) {
    let got = diagnose(&[name]);
    assert_eq!(got, expected, "diagnostics of {name}");
}

#[test]
fn syntax_error_is_located() {
    expect("syntax.yaml", &["PR002 syntax.yaml:9:1 "]);
}

#[test]
fn wrong_type_is_located() {
    expect("shape.yaml", &["PR003 shape.yaml:8:13 "]);
}

#[test]
fn unknown_key_is_an_error() {
    expect("unknown_key.yaml", &["PR003 unknown_key.yaml:7:5 "]);
    let got = errors(&[fixture("unknown_key.yaml")]);
    assert!(
        got[0].message.contains("unknown field `adress`"),
        "{}",
        got[0]
    );
}

#[test]
fn overlapping_fields_only_where_projects_meet() {
    expect(
        "overlap.yaml",
        &[
            "PR104 overlap.yaml:10:26 CTL.b",
            "PR104 overlap.yaml:11:26 CTL.c",
        ],
    );
}

#[test]
fn field_outside_register_width() {
    expect(
        "outside.yaml",
        &[
            "PR103 outside.yaml:9:28 CTL.top",
            "PR103 outside.yaml:10:29 CTL.wide",
        ],
    );
}

#[test]
fn duplicate_registers_fields_and_enums() {
    expect(
        "duplicates.yaml",
        &[
            "PR107 duplicates.yaml:8:17 Mode::off",
            "PR107 duplicates.yaml:9:28 Mode::on",
            "PR107 duplicates.yaml:10:9 Mode",
            "PR106 duplicates.yaml:18:17 CTL.go",
            "PR105 duplicates.yaml:19:11 CTL",
        ],
    );
}

#[test]
fn two_registers_at_one_address() {
    expect(
        "address_clash.yaml",
        &["PR108 address_clash.yaml:10:52 SECOND"],
    );
}

#[test]
fn unknown_access_type() {
    expect(
        "access.yaml",
        &[
            "PR101 access.yaml:9:38 CTL.go",
            "PR101 access.yaml:10:40 CTL.done",
        ],
    );
}

#[test]
fn unknown_projects_and_bad_ranges() {
    expect(
        "project_exprs.yaml",
        &[
            "PR102 project_exprs.yaml:6:15 CTL",
            "PR102 project_exprs.yaml:9:15 STS",
            "PR102 project_exprs.yaml:12:15 MIX",
            "PR115 project_exprs.yaml:18:52 SUB.go",
        ],
    );
}

#[test]
fn enum_values_must_fit_and_exist() {
    expect(
        "enum_wide.yaml",
        &[
            "PR109 enum_wide.yaml:14:29 CTL.size",
            "PR109 enum_wide.yaml:20:31 CTL.mode",
            "PR117 enum_wide.yaml:21:54 CTL.kind",
        ],
    );
}

#[test]
fn reset_values() {
    expect(
        "resets.yaml",
        &[
            "PR110 resets.yaml:8:36 CTL",
            "PR120 resets.yaml:10:49 CTL.go",
            "PR111 resets.yaml:15:12 STS",
        ],
    );
}

#[test]
fn alignment_and_arrays() {
    expect(
        "alignment.yaml",
        &[
            "PR112 alignment.yaml:7:14 CTL",
            "PR112 alignment.yaml:11:32 CNT{n}",
            "PR113 alignment.yaml:11:32 CNT{n}",
            "PR112 alignment.yaml:15:14 BIG",
            "PR123 alignment.yaml:16:11 NOARRAY{n}",
        ],
    );
}

#[test]
fn array_counts_cover_projects_and_stay_bounded() {
    expect(
        "array_counts.yaml",
        &[
            "PR114 array_counts.yaml:8:21 A{n}",
            "PR123 array_counts.yaml:12:21 B{n}",
            "PR123 array_counts.yaml:15:14 C{n}",
        ],
    );
}

#[test]
fn power_domains_groups_maps_formats_tables() {
    expect(
        "sections.yaml",
        &[
            "PR127 sections.yaml:15:14 FUSE",
            "PR128 sections.yaml:19:14 IN_RESERVED",
            "PR112 sections.yaml:23:14 STRADDLE",
            "PR127 sections.yaml:23:14 STRADDLE",
            "PR124 sections.yaml:30:9 render",
            "PR125 sections.yaml:31:33 media",
            "PR131 sections.yaml:32:17 gt",
            "PR125 sections.yaml:37:45 l3bank",
            "PR126 sections.yaml:43:46 row 0x2700..0x27ff",
            "PR126 sections.yaml:44:18 row 0x2780..0x28ff",
            "PR126 sections.yaml:45:76 row 0x8150..0x815f",
            "PR125 sections.yaml:46:45 row 0x9000..0x93ff",
            "PR126 sections.yaml:48:18 row 0x913c..0x913f",
            "PR129 sections.yaml:57:43 A4_HDR.B0",
            "PR129 sections.yaml:58:43 A4_HDR.C2",
            "PR129 sections.yaml:58:43 A4_HDR.C3",
            "PR129 sections.yaml:62:11 SPLIT",
            "PR130 sections.yaml:71:9 pairs",
        ],
    );
}

#[test]
fn per_project_maps_cover_exactly() {
    expect(
        "coverage.yaml",
        &[
            "PR114 coverage.yaml:7:14 CTL",
            "PR114 coverage.yaml:10:29 STS",
            "PR118 coverage.yaml:14:12 OTHER",
        ],
    );
}

/// Block, enum and enum value names are checked too, each located at its name.
#[test]
fn block_and_enum_names() {
    let text = "block: Fw\nspace: mmio\nsource: test\nenums:\n  - name: speed\n    values: [ { name: Slow, value: 0 } ]\nregisters:\n  - name: CTL\n    projects: hsw\n    address: 0x100\n    fields:\n      - { name: go, bits: 0, access: RW }\n";
    let got = diagnose_text(text);
    for (want, rule) in [
        ("PR121 t.yaml:1:8 Fw", "block name must be snake_case"),
        (
            "PR121 t.yaml:5:11 speed",
            "enum name must be UpperCamelCase",
        ),
        (
            "PR121 t.yaml:6:23 speed::Slow",
            "enum value name must be snake_case",
        ),
    ] {
        assert!(got.iter().any(|g| g == want), "{want} not in {got:?}");
        let err = errors(&[("t.yaml".to_string(), text.to_string())]);
        assert!(
            err.iter().any(|e| e.message.starts_with(rule)),
            "{rule}: {err:?}"
        );
    }
}

#[test]
fn masked_layout_and_names() {
    expect(
        "masked.yaml",
        &[
            "PR119 masked.yaml:11:29 FORCEWAKE.high",
            "PR121 masked.yaml:12:11 bad_name",
            "PR121 masked.yaml:16:17 bad_name.Go",
            "PR121 masked.yaml:17:17 bad_name.type",
        ],
    );
}

#[test]
fn every_error_of_a_run_is_reported() {
    let all = [
        "overlap.yaml",
        "outside.yaml",
        "resets.yaml",
        "access.yaml",
        "syntax.yaml",
    ];
    let got = diagnose(&all);
    // Each file's own errors (2 + 2 + 3 + 2 + 1) ...
    for (f, n) in [
        ("overlap", 2),
        ("outside", 2),
        ("resets", 3),
        ("access", 2),
        ("syntax", 1),
    ] {
        let own = got
            .iter()
            .filter(|d| d.contains(&format!("{f}.yaml")) && !d.starts_with("PR105"))
            .count();
        assert_eq!(own, n, "{f}: {got:#?}");
    }
    // ... plus the cross-file ones: `CTL` is defined on hsw by four of the files.
    let dup = got
        .iter()
        .filter(|d| d.starts_with("PR105") && d.ends_with(" CTL"))
        .count();
    assert_eq!(dup, 3, "{got:#?}");
}

#[test]
fn a_clean_file_lowers() {
    let ir = compile_sources(&[fixture("ok.yaml")], Some(("p", STANDARD_PROJECTS)))
        .expect("ok.yaml is clean");
    // CTL, CNT{n} (3 elements), EV{n} (2 on snb..ivb, 4 on hsw): arrays stay arrays.
    assert_eq!(ir.registers.len(), 3);
    let hsw = ir.catalogue.find("hsw").unwrap();
    let snb = ir.catalogue.find("snb").unwrap();
    let ctl = ir.find(hsw, "ctl").unwrap();
    assert_eq!((ctl.address, ctl.instance.reset), (0x200, 0x2));
    assert_eq!(ctl.fields().len(), 4);
    let on_snb = ir.find(snb, "CTL").unwrap();
    assert_eq!((on_snb.address, on_snb.instance.reset), (0x100, 0));
    assert_eq!(
        on_snb
            .fields()
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>(),
        ["go", "busy", "err"]
    );
    // Different fields on snb and hsw: two layouts for one register.
    assert_ne!(ctl.instance.layout, on_snb.instance.layout);
    assert_eq!(ctl.register.instances.len(), 4); // snb, ivb, vlv, hsw
    let cnt2 = ir.find(hsw, "CNT2").unwrap();
    assert_eq!(cnt2.address, 0x310);
    assert_eq!(cnt2.index, Some(2));
    // Per-project array length: EV2/EV3 exist on hsw only.
    assert_eq!(ir.find(hsw, "EV3").map(|e| e.address), Some(0x518));
    assert_eq!(ir.find(snb, "EV1").map(|e| e.address), Some(0x408));
    assert!(ir.find(snb, "EV2").is_none());
    let ev = ir.find(hsw, "EV2").unwrap();
    assert_eq!((ev.instance.count, ev.register.instances.len()), (4, 4));
    // One layout per distinct field list: every EV element shares one.
    let ev_layouts: std::collections::HashSet<usize> =
        ev.register.instances.iter().map(|i| i.layout).collect();
    assert_eq!(ev_layouts.len(), 1);
}

#[test]
fn diagnostics_print_file_line_column() {
    let err = errors(&[fixture("access.yaml")]);
    assert_eq!(
        err[0].to_string(),
        "error[PR101]: access.yaml:9:38: CTL.go: unknown access type `R/W` (one of: RW, RO, WO, RW1C, RW1S, RC, MBZ, RSVD, PBC, RW-V, RO-V, RW-DB)"
    );
}

/// The errors of `sources` with the standard catalogue, which must not compile.
fn errors(sources: &[(String, String)]) -> Vec<Error> {
    compile_sources(sources, Some(("p", STANDARD_PROJECTS))).unwrap_err()
}

fn diagnose_text(text: &str) -> Vec<String> {
    compile(&[("t.yaml".to_string(), text.to_string())])
        .err()
        .unwrap_or_default()
}

// Regressions found by the long mutation run (`tests/all/mutation.rs`).

/// libyaml (serde_yaml) ends a text without a final line break with a line
/// break of its own, and put an error at the end of input on the line after
/// the last one (3:1 here); yaml-rust2 (the position index) did the same for
/// the empty value of a last `key:` (8:1).
#[test]
fn end_of_input_is_inside_the_text() {
    assert_eq!(
        diagnose_text("block: oa\nregisters: ["),
        ["PR002 t.yaml:2:13 "]
    );
    assert_eq!(
        diagnose_text(
            "block: oa\nspace: mmio\nsource: t\nregisters:\n  - name: A\n    projects: hsw\n    address:"
        ),
        ["PR003 t.yaml:7:13 A"]
    );
}

/// libyaml also breaks lines at NEL (U+0085), LS and PS; editors and YAML 1.2
/// do not, so serde_yaml's errors are located from their byte offset (this
/// one was at 8:1 of a five-line text). A leading BOM is not a column.
#[test]
fn syntax_errors_count_yaml_1_2_line_breaks() {
    assert_eq!(
        diagnose_text("block: oa\nspace: mmio\nsource: t\u{85}\u{85}\u{85}\nregisters: [\n"),
        ["PR002 t.yaml:5:1 "]
    );
    assert_eq!(
        diagnose_text("block: oa\rspace: mmio\r\nregisters: ["),
        ["PR002 t.yaml:3:13 "]
    );
}

/// yaml-rust2's `Parser::load` recursed once per nesting level: 50,000
/// nested block sequences (100 kB) overflowed the stack and aborted.
#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let text = format!(
        "block: oa\nspace: mmio\nsource: t\nregisters:\n{}",
        "- ".repeat(50_000)
    );
    let got = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || diagnose_text(&text))
        .expect("a thread")
        .join()
        .expect("no panic");
    assert_eq!(got, ["PR003 t.yaml:5:3 "]);
}

/// Bit ranges past bit 63 overflowed the validators' mask arithmetic (a
/// panic in debug builds, a wrong mask in release) before `field_ranges`'
/// error could be reported.
#[test]
fn bit_ranges_past_bit_63() {
    let text = "block: oa\nspace: mmio\nsource: t\nenums:\n  - name: E\n    values: [ { name: a, value: 0xFF } ]\nregisters:\n  - name: A\n    projects: hsw\n    address: 0x100\n    reset: 0x5\n    masked: true\n    fields:\n      - { name: a, bits: \"4294967295:0\", access: RW, enum: E }\n      - { name: b, bits: \"70:65\", access: MBZ }\n      - { name: c, bits: \"4294967295:4294967295\", access: RW, reset: 1 }\n";
    assert_eq!(
        diagnose_text(text),
        [
            "PR103 t.yaml:14:26 A.a",
            "PR103 t.yaml:15:26 A.b",
            "PR103 t.yaml:16:26 A.c",
        ]
    );
}

/// Address-map rows and report-format entries at the top of the address
/// space overflowed the size and span arithmetic (panics in debug builds).
#[test]
fn sections_at_the_top_of_the_address_space() {
    let text = "block: gt\nspace: mmio\nsource: t\nregisters: []\naddress_map:\n  - projects: tgl\n    rows:\n      - { start: 0x0, end: 0xFFFFFFFFFFFFFFFF, bytes: 16 }\nreport_formats:\n  - name: F\n    projects: tgl\n    select: 1\n    size: 64\n    layout:\n      - { name: A, offset: 0xFFFFFFFFFFFFFFFF, bits: 32 }\n      - { name: B, offset: 0x8, bits: 40, high_byte_offset: 0xFFFFFFFFFFFFFFFF }\n";
    assert_eq!(
        diagnose_text(text),
        [
            "PR126 t.yaml:8:55 row 0x0..0xffffffffffffffff",
            "PR129 t.yaml:15:28 F.A",
            "PR129 t.yaml:16:28 F.B",
        ]
    );
    let err = errors(&[("t.yaml".to_string(), text.to_string())]);
    assert!(
        err[0].message.ends_with("is 18446744073709551616 bytes"),
        "{}",
        err[0]
    );
    assert!(
        err[1]
            .message
            .contains("0xffffffffffffffff..0xffffffffffffffff"),
        "{}",
        err[1]
    );
}

/// Property: random damage to valid descriptions never panics, and every
/// diagnostic points inside the text it names (`support/mutate.rs`; the long
/// run of the same mutations is `tests/all/mutation.rs`).
#[test]
fn mutated_descriptions_never_panic() {
    let report = mutate::run(0x9E37_79B9_7F4A_7C15, 0, 1000, 1, None);
    harness::assert_short_run(&report);
}

/// The role fields are declared, not guessed: a request register without
/// the section's `request_field`, a `request_field` or steering role that
/// is not a field of its register, a `request_field` wider than one bit, a
/// steering register that does not exist, and a steering mapping without
/// every role are located errors.
#[test]
fn role_fields_are_declared() {
    expect(
        "roles.yaml",
        &[
            "PR124 roles.yaml:23:30 gt",
            "PR125 roles.yaml:25:20 render",
            "PR124 roles.yaml:29:20 media",
            "PR125 roles.yaml:34:63 STEER",
            "PR125 roles.yaml:38:27 NO_STEER",
        ],
    );
    expect("roles_missing.yaml", &["PR003 roles_missing.yaml:11:15 "]);
    // The register name alone (the form before the roles were declared):
    // the error shows the mapping to write instead.
    expect(
        "roles_old_steering.yaml",
        &["PR003 roles_old_steering.yaml:11:15 "],
    );
    let got = errors(&[fixture("roles_old_steering.yaml")]);
    assert!(
        got[0]
            .message
            .contains("`steering: STEER` names only the register")
            && got[0]
                .message
                .contains("{ register: STEER, multicast: <field>"),
        "{}",
        got[0]
    );
}

#[test]
fn a_row_wakes_one_domain_or_two_distinct_wakeable_ones() {
    expect(
        "two_domains.yaml",
        &[
            // At the offending list element (`blitter`, the second
            // `render`, the third name, `aon`), or the value of a bad shape.
            "PR125 two_domains.yaml:35:54 row 0x2000..0x2fff",
            "PR126 two_domains.yaml:36:54 row 0x3000..0x3fff",
            "PR126 two_domains.yaml:37:61 row 0x4000..0x4fff",
            "PR126 two_domains.yaml:38:46 row 0x5000..0x5fff",
            "PR003 two_domains.yaml:39:45 row 0x6000..0x6fff",
            "PR003 two_domains.yaml:40:45 row 0x7000..0x7fff",
        ],
    );
    let messages: Vec<String> = errors(&[fixture("two_domains.yaml")])
        .iter()
        .map(|d| d.message.clone())
        .collect();
    for want in [
        "no power domain `blitter` on tgl",
        "power domain `render` is listed twice",
        "a row wakes at most two power domains; `render` is a third",
        "power domain `aon` is always on on tgl",
        "wake: a power domain name, or a list of two",
        "wake: a list of power domain names",
    ] {
        assert!(
            messages.iter().any(|m| m.contains(want)),
            "{want}: {messages:#?}"
        );
    }
    // Without the broken rows: one pair, named in declaration order.
    let (name, text) = fixture("two_domains.yaml");
    let ok: String = text
        .lines()
        .filter(|l| !l.contains("0x2000") && !l.contains("0x3000") && !l.contains("0x4000"))
        .filter(|l| !l.contains("0x5000") && !l.contains("0x6000") && !l.contains("0x7000"))
        .map(|l| format!("{l}\n"))
        .collect();
    let ir = compile(&[(name, ok)]).expect("compiles");
    let tgl = ir.catalogue.find("tgl").expect("tgl");
    let row = ir.row_at(tgl, 0x1000).expect("row");
    assert_eq!(row.wake.as_deref(), Some("render+media"));
    let (_, inst) = ir
        .on_project(tgl)
        .find(|(r, _)| r.name == "BOTH_CTL")
        .expect("BOTH_CTL");
    assert_eq!(ir.wake_name_of(inst).as_deref(), Some("render+media"));
    assert!(inst.domain2.is_some());
}

/// A description set without a catalogue (a `PERFREGS_REGDEFS` folder that
/// lacks `projects.yaml`) says so once, naming the files it did read.
#[test]
fn missing_catalogue_names_the_files_read() {
    let got = compile_sources(&[fixture("ok.yaml")], None).unwrap_err();
    assert_eq!(got.len(), 1, "{got:?}");
    let msg = got[0].to_string();
    assert!(msg.contains("no project catalogue"), "{msg}");
    assert!(msg.contains("(ok.yaml)"), "{msg}");
    assert!(msg.contains("regdefs/projects.yaml"), "{msg}");
}
