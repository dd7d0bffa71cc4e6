//! The bus of a device borrowed once: [`IoGuard`] and the [`Io`] it
//! derefs to.

use super::{check_proof, Assumed, Device, BUSY_DEFERRED, FREE};
use crate::brand::sealed::Proof;
use crate::brand::{Identity, Unbranded};
use crate::power::Wakeable;
use crate::register::Project;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

/// The bus of a [`Device`] borrowed once (see [`Device::io`]): it derefs to
/// [`Io`]. Dropping it frees the bus (and makes the release writes of guards
/// dropped meanwhile).
pub struct IoGuard<'d, P: Project, B, I: Identity = Unbranded> {
    io: &'d mut Io<'d, P, B, I>,
    device: &'d Device<P, B, I>,
}

impl<'d, P: Project, B, I: Identity> IoGuard<'d, P, B, I> {
    /// The bus of `device`, which the caller has just marked borrowed.
    #[inline(always)]
    pub(super) fn new(device: &'d Device<P, B, I>, bus: &'d mut B) -> Self {
        IoGuard {
            io: Io::from_bus(bus),
            device,
        }
    }

    /// The bus.
    #[inline(always)]
    pub(super) fn bus(&mut self) -> &mut B {
        &mut self.io.bus
    }
}

impl<P: Project, B, I: Identity> Drop for IoGuard<'_, P, B, I> {
    #[inline]
    fn drop(&mut self) {
        if self.device.state.get() == BUSY_DEFERRED {
            Device::<P, B, I>::run_deferred(&self.device.deferred, &mut self.io.bus);
        }
        self.device.state.set(FREE);
    }
}

impl<'d, P: Project, B, I: Identity> Deref for IoGuard<'d, P, B, I> {
    type Target = Io<'d, P, B, I>;
    #[inline(always)]
    fn deref(&self) -> &Io<'d, P, B, I> {
        self.io
    }
}

impl<'d, P: Project, B, I: Identity> DerefMut for IoGuard<'d, P, B, I> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Io<'d, P, B, I> {
        self.io
    }
}

impl<P: Project, B, I: Identity> core::fmt::Debug for IoGuard<'_, P, B, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("IoGuard")
    }
}

/// Typed accesses to the bus of a [`Device`], borrowed once (reached through
/// the [`IoGuard`] of [`Device::io`]): the same accessors, with the same
/// proofs, and no per-access borrow check.
///
/// `Io` is the device's bus itself as a type (`repr(transparent)` over `B`),
/// so `&mut Io` is a `&mut B`: code handed `&mut Io` reaches the bus's state
/// in one load, as hand-written code handed `&mut B` does (a handle holding a
/// reference to the bus costs one more load per access wherever the handle's
/// memory is opaque to the optimizer). The device it belongs to is found
/// from its address, for the proof check.
#[repr(transparent)]
pub struct Io<'d, P: Project, B, I: Identity = Unbranded> {
    bus: B,
    _device: PhantomData<&'d Device<P, B, I>>,
}

impl<P: Project, B, I: Identity> core::fmt::Debug for Io<'_, P, B, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Io")
    }
}

impl<'d, P: Project, B, I: Identity> Io<'d, P, B, I> {
    /// The bus of a device, as an `Io`.
    #[inline(always)]
    fn from_bus(bus: &'d mut B) -> &'d mut Self {
        // SAFETY: `Io` is `repr(transparent)` over `B` (its other field is a
        // zero-sized marker), so the pointer is valid for `Io`, and the
        // exclusive borrow of `bus` moves to the result.
        unsafe { &mut *(bus as *mut B).cast::<Self>() }
    }

    /// The address of the device whose bus this is (an `Io` is only ever
    /// made from the bus inside a `Device`): what its proofs carry.
    #[inline(always)]
    fn device_addr(&self) -> usize {
        (self as *const Self as usize).wrapping_sub(core::mem::offset_of!(Device<P, B, I>, bus))
    }

    /// As `Device::check`: panic unless `proof` was made by this device.
    #[inline(always)]
    #[track_caller]
    pub(super) fn check(&self, proof: &(impl Proof + ?Sized)) {
        check_proof::<I>(self.device_addr(), proof);
    }

    /// As [`Device::assume_awake`], for code that holds only the `Io`: the
    /// proof borrows the device (not the `Io`) and is accepted by it alone.
    pub fn assume_awake<D: Wakeable<Project = P>>(&self) -> Assumed<'d, D, I> {
        Assumed {
            device: self.device_addr(),
            _proof: PhantomData,
        }
    }

    /// The bus, for raw accesses that bypass every check (as
    /// [`Device::with_bus`]).
    pub fn bus_mut(&mut self) -> &mut B {
        &mut self.bus
    }
}
