//! Counter equations: the RPN of `equation`, `max_equation` and
//! `availability` parsed into expression trees (PR204) and type-checked
//! against the set, the device variables and the project's report formats
//! (PR205).
//!
//! # Tokens
//!
//! Integers (decimal or `0x` hexadecimal), `true`, `false`; `X n READ` reads
//! the delta of counter `n` of `X` (`A`, `B`, `C`, `GPU_TIME 0`, `GPU_CLOCK 0`,
//! `PERFCNT n`, `PEC n`); `$Name` names a counter of the same set (by
//! `symbol_name`), a device variable ([`DeviceVar`]) or a topology predicate
//! ([`TopologyVar`]: `$GtSlice1`, `$GtSlice1XeCore2`, `$GtXeCore5`); the
//! operators are those of IGT's generator ([`Op`]). Operands pop in RPN
//! order: `a b UDIV` is `a / b`. Operators nest at most [`MAX_HEIGHT`] deep
//! (PR204 beyond).
//!
//! # Report formats
//!
//! Reads are checked against the report format the set is read with
//! ([`FormatCaps::for_set`]): a set with an `oa_format` attribute (IGT's
//! name, `<size>B_<family>...`: `576B_PEC64LL`, `128B_MPEC8_NOA16`,
//! `256B_GENERIC_NOA16`) against the one layout of its project with that
//! size and counter family (`PEC...`: PEC counters; `MPEC...`: MPEC
//! counters; anything else: A counters), PR205 when there is not exactly
//! one; a set without one against the union of its project's layouts. In a
//! set whose format has MPEC counters and no A counters (the media OAM
//! formats), `A n` is MPEC n (IGT's MPEC sets read their MPEC counters as
//! `A n`): the checked expression reads [`Source::Mpec`].
//!
//! # Types
//!
//! Three types: integer (`u64`), float (`f64`), boolean.
//!
//! - Literals are integers (`true`/`false`: booleans); reads and device
//!   variables are integers; `$Counter` has its counter's `data_type`
//!   (`uint64`: integer; `float`/`double`: float; others are refused).
//! - `U*` operators, `AND`, `OR`, `<<`, `>>` take two integers and give an
//!   integer, wrapping as C's `uint64_t` does; `UDIV` by zero gives 0; a shift
//!   by 64 or more gives 0 (C leaves it undefined). A boolean operand is an
//!   error.
//! - A float operand of `UADD USUB UMUL UMIN UDIV` (two shipped BDW
//!   equations have one) follows the C that IGT generates: `UDIV` first
//!   stores both operands in `uint64_t`s (each float truncated), then divides
//!   them as integers; the others compute in `f64` (the integer operand
//!   converted) and store the result in a `uint64_t`. Float-to-integer
//!   conversion truncates toward zero and saturates (negative and NaN give 0,
//!   too large gives `u64::MAX`) where C leaves the out-of-range case
//!   undefined. `AND OR << >>` and the comparisons refuse floats.
//! - `ULT ULTE UGT UGTE ==` take two integers and give a boolean.
//! - `F*` operators take integers or floats and give a float, exactly as the
//!   C IGT generates (`double tmpN = a + b;` with the operands as they are):
//!   - `FADD`, `FSUB`, `FMUL` with two integer operands compute in
//!     `uint64_t`, wrapping, and only the result becomes the nearest `f64`
//!     (`A 7 READ A 8 READ FADD` with both at 2^63 gives 0.0; `3 5 FSUB`
//!     gives 2^64 - 2 as `f64`); with a float operand the integer operand
//!     becomes the nearest `f64` first and the operation is in `f64`.
//!   - `FDIV` and `FMAX` store each operand in a `double` first (an integer
//!     becomes the nearest `f64`), then compute in `f64`: `FDIV` by zero
//!     gives 0; `FMAX` is C's `a > b ? a : b`.
//! - `&&` takes booleans or integers (an integer is true when non-zero, as in
//!   C) and gives a boolean. Both sides are always evaluated (no
//!   short-circuit), so a value missing on either side makes it missing.
//! - An `equation` or `max_equation` gives an integer or a float: an integer
//!   is converted for a float counter; a float for a `uint64` counter is an
//!   error. An `availability` gives a boolean or an integer (true when
//!   non-zero) and depends on the device only: it may not read a report or
//!   name a counter (IGT emits it as a C condition on device values).
//! - IGT declares `float` counters as C `float`; here they are `f64`.

use super::errata::{Erratum, Fix};
use super::model::{Located, MetricFile};
use crate::diag::{Code, Diagnostic, Diagnostics, Pos};
use crate::ir::Ir;
use std::collections::HashMap;

/// What `READ` reads, and the device variables an equation may name: the
/// types the run-time sample and device share (`perfregs-types`).
pub use perfregs_types::{DeviceVar, Source, TopologyVar};

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `UADD`: wrapping `a + b`.
    UAdd,
    /// `USUB`: wrapping `a - b`.
    USub,
    /// `UMUL`: wrapping `a * b`.
    UMul,
    /// `UDIV`: `a / b`, 0 when `b` is 0.
    UDiv,
    /// `UMIN`: the smaller.
    UMin,
    /// `AND`: bitwise and.
    And,
    /// `OR`: bitwise or.
    Or,
    /// `<<`: `a << b`, 0 when `b >= 64`.
    Shl,
    /// `>>`: `a >> b`, 0 when `b >= 64`.
    Shr,
    /// `ULT`: `a < b`.
    ULt,
    /// `ULTE`: `a <= b`.
    ULte,
    /// `UGT`: `a > b`.
    UGt,
    /// `UGTE`: `a >= b`.
    UGte,
    /// `==`: `a == b`.
    Eq,
    /// `FADD`: `a + b` as a float (two integers: wrapping in `u64`, then converted).
    FAdd,
    /// `FSUB`: `a - b` as a float (two integers: wrapping in `u64`, then converted).
    FSub,
    /// `FMUL`: `a * b` as a float (two integers: wrapping in `u64`, then converted).
    FMul,
    /// `FDIV`: `a / b` in `f64` (operands converted first), 0 when `b` is 0.
    FDiv,
    /// `FMAX`: `a > b ? a : b`.
    FMax,
    /// `&&`: logical and of booleans or integers (non-zero is true).
    LAnd,
}

