//! Run-time evaluation of checked counter equations (for metric sets loaded
//! at run time, and as the reference the generated Rust is tested against).
//!
//! The semantics are those of [`equation`](super::equation)'s module
//! documentation. A read of a counter the [`Sample`] does not have makes the
//! value unavailable (`None`), never 0.

use super::equation::{CheckedSet, Expr, ExprKind, Op, Type, Typed};

pub use perfregs_types::sample::{
    DeviceInfo, Sample, A_COUNTERS, B_COUNTERS, C_COUNTERS, MPEC_COUNTERS, PEC_COUNTERS,
    PERFCNT_COUNTERS,
};

/// A typed value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// An integer.
    Int(u64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
}

impl Value {
    /// Its type.
    pub fn ty(self) -> Type {
        match self {
            Value::Int(_) => Type::Int,
            Value::Float(_) => Type::Float,
            Value::Bool(_) => Type::Bool,
        }
    }
    /// As a float (integers convert to the nearest `f64`); `None` for a boolean.
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            Value::Bool(_) => None,
        }
    }
    /// As an integer (a float truncated toward zero, saturating; NaN gives
    /// 0); `None` for a boolean.
    pub fn as_u64(self) -> Option<u64> {
        match self {
            Value::Int(i) => Some(i),
            Value::Float(f) => Some(f as u64),
            Value::Bool(_) => None,
        }
    }
    /// As a condition: a boolean, or an integer (true when non-zero).
    pub fn truthy(self) -> Option<bool> {
        match self {
            Value::Int(i) => Some(i != 0),
            Value::Bool(b) => Some(b),
            Value::Float(_) => None,
        }
    }
    /// Converted to a counter's declared type (an integer to a float
    /// counter; a float to an integer counter, truncated, under an erratum).
    fn convert(self, to: Type) -> Option<Value> {
        match (self, to) {
            (v, t) if v.ty() == t => Some(v),
            (Value::Int(i), Type::Float) => Some(Value::Float(i as f64)),
            // Only through an erratum (`errata::Fix::TruncateToUint`): as IGT's C.
            (Value::Float(f), Type::Int) => Some(Value::Int(f as u64)),
            _ => None,
        }
    }
}

/// Apply `op` to two values (`None` when the types do not fit, which a
/// checked expression never does).
pub fn apply(op: Op, a: Value, b: Value) -> Option<Value> {
    use Value::{Bool, Float, Int};
    Some(match (op, a, b) {
        (Op::UAdd, Int(a), Int(b)) => Int(a.wrapping_add(b)),
        (Op::USub, Int(a), Int(b)) => Int(a.wrapping_sub(b)),
        (Op::UMul, Int(a), Int(b)) => Int(a.wrapping_mul(b)),
        (Op::UDiv, Int(a), Int(b)) => Int(a.checked_div(b).unwrap_or(0)),
        (Op::UMin, Int(a), Int(b)) => Int(a.min(b)),
        (Op::And, Int(a), Int(b)) => Int(a & b),
        (Op::Or, Int(a), Int(b)) => Int(a | b),
        (Op::Shl, Int(a), Int(b)) => Int(if b >= 64 { 0 } else { a << b }),
        (Op::Shr, Int(a), Int(b)) => Int(if b >= 64 { 0 } else { a >> b }),
        (Op::ULt, Int(a), Int(b)) => Bool(a < b),
        (Op::ULte, Int(a), Int(b)) => Bool(a <= b),
        (Op::UGt, Int(a), Int(b)) => Bool(a > b),
        (Op::UGte, Int(a), Int(b)) => Bool(a >= b),
        (Op::Eq, Int(a), Int(b)) => Bool(a == b),
        (Op::LAnd, a, b) => Bool(a.truthy()? & b.truthy()?),
        // A float operand of an integer operator: as the C IGT generates.
        (Op::UDiv, a @ (Int(_) | Float(_)), b @ (Int(_) | Float(_))) => {
            let (a, b) = (a.as_u64()?, b.as_u64()?);
            Int(a.checked_div(b).unwrap_or(0))
        }
        (Op::UAdd | Op::USub | Op::UMul | Op::UMin, Float(_), Int(_) | Float(_))
        | (Op::UAdd | Op::USub | Op::UMul | Op::UMin, Int(_), Float(_)) => {
            let (a, b) = (a.as_f64()?, b.as_f64()?);
            let r = match op {
                Op::UAdd => a + b,
                Op::USub => a - b,
                Op::UMul => a * b,
                _ => {
                    if a < b {
                        a
                    } else {
                        b
                    }
                }
            };
            Int(r as u64)
        }
        // FADD FSUB FMUL of two integers: IGT's C computes in `uint64_t`
        // (wrapping) and converts the result to `double`.
        (Op::FAdd, Int(a), Int(b)) => Float(a.wrapping_add(b) as f64),
        (Op::FSub, Int(a), Int(b)) => Float(a.wrapping_sub(b) as f64),
        (Op::FMul, Int(a), Int(b)) => Float(a.wrapping_mul(b) as f64),
        (Op::FAdd | Op::FSub | Op::FMul | Op::FDiv | Op::FMax, a, b) => {
            let (a, b) = (a.as_f64()?, b.as_f64()?);
            Float(match op {
                Op::FAdd => a + b,
                Op::FSub => a - b,
                Op::FMul => a * b,
                Op::FDiv => {
                    if b != 0.0 {
                        a / b
                    } else {
                        0.0
                    }
                }
                _ => {
                    if a > b {
                        a
                    } else {
                        b
                    }
                }
            })
        }
        _ => return None,
    })
}

