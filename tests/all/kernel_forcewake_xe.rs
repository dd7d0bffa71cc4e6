//! Fidelity of the force-wake and steering rows of the graphics 12.55+
//! projects (DG2, MTL, LNL, BMG, PTL; regdefs/gt_dg2.yaml, gt_mtl.yaml,
//! gt_xe2.yaml, gt_xe.yaml) against Linux 7.0, whose tables are re-stated
//! below from the source (strongtz/i915-sriov-dkms 4e91bab74ede, "sync
//! 7.0"; file and line on each), independently of the YAML:
//!
//! - `i915/intel_uncore.c` `__dg2_fw_ranges`, `__mtl_fw_ranges` (render GT)
//!   and `__xelpmp_fw_ranges` (MTL's media GT, final addresses), read as
//!   `fwtable_read32` does: `NEEDS_FORCE_WAKE` (offset < 0x40000 or >=
//!   0x116000), the table's entry, only the domains the GT set up
//!   (`i915_pci.c`: DG2 VCS0/VCS2/VECS0/VECS1; MTL media VCS0/VCS2/VECS0/GSC0);
//! - `xe/xe_gt_mcr.c`'s steering tables per platform
//!   (`xe_gt_mcr_init_early`), looked up in the kernel's type order
//!   (`xe_gt_mcr_get_nonterminated_steering`: L3BANK, NODE, MSLICE, LNCF,
//!   DSS, OADDRM, SQIDI_PSMI, GAM1, INSTANCE0, then IMPLICIT).
//!
//! Every 4-byte address up to each table's end is compared. The tests skip
//! (and say so) when the hal features of these projects are off.

use crate::support::kernel_tables;
use kernel_tables::{assert_watertight, within, Fw};
use perfregs::hal::meta::ProjectInfo;

/// `__dg2_fw_ranges` (drivers/gpu/drm/i915/intel_uncore.c:1448, 54 rows): graphics 12.55 up to 12.70.
const DG2_FW: &[(u64, u64, Fw)] = &[
    (0x0, 0x1fff, Fw::No),            // :1449
    (0x2000, 0x26ff, Fw::Render),     // :1452
    (0x2700, 0x4aff, Fw::Gt),         // :1453
    (0x4b00, 0x51ff, Fw::No),         // :1454
    (0x5200, 0x7fff, Fw::Render),     // :1457
    (0x8000, 0x813f, Fw::Gt),         // :1458
    (0x8140, 0x815f, Fw::Render),     // :1459
    (0x8160, 0x81ff, Fw::No),         // :1460
    (0x8200, 0x82ff, Fw::Gt),         // :1463
    (0x8300, 0x84ff, Fw::Render),     // :1464
    (0x8500, 0x8cff, Fw::Gt),         // :1465
    (0x8d00, 0x8fff, Fw::Render),     // :1469
    (0x9000, 0x94cf, Fw::Gt),         // :1472
    (0x94d0, 0x955f, Fw::Render),     // :1475
    (0x9560, 0x967f, Fw::No),         // :1476
    (0x9680, 0x97ff, Fw::Render),     // :1479
    (0x9800, 0xcfff, Fw::Gt),         // :1482
    (0xd000, 0xd7ff, Fw::No),         // :1486
    (0xd800, 0xd87f, Fw::Render),     // :1487
    (0xd880, 0xdbff, Fw::Gt),         // :1488
    (0xdc00, 0xdcff, Fw::Render),     // :1489
    (0xdd00, 0xde7f, Fw::Gt),         // :1490
    (0xde80, 0xe8ff, Fw::Render),     // :1493
    (0xe900, 0xffff, Fw::Gt),         // :1497
    (0x10000, 0x12fff, Fw::No),       // :1501
    (0x13000, 0x131ff, Fw::Vdbox0),   // :1505
    (0x13200, 0x147ff, Fw::Vdbox2),   // :1506
    (0x14800, 0x14fff, Fw::Render),   // :1509
    (0x15000, 0x16dff, Fw::Gt),       // :1510
    (0x16e00, 0x21fff, Fw::Render),   // :1513
    (0x22000, 0x23fff, Fw::Gt),       // :1516
    (0x24000, 0x2417f, Fw::No),       // :1517
    (0x24180, 0x249ff, Fw::Gt),       // :1520
    (0x24a00, 0x251ff, Fw::Render),   // :1523
    (0x25200, 0x25fff, Fw::Gt),       // :1526
    (0x26000, 0x2ffff, Fw::Render),   // :1529
    (0x30000, 0x3ffff, Fw::Gt),       // :1533
    (0x40000, 0x1bffff, Fw::No),      // :1534
    (0x1c0000, 0x1c3fff, Fw::Vdbox0), // :1535
    (0x1c4000, 0x1c7fff, Fw::Vdbox1), // :1541
    (0x1c8000, 0x1cbfff, Fw::Vebox0), // :1546
    (0x1cc000, 0x1ccfff, Fw::Vdbox0), // :1549
    (0x1cd000, 0x1cdfff, Fw::Vdbox2), // :1550
    (0x1ce000, 0x1cefff, Fw::Vdbox4), // :1551
    (0x1cf000, 0x1cffff, Fw::Vdbox6), // :1552
    (0x1d0000, 0x1d3fff, Fw::Vdbox2), // :1553
    (0x1d4000, 0x1d7fff, Fw::Vdbox3), // :1560
    (0x1d8000, 0x1dffff, Fw::Vebox1), // :1565
    (0x1e0000, 0x1e3fff, Fw::Vdbox4), // :1568
    (0x1e4000, 0x1e7fff, Fw::Vdbox5), // :1574
    (0x1e8000, 0x1effff, Fw::Vebox2), // :1579
    (0x1f0000, 0x1f3fff, Fw::Vdbox6), // :1582
    (0x1f4000, 0x1f7fff, Fw::Vdbox7), // :1588
    (0x1f8000, 0x1fa0ff, Fw::Vebox3), // :1593
];

