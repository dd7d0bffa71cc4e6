//! Xe observation streams: `DRM_IOCTL_XE_OBSERVATION` and the stream fd's
//! ioctls (`include/uapi/drm/xe_drm.h`; no packaged header yet, so the
//! values are those of the facts page, computed for x86_64).

use core::mem::{offset_of, size_of};

/// `DRM_XE_OBSERVATION`: the command number (added to `DRM_COMMAND_BASE`).
pub const DRM_XE_OBSERVATION: u8 = 0x0b;

/// `DRM_XE_OBSERVATION_TYPE_OA`.
pub const OBSERVATION_TYPE_OA: u64 = 0;
/// `DRM_XE_OBSERVATION_TYPE_EU_STALL`.
pub const OBSERVATION_TYPE_EU_STALL: u64 = 1;
/// `DRM_XE_OBSERVATION_OP_STREAM_OPEN`.
pub const OBSERVATION_OP_STREAM_OPEN: u64 = 0;
/// `DRM_XE_OBSERVATION_OP_ADD_CONFIG`.
pub const OBSERVATION_OP_ADD_CONFIG: u64 = 1;
/// `DRM_XE_OBSERVATION_OP_REMOVE_CONFIG`.
pub const OBSERVATION_OP_REMOVE_CONFIG: u64 = 2;

/// `DRM_XE_OA_EXTENSION_SET_PROPERTY`: the `name` of a set-property
/// extension.
pub const OA_EXTENSION_SET_PROPERTY: u32 = 0;

/// `DRM_XE_OA_PROPERTY_*`.
pub mod prop {

    named_consts! {
        u32;
        /// The property's name as the header spells it (`None`: unknown id).
        pub fn name;
        /// `OA_UNIT_ID`.
        OA_UNIT_ID = 1;
        /// `SAMPLE_OA`.
        SAMPLE_OA = 2;
        /// `OA_METRIC_SET`: the config id.
        OA_METRIC_SET = 3;
        /// `OA_FORMAT`: see [`super::oa_format`].
        OA_FORMAT = 4;
        /// `OA_PERIOD_EXPONENT`.
        OA_PERIOD_EXPONENT = 5;
        /// `OA_DISABLED`: open disabled.
        OA_DISABLED = 6;
        /// `EXEC_QUEUE_ID`.
        EXEC_QUEUE_ID = 7;
        /// `OA_ENGINE_INSTANCE`.
        OA_ENGINE_INSTANCE = 8;
        /// `NO_PREEMPT`.
        NO_PREEMPT = 9;
        /// `NUM_SYNCS`.
        NUM_SYNCS = 10;
        /// `SYNCS`.
        SYNCS = 11;
        /// `OA_BUFFER_SIZE` (128 KiB..128 MiB, default 16 MiB).
        OA_BUFFER_SIZE = 12;
        /// `WAIT_NUM_REPORTS`.
        WAIT_NUM_REPORTS = 13;
    }
}

/// The `OA_FORMAT` property value: format type | counter select << 8 |
/// counter size << 16 | bc report << 24 (each field 8 bits).
pub const fn oa_format(
    format_type: u8,
    counter_select: u8,
    counter_size: u8,
    bc_report: u8,
) -> u64 {
    format_type as u64
        | (counter_select as u64) << 8
        | (counter_size as u64) << 16
        | (bc_report as u64) << 24
}

/// STATUS bits (`DRM_XE_OASTATUS_*`).
pub mod status {
    /// `REPORT_LOST`.
    pub const REPORT_LOST: u64 = 1 << 0;
    /// `BUFFER_OVERFLOW`.
    pub const BUFFER_OVERFLOW: u64 = 1 << 1;
    /// `COUNTER_OVERFLOW`.
    pub const COUNTER_OVERFLOW: u64 = 1 << 2;
    /// `MMIO_TRG_Q_FULL`.
    pub const MMIO_TRG_Q_FULL: u64 = 1 << 3;
    /// Every bit with its name, lowest first.
    pub const ALL: [(u64, &str); 4] = [
        (REPORT_LOST, "REPORT_LOST"),
        (BUFFER_OVERFLOW, "BUFFER_OVERFLOW"),
        (COUNTER_OVERFLOW, "COUNTER_OVERFLOW"),
        (MMIO_TRG_Q_FULL, "MMIO_TRG_Q_FULL"),
    ];
}

/// `struct drm_xe_observation_param`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmXeObservationParam {
    /// Extension chain (0).
    pub extensions: u64,
    /// `DRM_XE_OBSERVATION_TYPE_*`.
    pub observation_type: u64,
    /// `DRM_XE_OBSERVATION_OP_*`.
    pub observation_op: u64,
    /// Pointer to the op's argument (the first property, a config, a u64 id).
    pub param: u64,
}

