//! Steering of the graphics 12.55+ projects (DG2, MTL, LNL, BMG, PTL)
//! against Linux 7.0's xe (strongtz/i915-sriov-dkms 4e91bab74ede, "sync
//! 7.0"), whose rules are re-stated here from the source, not from the
//! descriptions:
//!
//! - `xe_gt_mcr.c` `dss_per_group` (fallback 4 from graphics 12.50 when the
//!   GuC gives no slice counts) and `xe_gt_mcr_get_dss_steering`: DSS n is
//!   group `n / dss_per_group`, instance `n % dss_per_group`;
//! - `rw_with_mcr_steering`: from 12.70 the selector is MTL_MCR_SELECTOR
//!   (0xfd4; `MTL_MCR_GROUPID` 11:8, `MTL_MCR_INSTANCEID` 3:0), before it
//!   MCR_SELECTOR (0xfdc; `MCR_SLICE_MASK` 30:27, `MCR_SUBSLICE_MASK`
//!   26:24), `MCR_MULTICAST` bit 31 set for a read, cleared for a write and
//!   written back after it;
//! - `mcr_lock` / `mcr_unlock` (12.70+): STEER_SEMAPHORE (0xfd0) is polled
//!   until a read returns 1 and released by writing 1;
//! - the media GT's accesses go through its own `xe_mmio`, +0x380000.
//!
//! Each test runs only when its project's hal feature is on (run with
//! `--features perfregs-hal/dg2,perfregs-hal/mtl,...`).

#![allow(unused_imports, dead_code)]

use hal::{Bus, Device, Register};
use perfregs_emu::{Emulator, Sku, TraceEntry, WarningKind};

/// The kernel's `dss_per_group` fallback from graphics 12.50 on.
const KERNEL_DSS_PER_GROUP: u32 = 4;
const MCR_MULTICAST: u32 = 1 << 31;
const STEER_SEMAPHORE: u64 = 0xfd0;
const MTL_MCR_SELECTOR: u64 = 0xfd4;
const MCR_SELECTOR: u64 = 0xfdc;
const MEDIA_GSI: u64 = 0x38_0000;

/// The kernel's selector value for `group`, `instance` from 12.70 on.
fn mtl_steer(group: u32, instance: u32) -> u32 {
    (group & 0xf) << 8 | (instance & 0xf)
}

/// The kernel's selector value before 12.70.
fn pre_mtl_steer(group: u32, instance: u32) -> u32 {
    (group & 0xf) << 27 | (instance & 0x7) << 24
}

/// `(addr, write, value)` of each traced access.
fn accesses(trace: &[TraceEntry]) -> Vec<(u64, bool, u32)> {
    trace
        .iter()
        .map(|t| (t.addr, t.write, t.value as u32))
        .collect()
}

fn no_semaphore_warnings(e: &Emulator) {
    let bad: Vec<_> = e
        .warnings()
        .into_iter()
        .filter(|w| matches!(w.kind, WarningKind::SteeredWithoutSemaphore { .. }))
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
}

/// The proof for the DSS registers: render's guard, or none (Xe2/Xe3
/// describe no per-register domain: `aon`).
macro_rules! wake {
    (render, $gpu:ident, $p:ident) => {
        $gpu.forcewake::<$p::domains::Render>()
            .expect("render wakes")
    };
    (aon, $gpu:ident, $p:ident) => {
        hal::AlwaysAwake
    };
}

