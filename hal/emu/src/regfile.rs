//! Per-register metadata precomputed once (bit masks per access kind, wake
//! target, replication) and the read/write rules applied to stored values.

use hal::meta::{AccessKind, FieldInfo, RegisterInfo};

use super::sku::low_bits;

/// What else happens when a register's stored value changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Nothing.
    Plain,
    /// Force-wake request register of force-wake domain `n`.
    Request(usize),
    /// Force-wake ack register of force-wake domain `n`.
    Ack(usize),
}

/// One register of the emulated project.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reg {
    pub info: &'static RegisterInfo,
    /// Index of instance 0's value in the value store.
    pub base: usize,
    /// Stored instances (1 when not replicated).
    pub instances: u32,
    /// Replication group id (`NONE16` when not replicated or unknown group).
    pub group: u16,
    /// Wake target id (`NONE16`: needs no waking).
    pub target: u16,
    /// Masked register (bits 31:16 of a write enable bits 15:0).
    pub masked: bool,
    /// More than 32 bits wide: has a high dword at address + 4.
    pub wide: bool,
    /// Bits that can hold a value: described by a field that is not MBZ or
    /// RSVD, within the register width (bits 15:0 for a masked register).
    pub defined: u64,
    /// Bits a write replaces (RW, RW-V, RW-DB, WO).
    pub take: u64,
    /// Bits a written one clears (RW1C).
    pub w1c: u64,
    /// Bits a written one sets (RW1S).
    pub w1s: u64,
    /// Bits a read returns (`defined` minus WO).
    pub readable: u64,
    /// Bits cleared by a read (RC).
    pub rc: u64,
    pub role: Role,
}

/// What the fast path needs of a register, packed: a plain register (one
/// instance, no force-wake role, not masked, 32 bits, no RW1C/RW1S/RC bits,
/// no unit watching it) is read and written here without the general rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hot {
    /// Value-store index.
    pub base: u32,
    /// Bits a write takes.
    pub take: u32,
    /// Bits a read returns.
    pub readable: u32,
    /// Bit of the wake target in the emulator's asleep mask (0: none, or
    /// not plain).
    pub wake_bit: u64,
    /// Takes the fast path.
    pub plain: bool,
}

impl Hot {
    /// No register (an empty cache entry).
    pub(crate) const NONE: Hot = Hot {
        base: u32::MAX,
        take: 0,
        readable: 0,
        wake_bit: 0,
        plain: false,
    };
}

/// Mask of a field's bits, without overflowing on odd descriptions.
pub(crate) fn field_mask(f: &FieldInfo) -> u64 {
    low_bits(f.width).checked_shl(f.lsb).unwrap_or(0)
}

/// Mask of a register's bits (`width` 0 is taken as 32).
pub(crate) fn width_mask(width: u32) -> u64 {
    if width == 0 {
        low_bits(32)
    } else {
        low_bits(width)
    }
}

/// Mask of the dword `high` selects.
#[inline]
pub(crate) fn lane(high: bool) -> u64 {
    if high {
        0xFFFF_FFFF_0000_0000
    } else {
        0xFFFF_FFFF
    }
}

impl Reg {
    /// Precompute the masks of `info`.
    pub(crate) fn new(info: &'static RegisterInfo, base: usize, instances: u32) -> Self {
        let width = width_mask(info.width);
        let (mut defined, mut take, mut w1c, mut w1s, mut wo, mut rc) = (0, 0, 0, 0, 0, 0);
        for f in info.fields {
            let m = field_mask(f) & width;
            match f.access {
                AccessKind::Mbz | AccessKind::Rsvd => continue,
                AccessKind::Rw | AccessKind::RwV | AccessKind::RwDb => take |= m,
                AccessKind::Wo => {
                    take |= m;
                    wo |= m;
                }
                AccessKind::Rw1c => w1c |= m,
                AccessKind::Rw1s => w1s |= m,
                AccessKind::Rc => rc |= m,
                AccessKind::Ro | AccessKind::RoV | AccessKind::Pbc => {}
            }
            defined |= m;
        }
        if info.masked {
            defined &= 0xFFFF;
        }
        Reg {
            info,
            base,
            instances,
            group: super::index::NONE16,
            target: super::index::NONE16,
            masked: info.masked,
            wide: info.width > 32,
            defined,
            take: take & defined,
            w1c: w1c & defined,
            w1s: w1s & defined,
            readable: defined & !wo,
            rc: rc & defined,
            role: Role::Plain,
        }
    }

    /// The value stored after writing dword `value` to half `high` of a
    /// register holding `old`.
    /// Whether the register follows the plain rules (see [`Hot`]), apart
    /// from units watching it.
    pub(crate) fn is_plain(&self) -> bool {
        self.instances == 1
            && self.role == Role::Plain
            && !self.masked
            && !self.wide
            && self.w1c | self.w1s | self.rc == 0
            && u32::try_from(self.base).is_ok()
    }

    #[inline]
    pub(crate) fn write(&self, old: u64, value: u32, high: bool) -> u64 {
        let (val, lane) = if self.masked {
            if high {
                return old; // a masked register has no high dword
            }
            (u64::from(value & 0xFFFF), u64::from(value >> 16))
        } else if high {
            (u64::from(value) << 32, lane(true))
        } else {
            (u64::from(value), lane(false))
        };
        let take = self.take & lane;
        let mut new = (old & !take) | (val & take);
        new &= !(val & self.w1c & lane);
        new |= val & self.w1s & lane;
        new & self.defined
    }

    /// The dword a read of half `high` returns from `stored`, and the value
    /// left stored afterwards (RC bits of that half cleared).
    #[inline]
    pub(crate) fn read(&self, stored: u64, high: bool) -> (u32, u64) {
        let shift = if high { 32 } else { 0 };
        let value = ((stored & self.readable) >> shift) as u32;
        (value, stored & !(self.rc & lane(high)))
    }
}
