//! Shipped counters against values computed by hand from their equations
//! (the computation is written beside each expected value), through the
//! generated function and the interpreter of `perfregs-codegen` alike: both
//! must give the expected value exactly.

use perfregs_codegen::metrics::equation::Source;
use perfregs_codegen::metrics::interp::{self, Value as IValue};
use perfregs_codegen::metrics::{load_shipped_texts, Shipped};
use perfregs_metrics::{DeviceInfo, Sample, Value};
use std::sync::OnceLock;

/// Every shipped file, loaded for the interpreter.
fn loaded() -> &'static [Shipped] {
    static L: OnceLock<Vec<Shipped>> = OnceLock::new();
    L.get_or_init(|| {
        let ir = perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
            .expect("shipped descriptions");
        load_shipped_texts(
            &ir,
            perfregs_regdefs::METRIC_SETS,
            perfregs_regdefs::METRIC_ERRATA,
        )
        .expect("shipped metric sets")
    })
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
    let l = loaded().iter().find(|l| l.file == *file).expect("loaded");
    let checked = &l.loaded.checked.sets[k];
    let value = g.value(s, d);
    let want = match value {
        Some(Value::U64(v)) => Some(IValue::Int(v)),
        Some(Value::F64(v)) => Some(IValue::Float(v)),
        None => None,
    };
    let what = format!("{module}::{set}::{counter}");
    assert_eq!(
        interp::counter(checked, n, s, d),
        want,
        "{what}: interpreted vs generated"
    );
    let available = g.is_available(d);
    assert_eq!(
        interp::counter_available(checked, n, d),
        Some(available),
        "{what}: availability"
    );
    Counted { value, available }
}

/// A sample with the reads of `spec` measured, nothing else: `X n = v`
/// (`X n READ` gives v), separated by `;`.
fn sample(spec: &str) -> Sample {
    let mut s = Sample::EMPTY;
    for read in spec.split(';').map(str::trim).filter(|r| !r.is_empty()) {
        let (what, v) = read.split_once('=').expect("X n = v");
        let mut w = what.split_whitespace();
        let src = w.next().and_then(Source::parse).expect("a source");
        let n: usize = w.next().and_then(|n| n.parse().ok()).expect("an index");
        let slot = match src {
            Source::A => &mut s.a[n],
            Source::B => &mut s.b[n],
            Source::C => &mut s.c[n],
            Source::GpuTime => &mut s.gpu_time,
            Source::GpuClock => &mut s.gpu_clock,
            Source::PerfCnt => &mut s.perfcnt[n],
            Source::Pec => &mut s.pec[n],
            Source::Mpec => &mut s.mpec[n],
        };
        *slot = Some(v.trim().replace('_', "").parse().expect("a value"));
    }
    s
}

/// What [`counter`] found.
#[derive(Debug, PartialEq)]
struct Counted {
    value: Option<Value>,
    available: bool,
}

