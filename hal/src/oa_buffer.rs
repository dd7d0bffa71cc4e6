//! Reading OA reports out of a circular OA buffer, and turning pairs of
//! reports into counter deltas and rates.
//!
//! The OA unit writes reports of one format back to back into a circular
//! buffer; software reads from the *head* offset up to the *tail* offset the
//! hardware reports. [`OaBuffer`] / [`reports_between`] iterate the reports in
//! that range, following the wrap-around at the end of the buffer. A report
//! whose bytes run past the end of the buffer (a 192-byte HSW `A29_B8_C8`
//! report does not divide a 128 KiB buffer) is reassembled into an inline
//! copy; every other report is a zero-copy [`Report`] of the buffer's bytes.
//!
//! Nothing here allocates or panics, whatever the head, tail, buffer size or
//! bytes.
//!
//! ```
//! use hal::hsw::reports::A45B8C8;
//! use hal::oa_buffer::{OaBuffer, ReportDelta};
//!
//! let mut mem = [0u8; 1024];
//! for (i, at) in (0..1024).step_by(256).enumerate() {
//!     mem[at + 4..at + 8].copy_from_slice(&(1000 * i as u32).to_le_bytes()); // TIME_STAMP
//! }
//! let buf = OaBuffer::new(&mem);
//! // Head at the third report, tail at the second: wraps after the fourth.
//! let r: Vec<_> = buf.reports::<A45B8C8>(512, 256).collect();
//! assert_eq!(r.iter().map(|r| r.offset()).collect::<Vec<_>>(), [512, 768, 0]);
//! let d = ReportDelta::between(&r[1].view(), &r[2].view());
//! assert_eq!(d.timestamp, Some(0u64.wrapping_sub(3000) & 0xFFFF_FFFF)); // 32-bit wrap
//! ```

use crate::meta::CounterSlot;
use crate::report::{Report, ReportFormat};
use core::iter::FusedIterator;
use core::marker::PhantomData;

/// The largest report size the iterator handles (the bytes of a report that
/// straddles the end of the buffer are copied into an inline array this big).
/// Formats larger than this yield no reports. 640 bytes: the largest format
/// of xe's `oa_formats[]` (PEC64u64_B8_C8; PEC64u64 is 576).
pub const MAX_REPORT_SIZE: usize = 640;

/// Width of the timestamp as drivers use it: the TIME_STAMP dword wraps at
/// 2^32. (HSW layouts describe TIME_STAMP as 64 bits spanning dwords 1-2, but
/// only dword 1 counts; the timestamp helpers and deltas here use the low 32
/// bits whatever the slot's width.)
pub const TIMESTAMP_BITS: u32 = 32;

/// Bytes of report data between `head` (inclusive) and `tail` (exclusive) in a
/// circular buffer of `size` bytes.
///
/// Offsets are relative to the buffer's base and may take any value in
/// `0..=size` (no alignment is assumed): `tail >= head` is the plain range
/// `head..tail`, `tail < head` wraps (`head..size` then `0..tail`). So
/// `head == tail` is an empty buffer, and a full buffer is written `head = 0,
/// tail = size`. A `head` or `tail` beyond `size` (or `size == 0`) gives 0.
pub const fn available(head: usize, tail: usize, size: usize) -> usize {
    if size == 0 || head > size || tail > size {
        0
    } else if tail >= head {
        tail - head
    } else {
        size - head + tail
    }
}

/// `next - prev` for a counter `bits` wide that wraps at 2^`bits` (at most one
/// wrap between the two samples is assumed). Bits above the width are ignored;
/// `bits >= 64` is a full 64-bit wrapping difference, `bits == 0` gives 0.
///
/// ```
/// use hal::oa_buffer::counter_delta;
/// assert_eq!(counter_delta((1 << 40) - 10, 5, 40), 15);
/// assert_eq!(counter_delta(0xFFFF_FFF0, 0x10, 32), 0x20);
/// ```
pub const fn counter_delta(prev: u64, next: u64, bits: u32) -> u64 {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    next.wrapping_sub(prev) & mask
}

/// The timestamp of a report as drivers read it: the low [`TIMESTAMP_BITS`]
/// bits of TIME_STAMP (`None` when the format has no timestamp).
pub fn timestamp32<F: ReportFormat>(report: &Report<'_, F>) -> Option<u64> {
    report
        .timestamp()
        .map(|t| t & counter_delta(0, u64::MAX, TIMESTAMP_BITS))
}

/// A circular OA buffer: its whole memory, base at offset 0.
#[derive(Clone, Copy, Debug)]
pub struct OaBuffer<'a> {
    mem: &'a [u8],
}

impl<'a> OaBuffer<'a> {
    /// The buffer whose memory is `mem` (its size is `mem.len()`).
    pub const fn new(mem: &'a [u8]) -> Self {
        OaBuffer { mem }
    }

    /// The buffer's memory.
    pub const fn bytes(&self) -> &'a [u8] {
        self.mem
    }

    /// Size of the buffer in bytes.
    pub const fn len(&self) -> usize {
        self.mem.len()
    }

    /// Whether the buffer has no memory at all.
    pub const fn is_empty(&self) -> bool {
        self.mem.is_empty()
    }

    /// Bytes between `head` and `tail` (see [`available`]).
    pub const fn available(&self, head: usize, tail: usize) -> usize {
        available(head, tail, self.mem.len())
    }

    /// The whole reports of format `F` from `head` (inclusive) to `tail`
    /// (exclusive), wrapping at the end of the buffer (see [`available`] for
    /// what the offsets mean). A trailing partial report is not yielded; an
    /// out-of-range `head` or `tail`, or a format larger than
    /// [`MAX_REPORT_SIZE`], yields nothing.
    pub fn reports<F: ReportFormat>(&self, head: usize, tail: usize) -> OaReports<'a, F> {
        let size = F::INFO.size;
        let len = self.mem.len();
        let remaining = if size == 0 || size > MAX_REPORT_SIZE {
            0
        } else {
            available(head, tail, len) / size
        };
        OaReports {
            mem: self.mem,
            offset: if head >= len { 0 } else { head },
            remaining,
            _format: PhantomData,
        }
    }
}

