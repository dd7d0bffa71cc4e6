//! The CPU counter models of the emulator: Pentium 4 counters with
//! cascading (SDM 18.15.5.6, PRM 002) and the Xeon E5 v2 R2PCIe box with
//! the UBox freeze (PRM 004). Registers and fields by name from the
//! metadata; counters preset and read through raw bus accesses.

use hal::meta::{Cell, ProjectInfo, RegisterInfo};
use hal::{ivt, p4, Bus, Msr, Pci};
use perfregs_emu::*;
use perfregs_testkit::reg;

// ------------------------------------------------------------------ helpers

const P4: &ProjectInfo = &p4::PROJECT;
const IVT: &ProjectInfo = &ivt::PROJECT;
const M40: u64 = (1 << 40) - 1;
const M44: u64 = (1 << 44) - 1;

/// A value of `r` from named fields.
fn val(r: &RegisterInfo, fields: &[(&str, u64)]) -> u64 {
    fields.iter().fold(0, |v, &(n, x)| {
        let f = r
            .field(n)
            .unwrap_or_else(|| panic!("{} has no field {n}", r.name));
        v | (x << f.lsb) & f.mask()
    })
}

fn field(r: &RegisterInfo, name: &str, v: u64) -> u64 {
    let f = r.field(name).unwrap();
    (v & f.mask()) >> f.lsb
}

fn counter(n: usize) -> u64 {
    reg(P4, &format!("P4_COUNTER{n}")).address
}

fn cccr_reg(n: usize) -> &'static RegisterInfo {
    reg(P4, &format!("P4_CCCR{n}"))
}

/// Write CCCR n through the MSR bus (bits 17:16 = 11b as the SDM asks).
fn set_cccr(emu: &mut Emulator, n: usize, fields: &[(&str, u64)]) {
    let r = cccr_reg(n);
    let mut all = vec![("active_thread", 3)];
    all.extend_from_slice(fields);
    Bus::<Msr>::write64(emu, r.address, val(r, &all));
}

fn cccr(emu: &mut Emulator, n: usize, name: &str) -> u64 {
    let r = cccr_reg(n);
    let v = Bus::<Msr>::read64(emu, r.address);
    field(r, name, v)
}

fn preset(emu: &mut Emulator, n: usize, minus: u64) {
    Bus::<Msr>::write64(emu, counter(n), 0u64.wrapping_sub(minus) & M40);
}

fn count(emu: &mut Emulator, n: usize) -> u64 {
    Bus::<Msr>::read64(emu, counter(n))
}

fn p4_emu(events: CpuEvents) -> Emulator {
    Emulator::builder(P4, Sku::default())
        .with::<P4Unit>(events)
        .build()
}

/// The cascade source of `target` per the `cascade_pairs` table.
fn source_of(target: u64) -> Option<u64> {
    let t = P4.table("cascade_pairs").expect("cascade_pairs table");
    let ti = t.columns.iter().position(|&c| c == "target").unwrap();
    let si = t.columns.iter().position(|&c| c == "source").unwrap();
    t.rows.iter().find_map(|r| match (r[ti], r[si]) {
        (Cell::Int(tg), Cell::Int(s)) if tg == target => Some(s),
        _ => None,
    })
}

// ------------------------------------------------------------------ P4

#[test]
fn p4_counts_only_when_enabled() {
    let mut emu = p4_emu(CpuEvents::new().rate(0, 3).rate(1, 7));
    emu.advance(10);
    assert_eq!(count(&mut emu, 0), 0, "disabled counters do not count");
    set_cccr(&mut emu, 0, &[("enable", 1)]);
    emu.advance(10);
    assert_eq!(count(&mut emu, 0), 30);
    assert_eq!(count(&mut emu, 1), 0, "counter 1 never enabled");
    set_cccr(&mut emu, 0, &[]);
    emu.advance(10);
    assert_eq!(count(&mut emu, 0), 30, "disabling stops counting");
}

/// The CPU counter models are opt-in: without its unit, an enabled counter
/// of a plain emulator does not count.
#[test]
fn p4_and_r2_models_are_opt_in() {
    let mut p4 = Emulator::new(P4, Sku::default());
    set_cccr(&mut p4, 0, &[("enable", 1)]);
    let mut r2 = Emulator::new(IVT, Sku::default());
    set_ctl(&mut r2, 0, &[("en", 1)]);
    p4.advance(10);
    r2.advance(10);
    assert_eq!(count(&mut p4, 0), 0, "P4 without its unit");
    assert_eq!(ctr(&mut r2, 0), 0, "R2PCIe without its unit");
}

