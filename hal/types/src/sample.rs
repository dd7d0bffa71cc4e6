//! What a counter equation reads: a [`Sample`] of counter increments between
//! two OA reports (`A 7 READ`, `GPU_TIME 0 READ`, ...) and the
//! [`DeviceInfo`] values it names (`$EuCoresTotalCount`, ...).
//!
//! One type on both sides: the metric-set interpreter of `perfregs-codegen`
//! (for sets loaded at run time) and the generated counters of
//! `perfregs-metrics` take the same [`Sample`] and [`DeviceInfo`].

/// A counters a [`Sample`] holds.
pub const A_COUNTERS: usize = 64;
/// B counters a [`Sample`] holds.
pub const B_COUNTERS: usize = 8;
/// C counters a [`Sample`] holds.
pub const C_COUNTERS: usize = 8;
/// PERFCNT registers a [`Sample`] holds.
pub const PERFCNT_COUNTERS: usize = 2;
/// PEC counters a [`Sample`] holds (the Xe2 and later PEC formats: PEC0..PEC63).
pub const PEC_COUNTERS: usize = 64;
/// MPEC counters a [`Sample`] holds (the media OAM formats: MPEC0..MPEC7).
pub const MPEC_COUNTERS: usize = 8;

/// What an equation's `READ` reads (`X n READ`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// `A n`: an A counter.
    A,
    /// `B n`: a B counter.
    B,
    /// `C n`: a C counter.
    C,
    /// `GPU_TIME 0`: timestamp ticks.
    GpuTime,
    /// `GPU_CLOCK 0`: GPU clock ticks (the GPU_TICKS dword; HSW has none).
    GpuClock,
    /// `PERFCNT n`: the OA unit's free-running PERFCNT registers (read by
    /// the driver around a query; not in OA reports).
    PerfCnt,
    /// `PEC n`: a PEC counter (the Xe2 and later PEC report formats).
    Pec,
    /// MPEC n: a media PEC counter of the OAM formats. The files write it
    /// `A n` in a set whose format has MPEC counters and no A counters; the
    /// checker resolves it to this source (token `MPEC`).
    Mpec,
}

impl Source {
    /// Every source, in declaration order.
    pub const ALL: &'static [Source] = &[
        Source::A,
        Source::B,
        Source::C,
        Source::GpuTime,
        Source::GpuClock,
        Source::PerfCnt,
        Source::Pec,
        Source::Mpec,
    ];
    /// The token (`A`, `GPU_TIME`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::A => "A",
            Source::B => "B",
            Source::C => "C",
            Source::GpuTime => "GPU_TIME",
            Source::GpuClock => "GPU_CLOCK",
            Source::PerfCnt => "PERFCNT",
            Source::Pec => "PEC",
            Source::Mpec => "MPEC",
        }
    }
    /// The source whose token is `token`.
    pub fn parse(token: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|s| s.as_str() == token)
    }
}

/// Counter increments between two reports, as [`Sample::from_delta`] takes
/// them (`hal::oa_buffer::ReportDelta` implements it).
pub trait ReportCounts {
    /// Timestamp ticks.
    fn timestamp(&self) -> Option<u64>;
    /// GPU_TICKS increments (`None` where the format has no such dword).
    fn gpu_ticks(&self) -> Option<u64>;
    /// A counters by index.
    fn a_counts(&self) -> &[Option<u64>];
    /// B counters by index.
    fn b_counts(&self) -> &[Option<u64>];
    /// C counters by index.
    fn c_counts(&self) -> &[Option<u64>];
    /// PEC counters by index (none unless the format has them).
    fn pec_counts(&self) -> &[Option<u64>] {
        &[]
    }
    /// MPEC counters by index (none unless the format has them).
    fn mpec_counts(&self) -> &[Option<u64>] {
        &[]
    }
}

