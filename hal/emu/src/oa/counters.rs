//! The OA counters (A, B and C banks), kept the way reports hold them: one
//! byte image with every counter's low dword (little-endian) and bits 39:32
//! (one byte), arranged where the selected layout's reports put them, so a
//! report's counters are one copy out of the image, not a conversion per
//! counter.

use super::*;
use hal::meta::FormatInfo;

/// A counter bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bank {
    A,
    B,
    C,
    /// Xe2/Xe3 PEC counters (64-bit).
    P,
    /// Media MPEC counters (64-bit).
    M,
}

/// B counters (one per CEC) and C counters.
pub(super) const B_COUNTERS: usize = CECS;
/// C counters.
pub(super) const C_COUNTERS: usize = 8;
/// PEC counters (Xe2/Xe3 PEC64u64).
pub(super) const P_COUNTERS: usize = 64;
/// MPEC counters (the media formats).
pub(super) const M_COUNTERS: usize = 8;

/// Every counter of the banks, each as wide as its width (40-bit A
/// counters wrap at 2^40, B and C at 2^32, PEC and MPEC at 2^64).
///
/// The image holds each counter's low dword (little-endian) and its bits
/// 39:32 (one byte); bits 63:40 are kept apart. Where the counters sit in
/// the image follows the report layout in use ([`Counters::arrange`]): the
/// counters a report carries sit exactly as the report holds them, so
/// rendering copies one block; the others follow.
#[derive(Clone, Debug, Default)]
pub(super) struct Counters {
    image: Vec<u8>,
    lo_at: Vec<usize>,
    hi_at: Vec<usize>,
    top: Vec<u32>,
    mask: Vec<u64>,
    /// A counters.
    n_a: usize,
    /// The layout the image is arranged for, and its counter block:
    /// report bytes `start..start + len` are `image[..len]`.
    arranged: Option<(&'static FormatInfo, usize, usize)>,
}

impl Counters {
    /// Zeroed counters: A counters of the given widths (bits, at most 64),
    /// and the 32-bit B and C counters; arranged for no layout.
    pub(super) fn new(a_bits: &[u32]) -> Self {
        let mut mask: Vec<u64> = a_bits.iter().map(|&b| low_bits(b.min(64))).collect();
        mask.extend(core::iter::repeat_n(low_bits(32), B_COUNTERS + C_COUNTERS));
        mask.extend(core::iter::repeat_n(u64::MAX, P_COUNTERS + M_COUNTERS));
        let n = mask.len();
        Counters {
            image: vec![0; 5 * n],
            lo_at: (0..n).map(|k| 4 * k).collect(),
            hi_at: (0..n).map(|k| 4 * n + k).collect(),
            top: vec![0; n],
            mask,
            n_a: a_bits.len(),
            arranged: None,
        }
    }

    /// Counters in `bank`.
    pub(super) fn len(&self, bank: Bank) -> usize {
        match bank {
            Bank::A => self.n_a,
            Bank::B => B_COUNTERS,
            Bank::C => C_COUNTERS,
            Bank::P => P_COUNTERS,
            Bank::M => M_COUNTERS,
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
            Bank::P => self.n_a + B_COUNTERS + C_COUNTERS + i,
            Bank::M => self.n_a + B_COUNTERS + C_COUNTERS + P_COUNTERS + i,
        })
    }

    /// Place the counters for `info`'s layout: `places` gives, per counter
    /// the report carries, its index and the report offsets of its low
    /// dword and (40-bit counters) its high byte. Values are kept. Places
    /// that collide or lie outside the report leave the arrangement as it
    /// was.
    pub(super) fn arrange(
        &mut self,
        info: &'static FormatInfo,
        places: &[(usize, usize, Option<usize>)],
    ) {
        let n = self.mask.len();
        let start = places
            .iter()
            .flat_map(|&(_, lo, hi)| [Some(lo), hi])
            .flatten()
            .min()
            .unwrap_or(0);
        let end = places
            .iter()
            .flat_map(|&(_, lo, hi)| [Some(lo + 4), hi.map(|h| h + 1)])
            .flatten()
            .max()
            .unwrap_or(0);
        if end > info.size {
            return;
        }
        let len = end - start;
        let mut used = vec![false; len];
        let mut claim = |from: usize, n: usize| -> bool {
            let Some(s) = used.get_mut(from..from + n) else {
                return false;
            };
            if s.iter().any(|&u| u) {
                return false;
            }
            s.fill(true);
            true
        };
        let (mut lo_at, mut hi_at) = (vec![usize::MAX; n], vec![usize::MAX; n]);
        for &(k, lo, hi) in places {
            if k >= n || lo_at[k] != usize::MAX || !claim(lo - start, 4) {
                return;
            }
            lo_at[k] = lo - start;
            if let Some(h) = hi {
                if !claim(h - start, 1) {
                    return;
                }
                hi_at[k] = h - start;
            }
        }
        // The counters (or high bytes) the report does not carry follow.
        let mut next = len;
        for at in lo_at.iter_mut().filter(|a| **a == usize::MAX) {
            *at = next;
            next += 4;
        }
        for at in hi_at.iter_mut().filter(|a| **a == usize::MAX) {
            *at = next;
            next += 1;
        }
        let values: Vec<u64> = (0..n).map(|k| self.get_k(k)).collect();
        self.image = vec![0; next];
        self.lo_at = lo_at;
        self.hi_at = hi_at;
        for (k, v) in values.into_iter().enumerate() {
            self.set_k(k, v);
        }
        self.arranged = Some((info, start, len));
    }

