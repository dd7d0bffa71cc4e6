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
//! A bus that can fail (a device file, a mapped BAR) keeps the fault of a
//! failed access ([`Bus::take_fault`]); the `try_` accessors
//! ([`Device::try_read`], [`Device::try_write`], [`Device::try_modify`],
//! [`Device::try_write_masked`] and the same on [`Io`]) return it as a
//! [`BusFault`](crate::BusFault), while the plain ones return what the bus
//! gave (all ones, for most) and leave the fault for the next check.
//!
//! Here: the device, its bus borrowed once ([`Io`]), and their accessors.
//! The one implementation behind the accessors of [`Device`], [`Io`] and
//! [`Steering`] is in `accessors`; force-wake guards and proofs in `wake`;
//! the steering handle in `steering`.

use crate::access::{Clearable, Field, WriteValue};
use crate::brand::sealed::Proof;
use crate::brand::{Brand, Identity, Unbranded};
use crate::bus::{Bus, BusFault, Mmio};
use crate::power::{Awake, HoldsAwake, WakeError, Wakeable, MAX_DOMAINS};
use crate::register::{
    MaskedWritable, OnProject, Project, ReadOf, Readable, Steered, Unicast, Writable, WriteOf,
};
use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

mod accessors;
mod steering;
#[cfg(test)]
mod tests;
mod wake;

/// The `try_` accessors of [`Device`] and [`Io`] (`$s: $recv`: the
/// receiver, `self: &self` or `self: &mut self`): as the plain ones, with
/// the bus's fault as the error. They are not in any compile-fail case, so
/// one definition serves both types.
macro_rules! fallible_accessors {
    // `$name`: `$plain` (a write from `Start::$start` of a `$bound` register),
    // with the bus's fault as the error.
    (@write $ty:ident, $s:ident: [$($recv:tt)+] $name:ident, $plain:ident, $bound:ident, $start:ident) => {
        #[doc = concat!("As [`", stringify!($ty), "::", stringify!($plain), "`], with the bus's fault as")]
        /// the error (see [`Device::try_read`]).
        #[inline]
        #[track_caller]
        pub fn $name<R>(
            $($recv)+,
            reg: R,
            awake: &impl Awake<R::Domain, I>,
            f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
        ) -> Result<(), BusFault>
        where
            R: $bound + Unicast + OnProject<P>,
            B: Bus<R::Space>,
        {
            $s.check(awake);
            accessors::try_write($s, reg, accessors::Start::$start, f)
        }
    };
    ($ty:ident, $s:ident: $($recv:tt)+) => {
        #[doc = concat!("As [`", stringify!($ty), "::read`], with the bus's fault as the error")]
        /// instead of the all-ones (or zero) value a failing bus returns. A
        /// fault left by an earlier access and not yet taken
        /// ([`Bus::take_fault`]) is returned first, without making this
        /// access. On an infallible bus this is `Ok(read)`, at no cost.
        #[inline]
        #[track_caller]
        pub fn try_read<R>(
            $($recv)+,
            reg: R,
            awake: &impl Awake<R::Domain, I>,
        ) -> Result<ReadOf<R>, BusFault>
        where
            R: Readable + Unicast + OnProject<P>,
            B: Bus<R::Space>,
        {
            $s.check(awake);
            accessors::try_read($s, &reg)
        }

        fallible_accessors!(@write $ty, $s: [$($recv)+] try_write, write, Writable, Reset);
        fallible_accessors!(
            @write $ty, $s: [$($recv)+] try_write_masked, write_masked, MaskedWritable, Zero
        );

        #[doc = concat!("As [`", stringify!($ty), "::modify`], with the bus's fault as the error")]
        /// (see [`Device::try_read`]): when the read fails, `f` is not
        /// called and nothing is written.
        #[inline]
        #[track_caller]
        pub fn try_modify<R>(
            $($recv)+,
            reg: R,
            awake: &impl Awake<R::Domain, I>,
            f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
        ) -> Result<(), BusFault>
        where
            R: Readable + Writable + Unicast + OnProject<P>,
            B: Bus<R::Space>,
        {
            $s.check(awake);
            accessors::try_modify($s, reg, f)
        }
    };
}

use steering::present_instances;
pub use steering::{group_instance, Steering, SEMAPHORE_POLLS};
use wake::{poll_ack, release_now, release_value, request_value, Limit, Missed};
pub use wake::{Assumed, ForceWake, HeldAwake};

