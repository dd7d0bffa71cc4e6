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
    };

    /// The increments of two reports: timestamp, GPU_TICKS (none on HSW,
    /// whose reports have no GPU clock dword), A, B and C (counters past
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
        s
    }
    counter_reads! {
        a "An (`None` when absent or out of range).",
        b "Bn (`None` when absent or out of range).",
        c "Cn (`None` when absent or out of range).",
        perfcnt "PERFCNTn (`None` when absent or out of range).",
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
        }
    }
}

macro_rules! device_vars {
    ($($v:ident $field:ident $doc:literal,)*) => {
        /// A property of the device an equation may name (`$EuCoresTotalCount`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum DeviceVar {
            $(#[doc = $doc] $v,)*
        }
        impl DeviceVar {
            /// Every variable, in declaration order.
            pub const ALL: &'static [DeviceVar] = &[$(DeviceVar::$v),*];
            /// The name without `$` (`EuCoresTotalCount`).
            pub fn name(self) -> &'static str {
                match self { $(DeviceVar::$v => stringify!($v),)* }
            }
            /// The [`DeviceInfo`] field (`eu_cores_total_count`).
            pub fn field(self) -> &'static str {
                match self { $(DeviceVar::$v => stringify!($field),)* }
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
        }

        impl DeviceInfo {
            /// The value of `v`.
            pub fn get(&self, v: DeviceVar) -> u64 {
                match v { $(DeviceVar::$v => self.$field,)* }
            }
            /// Set `v` to `value`.
            pub fn set(&mut self, v: DeviceVar, value: u64) {
                match v { $(DeviceVar::$v => self.$field = value,)* }
            }
        }
    };
}

device_vars! {
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
}

impl DeviceVar {
    /// The variable named `name` (without `$`).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
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
    fn device_variables_name_their_fields() {
        let mut d = DeviceInfo::default();
        for (k, v) in DeviceVar::ALL.iter().enumerate() {
            d.set(*v, k as u64 + 1);
        }
        assert_eq!(d.eu_cores_total_count, 1);
        assert_eq!(d.slice_mask, 5);
        assert_eq!(d.query_mode, 11);
        for (k, v) in DeviceVar::ALL.iter().enumerate() {
            assert_eq!(d.get(*v), k as u64 + 1);
            assert_eq!(DeviceVar::parse(v.name()), Some(*v));
        }
        assert_eq!(DeviceVar::SliceMask.field(), "slice_mask");
        assert_eq!(DeviceVar::parse("Nope"), None);
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
