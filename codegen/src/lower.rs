//! Lowering: checked blocks ([`crate::validate::checked`]) -> [`Ir`].
//!
//! What validation proved arrives in the checked types and is not looked
//! up again: every register's width and, per project, its address, reset
//! and element count (PR114 map coverage, PR123 counts); every field's bits,
//! access and projects; every power domain either always on or with request
//! and ack registers and the section's `request_field`; every command
//! field's bits.
//!
//! Assumes, beyond the checked types, what the cross-reference passes proved
//! but lowering still resolves by name against the IR it builds: the request,
//! ack, fuse and steering registers named by a section exist on each project
//! of the section with the fields they name (`request_field`, the fuse's
//! `field`, the steering's `multicast`/`slice`/`subslice`; PR125); every
//! map row's `wake` and `group` name a domain and group of the row's project
//! (PR125); array elements of one project lie in rows with the same wake
//! target and group (PR127). Should one of these lookups still fail,
//! lowering reports an internal error at the item instead of guessing:
//! nothing here falls back to a default. An MMIO register or opaque range
//! outside every address-map row has no wake domain and no replication group
//! (the schema's rule, not a fallback).
//!
//! Passes, in order: sections (domains, groups, rows sorted by project and
//! start, formats, tables), opaque ranges and commands; per block its enums
//! and registers (one per description entry, arrays kept with their
//! per-project count), with the layout-deduplication pass interning each
//! project's field list; cross references (each instance's wake domain and
//! replication group from the address map); the handshakes (request/ack,
//! fuses, steering) resolved to addresses and bit positions; equal enums
//! merged; project-scoped enum names.

use crate::diag::{Diagnostic, Pos};
use crate::ir::{
    ArrayIr, BitRange, CommandFieldIr, CommandIr, CounterIr, DomainIr, EnumIr, EnumValueIr,
    EventIr, FieldIr, FormatIr, FuseIr, GroupIr, InstanceIr, Ir, LayoutIr, MapRowIr, OpaqueRangeIr,
    RegisterIr, ScopedEnumIr, SelectorIr, SemaphoreIr, SteeringIr, TableIr, WakeIr, WAKE_SEP,
};
use crate::model::{FusePolarity, Space};
use crate::projects::{Catalogue, ProjectSet};
use crate::sections::RGroupSteering;
use crate::validate::checked::{VBlock, VRegister, Wake};
use std::collections::{HashMap, HashSet};

fn text(s: &Option<String>) -> String {
    s.as_deref().unwrap_or("").trim().to_string()
}

/// Where an IR item is described: file (as diagnostics name it) and position.
type Site = (String, Pos);

/// A group's fuse mirror as described: `(register, field, polarity)`.
type FuseRef = (String, String, FusePolarity);

/// Lowering state: the IR being built, the layout intern table, where each
/// domain, group and register was described (parallel to the IR's lists,
/// for internal errors) and the errors.
struct Lowering {
    ir: Ir,
    layouts: HashMap<(u32, bool, Vec<FieldIr>), usize>,
    names: HashSet<String>,
    /// Per `ir.domains` entry: its site and, for a woken domain, the request
    /// register's request-bit field.
    domain_sites: Vec<(Site, Option<String>)>,
    /// Per `ir.groups` entry: its site, its fuse mirror
    /// `(register, field, polarity)` and its own steering selector.
    group_sites: Vec<(Site, Option<FuseRef>, Option<RGroupSteering>)>,
    /// Per `ir.registers` entry: its site.
    register_sites: Vec<Site>,
    errors: Vec<Diagnostic>,
}

impl Lowering {
    fn internal(&mut self, (file, pos): &Site, item: &str, message: String) {
        let d = Diagnostic::internal(file, *pos, item, &message);
        self.errors.push(d);
    }

    /// The layout-deduplication pass: one [`LayoutIr`] per distinct
    /// `(width, masked, fields)`, named after the first register using it.
    fn intern(&mut self, r: &VRegister, project: usize, fields: Vec<FieldIr>) -> usize {
        let key = (r.width, r.reg.masked, fields);
        if let Some(&i) = self.layouts.get(&key) {
            return i;
        }
        let title = r.reg.name.replace("{n}", "n");
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
            width: r.width,
            masked: r.reg.masked,
            fields: key.2.clone(),
        });
        self.layouts.insert(key, index);
        index
    }
}

