//! Metric-set counters: every counter of every BDW set computed by the
//! generated functions (`perfregs-metrics`) against the run-time interpreter
//! (`perfregs_codegen::metrics::interp`, for XML loaded at run time), on the
//! same sample and device, in the same run. Both sides do the same work (one
//! vector of values per set) and are checked to give the same values before
//! either is timed.
//!
//! Run with `cargo bench -p perfregs-metrics --bench metrics`.

use divan::{black_box, Bencher};
use perfregs_codegen::metrics::{interp, load_shipped_texts, Loaded};
use perfregs_metrics::{DeviceInfo, Sample, Value};

fn sample() -> Sample {
    let mut s = Sample::EMPTY;
    s.gpu_time = Some(81_920);
    s.gpu_clock = Some(8_192);
    for (n, a) in s.a.iter_mut().enumerate().take(36) {
        *a = Some(1_000 + 37 * n as u64);
    }
    for (n, b) in s.b.iter_mut().enumerate() {
        *b = Some(8_192 / (n as u64 + 1));
    }
    for (n, c) in s.c.iter_mut().enumerate() {
        *c = Some(100 * n as u64);
    }
    s
}

fn device() -> DeviceInfo {
    hal::part("bdw", 2).expect("BDW GT2").device
}

/// The interpreter's copy of the BDW file.
fn interpreter() -> Loaded {
    let ir = perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
        .expect("shipped descriptions");
    let shipped = load_shipped_texts(
        &ir,
        perfregs_regdefs::METRIC_SETS,
        perfregs_regdefs::METRIC_ERRATA,
    )
    .expect("clean");
    let bdw = shipped.into_iter().find(|f| f.project == "bdw");
    bdw.expect("the BDW file").loaded
}

/// The work both sides time: every counter of every BDW set, in order, one
/// vector per set.
fn by_generated(s: &Sample, d: &DeviceInfo) -> Vec<Vec<Option<Value>>> {
    perfregs_metrics::bdw::ALL
        .iter()
        .map(|set| set.counters.iter().map(|c| c.value(s, d)).collect())
        .collect()
}

fn by_interpreter(l: &Loaded, s: &Sample, d: &DeviceInfo) -> Vec<Vec<Option<interp::Value>>> {
    l.checked
        .sets
        .iter()
        .map(|set| interp::counters(set, s, d))
        .collect()
}

/// Both sides give the same values (checked before either is timed).
fn check_equal() {
    let (s, d) = (sample(), device());
    let g = by_generated(&s, &d);
    let i = by_interpreter(&interpreter(), &s, &d);
    let as_interp = |v: &Option<Value>| match *v {
        Some(Value::U64(x)) => Some(interp::Value::Int(x)),
        Some(Value::F64(x)) => Some(interp::Value::Float(x)),
        None => None,
    };
    let g: Vec<Vec<_>> = g
        .iter()
        .map(|set| set.iter().map(as_interp).collect())
        .collect();
    assert_eq!(g, i, "generated and interpreted BDW counters differ");
    let n: usize = g.iter().map(Vec::len).sum();
    assert!(n > 500, "{n} counters");
}

#[divan::bench]
fn generated(bencher: Bencher) {
    let (s, d) = (sample(), device());
    let n: usize = perfregs_metrics::bdw::ALL
        .iter()
        .map(|x| x.counters.len())
        .sum();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| by_generated(black_box(&s), black_box(&d)));
}

#[divan::bench]
fn interpreted(bencher: Bencher) {
    let (l, s, d) = (interpreter(), sample(), device());
    let n: usize = l.checked.sets.iter().map(|x| x.counters.len()).sum();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| by_interpreter(&l, black_box(&s), black_box(&d)));
}

fn main() {
    check_equal();
    divan::main();
}