impl Op {
    /// Every operator.
    pub const ALL: &'static [Op] = &[
        Op::UAdd,
        Op::USub,
        Op::UMul,
        Op::UDiv,
        Op::UMin,
        Op::And,
        Op::Or,
        Op::Shl,
        Op::Shr,
        Op::ULt,
        Op::ULte,
        Op::UGt,
        Op::UGte,
        Op::Eq,
        Op::FAdd,
        Op::FSub,
        Op::FMul,
        Op::FDiv,
        Op::FMax,
        Op::LAnd,
    ];
    /// The token.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::UAdd => "UADD",
            Op::USub => "USUB",
            Op::UMul => "UMUL",
            Op::UDiv => "UDIV",
            Op::UMin => "UMIN",
            Op::And => "AND",
            Op::Or => "OR",
            Op::Shl => "<<",
            Op::Shr => ">>",
            Op::ULt => "ULT",
            Op::ULte => "ULTE",
            Op::UGt => "UGT",
            Op::UGte => "UGTE",
            Op::Eq => "==",
            Op::FAdd => "FADD",
            Op::FSub => "FSUB",
            Op::FMul => "FMUL",
            Op::FDiv => "FDIV",
            Op::FMax => "FMAX",
            Op::LAnd => "&&",
        }
    }
    fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|o| o.as_str() == s)
    }
    /// An integer operator that accepts a float operand, as C does (see
    /// the module documentation): `UADD USUB UMUL UMIN UDIV`.
    pub fn takes_float(self) -> bool {
        matches!(self, Op::UAdd | Op::USub | Op::UMul | Op::UMin | Op::UDiv)
    }
    /// What the operator takes and gives.
    pub fn class(self) -> OpClass {
        use Op::*;
        match self {
            UAdd | USub | UMul | UDiv | UMin | And | Or | Shl | Shr => OpClass::Int,
            ULt | ULte | UGt | UGte | Eq => OpClass::Compare,
            FAdd | FSub | FMul | FDiv | FMax => OpClass::Float,
            LAnd => OpClass::Logic,
        }
    }
}

/// Operator classes of the type rules (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpClass {
    /// Integers to an integer.
    Int,
    /// Integers to a boolean.
    Compare,
    /// Integers or floats to a float.
    Float,
    /// Booleans or integers to a boolean.
    Logic,
}

/// A value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// `u64`.
    Int,
    /// `f64`.
    Float,
    /// `bool`.
    Bool,
}

impl Type {
    /// `integer`, `float`, `boolean`.
    pub fn as_str(self) -> &'static str {
        match self {
            Type::Int => "integer",
            Type::Float => "float",
            Type::Bool => "boolean",
        }
    }
}

/// One node of an expression, with the position of its token.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where its token is (an operator's node: the operator token).
    pub pos: Pos,
}

/// Expression nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// An integer literal.
    Int(u64),
    /// `true` / `false`.
    Bool(bool),
    /// `X n READ`.
    Read(Source, u64),
    /// `$Name` before checking.
    Var(String),
    /// A device variable (after checking).
    Device(DeviceVar),
    /// A topology predicate, 1 or 0 (after checking).
    Topology(TopologyVar),
    /// Another counter of the set, by index (after checking).
    Counter(usize),
    /// `a b OP`.
    Op(Op, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Every node, depth first (operands before their operator).
    pub fn visit(&self, f: &mut impl FnMut(&Expr)) {
        if let ExprKind::Op(_, a, b) = &self.kind {
            a.visit(f);
            b.visit(f);
        }
        f(self);
    }
}

/// The report counters a project has: reads beyond them are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportCaps {
    /// A counters: indices `0..a`.
    pub a: u64,
    /// B counters: indices `0..b`.
    pub b: u64,
    /// C counters: indices `0..c`.
    pub c: u64,
    /// A TIME_STAMP dword (`GPU_TIME 0`).
    pub gpu_time: bool,
    /// A GPU_TICKS dword (`GPU_CLOCK 0`).
    pub gpu_clock: bool,
    /// PERFCNT registers: indices `0..perfcnt`.
    pub perfcnt: u64,
    /// PEC counters: indices `0..pec`.
    pub pec: u64,
    /// MPEC counters: indices `0..mpec`.
    pub mpec: u64,
}

/// PERFCNT registers a query reads beside the reports (IGT's and Mesa's
/// accumulators hold two, PERFCNT1 and PERFCNT2, on every OA generation).
pub const PERFCNT_COUNT: u64 = 2;

impl ReportCaps {
    /// What the report formats of `project` (catalogue name) carry: the union
    /// over its formats (`An`, `Bn`, `Cn`, `PECn`, `MPECn`, `TIME_STAMP`,
    /// `GPU_TICKS`). `None` when the project is unknown or has no report
    /// format.
    pub fn of(ir: &Ir, project: &str) -> Option<Self> {
        FormatCaps::of(ir, project).map(|f| f.union)
    }

    /// Nothing but the PERFCNT registers.
    const NONE: ReportCaps = ReportCaps {
        a: 0,
        b: 0,
        c: 0,
        gpu_time: false,
        gpu_clock: false,
        perfcnt: PERFCNT_COUNT,
        pec: 0,
        mpec: 0,
    };

