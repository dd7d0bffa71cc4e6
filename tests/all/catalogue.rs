//! The catalogue's GT parts (`regdefs/projects.yaml`, `gpu: parts:`, as
//! `hal::PARTS`): whole parts whose counts are their masks' populations,
//! the EU and thread counts of their generation, the timestamp frequencies
//! i915 computes, and masks that fit what their metric files test. (These
//! were the `DeviceInfo` presets of perfregs-types before the catalogue.)

use perfregs::metrics::rt::DeviceVar;

#[test]
fn parts_are_whole_parts() {
    for (k, part) in hal::PARTS.iter().enumerate() {
        let (project, gt, d) = (&part.project, &part.gt, &part.device);
        assert_eq!(hal::part(project, *gt).map(|p| p.device), Some(*d));
        // Listed once.
        assert!(
            hal::PARTS[..k]
                .iter()
                .all(|p| (&p.project, &p.gt) != (project, gt)),
            "{project} GT{gt} twice"
        );
        // Every divisor an equation uses is set.
        for v in [
            DeviceVar::EuCoresTotalCount,
            DeviceVar::EuSlicesTotalCount,
            DeviceVar::EuSubslicesTotalCount,
            DeviceVar::EuThreadsCount,
            DeviceVar::SliceMask,
            DeviceVar::SubsliceMask,
            DeviceVar::GpuMaxFrequency,
            DeviceVar::GpuMinFrequency,
            DeviceVar::GpuTimestampFrequency,
        ] {
            assert_ne!(d.get(v), 0, "{project} GT{gt} {}", v.name());
        }
        assert!(d.gpu_min_frequency < d.gpu_max_frequency, "{project}");
        // Counts are the masks' populations.
        assert_eq!(
            d.eu_slices_total_count,
            u64::from(d.slice_mask.count_ones()),
            "{project} GT{gt}"
        );
        assert_eq!(
            d.eu_subslices_total_count,
            u64::from(d.subslice_mask.count_ones()),
            "{project} GT{gt}"
        );
        // EUs per subslice by generation (Mesa's max_eus_per_subslice):
        // 10 on HSW, 8 on Gen8, Gen9, Gen10 and Gen11, 6 on Gen9 LP, 16
        // per dual subslice on Gen12 up to Xe_HPG/Xe_LPG (Mesa's
        // XEHP_FEATURES), 8 vector engines per Xe core from Xe2. Threads:
        // IGT's `eu_threads_count` (lib/xe/xe_oa.c): 6 on Gen9 LP, 8 on
        // graphics 12.55 (DG2) and 12.60 (PVC), else 7. Gen12 and later by
        // the catalogue's graphics version, so a new project of a known IP
        // needs no row here.
        let graphics = hal::project(project)
            .and_then(|p| p.gpu)
            .map(|g| g.graphics)
            .unwrap_or_else(|| panic!("{project}: no GPU facts"));
        let (per, threads, gen12) = match (*project, graphics) {
            ("hsw", _) => (10, 7, false),
            ("bdw" | "chv" | "skl" | "kbl" | "cfl" | "cnl" | "icl" | "ehl", _) => (8, 7, false),
            ("bxt" | "glk", _) => (6, 6, false),
            (_, (12, 0..=10)) => (16, 7, true),
            (_, (12, 55..=60)) => (16, 8, true),
            (_, (12, 70..=74)) => (16, 7, true),
            (_, (20 | 30, _)) => (8, 7, true),
            (other, g) => panic!("{other} (graphics {g:?}): no generation in this test"),
        };
        assert_eq!(
            d.eu_cores_total_count,
            u64::from(d.subslice_mask.count_ones()) * per,
            "{project} GT{gt}"
        );
        assert_eq!(d.eu_threads_count, threads, "{project}");
        // Dual subslices are Gen12's subslices (Xe cores later), and only
        // Gen12 and later have them.
        let dss = if gen12 { d.subslice_mask } else { 0 };
        assert_eq!(d.dual_subslice_mask, dss, "{project} GT{gt}");
        // Subslice bits stay inside the enabled slices: 3 a slice before
        // Gen11 (IGT's perf.c), one slice on Gen11 and Gen12 LP, 4 Xe cores
        // a slice from graphics 12.55 (the metric files' $GtSlice<s>XeCore<n>).
        let stride = match graphics {
            (12, 55..) | (13.., _) => 4,
            (11.., _) => 64,
            _ => 3,
        };
        let inside = (0..64u32)
            .filter(|s| d.slice_mask >> s & 1 == 1)
            .fold(0u64, |m, s| {
                let bits = if stride == 64 {
                    u64::MAX
                } else {
                    ((1u64 << stride) - 1) << (stride * s)
                };
                m | bits
            });
        assert_eq!(d.subslice_mask & !inside, 0, "{project} GT{gt}");
    }
    assert_eq!(
        hal::part("tgl", 2).map(|p| p.device.eu_cores_total_count),
        Some(96)
    );
    assert!(hal::part("bdw", 1).is_none());
    assert!(hal::part("skl", 1).is_none());
    assert!(hal::part("snb", 2).is_none());
    // The one part of a project answers for a device without a GT.
    let first = |p: &str, g: Option<u8>| hal::part_or_first(p, g).map(|x| (x.project, x.gt));
    assert_eq!(first("icl", None), Some(("icl", 2)));
    assert_eq!(first("skl", Some(1)), Some(("skl", 2)));
    // Timestamps (i915 intel_gt_clock_utils.c): 12.5 MHz to Gen8, 12 MHz
    // on Gen9, 19.2 MHz on Gen9 LP and from the crystal later.
    for part in hal::PARTS {
        let (project, gt, d) = (&part.project, &part.gt, &part.device);
        let want = match *project {
            "hsw" | "bdw" => 12_500_000,
            "chv" => 12_500_000,
            "skl" | "kbl" | "cfl" => 12_000_000,
            _ => 19_200_000,
        };
        assert_eq!(d.gpu_timestamp_frequency, want, "{project} GT{gt}");
    }
}

