//! Resolution: interpret the values whose shape varies (project expressions,
//! bit ranges, per-project address and reset maps, access words, enum
//! references) and report located errors for the ones that do not parse.
//! Everything that resolved is kept, so the validation passes can check the
//! rest of the file and report all its problems in one run.

use crate::access::AccessKind;
use crate::diag::{Code, Diagnostics};
use crate::ir::ConfigKind;
use crate::load::SourceFile;
use crate::model::{BlockFile, EnumValueDef, Space};
use crate::projects::{Catalogue, ProjectSet};
use serde_yaml::Value;

/// A block file with its values interpreted.
#[derive(Debug, Clone)]
pub struct RBlock {
    /// Source (for locations).
    pub source: SourceFile,
    /// Block name.
    pub block: String,
    /// Address space.
    pub space: Space,
    /// Document reference.
    pub document: String,
    /// Enums (file-level, then the inline ones of fields).
    pub enums: Vec<REnum>,
    /// Registers.
    pub registers: Vec<RRegister>,
    /// Counter event rows.
    pub events: Vec<REvent>,
    /// Power domains, groups, maps, formats and tables.
    pub sections: crate::sections::RSections,
}

/// An enum with its definition site.
#[derive(Debug, Clone)]
pub struct REnum {
    /// Path of the enum node in its file.
    pub path: String,
    /// UpperCamelCase name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Encodings.
    pub values: Vec<EnumValueDef>,
}

/// A register (array not yet expanded).
#[derive(Debug, Clone)]
pub struct RRegister {
    /// Path of the register node.
    pub path: String,
    /// Name (with `{n}` for arrays).
    pub name: String,
    /// Title.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// PRM locator.
    pub prm: Option<String>,
    /// Note.
    pub note: Option<String>,
    /// Projects, if the expression parsed.
    pub projects: Option<ProjectSet>,
    /// Width in bits (32 or 64), if valid.
    pub width: Option<u32>,
    /// Address per project set; `None` if the value did not resolve.
    pub address: Option<Vec<(ProjectSet, u64, String)>>,
    /// Reset per project set (path of each entry kept for locations).
    pub reset: Option<Vec<(ProjectSet, u64, String)>>,
    /// Masked register.
    pub masked: bool,
    /// `(largest count, stride)` for arrays.
    pub array: Option<(u32, u64)>,
    /// Element count per project set (one entry covering every project when uniform).
    pub array_counts: Vec<(ProjectSet, u32)>,
    /// Metric-set configuration kind (`config:`), if given and known.
    pub config: Option<ConfigKind>,
    /// Fields.
    pub fields: Vec<RField>,
}

/// A field.
#[derive(Debug, Clone)]
pub struct RField {
    /// Path of the field node.
    pub path: String,
    /// snake_case name.
    pub name: String,
    /// `(msb, lsb)` if the range parsed.
    pub bits: Option<(u32, u32)>,
    /// Access if known.
    pub access: Option<AccessKind>,
    /// Projects (the register's when omitted), if resolvable.
    pub projects: Option<ProjectSet>,
    /// Field reset value.
    pub reset: Option<u64>,
    /// Index into the block's enums.
    pub enum_index: Option<usize>,
    /// Description.
    pub description: Option<String>,
    /// Note.
    pub note: Option<String>,
    /// `encodes: address`: the value is the upper bits of an address.
    pub address: bool,
}

/// A counter event row.
#[derive(Debug, Clone)]
pub struct REvent {
    /// Counter name.
    pub counter: String,
    /// Projects.
    pub projects: Option<ProjectSet>,
    /// Event name.
    pub event: String,
    /// Description.
    pub description: Option<String>,
}

impl RRegister {
    /// Number of elements on project `p` (1 for a plain register).
    pub fn count_on(&self, p: usize) -> u32 {
        if self.array.is_none() {
            return 1;
        }
        self.array_counts
            .iter()
            .find(|(s, _)| s.contains(p))
            .map_or(0, |c| c.1)
    }
}

