//! Property test of the emulator: seeded xorshift sequences of operations on
//! every project (SNB, IVB, VLV, HSW, BDW, TGL on several SKUs, P4, IVT),
//! checked after every operation against invariants computed from the
//! metadata and the generated unit bindings alone.
//!
//! Two modes:
//!
//! - **register file alone** (`Units::Off`: the OA model disabled, no CPU
//!   counter model): only force-wake acks change with time;
//! - **every unit on** (`Units::On`): on every project the OA model (with a
//!   workload, a NOA source and contexts), the P4 counter model (with
//!   events) and the R2PCIe/UBox model (with events and a freeze delay) are
//!   on (a unit the project has no bindings for is on and does nothing).
//!   Besides reads, writes, 64-bit accesses, force-wake requests, steering
//!   changes, pokes and time steps, the sequences hold unit actions
//!   (`set_workload`, `set_noa`, `set_context` / `clear_context`,
//!   `mi_report_perf_count` at random addresses, CPU and uncore event and
//!   configuration changes), read-modify-writes of the fields the units
//!   bind (counters near their overflow, buffer pointers in a few memory
//!   windows) and short programming sequences (OA buffer in PRM order and
//!   OA enable, a P4 cascade pair, an R2PCIe counter).
//!
//! Invariants, after every operation:
//!
//! - nothing panics; bits no field can hold (MBZ, RSVD, undescribed) are
//!   always 0; a read returns only readable bits; the trace has exactly one
//!   entry per dword access;
//! - **software accesses** (compared before and after the access, before
//!   time moves): only the register(s) the access decodes to change, and only
//!   through an `Ok` access; RO, RO-V and PBC bits never change; RW1C bits
//!   never go from 0 to 1; a masked register changes only in the bits the
//!   write enables. The one exception, where a unit acts on a write: the
//!   R2PCIe/UBox commands (Intel Xeon E5 v2 uncore PMON guide, 329468: box and counter "commands"): a write with
//!   `R2_PCI_PMON_CTLn.rst` set may clear `R2_PCI_PMON_CTRn.count`; one with
//!   `R2_PCI_PMON_BOX_CTL.rst_ctrl` may clear the four CTLs, one with
//!   `rst_ctrs` the four counts: those bits of those registers are exempt
//!   and may only go to 0. The command bits themselves (write-only `rst`,
//!   `rst_ctrl`, `rst_ctrs`, `frz_all`, `unfrz_all`) must read 0 in storage
//!   after every operation (they are cleared after acting). OA counter
//!   registers (RW-V) load the model's counter on a write, which leaves the
//!   register as written: no exception;
//! - **time** (`advance`): only bits a unit drives change: force-wake acks;
//!   with the OA model, its status bits (report lost, buffer overflow,
//!   counter overflow, HSW overrun status), the tail pointer field and the
//!   counter registers it mirrors (`OAPERF_*`, `GPU_TICKS`); with the P4
//!   model, `P4_COUNTERn.count` and `P4_CCCRn.ovf`; with the uncore model,
//!   `R2_PCI_PMON_CTRn.count`, `R2_PCI_PMON_BOX_STATUS.ov` and
//!   `U_MSR_PMON_GLOBAL_STATUS.ov_rp`. The sticky status bits among them
//!   (OA report lost, buffer overflow, counter overflow; P4 `ovf`; R2 `ov`,
//!   `ov_rp`) are only ever set by a unit, and a counter register that goes
//!   down (wrapped: OA A/B counter registers, the 40-bit BDW A counters
//!   read as low + upper register, P4 counts, R2 counts) has its overflow
//!   flag set (OA counter overflow, its CCCR's `ovf`, `BOX_STATUS.ov` bit
//!   n). "Driven" comes from the bindings (`perfregs_emu::bind`), not from
//!   register names;
//! - **unit actions**: a context switch changes at most the OA status bits
//!   and the tail; MI_REPORT_PERF_COUNT at most the report-lost bit (the
//!   tail does not move); workload, NOA, event and configuration changes
//!   nothing;
//! - **pokes**: only the poked register changes (plus the uncore command
//!   exemptions above, for a poked command).
//!
//! # Running
//!
//! `PERFREGS_PROPS_OPS` sets the operations per project/SKU run (CI default
//! 12 000: 15 runs, a few seconds in a debug build); `PERFREGS_PROPS_SEED`
//! (decimal or `0x` hex) changes every seed. The long reliability run is an
//! ignored test, outside CI: 1 000 000 operations (or `PERFREGS_PROPS_OPS`)
//! on each of the 12 project/SKU runs, every unit on, 12 000 000 in all,
//! under a minute in a release build. Overflow checks make an arithmetic
//! overflow a panic, as in a debug build:
//!
//! ```sh
//! CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true \
//!   cargo test -p perfregs-emu --release --test emulator_props -- --ignored --nocapture
//! ```
//!
//! It prints, per run, the operations, time, rate and the unit activity
//! that shows the units were exercised (reports, overwrites, lost reports,
//! counter wraps, P4 interrupts, uncore commands and freezes), then the
//! total. A run is cut into episodes (a fresh emulator) of a quarter of its
//! operations, at most 250 000, or fewer once the emulated graphics memory
//! holds more than 256 MiB; every second episode starts with a jump to the
//! last 2^40 ticks of the 64-bit clock, so time saturates in some. The
//! trace is drained as it grows, so memory stays bounded.
//!
//! Measured (release with overflow checks and debug assertions, shared
//! 2-core machine, the commit adding this test): the default run, 12 x
//! 1 000 000 = 12 000 000 operations in 33.7 s (356 000 ops/s); with
//! `PERFREGS_PROPS_OPS=10000000 PERFREGS_PROPS_SEED=0x2024`, 120 000 000 in
//! 322 s (372 000 ops/s; per run from 182 000 ops/s on TGL with fused
//! parts to 2 100 000 on IVT), peak RSS 68 MB. No invariant failed.

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use hal::meta::{AccessKind, FieldInfo, ProjectInfo, RegisterInfo};
use hal::{bdw, hsw, ivb, ivt, p4, snb, tgl, vlv};
use perfregs_emu::bind::{Bindings, FieldRef, RegRef};
use perfregs_emu::{
    CpuEvents, Emulator, EventPattern, NoaBit, NoaSource, OaConfig, Outcome, Sku, UncoreConfig,
    UncoreEvents, Workload,
};

/// Operations per run in CI (per project/SKU).
const CI_OPS: usize = 12_000;
/// Operations per run in the long (ignored) test.
const LONG_OPS: usize = 1_000_000;
/// At most this many operations on one emulator.
const EPISODE: usize = 250_000;
/// A new episode once the emulated graphics memory holds this much.
const MEM_CAP: usize = 256 << 20;
/// Drain the trace past this many entries.
const TRACE_CAP: usize = 1 << 14;

fn ops_from_env(default: usize) -> usize {
    std::env::var("PERFREGS_PROPS_OPS")
        .ok()
        .and_then(|s| s.replace('_', "").parse().ok())
        .unwrap_or(default)
}

