//! The steering handle for replicated (multicast) registers: the selector
//! taken and given back, the instances present (from the fuse mirrors), and
//! the steered bus its accessors (in `accessors`) go through.

use super::accessors::Port;
use super::{busy, BusyError, Device, STEERING_SLOT};
use crate::brand::{Identity, Unbranded};
use crate::bus::{Bus, Mmio};
use crate::power::Awake;
use crate::register::{Replicated, ReplicationGroup, Steered};

/// Steer `P`'s selector back to multicast.
fn select_multicast<P: Steered, B: Bus<Mmio>>(bus: &mut B) {
    bus.write32(P::SELECTOR, P::MULTICAST as u32);
}

/// Which instances of each replication group are present, from the fuse
/// mirrors.
fn present_instances<P: Steered, B: Bus<Mmio>>(bus: &mut B) -> [u64; 8] {
    let mut present = [0u64; 8];
    for (i, (instances, fuse)) in P::GROUPS.iter().enumerate().take(8) {
        let all = if *instances >= 64 {
            u64::MAX
        } else {
            (1u64 << instances) - 1
        };
        present[i] = match fuse {
            None => all,
            Some(f) => {
                let raw = u64::from(bus.read32(f.address));
                let bits = (raw >> f.lsb)
                    & if f.width >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << f.width) - 1
                    };
                (if f.set_means_present { bits } else { !bits }) & all
            }
        };
    }
    present
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Device<P, B, I> {
    /// Exclusive use of the steering selector, for replicated (multicast)
    /// registers. Reads the fuse mirrors once (their domain must be awake).
    /// Dropping it restores multicast, also when unwinding from a panic.
    ///
    /// # Panics
    ///
    /// When another [`Steering`] of the device is alive or the bus is
    /// borrowed ([`Device::try_steering`] returns the error instead), or when
    /// `awake` was made by another device.
    #[track_caller]
    pub fn steering(&self, awake: &impl Awake<<P as Steered>::Domain, I>) -> Steering<'_, P, B, I> {
        match self.try_steering(awake) {
            Ok(s) => s,
            Err(e) => busy(e),
        }
    }

    /// As [`Device::steering`], with [`BusyError::Steering`] when another
    /// [`Steering`] is alive and [`BusyError::Bus`] when the bus is borrowed.
    ///
    /// # Panics
    ///
    /// When `awake` was made by another device.
    #[track_caller]
    pub fn try_steering(
        &self,
        awake: &impl Awake<<P as Steered>::Domain, I>,
    ) -> Result<Steering<'_, P, B, I>, BusyError> {
        self.check(awake);
        if self.steering_taken.get() {
            return Err(BusyError::Steering);
        }
        let present = self.try_with_bus(present_instances::<P, B>)?;
        self.steering_taken.set(true);
        Ok(Steering {
            device: self,
            present,
        })
    }
}

/// Exclusive use of the steering selector (see [`Device::steering`]).
///
/// # Panics
///
/// Its accessors panic when the device's bus is borrowed (see
/// [`Device::io`]) or when given another device's proof.
pub struct Steering<'d, P: Steered, B: Bus<Mmio>, I: Identity = Unbranded> {
    pub(super) device: &'d Device<P, B, I>,
    present: [u64; 8],
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

/// Instance n is steered as slice 0, subslice n (TGL has one slice).
fn select<P: Steered, B: Bus<Mmio>>(bus: &mut B, instance: u32) {
    let v = field(0, P::SLICE) | field(u64::from(instance), P::SUBSLICE);
    bus.write32(P::SELECTOR, v as u32);
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

    /// The bus steered to every instance (multicast).
    pub(super) fn all(&self) -> Steer<'d, P, B, I> {
        Steer {
            device: self.device,
            instance: None,
        }
    }

    fn is_present<R: Replicated>(&self, instance: u32) -> bool {
        instance < R::Group::INSTANCES.min(64) && self.present::<R>() & (1 << instance) != 0
    }

    /// The bus steered to `instance`, if it is present.
    pub(super) fn at<R: Replicated>(&self, instance: u32) -> Option<Steer<'d, P, B, I>> {
        self.is_present::<R>(instance).then_some(Steer {
            device: self.device,
            instance: Some(instance),
        })
    }
}

/// The bus steered for each access: the selector is pointed at one instance
/// (`Some`) or at all of them (`None`, multicast) before it.
pub(super) struct Steer<'d, P: Steered, B: Bus<Mmio>, I: Identity> {
    device: &'d Device<P, B, I>,
    instance: Option<u32>,
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Port<B> for Steer<'_, P, B, I> {
    #[track_caller]
    fn with_bus<T>(&mut self, f: impl FnOnce(&mut B) -> T) -> T {
        let instance = self.instance;
        self.device.with_bus(|bus| {
            match instance {
                Some(n) => select::<P, B>(bus, n),
                None => select_multicast::<P, B>(bus),
            }
            f(bus)
        })
    }
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Drop for Steering<'_, P, B, I> {
    /// Restores multicast (when the bus is next freed if it is borrowed) and
    /// frees the selector.
    fn drop(&mut self) {
        self.device.steering_taken.set(false);
        self.device
            .write_or_defer(STEERING_SLOT, select_multicast::<P, B>);
    }
}
