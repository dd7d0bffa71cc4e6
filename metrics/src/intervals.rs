//! Reports to counters: consecutive OA reports paired into deltas, the
//! deltas accumulated per interval into a [`Sample`], which a set's
//! counters then compute from (`SET.counters[i].value(&interval.sample,
//! &device)`).
//!
//! - [`Pairs`] pairs each report of format `F` with the one before it
//!   ([`ReportDelta::between`]: the timestamp wraps at 2^32, each counter at
//!   its own width, 40 bits for the split A counters, 32 for B and C), and
//!   carries the later report's reason (RPT_ID) and context id. A loss
//!   (`OA_REPORT_LOST`, `OA_BUFFER_LOST`) ends the pairing: the report after
//!   it is not paired with the one before it.
//! - A pair that [`check_pair`] rejects (a report never written: all zero
//!   or a zero timestamp; a timestamp stepping back; more GPU clocks than
//!   the time between the reports allows) is not data: its increments never
//!   enter a counter, the interval counts it ([`InvalidPairs`]), and it
//!   ends the pairing like a loss. After an unwritten report the next
//!   report is checked against it (a run of unwritten reports gives one
//!   invalid pair per report, and the first written report after it starts
//!   a new pairing); the later report of a backward or impossible-clock
//!   pair (stale memory, most likely) is dropped: the report after it
//!   starts a new pairing, so a stale report never pairs with a later one.
//! - [`Intervals`] accumulates the pairs every N pairs or per time window
//!   (in timestamp ticks) into an [`Interval`]: the summed [`Sample`], the
//!   number of pairs, where it starts and ends on the stream's time axis,
//!   the losses and invalid pairs inside it, the last report reason and
//!   context.
//!
//! The time axis counts ticks from the first written report, extending the
//! 32-bit timestamp by its deltas (at most one wrap between two consecutive
//! reports, about 224 s at 19.2 MHz). It continues across a loss: the
//! timestamps of the reports on both sides still give the time between
//! them; only the counters are not paired. Unwritten and dropped reports
//! are not on it (the time runs from the report before them to the one
//! after), and a step back across a loss does not move it.
//!
//! No allocation: the previous report is kept as an inline copy (formats of
//! at most [`MAX_REPORT_SIZE`] bytes; a larger format does not compile).

use crate::rt::{CounterInfo, DeviceInfo, Reads, Sample, Value};
use core::marker::PhantomData;
use core::num::{NonZeroU32, NonZeroU64};
use hal::oa_buffer::{
    check_pair, check_reports, counter_delta, deltas_into, unwritten, InvalidPair, ReportDelta,
    BACKWARD_TICKS, MAX_REPORT_SIZE, TIMESTAMP_BITS,
};
use hal::report::{Report, ReportFormat};
use perfregs_types::sample::bits;

/// Two consecutive reports of a stream, as counter increments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The increments from the earlier report to the later one.
    pub delta: ReportDelta,
    /// The later report's RPT_ID dword (its reason: timer, context switch,
    /// ...), where the format has one.
    pub rpt_id: Option<u32>,
    /// The later report's context id.
    pub ctx_id: Option<u32>,
    /// The earlier report's context id.
    pub prev_ctx_id: Option<u32>,
}

/// A pair as [`Pairs::push_into`] gives it: [`Pair`] without the
/// increments (they are in the caller's sample).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairInfo {
    /// Timestamp ticks between the two reports (`None`: the format has no
    /// timestamp).
    pub timestamp: Option<u64>,
    /// The later report's RPT_ID dword, where the format has one.
    pub rpt_id: Option<u32>,
    /// The later report's context id.
    pub ctx_id: Option<u32>,
    /// The earlier report's context id.
    pub prev_ctx_id: Option<u32>,
}

/// Pairs each report with the one before it; a loss ends the pairing, and
/// so does an invalid pair ([`check_pair`]).
#[derive(Clone, Copy)]
pub struct Pairs<F> {
    prev: [u8; MAX_REPORT_SIZE],
    has_prev: bool,
    _format: PhantomData<F>,
}

impl<F: ReportFormat> Default for Pairs<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: ReportFormat> Pairs<F> {
    /// Nothing seen yet.
    pub const fn new() -> Self {
        const {
            assert!(
                F::INFO.size <= MAX_REPORT_SIZE,
                "report format too large to pair"
            )
        };
        Pairs {
            prev: [0; MAX_REPORT_SIZE],
            has_prev: false,
            _format: PhantomData,
        }
    }

