//! The shipped metric sets run on the emulated GPUs: each set's generated
//! programming list written with `Device::program`, periodic OA reports
//! sampled, the set's counters computed.
//!
//! - Every file's `TestOa` (all but HSW's) gives IGT's expectations from
//!   its own list on its project's emulated GPU (BDW and TGL through their
//!   typed force-wake guards, the other parts with every domain woken
//!   through the emulator's request registers): the B identities up to
//!   graphics 12.7x, IGT's PEC identities (`pec_sanity_check`) on Xe2/Xe3.
//! - HSW `RenderBasic` runs, and every A/B/C delta stays at or below the GPU
//!   clock delta times the EU count.
//! - For every counter of every set of every shipped file, on these
//!   emulated reports (a media set's from its media unit, in its MPEC
//!   layout), the generated function and the run-time interpreter give the
//!   same value.
//!
//! Projects are reached through `hal::for_each_oa_project!`, layouts by
//! the catalogue's `oa.sample` and the sets' `oa_format`.

use hal::config::AwakeAny;
use hal::{bdw, hsw, tgl, Device, Project, ReportDelta, ReportFormat, Unbranded};
use perfregs_codegen::metrics::{interp, load_shipped_texts, Shipped};
use perfregs_emu::{Emulator, OaConfig, OaUnit, Sku, Workload};
use perfregs_metrics::rt::program;
use perfregs_metrics::{DeviceInfo, Sample, SetInfo, Value};
use std::sync::OnceLock;

/// GGTT address of the OA buffer.
const BASE: u64 = 0x0100_0000;
/// A report every 2^(p+1) timestamp ticks.
const PERIOD: u64 = 6;

/// Events per tick of the A counters: a bounded synthetic load (at most
/// 8 x 20 per tick, the GPU clocks per tick times HSW's EU count).
fn workload() -> Workload {
    (0..45).fold(Workload::new(), |w, n| w.rate(n, u64::from(n % 7) * 3 + 1))
}

/// The catalogue's values of the emulated part (a GT2 of each, or the
/// project's first part).
fn device(project: &str) -> DeviceInfo {
    hal::part_or_first(project, Some(2))
        .expect("a part for every emulated project")
        .device
}

/// The part a shipped file is written for: the catalogue part that claims
/// it (by its chipset); no file (`""`): the project's [`device`].
fn device_of_file(file: &str, project: &str) -> DeviceInfo {
    if file.is_empty() {
        return device(project);
    }
    hal::PARTS
        .iter()
        .find(|p| p.project == project && p.metric_files.contains(&file))
        .unwrap_or_else(|| panic!("{file}: no catalogue part claims it"))
        .device
}

/// Every domain of the emulated GPU held awake through its request
/// registers (masked writes of the kernel bit), as a test's proof for
/// `Device::assume_awake_all`.
struct EmulatorAwake;

// SAFETY: made only by `wake_every_domain`, after it requested every domain
// of the emulator and advanced past the wake latency; nothing releases them.
unsafe impl hal::power::HoldsAwake for EmulatorAwake {}

fn wake_every_domain(e: &mut Emulator) -> EmulatorAwake {
    perfregs_emu::test_support::wake_all(e);
    e.advance(1);
    let p = e.project();
    for d in p.domains {
        if let Some(ack) = d.ack.and_then(|n| p.register(n)) {
            assert_ne!(
                e.peek(ack.address, 0).unwrap_or(0) & 1,
                0,
                "{} {} awake",
                p.name,
                d.name
            );
        }
    }
    EmulatorAwake
}

