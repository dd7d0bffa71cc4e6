//! One module per field layout: the read and write value types, their field
//! accessors, one zero-sized type per field and the runtime field table,
//! emitted once however many registers and projects share the layout.

use super::text::{bits_str, doc, hex, md, u64_lit};
use super::EmitOptions;
use crate::access::AccessKind;
use crate::ir::{FieldIr, Ir, LayoutIr};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The field's value type, as named inside the layout module (which imports
/// `Bits` and the enums it uses, see [`imports`]).
fn field_value_type(f: &FieldIr, ir: &Ir) -> TokenStream {
    match f.enum_index {
        Some(i) => {
            let n = format_ident!("{}", ir.enums[i].name);
            quote!(#n)
        }
        None if f.width == 1 => quote!(bool),
        None => {
            let w = proc_macro2::Literal::u32_unsuffixed(f.width);
            quote!(Bits<#w>)
        }
    }
}

/// The `use` items of a layout module: `FieldAt`, `FieldValue` (when needed), the access
/// markers, `Bits` and the enums its fields use (so field declarations read
/// `FieldAt<FieldLayout, Rw, Bits<6>, 2>`).
fn imports(l: &LayoutIr, ir: &Ir, hal: &TokenStream) -> TokenStream {
    let mut access: Vec<String> = l
        .fields
        .iter()
        .map(|f| f.access.type_name().to_string())
        .collect();
    access.sort();
    access.dedup();
    let access = access.iter().map(|a| format_ident!("{}", a));
    let mut enums: Vec<&str> = l
        .fields
        .iter()
        .filter_map(|f| f.enum_index.map(|i| ir.enums[i].name.as_str()))
        .collect();
    enums.sort_unstable();
    enums.dedup();
    let enums = (!enums.is_empty()).then(|| {
        let e = enums.iter().map(|e| format_ident!("{}", e));
        quote!(use super::super::enums::{#(#e),*};)
    });
    let bits = l
        .fields
        .iter()
        .any(|f| f.enum_index.is_none() && f.width > 1)
        .then(|| quote!(use #hal::Bits;));
    if l.fields.is_empty() {
        return quote!();
    }
    // Getters name `FieldValue::Read` only for enums of the HAL's (see `field_read_type`).
    let value = l
        .fields
        .iter()
        .any(|f| f.access.readable() && f.enum_index.is_some_and(|i| ir.enums[i].external))
        .then(|| quote!(FieldValue,));
    quote! {
        use #hal::access::{FieldAt, #value #(#access),*};
        #bits
        #enums
    }
}

/// Layout text with `{n}` (the element index of an array) shown as `n`.
fn n_text(s: &str) -> String {
    md(&s.replace("{n}", "n"))
}

/// A whole description in one table cell: the lines of a paragraph joined by
/// spaces, paragraphs by `<br>`, and `|` escaped.
fn table_cell(description: &str) -> String {
    let mut out = String::with_capacity(description.len());
    let mut blank = false;
    for line in description.lines().map(str::trim) {
        if line.is_empty() {
            blank = true;
            continue;
        }
        if !out.is_empty() {
            out += if blank { "<br>" } else { " " };
        }
        blank = false;
        out += &n_text(line).replace('|', "\\|");
    }
    out
}

/// What a getter of `f` returns: the value type itself, or `Result<E, u64>`
/// for an enum that does not name every encoding (an enum of the HAL's, whose
/// kind another run decided, keeps the `FieldValue::Read` projection).
fn field_read_type(f: &FieldIr, ir: &Ir, vty: &TokenStream) -> TokenStream {
    match f.enum_index {
        Some(i) if ir.enums[i].external => quote!(<#vty as FieldValue>::Read),
        Some(i) if !super::enums::enum_complete(ir, i) => {
            quote!(::core::result::Result<#vty, u64>)
        }
        _ => vty.clone(),
    }
}

/// The module doc: which registers use the layout, and the field table.
/// Every layout's "Used by" list (`` `REG` (tgl, dg1),`` per register, in
/// register order), from one pass over the registers.
pub(super) fn used_by(ir: &Ir) -> Vec<String> {
    let mut out = vec![String::new(); ir.layouts.len()];
    for r in &ir.registers {
        // This register's projects per layout, in instance order.
        let mut per: Vec<(usize, Vec<&str>)> = Vec::new();
        for i in &r.instances {
            let name = ir.catalogue.projects[i.project].name.as_str();
            match per.iter_mut().find(|(l, _)| *l == i.layout) {
                Some((_, on)) => on.push(name),
                None => per.push((i.layout, vec![name])),
            }
        }
        for (l, on) in per {
            out[l] += &format!(" `{}` ({}),", r.name.replace("{n}", "n"), on.join(", "));
        }
    }
    out
}

fn layout_doc(l: &LayoutIr, used_by: &str) -> String {
    let mut s = format!("Field layout `{}` ({} bits", l.title, l.width);
    if l.masked {
        s += ", masked: bits 31:16 enable the write of bits 15:0";
    }
    s += ").\n\nUsed by:";
    s += used_by;
    s.pop();
    s += ".\n";
    if !l.fields.is_empty() {
        s += "\n| bits | field | access | description |\n|---|---|---|---|\n";
        for f in l.fields.iter().rev() {
            s += &format!(
                "| {} | `{}` | {} | {} |\n",
                bits_str(f),
                f.name,
                f.access.as_str(),
                table_cell(&f.description)
            );
        }
    }
    s
}

/// The `layouts::<name>` module of layout `index`.
pub(super) fn emit_layout(ir: &Ir, index: usize, used_by: &str, opts: &EmitOptions) -> TokenStream {
    let hal = &opts.hal;
    let l = &ir.layouts[index];
    let module = format_ident!("{}", l.name);
    let title = l.title.as_str();
    let width = l.width;
    let keep = hex(l.keep_mask());
    let mut field_types = Vec::new();
    let mut getters = Vec::new();
    let mut setters = Vec::new();
    // `R`'s `Debug`: with only plain readable fields, the HAL prints them
    // from the field table; else a chain here, enumerated fields printed
    // through their typed getters.
    let all_plain = l
        .fields
        .iter()
        .all(|f| !f.access.readable() || f.enum_index.is_none());
    let mut debug_fields = Vec::new();
    let mut infos = Vec::new();
    for f in &l.fields {
        let fname = format_ident!("{}", f.name);
        let vty = field_value_type(f, ir);
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
            pub const #konst: FieldAt<FieldLayout, #acc, #vty, #k> = FieldAt::NEW;
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
        let address = f.address;
        infos.push(quote! {
            #hal::meta::FieldInfo {
                name: #fname_str, lsb: #lsb, width: #fw,
                access: #hal::meta::AccessKind::#acc,
                values: &[#(#values),*],
                description: #desc,
                address: #address,
            }
        });
        // Plain fields (`bool`, `Bits<N>`) read and write their bits in the
        // accessor itself: the generic `get`/`set` (which enumerated fields
        // use) cost rustc a trait selection per accessor, about 0.3 s per
        // 1,000 accessors in the compile race. The access checks are the
        // generator's here: only a readable field gets a getter, only a
        // settable one a setter.
        let mask = hex(f.mask());
        let plain = f.enum_index.is_none();
        if f.access.readable() {
            let rty = field_read_type(f, ir, &vty);
            let body = match (plain, fw) {
                (true, 1) => quote!(self.0 & #mask != 0),
                (true, _) => quote!(Bits::truncate(self.0 >> #lsb)),
                (false, _) => quote!(#hal::ReadValue::get(self, #konst)),
            };
            getters.push(quote! {
                #short
                #[inline]
                pub fn #fname(self) -> #rty {
                    #body
                }
            });
            if !all_plain {
                // Plain fields print from the raw value (no getter
                // instantiated per field); enumerated ones through their
                // typed getter.
                let shown = match f.enum_index {
                    Some(_) => quote!(self.#fname()),
                    None if fw == 1 => quote!((self.0 & #mask != 0)),
                    None => {
                        let m = hex(f.mask() >> lsb);
                        quote!(#hal::values::DebugBits(self.0 >> #lsb & #m))
                    }
                };
                debug_fields.push(quote!(.field(#fname_str, &#shown)));
            }
        }
        if f.access.settable() {
            let body = match (plain, fw) {
                (true, 1) => quote! {
                    #hal::WriteValue::insert(self, #mask, (value as u64) << #lsb);
                    self
                },
                (true, _) => quote! {
                    #hal::WriteValue::insert(self, #mask, (value.get() << #lsb) & #mask);
                    self
                },
                (false, _) => quote!(#hal::WriteValue::set(self, #konst, value)),
            };
            setters.push(quote! {
                #short
                #[inline]
                pub fn #fname(&mut self, value: #vty) -> &mut Self {
                    #body
                }
            });
        } else {
            // A named setter for a field that has none, so calling it reports
            // `Settable`'s message (the access type and what to do) instead
            // of "no method named ..". The higher-ranked bound is not checked
            // where the method is defined, only where it is called, and it
            // never holds (the access types and `Settable` are the HAL's), so
            // the body never runs: it is kept trivial, for compile time.
            setters.push(quote! {
                #[doc(hidden)]
                pub fn #fname(&mut self, _value: #vty) -> &mut Self
                where
                    for<'a> #hal::access::#acc: #hal::access::Settable,
                {
                    self
                }
            });
        }
        // Write-one-to-clear and write-one-to-set fields: `clear_<f>` / `set_<f>`.
        let ones = match f.access {
            AccessKind::Rw1c => Some(("clear", "Clear", "write-one-to-clear")),
            AccessKind::Rw1s => Some(("set", "Set", "write-one-to-set")),
            _ => None,
        };
        if let Some((prefix, verb, what)) = ones {
            let name = format_ident!("{prefix}_{}", f.name);
            let odoc = doc(&format!(
                "{verb} `{}` ({what}): writes ones to bits {}.",
                f.name,
                bits_str(f)
            ));
            setters.push(quote! {
                #odoc
                #[inline]
                pub fn #name(&mut self) -> &mut Self {
                    #hal::WriteValue::insert(self, #mask, #mask);
                    self
                }
            });
        }
    }
    let kind = if l.masked {
        quote!(masked)
    } else {
        quote!(plain)
    };
    // The register's word: `W` combines a write's fields in it.
    let word = if l.width <= 32 {
        quote!(u32)
    } else {
        quote!(u64)
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
    let debug_r = if all_plain {
        quote! {
            impl ::core::fmt::Debug for R {
                #[inline]
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    #hal::values::debug_fields(f, #title, self.0, <FieldLayout as #hal::register::Layout>::FIELDS)
                }
            }
        }
    } else {
        quote! {
            impl ::core::fmt::Debug for R {
                #[inline]
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.debug_struct(#title) #(#debug_fields)* .finish()
                }
            }
        }
    };
    let mdoc = doc(&layout_doc(l, used_by));
    let uses = imports(l, ir, hal);
    quote! {
        #mdoc
        pub mod #module {
            #uses
            /// This layout, as a type (the `Layout` of the registers that use it).
            #[doc(hidden)]
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

            // R and W with their ReadValue/WriteValue impls, `R::bits` and W's Debug
            // (W in the register's word).
            #hal::layout_values!(#title, #kind, #word);
            impl R {
                #(#getters)*
            }
            #debug_r
            impl W {
                #(#setters)*
            }

            #(#field_types)*
        }
    }
}

#[cfg(test)]
mod tests {
    use super::table_cell;

    #[test]
    fn table_cells_keep_the_whole_description() {
        let text = "First line\ncontinues here.\n\nSecond paragraph: a | b, [DevHSW].\n";
        assert_eq!(
            table_cell(text),
            "First line continues here.<br>Second paragraph: a \\| b, \\[DevHSW\\]."
        );
        assert_eq!(table_cell(""), "");
    }
}
