//! Bindings: the registers, fields, table cells and groups a consumer of the
//! descriptions (the emulator's units) uses, named once in a YAML spec,
//! resolved and checked against the IR at build time, and emitted as Rust
//! constants. A renamed or missing register fails the build with a located
//! diagnostic in the spec; nothing downstream looks a name up at run time.
//!
//! # Spec
//!
//! ```yaml
//! units:
//!   oa:                               # one struct per unit (`Oa`)
//!     doc: The OA unit.
//!     projects: [hsw, bdw]            # where the unit exists
//!     roles:
//!       enable: OACONTROL.counter_enable          # same on every project
//!       ctx_id: {hsw: OACONTROL.select_context_id, bdw: OACTXID.context_id}
//!       udw: {bdw: OABUFFER_UDW.upper_address, default: ~}   # ~: absent
//! ```
//!
//! A binding is one of (its Rust type in parentheses):
//! - `REG.field`: a field (`Option<FieldRef>`); `REG`: a register (`Option<RegRef>`);
//! - `REG{n}.field` / `REG{n}`: every element of an array register, and
//!   `REG{0..7}.field` / `REG{0..7}`: registers named by a number range
//!   (`&[FieldRef]` / `&[RegRef]`, in element order);
//! - `REG.field@sizes`: the field's enumeration read as buffer sizes
//!   (`size_128k`, `size_16m`: `&[(code, bytes)]`);
//! - `table[column=value].column`: one table cell, and `table[].column`: a
//!   whole column (`Option<u64>` / `&[u64]`);
//! - `group NAME`: a replication group's index (`Option<usize>`);
//!   `command NAME`: a command's index in `ProjectInfo::commands`, and
//!   `command NAME.field`: the field's index in its `CommandInfo::fields`
//!   (`Option<usize>`);
//!   `domains NAME...`: power domains' indices (`&[usize]`);
//! - an integer: a constant (`Option<u64>`).
//!
//! A unit may take `like: other` (a unit defined before it): it is another
//! instance of that unit's hardware (a second OA unit), typed as the other
//! unit's struct; each of its roles must be one of the other unit's, of the
//! same kind (a role only it names is added to the other unit's struct,
//! absent there), and the roles it does not name are absent.
//!
//! A role has the same kind on every project. The unit's `projects` and the
//! keys of a role's map are project expressions (`bdw..icl`, `tgl+`); a
//! project of the unit must be named by exactly one key (or covered by
//! `default`); `~` marks the role absent there.
//! Per project the output also carries what every emulator needs from the
//! IR (force-wake handshakes, the steering selector, fuse mirrors and the
//! kind of every report-format slot), without a spec.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::hex;
use crate::ir::{emitted_on, Element, Ir};
use crate::model::Cell;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use serde_yaml::Value;

/// One resolved binding on one project.
#[derive(Debug, Clone, PartialEq)]
enum Bound {
    Field(FieldLoc),
    Register(RegLoc),
    Fields(Vec<FieldLoc>),
    Registers(Vec<RegLoc>),
    Sizes(Vec<(u64, u64)>),
    Number(u64),
    Numbers(Vec<u64>),
    Index(usize),
    Indices(Vec<usize>),
}

/// The kind of a role: its Rust type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Field,
    Register,
    Fields,
    Registers,
    Sizes,
    Number,
    Numbers,
    Index,
    Indices,
}