    /// What one layout carries.
    pub fn of_format(f: &crate::ir::FormatIr) -> Self {
        let mut caps = Self::NONE;
        for c in &f.counters {
            let n = &c.name;
            let idx = |prefix: &str| {
                n.strip_prefix(prefix)
                    .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|d| d.parse::<u64>().ok())
            };
            if let Some(i) = idx("A") {
                caps.a = caps.a.max(i + 1);
            } else if let Some(i) = idx("B") {
                caps.b = caps.b.max(i + 1);
            } else if let Some(i) = idx("C") {
                caps.c = caps.c.max(i + 1);
            } else if let Some(i) = idx("PEC") {
                caps.pec = caps.pec.max(i + 1);
            } else if let Some(i) = idx("MPEC") {
                caps.mpec = caps.mpec.max(i + 1);
            } else if n == "TIME_STAMP" {
                caps.gpu_time = true;
            } else if n == "GPU_TICKS" {
                caps.gpu_clock = true;
            }
        }
        caps
    }

    /// The union of two.
    fn union(self, o: Self) -> Self {
        ReportCaps {
            a: self.a.max(o.a),
            b: self.b.max(o.b),
            c: self.c.max(o.c),
            gpu_time: self.gpu_time || o.gpu_time,
            gpu_clock: self.gpu_clock || o.gpu_clock,
            perfcnt: self.perfcnt.max(o.perfcnt),
            pec: self.pec.max(o.pec),
            mpec: self.mpec.max(o.mpec),
        }
    }

    /// Whether `A n` means MPEC n: MPEC counters and no A counters.
    pub fn a_is_mpec(&self) -> bool {
        self.a == 0 && self.mpec > 0
    }

    /// How many counters of `s` there are (`None`: the project has none).
    pub fn count(&self, s: Source) -> u64 {
        match s {
            Source::A => self.a,
            Source::B => self.b,
            Source::C => self.c,
            Source::GpuTime => u64::from(self.gpu_time),
            Source::GpuClock => u64::from(self.gpu_clock),
            Source::PerfCnt => self.perfcnt,
            Source::Pec => self.pec,
            Source::Mpec => self.mpec,
        }
    }
}

/// The report layouts of one project, for choosing each set's
/// ([`for_set`](Self::for_set)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatCaps {
    /// The union of every layout (a set without `oa_format`).
    pub union: ReportCaps,
    /// Each layout: (name, size in bytes, what it carries).
    pub formats: Vec<(String, u64, ReportCaps)>,
}

impl FormatCaps {
    /// The layouts of `project` (catalogue name); `None` when the project is
    /// unknown or has no report format.
    pub fn of(ir: &Ir, project: &str) -> Option<Self> {
        let p = ir.catalogue.find(project)?;
        let formats: Vec<(String, u64, ReportCaps)> = ir
            .formats
            .iter()
            .filter(|f| f.project == p)
            .map(|f| (f.name.clone(), f.size, ReportCaps::of_format(f)))
            .collect();
        let union = formats
            .iter()
            .fold(ReportCaps::NONE, |u, (_, _, c)| u.union(*c));
        (!formats.is_empty()).then_some(FormatCaps { union, formats })
    }

    /// One layout standing for every set (tests, a single-format reader).
    pub fn single(caps: ReportCaps) -> Self {
        FormatCaps {
            union: caps,
            formats: Vec::new(),
        }
    }

    /// What a set with `oa_format` (IGT's name) is read with: the union
    /// without one; with one, the one layout of the size it names
    /// (`<size>B_...`) whose counters are of the family it names (`PEC...`,
    /// `MPEC...`, else A counters). `Err` says why none fits.
    pub fn for_set(&self, oa_format: Option<&str>) -> Result<(ReportCaps, Option<&str>), String> {
        let Some(name) = oa_format else {
            return Ok((self.union, None));
        };
        let parsed = name.split_once("B_").and_then(|(size, family)| {
            let size = size.parse::<u64>().ok()?;
            Some((size, family))
        });
        let Some((size, family)) = parsed else {
            return Err(format!(
                "oa_format `{name}` is not `<size>B_<counters>...` (IGT's names: `576B_PEC64LL`, `128B_MPEC8_NOA16`)"
            ));
        };
        let fits = |c: &ReportCaps| {
            if family.starts_with("MPEC") {
                c.mpec > 0
            } else if family.starts_with("PEC") {
                c.pec > 0
            } else {
                c.a > 0
            }
        };
        let found: Vec<&(String, u64, ReportCaps)> = self
            .formats
            .iter()
            .filter(|(_, s, c)| *s == size && fits(c))
            .collect();
        match found.as_slice() {
            [(n, _, c)] => Ok((*c, Some(n.as_str()))),
            [] => Err(format!(
                "oa_format `{name}` names no report format of the project: none of {} is {size} bytes with {} counters",
                self.formats
                    .iter()
                    .map(|(n, s, _)| format!("{n} ({s} B)"))
                    .collect::<Vec<_>>()
                    .join(", "),
                family.split('_').next().unwrap_or(family)
            )),
            many => Err(format!(
                "oa_format `{name}` fits {} report formats of the project: {}",
                many.len(),
                many.iter().map(|(n, _, _)| n.as_str()).collect::<Vec<_>>().join(", ")
            )),
        }
    }
}

/// A checked expression and its type.
#[derive(Debug, Clone, PartialEq)]
pub struct Typed {
    /// The expression (names resolved).
    pub expr: Expr,
    /// Its type.
    pub ty: Type,
}

/// A counter's checked equations.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedCounter {
    /// The declared type (`data_type`): [`Type::Int`] or [`Type::Float`].
    pub ty: Type,
    /// `equation`.
    pub equation: Typed,
    /// `max_equation`.
    pub max: Option<Typed>,
    /// `availability`.
    pub availability: Option<Typed>,
}

/// A set's checked equations, in the order of the [`MetricSet`](super::model::MetricSet)'s
/// counters and configs.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedSet {
    /// One per counter.
    pub counters: Vec<CheckedCounter>,
    /// The `availability` of each `register_config`.
    pub configs: Vec<Option<Typed>>,
    /// The layout its `oa_format` names (`None`: no `oa_format`; the
    /// project's reports).
    pub format: Option<String>,
}

