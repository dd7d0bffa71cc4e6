//! The access vocabulary: one set of words for the many the PRMs use.

/// How software may access a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
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

impl Access {
    /// Every access type, in the order of `regdefs/SCHEMA.md`.
    pub const ALL: [Access; 12] = [
        Access::Rw,
        Access::Ro,
        Access::Wo,
        Access::Rw1c,
        Access::Rw1s,
        Access::Rc,
        Access::Mbz,
        Access::Rsvd,
        Access::Pbc,
        Access::RwV,
        Access::RoV,
        Access::RwDb,
    ];

    /// Parse the canonical spelling used in the YAML.
    pub fn parse(s: &str) -> Option<Access> {
        Access::ALL.into_iter().find(|a| a.as_str() == s)
    }

    /// Canonical spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Rw => "RW",
            Access::Ro => "RO",
            Access::Wo => "WO",
            Access::Rw1c => "RW1C",
            Access::Rw1s => "RW1S",
            Access::Rc => "RC",
            Access::Mbz => "MBZ",
            Access::Rsvd => "RSVD",
            Access::Pbc => "PBC",
            Access::RwV => "RW-V",
            Access::RoV => "RO-V",
            Access::RwDb => "RW-DB",
        }
    }

    /// The HAL marker type name for this access (`Rw`, `Rw1c`, ...).
    pub fn type_name(self) -> &'static str {
        match self {
            Access::Rw => "Rw",
            Access::Ro => "Ro",
            Access::Wo => "Wo",
            Access::Rw1c => "Rw1c",
            Access::Rw1s => "Rw1s",
            Access::Rc => "Rc",
            Access::Mbz => "Mbz",
            Access::Rsvd => "Rsvd",
            Access::Pbc => "Pbc",
            Access::RwV => "RwV",
            Access::RoV => "RoV",
            Access::RwDb => "RwDb",
        }
    }

    /// Software can read a meaningful value.
    pub fn readable(self) -> bool {
        !matches!(self, Access::Wo | Access::Mbz | Access::Rsvd | Access::Pbc)
    }

    /// Software can set a value with a setter.
    pub fn settable(self) -> bool {
        matches!(self, Access::Rw | Access::Wo | Access::RwV | Access::RwDb)
    }

    /// Always written as zero (MBZ and reserved).
    pub fn reserved(self) -> bool {
        matches!(self, Access::Mbz | Access::Rsvd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn round_trip() {
        for a in Access::ALL {
            assert_eq!(Access::parse(a.as_str()), Some(a));
        }
        assert_eq!(Access::parse("R/W"), None);
    }
}
