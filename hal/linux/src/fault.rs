//! Bus faults and `io::Error`: the [`FaultKind`] of an operating-system
//! error (what the Linux buses keep), and an `io::Error` for a
//! [`BusFault`] (what `?` in std code wants).

use hal::bus::{BusFault, FaultKind};
use std::io;

const EPERM: i32 = 1;
const ENOENT: i32 = 2;
const ENXIO: i32 = 6;
const EACCES: i32 = 13;
const ENODEV: i32 = 19;

/// The kind of fault an `io::Error` of an access means: the end of a file
/// is [`FaultKind::OutOfRange`], `EACCES`/`EPERM` [`FaultKind::Denied`],
/// `ENODEV`/`ENXIO`/`ENOENT` (a device removed or unbound)
/// [`FaultKind::Gone`], any other error number [`FaultKind::Os`].
pub fn fault_kind(e: &io::Error) -> FaultKind {
    match e.raw_os_error() {
        Some(EPERM | EACCES) => FaultKind::Denied,
        Some(ENODEV | ENXIO | ENOENT) => FaultKind::Gone,
        Some(errno) => FaultKind::Os(errno),
        None => match e.kind() {
            io::ErrorKind::UnexpectedEof => FaultKind::OutOfRange,
            io::ErrorKind::PermissionDenied => FaultKind::Denied,
            io::ErrorKind::NotFound => FaultKind::Gone,
            _ => FaultKind::Other,
        },
    }
}

/// An `io::Error` for `fault`, its message naming the space, access and
/// address: the operating-system error for [`FaultKind::Os`], otherwise the
/// matching [`io::ErrorKind`].
pub fn fault_error(fault: BusFault) -> io::Error {
    let kind = match fault.kind {
        FaultKind::Os(errno) => io::Error::from_raw_os_error(errno).kind(),
        FaultKind::OutOfRange => io::ErrorKind::UnexpectedEof,
        FaultKind::Unaligned => io::ErrorKind::InvalidInput,
        FaultKind::Denied => io::ErrorKind::PermissionDenied,
        FaultKind::Gone => io::ErrorKind::NotFound,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, fault)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hal::bus::Mmio;

    #[test]
    fn errors_map_to_kinds_and_back() {
        let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
        assert_eq!(fault_kind(&eof), FaultKind::OutOfRange);
        assert_eq!(
            fault_kind(&io::Error::from_raw_os_error(EACCES)),
            FaultKind::Denied
        );
        assert_eq!(
            fault_kind(&io::Error::from_raw_os_error(ENODEV)),
            FaultKind::Gone
        );
        assert_eq!(
            fault_kind(&io::Error::from_raw_os_error(5)),
            FaultKind::Os(5)
        );
        let f = BusFault::new::<Mmio>(0x2000, 32, true, FaultKind::Denied);
        let e = fault_error(f);
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(
            e.to_string(),
            "mmio write32 at 0x2000 failed: permission denied"
        );
    }
}
