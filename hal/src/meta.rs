//! Runtime descriptions of registers and fields, generated from the same IR as
//! the typed API: used by decoders, the CLI and (later) the emulator.

/// Access type of a field, at run time: the same type the generator reads
/// from the descriptions (crate `perfregs-types`).
pub use perfregs_types::AccessKind;

/// The low `n` bits set (all 64 when `n >= 64`): the unshifted mask of a
/// field `n` bits wide.
#[inline]
pub const fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
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
    /// The value is the upper bits of an address (`encodes: address` in
    /// the description): the address is the value shifted left by `lsb`.
    pub address: bool,
}

impl FieldInfo {
    /// Mask of the field's bits.
    pub const fn mask(&self) -> u64 {
        low_bits(self.width) << self.lsb
    }
    /// The field's value in `raw`.
    pub const fn extract(&self, raw: u64) -> u64 {
        (raw & self.mask()) >> self.lsb
    }
    /// The address the field's value `value` encodes, for an
    /// [`address`](Self::address) field (`None` otherwise, or past 64 bits).
    pub const fn address_of(&self, value: u64) -> Option<u64> {
        if self.address {
            value.checked_shl(self.lsb)
        } else {
            None
        }
    }
    /// The encoding name of `value`, if the field is enumerated and names it.
    pub fn value_name(&self, value: u64) -> Option<&'static str> {
        self.values
            .iter()
            .find(|(_, v)| *v == value)
            .map(|(n, _)| *n)
    }
}

/// The power domains of a wake target name: the name itself, or the two
/// domains of a row that wakes both (`render+media`: `render`, `media`).
pub fn domain_names(target: &'static str) -> impl Iterator<Item = &'static str> {
    target.split('+')
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
    /// Wake domain from the project's force-wake table (`None`: not in the
    /// table); two joined by `+` where the row wakes both (`render+media`,
    /// see [`domain_names`]).
    pub domain: Option<&'static str>,
    /// `(group, instances)` when the register is replicated (multicast).
    pub replication: Option<(&'static str, u32)>,
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

/// A force-wake power domain.
#[derive(Clone, Copy, Debug)]
pub struct DomainInfo {
    /// Name (`render`).
    pub name: &'static str,
    /// Needs no waking.
    pub always_on: bool,
    /// Request register.
    pub request: Option<&'static str>,
    /// Acknowledge register.
    pub ack: Option<&'static str>,
    /// Description.
    pub description: &'static str,
}

/// Where the presence of each instance of a replication group is fused.
#[derive(Clone, Copy, Debug)]
pub struct FuseInfo {
    /// Register name.
    pub register: &'static str,
    /// Field name.
    pub field: &'static str,
    /// True: a set bit means present; false: a set bit means fused off.
    pub set_means_present: bool,
}

/// A multicast replication group.
#[derive(Clone, Copy, Debug)]
pub struct GroupInfo {
    /// Name (`dss`).
    pub name: &'static str,
    /// Instances.
    pub instances: u32,
    /// Fuse mirror, if any.
    pub fuse: Option<FuseInfo>,
    /// Description.
    pub description: &'static str,
}

/// One row of a force-wake / steering table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapRow {
    /// First byte.
    pub start: u64,
    /// Last byte (inclusive).
    pub end: u64,
    /// Wake domain; `None`: reserved (the PRM leaves it blank). Two joined
    /// by `+` where the row wakes both (`render+media`, see [`domain_names`]).
    pub wake: Option<&'static str>,
    /// Replication group.
    pub group: Option<&'static str>,
    /// Instances (1 when not replicated).
    pub instances: u32,
    /// Steering as the PRM writes it.
    pub steering: &'static str,
}

/// Where one counter sits in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterSlot {
    /// Name (`A7`, `RPT_ID`).
    pub name: &'static str,
    /// Byte offset (of the low dword, for split counters).
    pub offset: u32,
    /// Width in bits.
    pub bits: u32,
    /// Byte offset of the high byte of a split 40-bit counter.
    pub high_byte_offset: Option<u32>,
}

impl CounterSlot {
    /// A counter of `bits` bits at byte `offset`.
    pub const fn new(name: &'static str, offset: u32, bits: u32) -> Self {
        CounterSlot {
            name,
            offset,
            bits,
            high_byte_offset: None,
        }
    }
    /// A counter (40 bits) split into a low dword at `offset` and a high byte at `high`.
    pub const fn split(name: &'static str, offset: u32, bits: u32, high: u32) -> Self {
        CounterSlot {
            name,
            offset,
            bits,
            high_byte_offset: Some(high),
        }
    }
    /// The counter's value in `report` (little endian), or `None` when the
    /// report is too short.
    #[inline]
    pub fn read(&self, report: &[u8]) -> Option<u64> {
        let at = |o: u32, n: usize| report.get(o as usize..o as usize + n);
        let le = |b: &[u8]| b.iter().rev().fold(0u64, |v, &x| v << 8 | u64::from(x));
        match self.high_byte_offset {
            Some(h) => Some(le(at(self.offset, 4)?) | le(at(h, 1)?) << 32),
            None => Some(le(at(self.offset, (self.bits as usize).div_ceil(8))?)),
        }
    }
}

/// A report memory layout.
#[derive(Clone, Copy, Debug)]
pub struct FormatInfo {
    /// Name (`A45_B8_C8`).
    pub name: &'static str,
    /// Format code (Counter Select).
    pub select: u64,
    /// Size in bytes.
    pub size: usize,
    /// Description.
    pub description: &'static str,
    /// Counters by ascending offset.
    pub counters: &'static [CounterSlot],
}

impl FormatInfo {
    /// The slot of a counter by name.
    pub fn counter(&self, name: &str) -> Option<&'static CounterSlot> {
        self.counters.iter().find(|c| c.name == name)
    }
}

