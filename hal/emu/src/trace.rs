//! The access trace: one entry per dword access through the bus.

use core::fmt;

/// What became of one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The register was read or written.
    Ok,
    /// The wake domain of the address was asleep: the read returned 0, the
    /// write was dropped.
    Terminated,
    /// No register decodes at the address: the read returned 0, the write
    /// was dropped.
    Unclaimed,
    /// The steered instance of a replicated register is fused off (or does
    /// not exist): the read returned 0, the write was dropped.
    FusedOff,
}

/// How many dword accesses ended how ([`Emulator::counts`](crate::Emulator::counts)),
/// traced or not (a 64-bit access counts twice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AccessCounts {
    /// Every access, whatever its outcome.
    pub accesses: usize,
    /// Accesses that ended [`Outcome::Terminated`].
    pub terminated: usize,
    /// Accesses that ended [`Outcome::Unclaimed`].
    pub unclaimed: usize,
    /// Accesses that ended [`Outcome::FusedOff`].
    pub fused_off: usize,
    /// Register-file warnings not kept because the list was full
    /// ([`MAX_WARNINGS`](crate::MAX_WARNINGS)).
    pub warnings_dropped: u64,
}

impl AccessCounts {
    /// Accesses that ended with `outcome` (`Ok`: the rest).
    pub fn of(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Ok => self
                .accesses
                .saturating_sub(self.terminated)
                .saturating_sub(self.unclaimed)
                .saturating_sub(self.fused_off),
            Outcome::Terminated => self.terminated,
            Outcome::Unclaimed => self.unclaimed,
            Outcome::FusedOff => self.fused_off,
        }
    }
}

impl Outcome {
    /// Every outcome, in declaration order.
    pub const ALL: [Outcome; 4] = [
        Outcome::Ok,
        Outcome::Terminated,
        Outcome::Unclaimed,
        Outcome::FusedOff,
    ];

    /// Lower-case spelling used by the trace (`ok`, `terminated`,
    /// `unclaimed`, `fused-off`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Terminated => "terminated",
            Outcome::Unclaimed => "unclaimed",
            Outcome::FusedOff => "fused-off",
        }
    }

    /// Position in [`Outcome::ALL`].
    pub(crate) const fn index(self) -> usize {
        match self {
            Outcome::Ok => 0,
            Outcome::Terminated => 1,
            Outcome::Unclaimed => 2,
            Outcome::FusedOff => 3,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One dword access as the emulator saw it.
///
/// Displays as one line, e.g.
/// `t=12 write 0x2360 OACONTROL = 0x335 [render] ok`: time, direction,
/// address, register (`-` when none decodes; `NAME[i]` when instance `i` of a
/// replicated register was addressed), the value, the wake domain in brackets
/// (omitted when the address needs none) and the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TraceEntry {
    /// Emulator time ([`Emulator::now`](super::Emulator::now)) of the access.
    pub time: u64,
    /// Address accessed (for the high dword of a 64-bit register, its
    /// address + 4).
    pub addr: u64,
    /// Register decoded at the address, if any.
    pub register: Option<&'static str>,
    /// For a read, the value returned; for a write, the value written (as the
    /// driver wrote it, before any access rule).
    pub value: u64,
    /// True for a write.
    pub write: bool,
    /// Wake domain of the address (the register's, or for an address with no
    /// register, its force-wake table row's); `None` when it needs none.
    pub domain: Option<&'static str>,
    /// Instance of a replicated register that was addressed; `None` for a
    /// register that is not replicated, an unclaimed or terminated access,
    /// and a multicast write (which reaches every enabled instance).
    pub instance: Option<u32>,
    /// What became of the access.
    pub outcome: Outcome,
}

impl fmt::Display for TraceEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = if self.write { "write" } else { "read" };
        write!(f, "t={} {} {:#x} ", self.time, dir, self.addr)?;
        match (self.register, self.instance) {
            (Some(name), Some(i)) => write!(f, "{name}[{i}]")?,
            (Some(name), None) => f.write_str(name)?,
            (None, _) => f.write_str("-")?,
        }
        write!(f, " = {:#x}", self.value)?;
        if let Some(d) = self.domain {
            write!(f, " [{d}]")?;
        }
        write!(f, " {}", self.outcome)
    }
}
