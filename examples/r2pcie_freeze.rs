//! Freeze-on-overflow on an emulated Xeon E5 v2 R2PCIe box: preload a 44-bit
//! counter with 2^44 - N (N = 1000) and enable overflow reporting; after N
//! events the counter overflows, the box status and the UBox global status
//! report it, and the UBox freezes counting a few cycles later (the counter
//! wraps and keeps counting meanwhile, as PRM 004 says).
//!
//! Run: `cargo run --example r2pcie_freeze`

use perfregs::emu::{Emulator, Sku, UncoreConfig, UncoreEvents, UncoreUnit};
use perfregs::hal::{ivt, AlwaysAwake, Bits, Device, Ivt};

const N: u64 = 1000;

/// The example's set-up (also run by `tests/all/cpu_counters.rs`): one event a
/// cycle on counter 0, preloaded with 2^44 - `n`, enabled with `ov_en`.
pub fn armed(n: u64) -> Device<Ivt, Emulator> {
    let mut emu = Emulator::builder(&ivt::PROJECT, Sku::default())
        .with::<UncoreUnit>(UncoreConfig::default())
        .build();
    emu.unit_mut::<UncoreUnit>()
        .set_events(UncoreEvents::new().per_cycle(0, 1u64));
    let dev = Device::<Ivt, _>::new(emu);
    let on = &AlwaysAwake;
    dev.write(ivt::R2_PCI_PMON_CTR0, on, |w| {
        w.count(Bits::truncate((1u64 << 44) - n))
    });
    dev.write(ivt::R2_PCI_PMON_CTL0, on, |w| w.en(true).ov_en(true));
    dev
}

fn main() {
    let dev = armed(N);
    let on = &AlwaysAwake;
    let show = |when: &str| {
        let ctr = dev.read_counter(ivt::R2_PCI_PMON_CTR0, on).count().get();
        let ov = dev.read(ivt::R2_PCI_PMON_BOX_STATUS, on).ov().get();
        let ov_rp = dev.read(ivt::U_MSR_PMON_GLOBAL_STATUS, on).ov_rp();
        println!("{when:<34} counter {ctr:#013x}  box ov {ov:#06b}  ubox ov_rp {ov_rp}");
    };
    show("preloaded with 2^44 - 1000:");
    dev.with_bus(|e| e.advance(N - 1));
    show("after 999 events:");
    dev.with_bus(|e| e.advance(1));
    show("after 1000 events (overflow):");
    dev.with_bus(|e| e.advance(5));
    show("5 cycles later (wrapped, counting):");
    dev.with_bus(|e| e.advance(100));
    show("100 cycles later (frozen):");

    // Re-arm: clear the overflow bit (write 1: RW1C), reset the counter, unfreeze.
    dev.clear(
        ivt::R2_PCI_PMON_BOX_STATUS,
        on,
        ivt::r2_pci_pmon_box_status::OV,
    );
    dev.clear(
        ivt::U_MSR_PMON_GLOBAL_STATUS,
        on,
        ivt::u_msr_pmon_global_status::OV_RP,
    );
    dev.write(ivt::R2_PCI_PMON_CTL0, on, |w| {
        w.rst(true).en(true).ov_en(true)
    });
    dev.write(ivt::U_MSR_PMON_GLOBAL_CTL, on, |w| w.unfrz_all(true));
    dev.with_bus(|e| e.advance(10));
    show("re-armed, 10 cycles later:");
    // What the emulated hardware did wrong without telling (none expected
    // unless the example shows one on purpose).
    let n = dev.with_bus(|e| e.print_warnings());
    println!("\nemulator warnings: {n}");
}