/// A cell of a data table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// An integer.
    Int(u64),
    /// Text.
    Str(&'static str),
}

/// A PRM data table (cascade pairs, engine classes, event encodings, ...).
#[derive(Clone, Copy, Debug)]
pub struct TableInfo {
    /// Name.
    pub name: &'static str,
    /// Description.
    pub description: &'static str,
    /// Column names.
    pub columns: &'static [&'static str],
    /// Rows.
    pub rows: &'static [&'static [Cell]],
}

/// A described MMIO range whose registers have no public field layout (such
/// as HSW's NOA unit): metric sets program it by address, and the emulator
/// keeps its dwords as plain storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpaqueRange {
    /// Name (`NOA_UNIT`).
    pub name: &'static str,
    /// First byte (dword aligned).
    pub start: u64,
    /// Last byte (inclusive; the last byte of a dword).
    pub end: u64,
    /// Wake domain from the project's force-wake table (`None`: not in the table).
    pub domain: Option<&'static str>,
}

impl OpaqueRange {
    /// Whether the range holds byte `address`.
    pub const fn contains(&self, address: u64) -> bool {
        self.start <= address && address <= self.end
    }
}

/// One field of a GPU command dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandField {
    /// snake_case name.
    pub name: &'static str,
    /// Index of the dword holding it.
    pub dword: u32,
    /// Lowest bit in the dword.
    pub lsb: u32,
    /// Number of bits (1..=32).
    pub width: u32,
    /// The constant of a fixed field (command type, opcode, length); `None`
    /// for a field the user sets.
    pub value: Option<u32>,
    /// PRM description.
    pub description: &'static str,
}

impl CommandField {
    /// Mask of the field's bits in its dword.
    pub const fn mask(&self) -> u32 {
        (low_bits(self.width) as u32) << self.lsb
    }
    /// The field's value in `dwords` (0 when the dword is missing).
    pub fn get(&self, dwords: &[u32]) -> u32 {
        dwords
            .get(self.dword as usize)
            .map_or(0, |d| (d & self.mask()) >> self.lsb)
    }
}

/// Why dwords are not a command, or a value does not fit its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommandError {
    /// The command is `expected` dwords long on this project; `got` were given.
    Length {
        /// Command.
        command: &'static str,
        /// Dwords of the command.
        expected: usize,
        /// Dwords given.
        got: usize,
    },
    /// A fixed field (opcode, length, command type) holds another value.
    Constant {
        /// Command.
        command: &'static str,
        /// Field.
        field: &'static str,
        /// The value the description fixes.
        expected: u32,
        /// The value found.
        found: u32,
    },
    /// A value is wider than its field.
    TooWide {
        /// Command.
        command: &'static str,
        /// Field.
        field: &'static str,
        /// The value given.
        value: u32,
    },
}

