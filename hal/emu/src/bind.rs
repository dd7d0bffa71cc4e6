//! The registers, fields and table cells each unit uses, per project:
//! generated at build time from `bindings.yaml`, resolved and checked
//! against the descriptions (a missing or renamed register fails the build).
//! Nothing here is looked up by name at run time: a project's bindings are
//! found by the identity of its [`ProjectInfo`].

use hal::meta::{low_bits, ProjectInfo};
use std::vec::Vec;

/// A register's location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegRef {
    /// Name (for messages).
    pub name: &'static str,
    /// Address (byte offset, MSR index or PCI offset).
    pub address: u64,
    /// 32 or 64.
    pub width: u32,
}

/// A field's location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldRef {
    /// Its register.
    pub reg: RegRef,
    /// Name (for messages).
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: u32,
    /// Number of bits.
    pub width: u32,
}

impl FieldRef {
    /// The field's bits in its register.
    pub const fn mask(&self) -> u64 {
        low_bits(self.width) << self.lsb
    }
}

/// A bound field's mask and shift, as units use it: an absent binding
/// is the empty mask (never set, reads 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bits {
    pub(crate) mask: u64,
    pub(crate) lsb: u32,
}

impl Bits {
    /// `width` bits from `lsb`.
    pub(crate) fn at(lsb: u32, width: u32) -> Self {
        Bits {
            mask: low_bits(width).checked_shl(lsb).unwrap_or(0),
            lsb,
        }
    }

    pub(crate) fn of(f: Option<FieldRef>) -> Self {
        f.map(|f| Bits {
            mask: f.mask(),
            lsb: f.lsb,
        })
        .unwrap_or_default()
    }
    #[inline]
    pub(crate) fn on(self, v: u64) -> bool {
        v & self.mask != 0
    }
    #[inline]
    pub(crate) fn get(self, v: u64) -> u64 {
        (v & self.mask).checked_shr(self.lsb).unwrap_or(0)
    }
}

/// A power domain's force-wake handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WakeRef {
    /// Index into the project's `domains`.
    pub domain: usize,
    /// Request register address (masked, or on Gen6 unmasked).
    pub request: u64,
    /// Ack register address.
    pub ack: u64,
    /// The driver's request bit.
    pub bit: u32,
}

/// The CPU steering (MCR) selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SteeringRef {
    /// Register address.
    pub address: u64,
    /// Mask of the multicast bit.
    pub multicast_mask: u64,
    /// Slice id `(lsb, width)`.
    pub slice: (u32, u32),
    /// Subslice id `(lsb, width)`.
    pub subslice: (u32, u32),
    /// Semaphore held around each steered access: `(address, bit)`.
    pub semaphore: Option<(u64, u32)>,
    /// Per replication group (index into the project's `groups`): its
    /// instances per group id (0: `2^width(subslice)`) and its own selector
    /// when not this one.
    pub groups: &'static [(u32, Option<SelectorRef>)],
}

/// A replication group's own steering selector (the media GT's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectorRef {
    /// Register address.
    pub address: u64,
    /// Mask of the multicast bit.
    pub multicast_mask: u64,
    /// Slice (group) id `(lsb, width)`.
    pub slice: (u32, u32),
    /// Subslice (instance) id `(lsb, width)`.
    pub subslice: (u32, u32),
    /// Semaphore `(address, bit)`.
    pub semaphore: Option<(u64, u32)>,
}

/// A replication group's fuse mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuseRef {
    /// Index into the project's `groups`.
    pub group: usize,
    /// Register address.
    pub address: u64,
    /// Field lsb.
    pub lsb: u32,
    /// Field width.
    pub width: u32,
    /// A set bit means present (else fused off).
    pub set_means_present: bool,
}

/// What a report-format slot holds, classified at build time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// The report id.
    RptId,
    /// TIME_STAMP.
    TimeStamp,
    /// The context id.
    CtxId,
    /// The GPU clock.
    GpuTicks,
    /// Aggregating counter n.
    A(u32),
    /// Boolean (CEC) counter n.
    B(u32),
    /// Custom counter n.
    C(u32),
    /// Xe2/Xe3 PEC counter n (64-bit, selected by the PES registers).
    Pec(u32),
    /// Media counter n of the OAM formats (MPEC, selected by MPES).
    Mpec(u32),
    /// Anything else (written as 0).
    Other,
}

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

impl Bindings {
    /// The OA units of the project, each with its CEC registers: the
    /// render unit (`oa`, `cec`) first, then the media GT's (`oam`,
    /// `scmi0`, `scmi1` of `bindings.yaml`) where the project has them.
    pub fn oa_units(&self) -> Vec<(Oa, Option<Cec>)> {
        [
            (self.oa, self.cec),
            (self.oam, self.oam_cec),
            (self.scmi0, self.scmi0_cec),
            (self.scmi1, self.scmi1_cec),
        ]
        .into_iter()
        .filter_map(|(o, c)| Some((o?, c)))
        .collect()
    }

    /// The bindings of `project`, when it is one of the built-in projects
    /// (compared by identity, not by name).
    pub fn of(project: &ProjectInfo) -> Option<&'static Bindings> {
        ALL.iter()
            .copied()
            .find(|b| core::ptr::eq(b.project, project))
    }
}