assert_layout!(
    DrmXeObservationParam: 32,
    extensions @ 0,
    observation_type @ 8,
    observation_op @ 16,
    param @ 24,
);

/// `struct drm_xe_ext_set_property` (with its `struct drm_xe_user_extension`
/// head inlined): one link of the open-property chain.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmXeExtSetProperty {
    /// Pointer to the next link (0: last).
    pub next_extension: u64,
    /// [`OA_EXTENSION_SET_PROPERTY`].
    pub name: u32,
    /// Zero.
    pub pad: u32,
    /// `DRM_XE_OA_PROPERTY_*`.
    pub property: u32,
    /// Zero.
    pub pad2: u32,
    /// The value.
    pub value: u64,
    /// Zero.
    pub reserved: [u64; 2],
}

assert_layout!(
    DrmXeExtSetProperty: 48,
    next_extension @ 0,
    name @ 8,
    pad @ 12,
    property @ 16,
    pad2 @ 20,
    value @ 24,
    reserved @ 32,
);

/// `struct drm_xe_oa_config`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrmXeOaConfig {
    /// Extension chain (0).
    pub extensions: u64,
    /// The uuid, 36 characters, no terminator.
    pub uuid: [u8; 36],
    /// Entries of the one register list.
    pub n_regs: u32,
    /// Pointer to `n_regs` `(u32 address, u32 value)` pairs.
    pub regs_ptr: u64,
}

assert_layout!(DrmXeOaConfig: 56, extensions @ 0, uuid @ 8, n_regs @ 44, regs_ptr @ 48);

/// `DRM_XE_DEVICE_QUERY`: ioctl number offset of the xe device query.
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

/// `DRM_XE_DEVICE_QUERY_OA_UNITS`: the OA units (`struct drm_xe_query_oa_units`).
pub const DRM_XE_DEVICE_QUERY_OA_UNITS: u32 = 8;
/// Bytes of `struct drm_xe_query_oa_units` before its units
/// (`u64 extensions; u32 num_oa_units; u32 pad`).
pub const XE_OA_UNITS_HEADER_SIZE: usize = 16;
/// Bytes of `struct drm_xe_oa_unit` before its `eci[]` engines.
pub const XE_OA_UNIT_SIZE: usize = 72;
/// Offset of `oa_unit_id` (u32) in `struct drm_xe_oa_unit`.
pub const XE_OA_UNIT_ID_OFFSET: usize = 8;
/// Offset of `oa_unit_type` (u32, `DRM_XE_OA_UNIT_TYPE_*`).
pub const XE_OA_UNIT_TYPE_OFFSET: usize = 12;
/// Offset of `capabilities` (u64, `DRM_XE_OA_CAPS_*`).
pub const XE_OA_UNIT_CAPABILITIES_OFFSET: usize = 16;
/// Offset of `oa_timestamp_freq` (u64, Hz).
pub const XE_OA_UNIT_TIMESTAMP_FREQ_OFFSET: usize = 24;
/// Offset of `gt_id` (u16; Linux 6.19 and later, `reserved` before).
pub const XE_OA_UNIT_GT_ID_OFFSET: usize = 32;
/// Offset of `num_engines` (u64).
pub const XE_OA_UNIT_NUM_ENGINES_OFFSET: usize = 64;
/// Size of one `struct drm_xe_engine_class_instance`
/// (`u16 engine_class; u16 engine_instance; u16 gt_id; u16 pad`).
pub const XE_ENGINE_CLASS_INSTANCE_SIZE: usize = 8;
/// `DRM_XE_OA_UNIT_TYPE_OAG`: the render GT's unit (OAR and OAC are its sub-units).
pub const DRM_XE_OA_UNIT_TYPE_OAG: u32 = 0;
/// `DRM_XE_OA_UNIT_TYPE_OAM`: a media unit (MTL's OAM, Xe2's SCMI units).
pub const DRM_XE_OA_UNIT_TYPE_OAM: u32 = 1;
/// `DRM_XE_OA_UNIT_TYPE_OAM_SAG`: the Xe2+ media GT's SAG unit.
pub const DRM_XE_OA_UNIT_TYPE_OAM_SAG: u32 = 2;
/// `DRM_XE_OA_UNIT_TYPE_MERT`: the MERT unit (not on a described part).
pub const DRM_XE_OA_UNIT_TYPE_MERT: u32 = 3;
/// `DRM_XE_OA_CAPS_BASE`: the unit supports the base OA interface.
pub const DRM_XE_OA_CAPS_BASE: u64 = 1 << 0;

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

/// ioctl numbers (built with rustix's opcode helpers).
#[cfg(target_os = "linux")]
pub mod ioctl {
    use super::*;
    use crate::uapi::drm;
    use rustix::ioctl::{opcode, Opcode};

