//! The runtime the generated metric-set modules use.

pub use perfregs_types::sample::{
    DeviceInfo, DeviceVar, Reads, ReportCounts, Sample, TopologyVar, A_COUNTERS, B_COUNTERS,
    C_COUNTERS, MPEC_COUNTERS, PEC_COUNTERS, PERFCNT_COUNTERS,
};

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
    /// The counters of a [`Sample`] its equation reads (those of the
    /// counters it names included): what a pairing for this counter alone
    /// must fill ([`Pairs::push_into`](crate::intervals::Pairs::push_into)).
    ///
    /// Found by asking the equation: a counter of the sample is read when
    /// leaving it alone out of a full sample leaves the value missing. That
    /// is exact, because an equation has no conditional: every read is
    /// evaluated and a missing one makes the value missing, whatever the
    /// other values and the device (`perfregs_codegen::metrics::equation`);
    /// a test checks it against the equations' trees. About 160
    /// evaluations: once per chosen counter, not per report.
    pub fn reads(&self) -> Reads {
        let d = DeviceInfo::default();
        let mut s = Sample::EMPTY;
        for (src, n) in Sample::slots() {
            if let Some(v) = s.slot_mut(src, n) {
                *v = Some(1);
            }
        }
        let mut reads = Reads::NONE;
        for (src, n) in Sample::slots() {
            let Some(old) = s.slot_mut(src, n).map(|v| v.take()) else {
                continue;
            };
            if self.value(&s, &d).is_none() {
                reads.insert(src, n);
            }
            if let Some(v) = s.slot_mut(src, n) {
                *v = old;
            }
        }
        reads
    }
}

/// What `counters` read together ([`CounterInfo::reads`] of each).
pub fn reads_of<'a>(counters: impl IntoIterator<Item = &'a CounterInfo>) -> Reads {
    counters
        .into_iter()
        .fold(Reads::NONE, |r, c| r.union(c.reads()))
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
    /// The report layout its `oa_format` names (`MPEC8U32_B8_C8` for a
    /// media set); `None`: the set has no `oa_format` and is read with its
    /// project's reports.
    pub format: Option<&'static str>,
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
