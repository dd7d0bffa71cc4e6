//! The device handle: a bus, the project as a type, force-wake reference
//! counts and the steering lock.
//!
//! Accessors take `&self`, so force-wake guards (which borrow the device)
//! can be held across many accesses. Every accessor takes a proof that the
//! register's power domain is awake; replicated registers are reached only
//! through [`Steering`].

use crate::access::{Clearable, Field, ReadValue, WriteValue};
use crate::bus::{Bus, Mmio};
use crate::power::{Awake, WakeError, Wakeable, MAX_DOMAINS};
use crate::register::{
    MaskedWritable, OnProject, Project, Readable, Register, Replicated, ReplicationGroup, Steered,
    Unicast, Writable,
};
use crate::register::{ReadOf, WriteOf};
use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

#[inline]
fn raw_read<R: Register, B: Bus<R::Space>>(reg: R, bus: &mut B) -> u64 {
    if R::WIDTH == 64 {
        bus.read64(reg.address())
    } else {
        u64::from(bus.read32(reg.address()))
    }
}

#[inline]
fn raw_write<R: Register, B: Bus<R::Space>>(reg: R, bus: &mut B, value: u64) {
    if R::WIDTH == 64 {
        bus.write64(reg.address(), value)
    } else {
        bus.write32(reg.address(), value as u32)
    }
}

/// Start a write value at `init` and let `f` set fields.
#[inline]
fn build<R: Register>(init: u64, f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>) -> WriteOf<R> {
    let mut w = WriteOf::<R>::from_raw(init);
    f(&mut w);
    w
}

/// How long [`Device::forcewake`] polls an ack register before giving up.
pub const DEFAULT_POLL_LIMIT: u32 = 10_000;

/// A device of project `P` reached through bus `B`.
///
/// Every accessor takes a register of project `P` (using another project's
/// register does not compile) and a proof that its power domain is awake.
#[derive(Debug)]
pub struct Device<P: Project, B> {
    /// Reached only while `busy` is set by the one reaching it (see `with_bus`, `io`).
    bus: UnsafeCell<B>,
    busy: Cell<bool>,
    wake_refs: [Cell<u32>; MAX_DOMAINS],
    steering_taken: Cell<bool>,
    poll_limit: Cell<u32>,
    _project: PhantomData<P>,
}

impl<P: Project, B> Device<P, B> {
    /// A device of project `P` on `bus`.
    pub fn new(bus: B) -> Self {
        Device {
            bus: UnsafeCell::new(bus),
            busy: Cell::new(false),
            wake_refs: Default::default(),
            steering_taken: Cell::new(false),
            poll_limit: Cell::new(DEFAULT_POLL_LIMIT),
            _project: PhantomData,
        }
    }

    /// The bus. Needs `&mut self`: no guard or steering handle may be alive.
    pub fn bus_mut(&mut self) -> &mut B {
        self.bus.get_mut()
    }

    /// Give the bus back.
    pub fn into_bus(self) -> B {
        self.bus.into_inner()
    }

    /// Polls of an ack register before [`Device::forcewake`] gives up
    /// (each poll is followed by [`Bus::pause`]).
    pub fn set_poll_limit(&self, polls: u32) {
        self.poll_limit.set(polls);
    }

    /// Run `f` on the bus: raw accesses that bypass every check. `None` if
    /// called from inside another `with_bus` (accessors used inside `f` see
    /// the bus busy: reads return 0, writes are dropped).
    #[inline]
    pub fn with_bus<T>(&self, f: impl FnOnce(&mut B) -> T) -> Option<T> {
        let mut io = self.io()?;
        Some(f(&mut io.bus))
    }

    #[inline]
    fn raw_read<R: Register>(&self, reg: R) -> u64
    where
        B: Bus<R::Space>,
    {
        self.with_bus(|bus| raw_read(reg, bus)).unwrap_or(0)
    }

    #[inline]
    fn raw_write<R: Register>(&self, reg: R, value: u64)
    where
        B: Bus<R::Space>,
    {
        self.with_bus(|bus| raw_write(reg, bus, value));
    }

