//! Lowering: validated, resolved blocks -> [`Ir`].
//!
//! Assumes validation reported nothing: every register has projects, width,
//! an address and a reset on each of its projects (PR113 map coverage), every
//! field has bits and an access, array elements of one project lie in rows
//! with the same wake target and group (PR127), and every request, ack, fuse
//! and steering register named by a section exists with the fields used
//! (PR125). Should one of these still fail, lowering reports an internal
//! error at the item instead of guessing: nothing here falls back to a default.
//!
//! Passes, in order: sections (domains, groups, rows sorted by project and
//! start, formats, tables); per block its enums and registers (one per
//! description entry, arrays kept with their per-project count), with the
//! layout-deduplication pass interning each project's field list; cross
//! references (each instance's wake domain and replication group from the
//! address map); the handshakes (request/ack, fuses, steering) resolved to
//! addresses and bit positions; equal enums merged; project-scoped enum names.

use crate::diag::{Code, Diagnostic, Pos};
use crate::ir::{
    ArrayIr, BitRange, CommandFieldIr, CommandIr, CounterIr, DomainIr, EnumIr, EnumValueIr,
    EventIr, FieldIr, FormatIr, FuseIr, GroupIr, InstanceIr, Ir, LayoutIr, MapRowIr, OpaqueRangeIr,
    RegisterIr, ScopedEnumIr, SteeringIr, TableIr, WakeIr,
};
use crate::model::{FusePolarity, Space};
use crate::projects::Catalogue;
use crate::resolve::{RBlock, RRegister};
use std::collections::{HashMap, HashSet};

fn text(s: &Option<String>) -> String {
    s.as_deref().unwrap_or("").trim().to_string()
}

/// Lowering state: the IR being built, the layout intern table and errors.
struct Lowering {
    ir: Ir,
    layouts: HashMap<(u32, bool, Vec<FieldIr>), usize>,
    names: HashSet<String>,
    errors: Vec<Diagnostic>,
}

impl Lowering {
    fn internal(&mut self, file: &str, pos: Pos, item: &str, message: String) {
        self.errors.push(Diagnostic {
            code: Code::UnknownReference,
            file: file.to_string(),
            pos,
            item: item.to_string(),
            message: format!("internal: {message} (validation should have reported this)"),
        });
    }

    /// The layout-deduplication pass: one [`LayoutIr`] per distinct
    /// `(width, masked, fields)`, named after the first register using it.
    fn intern(&mut self, r: &RRegister, project: usize, width: u32, fields: Vec<FieldIr>) -> usize {
        let key = (width, r.masked, fields);
        if let Some(&i) = self.layouts.get(&key) {
            return i;
        }
        let title = r.name.replace("{n}", "n");
        let base = title.to_ascii_lowercase();
        let mut name = base.clone();
        if self.names.contains(&name) {
            name = format!("{base}_{}", self.ir.catalogue.projects[project].name);
            let mut k = 2;
            while self.names.contains(&name) {
                name = format!("{base}_{k}");
                k += 1;
            }
        }
        let index = self.ir.layouts.len();
        self.names.insert(name.clone());
        self.ir.layouts.push(LayoutIr {
            name,
            title,
            width,
            masked: r.masked,
            fields: key.2.clone(),
        });
        self.layouts.insert(key, index);
        index
    }
}

