//! Every Gen8..Gen12 project's OA report formats against the offset tables
//! of IGT's i915 perf test (`tests/perf.c`, later `tests/intel/perf.c`, in
//! drm/igt-gpu-tools: `gen8_oa_formats[]` for Gen8..Gen11 and
//! `gen12_oa_formats[]` for Gen12) and the Counter Select codes and sizes of
//! Linux i915's `i915_perf.c` (`gen8_plus_oa_formats[]`,
//! `gen12_oa_formats[]`).
//!
//! The numbers below are those tables' facts re-stated (byte offsets and
//! counts), not read from our descriptions; the descriptions' format
//! metadata (`perfregs::hal::PROJECTS`, `formats`, `counters`) must place
//! every counter where they say.
//!
//! One disagreement is kept and tested as such: IGT gives the two A12
//! formats `a_off = 12` with `first_a = 7`, which would put A7 on dword 3,
//! where IGT's own `gen8_read_report_ticks()` reads GPU_TICKS (`report[3]`)
//! and where the PRM's Gen8 drawing has GPU_TICKS. The A counters A7..A18
//! then end at byte 60 while B0 starts at 64 (`b_off`). The descriptions
//! follow the PRM and IGT's ticks reader (A7 at byte 16); IGT's sanity checks
//! only bound each A delta by the clock delta, so the one-dword shift never
//! fails there.

use perfregs::hal::meta::FormatInfo;

/// One row of IGT's `struct oa_format` (bytes; 0 counts where absent).
#[derive(Clone, Copy, Debug)]
struct IgtFormat {
    name: &'static str,
    size: u32,
    a40_high_off: u32,
    a40_low_off: u32,
    n_a40: u32,
    a_off: u32,
    n_a: u32,
    first_a: u32,
    b_off: u32,
    n_b: u32,
    c_off: u32,
    n_c: u32,
}

const NONE: IgtFormat = IgtFormat {
    name: "",
    size: 0,
    a40_high_off: 0,
    a40_low_off: 0,
    n_a40: 0,
    a_off: 0,
    n_a: 0,
    first_a: 0,
    b_off: 0,
    n_b: 0,
    c_off: 0,
    n_c: 0,
};

const A32U40: IgtFormat = IgtFormat {
    name: "A32u40_A4u32_B8_C8",
    size: 256,
    a40_high_off: 160,
    a40_low_off: 16,
    n_a40: 32,
    a_off: 144,
    n_a: 4,
    first_a: 32,
    b_off: 192,
    n_b: 8,
    c_off: 224,
    n_c: 8,
};

/// IGT `gen8_oa_formats[]` (Gen8 .. Gen11).
const GEN8: &[IgtFormat] = &[
    IgtFormat {
        name: "A12",
        size: 64,
        a_off: 12,
        n_a: 12,
        first_a: 7,
        ..NONE
    },
    IgtFormat {
        name: "A12_B8_C8",
        size: 128,
        a_off: 12,
        n_a: 12,
        first_a: 7,
        b_off: 64,
        n_b: 8,
        c_off: 96,
        n_c: 8,
        ..NONE
    },
    A32U40,
    IgtFormat {
        name: "C4_B8",
        size: 64,
        c_off: 16,
        n_c: 4,
        b_off: 32,
        n_b: 8,
        ..NONE
    },
];

/// IGT `gen12_oa_formats[]`: the one format i915 offers on Gen12.
const GEN12: &[IgtFormat] = &[A32U40];

/// i915 `i915_perf.c`: (format, Counter Select, size) of
/// `gen8_plus_oa_formats[]`; Gen12's table has the A32u40 row only.
const I915_GEN8_PLUS: &[(&str, u64, usize)] = &[
    ("A12", 0, 64),
    ("A12_B8_C8", 2, 128),
    ("A32u40_A4u32_B8_C8", 5, 256),
    ("C4_B8", 7, 64),
];

/// The report header IGT's Gen8+ readers use: `report[0]` reason
/// (RPT_ID), `report[1]` timestamp, `report[2]` context ID
/// (`oa_report_get_ctx_id`), `report[3]` GPU ticks
/// (`gen8_read_report_ticks`), as byte offsets.
const HEADER: &[(&str, u32)] = &[
    ("RPT_ID", 0),
    ("TIME_STAMP", 4),
    ("CTX_ID", 8),
    ("GPU_TICKS", 12),
];

/// The compiled projects of generations `gens` (the catalogue's graphics
/// IP version) below graphics 12.55, in catalogue order: IGT's tables are
/// per generation, and 12.55 and later have formats of their own
/// (tests/all/report_formats_xe.rs).
fn of_generations(gens: std::ops::RangeInclusive<u8>) -> Vec<&'static str> {
    perfregs::hal::PROJECTS
        .iter()
        .filter(|p| {
            p.gpu
                .is_some_and(|g| gens.contains(&g.generation()) && g.graphics < (12, 55))
        })
        .map(|p| p.name)
        .collect()
}

/// IGT's A12 `a_off` is one dword short (see the file comment).
fn a_off(f: &IgtFormat) -> u32 {
    if f.name.starts_with("A12") {
        f.a_off + 4
    } else {
        f.a_off
    }
}

