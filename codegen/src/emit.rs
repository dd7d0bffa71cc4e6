//! Emission: [`Ir`] -> Rust tokens with `quote`. The generated code plugs into
//! the hand-written traits of `perfregs-hal`; each register is a zero-sized
//! type, its read/write value types and one zero-sized type per field.

use crate::access::Access;
use crate::ir::{EnumIr, FieldIr, InstanceIr, Ir, RegisterIr};
use crate::model::Space;
use crate::resolve::camel;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// How to emit.
#[derive(Clone, Debug)]
pub struct EmitOptions {
    /// Path of the HAL crate as seen from the generated code (`crate` inside
    /// perfregs-hal, `::perfregs::hal` from the proc-macro).
    pub hal: TokenStream,
    /// Emit the project marker types and the `PROJECTS` table (only the HAL's
    /// own build does; code from the proc-macro uses the HAL's project types).
    pub projects: bool,
}

impl EmitOptions {
    /// Options for the HAL's build script.
    pub fn for_hal() -> Self {
        EmitOptions {
            hal: quote!(crate),
            projects: true,
        }
    }
}

fn doc(text: &str) -> TokenStream {
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
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '[' | ']' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn opt_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(Some(#s)),
        None => quote!(None),
    }
}

fn slot(c: &crate::ir::CounterIr, hal: &TokenStream) -> TokenStream {
    let (name, offset, bits) = (c.name.as_str(), c.offset as u32, c.bits);
    let high = match c.high_byte_offset {
        Some(h) => {
            let h = h as u32;
            quote!(Some(#h))
        }
        None => quote!(None),
    };
    quote!(#hal::meta::CounterSlot { name: #name, offset: #offset, bits: #bits, high_byte_offset: #high })
}

/// Report formats of project `p`: a zero-sized type per format plus its layout.
fn emit_formats(ir: &Ir, p: usize, opts: &EmitOptions) -> (TokenStream, Vec<TokenStream>) {
    let hal = &opts.hal;
    let project_ty = project_type(&ir.catalogue.projects[p].name);
    let mut items = Vec::new();
    let mut refs = Vec::new();
    for f in ir.formats.iter().filter(|f| f.project == p) {
        let ty = format_ident!("{}", camel(&f.name));
        let info = format_ident!("{}_INFO", f.name);
        let (name, select, size) = (f.name.as_str(), f.select, f.size as usize);
        let desc = f.description.as_str();
        let slots: Vec<_> = f.counters.iter().map(|c| slot(c, hal)).collect();
        let by_index = |prefix: char| -> TokenStream {
            let idx: Vec<(usize, &crate::ir::CounterIr)> = f
                .counters
                .iter()
                .filter_map(|c| {
                    let rest = c.name.strip_prefix(prefix)?;
                    rest.parse::<usize>().ok().map(|n| (n, c))
                })
                .collect();
            let max = idx.iter().map(|(n, _)| n + 1).max().unwrap_or(0);
            let cells: Vec<TokenStream> = (0..max)
                .map(|n| match idx.iter().find(|(k, _)| *k == n) {
                    Some((_, c)) => {
                        let s = slot(c, hal);
                        quote!(Some(#s))
                    }
                    None => quote!(None),
                })
                .collect();
            quote!(&[#(#cells),*])
        };
        let header = |n: &str| -> TokenStream {
            match f.counters.iter().find(|c| c.name == n) {
                Some(c) => {
                    let s = slot(c, hal);
                    quote!(Some(#s))
                }
                None => quote!(None),
            }
        };
        let (a, b, c) = (by_index('A'), by_index('B'), by_index('C'));
        let (rpt, ts, ctx, ticks) = (
            header("RPT_ID"),
            header("TIME_STAMP"),
            header("CTX_ID"),
            header("GPU_TICKS"),
        );
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
            pub static #info: #hal::meta::FormatInfo = #hal::meta::FormatInfo {
                name: #name, select: #select, size: #size, description: #desc,
                counters: &[#(#slots),*],
            };
            #fdoc
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct #ty;
            impl #hal::ReportFormat for #ty {
                type Project = #hal::#project_ty;
                const INFO: &'static #hal::meta::FormatInfo = &#info;
                const A: &'static [Option<#hal::meta::CounterSlot>] = #a;
                const B: &'static [Option<#hal::meta::CounterSlot>] = #b;
                const C: &'static [Option<#hal::meta::CounterSlot>] = #c;
                const RPT_ID: Option<#hal::meta::CounterSlot> = #rpt;
                const TIME_STAMP: Option<#hal::meta::CounterSlot> = #ts;
                const CTX_ID: Option<#hal::meta::CounterSlot> = #ctx;
                const GPU_TICKS: Option<#hal::meta::CounterSlot> = #ticks;
            }
        });
        refs.push(quote!(&reports::#info));
    }
    let tys: Vec<_> = ir
        .formats
        .iter()
        .filter(|f| f.project == p)
        .map(|f| format_ident!("{}", camel(&f.name)))
        .collect();
    let module = if items.is_empty() {
        quote!()
    } else {
        quote! {
            /// Report formats of this project: zero-copy views with `perfregs_hal::Report`.
            pub mod reports {
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
fn emit_project_tables(ir: &Ir, p: usize, hal: &TokenStream) -> TokenStream {
    let domains = ir.domains.iter().filter(|d| d.project == p).map(|d| {
        let (name, on, desc) = (d.name.as_str(), d.always_on, d.description.as_str());
        let (req, ack) = (opt_str(d.request.as_deref()), opt_str(d.ack.as_deref()));
        quote!(#hal::meta::DomainInfo { name: #name, always_on: #on, request: #req, ack: #ack, description: #desc })
    });
    let groups = ir.groups.iter().filter(|g| g.project == p).map(|g| {
        let (name, n, desc) = (g.name.as_str(), g.instances, g.description.as_str());
        let fuse = match &g.fuse {
            Some((r, f, pol)) => {
                let present = *pol == crate::model::FusePolarity::Enable;
                quote!(Some(#hal::meta::FuseInfo { register: #r, field: #f, set_means_present: #present }))
            }
            None => quote!(None),
        };
        quote!(#hal::meta::GroupInfo { name: #name, instances: #n, fuse: #fuse, description: #desc })
    });
    let rows = ir.map.iter().filter(|r| r.project == p).map(|r| {
        let (start, end, n, st) = (hex(r.start), hex(r.end), r.instances, r.steering.as_str());
        let (wake, group) = (opt_str(r.wake.as_deref()), opt_str(r.group.as_deref()));
        quote!(#hal::meta::MapRow { start: #start, end: #end, wake: #wake, group: #group, instances: #n, steering: #st })
    });
    let tables = ir.tables.iter().filter(|t| t.projects.contains(p)).map(|t| {
        let (name, desc) = (t.name.as_str(), t.description.as_str());
        let cols = t.columns.iter().map(String::as_str);
        let rows = t.rows.iter().map(|row| {
            let cells = row.iter().map(|c| cell(c, hal));
            quote!(&[#(#cells),*])
        });
        quote!(#hal::meta::TableInfo { name: #name, description: #desc, columns: &[#(#cols),*], rows: &[#(#rows),*] })
    });
    let steering = opt_str(
        ir.steering
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, r)| r.as_str()),
    );
    quote! {
        steering: #steering,
        domains: &[#(#domains),*],
        groups: &[#(#groups),*],
        map: &[#(#rows),*],
        tables: &[#(#tables),*],
    }
}

/// Power domains and replication groups of project `p` as types, and the
/// `Steered` impl when the project has a steering selector.
fn emit_power_types(ir: &Ir, p: usize, opts: &EmitOptions) -> TokenStream {
    let hal = &opts.hal;
    let project_ty = project_type(&ir.catalogue.projects[p].name);
    let reg = |name: &str| ir.find(p, name).map(|(_, i)| i);
    let mut wake_index = 0usize;
    let domains: Vec<TokenStream> = ir
        .domains
        .iter()
        .filter(|d| d.project == p)
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
            let kind = match (
                d.always_on,
                d.request.as_deref().and_then(reg),
                d.ack.as_deref().and_then(reg),
            ) {
                (true, _, _) => {
                    quote!(#[diagnostic::do_not_recommend] impl #hal::power::AlwaysOn for #ty {})
                }
                (false, Some(req), Some(ack)) => {
                    let (ra, aa) = (hex(req.address), hex(ack.address));
                    let bit = req
                        .fields
                        .iter()
                        .find(|f| f.name == "kernel")
                        .map_or(0, |f| f.lsb);
                    let index = wake_index;
                    wake_index += 1;
                    quote! {
                        impl #hal::power::Wakeable for #ty {
                            type Project = #hal::#project_ty;
                            const INDEX: usize = #index;
                            const REQUEST: u64 = #ra;
                            const ACK: u64 = #aa;
                            const BIT: u32 = #bit;
                        }
                    }
                }
                _ => quote!(),
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
    let groups_ir: Vec<&crate::ir::GroupIr> = ir.groups.iter().filter(|g| g.project == p).collect();
    let fuse_of = |g: &crate::ir::GroupIr| -> Option<(u64, u32, u32, bool, Option<String>)> {
        let (r, f, pol) = g.fuse.as_ref()?;
        let inst = reg(r)?;
        let field = inst.fields.iter().find(|x| &x.name == f)?;
        Some((
            inst.address,
            field.lsb,
            field.width,
            *pol == crate::model::FusePolarity::Enable,
            inst.domain.clone(),
        ))
    };
    let fuse_tokens = |g: &crate::ir::GroupIr| match fuse_of(g) {
        Some((a, lsb, w, present, _)) => {
            let a = hex(a);
            quote!(Some(#hal::register::Fuse { address: #a, lsb: #lsb, width: #w, set_means_present: #present }))
        }
        None => quote!(None),
    };
    let groups: Vec<TokenStream> = groups_ir
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let ty = format_ident!("{}", camel(&g.name));
            let (name, n) = (g.name.as_str(), g.instances);
            let fuse = fuse_tokens(g);
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
            quote! {
                #gdoc
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
                pub struct #ty;
                impl #hal::register::ReplicationGroup for #ty {
                    const NAME: &'static str = #name;
                    const INDEX: usize = #i;
                    const INSTANCES: u32 = #n;
                    const FUSE: Option<#hal::register::Fuse> = #fuse;
                }
            }
        })
        .collect();
    let steered = ir
        .steering
        .iter()
        .find(|(q, _)| *q == p)
        .and_then(|(_, sel)| {
            if !opts.projects {
                return None;
            }
            let inst = reg(sel)?;
            let f = |n: &str| inst.fields.iter().find(|x| x.name == n);
            let (mc, sl, ss) = (f("multicast")?, f("slice_id")?, f("subslice_id")?);
            let sel_addr = hex(inst.address);
            let mc_mask = hex(mc.mask());
            let (sl_lsb, sl_w, ss_lsb, ss_w) = (sl.lsb, sl.width, ss.lsb, ss.width);
            let domain = groups_ir
                .iter()
                .find_map(|g| fuse_of(g).map(|x| x.4))
                .unwrap_or_else(|| inst.domain.clone());
            let domain_ty = match domain {
                Some(d) => {
                    let t = format_ident!("{}", camel(&d));
                    quote!(domains::#t)
                }
                None => quote!(#hal::power::NoDomain),
            };
            let entries: Vec<TokenStream> = groups_ir
                .iter()
                .map(|g| {
                    let n = g.instances;
                    let fuse = fuse_tokens(g);
                    quote!((#n, #fuse))
                })
                .collect();
            Some(quote! {
                impl #hal::register::Steered for #hal::#project_ty {
                    const SELECTOR: u64 = #sel_addr;
                    const MULTICAST: u64 = #mc_mask;
                    const SLICE: (u32, u32) = (#sl_lsb, #sl_w);
                    const SUBSLICE: (u32, u32) = (#ss_lsb, #ss_w);
                    type Domain = #domain_ty;
                    const GROUPS: &'static [(u32, Option<#hal::register::Fuse>)] = &[#(#entries),*];
                }
            })
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

fn u64_lit(v: u64) -> Literal {
    Literal::u64_unsuffixed(v)
}

fn hex(v: u64) -> TokenStream {
    // Hex literal for readable generated code.
    format!("{v:#x}").parse().unwrap_or_else(|_| quote!(#v))
}

/// Rust type name of a project tag (`hsw` -> `Hsw`).
pub fn project_type(name: &str) -> proc_macro2::Ident {
    format_ident!("{}", camel(name))
}

fn access_kind(a: Access) -> proc_macro2::Ident {
    format_ident!("{}", a.type_name())
}

/// Whether reads of an enum's fields always decode to a named value.
fn enum_complete(ir: &Ir, index: usize) -> bool {
    let e = &ir.enums[index];
    let n = e.values.len() as u64;
    if !n.is_power_of_two() || !(0..n).all(|v| e.values.iter().any(|x| x.1 == v)) {
        return false;
    }
    let k = n.trailing_zeros();
    let mut used = false;
    for r in &ir.registers {
        for i in &r.instances {
            for f in &i.fields {
                if f.enum_index == Some(index) {
                    used = true;
                    if f.width != k {
                        return false;
                    }
                }
            }
        }
    }
    used
}

fn emit_enum(ir: &Ir, index: usize, hal: &TokenStream) -> TokenStream {
    let e: &EnumIr = &ir.enums[index];
    let name = format_ident!("{}", e.name);
    let edoc = doc(&md(if e.description.is_empty() {
        &e.name
    } else {
        &e.description
    }));
    let variants: Vec<_> = e
        .values
        .iter()
        .map(|(n, _, _)| format_ident!("{}", camel(n)))
        .collect();
    let vdocs: Vec<_> = e
        .values
        .iter()
        .map(|(n, v, d)| {
            doc(&format!(
                "`{v:#x}` {n}{}{}",
                if d.is_empty() { "" } else { ": " },
                md(d)
            ))
        })
        .collect();
    let vals: Vec<_> = e.values.iter().map(|(_, v, _)| u64_lit(*v)).collect();
    let names: Vec<_> = e.values.iter().map(|(n, _, _)| n.as_str()).collect();
    let complete = enum_complete(ir, index);
    let max = e.values.iter().map(|v| v.1).max().unwrap_or(0);
    let repr = match max {
        0..=0xFF => quote!(u8),
        0x100..=0xFFFF => quote!(u16),
        0x1_0000..=0xFFFF_FFFF => quote!(u32),
        _ => quote!(u64),
    };
    // Explicit discriminants equal to the encodings: decoding a complete enum
    // compiles to a mask, encoding to a cast.
    let read_impl = if complete {
        let last = variants.last().cloned();
        quote! {
            type Read = Self;
            #[inline]
            fn from_bits(bits: u64) -> Self {
                match bits { #( #vals => Self::#variants, )* _ => Self::#last }
            }
        }
    } else {
        quote! {
            type Read = ::core::result::Result<Self, u64>;
            #[inline]
            fn from_bits(bits: u64) -> ::core::result::Result<Self, u64> {
                Self::from_bits(bits).ok_or(bits)
            }
        }
    };
    quote! {
        #edoc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(#repr)]
        pub enum #name {
            #( #vdocs #variants = #vals, )*
        }
        impl #name {
            /// Every named encoding.
            pub const ALL: &'static [#name] = &[#(#name::#variants),*];
            /// The encoding named by `bits`, if any.
            #[inline]
            pub const fn from_bits(bits: u64) -> ::core::option::Option<Self> {
                match bits { #( #vals => Some(Self::#variants), )* _ => None }
            }
            /// The encoded value.
            #[inline]
            pub const fn bits(self) -> u64 {
                self as u64
            }
            /// The PRM name of the encoding.
            pub const fn name(self) -> &'static str {
                match self { #( Self::#variants => #names, )* }
            }
        }
        impl #hal::FieldValue for #name {
            #read_impl
            #[inline]
            fn to_bits(self) -> u64 { self.bits() }
        }
    }
}

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

fn register_doc(r: &RegisterIr, inst: &InstanceIr, ir: &Ir) -> String {
    let mut s = r.name.to_string();
    if !r.title.is_empty() {
        s += &format!(" — {}", md(&r.title));
    }
    s += "\n\n";
    if !r.description.is_empty() {
        s += &md(&r.description);
        s += "\n\n";
    }
    let project = &ir.catalogue.projects[inst.project].name;
    let space = match r.space {
        Space::Mmio => "MMIO offset",
        Space::Msr => "MSR",
        Space::Pci => "PCI config offset",
    };
    s += &format!(
        "| | |\n|---|---|\n| {space} | `{:#x}` on {project} |\n| width | {} bits |\n| reset | `{:#x}` |\n",
        inst.address, r.width, inst.reset
    );
    if r.masked {
        s += "| masked | bits 31:16 enable the write of bits 15:0 |\n";
    }
    let mut others = Vec::new();
    for i in &r.instances {
        if i.project != inst.project {
            others.push(format!(
                "{} `{:#x}`",
                ir.catalogue.projects[i.project].name, i.address
            ));
        }
    }
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
    s += &format!("| description | `{}` |\n", r.defined_at);
    if !inst.fields.is_empty() {
        s += "\n| bits | field | access | description |\n|---|---|---|---|\n";
        for f in inst.fields.iter().rev() {
            let first = md(f.description.lines().next().unwrap_or("")).replace('|', "\\|");
            s += &format!(
                "| {} | `{}` | {} | {} |\n",
                bits_str(f),
                f.name,
                f.access.as_str(),
                first
            );
        }
    }
    if !r.note.is_empty() {
        s += &format!("\n**Note:** {}\n", md(&r.note));
    }
    s
}

fn bits_str(f: &FieldIr) -> String {
    if f.width == 1 {
        format!("{}", f.lsb)
    } else {
        format!("{}:{}", f.msb(), f.lsb)
    }
}

fn emit_register(r: &RegisterIr, inst: &InstanceIr, ir: &Ir, opts: &EmitOptions) -> TokenStream {
    let hal = &opts.hal;
    let project_ty = project_type(&ir.catalogue.projects[inst.project].name);
    let name = format_ident!("{}", r.name);
    let module = format_ident!("{}", r.name.to_ascii_lowercase());
    let rdoc = doc(&register_doc(r, inst, ir));
    let name_str = r.name.as_str();
    let addr = hex(inst.address);
    let width = r.width;
    let reset = hex(inst.reset);
    let space = match r.space {
        Space::Mmio => quote!(#hal::Mmio),
        Space::Msr => quote!(#hal::Msr),
        Space::Pci => quote!(#hal::Pci),
    };
    let space_kind = match r.space {
        Space::Mmio => quote!(Mmio),
        Space::Msr => quote!(Msr),
        Space::Pci => quote!(Pci),
    };
    // Written back as read (modify) or as reset (write): everything but the bits
    // a write must not carry: RW1C/RW1S ones, MBZ/reserved and undescribed bits.
    let keep = hex(inst.mask_where(|a| !a.reserved() && !matches!(a, Access::Rw1c | Access::Rw1s)));
    let readable = inst.fields.is_empty() || inst.fields.iter().any(|f| f.access.readable());
    let writable = !r.masked
        && (inst.fields.is_empty()
            || inst
                .fields
                .iter()
                .any(|f| f.access.settable() || matches!(f.access, Access::Rw1c | Access::Rw1s)));
    let readable_impl =
        readable.then(|| quote!(#[diagnostic::do_not_recommend] impl #hal::Readable for #name {}));
    let writable_impl =
        writable.then(|| quote!(#[diagnostic::do_not_recommend] impl #hal::Writable for #name {}));
    let masked_impl = r
        .masked
        .then(|| quote!(impl #hal::MaskedWritable for #name {}));

    let mut field_types = Vec::new();
    let mut getters = Vec::new();
    let mut setters = Vec::new();
    let mut debug_fields = Vec::new();
    let mut infos = Vec::new();
    for f in &inst.fields {
        let fname = format_ident!("{}", f.name);
        let fty = format_ident!("{}", camel(&f.name));
        let vty = field_value_type(f, ir, hal);
        let acc = access_kind(f.access);
        let lsb = f.lsb;
        let fw = f.width;
        let fname_str = f.name.as_str();
        let mut text = format!("`{}` — bits {}, {}", f.name, bits_str(f), f.access.as_str());
        if !f.description.is_empty() {
            text += &format!("\n\n{}", md(&f.description));
        }
        if !f.note.is_empty() {
            text += &format!("\n\n**Note:** {}", md(&f.note));
        }
        let fdoc = doc(&text);
        field_types.push(quote! {
            #fdoc
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct #fty;
            impl #hal::Field for #fty {
                type Register = super::#name;
                type Access = #hal::access::#acc;
                type Value = #vty;
                const NAME: &'static str = #fname_str;
                const LSB: u32 = #lsb;
                const WIDTH: u32 = #fw;
            }
        });
        let desc = f.description.as_str();
        let values: Vec<TokenStream> = f
            .enum_index
            .map(|i| {
                ir.enums[i]
                    .values
                    .iter()
                    .map(|(n, v, _)| {
                        let v = u64_lit(*v);
                        quote!((#n, #v))
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
                #fdoc
                #[inline]
                pub fn #fname(self) -> <#vty as #hal::FieldValue>::Read {
                    #hal::ReadValue::get(self, #fty)
                }
            });
            debug_fields.push(quote!(.field(#fname_str, &self.#fname())));
        }
        if f.access.settable() {
            setters.push(quote! {
                #fdoc
                #[inline]
                pub fn #fname(&mut self, value: #vty) -> &mut Self {
                    #hal::WriteValue::set(self, #fty, value)
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
                pub fn #clear(&mut self) -> &mut Self { #hal::WriteValue::clear(self, #fty) }
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
                pub fn #set(&mut self) -> &mut Self { #hal::WriteValue::set_ones(self, #fty) }
            });
        }
    }
    let title = r.title.as_str();
    let block = r.block.as_str();
    let masked = r.masked;
    let read_doc = doc(&format!(
        "A value read from [`{}`](super::{}).",
        r.name, r.name
    ));
    let write_doc = doc(&format!(
        "A value being written to [`{}`](super::{}){}.",
        r.name,
        r.name,
        if r.masked {
            " (masked: only fields set here are enabled in bits 31:16)"
        } else {
            ""
        }
    ));
    let (w_struct, w_impl, w_debug) = if r.masked {
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
                        write!(f, "{}(enable {:#06x}, value {:#06x})", #name_str, self.enable, self.value)
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
                        write!(f, "{}({:#x})", #name_str, self.0)
                    }
                }
            },
        )
    };
    let domain = opt_str(inst.domain.as_deref());
    let domain_ty = match &inst.domain {
        Some(d) => {
            let t = format_ident!("{}", camel(d));
            quote!(domains::#t)
        }
        None => quote!(#hal::power::NoDomain),
    };
    let cast_impl = match &inst.replication {
        Some((g, _)) => {
            let t = format_ident!("{}", camel(g));
            quote!(impl #hal::Replicated for #name { type Group = groups::#t; })
        }
        None => quote!(#[diagnostic::do_not_recommend] impl #hal::Unicast for #name {}),
    };
    let replication = match &inst.replication {
        Some((g, n)) => quote!(Some((#g, #n))),
        None => quote!(None),
    };
    let mod_doc = doc(&format!("Fields and values of [`{}`]({}).", r.name, r.name));
    quote! {
        #rdoc
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct #name;
        impl #hal::Register for #name {
            type Project = #hal::#project_ty;
            type Space = #space;
            type Domain = #domain_ty;
            type Read = #module::R;
            type Write = #module::W;
            const NAME: &'static str = #name_str;
            const ADDRESS: u64 = #addr;
            const WIDTH: u32 = #width;
            const RESET: u64 = #reset;
            const KEEP_MASK: u64 = #keep;
            const INFO: &'static #hal::meta::RegisterInfo = &#module::INFO;
        }
        #[diagnostic::do_not_recommend]
        impl #hal::OnProject<#hal::#project_ty> for #name {}
        #readable_impl
        #writable_impl
        #masked_impl
        #cast_impl

        #mod_doc
        pub mod #module {
            /// Runtime description of this register on this project.
            pub static INFO: #hal::meta::RegisterInfo = #hal::meta::RegisterInfo {
                name: #name_str, block: #block, title: #title,
                space: #hal::meta::SpaceKind::#space_kind,
                address: #addr, width: #width, reset: #reset, masked: #masked,
                fields: &[#(#infos),*],
                domain: #domain,
                replication: #replication,
            };

            #read_doc
            #[derive(Clone, Copy, PartialEq, Eq)]
            pub struct R(u64);
            impl #hal::ReadValue for R {
                type Register = super::#name;
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
                    f.debug_struct(#name_str) #(#debug_fields)* .finish()
                }
            }

            #write_doc
            #[derive(Clone, Copy, PartialEq, Eq)]
            #w_struct
            impl #hal::WriteValue for W {
                type Register = super::#name;
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

/// Emit the whole description.
pub fn emit(ir: &Ir, opts: &EmitOptions) -> TokenStream {
    let hal = &opts.hal;
    let enums: Vec<_> = (0..ir.enums.len()).map(|i| emit_enum(ir, i, hal)).collect();
    let mut project_types = Vec::new();
    let mut modules = Vec::new();
    let mut project_refs = Vec::new();
    for (pi, p) in ir.catalogue.projects.iter().enumerate() {
        let ty = project_type(&p.name);
        let tag = p.name.as_str();
        let title = p.title.as_str();
        let pdoc = doc(&format!("Project marker: {} (`{}`).", p.title, p.name));
        if opts.projects {
            project_types.push(quote! {
                #pdoc
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
                pub struct #ty;
                impl #hal::Project for #ty {
                    const NAME: &'static str = #tag;
                    const TITLE: &'static str = #title;
                }
            });
        }
        let regs: Vec<_> = ir.on_project(pi).collect();
        let has_formats = ir.formats.iter().any(|f| f.project == pi);
        if regs.is_empty() && !has_formats && !opts.projects {
            continue;
        }
        let (formats_mod, format_refs) = emit_formats(ir, pi, opts);
        let power_types = emit_power_types(ir, pi, opts);
        let tables = emit_project_tables(ir, pi, hal);
        let module = format_ident!("{}", p.name);
        let items: Vec<_> = regs
            .iter()
            .map(|(r, i)| emit_register(r, i, ir, opts))
            .collect();
        let infos: Vec<_> = regs
            .iter()
            .map(|(r, _)| {
                let m = format_ident!("{}", r.name.to_ascii_lowercase());
                quote!(&#m::INFO)
            })
            .collect();
        let events: Vec<_> = ir
            .events
            .iter()
            .filter(|e| e.projects.contains(pi))
            .map(|e| {
                let (c, n, d) = (&e.counter, &e.event, &e.description);
                quote!(#hal::meta::CounterEvent { counter: #c, event: #n, description: #d })
            })
            .collect();
        let mdoc = doc(&format!(
            "Registers of {} (`{}`): {} described.\n\nEvery item here exists on this project at the address its docs give.",
            p.title,
            p.name,
            regs.len()
        ));
        modules.push(quote! {
            #mdoc
            pub mod #module {
                /// Everything described for this project, at run time.
                pub static PROJECT: #hal::meta::ProjectInfo = #hal::meta::ProjectInfo {
                    name: #tag, title: #title,
                    registers: &[#(#infos),*],
                    events: &[#(#events),*],
                    formats: &[#(#format_refs),*],
                    #tables
                };
                #formats_mod
                #power_types
                #(#items)*
            }
        });
        project_refs.push(quote!(&#module::PROJECT));
    }
    let table = opts.projects.then(|| {
        quote! {
            /// Every project's description, in catalogue order.
            pub static PROJECTS: &[&#hal::meta::ProjectInfo] = &[#(#project_refs),*];
        }
    });
    quote! {
        #(#project_types)*
        /// Enumerated field values, shared by every project.
        pub mod enums {
            #(#enums)*
        }
        #(#modules)*
        #table
    }
}
