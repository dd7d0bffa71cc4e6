//! The one implementation behind the typed accessors of [`Device`], [`Io`]
//! and [`Steering`](super::Steering): each way to a device's bus (the device
//! itself, which borrows its bus for each access; an `Io`, the bus borrowed
//! once; the steering handle, which steers the bus to one instance or to all
//! of them) is a [`Port`], and what a read puts on the bus, what a write
//! starts from and which bits a read-modify-write never writes back are
//! decided here alone. The public accessors (thin: a proof check, then a
//! call here) stay beside their types, so compiler messages name them as
//! `Device::read`, `Io::read`, `Steering::read`.

use super::{Device, Io};
use crate::access::{ReadValue, WriteValue};
use crate::brand::Identity;
use crate::bus::{Bus, BusFault, Space};
use crate::register::{Project, ReadOf, Register, WriteOf};

/// A way to the bus of one device.
pub(super) trait Port<B> {
    /// Run `f` on the bus (a device's port panics when it is borrowed).
    #[track_caller]
    fn with_bus<T>(&mut self, f: impl FnOnce(&mut B) -> T) -> T;

    /// Run `f`, one read (`write` false) or one write of a register, on the
    /// bus: as [`Port::with_bus`] unless the port needs to know which (a
    /// steered port: Linux xe steers reads with the multicast bit set and
    /// sets it back after a unicast write).
    #[inline(always)]
    #[track_caller]
    fn access<T>(&mut self, write: bool, f: impl FnOnce(&mut B) -> T) -> T {
        let _ = write;
        self.with_bus(f)
    }
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
fn raw_read<R: Register, B: Bus<R::Space>>(addr: u64, bus: &mut B) -> u64 {
    if R::WIDTH == 64 {
        bus.read64(addr)
    } else {
        u64::from(bus.read32(addr))
    }
}

#[inline]
fn raw_write<R: Register, B: Bus<R::Space>>(addr: u64, bus: &mut B, value: u64) {
    if R::WIDTH == 64 {
        bus.write64(addr, value)
    } else {
        bus.write32(addr, value as u32)
    }
}

/// Read `reg` into a typed value.
#[inline]
#[track_caller]
pub(super) fn read<R: Register, B: Bus<R::Space>>(mut port: impl Port<B>, reg: &R) -> ReadOf<R> {
    let addr = reg.address();
    ReadOf::<R>::from_raw(port.access(false, |bus| raw_read::<R, B>(addr, bus)))
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
    let addr = reg.address();
    let raw = port.access(false, |bus| {
        if R::WIDTH != 64 {
            return u64::from(bus.read32(addr));
        }
        let hi_addr = addr.wrapping_add(4);
        let hi1 = bus.read32(hi_addr);
        let mut lo = bus.read32(addr);
        let hi2 = bus.read32(hi_addr);
        if hi1 != hi2 {
            lo = bus.read32(addr);
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
    let (addr, w) = (reg.address(), build::<R>(start, f));
    port.access(true, |bus| raw_write::<R, B>(addr, bus, w.raw()));
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
    let addr = reg.address();
    let raw = port.access(false, |bus| raw_read::<R, B>(addr, bus));
    let mut w = WriteOf::<R>::from_raw(raw & R::KEEP_MASK);
    f(ReadOf::<R>::from_raw(raw), &mut w);
    port.access(true, |bus| raw_write::<R, B>(addr, bus, w.raw()));
}

/// Run `access` on `bus`, reporting a fault: one left by an earlier access
/// and not yet taken comes first (and `access` is not made), then the
/// access's own. Free on infallible buses (`take_fault` is `None`).
#[inline(always)]
fn checked<S: Space, B: Bus<S>, T>(
    bus: &mut B,
    access: impl FnOnce(&mut B) -> T,
) -> Result<T, BusFault> {
    if let Some(fault) = bus.take_fault() {
        return Err(fault);
    }
    let value = access(bus);
    match bus.take_fault() {
        Some(fault) => Err(fault),
        None => Ok(value),
    }
}

/// As [`read`], with the bus's fault as the error.
#[inline]
#[track_caller]
pub(super) fn try_read<R: Register, B: Bus<R::Space>>(
    mut port: impl Port<B>,
    reg: &R,
) -> Result<ReadOf<R>, BusFault> {
    let addr = reg.address();
    port.access(false, |bus| checked(bus, |bus| raw_read::<R, B>(addr, bus)))
        .map(ReadOf::<R>::from_raw)
}

/// As [`write`], with the bus's fault as the error.
#[inline]
#[track_caller]
pub(super) fn try_write<R: Register, B: Bus<R::Space>>(
    mut port: impl Port<B>,
    reg: R,
    start: Start,
    f: impl FnOnce(&mut WriteOf<R>) -> &mut WriteOf<R>,
) -> Result<(), BusFault> {
    let (addr, w) = (reg.address(), build::<R>(start, f));
    port.access(true, |bus| {
        checked(bus, |bus| raw_write::<R, B>(addr, bus, w.raw()))
    })
}

/// As [`modify`], with the bus's fault as the error: a failed read writes
/// nothing (and `f` is not called).
#[inline]
#[track_caller]
pub(super) fn try_modify<R: Register, B: Bus<R::Space>>(
    mut port: impl Port<B>,
    reg: R,
    f: impl FnOnce(ReadOf<R>, &mut WriteOf<R>) -> &mut WriteOf<R>,
) -> Result<(), BusFault> {
    let addr = reg.address();
    let raw = port.access(false, |bus| checked(bus, |bus| raw_read::<R, B>(addr, bus)))?;
    let mut w = WriteOf::<R>::from_raw(raw & R::KEEP_MASK);
    f(ReadOf::<R>::from_raw(raw), &mut w);
    port.access(true, |bus| {
        checked(bus, |bus| raw_write::<R, B>(addr, bus, w.raw()))
    })
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
