/** Intel GPU PCI device ids, by ascending id: 4 ids, 3 of them on described projects.

 Source: golden test, after i915_pciids.h*/
pub static DEVICES: &[::perfregs::hal::meta::DeviceId] = &[
    ::perfregs::hal::meta::DeviceId { pci_id: 0x0a12, platform: "HSW", gt: Some(2), project: Some("hsw"), macro_name: "INTEL_HSW_ULT_GT2_IDS", },
    ::perfregs::hal::meta::DeviceId { pci_id: 0x0a16, platform: "HSW", gt: Some(2), project: Some("hsw"), macro_name: "INTEL_HSW_ULT_GT2_IDS", },
    ::perfregs::hal::meta::DeviceId { pci_id: 0x0f30, platform: "VLV", gt: None, project: Some("vlv"), macro_name: "INTEL_VLV_IDS", },
    ::perfregs::hal::meta::DeviceId { pci_id: 0x1912, platform: "SKL", gt: Some(2), project: None, macro_name: "INTEL_SKL_GT2_IDS", },
];
/// Where [`DEVICES`] comes from (the `source:` of the device table).
pub const DEVICES_SOURCE: &str = "golden test, after i915_pciids.h";
/// The [`DEVICES`] row of PCI device id `pci_id` (binary search), `None` for an id not listed.
pub fn device(pci_id: u16) -> Option<&'static ::perfregs::hal::meta::DeviceId> {
    ::perfregs::hal::meta::DeviceId::find(DEVICES, pci_id)
}
