//! The PCI device table: one static slice of small structs, by ascending id,
//! and a binary-search lookup (no item per id, so the table costs the
//! compiler one constant).

use super::text;
use crate::ir::Ir;
use proc_macro2::TokenStream;
use quote::quote;

/// `DEVICES`, `DEVICES_SOURCE` and `device(pci_id)`, when the emitted
/// descriptions have a device table of their own (built-in ones are the HAL's).
pub(super) fn emit_devices(ir: &Ir, hal: &TokenStream) -> Option<TokenStream> {
    let rows: Vec<_> = ir.devices.iter().filter(|d| !d.external).collect();
    if rows.is_empty() {
        return None;
    }
    let mut sources: Vec<&str> = Vec::new();
    for d in &rows {
        if !sources.contains(&d.source.as_str()) {
            sources.push(&d.source);
        }
    }
    let source = sources.join("; ");
    let described = rows.iter().filter(|d| d.project.is_some()).count();
    let items = rows.iter().map(|d| {
        let id: TokenStream = format!("{:#06x}", d.pci_id)
            .parse()
            .unwrap_or_else(|_| text::hex(u64::from(d.pci_id)));
        let platform = d.platform.as_str();
        let gt = match d.gt {
            Some(g) => {
                let g = proc_macro2::Literal::u8_unsuffixed(g);
                quote!(Some(#g))
            }
            None => quote!(None),
        };
        let project = text::opt_str(d.project.as_deref());
        let macro_name = d.macro_name.as_str();
        quote!(#hal::meta::DeviceId { pci_id: #id, platform: #platform, gt: #gt, project: #project, macro_name: #macro_name })
    });
    let doc = text::doc(&format!(
        "Intel GPU PCI device ids, by ascending id: {} ids, {described} of them on described projects.\n\nSource: {}",
        rows.len(),
        text::md(&source)
    ));
    Some(quote! {
        #doc
        pub static DEVICES: &[#hal::meta::DeviceId] = &[#(#items),*];
        /// Where [`DEVICES`] comes from (the `source:` of the device table).
        pub const DEVICES_SOURCE: &str = #source;
        /// The [`DEVICES`] row of PCI device id `pci_id` (binary search), `None` for an id not listed.
        pub fn device(pci_id: u16) -> Option<&'static #hal::meta::DeviceId> {
            #hal::meta::DeviceId::find(DEVICES, pci_id)
        }
    })
}
