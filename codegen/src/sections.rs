//! Resolution of the sections that are not registers: power domains,
//! replication groups, address maps, report formats, data tables and
//! opaque ranges.
//! Project expressions are parsed and report layouts expanded here (with
//! located errors); cross-checks are validation passes.

use crate::diag::{Code, Diagnostics};
use crate::ir::ConfigKind;
use crate::load::SourceFile;
use crate::model::{BlockFile, Cell, FusePolarity};
use crate::projects::{Catalogue, ProjectSet};
use serde_yaml::Value;

/// A power domain on a set of projects.
#[derive(Debug, Clone)]
pub struct RDomain {
    /// Node path.
    pub path: String,
    /// Projects.
    pub projects: ProjectSet,
    /// Name.
    pub name: String,
    /// Needs no waking.
    pub always_on: bool,
    /// Request register.
    pub request: Option<String>,
    /// Ack register.
    pub ack: Option<String>,
    /// The section's `request_field` (the request register's request bit)
    /// and its node path (the domain's `request` when omitted).
    pub request_field: (Option<String>, String),
    /// Description.
    pub description: String,
}

/// A steering (MCR selector) register and the fields of its roles, on a
/// set of projects.
#[derive(Debug, Clone)]
pub struct RSteering {
    /// Node path of the `steering` mapping.
    pub path: String,
    /// Projects.
    pub projects: ProjectSet,
    /// Register name.
    pub register: String,
    /// Field names of the roles: multicast (when the selector has one),
    /// slice, subslice (the key of each is the path's last segment).
    pub roles: Vec<(&'static str, String)>,
    /// `(register, field)` of the semaphore held around each steered access.
    pub semaphore: Option<(String, String)>,
}

/// A replication group's own steering selector: its register, its
/// semaphore `(register, field)`, and the roles of the section's selector
/// (the field names the register must have; empty when the section has
/// no `steering`).
#[derive(Debug, Clone)]
pub struct RGroupSteering {
    /// Register name.
    pub register: String,
    /// `(register, field)` of its semaphore.
    pub semaphore: Option<(String, String)>,
    /// The section selector's roles.
    pub roles: Vec<(&'static str, String)>,
}

/// A replication group on a set of projects.
#[derive(Debug, Clone)]
pub struct RGroup {
    /// Node path.
    pub path: String,
    /// Projects.
    pub projects: ProjectSet,
    /// Name.
    pub name: String,
    /// Instances.
    pub instances: u32,
    /// `(register, field, polarity)` of the fuse mirror.
    pub fuse: Option<(String, String, FusePolarity)>,
    /// Instances per group id (`None`: `2^width(subslice)`).
    pub per_group: Option<u32>,
    /// The group's own selector, when not the section's.
    pub steering: Option<RGroupSteering>,
    /// Description.
    pub description: String,
}

/// An address-map row on a set of projects.
#[derive(Debug, Clone)]
pub struct RMapRow {
    /// Node path.
    pub path: String,
    /// Projects of the map.
    pub projects: ProjectSet,
    /// First byte.
    pub start: u64,
    /// Last byte.
    pub end: u64,
    /// PRM size.
    pub bytes: Option<u64>,
    /// Wake domains: one, or two woken together (empty: reserved).
    pub wake: Vec<String>,
    /// Whether `wake` was written as a list (diagnostics then point at
    /// its elements, `wake/N`).
    pub wake_list: bool,
    /// Replication group.
    pub group: Option<String>,
    /// Instance count.
    pub instances: Option<u32>,
    /// Steering text.
    pub steering: String,
}

/// One expanded counter of a report format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RCounter {
    /// Path of the layout entry.
    pub path: String,
    /// Name (`A7`, `RPT_ID`).
    pub name: String,
    /// Byte offset (of the low dword for split counters).
    pub offset: u64,
    /// Width in bits.
    pub bits: u32,
    /// Offset of the high byte of a split 40-bit counter.
    pub high_byte_offset: Option<u64>,
}

impl RCounter {
    /// Byte ranges `[start, end)` the counter occupies. An end past the
    /// address space (an offset near `u64::MAX`) is `u64::MAX`: outside
    /// every report, as validation then says.
    pub fn spans(&self) -> Vec<(u64, u64)> {
        let span = |at: u64, len: u64| (at, at.saturating_add(len));
        match self.high_byte_offset {
            Some(h) => vec![span(self.offset, 4), span(h, 1)],
            None => vec![span(self.offset, u64::from(self.bits).div_ceil(8))],
        }
    }
}

/// A report format on a set of projects.
#[derive(Debug, Clone)]
pub struct RFormat {
    /// Node path.
    pub path: String,
    /// Projects.
    pub projects: ProjectSet,
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
    /// Expanded counters.
    pub counters: Vec<RCounter>,
}

/// A data table.
#[derive(Debug, Clone)]
pub struct RTable {
    /// Node path.
    pub path: String,
    /// Projects.
    pub projects: ProjectSet,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows.
    pub rows: Vec<Vec<Cell>>,
}

/// An opaque address range on a set of projects.
#[derive(Debug, Clone)]
pub struct ROpaque {
    /// Node path.
    pub path: String,
    /// Projects.
    pub projects: ProjectSet,
    /// Name.
    pub name: String,
    /// First byte.
    pub start: u64,
    /// Last byte (inclusive).
    pub end: u64,
    /// Configuration kind, if given and known.
    pub config: Option<ConfigKind>,
    /// Description.
    pub description: String,
    /// Note.
    pub note: String,
}

/// A command on a set of projects.
#[derive(Debug, Clone)]
pub struct RCommand {
    /// Node path.
    pub path: String,
    /// Projects.
    pub projects: ProjectSet,
    /// Name.
    pub name: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// PRM locator.
    pub prm: String,
    /// Note.
    pub note: String,
    /// Dwords in order.
    pub dwords: Vec<RDword>,
}

/// One dword of a command.
#[derive(Debug, Clone)]
pub struct RDword {
    /// Node path.
    pub path: String,
    /// Projects (a subset of the command's when valid).
    pub projects: ProjectSet,
    /// Fields.
    pub fields: Vec<RCommandField>,
}

/// One field of a command dword.
#[derive(Debug, Clone)]
pub struct RCommandField {
    /// Node path.
    pub path: String,
    /// Name.
    pub name: String,
    /// `(msb, lsb)`, if the range parsed.
    pub bits: Option<(u32, u32)>,
    /// Projects (the dword's when omitted).
    pub projects: ProjectSet,
    /// Constant value per project set (`None`: a variable field); an
    /// unresolvable map is reported and leaves the field out of lowering.
    pub value: Option<Vec<(ProjectSet, u64, String)>>,
    /// The value was given but did not resolve.
    pub bad_value: bool,
    /// Description.
    pub description: String,
    /// Note.
    pub note: String,
}

/// Everything but the registers of one file.
#[derive(Debug, Clone, Default)]
pub struct RSections {
    /// Power domains.
    pub domains: Vec<RDomain>,
    /// Replication groups.
    pub groups: Vec<RGroup>,
    /// Address-map rows (all maps of the file, in order).
    pub rows: Vec<RMapRow>,
    /// Report formats.
    pub formats: Vec<RFormat>,
    /// Tables.
    pub tables: Vec<RTable>,
    /// The steering selectors for CPU accesses.
    pub steering: Vec<RSteering>,
    /// Opaque address ranges.
    pub opaque: Vec<ROpaque>,
    /// GPU commands.
    pub commands: Vec<RCommand>,
}

fn text(s: &Option<String>) -> String {
    s.as_deref().unwrap_or("").trim().to_string()
}

/// Resolve the non-register sections of a block file.
pub fn resolve_sections(
    source: &SourceFile,
    file: &BlockFile,
    cat: &Catalogue,
    diags: &mut Diagnostics,
) -> RSections {
    let mut out = RSections::default();
    let projects =
        |expr: &str, path: String, item: &str, diags: &mut Diagnostics| match cat.parse(expr) {
            Ok(s) => Some(s),
            Err(m) => {
                diags.push(source.diag(Code::UnknownProject, &format!("{path}/projects"), item, m));
                None
            }
        };
    for (i, d) in file.power_domains.iter().enumerate() {
        let path = format!("power_domains/{i}");
        let Some(p) = projects(&d.projects, path.clone(), "power_domains", diags) else {
            continue;
        };
        for (j, dom) in d.domains.iter().enumerate() {
            let request_field = match &d.request_field {
                Some(f) => (Some(f.clone()), format!("{path}/request_field")),
                None => (None, format!("{path}/domains/{j}/request")),
            };
            out.domains.push(RDomain {
                request_field,
                path: format!("{path}/domains/{j}"),
                projects: p,
                name: dom.name.clone(),
                always_on: dom.always_on,
                request: dom.request.clone(),
                ack: dom.ack.clone(),
                description: text(&dom.description),
            });
        }
    }
    for (i, g) in file.replication_groups.iter().enumerate() {
        let path = format!("replication_groups/{i}");
        let Some(p) = projects(&g.projects, path.clone(), "replication_groups", diags) else {
            continue;
        };
        let sem = |s: &crate::model::SemaphoreDef| (s.register.clone(), s.field.clone());
        let mut roles = Vec::new();
        if let Some(st) = &g.steering {
            roles = st
                .multicast
                .iter()
                .map(|m| ("multicast", m.clone()))
                .chain([
                    ("slice", st.slice.clone()),
                    ("subslice", st.subslice.clone()),
                ])
                .collect();
            out.steering.push(RSteering {
                path: format!("{path}/steering"),
                projects: p,
                register: st.register.clone(),
                roles: roles.clone(),
                semaphore: st.semaphore.as_ref().map(sem),
            });
        }
        for (j, grp) in g.groups.iter().enumerate() {
            out.groups.push(RGroup {
                path: format!("{path}/groups/{j}"),
                projects: p,
                name: grp.name.clone(),
                instances: grp.instances,
                fuse: grp
                    .fuse
                    .as_ref()
                    .map(|f| (f.register.clone(), f.field.clone(), f.polarity)),
                per_group: grp.per_group,
                steering: grp.steering.as_ref().map(|s| RGroupSteering {
                    register: s.register.clone(),
                    semaphore: s.semaphore.as_ref().map(sem),
                    roles: roles.clone(),
                }),
                description: text(&grp.description),
            });
        }
    }
    for (i, m) in file.address_map.iter().enumerate() {
        let path = format!("address_map/{i}");
        let Some(p) = projects(&m.projects, path.clone(), "address_map", diags) else {
            continue;
        };
        for (j, r) in m.rows.iter().enumerate() {
            let row_path = format!("{path}/rows/{j}");
            let item = format!("row {:#x}..{:#x}", r.start, r.end);
            let (wake, wake_list) = match &r.wake {
                None => (Vec::new(), false),
                Some(Value::String(w)) => (vec![w.clone()], false),
                Some(Value::Sequence(ws)) if !ws.is_empty() => {
                    let names: Vec<String> = ws
                        .iter()
                        .filter_map(|w| w.as_str().map(str::to_string))
                        .collect();
                    if names.len() != ws.len() {
                        let m = "wake: a list of power domain names (`[render, media]`)".into();
                        diags.push(source.diag(Code::Shape, &format!("{row_path}/wake"), &item, m));
                        continue;
                    }
                    (names, true)
                }
                Some(_) => {
                    let m =
                        "wake: a power domain name, or a list of two (`[render, media]`)".into();
                    diags.push(source.diag(Code::Shape, &format!("{row_path}/wake"), &item, m));
                    continue;
                }
            };
            out.rows.push(RMapRow {
                path: row_path,
                projects: p,
                start: r.start,
                end: r.end,
                bytes: r.bytes,
                wake,
                wake_list,
                group: r.group.clone(),
                instances: r.instances,
                steering: text(&r.steering),
            });
        }
    }
    for (i, f) in file.report_formats.iter().enumerate() {
        let path = format!("report_formats/{i}");
        let Some(p) = projects(&f.projects, path.clone(), &f.name, diags) else {
            continue;
        };
        let mut counters = Vec::new();
        for (j, e) in f.layout.iter().enumerate() {
            let epath = format!("{path}/layout/{j}");
            let item = format!("{}.{}", f.name, e.name);
            if e.bits == 0 || e.bits > 64 {
                diags.push(source.diag(
                    Code::Layout,
                    &format!("{epath}/bits"),
                    &item,
                    format!("counter width {} is not 1..=64 bits", e.bits),
                ));
                continue;
            }
            if e.high_byte_offset.is_some() && e.bits != 40 {
                diags.push(source.diag(
                    Code::Layout,
                    &format!("{epath}/high_byte_offset"),
                    &item,
                    "a split counter (high_byte_offset) must be 40 bits wide".into(),
                ));
                continue;
            }
            let count = e.count.unwrap_or(1);
            if count > 256 {
                diags.push(source.diag(
                    Code::Layout,
                    &format!("{epath}/count"),
                    &item,
                    format!("count {count} is larger than 256"),
                ));
                continue;
            }
            if e.count.is_some() != e.name.contains("{n}") {
                diags.push(source.diag(
                    Code::BadArray,
                    &format!("{epath}/name"),
                    &item,
                    "a layout run needs both `{n}` in its name and `count`".into(),
                ));
                continue;
            }
            let first = u64::from(e.first.unwrap_or(0));
            let natural = if e.high_byte_offset.is_some() {
                4
            } else {
                u64::from(e.bits).div_ceil(8).next_multiple_of(4)
            };
            let stride = e.stride.unwrap_or(natural);
            for k in 0..u64::from(count) {
                let (Some(offset), Some(high)) = (
                    k.checked_mul(stride).and_then(|o| o.checked_add(e.offset)),
                    match e.high_byte_offset {
                        Some(h) => h.checked_add(k).map(Some),
                        None => Some(None),
                    },
                ) else {
                    diags.push(source.diag(Code::Layout, &epath, &item, "offsets overflow".into()));
                    break;
                };
                counters.push(RCounter {
                    path: epath.clone(),
                    name: e.name.replace("{n}", &(first + k).to_string()),
                    offset,
                    bits: e.bits,
                    high_byte_offset: high,
                });
            }
        }
        out.formats.push(RFormat {
            path,
            projects: p,
            name: f.name.clone(),
            select: f.select,
            size: f.size,
            description: text(&f.description),
            note: text(&f.note),
            counters,
        });
    }
    for (i, t) in file.tables.iter().enumerate() {
        let path = format!("tables/{i}");
        let Some(p) = projects(&t.projects, path.clone(), &t.name, diags) else {
            continue;
        };
        out.tables.push(RTable {
            path,
            projects: p,
            name: t.name.clone(),
            description: text(&t.description),
            columns: t.columns.clone(),
            rows: t.rows.clone(),
        });
    }
    for (i, o) in file.opaque_ranges.iter().enumerate() {
        let path = format!("opaque_ranges/{i}");
        let Some(p) = projects(&o.projects, path.clone(), &o.name, diags) else {
            continue;
        };
        let config = o.config.as_deref().and_then(|c| {
            crate::resolve::resolve_config(source, &format!("{path}/config"), &o.name, c, diags)
        });
        out.opaque.push(ROpaque {
            path,
            projects: p,
            name: o.name.clone(),
            start: o.start,
            end: o.end,
            config,
            description: text(&o.description),
            note: text(&o.note),
        });
    }
    for (i, c) in file.commands.iter().enumerate() {
        let path = format!("commands/{i}");
        let Some(cp) = projects(&c.projects, path.clone(), &c.name, diags) else {
            continue;
        };
        let mut dwords = Vec::new();
        for (j, d) in c.dwords.iter().enumerate() {
            let dpath = format!("{path}/dwords/{j}");
            let dp = match &d.projects {
                None => cp,
                Some(e) => match projects(e, dpath.clone(), &c.name, diags) {
                    Some(s) => s,
                    None => continue,
                },
            };
            let mut fields = Vec::new();
            for (k, f) in d.fields.iter().enumerate() {
                let fpath = format!("{dpath}/fields/{k}");
                let item = format!("{}.{}", c.name, f.name);
                let fp = match &f.projects {
                    None => dp,
                    Some(e) => match projects(e, fpath.clone(), &item, diags) {
                        Some(s) => s,
                        None => continue,
                    },
                };
                let bits = match crate::resolve::parse_bits(&f.bits) {
                    Ok(b) => Some(b),
                    Err(m) => {
                        diags.push(source.diag(Code::BadBits, &format!("{fpath}/bits"), &item, m));
                        None
                    }
                };
                let value = f.value.as_ref().and_then(|v| {
                    crate::resolve::resolve_map(
                        source,
                        cat,
                        &format!("{fpath}/value"),
                        &item,
                        "value",
                        Some(v),
                        Some(fp),
                        diags,
                    )
                });
                fields.push(RCommandField {
                    path: fpath,
                    name: f.name.clone(),
                    bits,
                    projects: fp,
                    bad_value: f.value.is_some() && value.is_none(),
                    value,
                    description: text(&f.description),
                    note: text(&f.note),
                });
            }
            dwords.push(RDword {
                path: dpath,
                projects: dp,
                fields,
            });
        }
        out.commands.push(RCommand {
            path,
            projects: cp,
            name: c.name.clone(),
            title: text(&c.title),
            description: text(&c.description),
            prm: text(&c.prm),
            note: text(&c.note),
            dwords,
        });
    }
    out
}