/// The mask bits each metric file's availability expressions test
/// (`$SliceMask N AND`, `$SubsliceMask N AND`, `$DualSubsliceMask N AND`,
/// the union of every N), read from IGT's `oa-*.xml` files:
/// (file, project, GT, slice bits, subslice bits, dual subslice bits,
/// how the part's masks relate to them).
const FILE_MASKS: &[(&str, &str, u8, u64, u64, u64, Fit)] = &[
    ("oa-hsw.xml", "hsw", 2, 0, 0xf, 0, Fit::PartInFile),
    ("oa-bdw.xml", "bdw", 2, 0x3, 0x3f, 0, Fit::PartInFile),
    ("oa-chv.xml", "chv", 1, 0x3, 0x3f, 0, Fit::PartInFile),
    ("oa-sklgt2.xml", "skl", 2, 0x1, 0x1f, 0, Fit::PartInFile),
    ("oa-sklgt3.xml", "skl", 3, 0x1, 0x1f, 0, Fit::FileInPart),
    ("oa-sklgt4.xml", "skl", 4, 0x1, 0x1f, 0, Fit::FileInPart),
    ("oa-bxt.xml", "bxt", 1, 0x1, 0x1f, 0, Fit::PartInFile),
    ("oa-kblgt2.xml", "kbl", 2, 0x1, 0x1f, 0, Fit::PartInFile),
    ("oa-kblgt3.xml", "kbl", 3, 0x1, 0x1f, 0, Fit::FileInPart),
    ("oa-glk.xml", "glk", 1, 0x1, 0x1f, 0, Fit::PartInFile),
    ("oa-cflgt2.xml", "cfl", 2, 0x1, 0x1f, 0, Fit::PartInFile),
    ("oa-cflgt3.xml", "cfl", 3, 0x1, 0x1f, 0, Fit::FileInPart),
    ("oa-cnl.xml", "cnl", 2, 0x3, 0x1f, 0, Fit::Same),
    ("oa-icl.xml", "icl", 2, 0x1, 0xff, 0, Fit::Same),
    ("oa-ehl.xml", "ehl", 1, 0x1, 0xff, 0, Fit::PartInFile),
    ("oa-tglgt1.xml", "tgl", 1, 0x1, 0, 0x3, Fit::FileInPart),
    ("oa-tglgt2.xml", "tgl", 2, 0x1, 0, 0x3f, Fit::Same),
    ("oa-rkl.xml", "rkl", 1, 0x1, 0, 0x3, Fit::Same),
    ("oa-adl.xml", "adl", 2, 0x1, 0, 0x3f, Fit::Same),
    ("oa-dg1.xml", "dg1", 2, 0x1, 0, 0x3f, Fit::Same),
];

