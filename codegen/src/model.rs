//! The description files as written: serde types mirroring `regdefs/SCHEMA.md`.
//!
//! Values whose YAML shape varies (an address that is an integer or a per-project
//! map, a bit range that is `5` or `"7:4"`) stay `serde_yaml::Value` here and are
//! interpreted by `resolve`, which can then report located errors.

use serde::Deserialize;
use serde_yaml::Value;

/// `projects.yaml`: the project catalogue.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogueFile {
    /// Project families.
    pub families: Vec<FamilyDef>,
}

/// One family of projects (GPU, P4, Xeon uncore).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyDef {
    /// Family name.
    pub name: String,
    /// What the family is.
    #[serde(default)]
    pub description: Option<String>,
    /// Projects, any order.
    pub projects: Vec<ProjectDef>,
}

/// One project tag.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectDef {
    /// Lower-case tag (`hsw`).
    pub name: String,
    /// Order inside the family; equal ranks are siblings.
    pub rank: i64,
    /// Human name.
    pub title: String,
    /// Other spellings accepted in expressions.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// What differs between GPUs, as data (GPU family projects only).
    #[serde(default)]
    pub gpu: Option<GpuDef>,
}

/// The GPU facts of a project (`gpu:` of a catalogue project): everything
/// code dispatches on per project, so a new GPU is data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuDef {
    /// Graphics IP version `"major.minor"` (`"12.10"` for DG1); the major
    /// number is the generation.
    pub graphics: String,
    /// Kernel drivers that run it (`i915`, `xe`); the first is the default.
    pub drivers: Vec<String>,
    /// How the metric sets number subslices.
    pub topology: TopologyDef,
    /// The OA unit(s), when the kernel exposes an OA stream.
    #[serde(default)]
    pub oa: Option<OaDef>,
    /// The GT parts (variants) with their device values.
    #[serde(default)]
    pub parts: Vec<PartDef>,
}

/// How the metric sets number subslices (IGT's `lib/i915/perf.c`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopologyDef {
    /// Bits a slice takes in `$SubsliceMask` (3 before Gen11, 8 from Gen11).
    pub subslices_per_slice: u32,
    /// Whether the kernel's subslices are dual subslices (`$DualSubsliceMask`).
    pub dual_subslices: bool,
}

/// The OA facts of a project.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OaDef {
    /// OA units, the render unit first.
    pub units: Vec<OaUnitDef>,
    /// Power domains held awake while a metric set is programmed.
    pub wake: Vec<String>,
    /// The report layout the emulator samples (the largest).
    pub sample: String,
    /// Report formats the kernel streams give, per driver.
    pub formats: Vec<DriverFormatDef>,
}

/// One OA unit.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OaUnitDef {
    /// Name (`oag`).
    pub name: String,
    /// Kind (`oa`: the single pre-Gen12 unit; `oag`, `oam`, ...).
    pub kind: String,
    /// Its control register (a register of the project); its address is the unit's base.
    pub control: String,
    /// Engine classes whose work it observes (`render`, `video`, ...).
    pub engines: Vec<String>,
}

/// A report format as the drivers number it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriverFormatDef {
    /// A report format of the project (`A32u40_A4u32_B8_C8`).
    pub layout: String,
    /// i915's `enum drm_i915_oa_format` value.
    #[serde(default)]
    pub i915: Option<u32>,
    /// Xe's `DRM_XE_OA_PROPERTY_OA_FORMAT` tuple.
    #[serde(default)]
    pub xe: Option<XeFormatDef>,
}

/// Xe's OA format tuple (`DRM_XE_OA_FORMAT_MASK_*`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct XeFormatDef {
    /// Format type (`oag`, `oar`, `oam`, `oac`, `oam_mpec`, `pec`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Counter select.
    pub select: u8,
    /// Counter size code.
    #[serde(default)]
    pub counter_size: u8,
    /// BC report code.
    #[serde(default)]
    pub bc_report: u8,
}