/// Lower resolved blocks into the IR.
pub fn lower(blocks: &[RBlock], cat: &Catalogue) -> Result<Ir, Vec<Diagnostic>> {
    let mut l = Lowering {
        ir: Ir {
            catalogue: cat.clone(),
            ..Ir::default()
        },
        layouts: HashMap::new(),
        names: HashSet::new(),
        errors: Vec::new(),
    };
    lower_sections(blocks, &mut l.ir);
    lower_opaque(blocks, &mut l.ir);
    lower_commands(blocks, &mut l.ir);
    for b in blocks {
        let enum_base = l.ir.enums.len();
        for e in &b.enums {
            l.ir.enums.push(EnumIr {
                external: b.source.external,
                merged_into: None,
                name: e.name.clone(),
                description: text(&e.description),
                values: e
                    .values
                    .iter()
                    .map(|v| EnumValueIr {
                        name: v.name.clone(),
                        value: v.value,
                        description: text(&v.description),
                    })
                    .collect(),
            });
        }
        for r in &b.registers {
            lower_register(&mut l, b, r, enum_base);
        }
        for e in &b.events {
            if let Some(projects) = e.projects {
                l.ir.events.push(EventIr {
                    external: b.source.external,
                    counter: e.counter.clone(),
                    projects,
                    event: e.event.clone(),
                    description: text(&e.description),
                });
            }
        }
    }
    cross_reference(&mut l.ir);
    handshakes(blocks, &mut l);
    merge_equal_enums(&mut l.ir);
    scope_enums(&mut l.ir);
    if l.errors.is_empty() {
        Ok(l.ir)
    } else {
        Err(l.errors)
    }
}

fn lower_register(l: &mut Lowering, b: &RBlock, r: &RRegister, enum_base: usize) {
    let pos = b.source.index.node(&r.path);
    let (Some(projects), Some(width), Some(addrs), Some(resets)) =
        (r.projects, r.width, &r.address, &r.reset)
    else {
        l.internal(
            &b.source.name,
            pos,
            &r.name,
            "register without projects, width, address or reset".into(),
        );
        return;
    };
    let mut instances = Vec::new();
    for p in projects.iter() {
        let count = r.count_on(p);
        if count == 0 {
            continue;
        }
        let address = addrs.iter().find(|(s, _, _)| s.contains(p)).map(|x| x.1);
        let reset = resets.iter().find(|(s, _, _)| s.contains(p)).map(|x| x.1);
        let (Some(address), Some(reset)) = (address, reset) else {
            let project = &cat_name(&l.ir.catalogue, p);
            l.internal(
                &b.source.name,
                pos,
                &r.name,
                format!("no address or reset on {project}"),
            );
            continue;
        };
        let mut fields = Vec::new();
        for f in r
            .fields
            .iter()
            .filter(|f| f.projects.is_some_and(|s| s.contains(p)))
        {
            let (Some((msb, lsb)), Some(access)) = (f.bits, f.access) else {
                let fpos = b.source.index.node(&f.path);
                l.internal(
                    &b.source.name,
                    fpos,
                    &f.name,
                    "field without bits or access".into(),
                );
                continue;
            };
            fields.push(FieldIr {
                name: f.name.clone(),
                lsb,
                width: msb - lsb + 1,
                access,
                description: text(&f.description),
                note: text(&f.note),
                enum_index: f.enum_index.map(|i| i + enum_base),
            });
        }
        fields.sort_by_key(|f| f.lsb);
        let layout = l.intern(r, p, width, fields);
        instances.push(InstanceIr {
            project: p,
            address,
            reset,
            count,
            layout,
            domain: None,
            replication: None,
        });
    }
    if instances.is_empty() {
        return;
    }
    // Relative to the description folder, so generated text is the same in any checkout.
    let file = &b.source.rel_name;
    l.ir.registers.push(RegisterIr {
        name: r.name.clone(),
        block: b.block.clone(),
        space: b.space,
        document: b.document.clone(),
        defined_at: format!("{file}:{}:{}", pos.line, pos.column),
        title: text(&r.title),
        description: text(&r.description),
        prm: text(&r.prm),
        note: text(&r.note),
        width,
        masked: r.masked,
        array: r.array.map(|(_, stride)| ArrayIr { stride }),
        instances,
        external: b.source.external,
        config: r.config,
    });
}

fn cat_name(cat: &Catalogue, p: usize) -> String {
    cat.projects
        .get(p)
        .map_or_else(|| format!("project #{p}"), |x| x.name.clone())
}

