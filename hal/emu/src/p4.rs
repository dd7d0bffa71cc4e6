//! Pentium 4 (NetBurst) performance counters: 18 counters with their CCCRs,
//! cascading per the project's `cascade_pairs` table, threshold/complement/
//! edge filtering, FORCE_OVF and OVF_PMI (see "CPU counters" in the module
//! documentation of [`crate::emu`]).

use std::vec::Vec;

use crate::bind::Bits as F;
use crate::regfile::RegFile;
use crate::unit::{Machinery, Unit, UnitMut, UnitRef};

/// Number of P4 counters.
pub const P4_COUNTERS: usize = 18;

/// Interrupts kept by [`P4Unit`'s `interrupts`](crate::UnitRef::interrupts); later ones are only
/// counted ([`P4Unit`'s `interrupts_dropped`](crate::UnitRef::interrupts_dropped)).
pub const CPU_INTERRUPT_CAP: usize = 1 << 16;

/// Scripted event source for the Pentium 4 counters: how many times, per
/// tick, the event selected for counter `n` (by its CCCR's ESCR select and
/// that ESCR) occurs.
///
/// Events are attributed per counter index, not per ESCR event code: the
/// ESCR and the CCCR's `escr_select` are not interpreted (two counters
/// programmed for the same event get independent rates). Counters not
/// named have rate 0. Indices of 18 and above are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuEvents {
    rates: [u64; P4_COUNTERS],
}

impl CpuEvents {
    /// No events anywhere.
    pub fn new() -> Self {
        Self::default()
    }

    /// The event of counter `counter` occurs `per_tick` times per tick.
    pub fn rate(mut self, counter: usize, per_tick: u64) -> Self {
        if let Some(r) = self.rates.get_mut(counter) {
            *r = per_tick;
        }
        self
    }

    /// The rate of counter `counter` (0 when out of range).
    pub fn rate_of(&self, counter: usize) -> u64 {
        self.rates.get(counter).copied().unwrap_or(0)
    }
}

/// A performance-monitoring interrupt recorded by the P4 model
/// ([`P4Unit`'s `interrupts`](crate::UnitRef::interrupts)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuInterrupt {
    /// The tick in which the interrupt was raised (the tick of the first
    /// event the counter counted after its overflow).
    pub time: u64,
    /// The counter (0..17) whose overflow raised it.
    pub counter: u8,
}

/// The CCCR fields the model uses.
#[derive(Clone, Copy, Debug, Default)]
struct Cccr {
    enable: F,
    cascade: F,
    ovf: F,
    ovf_pmi: F,
    force_ovf: F,
    edge: F,
    threshold: F,
    complement: F,
    compare: F,
}

/// The Pentium 4 counter model (PRM 002; see "CPU counters" in the crate
/// documentation): off until turned on with
/// [`Emulator::unit_mut::<P4Unit>()`](crate::Emulator::unit_mut)`.enable(events)`.
#[derive(Clone, Debug)]
pub struct P4Unit {
    pub(super) events: CpuEvents,
    /// Value-store index of each counter / CCCR register.
    counter: [Option<usize>; P4_COUNTERS],
    cccr: [Option<usize>; P4_COUNTERS],
    /// The cascade source of each target (`cascade_pairs`).
    source: [Option<usize>; P4_COUNTERS],
    f: Cccr,
    count: F,
    /// Count modulus bits (40).
    width: u32,
    /// Overflowed with OVF_PMI set; the interrupt comes with the next event.
    pending: [bool; P4_COUNTERS],
    /// Last threshold comparison result (edge detection).
    prev: [bool; P4_COUNTERS],
    pub(super) interrupts: Vec<CpuInterrupt>,
    pub(super) dropped: u64,
}

/// What one tick did.
struct Tick {
    /// Nothing but counts changed, and the next tick will do the same.
    quiet: bool,
    /// Increments per tick of each counter counting from round 0.
    inc: [u64; P4_COUNTERS],
}

impl P4Unit {
    /// The model on the bound registers (`None`: a model that does
    /// nothing); `base` gives the value-store index of the register at an
    /// address.
    pub(super) fn new(
        b: Option<&crate::bind::P4>,
        events: CpuEvents,
        base: &dyn Fn(u64) -> Option<usize>,
    ) -> Self {
        let mut counter = [None; P4_COUNTERS];
        let mut cccr = [None; P4_COUNTERS];
        let mut source = [None; P4_COUNTERS];
        let (mut f, mut count, mut width) = (Cccr::default(), F::default(), 0);
        if let Some(b) = b {
            for (slot, r) in counter.iter_mut().zip(b.counters) {
                *slot = base(r.address);
            }
            for (slot, r) in cccr.iter_mut().zip(b.cccrs) {
                *slot = base(r.address);
            }
            for (&t, &s) in b.cascade_targets.iter().zip(b.cascade_sources) {
                let (Ok(t), Ok(s)) = (usize::try_from(t), usize::try_from(s)) else {
                    continue;
                };
                if s < P4_COUNTERS {
                    if let Some(slot) = source.get_mut(t) {
                        *slot = Some(s);
                    }
                }
            }
            f = Cccr {
                enable: F::of(b.enable),
                cascade: F::of(b.cascade),
                ovf: F::of(b.ovf),
                ovf_pmi: F::of(b.ovf_pmi),
                force_ovf: F::of(b.force_ovf),
                edge: F::of(b.edge),
                threshold: F::of(b.threshold),
                complement: F::of(b.complement),
                compare: F::of(b.compare),
            };
            count = F::of(b.count);
            width = b.count.map_or(0, |f| f.width.min(63));
        }
        P4Unit {
            events,
            counter,
            cccr,
            source,
            f,
            count,
            width,
            pending: [false; P4_COUNTERS],
            prev: [false; P4_COUNTERS],
            interrupts: Vec::new(),
            dropped: 0,
        }
    }

