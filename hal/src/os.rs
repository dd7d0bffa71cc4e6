//! Hardware buses on Linux (feature `os`): MSRs through `/dev/cpu/N/msr`
//! and PCI configuration space through sysfs.
//!
//! Both need privileges: the `msr` driver must be loaded (`modprobe msr`)
//! and the process needs root (or `CAP_SYS_RAWIO`); sysfs configuration
//! space beyond the first 64 bytes is readable by root only, and writes
//! always need root. Nothing here is exercised against hardware in CI; the
//! tests only check that opening a missing path fails.
//!
//! [`Bus`] cannot report errors, so a failed access is documented here:
//! a failed read returns all ones (`u32::MAX` / `u64::MAX`, what PCI
//! returns for a missing device), a failed write is dropped, and the last
//! error is kept for [`MsrFile::last_error`] / [`PciConfigFile::last_error`].

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::string::String;

use crate::bus::{Bus, Msr, Pci};

/// A device file read and written at offsets, keeping the last error.
#[derive(Debug)]
struct DevFile {
    file: File,
    last_error: Option<io::Error>,
}

impl DevFile {
    /// Open read-write, or read-only when writing is not permitted.
    fn open(path: &Path) -> io::Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .or_else(|_| File::open(path))?;
        Ok(DevFile {
            file,
            last_error: None,
        })
    }

    fn read<const N: usize>(&self, offset: u64) -> io::Result<[u8; N]> {
        let mut b = [0u8; N];
        self.file.read_exact_at(&mut b, offset)?;
        Ok(b)
    }

    fn write(&self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all_at(bytes, offset)
    }

    /// The value of `r`, or `on_error` after keeping the error.
    fn latch<T>(&mut self, r: io::Result<T>, on_error: T) -> T {
        r.unwrap_or_else(|e| {
            self.last_error = Some(e);
            on_error
        })
    }
}

/// The methods every wrapper around [`DevFile`] has: `open_path`, the
/// little-endian `try_read` / `try_write` of its word type, `last_error` and
/// `clear_error`.
macro_rules! dev_file_methods {
    ($wrapper:ident, $word:ty, $what:literal, $at:ident) => {
        #[doc = concat!("Open ", $what, " device file at `path`.")]
        pub fn open_path(path: impl AsRef<Path>) -> io::Result<Self> {
            Ok($wrapper {
                dev: DevFile::open(path.as_ref())?,
            })
        }

        #[doc = concat!("Read the ", stringify!($word), " at `", stringify!($at), "`.")]
        pub fn try_read(&self, $at: u64) -> io::Result<$word> {
            const N: usize = core::mem::size_of::<$word>();
            self.dev.read::<N>($at).map(<$word>::from_le_bytes)
        }

        #[doc = concat!("Write the ", stringify!($word), " at `", stringify!($at), "`.")]
        pub fn try_write(&self, $at: u64, value: $word) -> io::Result<()> {
            self.dev.write($at, &value.to_le_bytes())
        }

        /// The error of the last failed access (kept until the next failure).
        pub fn last_error(&self) -> Option<&io::Error> {
            self.dev.last_error.as_ref()
        }

        /// Forget the last error.
        pub fn clear_error(&mut self) {
            self.dev.last_error = None;
        }

        /// A whole word for the bus: all ones on error (kept).
        fn read_word(&mut self, $at: u64) -> $word {
            let r = self.try_read($at);
            self.dev.latch(r, <$word>::MAX)
        }

        /// A whole word from the bus: dropped on error (kept).
        fn write_word(&mut self, $at: u64, value: $word) {
            let r = self.try_write($at, value);
            self.dev.latch(r, ());
        }
    };
}

/// One CPU's MSRs through the Linux `msr` driver (`/dev/cpu/N/msr`): the
/// file offset is the MSR index, each access reads or writes 8 bytes.
///
/// `read32` returns the low dword of the MSR; `write32` writes the MSR with
/// the given low dword and the current high dword (read, modify, write).
/// The `addr + 4` convention of the default 64-bit bus methods does not
/// apply: `read64` / `write64` access the whole MSR at `addr`.
#[derive(Debug)]
pub struct MsrFile {
    dev: DevFile,
}