/// Evaluate `e` (an expression of `set`) on a sample and a device. `None`:
/// it reads something the sample lacks.
pub fn eval(set: &CheckedSet, e: &Expr, s: &Sample, d: &DeviceInfo) -> Option<Value> {
    let mut memo = Memo::new(set, s, d);
    let mut needed = Vec::new();
    e.visit(&mut |x| {
        if let ExprKind::Counter(i) = x.kind {
            needed.push(i);
        }
    });
    for i in needed {
        memo.compute(i);
    }
    memo.eval(e)
}

/// Counter values of one sample and device, each computed once (a counter
/// named by many others is not evaluated again for each: no exponential
/// time), dependencies first and without recursion from counter to counter
/// (a long chain of counters does not deepen the stack).
struct Memo<'a> {
    set: &'a CheckedSet,
    s: &'a Sample,
    d: &'a DeviceInfo,
    /// `None`: not computed yet.
    values: Vec<Option<Option<Value>>>,
    /// Counters whose dependencies are being computed (a cycle check).
    on_path: Vec<bool>,
    /// Counters to compute: (counter, its dependencies already pushed).
    stack: Vec<(usize, bool)>,
}

impl<'a> Memo<'a> {
    fn new(set: &'a CheckedSet, s: &'a Sample, d: &'a DeviceInfo) -> Self {
        Memo {
            set,
            s,
            d,
            values: vec![None; set.counters.len()],
            on_path: vec![false; set.counters.len()],
            stack: Vec::new(),
        }
    }

    /// Compute counter `i` and what it depends on (`None`: out of range, or
    /// in a cycle, which a checked set never has).
    fn compute(&mut self, i: usize) -> Option<Value> {
        let n = self.set.counters.len();
        if i >= n {
            return None;
        }
        // Scratch space kept across calls (`counters` computes every counter).
        let (mut on_path, mut stack) = (
            std::mem::take(&mut self.on_path),
            std::mem::take(&mut self.stack),
        );
        stack.clear();
        stack.push((i, false));
        let mut cycle = false;
        while let Some((k, expanded)) = stack.pop() {
            if self.values.get(k).is_none_or(|v| v.is_some()) {
                continue;
            }
            if !expanded {
                if on_path[k] {
                    cycle = true;
                    break;
                }
                on_path[k] = true;
                stack.push((k, true));
                let set = self.set;
                set.counters[k].equation.expr.visit(&mut |e| {
                    if let ExprKind::Counter(dep) = e.kind {
                        stack.push((dep, false));
                    }
                });
            } else {
                on_path[k] = false;
                let c = &self.set.counters[k];
                let v = self.eval(&c.equation.expr).and_then(|v| v.convert(c.ty));
                self.values[k] = Some(v);
            }
        }
        if cycle {
            on_path.iter_mut().for_each(|p| *p = false);
        }
        (self.on_path, self.stack) = (on_path, stack);
        if cycle {
            return None;
        }
        self.values.get(i).copied().flatten().flatten()
    }