/// `__mtl_fw_ranges` (drivers/gpu/drm/i915/intel_uncore.c:1596, 32 rows): the render GT from 12.70.
const MTL_FW: &[(u64, u64, Fw)] = &[
    (0x0, 0xaff, Fw::No),           // :1597
    (0xb00, 0xbff, Fw::Gt),         // :1598
    (0xc00, 0xfff, Fw::No),         // :1599
    (0x1000, 0x1fff, Fw::Gt),       // :1600
    (0x2000, 0x26ff, Fw::Render),   // :1601
    (0x2700, 0x2fff, Fw::Gt),       // :1602
    (0x3000, 0x3fff, Fw::Render),   // :1603
    (0x4000, 0x51ff, Fw::Gt),       // :1604
    (0x5200, 0x7fff, Fw::Render),   // :1607
    (0x8000, 0x813f, Fw::Gt),       // :1611
    (0x8140, 0x817f, Fw::Render),   // :1612
    (0x8180, 0x81ff, Fw::No),       // :1615
    (0x8200, 0x94cf, Fw::Gt),       // :1616
    (0x94d0, 0x955f, Fw::Render),   // :1623
    (0x9560, 0x967f, Fw::No),       // :1624
    (0x9680, 0x97ff, Fw::Render),   // :1627
    (0x9800, 0xcfff, Fw::Gt),       // :1630
    (0xd000, 0xd7ff, Fw::No),       // :1634
    (0xd800, 0xd87f, Fw::Render),   // :1637
    (0xd880, 0xdbff, Fw::Gt),       // :1638
    (0xdc00, 0xdcff, Fw::Render),   // :1639
    (0xdd00, 0xde7f, Fw::Gt),       // :1640
    (0xde80, 0xe8ff, Fw::Render),   // :1643
    (0xe900, 0xe9ff, Fw::Gt),       // :1647
    (0xea00, 0x147ff, Fw::No),      // :1648
    (0x14800, 0x19fff, Fw::Gt),     // :1652
    (0x1a000, 0x21fff, Fw::Render), // :1655
    (0x22000, 0x23fff, Fw::Gt),     // :1658
    (0x24000, 0x2ffff, Fw::No),     // :1659
    (0x30000, 0x3ffff, Fw::Gt),     // :1662
    (0x40000, 0x1901ef, Fw::No),    // :1663
    (0x1901f0, 0x1901f3, Fw::Gt),   // :1664
];

