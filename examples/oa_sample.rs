//! OA sampling on the emulated GPU, through the typed HAL only: program CEC0
//! to count GPU clocks (the PRM's example), a 16 MiB OA buffer in GGTT and
//! periodic reports, run a scripted workload, then decode the buffer and print
//! the per-report deltas (A counters with their PRM event names, B0, time).
//!
//! Run: `cargo run --example oa_sample` (Haswell, A45_B8_C8), or with
//! `-- --project bdw` / `-- --project tgl` (A32u40_A4u32_B8_C8, 40-bit A counters).

use perfregs::bits;
use perfregs::emu::{Emulator, OaConfig, OaUnit, Sku, Workload};
use perfregs::hal::enums::CecCompareFunction;
use perfregs::hal::meta::ProjectInfo;
use perfregs::hal::{bdw, hsw, tgl, Bits, Device, ReportDelta, ReportFormat};
use perfregs::hal::{reports_between, Project};

/// GGTT address of the OA buffer (16 MiB aligned, as HSW requires).
const BASE: u64 = 0x0100_0000;
/// Timer exponent: a report every 2^(p+1) timestamp ticks.
const PERIOD_EXPONENT: u64 = 9;
/// How long the workload runs, in timestamp ticks.
const RUN_TICKS: u64 = 8 * 1024 + 100;

/// The scripted workload: events per timestamp tick for a few A counters.
fn workload() -> Workload {
    Workload::new()
        .rate(0, 40)
        .rate(1, 7)
        .rate(2, 3)
        .rate(7, 12)
        .rate(20, 1)
}

fn main() {
    let project = std::env::args()
        .skip_while(|a| a != "--project")
        .nth(1)
        .unwrap_or_else(|| "hsw".to_string());
    let result = match project.as_str() {
        "hsw" => run_hsw(),
        "bdw" => run_bdw(),
        "tgl" => run_tgl(),
        other => Err(format!("unknown project `{other}` (hsw, bdw or tgl)")),
    };
    if let Err(e) = result {
        eprintln!("oa_sample: {e}");
        std::process::exit(1);
    }
}

fn emulator(project: &'static ProjectInfo) -> Emulator {
    let mut e = Emulator::builder(project, Sku::default())
        .with::<OaUnit>(OaConfig::default())
        .build();
    e.unit_mut::<OaUnit>().set_workload(workload());
    e
}

fn run_hsw() -> Result<(), String> {
    use perfregs::hal::hsw::enums::{BufferSize, CecSelect, ReportFormat, TimerEnable};
    let gpu = Device::<perfregs::hal::Hsw, _>::new(emulator(&hsw::PROJECT));
    let rw = gpu
        .forcewake::<hsw::domains::Render>()
        .map_err(|e| e.to_string())?;

    // B0 counts every GPU clock: CEC0-0 = 0x3 (>= 0 on NOA), CEC0-1 = 0xFFFE.
    gpu.write(hsw::CEC0_0, &rw, |w| {
        w.compare_function(CecCompareFunction::GreaterOrEqual)
            .compare_value(bits!(0))
            .select(CecSelect::Noa)
    });
    gpu.write(hsw::CEC0_1, &rw, |w| w.mask(bits!(0xFFFE)));

    // The buffer in the PRM's order: OASTATUS2 (head), OABUFFER, OASTATUS1 (tail, size).
    let ptr = Bits::<26>::new(BASE >> 6).ok_or("buffer address")?;
    gpu.write(hsw::OASTATUS2, &rw, |w| w.head_pointer(ptr));
    gpu.write(hsw::OABUFFER, &rw, |w| w.report_buffer_offset(ptr));
    gpu.write(hsw::OASTATUS1, &rw, |w| {
        w.tail_pointer(ptr).buffer_size(BufferSize::Size16m)
    });
    gpu.write(hsw::OACONTROL, &rw, |w| {
        w.timer_period(Bits::new(PERIOD_EXPONENT).unwrap_or_default())
            .timer_enable(TimerEnable::Enable)
            .counter_select(ReportFormat::A45B8C8)
            .counter_enable(true)
    });

    gpu.with_bus(|e| e.advance(RUN_TICKS));

    let tail = gpu.read(hsw::OASTATUS1, &rw).tail_pointer().get() << 6;
    let status = gpu.read(hsw::OASTATUS1, &rw);
    println!("hsw: {status:?}");
    let used = tail.saturating_sub(BASE) as usize;
    let buffer = gpu.with_bus(|e| e.gpu_mem().read(BASE, used));
    print_reports::<hsw::reports::A45B8C8>(&hsw::PROJECT, &buffer);
    // Consumed: move the head up to the tail.
    gpu.write(hsw::OASTATUS2, &rw, |w| {
        w.head_pointer(Bits::truncate(tail >> 6))
    });
    // What the emulated hardware did wrong without telling.
    let n = gpu.with_bus(|e| e.print_warnings());
    println!("emulator warnings: {n}");
    Ok(())
}

