//! Reports to counters: pairs across the 32-bit timestamp and 40-bit A
//! wraps, interval boundaries (N pairs, time windows), losses ending the
//! pairing, and TestOa's counters from accumulated emulated reports giving
//! IGT's ratios.

use core::num::{NonZeroU32, NonZeroU64};
use hal::config::AwakeAny;
use hal::meta::CounterSlot;
use hal::oa_buffer::{InvalidPair, Unwritten};
use hal::report::{Report, ReportFormat};
use hal::tgl::reports::A32u40A4u32B8C8 as Tgl;
use hal::{bdw, Device, Project, Unbranded};
use perfregs_emu::{test_support, Emulator, OaConfig, OaUnit, Sku};
use perfregs_metrics::intervals::{Interval, Intervals, InvalidPairs, Pairs, Window};
use perfregs_metrics::rt::program;
use perfregs_metrics::{DeviceInfo, Reads, Sample, SetInfo, Value};
use perfregs_testkit::check_test_oa_ratios;

/// A report of TGL's A32u40_A4u32_B8_C8 built by hand.
#[derive(Clone)]
struct R(Vec<u8>);

impl R {
    fn new() -> Self {
        R(vec![0; Tgl::INFO.size])
    }
    fn put(mut self, slot: Option<CounterSlot>, v: u64) -> Self {
        let s = slot.expect("the format has the counter");
        let at = s.offset as usize;
        self.0[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
        if let Some(h) = s.high_byte_offset {
            self.0[h as usize] = (v >> 32) as u8;
        } else {
            assert!(v >> 32 == 0, "{} is 32 bits", s.name);
        }
        self
    }
    fn ts(self, t: u64) -> Self {
        self.put(Tgl::TIME_STAMP, t)
    }
    fn a(self, n: usize, v: u64) -> Self {
        self.put(Tgl::A[n], v)
    }
    fn b(self, n: usize, v: u64) -> Self {
        self.put(Tgl::B[n], v)
    }
    fn c(self, n: usize, v: u64) -> Self {
        self.put(Tgl::C[n], v)
    }
    fn view(&self) -> Report<'_, Tgl> {
        Report::new(&self.0).expect("a whole report")
    }
}

#[test]
fn pairs_cross_the_timestamp_and_counter_wraps() {
    let r0 = R::new()
        .put(Tgl::RPT_ID, 0x1)
        .ts(0xFFFF_FF00)
        .put(Tgl::CTX_ID, 7)
        .put(Tgl::GPU_TICKS, 0xFFFF_FFFE)
        .a(0, (1 << 40) - 10)
        .a(31, 0xFFFF_FFFF)
        .a(35, 0xFFFF_FFF0)
        .b(0, 0xFFFF_FFFF)
        .c(7, 5);
    let r1 = R::new()
        .put(Tgl::RPT_ID, 0x8_0000)
        .ts(0x100)
        .put(Tgl::CTX_ID, 8)
        .put(Tgl::GPU_TICKS, 3)
        .a(0, 5)
        .a(31, 0x1_0000_0000)
        .a(35, 0x10)
        .b(0, 1)
        .c(7, 9);
    let mut p = Pairs::<Tgl>::new();
    assert!(p.push(&r0.view()).is_none(), "the first report has no pair");
    let pair = p.push(&r1.view()).expect("a pair");
    let d = pair.delta;
    assert_eq!(d.timestamp, Some(0x200), "32-bit timestamp wrap");
    assert_eq!(d.gpu_ticks, Some(5));
    assert_eq!(d.a(0), Some(15), "40-bit A wrap");
    assert_eq!(d.a(31), Some(1), "40-bit A carry into the high byte");
    assert_eq!(d.a(35), Some(0x20), "32-bit A wrap");
    assert_eq!(d.b(0), Some(2), "32-bit B wrap");
    assert_eq!(d.c(7), Some(4));
    assert_eq!(
        (pair.rpt_id, pair.ctx_id, pair.prev_ctx_id),
        (Some(0x8_0000), Some(8), Some(7))
    );
    // Into a sample: what the counters read.
    let s = Sample::from_delta(&d);
    assert_eq!(
        (s.gpu_time, s.gpu_clock, s.a(0), s.b(0)),
        (Some(0x200), Some(5), Some(15), Some(2))
    );
    // A 40-bit counter going "backwards" by a little is a near-full wrap, not a negative.
    let r2 = r1.clone().a(0, 4);
    assert_eq!(p.push(&r2.view()).unwrap().delta.a(0), Some((1 << 40) - 1));
}

