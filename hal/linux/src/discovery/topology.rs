//! The GPU topology as i915's `DRM_I915_QUERY_TOPOLOGY_INFO` returns it
//! (`struct drm_i915_query_topology_info`: a 16-byte header, then the slice
//! mask, the subslice masks of each slice and the EU masks of each
//! subslice), and the device values the metric equations read from it.
//!
//! Pure code: [`Topology::parse`] checks every offset and stride against the
//! buffer (the bytes come from the kernel, or from a recording), and
//! [`device_values`] turns a topology into a [`DeviceInfo`].

use crate::uapi::i915::{DrmI915QueryTopologyInfo, TOPOLOGY_HEADER_SIZE};
use core::fmt;
use perfregs_types::{DeviceInfo, DeviceVar};

/// Why topology bytes cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TopologyError {
    /// Fewer than the 16 header bytes.
    ShortHeader {
        /// Bytes given.
        len: usize,
    },
    /// A mask lies (partly) outside the buffer.
    OutOfBounds {
        /// Which mask (`slice mask`, `subslice mask of slice 1`, ...).
        what: String,
        /// Its first byte, counted from the start of the buffer (header included).
        offset: usize,
        /// Bytes it needs.
        needed: usize,
        /// Bytes in the buffer.
        len: usize,
    },
    /// A stride smaller than the mask it separates.
    Stride {
        /// `subslice_stride` or `eu_stride`.
        field: &'static str,
        /// Its value.
        stride: u16,
        /// Bytes one mask needs.
        needed: usize,
    },
    /// More slices × subslices (or EUs per subslice) than a 64-bit mask holds.
    TooWide {
        /// What does not fit.
        what: &'static str,
        /// How many bits it would need.
        bits: usize,
    },
    /// No slice enabled, or no EU: not a usable topology.
    Empty,
}

impl fmt::Display for TopologyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TopologyError::ShortHeader { len } => write!(
                f,
                "topology: {len} bytes, fewer than the {TOPOLOGY_HEADER_SIZE}-byte header"
            ),
            TopologyError::OutOfBounds {
                what,
                offset,
                needed,
                len,
            } => write!(
                f,
                "topology: the {what} ({needed} bytes at byte {offset}) lies outside the {len}-byte buffer"
            ),
            TopologyError::Stride {
                field,
                stride,
                needed,
            } => write!(
                f,
                "topology: {field} {stride} is smaller than one mask ({needed} bytes)"
            ),
            TopologyError::TooWide { what, bits } => write!(
                f,
                "topology: {what} needs {bits} bits, more than the 64 of a mask"
            ),
            TopologyError::Empty => f.write_str("topology: no slice or no EU is enabled"),
        }
    }
}

impl std::error::Error for TopologyError {}

/// A checked topology: the header and the masks, each within the buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    /// The header.
    pub header: DrmI915QueryTopologyInfo,
    /// Enabled slices, one bit each.
    pub slice_mask: u64,
    /// Enabled subslices of each slice (`max_slices` entries), one bit per subslice.
    pub subslice_masks: Vec<u64>,
    /// Enabled EUs of each subslice, slice-major (`max_slices × max_subslices` entries).
    pub eu_masks: Vec<u64>,
}

fn bytes_for(bits: u16) -> usize {
    usize::from(bits).div_ceil(8)
}

/// Bits of `data[offset..offset + n]`, little-endian (bit `i` of byte `i / 8`).
fn mask_at(
    bytes: &[u8],
    offset: usize,
    n: usize,
    what: impl Fn() -> String,
) -> Result<u64, TopologyError> {
    let start = TOPOLOGY_HEADER_SIZE.saturating_add(offset);
    let chunk = start
        .checked_add(n)
        .and_then(|end| bytes.get(start..end))
        .ok_or_else(|| TopologyError::OutOfBounds {
            what: what(),
            offset: start,
            needed: n,
            len: bytes.len(),
        })?;
    Ok(chunk
        .iter()
        .enumerate()
        .fold(0u64, |m, (i, b)| m | (u64::from(*b) << (8 * i))))
}

