//! The OA model of the emulator: timer reports, CEC/B counters, report
//! layouts, the OA buffer (wrap, overflow, disable-overrun mode), report
//! lost, MI_REPORT_PERF_COUNT, context filtering and context-switch reports,
//! counter overflow, programming order and determinism, on HSW, BDW and TGL.
//!
//! Registers are programmed through raw bus writes whose bit positions come
//! from the metadata (`val`); expected report bytes in the byte-exact tests
//! come from the PRM layouts, written out here independently of the
//! metadata.

use hal::meta::{FormatInfo, ProjectInfo, RegisterInfo};
use hal::{bdw, hsw, tgl};
use perfregs_emu::*;

use crate::support;
use support::*;

// ------------------------------------------------------------------ helpers

const BASE: u64 = 0x0100_0000; // 16 MiB aligned (the HSW PRM asks for it)
const KIB128: u64 = 128 << 10;

/// The value a graphics address takes in an address field (bits 31:6).
fn addr_field(p: &ProjectInfo, name: &str, field: &str, addr: u64) -> u64 {
    addr >> reg(p, name).field(field).expect("field").lsb
}

/// Register and field names of one project's OA unit.
#[derive(Clone, Copy)]
struct Names {
    control: &'static str,
    format: &'static str,
    timer: &'static str,
    status: &'static str,
    head: &'static str,
    tail: &'static str,
    buffer: &'static str,
    base: &'static str,
    debug: Option<&'static str>,
}

fn names(p: &ProjectInfo) -> Names {
    match p.name {
        "hsw" => Names {
            control: "OACONTROL",
            format: "counter_select",
            timer: "OACONTROL",
            status: "OASTATUS1",
            head: "OASTATUS2",
            tail: "OASTATUS1",
            buffer: "OABUFFER",
            base: "report_buffer_offset",
            debug: None,
        },
        "bdw" => Names {
            control: "OACONTROL",
            format: "counter_select",
            timer: "OACTXCONTROL",
            status: "OASTATUS",
            head: "OAHEADPTR",
            tail: "OATAILPTR",
            buffer: "OABUFFER",
            base: "base_address",
            debug: Some("OA_DEBUG"),
        },
        "tgl" => Names {
            control: "OAG_OACONTROL",
            format: "report_format",
            timer: "OAG_OAGLBCTXCTRL",
            status: "OAG_OASTATUS",
            head: "OAG_OAHEADPTR",
            tail: "OAG_OATAILPTR",
            buffer: "OAG_OABUFFER",
            base: "base_address",
            debug: Some("OAG_OA_DEBUG"),
        },
        other => panic!("no OA names for {other}"),
    }
}

/// An emulator with the OA model on and every domain awake.
struct Rig {
    emu: Emulator,
    p: &'static ProjectInfo,
    n: Names,
}

impl Rig {
    /// The OA unit, to look at.
    fn oa(&self) -> UnitRef<'_, OaUnit> {
        self.emu.unit::<OaUnit>()
    }

    /// The OA unit, to act on.
    fn oa_mut(&mut self) -> UnitMut<'_, OaUnit> {
        self.emu.unit_mut::<OaUnit>()
    }

    fn new(p: &'static ProjectInfo) -> Self {
        Self::with(p, OaConfig::default())
    }

    /// A rig whose buffer is at `BASE` (size encoding 0: 128 KiB), started
    /// (see [`Rig::start`]).
    fn sampling(p: &'static ProjectInfo, format: u64, timer: Option<u64>) -> Self {
        let mut rig = Self::new(p);
        rig.program(BASE, 0, false);
        rig.start(format, timer);
        rig
    }

    fn with(p: &'static ProjectInfo, cfg: OaConfig) -> Self {
        let mut emu = Emulator::builder(p, Sku::default())
            .with::<OaUnit>(cfg)
            .build();
        wake_all(&mut emu);
        Rig {
            emu,
            p,
            n: names(p),
        }
    }

    fn w(&mut self, name: &str, fields: &[(&str, u64)]) {
        let v = val(self.p, name, fields);
        self.emu.write32(reg(self.p, name).address, v);
    }

    fn f(&self, name: &str, field: &str) -> u64 {
        let r = reg(self.p, name);
        r.field(field)
            .expect("field")
            .extract(self.emu.peek(r.address, 0).expect("register"))
    }

    fn status(&self, field: &str) -> u64 {
        self.f(self.n.status, field)
    }

    /// Head, buffer, tail in the PRM order; `size` is the size encoding.
    fn program(&mut self, base: u64, size: u64, disable_overrun: bool) {
        let (p, n) = (self.p, self.n);
        self.w(
            n.head,
            &[("head_pointer", addr_field(p, n.head, "head_pointer", base))],
        );
        self.program_buffer(base, size, disable_overrun);
        self.program_tail(base, size);
    }

    fn program_buffer(&mut self, base: u64, size: u64, disable_overrun: bool) {
        let (p, n) = (self.p, self.n);
        let b = addr_field(p, n.buffer, n.base, base);
        match p.name {
            "hsw" => self.w(
                n.buffer,
                &[
                    (n.base, b),
                    ("disable_overrun_mode", u64::from(disable_overrun)),
                ],
            ),
            _ => self.w(
                n.buffer,
                &[(n.base, b), ("buffer_size", size), ("memory_select", 1)],
            ),
        }
    }

    fn program_tail(&mut self, base: u64, size: u64) {
        let (p, n) = (self.p, self.n);
        let t = addr_field(p, n.tail, "tail_pointer", base);
        if p.name == "hsw" {
            self.w(n.tail, &[("tail_pointer", t), ("buffer_size", size)]);
        } else {
            self.w(n.tail, &[("tail_pointer", t)]);
        }
    }

    fn set_head(&mut self, addr: u64) {
        let (p, n) = (self.p, self.n);
        self.w(
            n.head,
            &[("head_pointer", addr_field(p, n.head, "head_pointer", addr))],
        );
    }

    /// Counter enable, format and (optionally) the timer with exponent `e`.
    fn start(&mut self, format: u64, timer: Option<u64>) {
        let n = self.n;
        let (te, tp) = (u64::from(timer.is_some()), timer.unwrap_or(0));
        if n.timer == n.control {
            self.w(
                n.control,
                &[
                    ("counter_enable", 1),
                    (n.format, format),
                    ("timer_enable", te),
                    ("timer_period", tp),
                ],
            );
        } else {
            self.w(n.timer, &[("timer_enable", te), ("timer_period", tp)]);
            self.w(n.control, &[("counter_enable", 1), (n.format, format)]);
        }
    }

    fn tail(&self) -> u64 {
        let r = reg(self.p, self.n.tail);
        let f = r.field("tail_pointer").expect("tail");
        self.emu.peek(r.address, 0).expect("tail") & f.mask()
    }

    fn format(&self) -> &'static FormatInfo {
        self.oa().format().expect("a format with a layout")
    }

    fn report(&self, addr: u64) -> Vec<u8> {
        self.emu.gpu_mem().read(addr, self.format().size)
    }

    fn slot(&self, report: &[u8], name: &str) -> u64 {
        self.format()
            .counter(name)
            .unwrap_or_else(|| panic!("no slot {name}"))
            .read(report)
            .expect("report long enough")
    }

    fn stats(&self) -> OaStats {
        self.oa().stats().expect("OA model on")
    }

    /// Advance one tick at a time until `n` timer reports were written (at
    /// most `limit` ticks).
    fn until_timer_reports(&mut self, n: u64, limit: u64) {
        for _ in 0..limit {
            if self.stats().timer_reports >= n {
                return;
            }
            self.emu.advance(1);
        }
        assert!(self.stats().timer_reports >= n, "no {n} timer reports");
    }
}

