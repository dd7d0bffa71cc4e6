//! Fidelity of the Gen11 (ICL, EHL) force-wake and steering rows
//! (regdefs/gt_gen11.yaml) against the Linux kernel's i915, whose tables are
//! re-stated here independently of the YAML:
//!
//! - `intel_uncore.c` `__gen11_fw_ranges` (torvalds/linux 002c6ca75289), read
//!   as `fwtable_read32` does: `NEEDS_FORCE_WAKE(offset)` (`offset < 0x40000
//!   || offset >= 0x116000`), then the table's entry, then only the domains
//!   the part set up (`intel_uncore_fw_domains_init`: GT, RENDER and one
//!   domain per video engine of `i915_pci.c` `platform_engine_mask`);
//! - `gt/intel_workarounds.c` `mcr_ranges_gen8` (`mcr_range()` uses it for
//!   graphics versions 8 to 11) and `gt/intel_gt_mcr.c`
//!   `icl_l3bank_steering_table`: the replicated ranges and their steering;
//! - `gt/intel_sseu.c` `gen11_sseu_info_init`: 8 subslices on ICL, 4 on
//!   EHL/JSL; `GEN10_L3BANK_MASK` (0x0F): 4 L3 bank steering ids.
//!
//! Every 4-byte address below [`TOP`] and every described register is
//! compared. The kernel's "no force-wake" is our `aon` row or no row.

use crate::support::kernel_tables;
use kernel_tables::{check_addresses, check_registers, ours, Fw, Part, L3BANKS, MCR_GEN8};
use perfregs::hal::{ehl, icl, tgl};

/// `__gen11_fw_ranges`: `(start, end, domain)`, inclusive.
const GEN11_FW: &[(u64, u64, Fw)] = &[
    (0x0, 0x1fff, Fw::No),
    (0x2000, 0x26ff, Fw::Render),
    (0x2700, 0x2fff, Fw::Gt),
    (0x3000, 0x3fff, Fw::Render),
    (0x4000, 0x51ff, Fw::Gt),
    (0x5200, 0x7fff, Fw::Render),
    (0x8000, 0x813f, Fw::Gt),
    (0x8140, 0x815f, Fw::Render),
    (0x8160, 0x82ff, Fw::Gt),
    (0x8300, 0x84ff, Fw::Render),
    (0x8500, 0x87ff, Fw::Gt),
    (0x8800, 0x8bff, Fw::No),
    (0x8c00, 0x8cff, Fw::Render),
    (0x8d00, 0x94cf, Fw::Gt),
    (0x94d0, 0x955f, Fw::Render),
    (0x9560, 0x95ff, Fw::No),
    (0x9600, 0xafff, Fw::Gt),
    (0xb000, 0xb47f, Fw::Render),
    (0xb480, 0xdeff, Fw::Gt),
    (0xdf00, 0xe8ff, Fw::Render),
    (0xe900, 0x16dff, Fw::Gt),
    (0x16e00, 0x19fff, Fw::Render),
    (0x1a000, 0x23fff, Fw::Gt),
    (0x24000, 0x2407f, Fw::No),
    (0x24080, 0x2417f, Fw::Gt),
    (0x24180, 0x242ff, Fw::Render),
    (0x24300, 0x243ff, Fw::Gt),
    (0x24400, 0x24fff, Fw::Render),
    (0x25000, 0x3ffff, Fw::Gt),
    (0x40000, 0x1bffff, Fw::No),
    (0x1c0000, 0x1c3fff, Fw::Vdbox0),
    (0x1c4000, 0x1c7fff, Fw::No),
    (0x1c8000, 0x1cffff, Fw::Vebox0),
    (0x1d0000, 0x1d3fff, Fw::Vdbox2),
    (0x1d4000, 0x1dbfff, Fw::No),
];

/// Addresses checked: past the table's last entry (0x1DBFFF).
const TOP: u64 = 0x20_0000;

/// ICL: `BIT(RCS0) | BIT(BCS0) | BIT(VECS0) | BIT(VCS0) | BIT(VCS2)`; 1 slice, 8 subslices.
const ICL: Part = Part {
    project: &icl::PROJECT,
    fw: GEN11_FW,
    media: &[Fw::Vdbox0, Fw::Vdbox2, Fw::Vebox0],
    mcr: MCR_GEN8,
    mcr_group: ("subslice", 8),
};

/// EHL: `BIT(RCS0) | BIT(BCS0) | BIT(VCS0) | BIT(VECS0)`; 1 slice, 4 subslices.
const EHL: Part = Part {
    project: &ehl::PROJECT,
    fw: GEN11_FW,
    media: &[Fw::Vdbox0, Fw::Vebox0],
    mcr: MCR_GEN8,
    mcr_group: ("subslice", 4),
};

#[test]
fn the_restated_table_is_sorted_and_watertight() {
    kernel_tables::assert_watertight(GEN11_FW);
}

#[test]
fn icl_matches_the_kernels_gen11_tables() {
    assert_eq!(check_addresses(&ICL, TOP), TOP / 4);
    let regs = check_registers(&ICL);
    assert!(regs > 100, "only {regs} registers checked");
    // The EU flex counter controls (metric-set writes) are replicated.
    let flex = icl::PROJECT
        .register("EU_PERF_CNT_CTL0")
        .expect("described");
    assert_eq!(flex.replication, Some(("subslice", 8)));
    assert_eq!(flex.domain, Some("render"));
}

