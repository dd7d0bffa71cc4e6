//! Validation: independent passes over the resolved blocks, then the
//! checked model for lowering.
//!
//! Each pass reads the resolved blocks, skips what did not resolve (that was
//! reported by resolution) and reports every problem it finds; no pass relies
//! on another having run. When no pass reported anything, [`validate`] hands
//! back [`checked::VBlock`]s, in which what the passes proved is no longer an
//! `Option` (see [`checked`]).

use crate::access::AccessKind;
use crate::diag::{Code, Diagnostics};
use crate::projects::{Catalogue, ProjectSet};
use crate::resolve::{RBlock, RField, RRegister};
use std::collections::HashMap;

/// A validation pass.
pub type Pass = fn(&[RBlock], &Catalogue, &mut Diagnostics);

/// Every pass, in the order they run.
pub const PASSES: &[Pass] = &[
    names,
    field_ranges,
    field_overlaps,
    duplicate_fields,
    field_projects,
    enums,
    enum_widths,
    resets,
    alignment,
    arrays,
    register_clashes,
    sections::names,
    sections::register_references,
    sections::map_rows,
    sections::register_domains,
    sections::report_formats,
    sections::tables,
    opaque::opaque_ranges,
    commands::commands,
];

pub mod checked;
mod commands;
mod opaque;
mod sections;

/// Run every pass; when none reported a problem (nothing was in `diags`
/// either), the checked blocks for lowering. `None` when `diags` holds a
/// problem; an internal error of the checked model is added to `diags`.
pub fn validate<'a>(
    blocks: &'a [RBlock],
    cat: &Catalogue,
    diags: &mut Diagnostics,
) -> Option<Vec<checked::VBlock<'a>>> {
    for pass in PASSES {
        pass(blocks, cat, diags);
    }
    if !diags.is_empty() {
        return None;
    }
    match checked::check(blocks, cat) {
        Ok(v) => Some(v),
        Err(e) => {
            diags.0.extend(e);
            None
        }
    }
}

pub(crate) fn is_upper_snake(s: &str) -> bool {
    // `{n}` counts as a digit.
    let rest = |t: &str| {
        t.split("{n}").all(|part| {
            part.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
    };
    s.starts_with(|c: char| c.is_ascii_uppercase()) && rest(s)
}

pub(crate) fn is_snake(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !RUST_KEYWORDS.contains(&s)
}

fn is_camel(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().all(|c| c.is_ascii_alphanumeric())
}

const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "bits", "raw",
    "clear", "set", "get", "insert", "from_raw", "r", "w", "info",
];

/// Names have the case the generated code needs; `{n}` only and always in array names.
fn names(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        // A `BadName` at the path `at` gives, about `item`, unless `name`
        // keeps `rule` (paths and items are only built for a bad name).
        let mut check = |(keeps, rule): NameRule, name: &str, at: &dyn Fn() -> (String, String)| {
            if !keeps(name) {
                let (path, item) = at();
                d.push(b.source.diag(Code::BadName, &path, &item, rule.into()));
            }
        };
        check(BLOCK_NAME, &b.block, &|| ("block".into(), b.block.clone()));
        for r in &b.registers {
            check(REGISTER_NAME, &r.name, &|| {
                (format!("{}/name", r.path), r.name.clone())
            });
            for f in &r.fields {
                check(FIELD_NAME, &f.name, &|| {
                    (format!("{}/name", f.path), format!("{}.{}", r.name, f.name))
                });
            }
        }
        for e in &b.enums {
            check(ENUM_NAME, &e.name, &|| {
                (format!("{}/name", e.path), e.name.clone())
            });
            for (i, v) in e.values.iter().enumerate() {
                check(ENUM_VALUE_NAME, &v.name, &|| {
                    let path = format!("{}/values/{i}/name", e.path)
                        .replace("/values/values/", "/values/");
                    (path, format!("{}::{}", e.name, v.name))
                });
            }
        }
    }
}