/// What changed between two reports (and the PERFCNT registers around
/// them): `None` for what was not measured, which makes an equation reading
/// it unavailable (never 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Timestamp ticks (`GPU_TIME 0`).
    pub gpu_time: Option<u64>,
    /// GPU clock ticks (`GPU_CLOCK 0`: the GPU_TICKS dword).
    pub gpu_clock: Option<u64>,
    /// A counters.
    pub a: [Option<u64>; A_COUNTERS],
    /// B counters.
    pub b: [Option<u64>; B_COUNTERS],
    /// C counters.
    pub c: [Option<u64>; C_COUNTERS],
    /// PERFCNT registers (not in OA reports: read beside them).
    pub perfcnt: [Option<u64>; PERFCNT_COUNTERS],
    /// PEC counters (`PEC n`).
    pub pec: [Option<u64>; PEC_COUNTERS],
    /// MPEC counters (`A n` of a media set).
    pub mpec: [Option<u64>; MPEC_COUNTERS],
}

/// `fn a(&self, n: usize) -> Option<u64>` and the like: counter `n` of a
/// counter array of [`Sample`].
macro_rules! counter_reads {
    ($($array:ident $doc:literal,)*) => {
        $(
            #[doc = $doc]
            #[inline]
            pub fn $array(&self, n: usize) -> Option<u64> {
                self.$array.get(n).copied().flatten()
            }
        )*
    };
}

impl Default for Sample {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Sample {
    /// Nothing measured.
    pub const EMPTY: Sample = Sample {
        gpu_time: None,
        gpu_clock: None,
        a: [None; A_COUNTERS],
        b: [None; B_COUNTERS],
        c: [None; C_COUNTERS],
        perfcnt: [None; PERFCNT_COUNTERS],
        pec: [None; PEC_COUNTERS],
        mpec: [None; MPEC_COUNTERS],
    };

    /// The increments of two reports: timestamp, GPU_TICKS (none on HSW,
    /// whose reports have no GPU clock dword), A, B, C, PEC and MPEC (counters past
    /// this sample's arrays are left out). PERFCNT is not in reports and
    /// stays `None`.
    pub fn from_delta(d: &(impl ReportCounts + ?Sized)) -> Self {
        fn copy(to: &mut [Option<u64>], from: &[Option<u64>]) {
            for (t, f) in to.iter_mut().zip(from) {
                *t = *f;
            }
        }
        let mut s = Self::EMPTY;
        s.gpu_time = d.timestamp();
        s.gpu_clock = d.gpu_ticks();
        copy(&mut s.a, d.a_counts());
        copy(&mut s.b, d.b_counts());
        copy(&mut s.c, d.c_counts());
        copy(&mut s.pec, d.pec_counts());
        copy(&mut s.mpec, d.mpec_counts());
        s
    }
    counter_reads! {
        a "An (`None` when absent or out of range).",
        b "Bn (`None` when absent or out of range).",
        c "Cn (`None` when absent or out of range).",
        perfcnt "PERFCNTn (`None` when absent or out of range).",
        pec "PECn (`None` when absent or out of range).",
        mpec "MPECn (`None` when absent or out of range).",
    }
    /// `source n READ` (`None` when absent or out of range).
    pub fn read(&self, source: Source, n: u64) -> Option<u64> {
        let n = usize::try_from(n).ok()?;
        match source {
            Source::A => self.a(n),
            Source::B => self.b(n),
            Source::C => self.c(n),
            Source::GpuTime => (n == 0).then_some(self.gpu_time).flatten(),
            Source::GpuClock => (n == 0).then_some(self.gpu_clock).flatten(),
            Source::PerfCnt => self.perfcnt(n),
            Source::Pec => self.pec(n),
            Source::Mpec => self.mpec(n),
        }
    }
}

/// Which counters of a [`Sample`] something reads (a counter's equation:
/// `CounterInfo::reads` in `perfregs-metrics`): one bit per counter of each
/// array, bit `n` for counter `n`. A pairing that fills only these
/// (`Pairs::push_into` in `perfregs-metrics`) skips the rest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Reads {
    /// `GPU_TIME 0`.
    pub gpu_time: bool,
    /// `GPU_CLOCK 0`.
    pub gpu_clock: bool,
    /// A counters.
    pub a: u64,
    /// B counters.
    pub b: u64,
    /// C counters.
    pub c: u64,
    /// PERFCNT registers.
    pub perfcnt: u64,
    /// PEC counters.
    pub pec: u64,
    /// MPEC counters.
    pub mpec: u64,
}

