//! The OA registers and fields, resolved from the generated bindings to
//! the register file once, when the model starts.

use super::counters::{M_COUNTERS, P_COUNTERS};
use super::*;
use crate::bind::Bits;

/// A register field resolved to the register file.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rf {
    /// Register index.
    pub(super) ri: usize,
    /// Field mask (in place).
    pub(super) mask: u64,
    pub(super) lsb: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CecRegs {
    pub(super) func: Option<Rf>,
    pub(super) value: Option<Rf>,
    pub(super) select: Option<Rf>,
    pub(super) mask: Option<Rf>,
}

/// The OA registers and fields of the project.
#[derive(Clone, Debug)]
pub(super) struct OaMap {
    pub(super) enable: Option<Rf>,
    pub(super) format: Option<Rf>,
    pub(super) ctx_enable: Option<Rf>,
    pub(super) ctx_id: Option<Rf>,
    pub(super) timer_enable: Option<Rf>,
    pub(super) timer_period: Option<Rf>,
    pub(super) report_lost: Option<Rf>,
    pub(super) buffer_overflow: Option<Rf>,
    pub(super) counter_overflow: Option<Rf>,
    pub(super) disable_overrun: Option<Rf>,
    pub(super) overrun_status: Option<Rf>,
    pub(super) head: Option<Rf>,
    pub(super) tail: Option<Rf>,
    pub(super) base: Option<Rf>,
    pub(super) size: Option<Rf>,
    pub(super) udw: Option<Rf>,
    pub(super) mem_select: Option<Rf>,
    pub(super) no_ctx_reports: Option<Rf>,
    /// `(register index, name)` of the head, buffer and tail registers.
    pub(super) head_reg: Option<(usize, &'static str)>,
    pub(super) buffer_reg: Option<(usize, &'static str)>,
    pub(super) tail_reg: Option<(usize, &'static str)>,
    pub(super) cec: [CecRegs; CECS],
    /// Buffer size in bytes per size-field encoding.
    pub(super) sizes: [u64; 8],
    /// Timer period exponent offset: 2^(p + shift).
    pub(super) timer_shift: u32,
    /// The format's counter size (12.55+).
    pub(super) counter_size: Option<Rf>,
    /// Xe format types this unit writes (bit mask; `None`: every layout).
    pub(super) format_types: Option<u64>,
    /// Set: the buffer size field counts from 1 MiB.
    pub(super) buf_size_select: Option<Rf>,
    /// The ring wraps at the largest multiple of the report size.
    pub(super) whole_report_wrap: bool,
    /// The MMIO trigger register `(index, name)`, the disable bit and the
    /// queue-full status bit.
    pub(super) mmio_trigger: Option<(usize, &'static str)>,
    pub(super) disable_mmio_trg: Option<Rf>,
    pub(super) mmio_trg_q_full: Option<Rf>,
    /// Per PEC counter: the register index of its event select.
    pub(super) pes: Vec<Option<usize>>,
    /// The event, per-XeCore and XeCore fields of a PES dword.
    pub(super) pes_event: Bits,
    pub(super) pes_per_xecore: Bits,
    pub(super) pes_xecore: Bits,
    /// TEST_EVENT1's event id.
    pub(super) pes_test_event: Option<u64>,
    /// Per MPEC counter: the register index of its (lower) MPES dword.
    pub(super) mpes: Vec<Option<usize>>,
}

/// Where a counter register mirrors a model counter.
#[derive(Clone, Copy, Debug)]
pub(super) enum MirrorKind {
    ALow(usize),
    AHigh(usize),
    B(usize),
    Ticks,
}

/// What a store to a register means to the OA model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RegRole {
    /// Nothing.
    None,
    /// Counter register: mirror `n`.
    Mirror(usize),
    /// CEC programming.
    Cec,
    /// OA buffer geometry (head, tail, base, size).
    Ring,
    /// Start or report trigger programming.
    Trigger,
    /// The MMIO trigger.
    MmioTrigger,
    /// A PES or MPES event select.
    Select,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Mirror {
    pub(super) ri: usize,
    pub(super) kind: MirrorKind,
    /// The value the model last stored (or loaded); `u64::MAX`: never.
    pub(super) last: u64,
}

/// RPT_ID bits of the project.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RptBits {
    /// The project documents RPT_ID reason bits.
    pub(super) reasons: bool,
    pub(super) timer: u32,
    pub(super) ctx_switch: u32,
    pub(super) ctx_valid: u32,
    pub(super) timer_enabled: u32,
}

impl RptBits {
    pub(super) fn timer_report(&self, valid: bool, legacy: u32) -> u32 {
        if !self.reasons {
            return legacy;
        }
        self.timer | self.timer_enabled | if valid { self.ctx_valid } else { 0 }
    }

    pub(super) fn ctx_report(&self, valid: bool, timer_on: bool) -> u32 {
        self.ctx_switch
            | if timer_on { self.timer_enabled } else { 0 }
            | if valid { self.ctx_valid } else { 0 }
    }
}

/// A bound field, resolved to the register file (`reg_at` gives the index
/// of the register at an address). The mask is clipped to the register.
pub(super) fn rf(f: Option<FieldRef>, reg_at: &dyn Fn(u64) -> Option<usize>) -> Option<Rf> {
    let f = f?;
    let ri = reg_at(f.reg.address)?;
    let width = if f.reg.width == 0 { 32 } else { f.reg.width };
    let mask = f.mask() & low_bits(width);
    (mask != 0).then_some(Rf {
        ri,
        mask,
        lsb: f.lsb,
    })
}

pub(super) fn bit32(n: Option<u64>) -> u32 {
    n.and_then(|n| u32::try_from(n).ok())
        .and_then(|n| 1u32.checked_shl(n))
        .unwrap_or(0)
}

impl RptBits {
    pub(super) fn new(b: &bind::Oa) -> Self {
        let timer = bit32(b.rpt_timer_bit);
        RptBits {
            reasons: timer != 0,
            timer,
            ctx_switch: bit32(b.rpt_ctx_switch_bit),
            ctx_valid: bit32(b.rpt_ctx_valid_bit),
            timer_enabled: bit32(b.rpt_timer_enabled_bit),
        }
    }
}

impl OaMap {
    /// `render_cec`: the render unit's CEC bindings, whose field layout
    /// reads CEC registers bound whole (the media units' copies, whose
    /// layout no source gives).
    pub(super) fn new(
        b: &bind::Oa,
        cec: Option<&bind::Cec>,
        render_cec: Option<&bind::Cec>,
        reg_at: &dyn Fn(u64) -> Option<usize>,
    ) -> Self {
        let f = |x: Option<FieldRef>| rf(x, reg_at);
        let named = |x: Option<FieldRef>| {
            let x = x?;
            Some((reg_at(x.reg.address)?, x.reg.name))
        };
        let mut sizes = [0u64; 8];
        for (n, s) in sizes.iter_mut().enumerate() {
            *s = (128u64 << 10) << n;
        }
        for &(code, bytes) in b.sizes {
            if let Some(s) = usize::try_from(code).ok().and_then(|c| sizes.get_mut(c)) {
                *s = bytes;
            }
        }
        let mut regs = [CecRegs::default(); CECS];
        if let Some(c) = cec {
            // A whole-register binding takes the render unit's field.
            let at = |list: &[FieldRef], layout: Option<&[FieldRef]>, n: usize| {
                let field = list.get(n).copied()?;
                let like = layout.and_then(|l| l.get(n).or(l.first()).copied());
                let field = match like {
                    Some(l) if field.lsb == 0 && field.width >= 32 => FieldRef {
                        lsb: l.lsb,
                        width: l.width,
                        ..field
                    },
                    _ => field,
                };
                f(Some(field))
            };
            let r = render_cec.filter(|r| !core::ptr::eq(*r, c));
            for (n, x) in regs.iter_mut().enumerate() {
                *x = CecRegs {
                    func: at(c.func, r.map(|r| r.func), n),
                    value: at(c.value, r.map(|r| r.value), n),
                    select: at(c.select, r.map(|r| r.select), n),
                    mask: at(c.mask, r.map(|r| r.mask), n),
                };
            }
        }
        let num = |n: Option<u64>| n.and_then(|n| usize::try_from(n).ok());
        let ri = |r: Option<&bind::RegRef>| r.and_then(|r| reg_at(r.address));
        let (pair, high_pec, high_block) = (
            num(b.pes_pair).unwrap_or(2),
            num(b.pes_high_pec).unwrap_or(usize::MAX),
            num(b.pes_high_block).unwrap_or(0),
        );
        let pes = if b.pes.is_empty() {
            Vec::new()
        } else {
            (0..P_COUNTERS)
                .map(|i| {
                    let dword = if i < high_pec {
                        i.checked_mul(pair)
                    } else {
                        (i - high_pec)
                            .checked_mul(pair)
                            .and_then(|d| d.checked_add(high_block))
                    };
                    ri(dword.and_then(|d| b.pes.get(d)))
                })
                .collect()
        };
        let mpes = (0..M_COUNTERS)
            .map(|i| ri(b.mpes.get(2 * i)))
            .collect::<Vec<_>>();
        let disable_overrun = f(b.disable_overrun);
        OaMap {
            enable: f(b.enable),
            format: f(b.format),
            ctx_enable: f(b.ctx_enable),
            ctx_id: f(b.ctx_id),
            timer_enable: f(b.timer_enable),
            timer_period: f(b.timer_period),
            report_lost: f(b.report_lost),
            buffer_overflow: f(b.buffer_overflow),
            counter_overflow: f(b.counter_overflow),
            overrun_status: disable_overrun.and(f(b.overrun_status)),
            disable_overrun,
            head: f(b.head),
            tail: f(b.tail),
            base: f(b.base),
            size: f(b.size),
            udw: f(b.udw),
            mem_select: f(b.mem_select),
            no_ctx_reports: f(b.no_ctx_reports),
            head_reg: named(b.head),
            buffer_reg: named(b.base),
            tail_reg: named(b.tail),
            cec: regs,
            sizes,
            timer_shift: b
                .timer_shift
                .and_then(|s| u32::try_from(s).ok())
                .unwrap_or(1),
            counter_size: f(b.counter_size),
            format_types: b.format_types,
            buf_size_select: f(b.buf_size_select),
            whole_report_wrap: b.whole_report_wrap.is_some_and(|w| w != 0),
            mmio_trigger: b
                .mmio_trigger
                .and_then(|r| Some((reg_at(r.address)?, r.name))),
            disable_mmio_trg: f(b.disable_mmio_trg),
            mmio_trg_q_full: f(b.mmio_trg_q_full),
            pes,
            pes_event: Bits::of(b.pes_event),
            pes_per_xecore: Bits::of(b.pes_per_xecore),
            pes_xecore: Bits::of(b.pes_xecore),
            pes_test_event: b.pes_test_event,
            mpes,
        }
    }
}
