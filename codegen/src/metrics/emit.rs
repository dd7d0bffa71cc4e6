//! Checked metric sets -> Rust source for the `perfregs-metrics` crate.
//!
//! One module per file, one module per set inside it: a `pub fn` per counter
//! over `(&Sample, &DeviceInfo)` returning `Option<u64>` or `Option<f64>`,
//! private `max` and `availability` functions, and `pub const SET: SetInfo`.
//! Register addresses that are registers of the HAL are written as the HAL
//! item (`<hal::bdw::OACONTROL as hal::Register>::ADDRESS`), so a renamed or
//! moved register fails the build; the rest are literals. The text is laid
//! out one item per line, deterministically, with no paths of the machine.
//!
//! The generated code uses the runtime of `perfregs-metrics` (`crate::rt`):
//! `Sample`, `DeviceInfo`, `SetInfo`, ... and the operator helpers of
//! `crate::rt::ops`, which implement the semantics of
//! [`equation`](super::equation) exactly as [`interp`](super::interp) does.

use super::equation::{
    type_of, CheckedFile, CheckedSet, Expr, ExprKind, Op, OpClass, Source, Type,
};
use super::model::{MetricFile, MetricSet};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir::{ConfigKind, Ir};
use crate::model::Space;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

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

/// Address -> HAL expression for every MMIO register (and array element) of
/// `project` described in `ir` (`hal` is the HAL crate's path in the
/// generated code, e.g. `hal`).
pub fn hal_addresses(ir: &Ir, project: &str, hal: &str) -> HashMap<u64, String> {
    let mut out = HashMap::new();
    let Some(p) = ir.catalogue.find(project) else {
        return out;
    };
    for r in ir.registers.iter().filter(|r| r.space == Space::Mmio) {
        for inst in r.instances.iter().filter(|i| i.project == p) {
            let path = format!("{hal}::{project}::{}", r.ident());
            match r.array {
                None => {
                    out.insert(
                        inst.address,
                        format!("<{path} as {hal}::Register>::ADDRESS"),
                    );
                }
                Some(a) => {
                    for n in 0..inst.count {
                        out.insert(
                            inst.element_address(a.stride, n),
                            format!("elem::<{path}, {n}>()"),
                        );
                    }
                }
            }
        }
    }
    out
}

/// The Rust module of one checked file (`pub mod <module> { ... }`), behind
/// `#[cfg(feature = "<project>")]`.
pub fn emit_file(
    module: &str,
    project: &str,
    f: &MetricFile,
    checked: &CheckedFile,
    addresses: &HashMap<u64, String>,
) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "/// Metric sets of `{}` ({} sets).",
        f.file,
        f.sets.len()
    );
    let _ = writeln!(o, "#[cfg(feature = {project:?})]");
    let _ = writeln!(o, "pub mod {module} {{");
    for (s, c) in f.sets.iter().zip(&checked.sets) {
        emit_set(&mut o, project, s, c, addresses);
    }
    let sets: Vec<String> = f
        .sets
        .iter()
        .map(|s| format!("{}::SET", s.underscore_name))
        .collect();
    let _ = writeln!(o, "/// Every set of this file, in file order.");
    let _ = writeln!(
        o,
        "pub const ALL: &[crate::rt::SetInfo] = &[{}];",
        sets.join(", ")
    );
    let _ = writeln!(o, "/// Every set of this file, in file order.");
    let _ = writeln!(o, "pub fn all() -> &'static [crate::rt::SetInfo] {{ ALL }}");
    let _ = writeln!(o, "}}");
    o
}

/// The crate-level list of files: `pub const FILES: &[(&str, &[SetInfo])]`.
pub fn emit_files_table(files: &[(String, String, String)]) -> String {
    let mut o = String::from("/// Every shipped file (of the enabled projects): (file name, project, sets).\npub const FILES: &[(&str, &str, &[crate::rt::SetInfo])] = &[\n");
    for (file, project, module) in files {
        let _ = writeln!(
            o,
            "#[cfg(feature = {project:?})] ({file:?}, {project:?}, {module}::ALL),"
        );
    }
    o.push_str("];\n");
    o
}

