//! Every report format of every PRM-described GPU project (graphics below
//! 12.55; the later ones are in tests/all/report_formats_xe.rs) against a table
//! written from the PRMs (and, where the PRM text has no table or says "Reserved" where
//! drivers read counters, from Linux i915's format names and Mesa's report
//! readers), not from our descriptions: the metadata must equal it, and the
//! typed report views must read a buffer built from it.
//!
//! Each format is its PRM drawing: one string per printed row of 32 bytes,
//! cells as printed, the highest-addressed dword on the LEFT (PRM 000: "the
//! RPT_ID is always stored in the lowest addressed DWORD", the rightmost
//! cell of row 0). Cell names: `RPT` (RPT_ID), `TS` (a TIME_STAMP dword: two
//! cells make it 64-bit), `CTX` (CTX_ID), `TICKS` (GPU_TICKS), `INST`
//! (INST_ADD), `A7`/`B0`/`C3` (a counter's dword, the low dword of a 40-bit
//! one), `H31-28` (the high bytes of the 40-bit A31..A28, lowest-numbered in
//! the lowest byte), `-` (reserved).

use crate::support;

use std::collections::BTreeMap;

use perfregs::hal::meta::CounterSlot;
use perfregs::hal::{FormatVisitor, Report, ReportFormat};

/// (project, Counter Select, format name, size in bytes, rows as printed).
type Drawing = (
    &'static str,
    u64,
    &'static str,
    usize,
    &'static [&'static str],
);

// SNB (PRM 000 [DevSNB]): the A counters ascend from left to right within a
// row ("A-Cntr 0 .. A-Cntr 4 TIME_STAMP RPT_ID"), unlike IVB and later.
const SNB_ROW0: &str = "A0 A1 A2 A3 A4 TS TS RPT";
const SNB_ROW1: &str = "A5 A6 A7 A8 A9 A10 A11 A12";
const SNB_ROW2: &str = "A13 A14 A15 A16 A17 A18 A19 A20";
// The A29_B4 table's row 3 lost cells A21..A26 in the OCR; the A29 table
// prints the whole row.
const SNB_ROW3: &str = "A21 A22 A23 A24 A25 A26 A27 A28";
const B4_ROW: &str = "- - - - B3 B2 B1 B0";
const RESERVED: &str = "- - - - - - - -";

// IVB, VLV and HSW (PRM 000): descending within a row.
const ROW0: &str = "A4 A3 A2 A1 A0 TS TS RPT";
const ROW1: &str = "A12 A11 A10 A9 A8 A7 A6 A5";
const ROW2: &str = "A20 A19 A18 A17 A16 A15 A14 A13";
const ROW3: &str = "A28 A27 A26 A25 A24 A23 A22 A21";
const ROW4: &str = "A36 A35 A34 A33 A32 A31 A30 A29";
const ROW5: &str = "A44 A43 A42 A41 A40 A39 A38 A37";
const B8_ROW: &str = "B7 B6 B5 B4 B3 B2 B1 B0";
// HSW rows the PRM prints as "Reserved" where the format's i915 name
// (A13_B8_C8, A29_B8_C8, B4_C8, A45_B8_C8, B4_C8_A16) carries eight C
// counters and Mesa reads them as the dwords after the B counters.
const C8_ROW: &str = "C7 C6 C5 C4 C3 C2 C1 C0";

// BDW (PRM 001) and TGL (PRM 003): GPU_TICKS and CTX_ID in row 0.
const GEN8_ROW0: &str = "A10 A9 A8 A7 TICKS CTX TS RPT";
const GEN8_ROW1: &str = "A18 A17 A16 A15 A14 A13 A12 A11";
// Counter Select 101 (A32u40_A4u32_B8_C8): PRM 003's OAG table; PRM 001 has
// the table only as a picture, and Mesa's BDW reader agrees with PRM 003
// (A0..A31 low dwords from dword 4, A32..A35 at dwords 36..39, the high
// bytes at byte 160, B and C from dword 48).
const A32U40: &[&str] = &[
    "A3 A2 A1 A0 TICKS CTX TS RPT",
    "A11 A10 A9 A8 A7 A6 A5 A4",
    "A19 A18 A17 A16 A15 A14 A13 A12",
    "A27 A26 A25 A24 A23 A22 A21 A20",
    "A35 A34 A33 A32 A31 A30 A29 A28",
    "H31-28 H27-24 H23-20 H19-16 H15-12 H11-8 H7-4 H3-0",
    B8_ROW,
    C8_ROW,
];
const GEN8_C4_B8: &[&str] = &["C3 C2 C1 C0 TICKS CTX TS RPT", B8_ROW];

