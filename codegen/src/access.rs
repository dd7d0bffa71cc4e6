//! The access vocabulary: one set of words for the many the PRMs use.
//!
//! The type is `perfregs_types::AccessKind`, shared with the HAL's run-time
//! tables (`hal::meta::AccessKind`); the generator calls it `Access`.

pub use perfregs_types::AccessKind as Access;
