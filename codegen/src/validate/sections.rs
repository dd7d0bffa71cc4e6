//! Validation passes over power domains, replication groups, address maps,
//! report formats and tables, and the register cross-references they imply.

use super::{is_snake, is_upper_snake};
use crate::diag::{Code, Diagnostics};
use crate::model::Space;
use crate::projects::{Catalogue, ProjectSet};
use crate::resolve::RBlock;
use crate::sections::RMapRow;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// (project, register element name) -> its fields there (name and bits),
/// over every file.
fn register_names(blocks: &[RBlock]) -> Regs<'_> {
    let mut out = HashMap::new();
    for b in blocks {
        for r in &b.registers {
            let Some(projects) = r.projects else { continue };
            let max = r.array.map_or(1, |a| a.0);
            for n in 0..max.min(4096) {
                let name = match r.array {
                    Some(_) => Cow::Owned(r.name.replace("{n}", &n.to_string())),
                    None => Cow::Borrowed(r.name.as_str()),
                };
                for p in projects.iter().filter(|&p| n < r.count_on(p)) {
                    let fields = r
                        .fields
                        .iter()
                        .filter(|f| f.projects.is_some_and(|s| s.contains(p)))
                        .map(|f| (f.name.as_str(), f.bits))
                        .collect();
                    out.insert((p, name.clone()), fields);
                }
            }
        }
    }
    out
}

/// Names of power domains, replication groups, report formats, tables and
/// commands have the right case and are unique per project (and kind).
pub(super) fn names(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    let mut seen: HashSet<(&str, usize, &str)> = HashSet::new();
    let upper = |n: &str| is_upper_snake(n) && !n.contains("{n}");
    for b in blocks {
        let s = &b.sections;
        // (kind, name, projects, path, case rule, what the rule says)
        type Rule = fn(&str) -> bool;
        let items = s
            .domains
            .iter()
            .map(|x| ("power domain", &x.name, x.projects, &x.path))
            .map(|i| (i, is_snake as Rule, "power domain names are lower case"))
            .chain(s.groups.iter().map(|x| {
                let i = ("replication group", &x.name, x.projects, &x.path);
                (
                    i,
                    is_snake as Rule,
                    "replication group names are lower case",
                )
            }))
            .chain(s.formats.iter().map(|x| {
                let i = ("report format", &x.name, x.projects, &x.path);
                (i, upper as Rule, "report format names are UPPER_SNAKE_CASE")
            }))
            .chain(s.tables.iter().map(|x| {
                let i = ("table", &x.name, x.projects, &x.path);
                (i, is_snake as Rule, "table names are snake_case")
            }))
            .chain(s.commands.iter().map(|x| {
                let i = ("command", &x.name, x.projects, &x.path);
                (i, upper as Rule, "command name must be UPPER_SNAKE_CASE")
            }));
        for ((kind, name, set, path), rule, says) in items {
            let at = format!("{path}/name");
            if !rule(name) {
                d.push(b.source.diag(Code::BadName, &at, name, says.into()));
            }
            let dup = set
                .iter()
                .filter(|&p| !seen.insert((kind, p, name.as_str())))
                .fold(0, |m, p| m | 1 << p);
            if dup != 0 {
                let on = cat.names(ProjectSet(dup));
                let message = format!("{kind} `{name}` is defined twice for {on}");
                d.push(b.source.diag(Code::DuplicateName, &at, name, message));
            }
        }
    }
}

/// The registers of every file by project, for the reference checks: (project,
/// element name) -> (field name, bits) of each of its fields there.
type Regs<'a> = HashMap<(usize, Cow<'a, str>), Vec<Field<'a>>>;

/// A field's name and bits (`(msb, lsb)`, if they parsed).
type Field<'a> = (&'a str, Option<(u32, u32)>);

/// The fields of register `reg` on project `p`, if it exists there.
fn fields_of<'r>(regs: &'r Regs, p: usize, reg: &'r str) -> Option<&'r [Field<'r>]> {
    regs.get(&(p, Cow::Borrowed(reg))).map(Vec::as_slice)
}