/// One GT part of a project: a metric-set chipset and its device values.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartDef {
    /// The `chipset` of its metric files (`TGLGT2`).
    pub chipset: String,
    /// GT variant number (as `devices.yaml` gives it).
    pub gt: u8,
    /// EUs.
    pub eus: u64,
    /// Hardware threads per EU.
    pub threads: u64,
    /// Enabled slices.
    pub slice_mask: u64,
    /// Enabled subslices, numbered as the metric sets number them.
    pub subslice_mask: u64,
    /// Enabled dual subslices (Gen12).
    #[serde(default)]
    pub dual_subslice_mask: u64,
    /// Lowest and highest GPU frequency (MHz).
    pub mhz: [u64; 2],
    /// Timestamp frequency (Hz).
    pub timestamp_hz: u64,
    /// PCI revision (stepping).
    #[serde(default)]
    pub revision: u64,
    /// L3 banks (`$L3BankTotalCount`); absent: unknown (0).
    #[serde(default)]
    pub l3_banks: Option<u64>,
    /// SQIDI units (`$SqidiTotalCount`); absent: unknown (0).
    #[serde(default)]
    pub sqidis: Option<u64>,
    /// L3 nodes (`$L3NodeTotalCount`); absent: unknown (0).
    #[serde(default)]
    pub l3_nodes: Option<u64>,
    /// Geometry pipelines (`$GeometryPipeTotalCount`); absent: unknown (0).
    #[serde(default)]
    pub geometry_pipes: Option<u64>,
    /// Depth pipelines (`$DepthPipeTotalCount`); absent: unknown (0).
    #[serde(default)]
    pub depth_pipes: Option<u64>,
    /// Color pipelines (`$ColorPipeTotalCount`); absent: unknown (0).
    #[serde(default)]
    pub color_pipes: Option<u64>,
    /// Where the values come from.
    pub note: String,
}

impl PartDef {
    /// The optional unit counts: (key, value).
    pub fn unit_counts(&self) -> [(&'static str, Option<u64>); 6] {
        [
            ("l3_banks", self.l3_banks),
            ("sqidis", self.sqidis),
            ("l3_nodes", self.l3_nodes),
            ("geometry_pipes", self.geometry_pipes),
            ("depth_pipes", self.depth_pipes),
            ("color_pipes", self.color_pipes),
        ]
    }
}

/// The address space a block lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    /// GPU MMIO: byte offsets in the GT BAR.
    Mmio,
    /// CPU model-specific registers, by index.
    Msr,
    /// PCI configuration space, byte offsets.
    Pci,
}

impl Space {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Space::Mmio => "mmio",
            Space::Msr => "msr",
            Space::Pci => "pci",
        }
    }
}

/// A block file: the registers of one block in one space.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockFile {
    /// snake_case block name.
    pub block: String,
    /// Address space.
    pub space: Space,
    /// Document the block is transcribed from.
    pub source: String,
    /// What the block is.
    #[serde(default)]
    pub description: Option<String>,
    /// Enums shared by this file's fields.
    #[serde(default)]
    pub enums: Vec<EnumDef>,
    /// Documentation tables of counter events.
    #[serde(default)]
    pub counter_events: Vec<CounterEventDef>,
    /// Registers.
    #[serde(default)]
    pub registers: Vec<RegisterDef>,
    /// Force-wake power domains per project.
    #[serde(default)]
    pub power_domains: Vec<PowerDomainsDef>,
    /// Multicast replication groups per project.
    #[serde(default)]
    pub replication_groups: Vec<ReplicationGroupsDef>,
    /// Force-wake / steering address maps per project.
    #[serde(default)]
    pub address_map: Vec<AddressMapDef>,
    /// Report memory layouts.
    #[serde(default)]
    pub report_formats: Vec<ReportFormatDef>,
    /// Data tables.
    #[serde(default)]
    pub tables: Vec<TableDef>,
    /// Address ranges with no public register layout.
    #[serde(default)]
    pub opaque_ranges: Vec<OpaqueRangeDef>,
    /// GPU command layouts.
    #[serde(default)]
    pub commands: Vec<CommandDef>,
}

/// A GPU command (such as `MI_REPORT_PERF_COUNT`): its dwords and their fields.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandDef {
    /// UPPER_SNAKE_CASE name.
    pub name: String,
    /// Short title.
    #[serde(default)]
    pub title: Option<String>,
    /// Project expression.
    pub projects: String,
    /// PRM description.
    #[serde(default)]
    pub description: Option<String>,
    /// Where in the PRM.
    #[serde(default)]
    pub prm: Option<String>,
    /// Our choices where the PRM is unclear or silent.
    #[serde(default)]
    pub note: Option<String>,
    /// Dwords in order (those absent on a project are skipped there).
    pub dwords: Vec<DwordDef>,
}

