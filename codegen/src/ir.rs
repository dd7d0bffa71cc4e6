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