impl core::fmt::Display for CommandError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            CommandError::Length {
                command,
                expected,
                got,
            } => {
                write!(f, "{command}: {got} dwords, the command has {expected}")
            }
            CommandError::Constant {
                command,
                field,
                expected,
                found,
            } => write!(
                f,
                "{command}: field `{field}` is {found:#x}, the command has {expected:#x}"
            ),
            CommandError::TooWide {
                command,
                field,
                value,
            } => {
                write!(f, "{command}: {value:#x} does not fit field `{field}`")
            }
        }
    }
}

impl core::error::Error for CommandError {}

/// A GPU command's layout on one project (such as `MI_REPORT_PERF_COUNT`).
#[derive(Clone, Copy, Debug)]
pub struct CommandInfo {
    /// Name.
    pub name: &'static str,
    /// Title.
    pub title: &'static str,
    /// Length in dwords.
    pub dwords: u32,
    /// Fields by dword and ascending lsb; bits no field covers are zero.
    pub fields: &'static [CommandField],
}

impl CommandInfo {
    /// A field by name.
    pub fn field(&self, name: &str) -> Option<&'static CommandField> {
        self.fields.iter().find(|f| f.name == name)
    }
    /// The fields the user sets (no constant), in [`CommandInfo::fields`] order.
    pub fn variable_fields(&self) -> impl Iterator<Item = &'static CommandField> {
        self.fields.iter().filter(|f| f.value.is_none())
    }
    /// Check that `dwords` are this command: first the fixed fields of the
    /// dwords given, in reverse field order (so dword 0's command type and
    /// opcode come before its length, and another command is reported by
    /// its opcode), then the number of dwords.
    pub fn check(&self, dwords: &[u32]) -> Result<(), CommandError> {
        for f in self.fields.iter().rev() {
            let (Some(expected), Some(_)) = (f.value, dwords.get(f.dword as usize)) else {
                continue;
            };
            let found = f.get(dwords);
            if found != expected {
                return Err(CommandError::Constant {
                    command: self.name,
                    field: f.name,
                    expected,
                    found,
                });
            }
        }
        if dwords.len() != self.dwords as usize {
            return Err(CommandError::Length {
                command: self.name,
                expected: self.dwords as usize,
                got: dwords.len(),
            });
        }
        Ok(())
    }
    /// Encode into `out` (its first [`CommandInfo::dwords`] entries, which
    /// are overwritten): the fixed fields from the description, the others
    /// from `values` in [`CommandInfo::variable_fields`] order (missing
    /// values are 0). A value wider than its field is an error.
    pub fn encode_into(&self, values: &[u32], out: &mut [u32]) -> Result<(), CommandError> {
        let n = self.dwords as usize;
        let Some(out) = out.get_mut(..n) else {
            return Err(CommandError::Length {
                command: self.name,
                expected: n,
                got: out.len(),
            });
        };
        out.fill(0);
        let mut next = values.iter();
        for f in self.fields {
            let v = match f.value {
                Some(c) => c,
                None => next.next().copied().unwrap_or(0),
            };
            if f.width < 32 && v >> f.width != 0 {
                return Err(CommandError::TooWide {
                    command: self.name,
                    field: f.name,
                    value: v,
                });
            }
            if let Some(d) = out.get_mut(f.dword as usize) {
                *d |= (v << f.lsb) & f.mask();
            }
        }
        Ok(())
    }
    /// Check `dwords` ([`CommandInfo::check`]) and write the variable
    /// fields' values into `values`, in [`CommandInfo::variable_fields`]
    /// order (as many as fit).
    pub fn decode_into(&self, dwords: &[u32], values: &mut [u32]) -> Result<(), CommandError> {
        self.check(dwords)?;
        for (v, f) in values.iter_mut().zip(self.variable_fields()) {
            *v = f.get(dwords);
        }
        Ok(())
    }
}

