//! The device handle: a bus, the project as a type, an identity, force-wake
//! reference counts and the steering lock.
//!
//! Accessors take `&self`, so force-wake guards (which borrow the device)
//! can be held across many accesses. Every accessor takes a proof that the
//! register's power domain is awake, made by this device; replicated
//! registers are reached only through [`Steering`].
//!
//! Nothing fails silently. The bus has one borrower at a time: an accessor
//! called while an [`Io`] is alive, or from inside [`Device::with_bus`],
//! panics saying so (as `RefCell` does), and [`Device::try_io`],
//! [`Device::try_with_bus`] and [`Device::try_steering`] return a
//! [`BusyError`] instead. A proof made by another device does not compile
//! between [branded](crate::brand!) devices and panics between unbranded ones.
//!
//! Here: the device and its bus borrowing. The typed accessors of
//! [`Device`], [`Io`] and [`Steering`], and the one implementation behind
//! them, are in `accessors`; the bus borrowed once in `io`; force-wake guards
//! and proofs in `wake`; the steering handle in `steering`.

use crate::brand::sealed::Proof;
use crate::brand::{Brand, Identity, Unbranded};
use crate::bus::{Bus, Mmio};
use crate::power::{Wakeable, MAX_DOMAINS};
use crate::register::Project;
use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomData;

mod accessors;
mod io;
mod steering;
mod wake;

pub use io::{Io, IoGuard};
pub use steering::Steering;
pub use wake::{Assumed, ForceWake};

/// How long [`Device::forcewake`] polls an ack register before giving up.
pub const DEFAULT_POLL_LIMIT: u32 = 10_000;

/// Bus states: free, borrowed, borrowed with writes waiting for its release.
const FREE: u8 = 0;
const BUSY: u8 = 1;
const BUSY_DEFERRED: u8 = 2;
/// Deferred-write slot of a dropped [`Steering`]'s multicast restore (the
/// slots before it are the domains' releases, by [`Wakeable::INDEX`]).
const STEERING_SLOT: usize = MAX_DOMAINS;

/// A write waiting for the bus (see `Device::write_or_defer`).
type Deferred<B> = Cell<Option<fn(&mut B)>>;

/// Why the bus or the steering selector of a device could not be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusyError {
    /// The bus is borrowed: an [`Io`] of the device is alive, or the call
    /// comes from inside [`Device::with_bus`].
    Bus,
    /// Another [`Steering`] of the device is alive.
    Steering,
}

impl core::fmt::Display for BusyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            BusyError::Bus => {
                "the device's bus is already borrowed (an `Io` from `Device::io` is alive, \
                 or this runs inside `Device::with_bus`): make the access through that `Io`, \
                 or drop it first"
            }
            BusyError::Steering => {
                "the device's steering selector is already taken (another `Steering` is \
                 alive): use that one, or drop it first"
            }
        })
    }
}

impl core::error::Error for BusyError {}

#[cold]
#[inline(never)]
#[track_caller]
fn busy(e: BusyError) -> ! {
    panic!("perfregs: {e}")
}

/// Panic unless `proof` was made by the device at address `device` (or by
/// none, like `AlwaysAwake`). Free for branded devices, whose types already
/// agree.
#[inline(always)]
#[track_caller]
fn check_proof<I: Identity>(device: usize, proof: &(impl Proof + ?Sized)) {
    if I::CHECKED && !proof.made_by(device) {
        foreign_proof();
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn foreign_proof() -> ! {
    panic!(
        "perfregs: a proof (force-wake guard or assumed-awake proof) made by another device \
         was passed to this one; a proof is valid only on the device that made it \
         (devices made with `brand!` and `Device::branded` catch this at compile time)"
    )
}

/// A device of project `P` reached through bus `B`, with identity `I`
/// ([`Unbranded`] from [`Device::new`], a [`Brand`] from [`Device::branded`]).
///
/// Every accessor takes a register of project `P` (using another project's
/// register does not compile) and a proof, made by this device, that its
/// power domain is awake.
///
/// # Panics
///
/// Every method that reaches the bus panics when the bus is already borrowed
/// (see [`Device::io`]); the `try_` methods return [`BusyError`] instead.
/// Every method that takes a proof panics when an unbranded device is given
/// another device's proof.
pub struct Device<P: Project, B, I: Identity = Unbranded> {
    /// Reached only by the holder of the `BUSY` state (see `try_io`).
    bus: UnsafeCell<B>,
    /// `FREE`, `BUSY` or `BUSY_DEFERRED`.
    state: Cell<u8>,
    /// Writes to make when the bus is next freed: releases of guards, and the
    /// multicast restore of a steering handle, dropped while it was borrowed.
    deferred: [Deferred<B>; MAX_DOMAINS + 1],
    wake_refs: [Cell<u32>; MAX_DOMAINS],
    steering_taken: Cell<bool>,
    poll_limit: Cell<u32>,
    _id: I,
    _project: PhantomData<P>,
}

impl<P: Project, B, I: Identity> core::fmt::Debug for Device<P, B, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Device")
            .field("project", &P::NAME)
            .field("bus_borrowed", &(self.state.get() != FREE))
            .field("steering_taken", &self.steering_taken.get())
            .field("poll_limit", &self.poll_limit.get())
            .finish_non_exhaustive()
    }
}

