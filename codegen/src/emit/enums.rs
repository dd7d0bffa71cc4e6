//! Enumerated field values: one Rust enum per description enum, with explicit
//! discriminants equal to the encodings.

use super::text::{doc, md, u64_lit};
use crate::ir::{EnumIr, Ir};
use crate::resolve::camel;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Whether reads of an enum's fields always decode to a named value: the
/// enum names every encoding of a power-of-two range, and every field using
/// it is exactly that wide.
pub(super) fn enum_complete(ir: &Ir, index: usize) -> bool {
    let e = &ir.enums[index];
    let n = e.values.len() as u64;
    if !n.is_power_of_two() || !(0..n).all(|v| e.values.iter().any(|x| x.value == v)) {
        return false;
    }
    let k = n.trailing_zeros();
    let mut used = false;
    for f in ir.layouts.iter().flat_map(|l| &l.fields) {
        if f.enum_index == Some(index) {
            used = true;
            if f.width != k {
                return false;
            }
        }
    }
    used
}

/// One enum and its `FieldValue` impl.
pub(super) fn emit_enum(ir: &Ir, index: usize, hal: &TokenStream) -> TokenStream {
    let e: &EnumIr = &ir.enums[index];
    let name = format_ident!("{}", e.name);
    let edoc = doc(&md(if e.description.is_empty() {
        &e.name
    } else {
        &e.description
    }));
    let variants: Vec<_> = e
        .values
        .iter()
        .map(|v| format_ident!("{}", camel(&v.name)))
        .collect();
    let vdocs: Vec<_> = e
        .values
        .iter()
        .map(|x| {
            let (n, v, d) = (&x.name, x.value, &x.description);
            doc(&format!(
                "`{v:#x}` {n}{}{}",
                if d.is_empty() { "" } else { ": " },
                md(d)
            ))
        })
        .collect();
    let vals: Vec<_> = e.values.iter().map(|v| u64_lit(v.value)).collect();
    let names: Vec<_> = e.values.iter().map(|v| v.name.as_str()).collect();
    let complete = enum_complete(ir, index);
    let max = e.values.iter().map(|v| v.value).max().unwrap_or(0);
    let repr = match max {
        0..=0xFF => quote!(u8),
        0x100..=0xFFFF => quote!(u16),
        0x1_0000..=0xFFFF_FFFF => quote!(u32),
        _ => quote!(u64),
    };
    // Explicit discriminants equal to the encodings: decoding a complete enum
    // is a cast from its representation (checked at compile time by the
    // macro), encoding a cast to it. The impls (`ALL`, `from_bits`,
    // `bits`, `name`, `FieldValue`) are written once, in `field_enum_impls!`.
    let kind = if complete {
        quote!(complete(#repr))
    } else {
        quote!(partial)
    };
    quote! {
        #edoc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(#repr)]
        pub enum #name {
            #( #vdocs #variants = #vals, )*
        }
        #hal::field_enum_impls!(#name, #kind, [#(#variants = #vals #names),*]);
    }
}

/// The project's `enums` module: each enum its registers use, under its
/// project-scoped name (`hsw::enums::ReportFormat`).
pub(super) fn scoped_module(ir: &Ir, p: usize) -> TokenStream {
    let items: Vec<TokenStream> = ir
        .scoped_enums
        .iter()
        .filter(|s| s.project == p)
        .map(|s| {
            let full = format_ident!("{}", ir.enums[s.enum_index].name);
            let name = format_ident!("{}", s.name);
            if full == name {
                quote!(#[doc(no_inline)] pub use super::super::enums::#full;)
            } else {
                quote!(#[doc(no_inline)] pub use super::super::enums::#full as #name;)
            }
        })
        .collect();
    if items.is_empty() {
        return quote!();
    }
    quote! {
        /// The enumerated field values of this project's registers, under one
        /// naming rule for every project (`ReportFormat`, `BufferSize`, ...).
        pub mod enums {
            #(#items)*
        }
    }
}
