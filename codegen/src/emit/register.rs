//! Registers of one project as locations: per register a type alias of the
//! HAL's generic `Location` and a constant of that name (per array a unit
//! struct, one `RegisterArray` impl and its
//! element constants), the re-export of its layout module under the
//! register's name, and the project's runtime register table.

use super::power::{group_path, wake_path};
use super::text::{doc, hex, md, project_type};
use super::EmitOptions;
use crate::ir::{InstanceIr, Ir, RegisterIr};
use crate::model::Space;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The register's rustdoc: PRM text, location, domain, cast and source.
fn register_doc(r: &RegisterIr, inst: &InstanceIr, ir: &Ir) -> String {
    let shown = r.ident();
    let mut s = shown.clone();
    if !r.title.is_empty() {
        s += &format!(": {}", md(&r.title.replace("{n}", "n")));
    }
    s += "\n\n";
    if !r.description.is_empty() {
        s += &md(&r.description.replace("{n}", "n"));
        s += "\n\n";
    }
    let project = &ir.catalogue.projects[inst.project].name;
    let space = match r.space {
        Space::Mmio => "MMIO offset",
        Space::Msr => "MSR",
        Space::Pci => "PCI config offset",
    };
    s += &format!(
        "| | |\n|---|---|\n| {space} | `{:#x}` on {project}; {} bits, reset `{:#x}` |\n",
        inst.address, r.width, inst.reset
    );
    if let Some(a) = r.array {
        s += &format!(
            "| array | {} elements, `{:#x}` apart: `.at::<N>()`, `.get(n)`, `.iter()`, or the constants `{}` .. `{}` |\n",
            inst.count,
            a.stride,
            r.element_name(0),
            r.element_name(inst.count.saturating_sub(1))
        );
    }
    let l = &ir.layouts[inst.layout];
    let access = match (l.readable(), l.writable(), l.masked) {
        (_, _, true) => "masked: bits 31:16 enable the write of bits 15:0 (`write_masked`)",
        (true, true, false) => "read, write, modify",
        (true, false, false) => "read only",
        (false, true, false) => "write only",
        (false, false, false) => "no access (every field reserved)",
    };
    s += &format!("| access | {access} |\n");
    if r.space == Space::Mmio {
        let domain = ir.wake_name_of(inst).map_or_else(
            || "none (outside every force-wake range)".to_string(),
            |d| match d.split_once(crate::ir::WAKE_SEP) {
                Some((a, b)) => format!("`{a}` and `{b}` (both woken: `&(&{a}, &{b})`)"),
                None => format!("`{d}`"),
            },
        );
        let cast = inst.replication.map_or_else(
            || "unicast".to_string(),
            |g| {
                let g = &ir.groups[g];
                format!(
                    "replicated: `{}`, {} instances (steering API)",
                    g.name, g.instances
                )
            },
        );
        s += &format!("| power domain | {domain}; {cast} |\n");
    }
    let others: Vec<String> = r
        .instances
        .iter()
        .filter(|i| i.project != inst.project)
        .map(|i| {
            format!(
                "{} `{:#x}`",
                ir.catalogue.projects[i.project].name, i.address
            )
        })
        .collect();
    if !others.is_empty() {
        s += &format!("| other projects | {} |\n", others.join(", "));
    }
    s += &format!(
        "| source | {}{} |\n",
        md(&r.document),
        if r.prm.is_empty() {
            String::new()
        } else {
            format!(", {}", md(&r.prm))
        }
    );
    s += &format!(
        "| fields | [`{}`]({}), defined at `{}` |\n",
        ir.layouts[inst.layout].title,
        shown.to_ascii_lowercase(),
        r.defined_at
    );
    if !r.note.is_empty() {
        s += &format!("\n**Note:** {}\n", md(&r.note));
    }
    s
}

/// Register `r` on the project of `inst`; `first` is the index of its first
/// element in the project's `REGISTERS` table.
/// The name of `space`, the same for the HAL's space type and its
/// `meta::SpaceKind` variant.
fn space_name(space: Space) -> TokenStream {
    match space {
        Space::Mmio => quote!(Mmio),
        Space::Msr => quote!(Msr),
        Space::Pci => quote!(Pci),
    }
}

/// The wake-domain and replication-group type paths of one project's
/// registers, each built once (most registers share a few).
#[derive(Default)]
pub(super) struct TypePaths {
    wake: std::collections::HashMap<(Option<usize>, Option<usize>), TokenStream>,
    group: std::collections::HashMap<usize, TokenStream>,
}

impl TypePaths {
    fn wake(&mut self, ir: &Ir, inst: &InstanceIr, opts: &EmitOptions) -> TokenStream {
        let key = (inst.domain, inst.domain2);
        (self.wake.entry(key))
            .or_insert_with(|| wake_path(ir, key.0, key.1, opts))
            .clone()
    }

    fn group(&mut self, ir: &Ir, g: usize, opts: &EmitOptions) -> TokenStream {
        (self.group.entry(g))
            .or_insert_with(|| group_path(ir, g, opts))
            .clone()
    }
}