/// Whether register `reg` (with field `field`, if given) exists on every
/// project of `set`; if not, a PR125 at `(path, item)` saying `what` and
/// the projects where it does not.
fn exists(
    (b, cat, regs): (&RBlock, &Catalogue, &Regs),
    d: &mut Diagnostics,
    set: ProjectSet,
    reg: &str,
    field: Option<&str>,
    (path, item): (&str, &str),
    what: String,
) -> bool {
    let lacking = set
        .iter()
        .filter(|&p| match fields_of(regs, p, reg) {
            None => true,
            Some(fields) => field.is_some_and(|f| !fields.iter().any(|x| x.0 == f)),
        })
        .fold(0, |m, p| m | 1 << p);
    if lacking != 0 {
        let on = cat.names(ProjectSet(lacking));
        d.push(b.source.diag(
            Code::UnknownReference,
            path,
            item,
            format!("{what} on {on}"),
        ));
    }
    lacking == 0
}

/// The registers that power domains, replication groups and steering name
/// exist, with the fields they name (one map of every register for the three).
pub(super) fn register_references(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    let regs = register_names(blocks);
    power_domains(blocks, cat, &regs, d);
    replication_groups(blocks, cat, &regs, d);
    steering(blocks, cat, &regs, d);
}

/// A domain is always-on or has a request and an ack register that exist;
/// the section names the request register's request bit (`request_field`),
/// a field of every request register of the section.
fn power_domains(blocks: &[RBlock], cat: &Catalogue, regs: &Regs, d: &mut Diagnostics) {
    for b in blocks {
        let ctx = (b, cat, regs);
        for x in &b.sections.domains {
            match (x.always_on, &x.request, &x.ack) {
                (true, None, None) | (false, Some(_), Some(_)) => {}
                (true, ..) => d.push(b.source.diag(
                    Code::BadPowerDomain,
                    &x.path,
                    &x.name,
                    "an always-on domain has no request or ack register".into(),
                )),
                (false, ..) => d.push(b.source.diag(
                    Code::BadPowerDomain,
                    &x.path,
                    &x.name,
                    "a domain needs `always_on: true` or both `request` and `ack`".into(),
                )),
            }
            for (key, reg) in [("request", &x.request), ("ack", &x.ack)] {
                let Some(reg) = reg else { continue };
                let at = format!("{}/{key}", x.path);
                let what = format!("no register `{reg}`");
                if !exists(ctx, d, x.projects, reg, None, (&at, &x.name), what) || key == "ack" {
                    continue;
                }
                let (field, field_path) = &x.request_field;
                let Some(field) = field else {
                    d.push(b.source.diag(
                        Code::BadPowerDomain,
                        field_path,
                        &x.name,
                        format!("request register `{reg}` given, but the section has no `request_field` naming its request bit"),
                    ));
                    continue;
                };
                let what = format!("request_field `{field}` is not a field of `{reg}`");
                let at = (field_path.as_str(), x.name.as_str());
                if !exists(ctx, d, x.projects, reg, Some(field), at, what) {
                    continue;
                }
                // The handshake sets and acknowledges one bit.
                let wide = x.projects.iter().find_map(|p| {
                    let fields = fields_of(regs, p, reg)?;
                    let (m, l) = fields.iter().find(|f| f.0 == field)?.1?;
                    (m != l).then_some((m, l))
                });
                if let Some((m, l)) = wide {
                    d.push(b.source.diag(
                        Code::BadPowerDomain,
                        field_path,
                        &x.name,
                        format!("request_field `{field}` of `{reg}` is bits {m}:{l}; the request bit is one bit"),
                    ));
                }
            }
        }
    }
}

/// Fuse mirrors name existing registers and fields.
fn replication_groups(blocks: &[RBlock], cat: &Catalogue, regs: &Regs, d: &mut Diagnostics) {
    for b in blocks {
        for x in &b.sections.groups {
            if x.instances == 0 || x.instances > 64 {
                d.push(b.source.diag(
                    Code::MapRow,
                    &format!("{}/instances", x.path),
                    &x.name,
                    format!("{} instances: 1 to 64 expected", x.instances),
                ));
            }
            if let Some((reg, field, _)) = &x.fuse {
                let at = format!("{}/fuse", x.path);
                let what = format!("no register `{reg}` with field `{field}`");
                exists(
                    (b, cat, regs),
                    d,
                    x.projects,
                    reg,
                    Some(field),
                    (&at, &x.name),
                    what,
                );
            }
        }
    }
}

