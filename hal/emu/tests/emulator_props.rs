//! Property test of the emulator: seeded xorshift sequences of reads,
//! writes, 64-bit accesses, force-wake requests, steering changes, pokes and
//! time steps on TGL (with replicated registers added), HSW and BDW (plus
//! IVT and P4 for RW1C, PCI and MSR coverage), 20 000 operations each,
//! checked after every operation against invariants computed from the
//! metadata alone:
//!
//! - nothing panics;
//! - RO, RO-V and PBC bits never change through the bus (only by poke, or by
//!   `advance` for force-wake acks);
//! - RW1C bits never go from 0 to 1 through the bus;
//! - a write to a masked register changes only the bits it enables;
//! - bits no field can hold (MBZ, RSVD, undescribed) are always 0, and a read
//!   returns only readable bits;
//! - only the register(s) an access decodes to change, and nothing changes
//!   when the access is not `Ok`;
//! - the trace has exactly one entry per dword access.

use hal::meta::{AccessKind, FieldInfo, ProjectInfo, RegisterInfo};
use hal::{bdw, hsw, ivt, p4, tgl};
use perfregs_emu::{Emulator, Outcome, Sku};

const OPS: usize = 20_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn value(&mut self) -> u32 {
        match self.below(6) {
            0 => 0,
            1 => u32::MAX,
            2 => 0xFFFF_0000 | self.next() as u32 & 0xFFFF, // masked enables
            3 => 1 << self.below(32),
            _ => self.next() as u32,
        }
    }
}

/// What the metadata says about one register.
struct Oracle {
    info: &'static RegisterInfo,
    instances: u32,
    /// Bits that can hold a value.
    defined: u64,
    /// RO, RO-V, PBC.
    ro: u64,
    w1c: u64,
    readable: u64,
    /// Reachable through `peek` (its own address decodes to it).
    visible: bool,
}

fn mask_of(fields: &[FieldInfo], kinds: &[AccessKind]) -> u64 {
    fields
        .iter()
        .filter(|f| kinds.contains(&f.access))
        .fold(0, |m, f| m | f.mask())
}

fn oracles(emu: &Emulator) -> Vec<Oracle> {
    use AccessKind::*;
    emu.project()
        .registers
        .iter()
        .map(|&info| {
            let width = if info.width >= 64 {
                u64::MAX
            } else {
                (1 << info.width) - 1
            };
            let low = if info.masked { 0xFFFF } else { u64::MAX };
            let all = [Rw, Ro, Wo, Rw1c, Rw1s, Rc, Pbc, RwV, RoV, RwDb];
            let defined = mask_of(info.fields, &all) & width & low;
            Oracle {
                info,
                instances: info.replication.map_or(1, |(_, n)| n),
                defined,
                ro: mask_of(info.fields, &[Ro, RoV, Pbc]) & defined,
                w1c: mask_of(info.fields, &[Rw1c]) & defined,
                readable: defined & !mask_of(info.fields, &[Wo]),
                visible: emu.register_at(info.address).map(|r| r.name) == Some(info.name)
                    && emu.peek(info.address).is_some(),
            }
        })
        .collect()
}

fn snapshot(emu: &Emulator, or: &[Oracle]) -> Vec<Vec<u64>> {
    or.iter()
        .map(|o| {
            if !o.visible {
                return Vec::new();
            }
            (0..o.instances)
                .map(|i| {
                    emu.peek_instance(o.info.address, i)
                        .expect("visible register")
                })
                .collect()
        })
        .collect()
}

/// TGL with a replicated register in every replication group: where the
/// shipped descriptions have none, an added `value[31:0]` RW register at the
/// first free dword of the group's first table row.
fn tgl_replicated() -> &'static ProjectInfo {
    static RW32: [FieldInfo; 1] = [FieldInfo {
        name: "value",
        lsb: 0,
        width: 32,
        access: AccessKind::Rw,
        values: &[],
        description: "",
    }];
    let base = &tgl::PROJECT;
    let mut regs: Vec<&'static RegisterInfo> = base.registers.to_vec();
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
        let mut r = *regs[0];
        r.name = Box::leak(format!("REPL_{}", g.name.to_uppercase()).into_boxed_str());
        r.address = at;
        r.width = 32;
        r.reset = 0;
        r.masked = false;
        r.fields = &RW32;
        r.domain = row.wake;
        r.replication = Some((g.name, row.instances));
        regs.push(Box::leak(Box::new(r)));
    }
    Box::leak(Box::new(ProjectInfo {
        registers: Box::leak(regs.into_boxed_slice()),
        ..*base
    }))
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Read(u64),
    Write(u64, u32),
    Read64(u64),
    Write64(u64, u64),
    Advance(u64),
    Poke(u64, u32, u64),
}

