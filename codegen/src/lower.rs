//! Lowering: validated, resolved blocks -> [`Ir`]. Runs only when validation
//! reported nothing, so missing pieces here are skipped rather than reported.

use crate::ir::{EnumIr, EventIr, FieldIr, InstanceIr, Ir, RegisterIr};
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
    ir
}
