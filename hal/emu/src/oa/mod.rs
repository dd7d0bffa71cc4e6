//! The OA unit: A/B/C counters, GPU clock, timer-triggered reports into the
//! OA buffer in emulated graphics memory, status bits, programming-order
//! checks, context filtering and context-switch reports, and
//! MI_REPORT_PERF_COUNT. The model is documented in the crate
//! documentation (section "OA unit").
//!
//! Registers, fields, RPT_ID bits (from the descriptions' tables) and buffer
//! sizes (from the size field's enumeration) come from the generated
//! bindings ([`crate::bind`]); report layouts from [`ProjectInfo::formats`]
//! with their slot kinds classified at build time.

use core::fmt;
use std::vec;
use std::vec::Vec;

use hal::meta::{FormatInfo, OaUnitInfo, ProjectInfo};

use crate::bind::{self, Bindings, FieldRef, RegRef, SlotKind};
use crate::cec::{CecConfig, CecPlan, CECS, TEST_SIGNAL_BITS};
use crate::regfile::RegFile;
use crate::sku::{low_bits, xecores_of};
use crate::unit::{Machinery, Unit, UnitMut, UnitRef};
use crate::warn::Warning;
use crate::NoaSource;

mod counters;
mod layout;
mod map;
mod outcomes;
mod ring;
mod settings;
mod start;

use counters::{Bank, Counters};
use layout::*;
use map::*;
pub use outcomes::{OaStats, OaWarning, OaWarningKind, ReportOutcome};
use ring::*;
pub use settings::{OaConfig, Workload};
pub use start::StartError;

/// Most warnings kept by the OA unit ([`UnitRef::warnings`]); later ones are counted
/// only ([`OaStats::warnings_dropped`]).
const MAX_WARNINGS: usize = 1024;

/// Why a report goes into the OA buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    Timer,
    Context,
    Mmio,
}

/// What the timer loop does with the remaining events of one advance.
enum Plan {
    /// Write the next report.
    One,
    /// Account for the next `n` reports without writing them (later reports
    /// of the same advance overwrite every byte they would have written).
    Skip(u64),
    /// No remaining report can be written (no layout, or full in
    /// disable-overrun mode).
    Nothing,
}

/// A field of an OA unit's register: the register's address and the
/// field's mask (in place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelField {
    /// The register's address.
    pub addr: u64,
    /// The field's bits in the register.
    pub mask: u64,
}

/// The fields of one OA unit that a kernel driver uses to run a stream
/// ([`UnitRef::stream_fields`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamFields {
    /// The head pointer.
    pub head: KernelField,
    /// The tail pointer.
    pub tail: KernelField,
    /// The counter enable.
    pub enable: KernelField,
    /// Status: a report was lost.
    pub report_lost: KernelField,
    /// Status: the buffer overflowed.
    pub buffer_overflow: KernelField,
    /// Status: a counter overflowed (where the unit has the bit).
    pub counter_overflow: Option<KernelField>,
    /// The ring wraps at the largest multiple of the report size (Xe2 OAG
    /// sampling), not at the buffer's end.
    pub wraps_at_whole_reports: bool,
}

/// The OA unit (with the CEC B counters): reach it with
/// [`Emulator::unit::<OaUnit>()`](crate::Emulator::unit) to look and
/// [`Emulator::unit_mut::<OaUnit>()`](crate::Emulator::unit_mut) to act or
/// to turn it on ([`UnitMut::enable`] with an [`OaConfig`]) or off. The
/// model is documented in the crate documentation ("OA unit").
#[derive(Clone, Debug)]
pub struct OaUnit {
    cfg: OaConfig,
    /// Which of the project's OA units (0: the render unit).
    index: usize,
    /// Its catalogue entry (`hal::meta::OaInfo::units`), when there is one.
    info: Option<&'static OaUnitInfo>,
    /// The CEC Boolean stage reads the NOA mux's test signals (the render
    /// unit; the media units' routing is not modelled).
    noa_boolean: bool,
    /// The project formats this unit writes: (index into
    /// `project.formats`, the counter size its Xe tuple requires).
    formats: Vec<(usize, Option<u64>)>,
    /// Size of the current layout's reports (0: none).
    report_size: u64,
    /// Per PEC counter: how many it adds per GPU clock (`None`: the PES
    /// programming changed, plan again).
    pec_rates: Option<Vec<u64>>,
    /// Per PEC and per MPEC counter: the select value last warned about.
    warned_pes: Vec<u64>,
    warned_mpes: Vec<u64>,
    /// An MPES register was stored since the last check.
    mpes_dirty: bool,
    map: OaMap,
    rpt: RptBits,
    workload: Workload,
    noa: NoaSource,
    /// The A, B and C counters.
    ctr: Counters,
    /// C2 carries the GPU clock (projects whose layouts have no GPU_TICKS).
    c2_clock: bool,
    gpu_clock: u64,
    /// Wraps of `gpu_clock` (the CEC clock is this above it, so the test
    /// signals and dividers keep their period across 2^64 GPU clocks).
    clock_epoch: u64,
    ctx: Option<u32>,
    /// Tick of the last report written.
    busy: Option<u64>,
    /// Every byte of the buffer is unread: the last report written left
    /// tail == head, or a report overwrote unread data; until software
    /// changes the head, tail, base or size.
    full: bool,
    /// Buffer geometry last seen.
    geom: Option<Ring>,
    order: Order,
    layout_sel: Option<u64>,
    layout: Option<Layout>,
    plan: Option<CecPlan>,
    mirrors: Vec<Mirror>,
    /// Per A counter: its low and high mirrors (`usize::MAX`: none).
    a_mirrors: Vec<[usize; 2]>,
    /// Per B counter: its mirror (`usize::MAX`: none).
    b_mirrors: [usize; CECS],
    /// The GPU_TICKS mirror (`usize::MAX`: none).
    ticks_mirror: usize,
    /// Per register index: what a store to it means.
    roles: Vec<RegRole>,
    warnings: Vec<OaWarning>,
    warned_layout: Option<u64>,
    warned_ppgtt_buffer: bool,
    /// The CEC programming (and Boolean routing) last warned about.
    warned_cec: Option<([CecConfig; CECS], bool)>,
    /// The trigger registers and what was warned about them.
    trig: Triggers,
    stats: OaStats,
}