impl Topology {
    /// Parse and check `bytes` (header and `data[]`, as the query returns them).
    pub fn parse(bytes: &[u8]) -> Result<Topology, TopologyError> {
        let header = DrmI915QueryTopologyInfo::parse(bytes)
            .ok_or(TopologyError::ShortHeader { len: bytes.len() })?;
        let (slices, subslices, eus) = (
            header.max_slices,
            header.max_subslices,
            header.max_eus_per_subslice,
        );
        for (what, bits) in [
            ("max_slices", usize::from(slices)),
            (
                "max_slices × max_subslices",
                usize::from(slices) * usize::from(subslices),
            ),
            ("max_eus_per_subslice", usize::from(eus)),
        ] {
            if bits > 64 {
                return Err(TopologyError::TooWide { what, bits });
            }
        }
        let (ss_bytes, eu_bytes) = (bytes_for(subslices), bytes_for(eus));
        if usize::from(header.subslice_stride) < ss_bytes {
            return Err(TopologyError::Stride {
                field: "subslice_stride",
                stride: header.subslice_stride,
                needed: ss_bytes,
            });
        }
        if usize::from(header.eu_stride) < eu_bytes {
            return Err(TopologyError::Stride {
                field: "eu_stride",
                stride: header.eu_stride,
                needed: eu_bytes,
            });
        }
        let slice_mask = mask_at(bytes, 0, bytes_for(slices), || "slice mask".into())?;
        let mut subslice_masks = Vec::with_capacity(usize::from(slices));
        let mut eu_masks = Vec::with_capacity(usize::from(slices) * usize::from(subslices));
        for s in 0..usize::from(slices) {
            let off = usize::from(header.subslice_offset) + s * usize::from(header.subslice_stride);
            subslice_masks.push(mask_at(bytes, off, ss_bytes, || {
                format!("subslice mask of slice {s}")
            })?);
            for ss in 0..usize::from(subslices) {
                let i = s * usize::from(subslices) + ss;
                let off = usize::from(header.eu_offset) + i * usize::from(header.eu_stride);
                eu_masks.push(mask_at(bytes, off, eu_bytes, || {
                    format!("EU mask of slice {s} subslice {ss}")
                })?);
            }
        }
        Ok(Topology {
            header,
            slice_mask,
            subslice_masks,
            eu_masks,
        })
    }

    /// A one-slice topology from a subslice (DSS) mask of `max_subslices`
    /// bits and one EU mask of `max_eus` bits shared by every enabled
    /// subslice (what xe reports), laid out as i915's query would.
    pub fn single_slice(
        max_subslices: u16,
        subslice_mask: u64,
        max_eus: u16,
        eu_mask: u64,
    ) -> Result<Topology, TopologyError> {
        Topology::from_masks(1, max_subslices, &[subslice_mask], max_eus, eu_mask)
    }

    /// A topology of `subslice_masks.len()` slices: the slices of
    /// `slice_mask`, slice `s` with the subslices of `subslice_masks[s]`
    /// (`max_subslices` bits each), every enabled subslice with the EUs of
    /// `eu_mask` (`max_eus` bits), laid out as i915's query would.
    pub fn from_masks(
        slice_mask: u64,
        max_subslices: u16,
        subslice_masks: &[u64],
        max_eus: u16,
        eu_mask: u64,
    ) -> Result<Topology, TopologyError> {
        let slices = subslice_masks.len();
        for (what, bits) in [
            ("max_slices", slices),
            (
                "max_slices × max_subslices",
                slices.saturating_mul(usize::from(max_subslices)),
            ),
            ("max_eus_per_subslice", usize::from(max_eus)),
        ] {
            if bits > 64 {
                return Err(TopologyError::TooWide { what, bits });
            }
        }
        // At most 64 slices (checked above), so the casts below are exact.
        let s_bytes = bytes_for(slices as u16);
        let ss_bytes = bytes_for(max_subslices);
        let eu_bytes = bytes_for(max_eus);
        let header = DrmI915QueryTopologyInfo {
            flags: 0,
            max_slices: slices as u16,
            max_subslices,
            max_eus_per_subslice: max_eus,
            subslice_offset: s_bytes as u16,
            subslice_stride: ss_bytes as u16,
            eu_offset: (s_bytes + slices * ss_bytes) as u16,
            eu_stride: eu_bytes as u16,
        };
        let eu_masks = subslice_masks
            .iter()
            .flat_map(|ss_mask| {
                (0..usize::from(max_subslices)).map(move |ss| {
                    if ss_mask >> ss & 1 == 1 {
                        eu_mask
                    } else {
                        0
                    }
                })
            })
            .collect();
        Ok(Topology {
            header,
            slice_mask,
            subslice_masks: subslice_masks.to_vec(),
            eu_masks,
        })
    }

