//! The NOA mux: the writes software makes through the mux write port
//! (Linux i915 `NOA_WRITE`, with `NOA_WRITE_HIGH` on TGL), and whether they
//! route the test-signal generator to the Boolean stage of the CEC logic
//! (CECn-0 select 2). The registers come from the generated bindings
//! ([`crate::bind::Noa`]); the model is documented in the crate
//! documentation (section "NOA mux").

use std::collections::BTreeMap;
use std::vec::Vec;

use crate::bind::{Bindings, FieldRef};
use crate::regfile::RegFile;
use crate::unit::{Machinery, Unit, UnitRef};

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

    fn get(self, rf: &RegFile) -> u64 {
        (rf.value(self.ri) & self.mask)
            .checked_shr(self.lsb)
            .unwrap_or(0)
    }
}

/// The NOA mux of an emulator (projects whose bindings have a `noa` unit:
/// on from reset, following the mux registers). Look at it with
/// [`Emulator::unit::<NoaMux>()`](crate::Emulator::unit).
#[derive(Clone, Debug)]
pub struct NoaMux {
    write: Option<Rf>,
    high: Option<Rf>,
    enable: Option<Rf>,
    /// The routing table's writes: (list, NOA_WRITE_HIGH in force,
    /// NOA_WRITE); one list, or one per GT where the table has a `gt`
    /// column.
    routing: Vec<(u64, u64, u64)>,
    /// The latest write per mux key (NOA_WRITE_HIGH in force, NOA_WRITE
    /// bits 31:16): its full value.
    mux: BTreeMap<(u64, u64), u64>,
    /// Mux writes seen.
    writes: u64,
    /// The Boolean stage carries the test signals.
    routed: bool,
}

impl NoaMux {
    /// The model on `b`'s NOA bindings (without them: a mux with no write
    /// port, which never routes).
    fn new(b: &Bindings, reg_at: &dyn Fn(u64) -> Option<usize>) -> Self {
        let u = b.noa.unwrap_or_default();
        NoaMux {
            write: Rf::new(u.write, reg_at),
            high: Rf::new(u.write_high, reg_at),
            enable: Rf::new(u.enable, reg_at),
            routing: u
                .routing_high
                .iter()
                .copied()
                .zip(u.routing_write.iter().copied())
                .enumerate()
                .map(|(i, (h, w))| (u.routing_gt.get(i).copied().unwrap_or(0), h, w))
                .collect(),
            mux: BTreeMap::new(),
            writes: 0,
            routed: false,
        }
    }

    fn key(high: u64, write: u64) -> (u64, u64) {
        (high, write >> 16)
    }

    fn update(&mut self, rf: &RegFile) {
        let enabled = self.enable.is_some_and(|f| f.get(rf) != 0);
        // Routed when every write of one list is the latest under its key.
        let in_force = |list: u64| {
            self.routing
                .iter()
                .filter(|r| r.0 == list)
                .all(|&(_, h, w)| self.mux.get(&Self::key(h, w)) == Some(&w))
        };
        self.routed = enabled && self.routing.iter().any(|r| in_force(r.0));
    }
}

impl Unit for NoaMux {
    type Config = ();

    fn attach(rf: &mut RegFile, _cfg: ()) -> Self {
        let b = rf.bindings;
        NoaMux::new(&b, &|a| rf.reg_at(a))
    }

    fn configure(&mut self, _rf: &mut RegFile, _cfg: ()) {}
}

impl Machinery for NoaMux {
    fn written(&mut self, rf: &mut RegFile, ri: usize, software: bool) {
        if let (Some(w), true) = (self.write, software) {
            if w.ri == ri {
                let value = w.get(rf);
                let high = self.high.map_or(0, |h| h.get(rf));
                self.mux.insert(Self::key(high, value), value);
                self.writes = self.writes.saturating_add(1);
            }
        }
        self.update(rf);
        // The OA unit plans its CEC counting again when this changes.
        rf.test_signals_routed = self.routed;
    }

    fn advance(&mut self, _rf: &mut RegFile, _from: u64, _to: u64) {}

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

impl UnitRef<'_, NoaMux> {
    /// Mux writes seen through the NOA write port (0 when off).
    pub fn writes(&self) -> u64 {
        self.unit.map_or(0, |m| m.writes)
    }

    /// Whether the NOA mux routes the test-signal generator to the Boolean
    /// stage of the CEC logic (CECn-0 select 2 then reads
    /// [`NoaSource::test_signals`](crate::NoaSource::test_signals)): the
    /// NOA enable bit is set and every write of the routing table (of one
    /// of its per-GT lists, DG2 and MTL) is the latest under its key; see
    /// "NOA mux" in the crate documentation.
    pub fn test_signals_routed(&self) -> bool {
        self.unit.is_some_and(|m| m.routed)
    }
}
