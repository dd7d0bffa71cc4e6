//! Exporters (`perfregs_codegen::export`): C header, Markdown and SVD of the
//! fixture in `tests/fixtures/export/` (exact lines and counts), and of the
//! shipped `regdefs/` (every project; skipped only when the descriptions do
//! not compile, e.g. while someone is editing them).

use perfregs_codegen::diag::Diagnostics;
use perfregs_codegen::export::{export, Format};
use perfregs_codegen::Ir;
use std::path::{Path, PathBuf};
use std::process::Command;
use svd_parser::svd::{self, ModifiedWriteValues, ReadAction};

fn fixture_ir() -> Ir {
    folder_ir("export")
}

/// The IR of the fixture folder `tests/fixtures/<name>`, with the shipped
/// catalogue.
fn folder_ir(name: &str) -> Ir {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    perfregs_codegen::compile_path_with(&dir, ("projects.yaml", perfregs_regdefs::PROJECTS_YAML))
        .unwrap_or_else(|d| panic!("fixture does not compile:\n{}", Diagnostics(d)))
}

fn project(ir: &Ir, name: &str) -> usize {
    ir.catalogue.find(name).unwrap()
}

/// The lines of `doc`, after asserting that each expected line is one of them.
#[track_caller]
fn has_lines<'a>(doc: &'a str, expected: &[&str]) -> Vec<&'a str> {
    let lines: Vec<&str> = doc.lines().collect();
    for e in expected {
        assert!(lines.contains(e), "missing line {e:?} in\n{doc}");
    }
    lines
}

/// Parse with the default (weak) validation and again with strict validation.
fn parse_svd(xml: &str) -> svd::Device {
    let strict = svd_parser::Config::default().validate_level(svd_parser::ValidateLevel::Strict);
    if let Err(e) = svd_parser::parse_with_config(xml, &strict) {
        panic!("strict SVD validation: {e:#}");
    }
    svd_parser::parse(xml).unwrap_or_else(|e| panic!("SVD: {e:#}"))
}

fn peripheral<'a>(d: &'a svd::Device, name: &str) -> &'a svd::Peripheral {
    d.peripherals
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no peripheral {name}"))
}

fn register<'a>(p: &'a svd::Peripheral, name: &str) -> &'a svd::Register {
    p.get_register(name)
        .unwrap_or_else(|| panic!("no register {name} in {}", p.name))
}

fn field<'a>(r: &'a svd::Register, name: &str) -> &'a svd::Field {
    r.get_field(name)
        .unwrap_or_else(|| panic!("no field {name} in {}", r.name))
}

/// A `cc` on PATH, if any.
fn find_cc() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("cc"))
        .find(|p| p.is_file())
}

