//! Program a Haswell OA configuration through the typed HAL, on an in-memory
//! register file, and print every access and the decoded registers.
//!
//! Run: `cargo run --example hsw_oa_config`
//!
//! The configuration is the one a profiler sets up for periodic sampling:
//! B0 counts every GPU clock (CEC0, the PRM's own example), a 16 MiB OA buffer
//! in GGTT (programmed in the PRM's order: OASTATUS2, OABUFFER, OASTATUS1),
//! and timer-driven reports in the A45_B8_C8 format.
//! There is no emulator behind the bus yet: registers hold what was written.

use perfregs::bits;
use perfregs::hal::enums::{
    BufferSizeHsw, CecCompareFunction, CecSelect, ReportFormatHsw, TimerEnable,
};
use perfregs::hal::meta::{ProjectInfo, SpaceKind};
use perfregs::hal::{hsw, Bits, Device, Hsw, Recording, SliceBus};
use std::cell::RefCell;

/// GGTT offset of the OA buffer: HSW wants it 16 MiB aligned.
const OA_BUFFER: u64 = 0x0100_0000;
/// Timer period exponent: a report every 2^(p+1) timestamp ticks (80 ns each on HSW).
const TIMER_EXPONENT: u64 = 12;

fn name_at(project: &ProjectInfo, addr: u64) -> &'static str {
    project.at(SpaceKind::Mmio, addr).map_or("?", |r| r.name)
}

fn main() {
    let mut mem = vec![0u32; 0x13_0100 / 4];
    let trace = RefCell::new(Vec::new());
    let bus = Recording::new(SliceBus::new(&mut mem), |a| trace.borrow_mut().push(a));
    let mut gpu = Device::<Hsw, _>::new(bus);

    // Keep the GT awake (a masked write: no read-modify-write).
    gpu.write_masked(hsw::FORCEWAKE_MT, |w| w.kernel(true));

    // B0 counts every GPU clock: CEC0-0 = 0x3 (>= 0), CEC0-1 = 0xFFFE.
    gpu.write(hsw::CEC0_0, |w| {
        w.compare_function(CecCompareFunction::GreaterOrEqual)
            .compare_value(bits!(0))
            .select(CecSelect::Noa)
    });
    gpu.write(hsw::CEC0_1, |w| w.mask(bits!(0xFFFE)));

    // The OA buffer, in the order the PRM asks for.
    let ptr = Bits::<26>::new(OA_BUFFER >> 6).expect("64-byte aligned");
    gpu.write(hsw::OASTATUS2, |w| w.head_pointer(ptr));
    gpu.write(hsw::OABUFFER, |w| w.report_buffer_offset(ptr));
    gpu.write(hsw::OASTATUS1, |w| {
        w.tail_pointer(ptr).buffer_size(BufferSizeHsw::Size16m)
    });

    // Periodic reports in A45_B8_C8, counters on.
    gpu.write(hsw::OACONTROL, |w| {
        w.timer_period(Bits::new(TIMER_EXPONENT).expect("6 bits"))
            .timer_enable(TimerEnable::Enable)
            .counter_select(ReportFormatHsw::A45B8C8)
            .counter_enable(true)
    });

    let project = &hsw::PROJECT;
    println!("accesses, in order:");
    for a in trace.borrow().iter() {
        let op = if a.write { "write" } else { "read " };
        println!(
            "  {op} {:#08x} {:<14} = {:#010x}",
            a.addr,
            name_at(project, a.addr),
            a.value
        );
    }

    println!("\ndecoded:");
    println!("  {:?}", gpu.read(hsw::CEC0_0));
    println!("  {:?}", gpu.read(hsw::CEC0_1));
    println!("  {:?}", gpu.read(hsw::OASTATUS2));
    println!("  {:?}", gpu.read(hsw::OABUFFER));
    println!("  {:?}", gpu.read(hsw::OASTATUS1));
    let ctl = gpu.read(hsw::OACONTROL);
    println!("  {ctl:?}");

    let ticks = 1u64 << (ctl.timer_period().get() + 1);
    println!(
        "\nreport format {} every {ticks} timestamp ticks ({:.3} ms at 80 ns a tick); buffer {:#x}..{:#x}",
        ctl.counter_select().name(),
        (ticks * 80) as f64 / 1e6,
        OA_BUFFER,
        OA_BUFFER + (16 << 20)
    );
}