fn value_u64(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// Parse `"msb:lsb"`, `"n"` or an integer.
pub fn parse_bits(v: &Value) -> Result<(u32, u32), String> {
    let range = match v {
        Value::Number(n) => {
            let b = n
                .as_u64()
                .and_then(|b| u32::try_from(b).ok())
                .ok_or_else(|| format!("bit number `{n}` is not a small non-negative integer"))?;
            (b, b)
        }
        Value::String(s) => {
            let num = |t: &str| {
                t.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("bit range `{s}` is not `msb:lsb` or a bit number"))
            };
            match s.split_once(':') {
                Some((m, l)) => (num(m)?, num(l)?),
                None => {
                    let b = num(s)?;
                    (b, b)
                }
            }
        }
        _ => return Err("bits must be a bit number or a `\"msb:lsb\"` string".into()),
    };
    if range.0 < range.1 {
        return Err(format!(
            "bit range {}:{} has msb below lsb; write it as `\"{}:{}\"`",
            range.0, range.1, range.1, range.0
        ));
    }
    Ok(range)
}

/// Resolve one block file. Parse-level problems go to `diags`.
pub fn resolve_block(
    source: &SourceFile,
    file: &BlockFile,
    cat: &Catalogue,
    diags: &mut Diagnostics,
) -> RBlock {
    let mut enums: Vec<REnum> = file
        .enums
        .iter()
        .enumerate()
        .map(|(i, e)| REnum {
            path: format!("enums/{i}"),
            name: e.name.clone(),
            description: e.description.clone(),
            values: e.values.clone(),
        })
        .collect();
    let mut registers = Vec::new();
    for (ri, r) in file.registers.iter().enumerate() {
        let path = format!("registers/{ri}");
        let projects = match cat.parse(&r.projects) {
            Ok(s) => Some(s),
            Err(m) => {
                diags.push(source.diag(
                    Code::UnknownProject,
                    &format!("{path}/projects"),
                    &r.name,
                    m,
                ));
                None
            }
        };
        let width = match &r.width {
            None => Some(32),
            Some(v) => match value_u64(v) {
                Some(w @ (32 | 64)) => Some(w as u32),
                _ => {
                    diags.push(source.diag(
                        Code::BadWidth,
                        &format!("{path}/width"),
                        &r.name,
                        format!("register width must be 32 or 64, not `{}`", show(v)),
                    ));
                    None
                }
            },
        };
        let address = resolve_map(
            source,
            cat,
            &format!("{path}/address"),
            &r.name,
            "address",
            Some(&r.address),
            projects,
            diags,
        );
        let reset = match &r.reset {
            None => projects.map(|p| vec![(p, 0, path.to_string())]),
            Some(v) => resolve_map(
                source,
                cat,
                &format!("{path}/reset"),
                &r.name,
                "reset",
                Some(v),
                projects,
                diags,
            ),
        };
        let counts = r
            .array
            .as_ref()
            .and_then(|a| {
                resolve_map(
                    source,
                    cat,
                    &format!("{path}/array/count"),
                    &r.name,
                    "array count",
                    Some(&a.count),
                    projects,
                    diags,
                )
            })
            .unwrap_or_default();
        let array_counts: Vec<(ProjectSet, u32)> = counts
            .iter()
            .map(|(set, c, _)| (*set, u32::try_from(*c).unwrap_or(u32::MAX)))
            .collect();
        let array = r.array.as_ref().map(|a| {
            (
                array_counts.iter().map(|c| c.1).max().unwrap_or(0),
                a.stride,
            )
        });
        let config = r
            .config
            .as_deref()
            .and_then(|c| resolve_config(source, &format!("{path}/config"), &r.name, c, diags));
        let mut fields = Vec::new();
        for (fi, f) in r.fields.iter().enumerate() {
            let fpath = format!("{path}/fields/{fi}");
            let label = format!("{}.{}", r.name, f.name);
            let bits = match parse_bits(&f.bits) {
                Ok(b) => Some(b),
                Err(m) => {
                    diags.push(source.diag(Code::BadBits, &format!("{fpath}/bits"), &label, m));
                    None
                }
            };
            let access = match AccessKind::parse(&f.access) {
                Some(a) => Some(a),
                None => {
                    let known: Vec<&str> = AccessKind::ALL.iter().map(|a| a.as_str()).collect();
                    diags.push(source.diag(
                        Code::UnknownAccess,
                        &format!("{fpath}/access"),
                        &label,
                        format!(
                            "unknown access type `{}` (one of: {})",
                            f.access,
                            known.join(", ")
                        ),
                    ));
                    None
                }
            };
            let fprojects = match &f.projects {
                None => projects,
                Some(e) => match cat.parse(e) {
                    Ok(s) => Some(s),
                    Err(m) => {
                        diags.push(source.diag(
                            Code::UnknownProject,
                            &format!("{fpath}/projects"),
                            &label,
                            m,
                        ));
                        None
                    }
                },
            };
            let enum_index = match (&f.enum_name, &f.values) {
                (Some(_), Some(_)) => {
                    diags.push(source.diag(
                        Code::Shape,
                        &format!("{fpath}/values"),
                        &label,
                        "a field takes `enum` or `values`, not both".into(),
                    ));
                    None
                }
                (Some(n), None) => match file.enums.iter().position(|e| &e.name == n) {
                    Some(i) => Some(i),
                    None => {
                        diags.push(source.diag(
                            Code::UnknownEnum,
                            &format!("{fpath}/enum"),
                            &label,
                            format!("no enum named `{n}` in this file"),
                        ));
                        None
                    }
                },
                (None, Some(values)) => {
                    enums.push(REnum {
                        path: format!("{fpath}/values"),
                        name: format!("{}{}", camel(&r.name.replace("{n}", "N")), camel(&f.name)),
                        description: f.description.clone(),
                        values: values.clone(),
                    });
                    Some(enums.len() - 1)
                }
                (None, None) => None,
            };
            let address = match f.encodes.as_deref() {
                None => false,
                Some("address") => true,
                Some(other) => {
                    diags.push(source.diag(
                        Code::Shape,
                        &format!("{fpath}/encodes"),
                        &label,
                        format!(
                            "`encodes: {other}` is not known: `encodes: address` (the value is \
                             the upper bits of an address) is the one meaning"
                        ),
                    ));
                    false
                }
            };
            fields.push(RField {
                path: fpath,
                name: f.name.clone(),
                bits,
                access,
                projects: fprojects,
                reset: f.reset,
                enum_index,
                description: f.description.clone(),
                note: f.note.clone(),
                address,
            });
        }
        registers.push(RRegister {
            path,
            name: r.name.clone(),
            title: r.title.clone(),
            description: r.description.clone(),
            prm: r.prm.clone(),
            note: r.note.clone(),
            projects,
            width,
            address,
            reset,
            masked: r.masked,
            array,
            array_counts,
            config,
            fields,
        });
    }
    let events = file
        .counter_events
        .iter()
        .enumerate()
        .map(|(i, e)| REvent {
            counter: e.counter.clone(),
            projects: match cat.parse(&e.projects) {
                Ok(s) => Some(s),
                Err(m) => {
                    diags.push(source.diag(
                        Code::UnknownProject,
                        &format!("counter_events/{i}/projects"),
                        &e.counter,
                        m,
                    ));
                    None
                }
            },
            event: e.event.clone(),
            description: e.description.clone(),
        })
        .collect();
    let sections = crate::sections::resolve_sections(source, file, cat, diags);
    RBlock {
        sections,
        source: source.clone(),
        block: file.block.clone(),
        space: file.space,
        document: file.source.clone(),
        enums,
        registers,
        events,
    }
}

