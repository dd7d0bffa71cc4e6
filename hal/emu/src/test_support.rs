//! Emulated OA reports for the workspace's tests (not part of the API):
//! periodic sampling on an emulated GPU a test has programmed.

use std::vec::Vec;

use hal::register::Project;
use hal::report::ReportFormat;
use hal::Device;

use crate::{Emulator, OaUnit};

/// Where the OA buffer of [`periodic_reports`] lies in GPU memory.
pub const OA_BASE: u64 = 0x0100_0000;
/// The timer exponent of [`periodic_reports`]: a report every 2^(6+1) = 128
/// timestamp ticks (6.67 µs at 19.2 MHz).
pub const PERIOD: u64 = 6;

/// Sample `gpu` (programmed by the caller) periodically in format `F` for
/// `n` periods and return the first `n` reports the OA unit wrote.
///
/// # Panics
/// When sampling does not start or fewer than `n` reports are written.
#[track_caller]
pub fn periodic_reports<P: Project, F: ReportFormat>(
    gpu: &Device<P, Emulator>,
    n: u64,
) -> Vec<Vec<u8>> {
    gpu.with_bus(|e| {
        e.unit_mut::<OaUnit>()
            .start_periodic(OA_BASE, 16 << 20, PERIOD, F::INFO.select)
            .expect("periodic sampling starts");
        e.advance(n * (2 << PERIOD) + 5);
        let got = e.unit::<OaUnit>().stats().map_or(0, |s| s.timer_reports);
        assert!(got >= n, "{got} reports");
        let mem = e.gpu_mem().read(OA_BASE, n as usize * F::INFO.size);
        mem.chunks_exact(F::INFO.size).map(<[u8]>::to_vec).collect()
    })
}

/// An emulated TGL with its OA unit, Gt and Render awake, programmed by
/// `program`, sampled as [`periodic_reports`] in A32u40_A4u32_B8_C8.
#[cfg(perfregs_hal = "tgl")]
#[track_caller]
pub fn tgl_reports(
    n: u64,
    program: impl FnOnce(&Device<hal::Tgl, Emulator>, &[&dyn hal::config::AwakeAny<hal::Unbranded>]),
) -> Vec<Vec<u8>> {
    use crate::{OaConfig, Sku};
    let gpu = Device::<hal::Tgl, _>::new(
        Emulator::builder(&hal::tgl::PROJECT, Sku::default())
            .with::<OaUnit>(OaConfig::default())
            .build(),
    );
    let gt = gpu.forcewake::<hal::tgl::domains::Gt>().expect("gt wakes");
    let render = gpu
        .forcewake::<hal::tgl::domains::Render>()
        .expect("render wakes");
    program(&gpu, &[&gt, &render]);
    periodic_reports::<_, hal::tgl::reports::A32u40A4u32B8C8>(&gpu, n)
}

/// Request every force-wake domain of `emu` (a masked enable of the kernel
/// bit in each request register) and let the acks arrive.
pub fn wake_all(emu: &mut Emulator) {
    let p = emu.project();
    for d in p.domains {
        if let Some(req) = d.request.and_then(|n| p.register(n)) {
            emu.write32(req.address, 0x0001_0001);
        }
    }
    emu.advance(emu.sku().wake_latency);
}