fn format<'a>(p: &str, formats: &'a [&'static FormatInfo], name: &str) -> &'a FormatInfo {
    formats
        .iter()
        .find(|f| f.name.eq_ignore_ascii_case(name))
        .unwrap_or_else(|| {
            panic!(
                "{p}: no format {name} in {:?}",
                formats.iter().map(|f| f.name).collect::<Vec<_>>()
            )
        })
}

/// (offset, bits, high byte) of counter `name`.
fn slot(p: &str, f: &FormatInfo, name: &str) -> (u32, u32, Option<u32>) {
    let c = f
        .counter(name)
        .unwrap_or_else(|| panic!("{p}:{}: no counter {name}", f.name));
    (c.offset, c.bits, c.high_byte_offset)
}

/// Check one of our formats against one IGT row; the number of counters
/// checked.
fn check(p: &str, ours: &FormatInfo, igt: &IgtFormat) -> usize {
    let at = format!("{p}:{}", ours.name);
    assert_eq!(ours.size, igt.size as usize, "{at}: size");
    let mut n = 0;
    for i in 0..igt.n_a40 {
        let want = (igt.a40_low_off + 4 * i, 40, Some(igt.a40_high_off + i));
        assert_eq!(slot(p, ours, &format!("A{i}")), want, "{at}: A{i} (40-bit)");
        n += 1;
    }
    for j in 0..igt.n_a {
        let a = igt.first_a + j;
        let want = (a_off(igt) + 4 * j, 32, None);
        assert_eq!(slot(p, ours, &format!("A{a}")), want, "{at}: A{a}");
        n += 1;
    }
    for (prefix, off, count) in [("B", igt.b_off, igt.n_b), ("C", igt.c_off, igt.n_c)] {
        for k in 0..count {
            let want = (off + 4 * k, 32, None);
            assert_eq!(
                slot(p, ours, &format!("{prefix}{k}")),
                want,
                "{at}: {prefix}{k}"
            );
            n += 1;
        }
    }
    // No counter beyond IGT's: every A, B, C slot of ours is one IGT places.
    let counted = ours
        .counters
        .iter()
        .filter(|c| {
            let mut ch = c.name.chars();
            matches!(ch.next(), Some('A' | 'B' | 'C')) && ch.as_str().parse::<u32>().is_ok()
        })
        .count();
    assert_eq!(counted, n, "{at}: A/B/C counters");
    // The header IGT's readers use.
    for (name, offset) in HEADER {
        assert_eq!(
            ours.counter(name).map(|c| c.offset),
            Some(*offset),
            "{at}: {name}"
        );
    }
    n
}

#[test]
fn gen8_to_gen12_formats_match_igt() {
    let mut formats_checked = 0;
    let mut counters_checked = 0;
    let (gen8_to_gen11, gen12) = (of_generations(8..=11), of_generations(12..=12));
    for (projects, table) in [(&gen8_to_gen11, GEN8), (&gen12, GEN12)] {
        for name in projects {
            let p = perfregs::hal::PROJECTS
                .iter()
                .find(|p| p.name == *name)
                .unwrap_or_else(|| panic!("no project {name}"));
            for igt in table {
                let ours = format(name, p.formats, igt.name);
                counters_checked += check(name, ours, igt);
                formats_checked += 1;
            }
        }
    }
    // 4 formats a Gen8..Gen11 project, 1 a Gen12 project.
    let (old, new) = (gen8_to_gen11.len(), gen12.len());
    assert!(
        old >= 10 && new >= 4,
        "{old} Gen8..Gen11, {new} Gen12 projects"
    );
    assert_eq!(formats_checked, old * 4 + new);
    // A12: 12 A; A12_B8_C8: 28; A32u40: 52; C4_B8: 12 (104 a Gen8..Gen11
    // project); Gen12's A32u40: 52.
    assert_eq!(counters_checked, old * 104 + new * 52);
}

#[test]
fn counter_select_codes_and_sizes_are_i915s() {
    let gen12 = of_generations(12..=12);
    for name in of_generations(8..=12) {
        let p = perfregs::hal::PROJECTS
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no project {name}"));
        let rows: &[(&str, u64, usize)] = if gen12.contains(&name) {
            &I915_GEN8_PLUS[2..3]
        } else {
            I915_GEN8_PLUS
        };
        for (format_name, select, size) in rows {
            let f = format(name, p.formats, format_name);
            assert_eq!((f.select, f.size), (*select, *size), "{name}:{format_name}");
        }
    }
}

#[test]
fn igt_a12_offset_is_where_its_own_ticks_reader_looks() {
    // The recorded disagreement, stated as facts: IGT's A12 a_off is the
    // dword IGT reads GPU ticks from, and A7..A18 at IGT's a_off would stop
    // one dword short of B0.
    let ticks = HEADER.iter().find(|h| h.0 == "GPU_TICKS").map(|h| h.1);
    for f in &GEN8[..2] {
        assert_eq!(Some(f.a_off), ticks, "{}", f.name);
        if f.n_b > 0 {
            assert_eq!(f.a_off + 4 * f.n_a + 4, f.b_off, "{}", f.name);
            assert_eq!(a_off(f) + 4 * f.n_a, f.b_off, "{}", f.name);
        }
    }
    // The descriptions put GPU_TICKS on dword 3 and A7 on dword 4.
    let bdw = perfregs::hal::PROJECTS
        .iter()
        .find(|p| p.name == "bdw")
        .expect("bdw");
    let a12 = format("bdw", bdw.formats, "A12");
    assert_eq!(slot("bdw", a12, "GPU_TICKS").0, 12);
    assert_eq!(slot("bdw", a12, "A7").0, 16);
}
