//! Fidelity of the force-wake and multicast rows of BDW, VLV, CHV and SKL to
//! CNL, against the Linux kernel's i915 tables re-stated here independently
//! of the YAML: `intel_uncore.c` (torvalds/linux 002c6ca75289, v6.x)
//! `__gen6_fw_ranges` (BDW), `__vlv_fw_ranges`, `__chv_fw_ranges`,
//! `__gen9_fw_ranges` (GRAPHICS_VER 9 and 10: SKL..CNL; v5.x kernels give CNL
//! the same table), with `NEEDS_FORCE_WAKE` (below 0x40000 or from
//! 0x116000) and `find_fw_domain` (no row: no domain), and
//! `gt/intel_workarounds.c` `mcr_ranges_gen8` (GRAPHICS_VER 8..11).
//!
//! Every 4-byte address below 0x200000 and every described register is
//! compared. A kernel row with no domain (Gen9's 0xb00..0x1fff) is the
//! always-on domain `aon`; a kernel row needing RENDER and MEDIA is
//! described as waking both (`render+media`), and its registers' domain
//! type is the pair (a proof of both domains).

use crate::support::kernel_tables;
use kernel_tables::MCR_GEN8;
use perfregs::hal::meta::ProjectInfo;
use perfregs::hal::{bdw, bxt, cfl, chv, cnl, glk, kbl, skl, vlv};

const R: u8 = 1;
const M: u8 = 2;
const G: u8 = 4;
/// The kernel's `0`: a row that needs no force-wake.
const NONE: u8 = 0;

type Table = &'static [(u64, u64, u8)];

/// `__gen6_fw_ranges` (BDW: Gen8 and not CHV).
const GEN6: Table = &[(0x0, 0x3ffff, R)];

/// `__vlv_fw_ranges`.
const VLV: Table = &[
    (0x2000, 0x3fff, R),
    (0x5000, 0x7fff, R),
    (0xb000, 0x11fff, R),
    (0x12000, 0x13fff, M),
    (0x22000, 0x23fff, M),
    (0x2e000, 0x2ffff, R),
    (0x30000, 0x3ffff, M),
];

/// `__chv_fw_ranges`.
const CHV: Table = &[
    (0x2000, 0x3fff, R),
    (0x4000, 0x4fff, R | M),
    (0x5200, 0x7fff, R),
    (0x8000, 0x82ff, R | M),
    (0x8300, 0x84ff, R),
    (0x8500, 0x85ff, R | M),
    (0x8800, 0x88ff, M),
    (0x9000, 0xafff, R | M),
    (0xb000, 0xb47f, R),
    (0xd000, 0xd7ff, M),
    (0xe000, 0xe7ff, R),
    (0xf000, 0xffff, R | M),
    (0x12000, 0x13fff, M),
    (0x1a000, 0x1bfff, M),
    (0x1e800, 0x1e9ff, M),
    (0x30000, 0x37fff, M),
];

/// `__gen9_fw_ranges`.
const GEN9: Table = &[
    (0x0, 0xaff, G),
    (0xb00, 0x1fff, NONE),
    (0x2000, 0x26ff, R),
    (0x2700, 0x2fff, G),
    (0x3000, 0x3fff, R),
    (0x4000, 0x51ff, G),
    (0x5200, 0x7fff, R),
    (0x8000, 0x812f, G),
    (0x8130, 0x813f, M),
    (0x8140, 0x815f, R),
    (0x8160, 0x82ff, G),
    (0x8300, 0x84ff, R),
    (0x8500, 0x87ff, G),
    (0x8800, 0x89ff, M),
    (0x8a00, 0x8bff, G),
    (0x8c00, 0x8cff, R),
    (0x8d00, 0x93ff, G),
    (0x9400, 0x97ff, R | M),
    (0x9800, 0xafff, G),
    (0xb000, 0xb47f, R),
    (0xb480, 0xcfff, G),
    (0xd000, 0xd7ff, M),
    (0xd800, 0xdfff, G),
    (0xe000, 0xe8ff, R),
    (0xe900, 0x11fff, G),
    (0x12000, 0x13fff, M),
    (0x14000, 0x19fff, G),
    (0x1a000, 0x1e9ff, M),
    (0x1ea00, 0x243ff, G),
    (0x24400, 0x247ff, R),
    (0x24800, 0x2ffff, G),
    (0x30000, 0x3ffff, M),
];

