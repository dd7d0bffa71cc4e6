//! Mutation testing of the metric-set front end: the shipped IGT XML files
//! (and single sets cut out of them, which load fast) damaged in many ways
//! and run through `metrics::load`; a file that still loads clean is then
//! evaluated (`interp`, every counter, on many samples and devices) and
//! emitted (`emit::emit_file`, whose output must parse as Rust).
//!
//! Checks per input: no panic (each input runs under `catch_unwind`; the
//! panic's location and the input are reported), every rejected input has
//! a diagnostic, every diagnostic names the file and lies inside its text
//! (line in `1..=lines`, where a text ending in `\n` has an empty last line;
//! column in `1..=chars + 1` of that line; lines end at `\n`, as the XML
//! reader counts them).
//!
//! A short run (`short_run`) is part of `cargo test`; the long run is ignored:
//!
//! ```text
//! CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
//!     cargo test -p perfregs-codegen --release --test all metrics_mutation:: -- --ignored --nocapture
//! ```
//!
//! Environment: `PERFREGS_XML_MUTATIONS` (inputs, default 200,000),
//! `PERFREGS_XML_MUTATION_SEED` (decimal or `0x` hex, default [`SEED`]),
//! `PERFREGS_XML_MUTATION_START` (first input index, default 0),
//! `PERFREGS_XML_MUTATION_THREADS` (default 1), `PERFREGS_XML_MUTATION_TRACE`
//! (set: name each input before it runs, to find the input of an abort such
//! as a stack overflow, which no panic hook sees). Input `i` of a seed is a
//! function of the two alone.

use crate::support::harness;

use harness::{
    any_pos, catch, floor_boundary, insert_any, line_spans, Done, Failure, Outcome, Report, Rng,
    WIDE_INTEGERS,
};
use perfregs_codegen::diag::Diagnostic;
use perfregs_codegen::metrics::{self, emit, interp, Loaded};
use perfregs_codegen::Ir;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// Default seed.
const SEED: u64 = 0x0A11_5E75_F022_0001;

/// An input slower than this is a failure (exponential evaluation, ...). The
/// slowest of a 300,000-input run (5.3 MB: 51 sets whose counters each name
/// up to 75 others) took 5.2 s, load, evaluation and emission together.
const SLOW: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------- corpus

/// One undamaged input: a shipped file, or one set of it.
struct Base {
    /// File name given to `load` (`metricsets/oa-bdw.xml`).
    file: &'static str,
    project: &'static str,
    /// `oa-bdw.xml` or `oa-bdw.xml#RenderBasic`.
    label: String,
    text: String,
}

struct Corpus {
    bases: Vec<Base>,
    /// Index of the first single-set base (before it: whole files).
    first_slice: usize,
}

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        let mut bases = Vec::new();
        for (file, project, text) in perfregs_regdefs::METRIC_SETS {
            bases.push(Base {
                file,
                project,
                label: file.rsplit('/').next().unwrap_or(file).to_string(),
                text: text.to_string(),
            });
        }
        let first_slice = bases.len();
        for (file, project, text) in perfregs_regdefs::METRIC_SETS {
            let starts: Vec<usize> = text.match_indices("  <set ").map(|(i, _)| i).collect();
            let Some(&first) = starts.first() else {
                continue;
            };
            let prologue = &text[..first];
            for &s in &starts {
                let end = s + text[s..].find("</set>").expect("</set>") + "</set>".len();
                let set = &text[s..end];
                let sym = set
                    .split("symbol_name=\"")
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .unwrap_or("?");
                bases.push(Base {
                    file,
                    project,
                    label: format!("{}#{sym}", file.rsplit('/').next().unwrap_or(file)),
                    text: format!("{prologue}{set}\n</metrics>\n"),
                });
            }
        }
        Corpus { bases, first_slice }
    })
}

/// The shipped errata (`regdefs/metricsets/errata.yaml`), parsed once.
fn errata() -> &'static [metrics::errata::Erratum] {
    static E: OnceLock<Vec<metrics::errata::Erratum>> = OnceLock::new();
    E.get_or_init(|| {
        metrics::errata::parse(metrics::errata::FILE, perfregs_regdefs::METRIC_ERRATA)
            .expect("errata.yaml")
    })
}

fn ir() -> &'static Ir {
    static IR: OnceLock<Ir> = OnceLock::new();
    IR.get_or_init(|| {
        perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir()))
            .expect("shipped descriptions")
    })
}

/// HAL address expressions per project (as `metrics/build.rs` makes them).
/// The catalogue's BDW GT2 device values.
fn bdw_gt2() -> interp::DeviceInfo {
    let bdw = ir().catalogue.find("bdw").expect("bdw");
    ir().gpus
        .iter()
        .filter(|g| g.project == bdw)
        .flat_map(|g| &g.parts)
        .find(|p| p.gt == 2)
        .expect("BDW GT2")
        .device
}

fn addresses(project: &str) -> &'static HashMap<u64, String> {
    static A: OnceLock<BTreeMap<String, HashMap<u64, String>>> = OnceLock::new();
    let all = A.get_or_init(|| {
        perfregs_regdefs::METRIC_SETS
            .iter()
            .map(|(_, p, _)| (p.to_string(), emit::hal_addresses(ir(), p, "hal")))
            .collect()
    });
    &all[project]
}

