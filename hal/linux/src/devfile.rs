//! A device file read and written at offsets (the MSR and PCI
//! configuration-space buses share it), keeping the first failed access as
//! a [`BusFault`] for [`Bus::take_fault`](hal::Bus::take_fault).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

use crate::fault::fault_kind;
use hal::bus::{BusFault, Space};

/// A device file read and written at offsets, keeping the first fault.
#[derive(Debug)]
pub(crate) struct DevFile {
    file: File,
    fault: Option<BusFault>,
}

impl DevFile {
    /// Open read-write, or read-only when writing is not permitted.
    pub(crate) fn open(path: &Path) -> io::Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .or_else(|_| File::open(path))?;
        Ok(DevFile { file, fault: None })
    }

    pub(crate) fn read<const N: usize>(&self, offset: u64) -> io::Result<[u8; N]> {
        let mut b = [0u8; N];
        self.file.read_exact_at(&mut b, offset)?;
        Ok(b)
    }

    pub(crate) fn write(&self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all_at(bytes, offset)
    }

    /// The value of `r`, or `on_error` after keeping the fault of the
    /// `width`-bit access at `addr` in space `S` (the first one since the
    /// last [`DevFile::take_fault`]).
    pub(crate) fn latch<S: Space, T>(
        &mut self,
        r: io::Result<T>,
        on_error: T,
        addr: u64,
        width: u8,
        write: bool,
    ) -> T {
        r.unwrap_or_else(|e| {
            if self.fault.is_none() {
                self.fault = Some(BusFault::new::<S>(addr, width, write, fault_kind(&e)));
            }
            on_error
        })
    }

    /// The kept fault, taken.
    pub(crate) fn take_fault(&mut self) -> Option<BusFault> {
        self.fault.take()
    }
}

/// The methods every wrapper around [`DevFile`] has: `open_path`, and the
/// little-endian `try_read` / `try_write` of its word type with the whole
/// `io::Error`.
macro_rules! dev_file_methods {
    ($wrapper:ident, $word:ty, $what:literal, $at:ident) => {
        #[doc = concat!("Open ", $what, " device file at `path`.")]
        pub fn open_path(path: impl AsRef<Path>) -> io::Result<Self> {
            Ok($wrapper {
                dev: DevFile::open(path.as_ref())?,
            })
        }

        #[doc = concat!("Read the ", stringify!($word), " at `", stringify!($at), "`, with the whole `io::Error` on failure (the bus methods keep a [`BusFault`](hal::BusFault) instead).")]
        pub fn try_read(&self, $at: u64) -> io::Result<$word> {
            const N: usize = core::mem::size_of::<$word>();
            self.dev.read::<N>($at).map(<$word>::from_le_bytes)
        }

        #[doc = concat!("Write the ", stringify!($word), " at `", stringify!($at), "`, with the whole `io::Error` on failure.")]
        pub fn try_write(&self, $at: u64, value: $word) -> io::Result<()> {
            self.dev.write($at, &value.to_le_bytes())
        }
    };
}
pub(crate) use dev_file_methods;

#[cfg(test)]
mod tests {
    use crate::msr::MsrFile;
    use crate::pci::PciConfigFile;
    use hal::bus::{Bus, BusFault, FaultKind, Msr, Pci};

    #[test]
    fn opening_a_missing_path_fails() {
        let missing = "/nonexistent/perfregs/cpu/0/msr";
        assert!(MsrFile::open_path(missing).is_err());
        assert!(PciConfigFile::open_path(missing).is_err());
        assert!(PciConfigFile::open(0xFFFF, 0xFF, 0x1F, 7).is_err());
    }

    #[test]
    fn failed_accesses_are_kept_as_faults_with_their_address() {
        // A regular file shorter than the offsets: reads fail (EOF).
        let path = std::env::temp_dir().join(format!("perfregs-devfile-{}", std::process::id()));
        std::fs::write(&path, [0u8; 8]).unwrap();
        let mut pci = PciConfigFile::open_path(&path).unwrap();
        assert_eq!(Bus::<Pci>::read32(&mut pci, 4), 0);
        assert_eq!(Bus::<Pci>::take_fault(&mut pci), None);
        assert_eq!(Bus::<Pci>::read32(&mut pci, 0x100), u32::MAX);
        let fault = Bus::<Pci>::take_fault(&mut pci).expect("a read past the end faults");
        assert_eq!(
            fault,
            BusFault::new::<Pci>(0x100, 32, false, FaultKind::OutOfRange)
        );
        assert_eq!(fault.space, "pci");
        assert_eq!(Bus::<Pci>::take_fault(&mut pci), None, "taken once");
        let mut msr = MsrFile::open_path(&path).unwrap();
        Bus::<Msr>::write32(&mut msr, 0, 0x1234_5678);
        assert_eq!(Bus::<Msr>::read64(&mut msr, 0), 0x1234_5678);
        assert_eq!(Bus::<Msr>::take_fault(&mut msr), None);
        assert_eq!(Bus::<Msr>::read64(&mut msr, 0x10), u64::MAX);
        // The first fault is kept, not overwritten by a later one.
        Bus::<Msr>::write32(&mut msr, 0x20, 1);
        let fault = Bus::<Msr>::take_fault(&mut msr).expect("kept");
        assert_eq!((fault.space, fault.addr, fault.width), ("msr", 0x10, 64));
        let _ = std::fs::remove_file(&path);
    }
}
