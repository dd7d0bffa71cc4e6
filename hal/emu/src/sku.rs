//! The part being emulated: which replicated instances and media engines it
//! has, and how long its power domains take to wake.

use crate::bind::Bindings;
use hal::meta::ProjectInfo;
use perfregs_types::DeviceInfo;

/// A SKU: the fuse configuration of the emulated part and its wake latency.
///
/// Bit `n` of each mask stands for instance `n`; bits beyond the project's
/// instance count are ignored, so the all-ones [`Default`] means "everything
/// present" on every project. [`Sku::for_project`] gives the exact masks.
///
/// ```
/// use perfregs_emu::Sku;
/// let sku = Sku::default().fuse_dss(2).fuse_l3bank(5).without_vdbox(1).with_wake_latency(10);
/// assert_eq!(sku.dss_enable & 0x3f, 0x3b);
/// assert_eq!(sku.l3bank_disable, 1 << 5);
/// assert_eq!(sku.wake_latency, 10);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sku {
    /// Bit `n` set: dual subslice `n` is present (replication group `dss`).
    pub dss_enable: u64,
    /// Bit `n` set: L3 bank `n` is fused off (replication group `l3bank`).
    pub l3bank_disable: u64,
    /// Bit `n` set: video decode box `n` is present (power domain `vdboxN`).
    pub vdbox_present: u64,
    /// Bit `n` set: video enhancement box `n` is present (power domain `veboxN`).
    pub vebox_present: u64,
    /// Bit `n` set: XeCore (dual subslice) `n` is present, for the OA
    /// model's per-XeCore PEC events (Xe2/Xe3; bits beyond the project's
    /// parts are ignored). Set from the part's dual-subslice mask by
    /// [`Sku::for_part`]; [`Sku::fuse_dss`] clears it too.
    pub xecore_enable: u64,
    /// Ticks of [`Emulator::advance`](super::Emulator::advance) between a
    /// change of a force-wake request and the matching change of its ack.
    pub wake_latency: u64,
}

impl Sku {
    /// The wake latency of [`Sku::default`], in ticks.
    pub const DEFAULT_WAKE_LATENCY: u64 = 3;

    /// Everything `project` describes present, with exact masks: `dss_enable`
    /// has one bit per instance of the `dss` group, `vdbox_present` one bit
    /// per `vdboxN` domain, and so on (0 where the project has none).
    pub fn for_project(project: &ProjectInfo) -> Self {
        let sku = Bindings::of(project).and_then(|b| b.sku);
        let group = |g: Option<Option<usize>>| {
            g.flatten()
                .and_then(|i| project.groups.get(i))
                .map_or(0, |g| low_bits(g.instances))
        };
        let engines = |list: Option<&[usize]>| low_bits(list.map_or(0, |l| l.len() as u32));
        Sku {
            dss_enable: group(sku.map(|s| s.dss)),
            l3bank_disable: 0,
            vdbox_present: engines(sku.map(|s| s.vdbox)),
            vebox_present: engines(sku.map(|s| s.vebox)),
            xecore_enable: xecores_of(project),
            wake_latency: Self::DEFAULT_WAKE_LATENCY,
        }
    }

    /// The part `device` describes (a catalogue part's values such as
    /// `hal::part("rkl", 1)`'s `device`), on `project`: [`Sku::for_project`]
    /// with only the part's (dual) subslices present. Bit `n` of its
    /// `dual_subslice_mask` (Gen12), else of its `subslice_mask` (Gen11), is
    /// instance `n` of the group bound as `dss`. A project without such a
    /// group (Gen8..Gen10 describe no fuse) keeps every instance present,
    /// as does a part whose masks are 0 (unknown).
    ///
    /// ```
    /// use perfregs_emu::Sku;
    /// let device = |gt| hal::part("tgl", gt).expect("a TGL part").device;
    /// let gt1 = Sku::for_part(&hal::tgl::PROJECT, &device(1));
    /// assert_eq!(gt1.dss_enable, 0x3);
    /// let gt2 = Sku::for_part(&hal::tgl::PROJECT, &device(2));
    /// assert_eq!(gt2.dss_enable, 0x3f);
    /// ```
    pub fn for_part(project: &ProjectInfo, device: &DeviceInfo) -> Self {
        let mut sku = Self::for_project(project);
        let mask = if device.dual_subslice_mask != 0 {
            device.dual_subslice_mask
        } else {
            device.subslice_mask
        };
        if sku.dss_enable != 0 && mask != 0 {
            sku.dss_enable &= mask;
        }
        if mask != 0 {
            sku.xecore_enable = mask;
        }
        sku
    }

    /// Fuse off dual subslice `n` (no effect when `n >= 64`).
    #[must_use]
    pub fn fuse_dss(mut self, n: u32) -> Self {
        self.dss_enable &= !bit(n);
        self.xecore_enable &= !bit(n);
        self
    }

    /// Fuse off L3 bank `n` (no effect when `n >= 64`).
    #[must_use]
    pub fn fuse_l3bank(mut self, n: u32) -> Self {
        self.l3bank_disable |= bit(n);
        self
    }

    /// Remove video decode box `n`: its force-wake requests are never acked.
    #[must_use]
    pub fn without_vdbox(mut self, n: u32) -> Self {
        self.vdbox_present &= !bit(n);
        self
    }

    /// Remove video enhancement box `n`: its force-wake requests are never acked.
    #[must_use]
    pub fn without_vebox(mut self, n: u32) -> Self {
        self.vebox_present &= !bit(n);
        self
    }

