//! The OA hardware of DG2, MTL, LNL, BMG and PTL on their emulated parts
//! (catalogue parts, `Sku::for_part`): Xe2/Xe3 TestOa's PEC identities as
//! IGT's `pec_sanity_check` (tests/intel/xe_oa.c) states them, the media
//! OA units sampling into their own buffers while OAG samples, MMIO-
//! triggered reports, buffer sizes up to 128 MiB and the Xe2 wrap at whole
//! reports, and random access sequences on every OA unit (no panic).
//!
//! Generic over the projects: every part of the built projects whose
//! catalogue gives the facts a test needs (PEC layouts, several OA units,
//! an MMIO trigger); with the new hal features off these tests check
//! nothing (the new projects are not built) and say so in their counts.

use hal::meta::{FormatInfo, PartInfo, ProjectInfo};
use perfregs_emu::*;

use crate::support;
use support::*;

const BASE: u64 = 0x0100_0000;
/// Timer exponent: a report every 64 ticks (512 GPU clocks).
const EXPONENT: u64 = 5;
const NEW: [&str; 5] = ["dg2", "mtl", "lnl", "bmg", "ptl"];

/// One `<register>` of a metric set: (config type, address, value).
type Write = (String, u64, u32);

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex")
}

/// The writes of set `symbol` of the shipped IGT file `file`, in order.
fn set_writes(file: &str, symbol: &str) -> Vec<Write> {
    let (_, _, xml) = perfregs_regdefs::METRIC_SETS
        .iter()
        .find(|(f, _, _)| f.ends_with(file))
        .unwrap_or_else(|| panic!("no metric-set file {file}"));
    let at = xml
        .find(&format!("symbol_name=\"{symbol}\""))
        .expect("the set");
    let start = xml[..at].rfind("<set").expect("<set");
    let end = at + xml[at..].find("</set>").expect("</set>");
    let mut out = Vec::new();
    let mut rest = &xml[start..end];
    while let Some(i) = rest.find("<register ") {
        let e = rest[i..].find("/>").expect("tag end") + i;
        let tag = &rest[i..e];
        out.push((
            attr(tag, "type").expect("type").to_string(),
            hex(attr(tag, "address").expect("address")),
            hex(attr(tag, "value").expect("value")) as u32,
        ));
        rest = &rest[e..];
    }
    out
}

/// The built parts of the new projects, with their projects.
fn parts() -> Vec<(&'static PartInfo, &'static ProjectInfo)> {
    hal::PARTS
        .iter()
        .copied()
        .filter(|part| NEW.contains(&part.project))
        .filter_map(|part| {
            let p = hal::PROJECTS
                .iter()
                .copied()
                .find(|p| p.name == part.project)?;
            Some((part, p))
        })
        .collect()
}

/// The emulated part, every domain awake, no warnings yet.
fn emulator(part: &PartInfo, p: &'static ProjectInfo, sku: Sku) -> Emulator {
    let _ = part;
    let mut emu = Emulator::new(p, sku);
    wake_all(&mut emu);
    emu.take_warnings();
    emu
}

fn file_name(part: &PartInfo) -> &'static str {
    let f = part.metric_files.first().expect("a metric file");
    f.rsplit('/').next().unwrap_or(f)
}

fn format_named(p: &ProjectInfo, name: &str) -> &'static FormatInfo {
    p.formats
        .iter()
        .copied()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("{}: no {name}", p.name))
}

fn slot(f: &FormatInfo, name: &str, report: &[u8]) -> u64 {
    f.counter(name)
        .and_then(|s| s.read(report))
        .unwrap_or_else(|| panic!("{} {name}", f.name))
}

/// The reports unit `nth` wrote from `base` (none wrapped: `n` timer and
/// MMIO reports of its current format).
fn reports(emu: &Emulator, nth: usize, base: u64) -> (Vec<Vec<u8>>, &'static FormatInfo) {
    let u = emu.unit_nth::<OaUnit>(nth);
    let f = u.format().expect("a layout");
    let st = u.stats().expect("on");
    let n = (st.timer_reports + st.mmio_reports) as usize;
    let all = emu.gpu_mem().read(base, n * f.size);
    (all.chunks(f.size).map(<[u8]>::to_vec).collect(), f)
}

