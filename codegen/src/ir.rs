//! The lowered description, ready to emit. Field layouts are separate from
//! the registers that use them (deduplicated across registers and projects),
//! arrays stay arrays (`count`, `stride` per project), and every cross
//! reference (wake domain, replication group, request/ack/fuse/steering
//! registers) is resolved to an index or a number. Emission and the CLI read
//! only this: nothing downstream looks a name up or falls back to a default.

use crate::access::AccessKind;
use crate::model::Space;
use crate::projects::Catalogue;

/// Everything the descriptions say, ready to emit.
#[derive(Debug, Clone, Default)]
pub struct Ir {
    /// Projects.
    pub catalogue: Catalogue,
    /// Every enum (file-level and inline), unique names.
    pub enums: Vec<EnumIr>,
    /// Distinct field layouts, in order of first use.
    pub layouts: Vec<LayoutIr>,
    /// Every register (an array is one register with an [`ArrayIr`]).
    pub registers: Vec<RegisterIr>,
    /// Counter event documentation rows.
    pub events: Vec<EventIr>,
    /// Power domains, per project.
    pub domains: Vec<DomainIr>,
    /// Replication groups, per project.
    pub groups: Vec<GroupIr>,
    /// Address-map rows, per project, by ascending start.
    pub map: Vec<MapRowIr>,
    /// Report formats, per project.
    pub formats: Vec<FormatIr>,
    /// Data tables.
    pub tables: Vec<TableIr>,
    /// Steering selectors, one per steered project.
    pub steering: Vec<SteeringIr>,
    /// The project-scoped name of each enum a project's registers use.
    pub scoped_enums: Vec<ScopedEnumIr>,
    /// Described address ranges with no public field layout (HSW's NOA unit),
    /// per project, by ascending start.
    pub opaque: Vec<OpaqueRangeIr>,
    /// GPU command layouts, per project.
    pub commands: Vec<CommandIr>,
    /// The PCI device table, by ascending id.
    pub devices: Vec<DeviceIr>,
    /// The GPU facts of the catalogue's projects (`gpu:`), in catalogue order.
    pub gpus: Vec<GpuIr>,
}

/// The GPU facts of one project (`gpu:` in the catalogue), checked against
/// its descriptions (checked by the generator's GPU pass).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Graphics IP version (major = generation, minor).
    pub graphics: (u8, u8),
    /// Drivers that run it (`i915`, `xe`), the default first.
    pub drivers: Vec<String>,
    /// Bits a slice takes in the metric sets' `$SubsliceMask`.
    pub subslices_per_slice: u32,
    /// Whether the kernel's subslices are dual subslices.
    pub dual_subslices: bool,
    /// The OA unit(s), when the kernel exposes an OA stream.
    pub oa: Option<OaIr>,
    /// GT parts.
    pub parts: Vec<PartIr>,
}

/// The OA facts of a project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OaIr {
    /// OA units, the render unit first.
    pub units: Vec<OaUnitIr>,
    /// Domains held awake while a metric set is programmed (indices into [`Ir::domains`]).
    pub wake: Vec<usize>,
    /// The layout the emulator samples (index into [`Ir::formats`]).
    pub sample: usize,
    /// Report formats as the drivers number them.
    pub formats: Vec<DriverFormatIr>,
}

/// One OA unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OaUnitIr {
    /// Name (`oag`).
    pub name: String,
    /// Kind (`oa`, `oag`, `oam`, ...).
    pub kind: String,
    /// Control register name.
    pub control: String,
    /// The control register's address.
    pub base: u64,
    /// Engine classes it observes.
    pub engines: Vec<String>,
}

/// A report format with the drivers' numbers for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverFormatIr {
    /// Index into [`Ir::formats`].
    pub format: usize,
    /// i915's `enum drm_i915_oa_format` value.
    pub i915: Option<u32>,
    /// Xe's `DRM_XE_OA_PROPERTY_OA_FORMAT` value (type | select << 8 | size << 16 | bc << 24).
    pub xe: Option<u64>,
}

/// One GT part: its chipset, device values and metric files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartIr {
    /// Metric-set chipset (`TGLGT2`).
    pub chipset: String,
    /// GT variant.
    pub gt: u8,
    /// The device values its metric equations read (slice and subslice
    /// counts from the masks: dual subslices where the project numbers them).
    pub device: perfregs_types::DeviceInfo,
    /// Where the values come from.
    pub note: String,
    /// Its metric files (relative to the description folder), by name.
    pub metric_files: Vec<String>,
}