#[test]
fn p4_40_bit_wrap_sets_sticky_ovf() {
    let mut emu = p4_emu(CpuEvents::new().rate(3, 2));
    preset(&mut emu, 3, 5);
    set_cccr(&mut emu, 3, &[("enable", 1)]);
    emu.advance(2);
    assert_eq!(count(&mut emu, 3), M40, "4 events: -1, no overflow yet");
    assert_eq!(cccr(&mut emu, 3, "ovf"), 0);
    emu.advance(1);
    assert_eq!(count(&mut emu, 3), 1, "wrapped: the 5th event passes -1");
    assert_eq!(cccr(&mut emu, 3, "ovf"), 1);
    emu.advance(100);
    assert_eq!(count(&mut emu, 3), 201);
    assert_eq!(cccr(&mut emu, 3, "ovf"), 1, "OVF is sticky");
    set_cccr(&mut emu, 3, &[("enable", 1)]); // software clears OVF
    assert_eq!(cccr(&mut emu, 3, "ovf"), 0);
    // A long run: bulk counting lands exactly on the wrap.
    preset(&mut emu, 3, 2_000_001);
    emu.advance(1_000_000);
    assert_eq!(count(&mut emu, 3), M40 - 1 + 1);
    assert_eq!(cccr(&mut emu, 3, "ovf"), 0);
    emu.advance(1);
    assert_eq!(count(&mut emu, 3), 1);
    assert_eq!(cccr(&mut emu, 3, "ovf"), 1);
}

#[test]
fn p4_ovf_pmi_is_raised_on_the_next_event() {
    let mut emu = p4_emu(CpuEvents::new().rate(5, 1));
    preset(&mut emu, 5, 3);
    set_cccr(&mut emu, 5, &[("enable", 1), ("ovf_pmi", 1)]);
    emu.advance(3);
    assert_eq!(
        cccr(&mut emu, 5, "ovf"),
        1,
        "overflow at the 3rd event, tick 3"
    );
    assert!(
        emu.unit::<P4Unit>().interrupts().is_empty(),
        "no PMI at the overflow itself"
    );
    emu.advance(1);
    assert_eq!(
        emu.unit::<P4Unit>().interrupts(),
        &[CpuInterrupt {
            time: 4,
            counter: 5
        }]
    );
    emu.advance(10);
    assert_eq!(
        emu.unit::<P4Unit>().interrupts().len(),
        1,
        "one PMI per overflow"
    );

    // No events after the overflow: the PMI waits for the next one.
    let mut emu = p4_emu(CpuEvents::new().rate(5, 1));
    preset(&mut emu, 5, 2);
    set_cccr(&mut emu, 5, &[("enable", 1), ("ovf_pmi", 1)]);
    emu.advance(2);
    emu.unit_mut::<P4Unit>().set_events(CpuEvents::new());
    emu.advance(20);
    assert!(emu.unit::<P4Unit>().interrupts().is_empty());
    emu.unit_mut::<P4Unit>()
        .set_events(CpuEvents::new().rate(5, 1));
    emu.advance(1);
    assert_eq!(emu.unit::<P4Unit>().interrupts()[0].time, 23);

    // Several events per tick: the event after the overflow is in the same tick.
    let mut emu = p4_emu(CpuEvents::new().rate(5, 4));
    preset(&mut emu, 5, 6); // 6th event: tick 2, second event of the tick
    set_cccr(&mut emu, 5, &[("enable", 1), ("ovf_pmi", 1)]);
    emu.advance(1);
    assert!(emu.unit::<P4Unit>().interrupts().is_empty());
    emu.advance(1);
    assert_eq!(emu.unit::<P4Unit>().interrupts()[0].time, 2);
    // Overflow on the last event of a tick: PMI in the next tick.
    let mut emu = p4_emu(CpuEvents::new().rate(5, 4));
    preset(&mut emu, 5, 8);
    set_cccr(&mut emu, 5, &[("enable", 1), ("ovf_pmi", 1)]);
    emu.advance(2);
    assert_eq!(cccr(&mut emu, 5, "ovf"), 1);
    assert!(emu.unit::<P4Unit>().interrupts().is_empty());
    emu.advance(1);
    assert_eq!(emu.unit::<P4Unit>().interrupts()[0].time, 3);
    // Without OVF_PMI: no interrupt.
    let mut emu = p4_emu(CpuEvents::new().rate(5, 4));
    preset(&mut emu, 5, 8);
    set_cccr(&mut emu, 5, &[("enable", 1)]);
    emu.advance(10);
    assert_eq!(cccr(&mut emu, 5, "ovf"), 1);
    assert!(emu.unit::<P4Unit>().interrupts().is_empty());
}

#[test]
fn p4_force_ovf_overflows_on_every_increment() {
    let mut emu = p4_emu(CpuEvents::new().rate(8, 1));
    set_cccr(
        &mut emu,
        8,
        &[("enable", 1), ("force_ovf", 1), ("ovf_pmi", 1)],
    );
    emu.advance(1);
    assert_eq!(count(&mut emu, 8), 1);
    assert_eq!(cccr(&mut emu, 8, "ovf"), 1, "first increment overflows");
    assert!(emu.unit::<P4Unit>().interrupts().is_empty());
    emu.advance(3);
    let times: Vec<u64> = emu
        .unit::<P4Unit>()
        .interrupts()
        .iter()
        .map(|i| i.time)
        .collect();
    assert_eq!(times, [2, 3, 4], "each increment follows an overflow");
    // Cleared OVF comes back at the next increment.
    set_cccr(&mut emu, 8, &[("enable", 1), ("force_ovf", 1)]);
    assert_eq!(cccr(&mut emu, 8, "ovf"), 0);
    emu.advance(1);
    assert_eq!(cccr(&mut emu, 8, "ovf"), 1);
    // Without FORCE_OVF nothing overflows for a long time.
    let mut emu = p4_emu(CpuEvents::new().rate(8, 1));
    set_cccr(&mut emu, 8, &[("enable", 1), ("ovf_pmi", 1)]);
    emu.advance(1000);
    assert_eq!(cccr(&mut emu, 8, "ovf"), 0);
}