/// One dword of a command.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DwordDef {
    /// Subset of the command's projects (default: all of them).
    #[serde(default)]
    pub projects: Option<String>,
    /// What the dword holds.
    #[serde(default)]
    pub description: Option<String>,
    /// Fields; bits no field covers are reserved (zero).
    #[serde(default)]
    pub fields: Vec<CommandFieldDef>,
}

/// One field of a command dword.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandFieldDef {
    /// snake_case name.
    pub name: String,
    /// `"msb:lsb"` or a bit number, inside 31:0.
    pub bits: Value,
    /// Subset of the dword's projects.
    #[serde(default)]
    pub projects: Option<String>,
    /// A constant field (opcode, length): an integer or `{project expression: integer}`.
    #[serde(default)]
    pub value: Option<Value>,
    /// PRM description.
    #[serde(default)]
    pub description: Option<String>,
    /// Our choices.
    #[serde(default)]
    pub note: Option<String>,
}

/// An address range whose registers have no public layout (HSW's NOA unit).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpaqueRangeDef {
    /// UPPER_SNAKE_CASE name.
    pub name: String,
    /// Project expression.
    pub projects: String,
    /// First byte (dword aligned).
    pub start: u64,
    /// Last byte, inclusive (the last byte of a dword).
    pub end: u64,
    /// Metric-set configuration kind that may write it: `OA`, `NOA` or `FLEX`.
    #[serde(default)]
    pub config: Option<String>,
    /// What it is.
    #[serde(default)]
    pub description: Option<String>,
    /// Where in the PRM (or other public source).
    #[serde(default)]
    pub prm: Option<String>,
    /// Our choices.
    #[serde(default)]
    pub note: Option<String>,
}

/// Power domains of some projects.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerDomainsDef {
    /// Project expression.
    pub projects: String,
    /// The field of each request register of these domains that is the
    /// driver's request bit (required when a domain has a request register).
    #[serde(default)]
    pub request_field: Option<String>,
    /// Domains.
    pub domains: Vec<PowerDomainDef>,
}

/// One power domain.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerDomainDef {
    /// Lower-case name (`render`).
    pub name: String,
    /// Needs no waking.
    #[serde(default)]
    pub always_on: bool,
    /// Request register name.
    #[serde(default)]
    pub request: Option<String>,
    /// Acknowledge register name.
    #[serde(default)]
    pub ack: Option<String>,
    /// What it powers.
    #[serde(default)]
    pub description: Option<String>,
}

/// Replication groups of some projects.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplicationGroupsDef {
    /// Project expression.
    pub projects: String,
    /// The steering (MCR selector) register used for CPU accesses, with
    /// the roles of its fields.
    #[serde(default, deserialize_with = "steering_def")]
    pub steering: Option<SteeringDef>,
    /// Groups.
    pub groups: Vec<ReplicationGroupDef>,
}

/// One replication group type.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplicationGroupDef {
    /// Lower-case name (`dss`).
    pub name: String,
    /// Number of instances.
    pub instances: u32,
    /// Where the presence of each instance is fused.
    #[serde(default)]
    pub fuse: Option<FuseDef>,
    /// Instances per group id of the selector: instance n is steered to
    /// group (slice field) `n / per_group`, instance (subslice field)
    /// `n % per_group`. Omitted: `2^width(subslice)`.
    #[serde(default)]
    pub per_group: Option<u32>,
    /// The selector this group is steered through when it is not the
    /// section's (the media GT's own), with its semaphore; its fields have
    /// the section's role names.
    #[serde(default)]
    pub steering: Option<GroupSteeringDef>,
    /// What it is.
    #[serde(default)]
    pub description: Option<String>,
}

/// A replication group's own steering selector (see
/// [`ReplicationGroupDef::steering`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSteeringDef {
    /// Register name.
    pub register: String,
    /// The semaphore held around each access steered through it.
    #[serde(default)]
    pub semaphore: Option<SemaphoreDef>,
}

/// A hardware steering semaphore: a read returning the field's bit set
/// takes it, writing the bit set gives it back (Linux xe's `mcr_lock` /
/// `mcr_unlock` from graphics 12.70).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SemaphoreDef {
    /// Register name.
    pub register: String,
    /// The one-bit field read as 1 by the taker and written 1 to release.
    pub field: String,
}