/// A naming rule: the test a name must pass, and what a failing name is told.
type NameRule = (fn(&str) -> bool, &'static str);

const BLOCK_NAME: NameRule = (is_snake, "block name must be snake_case");
const REGISTER_NAME: NameRule = (
    is_upper_snake,
    "register name must be UPPER_SNAKE_CASE (digits and `{n}` allowed)",
);
const FIELD_NAME: NameRule = (
    is_snake,
    "field name must be snake_case and not a Rust keyword or a HAL method name (bits, raw, get, set, clear)",
);
const ENUM_NAME: NameRule = (is_camel, "enum name must be UpperCamelCase");
const ENUM_VALUE_NAME: NameRule = (
    is_snake,
    "enum value name must be snake_case, starting with a letter",
);

fn label(r: &RRegister, f: &RField) -> String {
    format!("{}.{}", r.name, f.name)
}

/// A diagnostic at key `key` of field `f` of register `r`, about `REG.field`.
fn field_diag(
    b: &RBlock,
    r: &RRegister,
    f: &RField,
    code: Code,
    key: &str,
    message: String,
) -> crate::diag::Diagnostic {
    b.source
        .diag(code, &format!("{}/{key}", f.path), &label(r, f), message)
}

/// Fields lie inside the register; masked registers keep fields in 15:0.
fn field_ranges(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for r in &b.registers {
            let Some(width) = r.width else { continue };
            if r.masked && width != 32 {
                d.push(b.source.diag(
                    Code::MaskedLayout,
                    &format!("{}/masked", r.path),
                    &r.name,
                    "a masked register must be 32 bits wide".into(),
                ));
            }
            for f in &r.fields {
                let Some((msb, lsb)) = f.bits else { continue };
                if msb >= width {
                    d.push(field_diag(
                        b,
                        r,
                        f,
                        Code::FieldOutsideRegister,
                        "bits",
                        format!("bits {msb}:{lsb} lie outside the {width}-bit register"),
                    ));
                } else if r.masked && msb > 15 {
                    d.push(field_diag(b, r, f, Code::MaskedLayout, "bits", format!("bits {msb}:{lsb}: a masked register's fields must lie in 15:0 (31:16 are the write enables)")));
                }
            }
        }
    }
}

/// The bits `msb:lsb` of a 64-bit value. The passes are independent, so a
/// range is not known to lie in its register here: bits above 63 (outside
/// every register, reported by `field_ranges`) are left out.
fn mask(msb: u32, lsb: u32) -> u64 {
    if lsb >= 64 || msb < lsb {
        return 0;
    }
    let w = msb.min(63) - lsb + 1;
    (if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }) << lsb
}

/// Every pair `(f, g, common)` of fields of one register, `g` described
/// before `f`, that exist together on the projects `common` (not empty).
fn meeting_fields(r: &RRegister) -> impl Iterator<Item = (&RField, &RField, ProjectSet)> {
    r.fields.iter().enumerate().flat_map(move |(i, f)| {
        r.fields[..i].iter().filter_map(move |g| {
            let common = f.projects?.intersect(g.projects?);
            (!common.is_empty()).then_some((f, g, common))
        })
    })
}

/// Fields that share a project must not share a bit.
fn field_overlaps(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for r in &b.registers {
            for (f, g, common) in meeting_fields(r) {
                let (Some((m1, l1)), Some((m2, l2))) = (f.bits, g.bits) else {
                    continue;
                };
                if mask(m1, l1) & mask(m2, l2) != 0 {
                    let on = cat.names(common);
                    d.push(field_diag(
                        b,
                        r,
                        f,
                        Code::OverlappingFields,
                        "bits",
                        format!(
                            "bits {m1}:{l1} overlap field `{}` ({m2}:{l2}) on {on}",
                            g.name
                        ),
                    ));
                }
            }
        }
    }
}

/// A field name appears once per project (reported once per field, at the
/// later one, naming the first it repeats).
fn duplicate_fields(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for r in &b.registers {
            let mut reported = std::collections::HashSet::new();
            for (f, g, common) in meeting_fields(r) {
                if g.name != f.name || !reported.insert(&f.path) {
                    continue;
                }
                let on = cat.names(common);
                d.push(field_diag(
                    b,
                    r,
                    f,
                    Code::DuplicateField,
                    "name",
                    format!("field `{}` is defined twice for {on}", g.name),
                ));
            }
        }
    }
}

/// A field exists only where its register does.
fn field_projects(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for r in &b.registers {
            let Some(rp) = r.projects else { continue };
            for f in &r.fields {
                let Some(fp) = f.projects else { continue };
                if !fp.subset_of(rp) {
                    d.push(field_diag(
                        b,
                        r,
                        f,
                        Code::FieldProjectsNotSubset,
                        "projects",
                        format!(
                            "field names {}, where register {} does not exist",
                            cat.names(ProjectSet(fp.0 & !rp.0)),
                            r.name
                        ),
                    ));
                }
            }
        }
    }
}