impl<P: Project, B> Device<P, B> {
    /// An unbranded device of project `P` on `bus`: proofs are checked against
    /// it at run time (see [`Device::branded`] for the compile-time check).
    pub fn new(bus: B) -> Self {
        Device::with_identity(bus, Unbranded)
    }

    /// A device of project `P` on `bus` branded with `brand` (from
    /// [`brand!`](crate::brand!)), of type `Device<P, B, Brand<'id>>`: its
    /// proofs have types no other device accepts, so using them on another
    /// device does not compile, and no run-time check is made.
    pub fn branded<'id>(bus: B, brand: Brand<'id>) -> Device<P, B, Brand<'id>> {
        Device::with_identity(bus, brand)
    }
}

impl<P: Project, B, I: Identity> Device<P, B, I> {
    fn with_identity(bus: B, id: I) -> Self {
        Device {
            bus: UnsafeCell::new(bus),
            state: Cell::new(FREE),
            deferred: core::array::from_fn(|_| Cell::new(None)),
            wake_refs: Default::default(),
            steering_taken: Cell::new(false),
            poll_limit: Cell::new(DEFAULT_POLL_LIMIT),
            _id: id,
            _project: PhantomData,
        }
    }

    /// The device's address: what its proofs carry for the run-time check.
    #[inline(always)]
    fn addr(&self) -> usize {
        self as *const Self as usize
    }

    /// Panic unless `proof` was made by this device (see `check_proof`).
    #[inline(always)]
    #[track_caller]
    fn check(&self, proof: &(impl Proof + ?Sized)) {
        check_proof::<I>(self.addr(), proof);
    }

    /// Make the deferred writes (the bus is held: by an `Io` being dropped,
    /// or through `&mut self`): the multicast restore first (its register
    /// may need a domain whose release is also waiting), then the releases.
    #[cold]
    fn run_deferred(deferred: &[Deferred<B>], bus: &mut B) {
        for slot in deferred.iter().rev() {
            if let Some(write) = slot.take() {
                write(bus);
            }
        }
    }

    /// Make `write` now, or when the bus is next freed if it is borrowed
    /// (for drops, which must neither skip it nor panic).
    fn write_or_defer(&self, slot: usize, write: fn(&mut B)) {
        match self.try_io() {
            Ok(mut io) => write(io.bus()),
            Err(_) => {
                self.deferred[slot].set(Some(write));
                self.state.set(BUSY_DEFERRED);
            }
        }
    }

    /// With `&mut self` no `Io` is alive: make any deferred writes (left by a
    /// leaked `Io`) and free the bus.
    fn settle(&mut self) {
        if self.state.get() == BUSY_DEFERRED {
            Self::run_deferred(&self.deferred, self.bus.get_mut());
        }
        self.state.set(FREE);
    }

    /// The bus. Needs `&mut self`: no guard, steering handle or `Io` may be
    /// alive.
    pub fn bus_mut(&mut self) -> &mut B {
        self.settle();
        self.bus.get_mut()
    }

    /// Give the bus back.
    pub fn into_bus(mut self) -> B {
        self.settle();
        self.bus.into_inner()
    }

    /// Polls of an ack register before [`Device::forcewake`] gives up
    /// (each poll is followed by [`Bus::pause`]).
    pub fn set_poll_limit(&self, polls: u32) {
        self.poll_limit.set(polls);
    }

    /// Run `f` on the bus: raw accesses that bypass every check.
    ///
    /// # Panics
    ///
    /// When the bus is already borrowed: an [`Io`] is alive, or this is
    /// called from inside another `with_bus` (see [`Device::try_with_bus`]).
    #[inline]
    #[track_caller]
    pub fn with_bus<T>(&self, f: impl FnOnce(&mut B) -> T) -> T {
        f(self.io().bus())
    }