/// Reports at timestamps `ts` (raw, 32-bit), A0 counting 3 per tick.
fn timed(ts: &[u64]) -> Vec<R> {
    let mut at = 0u64;
    let mut prev = ts[0];
    ts.iter()
        .map(|&t| {
            at += (t.wrapping_sub(prev)) & 0xFFFF_FFFF;
            prev = t;
            R::new()
                .ts(t)
                .a(0, (3 * at) & 0xFF_FFFF_FFFF)
                .b(1, at & 0xFFFF_FFFF)
        })
        .collect()
}

fn run(iv: &mut Intervals<Tgl>, reports: &[R]) -> Vec<Interval> {
    let mut out: Vec<_> = reports.iter().filter_map(|r| iv.push(&r.view())).collect();
    out.extend(iv.finish());
    out
}

#[test]
fn every_n_pairs_across_a_timestamp_wrap() {
    // Ten reports 100 ticks apart, the timestamp wrapping after the fourth.
    let ts: Vec<u64> = (0..10u64)
        .map(|k| (0xFFFF_FEC0 + 100 * k) & 0xFFFF_FFFF)
        .collect();
    assert!(ts[4] < ts[3]);
    let mut iv = Intervals::new(Window::Pairs(NonZeroU32::new(3).unwrap()));
    let out = run(&mut iv, &timed(&ts));
    // Pairs 0-1,1-2,2-3 | 3-4,4-5,5-6 | 6-7,7-8,8-9 and nothing left.
    assert_eq!(out.len(), 3);
    for (k, i) in out.iter().enumerate() {
        assert_eq!(i.index, k as u64);
        assert_eq!(i.pairs, 3);
        assert_eq!(
            (i.start, i.end),
            (Some(300 * k as u64), Some(300 * k as u64 + 300))
        );
        assert_eq!(i.sample.gpu_time, Some(300));
        assert_eq!(i.sample.a(0), Some(900));
        assert_eq!(i.sample.b(1), Some(300));
        assert!(!i.has_loss());
    }
    // One more report: a partial interval of one pair at finish.
    let mut iv = Intervals::new(Window::Pairs(NonZeroU32::new(3).unwrap()));
    let out = run(&mut iv, &timed(&ts[..8]));
    assert_eq!(out.iter().map(|i| i.pairs).collect::<Vec<_>>(), [3, 3, 1]);
    assert_eq!(out[2].start, Some(600));
    assert_eq!(out[2].end, Some(700));
}

#[test]
fn time_windows_close_at_the_first_report_past_their_end() {
    // Reports at 0, 40, 90, 120, 260, 270, 420 ticks; windows of 100 (the
    // raw timestamps from 1000: a zero one is an unwritten report).
    let ts = [0, 40, 90, 120, 260, 270, 420].map(|t| t + 1000);
    let mut iv = Intervals::new(Window::Ticks(NonZeroU64::new(100).unwrap()));
    let out = run(&mut iv, &timed(&ts));
    let spans: Vec<_> = out
        .iter()
        .map(|i| {
            (
                i.start.unwrap(),
                i.end.unwrap(),
                i.pairs,
                i.sample.gpu_time.unwrap(),
            )
        })
        .collect();
    // 120 closes [0,100); 260 closes [100,200) (the window [200,300) is
    // next); 420 closes [200,300) and skips [300,400), which no report ends.
    assert_eq!(
        spans,
        [(0, 120, 3, 120), (120, 260, 1, 140), (260, 420, 2, 160)]
    );
    for i in &out {
        assert_eq!(i.sample.a(0), Some(3 * i.sample.gpu_time.unwrap()));
    }
    assert_eq!(
        Window::millis(10, 19_200_000),
        NonZeroU64::new(192_000).map(Window::Ticks)
    );
    assert_eq!(Window::millis(0, 19_200_000), None);
}