/// SDM Example 18-1 with raw MSR writes: X counts 200 occurrences of A, then
/// Y (cascade = 1, enable = 0) counts 400 occurrences of B.
fn sdm_example(rate_a: u64, rate_b: u64) {
    // Y = 2 is started by X = 0 per the table.
    let (x, y) = (0usize, 2usize);
    assert_eq!(source_of(y as u64), Some(x as u64));
    let mut emu = p4_emu(CpuEvents::new().rate(x, rate_a).rate(y, rate_b));
    preset(&mut emu, x, 200);
    preset(&mut emu, y, 400);
    set_cccr(&mut emu, y, &[("cascade", 1), ("ovf_pmi", 1)]);
    set_cccr(&mut emu, x, &[("enable", 1)]);
    // X's 200th event: tick ceil(200 / a), round (200 - 1) % a of that tick.
    let tx = 200u64.div_ceil(rate_a);
    let round = (200 - 1) % rate_a;
    emu.advance(tx - 1);
    assert_eq!(
        count(&mut emu, y),
        (1 << 40) - 400,
        "Y idle before X overflows"
    );
    assert_eq!(cccr(&mut emu, x, "ovf"), 0);
    emu.advance(1);
    assert_eq!(
        cccr(&mut emu, x, "ovf"),
        1,
        "X overflows on its 200th count"
    );
    // Y counts the B events after X's 200th event: rounds > `round`.
    let first = rate_b.saturating_sub(round + 1);
    assert_eq!(count(&mut emu, y), ((1 << 40) - 400 + first) & M40);
    assert_eq!(
        count(&mut emu, x),
        tx * rate_a - 200,
        "X wraps and keeps counting"
    );
    // Y overflows on B's 400th event after X's overflow.
    let mut b = first;
    let mut t = tx;
    while b + rate_b < 400 {
        emu.advance(1);
        t += 1;
        b += rate_b;
        assert_eq!(cccr(&mut emu, y, "ovf"), 0, "tick {t}");
    }
    emu.advance(1);
    b += rate_b;
    assert_eq!(cccr(&mut emu, y, "ovf"), 1);
    assert_eq!(count(&mut emu, y), b - 400);
    assert_eq!(
        cccr(&mut emu, y, "enable"),
        0,
        "hardware does not set enable"
    );
    // Y's PMI comes with its next event.
    emu.advance(1);
    assert_eq!(emu.unit::<P4Unit>().interrupts().len(), 1);
    assert_eq!(emu.unit::<P4Unit>().interrupts()[0].counter, y as u8);
}

#[test]
fn p4_sdm_cascade_example_one_event_per_tick() {
    // A and B once per tick: X overflows at tick 200 (B's event of that tick
    // is not after it); Y counts from tick 201 and overflows at tick 600.
    sdm_example(1, 1);
    let mut emu = p4_emu(CpuEvents::new().rate(0, 1).rate(2, 1));
    preset(&mut emu, 0, 200);
    preset(&mut emu, 2, 400);
    set_cccr(&mut emu, 2, &[("cascade", 1)]);
    set_cccr(&mut emu, 0, &[("enable", 1)]);
    emu.advance(599);
    assert_eq!(count(&mut emu, 2), M40);
    emu.advance(1);
    assert_eq!(count(&mut emu, 2), 0);
    assert_eq!(cccr(&mut emu, 2, "ovf"), 1);
}

#[test]
fn p4_sdm_cascade_example_several_events_per_tick() {
    sdm_example(4, 6);
    sdm_example(7, 3);
    sdm_example(3, 1000);
    sdm_example(1000, 3);
}

#[test]
fn p4_cascade_single_event_over_two_counters() {
    // Same event on both: Y holds exactly the events after X's 200th.
    for rate in [1, 3, 7, 200, 201] {
        let mut emu = p4_emu(CpuEvents::new().rate(13, rate).rate(15, rate));
        assert_eq!(source_of(15), Some(13));
        preset(&mut emu, 13, 200);
        set_cccr(&mut emu, 15, &[("cascade", 1)]);
        set_cccr(&mut emu, 13, &[("enable", 1)]);
        emu.advance(250);
        let total = 250 * rate;
        assert_eq!(count(&mut emu, 15), total - 200, "rate {rate}");
    }
}