/// Steering selectors name existing registers, and each role
/// (multicast, slice, subslice) a field of the register; a semaphore names
/// a one-bit field of an existing register; each group's own selector has
/// the section's role fields, and every group's ids fit the fields of the
/// selector it is steered through (PR135).
fn steering(blocks: &[RBlock], cat: &Catalogue, regs: &Regs, d: &mut Diagnostics) {
    for b in blocks {
        let ctx = (b, cat, regs);
        for st in &b.sections.steering {
            let reg = &st.register;
            let at = format!("{}/register", st.path);
            let what = format!("no register `{reg}`");
            if exists(ctx, d, st.projects, reg, None, (&at, reg), what) {
                for (role, field) in &st.roles {
                    let at = format!("{}/{role}", st.path);
                    let what = format!("{role} field `{field}` is not a field of `{reg}`");
                    exists(ctx, d, st.projects, reg, Some(field), (&at, reg), what);
                }
            }
            if let Some(sem) = &st.semaphore {
                semaphore(ctx, d, st.projects, sem, &format!("{}/semaphore", st.path));
            }
        }
        for g in &b.sections.groups {
            if g.per_group == Some(0) {
                let at = format!("{}/per_group", g.path);
                let msg = "per_group 0: a group id holds at least one instance".to_string();
                d.push(b.source.diag(Code::BadSteering, &at, &g.name, msg));
            }
            let Some(gs) = &g.steering else { continue };
            let path = format!("{}/steering", g.path);
            if gs.roles.is_empty() {
                let msg = "a group's own steering selector needs the section's `steering` \
                           (its fields have the section's role names)"
                    .to_string();
                d.push(b.source.diag(Code::BadSteering, &path, &g.name, msg));
                continue;
            }
            let reg = &gs.register;
            let at = format!("{path}/register");
            let what = format!("no register `{reg}`");
            if exists(ctx, d, g.projects, reg, None, (&at, reg), what) {
                for (role, field) in &gs.roles {
                    let what = format!(
                        "{role} field `{field}` (the section selector's) is not a field of `{reg}`"
                    );
                    exists(ctx, d, g.projects, reg, Some(field), (&at, reg), what);
                }
            }
            if let Some(sem) = &gs.semaphore {
                semaphore(ctx, d, g.projects, sem, &format!("{path}/semaphore"));
            }
        }
    }
    geometry(blocks, cat, regs, d);
}

/// A semaphore `(register, field)` exists on `set` and its field is one bit.
fn semaphore(
    ctx: (&RBlock, &Catalogue, &Regs),
    d: &mut Diagnostics,
    set: ProjectSet,
    (reg, field): &(String, String),
    path: &str,
) {
    let at = format!("{path}/register");
    let what = format!("no register `{reg}` with field `{field}`");
    if !exists(ctx, d, set, reg, Some(field), (&at, reg), what) {
        return;
    }
    let (b, _, regs) = ctx;
    let wide = set.iter().find_map(|p| {
        let bits = fields_of(regs, p, reg)?.iter().find(|f| f.0 == field)?.1?;
        (bits.0 != bits.1).then_some(bits)
    });
    if let Some((msb, lsb)) = wide {
        let at = format!("{path}/field");
        let msg =
            format!("semaphore field `{field}` is bits {msb}:{lsb}: one bit is read and written");
        d.push(b.source.diag(Code::BadSteering, &at, reg, msg));
    }
}