/// How a part's masks relate to the bits its metric file tests.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fit {
    /// The file tests exactly the part's slices and subslices: the file
    /// reveals the topology (CNL, ICL, TGL GT2, RKL, ADL, DG1).
    Same,
    /// Every bit the file tests is the part's; the part has more (the
    /// Gen9 GT3/GT4 files test slice 0 only; `oa-tglgt1.xml` tests 2 of
    /// the preset's 3 dual subslices).
    FileInPart,
    /// The file is written for the generation's largest part (HSW GT3,
    /// BDW GT3, two-slice Gen9 masks `0x09`/`0x12`, ICL's 8 subslices
    /// on EHL): the part has a subset of what it tests, and the sets
    /// gated on the rest are unavailable on it, as on the real part.
    PartInFile,
}

#[test]
fn parts_agree_with_the_masks_their_metric_files_test() {
    assert_eq!(FILE_MASKS.len(), 20);
    for (file, project, gt, slices, subslices, dss, fit) in FILE_MASKS {
        let d = hal::part(project, *gt)
            .map(|p| p.device)
            .unwrap_or_else(|| panic!("{file}: no part {project} GT{gt}"));
        // The part claims its file (by the file's chipset).
        assert!(
            hal::part(project, *gt).is_some_and(|p| p
                .metric_files
                .contains(&format!("metricsets/{file}").as_str())),
            "{file}: not a file of {project} GT{gt}"
        );
        for (what, tested, part) in [
            ("SliceMask", *slices, d.slice_mask),
            ("SubsliceMask", *subslices, d.subslice_mask),
            ("DualSubsliceMask", *dss, d.dual_subslice_mask),
        ] {
            if tested == 0 {
                continue;
            }
            let ok = match fit {
                Fit::Same => tested == part,
                Fit::FileInPart => tested & !part == 0,
                Fit::PartInFile => part & !tested == 0,
            };
            assert!(
                ok,
                "{file} tests ${what} bits {tested:#x}, {project} GT{gt} has {part:#x} ({fit:?})"
            );
        }
        // Every slice a file tests exists on its part: the sets gated
        // on slice 0 are never dropped.
        assert_ne!(d.slice_mask & *slices.max(&1), 0, "{file}");
    }
    // SkuRevisionId: oa-sklgt2.xml gates blocks on 0x02 and 0x05 and
    // oa-bxt.xml on 0x03; production parts are past all of them.
    for part in hal::PARTS {
        let (project, gt, d) = (&part.project, &part.gt, &part.device);
        let past = match *project {
            "skl" => 0x05,
            "bxt" => 0x03,
            _ => continue,
        };
        assert!(d.sku_revision_id >= past, "{project} GT{gt}");
    }
}

/// The union of the constants `$<var> N AND` tests in `xml`.
fn tested_bits(xml: &str, var: &str) -> u64 {
    let key = format!("${var} ");
    let mut bits = 0;
    let mut rest = xml;
    while let Some(at) = rest.find(&key) {
        rest = &rest[at + key.len()..];
        let mut words = rest.split_whitespace();
        // `... 0x09 AND"`: the attribute's quote may follow `AND`.
        let (Some(n), Some(op)) = (words.next(), words.next()) else {
            continue;
        };
        if op.trim_end_matches('"') != "AND" {
            continue;
        }
        let n = match n.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => n.parse(),
        };
        bits |= n.unwrap_or_else(|e| panic!("${var}: {e}"));
    }
    bits
}

#[test]
fn file_masks_are_the_files() {
    // The metric files shipped in regdefs/metricsets (IGT's, unchanged):
    // the four of before issue 18 must be there; the others are checked
    // once they are shipped beside them.
    let dir = std::path::Path::new(perfregs_regdefs::dir()).join("metricsets");
    let mut checked = Vec::new();
    for (file, _, _, slices, subslices, dss, _) in FILE_MASKS {
        let Ok(xml) = std::fs::read_to_string(dir.join(file)) else {
            continue;
        };
        assert_eq!(
            (
                tested_bits(&xml, "SliceMask"),
                tested_bits(&xml, "SubsliceMask"),
                tested_bits(&xml, "DualSubsliceMask")
            ),
            (*slices, *subslices, *dss),
            "{file}"
        );
        checked.push(*file);
    }
    for shipped in ["oa-hsw.xml", "oa-bdw.xml", "oa-tglgt1.xml", "oa-tglgt2.xml"] {
        assert!(
            checked.contains(&shipped),
            "{shipped} not found in {}",
            dir.display()
        );
    }
    assert_eq!(
        tested_bits(
            "$SubsliceMask 0x09 AND $SliceMask 2 AND $SubsliceMask 16 AND",
            "SubsliceMask"
        ),
        0x19
    );
}