    /// Borrow the bus once for a batch of typed accesses (no per-access borrow
    /// check: the zero-overhead path for hot loops). `None` when the bus is
    /// already borrowed. While the guard lives, the device's own accessors see
    /// the bus busy: their reads return 0 and their writes are dropped. The
    /// guard derefs to [`Io`], which is the bus itself: pass `&mut Io` on.
    #[inline]
    pub fn io(&self) -> Option<IoGuard<'_, P, B>> {
        if self.busy.replace(true) {
            return None;
        }
        // SAFETY: `busy` was clear, so no other `&mut B` exists: every path
        // to the bus (`with_bus`, `io`) sets it first, `bus_mut` and
        // `into_bus` need the device by `&mut` or by value, and `Io` clears
        // the flag only when dropped (a leaked `Io` leaves the bus busy
        // forever, which is safe). `Device` is `!Sync` (it holds `Cell`s), so
        // no other thread can reach the flag.
        let bus = unsafe { &mut *self.bus.get() };
        Some(IoGuard {
            io: Io::from_bus(bus),
            busy: &self.busy,
        })
    }

    /// Read a register into a typed value (see [`Io::read`]).
    #[inline]
    pub fn read<R>(&self, reg: R, awake: &impl Awake<R::Domain>) -> ReadOf<R>
    where
        R: Readable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        match self.io() {
            Some(mut io) => io.read(reg, awake),
            None => ReadOf::<R>::from_raw(0),
        }
    }

    /// Read a 64-bit register whose hardware is two dwords that keep counting
    /// (the 44-bit R2PCIe counters read over PCI config space): high, low,
    /// high again, and the low dword once more if the high one moved, so the
    /// value is one the counter really held. 32-bit registers read plainly.
    #[inline]
    pub fn read_counter<R>(&self, reg: R, _awake: &impl Awake<R::Domain>) -> ReadOf<R>
    where
        R: Readable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let raw = self.with_bus(|b| {
            if R::WIDTH != 64 {
                return u64::from(b.read32(reg.address()));
            }
            let hi_addr = reg.address().wrapping_add(4);
            let hi1 = b.read32(hi_addr);
            let mut lo = b.read32(reg.address());
            let hi2 = b.read32(hi_addr);
            if hi1 != hi2 {
                lo = b.read32(reg.address());
            }
            u64::from(hi2) << 32 | u64::from(lo)
        });
        ReadOf::<R>::from_raw(raw.unwrap_or(0))
    }

    /// Write a register from its reset value (see [`Io::write`]).
    #[inline]
    pub fn write<R>(
        &self,
        reg: R,
        awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let w = build::<R>(R::RESET & R::KEEP_MASK, f);
        if let Some(mut io) = self.io() {
            io.write_value(reg, awake, &w);
        }
    }

    /// Write a register starting from zero (see [`Io::write_from_zero`]).
    #[inline]
    pub fn write_from_zero<R>(
        &self,
        reg: R,
        awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let w = build::<R>(0, f);
        if let Some(mut io) = self.io() {
            io.write_value(reg, awake, &w);
        }
    }

    /// Read, change some fields, write back (see [`Io::modify`]). `f` runs
    /// while the bus is not borrowed.
    #[inline]
    pub fn modify<R>(
        &self,
        reg: R,
        _awake: &impl Awake<R::Domain>,
        f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Readable + Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let raw = self.raw_read(reg);
        let mut w = WriteOf::<R>::from_raw(raw & R::KEEP_MASK);
        f(ReadOf::<R>::from_raw(raw), &mut w);
        self.raw_write(reg, w.raw());
    }

    /// Clear one write-one-to-clear field, leaving every other field as it is.
    #[inline]
    pub fn clear<R, F>(&self, reg: R, awake: &impl Awake<R::Domain>, field: F)
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
    pub fn write_masked<R>(
        &self,
        reg: R,
        awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: MaskedWritable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let w = build::<R>(0, f);
        if let Some(mut io) = self.io() {
            io.write_value(reg, awake, &w);
        }
    }

    /// A proof that domain `D` is awake without waking it, for when someone
    /// else holds it awake (the kernel driver, a debugfs force-wake file) or
    /// the bus is plain memory. Accesses under a wrong assumption are
    /// terminated by the hardware: reads return 0, writes are dropped.
    pub fn assume_awake<D: Wakeable<Project = P>>(&self) -> Assumed<'_, D> {
        Assumed {
            _device: PhantomData,
        }
    }
}