fn le32(b: &mut [u8], off: usize, v: u64) {
    b[off..off + 4].copy_from_slice(&(v as u32).to_le_bytes());
}

// ------------------------------------------------------------------ timer

#[test]
fn timer_writes_one_report_per_period() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        for (e, run) in [(3u64, 1000u64), (0, 37), (6, 1000)] {
            let period = 1u64 << (e + 1);
            let mut rig = Rig::sampling(p, 0, Some(e));
            let t0 = rig.emu.now();
            rig.emu.advance(run);
            // Independent count: rising edges of TIME_STAMP bit e.
            let times: Vec<u64> = (t0 + 1..=t0 + run)
                .filter(|t| t % period == period / 2)
                .collect();
            let stats = rig.stats();
            assert_eq!(stats.timer_reports, times.len() as u64, "{} e={e}", p.name);
            let size = rig.format().size as u64;
            assert_eq!(rig.tail(), BASE + times.len() as u64 * size, "{}", p.name);
            for (i, &t) in times.iter().enumerate() {
                let r = rig.report(BASE + i as u64 * size);
                let ts = rig.slot(&r, "TIME_STAMP");
                assert_eq!(ts & 0xFFFF_FFFF, t & 0xFFFF_FFFF, "{} report {i}", p.name);
                // IGT's HSW test: low bits e..0 of a timer report's
                // TIME_STAMP are 1 followed by zeros.
                assert_eq!(ts & (period - 1), period / 2);
            }
            // In small steps: the same reports.
            let mut steps = Rig::new(p);
            steps.program(BASE, 0, false);
            steps.start(0, Some(e));
            for _ in 0..run / 7 {
                steps.emu.advance(7);
            }
            steps.emu.advance(run % 7);
            assert_eq!(steps.stats(), stats);
            assert_eq!(
                steps.emu.gpu_mem().read(BASE, 0x4000),
                rig.emu.gpu_mem().read(BASE, 0x4000)
            );
        }
    }
}

#[test]
fn no_reports_without_timer_or_counter_enable() {
    let mut rig = Rig::sampling(&hsw::PROJECT, 0, None);
    rig.emu.advance(1000);
    assert_eq!(rig.stats().timer_reports, 0);
    // Timer on, counters off: the OA unit is off.
    rig.w("OACONTROL", &[("timer_enable", 1), ("timer_period", 0)]);
    rig.emu.advance(1000);
    assert_eq!(rig.stats().timer_reports, 0);
    assert_eq!(rig.tail(), BASE);
}

// ------------------------------------------------------------ B counters

fn program_cec(rig: &mut Rig, n: usize, cec0: u32, cec1: u32) {
    let p = rig.p;
    rig.emu.write32(reg(p, &format!("CEC{n}_0")).address, cec0);
    rig.emu.write32(reg(p, &format!("CEC{n}_1")).address, cec1);
}

#[test]
fn prm_example_counts_every_gpu_clock_and_0x4_never() {
    // The PRM's raw values agree with the metadata's field positions.
    let p = &hsw::PROJECT;
    assert_eq!(val(p, "CEC0_0", &[("compare_function", 3)]), 0x3);
    assert_eq!(val(p, "CEC0_1", &[("mask", 0xFFFE)]), 0xFFFE);
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::new(p);
        // Every NOA bit pseudo-random: the masked compare must not care.
        let noa = (0..16).fold(NoaSource::new(), |s, i| s.random(i, 1000 + u64::from(i)));
        rig.oa_mut().set_noa(noa);
        program_cec(&mut rig, 0, 0x3, 0xFFFE);
        program_cec(&mut rig, 1, 0x4, 0xFFFE);
        rig.program(BASE, 0, false);
        rig.start(5, Some(4)); // period 32 ticks
        rig.emu.advance(32 * 12);
        let n = rig.stats().timer_reports;
        assert!(n >= 10);
        // GPU clocks between reports: GPU_TICKS on BDW/TGL, C2 on HSW.
        let clock = if p.name == "hsw" { "C2" } else { "GPU_TICKS" };
        let size = rig.format().size as u64;
        for i in 1..n {
            let a = rig.report(BASE + (i - 1) * size);
            let b = rig.report(BASE + i * size);
            let clocks = rig.slot(&b, clock).wrapping_sub(rig.slot(&a, clock)) & 0xFFFF_FFFF;
            assert_eq!(clocks, 32 * OaConfig::DEFAULT_GPU_CLOCKS_PER_TICK);
            let b0 = rig.slot(&b, "B0").wrapping_sub(rig.slot(&a, "B0")) & 0xFFFF_FFFF;
            assert_eq!(
                b0, clocks,
                "{} report {i}: B0 counts every GPU clock",
                p.name
            );
            assert_eq!(rig.slot(&b, "B1"), 0, "{}: 0x4 never counts", p.name);
        }
    }
}

#[test]
fn cec_0x4_never_counts_whatever_the_signals() {
    for noa in [
        NoaSource::new(),
        (0..16).fold(NoaSource::new(), |s, i| s.constant(i, true)),
        NoaSource::new().divider(0, 1).random(1, 5),
    ] {
        let mut rig = Rig::new(&bdw::PROJECT);
        rig.oa_mut().set_noa(noa);
        for n in 0..8 {
            program_cec(&mut rig, n, 0x4, 0xFFFE);
        }
        rig.start(5, None);
        rig.emu.advance(500);
        for n in 0..8 {
            assert_eq!(rig.oa().counter(SlotKind::B(n as u32)), Some(0));
        }
        assert!(rig.oa().counter(SlotKind::GpuTicks).unwrap() > 4000);
    }
}

/// The CEC compare as Linux i915 (`OACEC_*`) and PRM 000 describe it.
fn reference(func: u32, signals: u16, value: u16, mask: u16) -> bool {
    let keep = !mask;
    let (s, v) = (signals & keep, value & keep);
    // By function code: 0 some unmasked bit equal, 1 greater, 2 equal,
    // 3 greater or equal, 4 less, 5 not equal, 6 less or equal, 7 true.
    let by_code = [
        (0..16).any(|i| keep >> i & 1 == 1 && (s >> i & 1) == (v >> i & 1)),
        s > v,
        s == v,
        s >= v,
        s < v,
        s != v,
        s <= v,
    ];
    by_code.get(func as usize).copied().unwrap_or(true)
}