/// `__xelpmp_fw_ranges` (drivers/gpu/drm/i915/intel_uncore.c:1682, 25 rows): the media GT (final addresses, after +0x380000).
const XELPMP_FW: &[(u64, u64, Fw)] = &[
    (0x0, 0x115fff, Fw::No),          // :1683
    (0x116000, 0x11ffff, Fw::Gsc),    // :1684
    (0x120000, 0x1bffff, Fw::No),     // :1689
    (0x1c0000, 0x1c7fff, Fw::Vdbox0), // :1690
    (0x1c8000, 0x1cbfff, Fw::Vebox0), // :1695
    (0x1cc000, 0x1cffff, Fw::Vdbox0), // :1698
    (0x1d0000, 0x1d7fff, Fw::Vdbox2), // :1701
    (0x1d8000, 0x1da0ff, Fw::Vebox1), // :1705
    (0x1da100, 0x380aff, Fw::No),     // :1706
    (0x380b00, 0x380bff, Fw::Gt),     // :1710
    (0x380c00, 0x380fff, Fw::No),     // :1711
    (0x381000, 0x38817f, Fw::Gt),     // :1712
    (0x388180, 0x3882ff, Fw::No),     // :1721
    (0x388300, 0x38955f, Fw::Gt),     // :1724
    (0x389560, 0x389fff, Fw::No),     // :1729
    (0x38a000, 0x38cfff, Fw::Gt),     // :1732
    (0x38d000, 0x38d11f, Fw::No),     // :1736
    (0x38d120, 0x391fff, Fw::Gt),     // :1737
    (0x392000, 0x392fff, Fw::No),     // :1742
    (0x393000, 0x3931ff, Fw::Gt),     // :1745
    (0x393200, 0x39323f, Fw::All),    // :1746
    (0x393240, 0x3933ff, Fw::Gt),     // :1747
    (0x393400, 0x3934ff, Fw::All),    // :1748
    (0x393500, 0x393c7f, Fw::No),     // :1749
    (0x393c80, 0x393dff, Fw::Gt),     // :1752
];

/// `xehp_l3bank_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:63, 2 rows).
const XEHP_L3BANK: &[(u64, u64)] = &[
    (0x8c80, 0x8cff), // :64
    (0xb100, 0xb3ff), // :65
];

/// `xehp_mslice_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:74, 2 rows).
const XEHP_MSLICE: &[(u64, u64)] = &[
    (0xdd00, 0xddff), // :75
    (0xe900, 0xffff), // :76
];

/// `xehp_lncf_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:80, 2 rows).
const XEHP_LNCF: &[(u64, u64)] = &[
    (0xb000, 0xb0ff), // :81
    (0xd880, 0xd8ff), // :82
];

/// `xehp_dss_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:133, 11 rows).
const XEHP_DSS: &[(u64, u64)] = &[
    (0x5200, 0x52ff),   // :134
    (0x5400, 0x7fff),   // :135
    (0x8140, 0x815f),   // :136
    (0x8d00, 0x8dff),   // :137
    (0x94d0, 0x955f),   // :138
    (0x9680, 0x96ff),   // :139
    (0xd800, 0xd87f),   // :140
    (0xdc00, 0xdcff),   // :141
    (0xde80, 0xe8ff),   // :142
    (0x17000, 0x17fff), // :143
    (0x24a00, 0x24a7f), // :144
];

/// `dg2_implicit_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:186, 6 rows).
const DG2_IMPLICIT: &[(u64, u64)] = &[
    (0xb00, 0xbff),   // :187
    (0x1000, 0x1fff), // :188
    (0x4000, 0x4aff), // :189
    (0x8700, 0x87ff), // :190
    (0xc800, 0xcfff), // :191
    (0xf000, 0xffff), // :192
];

/// `xelpg_instance0_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:107, 8 rows).
const XELPG_INSTANCE0: &[(u64, u64)] = &[
    (0xb00, 0xbff),   // :108
    (0x1000, 0x1fff), // :109
    (0x4000, 0x48ff), // :110
    (0x8700, 0x87ff), // :111
    (0xb000, 0xb0ff), // :112
    (0xc800, 0xcfff), // :113
    (0xd880, 0xd8ff), // :114
    (0xdd00, 0xddff), // :115
];

/// `xelpg_l3bank_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:119, 1 rows).
const XELPG_L3BANK: &[(u64, u64)] = &[
    (0xb100, 0xb3ff), // :120
];