// Every counter array of a `Sample` has a bit per counter in a `u64`.
const _: () = assert!(
    A_COUNTERS <= 64
        && B_COUNTERS <= 64
        && C_COUNTERS <= 64
        && PERFCNT_COUNTERS <= 64
        && PEC_COUNTERS <= 64
        && MPEC_COUNTERS <= 64
);

/// Bits `0..n` set.
const fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl Reads {
    /// Nothing read.
    pub const NONE: Reads = Reads {
        gpu_time: false,
        gpu_clock: false,
        a: 0,
        b: 0,
        c: 0,
        perfcnt: 0,
        pec: 0,
        mpec: 0,
    };
    /// Every counter of a [`Sample`].
    pub const ALL: Reads = Reads {
        gpu_time: true,
        gpu_clock: true,
        a: low_bits(A_COUNTERS),
        b: low_bits(B_COUNTERS),
        c: low_bits(C_COUNTERS),
        perfcnt: low_bits(PERFCNT_COUNTERS),
        pec: low_bits(PEC_COUNTERS),
        mpec: low_bits(MPEC_COUNTERS),
    };

    /// Whether nothing is read.
    pub fn is_empty(&self) -> bool {
        *self == Self::NONE
    }

    /// What either reads.
    #[must_use]
    pub fn union(self, o: Reads) -> Reads {
        Reads {
            gpu_time: self.gpu_time | o.gpu_time,
            gpu_clock: self.gpu_clock | o.gpu_clock,
            a: self.a | o.a,
            b: self.b | o.b,
            c: self.c | o.c,
            perfcnt: self.perfcnt | o.perfcnt,
            pec: self.pec | o.pec,
            mpec: self.mpec | o.mpec,
        }
    }

    /// Whether `source n` is read (`false` past the sample's arrays).
    pub fn contains(&self, source: Source, n: u64) -> bool {
        match self.mask(source) {
            Mask::Flag(f) => n == 0 && f,
            Mask::Bits(m) => n < 64 && m >> n & 1 == 1,
        }
    }

    /// Read `source n` too (nothing past the sample's arrays: `source n`
    /// is then never in a sample).
    pub fn insert(&mut self, source: Source, n: u64) {
        if n >= Sample::len(source) as u64 {
            return;
        }
        match source {
            Source::GpuTime => self.gpu_time = true,
            Source::GpuClock => self.gpu_clock = true,
            Source::A => self.a |= 1 << n,
            Source::B => self.b |= 1 << n,
            Source::C => self.c |= 1 << n,
            Source::PerfCnt => self.perfcnt |= 1 << n,
            Source::Pec => self.pec |= 1 << n,
            Source::Mpec => self.mpec |= 1 << n,
        }
    }

    /// Counters read, over every source.
    pub fn count(&self) -> u32 {
        u32::from(self.gpu_time)
            + u32::from(self.gpu_clock)
            + [self.a, self.b, self.c, self.perfcnt, self.pec, self.mpec]
                .iter()
                .map(|m| m.count_ones())
                .sum::<u32>()
    }

    fn mask(&self, source: Source) -> Mask {
        match source {
            Source::GpuTime => Mask::Flag(self.gpu_time),
            Source::GpuClock => Mask::Flag(self.gpu_clock),
            Source::A => Mask::Bits(self.a),
            Source::B => Mask::Bits(self.b),
            Source::C => Mask::Bits(self.c),
            Source::PerfCnt => Mask::Bits(self.perfcnt),
            Source::Pec => Mask::Bits(self.pec),
            Source::Mpec => Mask::Bits(self.mpec),
        }
    }
}

enum Mask {
    Flag(bool),
    Bits(u64),
}

/// The indices of the set bits of `mask`, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let n = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(n)
    })
}