/// One PCI device id: its platform, GT variant and project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceIr {
    /// PCI device id.
    pub pci_id: u16,
    /// Platform name (`SKL`, `ADL-P`).
    pub platform: String,
    /// GT variant, when the kernel macro names one.
    pub gt: Option<u8>,
    /// Project tag when described (a catalogue project).
    pub project: Option<String>,
    /// Kernel macro listing the id.
    pub macro_name: String,
    /// The table's provenance (`source:` of its file).
    pub source: String,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
}

/// A GPU command (`MI_REPORT_PERF_COUNT`) on one project: its length and
/// the fields of its dwords.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// UPPER_SNAKE_CASE name.
    pub name: String,
    /// Title.
    pub title: String,
    /// PRM description.
    pub description: String,
    /// PRM locator.
    pub prm: String,
    /// Our note.
    pub note: String,
    /// Description file and position.
    pub defined_at: String,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
    /// Length in dwords on this project.
    pub dwords: u32,
    /// Fields by dword, then ascending lsb.
    pub fields: Vec<CommandFieldIr>,
}

/// One field of a command dword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandFieldIr {
    /// snake_case name.
    pub name: String,
    /// Index of its dword on this project.
    pub dword: u32,
    /// Lowest bit.
    pub lsb: u32,
    /// Number of bits.
    pub width: u32,
    /// The constant value of a fixed field (opcode, length); `None`: set by the user.
    pub value: Option<u64>,
    /// Description.
    pub description: String,
    /// Note.
    pub note: String,
}

/// Which kind of metric-set configuration block may write a register: the
/// `type` of an i915 metric set's `register_config` (`OA`, `NOA`, `FLEX`).
/// A register with no kind is not a configuration register: a metric set
/// that writes it is refused (as the Linux kernel's allow-lists do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfigKind {
    /// Boolean / custom-event counter programming (triggers, CEC registers).
    Oa,
    /// NOA multiplexer programming.
    Noa,
    /// EU flexible counter selection.
    Flex,
}

impl ConfigKind {
    /// The spelling in descriptions and metric-set XML (`OA`, `NOA`, `FLEX`).
    pub fn as_str(self) -> &'static str {
        match self {
            ConfigKind::Oa => "OA",
            ConfigKind::Noa => "NOA",
            ConfigKind::Flex => "FLEX",
        }
    }
    /// Parse the XML / description spelling (case-insensitive).
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_uppercase().as_str() {
            "OA" => Some(ConfigKind::Oa),
            "NOA" => Some(ConfigKind::Noa),
            "FLEX" => Some(ConfigKind::Flex),
            _ => None,
        }
    }
}

/// A described address range whose registers have no public layout: writes
/// into it can be checked for address and kind, not for fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpaqueRangeIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// UPPER_SNAKE_CASE name.
    pub name: String,
    /// First byte.
    pub start: u64,
    /// Last byte (inclusive).
    pub end: u64,
    /// Configuration kind of its registers (`None`: not writable by a metric set).
    pub config: Option<ConfigKind>,
    /// Wake domain (index into [`Ir::domains`]).
    pub domain: Option<usize>,
    /// The second wake domain of a row that wakes two (see [`InstanceIr::domain2`]).
    pub domain2: Option<usize>,
    /// Description.
    pub description: String,
    /// Our note.
    pub note: String,
    /// Description file and position.
    pub defined_at: String,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
}

impl OpaqueRangeIr {
    /// Whether the range holds byte `addr`.
    pub fn contains(&self, addr: u64) -> bool {
        self.start <= addr && addr <= self.end
    }
}

/// An enum under its project-scoped name (`hsw::enums::ReportFormat` for
/// `ReportFormatHsw`): the one naming rule across projects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopedEnumIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Index into [`Ir::enums`].
    pub enum_index: usize,
    /// Name inside the project (the enum's name without project words).
    pub name: String,
}

/// A power domain on one project.
#[derive(Debug, Clone)]
pub struct DomainIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Name.
    pub name: String,
    /// Needs no waking.
    pub always_on: bool,
    /// Request register name (runtime metadata).
    pub request: Option<String>,
    /// Ack register name (runtime metadata).
    pub ack: Option<String>,
    /// How to wake it (`None` when always on).
    pub wake: Option<WakeIr>,
    /// Declared by descriptions whose code is emitted elsewhere (the HAL's
    /// built-in maps, seen from `regdefs!`): referred to, not emitted.
    pub external: bool,
    /// Description.
    pub description: String,
}