#[test]
fn each_compare_function_on_a_known_noa_pattern() {
    let noa = NoaSource::new()
        .divider(0, 1)
        .divider(1, 2)
        .constant(2, true)
        .random(3, 99)
        .divider(5, 3);
    // The generators themselves.
    for c in 0..64u64 {
        let v = noa.value_at(c);
        assert_eq!(v & 1, (c & 1) as u16);
        assert_eq!(v >> 1 & 1, ((c / 2) & 1) as u16);
        assert_eq!(v >> 2 & 1, 1);
        assert_eq!(v >> 5 & 1, ((c / 3) & 1) as u16);
        assert_eq!(v & 0xFFC0, 0);
    }
    // mask 0xFFF0 keeps the random bit 3 (clock by clock), 0xFFF8 drops it
    // (periodic pattern, counted from a prefix table).
    for (mask, value) in [(0xFFF0u16, 0b0101u16), (0xFFF8, 0b101), (0xFFF8, 0b011)] {
        let mut rig = Rig::new(&hsw::PROJECT);
        let p = rig.p;
        rig.oa_mut().set_noa(noa.clone());
        for n in 0..8u64 {
            let c0 = val(
                p,
                &format!("CEC{n}_0"),
                &[("compare_function", n), ("compare_value", u64::from(value))],
            );
            let c1 = val(p, &format!("CEC{n}_1"), &[("mask", u64::from(mask))]);
            program_cec(&mut rig, n as usize, c0, c1);
        }
        rig.start(5, None);
        rig.emu.advance(3);
        let before = rig.oa_mut().mi_report_perf_count(0x10_0000, 1, true);
        let c0 = rig.oa().counter(SlotKind::GpuTicks).unwrap();
        rig.emu.advance(700);
        let after = rig.oa_mut().mi_report_perf_count(0x10_1000, 2, true);
        let c1 = rig.oa().counter(SlotKind::GpuTicks).unwrap();
        assert!(matches!(before, ReportOutcome::Written { .. }));
        assert!(matches!(after, ReportOutcome::Written { .. }));
        let (a, b) = (rig.report(0x10_0000), rig.report(0x10_1000));
        for func in 0..8u32 {
            let expect = (c0..c1)
                .filter(|&c| reference(func, noa.value_at(c), value, mask))
                .count() as u64;
            let name = format!("B{func}");
            let got = rig.slot(&b, &name).wrapping_sub(rig.slot(&a, &name));
            assert_eq!(
                got, expect,
                "function {func} mask {mask:#x} value {value:#b}"
            );
        }
    }
}

#[test]
fn select_previous_cec_output_chains() {
    let mut rig = Rig::new(&bdw::PROJECT);
    let p = rig.p;
    rig.oa_mut()
        .set_noa(NoaSource::new().divider(0, 1).divider(1, 2));
    // CEC0: bits 1:0 == 0b11 (one clock in four).
    let cec0 = val(
        p,
        "CEC0_0",
        &[("compare_function", 2), ("compare_value", 3)],
    );
    program_cec(&mut rig, 0, cec0, val(p, "CEC0_1", &[("mask", 0xFFFC)]));
    // CEC1: the previous output is 1; CEC2: the previous output is 0.
    for (n, v) in [(1usize, 1u64), (2, 0)] {
        let c = val(
            p,
            &format!("CEC{n}_0"),
            &[("compare_function", 2), ("compare_value", v), ("select", 1)],
        );
        program_cec(
            &mut rig,
            n,
            c,
            val(p, &format!("CEC{n}_1"), &[("mask", 0xFFFE)]),
        );
    }
    // CEC3: equal on the Boolean stage, unknown without the test-signal
    // routing: never counts.
    let c = val(p, "CEC3_0", &[("compare_function", 2), ("select", 2)]);
    program_cec(&mut rig, 3, c, 0);
    rig.start(5, None);
    let c0 = rig.oa().counter(SlotKind::GpuTicks).unwrap();
    rig.emu.advance(1001);
    let clocks = rig.oa().counter(SlotKind::GpuTicks).unwrap() - c0;
    let b = |n: usize| rig.oa().counter(SlotKind::B(n as u32)).unwrap();
    let quarter = (c0..c0 + clocks).filter(|c| c % 4 == 3).count() as u64;
    assert_eq!(b(0), quarter);
    assert_eq!(b(1), b(0));
    assert_eq!(b(2), clocks - b(1));
    assert_eq!(b(3), 0);
}

// ------------------------------------------------------------ A counters

#[test]
fn a_deltas_are_rate_times_ticks() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::new(p);
        let last = if p.name == "hsw" { 44 } else { 35 };
        rig.oa_mut().set_workload(
            Workload::new()
                .rate(0, 5)
                .rate(7, 2)
                .rate(last, 3)
                .rate(100, 9),
        );
        rig.start(5, None);
        rig.oa_mut().mi_report_perf_count(0x10_0000, 1, true);
        rig.emu.advance(100);
        rig.oa_mut().set_workload(Workload::new().rate(0, 9));
        rig.emu.advance(50);
        rig.oa_mut().mi_report_perf_count(0x10_1000, 2, true);
        let (a, b) = (rig.report(0x10_0000), rig.report(0x10_1000));
        let d = |n: u32| rig.slot(&b, &format!("A{n}")) - rig.slot(&a, &format!("A{n}"));
        assert_eq!(d(0), 5 * 100 + 9 * 50, "{}", p.name);
        assert_eq!(d(7), 2 * 100, "{}", p.name);
        assert_eq!(d(last), 3 * 100, "{}", p.name);
        assert_eq!(d(1), 0, "{}", p.name);
        assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(950));
        assert_eq!(rig.oa().counter(SlotKind::A(100)), None);
    }
}

#[test]
fn counter_registers_mirror_the_counters() {
    for p in [&hsw::PROJECT, &bdw::PROJECT] {
        let mut rig = Rig::new(p);
        rig.oa_mut().set_workload(Workload::new().rate(3, 7));
        rig.start(5, None);
        rig.emu.advance(10);
        let a3 = reg(p, "OAPERF_A3").address;
        assert_eq!(u64::from(rig.emu.read32(a3)), 70);
        assert_eq!(
            u64::from(rig.emu.read32(reg(p, "OAPERF_B0").address)),
            rig.oa().counter(SlotKind::B(0)).unwrap() & 0xFFFF_FFFF
        );
        if p.name == "bdw" {
            let ticks = rig.emu.read32(reg(p, "GPU_TICKS").address);
            assert_eq!(
                u64::from(ticks),
                rig.oa().counter(SlotKind::GpuTicks).unwrap() & 0xFFFF_FFFF
            );
        }
        // A software write loads the counter.
        rig.emu.write32(a3, 1000);
        assert_eq!(rig.oa().counter(SlotKind::A(3)), Some(1000));
        rig.emu.advance(1);
        assert_eq!(rig.emu.read32(a3), 1007);
    }
}

/// A rig on `p` with A0 counting `rate` a tick, started, A0 written `a0`,
/// one tick later.
fn a0_one_tick_after(p: &'static ProjectInfo, rate: u64, a0: u32) -> Rig {
    let mut rig = Rig::new(p);
    rig.oa_mut().set_workload(Workload::new().rate(0, rate));
    rig.start(5, None);
    rig.emu.write32(reg(p, "OAPERF_A0").address, a0);
    rig.emu.advance(1);
    rig
}

