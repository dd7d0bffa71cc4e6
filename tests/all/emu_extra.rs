//! Registers described by the user (`regdefs!`) run on the emulator next to
//! the built-in ones: they decode, keep their values and follow their access
//! rules; without them the same writes vanish, loudly.
#![cfg(feature = "emu")]

use perfregs::emu::{Emulator, Outcome, Sku, WarningKind};
use perfregs::hal::{hsw, Device, Hsw, Register};

perfregs::regdefs!(mod extra, "tests/fixtures/extra.yaml");

#[test]
fn user_registers_join_the_emulated_project() {
    let emu = Emulator::builder(&hsw::PROJECT, Sku::default())
        .registers(extra::hsw::PROJECT.registers)
        .build();
    let gpu = Device::<Hsw, _>::new(emu);
    let rw = gpu
        .forcewake::<hsw::domains::Render>()
        .expect("render wakes");
    gpu.write(extra::hsw::STATUS, &rw, |w| w.enable(true).set_kick());
    let s = gpu.read(extra::hsw::STATUS, &rw);
    assert!(s.enable(), "{s:?}");
    assert!(s.kick(), "RW1S set by a written 1");
    // Reset 0x00F0 is level = 0xF; PBC/RO-V keep theirs, WO reads 0.
    assert_eq!(s.level(), 0xF);
    gpu.with_bus(|e| {
        assert_eq!(
            e.register_at(<extra::hsw::STATUS as Register>::ADDRESS)
                .map(|r| r.name),
            Some("STATUS")
        );
        assert!(e.warnings().is_empty(), "{:?}", e.warnings());
        assert!(e.trace().iter().all(|t| t.outcome == Outcome::Ok));
        assert_eq!(e.peek(0x100, 0).map(|v| v & 1), Some(1), "stored");
    });
}

#[test]
fn the_register_table_and_the_project_list_both_join() {
    // What the docs say to pass: a `regdefs!` module's register table
    // (`REGISTERS`, descriptions) or its project's list (`PROJECT.registers`,
    // references); the same registers either way.
    let by_table = Emulator::builder(&hsw::PROJECT, Sku::default())
        .registers(&extra::hsw::REGISTERS)
        .build();
    let by_list = Emulator::builder(&hsw::PROJECT, Sku::default())
        .registers(extra::hsw::PROJECT.registers)
        .build();
    assert!(!extra::hsw::REGISTERS.is_empty());
    for r in &extra::hsw::REGISTERS {
        let at = |e: &Emulator| e.register_at(r.address).map(|x| x.name);
        assert_eq!(at(&by_table), Some(r.name));
        assert_eq!(at(&by_list), Some(r.name));
    }
}

#[test]
fn without_them_the_writes_vanish_loudly() {
    let gpu = Device::<Hsw, _>::new(Emulator::new(&hsw::PROJECT, Sku::default()));
    let rw = gpu
        .forcewake::<hsw::domains::Render>()
        .expect("render wakes");
    gpu.write(extra::hsw::STATUS, &rw, |w| w.enable(true));
    assert!(!gpu.read(extra::hsw::STATUS, &rw).enable());
    let w = gpu.with_bus(|e| e.warnings());
    assert!(
        w.iter().any(|w| matches!(
            w.kind,
            WarningKind::Unclaimed {
                addr: 0x100,
                write: true
            }
        )),
        "{w:?}"
    );
}