/// Counter `target` set to cascade from `src`, `src` enabled one event
/// before its overflow, both counting one event a tick, after ten ticks.
fn cascade_after_ten_ticks(target: u64, src: u64) -> Emulator {
    let (t, s) = (target as usize, src as usize);
    let mut emu = p4_emu(CpuEvents::new().rate(t, 1).rate(s, 1));
    preset(&mut emu, s, 1);
    set_cccr(&mut emu, t, &[("cascade", 1)]);
    set_cccr(&mut emu, s, &[("enable", 1)]);
    emu.advance(10);
    emu
}

#[test]
fn p4_illegal_cascade_pairs_do_not_start() {
    // (target, overflowing counter): not in the table.
    for (target, src) in [
        (16, 12),
        (14, 16),
        (0, 4),
        (17, 13),
        (15, 17),
        (4, 8),
        (12, 13),
    ] {
        assert_ne!(source_of(target), Some(src), "{target} from {src}");
        let mut emu = cascade_after_ten_ticks(target, src);
        assert_eq!(cccr(&mut emu, src as usize, "ovf"), 1);
        assert_eq!(
            count(&mut emu, target as usize),
            0,
            "{target} must not start from {src}"
        );
    }
    // The legal ones do.
    for (target, src) in [
        (16, 14),
        (17, 15),
        (14, 12),
        (12, 14),
        (0, 2),
        (7, 5),
        (9, 11),
    ] {
        assert_eq!(source_of(target), Some(src));
        let mut emu = cascade_after_ten_ticks(target, src);
        assert_eq!(count(&mut emu, target as usize), 9, "{target} from {src}");
    }
}

#[test]
fn p4_cascade_halts_on_cascade_flag_or_source_ovf_clear() {
    let mut emu = p4_emu(CpuEvents::new().rate(4, 1).rate(6, 2));
    preset(&mut emu, 4, 1);
    set_cccr(&mut emu, 6, &[("cascade", 1)]);
    set_cccr(&mut emu, 4, &[("enable", 1)]);
    emu.advance(5);
    // Tick 1: 4 overflows on its first event (round 0), 6 counts round 1.
    assert_eq!(count(&mut emu, 6), 1 + 4 * 2);
    set_cccr(&mut emu, 6, &[]); // clear the cascade flag
    emu.advance(5);
    assert_eq!(count(&mut emu, 6), 9, "halted by the cascade flag");
    set_cccr(&mut emu, 6, &[("cascade", 1)]);
    emu.advance(1);
    assert_eq!(count(&mut emu, 6), 11, "source OVF still set: runs again");
    set_cccr(&mut emu, 4, &[("enable", 1)]); // clear the source's OVF
    emu.advance(5);
    assert_eq!(count(&mut emu, 6), 11, "halted by the source's OVF");
}

#[test]
fn p4_threshold_complement_edge() {
    let n = 10;
    let run = |rate: u64, fields: &[(&str, u64)], ticks: u64| {
        let mut emu = p4_emu(CpuEvents::new().rate(n, rate));
        let mut f = vec![("enable", 1), ("compare", 1)];
        f.extend_from_slice(fields);
        set_cccr(&mut emu, n, &f);
        emu.advance(ticks);
        count(&mut emu, n)
    };
    assert_eq!(run(5, &[("threshold", 4)], 10), 10, "5 > 4 every tick");
    assert_eq!(run(5, &[("threshold", 5)], 10), 0, "5 > 5 never");
    assert_eq!(
        run(5, &[("threshold", 5), ("complement", 1)], 10),
        10,
        "5 <= 5"
    );
    assert_eq!(run(6, &[("threshold", 5), ("complement", 1)], 10), 0);
    assert_eq!(run(0, &[("threshold", 0), ("complement", 1)], 7), 7);
    assert_eq!(
        run(5, &[("threshold", 4), ("edge", 1)], 10),
        1,
        "one rising edge"
    );
    // Without compare the threshold is ignored.
    let mut emu = p4_emu(CpuEvents::new().rate(n, 5));
    set_cccr(&mut emu, n, &[("enable", 1), ("threshold", 9)]);
    emu.advance(4);
    assert_eq!(count(&mut emu, n), 20);
    // Edges over a changing event rate.
    let mut emu = p4_emu(CpuEvents::new().rate(n, 3));
    set_cccr(
        &mut emu,
        n,
        &[("enable", 1), ("compare", 1), ("threshold", 2), ("edge", 1)],
    );
    let mut level = p4_emu(CpuEvents::new().rate(n, 3));
    set_cccr(
        &mut level,
        n,
        &[("enable", 1), ("compare", 1), ("threshold", 2)],
    );
    for (rate, ticks) in [(3, 3), (1, 2), (4, 1), (2, 4), (9, 2)] {
        for e in [&mut emu, &mut level] {
            e.unit_mut::<P4Unit>()
                .set_events(CpuEvents::new().rate(n, rate));
            e.advance(ticks);
        }
    }
    assert_eq!(
        count(&mut emu, n),
        3,
        "rising edges at the 3, 4 and 9 phases"
    );
    assert_eq!(
        count(&mut level, n),
        3 + 1 + 2,
        "ticks with more than 2 events"
    );
}