/// Power domains, groups, map rows, formats and tables.
fn lower_sections(blocks: &[RBlock], ir: &mut Ir) {
    for b in blocks {
        let s = &b.sections;
        for d in &s.domains {
            for p in d.projects.iter() {
                ir.domains.push(DomainIr {
                    project: p,
                    name: d.name.clone(),
                    always_on: d.always_on,
                    request: d.request.clone(),
                    ack: d.ack.clone(),
                    wake: None,
                    external: b.source.external,
                    description: d.description.clone(),
                });
            }
        }
        for g in &s.groups {
            for p in g.projects.iter() {
                ir.groups.push(GroupIr {
                    project: p,
                    name: g.name.clone(),
                    instances: g.instances,
                    fuse: None,
                    external: b.source.external,
                    description: g.description.clone(),
                });
            }
        }
        for r in &s.rows {
            for p in r.projects.iter() {
                ir.map.push(MapRowIr {
                    external: b.source.external,
                    project: p,
                    start: r.start,
                    end: r.end,
                    wake: r.wake.clone(),
                    group: r.group.clone(),
                    instances: r.instances.unwrap_or(1),
                    steering: r.steering.clone(),
                });
            }
        }
        for f in &s.formats {
            let mut counters: Vec<CounterIr> = f
                .counters
                .iter()
                .map(|c| CounterIr {
                    name: c.name.clone(),
                    offset: c.offset,
                    bits: c.bits,
                    high_byte_offset: c.high_byte_offset,
                })
                .collect();
            counters.sort_by_key(|c| c.offset);
            for p in f.projects.iter() {
                ir.formats.push(FormatIr {
                    external: b.source.external,
                    project: p,
                    name: f.name.clone(),
                    select: f.select,
                    size: f.size,
                    description: f.description.clone(),
                    note: f.note.clone(),
                    counters: counters.clone(),
                });
            }
        }
        for t in &s.tables {
            ir.tables.push(TableIr {
                external: b.source.external,
                projects: t.projects,
                name: t.name.clone(),
                description: t.description.clone(),
                columns: t.columns.clone(),
                rows: t.rows.clone(),
            });
        }
    }
    ir.map.sort_by_key(|r| (r.project, r.start));
}

/// Opaque ranges, one per project, sorted by project and start, each with
/// the wake domain of the map row holding it (validation checked that one
/// row target covers the whole range).
fn lower_opaque(blocks: &[RBlock], ir: &mut Ir) {
    let mut out = Vec::new();
    for b in blocks {
        for o in &b.sections.opaque {
            let pos = b.source.index.node(&o.path);
            for p in o.projects.iter() {
                let domain = ir
                    .row_at(p, o.start)
                    .and_then(|r| r.wake.as_deref())
                    .and_then(|w| {
                        ir.domains
                            .iter()
                            .position(|d| d.project == p && d.name == w)
                    });
                out.push(OpaqueRangeIr {
                    project: p,
                    name: o.name.clone(),
                    start: o.start,
                    end: o.end,
                    config: o.config,
                    domain,
                    description: o.description.clone(),
                    note: o.note.clone(),
                    defined_at: format!("{}:{}:{}", b.source.rel_name, pos.line, pos.column),
                    external: b.source.external,
                });
            }
        }
    }
    out.sort_by_key(|r| (r.project, r.start));
    ir.opaque = out;
}

/// Commands, one per project: the dwords present there, renumbered, and
/// their fields with the project's constant values.
fn lower_commands(blocks: &[RBlock], ir: &mut Ir) {
    for b in blocks {
        for c in &b.sections.commands {
            let pos = b.source.index.node(&c.path);
            for p in c.projects.iter() {
                let mut fields = Vec::new();
                let present = c.dwords.iter().filter(|w| w.projects.contains(p));
                let mut dwords = 0;
                for (k, w) in present.enumerate() {
                    dwords = k as u32 + 1;
                    for f in w.fields.iter().filter(|f| f.projects.contains(p)) {
                        let Some((msb, lsb)) = f.bits else { continue };
                        let value = f
                            .value
                            .as_ref()
                            .and_then(|v| v.iter().find(|(s, _, _)| s.contains(p)))
                            .map(|x| x.1);
                        fields.push(CommandFieldIr {
                            name: f.name.clone(),
                            dword: k as u32,
                            lsb,
                            width: msb - lsb + 1,
                            value,
                            description: f.description.clone(),
                            note: f.note.clone(),
                        });
                    }
                }
                fields.sort_by_key(|f| (f.dword, f.lsb));
                ir.commands.push(CommandIr {
                    project: p,
                    name: c.name.clone(),
                    title: c.title.clone(),
                    description: c.description.clone(),
                    prm: c.prm.clone(),
                    note: c.note.clone(),
                    defined_at: format!("{}:{}:{}", b.source.rel_name, pos.line, pos.column),
                    external: b.source.external,
                    dwords,
                    fields,
                });
            }
        }
    }
}

