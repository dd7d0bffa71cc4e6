//! The accessors' bus traffic, pinned inside the crate: what a fallible
//! read-modify-write writes back, and the selector values steering writes
//! (against Linux i915's `GEN8_MCR_*` / `GEN11_MCR_*` macros, not against
//! the descriptions the steering constants are generated from).

extern crate std;

use crate::bus::{Bus, Space};
use std::collections::BTreeMap;
use std::vec::Vec;

/// Plain memory (unwritten words read 0) that logs every write.
#[derive(Default)]
struct Logged {
    mem: BTreeMap<u64, u32>,
    writes: Vec<(u64, u32)>,
}

impl<S: Space> Bus<S> for Logged {
    fn read32(&mut self, addr: u64) -> u32 {
        self.mem.get(&addr).copied().unwrap_or(0)
    }
    fn write32(&mut self, addr: u64, value: u32) {
        self.writes.push((addr, value));
        self.mem.insert(addr, value);
    }
}

impl Logged {
    /// Memory holding `value` at `addr`.
    fn with(addr: u64, value: u32) -> Self {
        let mut bus = Logged::default();
        bus.mem.insert(addr, value);
        bus
    }

    /// The values written to `addr`, in order.
    #[cfg(any(feature = "bdw", feature = "tgl"))]
    fn writes_to(&self, addr: u64) -> Vec<u32> {
        self.writes
            .iter()
            .filter(|w| w.0 == addr)
            .map(|w| w.1)
            .collect()
    }
}

/// `try_modify` writes back only the bits a write may carry (the keep
/// mask), as `modify` does: HSW OABUFFER read as all ones, nothing changed,
/// is written back without bit 5 (MBZ) and bit 2 (undescribed on HSW).
#[cfg(feature = "hsw")]
#[test]
fn try_modify_writes_back_only_the_kept_bits() {
    use crate::{hsw, Device, Hsw, Register};
    let addr = <hsw::OABUFFER as Register>::ADDRESS;
    let gpu = Device::<Hsw, _>::new(Logged::with(addr, u32::MAX));
    let rw = gpu.assume_awake::<hsw::domains::Render>();
    let mut seen = 0;
    gpu.try_modify(hsw::OABUFFER, &rw, |r, w| {
        seen = r.bits();
        w
    })
    .expect("an infallible bus");
    assert_eq!(seen, 0xFFFF_FFFF, "the closure sees the whole value read");
    // Through an `Io` too, changing one field.
    gpu.with_bus(|b| b.mem.insert(addr, u32::MAX));
    gpu.io()
        .try_modify(hsw::OABUFFER, &rw, |_, w| w.disable_overrun_mode(false))
        .expect("an infallible bus");
    // And the plain `modify`, which must agree.
    gpu.with_bus(|b| b.mem.insert(addr, u32::MAX));
    gpu.modify(hsw::OABUFFER, &rw, |_, w| w);
    assert_eq!(
        gpu.into_bus().writes,
        [
            (addr, 0xFFFF_FFDB),
            (addr, 0xFFFF_FFD3),
            (addr, 0xFFFF_FFDB)
        ],
        "MBZ bit 5 and undescribed bit 2 are written as zero"
    );
}

/// `try_modify` of a write-one-to-clear register does not clear the bits
/// it read set: IVT R2_PCI_PMON_BOX_STATUS (ov 3:0 RW1C, the rest
/// reserved) read as 0b1011 is written back as 0.
#[cfg(feature = "ivt")]
#[test]
fn try_modify_does_not_clear_rw1c_bits_it_read() {
    use crate::{ivt, AlwaysAwake, Device, Ivt, Register};
    let addr = <ivt::R2_PCI_PMON_BOX_STATUS as Register>::ADDRESS;
    let dev = Device::<Ivt, _>::new(Logged::with(addr, 0xFFFF_FFF0 | 0b1011));
    dev.try_modify(ivt::R2_PCI_PMON_BOX_STATUS, &AlwaysAwake, |r, w| {
        assert_eq!(r.ov(), 0b1011);
        w
    })
    .expect("an infallible bus");
    assert_eq!(dev.into_bus().writes, [(addr, 0)], "nothing cleared");
}

