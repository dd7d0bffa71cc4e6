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

/// One JSON value per item.
fn each<T>(items: &[T], f: impl Fn(&T) -> Value) -> Vec<Value> {
    items.iter().map(f).collect()
}

/// `object` with `key` added when `value` is there.
fn with_optional(mut object: Value, key: &str, value: Option<u32>) -> Value {
    if let (Some(x), Some(obj)) = (value, object.as_object_mut()) {
        obj.insert(key.into(), json!(x));
    }
    object
}

/// The project as JSON (shape documented in the README).
pub fn project_json(p: &ProjectInfo) -> Value {
    let registers = each(p.registers, |r| {
        let fields = each(r.fields, |f| {
            json!({
                "name": f.name,
                "lsb": f.lsb,
                "msb": f.lsb + f.width - 1,
                "access": f.access.as_str(),
                "reset": f.extract(r.reset),
            })
        });
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
    });
    let forcewake = each(
        p.map,
        |row| json!({"start": row.start, "end": row.end, "domain": row.wake.unwrap_or("reserved")}),
    );
    let replication: Vec<Value> = p
        .map
        .iter()
        .filter_map(|row| {
            row.group.map(|g| json!({"start": row.start, "end": row.end, "group": g, "instances": row.instances}))
        })
        .collect();
    let formats = each(p.formats, |f| {
        let counters = each(f.counters, |c| {
            let v = json!({"name": c.name, "offset": c.offset, "bits": c.bits});
            with_optional(v, "high_byte_offset", c.high_byte_offset)
        });
        json!({"name": f.name, "select": f.select, "size": f.size, "counters": counters})
    });
    let domains = each(
        p.domains,
        |d| json!({"name": d.name, "always_on": d.always_on, "request": d.request, "ack": d.ack}),
    );
    let groups = each(p.groups, |g| {
        json!({
            "name": g.name,
            "instances": g.instances,
            "fuse": g.fuse.map(|f| json!({"register": f.register, "field": f.field, "set_means_present": f.set_means_present})),
        })
    });
    let opaque = each(
        p.opaque,
        |o| json!({"name": o.name, "start": o.start, "end": o.end, "domain": o.domain}),
    );
    let commands = each(p.commands, |c| {
        let dwords: Vec<Value> = (0..c.dwords)
            .map(|dw| {
                let fields: Vec<Value> = c
                    .fields
                    .iter()
                    .filter(|f| f.dword == dw)
                    .map(|f| {
                        let v = json!({"name": f.name, "lsb": f.lsb, "msb": f.lsb + f.width - 1});
                        with_optional(v, "value", f.value)
                    })
                    .collect();
                json!({ "fields": fields })
            })
            .collect();
        json!({"name": c.name, "dwords": dwords})
    });
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
