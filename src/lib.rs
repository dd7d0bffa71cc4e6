//! perfregs: type-safe registers for Intel performance-monitoring hardware.
//!
//! - [`hal`]: the generated, `no_std` HAL (one module per project:
//!   [`hal::hsw`], [`hal::ivb`], [`hal::tgl`], ...), the device handle and the
//!   buses. It is the register reference: every register, field and enum
//!   with the PRM's description, in the pages of crate `hal` (which
//!   `cargo doc --open` builds with this crate's; `cargo doc -p perfregs-hal
//!   --open` opens them directly).
//! - [`regdefs!`]: generate registers of your own from YAML, inline or in a file.
//! - `emu` (feature `emu`): the emulated register file, crate `perfregs-emu`.
//! - `metrics` (feature `metrics`): the shipped i915 metric sets as typed
//!   Rust, crate `perfregs-metrics`; program one with `Device::program`.
//!
//! ```
//! use perfregs::hal::{enums::TimerEnable, hsw, Device, Hsw, SliceBus};
//! use perfregs::bits;
//!
//! let mut mem = [0u32; 0x3000 / 4];
//! let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
//! let rw = gpu.assume_awake::<hsw::domains::Render>(); // plain memory: nothing to wake
//! gpu.write(hsw::OACONTROL, &rw, |w| w.timer_period(bits!(5)).timer_enable(TimerEnable::Enable));
//! let ctl = gpu.read(hsw::OACONTROL, &rw);
//! assert_eq!(ctl.timer_period(), 5);
//! println!("{ctl:?}");
//! ```

pub use hal;
pub use hal::bits;
/// The emulated register file (crate `perfregs-emu`, feature `emu`).
#[cfg(feature = "emu")]
pub use perfregs_emu as emu;
pub use perfregs_macros::regdefs;
/// The shipped i915 metric sets as typed Rust (crate `perfregs-metrics`, feature `metrics`).
#[cfg(feature = "metrics")]
pub use perfregs_metrics as metrics;

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