/// The whole reports of format `F` in the circular buffer `buf` from `head`
/// (inclusive) to `tail` (exclusive); shorthand for
/// `OaBuffer::new(buf).reports::<F>(head, tail)`.
pub fn reports_between<F: ReportFormat>(buf: &[u8], head: usize, tail: usize) -> OaReports<'_, F> {
    OaBuffer::new(buf).reports(head, tail)
}

/// Iterator over the reports of a range of an [`OaBuffer`], made by
/// [`OaBuffer::reports`] or [`reports_between`].
#[derive(Clone, Debug)]
pub struct OaReports<'a, F> {
    mem: &'a [u8],
    /// Offset of the next report (always `< mem.len()` while `remaining > 0`).
    offset: usize,
    remaining: usize,
    _format: PhantomData<F>,
}

impl<F: ReportFormat> OaReports<'_, F> {
    /// Offset of the next report not yet yielded: once everything yielded has
    /// been consumed, the new head to give the hardware.
    pub fn head(&self) -> usize {
        self.offset
    }
}

impl<'a, F: ReportFormat> Iterator for OaReports<'a, F> {
    type Item = BufferedReport<'a, F>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        let size = F::INFO.size;
        let len = self.mem.len();
        let at = self.offset;
        let item = match self.mem.get(at..at.checked_add(size)?) {
            Some(bytes) => Report::new(bytes).map(|r| BufferedReport {
                offset: at,
                data: Data::Borrowed(r),
            }),
            None => {
                // Straddles the end: `at..len` then `0..rest`.
                let first = self.mem.get(at..).unwrap_or(&[]);
                let rest = size.checked_sub(first.len());
                let second = rest.and_then(|n| self.mem.get(..n));
                match (second, size <= MAX_REPORT_SIZE) {
                    (Some(second), true) => {
                        let mut copy = [0u8; MAX_REPORT_SIZE];
                        copy[..first.len()].copy_from_slice(first);
                        copy[first.len()..size].copy_from_slice(second);
                        Some(BufferedReport {
                            offset: at,
                            data: Data::Copied(copy),
                        })
                    }
                    _ => None,
                }
            }
        };
        match item {
            Some(item) => {
                self.remaining -= 1;
                // `at < len` and `size <= len` (a whole report fits in
                // `available <= len` bytes), so no overflow.
                let next = at + size;
                self.offset = if next >= len { next - len } else { next };
                Some(item)
            }
            None => {
                self.remaining = 0;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.remaining))
    }
}

impl<F: ReportFormat> FusedIterator for OaReports<'_, F> {}

// The inline copy is the point (no allocation); a report is yielded by value.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy)]
enum Data<'a, F> {
    Borrowed(Report<'a, F>),
    Copied([u8; MAX_REPORT_SIZE]),
}

/// One report read from an [`OaBuffer`]: a zero-copy view of the buffer, or,
/// for a report that straddles the end of the buffer, a reassembled inline
/// copy. Either way [`view`](Self::view) gives the typed [`Report`].
#[derive(Clone, Copy)]
pub struct BufferedReport<'a, F> {
    offset: usize,
    data: Data<'a, F>,
}

impl<'a, F: ReportFormat> BufferedReport<'a, F> {
    /// Offset of the report's first byte from the buffer's base.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Whether the report straddles the end of the buffer (and so was copied).
    pub fn straddles(&self) -> bool {
        matches!(self.data, Data::Copied(_))
    }

    /// The typed view of the report.
    pub fn view(&self) -> Report<'_, F> {
        match &self.data {
            Data::Borrowed(r) => *r,
            // Copies are only made for formats of at most MAX_REPORT_SIZE
            // bytes, so the array always holds a whole report; were it ever
            // shorter, the view's reads would return `None`, not panic.
            Data::Copied(copy) => Report::from_bytes_unchecked(copy),
        }
    }

    /// The zero-copy view borrowing the buffer itself (`None` for a report
    /// that straddles the end of the buffer).
    pub fn borrowed(&self) -> Option<Report<'a, F>> {
        match self.data {
            Data::Borrowed(r) => Some(r),
            Data::Copied(_) => None,
        }
    }

    /// The report's bytes (`F::INFO.size` of them).
    pub fn bytes(&self) -> &[u8] {
        self.view().bytes()
    }

    /// The GPU clock (see [`Report::gpu_clock`]).
    pub fn gpu_clock(&self) -> Option<u64> {
        self.view().gpu_clock()
    }
}

impl<F: ReportFormat> core::fmt::Debug for BufferedReport<'_, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BufferedReport")
            .field("offset", &self.offset)
            .field("straddles", &self.straddles())
            .field("report", &self.view())
            .finish()
    }
}

/// Anything that gives a [`Report`] view of format `F`: a [`Report`] or a
/// [`BufferedReport`] (or a reference to one), so that [`Summary`] takes
/// either.
pub trait AsReport<F: ReportFormat> {
    /// The report view.
    fn as_report(&self) -> Report<'_, F>;
}

impl<F: ReportFormat> AsReport<F> for Report<'_, F> {
    fn as_report(&self) -> Report<'_, F> {
        *self
    }
}

impl<F: ReportFormat> AsReport<F> for BufferedReport<'_, F> {
    fn as_report(&self) -> Report<'_, F> {
        self.view()
    }
}