/// Every group of a steered project fits the selector it is steered
/// through: `per_group` (or `2^width(subslice)`) at most what the subslice
/// field reaches, `ceil(instances / per_group)` group ids at most what the
/// slice field reaches.
fn geometry(blocks: &[RBlock], cat: &Catalogue, regs: &Regs, d: &mut Diagnostics) {
    // project -> (selector register, slice field, subslice field)
    let mut sel: HashMap<usize, (&str, &str, &str)> = HashMap::new();
    for b in blocks {
        for st in &b.sections.steering {
            let role = |r: &str| st.roles.iter().find(|x| x.0 == r).map(|x| x.1.as_str());
            if let (Some(sl), Some(ss)) = (role("slice"), role("subslice")) {
                st.projects.iter().for_each(|p| {
                    sel.insert(p, (st.register.as_str(), sl, ss));
                });
            }
        }
    }
    let width = |p: usize, reg: &str, field: &str| -> Option<u32> {
        let bits = fields_of(regs, p, reg)?.iter().find(|f| f.0 == field)?.1?;
        Some(bits.0.checked_sub(bits.1)? + 1)
    };
    for b in blocks {
        for g in &b.sections.groups {
            for p in g.projects.iter() {
                let Some(&(main, sl, ss)) = sel.get(&p) else {
                    continue;
                };
                let reg = g.steering.as_ref().map_or(main, |s| s.register.as_str());
                let (Some(wsl), Some(wss)) = (width(p, reg, sl), width(p, reg, ss)) else {
                    continue; // reported as PR125
                };
                let reach = |w: u32| 1u64.checked_shl(w).unwrap_or(u64::MAX);
                let per = g.per_group.map_or(reach(wss), u64::from);
                if per == 0 {
                    continue; // reported above
                }
                let groups = u64::from(g.instances).div_ceil(per);
                let msg = if per > reach(wss) {
                    format!(
                        "per_group {per}: `{reg}.{ss}` ({wss} bits) reaches instance ids below {}",
                        reach(wss)
                    )
                } else if groups > reach(wsl) {
                    format!(
                        "{} instances, {per} a group: {groups} group ids, but `{reg}.{sl}` ({wsl} bits) reaches {}",
                        g.instances,
                        reach(wsl)
                    )
                } else {
                    continue;
                };
                let at = match g.per_group {
                    Some(_) => format!("{}/per_group", g.path),
                    None => format!("{}/instances", g.path),
                };
                d.push(b.source.diag(
                    Code::BadSteering,
                    &at,
                    &g.name,
                    format!("{msg} on {}", cat.projects[p].name),
                ));
                break;
            }
        }
    }
}

