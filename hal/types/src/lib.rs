//! perfregs-types: the vocabulary perfregs shares between build time (the
//! generator in `perfregs-codegen`) and run time (`perfregs-hal`,
//! `perfregs-metrics`), so each idea is one type on both sides of the line.
//!
//! - [`AccessKind`]: how software may access a field (`RW`, `RW1C`, ...).
//! - [`Sample`] and [`DeviceInfo`]: what a metric-set equation reads (report
//!   counter deltas and device values), for the generated counters and the
//!   run-time interpreter alike.
//!
//! `no_std`, no dependencies.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod sample;

pub use access::AccessKind;
pub use sample::{DeviceInfo, DeviceVar, Reads, ReportCounts, Sample, Source, TopologyVar};
