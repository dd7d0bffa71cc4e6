//! The one read path of every stream: a non-blocking `read()` and `poll()`
//! on an owned file descriptor (the i915 or Xe stream fd, or the read end
//! of the emulated kernel's pipe), through rustix.

use core::ffi::c_void;
use std::os::fd::{AsFd, BorrowedFd, FromRawFd, OwnedFd};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags};
use rustix::ioctl::Opcode;

use crate::errno::{code, Driver, KernelError, Op, StreamError};
use crate::uapi::call;

/// A stream file descriptor: reads and polls, errors as [`KernelError`]s
/// of `driver`.
#[derive(Debug)]
pub struct StreamFd {
    fd: OwnedFd,
    driver: Driver,
}

impl StreamFd {
    /// Wrap `fd` (opened non-blocking by the caller) for `driver`.
    pub fn new(fd: OwnedFd, driver: Driver) -> Self {
        StreamFd { fd, driver }
    }

    /// Open a stream: `ioctl(drm, opcode, arg)` returns a new fd, owned
    /// from here on, read for `driver`; a failure is the errno as a
    /// [`KernelError`] of `op`.
    ///
    /// # Safety
    /// As [`call::ioctl`]: `arg` is the struct `opcode` takes (what it
    /// points to valid for the call), and the ioctl returns a new fd
    /// nothing else owns when it succeeds.
    pub(crate) unsafe fn open<T>(
        drm: impl AsFd,
        opcode: Opcode,
        arg: &mut T,
        driver: Driver,
        op: Op,
    ) -> Result<Self, KernelError> {
        // SAFETY: forwarded to the caller.
        let fd = unsafe { call::ioctl(drm, opcode, (arg as *mut T).cast()) }
            .map_err(|e| KernelError::new(driver, op, e))?;
        // SAFETY: the ioctl returned a new fd that nothing else owns.
        Ok(StreamFd::new(unsafe { OwnedFd::from_raw_fd(fd) }, driver))
    }

    /// `ioctl(fd, opcode, arg)` on the stream: the return value, or the
    /// errno as a [`KernelError`] of `op`.
    ///
    /// # Safety
    /// As [`call::ioctl`]: `arg` is what `opcode` takes.
    pub(crate) unsafe fn ioctl(
        &self,
        opcode: Opcode,
        arg: *mut c_void,
        op: Op,
    ) -> Result<i32, StreamError> {
        // SAFETY: forwarded to the caller.
        unsafe { call::ioctl(&self.fd, opcode, arg) }
            .map_err(|e| KernelError::new(self.driver, op, e).into())
    }

    /// The driver the errors name.
    pub fn driver(&self) -> Driver {
        self.driver
    }

    /// One `read()` into `buf`: the bytes read, or the errno as a
    /// [`KernelError`] of [`Op::Read`] (`EAGAIN`, `EINTR`, `ENOSPC`, `EIO`
    /// included: the reader decides what each means).
    pub fn read(&self, buf: &mut [u8]) -> Result<usize, StreamError> {
        rustix::io::read(&self.fd, buf)
            .map_err(|e| KernelError::new(self.driver, Op::Read, e.raw_os_error()).into())
    }

    /// Wait up to `timeout` (`None`: forever) for data: `true` when the fd
    /// is readable, `false` on timeout. `EINTR` is retried with the
    /// remaining time only once per call (a second one is returned as
    /// `false`: nothing ready yet).
    pub fn poll(&self, timeout: Option<Duration>) -> Result<bool, StreamError> {
        let ts = timeout.map(|t| rustix::time::Timespec {
            tv_sec: i64::try_from(t.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(t.subsec_nanos()),
        });
        for _ in 0..2 {
            let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
            match rustix::event::poll(&mut fds, ts.as_ref()) {
                Ok(0) => return Ok(false),
                Ok(_) => {
                    let r = fds[0].revents();
                    if r.contains(PollFlags::ERR) || r.contains(PollFlags::NVAL) {
                        return Err(KernelError::new(self.driver, Op::Poll, code::EIO).into());
                    }
                    return Ok(r.intersects(PollFlags::IN | PollFlags::HUP));
                }
                Err(e) if e.raw_os_error() == code::EINTR => continue,
                Err(e) => {
                    return Err(KernelError::new(self.driver, Op::Poll, e.raw_os_error()).into())
                }
            }
        }
        Ok(false)
    }
}

/// The write end of a [`pipe`].
#[derive(Debug)]
pub struct PipeWriter {
    fd: OwnedFd,
}

impl PipeWriter {
    /// One non-blocking `write()`: the bytes written, or the errno
    /// (`EAGAIN` when the pipe is full).
    pub fn write(&self, bytes: &[u8]) -> Result<usize, i32> {
        rustix::io::write(&self.fd, bytes).map_err(|e| e.raw_os_error())
    }
}

/// A non-blocking, close-on-exec pipe: its read end as a [`StreamFd`] of
/// `driver` (read through the same path as a kernel stream) and its write
/// end. For the emulated kernel (the `emulated` module), which writes the
/// kernel's bytes into it.
pub fn pipe(driver: Driver) -> Result<(StreamFd, PipeWriter), i32> {
    let flags = rustix::pipe::PipeFlags::NONBLOCK | rustix::pipe::PipeFlags::CLOEXEC;
    let (r, w) = rustix::pipe::pipe_with(flags).map_err(|e| e.raw_os_error())?;
    Ok((StreamFd::new(r, driver), PipeWriter { fd: w }))
}

impl AsFd for StreamFd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_a_pipe_holds_and_polls_it() {
        let (fd, w) = pipe(Driver::Emulated).unwrap();
        let mut buf = [0u8; 16];
        let e = fd.read(&mut buf).unwrap_err();
        assert_eq!(e.errno(), Some(code::EAGAIN));
        assert!(!fd.poll(Some(Duration::from_millis(1))).unwrap());
        assert_eq!(w.write(b"abc"), Ok(3));
        assert!(fd.poll(Some(Duration::ZERO)).unwrap());
        assert_eq!(fd.read(&mut buf).unwrap(), 3);
        assert_eq!(&buf[..3], b"abc");
    }
}