    /// The bytes of i915's topology query for this topology (header, then
    /// the masks at the header's offsets and strides): what an IGT
    /// recording's DEVICE_TOPOLOGY record holds.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let ss_bytes = bytes_for(h.max_subslices);
        let eu_bytes = bytes_for(h.max_eus_per_subslice);
        let mut data: Vec<u8> = Vec::new();
        let mut put = |offset: usize, mask: u64, n: usize| {
            let end = offset + n;
            if data.len() < end {
                data.resize(end, 0);
            }
            // At most 8 bytes hold bits (a mask is 64 bits); any more stay 0.
            let k = n.min(8);
            data[offset..offset + k].copy_from_slice(&mask.to_le_bytes()[..k]);
        };
        put(0, self.slice_mask, bytes_for(h.max_slices));
        for (s, m) in self.subslice_masks.iter().enumerate() {
            put(
                usize::from(h.subslice_offset) + s * usize::from(h.subslice_stride),
                *m,
                ss_bytes,
            );
        }
        for (i, m) in self.eu_masks.iter().enumerate() {
            put(
                usize::from(h.eu_offset) + i * usize::from(h.eu_stride),
                *m,
                eu_bytes,
            );
        }
        let mut out = h.to_bytes().to_vec();
        out.extend_from_slice(&data);
        out
    }

    fn slice_on(&self, s: usize) -> bool {
        s < 64 && self.slice_mask >> s & 1 == 1
    }

    /// Enabled subslices of the enabled slices as one mask, bit
    /// `slice × max_subslices + subslice` (the layout of the metric sets'
    /// `$SubsliceMask`).
    pub fn subslice_mask(&self) -> u64 {
        let per = usize::from(self.header.max_subslices);
        self.subslice_masks
            .iter()
            .enumerate()
            .filter(|(s, _)| self.slice_on(*s))
            .fold(0u64, |m, (s, ss)| {
                // `parse` proved slices × subslices <= 64, so the shift is in range.
                m | ss.checked_shl((s * per) as u32).unwrap_or(0)
            })
    }

    /// Enabled subslices of the enabled slices as the metric sets'
    /// `$SubsliceMask` numbers them (IGT's `lib/i915/perf.c`): bit
    /// `slice × bits_per_slice + subslice`, whatever the kernel's
    /// `max_subslices` (Gen9 and Gen10 kernels report 4 subslices a slice,
    /// the metric files count 3). Bits past 64 are dropped.
    pub fn metric_subslice_mask(&self, bits_per_slice: u32) -> u64 {
        let per = usize::from(self.header.max_subslices).min(64);
        let mut mask = 0u64;
        for (s, ss_mask) in self.subslice_masks.iter().enumerate() {
            if !self.slice_on(s) {
                continue;
            }
            for ss in 0..per {
                if ss_mask >> ss & 1 == 1 {
                    let bit = u32::try_from(s)
                        .ok()
                        .and_then(|s| s.checked_mul(bits_per_slice))
                        .and_then(|b| b.checked_add(ss as u32));
                    mask |= bit.and_then(|b| 1u64.checked_shl(b)).unwrap_or(0);
                }
            }
        }
        mask
    }

    /// Enabled EUs of enabled subslices of enabled slices.
    pub fn eu_count(&self) -> u64 {
        let per = usize::from(self.header.max_subslices);
        let mut n = 0u64;
        for (s, ss_mask) in self.subslice_masks.iter().enumerate() {
            if !self.slice_on(s) {
                continue;
            }
            for ss in 0..per.min(64) {
                if ss_mask >> ss & 1 == 1 {
                    if let Some(eu) = self.eu_masks.get(s * per + ss) {
                        n += u64::from(eu.count_ones());
                    }
                }
            }
        }
        n
    }
}

/// The GPU frequency range sysfs gives (i915 `gt_min_freq_mhz` /
/// `gt_max_freq_mhz`, xe `tile0/gt0/freq0/min_freq` / `max_freq`), in MHz.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GtFrequencies {
    /// Lowest frequency (MHz).
    pub min_mhz: u64,
    /// Highest frequency (MHz).
    pub max_mhz: u64,
}

