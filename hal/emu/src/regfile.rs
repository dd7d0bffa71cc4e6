//! The register file ([`RegFile`]): per-register metadata precomputed once
//! (bit masks per access kind, wake target, replication), the read/write
//! rules applied to stored values, decoding, power, steering and the trace.

use std::collections::BTreeMap;
use std::vec;
use std::vec::Vec;

use hal::meta::{AccessKind, FieldInfo, OpaqueRange, ProjectInfo, RegisterInfo};

use crate::bind::Bindings;
use crate::forcewake::ForceWake;
use crate::gpumem::GpuMem;
use crate::index::{slot, unslot, AddressIndex, Slot, NONE16};
use crate::sku::{low_bits, Sku};
use crate::steering::Steering;
use crate::trace::{Outcome, TraceEntry};
use crate::unit::Units;
use crate::warn::{Warning, WarningKind, MAX_WARNINGS};

/// What else happens when a register's stored value changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Nothing.
    Plain,
    /// Force-wake request register of force-wake domain `n`.
    Request(usize),
    /// Force-wake ack register of force-wake domain `n`.
    Ack(usize),
    /// Steering semaphore, this bit mask: a read returning the bit set
    /// takes it (the bit is cleared), a write with the bit set gives it back.
    Semaphore(u64),
}

/// One register of the emulated project.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reg {
    pub info: &'static RegisterInfo,
    /// Index of instance 0's value in the value store.
    pub base: usize,
    /// Stored instances (1 when not replicated).
    pub instances: u32,
    /// Replication group id (`NONE16` when not replicated or unknown group).
    pub group: u16,
    /// Wake target id (`NONE16`: needs no waking).
    pub target: u16,
    /// Masked register (bits 31:16 of a write enable bits 15:0).
    pub masked: bool,
    /// More than 32 bits wide: has a high dword at address + 4.
    pub wide: bool,
    /// Bits that can hold a value: described by a field that is not MBZ or
    /// RSVD, within the register width (bits 15:0 for a masked register).
    pub defined: u64,
    /// Bits a write replaces (RW, RW-V, RW-DB, WO).
    pub take: u64,
    /// Bits a written one clears (RW1C).
    pub w1c: u64,
    /// Bits a written one sets (RW1S).
    pub w1s: u64,
    /// Bits a read returns (`defined` minus WO).
    pub readable: u64,
    /// Bits cleared by a read (RC).
    pub rc: u64,
    pub role: Role,
}

/// What the fast path needs of a register, packed: a plain register (one
/// instance, no force-wake role, not masked, 32 bits, no RW1C/RW1S/RC bits,
/// no unit watching it) is read and written here without the general rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hot {
    /// Value-store index.
    pub base: u32,
    /// Bits a write takes.
    pub take: u32,
    /// Bits a read returns.
    pub readable: u32,
    /// Bit of the wake target in the emulator's asleep mask (0: none, or
    /// not plain).
    pub wake_bit: u64,
    /// Takes the fast path.
    pub plain: bool,
}

impl Hot {
    /// No register (an empty cache entry).
    pub(crate) const NONE: Hot = Hot {
        base: u32::MAX,
        take: 0,
        readable: 0,
        wake_bit: 0,
        plain: false,
    };
}

/// Mask of a field's bits, without overflowing on odd descriptions.
pub(crate) fn field_mask(f: &FieldInfo) -> u64 {
    low_bits(f.width).checked_shl(f.lsb).unwrap_or(0)
}

/// Mask of a register's bits (`width` 0 is taken as 32).
pub(crate) fn width_mask(width: u32) -> u64 {
    if width == 0 {
        low_bits(32)
    } else {
        low_bits(width)
    }
}

/// Mask of the dword `high` selects.
#[inline]
pub(crate) fn lane(high: bool) -> u64 {
    if high {
        0xFFFF_FFFF_0000_0000
    } else {
        0xFFFF_FFFF
    }
}

impl Reg {
    /// Precompute the masks of `info`.
    pub(crate) fn new(info: &'static RegisterInfo, base: usize, instances: u32) -> Self {
        let width = width_mask(info.width);
        let (mut defined, mut take, mut w1c, mut w1s, mut wo, mut rc) = (0, 0, 0, 0, 0, 0);
        for f in info.fields {
            let m = field_mask(f) & width;
            match f.access {
                AccessKind::Mbz | AccessKind::Rsvd => continue,
                AccessKind::Rw | AccessKind::RwV | AccessKind::RwDb => take |= m,
                AccessKind::Wo => {
                    take |= m;
                    wo |= m;
                }
                AccessKind::Rw1c => w1c |= m,
                AccessKind::Rw1s => w1s |= m,
                AccessKind::Rc => rc |= m,
                AccessKind::Ro | AccessKind::RoV | AccessKind::Pbc => {}
            }
            defined |= m;
        }
        if info.masked {
            defined &= 0xFFFF;
        }
        Reg {
            info,
            base,
            instances,
            group: super::index::NONE16,
            target: super::index::NONE16,
            masked: info.masked,
            wide: info.width > 32,
            defined,
            take: take & defined,
            w1c: w1c & defined,
            w1s: w1s & defined,
            readable: defined & !wo,
            rc: rc & defined,
            role: Role::Plain,
        }
    }

