//! Fidelity of the force-wake rows transcribed from the Linux kernel's i915
//! (drivers/gpu/drm/i915/intel_uncore.c): on Gen6/Gen7 (non-VLV) and, by the
//! same code path, HSW and BDW (whose multicast rows
//! tests/kernel_forcewake_gen8.rs checks), `NEEDS_FORCE_WAKE(reg)` is `reg < 0x40000`
//! and such a register needs the one RENDER domain; nothing else needs a
//! domain. Every 4-byte address and every described register is compared
//! with that rule, re-stated here independently of the YAML rows.

use perfregs::hal::meta::ProjectInfo;
use perfregs::hal::{bdw, hsw, ivb, snb};

/// The kernel's Gen6/7 rule: the domain the kernel wakes for `addr`.
fn gen6_rule(addr: u64) -> Option<&'static str> {
    (addr < 0x4_0000).then_some("render")
}

/// Addresses checked: well past the rule's edge and past the ack registers
/// at 0x1300xx.
const TOP: u64 = 0x20_0000;

fn check_project(p: &ProjectInfo) {
    let mut checked = 0u64;
    for a in (0..TOP).step_by(4) {
        let row = p.row_at(a);
        assert_eq!(row.and_then(|r| r.wake), gen6_rule(a), "{} {a:#x}", p.name);
        // Force-wake rows are not replicated on these projects.
        assert_eq!(row.map_or(1, |r| r.instances), 1, "{} {a:#x}", p.name);
        checked += 1;
    }
    assert_eq!(checked, TOP / 4);
    let request = p.domain("render").and_then(|d| d.request);
    let mut below = 0;
    for r in p.registers {
        if Some(r.name) == request {
            // The request register itself needs no force-wake.
            assert_eq!(r.domain, None, "{} {}", p.name, r.name);
            continue;
        }
        assert_eq!(r.domain, gen6_rule(r.address), "{} {}", p.name, r.name);
        below += usize::from(r.address < 0x4_0000);
    }
    assert!(below > 0, "{}: no register below 0x40000", p.name);
}

/// The render domain of `p`: not always on, requested at `request`
/// (`(name, address, masked)`) and acknowledged at `ack` (`(name, address)`).
fn check_render_domain(p: &ProjectInfo, request: (&str, u64, bool), ack: (&str, u64)) {
    let render = p.domain("render").expect("a render domain");
    assert!(!render.always_on, "{}", p.name);
    assert_eq!(
        (render.request, render.ack),
        (Some(request.0), Some(ack.0)),
        "{}",
        p.name
    );
    let req = p.register(request.0).expect("request");
    assert_eq!(
        (req.address, req.masked),
        (request.1, request.2),
        "{}",
        p.name
    );
    let acked = p.register(ack.0).expect("ack");
    assert_eq!(acked.address, ack.1, "{}", p.name);
}

#[test]
fn ivb_follows_the_kernels_gen6_rule() {
    check_project(&ivb::PROJECT);
    check_render_domain(
        &ivb::PROJECT,
        ("FORCEWAKE_MT", 0xA188, true),
        ("FORCEWAKE_MT_ACK", 0x13_0040),
    );
}

#[test]
fn snb_follows_the_kernels_gen6_rule_with_an_unmasked_request() {
    check_project(&snb::PROJECT);
    // Gen6: val_set = FORCEWAKE_KERNEL, val_clear = 0 (not masked).
    check_render_domain(
        &snb::PROJECT,
        ("FORCEWAKE", 0xA18C, false),
        ("FORCEWAKE_ACK", 0x13_0090),
    );
}

#[test]
fn hsw_follows_the_same_rule() {
    check_project(&hsw::PROJECT);
}

/// BDW has the same force-wake rule; its rows are split at the Gen8
/// multicast ranges, whose replication tests/kernel_forcewake_gen8.rs checks
/// with the rest of BDW's table.
#[test]
fn bdw_wakes_render_below_0x40000_only() {
    for a in (0..TOP).step_by(4) {
        let row = bdw::PROJECT.row_at(a);
        assert_eq!(row.and_then(|r| r.wake), gen6_rule(a), "bdw {a:#x}");
    }
}