/// The start and report trigger registers, as far as the model checks them.
#[derive(Clone, Debug, Default)]
struct Triggers {
    /// Start trigger registers 1..8: (register index, name).
    start: [Option<(usize, &'static str)>; 8],
    /// The report trigger enables of report triggers 1 and 2, with the
    /// register names.
    report: [Option<(Rf, &'static str)>; 2],
    /// A trigger register was stored since the last check.
    dirty: bool,
    /// Per start trigger: the values last warned about.
    warned_start: [Option<[u64; 4]>; 2],
    /// Per report trigger: warned while enabled.
    warned_report: [bool; 2],
}

/// Whether a start trigger's programming (its four registers) leaves
/// counting ungated: the reset state, or a threshold trigger (threshold
/// enable, bit 23 of the second register) whose threshold count (bits 15:0
/// of the first) is 0, which is met from the start whatever the event and
/// its inversions. Every shipped metric set programs its start triggers so
/// (threshold 0, event selects 0, 1, 3, 7 or 0xF); IGT's TestOa
/// expectations (B1 = B2 = the GPU clock delta, with event select 0xF) show
/// it does not gate. Anything else is warned about.
fn ungated_start(v: &[u64; 4]) -> bool {
    const THRESHOLD_ENABLE: u64 = 1 << 23;
    *v == [0; 4] || (v[1] & THRESHOLD_ENABLE != 0 && v[0] & 0xFFFF == 0)
}

impl OaUnit {
    /// The model of OA unit `index` of `b` (its OA and CEC bindings; a
    /// project without them gets a model that does nothing); `reg_at`
    /// gives the register at an address.
    pub(crate) fn new(
        b: &Bindings,
        index: usize,
        cfg: OaConfig,
        reg_at: &dyn Fn(u64) -> Option<usize>,
    ) -> Self {
        let p = b.project;
        let units = b.oa_units();
        let (unit, cec) = units.get(index).copied().unwrap_or_default();
        let render_cec = units.first().and_then(|u| u.1);
        // A counters: as many as the layouts carry, each as wide as its
        // widest slot.
        let mut a_bits: Vec<u32> = Vec::new();
        for (fi, f) in p.formats.iter().enumerate() {
            let kinds = b.slots.get(fi).copied().unwrap_or_default();
            for (s, kind) in f.counters.iter().zip(kinds) {
                if let SlotKind::A(n @ 0..256) = *kind {
                    let n = n as usize;
                    if a_bits.len() <= n {
                        a_bits.resize(n + 1, 32);
                    }
                    if let Some(b) = a_bits.get_mut(n) {
                        *b = (*b).max(s.bits.min(64));
                    }
                }
            }
        }
        let map = OaMap::new(&unit, cec.as_ref(), render_cec.as_ref(), reg_at);
        let info = p.gpu.and_then(|g| g.oa).and_then(|o| {
            let control = unit.enable.map(|f| f.reg.address);
            o.units.iter().find(|u| Some(u.base) == control)
        });
        let formats = unit_formats(p, map.format_types, map.counter_size.is_some());
        let mut mirrors = Vec::new();
        let mut push = |r: Option<RegRef>, kind: MirrorKind| -> usize {
            match r.and_then(|r| reg_at(r.address)) {
                Some(ri) => {
                    mirrors.push(Mirror {
                        ri,
                        kind,
                        last: u64::MAX,
                    });
                    mirrors.len() - 1
                }
                None => usize::MAX,
            }
        };
        let mut a_mirrors = Vec::with_capacity(a_bits.len());
        for n in 0..a_bits.len() {
            a_mirrors.push([
                push(unit.a_low.get(n).copied(), MirrorKind::ALow(n)),
                push(unit.a_high.get(n).copied(), MirrorKind::AHigh(n)),
            ]);
        }
        let mut b_mirrors = [usize::MAX; CECS];
        for (n, m) in b_mirrors.iter_mut().enumerate() {
            *m = push(unit.b_regs.get(n).copied(), MirrorKind::B(n));
        }
        let ticks_mirror = push(unit.gpu_ticks, MirrorKind::Ticks);
        let mut roles = vec![RegRole::None; p.registers.len()];
        let mut role = |f: Option<Rf>, r: RegRole| {
            if let Some(slot) = f.and_then(|f| roles.get_mut(f.ri)) {
                *slot = r;
            }
        };
        for c in &map.cec {
            for f in [c.func, c.value, c.select, c.mask] {
                role(f, RegRole::Cec);
            }
        }
        for f in [map.head, map.tail, map.base, map.size, map.udw] {
            role(f, RegRole::Ring);
        }
        for (i, m) in mirrors.iter().enumerate() {
            if let Some(slot) = roles.get_mut(m.ri) {
                *slot = RegRole::Mirror(i);
            }
        }
        if let Some((ri, _)) = map.mmio_trigger {
            if let Some(slot) = roles.get_mut(ri) {
                *slot = RegRole::MmioTrigger;
            }
        }
        for ri in map.pes.iter().chain(&map.mpes).flatten() {
            if let Some(slot) = roles.get_mut(*ri) {
                *slot = RegRole::Select;
            }
        }
        let mut trig = Triggers::default();
        if let Some(c) = cec.as_ref() {
            for (slot, r) in trig.start.iter_mut().zip(c.start_trig) {
                *slot = reg_at(r.address).map(|ri| (ri, r.name));
            }
            for (slot, f) in trig
                .report
                .iter_mut()
                .zip([c.report_enable_1, c.report_enable_2])
            {
                *slot = f.and_then(|f| Some((rf(Some(f), reg_at)?, f.reg.name)));
            }
        }
        let trig_regs = trig
            .start
            .iter()
            .flatten()
            .map(|s| s.0)
            .chain(trig.report.iter().flatten().map(|r| r.0.ri));
        for ri in trig_regs.collect::<Vec<_>>() {
            if let Some(slot) = roles.get_mut(ri) {
                *slot = RegRole::Trigger;
            }
        }
        OaUnit {
            cfg,
            index,
            info,
            noa_boolean: index == 0,
            formats,
            report_size: 0,
            pec_rates: None,
            warned_pes: vec![0; map.pes.len()],
            warned_mpes: vec![0; map.mpes.len()],
            mpes_dirty: true,
            map,
            rpt: RptBits::new(&unit),
            workload: Workload::new(),
            noa: NoaSource::new(),
            ctr: Counters::new(&a_bits),
            c2_clock: b.c2_clock,
            gpu_clock: 0,
            clock_epoch: 0,
            ctx: None,
            busy: None,
            full: false,
            geom: None,
            order: Order::default(),
            layout_sel: None,
            layout: None,
            plan: None,
            mirrors,
            a_mirrors,
            b_mirrors,
            ticks_mirror,
            roles,
            warnings: Vec::new(),
            warned_layout: None,
            warned_ppgtt_buffer: false,
            warned_cec: None,
            trig,
            stats: OaStats::default(),
        }
    }

    /// OA unit `index` attached to `rf`, its counters loaded from their
    /// registers.
    fn attach_nth(rf: &mut RegFile, cfg: OaConfig, index: usize) -> Self {
        let b = rf.bindings;
        let mut oa = OaUnit::new(&b, index, cfg, &|a| rf.reg_at(a));
        for i in 0..oa.mirrors.len() {
            oa.load_mirror(rf, i);
        }
        oa
    }

    /// The layout (index into the project's formats) the format fields
    /// select: a format of this unit with that code and, where the unit
    /// has a counter-size field, the counter size its Xe tuple gives.
    fn select_layout(&self, rf: &RegFile) -> Option<usize> {
        let sel = get(rf, self.map.format);
        let size = get(rf, self.map.counter_size);
        let formats = rf.project.formats;
        self.formats
            .iter()
            .find(|&&(i, want)| {
                formats.get(i).is_some_and(|f| f.select == sel) && want.is_none_or(|w| w == size)
            })
            .map(|&(i, _)| i)
    }

    /// Plan the PEC counters from their PES selects: TEST_EVENT1 of one
    /// present XeCore adds 1 per GPU clock, of all XeCores their number;
    /// a select of 0 counts nothing; any other event counts nothing and is
    /// warned about once per value.
    fn plan_pec(&mut self, rf: &RegFile) {
        let m = &self.map;
        let project = xecores_of(rf.project);
        let present = rf.sku.xecore_enable & project;
        let mut rates = vec![0u64; m.pes.len()];
        let mut unknown = Vec::new();
        for (i, ri) in m.pes.iter().enumerate() {
            let v = ri.map_or(0, |ri| rf.value(ri)) & 0xFFFF_FFFF;
            let event = m.pes_event.get(v);
            let known = v == 0 || Some(event) == m.pes_test_event;
            if let Some(r) = rates.get_mut(i) {
                *r = if v == 0 || !known {
                    0
                } else if m.pes_per_xecore.on(v) {
                    let x = m.pes_xecore.get(v);
                    u64::from(x < 64 && present.checked_shr(x as u32).unwrap_or(0) & 1 != 0)
                } else {
                    u64::from(present.count_ones())
                };
            }
            if self
                .warned_pes
                .get_mut(i)
                .is_some_and(|w| newly_unknown(w, v, known))
            {
                unknown.push(OaWarningKind::PecEventUnknown {
                    pec: i as u8,
                    select: v as u32,
                });
            }
        }
        self.warn_all(rf.now, unknown);
        self.pec_rates = Some(rates);
    }

    /// Warn once per value about MPES selects (their semantics are not
    /// public: the MPEC counters count nothing).
    fn check_mpes(&mut self, rf: &RegFile) {
        self.mpes_dirty = false;
        let mut unknown = Vec::new();
        for (i, ri) in self.map.mpes.iter().enumerate() {
            let v = ri.map_or(0, |ri| rf.value(ri)) & 0xFFFF_FFFF;
            if self
                .warned_mpes
                .get_mut(i)
                .is_some_and(|w| newly_unknown(w, v, v == 0))
            {
                unknown.push(OaWarningKind::MpesNotModelled {
                    mpec: i as u8,
                    select: v as u32,
                });
            }
        }
        self.warn_all(rf.now, unknown);
    }

    /// Warn about each of `kinds` at `time`.
    fn warn_all(&mut self, time: u64, kinds: Vec<OaWarningKind>) {
        for kind in kinds {
            self.warn(time, kind);
        }
    }

    fn warn(&mut self, time: u64, kind: OaWarningKind) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(OaWarning { time, kind });
        } else {
            self.stats.warnings_dropped = self.stats.warnings_dropped.saturating_add(1);
        }
    }

    /// Count `ticks` ticks: the GPU clock always, A and B counters when
    /// `enabled`. True when a counter wrapped.
    fn count(&mut self, ticks: u64, enabled: bool) -> bool {
        if ticks == 0 {
            return false;
        }
        let clocks = u128::from(ticks) * u128::from(self.cfg.gpu_clocks_per_tick);
        let c0 = u128::from(self.clock_epoch) << 64 | u128::from(self.gpu_clock);
        let c1 = c0.wrapping_add(clocks);
        self.gpu_clock = c1 as u64;
        self.clock_epoch = (c1 >> 64) as u64;
        if !enabled {
            return false;
        }
        let mut wrapped = false;
        for &(i, rate) in self.workload.rates() {
            let i = i as usize;
            wrapped |= self
                .ctr
                .add(Bank::A, i, u128::from(rate) * u128::from(ticks));
        }
        if let Some(plan) = &self.plan {
            let mut n = [0u128; CECS];
            plan.count(c0, clocks, &mut n);
            for (i, d) in n.into_iter().enumerate() {
                wrapped |= self.ctr.add(Bank::B, i, d);
            }
        }
        if let Some(rates) = &self.pec_rates {
            for (i, &k) in rates.iter().enumerate() {
                if k != 0 {
                    wrapped |= self.ctr.add(Bank::P, i, clocks * u128::from(k));
                }
            }
        }
        wrapped
    }

    /// The value of a counter by its slot kind.
    fn counter(&self, slot: SlotKind, now: u64) -> Option<u64> {
        match slot {
            SlotKind::GpuTicks => Some(self.gpu_clock),
            SlotKind::TimeStamp => Some(now),
            SlotKind::CtxId => self.ctx.map(u64::from),
            SlotKind::A(n) => self.ctr.get(Bank::A, n as usize),
            SlotKind::B(n) => self.ctr.get(Bank::B, n as usize),
            SlotKind::C(2) if self.c2_clock => Some(self.gpu_clock & 0xFFFF_FFFF),
            SlotKind::C(n) => self.ctr.get(Bank::C, n as usize),
            SlotKind::Pec(n) => self.ctr.get(Bank::P, n as usize),
            SlotKind::Mpec(n) => self.ctr.get(Bank::M, n as usize),
            SlotKind::RptId | SlotKind::Other => None,
        }
    }
}

/// The formats of `p` an OA unit writes: every one when `types` is `None`
/// (one OA unit), else those whose Xe format tuple has a type in the mask
/// `types` (bit t: `drm_xe_oa_format_type` t), each with the counter size
/// its tuple requires when the unit has a counter-size field.
fn unit_formats(p: &ProjectInfo, types: Option<u64>, sized: bool) -> Vec<(usize, Option<u64>)> {
    let driver = |f: &FormatInfo| {
        p.gpu
            .and_then(|g| g.oa)
            .and_then(|o| o.formats.iter().find(|d| core::ptr::eq(d.format, f)))
            .and_then(|d| d.xe)
    };
    p.formats
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let Some(types) = types else {
                return Some((i, None));
            };
            let xe = driver(f)?;
            let t = u32::try_from(xe & 0xFF).ok()?;
            if types.checked_shr(t).unwrap_or(0) & 1 == 0 {
                return None;
            }
            Some((i, sized.then_some((xe >> 16) & 0xFF)))
        })
        .collect()
}

