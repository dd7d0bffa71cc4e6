//! Program a Haswell OA configuration through the typed HAL on the emulated
//! GPU, and print every access and the decoded registers.
//!
//! Run: `cargo run --example hsw_oa_config`
//!
//! The configuration is the one a profiler sets up for periodic sampling:
//! the render domain held awake with a force-wake guard (the driver protocol:
//! masked request, poll the ack), B0 counting every GPU clock (CEC0, the
//! PRM's own example), a 16 MiB OA buffer in GGTT (programmed in the PRM's
//! order: OASTATUS2, OABUFFER, OASTATUS1), and timer-driven reports in the
//! A45_B8_C8 format.

use perfregs::bits;
use perfregs::emu::{Emulator, Sku};
use perfregs::hal::enums::{
    BufferSizeHsw, CecCompareFunction, CecSelect, ReportFormatHsw, TimerEnable,
};
use perfregs::hal::{hsw, Bits, Device, Hsw};

/// GGTT offset of the OA buffer: HSW wants it 16 MiB aligned.
const OA_BUFFER: u64 = 0x0100_0000;
/// Timer period exponent: a report every 2^(p+1) timestamp ticks (80 ns each on HSW).
const TIMER_EXPONENT: u64 = 12;

fn main() {
    let gpu = Device::<Hsw, _>::new(Emulator::new(&hsw::PROJECT, Sku::default()));

    // Wake the GT: masked request, then poll the ack (the emulator acks after its wake latency).
    let rw = match gpu.forcewake::<hsw::domains::Render>() {
        Ok(rw) => rw,
        Err(e) => return eprintln!("force-wake failed: {e}"),
    };

    // B0 counts every GPU clock: CEC0-0 = 0x3 (>= 0), CEC0-1 = 0xFFFE.
    gpu.write(hsw::CEC0_0, &rw, |w| {
        w.compare_function(CecCompareFunction::GreaterOrEqual)
            .compare_value(bits!(0))
            .select(CecSelect::Noa)
    });
    gpu.write(hsw::CEC0_1, &rw, |w| w.mask(bits!(0xFFFE)));

    // The OA buffer, in the order the PRM asks for.
    let ptr = Bits::<26>::new(OA_BUFFER >> 6).unwrap_or_default();
    gpu.write(hsw::OASTATUS2, &rw, |w| w.head_pointer(ptr));
    gpu.write(hsw::OABUFFER, &rw, |w| w.report_buffer_offset(ptr));
    gpu.write(hsw::OASTATUS1, &rw, |w| {
        w.tail_pointer(ptr).buffer_size(BufferSizeHsw::Size16m)
    });

    // Periodic reports in A45_B8_C8, counters on.
    gpu.write(hsw::OACONTROL, &rw, |w| {
        w.timer_period(Bits::new(TIMER_EXPONENT).unwrap_or_default())
            .timer_enable(TimerEnable::Enable)
            .counter_select(ReportFormatHsw::A45B8C8)
            .counter_enable(true)
    });

    println!("decoded:");
    println!("  {:?}", gpu.read(hsw::CEC0_0, &rw));
    println!("  {:?}", gpu.read(hsw::CEC0_1, &rw));
    println!("  {:?}", gpu.read(hsw::OASTATUS2, &rw));
    println!("  {:?}", gpu.read(hsw::OABUFFER, &rw));
    println!("  {:?}", gpu.read(hsw::OASTATUS1, &rw));
    let ctl = gpu.read(hsw::OACONTROL, &rw);
    println!("  {ctl:?}");
    let ticks = 1u64 << (ctl.timer_period().get() + 1);
    println!(
        "\nreport format {} every {ticks} timestamp ticks ({:.3} ms at 80 ns a tick); buffer {:#x}..{:#x}",
        ctl.counter_select().name(),
        (ticks * 80) as f64 / 1e6,
        OA_BUFFER,
        OA_BUFFER + (16 << 20)
    );
    drop(rw);

    println!("\naccesses, in order (the emulator's trace):");
    gpu.with_bus(|e| e.trace().iter().for_each(|t| println!("  {t}")));
    // What the emulated hardware did wrong without telling (none expected
    // unless the example shows one on purpose).
    let n = gpu.with_bus(|e| e.print_warnings());
    println!("\nemulator warnings: {n}");
}