/// IGT's per-XeCore TEST_EVENT1 counters of pec_sanity_check: PEC 3..6
/// count XeCores 0..3 and PEC 21..24 XeCores 4..7
/// (`TEST_EVENT1_CYCLES_XECOREn`), PEC 2 all XeCores.
const IGT_XECORE_PECS: [(usize, u32); 8] = [
    (3, 0),
    (4, 1),
    (5, 2),
    (6, 3),
    (21, 4),
    (22, 5),
    (23, 6),
    (24, 7),
];

/// The PECs TestOa programs with TEST_EVENT1 of one XeCore, read from the
/// IGT file (PES pair i at 0x13000 selects PEC i; pair i - 32 at 0x13300
/// PEC i >= 32): (PEC, XeCore).
fn test_oa_xecore_pecs(writes: &[Write]) -> Vec<(usize, u32)> {
    writes
        .iter()
        .filter_map(|(_, a, v)| {
            let pec = match *a {
                0x13000..0x13300 if (a - 0x13000) % 8 == 0 => (a - 0x13000) / 8,
                0x13300..0x13400 if (a - 0x13300) % 8 == 0 => 32 + (a - 0x13300) / 8,
                _ => return None,
            };
            (v & 0xFFFF == 0x3E00 && v & (1 << 16) != 0).then(|| (pec as usize, (v >> 20) & 0xFF))
        })
        .collect()
}

/// Xe2/Xe3 TestOa, written as IGT's file has it, on a part with `sku`:
/// IGT's PEC identities between consecutive reports.
fn check_pec_identities(part: &PartInfo, p: &'static ProjectInfo, sku: Sku) -> usize {
    let writes = set_writes(file_name(part), "TestOa");
    let mut emu = emulator(part, p, sku);
    for (_, a, v) in &writes {
        emu.write32(*a, *v);
    }
    let sample = p.gpu.and_then(|g| g.oa).expect("oa").sample;
    emu.unit_mut::<OaUnit>()
        .start_periodic(BASE, 1 << 20, EXPONENT, sample.select)
        .expect("start");
    assert_eq!(
        emu.unit::<OaUnit>().format().map(|f| f.name),
        Some("PEC64U64")
    );
    emu.advance(40 * 64);
    emu.advance(64 * 64); // a second advance: no new warnings
    let (rs, f) = reports(&emu, 0, BASE);
    assert!(rs.len() >= 100, "{}: {} reports", part, rs.len());
    let xecores = sku.xecore_enable & part.device.dual_subslice_mask;
    let n = u64::from(xecores.count_ones());
    assert!(n > 0);
    let present = |x: u32| xecores >> x & 1 != 0;
    let ours = test_oa_xecore_pecs(&writes);
    assert!(ours.len() >= 8, "{part}: {ours:?}");
    for w in rs.windows(2) {
        let d = |name: &str| slot(f, name, &w[1]).wrapping_sub(slot(f, name, &w[0]));
        let clocks = d("GPU_TICKS");
        assert_eq!(clocks, 512, "{part}");
        assert_eq!(d("TIME_STAMP"), 64, "{part}");
        assert_eq!(d("PEC2"), clocks * n, "{part}: PEC2 = clocks x {n} XeCores");
        for &(pec, x) in IGT_XECORE_PECS.iter().chain(&ours) {
            let want = if present(x) { clocks } else { 0 };
            assert_eq!(d(&format!("PEC{pec}")), want, "{part}: PEC{pec} XeCore{x}");
        }
    }
    // The events the model does not know: once each, never silently.
    let w = emu.take_warnings();
    let mut unknown: Vec<u8> = w
        .iter()
        .filter_map(|w| match w.kind {
            WarningKind::Oa(OaWarningKind::PecEventUnknown { pec, .. }) => Some(pec),
            _ => None,
        })
        .collect();
    unknown.sort_unstable();
    assert_eq!(unknown, [0, 1, 32, 33, 34, 35], "{part}: {w:#?}");
    for (i, r) in rs.iter().enumerate().skip(1) {
        for pec in [0, 1, 32, 33, 34, 35] {
            assert_eq!(slot(f, &format!("PEC{pec}"), r), 0, "{part} #{i}");
        }
    }
    rs.len()
}

