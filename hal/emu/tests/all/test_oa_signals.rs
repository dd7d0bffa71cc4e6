//! The kernel's TestOa programming lists, written as they are (NOA mux
//! writes included, no hand-built signal source), give IGT's TestOa
//! expectations on BDW and TGL: between two reports B0 = 0, B1 = B2 = the
//! GPU clock delta, B3 = clock/2, B4 = B5 = clock/3, B6 = clock/6,
//! B7 = 2 x clock/3 (the last five within +-1). Without the mux writes the
//! Boolean stage is unknown: B3..B7 stay 0 and the emulator says so. Also
//! the trigger warnings.
//!
//! The lists are read from the shipped IGT XML
//! (`perfregs_regdefs::METRIC_SETS`); positions of the OA registers the test
//! programs come from the metadata.

use hal::meta::ProjectInfo;
use hal::{bdw, tgl, ReportDelta, ReportFormat};
use perfregs_emu::*;
use perfregs_testkit::Within;

use crate::support;
use support::*;

const BASE: u64 = 0x0100_0000;
/// A report every 2^(5+1) = 64 ticks: 512 GPU clocks at 8 clocks a tick
/// (not a multiple of 3, so the +-1 of B4..B7 is exercised).
const PERIOD_EXPONENT: u64 = 5;

/// One `<register>` of a metric set: (config type, address, value).
type Write = (String, u64, u32);

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x").trim_start_matches("0X"), 16)
        .unwrap_or_else(|e| panic!("bad hex {s}: {e}"))
}

/// The `register_config` writes of set `symbol` in metric-set file `file`,
/// in XML order.
fn set_writes(file: &str, symbol: &str) -> Vec<Write> {
    let (_, _, xml) = perfregs_regdefs::METRIC_SETS
        .iter()
        .find(|(f, _, _)| f.ends_with(file))
        .unwrap_or_else(|| panic!("no metric-set file {file}"));
    let marker = format!("symbol_name=\"{symbol}\"");
    let at = xml.find(&marker).expect("the set");
    let start = xml[..at].rfind("<set").expect("<set");
    let end = at + xml[at..].find("</set>").expect("</set>");
    let set = &xml[start..end];
    let mut out = Vec::new();
    let mut rest = set;
    while let Some(i) = rest.find("<register ") {
        let tag_end = rest[i..].find("/>").expect("register tag end") + i;
        let tag = &rest[i..tag_end];
        let kind = attr(tag, "type").expect("type").to_string();
        let addr = hex(attr(tag, "address").expect("address"));
        let value = hex(attr(tag, "value").expect("value")) as u32;
        out.push((kind, addr, value));
        rest = &rest[tag_end..];
    }
    assert!(!out.is_empty(), "{file} {symbol}: no register writes");
    out
}

/// OA register names: (control, format field, timer, head, buffer, tail):
/// BDW's OA unit on Gen8..Gen11, the OAG unit from Gen12 (TGL, RKL, ADL, DG1).
fn oa_names(p: &ProjectInfo) -> [&'static str; 6] {
    match p.name {
        "bdw" | "chv" | "skl" | "bxt" | "kbl" | "glk" | "cfl" | "cnl" | "icl" | "ehl" => [
            "OACONTROL",
            "counter_select",
            "OACTXCONTROL",
            "OAHEADPTR",
            "OABUFFER",
            "OATAILPTR",
        ],
        _ => [
            "OAG_OACONTROL",
            "report_format",
            "OAG_OAGLBCTXCTRL",
            "OAG_OAHEADPTR",
            "OAG_OABUFFER",
            "OAG_OATAILPTR",
        ],
    }
}

/// An emulator of `p` with every domain awake.
fn awake(p: &'static ProjectInfo) -> Emulator {
    let mut emu = Emulator::builder(p, Sku::default())
        .with::<OaUnit>(OaConfig::default())
        .build();
    wake_all(&mut emu);
    emu.take_warnings();
    emu
}