#[rustfmt::skip] // one format a line
const DRAWINGS: &[Drawing] = &[
    ("snb", 0, "A13", 64, &[SNB_ROW0, SNB_ROW1]),
    ("snb", 1, "A29", 128, &[SNB_ROW0, SNB_ROW1, SNB_ROW2, SNB_ROW3]),
    ("snb", 2, "A13_B4", 128, &[SNB_ROW0, SNB_ROW1, B4_ROW, RESERVED]),
    ("snb", 3, "A29_B4", 192, &[SNB_ROW0, SNB_ROW1, SNB_ROW2, SNB_ROW3, B4_ROW, RESERVED]),
    ("ivb", 0, "A13", 64, &[ROW0, ROW1]),
    ("ivb", 1, "A29", 128, &[ROW0, ROW1, ROW2, ROW3]),
    // Row 1 is garbled in the OCR (one cell, "A-Cntr 9"); the A13 table
    // prints it whole.
    ("ivb", 2, "A13_B4", 128, &[ROW0, ROW1, B4_ROW, RESERVED]),
    // Row 3 lost cells in the OCR ("A-Cntr 27 .. A-Cntr 23 A-Cntr 22 A-Cntr 21").
    ("ivb", 3, "A29_B4", 192, &[ROW0, ROW1, ROW2, ROW3, B4_ROW, RESERVED]),
    ("ivb", 5, "A45_B4", 256, &[ROW0, ROW1, ROW2, ROW3, ROW4, ROW5, B4_ROW, RESERVED]),
    ("ivb", 6, "A16", 128, &["- - - - - TS TS RPT", RESERVED, ROW4, ROW5]),
    ("hsw", 0, "A13", 64, &[ROW0, ROW1]),
    ("hsw", 1, "A29", 128, &[ROW0, ROW1, ROW2, ROW3]),
    ("hsw", 2, "A13_B8_C8", 128, &[ROW0, ROW1, B8_ROW, C8_ROW]),
    ("hsw", 3, "A29_B8_C8", 192, &[ROW0, ROW1, ROW2, ROW3, B8_ROW, C8_ROW]),
    ("hsw", 4, "B4_C8", 64, &["B3 B2 B1 B0 INST TS TS RPT", C8_ROW]),
    ("hsw", 5, "A45_B8_C8", 256, &[ROW0, ROW1, ROW2, ROW3, ROW4, ROW5, B8_ROW, C8_ROW]),
    ("hsw", 6, "B4_C8_A16", 128, &["B3 B2 B1 B0 INST TS TS RPT", C8_ROW, ROW4, ROW5]),
    // Printed "Reserved Reserved Reserved C-Cntr 0 INST ADD ..."; i915's
    // name C4_B8 carries four C counters, read as dwords 4..7.
    ("hsw", 7, "C4_B8", 64, &["C3 C2 C1 C0 INST TS TS RPT", B8_ROW]),
    ("bdw", 0, "A12", 64, &[GEN8_ROW0, GEN8_ROW1]),
    ("bdw", 2, "A12_B8_C8", 128, &[GEN8_ROW0, GEN8_ROW1, B8_ROW, C8_ROW]),
    ("bdw", 5, "A32U40_A4U32_B8_C8", 256, A32U40),
    ("bdw", 7, "C4_B8", 64, GEN8_C4_B8),
    ("tgl", 0, "A12", 64, &[GEN8_ROW0, GEN8_ROW1]),
    ("tgl", 2, "A12_B8_C8", 128, &[GEN8_ROW0, GEN8_ROW1, B8_ROW, C8_ROW]),
    ("tgl", 5, "A32U40_A4U32_B8_C8", 256, A32U40),
    ("tgl", 7, "C4_B8", 64, GEN8_C4_B8),
];