#[test]
fn a_loss_ends_the_pairing_and_is_recorded() {
    let rs = timed(&[1000, 1100, 1200, 1300, 1400, 1500]);
    let mut iv = Intervals::new(Window::Pairs(NonZeroU32::new(2).unwrap()));
    let mut out = Vec::new();
    out.extend(iv.push(&rs[0].view()));
    out.extend(iv.push(&rs[1].view()));
    iv.report_lost();
    // r2 is not paired with r1: corrupt r2's counters to show they are unused.
    let r2 = rs[2].clone().a(0, 0xDEAD).b(1, 0xBEEF);
    out.extend(iv.push(&r2.view()));
    iv.buffer_lost();
    iv.buffer_lost();
    out.extend(iv.push(&rs[3].view()));
    out.extend(iv.push(&rs[4].view()));
    out.extend(iv.push(&rs[5].view()));
    out.extend(iv.finish());
    // Pairs: 0-1 | (loss) | (loss) 3-4 | 4-5.
    assert_eq!(out.len(), 2);
    let (a, b) = (&out[0], &out[1]);
    assert_eq!((a.pairs, a.reports_lost, a.buffers_lost), (2, 1, 2));
    assert!(a.has_loss());
    assert_eq!(a.sample.gpu_time, Some(200), "0-1 and 3-4, not 1-2 or 2-3");
    assert_eq!(a.sample.a(0), Some(600));
    assert_eq!(a.sample.b(1), Some(200));
    // The time axis goes on across the losses.
    assert_eq!((a.start, a.end), (Some(0), Some(400)));
    assert_eq!(
        (b.pairs, b.start, b.end, b.has_loss()),
        (1, Some(400), Some(500), false)
    );

    // A loss alone in the last interval is not dropped.
    let mut iv = Intervals::<Tgl>::new(Window::Pairs(NonZeroU32::new(1).unwrap()));
    assert!(iv.push(&rs[0].view()).is_none());
    assert!(iv.push(&rs[1].view()).is_some());
    iv.report_lost();
    let last = iv.finish().expect("the loss is reported");
    assert_eq!(
        (last.pairs, last.reports_lost, last.sample),
        (0, 1, Sample::EMPTY)
    );
    assert!(iv.finish().is_none());
}

/// Reports 100 ticks apart from raw 1000 (A0 3 a tick, B1 1, GPU_TICKS 8)
/// with unwritten, stale and impossible-clock reports between them; and
/// the valid reports alone.
fn with_invalid_reports() -> (Vec<R>, Vec<R>) {
    let rs: Vec<R> = timed(&(0..12).map(|k| 1000 + 100 * k).collect::<Vec<_>>())
        .into_iter()
        .enumerate()
        .map(|(k, r)| r.put(Tgl::GPU_TICKS, 800 * k as u64))
        .collect();
    let garbage = || R::new().a(0, 0xDEAD).b(1, 0xBEEF);
    let reports = vec![
        rs[0].clone(),
        rs[1].clone(),
        R::new(),                                            // never written: 1-z invalid
        R::new(),                                            // z-z invalid
        garbage().ts(0),                                     // a zero timestamp: z-z0 invalid
        rs[5].clone(),                                       // z0-5 invalid; 5 starts a new pairing
        rs[6].clone(),                                       // 5-6 valid
        rs[3].clone().a(0, 0xDEAD),                          // stale, back 300 ticks: dropped
        rs[7].clone(),                                       // not paired with the stale report
        rs[8].clone(),                                       // 7-8 valid
        garbage().ts(1850).put(Tgl::GPU_TICKS, 0xFFFF_0000), // impossible clock: dropped
        rs[9].clone(),                                       // not paired
        rs[10].clone(),                                      // 9-10 valid
    ];
    (reports, rs)
}