const TOP: u64 = 0x20_0000;

/// The kernel's domains for `a`: `None` when it wakes nothing because the
/// table has no row (or `NEEDS_FORCE_WAKE` is false), else the row's set.
fn kernel(table: Table, a: u64) -> Option<u8> {
    // NEEDS_FORCE_WAKE(a) is `a < 0x40000 || a >= 0x116000`: false here.
    if (0x4_0000..0x11_6000).contains(&a) {
        return None;
    }
    table
        .iter()
        .find(|(s, e, _)| (*s..=*e).contains(&a))
        .map(|r| r.2)
}

/// The domain name the description must give for a kernel set.
fn expected_name(set: u8) -> &'static str {
    match set {
        NONE => "aon",
        R => "render",
        M => "media",
        G => "gt",
        // Two domains, woken together.
        x if x == R | M => "render+media",
        other => panic!("no such kernel set {other}"),
    }
}

/// Counts from one project's comparison.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    addresses: u64,
    woken: u64,
    render_and_media: u64,
    replicated: u64,
    registers: usize,
}

fn check(p: &ProjectInfo, table: Table, mcr: Option<u32>) -> Counts {
    let mut c = Counts::default();
    for a in (0..TOP).step_by(4) {
        c.addresses += 1;
        let row = p.row_at(a);
        let want = kernel(table, a);
        assert_eq!(
            row.and_then(|r| r.wake),
            want.map(expected_name),
            "{} {a:#x}",
            p.name
        );
        c.woken += u64::from(want.is_some_and(|s| s != NONE));
        c.render_and_media += u64::from(want == Some(R | M));
        let multicast = mcr.filter(|_| MCR_GEN8.iter().any(|(s, e)| (*s..=*e).contains(&a)));
        match multicast {
            Some(n) => {
                let r = row.expect("a multicast address lies in a row");
                assert_eq!(
                    (r.group, r.instances),
                    (Some("slice_subslice"), n),
                    "{} {a:#x}",
                    p.name
                );
                c.replicated += 1;
            }
            None => assert_eq!(row.map_or(1, |r| r.instances), 1, "{} {a:#x}", p.name),
        }
    }
    let requests: Vec<_> = p.domains.iter().filter_map(|d| d.request).collect();
    for r in p.registers {
        if requests.contains(&r.name) {
            // A request register needs no force-wake itself.
            assert_eq!(r.domain, None, "{} {}", p.name, r.name);
            continue;
        }
        let want = kernel(table, r.address).map(expected_name);
        assert_eq!(r.domain, want, "{} {}", p.name, r.name);
        let multicast =
            mcr.filter(|_| MCR_GEN8.iter().any(|(s, e)| (*s..=*e).contains(&r.address)));
        assert_eq!(
            r.replication,
            multicast.map(|n| ("slice_subslice", n)),
            "{} {}",
            p.name,
            r.name
        );
        c.registers += 1;
    }
    assert!(c.registers > 0, "{}: no register compared", p.name);
    println!("{}: {c:?}", p.name);
    c
}

/// Addresses (4-byte steps) of `table` the kernel gives `set`, from the table.
fn table_count(table: Table, set: u8) -> u64 {
    table
        .iter()
        .filter(|r| r.2 == set)
        .map(|(s, e, _)| (e - s + 1) / 4)
        .sum()
}

fn mcr_addresses() -> u64 {
    MCR_GEN8.iter().map(|(s, e)| (e - s + 1) / 4).sum()
}

#[test]
fn bdw_follows_the_gen6_table_and_the_gen8_multicast_ranges() {
    let c = check(&bdw::PROJECT, GEN6, Some(8));
    assert_eq!(c.woken, 0x4_0000 / 4);
    assert_eq!(c.replicated, mcr_addresses());
    assert_eq!(c.render_and_media, 0);
}