impl<F: ReportFormat, T: AsReport<F> + ?Sized> AsReport<F> for &T {
    fn as_report(&self) -> Report<'_, F> {
        (**self).as_report()
    }
}

// The counters a [`ReportDelta`] holds: as many as a metric-set sample.
pub use perfregs_types::sample::{A_COUNTERS, B_COUNTERS, C_COUNTERS, MPEC_COUNTERS, PEC_COUNTERS};

/// What changed from one report to the next: each counter's increment, taken
/// modulo its own width (32 or 40 bits, see [`counter_delta`]); `None` for
/// what the format does not carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportDelta {
    /// Timestamp ticks, modulo 2^[`TIMESTAMP_BITS`].
    pub timestamp: Option<u64>,
    /// GPU_TICKS increments (BDW and later).
    pub gpu_ticks: Option<u64>,
    /// GPU clock increments on every project (GPU_TICKS, or C2 on HSW; see
    /// [`ReportFormat::GPU_CLOCK`]).
    pub gpu_clock: Option<u64>,
    /// A counters by index.
    pub a: [Option<u64>; A_COUNTERS],
    /// B counters by index.
    pub b: [Option<u64>; B_COUNTERS],
    /// C counters by index.
    pub c: [Option<u64>; C_COUNTERS],
    /// PEC counters by index (the PEC formats).
    pub pec: [Option<u64>; PEC_COUNTERS],
    /// MPEC counters by index (the media OAM formats).
    pub mpec: [Option<u64>; MPEC_COUNTERS],
}

fn slot_delta(slot: Option<CounterSlot>, prev: &[u8], next: &[u8]) -> Option<u64> {
    let s = slot?;
    Some(counter_delta(s.read(prev)?, s.read(next)?, s.bits))
}

fn table_deltas<const N: usize>(
    table: &[Option<CounterSlot>],
    prev: &[u8],
    next: &[u8],
) -> [Option<u64>; N] {
    let mut out = [None; N];
    for (o, s) in out.iter_mut().zip(table) {
        *o = slot_delta(*s, prev, next);
    }
    out
}

impl ReportDelta {
    /// The increments from `prev` to `next` (`next` taken as the later one).
    pub fn between<F: ReportFormat>(prev: &Report<'_, F>, next: &Report<'_, F>) -> Self {
        let (p, n) = (prev.bytes(), next.bytes());
        let timestamp = match (prev.timestamp(), next.timestamp()) {
            (Some(a), Some(b)) => Some(counter_delta(a, b, TIMESTAMP_BITS)),
            _ => None,
        };
        ReportDelta {
            timestamp,
            gpu_ticks: slot_delta(F::GPU_TICKS, p, n),
            gpu_clock: slot_delta(F::GPU_CLOCK, p, n),
            a: table_deltas(F::A, p, n),
            b: table_deltas(F::B, p, n),
            c: table_deltas(F::C, p, n),
            pec: table_deltas(F::PEC, p, n),
            mpec: table_deltas(F::MPEC, p, n),
        }
    }

    /// Increment of An (`None` when absent or `n` is out of range).
    pub fn a(&self, n: usize) -> Option<u64> {
        self.a.get(n).copied().flatten()
    }
    /// Increment of Bn.
    pub fn b(&self, n: usize) -> Option<u64> {
        self.b.get(n).copied().flatten()
    }
    /// Increment of Cn.
    pub fn c(&self, n: usize) -> Option<u64> {
        self.c.get(n).copied().flatten()
    }
}

/// A timestamp step of at least this many ticks between two consecutive
/// reports is a step back, not forward: the 32-bit timestamp wraps only
/// after 2^32 ticks (minutes of sampling), so a later report 2^31 ticks or
/// more "ahead" is behind the earlier one.
pub const BACKWARD_TICKS: u64 = 1 << (TIMESTAMP_BITS - 1);

/// The most GPU clocks one timestamp tick can hold: a 4 GHz GPU (above any
/// Intel GPU's maximum) against the slowest OA timestamp, 12 MHz (Gen9).
/// A pair with more than this per tick (plus one tick for the timestamp's
/// rounding) is not two reports of one running GPU.
pub const MAX_GPU_CLOCKS_PER_TICK: u64 = 4_000_000_000 / 12_000_000;

/// Why a report is taken as never written by the OA unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwritten {
    /// Every byte is zero.
    AllZero,
    /// TIME_STAMP is zero (what i915 clears in each report it has read, to
    /// tell reports that have not landed yet), the rest is not.
    ZeroTimestamp,
}

impl core::fmt::Display for Unwritten {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Unwritten::AllZero => "all zero",
            Unwritten::ZeroTimestamp => "zero timestamp",
        })
    }
}

/// Whether `report` was never written ([`Unwritten`]): all zero, or a zero
/// TIME_STAMP (a written report has a zero timestamp once in 2^32 ticks).
pub fn unwritten<F: ReportFormat>(report: &Report<'_, F>) -> Option<Unwritten> {
    if report.bytes().iter().all(|&b| b == 0) {
        Some(Unwritten::AllZero)
    } else if timestamp32(report) == Some(0) {
        Some(Unwritten::ZeroTimestamp)
    } else {
        None
    }
}

/// Why two consecutive reports are not a pair whose increments are data
/// ([`check_pair`]): stale or unwritten memory, or a report of something
/// else. Such a pair's increments must not enter a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidPair {
    /// The earlier report was never written.
    EarlierUnwritten(Unwritten),
    /// The later report was never written.
    LaterUnwritten(Unwritten),
    /// The timestamp steps back by `ticks` (see [`BACKWARD_TICKS`]).
    Backward {
        /// Ticks from the later report's timestamp up to the earlier one's.
        ticks: u64,
    },
    /// More GPU clocks than `ticks` timestamp ticks can hold at any GPU
    /// frequency (see [`MAX_GPU_CLOCKS_PER_TICK`]).
    ImpossibleClock {
        /// The GPU clock increment.
        clocks: u64,
        /// The timestamp increment.
        ticks: u64,
    },
}