    /// The value stored after writing dword `value` to half `high` of a
    /// register holding `old`.
    /// Whether the register follows the plain rules (see [`Hot`]), apart
    /// from units watching it.
    pub(crate) fn is_plain(&self) -> bool {
        self.instances == 1
            && self.role == Role::Plain
            && !self.masked
            && !self.wide
            && self.w1c | self.w1s | self.rc == 0
            && u32::try_from(self.base).is_ok()
    }

    #[inline]
    pub(crate) fn write(&self, old: u64, value: u32, high: bool) -> u64 {
        let (val, lane) = if self.masked {
            if high {
                return old; // a masked register has no high dword
            }
            (u64::from(value & 0xFFFF), u64::from(value >> 16))
        } else if high {
            (u64::from(value) << 32, lane(true))
        } else {
            (u64::from(value), lane(false))
        };
        let take = self.take & lane;
        let mut new = (old & !take) | (val & take);
        new &= !(val & self.w1c & lane);
        new |= val & self.w1s & lane;
        new & self.defined
    }

    /// The dword a read of half `high` returns from `stored`, and the value
    /// left stored afterwards (RC bits of that half cleared).
    #[inline]
    pub(crate) fn read(&self, stored: u64, high: bool) -> (u32, u64) {
        let shift = if high { 32 } else { 0 };
        let value = ((stored & self.readable) >> shift) as u32;
        (value, stored & !(self.rc & lane(high)))
    }
}

/// The register file of one project: stored values, the address index, the
/// fast path and its cache, power (awake state, force-wake handshakes),
/// steering, opaque storage, graphics memory, time, the access trace and
/// its warnings. Units ([`crate::unit`]) reach it only through the handle
/// the emulator gives them (`&mut RegFile` in [`Machinery`]).
#[derive(Clone)]
pub struct RegFile {
    pub(crate) project: &'static ProjectInfo,
    /// What the units bind (generated per project).
    pub(crate) bindings: Bindings,
    pub(crate) sku: Sku,
    pub(crate) now: u64,
    pub(crate) regs: Vec<Reg>,
    /// Stored values: each register's instances from `Reg::base`.
    pub(crate) values: Vec<u64>,
    pub(crate) index: AddressIndex,
    /// Wake target names: the project's domains first (same order), then
    /// names registers or table rows use that no domain describes.
    pub(crate) targets: Vec<&'static str>,
    /// Per wake target: accesses pass.
    pub(crate) awake: Vec<bool>,
    /// Two-domain wake targets (`render+media`, a force-wake row that wakes
    /// both): `(target, first, second)`, awake while both domains are.
    pub(crate) pairs: Vec<(u16, u16, u16)>,
    /// Bit t set: wake target t (t < 64) sleeps (the fast path's check).
    pub(crate) asleep: u64,
    /// Per register: the fast path's view.
    pub(crate) hot: Vec<Hot>,
    /// The last plain register accessed: its address and view (drivers
    /// poll and read-modify-write one register at a time).
    pub(crate) last: (u64, Hot, usize),
    pub(crate) fw: Vec<ForceWake>,
    /// Per replication group: present instances.
    pub(crate) present: Vec<u64>,
    pub(crate) steering: Steering,
    pub(crate) tracing: bool,
    pub(crate) trace: Vec<TraceEntry>,
    /// Accesses, every outcome.
    pub(crate) total: usize,
    /// Register-file warnings (units keep their own).
    pub(crate) warnings: Vec<Warning>,
    /// Register-file warnings not kept (beyond [`MAX_WARNINGS`]).
    pub(crate) warnings_dropped: u64,
    /// Accesses per outcome other than `Ok` (which is `total` minus these).
    pub(crate) counts: [usize; 4],
    /// Emulated graphics memory (GGTT).
    pub(crate) mem: GpuMem,
    /// Opaque ranges (the project's, then extra ones) with their wake
    /// target, sorted by start; overlapping later ones are dropped.
    pub(crate) opaque: Vec<(OpaqueRange, u16)>,
    /// Dwords written inside opaque ranges (absent: 0).
    pub(crate) opaque_values: BTreeMap<u64, u32>,
    /// Signal between units: the NOA mux routes the test signals to the
    /// Boolean stage of the CEC logic (set by the mux, read by the OA unit).
    pub(crate) test_signals_routed: bool,
}