impl Bound {
    fn kind(&self) -> Kind {
        match self {
            Bound::Field(_) => Kind::Field,
            Bound::Register(_) => Kind::Register,
            Bound::Fields(_) => Kind::Fields,
            Bound::Registers(_) => Kind::Registers,
            Bound::Sizes(_) => Kind::Sizes,
            Bound::Number(_) => Kind::Number,
            Bound::Numbers(_) => Kind::Numbers,
            Bound::Index(_) => Kind::Index,
            Bound::Indices(_) => Kind::Indices,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct RegLoc {
    name: String,
    address: u64,
    width: u32,
}

#[derive(Debug, Clone, PartialEq)]
struct FieldLoc {
    reg: RegLoc,
    field: String,
    lsb: u32,
    width: u32,
}

/// A unit's roles, resolved on every project of the catalogue.
#[derive(Debug)]
struct Unit {
    name: String,
    doc: String,
    /// `like:`: the unit whose struct this one shares.
    like: Option<String>,
    /// Per catalogue project: `None` when the unit is not there.
    present: Vec<bool>,
    roles: Vec<Role>,
}

#[derive(Debug)]
struct Role {
    name: String,
    kind: Kind,
    /// Per catalogue project (`None`: absent or unit not there).
    values: Vec<Option<Bound>>,
}

/// Resolve `spec` (named `file` in diagnostics) against `ir` and emit the
/// bindings module body: unit structs, then one `Bindings` static per
/// project (`HSW`, ...) gated on the project's cargo feature, and `ALL`.
/// `hal` is the path of the HAL crate in the generated code (`hal`,
/// `perfregs::hal`).
pub fn generate(ir: &Ir, file: &str, spec: &str, hal: &str) -> Result<String, Vec<Diagnostic>> {
    let units = resolve(ir, file, spec)?;
    let hal: TokenStream = match hal.parse() {
        Ok(t) => t,
        Err(_) => quote!(hal),
    };
    let tokens = emit(ir, &units, &hal);
    Ok(match syn::parse2::<syn::File>(tokens.clone()) {
        // One reference per line: the tables stay readable and small.
        Ok(f) => crate::layout::rows_on_one_line_of(
            &prettyplease::unparse(&f),
            &[
                "FieldRef {",
                "RegRef {",
                "WakeRef {",
                "FuseRef {",
                "SteeringRef {",
            ],
        ),
        Err(_) => tokens.to_string(),
    })
}

fn resolve(ir: &Ir, file: &str, spec: &str) -> Result<Vec<Unit>, Vec<Diagnostic>> {
    let (doc, idx) = crate::yaml::parse_str::<Value>(file, spec).map_err(|d| vec![d])?;
    let mut diags = Diagnostics::default();
    let err = |diags: &mut Diagnostics, path: &str, item: &str, code: Code, msg: String| {
        diags.push(Diagnostic {
            code,
            file: file.to_string(),
            pos: idx.node(path),
            item: item.to_string(),
            message: msg,
        })
    };
    let Some(units_v) = doc.get("units").and_then(Value::as_mapping) else {
        err(
            &mut diags,
            "",
            "",
            Code::Shape,
            "expected a mapping `units:`".into(),
        );
        return Err(diags.sorted());
    };
    let n_projects = ir.catalogue.projects.len();
    let mut units = Vec::new();
    for (uname, u) in units_v {
        let Some(uname) = uname.as_str() else {
            continue;
        };
        let upath = format!("units/{uname}");
        if !is_ident(uname) {
            err(
                &mut diags,
                &upath,
                uname,
                Code::BadName,
                "a unit name is a snake_case identifier".into(),
            );
            continue;
        }
        let doc_text = u
            .get("doc")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let like = u.get("like").and_then(Value::as_str).map(str::to_string);
        let mut present = vec![false; n_projects];
        match u.get("projects").and_then(Value::as_sequence) {
            Some(ps) => {
                for (i, p) in ps.iter().enumerate() {
                    match ir.catalogue.parse(&scalar(p)) {
                        Ok(set) => set.iter().for_each(|pi| present[pi] = true),
                        Err(msg) => err(
                            &mut diags,
                            &format!("{upath}/projects/{i}"),
                            uname,
                            Code::UnknownProject,
                            msg,
                        ),
                    }
                }
            }
            None => err(
                &mut diags,
                &upath,
                uname,
                Code::Shape,
                "expected `projects: [...]`".into(),
            ),
        }
        let mut roles = Vec::new();
        let Some(roles_v) = u.get("roles").and_then(Value::as_mapping) else {
            err(
                &mut diags,
                &upath,
                uname,
                Code::Shape,
                "expected a mapping `roles:`".into(),
            );
            continue;
        };
        for (rname, rv) in roles_v {
            let Some(rname) = rname.as_str() else {
                continue;
            };
            let rpath = format!("{upath}/roles/{rname}");
            let item = format!("{uname}.{rname}");
            if !is_ident(rname) {
                err(
                    &mut diags,
                    &rpath,
                    &item,
                    Code::BadName,
                    "a role name is a snake_case identifier".into(),
                );
                continue;
            }
            let mut values: Vec<Option<Bound>> = vec![None; n_projects];
            let mut kind: Option<(Kind, String)> = None;
            let before = diags.0.len();
            let keyed = map_keys(ir, rv, &present, &rpath, &mut |path, code, msg| {
                err(&mut diags, path, &item, code, msg)
            });
            for (pi, p) in ir.catalogue.projects.iter().enumerate() {
                if !present[pi] {
                    continue;
                }
                // The text for this project, and its path for diagnostics.
                let (text, path) = match rv {
                    Value::Mapping(m) => {
                        let mut named = keyed.iter().filter(|(_, set, _)| set.contains(pi));
                        if let Some((key, _, v)) = named.next() {
                            if let Some((other, _, _)) = named.next() {
                                err(
                                    &mut diags,
                                    &rpath,
                                    &item,
                                    Code::ProjectMapCoverage,
                                    format!(
                                        "project `{}` is named by two keys, `{key}` and `{other}`",
                                        p.name
                                    ),
                                );
                                continue;
                            }
                            (v.clone(), format!("{rpath}/{key}"))
                        } else if let Some(v) = m.get("default") {
                            (v.clone(), format!("{rpath}/default"))
                        } else {
                            err(
                                &mut diags,
                                &rpath,
                                &item,
                                Code::ProjectMapCoverage,
                                format!("no binding for project `{}` (name it, or give `default`; `~` marks it absent)", p.name),
                            );
                            continue;
                        }
                    }
                    v => (v.clone(), rpath.clone()),
                };
                if text.is_null() {
                    continue;
                }
                match bind(ir, pi, &text) {
                    Ok(b) => {
                        match &kind {
                            Some((k, first)) if *k != b.kind() => err(
                                &mut diags,
                                &path,
                                &item,
                                Code::Shape,
                                format!("binds a {:?} on `{}` but a {k:?} on `{first}`: a role has one kind", b.kind(), p.name),
                            ),
                            Some(_) => {}
                            None => kind = Some((b.kind(), p.name.clone())),
                        }
                        values[pi] = Some(b);
                    }
                    Err(msg) => err(
                        &mut diags,
                        &path,
                        &item,
                        Code::UnknownReference,
                        format!("on {}: {msg}", p.name),
                    ),
                }
            }
            match kind {
                Some((kind, _)) => roles.push(Role {
                    name: rname.to_string(),
                    kind,
                    values,
                }),
                None if diags.0.len() == before => err(
                    &mut diags,
                    &rpath,
                    &item,
                    Code::Shape,
                    "absent on every project: remove the role".into(),
                ),
                None => {}
            }
        }
        if let Some(base) = &like {
            match units
                .iter()
                .position(|b: &Unit| &b.name == base && b.like.is_none())
            {
                None => err(
                    &mut diags,
                    &format!("{upath}/like"),
                    uname,
                    Code::UnknownReference,
                    format!(
                        "`like: {base}` names no unit defined before this one (without `like:`)"
                    ),
                ),
                Some(bi) => {
                    for r in &roles {
                        let b = &mut units[bi];
                        match b.roles.iter().find(|x| x.name == r.name) {
                            Some(x) if x.kind == r.kind => {}
                            Some(x) => err(
                                &mut diags,
                                &format!("{upath}/roles/{}", r.name),
                                uname,
                                Code::Shape,
                                format!(
                                    "binds a {:?} but `{base}.{}` is a {:?}: a role has one kind",
                                    r.kind, r.name, x.kind
                                ),
                            ),
                            // A role only this instance has: the shared
                            // struct gets it, absent on the other unit.
                            None => b.roles.push(Role {
                                name: r.name.clone(),
                                kind: r.kind,
                                values: vec![None; n_projects],
                            }),
                        }
                    }
                }
            }
        }
        units.push(Unit {
            name: uname.to_string(),
            doc: doc_text,
            like,
            present,
            roles,
        });
    }
    if diags.is_empty() {
        Ok(units)
    } else {
        Err(diags.sorted())
    }
}

/// The keys of a role's project map other than `default`, each with the
/// projects its expression names (`bdw..icl: ...`): a key that does not
/// parse, or names no project of the unit, is an error.
fn map_keys(
    ir: &Ir,
    rv: &Value,
    present: &[bool],
    rpath: &str,
    report: &mut dyn FnMut(&str, Code, String),
) -> Vec<(String, crate::projects::ProjectSet, Value)> {
    let Value::Mapping(m) = rv else {
        return Vec::new();
    };
    let mut keyed = Vec::new();
    for (k, v) in m {
        let key = scalar(k);
        if key == "default" {
            continue;
        }
        match ir.catalogue.parse(&key) {
            Ok(set) if set.iter().any(|pi| present.get(pi) == Some(&true)) => {
                keyed.push((key, set, v.clone()));
            }
            Ok(_) => report(
                &format!("{rpath}/{key}"),
                Code::ProjectMapCoverage,
                format!("`{key}` names no project of this unit"),
            ),
            Err(msg) => report(&format!("{rpath}/{key}"), Code::UnknownProject, msg),
        }
    }
    keyed
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => "?".to_string(),
    }
}

fn is_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Resolve one binding text on project `p`.
fn bind(ir: &Ir, p: usize, v: &Value) -> Result<Bound, String> {
    if let Some(n) = v.as_u64() {
        return Ok(Bound::Number(n));
    }
    let Some(text) = v.as_str() else {
        return Err("expected a binding text, a number or `~`".into());
    };
    let text = text.trim();
    if let Some(name) = text.strip_prefix("group ") {
        let groups = emitted_on(&ir.groups, p);
        return groups
            .enumerate()
            .find(|(_, g)| g.name == name.trim())
            .map(|(i, _)| Bound::Index(i))
            .ok_or_else(|| format!("no replication group `{}`", name.trim()));
    }
    if let Some(rest) = text.strip_prefix("command ") {
        let (name, field) = match rest.trim().split_once('.') {
            Some((n, f)) => (n, Some(f)),
            None => (rest.trim(), None),
        };
        let mut cmds = emitted_on(&ir.commands, p);
        let (ci, cmd) = cmds
            .by_ref()
            .enumerate()
            .find(|(_, c)| c.name == name)
            .ok_or_else(|| format!("no command `{name}`"))?;
        return match field {
            None => Ok(Bound::Index(ci)),
            Some(f) => cmd
                .fields
                .iter()
                .position(|x| x.name == f)
                .map(Bound::Index)
                .ok_or_else(|| format!("command `{name}` has no field `{f}`")),
        };
    }
    if let Some(names) = text.strip_prefix("domains ") {
        let mut out = Vec::new();
        for name in names.split_whitespace() {
            let mut domains = emitted_on(&ir.domains, p);
            match domains.position(|d| d.name == name) {
                Some(i) => out.push(i),
                None => return Err(format!("no power domain `{name}`")),
            }
        }
        return Ok(Bound::Indices(out));
    }
    if let Some((table, rest)) = text.split_once('[') {
        return bind_table(ir, p, table, rest);
    }
    let (path, sizes) = match text.strip_suffix("@sizes") {
        Some(t) => (t, true),
        None => (text, false),
    };
    // The field follows the first `.` after any `{a..b}` range.
    let after = path.rfind('}').map_or(0, |i| i + 1);
    let (reg, field) = match path[after..].find('.') {
        Some(i) => (&path[..after + i], Some(&path[after + i + 1..])),
        None => (path, None),
    };
    let elements = expand(ir, p, reg)?;
    let locate = |e: &Element| -> Result<Bound, String> {
        let r = RegLoc {
            name: e.name.clone(),
            address: e.address,
            width: e.register.width,
        };
        let Some(f) = field else {
            return Ok(Bound::Register(r));
        };
        let fi = e
            .fields()
            .iter()
            .find(|x| x.name == f)
            .ok_or_else(|| format!("register `{}` has no field `{f}`", e.name))?;
        if sizes {
            let ei = fi
                .enum_index
                .ok_or_else(|| format!("`{}.{f}` has no enumeration to read sizes from", e.name))?;
            let mut out = Vec::new();
            for val in &ir.enums[ei].values {
                let bytes = size_from_name(&val.name).ok_or_else(|| {
                    format!(
                        "`{}.{f}` value `{}` is not a size name like `size_128k`",
                        e.name, val.name
                    )
                })?;
                out.push((val.value, bytes));
            }
            return Ok(Bound::Sizes(out));
        }
        Ok(Bound::Field(FieldLoc {
            reg: r,
            field: f.to_string(),
            lsb: fi.lsb,
            width: fi.width,
        }))
    };
    match elements {
        Expanded::One(e) => locate(&e),
        Expanded::Many(es) => {
            if sizes {
                return Err("`@sizes` takes one register".into());
            }
            let mut fields = Vec::new();
            let mut regs = Vec::new();
            for e in &es {
                match locate(e)? {
                    Bound::Field(f) => fields.push(f),
                    Bound::Register(r) => regs.push(r),
                    _ => {}
                }
            }
            Ok(if field.is_some() {
                Bound::Fields(fields)
            } else {
                Bound::Registers(regs)
            })
        }
    }
}

enum Expanded<'a> {
    One(Element<'a>),
    Many(Vec<Element<'a>>),
}

/// `REG`, `REG{n}` (an array's elements) or `REG{a..b}` (numbered registers).
fn expand<'a>(ir: &'a Ir, p: usize, reg: &str) -> Result<Expanded<'a>, String> {
    if reg.contains("{n}") {
        let es: Vec<_> = ir
            .elements(p)
            .filter(|e| e.register.array.is_some() && e.register.name == reg)
            .collect();
        if es.is_empty() {
            return Err(format!("no register array `{reg}`"));
        }
        return Ok(Expanded::Many(es));
    }
    if let (Some(open), Some(close)) = (reg.find('{'), reg.find('}')) {
        let range = reg.get(open + 1..close).unwrap_or_default();
        let (a, b) = range
            .split_once("..")
            .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
            .filter(|(a, b)| a <= b)
            .ok_or_else(|| format!("`{reg}`: expected a range `{{first..last}}`"))?;
        let mut es = Vec::new();
        for n in a..=b {
            let name = format!("{}{n}{}", &reg[..open], &reg[close + 1..]);
            es.push(
                ir.find(p, &name)
                    .ok_or_else(|| format!("no register `{name}`"))?,
            );
        }
        return Ok(Expanded::Many(es));
    }
    ir.elements(p)
        .find(|e| e.name == reg)
        .map(Expanded::One)
        .ok_or_else(|| format!("no register `{reg}`"))
}

/// `table[col=value].column` or `table[].column`.
fn bind_table(ir: &Ir, p: usize, table: &str, rest: &str) -> Result<Bound, String> {
    let (key, column) = rest
        .split_once("].")
        .ok_or_else(|| format!("`{table}[{rest}`: expected `table[column=value].column`"))?;
    let t = ir
        .tables
        .iter()
        .find(|t| t.name == table && t.projects.contains(p))
        .ok_or_else(|| format!("no table `{table}`"))?;
    let col = |name: &str| {
        t.columns
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| format!("table `{table}` has no column `{name}`"))
    };
    let out = col(column)?;
    let int = |row: &[Cell], c: usize| match row.get(c) {
        Some(Cell::Int(v)) => Ok(*v),
        _ => Err(format!(
            "table `{table}` column `{column}`: expected numbers"
        )),
    };
    if key.is_empty() {
        return t
            .rows
            .iter()
            .map(|r| int(r, out))
            .collect::<Result<_, _>>()
            .map(Bound::Numbers);
    }
    let (kc, kv) = key
        .split_once('=')
        .ok_or_else(|| format!("`[{key}]`: expected `[column=value]`"))?;
    let kc = col(kc)?;
    let matches = |c: Option<&Cell>| match c {
        Some(Cell::Str(s)) => s == kv,
        Some(Cell::Int(v)) => v.to_string() == kv,
        None => false,
    };
    let row = t
        .rows
        .iter()
        .find(|r| matches(r.get(kc)))
        .ok_or_else(|| format!("table `{table}` has no row with {key}"))?;
    int(row, out).map(Bound::Number)
}