#[test]
fn hsw_counter_overflow_on_a_32_bit_wrap() {
    let mut rig = a0_one_tick_after(&hsw::PROJECT, 8, 0xFFFF_FFF0);
    let p = rig.p;
    assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(0xFFFF_FFF8));
    assert_eq!(rig.status("counter_overflow"), 0);
    rig.emu.advance(1);
    assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(0));
    assert_eq!(rig.status("counter_overflow"), 1);
    assert_eq!(rig.emu.read32(reg(p, "OAPERF_A0").address), 0);
    // RW-V: software clears it by writing 0.
    rig.w("OASTATUS1", &[]);
    assert_eq!(rig.status("counter_overflow"), 0);
    // A B counter wrap too.
    program_cec(&mut rig, 0, 0x3, 0xFFFE);
    rig.emu.write32(reg(p, "OAPERF_B0").address, 0xFFFF_FFFF);
    rig.emu.advance(1);
    assert_eq!(rig.oa().counter(SlotKind::B(0)), Some(7));
    assert_eq!(rig.status("counter_overflow"), 1);
}

#[test]
fn bdw_40_bit_counters_go_beyond_2_32() {
    let mut rig = a0_one_tick_after(&bdw::PROJECT, 0x200, 0xFFFF_FF00);
    let p = rig.p;
    assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(0x1_0000_0100));
    assert_eq!(rig.status("counter_overflow"), 0, "no wrap below 2^40");
    assert_eq!(rig.emu.read32(reg(p, "OAPERF_A0").address), 0x100);
    assert_eq!(rig.emu.read32(reg(p, "OAPERF_A0_UPPER").address), 1);
    assert!(matches!(
        rig.oa_mut().mi_report_perf_count(0x10_0000, 7, true),
        ReportOutcome::Written { address: 0x10_0000 }
    ));
    let r = rig.report(0x10_0000);
    assert_eq!(&r[16..20], &0x100u32.to_le_bytes(), "low dword");
    assert_eq!(r[160], 1, "high byte");
    assert_eq!(rig.slot(&r, "A0"), 0x1_0000_0100, "reassembled");
    // Wrap at 2^40.
    rig.emu.write32(reg(p, "OAPERF_A0_UPPER").address, 0xFF);
    rig.emu.write32(reg(p, "OAPERF_A0").address, 0xFFFF_FFFF);
    assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(0xFF_FFFF_FFFF));
    rig.emu.advance(1);
    assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(0x1FF));
    assert_eq!(rig.status("counter_overflow"), 1);
}

// ------------------------------------------------------- byte-exact layouts

#[test]
fn hsw_a45_b8_c8_report_is_byte_exact() {
    let mut rig = Rig::new(&hsw::PROJECT);
    // Past 2^32 ticks (counters off: nothing counts but the clocks), so
    // both dwords of the 64-bit TIME_STAMP slot matter.
    rig.emu.advance(0x1_0000_0005);
    let w = (0..45).fold(Workload::new(), |w, n| w.rate(n, u64::from(n) + 1));
    rig.oa_mut().set_workload(w);
    program_cec(&mut rig, 0, 0x3, 0xFFFE);
    program_cec(&mut rig, 1, 0x4, 0xFFFE);
    for n in 2..8 {
        let c = val(rig.p, &format!("CEC{n}_0"), &[("compare_function", 7)]);
        program_cec(&mut rig, n, c, 0);
    }
    rig.start(5, None);
    rig.emu.advance(10);
    let now = rig.emu.now();
    assert_eq!(
        rig.oa_mut().mi_report_perf_count(0x2000, 0xDEAD_BEEF, true),
        ReportOutcome::Written { address: 0x2000 }
    );
    // PRM 000 [DevHSW] Counter Select = 101, rows of eight dwords, right to
    // left: RPT_ID, TIME_STAMP (two dwords), A0..A4 / A5..A12 / ... /
    // A37..A44 / B0..B7 / C0..C7 (the row the PRM leaves "Reserved").
    let mut e = vec![0u8; 256];
    le32(&mut e, 0, 0xDEAD_BEEF);
    e[4..12].copy_from_slice(&now.to_le_bytes());
    for n in 0..45 {
        le32(&mut e, 12 + 4 * n, (n as u64 + 1) * 10);
    }
    let clocks = 10 * OaConfig::DEFAULT_GPU_CLOCKS_PER_TICK;
    for n in 0..8 {
        le32(&mut e, 192 + 4 * n, if n == 1 { 0 } else { clocks });
    }
    le32(&mut e, 224 + 8, now * OaConfig::DEFAULT_GPU_CLOCKS_PER_TICK); // C2
    assert_eq!(rig.emu.gpu_mem().read(0x2000, 256), e);
    assert_eq!(rig.format().name, "A45_B8_C8");
}

/// PRM 001/003 A32u40_A4u32_B8_C8 (Counter Select 101): header RPT_ID,
/// TIME_STAMP, CTX_ID, GPU_TICKS; A0..A31 low dwords; A32..A35; the high
/// bytes of A0..A31; B0..B7; C0..C7.
fn gen8_256(rpt_id: u32, t: u64, ctx: u32, ticks: u64, a: &[u64; 36], b: &[u64; 8]) -> Vec<u8> {
    let mut e = vec![0u8; 256];
    le32(&mut e, 0, u64::from(rpt_id));
    le32(&mut e, 4, t);
    le32(&mut e, 8, u64::from(ctx));
    le32(&mut e, 12, ticks);
    for (n, &v) in a.iter().enumerate() {
        if n < 32 {
            le32(&mut e, 16 + 4 * n, v);
            e[160 + n] = (v >> 32) as u8;
        } else {
            le32(&mut e, 144 + 4 * (n - 32), v);
        }
    }
    for (n, &v) in b.iter().enumerate() {
        le32(&mut e, 192 + 4 * n, v);
    }
    e
}