/// Enum names are unique across files; value names and values unique inside an enum.
fn enums(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for b in blocks {
        for e in &b.enums {
            if let Some(other) = seen.insert(&e.name, &b.source.name) {
                d.push(b.source.diag(
                    Code::DuplicateEnum,
                    &e.path,
                    &e.name,
                    format!("enum `{}` is already defined in {other}", e.name),
                ));
            }
            for (i, v) in e.values.iter().enumerate() {
                let vpath = if e.path.ends_with("/values") {
                    format!("{}/{i}", e.path)
                } else {
                    format!("{}/values/{i}", e.path)
                };
                if let Some(w) = e.values[..i].iter().find(|w| w.name == v.name) {
                    d.push(b.source.diag(
                        Code::DuplicateEnum,
                        &format!("{vpath}/name"),
                        &format!("{}::{}", e.name, v.name),
                        format!("value name `{}` is used twice", w.name),
                    ));
                }
                if let Some(w) = e.values[..i].iter().find(|w| w.value == v.value) {
                    d.push(b.source.diag(
                        Code::DuplicateEnum,
                        &format!("{vpath}/value"),
                        &format!("{}::{}", e.name, v.name),
                        format!("value {:#x} is already `{}`", v.value, w.name),
                    ));
                }
            }
        }
    }
}

