//! Width-checked field values.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

/// An unsigned value that fits in `N` bits: the value type of multi-bit fields.
///
/// Build one with [`Bits::new`] (checked, `None` when too wide), [`Bits::truncate`]
/// (explicit truncation) or, for literals, the [`bits!`](crate::bits!) macro,
/// which rejects a too-wide literal at compile time.
///
/// Only the low `N` bits of the stored word are the value: every accessor
/// (`get`, comparisons, hashing, formatting) masks the rest off, so
/// [`Bits::truncate`] costs nothing and the truncation happens where the
/// value is used. A setter shifts the value into its field and masks it
/// there, as hand-written code does (`(v << lsb) & mask`); masking first as
/// well would leave the optimizer a second mask it cannot always remove.
#[derive(Clone, Copy, Default)]
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

    /// Keep the low `N` bits of `v` (free: the other bits are ignored from
    /// here on, see the type's docs).
    #[inline]
    pub const fn truncate(v: u64) -> Self {
        Bits(v)
    }

    /// For constant contexts (see [`bits!`](crate::bits!)): a literal that does not fit
    /// stops compilation there. Outside a constant context prefer [`Bits::new`].
    #[inline]
    pub const fn lit(v: u64) -> Self {
        if v > Self::MAX {
            too_wide(v, N, Self::MAX)
        }
        Bits(v)
    }

    /// The value.
    #[inline]
    pub const fn get(self) -> u64 {
        self.0 & Self::MAX
    }

    /// The stored word: the value in the low `N` bits, anything above them
    /// (for a setter, which masks after shifting).
    #[inline(always)]
    pub(crate) const fn unmasked(self) -> u64 {
        self.0
    }
}

/// Stop constant evaluation with "literal `v` does not fit in the field's
/// width: `width` bits hold at most `max`" (a constant panic cannot format
/// numbers, so the message is written into a buffer here).
#[cold]
const fn too_wide(v: u64, width: u32, max: u64) -> ! {
    const PARTS: [&str; 4] = [
        "literal ",
        " does not fit in the field's width: ",
        " bits hold at most ",
        "",
    ];
    // Three numbers of at most 20 digits and the text.
    let mut buf = [0u8; 128];
    let mut len = 0;
    let nums = [v, width as u64, max];
    let mut part = 0;
    while part < PARTS.len() {
        let text = PARTS[part].as_bytes();
        let mut i = 0;
        while i < text.len() {
            buf[len] = text[i];
            len += 1;
            i += 1;
        }
        if part < nums.len() {
            // Digits of the number, most significant first.
            let mut digits = [0u8; 20];
            let (mut n, mut d) = (nums[part], 0);
            loop {
                digits[d] = b'0' + (n % 10) as u8;
                d += 1;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            while d > 0 {
                d -= 1;
                buf[len] = digits[d];
                len += 1;
            }
        }
        part += 1;
    }
    let (text, _) = buf.split_at(len);
    match core::str::from_utf8(text) {
        Ok(message) => panic!("{}", message),
        Err(_) => panic!("literal does not fit in the field's width"),
    }
}

impl<const N: u32> From<Bits<N>> for u64 {
    #[inline]
    fn from(b: Bits<N>) -> u64 {
        b.get()
    }
}

impl<const N: u32> PartialEq for Bits<N> {
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        self.get() == o.get()
    }
}

impl<const N: u32> Eq for Bits<N> {}

impl<const N: u32> PartialOrd for Bits<N> {
    #[inline]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<const N: u32> Ord for Bits<N> {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        self.get().cmp(&o.get())
    }
}

impl<const N: u32> Hash for Bits<N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.get().hash(state)
    }
}

impl<const N: u32> PartialEq<u64> for Bits<N> {
    #[inline]
    fn eq(&self, o: &u64) -> bool {
        self.get() == *o
    }
}

impl<const N: u32> fmt::Debug for Bits<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One hexadecimal form, shared with the generated `Debug` of a read value.
        fmt::Debug::fmt(&crate::values::DebugBits(self.get()), f)
    }
}

impl<const N: u32> fmt::Display for Bits<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.get(), f)
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