fn seed_from_env() -> u64 {
    std::env::var("PERFREGS_PROPS_SEED")
        .ok()
        .and_then(|s| {
            let s = s.trim();
            match s.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => s.parse().ok(),
            }
        })
        .unwrap_or(0)
}

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
    fn pick<T: Copy>(&mut self, v: &[T]) -> Option<T> {
        v.get(self.below(v.len() as u64) as usize).copied()
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
    /// A value for a field of `width` bits: extremes, near the top (counters
    /// about to overflow), random.
    fn field(&mut self, width: u32) -> u64 {
        let max = low(width);
        match self.below(8) {
            0 => 0,
            1 => max,
            2 => 1,
            3 => max.saturating_sub(self.below(64)),
            4 => max.saturating_sub(self.below(1 << 16)),
            5 => max >> 1,
            _ => self.next() & max,
        }
    }
    /// A graphics address: a few windows (so memory stays bounded), the top
    /// of the 4 GiB GGTT, beyond it, anywhere.
    fn gfx_addr(&mut self) -> u64 {
        let off = self.below(1 << 24) & !0x3F;
        match self.below(10) {
            0..=4 => 0x0100_0000 + off,
            5 | 6 => 0x0800_0000 + (off & 0xF_FFFF),
            7 => 0xFFFF_FFFF - self.below(1 << 12),
            8 => (1 << 32) + self.below(1 << 20),
            _ => match self.below(3) {
                0 => u64::MAX - self.below(256),
                1 => self.next() & 0xFFFF_FFFF,
                _ => self.next(),
            },
        }
    }
}

fn low(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
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
    /// Offset of instance 0 in a snapshot.
    at: usize,
}

fn mask_of(fields: &[FieldInfo], kinds: &[AccessKind]) -> u64 {
    fields
        .iter()
        .filter(|f| kinds.contains(&f.access))
        .fold(0, |m, f| m | f.mask())
}

/// The register file as the metadata describes it.
struct Model {
    or: Vec<Oracle>,
    /// Own address of a visible register -> its index.
    own: HashMap<u64, usize>,
    /// `RegisterInfo` address -> index (what the emulator decodes).
    by_ptr: HashMap<usize, usize>,
    /// Snapshot length.
    len: usize,
}

impl Model {
    fn new(emu: &Emulator) -> Self {
        use AccessKind::*;
        let mut at = 0;
        let or: Vec<Oracle> = emu
            .project()
            .registers
            .iter()
            .map(|&info| {
                let width = low(info.width.min(64));
                let low16 = if info.masked { 0xFFFF } else { u64::MAX };
                let all = [Rw, Ro, Wo, Rw1c, Rw1s, Rc, Pbc, RwV, RoV, RwDb];
                let defined = mask_of(info.fields, &all) & width & low16;
                let visible = emu
                    .register_at(info.address)
                    .is_some_and(|r| core::ptr::eq(r, info))
                    && emu.peek(info.address).is_some();
                let instances = info.replication.map_or(1, |(_, n)| n);
                let o = Oracle {
                    info,
                    instances,
                    defined,
                    ro: mask_of(info.fields, &[Ro, RoV, Pbc]) & defined,
                    w1c: mask_of(info.fields, &[Rw1c]) & defined,
                    readable: defined & !mask_of(info.fields, &[Wo]),
                    visible,
                    at,
                };
                if visible {
                    at += instances as usize;
                }
                o
            })
            .collect();
        let own = or
            .iter()
            .enumerate()
            .filter(|(_, o)| o.visible)
            .map(|(i, o)| (o.info.address, i))
            .collect();
        let by_ptr = or
            .iter()
            .enumerate()
            .map(|(i, o)| (o.info as *const RegisterInfo as usize, i))
            .collect();
        Model {
            or,
            own,
            by_ptr,
            len: at,
        }
    }

    /// The index of the register an access to `addr` decodes to.
    fn decoded(&self, emu: &Emulator, addr: u64) -> Option<usize> {
        let r = emu.register_at(addr)?;
        self.by_ptr
            .get(&(r as *const RegisterInfo as usize))
            .copied()
    }

    fn snapshot_into(&self, emu: &Emulator, out: &mut Vec<u64>) {
        out.clear();
        for o in self.or.iter().filter(|o| o.visible) {
            for i in 0..o.instances {
                out.push(
                    emu.peek_instance(o.info.address, i)
                        .expect("visible register"),
                );
            }
        }
        debug_assert_eq!(out.len(), self.len);
    }
}

/// A counter held in a register field (bits 31:0 of `hi`, when present,
/// above it) whose wrap sets `flag` in register `flag_reg`.
#[derive(Clone, Copy, Debug)]
struct Wrap {
    lo: usize,
    lo_mask: u64,
    lo_lsb: u32,
    hi: Option<usize>,
    flag_reg: usize,
    flag: u64,
}

impl Wrap {
    fn value(&self, m: &Model, snap: &[u64]) -> u64 {
        let at = |r: usize| snap[m.or[r].at];
        let lo = (at(self.lo) & self.lo_mask) >> self.lo_lsb;
        match self.hi {
            Some(h) => lo | (at(h) & 0xFFFF_FFFF) << 32,
            None => lo,
        }
    }
}

/// A unit field write: a read-modify-write of these bits of the register at
/// `addr` with a value chosen by `kind`.
#[derive(Clone, Copy, Debug)]
struct Target {
    addr: u64,
    lsb: u32,
    width: u32,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    /// A graphics address field (bits in place).
    Addr,
}

/// What the units bind, as register indices and masks, and what they may
/// change (only for the units that are on).
struct Driven {
    /// Bits units (and force-wake) may change when time moves.
    time: Vec<u64>,
    /// Status bits units only ever set.
    sticky: Vec<u64>,
    /// Bits a context switch may change.
    ctx: Vec<u64>,
    /// Bits MI_REPORT_PERF_COUNT may change.
    mi: Vec<u64>,
    /// Uncore commands: (written register, command bits, register acted on,
    /// bits it clears).
    commands: Vec<(usize, u64, usize, u64)>,
    /// Command bits that read 0 in storage after every operation.
    self_clearing: Vec<(usize, u64)>,
    /// Counters whose wrap a unit flags in a sticky status bit.
    wraps: Vec<Wrap>,
    /// Unit fields for read-modify-write ops.
    targets: Vec<Target>,
    /// Force-wake requests: (address, masked value waking the domain).
    wake: Vec<(u64, u32)>,
    steering: Option<u64>,
    /// Report format codes of the project.
    formats: Vec<u64>,
    oa: Option<perfregs_emu::bind::Oa>,
    p4: Option<perfregs_emu::bind::P4>,
    uncore: Option<perfregs_emu::bind::Uncore>,
}

