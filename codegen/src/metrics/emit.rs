//! Checked metric sets -> Rust source for the `perfregs-metrics` crate,
//! built with `quote!` as the HAL's emitter (`crate::emit`) is and laid out
//! one item per line ([`lines`](super::lines)).
//!
//! One module per file, one module per set inside it: a `pub fn` per counter
//! over `(&Sample, &DeviceInfo)` returning `Option<u64>` or `Option<f64>`,
//! private `max` and `availability` functions, and `pub const SET: SetInfo`.
//! Register addresses that are registers of the HAL are written as the HAL
//! item (`<hal::bdw::OACONTROL as hal::Register>::ADDRESS`), so a renamed or
//! moved register fails the build; the rest are literals. The output is
//! deterministic and holds no paths of the machine.
//!
//! The generated code uses the runtime of `perfregs-metrics` (`crate::rt`):
//! `Sample`, `DeviceInfo`, `SetInfo`, ... and the operator helpers of
//! `crate::rt::ops`, which implement the semantics of
//! [`equation`](super::equation) exactly as [`interp`](super::interp) does.

use super::equation::{
    type_of, CheckedFile, CheckedSet, Expr, ExprKind, Op, OpClass, Source, TopologyVar, Type,
};
use super::model::{MetricFile, MetricSet};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir::{ConfigKind, Ir};
use crate::model::Space;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use std::collections::{HashMap, HashSet};

/// The module name of a shipped file: `metricsets/oa-bdw.xml` on `bdw` ->
/// `bdw`, `oa-tglgt1.xml` on `tgl` -> `tgl_gt1`.
pub fn module_name(file: &str, project: &str) -> String {
    let stem = file.rsplit('/').next().unwrap_or(file);
    let stem = stem.strip_suffix(".xml").unwrap_or(stem);
    let stem = stem.strip_prefix("oa-").unwrap_or(stem);
    let name = match stem.strip_prefix(project) {
        Some("") => project.to_string(),
        Some(rest) => format!("{project}_{}", rest.trim_start_matches(['_', '-'])),
        None => stem.to_string(),
    };
    name.replace('-', "_").to_ascii_lowercase()
}

/// Names the generated code uses must be Rust identifiers, unique where they
/// share a scope: each set's `underscore_name` in its file, each counter's in
/// its set (PR202 otherwise).
pub fn check_names(f: &MetricFile, diags: &mut Diagnostics) {
    let mut sets = HashSet::new();
    let mut bad = |pos, item: String, message: String| {
        diags.push(Diagnostic {
            code: Code::XmlShape,
            file: f.file.clone(),
            pos,
            item,
            message,
        })
    };
    for s in &f.sets {
        if !is_ident(&s.underscore_name) {
            bad(
                s.pos,
                s.symbol_name.clone(),
                format!(
                    "underscore_name {:?} is not a lower-case Rust identifier",
                    s.underscore_name
                ),
            );
        } else if !sets.insert(s.underscore_name.as_str()) {
            bad(
                s.pos,
                s.symbol_name.clone(),
                format!("a second set with underscore_name {:?}", s.underscore_name),
            );
        }
        let mut counters = HashSet::new();
        for c in &s.counters {
            let item = format!("{}.{}", s.symbol_name, c.symbol_name);
            if !is_ident(&c.underscore_name) || RESERVED.contains(&c.underscore_name.as_str()) {
                bad(c.pos, item, format!("underscore_name {:?} is not a lower-case Rust identifier free for a counter (not one of {RESERVED:?})", c.underscore_name));
            } else if !counters.insert(c.underscore_name.as_str()) {
                bad(
                    c.pos,
                    item,
                    format!(
                        "a second counter with underscore_name {:?} in this set",
                        c.underscore_name
                    ),
                );
            }
        }
    }
}

/// Names a counter function may not take (the set module's own items and Rust keywords).
const RESERVED: &[&str] = &[
    "max",
    "availability",
    "rt",
    "as",
    "break",
    "const",
    "continue",
    "crate",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "async",
    "await",
    "dyn",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
];

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && s != "_"
        && !RESERVED[3..].contains(&s)
}