// ---------------------------------------------------------------- mutations

/// Things that mean something to XML, or to the RPN, or to a lexer.
const INSERTS: &[&str] = &[
    "<",
    ">",
    "/>",
    "</",
    "\"",
    "'",
    "=",
    "&",
    "&amp;",
    "&amp",
    "&lt;",
    "&gt;",
    "&quot;",
    "&#10;",
    "&#13;",
    "&#9;",
    "&#x26;",
    "&#38;",
    "&#0;",
    "&#x0;",
    "&#xFFFFFFFF;",
    "&#1114112;",
    "&#xD800;",
    "&bogus;",
    "&;",
    "&#;",
    "&#x;",
    "<!--",
    "-->",
    "<!-- c -->",
    "<![CDATA[",
    "]]>",
    "<![CDATA[x]]>",
    "<?",
    "?>",
    "<?pi x?>",
    "<!DOCTYPE metrics>",
    "<!DOCTYPE m [<!ENTITY e \"&e;\">]>",
    "<!ENTITY",
    "\n",
    "\r",
    "\r\n",
    "\t",
    " ",
    "  ",
    "\u{FEFF}",
    "\0",
    "\u{1}",
    "\u{7F}",
    "\u{85}",
    "\u{A0}",
    "\u{2028}",
    "\u{3000}",
    "é",
    "\u{1F600}",
    "\u{FFFD}",
    "\u{FFFF}",
    "\u{10FFFF}",
    "\u{301}",
    "$",
    "$$",
    "$_",
    "READ",
    "UADD",
    "FDIV",
    "&&",
    "<<",
    ">>",
    "==",
    "0x",
    "-",
    "xmlns=\"x\"",
    "xmlns:a=\"b\"",
    "a:b",
    "<counter/>",
    "<set/>",
    "<register/>",
    "<register_config/>",
    "<x>",
    "</x>",
];

/// READ indices and shift counts at the edges of the A counter banks (36 A
/// counters on BDW, 45 on HSW) and of 64 bits: numbers and equation tokens.
const EDGE_INDICES: &[&str] = &["7", "8", "35", "36", "44", "45", "63", "64"];

/// Replacements for a number (addresses, values, READ indices, literals).
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "65",
    "255",
    "256",
    "0x0",
    "0x1",
    "0x3",
    "0x4",
    "0x2710",
    "0x9888",
    "99999999999999999999999999999",
    "-1",
    "-0x1",
    "-9223372036854775808",
    "+1",
    "1e3",
    "1.0",
    ".5",
    "1.5",
    "NaN",
    "inf",
    "0b11",
    "0o17",
    "0x",
    "0X",
    "0xG",
    "0x-1",
    "00",
    "1_0",
    "0x_1",
    " 1",
    "1 ",
    "１",
    "٣",
    "0x\u{FF10}",
    "",
];

/// Replacement attribute values (names, types, units...).
const VALUES: &[&str] = &[
    "",
    " ",
    "x",
    "X",
    "_",
    "__",
    "1",
    "a b",
    "uint64",
    "uint32",
    "float",
    "double",
    "bool",
    "UINT64",
    "OA",
    "NOA",
    "FLEX",
    "oa",
    "MUX",
    "max",
    "availability",
    "rt",
    "self",
    "super",
    "fn",
    "r#fn",
    "crate",
    "type",
    "match",
    "test_oa",
    "render_basic",
    "gpu_time",
    "GpuTime",
    "RenderBasic",
    "Bad Name",
    "é",
    "\u{1F600}",
    "&amp;",
    "&lt;&gt;",
    "&quot;",
    "{",
    "}",
    "\\",
    "\\\"",
    "\\u{0}",
    "&#10;",
    "&#0;",
    "'",
    "\"\"",
    "%s",
    "{0}",
    "*/",
    "/*",
    "//",
    "#",
    "]]>",
    "\u{202E}",
    "\u{FEFF}",
];

/// Tokens an equation may hold (and some it may not), besides those of
/// [`TOKEN_POOL`]'s other parts.
const TOKENS: &[&str] = &[
    "A",
    "B",
    "C",
    "GPU_TIME",
    "GPU_CLOCK",
    "PERFCNT",
    "READ",
    "0",
    "1",
    "2",
    "0x0",
    "0xFFFFFFFFFFFFFFFF",
    "18446744073709551615",
    "18446744073709551616",
    "true",
    "false",
    "<<",
    ">>",
    "&&",
    "$GpuTime",
    "$GpuCoreClocks",
    "$EuCoresTotalCount",
    "$EuSlicesTotalCount",
    "$EuSubslicesTotalCount",
    "$EuThreadsCount",
    "$SliceMask",
    "$SubsliceMask",
    "$DualSubsliceMask",
    "$GpuMaxFrequency",
    "$GpuMinFrequency",
    "$GpuTimestampFrequency",
    "$QueryMode",
    "$",
    "$1",
    "$Nope",
    "$$GpuTime",
    "$é",
    "READ READ",
    "uadd",
    "UADDX",
    "1.5",
    "-1",
    "\u{1F600}",
    "&#10;",
    "&#9;",
    "&#x20;",
    "\t",
    "\u{A0}",
    "\u{2028}",
];

