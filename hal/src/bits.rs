//! Width-checked field values.

use core::fmt;

/// An unsigned value that fits in `N` bits: the value type of multi-bit fields.
///
/// Build one with [`Bits::new`] (checked, `None` when too wide), [`Bits::truncate`]
/// (explicit truncation) or, for literals, the [`bits!`](crate::bits!) macro,
/// which rejects a too-wide literal at compile time.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bits<const N: u32>(u64);

impl<const N: u32> Bits<N> {
    /// Largest value that fits.
    pub const MAX: u64 = if N >= 64 { u64::MAX } else { (1u64 << N) - 1 };

    /// `Some` when `v` fits in `N` bits.
    #[inline]
    pub const fn new(v: u64) -> Option<Self> {
        if v <= Self::MAX {
            Some(Bits(v))
        } else {
            None
        }
    }

    /// Keep the low `N` bits of `v`.
    #[inline]
    pub const fn truncate(v: u64) -> Self {
        Bits(v & Self::MAX)
    }

    /// For constant contexts (see [`bits!`](crate::bits!)): a literal that does not fit
    /// stops compilation there. Outside a constant context prefer [`Bits::new`].
    #[inline]
    pub const fn lit(v: u64) -> Self {
        assert!(v <= Self::MAX, "literal does not fit in the field's width");
        Bits(v)
    }

    /// The value.
    #[inline]
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl<const N: u32> From<Bits<N>> for u64 {
    fn from(b: Bits<N>) -> u64 {
        b.0
    }
}

impl<const N: u32> PartialEq<u64> for Bits<N> {
    fn eq(&self, o: &u64) -> bool {
        self.0 == *o
    }
}

impl<const N: u32> fmt::Debug for Bits<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

impl<const N: u32> fmt::Display for Bits<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A field literal checked against the field width at compile time:
/// `w.timer_period(bits!(5))`; `bits!(70)` for a 6-bit field does not compile.
#[macro_export]
macro_rules! bits {
    ($v:expr) => {
        const { $crate::Bits::lit($v) }
    };
}
