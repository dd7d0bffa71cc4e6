//! Gen8..Gen10 steering (GEN8_MCR_SELECTOR, no multicast bit) through the
//! typed steering API, run against the emulator: a read is steered to one
//! slice/subslice and the selector is given back its old value after each
//! access (as Linux i915's rw_with_mcr_steering_fw does before Gen11);
//! `write_each` reaches every instance; the multicast and unicast writes do
//! not compile (hal/misuse/tests/ui/gen8_multicast_write.rs).
#![cfg(feature = "emu")]

use perfregs::emu::{Emulator, Sku};
use perfregs::hal::{bdw, skl, Bdw, Bits, Device, Register, Skl};

const SELECTOR: u64 = 0xFDC;
const SLICE_SHIFT: u32 = 26;
const SUBSLICE_SHIFT: u32 = 24;

/// Selector writes in the trace, in order.
fn selector_writes<P: perfregs::hal::Project>(gpu: &Device<P, Emulator>) -> Vec<u64> {
    gpu.with_bus(|e| {
        e.trace()
            .iter()
            .filter(|t| t.write && t.addr == SELECTOR)
            .map(|t| t.value)
            .collect()
    })
}

#[test]
fn bdw_reads_are_steered_to_slice_and_subslice_and_the_selector_is_restored() {
    let gpu = Device::<Bdw, _>::new(Emulator::new(&bdw::PROJECT, Sku::default()));
    let addr = <bdw::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
    assert_eq!(addr, 0xE458);
    // Distinct values per instance; instance n = slice n / 4, subslice n % 4.
    gpu.with_bus(|e| {
        for n in 0..8 {
            assert!(e.poke_instance(addr, n, 0x100 + u64::from(n)));
        }
        e.set_tracing(true);
    });
    let rw = gpu
        .forcewake::<bdw::domains::Render>()
        .expect("render wakes");
    // The driver's default target (i915 programs the first present
    // slice/subslice): slice 0, subslice 2.
    let default = 2u32 << SUBSLICE_SHIFT;
    gpu.with_bus(|e| e.write32(SELECTOR, default));
    let mut mcr = gpu.steering(&rw);
    assert_eq!(mcr.present::<bdw::EU_PERF_CNT_CTL0>(), 0xFF);
    for n in [0u32, 1, 5, 6] {
        let got = mcr
            .read(bdw::EU_PERF_CNT_CTL0, n, &rw)
            .expect("instance present");
        assert_eq!(got.bits(), 0x100 + u64::from(n), "instance {n}");
    }
    let all: Vec<_> = mcr
        .read_each(bdw::EU_PERF_CNT_CTL0, &rw)
        .map(|(n, v)| (n, v.bits()))
        .collect();
    assert_eq!(
        all,
        (0..8)
            .map(|n| (n, 0x100 + u64::from(n)))
            .collect::<Vec<_>>()
    );
    drop(mcr);
    // Instance 5 = slice 1, subslice 1; each steered access is followed by
    // the old value, and the handle's drop writes nothing more.
    let steer = |n: u64| (n / 4) << SLICE_SHIFT | (n % 4) << SUBSLICE_SHIFT;
    let mut want = vec![u64::from(default)];
    for n in [0, 1, 5, 6].into_iter().chain(0..8) {
        want.extend([steer(n), u64::from(default)]);
    }
    assert_eq!(selector_writes(&gpu), want);
    gpu.with_bus(|e| assert_eq!(e.read32(SELECTOR), default));
}

#[test]
fn write_each_reaches_every_instance_with_one_steered_write_each() {
    let gpu = Device::<Skl, _>::new(Emulator::new(&skl::PROJECT, Sku::default()));
    let addr = <skl::EU_PERF_CNT_CTL3 as Register>::ADDRESS;
    let gt = gpu.forcewake::<skl::domains::Render>().expect("render");
    // The SKL selector is always on (0xFDC lies in the kernel's 0xb00..0x1fff row).
    let mut mcr = gpu.steering(&perfregs::hal::AlwaysAwake);
    gpu.with_bus(|e| e.set_tracing(true));
    let value = Bits::new(0xABCD).expect("fits");
    let written = mcr.write_each(skl::EU_PERF_CNT_CTL3, &gt, |w| w.value(value));
    assert_eq!(written, 12);
    drop(mcr);
    gpu.with_bus(|e| {
        for n in 0..12 {
            assert_eq!(e.peek(addr, n), Some(0xABCD), "instance {n}");
        }
        let writes = e
            .trace()
            .iter()
            .filter(|t| t.write && t.addr == addr)
            .count();
        assert_eq!(writes, 12);
    });
    // 12 steered writes, each followed by the old selector value (0).
    assert_eq!(selector_writes(&gpu).len(), 24);
}
