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
        /// part's ([`DeviceInfo::preset`], [`DeviceInfo::BDW_GT2`], ...).
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

const MHZ: u64 = 1_000_000;

/// The values common to the presets: one slice, 7 threads per EU, 300 MHz
/// lowest frequency, not a query.
const GEN_COMMON: DeviceInfo = DeviceInfo {
    eu_cores_total_count: 0,
    eu_slices_total_count: 1,
    eu_subslices_total_count: 0,
    eu_threads_count: 7,
    slice_mask: 0x1,
    subslice_mask: 0,
    dual_subslice_mask: 0,
    gpu_max_frequency: 0,
    gpu_min_frequency: 300 * MHZ,
    gpu_timestamp_frequency: 0,
    query_mode: 0,
    sku_revision_id: 0,
};

impl DeviceInfo {
    /// Haswell GT2: 20 EUs in 2 subslices, 1.2 GHz, a 12.5 MHz timestamp.
    pub const HSW_GT2: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 20,
        eu_subslices_total_count: 2,
        subslice_mask: 0x3,
        gpu_max_frequency: 1200 * MHZ,
        gpu_timestamp_frequency: 12_500_000,
        ..GEN_COMMON
    };
    /// Broadwell GT2: 24 EUs in 3 subslices, 1 GHz, a 12.5 MHz timestamp.
    pub const BDW_GT2: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 24,
        eu_subslices_total_count: 3,
        subslice_mask: 0x7,
        gpu_max_frequency: 1000 * MHZ,
        gpu_timestamp_frequency: 12_500_000,
        ..GEN_COMMON
    };
    /// Tiger Lake GT1: 32 EUs in 2 dual subslices, 1.35 GHz, a 19.2 MHz
    /// timestamp (the values of `oa-tglgt1.xml`'s part: Mesa's `tgl_gt1` has
    /// 2 dual subslices, and the file's sets test dual subslices 0 and 1
    /// only; before issue 18 this preset said 48 EUs in 3).
    pub const TGL_GT1: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 32,
        eu_subslices_total_count: 2,
        subslice_mask: 0x3,
        dual_subslice_mask: 0x3,
        gpu_max_frequency: 1350 * MHZ,
        gpu_timestamp_frequency: 19_200_000,
        ..GEN_COMMON
    };
    /// Tiger Lake GT2: 96 EUs in 6 dual subslices, 1.35 GHz, a 19.2 MHz
    /// timestamp (the values of `oa-tglgt2.xml`'s part).
    pub const TGL_GT2: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 96,
        eu_subslices_total_count: 6,
        subslice_mask: 0x3f,
        dual_subslice_mask: 0x3f,
        ..Self::TGL_GT1
    };

    // Gen8 LP .. Gen12 parts (issue 18). Topologies: Mesa
    // src/intel/dev/intel_device_info.c (slices, subslices, EUs per
    // subslice of the named `intel_device_info_*`; CNL from its older
    // gen_device_info.c); masks as IGT's lib/i915/perf.c builds them (3 bits
    // a slice before Gen11, 8 from Gen11; dual subslices on Gen12); threads
    // per EU as IGT's perf.c (7, 6 on Gen9 LP); timestamp frequencies as
    // i915's gt/intel_gt_clock_utils.c computes them (see each part);
    // frequencies: the named part's graphics base and maximum dynamic
    // frequency as Intel's product specifications (ark.intel.com) give them,
    // transcribed without a stored copy to cite (only CFL GT3's 300-1200 MHz
    // was checked against a stored page): they are fallbacks, real machines
    // report theirs through sysfs; `sku_revision_id`: the PCI
    // revision of the highest GT stepping in i915's intel_step.c table of
    // the platform (the kernel keeps production revisions only).

    /// Cherryview (Gen8 LP): 16 EUs in 1 slice × 2 subslices of 8 (Mesa
    /// `chv`), e.g. Atom x7-Z8700: 200-600 MHz; 12.5 MHz timestamp (i915:
    /// Gen5-Gen8). `sku_revision_id` 0: i915 keeps no CHV revision table and
    /// `oa-chv.xml` tests none.
    pub const CHV: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 16,
        eu_subslices_total_count: 2,
        subslice_mask: 0x3,
        gpu_min_frequency: 200 * MHZ,
        gpu_max_frequency: 600 * MHZ,
        gpu_timestamp_frequency: 12_500_000,
        ..GEN_COMMON
    };
    /// Skylake GT2: 24 EUs in 1 slice × 3 subslices of 8 (Mesa `skl_gt2`),
    /// e.g. Core i7-6700K (HD Graphics 530): 350-1150 MHz; 12 MHz timestamp
    /// (i915 Gen9: 24 MHz crystal, CTC shift 2; Mesa Gen9: 12 MHz); PCI
    /// revision 0x09 (J0 in i915's `skl_revids`).
    pub const SKL_GT2: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 24,
        eu_subslices_total_count: 3,
        subslice_mask: 0x7,
        gpu_min_frequency: 350 * MHZ,
        gpu_max_frequency: 1150 * MHZ,
        gpu_timestamp_frequency: 12_000_000,
        sku_revision_id: 0x09,
        ..GEN_COMMON
    };
    /// Skylake GT3: 48 EUs in 2 slices × 3 subslices of 8 (Mesa `skl_gt3`),
    /// e.g. Core i7-6567U (Iris Graphics 550): 300-1100 MHz; timestamp and
    /// revision as [`DeviceInfo::SKL_GT2`].
    pub const SKL_GT3: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 48,
        eu_slices_total_count: 2,
        eu_subslices_total_count: 6,
        slice_mask: 0x3,
        subslice_mask: 0x3f,
        gpu_min_frequency: 300 * MHZ,
        gpu_max_frequency: 1100 * MHZ,
        ..Self::SKL_GT2
    };
    /// Skylake GT4: 72 EUs in 3 slices × 3 subslices of 8 (Mesa `skl_gt4`),
    /// e.g. Core i7-6770HQ (Iris Pro Graphics 580): 350-950 MHz; timestamp
    /// and revision as [`DeviceInfo::SKL_GT2`].
    pub const SKL_GT4: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 72,
        eu_slices_total_count: 3,
        eu_subslices_total_count: 9,
        slice_mask: 0x7,
        subslice_mask: 0x1ff,
        gpu_min_frequency: 350 * MHZ,
        gpu_max_frequency: 950 * MHZ,
        ..Self::SKL_GT2
    };
    /// Broxton (Gen9 LP): 18 EUs in 1 slice × 3 subslices of 6, 6 threads an
    /// EU (Mesa `bxt`, IGT perf.c), e.g. Pentium N4200 (HD Graphics 505):
    /// 200-750 MHz; 19.2 MHz timestamp (i915: Gen9 LP crystal; Mesa Gen9
    /// LP); PCI revision 0x0D (E0 in i915's `bxt_revids`).
    pub const BXT: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 18,
        eu_subslices_total_count: 3,
        eu_threads_count: 6,
        subslice_mask: 0x7,
        gpu_min_frequency: 200 * MHZ,
        gpu_max_frequency: 750 * MHZ,
        gpu_timestamp_frequency: 19_200_000,
        sku_revision_id: 0x0D,
        ..GEN_COMMON
    };
    /// Kaby Lake GT2: 24 EUs in 1 slice × 3 subslices of 8 (Mesa
    /// `kbl_gt2`), e.g. Core i7-7700K (HD Graphics 630): 350-1150 MHz;
    /// 12 MHz timestamp (Gen9); PCI revision 0x07 (G0 in i915's
    /// `kbl_revids`).
    pub const KBL_GT2: DeviceInfo = DeviceInfo {
        sku_revision_id: 0x07,
        ..Self::SKL_GT2
    };
    /// Kaby Lake GT3: 48 EUs in 2 slices × 3 subslices of 8 (Mesa
    /// `kbl_gt3`), e.g. Core i7-7567U (Iris Plus Graphics 650):
    /// 300-1150 MHz; timestamp and revision as [`DeviceInfo::KBL_GT2`].
    pub const KBL_GT3: DeviceInfo = DeviceInfo {
        gpu_max_frequency: 1150 * MHZ,
        sku_revision_id: 0x07,
        ..Self::SKL_GT3
    };
    /// Gemini Lake (Gen9 LP): 18 EUs in 1 slice × 3 subslices of 6, 6
    /// threads an EU (Mesa `glk`, IGT perf.c), e.g. Pentium Silver J5005
    /// (UHD Graphics 605): 250-800 MHz; 19.2 MHz timestamp (Gen9 LP); PCI
    /// revision 0x03 (B0 in i915's `glk_revids`).
    pub const GLK: DeviceInfo = DeviceInfo {
        gpu_min_frequency: 250 * MHZ,
        gpu_max_frequency: 800 * MHZ,
        sku_revision_id: 0x03,
        ..Self::BXT
    };
    /// Coffee Lake GT2: 24 EUs in 1 slice × 3 subslices of 8 (Mesa
    /// `cfl_gt2`), e.g. Core i7-8700K (UHD Graphics 630): 350-1200 MHz;
    /// 12 MHz timestamp (Gen9). `sku_revision_id` 0: i915 keeps no CFL
    /// revision table and the CFL files test none.
    pub const CFL_GT2: DeviceInfo = DeviceInfo {
        gpu_max_frequency: 1200 * MHZ,
        sku_revision_id: 0,
        ..Self::SKL_GT2
    };
    /// Coffee Lake GT3: 48 EUs in 2 slices × 3 subslices of 8 (Mesa
    /// `cfl_gt3`), e.g. Core i7-8559U (Iris Plus Graphics 655):
    /// 300-1200 MHz; timestamp and revision as [`DeviceInfo::CFL_GT2`].
    pub const CFL_GT3: DeviceInfo = DeviceInfo {
        gpu_max_frequency: 1200 * MHZ,
        sku_revision_id: 0,
        ..Self::SKL_GT3
    };
    /// Cannon Lake GT2 (Gen10): 40 EUs in 2 slices of 3 and 2 subslices of 8
    /// (Mesa `gen_device_info_cnl_gt2`; subslice mask 0x1f: slice 0 bits
    /// 0-2, slice 1 bits 3-4, what `oa-cnl.xml` tests); 19.2 MHz timestamp
    /// (i915 Gen10: crystal, CTC shift 3; Mesa Gen10). The one CNL product
    /// (Core i3-8121U) shipped with its GPU fused off, so the frequencies
    /// are stand-ins (ICL's [`DeviceInfo::ICL`]: 300-1100 MHz), not a CNL
    /// part's; `sku_revision_id` 0: i915 keeps no CNL revision table and
    /// `oa-cnl.xml` tests none.
    pub const CNL: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 40,
        eu_slices_total_count: 2,
        eu_subslices_total_count: 5,
        slice_mask: 0x3,
        subslice_mask: 0x1f,
        gpu_min_frequency: 300 * MHZ,
        gpu_max_frequency: 1100 * MHZ,
        gpu_timestamp_frequency: 19_200_000,
        ..GEN_COMMON
    };
    /// Ice Lake GT2 (Gen11): 64 EUs in 1 slice × 8 subslices of 8 (Mesa
    /// `icl_gt2`), e.g. Core i7-1065G7 (Iris Plus Graphics): 300-1100 MHz;
    /// 19.2 MHz timestamp (i915 Gen11: 19.2 MHz crystal, CTC shift 3); PCI
    /// revision 0x07 (D0 in i915's `icl_revids`).
    pub const ICL: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 64,
        eu_subslices_total_count: 8,
        subslice_mask: 0xff,
        gpu_min_frequency: 300 * MHZ,
        gpu_max_frequency: 1100 * MHZ,
        gpu_timestamp_frequency: 19_200_000,
        sku_revision_id: 0x07,
        ..GEN_COMMON
    };
    /// Elkhart Lake (Gen11 LP): 32 EUs in 1 slice × 4 subslices of 8 (Mesa
    /// `ehl_4x8`), e.g. Atom x6425E (UHD Graphics): 500-750 MHz; 19.2 MHz
    /// timestamp (as ICL); PCI revision 0x01 (B0 in i915's
    /// `jsl_ehl_revids`).
    pub const EHL: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 32,
        eu_subslices_total_count: 4,
        subslice_mask: 0xf,
        gpu_min_frequency: 500 * MHZ,
        gpu_max_frequency: 750 * MHZ,
        sku_revision_id: 0x01,
        ..Self::ICL
    };
    /// Rocket Lake GT1 (Gen12): 32 EUs in 2 dual subslices of 16 (Mesa
    /// `rkl_gt1`), e.g. Core i9-11900K (UHD Graphics 750): 350-1300 MHz;
    /// 19.2 MHz timestamp (as TGL); PCI revision 0x04 (C0 in i915's
    /// `rkl_revids`).
    pub const RKL: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 32,
        eu_subslices_total_count: 2,
        subslice_mask: 0x3,
        dual_subslice_mask: 0x3,
        gpu_min_frequency: 350 * MHZ,
        gpu_max_frequency: 1300 * MHZ,
        gpu_timestamp_frequency: 19_200_000,
        sku_revision_id: 0x04,
        ..GEN_COMMON
    };
    /// Alder Lake-P GT2 (Gen12): 96 EUs in 6 dual subslices of 16 (Mesa
    /// `adl_gt2`; `oa-adl.xml` tests 6 dual subslices), e.g. Core i7-1260P
    /// (Iris Xe Graphics): up to 1400 MHz (the specification gives no
    /// lowest: 300 MHz as the other presets); 19.2 MHz timestamp (as TGL);
    /// PCI revision 0x0C (GT C0 in i915's `adlp_revids`).
    pub const ADL: DeviceInfo = DeviceInfo {
        eu_cores_total_count: 96,
        eu_subslices_total_count: 6,
        subslice_mask: 0x3f,
        dual_subslice_mask: 0x3f,
        gpu_max_frequency: 1400 * MHZ,
        gpu_timestamp_frequency: 19_200_000,
        sku_revision_id: 0x0C,
        ..GEN_COMMON
    };
    /// DG1 (Gen12 discrete): 96 EUs in 6 dual subslices of 16 (Mesa `dg1`),
    /// e.g. Iris Xe MAX: up to 1650 MHz (no lowest given: 300 MHz as the
    /// other presets); 19.2 MHz timestamp (as TGL); PCI revision 0x01 (B0
    /// in i915's `dg1_revids`).
    pub const DG1: DeviceInfo = DeviceInfo {
        gpu_max_frequency: 1650 * MHZ,
        sku_revision_id: 0x01,
        ..Self::ADL
    };

    /// Every preset: (project, GT number, values). Parts whose PCI ids name
    /// no GT (CHV, BXT, GLK, CNL, ICL, EHL, RKL, ADL, DG1) are keyed by the
    /// GT Mesa's device table gives them (i915's for CNL: `.gt = 2`).
    pub const PRESETS: &'static [(&'static str, u8, DeviceInfo)] = &[
        ("hsw", 2, Self::HSW_GT2),
        ("bdw", 2, Self::BDW_GT2),
        ("chv", 1, Self::CHV),
        ("skl", 2, Self::SKL_GT2),
        ("skl", 3, Self::SKL_GT3),
        ("skl", 4, Self::SKL_GT4),
        ("bxt", 1, Self::BXT),
        ("kbl", 2, Self::KBL_GT2),
        ("kbl", 3, Self::KBL_GT3),
        ("glk", 1, Self::GLK),
        ("cfl", 2, Self::CFL_GT2),
        ("cfl", 3, Self::CFL_GT3),
        ("cnl", 2, Self::CNL),
        ("icl", 2, Self::ICL),
        ("ehl", 1, Self::EHL),
        ("tgl", 1, Self::TGL_GT1),
        ("tgl", 2, Self::TGL_GT2),
        ("rkl", 1, Self::RKL),
        ("adl", 2, Self::ADL),
        ("dg1", 2, Self::DG1),
    ];

    /// The values of part GT`gt` of `project` (`"hsw"`, `"bdw"`, `"tgl"`):
    /// `None` for a part without a preset.
    ///
    /// ```
    /// use perfregs_types::DeviceInfo;
    /// assert_eq!(DeviceInfo::preset("tgl", 2), Some(DeviceInfo::TGL_GT2));
    /// assert_eq!(DeviceInfo::preset("tgl", 3), None);
    /// ```
    pub fn preset(project: &str, gt: u8) -> Option<DeviceInfo> {
        Self::PRESETS
            .iter()
            .find(|(p, g, _)| *p == project && *g == gt)
            .map(|(_, _, d)| *d)
    }

    /// The preset of part GT`gt` of `project`, or (GT unknown or without a
    /// preset) the project's first preset: `None` for a project without one.
    ///
    /// ```
    /// use perfregs_types::DeviceInfo;
    /// assert_eq!(DeviceInfo::preset_or_first("tgl", Some(2)), Some(DeviceInfo::TGL_GT2));
    /// assert_eq!(DeviceInfo::preset_or_first("tgl", Some(3)), Some(DeviceInfo::TGL_GT1));
    /// assert_eq!(DeviceInfo::preset_or_first("bdw", None), Some(DeviceInfo::BDW_GT2));
    /// assert_eq!(DeviceInfo::preset_or_first("snb", Some(2)), None);
    /// ```
    pub fn preset_or_first(project: &str, gt: Option<u8>) -> Option<DeviceInfo> {
        gt.and_then(|g| Self::preset(project, g)).or_else(|| {
            Self::PRESETS
                .iter()
                .find(|(p, _, _)| *p == project)
                .map(|(_, _, d)| *d)
        })
    }
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
    use std::{format, vec::Vec};

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
    fn presets_are_whole_parts_and_default_is_zero() {
        assert_eq!(DeviceInfo::PRESETS.len(), 20);
        for (k, (project, gt, d)) in DeviceInfo::PRESETS.iter().enumerate() {
            assert_eq!(DeviceInfo::preset(project, *gt), Some(*d));
            // Listed once.
            assert!(
                DeviceInfo::PRESETS[..k]
                    .iter()
                    .all(|(p, g, _)| (p, g) != (project, gt)),
                "{project} GT{gt} twice"
            );
            // Every divisor an equation uses is set.
            for v in [
                DeviceVar::EuCoresTotalCount,
                DeviceVar::EuSlicesTotalCount,
                DeviceVar::EuSubslicesTotalCount,
                DeviceVar::EuThreadsCount,
                DeviceVar::SliceMask,
                DeviceVar::SubsliceMask,
                DeviceVar::GpuMaxFrequency,
                DeviceVar::GpuMinFrequency,
                DeviceVar::GpuTimestampFrequency,
            ] {
                assert_ne!(d.get(v), 0, "{project} GT{gt} {}", v.name());
            }
            assert!(d.gpu_min_frequency < d.gpu_max_frequency, "{project}");
            // Counts are the masks' populations.
            assert_eq!(
                d.eu_slices_total_count,
                u64::from(d.slice_mask.count_ones()),
                "{project} GT{gt}"
            );
            assert_eq!(
                d.eu_subslices_total_count,
                u64::from(d.subslice_mask.count_ones()),
                "{project} GT{gt}"
            );
            // EUs per subslice by generation (Mesa's max_eus_per_subslice):
            // 10 on HSW, 8 on Gen8, Gen9, Gen10 and Gen11, 6 on Gen9 LP, 16
            // per dual subslice on Gen12. Threads: 6 on Gen9 LP, else 7.
            let (per, threads, gen12) = match *project {
                "hsw" => (10, 7, false),
                "bdw" | "chv" | "skl" | "kbl" | "cfl" | "cnl" | "icl" | "ehl" => (8, 7, false),
                "bxt" | "glk" => (6, 6, false),
                "tgl" | "rkl" | "adl" | "dg1" => (16, 7, true),
                other => panic!("{other}: no generation in this test"),
            };
            assert_eq!(
                d.eu_cores_total_count,
                u64::from(d.subslice_mask.count_ones()) * per,
                "{project} GT{gt}"
            );
            assert_eq!(d.eu_threads_count, threads, "{project}");
            // Dual subslices are Gen12's subslices, and only Gen12 has them.
            let dss = if gen12 { d.subslice_mask } else { 0 };
            assert_eq!(d.dual_subslice_mask, dss, "{project} GT{gt}");
            // Subslice bits stay inside the enabled slices: 3 a slice before
            // Gen11 (IGT's perf.c), one slice from Gen11.
            let stride = if matches!(*project, "icl" | "ehl") || gen12 {
                64
            } else {
                3
            };
            let inside = (0..64u32)
                .filter(|s| d.slice_mask >> s & 1 == 1)
                .fold(0u64, |m, s| {
                    let bits = if stride == 64 {
                        u64::MAX
                    } else {
                        0b111 << (3 * s)
                    };
                    m | bits
                });
            assert_eq!(d.subslice_mask & !inside, 0, "{project} GT{gt}");
        }
        assert_eq!(DeviceInfo::TGL_GT2.eu_cores_total_count, 96);
        assert_eq!(DeviceInfo::preset("bdw", 1), None);
        assert_eq!(DeviceInfo::preset("skl", 1), None);
        assert_eq!(DeviceInfo::preset("snb", 2), None);
        // The one part of a project answers for a device without a GT.
        assert_eq!(
            DeviceInfo::preset_or_first("icl", None),
            Some(DeviceInfo::ICL)
        );
        assert_eq!(
            DeviceInfo::preset_or_first("skl", Some(1)),
            Some(DeviceInfo::SKL_GT2)
        );
        // Timestamps (i915 intel_gt_clock_utils.c): 12.5 MHz to Gen8, 12 MHz
        // on Gen9, 19.2 MHz on Gen9 LP and from the crystal later.
        for (project, gt, d) in DeviceInfo::PRESETS {
            let want = match *project {
                "hsw" | "bdw" => 12_500_000,
                "chv" => 12_500_000,
                "skl" | "kbl" | "cfl" => 12_000_000,
                _ => 19_200_000,
            };
            assert_eq!(d.gpu_timestamp_frequency, want, "{project} GT{gt}");
        }
        // Default: all zeros, documented.
        let z = DeviceInfo::default();
        assert!(DeviceVar::ALL.iter().all(|v| z.get(*v) == 0));
    }

    /// The mask bits each metric file's availability expressions test
    /// (`$SliceMask N AND`, `$SubsliceMask N AND`, `$DualSubsliceMask N AND`,
    /// the union of every N), read from IGT's `oa-*.xml` files:
    /// (file, project, GT, slice bits, subslice bits, dual subslice bits,
    /// how the part's masks relate to them).
    const FILE_MASKS: &[(&str, &str, u8, u64, u64, u64, Fit)] = &[
        ("oa-hsw.xml", "hsw", 2, 0, 0xf, 0, Fit::PartInFile),
        ("oa-bdw.xml", "bdw", 2, 0x3, 0x3f, 0, Fit::PartInFile),
        ("oa-chv.xml", "chv", 1, 0x3, 0x3f, 0, Fit::PartInFile),
        ("oa-sklgt2.xml", "skl", 2, 0x1, 0x1f, 0, Fit::PartInFile),
        ("oa-sklgt3.xml", "skl", 3, 0x1, 0x1f, 0, Fit::FileInPart),
        ("oa-sklgt4.xml", "skl", 4, 0x1, 0x1f, 0, Fit::FileInPart),
        ("oa-bxt.xml", "bxt", 1, 0x1, 0x1f, 0, Fit::PartInFile),
        ("oa-kblgt2.xml", "kbl", 2, 0x1, 0x1f, 0, Fit::PartInFile),
        ("oa-kblgt3.xml", "kbl", 3, 0x1, 0x1f, 0, Fit::FileInPart),
        ("oa-glk.xml", "glk", 1, 0x1, 0x1f, 0, Fit::PartInFile),
        ("oa-cflgt2.xml", "cfl", 2, 0x1, 0x1f, 0, Fit::PartInFile),
        ("oa-cflgt3.xml", "cfl", 3, 0x1, 0x1f, 0, Fit::FileInPart),
        ("oa-cnl.xml", "cnl", 2, 0x3, 0x1f, 0, Fit::Same),
        ("oa-icl.xml", "icl", 2, 0x1, 0xff, 0, Fit::Same),
        ("oa-ehl.xml", "ehl", 1, 0x1, 0xff, 0, Fit::PartInFile),
        ("oa-tglgt1.xml", "tgl", 1, 0x1, 0, 0x3, Fit::FileInPart),
        ("oa-tglgt2.xml", "tgl", 2, 0x1, 0, 0x3f, Fit::Same),
        ("oa-rkl.xml", "rkl", 1, 0x1, 0, 0x3, Fit::Same),
        ("oa-adl.xml", "adl", 2, 0x1, 0, 0x3f, Fit::Same),
        ("oa-dg1.xml", "dg1", 2, 0x1, 0, 0x3f, Fit::Same),
    ];

    /// How a part's masks relate to the bits its metric file tests.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Fit {
        /// The file tests exactly the part's slices and subslices: the file
        /// reveals the topology (CNL, ICL, TGL GT2, RKL, ADL, DG1).
        Same,
        /// Every bit the file tests is the part's; the part has more (the
        /// Gen9 GT3/GT4 files test slice 0 only; `oa-tglgt1.xml` tests 2 of
        /// the preset's 3 dual subslices).
        FileInPart,
        /// The file is written for the generation's largest part (HSW GT3,
        /// BDW GT3, two-slice Gen9 masks `0x09`/`0x12`, ICL's 8 subslices
        /// on EHL): the part has a subset of what it tests, and the sets
        /// gated on the rest are unavailable on it, as on the real part.
        PartInFile,
    }

    #[test]
    fn presets_agree_with_the_masks_their_metric_files_test() {
        assert_eq!(FILE_MASKS.len(), 20);
        for (file, project, gt, slices, subslices, dss, fit) in FILE_MASKS {
            let d = DeviceInfo::preset(project, *gt)
                .unwrap_or_else(|| panic!("{file}: no preset {project} GT{gt}"));
            for (what, tested, part) in [
                ("SliceMask", *slices, d.slice_mask),
                ("SubsliceMask", *subslices, d.subslice_mask),
                ("DualSubsliceMask", *dss, d.dual_subslice_mask),
            ] {
                if tested == 0 {
                    continue;
                }
                let ok = match fit {
                    Fit::Same => tested == part,
                    Fit::FileInPart => tested & !part == 0,
                    Fit::PartInFile => part & !tested == 0,
                };
                assert!(
                    ok,
                    "{file} tests ${what} bits {tested:#x}, {project} GT{gt} has {part:#x} ({fit:?})"
                );
            }
            // Every slice a file tests exists on its part: the sets gated
            // on slice 0 are never dropped.
            assert_ne!(d.slice_mask & *slices.max(&1), 0, "{file}");
        }
        // SkuRevisionId: oa-sklgt2.xml gates blocks on 0x02 and 0x05 and
        // oa-bxt.xml on 0x03; production parts are past all of them.
        for (project, gt, d) in DeviceInfo::PRESETS {
            let past = match *project {
                "skl" => 0x05,
                "bxt" => 0x03,
                _ => continue,
            };
            assert!(d.sku_revision_id >= past, "{project} GT{gt}");
        }
    }

    /// The union of the constants `$<var> N AND` tests in `xml`.
    fn tested_bits(xml: &str, var: &str) -> u64 {
        let key = format!("${var} ");
        let mut bits = 0;
        let mut rest = xml;
        while let Some(at) = rest.find(&key) {
            rest = &rest[at + key.len()..];
            let mut words = rest.split_whitespace();
            // `... 0x09 AND"`: the attribute's quote may follow `AND`.
            let (Some(n), Some(op)) = (words.next(), words.next()) else {
                continue;
            };
            if op.trim_end_matches('"') != "AND" {
                continue;
            }
            let n = match n.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => n.parse(),
            };
            bits |= n.unwrap_or_else(|e| panic!("${var}: {e}"));
        }
        bits
    }

    #[test]
    fn file_masks_are_the_files() {
        // The metric files shipped in regdefs/metricsets (IGT's, unchanged):
        // the four of before issue 18 must be there; the others are checked
        // once they are shipped beside them.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../regdefs/metricsets");
        let mut checked = Vec::new();
        for (file, _, _, slices, subslices, dss, _) in FILE_MASKS {
            let Ok(xml) = std::fs::read_to_string(dir.join(file)) else {
                continue;
            };
            assert_eq!(
                (
                    tested_bits(&xml, "SliceMask"),
                    tested_bits(&xml, "SubsliceMask"),
                    tested_bits(&xml, "DualSubsliceMask")
                ),
                (*slices, *subslices, *dss),
                "{file}"
            );
            checked.push(*file);
        }
        for shipped in ["oa-hsw.xml", "oa-bdw.xml", "oa-tglgt1.xml", "oa-tglgt2.xml"] {
            assert!(
                checked.contains(&shipped),
                "{shipped} not found in {}",
                dir.display()
            );
        }
        assert_eq!(
            tested_bits(
                "$SubsliceMask 0x09 AND $SliceMask 2 AND $SubsliceMask 16 AND",
                "SubsliceMask"
            ),
            0x19
        );
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
