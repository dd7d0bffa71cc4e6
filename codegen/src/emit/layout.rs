//! One module per field layout: the read and write value types, their field
//! accessors, one zero-sized type per field and the runtime field table,
//! emitted once however many registers and projects share the layout.

use super::text::{bits_str, doc, hex, md, u64_lit};
use super::EmitOptions;
use crate::access::Access;
use crate::ir::{FieldIr, Ir, LayoutIr};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn field_value_type(f: &FieldIr, ir: &Ir, hal: &TokenStream) -> TokenStream {
    match f.enum_index {
        Some(i) => {
            let n = format_ident!("{}", ir.enums[i].name);
            quote!(super::super::enums::#n)
        }
        None if f.width == 1 => quote!(bool),
        None => {
            let w = f.width;
            quote!(#hal::Bits<#w>)
        }
    }
}

/// Layout text with `{n}` (the element index of an array) shown as `n`.
fn n_text(s: &str) -> String {
    md(&s.replace("{n}", "n"))
}

/// The module doc: which registers use the layout, and the field table.
fn layout_doc(ir: &Ir, index: usize, l: &LayoutIr) -> String {
    let mut s = format!("Field layout `{}` ({} bits", l.title, l.width);
    if l.masked {
        s += ", masked: bits 31:16 enable the write of bits 15:0";
    }
    s += ").\n\nUsed by:";
    for r in &ir.registers {
        let on: Vec<&str> = r
            .instances
            .iter()
            .filter(|i| i.layout == index)
            .map(|i| ir.catalogue.projects[i.project].name.as_str())
            .collect();
        if !on.is_empty() {
            s += &format!(" `{}` ({}),", r.name.replace("{n}", "n"), on.join(", "));
        }
    }
    s.pop();
    s += ".\n";
    if !l.fields.is_empty() {
        s += "\n| bits | field | access | description |\n|---|---|---|---|\n";
        for f in l.fields.iter().rev() {
            let first = n_text(f.description.lines().next().unwrap_or("")).replace('|', "\\|");
            s += &format!(
                "| {} | `{}` | {} | {} |\n",
                bits_str(f),
                f.name,
                f.access.as_str(),
                first
            );
        }
    }
    s
}

/// The `layouts::<name>` module of layout `index`.
pub(super) fn emit_layout(ir: &Ir, index: usize, opts: &EmitOptions) -> TokenStream {
    let hal = &opts.hal;
    let l = &ir.layouts[index];
    let module = format_ident!("{}", l.name);
    let title = l.title.as_str();
    let width = l.width;
    let keep = hex(l.keep_mask());
    let mut field_types = Vec::new();
    let mut getters = Vec::new();
    let mut setters = Vec::new();
    let mut debug_fields = Vec::new();
    let mut infos = Vec::new();
    for f in &l.fields {
        let fname = format_ident!("{}", f.name);
        let vty = field_value_type(f, ir, hal);
        let acc = format_ident!("{}", f.access.type_name());
        let (lsb, fw) = (f.lsb, f.width);
        let fname_str = f.name.as_str();
        let mut text = format!("`{}`: bits {}, {}", f.name, bits_str(f), f.access.as_str());
        if !f.description.is_empty() {
            text += &format!("\n\n{}", n_text(&f.description));
        }
        if !f.note.is_empty() {
            text += &format!("\n\n**Note:** {}", n_text(&f.note));
        }
        let fdoc = doc(&text);
        let short = doc(&format!(
            "`{}` (bits {}, {}).",
            f.name,
            bits_str(f),
            f.access.as_str()
        ));
        let konst = format_ident!("{}", f.name.to_ascii_uppercase());
        let k = proc_macro2::Literal::usize_unsuffixed(field_types.len());
        field_types.push(quote! {
            #fdoc
            pub const #konst: #hal::access::FieldAt<FieldLayout, #hal::access::#acc, #vty, #k> =
                #hal::access::FieldAt::NEW;
        });
        let desc = f.description.as_str();
        let values: Vec<TokenStream> = f
            .enum_index
            .map(|i| {
                ir.enums[i]
                    .values
                    .iter()
                    .map(|v| {
                        let (n, x) = (v.name.as_str(), u64_lit(v.value));
                        quote!((#n, #x))
                    })
                    .collect()
            })
            .unwrap_or_default();
        infos.push(quote! {
            #hal::meta::FieldInfo {
                name: #fname_str, lsb: #lsb, width: #fw,
                access: #hal::meta::AccessKind::#acc,
                values: &[#(#values),*],
                description: #desc,
            }
        });
        if f.access.readable() {
            getters.push(quote! {
                #short
                #[inline]
                pub fn #fname(self) -> <#vty as #hal::FieldValue>::Read {
                    #hal::ReadValue::get(self, #konst)
                }
            });
            debug_fields.push(quote!(.field(#fname_str, &self.#fname())));
        }
        if f.access.settable() {
            setters.push(quote! {
                #short
                #[inline]
                pub fn #fname(&mut self, value: #vty) -> &mut Self {
                    #hal::WriteValue::set(self, #konst, value)
                }
            });
        }
        if f.access == Access::Rw1c {
            let clear = format_ident!("clear_{}", f.name);
            let cdoc = doc(&format!(
                "Clear `{}` (write-one-to-clear): writes ones to bits {}.",
                f.name,
                bits_str(f)
            ));
            setters.push(quote! {
                #cdoc
                #[inline]
                pub fn #clear(&mut self) -> &mut Self { #hal::WriteValue::clear(self, #konst) }
            });
        }
        if f.access == Access::Rw1s {
            let set = format_ident!("set_{}", f.name);
            let sdoc = doc(&format!(
                "Set `{}` (write-one-to-set): writes ones to bits {}.",
                f.name,
                bits_str(f)
            ));
            setters.push(quote! {
                #sdoc
                #[inline]
                pub fn #set(&mut self) -> &mut Self { #hal::WriteValue::set_ones(self, #konst) }
            });
        }
    }
    let (w_struct, w_impl, w_debug) = if l.masked {
        (
            quote!(
                pub struct W {
                    value: u64,
                    enable: u64,
                }
            ),
            quote! {
                #[inline] fn from_raw(raw: u64) -> Self { W { value: raw & 0xffff, enable: 0 } }
                #[inline] fn raw(&self) -> u64 { (self.enable & 0xffff) << 16 | (self.value & 0xffff) }
                #[inline] fn insert(&mut self, mask: u64, bits: u64) {
                    self.value = (self.value & !mask) | bits;
                    self.enable |= mask;
                }
            },
            quote! {
                impl ::core::fmt::Debug for W {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        write!(f, "{}(enable {:#06x}, value {:#06x})", #title, self.enable, self.value)
                    }
                }
            },
        )
    } else {
        (
            quote!(
                pub struct W(u64);
            ),
            quote! {
                #[inline] fn from_raw(raw: u64) -> Self { W(raw) }
                #[inline] fn raw(&self) -> u64 { self.0 }
                #[inline] fn insert(&mut self, mask: u64, bits: u64) { self.0 = (self.0 & !mask) | bits; }
            },
            quote! {
                impl ::core::fmt::Debug for W {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        write!(f, "{}({:#x})", #title, self.0)
                    }
                }
            },
        )
    };
    let readable = l.readable().then(
        || quote!(#[diagnostic::do_not_recommend] impl #hal::register::ReadableLayout for FieldLayout {}),
    );
    let writable = l.writable().then(
        || quote!(#[diagnostic::do_not_recommend] impl #hal::register::WritableLayout for FieldLayout {}),
    );
    let masked = l.masked.then(
        || quote!(#[diagnostic::do_not_recommend] impl #hal::register::MaskedLayout for FieldLayout {}),
    );
    let mdoc = doc(&layout_doc(ir, index, l));
    quote! {
        #mdoc
        pub mod #module {
            /// This layout, as a type (the `Layout` of the registers that use it).
            #[doc(hidden)]
            #[derive(Clone, Copy)]
            pub struct FieldLayout;
            impl #hal::register::Layout for FieldLayout {
                type Read = R;
                type Write = W;
                const NAME: &'static str = #title;
                const WIDTH: u32 = #width;
                const KEEP_MASK: u64 = #keep;
                const FIELDS: &'static [#hal::meta::FieldInfo] = &[#(#infos),*];
            }
            #readable
            #writable
            #masked

            /// A value read from a register of this layout.
            #[derive(Clone, Copy, PartialEq, Eq)]
            pub struct R(u64);
            impl #hal::ReadValue for R {
                type Layout = FieldLayout;
                #[inline] fn from_raw(raw: u64) -> Self { R(raw) }
                #[inline] fn raw(self) -> u64 { self.0 }
            }
            impl R {
                /// The raw value.
                #[inline]
                pub const fn bits(self) -> u64 { self.0 }
                #(#getters)*
            }
            impl ::core::fmt::Debug for R {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.debug_struct(#title) #(#debug_fields)* .finish()
                }
            }

            /// A value being built for a write to a register of this layout.
            #[derive(Clone, Copy)]
            #w_struct
            impl #hal::WriteValue for W {
                type Layout = FieldLayout;
                #w_impl
            }
            impl W {
                #(#setters)*
            }
            #w_debug

            #(#field_types)*
        }
    }
}
