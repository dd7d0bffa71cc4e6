//! `perfregs dump <project> --json`: the compiled view of one project.

use hal::meta::{ProjectInfo, SpaceKind};
use serde_json::{json, Value};

fn space(s: SpaceKind) -> &'static str {
    match s {
        SpaceKind::Mmio => "mmio",
        SpaceKind::Msr => "msr",
        SpaceKind::Pci => "pci",
    }
}

/// The project as JSON (shape documented in the README).
pub fn project_json(p: &ProjectInfo) -> Value {
    let registers: Vec<Value> = p
        .registers
        .iter()
        .map(|r| {
            let fields: Vec<Value> = r
                .fields
                .iter()
                .map(|f| {
                    json!({
                        "name": f.name,
                        "lsb": f.lsb,
                        "msb": f.lsb + f.width - 1,
                        "access": f.access.as_str(),
                        "reset": f.extract(r.reset),
                    })
                })
                .collect();
            json!({
                "name": r.name,
                "block": r.block,
                "space": space(r.space),
                "address": r.address,
                "width": r.width,
                "reset": r.reset,
                "masked": r.masked,
                "domain": r.domain,
                "replication": r.replication.map(|(g, n)| json!({"group": g, "instances": n})),
                "fields": fields,
            })
        })
        .collect();
    let forcewake: Vec<Value> = p
        .map
        .iter()
        .map(|row| json!({"start": row.start, "end": row.end, "domain": row.wake.unwrap_or("reserved")}))
        .collect();
    let replication: Vec<Value> = p
        .map
        .iter()
        .filter_map(|row| {
            row.group.map(|g| json!({"start": row.start, "end": row.end, "group": g, "instances": row.instances}))
        })
        .collect();
    let formats: Vec<Value> = p
        .formats
        .iter()
        .map(|f| {
            let counters: Vec<Value> = f
                .counters
                .iter()
                .map(|c| {
                    let mut v = json!({"name": c.name, "offset": c.offset, "bits": c.bits});
                    if let (Some(h), Some(obj)) = (c.high_byte_offset, v.as_object_mut()) {
                        obj.insert("high_byte_offset".into(), json!(h));
                    }
                    v
                })
                .collect();
            json!({"name": f.name, "select": f.select, "size": f.size, "counters": counters})
        })
        .collect();
    let domains: Vec<Value> = p
        .domains
        .iter()
        .map(|d| json!({"name": d.name, "always_on": d.always_on, "request": d.request, "ack": d.ack}))
        .collect();
    let groups: Vec<Value> = p
        .groups
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "instances": g.instances,
                "fuse": g.fuse.map(|f| json!({"register": f.register, "field": f.field, "set_means_present": f.set_means_present})),
            })
        })
        .collect();
    let opaque: Vec<Value> = p
        .opaque
        .iter()
        .map(|o| json!({"name": o.name, "start": o.start, "end": o.end, "domain": o.domain}))
        .collect();
    let commands: Vec<Value> = p
        .commands
        .iter()
        .map(|c| {
            let dwords: Vec<Value> = (0..c.dwords)
                .map(|dw| {
                    let fields: Vec<Value> = c
                        .fields
                        .iter()
                        .filter(|f| f.dword == dw)
                        .map(|f| {
                            let mut v = json!({
                                "name": f.name,
                                "lsb": f.lsb,
                                "msb": f.lsb + f.width - 1,
                            });
                            if let (Some(x), Some(obj)) = (f.value, v.as_object_mut()) {
                                obj.insert("value".into(), json!(x));
                            }
                            v
                        })
                        .collect();
                    json!({"fields": fields})
                })
                .collect();
            json!({"name": c.name, "dwords": dwords})
        })
        .collect();
    json!({
        "project": p.name,
        "title": p.title,
        "registers": registers,
        "forcewake": forcewake,
        "replication": replication,
        "report_formats": formats,
        "power_domains": domains,
        "replication_groups": groups,
        "tables": p.tables.iter().map(|t| t.name).collect::<Vec<_>>(),
        "opaque_ranges": opaque,
        "commands": commands,
    })
}
