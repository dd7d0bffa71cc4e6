//! The generated PCI device table: `hal::device` finds every row by its id,
//! says which platforms are described, and formats rows for messages.

use hal::meta::DeviceId;

#[test]
fn lookup_finds_every_row_and_nothing_else() {
    assert!(hal::DEVICES.len() >= 400);
    for d in hal::DEVICES {
        assert_eq!(hal::device(d.pci_id), Some(d));
    }
    let listed = |id: u16| hal::DEVICES.iter().any(|d| d.pci_id == id);
    for id in [0x0000, 0x0001, 0x1234, 0xFFFF] {
        assert!(!listed(id));
        assert_eq!(hal::device(id), None, "{id:#06x}");
    }
    assert!(hal::DEVICES_SOURCE.contains("i915_pciids.h"));
}

#[test]
fn described_and_undescribed_platforms() {
    let hsw = hal::device(0x0416).expect("HSW GT2 mobile");
    assert_eq!(
        (hsw.platform, hsw.gt, hsw.project),
        ("HSW", Some(2), Some("hsw"))
    );
    assert!(hsw.described());
    assert_eq!(hsw.macro_name, "INTEL_HSW_GT2_IDS");
    let skl = hal::device(0x1912).expect("SKL GT2");
    assert_eq!(
        (skl.platform, skl.gt, skl.project),
        ("SKL", Some(2), Some("skl"))
    );
    assert_eq!(skl.to_string(), "SKL GT2 (0x1912)");
    let pvc = hal::device(0x0BD5).expect("PVC");
    assert!(!pvc.described());
    assert_eq!(pvc.to_string(), "PVC (0x0bd5)");
    let vlv = hal::device(0x0F31).expect("VLV");
    assert_eq!(vlv.to_string(), "VLV (0x0f31)");
    // Every described row names a project the HAL has (with every feature on).
    for d in hal::DEVICES.iter().filter(|d| d.described()) {
        let p = d.project.unwrap_or_default();
        assert!(
            hal::PROJECTS.iter().any(|info| info.name == p),
            "{d}: project {p}"
        );
    }
}

#[test]
fn find_is_a_binary_search_over_a_sorted_table() {
    static T: [DeviceId; 3] = [
        DeviceId {
            pci_id: 1,
            platform: "A",
            gt: None,
            project: None,
            macro_name: "A",
        },
        DeviceId {
            pci_id: 5,
            platform: "B",
            gt: Some(1),
            project: Some("hsw"),
            macro_name: "B",
        },
        DeviceId {
            pci_id: 9,
            platform: "C",
            gt: None,
            project: None,
            macro_name: "C",
        },
    ];
    assert_eq!(DeviceId::find(&T, 5).map(|d| d.platform), Some("B"));
    assert_eq!(DeviceId::find(&T, 9).map(|d| d.platform), Some("C"));
    assert_eq!(DeviceId::find(&T, 4), None);
    assert_eq!(DeviceId::find(&[], 4), None);
}