/// Every value of a field's enum fits the field.
fn enum_widths(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for r in &b.registers {
            for f in &r.fields {
                let (Some((msb, lsb)), Some(ei)) = (f.bits, f.enum_index) else {
                    continue;
                };
                let Some(e) = b.enums.get(ei) else { continue };
                let max = mask(msb - lsb, 0);
                for (i, v) in e.values.iter().enumerate() {
                    if v.value > max {
                        let vpath = if e.path.ends_with("/values") {
                            format!("{}/{i}/value", e.path)
                        } else {
                            format!("{}/bits", f.path)
                        };
                        d.push(b.source.diag(
                            Code::EnumValueTooWide,
                            &vpath,
                            &label(r, f),
                            format!(
                                "enum `{}` value `{}` = {:#x} does not fit the {}-bit field",
                                e.name,
                                v.name,
                                v.value,
                                u64::from(msb - lsb) + 1
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// Reset values fit the register, leave MBZ/reserved bits clear, and agree with field resets.
fn resets(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for r in &b.registers {
            let (Some(width), Some(resets)) = (r.width, &r.reset) else {
                continue;
            };
            for (set, value, path) in resets {
                if width < 64 && value >> width != 0 {
                    d.push(b.source.diag(
                        Code::ResetTooWide,
                        path,
                        &r.name,
                        format!("reset {value:#x} is wider than the {width}-bit register"),
                    ));
                }
                for f in &r.fields {
                    let (Some((msb, lsb)), Some(fp)) = (f.bits, f.projects) else {
                        continue;
                    };
                    let common = fp.intersect(*set);
                    if common.is_empty() || msb >= width {
                        continue;
                    }
                    let fv = (value & mask(msb, lsb)) >> lsb;
                    if f.access.is_some_and(AccessKind::reserved) && fv != 0 {
                        d.push(b.source.diag(
                            Code::ResetInReserved,
                            path,
                            &r.name,
                            format!(
                                "reset {value:#x} sets bits of {} field `{}` ({msb}:{lsb}) on {}",
                                f.access.map(AccessKind::as_str).unwrap_or(""),
                                f.name,
                                cat.names(common)
                            ),
                        ));
                    }
                    if let Some(fr) = f.reset {
                        if fr != fv {
                            d.push(field_diag(b, r, f, Code::ResetMismatch, "reset", format!("field reset {fr:#x} disagrees with register reset {value:#x} (field bits give {fv:#x}) on {}", cat.names(common))));
                        }
                    }
                }
            }
        }
    }
}

/// MMIO and PCI addresses are aligned to the register width.
fn alignment(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        if b.space == crate::model::Space::Msr {
            continue;
        }
        for r in &b.registers {
            let (Some(width), Some(addrs)) = (r.width, &r.address) else {
                continue;
            };
            let align = u64::from(width / 8);
            for (_, a, path) in addrs {
                if a % align != 0 {
                    d.push(b.source.diag(
                        Code::Misaligned,
                        path,
                        &r.name,
                        format!("address {a:#x} is not aligned to the {align}-byte register"),
                    ));
                }
            }
            if let (Some((_, stride)), true) = (r.array, align > 0) {
                if stride % align != 0 {
                    d.push(b.source.diag(
                        Code::Misaligned,
                        &format!("{}/array/stride", r.path),
                        &r.name,
                        format!(
                            "stride {stride:#x} is not a multiple of the {align}-byte register"
                        ),
                    ));
                }
            }
        }
    }
}

/// Largest array the generator expands.
const MAX_ARRAY: u32 = 4096;

/// Arrays have `{n}`, elements, and do not overlap themselves.
fn arrays(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for r in &b.registers {
            match r.array {
                Some((count, stride)) => {
                    if !r.name.contains("{n}") {
                        d.push(b.source.diag(
                            Code::BadArray,
                            &format!("{}/name", r.path),
                            &r.name,
                            "an array register's name must contain `{n}`".into(),
                        ));
                    }
                    if let Some(c) = r.array_counts.iter().find(|c| c.1 > MAX_ARRAY) {
                        d.push(b.source.diag(
                            Code::BadArray,
                            &format!("{}/array/count", r.path),
                            &r.name,
                            format!("array count {} is larger than {MAX_ARRAY}", c.1),
                        ));
                    }
                    if let Some((_, base, path)) = r.address.as_ref().and_then(|a| {
                        a.iter().find(|(_, base, _)| {
                            u64::from(count.saturating_sub(1))
                                .checked_mul(stride)
                                .and_then(|off| off.checked_add(*base))
                                .is_none()
                        })
                    }) {
                        d.push(b.source.diag(
                            Code::BadArray,
                            path,
                            &r.name,
                            format!("{count} elements of stride {stride:#x} from {base:#x} run past the end of the address space"),
                        ));
                    }
                    if r.array_counts.iter().any(|c| c.1 == 0) {
                        d.push(b.source.diag(
                            Code::BadArray,
                            &format!("{}/array/count", r.path),
                            &r.name,
                            "array count must be at least 1".into(),
                        ));
                    }
                    let unit = match b.space {
                        crate::model::Space::Msr => 1,
                        _ => u64::from(r.width.unwrap_or(32) / 8),
                    };
                    if count > 1 && stride < unit {
                        d.push(b.source.diag(
                            Code::StrideTooSmall,
                            &format!("{}/array/stride", r.path),
                            &r.name,
                            format!("stride {stride:#x} is smaller than the element ({unit:#x})"),
                        ));
                    }
                }
                None if r.name.contains("{n}") => {
                    d.push(b.source.diag(
                        Code::BadArray,
                        &format!("{}/name", r.path),
                        &r.name,
                        "`{n}` in a name needs `array: {count, stride}`".into(),
                    ));
                }
                None => {}
            }
        }
    }
}

/// One name and one address per register per project (and space), across all files.
/// A clash is reported once per register element, naming every project it affects.
fn register_clashes(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    use crate::diag::Pos;
    // (project, name) -> where it was first defined
    let mut by_name: HashMap<(usize, String), (String, Pos)> = HashMap::new();
    // (project, space, address) -> register name
    let mut by_addr: HashMap<(usize, crate::model::Space, u64), String> = HashMap::new();
    for b in blocks {
        for r in &b.registers {
            let Some(projects) = r.projects else { continue };
            let (count, stride) = r.array.unwrap_or((1, 0));
            let here = (
                b.source.name.clone(),
                b.source.index.node(&format!("{}/name", r.path)),
            );
            for n in 0..count.min(MAX_ARRAY) {
                let name = r.name.replace("{n}", &n.to_string());
                let mut clash: Option<((String, Pos), ProjectSet)> = None;
                for p in projects.iter().filter(|&p| n < r.count_on(p)) {
                    match by_name.get(&(p, name.clone())) {
                        Some(first) => {
                            let e = clash.get_or_insert((first.clone(), ProjectSet::EMPTY));
                            e.1 = e.1.union(ProjectSet(1 << p));
                        }
                        None => {
                            by_name.insert((p, name.clone()), here.clone());
                        }
                    }
                }
                if let Some(((file, pos), set)) = clash {
                    d.push(b.source.diag(
                        Code::DuplicateRegister,
                        &format!("{}/name", r.path),
                        &name,
                        format!(
                            "register `{name}` is already defined for {} at {}:{}:{}",
                            cat.names(set),
                            file,
                            pos.line,
                            pos.column
                        ),
                    ));
                }
                let Some(addrs) = &r.address else { continue };
                for (set, base, path) in addrs {
                    let addr = base.wrapping_add(u64::from(n).wrapping_mul(stride));
                    let mut clashes: Vec<(String, ProjectSet)> = Vec::new();
                    for p in set.iter().filter(|&p| n < r.count_on(p)) {
                        match by_addr.get(&(p, b.space, addr)) {
                            Some(other) if other != &name => {
                                match clashes.iter_mut().find(|(o, _)| o == other) {
                                    Some(c) => c.1 = c.1.union(ProjectSet(1 << p)),
                                    None => clashes.push((other.clone(), ProjectSet(1 << p))),
                                }
                            }
                            Some(_) => {}
                            None => {
                                by_addr.insert((p, b.space, addr), name.clone());
                            }
                        }
                    }
                    for (other, on) in clashes {
                        d.push(b.source.diag(
                            Code::AddressClash,
                            path,
                            &name,
                            format!(
                                "address {addr:#x} is already `{other}` on {}",
                                cat.names(on)
                            ),
                        ));
                    }
                }
            }
        }
    }
}
