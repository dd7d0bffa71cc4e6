//! Units: the hardware behind the register file (the OA unit, the NOA mux,
//! the Pentium 4 counters, the R2PCIe/UBox counters). The emulator is a
//! [`RegFile`] plus a list of units; each unit owns its state and the
//! registers it binds (generated bindings, [`crate::bind`]), and reaches
//! the register file only through the `&mut RegFile` handed to it when a
//! register it watches is stored or time moves.
//!
//! Users reach a unit by its type: [`Emulator::unit`] to look,
//! [`Emulator::unit_mut`] to act (and to turn it on or off). A unit that is
//! off answers as documented on each method (`None`, nothing, or empty).
//!
//! ```
//! use perfregs_emu::{Emulator, OaUnit, P4Unit, SlotKind, Sku, Workload};
//! use hal::hsw;
//!
//! let mut emu = Emulator::new(&hsw::PROJECT, Sku::default());
//! emu.unit_mut::<OaUnit>().set_workload(Workload::new().rate(0, 5));
//! assert!(emu.unit::<OaUnit>().is_on());
//! assert_eq!(emu.unit::<OaUnit>().counter(SlotKind::A(0)), Some(0)); // counting is off
//! assert!(emu.unit::<P4Unit>().interrupts().is_empty()); // no P4 model on HSW
//! ```
//!
//! Adding a unit: a type implementing [`Unit`] in its own file, its
//! bindings (`bindings.yaml`), and the methods of its views
//! (`impl UnitRef<'_, MyUnit>`, `impl UnitMut<'_, MyUnit>`) next to it.

use core::any::Any;
use core::fmt;
use core::marker::PhantomData;
use std::boxed::Box;
use std::vec::Vec;

use crate::bind::Bindings;
use crate::regfile::RegFile;
use crate::warn::Warning;
use crate::Emulator;

/// What the register file needs of every unit (object safe; the crate's
/// units only).
pub trait Machinery: Erased + fmt::Debug {
    /// A register the unit watches ([`Machinery::watches`]) was stored:
    /// through the bus (`software`) or by a poke.
    fn written(&mut self, rf: &mut RegFile, ri: usize, software: bool);
    /// Time moved from `from` to `to` ([`Emulator::advance`]).
    fn advance(&mut self, rf: &mut RegFile, from: u64, to: u64);
    /// Append the addresses of the registers whose stores the unit must
    /// see (they leave the register file's fast path).
    fn watches(&self, b: &Bindings, out: &mut Vec<u64>);
    /// Append the unit's warnings ([`Emulator::warnings`]).
    fn warnings(&self, _out: &mut Vec<Warning>) {}
    /// Move the unit's warnings to `out` ([`Emulator::take_warnings`]).
    fn take_warnings(&mut self, _out: &mut Vec<Warning>) {}
}

/// Cloning and downcasting of a boxed unit (implemented for every
/// [`Machinery`] that is `Clone`).
pub trait Erased {
    /// A boxed copy.
    fn boxed_clone(&self) -> BoxedUnit;
    /// As [`Any`], to find a unit by type.
    fn as_any(&self) -> &dyn Any;
    /// As [`Any`], to act on a unit found by type.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Machinery + Clone + 'static> Erased for T {
    fn boxed_clone(&self) -> BoxedUnit {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A unit in the emulator's list.
pub type BoxedUnit = Box<dyn Machinery>;

/// The emulator's list of units (passed by reference to the register
/// file's access path: one pointer, read only when a watched register is
/// stored).
pub type Units = Vec<BoxedUnit>;

impl Clone for BoxedUnit {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// A unit of the emulator, reached by type through [`Emulator::unit`] and
/// [`Emulator::unit_mut`]: [`OaUnit`](crate::OaUnit),
/// [`NoaMux`](crate::NoaMux), [`P4Unit`](crate::P4Unit),
/// [`UncoreUnit`](crate::UncoreUnit).
pub trait Unit: Machinery + Clone + 'static {
    /// What turning the unit on takes ([`UnitMut::enable`]).
    type Config: Clone;
    /// The unit attached to `rf` (a project whose bindings lack the unit's
    /// registers gets a unit that does nothing).
    fn attach(rf: &mut RegFile, cfg: Self::Config) -> Self;
    /// Every instance of the unit the project has, attached to `rf` (one
    /// unless the hardware has several, as the OA units of a GPU with a
    /// media GT), in the order [`Emulator::unit_nth`] numbers them.
    fn attach_all(rf: &mut RegFile, cfg: Self::Config) -> Vec<Self> {
        std::vec![Self::attach(rf, cfg)]
    }
    /// The unit is on already: take a new configuration (its state stays).
    fn configure(&mut self, rf: &mut RegFile, cfg: Self::Config);
}

/// A look at unit `U` of an emulator ([`Emulator::unit`]); its methods are
/// documented with each unit.
pub struct UnitRef<'a, U> {
    pub(crate) unit: Option<&'a U>,
    pub(crate) rf: &'a RegFile,
}

/// Unit `U` of an emulator, to act on ([`Emulator::unit_mut`]); its
/// methods are documented with each unit.
pub struct UnitMut<'a, U> {
    pub(crate) emu: &'a mut Emulator,
    /// Which instance of the unit (0: the first).
    pub(crate) nth: usize,
    _unit: PhantomData<fn() -> U>,
}

impl<U: fmt::Debug> fmt::Debug for UnitRef<'_, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UnitRef").field(&self.unit).finish()
    }
}

impl<U: Unit> fmt::Debug for UnitMut<'_, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UnitMut")
            .field(&self.emu.find_nth::<U>(self.nth))
            .finish()
    }
}

impl<U: Unit> UnitRef<'_, U> {
    /// Whether the unit is on.
    pub fn is_on(&self) -> bool {
        self.unit.is_some()
    }
}

impl<'a, U: Unit> UnitMut<'a, U> {
    pub(crate) fn new(emu: &'a mut Emulator, nth: usize) -> Self {
        UnitMut {
            emu,
            nth,
            _unit: PhantomData,
        }
    }

    /// The unit (when on) and the register file, both to act on.
    pub(crate) fn parts(&mut self) -> (Option<&mut U>, &mut RegFile) {
        self.emu.parts_nth::<U>(self.nth)
    }

    /// The unit, when on.
    pub(crate) fn find(&self) -> Option<&U> {
        self.emu.find_nth::<U>(self.nth)
    }

    /// Whether the unit is on.
    pub fn is_on(&self) -> bool {
        self.find().is_some()
    }

    /// Turn the unit on with `cfg` (every instance the project has; see
    /// [`Emulator::unit_nth`]); already on, only the configuration of
    /// every instance changes (counters and other state stay).
    pub fn enable(&mut self, cfg: U::Config) {
        if self.emu.find_nth::<U>(0).is_some() {
            let (units, rf) = (&mut self.emu.units, &mut self.emu.rf);
            for u in units.iter_mut() {
                if let Some(u) = u.as_any_mut().downcast_mut::<U>() {
                    u.configure(rf, cfg.clone());
                }
            }
        } else {
            for u in U::attach_all(&mut self.emu.rf, cfg) {
                self.emu.units.push(Box::new(u));
            }
        }
        self.emu.rebuild_hot();
    }

    /// Turn the unit off (every instance): its state and warnings are
    /// dropped, and the registers it binds behave as plain registers.
    pub fn disable(&mut self) {
        self.emu.units.retain(|u| !u.as_any().is::<U>());
        self.emu.rebuild_hot();
    }
}