impl Sample {
    /// How many counters of `source` a sample holds (1 for `GPU_TIME` and
    /// `GPU_CLOCK`).
    pub const fn len(source: Source) -> usize {
        match source {
            Source::A => A_COUNTERS,
            Source::B => B_COUNTERS,
            Source::C => C_COUNTERS,
            Source::GpuTime | Source::GpuClock => 1,
            Source::PerfCnt => PERFCNT_COUNTERS,
            Source::Pec => PEC_COUNTERS,
            Source::Mpec => MPEC_COUNTERS,
        }
    }

    /// `source n` to change (`None` past the sample's arrays).
    pub fn slot_mut(&mut self, source: Source, n: u64) -> Option<&mut Option<u64>> {
        let n = usize::try_from(n).ok()?;
        match source {
            Source::A => self.a.get_mut(n),
            Source::B => self.b.get_mut(n),
            Source::C => self.c.get_mut(n),
            Source::GpuTime => (n == 0).then_some(&mut self.gpu_time),
            Source::GpuClock => (n == 0).then_some(&mut self.gpu_clock),
            Source::PerfCnt => self.perfcnt.get_mut(n),
            Source::Pec => self.pec.get_mut(n),
            Source::Mpec => self.mpec.get_mut(n),
        }
    }

    /// Every counter of the sample as (source, index), in [`Source::ALL`]
    /// order.
    pub fn slots() -> impl Iterator<Item = (Source, u64)> {
        Source::ALL
            .iter()
            .flat_map(|s| (0..Self::len(*s) as u64).map(move |n| (*s, n)))
    }
}

macro_rules! device_vars {
    (
        fields { $($v:ident $field:ident $doc:literal,)* }
        aliases { $($alias:ident $target:ident $adoc:literal,)* }
    ) => {
        /// A property of the device an equation may name (`$EuCoresTotalCount`).
        ///
        /// Each names a [`DeviceInfo`] field; an alias (`$XeCoreTotalCount`)
        /// names the field of another variable, as IGT's metric code
        /// generator defines it (`lib/xe/oa-configs/codegen.py`,
        /// `hw_vars_mapping`, IGT b3d809d5).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum DeviceVar {
            $(#[doc = $doc] $v,)*
            $(#[doc = $adoc] $alias,)*
        }
        impl DeviceVar {
            /// Every variable, in declaration order (aliases last).
            pub const ALL: &'static [DeviceVar] = &[$(DeviceVar::$v,)* $(DeviceVar::$alias,)*];
            /// The name without `$` (`EuCoresTotalCount`).
            pub fn name(self) -> &'static str {
                match self {
                    $(DeviceVar::$v => stringify!($v),)*
                    $(DeviceVar::$alias => stringify!($alias),)*
                }
            }
            /// The variable whose [`DeviceInfo`] field it reads: itself, or
            /// the target of an alias.
            pub fn target(self) -> DeviceVar {
                match self {
                    $(DeviceVar::$v => DeviceVar::$v,)*
                    $(DeviceVar::$alias => DeviceVar::$target,)*
                }
            }
            /// The [`DeviceInfo`] field (`eu_cores_total_count`).
            pub fn field(self) -> &'static str {
                match self.target() {
                    $(DeviceVar::$v => stringify!($field),)*
                    _ => "",
                }
            }
        }

        /// The device values equations name (`$EuCoresTotalCount`, ...).
        ///
        /// [`DeviceInfo::default()`] is all zeros: counters dividing by a
        /// device value (most of them divide by `$EuCoresTotalCount` or
        /// `$GpuTimestampFrequency`) then give 0, as IGT's C gives for a
        /// division by zero, and counters gated on a slice or subslice mask
        /// are unavailable. Start from the running device's values, or from a
        /// part's (the catalogue's parts: `hal::part("tgl", 2)`, `hal::PARTS`).
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct DeviceInfo {
            $(#[doc = concat!("`$", stringify!($v), "`: ", $doc)] pub $field: u64,)*
            /// (Dual) subslices (Xe cores) a slice has room for: XeCore `n`
            /// of slice `s` is bit `s * subslices_per_slice + n` of the
            /// (dual) subslice mask ([`DeviceInfo::gt_slice_xe_core`]; the
            /// catalogue's `topology: subslices_per_slice`). Not an equation
            /// variable.
            pub subslices_per_slice: u64,
        }

        impl DeviceInfo {
            /// The value of `v`.
            pub fn get(&self, v: DeviceVar) -> u64 {
                match v.target() {
                    $(DeviceVar::$v => self.$field,)*
                    _ => 0,
                }
            }
            /// Set `v` to `value` (an alias sets its target).
            pub fn set(&mut self, v: DeviceVar, value: u64) {
                match v.target() {
                    $(DeviceVar::$v => self.$field = value,)*
                    _ => {}
                }
            }
        }
    };
}