/// Program `set` on project `P`'s emulated GPU (the `file`'s part), every
/// domain awake, and sample `reports` reports in format `F` on OA unit
/// `unit` (the catalogue's order).
fn run_awake<P: Project, F: ReportFormat>(
    info: &'static hal::meta::ProjectInfo,
    file: &str,
    set: &SetInfo,
    reports: u64,
    unit: usize,
) -> Vec<Vec<u8>> {
    // The file's part: its preset's (dual) subslices present, the rest fused off.
    let d = device_of_file(file, P::NAME);
    let mut e = Emulator::builder(info, Sku::for_part(info, &d))
        .with::<OaUnit>(OaConfig::default())
        .build();
    e.unit_mut::<OaUnit>().set_workload(workload());
    let holder = wake_every_domain(&mut e);
    let gpu = Device::<P, _>::new(e);
    let awake = gpu.assume_awake_all(&holder);
    program(&gpu, set, &d, &[&awake]).unwrap_or_else(|e| panic!("{file} {}: {e}", set.symbol));
    gpu.with_bus(|e| sample_on::<F>(e, set, reports, unit))
}

/// The layout `set` is read with on `project`: the one its `oa_format`
/// names (a media set's MPEC layout), else the project's sampled layout
/// (the catalogue's `oa.sample`).
fn layout_of(project: &str, set: &SetInfo) -> &'static str {
    let oa = hal::project(project)
        .and_then(|p| p.gpu)
        .and_then(|g| g.oa)
        .unwrap_or_else(|| panic!("{project}: no OA unit"));
    set.format
        .and_then(|f| oa.format(f))
        .map_or(oa.sample.name, |d| d.format.name)
}

/// The OA unit (catalogue order) that samples `set`: the render unit (the
/// first), or for a set read with a layout other than the project's
/// sampled one (a media set), the first later unit with engines (as
/// `perfregs record` picks by default).
fn unit_of(project: &str, set: &SetInfo) -> usize {
    let oa = hal::project(project)
        .and_then(|p| p.gpu)
        .and_then(|g| g.oa)
        .unwrap_or_else(|| panic!("{project}: no OA unit"));
    if layout_of(project, set) == oa.sample.name {
        return 0;
    }
    oa.units
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, u)| !u.engines.is_empty())
        .map(|(n, _)| n)
        .unwrap_or_else(|| panic!("{project} {}: no media unit", set.symbol))
}

/// `run_awake` on the project named `project` (every compiled OA project
/// but HSW, BDW and TGL, which `run` drives through their typed guards),
/// in the set's layout ([`layout_of`]) on its unit ([`unit_of`]).
fn run_other(project: &str, file: &str, set: &SetInfo, reports: u64) -> Vec<Vec<u8>> {
    let (layout, unit) = (layout_of(project, set), unit_of(project, set));
    macro_rules! on {
        (() $({ name: $m:ident, ty: $t:ident, wake: [$($w:ident),*], sample: $s:ident, i915: [$($i:tt)*], layouts: [$($l:ident),*] }),*) => {
            match project {
                $(stringify!($m) => {
                    $(if <hal::$m::reports::$l as ReportFormat>::INFO.name == layout {
                        return run_awake::<hal::$t, hal::$m::reports::$l>(
                            &hal::$m::PROJECT, file, set, reports, unit);
                    })*
                    run_awake::<hal::$t, hal::$m::reports::$s>(
                        &hal::$m::PROJECT, file, set, reports, unit)
                })*
                other => panic!("{other}: no OA project"),
            }
        };
    }
    hal::for_each_oa_project!(on!())
}

/// The reports of `set` from shipped file `file` of `project`.
fn run_file(project: &str, file: &str, set: &SetInfo, reports: u64) -> Vec<Vec<u8>> {
    match project {
        "hsw" | "bdw" | "tgl" => run(project, set, reports),
        _ => run_other(project, file, set, reports),
    }
}

fn emulator(project: &'static hal::meta::ProjectInfo) -> Emulator {
    let mut e = Emulator::builder(project, Sku::default())
        .with::<OaUnit>(OaConfig::default())
        .build();
    e.unit_mut::<OaUnit>().set_workload(workload());
    e
}