#[test]
fn gen8_a32u40_timer_report_is_byte_exact() {
    for p in [&bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::new(p);
        let mut w = (0..36).fold(Workload::new(), |w, n| w.rate(n, u64::from(n) + 1));
        w = w.rate(3, 0x1_0000_0001);
        rig.oa_mut().set_workload(w);
        for n in 0..8 {
            program_cec(&mut rig, n, 0x4, 0xFFFE); // never
        }
        program_cec(&mut rig, 5, 0x3, 0xFFFE); // every clock
        let mut preset = 0u64;
        if p.name == "bdw" {
            rig.emu.write32(reg(p, "OAPERF_A0").address, 0x9ABC_DEF0);
            rig.emu.write32(reg(p, "OAPERF_A0_UPPER").address, 0x12);
            preset = 0x12_9ABC_DEF0;
        }
        assert_eq!(rig.oa_mut().set_context(0x42), ReportOutcome::NotTriggered);
        rig.program(BASE, 0, false);
        rig.start(5, Some(3)); // period 16: reports at 8, 24, ...
        let t0 = rig.emu.now();
        rig.until_timer_reports(1, 100);
        let t = rig.emu.now();
        let ticks = t - t0;
        let mut a = [0u64; 36];
        for (n, v) in a.iter_mut().enumerate() {
            *v = (n as u64 + 1) * ticks;
        }
        a[0] += preset;
        a[3] = 0x1_0000_0001 * ticks;
        let mut b = [0u64; 8];
        b[5] = ticks * OaConfig::DEFAULT_GPU_CLOCKS_PER_TICK;
        // RPT_ID: timer reason (bit 19); BDW: context valid bit 25 and
        // timer enabled bit 16 (PRM 001); TGL: context valid bit 16 (facts
        // section 6; the PRM table calls it "Timer Enabled").
        let rpt = match p.name {
            "bdw" => 1 << 19 | 1 << 25 | 1 << 16,
            _ => 1 << 19 | 1 << 16,
        };
        let e = gen8_256(
            rpt,
            t,
            0x42,
            t * OaConfig::DEFAULT_GPU_CLOCKS_PER_TICK,
            &a,
            &b,
        );
        assert_eq!(rig.emu.gpu_mem().read(BASE, 256), e, "{}", p.name);
        assert_eq!(rig.format().name, "A32U40_A4U32_B8_C8");
        // Without a context: no valid bit, CTX_ID 0.
        rig.emu.advance(1);
        assert!(matches!(
            rig.oa_mut().clear_context(), // a context-switch report
            ReportOutcome::Written { .. }
        ));
        rig.until_timer_reports(2, 100);
        let r = rig.report(BASE + 2 * 256);
        let expect: u32 = if p.name == "bdw" {
            1 << 19 | 1 << 16
        } else {
            1 << 19
        };
        assert_eq!(u32::from_le_bytes(r[0..4].try_into().unwrap()), expect);
        assert_eq!(&r[8..12], &[0; 4]);
    }
}

// ------------------------------------------------------------- OA buffer

#[test]
fn tail_wraps_with_a_report_straddling_the_end() {
    // HSW A29_B8_C8: 192 bytes; 128 KiB holds 682 of them plus 128 bytes.
    let mut rig = Rig::sampling(&hsw::PROJECT, 3, Some(0)); // a report every 2 ticks
    assert_eq!(rig.format().size, 192);
    rig.until_timer_reports(100, 1000);
    rig.set_head(BASE + 100 * 192); // software consumed 100 reports
    rig.until_timer_reports(682, 2000);
    assert_eq!(rig.tail(), BASE + 682 * 192);
    let first = rig.emu.gpu_mem().read(BASE, 64);
    rig.until_timer_reports(683, 10);
    let t = rig.emu.now();
    assert_eq!(rig.tail(), BASE + 64, "tail wrapped past the end");
    assert_eq!(rig.status("buffer_overflow"), 0);
    // The report: 128 bytes at the end, 64 at the base.
    let mut r = rig.emu.gpu_mem().read(BASE + 682 * 192, 128);
    r.extend(rig.emu.gpu_mem().read(BASE, 64));
    assert_eq!(
        rig.slot(&r, "RPT_ID"),
        u64::from(OaConfig::DEFAULT_LEGACY_TIMER_RPT_ID)
    );
    assert_eq!(rig.slot(&r, "TIME_STAMP"), t);
    assert_ne!(
        rig.emu.gpu_mem().read(BASE, 64),
        first,
        "the base was overwritten"
    );
    // The one before is intact and one period earlier.
    let prev = rig.report(BASE + 681 * 192);
    assert_eq!(rig.slot(&prev, "TIME_STAMP"), t - 2);
}

#[test]
fn default_mode_overflow_sets_status_and_overwrites() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::sampling(p, 5, Some(0));
        rig.until_timer_reports(512, 2000); // 128 KiB / 256: exactly full
        assert_eq!(rig.status("buffer_overflow"), 0, "{}", p.name);
        assert_eq!(rig.tail(), BASE);
        let old = rig.report(BASE);
        rig.until_timer_reports(513, 10);
        assert_eq!(rig.status("buffer_overflow"), 1, "{}", p.name);
        assert_eq!(rig.status("report_lost"), 0);
        assert_eq!(rig.stats().overwrites, 1);
        let new = rig.report(BASE);
        assert_eq!(
            rig.slot(&new, "TIME_STAMP") & 0xFFFF_FFFF,
            rig.emu.now() & 0xFFFF_FFFF
        );
        assert_ne!(new, old, "report 1 overwritten by report 513");
        assert_eq!(rig.tail(), BASE + 256);
        // Software clears the RW-V bit by writing 0 (other fields kept).
        let status = reg(p, rig.n.status);
        let v = rig.emu.peek(status.address, 0).unwrap() as u32;
        let bit = status.field("buffer_overflow").unwrap().mask() as u32;
        rig.emu.write32(status.address, v & !bit);
        assert_eq!(rig.status("buffer_overflow"), 0);
        assert_eq!(rig.tail(), BASE + 256);
    }
}

#[test]
fn hsw_disable_overrun_mode_stops_and_resumes() {
    let mut rig = Rig::new(&hsw::PROJECT);
    rig.program(BASE, 0, true);
    rig.start(5, Some(0));
    rig.until_timer_reports(512, 2000);
    let first = rig.report(BASE);
    rig.emu.advance(100); // 50 more timer events
    let s = rig.stats();
    assert_eq!(s.timer_reports, 512);
    assert_eq!(s.suppressed, 50);
    assert_eq!(
        rig.status("buffer_overflow"),
        0,
        "this mode sets no overrun bit"
    );
    assert_eq!(rig.status("report_lost"), 0, "no report lost");
    assert_eq!(rig.f("OABUFFER", "overrun_status"), 1);
    assert_eq!(rig.tail(), BASE);
    assert_eq!(rig.report(BASE), first, "nothing overwritten");
    // Software consumes one report: reporting resumes by itself.
    rig.set_head(BASE + 256);
    rig.until_timer_reports(513, 10);
    let t = rig.emu.now();
    let r = rig.report(BASE);
    assert_eq!(rig.slot(&r, "TIME_STAMP"), t);
    assert_eq!(rig.tail(), BASE + 256);
    assert_eq!(rig.f("OABUFFER", "overrun_status"), 0);
    rig.emu.advance(10);
    assert_eq!(rig.stats().timer_reports, 513, "full again");
    assert_eq!(rig.f("OABUFFER", "overrun_status"), 1);
    assert_eq!(rig.status("buffer_overflow"), 0);
}