/// Lower checked blocks into the IR.
pub fn lower(blocks: &[VBlock], cat: &Catalogue) -> Result<Ir, Vec<Diagnostic>> {
    let mut l = Lowering {
        ir: Ir {
            catalogue: cat.clone(),
            ..Ir::default()
        },
        layouts: HashMap::new(),
        names: HashSet::new(),
        domain_sites: Vec::new(),
        group_sites: Vec::new(),
        register_sites: Vec::new(),
        errors: Vec::new(),
    };
    lower_sections(blocks, &mut l);
    lower_opaque(blocks, &mut l);
    lower_commands(blocks, &mut l);
    for vb in blocks {
        let b = vb.block;
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
        for r in &vb.registers {
            lower_register(&mut l, vb, r, enum_base);
        }
        for e in &vb.events {
            l.ir.events.push(EventIr {
                external: b.source.external,
                counter: e.event.counter.clone(),
                projects: e.projects,
                event: e.event.event.clone(),
                description: text(&e.event.description),
            });
        }
    }
    cross_reference(&mut l);
    handshakes(blocks, &mut l);
    merge_equal_enums(&mut l.ir);
    scope_enums(&mut l.ir);
    if l.errors.is_empty() {
        Ok(l.ir)
    } else {
        Err(l.errors)
    }
}

fn lower_register(l: &mut Lowering, vb: &VBlock, r: &VRegister, enum_base: usize) {
    let b = vb.block;
    let pos = b.source.index.node(&r.reg.path);
    let mut instances = Vec::new();
    for at in &r.on {
        let p = at.project;
        let mut fields: Vec<FieldIr> = r
            .fields
            .iter()
            .filter(|f| f.projects.contains(p))
            .map(|f| FieldIr {
                name: f.field.name.clone(),
                lsb: f.lsb,
                width: f.msb - f.lsb + 1,
                access: f.access,
                description: text(&f.field.description),
                note: text(&f.field.note),
                enum_index: f.field.enum_index.map(|i| i + enum_base),
                address: f.field.address,
            })
            .collect();
        fields.sort_by_key(|f| f.lsb);
        let layout = l.intern(r, p, fields);
        instances.push(InstanceIr {
            project: p,
            address: at.address,
            reset: at.reset,
            count: at.count,
            layout,
            domain: None,
            domain2: None,
            replication: None,
        });
    }
    // Relative to the description folder, so generated text is the same in any checkout.
    let file = &b.source.rel_name;
    let reg = r.reg;
    l.register_sites.push((b.source.name.clone(), pos));
    l.ir.registers.push(RegisterIr {
        name: reg.name.clone(),
        block: b.block.clone(),
        space: b.space,
        document: b.document.clone(),
        defined_at: format!("{file}:{}:{}", pos.line, pos.column),
        title: text(&reg.title),
        description: text(&reg.description),
        prm: text(&reg.prm),
        note: text(&reg.note),
        width: r.width,
        masked: reg.masked,
        array: reg.array.map(|(_, stride)| ArrayIr { stride }),
        instances,
        external: b.source.external,
        config: reg.config,
    });
}