/// Write the headers and `main.c` into a fresh temp folder and run
/// `cc -fsyntax-only` on `main.c`. `None` when there is no `cc`; otherwise
/// whether it compiled, and the compiler's messages.
fn cc_syntax(tag: &str, headers: &[(String, String)], main_c: &str) -> Option<(bool, String)> {
    let Some(cc) = find_cc() else {
        println!("skipping the C compile check: no `cc` on PATH");
        return None;
    };
    let dir = std::env::temp_dir().join(format!("perfregs-export-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in headers {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let main = dir.join("main.c");
    std::fs::write(&main, main_c).unwrap();
    let out = Command::new(cc)
        .args([
            "-fsyntax-only",
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-x",
            "c",
        ])
        .arg(&main)
        .current_dir(&dir)
        .output()
        .unwrap();
    let msg = String::from_utf8_lossy(&out.stderr).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    Some((out.status.success(), msg))
}

#[test]
fn format_names() {
    assert_eq!("c-header".parse::<Format>(), Ok(Format::CHeader));
    assert_eq!("markdown".parse::<Format>(), Ok(Format::Markdown));
    assert_eq!("svd".parse::<Format>(), Ok(Format::Svd));
    let err = "html".parse::<Format>().unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown export format `html` (expected one of: c-header, markdown, svd)"
    );
}

#[test]
fn project_outside_the_catalogue_gives_empty_documents() {
    let ir = fixture_ir();
    let h = export(&ir, 99, Format::CHeader);
    assert!(h.contains("#ifndef PERFREGS_PROJECT99_REGS_H\n"), "{h}");
    assert!(!h.contains("_MASKED_FIELD"));
    let md = export(&ir, 99, Format::Markdown);
    assert!(md.contains("No registers on this project."), "{md}");
    let xml = export(&ir, 99, Format::Svd);
    assert!(xml.contains("<name>PROJECT99</name>"), "{xml}");
    assert!(!xml.contains("<peripheral>"));
}

#[test]
fn svd_of_fixture_parses_with_expected_shape() {
    let ir = fixture_ir();
    let xml = export(&ir, project(&ir, "hsw"), Format::Svd);
    assert!(xml.contains("<device schemaVersion=\"1.3\""), "{xml}");
    assert!(!xml.contains("{n}"));
    let d = parse_svd(&xml);
    assert_eq!(d.name, "HSW");
    assert_eq!(d.address_unit_bits, 8);
    assert_eq!(d.width, 32);
    assert_eq!(d.default_register_properties.size, Some(32));
    assert_eq!(d.default_register_properties.reset_mask, Some(0xFFFF_FFFF));

    // Peripherals in address order: oa (base 0x2358), forcewake (base 0x8000).
    let names: Vec<&str> = d.peripherals.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["OA", "FORCEWAKE"]);
    let oa = peripheral(&d, "OA");
    assert_eq!(oa.base_address, 0x2358);
    let regs: Vec<(&str, u32)> = oa
        .registers()
        .map(|r| (r.name.as_str(), r.address_offset))
        .collect();
    assert_eq!(
        regs,
        [
            ("GPU_TIMESTAMP", 0x0),
            ("OACONTROL", 0x8),
            ("OASTATUS1", 0xC),
            ("OASTATUS2", 0x10),
            ("CEC0_0", 0x418),
            ("CEC1_0", 0x420),
            ("CEC2_0", 0x428),
            ("CEC3_0", 0x430),
        ]
    );
    let fw = peripheral(&d, "FORCEWAKE");
    assert_eq!(fw.base_address, 0x8000);
    let regs: Vec<(&str, u32)> = fw
        .registers()
        .map(|r| (r.name.as_str(), r.address_offset))
        .collect();
    assert_eq!(
        regs,
        [
            ("GT_SLICE_CTL", 0x0),
            ("FORCEWAKE_MT", 0x2188),
            ("FORCEWAKE_ACK_HSW", 0x128044)
        ]
    );

    // Field counts: reserved (RSVD) and MBZ fields are left out.
    let count =
        |p: &svd::Peripheral| -> Vec<usize> { p.registers().map(|r| r.fields().count()).collect() };
    assert_eq!(count(oa), [1, 6, 4, 3, 2, 2, 2, 2]);
    assert_eq!(count(fw), [1, 3, 1]);

    // 64-bit register.
    let ts = register(oa, "GPU_TIMESTAMP");
    assert_eq!(ts.properties.size, Some(64));
    assert_eq!(ts.properties.reset_mask, Some(u64::MAX));
    assert_eq!(ts.properties.access, Some(svd::Access::ReadOnly));
    assert_eq!(field(ts, "TIMESTAMP").bit_range.width, 36);
    assert!(ts.get_field("RESERVED_63_36").is_none());

    // RW1C, RC, RW1S, MBZ and reset values.
    let st1 = register(oa, "OASTATUS1");
    assert_eq!(st1.properties.reset_value, Some(0x8));
    assert!(st1.get_field("MBZ_2").is_none());
    let lost = field(st1, "REPORT_LOST");
    assert_eq!(lost.access, Some(svd::Access::ReadWrite));
    assert_eq!(
        lost.modified_write_values,
        Some(ModifiedWriteValues::OneToClear)
    );
    assert_eq!(
        field(st1, "TAIL_POINTER").access,
        Some(svd::Access::ReadOnly)
    );
    let st2 = register(oa, "OASTATUS2");
    let trig = field(st2, "TRIGGER_COUNT");
    assert_eq!(trig.read_action, Some(ReadAction::Clear));
    assert_eq!(trig.access, Some(svd::Access::ReadOnly));
    assert_eq!(
        field(register(fw, "GT_SLICE_CTL"), "ENABLE").modified_write_values,
        Some(ModifiedWriteValues::OneToSet)
    );
    let one_to_clear = d
        .peripherals
        .iter()
        .flat_map(|p| p.registers())
        .flat_map(|r| r.fields())
        .filter(|f| f.modified_write_values == Some(ModifiedWriteValues::OneToClear))
        .count();
    assert_eq!(one_to_clear, 2);

    // Enumerated values, from a file-level enum and an inline one.
    let ctl = register(oa, "OACONTROL");
    let sel = field(ctl, "COUNTER_SELECT");
    assert_eq!((sel.bit_range.offset, sel.bit_range.width), (2, 3));
    let values: Vec<(&str, Option<u64>)> = sel.enumerated_values[0]
        .values
        .iter()
        .map(|v| (v.name.as_str(), v.value))
        .collect();
    assert_eq!(
        values,
        [("A13", Some(0)), ("A29", Some(1)), ("A45_B8_C8", Some(5))]
    );
    assert_eq!(
        field(ctl, "TIMER_ENABLE").enumerated_values[0].values.len(),
        2
    );
    assert_eq!(
        field(register(oa, "CEC2_0"), "COMPARE_FUNCTION")
            .description
            .as_deref(),
        Some("Compare function of event 2.")
    );
    // Descriptions are trimmed and unescaped back by the parser.
    assert_eq!(
        st2.description.as_deref(),
        Some("Observation Architecture Status 2\n\nHead pointer of the OA buffer & memory select.")
    );
}