/// Start periodic sampling in format `F` as a driver does, run, and return
/// the reports (raw bytes, in order); no emulator warning on HSW.
fn sample<F: ReportFormat>(e: &mut Emulator, set: &SetInfo, reports: u64) -> Vec<Vec<u8>> {
    sample_on::<F>(e, set, reports, 0)
}

/// [`sample`] on OA unit `unit` (the catalogue's order).
fn sample_on<F: ReportFormat>(
    e: &mut Emulator,
    set: &SetInfo,
    reports: u64,
    unit: usize,
) -> Vec<Vec<u8>> {
    e.unit_nth_mut::<OaUnit>(unit)
        .start_periodic(BASE, 16 << 20, PERIOD, F::INFO.select)
        .unwrap_or_else(|x| panic!("{}: {x}", set.symbol));
    e.advance(reports * (2 << PERIOD) + 5);
    let n = e
        .unit_nth::<OaUnit>(unit)
        .stats()
        .map_or(0, |s| s.timer_reports) as usize;
    assert!(n as u64 >= reports, "{}: {n} reports", set.symbol);
    let mem = e.gpu_mem().read(BASE, n * F::INFO.size);
    mem.chunks_exact(F::INFO.size).map(<[u8]>::to_vec).collect()
}

/// The reports of `reports` periods after programming `set` on `project`
/// with `Device::program` (every write checked against the descriptions).
fn run(project: &str, set: &SetInfo, reports: u64) -> Vec<Vec<u8>> {
    match project {
        "hsw" => {
            let gpu = Device::<hal::Hsw, _>::new(emulator(&hsw::PROJECT));
            let rw = gpu
                .forcewake::<hsw::domains::Render>()
                .expect("render wakes");
            let out = program_and_sample::<_, hsw::reports::A45B8C8>(&gpu, set, &[&rw], reports);
            let w = gpu.with_bus(|e| e.warnings().to_vec());
            assert!(w.is_empty(), "{}: {w:?}", set.symbol);
            out
        }
        "bdw" => {
            let gpu = Device::<hal::Bdw, _>::new(emulator(&bdw::PROJECT));
            let rw = gpu
                .forcewake::<bdw::domains::Render>()
                .expect("render wakes");
            program_and_sample::<_, bdw::reports::A32u40A4u32B8C8>(&gpu, set, &[&rw], reports)
        }
        _ => {
            let gpu = Device::<hal::Tgl, _>::new(emulator(&tgl::PROJECT));
            let gt = gpu.forcewake::<tgl::domains::Gt>().expect("gt wakes");
            let render = gpu
                .forcewake::<tgl::domains::Render>()
                .expect("render wakes");
            let awake: [&dyn AwakeAny<Unbranded>; 2] = [&gt, &render];
            program_and_sample::<_, tgl::reports::A32u40A4u32B8C8>(&gpu, set, &awake, reports)
        }
    }
}

/// Program `set` on `gpu` (GT2 values; `awake` holds its domains awake),
/// then sample `reports` reports in format `F`.
fn program_and_sample<P: Project, F: ReportFormat>(
    gpu: &Device<P, Emulator>,
    set: &SetInfo,
    awake: &[&dyn AwakeAny<Unbranded>],
    reports: u64,
) -> Vec<Vec<u8>> {
    let d = device(P::NAME);
    program(gpu, set, &d, awake).unwrap_or_else(|e| panic!("{}: {e}", set.symbol));
    gpu.with_bus(|e| sample::<F>(e, set, reports))
}