/// `xelpg_dss_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:159, 8 rows).
const XELPG_DSS: &[(u64, u64)] = &[
    (0x5200, 0x52ff), // :160
    (0x5500, 0x7fff), // :161
    (0x8140, 0x815f), // :162
    (0x94d0, 0x955f), // :163
    (0x9680, 0x96ff), // :164
    (0xd800, 0xd87f), // :165
    (0xdc00, 0xdcff), // :166
    (0xde80, 0xe8ff), // :167
];

/// `xelpmp_oaddrm_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:180, 2 rows).
const XELPMP_OADDRM: &[(u64, u64)] = &[
    (0x393200, 0x39323f), // :181
    (0x393400, 0x3934ff), // :182
];

/// `xe2lpg_dss_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:196, 10 rows).
const XE2LPG_DSS: &[(u64, u64)] = &[
    (0x5200, 0x52ff),   // :197
    (0x5500, 0x7fff),   // :198
    (0x8140, 0x815f),   // :199
    (0x94d0, 0x955f),   // :200
    (0x9680, 0x96ff),   // :201
    (0xd800, 0xd87f),   // :202
    (0xdc00, 0xdcff),   // :203
    (0xde80, 0xe8ff),   // :204
    (0xe980, 0xe9ff),   // :205
    (0x13000, 0x133ff), // :206
];

/// `xe2lpg_sqidi_psmi_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:210, 2 rows).
const XE2LPG_SQIDI_PSMI: &[(u64, u64)] = &[
    (0xb00, 0xbff),   // :211
    (0x1000, 0x1fff), // :212
];

/// `xe2lpg_instance0_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:216, 9 rows).
const XE2LPG_INSTANCE0: &[(u64, u64)] = &[
    (0x4000, 0x4aff),   // :217
    (0x8700, 0x887f),   // :218
    (0xb000, 0xb3ff),   // :219
    (0xc800, 0xcfff),   // :220
    (0xd880, 0xd8ff),   // :221
    (0xdd00, 0xddff),   // :222
    (0xe900, 0xe97f),   // :223
    (0xf000, 0xffff),   // :224
    (0x13400, 0x135ff), // :225
];

/// `xe2lpm_gpmxmt_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:229, 2 rows).
const XE2LPM_GPMXMT: &[(u64, u64)] = &[
    (0x388160, 0x38817f), // :230
    (0x389480, 0x3894cf), // :231
];

/// `xe2lpm_instance0_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:235, 7 rows).
const XE2LPM_INSTANCE0: &[(u64, u64)] = &[
    (0x384000, 0x3847df), // :236
    (0x384900, 0x384aff), // :237
    (0x389560, 0x3895ff), // :238
    (0x38b600, 0x38b8ff), // :239
    (0x38c800, 0x38d07f), // :240
    (0x38f000, 0x38f0ff), // :241
    (0x393c00, 0x393c7f), // :242
];

/// `xe3lpm_instance0_steering_table` (drivers/gpu/drm/xe/xe_gt_mcr.c:246, 8 rows).
const XE3LPM_INSTANCE0: &[(u64, u64)] = &[
    (0x384000, 0x3841ff), // :247
    (0x384400, 0x3847df), // :248
    (0x384900, 0x384aff), // :249
    (0x389560, 0x3895ff), // :250
    (0x38b600, 0x38b8ff), // :251
    (0x38c800, 0x38d07f), // :252
    (0x38d0d0, 0x38f0ff), // :253
    (0x393c00, 0x393c7f), // :254
];

/// The kernel's steering types, in its lookup order (`enum
/// xe_steering_type`, xe_gt_types.h), and the replication group that
/// stands for each in the descriptions (`None`: IMPLICIT, not steered per
/// access).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Steer {
    L3bank,
    Mslice,
    Lncf,
    Dss,
    Oaddrm,
    SqidiPsmi,
    Instance0,
    /// The media GT's INSTANCE0 (a GT of its own, its own selector).
    MediaInstance0,
    Implicit,
}