fn u(v: u64) -> Counted {
    Counted {
        value: Some(Value::U64(v)),
        available: true,
    }
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
    let s = sample(
        "A 7 = 9_223_372_036_854_775_856; A 8 = 9_223_372_036_854_775_856; \
         A 9 = 0; A 10 = 0; GPU_CLOCK 0 = 4",
    );
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
    let s = sample("A 10 = 2_305_843_009_213_693_973; GPU_CLOCK 0 = 8");
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

/// The HSW GT2 preset (20 EUs, subslices 0 and 1, a 12.5 MHz timestamp),
/// with 2 slices (for the slice factors).
fn hsw() -> DeviceInfo {
    DeviceInfo {
        eu_slices_total_count: 2,
        ..hal::part("hsw", 2).expect("HSW GT2").device
    }
}

#[test]
fn hsw_render_basic_by_hand() {
    let d = hsw();
    let s = sample(
        "GPU_TIME 0 = 25_000; A 0 = 30_000; A 1 = 12_000; A 36 = 120; A 39 = 500; \
         B 2 = 1_500; B 3 = 3_000; B 4 = 10; B 5 = 7; C 7 = 400; PERFCNT 0 = 1_000; \
         C 2 = 6_000", // GpuCoreClocks on HSW: C 2 READ
    );
    let c = |name: &str, s: &Sample, d: &DeviceInfo| counter("hsw", "render_basic", name, s, d);
    // GpuTime: GPU_TIME 0 READ 1000000000 UMUL $GpuTimestampFrequency UDIV
    //   = 25,000 * 10^9 / 12,500,000 = 2,000,000 ns.
    assert_eq!(c("gpu_time", &s, &d), u(2_000_000));
    // EuActive: A 0 READ $EuCoresTotalCount UDIV 100 UMUL $GpuCoreClocks FDIV
    //   = 30,000 / 20 = 1,500; * 100 = 150,000; / 6,000 = 25.0.
    assert_eq!(c("eu_active", &s, &d), f(25.0));
    // EuStall: A 1 READ ... = 12,000 / 20 = 600; * 100 = 60,000; / 6,000 = 10.0.
    assert_eq!(c("eu_stall", &s, &d), f(10.0));
    // EuIdle: 100 $EuActive $EuStall FADD FSUB = 100 - (25 + 10) = 65.0.
    assert_eq!(c("eu_idle", &s, &d), f(65.0));
    // PostPsDepthTestFails: A 39 READ $SamplesKilledInPs USUB, SamplesKilledInPs
    //   = A 36 READ: 500 - 120 = 380.
    assert_eq!(c("post_ps_depth_test_fails", &s, &d), u(380));
    // ... and 120 - 500 wraps: 2^64 - 380.
    let mut w = s;
    (w.a[39], w.a[36]) = (Some(120), Some(500));
    assert_eq!(
        c("post_ps_depth_test_fails", &w, &d),
        u(18_446_744_073_709_551_236)
    );
    // SamplerTexels: $Sampler0Texels $Sampler1Texels UADD $EuSlicesTotalCount UMUL,
    //   Sampler0Texels = B 4 READ 4 UMUL = 40, Sampler1Texels = B 5 READ 4 UMUL = 28:
    //   (40 + 28) * 2 slices = 136.
    assert_eq!(c("sampler_texels", &s, &d), u(136));
    // SamplerBottleneck: $Sampler0Bottleneck $Sampler1Bottleneck FMAX,
    //   Sampler0Bottleneck = B 2 READ 100 UMUL $GpuCoreClocks FDIV = 150,000 / 6,000 = 25.0,
    //   Sampler1Bottleneck = B 3 READ ... = 300,000 / 6,000 = 50.0: max 50.0.
    assert_eq!(c("sampler_bottleneck", &s, &d), f(50.0));
    // LlcGpuThroughput: PERFCNT 0 READ C 7 READ USUB 64 UMUL = (1,000 - 400) * 64
    //   = 38,400; availability `true $QueryMode &&`: false with QueryMode 0 ...
    assert_eq!(
        c("llc_gpu_throughput", &s, &d),
        Counted {
            value: Some(Value::U64(38_400)),
            available: false
        }
    );
    // ... true with QueryMode 1.
    let q = DeviceInfo {
        query_mode: 1,
        ..hsw()
    };
    assert_eq!(c("llc_gpu_throughput", &s, &q), u(38_400));
}

#[test]
fn bdw_counters_by_hand() {
    // The BDW GT2 preset: 24 EUs, 7 threads each, slice 0, subslices 0..2,
    // a 12.5 MHz timestamp.
    let d = hal::part("bdw", 2).expect("BDW GT2").device;
    let s = sample(
        "GPU_TIME 0 = 12_500; GPU_CLOCK 0 = 8_000; A 9 = 100; A 10 = 200; A 11 = 300; \
         A 13 = 4_200; B 0 = 10; B 1 = 20; B 4 = 100; B 5 = 300; C 0 = 25",
    );
    // ComputeBasic EuAvgIpcRate:
    //   A 9 READ  A 10 READ  A 11 READ UADD  A 9 READ USUB FDIV 1 FADD
    //   = 100 / ((200 + 300) - 100) + 1 = 100 / 400 + 1 = 1.25.
    assert_eq!(
        counter("bdw", "compute_basic", "eu_avg_ipc_rate", &s, &d),
        f(1.25)
    );
    // ComputeBasic EuThreadOccupancy:
    //   A 13 READ 8 UMUL $EuCoresTotalCount UDIV $EuThreadsCount UDIV 100 UMUL
    //   $GpuCoreClocks FDIV = 4,200 * 8 = 33,600; / 24 = 1,400; / 7 = 200;
    //   * 100 = 20,000; / GPU_CLOCK 8,000 = 2.5.
    assert_eq!(
        counter("bdw", "compute_basic", "eu_thread_occupancy", &s, &d),
        f(2.5)
    );
    // ComputeL3Cache L3Bank00IcAccesses:
    //   B 0 READ B 1 READ UADD 2 UMUL $L3Bank00Accesses UMIN, L3Bank00Accesses
    //   = C 0 READ 2 UMUL = 50: min((10 + 20) * 2, 50) = min(60, 50) = 50;
    //   availability `$SliceMask 0x01 AND`: slice 0 is on.
    assert_eq!(
        counter("bdw", "compute_l3_cache", "l3_bank00_ic_accesses", &s, &d),
        u(50)
    );
    let slice1 = DeviceInfo {
        slice_mask: 0x2,
        ..hal::part("bdw", 2).expect("BDW GT2").device
    };
    assert!(
        !counter(
            "bdw",
            "compute_l3_cache",
            "l3_bank00_ic_accesses",
            &s,
            &slice1
        )
        .available
    );
    // HdcAndSf NonSamplerShader10AccessStalledOnL3:
    //   B 5 READ B 4 READ USUB 100 UMUL $GpuCoreClocks FDIV
    //   = (300 - 100) * 100 / 8,000 = 2.5; availability `$SubsliceMask 0x8 AND`:
    //   subslice 3 is off on a 0x7 mask, on with 0xf.
    let name = "non_sampler_shader10_access_stalled_on_l3";
    assert_eq!(
        counter("bdw", "hdc_and_sf", name, &s, &d),
        Counted {
            value: Some(Value::F64(2.5)),
            available: false
        }
    );
    let ss3 = DeviceInfo {
        subslice_mask: 0xf,
        ..hal::part("bdw", 2).expect("BDW GT2").device
    };
    assert_eq!(counter("bdw", "hdc_and_sf", name, &s, &ss3), f(2.5));
    // RenderBasic AvgGpuCoreFrequency: $GpuCoreClocks 1000000000 UMUL $GpuTime UDIV,
    //   GpuTime = 12,500 * 10^9 / 12,500,000 = 1,000,000 ns:
    //   8,000 * 10^9 / 1,000,000 = 8,000,000 Hz.
    assert_eq!(
        counter("bdw", "render_basic", "avg_gpu_core_frequency", &s, &d),
        u(8_000_000)
    );
}

#[test]
fn tgl_counters_by_hand() {
    let d = DeviceInfo {
        eu_cores_total_count: 48,
        gpu_timestamp_frequency: 19_200_000,
        ..DeviceInfo::default()
    };
    let mut s = sample("GPU_TIME 0 = 19_200");
    // GT1 RenderBasic GpuTime: 19,200 * 10^9 / 19,200,000 = 1,000,000 ns.
    assert_eq!(
        counter("tgl_gt1", "render_basic", "gpu_time", &s, &d),
        u(1_000_000)
    );
    // GT2 EuActivity7 EuAvgIpcRate:
    //   X Y Z FADD X FSUB FDIV 1 FADD with X = A7+A8+A9+A10, Y = A11+..+A14,
    //   Z = A15+..+A18 = X / ((Y + Z) - X) + 1; with A7..A10 = 10, A11..A18 = 25:
    //   X = 40, Y + Z = 200: 40 / 160 + 1 = 1.25.
    for k in 7..=10 {
        s.a[k] = Some(10);
    }
    for k in 11..=18 {
        s.a[k] = Some(25);
    }
    assert_eq!(
        counter("tgl_gt2", "eu_activity7", "eu_avg_ipc_rate", &s, &d),
        f(1.25)
    );
}

#[test]
fn default_device_is_zeros_and_presets_are_the_parts() {
    // DeviceInfo::default() is all zeros (documented): GpuTime =
    // GPU_TIME x 10^9 / $GpuTimestampFrequency divides by 0 and gives 0, as
    // IGT's C does; the BDW GT2 preset's 12.5 MHz gives 12,500 x 10^9 /
    // 12,500,000 = 1,000,000 ns.
    let s = sample("GPU_TIME 0 = 12_500");
    let zero = DeviceInfo::default();
    assert_eq!(counter("bdw", "render_basic", "gpu_time", &s, &zero), u(0));
    let gt2 = hal::part("bdw", 2).expect("BDW GT2").device;
    assert_eq!(
        counter("bdw", "render_basic", "gpu_time", &s, &gt2),
        u(1_000_000)
    );
    assert_eq!(hal::part("bdw", 2).map(|p| p.device), Some(gt2));
}
