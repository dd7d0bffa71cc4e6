//! MI_REPORT_PERF_COUNT given as dwords: built with the HAL's generated
//! command struct, decoded by the emulator with the command description
//! bound in `bindings.yaml`, it writes the same report as the typed entry
//! point; dwords that are not the command are an error and a warning.

use hal::meta::{CommandError, ProjectInfo};
use hal::{bdw, hsw, ivb, snb, tgl};
use perfregs_emu::*;

use crate::support;
use support::*;

/// An emulator of `p` with every domain awake, the counters on and a
/// report format with a layout selected.
fn rig(p: &'static ProjectInfo) -> Emulator {
    let mut emu = Emulator::new(p, Sku::default());
    wake_all(&mut emu);
    let oa = bind::Bindings::of(p)
        .and_then(|b| b.oa)
        .expect("an OA unit");
    let (en, fmt) = (oa.enable.expect("enable"), oa.format.expect("format"));
    let code = p
        .formats
        .iter()
        .map(|f| f.select)
        .max()
        .expect("a report format");
    let put = |emu: &mut Emulator, f: bind::FieldRef, v: u64| {
        let old = emu.peek(f.reg.address, 0).expect("register");
        let new = (old & !f.mask()) | (v << f.lsb & f.mask());
        emu.write32(f.reg.address, new as u32);
    };
    put(&mut emu, fmt, code);
    put(&mut emu, en, 1);
    emu.advance(3);
    emu.take_warnings();
    emu
}

/// The dwords and the typed call give the same report, on `p`.
fn same_report(p: &'static ProjectInfo, dwords: &[u32], address: u64, id: u32) {
    let mut a = rig(p);
    let mut b = a.clone();
    let typed = a
        .unit_mut::<OaUnit>()
        .mi_report_perf_count(address, id, true);
    let got = b.unit_mut::<OaUnit>().execute_mi_rpc(dwords);
    assert_eq!(got, Ok(typed), "{}", p.name);
    assert_eq!(typed, ReportOutcome::Written { address }, "{}", p.name);
    assert_eq!(
        b.gpu_mem().read(address, 256),
        a.gpu_mem().read(address, 256),
        "{}",
        p.name
    );
    assert_eq!(
        b.gpu_mem().read(address, 4),
        id.to_le_bytes(),
        "{}: RPT_ID",
        p.name
    );
    assert!(b.warnings().is_empty(), "{:?}", b.warnings());
}

#[test]
fn gen7_dwords_from_the_generated_struct() {
    let cmd = hsw::commands::MiReportPerfCount {
        memory_address: 0x2000 >> 6,
        use_global_gtt: true,
        report_id: 0xDEAD_BEEF,
        core_mode_enable: false,
    };
    let dw = cmd.encode().expect("fits");
    // PRM 000: DW0 opcode 28h at 28:23 (0x28 << 23), DWord Length 1; DW1 address | GTT select.
    assert_eq!(dw, [0x1400_0001, 0x2001, 0xDEAD_BEEF]);
    assert_eq!(hsw::commands::MiReportPerfCount::decode(&dw), Ok(cmd));
    same_report(&hsw::PROJECT, &dw, 0x2000, 0xDEAD_BEEF);
    let ivb_cmd = ivb::commands::MiReportPerfCount {
        memory_address: 0x4000 >> 6,
        use_global_gtt: true,
        report_id: 7,
    };
    let dw = ivb_cmd.encode().expect("fits");
    assert_eq!(dw, [0x1400_0001, 0x4001, 7]);
    same_report(&ivb::PROJECT, &dw, 0x4000, 7);
}

#[test]
fn gen8_dwords_carry_the_upper_address() {
    // The same command through each project's own generated struct.
    macro_rules! gen8 {
        ($project:ident) => {
            (
                &$project::PROJECT,
                $project::commands::MiReportPerfCount {
                    memory_address: 0x10_0040 >> 6,
                    use_global_gtt: true,
                    memory_address_high: 0,
                    report_id: 42,
                    core_mode_enable: false,
                }
                .encode()
                .expect("fits"),
            )
        };
    }
    for (p, dw) in [gen8!(bdw), gen8!(tgl)] {
        // Linux i915 on Gen8+: MI_REPORT_PERF_COUNT | 2, addr | GGTT, 0, id.
        assert_eq!(dw, [0x1400_0002, 0x10_0041, 0, 42], "{}", p.name);
        same_report(p, &dw, 0x10_0040, 42);
    }
}

#[test]
fn bad_dwords_are_an_error_and_a_warning() {
    let p = &hsw::PROJECT;
    let mut emu = rig(p);
    // MI_STORE_REGISTER_MEM's opcode (0x24), right length.
    let other = [0x1200_0001u32, 0x2001, 1];
    let err = emu.unit_mut::<OaUnit>().execute_mi_rpc(&other).unwrap_err();
    assert_eq!(
        err,
        CommandError::Constant {
            command: "MI_REPORT_PERF_COUNT",
            field: "opcode",
            expected: 0x28,
            found: 0x24
        }
    );
    // The Gen8 form on HSW: the length field says 4 dwords.
    let gen8 = [0x1400_0002u32, 0x2001, 0, 1];
    assert!(matches!(
        emu.unit_mut::<OaUnit>().execute_mi_rpc(&gen8),
        Err(CommandError::Constant {
            field: "dword_length",
            expected: 1,
            found: 2,
            ..
        })
    ));
    // Right header, a dword missing.
    let short = [0x1400_0001u32, 0x2001];
    assert_eq!(
        emu.unit_mut::<OaUnit>().execute_mi_rpc(&short),
        Err(CommandError::Length {
            command: "MI_REPORT_PERF_COUNT",
            expected: 3,
            got: 2
        })
    );
    let w = emu.warnings();
    let bad: Vec<_> = w
        .iter()
        .filter(|w| matches!(w.kind, WarningKind::Oa(OaWarningKind::BadCommand { .. })))
        .collect();
    assert_eq!(bad.len(), 3, "{w:?}");
    assert!(
        bad[0].to_string().contains("opcode") && bad[0].to_string().contains("0x24"),
        "{}",
        bad[0]
    );
    assert_eq!(
        emu.unit::<OaUnit>().stats().map(|s| s.mi_reports),
        Some(0),
        "nothing was written"
    );
}

#[test]
fn snb_has_no_mi_report_perf_count() {
    let p = &snb::PROJECT;
    assert!(p.command("MI_REPORT_PERF_COUNT").is_none());
    let mut emu = Emulator::new(p, Sku::default());
    assert_eq!(
        emu.unit_mut::<OaUnit>()
            .execute_mi_rpc(&[0x1400_0001, 0x2001, 1]),
        Ok(ReportOutcome::NotTriggered)
    );
}