/// Address -> HAL expression (Rust source) for every MMIO register (and
/// array element) of `project` described in `ir` (`hal` is the HAL crate's
/// path in the generated code, e.g. `hal`). A `hal` or a project name that
/// is not Rust gives expressions that fail the build with a message.
pub fn hal_addresses(ir: &Ir, project: &str, hal: &str) -> HashMap<u64, String> {
    let mut out = HashMap::new();
    let Some(p) = ir.catalogue.find(project) else {
        return out;
    };
    let prefix = match (syn::parse_str::<syn::Path>(hal), ident(project)) {
        (Ok(h), Ok(m)) => Ok((h, m)),
        (Err(_), _) => Err(format!("`{hal}` is not a Rust path")),
        (_, Err(e)) => Err(e),
    };
    for r in ir.registers.iter().filter(|r| r.space == Space::Mmio) {
        let name = ident(&r.ident());
        for inst in r.instances.iter().filter(|i| i.project == p) {
            let (hal, module, name) = match (&prefix, &name) {
                (Ok((h, m)), Ok(n)) => (h, m, n),
                (Err(e), _) | (_, Err(e)) => {
                    out.insert(inst.address, quote!(compile_error!(#e)).to_string());
                    continue;
                }
            };
            let path = quote!(#hal::#module::#name);
            match r.array {
                None => {
                    let e = quote!(<#path as #hal::Register>::ADDRESS);
                    out.insert(inst.address, e.to_string());
                }
                Some(a) => {
                    for n in 0..inst.count {
                        let k = Literal::u64_unsuffixed(n.into());
                        let e = quote!(elem::<#path, #k>());
                        out.insert(inst.element_address(a.stride, n), e.to_string());
                    }
                }
            }
        }
    }
    out
}

/// `name` as an identifier (keywords and other text refused).
fn ident(name: &str) -> Result<Ident, String> {
    syn::parse_str::<Ident>(name).map_err(|_| format!("`{name}` is not a Rust identifier"))
}

/// Tokens of items as compact Rust source, one item per line
/// ([`lines::layout`](super::lines::layout)). Its recursion follows the
/// nesting of groups, at most [`MAX_HEIGHT`](super::equation::MAX_HEIGHT)
/// calls deep in an equation: a few hundred small frames.
fn layout(tokens: TokenStream) -> String {
    super::lines::layout(tokens)
}

/// The Rust module of one checked file (`pub mod <module> { ... }`; only
/// the files of compiled projects are generated, so it needs no `cfg`). Names that are not Rust identifiers (a
/// file that did not pass [`check_names`]) give a `compile_error!`.
pub fn emit_file(
    module: &str,
    project: &str,
    f: &MetricFile,
    checked: &CheckedFile,
    addresses: &HashMap<u64, String>,
) -> String {
    layout(match file_tokens(module, project, f, checked, addresses) {
        Ok(t) => t,
        Err(e) => {
            let e = format!("{}: {e}", f.file);
            quote!(compile_error!(#e);)
        }
    })
}

fn file_tokens(
    module: &str,
    project: &str,
    f: &MetricFile,
    checked: &CheckedFile,
    addresses: &HashMap<u64, String>,
) -> Result<TokenStream, String> {
    let mut diags = Diagnostics::default();
    check_names(f, &mut diags);
    if let Some(d) = diags.sorted().first() {
        return Err(d.to_string());
    }
    let m = ident(module)?;
    let hal_type = ident(project).map(|_| crate::emit::project_type(project))?;
    let doc = format!(" Metric sets of `{}` ({} sets).", f.file, f.sets.len());
    let mut fns = Dedup::default();
    let sets = f
        .sets
        .iter()
        .zip(&checked.sets)
        .map(|(s, c)| emit_set(&hal_type, s, c, addresses, &mut fns))
        .collect::<Result<Vec<_>, _>>()?;
    let fn_items = fns.items;
    let names = f
        .sets
        .iter()
        .map(|s| ident(&s.underscore_name))
        .collect::<Result<Vec<_>, _>>()?;
    // The HAL addresses the writes use, each once.
    let mut used: Vec<u64> = f
        .sets
        .iter()
        .flat_map(|s| &s.configs)
        .flat_map(|c| &c.writes)
        .map(|w| w.address)
        .filter(|a| addresses.contains_key(a))
        .collect();
    used.sort_unstable();
    used.dedup();
    let consts = used.iter().map(|a| {
        let c = addr_const(*a);
        let e: TokenStream = addresses
            .get(a)
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| {
                let e = format!("address expression of {a:#x} is not Rust");
                quote!(compile_error!(#e))
            });
        quote!(pub const #c: u64 = #e;)
    });
    Ok(quote! {
        #[doc = #doc]
        pub mod #m {
            /// The register addresses the sets write, as HAL items.
            #[allow(unused_imports)]
            mod addr {
                use crate::rt::*;
                #(#consts)*
            }
            /// The file's counter, maximum and availability functions, each
            /// distinct body once (the sets re-export theirs by name).
            #[allow(unused_variables, unused_imports, non_snake_case)]
            mod fns {
                use crate::rt::ops::*;
                use crate::rt::*;
                #(#fn_items)*
            }
            #(#sets)*
            /// Every set of this file, in file order.
            pub const ALL: &[crate::rt::SetInfo] = &[#(#names::SET),*];
            /// Every set of this file, in file order.
            pub fn all() -> &'static [crate::rt::SetInfo] {
                ALL
            }
        }
    })
}

/// The crate-level list of files: `pub const FILES: &[(&str, &str, &[SetInfo])]`
/// from (file, project, module) triples.
pub fn emit_files_table(files: &[(String, String, String)]) -> String {
    let rows = files
        .iter()
        .map(|(file, project, module)| match ident(module) {
            Ok(m) => quote!((#file, #project, #m::ALL),),
            Err(e) => quote!(compile_error!(#e),),
        });
    layout(quote! {
        /// Every shipped file (of the enabled projects): (file name, project, sets).
        pub const FILES: &[(&str, &str, &[crate::rt::SetInfo])] = &[#(#rows)*];
    })
}

/// The distinct functions of a file: one item per distinct signature and
/// body (MTL's 254 sets repeat most counters, maxima and availabilities).
#[derive(Default)]
struct Dedup {
    /// Body text (signature included) -> function name.
    by_body: HashMap<String, Ident>,
    /// The items, in order of first use.
    items: Vec<TokenStream>,
}

impl Dedup {
    /// The name of the function `kind` (`c`: counter, `m`: maximum, `a`:
    /// availability) with parameters and result `sig` and body `body`,
    /// added when new; `doc` documents a new one.
    fn intern(&mut self, kind: char, sig: TokenStream, body: TokenStream, doc: &str) -> Ident {
        let key = format!("{kind} {sig} {body}");
        if let Some(f) = self.by_body.get(&key) {
            return f.clone();
        }
        let f = format_ident!("{}{}", kind, self.items.len());
        let doc = format!(" {doc}");
        self.items
            .push(quote!(#[doc = #doc] pub fn #f #sig { #body }));
        self.by_body.insert(key, f.clone());
        f
    }
}

/// The counters of `c` in an order where each comes after those its
/// equation names (a checked set has no cycle; iterative, so a long chain
/// does not deepen the stack).
fn dependency_order(c: &CheckedSet) -> Vec<usize> {
    let n = c.counters.len();
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        let mut stack = vec![(start, false)];
        while let Some((k, expanded)) = stack.pop() {
            if state.get(k).is_none_or(|s| *s == 2) {
                continue;
            }
            if expanded {
                state[k] = 2;
                order.push(k);
                continue;
            }
            if state[k] == 1 {
                continue;
            }
            state[k] = 1;
            stack.push((k, true));
            c.counters[k].equation.expr.visit(&mut |e| {
                if let ExprKind::Counter(d) = e.kind {
                    if state.get(d) == Some(&0) {
                        stack.push((d, false));
                    }
                }
            });
        }
    }
    order
}

fn emit_set(
    hal_type: &Ident,
    s: &MetricSet,
    c: &CheckedSet,
    addresses: &HashMap<u64, String>,
    fns: &mut Dedup,
) -> Result<TokenStream, String> {
    let doc = format!(" {} (`{}`).", s.name, s.symbol_name);
    let m = ident(&s.underscore_name)?;
    let fnames = s
        .counters
        .iter()
        .map(|mc| ident(&mc.underscore_name))
        .collect::<Result<Vec<_>, _>>()?;
    // Each counter's function in `fns`, dependencies first.
    let mut canon: Vec<Option<Ident>> = vec![None; s.counters.len()];
    for i in dependency_order(c) {
        let (Some(mc), Some(cc)) = (s.counters.get(i), c.counters.get(i)) else {
            continue;
        };
        let known = canon.clone();
        let name = |k: usize| match known.get(k).cloned().flatten() {
            Some(f) => quote!(#f),
            None => quote!(compile_error!("a counter named before it is emitted")),
        };
        let ret = rust_type(cc.ty);
        let body = value(c, &cc.equation.expr, cc.ty, &name).into_option();
        let doc = format!("`{}`", mc.equation.value.trim());
        canon[i] = Some(fns.intern(
            'c',
            quote!((s: &Sample, d: &DeviceInfo) -> Option<#ret>),
            body,
            &doc,
        ));
    }
    let name = |k: usize| match canon.get(k).cloned().flatten() {
        Some(f) => quote!(#f),
        None => quote!(compile_error!("a counter without its function")),
    };
    let mut reexports = Vec::new();
    let mut infos = Vec::new();
    for (i, (mc, cc)) in s.counters.iter().zip(&c.counters).enumerate() {
        let f = &fnames[i];
        let ret = rust_type(cc.ty);
        let cf = name(i);
        let desc = &mc.description;
        let doc = format!(" {desc}");
        reexports.push(quote! {
            #[doc = #doc]
            pub use super::fns::#cf as #f;
        });
        let eval = match cc.ty {
            Type::Float => quote!(Eval::F64),
            _ => quote!(Eval::U64),
        };
        let max = match &cc.max {
            Some(mx) => {
                let body = value(c, &mx.expr, cc.ty, &name).into_option();
                let doc = format!(
                    "Maximum `{}`",
                    mc.max_equation.as_ref().map_or("", |x| x.value.trim())
                );
                let mf = fns.intern(
                    'm',
                    quote!((s: &Sample, d: &DeviceInfo) -> Option<#ret>),
                    body,
                    &doc,
                );
                quote!(Some(#eval(super::fns::#mf)))
            }
            None => quote!(None),
        };
        let avail = match &cc.availability {
            Some(a) => {
                let body = cond(c, &a.expr, &name);
                let doc = format!(
                    "Availability `{}`",
                    mc.availability.as_ref().map_or("", |x| x.value.trim())
                );
                let af = fns.intern('a', quote!((d: &DeviceInfo) -> bool), body, &doc);
                quote!(Some(super::fns::#af))
            }
            None => quote!(None),
        };
        let (name_s, symbol, units) = (&mc.name, &mc.symbol_name, &mc.units);
        let (data_type, semantic_type) = (&mc.data_type, &mc.semantic_type);
        let underscore = &mc.underscore_name;
        infos.push(quote! {
            CounterInfo {
                name: #name_s, symbol: #symbol, underscore: #underscore, units: #units,
                data_type: #data_type, semantic_type: #semantic_type, description: #desc,
                eval: #eval(super::fns::#cf), max: #max, availability: #avail,
            }
        });
    }
    let mut configs = Vec::new();
    for (rc, a) in s.configs.iter().zip(&c.configs) {
        let kind = match rc.kind {
            ConfigKind::Oa => quote!(Oa),
            ConfigKind::Noa => quote!(Noa),
            ConfigKind::Flex => quote!(Flex),
        };
        let avail = match a {
            Some(a) => {
                let body = cond(c, &a.expr, &name);
                let doc = format!(
                    "Availability `{}`",
                    rc.availability.as_ref().map_or("", |x| x.value.trim())
                );
                let af = fns.intern('a', quote!((d: &DeviceInfo) -> bool), body, &doc);
                quote!(Some(super::fns::#af))
            }
            None => quote!(None),
        };
        let writes = rc.writes.iter().map(|w| {
            // A HAL register's address: the file's constant for it (one
            // item per distinct address, not one projection per write).
            let addr = match addresses.get(&w.address) {
                Some(_) => {
                    let c = addr_const(w.address);
                    quote!(super::addr::#c)
                }
                None => crate::emit::hex(w.address),
            };
            let v = crate::emit::hex(w.value);
            quote!((#addr, #v),)
        });
        configs.push(quote! {
            ConfigBlock { kind: ConfigKind::#kind, availability: #avail, writes: &[#(#writes)*] },
        });
    }
    let program_doc = format!(
        " Program the set on a {hal_type} device: every block that applies on `d`, checked first, then written (see [`crate::rt::program`])."
    );
    let (name, symbol, underscore, guid) = (&s.name, &s.symbol_name, &s.underscore_name, &s.guid);
    let format = match &c.format {
        Some(f) => quote!(Some(#f)),
        None => quote!(None),
    };
    Ok(quote! {
        #[doc = #doc]
        #[allow(unused_variables, unused_imports, non_snake_case)]
        pub mod #m {
            use crate::rt::*;
            #(#reexports)*
            #[doc = #program_doc]
            pub fn program<B: hal::Bus<hal::Mmio>, I: hal::Identity>(
                gpu: &hal::Device<hal::#hal_type, B, I>,
                d: &DeviceInfo,
                awake: &[&dyn hal::config::AwakeAny<I>],
            ) -> Result<usize, hal::config::ProgramError> {
                crate::rt::program(gpu, &SET, d, awake)
            }
            /// The set.
            pub const SET: SetInfo = SetInfo {
                name: #name, symbol: #symbol, underscore: #underscore, guid: #guid, format: #format,
                counters: &[#(#infos),*],
                configs: &[#(#configs)*],
            };
        }
    })
}

/// The name of the file-level constant of a register address (`R9888`).
fn addr_const(a: u64) -> Ident {
    format_ident!("R{:X}", a)
}

fn rust_type(t: Type) -> TokenStream {
    match t {
        Type::Float => quote!(f64),
        Type::Int => quote!(u64),
        Type::Bool => quote!(bool),
    }
}

/// Code of an expression: its value (reads and counters unwrapped with `?`)
/// and, for a read or a counter alone, the `Option` itself.
struct Rust {
    value: TokenStream,
    ty: Type,
    option: Option<TokenStream>,
}

impl Rust {
    fn plain(value: TokenStream, ty: Type) -> Self {
        Rust {
            value,
            ty,
            option: None,
        }
    }
    /// The function body: the `Option` of a lone read or counter, else
    /// `Some(value)` (no `Some(x?)`).
    fn into_option(self) -> TokenStream {
        match self.option {
            Some(o) => o,
            None => {
                let v = self.value;
                quote!(Some(#v))
            }
        }
    }
    /// As a float operand (`fl` for an integer).
    fn float(self) -> TokenStream {
        let v = self.value;
        match self.ty {
            Type::Int => quote!(fl(#v)),
            _ => v,
        }
    }
    /// As an integer operand (`tu` for a float).
    fn int(self) -> TokenStream {
        let v = self.value;
        match self.ty {
            Type::Float => quote!(tu(#v)),
            _ => v,
        }
    }
    /// As a condition (`nz` for an integer).
    fn boolean(self) -> TokenStream {
        let v = self.value;
        match self.ty {
            Type::Int => quote!(nz(#v)),
            _ => v,
        }
    }
}

/// An equation converted to the counter's declared type.
fn value(set: &CheckedSet, e: &Expr, declared: Type, fname: &dyn Fn(usize) -> TokenStream) -> Rust {
    let code = expr(set, e, fname);
    match (declared, code.ty) {
        (Type::Float, Type::Int) => Rust::plain(code.float(), Type::Float),
        // Only through an erratum (`errata::Fix::TruncateToUint`): as IGT's C.
        (Type::Int, Type::Float) => {
            let v = code.value;
            Rust::plain(quote!(tu(#v)), Type::Int)
        }
        _ => code,
    }
}

/// A condition (an availability): a boolean, or an integer tested for non-zero.
fn cond(set: &CheckedSet, e: &Expr, fname: &dyn Fn(usize) -> TokenStream) -> TokenStream {
    expr(set, e, fname).boolean()
}

fn expr(set: &CheckedSet, e: &Expr, fname: &dyn Fn(usize) -> TokenStream) -> Rust {
    let ty = type_of(set, e).unwrap_or(Type::Int);
    let lone = |option: TokenStream| Rust {
        value: quote!(#option?),
        ty,
        option: Some(option),
    };
    match &e.kind {
        ExprKind::Int(n) => Rust::plain(
            {
                let n = Literal::u64_suffixed(*n);
                quote!(#n)
            },
            ty,
        ),
        ExprKind::Bool(b) => Rust::plain(quote!(#b), ty),
        ExprKind::Read(src, n) => {
            let n = Literal::u64_unsuffixed(*n);
            lone(match src {
                Source::A => quote!(s.a(#n)),
                Source::B => quote!(s.b(#n)),
                Source::C => quote!(s.c(#n)),
                Source::GpuTime => quote!(s.gpu_time),
                Source::GpuClock => quote!(s.gpu_clock),
                Source::PerfCnt => quote!(s.perfcnt(#n)),
                Source::Pec => quote!(s.pec(#n)),
                Source::Mpec => quote!(s.mpec(#n)),
            })
        }
        ExprKind::Device(v) => {
            let field = format_ident!("{}", v.field());
            Rust::plain(quote!(d.#field), ty)
        }
        ExprKind::Topology(t) => {
            let lit = |n: u32| Literal::u32_unsuffixed(n);
            Rust::plain(
                match *t {
                    TopologyVar::Slice(a) => {
                        let a = lit(a);
                        quote!(d.gt_slice(#a))
                    }
                    TopologyVar::SliceXeCore(a, b) => {
                        let (a, b) = (lit(a), lit(b));
                        quote!(d.gt_slice_xe_core(#a, #b))
                    }
                    TopologyVar::XeCore(a) => {
                        let a = lit(a);
                        quote!(d.gt_xe_core(#a))
                    }
                },
                ty,
            )
        }
        ExprKind::Counter(i) => {
            let f = fname(*i);
            lone(quote!(#f(s, d)))
        }
        // Unresolved names do not survive checking; keep the build failing loudly.
        ExprKind::Var(n) => {
            let msg = format!("unresolved ${n}");
            Rust::plain(quote!(compile_error!(#msg)), ty)
        }
        ExprKind::Op(op, a, b) => {
            let (a, b) = (expr(set, a, fname), expr(set, b, fname));
            let f = format_ident!("{}", op_fn(*op));
            let value = match op.class() {
                OpClass::Int if *op == Op::UDiv => {
                    let (a, b) = (a.int(), b.int());
                    quote!(#f(#a, #b))
                }
                OpClass::Int if a.ty == Type::Float || b.ty == Type::Float => {
                    let f = format_ident!("{}_f", op_fn(*op));
                    let (a, b) = (a.float(), b.float());
                    quote!(#f(#a, #b))
                }
                // FADD FSUB FMUL of two integers: C's `uint64_t` arithmetic,
                // then `double`.
                OpClass::Float if a.ty == Type::Int && b.ty == Type::Int => match wrapping(*op) {
                    Some(w) => {
                        let w = format_ident!("{}", w);
                        let (a, b) = (a.value, b.value);
                        quote!(fl(#w(#a, #b)))
                    }
                    None => {
                        let (a, b) = (a.float(), b.float());
                        quote!(#f(#a, #b))
                    }
                },
                OpClass::Float => {
                    let (a, b) = (a.float(), b.float());
                    quote!(#f(#a, #b))
                }
                OpClass::Logic => {
                    let (a, b) = (a.boolean(), b.boolean());
                    quote!(#f(#a, #b))
                }
                _ => {
                    let (a, b) = (a.value, b.value);
                    quote!(#f(#a, #b))
                }
            };
            Rust::plain(value, ty)
        }
    }
}

/// The integer helper `FADD`, `FSUB` and `FMUL` use on two integers (IGT's C
/// computes them in `uint64_t` and converts the result).
fn wrapping(op: Op) -> Option<&'static str> {
    match op {
        Op::FAdd => Some("uadd"),
        Op::FSub => Some("usub"),
        Op::FMul => Some("umul"),
        _ => None,
    }
}

fn op_fn(op: Op) -> &'static str {
    match op {
        Op::UAdd => "uadd",
        Op::USub => "usub",
        Op::UMul => "umul",
        Op::UDiv => "udiv",
        Op::UMin => "umin",
        Op::And => "band",
        Op::Or => "bor",
        Op::Shl => "shl",
        Op::Shr => "shr",
        Op::ULt => "ult",
        Op::ULte => "ulte",
        Op::UGt => "ugt",
        Op::UGte => "ugte",
        Op::Eq => "ueq",
        Op::FAdd => "fadd",
        Op::FSub => "fsub",
        Op::FMul => "fmul",
        Op::FDiv => "fdiv",
        Op::FMax => "fmax",
        Op::LAnd => "land",
    }
}
