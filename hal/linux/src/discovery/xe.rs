//! The xe driver's answers to `DRM_IOCTL_XE_DEVICE_QUERY`, read without
//! trusting them: the GT list (`struct drm_xe_query_gt_list`, for the main
//! GT's id and its timestamp `reference_clock`) and the GT topology (a run of
//! `struct drm_xe_query_topology_mask` records: DSS and EU masks per GT),
//! turned into the i915 topology layout ([`Topology`]) so that the rest of
//! perfregs (device values, IGT recordings) reads one format.

use super::topology::{Topology, TopologyError};
use crate::uapi::xe::{
    DRM_XE_QUERY_GT_TYPE_MAIN, DRM_XE_TOPO_DSS_COMPUTE, DRM_XE_TOPO_DSS_GEOMETRY,
    DRM_XE_TOPO_EU_PER_DSS, DRM_XE_TOPO_SIMD16_EU_PER_DSS, XE_GT_ID_OFFSET, XE_GT_LIST_HEADER_SIZE,
    XE_GT_REFERENCE_CLOCK_OFFSET, XE_GT_SIZE, XE_GT_TYPE_OFFSET, XE_TOPOLOGY_MASK_HEADER_SIZE,
};

fn u16_at(b: &[u8], at: usize, what: impl Fn() -> String) -> Result<u16, TopologyError> {
    b.get(at..at + 2)
        .map(|x| u16::from_le_bytes([x[0], x[1]]))
        .ok_or_else(|| out_of_bounds(what(), at, 2, b.len()))
}

