//! Helpers the emulator's test files share (`mod support;` in each).
#![allow(dead_code)]

use hal::meta::{FieldInfo, ProjectInfo, RegisterInfo};

/// A small deterministic generator (xorshift64*): seeded sequences of
/// operations that are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

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