impl<P: Project, B: Bus<Mmio>> Device<P, B> {
    /// Wake domain `D` and hold it awake while the guard lives. Guards are
    /// reference counted: only the first waits for the hardware, only the
    /// last one's drop releases the domain.
    ///
    /// Protocol (as Linux i915): wait for a stale ack to clear, write the
    /// masked enable of the driver's request bit, poll the ack until set
    /// (with [`Bus::pause`] between polls, at most the poll limit), and on a
    /// timeout withdraw the request and return an error.
    pub fn forcewake<D: Wakeable<Project = P>>(&self) -> Result<ForceWake<'_, P, B, D>, WakeError> {
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

    fn wake<D: Wakeable>(&self) -> Result<(), WakeError> {
        let bit = 1u32 << D::BIT;
        let limit = self.poll_limit.get();
        let acked = |bus: &mut B| bus.read32(D::ACK) & bit != 0;
        let poll = |want: bool| -> Option<u32> {
            self.with_bus(|bus| {
                for polls in 0..limit {
                    if acked(bus) == want {
                        return Some(polls);
                    }
                    bus.pause();
                }
                None
            })
            .flatten()
        };
        if poll(false).is_none() {
            return Err(WakeError::StaleAck { domain: D::NAME });
        }
        self.with_bus(|bus| bus.write32(D::REQUEST, bit << 16 | bit));
        match poll(true) {
            Some(_) => Ok(()),
            None => {
                self.with_bus(|bus| bus.write32(D::REQUEST, bit << 16));
                Err(WakeError::Timeout {
                    domain: D::NAME,
                    polls: limit,
                })
            }
        }
    }

    fn release<D: Wakeable>(&self) {
        let refs = &self.wake_refs[D::INDEX % MAX_DOMAINS];
        refs.set(refs.get().saturating_sub(1));
        if refs.get() == 0 {
            // Masked disable; the driver does not wait for the ack to clear.
            self.with_bus(|bus| bus.write32(D::REQUEST, 1 << (D::BIT + 16)));
        }
    }
}

impl<P: Steered, B: Bus<Mmio>> Device<P, B> {
    /// Exclusive use of the steering selector, for replicated (multicast)
    /// registers. Reads the fuse mirrors once (their domain must be awake).
    /// `None` when another [`Steering`] is alive. Dropping it restores
    /// multicast, also when unwinding from a panic.
    pub fn steering(
        &self,
        _awake: &impl Awake<<P as Steered>::Domain>,
    ) -> Option<Steering<'_, P, B>> {
        if self.steering_taken.replace(true) {
            return None;
        }
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
                    let raw = self
                        .with_bus(|b| u64::from(b.read32(f.address)))
                        .unwrap_or(0);
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
        Some(Steering {
            device: self,
            present,
        })
    }
}

/// A guard holding power domain `D` awake; also the proof [`Awake<D>`].
#[must_use = "the domain is released when the guard is dropped"]
#[derive(Debug)]
pub struct ForceWake<'d, P: Project, B: Bus<Mmio>, D: Wakeable> {
    device: &'d Device<P, B>,
    _domain: PhantomData<D>,
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable> Awake<D> for ForceWake<'_, P, B, D> {}
/// Registers outside every force-wake range need no domain: any guard will do.
impl<P: Project, B: Bus<Mmio>, D: Wakeable> Awake<crate::power::NoDomain>
    for ForceWake<'_, P, B, D>
{
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable> Clone for ForceWake<'_, P, B, D> {
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

impl<P: Project, B: Bus<Mmio>, D: Wakeable> Drop for ForceWake<'_, P, B, D> {
    fn drop(&mut self) {
        self.device.release::<D>();
    }
}

/// The proof from [`Device::assume_awake`].
#[derive(Clone, Copy, Debug)]
pub struct Assumed<'d, D> {
    _device: PhantomData<(&'d (), D)>,
}

impl<D: Wakeable> Awake<D> for Assumed<'_, D> {}
/// Registers outside every force-wake range need no domain: any proof will do.
impl<D: Wakeable> Awake<crate::power::NoDomain> for Assumed<'_, D> {}