/// The request/ack handshake of a wakeable domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WakeIr {
    /// Index among the project's wakeable domains.
    pub index: usize,
    /// Address of the request register.
    pub request: u64,
    /// Whether the request register is masked (bits 31:16 enable bits 15:0);
    /// an unmasked one (SNB's FORCEWAKE) is written with the bit alone.
    pub masked: bool,
    /// Address of the ack register.
    pub ack: u64,
    /// The driver's request bit (the field the section's `request_field` names).
    pub bit: u32,
}

/// A replication group on one project.
#[derive(Debug, Clone)]
pub struct GroupIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Name.
    pub name: String,
    /// Instances.
    pub instances: u32,
    /// Fuse mirror.
    pub fuse: Option<FuseIr>,
    /// Instances per group id of its selector, as described (`None`:
    /// `2^width(subslice)`, the encoding before `per_group` existed).
    pub per_group: Option<u32>,
    /// The selector it is steered through when not the project's
    /// ([`SteeringIr`]): the media GT's own.
    pub selector: Option<SelectorIr>,
    /// Declared by descriptions whose code is emitted elsewhere (see [`DomainIr::external`]).
    pub external: bool,
    /// Description.
    pub description: String,
}

/// A steering selector other than the project's, resolved (the fields of
/// its roles have the project selector's names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorIr {
    /// Register name.
    pub register: String,
    /// Register address.
    pub address: u64,
    /// Mask of the multicast bit; 0 when it has none.
    pub multicast_mask: u64,
    /// Slice (group id) field.
    pub slice: BitRange,
    /// Subslice (instance id) field.
    pub subslice: BitRange,
    /// Semaphore held around each access steered through it.
    pub semaphore: Option<SemaphoreIr>,
}

/// A hardware steering semaphore, resolved: a read with `bit` set takes
/// it, a write of `bit` gives it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SemaphoreIr {
    /// Register name.
    pub register: String,
    /// Register address.
    pub address: u64,
    /// The bit read and written.
    pub bit: u32,
}

/// Where a group's instances are fused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuseIr {
    /// Register name (runtime metadata).
    pub register: String,
    /// Field name (runtime metadata).
    pub field: String,
    /// Register address.
    pub address: u64,
    /// Field lsb.
    pub lsb: u32,
    /// Field width.
    pub width: u32,
    /// A set bit means present (else: fused off).
    pub set_means_present: bool,
    /// Wake domain of the fuse register (index into [`Ir::domains`]).
    pub domain: Option<usize>,
}

/// The CPU's steering selector on one project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SteeringIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Register name.
    pub register: String,
    /// Register address.
    pub address: u64,
    /// Mask of the multicast bit; 0 when the selector has none (Gen8..Gen10).
    pub multicast_mask: u64,
    /// Slice id field.
    pub slice: BitRange,
    /// Subslice id field.
    pub subslice: BitRange,
    /// Domain to hold while steering: the fuse registers' (read when steering
    /// starts), else the selector's own (index into [`Ir::domains`]).
    pub domain: Option<usize>,
    /// Semaphore held around each steered access (12.70+).
    pub semaphore: Option<SemaphoreIr>,
}

/// `lsb` and `width` of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitRange {
    /// Lowest bit.
    pub lsb: u32,
    /// Number of bits.
    pub width: u32,
}

/// Joins the two domains of a row that wakes two (`render+media`): the
/// name of the wake target in the IR, the runtime metadata and the HAL's
/// pair-domain types.
pub const WAKE_SEP: char = '+';

/// An address-map row on one project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapRowIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// First byte.
    pub start: u64,
    /// Last byte (inclusive).
    pub end: u64,
    /// Wake target, `None` for reserved: a domain name, or two joined by
    /// [`WAKE_SEP`] in the project's declaration order (`render+media`).
    pub wake: Option<String>,
    /// Replication group.
    pub group: Option<String>,
    /// Instances (1 when not replicated).
    pub instances: u32,
    /// Steering as the PRM writes it.
    pub steering: String,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
}

/// A report format on one project.
#[derive(Debug, Clone)]
pub struct FormatIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Name.
    pub name: String,
    /// Format code.
    pub select: u64,
    /// Size in bytes.
    pub size: u64,
    /// Description.
    pub description: String,
    /// Note.
    pub note: String,
    /// Counters by ascending offset.
    pub counters: Vec<CounterIr>,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
}

