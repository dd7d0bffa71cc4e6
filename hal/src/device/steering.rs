//! The steering handle for replicated (multicast) registers: the instances
//! present (from the fuse mirrors), its accessors, the steered bus they go
//! through, and the selector given back on drop.
//!
//! A selector with a multicast bit (TGL, DG2) is pointed at one instance
//! for a unicast access and set back to multicast when the handle drops.
//! One without (Gen8..Gen10's GEN8_MCR_SELECTOR) is changed only around
//! each access, as Linux i915 does: read, slice/subslice fields replaced,
//! the access, old value written back (the other bits and the default
//! target the driver programmed are kept).
//!
//! A selector shared with firmware (12.70+: [`Steered::SEMAPHORE`]) or a
//! group's own selector ([`ReplicationGroup::SELECTOR`], the media GT's) is
//! used as Linux xe does (`xe_gt_mcr.c` `mcr_lock`, `rw_with_mcr_steering`,
//! `mcr_unlock`): each access takes the semaphore (polls it until a read
//! returns its bit set), points the selector at the group and instance
//! (with the multicast bit set for a read, clear for a unicast write; not
//! touched for a multicast write), makes the access, sets the selector back
//! to multicast after a unicast write, and gives the semaphore back (writes
//! its bit). The selector is never left unicast while the semaphore is
//! free, so nothing is restored on drop.
//!
//! Instance n of a group is group id `n / PER_GROUP`, instance id
//! `n % PER_GROUP` ([`ReplicationGroup::PER_GROUP`]; the kernel's
//! `dss_per_group` for DSS), or slice `n >> width(subslice)`, subslice the
//! low bits when the group does not say.

use super::accessors::{self, Port};
use super::{Device, STEERING_SLOT};
use crate::brand::{Identity, Unbranded};
use crate::bus::{Bus, Mmio};
use crate::meta::low_bits;
use crate::power::Awake;
use crate::register::{
    MulticastSteered, OnProject, ReadOf, Readable, Replicated, ReplicationGroup, Selector,
    Semaphore, Steered, Writable, WriteOf,
};

/// Polls of a steering semaphore before an access goes ahead without it
/// (Linux xe waits 10 us, then warns and goes ahead).
pub const SEMAPHORE_POLLS: u32 = 100;

/// Steer `P`'s selector back to multicast (nothing for a selector without a
/// multicast bit: it is restored after each access instead, nor for one
/// with a semaphore: it is multicast whenever the semaphore is free).
fn select_multicast<P: Steered, B: Bus<Mmio>>(bus: &mut B) {
    if P::MULTICAST != 0 && P::SEMAPHORE.is_none() {
        bus.write32(P::SELECTOR, P::MULTICAST as u32);
    }
}

/// `P`'s own selector.
const fn project_selector<P: Steered>() -> Selector {
    Selector {
        address: P::SELECTOR,
        multicast: P::MULTICAST,
        slice: P::SLICE,
        subslice: P::SUBSLICE,
        semaphore: P::SEMAPHORE,
    }
}

/// The selector group `G` of `P` is steered through, and whether each
/// access restores it (a semaphore, or a group's own selector, which the
/// handle's drop does not reset).
fn selector_of<P: Steered, G: ReplicationGroup>() -> (Selector, bool) {
    match G::SELECTOR {
        Some(s) => (s, true),
        None => {
            let s = project_selector::<P>();
            (s, s.semaphore.is_some())
        }
    }
}

/// Take semaphore `s`: poll until a read returns its bit set, at most
/// [`SEMAPHORE_POLLS`] times with [`Bus::pause`] between; false when it
/// was not taken.
pub(super) fn acquire<B: Bus<Mmio>>(bus: &mut B, s: Semaphore) -> bool {
    let bit = 1u32 << s.bit.min(31);
    for n in 0..SEMAPHORE_POLLS {
        if n > 0 {
            bus.pause();
        }
        if bus.read32(s.address) & bit != 0 {
            return true;
        }
    }
    false
}