/// A kernel driver that runs a GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Driver {
    /// `i915`.
    I915,
    /// `xe`.
    Xe,
}

impl Driver {
    /// The driver's name (`i915`, `xe`).
    pub const fn name(self) -> &'static str {
        match self {
            Driver::I915 => "i915",
            Driver::Xe => "xe",
        }
    }
    /// The driver named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Driver> {
        [Driver::I915, Driver::Xe]
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
    }
}

impl core::fmt::Display for Driver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The GPU facts of a project (`gpu:` of the catalogue, `regdefs/projects.yaml`).
#[derive(Clone, Copy, Debug)]
pub struct GpuInfo {
    /// Graphics IP version (major, minor): (12, 10) for DG1. The major
    /// number is the generation.
    pub graphics: (u8, u8),
    /// Drivers that run it, the default first.
    pub drivers: &'static [Driver],
    /// Bits a slice takes in the metric sets' `$SubsliceMask` (IGT's
    /// numbering: 3 before Gen11, 8 from Gen11).
    pub subslices_per_slice: u32,
    /// Whether the kernel's subslices are dual subslices (Gen12:
    /// `$DualSubsliceMask`).
    pub dual_subslices: bool,
    /// The OA unit(s); `None` where the kernel exposes no OA stream.
    pub oa: Option<OaInfo>,
    /// GT parts, in catalogue order.
    pub parts: &'static [PartInfo],
}

impl GpuInfo {
    /// The generation (the graphics IP's major number).
    pub const fn generation(&self) -> u8 {
        self.graphics.0
    }
    /// The driver used when none is asked for.
    pub fn default_driver(&self) -> Option<Driver> {
        self.drivers.first().copied()
    }
    /// Whether `driver` runs this GPU.
    pub fn runs_under(&self, driver: Driver) -> bool {
        self.drivers.contains(&driver)
    }
    /// Part GT`gt`.
    pub fn part(&self, gt: u8) -> Option<&'static PartInfo> {
        self.parts.iter().find(|p| p.gt == gt)
    }
    /// Part GT`gt`, or (no GT given, or none such) the GT2 part, else the
    /// first: the part tools assume when the device names none.
    pub fn part_or_default(&self, gt: Option<u8>) -> Option<&'static PartInfo> {
        gt.and_then(|g| self.part(g))
            .or_else(|| self.part(2))
            .or_else(|| self.parts.first())
    }
}

/// The OA facts of a project.
#[derive(Clone, Copy, Debug)]
pub struct OaInfo {
    /// OA units, the render unit first.
    pub units: &'static [OaUnitInfo],
    /// Power domains held awake while a metric set is programmed.
    pub wake: &'static [&'static str],
    /// The layout the emulator samples (the largest).
    pub sample: &'static FormatInfo,
    /// Report formats as the drivers number them.
    pub formats: &'static [DriverFormat],
}

impl OaInfo {
    /// The format i915 numbers `id`.
    pub fn i915_format(&self, id: u32) -> Option<&'static DriverFormat> {
        self.formats.iter().find(|f| f.i915 == Some(id))
    }
    /// The format named `layout` (case-insensitive).
    pub fn format(&self, layout: &str) -> Option<&'static DriverFormat> {
        self.formats
            .iter()
            .find(|f| f.format.name.eq_ignore_ascii_case(layout))
    }
    /// The format Xe numbers `value` (`DRM_XE_OA_PROPERTY_OA_FORMAT`).
    pub fn xe_format(&self, value: u64) -> Option<&'static DriverFormat> {
        self.formats.iter().find(|f| f.xe == Some(value))
    }
}

/// One OA unit.
#[derive(Clone, Copy, Debug)]
pub struct OaUnitInfo {
    /// Name (`oag`).
    pub name: &'static str,
    /// Kind (`oa`: the one unit before Gen12; `oag`, `oam`, ...).
    pub kind: &'static str,
    /// Its control register.
    pub control: &'static str,
    /// The control register's address.
    pub base: u64,
    /// Engine classes whose work it observes.
    pub engines: &'static [&'static str],
}