/// One counter of a report format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterIr {
    /// Name (`A7`, `RPT_ID`).
    pub name: String,
    /// Byte offset (low dword of a split counter).
    pub offset: u64,
    /// Width in bits.
    pub bits: u32,
    /// High byte of a split 40-bit counter.
    pub high_byte_offset: Option<u64>,
}

/// A data table.
#[derive(Debug, Clone)]
pub struct TableIr {
    /// Projects.
    pub projects: crate::projects::ProjectSet,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Columns.
    pub columns: Vec<String>,
    /// Rows.
    pub rows: Vec<Vec<crate::model::Cell>>,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
}

/// An enum.
#[derive(Debug, Clone)]
pub struct EnumIr {
    /// UpperCamelCase name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Named encodings.
    pub values: Vec<EnumValueIr>,
    /// Same scoped name and encodings as an earlier enum, which fields use
    /// instead (index into [`Ir::enums`]); not emitted.
    pub merged_into: Option<usize>,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
}

/// An item of one project that may be built in (see [`DomainIr::external`]).
pub trait ProjectItem {
    /// Catalogue index of its project.
    fn project(&self) -> usize;
    /// Built in: not emitted.
    fn external(&self) -> bool;
}

macro_rules! project_items {
    ($($t:ty),*) => {$(
        impl ProjectItem for $t {
            fn project(&self) -> usize {
                self.project
            }
            fn external(&self) -> bool {
                self.external
            }
        }
    )*};
}
project_items!(
    CommandIr,
    OpaqueRangeIr,
    DomainIr,
    GroupIr,
    MapRowIr,
    FormatIr
);

/// The items of `items` on project `p` that are emitted (not built in), in
/// order: the position among them is the index generated code uses.
pub fn emitted_on<T: ProjectItem>(items: &[T], p: usize) -> impl Iterator<Item = &T> {
    items
        .iter()
        .filter(move |x| x.project() == p && !x.external())
}

/// One named encoding of an enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumValueIr {
    /// snake_case name.
    pub name: String,
    /// Encoding.
    pub value: u64,
    /// Description.
    pub description: String,
}

/// A field layout: what registers with the same fields share.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LayoutIr {
    /// Unique snake_case module name (from the first register that uses it).
    pub name: String,
    /// Display name (the first register's name, `CECn_0` for arrays).
    pub title: String,
    /// 32 or 64.
    pub width: u32,
    /// Masked register (bits 31:16 enable bits 15:0).
    pub masked: bool,
    /// Fields by ascending lsb.
    pub fields: Vec<FieldIr>,
}

impl LayoutIr {
    /// OR of the masks of fields with an access matching `f`.
    pub fn mask_where(&self, f: impl Fn(AccessKind) -> bool) -> u64 {
        self.fields
            .iter()
            .filter(|x| f(x.access))
            .fold(0, |m, x| m | x.mask())
    }
    /// Bits written back by `modify` and kept from reset by `write`.
    pub fn keep_mask(&self) -> u64 {
        self.mask_where(|a| !a.reserved() && !matches!(a, AccessKind::Rw1c | AccessKind::Rw1s))
    }
    /// Some field can be read (or none is described).
    pub fn readable(&self) -> bool {
        self.fields.is_empty() || self.fields.iter().any(|f| f.access.readable())
    }
    /// Written with `write`/`modify`: not masked, and some field can be written.
    pub fn writable(&self) -> bool {
        !self.masked
            && (self.fields.is_empty()
                || self.fields.iter().any(|f| {
                    f.access.settable() || matches!(f.access, AccessKind::Rw1c | AccessKind::Rw1s)
                }))
    }
}

/// A register, or an array of registers.
#[derive(Debug, Clone)]
pub struct RegisterIr {
    /// Name (`OACONTROL`; `CEC{n}_0` for an array).
    pub name: String,
    /// Block name.
    pub block: String,
    /// Address space.
    pub space: Space,
    /// Source document (`PRM 000 ...`).
    pub document: String,
    /// Description file (relative to the description folder) and position.
    pub defined_at: String,
    /// Title (`{n}` stands for the element index).
    pub title: String,
    /// PRM description (`{n}` stands for the element index).
    pub description: String,
    /// PRM locator.
    pub prm: String,
    /// Our note.
    pub note: String,
    /// 32 or 64.
    pub width: u32,
    /// Masked register.
    pub masked: bool,
    /// Array shape (the element count is per project, in [`InstanceIr::count`]).
    pub array: Option<ArrayIr>,
    /// One entry per project the register exists on.
    pub instances: Vec<InstanceIr>,
    /// Built-in (see [`DomainIr::external`]): cross-referenced, not emitted.
    pub external: bool,
    /// Metric-set configuration kind (`config:` in the description).
    pub config: Option<ConfigKind>,
}