impl Driven {
    fn new(emu: &Emulator, m: &Model) -> Self {
        let b: Bindings = *emu.bindings();
        let n = m.or.len();
        let mut d = Driven {
            time: vec![0; n],
            sticky: vec![0; n],
            ctx: vec![0; n],
            mi: vec![0; n],
            commands: Vec::new(),
            wraps: Vec::new(),
            self_clearing: Vec::new(),
            targets: Vec::new(),
            wake: b
                .wake
                .iter()
                .map(|w| (w.request, (0x1_0001u32 << (w.bit & 15))))
                .collect(),
            steering: b.steering.map(|s| s.address),
            formats: emu.project().formats.iter().map(|f| f.select).collect(),
            oa: b.oa.filter(|_| emu.has_oa()),
            p4: b.p4.filter(|_| emu.has_p4()),
            uncore: b.uncore.filter(|_| emu.has_uncore()),
        };
        let reg = |a: u64| m.own.get(&a).copied();
        // A field at `f`'s position in register `r` (arrays of registers
        // share their first register's field).
        let bits = |r: usize, f: FieldRef| f.mask() & m.or[r].defined;
        let whole = |r: usize| m.or[r].defined;

        for w in b.wake {
            if let Some(r) = reg(w.ack) {
                d.time[r] |= whole(r);
            }
        }

        let field = |d: &mut Driven, f: Option<FieldRef>, kind: Kind| {
            if let Some(f) = f {
                d.targets.push(Target {
                    addr: f.reg.address,
                    lsb: f.lsb,
                    width: f.width,
                    kind,
                });
            }
        };
        let in_regs = |d: &mut Driven, regs: &[RegRef], f: Option<FieldRef>| {
            if let Some(f) = f {
                for r in regs {
                    d.targets.push(Target {
                        addr: r.address,
                        lsb: f.lsb,
                        width: f.width,
                        kind: Kind::Plain,
                    });
                }
            }
        };
        let whole_regs = |d: &mut Driven, regs: &[RegRef]| {
            for r in regs {
                d.targets.push(Target {
                    addr: r.address,
                    lsb: 0,
                    width: r.width,
                    kind: Kind::Plain,
                });
            }
        };

        if let Some(oa) = d.oa {
            let mut mark = |f: Option<FieldRef>, time: bool, sticky: bool, ctx: bool, mi: bool| {
                let Some(f) = f else { return };
                let Some(r) = reg(f.reg.address) else { return };
                let x = bits(r, f);
                if time {
                    d.time[r] |= x;
                }
                if sticky {
                    d.sticky[r] |= x;
                }
                if ctx {
                    d.ctx[r] |= x;
                }
                if mi {
                    d.mi[r] |= x;
                }
            };
            // Status bits: set by reports and counting; MI sets report-lost.
            mark(oa.report_lost, true, true, true, true);
            mark(oa.buffer_overflow, true, true, true, false);
            mark(oa.counter_overflow, true, true, false, false);
            // HSW overrun status (only with the disable-overrun mode): set
            // while stopped, cleared by the next written report.
            if oa.disable_overrun.is_some() {
                mark(oa.overrun_status, true, false, true, false);
            }
            // The hardware moves the tail (not MI_REPORT_PERF_COUNT).
            mark(oa.tail, true, false, true, false);
            let mirrors = oa
                .a_low
                .iter()
                .chain(oa.a_high)
                .chain(oa.b_regs)
                .chain(oa.gpu_ticks.as_ref());
            for r in mirrors {
                if let Some(r) = reg(r.address) {
                    d.time[r] |= whole(r);
                }
            }
            for f in [
                oa.enable,
                oa.format,
                oa.ctx_enable,
                oa.ctx_id,
                oa.timer_enable,
                oa.timer_period,
                oa.report_lost,
                oa.buffer_overflow,
                oa.counter_overflow,
                oa.disable_overrun,
                oa.overrun_status,
                oa.size,
                oa.udw,
                oa.mem_select,
                oa.no_ctx_reports,
            ] {
                field(&mut d, f, Kind::Plain);
            }
            for f in [oa.head, oa.tail, oa.base] {
                field(&mut d, f, Kind::Addr);
            }
            // A and B counter registers: a wrap sets counter overflow.
            if let Some((flag_reg, flag)) = oa
                .counter_overflow
                .and_then(|f| Some((reg(f.reg.address)?, f.mask())))
            {
                let a = oa
                    .a_low
                    .iter()
                    .enumerate()
                    .map(|(n, r)| (r, oa.a_high.get(n)));
                for (lo, hi) in a.chain(oa.b_regs.iter().map(|r| (r, None))) {
                    let Some(lo) = reg(lo.address) else { continue };
                    d.wraps.push(Wrap {
                        lo,
                        lo_mask: 0xFFFF_FFFF,
                        lo_lsb: 0,
                        hi: hi.and_then(|h| reg(h.address)),
                        flag_reg,
                        flag,
                    });
                }
            }
            whole_regs(&mut d, oa.a_low);
            whole_regs(&mut d, oa.a_high);
            whole_regs(&mut d, oa.b_regs);
            whole_regs(&mut d, oa.gpu_ticks.as_slice());
            if let Some(c) = b.cec {
                for list in [c.func, c.value, c.select, c.mask] {
                    for &f in list {
                        field(&mut d, Some(f), Kind::Plain);
                    }
                }
            }
        }

        if let Some(p) = d.p4 {
            for (list, f, sticky) in [(p.counters, p.count, false), (p.cccrs, p.ovf, true)] {
                let Some(f) = f else { continue };
                for rr in list {
                    if let Some(r) = reg(rr.address) {
                        d.time[r] |= bits(r, f);
                        if sticky {
                            d.sticky[r] |= bits(r, f);
                        }
                    }
                }
            }
            // A wrap sets the counter's CCCR ovf.
            if let (Some(count), Some(ovf)) = (p.count, p.ovf) {
                for (c, cc) in p.counters.iter().zip(p.cccrs) {
                    if let (Some(lo), Some(flag_reg)) = (reg(c.address), reg(cc.address)) {
                        d.wraps.push(Wrap {
                            lo,
                            lo_mask: count.mask(),
                            lo_lsb: count.lsb,
                            hi: None,
                            flag_reg,
                            flag: ovf.mask(),
                        });
                    }
                }
            }
            in_regs(&mut d, p.counters, p.count);
            for f in [
                p.enable,
                p.cascade,
                p.ovf,
                p.ovf_pmi,
                p.force_ovf,
                p.edge,
                p.threshold,
                p.complement,
                p.compare,
            ] {
                in_regs(&mut d, p.cccrs, f);
            }
        }

        if let Some(u) = d.uncore {
            let at = |r: Option<RegRef>| r.and_then(|r| reg(r.address));
            let (ctls, ctrs): (Vec<Option<usize>>, Vec<Option<usize>>) = (
                u.ctls.iter().map(|r| reg(r.address)).collect(),
                u.ctrs.iter().map(|r| reg(r.address)).collect(),
            );
            let fbits = |f: Option<FieldRef>| f.map_or(0, |f| f.mask());
            let count = fbits(u.count);
            for &c in ctrs.iter().flatten() {
                d.time[c] |= count & m.or[c].defined;
            }
            for (r, f) in [(at(u.box_status), u.ov), (at(u.gstatus), u.ov_rp)] {
                if let (Some(r), Some(f)) = (r, f) {
                    d.time[r] |= bits(r, f);
                    d.sticky[r] |= bits(r, f);
                }
            }
            // A carry out of counter n sets BOX_STATUS.ov bit n.
            if let (Some(cnt), Some(ov), Some(st)) = (u.count, u.ov, at(u.box_status)) {
                for (n, &c) in ctrs.iter().enumerate() {
                    if let Some(lo) = c {
                        d.wraps.push(Wrap {
                            lo,
                            lo_mask: cnt.mask(),
                            lo_lsb: cnt.lsb,
                            hi: None,
                            flag_reg: st,
                            flag: (1u64 << (ov.lsb as usize + n)) & ov.mask(),
                        });
                    }
                }
            }
            // Commands (Intel uncore PMON guide 329468): CTLn.rst clears CTRn; BOX_CTL's
            // rst_ctrl clears the CTLs, rst_ctrs the counts.
            for (ctl, ctr) in ctls.iter().zip(&ctrs) {
                if let (Some(l), Some(c)) = (*ctl, *ctr) {
                    d.commands.push((l, fbits(u.rst), c, count));
                }
                if let Some(l) = *ctl {
                    d.self_clearing.push((l, fbits(u.rst)));
                }
            }
            if let Some(bx) = at(u.box_ctl) {
                for &l in ctls.iter().flatten() {
                    d.commands.push((bx, fbits(u.rst_ctrl), l, m.or[l].defined));
                }
                for &c in ctrs.iter().flatten() {
                    d.commands.push((bx, fbits(u.rst_ctrs), c, count));
                }
                d.self_clearing
                    .push((bx, fbits(u.rst_ctrl) | fbits(u.rst_ctrs)));
            }
            if let Some(g) = at(u.gctl) {
                d.self_clearing
                    .push((g, fbits(u.frz_all) | fbits(u.unfrz_all)));
            }
            for f in [u.en, u.ov_en, u.edge_det, u.thresh, u.rst] {
                in_regs(&mut d, u.ctls, f);
            }
            in_regs(&mut d, u.ctrs, u.count);
            for f in [
                u.frz,
                u.rst_ctrs,
                u.rst_ctrl,
                u.ov,
                u.frz_all,
                u.unfrz_all,
                u.ov_rp,
            ] {
                field(&mut d, f, Kind::Plain);
            }
        }
        d.targets.retain(|t| reg(t.addr).is_some());
        d
    }
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
    static CELL: std::sync::OnceLock<&'static ProjectInfo> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
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
    })
}