pub(super) fn emit_register(
    r: &RegisterIr,
    inst: &InstanceIr,
    first: usize,
    (ir, opts): (&Ir, &EmitOptions),
    paths: &mut TypePaths,
) -> TokenStream {
    let hal = &opts.hal;
    let ident = r.ident();
    let name = format_ident!("{}", ident);
    let module = format_ident!("{}", ident.to_ascii_lowercase());
    let layout = format_ident!("{}", ir.layouts[inst.layout].name);
    let rdoc = doc(&register_doc(r, inst, ir));
    let name_str = r.name.as_str();
    let addr = hex(inst.address);
    let reset = hex(inst.reset);
    let domain_ty = paths.wake(ir, inst, opts);
    // The space and the cast as the HAL names them (`Mmio`, `Multicast<G>`).
    let space = space_name(r.space);
    let cast = match inst.replication {
        Some(g) => {
            let g = paths.group(ir, g, opts);
            quote!(Multicast<#g>)
        }
        None => quote!(Single),
    };
    let Some(array) = r.array else {
        // A location (type and value of one name): the HAL's one generic
        // `Register` impl reads name, address and reset from the table row.
        let row = proc_macro2::Literal::usize_unsuffixed(first);
        return quote! {
            #hal::register_location!(#rdoc #name = #space, #domain_ty, #module, #cast, #row; #layout);
        };
    };
    let space = quote!(#hal::#space);
    let cast = quote!(#hal::register::#cast);
    let reexport = if layout == module {
        quote!(#[doc(no_inline)] pub use super::layouts::#layout;)
    } else {
        quote!(#[doc(no_inline)] pub use super::layouts::#layout as #module;)
    };
    let project_ty = project_type(&ir.catalogue.projects[inst.project].name);
    let stride = hex(array.stride);
    let count = inst.count as usize;
    let infos = (first..first + count).map(|i| {
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        quote!(&REGISTERS[#i])
    });
    let elements = (0..count).map(|n| {
        let e = format_ident!("{}", r.element_name(n as u32));
        let at = proc_macro2::Literal::usize_unsuffixed(n);
        let edoc = doc(&format!(
            "`{}`: element {n} of [`{ident}`].",
            r.element_name(n as u32)
        ));
        quote! {
            #edoc
            // Named in the array's docs (its `array` row), not a page each.
            #[doc(hidden)]
            pub const #e: #hal::Elem<#name> = #hal::Elem::at::<#at>();
        }
    });
    quote! {
        #rdoc
        #[derive(Clone, Copy)]
        pub struct #name;
        impl #hal::register::RegisterArray for #name {
            type Project = #hal::#project_ty;
            type Space = #space;
            type Domain = #domain_ty;
            type Layout = #module::FieldLayout;
            type Cast = #cast;
            const NAME: &'static str = #name_str;
            const BASE: u64 = #addr;
            const STRIDE: u64 = #stride;
            const COUNT: usize = #count;
            const RESET: u64 = #reset;
            const INFOS: &'static [&'static #hal::meta::RegisterInfo] = &[#(#infos),*];
        }
        impl #name {
            /// Element `N`; an index past the end does not compile.
            #[inline(always)]
            pub const fn at<const N: usize>(self) -> #hal::Elem<Self> { #hal::Elem::at::<N>() }
            /// Element `n`, or `None` past the end.
            #[inline]
            pub const fn get(self, n: usize) -> Option<#hal::Elem<Self>> { #hal::Elem::get(n) }
            /// Every element, in order.
            pub fn iter(self) -> impl Iterator<Item = #hal::Elem<Self>> + Clone { #hal::Elem::all() }
        }
        #(#elements)*
        #reexport
    }
}

/// The project's runtime register table: one entry per element.
pub(super) fn register_table(ir: &Ir, p: usize, opts: &EmitOptions) -> (TokenStream, usize) {
    let hal = &opts.hal;
    let mut rows = Vec::new();
    for e in ir.emitted_elements(p) {
        let r = e.register;
        let name = e.name.as_str();
        let (block, title) = (r.block.as_str(), e.text(&r.title));
        let space_kind = space_name(r.space);
        let (addr, width, reset, masked) =
            (hex(e.address), r.width, hex(e.instance.reset), r.masked);
        let layout = format_ident!("{}", e.layout.name);
        let domain = super::text::opt_str(ir.wake_name_of(e.instance).as_deref());
        let replication = match e.instance.replication.map(|g| &ir.groups[g]) {
            Some(g) => {
                let (n, k) = (g.name.as_str(), g.instances);
                quote!(Some((#n, #k)))
            }
            None => quote!(None),
        };
        rows.push(quote! {
            #hal::register_row!(#name, #block, #title, #space_kind, #addr, #width, #reset, #masked, #layout, #domain, #replication)
        });
    }
    let n = rows.len();
    let project_ty = project_type(&ir.catalogue.projects[p].name);
    (
        quote! {
            /// Runtime description of every register (array elements expanded) of this project.
            pub static REGISTERS: [#hal::meta::RegisterInfo; #n] = [#(#rows),*];
            /// [`REGISTERS`] as the table the registers' locations read.
            #[doc(hidden)]
            pub struct Table;
            impl #hal::register::Table for Table {
                type Project = #hal::#project_ty;
                const ROWS: &'static [#hal::meta::RegisterInfo] = &REGISTERS;
            }
        },
        n,
    )
}