/// The first timer event after `cur` for period `p` (a power of two >= 2):
/// the rising edge of TIME_STAMP bit log2(p) - 1, i.e. times `p/2 + j*p`.
fn next_event(cur: u64, p: u128) -> Option<u64> {
    let h = p / 2;
    let c = u128::from(cur);
    let t = if c < h { h } else { h + ((c - h) / p + 1) * p };
    u64::try_from(t).ok()
}

// ------------------------------------------------------------- the unit

impl Unit for OaUnit {
    type Config = OaConfig;

    fn attach(rf: &mut RegFile, cfg: OaConfig) -> Self {
        OaUnit::attach_nth(rf, cfg, 0)
    }

    fn attach_all(rf: &mut RegFile, cfg: OaConfig) -> Vec<Self> {
        let n = rf.bindings.oa_units().len().max(1);
        (0..n).map(|i| OaUnit::attach_nth(rf, cfg, i)).collect()
    }

    fn configure(&mut self, _rf: &mut RegFile, cfg: OaConfig) {
        self.cfg = cfg;
    }
}

impl Machinery for OaUnit {
    fn written(&mut self, rf: &mut RegFile, ri: usize, software: bool) {
        self.stored(rf, ri, software);
    }

    fn advance(&mut self, rf: &mut RegFile, from: u64, to: u64) {
        self.run(rf, from, to);
    }

    fn watches(&self, b: &Bindings, out: &mut Vec<u64>) {
        // This unit's registers.
        if let Some((u, cec)) = b.oa_units().get(self.index) {
            u.addresses(out);
            if let Some(c) = cec {
                c.addresses(out);
            }
        }
    }

    fn warnings(&self, out: &mut Vec<Warning>) {
        out.extend(self.warnings.iter().cloned().map(Warning::from));
    }

    fn take_warnings(&mut self, out: &mut Vec<Warning>) {
        out.extend(
            core::mem::take(&mut self.warnings)
                .into_iter()
                .map(Warning::from),
        );
    }
}

impl<'a> UnitRef<'a, OaUnit> {
    /// Its configuration (`None` when off).
    pub fn config(&self) -> Option<OaConfig> {
        self.unit.map(|o| o.cfg)
    }