/// A file's checked equations.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedFile {
    /// One per set.
    pub sets: Vec<CheckedSet>,
    /// Equations parsed (equations, max equations and availabilities of
    /// counters and register configs).
    pub equations: usize,
    /// The errata applied: (`Set.Counter`, the erratum).
    pub errata: Vec<(String, Erratum)>,
}

/// Deepest operator nesting an equation may have: the checker, the
/// interpreter and the emitter recurse over expressions (and dropping one
/// recurses), so an unbounded depth would overflow the stack.
pub const MAX_HEIGHT: usize = 256;

enum Item {
    /// An expression and its height (operators on its longest path).
    Expr(Expr, usize),
    Source(Source, Pos),
}

/// Parse one RPN text; PR204 at the offending token. `item` names the
/// counter in diagnostics. Token positions are where the tokens are in the
/// file ([`Located::pos_at`]: entities and line breaks in the attribute value
/// accounted for).
pub fn parse(
    file: &str,
    item: &str,
    text: &Located<String>,
    diags: &mut Diagnostics,
) -> Option<Expr> {
    match parse_inner(text) {
        Ok(e) => Some(e),
        Err((pos, message)) => {
            diags.push(Diagnostic {
                code: Code::Equation,
                file: file.into(),
                pos,
                item: item.into(),
                message,
            });
            None
        }
    }
}

fn tokens(text: &Located<String>) -> Vec<(&str, Pos)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, char)
    let s = text.value.as_str();
    let at = |ci: usize| text.pos_at(ci);
    for (ci, (bi, ch)) in s.char_indices().enumerate() {
        if ch.is_whitespace() {
            if let Some((b0, c0)) = start.take() {
                out.push((&s[b0..bi], at(c0)));
            }
        } else if start.is_none() {
            start = Some((bi, ci));
        }
    }
    if let Some((b0, c0)) = start {
        out.push((&s[b0..], at(c0)));
    }
    out
}

fn parse_inner(text: &Located<String>) -> Result<Expr, (Pos, String)> {
    let mut stack: Vec<Item> = Vec::new();
    for (tok, pos) in tokens(text) {
        if let Some(n) = super::xml::parse_number(tok) {
            stack.push(Item::Expr(
                Expr {
                    kind: ExprKind::Int(n),
                    pos,
                },
                0,
            ));
        } else if tok == "true" || tok == "false" {
            stack.push(Item::Expr(
                Expr {
                    kind: ExprKind::Bool(tok == "true"),
                    pos,
                },
                0,
            ));
        } else if let Some(s) = Source::parse(tok) {
            stack.push(Item::Source(s, pos));
        } else if tok == "READ" {
            let (idx, src) = match (stack.pop(), stack.pop()) {
                (Some(i), Some(s)) => (i, s),
                _ => {
                    return Err((
                        pos,
                        "`READ` needs a counter name and an index before it (`A 7 READ`)".into(),
                    ))
                }
            };
            let n = match idx {
                Item::Expr(
                    Expr {
                        kind: ExprKind::Int(n),
                        ..
                    },
                    _,
                ) => n,
                _ => {
                    return Err((
                        pos,
                        "`READ` needs an integer literal index just before it (`A 7 READ`)".into(),
                    ))
                }
            };
            let Item::Source(s, _) = src else {
                return Err((
                    pos,
                    "`READ` needs a counter name (A, B, C, GPU_TIME, GPU_CLOCK, PERFCNT) before its index".into(),
                ));
            };
            stack.push(Item::Expr(
                Expr {
                    kind: ExprKind::Read(s, n),
                    pos,
                },
                0,
            ));
        } else if let Some(op) = Op::parse(tok) {
            let (b, a) = match (stack.pop(), stack.pop()) {
                (Some(b), Some(a)) => (b, a),
                _ => return Err((pos, format!("`{tok}` needs two operands before it"))),
            };
            let (a, b, height) = match (a, b) {
                (Item::Expr(a, ha), Item::Expr(b, hb)) => (a, b, ha.max(hb) + 1),
                (Item::Source(s, p), _) | (_, Item::Source(s, p)) => {
                    return Err((
                        p,
                        format!(
                            "`{}` is not a value: read it with `{} n READ`",
                            s.as_str(),
                            s.as_str()
                        ),
                    ))
                }
            };
            if height > MAX_HEIGHT {
                return Err((
                    pos,
                    format!(
                        "operators nest deeper than {MAX_HEIGHT} here (the shipped equations nest a few levels)"
                    ),
                ));
            }
            stack.push(Item::Expr(
                Expr {
                    kind: ExprKind::Op(op, Box::new(a), Box::new(b)),
                    pos,
                },
                height,
            ));
        } else if let Some(name) = tok.strip_prefix('$') {
            let ok = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !ok {
                return Err((pos, format!("`{tok}` is not a `$Name` reference")));
            }
            stack.push(Item::Expr(
                Expr {
                    kind: ExprKind::Var(name.into()),
                    pos,
                },
                0,
            ));
        } else {
            return Err((pos, format!("unknown token `{tok}`")));
        }
    }
    match stack.len() {
        0 => Err((text.pos, "empty equation".into())),
        1 => match stack.pop() {
            Some(Item::Expr(e, _)) => Ok(e),
            Some(Item::Source(s, p)) => Err((
                p,
                format!(
                    "`{}` is not a value: read it with `{} n READ`",
                    s.as_str(),
                    s.as_str()
                ),
            )),
            None => Err((text.pos, "empty equation".into())),
        },
        n => {
            let p = match &stack[1] {
                Item::Expr(e, _) => e.pos,
                Item::Source(_, p) => *p,
            };
            Err((
                p,
                format!(
                    "{n} values left on the stack (an operator is missing); the second starts here"
                ),
            ))
        }
    }
}

