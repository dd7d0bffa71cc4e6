//! Xeon E5 v2 R2PCIe PMON box and the UBox freeze: four 44-bit counters
//! with thresh/edge_det shaping, overflow status, ov_en forwarding to
//! `U_MSR_PMON_GLOBAL_STATUS.ov_rp` and the delayed global freeze (see
//! "CPU counters" in the crate documentation).

use std::vec::Vec;

use crate::bind::Bits as F;
use crate::regfile::RegFile;
use crate::unit::{Machinery, Unit, UnitMut, UnitRef};

/// Number of R2PCIe counters.
pub const R2_COUNTERS: usize = 4;

/// Events of one counter per uncore cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventPattern {
    /// The same count every cycle.
    Constant(u64),
    /// A repeating sequence: element `i % len` in the `i`-th cycle (an
    /// empty sequence is 0 every cycle).
    Repeat(Vec<u64>),
}

impl Default for EventPattern {
    fn default() -> Self {
        EventPattern::Constant(0)
    }
}

impl EventPattern {
    /// The count in cycle `i`.
    pub fn at(&self, i: u64) -> u64 {
        match self {
            EventPattern::Constant(n) => *n,
            EventPattern::Repeat(v) => {
                let len = v.len() as u64;
                if len == 0 {
                    0
                } else {
                    v.get((i % len) as usize).copied().unwrap_or(0)
                }
            }
        }
    }
}

impl From<u64> for EventPattern {
    fn from(n: u64) -> Self {
        EventPattern::Constant(n)
    }
}

impl From<Vec<u64>> for EventPattern {
    fn from(v: Vec<u64>) -> Self {
        EventPattern::Repeat(v)
    }
}

impl From<&[u64]> for EventPattern {
    fn from(v: &[u64]) -> Self {
        EventPattern::Repeat(v.to_vec())
    }
}

impl<const N: usize> From<[u64; N]> for EventPattern {
    fn from(v: [u64; N]) -> Self {
        EventPattern::Repeat(v.to_vec())
    }
}

/// Scripted events of the four R2PCIe counters: what the event selected by
/// `R2_PCI_PMON_CTLn` (ev_sel/umask, not interpreted) yields in each
/// uncore cycle. Cycle 0 is the first tick after the events were set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UncoreEvents {
    patterns: [EventPattern; R2_COUNTERS],
}

impl UncoreEvents {
    /// No events.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counter `counter`'s event count per cycle (indices of 4 and above
    /// are ignored).
    pub fn per_cycle(mut self, counter: usize, pattern: impl Into<EventPattern>) -> Self {
        if let Some(p) = self.patterns.get_mut(counter) {
            *p = pattern.into();
        }
        self
    }

    /// Counter `counter`'s pattern.
    pub fn pattern(&self, counter: usize) -> Option<&EventPattern> {
        self.patterns.get(counter)
    }
}

/// Configuration of the uncore model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UncoreConfig {
    /// Cycles between an ov_en overflow and the global freeze; the
    /// counters keep counting (and wrap) during these cycles.
    pub freeze_delay: u64,
}

impl UncoreConfig {
    /// Default [`UncoreConfig::freeze_delay`].
    pub const DEFAULT_FREEZE_DELAY: u64 = 10;
}

impl Default for UncoreConfig {
    fn default() -> Self {
        UncoreConfig {
            freeze_delay: Self::DEFAULT_FREEZE_DELAY,
        }
    }
}

/// A register: index in the emulator's register list and value-store index.
type Loc = Option<(usize, usize)>;

