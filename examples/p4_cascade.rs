//! The SDM's cascading example (Vol 3B 18.15.5.6, example 18-1) on an emulated
//! Pentium 4: counter X (0) preset to -200 counts event A; counter Y (2)
//! preset to -400 counts event B but is cascaded from X, so it starts only
//! when X overflows, and overflows itself after 400 more B events.
//!
//! Run: `cargo run --example p4_cascade`

use perfregs::emu::{CpuEvents, Emulator, P4Unit, Sku};
use perfregs::hal::{p4, Device, P4Counter, P4};

/// The example's set-up (also run by `tests/all/cpu_counters.rs`): X preset to
/// -200 and enabled, Y preset to -400 and cascaded from X.
pub fn cascade() -> (Device<P4, Emulator>, P4Counter<0>, P4Counter<2>) {
    // One event A (for X) and one event B (for Y) per tick.
    let events = CpuEvents::new().rate(0, 1).rate(2, 1);
    let cpu = Device::<P4, _>::new(
        Emulator::builder(&p4::PROJECT, Sku::default())
            .with::<P4Unit>(events)
            .build(),
    );
    let (x, y) = (P4Counter::<0>, P4Counter::<2>);
    cpu.preset(x, -200);
    cpu.preset(y, -400);
    cpu.cascade(y, x); // Y's CCCR: cascade = 1, enable = 0 (x -> y is a legal pair)
    cpu.enable(x);
    (cpu, x, y)
}

fn main() {
    let (cpu, x, y) = cascade();
    let (mut x_overflow, mut y_start, mut y_overflow) = (None, None, None);
    let y_preset = cpu.count(y);
    for tick in 1..=700u64 {
        cpu.with_bus(|e| e.advance(1));
        if x_overflow.is_none() && cpu.overflowed(x) {
            x_overflow = Some(tick);
            println!(
                "tick {tick:>3}: X overflowed (its 200th A event); count {:#012x}",
                cpu.count(x)
            );
        }
        if y_start.is_none() && cpu.count(y) != y_preset {
            y_start = Some(tick);
            println!(
                "tick {tick:>3}: Y started counting B (count {:#012x})",
                cpu.count(y)
            );
        }
        if y_overflow.is_none() && cpu.overflowed(y) {
            y_overflow = Some(tick);
            println!("tick {tick:>3}: Y overflowed (its 400th B event)");
        }
    }
    match (x_overflow, y_start, y_overflow) {
        (Some(xo), Some(ys), Some(yo)) => {
            println!(
                "\nX overflowed at tick {xo}; Y counted B events from tick {ys} to {yo}: {} events",
                yo - ys + 1
            );
        }
        other => println!("\nunexpected: {other:?}"),
    }
    // What the emulated hardware did wrong without telling (none expected
    // unless the example shows one on purpose).
    let n = cpu.with_bus(|e| e.print_warnings());
    println!("\nemulator warnings: {n}");
}