/// The type of a checked expression of `set` (`None` for an unresolved
/// name or a counter index out of range).
pub fn type_of(set: &CheckedSet, e: &Expr) -> Option<Type> {
    Some(match &e.kind {
        ExprKind::Int(_) | ExprKind::Read(..) | ExprKind::Device(_) | ExprKind::Topology(_) => {
            Type::Int
        }
        ExprKind::Bool(_) => Type::Bool,
        ExprKind::Counter(i) => set.counters.get(*i)?.ty,
        ExprKind::Var(_) => return None,
        ExprKind::Op(op, _, _) => match op.class() {
            OpClass::Int => Type::Int,
            OpClass::Float => Type::Float,
            OpClass::Compare | OpClass::Logic => Type::Bool,
        },
    })
}

/// The declared type of a `data_type`.
pub fn data_type(s: &str) -> Option<Type> {
    match s {
        "uint64" => Some(Type::Int),
        "float" | "double" => Some(Type::Float),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    /// `equation` / `max_equation`: reads and counters allowed.
    Value,
    /// `availability`: device variables and literals only.
    Availability,
}

struct Checker<'a> {
    caps: &'a ReportCaps,
    /// symbol -> (index, declared type; None when the data type is bad).
    counters: HashMap<&'a str, (usize, Option<Type>)>,
}

type Fail = (Pos, String);

impl Checker<'_> {
    fn ty(&self, e: &mut Expr, u: Use) -> Result<Type, Fail> {
        let pos = e.pos;
        match &mut e.kind {
            ExprKind::Int(_) => Ok(Type::Int),
            ExprKind::Bool(_) => Ok(Type::Bool),
            ExprKind::Read(s, n) => {
                if u == Use::Availability {
                    return Err((
                        pos,
                        "an availability depends on the device only: it cannot read a report"
                            .into(),
                    ));
                }
                if *s == Source::A && self.caps.a_is_mpec() {
                    // The media formats' MPEC counters, read as `A n`.
                    *s = Source::Mpec;
                }
                let count = self.caps.count(*s);
                if *n >= count {
                    let have = match count {
                        0 => "none".to_string(),
                        1 => "only index 0".to_string(),
                        c => format!("indices 0..={}", c - 1),
                    };
                    return Err((
                        pos,
                        format!(
                            "reads {} {} but the set's report format has {have}",
                            if *s == Source::Mpec {
                                "A (MPEC)"
                            } else {
                                s.as_str()
                            },
                            n
                        ),
                    ));
                }
                Ok(Type::Int)
            }
            ExprKind::Var(name) => {
                if let Some(v) = DeviceVar::parse(name) {
                    e.kind = ExprKind::Device(v);
                    return Ok(Type::Int);
                }
                if let Some(t) = TopologyVar::parse(name) {
                    e.kind = ExprKind::Topology(t);
                    return Ok(Type::Int);
                }
                match self.counters.get(name.as_str()) {
                    Some(_) if u == Use::Availability => Err((
                        pos,
                        format!("an availability depends on the device only: it cannot name counter `${name}`"),
                    )),
                    Some((i, Some(t))) => {
                        let t = *t;
                        e.kind = ExprKind::Counter(*i);
                        Ok(t)
                    }
                    Some((_, None)) => Err((
                        pos,
                        format!("`${name}` has an unsupported data_type"),
                    )),
                    None => Err((
                        pos,
                        format!("`${name}` is neither a counter of this set nor a device variable"),
                    )),
                }
            }
            ExprKind::Device(_) | ExprKind::Topology(_) => Ok(Type::Int),
            ExprKind::Counter(_) => Err((pos, "internal: counter resolved twice".into())),
            ExprKind::Op(op, a, b) => {
                let op = *op;
                let ta = self.ty(a, u)?;
                let tb = self.ty(b, u)?;
                let bad = |t: Type, which: &str| -> Fail {
                    (
                        pos,
                        format!(
                            "`{}` takes {} operands; its {which} operand is {} {}",
                            op.as_str(),
                            match op.class() {
                                OpClass::Int if op.takes_float() => "integer or float",
                                OpClass::Int | OpClass::Compare => "integer",
                                OpClass::Float => "integer or float",
                                OpClass::Logic => "boolean or integer",
                            },
                            if t == Type::Int { "an" } else { "a" },
                            t.as_str()
                        ),
                    )
                };
                let ok = |t: Type| match op.class() {
                    OpClass::Int if op.takes_float() => t != Type::Bool,
                    OpClass::Int | OpClass::Compare => t == Type::Int,
                    OpClass::Float => t != Type::Bool,
                    OpClass::Logic => t != Type::Float,
                };
                if !ok(ta) {
                    return Err(bad(ta, "first"));
                }
                if !ok(tb) {
                    return Err(bad(tb, "second"));
                }
                Ok(match op.class() {
                    OpClass::Int => Type::Int,
                    OpClass::Float => Type::Float,
                    OpClass::Compare | OpClass::Logic => Type::Bool,
                })
            }
        }
    }
}

