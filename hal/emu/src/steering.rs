//! Multicast steering: which instance of a replicated register an access
//! reaches, from the CPU steering (MCR) selector of the register's group,
//! and whether the selector's semaphore (12.70+) is held.

use crate::bind::{Bits, SelectorRef, SteeringRef};

/// One selector and its fields.
#[derive(Clone, Copy, Debug)]
struct Sel {
    /// Index of the selector's value in the value store.
    value: usize,
    multicast: Option<Bits>,
    slice: Option<Bits>,
    /// The subslice field and its width.
    subslice: Option<(Bits, u32)>,
    /// The semaphore's value index and bit mask.
    semaphore: Option<(usize, u64)>,
}

impl Sel {
    fn new(r: &SelectorRef, value: usize, value_at: &impl Fn(u64) -> Option<usize>) -> Self {
        Sel {
            value,
            multicast: (r.multicast_mask != 0).then(|| Bits {
                mask: r.multicast_mask,
                lsb: r.multicast_mask.trailing_zeros(),
            }),
            slice: (r.slice.1 > 0).then(|| Bits::at(r.slice.0, r.slice.1)),
            subslice: (r.subslice.1 > 0)
                .then(|| (Bits::at(r.subslice.0, r.subslice.1), r.subslice.1)),
            semaphore: r
                .semaphore
                .and_then(|(a, bit)| Some((value_at(a)?, 1u64.checked_shl(bit).unwrap_or(0)))),
        }
    }
}

/// What a steered access reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Selected {
    /// A write goes to every present instance.
    pub multicast: bool,
    /// The instance a read (or a unicast write) reaches (`u32::MAX`: none).
    pub instance: u32,
    /// The selector has a semaphore and the CPU does not hold it.
    pub unlocked: bool,
}

/// The steering selectors of a project and which one each group uses.
#[derive(Clone, Debug, Default)]
pub(crate) struct Steering {
    /// The project's selector first, then the groups' own.
    sels: Vec<Sel>,
    /// Per group: `(index into sels, instances per group id)`.
    groups: Vec<(usize, u32)>,
}

impl Steering {
    /// Steering by the selectors of `s`; `value_at` gives the value-store
    /// index of the register at an address (`None`: no such register, and
    /// the selector or semaphore is not modelled).
    pub(crate) fn new(s: &SteeringRef, value_at: impl Fn(u64) -> Option<usize>) -> Self {
        let main = SelectorRef {
            address: s.address,
            multicast_mask: s.multicast_mask,
            slice: s.slice,
            subslice: s.subslice,
            semaphore: s.semaphore,
        };
        let Some(v) = value_at(main.address) else {
            return Steering::default();
        };
        let mut sels = vec![Sel::new(&main, v, &value_at)];
        let mut groups = Vec::with_capacity(s.groups.len());
        for (per, own) in s.groups {
            let k = match own.and_then(|o| Some((o, value_at(o.address)?))) {
                Some((o, v)) => {
                    sels.push(Sel::new(&o, v, &value_at));
                    sels.len() - 1
                }
                None => 0,
            };
            groups.push((k, *per));
        }
        Steering { sels, groups }
    }

    /// The semaphores, as `(value index, bit mask)`.
    pub(crate) fn semaphores(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.sels.iter().filter_map(|s| s.semaphore)
    }

    /// What an access to a register of group `group` reaches.
    ///
    /// Instance n is group id `n / per_group`, instance id `n % per_group`
    /// (per_group 0: `2^width(subslice)`, so `slice << width | subslice`: on
    /// a single-slice part (TGL) slice 0, so the instance is the subslice
    /// id, and any other slice names an instance that does not exist); an
    /// instance id at or above `per_group` names none. Without a steering
    /// register (or without a field): multicast, instance 0. A selector
    /// without a multicast field (Gen8..Gen10's GEN8_MCR_SELECTOR) is always
    /// multicast: a CPU write reaches every present instance, as the plain
    /// write Linux i915's `intel_gt_mcr_multicast_write` makes on those
    /// parts assumes, and a read comes from the selected instance. A
    /// semaphore is held while its stored bit is clear (the CPU's read took
    /// it; the emulator has no other agent).
    #[inline]
    pub(crate) fn select(&self, values: &[u64], group: usize) -> Selected {
        let (k, per) = self.groups.get(group).copied().unwrap_or((0, 0));
        let Some(sel) = self.sels.get(k) else {
            return Selected {
                multicast: true,
                instance: 0,
                unlocked: false,
            };
        };
        let v = values.get(sel.value).copied().unwrap_or(0);
        let multicast = sel.multicast.is_none_or(|b| b.on(v));
        let slice = sel.slice.map_or(0, |b| b.get(v));
        let (sub, sub_width) = sel.subslice.map_or((0, 0), |(b, w)| (b.get(v), w));
        let per = match per {
            0 => 1u64.checked_shl(sub_width).unwrap_or(u64::MAX),
            k => u64::from(k),
        };
        let instance = if sub >= per {
            u32::MAX
        } else {
            slice
                .checked_mul(per)
                .and_then(|g| g.checked_add(sub))
                .map_or(u32::MAX, |n| n.min(u64::from(u32::MAX)) as u32)
        };
        let unlocked = sel
            .semaphore
            .is_some_and(|(i, m)| values.get(i).is_none_or(|s| s & m != 0));
        Selected {
            multicast,
            instance,
            unlocked,
        }
    }
}