    /// Evaluate an expression whose counters are computed.
    fn eval(&self, e: &Expr) -> Option<Value> {
        match &e.kind {
            ExprKind::Int(i) => Some(Value::Int(*i)),
            ExprKind::Bool(b) => Some(Value::Bool(*b)),
            ExprKind::Read(src, n) => self.s.read(*src, *n).map(Value::Int),
            ExprKind::Device(v) => Some(Value::Int(self.d.get(*v))),
            ExprKind::Topology(t) => Some(Value::Int(self.d.topology(*t))),
            ExprKind::Counter(i) => self.values.get(*i).copied().flatten().flatten(),
            // Unresolved names do not survive checking.
            ExprKind::Var(_) => None,
            ExprKind::Op(op, a, b) => {
                let a = self.eval(a);
                let b = self.eval(b);
                apply(*op, a?, b?)
            }
        }
    }
}

/// Counter `i` of `set`: its equation, in its declared type (`None`:
/// unavailable on this sample).
pub fn counter(set: &CheckedSet, i: usize, s: &Sample, d: &DeviceInfo) -> Option<Value> {
    Memo::new(set, s, d).compute(i)
}

/// Every counter of `set` on one sample, in order (as [`counter`] for each,
/// but a counter named by others is computed once for all of them).
pub fn counters(set: &CheckedSet, s: &Sample, d: &DeviceInfo) -> Vec<Option<Value>> {
    let mut m = Memo::new(set, s, d);
    (0..set.counters.len()).map(|i| m.compute(i)).collect()
}

/// Counter `i`'s `max_equation`, in its declared type: `None` when it has
/// none, `Some(None)` when it is unavailable on this sample.
pub fn counter_max(
    set: &CheckedSet,
    i: usize,
    s: &Sample,
    d: &DeviceInfo,
) -> Option<Option<Value>> {
    let c = set.counters.get(i)?;
    let m = c.max.as_ref()?;
    Some(eval(set, &m.expr, s, d).and_then(|v| v.convert(c.ty)))
}

fn condition(set: &CheckedSet, t: Option<&Typed>, d: &DeviceInfo) -> Option<bool> {
    match t {
        None => Some(true),
        Some(t) => eval(set, &t.expr, &Sample::EMPTY, d)?.truthy(),
    }
}

/// Whether counter `i` exists on device `d` (its `availability`; true when
/// it has none). `None` only for an index out of range.
pub fn counter_available(set: &CheckedSet, i: usize, d: &DeviceInfo) -> Option<bool> {
    condition(set, set.counters.get(i)?.availability.as_ref(), d)
}

/// Whether `register_config` `k` applies on device `d`. `None` only for an
/// index out of range.
pub fn config_available(set: &CheckedSet, k: usize, d: &DeviceInfo) -> Option<bool> {
    condition(set, set.configs.get(k)?.as_ref(), d)
}

#[cfg(test)]
mod tests {
    use super::super::equation::Source;
    use super::*;