/// Which instances of each replication group are present, from the fuse
/// mirrors.
pub(super) fn present_instances<P: Steered, B: Bus<Mmio>>(bus: &mut B) -> [u64; 8] {
    let mut present = [0u64; 8];
    for (i, (instances, fuse)) in P::GROUPS.iter().enumerate().take(8) {
        let all = low_bits(*instances);
        present[i] = match fuse {
            None => all,
            Some(f) => {
                let raw = u64::from(bus.read32(f.address));
                let bits = (raw >> f.lsb) & low_bits(f.width);
                (if f.set_means_present { bits } else { !bits }) & all
            }
        };
    }
    present
}

/// Exclusive use of the steering selector (see [`Device::steering`]).
///
/// # Panics
///
/// Its accessors panic when the device's bus is borrowed (see
/// [`Device::io`]) or when given another device's proof.
pub struct Steering<'d, P: Steered, B: Bus<Mmio>, I: Identity = Unbranded> {
    pub(super) device: &'d Device<P, B, I>,
    pub(super) present: [u64; 8],
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> core::fmt::Debug for Steering<'_, P, B, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Steering")
            .field("present", &self.present)
            .finish_non_exhaustive()
    }
}

fn field(value: u64, (lsb, width): (u32, u32)) -> u64 {
    (value & ((1u64 << width.min(63)) - 1)) << lsb
}

/// `(group id, instance id)` of instance `instance` of a group with
/// `per_group` instances per group id (0: `2^width(subslice)`, so slice
/// `instance >> width`, subslice the low bits: TGL has one slice, so slice
/// 0 and subslice n; Gen8..Gen10 four subslice slots per slice).
pub fn group_instance(sel: &Selector, per_group: u32, instance: u32) -> (u32, u32) {
    let per = match per_group {
        0 => 1u32.checked_shl(sel.subslice.1).unwrap_or(0),
        k => k,
    };
    match per {
        // A 32-bit subslice field: every instance is group 0.
        0 => (0, instance),
        k => (instance / k, instance % k),
    }
}

/// The selector value that steers to `instance` of a group with
/// `per_group` instances per group id ([`group_instance`]). `base` gives
/// the other bits (0 on a multicast selector: the multicast bit clear,
/// unicast).
fn steered_value(sel: &Selector, per_group: u32, base: u32, instance: u32) -> u32 {
    let (g, i) = group_instance(sel, per_group, instance);
    let fields = field(u64::from(g), sel.slice) | field(u64::from(i), sel.subslice);
    let mask = field(u64::MAX, sel.slice) | field(u64::MAX, sel.subslice);
    ((u64::from(base) & !mask) | fields) as u32
}

impl<'d, P: Steered, B: Bus<Mmio>, I: Identity> Steering<'d, P, B, I> {
    /// Bit n set: instance n of `R`'s group is present (not fused off).
    pub fn present<R: Replicated>(&self) -> u64 {
        self.present[R::Group::INDEX % 8]
    }

    /// Instances of `R`'s group that are present, ascending.
    pub fn instances<R: Replicated>(&self) -> impl Iterator<Item = u32> {
        let mask = self.present::<R>();
        (0..R::Group::INSTANCES.min(64)).filter(move |n| mask & (1 << n) != 0)
    }