impl RegFile {
    /// The register file of `bindings.project` (and `extra` registers and
    /// opaque ranges) at reset, before any unit is attached.
    pub(crate) fn new(
        bindings: Bindings,
        extra: &[&'static RegisterInfo],
        extra_ranges: &[OpaqueRange],
        sku: Sku,
    ) -> Self {
        let project = bindings.project;
        let infos: Vec<&'static RegisterInfo> = project
            .registers
            .iter()
            .chain(extra.iter().copied())
            .collect();
        // Opaque ranges: the first of overlapping ones wins.
        let mut ranges: Vec<OpaqueRange> = Vec::new();
        for &r in project.opaque.iter().chain(extra_ranges) {
            if r.start <= r.end && !ranges.iter().any(|o| o.start <= r.end && r.start <= o.end) {
                ranges.push(r);
            }
        }
        ranges.sort_by_key(|r| r.start);
        // Wake targets: the project's domains first (same order), then names
        // registers or map rows use that no domain describes.
        let mut targets: Vec<&'static str> = project.domains.iter().map(|d| d.name).collect();
        let extra_targets = infos
            .iter()
            .filter_map(|r| r.domain)
            .chain(project.map.iter().filter_map(|r| r.wake))
            .chain(ranges.iter().filter_map(|r| r.domain));
        for name in extra_targets {
            if !targets.contains(&name) {
                targets.push(name);
            }
        }
        // The domains of two-domain targets are targets too.
        let parts: Vec<&'static str> = targets
            .iter()
            .filter(|t| t.contains('+'))
            .flat_map(|&t| hal::meta::domain_names(t))
            .collect();
        for name in parts {
            if !targets.contains(&name) {
                targets.push(name);
            }
        }
        let target_id = |name: Option<&str>| -> u16 {
            name.and_then(|n| targets.iter().position(|&t| t == n))
                .and_then(|i| u16::try_from(i).ok())
                .filter(|&i| i != NONE16)
                .unwrap_or(NONE16)
        };
        let pairs: Vec<(u16, u16, u16)> = targets
            .iter()
            .filter_map(|&t| {
                let (a, b) = t.split_once('+')?;
                let (t, a, b) = (target_id(Some(t)), target_id(Some(a)), target_id(Some(b)));
                (t != NONE16 && a != NONE16 && b != NONE16).then_some((t, a, b))
            })
            .collect();

        // Registers and their storage.
        let mut regs = Vec::with_capacity(infos.len());
        let mut values = Vec::with_capacity(infos.len());
        for &info in &infos {
            let instances = info.replication.map_or(1, |(_, n)| n.clamp(1, 64));
            let mut reg = Reg::new(info, values.len(), instances);
            reg.target = target_id(info.domain);
            if let Some((group, _)) = info.replication {
                reg.group = project
                    .groups
                    .iter()
                    .position(|g| g.name == group)
                    .and_then(|i| u16::try_from(i).ok())
                    .unwrap_or(NONE16);
            }
            let reset = info.reset & reg.defined;
            values.extend(core::iter::repeat_n(reset, instances as usize));
            regs.push(reg);
        }

        // The address index: registers' own addresses first, then the high
        // dwords of 64-bit registers where free.
        let mut claims: Vec<(u64, Slot)> = Vec::with_capacity(regs.len() * 2);
        claims.extend(
            regs.iter()
                .enumerate()
                .map(|(i, r)| (r.info.address, slot(i, false))),
        );
        for (i, r) in regs.iter().enumerate() {
            if let (true, Some(a)) = (r.wide, r.info.address.checked_add(4)) {
                claims.push((a, slot(i, true)));
            }
        }
        claims.retain(|&(_, s)| s != 0);
        let rows: Vec<_> = project
            .map
            .iter()
            .map(|row| (row, target_id(row.wake)))
            .collect();
        let index = AddressIndex::new(&claims, &rows);
        // A bound address's own register (bindings are resolved against the
        // same descriptions, so every bound address decodes).
        let reg_at = |addr: u64| match unslot(index.slot_at(addr)) {
            Some((ri, false)) => Some(ri),
            _ => None,
        };

        // Replication groups and their fuse mirrors.
        let mut present = Vec::with_capacity(project.groups.len());
        for (gi, g) in project.groups.iter().enumerate() {
            present.push(sku.group_present(&bindings, gi) & low_bits(g.instances.min(64)));
        }
        for fuse in bindings.fuses {
            let (Some(ri), Some(&have), Some(g)) = (
                reg_at(fuse.address),
                present.get(fuse.group),
                project.groups.get(fuse.group),
            ) else {
                continue;
            };
            let Some(reg) = regs.get(ri) else { continue };
            let all = low_bits(g.instances.min(64));
            let bits = if fuse.set_means_present {
                have
            } else {
                !have & all
            };
            let fm = low_bits(fuse.width).checked_shl(fuse.lsb).unwrap_or(0);
            let fv = bits.checked_shl(fuse.lsb).unwrap_or(0) & fm;
            let n = reg.instances as usize;
            for v in values.iter_mut().skip(reg.base).take(n) {
                *v = ((*v & !fm) | fv) & reg.defined;
            }
        }

        // Force-wake domains.
        let mut awake = vec![true; targets.len()];
        let mut fw = Vec::new();
        for w in bindings.wake {
            let (Some(rq), Some(ak)) = (reg_at(w.request), reg_at(w.ack)) else {
                continue;
            };
            let Ok(t) = u16::try_from(w.domain) else {
                continue;
            };
            if rq == ak
                || regs.get(rq).is_none_or(|r| r.role != Role::Plain)
                || regs.get(ak).is_none_or(|r| r.role != Role::Plain)
            {
                continue;
            }
            let n = fw.len();
            let rv = regs.get(rq).and_then(|r| values.get(r.base)).copied();
            let av = regs.get(ak).and_then(|r| values.get(r.base)).copied();
            let (rv, av) = (rv.unwrap_or(0), av.unwrap_or(0));
            let mut f = ForceWake::new(t, rq, ak, sku.domain_present(&bindings, w.domain), rv);
            f.start(sku.wake_latency, av);
            fw.push(f);
            if let Some(r) = regs.get_mut(rq) {
                r.role = Role::Request(n);
            }
            if let Some(r) = regs.get_mut(ak) {
                r.role = Role::Ack(n);
            }
            if let Some(a) = awake.get_mut(usize::from(t)) {
                *a = rv & 0xFFFF != 0 && av != 0;
            }
        }
        for &(t, a, b) in &pairs {
            let on = |x: u16| awake.get(usize::from(x)).copied().unwrap_or(true);
            let both = on(a) && on(b);
            if let Some(x) = awake.get_mut(usize::from(t)) {
                *x = both;
            }
        }

        // Steering: the selectors' and semaphores' stored values.
        let steering = bindings
            .steering
            .map(|s| Steering::new(&s, |a| Some(regs.get(reg_at(a)?)?.base)))
            .unwrap_or_default();
        for (v, mask) in steering.semaphores() {
            if let Some(r) = regs
                .iter_mut()
                .find(|r| r.base == v && r.instances == 1 && r.role == Role::Plain)
            {
                r.role = Role::Semaphore(mask);
            }
        }

        let opaque: Vec<(OpaqueRange, u16)> =
            ranges.iter().map(|&r| (r, target_id(r.domain))).collect();
        let mut rf = RegFile {
            project,
            bindings,
            sku,
            now: 0,
            regs,
            values,
            index,
            targets,
            awake,
            pairs,
            fw,
            present,
            steering,
            tracing: true,
            trace: Vec::new(),
            total: 0,
            warnings: Vec::new(),
            warnings_dropped: 0,
            counts: [0; 4],
            asleep: 0,
            hot: Vec::new(),
            last: (u64::MAX, Hot::NONE, usize::MAX),
            mem: GpuMem::default(),
            opaque,
            opaque_values: BTreeMap::new(),
            test_signals_routed: false,
        };
        rf.rebuild_hot(&[]);
        rf
    }

    /// Move time forward by `ticks` (saturating): force-wake acks that are
    /// due by the new time follow their requests.
    pub(crate) fn advance_time(&mut self, ticks: u64) {
        self.now = self.now.saturating_add(ticks);
        for d in 0..self.fw.len() {
            let Some(f) = self.fw.get_mut(d) else { break };
            let Some(v) = f.due(self.now) else { continue };
            let ack = f.ack;
            if let Some(r) = self.regs.get(ack) {
                if let Some(slot) = self.values.get_mut(r.base) {
                    *slot = v & r.defined;
                }
            }
            self.refresh(d);
        }
    }

    /// Turn tracing on or off (the fast path's cache is only valid with
    /// tracing off).
    pub(crate) fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
        self.last = (u64::MAX, Hot::NONE, usize::MAX);
    }

