//! One CPU's model-specific registers through the Linux `msr` driver
//! (`/dev/cpu/N/msr`).
//!
//! Needs the `msr` driver (`modprobe msr`) and root (or `CAP_SYS_RAWIO`).
//! Nothing here is exercised against hardware in CI.
//!
//! Through [`Bus`], a failed read returns all ones and a failed write is
//! dropped, and the failure is kept as a [`BusFault`] (the
//! address, the access and the kind of `io::Error`) for
//! [`Bus::take_fault`], which the HAL's `try_` accessors
//! (`Device::try_read`, ...) return as their error.

use std::io;
use std::path::Path;

use crate::devfile::DevFile;
use hal::bus::{Bus, BusFault, Msr};

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
        Self::open_path(format!("/dev/cpu/{cpu}/msr"))
    }

    crate::devfile::dev_file_methods!(MsrFile, u64, "an MSR", index);
}

impl Bus<Msr> for MsrFile {
    /// The low dword of MSR `addr`; all ones on error (kept as a fault).
    fn read32(&mut self, addr: u64) -> u32 {
        let r = self.try_read(addr).map(|v| v as u32);
        self.dev.latch::<Msr, _>(r, u32::MAX, addr, 32, false)
    }

    /// Replace the low dword of MSR `addr` (the high dword is read first);
    /// dropped on error (kept as a fault).
    fn write32(&mut self, addr: u64, value: u32) {
        let r = self
            .try_read(addr)
            .and_then(|old| self.try_write(addr, old & !0xFFFF_FFFF | u64::from(value)));
        self.dev.latch::<Msr, _>(r, (), addr, 32, true);
    }

    /// MSR `addr`; all ones on error (kept as a fault).
    fn read64(&mut self, addr: u64) -> u64 {
        let r = self.try_read(addr);
        self.dev.latch::<Msr, _>(r, u64::MAX, addr, 64, false)
    }

    /// Write MSR `addr`; dropped on error (kept as a fault).
    fn write64(&mut self, addr: u64, value: u64) {
        let r = self.try_write(addr, value);
        self.dev.latch::<Msr, _>(r, (), addr, 64, true);
    }

    fn take_fault(&mut self) -> Option<BusFault> {
        self.dev.take_fault()
    }
}
