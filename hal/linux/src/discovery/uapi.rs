//! The i915 uAPI that discovery needs: `DRM_IOCTL_I915_GETPARAM` with the
//! parameters it asks for, and `DRM_IOCTL_I915_QUERY` with the topology
//! query (`include/uapi/drm/i915_drm.h`). Every struct is `#[repr(C)]` with
//! its size and field offsets asserted at compile time; the ioctl numbers are
//! built with rustix's opcode helpers and asserted against the x86_64 values
//! of the header. `tests/abi.rs` compares all of it with a C program
//! compiled against libdrm's `i915_drm.h`.

use core::mem::size_of;

pub use crate::uapi::i915::{DRM_COMMAND_BASE, DRM_IOCTL_BASE};
/// `DRM_I915_GETPARAM`: ioctl number offset of GETPARAM.
pub const DRM_I915_GETPARAM: u8 = 0x06;
/// `DRM_I915_QUERY`: ioctl number offset of QUERY.
pub const DRM_I915_QUERY: u8 = 0x39;

/// `I915_PARAM_CHIPSET_ID`: the PCI device id.
pub const I915_PARAM_CHIPSET_ID: i32 = 4;
/// `I915_PARAM_REVISION`: the PCI revision.
pub const I915_PARAM_REVISION: i32 = 32;
/// `I915_PARAM_CS_TIMESTAMP_FREQUENCY`: the command streamer timestamp frequency (Hz).
pub const I915_PARAM_CS_TIMESTAMP_FREQUENCY: i32 = 51;
/// `I915_PARAM_PERF_REVISION`: the i915 perf interface revision.
pub const I915_PARAM_PERF_REVISION: i32 = 54;

/// `DRM_I915_QUERY_TOPOLOGY_INFO`: query item id of the slice/subslice/EU masks.
pub const DRM_I915_QUERY_TOPOLOGY_INFO: u64 = 1;

/// `struct drm_i915_getparam` (`drm_i915_getparam_t`): the kernel writes one
/// `int` through `value`.
#[repr(C)]
#[derive(Debug)]
pub struct DrmI915Getparam {
    /// `I915_PARAM_*`.
    pub param: i32,
    /// Where the kernel writes the answer.
    pub value: *mut i32,
}

/// `struct drm_i915_query_item`: one query of a QUERY ioctl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmI915QueryItem {
    /// `DRM_I915_QUERY_*`.
    pub query_id: u64,
    /// In: 0 to ask for the length, else the buffer's length. Out: the
    /// length needed, or a negative errno for this item.
    pub length: i32,
    /// Query flags (0 for the topology).
    pub flags: u32,
    /// Pointer to the buffer the kernel fills.
    pub data_ptr: u64,
}

/// `struct drm_i915_query`: the QUERY ioctl argument.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmI915Query {
    /// Number of items at `items_ptr`.
    pub num_items: u32,
    /// Must be 0.
    pub flags: u32,
    /// Pointer to an array of [`DrmI915QueryItem`].
    pub items_ptr: u64,
}

/// `struct drm_i915_query_topology_info`, without its flexible `data[]`:
/// the 16-byte header before the slice, subslice and EU masks.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmI915QueryTopologyInfo {
    /// Unused, 0.
    pub flags: u16,
    /// Slices the slice mask has bits for.
    pub max_slices: u16,
    /// Subslices per slice the subslice masks have bits for.
    pub max_subslices: u16,
    /// EUs per subslice the EU masks have bits for.
    pub max_eus_per_subslice: u16,
    /// Offset in `data[]` of the first slice's subslice mask.
    pub subslice_offset: u16,
    /// Bytes between two slices' subslice masks.
    pub subslice_stride: u16,
    /// Offset in `data[]` of the first subslice's EU mask.
    pub eu_offset: u16,
    /// Bytes between two subslices' EU masks.
    pub eu_stride: u16,
}

/// Size of the topology header; `data[]` starts here.
pub const TOPOLOGY_HEADER_SIZE: usize = size_of::<DrmI915QueryTopologyInfo>();

