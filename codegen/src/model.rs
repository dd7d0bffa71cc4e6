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
    pub registers: Vec<RegisterDef>,
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
