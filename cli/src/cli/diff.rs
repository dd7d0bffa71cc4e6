//! `perfregs diff <A> <B>`: registers added, removed, moved, and fields changed.

use hal::meta::{ProjectInfo, RegisterInfo};

fn field_sig(r: &RegisterInfo) -> Vec<(String, u32, u32, &'static str)> {
    r.fields
        .iter()
        .map(|f| {
            (
                f.name.to_string(),
                f.lsb + f.width - 1,
                f.lsb,
                f.access.as_str(),
            )
        })
        .collect()
}

/// Lines describing how `b` differs from `a`.
pub fn diff(a: &ProjectInfo, b: &ProjectInfo) -> Vec<String> {
    let mut out = Vec::new();
    for r in b.registers.iter().filter(|r| a.register(r.name).is_none()) {
        out.push(format!("+ {} {:#x} ({} only)", r.name, r.address, b.name));
    }
    for r in a.registers.iter().filter(|r| b.register(r.name).is_none()) {
        out.push(format!("- {} {:#x} ({} only)", r.name, r.address, a.name));
    }
    for ra in a.registers {
        let Some(rb) = b.register(ra.name) else {
            continue;
        };
        if ra.address != rb.address || ra.space != rb.space {
            out.push(format!(
                "~ {} moved: {:#x} on {} -> {:#x} on {}",
                ra.name, ra.address, a.name, rb.address, b.name
            ));
        }
        if ra.reset != rb.reset {
            out.push(format!(
                "~ {} reset: {:#x} -> {:#x}",
                ra.name, ra.reset, rb.reset
            ));
        }
        let (fa, fb) = (field_sig(ra), field_sig(rb));
        for f in fb.iter().filter(|f| !fa.iter().any(|g| g.0 == f.0)) {
            out.push(format!(
                "~ {}.{} added: {}:{} {}",
                ra.name, f.0, f.1, f.2, f.3
            ));
        }
        for f in fa.iter().filter(|f| !fb.iter().any(|g| g.0 == f.0)) {
            out.push(format!(
                "~ {}.{} removed: {}:{} {}",
                ra.name, f.0, f.1, f.2, f.3
            ));
        }
        for f in &fa {
            if let Some(g) = fb.iter().find(|g| g.0 == f.0 && *g != f) {
                out.push(format!(
                    "~ {}.{} changed: {}:{} {} -> {}:{} {}",
                    ra.name, f.0, f.1, f.2, f.3, g.1, g.2, g.3
                ));
            }
        }
    }
    out
}