    /// The scripted A-counter events (`None` when off).
    pub fn workload(&self) -> Option<&'a Workload> {
        self.unit.map(|o| &o.workload)
    }

    /// The NOA signals the B counters see (`None` when off).
    pub fn noa(&self) -> Option<&'a NoaSource> {
        self.unit.map(|o| &o.noa)
    }

    /// The active context (`None`: none, or the model is off).
    pub fn context(&self) -> Option<u32> {
        self.unit.and_then(|o| o.ctx)
    }

    /// The current value of a counter: `SlotKind::A(7)`, `B(0)`, `C(2)`,
    /// `GpuTicks` (the full 64-bit GPU clock), `TimeStamp` (now), `CtxId`
    /// (the active context). `None` when off or the project has no such
    /// counter.
    pub fn counter(&self, slot: SlotKind) -> Option<u64> {
        self.unit?.counter(slot, self.rf.now)
    }

    /// The layout the OA format field selects now (`None` when off or the
    /// code has no layout).
    pub fn format(&self) -> Option<&'static FormatInfo> {
        let i = self.unit?.select_layout(self.rf)?;
        self.rf.project.formats.get(i).copied()
    }

    /// The unit's catalogue entry (name, kind, control register, engines;
    /// `None` when off or the catalogue has none, as before Gen12).
    pub fn info(&self) -> Option<&'static OaUnitInfo> {
        self.unit?.info
    }

    /// Which of the project's OA units this is (0: the render unit; `None`
    /// when off).
    pub fn index(&self) -> Option<usize> {
        self.unit.map(|o| o.index)
    }

    /// The fields a kernel driver reads and writes to run a stream on this
    /// unit (head, tail, counter enable, status bits), from the unit's
    /// bindings; `None` when off or a field is not bound.
    pub fn stream_fields(&self) -> Option<StreamFields> {
        let m = &self.unit?.map;
        let at = |f: Option<Rf>| -> Option<KernelField> {
            let f = f?;
            let r = self.rf.regs.get(f.ri)?;
            Some(KernelField {
                addr: r.info.address,
                mask: f.mask,
            })
        };
        Some(StreamFields {
            head: at(m.head)?,
            tail: at(m.tail)?,
            enable: at(m.enable)?,
            report_lost: at(m.report_lost)?,
            buffer_overflow: at(m.buffer_overflow)?,
            counter_overflow: at(m.counter_overflow),
            wraps_at_whole_reports: m.whole_report_wrap,
        })
    }

    /// Whether buffer-overflow detection is on (off after an out-of-order
    /// programming of the OA buffer, until it is reprogrammed in order;
    /// `None` when off).
    pub fn overflow_detection(&self) -> Option<bool> {
        self.unit.map(|o| o.order.valid)
    }

    /// Counts of what the model did (`None` when off).
    pub fn stats(&self) -> Option<OaStats> {
        self.unit.map(|o| o.stats)
    }

    /// The model's warnings, oldest first (at most 1024 are kept; also in
    /// [`Emulator::warnings`](crate::Emulator::warnings)).
    pub fn warnings(&self) -> Vec<OaWarning> {
        self.unit.map_or_else(Vec::new, |o| o.warnings.clone())
    }
}

impl UnitMut<'_, OaUnit> {
    /// Replace the scripted A-counter events, from now on (no effect when
    /// off).
    pub fn set_workload(&mut self, workload: Workload) {
        if let (Some(oa), _) = self.parts() {
            oa.workload = workload;
        }
    }

    /// Replace the NOA signals the B counters see, from now on (no effect
    /// when off).
    pub fn set_noa(&mut self, noa: NoaSource) {
        if let (Some(oa), _) = self.parts() {
            oa.noa = noa;
            oa.plan = None;
        }
    }

    /// Make context `id` the active render context (a context switch: a
    /// context-switch report where the project has them; see the crate
    /// documentation).
    pub fn set_context(&mut self, id: u32) -> ReportOutcome {
        match self.parts() {
            (Some(oa), rf) => oa.switch_context(rf, Some(id)),
            (None, _) => ReportOutcome::NotTriggered,
        }
    }

    /// Leave the render engine without a valid context.
    pub fn clear_context(&mut self) -> ReportOutcome {
        match self.parts() {
            (Some(oa), rf) => oa.switch_context(rf, None),
            (None, _) => ReportOutcome::NotTriggered,
        }
    }

    /// MI_REPORT_PERF_COUNT: one report of the current format at `address`
    /// (bits 5:0 ignored: the command carries a 64-byte aligned address)
    /// with RPT_ID = `report_id` (the whole dword). The OA tail pointer does
    /// not move. `ggtt == false` (PPGTT) writes nowhere visible and records
    /// a warning. A second report in the same tick is lost (report-lost
    /// status). `NotTriggered` when off.
    pub fn mi_report_perf_count(
        &mut self,
        address: u64,
        report_id: u32,
        ggtt: bool,
    ) -> ReportOutcome {
        match self.parts() {
            (Some(oa), rf) => oa.mi_report(rf, address, report_id, ggtt),
            (None, _) => ReportOutcome::NotTriggered,
        }
    }

    /// MI_REPORT_PERF_COUNT given as the command's dwords (as a driver
    /// writes them into a ring or batch buffer), decoded with the project's
    /// description of the command (`hal::<project>::commands`, bound in
    /// `bindings.yaml`): the address from the low (and, BDW+, high) address
    /// fields, the GTT select and the report id, then as
    /// [`mi_report_perf_count`](Self::mi_report_perf_count). Dwords that
    /// are not the command on this project (wrong opcode or length) are an
    /// error and a warning
    /// ([`OaWarningKind::BadCommand`](crate::OaWarningKind::BadCommand)),
    /// and write nothing. `NotTriggered` on a project without the command
    /// (SNB) or with the OA model off.
    pub fn execute_mi_rpc(
        &mut self,
        dwords: &[u32],
    ) -> Result<ReportOutcome, hal::meta::CommandError> {
        let (Some(oa), rf) = self.parts() else {
            return Ok(ReportOutcome::NotTriggered);
        };
        let b = rf.bindings.oa;
        let info = b
            .and_then(|o| o.mi_rpc)
            .and_then(|i| rf.project.commands.get(i).copied());
        let (Some(o), Some(info)) = (b, info) else {
            return Ok(ReportOutcome::NotTriggered);
        };
        if let Err(error) = info.check(dwords) {
            oa.warn(rf.now, OaWarningKind::BadCommand { error });
            return Err(error);
        }
        let field = |i: Option<usize>| i.and_then(|i| info.fields.get(i));
        let value = |i: Option<usize>| field(i).map_or(0, |f| f.get(dwords));
        let low = field(o.mi_rpc_address).map_or(0, |f| u64::from(f.get(dwords)) << f.lsb);
        let high = u64::from(value(o.mi_rpc_address_high)) << 32;
        let ggtt = value(o.mi_rpc_ggtt) != 0;
        Ok(oa.mi_report(rf, high | low, value(o.mi_rpc_report_id), ggtt))
    }

    /// Render a report of the current format, with RPT_ID `report_id` and
    /// the counters as they are now, into `out` without writing it anywhere
    /// (no status, no report-lost). Returns its size; `None` when off, the
    /// format has no layout or `out` is too short. For benchmarks and
    /// tools.
    pub fn render_report(&mut self, report_id: u32, out: &mut [u8]) -> Option<usize> {
        let (oa, rf) = self.parts();
        let oa = oa?;
        // The layout is resolved once per format change (a store to the
        // format register forgets it, see `stored`).
        if oa.layout_sel.is_none() {
            oa.sync_in(rf);
        }
        let layout = oa.layout.as_ref()?;
        let buf = out.get_mut(..layout.info.size)?;
        oa.render(
            layout,
            Header {
                rpt_id: report_id,
                time: rf.now,
                ctx: oa.ctx.unwrap_or(0),
            },
            buf,
        );
        Some(buf.len())
    }

    /// Take the model's warnings, leaving none.
    pub fn take_warnings(&mut self) -> Vec<OaWarning> {
        match self.parts() {
            (Some(oa), _) => core::mem::take(&mut oa.warnings),
            (None, _) => Vec::new(),
        }
    }
}

/// A bound field's value (0 when unbound).
fn get(rf: &RegFile, f: Option<Rf>) -> u64 {
    f.map_or(0, |f| {
        (rf.value(f.ri) & f.mask).checked_shr(f.lsb).unwrap_or(0)
    })
}

/// The field's bits in place (for address fields).
fn addr(rf: &RegFile, f: Option<Rf>) -> u64 {
    f.map_or(0, |f| rf.value(f.ri) & f.mask)
}

/// Set or clear every bit of a bound field (a hardware-side store).
fn set(rf: &mut RegFile, f: Option<Rf>, on: bool) {
    if let Some(f) = f {
        let old = rf.value(f.ri);
        let new = if on { old | f.mask } else { old & !f.mask };
        if new != old {
            rf.store(f.ri, new);
        }
    }
}