#[test]
fn invalid_pairs_end_the_pairing_are_counted_and_never_enter_a_counter() {
    let (reports, rs) = with_invalid_reports();
    let mut iv = Intervals::<Tgl>::new(Window::Pairs(NonZeroU32::new(100).unwrap()));
    let out = run(&mut iv, &reports);
    assert_eq!(out.len(), 1, "{out:?}");
    let i = &out[0];
    // Valid: 0-1, 5-6, 7-8, 9-10; invalid: 4 unwritten, 1 backward, 1 clock.
    assert_eq!(i.pairs, 4);
    let mut only_a0 = Reads::NONE;
    only_a0.a = 1;
    let mut read =
        Intervals::<Tgl>::new(Window::Pairs(NonZeroU32::new(100).unwrap())).reading(only_a0);
    let r = run(&mut read, &reports);
    assert_eq!(r.len(), 1);
    assert_eq!(
        (r[0].pairs, r[0].invalid, r[0].start, r[0].end),
        (i.pairs, i.invalid, i.start, i.end)
    );
    assert_eq!((r[0].sample.a(0), r[0].sample.gpu_time), (Some(1200), None));
    assert_eq!(
        i.invalid,
        InvalidPairs {
            unwritten: 4,
            backward: 1,
            clock: 1
        }
    );
    assert_eq!(i.invalid.total(), 6);
    assert!(i.has_invalid() && !i.has_loss());
    // Only the valid pairs' increments: 4 pairs of 100 ticks.
    assert_eq!(i.sample.gpu_time, Some(400));
    assert_eq!(i.sample.gpu_clock, Some(3200));
    assert_eq!(i.sample.a(0), Some(1200));
    assert_eq!(i.sample.b(1), Some(400));
    // The time axis skips the unwritten and dropped reports, never going
    // back nor jumping 2^32 ticks: from report 0 to report 10.
    assert_eq!((i.start, i.end), (Some(0), Some(1000)));

    // Pairs alone: why, and the pairing after it.
    let mut p = Pairs::<Tgl>::new();
    assert_eq!(p.push_checked(&rs[0].view()), Ok(None));
    assert!(matches!(p.push_checked(&rs[1].view()), Ok(Some(_))));
    assert_eq!(
        p.push_checked(&rs[0].view()),
        Err(InvalidPair::Backward { ticks: 100 })
    );
    assert!(!p.is_paired(), "the stale report is dropped");
    assert_eq!(p.push(&rs[2].view()), None, "a new pairing");
    assert!(p.push(&rs[3].view()).is_some());
    assert_eq!(
        p.push_checked(&R::new().view()),
        Err(InvalidPair::LaterUnwritten(Unwritten::AllZero))
    );
    assert!(p.is_paired(), "checked against the unwritten report");
    assert_eq!(
        p.push_checked(&rs[4].view()),
        Err(InvalidPair::EarlierUnwritten(Unwritten::AllZero))
    );
    assert!(p.push(&rs[5].view()).is_some(), "4 started a new pairing");

    // Time windows: unwritten reports close none, and every pair is in one.
    let mut iv = Intervals::<Tgl>::new(Window::Ticks(NonZeroU64::new(250).unwrap()));
    let out = run(&mut iv, &reports);
    assert_eq!(out.iter().map(|i| i.pairs).sum::<u32>(), 4);
    assert_eq!(out.iter().map(|i| i.invalid.total()).sum::<u32>(), 6);
    assert!(out.iter().all(|i| i.end.unwrap() <= 1000), "{out:?}");

    // Nothing but unwritten reports: one interval of invalid pairs, no pair.
    let mut iv = Intervals::<Tgl>::new(Window::Pairs(NonZeroU32::new(3).unwrap()));
    let out = run(&mut iv, &vec![R::new(); 5]);
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].pairs, out[0].invalid.unwritten), (0, 4));
    assert_eq!(
        (out[0].start, out[0].end, out[0].sample),
        (None, None, Sample::EMPTY)
    );
}

