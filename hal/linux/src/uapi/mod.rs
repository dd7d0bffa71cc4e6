//! The kernel's uAPI for OA streams and configurations: `#[repr(C)]`
//! structs with compile-time checks of their sizes and field offsets,
//! property ids, formats and ioctl numbers.
//!
//! - [`i915`]: `include/uapi/drm/i915_drm.h` (checked against Debian's
//!   `libdrm-dev` header by `tests/abi.rs`).
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

const _: () = {
    assert!(core::mem::size_of::<RegPair>() == 8);
    assert!(core::mem::offset_of!(RegPair, address) == 0);
    assert!(core::mem::offset_of!(RegPair, value) == 4);
};

/// The `char uuid[36]` of a configuration: 36 bytes, no terminator.
pub const UUID_LEN: usize = 36;