/// Exclusive use of the steering selector (see [`Device::steering`]).
#[derive(Debug)]
pub struct Steering<'d, P: Steered, B: Bus<Mmio>> {
    device: &'d Device<P, B>,
    present: [u64; 8],
}

fn field(value: u64, (lsb, width): (u32, u32)) -> u64 {
    (value & ((1u64 << width.min(63)) - 1)) << lsb
}

impl<'d, P: Steered, B: Bus<Mmio>> Steering<'d, P, B> {
    fn select_multicast(&self) {
        self.device
            .with_bus(|b| b.write32(P::SELECTOR, P::MULTICAST as u32));
    }

    /// Instance n is steered as slice 0, subslice n (TGL has one slice).
    fn select(&self, instance: u32) {
        let v = field(0, P::SLICE) | field(u64::from(instance), P::SUBSLICE);
        self.device.with_bus(|b| b.write32(P::SELECTOR, v as u32));
    }

    /// Bit n set: instance n of `R`'s group is present (not fused off).
    pub fn present<R: Replicated>(&self) -> u64 {
        self.present[R::Group::INDEX % 8]
    }

    /// Instances of `R`'s group that are present, ascending.
    pub fn instances<R: Replicated>(&self) -> impl Iterator<Item = u32> {
        let mask = self.present::<R>();
        (0..R::Group::INSTANCES.min(64)).filter(move |n| mask & (1 << n) != 0)
    }

    fn is_present<R: Replicated>(&self, instance: u32) -> bool {
        instance < R::Group::INSTANCES.min(64) && self.present::<R>() & (1 << instance) != 0
    }

    /// Read instance `instance`; `None` when it does not exist or is fused off.
    pub fn read<R>(
        &mut self,
        reg: R,
        instance: u32,
        _awake: &impl Awake<R::Domain>,
    ) -> Option<ReadOf<R>>
    where
        R: Readable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        if !self.is_present::<R>(instance) {
            return None;
        }
        self.select(instance);
        Some(ReadOf::<R>::from_raw(self.device.raw_read(reg)))
    }

    /// Read the lowest present instance (as drivers do for a representative value).
    pub fn read_any<R>(&mut self, reg: R, awake: &impl Awake<R::Domain>) -> Option<(u32, ReadOf<R>)>
    where
        R: Readable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        let first = self.instances::<R>().next()?;
        self.read(reg, first, awake).map(|v| (first, v))
    }

    /// Read every present instance, ascending.
    pub fn read_each<'s, R, A>(
        &'s mut self,
        reg: R,
        awake: &'s A,
    ) -> impl Iterator<Item = (u32, ReadOf<R>)> + use<'s, 'd, P, B, R, A>
    where
        R: Readable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
        A: Awake<R::Domain>,
    {
        let list: [u32; 64] = core::array::from_fn(|i| i as u32);
        let mask = self.present::<R>();
        let count = R::Group::INSTANCES.min(64) as usize;
        list.into_iter()
            .take(count)
            .filter(move |n| mask & (1 << n) != 0)
            .filter_map(move |n| self.read(reg, n, awake).map(|v| (n, v)))
    }

    /// Multicast write: every present instance gets the value.
    pub fn write<R>(
        &mut self,
        reg: R,
        _awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        let w = build::<R>(R::RESET & R::KEEP_MASK, f);
        self.select_multicast();
        self.device.raw_write(reg, w.raw());
    }

    /// Unicast write of one instance; false (nothing written) when it does not
    /// exist or is fused off.
    pub fn write_one<R>(
        &mut self,
        reg: R,
        instance: u32,
        _awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) -> bool
    where
        R: Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        if !self.is_present::<R>(instance) {
            return false;
        }
        let w = build::<R>(R::RESET & R::KEEP_MASK, f);
        self.select(instance);
        self.device.raw_write(reg, w.raw());
        true
    }
}

impl<P: Steered, B: Bus<Mmio>> Drop for Steering<'_, P, B> {
    fn drop(&mut self) {
        self.select_multicast();
        self.device.steering_taken.set(false);
    }
}

/// The bus of a [`Device`] borrowed once (see [`Device::io`]): it derefs to
/// [`Io`], and frees the bus when dropped.
pub struct IoGuard<'d, P: Project, B> {
    io: &'d mut Io<'d, P, B>,
    busy: &'d Cell<bool>,
}

