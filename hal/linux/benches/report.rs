//! Reading an i915 perf stream: record framing into typed reports, against a
//! memcpy of the same bytes, and on to every RenderBasic counter per report
//! pair. Throughput in reports per second (divan's item counter).
//!
//! - `parse`: [`records`] over 4096 SAMPLE records of TGL's
//!   A32u40_A4u32_B8_C8 (256-byte reports), each checked and viewed as a
//!   typed `Report`, its timestamp read (target: within 2x of `memcpy`).
//! - `memcpy`: the same bytes copied into a buffer of their size.
//! - `counters`: `parse`, then each report paired with the one before
//!   ([`Pairs`]: deltas with the wraps), the pair's `Sample`, and every
//!   counter of TGL GT2's RenderBasic on it (target: >= 1,000,000 reports/s).
//! - `counters_chosen`: the same with five RenderBasic counters chosen as
//!   `report --counters` chooses them (`perfregs_session::choose_counters`),
//!   paired for what they read only (`Pairs::push_into` into one `Sample`:
//!   7 increments of the format's 54); issue 26's target: >= 10,000,000
//!   reports/s, above what TGL's OA unit writes (about 9.6 M/s).
//! - `counters_chosen_whole`: those five counters on the whole pair and a
//!   whole `Sample` per pair (`counters`' pairing): what the choice saves.
//! - `pairs`: `parse` and the whole pairing alone (no `Sample`, no counter).
//!
//! Measured 2026-11-28 (release, 2-core machine, one other build
//! running) before `push_into`: the five counters on the whole pairing
//! 2.07 M reports/s, `counters` 1.63 M, `parse` 190.6 M, `memcpy` 91.5 M:
//! the time went to the pair and its `Sample` (about 450 ns a report: 2.5
//! KB of `Option<u64>`s built, returned and copied per pair), not to the
//! counters.
//!
//! Measured 2026-11-28 with `push_into` (release, 2-core machine shared
//! with two other builds, load about 3), medians: `counters_chosen`
//! **13.6 M reports/s** (fastest 13.8 M; the mean, 9.6 M, carries the
//! other builds' stalls), `counters_chosen_whole` 1.46 M, `counters` 1.40
//! M, `pairs` 2.79 M (the whole pairing alone: about 360 ns a report),
//! `parse` 190.7 M, `memcpy` 82.2 M. Pairing for the counters read is what
//! gains the x9; the counters themselves cost little either way.
//!
//! Run: `cargo bench -p perfregs-linux --bench report` (release).

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hal::report::Report;
use hal::tgl::reports::A32u40A4u32B8C8 as Tgl;
use perfregs_linux::record::{records, Record};
use perfregs_metrics::intervals::Pairs;
use perfregs_metrics::{DeviceInfo, Reads, Sample, Value};

mod common;
use common::{REPORTS, SIZE};

/// `REPORTS` SAMPLE records whose reports advance as a running GPU's do.
fn stream() -> Vec<u8> {
    common::stream(|k, r| {
        for (i, dw) in r.chunks_exact_mut(4).enumerate() {
            let v = (k.wrapping_mul(128)).wrapping_mul(i as u32 % 7 + 1);
            dw.copy_from_slice(&v.to_le_bytes());
        }
        r[0..4].copy_from_slice(&(1u32 << 19).to_le_bytes()); // RPT_ID: timer
        r[4..8].copy_from_slice(&(k.wrapping_mul(128)).to_le_bytes()); // TIME_STAMP
        r[8..12].copy_from_slice(&7u32.to_le_bytes()); // CTX_ID
    })
}

/// What `parse` times: every record framed, checked, viewed, its timestamp read.
#[inline(never)]
fn parse_all(bytes: &[u8]) -> u64 {
    let mut sum = 0u64;
    for r in records(bytes, SIZE, 0, 0) {
        match r {
            Ok(r) => {
                let ts = r.report::<Tgl>().and_then(|r| r.timestamp());
                sum = sum.wrapping_add(ts.unwrap_or(u64::MAX));
            }
            Err(e) => panic!("{e}"),
        }
    }
    sum
}

#[divan::bench]
fn parse(bencher: Bencher) {
    let bytes = stream();
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| black_box(parse_all(black_box(&bytes))));
}

#[divan::bench]
fn memcpy(bencher: Bencher) {
    let bytes = stream();
    let mut out = vec![0u8; bytes.len()];
    bencher.counter(ItemsCount::new(REPORTS)).bench_local(|| {
        out.copy_from_slice(black_box(&bytes));
        black_box(&mut out);
    });
}

/// What `counters` times: parse, pair, sample, every RenderBasic counter.
#[inline(never)]
fn counters_all(bytes: &[u8], device: &DeviceInfo) -> f64 {
    let set = &perfregs_metrics::tgl_gt2::render_basic::SET;
    let mut pairs = Pairs::<Tgl>::new();
    let mut total = 0.0;
    for r in records(bytes, SIZE, 0, 0) {
        let report = match r {
            Ok(Record::Sample(b)) => Report::<Tgl>::new(b),
            Ok(_) => None,
            Err(e) => panic!("{e}"),
        };
        let Some(report) = report else { continue };
        if let Some(p) = pairs.push(&report) {
            let s = Sample::from_delta(&p.delta);
            for c in set.counters {
                total += match c.value(&s, device) {
                    Some(Value::U64(v)) => v as f64,
                    Some(Value::F64(v)) => v,
                    None => 0.5,
                };
            }
        }
    }
    total
}

