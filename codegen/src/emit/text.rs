//! Text and literal helpers shared by the emit passes.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// `#[doc]` attributes for `text`, one per line.
pub(super) fn doc(text: &str) -> TokenStream {
    let lines: Vec<TokenStream> = text
        .lines()
        .map(|l| {
            let l = format!(" {}", l.trim_end());
            quote!(#[doc = #l])
        })
        .collect();
    quote!(#(#lines)*)
}

/// PRM text as Markdown: brackets and angle brackets are literal (`[DevHSW]`
/// is a project tag, not a link; `<sup>` is OCR residue, not HTML).
pub(super) fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '[' | ']' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `Some("s")` or `None`.
pub(super) fn opt_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(Some(#s)),
        None => quote!(None),
    }
}

/// An unsuffixed integer literal.
pub(super) fn u64_lit(v: u64) -> Literal {
    Literal::u64_unsuffixed(v)
}

/// A hex literal, for readable generated code.
pub(super) fn hex(v: u64) -> TokenStream {
    format!("{v:#x}").parse().unwrap_or_else(|_| quote!(#v))
}

/// Rust type name of a project tag (`hsw` -> `Hsw`).
pub fn project_type(name: &str) -> proc_macro2::Ident {
    format_ident!("{}", crate::resolve::camel(name))
}

/// `msb:lsb`, or the bit for a one-bit field.
pub(super) fn bits_str(f: &crate::ir::FieldIr) -> String {
    if f.width == 1 {
        format!("{}", f.lsb)
    } else {
        format!("{}:{}", f.msb(), f.lsb)
    }
}