// The pointer is aligned to its own size (4 or 8 bytes).
assert_layout!(
    DrmI915Getparam: 2 * size_of::<*mut i32>(),
    param @ 0,
    value @ size_of::<*mut i32>(),
);
assert_layout!(DrmI915QueryItem: 24, query_id @ 0, length @ 8, flags @ 12, data_ptr @ 16);
assert_layout!(DrmI915Query: 16, num_items @ 0, flags @ 4, items_ptr @ 8);
assert_layout!(
    DrmI915QueryTopologyInfo: TOPOLOGY_HEADER_SIZE,
    flags @ 0,
    max_slices @ 2,
    max_subslices @ 4,
    max_eus_per_subslice @ 6,
    subslice_offset @ 8,
    subslice_stride @ 10,
    eu_offset @ 12,
    eu_stride @ 14,
);
const _: () = assert!(TOPOLOGY_HEADER_SIZE == 16);

impl DrmI915QueryTopologyInfo {
    /// The header at the start of `bytes` (little-endian, as the kernel
    /// writes it on the machines i915 runs on), if 16 bytes are there.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..TOPOLOGY_HEADER_SIZE)?;
        let at = |i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
        Some(DrmI915QueryTopologyInfo {
            flags: at(0),
            max_slices: at(1),
            max_subslices: at(2),
            max_eus_per_subslice: at(3),
            subslice_offset: at(4),
            subslice_stride: at(5),
            eu_offset: at(6),
            eu_stride: at(7),
        })
    }

    /// The 16 header bytes, little-endian.
    pub fn to_bytes(self) -> [u8; TOPOLOGY_HEADER_SIZE] {
        let fields = [
            self.flags,
            self.max_slices,
            self.max_subslices,
            self.max_eus_per_subslice,
            self.subslice_offset,
            self.subslice_stride,
            self.eu_offset,
            self.eu_stride,
        ];
        let mut out = [0u8; TOPOLOGY_HEADER_SIZE];
        for (chunk, f) in out.chunks_exact_mut(2).zip(fields) {
            chunk.copy_from_slice(&f.to_le_bytes());
        }
        out
    }
}

/// `DRM_XE_DEVICE_QUERY`: ioctl number offset of the xe device query
/// (`include/uapi/drm/xe_drm.h`; no packaged header yet, so these xe values
/// are asserted here only).
pub const DRM_XE_DEVICE_QUERY: u8 = 0x00;
/// `DRM_XE_DEVICE_QUERY_GT_LIST`: the GTs, with their timestamp `reference_clock`.
pub const DRM_XE_DEVICE_QUERY_GT_LIST: u32 = 3;
/// `DRM_XE_DEVICE_QUERY_GT_TOPOLOGY`: the DSS and EU masks of each GT.
pub const DRM_XE_DEVICE_QUERY_GT_TOPOLOGY: u32 = 5;
/// `DRM_XE_QUERY_GT_TYPE_MAIN`: the main (render) GT.
pub const DRM_XE_QUERY_GT_TYPE_MAIN: u16 = 0;
/// `DRM_XE_TOPO_DSS_GEOMETRY`: the DSS available for geometry.
pub const DRM_XE_TOPO_DSS_GEOMETRY: u16 = 1;
/// `DRM_XE_TOPO_DSS_COMPUTE`: the DSS available for compute.
pub const DRM_XE_TOPO_DSS_COMPUTE: u16 = 2;
/// `DRM_XE_TOPO_L3_BANK`: the enabled L3 banks.
pub const DRM_XE_TOPO_L3_BANK: u16 = 3;
/// `DRM_XE_TOPO_EU_PER_DSS`: the EUs of each DSS.
pub const DRM_XE_TOPO_EU_PER_DSS: u16 = 4;
/// `DRM_XE_TOPO_SIMD16_EU_PER_DSS`: the SIMD16 EUs of each DSS (later platforms).
pub const DRM_XE_TOPO_SIMD16_EU_PER_DSS: u16 = 5;