#[test]
fn skipped_reports_match_report_by_report() {
    // One long advance (reports beyond a buffer's worth are only accounted
    // for) against one tick at a time (every report written).
    for (p, overrun) in [
        (&bdw::PROJECT, false),
        (&hsw::PROJECT, false),
        (&hsw::PROJECT, true),
        (&tgl::PROJECT, false),
    ] {
        let run = |step: bool| {
            let mut rig = Rig::new(p);
            rig.oa_mut().set_workload(Workload::new().rate(1, 3));
            rig.oa_mut().set_noa(NoaSource::new().divider(0, 5));
            program_cec(&mut rig, 2, 0x2 | 1 << 3, 0xFFFE); // B2: bit 0 == 1
            rig.program(BASE, 0, overrun);
            rig.start(5, Some(0));
            rig.emu.advance(17);
            rig.set_head(BASE + 7 * 256);
            if step {
                for _ in 0..3000 {
                    rig.emu.advance(1);
                }
            } else {
                rig.emu.advance(3000);
            }
            let status = rig.emu.peek(reg(p, rig.n.status).address, 0);
            (
                rig.emu.gpu_mem().read(BASE, KIB128 as usize),
                rig.tail(),
                status,
                rig.stats(),
            )
        };
        let (fast, slow) = (run(false), run(true));
        assert_eq!(fast.1, slow.1, "{} tail", p.name);
        assert_eq!(fast.2, slow.2, "{} status", p.name);
        assert_eq!(fast.3, slow.3, "{} stats", p.name);
        assert!(fast.0 == slow.0, "{} buffer bytes", p.name);
        assert!(fast.3.timer_reports > 0);
    }
}

// ----------------------------------------------------------- report lost

#[test]
fn report_lost_on_a_same_tick_mi_report_perf_count() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::sampling(p, 0, Some(3));
        rig.until_timer_reports(1, 100); // a timer report at this tick
        assert_eq!(rig.status("report_lost"), 0);
        assert_eq!(
            rig.oa_mut().mi_report_perf_count(0x10_0000, 5, true),
            ReportOutcome::Lost
        );
        assert_eq!(rig.status("report_lost"), 1, "{}", p.name);
        assert_eq!(rig.emu.gpu_mem().read(0x10_0000, 64), vec![0; 64]);
        assert_eq!(rig.stats().lost, 1);
        rig.emu.advance(1);
        assert!(matches!(
            rig.oa_mut().mi_report_perf_count(0x10_0000, 5, true),
            ReportOutcome::Written { .. }
        ));
        // And two commands in one tick.
        assert_eq!(
            rig.oa_mut().mi_report_perf_count(0x10_1000, 6, true),
            ReportOutcome::Lost
        );
        // Software clears the RW-V bit by writing 0.
        let status = reg(p, rig.n.status);
        let v = rig.emu.peek(status.address, 0).unwrap() as u32;
        let bit = status.field("report_lost").unwrap().mask() as u32;
        rig.emu.write32(status.address, v & !bit);
        assert_eq!(rig.status("report_lost"), 0);
    }
}

// ------------------------------------------------- MI_REPORT_PERF_COUNT

#[test]
fn mi_report_perf_count_writes_its_id_at_its_address() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::sampling(p, 2, None);
        let tail = rig.tail();
        assert_eq!(
            rig.oa_mut()
                .mi_report_perf_count(0x20_0013, 0x1234_5678, true),
            ReportOutcome::Written { address: 0x20_0000 },
            "{}: bits 5:0 of the address are ignored",
            p.name
        );
        let r = rig.report(0x20_0000);
        assert_eq!(&r[0..4], &0x1234_5678u32.to_le_bytes(), "{}", p.name);
        assert_eq!(rig.slot(&r, "TIME_STAMP") & 0xFFFF_FFFF, rig.emu.now());
        assert_eq!(rig.tail(), tail, "the tail does not move");
        assert_eq!(rig.stats().mi_reports, 1);
        // PPGTT: nothing visible, a warning.
        rig.emu.advance(1);
        assert_eq!(
            rig.oa_mut().mi_report_perf_count(0x30_0000, 1, false),
            ReportOutcome::Invisible
        );
        assert_eq!(rig.emu.gpu_mem().read(0x30_0000, 128), vec![0; 128]);
        assert!(rig
            .oa()
            .warnings()
            .iter()
            .any(|w| w.kind == OaWarningKind::Ppgtt { address: 0x30_0000 }));
        // The same, in the emulator's one warning list.
        assert!(rig
            .emu
            .warnings()
            .iter()
            .any(|w| w.kind == WarningKind::Oa(OaWarningKind::Ppgtt { address: 0x30_0000 })));
        // Beyond the 4 GiB GGTT.
        rig.emu.advance(1);
        rig.oa_mut().mi_report_perf_count(0xFFFF_FFC0, 1, true);
        assert!(rig
            .oa()
            .warnings()
            .iter()
            .any(|w| matches!(w.kind, OaWarningKind::OutsideGgtt { .. })));
        assert_eq!(rig.emu.gpu_mem().read(0xFFFF_FFC0, 4), 1u32.to_le_bytes());
    }
}

#[test]
fn unknown_formats_write_nothing_and_warn_once() {
    let mut rig = Rig::sampling(&bdw::PROJECT, 1, Some(0)); // BDW has no format 1
    rig.emu.advance(100);
    assert_eq!(
        rig.oa_mut().mi_report_perf_count(0x1000, 1, true),
        ReportOutcome::NoLayout
    );
    assert_eq!(rig.stats().timer_reports, 0);
    assert_eq!(rig.tail(), BASE);
    let w = rig.oa().warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].kind, OaWarningKind::NoLayout { format: 1 });
}

// ------------------------------------------------------------- contexts

#[test]
fn context_filtering_counts_only_the_selected_context() {
    for p in [&hsw::PROJECT, &bdw::PROJECT] {
        let mut rig = Rig::new(p);
        rig.oa_mut().set_workload(Workload::new().rate(0, 1));
        let ctx = 0x1234_5000u32;
        if p.name == "hsw" {
            rig.w(
                "OACONTROL",
                &[
                    ("counter_enable", 1),
                    ("counter_select", 5),
                    ("specific_context_enable", 1),
                    ("select_context_id", u64::from(ctx) >> 12),
                ],
            );
        } else {
            rig.w("OACTXID", &[("context_id", u64::from(ctx))]);
            rig.w(
                "OACONTROL",
                &[
                    ("counter_enable", 1),
                    ("counter_select", 5),
                    ("specific_context_enable", 1),
                ],
            );
        }
        rig.emu.advance(10); // no context: nothing counts
        rig.oa_mut().set_context(ctx);
        rig.emu.advance(20);
        rig.oa_mut().set_context(0x9999_9000);
        rig.emu.advance(40);
        rig.oa_mut().set_context(ctx);
        rig.emu.advance(5);
        rig.oa_mut().clear_context();
        rig.emu.advance(7);
        assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(25), "{}", p.name);
        // Filtering off: everything counts.
        rig.w(
            rig.n.control,
            &[("counter_enable", 1), ("counter_select", 5)],
        );
        rig.emu.advance(3);
        assert_eq!(rig.oa().counter(SlotKind::A(0)), Some(28), "{}", p.name);
    }
}