/// Power domains, groups, map rows, formats and tables.
fn lower_sections(blocks: &[VBlock], l: &mut Lowering) {
    for vb in blocks {
        let b = vb.block;
        let s = &b.sections;
        let site = |path: &str| (b.source.name.clone(), b.source.index.node(path));
        for d in &vb.domains {
            let (request, ack, field) = match d.wake {
                Wake::AlwaysOn => (None, None, None),
                Wake::Handshake {
                    request,
                    ack,
                    request_field,
                } => (
                    Some(request.to_string()),
                    Some(ack.to_string()),
                    Some(request_field.to_string()),
                ),
            };
            let d = d.domain;
            for p in d.projects.iter() {
                l.domain_sites.push((site(&d.path), field.clone()));
                l.ir.domains.push(DomainIr {
                    project: p,
                    name: d.name.clone(),
                    always_on: d.always_on,
                    request: request.clone(),
                    ack: ack.clone(),
                    wake: None,
                    external: b.source.external,
                    description: d.description.clone(),
                });
            }
        }
        for g in &s.groups {
            for p in g.projects.iter() {
                l.group_sites
                    .push((site(&g.path), g.fuse.clone(), g.steering.clone()));
                l.ir.groups.push(GroupIr {
                    project: p,
                    name: g.name.clone(),
                    instances: g.instances,
                    fuse: None,
                    per_group: g.per_group,
                    selector: None,
                    external: b.source.external,
                    description: g.description.clone(),
                });
            }
        }
        let ir = &mut l.ir;
        for r in &s.rows {
            for p in r.projects.iter() {
                ir.map.push(MapRowIr {
                    external: b.source.external,
                    project: p,
                    start: r.start,
                    end: r.end,
                    wake: (!r.wake.is_empty()).then(|| r.wake.join(&WAKE_SEP.to_string())),
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
    l.ir.map.sort_by_key(|r| (r.project, r.start));
    canonical_wake(&mut l.ir);
}

/// The wake domains of the map row holding `addr` on project `p`: the
/// first and, for a row that wakes two, the second (`(None, None)` outside
/// every row or in a row without one), or the name of a wake target that
/// is not a domain of the project.
fn wake_at(ir: &Ir, p: usize, addr: u64) -> Result<(Option<usize>, Option<usize>), String> {
    let Some(w) = ir.row_at(p, addr).and_then(|r| r.wake.as_deref()) else {
        return Ok((None, None));
    };
    let find = |name: &str| {
        ir.domains
            .iter()
            .position(|d| d.project == p && d.name == name)
            .ok_or_else(|| name.to_string())
    };
    let mut names = w.split(WAKE_SEP);
    let first = names.next().map(find).transpose()?;
    let second = names.next().map(find).transpose()?;
    Ok((first, second))
}

/// Two-domain wake targets in the project's declaration order of the
/// domains (`render+media` however the row lists them), so one pair has
/// one name and one HAL type.
fn canonical_wake(ir: &mut Ir) {
    let order = |ir: &Ir, p: usize, name: &str| {
        ir.domains
            .iter()
            .position(|d| d.project == p && d.name == name)
    };
    for i in 0..ir.map.len() {
        let (p, Some(w)) = (ir.map[i].project, ir.map[i].wake.clone()) else {
            continue;
        };
        let mut names: Vec<&str> = w.split(WAKE_SEP).collect();
        if names.len() < 2 {
            continue;
        }
        names.sort_by_key(|n| order(ir, p, n));
        ir.map[i].wake = Some(names.join(&WAKE_SEP.to_string()));
    }
}

/// Opaque ranges, one per project, sorted by project and start, each with
/// the wake domain of the map row holding it (validation checked that one
/// row target covers the whole range).
fn lower_opaque(blocks: &[VBlock], l: &mut Lowering) {
    let mut out = Vec::new();
    for b in blocks.iter().map(|vb| vb.block) {
        for o in &b.sections.opaque {
            let pos = b.source.index.node(&o.path);
            for p in o.projects.iter() {
                let (domain, domain2) = match wake_at(&l.ir, p, o.start) {
                    Ok(d) => d,
                    Err(w) => {
                        let site = (b.source.name.clone(), pos);
                        l.internal(&site, &o.name, format!("no power domain `{w}`"));
                        (None, None)
                    }
                };
                out.push(OpaqueRangeIr {
                    project: p,
                    name: o.name.clone(),
                    start: o.start,
                    end: o.end,
                    config: o.config,
                    domain,
                    domain2,
                    description: o.description.clone(),
                    note: o.note.clone(),
                    defined_at: format!("{}:{}:{}", b.source.rel_name, pos.line, pos.column),
                    external: b.source.external,
                });
            }
        }
    }
    out.sort_by_key(|r| (r.project, r.start));
    l.ir.opaque = out;
}

/// Commands, one per project: the dwords present there, renumbered, and
/// their fields with the project's constant values.
fn lower_commands(blocks: &[VBlock], l: &mut Lowering) {
    for vb in blocks {
        let b = vb.block;
        for vc in &vb.commands {
            let c = vc.command;
            let pos = b.source.index.node(&c.path);
            for p in c.projects.iter() {
                let mut fields = Vec::new();
                let present = vc.dwords.iter().filter(|(w, _)| w.projects.contains(p));
                let mut dwords = 0;
                for (k, (_, wfields)) in present.enumerate() {
                    dwords = k as u32 + 1;
                    for vf in wfields.iter().filter(|f| f.field.projects.contains(p)) {
                        let f = vf.field;
                        // PR114: a value map covers the field's projects.
                        let value = match &f.value {
                            None => None,
                            Some(v) => match v.iter().find(|(s, _, _)| s.contains(p)) {
                                Some(x) => Some(x.1),
                                None => {
                                    let site = (b.source.name.clone(), pos);
                                    let item = format!("{}.{}", c.name, f.name);
                                    let what = format!(
                                        "no value on {}",
                                        l.ir.catalogue.names(ProjectSet(1 << p))
                                    );
                                    l.internal(&site, &item, what);
                                    continue;
                                }
                            },
                        };
                        fields.push(CommandFieldIr {
                            name: f.name.clone(),
                            dword: k as u32,
                            lsb: vf.lsb,
                            width: vf.msb - vf.lsb + 1,
                            value,
                            description: f.description.clone(),
                            note: f.note.clone(),
                        });
                    }
                }
                fields.sort_by_key(|f| (f.dword, f.lsb));
                l.ir.commands.push(CommandIr {
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
/// holding element 0 (validation checked that all elements agree); outside
/// every row, neither. A power domain's request register is written to wake
/// the domain, so it needs no force-wake itself (Linux i915 intel_uncore.c /
/// intel_gt_regs.h), whatever its table row says.
fn cross_reference(l: &mut Lowering) {
    let ir = &l.ir;
    let requests: HashSet<(usize, &str)> = ir
        .domains
        .iter()
        .filter_map(|d| d.request.as_deref().map(|r| (d.project, r)))
        .collect();
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for (ri, reg) in ir.registers.iter().enumerate() {
        if reg.space != Space::Mmio {
            continue;
        }
        for (ii, inst) in reg.instances.iter().enumerate() {
            let p = inst.project;
            let is_request =
                (0..inst.count).any(|n| requests.contains(&(p, reg.element_name(n).as_str())));
            let domain = match wake_at(ir, p, inst.address) {
                Ok(d) if !is_request => d,
                Ok(_) => (None, None),
                Err(w) => {
                    missing.push((ri, format!("no power domain `{w}`")));
                    (None, None)
                }
            };
            let group = ir
                .row_at(p, inst.address)
                .and_then(|r| r.group.as_deref())
                .and_then(|g| {
                    let i = ir.groups.iter().position(|x| x.project == p && x.name == g);
                    if i.is_none() {
                        missing.push((ri, format!("no replication group `{g}`")));
                    }
                    i
                });
            found.push((ri, ii, domain, group));
        }
    }
    for (ri, ii, domain, group) in found {
        let inst = &mut l.ir.registers[ri].instances[ii];
        (inst.domain, inst.domain2) = domain;
        inst.replication = group;
    }
    for (ri, message) in missing {
        let site = l.register_sites[ri].clone();
        let name = l.ir.registers[ri].name.clone();
        l.internal(&site, &name, message);
    }
}

/// Request/ack registers, fuse mirrors and steering selectors resolved to
/// addresses and bit positions, through the fields the sections name.
fn handshakes(blocks: &[VBlock], l: &mut Lowering) {
    // (project, element name) -> (address, layout, domain)
    let mut regs: HashMap<(usize, String), (u64, usize, Option<usize>)> = HashMap::new();
    for p in 0..l.ir.catalogue.projects.len() {
        for e in l.ir.elements(p) {
            regs.insert(
                (p, e.name.clone()),
                (e.address, e.instance.layout, e.instance.domain),
            );
        }
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
    let mut wake_index: HashMap<usize, usize> = HashMap::new();
    for di in 0..l.ir.domains.len() {
        let d = &l.ir.domains[di];
        let (site, request_field) = &l.domain_sites[di];
        let (Some(request), Some(ack), Some(request_field)) = (&d.request, &d.ack, request_field)
        else {
            continue; // always on
        };
        let p = d.project;
        let req = regs.get(&(p, request.clone()));
        let ack = regs.get(&(p, ack.clone()));
        let bit = req.and_then(|r| field(&l.ir, r.1, request_field));
        let (Some(req), Some(ack), Some(bit)) = (req, ack, bit) else {
            let (site, name) = (site.clone(), d.name.clone());
            let message = format!(
                "request register with a `{request_field}` field, or ack register, missing"
            );
            l.internal(&site, &name, message);
            continue;
        };
        let n = wake_index.entry(p).or_insert(0);
        l.ir.domains[di].wake = Some(WakeIr {
            index: *n,
            request: req.0,
            masked: l.ir.layouts[req.1].masked,
            ack: ack.0,
            bit: bit.lsb,
        });
        *n += 1;
    }
    for gi in 0..l.ir.groups.len() {
        let (site, fuse, _) = &l.group_sites[gi];
        let Some((reg, fname, pol)) = fuse else {
            continue;
        };
        let g = &l.ir.groups[gi];
        let got = regs
            .get(&(g.project, reg.clone()))
            .and_then(|r| field(&l.ir, r.1, fname).map(|f| (r, f)));
        let Some((r, f)) = got else {
            let (site, name) = (site.clone(), g.name.clone());
            l.internal(&site, &name, format!("fuse `{reg}.{fname}` missing"));
            continue;
        };
        l.ir.groups[gi].fuse = Some(FuseIr {
            register: reg.clone(),
            field: fname.clone(),
            address: r.0,
            lsb: f.lsb,
            width: f.width,
            set_means_present: *pol == FusePolarity::Enable,
            domain: r.2,
        });
    }
    // A semaphore `(register, field)` on project `p`, resolved.
    let semaphore = |ir: &Ir, p: usize, (reg, f): &(String, String)| -> Option<SemaphoreIr> {
        let r = regs.get(&(p, reg.clone()))?;
        Some(SemaphoreIr {
            register: reg.clone(),
            address: r.0,
            bit: field(ir, r.1, f)?.lsb,
        })
    };
    // The selector `reg` with the fields of `roles` on project `p`:
    // (address, own domain, multicast, slice, subslice).
    type Sel = (u64, Option<usize>, Option<BitRange>, BitRange, BitRange);
    let selector = |ir: &Ir, p: usize, reg: &str, roles: &[(&str, String)]| -> Option<Sel> {
        let r = regs.get(&(p, reg.to_string()))?;
        let role = |name: &str| roles.iter().find(|(k, _)| *k == name);
        // No multicast role: the selector has no multicast bit (mask 0).
        let mc = match role("multicast") {
            Some((_, f)) => Some(field(ir, r.1, f)?),
            None => None,
        };
        let slice = field(ir, r.1, &role("slice")?.1)?;
        let subslice = field(ir, r.1, &role("subslice")?.1)?;
        Some((r.0, r.2, mc, slice, subslice))
    };
    let mask = |mc: Option<BitRange>| mc.map_or(0, |mc| ((1u64 << mc.width) - 1) << mc.lsb);
    for b in blocks.iter().map(|vb| vb.block) {
        for st in &b.sections.steering {
            let reg = &st.register;
            let site = (b.source.name.clone(), b.source.index.node(&st.path));
            for p in st.projects.iter() {
                let Some((address, own_domain, mc, slice, subslice)) =
                    selector(&l.ir, p, reg, &st.roles)
                else {
                    l.internal(&site, reg, "steering selector fields missing".into());
                    continue;
                };
                let sem = match &st.semaphore {
                    None => None,
                    Some(s) => match semaphore(&l.ir, p, s) {
                        Some(x) => Some(x),
                        None => {
                            l.internal(&site, &s.0, "steering semaphore field missing".into());
                            continue;
                        }
                    },
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
                    multicast_mask: mask(mc),
                    slice,
                    subslice,
                    domain: fuse_domain.unwrap_or(own_domain),
                    semaphore: sem,
                });
            }
        }
    }
    for gi in 0..l.ir.groups.len() {
        let (site, _, own) = &l.group_sites[gi];
        let Some(gs) = own else { continue };
        let p = l.ir.groups[gi].project;
        let got = selector(&l.ir, p, &gs.register, &gs.roles).and_then(|s| {
            let sem = match &gs.semaphore {
                None => None,
                Some(x) => Some(semaphore(&l.ir, p, x)?),
            };
            Some((s, sem))
        });
        let Some(((address, _, mc, slice, subslice), sem)) = got else {
            let (site, name) = (site.clone(), gs.register.clone());
            l.internal(
                &site,
                &name,
                "group steering selector or semaphore missing".into(),
            );
            continue;
        };
        l.ir.groups[gi].selector = Some(SelectorIr {
            register: gs.register.clone(),
            address,
            multicast_mask: mask(mc),
            slice,
            subslice,
            semaphore: sem,
        });
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