    fn load(values: &[u64], i: Option<usize>) -> u64 {
        i.and_then(|i| values.get(i)).copied().unwrap_or(0)
    }

    fn raise(&mut self, time: u64, counter: usize) {
        if self.interrupts.len() < CPU_INTERRUPT_CAP {
            self.interrupts.push(CpuInterrupt {
                time,
                counter: counter as u8,
            });
        } else {
            self.dropped = self.dropped.saturating_add(1);
        }
    }

    /// Run ticks `from + 1 ..= to`.
    pub(super) fn advance(&mut self, values: &mut [u64], from: u64, to: u64) {
        if self.width == 0 {
            return;
        }
        let mut t = from;
        while t < to {
            t += 1;
            let tick = self.step(values, t);
            if tick.quiet {
                let k = self.quiet_run(values, &tick.inc, to - t);
                t += k;
            }
        }
    }

    /// Ticks (at most `left`) the quiet state can be repeated without any
    /// counter overflowing; their counts are added.
    fn quiet_run(&mut self, values: &mut [u64], inc: &[u64; P4_COUNTERS], left: u64) -> u64 {
        let modulus = 1u64 << self.width;
        let mut k = left;
        for (n, &i) in inc.iter().enumerate() {
            if i == 0 {
                continue;
            }
            let cnt = self.count.get(Self::load(values, self.counter[n]));
            let room = (modulus - 1).saturating_sub(cnt);
            k = k.min(room / i);
        }
        if k == 0 {
            return 0;
        }
        for (n, &i) in inc.iter().enumerate() {
            if i == 0 {
                continue;
            }
            let Some(slot) = self.counter[n].and_then(|x| values.get_mut(x)) else {
                continue;
            };
            let cnt = self.count.get(*slot);
            // No overflow by construction of k.
            let new = cnt.saturating_add(i.saturating_mul(k)) & (modulus - 1);
            *slot = (*slot & !self.count.mask) | (new << self.count.lsb) & self.count.mask;
        }
        k
    }

