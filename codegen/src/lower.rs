//! Lowering: validated, resolved blocks -> [`Ir`]. Runs only when validation
//! reported nothing, so missing pieces here are skipped rather than reported.

use crate::ir::{
    CounterIr, DomainIr, EnumIr, EventIr, FieldIr, FormatIr, GroupIr, InstanceIr, Ir, MapRowIr,
    RegisterIr, TableIr,
};
use crate::model::Space;
use crate::projects::Catalogue;
use crate::resolve::RBlock;

fn text(s: &Option<String>) -> String {
    s.as_deref().unwrap_or("").trim().to_string()
}

/// Lower resolved blocks into the IR.
pub fn lower(blocks: &[RBlock], cat: &Catalogue) -> Ir {
    let mut ir = Ir {
        catalogue: cat.clone(),
        ..Ir::default()
    };
    for b in blocks {
        let enum_base = ir.enums.len();
        for e in &b.enums {
            ir.enums.push(EnumIr {
                name: e.name.clone(),
                description: text(&e.description),
                values: e
                    .values
                    .iter()
                    .map(|v| (v.name.clone(), v.value, text(&v.description)))
                    .collect(),
            });
        }
        for r in &b.registers {
            let (Some(projects), Some(width), Some(addrs), Some(resets)) =
                (r.projects, r.width, &r.address, &r.reset)
            else {
                continue;
            };
            let (count, stride) = r.array.unwrap_or((1, 0));
            let pos = b.source.index.node(&r.path);
            for n in 0..count {
                let sub = |s: String| s.replace("{n}", &n.to_string());
                let mut instances = Vec::new();
                for p in projects.iter().filter(|&p| n < r.count_on(p)) {
                    let Some(address) = addrs.iter().find(|(s, _, _)| s.contains(p)).map(|x| x.1)
                    else {
                        continue;
                    };
                    let reset = resets
                        .iter()
                        .find(|(s, _, _)| s.contains(p))
                        .map(|x| x.1)
                        .unwrap_or(0);
                    let mut fields: Vec<FieldIr> = r
                        .fields
                        .iter()
                        .filter(|f| f.projects.is_some_and(|s| s.contains(p)))
                        .filter_map(|f| {
                            let (msb, lsb) = f.bits?;
                            Some(FieldIr {
                                name: f.name.clone(),
                                lsb,
                                width: msb - lsb + 1,
                                access: f.access?,
                                description: sub(text(&f.description)),
                                note: text(&f.note),
                                enum_index: f.enum_index.map(|i| i + enum_base),
                            })
                        })
                        .collect();
                    fields.sort_by_key(|f| f.lsb);
                    instances.push(InstanceIr {
                        project: p,
                        address: address.wrapping_add(u64::from(n).wrapping_mul(stride)),
                        reset,
                        fields,
                        domain: None,
                        replication: None,
                    });
                }
                if instances.is_empty() {
                    continue;
                }
                ir.registers.push(RegisterIr {
                    name: sub(r.name.clone()),
                    block: b.block.clone(),
                    space: b.space,
                    document: b.document.clone(),
                    defined_at: format!("{}:{}:{}", b.source.name, pos.line, pos.column),
                    title: sub(text(&r.title)),
                    description: sub(text(&r.description)),
                    prm: text(&r.prm),
                    note: text(&r.note),
                    width,
                    masked: r.masked,
                    array: r.array.map(|(c, s)| (r.name.clone(), n, c, s)),
                    instances,
                });
            }
        }
        for e in &b.events {
            if let Some(projects) = e.projects {
                ir.events.push(EventIr {
                    counter: e.counter.clone(),
                    projects,
                    event: e.event.clone(),
                    description: text(&e.description),
                });
            }
        }
    }
    lower_sections(blocks, &mut ir);
    ir
}

/// Power domains, groups, map rows, formats and tables, then the registers'
/// wake domain and replication group from the map rows.
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
                    fuse: g.fuse.clone(),
                    description: g.description.clone(),
                });
            }
        }
        for r in &s.rows {
            for p in r.projects.iter() {
                ir.map.push(MapRowIr {
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
        for (_, set, reg) in &s.steering {
            ir.steering.extend(set.iter().map(|p| (p, reg.clone())));
        }
        for t in &s.tables {
            ir.tables.push(TableIr {
                projects: t.projects,
                name: t.name.clone(),
                description: t.description.clone(),
                columns: t.columns.clone(),
                rows: t.rows.clone(),
            });
        }
    }
    ir.map.sort_by_key(|r| (r.project, r.start));
    let map = std::mem::take(&mut ir.map);
    // A power domain's request register is written to wake the domain, so it
    // needs no force-wake itself (facts section 2), whatever its table row says.
    let requests: Vec<(usize, String)> = ir
        .domains
        .iter()
        .filter_map(|d| d.request.clone().map(|r| (d.project, r)))
        .collect();
    for reg in ir.registers.iter_mut().filter(|r| r.space == Space::Mmio) {
        for inst in &mut reg.instances {
            let at = inst.address;
            if let Some(row) = map
                .iter()
                .find(|r| r.project == inst.project && r.start <= at && at <= r.end)
            {
                let is_request = requests
                    .iter()
                    .any(|(p, n)| *p == inst.project && *n == reg.name);
                inst.domain = if is_request { None } else { row.wake.clone() };
                inst.replication = row.group.clone().map(|g| (g, row.instances));
            }
        }
    }
    ir.map = map;
}
