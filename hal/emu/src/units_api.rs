//! Handles on the units, so each unit's operations live with the unit:
//! [`Emulator::oa`] / [`Emulator::oa_mut`], [`Emulator::p4`] /
//! [`Emulator::p4_mut`], [`Emulator::uncore`] / [`Emulator::uncore_mut`].
//! A shared handle looks (statistics, counters, warnings); a mutable one
//! acts (workload, contexts, MI_REPORT_PERF_COUNT, events). A unit that is
//! off answers as documented on each method (`None`, nothing, or empty).
//!
//! ```
//! use perfregs_emu::{Emulator, SlotKind, Sku, Workload};
//! use hal::hsw;
//!
//! let mut emu = Emulator::new(&hsw::PROJECT, Sku::default());
//! emu.oa_mut().set_workload(Workload::new().rate(0, 5));
//! assert!(emu.oa().is_on());
//! assert_eq!(emu.oa().counter(SlotKind::A(0)), Some(0)); // counting is off
//! assert!(emu.p4().interrupts().is_empty()); // no P4 model on HSW
//! ```

use hal::meta::FormatInfo;

use crate::{
    CpuEvents, CpuInterrupt, Emulator, NoaSource, OaConfig, OaStats, OaWarning, ReportOutcome,
    SlotKind, UncoreEvents, Workload,
};

/// The OA unit of an emulator: `OaUnit<&Emulator>` looks,
/// `OaUnit<&mut Emulator>` acts.
#[derive(Debug)]
pub struct OaUnit<E>(E);

/// The Pentium 4 counter model of an emulator.
#[derive(Debug)]
pub struct P4Unit<E>(E);

/// The R2PCIe / UBox counter model of an emulator.
#[derive(Debug)]
pub struct UncoreUnit<E>(E);

impl Emulator {
    /// The OA unit, to look at.
    pub fn oa(&self) -> OaUnit<&Emulator> {
        OaUnit(self)
    }

    /// The OA unit, to act on.
    pub fn oa_mut(&mut self) -> OaUnit<&mut Emulator> {
        OaUnit(self)
    }

    /// The Pentium 4 counter model, to look at.
    pub fn p4(&self) -> P4Unit<&Emulator> {
        P4Unit(self)
    }

    /// The Pentium 4 counter model, to act on.
    pub fn p4_mut(&mut self) -> P4Unit<&mut Emulator> {
        P4Unit(self)
    }

    /// The R2PCIe / UBox counter model, to look at.
    pub fn uncore(&self) -> UncoreUnit<&Emulator> {
        UncoreUnit(self)
    }

    /// The R2PCIe / UBox counter model, to act on.
    pub fn uncore_mut(&mut self) -> UncoreUnit<&mut Emulator> {
        UncoreUnit(self)
    }
}

impl<'a> OaUnit<&'a Emulator> {
    /// Whether the OA model is on.
    pub fn is_on(self) -> bool {
        self.0.has_oa()
    }

    /// Its configuration (`None` when off).
    pub fn config(self) -> Option<OaConfig> {
        self.0.oa_config()
    }

    /// The scripted A-counter events (`None` when off).
    pub fn workload(self) -> Option<&'a Workload> {
        self.0.workload()
    }

    /// The NOA signals the B counters see (`None` when off).
    pub fn noa(self) -> Option<&'a NoaSource> {
        self.0.noa()
    }

    /// The active context (`None`: none, or the model is off).
    pub fn context(self) -> Option<u32> {
        self.0.context()
    }

    /// The current value of a counter: `SlotKind::A(7)`, `B(0)`, `C(2)`,
    /// `GpuTicks` (the full 64-bit GPU clock), `TimeStamp` (now), `CtxId`
    /// (the active context). `None` when off or the project has no such
    /// counter.
    pub fn counter(self, slot: SlotKind) -> Option<u64> {
        self.0.oa_counter(slot)
    }

    /// The layout the OA format field selects now (`None` when off or the
    /// code has no layout).
    pub fn format(self) -> Option<&'static FormatInfo> {
        self.0.oa_format()
    }

    /// Whether buffer-overflow detection is on (off after an out-of-order
    /// programming of the OA buffer, until it is reprogrammed in order).
    pub fn overflow_detection(self) -> Option<bool> {
        self.0.oa_overflow_detection()
    }

    /// Counts of what the model did (`None` when off).
    pub fn stats(self) -> Option<OaStats> {
        self.0.oa_stats()
    }

    /// The model's warnings, oldest first (also in
    /// [`Emulator::warnings`]).
    pub fn warnings(self) -> Vec<OaWarning> {
        self.0.oa_warnings()
    }
}

impl OaUnit<&mut Emulator> {
    /// Replace the scripted A-counter events (no effect when off).
    pub fn set_workload(&mut self, workload: Workload) {
        self.0.set_workload(workload);
    }

