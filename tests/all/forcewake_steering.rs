//! The typed force-wake guards and steering API, run against the emulator.
#![cfg(feature = "emu")]

use perfregs::emu::{Emulator, Outcome, Sku};
use perfregs::hal::{tgl, AlwaysAwake, Bits, BusyError, Device, Register, Tgl, WakeError};

fn tgl_gpu(sku: Sku) -> Device<Tgl, Emulator> {
    Device::new(Emulator::new(&tgl::PROJECT, sku))
}

fn outcomes<P: perfregs::hal::Project>(gpu: &Device<P, Emulator>, addr: u64) -> Vec<Outcome> {
    gpu.with_bus(|e| {
        e.trace()
            .iter()
            .filter(|t| t.addr == addr)
            .map(|t| t.outcome)
            .collect()
    })
}

#[test]
fn asleep_accesses_are_terminated_and_a_guard_wakes_the_domain() {
    let gpu = tgl_gpu(Sku::default());
    let addr = <tgl::OAR_OACONTROL as Register>::ADDRESS;
    // Asleep: the (deliberately wrong) assumption is caught by the hardware.
    let assumed = gpu.assume_awake::<tgl::domains::Render>();
    gpu.write(tgl::OAR_OACONTROL, &assumed, |w| w.counter_enable(true));
    assert_eq!(gpu.read(tgl::OAR_OACONTROL, &assumed).bits(), 0);
    assert_eq!(
        outcomes(&gpu, addr),
        [Outcome::Terminated, Outcome::Terminated]
    );
    {
        let rw = gpu
            .forcewake::<tgl::domains::Render>()
            .expect("render wakes");
        assert!(gpu.with_bus(|e| e.awake::<tgl::domains::Render>()));
        gpu.write(tgl::OAR_OACONTROL, &rw, |w| w.counter_enable(true));
        assert!(gpu.read(tgl::OAR_OACONTROL, &rw).counter_enable());
    }
    // The guard is gone: released (the request bit is withdrawn).
    assert!(!gpu.with_bus(|e| e.awake::<tgl::domains::Render>()));
    let last = outcomes(&gpu, addr);
    assert_eq!(last[2..], [Outcome::Ok, Outcome::Ok]);
}

#[test]
fn guards_are_reference_counted() {
    let gpu = tgl_gpu(Sku::default());
    let a = gpu.forcewake::<tgl::domains::Gt>().expect("gt");
    let requests = |gpu: &Device<Tgl, Emulator>| {
        gpu.with_bus(|e| {
            e.trace()
                .iter()
                .filter(|t| t.write && t.register == Some("FORCEWAKE_GT"))
                .count()
        })
    };
    assert_eq!(requests(&gpu), 1);
    let b = gpu.forcewake::<tgl::domains::Gt>().expect("gt again");
    let c = b.clone();
    assert_eq!(
        (gpu.wake_count::<tgl::domains::Gt>(), requests(&gpu)),
        (3, 1)
    );
    drop(a);
    drop(b);
    assert!(
        gpu.with_bus(|e| e.awake::<tgl::domains::Gt>()),
        "still held by c"
    );
    drop(c);
    assert_eq!(
        (gpu.wake_count::<tgl::domains::Gt>(), requests(&gpu)),
        (0, 2)
    );
    assert!(!gpu.with_bus(|e| e.awake::<tgl::domains::Gt>()));
}

#[test]
fn the_ack_is_polled_and_a_missing_ack_is_an_error() {
    let sku = Sku {
        wake_latency: 25,
        ..Sku::default()
    };
    let gpu = tgl_gpu(sku);
    let t0 = gpu.with_bus(|e| e.now());
    let _rw = gpu
        .forcewake::<tgl::domains::Render>()
        .expect("acks after 25 ticks");
    let waited = gpu.with_bus(|e| e.now()) - t0;
    assert!((25..=27).contains(&waited), "waited {waited} ticks");
    // VDBOX1 is not present on this SKU: its ack never comes.
    let gpu = tgl_gpu(Sku {
        vdbox_present: 0b1,
        ..Sku::default()
    });
    gpu.set_poll_limit(50);
    let err = gpu.forcewake::<tgl::domains::Vdbox1>().err();
    assert_eq!(
        err,
        Some(WakeError::Timeout {
            domain: "vdbox1",
            polls: 50
        })
    );
    assert_eq!(gpu.wake_count::<tgl::domains::Vdbox1>(), 0);
    // The request was withdrawn after the timeout.
    let last = gpu.with_bus(|e| e.trace().iter().rev().find(|t| t.write).map(|t| t.value));
    assert_eq!(last, Some(1 << 16));
}