#[test]
fn svd_of_msr_fixture_keeps_indices() {
    let ir = fixture_ir();
    let d = parse_svd(&export(&ir, project(&ir, "p4"), Format::Svd));
    assert_eq!(d.name, "P4");
    assert_eq!(d.peripherals.len(), 1);
    let p = peripheral(&d, "P4_PMU");
    assert_eq!(p.base_address, 0x300);
    let regs: Vec<(&str, u32, Option<u32>)> = p
        .registers()
        .map(|r| (r.name.as_str(), r.address_offset, r.properties.size))
        .collect();
    assert_eq!(
        regs,
        [("P4_COUNTER0", 0, Some(64)), ("P4_COUNTER1", 1, Some(64))]
    );
    let count = field(register(p, "P4_COUNTER1"), "COUNT");
    assert_eq!((count.bit_range.offset, count.bit_range.width), (0, 40));
    assert_eq!(count.access, Some(svd::Access::ReadWrite));
}

#[test]
fn c_header_of_fixture_has_expected_lines_and_compiles() {
    let ir = fixture_ir();
    let h = export(&ir, project(&ir, "hsw"), Format::CHeader);
    let expected = [
        "#ifndef PERFREGS_HSW_REGS_H",
        "#define PERFREGS_HSW_REGS_H",
        "#ifndef REG_GENMASK",
        "#define REG_GENMASK(h, l) ((~0U >> (31 - (h))) & (~0U << (l)))",
        "#ifndef REG_GENMASK64",
        "#define _MASKED_BIT_ENABLE(a) _MASKED_FIELD((a), (a))",
        " * OACONTROL: Observation Architecture Control",
        " * PRM: Performance Statistics Registers / OACONTROL",
        " * Source: Export fixture, after PRM 000 (Observability Performance Counters)",
        "#define HSW_OACONTROL 0x2360",
        "#define HSW_OACONTROL_SELECT_CONTEXT_ID REG_GENMASK(31, 12) /* RW; Select Context ID. Specifies the context ID of the one context that ... */",
        "#define HSW_OACONTROL_TIMER_ENABLE REG_BIT(5) /* RW; Timer Enable. Enables the periodic strobe. */",
        "#define HSW_OACONTROL_TIMER_ENABLE_ENABLE 1 /* Periodic reports, every Timer Period. */",
        "#define HSW_OACONTROL_COUNTER_SELECT_A45_B8_C8 5 /* A45_B8_C8 (256 bytes) */",
        "#define HSW_OASTATUS1_REPORT_LOST REG_BIT(1) /* RW1C: write 1 to clear; A report was lost. */",
        "#define HSW_OASTATUS2_TRIGGER_COUNT REG_GENMASK(3, 1) /* RC: clear on read; Synthetic: triggers since the last read; cleared by reading. */",
        "#define HSW_GPU_TIMESTAMP 0x2358",
        "#define HSW_GPU_TIMESTAMP_TIMESTAMP REG_GENMASK64(35, 0) /* RO-V: hardware-updated; Timestamp value. */",
        "#define HSW_CEC3_0 0x2788",
        " * Element 3 of CEC{n}_0 (4 elements, stride 0x8).",
        "#define HSW_GT_SLICE_CTL_ENABLE REG_BIT(0) /* RW1S: write 1 to set; Write 1 to enable the slice. */",
        " * Masked register: bits 31:16 enable the write of bits 15:0; write",
        "#define HSW_FORCEWAKE_MT 0xA188",
        "#define HSW_FORCEWAKE_MT_FALLBACK REG_BIT(15) /* RW; Fallback request. */",
        "#define HSW_FORCEWAKE_ACK_HSW 0x130044",
        " * - render: request HSW_FORCEWAKE_MT, ack HSW_FORCEWAKE_ACK_HSW (The whole GT below 0x40000.)",
        "#define HSW_FW_RANGES_COUNT 4",
        "\t{ 0x8000, 0x8FFF, \"render\" }, /* slice x2, steering sliceid[0..1] */ \\",
        "\t{ 0x9000, 0x9FFF, 0 }, /* reserved */ \\",
        "\t{ 0xA000, 0x3FFFF, \"render\" },",
        "#endif /* PERFREGS_HSW_REGS_H */",
    ];
    let lines = has_lines(&h, &expected);
    // Address order, and exactly one register macro per register.
    let regs: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("#define HSW_") && l.contains(" 0x") && !l.contains("REG_"))
        .copied()
        .collect();
    assert_eq!(
        regs,
        [
            "#define HSW_GPU_TIMESTAMP 0x2358",
            "#define HSW_OACONTROL 0x2360",
            "#define HSW_OASTATUS1 0x2364",
            "#define HSW_OASTATUS2 0x2368",
            "#define HSW_CEC0_0 0x2770",
            "#define HSW_CEC1_0 0x2778",
            "#define HSW_CEC2_0 0x2780",
            "#define HSW_CEC3_0 0x2788",
            "#define HSW_GT_SLICE_CTL 0x8000",
            "#define HSW_FORCEWAKE_MT 0xA188",
            "#define HSW_FORCEWAKE_ACK_HSW 0x130044",
        ]
    );
    assert_eq!(h.matches("#define _MASKED_BIT_ENABLE").count(), 1);

    let snb = export(&ir, project(&ir, "snb"), Format::CHeader);
    assert!(snb.contains("\n#define SNB_OACONTROL 0x2360\n"));
    assert!(!snb.contains("SNB_OASTATUS1"));
    assert!(!snb.contains("_MASKED_FIELD"), "no masked register on snb");
    assert!(!snb.contains("FW_RANGES"));

    // The values the macros evaluate to, checked by the compiler; both
    // headers in one translation unit (distinct guards, shared helpers).
    let main_c = r#"#include "hsw.h"