impl InvalidPair {
    /// Whether the later report is dropped rather than paired with the next
    /// one: after a step back or an impossible clock its timestamp or clock
    /// is not the successor of the earlier report's (stale memory, most
    /// likely), and pairing it with the next report would count time twice.
    /// After an unwritten report the next one is checked against it, so
    /// every pair touching it is counted as invalid.
    pub fn drops_later(&self) -> bool {
        matches!(
            self,
            InvalidPair::Backward { .. } | InvalidPair::ImpossibleClock { .. }
        )
    }
}

impl core::fmt::Display for InvalidPair {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            InvalidPair::EarlierUnwritten(u) => write!(f, "earlier report never written ({u})"),
            InvalidPair::LaterUnwritten(u) => write!(f, "later report never written ({u})"),
            InvalidPair::Backward { ticks } => write!(f, "timestamp {ticks} ticks back"),
            InvalidPair::ImpossibleClock { clocks, ticks } => {
                write!(f, "{clocks} GPU clocks in {ticks} timestamp ticks")
            }
        }
    }
}

/// The increments from `prev` to `next` ([`ReportDelta::between`]) when the
/// two are a valid pair of consecutive reports: neither is [`unwritten`],
/// the timestamp does not step back, and the GPU clock does not run faster
/// than any GPU ([`ReportDelta::check`]).
///
/// ```
/// use hal::bdw::reports::A32u40A4u32B8C8 as F;
/// use hal::oa_buffer::{check_pair, InvalidPair, Unwritten};
/// use hal::report::Report;
///
/// let (mut a, mut b) = ([0u8; 256], [0u8; 256]);
/// a[4..8].copy_from_slice(&1000u32.to_le_bytes()); // TIME_STAMP
/// b[4..8].copy_from_slice(&1100u32.to_le_bytes());
/// let (ra, rb) = (Report::<F>::new(&a).unwrap(), Report::<F>::new(&b).unwrap());
/// assert_eq!(check_pair(&ra, &rb).map(|d| d.timestamp), Ok(Some(100)));
/// assert_eq!(check_pair(&rb, &ra), Err(InvalidPair::Backward { ticks: 100 }));
/// let zero = Report::<F>::new(&[0u8; 256]).unwrap();
/// assert_eq!(check_pair(&ra, &zero), Err(InvalidPair::LaterUnwritten(Unwritten::AllZero)));
/// ```
pub fn check_pair<F: ReportFormat>(
    prev: &Report<'_, F>,
    next: &Report<'_, F>,
) -> Result<ReportDelta, InvalidPair> {
    if let Some(u) = unwritten(prev) {
        return Err(InvalidPair::EarlierUnwritten(u));
    }
    if let Some(u) = unwritten(next) {
        return Err(InvalidPair::LaterUnwritten(u));
    }
    let d = ReportDelta::between(prev, next);
    d.check().map(|()| d)
}

/// [`check_pair`] without the counters' increments: `Ok` with the
/// timestamp increment (`None`: the format has no timestamp) when `prev`
/// and `next` are a valid pair. With [`deltas_into`], what [`check_pair`]
/// and [`Sample::from_delta`](perfregs_types::Sample::from_delta) give for
/// the counters one reads, without the others.
pub fn check_reports<F: ReportFormat>(
    prev: &Report<'_, F>,
    next: &Report<'_, F>,
) -> Result<Option<u64>, InvalidPair> {
    if let Some(u) = unwritten(prev) {
        return Err(InvalidPair::EarlierUnwritten(u));
    }
    if let Some(u) = unwritten(next) {
        return Err(InvalidPair::LaterUnwritten(u));
    }
    let timestamp = match (prev.timestamp(), next.timestamp()) {
        (Some(a), Some(b)) => Some(counter_delta(a, b, TIMESTAMP_BITS)),
        _ => None,
    };
    let gpu_clock = slot_delta(F::GPU_CLOCK, prev.bytes(), next.bytes());
    check_increments(timestamp, gpu_clock).map(|()| timestamp)
}

/// The increments from `prev` to `next` of the counters in `reads` only,
/// written into `s` as [`Sample::from_delta`](perfregs_types::Sample::from_delta)
/// of [`ReportDelta::between`] writes them (`GPU_CLOCK` is GPU_TICKS;
/// `None` for a counter the format lacks); every other counter of `s`
/// (PERFCNT, which is not in reports, among them) is left as it is. Costs
/// what `reads` holds, not what the format does.
pub fn deltas_into<F: ReportFormat>(
    prev: &Report<'_, F>,
    next: &Report<'_, F>,
    reads: &perfregs_types::Reads,
    s: &mut perfregs_types::Sample,
) {
    use perfregs_types::sample::bits;
    fn fill(out: &mut [Option<u64>], mask: u64, table: &[Option<CounterSlot>], p: &[u8], n: &[u8]) {
        for i in bits(mask) {
            if let Some(o) = out.get_mut(i) {
                *o = slot_delta(table.get(i).copied().flatten(), p, n);
            }
        }
    }
    let (p, n) = (prev.bytes(), next.bytes());
    if reads.gpu_time {
        s.gpu_time = match (prev.timestamp(), next.timestamp()) {
            (Some(a), Some(b)) => Some(counter_delta(a, b, TIMESTAMP_BITS)),
            _ => None,
        };
    }
    if reads.gpu_clock {
        s.gpu_clock = slot_delta(F::GPU_TICKS, p, n);
    }
    fill(&mut s.a, reads.a, F::A, p, n);
    fill(&mut s.b, reads.b, F::B, p, n);
    fill(&mut s.c, reads.c, F::C, p, n);
    fill(&mut s.pec, reads.pec, F::PEC, p, n);
    fill(&mut s.mpec, reads.mpec, F::MPEC, p, n);
}