/// Device values and which of them are the preset's rather than measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceValues {
    /// The values.
    pub info: DeviceInfo,
    /// The variables taken from the project's preset (threads per EU always;
    /// the frequencies when sysfs gave none).
    pub from_preset: Vec<DeviceVar>,
}

/// How the metric sets of `project` number subslices (the catalogue's
/// `gpu: topology:`, after IGT's `lib/i915/perf.c`): bits a slice in
/// `$SubsliceMask`, and whether the subslices are dual subslices
/// (`$DualSubsliceMask`). `None` for a project that is not a compiled GPU.
fn mask_layout(project: &str) -> Option<(u32, bool)> {
    let gpu = hal::project(project)?.gpu?;
    Some((gpu.subslices_per_slice, gpu.dual_subslices))
}

/// Device values for the metric equations from a topology.
///
/// `project` and `gt` pick the catalogue part ([`hal::part_or_first`]: a GT
/// without one takes the project's first) that supplies what the kernel does
/// not say: threads per EU, and the GPU frequencies unless `frequencies`
/// gives them (each such variable is listed in
/// [`DeviceValues::from_preset`]). `timestamp_frequency` is
/// `I915_PARAM_CS_TIMESTAMP_FREQUENCY`. The subslice mask is numbered as the
/// metric sets expect ([`Topology::metric_subslice_mask`]: 3 bits a slice
/// before Gen11). On Gen12 (`tgl`, `rkl`, `adl`, `dg1`) the kernel's
/// subslices are dual subslices, so `dual_subslice_mask` is the subslice
/// mask there and 0 before.
pub fn device_values(
    topology: &Topology,
    project: &str,
    gt: Option<u8>,
    timestamp_frequency: u64,
    frequencies: Option<GtFrequencies>,
) -> Result<DeviceValues, DeviceInfoError> {
    let no_preset = || DeviceInfoError::NoPreset {
        project: project.to_string(),
    };
    let preset = hal::part_or_first(project, gt)
        .ok_or_else(no_preset)?
        .device;
    let eus = topology.eu_count();
    let (bits_per_slice, gen12) = mask_layout(project).ok_or_else(no_preset)?;
    let subslice_mask = topology.metric_subslice_mask(bits_per_slice);
    if topology.slice_mask == 0 || eus == 0 {
        return Err(DeviceInfoError::Topology(TopologyError::Empty));
    }
    if timestamp_frequency == 0 {
        return Err(DeviceInfoError::NoTimestampFrequency);
    }
    let mut from_preset = vec![DeviceVar::EuThreadsCount];
    let (min, max) = match frequencies {
        Some(f) => (f.min_mhz * 1_000_000, f.max_mhz * 1_000_000),
        None => {
            from_preset.extend([DeviceVar::GpuMinFrequency, DeviceVar::GpuMaxFrequency]);
            (preset.gpu_min_frequency, preset.gpu_max_frequency)
        }
    };
    let info = DeviceInfo {
        eu_cores_total_count: eus,
        eu_slices_total_count: u64::from(topology.slice_mask.count_ones()),
        eu_subslices_total_count: u64::from(subslice_mask.count_ones()),
        slice_mask: topology.slice_mask,
        subslice_mask,
        dual_subslice_mask: if gen12 { subslice_mask } else { 0 },
        gpu_timestamp_frequency: timestamp_frequency,
        gpu_min_frequency: min,
        gpu_max_frequency: max,
        ..preset
    };
    Ok(DeviceValues { info, from_preset })
}

/// Why no [`DeviceInfo`] could be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceInfoError {
    /// The topology is unusable.
    Topology(TopologyError),
    /// No preset of the project gives threads per EU and frequencies.
    NoPreset {
        /// The project.
        project: String,
    },
    /// The timestamp frequency is 0 (every time-based counter divides by it).
    NoTimestampFrequency,
}

impl fmt::Display for DeviceInfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceInfoError::Topology(e) => e.fmt(f),
            DeviceInfoError::NoPreset { project } => write!(
                f,
                "no device preset for project `{project}` (threads per EU and frequencies unknown)"
            ),
            DeviceInfoError::NoTimestampFrequency => {
                f.write_str("the kernel reported a timestamp frequency of 0")
            }
        }
    }
}

impl std::error::Error for DeviceInfoError {}