/// VLV has IVB's tables (PRM 000 "[DevIVB] [DevVLV] [DevVLVT]").
/// Whether a PRM draws `project`'s formats: graphics below 12.55. No PRM
/// here covers Xe_HPG (12.55) and later; their layouts are checked against
/// the kernel's `oa_formats[]` and IGT's readers in
/// tests/all/report_formats_xe.rs.
fn prm_described(project: &str) -> bool {
    perfregs::hal::project(project)
        .and_then(|p| p.gpu)
        .is_none_or(|g| g.graphics < (12, 55))
}

fn drawings_of(project: &str) -> impl Iterator<Item = &'static Drawing> + '_ {
    // VLV's formats are IVB's (PRM 000). No PRM here draws the Gen9..Gen11
    // or the later Gen12 parts' formats: i915 gives Gen8..Gen11 one format
    // table and TGL and later another, so they are held to BDW's and TGL's
    // drawings (tests/all/report_formats_igt.rs checks them against IGT's offsets).
    let of = match project {
        "vlv" => "ivb",
        "chv" | "skl" | "bxt" | "kbl" | "glk" | "cfl" | "cnl" | "icl" | "ehl" => "bdw",
        "rkl" | "adl" | "dg1" => "tgl",
        p => p,
    };
    DRAWINGS.iter().filter(move |d| d.0 == of)
}

/// Counter name -> (offset, bits, high byte offset), from a drawing.
fn slots(rows: &[&str]) -> BTreeMap<String, (u32, u32, Option<u32>)> {
    let mut out = BTreeMap::new();
    let mut high = BTreeMap::new();
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells.len(), 8, "row {r} of a drawing: {row:?}");
        for (k, cell) in cells.iter().rev().enumerate() {
            let offset = (32 * r + 4 * k) as u32;
            let name = match *cell {
                "-" => continue,
                "RPT" => "RPT_ID".to_string(),
                "CTX" => "CTX_ID".to_string(),
                "TICKS" => "GPU_TICKS".to_string(),
                "INST" => "INST_ADD".to_string(),
                "TS" => {
                    // One cell: 32 bits; a second, adjacent cell widens it.
                    let e = out
                        .entry("TIME_STAMP".to_string())
                        .or_insert((offset, 0, None));
                    assert_eq!(e.0 + e.1 / 8, offset, "TIME_STAMP cells not adjacent");
                    e.1 += 32;
                    continue;
                }
                h if h.starts_with('H') => {
                    let (hi, lo) = h[1..].split_once('-').expect("H<hi>-<lo>");
                    let (hi, lo): (u32, u32) = (hi.parse().unwrap(), lo.parse().unwrap());
                    for (i, n) in (lo..=hi).enumerate() {
                        high.insert(format!("A{n}"), offset + i as u32);
                    }
                    continue;
                }
                c => c.to_string(),
            };
            assert!(
                out.insert(name, (offset, 32, None)).is_none(),
                "{cell} twice"
            );
        }
    }
    for (name, h) in high {
        let e = out
            .get_mut(&name)
            .expect("a high byte's counter has a low dword");
        e.1 = 40;
        e.2 = Some(h);
    }
    out
}

fn metadata_slots(counters: &[CounterSlot]) -> BTreeMap<String, (u32, u32, Option<u32>)> {
    counters
        .iter()
        .map(|c| (c.name.to_string(), (c.offset, c.bits, c.high_byte_offset)))
        .collect()
}

#[test]
fn the_drawings_are_well_formed() {
    for (p, select, name, size, rows) in DRAWINGS {
        assert_eq!(
            rows.len() * 32,
            *size,
            "{p}:{name} ({select}): rows x 32 bytes"
        );
        assert!(!slots(rows).is_empty());
    }
    // The cell reader places what the PRM text says: RPT_ID at byte 0, a
    // two-cell TIME_STAMP 64-bit at byte 4, SNB's A4 at dword 3.
    let s = slots(&[SNB_ROW0, SNB_ROW1]);
    assert_eq!(s["RPT_ID"], (0, 32, None));
    assert_eq!(s["TIME_STAMP"], (4, 64, None));
    assert_eq!(s["A4"], (12, 32, None));
    assert_eq!(s["A0"], (28, 32, None));
    let s = slots(A32U40);
    assert_eq!(s["A0"], (16, 40, Some(160)));
    assert_eq!(s["A31"], (140, 40, Some(191)));
    assert_eq!(s["A32"], (144, 32, None));
    assert_eq!(s["B0"], (192, 32, None));
    assert_eq!(s["C7"], (252, 32, None));
}

