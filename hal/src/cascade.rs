//! Pentium 4 cascading counters (Intel SDM Vol 3B 18.15.5.6) with the legal
//! pairs as types: cascading a counter from one the SDM does not allow
//! (16 from 12, 14 from 16, across blocks) does not compile.
//!
//! The CCCR bits written here come from the generated description of
//! the `P4_CCCR{n}` array (every CCCR has the same layout), and the addresses
//! from the `P4_COUNTER{n}` / `P4_CCCR{n}` arrays and the counter index.

use crate::access::mask;
use crate::bus::{Bus, Msr};
use crate::generated::p4::{p4_cccrn as p4_cccr0, P4_CCCRn, P4_COUNTERn};
use crate::register::{Layout, RegisterArray};
use crate::{Device, Identity, P4};

/// Counter `N` (0..=17) of the Pentium 4 PMU, with its CCCR.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct P4Counter<const N: usize>;

/// A counter of the P4 PMU.
pub trait Counter: Copy {
    /// Index 0..=17.
    const INDEX: usize;
    /// MSR of the counter.
    const COUNTER_MSR: u64 = <P4_COUNTERn as RegisterArray>::BASE
        + Self::INDEX as u64 * <P4_COUNTERn as RegisterArray>::STRIDE;
    /// MSR of its CCCR.
    const CCCR_MSR: u64 = <P4_CCCRn as RegisterArray>::BASE
        + Self::INDEX as u64 * <P4_CCCRn as RegisterArray>::STRIDE;
}

/// `Self` may be started by the overflow of counter `S` (the target's CCCR
/// has cascade = 1, enable = 0).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be cascaded from `{S}`",
    label = "the SDM does not pair these counters",
    note = "legal pairs: within BPU (0-3), MS (4-7), FLAME (8-11) and IQ 12-15, counters n and n+2 start each other; 16 only from 14, 17 only from 15 (SDM 18.15.5.6)"
)]
pub trait CascadesFrom<S: Counter>: Counter {}

macro_rules! counters {
    ($($n:literal)*) => {$(
        impl Counter for P4Counter<$n> {
            const INDEX: usize = $n;
        }
    )*};
}
counters!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17);

macro_rules! pairs {
    ($($t:literal <- $s:literal),* $(,)?) => {$(
        impl CascadesFrom<P4Counter<$s>> for P4Counter<$t> {}
    )*
    /// Every legal `(target, source)` pair, exactly the trait impls above.
    pub const CASCADE_PAIRS: &[(usize, usize)] = &[$(($t, $s)),*];
    };
}

// Target <- source, exactly the SDM's pairs (checked against the description's
// `cascade_pairs` table by tests/all/cascade.rs).
pairs! {
    0 <- 2, 2 <- 0, 1 <- 3, 3 <- 1,
    4 <- 6, 6 <- 4, 5 <- 7, 7 <- 5,
    8 <- 10, 10 <- 8, 9 <- 11, 11 <- 9,
    12 <- 14, 14 <- 12, 13 <- 15, 15 <- 13,
    16 <- 14, 17 <- 15,
}

/// An uninhabited counter type. It exists only so that every counter has
/// two candidate sources: then the compiler checks the source you pass
/// against the pairs (and says which pairs are legal) instead of inferring
/// the only legal one and reporting a bare type mismatch.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum NotACounter {}
impl Counter for NotACounter {
    const INDEX: usize = usize::MAX;
}
#[diagnostic::do_not_recommend]
impl<T: Counter> CascadesFrom<NotACounter> for T {}

/// Width of the P4 counters (40 bits).
pub const COUNTER_BITS: u32 = 40;

fn cccr_update<B: Bus<Msr>>(bus: &mut B, msr: u64, set: u64, clear: u64) {
    let keep = <p4_cccr0::FieldLayout as Layout>::KEEP_MASK;
    let v = bus.read64(msr) & keep;
    bus.write64(msr, (v & !clear) | set);
}

impl<B: Bus<Msr>, I: Identity> Device<P4, B, I> {
    /// Preset counter `c` (two's complement: `-200` counts 200 events to overflow).
    pub fn preset<C: Counter>(&self, _c: C, value: i64) {
        let v = (value as u64) & ((1u64 << COUNTER_BITS) - 1);
        self.with_bus(|b| b.write64(C::COUNTER_MSR, v));
    }

    /// The 40-bit count of counter `c`.
    pub fn count<C: Counter>(&self, _c: C) -> u64 {
        self.with_bus(|b| b.read64(C::COUNTER_MSR)) & ((1u64 << COUNTER_BITS) - 1)
    }

    /// Enable counter `c` (CCCR enable = 1); other CCCR fields are kept.
    pub fn enable<C: Counter>(&self, _c: C) {
        let en = mask(p4_cccr0::ENABLE);
        self.with_bus(|b| cccr_update(b, C::CCCR_MSR, en, 0));
    }

    /// Cascade: `target` starts counting when `source` overflows. Sets the
    /// target's CCCR cascade = 1 and enable = 0 (the SDM's programming);
    /// only pairs the SDM allows compile.
    pub fn cascade<T, S>(&self, _target: T, _source: S)
    where
        T: CascadesFrom<S>,
        S: Counter,
    {
        let cascade = mask(p4_cccr0::CASCADE);
        let en = mask(p4_cccr0::ENABLE);
        self.with_bus(|b| cccr_update(b, T::CCCR_MSR, cascade, en));
    }

    /// True when counter `c`'s sticky overflow flag (CCCR OVF) is set.
    pub fn overflowed<C: Counter>(&self, _c: C) -> bool {
        let ovf = mask(p4_cccr0::OVF);
        self.with_bus(|b| b.read64(C::CCCR_MSR) & ovf != 0)
    }

    /// Clear counter `c`'s overflow flag (software writes OVF = 0); this also
    /// halts a counter cascaded from it.
    pub fn clear_overflow<C: Counter>(&self, _c: C) {
        let ovf = mask(p4_cccr0::OVF);
        self.with_bus(|b| cccr_update(b, C::CCCR_MSR, 0, ovf));
    }
}