/// Store an address field's bits in place (a hardware-side store).
fn set_addr(rf: &mut RegFile, f: Option<Rf>, addr: u64) {
    if let Some(f) = f {
        let old = rf.value(f.ri);
        rf.store(f.ri, (old & !f.mask) | (addr & f.mask));
    }
}

// ------------------------------------------------------------- the model

impl OaUnit {
    /// MI_REPORT_PERF_COUNT (see [`UnitMut::mi_report_perf_count`]).
    fn mi_report(
        &mut self,
        rf: &mut RegFile,
        address: u64,
        report_id: u32,
        ggtt: bool,
    ) -> ReportOutcome {
        self.sync_in(rf);
        let t = rf.now;
        if self.busy == Some(t) {
            return self.lost(rf);
        }
        let Some(layout) = self.take_layout(rf) else {
            return ReportOutcome::NoLayout;
        };
        let address = address & !0x3F;
        self.busy = Some(t);
        self.stats.mi_reports = self.stats.mi_reports.saturating_add(1);
        if !ggtt {
            self.layout = Some(layout);
            self.warn(t, OaWarningKind::Ppgtt { address });
            return ReportOutcome::Invisible;
        }
        let h = Header {
            rpt_id: report_id,
            time: t,
            ctx: self.ctx.unwrap_or(0),
        };
        let size = layout.info.size;
        let mut stack = [0u8; STACK_REPORT];
        let mut heap = Vec::new();
        let buf = report_buffer(&mut stack, &mut heap, size);
        self.render(&layout, h, buf);
        if rf.mem.write(address, buf) < size {
            self.warn(t, OaWarningKind::OutsideGgtt { address });
        }
        self.layout = Some(layout);
        ReportOutcome::Written { address }
    }

    fn ring(&self, rf: &RegFile) -> Ring {
        let m = &self.map;
        let base_lo = addr(rf, m.base) & 0xFFFF_FFFF;
        let udw = get(rf, m.udw) & 0xFFFF_FFFF;
        let enc = get(rf, m.size).min(7) as usize;
        let mut size = m.sizes.get(enc).copied().unwrap_or(128 << 10).max(64);
        if get(rf, m.buf_size_select) != 0 {
            // Counting from 1 MiB: the encoded size times 8.
            size = size.saturating_mul(8);
        }
        if m.whole_report_wrap && self.report_size > 0 && self.report_size <= size {
            size -= size % self.report_size;
        }
        Ring {
            base: udw << 32 | base_lo,
            base_lo,
            size,
            head: addr(rf, m.head),
            tail: addr(rf, m.tail),
        }
    }

    /// Note the buffer geometry: any change (software moved the head,
    /// reprogrammed the buffer, ...) ends the "full with head == tail"
    /// state.
    fn observe(&mut self, rf: &RegFile) -> Ring {
        let ring = self.ring(rf);
        if self.geom != Some(ring) {
            self.full = false;
            self.geom = Some(ring);
        }
        ring
    }

    /// Bring the model up to date with the registers: the CEC plan after a
    /// CEC store or a NOA change, the layout after a format change. (Counter
    /// registers are loaded by the store hook, [`Machinery::written`].)
    fn sync_in(&mut self, rf: &mut RegFile) {
        let routed = self.noa_boolean && rf.test_signals_routed;
        if self.pec_rates.is_none() && !self.map.pes.is_empty() {
            self.plan_pec(rf);
        }
        if self.mpes_dirty {
            self.check_mpes(rf);
        }
        if self
            .plan
            .as_ref()
            .is_some_and(|p| p.boolean.is_some() != routed)
        {
            self.plan = None;
        }
        if self.trig.dirty {
            self.trig.dirty = false;
            self.check_triggers(rf);
        }
        if self.plan.is_none() {
            let mut cfg = [CecConfig::default(); CECS];
            for (c, r) in cfg.iter_mut().zip(self.map.cec) {
                *c = CecConfig {
                    present: r.func.is_some(),
                    func: get(rf, r.func) as u8,
                    value: get(rf, r.value) as u16,
                    select: get(rf, r.select) as u8,
                    mask: get(rf, r.mask) as u16,
                };
            }
            let test = NoaSource::test_signals();
            let boolean = routed.then_some((&test, TEST_SIGNAL_BITS));
            let plan = CecPlan::new(cfg, &self.noa, boolean);
            if self.warned_cec != Some((cfg, routed)) {
                self.warned_cec = Some((cfg, routed));
                for (n, why) in plan.unknown() {
                    let select = cfg.get(n).map_or(0, |c| c.select);
                    self.warn(
                        rf.now,
                        OaWarningKind::CecInputUnknown {
                            cec: n as u8,
                            select,
                            why,
                        },
                    );
                }
            }
            self.plan = Some(plan);
        }
        let sel = get(rf, self.map.format);
        if self.layout_sel != Some(sel) {
            self.layout_sel = Some(sel);
            let slots = rf.bindings.slots;
            self.layout = self.select_layout(rf).and_then(|i| {
                let f = rf.project.formats.get(i)?;
                let kinds = slots.get(i).copied().unwrap_or_default();
                Some(Layout::new(f, kinds, &self.ctr, self.c2_clock))
            });
            self.report_size = self.layout.as_ref().map_or(0, |l| l.info.size as u64);
            // The counters move to where this layout's reports hold them.
            if let Some(l) = &self.layout {
                self.ctr.arrange(l.info, &l.places);
            }
        }
    }

    /// Warn about trigger programming the model does not follow (once per
    /// programming; see [`OaWarningKind::TriggerNotModelled`]).
    fn check_triggers(&mut self, rf: &RegFile) {
        for set in 0..2 {
            let regs = &self.trig.start[set * 4..set * 4 + 4];
            if regs.iter().all(Option::is_none) {
                continue;
            }
            let mut v = [0u64; 4];
            for (x, r) in v.iter_mut().zip(regs) {
                *x = r.map_or(0, |(ri, _)| rf.value(ri));
            }
            if ungated_start(&v) {
                self.trig.warned_start[set] = None;
            } else if self.trig.warned_start[set] != Some(v) {
                self.trig.warned_start[set] = Some(v);
                let register = regs[1].or(regs[0]).map_or("start trigger", |r| r.1);
                self.warn(
                    rf.now,
                    OaWarningKind::TriggerNotModelled {
                        register,
                        value: v[1],
                        what: "start trigger programming (may gate the B and C counters)",
                    },
                );
            }
        }
        for k in 0..2 {
            let Some((f, register)) = self.trig.report[k] else {
                continue;
            };
            let on = get(rf, Some(f)) != 0;
            if on && !self.trig.warned_report[k] {
                let value = rf.value(f.ri);
                self.warn(
                    rf.now,
                    OaWarningKind::TriggerNotModelled {
                        register,
                        value,
                        what: "report trigger enable (trigger reports)",
                    },
                );
            }
            self.trig.warned_report[k] = on;
        }
    }

    /// Load counter mirror `i` when its register changed behind the model.
    fn load_mirror(&mut self, rf: &mut RegFile, i: usize) {
        let Some(m) = self.mirrors.get(i).copied() else {
            return;
        };
        let cur = rf.value(m.ri);
        if cur == m.last {
            return;
        }
        match m.kind {
            MirrorKind::ALow(n) => {
                if let Some(a) = self.ctr.get(Bank::A, n) {
                    self.ctr
                        .set(Bank::A, n, (a & !0xFFFF_FFFF) | (cur & 0xFFFF_FFFF));
                }
            }
            MirrorKind::AHigh(n) => {
                if let Some(a) = self.ctr.get(Bank::A, n) {
                    self.ctr.set(
                        Bank::A,
                        n,
                        (a & 0xFFFF_FFFF) | cur.checked_shl(32).unwrap_or(0),
                    );
                }
            }
            MirrorKind::B(n) => self.ctr.set(Bank::B, n, cur & 0xFFFF_FFFF),
            MirrorKind::Ticks => {
                self.gpu_clock = (self.gpu_clock & !0xFFFF_FFFF) | (cur & 0xFFFF_FFFF)
            }
        }
        if let Some(m) = self.mirrors.get_mut(i) {
            m.last = cur;
        }
    }

