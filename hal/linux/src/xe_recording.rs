//! What IGT's `xe-perf-recorder` writes differently from its
//! `i915-perf-recorder`: the record types of its metadata, its numbering of
//! the xe OA formats in DEVICE_INFO's `oa_format`, the engine that names
//! the OA unit, and its DEVICE_TOPOLOGY record. [`crate::recording`] reads
//! and writes both formats ([`RecordingFormat`](crate::recording::RecordingFormat));
//! this module holds the xe facts.
//!
//! Sources (IGT at `b3d809d537febc23792ab8d0eb6d13cf80d626c8`, 2025-10-17):
//! - `lib/xe/xe_oa_data.h:16-38`: `enum intel_xe_perf_record_type`
//!   (SAMPLE 1, OA_REPORT_LOST 2, OA_BUFFER_LOST 3, VERSION 4, DEVICE_INFO 5,
//!   DEVICE_TOPOLOGY 6, TIMESTAMP_CORRELATION 7); `:52-80`: `struct
//!   intel_xe_perf_record_device_info`, the same packed 336 bytes as i915's,
//!   its `oa_format` an `enum intel_xe_oa_format_name`; `:82-86`: the
//!   topology "as filled by xe_fill_topology_info";
//! - `lib/xe/xe_oa.h:25-57`: `enum intel_xe_oa_format_name` (C4_B8 = 1 ...);
//!   `:326-336`: `struct intel_xe_topology_info` (the layout of i915's
//!   `drm_i915_query_topology_info`);
//! - `tools/xe-perf/xe_perf_recorder.c:383-403`: `oa_formats[]`, each
//!   format's `{counter_select, size, oa_type, header, counter_size,
//!   bc_report}`; `:485-514`: DEVICE_INFO (engine class and instance of the
//!   first engine of the OA unit, `:860-870`); `:572-592`: a SAMPLE record
//!   per raw report;
//! - `lib/xe/xe_oa.c:448-546`: `xe_fill_topology_info`;
//! - `include/drm-uapi/xe_drm.h:238-242` (engine classes), `:1717-1730`
//!   (`enum drm_xe_oa_format_type`), `:1775-1778` (the format's packing).

use core::fmt;

/// `INTEL_XE_PERF_RECORD_TYPE_VERSION`.
pub const RECORD_VERSION: u32 = 4;
/// `INTEL_XE_PERF_RECORD_TYPE_DEVICE_INFO`.
pub const RECORD_DEVICE_INFO: u32 = 5;
/// `INTEL_XE_PERF_RECORD_TYPE_DEVICE_TOPOLOGY`.
pub const RECORD_DEVICE_TOPOLOGY: u32 = 6;
/// `INTEL_XE_PERF_RECORD_TYPE_TIMESTAMP_CORRELATION`.
pub const RECORD_TIMESTAMP_CORRELATION: u32 = 7;

/// `DRM_XE_ENGINE_CLASS_*`: the engine class in DEVICE_INFO.
pub mod engine_class {
    named_consts! {
        u32;
        /// The class's name as `xe_drm.h` spells it (`None`: unknown).
        pub fn name;
        /// `RENDER` (the OAG unit's engine).
        RENDER = 0;
        /// `COPY`.
        COPY = 1;
        /// `VIDEO_DECODE` (an OAM unit's engine).
        VIDEO_DECODE = 2;
        /// `VIDEO_ENHANCE` (an OAM unit's engine).
        VIDEO_ENHANCE = 3;
        /// `COMPUTE` (attached to the OAG unit with the render engine).
        COMPUTE = 4;
    }
}

/// `enum drm_xe_oa_format_type`: the type byte of the uapi format.
pub mod format_type {
    named_consts! {
        u8;
        /// The type's name as `xe_drm.h` spells it (`None`: unknown).
        pub fn name;
        /// `OAG`.
        OAG = 0;
        /// `OAR`.
        OAR = 1;
        /// `OAM`.
        OAM = 2;
        /// `OAC`.
        OAC = 3;
        /// `OAM_MPEC`.
        OAM_MPEC = 4;
        /// `PEC`.
        PEC = 5;
    }
}

