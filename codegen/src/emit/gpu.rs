//! The catalogue's GPU facts: per project a `GPU` and a `PARTS` static, at
//! the top the `PARTS` table of every enabled project and the
//! `for_each_oa_project!` macro, the one list code dispatches on to reach a
//! project's types.

use super::text;
use super::EmitOptions;
use crate::ir::{GpuIr, Ir};
use crate::resolve::camel;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The GPU facts of project `p`.
fn gpu_of(ir: &Ir, p: usize) -> Option<&GpuIr> {
    ir.gpus.iter().find(|g| g.project == p)
}

/// The `gpu:` value of project `p`'s `ProjectInfo` and the items it refers
/// to (`GPU`, `PARTS`), when the HAL's own build emits projects.
pub(super) fn emit_project_gpu(
    ir: &Ir,
    p: usize,
    opts: &EmitOptions,
) -> (TokenStream, TokenStream) {
    let hal = &opts.hal;
    let Some(g) = gpu_of(ir, p).filter(|_| opts.projects) else {
        return (quote!(None), quote!());
    };
    let project = ir.catalogue.projects[p].name.as_str();
    let (major, minor) = g.graphics;
    let drivers = g.drivers.iter().map(|d| {
        let v = format_ident!("{}", camel(d));
        quote!(#hal::meta::Driver::#v)
    });
    let (per_slice, dual) = (
        text::u64_lit(g.subslices_per_slice.into()),
        g.dual_subslices,
    );
    let (major, minor) = (text::u64_lit(major.into()), text::u64_lit(minor.into()));
    let info = |f: usize| format_ident!("{}_INFO", ir.formats[f].name);
    let oa = match &g.oa {
        None => quote!(None),
        Some(o) => {
            let units = o.units.iter().map(|u| {
                let (name, kind, control) = (&u.name, &u.kind, &u.control);
                let base = text::hex(u.base);
                let engines = &u.engines;
                quote!(#hal::meta::OaUnitInfo { name: #name, kind: #kind, control: #control, base: #base, engines: &[#(#engines),*] })
            });
            let wake = o.wake.iter().map(|&d| ir.domains[d].name.as_str());
            let sample = info(o.sample);
            let formats = o.formats.iter().map(|f| {
                let i = info(f.format);
                let i915 = match f.i915 {
                    Some(v) => {
                        let v = text::u64_lit(v.into());
                        quote!(Some(#v))
                    }
                    None => quote!(None),
                };
                let xe = match f.xe {
                    Some(v) => {
                        let v = text::hex(v);
                        quote!(Some(#v))
                    }
                    None => quote!(None),
                };
                quote!(#hal::meta::DriverFormat { format: &reports::#i, i915: #i915, xe: #xe })
            });
            quote!(Some(#hal::meta::OaInfo {
                units: &[#(#units),*],
                wake: &[#(#wake),*],
                sample: &reports::#sample,
                formats: &[#(#formats),*],
            }))
        }
    };
    let parts = g.parts.iter().map(|part| {
        let (chipset, gt, note) = (&part.chipset, part.gt, &part.note);
        let files = &part.metric_files;
        let d = &part.device;
        let n = |v: u64| text::u64_lit(v);
        let (eus, slices, subslices, threads) = (
            n(d.eu_cores_total_count),
            n(d.eu_slices_total_count),
            n(d.eu_subslices_total_count),
            n(d.eu_threads_count),
        );
        let (sm, ssm, dssm) = (
            text::hex(d.slice_mask),
            text::hex(d.subslice_mask),
            text::hex(d.dual_subslice_mask),
        );
        let (min, max, ts) = (
            n(d.gpu_min_frequency),
            n(d.gpu_max_frequency),
            n(d.gpu_timestamp_frequency),
        );
        let (query, rev) = (n(d.query_mode), text::hex(d.sku_revision_id));
        let (l3b, sqidi, l3n) = (
            n(d.l3_bank_total_count),
            n(d.sqidi_total_count),
            n(d.l3_node_total_count),
        );
        let (geom, depth, color, per_slice) = (
            n(d.geometry_pipe_total_count),
            n(d.depth_pipe_total_count),
            n(d.color_pipe_total_count),
            n(d.subslices_per_slice),
        );
        quote!(#hal::meta::PartInfo {
            project: #project, chipset: #chipset, gt: #gt, note: #note, metric_files: &[#(#files),*],
            device: ::perfregs_types::DeviceInfo {
                eu_cores_total_count: #eus, eu_slices_total_count: #slices,
                eu_subslices_total_count: #subslices, eu_threads_count: #threads,
                slice_mask: #sm, subslice_mask: #ssm, dual_subslice_mask: #dssm,
                gpu_max_frequency: #max, gpu_min_frequency: #min, gpu_timestamp_frequency: #ts,
                query_mode: #query, sku_revision_id: #rev,
                l3_bank_total_count: #l3b, sqidi_total_count: #sqidi, l3_node_total_count: #l3n,
                geometry_pipe_total_count: #geom, depth_pipe_total_count: #depth,
                color_pipe_total_count: #color, subslices_per_slice: #per_slice,
            },
        })
    });
    let count = g.parts.len();
    let items = quote! {
        /// The GT parts of this project (catalogue `gpu: parts:`).
        pub static PARTS: [#hal::meta::PartInfo; #count] = [#(#parts),*];
        /// The GPU facts of this project (catalogue `gpu:`).
        pub static GPU: #hal::meta::GpuInfo = #hal::meta::GpuInfo {
            graphics: (#major, #minor),
            drivers: &[#(#drivers),*],
            subslices_per_slice: #per_slice,
            dual_subslices: #dual,
            oa: #oa,
            parts: &PARTS,
        };
    };
    (quote!(Some(&GPU)), items)
}

/// The top-level `PARTS` table and `for_each_oa_project!` (the HAL's own
/// build only). `on` says which projects are compiled (their cargo feature).
pub(super) fn emit_tables(ir: &Ir, opts: &EmitOptions) -> TokenStream {
    if !opts.projects {
        return quote!();
    }
    let hal = &opts.hal;
    let mut refs = Vec::new();
    let mut arms = Vec::new();
    for g in &ir.gpus {
        let p = &ir.catalogue.projects[g.project];
        let tag = p.name.as_str();
        let module = format_ident!("{}", p.name);
        let cfg = opts.features.then(|| opts.gate(tag));
        for k in 0..g.parts.len() {
            refs.push(quote!(#cfg &#module::PARTS[#k]));
        }
        let Some(oa) = &g.oa else { continue };
        if !opts.is_enabled(tag) {
            continue;
        }
        let ty = text::project_type(&p.name);
        let wake = oa
            .wake
            .iter()
            .map(|&d| format_ident!("{}", camel(&ir.domains[d].name)));
        let sample = format_ident!("{}", camel(&ir.formats[oa.sample].name));
        let i915 = oa.formats.iter().filter_map(|f| {
            let id = text::u64_lit(f.i915?.into());
            let t = format_ident!("{}", camel(&ir.formats[f.format].name));
            Some(quote!((#id, #t)))
        });
        let layouts = oa
            .formats
            .iter()
            .map(|f| format_ident!("{}", camel(&ir.formats[f.format].name)));
        arms.push(quote!({ name: #module, ty: #ty, wake: [#(#wake),*], sample: #sample, i915: [#(#i915),*], layouts: [#(#layouts),*] }));
    }
    // Every compiled project with report formats, for the visitor.
    let visits = ir
        .catalogue
        .projects
        .iter()
        .enumerate()
        .filter_map(|(pi, p)| {
            if !ir.formats.iter().any(|f| f.project == pi && !f.external) {
                return None;
            }
            let tag = p.name.as_str();
            let module = format_ident!("{}", p.name);
            let cfg = opts.features.then(|| opts.gate(tag));
            Some(quote!(#cfg #tag => { #module::reports::visit_all(v); true }))
        });
    let listed: Vec<String> = arms.iter().map(|a| a.to_string()).collect();
    let doc = text::doc(&format!(
        "Calls `callback! {{ (args) {{ name: tgl, ty: Tgl, wake: [Gt, Render], sample: A32u40A4u32B8C8, i915: [(7, C4B8), ...], layouts: [C4B8, ...] }}, ... }}` with one group per compiled project that has an OA unit (catalogue order; {} now): its module, project type, the domains its metric-set programming holds awake (types of `<module>::domains`), the report layout the emulator samples, i915's format numbers with their layouts, and every layout a driver numbers (types of `<module>::reports`).\n\nThe one list per-project dispatch uses: a project added to the catalogue is dispatched to without a code change.\n\n```\nmacro_rules! names {{\n    (($($a:tt)*) $({{ name: $m:ident, $($rest:tt)* }}),*) => {{ [$(stringify!($m)),*] }};\n}}\nlet names: &[&str] = &hal::for_each_oa_project!(names!());\nassert!(names.contains(&\"hsw\"));\n```",
        listed.len()
    ));
    quote! {
        /// Every GT part of the compiled projects (catalogue `gpu: parts:`), in catalogue order.
        pub static PARTS: &[&#hal::meta::PartInfo] = &[#(#refs),*];
        /// Call `v.visit::<F>()` for every report format of compiled project
        /// `project`; false when it has none (or is not compiled).
        pub fn visit_report_formats<V: #hal::FormatVisitor>(project: &str, v: &mut V) -> bool {
            match project {
                #(#visits)*
                _ => {
                    let _ = v;
                    false
                }
            }
        }
        #doc
        #[macro_export]
        macro_rules! for_each_oa_project {
            ($callback:ident ! ($($args:tt)*)) => {
                $callback! { ($($args)*) #(#arms),* }
            };
        }
    }
}