impl Steer {
    fn group(self) -> Option<&'static str> {
        Some(match self {
            Steer::L3bank => "l3bank",
            Steer::Mslice => "mslice",
            Steer::Lncf => "lncf",
            Steer::Dss => "dss",
            Steer::Oaddrm => "oaddrm",
            Steer::SqidiPsmi => "sqidi_psmi",
            Steer::Instance0 => "instance0",
            Steer::MediaInstance0 => "media_instance0",
            Steer::Implicit => return None,
        })
    }
    /// The kernel's name of the type (xe_steering_types[]), which the row's
    /// steering text starts with.
    fn kernel_name(self) -> &'static str {
        match self {
            Steer::L3bank => "L3BANK",
            Steer::Mslice => "MSLICE",
            Steer::Lncf => "LNCF",
            Steer::Dss => "DSS",
            Steer::Oaddrm => "OADDRM",
            Steer::SqidiPsmi => "SQIDI_PSMI",
            Steer::Instance0 | Steer::MediaInstance0 => "INSTANCE0",
            Steer::Implicit => "IMPLICIT",
        }
    }
}

/// A platform's steering tables in the kernel's lookup order.
type Mcr = &'static [(Steer, &'static [(u64, u64)])];

/// DG2 (`xe_gt_mcr_init_early`, the XE_DG2 branch).
const DG2_MCR: Mcr = &[
    (Steer::L3bank, XEHP_L3BANK),
    (Steer::Mslice, XEHP_MSLICE),
    (Steer::Lncf, XEHP_LNCF),
    (Steer::Dss, XEHP_DSS),
    (Steer::Implicit, DG2_IMPLICIT),
];
/// MTL: render GT (12.70 <= IP < 20) and media GT (media < 13.01).
const MTL_MCR: Mcr = &[
    (Steer::L3bank, XELPG_L3BANK),
    (Steer::Dss, XELPG_DSS),
    (Steer::Oaddrm, XELPMP_OADDRM),
    (Steer::Instance0, XELPG_INSTANCE0),
];
/// LNL, BMG: render GT (IP >= 20) and media GT (13.01 <= media < 30).
const XE2_MCR: Mcr = &[
    (Steer::Dss, XE2LPG_DSS),
    (Steer::Oaddrm, XE2LPM_GPMXMT),
    (Steer::SqidiPsmi, XE2LPG_SQIDI_PSMI),
    (Steer::Instance0, XE2LPG_INSTANCE0),
    (Steer::MediaInstance0, XE2LPM_INSTANCE0),
];
/// PTL: render GT as Xe2, media GT >= 30.
const XE3_MCR: Mcr = &[
    (Steer::Dss, XE2LPG_DSS),
    (Steer::Oaddrm, XE2LPM_GPMXMT),
    (Steer::SqidiPsmi, XE2LPG_SQIDI_PSMI),
    (Steer::Instance0, XE2LPG_INSTANCE0),
    (Steer::MediaInstance0, XE3LPM_INSTANCE0),
];

/// The steering type of `a`: the first table holding it.
fn steer(mcr: Mcr, a: u64) -> Option<Steer> {
    mcr.iter().find(|(_, r)| within(r, a)).map(|&(s, _)| s)
}

/// A table's entry for `a` (`find_fw_domain`).
fn entry(table: &[(u64, u64, Fw)], a: u64) -> Option<Fw> {
    table
        .iter()
        .find(|&&(s, e, _)| s <= a && a <= e)
        .map(|&(_, _, d)| d)
}

/// `NEEDS_FORCE_WAKE`.
fn needs_force_wake(a: u64) -> bool {
    !(0x4_0000..0x11_6000).contains(&a)
}

/// The compiled project `name`, if its hal feature is on.
fn project(name: &str) -> Option<&'static ProjectInfo> {
    let p = perfregs::hal::PROJECTS
        .iter()
        .copied()
        .find(|p| p.name == name);
    if p.is_none() {
        eprintln!("skipped: hal feature `{name}` is off");
    }
    p
}

/// Our wake target at `a` (`aon` read as no force-wake), and whether a row
/// covers it.
fn ours(p: &ProjectInfo, a: u64) -> (Option<&'static str>, bool) {
    let row = p.row_at(a);
    (
        row.and_then(|r| r.wake).filter(|&w| w != "aon"),
        row.is_some(),
    )
}

/// Our replication group at `a` and the row's steering text.
fn our_group(p: &ProjectInfo, a: u64) -> (Option<&'static str>, &'static str) {
    p.row_at(a).map_or((None, ""), |r| (r.group, r.steering))
}

