//! Fidelity of the force-wake and steering rows of the Gen12 parts after TGL
//! (RKL, ADL, DG1; regdefs/gt_gen12.yaml) against the Linux kernel's i915,
//! whose tables are re-stated here independently of the YAML:
//!
//! - `intel_uncore.c` `__gen12_fw_ranges` (torvalds/linux 002c6ca75289):
//!   `uncore_forcewake_init` uses it for graphics version 12 below IP 12.50,
//!   i.e. TGL, RKL, ADL-S, ADL-P and DG1 (12.10) alike; read as
//!   `fwtable_read32` does (`NEEDS_FORCE_WAKE`, the table's entry, only the
//!   domains the part set up from `i915_pci.c` `platform_engine_mask`);
//! - `gt/intel_workarounds.c` `mcr_ranges_gen12` and `gt/intel_gt_mcr.c`
//!   `icl_l3bank_steering_table`: the replicated ranges and their steering;
//! - `gt/intel_sseu.c` `gen12_sseu_info_init`: 6 DSS; `GEN10_L3BANK_MASK`
//!   (0x0F): 4 L3 bank steering ids.
//!
//! Every 4-byte address below [`TOP`] and every described register is
//! compared; then TGL's PRM rows are compared with the kernel's, and the
//! ranges where they differ must be exactly the ones gt_gen12.yaml lists.

use crate::support::kernel_tables;
use kernel_tables::{check_addresses, check_registers, ours, Fw, Part, L3BANKS};
use perfregs::hal::meta::ProjectInfo;
use perfregs::hal::{adl, dg1, rkl, tgl};

/// `__gen12_fw_ranges`: `(start, end, domain)`, inclusive.
const GEN12_FW: &[(u64, u64, Fw)] = &[
    (0x0, 0x1fff, Fw::No),
    (0x2000, 0x26ff, Fw::Render),
    (0x2700, 0x27ff, Fw::Gt),
    (0x2800, 0x2aff, Fw::Render),
    (0x2b00, 0x2fff, Fw::Gt),
    (0x3000, 0x3fff, Fw::Render),
    (0x4000, 0x51ff, Fw::Gt),
    (0x5200, 0x7fff, Fw::Render),
    (0x8000, 0x813f, Fw::Gt),
    (0x8140, 0x815f, Fw::Render),
    (0x8160, 0x81ff, Fw::No),
    (0x8200, 0x82ff, Fw::Gt),
    (0x8300, 0x84ff, Fw::Render),
    (0x8500, 0x94cf, Fw::Gt),
    (0x94d0, 0x955f, Fw::Render),
    (0x9560, 0x97ff, Fw::No),
    (0x9800, 0xafff, Fw::Gt),
    (0xb000, 0xb3ff, Fw::Render),
    (0xb400, 0xcfff, Fw::Gt),
    (0xd000, 0xd7ff, Fw::No),
    (0xd800, 0xd8ff, Fw::Render),
    (0xd900, 0xdbff, Fw::Gt),
    (0xdc00, 0xefff, Fw::Render),
    (0xf000, 0x147ff, Fw::Gt),
    (0x14800, 0x1ffff, Fw::Render),
    (0x20000, 0x20fff, Fw::Vdbox0),
    (0x21000, 0x21fff, Fw::Vdbox2),
    (0x22000, 0x23fff, Fw::Gt),
    (0x24000, 0x2417f, Fw::No),
    (0x24180, 0x249ff, Fw::Gt),
    (0x24a00, 0x251ff, Fw::Render),
    (0x25200, 0x255ff, Fw::Gt),
    (0x25600, 0x2567f, Fw::Vdbox0),
    (0x25680, 0x259ff, Fw::Vdbox2),
    (0x25a00, 0x25a7f, Fw::Vdbox0),
    (0x25a80, 0x2ffff, Fw::Vdbox2),
    (0x30000, 0x3ffff, Fw::Gt),
    (0x40000, 0x1bffff, Fw::No),
    (0x1c0000, 0x1c3fff, Fw::Vdbox0),
    (0x1c4000, 0x1c7fff, Fw::No),
    (0x1c8000, 0x1cbfff, Fw::Vebox0),
    (0x1cc000, 0x1cffff, Fw::Vdbox0),
    (0x1d0000, 0x1d3fff, Fw::Vdbox2),
];

/// `mcr_ranges_gen12`: the ranges the MCR selector steers.
const MCR_GEN12: &[(u64, u64)] = &[
    (0x8150, 0x815f),
    (0x9520, 0x955f),
    (0xb100, 0xb3ff),
    (0xde80, 0xe8ff),
    (0x24a00, 0x24a7f),
];

/// `gen12_sseu_info_init`: `intel_sseu_set_info(sseu, 1, 6, 16)`.
const DSS: u32 = 6;

/// Addresses checked: past the table's last entry (0x1D3FFF) and the end
/// of TGL's PRM rows (0x23FFFF).
const TOP: u64 = 0x24_0000;

