//! Access kinds: how software may access a field, in one set of words for the
//! many the PRMs use.

/// How software may access a field.
///
/// The generator (`perfregs-codegen`) reads it from the descriptions' `access:`
/// words ([`AccessKind::parse`]); the HAL carries it in its run-time field
/// tables (`hal::meta::FieldInfo::access`).
///
/// ```
/// use perfregs_types::AccessKind;
/// let a = AccessKind::parse("RW1C").unwrap();
/// assert_eq!(a, AccessKind::Rw1c);
/// assert!(a.readable() && !a.settable());
/// assert_eq!(a.as_str(), "RW1C");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    /// Read and write.
    Rw,
    /// Read only; writes ignored.
    Ro,
    /// Write only; reads return zero.
    Wo,
    /// Readable; a written one clears the bit.
    Rw1c,
    /// Readable; a written one sets the bit.
    Rw1s,
    /// Readable; reading clears it.
    Rc,
    /// Software must write zero.
    Mbz,
    /// Reserved: ignored on read, written as zero.
    Rsvd,
    /// Software must preserve the value (written back as read).
    Pbc,
    /// Read/write; hardware may change the value.
    RwV,
    /// Read only; hardware may change the value.
    RoV,
    /// Read/write, double buffered.
    RwDb,
}

impl AccessKind {
    /// Every access kind, in the order of `regdefs/SCHEMA.md`.
    pub const ALL: [AccessKind; 12] = [
        AccessKind::Rw,
        AccessKind::Ro,
        AccessKind::Wo,
        AccessKind::Rw1c,
        AccessKind::Rw1s,
        AccessKind::Rc,
        AccessKind::Mbz,
        AccessKind::Rsvd,
        AccessKind::Pbc,
        AccessKind::RwV,
        AccessKind::RoV,
        AccessKind::RwDb,
    ];

    /// The kind a canonical spelling (`"RW"`, `"RW1C"`, `"RO-V"`, ...) names;
    /// `None` for any other word.
    pub fn parse(s: &str) -> Option<AccessKind> {
        AccessKind::ALL.into_iter().find(|a| a.as_str() == s)
    }

    /// Canonical spelling, as written in the descriptions (`"RW-V"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            AccessKind::Rw => "RW",
            AccessKind::Ro => "RO",
            AccessKind::Wo => "WO",
            AccessKind::Rw1c => "RW1C",
            AccessKind::Rw1s => "RW1S",
            AccessKind::Rc => "RC",
            AccessKind::Mbz => "MBZ",
            AccessKind::Rsvd => "RSVD",
            AccessKind::Pbc => "PBC",
            AccessKind::RwV => "RW-V",
            AccessKind::RoV => "RO-V",
            AccessKind::RwDb => "RW-DB",
        }
    }

    /// The name of the HAL's marker type for this kind (`Rw`, `Rw1c`, ...),
    /// which is also the variant's name.
    pub const fn type_name(self) -> &'static str {
        match self {
            AccessKind::Rw => "Rw",
            AccessKind::Ro => "Ro",
            AccessKind::Wo => "Wo",
            AccessKind::Rw1c => "Rw1c",
            AccessKind::Rw1s => "Rw1s",
            AccessKind::Rc => "Rc",
            AccessKind::Mbz => "Mbz",
            AccessKind::Rsvd => "Rsvd",
            AccessKind::Pbc => "Pbc",
            AccessKind::RwV => "RwV",
            AccessKind::RoV => "RoV",
            AccessKind::RwDb => "RwDb",
        }
    }

    /// Software can read a meaningful value.
    pub const fn readable(self) -> bool {
        !matches!(
            self,
            AccessKind::Wo | AccessKind::Mbz | AccessKind::Rsvd | AccessKind::Pbc
        )
    }

    /// Software can set a value with a setter.
    pub const fn settable(self) -> bool {
        matches!(
            self,
            AccessKind::Rw | AccessKind::Wo | AccessKind::RwV | AccessKind::RwDb
        )
    }

    /// Always written as zero (MBZ and reserved).
    pub const fn reserved(self) -> bool {
        matches!(self, AccessKind::Mbz | AccessKind::Rsvd)
    }
}

impl core::fmt::Display for AccessKind {
    /// The canonical spelling ([`AccessKind::as_str`]).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::AccessKind;

    #[test]
    fn spelling_round_trips() {
        for a in AccessKind::ALL {
            assert_eq!(AccessKind::parse(a.as_str()), Some(a));
        }
        assert_eq!(AccessKind::parse("R/W"), None);
        assert_eq!(AccessKind::parse("rw"), None);
    }

    #[test]
    fn all_is_complete_and_distinct() {
        extern crate std;
        for (i, a) in AccessKind::ALL.iter().enumerate() {
            assert!(AccessKind::ALL[..i].iter().all(|b| b != a), "{a:?} twice");
            // The marker type's name is the variant's name.
            assert_eq!(a.type_name(), std::format!("{a:?}"));
            assert_eq!(std::format!("{a}"), a.as_str());
        }
    }

    #[test]
    fn kinds() {
        use AccessKind::*;
        let readable: [AccessKind; 8] = [Rw, Ro, Rw1c, Rw1s, Rc, RwV, RoV, RwDb];
        let settable: [AccessKind; 4] = [Rw, Wo, RwV, RwDb];
        for a in AccessKind::ALL {
            assert_eq!(a.readable(), readable.contains(&a), "{a:?}");
            assert_eq!(a.settable(), settable.contains(&a), "{a:?}");
            assert_eq!(a.reserved(), matches!(a, Mbz | Rsvd), "{a:?}");
        }
    }
}