device_vars! {
    fields {
        EuCoresTotalCount eu_cores_total_count "Number of EUs.",
        EuSlicesTotalCount eu_slices_total_count "Number of slices.",
        EuSubslicesTotalCount eu_subslices_total_count "Number of subslices.",
        EuThreadsCount eu_threads_count "Hardware threads per EU.",
        SliceMask slice_mask "Enabled slices, one bit each.",
        SubsliceMask subslice_mask "Enabled subslices, one bit each.",
        DualSubsliceMask dual_subslice_mask "Enabled dual subslices, one bit each.",
        GpuMaxFrequency gpu_max_frequency "Highest GPU frequency (Hz).",
        GpuMinFrequency gpu_min_frequency "Lowest GPU frequency (Hz).",
        GpuTimestampFrequency gpu_timestamp_frequency "Timestamp frequency (Hz).",
        QueryMode query_mode "Query mode (non-zero for a query, as IGT's `query_mode`).",
        SkuRevisionId sku_revision_id "The part's revision (PCI revision ID: its stepping); Gen9 sets gate some register blocks on it.",
        L3BankTotalCount l3_bank_total_count "Number of L3 banks (0: unknown; IGT's `l3_banks`, which IGT never fills in, so its counters dividing by it give 0).",
        SqidiTotalCount sqidi_total_count "Number of SQIDI units (0: unknown; IGT's `n_sq_idis`, never filled in by IGT).",
        L3NodeTotalCount l3_node_total_count "Number of L3 nodes (0: unknown; IGT's `n_l3_nodes`, never filled in by IGT).",
        GeometryPipeTotalCount geometry_pipe_total_count "Number of geometry pipelines (0: unknown; IGT's `n_geom_pipes`, never filled in by IGT).",
        DepthPipeTotalCount depth_pipe_total_count "Number of depth pipelines (0: unknown; IGT's `n_depth_pipes`, never filled in by IGT).",
        ColorPipeTotalCount color_pipe_total_count "Number of color pipelines (0: unknown; IGT's `n_color_pipes`, never filled in by IGT).",
    }
    aliases {
        XeCoreTotalCount EuSubslicesTotalCount "Number of Xe cores: IGT's `n_eu_sub_slices`, the (dual) subslice count (`$EuSubslicesTotalCount`).",
        XeCoreMask SliceMask "IGT defines it as the slice mask (`slice_mask`), not a mask of Xe cores: `$SliceMask`.",
        VectorEngineTotalCount EuCoresTotalCount "Number of vector engines: IGT's `n_eus` (`$EuCoresTotalCount`).",
        VectorEngineThreadsCount EuThreadsCount "Threads per vector engine: IGT's `eu_threads_count` (`$EuThreadsCount`).",
        SliceTotalCount EuSlicesTotalCount "Number of slices: IGT's `n_eu_slices` (`$EuSlicesTotalCount`).",
        ComputeEngineTotalCount EuCoresTotalCount "IGT defines it as `n_eus`, the EU count (`$EuCoresTotalCount`), not a count of compute engines.",
        CopyEngineTotalCount EuCoresTotalCount "IGT defines it as `n_eus`, the EU count (`$EuCoresTotalCount`), not a count of copy engines.",
    }
}

impl DeviceVar {
    /// The variable named `name` (without `$`).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}

/// A topology predicate an equation may name: 1 when the slice or Xe core
/// is present on the device, else 0 (IGT's `slice_available` and
/// `subslice_available`; see [`DeviceInfo::topology`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TopologyVar {
    /// `$GtSlice<s>`: slice `s` is present.
    Slice(u32),
    /// `$GtSlice<s>XeCore<n>`: Xe core `n` of slice `s` is present.
    SliceXeCore(u32, u32),
    /// `$GtXeCore<n>`: Xe core `n` (counted over the whole GT) is present.
    XeCore(u32),
}

