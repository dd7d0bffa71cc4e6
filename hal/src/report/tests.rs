//! Report layouts pinned inside the crate: each format below is written
//! from its PRM drawing (PRM 000 for HSW, PRM 001/003 for BDW and TGL; the
//! same layouts as Linux i915's and Mesa's readers) as offset rules, not
//! taken from the descriptions the generated layouts come from, and must
//! equal the generated metadata slot for slot; the typed view must read a
//! report built by those rules.

extern crate std;

use super::{Report, ReportFormat};
use std::collections::BTreeMap;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

/// Counter name -> (offset, bits, high byte offset).
type Slots = BTreeMap<String, (u32, u32, Option<u32>)>;

/// The header of Gen7.5 reports: RPT_ID, a 64-bit TIME_STAMP (dwords 1-2).
fn gen7_header() -> Slots {
    let mut s = Slots::new();
    s.insert("RPT_ID".into(), (0, 32, None));
    s.insert("TIME_STAMP".into(), (4, 64, None));
    s
}

/// The header of Gen8+ reports: RPT_ID, TIME_STAMP, CTX_ID, GPU_TICKS.
fn gen8_header() -> Slots {
    let mut s = Slots::new();
    for (k, name) in ["RPT_ID", "TIME_STAMP", "CTX_ID", "GPU_TICKS"]
        .into_iter()
        .enumerate()
    {
        s.insert(name.into(), (4 * k as u32, 32, None));
    }
    s
}

/// 32-bit counters `<kind><n>` for `n` in `ns`, the first at byte `at`.
fn run(s: &mut Slots, kind: char, ns: core::ops::Range<u32>, at: u32) {
    let first = ns.start;
    for n in ns {
        s.insert(format!("{kind}{n}"), (at + 4 * (n - first), 32, None));
    }
}

/// The generated metadata of `F`, as [`Slots`].
fn generated<F: ReportFormat>() -> Slots {
    F::INFO
        .counters
        .iter()
        .map(|c| (c.name.to_string(), (c.offset, c.bits, c.high_byte_offset)))
        .collect()
}

/// `F`'s select code, size and every slot are the drawing's; a report whose
/// every byte is distinct reads, through the typed view, what the drawing
/// puts at each counter's place.
fn check<F: ReportFormat>(select: u64, size: usize, want: &Slots) {
    let name = F::INFO.name;
    assert_eq!((F::INFO.select, F::INFO.size), (select, size), "{name}");
    let got = generated::<F>();
    let diff: Vec<_> = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(v))
        .map(|(k, v)| format!("{k}: drawing {v:?}, generated {:?}", got.get(k)))
        .chain(
            got.keys()
                .filter(|k| !want.contains_key(*k))
                .map(|k| format!("{k}: not in the drawing")),
        )
        .collect();
    assert!(diff.is_empty(), "{name}:\n{}", diff.join("\n"));

    let bytes: Vec<u8> = (0..size).map(|i| (i * 7 + 1) as u8).collect();
    let le = |at: u32, n: u32| {
        (0..n)
            .rev()
            .fold(0u64, |v, i| v << 8 | u64::from(bytes[(at + i) as usize]))
    };
    let read = |(at, bits, high): (u32, u32, Option<u32>)| match high {
        Some(h) => le(at, 4) | le(h, 1) << 32,
        None => le(at, bits / 8),
    };
    let r = Report::<F>::new(&bytes).expect("a whole report");
    for (k, slot) in want {
        let (kind, n) = k.split_at(1);
        let typed = match (kind, n.parse::<usize>()) {
            ("A", Ok(n)) => r.a(n),
            ("B", Ok(n)) => r.b(n),
            ("C", Ok(n)) => r.c(n),
            _ => match k.as_str() {
                "RPT_ID" => r.rpt_id().map(u64::from),
                "TIME_STAMP" => r.timestamp(),
                "CTX_ID" => r.ctx_id().map(u64::from),
                "GPU_TICKS" => r.gpu_ticks(),
                _ => r.counter(k),
            },
        };
        assert_eq!(typed, Some(read(*slot)), "{name} {k}");
    }
}