/// Each MMIO instance's wake domain and replication group, from the map row
/// holding element 0 (validation checked that all elements agree). A power
/// domain's request register is written to wake the domain, so it needs no
/// force-wake itself (Linux i915 intel_uncore.c / intel_gt_regs.h), whatever its table row says.
fn cross_reference(ir: &mut Ir) {
    let domain_of: HashMap<(usize, &str), usize> = ir
        .domains
        .iter()
        .enumerate()
        .map(|(i, d)| ((d.project, d.name.as_str()), i))
        .collect();
    let group_of: HashMap<(usize, &str), usize> = ir
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| ((g.project, g.name.as_str()), i))
        .collect();
    let requests: Vec<(usize, &str)> = ir
        .domains
        .iter()
        .filter_map(|d| d.request.as_deref().map(|r| (d.project, r)))
        .collect();
    let mut found = Vec::new();
    for (ri, reg) in ir.registers.iter().enumerate() {
        if reg.space != Space::Mmio {
            continue;
        }
        for (ii, inst) in reg.instances.iter().enumerate() {
            let Some(row) = ir.row_at(inst.project, inst.address) else {
                continue;
            };
            let is_request = (0..inst.count).any(|n| {
                let name = reg.element_name(n);
                requests
                    .iter()
                    .any(|&(p, r)| p == inst.project && r == name)
            });
            let domain = if is_request {
                None
            } else {
                row.wake
                    .as_deref()
                    .and_then(|w| domain_of.get(&(inst.project, w)).copied())
            };
            let group = row
                .group
                .as_deref()
                .and_then(|g| group_of.get(&(inst.project, g)).copied());
            found.push((ri, ii, domain, group));
        }
    }
    for (ri, ii, domain, group) in found {
        let inst = &mut ir.registers[ri].instances[ii];
        inst.domain = domain;
        inst.replication = group;
    }
}