/// How many times [`Device::forcewake`] polls an ack register before giving
/// up, on a bus without a clock (see [`Bus::now_ns`]; a bus with one waits
/// [`FORCEWAKE_TIMEOUT_NS`](crate::power::FORCEWAKE_TIMEOUT_NS) by it).
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
    /// The steering selector belongs to the kernel driver of a live GPU
    /// ([`Bus::kernel_owned`]): replicated registers are steered by the
    /// kernel under its lock, and a selector written from here could
    /// return another instance's value to either side.
    KernelOwned,
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
            BusyError::KernelOwned => {
                "steering belongs to the kernel on this bus (a live GPU its driver owns): \
                 replicated registers cannot be steered from here; read them through the \
                 kernel (an OA stream, debugfs) instead"
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
    /// Steered accesses made without their semaphore (not free in time).
    semaphore_timeouts: Cell<u32>,
    poll_limit: Cell<u32>,
    wait_ns: Cell<u64>,
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
            .field("wait_ns", &self.wait_ns.get())
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
            semaphore_timeouts: Cell::new(0),
            poll_limit: Cell::new(DEFAULT_POLL_LIMIT),
            wait_ns: Cell::new(crate::power::FORCEWAKE_TIMEOUT_NS),
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

    /// Polls of an ack register before [`Device::forcewake`] gives up on a
    /// bus without a clock (each poll is followed by [`Bus::pause`]).
    pub fn set_poll_limit(&self, polls: u32) {
        self.poll_limit.set(polls);
    }

    /// Nanoseconds of the bus's clock ([`Bus::now_ns`]) that
    /// [`Device::forcewake`] waits for an ack on a bus with a clock
    /// (default [`FORCEWAKE_TIMEOUT_NS`](crate::power::FORCEWAKE_TIMEOUT_NS),
    /// the kernel's 50 ms).
    pub fn set_wait_timeout_ns(&self, ns: u64) {
        self.wait_ns.set(ns);
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
        use crate::config::{check_write, uncovered, ProgramError};
        let info = P::INFO.ok_or(ProgramError::NoMetadata)?;
        for p in awake {
            self.check(*p);
        }
        for (index, &(address, value)) in writes.iter().enumerate() {
            let (domain, register) = check_write(info, index, address, value)?;
            if let Some(domain) = uncovered(info, domain, awake) {
                return Err(ProgramError::NotAwake {
                    index,
                    register,
                    domain,
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
        let bus = io.bus_mut();
        // Graphics 12.70+: the steering semaphores, so that the writes to
        // replicated ranges go out multicast (the selector is multicast
        // whenever its semaphore is free); one not taken is not given back.
        let mut held = [false; 8];
        for (h, s) in held.iter_mut().zip(P::SEMAPHORES) {
            *h = steering::acquire(bus, *s);
        }
        for &(address, value) in writes {
            bus.write32(address, value as u32);
        }
        for (h, s) in held.iter().zip(P::SEMAPHORES) {
            if *h {
                bus.write32(s.address, 1 << s.bit.min(31));
            }
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

    /// A proof that every power domain is awake, for as long as `holder`
    /// (the kernel's user force-wake file held open, see [`HoldsAwake`])
    /// lives: it borrows both the device and the holder, so dropping the
    /// holder while a proof is alive does not compile. Accepted by this
    /// device only. On a live GPU this is the way to awake domains: the
    /// kernel owns the force-wake registers, and [`Device::forcewake`] is
    /// refused there.
    pub fn assume_awake_all<'a, H: HoldsAwake + ?Sized>(
        &'a self,
        holder: &'a H,
    ) -> HeldAwake<'a, I> {
        let _ = holder;
        HeldAwake {
            device: self.addr(),
            _proof: PhantomData,
        }
    }
}

impl<P: Project, B, I: Identity> Device<P, B, I> {
    /// Read a register into a typed value (see [`Io::read`]).
    #[inline]
    #[track_caller]
    pub fn read<R>(&self, reg: R, awake: &impl Awake<R::Domain, I>) -> ReadOf<R>
    where
        R: Readable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.io().read(reg, awake)
    }

    /// Read a 64-bit register whose hardware is two dwords that keep counting
    /// (the 44-bit R2PCIe counters read over PCI config space): high, low,
    /// high again, and the low dword once more if the high one moved, so the
    /// value is one the counter really held. 32-bit registers read plainly.
    #[inline]
    #[track_caller]
    pub fn read_counter<R>(&self, reg: R, awake: &impl Awake<R::Domain, I>) -> ReadOf<R>
    where
        R: Readable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.io().read_counter(reg, awake)
    }

    /// Write a register from its reset value (see [`Io::write`]).
    #[inline]
    #[track_caller]
    pub fn write<R>(
        &self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::write(self, reg, accessors::Start::Reset, f);
    }

    /// Write a register starting from zero (see [`Io::write_from_zero`]).
    #[inline]
    #[track_caller]
    pub fn write_from_zero<R>(
        &self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::write(self, reg, accessors::Start::Zero, f);
    }

    /// Read, change some fields, write back (see [`Io::modify`]). `f` runs
    /// while the bus is not borrowed, so it may use the device.
    #[inline]
    #[track_caller]
    pub fn modify<R>(
        &self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Readable + Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::modify(self, reg, f);
    }

    /// Clear one write-one-to-clear field, leaving every other field as it is.
    #[inline]
    #[track_caller]
    pub fn clear<R, F>(&self, reg: R, awake: &impl Awake<R::Domain, I>, field: F)
    where
        R: Readable + Writable + Unicast + OnProject<P>,
        F: Field<Layout = R::Layout>,
        F::Access: Clearable,
        B: Bus<R::Space>,
    {
        self.modify(reg, awake, |_, w| w.clear(field));
    }

    /// Write a masked register (see [`Io::write_masked`]).
    #[inline]
    #[track_caller]
    pub fn write_masked<R>(
        &self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: MaskedWritable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::write(self, reg, accessors::Start::Zero, f);
    }

    fallible_accessors!(Device, self: &self);
}

impl<P: Project, B: Bus<Mmio>, I: Identity> Device<P, B, I> {
    /// Wake domain `D` and hold it awake while the guard lives. Guards are
    /// reference counted: only the first waits for the hardware, only the
    /// last one's drop releases the domain. A guard borrows the device and
    /// proves `D` awake to this device only.
    ///
    /// Protocol (as Linux i915): wait for a stale ack to clear, write the
    /// masked enable of the driver's request bit, poll the ack until set
    /// (with [`Bus::pause`] between polls: for the wait time by the bus's
    /// clock, [`Device::set_wait_timeout_ns`], on a bus with one, else at
    /// most the poll limit, [`Device::set_poll_limit`]), and on a timeout
    /// withdraw the request and return an error. A failed bus access ends
    /// the protocol with [`WakeError::Fault`]; a bus a kernel driver owns
    /// ([`Bus::kernel_owned`]) is refused with [`WakeError::KernelOwned`]
    /// (nothing is written).
    ///
    /// # Panics
    ///
    /// When `D` must be woken and the bus is borrowed (see [`Device::io`]).
    #[track_caller]
    pub fn forcewake<D: Wakeable<Project = P>>(
        &self,
    ) -> Result<ForceWake<'_, P, B, D, I>, WakeError> {
        let refs = &self.wake_refs[D::INDEX % MAX_DOMAINS];
        if refs.get() == 0 {
            self.wake::<D>()?;
        }
        refs.set(refs.get().saturating_add(1));
        Ok(ForceWake {
            device: self,
            _domain: PhantomData,
        })
    }

    /// Number of live guards for `D`.
    pub fn wake_count<D: Wakeable<Project = P>>(&self) -> u32 {
        self.wake_refs[D::INDEX % MAX_DOMAINS].get()
    }

    #[track_caller]
    fn wake<D: Wakeable>(&self) -> Result<(), WakeError> {
        let limit = Limit {
            polls: self.poll_limit.get(),
            ns: self.wait_ns.get(),
        };
        let domain = D::NAME;
        self.with_bus(|bus| {
            if bus.kernel_owned() {
                return Err(WakeError::KernelOwned { domain });
            }
            // A fault left by an earlier access comes first (as in the
            // `try_` accessors): the ack reads below must be this wait's.
            if let Some(fault) = bus.take_fault() {
                return Err(WakeError::Fault { domain, fault });
            }
            match poll_ack::<D, B>(bus, false, limit) {
                Ok(()) => {}
                Err(Missed::Fault(fault)) => return Err(WakeError::Fault { domain, fault }),
                Err(_) => return Err(WakeError::StaleAck { domain }),
            }
            bus.write32(D::REQUEST, request_value::<D>());
            if let Some(fault) = bus.take_fault() {
                return Err(WakeError::Fault { domain, fault });
            }
            let missed = match poll_ack::<D, B>(bus, true, limit) {
                Ok(()) => return Ok(()),
                Err(missed) => missed,
            };
            bus.write32(D::REQUEST, release_value::<D>());
            Err(match missed {
                Missed::Polls(polls) => WakeError::Timeout { domain, polls },
                Missed::Time(waited_ns) => WakeError::TimedOut { domain, waited_ns },
                Missed::Fault(fault) => WakeError::Fault { domain, fault },
            })
        })
    }

    /// Drop one reference to `D`; the last one releases it (now, or when the
    /// bus is next freed if it is borrowed).
    fn release<D: Wakeable>(&self) {
        let refs = &self.wake_refs[D::INDEX % MAX_DOMAINS];
        refs.set(refs.get().saturating_sub(1));
        if refs.get() == 0 {
            self.write_or_defer(D::INDEX % MAX_DOMAINS, release_now::<D, B>);
        }
    }
}

impl<P: Steered, B: Bus<Mmio>, I: Identity> Device<P, B, I> {
    /// Exclusive use of the steering selector, for replicated (multicast)
    /// registers. Reads the fuse mirrors once (their domain must be awake).
    /// Dropping it restores multicast, also when unwinding from a panic (a
    /// selector without a multicast bit is restored after each access).
    ///
    /// # Panics
    ///
    /// When another [`Steering`] of the device is alive, the bus is
    /// borrowed, or the kernel owns the selector ([`Device::try_steering`]
    /// returns the error instead), or when `awake` was made by another device.
    #[track_caller]
    pub fn steering(&self, awake: &impl Awake<<P as Steered>::Domain, I>) -> Steering<'_, P, B, I> {
        match self.try_steering(awake) {
            Ok(s) => s,
            Err(e) => busy(e),
        }
    }

    /// As [`Device::steering`], with [`BusyError::Steering`] when another
    /// [`Steering`] is alive, [`BusyError::Bus`] when the bus is borrowed and
    /// [`BusyError::KernelOwned`] on a bus whose kernel driver owns the
    /// selector ([`Bus::kernel_owned`]: steering belongs to the kernel).
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
        if self.try_with_bus(|bus| bus.kernel_owned())? {
            return Err(BusyError::KernelOwned);
        }
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

impl<P: Project, B, I: Identity> Io<'_, P, B, I> {
    /// Read a register into a typed value.
    #[inline]
    #[track_caller]
    pub fn read<R>(&mut self, reg: R, awake: &impl Awake<R::Domain, I>) -> ReadOf<R>
    where
        R: Readable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::read(self, &reg)
    }

    /// Read a counter as two dwords that keep counting (see
    /// [`Device::read_counter`]).
    #[inline]
    #[track_caller]
    pub fn read_counter<R>(&mut self, reg: R, awake: &impl Awake<R::Domain, I>) -> ReadOf<R>
    where
        R: Readable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::read_counter(self, reg)
    }

    /// Write a register: `f` starts from the reset value (with RW1C/RW1S, MBZ
    /// and reserved bits zero) and sets fields by name.
    #[inline]
    #[track_caller]
    pub fn write<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::write(self, reg, accessors::Start::Reset, f);
    }

    /// Write a register starting from zero instead of the reset value.
    #[inline]
    #[track_caller]
    pub fn write_from_zero<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::write(self, reg, accessors::Start::Zero, f);
    }

    /// Read, change some fields, write back. Bits that must not be written
    /// back (RW1C, RW1S, MBZ, reserved, undescribed) are written as zero,
    /// whatever was read; every other bit (PBC included) is written back as read.
    #[inline]
    #[track_caller]
    pub fn modify<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Readable + Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::modify(self, reg, f);
    }

    /// Clear one write-one-to-clear field, leaving every other field as it is.
    #[inline]
    #[track_caller]
    pub fn clear<R, F>(&mut self, reg: R, awake: &impl Awake<R::Domain, I>, field: F)
    where
        R: Readable + Writable + Unicast + OnProject<P>,
        F: Field<Layout = R::Layout>,
        F::Access: Clearable,
        B: Bus<R::Space>,
    {
        self.modify(reg, awake, |_, w| w.clear(field));
    }

    /// Write a masked register: only the fields `f` sets are enabled in bits
    /// 31:16, so no read-modify-write is needed and other bits are untouched.
    #[inline]
    #[track_caller]
    pub fn write_masked<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: MaskedWritable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.check(awake);
        accessors::write(self, reg, accessors::Start::Zero, f);
    }

    fallible_accessors!(Io, self: &mut self);
}