#[test]
fn xe2_test_oa_gives_igt_pec_identities_on_every_part() {
    let mut ran = Vec::new();
    for (part, p) in parts() {
        if !p.formats.iter().any(|f| f.counter("PEC0").is_some()) {
            continue;
        }
        check_pec_identities(part, p, Sku::for_part(p, &part.device));
        ran.push(part.project);
    }
    for name in ["lnl", "bmg", "ptl"] {
        let built = hal::PROJECTS.iter().any(|p| p.name == name);
        assert_eq!(ran.contains(&name), built, "{name}: {ran:?}");
    }
}

#[test]
fn a_fused_xecore_counts_nothing() {
    for (part, p) in parts() {
        if !p.formats.iter().any(|f| f.counter("PEC0").is_some()) {
            continue;
        }
        // XeCore 1 (IGT's PEC 4) fused off: PEC4 0, PEC2 one XeCore less.
        let sku = Sku::for_part(p, &part.device).fuse_dss(1);
        assert_eq!(sku.xecore_enable & 2, 0);
        check_pec_identities(part, p, sku);
    }
}

/// The block base of a media unit (its control register is base + 0x194:
/// xe `OAM_CONTROL(base)`, regs/xe_oa_regs.h).
fn block_base(control: u64) -> u64 {
    control - 0x194
}

#[test]
fn media_units_sample_their_own_buffers_while_oag_samples() {
    // MTL's TestOam programs the OAM CECs (and triggers) with TestOa's
    // values but CEC7; each media unit gets them at its own block.
    let has_mtl = hal::PROJECTS.iter().any(|p| p.name == "mtl");
    let oam_writes: Vec<Write> = if has_mtl {
        set_writes("oa-mtlgt2.xml", "TestOam")
    } else {
        Vec::new()
    };
    let mut checked = 0;
    for (part, p) in parts() {
        let units = p.gpu.and_then(|g| g.oa).map_or(&[][..], |o| o.units);
        if units.len() < 2 || oam_writes.is_empty() {
            continue;
        }
        for (nth, info) in units.iter().enumerate().skip(1) {
            let mut emu = emulator(part, p, Sku::for_part(p, &part.device));
            assert_eq!(emu.unit_count::<OaUnit>(), units.len());
            assert_eq!(
                emu.unit_nth::<OaUnit>(nth).info().map(|u| u.name),
                Some(info.name)
            );
            let base = block_base(info.base);
            for (_, a, v) in &oam_writes {
                if (0x393000..0x393080).contains(a) {
                    emu.write32(a - 0x393000 + base, *v);
                }
            }
            let oag = p.gpu.and_then(|g| g.oa).expect("oa").sample;
            let mpec = format_named(p, "MPEC8U32_B8_C8");
            let media_base = 0x0200_0000;
            emu.unit_mut::<OaUnit>()
                .start_periodic(BASE, 1 << 20, EXPONENT, oag.select)
                .expect("OAG");
            emu.unit_nth_mut::<OaUnit>(nth)
                .start_periodic(media_base, 1 << 20, EXPONENT + 1, mpec.select)
                .expect("media unit");
            assert_eq!(
                emu.unit_nth::<OaUnit>(nth).format().map(|f| f.name),
                Some(mpec.name)
            );
            emu.advance(64 * 60 + 10);
            let (g, gf) = reports(&emu, 0, BASE);
            let (m, mf) = reports(&emu, nth, media_base);
            assert_eq!(gf.name, oag.name);
            assert!(
                g.len() >= 59 && m.len() >= 29,
                "{part} {}: {} {}",
                info.name,
                g.len(),
                m.len()
            );
            assert_eq!(
                g.len(),
                2 * m.len() + (g.len() % 2),
                "{part}: periods 64 and 128"
            );
            for w in m.windows(2) {
                let d = |n: &str| slot(mf, n, &w[1]).wrapping_sub(slot(mf, n, &w[0]));
                let clocks = d("GPU_TICKS");
                assert_eq!(
                    (d("TIME_STAMP"), clocks),
                    (128, 1024),
                    "{part} {}",
                    info.name
                );
                // TestOa's B0 = 0, B1 = B2 = the clock from the unit's own
                // CECs; B3..B6 read the media Boolean stage, whose routing
                // (VISACTL) is not modelled: 0, and said so; CEC7 (==
                // 0x400 on NOA bits 10:9, constant 0 here) never holds.
                assert_eq!((d("B0"), d("B1"), d("B2")), (0, clocks, clocks), "{part}");
                for n in 3..8 {
                    assert_eq!(d(&format!("B{n}")), 0, "{part} B{n}");
                }
                for n in 0..8 {
                    assert_eq!(d(&format!("MPEC{n}")), 0, "{part} MPEC{n}");
                }
            }
            // The 64-bit header: report id with the timer reason.
            assert_eq!(slot(mf, "RPT_ID", &m[0]) >> 19 & 1, 1);
            let w = emu.take_warnings();
            let cecs: Vec<u8> = w
                .iter()
                .filter_map(|w| match w.kind {
                    WarningKind::Oa(OaWarningKind::CecInputUnknown { cec, .. }) => Some(cec),
                    _ => None,
                })
                .collect();
            assert_eq!(cecs, [3, 4, 5, 6], "{part} {}: {w:#?}", info.name);
            checked += 1;
        }
    }
    // MTL GT2/GT3: OAM; LNL, PTL: SAG + SCMI0; BMG: + SCMI1.
    let want: usize = [("mtl", 2), ("lnl", 2), ("bmg", 3), ("ptl", 2)]
        .iter()
        .filter(|(n, _)| has_mtl && hal::PROJECTS.iter().any(|p| p.name == *n))
        .map(|(_, k)| k)
        .sum();
    assert_eq!(checked, want);
}

