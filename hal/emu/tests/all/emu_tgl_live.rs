//! TGL's OAG live counter registers (OAPERF_An, OAPERF_An_UPPER, OAPERF_Bn,
//! GPU_TICKS at 0xD980..) follow the counters as BDW's do at 0x2800..: reads
//! return the live value, software writes load the counter.

use hal::meta::ProjectInfo;
use hal::{bdw, tgl};
use perfregs_emu::*;

use crate::support;
use support::*;

fn write_field(emu: &mut Emulator, p: &ProjectInfo, name: &str, fields: &[(&str, u64)]) {
    emu.write32(reg(p, name).address, val(p, name, fields));
}

/// An emulator with every domain awake and the OA counters enabled
/// (format 5, no timer).
fn started(p: &'static ProjectInfo) -> Emulator {
    let mut emu = Emulator::builder(p, Sku::default())
        .with::<OaUnit>(OaConfig::default())
        .build();
    wake_all(&mut emu);
    let (control, format) = match p.name {
        "tgl" => ("OAG_OACONTROL", "report_format"),
        _ => ("OACONTROL", "counter_select"),
    };
    write_field(&mut emu, p, control, &[("counter_enable", 1), (format, 5)]);
    emu
}

#[test]
fn tgl_live_registers_sit_at_the_oag_addresses() {
    let p = &tgl::PROJECT;
    assert_eq!(reg(p, "OAPERF_A0").address, 0xD980);
    assert_eq!(reg(p, "OAPERF_A31_UPPER").address, 0xD980 + 8 * 31 + 4);
    assert_eq!(reg(p, "OAPERF_A32").address, 0xDA80);
    assert_eq!(reg(p, "OAPERF_A35").address, 0xDA8C);
    assert_eq!(reg(p, "GPU_TICKS").address, 0xDA90);
    assert_eq!(reg(p, "OAPERF_B0").address, 0xDA94);
    assert_eq!(reg(p, "OAPERF_C7").address, 0xDAB4 + 7 * 4);
    // The BDW copies stay where they were.
    assert_eq!(reg(&bdw::PROJECT, "OAPERF_A0").address, 0x2800);
    assert_eq!(reg(&bdw::PROJECT, "GPU_TICKS").address, 0x2910);
}

#[test]
fn live_registers_follow_the_counters_on_bdw_and_tgl() {
    for p in [&bdw::PROJECT, &tgl::PROJECT] {
        let mut emu = started(p);
        emu.unit_mut::<OaUnit>()
            .set_workload(Workload::new().rate(3, 7).rate(33, 2));
        emu.advance(10);
        let a3 = reg(p, "OAPERF_A3").address;
        assert_eq!(emu.read32(a3), 70, "{}", p.name);
        assert_eq!(emu.read32(reg(p, "OAPERF_A33").address), 20, "{}", p.name);
        let live = |emu: &Emulator, k| emu.unit::<OaUnit>().counter(k).unwrap() & 0xFFFF_FFFF;
        assert_eq!(
            u64::from(emu.read32(reg(p, "OAPERF_B0").address)),
            live(&emu, SlotKind::B(0)),
            "{}",
            p.name
        );
        let ticks = emu.read32(reg(p, "GPU_TICKS").address);
        assert_ne!(ticks, 0, "{}", p.name);
        assert_eq!(
            u64::from(ticks),
            live(&emu, SlotKind::GpuTicks),
            "{}",
            p.name
        );
        // A software write loads the counter; the upper dword holds bits 39:32.
        emu.write32(a3, 0xFFFF_FFF0);
        emu.write32(reg(p, "OAPERF_A3_UPPER").address, 0x12);
        assert_eq!(
            emu.unit::<OaUnit>().counter(SlotKind::A(3)),
            Some(0x12_FFFF_FFF0),
            "{}",
            p.name
        );
        emu.advance(3);
        assert_eq!(emu.read32(a3), 0x5, "{}", p.name); // 0x12_FFFF_FFF0 + 3 * 7
        assert_eq!(
            emu.read32(reg(p, "OAPERF_A3_UPPER").address),
            0x13,
            "{}",
            p.name
        );
    }
}