fn u32_at(b: &[u8], at: usize, what: impl Fn() -> String) -> Result<u32, TopologyError> {
    b.get(at..at + 4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .ok_or_else(|| out_of_bounds(what(), at, 4, b.len()))
}

fn out_of_bounds(what: String, offset: usize, needed: usize, len: usize) -> TopologyError {
    TopologyError::OutOfBounds {
        what,
        offset,
        needed,
        len,
    }
}

/// The main GT of a GT-list answer: `(gt_id, reference_clock in Hz)`.
pub fn main_gt(gt_list: &[u8]) -> Result<(u16, u32), TopologyError> {
    let n = u32_at(gt_list, 0, || "GT count".into())?;
    for i in 0..n as usize {
        let base = i
            .checked_mul(XE_GT_SIZE)
            .and_then(|x| x.checked_add(XE_GT_LIST_HEADER_SIZE))
            .unwrap_or(usize::MAX);
        if gt_list.len() < base.saturating_add(XE_GT_SIZE) {
            return Err(out_of_bounds(
                format!("GT list entry {i}"),
                base,
                XE_GT_SIZE,
                gt_list.len(),
            ));
        }
        let kind = u16_at(gt_list, base + XE_GT_TYPE_OFFSET, || format!("GT {i} type"))?;
        if kind == DRM_XE_QUERY_GT_TYPE_MAIN {
            let id = u16_at(gt_list, base + XE_GT_ID_OFFSET, || format!("GT {i} id"))?;
            let clock = u32_at(gt_list, base + XE_GT_REFERENCE_CLOCK_OFFSET, || {
                format!("GT {i} reference_clock")
            })?;
            return Ok((id, clock));
        }
    }
    Err(TopologyError::Empty)
}

/// Bits of a little-endian mask, with its width in bits (at most 64 set
/// bits' positions: a set bit beyond 64 is [`TopologyError::TooWide`]).
fn mask_bits(mask: &[u8], what: &'static str) -> Result<(u16, u64), TopologyError> {
    let mut m = 0u64;
    for (i, b) in mask.iter().enumerate() {
        if *b == 0 {
            continue;
        }
        if i >= 8 {
            let bits = (i + 1) * 8;
            return Err(TopologyError::TooWide { what, bits });
        }
        m |= u64::from(*b) << (8 * i);
    }
    let width = (mask.len() * 8).min(64) as u16;
    Ok((width, m))
}

/// The topology of GT `gt_id` from a GT-topology answer: its DSS
/// (geometry and compute, united) as the subslices of one slice, and its
/// EUs per DSS (the SIMD8 mask, or the SIMD16 one where only that exists).
pub fn topology(answer: &[u8], gt_id: u16) -> Result<Topology, TopologyError> {
    let (mut dss, mut eu, mut eu16) = (None::<(u16, u64)>, None, None);
    let mut at = 0usize;
    let mut index = 0usize;
    while at < answer.len() {
        let what = || format!("topology mask {index}");
        let gt = u16_at(answer, at, what)?;
        let kind = u16_at(answer, at + 2, what)?;
        let n = u32_at(answer, at + 4, what)? as usize;
        let start = at + XE_TOPOLOGY_MASK_HEADER_SIZE;
        let mask = start
            .checked_add(n)
            .and_then(|end| answer.get(start..end))
            .ok_or_else(|| out_of_bounds(what(), start, n, answer.len()))?;
        if gt == gt_id {
            match kind {
                DRM_XE_TOPO_DSS_GEOMETRY | DRM_XE_TOPO_DSS_COMPUTE => {
                    let (w, m) = mask_bits(mask, "DSS mask")?;
                    dss = Some(match dss {
                        Some((w0, m0)) => (w0.max(w), m0 | m),
                        None => (w, m),
                    });
                }
                DRM_XE_TOPO_EU_PER_DSS => eu = Some(mask_bits(mask, "EU mask")?),
                DRM_XE_TOPO_SIMD16_EU_PER_DSS => eu16 = Some(mask_bits(mask, "EU mask")?),
                _ => {}
            }
        }
        at = start + n;
        index += 1;
    }
    let ((ss_bits, ss_mask), (eu_bits, eu_mask)) = match (dss, eu.or(eu16)) {
        (Some(d), Some(e)) => (d, e),
        _ => return Err(TopologyError::Empty),
    };
    Topology::single_slice(ss_bits, ss_mask, eu_bits, eu_mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(gt: u16, kind: u16, bytes: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&gt.to_le_bytes());
        v.extend_from_slice(&kind.to_le_bytes());
        v.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        v.extend_from_slice(bytes);
        v
    }

    fn gt(kind: u16, id: u16, clock: u32) -> Vec<u8> {
        let mut e = vec![0u8; XE_GT_SIZE];
        e[XE_GT_TYPE_OFFSET..][..2].copy_from_slice(&kind.to_le_bytes());
        e[XE_GT_ID_OFFSET..][..2].copy_from_slice(&id.to_le_bytes());
        e[XE_GT_REFERENCE_CLOCK_OFFSET..][..4].copy_from_slice(&clock.to_le_bytes());
        e
    }

    /// TGL GT2 under xe: 6 DSS of 16 EUs (the same as its i915 answer).
    fn tgl_gt2() -> Vec<u8> {
        let mut a = mask(0, DRM_XE_TOPO_DSS_GEOMETRY, &[0x3f, 0, 0, 0, 0, 0, 0, 0]);
        a.extend(mask(
            0,
            DRM_XE_TOPO_DSS_COMPUTE,
            &[0x3f, 0, 0, 0, 0, 0, 0, 0],
        ));
        a.extend(mask(0, 3, &[0x0f]));
        a.extend(mask(
            0,
            DRM_XE_TOPO_EU_PER_DSS,
            &[0xff, 0xff, 0, 0, 0, 0, 0, 0],
        ));
        // A media GT's masks are not the render GT's.
        a.extend(mask(1, DRM_XE_TOPO_DSS_GEOMETRY, &[0x01]));
        a
    }

    #[test]
    fn xe_topology_becomes_the_i915_layout() {
        let t = topology(&tgl_gt2(), 0).expect("valid");
        assert_eq!((t.subslice_mask(), t.eu_count()), (0x3f, 96));
        assert_eq!(t.header.max_subslices, 64);
        assert_eq!(Topology::parse(&t.to_bytes()), Ok(t.clone()));
        let v = super::super::topology::device_values(&t, "tgl", Some(2), 19_200_000, None)
            .expect("values");
        assert_eq!(v.info, hal::part("tgl", 2).expect("TGL GT2").device);
        // The other GT has a DSS mask but no EU mask.
        assert_eq!(topology(&tgl_gt2(), 1), Err(TopologyError::Empty));
        assert_eq!(topology(&tgl_gt2(), 7), Err(TopologyError::Empty));
        // SIMD16 EUs where no SIMD8 mask exists.
        let mut a = mask(0, DRM_XE_TOPO_DSS_GEOMETRY, &[0x03]);
        a.extend(mask(0, DRM_XE_TOPO_SIMD16_EU_PER_DSS, &[0xff]));
        let t = topology(&a, 0).expect("valid");
        assert_eq!(t.eu_count(), 16);
    }

    #[test]
    fn damaged_xe_answers_are_errors() {
        let good = tgl_gt2();
        for n in 0..good.len() {
            let r = topology(&good[..n], 0);
            // A cut inside a record is located; a cut between records
            // before the EU mask leaves the topology incomplete; only the
            // cut right after the EU mask (16 + 16 + 9 + 16 bytes) is whole.
            assert_eq!(r.is_ok(), n == 57, "{n}: {r:?}");
        }
        match topology(&good[..5], 0) {
            Err(TopologyError::OutOfBounds { what, .. }) => assert_eq!(what, "topology mask 0"),
            other => panic!("{other:?}"),
        }
        let mut huge = mask(0, DRM_XE_TOPO_DSS_GEOMETRY, &[0x01]);
        huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            topology(&huge, 0),
            Err(TopologyError::OutOfBounds { .. })
        ));
        let mut wide = vec![0u8; 16];
        wide[9] = 1;
        let mut a = mask(0, DRM_XE_TOPO_DSS_GEOMETRY, &wide);
        a.extend(mask(0, DRM_XE_TOPO_EU_PER_DSS, &[0xff]));
        assert_eq!(
            topology(&a, 0),
            Err(TopologyError::TooWide {
                what: "DSS mask",
                bits: 80
            })
        );
        for i in 0..good.len() {
            for v in [0u8, 0x7f, 0xff] {
                let mut b = good.clone();
                b[i] = v;
                if let Ok(t) = topology(&b, 0) {
                    let _ = (t.eu_count(), t.to_bytes());
                }
            }
        }
    }

    #[test]
    fn the_main_gt_and_its_clock() {
        let mut list = 2u32.to_le_bytes().to_vec();
        list.extend_from_slice(&[0; 4]);
        list.extend(gt(1, 1, 19_200_000)); // media first
        list.extend(gt(DRM_XE_QUERY_GT_TYPE_MAIN, 0, 19_200_000));
        assert_eq!(main_gt(&list), Ok((0, 19_200_000)));
        assert!(matches!(
            main_gt(&list[..list.len() - 1]),
            Err(TopologyError::OutOfBounds { .. })
        ));
        let mut media_only = 1u32.to_le_bytes().to_vec();
        media_only.extend_from_slice(&[0; 4]);
        media_only.extend(gt(1, 1, 1));
        assert_eq!(main_gt(&media_only), Err(TopologyError::Empty));
        assert!(main_gt(&[1, 0]).is_err());
        let mut lying = u32::MAX.to_le_bytes().to_vec();
        lying.extend_from_slice(&[0; 4]);
        assert!(main_gt(&lying).is_err(), "a count past the buffer");
    }
}
