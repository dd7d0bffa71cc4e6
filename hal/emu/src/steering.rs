//! Multicast steering: which instance of a replicated register an access
//! reaches, from the CPU steering (MCR selector) register.

use crate::bind::SteeringRef;
use crate::sku::low_bits;

/// A field position in the steering register.
#[derive(Clone, Copy, Debug)]
struct Pos {
    lsb: u32,
    mask: u64,
    width: u32,
}

impl Pos {
    fn of((lsb, width): (u32, u32)) -> Option<Pos> {
        (width > 0).then(|| Pos {
            lsb,
            mask: low_bits(width).checked_shl(lsb).unwrap_or(0),
            width,
        })
    }
    fn get(self, v: u64) -> u64 {
        (v & self.mask).checked_shr(self.lsb).unwrap_or(0)
    }
}

/// The steering register and its fields.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Steering {
    /// Index of the steering register's value in the value store.
    value: Option<usize>,
    multicast: Option<Pos>,
    slice: Option<Pos>,
    subslice: Option<Pos>,
}

impl Steering {
    /// Steering by the selector `s`, whose value is stored at `value`.
    pub(crate) fn new(s: &SteeringRef, value: usize) -> Self {
        Steering {
            value: Some(value),
            multicast: (s.multicast_mask != 0).then(|| Pos {
                lsb: s.multicast_mask.trailing_zeros(),
                mask: s.multicast_mask,
                width: 1,
            }),
            slice: Pos::of(s.slice),
            subslice: Pos::of(s.subslice),
        }
    }

    /// `(multicast, instance)` selected by the current steering value.
    ///
    /// The instance is `slice_id << width(subslice_id) | subslice_id`: on a
    /// single-slice part (TGL) slice 0, so the instance is the subslice id,
    /// and any other slice names an instance that does not exist. Without a
    /// steering register (or without a field): multicast, instance 0.
    #[inline]
    pub(crate) fn select(&self, values: &[u64]) -> (bool, u32) {
        let v = self.value.and_then(|i| values.get(i)).copied().unwrap_or(0);
        let multicast = self.multicast.is_none_or(|p| p.get(v) != 0);
        let slice = self.slice.map_or(0, |p| p.get(v));
        let (sub, sub_width) = self.subslice.map_or((0, 0), |p| (p.get(v), p.width));
        let inst = slice
            .checked_shl(sub_width)
            .map_or(u64::MAX, |s| s | sub)
            .min(u64::from(u32::MAX));
        (multicast, inst as u32)
    }
}