    /// Take the next report: its pair with the previous report (`None` for
    /// the first report, the first after a loss, and an invalid pair).
    #[inline]
    pub fn push(&mut self, report: &Report<'_, F>) -> Option<Pair> {
        self.push_checked(report).ok().flatten()
    }

    /// Take the next report: `Ok` with its pair with the previous report
    /// (`None` for the first report and the first after a loss), `Err` why
    /// the two are not a valid pair ([`check_pair`]). The report is the
    /// earlier one of the next pair, except after a backward or
    /// impossible-clock pair (it is dropped: the next report is not paired).
    #[inline]
    pub fn push_checked(&mut self, report: &Report<'_, F>) -> Result<Option<Pair>, InvalidPair> {
        self.push_with(report, |prev, report| {
            check_pair(prev, report).map(|delta| Pair {
                delta,
                rpt_id: report.rpt_id(),
                ctx_id: report.ctx_id(),
                prev_ctx_id: prev.ctx_id(),
            })
        })
    }

    /// [`push_checked`](Self::push_checked) for the counters in `reads`
    /// only (a chosen counter's [`CounterInfo::reads`], a live view's
    /// counters): on a valid pair their increments are written into
    /// `sample` ([`deltas_into`]: what [`Sample::from_delta`] of the pair's
    /// [`Pair::delta`] holds for them) and every other counter of `sample`
    /// is left as it is, so a `sample` that starts as [`Sample::EMPTY`]
    /// keeps `None` where nothing is read. Nothing is written on `Ok(None)`
    /// or `Err`. The pairs, losses and invalid pairs are those of
    /// `push_checked`; the cost is that of the counters read, not of the
    /// format's.
    ///
    /// ```
    /// use hal::report::{Report, ReportFormat};
    /// use hal::tgl::reports::A32u40A4u32B8C8 as F;
    /// use perfregs_metrics::{intervals::Pairs, tgl_gt2::render_basic::SET, Sample};
    ///
    /// let busy = SET.counter("GpuBusy").unwrap();
    /// let reads = busy.reads(); // A 0 and GPU_CLOCK 0
    /// assert_eq!((reads.a, reads.gpu_clock, reads.count()), (1, true, 2));
    /// let report = |ts: u32, clock: u32, a0: u32| {
    ///     let mut r = [0u8; 256];
    ///     for (slot, v) in [(F::TIME_STAMP, ts), (F::GPU_TICKS, clock), (F::A[0], a0)] {
    ///         let at = slot.unwrap().offset as usize;
    ///         r[at..at + 4].copy_from_slice(&v.to_le_bytes());
    ///     }
    ///     r
    /// };
    /// let (a, b) = (report(100, 1000, 50), report(200, 3000, 1050));
    /// let mut pairs = Pairs::<F>::new();
    /// let mut s = Sample::EMPTY;
    /// assert_eq!(pairs.push_into(&Report::new(&a).unwrap(), &reads, &mut s), Ok(None));
    /// let p = pairs.push_into(&Report::new(&b).unwrap(), &reads, &mut s).unwrap().unwrap();
    /// assert_eq!(p.timestamp, Some(100));
    /// assert_eq!((s.gpu_clock, s.a(0), s.a(1)), (Some(2000), Some(1000), None));
    /// let d = hal::part("tgl", 2).unwrap().device;
    /// assert_eq!(busy.value(&s, &d), Some(perfregs_metrics::Value::F64(50.0)));
    /// ```
    #[inline]
    pub fn push_into(
        &mut self,
        report: &Report<'_, F>,
        reads: &Reads,
        sample: &mut Sample,
    ) -> Result<Option<PairInfo>, InvalidPair> {
        self.push_with(report, |prev, report| {
            let timestamp = check_reports(prev, report)?;
            deltas_into(prev, report, reads, sample);
            Ok(PairInfo {
                timestamp,
                rpt_id: report.rpt_id(),
                ctx_id: report.ctx_id(),
                prev_ctx_id: prev.ctx_id(),
            })
        })
    }

    /// Pair `report` with the previous report through `pair`, then keep it
    /// as the previous report (unless `pair` drops it).
    #[inline]
    fn push_with<T>(
        &mut self,
        report: &Report<'_, F>,
        pair: impl FnOnce(&Report<'_, F>, &Report<'_, F>) -> Result<T, InvalidPair>,
    ) -> Result<Option<T>, InvalidPair> {
        let size = F::INFO.size;
        let pair = match self.prev.get(..size).filter(|_| self.has_prev) {
            Some(prev) => match Report::<F>::new(prev) {
                Some(prev) => pair(&prev, report).map(Some),
                None => Ok(None),
            },
            None => Ok(None),
        };
        if matches!(pair, Err(e) if e.drops_later()) {
            self.has_prev = false;
            return pair;
        }
        // A `Report<F>` is exactly `size` bytes.
        let bytes = report.bytes();
        let n = bytes.len().min(size);
        self.prev[..n].copy_from_slice(&bytes[..n]);
        self.has_prev = n == size;
        pair
    }

