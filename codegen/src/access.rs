//! The access vocabulary: one set of words for the many the PRMs use.
//!
//! The type is `perfregs_types::AccessKind`, shared with the HAL's run-time
//! tables (`hal::meta::AccessKind`), under the same name.

pub use perfregs_types::AccessKind;
