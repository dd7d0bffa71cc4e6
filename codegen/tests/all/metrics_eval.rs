//! Equations evaluated from their text, against values computed by hand:
//! the operand order of every operator that is not commutative (so a parser
//! or an emitter that swaps operands fails here, although the generated code
//! and the interpreter share the parser), and the `uint64_t` arithmetic of
//! IGT's C for `FADD`, `FSUB` and `FMUL` of two integers.

use perfregs_codegen::diag::{Diagnostics, Pos};
use perfregs_codegen::metrics::equation::{self, CheckedFile, Op, OpClass, ReportCaps};
use perfregs_codegen::metrics::interp::{self, DeviceInfo, Sample, Value};
use perfregs_codegen::metrics::model::{Counter, Located, MetricFile, MetricSet};
use std::collections::HashMap;

const CAPS: ReportCaps = ReportCaps {
    a: 36,
    b: 8,
    c: 8,
    gpu_time: true,
    gpu_clock: true,
    perfcnt: 2,
    pec: 0,
    mpec: 0,
};

/// One set, one counter per `(data_type, equation, availability)`, checked.
fn checked(counters: &[(&str, &str, Option<&str>)]) -> (MetricFile, CheckedFile) {
    let loc = |t: &str| Located::new(t.to_string(), Pos::default());
    let counters = counters
        .iter()
        .enumerate()
        .map(|(k, (ty, eq, avail))| Counter {
            name: format!("C{k}"),
            symbol_name: format!("C{k}"),
            underscore_name: format!("c{k}"),
            data_type: (*ty).into(),
            equation: loc(eq),
            availability: avail.map(loc),
            ..Counter::default()
        })
        .collect();
    let f = MetricFile {
        file: "t.xml".into(),
        sets: vec![MetricSet {
            symbol_name: "T".into(),
            underscore_name: "t".into(),
            counters,
            ..MetricSet::default()
        }],
    };
    let mut d = Diagnostics::default();
    let c = equation::check_file(&f, &equation::FormatCaps::single(CAPS), &[], &mut d);
    assert!(d.is_empty(), "{:?}", d.sorted());
    (f, c.expect("checks"))
}

/// The value of `eq` as a counter of type `ty` on `s`.
fn eval(ty: &str, eq: &str, s: &Sample) -> Option<Value> {
    let (_, c) = checked(&[(ty, eq, None)]);
    interp::counter(&c.sets[0], 0, s, &DeviceInfo::default())
}

fn int(eq: &str) -> u64 {
    match eval("uint64", eq, &Sample::default()) {
        Some(Value::Int(v)) => v,
        other => panic!("{eq}: {other:?}"),
    }
}

fn float(eq: &str) -> f64 {
    match eval("float", eq, &Sample::default()) {
        Some(Value::Float(v)) => v,
        other => panic!("{eq}: {other:?}"),
    }
}

/// A boolean equation, evaluated as a counter's availability.
fn truth(cond: &str) -> bool {
    let (_, c) = checked(&[("uint64", "1", Some(cond))]);
    interp::counter_available(&c.sets[0], 0, &DeviceInfo::default()).expect("counter 0")
}

#[test]
fn operands_pop_in_rpn_order() {
    // `a b OP` is `a OP b`: each case has a different value with the operands swapped.
    assert_eq!(int("7 2 USUB"), 5); // swapped: 2 - 7 wraps to 2^64 - 5
    assert_eq!(int("7 2 UDIV"), 3); // swapped: 2 / 7 = 0
    assert_eq!(int("1 4 <<"), 16); // swapped: 4 << 1 = 8
    assert_eq!(int("16 2 >>"), 4); // swapped: 2 >> 16 = 0
    assert_eq!(float("7 2 FSUB"), 5.0); // swapped: 2^64 - 5 as f64
    assert_eq!(float("7 2 FDIV"), 3.5); // swapped: 2 / 7
    assert!(truth("2 7 ULT")); // swapped: 7 < 2 is false
    assert!(!truth("7 2 ULT"));
    assert!(truth("7 7 ULTE") && truth("2 7 ULTE") && !truth("7 2 ULTE"));
    assert!(truth("7 2 UGT") && !truth("2 7 UGT"));
    assert!(truth("7 7 UGTE") && truth("7 2 UGTE") && !truth("2 7 UGTE"));
    // Nested: ((10 - 4) / 3) << 2 = 8, with every operand order visible.
    assert_eq!(int("10 4 USUB 3 UDIV 2 <<"), 8);
    // A float first operand of USUB: in f64, stored as an integer.
    assert_eq!(int("7 2 FDIV 1 USUB"), 2); // 3.5 - 1 = 2.5 -> 2
    assert_eq!(int("1 7 2 FDIV USUB"), 0); // 1 - 3.5 = -2.5 -> 0 (saturating)
                                           // Reads in order: A 1 = 100, A 2 = 30.
    let mut s = Sample::default();
    s.a[1] = Some(100);
    s.a[2] = Some(30);
    assert_eq!(
        eval("uint64", "A 1 READ A 2 READ USUB", &s),
        Some(Value::Int(70))
    );
    assert_eq!(
        eval("float", "A 2 READ A 1 READ FDIV", &s),
        Some(Value::Float(0.3))
    );
}