    /// A loss: the next report is not paired with the previous one.
    pub fn lost(&mut self) {
        self.has_prev = false;
    }

    /// Whether the next report will be paired.
    pub fn is_paired(&self) -> bool {
        self.has_prev
    }
}

/// How long an interval is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Every N report pairs.
    Pairs(NonZeroU32),
    /// A time window of this many timestamp ticks: an interval closes at the
    /// first report at or past the window's end (windows are laid from the
    /// first report; windows in which no report ends are skipped, the
    /// next interval spanning them). A format without a timestamp never
    /// closes a window: everything is one interval, given by
    /// [`Intervals::finish`].
    Ticks(NonZeroU64),
}

impl Window {
    /// A window of `ms` milliseconds at a timestamp frequency (`None` when
    /// it is less than one tick).
    pub fn millis(ms: u64, timestamp_hz: u64) -> Option<Self> {
        let ticks = u128::from(ms) * u128::from(timestamp_hz) / 1000;
        NonZeroU64::new(u64::try_from(ticks).ok()?).map(Window::Ticks)
    }
}

/// Counter increments accumulated over consecutive report pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// 0 for the first interval of the stream.
    pub index: u64,
    /// The summed increments of its pairs ([`Sample::EMPTY`] without pairs):
    /// what a set's counters compute from.
    pub sample: Sample,
    /// Report pairs summed.
    pub pairs: u32,
    /// Ticks from the stream's first report to the interval's first report
    /// (`None`: the format has no timestamp).
    pub start: Option<u64>,
    /// Ticks from the stream's first report to the interval's last report.
    pub end: Option<u64>,
    /// `OA_REPORT_LOST` events inside the interval.
    pub reports_lost: u32,
    /// `OA_BUFFER_LOST` events inside the interval.
    pub buffers_lost: u32,
    /// Report pairs inside the interval that [`check_pair`] rejected: not
    /// in [`sample`](Self::sample) nor in [`pairs`](Self::pairs).
    pub invalid: InvalidPairs,
    /// The RPT_ID of the interval's last paired report.
    pub rpt_id: Option<u32>,
    /// The context id of the interval's last paired report.
    pub ctx_id: Option<u32>,
    /// Pairs whose two reports have different context ids.
    pub ctx_changes: u32,
}

impl Interval {
    const fn empty(index: u64, start: Option<u64>) -> Self {
        Interval {
            index,
            sample: Sample::EMPTY,
            pairs: 0,
            start,
            end: start,
            reports_lost: 0,
            buffers_lost: 0,
            invalid: InvalidPairs::NONE,
            rpt_id: None,
            ctx_id: None,
            ctx_changes: 0,
        }
    }

    /// Whether a loss happened inside the interval (its counters then miss
    /// the lost reports' increments).
    pub fn has_loss(&self) -> bool {
        self.reports_lost + self.buffers_lost > 0
    }

    /// Whether an invalid report pair was left out inside the interval (its
    /// counters then miss that pair's time, like a loss).
    pub fn has_invalid(&self) -> bool {
        self.invalid.total() > 0
    }

    /// Counter `c` of a set on this interval's sample.
    pub fn value(&self, c: &CounterInfo, device: &DeviceInfo) -> Option<Value> {
        c.value(&self.sample, device)
    }

    fn add(&mut self, p: &Pair) {
        self.add_sample(&Sample::from_delta(&p.delta), None);
        self.add_pair(p.rpt_id, p.ctx_id, p.prev_ctx_id);
    }