/// Program the OA buffer, the timer and the A32U40_A4U32_B8_C8 format
/// (which carries B0..B7), then run `ticks`; the reports written.
fn sample(emu: &mut Emulator, ticks: u64) -> Vec<u8> {
    let p = emu.project();
    let [control, format, timer, head, buffer, tail] = oa_names(p);
    let ptr = BASE >> 6;
    let fmt = a32u40_select(p);
    let w = |emu: &mut Emulator, name: &str, fields: &[(&str, u64)]| {
        emu.write32(reg(p, name).address, val(p, name, fields));
    };
    w(emu, head, &[("head_pointer", ptr)]);
    w(
        emu,
        buffer,
        &[
            ("base_address", ptr),
            ("buffer_size", 7),
            ("memory_select", 1),
        ],
    );
    w(emu, tail, &[("tail_pointer", ptr)]);
    w(
        emu,
        timer,
        &[("timer_period", PERIOD_EXPONENT), ("timer_enable", 1)],
    );
    w(emu, control, &[(format, fmt), ("counter_enable", 1)]);
    let start = emu.now();
    emu.advance(ticks);
    let r = reg(p, tail);
    let t = r
        .field("tail_pointer")
        .expect("tail_pointer")
        .extract(emu.peek(r.address, 0).expect("tail"));
    let used = (t << 6).saturating_sub(BASE) as usize;
    assert!(
        used > 0,
        "{}: no reports after {} ticks from {start}",
        p.name,
        ticks
    );
    emu.gpu_mem().read(BASE, used)
}

fn deltas<F: ReportFormat>(buf: &[u8]) -> Vec<ReportDelta> {
    let reports: Vec<_> = hal::reports_between::<F>(buf, 0, buf.len()).collect();
    reports
        .windows(2)
        .map(|w| ReportDelta::between(&w[0].view(), &w[1].view()))
        .collect()
}

fn check_test_oa(what: &str, ds: &[ReportDelta]) {
    assert!(ds.len() >= 100, "{what}: {} report pairs", ds.len());
    for (i, d) in ds.iter().enumerate() {
        let clock = d.gpu_clock.expect("GPU clock");
        assert_eq!(clock, 512, "{what} #{i}");
        let b = |n: usize| d.b(n).expect("B counter");
        perfregs_testkit::check_test_oa(
            &format!("{what} #{i} (B counters)"),
            clock,
            b,
            Within::Exact(1),
        );
    }
}

/// Warnings other than the write to 0xDC40 (TGL OAG_SPCTR_CNF, not
/// described yet by this branch).
fn other_warnings(emu: &mut Emulator) -> Vec<Warning> {
    emu.take_warnings()
        .into_iter()
        .filter(|w| {
            !matches!(
                w.kind,
                WarningKind::Unclaimed {
                    addr: 0xDC40,
                    write: true
                }
            )
        })
        .collect()
}

/// Write a programming list as the kernel's CPU does. From graphics 12.70
/// the steering selectors are shared with firmware: xe's `mcr_lock` holds
/// STEER_SEMAPHORE (and the media GT's) around every CPU access to a
/// replicated range, multicast writes too (xe_gt_mcr.c), so the list is
/// written with the project's semaphores taken (read 1), then given back
/// (write 1). Before 12.70 there are none.
fn write_all(emu: &mut Emulator, writes: &[Write], noa: bool) {
    let p = emu.project();
    let semaphores: Vec<u64> = ["STEER_SEMAPHORE", "MEDIA_STEER_SEMAPHORE"]
        .into_iter()
        .filter_map(|n| p.register(n))
        .map(|r| r.address)
        .collect();
    for &s in &semaphores {
        assert_eq!(emu.read32(s) & 1, 1, "{}: semaphore {s:#x} taken", p.name);
    }
    for (kind, addr, value) in writes {
        if noa || kind != "NOA" {
            emu.write32(*addr, *value);
        }
    }
    for &s in &semaphores {
        emu.write32(s, 1);
    }
}

