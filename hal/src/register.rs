//! Registers as locations: zero-sized values that carry address, width, reset
//! and access masks as constants, plus the traits that say what may be done.

use crate::access::{ReadValue, WriteValue};
use crate::bus::Space;
use crate::meta::RegisterInfo;
use crate::power::Domain;

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
    /// Its power domain ([`NoDomain`](crate::power::NoDomain) outside every force-wake range).
    type Domain: Domain;
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

/// Registers with one value (not replicated): plain `read`/`write`/`modify` work.
#[diagnostic::on_unimplemented(
    message = "register `{Self}` is replicated (multicast): it has one value per instance",
    label = "a plain access would hit whichever instance the steering register selects",
    note = "use the steering API: `let mut mcr = gpu.steering(&proof)?;` then `mcr.read(reg, instance, &guard)`, `read_any`, `read_each`, `write` (multicast) or `write_one`"
)]
pub trait Unicast: Register {}

/// Replicated (multicast) registers: one value per instance of a group.
#[diagnostic::on_unimplemented(
    message = "register `{Self}` is not replicated",
    label = "the steering API is for multicast registers",
    note = "access it with `gpu.read`/`gpu.write`"
)]
pub trait Replicated: Register {
    /// Its replication group.
    type Group: ReplicationGroup;
}

/// Where the presence of each instance of a group is fused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fuse {
    /// MMIO address of the fuse mirror register.
    pub address: u64,
    /// Lowest bit of the field (bit `lsb + n` is instance n).
    pub lsb: u32,
    /// Field width.
    pub width: u32,
    /// True: a set bit means present; false: a set bit means fused off.
    pub set_means_present: bool,
}

/// A replication group type (`tgl::groups::Dss`).
pub trait ReplicationGroup: Copy + Default + core::fmt::Debug + 'static {
    /// Name (`dss`).
    const NAME: &'static str;
    /// Index among the project's groups.
    const INDEX: usize;
    /// Number of instances.
    const INSTANCES: u32;
    /// Fuse mirror, if instances can be fused off.
    const FUSE: Option<Fuse>;
}

/// Projects with multicast steering: where the CPU's steering selector lives.
pub trait Steered: Project {
    /// MMIO address of the selector (MCR_SELECTOR).
    const SELECTOR: u64;
    /// Mask of the multicast bit.
    const MULTICAST: u64;
    /// `(lsb, width)` of the slice id field.
    const SLICE: (u32, u32);
    /// `(lsb, width)` of the subslice id field.
    const SUBSLICE: (u32, u32);
    /// Power domain of the selector and the fuse mirrors (read when steering starts).
    type Domain: Domain;
    /// Fuses of every group, indexed by [`ReplicationGroup::INDEX`].
    const GROUPS: &'static [(u32, Option<Fuse>)];
}
