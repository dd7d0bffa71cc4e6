//! Warnings: what a real GPU would get wrong without telling, reported.
//!
//! Hardware drops a write to a sleeping power domain, reads 0 where no
//! register decodes, ignores a fused-off instance, and writes a report into
//! PPGTT memory nobody looks at, all silently. The emulator records each of
//! these as a [`Warning`] ([`Emulator::warnings`](crate::Emulator::warnings));
//! tests check them and the examples print them.

use core::fmt;

use crate::oa::OaWarning;
use crate::trace::Outcome;

/// Most register-file warnings kept; later ones are counted
/// ([`AccessCounts::warnings_dropped`](crate::AccessCounts::warnings_dropped)).
pub const MAX_WARNINGS: usize = 1024;

/// What went wrong silently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// An access to a register (or address) whose power domain sleeps: the
    /// hardware terminates it (a read returns 0, a write is dropped).
    Asleep {
        /// The address.
        addr: u64,
        /// The register there, if any.
        register: Option<&'static str>,
        /// The sleeping domain.
        domain: Option<&'static str>,
        /// A write (else a read).
        write: bool,
    },
    /// An access where no register decodes (a read returns 0, a write is
    /// dropped).
    Unclaimed {
        /// The address.
        addr: u64,
        /// A write (else a read).
        write: bool,
    },
    /// An access steered to an instance that is fused off or does not exist
    /// (a read returns 0, a write is dropped).
    FusedOff {
        /// The address.
        addr: u64,
        /// The register.
        register: Option<&'static str>,
        /// The instance steered to (`None`: a multicast write reaching no
        /// present instance).
        instance: Option<u32>,
        /// A write (else a read).
        write: bool,
    },
    /// An access to a replicated register steered through a selector that
    /// is shared with firmware (12.70+) while the CPU does not hold its
    /// semaphore: the access is made, but firmware may move the selector
    /// under it (Linux xe holds the semaphore around every steered access).
    SteeredWithoutSemaphore {
        /// The address.
        addr: u64,
        /// The register.
        register: Option<&'static str>,
        /// A write (else a read).
        write: bool,
    },
    /// The OA model's complaint (PPGTT reports, programming order, ...).
    Oa(crate::OaWarningKind),
}

/// One warning, with the emulator time it happened at. Displays as one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// Emulator time.
    pub time: u64,
    /// What happened.
    pub kind: WarningKind,
}

impl Warning {
    /// The warning for an access with a non-`Ok` outcome.
    pub(crate) fn access(
        time: u64,
        addr: u64,
        register: Option<&'static str>,
        domain: Option<&'static str>,
        instance: Option<u32>,
        write: bool,
        outcome: Outcome,
    ) -> Option<Self> {
        let kind = match outcome {
            Outcome::Ok => return None,
            Outcome::Terminated => WarningKind::Asleep {
                addr,
                register,
                domain,
                write,
            },
            Outcome::Unclaimed => WarningKind::Unclaimed { addr, write },
            Outcome::FusedOff => WarningKind::FusedOff {
                addr,
                register,
                instance,
                write,
            },
        };
        Some(Warning { time, kind })
    }
}

impl From<OaWarning> for Warning {
    fn from(w: OaWarning) -> Self {
        Warning {
            time: w.time,
            kind: WarningKind::Oa(w.kind),
        }
    }
}

fn access(write: bool) -> &'static str {
    if write {
        "write to"
    } else {
        "read of"
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            WarningKind::Asleep {
                addr,
                register,
                domain,
                write,
            } => write!(
                f,
                "t={} {} {addr:#x}{} while power domain {} sleeps: terminated ({}; hold a force-wake guard)",
                self.time,
                access(write),
                register.map(|r| std::format!(" ({r})")).unwrap_or_default(),
                domain.unwrap_or("?"),
                if write { "write dropped" } else { "read 0" },
            ),
            WarningKind::Unclaimed { addr, write } => write!(
                f,
                "t={} {} {addr:#x}: no register decodes there ({})",
                self.time,
                access(write),
                if write { "write dropped" } else { "read 0" },
            ),
            WarningKind::FusedOff {
                addr,
                register,
                instance,
                write,
            } => write!(
                f,
                "t={} {} {addr:#x}{} reaches {}: fused off or absent ({})",
                self.time,
                access(write),
                register.map(|r| std::format!(" ({r})")).unwrap_or_default(),
                instance.map_or_else(|| "no present instance".into(), |i| std::format!("instance {i}")),
                if write { "write dropped" } else { "read 0" },
            ),
            WarningKind::SteeredWithoutSemaphore {
                addr,
                register,
                write,
            } => write!(
                f,
                "t={} {} {addr:#x}{} steered without holding the steering semaphore (firmware may move the selector: take it by reading it until it returns 1, give it back by writing 1)",
                self.time,
                access(write),
                register.map(|r| std::format!(" ({r})")).unwrap_or_default(),
            ),
            WarningKind::Oa(kind) => OaWarning { time: self.time, kind }.fmt(f),
        }
    }
}