impl<P: Project, B> Drop for IoGuard<'_, P, B> {
    #[inline]
    fn drop(&mut self) {
        self.busy.set(false);
    }
}

impl<'d, P: Project, B> Deref for IoGuard<'d, P, B> {
    type Target = Io<'d, P, B>;
    #[inline(always)]
    fn deref(&self) -> &Io<'d, P, B> {
        self.io
    }
}

impl<'d, P: Project, B> DerefMut for IoGuard<'d, P, B> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Io<'d, P, B> {
        self.io
    }
}

impl<P: Project, B> core::fmt::Debug for IoGuard<'_, P, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("IoGuard")
    }
}

/// Typed accesses to the bus of a [`Device`], borrowed once (reached through
/// the [`IoGuard`] of [`Device::io`]): the same accessors, with the same
/// proofs, and no per-access borrow check.
///
/// `Io` is the bus itself as a type (`repr(transparent)` over `B`), so
/// `&mut Io` is a `&mut B`: code handed `&mut Io` reaches the bus's state in
/// one load, as hand-written code handed `&mut B` does (a handle that held a
/// reference to the bus would cost one more load per access wherever the
/// handle's memory is opaque to the optimizer).
#[repr(transparent)]
pub struct Io<'d, P: Project, B> {
    bus: B,
    _borrow: PhantomData<(&'d (), P)>,
}

impl<P: Project, B> core::fmt::Debug for Io<'_, P, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Io")
    }
}

impl<'d, P: Project, B> Io<'d, P, B> {
    /// The bus, as an `Io`.
    #[inline(always)]
    fn from_bus(bus: &'d mut B) -> &'d mut Self {
        // SAFETY: `Io` is `repr(transparent)` over `B` (its other field is a
        // zero-sized marker), so the pointer is valid for `Io`, and the
        // exclusive borrow of `bus` moves to the result.
        unsafe { &mut *(bus as *mut B).cast::<Self>() }
    }

    /// As [`Device::assume_awake`], for code that holds only the `Io`.
    pub fn assume_awake<D: Wakeable<Project = P>>(&self) -> Assumed<'static, D> {
        Assumed {
            _device: PhantomData,
        }
    }

    #[inline]
    fn write_value<R>(&mut self, reg: R, _awake: &impl Awake<R::Domain>, w: &WriteOf<R>)
    where
        R: Register + OnProject<P>,
        B: Bus<R::Space>,
    {
        raw_write(reg, &mut self.bus, w.raw());
    }

    /// Read a register into a typed value.
    #[inline]
    pub fn read<R>(&mut self, reg: R, _awake: &impl Awake<R::Domain>) -> ReadOf<R>
    where
        R: Readable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        ReadOf::<R>::from_raw(raw_read(reg, &mut self.bus))
    }

    /// Write a register: `f` starts from the reset value (with RW1C/RW1S, MBZ
    /// and reserved bits zero) and sets fields by name.
    #[inline]
    pub fn write<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let w = build::<R>(R::RESET & R::KEEP_MASK, f);
        self.write_value(reg, awake, &w);
    }

    /// Write a register starting from zero instead of the reset value.
    #[inline]
    pub fn write_from_zero<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let w = build::<R>(0, f);
        self.write_value(reg, awake, &w);
    }

    /// Read, change some fields, write back. Bits that must not be written
    /// back (RW1C, RW1S, MBZ, reserved, undescribed) are written as zero,
    /// whatever was read; every other bit (PBC included) is written back as read.
    #[inline]
    pub fn modify<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain>,
        f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Readable + Writable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let raw = raw_read(reg, &mut self.bus);
        let mut w = WriteOf::<R>::from_raw(raw & R::KEEP_MASK);
        f(ReadOf::<R>::from_raw(raw), &mut w);
        self.write_value(reg, awake, &w);
    }

    /// Clear one write-one-to-clear field, leaving every other field as it is.
    #[inline]
    pub fn clear<R, F>(&mut self, reg: R, awake: &impl Awake<R::Domain>, field: F)
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
    pub fn write_masked<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: MaskedWritable + Unicast + OnProject<P>,
        B: Bus<R::Space>,
    {
        let w = build::<R>(0, f);
        self.write_value(reg, awake, &w);
    }
}