/// Request/ack registers, fuse mirrors and steering selectors resolved to
/// addresses and bit positions.
fn handshakes(blocks: &[RBlock], l: &mut Lowering) {
    // (project, element name) -> (address, layout, domain)
    let mut regs: HashMap<(usize, String), (u64, usize, Option<usize>)> = HashMap::new();
    for e in
        l.ir.catalogue
            .projects
            .iter()
            .enumerate()
            .flat_map(|(p, _)| {
                l.ir.elements(p).map(move |e| {
                    (
                        (p, e.name.clone()),
                        (e.address, e.instance.layout, e.instance.domain),
                    )
                })
            })
    {
        regs.insert(e.0, e.1);
    }
    let field = |ir: &Ir, layout: usize, name: &str| -> Option<BitRange> {
        ir.layouts[layout]
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| BitRange {
                lsb: f.lsb,
                width: f.width,
            })
    };
    let here = |name: &str| -> (String, Pos) {
        blocks
            .iter()
            .find_map(|b| {
                let s = &b.sections;
                let path = s
                    .domains
                    .iter()
                    .find(|d| d.name == name)
                    .map(|d| d.path.clone())
                    .or_else(|| {
                        s.groups
                            .iter()
                            .find(|g| g.name == name)
                            .map(|g| g.path.clone())
                    })
                    .or_else(|| s.steering.iter().find(|x| x.2 == name).map(|x| x.0.clone()))?;
                Some((b.source.name.clone(), b.source.index.node(&path)))
            })
            .unwrap_or_else(|| ("<input>".into(), Pos { line: 1, column: 1 }))
    };
    let mut wake_index: HashMap<usize, usize> = HashMap::new();
    for di in 0..l.ir.domains.len() {
        let d = &l.ir.domains[di];
        if d.always_on {
            continue;
        }
        let (p, name) = (d.project, d.name.clone());
        let req = d.request.as_ref().and_then(|r| regs.get(&(p, r.clone())));
        let ack = d.ack.as_ref().and_then(|r| regs.get(&(p, r.clone())));
        let bit = req.and_then(|r| field(&l.ir, r.1, "kernel"));
        match (req, ack, bit) {
            (Some(req), Some(ack), Some(bit)) => {
                let n = wake_index.entry(p).or_insert(0);
                l.ir.domains[di].wake = Some(WakeIr {
                    index: *n,
                    request: req.0,
                    ack: ack.0,
                    bit: bit.lsb,
                });
                *n += 1;
            }
            _ => {
                let (file, pos) = here(&name);
                l.internal(
                    &file,
                    pos,
                    &name,
                    "request register with a `kernel` field, or ack register, missing".into(),
                );
            }
        }
    }
    let mut fuses = Vec::new();
    for b in blocks {
        for g in &b.sections.groups {
            let Some((reg, fname, pol)) = &g.fuse else {
                continue;
            };
            for p in g.projects.iter() {
                let got = regs
                    .get(&(p, reg.clone()))
                    .and_then(|r| field(&l.ir, r.1, fname).map(|f| (r, f)));
                let Some((r, f)) = got else {
                    let pos = b.source.index.node(&g.path);
                    l.internal(
                        &b.source.name,
                        pos,
                        &g.name,
                        format!("fuse `{reg}.{fname}` missing"),
                    );
                    continue;
                };
                let gi =
                    l.ir.groups
                        .iter()
                        .position(|x| x.project == p && x.name == g.name);
                fuses.push((
                    gi,
                    FuseIr {
                        register: reg.clone(),
                        field: fname.clone(),
                        address: r.0,
                        lsb: f.lsb,
                        width: f.width,
                        set_means_present: *pol == FusePolarity::Enable,
                        domain: r.2,
                    },
                ));
            }
        }
    }
    for (gi, fuse) in fuses {
        if let Some(gi) = gi {
            l.ir.groups[gi].fuse = Some(fuse);
        }
    }
    for b in blocks {
        for (path, set, reg) in &b.sections.steering {
            for p in set.iter() {
                let got = regs.get(&(p, reg.clone())).and_then(|r| {
                    let mc = field(&l.ir, r.1, "multicast")?;
                    let slice = field(&l.ir, r.1, "slice_id")?;
                    let subslice = field(&l.ir, r.1, "subslice_id")?;
                    Some((*r, mc, slice, subslice))
                });
                let Some(((address, _, own_domain), mc, slice, subslice)) = got else {
                    let pos = b.source.index.node(path);
                    l.internal(
                        &b.source.name,
                        pos,
                        reg,
                        "steering selector fields missing".into(),
                    );
                    continue;
                };
                let fuse_domain =
                    l.ir.groups
                        .iter()
                        .filter(|g| g.project == p)
                        .find_map(|g| g.fuse.as_ref().map(|f| f.domain));
                l.ir.steering.push(SteeringIr {
                    project: p,
                    register: reg.clone(),
                    address,
                    multicast_mask: ((1u64 << mc.width) - 1) << mc.lsb,
                    slice,
                    subslice,
                    domain: fuse_domain.unwrap_or(own_domain),
                });
            }
        }
    }
}

/// CamelCase words of a name (`BufferSizeSnbIvb` -> Buffer, Size, Snb, Ivb).
fn camel_words(name: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = 0;
    for (i, c) in name.char_indices().skip(1) {
        if c.is_ascii_uppercase() {
            words.push(&name[start..i]);
            start = i;
        }
    }
    words.push(&name[start..]);
    words
}