/// One format of IGT's `enum intel_xe_oa_format_name`, with the fields of
/// its `oa_formats[]` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XeFormat {
    /// IGT's number (DEVICE_INFO's `oa_format` in an xe recording).
    pub igt: u32,
    /// IGT's enum name (`XE_OA_FORMAT_A32u40_A4u32_B8_C8`).
    pub name: &'static str,
    /// The layout's name as perfregs' catalogue spells it (the enum name
    /// without its `XE_OA*_FORMAT_` prefix).
    pub layout: &'static str,
    /// `DRM_XE_OA_FMT_TYPE_*` ([`format_type`]).
    pub format_type: u8,
    /// The counter select.
    pub counter_select: u8,
    /// Bytes of one report.
    pub size: usize,
    /// The counter size bit (1: 64-bit PEC counters).
    pub counter_size: u8,
    /// The B/C-counters-in-report bit.
    pub bc_report: u8,
    /// A 64-bit report header (32 bytes) rather than the 16-byte one.
    pub header64: bool,
    /// The `I915_OA_FORMAT_*` id of the same layout, where i915 has one
    /// (`include/drm-uapi/i915_drm.h`, `enum drm_i915_oa_format`).
    pub i915: Option<u32>,
}

impl XeFormat {
    /// The `OA_FORMAT` property value the kernel decodes to this format:
    /// type | select << 8 | counter size << 16 | bc report << 24.
    pub const fn uapi(&self) -> u64 {
        crate::uapi::xe::oa_format(
            self.format_type,
            self.counter_select,
            self.counter_size,
            self.bc_report,
        )
    }

    /// The type's name (`OAG`, `OAM_MPEC`, ...).
    pub fn type_name(&self) -> &'static str {
        format_type::name(self.format_type).unwrap_or("?")
    }
}

impl fmt::Display for XeFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} ({}, select {}, {} bytes)",
            self.igt,
            self.name,
            self.type_name(),
            self.counter_select,
            self.size
        )
    }
}

/// One row of [`XE_FORMATS`].
const fn row(
    igt: u32,
    name: &'static str,
    layout: &'static str,
    (format_type, counter_select, size): (u8, u8, usize),
    (counter_size, bc_report, header64): (u8, u8, bool),
    i915: Option<u32>,
) -> XeFormat {
    XeFormat {
        igt,
        name,
        layout,
        format_type,
        counter_select,
        size,
        counter_size,
        bc_report,
        header64,
        i915,
    }
}

use format_type::{OAC, OAG, OAM_MPEC, OAR, PEC};

