//! The i915 uAPI perfregs uses (`include/uapi/drm/i915_drm.h`): perf
//! (`DRM_IOCTL_I915_PERF_*` and the stream fd's ioctls), GETPARAM and the
//! topology QUERY. Every struct is `#[repr(C)]` with its size and field
//! offsets asserted at compile time; `tests/all/abi.rs` compares them with C
//! programs compiled against libdrm's `i915_drm.h`.

use core::mem::size_of;

pub use crate::record::{RECORD_OA_BUFFER_LOST, RECORD_OA_REPORT_LOST, RECORD_SAMPLE};

/// `DRM_I915_PERF_OPEN`: the command number (added to `DRM_COMMAND_BASE`).
pub const DRM_I915_PERF_OPEN: u8 = 0x36;
/// `DRM_I915_PERF_ADD_CONFIG`.
pub const DRM_I915_PERF_ADD_CONFIG: u8 = 0x37;
/// `DRM_I915_PERF_REMOVE_CONFIG`.
pub const DRM_I915_PERF_REMOVE_CONFIG: u8 = 0x38;
/// `DRM_COMMAND_BASE`: driver ioctls start here.
pub const DRM_COMMAND_BASE: u8 = 0x40;
/// `DRM_IOCTL_BASE`: the DRM ioctl group, `'d'`.
pub const DRM_IOCTL_BASE: u8 = b'd';

/// `I915_PERF_FLAG_FD_CLOEXEC`.
pub const I915_PERF_FLAG_FD_CLOEXEC: u32 = 1 << 0;
/// `I915_PERF_FLAG_FD_NONBLOCK`.
pub const I915_PERF_FLAG_FD_NONBLOCK: u32 = 1 << 1;
/// `I915_PERF_FLAG_DISABLED`: the stream opens disabled.
pub const I915_PERF_FLAG_DISABLED: u32 = 1 << 2;

/// `I915_PARAM_PERF_REVISION` (GETPARAM): the i915 perf interface revision.
pub const I915_PARAM_PERF_REVISION: i32 = 54;

/// `DRM_I915_PERF_PROP_*`: the open properties (`(u64 id, u64 value)`).
pub mod prop {

    named_consts! {
        u64;
        /// The property's name as the header spells it (`None`: unknown id).
        pub fn name;
        /// `CTX_HANDLE`: filter on one GEM context.
        CTX_HANDLE = 1;
        /// `SAMPLE_OA`: include the raw OA report in samples.
        SAMPLE_OA = 2;
        /// `OA_METRICS_SET`: the config id.
        OA_METRICS_SET = 3;
        /// `OA_FORMAT`: an `I915_OA_FORMAT_*`.
        OA_FORMAT = 4;
        /// `OA_EXPONENT`: period = timestamp period × 2^(exponent + 1).
        OA_EXPONENT = 5;
        /// `HOLD_PREEMPTION` (revision 3).
        HOLD_PREEMPTION = 6;
        /// `GLOBAL_SSEU` (revision 4).
        GLOBAL_SSEU = 7;
        /// `POLL_OA_PERIOD` in ns, at least 100 µs (revision 5).
        POLL_OA_PERIOD = 8;
        /// `OA_ENGINE_CLASS` (revision 6).
        OA_ENGINE_CLASS = 9;
        /// `OA_ENGINE_INSTANCE` (revision 6).
        OA_ENGINE_INSTANCE = 10;
    }

    /// The lowest perf revision that knows property `id`.
    pub fn revision(id: u64) -> u32 {
        match id {
            HOLD_PREEMPTION => 3,
            GLOBAL_SSEU => 4,
            POLL_OA_PERIOD => 5,
            OA_ENGINE_CLASS | OA_ENGINE_INSTANCE => 6,
            _ => 1,
        }
    }
}

/// An `enum drm_i915_oa_format` value with its name and report size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OaFormat {
    /// `I915_OA_FORMAT_*` value.
    pub id: u32,
    /// The name after `I915_OA_FORMAT_`.
    pub name: &'static str,
    /// Report size in bytes (`None`: the MTL OAM formats, whose size the
    /// facts page does not give; a stream of them needs the size from the
    /// caller).
    pub size: Option<usize>,
}