/// Every DSS of project `$p` (module `$m`, type `$t`): the HAL's group and
/// instance are the kernel's, a steered read of it puts the kernel's
/// selector value on the bus, and with `$sem` the access is wrapped in the
/// semaphore protocol.
macro_rules! every_dss {
    ($name:ident, $feature:literal, $m:ident, $t:ty, $steer:ident, $sel:expr, $sem:expr, $wake:ident) => {
        #[cfg(perfregs_hal = $feature)]
        #[test]
        fn $name() {
            use hal::$m as p;
            use hal::register::ReplicationGroup;
            let sku = Sku::for_project(&p::PROJECT);
            let n_dss = <p::groups::Dss as ReplicationGroup>::INSTANCES;
            assert!(n_dss >= 8, "{} DSS", n_dss);
            let gpu: Device<$t, Emulator> = Device::new(Emulator::new(&p::PROJECT, sku));
            let gt = gpu.forcewake::<p::domains::Gt>().expect("gt wakes");
            let rw = wake!($wake, gpu, p);
            let mut mcr = gpu.steering(&gt);
            // The multicast write (every DSS gets n + 1 from its own unicast
            // write below), then each DSS read back.
            for n in 0..n_dss {
                let ok = mcr.write_one(p::EU_PERF_CNT_CTL0, n, &rw, |w| {
                    w.value(hal::Bits::new(u64::from(n) + 1).expect("fits"))
                });
                assert!(ok, "DSS {n} present");
            }
            gpu.with_bus(|e| e.take_trace());
            for n in 0..n_dss {
                let (g, i) = (n / KERNEL_DSS_PER_GROUP, n % KERNEL_DSS_PER_GROUP);
                let v = mcr.read(p::EU_PERF_CNT_CTL0, n, &rw).expect("present");
                assert_eq!(v.value().get(), u64::from(n) + 1, "DSS {n}");
                let t = gpu.with_bus(|e| e.take_trace());
                let sel_writes: Vec<u32> = t
                    .iter()
                    .filter(|x| x.write && x.addr == $sel)
                    .map(|x| x.value as u32)
                    .collect();
                let want = $steer(g, i);
                assert!(
                    sel_writes.iter().any(|&v| v & !MCR_MULTICAST == want),
                    "DSS {n}: kernel group {g} instance {i} = {want:#x}, selector writes {sel_writes:x?}"
                );
                if $sem {
                    // Read of the semaphore (taken), selector with the
                    // multicast bit (a read), the register, release.
                    let a = accesses(&t);
                    let reg = <p::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
                    assert_eq!(
                        a,
                        [
                            (STEER_SEMAPHORE, false, 1),
                            ($sel, true, want | MCR_MULTICAST),
                            (reg, false, n + 1),
                            (STEER_SEMAPHORE, true, 1),
                        ],
                        "DSS {n}"
                    );
                }
                // The HAL's own encoding agrees with the kernel's.
                let dss_per = <p::groups::Dss as ReplicationGroup>::PER_GROUP;
                let sel = hal::register::Selector {
                    address: $sel,
                    multicast: u64::from(MCR_MULTICAST),
                    slice: if $sel == MTL_MCR_SELECTOR { (8, 4) } else { (27, 4) },
                    subslice: if $sel == MTL_MCR_SELECTOR { (0, 4) } else { (24, 3) },
                    semaphore: None,
                };
                assert_eq!(hal::group_instance(&sel, dss_per, n), (g, i), "DSS {n}");
            }
            drop(mcr);
            gpu.with_bus(|e| no_semaphore_warnings(e));
        }
    };
}

every_dss!(
    dg2_every_dss_is_steered_as_the_kernel_does,
    "dg2",
    dg2,
    hal::Dg2,
    pre_mtl_steer,
    MCR_SELECTOR,
    false,
    render
);
every_dss!(
    mtl_every_dss_is_steered_as_the_kernel_does,
    "mtl",
    mtl,
    hal::Mtl,
    mtl_steer,
    MTL_MCR_SELECTOR,
    true,
    render
);
every_dss!(
    lnl_every_dss_is_steered_as_the_kernel_does,
    "lnl",
    lnl,
    hal::Lnl,
    mtl_steer,
    MTL_MCR_SELECTOR,
    true,
    aon
);
every_dss!(
    bmg_every_dss_is_steered_as_the_kernel_does,
    "bmg",
    bmg,
    hal::Bmg,
    mtl_steer,
    MTL_MCR_SELECTOR,
    true,
    aon
);
every_dss!(
    ptl_every_dss_is_steered_as_the_kernel_does,
    "ptl",
    ptl,
    hal::Ptl,
    mtl_steer,
    MTL_MCR_SELECTOR,
    true,
    aon
);

