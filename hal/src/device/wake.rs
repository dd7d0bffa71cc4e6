//! The proofs that a power domain is awake: the reference-counted guards of
//! [`Device::forcewake`] (and the release and ack polling they use) and the
//! assumed-awake proofs of [`Device::assume_awake`].

use super::Device;
use crate::brand::sealed::Proof;
use crate::brand::{Identity, Unbranded};
use crate::bus::{Bus, Mmio};
use crate::power::{Awake, NoDomain, Wakeable, MAX_DOMAINS};
use crate::register::Project;
use core::marker::PhantomData;

/// Release domain `D`: the masked disable of the driver's request bit (the
/// driver does not wait for the ack to clear).
pub(super) fn release_now<D: Wakeable, B: Bus<Mmio>>(bus: &mut B) {
    bus.write32(D::REQUEST, 1 << (D::BIT + 16));
}

/// Poll `D`'s ack until it reads `want`, at most `limit` times (with
/// [`Bus::pause`] after each miss).
pub(super) fn poll_ack<D: Wakeable, B: Bus<Mmio>>(bus: &mut B, want: bool, limit: u32) -> bool {
    let bit = 1u32 << D::BIT;
    for _ in 0..limit {
        if (bus.read32(D::ACK) & bit != 0) == want {
            return true;
        }
        bus.pause();
    }
    false
}

/// A guard holding power domain `D` of one device awake; also the proof
/// [`Awake<D>`] for that device (it borrows it).
#[must_use = "the domain is released when the guard is dropped"]
pub struct ForceWake<'d, P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity = Unbranded> {
    pub(super) device: &'d Device<P, B, I>,
    pub(super) _domain: PhantomData<D>,
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> core::fmt::Debug
    for ForceWake<'_, P, B, D, I>
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ForceWake")
            .field("domain", &D::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Proof for ForceWake<'_, P, B, D, I> {
    #[inline(always)]
    fn made_by(&self, device: usize) -> bool {
        self.device.addr() == device
    }
}
impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Awake<D, I> for ForceWake<'_, P, B, D, I> {}
impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> crate::config::AwakeAny<I>
    for ForceWake<'_, P, B, D, I>
{
    fn domain_name(&self) -> &'static str {
        D::NAME
    }
}
/// Registers outside every force-wake range need no domain: any guard of the
/// device will do.
impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Awake<NoDomain, I>
    for ForceWake<'_, P, B, D, I>
{
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Clone for ForceWake<'_, P, B, D, I> {
    /// Another reference to the held domain (the count goes up).
    fn clone(&self) -> Self {
        let refs = &self.device.wake_refs[D::INDEX % MAX_DOMAINS];
        refs.set(refs.get().saturating_add(1));
        ForceWake {
            device: self.device,
            _domain: PhantomData,
        }
    }
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Drop for ForceWake<'_, P, B, D, I> {
    /// Releases the domain if this is its last guard; while the bus is
    /// borrowed (an [`Io`](super::Io) is alive) the release is written when it is freed.
    fn drop(&mut self) {
        self.device.release::<D>();
    }
}

/// The proof from [`Device::assume_awake`] or [`Io::assume_awake`](super::Io::assume_awake): borrows
/// the device that made it, and is accepted by that device only.
pub struct Assumed<'d, D, I = Unbranded> {
    pub(super) device: usize,
    pub(super) _proof: PhantomData<(&'d (), D, I)>,
}

impl<D, I> Clone for Assumed<'_, D, I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D, I> Copy for Assumed<'_, D, I> {}

impl<D: Wakeable, I> core::fmt::Debug for Assumed<'_, D, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Assumed")
            .field("domain", &D::NAME)
            .finish_non_exhaustive()
    }
}

impl<D: Wakeable, I: Identity> Proof for Assumed<'_, D, I> {
    #[inline(always)]
    fn made_by(&self, device: usize) -> bool {
        self.device == device
    }
}
impl<D: Wakeable, I: Identity> Awake<D, I> for Assumed<'_, D, I> {}
impl<D: Wakeable, I: Identity> crate::config::AwakeAny<I> for Assumed<'_, D, I> {
    fn domain_name(&self) -> &'static str {
        D::NAME
    }
}
/// Registers outside every force-wake range need no domain: any proof of the
/// device will do.
impl<D: Wakeable, I: Identity> Awake<NoDomain, I> for Assumed<'_, D, I> {}