#[test]
fn gen8_context_switches_write_reports() {
    for p in [&bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::sampling(p, 5, None);
        let valid: u32 = if p.name == "bdw" { 1 << 25 } else { 1 << 16 };
        let reason: u32 = 1 << 22;
        rig.emu.advance(3);
        assert_eq!(
            rig.oa_mut().set_context(5),
            ReportOutcome::Written { address: BASE }
        );
        let r = rig.report(BASE);
        assert_eq!(rig.slot(&r, "RPT_ID") as u32, reason | valid, "{}", p.name);
        assert_eq!(rig.slot(&r, "CTX_ID"), 5);
        assert_eq!(rig.slot(&r, "TIME_STAMP"), rig.emu.now());
        assert_eq!(rig.tail(), BASE + 256);
        assert_eq!(
            rig.oa_mut().set_context(5),
            ReportOutcome::NotTriggered,
            "no change"
        );
        rig.emu.advance(1);
        rig.oa_mut().clear_context();
        let r = rig.report(BASE + 256);
        assert_eq!(rig.slot(&r, "RPT_ID") as u32, reason, "{}", p.name);
        assert_eq!(rig.slot(&r, "CTX_ID"), 0);
        // Two switches in one tick: the second is lost.
        assert_eq!(rig.oa_mut().set_context(6), ReportOutcome::Lost);
        assert_eq!(rig.oa().context(), Some(6));
        assert_eq!(rig.status("report_lost"), 1);
        // OA_DEBUG disables them (a masked register: enable bit in 31:16).
        rig.emu.advance(1);
        let debug = rig.n.debug.unwrap();
        let bit = u64::from(val(p, debug, &[("disable_ctx_switch_reports", 1)]));
        rig.emu
            .write32(reg(p, debug).address, (bit << 16 | bit) as u32);
        assert_eq!(rig.oa_mut().set_context(7), ReportOutcome::NotTriggered);
        assert_eq!(rig.stats().context_reports, 2);
        assert_eq!(rig.tail(), BASE + 512);
    }
    // HSW has no context-switch reports.
    let mut rig = Rig::sampling(&hsw::PROJECT, 5, None);
    assert_eq!(rig.oa_mut().set_context(5), ReportOutcome::NotTriggered);
    assert_eq!(rig.tail(), BASE);
}

// ----------------------------------------------------- programming order

#[test]
fn programming_order_violations_are_recorded() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::new(p);
        let buffer = rig.n.buffer;
        // OA buffer before the head pointer.
        rig.program_buffer(BASE, 0, false);
        rig.set_head(BASE);
        rig.program_tail(BASE, 0);
        assert_eq!(rig.oa().overflow_detection(), Some(false), "{}", p.name);
        let w = rig.oa_mut().take_warnings();
        assert_eq!(w.len(), 1, "{}: {w:?}", p.name);
        assert!(matches!(
            w[0].kind,
            OaWarningKind::ProgrammingOrder { register, .. } if register == buffer
        ));
        assert!(w[0].to_string().contains("overflow detection is off"));
        // Detection off: a full buffer overwrites without the status bit.
        rig.start(5, Some(0));
        rig.until_timer_reports(520, 2000);
        assert_eq!(rig.status("buffer_overflow"), 0, "{}", p.name);
        // Head, tail, buffer: also out of order.
        rig.set_head(BASE);
        rig.program_tail(BASE, 0);
        rig.program_buffer(BASE, 0, false);
        rig.program_tail(BASE, 0);
        assert_eq!(rig.oa_mut().take_warnings().len(), 1);
        assert_eq!(rig.oa().overflow_detection(), Some(false));
        // In order again: detection back on.
        rig.program(BASE, 0, false);
        assert_eq!(rig.oa().overflow_detection(), Some(true));
        assert!(rig.oa().warnings().is_empty());
        let n = rig.stats().timer_reports;
        rig.until_timer_reports(n + 513, 2000);
        assert_eq!(rig.status("buffer_overflow"), 1, "{}", p.name);
        // Consuming (head writes) and clearing status do not disturb it.
        rig.set_head(rig.tail());
        let status = reg(p, rig.n.status);
        let v = rig.emu.peek(status.address, 0).unwrap() as u32;
        rig.emu.write32(
            status.address,
            v & !(status.field("buffer_overflow").unwrap().mask() as u32),
        );
        assert_eq!(rig.oa().overflow_detection(), Some(true));
        assert!(rig.oa().warnings().is_empty());
    }
}

#[test]
fn a_missing_tail_write_is_reported_when_a_report_comes() {
    let mut rig = Rig::new(&bdw::PROJECT);
    rig.set_head(BASE);
    rig.program_buffer(BASE, 0, false);
    rig.start(5, Some(0));
    rig.emu.advance(4);
    let w = rig.oa().warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(matches!(
        w[0].kind,
        OaWarningKind::ProgrammingOrder {
            register: "OATAILPTR",
            ..
        }
    ));
    rig.emu.advance(4);
    assert_eq!(rig.oa().warnings().len(), 1, "once");
}

#[test]
fn one_programming_order_mistake_is_one_warning() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let mut rig = Rig::new(p);
        let buffer = rig.n.buffer;
        // Head, tail, buffer, and no tail write after the buffer: the
        // buffer write is out of order, and reports then come while the
        // completing tail write is missing. One mistake, one warning.
        rig.set_head(BASE);
        rig.program_tail(BASE, 0);
        rig.program_buffer(BASE, 0, false);
        rig.start(5, Some(0));
        rig.until_timer_reports(3, 200);
        let w = rig.oa().warnings();
        assert_eq!(w.len(), 1, "{}: {w:?}", p.name);
        assert!(
            matches!(w[0].kind, OaWarningKind::ProgrammingOrder { register, .. } if register == buffer),
            "{}: {w:?}",
            p.name
        );
        assert_eq!(rig.oa().overflow_detection(), Some(false), "{}", p.name);
    }
}

// ------------------------------------------------------------- the rest

#[test]
fn the_oa_model_is_on_after_new_for_gpu_projects_only() {
    for p in hal::PROJECTS.iter().copied() {
        let gpu = !p.formats.is_empty();
        assert_eq!(
            Emulator::new(p, Sku::default()).unit::<OaUnit>().is_on(),
            gpu,
            "{}",
            p.name
        );
    }
}

#[test]
fn the_oa_model_can_be_turned_off() {
    let p = &hsw::PROJECT;
    let mut emu = Emulator::new(p, Sku::default());
    assert!(emu.unit::<OaUnit>().is_on());
    emu.unit_mut::<OaUnit>().disable();
    emu.write32(reg(p, "FORCEWAKE_MT").address, 0x0001_0001);
    emu.advance(Sku::DEFAULT_WAKE_LATENCY);
    let ctl = reg(p, "OACONTROL").address;
    emu.write32(
        ctl,
        val(
            p,
            "OACONTROL",
            &[("counter_enable", 1), ("timer_enable", 1)],
        ),
    );
    let status = emu.peek(reg(p, "OASTATUS1").address, 0);
    emu.advance(1000);
    assert!(!emu.unit::<OaUnit>().is_on());
    assert_eq!(emu.peek(reg(p, "OASTATUS1").address, 0), status);
    assert_eq!(emu.gpu_mem().allocated(), 0);
    assert_eq!(
        emu.unit_mut::<OaUnit>().mi_report_perf_count(0, 1, true),
        ReportOutcome::NotTriggered
    );
    assert_eq!(emu.unit::<OaUnit>().counter(SlotKind::A(0)), None);
    assert!(emu.unit::<OaUnit>().warnings().is_empty());
    // Graphics memory works all the same.
    emu.gpu_mem_mut().write(0xFFFE, &[1, 2, 3, 4]);
    assert_eq!(emu.gpu_mem().read(0xFFFD, 6), [0, 1, 2, 3, 4, 0]);
    let mut buf = [9u8; 3];
    emu.gpu_mem().read_into(0x1_0000, &mut buf);
    assert_eq!(buf, [3, 4, 0]);
    assert_eq!(emu.gpu_mem().allocated(), 2 << 16);
}