/// Operators for generated equations.
const OPS: &[&str] = &[
    "UADD",
    "USUB",
    "UMUL",
    "UDIV",
    "UMIN",
    "AND",
    "OR",
    "&lt;&lt;",
    "&gt;&gt;",
    "ULT",
    "ULTE",
    "UGT",
    "UGTE",
    "==",
    "FADD",
    "FSUB",
    "FMUL",
    "FDIV",
    "FMAX",
    "&amp;&amp;",
];

/// Every replacement for a number.
const NUMBER_POOL: &[&[&str]] = &[NUMBERS, EDGE_INDICES, WIDE_INTEGERS];

/// Every token an equation mutation inserts.
const TOKEN_POOL: &[&[&str]] = &[TOKENS, EDGE_INDICES, OPS];

/// Operands for generated equations.
const OPERANDS: &[&str] = &[
    "0",
    "1",
    "64",
    "0xFFFFFFFFFFFFFFFF",
    "A 0 READ",
    "A 7 READ",
    "B 3 READ",
    "C 2 READ",
    "GPU_TIME 0 READ",
    "PERFCNT 1 READ",
    "$EuCoresTotalCount",
    "$GpuTimestampFrequency",
    "$SliceMask",
    "$QueryMode",
    "true",
];

/// Names of the operators (the statistics count each one drawn).
const OP_NAMES: &[&str] = &[
    "flip",
    "delete",
    "insert",
    "dup-span",
    "dup-element",
    "delete-line",
    "swap-lines",
    "truncate",
    "number",
    "value",
    "token",
    "quote",
    "entity",
    "nest",
    "deep-rpn",
    "refs",
    "dag",
    "self-ref",
    "read",
    "div-chain",
    "whole",
];

/// Value spans (inside the quotes) of every attribute named `names`.
fn attr_spans(s: &str, names: &[&str]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for n in names {
        let pat = format!(" {n}=\"");
        for (i, _) in s.match_indices(&pat) {
            let a = i + pat.len();
            if let Some(e) = s[a..].find('"') {
                out.push((a, a + e));
            }
        }
    }
    out.sort();
    out
}