/// The handful of RenderBasic counters `counters_chosen` computes, as
/// `report --counters` takes them (what a live view picks).
const CHOSEN: &str = "GpuTime,GpuCoreClocks,AvgGpuCoreFrequency,GpuBusy,EuActive";

/// The chosen RenderBasic counters of TGL GT2, through the CLI's matcher.
fn chosen() -> Vec<&'static perfregs_metrics::CounterInfo> {
    let set = &perfregs_metrics::tgl_gt2::render_basic::SET;
    let chosen = perfregs_session::choose_counters(set.counters, CHOSEN).expect("RenderBasic");
    assert_eq!(chosen.len(), 5, "{CHOSEN} in RenderBasic");
    chosen
}

/// What `counters_chosen` times: parse, pair (the increments of what the
/// chosen counters read only, into one sample: `Pairs::push_into`), the
/// chosen counters.
#[inline(never)]
fn counters_of(
    bytes: &[u8],
    device: &DeviceInfo,
    chosen: &[&perfregs_metrics::CounterInfo],
    reads: &Reads,
) -> f64 {
    let mut pairs = Pairs::<Tgl>::new();
    let mut s = Sample::EMPTY;
    let mut total = 0.0;
    for r in records(bytes, SIZE, 0, 0) {
        let report = match r {
            Ok(Record::Sample(b)) => Report::<Tgl>::new(b),
            Ok(_) => None,
            Err(e) => panic!("{e}"),
        };
        let Some(report) = report else { continue };
        if let Ok(Some(_)) = pairs.push_into(&report, reads, &mut s) {
            for c in chosen {
                total += match c.value(&s, device) {
                    Some(Value::U64(v)) => v as f64,
                    Some(Value::F64(v)) => v,
                    None => 0.5,
                };
            }
        }
    }
    total
}

/// What `counters_chosen_whole` times: `counters_chosen` the way
/// `counters` pairs (every increment of the format, a whole `Sample` per
/// pair): where the time went before `push_into`.
#[inline(never)]
fn counters_whole(
    bytes: &[u8],
    device: &DeviceInfo,
    chosen: &[&perfregs_metrics::CounterInfo],
) -> f64 {
    let mut pairs = Pairs::<Tgl>::new();
    let mut total = 0.0;
    for r in records(bytes, SIZE, 0, 0) {
        let report = match r {
            Ok(Record::Sample(b)) => Report::<Tgl>::new(b),
            Ok(_) => None,
            Err(e) => panic!("{e}"),
        };
        let Some(report) = report else { continue };
        if let Some(p) = pairs.push(&report) {
            let s = Sample::from_delta(&p.delta);
            for c in chosen {
                total += match c.value(&s, device) {
                    Some(Value::U64(v)) => v as f64,
                    Some(Value::F64(v)) => v,
                    None => 0.5,
                };
            }
        }
    }
    total
}

/// What `pairs` times: parse and pair (`Pairs::push`: every increment of
/// the format), no `Sample`, no counter.
#[inline(never)]
fn pairs_only(bytes: &[u8]) -> u64 {
    let mut pairs = Pairs::<Tgl>::new();
    let mut sum = 0u64;
    for r in records(bytes, SIZE, 0, 0) {
        let report = match r {
            Ok(Record::Sample(b)) => Report::<Tgl>::new(b),
            Ok(_) => None,
            Err(e) => panic!("{e}"),
        };
        let Some(report) = report else { continue };
        if let Some(p) = pairs.push(&report) {
            sum = sum.wrapping_add(p.delta.a(0).unwrap_or(1));
        }
    }
    sum
}

#[divan::bench]
fn counters_chosen(bencher: Bencher) {
    let bytes = stream();
    let device = hal::part("tgl", 2).expect("TGL GT2").device;
    let chosen = chosen();
    let reads = perfregs_metrics::reads_of(chosen.iter().copied());
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| black_box(counters_of(black_box(&bytes), &device, &chosen, &reads)));
}

#[divan::bench]
fn counters_chosen_whole(bencher: Bencher) {
    let bytes = stream();
    let device = hal::part("tgl", 2).expect("TGL GT2").device;
    let chosen = chosen();
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| black_box(counters_whole(black_box(&bytes), &device, &chosen)));
}

#[divan::bench]
fn pairs(bencher: Bencher) {
    let bytes = stream();
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| black_box(pairs_only(black_box(&bytes))));
}

#[divan::bench]
fn counters(bencher: Bencher) {
    let bytes = stream();
    let device = hal::part("tgl", 2).expect("TGL GT2").device;
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| black_box(counters_all(black_box(&bytes), &device)));
}

fn main() {
    // What is timed works: every record parses, and the counters exist.
    let bytes = stream();
    assert_eq!(bytes.len(), REPORTS * (SIZE + 8));
    let want: u64 = (0..REPORTS as u64).map(|k| k * 128).sum();
    assert_eq!(parse_all(&bytes), want);
    let set = &perfregs_metrics::tgl_gt2::render_basic::SET;
    assert!(set.counters.len() > 10, "{} counters", set.counters.len());
    let device = hal::part("tgl", 2).expect("TGL GT2").device;
    assert!(counters_all(&bytes, &device) > 0.0);
    // The chosen counters give the same on both pairings.
    let chosen = chosen();
    let reads = perfregs_metrics::reads_of(chosen.iter().copied());
    assert!(reads.count() > 0 && reads.count() < 12, "{reads:?}");
    let whole = counters_whole(&bytes, &device, &chosen);
    assert!(whole > 0.0);
    assert_eq!(counters_of(&bytes, &device, &chosen, &reads), whole);
    assert!(pairs_only(&bytes) > 0);
    divan::main();
}
