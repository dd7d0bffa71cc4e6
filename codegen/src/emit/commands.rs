//! GPU command layouts: per project a `commands` module with one plain
//! struct per command (its variable fields), whose `encode` / `decode` call
//! the generic `CommandInfo` methods of the HAL (`meta`) with the command's
//! layout.

use super::text::{doc, md, u64_lit};
use crate::ir::{CommandIr, Ir};
use crate::resolve::camel;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The static name of a command's layout (`MI_REPORT_PERF_COUNT`).
fn info_ident(c: &CommandIr) -> proc_macro2::Ident {
    format_ident!("{}", c.name)
}

fn command_doc(c: &CommandIr) -> String {
    let mut s = String::new();
    s.push_str(&format!("`{}`", c.name));
    if !c.title.is_empty() {
        s.push_str(&format!(": {}", md(&c.title)));
    }
    s.push_str(&format!(" ({} dwords).\n\n", c.dwords));
    if !c.description.is_empty() {
        s.push_str(&md(&c.description));
        s.push_str("\n\n");
    }
    s.push_str("| dword | bits | field | fixed |\n|---|---|---|---|\n");
    for f in &c.fields {
        let fixed = f.value.map_or(String::new(), |v| format!("`{v:#x}`"));
        s.push_str(&format!(
            "| {} | {}:{} | `{}` | {fixed} |\n",
            f.dword,
            f.lsb + f.width - 1,
            f.lsb,
            f.name
        ));
    }
    if !c.prm.is_empty() {
        s.push_str(&format!("\nPRM: {}.", md(&c.prm)));
    }
    if !c.note.is_empty() {
        s.push_str(&format!("\n\nNote: {}", md(&c.note)));
    }
    s.push_str(&format!("\n\nDefined at `{}`.", c.defined_at));
    s
}

/// The `commands` module of project `p` and the references to its layouts
/// (for `ProjectInfo::commands`); nothing when the project has none.
pub(super) fn emit_commands(
    ir: &Ir,
    p: usize,
    hal: &TokenStream,
) -> (TokenStream, Vec<TokenStream>) {
    let cmds: Vec<&CommandIr> = ir
        .commands
        .iter()
        .filter(|c| c.project == p && !c.external)
        .collect();
    if cmds.is_empty() {
        return (TokenStream::new(), Vec::new());
    }
    let mut items = Vec::new();
    let mut refs = Vec::new();
    for c in cmds {
        let info = info_ident(c);
        let ty = format_ident!("{}", camel(&c.name));
        let (name, title, n) = (c.name.as_str(), c.title.as_str(), c.dwords);
        let fields = c.fields.iter().map(|f| {
            let (fname, dw, lsb, w, d) = (f.name.as_str(), f.dword, f.lsb, f.width, f.description.as_str());
            let value = match f.value {
                Some(v) => {
                    let v = u64_lit(v);
                    quote!(Some(#v))
                }
                None => quote!(None),
            };
            quote!(#hal::meta::CommandField { name: #fname, dword: #dw, lsb: #lsb, width: #w, value: #value, description: #d })
        });
        let vars: Vec<_> = c.fields.iter().filter(|f| f.value.is_none()).collect();
        let members = vars.iter().map(|f| {
            let id = format_ident!("{}", f.name);
            let fdoc = doc(&format!(
                "Dword {}, bits {}:{}{}",
                f.dword,
                f.lsb + f.width - 1,
                f.lsb,
                if f.description.is_empty() {
                    ".".to_string()
                } else {
                    format!(": {}", md(&f.description))
                }
            ));
            let t = if f.width == 1 {
                quote!(bool)
            } else {
                quote!(u32)
            };
            quote!(#fdoc pub #id: #t)
        });
        let to_u32 = vars.iter().map(|f| {
            let id = format_ident!("{}", f.name);
            if f.width == 1 {
                quote!(u32::from(self.#id))
            } else {
                quote!(self.#id)
            }
        });
        let from_u32 = vars.iter().enumerate().map(|(i, f)| {
            let id = format_ident!("{}", f.name);
            let i = Literal::usize_unsuffixed(i);
            if f.width == 1 {
                quote!(#id: v[#i] != 0)
            } else {
                quote!(#id: v[#i])
            }
        });
        let k = Literal::usize_unsuffixed(vars.len());
        let len = Literal::usize_unsuffixed(n as usize);
        let cdoc = doc(&command_doc(c));
        items.push(quote! {
            pub(super) static #info: #hal::meta::CommandInfo = #hal::meta::CommandInfo {
                name: #name, title: #title, dwords: #n, fields: &[#(#fields),*],
            };
            #cdoc
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct #ty { #(#members),* }
            impl #ty {
                /// The layout: length, fields and fixed values.
                pub const INFO: &'static #hal::meta::CommandInfo = &#info;
                /// Length in dwords.
                pub const DWORDS: usize = #len;
                /// The command's dwords (fixed fields from the description);
                /// an error when a value does not fit its field.
                pub fn encode(&self) -> Result<[u32; #len], #hal::meta::CommandError> {
                    let mut d = [0u32; #len];
                    #info.encode_into(&[#(#to_u32),*], &mut d)?;
                    Ok(d)
                }
                /// The fields of `dwords`; an error for a wrong length or a
                /// fixed field (opcode, dword length) with another value.
                pub fn decode(dwords: &[u32]) -> Result<Self, #hal::meta::CommandError> {
                    let mut v = [0u32; #k];
                    #info.decode_into(dwords, &mut v)?;
                    Ok(Self { #(#from_u32),* })
                }
            }
        });
        refs.push(quote!(&commands::#info));
    }
    let module = quote! {
        /// GPU command layouts of this project: build a command's dwords
        /// from its fields, or decode dwords back.
        pub mod commands {
            #(#items)*
        }
    };
    (module, refs)
}
