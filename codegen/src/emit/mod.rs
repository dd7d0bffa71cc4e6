//! Emission: [`Ir`] -> Rust tokens with `quote`, reading only the IR.
//!
//! The output plugs into the hand-written traits of `perfregs-hal`:
//! - `enums`: one Rust enum per description enum;
//! - `layouts`: one module per distinct field layout (value types, field
//!   accessors, field types, field table), shared by every register and
//!   project that has those fields;
//! - one module per project: its report formats, power domains and
//!   replication groups as types, its runtime tables, and per register a unit
//!   struct with one `Register` (or `RegisterArray`) impl.

mod commands;
mod devices;
mod enums;
mod formats;
mod gpu;
mod layout;
mod power;
mod register;
mod text;

pub(crate) use text::hex;

use crate::ir::Ir;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
pub use text::project_type;

/// How to emit.
#[derive(Clone, Debug)]
pub struct EmitOptions {
    /// Path of the HAL crate as seen from the generated code (`crate` inside
    /// perfregs-hal, `::perfregs::hal` from the proc-macro).
    pub hal: TokenStream,
    /// Emit the project marker types, the power-domain and group types and the
    /// `PROJECTS` table (only the HAL's own build does; code from the
    /// proc-macro uses the HAL's project, domain and group types).
    pub projects: bool,
    /// Put each project module behind the cargo feature of its name (the
    /// HAL's build; a driver for one GPU compiles one project).
    pub features: bool,
    /// Gate on `cfg(perfregs_hal = "<project>")` instead of the cargo
    /// feature: code of a crate built on the HAL that follows its projects
    /// (the HAL's `links` metadata; [`crate::build::Config::bindings`] sets
    /// the cfg).
    pub hal_cfg: bool,
    /// The projects whose feature is on, for the lists that cannot carry a
    /// `cfg` (`for_each_oa_project!`); `None`: every project.
    pub enabled: Option<Vec<String>>,
}