    /// Add a pair's increments: every counter, or those in `reads` (the
    /// others of `d` are `None`, and so stay those of the interval).
    fn add_sample(&mut self, d: &Sample, reads: Option<&Reads>) {
        fn sum_all(t: &mut [Option<u64>], d: &[Option<u64>]) {
            for (t, v) in t.iter_mut().zip(d) {
                sum(t, *v);
            }
        }
        fn sum_bits(t: &mut [Option<u64>], d: &[Option<u64>], mask: u64) {
            for i in bits(mask) {
                if let (Some(t), Some(v)) = (t.get_mut(i), d.get(i)) {
                    sum(t, *v);
                }
            }
        }
        let s = &mut self.sample;
        if self.pairs == 0 {
            *s = *d;
            return;
        }
        match reads {
            None => {
                sum(&mut s.gpu_time, d.gpu_time);
                sum(&mut s.gpu_clock, d.gpu_clock);
                sum_all(&mut s.a, &d.a);
                sum_all(&mut s.b, &d.b);
                sum_all(&mut s.c, &d.c);
                sum_all(&mut s.pec, &d.pec);
                sum_all(&mut s.mpec, &d.mpec);
            }
            Some(r) => {
                if r.gpu_time {
                    sum(&mut s.gpu_time, d.gpu_time);
                }
                if r.gpu_clock {
                    sum(&mut s.gpu_clock, d.gpu_clock);
                }
                sum_bits(&mut s.a, &d.a, r.a);
                sum_bits(&mut s.b, &d.b, r.b);
                sum_bits(&mut s.c, &d.c, r.c);
                sum_bits(&mut s.pec, &d.pec, r.pec);
                sum_bits(&mut s.mpec, &d.mpec, r.mpec);
            }
        }
    }

    /// Count a pair, and keep its reason and context.
    fn add_pair(&mut self, rpt_id: Option<u32>, ctx_id: Option<u32>, prev_ctx_id: Option<u32>) {
        self.pairs = self.pairs.saturating_add(1);
        self.rpt_id = rpt_id;
        self.ctx_id = ctx_id;
        if ctx_id != prev_ctx_id {
            self.ctx_changes = self.ctx_changes.saturating_add(1);
        }
    }
}

/// Report pairs left out of an interval's counters ([`check_pair`]
/// rejected them), by why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InvalidPairs {
    /// A report of the pair was never written (all zero, or a zero
    /// timestamp).
    pub unwritten: u32,
    /// The timestamp steps back.
    pub backward: u32,
    /// More GPU clocks than the time between the reports allows.
    pub clock: u32,
}

impl InvalidPairs {
    /// None.
    pub const NONE: Self = InvalidPairs {
        unwritten: 0,
        backward: 0,
        clock: 0,
    };

    /// All of them.
    pub fn total(&self) -> u32 {
        self.unwritten
            .saturating_add(self.backward)
            .saturating_add(self.clock)
    }

    /// Count one.
    pub fn add(&mut self, why: InvalidPair) {
        let n = match why {
            InvalidPair::EarlierUnwritten(_) | InvalidPair::LaterUnwritten(_) => {
                &mut self.unwritten
            }
            InvalidPair::Backward { .. } => &mut self.backward,
            InvalidPair::ImpossibleClock { .. } => &mut self.clock,
        };
        *n = n.saturating_add(1);
    }
}

/// A counter summed over pairs: present in every pair (a counter missing
/// from one pair is missing from the sum, never a partial total).
#[inline]
fn sum(total: &mut Option<u64>, v: Option<u64>) {
    *total = match (*total, v) {
        (Some(t), Some(v)) => Some(t.saturating_add(v)),
        _ => None,
    };
}

/// Reports (and losses) of one stream of format `F` in, [`Interval`]s out.
///
/// ```
/// use core::num::NonZeroU32;
/// use hal::bdw::reports::A32u40A4u32B8C8;
/// use hal::report::Report;
/// use perfregs_metrics::intervals::{Intervals, Window};
///
/// let mut iv = Intervals::<A32u40A4u32B8C8>::new(Window::Pairs(NonZeroU32::new(2).unwrap()));
/// let mut out = Vec::new();
/// for t in 1..6u32 {
///     let mut r = [0u8; 256];
///     r[4..8].copy_from_slice(&(t * 100).to_le_bytes()); // TIME_STAMP
///     out.extend(iv.push(&Report::new(&r).unwrap()));
/// }
/// out.extend(iv.finish());
/// assert_eq!(out.len(), 2); // pairs 0-1, 1-2 | 2-3, 3-4
/// assert_eq!((out[1].start, out[1].end, out[1].sample.gpu_time), (Some(200), Some(400), Some(200)));
/// ```
#[derive(Clone, Copy)]
pub struct Intervals<F> {
    window: Window,
    /// Accumulate only these counters ([`Intervals::reading`]).
    reads: Option<Reads>,
    /// The pair's increments of `reads` ([`Pairs::push_into`]).
    scratch: Sample,
    pairs: Pairs<F>,
    current: Interval,
    /// The raw timestamp of the last written report, and its ticks on the
    /// time axis.
    clock: Option<(u64, u64)>,
    /// End of the current time window on the time axis.
    window_end: u64,
}

