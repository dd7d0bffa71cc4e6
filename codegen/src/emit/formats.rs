//! Report formats (zero-sized format types and their layouts) and the
//! runtime tables of a project (domains, groups, map rows, data tables).

use super::text::{doc, hex, md, opt_str, project_type};
use super::EmitOptions;
use crate::ir::Ir;
use crate::resolve::camel;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn slot(c: &crate::ir::CounterIr) -> TokenStream {
    let lit = |v: u64| proc_macro2::Literal::u64_unsuffixed(v);
    let (name, offset, bits) = (c.name.as_str(), lit(c.offset), lit(u64::from(c.bits)));
    match c.high_byte_offset {
        Some(h) => {
            let h = lit(h);
            quote!(CounterSlot::split(#name, #offset, #bits, #h))
        }
        None => quote!(CounterSlot::new(#name, #offset, #bits)),
    }
}

/// Report formats of project `p`: a zero-sized type per format plus its layout.
pub(super) fn emit_formats(
    ir: &Ir,
    p: usize,
    opts: &EmitOptions,
) -> (TokenStream, Vec<TokenStream>) {
    let hal = &opts.hal;
    let project_ty = project_type(&ir.catalogue.projects[p].name);
    let mut items = Vec::new();
    let mut refs = Vec::new();
    for f in ir.formats.iter().filter(|f| f.project == p && !f.external) {
        let ty = format_ident!("{}", camel(&f.name));
        let info = format_ident!("{}_INFO", f.name);
        let (name, select, size) = (f.name.as_str(), f.select, f.size as usize);
        let desc = f.description.as_str();
        let slots: Vec<_> = f.counters.iter().map(slot).collect();
        let mut text = format!(
            "Report format {} (code {}, {} bytes).",
            f.name, f.select, f.size
        );
        if !f.description.is_empty() {
            text += &format!("\n\n{}", md(&f.description));
        }
        text += "\n\n| offset | counter | bits |\n|---|---|---|\n";
        for c in &f.counters {
            let at = match c.high_byte_offset {
                Some(h) => format!("`{:#x}` + high byte `{h:#x}`", c.offset),
                None => format!("`{:#x}`", c.offset),
            };
            text += &format!("| {at} | {} | {} |\n", c.name, c.bits);
        }
        if !f.note.is_empty() {
            text += &format!("\n**Note:** {}\n", md(&f.note));
        }
        let fdoc = doc(&text);
        let idoc = doc(&format!("Layout of [`{}`].", camel(&f.name)));
        items.push(quote! {
            #idoc
            pub const #info: #hal::meta::FormatInfo = #hal::meta::FormatInfo {
                name: #name, select: #select, size: #size, description: #desc,
                counters: &[#(#slots),*],
            };
            #fdoc
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct #ty;
            impl #hal::ReportFormat for #ty {
                type Project = #hal::#project_ty;
                const INFO: &'static #hal::meta::FormatInfo = &#info;
            }
        });
        refs.push(quote!(&reports::#info));
    }
    let tys: Vec<_> = ir
        .formats
        .iter()
        .filter(|f| f.project == p && !f.external)
        .map(|f| format_ident!("{}", camel(&f.name)))
        .collect();
    let module = if items.is_empty() {
        quote!()
    } else {
        quote! {
            /// Report formats of this project: zero-copy views with `hal::Report`.
            pub mod reports {
                use #hal::meta::CounterSlot;
                #(#items)*
                /// Call `v.visit::<F>()` for every report format of this project.
                pub fn visit_all<V: #hal::FormatVisitor>(v: &mut V) {
                    #( v.visit::<#tys>(); )*
                }
            }
        }
    };
    (module, refs)
}

fn cell(c: &crate::model::Cell, hal: &TokenStream) -> TokenStream {
    match c {
        crate::model::Cell::Int(v) => quote!(#hal::meta::Cell::Int(#v)),
        crate::model::Cell::Str(s) => quote!(#hal::meta::Cell::Str(#s)),
    }
}

/// Runtime tables of project `p`: domains, groups, map rows, data tables.
pub(super) fn emit_project_tables(ir: &Ir, p: usize, hal: &TokenStream) -> TokenStream {
    let domains = ir.domains.iter().filter(|d| d.project == p && !d.external).map(|d| {
        let (name, on, desc) = (d.name.as_str(), d.always_on, d.description.as_str());
        let (req, ack) = (opt_str(d.request.as_deref()), opt_str(d.ack.as_deref()));
        quote!(#hal::meta::DomainInfo { name: #name, always_on: #on, request: #req, ack: #ack, description: #desc })
    });
    let groups = ir.groups.iter().filter(|g| g.project == p && !g.external).map(|g| {
        let (name, n, desc) = (g.name.as_str(), g.instances, g.description.as_str());
        let fuse = match &g.fuse {
            Some(f) => {
                let (r, field, present) = (f.register.as_str(), f.field.as_str(), f.set_means_present);
                quote!(Some(#hal::meta::FuseInfo { register: #r, field: #field, set_means_present: #present }))
            }
            None => quote!(None),
        };
        quote!(#hal::meta::GroupInfo { name: #name, instances: #n, fuse: #fuse, description: #desc })
    });
    let rows = ir.map.iter().filter(|r| r.project == p && !r.external).map(|r| {
        let (start, end, n, st) = (hex(r.start), hex(r.end), r.instances, r.steering.as_str());
        let (wake, group) = (opt_str(r.wake.as_deref()), opt_str(r.group.as_deref()));
        quote!(#hal::meta::MapRow { start: #start, end: #end, wake: #wake, group: #group, instances: #n, steering: #st })
    });
    let tables = ir.tables.iter().filter(|t| t.projects.contains(p) && !t.external).map(|t| {
        let (name, desc) = (t.name.as_str(), t.description.as_str());
        let cols = t.columns.iter().map(String::as_str);
        let rows = t.rows.iter().map(|row| {
            let cells = row.iter().map(|c| cell(c, hal));
            quote!(&[#(#cells),*])
        });
        quote!(#hal::meta::TableInfo { name: #name, description: #desc, columns: &[#(#cols),*], rows: &[#(#rows),*] })
    });
    let opaque = ir.opaque.iter().filter(|o| o.project == p && !o.external).map(|o| {
        let (name, start, end) = (o.name.as_str(), hex(o.start), hex(o.end));
        let domain = opt_str(ir.wake_name(o.domain, o.domain2).as_deref());
        quote!(#hal::meta::OpaqueRange { name: #name, start: #start, end: #end, domain: #domain })
    });
    let steering = opt_str(
        ir.steering
            .iter()
            .find(|s| s.project == p)
            .map(|s| s.register.as_str()),
    );
    quote! {
        steering: #steering,
        domains: &[#(#domains),*],
        groups: &[#(#groups),*],
        map: &[#(#rows),*],
        tables: &[#(#tables),*],
        opaque: &[#(#opaque),*],
    }
}
