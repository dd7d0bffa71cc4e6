//! The runtime the generated metric-set modules use.

use hal::oa_buffer::ReportDelta;

/// A counters a [`Sample`] holds.
pub const A_COUNTERS: usize = 64;
/// B counters a [`Sample`] holds.
pub const B_COUNTERS: usize = 8;
/// C counters a [`Sample`] holds.
pub const C_COUNTERS: usize = 8;
/// PERFCNT registers a [`Sample`] holds.
pub const PERFCNT_COUNTERS: usize = 2;

/// What changed between two reports (and the PERFCNT registers around
/// them): `None` for what was not measured.
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

    /// The deltas of two OA reports: timestamp, GPU_TICKS (none on HSW,
    /// whose reports have no GPU clock dword), A, B and C. PERFCNT is not in
    /// reports and stays `None`.
    pub fn from_delta(d: &ReportDelta) -> Self {
        let mut s = Self::EMPTY;
        s.gpu_time = d.timestamp;
        s.gpu_clock = d.gpu_ticks;
        copy(&mut s.a, &d.a);
        copy(&mut s.b, &d.b);
        copy(&mut s.c, &d.c);
        s
    }
    /// An (`None` when absent or out of range).
    #[inline]
    pub fn a(&self, n: usize) -> Option<u64> {
        self.a.get(n).copied().flatten()
    }
    /// Bn.
    #[inline]
    pub fn b(&self, n: usize) -> Option<u64> {
        self.b.get(n).copied().flatten()
    }
    /// Cn.
    #[inline]
    pub fn c(&self, n: usize) -> Option<u64> {
        self.c.get(n).copied().flatten()
    }
    /// PERFCNTn.
    #[inline]
    pub fn perfcnt(&self, n: usize) -> Option<u64> {
        self.perfcnt.get(n).copied().flatten()
    }
}

fn copy(to: &mut [Option<u64>], from: &[Option<u64>]) {
    for (t, f) in to.iter_mut().zip(from) {
        *t = *f;
    }
}

/// The device properties equations name (`$EuCoresTotalCount`, ...).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceInfo {
    /// `$EuCoresTotalCount`: number of EUs.
    pub eu_cores_total_count: u64,
    /// `$EuSlicesTotalCount`: number of slices.
    pub eu_slices_total_count: u64,
    /// `$EuSubslicesTotalCount`: number of subslices.
    pub eu_subslices_total_count: u64,
    /// `$EuThreadsCount`: hardware threads per EU.
    pub eu_threads_count: u64,
    /// `$SliceMask`: enabled slices.
    pub slice_mask: u64,
    /// `$SubsliceMask`: enabled subslices.
    pub subslice_mask: u64,
    /// `$DualSubsliceMask`: enabled dual subslices.
    pub dual_subslice_mask: u64,
    /// `$GpuMaxFrequency` (Hz).
    pub gpu_max_frequency: u64,
    /// `$GpuMinFrequency` (Hz).
    pub gpu_min_frequency: u64,
    /// `$GpuTimestampFrequency` (Hz).
    pub gpu_timestamp_frequency: u64,
    /// `$QueryMode`.
    pub query_mode: u64,
}

/// A counter value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A `uint64` counter.
    U64(u64),
    /// A `float` counter (computed in `f64`).
    F64(f64),
}

/// A counter's (or maximum's) function, by result type.
#[derive(Debug, Clone, Copy)]
pub enum Eval {
    /// `uint64`.
    U64(fn(&Sample, &DeviceInfo) -> Option<u64>),
    /// `float`.
    F64(fn(&Sample, &DeviceInfo) -> Option<f64>),
}

impl Eval {
    /// Run it.
    pub fn call(&self, s: &Sample, d: &DeviceInfo) -> Option<Value> {
        match self {
            Eval::U64(f) => f(s, d).map(Value::U64),
            Eval::F64(f) => f(s, d).map(Value::F64),
        }
    }
}