/// The deltas of consecutive reports of `set` (read with its layout,
/// [`layout_of`]).
fn deltas(project: &str, set: &SetInfo, reports: &[Vec<u8>]) -> Vec<ReportDelta> {
    fn of<F: ReportFormat>(r: &[Vec<u8>]) -> Vec<ReportDelta> {
        r.windows(2)
            .map(|w| {
                let a = hal::Report::<F>::new(&w[0]).expect("a whole report");
                let b = hal::Report::<F>::new(&w[1]).expect("a whole report");
                ReportDelta::between(&a, &b)
            })
            .collect()
    }
    let layout = layout_of(project, set);
    macro_rules! by_project {
        (() $({ name: $m:ident, ty: $t:ident, wake: [$($w:ident),*], sample: $s:ident, i915: [$($i:tt)*], layouts: [$($l:ident),*] }),*) => {
            match project {
                $(stringify!($m) => {
                    $(if <hal::$m::reports::$l as ReportFormat>::INFO.name == layout {
                        return of::<hal::$m::reports::$l>(reports);
                    })*
                    of::<hal::$m::reports::$s>(reports)
                })*
                other => panic!("{other}: no report format here"),
            }
        };
    }
    hal::for_each_oa_project!(by_project!())
}

fn test_oa_expectations(project: &str, set: &SetInfo) {
    test_oa_expectations_of(project, "", set);
}

fn test_oa_expectations_of(project: &str, file: &str, set: &SetInfo) {
    let d = device_of_file(file, project);
    let ds = deltas(project, set, &run_file(project, file, set, 6));
    assert!(ds.len() >= 5);
    let value = |name: &str, s: &Sample| match set.counter(name).and_then(|c| c.value(s, &d)) {
        Some(Value::U64(v)) => v,
        other => panic!("{name}: {other:?}"),
    };
    // Gen8 to 12.7x: B counters; Xe2/Xe3: PEC counters (by the set's own
    // counters, not its project).
    let pec = set.counter("Counter0").is_none();
    for delta in &ds {
        let s = Sample::from_delta(delta);
        if pec {
            pec_identities(&format!("{project} {file}"), set, &d, |name| {
                value(name, &s)
            });
        } else {
            perfregs_testkit::check_test_oa_ratios(project, |name| value(name, &s), 1);
        }
    }
}

/// IGT's `pec_sanity_check` (tests/intel/xe_oa.c) on Xe2/Xe3 TestOa by
/// counter name: `TEST_EVENT1_CYCLES_XECOREn` is the GPU clock delta on a
/// present Xe core (a bit of the part's dual subslice mask) and 0 on an
/// absent one, `TEST_EVENT1_CYCLES` the clock delta times the present Xe
/// cores (IGT allows 10 %; the emulator counts exactly).
fn pec_identities(what: &str, set: &SetInfo, d: &DeviceInfo, counter: impl Fn(&str) -> u64) {
    let clock = counter("GpuCoreClocks");
    assert!(clock > 0, "{what}: no clocks");
    let mask = d.dual_subslice_mask;
    let mut cores = 0;
    for x in 0..64u32 {
        let Some(c) = set.counter(&format!("TEST_EVENT1_CYCLES_XECORE{x}")) else {
            continue;
        };
        let want = if mask >> x & 1 == 1 { clock } else { 0 };
        assert_eq!(counter(c.symbol), want, "{what}: {}", c.symbol);
        cores += 1;
    }
    assert!(cores >= 8, "{what}: {cores} XeCore counters");
    assert_eq!(
        counter("TEST_EVENT1_CYCLES"),
        clock * u64::from(mask.count_ones()),
        "{what}: TEST_EVENT1_CYCLES"
    );
}

/// The TestOa set of every shipped file but HSW's (which has none), from
/// the generated crate's file table, on its project's emulated GPU.
#[test]
fn every_test_oa_meets_igt_expectations_from_its_list() {
    let mut files = 0;
    for (file, project, sets) in perfregs_metrics::FILES {
        let Some(set) = sets.iter().find(|s| s.symbol == "TestOa") else {
            assert_eq!(*project, "hsw", "{file}: no TestOa");
            continue;
        };
        test_oa_expectations_of(project, file, set);
        files += 1;
    }
    // Every file but HSW's has a TestOa.
    assert_eq!(files, perfregs_metrics::FILES.len() - 1);
}

#[test]
fn bdw_test_oa_meets_igt_expectations_from_its_list() {
    test_oa_expectations("bdw", &perfregs_metrics::bdw::test_oa::SET);
}