#[test]
fn p4_determinism_and_bulk_equals_stepwise() {
    let setup = || {
        let mut emu = p4_emu(
            CpuEvents::new()
                .rate(0, 3)
                .rate(2, 5)
                .rate(12, 11)
                .rate(14, 1),
        );
        preset(&mut emu, 0, 1000);
        preset(&mut emu, 2, 777);
        preset(&mut emu, 12, 5000);
        set_cccr(&mut emu, 2, &[("cascade", 1), ("ovf_pmi", 1)]);
        set_cccr(&mut emu, 0, &[("enable", 1), ("ovf_pmi", 1)]);
        set_cccr(&mut emu, 12, &[("enable", 1)]);
        set_cccr(&mut emu, 14, &[("cascade", 1)]);
        emu
    };
    let (mut bulk, mut step) = bulk_and_step(setup, 3000);
    for n in 0..18 {
        assert_eq!(count(&mut bulk, n), count(&mut step, n), "counter {n}");
    }
    assert_eq!(
        bulk.unit::<P4Unit>().interrupts(),
        step.unit::<P4Unit>().interrupts()
    );
    assert!(!bulk.unit::<P4Unit>().interrupts().is_empty());
    let mut again = setup();
    again.advance(3000);
    assert_eq!(again.trace(), {
        let mut b = setup();
        b.advance(3000);
        b.take_trace()
    });
}

// ------------------------------------------------------------------ R2PCIe

fn r2(name: &str) -> &'static RegisterInfo {
    reg(IVT, name)
}

/// The uncore model with the default configuration, counting `events`.
fn uncore(events: UncoreEvents) -> Emulator {
    uncore_with(UncoreConfig::default(), events)
}

fn uncore_with(cfg: UncoreConfig, events: UncoreEvents) -> Emulator {
    let mut emu = Emulator::builder(IVT, Sku::default())
        .with::<UncoreUnit>(cfg)
        .build();
    emu.unit_mut::<UncoreUnit>().set_events(events);
    emu
}

fn set_ctl(emu: &mut Emulator, n: usize, fields: &[(&str, u64)]) {
    let r = r2(&format!("R2_PCI_PMON_CTL{n}"));
    Bus::<Pci>::write32(emu, r.address, val(r, fields) as u32);
}

/// Read CTRn as PCI config dwords: low at the address, high at + 4.
fn ctr(emu: &mut Emulator, n: usize) -> u64 {
    let a = r2(&format!("R2_PCI_PMON_CTR{n}")).address;
    let lo = Bus::<Pci>::read32(emu, a);
    let hi = Bus::<Pci>::read32(emu, a + 4);
    u64::from(lo) | u64::from(hi) << 32
}

fn load_ctr(emu: &mut Emulator, n: usize, v: u64) {
    let a = r2(&format!("R2_PCI_PMON_CTR{n}")).address;
    Bus::<Pci>::write32(emu, a, v as u32);
    Bus::<Pci>::write32(emu, a + 4, (v >> 32) as u32);
}

fn box_ov(emu: &mut Emulator) -> u64 {
    let r = r2("R2_PCI_PMON_BOX_STATUS");
    let v = u64::from(Bus::<Pci>::read32(emu, r.address));
    field(r, "ov", v)
}

fn ov_rp(emu: &mut Emulator) -> u64 {
    let r = r2("U_MSR_PMON_GLOBAL_STATUS");
    let v = Bus::<Msr>::read64(emu, r.address);
    field(r, "ov_rp", v)
}

fn global_ctl(emu: &mut Emulator, fields: &[(&str, u64)]) {
    let r = r2("U_MSR_PMON_GLOBAL_CTL");
    Bus::<Msr>::write64(emu, r.address, val(r, fields));
}

#[test]
fn r2_plain_counting() {
    let mut emu = uncore(
        UncoreEvents::new()
            .per_cycle(0, 3)
            .per_cycle(1, [0, 3, 0, 1])
            .per_cycle(2, 5),
    );
    set_ctl(&mut emu, 0, &[("en", 1)]);
    set_ctl(&mut emu, 1, &[("en", 1)]);
    emu.advance(10);
    assert_eq!(ctr(&mut emu, 0), 30);
    assert_eq!(ctr(&mut emu, 1), 4 + 4 + 3, "two periods plus [0, 3]");
    assert_eq!(ctr(&mut emu, 2), 0, "not enabled");
    set_ctl(&mut emu, 0, &[]);
    emu.advance(10);
    assert_eq!(ctr(&mut emu, 0), 30);
    // Counting crosses into the high dword.
    load_ctr(&mut emu, 2, 0xFFFF_FFF0);
    set_ctl(&mut emu, 2, &[("en", 1)]);
    emu.advance(4);
    assert_eq!(ctr(&mut emu, 2), 0x1_0000_0004);
}