    /// The bus steered to every instance of `G` (multicast).
    pub(super) fn all<G: ReplicationGroup>(&self) -> Steer<'d, P, B, I> {
        let (selector, per_access) = selector_of::<P, G>();
        Steer {
            device: self.device,
            instance: None,
            selector,
            per_access,
            per_group: G::PER_GROUP,
        }
    }

    fn is_present<R: Replicated>(&self, instance: u32) -> bool {
        instance < R::Group::INSTANCES.min(64) && self.present::<R>() & (1 << instance) != 0
    }

    /// The bus steered to `instance`, if it is present.
    pub(super) fn at<R: Replicated>(&self, instance: u32) -> Option<Steer<'d, P, B, I>> {
        let (selector, per_access) = selector_of::<P, R::Group>();
        self.is_present::<R>(instance).then_some(Steer {
            device: self.device,
            instance: Some(instance),
            selector,
            per_access,
            per_group: <R::Group as ReplicationGroup>::PER_GROUP,
        })
    }

    /// Steered accesses that went ahead without their semaphore (it was
    /// not free after [`SEMAPHORE_POLLS`] polls: Linux xe then warns and
    /// goes ahead too), since the device was made.
    pub fn semaphore_timeouts(&self) -> u32 {
        self.device.semaphore_timeouts.get()
    }
}

impl<'d, P: Steered, B: Bus<Mmio>, I: Identity> Steering<'d, P, B, I> {
    /// Read instance `instance`; `None` when it does not exist or is fused off.
    #[track_caller]
    pub fn read<R>(
        &mut self,
        reg: R,
        instance: u32,
        awake: &impl Awake<R::Domain, I>,
    ) -> Option<ReadOf<R>>
    where
        R: Readable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        Some(accessors::read(self.at::<R>(instance)?, &reg))
    }

    /// Read the lowest present instance (as drivers do for a representative value).
    #[track_caller]
    pub fn read_any<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
    ) -> Option<(u32, ReadOf<R>)>
    where
        R: Readable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        let first = self.instances::<R>().next()?;
        self.read(reg, first, awake).map(|v| (first, v))
    }

    /// Read every present instance, ascending.
    #[track_caller]
    pub fn read_each<'s, R, A>(
        &'s mut self,
        reg: R,
        awake: &'s A,
    ) -> impl Iterator<Item = (u32, ReadOf<R>)> + use<'s, 'd, P, B, I, R, A>
    where
        R: Readable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
        A: Awake<R::Domain, I>,
    {
        self.device.check(awake);
        let list: [u32; 64] = core::array::from_fn(|i| i as u32);
        let mask = self.present::<R>();
        let count = R::Group::INSTANCES.min(64) as usize;
        list.into_iter()
            .take(count)
            .filter(move |n| mask & (1 << n) != 0)
            .filter_map(move |n| Some((n, accessors::read(self.at::<R>(n)?, &reg))))
    }

    /// Multicast write: every present instance gets the value `f` builds
    /// from the reset value (as [`Device::write`]). Only on a selector with a
    /// multicast bit; elsewhere use [`Steering::write_each`].
    #[track_caller]
    pub fn write<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        P: MulticastSteered,
        R: Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        accessors::write(self.all::<R::Group>(), reg, accessors::Start::Reset, f);
    }

    /// Unicast write of one instance (as [`Device::write`]); false (nothing
    /// written) when it does not exist or is fused off. Only on a selector
    /// with a multicast bit (which makes the write unicast).
    #[track_caller]
    #[must_use = "false means the instance is absent and nothing was written"]
    pub fn write_one<R>(
        &mut self,
        reg: R,
        instance: u32,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) -> bool
    where
        P: MulticastSteered,
        R: Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        let Some(one) = self.at::<R>(instance) else {
            return false;
        };
        accessors::write(one, reg, accessors::Start::Reset, f);
        true
    }

    /// Read, change some fields and write back one instance, with the bits
    /// [`Device::modify`] never writes back written as zero; false (nothing
    /// read or written) when it does not exist or is fused off. `f` runs
    /// while the bus is not borrowed.
    #[track_caller]
    #[must_use = "false means the instance is absent and nothing was written"]
    pub fn modify<R>(
        &mut self,
        reg: R,
        instance: u32,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
    ) -> bool
    where
        P: MulticastSteered,
        R: Readable + Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        let Some(one) = self.at::<R>(instance) else {
            return false;
        };
        accessors::modify(one, reg, f);
        true
    }
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Steering<'_, P, B, I> {
    /// Write the value `f` builds from the reset value (as
    /// [`Device::write`]) to every present instance, one steered write
    /// each, ascending; returns how many were written (0: every instance
    /// fused off). On any selector: where a steered write reaches one
    /// instance each gets it once, where it reaches all (no public source
    /// rules it out on Gen8..Gen10) each ends with the same value.
    #[track_caller]
    pub fn write_each<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl Fn(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) -> u32
    where
        R: Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        let mut written = 0;
        for n in 0..R::Group::INSTANCES.min(64) {
            if let Some(one) = self.at::<R>(n) {
                accessors::write(one, &reg, accessors::Start::Reset, &f);
                written += 1;
            }
        }
        written
    }
}

