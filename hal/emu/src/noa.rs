//! The NOA mux: the writes software makes through the mux write port
//! (Linux i915 `NOA_WRITE`, with `NOA_WRITE_HIGH` on TGL), and whether they
//! route the test-signal generator to the Boolean stage of the CEC logic
//! (CECn-0 select 2). The registers come from the generated bindings
//! ([`crate::bind::Noa`]); the model is documented in the crate
//! documentation (section "NOA mux").

use std::collections::BTreeMap;
use std::vec::Vec;

use crate::bind::{Bindings, FieldRef};
use crate::Emulator;

/// A bound field resolved to the register file.
#[derive(Clone, Copy, Debug)]
struct Rf {
    ri: usize,
    mask: u64,
    lsb: u32,
}

impl Rf {
    fn new(f: Option<FieldRef>, reg_at: &dyn Fn(u64) -> Option<usize>) -> Option<Self> {
        let f = f?;
        Some(Rf {
            ri: reg_at(f.reg.address)?,
            mask: f.mask(),
            lsb: f.lsb,
        })
    }

    fn get(self, emu: &Emulator) -> u64 {
        (emu.stored_value(self.ri) & self.mask)
            .checked_shr(self.lsb)
            .unwrap_or(0)
    }
}

/// The mux state of one emulator.
#[derive(Clone, Debug)]
pub(crate) struct Noa {
    write: Option<Rf>,
    high: Option<Rf>,
    enable: Option<Rf>,
    /// The routing table's writes: (NOA_WRITE_HIGH in force, NOA_WRITE).
    routing: Vec<(u64, u64)>,
    /// The latest write per mux key (NOA_WRITE_HIGH in force, NOA_WRITE
    /// bits 31:16): its full value.
    mux: BTreeMap<(u64, u64), u64>,
    /// Mux writes seen.
    writes: u64,
    /// The Boolean stage carries the test signals.
    routed: bool,
}

impl Noa {
    /// The model on `b`'s NOA bindings (`None` when the project has none).
    pub(crate) fn new(b: &Bindings, reg_at: &dyn Fn(u64) -> Option<usize>) -> Option<Self> {
        let u = b.noa?;
        let write = Rf::new(u.write, reg_at)?;
        Some(Noa {
            write: Some(write),
            high: Rf::new(u.write_high, reg_at),
            enable: Rf::new(u.enable, reg_at),
            routing: u
                .routing_high
                .iter()
                .copied()
                .zip(u.routing_write.iter().copied())
                .collect(),
            mux: BTreeMap::new(),
            writes: 0,
            routed: false,
        })
    }

    /// The Boolean stage carries the test signals: the NOA enable bit is
    /// set and every write of the routing table is the latest under its key.
    pub(crate) fn routed(&self) -> bool {
        self.routed
    }

    /// Mux writes seen since the emulator was built.
    pub(crate) fn writes(&self) -> u64 {
        self.writes
    }

    fn key(high: u64, write: u64) -> (u64, u64) {
        (high, write >> 16)
    }

    fn update(&mut self, emu: &Emulator) {
        let enabled = self.enable.is_some_and(|f| f.get(emu) != 0);
        self.routed = enabled
            && !self.routing.is_empty()
            && self
                .routing
                .iter()
                .all(|&(h, w)| self.mux.get(&Self::key(h, w)) == Some(&w));
    }
}

impl crate::unit::Unit for Noa {
    fn written(&mut self, emu: &mut Emulator, ri: usize, software: bool) {
        let was = self.routed;
        if let (Some(w), true) = (self.write, software) {
            if w.ri == ri {
                let value = w.get(emu);
                let high = self.high.map_or(0, |h| h.get(emu));
                self.mux.insert(Self::key(high, value), value);
                self.writes = self.writes.saturating_add(1);
            }
        }
        self.update(emu);
        if self.routed != was {
            emu.boolean_stage_changed();
        }
    }

    fn advance(&mut self, _emu: &mut Emulator, _from: u64, _to: u64) {}

    fn watches(&self, b: &Bindings, out: &mut Vec<u64>) {
        if let Some(u) = b.noa {
            out.extend(
                [u.write, u.write_high, u.enable]
                    .into_iter()
                    .flatten()
                    .map(|f| f.reg.address),
            );
        }
    }
}

impl Emulator {
    /// The stored value of register `ri` (its first instance; 0 if none).
    pub(crate) fn stored_value(&self, ri: usize) -> u64 {
        self.regs
            .get(ri)
            .and_then(|r| self.values.get(r.base))
            .copied()
            .unwrap_or(0)
    }

    /// Whether the NOA mux routes the test signals to the Boolean stage
    /// now (false on projects without a NOA model).
    pub(crate) fn boolean_routed(&self) -> bool {
        self.mux.as_ref().is_some_and(|m| m.routed())
    }

    /// Mux writes seen through the NOA write port (0 without a NOA model).
    pub fn noa_mux_writes(&self) -> u64 {
        self.mux.as_ref().map_or(0, |m| m.writes())
    }

    /// Whether the NOA mux routes the test-signal generator to the Boolean
    /// stage of the CEC logic (CECn-0 select 2 then reads
    /// [`NoaSource::test_signals`](crate::NoaSource::test_signals)); see
    /// "NOA mux" in the crate documentation.
    pub fn noa_test_signals_routed(&self) -> bool {
        self.boolean_routed()
    }
}