#include "snb.h"
_Static_assert(HSW_OACONTROL == 0x2360, "address");
_Static_assert(SNB_OACONTROL == HSW_OACONTROL, "same address on snb");
_Static_assert(HSW_FORCEWAKE_ACK_HSW == 0x130044, "address");
_Static_assert(HSW_OACONTROL_TIMER_PERIOD == 0xFC0u, "REG_GENMASK");
_Static_assert(HSW_OACONTROL_TIMER_ENABLE == 0x20u, "REG_BIT");
_Static_assert(REG_FIELD_PREP(HSW_OACONTROL_COUNTER_SELECT, HSW_OACONTROL_COUNTER_SELECT_A45_B8_C8) == 0x14u, "prep");
_Static_assert(REG_FIELD_GET(HSW_OACONTROL_COUNTER_SELECT, 0x14u) == HSW_OACONTROL_COUNTER_SELECT_A45_B8_C8, "get");
_Static_assert(HSW_GPU_TIMESTAMP_TIMESTAMP == 0xFFFFFFFFFULL, "REG_GENMASK64");
_Static_assert(REG_FIELD_GET64(HSW_GPU_TIMESTAMP_TIMESTAMP, 0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFFULL, "get64");
_Static_assert(REG_FIELD_PREP64(HSW_GPU_TIMESTAMP_TIMESTAMP, 1) == 1ULL, "prep64");
_Static_assert(_MASKED_BIT_ENABLE(HSW_FORCEWAKE_MT_KERNEL) == 0x10001u, "masked enable");
_Static_assert(_MASKED_BIT_DISABLE(HSW_FORCEWAKE_MT_FALLBACK) == 0x80000000u, "masked disable");
_Static_assert((HSW_OASTATUS1_REPORT_LOST | HSW_OASTATUS1_BUFFER_OVERFLOW) == 0x3u, "rw1c bits");
static const struct perfregs_fw_range ranges[] = { HSW_FW_RANGES_INIT };
_Static_assert(sizeof(ranges) / sizeof(ranges[0]) == HSW_FW_RANGES_COUNT, "rows");
int main(void) { return ranges[2].domain == 0 && ranges[3].end == 0x3FFFF ? 0 : 1; }
"#;
    let headers = [("hsw.h".to_string(), h.clone()), ("snb.h".to_string(), snb)];
    if let Some((ok, msg)) = cc_syntax("fixture", &headers, main_c) {
        assert!(ok, "cc rejected the header:\n{msg}");
        // The check is live: a wrong value is rejected.
        let wrong = "#include \"hsw.h\"\n_Static_assert(HSW_OACONTROL == 0x2364, \"wrong\");\n";
        let (ok, _) = cc_syntax("fixture-wrong", &headers[..1], wrong).unwrap();
        assert!(!ok, "cc accepted a wrong static assertion");
    }
}

#[test]
fn markdown_of_fixture_has_tables() {
    let ir = fixture_ir();
    let md = export(&ir, project(&ir, "hsw"), Format::Markdown);
    let expected = [
        "# HSW register reference",
        "## Registers",
        "| Address | Name | Title | Width | Reset | Wake domain | Replication |",
        "| 0x2358 | [GPU_TIMESTAMP](#gpu_timestamp) | Render engine timestamp | 64 | 0x0000000000000000 | render | - |",
        "| 0x2360 | [OACONTROL](#oacontrol) | Observation Architecture Control | 32 | 0x00000000 | render | - |",
        "| 0x8000 | [GT_SLICE_CTL](#gt_slice_ctl) | Slice control (synthetic) | 32 | 0x00000000 | render | slice x2 |",
        "| 0x130044 | [FORCEWAKE_ACK_HSW](#forcewake_ack_hsw) | Force-wake acknowledge | 32 | 0x00000000 | - | - |",
        "## OACONTROL",
        "| Bits | Name | Access | Reset | Description | Values |",
        "| 5 | timer_enable | RW | 0x0 | Timer Enable. Enables the periodic strobe. | 0 = disable; 1 = enable |",
        "| 0 | performance_counter_enable | RW | 0x0 | Counter enable \\| OA unit on. |  |",
        "| 5:3 | buffer_size | RW | 0x1 | Report buffer size. | 0 = size_128k; 1 = size_256k; 7 = size_16m |",
        "| 1 | report_lost | RW1C | 0x0 | A report was lost. |  |",
        "| 0 | memory_select | RW | 0x1 | GGTT or PPGTT. | 0 = ppgtt; 1 = ggtt |",
        "- Masked: bits 31:16 enable the write of bits 15:0",
        "- Array: element 3 of `CEC{n}_0` (4 elements, stride 0x8)",
        "## Report formats",
        "### A13",
        "| 0x3C | A12 | 32 |  |",
        "## Force-wake and steering table",
        "| 0x8000 | 0x8FFF | render | slice | 2 | sliceid[0..1] |",
        "| 0x9000 | 0x9FFF | (reserved) |  | 1 |  |",
    ];
    let lines = has_lines(&md, &expected);
    // One table row and one section per register.
    let rows = lines
        .iter()
        .filter(|l| l.starts_with("| 0x") && l.contains("](#"))
        .count();
    assert_eq!(rows, 11);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("## ")).count(),
        11 + 5
    );
    assert_eq!(md.matches(FIELD_HEADER).count(), 11);
}