impl ReportDelta {
    /// What the increments alone say about the pair: a timestamp step back
    /// ([`InvalidPair::Backward`]) or more GPU clocks than the timestamp
    /// interval allows ([`InvalidPair::ImpossibleClock`]). Whether either
    /// report was written takes the reports: [`check_pair`].
    pub fn check(&self) -> Result<(), InvalidPair> {
        check_increments(self.timestamp, self.gpu_clock)
    }
}

/// [`ReportDelta::check`] on the two increments it looks at: the
/// timestamp's and the GPU clock's ([`ReportFormat::GPU_CLOCK`]).
pub fn check_increments(timestamp: Option<u64>, gpu_clock: Option<u64>) -> Result<(), InvalidPair> {
    let Some(ticks) = timestamp else {
        return Ok(());
    };
    if ticks >= BACKWARD_TICKS {
        let span = counter_delta(0, u64::MAX, TIMESTAMP_BITS) + 1;
        return Err(InvalidPair::Backward {
            ticks: span.saturating_sub(ticks),
        });
    }
    match gpu_clock {
        Some(clocks)
            if clocks
                > ticks
                    .saturating_add(1)
                    .saturating_mul(MAX_GPU_CLOCKS_PER_TICK) =>
        {
            Err(InvalidPair::ImpossibleClock { clocks, ticks })
        }
        _ => Ok(()),
    }
}

/// What a metric-set sample takes from a delta (`Sample::from_delta`).
impl perfregs_types::ReportCounts for ReportDelta {
    fn timestamp(&self) -> Option<u64> {
        self.timestamp
    }
    fn gpu_ticks(&self) -> Option<u64> {
        self.gpu_ticks
    }
    fn a_counts(&self) -> &[Option<u64>] {
        &self.a
    }
    fn b_counts(&self) -> &[Option<u64>] {
        &self.b
    }
    fn c_counts(&self) -> &[Option<u64>] {
        &self.c
    }
    fn pec_counts(&self) -> &[Option<u64>] {
        &self.pec
    }
    fn mpec_counts(&self) -> &[Option<u64>] {
        &self.mpec
    }
}

fn accumulate<const N: usize>(total: &mut [Option<u64>; N], d: &[Option<u64>; N]) {
    for (t, d) in total.iter_mut().zip(d) {
        if let Some(d) = *d {
            *t = Some(t.unwrap_or(0).saturating_add(d));
        }
    }
}

/// Counter increments accumulated over a sequence of reports of format `F`,
/// and the rates they give at a timestamp frequency.
///
/// Increments are summed pairwise (each report against the one before), so
/// counters and the timestamp may wrap any number of times over the sequence
/// as long as they wrap at most once between consecutive reports. Sums
/// saturate at `u64::MAX`. A pair [`check_pair`] rejects (stale or
/// unwritten memory) adds nothing and is counted
/// ([`invalid_pairs`](Self::invalid_pairs)); its later report is dropped
/// when [`InvalidPair::drops_later`] says so.
///
/// ```
/// use hal::bdw::reports::A32u40A4u32B8C8;
/// use hal::oa_buffer::{reports_between, Summary};
///
/// let mut mem = [0u8; 512];
/// mem[4..8].copy_from_slice(&1_000u32.to_le_bytes()); // TIME_STAMP
/// mem[256 + 4..256 + 8].copy_from_slice(&3_000u32.to_le_bytes());
/// mem[256 + 16..256 + 20].copy_from_slice(&500u32.to_le_bytes()); // A0 (low dword)
/// let s = Summary::from_reports(reports_between::<A32u40A4u32B8C8>(&mem, 0, 512), 1_000.0);
/// assert_eq!(s.seconds(), Some(2.0));
/// assert_eq!(s.a_per_second(0), Some(250.0));
/// assert_eq!(s.b_per_second(0), Some(0.0));
/// ```
#[derive(Clone, Copy)]
pub struct Summary<F> {
    frequency_hz: f64,
    reports: usize,
    invalid: usize,
    prev: Option<[u8; MAX_REPORT_SIZE]>,
    total: ReportDelta,
    _format: PhantomData<F>,
}

impl<F: ReportFormat> Summary<F> {
    /// An empty summary for a timestamp running at `frequency_hz`.
    pub fn new(frequency_hz: f64) -> Self {
        Summary {
            frequency_hz,
            reports: 0,
            invalid: 0,
            prev: None,
            total: ReportDelta {
                timestamp: None,
                gpu_ticks: None,
                gpu_clock: None,
                a: [None; A_COUNTERS],
                b: [None; B_COUNTERS],
                c: [None; C_COUNTERS],
                pec: [None; PEC_COUNTERS],
                mpec: [None; MPEC_COUNTERS],
            },
            _format: PhantomData,
        }
    }

    /// The summary of `reports`, in order.
    pub fn from_reports<I>(reports: I, frequency_hz: f64) -> Self
    where
        I: IntoIterator,
        I::Item: AsReport<F>,
    {
        let mut s = Self::new(frequency_hz);
        for r in reports {
            s.push(&r);
        }
        s
    }

