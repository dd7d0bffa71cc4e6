//! Runtime descriptions of registers and fields, generated from the same IR as
//! the typed API: used by decoders, the CLI and (later) the emulator.

/// Access type of a field, at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// Read and write.
    Rw,
    /// Read only.
    Ro,
    /// Write only.
    Wo,
    /// Write one to clear.
    Rw1c,
    /// Write one to set.
    Rw1s,
    /// Clear on read.
    Rc,
    /// Must be zero.
    Mbz,
    /// Reserved.
    Rsvd,
    /// Preserve.
    Pbc,
    /// Read/write, hardware-updated.
    RwV,
    /// Read only, hardware-updated.
    RoV,
    /// Read/write, double buffered.
    RwDb,
}

impl AccessKind {
    /// Canonical spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            AccessKind::Rw => "RW",
            AccessKind::Ro => "RO",
            AccessKind::Wo => "WO",
            AccessKind::Rw1c => "RW1C",
            AccessKind::Rw1s => "RW1S",
            AccessKind::Rc => "RC",
            AccessKind::Mbz => "MBZ",
            AccessKind::Rsvd => "RSVD",
            AccessKind::Pbc => "PBC",
            AccessKind::RwV => "RW-V",
            AccessKind::RoV => "RO-V",
            AccessKind::RwDb => "RW-DB",
        }
    }
}

/// Address space, at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    /// GPU MMIO.
    Mmio,
    /// CPU MSR.
    Msr,
    /// PCI configuration space.
    Pci,
}

/// One field.
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    /// snake_case name.
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: u32,
    /// Number of bits.
    pub width: u32,
    /// Access.
    pub access: AccessKind,
    /// Named encodings `(name, value)`, empty when not enumerated.
    pub values: &'static [(&'static str, u64)],
    /// PRM description.
    pub description: &'static str,
}

impl FieldInfo {
    /// Mask of the field's bits.
    pub const fn mask(&self) -> u64 {
        (if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }) << self.lsb
    }
    /// The field's value in `raw`.
    pub const fn extract(&self, raw: u64) -> u64 {
        (raw & self.mask()) >> self.lsb
    }
    /// The encoding name of `value`, if the field is enumerated and names it.
    pub fn value_name(&self, value: u64) -> Option<&'static str> {
        self.values
            .iter()
            .find(|(_, v)| *v == value)
            .map(|(n, _)| *n)
    }
}

/// One register on one project.
#[derive(Clone, Copy, Debug)]
pub struct RegisterInfo {
    /// Name.
    pub name: &'static str,
    /// Block (`oa`, `cec`).
    pub block: &'static str,
    /// Title.
    pub title: &'static str,
    /// Address space.
    pub space: SpaceKind,
    /// Address.
    pub address: u64,
    /// 32 or 64.
    pub width: u32,
    /// Reset value.
    pub reset: u64,
    /// Masked register.
    pub masked: bool,
    /// Fields by ascending lsb.
    pub fields: &'static [FieldInfo],
}

impl RegisterInfo {
    /// Find a field by name.
    pub fn field(&self, name: &str) -> Option<&'static FieldInfo> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// A row of a counter event table (PRM documentation).
#[derive(Clone, Copy, Debug)]
pub struct CounterEvent {
    /// Counter (`A0`).
    pub counter: &'static str,
    /// Event name.
    pub event: &'static str,
    /// Description.
    pub description: &'static str,
}

/// Everything described for one project.
#[derive(Clone, Copy, Debug)]
pub struct ProjectInfo {
    /// Tag (`hsw`).
    pub name: &'static str,
    /// Human name.
    pub title: &'static str,
    /// Every register.
    pub registers: &'static [&'static RegisterInfo],
    /// Counter events.
    pub events: &'static [CounterEvent],
}

impl ProjectInfo {
    /// Find a register by name (case-insensitive; `-` and `_` alike).
    pub fn register(&self, name: &str) -> Option<&'static RegisterInfo> {
        let eq = |a: &str| {
            a.len() == name.len()
                && a.bytes().zip(name.bytes()).all(|(x, y)| {
                    let n = |c: u8| {
                        if c == b'-' {
                            b'_'
                        } else {
                            c.to_ascii_uppercase()
                        }
                    };
                    n(x) == n(y)
                })
        };
        self.registers.iter().copied().find(|r| eq(r.name))
    }
    /// Find the register at an address.
    pub fn at(&self, space: SpaceKind, address: u64) -> Option<&'static RegisterInfo> {
        self.registers
            .iter()
            .copied()
            .find(|r| r.space == space && r.address == address)
    }
    /// Event names of a counter.
    pub fn event(&self, counter: &str) -> Option<&'static CounterEvent> {
        self.events.iter().find(|e| e.counter == counter)
    }
}