const FIELD_HEADER: &str = "| Bits | Name | Access | Reset | Description | Values |";

#[test]
fn every_project_of_regdefs_exports() {
    let dir = Path::new(perfregs_regdefs::dir()).to_path_buf();
    let ir = match perfregs_codegen::compile_path(&dir) {
        Ok(ir) => ir,
        Err(diags) => {
            println!(
                "skipping: regdefs/ does not compile right now ({} problems, first: {})",
                diags.len(),
                diags[0]
            );
            return;
        }
    };
    let mut headers = Vec::new();
    let mut main_c = String::new();
    let mut exported = 0;
    for (p, proj) in ir.catalogue.projects.iter().enumerate() {
        let n = ir.elements(p).count();
        if n == 0 {
            continue;
        }
        exported += 1;
        let upper = proj.name.to_ascii_uppercase();

        let xml = export(&ir, p, Format::Svd);
        assert!(
            !xml.contains("{n}"),
            "{}: `{{n}}` left in the SVD",
            proj.name
        );
        let d = parse_svd(&xml);
        assert_eq!(d.name, upper);
        let regs: usize = d.peripherals.iter().map(|p| p.registers().count()).sum();
        assert_eq!(regs, n, "{}: registers in the SVD", proj.name);
        for per in &d.peripherals {
            let mut names: Vec<&str> = per.registers().map(|r| r.name.as_str()).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), per.registers().count(), "{}", per.name);
        }

        let md = export(&ir, p, Format::Markdown);
        let rows = md
            .lines()
            .filter(|l| l.starts_with("| 0x") && l.contains("](#"))
            .count();
        assert_eq!(rows, n, "{}: rows of the register table", proj.name);
        assert!(
            md.contains("| Address | Name | Title | Width | Reset | Wake domain | Replication |")
        );

        let h = export(&ir, p, Format::CHeader);
        let defines = h
            .lines()
            .filter(|l| l.starts_with(&format!("#define {upper}_")) && !l.contains("REG_"))
            .filter(|l| {
                l.split_whitespace()
                    .nth(2)
                    .is_some_and(|v| v.starts_with("0x"))
            })
            .count();
        assert!(defines >= n, "{}: register macros", proj.name);
        assert!(
            !h.contains("clashes with an earlier macro"),
            "{}",
            proj.name
        );
        let file = format!("{}.h", proj.name);
        main_c.push_str(&format!("#include \"{file}\"\n"));
        headers.push((file, h));
    }
    assert!(exported >= 3, "projects with registers: {exported}");

    // Facts that hold in the shipped descriptions.
    let hsw = project(&ir, "hsw");
    let h = export(&ir, hsw, Format::CHeader);
    assert!(
        h.lines().any(|l| l == "#define HSW_OACONTROL 0x2360"),
        "{h}"
    );
    assert!(h.contains("#define HSW_FORCEWAKE_MT 0xA188\n"));
    let md = export(&ir, hsw, Format::Markdown);
    assert!(md.contains("| 0x2360 | [OACONTROL](#oacontrol) | Observation Architecture Control | 32 | 0x00000000 | render | - |"), "{md}");
    let tgl = project(&ir, "tgl");
    let rows = ir.map.iter().filter(|r| r.project == tgl).count();
    if rows > 0 {
        let h = export(&ir, tgl, Format::CHeader);
        assert!(h.contains(&format!("\n#define TGL_FW_RANGES_COUNT {rows}\n")));
    }

    // All headers in one translation unit.
    main_c.push_str("int main(void) { return HSW_OACONTROL == 0x2360 ? 0 : 1; }\n");
    if let Some((ok, msg)) = cc_syntax("regdefs", &headers, &main_c) {
        assert!(ok, "cc rejected the headers:\n{msg}");
    }
}

