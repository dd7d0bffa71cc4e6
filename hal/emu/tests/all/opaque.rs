//! Opaque ranges (described MMIO ranges without a public field layout): the
//! emulator keeps their aligned dwords as plain storage under the range's
//! wake domain, instead of reporting the accesses as unclaimed.

use hal::hsw;
use hal::meta::{OpaqueRange, ProjectInfo};
use perfregs_emu::*;

/// A fixture range on HSW, in the render domain's part of the map.
const UNIT: OpaqueRange = OpaqueRange {
    name: "TEST_UNIT",
    start: 0x1F000,
    end: 0x1F0FF,
    domain: Some("render"),
};

fn forcewake_mt(p: &ProjectInfo) -> u64 {
    p.register("FORCEWAKE_MT").expect("FORCEWAKE_MT").address
}

fn awake_hsw(ranges: &[OpaqueRange]) -> Emulator {
    let p = &hsw::PROJECT;
    let mut emu = Emulator::builder(p, Sku::default()).opaque(ranges).build();
    emu.write32(forcewake_mt(p), 0x0001_0001);
    emu.advance(100);
    emu.take_trace();
    emu
}

#[test]
fn the_fixture_range_is_free_on_hsw() {
    let p = &hsw::PROJECT;
    assert!(p.opaque_at(UNIT.start).is_none());
    assert!(p
        .registers
        .iter()
        .all(|r| r.address > UNIT.end || r.address + u64::from(r.width / 8) <= UNIT.start));
    assert_eq!(p.row_at(UNIT.start).and_then(|r| r.wake), Some("render"));
}

#[test]
fn dwords_inside_a_range_are_storage() {
    let mut emu = awake_hsw(&[UNIT]);
    // The fixture, then HSW's own NOA unit (ranges by start).
    assert_eq!(
        emu.opaque_ranges().copied().collect::<Vec<_>>(),
        std::iter::once(UNIT)
            .chain(hsw::PROJECT.opaque.iter().copied())
            .collect::<Vec<_>>()
    );
    emu.write32(0x1F000, 0xDEAD_BEEF);
    emu.write32(0x1F0FC, 0x1234_5678);
    assert_eq!(emu.read32(0x1F000), 0xDEAD_BEEF);
    assert_eq!(emu.read32(0x1F0FC), 0x1234_5678);
    assert_eq!(emu.read32(0x1F004), 0, "unwritten dwords read 0");
    emu.write32(0x1F000, 0);
    assert_eq!(emu.peek_opaque(0x1F000), Some(0));
    assert_eq!(emu.peek_opaque(0x1F0FC), Some(0x1234_5678));
    assert_eq!(emu.peek_opaque(0x1F100), None, "past the end");
    assert_eq!(emu.peek_opaque(0x1F002), None, "not dword aligned");
    assert!(emu.warnings().is_empty(), "{:?}", emu.warnings());
    assert_eq!((emu.counts().unclaimed + emu.counts().terminated), 0);
    let lines: Vec<String> = emu.trace().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        lines[0],
        "t=100 write 0x1f000 TEST_UNIT = 0xdeadbeef [render] ok"
    );
    // 64-bit accesses are two dword accesses.
    emu.write64(0x1F010, 0x1111_2222_3333_4444);
    assert_eq!(emu.read64(0x1F010), 0x1111_2222_3333_4444);
    assert_eq!(emu.peek_opaque(0x1F014), Some(0x1111_2222));
}

#[test]
fn outside_a_range_or_unaligned_stays_unclaimed() {
    let mut emu = awake_hsw(&[UNIT]);
    emu.write32(0x1F100, 1);
    emu.write32(0x1F001, 1);
    assert_eq!(emu.read32(0x1F100), 0);
    assert_eq!(emu.counts().of(Outcome::Unclaimed), 3);
    // Without the range, the same write is unclaimed, loudly.
    let mut plain = awake_hsw(&[]);
    plain.write32(0x1F000, 5);
    assert_eq!(plain.read32(0x1F000), 0);
    assert!(plain.warnings().iter().any(|w| matches!(
        w.kind,
        WarningKind::Unclaimed {
            addr: 0x1F000,
            write: true
        }
    )));
}