/// The R2PCIe / UBox counter model (PRM 004; see "CPU counters" in the
/// crate documentation): off until turned on with
/// [`Emulator::unit_mut::<UncoreUnit>()`](crate::Emulator::unit_mut)`.enable(cfg)`.
#[derive(Clone, Debug)]
pub struct UncoreUnit {
    pub(super) cfg: UncoreConfig,
    pub(super) events: UncoreEvents,
    /// Cycles since the events were set.
    cycle: u64,
    ctl: [Loc; R2_COUNTERS],
    ctr: [Loc; R2_COUNTERS],
    box_ctl: Loc,
    box_status: Loc,
    gctl: Loc,
    gstatus: Loc,
    // CTL fields.
    en: F,
    ov_en: F,
    edge_det: F,
    thresh: F,
    rst: F,
    // Counter.
    count: F,
    width: u32,
    // Box control / status.
    frz: F,
    rst_ctrs: F,
    rst_ctrl: F,
    ov: F,
    // UBox.
    frz_all: F,
    unfrz_all: F,
    ov_rp: F,
    /// Last `raw >= thresh` per counter (edge detection).
    prev: [bool; R2_COUNTERS],
    /// UBox global freeze in effect.
    pub(super) frozen: bool,
    /// Tick at whose end the scheduled global freeze takes effect.
    pub(super) freeze_at: Option<u64>,
}

impl UncoreUnit {
    /// The model on the bound registers (`None`: a model that does
    /// nothing); `loc` locates the register at an address.
    pub(super) fn new(
        b: Option<&crate::bind::Uncore>,
        cfg: UncoreConfig,
        loc: &dyn Fn(u64) -> Loc,
    ) -> Self {
        let mut ctl = [None; R2_COUNTERS];
        let mut ctr = [None; R2_COUNTERS];
        let at = |r: Option<crate::bind::RegRef>| r.and_then(|r| loc(r.address));
        if let Some(b) = b {
            for (slot, r) in ctl.iter_mut().zip(b.ctls) {
                *slot = loc(r.address);
            }
            for (slot, r) in ctr.iter_mut().zip(b.ctrs) {
                *slot = loc(r.address);
            }
        }
        let field =
            |f: fn(&crate::bind::Uncore) -> Option<crate::bind::FieldRef>| F::of(b.and_then(f));
        UncoreUnit {
            cfg,
            events: UncoreEvents::default(),
            cycle: 0,
            ctl,
            ctr,
            box_ctl: at(b.and_then(|b| b.box_ctl)),
            box_status: at(b.and_then(|b| b.box_status)),
            gctl: at(b.and_then(|b| b.gctl)),
            gstatus: at(b.and_then(|b| b.gstatus)),
            en: field(|b| b.en),
            ov_en: field(|b| b.ov_en),
            edge_det: field(|b| b.edge_det),
            thresh: field(|b| b.thresh),
            rst: field(|b| b.rst),
            count: field(|b| b.count),
            width: b.and_then(|b| b.count).map_or(0, |f| f.width.min(63)),
            frz: field(|b| b.frz),
            rst_ctrs: field(|b| b.rst_ctrs),
            rst_ctrl: field(|b| b.rst_ctrl),
            ov: field(|b| b.ov),
            frz_all: field(|b| b.frz_all),
            unfrz_all: field(|b| b.unfrz_all),
            ov_rp: field(|b| b.ov_rp),
            prev: [false; R2_COUNTERS],
            frozen: false,
            freeze_at: None,
        }
    }

    pub(super) fn set_events(&mut self, events: UncoreEvents) {
        self.events = events;
        self.cycle = 0;
    }

    fn get(values: &[u64], l: Loc) -> u64 {
        l.and_then(|(_, b)| values.get(b)).copied().unwrap_or(0)
    }

    fn slot(values: &mut [u64], l: Loc) -> Option<&mut u64> {
        l.and_then(|(_, b)| values.get_mut(b))
    }