#[test]
fn r2_threshold_counts_cycles() {
    let mut emu = uncore(
        UncoreEvents::new()
            .per_cycle(0, [0, 3, 0, 1, 2])
            .per_cycle(1, 4),
    );
    set_ctl(&mut emu, 0, &[("en", 1), ("thresh", 2)]);
    set_ctl(&mut emu, 1, &[("en", 1), ("thresh", 5)]);
    emu.advance(10);
    assert_eq!(ctr(&mut emu, 0), 4, "cycles with at least 2 events");
    assert_eq!(ctr(&mut emu, 1), 0, "4 < 5");
    set_ctl(&mut emu, 1, &[("en", 1), ("thresh", 4)]);
    emu.advance(10);
    assert_eq!(ctr(&mut emu, 1), 10, "4 >= 4 every cycle");
}

#[test]
fn r2_edge_detect_with_threshold() {
    let mut emu = uncore(
        UncoreEvents::new()
            .per_cycle(0, [0, 1, 1, 0, 2, 0])
            .per_cycle(1, [0, 1, 1, 0, 2, 0])
            .per_cycle(2, 1),
    );
    set_ctl(&mut emu, 0, &[("en", 1), ("thresh", 1), ("edge_det", 1)]);
    set_ctl(&mut emu, 1, &[("en", 1), ("thresh", 2), ("edge_det", 1)]);
    set_ctl(&mut emu, 2, &[("en", 1), ("thresh", 1), ("edge_det", 1)]);
    emu.advance(12);
    assert_eq!(ctr(&mut emu, 0), 4, "two rising edges per period");
    assert_eq!(ctr(&mut emu, 1), 2, "one cycle with >= 2 per period");
    assert_eq!(ctr(&mut emu, 2), 1, "constant: one edge");
}

#[test]
fn r2_44_bit_overflow_sets_ov_and_ov_rp() {
    let mut emu = uncore(UncoreEvents::new().per_cycle(0, 1).per_cycle(1, 1));
    load_ctr(&mut emu, 0, M44 - 1);
    set_ctl(&mut emu, 0, &[("en", 1)]);
    emu.advance(1);
    assert_eq!(ctr(&mut emu, 0), M44);
    assert_eq!(box_ov(&mut emu), 0);
    emu.advance(1);
    assert_eq!(ctr(&mut emu, 0), 0, "carry out of bit 43 wraps");
    assert_eq!(box_ov(&mut emu), 0b01);
    assert_eq!(ov_rp(&mut emu), 0, "no ov_en: no message to the UBox");
    assert!(emu.unit::<UncoreUnit>().freeze_at().is_none());
    load_ctr(&mut emu, 1, M44);
    set_ctl(&mut emu, 1, &[("en", 1), ("ov_en", 1)]);
    emu.advance(1);
    assert_eq!(box_ov(&mut emu), 0b11);
    assert_eq!(ov_rp(&mut emu), 1);
    assert_eq!(emu.unit::<UncoreUnit>().freeze_at(), Some(3 + 10));
}

#[test]
fn r2_freeze_after_n_events() {
    for (delay, rate, n) in [(10u64, 1u64, 100u64), (0, 1, 5), (7, 3, 100), (1, 2, 1)] {
        let mut emu = uncore_with(
            UncoreConfig {
                freeze_delay: delay,
            },
            UncoreEvents::new().per_cycle(0, rate).per_cycle(1, 1),
        );
        load_ctr(&mut emu, 0, (1 << 44) - n);
        set_ctl(&mut emu, 0, &[("en", 1), ("ov_en", 1)]);
        set_ctl(&mut emu, 1, &[("en", 1)]);
        let t_ovf = n.div_ceil(rate);
        emu.advance(t_ovf);
        let after = t_ovf * rate - n;
        assert_eq!(ctr(&mut emu, 0), after, "wrapped at tick {t_ovf}");
        assert_eq!(box_ov(&mut emu), 1);
        assert_eq!(ov_rp(&mut emu), 1);
        assert_eq!(emu.unit::<UncoreUnit>().frozen(), delay == 0);
        emu.advance(delay);
        assert_eq!(
            ctr(&mut emu, 0),
            after + delay * rate,
            "keeps counting for freeze_delay cycles"
        );
        assert!(emu.unit::<UncoreUnit>().frozen());
        emu.advance(50);
        assert_eq!(ctr(&mut emu, 0), after + delay * rate, "frozen");
        assert_eq!(ctr(&mut emu, 1), t_ovf + delay, "the freeze is global");
    }
}

