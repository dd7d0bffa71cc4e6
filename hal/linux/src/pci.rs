//! A PCI function's configuration space through sysfs.
//!
//! Configuration space beyond the first 64 bytes is readable by root only,
//! and writes always need root. Nothing here is exercised against hardware
//! in CI.
//!
//! Through [`Bus`], a failed read returns all ones (what PCI returns for a
//! missing device) and a failed write is dropped, and the failure is kept as
//! a [`BusFault`] for [`Bus::take_fault`], which the HAL's
//! `try_` accessors (`Device::try_read`, ...) return as their error.

use std::io;
use std::path::Path;

use crate::devfile::DevFile;
use hal::bus::{Bus, BusFault, Pci};

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
    /// The dword at `addr`; all ones on error (kept as a fault).
    fn read32(&mut self, addr: u64) -> u32 {
        let r = self.try_read(addr);
        self.dev.latch::<Pci, _>(r, u32::MAX, addr, 32, false)
    }

    /// Write the dword at `addr`; dropped on error (kept as a fault).
    fn write32(&mut self, addr: u64, value: u32) {
        let r = self.try_write(addr, value);
        self.dev.latch::<Pci, _>(r, (), addr, 32, true);
    }

    fn take_fault(&mut self) -> Option<BusFault> {
        self.dev.take_fault()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hal::bus::FaultKind;
    use hal::{ivt, AlwaysAwake, Device, Ivt, Register};

    /// A read past the end of the file reaches the caller of
    /// `Device::try_read` as the fault, never as a made-up all-ones value;
    /// `try_modify` then writes nothing.
    #[test]
    fn a_read_past_the_end_is_an_error_through_the_typed_api() {
        use ivt::R2_PCI_PMON_BOX_STATUS as REG;
        let addr = REG.address();
        let path = std::env::temp_dir().join(format!("perfregs-pci-{}", std::process::id()));
        std::fs::write(&path, 0xA5A5_A5A5u32.to_le_bytes().repeat(4)).unwrap();
        assert!(addr >= 16, "the register lies past the 16-byte file");
        let dev = Device::<Ivt, _>::new(PciConfigFile::open_path(&path).unwrap());
        let fault = dev.try_read(REG, &AlwaysAwake).unwrap_err();
        assert_eq!(
            (fault.space, fault.addr, fault.write, fault.kind),
            ("pci", addr, false, FaultKind::OutOfRange)
        );
        let err = dev.try_modify(REG, &AlwaysAwake, |_, w| w).unwrap_err();
        assert_eq!((err.addr, err.write), (addr, false));
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            16,
            "nothing written"
        );
        // The plain accessor keeps the fault for the next check.
        let _ = dev.read(REG, &AlwaysAwake);
        assert_eq!(dev.with_bus(Bus::<Pci>::take_fault), Some(fault));
        let _ = std::fs::remove_file(&path);
    }
}