#[test]
fn every_project_accepts_the_oa_model() {
    for p in hal::PROJECTS.iter().copied() {
        let mut emu = Emulator::builder(p, Sku::default())
            .with::<OaUnit>(OaConfig::default())
            .build();
        emu.unit_mut::<OaUnit>()
            .set_workload(Workload::new().rate(0, 1));
        emu.unit_mut::<OaUnit>()
            .set_noa(NoaSource::new().random(0, 1));
        for r in p.registers {
            emu.write32(r.address, u32::MAX);
        }
        emu.advance(100);
        emu.unit_mut::<OaUnit>().set_context(3);
        emu.unit_mut::<OaUnit>()
            .mi_report_perf_count(0x1000, 1, true);
        emu.advance(u64::MAX);
        let snapshot = emu.clone();
        assert_eq!(
            snapshot.unit::<OaUnit>().stats(),
            emu.unit::<OaUnit>().stats(),
            "{}",
            p.name
        );
        let _ = format!("{emu:?}");
    }
}

#[test]
fn gpu_clocks_per_tick_is_configurable() {
    let mut rig = Rig::with(
        &bdw::PROJECT,
        OaConfig::default().with_gpu_clocks_per_tick(3),
    );
    let c0 = rig.oa().counter(SlotKind::GpuTicks).unwrap();
    rig.emu.advance(100);
    assert_eq!(rig.oa().counter(SlotKind::GpuTicks).unwrap() - c0, 300);
    assert_eq!(rig.oa().config().unwrap().gpu_clocks_per_tick, 3);
}

#[test]
fn rendering_a_report_has_no_side_effects() {
    let mut rig = Rig::new(&bdw::PROJECT);
    rig.oa_mut().set_workload(Workload::new().rate(2, 4));
    rig.start(5, None);
    rig.emu.advance(5);
    let mut out = [0u8; 256];
    assert_eq!(rig.oa_mut().render_report(9, &mut out), Some(256));
    assert_eq!(rig.slot(&out, "RPT_ID"), 9);
    assert_eq!(rig.slot(&out, "A2"), 20);
    assert_eq!(rig.oa_mut().render_report(9, &mut [0u8; 100]), None);
    assert!(matches!(
        rig.oa_mut().mi_report_perf_count(0x1000, 1, true),
        ReportOutcome::Written { .. }
    ));
    assert_eq!(rig.emu.gpu_mem().read(0x1000, 256)[16..], out[16..]);
}

/// What a scripted run leaves behind: OA buffer bytes, every register,
/// statistics, the trace and the warnings (as text).
type ScriptResult = (Vec<u8>, Vec<Option<u64>>, OaStats, Vec<String>, Vec<String>);

/// A scripted run touching everything.
fn script(p: &'static ProjectInfo) -> ScriptResult {
    let mut rig = Rig::new(p);
    rig.oa_mut()
        .set_noa(NoaSource::new().random(0, 3).divider(1, 7).random(2, 11));
    rig.oa_mut()
        .set_workload(Workload::new().rate(0, 3).rate(5, 1));
    for n in 0..8 {
        let c = val(
            p,
            &format!("CEC{n}_0"),
            &[("compare_function", n as u64), ("compare_value", 3)],
        );
        program_cec(&mut rig, n, c, 0xFFF8);
    }
    rig.program(BASE, 0, false);
    rig.start(5, Some(2));
    for i in 0..200u64 {
        rig.emu.advance(i % 13);
        if i % 17 == 0 {
            rig.oa_mut().set_context(i as u32);
        }
        if i % 11 == 0 {
            rig.oa_mut()
                .mi_report_perf_count(0x20_0000 + i * 256, i as u32, i % 3 != 0);
        }
        if i % 29 == 0 {
            rig.set_head(rig.tail());
        }
    }
    let regs = p
        .registers
        .iter()
        .map(|r| rig.emu.peek(r.address, 0))
        .collect();
    (
        rig.emu.gpu_mem().read(BASE, 1 << 17),
        regs,
        rig.stats(),
        rig.emu.trace().iter().map(|e| e.to_string()).collect(),
        rig.oa().warnings().iter().map(|w| w.to_string()).collect(),
    )
}

#[test]
fn same_script_same_result() {
    for p in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT] {
        let a = script(p);
        assert!(a.2.timer_reports > 10);
        assert!(a == script(p), "{}", p.name);
    }
}

#[test]
fn random_oa_programming_never_panics() {
    for (i, p) in [&hsw::PROJECT, &bdw::PROJECT, &tgl::PROJECT]
        .into_iter()
        .enumerate()
    {
        let mut rig = Rig::new(p);
        let mut rng = Rng(0x0A0A_0001 + i as u64);
        let oa_regs: Vec<&RegisterInfo> = p
            .registers
            .iter()
            .filter(|r| r.block.starts_with("oa") || r.block.starts_with("cec"))
            .collect();
        assert!(oa_regs.len() > 20);
        let mut noisy = false;
        for step in 0..4000 {
            let x = rng.next();
            match x % 16 {
                0..=7 => {
                    let r = oa_regs[(rng.next() % oa_regs.len() as u64) as usize];
                    let v = match rng.next() % 4 {
                        0 => 0,
                        1 => u32::MAX,
                        _ => rng.next() as u32,
                    };
                    rig.emu.write32(r.address, v);
                }
                8 | 9 => rig.emu.advance(rng.next() % 64),
                10 => {
                    rig.oa_mut()
                        .mi_report_perf_count(rng.next(), rng.next() as u32, x & 1 == 0);
                }
                11 => {
                    rig.oa_mut().set_context(rng.next() as u32 % 4);
                }
                12 => {
                    let r = oa_regs[(rng.next() % oa_regs.len() as u64) as usize];
                    rig.emu.poke(r.address, rng.next());
                }
                13 => {
                    noisy = !noisy;
                    rig.oa_mut().set_noa(if noisy {
                        NoaSource::new().random(0, x).divider(3, x % 9)
                    } else {
                        NoaSource::new()
                    });
                }
                14 if !noisy && step % 7 == 0 => rig.emu.advance(u64::MAX / 2 - rig.emu.now() / 2),
                _ => {
                    rig.emu
                        .gpu_mem_mut()
                        .write(rng.next() >> (rng.next() % 64), &[1, 2, 3]);
                    let _ = rig.emu.gpu_mem().read(rng.next(), 16);
                }
            }
            // Invariants: stored values within the registers' bits, the
            // tail inside the buffer and 64-byte aligned.
            let tail = rig.tail();
            assert_eq!(tail % 64, 0, "{} step {step}", p.name);
        }
        let mut out = [0u8; 512];
        let _ = rig.oa_mut().render_report(1, &mut out);
        let _ = format!("{:?}", rig.emu);
    }
}