/// An array's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayIr {
    /// Bytes (or MSR indices) between elements.
    pub stride: u64,
}

impl RegisterIr {
    /// Name of element `n` (`CEC3_0`), or the name of a plain register.
    pub fn element_name(&self, n: u32) -> String {
        self.name.replace("{n}", &n.to_string())
    }
    /// Rust identifier of the register or array (`CECn_0`).
    pub fn ident(&self) -> String {
        self.name.replace("{n}", "n")
    }
}

/// A register on one project.
#[derive(Debug, Clone)]
pub struct InstanceIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Address (byte offset or MSR index) of element 0.
    pub address: u64,
    /// Reset value.
    pub reset: u64,
    /// Elements on this project (1 for a plain register).
    pub count: u32,
    /// Index into [`Ir::layouts`].
    pub layout: usize,
    /// Wake domain (index into [`Ir::domains`]); `None`: outside every
    /// force-wake range, or a domain's own request register.
    pub domain: Option<usize>,
    /// The second wake domain where the row wakes two together (Linux
    /// i915's `FORCEWAKE_RENDER | FORCEWAKE_MEDIA` rows), after `domain` in
    /// the project's declaration order; `None` otherwise.
    pub domain2: Option<usize>,
    /// Replication group (index into [`Ir::groups`]).
    pub replication: Option<usize>,
}

impl InstanceIr {
    /// Address of element `n`.
    pub fn element_address(&self, stride: u64, n: u32) -> u64 {
        self.address.wrapping_add(u64::from(n).wrapping_mul(stride))
    }
}

/// A field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldIr {
    /// snake_case name.
    pub name: String,
    /// Lowest bit.
    pub lsb: u32,
    /// Number of bits.
    pub width: u32,
    /// Access.
    pub access: AccessKind,
    /// Description (`{n}` stands for the element index).
    pub description: String,
    /// Note.
    pub note: String,
    /// Index into [`Ir::enums`].
    pub enum_index: Option<usize>,
    /// `encodes: address`: the value is the upper bits of an address (the
    /// address is the value shifted left by [`lsb`](Self::lsb)).
    pub address: bool,
}

impl FieldIr {
    /// Mask of the field's bits in the register.
    pub fn mask(&self) -> u64 {
        (if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }) << self.lsb
    }
    /// Highest bit.
    pub fn msb(&self) -> u32 {
        self.lsb + self.width - 1
    }
}

/// A counter event row.
#[derive(Debug, Clone)]
pub struct EventIr {
    /// Counter (`A0`).
    pub counter: String,
    /// Projects.
    pub projects: crate::projects::ProjectSet,
    /// Event name.
    pub event: String,
    /// Description.
    pub description: String,
    /// Built-in (see [`DomainIr::external`]): not emitted.
    pub external: bool,
}

/// One register (array element expanded) on one project: the flat view
/// exporters and the CLI list.
#[derive(Debug, Clone)]
pub struct Element<'a> {
    /// The register or array.
    pub register: &'a RegisterIr,
    /// Its instance on the project.
    pub instance: &'a InstanceIr,
    /// Its layout.
    pub layout: &'a LayoutIr,
    /// Element index (`None` for a plain register).
    pub index: Option<u32>,
    /// Name (`CEC3_0`).
    pub name: String,
    /// Address.
    pub address: u64,
}

impl Element<'_> {
    /// The register's text with `{n}` replaced by this element's index.
    pub fn text(&self, s: &str) -> String {
        match self.index {
            Some(n) => s.replace("{n}", &n.to_string()),
            None => s.to_string(),
        }
    }
    /// Fields by ascending lsb.
    pub fn fields(&self) -> &[FieldIr] {
        &self.layout.fields
    }
    /// `(index, count, stride)` of an array element; `None` for a plain register.
    pub fn array_position(&self) -> Option<(u32, u32, u64)> {
        let a = self.register.array?;
        Some((self.index?, self.instance.count, a.stride))
    }
}

