//! A real i915 metric set on the emulated GPU: Broadwell's `TestOa` (IGT's
//! `oa-bdw.xml`, the configuration the Linux kernel uses to test its OA
//! support), programmed and sampled through the typed HAL, its counters
//! computed by the generated equations of `perfregs-metrics`.
//!
//! 1. Program the set: every `register_config` block of `TestOa` (NOA mux,
//!    start/report triggers, CEC0..7) with `Device::program`, which checks
//!    each write against the descriptions (the addresses were resolved to
//!    HAL registers, and the values checked against their fields, when
//!    perfregs-metrics was built).
//! 2. Sample: a GGTT OA buffer, periodic reports in the A32u40_A4u32_B8_C8
//!    format, the emulated GPU running.
//! 3. Print `Counter0..8` (the B counters the set programs to fixed fractions
//!    of the GPU clock: 0, 1, 1, 1/2, 1/3, 1/3, 1/6, 2/3) and the average GPU
//!    frequency of each report pair.
//!
//! Run: `cargo run --example metric_set`.

use perfregs::emu::{Emulator, OaConfig, OaUnit, Sku};
use perfregs::hal::bdw::enums::{BufferSize, MemorySelect, ReportFormat};
use perfregs::hal::bdw::reports::A32u40A4u32B8C8;
use perfregs::hal::{bdw, reports_between, Bits, Device, ReportDelta};
use perfregs::metrics::bdw::test_oa;
use perfregs::metrics::{DeviceInfo, Sample};

/// GGTT address of the OA buffer.
const BASE: u64 = 0x0100_0000;
/// A report every 2^(6+1) = 128 timestamp ticks.
const PERIOD_EXPONENT: u64 = 6;
/// Timestamp frequency of Broadwell (12.5 MHz).
const TIMESTAMP_HZ: u64 = 12_500_000;

fn main() {
    if let Err(e) = run() {
        eprintln!("metric_set: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let config = OaConfig::default();
    // A Broadwell GT2 as the equations see it; the emulated GPU clock runs
    // at `gpu_clocks_per_tick` x the timestamp frequency (100 MHz).
    let device = DeviceInfo {
        eu_cores_total_count: 24,
        eu_slices_total_count: 1,
        eu_subslices_total_count: 3,
        eu_threads_count: 7,
        slice_mask: 0x1,
        subslice_mask: 0x7,
        dual_subslice_mask: 0,
        gpu_max_frequency: 1_000_000_000,
        gpu_min_frequency: 300_000_000,
        gpu_timestamp_frequency: TIMESTAMP_HZ,
        query_mode: 0,
        // No BDW set reads the revision.
        sku_revision_id: 0,
        // Nor the Xe2 unit counts, nor the slice layout.
        ..DeviceInfo::default()
    };
    let gpu = Device::<perfregs::hal::Bdw, _>::new(
        Emulator::builder(&bdw::PROJECT, Sku::default())
            .with::<OaUnit>(config)
            .build(),
    );
    // Every GT register of Broadwell is in the one render domain.
    let rw = gpu
        .forcewake::<bdw::domains::Render>()
        .map_err(|e| e.to_string())?;

    // 1. The set's programming: every block that applies on this device,
    // all checked before any is written. `test_oa::program` takes a BDW
    // device only: on a TGL one it does not compile.
    let set = &test_oa::SET;
    let writes = test_oa::program(&gpu, &device, &[&rw]).map_err(|e| e.to_string())?;
    println!(
        "{} ({}, {}): {} register writes programmed",
        set.symbol, set.name, set.guid, writes
    );

    // 2. The OA buffer (head, buffer, tail: the Broadwell order) and periodic reports.
    let ptr = Bits::<26>::new(BASE >> 6).ok_or("buffer address")?;
    gpu.write(bdw::OASTATUS, &rw, |w| w);
    gpu.write(bdw::OAHEADPTR, &rw, |w| w.head_pointer(ptr));
    gpu.write(bdw::OABUFFER, &rw, |w| {
        w.base_address(ptr)
            .buffer_size(BufferSize::Size16m)
            .memory_select(MemorySelect::Ggtt)
    });
    gpu.write(bdw::OATAILPTR, &rw, |w| w.tail_pointer(ptr));
    gpu.write(bdw::OACTXCONTROL, &rw, |w| {
        w.timer_period(Bits::new(PERIOD_EXPONENT).unwrap_or_default())
            .timer_enable(true)
    });
    gpu.write(bdw::OACONTROL, &rw, |w| {
        w.counter_select(ReportFormat::A32u40A4u32B8C8)
            .counter_enable(true)
    });
    gpu.with_bus(|e| e.advance(6 * 128 + 5));

    let tail = gpu.read(bdw::OATAILPTR, &rw).tail_pointer().get() << 6;
    let used = usize::try_from(tail.saturating_sub(BASE)).map_err(|e| e.to_string())?;
    let buffer = gpu.with_bus(|e| e.gpu_mem().read(BASE, used));
    let reports: Vec<_> = reports_between::<A32u40A4u32B8C8>(&buffer, 0, buffer.len()).collect();
    println!("{} reports", reports.len());

    // 3. The counters of each report pair, computed by the generated equations.
    let show = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    println!(
        "{:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10}",
        "pair",
        "clocks",
        "Counter0",
        "Counter1",
        "Counter2",
        "Counter3",
        "Counter4",
        "Counter5",
        "Counter6",
        "Counter7",
        "Counter8",
        "avg MHz"
    );
    for (i, pair) in reports.windows(2).enumerate() {
        let delta = ReportDelta::between(&pair[0].view(), &pair[1].view());
        let s = Sample::from_delta(&delta);
        let d = &device;
        println!(
            "{:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10}",
            i,
            show(test_oa::gpu_core_clocks(&s, d)),
            show(test_oa::counter0(&s, d)),
            show(test_oa::counter1(&s, d)),
            show(test_oa::counter2(&s, d)),
            show(test_oa::counter3(&s, d)),
            show(test_oa::counter4(&s, d)),
            show(test_oa::counter5(&s, d)),
            show(test_oa::counter6(&s, d)),
            show(test_oa::counter7(&s, d)),
            show(test_oa::counter8(&s, d)),
            show(test_oa::avg_gpu_core_frequency(&s, d).map(|hz| hz / 1_000_000)),
        );
    }
    // What the emulated hardware did wrong without telling.
    let n = gpu.with_bus(|e| e.print_warnings());
    println!("emulator warnings: {n}");
    Ok(())
}
