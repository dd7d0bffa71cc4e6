//! perfregs-types: the vocabulary perfregs shares between build time (the
//! generator in `perfregs-codegen`) and run time (`perfregs-hal`,
//! `perfregs-metrics`), so each idea is one type on both sides of the line.
//!
//! - [`AccessKind`]: how software may access a field (`RW`, `RW1C`, ...).
//!
//! `no_std`, no dependencies.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;

pub use access::AccessKind;