    /// Show the model's counters in their registers: the GPU clock, and
    /// when the counters `counted`, the A counters of the workload and the
    /// B counters (no other counter changes).
    fn sync_out(&mut self, rf: &mut RegFile, counted: bool) {
        self.store_mirror(rf, self.ticks_mirror);
        if !counted {
            return;
        }
        for k in 0..self.workload.rates().len() {
            let n = self
                .workload
                .rates()
                .get(k)
                .map_or(usize::MAX, |r| r.0 as usize);
            let [lo, hi] = self.a_mirrors.get(n).copied().unwrap_or([usize::MAX; 2]);
            self.store_mirror(rf, lo);
            self.store_mirror(rf, hi);
        }
        for n in 0..CECS {
            let i = self.b_mirrors.get(n).copied().unwrap_or(usize::MAX);
            self.store_mirror(rf, i);
        }
    }

    /// Store mirror `i`'s counter in its register.
    fn store_mirror(&mut self, rf: &mut RegFile, i: usize) {
        let Some(m) = self.mirrors.get(i).copied() else {
            return;
        };
        let v = match m.kind {
            MirrorKind::ALow(n) => self.ctr.get(Bank::A, n).map_or(0, |a| a & 0xFFFF_FFFF),
            MirrorKind::AHigh(n) => self.ctr.get(Bank::A, n).map_or(0, |a| a >> 32),
            MirrorKind::B(n) => self.ctr.get(Bank::B, n).unwrap_or(0),
            MirrorKind::Ticks => self.gpu_clock & 0xFFFF_FFFF,
        };
        let stored = rf.store(m.ri, v);
        if let Some(m) = self.mirrors.get_mut(i) {
            m.last = stored;
        }
    }

    /// The layout of the current format (taken out of `oa`; put it back),
    /// warning once per format code that has none.
    fn take_layout(&mut self, rf: &RegFile) -> Option<Layout> {
        match self.layout.take() {
            Some(l) => Some(l),
            None => {
                let sel = self.layout_sel.unwrap_or(0);
                if self.warned_layout != Some(sel) {
                    self.warned_layout = Some(sel);
                    self.warn(rf.now, OaWarningKind::NoLayout { format: sel });
                }
                None
            }
        }
    }

    fn lost(&mut self, rf: &mut RegFile) -> ReportOutcome {
        set(rf, self.map.report_lost, true);
        self.stats.lost = self.stats.lost.saturating_add(1);
        ReportOutcome::Lost
    }

    /// The counters count now: counter enable set and, with specific
    /// context filtering on, the active context is the selected one.
    fn counting(&self, rf: &RegFile) -> bool {
        let m = &self.map;
        if get(rf, m.enable) == 0 {
            return false;
        }
        if m.ctx_enable.is_none() || get(rf, m.ctx_enable) == 0 {
            return true;
        }
        let Some(f) = m.ctx_id else { return true };
        self.ctx
            .is_some_and(|id| u64::from(id) & f.mask == rf.value(f.ri) & f.mask)
    }

    /// The timer period in ticks when the timer reports (timer enabled and
    /// the OA unit enabled).
    fn timer_period(&self, rf: &RegFile) -> Option<u128> {
        let m = &self.map;
        if get(rf, m.timer_enable) == 0 || get(rf, m.enable) == 0 {
            return None;
        }
        let e = get(rf, m.timer_period).saturating_add(u64::from(m.timer_shift));
        u32::try_from(e).ok().and_then(|e| 1u128.checked_shl(e))
    }

    /// Time moves from `from` to `to` (the OA part of [`Emulator::advance`](crate::Emulator::advance)).
    pub(super) fn run(&mut self, rf: &mut RegFile, from: u64, to: u64) {
        self.sync_in(rf);
        let enabled = self.counting(rf);
        let mut cur = from;
        if let Some(p) = self.timer_period(rf) {
            while let Some(t) = next_event(cur, p).filter(|&t| t <= to) {
                let remaining = u128::from(to - t) / p + 1;
                match self.timer_plan(rf, remaining) {
                    Plan::One => {
                        self.tick(rf, t - cur, enabled);
                        cur = t;
                        let valid = self.ctx.is_some();
                        let id = self.rpt.timer_report(valid, self.cfg.legacy_timer_rpt_id);
                        let ctx = self.ctx.unwrap_or(0);
                        self.buffer_report(rf, t, id, Why::Timer, ctx);
                    }
                    Plan::Skip(n) => {
                        // The n-th event from t.
                        let last = u64::try_from(u128::from(t) + u128::from(n - 1) * p)
                            .unwrap_or(to)
                            .min(to);
                        self.tick(rf, last - cur, enabled);
                        cur = last;
                        self.skip_reports(rf, n, last);
                    }
                    Plan::Nothing => break,
                }
            }
        }
        self.tick(rf, to - cur, enabled);
        self.sync_out(rf, enabled);
    }

    fn tick(&mut self, rf: &mut RegFile, ticks: u64, enabled: bool) {
        if self.count(ticks, enabled) {
            set(rf, self.map.counter_overflow, true);
        }
    }

    /// How to handle the next `remaining` timer events of this advance.
    fn timer_plan(&mut self, rf: &mut RegFile, remaining: u128) -> Plan {
        let Some(layout) = self.take_layout(rf) else {
            return Plan::Nothing;
        };
        let r = layout.info.size as u64;
        self.layout = Some(layout);
        let ring = self.observe(rf);
        let detect = self.order.valid;
        if detect && get(rf, self.map.disable_overrun) != 0 {
            if ring.used(self.full) + r > ring.size {
                // Full in disable-overrun mode: the head cannot move during
                // this advance, so no remaining event writes.
                set(rf, self.map.overrun_status, true);
                let n = u64::try_from(remaining).unwrap_or(u64::MAX);
                self.stats.suppressed = self.stats.suppressed.saturating_add(n);
                return Plan::Nothing;
            }
            return Plan::One;
        }
        // Overwrite mode: the last `keep` reports cover the whole buffer.
        let keep = u128::from(ring.size / r.max(1)) + 2;
        if remaining > keep {
            Plan::Skip(u64::try_from(remaining - keep).unwrap_or(u64::MAX))
        } else {
            Plan::One
        }
    }

    /// Account for `n` timer reports (the last at tick `last`) whose bytes
    /// later reports overwrite: tail, overflow status, statistics.
    fn skip_reports(&mut self, rf: &mut RegFile, n: u64, last: u64) {
        let Some(r) = self.layout.as_ref().map(|l| l.info.size as u64) else {
            return;
        };
        let ring = self.observe(rf);
        let used = u128::from(ring.used(self.full));
        let total = u128::from(n) * u128::from(r);
        if self.order.valid && used + total > u128::from(ring.size) {
            let fit = (u128::from(ring.size) - used.min(u128::from(ring.size))) / u128::from(r);
            let over = u64::try_from(u128::from(n) - fit.min(u128::from(n))).unwrap_or(u64::MAX);
            self.stats.overwrites = self.stats.overwrites.saturating_add(over);
            set(rf, self.map.buffer_overflow, true);
        }
        let overflowed = self.order.valid && used + total > u128::from(ring.size);
        let tail = ((u128::from(ring.tail_off()) + total) % u128::from(ring.size)) as u64;
        self.finish_write(rf, &ring, tail, last, overflowed);
        self.stats.timer_reports = self.stats.timer_reports.saturating_add(n);
    }

