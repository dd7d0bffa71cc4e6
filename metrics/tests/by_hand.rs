//! Shipped counters against values computed by hand from their equations
//! (the computation is written beside each expected value), through the
//! generated function and the interpreter of `perfregs-codegen` alike: both
//! must give the expected value exactly.

use perfregs_codegen::metrics::interp::{self, Value as IValue};
use perfregs_codegen::metrics::{load, Loaded};
use perfregs_metrics::{DeviceInfo, Sample, Value};
use std::sync::OnceLock;

/// Every shipped file, loaded for the interpreter: (file name, loaded).
fn loaded() -> &'static [(&'static str, Loaded)] {
    static L: OnceLock<Vec<(&'static str, Loaded)>> = OnceLock::new();
    L.get_or_init(|| {
        let ir = perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
            .expect("shipped descriptions");
        perfregs_regdefs::METRIC_SETS
            .iter()
            .map(|(file, project, text)| {
                let l = load(&ir, project, file, text).unwrap_or_else(|d| panic!("{file}: {d:?}"));
                (*file, l)
            })
            .collect()
    })
}

/// The interpreter's sample for `s`.
fn interp_sample(s: &Sample) -> interp::Sample {
    let mut i = interp::Sample::empty();
    (i.gpu_time, i.gpu_clock, i.a, i.b, i.c, i.perfcnt) =
        (s.gpu_time, s.gpu_clock, s.a, s.b, s.c, s.perfcnt);
    i
}

/// The interpreter's device for `d`.
fn interp_device(d: &DeviceInfo) -> interp::Device {
    interp::Device {
        eu_cores_total_count: d.eu_cores_total_count,
        eu_slices_total_count: d.eu_slices_total_count,
        eu_subslices_total_count: d.eu_subslices_total_count,
        eu_threads_count: d.eu_threads_count,
        slice_mask: d.slice_mask,
        subslice_mask: d.subslice_mask,
        dual_subslice_mask: d.dual_subslice_mask,
        gpu_max_frequency: d.gpu_max_frequency,
        gpu_min_frequency: d.gpu_min_frequency,
        gpu_timestamp_frequency: d.gpu_timestamp_frequency,
        query_mode: d.query_mode,
    }
}

/// Counter `counter` (underscore name) of set `set` of the shipped file
/// whose module is `module` (`bdw`, `tgl_gt2`, ...) on `s` and `d`: its
/// value and availability from the generated code, after checking that the
/// interpreter gives exactly the same.
fn counter(module: &str, set: &str, counter: &str, s: &Sample, d: &DeviceInfo) -> Counted {
    let (file, _, sets) = perfregs_metrics::FILES
        .iter()
        .find(|(f, p, _)| perfregs_codegen::metrics::emit::module_name(f, p) == module)
        .unwrap_or_else(|| panic!("no module {module}"));
    let k = sets
        .iter()
        .position(|x| x.underscore == set)
        .unwrap_or_else(|| panic!("no set {module}::{set}"));
    let n = sets[k]
        .counters
        .iter()
        .position(|c| c.underscore == counter)
        .unwrap_or_else(|| panic!("no counter {module}::{set}::{counter}"));
    let g = &sets[k].counters[n];
    let (_, l) = loaded().iter().find(|(f, _)| f == file).expect("loaded");
    let checked = &l.checked.sets[k];
    let (is, id) = (interp_sample(s), interp_device(d));
    let value = g.value(s, d);
    let want = match value {
        Some(Value::U64(v)) => Some(IValue::Int(v)),
        Some(Value::F64(v)) => Some(IValue::Float(v)),
        None => None,
    };
    let what = format!("{module}::{set}::{counter}");
    assert_eq!(
        interp::counter(checked, n, &is, &id),
        want,
        "{what}: interpreted vs generated"
    );
    let available = g.is_available(d);
    assert_eq!(
        interp::counter_available(checked, n, &id),
        Some(available),
        "{what}: availability"
    );
    Counted { value, available }
}

/// What [`counter`] found.
#[derive(Debug, PartialEq)]
struct Counted {
    value: Option<Value>,
    available: bool,
}

fn f(v: f64) -> Counted {
    Counted {
        value: Some(Value::F64(v)),
        available: true,
    }
}

#[test]
fn integer_fadd_and_fmul_wrap_in_u64_as_igt_c() {
    // tgl_gt2 L3_3 EuActive:
    //   A 7 READ A 8 READ FADD A 9 READ FADD A 10 READ FADD
    //   $EuCoresTotalCount UDIV 100 UMUL $GpuCoreClocks FDIV
    // A7 = A8 = 2^63 + 48: A7 + A8 in uint64_t wraps to 96, then 96.0;
    // + A9 (0) + A10 (0) = 96.0; UDIV 96 EUs: 96 / 96 = 1; * 100 = 100;
    // / GpuCoreClocks (GPU_CLOCK = 4) = 25.0. (Converting each operand
    // first gives 2^64 / 96 * 100 instead.)
    let mut s = Sample::EMPTY;
    s.a[7] = Some((1 << 63) + 48);
    s.a[8] = Some((1 << 63) + 48);
    s.a[9] = Some(0);
    s.a[10] = Some(0);
    s.gpu_clock = Some(4);
    let d = DeviceInfo {
        eu_cores_total_count: 96,
        ..DeviceInfo::default()
    };
    assert_eq!(counter("tgl_gt2", "l3_3", "eu_active", &s, &d), f(25.0));

    // bdw VmePipe EuThreadOccupancy:
    //   8 A 10 READ FMUL $EuThreadsCount FDIV $EuCoresTotalCount UDIV
    //   100 UMUL $GpuCoreClocks FDIV
    // A10 = 2^61 + 21: 8 * A10 = 2^64 + 168 wraps to 168, then 168.0;
    // / 7 threads = 24.0; UDIV 24 EUs: 24 / 24 = 1; * 100 = 100;
    // / GpuCoreClocks (GPU_CLOCK = 8) = 12.5.
    let mut s = Sample::EMPTY;
    s.a[10] = Some((1 << 61) + 21);
    s.gpu_clock = Some(8);
    let d = DeviceInfo {
        eu_cores_total_count: 24,
        eu_threads_count: 7,
        ..DeviceInfo::default()
    };
    assert_eq!(
        counter("bdw", "vme_pipe", "eu_thread_occupancy", &s, &d),
        f(12.5)
    );
}