    /// As [`Device::with_bus`], with [`BusyError::Bus`] instead of a panic
    /// when the bus is already borrowed.
    #[inline]
    pub fn try_with_bus<T>(&self, f: impl FnOnce(&mut B) -> T) -> Result<T, BusyError> {
        Ok(f(self.try_io()?.bus()))
    }

    /// Borrow the bus once for a batch of typed accesses (no per-access
    /// borrow check: the zero-overhead path for hot loops).
    ///
    /// # Panics
    ///
    /// When the bus is already borrowed (another `Io` is alive, or this is
    /// called inside [`Device::with_bus`]); [`Device::try_io`] returns an
    /// error instead. While the `Io` lives, every other way to the bus
    /// (the device's accessors, `with_bus`, `forcewake` when it must wake,
    /// `steering`) panics the same way. A force-wake guard or steering handle
    /// dropped meanwhile makes its release write when the `Io` is dropped.
    #[inline]
    #[track_caller]
    pub fn io(&self) -> IoGuard<'_, P, B, I> {
        match self.try_io() {
            Ok(io) => io,
            Err(e) => busy(e),
        }
    }

    /// As [`Device::io`], with [`BusyError::Bus`] instead of a panic when the
    /// bus is already borrowed.
    #[inline]
    pub fn try_io(&self) -> Result<IoGuard<'_, P, B, I>, BusyError> {
        if self.state.get() != FREE {
            return Err(BusyError::Bus);
        }
        self.state.set(BUSY);
        // SAFETY: the state was FREE, so no other `&mut B` exists: every path
        // to the bus goes through here and sets BUSY first, `bus_mut` and
        // `into_bus` need the device by `&mut` or by value, and only `Io`'s
        // drop frees the bus again (a leaked `Io` leaves it borrowed until
        // `bus_mut` or `into_bus`, which is safe). `Device` is `!Sync` (it
        // holds `Cell`s), so no other thread can reach the state.
        let bus = unsafe { &mut *self.bus.get() };
        Ok(IoGuard::new(self, bus))
    }

    /// Check a register configuration without writing it: every address a
    /// described register or opaque range of the project, every domain held
    /// awake by one of `awake` (always-on domains need none), every value
    /// within the register's writable fields, masked writes with their
    /// enables (see [`config`](crate::config)). The first failure is the
    /// error.
    ///
    /// # Panics
    ///
    /// When a proof was made by another device.
    #[track_caller]
    pub fn check_program(
        &self,
        writes: &[(u64, u64)],
        awake: &[&dyn crate::config::AwakeAny<I>],
    ) -> Result<(), crate::config::ProgramError> {
        use crate::config::{check_write, covered, ProgramError};
        let info = P::INFO.ok_or(ProgramError::NoMetadata)?;
        for p in awake {
            self.check(*p);
        }
        for (index, &(address, value)) in writes.iter().enumerate() {
            let (domain, register) = check_write(info, index, address, value)?;
            if !covered(info, domain, awake) {
                return Err(ProgramError::NotAwake {
                    index,
                    register,
                    domain: domain.unwrap_or("none"),
                });
            }
        }
        Ok(())
    }

    /// Write a register configuration: `(address, value)` pairs such as a
    /// block of a metric set's programming
    /// (`perfregs_metrics::bdw::test_oa::SET`), in order, as 32-bit MMIO
    /// writes, after [`Device::check_program`] accepted the whole list. On
    /// an error nothing is written. Returns the number of writes.
    ///
    /// # Panics
    ///
    /// When the bus is borrowed, or a proof was made by another device.
    #[track_caller]
    pub fn program(
        &self,
        writes: &[(u64, u64)],
        awake: &[&dyn crate::config::AwakeAny<I>],
    ) -> Result<usize, crate::config::ProgramError>
    where
        B: Bus<Mmio>,
    {
        self.check_program(writes, awake)?;
        let mut io = self.io();
        for &(address, value) in writes {
            io.bus_mut().write32(address, value as u32);
        }
        Ok(writes.len())
    }

    /// A proof that domain `D` is awake without waking it, for when someone
    /// else holds it awake (the kernel driver, a debugfs force-wake file) or
    /// the bus is plain memory. It borrows the device and is accepted by this
    /// device only. Accesses under a wrong assumption are terminated by the
    /// hardware: reads return 0, writes are dropped.
    pub fn assume_awake<D: Wakeable<Project = P>>(&self) -> Assumed<'_, D, I> {
        Assumed {
            device: self.addr(),
            _proof: PhantomData,
        }
    }
}