#[test]
fn tgl_test_oa_meets_igt_expectations_from_its_lists() {
    test_oa_expectations("tgl", &perfregs_metrics::tgl_gt2::test_oa::SET);
    test_oa_expectations("tgl", &perfregs_metrics::tgl_gt1::test_oa::SET);
}

#[test]
fn hsw_render_basic_stays_within_clock_times_eus() {
    let set = &perfregs_metrics::hsw::render_basic::SET;
    let ds = deltas("hsw", set, &run("hsw", set, 6));
    assert!(ds.len() >= 5);
    let eus = device("hsw").eu_cores_total_count;
    for d in &ds {
        // HSW reports carry the GPU clock in C2.
        let clock = d.gpu_clock.expect("C2 is the GPU clock on HSW");
        assert!(clock > 0);
        let all = d.a.iter().chain(&d.b).chain(&d.c).flatten();
        let mut n = 0;
        for &v in all {
            assert!(
                v <= clock * eus,
                "a delta of {v} over {clock} clocks x {eus} EUs"
            );
            n += 1;
        }
        assert_eq!(n, 45 + 8 + 8, "A45_B8_C8 carries 61 counters");
        // The workload reached the A counters (the bound is not vacuous).
        assert!(d.a(6).is_some_and(|v| v > 0));
    }
}

/// The interpreter's view of every shipped file, checked once.
fn interpreted() -> &'static [Shipped] {
    static L: OnceLock<Vec<Shipped>> = OnceLock::new();
    L.get_or_init(|| {
        let ir = perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
            .expect("shipped descriptions compile");
        load_shipped_texts(
            &ir,
            perfregs_regdefs::METRIC_SETS,
            perfregs_regdefs::METRIC_ERRATA,
        )
        .unwrap_or_else(|d| panic!("{d:?}"))
    })
}

fn same(g: Option<Value>, i: Option<interp::Value>) -> bool {
    match (g, i) {
        (None, None) => true,
        (Some(Value::U64(a)), Some(interp::Value::Int(b))) => a == b,
        (Some(Value::F64(a)), Some(interp::Value::Float(b))) => {
            a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()) || (a.is_nan() && b.is_nan())
        }
        _ => false,
    }
}

#[test]
fn generated_and_interpreted_agree_on_emulated_reports() {
    let files = perfregs_metrics::FILES;
    assert_eq!(
        files.len(),
        perfregs_regdefs::METRIC_SETS.len(),
        "every shipped file is generated"
    );
    let mut compared = 0;
    for &(file, project, sets) in files {
        let loaded = &interpreted()
            .iter()
            .find(|l| l.file.ends_with(file))
            .expect("shipped")
            .loaded;
        let d = device_of_file(file, project);
        assert_eq!(sets.len(), loaded.file.sets.len());
        for (k, set) in sets.iter().enumerate() {
            let checked = &loaded.checked.sets[k];
            assert_eq!(set.symbol, loaded.file.sets[k].symbol_name);
            for delta in deltas(project, set, &run_file(project, file, set, 3)) {
                let s = Sample::from_delta(&delta);
                // All at once (each counter computed once) as one by one.
                let all = interp::counters(checked, &s, &d);
                for (n, c) in set.counters.iter().enumerate() {
                    let gv = c.value(&s, &d);
                    let iv = interp::counter(checked, n, &s, &d);
                    assert_eq!(
                        all.get(n).copied().flatten(),
                        iv,
                        "{}.{}",
                        set.symbol,
                        c.symbol
                    );
                    assert!(
                        same(gv, iv),
                        "{file} {}.{}: generated {gv:?}, interpreted {iv:?}",
                        set.symbol,
                        c.symbol
                    );
                    compared += 1;
                }
            }
        }
    }
    // 12,544 counters, two report pairs each at least.
    assert!(compared >= 12_544 * 2, "{compared} comparisons");
    println!("{compared} counter values compared");
}