/// The steering (MCR selector) register and the fields that play each
/// role in a steered access.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SteeringDef {
    /// Register name.
    pub register: String,
    /// Field that, set, makes writes go to every instance; `None` for a
    /// selector without one (Gen8..Gen10's GEN8_MCR_SELECTOR), whose
    /// replicated registers have no multicast write in the HAL.
    #[serde(default)]
    pub multicast: Option<String>,
    /// Field that selects the slice of a unicast access.
    pub slice: String,
    /// Field that selects the subslice of a unicast access.
    pub subslice: String,
    /// The semaphore held around every access steered through this
    /// selector (12.70+: shared with firmware).
    #[serde(default)]
    pub semaphore: Option<SemaphoreDef>,
}

/// `steering:` as a mapping; the register name alone (the form before the
/// field roles were declared) gets an error that shows the mapping to write.
fn steering_def<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<SteeringDef>, D::Error> {
    struct Visit;
    impl<'de> serde::de::Visitor<'de> for Visit {
        type Value = Option<SteeringDef>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(
                "a mapping { register, multicast (optional), slice, subslice, semaphore (optional) }",
            )
        }
        fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Self::Value, E> {
            Err(E::custom(format!(
                "`steering: {name}` names only the register; the roles of its fields are \
                 declared too: `steering: {{ register: {name}, multicast: <field>, \
                 slice: <field>, subslice: <field> }}` (regdefs/SCHEMA.md)"
            )))
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            SteeringDef::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Some)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(Visit)
}

/// A fuse mirror field.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuseDef {
    /// Register name.
    pub register: String,
    /// Field name.
    pub field: String,
    /// `enable` (bit set = present) or `disable` (bit set = fused off).
    pub polarity: FusePolarity,
}

/// Meaning of a set fuse bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FusePolarity {
    /// Bit set: the instance is present.
    Enable,
    /// Bit set: the instance is fused off.
    Disable,
}

/// An address map (force-wake and steering table).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddressMapDef {
    /// Project expression.
    pub projects: String,
    /// Where in the PRM.
    #[serde(default)]
    pub prm: Option<String>,
    /// Our choices.
    #[serde(default)]
    pub note: Option<String>,
    /// Rows in address order.
    pub rows: Vec<MapRowDef>,
}

/// One row of an address map.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapRowDef {
    /// First byte.
    pub start: u64,
    /// Last byte (inclusive).
    pub end: u64,
    /// Size as the PRM gives it.
    #[serde(default)]
    pub bytes: Option<u64>,
    /// Wake target: a power domain, or a list of two that are woken
    /// together (`[render, media]`); absent = reserved. Its shape is
    /// checked by `sections` (a located error).
    #[serde(default)]
    pub wake: Option<Value>,
    /// Replication group, if replicated.
    #[serde(default)]
    pub group: Option<String>,
    /// Instance count (must match the group).
    #[serde(default)]
    pub instances: Option<u32>,
    /// Steering as the PRM writes it.
    #[serde(default)]
    pub steering: Option<String>,
    /// Our choices.
    #[serde(default)]
    pub note: Option<String>,
}

/// A report format.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportFormatDef {
    /// UPPER_SNAKE_CASE name.
    pub name: String,
    /// Project expression.
    pub projects: String,
    /// Format code.
    pub select: u64,
    /// Size in bytes.
    pub size: u64,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
    /// Where in the PRM.
    #[serde(default)]
    pub prm: Option<String>,
    /// Our choices.
    #[serde(default)]
    pub note: Option<String>,
    /// Entries.
    pub layout: Vec<LayoutEntryDef>,
}

/// One layout entry (a counter or a run of counters).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutEntryDef {
    /// Name, `{n}` for runs.
    pub name: String,
    /// Byte offset of the (first) element.
    pub offset: u64,
    /// Counter width in bits.
    pub bits: u32,
    /// Number of elements of a run.
    #[serde(default)]
    pub count: Option<u32>,
    /// Index of the first element.
    #[serde(default)]
    pub first: Option<u32>,
    /// Distance between elements.
    #[serde(default)]
    pub stride: Option<u64>,
    /// Offset of the high byte of element 0 (40-bit counters).
    #[serde(default)]
    pub high_byte_offset: Option<u64>,
}

/// A data table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableDef {
    /// snake_case name.
    pub name: String,
    /// Project expression.
    pub projects: String,
    /// What it is.
    #[serde(default)]
    pub description: Option<String>,
    /// Where in the PRM.
    #[serde(default)]
    pub prm: Option<String>,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<Cell>>,
}