    /// Start periodic sampling as a driver does: register writes through
    /// the bus (every unit and the trace see them), in the PRMs' order:
    /// status cleared, head, upper address, buffer (base, GGTT, size), tail,
    /// then the timer (a report every 2^(`exponent` + the project's shift)
    /// timestamp ticks), the report format code `format` and the counter
    /// enable. The buffer is `size` bytes at GGTT address `base` (aligned to
    /// its size). The power domains must be awake (else the writes are
    /// dropped, with warnings). Checked first: on an error nothing is
    /// written. For tools and tests; a driver uses the typed HAL
    /// (`examples/oa_sample.rs`).
    pub fn start_periodic(
        &mut self,
        base: u64,
        size: u64,
        exponent: u64,
        format: u64,
    ) -> Result<(), crate::StartError> {
        self.0.start_periodic(base, size, exponent, format)
    }

    /// Replace the NOA signals the B counters see (no effect when off).
    pub fn set_noa(&mut self, noa: NoaSource) {
        self.0.set_noa(noa);
    }

    /// Make context `id` active (a context-switch report where the project
    /// has them; see the crate documentation).
    pub fn set_context(&mut self, id: u32) -> ReportOutcome {
        self.0.set_context(id)
    }

    /// Make no context active.
    pub fn clear_context(&mut self) -> ReportOutcome {
        self.0.clear_context()
    }

    /// MI_REPORT_PERF_COUNT: one report of the current format at `address`
    /// with RPT_ID `report_id` (`ggtt == false`: PPGTT, written nowhere
    /// visible, with a warning).
    pub fn mi_report_perf_count(
        &mut self,
        address: u64,
        report_id: u32,
        ggtt: bool,
    ) -> ReportOutcome {
        self.0.mi_report_perf_count(address, report_id, ggtt)
    }

    /// MI_REPORT_PERF_COUNT given as the command's dwords (as a driver
    /// writes them into a ring or batch buffer), decoded with the project's
    /// description of the command (`hal::<project>::commands`): then as
    /// [`OaUnit::mi_report_perf_count`]. Dwords that are not the command on
    /// this project (wrong opcode or length) are an error and a warning
    /// ([`OaWarningKind::BadCommand`](crate::OaWarningKind::BadCommand)),
    /// and write nothing. `NotTriggered` on a project without the command
    /// (SNB) or with the OA model off.
    pub fn execute_mi_rpc(
        &mut self,
        dwords: &[u32],
    ) -> Result<ReportOutcome, hal::meta::CommandError> {
        self.0.execute_mi_rpc(dwords)
    }

    /// Render a report of the current format into `out` without writing it
    /// anywhere; its size, or `None` (off, no layout, `out` too short).
    pub fn render_report(&mut self, report_id: u32, out: &mut [u8]) -> Option<usize> {
        self.0.oa_render_report(report_id, out)
    }

    /// Take the model's warnings, leaving none.
    pub fn take_warnings(&mut self) -> Vec<OaWarning> {
        self.0.take_oa_warnings()
    }
}

impl<'a> P4Unit<&'a Emulator> {
    /// Whether the model is on.
    pub fn is_on(self) -> bool {
        self.0.has_p4()
    }

    /// The scripted events (`None` when off).
    pub fn events(self) -> Option<&'a CpuEvents> {
        self.0.cpu_events()
    }

    /// The performance-monitoring interrupts raised so far, oldest first.
    pub fn interrupts(self) -> &'a [CpuInterrupt] {
        self.0.cpu_interrupts()
    }

    /// Interrupts not recorded because the list was full.
    pub fn interrupts_dropped(self) -> u64 {
        self.0.cpu_interrupts_dropped()
    }
}

impl P4Unit<&mut Emulator> {
    /// Replace the scripted events from the next tick on (no effect when
    /// off).
    pub fn set_events(&mut self, events: CpuEvents) {
        self.0.set_cpu_events(events);
    }

    /// Take the recorded interrupts, leaving none.
    pub fn take_interrupts(&mut self) -> Vec<CpuInterrupt> {
        self.0.take_cpu_interrupts()
    }
}

impl UncoreUnit<&Emulator> {
    /// Whether the model is on.
    pub fn is_on(self) -> bool {
        self.0.has_uncore()
    }

    /// Whether the UBox global freeze is in effect.
    pub fn frozen(self) -> bool {
        self.0.uncore_frozen()
    }

    /// The tick at whose end a scheduled global freeze takes effect.
    pub fn freeze_at(self) -> Option<u64> {
        self.0.uncore_freeze_at()
    }
}

impl UncoreUnit<&mut Emulator> {
    /// Replace the scripted events; the patterns restart at cycle 0 with
    /// the next tick (no effect when off).
    pub fn set_events(&mut self, events: UncoreEvents) {
        self.0.set_uncore_events(events);
    }
}