/// Every format of IGT's `enum intel_xe_oa_format_name`, in its order
/// (`lib/xe/xe_oa.h:25-54`; numbers from 1), each with its
/// `oa_formats[]` fields (`tools/xe-perf/xe_perf_recorder.c:384-402`:
/// select, size, type, header, counter size, bc report) and the i915 id of
/// the same layout (`i915_drm.h`'s `enum drm_i915_oa_format`: C4_B8 7, A12
/// 8, A12_B8_C8 9, A32u40_A4u32_B8_C8 10, OAR 11, A24u40_A14u32_B8_C8 12,
/// MPEC8u64_B8_C8 13, MPEC8u32_B8_C8 14).
pub const XE_FORMATS: [XeFormat; 19] = [
    row(
        1,
        "XE_OA_FORMAT_C4_B8",
        "C4_B8",
        (OAG, 7, 64),
        (0, 0, false),
        Some(7),
    ),
    row(
        2,
        "XE_OA_FORMAT_A12",
        "A12",
        (OAG, 0, 64),
        (0, 0, false),
        Some(8),
    ),
    row(
        3,
        "XE_OA_FORMAT_A12_B8_C8",
        "A12_B8_C8",
        (OAG, 2, 128),
        (0, 0, false),
        Some(9),
    ),
    row(
        4,
        "XE_OA_FORMAT_A32u40_A4u32_B8_C8",
        "A32u40_A4u32_B8_C8",
        (OAG, 5, 256),
        (0, 0, false),
        Some(10),
    ),
    row(
        5,
        "XE_OAR_FORMAT_A32u40_A4u32_B8_C8",
        "A32u40_A4u32_B8_C8",
        (OAR, 5, 256),
        (0, 0, false),
        Some(11),
    ),
    row(
        6,
        "XE_OA_FORMAT_A24u40_A14u32_B8_C8",
        "A24u40_A14u32_B8_C8",
        (OAG, 5, 256),
        (0, 0, false),
        Some(12),
    ),
    row(
        7,
        "XE_OAC_FORMAT_A24u64_B8_C8",
        "A24u64_B8_C8",
        (OAC, 1, 320),
        (0, 0, true),
        None,
    ),
    row(
        8,
        "XE_OAC_FORMAT_A22u32_R2u32_B8_C8",
        "A22u32_R2u32_B8_C8",
        (OAC, 2, 192),
        (0, 0, true),
        None,
    ),
    row(
        9,
        "XE_OAM_FORMAT_MPEC8u64_B8_C8",
        "MPEC8u64_B8_C8",
        (OAM_MPEC, 1, 192),
        (0, 0, true),
        Some(13),
    ),
    row(
        10,
        "XE_OAM_FORMAT_MPEC8u32_B8_C8",
        "MPEC8u32_B8_C8",
        (OAM_MPEC, 2, 128),
        (0, 0, true),
        Some(14),
    ),
    row(
        11,
        "XE_OA_FORMAT_PEC64u64",
        "PEC64u64",
        (PEC, 1, 576),
        (1, 0, true),
        None,
    ),
    row(
        12,
        "XE_OA_FORMAT_PEC64u64_B8_C8",
        "PEC64u64_B8_C8",
        (PEC, 1, 640),
        (1, 1, true),
        None,
    ),
    row(
        13,
        "XE_OA_FORMAT_PEC64u32",
        "PEC64u32",
        (PEC, 1, 320),
        (0, 0, true),
        None,
    ),
    row(
        14,
        "XE_OA_FORMAT_PEC32u64_G1",
        "PEC32u64_G1",
        (PEC, 5, 320),
        (1, 0, true),
        None,
    ),
    row(
        15,
        "XE_OA_FORMAT_PEC32u32_G1",
        "PEC32u32_G1",
        (PEC, 5, 192),
        (0, 0, true),
        None,
    ),
    row(
        16,
        "XE_OA_FORMAT_PEC32u64_G2",
        "PEC32u64_G2",
        (PEC, 6, 320),
        (1, 0, true),
        None,
    ),
    row(
        17,
        "XE_OA_FORMAT_PEC32u32_G2",
        "PEC32u32_G2",
        (PEC, 6, 192),
        (0, 0, true),
        None,
    ),
    row(
        18,
        "XE_OA_FORMAT_PEC36u64_G1_32_G2_4",
        "PEC36u64_G1_32_G2_4",
        (PEC, 3, 320),
        (1, 0, true),
        None,
    ),
    row(
        19,
        "XE_OA_FORMAT_PEC36u64_G1_4_G2_32",
        "PEC36u64_G1_4_G2_32",
        (PEC, 4, 320),
        (1, 0, true),
        None,
    ),
];

/// The format IGT numbers `igt` (`None`: 0, past `XE_OA_FORMAT_MAX`).
pub fn by_igt(igt: u32) -> Option<&'static XeFormat> {
    XE_FORMATS.iter().find(|f| f.igt == igt)
}

/// Report size of the format IGT numbers `igt`.
pub fn report_size(igt: u32) -> Option<usize> {
    by_igt(igt).map(|f| f.size)
}

/// The formats whose `(type, select, counter size, bc report)` tuple is
/// the uapi `OA_FORMAT` value `packed` (bits past the four bytes must be
/// 0). Two share a tuple: OAG select 5 is A32u40_A4u32_B8_C8 on Gen12 and
/// A24u40_A14u32_B8_C8 from 12.55 on (the kernel takes the platform's).
pub fn by_uapi(packed: u64) -> impl Iterator<Item = &'static XeFormat> {
    XE_FORMATS
        .iter()
        .filter(move |f| packed >> 32 == 0 && f.uapi() == packed)
}

/// Why no IGT number fits a uapi format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XeFormatError {
    /// No format of IGT's enum has the tuple.
    Unknown {
        /// The uapi value.
        packed: u64,
    },
    /// Formats have the tuple, none of them the layout.
    NotThatLayout {
        /// The uapi value.
        packed: u64,
        /// The layout asked for.
        layout: String,
        /// The layouts with the tuple.
        have: Vec<&'static str>,
    },
}

impl fmt::Display for XeFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XeFormatError::Unknown { packed } => write!(
                f,
                "xe OA_FORMAT {packed:#x} (type | select << 8 | counter size << 16 | bc << 24) \
                 is no format of IGT's enum intel_xe_oa_format_name"
            ),
            XeFormatError::NotThatLayout {
                packed,
                layout,
                have,
            } => write!(
                f,
                "xe OA_FORMAT {packed:#x} is {} in IGT's numbering, not layout {layout}",
                have.join(" or ")
            ),
        }
    }
}

