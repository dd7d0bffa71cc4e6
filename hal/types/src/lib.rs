//! perfregs-types: the vocabulary perfregs shares between build time (the
//! generator in `perfregs-codegen`) and run time (`perfregs-hal`,
//! `perfregs-metrics`), so each idea is one type on both sides of the line.
//!
//! `no_std`, no dependencies.

#![no_std]
#![warn(missing_docs)]

pub mod sample;

pub use sample::{DeviceInfo, DeviceVar, ReportCounts, Sample, Source};