#[test]
fn mpes_selects_are_said_to_be_unmodelled() {
    for (part, p) in parts() {
        let Some(mpes) = p.register("OAM_MPES0") else {
            continue;
        };
        let mut emu = emulator(part, p, Sku::for_part(p, &part.device));
        emu.write32(mpes.address, 0x201);
        let mpec = format_named(p, "MPEC8U32_B8_C8");
        emu.unit_nth_mut::<OaUnit>(1)
            .start_periodic(0x0200_0000, 1 << 20, EXPONENT, mpec.select)
            .expect("media unit");
        emu.advance(200);
        emu.advance(200);
        let w = emu.take_warnings();
        let n = w
            .iter()
            .filter(|w| {
                matches!(
                    w.kind,
                    WarningKind::Oa(OaWarningKind::MpesNotModelled {
                        mpec: 0,
                        select: 0x201
                    })
                )
            })
            .count();
        assert_eq!(n, 1, "{part}: {w:#?}");
    }
}

/// The names of unit `info`'s MMIO trigger, debug and status registers.
fn trigger_regs(info: &hal::meta::OaUnitInfo) -> [String; 3] {
    if info.control == "OAG_OACONTROL" {
        ["OAG_MMIOTRIGGER", "OAG_OA_DEBUG", "OAG_OASTATUS"].map(String::from)
    } else {
        ["MMIO_TRG", "DEBUG", "STATUS"].map(|s| info.control.replace("CONTROL", s))
    }
}

