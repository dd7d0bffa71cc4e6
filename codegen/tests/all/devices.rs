//! The PCI device table (`devices:`): the shipped `regdefs/devices.yaml`
//! lowers completely and sorted, and an id listed in two files is reported
//! at the second with the first's location.

use crate::support::fixtures;

use fixtures::{compile, fixture};
use perfregs_codegen::compile_path;
use std::path::Path;

fn devices(source: &str, body: &str) -> (String, String) {
    (
        source.to_string(),
        format!("devices:\n  source: test\n  platforms:\n{body}"),
    )
}

#[test]
fn an_id_in_two_files_is_reported_at_the_second() {
    let (a, b) = (fixture("devices_a.yaml"), fixture("devices_b.yaml"));
    assert_eq!(
        compile(&[a.clone(), b.clone()]).err(),
        Some(vec!["PR132 devices_b.yaml:4:71 0x0412".to_string()])
    );
    // Each file alone is clean, and both lower to rows with their projects.
    let ir = compile(&[a]).expect("a alone");
    assert_eq!(ir.devices.len(), 1);
    assert_eq!(ir.devices[0].project.as_deref(), Some("hsw"));
    let ir = compile(&[b]).expect("b alone");
    let ids: Vec<u16> = ir.devices.iter().map(|d| d.pci_id).collect();
    assert_eq!(ids, [0x0412, 0x1912], "sorted by id");
    assert!(ir.devices.iter().all(|d| d.project.is_none()));
}

#[test]
fn a_string_id_is_a_located_shape_error() {
    let bad = devices(
        "s.yaml",
        "    - { platform: SKL, macro: INTEL_SKL_IDS, ids: [\"0x1912\"] }\n",
    );
    let got = compile(&[bad]).err().unwrap_or_default();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with("PR003 s.yaml:4:"), "{got:?}");
}

/// The shipped table: every described project appears with GT variants,
/// ids are unique and sorted, and spot checks against the kernel's macros.
#[test]
fn shipped_table() {
    let ir = compile_path(Path::new(perfregs_regdefs::dir())).expect("shipped descriptions");
    let d = &ir.devices;
    assert!(d.len() >= 400, "{} ids", d.len());
    assert!(
        d.windows(2).all(|w| w[0].pci_id < w[1].pci_id),
        "sorted, unique"
    );
    // Every GPU project of the catalogue has ids.
    for p in ir
        .gpus
        .iter()
        .map(|g| ir.catalogue.projects[g.project].name.as_str())
    {
        assert!(
            d.iter().any(|r| r.project.as_deref() == Some(p)),
            "{p} has ids"
        );
    }
    let find = |id: u16| d.iter().find(|r| r.pci_id == id).expect("listed");
    let row = |id: u16| {
        let r = find(id);
        (r.platform.as_str(), r.gt, r.project.as_deref())
    };
    assert_eq!(row(0x0126), ("SNB", Some(2), Some("snb")));
    assert_eq!(row(0x016A), ("IVB", Some(2), Some("ivb")));
    assert_eq!(row(0x0F31), ("VLV", None, Some("vlv")));
    assert_eq!(row(0x0D2E), ("HSW", Some(3), Some("hsw")));
    assert_eq!(row(0x162E), ("BDW", Some(3), Some("bdw")));
    assert_eq!(row(0x9A49), ("TGL", Some(2), Some("tgl")));
    assert_eq!(row(0x9A60), ("TGL", Some(1), Some("tgl")));
    assert_eq!(row(0x1912), ("SKL", Some(2), Some("skl")));
    assert_eq!(row(0x3E9B), ("CFL", Some(2), Some("cfl")));
    // Graphics 12.55 and later (Linux 7.0 pciids.h; GT variants as IGT picks
    // their metric files: lib/xe/xe_oa.c, lib/i915/perf.c).
    assert_eq!(row(0x56A0), ("DG2-G10", Some(3), Some("dg2")));
    assert_eq!(row(0x56A5), ("DG2-G11", Some(1), Some("dg2")));
    assert_eq!(row(0x56C1), ("ATS-M75", Some(1), Some("dg2")));
    assert_eq!(row(0x7D55), ("MTL", Some(3), Some("mtl")));
    assert_eq!(row(0x7D40), ("MTL", None, Some("mtl")));
    assert_eq!(row(0x7D51), ("ARL", Some(3), Some("mtl")));
    assert_eq!(row(0x64A0), ("LNL", None, Some("lnl")));
    assert_eq!(row(0xE20B), ("BMG", None, Some("bmg")));
    assert_eq!(row(0xE223), ("BMG", None, Some("bmg")));
    assert_eq!(row(0xB0B0), ("PTL", None, Some("ptl")));
    assert_eq!(row(0xFD81), ("WCL", None, Some("ptl")));
    // PVC: listed, not described (neither driver streams OA on it).
    assert_eq!(row(0x0BD5), ("PVC", None, None));
    assert_eq!(find(0x9A49).macro_name, "INTEL_TGL_GT2_IDS");
    assert!(find(0x9A49).source.contains("i915_pciids.h"));
    assert!(!find(0x9A49).external);
    // Only catalogue projects, under their own names.
    for r in d {
        if let Some(p) = &r.project {
            assert!(ir.catalogue.find(p).is_some(), "{p}");
        }
    }
}