/// The report deltas of `buf` read with project `p`'s own type of the
/// layout the emulator samples (the catalogue's `oa.sample`).
fn project_deltas(p: &ProjectInfo, buf: &[u8]) -> Vec<ReportDelta> {
    macro_rules! by_project {
        (($p:expr, $buf:expr) $({ name: $m:ident, ty: $t:ident, wake: [$($w:ident),*], sample: $s:ident, i915: [$($i:tt)*], layouts: [$($l:ident),*] }),*) => {
            match $p.name {
                $(stringify!($m) => deltas::<hal::$m::reports::$s>($buf),)*
                other => panic!("{other}: no OA project"),
            }
        };
    }
    hal::for_each_oa_project!(by_project!(p, buf))
}

/// A shipped file's TestOa, written as it is on its project's emulated
/// GPU, gives IGT's expectations.
fn run_full(p: &'static ProjectInfo, file: &str) {
    let writes = set_writes(file, "TestOa");
    assert!(writes.iter().any(|w| w.0 == "NOA"), "{file}: NOA writes");
    let mut emu = awake(p);
    write_all(&mut emu, &writes, true);
    assert!(emu.unit::<NoaMux>().test_signals_routed(), "{file}: routed");
    let buf = sample(&mut emu, 130 * 64 + 40);
    let ds = project_deltas(p, &buf);
    check_test_oa(file, &ds);
    let w = other_warnings(&mut emu);
    assert!(w.is_empty(), "{file}: {w:#?}");
}

#[test]
fn bdw_test_oa_gives_the_igt_expectations() {
    run_full(&bdw::PROJECT, "oa-bdw.xml");
}

#[test]
fn tgl_gt2_test_oa_gives_the_igt_expectations() {
    run_full(&tgl::PROJECT, "oa-tglgt2.xml");
}

#[test]
fn tgl_gt1_test_oa_gives_the_igt_expectations() {
    run_full(&tgl::PROJECT, "oa-tglgt1.xml");
}

/// Every shipped file with a TestOa set that selects events through the
/// NOA mux (all but HSW's, which has none, and Xe2/Xe3's, which select PEC
/// events: tests/all/xe_units.rs), each on the emulated GPU of its own project
/// (when built), from its own programming list.
#[test]
fn every_shipped_test_oa_gives_the_igt_expectations() {
    let mut ran = Vec::new();
    let mut pec = 0;
    for (file, project, xml) in perfregs_regdefs::METRIC_SETS {
        if !xml.contains("symbol_name=\"TestOa\"") {
            assert_eq!(*project, "hsw", "{file} has no TestOa");
            continue;
        }
        let name = file.rsplit('/').next().unwrap_or(file);
        if !set_writes(name, "TestOa").iter().any(|w| w.0 == "NOA") {
            pec += 1;
            continue;
        }
        let Some(p) = hal::PROJECTS.iter().copied().find(|p| p.name == *project) else {
            continue; // not built
        };
        run_full(p, name);
        ran.push(name);
    }
    // 19 of the 28 shipped files are TGL-style files of Gen8..Gen12 (HSW's
    // has no TestOa), 5 are DG2's and MTL's (hal features dg2, mtl), 3 are
    // Xe2/Xe3's PEC files.
    let new = ["dg2", "mtl"]
        .iter()
        .filter(|n| hal::PROJECTS.iter().any(|p| p.name == **n))
        .count();
    let want = 19 + if new == 2 { 5 } else { 0 };
    assert_eq!(ran.len(), want, "{ran:?}");
    assert_eq!(pec, 3);
}