/// Rows: sizes agree, no overlap, domains and groups exist, instance counts match.
pub(super) fn map_rows(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    // `(project, domain)` -> always on.
    let mut domains: HashMap<(usize, &str), bool> = HashMap::new();
    let mut groups: HashMap<(usize, &str), u32> = HashMap::new();
    for b in blocks {
        for x in &b.sections.domains {
            x.projects.iter().for_each(|p| {
                domains.insert((p, x.name.as_str()), x.always_on);
            });
        }
        for x in &b.sections.groups {
            x.projects.iter().for_each(|p| {
                groups.insert((p, x.name.as_str()), x.instances);
            });
        }
    }
    let mut per_project: HashMap<usize, Vec<(&RBlock, &RMapRow)>> = HashMap::new();
    for b in blocks {
        for r in &b.sections.rows {
            let item = format!("row {:#x}..{:#x}", r.start, r.end);
            // A diagnostic at key `key` of this row.
            let at_key = |code, key: &str, message| {
                b.source
                    .diag(code, &format!("{}/{key}", r.path), &item, message)
            };
            if r.start > r.end {
                d.push(at_key(Code::MapRow, "end", "end is below start".into()));
                continue;
            }
            if let Some(bytes) = r.bytes {
                // In u128: the row 0..=u64::MAX has 2^64 bytes.
                let size = u128::from(r.end - r.start) + 1;
                if size != u128::from(bytes) {
                    d.push(at_key(
                        Code::MapRow,
                        "bytes",
                        format!(
                            "{bytes} bytes, but {:#x}..={:#x} is {} bytes",
                            r.start, r.end, size
                        ),
                    ));
                }
            }
            // A row wakes one domain, or two together (Linux i915's
            // FORCEWAKE_RENDER | FORCEWAKE_MEDIA rows): both wakeable.
            for (k, w) in r.wake.iter().enumerate() {
                let key = if r.wake_list {
                    format!("wake/{k}")
                } else {
                    "wake".to_string()
                };
                let m = ProjectSet(
                    r.projects
                        .iter()
                        .filter(|&p| !domains.contains_key(&(p, w.as_str())))
                        .fold(0, |m, p| m | 1 << p),
                );
                if !m.is_empty() {
                    d.push(at_key(
                        Code::UnknownReference,
                        &key,
                        format!("no power domain `{w}` on {}", cat.names(m)),
                    ));
                } else if k >= 2 {
                    d.push(at_key(
                        Code::MapRow,
                        &key,
                        format!("a row wakes at most two power domains; `{w}` is a third"),
                    ));
                } else if r.wake[..k].contains(w) {
                    d.push(at_key(
                        Code::MapRow,
                        &key,
                        format!("power domain `{w}` is listed twice"),
                    ));
                } else if r.wake.len() > 1 {
                    let on = r
                        .projects
                        .iter()
                        .find(|&p| domains.get(&(p, w.as_str())) == Some(&true));
                    if let Some(p) = on {
                        d.push(at_key(
                            Code::MapRow,
                            &key,
                            format!(
                                "power domain `{w}` is always on on {}: a row naming two domains names two that are woken",
                                cat.projects[p].name
                            ),
                        ));
                    }
                }
            }
            match (&r.group, r.instances) {
                (Some(g), inst) => {
                    for p in r.projects.iter() {
                        match groups.get(&(p, g.as_str())) {
                            None => {
                                d.push(at_key(
                                    Code::UnknownReference,
                                    "group",
                                    format!(
                                        "no replication group `{g}` on {}",
                                        cat.projects[p].name
                                    ),
                                ));
                                break;
                            }
                            Some(n) if inst.is_some_and(|i| i != *n) => {
                                d.push(at_key(
                                    Code::MapRow,
                                    "instances",
                                    format!(
                                        "{} instances, but group `{g}` has {n}",
                                        inst.unwrap_or(0)
                                    ),
                                ));
                                break;
                            }
                            _ => {}
                        }
                    }
                }
                (None, Some(i)) if i != 1 => {
                    d.push(at_key(
                        Code::MapRow,
                        "instances",
                        format!("{i} instances but no replication group"),
                    ));
                }
                _ => {}
            }
            for p in r.projects.iter() {
                per_project.entry(p).or_default().push((b, r));
            }
        }
    }
    for (p, mut rows) in per_project {
        rows.sort_by_key(|(_, r)| (r.start, r.end));
        for w in rows.windows(2) {
            let ((_, a), (b, r)) = (w[0], w[1]);
            if r.start <= a.end {
                d.push(b.source.diag(
                    Code::MapRow,
                    &format!("{}/start", r.path),
                    &format!("row {:#x}..{:#x}", r.start, r.end),
                    format!(
                        "overlaps row {:#x}..{:#x} on {}",
                        a.start, a.end, cat.projects[p].name
                    ),
                ));
            }
        }
    }
}

