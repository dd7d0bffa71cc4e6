//! The GPU's registers through PCI BAR 0: sysfs `resource0` mapped shared
//! and read-write, as a `Bus<Mmio>` ([`Bar`]).
//!
//! Mapping `/sys/bus/pci/devices/<bdf>/resource0` needs root. The kernel
//! driver (i915 or xe) keeps running and owns two things the HAL must not
//! touch on such a bus (see [`Owner::Kernel`] and
//! [`Bus::kernel_owned`]):
//!
//! - **force-wake**: the request registers are the kernel's; writing them
//!   races with it. `Device::forcewake` is refused
//!   ([`WakeError::KernelOwned`](hal::WakeError::KernelOwned)); hold the
//!   kernel's user force-wake file instead
//!   ([`ForcewakeHolder`](crate::forcewake::ForcewakeHolder)), which proves
//!   every domain awake while it is open.
//! - **steering**: replicated (multicast) registers are steered by the
//!   kernel under its lock; a selector written from here can return another
//!   instance's value, to us or to the kernel. `Device::try_steering` is
//!   refused ([`BusyError::KernelOwned`](hal::BusyError::KernelOwned)):
//!   steering belongs to the kernel.
//!
//! Accesses outside the mapping or unaligned never reach memory: they read
//! all ones, drop writes and keep a [`BusFault`] for the
//! `try_` accessors. A device that vanishes under the mapping reads all ones
//! without a fault (PCI gives no other sign).

use std::ffi::c_void;
use std::fs::OpenOptions;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hal::bus::{Bus, BusFault, Mmio, RawMmio};
use rustix::mm::{mmap, munmap, MapFlags, ProtFlags};

/// Who drives force-wake and steering on the mapped device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A kernel driver is bound to the device and owns its force-wake
    /// request registers and steering selector: the HAL refuses to write
    /// them ([`Bus::kernel_owned`] is true).
    Kernel,
    /// No driver is bound (or the mapping is not a device, as in tests): the
    /// HAL's force-wake protocol and steering may be used.
    Hal,
}

/// How long [`Bar`]'s [`Bus::pause`] sleeps between two polls.
pub const PAUSE: Duration = Duration::from_micros(10);

/// A mapped BAR (or any file mapped the same way): volatile, bounds-checked
/// 32- and 64-bit accesses at byte offsets, a monotonic clock for
/// force-wake waits, unmapped on drop.
#[derive(Debug)]
pub struct Bar {
    mmio: RawMmio,
    base: *mut c_void,
    len: usize,
    owner: Owner,
    epoch: Instant,
    path: PathBuf,
}

/// The error of an access to `path`, keeping its kind.
fn at(path: &Path, what: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {what}: {e}", path.display()))
}

impl Bar {
    /// Map BAR 0 of the PCI function `bdf` (`0000:00:02.0`, the integrated
    /// GPU) from `/sys/bus/pci/devices/<bdf>/resource0` (root needed). The
    /// owner is [`Owner::Kernel`] when a driver is bound to the function
    /// (its `driver` link exists), else [`Owner::Hal`].
    pub fn open_pci(bdf: &str) -> io::Result<Self> {
        let valid = !bdf.is_empty()
            && bdf
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
        if !valid {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{bdf:?} is not a PCI address such as 0000:00:02.0"),
            ));
        }
        let dir = Path::new("/sys/bus/pci/devices").join(bdf);
        let owner = if dir.join("driver").exists() {
            Owner::Kernel
        } else {
            Owner::Hal
        };
        Self::open(dir.join("resource0"), owner)
    }

    /// Map the whole file at `path` (a sysfs `resourceN`, or a regular file
    /// standing in for one), shared and read-write.
    ///
    /// A regular file must not shrink while it is mapped (an access past
    /// its new end would raise `SIGBUS`); sysfs resources do not change size.
    pub fn open(path: impl AsRef<Path>, owner: Owner) -> io::Result<Self> {
        let path = path.as_ref();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| {
                let what = match e.kind() {
                    io::ErrorKind::PermissionDenied => "cannot open (mapping a BAR needs root)",
                    _ => "cannot open",
                };
                at(path, what, e)
            })?;
        let size = file
            .metadata()
            .map_err(|e| at(path, "cannot stat", e))?
            .len();
        let len = usize::try_from(size)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{}: size {size} cannot be mapped", path.display()),
                )
            })?;
        // SAFETY: a new mapping chosen by the kernel (null hint), of a file
        // we opened; nothing else in this process refers to it.
        let base = unsafe {
            mmap(
                core::ptr::null_mut(),
                len,
                ProtFlags::READ | ProtFlags::WRITE,
                MapFlags::SHARED,
                &file,
                0,
            )
        }
        .map_err(|e| at(path, "cannot map", e.into()))?;
        // SAFETY: `base` is `len` bytes mapped shared read-write, page
        // aligned, until `munmap` in `drop`; no Rust reference is made into
        // it (every access is a volatile read or write through `RawMmio`).
        let mmio = unsafe { RawMmio::new(base.cast(), len) };
        Ok(Bar {
            mmio,
            base,
            len,
            owner,
            epoch: Instant::now(),
            path: path.to_path_buf(),
        })
    }

    /// Size of the mapping in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the mapping is empty (never: empty files are refused).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Who drives force-wake and steering on the device.
    pub fn owner(&self) -> Owner {
        self.owner
    }

    /// The mapped file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

// SAFETY: the mapping belongs to the process, not to a thread; every access
// goes through `&mut Bar` (one thread at a time) as a volatile read or write.
unsafe impl Send for Bar {}

impl Drop for Bar {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `open`, unmapped once; `mmio` (the only
        // way to it) is not used after this.
        // An error here (not expected for a mapping we made) cannot be
        // reported from `drop`; the mapping then lasts until the process ends.
        let _ = unsafe { munmap(self.base, self.len) };
    }
}

impl Bus<Mmio> for Bar {
    /// The dword at byte offset `addr`; all ones (and a fault) when out of
    /// range or unaligned.
    #[inline]
    fn read32(&mut self, addr: u64) -> u32 {
        self.mmio.read32(addr)
    }
    /// Write the dword at `addr`; dropped (with a fault) when out of range
    /// or unaligned.
    #[inline]
    fn write32(&mut self, addr: u64, value: u32) {
        self.mmio.write32(addr, value)
    }
    /// One volatile 64-bit read at an 8-byte aligned `addr`, else two dwords.
    #[inline]
    fn read64(&mut self, addr: u64) -> u64 {
        self.mmio.read64(addr)
    }
    /// One volatile 64-bit write at an 8-byte aligned `addr`, else two dwords.
    #[inline]
    fn write64(&mut self, addr: u64, value: u64) {
        self.mmio.write64(addr, value)
    }
    /// Sleeps [`PAUSE`].
    fn pause(&mut self) {
        std::thread::sleep(PAUSE);
    }
    /// Nanoseconds since the mapping was made (a monotonic clock).
    fn now_ns(&mut self) -> Option<u64> {
        Some(u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX))
    }
    fn take_fault(&mut self) -> Option<BusFault> {
        Bus::<Mmio>::take_fault(&mut self.mmio)
    }
    /// True for [`Owner::Kernel`].
    fn kernel_owned(&self) -> bool {
        self.owner == Owner::Kernel
    }
}
