//! Tables of the Linux kernel's i915 that several force-wake fidelity
//! tests use, re-stated from the kernel (not from the YAML):
//! `use crate::support::kernel_tables;` in each.
#![allow(dead_code)]

use perfregs::hal::meta::ProjectInfo;

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

/// A force-wake domain of the kernel's Gen11, Gen12 and 12.55+ tables
/// (`FORCEWAKE_*` of `intel_uncore.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fw {
    /// 0: no force-wake.
    No,
    Render,
    Gt,
    Vdbox0,
    Vdbox1,
    Vdbox2,
    Vdbox3,
    Vdbox4,
    Vdbox5,
    Vdbox6,
    Vdbox7,
    Vebox0,
    Vebox1,
    Vebox2,
    Vebox3,
    Gsc,
    /// FORCEWAKE_ALL: every domain of the GT.
    All,
}

impl Fw {
    /// The domain's name in the descriptions (`None`: no domain).
    pub fn name(self) -> Option<&'static str> {
        match self {
            Fw::No => None,
            Fw::Render => Some("render"),
            Fw::Gt => Some("gt"),
            Fw::Vdbox0 => Some("vdbox0"),
            Fw::Vdbox1 => Some("vdbox1"),
            Fw::Vdbox2 => Some("vdbox2"),
            Fw::Vdbox3 => Some("vdbox3"),
            Fw::Vdbox4 => Some("vdbox4"),
            Fw::Vdbox5 => Some("vdbox5"),
            Fw::Vdbox6 => Some("vdbox6"),
            Fw::Vdbox7 => Some("vdbox7"),
            Fw::Vebox0 => Some("vebox0"),
            Fw::Vebox1 => Some("vebox1"),
            Fw::Vebox2 => Some("vebox2"),
            Fw::Vebox3 => Some("vebox3"),
            Fw::Gsc => Some("gsc"),
            // Not one domain: each test says what it expects.
            Fw::All => None,
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

/// `icl_l3bank_steering_table` (graphics versions 11 up to 12.55).
pub const L3BANK_STEERING: &[(u64, u64)] = &[(0xb100, 0xb3ff)];

/// `GEN10_L3BANK_MASK` (0x0F): one steering id per bit.
pub const L3BANKS: u32 = 0x0F_u32.count_ones();

/// Whether `a` is in one of the inclusive `ranges`.
pub fn within(ranges: &[(u64, u64)], a: u64) -> bool {
    ranges.iter().any(|&(s, e)| s <= a && a <= e)
}

/// A Gen11 or Gen12 part as the kernel sees it.
pub struct Part {
    /// The project describing the part.
    pub project: &'static ProjectInfo,
    /// The force-wake table (`__gen11_fw_ranges`, `__gen12_fw_ranges`).
    pub fw: &'static [(u64, u64, Fw)],
    /// Media domains set up (`platform_engine_mask`).
    pub media: &'static [Fw],
    /// The ranges the MCR selector steers (`mcr_ranges_gen8`, `mcr_ranges_gen12`).
    pub mcr: &'static [(u64, u64)],
    /// Their replication group: its name and instance count (`max_subslices`
    /// of `intel_sseu_set_info`).
    pub mcr_group: (&'static str, u32),
}

impl Part {
    /// The table entry (`find_fw_domain`'s BSEARCH), if any.
    pub fn entry(&self, a: u64) -> Option<Fw> {
        self.fw
            .iter()
            .find(|&&(s, e, _)| s <= a && a <= e)
            .map(|&(_, _, d)| d)
    }

    /// The domain a read of `a` wakes.
    pub fn domain(&self, a: u64) -> Option<&'static str> {
        // NEEDS_FORCE_WAKE: offset < 0x40000 || offset >= 0x116000.
        if (0x4_0000..0x11_6000).contains(&a) {
            return None;
        }
        let d = self.entry(a)?;
        let set_up = matches!(d, Fw::Render | Fw::Gt) || self.media.contains(&d);
        // A domain the part did not set up is masked off (`__force_wake_auto`).
        if set_up {
            d.name()
        } else {
            None
        }
    }

    /// The replication group of `a` and its instance count.
    pub fn group(&self, a: u64) -> Option<(&'static str, u32)> {
        if within(L3BANK_STEERING, a) {
            Some(("l3bank", L3BANKS))
        } else if within(self.mcr, a) {
            Some(self.mcr_group)
        } else {
            None
        }
    }
}

/// The force-wake request registers: FORCEWAKE_GT_GEN9 (0xa188),
/// FORCEWAKE_RENDER_GEN9 (0xa278), FORCEWAKE_MEDIA_VDBOX_GEN11(0..7) and
/// FORCEWAKE_MEDIA_VEBOX_GEN11(0..3) (0xa540..=0xa56c).
pub fn is_request(a: u64) -> bool {
    a == 0xa188 || a == 0xa278 || (0xa540..=0xa56c).contains(&a)
}

/// Our wake domain at `a`, with `aon` read as "no force-wake".
pub fn ours(p: &ProjectInfo, a: u64) -> Option<&'static str> {
    p.row_at(a).and_then(|r| r.wake).filter(|&w| w != "aon")
}

/// Every 4-byte address below `top`: domain, replication, and row
/// presence; returns how many were checked.
pub fn check_addresses(part: &Part, top: u64) -> u64 {
    let p = part.project;
    let mut checked = 0;
    for a in (0..top).step_by(4) {
        assert_eq!(ours(p, a), part.domain(a), "{} {a:#x} domain", p.name);
        let row = p.row_at(a);
        assert_eq!(
            row.and_then(|r| r.group.map(|g| (g, r.instances))),
            part.group(a),
            "{} {a:#x} replication",
            p.name
        );
        // A row exactly where the kernel's table has an entry.
        assert_eq!(row.is_some(), part.entry(a).is_some(), "{} {a:#x}", p.name);
        checked += 1;
    }
    checked
}

/// Every described register: its wake domain and replication; returns how
/// many were checked (the request registers aside).
pub fn check_registers(part: &Part) -> usize {
    let p = part.project;
    let mut n = 0;
    for r in p.registers {
        if is_request(r.address) {
            // The kernel writes the request registers raw (fw_domain_get),
            // never through the table; codegen gives every element of a
            // request register array no domain.
            assert_eq!(r.domain, None, "{} {}", p.name, r.name);
            continue;
        }
        let domain = r.domain.filter(|&d| d != "aon");
        assert_eq!(domain, part.domain(r.address), "{} {}", p.name, r.name);
        assert_eq!(
            r.replication,
            part.group(r.address),
            "{} {}",
            p.name,
            r.name
        );
        n += 1;
    }
    n
}
