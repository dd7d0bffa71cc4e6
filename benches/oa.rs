//! OA report generation throughput: the emulator rendering a 256-byte
//! report (A32u40_A4u32_B8_C8 on BDW: 40-bit A counters split into low dwords
//! and high bytes, B/C counters, header) against a memcpy of the same 256 bytes,
//! in the same run.
//!
//! Run with `cargo bench --bench oa`.

use divan::{black_box, Bencher};
use perfregs::emu::{Emulator, OaConfig, OaUnit, Sku, Workload};
use perfregs::hal::{bdw, Register};

const REPORTS: usize = 1024;

/// An emulator with BDW OA configured for the 256-byte format and a workload.
fn bdw_emulator() -> Emulator {
    let mut e = Emulator::builder(&bdw::PROJECT, Sku::default()).with::<OaUnit>(OaConfig::default()).build();
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
        .bench_local(|| {
            for chunk in out.chunks_exact_mut(256) {
                black_box(e.unit_mut::<OaUnit>().render_report(black_box(0x10), chunk));
            }
        });
}

#[divan::bench]
fn memcpy_report(bencher: Bencher) {
    let src = [0x5Au8; 256];
    let mut out = vec![0u8; 256 * REPORTS];
    bencher
        .counter(divan::counter::BytesCount::new(256 * REPORTS))
        .bench_local(|| {
            for chunk in out.chunks_exact_mut(256) {
                chunk.copy_from_slice(black_box(&src));
            }
            black_box(&mut out);
        });
}

fn main() {
    // The rendering really produces a 256-byte report before anything is timed.
    let mut e = bdw_emulator();
    let mut out = [0u8; 256];
    assert_eq!(
        e.unit_mut::<OaUnit>().render_report(0x10, &mut out),
        Some(256),
        "a 256-byte report"
    );
    assert_ne!(out, [0u8; 256], "counters written");
    divan::main();
}