#[test]
fn without_the_mux_writes_b3_to_b7_stay_zero_loudly() {
    for (p, file) in [
        (&bdw::PROJECT, "oa-bdw.xml"),
        (&tgl::PROJECT, "oa-tglgt2.xml"),
    ] {
        let writes = set_writes(file, "TestOa");
        let mut emu = awake(p);
        write_all(&mut emu, &writes, false);
        assert!(!emu.unit::<NoaMux>().test_signals_routed());
        assert_eq!(emu.unit::<NoaMux>().writes(), 0);
        let buf = sample(&mut emu, 20 * 64);
        // More advances: the warning is not repeated.
        emu.advance(100);
        emu.advance(100);
        let ds = match p.name {
            "bdw" => deltas::<bdw::reports::A32u40A4u32B8C8>(&buf),
            _ => deltas::<tgl::reports::A32u40A4u32B8C8>(&buf),
        };
        assert!(ds.len() >= 10);
        for d in &ds {
            let clock = d.gpu_clock.expect("clock");
            assert_eq!(d.b(0), Some(0));
            assert_eq!(d.b(1), Some(clock));
            assert_eq!(d.b(2), Some(clock));
            for n in 3..8 {
                assert_eq!(d.b(n), Some(0), "{file} B{n}");
            }
        }
        let w = other_warnings(&mut emu);
        let cecs: Vec<u8> = w
            .iter()
            .filter_map(|w| match w.kind {
                WarningKind::Oa(OaWarningKind::CecInputUnknown {
                    cec,
                    select: 2,
                    why: CecUnknown::BooleanNotRouted,
                }) => Some(cec),
                _ => None,
            })
            .collect();
        assert_eq!(cecs, [3, 4, 5, 6, 7], "{file}: {w:#?}");
        assert_eq!(w.len(), 5, "{file}: {w:#?}");
        assert!(w[0].to_string().contains("B3 counts nothing"), "{}", w[0]);
    }
}

#[test]
fn routing_needs_every_write_and_the_noa_enable() {
    let p = &bdw::PROJECT;
    let writes = set_writes("oa-bdw.xml", "TestOa");
    let chicken = reg(p, "GDT_CHICKEN_BITS").address;
    // Every mux write but one: not routed.
    let noa_writes: Vec<_> = writes.iter().filter(|w| w.1 == 0x9888).collect();
    for skip in 0..noa_writes.len() {
        let mut emu = awake(p);
        emu.write32(chicken, 0x80);
        for (i, w) in noa_writes.iter().enumerate() {
            if i != skip {
                emu.write32(w.1, w.2);
            }
        }
        assert!(
            !emu.unit::<NoaMux>().test_signals_routed(),
            "without write {skip}"
        );
    }
    // All of them, NOA enabled, then disabled, then a later write under the
    // same mux key (RenderBasic reprograms 0x258B....).
    let mut emu = awake(p);
    write_all(&mut emu, &writes, true);
    assert!(emu.unit::<NoaMux>().test_signals_routed());
    emu.write32(chicken, 0x0);
    assert!(
        !emu.unit::<NoaMux>().test_signals_routed(),
        "GT_NOA_ENABLE clear"
    );
    emu.write32(chicken, 0x80);
    assert!(emu.unit::<NoaMux>().test_signals_routed());
    let rb = set_writes("oa-bdw.xml", "RenderBasic");
    write_all(&mut emu, &rb, true);
    assert!(
        !emu.unit::<NoaMux>().test_signals_routed(),
        "RenderBasic reprograms the mux"
    );
    // Pokes are not mux writes.
    let mut emu = awake(p);
    emu.write32(chicken, 0x80);
    for w in &noa_writes {
        emu.poke(w.1, u64::from(w.2));
    }
    assert_eq!(emu.unit::<NoaMux>().writes(), 0);
    assert!(!emu.unit::<NoaMux>().test_signals_routed());
}

#[test]
fn tgl_routing_follows_noa_write_high() {
    let p = &tgl::PROJECT;
    let writes = set_writes("oa-tglgt2.xml", "TestOa");
    let mut emu = awake(p);
    // The same NOA_WRITE values with NOA_WRITE_HIGH left at 0: not routed.
    for (_, addr, value) in &writes {
        if *addr != 0x9884 {
            emu.write32(*addr, *value);
        }
    }
    assert!(!emu.unit::<NoaMux>().test_signals_routed());
    // RPM_CONFIG1.gt_noa_enable is needed.
    let mut emu = awake(p);
    for (_, addr, value) in &writes {
        if *addr != 0xD04 {
            emu.write32(*addr, *value);
        }
    }
    assert!(!emu.unit::<NoaMux>().test_signals_routed());
    emu.write32(
        reg(p, "RPM_CONFIG1").address,
        val(p, "RPM_CONFIG1", &[("gt_noa_enable", 1)]),
    );
    assert!(emu.unit::<NoaMux>().test_signals_routed());
}