    /// The counter block of `info`'s reports, when the image is arranged
    /// for it: `(report offset, bytes)`.
    #[inline]
    pub(super) fn block(&self, info: &FormatInfo) -> Option<(usize, &[u8])> {
        let (f, start, len) = self.arranged?;
        if !core::ptr::eq(f, info) {
            return None;
        }
        Some((start, self.image.get(..len)?))
    }

    fn get_k(&self, k: usize) -> u64 {
        let lo_at = self.lo_at.get(k).copied().unwrap_or(usize::MAX);
        let lo = match self.image.get(lo_at..lo_at.saturating_add(4)) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => 0,
        };
        let hi = self
            .hi_at
            .get(k)
            .and_then(|&h| self.image.get(h))
            .copied()
            .unwrap_or(0);
        u64::from(lo) | u64::from(hi) << 32 | u64::from(self.top.get(k).copied().unwrap_or(0)) << 40
    }

    fn set_k(&mut self, k: usize, v: u64) {
        let v = v & self.mask.get(k).copied().unwrap_or(0);
        let lo_at = self.lo_at.get(k).copied().unwrap_or(usize::MAX);
        if let Some(d) = self.image.get_mut(lo_at..lo_at.saturating_add(4)) {
            d.copy_from_slice(&(v as u32).to_le_bytes());
        }
        if let Some(d) = self
            .hi_at
            .get(k)
            .copied()
            .and_then(|h| self.image.get_mut(h))
        {
            *d = (v >> 32) as u8;
        }
        if let Some(d) = self.top.get_mut(k) {
            *d = (v >> 40) as u32;
        }
    }

    /// Counter number `k` among all counters (see [`Counters::index`]).
    #[inline]
    pub(super) fn get_index(&self, k: usize) -> u64 {
        self.get_k(k)
    }

    /// Counter `i` of `bank`.
    #[inline]
    pub(super) fn get(&self, bank: Bank, i: usize) -> Option<u64> {
        Some(self.get_k(self.index(bank, i)?))
    }

    /// Set counter `i` of `bank` (to `v` modulo its width).
    #[inline]
    pub(super) fn set(&mut self, bank: Bank, i: usize, v: u64) {
        if let Some(k) = self.index(bank, i) {
            self.set_k(k, v);
        }
    }

    /// Add `d` to counter `i` of `bank` modulo its width; true when it
    /// wrapped.
    #[inline]
    pub(super) fn add(&mut self, bank: Bank, i: usize, d: u128) -> bool {
        if d == 0 {
            return false;
        }
        let Some(k) = self.index(bank, i) else {
            return false;
        };
        let m = self.mask.get(k).copied().unwrap_or(0);
        let s = u128::from(self.get_k(k)) + d;
        self.set_k(k, (s & u128::from(m)) as u64);
        s > u128::from(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_wrap_at_their_width() {
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
        let mut wide = Counters::new(&[64]);
        wide.set(Bank::A, 0, u64::MAX - 1);
        assert_eq!(wide.get(Bank::A, 0), Some(u64::MAX - 1));
    }

    #[test]
    fn arranged_counters_sit_as_the_report_holds_them() {
        static F: FormatInfo = FormatInfo {
            name: "T",
            select: 0,
            size: 32,
            description: "",
            counters: &[],
        };
        let mut c = Counters::new(&[40, 40]);
        c.set(Bank::A, 0, 0xAB_1234_5678);
        c.set(Bank::B, 0, 0xB0);
        assert!(c.block(&F).is_none(), "not arranged yet");
        // A0 low at 8, high at 20; B0 low at 12; A1 and the rest spill.
        let b0 = c.index(Bank::B, 0).expect("B0");
        c.arrange(&F, &[(0, 8, Some(20)), (b0, 12, None)]);
        assert_eq!(c.get(Bank::A, 0), Some(0xAB_1234_5678), "values kept");
        let (start, block) = c.block(&F).expect("arranged");
        assert_eq!((start, block.len()), (8, 13));
        assert_eq!(&block[0..4], &[0x78, 0x56, 0x34, 0x12]);
        assert_eq!(&block[4..8], &[0xB0, 0, 0, 0]);
        assert_eq!(block[12], 0xAB);
        c.add(Bank::A, 1, 5);
        assert_eq!(c.get(Bank::A, 1), Some(5), "spilled counters still count");
        // Colliding places leave the arrangement as it was.
        c.arrange(&F, &[(0, 8, None), (1, 10, None)]);
        assert_eq!(c.block(&F).map(|(s, b)| (s, b.len())), Some((8, 13)));
    }
}
