//! For every counter of every shipped set, the generated function and the
//! interpreter of `perfregs-codegen` agree: on samples and devices walking
//! a table of edge values, and on samples with counters missing (both
//! unavailable together).

use perfregs_codegen::metrics::interp::{self, Value as IValue};
use perfregs_codegen::metrics::load_shipped_texts;
use perfregs_metrics::{DeviceInfo, Sample, Value};
use std::path::Path;

/// Counter values that reach every path of the equations: 0 (division by
/// zero), small and counter-sized values, and values at 2^32, 2^61, 2^63
/// and 2^64 - 1 (integer sums and products that wrap).
const VALUES: [u64; 13] = [
    0,
    1,
    3,
    7,
    1_000,
    65_536,
    8_192_000,
    123_456_789,
    999_999_937,
    1 << 32,
    (1 << 61) + 21,
    (1 << 63) + 48,
    u64::MAX,
];

/// Inputs: a walk over [`VALUES`] by steps of 5 (every value in turn), one
/// step more after each 13 (neighbouring counters meet other values each
/// time round); deterministic.
struct Inputs(usize);
impl Inputs {
    fn index(&mut self) -> usize {
        self.0 += 1;
        self.0 * 5 + self.0 / 13
    }
    fn counter(&mut self) -> u64 {
        VALUES[self.index() % VALUES.len()]
    }
}

/// A sample with each counter present but for about one in `missing` (0:
/// none missing).
fn sample(r: &mut Inputs, missing: usize) -> Sample {
    let mut pick = || {
        let v = r.counter();
        (missing == 0 || r.index() % missing != 0).then_some(v)
    };
    let mut s = Sample::EMPTY;
    s.gpu_time = pick();
    s.gpu_clock = pick();
    let counters =
        s.a.iter_mut()
            .chain(&mut s.b)
            .chain(&mut s.c)
            .chain(&mut s.perfcnt)
            .chain(&mut s.pec)
            .chain(&mut s.mpec);
    for c in counters {
        *c = pick();
    }
    s
}

fn device(r: &mut Inputs) -> DeviceInfo {
    let mut v = || r.counter() % 5000;
    DeviceInfo {
        eu_cores_total_count: v(),
        eu_slices_total_count: v() % 4,
        eu_subslices_total_count: v() % 16,
        eu_threads_count: v() % 8,
        slice_mask: v(),
        subslice_mask: v(),
        dual_subslice_mask: v(),
        gpu_max_frequency: v() * 1_000_000,
        gpu_min_frequency: v() * 100_000,
        gpu_timestamp_frequency: v() * 10_000,
        query_mode: v() % 2,
        sku_revision_id: v() % 8,
        l3_bank_total_count: v() % 32,
        sqidi_total_count: v() % 8,
        l3_node_total_count: v() % 8,
        geometry_pipe_total_count: v() % 8,
        depth_pipe_total_count: v() % 8,
        color_pipe_total_count: v() % 8,
        subslices_per_slice: 1 + v() % 8,
    }
}

fn same(g: Option<Value>, i: Option<IValue>) -> bool {
    match (g, i) {
        (None, None) => true,
        (Some(Value::U64(a)), Some(IValue::Int(b))) => a == b,
        (Some(Value::F64(a)), Some(IValue::Float(b))) => {
            a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()) || (a.is_nan() && b.is_nan())
        }
        _ => false,
    }
}

