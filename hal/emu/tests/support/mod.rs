//! Helpers the emulator's test files share (`mod support;` in each).
#![allow(dead_code)]

use hal::meta::{FieldInfo, ProjectInfo, RegisterInfo};

#[allow(unused_imports)] // not every test binary uses both
pub use perfregs_testkit::{reg, Rng};

/// A register value from `(field, value)` pairs, positions from the metadata.
pub fn val(p: &ProjectInfo, name: &str, fields: &[(&str, u64)]) -> u32 {
    perfregs_testkit::val(p, name, fields) as u32
}

/// Request every force-wake domain and let the acks arrive.
#[allow(unused_imports)] // not every test binary wakes domains
pub use perfregs_emu::test_support::wake_all;

/// TGL with a replicated register in every replication group: where the
/// shipped descriptions have none, an added `value[31:0]` RW register at the
/// first free dword of the group's first table row.
pub fn tgl_replicated() -> &'static ProjectInfo {
    static RW32: [FieldInfo; 1] = [FieldInfo {
        name: "value",
        lsb: 0,
        width: 32,
        access: hal::meta::AccessKind::Rw,
        values: &[],
        description: "",
        address: false,
    }];
    static CELL: std::sync::OnceLock<&'static ProjectInfo> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let base = &hal::tgl::PROJECT;
        let mut regs: Vec<RegisterInfo> = base.registers.to_vec();
        for g in base.groups {
            if base
                .registers
                .iter()
                .any(|r| r.replication.is_some_and(|(n, _)| n == g.name))
            {
                continue;
            }
            let Some(row) = base.map.iter().find(|r| r.group == Some(g.name)) else {
                continue;
            };
            let Some(at) = (row.start..row.end)
                .step_by(4)
                .find(|&a| base.registers.iter().all(|r| r.address != a))
            else {
                continue;
            };
            let mut r = regs[0];
            r.name = Box::leak(format!("REPL_{}", g.name.to_uppercase()).into_boxed_str());
            r.address = at;
            r.width = 32;
            r.reset = 0;
            r.masked = false;
            r.fields = &RW32;
            r.domain = row.wake;
            r.replication = Some((g.name, row.instances));
            regs.push(r);
        }
        Box::leak(Box::new(ProjectInfo {
            registers: Box::leak(regs.into_boxed_slice()),
            ..*base
        }))
    })
}
