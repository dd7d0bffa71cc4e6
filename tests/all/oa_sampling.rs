//! OA sampling end to end through the typed HAL: program HSW OA on the
//! emulator, run a scripted workload, read the buffer back with the
//! zero-copy reader, and check report counts and deltas exactly.
#![cfg(feature = "emu")]

use perfregs::bits;
use perfregs::emu::{Emulator, OaConfig, OaUnit, Sku, Workload};
use perfregs::hal::enums::{
    BufferSizeHsw, CecCompareFunction, CecSelect, ReportFormatHsw, TimerEnable,
};
use perfregs::hal::{hsw, reports_between, Bits, Device, Hsw, ReportDelta};

const BASE: u64 = 0x0100_0000;
const CLOCKS_PER_TICK: u64 = 8;

fn sample(period_exponent: u64, ticks: u64, cec0: (CecCompareFunction, u64)) -> Vec<Vec<u8>> {
    let cfg = OaConfig::default().with_gpu_clocks_per_tick(CLOCKS_PER_TICK);
    let mut emu = Emulator::builder(&hsw::PROJECT, Sku::default())
        .with::<OaUnit>(cfg)
        .build();
    emu.unit_mut::<OaUnit>()
        .set_workload(Workload::new().rate(0, 5).rate(44, 2));
    let gpu = Device::<Hsw, _>::new(emu);
    let rw = gpu
        .forcewake::<hsw::domains::Render>()
        .expect("render wakes");
    gpu.write(hsw::CEC0_0, &rw, |w| {
        w.compare_function(cec0.0)
            .compare_value(bits!(0))
            .select(CecSelect::Noa)
    });
    gpu.write(hsw::CEC0_1, &rw, |w| {
        w.mask(Bits::new(cec0.1).expect("16 bits"))
    });
    let ptr = Bits::<26>::new(BASE >> 6).expect("aligned");
    gpu.write(hsw::OASTATUS2, &rw, |w| w.head_pointer(ptr));
    gpu.write(hsw::OABUFFER, &rw, |w| w.report_buffer_offset(ptr));
    gpu.write(hsw::OASTATUS1, &rw, |w| {
        w.tail_pointer(ptr).buffer_size(BufferSizeHsw::Size16m)
    });
    gpu.write(hsw::OACONTROL, &rw, |w| {
        w.timer_period(Bits::new(period_exponent).expect("6 bits"))
            .timer_enable(TimerEnable::Enable)
            .counter_select(ReportFormatHsw::A45B8C8)
            .counter_enable(true)
    });
    gpu.with_bus(|e| e.advance(ticks));
    let tail = gpu.read(hsw::OASTATUS1, &rw).tail_pointer().get() << 6;
    let used = (tail - BASE) as usize;
    let mem = gpu.with_bus(|e| e.gpu_mem().read(BASE, used));
    reports_between::<hsw::reports::A45B8C8>(&mem, 0, mem.len())
        .map(|r| r.bytes().to_vec())
        .collect()
}

#[test]
fn timer_reports_count_and_deltas() {
    // Period 2^(5+1) = 64 ticks: the timer fires on each rising edge of
    // TIME_STAMP bit 5 (t = 32 + 64k). OA is enabled at t = 3 (after the
    // force-wake ack); 1280 ticks later, at t = 1283, 20 edges have passed.
    let reports = sample(5, 64 * 20, (CecCompareFunction::GreaterOrEqual, 0xFFFE));
    assert_eq!(reports.len(), 20);
    let views: Vec<_> = reports
        .iter()
        .map(|b| perfregs::hal::Report::<hsw::reports::A45B8C8>::new(b).expect("256 bytes"))
        .collect();
    for pair in views.windows(2) {
        let d = ReportDelta::between(&pair[0], &pair[1]);
        assert_eq!(d.timestamp, Some(64));
        // The PRM's CEC example: B0 counts every GPU clock between reports.
        assert_eq!(d.b(0), Some(64 * CLOCKS_PER_TICK));
        // The GPU clock: C2 on HSW (no GPU_TICKS in its layouts).
        assert_eq!(d.gpu_clock, Some(64 * CLOCKS_PER_TICK));
        assert_eq!(d.gpu_ticks, None);
        // A deltas follow the scripted workload.
        assert_eq!(d.a(0), Some(64 * 5));
        assert_eq!(d.a(44), Some(64 * 2));
        assert_eq!(d.a(1), Some(0));
    }
}

#[test]
fn cec_less_than_zero_never_counts() {
    let reports = sample(5, 64 * 4, (CecCompareFunction::LessThan, 0xFFFE));
    assert!(reports.len() >= 3);
    let first = perfregs::hal::Report::<hsw::reports::A45B8C8>::new(&reports[0]).expect("256");
    let last = perfregs::hal::Report::<hsw::reports::A45B8C8>::new(&reports[reports.len() - 1])
        .expect("256");
    assert_eq!(ReportDelta::between(&first, &last).b(0), Some(0));
}