fn run_bdw() -> Result<(), String> {
    use perfregs::hal::bdw::enums::{BufferSize, CecSelect, MemorySelect, ReportFormat};
    let gpu = Device::<perfregs::hal::Bdw, _>::new(emulator(&bdw::PROJECT));
    let rw = gpu
        .forcewake::<bdw::domains::Render>()
        .map_err(|e| e.to_string())?;
    gpu.write(bdw::CEC0_0, &rw, |w| {
        w.compare_function(CecCompareFunction::GreaterOrEqual)
            .compare_value(bits!(0))
            .select(CecSelect::Noa)
    });
    gpu.write(bdw::CEC0_1, &rw, |w| w.mask(bits!(0xFFFE)));

    // Head, buffer, tail (the BDW programming order).
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

    gpu.with_bus(|e| e.advance(RUN_TICKS));

    let tail = gpu.read(bdw::OATAILPTR, &rw).tail_pointer().get() << 6;
    println!("bdw: {:?}", gpu.read(bdw::OASTATUS, &rw));
    let used = tail.saturating_sub(BASE) as usize;
    let buffer = gpu.with_bus(|e| e.gpu_mem().read(BASE, used));
    print_reports::<bdw::reports::A32u40A4u32B8C8>(&bdw::PROJECT, &buffer);
    // What the emulated hardware did wrong without telling.
    let n = gpu.with_bus(|e| e.print_warnings());
    println!("emulator warnings: {n}");
    Ok(())
}

fn run_tgl() -> Result<(), String> {
    use perfregs::hal::tgl::enums::{BufferSize, CecSelect, MemorySelect, ReportFormat};
    let gpu = Device::<perfregs::hal::Tgl, _>::new(emulator(&tgl::PROJECT));
    // The OAG unit and its CEC copies are in the GT domain.
    let gt = gpu
        .forcewake::<tgl::domains::Gt>()
        .map_err(|e| e.to_string())?;
    gpu.write(tgl::CEC0_0, &gt, |w| {
        w.compare_function(CecCompareFunction::GreaterOrEqual)
            .compare_value(bits!(0))
            .select(CecSelect::Noa)
    });
    gpu.write(tgl::CEC0_1, &gt, |w| w.mask(bits!(0xFFFE)));

    let ptr = Bits::<26>::new(BASE >> 6).ok_or("buffer address")?;
    gpu.write(tgl::OAG_OASTATUS, &gt, |w| w);
    gpu.write(tgl::OAG_OAHEADPTR, &gt, |w| w.head_pointer(ptr));
    gpu.write(tgl::OAG_OABUFFER, &gt, |w| {
        w.base_address(ptr)
            .buffer_size(BufferSize::Size16m)
            .memory_select(MemorySelect::Ggtt)
    });
    gpu.write(tgl::OAG_OATAILPTR, &gt, |w| w.tail_pointer(ptr));
    gpu.write(tgl::OAG_OAGLBCTXCTRL, &gt, |w| {
        w.timer_period(Bits::new(PERIOD_EXPONENT).unwrap_or_default())
            .timer_enable(true)
    });
    gpu.write(tgl::OAG_OACONTROL, &gt, |w| {
        w.report_format(ReportFormat::A32u40A4u32B8C8)
            .counter_enable(true)
    });

    gpu.with_bus(|e| e.advance(RUN_TICKS));

    let tail = gpu.read(tgl::OAG_OATAILPTR, &gt).tail_pointer().get() << 6;
    println!("tgl: {:?}", gpu.read(tgl::OAG_OASTATUS, &gt));
    let used = tail.saturating_sub(BASE) as usize;
    let buffer = gpu.with_bus(|e| e.gpu_mem().read(BASE, used));
    print_reports::<tgl::reports::A32u40A4u32B8C8>(&tgl::PROJECT, &buffer);
    // What the emulated hardware did wrong without telling.
    let n = gpu.with_bus(|e| e.print_warnings());
    println!("emulator warnings: {n}");
    Ok(())
}

/// Decode the reports of `buffer` (head at 0, tail at its end) and print deltas.
fn print_reports<F: ReportFormat>(project: &ProjectInfo, buffer: &[u8]) {
    let reports: Vec<_> = reports_between::<F>(buffer, 0, buffer.len()).collect();
    // The timestamp frequency of the project's catalogue part (what
    // `perfregs record` uses too).
    let hz = perfregs::hal::part_or_first(project.name, None)
        .map_or(0, |p| p.device.gpu_timestamp_frequency);
    let ticks = 1u64 << (PERIOD_EXPONENT + 1);
    println!(
        "{} {}: {} reports of {} bytes, every {ticks} timestamp ticks ({:.1} us at {:.1} MHz)",
        <F::Project as Project>::NAME,
        F::INFO.name,
        reports.len(),
        F::INFO.size,
        ticks as f64 / hz.max(1) as f64 * 1e6,
        hz as f64 / 1e6
    );
    let counters: Vec<usize> = workload()
        .rates()
        .iter()
        .map(|(n, _)| *n as usize)
        .collect();
    print!("{:>4} {:>10} {:>8} {:>8}", "#", "timestamp", "d_ts", "B0");
    for n in &counters {
        print!(" {:>8}", format!("A{n}"));
    }
    println!();
    for (i, pair) in reports.windows(2).enumerate() {
        let (prev, next) = (pair[0].view(), pair[1].view());
        let d = ReportDelta::between(&prev, &next);
        print!(
            "{:>4} {:>10} {:>8} {:>8}",
            i + 1,
            next.timestamp().unwrap_or(0) & 0xFFFF_FFFF,
            d.timestamp.unwrap_or(0),
            d.b(0).unwrap_or(0)
        );
        for n in &counters {
            print!(" {:>8}", d.a(*n).unwrap_or(0));
        }
        println!();
    }
    println!("\nevents (PRM names):");
    for (n, rate) in workload().rates() {
        let name = project
            .event(&format!("A{n}"))
            .map_or("(no PRM event name)", |e| e.event);
        println!("  A{n:<3} {rate:>3}/tick  {name}");
    }
}
