//! Text and literal helpers shared by the emit passes.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// One `#[doc]` attribute for `text` (one token tree however many lines:
/// the proc-macro path hands the compiler fewer tokens).
pub(super) fn doc(text: &str) -> TokenStream {
    let mut joined = String::with_capacity(text.len() + 16);
    for (i, l) in text.lines().enumerate() {
        if i > 0 {
            joined.push('\n');
        }
        joined.push(' ');
        joined.push_str(l.trim_end());
    }
    quote!(#[doc = #joined])
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
pub(crate) fn hex(v: u64) -> TokenStream {
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
