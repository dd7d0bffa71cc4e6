//! Subcommands of the `perfregs` binary that need more than a few lines.

pub mod diff;
pub mod dump;
pub mod emulate;
pub mod lookup;
pub mod metrics;
pub mod oa_decode;