/// `struct drm_xe_device_query`: the argument of `DRM_IOCTL_XE_DEVICE_QUERY`.
/// With `size` 0 the kernel writes the size needed; with that size it
/// copies the answer to `data` (any other size is `EINVAL`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmXeDeviceQuery {
    /// Extension chain, 0.
    pub extensions: u64,
    /// `DRM_XE_DEVICE_QUERY_*`.
    pub query: u32,
    /// Size of the answer.
    pub size: u32,
    /// Pointer to the answer's buffer.
    pub data: u64,
    /// Reserved, 0.
    pub reserved: [u64; 2],
}

/// Size of one `struct drm_xe_gt` in the GT list.
pub const XE_GT_SIZE: usize = 96;
/// Offsets in `struct drm_xe_gt`: `type`, `gt_id` and `reference_clock`.
pub const XE_GT_TYPE_OFFSET: usize = 0;
/// Offset of `gt_id` in `struct drm_xe_gt`.
pub const XE_GT_ID_OFFSET: usize = 4;
/// Offset of `reference_clock` (u32, Hz) in `struct drm_xe_gt`.
pub const XE_GT_REFERENCE_CLOCK_OFFSET: usize = 12;
/// Size of `struct drm_xe_query_gt_list` before its entries (`num_gt`, `pad`).
pub const XE_GT_LIST_HEADER_SIZE: usize = 8;
/// Size of `struct drm_xe_query_topology_mask` before its mask
/// (`u16 gt_id; u16 type; u32 num_bytes`).
pub const XE_TOPOLOGY_MASK_HEADER_SIZE: usize = 8;

assert_layout!(
    DrmXeDeviceQuery: 40,
    extensions @ 0,
    query @ 8,
    size @ 12,
    data @ 16,
    reserved @ 24,
);

/// The ioctl numbers, built with rustix's opcode helpers (Linux only).
#[cfg(target_os = "linux")]
pub mod ioctl {
    use super::*;
    use crate::uapi::drm;
    use rustix::ioctl::Opcode;

    /// `DRM_IOCTL_I915_GETPARAM`: `DRM_IOWR(DRM_COMMAND_BASE + 0x06, drm_i915_getparam_t)`.
    pub const I915_GETPARAM: Opcode = drm::iowr::<DrmI915Getparam>(DRM_I915_GETPARAM);
    /// `DRM_IOCTL_I915_QUERY`: `DRM_IOWR(DRM_COMMAND_BASE + 0x39, struct drm_i915_query)`.
    pub const I915_QUERY: Opcode = drm::iowr::<DrmI915Query>(DRM_I915_QUERY);

    /// `DRM_IOCTL_XE_DEVICE_QUERY`: `DRM_IOWR(DRM_COMMAND_BASE + 0x00, struct drm_xe_device_query)`.
    pub const XE_DEVICE_QUERY: Opcode = drm::iowr::<DrmXeDeviceQuery>(DRM_XE_DEVICE_QUERY);

    // The headers' values on x86_64 (and aarch64, which encodes alike).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    const _: () = {
        assert!(I915_GETPARAM as u64 == 0xC010_6446);
        assert!(I915_QUERY as u64 == 0xC010_6479);
        assert!(XE_DEVICE_QUERY as u64 == 0xC028_6440);
    };
}

/// The topology header of a TGL GT2 (one slice, 6 dual subslices of 16
/// EUs), for tests.
#[cfg(test)]
pub(crate) const TGL_GT2_TOPOLOGY: DrmI915QueryTopologyInfo = DrmI915QueryTopologyInfo {
    flags: 0,
    max_slices: 1,
    max_subslices: 6,
    max_eus_per_subslice: 16,
    subslice_offset: 1,
    subslice_stride: 1,
    eu_offset: 2,
    eu_stride: 2,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topology_header_round_trips_and_needs_16_bytes() {
        let h = TGL_GT2_TOPOLOGY;
        let b = h.to_bytes();
        assert_eq!(&b[..4], &[0, 0, 1, 0]);
        assert_eq!(DrmI915QueryTopologyInfo::parse(&b), Some(h));
        assert_eq!(DrmI915QueryTopologyInfo::parse(&b[..15]), None);
    }
}