/// Parse and check every equation of a file against `caps` (the report
/// formats of its project). `None` when anything is wrong (every problem
/// is in `diags`).
pub fn check_file(
    f: &MetricFile,
    formats: &FormatCaps,
    errata: &[Erratum],
    diags: &mut Diagnostics,
) -> Option<CheckedFile> {
    let before = diags.0.len();
    let mut sets = Vec::new();
    let mut equations = 0;
    let mut applied = Vec::new();
    for s in &f.sets {
        let oa_format = s.oa_format.as_ref();
        let (caps, format) = match formats.for_set(oa_format.map(|o| o.value.as_str())) {
            Ok((c, name)) => (c, name.map(str::to_string)),
            Err(message) => {
                diags.push(Diagnostic {
                    code: Code::EquationType,
                    file: f.file.clone(),
                    pos: oa_format.map_or(s.pos, |o| o.pos),
                    item: s.symbol_name.clone(),
                    message,
                });
                (formats.union, None)
            }
        };
        let caps = &caps;
        let mut counters_map = HashMap::new();
        for (i, c) in s.counters.iter().enumerate() {
            counters_map
                .entry(c.symbol_name.as_str())
                .or_insert((i, data_type(&c.data_type)));
        }
        let mut fc = FileChecker {
            file: &f.file,
            checker: Checker {
                caps,
                counters: counters_map,
            },
            equations: 0,
            ok: true,
        };
        let mut counters = Vec::new();
        for c in &s.counters {
            let item = format!("{}.{}", s.symbol_name, c.symbol_name);
            let declared = data_type(&c.data_type);
            if declared.is_none() {
                fc.ok = false;
                diags.push(Diagnostic {
                    code: Code::EquationType,
                    file: f.file.clone(),
                    pos: c.pos,
                    item: item.clone(),
                    message: format!(
                        "data_type {:?}; expected uint64, float or double",
                        c.data_type
                    ),
                });
            }
            let erratum =
                super::errata::find(errata, &s.symbol_name, &c.symbol_name, &c.equation.value);
            let eq = match erratum {
                Some(e) if e.fix == Fix::TruncateToUint && declared == Some(Type::Int) => fc
                    .run(&item, &c.equation, Use::Value, diags)
                    .filter(|t| t.ty == Type::Float)
                    .inspect(|_| applied.push((item.clone(), e.clone()))),
                _ => {
                    let v = fc.value(
                        &item,
                        &c.equation,
                        "equation",
                        declared,
                        &c.data_type,
                        diags,
                    );
                    match erratum {
                        // The erratum applies where the equation reads MPEC.
                        Some(e) if e.fix == Fix::IgtReadsHeader => v
                            .filter(|t| {
                                let mut mpec = false;
                                t.expr.visit(&mut |x| {
                                    mpec |= matches!(x.kind, ExprKind::Read(Source::Mpec, _))
                                });
                                mpec
                            })
                            .inspect(|_| applied.push((item.clone(), e.clone()))),
                        _ => v,
                    }
                }
            };
            if erratum.is_some() && eq.is_none() && fc.ok {
                // The erratum's fix does not fit this counter: say so.
                fc.ok = false;
                diags.push(Diagnostic {
                    code: Code::EquationType,
                    file: f.file.clone(),
                    pos: c.equation.pos,
                    item: item.clone(),
                    message: format!(
                        "the erratum of {} line {} does not fit: {}",
                        super::errata::FILE,
                        erratum.map_or(0, |e| e.line),
                        match erratum.map(|e| e.fix) {
                            Some(Fix::IgtReadsHeader) => "its fix is for an equation reading `A n` of a set whose format has MPEC counters",
                            _ => "its fix is for a float equation of a uint64 counter",
                        }
                    ),
                });
            }
            let max = c
                .max_equation
                .as_ref()
                .map(|m| fc.value(&item, m, "max_equation", declared, &c.data_type, diags));
            let avail = c
                .availability
                .as_ref()
                .map(|a| fc.run(&item, a, Use::Availability, diags));
            if let (Some(ty), Some(equation), Some(max), Some(availability)) =
                (declared, eq, present(max), present(avail))
            {
                counters.push(CheckedCounter {
                    ty,
                    equation,
                    max,
                    availability,
                });
            } else {
                fc.ok = false;
            }
        }
        let mut configs = Vec::new();
        for (k, rc) in s.configs.iter().enumerate() {
            let item = format!("{}.register_config[{k}]", s.symbol_name);
            configs.push(
                rc.availability
                    .as_ref()
                    .and_then(|a| fc.run(&item, a, Use::Availability, diags)),
            );
        }
        if fc.ok {
            cycles(f, s, &counters, diags);
        }
        equations += fc.equations;
        sets.push(CheckedSet {
            counters,
            configs,
            format,
        });
    }
    (diags.0.len() == before).then_some(CheckedFile {
        sets,
        equations,
        errata: applied,
    })
}

/// An optional item that is present but failed -> `None`; absent -> `Some(None)`.
fn present<T>(o: Option<Option<T>>) -> Option<Option<T>> {
    match o {
        None => Some(None),
        Some(None) => None,
        Some(Some(t)) => Some(Some(t)),
    }
}

struct FileChecker<'a> {
    file: &'a str,
    checker: Checker<'a>,
    equations: usize,
    ok: bool,
}

impl FileChecker<'_> {
    /// Parse and type one text.
    fn run(
        &mut self,
        item: &str,
        text: &Located<String>,
        u: Use,
        diags: &mut Diagnostics,
    ) -> Option<Typed> {
        self.equations += 1;
        let Some(mut e) = parse(self.file, item, text, diags) else {
            self.ok = false;
            return None;
        };
        let ty = self.checker.ty(&mut e, u).and_then(|ty| {
            if u == Use::Availability && ty == Type::Float {
                Err((
                    text.pos,
                    "an availability gives a float; expected a boolean or an integer".into(),
                ))
            } else {
                Ok(ty)
            }
        });
        match ty {
            Ok(ty) => Some(Typed { expr: e, ty }),
            Err((pos, msg)) => {
                self.ok = false;
                diags.push(Diagnostic {
                    code: Code::EquationType,
                    file: self.file.into(),
                    pos,
                    item: item.into(),
                    message: msg,
                });
                None
            }
        }
    }
    /// An equation or max equation of a counter declared `declared`.
    fn value(
        &mut self,
        item: &str,
        text: &Located<String>,
        what: &str,
        declared: Option<Type>,
        data_type: &str,
        diags: &mut Diagnostics,
    ) -> Option<Typed> {
        let t = self.run(item, text, Use::Value, diags)?;
        let fits = !matches!(
            (declared?, t.ty),
            (_, Type::Bool) | (Type::Int, Type::Float)
        );
        if !fits {
            self.ok = false;
            diags.push(Diagnostic {
                code: Code::EquationType,
                file: self.file.into(),
                pos: text.pos,
                item: item.into(),
                message: format!(
                    "the {what} gives a {} but the counter's data_type is {data_type}",
                    t.ty.as_str()
                ),
            });
            return None;
        }
        Some(t)
    }
}

