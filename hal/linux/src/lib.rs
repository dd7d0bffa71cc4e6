//! perfregs on real Linux machines: everything that talks to the kernel.
//!
//! - [`record`]: the i915 perf record framing (`drm_i915_perf_record_header`
//!   and its payload) as typed records, with every framing error located by
//!   byte offset and record index. Pure code: it builds on every system.
//! - [`uapi`]: the kernel structs, properties and ioctl numbers of i915 perf
//!   and Xe observation streams.
//! - [`stream`]: OA streams behind one trait ([`stream::OaStream`]), i915 and
//!   Xe streams on Linux, and a reader ([`stream::StreamReader`]) that yields
//!   the same typed records for every stream.
//! - [`errno`]: every errno of opening, configuring and reading a stream as
//!   an actionable message.
//! - [`config`]: OA configurations (uuid and register lists) uploaded with
//!   ADD_CONFIG, an existing id found through sysfs.
//!
//! The modules that make system calls are compiled on Linux only; on other
//! systems this crate holds the pure parts.
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod record;
// OA streams, the kernel ABI, errno messages and configurations (issue 17 streams).
pub mod config;
pub mod errno;
pub mod stream;
pub mod uapi;