#[test]
fn a_sleeping_domain_terminates_range_accesses() {
    let p = &hsw::PROJECT;
    let mut emu = Emulator::builder(p, Sku::default()).opaque(&[UNIT]).build();
    emu.write32(0x1F000, 7);
    assert_eq!(emu.counts().of(Outcome::Terminated), 1);
    assert_eq!(emu.peek_opaque(0x1F000), Some(0), "dropped");
    let w = emu.warnings();
    assert!(
        w.iter().any(|w| matches!(
            w.kind,
            WarningKind::Asleep {
                addr: 0x1F000,
                register: Some("TEST_UNIT"),
                domain: Some("render"),
                write: true
            }
        )),
        "{w:?}"
    );
}

#[test]
fn registers_win_over_ranges_and_the_first_range_wins() {
    let p = &hsw::PROJECT;
    let ctl = p.register("OACONTROL").expect("OACONTROL");
    let around = OpaqueRange {
        name: "AROUND",
        start: ctl.address - 0x10,
        end: ctl.address + 0x13,
        domain: Some("render"),
    };
    let later = OpaqueRange {
        name: "LATER",
        start: 0x1F080,
        end: 0x1F17F,
        domain: None,
    };
    let mut emu = awake_hsw(&[around, UNIT, later]);
    assert_eq!(
        emu.opaque_ranges().map(|r| r.name).collect::<Vec<_>>(),
        ["AROUND", "TEST_UNIT", "NOA_UNIT"]
    );
    assert_eq!(
        emu.register_at(ctl.address).map(|r| r.name),
        Some("OACONTROL")
    );
    emu.write32(ctl.address - 4, 9);
    assert_eq!(emu.read32(ctl.address - 4), 9);
    assert_eq!(
        emu.peek_opaque(ctl.address - 4),
        Some(9),
        "stored by the range"
    );
    assert_eq!(emu.peek_opaque(ctl.address), Some(0));
    emu.write32(0x1F100, 1);
    assert_eq!(emu.counts().of(Outcome::Unclaimed), 1, "LATER was dropped");
}

/// A project's own ranges (`ProjectInfo::opaque`) are used by `new`.
#[test]
fn a_projects_own_ranges_are_storage() {
    static RANGES: [OpaqueRange; 1] = [UNIT];
    let p: &'static ProjectInfo = Box::leak(Box::new(ProjectInfo {
        opaque: &RANGES,
        ..hsw::PROJECT
    }));
    assert_eq!(p.opaque_at(0x1F0FF), Some(&UNIT));
    assert_eq!(p.opaque_at(0x1F100), None);
    assert_eq!(p.opaque_at(0x1EFFF), None);
    let mut emu = Emulator::new(p, Sku::default());
    // A copied project has no generated bindings: no force-wake, always awake.
    emu.write32(0x1F008, 3);
    assert_eq!(emu.read32(0x1F008), 3);
    assert_eq!(emu.counts().of(Outcome::Ok), 2);
}

/// Regression (emulator_props): a range whose end is not the last byte of
/// a dword kept the straddling last dword as storage (bytes past the end),
/// while a dword straddling the start was unclaimed.
#[test]
fn a_dword_straddling_the_end_is_unclaimed() {
    let odd = OpaqueRange {
        end: 0x1F0FD,
        ..UNIT
    };
    let mut emu = awake_hsw(&[odd]);
    emu.write32(0x1F0F8, 1);
    emu.write32(0x1F0FC, 2);
    assert_eq!(emu.peek_opaque(0x1F0F8), Some(1));
    assert_eq!(
        emu.peek_opaque(0x1F0FC),
        None,
        "bytes 0x1F0FE..F are outside"
    );
    assert_eq!(emu.read32(0x1F0FC), 0);
    assert_eq!(emu.counts().of(Outcome::Unclaimed), 2);
    assert!(emu.warnings().iter().any(|w| matches!(
        w.kind,
        WarningKind::Unclaimed {
            addr: 0x1F0FC,
            write: true
        }
    )));
}
