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
fn enum_complete(ir: &Ir, index: usize) -> bool {
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
    // compiles to a mask, encoding to a cast.
    let read_impl = if complete {
        let last = variants.last().cloned();
        quote! {
            type Read = Self;
            #[inline]
            fn from_bits(bits: u64) -> Self {
                match bits { #( #vals => Self::#variants, )* _ => Self::#last }
            }
        }
    } else {
        quote! {
            type Read = ::core::result::Result<Self, u64>;
            #[inline]
            fn from_bits(bits: u64) -> ::core::result::Result<Self, u64> {
                Self::from_bits(bits).ok_or(bits)
            }
        }
    };
    quote! {
        #edoc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(#repr)]
        pub enum #name {
            #( #vdocs #variants = #vals, )*
        }
        impl #name {
            /// Every named encoding.
            pub const ALL: &'static [#name] = &[#(#name::#variants),*];
            /// The encoding named by `bits`, if any.
            #[inline]
            pub const fn from_bits(bits: u64) -> ::core::option::Option<Self> {
                match bits { #( #vals => Some(Self::#variants), )* _ => None }
            }
            /// The encoded value.
            #[inline]
            pub const fn bits(self) -> u64 {
                self as u64
            }
            /// The PRM name of the encoding.
            pub const fn name(self) -> &'static str {
                match self { #( Self::#variants => #names, )* }
            }
        }
        impl #hal::FieldValue for #name {
            #read_impl
            #[inline]
            fn to_bits(self) -> u64 { self.bits() }
        }
    }
}