impl TopologyVar {
    /// The predicate named `name` (without `$`): `GtSlice1`,
    /// `GtSlice1XeCore2`, `GtXeCore7` (decimal indices below 64).
    pub fn parse(name: &str) -> Option<Self> {
        fn index(s: &str) -> Option<u32> {
            if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse::<u32>().ok().filter(|n| *n < 64)
        }
        if let Some(n) = name.strip_prefix("GtXeCore") {
            return index(n).map(TopologyVar::XeCore);
        }
        let rest = name.strip_prefix("GtSlice")?;
        match rest.find("XeCore") {
            Some(k) => Some(TopologyVar::SliceXeCore(
                index(&rest[..k])?,
                index(&rest[k + "XeCore".len()..])?,
            )),
            None => index(rest).map(TopologyVar::Slice),
        }
    }
}

impl core::fmt::Display for TopologyVar {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            TopologyVar::Slice(s) => write!(f, "GtSlice{s}"),
            TopologyVar::SliceXeCore(s, n) => write!(f, "GtSlice{s}XeCore{n}"),
            TopologyVar::XeCore(n) => write!(f, "GtXeCore{n}"),
        }
    }
}

impl DeviceInfo {
    /// The Xe cores: the dual subslice mask where the part has dual
    /// subslices, else the subslice mask.
    pub fn xe_core_mask(&self) -> u64 {
        if self.dual_subslice_mask != 0 {
            self.dual_subslice_mask
        } else {
            self.subslice_mask
        }
    }
    /// `$GtSlice<s>`: 1 when bit `s` of the slice mask is set.
    pub fn gt_slice(&self, s: u32) -> u64 {
        bit(self.slice_mask, u64::from(s))
    }
    /// `$GtSlice<s>XeCore<n>`: 1 when Xe core `n` of slice `s` is present:
    /// bit `s * subslices_per_slice + n` of [`xe_core_mask`](Self::xe_core_mask)
    /// (0 for an `n` beyond the slice's room).
    pub fn gt_slice_xe_core(&self, s: u32, n: u32) -> u64 {
        let n = u64::from(n);
        if n >= self.subslices_per_slice {
            return 0;
        }
        let at = u64::from(s)
            .saturating_mul(self.subslices_per_slice)
            .saturating_add(n);
        bit(self.xe_core_mask(), at)
    }
    /// `$GtXeCore<n>`: 1 when bit `n` of [`xe_core_mask`](Self::xe_core_mask) is set.
    pub fn gt_xe_core(&self, n: u32) -> u64 {
        bit(self.xe_core_mask(), u64::from(n))
    }
    /// The value of a topology predicate (1 or 0).
    pub fn topology(&self, t: TopologyVar) -> u64 {
        match t {
            TopologyVar::Slice(s) => self.gt_slice(s),
            TopologyVar::SliceXeCore(s, n) => self.gt_slice_xe_core(s, n),
            TopologyVar::XeCore(n) => self.gt_xe_core(n),
        }
    }
}