#[test]
fn generated_and_interpreted_agree() {
    let ir =
        perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir())).expect("descriptions");
    let mut r = Inputs(0);
    let (mut checked_values, mut some, mut none, mut avail) = (0usize, 0usize, 0usize, 0usize);
    let shipped = load_shipped_texts(
        &ir,
        perfregs_regdefs::METRIC_SETS,
        perfregs_regdefs::METRIC_ERRATA,
    )
    .expect("clean");
    // The shipped files of the compiled projects, in the generated order.
    let shipped: Vec<_> = shipped
        .iter()
        .filter(|l| {
            perfregs_metrics::FILES
                .iter()
                .any(|(f, p, _)| *f == l.file && *p == l.project)
        })
        .collect();
    assert_eq!(shipped.len(), perfregs_metrics::FILES.len());
    for (l, (gfile, gproject, gsets)) in shipped.iter().zip(perfregs_metrics::FILES) {
        let file = l.file;
        assert_eq!((&l.file, &l.project), (gfile, gproject));
        let (f, c) = (&l.loaded.file, &l.loaded.checked);
        assert_eq!(c.sets.len(), gsets.len());
        for ((ms, cs), gs) in f.sets.iter().zip(&c.sets).zip(gsets.iter()) {
            assert_eq!(ms.symbol_name, gs.symbol);
            assert_eq!(ms.counters.len(), gs.counters.len());
            assert_eq!(ms.configs.len(), gs.configs.len());
            for (k, (mc, gc)) in ms.configs.iter().zip(gs.configs).enumerate() {
                let ws: Vec<(u64, u64)> = mc.writes.iter().map(|w| (w.address, w.value)).collect();
                assert_eq!(ws, gc.writes, "{} config {k}", ms.symbol_name);
            }
            for round in 0..8usize {
                let d = device(&mut r);
                // Rounds 0..4: every counter present; then more and more missing.
                let missing = [0, 0, 0, 0, 17, 5, 2, 1][round];
                let s = sample(&mut r, missing);
                for (i, gc) in gs.counters.iter().enumerate() {
                    let g = gc.value(&s, &d);
                    let v = interp::counter(cs, i, &s, &d);
                    assert!(
                        same(g, v),
                        "{file} {}.{}: generated {g:?}, interpreted {v:?}",
                        ms.symbol_name,
                        gc.symbol
                    );
                    if g.is_some() {
                        some += 1
                    } else {
                        none += 1
                    }
                    let gm = gc.max.map(|m| m.call(&s, &d));
                    let im = interp::counter_max(cs, i, &s, &d);
                    assert_eq!(gm.is_some(), im.is_some());
                    if let (Some(gm), Some(im)) = (gm, im) {
                        assert!(
                            same(gm, im),
                            "{file} {}.{} max: {gm:?} vs {im:?}",
                            ms.symbol_name,
                            gc.symbol
                        );
                    }
                    let ga = gc.is_available(&d);
                    assert_eq!(Some(ga), interp::counter_available(cs, i, &d));
                    avail += usize::from(ga);
                    checked_values += 1;
                }
                for (k, gb) in gs.configs.iter().enumerate() {
                    assert_eq!(
                        Some(gb.is_available(&d)),
                        interp::config_available(cs, k, &d)
                    );
                }
            }
        }
    }
    // Every counter of the generated files (12,544 in the 20 files of the
    // default features; 18,103 in all 28: regdefs/metricsets/README.md).
    let counters: usize = perfregs_metrics::FILES
        .iter()
        .flat_map(|(_, _, sets)| sets.iter())
        .map(|s| s.counters.len())
        .sum();
    assert!(counters >= 12_544, "{counters}");
    const COUNTERS: usize = 12_544;
    assert_eq!(checked_values, counters * 8);
    // Both outcomes happen: the comparison is not vacuous.
    assert!(
        some > COUNTERS * 3 && none > COUNTERS,
        "{some} available, {none} unavailable"
    );
    assert!(avail > 0 && avail < checked_values);
}

#[test]
fn test_oa_on_a_clock_like_sample() {
    use perfregs_metrics::bdw::test_oa;
    // B counters at the TestOa factors of a 6000-tick clock delta.
    let mut s = Sample::EMPTY;
    s.gpu_clock = Some(6000);
    s.gpu_time = Some(12_000);
    for (k, v) in [0, 6000, 6000, 3000, 2000, 2000, 1000, 4000]
        .into_iter()
        .enumerate()
    {
        s.b[k] = Some(v);
    }
    let d = DeviceInfo {
        gpu_timestamp_frequency: 12_000_000,
        ..DeviceInfo::default()
    };
    assert_eq!(test_oa::gpu_core_clocks(&s, &d), Some(6000));
    assert_eq!(test_oa::gpu_time(&s, &d), Some(1_000_000)); // ns
    assert_eq!(test_oa::avg_gpu_core_frequency(&s, &d), Some(6_000_000)); // 6000 cycles in 1 ms
    assert_eq!(test_oa::counter3(&s, &d), Some(3000));
    assert_eq!(test_oa::counter8(&s, &d), None, "C7 not measured");
    assert_eq!(test_oa::SET.symbol, "TestOa");
    assert!(perfregs_metrics::bdw::all()
        .iter()
        .any(|s| s.underscore == "test_oa"));
}

/// `CounterInfo::reads` (found by evaluating) is exactly what each
/// equation's tree reads, the counters it names included, for every
/// counter of every shipped set.
#[test]
fn reads_are_what_the_equations_read() {
    use perfregs_codegen::metrics::equation::ExprKind;
    use perfregs_metrics::Reads;
    let ir =
        perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir())).expect("descriptions");
    let shipped = load_shipped_texts(
        &ir,
        perfregs_regdefs::METRIC_SETS,
        perfregs_regdefs::METRIC_ERRATA,
    )
    .expect("clean");
    let (mut counters, mut read) = (0usize, 0usize);
    for (gfile, gproject, gsets) in perfregs_metrics::FILES {
        let l = shipped
            .iter()
            .find(|l| l.file == *gfile && l.project == *gproject)
            .expect("a shipped file of each generated one");
        let c = &l.loaded.checked;
        for (cs, gs) in c.sets.iter().zip(gsets.iter()) {
            // The tree's reads, counter by counter, to a fixed point (no
            // order of the counters assumed).
            let n = cs.counters.len();
            let mut tree = vec![Reads::NONE; n];
            loop {
                let mut changed = false;
                for i in 0..n {
                    let mut r = tree[i];
                    cs.counters[i].equation.expr.visit(&mut |e| match e.kind {
                        ExprKind::Read(src, k) => r.insert(src, k),
                        ExprKind::Counter(j) => r = r.union(tree[j]),
                        _ => {}
                    });
                    if r != tree[i] {
                        tree[i] = r;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for (i, gc) in gs.counters.iter().enumerate() {
                assert_eq!(gc.reads(), tree[i], "{gfile} {}.{}", gs.symbol, gc.symbol);
                counters += 1;
                read += usize::from(!tree[i].is_empty());
            }
        }
    }
    // Not vacuous: nearly every counter reads the report.
    assert!(counters >= 12_544, "{counters}");
    assert!(
        read > counters * 9 / 10,
        "{read} of {counters} read something"
    );
}
