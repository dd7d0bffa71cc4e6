//! A PCI function's configuration space through sysfs.
//!
//! Configuration space beyond the first 64 bytes is readable by root only,
//! and writes always need root. Nothing here is exercised against hardware
//! in CI.
//!
//! [`Bus`] cannot report errors, so a failed read returns all ones, a failed
//! write is dropped, and the last error is kept for
//! [`PciConfigFile::last_error`].

use std::io;
use std::path::Path;

use crate::devfile::DevFile;
use hal::bus::{Bus, Pci};

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
        let path =
            format!("/sys/bus/pci/devices/{domain:04x}:{bus:02x}:{device:02x}.{function:x}/config");
        Self::open_path(path)
    }

    crate::devfile::dev_file_methods!(PciConfigFile, u32, "a configuration-space", offset);
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
