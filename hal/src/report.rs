//! Zero-copy typed views of OA reports.
//!
//! Each report format of each project is a generated zero-sized type
//! implementing [`ReportFormat`] (`hsw::reports::A45B8C8`); a [`Report`] borrows
//! the bytes of one report and reads counters where the PRM layout puts them,
//! reassembling 40-bit counters split into a low dword and a high byte.

use crate::meta::{CounterSlot, FormatInfo};
use crate::register::Project;
use core::marker::PhantomData;

/// Most counters of one kind (`A0`..`A63`) a format can carry.
pub const MAX_INDEXED: usize = 64;

/// A report layout of one project. Only [`INFO`](Self::INFO) is given per
/// format; the indexed tables are computed from it at compile time.
pub trait ReportFormat: Copy + Default + 'static {
    /// The project.
    type Project: Project;
    /// The layout.
    const INFO: &'static FormatInfo;
    /// A counters by index (`A[n]` is An when the format carries it).
    const A: &'static [Option<CounterSlot>] =
        first(&indexed(Self::INFO, b'A'), indexed_len(Self::INFO, b'A'));
    /// B counters by index.
    const B: &'static [Option<CounterSlot>] =
        first(&indexed(Self::INFO, b'B'), indexed_len(Self::INFO, b'B'));
    /// C counters by index.
    const C: &'static [Option<CounterSlot>] =
        first(&indexed(Self::INFO, b'C'), indexed_len(Self::INFO, b'C'));
    /// PEC counters by index (the Xe2 and later PEC formats: `PEC0`..`PEC63`).
    const PEC: &'static [Option<CounterSlot>] = first(
        &indexed_by(Self::INFO, "PEC"),
        indexed_len_by(Self::INFO, "PEC"),
    );
    /// MPEC counters by index (the media OAM formats: `MPEC0`..`MPEC7`).
    const MPEC: &'static [Option<CounterSlot>] = first(
        &indexed_by(Self::INFO, "MPEC"),
        indexed_len_by(Self::INFO, "MPEC"),
    );
    /// RPT_ID, if the format has it.
    const RPT_ID: Option<CounterSlot> = named(Self::INFO.counters, "RPT_ID");
    /// TIME_STAMP, if the format has it.
    const TIME_STAMP: Option<CounterSlot> = named(Self::INFO.counters, "TIME_STAMP");
    /// CTX_ID, if the format has it.
    const CTX_ID: Option<CounterSlot> = named(Self::INFO.counters, "CTX_ID");
    /// GPU_TICKS, if the format has it.
    const GPU_TICKS: Option<CounterSlot> = named(Self::INFO.counters, "GPU_TICKS");
    /// Where the format carries the GPU (render) clock: GPU_TICKS where the
    /// layout has it (BDW and later), else C2 on the projects whose layouts
    /// have no GPU_TICKS ([`Project::GPU_CLOCK_IN_C2`]: SNB, IVB, VLV, HSW,
    /// where HSW tools and metric sets read the GPU core clock from C2);
    /// `None` when the format has neither (the SNB/IVB/VLV layouts and
    /// HSW's A13 and A29 carry no C counters).
    const GPU_CLOCK: Option<CounterSlot> = gpu_clock(
        Self::GPU_TICKS,
        Self::C,
        <Self::Project as Project>::GPU_CLOCK_IN_C2,
    );
}

/// GPU_TICKS if present, else C2 where the project says C2 is the clock.
const fn gpu_clock(
    ticks: Option<CounterSlot>,
    c: &[Option<CounterSlot>],
    in_c2: bool,
) -> Option<CounterSlot> {
    match (ticks, in_c2) {
        (Some(t), _) => Some(t),
        (None, true) if c.len() > 2 => c[2],
        _ => None,
    }
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The first `n` entries of `t`.
const fn first(
    t: &'static [Option<CounterSlot>; MAX_INDEXED],
    n: usize,
) -> &'static [Option<CounterSlot>] {
    t.split_at(n).0
}

/// The counter named `name`.
const fn named(counters: &[CounterSlot], name: &str) -> Option<CounterSlot> {
    let mut i = 0;
    while i < counters.len() {
        if same(counters[i].name, name) {
            return Some(counters[i]);
        }
        i += 1;
    }
    None
}

/// The index `n` of a counter named `<kind><n>`.
const fn index_of(name: &str, kind: u8) -> Option<usize> {
    index_after(name, &[kind])
}

/// The index `n` of a counter named `<prefix><n>` (digits only after the prefix).
const fn index_after(name: &str, prefix: &[u8]) -> Option<usize> {
    let name = name.as_bytes();
    if name.len() <= prefix.len() {
        return None;
    }
    let mut k = 0;
    while k < prefix.len() {
        if name[k] != prefix[k] {
            return None;
        }
        k += 1;
    }
    let mut n = 0usize;
    let mut j = prefix.len();
    while j < name.len() {
        if !name[j].is_ascii_digit() {
            return None;
        }
        n = n * 10 + (name[j] - b'0') as usize;
        j += 1;
    }
    // Too large an index stops the build (evaluated in a constant).
    assert!(n < MAX_INDEXED, "report counter index too large");
    Some(n)
}

/// Counters `<kind><n>` by `n`.
const fn indexed(info: &FormatInfo, kind: u8) -> [Option<CounterSlot>; MAX_INDEXED] {
    let counters = info.counters;
    let mut table = [None; MAX_INDEXED];
    let mut i = 0;
    while i < counters.len() {
        if let Some(n) = index_of(counters[i].name, kind) {
            table[n] = Some(counters[i]);
        }
        i += 1;
    }
    table
}