/// A `config:` value: exactly `OA`, `NOA` or `FLEX` (the metric-set XML's
/// spelling); anything else is reported at `path` (PR203).
pub fn resolve_config(
    source: &SourceFile,
    path: &str,
    item: &str,
    value: &str,
    diags: &mut Diagnostics,
) -> Option<ConfigKind> {
    match ConfigKind::parse(value).filter(|k| k.as_str() == value) {
        Some(k) => Some(k),
        None => {
            diags.push(source.diag(
                Code::UnknownConfigType,
                path,
                item,
                format!("unknown configuration kind `{value}` (one of: OA, NOA, FLEX)"),
            ));
            None
        }
    }
}

fn show(v: &Value) -> String {
    serde_yaml::to_string(v)
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// Interpret an integer-or-map value; checks that a map covers `projects` exactly once.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_map(
    source: &SourceFile,
    cat: &Catalogue,
    path: &str,
    item: &str,
    what: &str,
    v: Option<&Value>,
    projects: Option<ProjectSet>,
    diags: &mut Diagnostics,
) -> Option<Vec<(ProjectSet, u64, String)>> {
    let v = v?;
    match v {
        Value::Number(_) => match value_u64(v) {
            Some(n) => projects.map(|p| vec![(p, n, path.to_string())]),
            None => {
                diags.push(source.diag(
                    Code::Shape,
                    path,
                    item,
                    format!("{what} must be a non-negative integer"),
                ));
                None
            }
        },
        Value::Mapping(m) => {
            let mut out = Vec::new();
            let mut ok = true;
            let mut covered = ProjectSet::EMPTY;
            for (k, val) in m {
                let key = match k {
                    Value::String(s) => s.clone(),
                    other => show(other),
                };
                let epath = format!("{path}/{key}");
                let set = match cat.parse(&key) {
                    Ok(s) => s,
                    Err(msg) => {
                        let mut d = source.diag(Code::UnknownProject, &epath, item, msg);
                        d.pos = source.index.key(&epath);
                        diags.push(d);
                        ok = false;
                        continue;
                    }
                };
                let Some(n) = value_u64(val) else {
                    diags.push(source.diag(
                        Code::Shape,
                        &epath,
                        item,
                        format!("{what} for `{key}` must be a non-negative integer"),
                    ));
                    ok = false;
                    continue;
                };
                if !covered.intersect(set).is_empty() {
                    let mut d = source.diag(
                        Code::ProjectMapCoverage,
                        &epath,
                        item,
                        format!(
                            "{what} given twice for {}",
                            cat.names(covered.intersect(set))
                        ),
                    );
                    d.pos = source.index.key(&epath);
                    diags.push(d);
                    ok = false;
                }
                covered = covered.union(set);
                out.push((set, n, epath));
            }
            if let (Some(p), true) = (projects, ok) {
                let missing = ProjectSet(p.0 & !covered.0);
                let extra = ProjectSet(covered.0 & !p.0);
                if !missing.is_empty() {
                    diags.push(source.diag(
                        Code::ProjectMapCoverage,
                        path,
                        item,
                        format!("{what} map gives no value for {}", cat.names(missing)),
                    ));
                    ok = false;
                }
                if !extra.is_empty() {
                    diags.push(source.diag(
                        Code::ProjectMapCoverage,
                        path,
                        item,
                        format!(
                            "{what} map names {}, where the register does not exist",
                            cat.names(extra)
                        ),
                    ));
                    ok = false;
                }
            }
            (ok && projects.is_some()).then_some(out)
        }
        _ => {
            diags.push(source.diag(
                Code::Shape,
                path,
                item,
                format!("{what} must be an integer or a map from project expression to integer"),
            ));
            None
        }
    }
}

/// `oa_control` / `OACONTROL` -> `OaControl` / `Oacontrol`.
pub fn camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(['_', '-', ' ']) {
        let mut cs = part.chars();
        if let Some(c) = cs.next() {
            out.push(c.to_ascii_uppercase());
            out.extend(cs.map(|c| c.to_ascii_lowercase()));
        }
    }
    out
}