#[test]
fn mmio_triggers_write_reports_with_the_value_in_the_context_id() {
    let mut units = 0;
    for (part, p) in parts() {
        let oa = p.gpu.and_then(|g| g.oa).expect("oa");
        for (nth, info) in oa.units.iter().enumerate() {
            let [trg, debug, status] = trigger_regs(info);
            let (trg, debug, status) = (reg(p, &trg), reg(p, &debug), reg(p, &status));
            let mut emu = emulator(part, p, Sku::for_part(p, &part.device));
            let f = if nth == 0 {
                oa.sample
            } else {
                format_named(p, "MPEC8U64_B8_C8")
            };
            // A timer too slow to fire here.
            emu.unit_nth_mut::<OaUnit>(nth)
                .start_periodic(BASE, 1 << 20, 40, f.select)
                .expect("start");
            emu.advance(5);
            emu.write32(trg.address, 0xC0FF_EE01);
            let st = emu.unit_nth::<OaUnit>(nth).stats().expect("on");
            assert_eq!(
                (st.mmio_reports, st.timer_reports),
                (1, 0),
                "{part} {}",
                info.name
            );
            let r = emu.gpu_mem().read(BASE, f.size);
            assert_eq!(slot(f, "CTX_ID", &r), 0xC0FF_EE01, "{part} {}", info.name);
            let rpt = slot(f, "RPT_ID", &r);
            assert_eq!(rpt >> 19 & 0x7F, 0, "reason 0");
            assert_eq!(rpt >> 16 & 1, 0, "context-valid 0");
            assert_eq!(slot(f, "TIME_STAMP", &r), emu.now());
            // A second trigger in the same tick: the queue is full.
            let q_full = status.field("mmio_trg_q_full").expect("field");
            let lost = status.field("report_lost").expect("field");
            emu.advance(1);
            emu.write32(trg.address, 2);
            emu.write32(trg.address, 3);
            let s = emu.peek(status.address, 0).expect("status");
            assert_eq!(
                (q_full.extract(s), lost.extract(s)),
                (1, 0),
                "{part} {}",
                info.name
            );
            assert_eq!(
                emu.unit_nth::<OaUnit>(nth)
                    .stats()
                    .expect("on")
                    .mmio_reports,
                2
            );
            // Disabled by the debug register (masked): nothing.
            let dis = debug.field("disable_mmio_trg").expect("field");
            emu.write32(debug.address, (dis.mask() << 16 | dis.mask()) as u32);
            emu.advance(1);
            emu.write32(trg.address, 4);
            assert_eq!(
                emu.unit_nth::<OaUnit>(nth)
                    .stats()
                    .expect("on")
                    .mmio_reports,
                2
            );
            // Other units wrote nothing.
            for other in (0..oa.units.len()).filter(|&k| k != nth) {
                let st = emu.unit_nth::<OaUnit>(other).stats().expect("on");
                assert_eq!(st.mmio_reports, 0);
            }
            units += 1;
        }
    }
    let built = |n: &str| usize::from(hal::PROJECTS.iter().any(|p| p.name == n));
    // Units per part: dg2 1 (3 parts), mtl 2 (2 parts), lnl 3, bmg 4, ptl 3.
    let want = 3 * built("dg2")
        + 4 * built("mtl")
        + 3 * built("lnl")
        + 4 * built("bmg")
        + 3 * built("ptl");
    assert_eq!(units, want);
}

/// The first 8 bytes (report id, timestamp) at `addr` are not all zero.
fn landed(emu: &Emulator, addr: u64) -> bool {
    emu.gpu_mem().read(addr, 16).iter().any(|&b| b != 0)
}

#[test]
fn buffer_sizes_up_to_128_mib_count_from_1_mib_with_the_select() {
    for (part, p) in parts() {
        let oa = p.gpu.and_then(|g| g.oa).expect("oa");
        let tail = reg(p, "OAG_OATAILPTR");
        let debug = reg(p, "OAG_OA_DEBUG");
        let select = debug.field("buf_size_select").expect("field");
        let f = oa.sample;
        for (size, at) in [
            (32u64 << 20, 20u64 << 20),
            (128 << 20, 100 << 20),
            (16 << 20, 12 << 20),
        ] {
            let base = 0x8000_0000u64;
            let mut emu = emulator(part, p, Sku::for_part(p, &part.device));
            emu.unit_mut::<OaUnit>()
                .start_periodic(base, size, EXPONENT, f.select)
                .unwrap_or_else(|e| panic!("{part} {size}: {e}"));
            let sel = select.extract(emu.peek(debug.address, 0).expect("debug"));
            assert_eq!(sel, u64::from(size > 16 << 20), "{part} {size}");
            // The tail moved past 16 MiB lands there only in a larger buffer.
            emu.write32(tail.address, (base + at) as u32);
            emu.advance(64);
            assert!(
                landed(&emu, base + at),
                "{part} {size:#x}: report at +{at:#x}"
            );
            assert!(!landed(&emu, base + at % (16 << 20)) || size == 16 << 20);
        }
        // Not a size the field reaches.
        let mut emu = emulator(part, p, Sku::default());
        let e = emu
            .unit_mut::<OaUnit>()
            .start_periodic(0, 256 << 20, EXPONENT, f.select);
        assert_eq!(e, Err(StartError::Size(256 << 20)));
    }
}