/// Bit `at` of `mask` (0 past bit 63).
fn bit(mask: u64, at: u64) -> u64 {
    if at >= 64 {
        0
    } else {
        mask >> at & 1
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn reads_follow_the_source_and_index() {
        let mut s = Sample::EMPTY;
        s.a[3] = Some(5);
        s.b[1] = Some(6);
        s.c[7] = Some(7);
        s.perfcnt[1] = Some(8);
        s.gpu_time = Some(9);
        assert_eq!(s.read(Source::A, 3), Some(5));
        assert_eq!(s.read(Source::A, 4), None);
        assert_eq!(s.read(Source::A, 1000), None);
        assert_eq!(s.read(Source::B, 1), Some(6));
        assert_eq!(s.read(Source::C, 7), Some(7));
        assert_eq!(s.read(Source::PerfCnt, 1), Some(8));
        assert_eq!(s.read(Source::GpuTime, 0), Some(9));
        assert_eq!(s.read(Source::GpuTime, 1), None);
        assert_eq!(s.read(Source::GpuClock, 0), None);
        assert_eq!(Sample::default(), Sample::EMPTY);
        for src in Source::ALL {
            assert_eq!(Source::parse(src.as_str()), Some(*src));
        }
        assert_eq!(Source::parse("D"), None);
    }

    #[test]
    fn reads_mark_each_slot_once() {
        let mut r = Reads::NONE;
        assert!(r.is_empty());
        r.insert(Source::A, 63);
        r.insert(Source::A, 64); // past the array: never in a sample
        r.insert(Source::GpuClock, 0);
        r.insert(Source::GpuTime, 1); // GPU_TIME has only 0
        r.insert(Source::B, 7);
        assert!(r.contains(Source::A, 63) && !r.contains(Source::A, 62));
        assert!(!r.contains(Source::A, 64) && !r.contains(Source::A, 1000));
        assert!(r.contains(Source::GpuClock, 0) && !r.contains(Source::GpuTime, 0));
        assert!(!r.contains(Source::GpuClock, 1));
        assert_eq!(r.count(), 3);
        assert_eq!(r.a, 1 << 63);
        let all = Sample::slots().count();
        assert_eq!(Reads::ALL.count() as usize, all);
        let mut every = Reads::NONE;
        for (s, n) in Sample::slots() {
            assert!(Reads::ALL.contains(s, n), "{s:?} {n}");
            every.insert(s, n);
        }
        assert_eq!(every, Reads::ALL);
        assert_eq!(r.union(Reads::NONE), r);
        assert_eq!(Reads::NONE.union(r).union(Reads::ALL), Reads::ALL);
        let got: std::vec::Vec<usize> = bits(0b1010_0001).collect();
        assert_eq!(got, [0, 5, 7]);
        assert_eq!(bits(1 << 63).collect::<std::vec::Vec<_>>(), [63]);
    }

    #[test]
    fn slots_are_what_read_reads() {
        let mut s = Sample::EMPTY;
        for (k, (src, n)) in Sample::slots().enumerate() {
            *s.slot_mut(src, n).expect("in range") = Some(k as u64 + 1);
        }
        for (k, (src, n)) in Sample::slots().enumerate() {
            assert_eq!(s.read(src, n), Some(k as u64 + 1), "{src:?} {n}");
        }
        assert!(s.slot_mut(Source::A, A_COUNTERS as u64).is_none());
        assert!(s.slot_mut(Source::GpuTime, 1).is_none());
    }

    #[test]
    fn device_variables_name_their_fields() {
        let plain: std::vec::Vec<DeviceVar> = DeviceVar::ALL
            .iter()
            .copied()
            .filter(|v| v.target() == *v)
            .collect();
        let mut d = DeviceInfo::default();
        for (k, v) in plain.iter().enumerate() {
            d.set(*v, k as u64 + 1);
        }
        assert_eq!(d.eu_cores_total_count, 1);
        assert_eq!(d.slice_mask, 5);
        assert_eq!(d.query_mode, 11);
        for (k, v) in plain.iter().enumerate() {
            assert_eq!(d.get(*v), k as u64 + 1);
            assert_eq!(DeviceVar::parse(v.name()), Some(*v));
        }
        assert_eq!(DeviceVar::SliceMask.field(), "slice_mask");
        assert_eq!(DeviceVar::parse("Nope"), None);
    }

    /// The aliases read what IGT's `hw_vars_mapping` (lib/xe/oa-configs/codegen.py,
    /// IGT b3d809d5) reads: written out here from that table, not from ours.
    #[test]
    fn aliases_read_the_fields_igt_names() {
        let d = DeviceInfo {
            eu_cores_total_count: 96,
            eu_slices_total_count: 3,
            eu_subslices_total_count: 12,
            eu_threads_count: 8,
            slice_mask: 0x7,
            ..DeviceInfo::default()
        };
        for (name, want) in [
            ("XeCoreTotalCount", 12),       // n_eu_sub_slices
            ("XeCoreMask", 0x7),            // slice_mask
            ("VectorEngineTotalCount", 96), // n_eus
            ("VectorEngineThreadsCount", 8),
            ("SliceTotalCount", 3),          // n_eu_slices
            ("ComputeEngineTotalCount", 96), // n_eus
            ("CopyEngineTotalCount", 96),    // n_eus
            ("L3BankTotalCount", 0),         // l3_banks: never filled in
            ("SqidiTotalCount", 0),
            ("L3NodeTotalCount", 0),
            ("GeometryPipeTotalCount", 0),
            ("DepthPipeTotalCount", 0),
            ("ColorPipeTotalCount", 0),
        ] {
            let v = DeviceVar::parse(name).expect(name);
            assert_eq!(d.get(v), want, "{name}");
        }
        let mut e = d;
        e.set(DeviceVar::XeCoreTotalCount, 5);
        assert_eq!(e.eu_subslices_total_count, 5);
    }

    #[test]
    fn topology_predicates_parse_and_read_the_masks() {
        use TopologyVar::*;
        assert_eq!(TopologyVar::parse("GtSlice2"), Some(Slice(2)));
        assert_eq!(
            TopologyVar::parse("GtSlice1XeCore3"),
            Some(SliceXeCore(1, 3))
        );
        assert_eq!(TopologyVar::parse("GtXeCore27"), Some(XeCore(27)));
        for bad in [
            "GtSlice",
            "GtSliceX",
            "GtXeCore",
            "GtSlice1XeCore",
            "GtXeCore64",
            "GtSlice001",
        ] {
            assert_eq!(TopologyVar::parse(bad), None, "{bad}");
        }
        for t in [Slice(2), SliceXeCore(1, 3), XeCore(27)] {
            assert_eq!(TopologyVar::parse(&std::format!("{t}")), Some(t));
        }
        // Slices 2 and 3 of 4 Xe cores each: Xe cores 8..15.
        let d = DeviceInfo {
            slice_mask: 0xc,
            dual_subslice_mask: 0xff00,
            subslice_mask: 0xff00,
            subslices_per_slice: 4,
            ..DeviceInfo::default()
        };
        assert_eq!((d.gt_slice(0), d.gt_slice(2), d.gt_slice(3)), (0, 1, 1));
        assert_eq!(d.gt_slice_xe_core(2, 0), 1);
        assert_eq!(d.gt_slice_xe_core(3, 3), 1);
        assert_eq!(d.gt_slice_xe_core(0, 0), 0);
        assert_eq!(d.gt_slice_xe_core(1, 4), 0, "beyond the slice's room");
        assert_eq!((d.gt_xe_core(7), d.gt_xe_core(8)), (0, 1));
        assert_eq!(d.topology(SliceXeCore(2, 1)), 1);
        assert_eq!(d.gt_xe_core(64), 0);
        assert_eq!(d.gt_slice(200), 0);
    }

    #[test]
    fn default_is_zero() {
        let z = DeviceInfo::default();
        assert!(DeviceVar::ALL.iter().all(|v| z.get(*v) == 0));
    }

    struct Counts;
    impl ReportCounts for Counts {
        fn timestamp(&self) -> Option<u64> {
            Some(1)
        }
        fn gpu_ticks(&self) -> Option<u64> {
            None
        }
        fn a_counts(&self) -> &[Option<u64>] {
            &[Some(2), None, Some(3)]
        }
        fn b_counts(&self) -> &[Option<u64>] {
            &[Some(4); 20]
        }
        fn c_counts(&self) -> &[Option<u64>] {
            &[]
        }
    }

    #[test]
    fn a_delta_fills_what_it_carries() {
        let s = Sample::from_delta(&Counts);
        assert_eq!((s.gpu_time, s.gpu_clock), (Some(1), None));
        assert_eq!(
            (s.a(0), s.a(1), s.a(2), s.a(3)),
            (Some(2), None, Some(3), None)
        );
        assert_eq!(s.b, [Some(4); B_COUNTERS]);
        assert_eq!(s.c, [None; C_COUNTERS]);
        assert_eq!(s.perfcnt, [None; PERFCNT_COUNTERS]);
    }
}