    /// Add the next report (formats larger than [`MAX_REPORT_SIZE`] are
    /// ignored): its increments from the previous one unless [`check_pair`]
    /// rejects the pair.
    pub fn push(&mut self, report: &impl AsReport<F>) {
        let r = report.as_report();
        let bytes = r.bytes();
        let Some(src) = bytes.get(..F::INFO.size) else {
            return;
        };
        if src.len() > MAX_REPORT_SIZE {
            return;
        }
        if let Some(prev) = self.prev.as_ref().and_then(|p| Report::<F>::new(p)) {
            match check_pair(&prev, &r) {
                Ok(d) => {
                    let t = &mut self.total;
                    if let Some(ts) = d.timestamp {
                        t.timestamp = Some(t.timestamp.unwrap_or(0).saturating_add(ts));
                    }
                    if let Some(g) = d.gpu_ticks {
                        t.gpu_ticks = Some(t.gpu_ticks.unwrap_or(0).saturating_add(g));
                    }
                    if let Some(g) = d.gpu_clock {
                        t.gpu_clock = Some(t.gpu_clock.unwrap_or(0).saturating_add(g));
                    }
                    accumulate(&mut t.a, &d.a);
                    accumulate(&mut t.b, &d.b);
                    accumulate(&mut t.c, &d.c);
                    accumulate(&mut t.pec, &d.pec);
                    accumulate(&mut t.mpec, &d.mpec);
                }
                Err(why) => {
                    self.invalid = self.invalid.saturating_add(1);
                    if why.drops_later() {
                        self.prev = None;
                        self.reports += 1;
                        return;
                    }
                }
            }
        }
        let mut copy = [0u8; MAX_REPORT_SIZE];
        copy[..src.len()].copy_from_slice(src);
        self.prev = Some(copy);
        self.reports += 1;
    }

    /// Reports added.
    pub fn reports(&self) -> usize {
        self.reports
    }

    /// Pairs of consecutive reports left out: [`check_pair`] rejected them.
    pub fn invalid_pairs(&self) -> usize {
        self.invalid
    }

    /// The timestamp frequency the summary was made for.
    pub fn frequency_hz(&self) -> f64 {
        self.frequency_hz
    }

    /// The summed increments from the first report to the last (all `None`
    /// before two reports have been added).
    pub fn totals(&self) -> &ReportDelta {
        &self.total
    }

    /// Timestamp ticks from the first report to the last.
    pub fn ticks(&self) -> Option<u64> {
        self.total.timestamp
    }

    /// Seconds from the first report to the last (`None` without a positive
    /// elapsed time at a positive, finite frequency).
    pub fn seconds(&self) -> Option<f64> {
        let ticks = self.ticks().filter(|&t| t > 0)?;
        let hz = self.frequency_hz;
        if hz.is_finite() && hz > 0.0 {
            Some(ticks as f64 / hz)
        } else {
            None
        }
    }

    fn rate(&self, total: Option<u64>) -> Option<f64> {
        Some(total? as f64 / self.seconds()?)
    }

    /// GPU_TICKS increments per second (BDW and later).
    pub fn gpu_ticks_per_second(&self) -> Option<f64> {
        self.rate(self.total.gpu_ticks)
    }
    /// GPU clocks per second, the GPU frequency, on every project that
    /// reports its clock (see [`ReportFormat::GPU_CLOCK`]).
    pub fn gpu_clock_hz(&self) -> Option<f64> {
        self.rate(self.total.gpu_clock)
    }
    /// An increments per second.
    pub fn a_per_second(&self, n: usize) -> Option<f64> {
        self.rate(self.total.a(n))
    }
    /// Bn increments per second.
    pub fn b_per_second(&self, n: usize) -> Option<f64> {
        self.rate(self.total.b(n))
    }
    /// Cn increments per second.
    pub fn c_per_second(&self, n: usize) -> Option<f64> {
        self.rate(self.total.c(n))
    }
}