fn emit_set(
    o: &mut String,
    project: &str,
    s: &MetricSet,
    c: &CheckedSet,
    addresses: &HashMap<u64, String>,
) {
    let _ = writeln!(
        o,
        "#[doc = {:?}]",
        format!("{} (`{}`).", s.name, s.symbol_name)
    );
    let _ = writeln!(
        o,
        "#[allow(unused_variables, unused_imports, non_snake_case)]"
    );
    let _ = writeln!(o, "pub mod {} {{", s.underscore_name);
    let _ = writeln!(o, "use crate::rt::ops::*;");
    let _ = writeln!(o, "use crate::rt::*;");
    let fname = |i: usize| s.counters[i].underscore_name.clone();
    for (i, (mc, cc)) in s.counters.iter().zip(&c.counters).enumerate() {
        let ret = rust_type(cc.ty);
        let body = value(c, &cc.equation.expr, cc.ty, &fname);
        let _ = writeln!(o, "#[doc = {:?}]", mc.description);
        let _ = writeln!(
            o,
            "pub fn {}(s: &Sample, d: &DeviceInfo) -> Option<{ret}> {{ {} }}",
            fname(i),
            some(&body)
        );
    }
    let _ = writeln!(o, "mod max {{");
    let _ = writeln!(o, "use super::*;");
    for (i, cc) in c.counters.iter().enumerate() {
        if let Some(m) = &cc.max {
            let body = value(c, &m.expr, cc.ty, &|k| format!("super::{}", fname(k)));
            let _ = writeln!(
                o,
                "pub fn {}(s: &Sample, d: &DeviceInfo) -> Option<{}> {{ {} }}",
                fname(i),
                rust_type(cc.ty),
                some(&body)
            );
        }
    }
    let _ = writeln!(o, "}}");
    let _ = writeln!(o, "mod availability {{");
    let _ = writeln!(o, "use super::*;");
    for (i, cc) in c.counters.iter().enumerate() {
        if let Some(a) = &cc.availability {
            let _ = writeln!(
                o,
                "pub fn {}(d: &DeviceInfo) -> bool {{ {} }}",
                fname(i),
                cond(c, &a.expr, &fname)
            );
        }
    }
    for (k, a) in c.configs.iter().enumerate() {
        if let Some(a) = a {
            let _ = writeln!(
                o,
                "pub fn config_{k}(d: &DeviceInfo) -> bool {{ {} }}",
                cond(c, &a.expr, &fname)
            );
        }
    }
    let _ = writeln!(o, "}}");
    let ty = {
        let mut c = project.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    let _ = writeln!(
        o,
        "/// Program the set on a {ty} device: every block that applies on `d`, checked first, then written (see [`crate::rt::program`])."
    );
    let _ = writeln!(
        o,
        "pub fn program<B: hal::Bus<hal::Mmio>, I: hal::Identity>(gpu: &hal::Device<hal::{ty}, B, I>, d: &DeviceInfo, awake: &[&dyn hal::config::AwakeAny<I>]) -> Result<usize, hal::config::ProgramError> {{ crate::rt::program(gpu, &SET, d, awake) }}"
    );
    let _ = writeln!(o, "/// The set.");
    let _ = writeln!(
        o,
        "pub const SET: SetInfo = SetInfo {{ name: {:?}, symbol: {:?}, underscore: {:?}, guid: {:?}, counters: &[",
        s.name, s.symbol_name, s.underscore_name, s.guid
    );
    for (i, (mc, cc)) in s.counters.iter().zip(&c.counters).enumerate() {
        let n = fname(i);
        let eval = match cc.ty {
            Type::Float => "Eval::F64",
            _ => "Eval::U64",
        };
        let max = match &cc.max {
            Some(_) => format!("Some({eval}(max::{n}))"),
            None => "None".into(),
        };
        let avail = match &cc.availability {
            Some(_) => format!("Some(availability::{n})"),
            None => "None".into(),
        };
        let _ = writeln!(
            o,
            "CounterInfo {{ name: {:?}, symbol: {:?}, underscore: {n:?}, units: {:?}, data_type: {:?}, semantic_type: {:?}, description: {:?}, eval: {eval}({n}), max: {max}, availability: {avail} }},",
            mc.name, mc.symbol_name, mc.units, mc.data_type, mc.semantic_type, mc.description
        );
    }
    let _ = writeln!(o, "], configs: &[");
    for (k, (rc, a)) in s.configs.iter().zip(&c.configs).enumerate() {
        let kind = match rc.kind {
            ConfigKind::Oa => "Oa",
            ConfigKind::Noa => "Noa",
            ConfigKind::Flex => "Flex",
        };
        let avail = match a {
            Some(_) => format!("Some(availability::config_{k})"),
            None => "None".into(),
        };
        let _ = writeln!(
            o,
            "ConfigBlock {{ kind: ConfigKind::{kind}, availability: {avail}, writes: &["
        );
        for w in &rc.writes {
            let addr = addresses
                .get(&w.address)
                .cloned()
                .unwrap_or_else(|| format!("{:#x}", w.address));
            let _ = writeln!(o, "({addr}, {:#010x}),", w.value);
        }
        let _ = writeln!(o, "] }},");
    }
    let _ = writeln!(o, "] }};");
    let _ = writeln!(o, "}}");
}

/// `Some(body)`, or the bare `Option` when the whole body is one read or
/// counter call (`s.a(1)?`): no `Some(x?)`.
fn some(body: &str) -> String {
    match body.strip_suffix('?') {
        Some(b) => b.to_string(),
        None => format!("Some({body})"),
    }
}

fn rust_type(t: Type) -> &'static str {
    match t {
        Type::Float => "f64",
        Type::Int => "u64",
        Type::Bool => "bool",
    }
}