impl std::error::Error for XeFormatError {}

/// IGT's number of the uapi format `packed` whose report layout is
/// `layout` (the catalogue's name, `A32u40_A4u32_B8_C8`): the tuple picks
/// the candidates, the layout the one among them (OAG select 5 has two).
///
/// ```
/// use perfregs_linux::xe_recording::igt_format;
/// // TGL's OAG A32u40_A4u32_B8_C8: type 0, select 5.
/// assert_eq!(igt_format(0x500, "A32u40_A4u32_B8_C8").unwrap().igt, 4);
/// // DG2/MTL's OAG A24u40_A14u32_B8_C8: the same tuple.
/// assert_eq!(igt_format(0x500, "A24u40_A14u32_B8_C8").unwrap().igt, 6);
/// // OAM MPEC8u32_B8_C8: type 4, select 2.
/// assert_eq!(igt_format(0x204, "MPEC8u32_B8_C8").unwrap().igt, 10);
/// ```
pub fn igt_format(packed: u64, layout: &str) -> Result<&'static XeFormat, XeFormatError> {
    let mut candidates = by_uapi(packed).peekable();
    if candidates.peek().is_none() {
        return Err(XeFormatError::Unknown { packed });
    }
    let mut have = Vec::new();
    for f in candidates {
        if f.layout.eq_ignore_ascii_case(layout) {
            return Ok(f);
        }
        have.push(f.name);
    }
    Err(XeFormatError::NotThatLayout {
        packed,
        layout: layout.to_string(),
        have,
    })
}

/// The OA unit an engine class names in DEVICE_INFO (xe attaches render
/// and compute engines to the OAG unit, video engines to an OAM unit:
/// `../shared/facts/xe-generations.md` §1, from Linux 7.0's `xe_oa.c`).
pub fn unit_of_engine_class(class: u32) -> &'static str {
    match class {
        engine_class::RENDER | engine_class::COMPUTE => "OAG",
        engine_class::VIDEO_DECODE | engine_class::VIDEO_ENHANCE => "OAM",
        _ => "unknown",
    }
}

/// Why a topology does not fit IGT's xe topology record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XeTopologyError {
    /// No subslice, or more than 64.
    Subslices {
        /// The count given.
        max_subslices: u16,
    },
    /// No EU, or more than 64 per subslice.
    Eus {
        /// The count given.
        max_eus: u16,
    },
    /// A mask with a bit at or past its count.
    MaskPastCount {
        /// Which mask.
        what: &'static str,
        /// The mask.
        mask: u64,
        /// The count.
        count: u16,
    },
}

impl fmt::Display for XeTopologyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XeTopologyError::Subslices { max_subslices } => {
                write!(f, "{max_subslices} subslices (1 to 64 fit)")
            }
            XeTopologyError::Eus { max_eus } => write!(f, "{max_eus} EUs a subslice (1 to 64 fit)"),
            XeTopologyError::MaskPastCount { what, mask, count } => {
                write!(f, "the {what} {mask:#x} has bits at or past {count}")
            }
        }
    }
}

impl std::error::Error for XeTopologyError {}

/// Size of the topology header (`struct intel_xe_topology_info` without
/// `data[]`: eight `u16`).
pub const TOPOLOGY_HEADER: usize = 16;