#[derive(Clone, Debug)]
enum Op {
    Read(u64),
    Write(u64, u32),
    Read64(u64),
    Write64(u64, u64),
    /// Read-modify-write of a unit field (resolved to a write when run).
    Field(Target, u64),
    Advance(u64),
    Poke(u64, u32, u64),
    SetContext(u32),
    ClearContext,
    MiReport(u64, u32, bool),
    SetWorkload(Workload),
    SetNoa(NoaSource),
    SetCpuEvents(CpuEvents),
    SetUncoreEvents(UncoreEvents),
    OaConfig(OaConfig),
    UncoreConfig(UncoreConfig),
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

fn workload(rng: &mut Rng) -> Workload {
    let mut w = Workload::new();
    for _ in 0..rng.below(6) {
        let rate = match rng.below(6) {
            0 => u64::MAX >> rng.below(64),
            1 => 1 << rng.below(40),
            _ => rng.below(1000),
        };
        w = w.rate(rng.below(48) as u32, rate);
    }
    w
}

fn noa(rng: &mut Rng) -> NoaSource {
    let mut s = NoaSource::new();
    for _ in 0..rng.below(5) {
        let g = match rng.below(4) {
            0 => NoaBit::Constant(rng.below(2) == 1),
            1 => NoaBit::Divider(rng.below(5000)),
            2 => NoaBit::Divider(1 << rng.below(40)),
            _ => NoaBit::Random(rng.next()),
        };
        s = s.with(rng.below(17) as u32, g);
    }
    s
}

fn cpu_events(rng: &mut Rng) -> CpuEvents {
    let mut e = CpuEvents::new();
    for _ in 0..rng.below(8) {
        let rate = match rng.below(8) {
            0 => rng.below(1 << 20),
            1 => u64::MAX >> rng.below(64),
            _ => rng.below(12),
        };
        e = e.rate(rng.below(20) as usize, rate);
    }
    e
}

fn uncore_events(rng: &mut Rng) -> UncoreEvents {
    let mut e = UncoreEvents::new();
    for _ in 0..rng.below(5) {
        let one = |rng: &mut Rng| match rng.below(6) {
            0 => u64::MAX >> rng.below(64),
            1 => 1 << rng.below(44),
            _ => rng.below(8),
        };
        let p = if rng.below(2) == 0 {
            EventPattern::Constant(one(rng))
        } else {
            EventPattern::Repeat((0..rng.below(8)).map(|_| one(rng)).collect())
        };
        e = e.per_cycle(rng.below(5) as usize, p);
    }
    e
}

fn advance_ticks(rng: &mut Rng) -> u64 {
    match rng.below(100) {
        0..=59 => rng.below(5),
        60..=89 => 5 + rng.below(96),
        90..=98 => 101 + rng.below(4000),
        _ => 4097 + rng.below(1 << 16),
    }
}

fn value_for(rng: &mut Rng, t: Target) -> u64 {
    match t.kind {
        Kind::Plain => rng.field(t.width) << t.lsb,
        Kind::Addr => {
            if rng.below(4) == 0 {
                rng.next()
            } else {
                rng.gfx_addr() & 0xFFFF_FFFF
            }
        }
    }
}

struct Gen<'a> {
    p: &'static ProjectInfo,
    d: &'a Driven,
    top: u64,
    wake_latency: u64,
    queue: VecDeque<Op>,
}

