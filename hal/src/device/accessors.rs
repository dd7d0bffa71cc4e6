//! The typed accessors, written once for every way to a device's bus: the
//! [`Device`](super::Device) itself (the bus borrowed for each access), an
//! [`Io`](super::Io) (the bus borrowed once) and a
//! [`Steering`](super::Steering) handle (the bus steered to one instance or
//! to all of them). Each is a [`Port`]; what a write starts from and which
//! bits a read-modify-write never writes back are decided here alone.
//!
//! The proof check is the caller's: the public accessors make it before
//! they reach a port (see [`accessors!`]).

use crate::access::{ReadValue, WriteValue};
use crate::bus::Bus;
use crate::register::{ReadOf, Register, WriteOf};

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

/// The public accessors of [`Device`](super::Device) (`&self`) and
/// [`Io`](super::Io) (`&mut self`, invoked with `mut`): the one definition of
/// their signatures and documentation. Each checks the proof with the type's
/// own `check`, then runs the shared code above with `self` as the port.
macro_rules! accessors {
    ($($mut_:tt)?) => {
        /// Read a register into a typed value.
        #[inline]
        #[track_caller]
        pub fn read<R>(
            &$($mut_)? self,
            reg: R,
            awake: &impl $crate::power::Awake<R::Domain, I>,
        ) -> $crate::register::ReadOf<R>
        where
            R: $crate::register::Readable + $crate::register::Unicast + $crate::register::OnProject<P>,
            B: $crate::bus::Bus<R::Space>,
        {
            self.check(awake);
            $crate::device::accessors::read(self, reg)
        }

        /// Read a 64-bit register whose hardware is two dwords that keep
        /// counting (the 44-bit R2PCIe counters read over PCI config space):
        /// high, low, high again, and the low dword once more if the high one
        /// moved, so the value is one the counter really held. 32-bit
        /// registers read plainly.
        #[inline]
        #[track_caller]
        pub fn read_counter<R>(
            &$($mut_)? self,
            reg: R,
            awake: &impl $crate::power::Awake<R::Domain, I>,
        ) -> $crate::register::ReadOf<R>
        where
            R: $crate::register::Readable + $crate::register::Unicast + $crate::register::OnProject<P>,
            B: $crate::bus::Bus<R::Space>,
        {
            self.check(awake);
            $crate::device::accessors::read_counter(self, reg)
        }

        /// Write a register: `f` starts from the reset value (with RW1C/RW1S,
        /// MBZ and reserved bits zero) and sets fields by name.
        #[inline]
        #[track_caller]
        pub fn write<R>(
            &$($mut_)? self,
            reg: R,
            awake: &impl $crate::power::Awake<R::Domain, I>,
            f: impl FnOnce(&mut $crate::register::WriteOf<R>) -> &mut $crate::register::WriteOf<R>,
        ) where
            R: $crate::register::Writable + $crate::register::Unicast + $crate::register::OnProject<P>,
            B: $crate::bus::Bus<R::Space>,
        {
            self.check(awake);
            $crate::device::accessors::write(self, reg, $crate::device::accessors::Start::Reset, f)
        }

        /// Write a register starting from zero instead of the reset value.
        #[inline]
        #[track_caller]
        pub fn write_from_zero<R>(
            &$($mut_)? self,
            reg: R,
            awake: &impl $crate::power::Awake<R::Domain, I>,
            f: impl FnOnce(&mut $crate::register::WriteOf<R>) -> &mut $crate::register::WriteOf<R>,
        ) where
            R: $crate::register::Writable + $crate::register::Unicast + $crate::register::OnProject<P>,
            B: $crate::bus::Bus<R::Space>,
        {
            self.check(awake);
            $crate::device::accessors::write(self, reg, $crate::device::accessors::Start::Zero, f)
        }

        /// Read, change some fields, write back. Bits that must not be
        /// written back (RW1C, RW1S, MBZ, reserved, undescribed) are written
        /// as zero, whatever was read; every other bit (PBC included) is
        /// written back as read. Through a [`Device`], `f` runs while the bus
        /// is not borrowed, so it may use the device.
        #[inline]
        #[track_caller]
        pub fn modify<R>(
            &$($mut_)? self,
            reg: R,
            awake: &impl $crate::power::Awake<R::Domain, I>,
            f: impl FnOnce($crate::register::ReadOf<R>, &mut $crate::register::WriteOf<R>) -> &mut $crate::register::WriteOf<R>,
        ) where
            R: $crate::register::Readable + $crate::register::Writable + $crate::register::Unicast + $crate::register::OnProject<P>,
            B: $crate::bus::Bus<R::Space>,
        {
            self.check(awake);
            $crate::device::accessors::modify(self, reg, f)
        }

        /// Clear one write-one-to-clear field, leaving every other field as it is.
        #[inline]
        #[track_caller]
        pub fn clear<R, F>(
            &$($mut_)? self,
            reg: R,
            awake: &impl $crate::power::Awake<R::Domain, I>,
            field: F,
        ) where
            R: $crate::register::Readable + $crate::register::Writable + $crate::register::Unicast + $crate::register::OnProject<P>,
            F: $crate::access::Field<Layout = R::Layout>,
            F::Access: $crate::access::Clearable,
            B: $crate::bus::Bus<R::Space>,
        {
            self.modify(reg, awake, |_, w| $crate::access::WriteValue::clear(w, field));
        }

        /// Write a masked register: only the fields `f` sets are enabled in
        /// bits 31:16, so no read-modify-write is needed and other bits are
        /// untouched.
        #[inline]
        #[track_caller]
        pub fn write_masked<R>(
            &$($mut_)? self,
            reg: R,
            awake: &impl $crate::power::Awake<R::Domain, I>,
            f: impl FnOnce(&mut $crate::register::WriteOf<R>) -> &mut $crate::register::WriteOf<R>,
        ) where
            R: $crate::register::MaskedWritable + $crate::register::Unicast + $crate::register::OnProject<P>,
            B: $crate::bus::Bus<R::Space>,
        {
            self.check(awake);
            $crate::device::accessors::write(self, reg, $crate::device::accessors::Start::Zero, f)
        }
    };
}
