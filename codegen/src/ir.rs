//! The lowered description: arrays expanded, every register specialised per
//! project (address, reset, fields). Emission and the CLI read only this.

use crate::access::Access;
use crate::model::Space;
use crate::projects::Catalogue;

/// Everything the descriptions say, ready to emit.
#[derive(Debug, Clone, Default)]
pub struct Ir {
    /// Projects.
    pub catalogue: Catalogue,
    /// Every enum (file-level and inline), unique names.
    pub enums: Vec<EnumIr>,
    /// Every register element (arrays expanded).
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
    /// `(project, register)`: the steering selector for CPU accesses.
    pub steering: Vec<(usize, String)>,
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
    /// Request register.
    pub request: Option<String>,
    /// Ack register.
    pub ack: Option<String>,
    /// Description.
    pub description: String,
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
    /// `(register, field, polarity)` of the fuse mirror.
    pub fuse: Option<(String, String, crate::model::FusePolarity)>,
    /// Description.
    pub description: String,
}

/// An address-map row on one project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapRowIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// First byte.
    pub start: u64,
    /// Last byte (inclusive).
    pub end: u64,
    /// Wake domain, `None` for reserved.
    pub wake: Option<String>,
    /// Replication group.
    pub group: Option<String>,
    /// Instances (1 when not replicated).
    pub instances: u32,
    /// Steering as the PRM writes it.
    pub steering: String,
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
}

/// An enum.
#[derive(Debug, Clone)]
pub struct EnumIr {
    /// UpperCamelCase name.
    pub name: String,
    /// Description.
    pub description: String,
    /// `(name, value, description)`.
    pub values: Vec<(String, u64, String)>,
}

/// One register element.
#[derive(Debug, Clone)]
pub struct RegisterIr {
    /// Name (array index substituted).
    pub name: String,
    /// Block name.
    pub block: String,
    /// Address space.
    pub space: Space,
    /// Source document (`PRM 000 ...`).
    pub document: String,
    /// Description file and position (`regdefs/oa.yaml:12:5`).
    pub defined_at: String,
    /// Title.
    pub title: String,
    /// PRM description.
    pub description: String,
    /// PRM locator.
    pub prm: String,
    /// Our note.
    pub note: String,
    /// 32 or 64.
    pub width: u32,
    /// Masked register.
    pub masked: bool,
    /// `(template, index, count, stride)` for array elements.
    pub array: Option<(String, u32, u32, u64)>,
    /// One entry per project the register exists on.
    pub instances: Vec<InstanceIr>,
}

/// A register on one project.
#[derive(Debug, Clone)]
pub struct InstanceIr {
    /// Catalogue index of the project.
    pub project: usize,
    /// Address (byte offset or MSR index).
    pub address: u64,
    /// Reset value.
    pub reset: u64,
    /// Fields present on this project, by ascending lsb.
    pub fields: Vec<FieldIr>,
    /// Wake domain from the project's address map (`None`: not mapped).
    pub domain: Option<String>,
    /// `(group, instances)` when the register is replicated.
    pub replication: Option<(String, u32)>,
}

/// A field on one project.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldIr {
    /// snake_case name.
    pub name: String,
    /// Lowest bit.
    pub lsb: u32,
    /// Number of bits.
    pub width: u32,
    /// Access.
    pub access: Access,
    /// Description.
    pub description: String,
    /// Note.
    pub note: String,
    /// Index into [`Ir::enums`].
    pub enum_index: Option<usize>,
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

impl InstanceIr {
    /// OR of the masks of fields with an access matching `f`.
    pub fn mask_where(&self, f: impl Fn(Access) -> bool) -> u64 {
        self.fields
            .iter()
            .filter(|x| f(x.access))
            .fold(0, |m, x| m | x.mask())
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
}

impl Ir {
    /// The address-map row of project `p` holding `addr`.
    pub fn row_at(&self, p: usize, addr: u64) -> Option<&MapRowIr> {
        self.map
            .iter()
            .find(|r| r.project == p && r.start <= addr && addr <= r.end)
    }

    /// Registers present on project `p`, with their instance there.
    pub fn on_project(&self, p: usize) -> impl Iterator<Item = (&RegisterIr, &InstanceIr)> {
        self.registers
            .iter()
            .filter_map(move |r| r.instances.iter().find(|i| i.project == p).map(|i| (r, i)))
    }

    /// Look up a register on a project by (case-insensitive) name; `-` and `_` are the same.
    pub fn find(&self, p: usize, name: &str) -> Option<(&RegisterIr, &InstanceIr)> {
        let norm = |s: &str| s.to_ascii_uppercase().replace('-', "_");
        let want = norm(name);
        self.on_project(p).find(|(r, _)| norm(&r.name) == want)
    }
}