// --- Opaque ranges and GPU commands (fixture `tests/fixtures/export_extra/`,
// and the shipped NOA_UNIT and MI_REPORT_PERF_COUNT).

fn extras_ir() -> Ir {
    folder_ir("export_extra")
}

/// `ir` without its opaque ranges and commands (the documents as they were
/// before the exporters knew about them).
fn without_extras(ir: &Ir) -> Ir {
    let mut bare = ir.clone();
    bare.opaque.clear();
    bare.commands.clear();
    bare
}

/// Every line of `part`, in order, among the lines of `whole`: `whole` only
/// adds lines.
fn only_adds(part: &str, whole: &str) -> bool {
    let mut lines = whole.lines();
    part.lines().all(|p| lines.any(|w| w == p))
}

#[test]
fn c_header_of_extras_has_ranges_and_command_macros_and_compiles() {
    let ir = extras_ir();
    let hsw = export(&ir, project(&ir, "hsw"), Format::CHeader);
    let bdw = export(&ir, project(&ir, "bdw"), Format::CHeader);
    let expected = [
        " * UNIT_MUX: opaque range (registers without a public layout)",
        " * MMIO 0x9000..0x90FF (end inclusive), wake domain aon, metric-set config NOA",
        " * Mux registers of the unit, written by address only (no public layout).",
        "#define HSW_UNIT_MUX_START 0x9000",
        "#define HSW_UNIT_MUX_END 0x90FF /* inclusive */",
        " * MI_TEST_REPORT: Test Report",
        " * PRM: Fixture / TEST REPORT",
        " * GPU command, 3 dwords. Per dword n: _DWn_<FIELD>_SHIFT and _MASK;",
        "#define HSW_MI_TEST_REPORT_DWORDS 3",
        "#define HSW_MI_TEST_REPORT_DW0_FIXED 0x14000001 /* fixed fields: command_type, opcode, dword_length */",
        "#define HSW_MI_TEST_REPORT_DW0_OPCODE_SHIFT 23",
        "#define HSW_MI_TEST_REPORT_DW0_OPCODE_MASK REG_GENMASK(28, 23) /* bits 28:23; Opcode: 28h. */",
        "#define HSW_MI_TEST_REPORT_DW0_OPCODE_VALUE 0x28",
        "#define HSW_MI_TEST_REPORT_DW0_DWORD_LENGTH_VALUE 1",
        "#define HSW_MI_TEST_REPORT_DW1_GGTT_MASK REG_BIT(0) /* bit 0; Global GTT. */",
        "#define HSW_MI_TEST_REPORT_DW2_REPORT_ID_SHIFT 0",
        "#define HSW_MI_TEST_REPORT_DW2_REPORT_ID_MASK REG_GENMASK(31, 0) /* bits 31:0; Report ID. */",
    ];
    has_lines(&hsw, &expected);
    // Variable fields have no _VALUE; HSW has no upper address dword.
    assert!(!hsw.contains("_DW1_ADDRESS_VALUE") && !hsw.contains("ADDRESS_HIGH"));
    // BDW: no force-wake table, so no wake domain; 4 dwords, report ID in dword 3.
    for e in [
        " * MMIO 0x9000..0x90FF (end inclusive), metric-set config NOA",
        "#define BDW_MI_TEST_REPORT_DWORDS 4",
        "#define BDW_MI_TEST_REPORT_DW0_FIXED 0x14000002 /* fixed fields: command_type, opcode, dword_length */",
        "#define BDW_MI_TEST_REPORT_DW2_ADDRESS_HIGH_MASK REG_GENMASK(31, 0) /* bits 31:0; Address bits 63:32. */",
        "#define BDW_MI_TEST_REPORT_DW3_REPORT_ID_SHIFT 0",
    ] {
        assert!(bdw.lines().any(|l| l == e), "missing line {e:?} in\n{bdw}");
    }
    // Ranges and commands come after the registers, before the force-wake table.
    let at = |s: &str| hsw.find(s).unwrap_or_else(|| panic!("no {s}"));
    assert!(at("#define HSW_UNIT_CTL ") < at("#define HSW_UNIT_MUX_START"));
    assert!(at("#define HSW_UNIT_MUX_END") < at("#define HSW_MI_TEST_REPORT_DWORDS"));
    assert!(at("#define HSW_MI_TEST_REPORT_DW2") < at("#define HSW_FW_RANGES_COUNT"));
    // Without ranges and commands: nothing about them, and the rest unchanged.
    let snb = export(&ir, project(&ir, "snb"), Format::CHeader);
    assert!(!snb.contains("_START") && !snb.contains("MI_TEST"), "{snb}");
    let bare = without_extras(&ir);
    for p in ["snb", "hsw", "bdw"] {
        let full = export(&ir, project(&ir, p), Format::CHeader);
        let old = export(&bare, project(&ir, p), Format::CHeader);
        assert!(only_adds(&old, &full), "{p}: lines changed\n{full}");
    }
    assert_eq!(
        snb,
        export(&bare, project(&ir, "snb"), Format::CHeader),
        "snb changed"
    );

    let main_c = r#"#include "hsw.h"
#include "bdw.h"
_Static_assert(HSW_UNIT_MUX_START == 0x9000 && HSW_UNIT_MUX_END == 0x90FF, "range");
_Static_assert(BDW_UNIT_MUX_END - BDW_UNIT_MUX_START + 1 == 0x100, "size");
_Static_assert(HSW_MI_TEST_REPORT_DW0_OPCODE_MASK == 0x1F800000u, "mask");
_Static_assert(HSW_MI_TEST_REPORT_DW1_ADDRESS_MASK == 0xFFFFFFC0u, "mask");
_Static_assert(HSW_MI_TEST_REPORT_DW2_REPORT_ID_MASK == 0xFFFFFFFFu, "full dword");
_Static_assert(HSW_MI_TEST_REPORT_DW0_FIXED ==
    ((HSW_MI_TEST_REPORT_DW0_COMMAND_TYPE_VALUE << HSW_MI_TEST_REPORT_DW0_COMMAND_TYPE_SHIFT) |
     (HSW_MI_TEST_REPORT_DW0_OPCODE_VALUE << HSW_MI_TEST_REPORT_DW0_OPCODE_SHIFT) |
     (HSW_MI_TEST_REPORT_DW0_DWORD_LENGTH_VALUE << HSW_MI_TEST_REPORT_DW0_DWORD_LENGTH_SHIFT)), "fixed");
_Static_assert(REG_FIELD_PREP(BDW_MI_TEST_REPORT_DW0_DWORD_LENGTH_MASK, BDW_MI_TEST_REPORT_DWORDS - 2)
    == (BDW_MI_TEST_REPORT_DW0_FIXED & BDW_MI_TEST_REPORT_DW0_DWORD_LENGTH_MASK), "length");
_Static_assert(REG_FIELD_GET(BDW_MI_TEST_REPORT_DW0_OPCODE_MASK, BDW_MI_TEST_REPORT_DW0_FIXED) == 0x28u, "opcode");
int main(void) { return 0; }
"#;
    let headers = [("hsw.h".to_string(), hsw), ("bdw.h".to_string(), bdw)];
    if let Some((ok, msg)) = cc_syntax("extras", &headers, main_c) {
        assert!(ok, "cc rejected the header:\n{msg}");
    }
}