fn pick_addr(rng: &mut Rng, p: &ProjectInfo, top: u64) -> u64 {
    match rng.below(20) {
        0..=14 => {
            let r = p.registers[rng.below(p.registers.len() as u64) as usize];
            if r.width > 32 && rng.below(3) == 0 {
                r.address + 4
            } else {
                r.address
            }
        }
        15..=18 => {
            let a = rng.below(top);
            if rng.below(2) == 0 {
                a & !3
            } else {
                a
            }
        }
        _ => match rng.below(3) {
            0 => u64::MAX - rng.below(8),
            1 => 1 << (32 + rng.below(20)),
            _ => rng.next(),
        },
    }
}

fn pick_op(rng: &mut Rng, p: &ProjectInfo, top: u64) -> Op {
    let requests: Vec<u64> = p
        .domains
        .iter()
        .filter_map(|d| d.request.and_then(|n| p.register(n)))
        .map(|r| r.address)
        .collect();
    let steering = p.steering.and_then(|n| p.register(n)).map(|r| r.address);
    match rng.below(100) {
        0..=34 => Op::Read(pick_addr(rng, p, top)),
        35..=66 => Op::Write(pick_addr(rng, p, top), rng.value()),
        67..=71 => Op::Read64(pick_addr(rng, p, top)),
        72..=76 => Op::Write64(pick_addr(rng, p, top), rng.next()),
        77..=84 => Op::Advance(rng.below(5)),
        85..=92 if !requests.is_empty() => {
            let a = requests[rng.below(requests.len() as u64) as usize];
            let v = match rng.below(4) {
                0 => 0x0001_0001,
                1 => 0x0001_0000,
                2 => 0x0003_0003,
                _ => rng.value(),
            };
            Op::Write(a, v)
        }
        93..=97 if steering.is_some() => {
            let v = (rng.below(2) as u32) << 31
                | (rng.below(3) as u32 / 2) << 27
                | (rng.below(8) as u32) << 24;
            Op::Write(steering.unwrap_or(0), v)
        }
        _ => {
            let r = p.registers[rng.below(p.registers.len() as u64) as usize];
            Op::Poke(r.address, rng.below(10) as u32, rng.next())
        }
    }
}