#[test]
fn xe2_oag_wraps_at_the_largest_multiple_of_the_report_size() {
    let mut checked = 0;
    for (part, p) in parts() {
        let oa = p.gpu.and_then(|g| g.oa).expect("oa");
        let f = oa.sample;
        let tail = reg(p, "OAG_OATAILPTR");
        let r = f.size as u64;
        for size in [128u64 << 10, 16 << 20] {
            let mut emu = emulator(part, p, Sku::for_part(p, &part.device));
            emu.unit_mut::<OaUnit>()
                .start_periodic(BASE, size, EXPONENT, f.select)
                .expect("start");
            // The last whole report's slot (a multiple of 64 for 576 and
            // 256 bytes), then one report.
            let circ = if f.name == "PEC64U64" {
                size - size % r
            } else {
                size
            };
            emu.write32(tail.address, (BASE + circ - r) as u32);
            emu.advance(64);
            assert!(landed(&emu, BASE + circ - r), "{part}");
            let t = tail
                .field("tail_pointer")
                .expect("field")
                .extract(emu.peek(tail.address, 0).expect("tail"))
                << 6;
            assert_eq!(t, BASE, "{part} {size}: the tail wraps to the base");
            emu.advance(64);
            assert!(landed(&emu, BASE), "{part} {size}: next report at the base");
            if f.name == "PEC64U64" {
                // 16 MiB: 16,777,152 bytes used (29,127 reports), the last
                // 64 never written (xe-generations.md 1b).
                if size == 16 << 20 {
                    assert_eq!(circ, 16_777_152);
                }
                assert!(!landed(&emu, BASE + circ), "{part}: bytes past the wrap");
                checked += 1;
            }
        }
    }
    let xe2 = ["lnl", "bmg", "ptl"]
        .iter()
        .filter(|n| hal::PROJECTS.iter().any(|p| p.name == **n))
        .count();
    assert_eq!(checked, 2 * xe2);
}

#[test]
fn random_access_sequences_on_every_oa_unit_never_panic() {
    let mut rng = Rng(0x5eed_0025);
    for (part, p) in parts() {
        let oa = p.gpu.and_then(|g| g.oa).expect("oa");
        // The OA units' registers, the PES and trigger registers: the
        // registers of the new descriptions' OA blocks.
        let regs: Vec<u64> = p
            .registers
            .iter()
            .filter(|r| {
                r.name.starts_with("OA") || r.name.starts_with("PES") || r.name.starts_with("CEC")
            })
            .map(|r| r.address)
            .collect();
        assert!(!regs.is_empty());
        for round in 0..20 {
            let mut emu = emulator(part, p, Sku::for_part(p, &part.device));
            for nth in 0..oa.units.len() {
                if rng.below(2) == 0 {
                    let f = p.formats[rng.below(p.formats.len())];
                    let _ = emu.unit_nth_mut::<OaUnit>(nth).start_periodic(
                        BASE << nth,
                        (128 << 10) << rng.below(4),
                        rng.below64(8),
                        f.select,
                    );
                }
            }
            for _ in 0..200 {
                let a = regs[rng.below(regs.len())];
                let v = match rng.below(3) {
                    0 => 0,
                    1 => rng.next() as u32,
                    _ => 1 << rng.below(32),
                };
                match rng.below(4) {
                    0 => emu.advance(rng.below64(300)),
                    1 => {
                        emu.read32(a);
                    }
                    _ => emu.write32(a, v),
                }
            }
            emu.advance(1 << 12);
            for nth in 0..oa.units.len() {
                let u = emu.unit_nth::<OaUnit>(nth);
                assert!(u.is_on(), "{part} round {round}");
                let _ = (u.format(), u.stats(), u.warnings().len());
            }
        }
    }
}