#[test]
fn routing_changes_replan_the_counters() {
    // Routed after the CEC programming and after counting started: B3
    // counts from then on.
    let p = &bdw::PROJECT;
    let writes = set_writes("oa-bdw.xml", "TestOa");
    let mut emu = awake(p);
    write_all(&mut emu, &writes, false);
    let _ = sample(&mut emu, 64);
    let b3 = reg(p, "OAPERF_B3").address;
    assert_eq!(emu.peek(b3, 0), Some(0));
    for (kind, addr, value) in &writes {
        if kind == "NOA" {
            emu.write32(*addr, *value);
        }
    }
    emu.advance(10);
    assert_eq!(
        emu.peek(b3, 0),
        Some(40),
        "10 ticks = 80 clocks, half of them"
    );
}

#[test]
fn trigger_programming_the_model_ignores_is_reported() {
    for p in [&bdw::PROJECT, &tgl::PROJECT] {
        let (st1, st2, rt2, st6) = match p.name {
            "bdw" => (
                "OASTARTTRIG1",
                "OASTARTTRIG2",
                "OAREPORTTRIG2",
                "OASTARTTRIG6",
            ),
            _ => (
                "OAG_OASTARTTRIG1",
                "OAG_OASTARTTRIG2",
                "OAG_OAREPORTTRIG2",
                "OAG_OASTARTTRIG6",
            ),
        };
        let mut emu = awake(p);
        // TestOa's values (threshold enable only on the report trigger,
        // 0xF0800000 on the start triggers): nothing to report.
        emu.write32(reg(p, st2).address, 0xF080_0000);
        emu.write32(reg(p, st6).address, 0xF080_0000);
        emu.write32(reg(p, rt2).address, 0x0080_0000);
        emu.advance(10);
        assert!(other_warnings(&mut emu).is_empty(), "{}", p.name);
        // A report trigger enabled: reported once.
        emu.write32(
            reg(p, rt2).address,
            val(p, rt2, &[("report_trigger_enable", 1)]),
        );
        emu.advance(10);
        emu.advance(10);
        let w = other_warnings(&mut emu);
        assert_eq!(w.len(), 1, "{}: {w:#?}", p.name);
        assert!(
            matches!(
                w[0].kind,
                WarningKind::Oa(OaWarningKind::TriggerNotModelled { register, .. }) if register == rt2
            ),
            "{w:#?}"
        );
        // Another event with threshold 0 (as other shipped sets program
        // it): met from the start, nothing gated, nothing to report.
        emu.write32(reg(p, st2).address, 0x0080_0000);
        emu.advance(10);
        assert!(other_warnings(&mut emu).is_empty(), "{}", p.name);
        // A threshold of 5 events: it would gate; reported once.
        emu.write32(reg(p, st1).address, 5);
        emu.advance(10);
        emu.advance(10);
        let w = other_warnings(&mut emu);
        assert_eq!(w.len(), 1, "{}: {w:#?}", p.name);
        assert!(w[0].to_string().contains("start trigger"), "{}", w[0]);
        // Threshold enable off with a threshold set: not the reset state
        // either, reported.
        emu.write32(reg(p, st2).address, 0xF000_0000);
        emu.advance(10);
        assert_eq!(other_warnings(&mut emu).len(), 1, "{}", p.name);
        // Back to threshold 0: quiet again.
        emu.write32(reg(p, st1).address, 0);
        emu.write32(reg(p, st2).address, 0xF080_0000);
        emu.advance(10);
        assert!(other_warnings(&mut emu).is_empty());
    }
}

