//! A device file read and written at offsets (the MSR and PCI
//! configuration-space buses share it).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// A device file read and written at offsets, keeping the last error.
#[derive(Debug)]
pub(crate) struct DevFile {
    file: File,
    pub(crate) last_error: Option<io::Error>,
}

impl DevFile {
    /// Open read-write, or read-only when writing is not permitted.
    pub(crate) fn open(path: &Path) -> io::Result<Self> {
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

    pub(crate) fn read<const N: usize>(&self, offset: u64) -> io::Result<[u8; N]> {
        let mut b = [0u8; N];
        self.file.read_exact_at(&mut b, offset)?;
        Ok(b)
    }

    pub(crate) fn write(&self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all_at(bytes, offset)
    }

    /// The value of `r`, or `on_error` after keeping the error.
    pub(crate) fn latch<T>(&mut self, r: io::Result<T>, on_error: T) -> T {
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

pub(crate) use dev_file_methods;

#[cfg(test)]
mod tests {
    use crate::msr::MsrFile;
    use crate::pci::PciConfigFile;
    use hal::bus::{Bus, Msr, Pci};

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