    /// `DRM_IOCTL_XE_OBSERVATION`: `DRM_IOW(0x40 + 0x0b, drm_xe_observation_param)`.
    pub const OBSERVATION: Opcode = drm::iow::<DrmXeObservationParam>(DRM_XE_OBSERVATION);
    /// `DRM_XE_OBSERVATION_IOCTL_ENABLE`.
    pub const ENABLE: Opcode = opcode::none(b'i', 0);
    /// `DRM_XE_OBSERVATION_IOCTL_DISABLE`.
    pub const DISABLE: Opcode = opcode::none(b'i', 1);
    /// `DRM_XE_OBSERVATION_IOCTL_CONFIG` (argument: a set-property chain).
    pub const CONFIG: Opcode = opcode::none(b'i', 2);
    /// `DRM_XE_OBSERVATION_IOCTL_STATUS` (argument: `struct drm_xe_oa_stream_status`).
    pub const STATUS: Opcode = opcode::none(b'i', 3);
    /// `DRM_XE_OBSERVATION_IOCTL_INFO` (argument: `struct drm_xe_oa_stream_info`).
    pub const INFO: Opcode = opcode::none(b'i', 4);
    /// `DRM_IOCTL_XE_DEVICE_QUERY`: `DRM_IOWR(DRM_COMMAND_BASE + 0x00, struct drm_xe_device_query)`.
    pub const DEVICE_QUERY: Opcode = drm::iowr::<DrmXeDeviceQuery>(DRM_XE_DEVICE_QUERY);

    #[cfg(target_arch = "x86_64")]
    const _: () = {
        assert!(DEVICE_QUERY as u64 == 0xC028_6440);
        assert!(OBSERVATION as u64 == 0x4020_644b);
        assert!(ENABLE as u64 == 0x6900);
        assert!(DISABLE as u64 == 0x6901);
        assert!(CONFIG as u64 == 0x6902);
        assert!(STATUS as u64 == 0x6903);
        assert!(INFO as u64 == 0x6904);
    };
}

/// `struct drm_xe_oa_stream_status`: what the STATUS ioctl fills in (this
/// and [`DrmXeOaStreamInfo`] are not on the facts page: their layout is
/// the kernel header's `xe_drm.h`, three reserved u64 after the value).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmXeOaStreamStatus {
    /// Extension chain (0).
    pub extensions: u64,
    /// `DRM_XE_OASTATUS_*` bits.
    pub oa_status: u64,
    /// Reserved.
    pub reserved: [u64; 3],
}

/// `struct drm_xe_oa_stream_info`: what the INFO ioctl fills in.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmXeOaStreamInfo {
    /// Extension chain (0).
    pub extensions: u64,
    /// The OA buffer size in bytes.
    pub oa_buf_size: u64,
    /// Reserved.
    pub reserved: [u64; 3],
}

const _: () = {
    assert!(size_of::<DrmXeOaStreamStatus>() == 40);
    assert!(offset_of!(DrmXeOaStreamStatus, oa_status) == 8);
    assert!(size_of::<DrmXeOaStreamInfo>() == 40);
    assert!(offset_of!(DrmXeOaStreamInfo, oa_buf_size) == 8);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_the_facts_page() {
        // DRM_XE_OA_PROPERTY_* in order, 1..=13.
        let names = (1..=13)
            .map(prop::name)
            .collect::<Option<Vec<_>>>()
            .unwrap();
        assert_eq!(names[0], "OA_UNIT_ID");
        assert_eq!(names[4], "OA_PERIOD_EXPONENT");
        assert_eq!(names[11], "OA_BUFFER_SIZE");
        assert_eq!(names[12], "WAIT_NUM_REPORTS");
        assert_eq!(prop::name(0), None);
        assert_eq!(prop::name(14), None);
        assert_eq!(
            status::ALL.map(|(b, _)| b),
            [1, 2, 4, 8],
            "REPORT_LOST, BUFFER_OVERFLOW, COUNTER_OVERFLOW, MMIO_TRG_Q_FULL"
        );
        assert_eq!(oa_format(1, 2, 3, 4), 0x0403_0201);
        assert_eq!(
            [
                OBSERVATION_OP_STREAM_OPEN,
                OBSERVATION_OP_ADD_CONFIG,
                OBSERVATION_OP_REMOVE_CONFIG
            ],
            [0, 1, 2]
        );
        assert_eq!(DRM_XE_OBSERVATION, 0x0b);
    }

    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    #[test]
    fn ioctl_numbers_of_the_facts_page() {
        assert_eq!(ioctl::OBSERVATION as u64, 0x4020_644b);
        assert_eq!(ioctl::STATUS as u64, 0x6903);
        assert_eq!(ioctl::INFO as u64, 0x6904);
    }
}
