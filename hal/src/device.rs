//! The device handle: a bus plus the project as a type.

use crate::access::{Clearable, Field, ReadValue, WriteValue};
use crate::bus::Bus;
use crate::register::{MaskedWritable, OnProject, Project, Readable, Register, Writable};
use core::marker::PhantomData;

/// A device of project `P` reached through bus `B`.
///
/// Every accessor takes a register of project `P`: using another project's
/// register (`hsw::OAPERF_A0` on a `Device<Ivb, _>`) does not compile.
#[derive(Debug)]
pub struct Device<P: Project, B> {
    bus: B,
    _project: PhantomData<P>,
}

#[inline]
fn raw_read<R: Register, B: Bus<R::Space>>(bus: &mut B) -> u64 {
    if R::WIDTH == 64 {
        bus.read64(R::ADDRESS)
    } else {
        u64::from(bus.read32(R::ADDRESS))
    }
}

#[inline]
fn raw_write<R: Register, B: Bus<R::Space>>(bus: &mut B, value: u64) {
    if R::WIDTH == 64 {
        bus.write64(R::ADDRESS, value)
    } else {
        bus.write32(R::ADDRESS, value as u32)
    }
}

impl<P: Project, B> Device<P, B> {
    /// A device of project `P` on `bus`.
    pub fn new(bus: B) -> Self {
        Device {
            bus,
            _project: PhantomData,
        }
    }

    /// The bus.
    pub fn bus(&self) -> &B {
        &self.bus
    }

    /// The bus, mutably (raw accesses bypass every check).
    pub fn bus_mut(&mut self) -> &mut B {
        &mut self.bus
    }

    /// Give the bus back.
    pub fn into_bus(self) -> B {
        self.bus
    }

    /// Read a register into a typed value.
    #[inline]
    pub fn read<R>(&mut self, _reg: R) -> R::Read
    where
        R: Readable + OnProject<P>,
        B: Bus<R::Space>,
    {
        R::Read::from_raw(raw_read::<R, B>(&mut self.bus))
    }

    /// Write a register: `f` starts from the reset value (with RW1C/RW1S, MBZ
    /// and reserved bits zero) and sets fields by name.
    #[inline]
    pub fn write<R>(&mut self, _reg: R, f: impl FnOnce(&mut R::Write) -> &mut R::Write)
    where
        R: Writable + OnProject<P>,
        B: Bus<R::Space>,
    {
        let mut w = R::Write::from_raw(R::RESET & R::KEEP_MASK);
        f(&mut w);
        raw_write::<R, B>(&mut self.bus, w.raw());
    }

    /// Write a register starting from zero instead of the reset value.
    #[inline]
    pub fn write_from_zero<R>(&mut self, _reg: R, f: impl FnOnce(&mut R::Write) -> &mut R::Write)
    where
        R: Writable + OnProject<P>,
        B: Bus<R::Space>,
    {
        let mut w = R::Write::from_raw(0);
        f(&mut w);
        raw_write::<R, B>(&mut self.bus, w.raw());
    }

    /// Read, change some fields, write back. Bits that must not be written
    /// back (RW1C, RW1S, MBZ, reserved, undescribed) are written as zero,
    /// whatever was read; every other bit (PBC included) is written back as read.
    #[inline]
    pub fn modify<R>(&mut self, _reg: R, f: impl FnOnce(R::Read, &mut R::Write) -> &mut R::Write)
    where
        R: Readable + Writable + OnProject<P>,
        B: Bus<R::Space>,
    {
        let raw = raw_read::<R, B>(&mut self.bus);
        let mut w = R::Write::from_raw(raw & R::KEEP_MASK);
        f(R::Read::from_raw(raw), &mut w);
        raw_write::<R, B>(&mut self.bus, w.raw());
    }

    /// Clear one write-one-to-clear field, leaving every other field as it is.
    #[inline]
    pub fn clear<R, F>(&mut self, reg: R, field: F)
    where
        R: Readable + Writable + OnProject<P>,
        F: Field<Register = R>,
        F::Access: Clearable,
        B: Bus<R::Space>,
    {
        self.modify(reg, |_, w| w.clear(field));
    }

    /// Write a masked register: only the fields `f` sets are enabled in bits
    /// 31:16, so no read-modify-write is needed and other bits are untouched.
    #[inline]
    pub fn write_masked<R>(&mut self, _reg: R, f: impl FnOnce(&mut R::Write) -> &mut R::Write)
    where
        R: MaskedWritable + OnProject<P>,
        B: Bus<R::Space>,
    {
        let mut w = R::Write::from_raw(0);
        f(&mut w);
        raw_write::<R, B>(&mut self.bus, w.raw());
    }
}
