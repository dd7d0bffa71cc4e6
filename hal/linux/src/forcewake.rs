//! The kernel's user force-wake file, held open: while it is, the kernel
//! keeps every power domain of the GPU awake, and [`ForcewakeHolder`] gives
//! the HAL's proof of that ([`Device::assume_awake_all`](hal::Device::assume_awake_all)).
//!
//! The files are in debugfs (root, debugfs mounted at `/sys/kernel/debug`):
//! `/sys/kernel/debug/dri/<minor>/i915_forcewake_user` for i915 and
//! `/sys/kernel/debug/dri/<minor>/forcewake_all` for xe. The kernel owns
//! the force-wake request registers: on a live bus the HAL must not write
//! them (`Device::forcewake` is refused on a [`Bar`](crate::bar::Bar) of a
//! device with a driver), and holding this file is how a domain is kept
//! awake from user space.
//!
//! A proof borrows the holder, so it cannot outlive it:
//!
//! ```compile_fail
//! # fn f(gpu: &hal::Device<hal::Tgl, hal::SliceBus<'_>>) -> std::io::Result<()> {
//! use perfregs_linux::forcewake::ForcewakeHolder;
//! let holder = ForcewakeHolder::i915(0)?;
//! let awake = gpu.assume_awake_all(&holder);
//! drop(holder); // error: `holder` is borrowed by `awake`
//! let _ = gpu.read(hal::tgl::OAG_OACONTROL, &awake);
//! # Ok(()) }
//! ```

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// The user force-wake file of a DRM device, held open: every power domain
/// of the GPU stays awake until it is dropped.
#[derive(Debug)]
pub struct ForcewakeHolder {
    _file: File,
    path: PathBuf,
}

impl ForcewakeHolder {
    /// Hold i915's `/sys/kernel/debug/dri/<minor>/i915_forcewake_user`.
    pub fn i915(minor: u32) -> io::Result<Self> {
        Self::open(format!("/sys/kernel/debug/dri/{minor}/i915_forcewake_user"))
    }

    /// Hold xe's `/sys/kernel/debug/dri/<minor>/forcewake_all`.
    pub fn xe(minor: u32) -> io::Result<Self> {
        Self::open(format!("/sys/kernel/debug/dri/{minor}/forcewake_all"))
    }

    /// Hold the force-wake file at `path` (opened read-only, as the kernel
    /// asks: opening takes the wake reference, closing releases it). The
    /// error names the path and what is needed.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "{}: {e} (holding force-wake needs root and debugfs mounted at \
                     /sys/kernel/debug)",
                    path.display()
                ),
            )
        })?;
        Ok(ForcewakeHolder {
            _file: file,
            path: path.to_path_buf(),
        })
    }

    /// The file held.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

// SAFETY: a `ForcewakeHolder` exists only while its file is open, and the
// kernel holds every power domain of the GPU awake while its user
// force-wake file is open (the proof is as good as the path given: the file
// of the GPU whose bus the device uses).
unsafe impl hal::power::HoldsAwake for ForcewakeHolder {}