#[cfg(perfregs_hal = "mtl")]
mod mtl {
    use super::*;
    use hal::mtl as p;

    fn gpu(sku: Sku) -> Device<hal::Mtl, Emulator> {
        Device::new(Emulator::new(&p::PROJECT, sku))
    }

    #[test]
    fn a_unicast_write_takes_the_semaphore_and_leaves_the_selector_multicast() {
        let gpu = gpu(Sku::for_project(&p::PROJECT));
        let gt = gpu.forcewake::<p::domains::Gt>().expect("gt wakes");
        let rw = gpu.forcewake::<p::domains::Render>().expect("render wakes");
        let mut mcr = gpu.steering(&gt);
        gpu.with_bus(|e| e.take_trace());
        // DSS 5: group 1, instance 1.
        let ok = mcr.write_one(p::EU_PERF_CNT_CTL0, 5, &rw, |w| {
            w.value(hal::Bits::new(0x55).expect("fits"))
        });
        assert!(ok);
        let reg = <p::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
        let t = gpu.with_bus(|e| e.take_trace());
        assert_eq!(
            accesses(&t),
            [
                (STEER_SEMAPHORE, false, 1),
                (MTL_MCR_SELECTOR, true, mtl_steer(1, 1)),
                (reg, true, 0x55),
                (MTL_MCR_SELECTOR, true, MCR_MULTICAST),
                (STEER_SEMAPHORE, true, 1),
            ]
        );
        assert_eq!(gpu.with_bus(|e| e.peek(reg, 5)), Some(0x55));
        assert_eq!(gpu.with_bus(|e| e.peek(reg, 4)), Some(0));
        // A multicast write: the semaphore around it, the selector untouched.
        mcr.write(p::EU_PERF_CNT_CTL0, &rw, |w| {
            w.value(hal::Bits::new(7).expect("fits"))
        });
        let t = gpu.with_bus(|e| e.take_trace());
        assert_eq!(
            accesses(&t),
            [
                (STEER_SEMAPHORE, false, 1),
                (reg, true, 7),
                (STEER_SEMAPHORE, true, 1),
            ]
        );
        drop(mcr);
        // Dropping the handle writes nothing: the selector is multicast and
        // the semaphore free.
        assert!(gpu.with_bus(|e| e.take_trace()).is_empty());
        assert_eq!(gpu.with_bus(|e| e.read32(STEER_SEMAPHORE)), 1);
        gpu.with_bus(|e| no_semaphore_warnings(e));
    }

    #[test]
    fn the_media_oaddrm_group_goes_through_the_media_selector_and_semaphore() {
        let gpu = gpu(Sku::for_project(&p::PROJECT));
        let gt = gpu.forcewake::<p::domains::Gt>().expect("gt wakes");
        let v0 = gpu.forcewake::<p::domains::Vdbox0>().expect("vdbox0 wakes");
        let v2 = gpu.forcewake::<p::domains::Vdbox2>().expect("vdbox2 wakes");
        let both = (&v0, &v2);
        let mut mcr = gpu.steering(&gt);
        let reg = p::OAM_MPESn.at::<3>();
        let addr = reg.address();
        gpu.with_bus(|e| e.take_trace());
        // OADDRM instance 1: group 1, instance 0 (init_steering_oaddrm).
        assert!(mcr.write_one(reg, 1, &both, |w| w
            .value(hal::Bits::new(0x2603).expect("fits"))));
        let t = gpu.with_bus(|e| e.take_trace());
        assert_eq!(
            accesses(&t),
            [
                (MEDIA_GSI + STEER_SEMAPHORE, false, 1),
                (MEDIA_GSI + MTL_MCR_SELECTOR, true, mtl_steer(1, 0)),
                (addr, true, 0x2603),
                (MEDIA_GSI + MTL_MCR_SELECTOR, true, MCR_MULTICAST),
                (MEDIA_GSI + STEER_SEMAPHORE, true, 1),
            ]
        );
        assert_eq!(gpu.with_bus(|e| e.peek(addr, 1)), Some(0x2603));
        assert_eq!(gpu.with_bus(|e| e.peek(addr, 0)), Some(0));
        let reg = p::OAM_MPESn.at::<3>();
        let got = mcr.read(reg, 1, &both).map(|v| v.value().get());
        assert_eq!(got, Some(0x2603));
        // The render GT's selector was never touched.
        let render_sel = gpu.with_bus(|e| {
            e.trace()
                .iter()
                .any(|x| x.addr == MTL_MCR_SELECTOR || x.addr == STEER_SEMAPHORE)
        });
        assert!(!render_sel);
        drop(mcr);
        gpu.with_bus(|e| no_semaphore_warnings(e));
    }