/// One counter of a set.
#[derive(Debug, Clone, Copy)]
pub struct CounterInfo {
    /// `name` ("GPU Core Clocks").
    pub name: &'static str,
    /// `symbol_name` (`GpuCoreClocks`).
    pub symbol: &'static str,
    /// `underscore_name`: the function's name.
    pub underscore: &'static str,
    /// `units`.
    pub units: &'static str,
    /// `data_type` (`uint64`, `float`).
    pub data_type: &'static str,
    /// `semantic_type`.
    pub semantic_type: &'static str,
    /// `description`.
    pub description: &'static str,
    /// The counter's equation.
    pub eval: Eval,
    /// Its `max_equation`, if any.
    pub max: Option<Eval>,
    /// Its `availability`, if any (none: always available).
    pub availability: Option<fn(&DeviceInfo) -> bool>,
}

impl CounterInfo {
    /// The value on a sample (`None`: the sample lacks a counter it reads).
    pub fn value(&self, s: &Sample, d: &DeviceInfo) -> Option<Value> {
        self.eval.call(s, d)
    }
    /// Whether the counter exists on the device.
    pub fn is_available(&self, d: &DeviceInfo) -> bool {
        self.availability.is_none_or(|f| f(d))
    }
}

/// Kind of a programming block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfigKind {
    /// Boolean / custom-event counter programming.
    Oa,
    /// NOA multiplexer programming.
    Noa,
    /// EU flexible counter selection.
    Flex,
}

/// One `register_config` block: register writes, in order.
#[derive(Debug, Clone, Copy)]
pub struct ConfigBlock {
    /// OA, NOA or FLEX.
    pub kind: ConfigKind,
    /// When the block applies (none: always).
    pub availability: Option<fn(&DeviceInfo) -> bool>,
    /// (MMIO byte address, value), in order.
    pub writes: &'static [(u64, u64)],
}

impl ConfigBlock {
    /// Whether the block applies on the device.
    pub fn is_available(&self, d: &DeviceInfo) -> bool {
        self.availability.is_none_or(|f| f(d))
    }
}

/// One metric set.
#[derive(Debug, Clone, Copy)]
pub struct SetInfo {
    /// `name`.
    pub name: &'static str,
    /// `symbol_name` (`TestOa`).
    pub symbol: &'static str,
    /// `underscore_name` (`test_oa`): the module's name.
    pub underscore: &'static str,
    /// `hw_config_guid`.
    pub guid: &'static str,
    /// Counters, in file order.
    pub counters: &'static [CounterInfo],
    /// Programming blocks, in file order.
    pub configs: &'static [ConfigBlock],
}

impl SetInfo {
    /// The counter with `symbol_name` `symbol`.
    pub fn counter(&self, symbol: &str) -> Option<&'static CounterInfo> {
        self.counters.iter().find(|c| c.symbol == symbol)
    }
}

/// Program every block of `set` that applies on device `d` (its
/// `availability`) on `gpu`, in order. Every block is checked first
/// ([`Device::check_program`](hal::Device::check_program): described
/// addresses, domains held by `awake`, writable bits, masked enables);
/// on an error nothing is written. Returns the number of writes. The
/// generated `program` of each set calls this with the set's own project
/// type, so a set cannot be programmed on another project's device.
pub fn program<P: hal::Project, B: hal::Bus<hal::Mmio>, I: hal::Identity>(
    gpu: &hal::Device<P, B, I>,
    set: &SetInfo,
    d: &DeviceInfo,
    awake: &[&dyn hal::config::AwakeAny<I>],
) -> Result<usize, hal::config::ProgramError> {
    let blocks = || set.configs.iter().filter(|b| b.is_available(d));
    for b in blocks() {
        gpu.check_program(b.writes, awake)?;
    }
    let mut n = 0;
    for b in blocks() {
        n += gpu.program(b.writes, awake)?;
    }
    Ok(n)
}

/// Address of element `N` of register array `A` (a compile error past its end).
pub const fn elem<A: hal::register::RegisterArray, const N: usize>() -> u64 {
    let e = hal::Elem::<A>::at::<N>();
    A::BASE + (e.index() as u64) * A::STRIDE
}

