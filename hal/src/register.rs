//! Registers as locations: zero-sized values that carry address, width, reset
//! and access masks as constants, plus the traits that say what may be done.

use crate::access::{ReadValue, WriteValue};
use crate::bus::Space;
use crate::meta::RegisterInfo;

/// A project (SNB, HSW, TGL, ...): the type parameter of a device handle.
pub trait Project: Copy + Default + core::fmt::Debug + 'static {
    /// Lower-case tag (`hsw`).
    const NAME: &'static str;
    /// Human name.
    const TITLE: &'static str;
}

/// A register of one project.
pub trait Register: Copy + 'static {
    /// The project it belongs to.
    type Project: Project;
    /// Its address space.
    type Space: Space;
    /// Value read from it.
    type Read: ReadValue<Register = Self>;
    /// Value built to write it.
    type Write: WriteValue<Register = Self>;
    /// Name as in the PRM (`OACONTROL`, `CEC0_0`).
    const NAME: &'static str;
    /// Address: byte offset (MMIO, PCI) or MSR index.
    const ADDRESS: u64;
    /// 32 or 64.
    const WIDTH: u32;
    /// Reset value on this project.
    const RESET: u64;
    /// Bits a `modify` writes back as read and a `write` starts at their reset
    /// value: every described field except RW1C and RW1S (a written one would
    /// clear or set them) and MBZ/reserved ones. Those, and bits no field
    /// describes, are always written as zero.
    const KEEP_MASK: u64;
    /// Runtime description (fields, access, PRM text).
    const INFO: &'static RegisterInfo;
}

/// Registers that can be read.
#[diagnostic::on_unimplemented(
    message = "register `{Self}` cannot be read",
    label = "this register is write-only",
    note = "reads of write-only registers return nothing meaningful; keep a copy of what you wrote"
)]
pub trait Readable: Register {}

/// Registers written with `write`/`modify` (not masked, at least one writable field).
#[diagnostic::on_unimplemented(
    message = "register `{Self}` cannot be written with `write` or `modify`",
    label = "this register is read-only or masked",
    note = "read-only registers ignore writes; a masked register (bits 31:16 enable bits 15:0) is written with `write_masked`, never read-modify-written"
)]
pub trait Writable: Register {}

/// Masked registers: bits 31:16 of a write enable the write of bits 15:0.
#[diagnostic::on_unimplemented(
    message = "register `{Self}` is not a masked register",
    label = "`write_masked` is only for masked registers",
    note = "write ordinary registers with `write` or `modify`"
)]
pub trait MaskedWritable: Register {}

/// Proof that a register exists on project `P` (at the address its constants give).
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not exist on project `{P}`",
    label = "this register is not available on `{P}`",
    note = "each project has its own module of registers (`perfregs::hal::hsw`, `perfregs::hal::ivb`, ...): use the one your device handle is for"
)]
pub trait OnProject<P: Project>: Register {}