    /// After writing to the buffer: new tail offset, full state (`overflowed`:
    /// unread data was overwritten), busy tick.
    fn finish_write(
        &mut self,
        rf: &mut RegFile,
        ring: &Ring,
        tail_off: u64,
        t: u64,
        overflowed: bool,
    ) {
        set_addr(rf, self.map.tail, (ring.base_lo + tail_off) & 0xFFFF_FFFF);
        set(rf, self.map.overrun_status, false);
        self.full = overflowed || tail_off == ring.head_off();
        self.geom = Some(self.ring(rf));
        self.busy = Some(t);
    }

    /// A report into the OA buffer at tick `t` (timer or context switch).
    fn buffer_report(
        &mut self,
        rf: &mut RegFile,
        t: u64,
        rpt_id: u32,
        why: Why,
        ctx_field: u32,
    ) -> ReportOutcome {
        if self.busy == Some(t) {
            if why == Why::Mmio {
                // The trigger cannot be written now: its queue is full.
                set(rf, self.map.mmio_trg_q_full, true);
                self.stats.lost = self.stats.lost.saturating_add(1);
                return ReportOutcome::Lost;
            }
            return self.lost(rf);
        }
        let Some(layout) = self.take_layout(rf) else {
            return ReportOutcome::NoLayout;
        };
        let size = layout.info.size;
        let r = size as u64;
        let ring = self.observe(rf);
        let detect = self.order.valid;
        if !detect && self.order.pending && !self.order.warned_pending {
            self.order.warned_pending = true;
            if let Some((_, name)) = self.map.tail_reg {
                self.warn(
                    t,
                    OaWarningKind::ProgrammingOrder {
                        register: name,
                        reason: "not written after the OA buffer register (PRM order: head pointer, OA buffer, tail pointer)",
                    },
                );
            }
        }
        let overflowed = detect && ring.used(self.full) + r > ring.size;
        if overflowed {
            if get(rf, self.map.disable_overrun) != 0 {
                set(rf, self.map.overrun_status, true);
                self.stats.suppressed = self.stats.suppressed.saturating_add(1);
                self.layout = Some(layout);
                return ReportOutcome::Suppressed;
            }
            set(rf, self.map.buffer_overflow, true);
            self.stats.overwrites = self.stats.overwrites.saturating_add(1);
        }
        let tail_off = ring.tail_off();
        let address = ring.base.wrapping_add(tail_off);
        let ppgtt = self.map.mem_select.is_some() && get(rf, self.map.mem_select) == 0;
        let mut outcome = ReportOutcome::Written { address };
        if ppgtt {
            outcome = ReportOutcome::Invisible;
            if !self.warned_ppgtt_buffer {
                self.warned_ppgtt_buffer = true;
                self.warn(t, OaWarningKind::Ppgtt { address });
            }
        } else {
            let mut stack = [0u8; STACK_REPORT];
            let mut heap = Vec::new();
            let buf = report_buffer(&mut stack, &mut heap, size);
            let h = Header {
                rpt_id,
                time: t,
                ctx: ctx_field,
            };
            self.render(&layout, h, buf);
            if !Self::ring_write(rf, &ring, tail_off, buf) {
                self.warn(t, OaWarningKind::OutsideGgtt { address });
            }
        }
        self.layout = Some(layout);
        self.finish_write(rf, &ring, (tail_off + r) % ring.size, t, overflowed);
        let n = match why {
            Why::Context => &mut self.stats.context_reports,
            Why::Timer => &mut self.stats.timer_reports,
            Why::Mmio => &mut self.stats.mmio_reports,
        };
        *n = n.saturating_add(1);
        outcome
    }

    /// Write `bytes` into the ring from offset `off`, wrapping byte-wise at
    /// the end. False when some bytes fell outside the GGTT.
    fn ring_write(rf: &mut RegFile, ring: &Ring, mut off: u64, bytes: &[u8]) -> bool {
        let mut rest = bytes;
        let mut all = true;
        while !rest.is_empty() {
            let room = usize::try_from(ring.size - off % ring.size).unwrap_or(usize::MAX);
            let n = rest.len().min(room).max(1);
            let (now, later) = rest.split_at(n.min(rest.len()));
            let addr = ring.base.wrapping_add(off % ring.size);
            all &= rf.mem.write(addr, now) == now.len();
            rest = later;
            off = (off % ring.size + n as u64) % ring.size;
        }
        all
    }

    /// A software write of `value` to the MMIO trigger: a report with
    /// reason 0 and context-valid 0 (RPT_ID 0), `value` in its context-id
    /// field, unless the debug register's disable bit is set or the
    /// counters are disabled.
    fn mmio_report(&mut self, rf: &mut RegFile, value: u32) -> ReportOutcome {
        if get(rf, self.map.disable_mmio_trg) != 0 || get(rf, self.map.enable) == 0 {
            return ReportOutcome::NotTriggered;
        }
        self.sync_in(rf);
        let t = rf.now;
        self.buffer_report(rf, t, 0, Why::Mmio, value)
    }

    fn switch_context(&mut self, rf: &mut RegFile, new: Option<u32>) -> ReportOutcome {
        {
            if self.ctx == new {
                return ReportOutcome::NotTriggered;
            }
            self.sync_in(rf);
            self.ctx = new;
            let m = &self.map;
            let report = self.rpt.ctx_switch != 0
                && get(rf, m.enable) != 0
                && get(rf, m.no_ctx_reports) == 0;
            if !report {
                return ReportOutcome::NotTriggered;
            }
            let timer_on = get(rf, m.timer_enable) != 0;
            let id = self.rpt.ctx_report(new.is_some(), timer_on);
            let t = rf.now;
            self.buffer_report(rf, t, id, Why::Context, new.unwrap_or(0))
        }
    }