/// Every `I915_OA_FORMAT_*` with its report size.
pub const OA_FORMATS: [OaFormat; 14] = [
    OaFormat {
        id: 1,
        name: "A13",
        size: Some(64),
    },
    OaFormat {
        id: 2,
        name: "A29",
        size: Some(128),
    },
    OaFormat {
        id: 3,
        name: "A13_B8_C8",
        size: Some(128),
    },
    OaFormat {
        id: 4,
        name: "B4_C8",
        size: Some(64),
    },
    OaFormat {
        id: 5,
        name: "A45_B8_C8",
        size: Some(256),
    },
    OaFormat {
        id: 6,
        name: "B4_C8_A16",
        size: Some(128),
    },
    OaFormat {
        id: 7,
        name: "C4_B8",
        size: Some(64),
    },
    OaFormat {
        id: 8,
        name: "A12",
        size: Some(64),
    },
    OaFormat {
        id: 9,
        name: "A12_B8_C8",
        size: Some(128),
    },
    OaFormat {
        id: 10,
        name: "A32u40_A4u32_B8_C8",
        size: Some(256),
    },
    OaFormat {
        id: 11,
        name: "OAR_A32u40_A4u32_B8_C8",
        size: Some(256),
    },
    OaFormat {
        id: 12,
        name: "A24u40_A14u32_B8_C8",
        size: Some(256),
    },
    OaFormat {
        id: 13,
        name: "MPEC8u64_B8_C8",
        // i915_perf.c oa_formats[]: { 1, 192, TYPE_OAM, HDR_64_BIT }.
        size: Some(192),
    },
    OaFormat {
        id: 14,
        name: "MPEC8u32_B8_C8",
        // i915_perf.c oa_formats[]: { 2, 128, TYPE_OAM, HDR_64_BIT }.
        size: Some(128),
    },
];

/// The format with id `id`.
pub fn oa_format(id: u32) -> Option<&'static OaFormat> {
    OA_FORMATS.iter().find(|f| f.id == id)
}

/// The format named `name` (without the `I915_OA_FORMAT_` prefix; case
/// matters only for the `u` of the widths, compared case-insensitively).
pub fn oa_format_by_name(name: &str) -> Option<&'static OaFormat> {
    OA_FORMATS
        .iter()
        .find(|f| f.name.eq_ignore_ascii_case(name))
}

/// `struct drm_i915_perf_open_param`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmI915PerfOpenParam {
    /// `I915_PERF_FLAG_*`.
    pub flags: u32,
    /// Number of `(u64 id, u64 value)` pairs.
    pub num_properties: u32,
    /// Pointer to the pairs.
    pub properties_ptr: u64,
}

assert_layout!(DrmI915PerfOpenParam: 16, flags @ 0, num_properties @ 4, properties_ptr @ 8);

/// `struct drm_i915_perf_oa_config`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrmI915PerfOaConfig {
    /// The uuid, 36 characters, no terminator.
    pub uuid: [u8; 36],
    /// Entries of the mux (NOA) list.
    pub n_mux_regs: u32,
    /// Entries of the boolean (OA) list.
    pub n_boolean_regs: u32,
    /// Entries of the flex list.
    pub n_flex_regs: u32,
    /// Pointer to `n_mux_regs` `(u32 address, u32 value)` pairs.
    pub mux_regs_ptr: u64,
    /// Pointer to the boolean pairs.
    pub boolean_regs_ptr: u64,
    /// Pointer to the flex pairs.
    pub flex_regs_ptr: u64,
}

assert_layout!(
    DrmI915PerfOaConfig: 72,
    uuid @ 0,
    n_mux_regs @ 36,
    n_boolean_regs @ 40,
    n_flex_regs @ 44,
    mux_regs_ptr @ 48,
    boolean_regs_ptr @ 56,
    flex_regs_ptr @ 64,
);

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

/// ioctl numbers (built with rustix's opcode helpers).
#[cfg(target_os = "linux")]
pub mod ioctl {
    use super::*;
    use crate::uapi::drm;
    use rustix::ioctl::{opcode, Opcode};

