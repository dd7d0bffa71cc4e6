//! The CPU counters through the typed API on the emulator: the SDM cascading
//! example and R2PCIe freeze-on-overflow.
#![cfg(feature = "emu")]

use perfregs::emu::{CpuEvents, Emulator, P4Unit, Sku, UncoreConfig, UncoreEvents, UncoreUnit};
use perfregs::hal::{ivt, p4, AlwaysAwake, Bits, Device, Ivt, P4Counter, P4};

#[test]
fn sdm_cascade_example() {
    let events = CpuEvents::new().rate(0, 1).rate(2, 1);
    let cpu = Device::<P4, _>::new(
        Emulator::builder(&p4::PROJECT, Sku::default())
            .with::<P4Unit>(events)
            .build(),
    );
    let (x, y) = (P4Counter::<0>, P4Counter::<2>);
    cpu.preset(x, -200);
    cpu.preset(y, -400);
    cpu.cascade(y, x);
    cpu.enable(x);
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
    let mut emu = Emulator::builder(&ivt::PROJECT, Sku::default())
        .with::<UncoreUnit>(UncoreConfig::default())
        .build();
    emu.unit_mut::<UncoreUnit>()
        .set_events(UncoreEvents::new().per_cycle(0, 1u64));
    let dev = Device::<Ivt, _>::new(emu);
    let on = &AlwaysAwake;
    dev.write(ivt::R2_PCI_PMON_CTR0, on, |w| {
        w.count(Bits::truncate((1u64 << 44) - 1000))
    });
    dev.write(ivt::R2_PCI_PMON_CTL0, on, |w| w.en(true).ov_en(true));
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