#[test]
fn r2_reset_bits_clear() {
    let mut emu = uncore(UncoreEvents::new().per_cycle(0, 2).per_cycle(1, 3));
    set_ctl(&mut emu, 0, &[("en", 1)]);
    set_ctl(&mut emu, 1, &[("en", 1), ("ev_sel", 0x11)]);
    emu.advance(5);
    assert_eq!(ctr(&mut emu, 0), 10);
    set_ctl(&mut emu, 0, &[("en", 1), ("rst", 1)]);
    assert_eq!(ctr(&mut emu, 0), 0, "rst clears the counter");
    assert_eq!(ctr(&mut emu, 1), 15, "only its own");
    let ctl0 = r2("R2_PCI_PMON_CTL0");
    let v = Bus::<Pci>::read32(&mut emu, ctl0.address);
    assert_eq!(field(ctl0, "rst", u64::from(v)), 0, "WO reads 0");
    assert_eq!(field(ctl0, "en", u64::from(v)), 1);
    emu.advance(1);
    assert_eq!(ctr(&mut emu, 0), 2, "still enabled");
    let b = r2("R2_PCI_PMON_BOX_CTL");
    Bus::<Pci>::write32(&mut emu, b.address, val(b, &[("rst_ctrs", 1)]) as u32);
    assert_eq!((ctr(&mut emu, 0), ctr(&mut emu, 1)), (0, 0));
    emu.advance(1);
    assert_eq!((ctr(&mut emu, 0), ctr(&mut emu, 1)), (2, 3));
    Bus::<Pci>::write32(&mut emu, b.address, val(b, &[("rst_ctrl", 1)]) as u32);
    let c1 = r2("R2_PCI_PMON_CTL1").address;
    assert_eq!(Bus::<Pci>::read32(&mut emu, c1), 0, "controls reset");
    emu.advance(3);
    assert_eq!((ctr(&mut emu, 0), ctr(&mut emu, 1)), (2, 3), "disabled");
    // Box freeze.
    set_ctl(&mut emu, 0, &[("en", 1)]);
    Bus::<Pci>::write32(&mut emu, b.address, val(b, &[("frz", 1)]) as u32);
    emu.advance(3);
    assert_eq!(ctr(&mut emu, 0), 2, "box frozen");
    Bus::<Pci>::write32(&mut emu, b.address, 0);
    emu.advance(3);
    assert_eq!(ctr(&mut emu, 0), 8);
}

#[test]
fn r2_ov_is_rw1c() {
    let mut emu = uncore(UncoreEvents::new().per_cycle(0, 1).per_cycle(2, 1));
    for n in [0, 2] {
        load_ctr(&mut emu, n, M44);
        set_ctl(&mut emu, n, &[("en", 1), ("ov_en", 1)]);
    }
    emu.advance(1);
    assert_eq!(box_ov(&mut emu), 0b101);
    let s = r2("R2_PCI_PMON_BOX_STATUS").address;
    Bus::<Pci>::write32(&mut emu, s, 0);
    assert_eq!(box_ov(&mut emu), 0b101, "writing 0 leaves it");
    Bus::<Pci>::write32(&mut emu, s, 0b100);
    assert_eq!(box_ov(&mut emu), 0b001, "a written 1 clears that bit only");
    let g = r2("U_MSR_PMON_GLOBAL_STATUS");
    Bus::<Msr>::write64(&mut emu, g.address, val(g, &[("ov_rp", 1)]));
    assert_eq!(ov_rp(&mut emu), 0);
}

#[test]
fn r2_unfreeze_resumes_and_frz_all_stops() {
    let mut emu = uncore_with(
        UncoreConfig { freeze_delay: 2 },
        UncoreEvents::new().per_cycle(0, 1),
    );
    load_ctr(&mut emu, 0, M44 - 4);
    set_ctl(&mut emu, 0, &[("en", 1), ("ov_en", 1)]);
    emu.advance(20);
    assert!(emu.unit::<UncoreUnit>().frozen());
    assert_eq!(ctr(&mut emu, 0), 2);
    // Re-arm: rst_ctrs, clear ov, reload, unfrz_all.
    let b = r2("R2_PCI_PMON_BOX_CTL");
    Bus::<Pci>::write32(&mut emu, b.address, val(b, &[("rst_ctrs", 1)]) as u32);
    Bus::<Pci>::write32(&mut emu, r2("R2_PCI_PMON_BOX_STATUS").address, 0xF);
    assert_eq!(box_ov(&mut emu), 0);
    load_ctr(&mut emu, 0, M44 - 9);
    global_ctl(&mut emu, &[("unfrz_all", 1)]);
    assert!(!emu.unit::<UncoreUnit>().frozen());
    emu.advance(5);
    assert_eq!(ctr(&mut emu, 0), M44 - 4, "counting again");
    global_ctl(&mut emu, &[("frz_all", 1)]);
    assert!(emu.unit::<UncoreUnit>().frozen());
    emu.advance(5);
    assert_eq!(ctr(&mut emu, 0), M44 - 4, "frz_all stops");
    let g = r2("U_MSR_PMON_GLOBAL_CTL");
    assert_eq!(Bus::<Msr>::read64(&mut emu, g.address), 0, "WO bits read 0");
    global_ctl(&mut emu, &[("unfrz_all", 1)]);
    emu.advance(5); // ticks 31..35: the 5th event overflows
    assert_eq!(ctr(&mut emu, 0), 0, "second overflow");
    assert_eq!(emu.unit::<UncoreUnit>().freeze_at(), Some(35 + 2));
    emu.advance(10);
    assert_eq!(ctr(&mut emu, 0), 2);
    assert!(emu.unit::<UncoreUnit>().frozen());
}

