//! The report formats of graphics 12.55 and later (DG2, MTL/ARL, LNL, BMG,
//! PTL) against the kernel and IGT, whose numbers are re-stated here, not
//! read from our descriptions:
//!
//! - Linux 7.0 xe `oa_formats[]` (drivers/gpu/drm/xe/xe_oa.c 125-145):
//!   format type, counter select, size, header kind, counter size and B/C
//!   report of every format; the uapi value is
//!   `type | select << 8 | counter_size << 16 | bc_report << 24`
//!   (include/uapi/drm/xe_drm.h), decoded to the first format the device
//!   supports with those fields (`decode_oa_format`, xe_oa.c 1138-1157;
//!   the supported sets by graphics version: `xe_oa_init_supported_formats`,
//!   xe_oa.c 2762-2799);
//! - i915's `enum drm_i915_oa_format` (include/uapi/drm/i915_drm.h):
//!   A24u40_A14u32_B8_C8 12, MPEC8u64_B8_C8 13, MPEC8u32_B8_C8 14;
//! - IGT's readers (tests/intel/xe_oa.c 145-230, lib/xe/xe_oa.c 813-908,
//!   lib/xe/oa-configs/mdapi-xml-convert.py): where each counter and
//!   header field is.
//!
//! Collected with file and line in ../shared/facts/xe-generations.md
//! (sections 2 and 3).

use perfregs::hal::meta::{FormatInfo, ProjectInfo};

/// One row of xe's `oa_formats[]`.
#[derive(Clone, Copy, Debug)]
struct KernelFormat {
    name: &'static str,
    /// `enum drm_xe_oa_format_type`: OAG 0, OAR 1, OAM 2, OAC 3, OAM_MPEC 4, PEC 5.
    ty: u64,
    select: u64,
    size: usize,
    /// 64-bit report header (`HDR_64_BIT`).
    header64: bool,
    counter_size: u64,
    bc_report: u64,
    /// i915's number for the same format, where i915 has one.
    i915: Option<u32>,
    /// The graphics versions xe supports it on: from the first, before the
    /// second.
    on: Versions,
}

/// Graphics versions: from the first, before the second.
type Versions = ((u8, u8), (u8, u8));

/// Gen12 LP only: the OAG formats of before 12.55.
const GEN12: Versions = ((12, 0), (12, 55));
/// 12.55 up to Xe2: OAR, OAC and the OAG A24u40_A14u32 format.
const XEHP: Versions = ((12, 55), (20, 0));
/// The media GT's MPEC formats, from MTL on.
const MEDIA: Versions = ((12, 70), (u8::MAX, 0));
/// The PEC formats of Xe2 and later.
const XE2: Versions = ((20, 0), (u8::MAX, 0));

// One argument per column of the kernel's table, in its order.
#[allow(clippy::too_many_arguments)]
const fn k(
    name: &'static str,
    ty: u64,
    select: u64,
    size: usize,
    header64: bool,
    counter_size: u64,
    bc_report: u64,
    i915: Option<u32>,
    on: Versions,
) -> KernelFormat {
    KernelFormat {
        name,
        ty,
        select,
        size,
        header64,
        counter_size,
        bc_report,
        i915,
        on,
    }
}