    /// Accesses that ended with `outcome` (other than `Ok`).
    pub(crate) fn outcome_count(&self, outcome: Outcome) -> usize {
        self.counts.get(outcome.index()).copied().unwrap_or(0)
    }

    /// The stored value of register `ri` (its first instance; 0 if none).
    pub(crate) fn value(&self, ri: usize) -> u64 {
        self.regs
            .get(ri)
            .and_then(|r| self.values.get(r.base))
            .copied()
            .unwrap_or(0)
    }

    /// Hardware-side store into register `ri` (no access rules, no trace,
    /// no unit told); the value stored.
    pub(crate) fn store(&mut self, ri: usize, v: u64) -> u64 {
        let Some(r) = self.regs.get(ri) else { return 0 };
        let v = v & r.defined;
        match self.values.get_mut(r.base) {
            Some(s) => {
                *s = v;
                v
            }
            None => 0,
        }
    }

    /// Backdoor read of the dword at `addr` inside an opaque range (0 until
    /// written); `None` when `addr` is not an aligned dword of one.
    pub(crate) fn peek_opaque(&self, addr: u64) -> Option<u32> {
        self.opaque_slot(addr)?;
        Some(self.opaque_values.get(&addr).copied().unwrap_or(0))
    }

    /// Backdoor store of `value` into the register at `addr` (every
    /// instance, or only `instance`), with its force-wake side effects;
    /// the register's index, for the units to be told (`None`: no such
    /// register or instance).
    pub(crate) fn poke(&mut self, addr: u64, instance: Option<u32>, value: u64) -> Option<usize> {
        let (ri, reg) = self.own_register(addr)?;
        let v = value & reg.defined;
        match instance {
            None => {
                let n = reg.instances as usize;
                for slot in self.values.iter_mut().skip(reg.base).take(n) {
                    *slot = v;
                }
            }
            Some(i) => {
                if i >= reg.instances {
                    return None;
                }
                *self.values.get_mut(reg.base + i as usize)? = v;
            }
        }
        self.after_store(ri);
        Some(ri)
    }

