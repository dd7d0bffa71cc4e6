//! `perfregs lookup <project> <address>`: what lives at an address; and
//! the lines `perfregs list` prints after the registers.

use hal::meta::{OpaqueRange, ProjectInfo};

/// `, wake domain D` for a range in the force-wake table, else nothing.
fn domain_words(o: &OpaqueRange) -> String {
    o.domain
        .map(|d| format!(", wake domain {d}"))
        .unwrap_or_default()
}

/// The lines `perfregs list` prints after the registers: one per opaque
/// range (by start, marked `[range]`), then one per GPU command (marked
/// `[command]`, with its length).
pub fn list_extras(p: &ProjectInfo) -> Vec<String> {
    let ranges = p.opaque.iter().map(|o| {
        format!(
            "{:#08x}  {:<14} {:<10} opaque range {:#x}..{:#x} (no public layout){}",
            o.start,
            o.name,
            "[range]",
            o.start,
            o.end,
            domain_words(o)
        )
    });
    let commands = p.commands.iter().map(|c| {
        format!(
            "{:<8}  {:<14} {:<10} {}, {} dwords",
            "command", c.name, "[command]", c.title, c.dwords
        )
    });
    ranges.chain(commands).collect()
}

/// Lines describing `address` on `p`.
pub fn lookup(p: &ProjectInfo, address: u64) -> Vec<String> {
    let mut out = Vec::new();
    let regs: Vec<_> = p
        .registers
        .iter()
        .filter(|r| r.address <= address && address < r.address + u64::from(r.width / 8).max(1))
        .collect();
    match regs.as_slice() {
        [] => match p.opaque_at(address) {
            Some(o) => {
                let at = offset_note(address, o.start);
                out.push(format!(
                    "{address:#x} on {}: {}{at} — opaque range {:#x}..{:#x}, no public register layout",
                    p.name, o.name, o.start, o.end
                ));
            }
            None => out.push(format!("{address:#x} on {}: no register", p.name)),
        },
        rs => {
            for r in rs {
                let at = offset_note(address, r.address);
                out.push(format!(
                    "{address:#x} on {}: {}{at} — {} [{} block]",
                    p.name, r.name, r.title, r.block
                ));
            }
        }
    }
    match p.row_at(address) {
        None if p.map.is_empty() => out.push(format!(
            "wake domain: none ({} has no force-wake table)",
            p.name
        )),
        None => out.push("wake domain: none (outside the force-wake table)".to_string()),
        Some(row) => {
            let domain = row.wake.unwrap_or("reserved");
            let how = match row.wake.and_then(|w| p.domain(w)) {
                Some(d) if d.always_on => " (always on)".to_string(),
                Some(d) => format!(
                    " (request {}, ack {})",
                    d.request.unwrap_or("?"),
                    d.ack.unwrap_or("?")
                ),
                None => String::new(),
            };
            out.push(format!(
                "wake domain: {domain}{how}; table row {:#x}..{:#x}",
                row.start, row.end
            ));
            match row.group {
                Some(g) => {
                    let fuse = p
                        .group(g)
                        .and_then(|x| x.fuse)
                        .map(|f| format!("; fuses: {}.{}", f.register, f.field))
                        .unwrap_or_default();
                    out.push(format!(
                        "replication: {g} x{} (multicast), steering {}{fuse}",
                        row.instances, row.steering
                    ));
                    if let Some(sel) = p.steering {
                        out.push(format!("steering register for CPU accesses: {sel}"));
                    }
                }
                None => out.push("replication: none (unicast)".to_string()),
            }
        }
    }
    out
}

/// ` (+0x4)` for an address inside something starting at `start`; empty at
/// its start.
fn offset_note(address: u64, start: u64) -> String {
    if address == start {
        String::new()
    } else {
        format!(" (+{:#x})", address - start)
    }
}