/// xe `oa_formats[]`, Linux 7.0.
#[rustfmt::skip]
const KERNEL: &[KernelFormat] = &[
    k("C4_B8", 0, 7, 64, false, 0, 0, Some(7), GEN12),
    k("A12", 0, 0, 64, false, 0, 0, Some(8), GEN12),
    k("A12_B8_C8", 0, 2, 128, false, 0, 0, Some(9), GEN12),
    k("A32u40_A4u32_B8_C8", 0, 5, 256, false, 0, 0, Some(10), GEN12),
    k("OAR_A32u40_A4u32_B8_C8", 1, 5, 256, false, 0, 0, Some(11), XEHP),
    k("A24u40_A14u32_B8_C8", 0, 5, 256, false, 0, 0, Some(12), XEHP),
    k("OAC_A24u64_B8_C8", 3, 1, 320, true, 0, 0, None, XEHP),
    k("OAC_A22u32_R2u32_B8_C8", 3, 2, 192, true, 0, 0, None, XEHP),
    k("MPEC8u64_B8_C8", 4, 1, 192, true, 0, 0, Some(13), MEDIA),
    k("MPEC8u32_B8_C8", 4, 2, 128, true, 0, 0, Some(14), MEDIA),
    k("PEC64u64", 5, 1, 576, true, 1, 0, None, XE2),
    k("PEC64u64_B8_C8", 5, 1, 640, true, 1, 1, None, XE2),
    k("PEC64u32", 5, 1, 320, true, 0, 0, None, XE2),
    k("PEC32u64_G1", 5, 5, 320, true, 1, 0, None, XE2),
    k("PEC32u32_G1", 5, 5, 192, true, 0, 0, None, XE2),
    k("PEC32u64_G2", 5, 6, 320, true, 1, 0, None, XE2),
    k("PEC32u32_G2", 5, 6, 192, true, 0, 0, None, XE2),
    k("PEC36u64_G1_32_G2_4", 5, 3, 320, true, 1, 0, None, XE2),
    k("PEC36u64_G1_4_G2_32", 5, 4, 320, true, 1, 0, None, XE2),
];

/// The compiled projects of graphics 12.55 and later. None compiled is
/// said, not passed silently.
fn xe_hp_projects() -> Vec<&'static ProjectInfo> {
    let v: Vec<_> = perfregs::hal::PROJECTS
        .iter()
        .copied()
        .filter(|p| p.gpu.is_some_and(|g| g.graphics >= (12, 55)))
        .collect();
    if v.is_empty() {
        eprintln!("SKIPPED: no graphics 12.55+ project compiled in (hal features dg2, mtl, lnl, bmg, ptl)");
    }
    v
}

/// (offset, bits, high byte) of a counter.
type Slot = (u32, u32, Option<u32>);

/// The [`Slot`] of counter `name` of `f`.
fn slot(f: &FormatInfo, name: &str) -> Slot {
    let c = f
        .counter(name)
        .unwrap_or_else(|| panic!("{}: no counter {name}", f.name));
    (c.offset, c.bits, c.high_byte_offset)
}

#[test]
fn every_xe_number_is_a_kernel_format_of_the_same_size_and_header() {
    let mut checked = 0;
    for p in xe_hp_projects() {
        let gpu = p.gpu.expect("GPU facts");
        let oa = gpu.oa.expect("OA facts");
        // What xe decodes a value to on this project: the first format of
        // its supported set with the value's fields (type OAG, select 5 is
        // A32u40_A4u32_B8_C8 before 12.55 and A24u40_A14u32_B8_C8 from it).
        let supported = |r: &&KernelFormat| (r.on.0..r.on.1).contains(&gpu.graphics);
        for d in oa.formats {
            let at = format!("{}:{}", p.name, d.format.name);
            let Some(xe) = d.xe else {
                assert!(d.i915.is_some(), "{at}: no driver number");
                continue;
            };
            let row = KERNEL
                .iter()
                .filter(supported)
                .find(|r| {
                    (r.ty | r.select << 8 | r.counter_size << 16 | r.bc_report << 24) == xe
                        && r.size == d.format.size
                })
                .unwrap_or_else(|| {
                    panic!(
                        "{at}: xe value {xe:#x} is no kernel format of {} bytes on graphics {:?}",
                        d.format.size, gpu.graphics
                    )
                });
            assert!(
                row.name.eq_ignore_ascii_case(d.format.name),
                "{at}: the kernel calls it {}",
                row.name
            );
            assert_eq!(d.format.select, row.select, "{at}: counter select");
            if let Some(n) = d.i915 {
                assert_eq!(Some(n), row.i915, "{at}: i915 number");
            }
            let ts = slot(d.format, "TIME_STAMP");
            let ticks = slot(d.format, "GPU_TICKS");
            let ctx = slot(d.format, "CTX_ID");
            if row.header64 {
                // qword 1 timestamp, dword 4 context id, qword 3 ticks.
                assert_eq!(
                    (ts.0, ts.1, ctx.0, ticks.0, ticks.1),
                    (8, 64, 16, 24, 64),
                    "{at}: 64-bit header"
                );
            } else {
                assert_eq!(
                    (ts.0, ts.1, ctx.0, ticks.0, ticks.1),
                    (4, 32, 8, 12, 32),
                    "{at}: 32-bit header"
                );
            }
            assert_eq!(slot(d.format, "RPT_ID").0, 0, "{at}: report id");
            checked += 1;
        }
    }
    eprintln!("{checked} driver formats checked");
}