/// A report format as the drivers number it.
#[derive(Clone, Copy, Debug)]
pub struct DriverFormat {
    /// The layout.
    pub format: &'static FormatInfo,
    /// i915's `enum drm_i915_oa_format` value.
    pub i915: Option<u32>,
    /// Xe's `DRM_XE_OA_PROPERTY_OA_FORMAT` value.
    pub xe: Option<u64>,
}

/// One GT part: the metric-set chipset, its device values and its metric files.
#[derive(Clone, Copy, Debug)]
pub struct PartInfo {
    /// Project tag (`tgl`).
    pub project: &'static str,
    /// The metric files' `chipset` (`TGLGT2`).
    pub chipset: &'static str,
    /// GT variant.
    pub gt: u8,
    /// The device values its metric equations read (topology, frequencies,
    /// revision): what a tool assumes where the device does not say.
    pub device: perfregs_types::DeviceInfo,
    /// Where the values come from.
    pub note: &'static str,
    /// Its metric files (`metricsets/oa-tglgt2.xml`, relative to the
    /// description folder).
    pub metric_files: &'static [&'static str],
}

impl core::fmt::Display for PartInfo {
    /// `tgl GT2`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} GT{}", self.project, self.gt)
    }
}

/// Everything described for one project.
#[derive(Clone, Copy, Debug)]
pub struct ProjectInfo {
    /// Tag (`hsw`).
    pub name: &'static str,
    /// Human name.
    pub title: &'static str,
    /// Every register (array elements expanded): the project's `REGISTERS` table.
    pub registers: &'static [RegisterInfo],
    /// Counter events.
    pub events: &'static [CounterEvent],
    /// Force-wake power domains.
    pub domains: &'static [DomainInfo],
    /// Replication groups.
    pub groups: &'static [GroupInfo],
    /// Force-wake / steering table, by ascending start.
    pub map: &'static [MapRow],
    /// Report formats.
    pub formats: &'static [&'static FormatInfo],
    /// Data tables.
    pub tables: &'static [TableInfo],
    /// The steering (MCR selector) register for CPU accesses to replicated ranges.
    pub steering: Option<&'static str>,
    /// Opaque MMIO ranges, by ascending start.
    pub opaque: &'static [OpaqueRange],
    /// GPU command layouts.
    pub commands: &'static [&'static CommandInfo],
    /// The GPU facts of the catalogue; `None` for CPU projects (and
    /// projects described by a `regdefs!` of their own).
    pub gpu: Option<&'static GpuInfo>,
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
        self.registers.iter().find(|r| eq(r.name))
    }
    /// Find the register at an address.
    pub fn at(&self, space: SpaceKind, address: u64) -> Option<&'static RegisterInfo> {
        self.registers
            .iter()
            .find(|r| r.space == space && r.address == address)
    }
    /// The force-wake table row holding `address` (binary search).
    pub fn row_at(&self, address: u64) -> Option<&'static MapRow> {
        let i = self.map.partition_point(|r| r.end < address);
        self.map.get(i).filter(|r| r.start <= address)
    }
    /// The opaque range holding `address` (binary search).
    pub fn opaque_at(&self, address: u64) -> Option<&'static OpaqueRange> {
        let i = self.opaque.partition_point(|r| r.end < address);
        self.opaque.get(i).filter(|r| r.start <= address)
    }
    /// A command layout by name.
    pub fn command(&self, name: &str) -> Option<&'static CommandInfo> {
        self.commands.iter().copied().find(|c| c.name == name)
    }
    /// A power domain by name.
    pub fn domain(&self, name: &str) -> Option<&'static DomainInfo> {
        self.domains.iter().find(|d| d.name == name)
    }
    /// A replication group by name.
    pub fn group(&self, name: &str) -> Option<&'static GroupInfo> {
        self.groups.iter().find(|g| g.name == name)
    }
    /// A report format by name.
    pub fn format(&self, name: &str) -> Option<&'static FormatInfo> {
        self.formats
            .iter()
            .copied()
            .find(|f| f.name.eq_ignore_ascii_case(name))
    }
    /// A data table by name.
    pub fn table(&self, name: &str) -> Option<&'static TableInfo> {
        self.tables.iter().find(|t| t.name == name)
    }
    /// Event names of a counter.
    pub fn event(&self, counter: &str) -> Option<&'static CounterEvent> {
        self.events.iter().find(|e| e.counter == counter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static CMD: CommandInfo = CommandInfo {
        name: "T",
        title: "",
        dwords: 2,
        fields: &[
            CommandField {
                name: "len",
                dword: 0,
                lsb: 0,
                width: 6,
                value: Some(0),
                description: "",
            },
            CommandField {
                name: "op",
                dword: 0,
                lsb: 23,
                width: 6,
                value: Some(0x28),
                description: "",
            },
            CommandField {
                name: "x",
                dword: 1,
                lsb: 4,
                width: 4,
                value: None,
                description: "",
            },
            CommandField {
                name: "y",
                dword: 1,
                lsb: 31,
                width: 1,
                value: None,
                description: "",
            },
        ],
    };

    #[test]
    fn encode_and_decode_commands() {
        let mut d = [0xFFFF_FFFF; 3];
        assert_eq!(CMD.encode_into(&[0xA, 1], &mut d), Ok(()));
        assert_eq!(d, [0x1400_0000, 0x8000_00A0, 0xFFFF_FFFF]);
        let mut v = [0; 2];
        assert_eq!(CMD.decode_into(&d[..2], &mut v), Ok(()));
        assert_eq!(v, [0xA, 1]);
        // A value wider than its field is refused, not truncated.
        assert_eq!(
            CMD.encode_into(&[0x10, 0], &mut d),
            Err(CommandError::TooWide {
                command: "T",
                field: "x",
                value: 0x10
            })
        );
        // The opcode is checked before the length field and the dword count.
        let other = [0x1200_0005, 0];
        assert!(matches!(
            CMD.check(&other),
            Err(CommandError::Constant {
                field: "op",
                found: 0x24,
                ..
            })
        ));
        assert!(matches!(
            CMD.check(&[0x1400_0001, 0]),
            Err(CommandError::Constant {
                field: "len",
                found: 1,
                ..
            })
        ));
        assert_eq!(
            CMD.check(&[0x1400_0000]),
            Err(CommandError::Length {
                command: "T",
                expected: 2,
                got: 1
            })
        );
        assert_eq!(
            CMD.check(&[]),
            Err(CommandError::Length {
                command: "T",
                expected: 2,
                got: 0
            })
        );
        let mut short = [0u32; 1];
        assert!(CMD.encode_into(&[], &mut short).is_err());
    }
}

