//! Multicast steering: which instance of a replicated register an access
//! reaches, from the CPU steering (MCR selector) register.

use hal::meta::RegisterInfo;

use super::regfile::field_mask;

/// A field position in the steering register.
#[derive(Clone, Copy, Debug)]
struct Pos {
    lsb: u32,
    mask: u64,
    width: u32,
}

impl Pos {
    fn of(info: &RegisterInfo, name: &str) -> Option<Pos> {
        let f = info.field(name)?;
        Some(Pos {
            lsb: f.lsb,
            mask: field_mask(f),
            width: f.width,
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
    /// Steering by `info` (fields `multicast`, `slice_id`, `subslice_id`),
    /// whose value is stored at `value`.
    pub(crate) fn new(info: &RegisterInfo, value: usize) -> Self {
        Steering {
            value: Some(value),
            multicast: Pos::of(info, "multicast"),
            slice: Pos::of(info, "slice_id"),
            subslice: Pos::of(info, "subslice_id"),
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