/// A Gen12 part after TGL with the `media` domains set up.
const fn part(project: &'static ProjectInfo, media: &'static [Fw]) -> Part {
    Part {
        project,
        fw: GEN12_FW,
        media,
        mcr: MCR_GEN12,
        mcr_group: ("dss", DSS),
    }
}

/// RKL: `BIT(RCS0) | BIT(BCS0) | BIT(VECS0) | BIT(VCS0)`.
const RKL: Part = part(&rkl::PROJECT, &[Fw::Vdbox0, Fw::Vebox0]);
/// ADL-S, ADL-P and DG1: `BIT(RCS0) | BIT(BCS0) | BIT(VECS0) | BIT(VCS0) | BIT(VCS2)`.
const ADL_DG1_MEDIA: &[Fw] = &[Fw::Vdbox0, Fw::Vdbox2, Fw::Vebox0];
const ADL: Part = part(&adl::PROJECT, ADL_DG1_MEDIA);
const DG1: Part = part(&dg1::PROJECT, ADL_DG1_MEDIA);

#[test]
fn the_restated_table_is_sorted_and_watertight() {
    kernel_tables::assert_watertight(GEN12_FW);
}

#[test]
fn rkl_matches_the_kernels_gen12_tables() {
    assert_eq!(check_addresses(&RKL, TOP), TOP / 4);
    let regs = check_registers(&RKL);
    assert!(regs > 100, "only {regs} registers checked");
    // No VCS2 on RKL: the kernel wakes nothing for VDBOX2's ranges.
    assert_eq!(RKL.entry(0x2_1000), Some(Fw::Vdbox2));
    assert_eq!(ours(&rkl::PROJECT, 0x2_1000), None);
    assert_eq!(ours(&adl::PROJECT, 0x2_1000), Some("vdbox2"));
}

#[test]
fn adl_matches_the_kernels_gen12_tables() {
    assert_eq!(check_addresses(&ADL, TOP), TOP / 4);
    assert!(check_registers(&ADL) > 100);
}

#[test]
fn dg1_uses_the_gen12_table_too() {
    // DG1 is IP 12.10: below 12.50, so __gen12_fw_ranges (no table of its own).
    assert_eq!(check_addresses(&DG1, TOP), TOP / 4);
    assert!(check_registers(&DG1) > 100);
    let flex = dg1::PROJECT
        .register("EU_PERF_CNT_CTL0")
        .expect("described");
    assert_eq!(
        (flex.domain, flex.replication),
        (Some("render"), Some(("dss", DSS)))
    );
}

#[test]
fn gen12_domains_follow_the_engine_masks_and_the_kernels_registers() {
    for (p, names) in [
        (
            &rkl::PROJECT,
            &["aon", "gt", "render", "vdbox0", "vebox0"][..],
        ),
        (
            &adl::PROJECT,
            &["aon", "gt", "render", "vdbox0", "vdbox2", "vebox0"][..],
        ),
        (
            &dg1::PROJECT,
            &["aon", "gt", "render", "vdbox0", "vdbox2", "vebox0"][..],
        ),
    ] {
        let got: Vec<&str> = p.domains.iter().map(|d| d.name).collect();
        assert_eq!(got, names, "{}", p.name);
        for d in p.domains.iter().filter(|d| !d.always_on) {
            let reg = |n: Option<&str>| n.and_then(|n| p.register(n)).expect("described");
            let (req, ack) = (reg(d.request), reg(d.ack));
            // intel_gt_regs.h: FORCEWAKE_RENDER_GEN9 0xa278 / ACK 0xd84,
            // FORCEWAKE_GT_GEN9 0xa188 / ACK 0x130044,
            // FORCEWAKE_MEDIA_VDBOX_GEN11(n) 0xa540 + 4n / ACK 0xd50 + 4n,
            // FORCEWAKE_MEDIA_VEBOX_GEN11(n) 0xa560 + 4n / ACK 0xd70 + 4n.
            let want = match d.name {
                "render" => (0xa278, 0xd84),
                "gt" => (0xa188, 0x13_0044),
                "vdbox0" => (0xa540, 0xd50),
                "vdbox2" => (0xa548, 0xd58),
                "vebox0" => (0xa560, 0xd70),
                other => panic!("{}: unexpected domain {other}", p.name),
            };
            assert_eq!((req.address, ack.address), want, "{} {}", p.name, d.name);
            assert!(req.masked);
            // TGL's PRM gives the same registers for the same domains.
            let t = tgl::PROJECT.domain(d.name).expect("TGL has the domain");
            let treg = |n: Option<&str>| n.and_then(|n| tgl::PROJECT.register(n)).expect("TGL");
            assert_eq!(
                (treg(t.request).address, treg(t.ack).address),
                want,
                "{}",
                d.name
            );
            for f in ["kernel", "user", "fallback"] {
                let bits =
                    |r: &perfregs::hal::meta::RegisterInfo| r.field(f).map(|x| (x.lsb, x.width));
                assert_eq!(bits(req), bits(treg(t.request)), "{} {f}", d.name);
                assert_eq!(bits(ack), bits(treg(t.ack)), "{} {f}", d.name);
            }
        }
    }
}

