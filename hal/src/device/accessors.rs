//! The typed accessors of [`Device`] and [`Io`], and the one implementation
//! behind them and behind [`Steering`](super::Steering)'s: each way to a
//! device's bus (the device itself, which borrows its bus for each access;
//! an `Io`, the bus borrowed once; the steering handle, which steers the bus
//! to one instance or to all of them) is a [`Port`], and what a write starts
//! from and which bits a read-modify-write never writes back are decided
//! here alone.
//!
//! The proof check is the caller's: each public accessor makes it (with its
//! type's `check`) before it reaches a port.

use super::{Device, Io, Steering};
use crate::access::{Clearable, Field, ReadValue, WriteValue};
use crate::brand::Identity;
use crate::bus::{Bus, Mmio};
use crate::power::Awake;
use crate::register::{
    MaskedWritable, OnProject, Project, ReadOf, Readable, Register, Replicated, ReplicationGroup,
    Steered, Unicast, Writable, WriteOf,
};

/// A way to the bus of one device.
pub(super) trait Port<B> {
    /// Run `f` on the bus (a device's port panics when it is borrowed).
    #[track_caller]
    fn with_bus<T>(&mut self, f: impl FnOnce(&mut B) -> T) -> T;
}

/// What a write starts from before its closure sets fields.
#[derive(Clone, Copy)]
pub(super) enum Start {
    /// The reset value, with the bits a write must not carry back (RW1C,
    /// RW1S, MBZ, reserved, undescribed) zero.
    Reset,
    /// Zero.
    Zero,
}

impl Start {
    #[inline(always)]
    fn raw<R: Register>(self) -> u64 {
        match self {
            Start::Reset => R::RESET & R::KEEP_MASK,
            Start::Zero => 0,
        }
    }
}

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

/// Read `reg` into a typed value.
#[inline]
#[track_caller]
pub(super) fn read<R: Register, B: Bus<R::Space>>(mut port: impl Port<B>, reg: R) -> ReadOf<R> {
    ReadOf::<R>::from_raw(port.with_bus(|bus| raw_read(reg, bus)))
}

/// Read a counter whose hardware is two dwords that keep counting: high,
/// low, high again, and the low dword once more if the high one moved.
/// 32-bit registers read plainly.
#[inline]
#[track_caller]
pub(super) fn read_counter<R: Register, B: Bus<R::Space>>(
    mut port: impl Port<B>,
    reg: R,
) -> ReadOf<R> {
    let raw = port.with_bus(|bus| {
        if R::WIDTH != 64 {
            return u64::from(bus.read32(reg.address()));
        }
        let hi_addr = reg.address().wrapping_add(4);
        let hi1 = bus.read32(hi_addr);
        let mut lo = bus.read32(reg.address());
        let hi2 = bus.read32(hi_addr);
        if hi1 != hi2 {
            lo = bus.read32(reg.address());
        }
        u64::from(hi2) << 32 | u64::from(lo)
    });
    ReadOf::<R>::from_raw(raw)
}

/// The value `f` builds from `start`.
#[inline]
pub(super) fn build<R: Register>(
    start: Start,
    f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
) -> WriteOf<R> {
    let mut w = WriteOf::<R>::from_raw(start.raw::<R>());
    f(&mut w);
    w
}

/// Write `reg` with what `f` builds from `start` (`f` runs before the bus is
/// reached).
#[inline]
#[track_caller]
pub(super) fn write<R: Register, B: Bus<R::Space>>(
    mut port: impl Port<B>,
    reg: R,
    start: Start,
    f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
) {
    let w = build::<R>(start, f);
    port.with_bus(|bus| raw_write(reg, bus, w.raw()));
}

/// Read `reg`, let `f` change fields, write it back: bits that must not be
/// written back (RW1C, RW1S, MBZ, reserved, undescribed) are written as zero
/// whatever was read, every other bit as read. `f` runs between the two
/// accesses, outside the port's use of the bus.
#[inline]
#[track_caller]
pub(super) fn modify<R: Register, B: Bus<R::Space>>(
    mut port: impl Port<B>,
    reg: R,
    f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
) {
    let raw = port.with_bus(|bus| raw_read(reg, bus));
    let mut w = WriteOf::<R>::from_raw(raw & R::KEEP_MASK);
    f(ReadOf::<R>::from_raw(raw), &mut w);
    port.with_bus(|bus| raw_write(reg, bus, w.raw()));
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
        self.check(awake);
        read(self, reg)
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
        self.check(awake);
        read_counter(self, reg)
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
        write(self, reg, Start::Reset, f);
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
        write(self, reg, Start::Zero, f);
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
        modify(self, reg, f);
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
        write(self, reg, Start::Zero, f);
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
        read(self, reg)
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
        read_counter(self, reg)
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
        write(self, reg, Start::Reset, f);
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
        write(self, reg, Start::Zero, f);
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
        modify(self, reg, f);
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
        write(self, reg, Start::Zero, f);
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
        Some(read(self.at::<R>(instance)?, reg))
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
            .filter_map(move |n| self.read(reg, n, awake).map(|v| (n, v)))
    }

    /// Multicast write: every present instance gets the value `f` builds
    /// from the reset value (as [`Device::write`]).
    #[track_caller]
    pub fn write<R>(
        &mut self,
        reg: R,
        awake: &impl Awake<R::Domain, I>,
        f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
    ) where
        R: Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        write(self.all(), reg, Start::Reset, f);
    }

    /// Unicast write of one instance (as [`Device::write`]); false (nothing
    /// written) when it does not exist or is fused off.
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
        R: Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        let Some(one) = self.at::<R>(instance) else {
            return false;
        };
        write(one, reg, Start::Reset, f);
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
        R: Readable + Writable + Replicated + OnProject<P>,
        B: Bus<R::Space>,
    {
        self.device.check(awake);
        let Some(one) = self.at::<R>(instance) else {
            return false;
        };
        modify(one, reg, f);
        true
    }
}

/// The device as a port of the shared accessors: the bus is borrowed for each
/// access, so a closure run between two of them (`modify`'s) may use the
/// device.
impl<P: Project, B, I: Identity> Port<B> for &Device<P, B, I> {
    #[inline]
    #[track_caller]
    fn with_bus<T>(&mut self, f: impl FnOnce(&mut B) -> T) -> T {
        Device::with_bus(self, f)
    }
}

/// An `Io` as a port of the shared accessors: the bus itself.
impl<P: Project, B, I: Identity> Port<B> for &mut Io<'_, P, B, I> {
    #[inline(always)]
    fn with_bus<T>(&mut self, f: impl FnOnce(&mut B) -> T) -> T {
        f(self.bus_mut())
    }
}
