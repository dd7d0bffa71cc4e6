//! The access vocabulary: one set of words for the many the PRMs use.
//!
//! The type is `perfregs_types::AccessKind`, shared with the HAL's run-time
//! tables (`hal::meta::AccessKind`); the generator calls it `Access`.

pub use perfregs_types::AccessKind as Access;

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
