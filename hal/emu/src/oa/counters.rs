//! The OA counters (A, B and C banks), kept the way reports hold them: one
//! byte image with every counter's low dword (little-endian), then every
//! counter's bits 39:32 (one byte each); bits 63:40 apart. A report's runs
//! of counters are then a few copies out of the image (see
//! [`Layout`](super::layout::Layout)'s segments), not a conversion per
//! counter.

#[allow(unused_imports)]
use super::*;

/// A counter bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bank {
    A,
    B,
    C,
}

/// B counters (one per CEC) and C counters.
pub(super) const B_COUNTERS: usize = CECS;
/// C counters.
pub(super) const C_COUNTERS: usize = 8;

/// Every counter of the three banks, each as wide as its width (40-bit A
/// counters wrap at 2^40, B and C at 2^32).
#[derive(Clone, Debug, Default)]
pub(super) struct Counters {
    /// `[low dwords: 4 bytes each][bits 39:32: 1 byte each]`, in the order
    /// A0.., B0.., C0...
    image: Vec<u8>,
    /// Bits 63:40.
    top: Vec<u32>,
    mask: Vec<u64>,
    /// A counters.
    n_a: usize,
}

impl Counters {
    /// Zeroed counters: A counters of the given widths (bits, at most 64),
    /// and the 32-bit B and C counters.
    pub(super) fn new(a_bits: &[u32]) -> Self {
        let mut mask: Vec<u64> = a_bits.iter().map(|&b| low_bits(b.min(64))).collect();
        mask.extend(core::iter::repeat_n(low_bits(32), B_COUNTERS + C_COUNTERS));
        let n = mask.len();
        Counters {
            image: vec![0; 5 * n],
            top: vec![0; n],
            mask,
            n_a: a_bits.len(),
        }
    }

    /// Counters in `bank`.
    pub(super) fn len(&self, bank: Bank) -> usize {
        match bank {
            Bank::A => self.n_a,
            Bank::B => B_COUNTERS,
            Bank::C => C_COUNTERS,
        }
    }

    /// Index of counter `i` of `bank` among all counters.
    #[inline]
    pub(super) fn index(&self, bank: Bank, i: usize) -> Option<usize> {
        if i >= self.len(bank) {
            return None;
        }
        Some(match bank {
            Bank::A => i,
            Bank::B => self.n_a + i,
            Bank::C => self.n_a + B_COUNTERS + i,
        })
    }

    /// Offset in the image of counter `k`'s low dword.
    #[inline]
    pub(super) fn low_at(&self, k: usize) -> usize {
        4 * k
    }

    /// Offset in the image of counter `k`'s bits 39:32.
    #[inline]
    pub(super) fn high_at(&self, k: usize) -> usize {
        4 * self.mask.len() + k
    }

    /// The byte image (see the type's documentation).
    #[inline]
    pub(super) fn image(&self) -> &[u8] {
        &self.image
    }

    /// Counter `i` of `bank`.
    #[inline]
    pub(super) fn get(&self, bank: Bank, i: usize) -> Option<u64> {
        let k = self.index(bank, i)?;
        let lo = self.image.get(self.low_at(k)..self.low_at(k) + 4)?;
        let lo = u32::from_le_bytes([lo[0], lo[1], lo[2], lo[3]]);
        Some(
            u64::from(lo)
                | u64::from(*self.image.get(self.high_at(k))?) << 32
                | u64::from(*self.top.get(k)?) << 40,
        )
    }

    /// Set counter `i` of `bank` (to `v` modulo its width).
    #[inline]
    pub(super) fn set(&mut self, bank: Bank, i: usize, v: u64) {
        let Some(k) = self.index(bank, i) else { return };
        let v = v & self.mask.get(k).copied().unwrap_or(0);
        let (lo, hi) = (self.low_at(k), self.high_at(k));
        if let Some(d) = self.image.get_mut(lo..lo + 4) {
            d.copy_from_slice(&(v as u32).to_le_bytes());
        }
        if let Some(d) = self.image.get_mut(hi) {
            *d = (v >> 32) as u8;
        }
        if let Some(d) = self.top.get_mut(k) {
            *d = (v >> 40) as u32;
        }
    }

    /// Add `d` to counter `i` of `bank` modulo its width; true when it
    /// wrapped.
    #[inline]
    pub(super) fn add(&mut self, bank: Bank, i: usize, d: u128) -> bool {
        if d == 0 {
            return false;
        }
        let (Some(v), Some(m)) = (
            self.get(bank, i),
            self.index(bank, i).and_then(|k| self.mask.get(k).copied()),
        ) else {
            return false;
        };
        let s = u128::from(v) + d;
        self.set(bank, i, (s & u128::from(m)) as u64);
        s > u128::from(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_wrap_at_their_width_and_fill_the_image() {
        let mut c = Counters::new(&[40, 32]);
        c.set(Bank::A, 0, (1 << 40) - 2);
        assert!(!c.add(Bank::A, 0, 1));
        assert_eq!(c.get(Bank::A, 0), Some((1 << 40) - 1));
        assert!(c.add(Bank::A, 0, 3));
        assert_eq!(c.get(Bank::A, 0), Some(2));
        c.set(Bank::A, 1, 0x1_FFFF_FFFF);
        assert_eq!(c.get(Bank::A, 1), Some(0xFFFF_FFFF), "masked to 32 bits");
        assert!(c.add(Bank::B, 7, 1 << 32));
        assert_eq!(c.get(Bank::B, 7), Some(0));
        assert_eq!(c.get(Bank::B, 8), None);
        c.set(Bank::A, 0, 0xAB_1234_5678);
        c.set(Bank::C, 0, 0xC0C0);
        let n = 2 + B_COUNTERS + C_COUNTERS;
        assert_eq!(&c.image()[0..4], &[0x78, 0x56, 0x34, 0x12]);
        assert_eq!(c.image()[4 * n], 0xAB);
        let k = c.index(Bank::C, 0).expect("C0");
        assert_eq!(&c.image()[4 * k..4 * k + 2], &[0xC0, 0xC0]);
        let mut wide = Counters::new(&[64]);
        wide.set(Bank::A, 0, u64::MAX - 1);
        assert_eq!(wide.get(Bank::A, 0), Some(u64::MAX - 1));
    }
}