    /// A register was stored through the bus (`software`) or by a poke:
    /// load counter registers into the model, track the buffer programming
    /// order (software writes only), note buffer geometry changes.
    pub(super) fn stored(&mut self, rf: &mut RegFile, ri: usize, software: bool) {
        if self.map.format.is_some_and(|f| f.ri == ri)
            || self.map.counter_size.is_some_and(|f| f.ri == ri)
        {
            // The report format may have changed: resolve it again when
            // next needed.
            self.layout_sel = None;
        }
        let role = self.roles.get(ri).copied().unwrap_or(RegRole::None);
        match role {
            RegRole::None => return,
            RegRole::Mirror(i) => {
                self.load_mirror(rf, i);
                return;
            }
            RegRole::Cec => {
                self.plan = None;
                return;
            }
            RegRole::Trigger => {
                self.trig.dirty = true;
                return;
            }
            RegRole::MmioTrigger => {
                if software {
                    let value = rf.value(ri) as u32;
                    self.mmio_report(rf, value);
                }
                return;
            }
            RegRole::Select => {
                self.pec_rates = None;
                self.mpes_dirty = true;
                return;
            }
            RegRole::Ring => {}
        }
        let is = |r: Option<(usize, &'static str)>| r.is_some_and(|(x, _)| x == ri);
        let (head, buffer, tail) = (
            is(self.map.head_reg),
            is(self.map.buffer_reg),
            is(self.map.tail_reg),
        );
        if software {
            if head {
                self.order.head();
            }
            if let (true, Some((_, register))) = (buffer, self.map.buffer_reg) {
                if let Some(reason) = self.order.buffer() {
                    self.warn(rf.now, OaWarningKind::ProgrammingOrder { register, reason });
                }
            }
            if tail {
                self.order.tail();
            }
        }
        self.observe(rf);
    }
}

/// Whether select value `v` is to be warned about now: not `known`, and not
/// the value last warned about in `slot` (0: none), which it becomes; a known
/// value clears the slot, so the next unknown one is warned about again.
fn newly_unknown(slot: &mut u64, v: u64, known: bool) -> bool {
    if known {
        *slot = 0;
        false
    } else if *slot != v {
        *slot = v;
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timer_events_are_rising_edges_of_the_selected_bit() {
        // Period 16: events at 8, 24, 40, ...
        assert_eq!(next_event(0, 16), Some(8));
        assert_eq!(next_event(7, 16), Some(8));
        assert_eq!(next_event(8, 16), Some(24));
        assert_eq!(next_event(23, 16), Some(24));
        assert_eq!(next_event(u64::MAX - 3, 16), None);
        assert_eq!(next_event(0, 1 << 70), None);
    }

    #[test]
    fn programming_order() {
        let mut o = Order::default();
        assert!(o.valid);
        o.head();
        assert_eq!(o.buffer(), None);
        assert!(!o.valid, "off while the tail write is pending");
        o.tail();
        assert!(o.valid);
        // Status clear (HSW OASTATUS1) and head updates do not disturb it.
        o.tail();
        o.head();
        assert!(o.valid);
        // Buffer before head.
        let mut o = Order::default();
        assert!(o.buffer().is_some());
        o.tail();
        assert!(!o.valid);
        o.head();
        assert!(o.buffer().is_none());
        o.tail();
        assert!(o.valid);
        // Head, tail, buffer.
        let mut o = Order::default();
        o.head();
        o.tail();
        assert!(o.buffer().is_some());
    }

    /// Render with distinct counter values, then read every slot back.
    fn round_trip(b: &Bindings, fi: usize) {
        let (p, f) = (b.project, b.project.formats[fi]);
        let mut oa = OaUnit::new(b, 0, OaConfig::default(), &|_| None);
        for n in 0..oa.ctr.len(Bank::A) {
            oa.ctr
                .set(Bank::A, n, 0x11_2233_4400 + n as u64 * 0x1_0101_0101);
        }
        for n in 0..oa.ctr.len(Bank::B) {
            oa.ctr.set(Bank::B, n, 0xB000_0000 + n as u64);
        }
        for n in 0..oa.ctr.len(Bank::C) {
            oa.ctr.set(Bank::C, n, 0xC000_0000 + n as u64);
        }
        oa.gpu_clock = 0x7_1234_5678;
        oa.ctx = Some(0xC7C7);
        let layout = Layout::new(f, b.slots[fi], &oa.ctr, oa.c2_clock);
        let mut buf = vec![0u8; f.size];
        let h = Header {
            rpt_id: 0xDEAD_BEEF,
            time: 0x5_0000_0009,
            ctx: 0xC7C7,
        };
        oa.render(&layout, h, &mut buf);
        // Arranged for the layout (as the model does), the same bytes.
        oa.ctr.arrange(f, &layout.places);
        assert!(oa.ctr.block(f).is_some(), "{} {}", p.name, f.name);
        let mut block = vec![0xEEu8; f.size];
        oa.render(&layout, h, &mut block);
        assert_eq!(block, buf, "{} {}", p.name, f.name);
        for (slot, &kind) in f.counters.iter().zip(b.slots[fi]) {
            let mask = low_bits(slot.bits);
            // The test names the slots; the model reads the generated kinds.
            let want = match slot.name {
                "RPT_ID" => 0xDEAD_BEEF,
                "TIME_STAMP" => h.time,
                "CTX_ID" => 0xC7C7,
                "GPU_TICKS" => oa.gpu_clock,
                "C2" if oa.c2_clock => oa.gpu_clock,
                _ => oa.counter(kind, 0).unwrap_or(0),
            };
            assert_eq!(
                slot.read(&buf),
                Some(want & mask),
                "{} {} {}",
                p.name,
                f.name,
                slot.name
            );
        }
    }

    #[test]
    fn every_shipped_layout_round_trips() {
        for b in bind::ALL {
            assert_eq!(b.slots.len(), b.project.formats.len(), "{}", b.project.name);
            for fi in 0..b.project.formats.len() {
                round_trip(b, fi);
            }
        }
    }

    #[test]
    #[cfg(perfregs_hal = "bdw")]
    fn odd_layouts_round_trip() {
        use hal::meta::CounterSlot;
        const fn slot(
            name: &'static str,
            offset: u32,
            bits: u32,
            high: Option<u32>,
        ) -> CounterSlot {
            CounterSlot {
                name,
                offset,
                bits,
                high_byte_offset: high,
            }
        }
        // High bytes with a gap, a run broken by an offset jump, a 16-bit
        // slot, a slot beyond the end (dropped).
        static SLOTS: [CounterSlot; 8] = [
            slot("RPT_ID", 0, 32, None),
            slot("A0", 4, 40, Some(40)),
            slot("A1", 8, 40, Some(42)),
            slot("A2", 12, 40, Some(43)),
            slot("B0", 16, 32, None),
            slot("B1", 24, 32, None),
            slot("C1", 28, 16, None),
            slot("B2", 62, 32, None),
        ];
        static F: FormatInfo = FormatInfo {
            name: "ODD",
            select: 9,
            size: 64,
            description: "",
            counters: &SLOTS,
        };
        static FORMATS: [&FormatInfo; 1] = [&F];
        static KINDS: [SlotKind; 8] = [
            SlotKind::RptId,
            SlotKind::A(0),
            SlotKind::A(1),
            SlotKind::A(2),
            SlotKind::B(0),
            SlotKind::B(1),
            SlotKind::C(1),
            SlotKind::B(2),
        ];
        static SLOT_KINDS: [&[SlotKind]; 1] = [&KINDS];
        let mut p = hal::bdw::PROJECT;
        p.formats = &FORMATS;
        let b = Bindings {
            project: std::boxed::Box::leak(std::boxed::Box::new(p)),
            slots: &SLOT_KINDS,
            ..bind::BDW
        };
        let mut oa = OaUnit::new(&b, 0, OaConfig::default(), &|_| None);
        let layout = Layout::new(&F, &KINDS, &oa.ctr, false);
        // A0..A2 (split, high bytes 40, 42, 43) and B0, B1 are run counters.
        let b0 = oa.ctr.index(Bank::B, 0).expect("B0");
        assert_eq!(
            layout.places,
            [
                (0, 4, Some(40)),
                (1, 8, Some(42)),
                (2, 12, Some(43)),
                (b0, 16, None),
                (b0 + 1, 24, None)
            ]
        );
        assert!(layout.ops.iter().all(|o| o.offset != 62), "B2 does not fit");
        oa.ctr.set(Bank::A, 0, 0xAA_0000_0001);
        oa.ctr.set(Bank::A, 1, 0xBB_0000_0002);
        oa.ctr.set(Bank::A, 2, 0xCC_0000_0003);
        for (n, v) in [10, 11, 12, 13, 14, 15, 16, 17].into_iter().enumerate() {
            oa.ctr.set(Bank::B, n, v);
        }
        oa.ctr.set(Bank::C, 1, 0x1_2345);
        let mut buf = vec![0u8; 64];
        oa.render(
            &layout,
            Header {
                rpt_id: 1,
                time: 2,
                ctx: 0,
            },
            &mut buf,
        );
        // Arranged for the layout, the counters render as one block: the
        // same bytes.
        oa.ctr.arrange(&F, &layout.places);
        assert!(oa.ctr.block(&F).is_some());
        let mut block = vec![0xEEu8; 64];
        oa.render(
            &layout,
            Header {
                rpt_id: 1,
                time: 2,
                ctx: 0,
            },
            &mut block,
        );
        assert_eq!(block, buf);
        for (i, want) in [
            (1usize, 0xAA_0000_0001u64),
            (2, 0xBB_0000_0002),
            (3, 0xCC_0000_0003),
        ] {
            assert_eq!(SLOTS[i].read(&buf), Some(want));
        }
        assert_eq!(buf[41], 0, "the gap byte stays 0");
        assert_eq!(SLOTS[4].read(&buf), Some(10));
        assert_eq!(SLOTS[5].read(&buf), Some(11));
        assert_eq!(SLOTS[6].read(&buf), Some(0x2345));
        assert_eq!(&buf[20..24], &[0; 4]);
    }
}