    /// Register `ri`'s stored value changed (software write or poke): act
    /// on the write-only command bits, then clear them in storage.
    pub(super) fn written(&mut self, values: &mut [u64], ri: usize) {
        let is = |l: Loc| l.is_some_and(|(r, _)| r == ri);
        for n in 0..R2_COUNTERS {
            if is(self.ctl[n]) {
                let v = Self::get(values, self.ctl[n]);
                if self.rst.on(v) {
                    if let Some(c) = Self::slot(values, self.ctr[n]) {
                        *c &= !self.count.mask;
                    }
                    self.prev[n] = false;
                    if let Some(c) = Self::slot(values, self.ctl[n]) {
                        *c &= !self.rst.mask;
                    }
                }
                return;
            }
        }
        if is(self.box_ctl) {
            let v = Self::get(values, self.box_ctl);
            if self.rst_ctrl.on(v) {
                for n in 0..R2_COUNTERS {
                    if let Some(c) = Self::slot(values, self.ctl[n]) {
                        *c = 0;
                    }
                }
                self.prev = [false; R2_COUNTERS];
            }
            if self.rst_ctrs.on(v) {
                for n in 0..R2_COUNTERS {
                    if let Some(c) = Self::slot(values, self.ctr[n]) {
                        *c &= !self.count.mask;
                    }
                }
                self.prev = [false; R2_COUNTERS];
            }
            if let Some(c) = Self::slot(values, self.box_ctl) {
                *c &= !(self.rst_ctrl.mask | self.rst_ctrs.mask);
            }
            return;
        }
        if is(self.gctl) {
            let v = Self::get(values, self.gctl);
            if self.unfrz_all.on(v) {
                self.frozen = false;
                self.freeze_at = None;
            }
            if self.frz_all.on(v) {
                self.frozen = true;
                self.freeze_at = None;
            }
            if let Some(c) = Self::slot(values, self.gctl) {
                *c &= !(self.frz_all.mask | self.unfrz_all.mask);
            }
        }
    }

    /// Run ticks `from + 1 ..= to`.
    pub(super) fn advance(&mut self, values: &mut [u64], from: u64, to: u64) {
        let mut t = from;
        while t < to {
            if self.frozen && self.freeze_at.is_none() {
                // Nothing counts until software unfreezes.
                self.cycle = self.cycle.wrapping_add(to - t);
                return;
            }
            t += 1;
            let quiet = self.step(values, t);
            if quiet {
                let k = self.quiet_run(values, to - t);
                t += k;
                self.cycle = self.cycle.wrapping_add(k);
            }
        }
    }

    /// Counting state of counter `n` this tick.
    fn counting(&self, values: &[u64], n: usize) -> bool {
        !self.frozen
            && !self.frz.on(Self::get(values, self.box_ctl))
            && self.en.on(Self::get(values, self.ctl[n]))
    }

    /// Increment of counter `n` for `raw` events, updating its edge state.
    fn shape(&mut self, ctl: u64, n: usize, raw: u64) -> u64 {
        let thresh = self.thresh.get(ctl);
        if thresh == 0 {
            return raw;
        }
        let cond = raw >= thresh;
        let prev = core::mem::replace(&mut self.prev[n], cond);
        if self.edge_det.on(ctl) {
            u64::from(cond && !prev)
        } else {
            u64::from(cond)
        }
    }

    /// One uncore cycle at tick `t`; true when it was quiet: no overflow,
    /// no edge-state change, only constant patterns counting.
    fn step(&mut self, values: &mut [u64], t: u64) -> bool {
        let mut quiet = self.freeze_at.is_none();
        if self.width == 0 {
            self.cycle = self.cycle.wrapping_add(1);
            return quiet;
        }
        let modulus = 1u128 << self.width;
        let cycle = self.cycle;
        self.cycle = self.cycle.wrapping_add(1);
        for n in 0..R2_COUNTERS {
            if !self.counting(values, n) {
                continue;
            }
            let ctl = Self::get(values, self.ctl[n]);
            let pattern = self.events.patterns.get(n);
            let raw = pattern.map_or(0, |p| p.at(cycle));
            if !matches!(pattern, Some(EventPattern::Constant(_)) | None) {
                quiet = false;
            }
            let prev = self.prev[n];
            let inc = self.shape(ctl, n, raw);
            if prev != self.prev[n] {
                quiet = false;
            }
            if inc == 0 {
                continue;
            }
            let Some(c) = Self::slot(values, self.ctr[n]) else {
                continue;
            };
            let cnt = self.count.get(*c);
            let total = u128::from(cnt) + u128::from(inc);
            let new = (total % modulus) as u64;
            *c = (*c & !self.count.mask) | (new << self.count.lsb) & self.count.mask;
            if total < modulus {
                continue;
            }
            // Carry out of the top bit.
            quiet = false;
            let bit = 1u64.checked_shl(self.ov.lsb + n as u32).unwrap_or(0) & self.ov.mask;
            if let Some(s) = Self::slot(values, self.box_status) {
                *s |= bit;
            }
            if self.ov_en.on(ctl) {
                if let Some(s) = Self::slot(values, self.gstatus) {
                    *s |= self.ov_rp.mask;
                }
                if self.freeze_at.is_none() && !self.frozen {
                    self.freeze_at = Some(t.saturating_add(self.cfg.freeze_delay));
                }
            }
        }
        if let Some(f) = self.freeze_at {
            if t >= f {
                self.frozen = true;
                self.freeze_at = None;
            }
        }
        quiet
    }