/// Every steering type of `mcr` at every 4-byte address below `top`: the
/// same group (and steering text naming the kernel's type); returns the
/// addresses in a steering table.
fn check_steering(p: &ProjectInfo, mcr: Mcr, top: u64) -> u64 {
    let mut steered = 0;
    for a in (0..top).step_by(4) {
        let kernel = steer(mcr, a);
        let (group, text) = our_group(p, a);
        assert_eq!(group, kernel.and_then(Steer::group), "{} {a:#x}", p.name);
        if let Some(k) = kernel {
            assert!(
                text.starts_with(k.kernel_name()),
                "{} {a:#x}: steering `{text}`, kernel {k:?}",
                p.name
            );
            steered += 1;
        }
        // A group's instance count is the row's.
        if let Some(g) = group {
            let n = p.group(g).map(|g| g.instances);
            assert_eq!(p.row_at(a).map(|r| r.instances), n, "{} {a:#x}", p.name);
        }
    }
    steered
}

#[test]
fn the_restated_tables_are_the_kernels_size_and_watertight() {
    // Row counts of the source (the facts file's section 4a).
    assert_eq!((DG2_FW.len(), MTL_FW.len(), XELPMP_FW.len()), (54, 32, 25));
    for t in [DG2_FW, MTL_FW, XELPMP_FW] {
        assert_watertight(t);
    }
    for mcr in [DG2_MCR, MTL_MCR, XE2_MCR, XE3_MCR] {
        for (_, ranges) in mcr {
            for w in ranges.windows(2) {
                assert!(w[0].1 < w[1].0, "{:#x} sorted, disjoint", w[0].0);
            }
        }
    }
}

/// DG2's domains set up (`dg2` platform_engine_mask: VCS0, VCS2, VECS0, VECS1).
fn dg2_domain(a: u64) -> (Option<&'static str>, bool) {
    let e = entry(DG2_FW, a);
    let set_up = |d: Fw| {
        matches!(
            d,
            Fw::Render | Fw::Gt | Fw::Vdbox0 | Fw::Vdbox2 | Fw::Vebox0 | Fw::Vebox1
        )
    };
    let d = e
        .filter(|_| needs_force_wake(a))
        .filter(|&d| set_up(d))
        .and_then(Fw::name);
    (d, e.is_some())
}

#[test]
fn dg2_matches_the_kernels_force_wake_table_address_by_address() {
    let Some(p) = project("dg2") else { return };
    let top = 0x20_0000;
    for a in (0..top).step_by(4) {
        assert_eq!(ours(p, a), dg2_domain(a), "dg2 {a:#x}");
    }
    // Each kernel row was reached.
    for &(s, e, d) in DG2_FW {
        assert_eq!(entry(DG2_FW, s), Some(d));
        assert!(ours(p, e).1, "{s:#x}..{e:#x} has a row");
    }
    // Examples from the facts file (section 4a, derived by lookup).
    assert_eq!(ours(p, 0x13000).0, Some("vdbox0"));
    assert_eq!(ours(p, 0x15114).0, Some("gt"));
    assert_eq!(ours(p, 0xdc00).0, Some("render"));
    // VDBOX1 is not set up on DG2: its row is reserved.
    assert_eq!(entry(DG2_FW, 0x1c_4000), Some(Fw::Vdbox1));
    assert_eq!(ours(p, 0x1c_4000), (None, true));
}

#[test]
fn dg2_matches_the_kernels_steering_tables() {
    let Some(p) = project("dg2") else { return };
    let steered = check_steering(p, DG2_MCR, 0x20_0000);
    assert!(steered > 0x2000, "{steered}");
    // MSLICE before IMPLICIT where both tables hold an address.
    assert!(within(DG2_IMPLICIT, 0xf000) && within(XEHP_MSLICE, 0xf000));
    assert_eq!(our_group(p, 0xf000).0, Some("mslice"));
    // OA registers in replicated ranges (facts section 5).
    assert_eq!(our_group(p, 0xdc00).0, Some("dss"));
    assert_eq!(our_group(p, 0xdd00).0, Some("mslice"));
    assert_eq!(our_group(p, 0x8718).0, None);
    assert!(our_group(p, 0x8718).1.starts_with("IMPLICIT"));
    // Pre-12.70 selector (MCR_SELECTOR 0xfdc, MCR_SLICE 30:27, MCR_SUBSLICE 26:24).
    assert_eq!(p.steering, Some("MCR_SELECTOR"));
    let sel = p.register("MCR_SELECTOR").expect("selector");
    let at = |f: &str| sel.field(f).map(|x| (x.lsb, x.width));
    assert_eq!(
        (
            sel.address,
            at("multicast"),
            at("slice_id"),
            at("subslice_id")
        ),
        (0xfdc, Some((31, 1)), Some((27, 4)), Some((24, 3)))
    );
}