/// The enum name without the project words at its start or end
/// (`ReportFormatHsw`, `BdwReportFormat` -> `ReportFormat`).
fn unscoped(name: &str, projects: &[String]) -> String {
    let words = camel_words(name);
    let is_project = |w: &str| projects.iter().any(|p| p.eq_ignore_ascii_case(w));
    let mut a = 0;
    let mut b = words.len();
    while b > a + 1 && is_project(words[b - 1]) {
        b -= 1;
    }
    while b > a + 1 && is_project(words[a]) {
        a += 1;
    }
    words[a..b].concat()
}

/// The catalogue's project tags, for [`unscoped`].
fn project_names(ir: &Ir) -> Vec<String> {
    ir.catalogue
        .projects
        .iter()
        .map(|p| p.name.clone())
        .collect()
}

/// Enums with the same project-free name and the same encodings are one
/// type: fields of the later ones are pointed at the first (the later ones
/// stay in the list, unused, so indices do not move; emission skips them).
fn merge_equal_enums(ir: &mut Ir) {
    let projects = project_names(ir);
    let mut remap: Vec<usize> = (0..ir.enums.len()).collect();
    for j in 0..ir.enums.len() {
        for i in 0..j {
            if remap[i] == i
                && ir.enums[i].external == ir.enums[j].external
                && ir.enums[i].values == ir.enums[j].values
                && unscoped(&ir.enums[i].name, &projects) == unscoped(&ir.enums[j].name, &projects)
            {
                remap[j] = i;
                break;
            }
        }
    }
    for l in &mut ir.layouts {
        for f in &mut l.fields {
            if let Some(e) = f.enum_index.as_mut() {
                *e = remap[*e];
            }
        }
    }
    for (j, &i) in remap.iter().enumerate() {
        if i != j {
            ir.enums[j].merged_into = Some(i);
        }
    }
    // A merged type is shared by several projects: it takes the project-free
    // name where no other enum has it (`BdwMemorySelect` + `MemorySelect`
    // -> `MemorySelect`).
    for (i, _) in remap.iter().enumerate().filter(|&(i, &r)| r == i) {
        if !remap.iter().enumerate().any(|(j, &r)| r == i && j != i) {
            continue;
        }
        let name = unscoped(&ir.enums[i].name, &projects);
        let taken = ir
            .enums
            .iter()
            .enumerate()
            .any(|(k, e)| remap[k] != i && e.name == name);
        if !taken {
            ir.enums[i].name = name;
        }
    }
}

/// The project-scoped name of every enum each project's registers use: the
/// enum's name without project words, or its full name where two enums of
/// one project would share a scoped name.
fn scope_enums(ir: &mut Ir) {
    let projects = project_names(ir);
    for p in 0..projects.len() {
        let mut used: Vec<usize> = ir
            .on_project(p)
            .filter(|(r, _)| !r.external)
            .flat_map(|(_, i)| ir.layouts[i.layout].fields.iter())
            .filter_map(|f| f.enum_index)
            .collect();
        used.sort_unstable();
        used.dedup();
        let names: Vec<String> = used
            .iter()
            .map(|&e| unscoped(&ir.enums[e].name, &projects))
            .collect();
        for (k, &e) in used.iter().enumerate() {
            let clash = names.iter().filter(|n| **n == names[k]).count() > 1;
            let name = if clash {
                ir.enums[e].name.clone()
            } else {
                names[k].clone()
            };
            ir.scoped_enums.push(ScopedEnumIr {
                project: p,
                enum_index: e,
                name,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::unscoped;

    #[test]
    fn project_words_are_stripped_at_either_end() {
        let p: Vec<String> = ["snb", "ivb", "hsw", "bdw", "tgl", "p4"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(unscoped("ReportFormatHsw", &p), "ReportFormat");
        assert_eq!(unscoped("BdwReportFormat", &p), "ReportFormat");
        assert_eq!(unscoped("BufferSizeSnbIvb", &p), "BufferSize");
        assert_eq!(unscoped("P4CccrComplement", &p), "CccrComplement");
        // A name that is only project words keeps its first word.
        assert_eq!(unscoped("HswTgl", &p), "Hsw");
        assert_eq!(unscoped("TimerEnable", &p), "TimerEnable");
    }
}