#[test]
fn every_format_matches_the_prm_table() {
    let mut checked = 0;
    let mut described = 0;
    let mut later = 0;
    for p in perfregs::hal::PROJECTS {
        let drawn: Vec<_> = drawings_of(p.name).collect();
        if !prm_described(p.name) {
            assert!(drawn.is_empty(), "{}: drawn, but not PRM-described", p.name);
            later += p.formats.len();
            continue;
        }
        described += p.formats.len();
        if p.formats.is_empty() {
            assert!(drawn.is_empty(), "{}: tables but no formats", p.name);
            continue;
        }
        assert_eq!(
            p.formats.len(),
            drawn.len(),
            "{}: formats {:?}",
            p.name,
            p.formats.iter().map(|f| f.name).collect::<Vec<_>>()
        );
        for (_, select, name, size, rows) in drawn {
            let f = p
                .formats
                .iter()
                .find(|f| f.select == *select)
                .unwrap_or_else(|| panic!("{}: no format with select {select}", p.name));
            assert_eq!(
                (f.name, f.size),
                (*name, *size),
                "{} select {select}",
                p.name
            );
            assert_eq!(
                metadata_slots(f.counters),
                slots(rows),
                "{}:{name}: counters, offsets, widths, high bytes",
                p.name
            );
            checked += 1;
        }
    }
    // 4 SNB + 6 IVB + 6 VLV + 8 HSW + 4 each for the 14 Gen8..Gen12 LP
    // projects: every listed format of the PRM-described projects.
    assert_eq!(checked, 4 + 6 + 6 + 8 + 4 * 14);
    assert_eq!(described, checked);
    // Every listed format is drawn or of a project no PRM here covers.
    assert_eq!(support::listed_formats(), checked + later);
}

/// The typed views read a buffer laid out by the drawing (not by the
/// metadata the views are generated from).
#[derive(Default)]
struct ReadsTheDrawing {
    checked: usize,
}

impl FormatVisitor for ReadsTheDrawing {
    fn visit<F: ReportFormat>(&mut self) {
        let project = <F::Project as perfregs::hal::Project>::NAME;
        if !prm_described(project) {
            return;
        }
        let Some((_, _, name, size, rows)) = drawings_of(project).find(|d| d.1 == F::INFO.select)
        else {
            panic!("{project}: no drawing for select {}", F::INFO.select);
        };
        let mut buf = vec![0u8; *size];
        let want: Vec<(String, u64)> = slots(rows)
            .into_iter()
            .enumerate()
            .map(|(i, (counter, (offset, bits, high)))| {
                // Distinct values, as wide as the slot.
                let v = (0x0101_0101u64 * (i as u64 + 1)) ^ ((i as u64) << 40);
                let v = if bits >= 64 { v } else { v & ((1 << bits) - 1) };
                let o = offset as usize;
                buf[o..o + 4].copy_from_slice(&(v as u32).to_le_bytes());
                match (bits, high) {
                    (40, Some(h)) => buf[h as usize] = (v >> 32) as u8,
                    (64, _) => buf[o + 4..o + 8].copy_from_slice(&((v >> 32) as u32).to_le_bytes()),
                    _ => {}
                }
                (counter, v)
            })
            .collect();
        let r = Report::<F>::new(&buf).expect("a buffer of the drawn size");
        for (counter, v) in &want {
            assert_eq!(r.counter(counter), Some(*v), "{project}:{name}.{counter}");
            let typed = match counter.split_at(1) {
                ("A", n) => n.parse().ok().map(|n| r.a(n)),
                ("B", n) => n.parse().ok().map(|n| r.b(n)),
                ("C", n) => n.parse().ok().map(|n| r.c(n)),
                _ => None,
            };
            if let Some(got) = typed {
                assert_eq!(got, Some(*v), "{project}:{name}: typed {counter}");
            }
        }
        self.checked += 1;
    }
}

#[test]
fn typed_views_read_the_prm_layout() {
    let mut v = ReadsTheDrawing::default();
    support::visit_every_gpu_format(&mut v);
    assert_eq!(v.checked, 4 + 6 + 6 + 8 + 4 * 14);
}
