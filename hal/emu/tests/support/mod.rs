//! Helpers the emulator's test files share (`mod support;` in each).
#![allow(dead_code)]

use hal::meta::{ProjectInfo, RegisterInfo};
use perfregs_emu::Emulator;

/// Register `name` of `p` (panics with the name when missing).
pub fn reg(p: &ProjectInfo, name: &str) -> &'static RegisterInfo {
    p.register(name)
        .unwrap_or_else(|| panic!("{} has no register {name}", p.name))
}

/// A register value from `(field, value)` pairs, positions from the metadata.
pub fn val(p: &ProjectInfo, name: &str, fields: &[(&str, u64)]) -> u32 {
    let r = reg(p, name);
    fields.iter().fold(0u64, |v, &(f, x)| {
        let fi = r
            .field(f)
            .unwrap_or_else(|| panic!("{}: {name} has no field {f}", p.name));
        v | ((x << fi.lsb) & fi.mask())
    }) as u32
}

/// Request every force-wake domain (masked enable of the kernel bit) and let
/// the acks arrive.
pub fn wake_all(emu: &mut Emulator) {
    let p = emu.project();
    for d in p.domains {
        if let Some(req) = d.request.and_then(|n| p.register(n)) {
            emu.write32(req.address, 0x0001_0001);
        }
    }
    emu.advance(emu.sku().wake_latency);
}