impl<F: ReportFormat> Intervals<F> {
    /// Intervals of `window`.
    pub const fn new(window: Window) -> Self {
        Intervals {
            window,
            reads: None,
            scratch: Sample::EMPTY,
            pairs: Pairs::new(),
            current: Interval::empty(0, None),
            clock: None,
            window_end: 0,
        }
    }

    /// The window.
    pub fn window(&self) -> Window {
        self.window
    }

    /// Accumulate only the counters in `reads` (the chosen counters'
    /// [`reads_of`](crate::rt::reads_of)): each pair then costs what they
    /// read ([`Pairs::push_into`]), and the intervals' samples hold `None`
    /// for every other counter, so that only counters whose
    /// [`CounterInfo::reads`] are within `reads` compute from them. Pairs,
    /// losses, invalid pairs and times are those without it.
    #[must_use]
    pub fn reading(mut self, reads: Reads) -> Self {
        self.reads = Some(reads);
        self
    }

    /// What the intervals accumulate: `None`, every counter.
    pub fn reads(&self) -> Option<Reads> {
        self.reads
    }

    /// Take the next report; returns the interval it closes, if any.
    #[inline]
    pub fn push(&mut self, report: &Report<'_, F>) -> Option<Interval> {
        // The pair enters the current interval at once; `checked` keeps
        // whether there was one, or why it is invalid.
        let checked = match self.reads {
            None => self
                .pairs
                .push_checked(report)
                .map(|p| p.map(|p| self.current.add(&p)).is_some()),
            Some(r) => self
                .pairs
                .push_into(report, &r, &mut self.scratch)
                .map(|p| {
                    p.map(|p| {
                        self.current.add_sample(&self.scratch, Some(&r));
                        self.current.add_pair(p.rpt_id, p.ctx_id, p.prev_ctx_id);
                    })
                    .is_some()
                }),
        };
        // Where the report is on the time axis: unwritten and dropped
        // reports are not on it.
        let on_axis = unwritten(report).is_none() && !matches!(checked, Err(e) if e.drops_later());
        let raw = report.timestamp().filter(|_| on_axis);
        let at = raw.map(|raw| match self.clock {
            Some((prev, ticks)) => {
                let step = counter_delta(prev, raw, TIMESTAMP_BITS);
                if step >= BACKWARD_TICKS {
                    ticks
                } else {
                    ticks.saturating_add(step)
                }
            }
            None => 0,
        });
        if let (Some(raw), Some(t)) = (raw, at) {
            if self.clock.is_none() {
                if let Window::Ticks(w) = self.window {
                    self.window_end = w.get();
                }
            }
            self.clock = Some((raw, t));
        }
        match checked {
            Ok(_) => {}
            Err(why) => self.current.invalid.add(why),
        }
        if on_axis {
            if self.current.start.is_none() {
                self.current.start = at;
            }
            self.current.end = at;
        }
        let close = match self.window {
            Window::Pairs(n) => self.current.pairs >= n.get(),
            Window::Ticks(w) => match at {
                Some(t) if t >= self.window_end => {
                    // The next window end past `t` (skipping empty windows).
                    let w = w.get();
                    self.window_end = (t / w).saturating_add(1).saturating_mul(w);
                    true
                }
                _ => false,
            },
        };
        if close {
            // The next interval starts at this report (its first pair's
            // earlier report).
            let next = Interval::empty(self.current.index + 1, at);
            Some(core::mem::replace(&mut self.current, next))
        } else {
            None
        }
    }

    /// An `OA_REPORT_LOST`: the next report is not paired; the current
    /// interval records it.
    pub fn report_lost(&mut self) {
        self.pairs.lost();
        self.current.reports_lost = self.current.reports_lost.saturating_add(1);
    }

    /// An `OA_BUFFER_LOST`: the next report is not paired; the current
    /// interval records it.
    pub fn buffer_lost(&mut self) {
        self.pairs.lost();
        self.current.buffers_lost = self.current.buffers_lost.saturating_add(1);
    }

    /// The last, partial interval (`None` when it has no pairs, no losses
    /// and no invalid pairs); the next report starts a new interval,
    /// unpaired.
    pub fn finish(&mut self) -> Option<Interval> {
        let keep = self.current.pairs > 0 || self.current.has_loss() || self.current.has_invalid();
        let next = Interval::empty(self.current.index + u64::from(keep), self.current.end);
        let last = core::mem::replace(&mut self.current, next);
        self.pairs.lost();
        keep.then_some(last)
    }
}

impl<F: ReportFormat> core::fmt::Debug for Intervals<F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Intervals")
            .field("format", &F::INFO.name)
            .field("window", &self.window)
            .field("current", &self.current)
            .finish()
    }
}