fn run(p: &'static ProjectInfo, seed: u64, sku: Sku) -> usize {
    let mut emu = match perfregs_emu::bind::Bindings::of(p) {
        Some(_) => Emulator::new(p, sku),
        // TGL plus registers (same addresses): TGL's bindings hold.
        None => Emulator::with_bindings(
            perfregs_emu::bind::Bindings {
                project: p,
                ..perfregs_emu::bind::TGL
            },
            sku,
        ),
    };
    // The register file alone: values change with time only through units.
    emu.disable_oa();
    let or = oracles(&emu);
    let top = p
        .registers
        .iter()
        .map(|r| r.address + 8)
        .chain(p.map.iter().map(|r| r.end + 1))
        .max()
        .unwrap_or(0)
        + 0x100;
    let acks: Vec<&str> = p.domains.iter().filter_map(|d| d.ack).collect();
    let mut rng = Rng(seed);
    let mut accesses = 0usize;
    let mut before = snapshot(&emu, &or);
    let mut ok_ops = 0;
    for step in 0..OPS {
        let op = pick_op(&mut rng, p, top);
        let trace_before = emu.trace().len();
        // Registers the op may change, and masked-write enables.
        let mut touched: Vec<&str> = Vec::new();
        let mut masked_writes: Vec<(&str, u32)> = Vec::new();
        let mut reads: Vec<u32> = Vec::new();
        match op {
            Op::Read(a) => {
                reads.push(emu.read32(a));
                accesses += 1;
                touched.extend(emu.register_at(a).map(|r| r.name));
            }
            Op::Write(a, v) => {
                emu.write32(a, v);
                accesses += 1;
                if let Some(r) = emu.register_at(a) {
                    touched.push(r.name);
                    if r.masked {
                        masked_writes.push((r.name, v));
                    }
                }
            }
            Op::Read64(a) => {
                let v = emu.read64(a);
                reads.extend([v as u32, (v >> 32) as u32]);
                accesses += 2;
                touched.extend(emu.register_at(a).map(|r| r.name));
                touched.extend(emu.register_at(a.wrapping_add(4)).map(|r| r.name));
            }
            Op::Write64(a, v) => {
                emu.write64(a, v);
                accesses += 2;
                touched.extend(emu.register_at(a).map(|r| r.name));
                touched.extend(emu.register_at(a.wrapping_add(4)).map(|r| r.name));
                for (r, half) in [
                    (emu.register_at(a), v as u32),
                    (emu.register_at(a.wrapping_add(4)), (v >> 32) as u32),
                ] {
                    if let Some(r) = r.filter(|r| r.masked) {
                        masked_writes.push((r.name, half));
                    }
                }
            }
            Op::Advance(t) => emu.advance(t),
            Op::Poke(a, i, v) => {
                if i == 0 {
                    emu.poke(a, v);
                } else {
                    emu.poke_instance(a, i - 1, v);
                }
            }
        }
        let ctx = || format!("{} step {step}: {op:x?}", p.name);
        assert_eq!(emu.trace().len(), accesses, "{}", ctx());
        assert_eq!(emu.accesses(), accesses, "{}", ctx());
        let new_entries = &emu.trace()[trace_before..];
        let ok_regs: Vec<&str> = new_entries
            .iter()
            .filter(|e| e.outcome == Outcome::Ok)
            .filter_map(|e| e.register)
            .collect();
        ok_ops += usize::from(!ok_regs.is_empty());

        // Reads return readable bits only (per decoded register and half).
        for (e, &v) in new_entries.iter().zip(&reads) {
            if let Some(o) = e
                .register
                .and_then(|n| or.iter().find(|o| o.info.name == n))
            {
                let high = e.addr != o.info.address;
                let m = if high {
                    o.readable >> 32
                } else {
                    o.readable & 0xFFFF_FFFF
                };
                assert_eq!(u64::from(v) & !m, 0, "{}: unreadable bits {v:#x}", ctx());
            } else {
                assert_eq!(v, 0, "{}", ctx());
            }
        }

        let after = snapshot(&emu, &or);
        for ((o, b), a) in or.iter().zip(&before).zip(&after) {
            for (i, (&b, &a)) in b.iter().zip(a).enumerate() {
                let name = o.info.name;
                assert_eq!(
                    a & !o.defined,
                    0,
                    "{}: {name}[{i}] undefined bits {a:#x}",
                    ctx()
                );
                if matches!(op, Op::Poke(..)) || a == b {
                    continue;
                }
                if let Op::Advance(_) = op {
                    assert!(acks.contains(&name), "{}: {name} changed with time", ctx());
                    continue;
                }
                assert!(
                    ok_regs.contains(&name),
                    "{}: {name}[{i}] changed without an ok access to it",
                    ctx()
                );
                assert!(
                    touched.contains(&name),
                    "{}: {name}[{i}] changed but was not accessed",
                    ctx()
                );
                assert_eq!(
                    (a ^ b) & o.ro,
                    0,
                    "{}: RO bits of {name}[{i}] {b:#x} -> {a:#x}",
                    ctx()
                );
                assert_eq!(
                    a & !b & o.w1c,
                    0,
                    "{}: RW1C bits of {name}[{i}] set {b:#x} -> {a:#x}",
                    ctx()
                );
                if o.info.masked {
                    let en = masked_writes
                        .iter()
                        .filter(|(n, _)| *n == name)
                        .fold(0, |m, (_, v)| m | u64::from(v >> 16));
                    assert_eq!(
                        (a ^ b) & !en,
                        0,
                        "{}: masked {name} {b:#x} -> {a:#x}",
                        ctx()
                    );
                }
            }
        }
        before = after;
    }
    assert_eq!(emu.take_trace().len(), accesses);
    ok_ops
}

fn check(p: &'static ProjectInfo, seed: u64, sku: Sku) {
    let ok = run(p, seed, sku);
    // The sequence must actually exercise the register file, not just bounce
    // off sleeping domains.
    assert!(ok > OPS / 10, "{}: only {ok} successful accesses", p.name);
}

#[test]
fn tgl_random_sequences_keep_the_invariants() {
    let p = tgl_replicated();
    check(
        p,
        0x5EED_0001,
        Sku::default().fuse_dss(2).fuse_l3bank(5).without_vdbox(1),
    );
    check(p, 0x5EED_0002, Sku::default().with_wake_latency(1));
}

#[test]
fn hsw_random_sequences_keep_the_invariants() {
    check(&hsw::PROJECT, 0x5EED_0003, Sku::default());
}

#[test]
fn bdw_random_sequences_keep_the_invariants() {
    check(&bdw::PROJECT, 0x5EED_0004, Sku::default());
}

#[test]
fn ivt_and_p4_random_sequences_keep_the_invariants() {
    check(&ivt::PROJECT, 0x5EED_0005, Sku::default());
    check(&p4::PROJECT, 0x5EED_0006, Sku::default());
}