    /// Recompute the fast path's view of every register and target (after
    /// construction, and when a unit starts watching registers).
    /// `watched`: the addresses of the registers units watch.
    pub(crate) fn rebuild_hot(&mut self, watched: &[u64]) {
        let watched: Vec<usize> = watched.iter().filter_map(|&a| self.reg_at(a)).collect();
        self.hot = self
            .regs
            .iter()
            .enumerate()
            .map(|(ri, r)| {
                let t = usize::from(r.target);
                let wake_bit = if r.target == NONE16 {
                    0
                } else {
                    1u64.checked_shl(t as u32).unwrap_or(0)
                };
                let plain =
                    r.is_plain() && !watched.contains(&ri) && (r.target == NONE16 || t < 64);
                Hot {
                    base: u32::try_from(r.base).unwrap_or(u32::MAX),
                    take: r.take as u32,
                    readable: r.readable as u32,
                    wake_bit,
                    plain,
                }
            })
            .collect();
        self.last = (u64::MAX, Hot::NONE, usize::MAX);
        self.asleep = 0;
        for (t, &a) in self.awake.iter().enumerate().take(64) {
            if !a {
                self.asleep |= 1 << t;
            }
        }
    }
    /// Record whether wake target `t` lets accesses pass, and with it
    /// whether the two-domain targets it is part of do.
    pub(crate) fn set_awake(&mut self, t: usize, on: bool) {
        self.set_target_awake(t, on);
        for k in 0..self.pairs.len() {
            let Some(&(p, a, b)) = self.pairs.get(k) else {
                break;
            };
            if usize::from(a) == t || usize::from(b) == t {
                let both = self.target_awake(a) && self.target_awake(b);
                self.set_target_awake(usize::from(p), both);
            }
        }
    }

    /// Whether wake target `t` lets accesses pass (no target: it does).
    fn target_awake(&self, t: u16) -> bool {
        t == NONE16 || self.awake.get(usize::from(t)).copied().unwrap_or(true)
    }

    /// The target to name for an access to target `t` while it sleeps: of
    /// a two-domain target, the (first) sleeping domain; else `t`.
    fn sleeping(&self, t: u16) -> u16 {
        match self.pairs.iter().find(|x| x.0 == t) {
            Some(&(_, a, _)) if !self.target_awake(a) => a,
            Some(&(_, _, b)) if !self.target_awake(b) => b,
            _ => t,
        }
    }

    /// Record whether wake target `t` alone lets accesses pass.
    fn set_target_awake(&mut self, t: usize, on: bool) {
        if let Some(a) = self.awake.get_mut(t) {
            *a = on;
        }
        if t < 64 {
            if on {
                self.asleep &= !(1 << t);
            } else {
                self.asleep |= 1 << t;
            }
        }
        if !on {
            self.last = (u64::MAX, Hot::NONE, usize::MAX);
        }
    }
    /// The own register at `addr` (not the high dword of a 64-bit one).
    pub(crate) fn reg_at(&self, addr: u64) -> Option<usize> {
        match unslot(self.index.slot_at(addr))? {
            (ri, false) => Some(ri),
            (_, true) => None,
        }
    }