#[test]
fn markdown_of_extras_has_range_table_and_command_sections() {
    let ir = extras_ir();
    let md = export(&ir, project(&ir, "bdw"), Format::Markdown);
    let expected = [
        "## Opaque ranges",
        "| Name | Start | End | Wake domain | Config | Description |",
        "| UNIT_MUX | 0x9000 | 0x90FF | - | NOA | Mux registers of the unit, written by address only (no public layout). |",
        "## Commands",
        "### MI_TEST_REPORT",
        "**Test Report**",
        "- Length: 4 dwords",
        "- PRM: Fixture / TEST REPORT",
        "Writes a test report.",
        "| Dword | Bits | Name | Value | Description |",
        "| 0 | 31:29 | command_type | 0x0 | Command Type: MI command (0). |",
        "| 0 | 28:23 | opcode | 0x28 | Opcode: 28h. |",
        "| 0 | 5:0 | dword_length | 0x2 | DWord Length: total length minus 2. |",
        "| 1 | 31:6 | address |  | Address bits 31:6 \\| aligned. |",
        "| 1 | 0 | ggtt |  | Global GTT. |",
        "| 2 | 31:0 | address_high |  | Address bits 63:32. |",
        "| 3 | 31:0 | report_id |  | Report ID. |",
    ];
    let lines = has_lines(&md, &expected);
    // One row per field, in dword order; the register table is unchanged.
    let rows: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("| ") && l.chars().nth(2).is_some_and(|c| c.is_ascii_digit()))
        .filter(|l| !l.contains("](#") && l.matches(" | ").count() == 4)
        .copied()
        .collect();
    assert_eq!(rows.len(), 7, "{rows:?}");
    let hsw = export(&ir, project(&ir, "hsw"), Format::Markdown);
    assert!(hsw.contains(
        "\n| UNIT_MUX | 0x9000 | 0x90FF | aon | NOA | Mux registers of the unit, written by address only (no public layout). |\n"
    ));
    assert!(
        hsw.contains("| 2 | 31:0 | report_id |  | Report ID. |"),
        "{hsw}"
    );
    // Sections follow the registers and precede the domains.
    let at = |s: &str| hsw.find(s).unwrap_or_else(|| panic!("no {s}"));
    assert!(at("## UNIT_CTL") < at("## Opaque ranges"));
    assert!(at("## Opaque ranges") < at("## Commands"));
    assert!(at("## Commands") < at("## Power domains"));
    let snb = export(&ir, project(&ir, "snb"), Format::Markdown);
    assert!(!snb.contains("## Opaque ranges") && !snb.contains("## Commands"));
    let bare = without_extras(&ir);
    for p in ["snb", "hsw", "bdw"] {
        let full = export(&ir, project(&ir, p), Format::Markdown);
        let old = export(&bare, project(&ir, p), Format::Markdown);
        assert!(only_adds(&old, &full), "{p}: lines changed\n{full}");
    }
}