/// Report counters whose equations refer to each other in a cycle (PR205, at
/// the equation of the first counter of the cycle in file order).
fn cycles(
    f: &MetricFile,
    s: &super::model::MetricSet,
    counters: &[CheckedCounter],
    diags: &mut Diagnostics,
) {
    let deps: Vec<Vec<usize>> = counters
        .iter()
        .map(|c| {
            let mut d = Vec::new();
            c.equation.expr.visit(&mut |e| {
                if let ExprKind::Counter(i) = e.kind {
                    d.push(i);
                }
            });
            d
        })
        .collect();
    // 0: unvisited, 1: on the path, 2: done.
    let mut state = vec![0u8; counters.len()];
    for start in 0..counters.len() {
        if state[start] != 0 {
            continue;
        }
        // Iterative DFS: (node, next dependency to visit).
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (n, ref mut next)) = path.last_mut() {
            if let Some(&d) = deps[n].get(*next) {
                *next += 1;
                match state[d] {
                    0 => {
                        state[d] = 1;
                        path.push((d, 0));
                    }
                    1 => {
                        let from = path.iter().position(|&(p, _)| p == d).unwrap_or(0);
                        let mut names: Vec<&str> = path[from..]
                            .iter()
                            .map(|&(p, _)| s.counters[p].symbol_name.as_str())
                            .collect();
                        names.push(s.counters[d].symbol_name.as_str());
                        let first = path[from..].iter().map(|&(p, _)| p).min().unwrap_or(d);
                        let c = &s.counters[first];
                        diags.push(Diagnostic {
                            code: Code::EquationType,
                            file: f.file.clone(),
                            pos: c.equation.pos,
                            item: format!("{}.{}", s.symbol_name, c.symbol_name),
                            message: format!(
                                "counters refer to each other in a cycle: {}",
                                names.join(" -> ")
                            ),
                        });
                    }
                    _ => {}
                }
            } else {
                state[n] = 2;
                path.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::{Counter, MetricSet, RegisterConfig};
    use super::*;

    fn at(line: usize, column: usize) -> Pos {
        Pos { line, column }
    }

    fn loc(s: &str) -> Located<String> {
        Located::new(s.into(), at(10, 20))
    }

    fn parse_err(s: &str) -> (Code, Pos, String) {
        let mut d = Diagnostics::default();
        assert!(parse("f.xml", "S.C", &loc(s), &mut d).is_none(), "{s}");
        let d = &d.0[0];
        (d.code, d.pos, d.message.clone())
    }

    #[test]
    fn parses_rpn_in_order() {
        let mut d = Diagnostics::default();
        let e = parse("f", "i", &loc("A 7 READ 0x10 UDIV"), &mut d).expect("parses");
        let ExprKind::Op(Op::UDiv, a, b) = e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(a.kind, ExprKind::Read(Source::A, 7));
        assert_eq!(b.kind, ExprKind::Int(16));
        assert_eq!((a.pos, b.pos, e.pos), (at(10, 24), at(10, 29), at(10, 34)));
        for op in Op::ALL {
            let text = format!("1 2 {}", op.as_str());
            assert!(parse("f", "i", &loc(&text), &mut d).is_some(), "{text}");
        }
        assert!(d.is_empty());
    }

    #[test]
    fn parse_errors_name_the_token_where_it_is() {
        // (text, column of the token blamed, what the message says)
        for (text, column, says) in [
            ("A 1 READ 2 UPLUS", 31, "`UPLUS`"),
            ("1 UADD", 22, "two operands"),
            ("7 READ", 22, "READ"),
            ("A $X READ", 25, "integer literal index"),
            ("1 7 READ", 24, ""),
            // (An operator's node is at its token: `READ` here.)
            ("A 1 READ B 2 READ", 33, "left on the stack"),
            ("A 1 UADD", 20, "not a value"),
            ("  ", 20, "empty"),
            ("1 $ UADD", 22, ""),
            ("B", 20, ""),
        ] {
            let (c, p, m) = parse_err(text);
            assert_eq!((c, p), (Code::Equation, at(10, column)), "{text}");
            assert!(m.contains(says), "{text}: {m}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        // 20,000 nested operators overflowed the stack of the checker (and
        // of the interpreter, the emitter and `Drop`).
        let mut d = Diagnostics::default();
        let ok = format!("1{}", " 1 UADD".repeat(MAX_HEIGHT));
        assert!(parse("f", "i", &loc(&ok), &mut d).is_some());
        let right = format!(
            "{}{}",
            "1 ".repeat(MAX_HEIGHT + 1),
            "UADD ".repeat(MAX_HEIGHT)
        );
        assert!(parse("f", "i", &loc(&right), &mut d).is_some());
        assert!(d.is_empty());
        for deep in [
            format!("1{}", " 1 UADD".repeat(20_000)),
            format!("{}{}", "1 ".repeat(20_001), "UADD ".repeat(20_000)),
        ] {
            let (c, p, m) = parse_err(&deep);
            assert_eq!(c, Code::Equation);
            assert!(m.contains("deeper than 256"), "{m}");
            assert_eq!(p.line, 10);
        }
        // Left-deep: the 257th operator, at token 2 * 257.
        let (_, p, _) = parse_err(&format!("1{}", " 1 UADD".repeat(MAX_HEIGHT + 1)));
        assert_eq!(p, at(10, 20 + 1 + 7 * MAX_HEIGHT + 3));
    }

    fn counter(sym: &str, ty: &str, eq: &str) -> Counter {
        Counter {
            name: sym.into(),
            symbol_name: sym.into(),
            underscore_name: sym.to_lowercase(),
            data_type: ty.into(),
            equation: loc(eq),
            pos: at(3, 5),
            ..Counter::default()
        }
    }

    fn file(counters: Vec<Counter>) -> MetricFile {
        MetricFile {
            file: "f.xml".into(),
            sets: vec![MetricSet {
                symbol_name: "S".into(),
                counters,
                ..MetricSet::default()
            }],
        }
    }

    const CAPS: ReportCaps = ReportCaps {
        a: 36,
        b: 8,
        c: 8,
        gpu_time: true,
        gpu_clock: false,
        perfcnt: 2,
        pec: 0,
        mpec: 0,
    };

    fn check(f: &MetricFile) -> Result<CheckedFile, Vec<(Code, Pos, String, String)>> {
        let mut d = Diagnostics::default();
        check_file(f, &FormatCaps::single(CAPS), &[], &mut d).ok_or_else(|| {
            d.sorted()
                .into_iter()
                .map(|d| (d.code, d.pos, d.item, d.message))
                .collect()
        })
    }

    fn type_err(counters: Vec<Counter>) -> (Code, Pos, String, String) {
        let e = check(&file(counters)).expect_err("a type error");
        e.into_iter().next().expect("one")
    }

    #[test]
    fn types_follow_the_rules() {
        let f = file(vec![
            counter("I", "uint64", "A 1 READ $EuCoresTotalCount UMUL"),
            counter("F", "float", "$I 2 FDIV"),
            counter("G", "float", "$I 100 UMUL"),
            counter("H", "uint64", "A 1 READ A 2 READ FADD 2 UDIV"),
        ]);
        let c = check(&f).expect("clean");
        let s = &c.sets[0];
        assert_eq!(
            s.counters.iter().map(|c| c.equation.ty).collect::<Vec<_>>(),
            [Type::Int, Type::Float, Type::Int, Type::Int]
        );
        let mut refs = Vec::new();
        s.counters[1].equation.expr.visit(&mut |e| {
            if let ExprKind::Counter(i) = e.kind {
                refs.push(i)
            }
        });
        assert_eq!(refs, [0]);
        assert_eq!(c.equations, 4);
    }

    #[test]
    fn type_errors_are_pr205_where_they_are() {
        // A float where a uint64 counter is declared.
        let (c, p, item, m) = type_err(vec![counter("X", "uint64", "A 1 READ 2 FDIV")]);
        assert_eq!(
            (c, p, item.as_str()),
            (Code::EquationType, at(10, 20), "S.X")
        );
        assert!(m.contains("float") && m.contains("uint64"), "{m}");
        // A boolean operand of an integer operator.
        let (c, p, _, m) = type_err(vec![counter("X", "uint64", "true 1 UADD")]);
        assert_eq!((c, p), (Code::EquationType, at(10, 27)));
        assert!(m.contains("boolean"), "{m}");
        // A float operand of AND.
        let (_, p, _, _) = type_err(vec![counter("X", "uint64", "1 2 FADD 1 AND")]);
        assert_eq!(p, at(10, 31));
        // Reads beyond the reports.
        let (_, p, _, m) = type_err(vec![counter("X", "uint64", "A 36 READ")]);
        assert_eq!(p, at(10, 25));
        assert!(m.contains("0..=35"), "{m}");
        let (_, _, _, m) = type_err(vec![counter("X", "uint64", "GPU_CLOCK 0 READ")]);
        assert!(m.contains("none"), "{m}");
        let (_, _, _, m) = type_err(vec![counter("X", "uint64", "GPU_TIME 1 READ")]);
        assert!(m.contains("only index 0"), "{m}");
        // Unknown names.
        let (_, p, _, m) = type_err(vec![counter("X", "uint64", "1 $Nope UADD")]);
        assert_eq!(p, at(10, 22));
        assert!(m.contains("$Nope"), "{m}");
        // A bad data type.
        let (_, p, _, m) = type_err(vec![counter("X", "int8", "1")]);
        assert_eq!(p, at(3, 5));
        assert!(m.contains("int8"), "{m}");
        // Availability: device only.
        let mut x = counter("X", "uint64", "1");
        x.availability = Some(loc("A 1 READ"));
        let (_, p, _, m) = type_err(vec![x]);
        assert_eq!(p, at(10, 24));
        assert!(m.contains("availability"), "{m}");
        let mut x = counter("X", "uint64", "1");
        x.availability = Some(loc("$X"));
        assert!(type_err(vec![x]).3.contains("cannot name counter"));
    }

    #[test]
    fn cycles_are_pr205() {
        let e = check(&file(vec![
            counter("A0", "uint64", "1"),
            counter("P", "uint64", "$Q 1 UADD"),
            counter("Q", "uint64", "$R"),
            counter("R", "uint64", "$P $A0 UADD"),
        ]))
        .expect_err("cycle");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].0, e[0].2.as_str()), (Code::EquationType, "S.P"));
        assert!(e[0].3.contains("P -> Q -> R -> P"), "{}", e[0].3);
        // A counter's max equation may name itself.
        let mut p = counter("P", "uint64", "A 1 READ");
        p.max_equation = Some(loc("$P 2 UMUL"));
        assert!(check(&file(vec![p])).is_ok());
    }

    #[test]
    fn config_availability_is_checked() {
        let mut f = file(vec![]);
        f.sets[0].configs.push(RegisterConfig {
            kind: crate::ir::ConfigKind::Noa,
            availability: Some(loc("$SliceMask 0x01 AND")),
            writes: vec![],
            pos: at(1, 1),
        });
        let c = check(&f).expect("clean");
        assert_eq!(c.sets[0].configs[0].as_ref().map(|t| t.ty), Some(Type::Int));
        f.sets[0].configs[0].availability = Some(loc("$SliceMask 0x01 FADD"));
        let e = check(&f).expect_err("a float condition");
        assert_eq!(e[0].2, "S.register_config[0]");
    }
}