    #[test]
    fn operators_follow_igt() {
        use Value::{Bool, Float, Int};
        assert_eq!(apply(Op::UDiv, Int(7), Int(2)), Some(Int(3)));
        assert_eq!(apply(Op::UDiv, Int(7), Int(0)), Some(Int(0)));
        assert_eq!(apply(Op::FDiv, Int(7), Int(0)), Some(Float(0.0)));
        assert_eq!(apply(Op::FDiv, Int(7), Float(2.0)), Some(Float(3.5)));
        assert_eq!(apply(Op::USub, Int(1), Int(2)), Some(Int(u64::MAX)));
        assert_eq!(
            apply(Op::UMul, Int(u64::MAX), Int(2)),
            Some(Int(u64::MAX - 1))
        );
        assert_eq!(apply(Op::Shl, Int(1), Int(64)), Some(Int(0)));
        assert_eq!(apply(Op::Shr, Int(8), Int(3)), Some(Int(1)));
        assert_eq!(apply(Op::FMax, Float(1.0), Int(2)), Some(Float(2.0)));
        assert_eq!(apply(Op::ULt, Int(1), Int(2)), Some(Bool(true)));
        assert_eq!(apply(Op::LAnd, Bool(true), Int(0)), Some(Bool(false)));
        // A float operand of an integer operator, as IGT's C: UDIV truncates
        // its operands first, the others compute in f64.
        assert_eq!(apply(Op::UDiv, Float(7.9), Int(2)), Some(Int(3)));
        assert_eq!(apply(Op::UMul, Float(2.5), Int(3)), Some(Int(7)));
        assert_eq!(apply(Op::USub, Float(1.0), Int(2)), Some(Int(0)));
        // FADD FSUB FMUL of two integers wrap in u64 before the conversion;
        // with a float operand the other converts first; FDIV and FMAX
        // always convert first.
        let near = (1u64 << 63) + 5;
        assert_eq!(apply(Op::FAdd, Int(near), Int(near)), Some(Float(10.0)));
        assert_eq!(
            apply(Op::FAdd, Float(near as f64), Int(near)),
            Some(Float(2.0 * 9_223_372_036_854_775_808.0))
        );
        assert_eq!(
            apply(Op::FSub, Int(3), Int(5)),
            Some(Float(18_446_744_073_709_551_614u64 as f64))
        );
        assert_eq!(apply(Op::FSub, Float(3.0), Int(5)), Some(Float(-2.0)));
        assert_eq!(
            apply(Op::FMul, Int(1 << 32), Int(1 << 32)),
            Some(Float(0.0))
        );
        assert_eq!(
            apply(Op::FMul, Int(1 << 32), Int(3)),
            Some(Float(12_884_901_888.0))
        );
        assert_eq!(apply(Op::FMax, Int(3), Int(5)), Some(Float(5.0)));
        // Types a checked expression never mixes.
        assert_eq!(apply(Op::And, Float(1.0), Int(1)), None);
        assert_eq!(apply(Op::FAdd, Bool(true), Int(1)), None);
    }

    /// A set of `n` counters, counter `k` the sum of every earlier one
    /// (counter 0 reads A 0).
    fn sums(n: usize) -> CheckedSet {
        use super::super::equation::{CheckedCounter, Typed};
        let p = crate::diag::Pos::default();
        let leaf = |kind| Expr { kind, pos: p };
        let counters = (0..n)
            .map(|k| {
                let mut e = leaf(ExprKind::Read(Source::A, 0));
                for j in 0..k {
                    e = leaf(ExprKind::Op(
                        Op::UAdd,
                        Box::new(e),
                        Box::new(leaf(ExprKind::Counter(j))),
                    ));
                }
                CheckedCounter {
                    ty: Type::Int,
                    equation: Typed {
                        expr: e,
                        ty: Type::Int,
                    },
                    max: None,
                    availability: None,
                }
            })
            .collect();
        CheckedSet {
            counters,
            configs: vec![],
            format: None,
        }
    }

    #[test]
    fn each_counter_is_computed_once() {
        // Evaluated counter by counter, counter 60 took 2^60 evaluations.
        let set = sums(61);
        let mut s = Sample::EMPTY;
        s.a[0] = Some(1);
        let d = DeviceInfo::default();
        // c(k) = 1 + sum c(j<k) = 2^k.
        assert_eq!(counter(&set, 60, &s, &d), Some(Value::Int(1 << 60)));
        assert_eq!(counter(&set, 61, &s, &d), None);
        assert_eq!(counter(&set, 3, &Sample::EMPTY, &d), None);
    }

    #[test]
    fn a_long_chain_of_counters_does_not_recurse() {
        // Counter k = counter k-1 + A 0: 100,000 counters deep.
        use super::super::equation::{CheckedCounter, Typed};
        let p = crate::diag::Pos::default();
        let leaf = |kind| Expr { kind, pos: p };
        let n = 100_000;
        let counters = (0..n)
            .map(|k| {
                let read = leaf(ExprKind::Read(Source::A, 0));
                let expr = if k == 0 {
                    read
                } else {
                    leaf(ExprKind::Op(
                        Op::UAdd,
                        Box::new(leaf(ExprKind::Counter(k - 1))),
                        Box::new(read),
                    ))
                };
                CheckedCounter {
                    ty: Type::Int,
                    equation: Typed {
                        expr,
                        ty: Type::Int,
                    },
                    max: None,
                    availability: None,
                }
            })
            .collect();
        let set = CheckedSet {
            counters,
            configs: vec![],
            format: None,
        };
        let mut s = Sample::EMPTY;
        s.a[0] = Some(2);
        let d = DeviceInfo::default();
        assert_eq!(counter(&set, n - 1, &s, &d), Some(Value::Int(2 * n as u64)));
    }
}