#[test]
fn svd_of_extras_has_the_range_as_a_register_less_peripheral() {
    let ir = extras_ir();
    let xml = export(&ir, project(&ir, "hsw"), Format::Svd);
    let d = parse_svd(&xml);
    let names: Vec<&str> = d.peripherals.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["UNIT", "UNIT_MUX"]);
    let mux = peripheral(&d, "UNIT_MUX");
    assert_eq!(mux.base_address, 0x9000);
    assert_eq!(mux.registers().count(), 0);
    let blocks = mux.address_block.as_ref().expect("address block");
    assert_eq!(blocks.len(), 1);
    assert_eq!((blocks[0].offset, blocks[0].size), (0, 0x100));
    assert_eq!(blocks[0].usage, svd::AddressBlockUsage::Registers);
    let desc = mux.description.as_deref().unwrap_or("");
    assert!(
        desc.starts_with("Opaque range 0x9000..0x90FF (MMIO, end inclusive)")
            && desc.contains("wake domain aon; metric-set config NOA")
            && desc.contains("Mux registers of the unit"),
        "{desc}"
    );
    // Commands are not memory mapped: not in the SVD.
    assert!(!xml.contains("MI_TEST_REPORT"));
    // Without ranges the document is unchanged.
    let bare = without_extras(&ir);
    for p in ["snb", "bdw"] {
        let p = project(&ir, p);
        let full = export(&ir, p, Format::Svd);
        assert!(only_adds(&export(&bare, p, Format::Svd), &full));
    }
    let snb = project(&ir, "snb");
    assert_eq!(
        export(&ir, snb, Format::Svd),
        export(&bare, snb, Format::Svd)
    );
}

#[test]
fn shipped_noa_unit_and_mi_report_perf_count_export() {
    let dir = Path::new(perfregs_regdefs::dir()).to_path_buf();
    let Ok(ir) = perfregs_codegen::compile_path(&dir) else {
        println!("skipping: regdefs/ does not compile right now");
        return;
    };
    let bare = without_extras(&ir);
    // Projects without ranges or commands: byte-identical documents; the
    // others only gain lines.
    for (p, proj) in ir.catalogue.projects.iter().enumerate() {
        let has =
            ir.opaque.iter().any(|o| o.project == p) || ir.commands.iter().any(|c| c.project == p);
        for f in Format::ALL {
            let (full, old) = (export(&ir, p, f), export(&bare, p, f));
            if has {
                assert!(only_adds(&old, &full), "{} {f}: lines changed", proj.name);
            } else {
                assert_eq!(full, old, "{} {f}", proj.name);
            }
        }
    }
    let hsw = project(&ir, "hsw");
    let h = export(&ir, hsw, Format::CHeader);
    for e in [
        "#define HSW_NOA_UNIT_START 0x25100",
        "#define HSW_NOA_UNIT_END 0x2FF93 /* inclusive */",
        "#define HSW_MI_REPORT_PERF_COUNT_DWORDS 3",
        "#define HSW_MI_REPORT_PERF_COUNT_DW1_CORE_MODE_ENABLE_SHIFT 4",
    ] {
        assert!(h.lines().any(|l| l == e), "missing {e:?}");
    }
    let md = export(&ir, hsw, Format::Markdown);
    assert!(md.contains("\n| NOA_UNIT | 0x25100 | 0x2FF93 | render | NOA | "));
    let d = parse_svd(&export(&ir, hsw, Format::Svd));
    let noa = peripheral(&d, "NOA_UNIT");
    assert_eq!(noa.base_address, 0x25100);
    assert_eq!(noa.address_block.as_ref().map(|b| b[0].size), Some(0xAE94));

    // BDW's command header dword is i915's MI_REPORT_PERF_COUNT (MI_INSTR(0x28, 0))
    // with length 4 - 2.
    let bdw = project(&ir, "bdw");
    let h = export(&ir, bdw, Format::CHeader);
    assert!(h.contains("\n#define BDW_MI_REPORT_PERF_COUNT_DWORDS 4\n"));
    assert!(h.contains("\n#define BDW_MI_REPORT_PERF_COUNT_DW0_FIXED 0x14000002 /* "));
    assert!(
        h.contains("\n#define BDW_MI_REPORT_PERF_COUNT_DW3_REPORT_ID_MASK REG_GENMASK(31, 0) /* ")
    );
    assert!(!h.contains("NOA_UNIT"));
    let md = export(&ir, bdw, Format::Markdown);
    assert!(md.contains("\n### MI_REPORT_PERF_COUNT\n"));
    assert!(md.contains("\n| 2 | 31:0 | memory_address_high |  | "));
    assert!(!md.contains("## Opaque ranges"));
}
