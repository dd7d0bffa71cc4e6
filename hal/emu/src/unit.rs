//! Units: the hardware behind the register file (the OA unit, the Pentium 4
//! counters, the R2PCIe/UBox counters). Each owns its state and the
//! registers it binds (generated bindings, [`crate::bind`]); the register
//! file calls it through this one trait, taking it out of the emulator while
//! it runs so it can read and write registers, memory and time.

use std::vec::Vec;

use crate::bind::Bindings;
use crate::Emulator;

/// One emulated unit.
pub(crate) trait Unit {
    /// A register the unit watches ([`Unit::watches`]) was stored: through
    /// the bus (`software`) or by a poke.
    fn written(&mut self, emu: &mut Emulator, ri: usize, software: bool);
    /// Time moved from `from` to `to` ([`Emulator::advance`]).
    fn advance(&mut self, emu: &mut Emulator, from: u64, to: u64);
    /// Append the addresses of the registers whose stores the unit must
    /// see (they leave the register file's fast path).
    fn watches(&self, b: &Bindings, out: &mut Vec<u64>);
}