/// The DEVICE_TOPOLOGY payload IGT's xe recorder writes for one GT with
/// `max_subslices` DSS of which `dss_mask` are present (geometry and
/// compute united) and `max_eus` EUs a DSS of which `eu_mask` are present
/// (`lib/xe/xe_oa.c:448-546`, `xe_fill_topology_info`): the header (flags
/// 0, one slice, `subslice_offset` 1, `subslice_stride` and `eu_stride`
/// the masks' bytes, `eu_offset` after the subslice mask), then `data[]`:
/// the slice mask 0x01, the DSS mask, the EU mask once for every DSS
/// (present or not), zero-padded to a multiple of 8 bytes.
///
/// IGT asks the GuC's hwconfig for the maximum counts from 12.55 on and
/// takes 1 slice, 6 DSS and 16 EUs before; the caller gives them.
pub fn topology(
    max_subslices: u16,
    dss_mask: u64,
    max_eus: u16,
    eu_mask: u64,
) -> Result<Vec<u8>, XeTopologyError> {
    if !(1..=64).contains(&max_subslices) {
        return Err(XeTopologyError::Subslices { max_subslices });
    }
    if !(1..=64).contains(&max_eus) {
        return Err(XeTopologyError::Eus { max_eus });
    }
    for (what, mask, count) in [
        ("DSS mask", dss_mask, max_subslices),
        ("EU mask", eu_mask, max_eus),
    ] {
        if count < 64 && mask >> count != 0 {
            return Err(XeTopologyError::MaskPastCount { what, mask, count });
        }
    }
    // At most 8 bytes each: the counts are at most 64.
    let ss_stride = usize::from(max_subslices).div_ceil(8);
    let eu_stride = usize::from(max_eus).div_ceil(8);
    let subslice_offset = 1usize;
    let eu_offset = subslice_offset + ss_stride;
    let header: [u16; 8] = [
        0,
        1,
        max_subslices,
        max_eus,
        subslice_offset as u16,
        ss_stride as u16,
        eu_offset as u16,
        eu_stride as u16,
    ];
    let len =
        (TOPOLOGY_HEADER + eu_offset + usize::from(max_subslices) * eu_stride).div_ceil(8) * 8;
    let mut out = Vec::with_capacity(len);
    for h in header {
        out.extend_from_slice(&h.to_le_bytes());
    }
    out.push(0x01);
    out.extend_from_slice(&dss_mask.to_le_bytes()[..ss_stride]);
    for _ in 0..max_subslices {
        out.extend_from_slice(&eu_mask.to_le_bytes()[..eu_stride]);
    }
    out.resize(len, 0);
    Ok(out)
}

/// [`topology`] of a GT whose present DSS are `dss_mask` and whose DSS
/// have the EUs of `eu_mask`, the counts taken as the masks' widths up to
/// their highest set bit (TGL GT2: 0x3f and 0xffff give IGT's 6 and 16).
pub fn topology_of_masks(dss_mask: u64, eu_mask: u64) -> Result<Vec<u8>, XeTopologyError> {
    let width = |m: u64| (64 - m.leading_zeros()) as u16;
    topology(width(dss_mask), dss_mask, width(eu_mask), eu_mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enum_is_numbered_from_one_in_order_and_every_tuple_decodes() {
        for (i, f) in XE_FORMATS.iter().enumerate() {
            assert_eq!(f.igt as usize, i + 1, "{}", f.name);
            assert!(f.name.ends_with(f.layout), "{}", f.name);
            assert_eq!(igt_format(f.uapi(), f.layout), Ok(f), "{}", f.name);
            assert!(f.size % 64 == 0, "{}", f.name);
        }
        assert_eq!(by_igt(0), None);
        assert_eq!(by_igt(20), None);
        // Only OAG select 5 is shared.
        let shared: Vec<u32> = by_uapi(0x500).map(|f| f.igt).collect();
        assert_eq!(shared, [4, 6]);
        for f in &XE_FORMATS {
            if f.uapi() != 0x500 {
                assert_eq!(by_uapi(f.uapi()).count(), 1, "{}", f.name);
            }
        }
        assert!(matches!(
            igt_format(0x500, "C4_B8"),
            Err(XeFormatError::NotThatLayout { .. })
        ));
        assert_eq!(
            igt_format(0x99, "C4_B8"),
            Err(XeFormatError::Unknown { packed: 0x99 })
        );
        assert_eq!(by_uapi(0x1_0000_0500).count(), 0);
    }

    #[test]
    fn topology_records_follow_igts_layout() {
        // TGL GT2: 6 DSS, 16 EUs: 16 + 2 + 6 * 2 = 30 bytes, padded to 32.
        let t = topology_of_masks(0x3f, 0xffff).unwrap();
        assert_eq!(t.len(), 32);
        assert_eq!(&t[..16], &[0, 0, 1, 0, 6, 0, 16, 0, 1, 0, 1, 0, 2, 0, 2, 0]);
        assert_eq!(&t[16..18], &[0x01, 0x3f]);
        assert_eq!(&t[18..30], &[0xff; 12]);
        assert_eq!(&t[30..], &[0, 0]);
        assert_eq!(
            topology(65, 1, 8, 1),
            Err(XeTopologyError::Subslices { max_subslices: 65 })
        );
        assert_eq!(
            topology(6, 1, 0, 0),
            Err(XeTopologyError::Eus { max_eus: 0 })
        );
        assert!(matches!(
            topology(6, 0x40, 16, 1),
            Err(XeTopologyError::MaskPastCount { .. })
        ));
        assert!(topology(64, u64::MAX, 64, u64::MAX).is_ok());
    }
}