#[test]
fn r2_determinism_and_bulk_equals_stepwise() {
    let setup = || {
        let mut emu = uncore_with(
            UncoreConfig { freeze_delay: 13 },
            UncoreEvents::new()
                .per_cycle(0, 7)
                .per_cycle(1, [1, 0, 2])
                .per_cycle(2, 3)
                .per_cycle(3, 1),
        );
        load_ctr(&mut emu, 0, M44 - 5000);
        set_ctl(&mut emu, 0, &[("en", 1), ("ov_en", 1)]);
        set_ctl(&mut emu, 1, &[("en", 1), ("thresh", 1), ("edge_det", 1)]);
        set_ctl(&mut emu, 2, &[("en", 1), ("thresh", 2)]);
        set_ctl(&mut emu, 3, &[("en", 1)]);
        emu
    };
    let (mut bulk, mut step) = bulk_and_step(setup, 2000);
    for n in 0..4 {
        assert_eq!(ctr(&mut bulk, n), ctr(&mut step, n), "counter {n}");
    }
    assert!(bulk.unit::<UncoreUnit>().frozen());
    assert_eq!(
        bulk.unit::<UncoreUnit>().frozen(),
        step.unit::<UncoreUnit>().frozen()
    );
    let mut a = setup();
    let mut b = setup();
    a.advance(777);
    b.advance(777);
    for n in 0..4 {
        assert_eq!(ctr(&mut a, n), ctr(&mut b, n));
    }
    assert_eq!(a.trace(), b.trace());
    // A huge advance with constant patterns is bulk, not per cycle.
    let mut emu = uncore(UncoreEvents::new().per_cycle(0, 1));
    set_ctl(&mut emu, 0, &[("en", 1)]);
    emu.advance(1 << 43);
    assert_eq!(ctr(&mut emu, 0), 1 << 43);
}

// ------------------------------------------------------------------ random

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
}

fn random_ops(p: &'static ProjectInfo, seed: u64, mut emu: Emulator) -> Emulator {
    let mut rng = Lcg(seed);
    let addrs: Vec<u64> = p.registers.iter().map(|r| r.address).collect();
    for _ in 0..3000 {
        let a = addrs[(rng.next() as usize) % addrs.len()];
        match rng.next() % 8 {
            0..=2 => Bus::<Msr>::write64(&mut emu, a, rng.next() ^ rng.next() << 40),
            3 => Bus::<Pci>::write32(
                &mut emu,
                a.wrapping_add(rng.next() % 3 * 4),
                rng.next() as u32,
            ),
            4 => {
                let _ = Bus::<Pci>::read64(&mut emu, a);
            }
            5 => {
                emu.poke(a, rng.next());
            }
            6 => emu.advance(rng.next() % 64),
            _ => {
                let r = rng.next();
                emu.unit_mut::<P4Unit>().set_events(
                    CpuEvents::new()
                        .rate((r % 20) as usize, r >> 40)
                        .rate(((r >> 8) % 18) as usize, (r >> 16) % 5),
                );
                emu.unit_mut::<UncoreUnit>().set_events(
                    UncoreEvents::new()
                        .per_cycle((r % 5) as usize, r >> 20)
                        .per_cycle(((r >> 4) % 4) as usize, vec![r % 3, 0, r >> 50])
                        .per_cycle(((r >> 6) % 4) as usize, Vec::new()),
                );
            }
        }
    }
    emu
}

#[test]
fn random_ops_never_panic_and_are_deterministic() {
    for seed in 1..4u64 {
        let mk = || {
            Emulator::builder(P4, Sku::default())
                .with::<P4Unit>(CpuEvents::new())
                .build()
        };
        let a = random_ops(P4, seed, mk());
        let b = random_ops(P4, seed, mk());
        assert_eq!(a.trace(), b.trace());
        assert_eq!(
            a.unit::<P4Unit>().interrupts(),
            b.unit::<P4Unit>().interrupts()
        );
        let mk = || {
            let mut e = Emulator::builder(IVT, Sku::default())
                .with::<UncoreUnit>(UncoreConfig { freeze_delay: seed })
                .build();
            e.unit_mut::<P4Unit>().enable(CpuEvents::new()); // no P4 registers: no-op
            e
        };
        let a = random_ops(IVT, seed, mk());
        let b = random_ops(IVT, seed, mk());
        assert_eq!(a.trace(), b.trace());
        // Both models on a project with neither.
        let mut e = Emulator::builder(&hal::hsw::PROJECT, Sku::default())
            .with::<UncoreUnit>(UncoreConfig::default())
            .build();
        e.unit_mut::<P4Unit>().enable(CpuEvents::new().rate(0, 1));
        e.advance(1000);
        assert!(e.unit::<P4Unit>().interrupts().is_empty());
    }
}

/// Two emulators from `setup`: one advanced `ticks` at once, one tick by
/// tick (the bulk path and the stepped path must agree).
fn bulk_and_step(setup: impl Fn() -> Emulator, ticks: u64) -> (Emulator, Emulator) {
    let mut bulk = setup();
    bulk.advance(ticks);
    let mut step = setup();
    for _ in 0..ticks {
        step.advance(1);
    }
    (bulk, step)
}
