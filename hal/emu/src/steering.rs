//! Multicast steering: which instance of a replicated register an access
//! reaches, from the CPU steering (MCR selector) register.

use crate::bind::{Bits, SteeringRef};

/// The steering register and its fields.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Steering {
    /// Index of the steering register's value in the value store.
    value: Option<usize>,
    multicast: Option<Bits>,
    slice: Option<Bits>,
    /// The subslice field and its width.
    subslice: Option<(Bits, u32)>,
}

impl Steering {
    /// Steering by the selector `s`, whose value is stored at `value`.
    pub(crate) fn new(s: &SteeringRef, value: usize) -> Self {
        Steering {
            value: Some(value),
            multicast: (s.multicast_mask != 0).then(|| Bits {
                mask: s.multicast_mask,
                lsb: s.multicast_mask.trailing_zeros(),
            }),
            slice: (s.slice.1 > 0).then(|| Bits::at(s.slice.0, s.slice.1)),
            subslice: (s.subslice.1 > 0)
                .then(|| (Bits::at(s.subslice.0, s.subslice.1), s.subslice.1)),
        }
    }

    /// `(multicast, instance)` selected by the current steering value.
    ///
    /// The instance is `slice_id << width(subslice_id) | subslice_id`: on a
    /// single-slice part (TGL) slice 0, so the instance is the subslice id,
    /// and any other slice names an instance that does not exist. Without a
    /// steering register (or without a field): multicast, instance 0. A
    /// selector without a multicast field (Gen8..Gen10's GEN8_MCR_SELECTOR)
    /// is always multicast: a CPU write reaches every present instance, as
    /// the plain write Linux i915's `intel_gt_mcr_multicast_write` makes on
    /// those parts assumes, and a read comes from the selected instance.
    #[inline]
    pub(crate) fn select(&self, values: &[u64]) -> (bool, u32) {
        let v = self.value.and_then(|i| values.get(i)).copied().unwrap_or(0);
        let multicast = self.multicast.is_none_or(|b| b.on(v));
        let slice = self.slice.map_or(0, |b| b.get(v));
        let (sub, sub_width) = self.subslice.map_or((0, 0), |(b, w)| (b.get(v), w));
        let inst = slice
            .checked_shl(sub_width)
            .map_or(u64::MAX, |s| s | sub)
            .min(u64::from(u32::MAX));
        (multicast, inst as u32)
    }
}