impl MsrFile {
    /// Open `/dev/cpu/{cpu}/msr` (read-write, or read-only when writing is
    /// not permitted).
    pub fn open(cpu: u32) -> io::Result<Self> {
        Self::open_path(std::format!("/dev/cpu/{cpu}/msr"))
    }

    dev_file_methods!(MsrFile, u64, "an MSR", index);
}

impl Bus<Msr> for MsrFile {
    /// The low dword of MSR `addr`; all ones on error.
    fn read32(&mut self, addr: u64) -> u32 {
        let r = self.try_read(addr).map(|v| v as u32);
        self.dev.latch(r, u32::MAX)
    }

    /// Replace the low dword of MSR `addr` (the high dword is read first);
    /// dropped on error.
    fn write32(&mut self, addr: u64, value: u32) {
        let r = self
            .try_read(addr)
            .and_then(|old| self.try_write(addr, old & !0xFFFF_FFFF | u64::from(value)));
        self.dev.latch(r, ());
    }

    /// MSR `addr`; all ones on error.
    fn read64(&mut self, addr: u64) -> u64 {
        self.read_word(addr)
    }

    /// Write MSR `addr`; dropped on error.
    fn write64(&mut self, addr: u64, value: u64) {
        self.write_word(addr, value)
    }
}

/// A PCI function's configuration space through sysfs
/// (`/sys/bus/pci/devices/DDDD:BB:DD.F/config`): dword accesses at the
/// byte offset. 64-bit accesses are the bus default (low dword at `addr`,
/// high dword at `addr + 4`, not atomic).
#[derive(Debug)]
pub struct PciConfigFile {
    dev: DevFile,
}

impl PciConfigFile {
    /// Open the configuration space of `domain:bus:device.function`.
    pub fn open(domain: u16, bus: u8, device: u8, function: u8) -> io::Result<Self> {
        let path: String = std::format!(
            "/sys/bus/pci/devices/{domain:04x}:{bus:02x}:{device:02x}.{function:x}/config"
        );
        Self::open_path(path)
    }

    dev_file_methods!(PciConfigFile, u32, "a configuration-space", offset);
}

impl Bus<Pci> for PciConfigFile {
    /// The dword at `addr`; all ones on error.
    fn read32(&mut self, addr: u64) -> u32 {
        self.read_word(addr)
    }

    /// Write the dword at `addr`; dropped on error.
    fn write32(&mut self, addr: u64, value: u32) {
        self.write_word(addr, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_a_missing_path_fails() {
        let missing = "/nonexistent/perfregs/cpu/0/msr";
        assert!(MsrFile::open_path(missing).is_err());
        assert!(PciConfigFile::open_path(missing).is_err());
        assert!(PciConfigFile::open(0xFFFF, 0xFF, 0x1F, 7).is_err());
    }

    #[test]
    fn errors_read_all_ones_and_are_kept() {
        // A regular file shorter than the offsets: reads fail (EOF).
        let path = std::env::temp_dir().join(std::format!("perfregs-os-{}", std::process::id()));
        std::fs::write(&path, [0u8; 8]).unwrap();
        let mut pci = PciConfigFile::open_path(&path).unwrap();
        assert_eq!(Bus::<Pci>::read32(&mut pci, 4), 0);
        assert!(pci.last_error().is_none());
        assert_eq!(Bus::<Pci>::read32(&mut pci, 0x100), u32::MAX);
        assert!(pci.last_error().is_some());
        let mut msr = MsrFile::open_path(&path).unwrap();
        Bus::<Msr>::write32(&mut msr, 0, 0x1234_5678);
        assert_eq!(Bus::<Msr>::read64(&mut msr, 0), 0x1234_5678);
        assert_eq!(Bus::<Msr>::read64(&mut msr, 0x10), u64::MAX);
        assert!(msr.last_error().is_some());
        let _ = std::fs::remove_file(&path);
    }
}