/// One Intel GPU PCI device id: its platform, GT variant and, when the
/// descriptions cover the platform, its project (a row of the generated
/// `DEVICES` table, from `regdefs/devices.yaml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceId {
    /// PCI device id.
    pub pci_id: u16,
    /// Platform name as the kernel abbreviates it (`SKL`, `ADL-P`, `DG2-G10`).
    pub platform: &'static str,
    /// GT variant (`Some(2)` for GT2), when the kernel's list names one.
    pub gt: Option<u8>,
    /// Project tag (`hsw`) when the platform is described here; `None`: not described yet.
    pub project: Option<&'static str>,
    /// The kernel macro listing the id (`INTEL_HSW_GT2_IDS`): provenance.
    pub macro_name: &'static str,
}

impl DeviceId {
    /// Whether the platform is described here (has a project).
    pub const fn described(&self) -> bool {
        self.project.is_some()
    }
    /// The row of `pci_id` in `table` (sorted by ascending id, as the
    /// generated `DEVICES` is), by binary search.
    pub fn find(table: &'static [DeviceId], pci_id: u16) -> Option<&'static DeviceId> {
        table
            .binary_search_by_key(&pci_id, |d| d.pci_id)
            .ok()
            .and_then(|i| table.get(i))
    }
}

impl core::fmt::Display for DeviceId {
    /// `SKL GT2 (0x1912)`, `VLV (0x0f31)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.platform)?;
        if let Some(gt) = self.gt {
            write!(f, " GT{gt}")?;
        }
        write!(f, " ({:#06x})", self.pci_id)
    }
}