#[test]
fn vlv_follows_its_table_and_has_no_multicast() {
    let c = check(&vlv::PROJECT, VLV, None);
    assert_eq!(c.woken, table_count(VLV, R) + table_count(VLV, M));
    assert_eq!(c.replicated, 0);
    for (name, req, ack, addr) in [
        ("render", "FORCEWAKE_VLV", "FORCEWAKE_ACK_VLV", 0x13_00B0),
        (
            "media",
            "FORCEWAKE_MEDIA_VLV",
            "FORCEWAKE_ACK_MEDIA_VLV",
            0x13_00B8,
        ),
    ] {
        for p in [&vlv::PROJECT, &chv::PROJECT] {
            let d = p.domain(name).expect("domain");
            assert_eq!((d.request, d.ack), (Some(req), Some(ack)), "{}", p.name);
            let r = p.register(req).expect("request");
            assert!(r.masked);
            assert_eq!(r.address, addr);
            assert_eq!(p.register(ack).expect("ack").address, addr + 4);
        }
    }
}

#[test]
fn chv_follows_its_table_and_the_gen8_multicast_ranges() {
    let c = check(&chv::PROJECT, CHV, Some(4));
    assert_eq!(c.render_and_media, table_count(CHV, R | M));
    assert!(c.render_and_media > 0);
    assert_eq!(c.replicated, mcr_addresses());
}

#[test]
fn skl_to_cnl_follow_the_gen9_table_and_the_gen8_multicast_ranges() {
    for (p, n) in [
        (&skl::PROJECT, 12),
        (&kbl::PROJECT, 12),
        (&bxt::PROJECT, 4),
        (&glk::PROJECT, 4),
        (&cfl::PROJECT, 8),
        (&cnl::PROJECT, 8),
    ] {
        let c = check(p, GEN9, Some(n));
        assert_eq!(c.render_and_media, table_count(GEN9, R | M), "{}", p.name);
        assert_eq!(c.replicated, mcr_addresses(), "{}", p.name);
        assert_eq!(p.group("slice_subslice").map(|g| g.instances), Some(n));
        for (name, req, req_at, ack, ack_at) in [
            (
                "render",
                "FORCEWAKE_RENDER",
                0xA278,
                "FORCEWAKE_ACK_RENDER",
                0xD84,
            ),
            ("gt", "FORCEWAKE_GT", 0xA188, "FORCEWAKE_ACK_GT", 0x13_0044),
            (
                "media",
                "FORCEWAKE_MEDIA",
                0xA270,
                "FORCEWAKE_ACK_MEDIA",
                0xD88,
            ),
        ] {
            let d = p.domain(name).expect("domain");
            assert_eq!((d.request, d.ack), (Some(req), Some(ack)), "{}", p.name);
            let r = p.register(req).expect("request");
            assert!(r.masked);
            assert_eq!(r.address, req_at);
            assert_eq!(p.register(ack).expect("ack").address, ack_at);
        }
        assert!(p.domain("aon").expect("aon").always_on);
    }
}

#[test]
fn gen8_to_gen10_steer_with_the_gen8_selector() {
    for p in [
        &bdw::PROJECT,
        &chv::PROJECT,
        &skl::PROJECT,
        &bxt::PROJECT,
        &kbl::PROJECT,
        &glk::PROJECT,
        &cfl::PROJECT,
        &cnl::PROJECT,
    ] {
        assert_eq!(p.steering, Some("MCR_SELECTOR"), "{}", p.name);
        let sel = p.register("MCR_SELECTOR").expect("selector");
        assert_eq!(sel.address, 0xFDC);
        let f = |n| sel.field(n).map(|f| (f.lsb, f.width));
        // GEN8_MCR_SLICE(s) = (s & 3) << 26, GEN8_MCR_SUBSLICE(s) = (s & 3) << 24.
        assert_eq!(f("slice_id"), Some((26, 2)), "{}", p.name);
        assert_eq!(f("subslice_id"), Some((24, 2)), "{}", p.name);
        assert_eq!(f("multicast"), None, "{}: no multicast bit", p.name);
        // The L3 range 0xb000..0xb3ff is one of mcr_ranges_gen8 here, steered
        // by slice and subslice like the others: intel_gt_mcr_init gives
        // the L3BANK steering table (icl_l3bank_steering_table, 0xb100..0xb3ff)
        // to graphics versions 11 up to 12.55 only (kernel_forcewake_gen11.rs).
        assert!(p.group("l3bank").is_none(), "{}", p.name);
        for a in (0xb000..0xb400).step_by(4) {
            let row = p.row_at(a).expect("a row");
            assert_eq!(row.group, Some("slice_subslice"), "{} {a:#x}", p.name);
        }
    }
    assert_eq!(vlv::PROJECT.steering, None);
}