/// Every attribute value span.
fn any_attr_spans(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 1;
    while i < b.len() {
        if b[i] == b'"' && b[i - 1] == b'=' {
            if let Some(e) = s[i + 1..].find('"') {
                out.push((i + 1, i + 1 + e));
                i += e + 2;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Spans of whole elements starting with `<tag` and ending at `/>` or `</tag>`.
fn element_spans(s: &str, tag: &str) -> Vec<(usize, usize)> {
    let open = format!("<{tag} ");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    for (i, _) in s.match_indices(&open) {
        let rest = &s[i..];
        let e = match (rest.find("/>"), rest.find(&close), rest.find('>')) {
            (Some(a), _, Some(g)) if a + 1 == g => a + 2,
            (_, Some(c), _) => c + close.len(),
            _ => continue,
        };
        out.push((i, i + e));
    }
    out
}

/// The attributes that hold an equation.
const EQUATION_ATTRS: &[&str] = &["equation", "max_equation", "availability"];

/// The value span of a random equation attribute (`None`: there is none).
fn pick_equation(rng: &mut Rng, text: &str) -> Option<(usize, usize)> {
    let spans = attr_spans(text, EQUATION_ATTRS);
    (!spans.is_empty()).then(|| spans[rng.below(spans.len())])
}

/// The counters of a random set and the index of a random one of them
/// (`None`: that set has no counter).
fn pick_counter(rng: &mut Rng, text: &str) -> Option<(Vec<Counter>, usize)> {
    let sets = counters_by_set(text);
    let cs = sets.get(rng.below(sets.len())).filter(|c| !c.is_empty())?;
    let k = rng.below(cs.len());
    Some((cs.clone(), k))
}

/// A counter: its `symbol_name` and the span of its equation's value.
type Counter = (String, (usize, usize));

/// Counters per set, in file order.
fn counters_by_set(s: &str) -> Vec<Vec<Counter>> {
    let sets: Vec<usize> = s.match_indices("<set ").map(|(i, _)| i).collect();
    let mut out: Vec<Vec<Counter>> = vec![Vec::new(); sets.len().max(1)];
    for (a, e) in element_spans(s, "counter") {
        let el = &s[a..e];
        let sym = el
            .split(" symbol_name=\"")
            .nth(1)
            .and_then(|r| r.split('"').next());
        let eq = attr_spans(el, &["equation"]);
        if let (Some(sym), Some(&(x, y))) = (sym, eq.first()) {
            let k = sets.partition_point(|&p| p <= a).saturating_sub(1);
            out[k].push((sym.to_string(), (a + x, a + y)));
        }
    }
    out
}

/// A generated RPN `depth` operators deep.
fn deep_rpn(rng: &mut Rng, depth: usize) -> String {
    let shape = rng.below(5);
    let op = rng.pick(OPS);
    let v = rng.pick(OPERANDS);
    match shape {
        // Left-deep: `v v OP v OP ...`.
        0 => {
            let mut s = String::from(v);
            for _ in 0..depth {
                s.push(' ');
                s.push_str(v);
                s.push(' ');
                s.push_str(op);
            }
            s
        }
        // Right-deep: `v v v ... OP OP OP`.
        1 => {
            let mut s = format!("{v} ").repeat(depth + 1);
            s.push_str(&format!("{op} ").repeat(depth));
            s
        }
        // Mixed operators and operands, left-deep.
        2 => {
            let mut s = rng.pick(OPERANDS).to_string();
            for _ in 0..depth {
                s.push(' ');
                s.push_str(rng.pick(OPERANDS));
                s.push(' ');
                s.push_str(rng.pick(OPS));
            }
            s
        }
        // Values left over.
        3 => format!("{v} ").repeat(depth),
        // Operators without operands.
        _ => format!("{op} ").repeat(depth),
    }
}

/// Apply one mutation; returns `operator: what was done`.
fn mutate_once(rng: &mut Rng, text: &mut String) -> String {
    let op = {
        // Weights: the structural ones more often.
        let w: &[(usize, &str)] = &[
            (8, "flip"),
            (6, "delete"),
            (8, "insert"),
            (3, "dup-span"),
            (4, "dup-element"),
            (4, "delete-line"),
            (3, "swap-lines"),
            (2, "truncate"),
            (8, "number"),
            (6, "value"),
            (10, "token"),
            (3, "quote"),
            (3, "entity"),
            (2, "nest"),
            (3, "deep-rpn"),
            (2, "refs"),
            (2, "dag"),
            (2, "self-ref"),
            (3, "read"),
            (2, "div-chain"),
            (3, "whole"),
        ];
        let total: usize = w.iter().map(|x| x.0).sum();
        let mut r = rng.below(total);
        let mut chosen = "flip";
        for &(n, name) in w {
            if r < n {
                chosen = name;
                break;
            }
            r -= n;
        }
        chosen
    };
    let what = mutate_with(rng, text, op);
    format!("{op}: {what}")
}

fn mutate_with(rng: &mut Rng, text: &mut String, op: &str) -> String {
    match op {
        "flip" => {
            let at = any_pos(rng, text);
            // One character.
            let end = text[at..]
                .char_indices()
                .nth(1)
                .map_or(text.len(), |(i, _)| at + i);
            let with = rng.pick(INSERTS);
            text.replace_range(at..end, with);
            format!("flip byte {at} to {with:?}")
        }
        "delete" => {
            let a = any_pos(rng, text);
            let len = rng.pick(&[1usize, 1, 2, 5, 20, 200]);
            let e = floor_boundary(text, a + len);
            text.replace_range(a..e, "");
            format!("delete bytes {a}..{e}")
        }
        "insert" => insert_any(rng, text, INSERTS),
        "dup-span" => {
            let a = any_pos(rng, text);
            let e = floor_boundary(text, a + rng.below(400));
            let at = any_pos(rng, text);
            let s = text[a..e].to_string();
            text.insert_str(at, &s);
            format!("duplicate bytes {a}..{e} at byte {at}")
        }
        "dup-element" => {
            let tag = rng.pick(&["counter", "register", "register_config", "set"]);
            let spans = element_spans(text, tag);
            if spans.is_empty() {
                return format!("dup-element <{tag}>: none (no-op)");
            }
            let (a, e) = spans[rng.below(spans.len())];
            let s = text[a..e].to_string();
            let times = rng.pick(&[1usize, 1, 2, 50]);
            let at = if rng.one_in(2) { e } else { a };
            text.insert_str(at, &format!("\n{s}").repeat(times));
            format!("duplicate <{tag}> at {a}..{e} x{times}")
        }
        "delete-line" => {
            let l = line_spans(text);
            if l.is_empty() {
                return "delete-line: empty (no-op)".into();
            }
            let k = rng.below(l.len());
            let n = rng.pick(&[1usize, 1, 3, 20]);
            let (a, _) = l[k];
            let e = l[(k + n - 1).min(l.len() - 1)].1;
            text.replace_range(a..e, "");
            format!("delete lines {}..{}", k + 1, k + n)
        }
        "swap-lines" => {
            let l = line_spans(text);
            if l.len() < 2 {
                return "swap-lines: too short (no-op)".into();
            }
            let (mut i, mut j) = (rng.below(l.len()), rng.below(l.len()));
            if i > j {
                std::mem::swap(&mut i, &mut j);
            }
            if i == j {
                return "swap-lines: same line (no-op)".into();
            }
            let (a, b) = (
                text[l[i].0..l[i].1].to_string(),
                text[l[j].0..l[j].1].to_string(),
            );
            text.replace_range(l[j].0..l[j].1, &a);
            text.replace_range(l[i].0..l[i].1, &b);
            format!("swap lines {} and {}", i + 1, j + 1)
        }
        "truncate" => {
            let at = any_pos(rng, text);
            text.truncate(at);
            format!("truncate at byte {at}")
        }
        "number" => {
            // A number anywhere (attribute values, addresses, READ indices).
            let b = text.as_bytes();
            let from = rng.below(b.len() + 1);
            let found = (from..b.len())
                .chain(0..from)
                .find(|&i| b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()));
            let Some(a) = found else {
                return "number: none (no-op)".into();
            };
            let mut e = a + 1;
            if b[a] == b'0' && b.get(e).is_some_and(|c| *c == b'x' || *c == b'X') {
                e += 1;
            }
            while e < b.len() && b[e].is_ascii_hexdigit() {
                e += 1;
            }
            let with = rng.pick_in(NUMBER_POOL);
            text.replace_range(a..e, with);
            format!("number at byte {a} -> {with:?}")
        }
        "value" => {
            let spans = any_attr_spans(text);
            if spans.is_empty() {
                return "value: no attribute (no-op)".into();
            }
            let (a, e) = spans[rng.below(spans.len())];
            let with = if rng.one_in(8) {
                // A very long value.
                "x".repeat(rng.pick(&[1000usize, 100_000]))
            } else {
                rng.pick(VALUES).to_string()
            };
            text.replace_range(a..e, &with);
            format!("attribute value at {a}..{e} -> {:?}", trim(&with))
        }
        "token" => {
            let Some((a, e)) = pick_equation(rng, text) else {
                return "token: no equation (no-op)".into();
            };
            let mut toks: Vec<String> = text[a..e].split(' ').map(String::from).collect();
            let n = toks.len();
            let what = match rng.below(5) {
                0 if n > 1 => {
                    let (i, j) = (rng.below(n), rng.below(n));
                    toks.swap(i, j);
                    format!("swap tokens {i} and {j}")
                }
                1 => {
                    let i = rng.below(n);
                    toks.remove(i);
                    format!("delete token {i}")
                }
                2 => {
                    let i = rng.below(n);
                    let t = toks[i].clone();
                    toks.insert(i, t);
                    format!("duplicate token {i}")
                }
                3 => {
                    let i = rng.below(n + 1);
                    let t = rng.pick_in(TOKEN_POOL);
                    toks.insert(i, t.into());
                    format!("insert token {t:?} at {i}")
                }
                _ => {
                    let i = rng.below(n);
                    let t = rng.pick_in(TOKEN_POOL);
                    toks[i] = t.into();
                    format!("token {i} -> {t:?}")
                }
            };
            let sep = if rng.one_in(10) {
                rng.pick(&["  ", "\t", "\n", "&#10;", " \n   "])
            } else {
                " "
            };
            text.replace_range(a..e, &toks.join(sep));
            format!("equation at byte {a}: {what} (separator {sep:?})")
        }
        "quote" => {
            let qs: Vec<usize> = text.match_indices('"').map(|(i, _)| i).collect();
            if qs.is_empty() || rng.one_in(3) {
                let at = any_pos(rng, text);
                let q = rng.pick(&["\"", "'", "\"\"", "=\""]);
                text.insert_str(at, q);
                return format!("insert quote {q:?} at byte {at}");
            }
            let i = qs[rng.below(qs.len())];
            let with = rng.pick(&["", "'", "\"\"", "\u{201C}"]);
            text.replace_range(i..i + 1, with);
            format!("quote at byte {i} -> {with:?}")
        }
        "entity" => {
            let es: Vec<usize> = text.match_indices('&').map(|(i, _)| i).collect();
            let with = rng.pick(&[
                "&amp",
                "&",
                "&am;",
                "&#38;",
                "&#x26;",
                "&#0;",
                "&#xFFFFFFFF;",
                "&AMP;",
                "&amp;amp;",
                "&#99999999999999999999;",
                "&lt",
                "&#x3C;",
                "&#60;",
                "&#xD800;",
            ]);
            if es.is_empty() {
                let at = any_pos(rng, text);
                text.insert_str(at, with);
                return format!("insert entity {with:?} at byte {at}");
            }
            let i = es[rng.below(es.len())];
            let e = text[i..]
                .find(';')
                .map_or(i + 1, |k| (i + k + 1).min(i + 8));
            let e = floor_boundary(text, e);
            text.replace_range(i..e, with);
            format!("entity at byte {i} -> {with:?}")
        }
        "nest" => {
            let at = any_pos(rng, text);
            let depth = rng.pick(&[16usize, 256, 1000, 10_000, 100_000]);
            let (open, close) = rng.pick(&[
                ("<a>", "</a>"),
                ("<set>", "</set>"),
                ("<counter>", "</counter>"),
                ("<a x=\"1\">", "</a>"),
                ("<!--", "-->"),
            ]);
            let mut s = open.repeat(depth);
            if rng.one_in(2) {
                s.push_str(&close.repeat(depth));
            }
            text.insert_str(at, &s);
            format!("nest {open:?} x{depth} at byte {at}")
        }
        "deep-rpn" => {
            let Some((a, e)) = pick_equation(rng, text) else {
                return "deep-rpn: no equation (no-op)".into();
            };
            let depth = rng.pick(&[10usize, 100, 255, 256, 257, 1000, 5000, 20_000]);
            let s = deep_rpn(rng, depth);
            text.replace_range(a..e, &s);
            format!("equation at byte {a} -> deep RPN x{depth}: {}", trim(&s))
        }
        "refs" => {
            // `$` references to every counter of the set (itself included: a cycle).
            let Some((cs, k)) = pick_counter(rng, text) else {
                return "refs: no counter (no-op)".into();
            };
            let (_, (a, e)) = cs[k].clone();
            let op = rng.pick(&["UADD", "FADD", "UMUL", "FMAX"]);
            let mut s = format!("${}", cs[0].0);
            for (sym, _) in &cs[1..] {
                s.push_str(&format!(" ${sym} {op}"));
            }
            text.replace_range(a..e, &s);
            format!(
                "equation at byte {a} -> every counter of the set ({})",
                trim(&s)
            )
        }
        "dag" => {
            // Every counter's equation refers to every earlier counter of its
            // set (no cycle: loads clean when the types allow it).
            let sets = counters_by_set(text);
            let mut edits: Vec<((usize, usize), String)> = Vec::new();
            let all = rng.one_in(2);
            for cs in &sets {
                for k in 1..cs.len() {
                    let op = if all { "UADD" } else { "FADD" };
                    let mut s = format!("${}", cs[0].0);
                    for (sym, _) in &cs[1..k] {
                        s.push_str(&format!(" ${sym} {op}"));
                    }
                    edits.push((cs[k].1, s));
                }
            }
            edits.sort_by_key(|e| std::cmp::Reverse(e.0));
            let n = edits.len();
            for ((a, e), s) in edits {
                text.replace_range(a..e, &s);
            }
            format!("every equation refers to every earlier counter ({n} equations)")
        }
        "self-ref" => {
            let Some((cs, k)) = pick_counter(rng, text) else {
                return "self-ref: no counter (no-op)".into();
            };
            let (sym, (a, e)) = cs[k].clone();
            let s = rng.pick(&["${s}", "${s} 1 UADD", "1 ${s} UDIV", "${s} ${s} FADD"]);
            let s = s.replace("{s}", &sym);
            text.replace_range(a..e, &s);
            format!("equation at byte {a} -> {s:?}")
        }
        "read" => {
            let Some((a, e)) = pick_equation(rng, text) else {
                return "read: no equation (no-op)".into();
            };
            let src = rng.pick(&["A", "B", "C", "GPU_TIME", "GPU_CLOCK", "PERFCNT", "X", "$A"]);
            let idx = rng.pick_in(NUMBER_POOL);
            let s = format!("{src} {idx} READ");
            text.replace_range(a..e, &s);
            format!("equation at byte {a} -> {s:?}")
        }
        "div-chain" => {
            let Some((a, e)) = pick_equation(rng, text) else {
                return "div-chain: no equation (no-op)".into();
            };
            let op = rng.pick(&["UDIV", "FDIV"]);
            let n = rng.pick(&[2usize, 10, 100]);
            let mut s = text[a..e].to_string();
            for _ in 0..n {
                s.push_str(&format!(
                    " {} {op}",
                    rng.pick(&["0", "A 0 READ", "$QueryMode", "1"])
                ));
            }
            text.replace_range(a..e, &s);
            format!("equation at byte {a}: {n} x {op}")
        }
        _ => {
            let k = rng.below(8);
            match k {
                0 => {
                    text.clear();
                    "empty text".into()
                }
                1 => {
                    text.insert(0, '\u{FEFF}');
                    "UTF-8 BOM".into()
                }
                2 => {
                    *text = text.replace('\n', "\r\n");
                    "CRLF line ends".into()
                }
                3 => {
                    *text = text.replace('\n', "\r");
                    "CR line ends".into()
                }
                4 => {
                    *text = text.replace('\n', " ");
                    "one line".into()
                }
                5 => {
                    let at = any_pos(rng, text);
                    text.insert_str(at, &" ".repeat(200_000));
                    format!("200,000 blanks at byte {at}")
                }
                6 => {
                    // Without the XML declaration.
                    let e = text.find("?>").map_or(0, |i| i + 2);
                    text.replace_range(..e, "");
                    "no XML declaration".into()
                }
                _ => {
                    let at = any_pos(rng, text);
                    let s = "\u{10FFFF}\u{FFFE}\u{D7FF}\u{E000}\u{0085}";
                    text.insert_str(at, s);
                    format!("odd characters at byte {at}")
                }
            }
        }
    }
}

fn trim(s: &str) -> String {
    if s.chars().count() <= 80 {
        s.to_string()
    } else {
        format!(
            "{}... ({} bytes)",
            s.chars().take(80).collect::<String>(),
            s.len()
        )
    }
}

// ---------------------------------------------------------------- cases

struct Case {
    seed: u64,
    index: u64,
    base: usize,
    mutations: Vec<String>,
    text: String,
}

fn make_case(c: &Corpus, seed: u64, index: u64) -> Case {
    let mut rng = Rng::for_input(seed, index);
    // A whole file one time in 64 (they are large): otherwise one set.
    let base = if rng.one_in(64) {
        rng.below(c.first_slice)
    } else {
        c.first_slice + rng.below(c.bases.len() - c.first_slice)
    };
    let mut n = 1;
    while n < 5 && rng.one_in(2) {
        n += 1;
    }
    let mut text = c.bases[base].text.clone();
    let mutations = (0..n).map(|_| mutate_once(&mut rng, &mut text)).collect();
    Case {
        seed,
        index,
        base,
        mutations,
        text,
    }
}

/// `None` when `line:column` is inside `text` (lines end at `\n`).
fn outside(text: &str, line: usize, column: usize) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    if line == 0 || line > lines.len() {
        return Some(format!("line {line} not in 1..={}", lines.len()));
    }
    let len = lines[line - 1].chars().count();
    if column == 0 || column > len + 1 {
        return Some(format!(
            "column {column} not in 1..={} (line {line} has {len} characters)",
            len + 1
        ));
    }
    None
}

/// Samples: nothing measured, all 0, all `u64::MAX`, and random ones.
fn samples(rng: &mut Rng) -> Vec<interp::Sample> {
    let mut out = vec![interp::Sample::EMPTY];
    for v in [Some(0), Some(u64::MAX)] {
        out.push(interp::Sample {
            gpu_time: v,
            gpu_clock: v,
            a: [v; interp::A_COUNTERS],
            b: [v; interp::B_COUNTERS],
            c: [v; interp::C_COUNTERS],
            perfcnt: [v; interp::PERFCNT_COUNTERS],
            pec: [v; interp::PEC_COUNTERS],
            mpec: [v; interp::MPEC_COUNTERS],
        });
    }
    for _ in 0..2 {
        let mut s = interp::Sample::EMPTY;
        let v = |rng: &mut Rng| match rng.below(6) {
            0 => None,
            1 => Some(0),
            2 => Some(u64::MAX),
            3 => Some(rng.next() >> rng.below(64)),
            _ => Some(rng.next() % 100_000),
        };
        s.gpu_time = v(rng);
        s.gpu_clock = v(rng);
        for x in s.a.iter_mut() {
            *x = v(rng);
        }
        for x in
            s.b.iter_mut()
                .chain(s.c.iter_mut())
                .chain(s.perfcnt.iter_mut())
                .chain(s.pec.iter_mut())
                .chain(s.mpec.iter_mut())
        {
            *x = v(rng);
        }
        out.push(s);
    }
    out
}

fn devices(rng: &mut Rng) -> Vec<interp::DeviceInfo> {
    use perfregs_codegen::metrics::equation::DeviceVar;
    // Every variable from `value`, in declaration order.
    let each = |value: &mut dyn FnMut() -> u64| {
        let mut d = interp::DeviceInfo::default();
        for v in DeviceVar::ALL {
            d.set(*v, value());
        }
        d
    };
    let random = each(&mut || rng.next() >> (rng.next() % 64));
    vec![
        interp::DeviceInfo::default(),
        each(&mut || u64::MAX),
        interp::DeviceInfo {
            dual_subslice_mask: 3,
            gpu_max_frequency: 1_150_000_000,
            query_mode: 1,
            ..bdw_gt2()
        },
        random,
    ]
}

/// Evaluate and emit a clean file; `Err` when the emitted Rust does not parse.
fn use_clean(case: &Case, base: &Base, l: &Loaded) -> Result<(), String> {
    let mut rng = Rng::for_input(case.seed ^ 0xC1EA, case.index);
    let ss = samples(&mut rng);
    let ds = devices(&mut rng);
    for cs in &l.checked.sets {
        for d in &ds {
            for i in 0..cs.counters.len() {
                let _ = interp::counter_available(cs, i, d);
                for s in &ss {
                    let _ = interp::counter(cs, i, s, d);
                    let _ = interp::counter_max(cs, i, s, d);
                }
            }
            for k in 0..cs.configs.len() {
                let _ = interp::config_available(cs, k, d);
            }
        }
    }
    let module = emit::module_name(base.file, base.project);
    let code = emit::emit_file(
        &module,
        base.project,
        &l.file,
        &l.checked,
        addresses(base.project),
    );
    // The Rust of one set is parsed (a whole file's would dominate the run).
    // syn's parser recurses deeply per level of a nested call (256 levels
    // are allowed): give it its own large stack (rustc grows its own).
    if l.file.sets.len() <= 2 {
        let parsed = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                syn::parse_file(&code)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| e.to_string())?
            .join()
            .map_err(|_| "syn panicked".to_string())?;
        if let Err(e) = parsed {
            return Err(format!("emitted Rust does not parse: {e}"));
        }
    }
    Ok(())
}

fn run_case(case: &Case) -> Result<Outcome, Failure> {
    let base = &corpus().bases[case.base];
    let diags: Vec<Diagnostic> = match catch(|| {
        let r = metrics::load(ir(), base.project, base.file, &case.text, errata());
        let used = match &r {
            Ok(l) => use_clean(case, base, l),
            Err(_) => Ok(()),
        };
        (r.map(|_| ()), used)
    })? {
        (Ok(()), Ok(())) => return Ok(Outcome::Clean),
        (Ok(()), Err(e)) => {
            return Err(Failure {
                signature: "emitted Rust does not parse".into(),
                detail: e,
            })
        }
        (Err(d), _) => d,
    };
    let Some(first) = diags.first() else {
        return Err(Failure {
            signature: "rejected without a diagnostic".into(),
            detail: "load returned Err(vec![])".into(),
        });
    };
    for d in &diags {
        let problem = if d.file != base.file {
            Some(format!("names file {:?}", d.file))
        } else {
            outside(&case.text, d.pos.line, d.pos.column)
        };
        if let Some(p) = problem {
            return Err(Failure {
                signature: format!("{} outside the text", d.code),
                detail: format!(
                    "diagnostic outside the text ({p}; the damaged text has {} lines):\n  {}",
                    case.text.split('\n').count(),
                    trim(&d.to_string())
                ),
            });
        }
    }
    Ok(Outcome::Rejected(first.code.as_str(), diags.len()))
}

fn describe(case: &Case, f: &Failure) -> String {
    let base = &corpus().bases[case.base];
    let mut s = format!(
        "xml mutation seed {:#x} index {}: {}\n{}\nmutations:\n",
        case.seed, case.index, base.label, f.detail
    );
    for m in &case.mutations {
        s.push_str(&format!("  - {m}\n"));
    }
    s.push_str(&format!(
        "reproduce: PERFREGS_XML_MUTATION_SEED={:#x} PERFREGS_XML_MUTATION_START={} \
         PERFREGS_XML_MUTATIONS=1 CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
         cargo test -p perfregs-codegen --release --test all metrics_mutation:: -- --ignored --nocapture\n",
        case.seed, case.index
    ));
    if case.text.len() <= 20_000 {
        s.push_str("damaged input:\n-----8<-----\n");
        s.push_str(&case.text);
        s.push_str("\n-----8<-----\n");
    } else {
        s.push_str(&format!(
            "(damaged input of {} bytes not shown)\n",
            case.text.len()
        ));
    }
    s
}

// ---------------------------------------------------------------- runs

/// Run inputs `start..start + count` of `seed` on `threads` threads (see
/// `support/harness.rs`); an input slower than [`SLOW`] is a failure.
fn run(seed: u64, start: u64, count: u64, threads: usize, progress: Option<Duration>) -> Report {
    let c = corpus();
    let _ = ir();
    for (_, p, _) in perfregs_regdefs::METRIC_SETS {
        let _ = addresses(p);
    }
    harness::run(
        start,
        count,
        threads,
        progress,
        Some(SLOW),
        "PERFREGS_XML_MUTATION_TRACE",
        &|i, trace| {
            let case = make_case(c, seed, i);
            let label = c.bases[case.base].label.clone();
            if trace {
                eprintln!("input {i}: {label}: {:?}", case.mutations);
            }
            let kinds = case
                .mutations
                .iter()
                .map(|m| m.split(':').next().unwrap_or("").to_string())
                .collect();
            let outcome = run_case(&case).map_err(|f| Failure {
                detail: describe(&case, &f),
                signature: f.signature,
            });
            Done {
                label,
                kinds,
                outcome,
            }
        },
    )
}

/// A short deterministic run (part of `cargo test`).
#[test]
fn short_run() {
    let report = run(SEED, 0, 300, 1, None);
    eprintln!("{}", report.summary());
    harness::assert_short_run(&report);
}

#[test]
#[ignore = "long run (minutes in --release): see the module documentation"]
fn long_run() {
    harness::long_run("xml mutation", "PERFREGS_XML_MUTATION", 200_000, SEED, run);
}

/// An input is a function of seed and index alone; every operator is drawn.
#[test]
fn inputs_are_reproducible() {
    let c = corpus();
    // The 28 shipped files, then a slice of each of their 858 sets (counted
    // from the XML: its <set> elements).
    assert_eq!(c.first_slice, 28);
    assert_eq!(c.bases.len(), 28 + 858);
    for i in [0, 1, 77, 123_456] {
        let (a, b) = (make_case(c, SEED, i), make_case(c, SEED, i));
        assert_eq!(
            (a.base, &a.text, &a.mutations),
            (b.base, &b.text, &b.mutations)
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..3000 {
        let mut rng = Rng::for_input(SEED, i);
        let slices = c.bases.len() - c.first_slice;
        let mut text = c.bases[c.first_slice + (i as usize % slices)].text.clone();
        let m = mutate_once(&mut rng, &mut text);
        seen.insert(m.split(':').next().unwrap_or("").to_string());
    }
    for op in OP_NAMES {
        assert!(seen.contains(*op), "{op} never drawn: {seen:?}");
    }
}

#[test]
fn position_check() {
    assert_eq!(outside("ab\ncd\n", 3, 1), None);
    assert!(outside("ab\ncd\n", 3, 2).is_some());
    assert!(outside("ab\ncd\n", 4, 1).is_some());
    assert_eq!(outside("ab\r\ncd", 1, 4), None);
    assert!(outside("ab", 0, 1).is_some());
    assert!(outside("ab", 1, 0).is_some());
    assert_eq!(outside("é€x", 1, 4), None);
}