    #[test]
    fn the_emulator_warns_of_a_steered_access_without_the_semaphore() {
        let gpu = gpu(Sku::for_project(&p::PROJECT));
        let _gt = gpu.forcewake::<p::domains::Gt>().expect("gt wakes");
        let _rw = gpu.forcewake::<p::domains::Render>().expect("render wakes");
        let reg = <p::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
        gpu.with_bus(|e| {
            // Steered by hand, no semaphore: warned, the access still made.
            e.write32(MTL_MCR_SELECTOR, mtl_steer(0, 2));
            e.write32(reg, 9);
            let w: Vec<_> = e
                .warnings()
                .into_iter()
                .filter_map(|w| match w.kind {
                    WarningKind::SteeredWithoutSemaphore { addr, write, .. } => Some((addr, write)),
                    _ => None,
                })
                .collect();
            assert_eq!(w, [(reg, true)]);
            assert_eq!(e.peek(reg, 2), Some(9));
            // The same with the semaphore taken: no new warning; a second
            // read of the semaphore while held returns 0.
            assert_eq!(e.read32(STEER_SEMAPHORE), 1);
            assert_eq!(e.read32(STEER_SEMAPHORE), 0);
            assert_eq!(e.read32(reg), 9);
            e.write32(MTL_MCR_SELECTOR, MCR_MULTICAST);
            e.write32(STEER_SEMAPHORE, 1);
            let n = e
                .warnings()
                .iter()
                .filter(|w| matches!(w.kind, WarningKind::SteeredWithoutSemaphore { .. }))
                .count();
            assert_eq!(n, 1);
            assert_eq!(e.read32(STEER_SEMAPHORE), 1, "given back");
            e.write32(STEER_SEMAPHORE, 1);
        });
    }

    #[test]
    fn a_fused_off_dss_reads_zero_and_drops_unicast_writes() {
        // DSS 5 (group 1, instance 1) fused off.
        let sku = Sku::for_project(&p::PROJECT).fuse_dss(5);
        let gpu = gpu(sku);
        let gt = gpu.forcewake::<p::domains::Gt>().expect("gt wakes");
        let rw = gpu.forcewake::<p::domains::Render>().expect("render wakes");
        let reg = <p::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
        let mut mcr = gpu.steering(&gt);
        assert!(!mcr.instances::<p::EU_PERF_CNT_CTL0>().any(|n| n == 5));
        assert!(mcr.read(p::EU_PERF_CNT_CTL0, 5, &rw).is_none());
        mcr.write(p::EU_PERF_CNT_CTL0, &rw, |w| {
            w.value(hal::Bits::new(3).expect("fits"))
        });
        drop(mcr);
        assert_eq!(gpu.with_bus(|e| e.peek(reg, 5)), Some(0));
        assert_eq!(gpu.with_bus(|e| e.peek(reg, 4)), Some(3));
        // Steered there by hand, under the semaphore: the read is 0, the
        // unicast write dropped.
        gpu.with_bus(|e| {
            assert_eq!(e.read32(STEER_SEMAPHORE), 1);
            e.write32(MTL_MCR_SELECTOR, mtl_steer(1, 1));
            e.write32(reg, 0x77);
            e.write32(MTL_MCR_SELECTOR, mtl_steer(1, 1) | MCR_MULTICAST);
            assert_eq!(e.read32(reg), 0);
            e.write32(MTL_MCR_SELECTOR, MCR_MULTICAST);
            e.write32(STEER_SEMAPHORE, 1);
            assert_eq!(e.peek(reg, 5), Some(0));
            let fused = e
                .warnings()
                .iter()
                .filter(|w| {
                    matches!(
                        w.kind,
                        WarningKind::FusedOff {
                            instance: Some(5),
                            ..
                        }
                    )
                })
                .count();
            assert_eq!(fused, 2, "the write and the read");
            no_semaphore_warnings(e);
        });
    }