/// An equation converted to the counter's declared type.
fn value(set: &CheckedSet, e: &Expr, declared: Type, fname: &dyn Fn(usize) -> String) -> String {
    let (code, ty) = expr(set, e, fname);
    if declared == Type::Float && ty == Type::Int {
        format!("fl({code})")
    } else {
        code
    }
}

/// A condition (an availability): a boolean, or an integer tested for non-zero.
fn cond(set: &CheckedSet, e: &Expr, fname: &dyn Fn(usize) -> String) -> String {
    let (code, ty) = expr(set, e, fname);
    if ty == Type::Int {
        format!("nz({code})")
    } else {
        code
    }
}

fn expr(set: &CheckedSet, e: &Expr, fname: &dyn Fn(usize) -> String) -> (String, Type) {
    let ty = type_of(set, e).unwrap_or(Type::Int);
    let code = match &e.kind {
        ExprKind::Int(n) => format!("{n}u64"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Read(src, n) => match src {
            Source::A => format!("s.a({n})?"),
            Source::B => format!("s.b({n})?"),
            Source::C => format!("s.c({n})?"),
            Source::GpuTime => "s.gpu_time?".into(),
            Source::GpuClock => "s.gpu_clock?".into(),
            Source::PerfCnt => format!("s.perfcnt({n})?"),
        },
        ExprKind::Device(v) => format!("d.{}", v.field()),
        ExprKind::Counter(i) => format!("{}(s, d)?", fname(*i)),
        // Unresolved names do not survive checking; keep the build failing loudly.
        ExprKind::Var(n) => format!("compile_error!({:?})", format!("unresolved ${n}")),
        ExprKind::Op(op, a, b) => {
            let (ca, ta) = expr(set, a, fname);
            let (cb, tb) = expr(set, b, fname);
            let f = |c: String, t: Type| {
                if t == Type::Int {
                    format!("fl({c})")
                } else {
                    c
                }
            };
            let u = |c: String, t: Type| {
                if t == Type::Float {
                    format!("tu({c})")
                } else {
                    c
                }
            };
            let name = op_fn(*op);
            match op.class() {
                OpClass::Int if *op == Op::UDiv => format!("{name}({}, {})", u(ca, ta), u(cb, tb)),
                OpClass::Int if ta == Type::Float || tb == Type::Float => {
                    format!("{name}_f({}, {})", f(ca, ta), f(cb, tb))
                }
                // Two integers: C's `uint64_t` arithmetic, then `double`.
                OpClass::Float if ta == Type::Int && tb == Type::Int && wrapping(*op).is_some() => {
                    format!("fl({}({ca}, {cb}))", wrapping(*op).unwrap_or(name))
                }
                OpClass::Float => format!("{name}({}, {})", f(ca, ta), f(cb, tb)),
                OpClass::Logic => {
                    let b = |c: String, t: Type| {
                        if t == Type::Int {
                            format!("nz({c})")
                        } else {
                            c
                        }
                    };
                    format!("{name}({}, {})", b(ca, ta), b(cb, tb))
                }
                _ => format!("{name}({ca}, {cb})"),
            }
        }
    };
    (code, ty)
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
