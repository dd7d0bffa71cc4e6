//! Every PCI id of the Gen8 LP .. Gen12 platforms described since issue 18,
//! and of the graphics 12.55+ ones of issue 25, maps to its project and GT
//! variant in the generated device table.
//!
//! The table below is re-stated from the Linux kernel's
//! `include/drm/intel/i915_pciids.h` (torvalds/linux 1db363f6979d): one row
//! per `INTEL_*_IDS` macro with the ids the macro lists itself (not those of
//! the sub-macros it includes), the GT its name gives, and the project the
//! ids belong to (i915_pci.c's info structs and IGT's `lib/i915/perf.c`
//! metric-file choice: CML, WHL and AML-CFL are cfl, AML-KBL is kbl, JSL is
//! ehl, ADL-S/P/N and RPL-S/U/P are adl). It is not read from
//! `regdefs/devices.yaml`, so a slip in either shows here.

/// (macro, project, GT from the macro name, ids).
type Row = (&'static str, &'static str, Option<u8>, &'static [u16]);

const KERNEL: &[Row] = &[
    (
        "INTEL_CHV_IDS",
        "chv",
        None,
        &[0x22B0, 0x22B1, 0x22B2, 0x22B3],
    ),
    ("INTEL_SKL_ULT_GT1_IDS", "skl", Some(1), &[0x1906, 0x1913]),
    ("INTEL_SKL_ULX_GT1_IDS", "skl", Some(1), &[0x190E, 0x1915]),
    (
        "INTEL_SKL_GT1_IDS",
        "skl",
        Some(1),
        &[0x1902, 0x190A, 0x190B, 0x1917],
    ),
    ("INTEL_SKL_ULT_GT2_IDS", "skl", Some(2), &[0x1916, 0x1921]),
    ("INTEL_SKL_ULX_GT2_IDS", "skl", Some(2), &[0x191E]),
    (
        "INTEL_SKL_GT2_IDS",
        "skl",
        Some(2),
        &[0x1912, 0x191A, 0x191B, 0x191D],
    ),
    (
        "INTEL_SKL_ULT_GT3_IDS",
        "skl",
        Some(3),
        &[0x1923, 0x1926, 0x1927],
    ),
    (
        "INTEL_SKL_GT3_IDS",
        "skl",
        Some(3),
        &[0x192A, 0x192B, 0x192D],
    ),
    (
        "INTEL_SKL_GT4_IDS",
        "skl",
        Some(4),
        &[0x1932, 0x193A, 0x193B, 0x193D],
    ),
    (
        "INTEL_BXT_IDS",
        "bxt",
        None,
        &[0x0A84, 0x1A84, 0x1A85, 0x5A84, 0x5A85],
    ),
    ("INTEL_GLK_IDS", "glk", None, &[0x3184, 0x3185]),
    ("INTEL_KBL_ULT_GT1_IDS", "kbl", Some(1), &[0x5906, 0x5913]),
    ("INTEL_KBL_ULX_GT1_IDS", "kbl", Some(1), &[0x590E, 0x5915]),
    (
        "INTEL_KBL_GT1_IDS",
        "kbl",
        Some(1),
        &[0x5902, 0x5908, 0x590A, 0x590B],
    ),
    ("INTEL_KBL_ULT_GT2_IDS", "kbl", Some(2), &[0x5916, 0x5921]),
    ("INTEL_KBL_ULX_GT2_IDS", "kbl", Some(2), &[0x591E]),
    (
        "INTEL_KBL_GT2_IDS",
        "kbl",
        Some(2),
        &[0x5912, 0x5917, 0x591A, 0x591B, 0x591D],
    ),
    ("INTEL_KBL_ULT_GT3_IDS", "kbl", Some(3), &[0x5926]),
    ("INTEL_KBL_GT3_IDS", "kbl", Some(3), &[0x5923, 0x5927]),
    ("INTEL_KBL_GT4_IDS", "kbl", Some(4), &[0x593B]),
    ("INTEL_AML_KBL_GT2_IDS", "kbl", Some(2), &[0x591C, 0x87C0]),
    ("INTEL_AML_CFL_GT2_IDS", "cfl", Some(2), &[0x87CA]),
    (
        "INTEL_CML_GT1_IDS",
        "cfl",
        Some(1),
        &[0x9BA2, 0x9BA4, 0x9BA5, 0x9BA8],
    ),
    (
        "INTEL_CML_U_GT1_IDS",
        "cfl",
        Some(1),
        &[0x9B21, 0x9BAA, 0x9BAC],
    ),
    (
        "INTEL_CML_GT2_IDS",
        "cfl",
        Some(2),
        &[0x9BC2, 0x9BC4, 0x9BC5, 0x9BC6, 0x9BC8, 0x9BE6, 0x9BF6],
    ),
    (
        "INTEL_CML_U_GT2_IDS",
        "cfl",
        Some(2),
        &[0x9B41, 0x9BCA, 0x9BCC],
    ),
    (
        "INTEL_CFL_S_GT1_IDS",
        "cfl",
        Some(1),
        &[0x3E90, 0x3E93, 0x3E99],
    ),
    (
        "INTEL_CFL_S_GT2_IDS",
        "cfl",
        Some(2),
        &[0x3E91, 0x3E92, 0x3E96, 0x3E98, 0x3E9A],
    ),
    ("INTEL_CFL_H_GT1_IDS", "cfl", Some(1), &[0x3E9C]),
    ("INTEL_CFL_H_GT2_IDS", "cfl", Some(2), &[0x3E94, 0x3E9B]),
    ("INTEL_CFL_U_GT2_IDS", "cfl", Some(2), &[0x3EA9]),
    (
        "INTEL_CFL_U_GT3_IDS",
        "cfl",
        Some(3),
        &[0x3EA5, 0x3EA6, 0x3EA7, 0x3EA8],
    ),
    ("INTEL_WHL_U_GT1_IDS", "cfl", Some(1), &[0x3EA1, 0x3EA4]),
    ("INTEL_WHL_U_GT2_IDS", "cfl", Some(2), &[0x3EA0, 0x3EA3]),
    ("INTEL_WHL_U_GT3_IDS", "cfl", Some(3), &[0x3EA2]),
    (
        "INTEL_CNL_PORT_F_IDS",
        "cnl",
        None,
        &[0x5A44, 0x5A4C, 0x5A54, 0x5A5C],
    ),
    (
        "INTEL_CNL_IDS",
        "cnl",
        None,
        &[
            0x5A40, 0x5A41, 0x5A42, 0x5A49, 0x5A4A, 0x5A50, 0x5A51, 0x5A52, 0x5A59, 0x5A5A,
        ],
    ),
    (
        "INTEL_ICL_PORT_F_IDS",
        "icl",
        None,
        &[
            0x8A50, 0x8A52, 0x8A53, 0x8A54, 0x8A56, 0x8A57, 0x8A58, 0x8A59, 0x8A5A, 0x8A5B, 0x8A5C,
            0x8A70, 0x8A71,
        ],
    ),
    ("INTEL_ICL_IDS", "icl", None, &[0x8A51, 0x8A5D]),
    (
        "INTEL_EHL_IDS",
        "ehl",
        None,
        &[0x4541, 0x4551, 0x4555, 0x4557, 0x4570, 0x4571],
    ),
    (
        "INTEL_JSL_IDS",
        "ehl",
        None,
        &[0x4E51, 0x4E55, 0x4E57, 0x4E61, 0x4E71],
    ),
    (
        "INTEL_RKL_IDS",
        "rkl",
        None,
        &[0x4C80, 0x4C8A, 0x4C8B, 0x4C8C, 0x4C90, 0x4C9A],
    ),
    (
        "INTEL_DG1_IDS",
        "dg1",
        None,
        &[0x4905, 0x4906, 0x4907, 0x4908, 0x4909],
    ),
    (
        "INTEL_ADLS_IDS",
        "adl",
        None,
        &[
            0x4680, 0x4682, 0x4688, 0x468A, 0x468B, 0x4690, 0x4692, 0x4693,
        ],
    ),
    (
        "INTEL_ADLP_IDS",
        "adl",
        None,
        &[
            0x46A0, 0x46A1, 0x46A2, 0x46A3, 0x46A6, 0x46A8, 0x46AA, 0x462A, 0x4626, 0x4628, 0x46B0,
            0x46B1, 0x46B2, 0x46B3, 0x46C0, 0x46C1, 0x46C2, 0x46C3,
        ],
    ),
    (
        "INTEL_ADLN_IDS",
        "adl",
        None,
        &[0x46D0, 0x46D1, 0x46D2, 0x46D3, 0x46D4],
    ),
    (
        "INTEL_RPLS_IDS",
        "adl",
        None,
        &[
            0xA780, 0xA781, 0xA782, 0xA783, 0xA788, 0xA789, 0xA78A, 0xA78B,
        ],
    ),
    (
        "INTEL_RPLU_IDS",
        "adl",
        None,
        &[0xA721, 0xA7A1, 0xA7A9, 0xA7AC, 0xA7AD],
    ),
    (
        "INTEL_RPLP_IDS",
        "adl",
        None,
        &[0xA720, 0xA7A0, 0xA7A8, 0xA7AA, 0xA7AB],
    ),
];

/// The projects of issue 18.
const NEW: &[&str] = &[
    "chv", "skl", "bxt", "kbl", "glk", "cfl", "cnl", "icl", "ehl", "rkl", "adl", "dg1",
];

/// The graphics 12.55+ platforms of issue 25, re-stated from Linux 7.0
/// `include/drm/intel/pciids.h` 724-888 (../shared/facts/xe-generations.md
/// section 8), split by GT as IGT chooses their metric files
/// (lib/xe/xe_oa.c: ACM GT1 = DG2-G11 and ATS-M75, GT2 = DG2-G12, GT3 =
/// DG2-G10 and ATS-M150; lib/i915/perf.c with lib/i915_pciids_local.h: MTL
/// GT2 = 0x7D45, 0x7D60 and ARL 0x7D41, 0x7D67; GT3 = 0x7D55, 0x7DD5 and
/// ARL 0x7D51, 0x7DD1; 0x7D40 and 0xB640 in no IGT list, so no GT). ARL is
/// mtl, WCL ptl (i915_pci.c / xe_pci.c use their info structs).
const KERNEL_XE: &[Row] = &[
    (
        "INTEL_DG2_G10_IDS",
        "dg2",
        Some(3),
        &[
            0x56A0, 0x56A1, 0x56A2, 0x5690, 0x5691, 0x5692, 0x56BE, 0x56BF,
        ],
    ),
    (
        "INTEL_DG2_G11_IDS",
        "dg2",
        Some(1),
        &[
            0x56A5, 0x56A6, 0x5693, 0x5694, 0x5695, 0x56B0, 0x56B1, 0x56BA, 0x56BB, 0x56BC, 0x56BD,
        ],
    ),
    (
        "INTEL_DG2_G12_IDS",
        "dg2",
        Some(2),
        &[0x5696, 0x5697, 0x56A3, 0x56A4, 0x56B2, 0x56B3],
    ),
    ("INTEL_ATS_M150_IDS", "dg2", Some(3), &[0x56C0, 0x56C2]),
    ("INTEL_ATS_M75_IDS", "dg2", Some(1), &[0x56C1]),
    ("INTEL_MTL_IDS", "mtl", Some(2), &[0x7D45, 0x7D60]),
    ("INTEL_MTL_IDS", "mtl", Some(3), &[0x7D55, 0x7DD5]),
    ("INTEL_MTL_IDS", "mtl", None, &[0x7D40]),
    ("INTEL_ARL_IDS", "mtl", Some(2), &[0x7D41, 0x7D67]),
    ("INTEL_ARL_IDS", "mtl", Some(3), &[0x7D51, 0x7DD1]),
    ("INTEL_ARL_IDS", "mtl", None, &[0xB640]),
    ("INTEL_LNL_IDS", "lnl", None, &[0x6420, 0x64A0, 0x64B0]),
    (
        "INTEL_BMG_IDS",
        "bmg",
        None,
        &[
            0xE202, 0xE209, 0xE20B, 0xE20C, 0xE20D, 0xE210, 0xE211, 0xE212, 0xE216, 0xE220, 0xE221,
            0xE222, 0xE223,
        ],
    ),
    (
        "INTEL_PTL_IDS",
        "ptl",
        None,
        &[
            0xB080, 0xB081, 0xB082, 0xB083, 0xB084, 0xB085, 0xB086, 0xB087, 0xB08F, 0xB090, 0xB0A0,
            0xB0B0,
        ],
    ),
    ("INTEL_WCL_IDS", "ptl", None, &[0xFD80, 0xFD81]),
];

/// The projects of issue 25.
const NEW_XE: &[&str] = &["dg2", "mtl", "lnl", "bmg", "ptl"];

#[test]
fn every_kernel_id_maps_to_its_project_and_gt() {
    for (macro_name, project, gt, ids) in KERNEL.iter().chain(KERNEL_XE) {
        for &id in *ids {
            let d =
                hal::device(id).unwrap_or_else(|| panic!("{id:#06x} ({macro_name}) not listed"));
            assert_eq!(
                (d.project, d.gt, d.macro_name),
                (Some(*project), *gt, *macro_name),
                "{id:#06x}"
            );
            assert!(d.described(), "{d}");
        }
    }
}

#[test]
fn the_new_projects_have_no_other_ids() {
    // Both ways: every table row on a new project is one of the kernel's ids.
    let kernel: Vec<u16> = KERNEL.iter().flat_map(|r| r.3.iter().copied()).collect();
    let mut listed: Vec<u16> = hal::DEVICES
        .iter()
        .filter(|d| d.project.is_some_and(|p| NEW.contains(&p)))
        .map(|d| d.pci_id)
        .collect();
    let mut want = kernel.clone();
    want.sort_unstable();
    listed.sort_unstable();
    assert_eq!(listed, want);
    assert_eq!(want.len(), 197);
    // Per project (the counts of the kernel macros above).
    let count = |p: &str| hal::DEVICES.iter().filter(|d| d.project == Some(p)).count();
    let counts: Vec<(&str, usize)> = NEW.iter().map(|p| (*p, count(p))).collect();
    assert_eq!(
        counts,
        [
            ("chv", 4),
            ("skl", 25),
            ("bxt", 5),
            ("kbl", 22),
            ("glk", 2),
            ("cfl", 39),
            ("cnl", 14),
            ("icl", 15),
            ("ehl", 11),
            ("rkl", 6),
            ("adl", 49),
            ("dg1", 5),
        ]
    );
    // Issue 25's projects the same way: DG2 25 + ATS-M 3, MTL 5 + ARL 5,
    // LNL 3, BMG 13, PTL 12 + WCL 2 (the kernel macros' counts).
    let kernel_xe: Vec<u16> = KERNEL_XE.iter().flat_map(|r| r.3.iter().copied()).collect();
    let mut listed_xe: Vec<u16> = hal::DEVICES
        .iter()
        .filter(|d| d.project.is_some_and(|p| NEW_XE.contains(&p)))
        .map(|d| d.pci_id)
        .collect();
    let mut want_xe = kernel_xe.clone();
    want_xe.sort_unstable();
    listed_xe.sort_unstable();
    assert_eq!(listed_xe, want_xe);
    let counts: Vec<(&str, usize)> = NEW_XE.iter().map(|p| (*p, count(p))).collect();
    assert_eq!(
        counts,
        [
            ("dg2", 28),
            ("mtl", 10),
            ("lnl", 3),
            ("bmg", 13),
            ("ptl", 14)
        ]
    );
    // With the 112 ids of SNB, IVB, VLV, HSW, BDW and TGL: 309 + 68 of 412
    // described.
    assert_eq!(
        hal::DEVICES.iter().filter(|d| d.described()).count(),
        309 + want_xe.len()
    );
    assert_eq!(want_xe.len(), 68);
    // Issue 25 also listed PVC's 13 ids (INTEL_PVC_IDS, pciids.h 829-843),
    // undescribed: neither driver streams OA on it.
    let pvc: Vec<_> = hal::DEVICES
        .iter()
        .filter(|d| d.macro_name == "INTEL_PVC_IDS")
        .collect();
    assert!(pvc.iter().all(|d| !d.described()), "{pvc:?}");
    assert_eq!(pvc.len(), 13);
    assert_eq!(hal::DEVICES.len(), 412 + pvc.len());
}

#[test]
fn every_project_of_a_gt_variant_has_a_metric_file_part() {
    // The GT variants the metric files are written for are listed (IGT's
    // oa-sklgt2/3/4, kblgt2/3, cflgt2/3): the device table has ids of each.
    for (project, gt) in [
        ("skl", 2),
        ("skl", 3),
        ("skl", 4),
        ("kbl", 2),
        ("kbl", 3),
        ("cfl", 2),
        ("cfl", 3),
    ] {
        assert!(
            hal::DEVICES
                .iter()
                .any(|d| d.project == Some(project) && d.gt == Some(gt)),
            "{project} GT{gt}"
        );
    }
    // Platforms the kernel names apart but described as another project.
    for (id, platform, project) in [
        (0x9BC5, "CML", "cfl"),
        (0x3EA0, "WHL", "cfl"),
        (0x87CA, "CFL", "cfl"),
        (0x87C0, "KBL", "kbl"),
        (0x4E71, "JSL", "ehl"),
        (0xA780, "RPL-S", "adl"),
        (0xA7A0, "RPL-P", "adl"),
        (0x46D0, "ADL-N", "adl"),
    ] {
        let d = hal::device(id).expect("listed");
        assert_eq!(
            (d.platform, d.project),
            (platform, Some(project)),
            "{id:#06x}"
        );
    }
}