/// Where MTL's media GT owns an address: its engines' ranges (GSC, VD/VE
/// boxes) and its GSI window from MTL_MEDIA_GSI_BASE (0x380000).
fn media_owned(a: u64) -> bool {
    (0x11_6000..0x12_0000).contains(&a) || (0x1c_0000..0x20_0000).contains(&a) || a >= 0x38_0000
}

/// MTL as the kernel sees an address: the owning GT's table and domains
/// (render GT: GT, RENDER; media GT: its own GT, GSC, VCS0, VCS2, VECS0).
/// FORCEWAKE_ALL (the media OADDRM ranges) is the pair the kernel's
/// comment names, VD0 and VD2 (gt_mtl.yaml's note).
fn mtl_domain(a: u64) -> (Option<&'static str>, bool) {
    if media_owned(a) {
        let e = entry(XELPMP_FW, a);
        let d = e.filter(|_| needs_force_wake(a)).and_then(|d| match d {
            Fw::Gt => Some("media_gt"),
            Fw::All => Some("vdbox0+vdbox2"),
            Fw::Gsc | Fw::Vdbox0 | Fw::Vdbox2 | Fw::Vebox0 => d.name(),
            _ => None,
        });
        (d, e.is_some())
    } else {
        let e = entry(MTL_FW, a);
        let d = e
            .filter(|_| needs_force_wake(a))
            .filter(|d| matches!(d, Fw::Gt | Fw::Render))
            .and_then(Fw::name);
        (d, e.is_some())
    }
}

#[test]
fn mtl_matches_the_kernels_render_and_media_tables_address_by_address() {
    let Some(p) = project("mtl") else { return };
    let top = 0x3c_0000;
    for a in (0..top).step_by(4) {
        assert_eq!(ours(p, a), mtl_domain(a), "mtl {a:#x}");
    }
    for &(s, e, _) in MTL_FW.iter().chain(XELPMP_FW) {
        for a in [s, e & !3] {
            assert_eq!(ours(p, a), mtl_domain(a), "row {s:#x}..{e:#x}");
        }
    }
    // The facts file's lookups: OAM GT, MPES ALL, VISACTL 0, 0x13000 0.
    assert_eq!(ours(p, 0x39_3000).0, Some("media_gt"));
    assert_eq!(entry(XELPMP_FW, 0x39_3200), Some(Fw::All));
    assert_eq!(ours(p, 0x39_3200).0, Some("vdbox0+vdbox2"));
    assert_eq!(ours(p, 0x38_d100).0, None);
    assert_eq!(ours(p, 0x13000).0, None);
    assert_eq!(ours(p, 0x1901f0).0, Some("gt"));
}

#[test]
fn mtl_matches_the_kernels_steering_tables() {
    let Some(p) = project("mtl") else { return };
    let steered = check_steering(p, MTL_MCR, 0x3c_0000);
    assert!(steered > 0x1000, "{steered}");
    assert_eq!(our_group(p, 0x39_3200).0, Some("oaddrm"));
    assert_eq!(our_group(p, 0xdd00).0, Some("instance0"));
    assert_eq!(our_group(p, 0xdc00).0, Some("dss"));
}