impl Gen<'_> {
    fn target(&self, f: Option<FieldRef>) -> Option<Target> {
        let f = f?;
        self.d
            .targets
            .iter()
            .find(|t| t.addr == f.reg.address && t.lsb == f.lsb && t.width == f.width)
            .copied()
    }

    fn set(&mut self, f: Option<FieldRef>, value: u64) {
        if let Some(t) = self.target(f) {
            self.queue.push_back(Op::Field(t, value << t.lsb));
        }
    }

    fn set_at(&mut self, r: Option<&RegRef>, f: Option<FieldRef>, value: u64) {
        if let (Some(r), Some(f)) = (r, f) {
            let t = Target {
                addr: r.address,
                lsb: f.lsb,
                width: f.width,
                kind: Kind::Plain,
            };
            self.queue.push_back(Op::Field(t, value << t.lsb));
        }
    }

    fn wake_all(&mut self) {
        for &(a, v) in &self.d.wake {
            self.queue.push_back(Op::Write(a, v));
        }
        if !self.d.wake.is_empty() {
            self.queue.push_back(Op::Advance(self.wake_latency + 1));
        }
    }

    /// OA buffer in PRM order (head, buffer, tail), then the OA enable.
    fn program_oa(&mut self, rng: &mut Rng) {
        let Some(oa) = self.d.oa else { return };
        self.wake_all();
        let base = rng.gfx_addr() & 0xFFFF_FFC0;
        let addr = |f: Option<FieldRef>, a: u64| f.map(|f| (a & f.mask()) >> f.lsb);
        if let Some(v) = addr(oa.head, base) {
            self.set(oa.head, v);
        }
        if let Some(v) = addr(oa.base, base) {
            self.set(oa.base, v);
        }
        self.set(oa.mem_select, 1);
        self.set(oa.udw, 0);
        self.set(oa.size, rng.below(4) / 3);
        if let Some(v) = addr(oa.tail, base) {
            self.set(oa.tail, v);
        }
        if let Some(&fmt) = self
            .d
            .formats
            .get(rng.below(self.d.formats.len() as u64 + 1) as usize)
        {
            self.set(oa.format, fmt);
        }
        self.set(oa.disable_overrun, rng.below(2));
        self.set(oa.timer_period, rng.below(6));
        self.set(oa.timer_enable, 1);
        self.set(oa.ctx_enable, u64::from(rng.below(4) == 0));
        self.set(oa.enable, 1);
    }

    /// A P4 cascade pair: the source near overflow and enabled, the target
    /// cascaded (SDM example 18-1).
    fn program_p4(&mut self, rng: &mut Rng) {
        let Some(p) = self.d.p4 else { return };
        let k = rng.below(p.cascade_targets.len() as u64) as usize;
        let (Some(&t), Some(&s)) = (p.cascade_targets.get(k), p.cascade_sources.get(k)) else {
            return;
        };
        let (t, s) = (t as usize, s as usize);
        let max = p.count.map_or(0, |f| low(f.width));
        self.set_at(p.counters.get(s), p.count, max - rng.below(64));
        self.set_at(p.counters.get(t), p.count, max - rng.below(64));
        self.set_at(p.cccrs.get(t), p.enable, 0);
        self.set_at(p.cccrs.get(t), p.cascade, 1);
        self.set_at(p.cccrs.get(t), p.ovf_pmi, rng.below(2));
        self.set_at(p.cccrs.get(s), p.ovf, 0);
        self.set_at(p.cccrs.get(s), p.force_ovf, u64::from(rng.below(8) == 0));
        self.set_at(p.cccrs.get(s), p.ovf_pmi, rng.below(2));
        self.set_at(p.cccrs.get(s), p.enable, 1);
        let mut e = CpuEvents::new();
        for n in 0..18 {
            e = e.rate(n, rng.below(8));
        }
        self.queue.push_back(Op::SetCpuEvents(e));
    }

    /// An R2PCIe counter near overflow, enabled, maybe forwarding to the
    /// UBox.
    fn program_uncore(&mut self, rng: &mut Rng) {
        let Some(u) = self.d.uncore else { return };
        let n = rng.below(u.ctrs.len().max(1) as u64) as usize;
        let max = u.count.map_or(0, |f| low(f.width));
        self.set(u.unfrz_all, 1);
        self.set(u.frz, 0);
        self.set_at(u.ctrs.get(n), u.count, max - rng.below(64));
        self.set_at(u.ctls.get(n), u.thresh, rng.below(3));
        self.set_at(u.ctls.get(n), u.edge_det, rng.below(2));
        self.set_at(u.ctls.get(n), u.ov_en, rng.below(2));
        self.set_at(u.ctls.get(n), u.en, 1);
        self.queue.push_back(Op::SetUncoreEvents(
            UncoreEvents::new().per_cycle(n, 1 + rng.below(4)),
        ));
    }

    fn next(&mut self, rng: &mut Rng, units: bool) -> Op {
        if let Some(op) = self.queue.pop_front() {
            return op;
        }
        let (p, top) = (self.p, self.top);
        let r = rng.below(100);
        if units {
            match r {
                0..=11 => {
                    if let Some(t) = rng.pick(&self.d.targets) {
                        return Op::Field(t, value_for(rng, t));
                    }
                }
                12..=14 => {
                    return if rng.below(4) == 0 {
                        Op::ClearContext
                    } else {
                        Op::SetContext(match rng.below(3) {
                            0 => rng.next() as u32,
                            _ => (rng.below(4) as u32) << 12 | rng.below(2) as u32,
                        })
                    };
                }
                15..=16 => {
                    return Op::MiReport(rng.gfx_addr(), rng.next() as u32, rng.below(8) != 0);
                }
                17 => {
                    return match rng.below(3) {
                        0 => Op::SetWorkload(workload(rng)),
                        1 => Op::SetNoa(noa(rng)),
                        _ => Op::OaConfig(
                            OaConfig::default()
                                .with_gpu_clocks_per_tick(rng.below(17))
                                .with_legacy_timer_rpt_id(rng.next() as u32),
                        ),
                    };
                }
                18 => {
                    return match rng.below(3) {
                        0 => Op::SetCpuEvents(cpu_events(rng)),
                        1 => Op::SetUncoreEvents(uncore_events(rng)),
                        _ => Op::UncoreConfig(UncoreConfig {
                            freeze_delay: rng.below(30),
                        }),
                    };
                }
                19 => {
                    match rng.below(3) {
                        0 => self.program_oa(rng),
                        1 => self.program_p4(rng),
                        _ => self.program_uncore(rng),
                    }
                    if let Some(op) = self.queue.pop_front() {
                        return op;
                    }
                }
                _ => {}
            }
        }
        let r = if units {
            r.saturating_sub(20) * 100 / 80
        } else {
            r
        };
        match r {
            0..=34 => Op::Read(pick_addr(rng, p, top)),
            35..=66 => Op::Write(pick_addr(rng, p, top), rng.value()),
            67..=71 => Op::Read64(pick_addr(rng, p, top)),
            72..=76 => Op::Write64(pick_addr(rng, p, top), rng.next()),
            77..=84 => Op::Advance(if units {
                advance_ticks(rng)
            } else {
                rng.below(5)
            }),
            85..=92 if !self.d.wake.is_empty() => {
                let (a, wake) = rng.pick(&self.d.wake).unwrap_or((0, 0));
                let v = match rng.below(4) {
                    0 => wake,
                    1 => wake & 0xFFFF_0000,
                    2 => 0x0003_0003,
                    _ => rng.value(),
                };
                Op::Write(a, v)
            }
            93..=97 if self.d.steering.is_some() => {
                let v = (rng.below(2) as u32) << 31
                    | (rng.below(3) as u32 / 2) << 27
                    | (rng.below(8) as u32) << 24;
                Op::Write(self.d.steering.unwrap_or(0), v)
            }
            _ => {
                let r = p.registers[rng.below(p.registers.len() as u64) as usize];
                let v = if rng.below(2) == 0 {
                    rng.field(64)
                } else {
                    rng.next()
                };
                Op::Poke(r.address, rng.below(10) as u32, v)
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Units {
    Off,
    On,
}

/// One project/SKU to run.
struct Config {
    name: &'static str,
    project: fn() -> &'static ProjectInfo,
    sku: fn() -> Sku,
    seed: u64,
}

fn configs() -> Vec<Config> {
    vec![
        Config {
            name: "snb",
            project: || &snb::PROJECT,
            sku: Sku::default,
            seed: 0x5EED_0011,
        },
        Config {
            name: "ivb",
            project: || &ivb::PROJECT,
            sku: Sku::default,
            seed: 0x5EED_0012,
        },
        Config {
            name: "vlv",
            project: || &vlv::PROJECT,
            sku: Sku::default,
            seed: 0x5EED_0013,
        },
        Config {
            name: "hsw",
            project: || &hsw::PROJECT,
            sku: Sku::default,
            seed: 0x5EED_0003,
        },
        Config {
            name: "bdw",
            project: || &bdw::PROJECT,
            sku: Sku::default,
            seed: 0x5EED_0004,
        },
        Config {
            name: "tgl",
            project: || &tgl::PROJECT,
            sku: || Sku::for_project(&tgl::PROJECT),
            seed: 0x5EED_0014,
        },
        Config {
            name: "tgl+repl dss2/l3bank5/vdbox1 fused",
            project: tgl_replicated,
            sku: || Sku::default().fuse_dss(2).fuse_l3bank(5).without_vdbox(1),
            seed: 0x5EED_0001,
        },
        Config {
            name: "tgl+repl wake latency 1",
            project: tgl_replicated,
            sku: || Sku::default().with_wake_latency(1),
            seed: 0x5EED_0002,
        },
        Config {
            name: "tgl+repl vebox0 absent, wake latency 0",
            project: tgl_replicated,
            sku: || {
                Sku::for_project(&tgl::PROJECT)
                    .without_vebox(0)
                    .fuse_dss(0)
                    .with_wake_latency(0)
            },
            seed: 0x5EED_0015,
        },
        Config {
            name: "tgl+repl wake latency 9, l3bank0 fused",
            project: tgl_replicated,
            sku: || Sku::default().with_wake_latency(9).fuse_l3bank(0),
            seed: 0x5EED_0016,
        },
        Config {
            name: "p4",
            project: || &p4::PROJECT,
            sku: Sku::default,
            seed: 0x5EED_0006,
        },
        Config {
            name: "ivt",
            project: || &ivt::PROJECT,
            sku: Sku::default,
            seed: 0x5EED_0005,
        },
    ]
}

fn config(name: &str) -> Config {
    configs()
        .into_iter()
        .find(|c| c.name == name)
        .expect("known config")
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default)]
struct Stats {
    ops: usize,
    episodes: usize,
    /// Operations with at least one `Ok` register access.
    ok_ops: usize,
    /// Advances and unit actions that changed a unit-driven bit.
    unit_changes: usize,
    /// ... that set a sticky status bit.
    sticky_sets: usize,
    /// Uncore commands that cleared something.
    commands: usize,
    /// Counter wraps seen (each with its overflow flag).
    wraps: usize,
    timer_reports: u64,
    context_reports: u64,
    mi_reports: u64,
    overwrites: u64,
    lost: u64,
    suppressed: u64,
    cpu_interrupts: u64,
    uncore_freezes: usize,
}

fn new_emulator(p: &'static ProjectInfo, sku: Sku) -> Emulator {
    match Bindings::of(p) {
        Some(_) => Emulator::new(p, sku),
        // TGL plus registers (same addresses): TGL's bindings hold.
        None => Emulator::with_bindings(
            Bindings {
                project: p,
                ..perfregs_emu::bind::TGL
            },
            sku,
        ),
    }
}

fn run(c: &Config, units: Units, ops: usize) -> Stats {
    let p = (c.project)();
    let mut stats = Stats::default();
    let mut rng = Rng((c.seed ^ seed_from_env()).max(1));
    // Four episodes or more; every second one starts late in time.
    let len = ops.div_ceil(4).clamp(1, EPISODE);
    while stats.ops < ops {
        let n = (ops - stats.ops).min(len);
        let late = stats.episodes % 2 == 1;
        episode(c, p, units, n, late, &mut rng, &mut stats);
        stats.episodes += 1;
    }
    stats
}

/// Up to `n` operations on a fresh emulator; `late`: the first one moves
/// time close to the end of the 64-bit clock (so later advances saturate
/// at `u64::MAX` sooner or later).
fn episode(
    c: &Config,
    p: &'static ProjectInfo,
    units: Units,
    n: usize,
    late: bool,
    rng: &mut Rng,
    stats: &mut Stats,
) {
    let sku = (c.sku)();
    let mut emu = new_emulator(p, sku);
    match units {
        // The register file alone: values change with time only through
        // force-wake.
        Units::Off => emu.disable_oa(),
        Units::On => {
            if !emu.has_oa() {
                emu.enable_oa(OaConfig::default());
            }
            emu.oa_mut()
                .set_workload(workload(rng).rate(0, 1 + rng.below(9)));
            emu.oa_mut().set_noa(noa(rng));
            emu.oa_mut().set_context(rng.below(4) as u32);
            emu.enable_p4_events(cpu_events(rng));
            emu.enable_uncore(UncoreConfig {
                freeze_delay: rng.below(20),
            });
            emu.uncore_mut().set_events(uncore_events(rng));
            assert!(emu.has_oa() && emu.has_p4() && emu.has_uncore());
        }
    }
    let m = Model::new(&emu);
    let d = Driven::new(&emu, &m);
    let top = p
        .registers
        .iter()
        .map(|r| r.address + 8)
        .chain(p.map.iter().map(|r| r.end + 1))
        .max()
        .unwrap_or(0)
        + 0x100;
    let mut gen = Gen {
        p,
        d: &d,
        top,
        wake_latency: sku.wake_latency,
        queue: VecDeque::new(),
    };
    if late {
        let left = (1u64 << rng.below(40)) + rng.below(1 << 16);
        gen.queue.push_back(Op::Advance(u64::MAX - left));
    }
    let mut exempt = vec![0u64; m.or.len()];
    let mut exempted: Vec<usize> = Vec::new();
    let mut accesses = emu.accesses();
    let mut before = Vec::with_capacity(m.len);
    let mut after = Vec::with_capacity(m.len);
    m.snapshot_into(&emu, &mut before);
    let mut frozen = emu.uncore().frozen();
    let start_ops = stats.ops;
    for step in 0..n {
        let op = match gen.next(rng, units == Units::On) {
            // Resolve a field op to the write it makes, from the current
            // value (a read-modify-write, as a driver does).
            Op::Field(t, v) => {
                let o = &m.or[m.own[&t.addr]];
                let mask = (low(t.width) << t.lsb) & low(o.info.width.min(64));
                let cur = emu.peek(t.addr).unwrap_or(0);
                let new = (cur & !mask) | (v & mask);
                if o.info.masked {
                    Op::Write(t.addr, ((mask as u32) << 16) | (new as u32 & 0xFFFF))
                } else if o.info.width > 32 {
                    Op::Write64(t.addr, new)
                } else {
                    Op::Write(t.addr, new as u32)
                }
            }
            op => op,
        };
        let trace_before = emu.trace().len();
        // Registers the op may change, and masked-write enables.
        let mut touched: Vec<usize> = Vec::new();
        let mut masked_writes: Vec<(usize, u32)> = Vec::new();
        let mut reads: Vec<u32> = Vec::new();
        let mut dwords = 0;
        // Which invariant applies to the changes.
        enum Check<'a> {
            Access,
            Time,
            Action(Option<&'a [u64]>),
            Poke(Option<usize>),
        }
        let check = match op {
            Op::Read(a) => {
                reads.push(emu.read32(a));
                dwords = 1;
                touched.extend(m.decoded(&emu, a));
                Check::Access
            }
            Op::Write(a, v) => {
                emu.write32(a, v);
                dwords = 1;
                if let Some(r) = m.decoded(&emu, a) {
                    touched.push(r);
                    if m.or[r].info.masked {
                        masked_writes.push((r, v));
                    }
                }
                Check::Access
            }
            Op::Read64(a) => {
                let v = emu.read64(a);
                reads.extend([v as u32, (v >> 32) as u32]);
                dwords = 2;
                touched.extend(m.decoded(&emu, a));
                touched.extend(m.decoded(&emu, a.wrapping_add(4)));
                Check::Access
            }
            Op::Write64(a, v) => {
                emu.write64(a, v);
                dwords = 2;
                for (addr, half) in [(a, v as u32), (a.wrapping_add(4), (v >> 32) as u32)] {
                    if let Some(r) = m.decoded(&emu, addr) {
                        touched.push(r);
                        if m.or[r].info.masked {
                            masked_writes.push((r, half));
                        }
                    }
                }
                Check::Access
            }
            Op::Field(..) => unreachable!("resolved above"),
            Op::Advance(t) => {
                emu.advance(t);
                Check::Time
            }
            Op::Poke(a, i, v) => {
                if i == 0 {
                    emu.poke(a, v);
                } else {
                    emu.poke_instance(a, i - 1, v);
                }
                let r = m.own.get(&a).copied();
                if let Some(r) = r {
                    // A poked command acts like a written one.
                    for &(w, cmd, target, bits) in &d.commands {
                        if w == r && v & cmd != 0 {
                            exempt[target] |= bits;
                            exempted.push(target);
                        }
                    }
                }
                Check::Poke(r)
            }
            Op::SetContext(id) => {
                emu.oa_mut().set_context(id);
                Check::Action(Some(d.ctx.as_slice()))
            }
            Op::ClearContext => {
                emu.oa_mut().clear_context();
                Check::Action(Some(d.ctx.as_slice()))
            }
            Op::MiReport(a, id, ggtt) => {
                emu.oa_mut().mi_report_perf_count(a, id, ggtt);
                Check::Action(Some(d.mi.as_slice()))
            }
            Op::SetWorkload(ref w) => {
                emu.oa_mut().set_workload(w.clone());
                Check::Action(None)
            }
            Op::SetNoa(ref s) => {
                emu.oa_mut().set_noa(s.clone());
                Check::Action(None)
            }
            Op::SetCpuEvents(ref e) => {
                emu.p4_mut().set_events(e.clone());
                Check::Action(None)
            }
            Op::SetUncoreEvents(ref e) => {
                emu.uncore_mut().set_events(e.clone());
                Check::Action(None)
            }
            Op::OaConfig(cfg) => {
                emu.enable_oa(cfg);
                Check::Action(None)
            }
            Op::UncoreConfig(cfg) => {
                emu.enable_uncore(cfg);
                Check::Action(None)
            }
        };
        accesses += dwords;
        let ctx = || {
            format!(
                "{} ({:?}, seed {:#x}) episode {} step {step}: {op:x?}",
                c.name,
                units,
                c.seed ^ seed_from_env(),
                stats.episodes
            )
        };
        assert_eq!(emu.trace().len() - trace_before, dwords, "{}", ctx());
        assert_eq!(emu.accesses(), accesses, "{}", ctx());
        let new_entries = &emu.trace()[trace_before..];
        let mut ok_regs: Vec<usize> = Vec::new();
        for e in new_entries.iter().filter(|e| e.outcome == Outcome::Ok) {
            let Some(r) = m.decoded(&emu, e.addr) else {
                continue;
            };
            ok_regs.push(r);
            if !e.write {
                continue;
            }
            // Uncore commands written (Intel uncore PMON guide 329468).
            let high = e.addr != m.or[r].info.address;
            let v = if high { e.value << 32 } else { e.value };
            for &(w, cmd, target, bits) in &d.commands {
                if w == r && v & cmd != 0 {
                    exempt[target] |= bits;
                    exempted.push(target);
                }
            }
        }
        stats.ok_ops += usize::from(!ok_regs.is_empty());

        // Reads return readable bits only (per decoded register and half).
        for (e, &v) in new_entries.iter().zip(&reads) {
            if let Some(o) = m.decoded(&emu, e.addr).map(|r| &m.or[r]) {
                let high = e.addr != o.info.address;
                let mask = if high {
                    o.readable >> 32
                } else {
                    o.readable & 0xFFFF_FFFF
                };
                assert_eq!(u64::from(v) & !mask, 0, "{}: unreadable bits {v:#x}", ctx());
            } else {
                assert_eq!(v, 0, "{}", ctx());
            }
        }

        m.snapshot_into(&emu, &mut after);
        let mut unit_change = false;
        let mut sticky_set = false;
        let mut command = false;
        for (k, o) in m.or.iter().enumerate().filter(|(_, o)| o.visible) {
            for i in 0..o.instances as usize {
                let (b, a) = (before[o.at + i], after[o.at + i]);
                let name = o.info.name;
                assert_eq!(
                    a & !o.defined,
                    0,
                    "{}: {name}[{i}] undefined bits {a:#x}",
                    ctx()
                );
                if a == b {
                    continue;
                }
                let changed = a ^ b;
                let set = a & !b;
                let sticky = |what: &str| {
                    assert_eq!(
                        b & !a & d.sticky[k],
                        0,
                        "{}: sticky status bits of {name}[{i}] cleared by {what} {b:#x} -> {a:#x}",
                        ctx()
                    );
                };
                match check {
                    Check::Time => {
                        assert_eq!(
                            changed & !d.time[k],
                            0,
                            "{}: {name}[{i}] changed with time outside the bits units drive {b:#x} -> {a:#x}",
                            ctx()
                        );
                        sticky("time");
                        unit_change = true;
                        sticky_set |= set & d.sticky[k] != 0;
                        continue;
                    }
                    Check::Action(allowed) => {
                        let allowed = allowed.map_or(0, |x| x[k]);
                        assert_eq!(
                            changed & !allowed,
                            0,
                            "{}: {name}[{i}] changed by a unit action {b:#x} -> {a:#x}",
                            ctx()
                        );
                        sticky("a unit action");
                        unit_change = true;
                        sticky_set |= set & d.sticky[k] != 0;
                        continue;
                    }
                    Check::Poke(r) if r == Some(k) => continue,
                    Check::Poke(_) | Check::Access => {}
                }
                // Software access (or poke): the uncore command exemptions
                // only clear; everything else follows the access rules.
                let ex = exempt[k];
                assert_eq!(
                    set & ex,
                    0,
                    "{}: {name}[{i}] bits set by an uncore command {b:#x} -> {a:#x}",
                    ctx()
                );
                command |= changed & ex != 0;
                let own = changed & !ex;
                if own == 0 {
                    continue;
                }
                if let Check::Poke(_) = check {
                    panic!(
                        "{}: {name}[{i}] changed by a poke elsewhere {b:#x} -> {a:#x}",
                        ctx()
                    );
                }
                assert!(
                    ok_regs.contains(&k),
                    "{}: {name}[{i}] changed without an ok access to it",
                    ctx()
                );
                assert!(
                    touched.contains(&k),
                    "{}: {name}[{i}] changed but was not accessed",
                    ctx()
                );
                assert_eq!(
                    own & o.ro,
                    0,
                    "{}: RO bits of {name}[{i}] {b:#x} -> {a:#x}",
                    ctx()
                );
                assert_eq!(
                    set & !ex & o.w1c,
                    0,
                    "{}: RW1C bits of {name}[{i}] set {b:#x} -> {a:#x}",
                    ctx()
                );
                if o.info.masked {
                    let en = masked_writes
                        .iter()
                        .filter(|(r, _)| *r == k)
                        .fold(0, |m, (_, v)| m | u64::from(v >> 16));
                    assert_eq!(own & !en, 0, "{}: masked {name} {b:#x} -> {a:#x}", ctx());
                }
            }
        }
        // With time, a counter that went down wrapped: its unit flags it.
        if let Check::Time = check {
            for w in &d.wraps {
                let (b, a) = (w.value(&m, &before), w.value(&m, &after));
                let flag = after[m.or[w.flag_reg].at] & w.flag;
                stats.wraps += usize::from(a < b);
                assert!(
                    a >= b || flag != 0,
                    "{}: {} wrapped ({b:#x} -> {a:#x}) without its overflow flag in {}",
                    ctx(),
                    m.or[w.lo].info.name,
                    m.or[w.flag_reg].info.name
                );
            }
        }
        // Uncore command bits are cleared after acting.
        for &(r, bits) in &d.self_clearing {
            let o = &m.or[r];
            assert_eq!(
                after[o.at] & bits,
                0,
                "{}: {} command bits left set {:#x}",
                ctx(),
                o.info.name,
                after[o.at]
            );
        }
        for r in exempted.drain(..) {
            exempt[r] = 0;
        }
        stats.unit_changes += usize::from(unit_change);
        stats.sticky_sets += usize::from(sticky_set);
        stats.commands += usize::from(command);
        let now_frozen = emu.uncore().frozen();
        stats.uncore_freezes += usize::from(now_frozen && !frozen);
        frozen = now_frozen;
        core::mem::swap(&mut before, &mut after);
        if emu.trace().len() > TRACE_CAP {
            emu.take_trace();
        }
        stats.ops += 1;
        if emu.gpu_mem_allocated() > MEM_CAP {
            break;
        }
    }
    if let Some(s) = emu.oa().stats() {
        stats.timer_reports += s.timer_reports;
        stats.context_reports += s.context_reports;
        stats.mi_reports += s.mi_reports;
        stats.overwrites += s.overwrites;
        stats.lost += s.lost;
        stats.suppressed += s.suppressed;
    }
    stats.cpu_interrupts += emu.p4().interrupts().len() as u64 + emu.p4().interrupts_dropped();
    assert!(stats.ops > start_ops, "{}: empty episode", c.name);
}

/// Run `name` in CI: the sequence must actually exercise the register file
/// (not just bounce off sleeping domains) and, units on, the units.
fn check(name: &str, units: Units) -> Stats {
    let c = config(name);
    let ops = ops_from_env(CI_OPS);
    let s = run(&c, units, ops);
    assert!(
        s.ok_ops > ops / 10,
        "{name}: only {} successful accesses",
        s.ok_ops
    );
    if units == Units::On && ops >= CI_OPS {
        assert!(
            s.unit_changes > 0,
            "{name}: no unit changed a register: {s:?}"
        );
    }
    s
}

#[test]
fn register_file_alone_keeps_the_invariants() {
    for name in [
        "hsw",
        "bdw",
        "tgl+repl dss2/l3bank5/vdbox1 fused",
        "p4",
        "ivt",
    ] {
        check(name, Units::Off);
    }
}

#[test]
fn gen7_with_every_unit_on_keeps_the_invariants() {
    for name in ["snb", "ivb", "vlv", "hsw"] {
        let s = check(name, Units::On);
        if ops_from_env(CI_OPS) >= CI_OPS {
            assert!(
                s.timer_reports + s.mi_reports > 0,
                "{name}: no report: {s:?}"
            );
        }
    }
}

#[test]
fn bdw_with_every_unit_on_keeps_the_invariants() {
    let s = check("bdw", Units::On);
    if ops_from_env(CI_OPS) >= CI_OPS {
        assert!(s.timer_reports > 0 && s.context_reports > 0, "{s:?}");
    }
}

#[test]
fn tgl_with_every_unit_on_keeps_the_invariants() {
    for name in [
        "tgl",
        "tgl+repl dss2/l3bank5/vdbox1 fused",
        "tgl+repl wake latency 1",
    ] {
        check(name, Units::On);
    }
}

#[test]
fn p4_and_ivt_with_every_unit_on_keep_the_invariants() {
    let p = check("p4", Units::On);
    let u = check("ivt", Units::On);
    if ops_from_env(CI_OPS) >= CI_OPS {
        assert!(p.sticky_sets > 0, "p4: no overflow: {p:?}");
        assert!(u.sticky_sets > 0 && u.commands > 0, "ivt: {u:?}");
    }
}

/// The long reliability run (not in CI): every project/SKU, every unit on,
/// `PERFREGS_PROPS_OPS` operations each (default 1 000 000). Prints a
/// table. Build with `--release`.
#[test]
#[ignore = "long run: cargo test -p perfregs-emu --release --test emulator_props -- --ignored --nocapture"]
fn long_run_every_unit_on() {
    let ops = ops_from_env(LONG_OPS);
    let all = Instant::now();
    let mut total = 0usize;
    println!(
        "{:<40} {:>10} {:>8} {:>10} {:>4}  unit activity",
        "project/SKU", "ops", "secs", "ops/s", "eps"
    );
    for c in configs() {
        let t = Instant::now();
        let s = run(&c, Units::On, ops);
        let secs = t.elapsed().as_secs_f64();
        total += s.ops;
        println!(
            "{:<40} {:>10} {:>8.1} {:>10.0} {:>4}  ok-access ops {}, unit changes {}, sticky sets {}, wraps {}, uncore commands {}, OA reports timer {} ctx {} MI {} (overwrites {}, lost {}, suppressed {}), P4 PMIs {}, uncore freezes {}",
            c.name,
            s.ops,
            secs,
            s.ops as f64 / secs,
            s.episodes,
            s.ok_ops,
            s.unit_changes,
            s.sticky_sets,
            s.wraps,
            s.commands,
            s.timer_reports,
            s.context_reports,
            s.mi_reports,
            s.overwrites,
            s.lost,
            s.suppressed,
            s.cpu_interrupts,
            s.uncore_freezes,
        );
    }
    let secs = all.elapsed().as_secs_f64();
    println!(
        "total: {total} operations in {secs:.1} s ({:.0} ops/s), no invariant failed",
        total as f64 / secs
    );
}