impl EmitOptions {
    /// Options for the HAL's build script.
    pub fn for_hal() -> Self {
        EmitOptions {
            hal: quote!(crate),
            projects: true,
            features: true,
            hal_cfg: false,
            enabled: None,
        }
    }
    /// Options for the `regdefs!` proc-macro: HAL types through `hal`.
    pub fn for_macro(hal: TokenStream) -> Self {
        EmitOptions {
            hal,
            projects: false,
            features: false,
            hal_cfg: false,
            enabled: None,
        }
    }
    /// The `cfg` attribute that gates project `tag`'s items.
    pub fn gate(&self, tag: &str) -> TokenStream {
        if self.hal_cfg {
            quote!(#[cfg(perfregs_hal = #tag)])
        } else {
            quote!(#[cfg(feature = #tag)])
        }
    }
    /// Whether project `tag` is compiled.
    pub fn is_enabled(&self, tag: &str) -> bool {
        self.enabled
            .as_ref()
            .is_none_or(|on| on.iter().any(|p| p == tag))
    }
}

/// Emit the whole description.
pub fn emit(ir: &Ir, opts: &EmitOptions) -> TokenStream {
    let hal = &opts.hal;
    let enums: Vec<_> = (0..ir.enums.len())
        .filter(|&i| !ir.enums[i].external && ir.enums[i].merged_into.is_none())
        .map(|i| enums::emit_enum(ir, i, hal))
        .collect();
    // Layouts some emitted register uses (built-in ones live in the HAL).
    let mut used = vec![false; ir.layouts.len()];
    for r in ir.registers.iter().filter(|r| !r.external) {
        for i in &r.instances {
            used[i.layout] = true;
        }
    }
    let used_by = layout::used_by(ir);
    let layouts: Vec<_> = (0..ir.layouts.len())
        .filter(|&i| used[i])
        .map(|i| layout::emit_layout(ir, i, &used_by[i], opts))
        .collect();
    let mut project_types = Vec::new();
    let mut modules = Vec::new();
    let mut project_refs = Vec::new();
    for (pi, p) in ir.catalogue.projects.iter().enumerate() {
        let ty = project_type(&p.name);
        let tag = p.name.as_str();
        let title = p.title.as_str();
        let cfg = opts.features.then(|| opts.gate(tag));
        let pdoc = text::doc(&format!("Project marker: {} (`{}`).", p.title, p.name));
        if opts.projects {
            let c2 = ir.gpu_clock_in_c2(pi).then(|| {
                quote!(
                    const GPU_CLOCK_IN_C2: bool = true;
                )
            });
            // Every steering semaphore of the project (its selector's and its
            // groups' own selectors'), once each: `Device::program` holds them.
            let mut sems: Vec<(u64, u32)> = Vec::new();
            let own = ir
                .steering
                .iter()
                .filter(|s| s.project == pi)
                .filter_map(|s| s.semaphore.as_ref());
            let groups = ir
                .groups
                .iter()
                .filter(|g| g.project == pi)
                .filter_map(|g| g.selector.as_ref()?.semaphore.as_ref());
            for x in own.chain(groups) {
                if !sems.contains(&(x.address, x.bit)) {
                    sems.push((x.address, x.bit));
                }
            }
            let sems = (!sems.is_empty()).then(|| {
                let items = sems.iter().map(|(a, b)| {
                    let a = text::u64_lit(*a);
                    quote!(#hal::register::Semaphore { address: #a, bit: #b })
                });
                quote!(const SEMAPHORES: &'static [#hal::register::Semaphore] = &[#(#items),*];)
            });
            let module = format_ident!("{}", p.name);
            project_types.push(quote! {
                #pdoc
                #cfg
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
                pub struct #ty;
                #cfg
                impl #hal::Project for #ty {
                    const NAME: &'static str = #tag;
                    const TITLE: &'static str = #title;
                    #c2
                    #sems
                    const INFO: Option<&'static #hal::meta::ProjectInfo> = Some(&#module::PROJECT);
                }
            });
        }
        let regs: Vec<_> = ir.emitted(pi).collect();
        let has_formats = ir.formats.iter().any(|f| f.project == pi && !f.external);
        let has_opaque = ir.opaque.iter().any(|o| o.project == pi && !o.external);
        let (commands_mod, command_refs) = commands::emit_commands(ir, pi, hal);
        if regs.is_empty()
            && !has_formats
            && !has_opaque
            && command_refs.is_empty()
            && !opts.projects
        {
            continue;
        }
        let (formats_mod, format_refs) = formats::emit_formats(ir, pi, opts);
        let power_types = power::emit_power_types(ir, pi, opts);
        let tables = formats::emit_project_tables(ir, pi, hal);
        let (gpu_value, gpu_items) = gpu::emit_project_gpu(ir, pi, opts);
        let scoped = enums::scoped_module(ir, pi);
        let (table, count) = register::register_table(ir, pi, opts);
        let module = format_ident!("{}", p.name);
        let mut first = 0usize;
        let mut paths = register::TypePaths::default();
        let items: Vec<_> = regs
            .iter()
            .map(|(r, i)| {
                let t = register::emit_register(r, i, first, (ir, opts), &mut paths);
                first += i.count as usize;
                t
            })
            .collect();
        let events: Vec<_> = ir
            .events
            .iter()
            .filter(|e| e.projects.contains(pi) && !e.external)
            .map(|e| {
                let (c, n, d) = (&e.counter, &e.event, &e.description);
                quote!(#hal::meta::CounterEvent { counter: #c, event: #n, description: #d })
            })
            .collect();
        let mdoc = text::doc(&format!(
            "Registers of {} (`{}`): {} described ({} with array elements).\n\nEvery item here exists on this project at the address its docs give.",
            p.title,
            p.name,
            regs.len(),
            count
        ));
        modules.push(quote! {
            #mdoc
            #cfg
            pub mod #module {
                /// Everything described for this project, at run time.
                pub static PROJECT: #hal::meta::ProjectInfo = #hal::meta::ProjectInfo {
                    name: #tag, title: #title,
                    registers: &REGISTERS,
                    events: &[#(#events),*],
                    formats: &[#(#format_refs),*],
                    commands: &[#(#command_refs),*],
                    gpu: #gpu_value,
                    #tables
                };
                #gpu_items
                #table
                #scoped
                #formats_mod
                #commands_mod
                #power_types
                #(#items)*
            }
        });
        project_refs.push(quote!(#cfg &#module::PROJECT));
    }
    let table = opts.projects.then(|| {
        quote! {
            /// Every project's description (of the enabled projects), in catalogue order.
            pub static PROJECTS: &[&#hal::meta::ProjectInfo] = &[#(#project_refs),*];
        }
    });
    let enums_mod = (!enums.is_empty()).then(|| {
        quote! {
            /// Enumerated field values, shared by every project.
            pub mod enums {
                #(#enums)*
            }
        }
    });
    let layouts_mod = (!layouts.is_empty()).then(|| {
        quote! {
            /// Field layouts, each emitted once and shared by every register (of
            /// any project) with the same fields. A project module re-exports
            /// each register's layout under the register's lower-case name.
            pub mod layouts {
                #(#layouts)*
            }
        }
    });
    let devices = devices::emit_devices(ir, hal);
    let gpu_tables = gpu::emit_tables(ir, opts);
    quote! {
        #(#project_types)*
        #enums_mod
        #layouts_mod
        #(#modules)*
        #table
        #gpu_tables
        #devices
    }
}