/// Bytes of a size encoding named like `size_128k` / `size_16m`.
fn size_from_name(name: &str) -> Option<u64> {
    let rest = name.strip_prefix("size_")?;
    let (num, unit) = rest.split_at(rest.len().checked_sub(1)?);
    let n: u64 = num.parse().ok()?;
    let shift = match unit {
        "k" | "K" => 10,
        "m" | "M" => 20,
        "g" | "G" => 30,
        _ => return None,
    };
    n.checked_shl(shift).filter(|&b| b > 0)
}

// ------------------------------------------------------------------ emit

/// The Rust type of a unit (`oa` -> `Oa`).
fn camel(s: &str) -> Ident {
    format_ident!("{}", crate::resolve::camel(s))
}

fn reg_tokens(r: &RegLoc) -> TokenStream {
    let (name, address, width) = (&r.name, hex(r.address), r.width);
    quote!(RegRef { name: #name, address: #address, width: #width })
}

fn field_tokens(f: &FieldLoc) -> TokenStream {
    let reg = reg_tokens(&f.reg);
    let (name, lsb, width) = (&f.field, f.lsb, f.width);
    quote!(FieldRef { reg: #reg, name: #name, lsb: #lsb, width: #width })
}

fn kind_type(k: Kind) -> TokenStream {
    match k {
        Kind::Field => quote!(Option<FieldRef>),
        Kind::Register => quote!(Option<RegRef>),
        Kind::Fields => quote!(&'static [FieldRef]),
        Kind::Registers => quote!(&'static [RegRef]),
        Kind::Sizes => quote!(&'static [(u64, u64)]),
        Kind::Number => quote!(Option<u64>),
        Kind::Numbers => quote!(&'static [u64]),
        Kind::Index => quote!(Option<usize>),
        Kind::Indices => quote!(&'static [usize]),
    }
}

fn value_tokens(k: Kind, b: Option<&Bound>) -> TokenStream {
    match (k, b) {
        (_, Some(Bound::Field(f))) => {
            let f = field_tokens(f);
            quote!(Some(#f))
        }
        (_, Some(Bound::Register(r))) => {
            let r = reg_tokens(r);
            quote!(Some(#r))
        }
        (_, Some(Bound::Fields(fs))) => {
            let fs = fs.iter().map(field_tokens);
            quote!(&[#(#fs),*])
        }
        (_, Some(Bound::Registers(rs))) => {
            let rs = rs.iter().map(reg_tokens);
            quote!(&[#(#rs),*])
        }
        (_, Some(Bound::Sizes(s))) => {
            let s = s.iter().map(|(c, b)| quote!((#c, #b)));
            quote!(&[#(#s),*])
        }
        (_, Some(Bound::Number(n))) => quote!(Some(#n)),
        (_, Some(Bound::Numbers(ns))) => quote!(&[#(#ns),*]),
        (_, Some(Bound::Index(i))) => quote!(Some(#i)),
        (_, Some(Bound::Indices(is))) => quote!(&[#(#is),*]),
        (Kind::Field | Kind::Register | Kind::Number | Kind::Index, None) => quote!(None),
        (_, None) => quote!(&[]),
    }
}

/// The kind of a report-format slot, from its counter name.
fn slot_kind(name: &str) -> TokenStream {
    match name {
        "RPT_ID" => quote!(SlotKind::RptId),
        "TIME_STAMP" => quote!(SlotKind::TimeStamp),
        "CTX_ID" => quote!(SlotKind::CtxId),
        "GPU_TICKS" => quote!(SlotKind::GpuTicks),
        _ if name.starts_with("PEC") || name.starts_with("MPEC") => {
            let (bank, digits) = name.split_at(
                name.find(|c: char| c.is_ascii_digit())
                    .unwrap_or(name.len()),
            );
            match (bank, digits.parse::<u32>().ok()) {
                ("PEC", Some(n)) => quote!(SlotKind::Pec(#n)),
                ("MPEC", Some(n)) => quote!(SlotKind::Mpec(#n)),
                _ => quote!(SlotKind::Other),
            }
        }
        _ => {
            let (bank, digits) = name.split_at(name.len().min(1));
            let n: Option<u32> = digits
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| digits.parse().ok())
                .flatten();
            match (bank, n) {
                ("A", Some(n)) => quote!(SlotKind::A(#n)),
                ("B", Some(n)) => quote!(SlotKind::B(#n)),
                ("C", Some(n)) => quote!(SlotKind::C(#n)),
                _ => quote!(SlotKind::Other),
            }
        }
    }
}

fn emit(ir: &Ir, units: &[Unit], hal: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    for u in units.iter().filter(|u| u.like.is_none()) {
        let ty = camel(&u.name);
        let doc = format!(" Bindings of the `{}` unit. {}", u.name, u.doc.trim());
        let fields = u.roles.iter().map(|r| {
            let name = format_ident!("{}", r.name);
            let t = kind_type(r.kind);
            let rdoc = format!(" Role `{}`.", r.name);
            quote!(#[doc = #rdoc] pub #name: #t)
        });
        let pushes: Vec<TokenStream> = u
            .roles
            .iter()
            .filter_map(|r| {
                let name = format_ident!("{}", r.name);
                Some(match r.kind {
                    Kind::Field => quote!(if let Some(f) = self.#name { out.push(f.reg.address); }),
                    Kind::Register => quote!(if let Some(r) = self.#name { out.push(r.address); }),
                    Kind::Fields => quote!(out.extend(self.#name.iter().map(|f| f.reg.address));),
                    Kind::Registers => quote!(out.extend(self.#name.iter().map(|r| r.address));),
                    _ => return None,
                })
            })
            .collect();
        let out_arg = if pushes.is_empty() {
            format_ident!("_out")
        } else {
            format_ident!("out")
        };
        out.extend(quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, Default)]
            pub struct #ty { #(#fields,)* }
            impl #ty {
                /// Append the address of every register a role binds.
                pub fn addresses(&self, #out_arg: &mut Vec<u64>) {
                    #(#pushes)*
                }
            }
        });
    }
    let unit_fields = units.iter().map(|u| {
        let name = format_ident!("{}", u.name);
        let ty = camel(u.like.as_deref().unwrap_or(&u.name));
        let doc = match &u.like {
            None => format!(" The `{}` unit, where the project has it.", u.name),
            Some(l) => format!(
                " The `{}` unit (another `{l}`: {}), where the project has it.",
                u.name,
                u.doc.trim()
            ),
        };
        quote!(#[doc = #doc] pub #name: Option<#ty>)
    });
    out.extend(quote! {
        /// Everything the emulator binds on one project.
        #[derive(Clone, Copy, Debug)]
        pub struct Bindings {
            /// The project.
            pub project: &'static #hal::meta::ProjectInfo,
            /// Force-wake handshakes (from the descriptions' power domains).
            pub wake: &'static [WakeRef],
            /// The CPU steering selector.
            pub steering: Option<SteeringRef>,
            /// Fuse mirrors of replication groups.
            pub fuses: &'static [FuseRef],
            /// Per report format (in `project.formats` order), the kind of each slot.
            pub slots: &'static [&'static [SlotKind]],
            /// C2 carries the GPU clock (no layout of the project has
            /// GPU_TICKS; the HAL's `Project::GPU_CLOCK_IN_C2`).
            pub c2_clock: bool,
            #(#unit_fields,)*
        }
    });
    let none = units.iter().map(|u| {
        let name = format_ident!("{}", u.name);
        quote!(#name: None)
    });
    out.extend(quote! {
        impl Bindings {
            /// Nothing bound: a project the generator did not see (units
            /// off, no force-wake, no steering).
            pub const fn empty(project: &'static #hal::meta::ProjectInfo) -> Self {
                Bindings { project, wake: &[], steering: None, fuses: &[], slots: &[], c2_clock: false, #(#none,)* }
            }
        }
    });
    let mut all = Vec::new();
    for (pi, p) in ir.catalogue.projects.iter().enumerate() {
        let module = format_ident!("{}", p.name);
        let stat = format_ident!("{}", p.name.to_uppercase());
        let feature = &p.name;
        let wake = emitted_on(&ir.domains, pi)
            .enumerate()
            .filter_map(|(i, d)| {
                let w = d.wake?;
                let (req, ack, bit) = (hex(w.request), hex(w.ack), w.bit);
                Some(quote!(WakeRef { domain: #i, request: #req, ack: #ack, bit: #bit }))
            });
        let sem = |s: Option<&crate::ir::SemaphoreIr>| match s {
            Some(s) => {
                let (a, b) = (hex(s.address), s.bit);
                quote!(Some((#a, #b)))
            }
            None => quote!(None),
        };
        let steering = match ir.steering.iter().find(|s| s.project == pi) {
            Some(s) => {
                let (a, m) = (hex(s.address), hex(s.multicast_mask));
                let (sl, sw, bl, bw) =
                    (s.slice.lsb, s.slice.width, s.subslice.lsb, s.subslice.width);
                let semaphore = sem(s.semaphore.as_ref());
                let groups = emitted_on(&ir.groups, pi).map(|g| {
                    let per = g.per_group.unwrap_or(0);
                    let own = match &g.selector {
                        Some(x) => {
                            let (a, m) = (hex(x.address), hex(x.multicast_mask));
                            let (sl, sw, bl, bw) =
                                (x.slice.lsb, x.slice.width, x.subslice.lsb, x.subslice.width);
                            let xs = sem(x.semaphore.as_ref());
                            quote!(Some(SelectorRef { address: #a, multicast_mask: #m, slice: (#sl, #sw), subslice: (#bl, #bw), semaphore: #xs }))
                        }
                        None => quote!(None),
                    };
                    quote!((#per, #own))
                });
                quote!(Some(SteeringRef { address: #a, multicast_mask: #m, slice: (#sl, #sw), subslice: (#bl, #bw), semaphore: #semaphore, groups: &[#(#groups),*] }))
            }
            None => quote!(None),
        };
        let fuses = emitted_on(&ir.groups, pi).enumerate().filter_map(|(i, g)| {
            let f = g.fuse.as_ref()?;
            let (a, l, w, s) = (hex(f.address), f.lsb, f.width, f.set_means_present);
            Some(quote!(FuseRef { group: #i, address: #a, lsb: #l, width: #w, set_means_present: #s }))
        });
        let slots = emitted_on(&ir.formats, pi).map(|f| {
            let kinds = f.counters.iter().map(|c| slot_kind(&c.name));
            quote!(&[#(#kinds),*])
        });
        let unit_values = units.iter().map(|u| {
            let name = format_ident!("{}", u.name);
            if !u.present[pi] {
                return quote!(#name: None);
            }
            let base = u
                .like
                .as_ref()
                .and_then(|l| units.iter().find(|b| &b.name == l))
                .unwrap_or(u);
            let ty = camel(&base.name);
            let roles = base.roles.iter().map(|br| {
                let rn = format_ident!("{}", br.name);
                let own = u.roles.iter().find(|r| r.name == br.name);
                let v = value_tokens(br.kind, own.and_then(|r| r.values[pi].as_ref()));
                quote!(#rn: #v)
            });
            quote!(#name: Some(#ty { #(#roles,)* }))
        });
        let c2_clock = ir.gpu_clock_in_c2(pi);
        let doc = format!(" Bindings on {} ({}).", p.name, p.name.to_uppercase());
        out.extend(quote! {
            #[cfg(perfregs_hal = #feature)]
            #[doc = #doc]
            pub static #stat: Bindings = Bindings {
                project: &#hal::#module::PROJECT,
                wake: &[#(#wake),*],
                steering: #steering,
                fuses: &[#(#fuses),*],
                slots: &[#(#slots),*],
                c2_clock: #c2_clock,
                #(#unit_values,)*
            };
        });
        all.push(quote!(#[cfg(perfregs_hal = #feature)] &#stat));
    }
    out.extend(quote! {
        /// The bindings of every project built.
        pub static ALL: &[&Bindings] = &[#(#all),*];
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn ir() -> Ir {
        crate::compile_path(Path::new(perfregs_regdefs::dir())).expect("shipped descriptions")
    }

    fn diags(spec: &str) -> Vec<String> {
        match resolve(&ir(), "b.yaml", spec) {
            Ok(_) => Vec::new(),
            Err(d) => d.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn resolves_fields_arrays_tables_and_sizes() {
        let spec = "units:\n  oa:\n    projects: [hsw, bdw]\n    roles:\n      enable: OACONTROL.counter_enable\n      cec: CEC{n}_0.select\n      a: {hsw: 'OAPERF_A{0..44}', bdw: ~}\n      sizes: {hsw: OASTATUS1.buffer_size@sizes, bdw: OABUFFER.buffer_size@sizes}\n      timer: {bdw: 'rpt_id_report_reasons[name=timer].rpt_id_bit', hsw: ~}\n";
        let units = resolve(&ir(), "b.yaml", spec).expect("resolves");
        let hsw = ir().catalogue.find("hsw").expect("hsw");
        let bdw = ir().catalogue.find("bdw").expect("bdw");
        let role = |n: &str| units[0].roles.iter().find(|r| r.name == n).expect(n);
        match &role("cec").values[hsw] {
            Some(Bound::Fields(f)) => assert_eq!(f.len(), 8),
            other => panic!("{other:?}"),
        }
        match &role("a").values[hsw] {
            Some(Bound::Registers(r)) => assert_eq!((r.len(), r[44].address), (45, 0x28b0)),
            other => panic!("{other:?}"),
        }
        assert!(role("a").values[bdw].is_none());
        match &role("sizes").values[hsw] {
            Some(Bound::Sizes(s)) => assert_eq!(s.first(), Some(&(0, 128 << 10))),
            other => panic!("{other:?}"),
        }
        assert_eq!(role("timer").values[bdw], Some(Bound::Number(19)));
    }

    #[test]
    fn renamed_register_is_a_located_error() {
        let spec = "units:\n  oa:\n    projects: [hsw]\n    roles:\n      enable: OACONTROLX.counter_enable\n      ok: OACONTROL.nope\n";
        let d = diags(spec);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(
            d[0].contains("b.yaml:5:15") && d[0].contains("no register `OACONTROLX`"),
            "{d:?}"
        );
        assert!(
            d[1].contains("b.yaml:6:11") && d[1].contains("has no field `nope`"),
            "{d:?}"
        );
    }

    #[test]
    fn every_project_is_covered_and_kinds_agree() {
        let spec = "units:\n  oa:\n    projects: [hsw, bdw, nope]\n    roles:\n      x: {hsw: OACONTROL.counter_enable}\n      y: {hsw: OACONTROL, bdw: OACONTROL.counter_enable}\n";
        let d = diags(spec).join("\n");
        assert!(d.contains("unknown project `nope`"), "{d}");
        assert!(d.contains("no binding for project `bdw`"), "{d}");
        assert!(d.contains("a role has one kind"), "{d}");
    }

    #[test]
    fn malformed_spec_is_located() {
        let d = diags("units:\n  oa: [\n");
        assert_eq!(d.len(), 1);
        assert!(d[0].starts_with("error[PR002]: b.yaml:"), "{d:?}");
    }
}
