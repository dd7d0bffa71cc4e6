//! Force-wake on an emulated Tiger Lake: a RENDER register read while the
//! domain sleeps returns 0 (and the emulator records the terminated access);
//! under a guard it returns the real value. The access trace is printed.
//!
//! Run: `cargo run --example forcewake`

use perfregs::emu::{Emulator, Sku};
use perfregs::hal::{tgl, Device, Register, Tgl};

fn main() {
    let gpu = Device::<Tgl, _>::new(Emulator::new(&tgl::PROJECT, Sku::default()));
    let addr = <tgl::OAR_OACONTROL as Register>::ADDRESS;
    // Hardware state: OAR counters enabled, format 5 (set through the backdoor).
    gpu.with_bus(|e| e.poke(addr, 5 << 1 | 1));

    // Wrongly assuming the domain is awake: the access is terminated.
    let assumed = gpu.assume_awake::<tgl::domains::Render>();
    let asleep = gpu.read(tgl::OAR_OACONTROL, &assumed);
    println!("asleep:      {asleep:?} (raw {:#x})", asleep.bits());

    // With a guard: wait for the ack (the emulator acks after its wake latency).
    match gpu.forcewake::<tgl::domains::Render>() {
        Ok(rw) => {
            let awake = gpu.read(tgl::OAR_OACONTROL, &rw);
            println!("under guard: {awake:?} (raw {:#x})", awake.bits());
        }
        Err(e) => println!("force-wake failed: {e}"),
    }
    println!(
        "render awake after the guard dropped: {}",
        gpu.with_bus(|e| e.awake::<tgl::domains::Render>())
    );

    println!("\ntrace:");
    gpu.with_bus(|e| {
        for t in e.trace() {
            println!("  {t}");
        }
    });
    // What the emulated hardware did wrong without telling (none expected
    // unless the example shows one on purpose).
    let n = gpu.with_bus(|e| e.print_warnings());
    println!("\nemulator warnings: {n}");
}