    /// The register whose own address is `addr`: its index in the register
    /// list and the value-store index of its instance 0.
    pub(crate) fn locate(&self, addr: u64) -> Option<(usize, usize)> {
        let ri = self.reg_at(addr)?;
        self.regs.get(ri).map(|r| (ri, r.base))
    }

    #[inline]
    pub(crate) fn target_name(&self, t: u16) -> Option<&'static str> {
        self.targets.get(usize::from(t)).copied()
    }

    /// The register whose own address is `addr`.
    pub(crate) fn own_register(&self, addr: u64) -> Option<(usize, Reg)> {
        match unslot(self.index.slot_at(addr))? {
            (ri, false) => self.regs.get(ri).map(|r| (ri, *r)),
            (_, true) => None,
        }
    }

    /// Slots of a 64-bit access at `addr`.
    pub(crate) fn pair(&self, addr: u64) -> (Slot, Slot) {
        let lo = self.index.slot_at(addr);
        let hi = match unslot(lo) {
            Some((ri, false)) if self.regs.get(ri).is_some_and(|r| r.wide) => lo | 1,
            _ => self.index.slot_at(addr.wrapping_add(4)),
        };
        (lo, hi)
    }

    /// One dword access to `addr`, decoded as `s`.
    /// A plain register at `addr`, as last cached or from the index. The
    /// cache holds only while tracing is off and no domain has gone to
    /// sleep since it was filled (both empty it), so a hit needs no check.
    #[inline(always)]
    pub(crate) fn access_at(&mut self, addr: u64, write: Option<u32>, units: &mut Units) -> u32 {
        let (last_addr, h, _) = self.last;
        if addr == last_addr {
            if let Some(stored) = self.values.get_mut(h.base as usize) {
                self.total = self.total.wrapping_add(1);
                return plain_rule(stored, h, write);
            }
        }
        let s = self.index.slot_at(addr);
        self.access(addr, s, write, units)
    }

    /// The fast path's work on plain register `ri` (its domain awake).
    #[inline(always)]
    fn plain_access(&mut self, addr: u64, h: Hot, ri: usize, write: Option<u32>) -> Option<u32> {
        let stored = self.values.get_mut(h.base as usize)?;
        let r = plain_rule(stored, h, write);
        if self.tracing {
            self.record_traced(addr, ri, write, r);
        } else {
            self.total = self.total.wrapping_add(1);
        }
        Some(r)
    }

    #[inline(always)]
    pub(crate) fn access(
        &mut self,
        addr: u64,
        s: Slot,
        write: Option<u32>,
        units: &mut Units,
    ) -> u32 {
        let Some((ri, high)) = unslot(s) else {
            return self.no_register(addr, write);
        };
        // The fast path: a plain register whose domain is awake.
        if let Some(&h) = self.hot.get(ri) {
            if h.plain && !high && self.asleep & h.wake_bit == 0 {
                if !self.tracing {
                    self.last = (addr, h, ri);
                }
                if let Some(r) = self.plain_access(addr, h, ri, write) {
                    return r;
                }
            }
        }
        self.general(addr, ri, high, write, units)
    }

    /// Every access the fast path does not take.
    #[inline(never)]
    fn general(
        &mut self,
        addr: u64,
        ri: usize,
        high: bool,
        write: Option<u32>,
        units: &mut Units,
    ) -> u32 {
        let Some(&reg) = self.regs.get(ri) else {
            return self.no_register(addr, write);
        };
        let target = reg.target;
        if !self.target_awake(target) {
            let asleep = self.sleeping(target);
            self.record(addr, ri, write, 0, asleep, None, Outcome::Terminated);
            return 0;
        }
        if reg.instances > 1 {
            return self.replicated(addr, ri, &reg, high, write, units);
        }
        if let (Role::Semaphore(mask), false) = (reg.role, high) {
            return self.semaphore(addr, ri, &reg, mask, write, units);
        }
        // One stored value under the general rules (masked, 64-bit,
        // RW1C/RW1S/RC, force-wake roles, registers units watch).
        let r = self.touch(&reg, reg.base, high, write);
        self.record(addr, ri, write, r, target, None, Outcome::Ok);
        if write.is_some() {
            self.after_store(ri);
            notify(units, self, ri, true);
        }
        r
    }

    #[cold]
    fn no_register(&mut self, addr: u64, write: Option<u32>) -> u32 {
        if let Some(k) = self.opaque_slot(addr) {
            return self.opaque_access(addr, k, write);
        }
        let t = self.index.row_target(addr);
        let (t, outcome) = if self.target_awake(t) {
            (t, Outcome::Unclaimed)
        } else {
            (self.sleeping(t), Outcome::Terminated)
        };
        self.record(addr, usize::MAX, write, 0, t, None, outcome);
        0
    }

    /// The opaque range (index into `self.opaque`) an aligned dword access
    /// at `addr` falls in: all four bytes inside it (a dword straddling the
    /// range's end, whose end is not the last byte of a dword, is as
    /// unclaimed as one straddling its start).
    pub(crate) fn opaque_slot(&self, addr: u64) -> Option<usize> {
        if addr % 4 != 0 {
            return None;
        }
        let last = addr.checked_add(3)?;
        let i = self.opaque.partition_point(|(r, _)| r.end < addr);
        self.opaque
            .get(i)
            .filter(|(r, _)| r.start <= addr && last <= r.end)
            .map(|_| i)
    }

    /// A dword access inside opaque range `k`: plain storage, or terminated
    /// while the range's wake domain sleeps.
    fn opaque_access(&mut self, addr: u64, k: usize, write: Option<u32>) -> u32 {
        let Some(&(range, t)) = self.opaque.get(k) else {
            return 0;
        };
        let asleep = !self.target_awake(t);
        let (read, outcome) = if asleep {
            (0, Outcome::Terminated)
        } else {
            let read = match write {
                // Unwritten dwords read 0: a zero needs no entry.
                Some(0) => {
                    self.opaque_values.remove(&addr);
                    0
                }
                Some(v) => {
                    self.opaque_values.insert(addr, v);
                    0
                }
                None => self.opaque_values.get(&addr).copied().unwrap_or(0),
            };
            (read, Outcome::Ok)
        };
        let domain = self.target_name(if asleep { self.sleeping(t) } else { t });
        self.log(TraceEntry {
            time: self.now,
            addr,
            register: Some(range.name),
            value: u64::from(write.unwrap_or(read)),
            write: write.is_some(),
            domain,
            instance: None,
            outcome,
        });
        read
    }

    /// An access to a steering semaphore: a read returns the stored bits
    /// and, when the bit was set (free), clears it (the CPU now holds it);
    /// a write with the bit set sets it (given back), a write without
    /// leaves it (only the holder's release changes it).
    fn semaphore(
        &mut self,
        addr: u64,
        ri: usize,
        reg: &Reg,
        mask: u64,
        write: Option<u32>,
        units: &mut Units,
    ) -> u32 {
        let Some(stored) = self.values.get_mut(reg.base) else {
            return 0;
        };
        let r = match write {
            Some(v) => {
                if u64::from(v) & mask != 0 {
                    *stored |= mask & reg.defined;
                }
                0
            }
            None => {
                let r = (*stored & reg.readable) as u32;
                *stored &= !mask;
                r
            }
        };
        self.record(addr, ri, write, r, reg.target, None, Outcome::Ok);
        if write.is_some() {
            notify(units, self, ri, true);
        }
        r
    }

    /// Warn that an access to a replicated register was steered through a
    /// selector whose semaphore the CPU does not hold.
    #[cold]
    fn unlocked(&mut self, addr: u64, ri: usize, write: bool) {
        let w = Warning {
            time: self.now,
            kind: WarningKind::SteeredWithoutSemaphore {
                addr,
                register: self.regs.get(ri).map(|r| r.info.name),
                write,
            },
        };
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(w);
        } else {
            self.warnings_dropped = self.warnings_dropped.saturating_add(1);
        }
    }

    /// An access to a replicated register, steered.
    fn replicated(
        &mut self,
        addr: u64,
        ri: usize,
        reg: &Reg,
        high: bool,
        write: Option<u32>,
        units: &mut Units,
    ) -> u32 {
        let sel = self.steering.select(&self.values, usize::from(reg.group));
        let (multicast, inst) = (sel.multicast, sel.instance);
        if sel.unlocked {
            self.unlocked(addr, ri, write.is_some());
        }
        let present = self
            .present
            .get(usize::from(reg.group))
            .copied()
            .unwrap_or(u64::MAX)
            & low_bits(reg.instances);
        if let (Some(_), true) = (write, multicast) {
            if present == 0 {
                self.record(addr, ri, write, 0, reg.target, None, Outcome::FusedOff);
                return 0;
            }
            for i in 0..reg.instances {
                if present >> i & 1 != 0 {
                    self.touch(reg, reg.base + i as usize, high, write);
                }
            }
            self.record(addr, ri, write, 0, reg.target, None, Outcome::Ok);
            if reg.role != Role::Plain {
                self.after_store(ri);
            }
            notify(units, self, ri, true);
            return 0;
        }
        let here = inst < reg.instances && present.checked_shr(inst).unwrap_or(0) & 1 != 0;
        if !here {
            self.record(
                addr,
                ri,
                write,
                0,
                reg.target,
                Some(inst),
                Outcome::FusedOff,
            );
            return 0;
        }
        let r = self.touch(reg, reg.base + inst as usize, high, write);
        self.record(addr, ri, write, r, reg.target, Some(inst), Outcome::Ok);
        if write.is_some() && reg.role != Role::Plain {
            self.after_store(ri);
        }
        if write.is_some() {
            notify(units, self, ri, true);
        }
        r
    }

    /// Apply a read or write to the stored value at `idx`; the dword read
    /// (0 for a write).
    #[inline]
    fn touch(&mut self, reg: &Reg, idx: usize, high: bool, write: Option<u32>) -> u32 {
        let Some(stored) = self.values.get_mut(idx) else {
            return 0;
        };
        match write {
            Some(v) => {
                *stored = reg.write(*stored, v, high);
                0
            }
            None => {
                let (r, left) = reg.read(*stored, high);
                *stored = left;
                r
            }
        }
    }

    /// Count an access and trace it when tracing; `ri` is the register
    /// index (`usize::MAX`: none).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn record(
        &mut self,
        addr: u64,
        ri: usize,
        write: Option<u32>,
        read: u32,
        target: u16,
        instance: Option<u32>,
        outcome: Outcome,
    ) {
        if outcome == Outcome::Ok && !self.tracing {
            // Nothing to warn about or trace: no names to resolve.
            self.total = self.total.wrapping_add(1);
            return;
        }
        self.log(TraceEntry {
            time: self.now,
            addr,
            register: self.regs.get(ri).map(|r| r.info.name),
            value: u64::from(write.unwrap_or(read)),
            write: write.is_some(),
            domain: self.target_name(target),
            instance,
            outcome,
        });
    }

    /// Count access `e`, warn when it did not end `Ok`, and trace it when
    /// tracing.
    #[inline]
    fn log(&mut self, e: TraceEntry) {
        self.total = self.total.wrapping_add(1);
        if e.outcome != Outcome::Ok {
            if let Some(c) = self.counts.get_mut(e.outcome.index()) {
                *c = c.saturating_add(1);
            }
            let w = Warning::access(
                e.time, e.addr, e.register, e.domain, e.instance, e.write, e.outcome,
            );
            if let Some(w) = w {
                if self.warnings.len() < MAX_WARNINGS {
                    self.warnings.push(w);
                } else {
                    self.warnings_dropped = self.warnings_dropped.saturating_add(1);
                }
            }
        }
        if self.tracing {
            self.trace.push(e);
        }
    }

    /// The fast path's access, traced (its target is the register's).
    #[inline(never)]
    fn record_traced(&mut self, addr: u64, ri: usize, write: Option<u32>, read: u32) {
        let target = self.regs.get(ri).map_or(NONE16, |r| r.target);
        self.record(addr, ri, write, read, target, None, Outcome::Ok);
    }

    /// Side effects of a change of register `ri`'s stored value.
    pub(crate) fn after_store(&mut self, ri: usize) {
        let Some(reg) = self.regs.get(ri) else { return };
        let d = match reg.role {
            Role::Plain => return,
            Role::Request(d) => {
                let req = self.values.get(reg.base).copied().unwrap_or(0);
                let (now, latency) = (self.now, self.sku.wake_latency);
                if let Some(f) = self.fw.get_mut(d) {
                    f.requested(now, latency, req);
                }
                d
            }
            Role::Ack(d) => d,
            Role::Semaphore(_) => return,
        };
        self.refresh(d);
    }

    /// Recompute whether force-wake domain `d` is awake.
    pub(crate) fn refresh(&mut self, d: usize) {
        let Some(f) = self.fw.get(d) else { return };
        let value = |ri: usize| {
            self.regs
                .get(ri)
                .and_then(|r| self.values.get(r.base))
                .copied()
                .unwrap_or(0)
        };
        let on = value(f.request) & 0xFFFF != 0 && value(f.ack) != 0;
        let t = usize::from(f.target);
        self.set_awake(t, on);
    }
}

/// Tell every unit that register `ri` was stored (`software`: through the
/// bus, else a poke).
pub(crate) fn notify(units: &mut Units, rf: &mut RegFile, ri: usize, software: bool) {
    for u in units {
        u.written(rf, ri, software);
    }
}

/// Read or write a plain register's stored value (see [`Hot`]).
#[inline(always)]
fn plain_rule(stored: &mut u64, h: Hot, write: Option<u32>) -> u32 {
    let old = *stored as u32;
    match write {
        Some(v) => {
            *stored = u64::from((old & !h.take) | (v & h.take));
            0
        }
        None => old & h.readable,
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direct_index_stays_small() {
        for b in crate::bind::ALL {
            let rf = RegFile::new(**b, &[], &[], Sku::default());
            let bytes = rf.index.footprint();
            std::println!("{}: direct index {bytes} bytes", b.project.name);
            assert!(
                bytes > 0 && bytes < 1 << 20,
                "{}: {bytes} bytes",
                b.project.name
            );
        }
    }
}