#[test]
fn ehl_matches_the_kernels_gen11_tables() {
    assert_eq!(check_addresses(&EHL, TOP), TOP / 4);
    let regs = check_registers(&EHL);
    assert!(regs > 100, "only {regs} registers checked");
    // No VCS2 on EHL: the kernel wakes nothing for VDBOX2's range.
    assert_eq!(EHL.entry(0x1d_0000), Some(Fw::Vdbox2));
    assert_eq!(ours(&ehl::PROJECT, 0x1d_0000), None);
    assert_eq!(ours(&icl::PROJECT, 0x1d_0000), Some("vdbox2"));
}

/// `intel_uncore_fw_domains_init` (Gen11+) and `intel_gt_regs.h`: the
/// request and acknowledge register of every domain.
fn check_domains(part: &Part, names: &[&str]) {
    let p = part.project;
    let got: Vec<&str> = p.domains.iter().map(|d| d.name).collect();
    assert_eq!(got, names, "{}", p.name);
    let addr = |name: Option<&str>| {
        name.and_then(|n| p.register(n))
            .map(|r| r.address)
            .unwrap_or_else(|| panic!("{}: {name:?} not described", p.name))
    };
    for d in p.domains.iter().filter(|d| !d.always_on) {
        let (req, ack) = match d.name {
            "render" => (0xa278, 0xd84),
            "gt" => (0xa188, 0x13_0044),
            v if v.starts_with("vdbox") => {
                let n: u64 = v[5..].parse().expect("index");
                (0xa540 + n * 4, 0xd50 + n * 4)
            }
            v if v.starts_with("vebox") => {
                let n: u64 = v[5..].parse().expect("index");
                (0xa560 + n * 4, 0xd70 + n * 4)
            }
            other => panic!("{}: unexpected domain {other}", p.name),
        };
        assert_eq!(
            (addr(d.request), addr(d.ack)),
            (req, ack),
            "{} {}",
            p.name,
            d.name
        );
        let request = p.register(d.request.expect("request")).expect("described");
        assert!(request.masked, "{} {}", p.name, request.name);
        // FORCEWAKE_KERNEL BIT(0), FORCEWAKE_USER BIT(1), FORCEWAKE_KERNEL_FALLBACK BIT(15).
        for (f, bit) in [("kernel", 0), ("user", 1), ("fallback", 15)] {
            assert_eq!(request.field(f).map(|x| (x.lsb, x.width)), Some((bit, 1)));
        }
    }
}

#[test]
fn gen11_domains_follow_the_engine_masks_and_the_kernels_registers() {
    check_domains(&ICL, &["aon", "gt", "render", "vdbox0", "vdbox2", "vebox0"]);
    check_domains(&EHL, &["aon", "gt", "render", "vdbox0", "vebox0"]);
    // The same request and ack addresses as TGL's PRM-described registers.
    for name in [
        "FORCEWAKE_GT",
        "FORCEWAKE_RENDER",
        "FORCEWAKE_ACK_GT",
        "FORCEWAKE_ACK_RENDER",
    ] {
        let ours = icl::PROJECT.register(name).map(|r| r.address);
        assert_eq!(
            ours,
            tgl::PROJECT.register(name).map(|r| r.address),
            "{name}"
        );
    }
}

/// `GEN8_MCR_SELECTOR` with the Gen11 layout, and the groups' fuses.
fn check_steering(part: &Part) {
    let p = part.project;
    assert_eq!(p.steering, Some("MCR_SELECTOR"));
    let sel = p.register("MCR_SELECTOR").expect("selector");
    assert_eq!(sel.address, 0xfdc);
    let f = |n: &str| sel.field(n).map(|x| (x.lsb, x.width));
    // GEN11_MCR_MULTICAST REG_BIT(31), GEN11_MCR_SLICE (& 0xf) << 27,
    // GEN11_MCR_SUBSLICE (& 0x7) << 24.
    assert_eq!(f("multicast"), Some((31, 1)));
    assert_eq!(f("slice_id"), Some((27, 4)));
    assert_eq!(f("subslice_id"), Some((24, 3)));
    // Every instance is reachable through the 3-bit subslice id.
    for g in p.groups {
        assert!(g.instances <= 8, "{} {}", p.name, g.name);
        let fuse = g.fuse.expect("fused");
        let reg = p.register(fuse.register).expect("fuse register");
        let field = reg.field(fuse.field).expect("fuse field");
        assert!(field.width >= g.instances, "{} {}", p.name, g.name);
        match g.name {
            // GEN11_GT_SUBSLICE_DISABLE: a set bit is a disabled subslice.
            "subslice" => assert_eq!((reg.address, fuse.set_means_present), (0x913c, false)),
            // GEN10_MIRROR_FUSE3: a set bit is a disabled L3 bank.
            "l3bank" => assert_eq!((reg.address, fuse.set_means_present), (0x9118, false)),
            other => panic!("{}: unexpected group {other}", p.name),
        }
    }
    let n = |g: &str| p.group(g).map(|g| g.instances);
    assert_eq!(
        (n("subslice"), n("l3bank")),
        (Some(part.mcr_group.1), Some(L3BANKS))
    );
}

#[test]
fn gen11_steering_is_the_kernels_selector_and_topology() {
    check_steering(&ICL);
    check_steering(&EHL);
}
