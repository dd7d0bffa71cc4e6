//! The kernel's uAPI for OA streams and configurations: `#[repr(C)]`
//! structs with compile-time checks of their sizes and field offsets,
//! property ids, formats and ioctl numbers.
//!
//! - [`i915`]: `include/uapi/drm/i915_drm.h` (checked against Debian's
//!   `libdrm-dev` header by `tests/all/abi.rs`).
//! - [`xe`]: `include/uapi/drm/xe_drm.h` (no packaged header yet: the values
//!   are checked against the numbers computed from the kernel header for
//!   x86_64).
//!
//! The ioctl numbers are built with rustix's opcode helpers and exist on
//! Linux only; everything else is pure data.

pub mod i915;
pub mod xe;

/// One register write of an OA configuration: `(u32 address, u32 value)`,
/// the element of every register list the kernel takes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RegPair {
    /// MMIO address.
    pub address: u32,
    /// Value written.
    pub value: u32,
}

assert_layout!(RegPair: 8, address @ 0, value @ 4);

/// The `char uuid[36]` of a configuration: 36 bytes, no terminator.
pub const UUID_LEN: usize = 36;

/// The numbers of DRM driver ioctls (`DRM_IOW`, `DRM_IOWR` of the DRM
/// headers), built with rustix's opcode helpers.
#[cfg(target_os = "linux")]
pub(crate) mod drm {
    use super::i915::{DRM_COMMAND_BASE, DRM_IOCTL_BASE};
    use rustix::ioctl::{opcode, Opcode};

    /// `DRM_IOW(DRM_COMMAND_BASE + nr, T)`: the driver ioctl `nr` reading a `T`.
    pub(crate) const fn iow<T>(nr: u8) -> Opcode {
        opcode::write::<T>(DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr)
    }

    /// `DRM_IOWR(DRM_COMMAND_BASE + nr, T)`: the driver ioctl `nr` reading
    /// and writing a `T`.
    pub(crate) const fn iowr<T>(nr: u8) -> Opcode {
        opcode::read_write::<T>(DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr)
    }
}

/// An ioctl whose return value matters (a new fd, a config id), through
/// rustix's [`rustix::ioctl::ioctl`].
#[cfg(target_os = "linux")]
pub(crate) mod call {
    use core::ffi::c_void;
    use rustix::ioctl::{Ioctl, IoctlOutput, Opcode};
    use std::os::fd::AsFd;

    struct Call {
        opcode: Opcode,
        arg: *mut c_void,
    }

    // SAFETY: the callers of `ioctl` below promise that `arg` is what the
    // opcode expects; the output is the ioctl's return value.
    unsafe impl Ioctl for Call {
        type Output = IoctlOutput;
        const IS_MUTATING: bool = true;
        fn opcode(&self) -> Opcode {
            self.opcode
        }
        fn as_ptr(&mut self) -> *mut c_void {
            self.arg
        }
        unsafe fn output_from_ptr(
            out: IoctlOutput,
            _: *mut c_void,
        ) -> rustix::io::Result<IoctlOutput> {
            Ok(out)
        }
    }

    /// `ioctl(fd, opcode, arg)`: the return value, or the errno.
    ///
    /// # Safety
    /// `arg` must be what `opcode` takes (a pointer to the right struct,
    /// valid and, for what the kernel writes, writable for the call; or an
    /// integer argument), and everything it points to must stay valid.
    pub(crate) unsafe fn ioctl(
        fd: impl AsFd,
        opcode: Opcode,
        arg: *mut c_void,
    ) -> Result<i32, i32> {
        // SAFETY: forwarded to the caller.
        unsafe { rustix::ioctl::ioctl(fd, Call { opcode, arg }) }.map_err(|e| e.raw_os_error())
    }
}