#[test]
fn xe2_and_xe3_match_the_kernels_steering_tables() {
    for (name, mcr) in [("lnl", XE2_MCR), ("bmg", XE2_MCR), ("ptl", XE3_MCR)] {
        let Some(p) = project(name) else { continue };
        let steered = check_steering(p, mcr, 0x3c_0000);
        assert!(steered > 0x1000, "{name} {steered}");
        // No force-wake table under xe: replicated rows are `aon` (no
        // per-register rule), every other address is in no row.
        for a in (0..0x3c_0000).step_by(4) {
            let (wake, covered) = ours(p, a);
            assert_eq!(wake, None, "{name} {a:#x}");
            assert_eq!(covered, steer(mcr, a).is_some(), "{name} {a:#x}");
        }
        // PES blocks (facts section 5): PESL0 DSS, PESL1 DSS table (SLICE),
        // PESL2 INSTANCE0 (MEMPIPE), PESL3 in no table.
        let g = |a| our_group(p, a).0;
        assert_eq!(
            (g(0x13000), g(0x13200), g(0x13400), g(0x13600)),
            (Some("dss"), Some("dss"), Some("instance0"), None)
        );
    }
}

/// The 12.70+ selector and semaphore (xe regs/xe_gt_regs.h 51-62), on the
/// render GT and (at +0x380000) the media GT.
#[test]
fn the_12_70_selector_and_semaphore_are_the_kernels() {
    for name in ["mtl", "lnl", "bmg", "ptl"] {
        let Some(p) = project(name) else { continue };
        assert_eq!(p.steering, Some("MTL_MCR_SELECTOR"), "{name}");
        for (sel, sem, base) in [
            ("MTL_MCR_SELECTOR", "STEER_SEMAPHORE", 0),
            ("MEDIA_MTL_MCR_SELECTOR", "MEDIA_STEER_SEMAPHORE", 0x38_0000),
        ] {
            let r = p.register(sel).expect("selector");
            let at = |f: &str| r.field(f).map(|x| (x.lsb, x.width));
            assert_eq!(
                (
                    r.address,
                    at("multicast"),
                    at("group_id"),
                    at("instance_id")
                ),
                (base + 0xfd4, Some((31, 1)), Some((8, 4)), Some((0, 4))),
                "{name} {sel}"
            );
            let s = p.register(sem).expect("semaphore");
            let bit = s.field("acquired").map(|x| (x.lsb, x.width));
            assert_eq!(
                (s.address, bit),
                (base + 0xfd0, Some((0, 1))),
                "{name} {sem}"
            );
        }
    }
}

/// Request/ack registers of each domain: the kernel's defines
/// (intel_gt_regs.h / xe_gt_regs.h), the media GT's at +0x380000.
#[test]
fn force_wake_registers_are_the_kernels() {
    for name in ["dg2", "mtl", "lnl", "bmg", "ptl"] {
        let Some(p) = project(name) else { continue };
        let media_gt = name != "dg2";
        for d in p.domains.iter().filter(|d| !d.always_on) {
            let reg = |n: Option<&str>| n.and_then(|n| p.register(n)).expect("described");
            let (req, ack) = (reg(d.request), reg(d.ack));
            let media = if media_gt { 0x38_0000 } else { 0 };
            let n = |prefix: &str| {
                d.name
                    .strip_prefix(prefix)
                    .and_then(|n| n.parse::<u64>().ok())
            };
            let want = match d.name {
                // FORCEWAKE_GT 0xa188; ack 0x130044 below 12.70, 0xdfc from it.
                "gt" => (0xa188, if media_gt { 0xdfc } else { 0x13_0044 }),
                "render" => (0xa278, 0xd84),
                "media_gt" => (0x38_0000 + 0xa188, 0x38_0000 + 0xdfc),
                "gsc" => (0x38_0000 + 0xa618, 0x38_0000 + 0xdf8),
                _ => match (n("vdbox"), n("vebox")) {
                    (Some(i), _) => (media + 0xa540 + 4 * i, media + 0xd50 + 4 * i),
                    (_, Some(i)) => (media + 0xa560 + 4 * i, media + 0xd70 + 4 * i),
                    _ => panic!("{name}: unexpected domain {}", d.name),
                },
            };
            assert_eq!((req.address, ack.address), want, "{name} {}", d.name);
            assert!(req.masked, "{name} {}", d.name);
            // FORCEWAKE_KERNEL is bit 0 (the value xe writes: 0x00010001).
            assert_eq!(req.field("kernel").map(|f| f.lsb), Some(0));
            // The kernel writes request registers raw: no domain of their own.
            assert_eq!(req.domain, None, "{name} {}", req.name);
        }
    }
}
