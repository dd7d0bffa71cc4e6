//! perfregs HAL: typed access to Intel performance-monitoring registers.
//!
//! The register modules (`snb`, `ivb`, `vlv`, `hsw`, ...) are generated at
//! build time from the descriptions in `regdefs/` by `perfregs-codegen`.
//! Each register is a zero-sized value carrying its address; what may be done
//! with it is a trait bound, so misuse (reading a write-only register, setting
//! a read-only field, using a register on the wrong project, writing back a
//! write-one-to-clear bit) does not compile.
//!
//! ```
//! use hal::{bits, enums::TimerEnable, hsw, Device, Hsw, SliceBus};
//! let mut mem = [0u32; 0x3000 / 4];
//! let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
//! let rw = gpu.assume_awake::<hsw::domains::Render>(); // plain memory: nothing to wake
//! gpu.write(hsw::OACONTROL, &rw, |w| w.timer_period(bits!(5)).timer_enable(TimerEnable::Enable));
//! assert_eq!(gpu.read(hsw::OACONTROL, &rw).timer_period(), 5);
//! ```
//!
//! # Features
//!
//! One per project, each giving its module (all on by default): `snb`,
//! `ivb`, `vlv`, `hsw`, `bdw`, `tgl`, `p4` (with [`cascade`]) and `ivt`. The
//! library is named `hal`, so feature `tgl` gives `hal::tgl` (and
//! `perfregs::hal::tgl` through the `perfregs` crate):
//!
//! ```
//! use hal::{tgl, Register};
//! assert_eq!(tgl::PROJECT.name, "tgl");
//! assert_eq!(tgl::OAG_OACONTROL.address(), 0xDAF4);
//! ```
//!
//! `std` adds nothing but `extern crate std` today: the error types
//! implement `core::error::Error` and `Display` with or without it. The
//! buses of real Linux machines (`/dev/cpu/N/msr`, sysfs PCI config space,
//! the GPU's PCI BAR) are in the crate `perfregs-linux`.
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

pub mod access;
mod bits;
pub mod brand;
pub mod bus;
#[cfg(feature = "p4")]
pub mod cascade;
pub mod config;
mod device;
pub mod meta;
pub mod oa_buffer;
pub mod power;
pub mod register;
pub mod report;
#[doc(hidden)]
pub mod values;

pub use access::{Field, FieldValue, ReadValue, WriteValue};
pub use bits::Bits;
#[doc(hidden)]
pub use brand::__private;
pub use brand::{Brand, Identity, Unbranded};
pub use bus::{Bus, BusFault, Mmio, Msr, Pci, RawMmio, Recording, SliceBus};
#[cfg(feature = "p4")]
pub use cascade::{CascadesFrom, Counter, P4Counter};
pub use device::{
    group_instance, Assumed, BusyError, Device, ForceWake, HeldAwake, Io, IoGuard, Steering,
    DEFAULT_POLL_LIMIT, SEMAPHORE_POLLS,
};
pub use oa_buffer::{reports_between, BufferedReport, OaBuffer, OaReports, ReportDelta, Summary};
pub use power::{AlwaysAwake, Awake, Domain, WakeError};
pub use register::{
    Elem, Layout, MaskedWritable, MulticastSteered, OnProject, Project, ReadOf, Readable, Register,
    RegisterArray, Replicated, Steered, Unicast, Writable, WriteOf,
};
pub use report::{reports, FormatVisitor, Report, ReportFormat};

/// Traits needed to call the generic field API (`get`, `set`, `clear`).
pub mod prelude {
    pub use crate::access::{Field, FieldValue, ReadValue, WriteValue};
    pub use crate::register::{Layout, Project, Register, RegisterArray};
}

#[allow(clippy::all, non_camel_case_types)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/perfregs_generated.rs"));
}
#[doc(inline)]
pub use generated::*;

/// The compiled project named `name` (a row of [`PROJECTS`]).
///
/// ```
/// assert_eq!(hal::project("tgl").map(|p| p.title), Some(hal::tgl::PROJECT.title));
/// assert!(hal::project("nope").is_none());
/// ```
pub fn project(name: &str) -> Option<&'static meta::ProjectInfo> {
    PROJECTS.iter().copied().find(|p| p.name == name)
}

/// Part GT`gt` of project `name` (a row of [`PARTS`]): its chipset, device
/// values and metric files.
///
/// ```
/// let gt2 = hal::part("tgl", 2).expect("TGL GT2");
/// assert_eq!((gt2.chipset, gt2.device.eu_cores_total_count), ("TGLGT2", 96));
/// assert!(hal::part("tgl", 3).is_none());
/// ```
pub fn part(name: &str, gt: u8) -> Option<&'static meta::PartInfo> {
    PARTS
        .iter()
        .copied()
        .find(|p| p.project == name && p.gt == gt)
}

/// Part GT`gt` of project `name`, or (no GT given, or none such) the
/// project's first part: what tools assume when a device does not say.
///
/// ```
/// assert_eq!(hal::part_or_first("tgl", Some(3)).map(|p| p.gt), Some(1));
/// assert_eq!(hal::part_or_first("bdw", None).map(|p| p.gt), Some(2));
/// assert!(hal::part_or_first("snb", Some(2)).is_none());
/// ```
pub fn part_or_first(name: &str, gt: Option<u8>) -> Option<&'static meta::PartInfo> {
    gt.and_then(|g| part(name, g))
        .or_else(|| PARTS.iter().copied().find(|p| p.project == name))
}