/// The selector address of both generations (i915 `GEN8_MCR_SELECTOR`).
#[cfg(any(feature = "bdw", feature = "tgl"))]
const MCR_SELECTOR: u64 = 0xFDC;

/// Gen8 steering (BDW, no multicast bit): instance n is slice n / 4,
/// subslice n % 4, at i915's `GEN8_MCR_SLICE(s) = (s & 3) << 26` and
/// `GEN8_MCR_SUBSLICE(ss) = (ss & 3) << 24`; the other bits of the
/// selector are kept and the old value is written back after the access.
#[cfg(feature = "bdw")]
#[test]
fn gen8_selector_fields_are_i915s() {
    use crate::{bdw, Bdw, Device, Register};
    let gen8_mcr = |slice: u32, subslice: u32| (slice & 3) << 26 | (subslice & 3) << 24;
    // Another bit set (kept) and a default target (replaced).
    let default = 1 << 4 | gen8_mcr(0, 2);
    let gpu = Device::<Bdw, _>::new(Logged::with(MCR_SELECTOR, default));
    let reg = <bdw::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
    let rw = gpu.assume_awake::<bdw::domains::Render>();
    let mut mcr = gpu.steering(&rw);
    for n in [0u32, 3, 5, 6] {
        assert!(mcr.read(bdw::EU_PERF_CNT_CTL0, n, &rw).is_some(), "{n}");
    }
    drop(mcr);
    let selector = gpu.into_bus().writes_to(MCR_SELECTOR);
    let mut want = Vec::new();
    for (s, ss) in [(0, 0), (0, 3), (1, 1), (1, 2)] {
        want.extend([1 << 4 | gen8_mcr(s, ss), default]);
    }
    assert_eq!(selector, want, "steered, then restored, per access");
    assert_ne!(reg, MCR_SELECTOR);
}

/// Gen11+ steering (TGL): a unicast access writes i915's
/// `GEN11_MCR_SLICE(s) = (s & 0xf) << 27 | GEN11_MCR_SUBSLICE(ss) =
/// (ss & 7) << 24` with the multicast bit (31) clear; dropping the handle
/// writes `GEN11_MCR_MULTICAST` back.
#[cfg(feature = "tgl")]
#[test]
fn gen11_selector_fields_are_i915s() {
    use crate::{tgl, Device, Register, Tgl};
    let gen11_mcr = |slice: u32, subslice: u32| (slice & 0xF) << 27 | (subslice & 7) << 24;
    let multicast = 1u32 << 31;
    let mut bus = Logged::default();
    // Every DSS present (a set fuse bit means present on TGL).
    for (_, fuse) in <Tgl as crate::register::Steered>::GROUPS {
        if let Some(f) = fuse.filter(|f| f.set_means_present) {
            *bus.mem.entry(f.address).or_default() |= (((1u64 << f.width) - 1) << f.lsb) as u32;
        }
    }
    let gpu = Device::<Tgl, _>::new(bus);
    let gt = gpu.assume_awake::<tgl::domains::Gt>();
    let rw = gpu.assume_awake::<tgl::domains::Render>();
    let mut mcr = gpu.steering(&gt);
    for n in [0u32, 1, 5] {
        assert!(mcr.read(tgl::EU_PERF_CNT_CTL0, n, &rw).is_some(), "{n}");
    }
    drop(mcr);
    let selector = gpu.into_bus().writes_to(MCR_SELECTOR);
    assert_eq!(
        selector,
        [gen11_mcr(0, 0), gen11_mcr(0, 1), gen11_mcr(0, 5), multicast],
        "one slice: DSS n is subslice n; multicast restored on drop"
    );
    assert_ne!(<tgl::EU_PERF_CNT_CTL0 as Register>::ADDRESS, MCR_SELECTOR);
}