    /// `DRM_IOCTL_I915_PERF_OPEN`: `DRM_IOW(0x40 + 0x36, drm_i915_perf_open_param)`.
    pub const PERF_OPEN: Opcode = drm::iow::<DrmI915PerfOpenParam>(DRM_I915_PERF_OPEN);
    /// `DRM_IOCTL_I915_PERF_ADD_CONFIG`.
    pub const PERF_ADD_CONFIG: Opcode = drm::iow::<DrmI915PerfOaConfig>(DRM_I915_PERF_ADD_CONFIG);
    /// `DRM_IOCTL_I915_PERF_REMOVE_CONFIG` (argument: a pointer to a u64 id).
    pub const PERF_REMOVE_CONFIG: Opcode = drm::iow::<u64>(DRM_I915_PERF_REMOVE_CONFIG);
    /// `I915_PERF_IOCTL_ENABLE`: `_IO('i', 0)`.
    pub const ENABLE: Opcode = opcode::none(b'i', 0);
    /// `I915_PERF_IOCTL_DISABLE`: `_IO('i', 1)`.
    pub const DISABLE: Opcode = opcode::none(b'i', 1);
    /// `I915_PERF_IOCTL_CONFIG`: `_IO('i', 2)`, the argument is the config id.
    pub const CONFIG: Opcode = opcode::none(b'i', 2);
    /// `DRM_IOCTL_I915_GETPARAM`: `DRM_IOWR(DRM_COMMAND_BASE + 0x06, drm_i915_getparam_t)`.
    pub const GETPARAM: Opcode = drm::iowr::<DrmI915Getparam>(DRM_I915_GETPARAM);
    /// `DRM_IOCTL_I915_QUERY`: `DRM_IOWR(DRM_COMMAND_BASE + 0x39, struct drm_i915_query)`.
    pub const QUERY: Opcode = drm::iowr::<DrmI915Query>(DRM_I915_QUERY);

    #[cfg(target_arch = "x86_64")]
    const _: () = {
        assert!(GETPARAM as u64 == 0xC010_6446);
        assert!(QUERY as u64 == 0xC010_6479);
        assert!(PERF_OPEN as u64 == 0x4010_6476);
        assert!(PERF_ADD_CONFIG as u64 == 0x4048_6477);
        assert!(PERF_REMOVE_CONFIG as u64 == 0x4008_6478);
        assert!(ENABLE as u64 == 0x6900);
        assert!(DISABLE as u64 == 0x6901);
        assert!(CONFIG as u64 == 0x6902);
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
    fn formats_are_numbered_once_with_the_facts_page_sizes() {
        for (i, f) in OA_FORMATS.iter().enumerate() {
            assert_eq!(f.id as usize, i + 1, "{}", f.name);
            assert_eq!(oa_format(f.id), Some(f));
            assert_eq!(oa_format_by_name(&f.name.to_lowercase()), Some(f));
        }
        let size = |n: &str| oa_format_by_name(n).and_then(|f| f.size);
        assert_eq!(size("A13"), Some(64));
        assert_eq!(size("A45_B8_C8"), Some(256));
        assert_eq!(size("A32u40_A4u32_B8_C8"), Some(256));
        assert_eq!(size("A12_B8_C8"), Some(128));
        assert_eq!(oa_format(0), None);
        assert_eq!(oa_format(15), None);
    }

    #[test]
    fn property_names_and_revisions() {
        assert_eq!(prop::name(prop::OA_EXPONENT), Some("OA_EXPONENT"));
        assert_eq!(prop::name(11), None);
        assert_eq!(prop::revision(prop::POLL_OA_PERIOD), 5);
        assert_eq!(prop::revision(prop::SAMPLE_OA), 1);
    }

    #[test]
    fn topology_header_round_trips_and_needs_16_bytes() {
        let h = TGL_GT2_TOPOLOGY;
        let b = h.to_bytes();
        assert_eq!(&b[..4], &[0, 0, 1, 0]);
        assert_eq!(DrmI915QueryTopologyInfo::parse(&b), Some(h));
        assert_eq!(DrmI915QueryTopologyInfo::parse(&b[..15]), None);
    }
}