    /// Set the wake latency in ticks (0: an ack follows at the next `advance`,
    /// even `advance(0)`).
    #[must_use]
    pub fn with_wake_latency(mut self, ticks: u64) -> Self {
        self.wake_latency = ticks;
        self
    }

    /// Instances of replication group `group` (an index into the
    /// project's `groups`) that are present (bit `n`: instance `n`), before
    /// clipping to the group's instance count: the group bound as `dss`
    /// from `dss_enable`, `l3bank` from `!l3bank_disable`, any other group
    /// always fully present.
    pub(crate) fn group_present(&self, b: &Bindings, group: usize) -> u64 {
        let sku = b.sku;
        if sku.is_some_and(|s| s.dss == Some(group)) {
            self.dss_enable
        } else if sku.is_some_and(|s| s.l3bank == Some(group)) {
            !self.l3bank_disable
        } else {
            u64::MAX
        }
    }

    /// Whether power domain `domain` (an index into the project's
    /// `domains`) exists on this part: the n-th domain bound as `vdbox`
    /// per bit n of `vdbox_present`, likewise `vebox`; every other domain
    /// yes.
    pub(crate) fn domain_present(&self, b: &Bindings, domain: usize) -> bool {
        let nth = |list: &[usize]| list.iter().position(|&d| d == domain);
        match b.sku {
            Some(s) => match (nth(s.vdbox), nth(s.vebox)) {
                (Some(n), _) => self.vdbox_present & bit(n as u32) != 0,
                (None, Some(n)) => self.vebox_present & bit(n as u32) != 0,
                (None, None) => true,
            },
            None => true,
        }
    }
}

/// The XeCores any catalogue part of `project` has (the union of their
/// dual-subslice masks, else subslice masks); every bit when no part says.
pub(crate) fn xecores_of(project: &ProjectInfo) -> u64 {
    let parts = project.gpu.map_or(&[][..], |g| g.parts);
    let union = parts.iter().fold(0, |m, p| {
        let d = &p.device;
        m | if d.dual_subslice_mask != 0 {
            d.dual_subslice_mask
        } else {
            d.subslice_mask
        }
    });
    if union == 0 {
        u64::MAX
    } else {
        union
    }
}

impl Default for Sku {
    /// Everything present (all mask bits set, no L3 bank disabled), wake
    /// latency [`Sku::DEFAULT_WAKE_LATENCY`].
    fn default() -> Self {
        Sku {
            dss_enable: u64::MAX,
            l3bank_disable: 0,
            vdbox_present: u64::MAX,
            vebox_present: u64::MAX,
            xecore_enable: u64::MAX,
            wake_latency: Self::DEFAULT_WAKE_LATENCY,
        }
    }
}

/// `1 << n`, or 0 when `n >= 64`.
fn bit(n: u32) -> u64 {
    1u64.checked_shl(n).unwrap_or(0)
}

pub(crate) use hal::meta::low_bits;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_keeps_only_its_subslices() {
        // Gen12: dual subslices; Gen11: subslices; Gen9: no fused group.
        let rkl = hal::part_or_first("rkl", None).expect("rkl part").device;
        let s = Sku::for_part(&hal::rkl::PROJECT, &rkl);
        assert_eq!(s.dss_enable, rkl.dual_subslice_mask);
        assert_eq!(s.dss_enable.count_ones(), 2);
        let ehl = hal::part_or_first("ehl", None).expect("ehl part").device;
        let s = Sku::for_part(&hal::ehl::PROJECT, &ehl);
        assert_eq!(s.dss_enable, ehl.subslice_mask & 0xf);
        assert_ne!(s.dss_enable, 0);
        let skl = hal::part("skl", 2).expect("skl GT2").device;
        let no_xe = |s: Sku| Sku {
            xecore_enable: 0,
            ..s
        };
        let part = Sku::for_part(&hal::skl::PROJECT, &skl);
        assert_eq!(no_xe(part), no_xe(Sku::for_project(&hal::skl::PROJECT)));
        // The XeCores are the part's (dual) subslices, fused group or not.
        assert_eq!(part.xecore_enable, skl.subslice_mask);
        assert_eq!(s.xecore_enable, s.dss_enable);
        // Unknown masks: everything the project has.
        assert_eq!(
            Sku::for_part(&hal::tgl::PROJECT, &DeviceInfo::default()),
            Sku::for_project(&hal::tgl::PROJECT)
        );
    }

    #[test]
    fn every_part_with_a_bound_dss_group_keeps_its_dss() {
        // Every compiled catalogue part (DG2, MTL, LNL, BMG and PTL with
        // their hal features on): the group bound as `dss` gets exactly
        // the part's DSS mask, within the group's instances, and the
        // group's fuse mirror is the enable kind the mask is.
        let mut checked = 0;
        for part in hal::PARTS {
            let Some(project) = hal::project(part.project) else {
                continue;
            };
            let Some(sku) = Bindings::of(project).and_then(|b| b.sku) else {
                continue;
            };
            let Some(g) = sku.dss.and_then(|i| project.groups.get(i)) else {
                continue;
            };
            let s = Sku::for_part(project, &part.device);
            let mask = if part.device.dual_subslice_mask != 0 {
                part.device.dual_subslice_mask
            } else {
                part.device.subslice_mask
            };
            assert_eq!(
                s.dss_enable,
                mask & low_bits(g.instances),
                "{}",
                part.chipset
            );
            assert_eq!(
                mask & !low_bits(g.instances),
                0,
                "{}: the part has more DSS than the group",
                part.chipset
            );
            checked += 1;
        }
        assert!(checked >= 5, "{checked}");
    }
}