impl From<TopologyError> for DeviceInfoError {
    fn from(e: TopologyError) -> Self {
        DeviceInfoError::Topology(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue's device values of `project` GT`gt`.
    fn dev(project: &str, gt: u8) -> DeviceInfo {
        hal::part(project, gt).expect("a catalogue part").device
    }

    fn tgl_gt(gt: u8) -> DeviceInfo {
        dev("tgl", gt)
    }

    /// A topology buffer built by hand: `slices` bits of slice mask, then per
    /// slice its subslice mask, then per (slice, subslice) its EU mask,
    /// each mask `stride` bytes.
    fn build(
        max_slices: u16,
        max_subslices: u16,
        max_eus: u16,
        slice_mask: u64,
        ss_masks: &[u64],
        eu_masks: &[u64],
    ) -> Vec<u8> {
        let s_bytes = bytes_for(max_slices);
        let ss_stride = bytes_for(max_subslices);
        let eu_stride = bytes_for(max_eus);
        let ss_offset = s_bytes;
        let eu_offset = ss_offset + usize::from(max_slices) * ss_stride;
        let h = DrmI915QueryTopologyInfo {
            flags: 0,
            max_slices,
            max_subslices,
            max_eus_per_subslice: max_eus,
            subslice_offset: ss_offset as u16,
            subslice_stride: ss_stride as u16,
            eu_offset: eu_offset as u16,
            eu_stride: eu_stride as u16,
        };
        let mut b = h.to_bytes().to_vec();
        b.extend_from_slice(&slice_mask.to_le_bytes()[..s_bytes]);
        for m in ss_masks {
            b.extend_from_slice(&m.to_le_bytes()[..ss_stride]);
        }
        for m in eu_masks {
            b.extend_from_slice(&m.to_le_bytes()[..eu_stride]);
        }
        b
    }

    /// TGL GT2 as the kernel reports it: one slice, 6 dual subslices of 16 EUs.
    fn tgl_gt2() -> Vec<u8> {
        build(1, 6, 16, 0x1, &[0x3f], &[0xffff; 6])
    }

    #[test]
    fn tgl_gt2_matches_the_preset() {
        let t = Topology::parse(&tgl_gt2()).expect("valid");
        assert_eq!(t.slice_mask, 1);
        assert_eq!(t.subslice_mask(), 0x3f);
        assert_eq!(t.eu_count(), 96);
        let d = device_values(&t, "tgl", Some(2), 19_200_000, None).expect("device info");
        assert_eq!(d.info, tgl_gt(2));
        assert_eq!(
            d.from_preset,
            [
                DeviceVar::EuThreadsCount,
                DeviceVar::GpuMinFrequency,
                DeviceVar::GpuMaxFrequency
            ]
        );
        // Frequencies from sysfs replace the preset's.
        let f = GtFrequencies {
            min_mhz: 100,
            max_mhz: 1300,
        };
        let d = device_values(&t, "tgl", Some(2), 19_200_000, Some(f)).expect("device info");
        assert_eq!(
            (d.info.gpu_min_frequency, d.info.gpu_max_frequency),
            (100_000_000, 1_300_000_000)
        );
        assert_eq!(d.from_preset, [DeviceVar::EuThreadsCount]);
    }

    #[test]
    fn to_bytes_is_what_parse_reads() {
        for b in [
            tgl_gt2(),
            build(2, 3, 8, 0x3, &[0x7, 0x5], &[0xff; 6]),
            build(1, 2, 10, 0x1, &[0x3], &[0x3ff, 0x0ff]),
        ] {
            let t = Topology::parse(&b).expect("valid");
            assert_eq!(t.to_bytes(), b);
            assert_eq!(Topology::parse(&t.to_bytes()), Ok(t));
        }
        // Two slices, slice 1 without its subslice 1: its EU mask is 0.
        let two = Topology::from_masks(0x3, 3, &[0x7, 0x5], 8, 0xff).expect("fits");
        let b = build(
            2,
            3,
            8,
            0x3,
            &[0x7, 0x5],
            &[0xff, 0xff, 0xff, 0xff, 0, 0xff],
        );
        assert_eq!(two.to_bytes(), b);
        assert_eq!((two.subslice_mask(), two.eu_count()), (0x2f, 40));
        assert!(matches!(
            Topology::from_masks(1, 8, &[0; 9], 8, 1),
            Err(TopologyError::TooWide { .. })
        ));
        let one = Topology::single_slice(6, 0x3f, 16, 0xffff).expect("fits");
        assert_eq!(one.to_bytes(), tgl_gt2());
        assert_eq!(one.eu_count(), 96);
        let fused = Topology::single_slice(8, 0x0f, 16, 0x00ff).expect("fits");
        assert_eq!((fused.subslice_mask(), fused.eu_count()), (0x0f, 32));
        assert_eq!(Topology::parse(&fused.to_bytes()), Ok(fused));
        assert!(matches!(
            Topology::single_slice(65, 1, 8, 1),
            Err(TopologyError::TooWide { .. })
        ));
        // A hand-made topology wider than 64 bits writes zeros, never panics.
        let mut wide = Topology::single_slice(8, 1, 8, 1).expect("fits");
        wide.header.max_eus_per_subslice = 100;
        wide.header.eu_stride = 13;
        let b = wide.to_bytes();
        assert_eq!(b.len(), 16 + 2 + 8 * 13);
    }

    #[test]
    fn fused_off_parts_count_only_what_is_enabled() {
        // HSW-like: 1 slice of 2 subslices of 10 EUs; subslice 1 has 2 EUs fused off.
        let b = build(1, 2, 10, 0x1, &[0x3], &[0x3ff, 0x0ff]);
        let t = Topology::parse(&b).expect("valid");
        assert_eq!(t.eu_count(), 18);
        // A subslice that is off does not count its EU mask.
        let b = build(1, 2, 10, 0x1, &[0x1], &[0x3ff, 0x3ff]);
        let t = Topology::parse(&b).expect("valid");
        assert_eq!((t.subslice_mask(), t.eu_count()), (0x1, 10));
        let d = device_values(&t, "hsw", Some(2), 12_500_000, None)
            .expect("device info")
            .info;
        assert_eq!(d.eu_cores_total_count, 10);
        assert_eq!(d.eu_subslices_total_count, 1);
        assert_eq!(d.dual_subslice_mask, 0, "no dual subslices before Gen12");
        assert_eq!(d.eu_threads_count, 7);
        // Two slices: subslice bits of slice 1 start at max_subslices; slice 1 off.
        let b = build(2, 3, 8, 0x1, &[0x7, 0x7], &[0xff; 6]);
        let t = Topology::parse(&b).expect("valid");
        assert_eq!((t.subslice_mask(), t.eu_count()), (0x7, 24));
        let b = build(2, 3, 8, 0x3, &[0x7, 0x5], &[0xff; 6]);
        let t = Topology::parse(&b).expect("valid");
        assert_eq!((t.subslice_mask(), t.eu_count()), (0x2f, 40));
        let d = device_values(&t, "bdw", None, 12_500_000, None)
            .expect("device info")
            .info;
        assert_eq!((d.eu_slices_total_count, d.slice_mask), (2, 0x3));
    }

    #[test]
    fn multi_slice_gen9_and_gen10_number_subslices_as_the_metric_files() {
        // SKL GT3 as the Gen9 kernel reports it: 3 slices of 4 subslices
        // (intel_sseu.c gen9_sseu_info_init), slices 0-1 on with 3 each.
        let b = build(3, 4, 8, 0x3, &[0x7, 0x7, 0], &[0xff; 12]);
        let t = Topology::parse(&b).expect("valid");
        assert_eq!(t.subslice_mask(), 0x77, "the kernel's layout");
        let d = device_values(&t, "skl", Some(3), 12_000_000, None).expect("values");
        assert_eq!(d.info.subslice_mask, 0x3f, "IGT's: 3 bits a slice");
        assert_eq!(d.info, dev("skl", 3));
        // CNL GT2: 2 slices of 3 and 2 subslices (the kernel's 6 × 4 layout).
        let b = build(6, 4, 8, 0x3, &[0x7, 0x3, 0, 0, 0, 0], &[0xff; 24]);
        let t = Topology::parse(&b).expect("valid");
        let d = device_values(&t, "cnl", Some(2), 19_200_000, None).expect("values");
        assert_eq!(d.info, dev("cnl", 2));
        // Gen12 parts other than TGL have dual subslices too.
        let b = build(1, 2, 16, 0x1, &[0x3], &[0xffff; 2]);
        let t = Topology::parse(&b).expect("valid");
        let d = device_values(&t, "rkl", None, 19_200_000, None).expect("values");
        assert_eq!(d.info, dev("rkl", 1));
        // ICL: one slice of 8 subslices, 8 bits a slice.
        let b = build(1, 8, 8, 0x1, &[0xff], &[0xff; 8]);
        let t = Topology::parse(&b).expect("valid");
        let d = device_values(&t, "icl", None, 19_200_000, None).expect("values");
        assert_eq!(d.info, dev("icl", 2));
        // Bits past 64 are dropped, never a panic.
        let b = build(8, 8, 8, 0xff, &[0xff; 8], &[0xff; 64]);
        let t = Topology::parse(&b).expect("valid");
        // 9 bits a slice: slices 0-6 whole, slice 7 keeps only bit 63.
        let want = (0..7).fold(1u64 << 63, |m, s| m | 0xff << (9 * s));
        assert_eq!(t.metric_subslice_mask(9), want);
        assert_eq!(t.metric_subslice_mask(u32::MAX), 0xff);
    }

    #[test]
    fn damaged_buffers_are_errors_never_panics() {
        let good = tgl_gt2();
        assert_eq!(
            Topology::parse(&good[..10]),
            Err(TopologyError::ShortHeader { len: 10 })
        );
        // Cut inside the EU masks: the mask and its place are named.
        let cut = &good[..good.len() - 1];
        match Topology::parse(cut) {
            Err(TopologyError::OutOfBounds { what, len, .. }) => {
                assert_eq!(what, "EU mask of slice 0 subslice 5");
                assert_eq!(len, cut.len());
            }
            other => panic!("{other:?}"),
        }
        // Offsets near u16::MAX, strides of 0, too many slices.
        let mut h = DrmI915QueryTopologyInfo::parse(&good).expect("header");
        h.eu_offset = u16::MAX;
        let mut b = h.to_bytes().to_vec();
        b.extend_from_slice(&good[16..]);
        assert!(matches!(
            Topology::parse(&b),
            Err(TopologyError::OutOfBounds { .. })
        ));
        let mut h2 = DrmI915QueryTopologyInfo::parse(&good).expect("header");
        h2.eu_stride = 0;
        let mut b = h2.to_bytes().to_vec();
        b.extend_from_slice(&good[16..]);
        assert_eq!(
            Topology::parse(&b),
            Err(TopologyError::Stride {
                field: "eu_stride",
                stride: 0,
                needed: 2
            })
        );
        let mut h3 = DrmI915QueryTopologyInfo::parse(&good).expect("header");
        h3.max_slices = 9;
        h3.max_subslices = 8;
        assert_eq!(
            Topology::parse(&h3.to_bytes()),
            Err(TopologyError::TooWide {
                what: "max_slices × max_subslices",
                bits: 72
            })
        );
        // Every prefix and every single-byte change: an answer, never a panic.
        for n in 0..good.len() {
            let _ = Topology::parse(&good[..n]);
        }
        for i in 0..good.len() {
            for v in [0u8, 1, 0x7f, 0xff] {
                let mut b = good.clone();
                b[i] = v;
                if let Ok(t) = Topology::parse(&b) {
                    let _ = (t.subslice_mask(), t.eu_count());
                }
            }
        }
    }

    #[test]
    fn device_info_refuses_what_it_cannot_know() {
        let t = Topology::parse(&tgl_gt2()).expect("valid");
        assert_eq!(
            device_values(&t, "ivb", Some(2), 12_500_000, None),
            Err(DeviceInfoError::NoPreset {
                project: "ivb".into()
            })
        );
        assert_eq!(
            device_values(&t, "tgl", Some(2), 0, None),
            Err(DeviceInfoError::NoTimestampFrequency)
        );
        let none = Topology::parse(&build(1, 6, 16, 0x1, &[0x3f], &[0; 6])).expect("valid");
        assert_eq!(
            device_values(&none, "tgl", Some(1), 19_200_000, None),
            Err(DeviceInfoError::Topology(TopologyError::Empty))
        );
        // GT1 takes the GT1 preset's frequencies, a GT with no preset the project's first.
        let d = device_values(&t, "tgl", Some(3), 19_200_000, None).expect("device info");
        assert_eq!(d.info.gpu_max_frequency, tgl_gt(1).gpu_max_frequency);
    }
}
