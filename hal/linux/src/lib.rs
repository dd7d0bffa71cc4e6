//! perfregs on real Linux machines: everything that talks to the kernel.
//!
//! - [`record`]: the i915 perf record framing (`drm_i915_perf_record_header`
//!   and its payload) as typed records, with every framing error located by
//!   byte offset and record index. Pure code: it builds on every system.
//!
//! - [`discovery`]: DRM cards from sysfs, PCI id to project and GT through
//!   the HAL's device table, driver, paranoid setting, capabilities and the
//!   verdict on OA streams; topology to the metric equations' device values;
//!   on Linux the GETPARAM/QUERY probe of a render node.
//!
//! The modules that make system calls are compiled on Linux only; on other
//! systems this crate holds the pure parts.
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod discovery;
pub mod record;