#[test]
fn layouts_are_where_igt_reads_them() {
    let mut checked = 0;
    for p in xe_hp_projects() {
        for f in p.formats {
            let at = format!("{}:{}", p.name, f.name);
            let name = f.name.to_ascii_uppercase();
            let mut expect: Vec<(String, Slot)> = Vec::new();
            match name.as_str() {
                "A24U40_A14U32_B8_C8" => {
                    // IGT lib/xe/xe_oa.c: dwords 4-7 A0-A3; 8-27 A4-A23 (u40,
                    // high bytes at byte 160 + n); 28-31 A24-A27; 32-35
                    // A28-A31 (u40); 36-39 A32-A35; byte 160 A36, byte 184
                    // A37; B at 192, C at 224.
                    for n in 0..38u32 {
                        let v = match n {
                            0..=3 => (16 + 4 * n, 32, None),
                            4..=23 => (32 + 4 * (n - 4), 40, Some(160 + n)),
                            24..=27 => (112 + 4 * (n - 24), 32, None),
                            28..=31 => (128 + 4 * (n - 28), 40, Some(160 + n)),
                            32..=35 => (144 + 4 * (n - 32), 32, None),
                            36 => (160, 32, None),
                            _ => (184, 32, None),
                        };
                        expect.push((format!("A{n}"), v));
                    }
                    for n in 0..8u32 {
                        expect.push((format!("B{n}"), (192 + 4 * n, 32, None)));
                        expect.push((format!("C{n}"), (224 + 4 * n, 32, None)));
                    }
                }
                "MPEC8U64_B8_C8" | "MPEC8U32_B8_C8" => {
                    // IGT tests/intel/xe_oa.c, mdapi-xml-convert.py: MPEC at
                    // 32; B, C at 96, 128 (u64) or 64, 96 (u32).
                    let wide = name.starts_with("MPEC8U64");
                    let (w, b, c) = if wide { (8, 96, 128) } else { (4, 64, 96) };
                    for n in 0..8u32 {
                        expect.push((format!("MPEC{n}"), (32 + w * n, 8 * w, None)));
                        expect.push((format!("B{n}"), (b + 4 * n, 32, None)));
                        expect.push((format!("C{n}"), (c + 4 * n, 32, None)));
                    }
                }
                "PEC64U64" => {
                    // IGT: PEC n at 32 + 8 n (mdapi-xml-convert.py pec_offset 32).
                    for n in 0..64u32 {
                        expect.push((format!("PEC{n}"), (32 + 8 * n, 64, None)));
                    }
                }
                _ => continue,
            }
            for (c, want) in &expect {
                assert_eq!(slot(f, c), *want, "{at}: {c}");
            }
            // No counter beyond IGT's: header fields plus the expected ones.
            assert_eq!(f.counters.len(), expect.len() + 4, "{at}: counters");
            checked += 1;
        }
    }
    eprintln!("{checked} layouts checked");
}
