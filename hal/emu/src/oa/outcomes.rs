//! What the OA model reports back: the fate of a report request, its
//! warnings and its counts.

use super::*;

/// What became of one report request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReportOutcome {
    /// Written; `address` is where its first byte went (a report in the OA
    /// buffer may wrap to the buffer's base).
    Written {
        /// Graphics address of the report's first byte.
        address: u64,
    },
    /// Another report was written in the same tick: this one was dropped and
    /// the report-lost status bit set.
    Lost,
    /// The OA buffer is full in disable-overrun mode: nothing was written.
    Suppressed,
    /// Written to PPGTT memory, which is not modelled: nowhere visible (a
    /// warning records it).
    Invisible,
    /// The selected report format has no layout on this project: nothing
    /// was written (a warning records it).
    NoLayout,
    /// No report was requested: the OA model is off, the counters are
    /// disabled, the project has no such report, or nothing changed.
    NotTriggered,
}

/// Why the OA model complained ([`OaUnit`'s `warnings`](crate::UnitRef::warnings)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OaWarningKind {
    /// The OA buffer registers were not programmed in the PRM order (head
    /// pointer, OA buffer, tail pointer); overflow detection is off until
    /// they are.
    ProgrammingOrder {
        /// The register whose write broke the order (or was missing).
        register: &'static str,
        /// What went wrong.
        reason: &'static str,
    },
    /// A report went to PPGTT memory (MI_REPORT_PERF_COUNT without GTT
    /// select, or an OA buffer with memory select 0), which is not modelled.
    Ppgtt {
        /// The address as given.
        address: u64,
    },
    /// The report format code selects no layout on this project.
    NoLayout {
        /// The format code.
        format: u64,
    },
    /// Report bytes at or above 4 GiB (outside the modelled GGTT) were
    /// dropped.
    OutsideGgtt {
        /// The report's address.
        address: u64,
    },
    /// A CEC unit compares an input the model does not know (see
    /// [`NoaSource`](crate::NoaSource), "The CEC model"): its B counter
    /// counts nothing under this programming. Recorded once per
    /// programming.
    CecInputUnknown {
        /// The CEC unit (and B counter).
        cec: u8,
        /// Its input select (CECn-0 20:19).
        select: u8,
        /// Why the input is unknown.
        why: crate::CecUnknown,
    },
    /// Start or report trigger programming that would change counting or
    /// write reports, which the model does not do: B/C counters count as
    /// if no start trigger gated them, and no trigger writes a report.
    /// Recorded once per programming.
    TriggerNotModelled {
        /// The register (for a start trigger: the set's second register,
        /// which holds its enables and event select).
        register: &'static str,
        /// Its value.
        value: u64,
        /// What the programming asks for.
        what: &'static str,
    },
    /// A PEC counter's event select (its PES dword) names an event the
    /// model does not know: the counter counts nothing under this
    /// programming. Recorded once per value.
    PecEventUnknown {
        /// The PEC counter.
        pec: u8,
        /// Its PES dword.
        select: u32,
    },
    /// A media counter's event select (MPES) is not zero: no public source
    /// gives MPES semantics, so the MPEC counter counts nothing. Recorded
    /// once per value.
    MpesNotModelled {
        /// The MPEC counter.
        mpec: u8,
        /// Its lower MPES dword.
        select: u32,
    },
    /// Dwords given as MI_REPORT_PERF_COUNT are not that command on this
    /// project (another opcode, command type or length): nothing happened.
    BadCommand {
        /// What does not match the command's description.
        error: hal::meta::CommandError,
    },
}

/// One complaint of the OA model, with the time it happened.
///
/// Displays as one line, e.g. `t=5 OA: PPGTT report at 0x1000 is not
/// modelled (nothing written)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OaWarning {
    /// Emulator time.
    pub time: u64,
    /// What happened.
    pub kind: OaWarningKind,
}

impl fmt::Display for OaWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={} OA: ", self.time)?;
        match self.kind {
            OaWarningKind::ProgrammingOrder { register, reason } => write!(
                f,
                "{register}: {reason}; buffer overflow detection is off until the OA buffer is reprogrammed in order"
            ),
            OaWarningKind::Ppgtt { address } => write!(
                f,
                "PPGTT report at {address:#x} is not modelled (nothing written)"
            ),
            OaWarningKind::NoLayout { format } => {
                write!(f, "report format {format} has no layout (nothing written)")
            }
            OaWarningKind::OutsideGgtt { address } => write!(
                f,
                "report at {address:#x} reaches beyond the 4 GiB GGTT (bytes dropped)"
            ),
            OaWarningKind::CecInputUnknown { cec, select, why } => {
                let why = match why {
                    crate::CecUnknown::BooleanNotRouted => {
                        "the NOA mux does not route known signals to the Boolean stage"
                    }
                    crate::CecUnknown::BooleanBitUndefined => {
                        "the comparison keeps Boolean-stage bits the test signals do not define"
                    }
                    crate::CecUnknown::Select3 => "select 3 has no public meaning",
                    crate::CecUnknown::PreviousUnknown => "the previous CEC's input is unknown",
                };
                write!(
                    f,
                    "CEC{cec} select {select}: {why}; B{cec} counts nothing (input not modelled)"
                )
            }
            OaWarningKind::TriggerNotModelled {
                register,
                value,
                what,
            } => write!(
                f,
                "{register} = {value:#x}: {what} is not modelled (counters count ungated, no trigger reports)"
            ),
            OaWarningKind::PecEventUnknown { pec, select } => write!(
                f,
                "PES select {select:#x} of PEC{pec} names an event the model does not know; PEC{pec} counts nothing"
            ),
            OaWarningKind::MpesNotModelled { mpec, select } => write!(
                f,
                "MPES select {select:#x} of MPEC{mpec} is not modelled (no public semantics); MPEC{mpec} counts nothing"
            ),
            OaWarningKind::BadCommand { error } => {
                write!(f, "{error} (command ignored, nothing written)")
            }
        }
    }
}

/// Counts of what the OA model did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OaStats {
    /// Timer-triggered reports written to the OA buffer.
    pub timer_reports: u64,
    /// Context-switch reports written to the OA buffer.
    pub context_reports: u64,
    /// MI_REPORT_PERF_COUNT reports written (PPGTT ones included).
    pub mi_reports: u64,
    /// MMIO-triggered reports written to the OA buffer.
    pub mmio_reports: u64,
    /// Report requests dropped as lost (report-lost status).
    pub lost: u64,
    /// Reports not written because the buffer was full in disable-overrun
    /// mode.
    pub suppressed: u64,
    /// Reports written into a full buffer (default mode: overwriting unread
    /// reports, buffer-overflow status).
    pub overwrites: u64,
    /// Warnings not kept because the list was full.
    pub warnings_dropped: u64,
}
