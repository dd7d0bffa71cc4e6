//! Power domains and replication groups of a project as types, and the
//! `Steered` impl of a project with a steering selector. Reads the handshakes
//! lowering resolved ([`WakeIr`](crate::ir::WakeIr), [`FuseIr`], [`SteeringIr`](crate::ir::SteeringIr)).

use super::text::{doc, hex, md, project_type};
use super::EmitOptions;
use crate::ir::{FuseIr, Ir};
use crate::resolve::camel;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Path of a project's domain or group type from a project module: its own
/// `domains`/`groups` module, or the HAL's for a built-in (external) one.
fn section_type(
    ir: &Ir,
    project: usize,
    name: &str,
    external: bool,
    module: &str,
    opts: &EmitOptions,
) -> TokenStream {
    let t = format_ident!("{}", camel(name));
    let module = format_ident!("{}", module);
    if external {
        let hal = &opts.hal;
        let m = format_ident!("{}", ir.catalogue.projects[project].name);
        quote!(#hal::#m::#module::#t)
    } else {
        quote!(#module::#t)
    }
}

/// Path of the type of domain `d` (index into [`Ir::domains`]) from a project module.
pub(super) fn domain_path(ir: &Ir, d: Option<usize>, opts: &EmitOptions) -> TokenStream {
    match d.map(|d| &ir.domains[d]) {
        Some(d) => section_type(ir, d.project, &d.name, d.external, "domains", opts),
        None => {
            let hal = &opts.hal;
            quote!(#hal::power::NoDomain)
        }
    }
}

/// Path of the domain type of a register whose row wakes `d` and, when
/// it wakes two, `d2`: `Both<A, B>` for a pair, else as [`domain_path`].
pub(super) fn wake_path(
    ir: &Ir,
    d: Option<usize>,
    d2: Option<usize>,
    opts: &EmitOptions,
) -> TokenStream {
    let first = domain_path(ir, d, opts);
    match d2 {
        Some(_) => {
            let (hal, second) = (&opts.hal, domain_path(ir, d2, opts));
            quote!(#hal::power::Both<#first, #second>)
        }
        None => first,
    }
}

/// Path of the type of group `g` (index into [`Ir::groups`]) from a project module.
pub(super) fn group_path(ir: &Ir, g: usize, opts: &EmitOptions) -> TokenStream {
    let g = &ir.groups[g];
    section_type(ir, g.project, &g.name, g.external, "groups", opts)
}

fn fuse_tokens(f: Option<&FuseIr>, hal: &TokenStream) -> TokenStream {
    match f {
        Some(f) => {
            let (a, lsb, w, present) = (hex(f.address), f.lsb, f.width, f.set_means_present);
            quote!(Some(#hal::register::Fuse { address: #a, lsb: #lsb, width: #w, set_means_present: #present }))
        }
        None => quote!(None),
    }
}

/// `Some(Semaphore { .. })` or `None`.
fn semaphore_tokens(s: Option<&crate::ir::SemaphoreIr>, hal: &TokenStream) -> TokenStream {
    match s {
        Some(s) => {
            let (a, bit) = (hex(s.address), s.bit);
            quote!(Some(#hal::register::Semaphore { address: #a, bit: #bit }))
        }
        None => quote!(None),
    }
}

/// The `domains` and `groups` modules of project `p`, and its `Steered` impl.
pub(super) fn emit_power_types(ir: &Ir, p: usize, opts: &EmitOptions) -> TokenStream {
    let hal = &opts.hal;
    let project_ty = project_type(&ir.catalogue.projects[p].name);
    let mut domains: Vec<TokenStream> = ir
        .domains
        .iter()
        .filter(|d| d.project == p && !d.external)
        .map(|d| {
            let ty = format_ident!("{}", camel(&d.name));
            let name = d.name.as_str();
            let ddoc = doc(&format!(
                "Power domain `{}`{}.",
                d.name,
                if d.description.is_empty() {
                    String::new()
                } else {
                    format!(": {}", md(&d.description))
                }
            ));
            let kind = match (d.always_on, d.wake) {
                (true, _) => {
                    quote!(#[diagnostic::do_not_recommend] impl #hal::power::AlwaysOn for #ty {})
                }
                (false, Some(w)) => {
                    let (ra, aa, bit, index) = (hex(w.request), hex(w.ack), w.bit, w.index);
                    let masked = w.masked;
                    quote! {
                        impl #hal::power::Wakeable for #ty {
                            type Project = #hal::#project_ty;
                            const INDEX: usize = #index;
                            const REQUEST: u64 = #ra;
                            const ACK: u64 = #aa;
                            const BIT: u32 = #bit;
                            const MASKED: bool = #masked;
                        }
                    }
                }
                // Lowering resolves every wakeable domain's handshake or fails.
                (false, None) => quote!(),
            };
            quote! {
                #ddoc
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
                pub struct #ty;
                impl #hal::power::Domain for #ty { const NAME: &'static str = #name; }
                #kind
            }
        })
        .collect();
    // Pairs of domains that rows of the project wake together: the domain
    // type of their registers (emitted where the two domains are).
    let mut pairs: Vec<&str> = ir
        .map
        .iter()
        .filter(|r| r.project == p && !r.external)
        .filter_map(|r| r.wake.as_deref())
        .filter(|w| w.contains(crate::ir::WAKE_SEP))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let pairs = pairs.into_iter().filter_map(|w| {
        let (a, b) = w.split_once(crate::ir::WAKE_SEP)?;
        let own = |n: &str| {
            ir.domains
                .iter()
                .any(|d| d.project == p && d.name == n && !d.external)
        };
        if !(own(a) && own(b)) {
            return None;
        }
        let (ta, tb) = (format_ident!("{}", camel(a)), format_ident!("{}", camel(b)));
        let alias = format_ident!("{}{}", camel(a), camel(b));
        let pdoc = doc(&format!(
            "Power domains `{a}` and `{b}` woken together: the domain of the \
             registers whose force-wake row wakes both (`{w}`). Its proof is a \
             pair of proofs of this device, `&(&{a}, &{b})`."
        ));
        Some(quote! {
            #pdoc
            pub type #alias = #hal::power::Both<#ta, #tb>;
            impl #hal::power::Domain for #hal::power::Both<#ta, #tb> { const NAME: &'static str = #w; }
        })
    });
    domains.extend(pairs);
    let groups: Vec<TokenStream> = ir
        .groups
        .iter()
        .filter(|g| g.project == p && !g.external)
        .enumerate()
        .map(|(i, g)| {
            let ty = format_ident!("{}", camel(&g.name));
            let (name, n) = (g.name.as_str(), g.instances);
            let fuse = fuse_tokens(g.fuse.as_ref(), hal);
            let gdoc = doc(&format!(
                "Replication group `{}` ({} instances){}.",
                g.name,
                g.instances,
                if g.description.is_empty() {
                    String::new()
                } else {
                    format!(": {}", md(&g.description))
                }
            ));
            // Emitted only when described: the trait's defaults are the
            // encoding and selector of Gen8..Gen12.
            let per_group = g.per_group.map(|k| quote!(const PER_GROUP: u32 = #k;));
            let selector = g.selector.as_ref().map(|s| {
                let (a, m) = (hex(s.address), hex(s.multicast_mask));
                let (sl, sw, bl, bw) =
                    (s.slice.lsb, s.slice.width, s.subslice.lsb, s.subslice.width);
                let sem = semaphore_tokens(s.semaphore.as_ref(), hal);
                quote! {
                    const SELECTOR: Option<#hal::register::Selector> = Some(#hal::register::Selector {
                        address: #a, multicast: #m, slice: (#sl, #sw), subslice: (#bl, #bw), semaphore: #sem,
                    });
                }
            });
            quote! {
                #gdoc
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
                pub struct #ty;
                impl #hal::register::ReplicationGroup for #ty {
                    const NAME: &'static str = #name;
                    const INDEX: usize = #i;
                    const INSTANCES: u32 = #n;
                    const FUSE: Option<#hal::register::Fuse> = #fuse;
                    #per_group
                    #selector
                }
            }
        })
        .collect();
    let steered = ir
        .steering
        .iter()
        .find(|s| s.project == p && opts.projects)
        .map(|s| {
            let sel_addr = hex(s.address);
            let mc_mask = hex(s.multicast_mask);
            let (sl_lsb, sl_w, ss_lsb, ss_w) =
                (s.slice.lsb, s.slice.width, s.subslice.lsb, s.subslice.width);
            let domain_ty = domain_path(ir, s.domain, opts);
            let entries = ir.groups.iter().filter(|g| g.project == p).map(|g| {
                let n = g.instances;
                let fuse = fuse_tokens(g.fuse.as_ref(), hal);
                quote!((#n, #fuse))
            });
            // Only a selector with a multicast bit gets multicast/unicast writes.
            let multicast = (s.multicast_mask != 0)
                .then(|| quote!(impl #hal::register::MulticastSteered for #hal::#project_ty {}));
            let semaphore = s.semaphore.as_ref().map(|x| {
                let t = semaphore_tokens(Some(x), hal);
                quote!(const SEMAPHORE: Option<#hal::register::Semaphore> = #t;)
            });
            quote! {
                #multicast
                impl #hal::register::Steered for #hal::#project_ty {
                    const SELECTOR: u64 = #sel_addr;
                    const MULTICAST: u64 = #mc_mask;
                    const SLICE: (u32, u32) = (#sl_lsb, #sl_w);
                    const SUBSLICE: (u32, u32) = (#ss_lsb, #ss_w);
                    type Domain = #domain_ty;
                    const GROUPS: &'static [(u32, Option<#hal::register::Fuse>)] = &[#(#entries),*];
                    #semaphore
                }
            }
        });
    let domains_mod = (!domains.is_empty()).then(|| {
        quote! {
            /// Power domains of this project: force-wake guards and proofs are typed by these.
            pub mod domains { #(#domains)* }
        }
    });
    let groups_mod = (!groups.is_empty()).then(|| {
        quote! {
            /// Replication groups of this project (multicast steering).
            pub mod groups { #(#groups)* }
        }
    });
    quote! { #domains_mod #groups_mod #steered }
}
