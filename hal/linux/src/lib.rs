//! perfregs on real Linux machines: everything that talks to the kernel.
//!
//! - [`record`]: the i915 perf record framing (`drm_i915_perf_record_header`
//!   and its payload) as typed records, with every framing error located by
//!   byte offset and record index. Pure code: it builds on every system.
//! - [`recording`]: recordings in IGT's `i915-perf-recorder` format, written
//!   and read (every error located). Pure code.
//!
//! The modules that make system calls are compiled on Linux only; on other
//! systems this crate holds the pure parts.
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod record;
pub mod recording;