/// `s`, the slots of the 64-byte A-counter format `A` (select 0), then
/// with B0..B7 from byte 64 and C0..C7 from byte 96: the 128-byte `AB8C8`
/// (select 2).
fn check_with_b8c8<A: ReportFormat, AB8C8: ReportFormat>(s: &mut Slots) {
    check::<A>(0, 64, s);
    run(s, 'B', 0..8, 64);
    run(s, 'C', 0..8, 96);
    check::<AB8C8>(2, 128, s);
}

/// HSW (PRM 000): A counters from dword 3 (A0 at byte 12), then B and C
/// rows of eight.
#[cfg(feature = "hsw")]
#[test]
fn hsw_report_layouts_are_the_prms() {
    use crate::hsw::reports::{A13, A13B8C8, A45B8C8};
    let mut s = gen7_header();
    run(&mut s, 'A', 0..13, 12);
    check_with_b8c8::<A13, A13B8C8>(&mut s);
    let mut s = gen7_header();
    run(&mut s, 'A', 0..45, 12);
    run(&mut s, 'B', 0..8, 192);
    run(&mut s, 'C', 0..8, 224);
    check::<A45B8C8>(5, 256, &s);
}

/// Gen8+ layouts (PRM 001, PRM 003): A12 carries A7..A18 from byte 16;
/// A32u40_A4u32_B8_C8 has A0..A31 as low dwords from byte 16 with their
/// high bytes from byte 160, A32..A35 32-bit, B from 192, C from 224.
fn gen8_layouts<A12: ReportFormat, A12B8C8: ReportFormat, A32: ReportFormat, C4B8: ReportFormat>() {
    let mut s = gen8_header();
    run(&mut s, 'A', 7..19, 16);
    check_with_b8c8::<A12, A12B8C8>(&mut s);
    let mut s = gen8_header();
    for n in 0..32u32 {
        s.insert(format!("A{n}"), (16 + 4 * n, 40, Some(160 + n)));
    }
    run(&mut s, 'A', 32..36, 16 + 4 * 32);
    run(&mut s, 'B', 0..8, 192);
    run(&mut s, 'C', 0..8, 224);
    check::<A32>(5, 256, &s);
    let mut s = gen8_header();
    run(&mut s, 'C', 0..4, 16);
    run(&mut s, 'B', 0..8, 32);
    check::<C4B8>(7, 64, &s);
}

#[cfg(feature = "bdw")]
#[test]
fn bdw_report_layouts_are_the_prms() {
    use crate::bdw::reports::{A32u40A4u32B8C8, A12, A12B8C8, C4B8};
    gen8_layouts::<A12, A12B8C8, A32u40A4u32B8C8, C4B8>();
}

#[cfg(feature = "tgl")]
#[test]
fn tgl_report_layouts_are_the_prms() {
    use crate::tgl::reports::{A32u40A4u32B8C8, A12, A12B8C8, C4B8};
    gen8_layouts::<A12, A12B8C8, A32u40A4u32B8C8, C4B8>();
}

/// The timestamp helpers read TIME_STAMP where the drawings put it
/// (dword 1), on both header kinds.
#[cfg(all(feature = "hsw", feature = "tgl"))]
#[test]
fn the_timestamp_is_dword_1() {
    let mut r = [0u8; 256];
    r[4..8].copy_from_slice(&0xDEAD_BEEFu32.to_le_bytes());
    r[12..16].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    let hsw = Report::<crate::hsw::reports::A45B8C8>::new(&r).expect("256 bytes");
    assert_eq!(hsw.timestamp(), Some(0xDEAD_BEEF));
    assert_eq!(hsw.a(0), Some(0x1234_5678));
    let tgl = Report::<crate::tgl::reports::A32u40A4u32B8C8>::new(&r).expect("256 bytes");
    assert_eq!(tgl.timestamp(), Some(0xDEAD_BEEF));
    assert_eq!(tgl.gpu_ticks(), Some(0x1234_5678));
}
