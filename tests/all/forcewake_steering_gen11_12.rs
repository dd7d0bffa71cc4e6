//! The typed force-wake guards and steering API on the kernel-described
//! Gen11 (ICL, EHL) and Gen12 (RKL, ADL, DG1) parts, run against the
//! emulator: the domains, replication groups and fuses of gt_gen11.yaml and
//! gt_gen12.yaml at work.
#![cfg(feature = "emu")]

use perfregs::emu::{Emulator, Outcome, Sku};
use perfregs::hal::meta::ProjectInfo;
use perfregs::hal::{dg1, icl, rkl, AlwaysAwake, Bits, Device, Register, WakeError};

fn gpu<P: perfregs::hal::Project>(p: &'static ProjectInfo, sku: Sku) -> Device<P, Emulator> {
    Device::new(Emulator::new(p, sku))
}

/// Values written to the MCR selector, in order.
fn selector_writes<P: perfregs::hal::Project>(gpu: &Device<P, Emulator>) -> Vec<u32> {
    gpu.with_bus(|e| {
        e.trace()
            .iter()
            .filter(|t| t.write && t.register == Some("MCR_SELECTOR"))
            .map(|t| t.value as u32)
            .collect()
    })
}

#[test]
fn icl_steers_each_subslice_through_the_gen11_selector() {
    // ICL GT2 with subslice 3 fused off (GT_SUBSLICE_DISABLE bit 3).
    let sku = Sku::for_project(&icl::PROJECT).fuse_dss(3);
    assert_eq!(sku.dss_enable, 0xf7);
    let gpu: Device<perfregs::hal::Icl, _> = gpu(&icl::PROJECT, sku);
    let addr = <icl::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
    // Render asleep (OACTXCONTROL, 0x2360, is in the kernel's render range
    // 0x2000..0x26FF): the access is terminated.
    let assumed = gpu.assume_awake::<icl::domains::Render>();
    gpu.write(icl::OACTXCONTROL, &assumed, |w| w.timer_enable(true));
    let ctx = <icl::OACTXCONTROL as Register>::ADDRESS;
    let last = gpu.with_bus(|e| e.trace().last().map(|t| (t.addr, t.outcome)));
    assert_eq!(last, Some((ctx, Outcome::Terminated)));

    let gt = gpu.forcewake::<icl::domains::Gt>().expect("gt wakes");
    let rw = gpu
        .forcewake::<icl::domains::Render>()
        .expect("render wakes");
    let mut mcr = gpu.steering(&gt);
    assert_eq!(
        mcr.instances::<icl::EU_PERF_CNT_CTL0>().collect::<Vec<_>>(),
        [0, 1, 2, 4, 5, 6, 7]
    );
    mcr.write(icl::EU_PERF_CNT_CTL0, &rw, |w| {
        w.value(Bits::new(0x1234).expect("fits"))
    });
    let each: Vec<(u32, u64)> = mcr
        .read_each(icl::EU_PERF_CNT_CTL0, &rw)
        .map(|(n, v)| (n, v.value().get()))
        .collect();
    assert_eq!(each.len(), 7);
    assert!(each.iter().all(|&(n, v)| n != 3 && v == 0x1234), "{each:?}");
    drop(mcr);
    // Unicast reads steered slice 0, subslice n (GEN11_MCR_SUBSLICE at 26:24),
    // and the selector is back to multicast (bit 31).
    let writes = selector_writes(&gpu);
    for n in [0u32, 1, 2, 4, 5, 6, 7] {
        assert!(writes.contains(&(n << 24)), "subslice {n}: {writes:x?}");
    }
    assert!(!writes.contains(&(3 << 24)), "fused subslice 3 steered");
    assert!(gpu.read(icl::MCR_SELECTOR, &AlwaysAwake).multicast());
    // The multicast write never reached the fused-off instance.
    assert_eq!(gpu.with_bus(|e| e.peek(addr, 3)), Some(0));
}

#[test]
fn rkl_has_two_dss_of_six_and_only_its_own_video_boxes() {
    // RKL (32 EUs): DSS 0 and 1 present (GT_GEOMETRY_DSS_ENABLE = 0b11).
    let sku = (2..6).fold(Sku::for_project(&rkl::PROJECT), |s, n| s.fuse_dss(n));
    assert_eq!(sku.dss_enable, 0b11);
    let gpu: Device<perfregs::hal::Rkl, _> = gpu(&rkl::PROJECT, sku);
    let gt = gpu.forcewake::<rkl::domains::Gt>().expect("gt wakes");
    let rw = gpu
        .forcewake::<rkl::domains::Render>()
        .expect("render wakes");
    let mut mcr = gpu.steering(&gt);
    assert_eq!(
        mcr.instances::<rkl::EU_PERF_CNT_CTL4>().collect::<Vec<_>>(),
        [0, 1]
    );
    mcr.write(rkl::EU_PERF_CNT_CTL4, &rw, |w| {
        w.value(Bits::new(0xbeef).expect("fits"))
    });
    assert_eq!(
        mcr.read_any(rkl::EU_PERF_CNT_CTL4, &rw)
            .map(|(n, v)| (n, v.value().get())),
        Some((0, 0xbeef))
    );
    assert!(
        mcr.read(rkl::EU_PERF_CNT_CTL4, 2, &rw).is_none(),
        "DSS 2 is fused off"
    );
    drop(mcr);
    // The video decode box's ack never comes when the part lacks it.
    let gpu: Device<perfregs::hal::Rkl, _> = gpu_without_vdbox0();
    gpu.set_poll_limit(20);
    assert_eq!(
        gpu.forcewake::<rkl::domains::Vdbox0>().err(),
        Some(WakeError::Timeout {
            domain: "vdbox0",
            polls: 20
        })
    );
}

fn gpu_without_vdbox0() -> Device<perfregs::hal::Rkl, Emulator> {
    gpu(
        &rkl::PROJECT,
        Sku::for_project(&rkl::PROJECT).without_vdbox(0),
    )
}

#[test]
fn dg1_steers_l3_banks_by_their_fuse() {
    // GEN10_MIRROR_FUSE3 bit 1: L3 bank 1 fused off.
    let sku = Sku::for_project(&dg1::PROJECT).fuse_l3bank(1);
    let gpu: Device<perfregs::hal::Dg1, _> = gpu(&dg1::PROJECT, sku);
    let gt = gpu.forcewake::<dg1::domains::Gt>().expect("gt wakes");
    let fuse = gpu.read(dg1::MIRROR_FUSE3, &gt);
    assert_eq!(fuse.l3bank_disable().get(), 0b0010);
    let p = &dg1::PROJECT;
    let l3 = p.group("l3bank").expect("group");
    assert_eq!(l3.instances, 4);
    // Every metric-set multicast register of DG1 sits in a DSS row.
    let row = p
        .row_at(<dg1::EU_PERF_CNT_CTL0 as Register>::ADDRESS)
        .expect("row");
    assert_eq!(
        (row.wake, row.group, row.instances),
        (Some("render"), Some("dss"), 6)
    );
    // VDBOX2 exists on DG1 (VCS2) and wakes.
    let _vd2 = gpu
        .forcewake::<dg1::domains::Vdbox2>()
        .expect("vdbox2 wakes");
}