/// The operators of the equations (semantics: `perfregs_codegen::metrics::equation`).
pub mod ops {
    /// `UADD`.
    #[inline]
    pub fn uadd(a: u64, b: u64) -> u64 {
        a.wrapping_add(b)
    }
    /// `USUB`.
    #[inline]
    pub fn usub(a: u64, b: u64) -> u64 {
        a.wrapping_sub(b)
    }
    /// `UMUL`.
    #[inline]
    pub fn umul(a: u64, b: u64) -> u64 {
        a.wrapping_mul(b)
    }
    /// `UDIV` (0 for a zero divisor).
    #[inline]
    pub fn udiv(a: u64, b: u64) -> u64 {
        a.checked_div(b).unwrap_or(0)
    }
    /// `UMIN`.
    #[inline]
    pub fn umin(a: u64, b: u64) -> u64 {
        a.min(b)
    }
    /// `UADD` with a float operand: in `f64`, stored as an integer.
    #[inline]
    pub fn uadd_f(a: f64, b: f64) -> u64 {
        (a + b) as u64
    }
    /// `USUB` with a float operand.
    #[inline]
    pub fn usub_f(a: f64, b: f64) -> u64 {
        (a - b) as u64
    }
    /// `UMUL` with a float operand.
    #[inline]
    pub fn umul_f(a: f64, b: f64) -> u64 {
        (a * b) as u64
    }
    /// `UMIN` with a float operand.
    #[inline]
    pub fn umin_f(a: f64, b: f64) -> u64 {
        (if a < b { a } else { b }) as u64
    }
    /// `AND`.
    #[inline]
    pub fn band(a: u64, b: u64) -> u64 {
        a & b
    }
    /// `OR`.
    #[inline]
    pub fn bor(a: u64, b: u64) -> u64 {
        a | b
    }
    /// `<<` (0 for a shift of 64 or more).
    #[inline]
    pub fn shl(a: u64, b: u64) -> u64 {
        if b >= 64 {
            0
        } else {
            a << b
        }
    }
    /// `>>` (0 for a shift of 64 or more).
    #[inline]
    pub fn shr(a: u64, b: u64) -> u64 {
        if b >= 64 {
            0
        } else {
            a >> b
        }
    }
    /// `ULT`.
    #[inline]
    pub fn ult(a: u64, b: u64) -> bool {
        a < b
    }
    /// `ULTE`.
    #[inline]
    pub fn ulte(a: u64, b: u64) -> bool {
        a <= b
    }
    /// `UGT`.
    #[inline]
    pub fn ugt(a: u64, b: u64) -> bool {
        a > b
    }
    /// `UGTE`.
    #[inline]
    pub fn ugte(a: u64, b: u64) -> bool {
        a >= b
    }
    /// `==`.
    #[inline]
    pub fn ueq(a: u64, b: u64) -> bool {
        a == b
    }
    /// `FADD` with a float operand (two integers: `fl(uadd(a, b))`).
    #[inline]
    pub fn fadd(a: f64, b: f64) -> f64 {
        a + b
    }
    /// `FSUB` with a float operand (two integers: `fl(usub(a, b))`).
    #[inline]
    pub fn fsub(a: f64, b: f64) -> f64 {
        a - b
    }
    /// `FMUL` with a float operand (two integers: `fl(umul(a, b))`).
    #[inline]
    pub fn fmul(a: f64, b: f64) -> f64 {
        a * b
    }
    /// `FDIV` (0 for a zero divisor).
    #[inline]
    pub fn fdiv(a: f64, b: f64) -> f64 {
        if b != 0.0 {
            a / b
        } else {
            0.0
        }
    }
    /// `FMAX` (`a > b ? a : b`).
    #[inline]
    pub fn fmax(a: f64, b: f64) -> f64 {
        if a > b {
            a
        } else {
            b
        }
    }
    /// `&&` (both sides evaluated).
    #[inline]
    pub fn land(a: bool, b: bool) -> bool {
        a & b
    }
    /// An integer as a float (nearest `f64`).
    #[inline]
    pub fn fl(a: u64) -> f64 {
        a as f64
    }
    /// A float as an integer (truncated toward zero, saturating; NaN gives 0).
    #[inline]
    pub fn tu(a: f64) -> u64 {
        a as u64
    }
    /// An integer as a condition (non-zero).
    #[inline]
    pub fn nz(a: u64) -> bool {
        a != 0
    }
}
