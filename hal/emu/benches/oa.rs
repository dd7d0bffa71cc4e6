//! OA report generation throughput: the emulator rendering a 256-byte
//! report (A32u40_A4u32_B8_C8 on BDW: 40-bit A counters split into low dwords
//! and high bytes, B/C counters, header) against a memcpy of the same 256 bytes,
//! in the same run. Both sides fill the same buffer with the same bytes:
//! `main` checks that before timing.
//!
//! Run with `cargo bench -p perfregs-emu --bench oa`.

use divan::{black_box, Bencher};
use hal::{bdw, Register};
use perfregs_emu::{Emulator, OaConfig, OaUnit, Sku, Workload};

const REPORTS: usize = 1024;

/// An emulator with BDW OA configured for the 256-byte format and a workload.
fn bdw_emulator() -> Emulator {
    let mut e = Emulator::builder(&bdw::PROJECT, Sku::default())
        .with::<OaUnit>(OaConfig::default())
        .build();
    e.unit_mut::<OaUnit>()
        .set_workload(Workload::new().rate(0, 40).rate(7, 12).rate(31, 3));
    // Counters on, format 5 (A32u40_A4u32_B8_C8): OACONTROL = 5 << 2 | 1,
    // set through the backdoor (the render domain is not woken here).
    e.poke(<bdw::OACONTROL as Register>::ADDRESS, 5 << 2 | 1);
    e.advance(1000);
    e
}

#[divan::bench]
fn render_report(bencher: Bencher) {
    let mut e = bdw_emulator();
    let mut out = vec![0u8; 256 * REPORTS];
    bencher
        .counter(divan::counter::BytesCount::new(256 * REPORTS))
        .bench_local(|| render_all(&mut e, &mut out));
}

/// The report the emulator renders (copied by `memcpy_report`).
fn rendered() -> [u8; 256] {
    let mut out = [0u8; 256];
    let n = bdw_emulator()
        .unit_mut::<OaUnit>()
        .render_report(0x10, &mut out);
    assert_eq!(n, Some(256), "a 256-byte report");
    out
}

/// What `render_report` times: every report of the buffer rendered.
fn render_all(e: &mut Emulator, out: &mut [u8]) {
    for chunk in out.chunks_exact_mut(256) {
        black_box(e.unit_mut::<OaUnit>().render_report(black_box(0x10), chunk));
    }
}

/// What `memcpy_report` times: the rendered report copied into every slot.
fn copy_all(src: &[u8; 256], out: &mut [u8]) {
    for chunk in out.chunks_exact_mut(256) {
        chunk.copy_from_slice(black_box(src));
    }
}

#[divan::bench]
fn memcpy_report(bencher: Bencher) {
    let src = rendered();
    let mut out = vec![0u8; 256 * REPORTS];
    bencher
        .counter(divan::counter::BytesCount::new(256 * REPORTS))
        .bench_local(|| {
            copy_all(&src, &mut out);
            black_box(&mut out);
        });
}

fn main() {
    // Both sides produce the same bytes before anything is timed.
    let src = rendered();
    assert_ne!(src, [0u8; 256], "counters written");
    let (mut a, mut b) = (vec![0u8; 256 * REPORTS], vec![0u8; 256 * REPORTS]);
    render_all(&mut bdw_emulator(), &mut a);
    copy_all(&src, &mut b);
    assert!(
        a == b,
        "render_report and memcpy_report fill the buffer alike"
    );
    divan::main();
}