/// `push_into` pairs as `push_checked` does (the same pairs, the same
/// invalid pairs and drops) and fills the counters read with what
/// `Sample::from_delta` of the pair holds, and only those.
#[test]
fn push_into_pairs_as_push_checked_does_for_the_counters_read() {
    let (reports, _) = with_invalid_reports();
    let mut reads = Reads::NONE;
    reads.gpu_time = true;
    reads.a = 1 << 0;
    reads.b = 1 << 1;
    let (mut whole, mut chosen) = (Pairs::<Tgl>::new(), Pairs::<Tgl>::new());
    let mut s = Sample::EMPTY;
    let mut valid = 0;
    for r in &reports {
        let w = whole.push_checked(&r.view());
        let c = chosen.push_into(&r.view(), &reads, &mut s);
        match (w, c) {
            (Ok(Some(w)), Ok(Some(c))) => {
                valid += 1;
                assert_eq!(c.timestamp, w.delta.timestamp);
                assert_eq!(
                    (c.rpt_id, c.ctx_id, c.prev_ctx_id),
                    (w.rpt_id, w.ctx_id, w.prev_ctx_id)
                );
                let want = Sample::from_delta(&w.delta);
                let mut only = Sample::EMPTY;
                (only.gpu_time, only.a[0], only.b[1]) = (want.gpu_time, want.a[0], want.b[1]);
                assert_eq!(s, only);
                assert_eq!(
                    (s.a(0), s.b(1), s.gpu_time),
                    (Some(300), Some(100), Some(100))
                );
            }
            (w, c) => assert_eq!(w.map(|p| p.is_some()), c.map(|p| p.is_some())),
        }
        assert_eq!(whole.is_paired(), chosen.is_paired());
    }
    assert_eq!(valid, 4, "0-1, 5-6, 7-8, 9-10");
}

#[test]
fn context_and_reason_are_carried() {
    let rs = [
        R::new().ts(10).put(Tgl::CTX_ID, 1).put(Tgl::RPT_ID, 0x10),
        R::new().ts(20).put(Tgl::CTX_ID, 1).put(Tgl::RPT_ID, 0x20),
        R::new().ts(30).put(Tgl::CTX_ID, 2).put(Tgl::RPT_ID, 0x30),
        R::new().ts(40).put(Tgl::CTX_ID, 2).put(Tgl::RPT_ID, 0x40),
    ];
    let mut iv = Intervals::new(Window::Pairs(NonZeroU32::new(3).unwrap()));
    let out = run(&mut iv, &rs);
    assert_eq!(out.len(), 1);
    assert_eq!(
        (out[0].ctx_id, out[0].rpt_id, out[0].ctx_changes),
        (Some(2), Some(0x40), 1)
    );
}

// ---- TestOa on the emulated GPU ----

fn sample_reports<P: Project, F: ReportFormat>(
    gpu: &Device<P, Emulator>,
    set: &SetInfo,
    awake: &[&dyn AwakeAny<Unbranded>],
    d: &DeviceInfo,
    reports: u64,
) -> Vec<Vec<u8>> {
    program(gpu, set, d, awake).unwrap_or_else(|e| panic!("{}: {e}", set.symbol));
    test_support::periodic_reports::<P, F>(gpu, reports)
}

fn value(set: &SetInfo, name: &str, i: &Interval, d: &DeviceInfo) -> u64 {
    match set.counter(name).and_then(|c| i.value(c, d)) {
        Some(Value::U64(v)) => v,
        other => panic!("{name}: {other:?}"),
    }
}