#[test]
fn integer_fadd_fsub_fmul_wrap_as_igt_c() {
    // IGT: `double tmp2 = tmp0 + tmp1;` with two uint64_t: wraps, then converts.
    let mut s = Sample::default();
    s.a[7] = Some((1 << 63) + 5);
    s.a[8] = Some((1 << 63) + 7);
    assert_eq!(
        eval("float", "A 7 READ A 8 READ FADD", &s),
        Some(Value::Float(12.0))
    );
    // 3 - 5 in uint64_t is 2^64 - 2, which rounds to 2^64 as f64.
    assert_eq!(float("3 5 FSUB"), 18_446_744_073_709_551_614u64 as f64);
    assert_eq!(float("3 5 FSUB"), 18_446_744_073_709_551_616.0);
    // 2^32 * 2^32 wraps to 0; 2^32 * 3 does not wrap.
    assert_eq!(float("4294967296 4294967296 FMUL"), 0.0);
    assert_eq!(float("4294967296 3 FMUL"), 12_884_901_888.0);
    // With a float operand the integer converts first: no wrapping.
    assert_eq!(float("3 1 FDIV 5 FSUB"), -2.0);
    // FDIV and FMAX always convert first.
    assert_eq!(float("3 5 FMAX"), 5.0);
    assert_eq!(float("1 4 FDIV"), 0.25);
}

#[test]
fn the_emitter_keeps_operand_order_and_igt_integer_arithmetic() {
    // Every operator on `7 2`: as an equation, comparisons as an availability.
    let texts: Vec<(Op, String)> = Op::ALL
        .iter()
        .map(|op| (*op, format!("7 2 {}", op.as_str())))
        .collect();
    let counters: Vec<(&str, &str, Option<&str>)> = texts
        .iter()
        .map(|(op, t)| match op.class() {
            OpClass::Float => ("float", t.as_str(), None),
            OpClass::Int => ("uint64", t.as_str(), None),
            OpClass::Compare | OpClass::Logic => ("uint64", "1", Some(t.as_str())),
        })
        .collect();
    let (f, c) = checked(&counters);
    let code = perfregs_codegen::metrics::emit::emit_file("t", "bdw", &f, &c, &HashMap::new());
    let code: String = code.split_whitespace().collect();
    for (helper, want) in [
        ("usub", "usub(7u64,2u64)"),
        ("udiv", "udiv(7u64,2u64)"),
        ("shl", "shl(7u64,2u64)"),
        ("shr", "shr(7u64,2u64)"),
        ("fsub", "fl(usub(7u64,2u64))"),
        ("fadd", "fl(uadd(7u64,2u64))"),
        ("fmul", "fl(umul(7u64,2u64))"),
        ("fdiv", "fdiv(fl(7u64),fl(2u64))"),
        ("fmax", "fmax(fl(7u64),fl(2u64))"),
        ("ult", "ult(7u64,2u64)"),
        ("ulte", "ulte(7u64,2u64)"),
        ("ugt", "ugt(7u64,2u64)"),
        ("ugte", "ugte(7u64,2u64)"),
    ] {
        assert!(code.contains(want), "{helper}: no {want} in {code}");
    }
}

#[test]
fn names_that_are_not_rust_fail_the_build_loudly() {
    let (f, c) = checked(&[("uint64", "A 1 READ", None)]);
    let bad_module =
        perfregs_codegen::metrics::emit::emit_file("t-1", "bdw", &f, &c, &HashMap::new());
    assert!(
        bad_module.contains("compile_error!")
            && bad_module.contains("`t-1` is not a Rust identifier"),
        "{bad_module}"
    );
    let mut keyword = f.clone();
    keyword.sets[0].counters[0].underscore_name = "fn".into();
    let bad_counter =
        perfregs_codegen::metrics::emit::emit_file("t", "bdw", &keyword, &c, &HashMap::new());
    assert!(bad_counter.contains("compile_error!"), "{bad_counter}");
    let ok = perfregs_codegen::metrics::emit::emit_file("t", "bdw", &f, &c, &HashMap::new());
    assert!(
        !ok.contains("compile_error!") && ok.contains("pub fn c0"),
        "{ok}"
    );
}

#[test]
fn load_errors_are_errors() {
    let ir = perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
        .expect("shipped descriptions");
    let diags = perfregs_codegen::metrics::load(&ir, "bdw", "bad.xml", "<metrics", &[])
        .expect_err("not XML");
    let first: Box<dyn std::error::Error> = Box::new(diags[0].clone());
    assert!(first.to_string().starts_with("error[PR"), "{first}");
}