impl<F: ReportFormat> core::fmt::Debug for Summary<F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Summary")
            .field("format", &F::INFO.name)
            .field("frequency_hz", &self.frequency_hz)
            .field("reports", &self.reports)
            .field("invalid_pairs", &self.invalid)
            .field("totals", &self.total)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_wraps_at_the_counter_width() {
        assert_eq!(counter_delta(10, 25, 32), 15);
        assert_eq!(counter_delta(0xFFFF_FFF6, 5, 32), 15);
        assert_eq!(counter_delta((1 << 40) - 10, 5, 40), 15);
        assert_eq!(counter_delta(5, (1 << 40) - 10, 40), (1 << 40) - 15);
        // Bits above the width are ignored.
        assert_eq!(counter_delta(0xAB_0000_0001, 0xCD_0000_0003, 32), 2);
        assert_eq!(counter_delta(u64::MAX, 1, 64), 2);
        assert_eq!(counter_delta(u64::MAX, 1, 200), 2);
        assert_eq!(counter_delta(3, 7, 0), 0);
        assert_eq!(counter_delta(7, 7, 40), 0);
    }

    #[test]
    fn available_follows_the_ring() {
        assert_eq!(available(0, 0, 1024), 0);
        assert_eq!(available(100, 100, 1024), 0);
        assert_eq!(available(0, 1024, 1024), 1024);
        assert_eq!(available(256, 768, 1024), 512);
        assert_eq!(available(768, 256, 1024), 512);
        assert_eq!(available(1024, 256, 1024), 256);
        assert_eq!(available(1023, 0, 1024), 1);
        assert_eq!(available(3, 1, 1024), 1022);
        // Out of range: nothing.
        assert_eq!(available(1025, 0, 1024), 0);
        assert_eq!(available(0, 1025, 1024), 0);
        assert_eq!(available(usize::MAX, usize::MAX, 1024), 0);
        assert_eq!(available(0, 0, 0), 0);
        assert_eq!(available(0, usize::MAX, usize::MAX), usize::MAX);
    }

    /// A TGL A32u40_A4u32_B8_C8 report: RPT_ID 1, TIME_STAMP `ts`, GPU_TICKS
    /// `clock`, A0 `a0`.
    #[cfg(feature = "tgl")]
    fn tgl(ts: u32, clock: u32, a0: u32) -> [u8; 256] {
        use crate::tgl::reports::A32u40A4u32B8C8 as F;
        let mut r = [0u8; 256];
        let mut put = |slot: Option<CounterSlot>, v: u32| {
            let at = slot.map_or(0, |s| s.offset as usize);
            r[at..at + 4].copy_from_slice(&v.to_le_bytes());
        };
        put(F::RPT_ID, 1);
        put(F::TIME_STAMP, ts);
        put(F::GPU_TICKS, clock);
        put(F::A[0], a0);
        r
    }

    #[test]
    #[cfg(feature = "tgl")]
    fn pairs_of_unwritten_stale_or_impossible_reports_are_invalid() {
        use crate::tgl::reports::A32u40A4u32B8C8 as F;
        let check = |a: &[u8; 256], b: &[u8; 256]| match (Report::<F>::new(a), Report::<F>::new(b))
        {
            (Some(a), Some(b)) => check_pair(&a, &b),
            _ => panic!("whole reports"),
        };
        // A valid pair: 100 ticks, 8 clocks a tick, across the timestamp wrap too.
        let d = check(&tgl(1000, 5000, 7), &tgl(1100, 5800, 10));
        assert_eq!(
            d.map(|d| (d.timestamp, d.gpu_clock, d.a(0))),
            Ok((Some(100), Some(800), Some(3)))
        );
        let d = check(&tgl(0xFFFF_FFC0, 5000, 7), &tgl(0x40, 5800, 10));
        assert_eq!(d.map(|d| d.timestamp), Ok(Some(0x80)));
        // The most clocks a tick allows passes; one more does not.
        let most = 101 * MAX_GPU_CLOCKS_PER_TICK as u32;
        assert!(check(&tgl(1000, 0, 0), &tgl(1100, most, 0)).is_ok());
        assert_eq!(
            check(&tgl(1000, 0, 0), &tgl(1100, most + 1, 0)),
            Err(InvalidPair::ImpossibleClock {
                clocks: u64::from(most) + 1,
                ticks: 100
            })
        );
        // Garbage clocks in a pair with no time between them.
        assert_eq!(
            check(&tgl(1000, 0, 0), &tgl(1000, 0x8000_0000, 0)),
            Err(InvalidPair::ImpossibleClock {
                clocks: 0x8000_0000,
                ticks: 0
            })
        );
        // Backward: by a little, and by the most a step can be.
        assert_eq!(
            check(&tgl(1100, 5000, 7), &tgl(1000, 5800, 10)),
            Err(InvalidPair::Backward { ticks: 100 })
        );
        assert_eq!(
            check(&tgl(0x8000_0001, 0, 0), &tgl(1, 0, 0)),
            Err(InvalidPair::Backward { ticks: 0x8000_0000 })
        );
        assert!(check(&tgl(0x8000_0000, 0, 0), &tgl(0xFFFF_FFFF, 0, 0)).is_ok());
        // Zero timestamp, or all zero, on either side.
        let zero = [0u8; 256];
        let zero_ts = tgl(0, 5800, 10);
        assert_eq!(
            check(&tgl(1000, 5000, 7), &zero_ts),
            Err(InvalidPair::LaterUnwritten(Unwritten::ZeroTimestamp))
        );
        assert_eq!(
            check(&zero_ts, &tgl(1000, 5000, 7)),
            Err(InvalidPair::EarlierUnwritten(Unwritten::ZeroTimestamp))
        );
        assert_eq!(
            check(&tgl(1000, 5000, 7), &zero),
            Err(InvalidPair::LaterUnwritten(Unwritten::AllZero))
        );
        assert_eq!(
            check(&zero, &zero),
            Err(InvalidPair::EarlierUnwritten(Unwritten::AllZero))
        );
        // The delta alone: what the increments say.
        let between =
            |a: &[u8; 256], b: &[u8; 256]| match (Report::<F>::new(a), Report::<F>::new(b)) {
                (Some(a), Some(b)) => ReportDelta::between(&a, &b),
                _ => panic!("whole reports"),
            };
        assert_eq!(
            between(&tgl(1000, 0, 0), &zero).check(),
            Err(InvalidPair::Backward { ticks: 1000 })
        );
    }

    #[test]
    #[cfg(feature = "tgl")]
    fn summaries_leave_invalid_pairs_out() {
        use crate::tgl::reports::A32u40A4u32B8C8 as F;
        let reports = [
            tgl(1000, 0, 0),
            tgl(1100, 800, 5),
            [0u8; 256],
            tgl(1300, 2400, 15),
            tgl(1200, 1600, 10), // stale: behind the one before, dropped
            tgl(1400, 3200, 20), // not paired with the stale report
            tgl(1500, 4000, 25),
        ];
        let mut s = Summary::<F>::new(100.0);
        for r in &reports {
            if let Some(r) = Report::<F>::new(r) {
                s.push(&r);
            }
        }
        // Valid: 0-1 and 5-6 (200 ticks, 1600 clocks, A0 +10); invalid:
        // 1-2, 2-3, 3-4; 4-5 not formed.
        assert_eq!((s.reports(), s.invalid_pairs()), (7, 3));
        assert_eq!(s.ticks(), Some(200));
        assert_eq!(s.totals().gpu_clock, Some(1600));
        assert_eq!(s.totals().a(0), Some(10));
    }

    /// A 40-bit A counter's increment across 2^32 (and across its own
    /// wrap at 2^40) is taken modulo 2^40, not 2^32; 32-bit counters and
    /// the timestamp wrap at 2^32.
    #[test]
    #[cfg(feature = "tgl")]
    fn report_delta_wraps_40_bit_counters_at_40_bits() {
        use crate::tgl::reports::A32u40A4u32B8C8 as F;
        // A0 (40-bit: low dword at 16, high byte at 160), A32 (32-bit, at
        // 144), B0 (at 192), TIME_STAMP (at 4).
        let report = |a0: u64, a32: u32, b0: u32, ts: u32| {
            let mut r = [0u8; 256];
            r[4..8].copy_from_slice(&ts.to_le_bytes());
            r[16..20].copy_from_slice(&(a0 as u32).to_le_bytes());
            r[160] = (a0 >> 32) as u8;
            r[144..148].copy_from_slice(&a32.to_le_bytes());
            r[192..196].copy_from_slice(&b0.to_le_bytes());
            r
        };
        let (p, n) = (
            report(0xFFFF_FFF0, 0xFFFF_FFF0, 5, 0xFFFF_FF00),
            report(0x2_0000_0010, 0x10, 9, 0x100),
        );
        let (p, n) = (
            Report::<F>::new(&p).expect("256 bytes"),
            Report::<F>::new(&n).expect("256 bytes"),
        );
        let d = ReportDelta::between(&p, &n);
        assert_eq!(
            d.a(0),
            Some(0x1_0000_0020),
            "40 bits: more than 2^32 counted"
        );
        assert_eq!(d.a(32), Some(0x20), "32-bit A counter wraps at 2^32");
        assert_eq!(d.b(0), Some(4));
        assert_eq!(d.timestamp, Some(0x200));
        // Across the 40-bit wrap.
        let (p, n) = (report((1 << 40) - 3, 0, 0, 0), report(4, 0, 0, 0));
        let (p, n) = (
            Report::<F>::new(&p).expect("256 bytes"),
            Report::<F>::new(&n).expect("256 bytes"),
        );
        assert_eq!(ReportDelta::between(&p, &n).a(0), Some(7));
    }

    #[test]
    #[cfg(feature = "hsw")]
    fn timestamp_keeps_the_low_dword() {
        use crate::hsw::reports::A13;
        let mut r = [0u8; 64];
        r[4..12].copy_from_slice(&0x1234_5678_9ABC_DEF0u64.to_le_bytes());
        let v = Report::<A13>::new(&r).map(|r| timestamp32(&r));
        assert_eq!(v, Some(Some(0x9ABC_DEF0)));
    }

    /// Bytes that look like a report of `F` (deterministic noise), with
    /// the timestamp `ts` and RPT_ID set.
    fn noise<F: ReportFormat>(seed: u64, ts: u32) -> [u8; 256] {
        let mut x = seed | 1;
        let mut r = [0u8; 256];
        for b in r.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        for (slot, v) in [(F::RPT_ID, 1u32), (F::TIME_STAMP, ts)] {
            if let Some(s) = slot {
                let at = s.offset as usize;
                r[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        r
    }

    /// `deltas_into` and `check_reports` give for each counter read what
    /// `check_pair` and `Sample::from_delta` give, and touch nothing else.
    fn chosen_deltas_match_the_whole_delta<F: ReportFormat>() {
        use perfregs_types::{Reads, Sample, Source};
        let size = F::INFO.size;
        for seed in 1..40u64 {
            let (p, n) = (noise::<F>(seed, 1000), noise::<F>(seed * 7919, 1100));
            let (p, n) = (
                Report::<F>::new(&p[..size]).expect("size"),
                Report::<F>::new(&n[..size]).expect("size"),
            );
            let whole = check_pair(&p, &n);
            assert_eq!(check_reports(&p, &n), whole.map(|d| d.timestamp));
            let want = Sample::from_delta(&ReportDelta::between(&p, &n));
            let mut all = Sample::EMPTY;
            deltas_into(&p, &n, &Reads::ALL, &mut all);
            assert_eq!(all, want, "seed {seed}");
            // Two slots of each source: those, and nothing else, change.
            let mut reads = Reads::NONE;
            for src in Source::ALL {
                reads.insert(*src, seed % Sample::len(*src) as u64);
                reads.insert(*src, 0);
            }
            let mut some = Sample::EMPTY;
            *some.slot_mut(Source::PerfCnt, 0).expect("PERFCNT 0") = Some(5);
            deltas_into(&p, &n, &reads, &mut some);
            for (src, k) in Sample::slots() {
                let got = some.read(src, k);
                if src == Source::PerfCnt {
                    assert_eq!(got, (k == 0).then_some(5), "PERFCNT is not in reports");
                } else if reads.contains(src, k) {
                    assert_eq!(got, want.read(src, k), "{src:?} {k}");
                } else {
                    assert_eq!(got, None, "{src:?} {k} not read");
                }
            }
        }
        // A step back is refused as check_pair refuses it.
        let (p, n) = (noise::<F>(3, 1100), noise::<F>(5, 1000));
        let (p, n) = (
            Report::<F>::new(&p[..size]).expect("size"),
            Report::<F>::new(&n[..size]).expect("size"),
        );
        if F::TIME_STAMP.is_some() {
            assert_eq!(
                check_reports(&p, &n),
                Err(InvalidPair::Backward { ticks: 100 })
            );
        }
        let zero = [0u8; 256];
        let zero = Report::<F>::new(&zero[..size]).expect("size");
        assert_eq!(
            check_reports(&p, &zero),
            Err(InvalidPair::LaterUnwritten(Unwritten::AllZero))
        );
    }

    #[test]
    #[cfg(feature = "tgl")]
    fn chosen_deltas_match_on_tgl() {
        chosen_deltas_match_the_whole_delta::<crate::tgl::reports::A32u40A4u32B8C8>();
    }

    #[test]
    #[cfg(feature = "hsw")]
    fn chosen_deltas_match_on_hsw() {
        // HSW: no GPU_TICKS (GPU_CLOCK is absent), the clock check reads C2.
        chosen_deltas_match_the_whole_delta::<crate::hsw::reports::A45B8C8>();
    }
}