/// The bus steered for each access: the selector is pointed at one instance
/// (`Some`) or at all of them (`None`, multicast) before it.
pub(super) struct Steer<'d, P: Steered, B: Bus<Mmio>, I: Identity> {
    device: &'d Device<P, B, I>,
    instance: Option<u32>,
    /// The selector of the register's group.
    selector: Selector,
    /// Each access restores the selector to multicast, under the semaphore
    /// when there is one (Linux xe's protocol).
    per_access: bool,
    /// The group's instances per group id (0: `2^width(subslice)`).
    per_group: u32,
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Steer<'_, P, B, I> {
    /// One access under Linux xe's protocol (see the module docs).
    fn xe_access<T>(&self, bus: &mut B, write: bool, f: impl FnOnce(&mut B) -> T) -> T {
        let sel = self.selector;
        let held = sel.semaphore.map(|s| (s, acquire(bus, s)));
        if let Some((_, false)) = held {
            let n = &self.device.semaphore_timeouts;
            n.set(n.get().saturating_add(1));
        }
        let multicast = sel.multicast as u32;
        let out = match self.instance {
            // Multicast write: the selector is already multicast.
            None => f(bus),
            Some(n) => {
                let value = steered_value(&sel, self.per_group, 0, n);
                if write {
                    bus.write32(sel.address, value);
                    let out = f(bus);
                    bus.write32(sel.address, multicast);
                    out
                } else {
                    bus.write32(sel.address, value | multicast);
                    f(bus)
                }
            }
        };
        // Given back only when taken: a write would free firmware's hold.
        if let Some((s, true)) = held {
            bus.write32(s.address, 1u32 << s.bit.min(31));
        }
        out
    }
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Port<B> for Steer<'_, P, B, I> {
    #[track_caller]
    fn with_bus<T>(&mut self, f: impl FnOnce(&mut B) -> T) -> T {
        // Not told: a write is the safe guess (the selector is set back).
        self.access(true, f)
    }

    #[track_caller]
    fn access<T>(&mut self, write: bool, f: impl FnOnce(&mut B) -> T) -> T {
        let (instance, sel, per_group) = (self.instance, self.selector, self.per_group);
        if self.per_access {
            let this = &*self;
            return self.device.with_bus(|bus| this.xe_access(bus, write, f));
        }
        self.device.with_bus(|bus| match instance {
            // A multicast selector: unicast to `n` (restored on drop).
            Some(n) if sel.multicast != 0 => {
                bus.write32(sel.address, steered_value(&sel, per_group, 0, n));
                f(bus)
            }
            // No multicast bit: steer around this access only, as i915 does.
            Some(n) => {
                let old = bus.read32(sel.address);
                bus.write32(sel.address, steered_value(&sel, per_group, old, n));
                let out = f(bus);
                bus.write32(sel.address, old);
                out
            }
            None => {
                select_multicast::<P, B>(bus);
                f(bus)
            }
        })
    }
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Drop for Steering<'_, P, B, I> {
    /// Restores multicast (when the bus is next freed if it is borrowed;
    /// nothing on a selector without a multicast bit, which every access
    /// already restored) and frees the selector.
    fn drop(&mut self) {
        self.device.steering_taken.set(false);
        self.device
            .write_or_defer(STEERING_SLOT, select_multicast::<P, B>);
    }
}