    #[test]
    fn a_semaphore_firmware_holds_is_waited_for_then_counted_not_released() {
        let gpu = gpu(Sku::for_project(&p::PROJECT));
        let gt = gpu.forcewake::<p::domains::Gt>().expect("gt wakes");
        let rw = gpu.forcewake::<p::domains::Render>().expect("render wakes");
        // Someone else holds it.
        assert_eq!(gpu.with_bus(|e| e.read32(STEER_SEMAPHORE)), 1);
        let mut mcr = gpu.steering(&gt);
        gpu.with_bus(|e| e.take_trace());
        let v = mcr.read(p::EU_PERF_CNT_CTL0, 0, &rw);
        assert!(v.is_some());
        assert_eq!(mcr.semaphore_timeouts(), 1);
        let t = gpu.with_bus(|e| e.take_trace());
        let polls = t
            .iter()
            .filter(|x| x.addr == STEER_SEMAPHORE && !x.write)
            .count();
        assert_eq!(polls as u32, hal::SEMAPHORE_POLLS);
        assert!(
            !t.iter().any(|x| x.addr == STEER_SEMAPHORE && x.write),
            "not ours to give back"
        );
    }
}

#[cfg(perfregs_hal = "dg2")]
mod dg2 {
    use super::*;
    use hal::dg2 as p;

    #[test]
    fn dg2_fused_off_dss_and_no_semaphore() {
        // DSS 9: group 2, instance 1 (MCR_SELECTOR slice 2, subslice 1).
        let sku = Sku::for_project(&p::PROJECT).fuse_dss(9);
        let gpu: Device<hal::Dg2, Emulator> = Device::new(Emulator::new(&p::PROJECT, sku));
        let gt = gpu.forcewake::<p::domains::Gt>().expect("gt wakes");
        let rw = gpu.forcewake::<p::domains::Render>().expect("render wakes");
        let reg = <p::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
        let mut mcr = gpu.steering(&gt);
        assert!(mcr.read(p::EU_PERF_CNT_CTL0, 9, &rw).is_none());
        assert!(!mcr.write_one(p::EU_PERF_CNT_CTL0, 9, &rw, |w| w));
        mcr.write(p::EU_PERF_CNT_CTL0, &rw, |w| {
            w.value(hal::Bits::new(4).expect("fits"))
        });
        drop(mcr);
        assert_eq!(gpu.with_bus(|e| e.peek(reg, 9)), Some(0));
        assert_eq!(gpu.with_bus(|e| e.peek(reg, 8)), Some(4));
        gpu.with_bus(|e| {
            e.write32(MCR_SELECTOR, pre_mtl_steer(2, 1));
            e.write32(reg, 0x77);
            assert_eq!(e.read32(reg), 0);
            e.write32(MCR_SELECTOR, MCR_MULTICAST);
            // No semaphore before 12.70: nothing to warn about.
            no_semaphore_warnings(e);
            assert!(!e.trace().iter().any(|x| x.addr == STEER_SEMAPHORE));
        });
    }
}