    /// Ticks (at most `left`) the quiet cycle repeats without an overflow;
    /// their counts are added.
    fn quiet_run(&mut self, values: &mut [u64], left: u64) -> u64 {
        let mut incs = [0u64; R2_COUNTERS];
        let mut k = left;
        for (n, inc) in incs.iter_mut().enumerate() {
            if !self.counting(values, n) {
                continue;
            }
            let ctl = Self::get(values, self.ctl[n]);
            let raw = self.events.patterns.get(n).map_or(0, |p| p.at(0));
            let thresh = self.thresh.get(ctl);
            *inc = if thresh == 0 {
                raw
            } else if self.edge_det.on(ctl) {
                0 // steady: the condition did not change
            } else {
                u64::from(raw >= thresh)
            };
            if *inc == 0 {
                continue;
            }
            let cnt = self.count.get(Self::get(values, self.ctr[n]));
            let room = low(self.width).saturating_sub(cnt);
            k = k.min(room / *inc);
        }
        for (n, &inc) in incs.iter().enumerate() {
            if inc == 0 {
                continue;
            }
            if let Some(c) = Self::slot(values, self.ctr[n]) {
                let cnt = self.count.get(*c);
                let new = cnt.saturating_add(inc.saturating_mul(k)) & low(self.width);
                *c = (*c & !self.count.mask) | (new << self.count.lsb) & self.count.mask;
            }
        }
        k
    }
}

fn low(width: u32) -> u64 {
    (1u64 << width.min(63)) - 1
}

impl Unit for UncoreUnit {
    type Config = UncoreConfig;

    fn attach(rf: &mut RegFile, cfg: UncoreConfig) -> Self {
        let b = rf.bindings;
        UncoreUnit::new(b.uncore.as_ref(), cfg, &|a| rf.locate(a))
    }

    fn configure(&mut self, _rf: &mut RegFile, cfg: UncoreConfig) {
        self.cfg = cfg;
    }
}

impl Machinery for UncoreUnit {
    fn written(&mut self, rf: &mut RegFile, ri: usize, _software: bool) {
        UncoreUnit::written(self, &mut rf.values, ri);
    }

    fn advance(&mut self, rf: &mut RegFile, from: u64, to: u64) {
        UncoreUnit::advance(self, &mut rf.values, from, to);
    }

    fn watches(&self, b: &crate::bind::Bindings, out: &mut Vec<u64>) {
        if let Some(u) = b.uncore {
            u.addresses(out);
        }
    }
}

impl UnitRef<'_, UncoreUnit> {
    /// Whether the UBox global freeze is in effect (after `frz_all` or an
    /// `ov_en` overflow's delayed freeze, until `unfrz_all`; false when
    /// off).
    pub fn frozen(&self) -> bool {
        self.unit.is_some_and(|m| m.frozen)
    }

    /// The tick at whose end a scheduled global freeze takes effect.
    pub fn freeze_at(&self) -> Option<u64> {
        self.unit.and_then(|m| m.freeze_at)
    }
}

impl UnitMut<'_, UncoreUnit> {
    /// Replace the scripted events; the patterns restart at cycle 0 with
    /// the next tick (no effect when off).
    pub fn set_events(&mut self, events: UncoreEvents) {
        if let (Some(m), _) = self.parts() {
            m.set_events(events);
        }
    }
}