/// Regression (emulator_props): an emulator built with explicit bindings
/// (a copied project on TGL's bindings) had no NOA mux, so TestOa's mux
/// writes never routed the test signals and B3..B7 were reported unrouted.
#[test]
fn explicit_bindings_keep_the_noa_mux() {
    let p: &'static ProjectInfo = Box::leak(Box::new(ProjectInfo { ..tgl::PROJECT }));
    let b = bind::Bindings {
        project: p,
        ..bind::TGL
    };
    let mut emu = Emulator::builder(p, Sku::default())
        .bindings(b)
        .without::<OaUnit>()
        .build();
    emu.unit_mut::<OaUnit>().enable(OaConfig::default());
    for d in p.domains {
        if let Some(req) = d.request.and_then(|n| p.register(n)) {
            emu.write32(req.address, 0x0001_0001);
        }
    }
    emu.advance(emu.sku().wake_latency);
    write_all(&mut emu, &set_writes("oa-tglgt2.xml", "TestOa"), true);
    assert!(emu.unit::<NoaMux>().writes() > 0);
    assert!(emu.unit::<NoaMux>().test_signals_routed());
}

/// Regression (emulator_props, a late episode): the CEC logic evaluated
/// the test signals at the 64-bit GPU clock, whose wrap at 2^64 breaks
/// their period 6 (2^64 = 4 mod 6), so B4/B5 strayed from IGT's
/// fractions over spans after the wrap. The test-signal phase now runs on
/// across it: the counts are those of the continuous clock.
#[test]
fn test_oa_counts_run_on_across_the_gpu_clock_wrap() {
    for (p, file) in [
        (&bdw::PROJECT, "oa-bdw.xml"),
        (&tgl::PROJECT, "oa-tglgt2.xml"),
    ] {
        let mut emu = awake(p);
        write_all(&mut emu, &set_writes(file, "TestOa"), true);
        assert!(emu.unit::<NoaMux>().test_signals_routed());
        let [control, format, ..] = oa_names(p);
        let fmt = a32u40_select(p);
        emu.write32(
            reg(p, control).address,
            val(p, control, &[(format, fmt), ("counter_enable", 1)]),
        );
        let per_tick = emu
            .unit::<OaUnit>()
            .config()
            .expect("OA on")
            .gpu_clocks_per_tick;
        let clock = |emu: &Emulator| {
            emu.unit::<OaUnit>()
                .counter(SlotKind::GpuTicks)
                .expect("clock")
        };
        // To 10 ticks before the wrap.
        let left = (u64::MAX - clock(&emu)) / per_tick;
        emu.advance(left - 10);
        let start = u128::from(clock(&emu));
        assert!(start > u128::from(u64::MAX) - 16 * u128::from(per_tick));
        let b = |emu: &Emulator| -> Vec<u64> {
            (0..8)
                .map(|n| emu.unit::<OaUnit>().counter(SlotKind::B(n)).expect("B"))
                .collect()
        };
        let b0 = b(&emu);
        // Continuous clock numbers: B3 bit 3 clear (c even), B4 bits 4, 5
        // clear (c % 3 == 0), B5 bit 4 (c % 3 == 1), B6 bits 3 and 4
        // (c % 6 == 1), B7 bit 3 or 4.
        type Pred = fn(u128) -> bool;
        let preds: [(usize, Pred); 5] = [
            (3, |c| c % 2 == 0),
            (4, |c| c % 3 == 0),
            (5, |c| c % 3 == 1),
            (6, |c| c % 6 == 1),
            (7, |c| c % 2 == 1 || c % 3 == 1),
        ];
        for step in 1..=30u64 {
            emu.advance(1);
            let n = u128::from(step * per_tick);
            let now = b(&emu);
            for (k, pred) in preds {
                let want = (start..start + n).filter(|&c| pred(c)).count() as u64;
                let got = now[k].wrapping_sub(b0[k]) & 0xFFFF_FFFF;
                assert_eq!(got, want, "{file} B{k} after {step} ticks from {start:#x}");
            }
        }
    }
}

/// The select code of the layout `p`'s emulator samples (B0..B7; the
/// catalogue's `oa.sample`: A32u40_A4u32_B8_C8 to Gen12, A24u40_A14u32_B8_C8
/// on DG2 and MTL).
fn a32u40_select(p: &ProjectInfo) -> u64 {
    p.gpu
        .and_then(|g| g.oa)
        .map(|o| o.sample)
        .or_else(|| {
            p.formats
                .iter()
                .copied()
                .find(|f| f.name == "A32U40_A4U32_B8_C8")
        })
        .expect("format")
        .select
}