/// TestOa's counters on intervals of `window` give IGT's ratios, and each
/// interval's sample is the sum of its pairs' samples.
fn test_oa_on_intervals<F: ReportFormat>(
    set: &SetInfo,
    d: &DeviceInfo,
    reports: &[Vec<u8>],
    window: Window,
) {
    let mut iv = Intervals::<F>::new(window);
    // Every other counter chosen: intervals of what they read only.
    let chosen: Vec<_> = set.counters.iter().step_by(2).collect();
    let reads = perfregs_metrics::reads_of(chosen.iter().copied());
    let mut read = Intervals::<F>::new(window).reading(reads);
    assert_eq!((iv.reads(), read.reads()), (None, Some(reads)));
    let mut pairs = Pairs::<F>::new();
    let mut by_pair = Vec::new();
    let (mut out, mut out_read) = (Vec::new(), Vec::new());
    for r in reports {
        let r = Report::<F>::new(r).expect("a whole report");
        by_pair.extend(pairs.push(&r).map(|p| Sample::from_delta(&p.delta)));
        out.extend(iv.push(&r));
        out_read.extend(read.push(&r));
    }
    out.extend(iv.finish());
    out_read.extend(read.finish());
    // The same intervals; the chosen counters' values, and nothing else read.
    assert_eq!(out.len(), out_read.len());
    assert!(reads.count() > 0 && reads != Reads::ALL, "{reads:?}");
    for (i, r) in out.iter().zip(&out_read) {
        assert_eq!(
            (i.index, i.pairs, i.start, i.end, i.rpt_id, i.ctx_id),
            (r.index, r.pairs, r.start, r.end, r.rpt_id, r.ctx_id)
        );
        for c in &chosen {
            assert_eq!(i.value(c, d), r.value(c, d), "{}", c.symbol);
            assert!(r.value(c, d).is_some(), "{}", c.symbol);
        }
        for (src, k) in Sample::slots() {
            let want = if reads.contains(src, k) {
                i.sample.read(src, k)
            } else {
                None
            };
            assert_eq!(r.sample.read(src, k), want, "{src:?} {k}");
        }
    }
    assert!(out.len() >= 4, "{} intervals", out.len());
    // Both windows hold 5 pairs of these reports (the last may be partial).
    let (full, last) = out.split_at(out.len() - 1);
    assert!(full.iter().all(|i| i.pairs == 5), "{window:?}: {out:?}");
    assert!(last[0].pairs <= 5);
    let mut pair_at = 0;
    for i in &out {
        let n = i.pairs as usize;
        // The sum of the pairs' samples.
        let mut want = Sample::EMPTY;
        want.gpu_time = Some(
            by_pair[pair_at..pair_at + n]
                .iter()
                .map(|s| s.gpu_time.unwrap())
                .sum(),
        );
        assert_eq!(i.sample.gpu_time, want.gpu_time);
        for k in 0..8 {
            let b: u64 = by_pair[pair_at..pair_at + n]
                .iter()
                .map(|s| s.b(k).unwrap())
                .sum();
            assert_eq!(i.sample.b(k), Some(b), "B{k}");
        }
        pair_at += n;
        // IGT's TestOa ratios (each pair is exact to +-1, so +-n here).
        check_test_oa_ratios("interval", |name| value(set, name, i, d), n as u64);
    }
    assert_eq!(pair_at, by_pair.len(), "every pair in one interval");
}

#[test]
fn bdw_test_oa_intervals_give_igts_ratios() {
    let d = hal::part("bdw", 2).expect("BDW GT2").device;
    let set = &perfregs_metrics::bdw::test_oa::SET;
    let gpu = Device::<hal::Bdw, _>::new(
        Emulator::builder(&bdw::PROJECT, Sku::default())
            .with::<OaUnit>(OaConfig::default())
            .build(),
    );
    let rw = gpu
        .forcewake::<bdw::domains::Render>()
        .expect("render wakes");
    let reports = sample_reports::<_, bdw::reports::A32u40A4u32B8C8>(&gpu, set, &[&rw], &d, 22);
    for window in [
        Window::Pairs(NonZeroU32::new(5).unwrap()),
        // A report every 2^(test_support::PERIOD+1) = 128 ticks: 5 pairs per window.
        Window::Ticks(NonZeroU64::new(640).unwrap()),
    ] {
        test_oa_on_intervals::<bdw::reports::A32u40A4u32B8C8>(set, &d, &reports, window);
    }
}

#[test]
fn tgl_test_oa_intervals_give_igts_ratios() {
    let d = hal::part("tgl", 2).expect("TGL GT2").device;
    let set = &perfregs_metrics::tgl_gt2::test_oa::SET;
    let reports = test_support::tgl_reports(22, |gpu, awake| {
        program(gpu, set, &d, awake).unwrap_or_else(|e| panic!("{}: {e}", set.symbol));
    });
    for window in [
        Window::Pairs(NonZeroU32::new(5).unwrap()),
        Window::Ticks(NonZeroU64::new(640).unwrap()),
    ] {
        test_oa_on_intervals::<Tgl>(set, &d, &reports, window);
    }
}