/// A table cell.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    /// An integer.
    Int(u64),
    /// Text.
    Str(String),
}

/// One register (or register array).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterDef {
    /// UPPER_SNAKE_CASE name; `{n}` for arrays.
    pub name: String,
    /// Short title.
    #[serde(default)]
    pub title: Option<String>,
    /// PRM description.
    #[serde(default)]
    pub description: Option<String>,
    /// Where in the PRM.
    #[serde(default)]
    pub prm: Option<String>,
    /// Project expression.
    pub projects: String,
    /// 32 or 64.
    #[serde(default)]
    pub width: Option<Value>,
    /// Integer or `{project expression: integer}`.
    pub address: Value,
    /// Integer or `{project expression: integer}`.
    #[serde(default)]
    pub reset: Option<Value>,
    /// Bits 31:16 enable the write of bits 15:0.
    #[serde(default)]
    pub masked: bool,
    /// Array expansion.
    #[serde(default)]
    pub array: Option<ArrayDef>,
    /// Metric-set configuration kind that may write it: `OA`, `NOA` or `FLEX`.
    #[serde(default)]
    pub config: Option<String>,
    /// Our choices where the PRM is unclear.
    #[serde(default)]
    pub note: Option<String>,
    /// Fields.
    #[serde(default)]
    pub fields: Vec<FieldDef>,
}

/// Array expansion of a register.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArrayDef {
    /// Number of elements: an integer, or `{project expression: integer}`
    /// when the array is longer on some projects.
    pub count: Value,
    /// Address distance between elements.
    pub stride: u64,
}

/// One field.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDef {
    /// snake_case name.
    pub name: String,
    /// `"msb:lsb"` or a bit number.
    pub bits: Value,
    /// Access type (see SCHEMA.md).
    pub access: String,
    /// Subset of the register's projects.
    #[serde(default)]
    pub projects: Option<String>,
    /// Reset value of the field.
    #[serde(default)]
    pub reset: Option<u64>,
    /// PRM description.
    #[serde(default)]
    pub description: Option<String>,
    /// Name of a file-level enum.
    #[serde(default, rename = "enum")]
    pub enum_name: Option<String>,
    /// Inline enum.
    #[serde(default)]
    pub values: Option<Vec<EnumValueDef>>,
    /// Our choices where the PRM is unclear.
    #[serde(default)]
    pub note: Option<String>,
    /// What the value encodes: `address` (the upper bits of an address:
    /// the value shifted left by the field's lsb).
    #[serde(default)]
    pub encodes: Option<String>,
}

/// A named enum.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumDef {
    /// UpperCamelCase name.
    pub name: String,
    /// What it encodes.
    #[serde(default)]
    pub description: Option<String>,
    /// Encodings.
    pub values: Vec<EnumValueDef>,
}

/// One encoding of an enum.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValueDef {
    /// snake_case name.
    pub name: String,
    /// Encoded value.
    pub value: u64,
    /// Meaning.
    #[serde(default)]
    pub description: Option<String>,
}

/// One row of a counter event table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterEventDef {
    /// Counter name (`A0`).
    pub counter: String,
    /// Project expression.
    pub projects: String,
    /// Event name.
    pub event: String,
    /// Event description.
    #[serde(default)]
    pub description: Option<String>,
}

/// `devices.yaml`: PCI device ids of Intel GPUs and the platform, GT variant
/// and (when described) project each one is.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevicesFile {
    /// The table.
    pub devices: DevicesDef,
}

/// The device table: its provenance and its groups of ids.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevicesDef {
    /// Where the ids come from (file, macro names, kernel commit).
    pub source: String,
    /// Groups of ids, one per kernel macro.
    pub platforms: Vec<DeviceGroupDef>,
}

/// The ids of one kernel macro (`INTEL_SKL_GT2_IDS`): one platform and GT.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceGroupDef {
    /// Platform name as the kernel abbreviates it (`SKL`, `ADL-P`, `DG2-G10`).
    pub platform: String,
    /// Project tag when the descriptions cover the platform; absent: not described yet.
    #[serde(default)]
    pub project: Option<String>,
    /// GT variant (`GT2` is 2) when the macro names one.
    #[serde(default)]
    pub gt: Option<u8>,
    /// The macro the ids are listed under (provenance).
    #[serde(rename = "macro")]
    pub macro_name: String,
    /// PCI device ids (16 bits each).
    pub ids: Vec<u64>,
}