    /// One tick at time `t`. Within a tick, events are ordered in rounds:
    /// counter n's events occur in rounds 0 .. rate(n) - 1.
    fn step(&mut self, values: &mut [u64], t: u64) -> Tick {
        let f = self.f;
        let width = self.width;
        let modulus = 1u128 << width;
        let mut cccr0 = [0u64; P4_COUNTERS];
        for (n, c) in cccr0.iter_mut().enumerate() {
            *c = Self::load(values, self.cccr[n]);
        }
        let pending0 = self.pending;
        let prev0 = self.prev;
        let mut resolved = [false; P4_COUNTERS];
        let mut ovf_round: [Option<u64>; P4_COUNTERS] = [None; P4_COUNTERS];
        let mut inc = [0u64; P4_COUNTERS];
        let mut quiet = true;
        for _pass in 0..=P4_COUNTERS {
            let mut progress = false;
            for n in 0..P4_COUNTERS {
                if resolved[n] {
                    continue;
                }
                let cc = cccr0[n];
                // Activation round: Some(Some(a)) counts from round a,
                // Some(None) does not count, None waits for its source.
                let act = if f.enable.on(cc) {
                    Some(Some(0))
                } else if f.cascade.on(cc) {
                    match self.source[n] {
                        None => Some(None),
                        Some(s) if f.ovf.on(cccr0[s]) => Some(Some(0)),
                        Some(s) if resolved[s] => Some(ovf_round[s].map(|o| o + 1)),
                        Some(_) => None,
                    }
                } else {
                    Some(None)
                };
                let Some(act) = act else { continue };
                resolved[n] = true;
                progress = true;
                let rate = self.events.rate_of(n);
                let window = rate.saturating_sub(act.unwrap_or(0));
                let compare = f.compare.on(cc);
                let cond = if f.complement.on(cc) {
                    window <= f.threshold.get(cc)
                } else {
                    window > f.threshold.get(cc)
                };
                let rising = cond && !self.prev[n];
                self.prev[n] = cond;
                let Some(a) = act else { continue };
                if a > 0 {
                    quiet = false;
                }
                // Events counted this tick and the round of the j-th one
                // (a compare-mode increment happens at the activation round).
                let count_n = if compare {
                    u64::from(if f.edge.on(cc) { rising } else { cond })
                } else {
                    window
                };
                let round_of = |j: u64| if compare { a } else { a.saturating_add(j) };
                if count_n == 0 {
                    continue;
                }
                if a == 0 {
                    inc[n] = count_n;
                }
                let Some(slot) = self.counter[n].and_then(|x| values.get_mut(x)) else {
                    continue;
                };
                let cnt = self.count.get(*slot);
                let total = u128::from(cnt) + u128::from(count_n);
                let new = (total % modulus) as u64;
                *slot = (*slot & !self.count.mask) | (new << self.count.lsb) & self.count.mask;
                let force = f.force_ovf.on(cc);
                let (ovfs, first, last) = if force {
                    (u128::from(count_n), 0u64, count_n - 1)
                } else {
                    let o = total >> width;
                    let first = (modulus - u128::from(cnt) - 1) as u64;
                    let last = u128::from(first) + o.saturating_sub(1) * modulus;
                    (o, first, u64::try_from(last).unwrap_or(u64::MAX))
                };
                let mut raised = false;
                if self.pending[n] {
                    self.pending[n] = false;
                    self.raise(t, n);
                    raised = true;
                }
                if ovfs == 0 {
                    continue;
                }
                quiet = false;
                if !f.ovf.on(cc) {
                    ovf_round[n] = Some(round_of(first));
                }
                if let Some(c) = self.cccr[n].and_then(|x| values.get_mut(x)) {
                    *c |= f.ovf.mask;
                }
                if f.ovf_pmi.on(cc) {
                    if last < count_n - 1 {
                        // An event follows the overflow within this tick.
                        if !raised {
                            self.raise(t, n);
                        }
                    } else {
                        self.pending[n] = true;
                    }
                }
            }
            if !progress {
                break;
            }
        }
        // Counters still waiting (mutual cascades without a running source)
        // do not count; their comparison still updates.
        for n in 0..P4_COUNTERS {
            if !resolved[n] {
                let cc = cccr0[n];
                let window = self.events.rate_of(n);
                self.prev[n] = if f.complement.on(cc) {
                    window <= f.threshold.get(cc)
                } else {
                    window > f.threshold.get(cc)
                };
            }
        }
        if self.pending != pending0 || self.prev != prev0 {
            quiet = false;
        }
        for (n, c) in cccr0.iter().enumerate() {
            if Self::load(values, self.cccr[n]) != *c {
                quiet = false;
            }
        }
        Tick { quiet, inc }
    }
}

impl Unit for P4Unit {
    type Config = CpuEvents;

    fn attach(rf: &mut RegFile, events: CpuEvents) -> Self {
        let b = rf.bindings;
        P4Unit::new(b.p4.as_ref(), events, &|a| {
            rf.locate(a).map(|(_, base)| base)
        })
    }

    fn configure(&mut self, _rf: &mut RegFile, events: CpuEvents) {
        self.events = events;
    }
}

impl Machinery for P4Unit {
    fn written(&mut self, _rf: &mut RegFile, _ri: usize, _software: bool) {
        // The model reads its registers at every tick: nothing to do here.
    }

    fn advance(&mut self, rf: &mut RegFile, from: u64, to: u64) {
        P4Unit::advance(self, &mut rf.values, from, to);
    }

    fn watches(&self, _b: &crate::bind::Bindings, _out: &mut Vec<u64>) {}
}

impl<'a> UnitRef<'a, P4Unit> {
    /// The scripted events (`None` when off).
    pub fn events(&self) -> Option<&'a CpuEvents> {
        self.unit.map(|m| &m.events)
    }

    /// The performance-monitoring interrupts raised so far, oldest first
    /// (at most [`CPU_INTERRUPT_CAP`]; empty when off).
    pub fn interrupts(&self) -> &'a [CpuInterrupt] {
        self.unit.map_or(&[], |m| &m.interrupts)
    }

    /// Interrupts not recorded because the list was full.
    pub fn interrupts_dropped(&self) -> u64 {
        self.unit.map_or(0, |m| m.dropped)
    }
}

impl UnitMut<'_, P4Unit> {
    /// Replace the scripted events from the next tick on (no effect when
    /// off).
    pub fn set_events(&mut self, events: CpuEvents) {
        if let (Some(m), _) = self.parts() {
            m.events = events;
        }
    }

    /// Take the recorded interrupts, leaving none.
    pub fn take_interrupts(&mut self) -> Vec<CpuInterrupt> {
        match self.parts() {
            (Some(m), _) => core::mem::take(&mut m.interrupts),
            (None, _) => Vec::new(),
        }
    }
}