/// Every MMIO register of a mapped project lies in one kind of row, not a reserved one.
pub(super) fn register_domains(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    let mut rows: HashMap<usize, Vec<&RMapRow>> = HashMap::new();
    for b in blocks {
        for r in &b.sections.rows {
            for p in r.projects.iter() {
                rows.entry(p).or_default().push(r);
            }
        }
    }
    for b in blocks.iter().filter(|b| b.space == Space::Mmio) {
        for r in &b.registers {
            let (Some(projects), Some(addrs), Some(width)) = (r.projects, &r.address, r.width)
            else {
                continue;
            };
            let (max, stride) = r.array.unwrap_or((1, 0));
            let mut reported = false;
            // Target `(wake, group)` of element 0 per project: an array's
            // elements share one wake domain and one cast (typed per array).
            let mut first: HashMap<usize, (&[String], Option<&str>)> = HashMap::new();
            for n in 0..max.min(4096) {
                if reported {
                    break;
                }
                for (set, base, path) in addrs {
                    for p in set
                        .iter()
                        .filter(|&p| projects.contains(p) && n < r.count_on(p))
                    {
                        let Some(map) = rows.get(&p) else { continue };
                        let lo = base.wrapping_add(u64::from(n).wrapping_mul(stride));
                        let hi = lo.saturating_add(u64::from(width / 8) - 1);
                        let hit: Vec<&&RMapRow> = map
                            .iter()
                            .filter(|x| x.start <= hi && lo <= x.end)
                            .collect();
                        let name = r.name.replace("{n}", &n.to_string());
                        if let Some(x) = hit.iter().find(|x| x.wake.is_empty()) {
                            d.push(b.source.diag(Code::ReservedRange, path, &name, format!("{lo:#x} on {} lies in the reserved range {:#x}..{:#x} (no wake target)", cat.projects[p].name, x.start, x.end)));
                            reported = true;
                            break;
                        }
                        if hit
                            .windows(2)
                            .any(|w| (&w[0].wake, &w[0].group) != (&w[1].wake, &w[1].group))
                        {
                            d.push(b.source.diag(Code::Straddle, path, &name, format!("{lo:#x}..{hi:#x} on {} straddles address-map rows with different targets", cat.projects[p].name)));
                            reported = true;
                            break;
                        }
                        let target = hit
                            .first()
                            .map_or((&[][..], None), |x| (x.wake.as_slice(), x.group.as_deref()));
                        if *first.entry(p).or_insert(target) != target {
                            d.push(b.source.diag(Code::Straddle, path, &name, format!("element {n} at {lo:#x} on {} lies in an address-map row with another wake domain or replication group than element 0 (an array has one of each)", cat.projects[p].name)));
                            reported = true;
                            break;
                        }
                    }
                    if reported {
                        break;
                    }
                }
            }
        }
    }
}

/// Counters lie inside the report, do not overlap, and have unique names.
pub(super) fn report_formats(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for f in &b.sections.formats {
            if f.size == 0 || f.size % 64 != 0 {
                d.push(b.source.diag(
                    Code::Layout,
                    &format!("{}/size", f.path),
                    &f.name,
                    format!("size {} is not a positive multiple of 64 bytes", f.size),
                ));
            }
            let mut names = HashSet::new();
            let mut spans: Vec<(u64, u64, &str, &str)> = Vec::new();
            for c in &f.counters {
                let item = format!("{}.{}", f.name, c.name);
                if !names.insert(c.name.as_str()) {
                    d.push(b.source.diag(
                        Code::Layout,
                        &format!("{}/name", c.path),
                        &item,
                        format!("counter `{}` is listed twice", c.name),
                    ));
                }
                for (lo, hi) in c.spans() {
                    if hi > f.size {
                        d.push(b.source.diag(
                            Code::Layout,
                            &format!("{}/offset", c.path),
                            &item,
                            format!(
                                "bytes {lo:#x}..{hi:#x} lie outside the {}-byte report",
                                f.size
                            ),
                        ));
                    }
                    spans.push((lo, hi, c.name.as_str(), c.path.as_str()));
                }
            }
            spans.sort();
            for w in spans.windows(2) {
                if w[1].0 < w[0].1 {
                    d.push(b.source.diag(
                        Code::Layout,
                        &format!("{}/offset", w[1].3),
                        &format!("{}.{}", f.name, w[1].2),
                        format!("byte {:#x} is also `{}`", w[1].0, w[0].2),
                    ));
                }
            }
        }
    }
}

/// Every row has one cell per column.
pub(super) fn tables(blocks: &[RBlock], _: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        for t in &b.sections.tables {
            if t.columns.is_empty() {
                d.push(b.source.diag(
                    Code::TableShape,
                    &format!("{}/columns", t.path),
                    &t.name,
                    "a table needs columns".into(),
                ));
            }
            for (i, row) in t.rows.iter().enumerate() {
                if row.len() != t.columns.len() {
                    d.push(b.source.diag(
                        Code::TableShape,
                        &format!("{}/rows/{i}", t.path),
                        &t.name,
                        format!(
                            "row has {} cells for {} columns",
                            row.len(),
                            t.columns.len()
                        ),
                    ));
                }
            }
        }
    }
}