#[test]
fn gen12_steering_is_the_kernels_selector_and_topology() {
    for p in [&rkl::PROJECT, &adl::PROJECT, &dg1::PROJECT] {
        assert_eq!(p.steering, Some("MCR_SELECTOR"));
        let sel = p.register("MCR_SELECTOR").expect("selector");
        assert_eq!(sel.address, 0xfdc);
        // Same layout as TGL's (GEN11_MCR_*: bit 31, 30:27, 26:24).
        let t = tgl::PROJECT.register("MCR_SELECTOR").expect("TGL");
        assert_eq!(sel.address, t.address);
        for f in ["multicast", "slice_id", "subslice_id"] {
            let at = |r: &perfregs::hal::meta::RegisterInfo| r.field(f).map(|x| (x.lsb, x.width));
            assert_eq!(at(sel), at(t), "{f}");
        }
        assert_eq!(sel.reset, 0x8000_0000, "multicast at rest");
        let n = |g: &str| p.group(g).map(|g| g.instances);
        assert_eq!((n("dss"), n("l3bank")), (Some(DSS), Some(L3BANKS)));
        let dss = p.group("dss").and_then(|g| g.fuse).expect("fused");
        let fuse = p.register(dss.register).expect("fuse register");
        assert_eq!((fuse.address, dss.set_means_present), (0x913c, true));
        let l3 = p.group("l3bank").and_then(|g| g.fuse).expect("fused");
        let fuse = p.register(l3.register).expect("fuse register");
        assert_eq!((fuse.address, l3.set_means_present), (0x9118, false));
    }
}

/// Maximal ranges (inclusive) where TGL's PRM rows and the kernel's rows
/// (DG1's, which has every domain the table names) give a different domain
/// or group, one range per pair of differing rows: the list of gt_gen12.yaml's note, with the SQIDI rows of TGL's
/// PRM and TGL's rows past the kernel's table.
const TGL_PRM_VS_KERNEL: &[(u64, u64)] = &[
    (0x0, 0xaff),
    (0xb00, 0xbff),
    (0x1000, 0x1fff),
    (0x4900, 0x51ff),
    (0x5400, 0x54ff),
    (0x8160, 0x817f),
    (0x8700, 0x87ff),
    (0x8800, 0x8fff),
    (0x9480, 0x94cf),
    (0x9600, 0x97ff),
    (0xb480, 0xbfff),
    (0xde00, 0xde7f),
    (0xe900, 0xefff),
    (0x10000, 0x147ff),
    (0x15000, 0x16dff),
    (0x1c000, 0x1ffff),
    (0x24080, 0x2417f),
    (0x24200, 0x249ff),
    (0x24a80, 0x251ff),
    (0x25300, 0x255ff),
    (0x25700, 0x259ff),
    (0x25b00, 0x2ffff),
    (0x40000, 0x1bffff),
    (0x1c2c00, 0x1c2cff),
    (0x1c2e00, 0x1c3eff),
    (0x1c4000, 0x1c7fff),
    (0x1ca100, 0x1cbeff),
    (0x1cd000, 0x1cffff),
    (0x1d2c00, 0x1d2cff),
    (0x1d2e00, 0x1d3eff),
    (0x1d4000, 0x23ffff),
];

#[test]
fn tgl_prm_rows_differ_from_the_kernels_only_where_documented() {
    let key = |p: &ProjectInfo, a: u64| p.row_at(a).map(|r| (r.wake, r.group));
    // Runs of addresses with the same pair of (TGL, kernel) rows.
    let mut diffs: Vec<(u64, u64)> = Vec::new();
    let mut last_pair = None;
    for a in (0..TOP).step_by(4) {
        let pair = (key(&tgl::PROJECT, a), key(&dg1::PROJECT, a));
        if pair.0 == pair.1 {
            last_pair = None;
            continue;
        }
        match diffs.last_mut() {
            Some(last) if last.1 + 1 == a && last_pair == Some(pair) => last.1 = a + 3,
            _ => diffs.push((a, a + 3)),
        }
        last_pair = Some(pair);
    }
    assert_eq!(diffs, TGL_PRM_VS_KERNEL);
    // Where both agree on a group, only the L3 bank count differs.
    let l3 = |p: &ProjectInfo| p.group("l3bank").map(|g| g.instances);
    assert_eq!((l3(&tgl::PROJECT), l3(&dg1::PROJECT)), (Some(8), Some(4)));
    let dss = |p: &ProjectInfo| p.group("dss").map(|g| g.instances);
    assert_eq!(dss(&tgl::PROJECT), dss(&dg1::PROJECT));
}