#[test]
fn steering_reads_each_instance_and_skips_fused_ones() {
    let gpu = tgl_gpu(Sku::default().fuse_dss(2));
    let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt");
    let rw = gpu.forcewake::<tgl::domains::Render>().expect("render");
    let mut mcr = gpu.steering(&gt);
    assert_eq!(
        gpu.try_steering(&gt).err(),
        Some(BusyError::Steering),
        "exclusive"
    );
    mcr.write(tgl::EU_PERF_CNT_CTL0, &rw, |w| {
        w.value(Bits::new(0xABCD).expect("fits"))
    });
    let each: Vec<(u32, u64)> = mcr
        .read_each(tgl::EU_PERF_CNT_CTL0, &rw)
        .map(|(n, v)| (n, v.value().get()))
        .collect();
    assert_eq!(
        each,
        [
            (0, 0xABCD),
            (1, 0xABCD),
            (3, 0xABCD),
            (4, 0xABCD),
            (5, 0xABCD)
        ]
    );
    assert!(
        mcr.read(tgl::EU_PERF_CNT_CTL0, 2, &rw).is_none(),
        "DSS 2 is fused off"
    );
    assert!(!mcr.write_one(tgl::EU_PERF_CNT_CTL0, 2, &rw, |w| w
        .value(Bits::new(1).expect("fits"))));
    assert!(mcr.write_one(tgl::EU_PERF_CNT_CTL0, 4, &rw, |w| w
        .value(Bits::new(7).expect("fits"))));
    assert_eq!(
        mcr.read(tgl::EU_PERF_CNT_CTL0, 4, &rw)
            .map(|v| v.value().get()),
        Some(7)
    );
    assert_eq!(
        mcr.read(tgl::EU_PERF_CNT_CTL0, 3, &rw)
            .map(|v| v.value().get()),
        Some(0xABCD)
    );
    assert_eq!(
        mcr.read_any(tgl::EU_PERF_CNT_CTL0, &rw)
            .map(|(n, v)| (n, v.value().get())),
        Some((0, 0xABCD))
    );
    assert_eq!(
        mcr.instances::<tgl::EU_PERF_CNT_CTL0>().collect::<Vec<_>>(),
        [0, 1, 3, 4, 5]
    );
    drop(mcr);
    // Multicast is back, and the emulator's instance 2 never saw a write.
    let sel = gpu.read(tgl::MCR_SELECTOR, &AlwaysAwake);
    assert!(sel.multicast());
    let addr = <tgl::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
    assert_eq!(gpu.with_bus(|e| e.peek(addr, 2)), Some(0));
    assert!(gpu.try_steering(&gt).is_ok(), "free again");
}

#[test]
fn steering_restores_multicast_when_a_closure_panics() {
    let gpu = tgl_gpu(Sku::default());
    let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt");
    let rw = gpu.forcewake::<tgl::domains::Render>().expect("render");
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut mcr = gpu.steering(&gt);
        for (n, _) in mcr.read_each(tgl::EU_PERF_CNT_CTL1, &rw) {
            // The selector now names instance n (unicast).
            if n == 3 {
                panic!("driver bug while steered to DSS {n}");
            }
        }
    }));
    let unicast_seen = gpu.with_bus(|e| {
        e.trace()
            .iter()
            .any(|t| t.register == Some("MCR_SELECTOR") && t.write && t.value & (1 << 31) == 0)
    });
    assert!(unicast_seen, "the selector was unicast when the panic hit");
    assert!(result.is_err());
    assert!(
        gpu.read(tgl::MCR_SELECTOR, &AlwaysAwake).multicast(),
        "multicast restored during unwinding"
    );
    assert!(
        gpu.try_steering(&gt).is_ok(),
        "lock released during unwinding"
    );
}

/// SNB's FORCEWAKE is not masked (Linux i915 Gen6: val_set =
/// FORCEWAKE_KERNEL, val_clear = 0): the guard writes the bit alone to
/// request and 0 to release, and registers below 0x40000 need it.
#[test]
fn snb_wakes_through_its_unmasked_request() {
    use perfregs::hal::{snb, Snb};
    let gpu = Device::<Snb, _>::new(Emulator::new(&snb::PROJECT, Sku::default()));
    let addr = <snb::OACONTROL as Register>::ADDRESS;
    {
        let rw = gpu
            .forcewake::<snb::domains::Render>()
            .expect("render wakes");
        gpu.write(snb::OACONTROL, &rw, |w| w.counter_enable(true));
        assert!(gpu.read(snb::OACONTROL, &rw).counter_enable());
    }
    assert!(!gpu.with_bus(|e| e.awake::<snb::domains::Render>()));
    let requests: Vec<u32> = gpu.with_bus(|e| {
        e.trace()
            .iter()
            .filter(|t| t.write && t.register == Some("FORCEWAKE"))
            .map(|t| t.value as u32)
            .collect()
    });
    assert_eq!(requests, [1, 0]);
    // Asleep again: the access is terminated.
    let assumed = gpu.assume_awake::<snb::domains::Render>();
    assert_eq!(gpu.read(snb::OACONTROL, &assumed).bits(), 0);
    assert_eq!(outcomes(&gpu, addr).last(), Some(&Outcome::Terminated));
}
