//! Tables of the Linux kernel's i915 that several force-wake fidelity
//! tests use, re-stated from the kernel (not from the YAML):
//! `#[path = "support/kernel_tables.rs"] mod kernel_tables;` in each.
#![allow(dead_code)]

/// `mcr_ranges_gen8` (gt/intel_workarounds.c, torvalds/linux 002c6ca75289):
/// the ranges the MCR selector steers; `mcr_range()` applies it to graphics
/// versions 8 to 11. `(start, end)`, inclusive.
pub const MCR_GEN8: &[(u64, u64)] = &[
    (0x5500, 0x55ff),
    (0x7000, 0x7fff),
    (0x9400, 0x97ff),
    (0xb000, 0xb3ff),
    (0xe000, 0xe7ff),
];

/// A force-wake domain of the kernel's Gen11 and Gen12 tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fw {
    /// 0: no force-wake.
    No,
    Render,
    Gt,
    Vdbox0,
    Vdbox2,
    Vebox0,
}

impl Fw {
    /// The domain's name in the descriptions (`None`: no domain).
    pub fn name(self) -> Option<&'static str> {
        match self {
            Fw::No => None,
            Fw::Render => Some("render"),
            Fw::Gt => Some("gt"),
            Fw::Vdbox0 => Some("vdbox0"),
            Fw::Vdbox2 => Some("vdbox2"),
            Fw::Vebox0 => Some("vebox0"),
        }
    }
}

/// A re-stated force-wake table starts at 0 and has neither gap nor
/// overlap, as the kernel's selftest demands (`intel_fw_table_check`).
pub fn assert_watertight(table: &[(u64, u64, Fw)]) {
    assert_eq!(table.first().map(|r| r.0), Some(0));
    for w in table.windows(2) {
        assert!(w[0].0 <= w[0].1, "{:#x}", w[0].0);
        assert_eq!(w[0].1 + 1, w[1].0, "gap after {:#x}", w[0].1);
    }
}
