//! The CPU counters through the typed API on the emulator: the SDM cascading
//! example and R2PCIe freeze-on-overflow.
#![cfg(feature = "emu")]

use perfregs::emu::UncoreConfig;
use perfregs::hal::{ivt, AlwaysAwake};

// The examples' set-ups, so the test checks what they show.
#[path = "../../examples/p4_cascade.rs"]
#[allow(dead_code)] // its `main`
mod p4_cascade;
#[path = "../../examples/r2pcie_freeze.rs"]
#[allow(dead_code)] // its `main`
mod r2pcie_freeze;

#[test]
fn sdm_cascade_example() {
    let (cpu, x, y) = p4_cascade::cascade();
    let y_preset = cpu.count(y);
    let (mut x_ovf, mut y_start, mut y_ovf) = (0, 0, 0);
    for tick in 1..=700u64 {
        cpu.with_bus(|e| e.advance(1));
        if x_ovf == 0 && cpu.overflowed(x) {
            x_ovf = tick;
        }
        if y_start == 0 && cpu.count(y) != y_preset {
            y_start = tick;
        }
        if y_ovf == 0 && cpu.overflowed(y) {
            y_ovf = tick;
        }
    }
    // X overflows on its 200th A event; Y starts with the next B event and
    // overflows on the 400th B event it counts.
    assert_eq!((x_ovf, y_start, y_ovf), (200, 201, 600));
    // Clearing X's overflow flag halts Y.
    cpu.clear_overflow(x);
    let before = cpu.count(y);
    cpu.with_bus(|e| e.advance(10));
    assert_eq!(cpu.count(y), before);
}

#[test]
fn r2pcie_freezes_after_n_events_and_counts_meanwhile() {
    let delay = UncoreConfig::default().freeze_delay;
    let dev = r2pcie_freeze::armed(1000);
    let on = &AlwaysAwake;
    dev.with_bus(|e| e.advance(999));
    assert_eq!(
        dev.read_counter(ivt::R2_PCI_PMON_CTR0, on).count(),
        (1u64 << 44) - 1
    );
    assert_eq!(dev.read(ivt::R2_PCI_PMON_BOX_STATUS, on).ov(), 0);
    dev.with_bus(|e| e.advance(1));
    assert_eq!(dev.read(ivt::R2_PCI_PMON_BOX_STATUS, on).ov(), 0b0001);
    assert!(dev.read(ivt::U_MSR_PMON_GLOBAL_STATUS, on).ov_rp());
    dev.with_bus(|e| e.advance(1000));
    // Wrapped at the overflow and counted `delay` more cycles before the freeze.
    assert_eq!(dev.read_counter(ivt::R2_PCI_PMON_CTR0, on).count(), delay);
    // Clearing ov is explicit (a written one).
    dev.clear(
        ivt::R2_PCI_PMON_BOX_STATUS,
        on,
        ivt::r2_pci_pmon_box_status::OV,
    );
    assert_eq!(dev.read(ivt::R2_PCI_PMON_BOX_STATUS, on).ov(), 0);
}