impl Ir {
    /// The address-map row of project `p` holding `addr` (the rows are
    /// sorted by project and start and do not overlap: a binary search).
    pub fn row_at(&self, p: usize, addr: u64) -> Option<&MapRowIr> {
        let after = self
            .map
            .partition_point(|r| (r.project, r.start) <= (p, addr));
        let row = self.map[..after].last()?;
        (row.project == p && addr <= row.end).then_some(row)
    }

    /// Registers (arrays not expanded) present on project `p`, with their instance there.
    pub fn on_project(&self, p: usize) -> impl Iterator<Item = (&RegisterIr, &InstanceIr)> {
        self.registers
            .iter()
            .filter_map(move |r| r.instances.iter().find(|i| i.project == p).map(|i| (r, i)))
    }

    /// Every register element on project `p`, arrays expanded, in description order.
    pub fn elements(&self, p: usize) -> impl Iterator<Item = Element<'_>> {
        self.on_project(p).flat_map(move |(r, i)| {
            let stride = r.array.map_or(0, |a| a.stride);
            (0..i.count).map(move |n| Element {
                register: r,
                instance: i,
                layout: &self.layouts[i.layout],
                index: r.array.map(|_| n),
                name: r.element_name(n),
                address: i.element_address(stride, n),
            })
        })
    }

    /// An element of project `p` by (case-insensitive) name; `-` and `_` are the same.
    pub fn find(&self, p: usize, name: &str) -> Option<Element<'_>> {
        let norm = |s: &str| s.to_ascii_uppercase().replace('-', "_");
        let want = norm(name);
        self.elements(p).find(|e| norm(&e.name) == want)
    }

    /// Registers of project `p` to emit (not external), with their instance.
    pub fn emitted(&self, p: usize) -> impl Iterator<Item = (&RegisterIr, &InstanceIr)> {
        self.on_project(p).filter(|(r, _)| !r.external)
    }

    /// Elements of project `p` to emit (not external).
    pub fn emitted_elements(&self, p: usize) -> impl Iterator<Item = Element<'_>> {
        self.elements(p).filter(|e| !e.register.external)
    }

    /// Whether C2 carries the GPU clock on project `p`: it has report
    /// formats and none of them has a GPU_TICKS slot (SNB..HSW; HSW tools
    /// and metric sets read the GPU core clock from C2). The HAL's report
    /// views and the emulator both follow this one rule.
    pub fn gpu_clock_in_c2(&self, p: usize) -> bool {
        let mut formats = self.formats.iter().filter(|f| f.project == p).peekable();
        formats.peek().is_some()
            && formats.all(|f| f.counters.iter().all(|c| c.name != "GPU_TICKS"))
    }

    /// The opaque range of project `p` holding `addr` (the ranges are
    /// sorted by project and start and do not overlap).
    pub fn opaque_at(&self, p: usize, addr: u64) -> Option<&OpaqueRangeIr> {
        let after = self
            .opaque
            .partition_point(|r| (r.project, r.start) <= (p, addr));
        let range = self.opaque[..after].last()?;
        (range.project == p && range.contains(addr)).then_some(range)
    }

    /// The layout of an instance.
    pub fn layout(&self, i: &InstanceIr) -> &LayoutIr {
        &self.layouts[i.layout]
    }

    /// The wake domain of an instance (`None`: it needs no force-wake).
    pub fn domain_of(&self, i: &InstanceIr) -> Option<&DomainIr> {
        i.domain.and_then(|d| self.domains.get(d))
    }

    /// The wake target name of a domain and an optional second one
    /// (`render`, `render+media`; `None`: no domain).
    pub fn wake_name(&self, d: Option<usize>, d2: Option<usize>) -> Option<String> {
        let name = |d: usize| self.domains.get(d).map(|x| x.name.as_str());
        let first = name(d?)?;
        Some(match d2.and_then(name) {
            Some(second) => format!("{first}{WAKE_SEP}{second}"),
            None => first.to_string(),
        })
    }

    /// The wake target name of an instance (see [`Ir::wake_name`]).
    pub fn wake_name_of(&self, i: &InstanceIr) -> Option<String> {
        self.wake_name(i.domain, i.domain2)
    }

    /// The replication group of an instance (`None`: a plain register).
    pub fn group_of(&self, i: &InstanceIr) -> Option<&GroupIr> {
        i.replication.and_then(|g| self.groups.get(g))
    }
}