/// Counters `<prefix><n>` by `n`.
const fn indexed_by(info: &FormatInfo, prefix: &str) -> [Option<CounterSlot>; MAX_INDEXED] {
    let counters = info.counters;
    let mut table = [None; MAX_INDEXED];
    let mut i = 0;
    while i < counters.len() {
        if let Some(n) = index_after(counters[i].name, prefix.as_bytes()) {
            table[n] = Some(counters[i]);
        }
        i += 1;
    }
    table
}

/// One past the highest `n` of the counters `<prefix><n>`.
const fn indexed_len_by(info: &FormatInfo, prefix: &str) -> usize {
    let counters = info.counters;
    let mut len = 0;
    let mut i = 0;
    while i < counters.len() {
        if let Some(n) = index_after(counters[i].name, prefix.as_bytes()) {
            if n + 1 > len {
                len = n + 1;
            }
        }
        i += 1;
    }
    len
}

/// One past the highest `n` of the counters `<kind><n>`.
const fn indexed_len(info: &FormatInfo, kind: u8) -> usize {
    let counters = info.counters;
    let mut len = 0;
    let mut i = 0;
    while i < counters.len() {
        if let Some(n) = index_of(counters[i].name, kind) {
            if n + 1 > len {
                len = n + 1;
            }
        }
        i += 1;
    }
    len
}

/// Something done once per report format type (see each project's
/// `reports::visit_all`), e.g. dispatching on a format chosen at run time.
pub trait FormatVisitor {
    /// Called with each format type in turn.
    fn visit<F: ReportFormat>(&mut self);
}

/// One report of format `F`, borrowed from a buffer.
#[derive(Clone, Copy)]
pub struct Report<'a, F> {
    bytes: &'a [u8],
    _format: PhantomData<F>,
}

impl<'a, F: ReportFormat> Report<'a, F> {
    /// View the first `F::INFO.size` bytes of `bytes`; `None` when shorter.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Option<Self> {
        let bytes = bytes.get(..F::INFO.size)?;
        Some(Report {
            bytes,
            _format: PhantomData,
        })
    }

    /// A view of `bytes` without the length check: every read of a counter
    /// beyond the end returns `None` (see [`CounterSlot::read`]).
    pub(crate) fn from_bytes_unchecked(bytes: &'a [u8]) -> Self {
        Report {
            bytes: bytes.get(..F::INFO.size).unwrap_or(bytes),
            _format: PhantomData,
        }
    }

    /// The report's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    #[inline]
    fn slot(&self, table: &[Option<CounterSlot>], i: usize) -> Option<u64> {
        table
            .get(i)
            .copied()
            .flatten()
            .and_then(|s| s.read(self.bytes))
    }

    /// Counter An, if the format carries it.
    #[inline]
    pub fn a(&self, n: usize) -> Option<u64> {
        self.slot(F::A, n)
    }
    /// Counter Bn, if the format carries it.
    #[inline]
    pub fn b(&self, n: usize) -> Option<u64> {
        self.slot(F::B, n)
    }
    /// Counter Cn, if the format carries it.
    #[inline]
    pub fn c(&self, n: usize) -> Option<u64> {
        self.slot(F::C, n)
    }
    /// Counter PECn, if the format carries it.
    #[inline]
    pub fn pec(&self, n: usize) -> Option<u64> {
        self.slot(F::PEC, n)
    }
    /// Counter MPECn, if the format carries it.
    #[inline]
    pub fn mpec(&self, n: usize) -> Option<u64> {
        self.slot(F::MPEC, n)
    }
    /// The report ID dword.
    pub fn rpt_id(&self) -> Option<u32> {
        F::RPT_ID.and_then(|s| s.read(self.bytes)).map(|v| v as u32)
    }
    /// The timestamp.
    pub fn timestamp(&self) -> Option<u64> {
        F::TIME_STAMP.and_then(|s| s.read(self.bytes))
    }
    /// The context ID.
    pub fn ctx_id(&self) -> Option<u32> {
        F::CTX_ID.and_then(|s| s.read(self.bytes)).map(|v| v as u32)
    }
    /// The GPU_TICKS counter (BDW and later; see [`gpu_clock`](Self::gpu_clock)
    /// for every project).
    pub fn gpu_ticks(&self) -> Option<u64> {
        F::GPU_TICKS.and_then(|s| s.read(self.bytes))
    }
    /// The GPU clock, on every project: GPU_TICKS on BDW and later, C2 on HSW
    /// (see [`ReportFormat::GPU_CLOCK`]); `None` for formats with neither.
    /// Counts wrap at the slot's width (32 bits).
    #[inline]
    pub fn gpu_clock(&self) -> Option<u64> {
        F::GPU_CLOCK.and_then(|s| s.read(self.bytes))
    }
    /// Any counter by its layout name.
    pub fn counter(&self, name: &str) -> Option<u64> {
        F::INFO.counter(name).and_then(|s| s.read(self.bytes))
    }
}

impl<F: ReportFormat> core::fmt::Debug for Report<'_, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut m = f.debug_map();
        for s in F::INFO.counters {
            if let Some(v) = s.read(self.bytes) {
                m.entry(&s.name, &v);
            }
        }
        m.finish()
    }
}

/// The whole reports of format `F` in `buffer`, in order (a trailing partial
/// report is not yielded).
pub fn reports<F: ReportFormat>(buffer: &[u8]) -> impl Iterator<Item = Report<'_, F>> {
    buffer
        .chunks_exact(F::INFO.size.max(1))
        .filter_map(Report::new)
}

#[cfg(test)]
mod tests;
