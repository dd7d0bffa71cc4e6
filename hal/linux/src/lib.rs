//! perfregs on real Linux machines: everything that talks to the kernel.
//!
//! - [`record`]: the i915 perf record framing (`drm_i915_perf_record_header`
//!   and its payload) as typed records, with every framing error located by
//!   byte offset and record index. Pure code: it builds on every system.
//! - [`recording`]: recordings in IGT's `i915-perf-recorder` format, written
//!   and read (every error located). Pure code.
//! - [`fault`]: bus faults and `io::Error` (the kind of fault an OS error
//!   means, and back).
//! - [`msr`] (Linux): one CPU's MSRs through `/dev/cpu/N/msr`, as a
//!   `Bus<Msr>` ([`msr::MsrFile`]).
//! - [`pci`] (Linux): a PCI function's configuration space through sysfs, as
//!   a `Bus<Pci>` ([`pci::PciConfigFile`]).
//! - [`bar`] (Linux): the GPU's registers through PCI BAR 0 (sysfs
//!   `resource0`) mapped as a `Bus<Mmio>` ([`bar::Bar`]), bounds-checked,
//!   with a clock for force-wake waits; the kernel owns force-wake and
//!   steering on it.
//! - [`forcewake`] (Linux): the kernel's user force-wake file held open
//!   ([`forcewake::ForcewakeHolder`]), which proves every power domain awake.
//! - [`discovery`]: DRM cards from sysfs, PCI id to project and GT through
//!   the HAL's device table, driver, paranoid setting, capabilities and the
//!   verdict on OA streams; topology to the metric equations' device values;
//!   on Linux the GETPARAM/QUERY probe of a render node.
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

/// Compile-time checks of a kernel struct's layout: its size, then the
/// offset of each field (`field @ offset`).
macro_rules! assert_layout {
    ($t:ty: $size:expr $(, $f:ident @ $off:expr)* $(,)?) => {
        const _: () = {
            assert!(core::mem::size_of::<$t>() == $size);
            $(assert!(core::mem::offset_of!($t, $f) == $off);)*
        };
    };
}

/// Constants of one type, and `$lookup`: the name of a listed value
/// (`None` for any other).
macro_rules! named_consts {
    (
        $ty:ty;
        $(#[$fdoc:meta])* $vis:vis fn $lookup:ident;
        $($(#[$doc:meta])* $name:ident = $value:expr;)*
    ) => {
        $($(#[$doc])* pub const $name: $ty = $value;)*

        $(#[$fdoc])*
        $vis fn $lookup(id: $ty) -> Option<&'static str> {
            Some(match id {
                $($name => stringify!($name),)*
                _ => return None,
            })
        }
    };
}

pub mod discovery;
pub mod record;

#[cfg(target_os = "linux")]
pub mod bar;
pub mod config;
#[cfg(target_os = "linux")]
mod devfile;
#[cfg(all(target_os = "linux", feature = "emulated"))]
pub mod emulated;
pub mod errno;
pub mod fault;
#[cfg(target_os = "linux")]
pub mod forcewake;
#[cfg(target_os = "linux")]
pub mod msr;
#[cfg(target_os = "linux")]
pub mod pci;
pub mod recording;
pub mod ring;
pub mod stream;
#[cfg(unix)]
#[doc(hidden)]
pub mod test_support;
pub mod uapi;
pub mod xe_recording;
