//! `perfregs record` run as a user runs it (the built binary), on the
//! emulated GPU through the pipe-backed stream, then `perfregs report` of
//! the file: IGT's TestOa ratios per interval (CSV and JSON), the file
//! walked byte by byte as IGT's format describes it, HSW and BDW
//! recordings, injected losses reaching the report, Ctrl-C ending with a
//! valid file, and bad arguments.
#![cfg(target_os = "linux")]

use crate::common;

use common::{says, TempFile};
use perfregs_linux::discovery::Topology;
use perfregs_linux::recording::read_all;
use perfregs_testkit::check_test_oa_ratios;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn perfregs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_perfregs"))
        .args(args)
        .output()
        .expect("run perfregs")
}

/// A command line's words (no word of these tests has a space).
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `perfregs record ARGS -o FILE`: exit code 0 asserted, stderr returned.
fn record(file: &TempFile, args: &[&str]) -> String {
    let path = file.path();
    let mut all = vec!["record"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", path]);
    let out = perfregs(&all);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(out.stdout.is_empty(), "record writes nothing on stdout");
    err
}

/// A new file recorded by `perfregs record LINE -o FILE` (LINE's words),
/// as [`record`]: the file and record's stderr.
fn recorded(line: &str) -> (TempFile, String) {
    let file = TempFile::new("out.record");
    let err = record(&file, &words(line));
    (file, err)
}

/// `perfregs report FILE ARGS`, which must exit with `code`: (stdout,
/// stderr).
fn reported(file: &TempFile, args: &[&str], code: i32) -> (String, String) {
    let (got, out, err) = report(file, args);
    assert_eq!(got, code, "{args:?}: {out}{err}");
    (out, err)
}

/// `perfregs report FILE ARGS`: (code, stdout, stderr).
fn report(file: &TempFile, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["report", file.path()];
    all.extend_from_slice(args);
    let out = perfregs(&all);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// The CSV (no quoted commas in these documents) as one map per row.
fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = text.lines();
    let head: Vec<String> = lines
        .next()
        .expect("a header")
        .split(',')
        .map(String::from)
        .collect();
    lines
        .map(|l| {
            let fields: Vec<String> = l.split(',').map(String::from).collect();
            assert_eq!(fields.len(), head.len(), "{l}");
            head.iter().cloned().zip(fields).collect()
        })
        .collect()
}

/// The integer of the column `name` (or `name (unit)`).
fn int(row: &BTreeMap<String, String>, name: &str) -> u64 {
    let v = row
        .iter()
        .find(|(h, _)| *h == name || h.starts_with(&format!("{name} (")))
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no column {name}: {:?}", row.keys()));
    v.parse()
        .unwrap_or_else(|_| panic!("{name}: `{v}` is not an integer"))
}

/// The PCI id of `project` GT`gt` that `record --emulate` writes: one of
/// the device table's rows of that part.
fn part_of(pci_id: u32) -> (&'static str, Option<u8>) {
    let id = hal::device(pci_id as u16).expect("a PCI id of the device table");
    (id.project.expect("a described project"), id.gt)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
fn c_string(b: &[u8]) -> &str {
    let end = b.iter().position(|&c| c == 0).expect("NUL-terminated");
    std::str::from_utf8(&b[..end]).expect("UTF-8")
}

/// One record as IGT's format frames it: (type, offset of the payload, payload).
fn walk(bytes: &[u8]) -> Vec<(u32, usize, &[u8])> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        assert!(at + 8 <= bytes.len(), "a header at {at}");
        let kind = u32_at(bytes, at);
        assert_eq!(u16_at(bytes, at + 4), 0, "pad at {at}");
        let size = usize::from(u16_at(bytes, at + 6));
        assert!(size >= 8 && at + size <= bytes.len(), "size {size} at {at}");
        out.push((kind, at + 8, &bytes[at + 8..at + size]));
        at += size;
    }
    out
}

const VERSION: u32 = 65536;
const DEVICE_INFO: u32 = 65537;
const TOPOLOGY: u32 = 65538;
const CORRELATION: u32 = 65539;
const SAMPLE: u32 = 1;
// IGT's lib/xe/xe_oa_data.h:16-38, enum intel_xe_perf_record_type.
const XE_VERSION: u32 = 4;
const XE_DEVICE_INFO: u32 = 5;
const XE_TOPOLOGY: u32 = 6;
const XE_CORRELATION: u32 = 7;
const REPORT_LOST: u32 = 2;
const BUFFER_LOST: u32 = 3;

/// `report FILE --format csv --reports 100` of a loss-free TGL TestOa
/// recording of 2000 reports, one every 2^14 ticks (19.2 MHz).
fn check_test_oa_2000_report(file: &TempFile) {
    check_test_oa_report("tgl", file, 2000, 100, 16384, 19_200_000);
}

/// The loss records of a recording in order, each asserted a header alone.
fn losses(bytes: &[u8]) -> Vec<u32> {
    walk(bytes)
        .iter()
        .filter(|r| r.0 == REPORT_LOST || r.0 == BUFFER_LOST)
        .inspect(|r| assert!(r.2.is_empty(), "a loss is a header alone"))
        .map(|r| r.0)
        .collect()
}

/// `report FILE --format csv --interval 100ms` of a TestOa recording with
/// 2 report-lost and 1 buffer-lost records: the losses said and counted,
/// each flagging its interval, IGT's ratios in every interval with pairs.
fn check_three_losses_report(file: &TempFile) {
    let (code, out, rerr) = report(file, &["--format", "csv", "--interval", "100ms"]);
    assert_eq!(code, 0, "{rerr}");
    says(&rerr, "2 OA_REPORT_LOST, 1 OA_BUFFER_LOST");
    let rows = csv_rows(&out);
    assert_eq!(rows.iter().map(|r| int(r, "reports_lost")).sum::<u64>(), 2);
    assert_eq!(rows.iter().map(|r| int(r, "buffers_lost")).sum::<u64>(), 1);
    assert_eq!(
        rows.iter().filter(|r| !r["flags"].is_empty()).count(),
        3,
        "each loss flags its interval"
    );
    for row in &rows {
        let pairs = int(row, "pairs");
        if pairs > 0 {
            check_test_oa_ratios("row", |n| int(row, n), pairs);
        }
    }
}

#[test]
fn done_when_test_oa_recorded_and_reported_gives_igts_ratios() {
    let (file, err) = recorded("--emulate tgl --metric-set TestOa --reports 2000");
    says(&err, "recording emulated tgl GT2");
    says(&err, "format A32U40_A4U32_B8_C8 (i915 id 10)");
    says(&err, "period: exponent 13 (nearest the default 1ms): a report every 2^14 = 16384 timestamp ticks");
    says(&err, "recorded 2000 reports (0 report-lost, 0 buffer-lost)");
    // Stderr is not a terminal here: no progress line, one summary.
    assert!(!err.contains('\r'), "{err:?}");

    check_test_oa_2000_report(&file);

    let (out, _) = reported(&file, &["--format", "json", "--interval", "100ms"], 0);
    let doc: Json = serde_json::from_str(&out).expect("one JSON document");
    let intervals = doc["intervals"].as_array().expect("intervals");
    assert!(intervals.len() >= 17, "{}", intervals.len());
    let mut total = 0;
    for iv in intervals {
        let pairs = iv["labels"]["pairs"].as_u64().expect("pairs");
        total += pairs;
        check_test_oa_ratios(
            "interval",
            |n| {
                iv["counters"][n]["value"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("{n}: {}", iv["counters"][n]))
            },
            pairs,
        );
    }
    assert_eq!(total, 1999);
}

#[test]
fn the_file_is_igts_format_byte_for_byte() {
    let (file, _) = recorded("--emulate tgl --metric-set TestOa --reports 2000");
    let bytes = file.bytes();
    let recs = walk(&bytes);
    // VERSION = 1 first.
    assert_eq!(recs[0].0, VERSION);
    assert_eq!(recs[0].2.len(), 8);
    assert_eq!(u32_at(recs[0].2, 0), 1);
    // DEVICE_INFO: exactly 344 bytes with the header.
    let (kind, at, di) = recs[1];
    assert_eq!(kind, DEVICE_INFO);
    assert_eq!(at, 16 + 8);
    assert_eq!(di.len() + 8, 344);
    assert_eq!(u64_at(di, 0), 19_200_000, "timestamp frequency");
    let pci_id = u32_at(di, 8);
    assert_eq!(part_of(pci_id), ("tgl", Some(2)), "{pci_id:#x}");
    // GT frequencies in Hz (IGT's unit): the TGL GT2 preset's 300-1350 MHz.
    assert_eq!(u32_at(di, 16), 300_000_000);
    assert_eq!(u32_at(di, 20), 1_350_000_000);
    assert_eq!(u32_at(di, 32), 10, "I915_OA_FORMAT_A32u40_A4u32_B8_C8");
    assert_eq!(c_string(&di[36..36 + 256]), "TestOa");
    assert_eq!(
        c_string(&di[292..292 + 40]),
        perfregs_metrics::tgl_gt2::test_oa::SET.guid
    );
    // DEVICE_TOPOLOGY: i915's query layout of 6 dual subslices of 16 EUs.
    let (kind, _, topo) = recs[2];
    assert_eq!(kind, TOPOLOGY);
    assert_eq!(topo.len() % 8, 0, "padded to 8");
    let t = Topology::parse(topo).expect("a topology");
    assert_eq!(
        (t.slice_mask, t.subslice_mask(), t.eu_count()),
        (1, 0x3f, 96)
    );
    // A correlation before the first sample and after the last.
    let first_sample = recs.iter().position(|r| r.0 == SAMPLE).expect("samples");
    let last_sample = recs.iter().rposition(|r| r.0 == SAMPLE).expect("samples");
    assert!(recs[3..first_sample].iter().any(|r| r.0 == CORRELATION));
    assert!(recs[last_sample + 1..].iter().any(|r| r.0 == CORRELATION));
    assert_eq!(
        recs.last().map(|r| r.0),
        Some(CORRELATION),
        "the closing one"
    );
    // Correlations: 16 bytes, CPU and GPU times increasing.
    let corr: Vec<(u64, u64)> = recs
        .iter()
        .filter(|r| r.0 == CORRELATION)
        .map(|r| {
            assert_eq!(r.2.len(), 16);
            (u64_at(r.2, 0), u64_at(r.2, 8))
        })
        .collect();
    assert!(
        corr.windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1),
        "{corr:?}"
    );
    // 2000 samples of 264 bytes (8 + 256), TIME_STAMP 16384 ticks apart.
    let samples: Vec<&[u8]> = recs.iter().filter(|r| r.0 == SAMPLE).map(|r| r.2).collect();
    assert_eq!(samples.len(), 2000);
    assert!(samples.iter().all(|s| s.len() == 256));
    let ts: Vec<u32> = samples.iter().map(|s| u32_at(s, 4)).collect();
    assert!(
        ts.windows(2).all(|w| w[1].wrapping_sub(w[0]) == 16384),
        "{:?}",
        &ts[..4]
    );
    // Every record is one this recording may hold, and the sizes add up.
    assert!(recs
        .iter()
        .all(|r| [VERSION, DEVICE_INFO, TOPOLOGY, CORRELATION, SAMPLE].contains(&r.0)));
    assert_eq!(
        bytes.len(),
        recs.iter().map(|r| r.2.len() + 8).sum::<usize>()
    );
    // The library's reader agrees, and IGT's reader would take it.
    let (rec, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(rec.samples, 2000);
    assert_eq!(rec.igt_readable(), Ok(()));
}

#[test]
fn hsw_and_bdw_recordings_are_reported() {
    for (project, format, ts_hz) in [("hsw", 5, 12_500_000u64), ("bdw", 10, 12_500_000)] {
        let (file, err) = recorded(&format!(
            "--emulate {project} --metric-set RenderBasic --reports 300 --exponent 9"
        ));
        assert!(
            err.contains(
                "period: exponent 9 (--exponent): a report every 2^10 = 1024 timestamp ticks"
            ),
            "{err}"
        );
        let bytes = file.bytes();
        let recs = walk(&bytes);
        let di = recs[1].2;
        assert_eq!(part_of(u32_at(di, 8)), (project, Some(2)), "{project}");
        assert_eq!(u32_at(di, 32), format, "{project}");
        assert_eq!(u64_at(di, 0), ts_hz);
        assert_eq!(c_string(&di[36..292]), "RenderBasic");
        let samples = recs.iter().filter(|r| r.0 == SAMPLE).count();
        assert_eq!(samples, 300, "{project}");

        let (out, rerr) = reported(&file, &["--format", "csv", "--reports", "50"], 0);
        says(&rerr, "metric set RenderBasic");
        let rows = csv_rows(&out);
        assert_eq!(rows.len(), 6, "{project}: 299 pairs in 50s");
        for row in &rows {
            let pairs = int(row, "pairs");
            assert_eq!(
                int(row, "GpuTime"),
                pairs * 1024 * 1_000_000_000 / ts_hz,
                "{project}"
            );
            assert!(int(row, "GpuCoreClocks") > 0, "{project}");
        }
    }
}

#[test]
fn period_picks_the_nearest_exponent_and_duration_is_emulated_time() {
    // 100 us at 19.2 MHz = 1920 ticks: 2^11 = 2048 (exponent 10) is nearest.
    let (file, err) =
        recorded("--emulate tgl --gt1 --metric-set test_oa --period 100us --duration 50ms");
    says(&err, "recording emulated tgl GT1");
    says(&err, "period: exponent 10 (nearest --period 100.000us): a report every 2^11 = 2048 timestamp ticks = 106.667us");
    let bytes = file.bytes();
    let (rec, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    // 50 ms = 960000 ticks: 468 or 469 reports of 2048 ticks.
    assert!((468..=469).contains(&rec.samples), "{}", rec.samples);
    let recs = walk(&bytes);
    assert_eq!(part_of(u32_at(recs[1].2, 8)), ("tgl", Some(1)));
    let t = Topology::parse(recs[2].2).expect("topology");
    assert_eq!(t.eu_count(), 32);
}

#[test]
fn injected_losses_appear_in_the_report() {
    let (file, err) = recorded("--emulate tgl --metric-set TestOa --duration 2s --inject-loss 3");
    // Report-lost and buffer-lost in turn.
    says(&err, "(2 report-lost, 1 buffer-lost)");
    assert_eq!(
        losses(&file.bytes()),
        [REPORT_LOST, BUFFER_LOST, REPORT_LOST]
    );
    check_three_losses_report(&file);
    // One correlation per emulated second besides the first and last.
    let corr = walk(&file.bytes())
        .iter()
        .filter(|r| r.0 == CORRELATION)
        .count();
    assert_eq!(corr, 4, "start, 1 s, 2 s, end");
}

/// The samples' payloads of a recording.
fn samples(bytes: &[u8]) -> Vec<Vec<u8>> {
    walk(bytes)
        .iter()
        .filter(|r| r.0 == SAMPLE)
        .map(|r| r.2.to_vec())
        .collect()
}

#[test]
fn xe_test_oa_recorded_and_reported_gives_igts_ratios() {
    let (file, err) = recorded("--emulate tgl --driver xe --metric-set TestOa --reports 2000");
    says(&err, "recording emulated tgl GT2 under xe");
    // xe_oa.c: A32u40_A4u32_B8_C8 = counter select 5, type OAG (0); IGT's
    // lib/xe/xe_oa.h numbers it 4.
    assert!(
        err.contains(
            "format A32U40_A4U32_B8_C8 (Xe OA_FORMAT 0x500, OA unit 0, engine render 0; \
             IGT xe format 4 XE_OA_FORMAT_A32u40_A4u32_B8_C8 in DEVICE_INFO)"
        ),
        "{err}"
    );
    says(&err, "recorded 2000 reports (0 report-lost, 0 buffer-lost)");
    // No loss: no EIO, so no STATUS read and no status event.
    assert!(!err.contains("STATUS"), "{err}");
    assert!(!err.contains("Xe status events"), "{err}");

    let bytes = file.bytes();
    let (rec, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(rec.samples, 2000);
    assert_eq!(rec.igt_readable(), Ok(()));
    let recs = walk(&bytes);
    assert_eq!(recs[1].0, XE_DEVICE_INFO);
    assert_eq!(u32_at(recs[1].2, 32), 4, "IGT's xe number of the layout");
    // The raw reports became SAMPLE records of 256 bytes, 2^14 ticks apart.
    let xe = samples(&bytes);
    assert!(xe.iter().all(|s| s.len() == 256));
    assert!(
        xe.windows(2)
            .all(|w| u32_at(&w[1], 4).wrapping_sub(u32_at(&w[0], 4)) == 16384),
        "TIME_STAMP steps"
    );
    // The same reports, counters for counters, as i915's framing carries
    // them (the TIME_STAMP and the report id aside: the Xe stream is
    // enabled once more after its open).
    let (i915, _) = recorded("--emulate tgl --metric-set TestOa --reports 2000");
    let other = samples(&i915.bytes());
    assert_eq!(other.len(), xe.len());
    let deltas = |s: &[Vec<u8>]| -> Vec<Vec<u32>> {
        s.windows(2)
            .map(|w| {
                (2..64)
                    .map(|d| u32_at(&w[1], d * 4).wrapping_sub(u32_at(&w[0], d * 4)))
                    .collect()
            })
            .collect()
    };
    assert_eq!(deltas(&xe), deltas(&other), "the counter deltas");

    check_test_oa_2000_report(&file);
}

/// `record --driver xe` writes IGT's xe-perf-recorder format (its header
/// laid out from IGT's `lib/xe/xe_oa_data.h`), and `report` reads it in
/// every output format, saying the driver, the OA unit, the engine and the
/// format.
#[test]
fn xe_recordings_are_igts_xe_format_and_report_says_so() {
    let (file, _) = recorded("--emulate tgl --driver xe --metric-set TestOa --reports 200");
    let bytes = file.bytes();
    let recs = walk(&bytes);
    // VERSION (4) = 1, DEVICE_INFO (5) of 336 payload bytes, TOPOLOGY (6).
    assert_eq!((recs[0].0, u32_at(recs[0].2, 0)), (XE_VERSION, 1));
    let (kind, _, di) = recs[1];
    assert_eq!((kind, di.len()), (XE_DEVICE_INFO, 336));
    assert_eq!(u64_at(di, 0), 19_200_000, "timestamp_frequency @0");
    assert_eq!(part_of(u32_at(di, 8)), ("tgl", Some(2)), "device_id @8");
    assert_eq!(
        u32_at(di, 24),
        0,
        "engine_class @24: DRM_XE_ENGINE_CLASS_RENDER"
    );
    assert_eq!(u32_at(di, 28), 0, "engine_instance @28");
    assert_eq!(
        u32_at(di, 32),
        4,
        "oa_format @32: XE_OA_FORMAT_A32u40_A4u32_B8_C8"
    );
    assert_eq!(c_string(&di[36..36 + 256]), "TestOa");
    assert_eq!(
        c_string(&di[292..292 + 40]),
        perfregs_metrics::tgl_gt2::test_oa::SET.guid
    );
    // xe_fill_topology_info's layout: one slice, 6 DSS, 16 EUs, an EU mask
    // per DSS, 32 bytes.
    let (kind, _, topo) = recs[2];
    assert_eq!((kind, topo.len()), (XE_TOPOLOGY, 32));
    let h: Vec<u16> = (0..8).map(|i| u16_at(topo, 2 * i)).collect();
    assert_eq!(h, [0, 1, 6, 16, 1, 1, 2, 2]);
    assert_eq!(&topo[16..18], &[0x01, 0x3f]);
    // Correlations are xe's type; nothing of i915's metadata types.
    assert_eq!(recs[3].0, XE_CORRELATION);
    assert_eq!(recs.last().map(|r| r.0), Some(XE_CORRELATION));
    assert!(!recs
        .iter()
        .any(|r| [VERSION, DEVICE_INFO, TOPOLOGY, CORRELATION].contains(&r.0)));
    assert_eq!(samples(&bytes).len(), 200);

    let origin =
        "recorded under xe (IGT's xe-perf-recorder format): OA unit OAG (engine render 0), \
                  OA format 4 XE_OA_FORMAT_A32u40_A4u32_B8_C8 (OAG, select 5, 256 bytes)";
    // Table: the header on stdout.
    let (out, _) = reported(&file, &["--reports", "20"], 0);
    says(&out, "xe-perf-recorder format, 205 record(s)");
    says(&out, origin);
    says(&out, "device: TGL GT2");
    // CSV: the header on stderr, the rows on stdout, IGT's ratios in each.
    let (out, err) = reported(&file, &["--format", "csv", "--reports", "20"], 0);
    says(&err, origin);
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 10, "199 pairs in tens");
    for row in &rows {
        check_test_oa_ratios("row", |n| int(row, n), int(row, "pairs"));
    }
    // JSON: the driver in the document's notes.
    let (out, err) = reported(&file, &["--format", "json", "--reports", "20"], 0);
    says(&err, origin);
    let doc: Json = serde_json::from_str(&out).expect("one JSON document");
    let notes: Vec<&str> = doc["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(Json::as_str)
        .collect();
    assert!(notes.iter().any(|n| n.starts_with(origin)), "{notes:?}");
    assert_eq!(doc["intervals"].as_array().map(Vec::len), Some(10));

    // The i915 recording of the same stream says i915.
    let (i915, _) = recorded("--emulate tgl --metric-set TestOa --reports 200");
    let (out, err) = reported(&i915, &["--format", "csv", "--reports", "20"], 0);
    says(&err, "i915-perf-recorder format, 205 record(s)");
    says(
        &err,
        "recorded under i915 (IGT's i915-perf-recorder format): engine render 0, OA format 10",
    );
    assert_eq!(csv_rows(&out).len(), 10);
}

/// IGT's own `xe-perf-reader` takes what `record --driver xe` writes and
/// computes TestOa's counters from it (outside CI: build IGT and give the
/// reader's path in `PERFREGS_XE_PERF_READER`).
#[test]
#[ignore = "needs IGT's xe-perf-reader built: PERFREGS_XE_PERF_READER=/path/to/xe-perf-reader"]
fn igts_xe_perf_reader_accepts_the_recording() {
    let Some(reader) = std::env::var_os("PERFREGS_XE_PERF_READER") else {
        eprintln!("PERFREGS_XE_PERF_READER is not set: nothing run");
        return;
    };
    let (file, _) = recorded("--emulate tgl --driver xe --metric-set TestOa --reports 200");
    let out = Command::new(reader)
        .args(["-c", "GpuTime,GpuCoreClocks,Counter1,Counter2", file.path()])
        .output()
        .expect("run xe-perf-reader");
    let text = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{text}");
    says(&text, "Metric used : TestOa");
    says(&text, "Reports: 200");
    // 199 report pairs of 2^14 ticks at 19.2 MHz.
    says(&text, "GpuTime: 169813333");
    let value = |name: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no {name}: {text}"))
            .to_string()
    };
    assert_eq!(value("Counter1"), value("GpuCoreClocks"), "{text}");
    assert_eq!(value("Counter2"), value("GpuCoreClocks"), "{text}");
}

#[test]
fn xe_status_losses_appear_in_the_report() {
    let (file, err) = recorded("--emulate tgl --driver xe --metric-set TestOa --duration 2s --inject-loss 3 --inject-status COUNTER_OVERFLOW,MMIO_TRG_Q_FULL");
    // REPORT_LOST and BUFFER_OVERFLOW in turn, read from STATUS after EIO.
    says(&err, "(2 report-lost, 1 buffer-lost)");
    let eios: u64 = err
        .split("; ")
        .find_map(|p| p.strip_suffix(" EIO read(s) answered by the Xe STATUS ioctl"))
        .unwrap_or_else(|| panic!("no STATUS reads said: {err}"))
        .parse()
        .expect("a count");
    // Three losses and one status, two of them perhaps at the same read.
    assert!((3..=4).contains(&eios), "{err}");
    says(&err, "Xe status events not in the file (IGT's format has no record type for them): 1 COUNTER_OVERFLOW, 1 MMIO_TRG_Q_FULL, 0 unknown");
    let bytes = file.bytes();
    assert_eq!(losses(&bytes), [REPORT_LOST, BUFFER_LOST, REPORT_LOST]);
    let (rec, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(rec.igt_readable(), Ok(()));
    // A buffer overflow drops what the OA buffer held (xe resets it when
    // STATUS is read): fewer than the 2343 reports of 2 s, and said.
    assert!(rec.samples > 2000 && rec.samples < 2343, "{}", rec.samples);
    assert!(
        err.contains(&format!("recorded {} reports", rec.samples)),
        "{err}"
    );

    check_three_losses_report(&file);
}

/// A recording of 1000 reports that an injected EIO ended halfway (i915
/// and Xe alike; exit 1): the last line of stderr the failed read and the
/// reports recorded, the file closed valid with what was read before it.
fn check_ended_by_eio(file: &TempFile, err: &str) {
    let last = err.lines().last().expect("a message");
    assert!(
        last.starts_with("perfregs record: reading the OA stream:"),
        "{err}"
    );
    says(last, "failed with EIO");
    let bytes = file.bytes();
    let (rec, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert!(rec.samples > 0 && rec.samples < 1000, "{}", rec.samples);
    assert_eq!(rec.igt_readable(), Ok(()));
    says(
        last,
        &format!("the recording ends there: recorded {} reports", rec.samples),
    );
}

#[test]
fn xe_emulation_errors_and_bad_arguments() {
    // EIO with a clear status: an error, not a loss; the file stays valid.
    let file = TempFile::new("out.record");
    let (code, err) = record_status(
        &file,
        &words("--emulate tgl --driver xe --metric-set TestOa --reports 1000 --inject-errno EIO"),
    );
    assert_eq!(code, Some(1), "{err}");
    check_ended_by_eio(&file, &err);

    let e = record_usage_error(&file, "--emulate hsw --driver xe --metric-set RenderBasic");
    says(&e, "--driver xe: HSW runs under i915 only");
    // Gen9 and Gen11 parts too: xe drives the Gen12 ones, which the
    // message lists as the catalogue gives them.
    let xe: Vec<&str> = hal::PROJECTS
        .iter()
        .filter(|p| p.gpu.is_some_and(|g| g.runs_under(hal::meta::Driver::Xe)))
        .map(|p| p.name)
        .collect();
    assert!(xe.contains(&"tgl"), "{xe:?}");
    for p in ["skl", "icl"] {
        let e = record_usage_error(
            &file,
            &format!("--emulate {p} --driver xe --metric-set TestOa"),
        );
        says(
            &e,
            &format!(
                "runs under i915 only (xe drives TGL and later: {} here)",
                xe.join(", ")
            ),
        );
    }
    let e = record_usage_error(
        &file,
        "--emulate tgl --driver i915 --inject-status COUNTER_OVERFLOW --metric-set TestOa",
    );
    says(&e, "give --driver xe");
    let e = record_usage_error(
        &file,
        "--emulate tgl --driver xe --inject-status OVERHEAT --metric-set TestOa",
    );
    says(&e, "not an Xe STATUS bit");
    let e = record_usage_error(&file, "--device card0 --driver xe --metric-set TestOa");
    says(
        &e,
        "--driver is for --emulate; with --device the card's own driver",
    );
    let e = record_usage_error(&file, "--device card0 --inject-loss 1 --metric-set TestOa");
    says(&e, "--inject-loss is for --emulate");
    let e = record_usage_error(&file, "--emulate tgl --sys /tmp --metric-set TestOa");
    says(&e, "--sys is for --device");
}

#[test]
fn ctrl_c_ends_the_recording_with_a_valid_file() {
    let file = TempFile::new("out.record");
    let child = Command::new(env!("CARGO_BIN_EXE_perfregs"))
        .args([
            "record",
            "--emulate",
            "tgl",
            "--metric-set",
            "TestOa",
            "--duration",
            "1000000s",
            "-o",
        ])
        .arg(&file.0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn perfregs record");
    // Wait until samples are being written.
    let started = Instant::now();
    while std::fs::metadata(&file.0).map_or(0, |m| m.len()) < 200_000 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no recording after 60 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(status.success());
    let out = child.wait_with_output().expect("the recorder ends");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    says(&err, ", interrupted;");
    let bytes = file.bytes();
    let (rec, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert!(rec.samples > 100, "{}", rec.samples);
    assert_eq!(rec.igt_readable(), Ok(()));
    assert_eq!(walk(&bytes).last().map(|r| r.0), Some(CORRELATION));
    assert!(
        err.contains(&format!("recorded {} reports", rec.samples)),
        "{err}"
    );
}

/// A usage error: exit 2, the message on the first stderr line, nothing
/// but clap's `For more information` line after it.
fn usage_error(args: &[&str]) -> String {
    let out = perfregs(args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty());
    let lines: Vec<&str> = err.lines().collect();
    assert!(!lines.is_empty() && lines.len() <= 2, "{args:?}: {err}");
    if let Some(l) = lines.get(1) {
        assert!(l.starts_with("For more information"), "{err}");
    }
    lines[0].to_string()
}

/// `perfregs record LINE -o FILE` (LINE's words), a usage error: its line.
fn record_usage_error(file: &TempFile, line: &str) -> String {
    let mut all = words("record");
    all.extend(words(line));
    all.extend(["-o", file.path()]);
    usage_error(&all)
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let out = TempFile::new("out.record");
    let e = record_usage_error(&out, "--emulate tgl --metric-set TestOx");
    says(&e, "no metric set `TestOx`");
    says(&e, "did you mean TestOa");
    assert!(!out.0.exists(), "no file for a bad set");
    for (line, want) in [
        (
            "--device card0 --emulate tgl --metric-set TestOa",
            "cannot be used with",
        ),
        ("--metric-set TestOa", "--device <cardN>"),
        // SNB has no OA stream to emulate (skl, emulated since issue 18, was
        // the example before).
        ("--emulate snb --metric-set TestOa", "invalid value 'snb'"),
        // A GT the project has no part for: the GTs it has are named.
        (
            "--emulate hsw --gt1 --metric-set RenderBasic",
            "--gt 1: hsw has no GT1 metric file (its parts: GT2;",
        ),
        (
            "--emulate skl --gt 1 --metric-set TestOa",
            "--gt 1: skl has no GT1 metric file (its parts: GT2, GT3, GT4;",
        ),
        (
            "--emulate skl --gt 3 --gt2 --metric-set TestOa",
            "cannot be used with",
        ),
        ("--emulate tgl --metric-set TestOa --exponent 32", "32"),
        (
            "--emulate tgl --metric-set TestOa --period 1",
            "a time with a unit",
        ),
    ] {
        let e = record_usage_error(&out, line);
        assert!(e.contains(want), "{line}: {e}");
    }
    let e = usage_error(&words("record --emulate tgl --metric-set TestOa"));
    says(&e, "--output <FILE.record>");
}

#[test]
fn a_device_on_a_machine_without_it_is_a_clear_error() {
    let out = TempFile::new("out.record");
    let (code, err) = record_status(&out, &words("--device card97 --metric-set TestOa"));
    assert_eq!(code, Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("perfregs record: no such card `card97`"),
        "{err}"
    );
    says(&err, "perfregs devices");
    assert!(!out.0.exists(), "no file written");
    // card0: absent here (no such card), or present and judged (the verdict).
    let (code, err) = record_status(
        &out,
        &words("--device card0 --metric-set TestOa --reports 1"),
    );
    assert!(!err.contains("panicked"), "{err}");
    if code != Some(0) {
        assert_eq!(code, Some(1), "{err}");
        assert!(err.starts_with("perfregs record: "), "{err}");
    } else {
        println!("card0 recorded here: {err}");
    }
}

#[test]
fn help_names_the_options() {
    let out = perfregs(&["record", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for opt in [
        "--device",
        "--emulate",
        "--metric-set",
        "--period",
        "--exponent",
        "--duration",
        "--reports",
        "--output",
    ] {
        assert!(help.contains(opt), "{opt}: {help}");
    }
    says(&help, "--driver");
    assert!(
        !help.contains("--inject-loss") && !help.contains("--inject-status"),
        "a test-only flag is hidden"
    );
    assert!(Path::new(env!("CARGO_BIN_EXE_perfregs")).exists());
}

/// `perfregs record ARGS -o FILE`: (code, stderr), any exit code.
fn record_status(file: &TempFile, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["record"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", file.path()]);
    let out = perfregs(&all);
    (out.status.code(), text(&out.stderr))
}

#[test]
fn kernel_errors_reach_the_user_and_the_file_stays_valid() {
    // A new file recorded with `FLAG ERRNO` injected, which must exit with
    // `want`: (file, stderr).
    let injected = |flag: &str, errno: &str, want: i32| {
        let file = TempFile::new("out.record");
        let line = format!("--emulate tgl --metric-set TestOa --reports 1000 {flag} {errno}");
        let (code, err) = record_status(&file, &words(&line));
        assert_eq!(code, Some(want), "{errno}: {err}");
        (file, err)
    };
    // EIO halfway: exit 1, the errno's message, the file closed with what
    // was read before it.
    let (file, err) = injected("--inject-errno", "EIO", 1);
    check_ended_by_eio(&file, &err);
    // The good part is reported.
    reported(&file, &["--format", "csv"], 0);

    // EINTR is retried and ENOSPC grows the buffer: the recording goes
    // on, and the summary says what happened.
    for (errno, said) in [
        ("EINTR", "1 read(s) interrupted (EINTR) and retried"),
        ("eintr", "1 read(s) interrupted (EINTR) and retried"),
        ("ENOSPC", "the read buffer grown 1 time(s) (ENOSPC)"),
    ] {
        let (file, err) = injected("--inject-errno", errno, 0);
        assert!(err.contains("recorded 1000 reports"), "{errno}: {err}");
        assert!(err.contains(said), "{errno}: {err}");
        let bytes = file.bytes();
        let (rec, error) = read_all(&bytes);
        assert!(error.is_none() && rec.samples == 1000, "{errno}: {error:?}");
    }

    // Refused at open: the actionable message, no file.
    for (errno, said) in [
        ("EACCES", "perf_stream_paranoid=0"),
        ("EBUSY", "another OA stream is open"),
        ("ENODEV", "the device is gone"),
    ] {
        let (file, err) = injected("--inject-open-errno", errno, 1);
        let last = err.lines().last().expect("a message");
        assert!(
            last.starts_with("perfregs record: opening the emulated stream:"),
            "{err}"
        );
        assert!(last.contains(&format!("failed with {errno}")), "{err}");
        assert!(last.contains(said), "{errno}: {err}");
        assert!(!file.0.exists(), "{errno}: no file");
    }
    let e = usage_error(&words(
        "record --emulate tgl --metric-set TestOa --inject-errno EWHAT -o x.record",
    ));
    says(&e, "not an errno name");
}

#[test]
fn a_terminal_gets_a_live_progress_line() {
    // `script` gives the recorder a terminal (util-linux).
    let probe = Command::new("script").arg("--version").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        println!("skipped: no `script` (util-linux) to give the recorder a terminal");
        return;
    }
    let file = TempFile::new("out.record");
    let cmd = format!(
        "{} record --emulate tgl --metric-set TestOa --duration 20s -o {}",
        env!("CARGO_BIN_EXE_perfregs"),
        file.0.display()
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .expect("script");
    let all = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{all}");
    // Updated in place: carriage return and erase-line, then the counts.
    let updates: Vec<&str> = all.split("\r\x1b[K").skip(1).collect();
    assert!(updates.len() >= 2, "{all:?}");
    let live = updates[0];
    for part in [
        " reports, ",
        " lost, ",
        " MB/s, ",
        "s elapsed, ",
        " emulated",
    ] {
        assert!(live.contains(part), "{part}: {live:?}");
    }
    // The last update is cleared for the summary.
    assert!(
        updates
            .last()
            .is_some_and(|l| l.starts_with("recorded 23438 reports")),
        "{all:?}"
    );
}

/// A fake sysfs/procfs/dev tree (as cli/tests/all/devices.rs builds them),
/// removed on drop.
struct Tree(PathBuf);

impl Tree {
    fn new() -> Tree {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "perfregs-cli-record-tree-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("dev/dri")).expect("temp dir");
        Tree(dir)
    }
    fn write(&self, rel: &str, text: &str) {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    /// Card `cardN` of PCI id `device` at 0000:00:02.0 bound to `driver`.
    fn card(&self, n: u32, device: u16, driver: &str) {
        use std::os::unix::fs::symlink;
        let pci = "sys/devices/pci0000:00/0000:00:02.0";
        self.write(&format!("{pci}/vendor"), "0x8086\n");
        self.write(&format!("{pci}/device"), &format!("{device:#06x}\n"));
        self.write(&format!("{pci}/revision"), "0x01\n");
        for d in [
            format!("{pci}/drm/card{n}"),
            format!("{pci}/drm/renderD{}", 128 + n),
        ] {
            std::fs::create_dir_all(self.0.join(d)).expect("mkdir");
        }
        std::fs::create_dir_all(self.0.join(format!("sys/bus/pci/drivers/{driver}")))
            .expect("mkdir");
        symlink(
            format!("../../../bus/pci/drivers/{driver}"),
            self.0.join(format!("{pci}/driver")),
        )
        .expect("driver link");
        let class = self.0.join(format!("sys/class/drm/card{n}"));
        std::fs::create_dir_all(&class).expect("mkdir");
        symlink(
            "../../../devices/pci0000:00/0000:00:02.0",
            class.join("device"),
        )
        .expect("device link");
    }
    fn access(&self, paranoid: u32, cap_eff: u64) {
        self.write(
            "proc/sys/dev/i915/perf_stream_paranoid",
            &format!("{paranoid}\n"),
        );
        self.write(
            "proc/self/status",
            &format!("Name:\tperfregs\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t{cap_eff:016x}\n"),
        );
    }
    /// `perfregs record --device cardN` on this tree, which must exit with
    /// `code`: its stderr.
    fn record(&self, card: &str, set: &str, out: &TempFile, code: i32) -> String {
        let r = Command::new(env!("CARGO_BIN_EXE_perfregs"))
            .args([
                "record",
                "--device",
                card,
                "--metric-set",
                set,
                "--reports",
                "10",
            ])
            .arg("--sys")
            .arg(self.0.join("sys"))
            .arg("--proc")
            .arg(self.0.join("proc"))
            .arg("--dev")
            .arg(self.0.join("dev"))
            .arg("-o")
            .arg(&out.0)
            .output()
            .expect("run perfregs");
        let err = text(&r.stderr);
        assert_eq!(r.status.code(), Some(code), "{card} {set}: {err}");
        err
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A card allowed OA streams on a fake tree: the driver was asked (the tree
/// has no render node to ask), the answer said, no file written.
fn check_asked_the_driver(err: &str, out: &TempFile) {
    assert!(
        err.starts_with("perfregs record: card0: asking the driver:"),
        "{err}"
    );
    says(err, "renderD128");
    assert!(!out.0.exists());
}

#[test]
fn a_card_is_judged_before_anything_is_opened() {
    // TGL GT2 on i915, paranoid 1, no capability: refused with the remedy.
    let t = Tree::new();
    t.card(0, 0x9A49, "i915");
    t.access(1, 0);
    let out = TempFile::new("out.record");
    let err = t.record("card0", "TestOa", &out, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("perfregs record: card0 0000:00:02.0 TGL GT2 (0x9a49)"),
        "{err}"
    );
    says(&err, "OA streams: no: dev.i915.perf_stream_paranoid is 1");
    says(&err, "sysctl dev.i915.perf_stream_paranoid=0");
    assert!(!out.0.exists(), "nothing written for a refused card");
    // `0` names card0 too; card1 does not exist and the cards are listed.
    let err = t.record("0", "TestOa", &out, 1);
    says(&err, "OA streams: no:");
    let err = t.record("card1", "TestOa", &out, 1);
    says(&err, "no such card `card1` (cards here: card0)");

    // Allowed (paranoid 0), but the set is not one of TGL GT2: usage error
    // with close names, before the driver is asked.
    t.access(0, 0);
    let err = t.record("card0", "TestOx", &out, 2);
    says(&err, "no metric set `TestOx` among");
    says(&err, "of tgl GT2 (did you mean TestOa?)");
    // Allowed, a good set: the fake tree's render node is missing, said
    // as the driver's answer that could not be had; no file, no panic.
    let err = t.record("card0", "TestOa", &out, 1);
    check_asked_the_driver(&err, &out);

    // SNB: no OA stream under Linux.
    let t = Tree::new();
    t.card(0, 0x0116, "i915");
    t.access(0, 0);
    let err = t.record("card0", "RenderBasic", &out, 1);
    says(&err, "no OA stream under Linux");
}

#[test]
fn an_xe_card_is_judged_by_xes_sysctl_and_then_asked() {
    let t = Tree::new();
    t.card(0, 0x9A49, "xe");
    t.access(0, 0); // i915's sysctl at 0 must not let an xe card through
    t.write("proc/sys/dev/xe/observation_paranoid", "1\n");
    let out = TempFile::new("out.record");
    let err = t.record("card0", "TestOa", &out, 1);
    says(&err, "OA streams: no: dev.xe.observation_paranoid is 1");
    says(&err, "sysctl dev.xe.observation_paranoid=0");
    assert!(!out.0.exists());
    // Allowed: past the verdict, the xe driver is asked (the fake tree
    // has no render node to ask), as for i915; no file, no panic.
    t.write("proc/sys/dev/xe/observation_paranoid", "0\n");
    let err = t.record("card0", "TestOa", &out, 1);
    check_asked_the_driver(&err, &out);
    // A set not of the part is a usage error before anything is opened.
    t.record("card0", "TestOx", &out, 2);
}

/// `record --device CARD --metric-set SET --reports 200 --period 1ms` on a
/// real card (exit 0, a file IGT reads with at least 200 samples), then
/// `report --format csv --reports 50` of it: the record's stderr and the
/// CSV rows; `None` (the skip printed) where the card is absent or its
/// verdict refuses OA streams. The card is named by environment variable
/// `card_var` (default `card0`).
fn record_on_a_real_card(
    card_var: &str,
    set: &str,
) -> Option<(String, Vec<BTreeMap<String, String>>)> {
    let card = std::env::var(card_var).unwrap_or_else(|_| "card0".into());
    let file = TempFile::new("out.record");
    let line = format!("--device {card} --metric-set {set} --reports 200 --period 1ms");
    let (code, err) = record_status(&file, &words(&line));
    if code == Some(1) && (err.contains("no such card") || err.contains("OA streams: no:")) {
        println!("skipped: {}", err.trim());
        return None;
    }
    assert_eq!(code, Some(0), "{err}");
    let bytes = file.bytes();
    let (rec, error) = read_all(&bytes);
    assert!(error.is_none(), "{error:?}");
    assert!(rec.samples >= 200, "{}", rec.samples);
    assert_eq!(rec.igt_readable(), Ok(()));
    let (out, _) = reported(&file, &["--format", "csv", "--reports", "50"], 0);
    let rows = csv_rows(&out);
    assert!(!rows.is_empty(), "{out}");
    Some((err, rows))
}

#[test]
#[ignore = "needs a TGL (or later described part) on the xe driver whose `perfregs devices` verdict allows OA streams"]
fn a_real_xe_card_records_test_oa() {
    let Some((err, _)) = record_on_a_real_card("PERFREGS_XE_CARD", "TestOa") else {
        return;
    };
    assert!(
        err.contains("Xe OA_FORMAT 0x500, OA unit 0"),
        "not an xe card: {err}"
    );
}

#[test]
#[ignore = "needs an Intel GPU (HSW, BDW or TGL on i915) that `perfregs devices` says can open OA streams"]
fn a_real_card_records_render_basic() {
    let Some((err, rows)) = record_on_a_real_card("PERFREGS_CARD", "RenderBasic") else {
        return;
    };
    says(&err, "config id ");
    assert!(rows.iter().all(|r| int(r, "GpuTime") > 0), "{rows:?}");
}

/// `report FILE --format csv --reports PER` of a loss-free TestOa recording
/// of `samples` reports, one every `period` ticks at `ts_hz`: IGT's ratios
/// in every interval, no loss, the GPU time of the interval's pairs.
/// Returns what `report` wrote to stderr.
fn check_test_oa_report(
    what: &str,
    file: &TempFile,
    samples: u64,
    per: u64,
    period: u64,
    ts_hz: u64,
) -> String {
    let per_arg = per.to_string();
    let (code, out, rerr) = report(file, &["--format", "csv", "--reports", &per_arg]);
    assert_eq!(code, 0, "{what}: {rerr}");
    says(&rerr, "metric set TestOa");
    says(&rerr, &format!("read: {samples} sample(s)"));
    says(&rerr, "losses: none");
    let rows = csv_rows(&out);
    // `samples - 1` pairs: intervals of `per`, the last one shorter
    // (2000 by 100: 19 of 100 and one of 99; 200 by 50: 3 of 50 and one of 49).
    assert_eq!(
        rows.len() as u64,
        (samples - 1).div_ceil(per),
        "{what}: {out}"
    );
    for row in &rows {
        let pairs = int(row, "pairs");
        check_test_oa_ratios(what, |n| int(row, n), pairs);
        assert_eq!(int(row, "reports_lost"), 0, "{what}");
        // GPU time: `pairs` periods.
        assert_eq!(
            int(row, "GpuTime"),
            pairs * period * 1_000_000_000 / ts_hz,
            "{what}"
        );
    }
    assert_eq!(
        rows.iter().map(|r| int(r, "pairs")).sum::<u64>(),
        samples - 1
    );
    rerr
}

#[test]
fn gen9_skl_gt3_test_oa_recorded_and_reported_gives_igts_ratios() {
    // SKL: 12 MHz timestamp; 1 ms is nearest 2^13 = 8192 ticks.
    let (file, err) = recorded("--emulate skl --gt 3 --metric-set TestOa --reports 200");
    says(&err, "recording emulated skl GT3 (PCI id ");
    says(
        &err,
        "format A32U40_A4U32_B8_C8 (i915 id 10), 12000000 Hz timestamp",
    );
    says(&err, "a report every 2^13 = 8192 timestamp ticks");
    says(&err, "recorded 200 reports (0 report-lost, 0 buffer-lost)");
    // DEVICE_INFO: a PCI id of SKL GT3, format 10, the GT3 file's set.
    let bytes = file.bytes();
    let recs = walk(&bytes);
    let di = recs[1].2;
    assert_eq!(part_of(u32_at(di, 8)), ("skl", Some(3)));
    assert_eq!(u32_at(di, 32), 10);
    assert_eq!(u64_at(di, 0), 12_000_000);
    assert_eq!(c_string(&di[36..292]), "TestOa");
    assert_eq!(
        c_string(&di[292..]),
        perfregs_metrics::skl_gt3::test_oa::SET.guid
    );
    let rerr = check_test_oa_report("skl GT3", &file, 200, 50, 8192, 12_000_000);
    says(&rerr, "project skl GT3");
    // The GT3 preset's topology: 48 EUs in 2 slices.
    says(&rerr, "EuCoresTotalCount 48");

    // Without --gt: GT2, the default part.
    let (file, err) = recorded("--emulate skl --metric-set TestOa --reports 200");
    says(&err, "recording emulated skl GT2 (PCI id ");
    let rerr = check_test_oa_report("skl GT2", &file, 200, 50, 8192, 12_000_000);
    says(&rerr, "project skl GT2");
}

#[test]
fn gen12_test_oa_recorded_and_reported_gives_igts_ratios_under_i915_and_xe() {
    // ADL under xe (0x500: xe_oa.c's A32u40_A4u32_B8_C8 on graphics 12),
    // RKL under i915: 19.2 MHz, 1 ms nearest 2^14 ticks.
    for (line, part) in [
        (
            "--emulate adl --driver xe --metric-set TestOa --reports 200",
            "adl GT2 under xe",
        ),
        (
            "--emulate rkl --metric-set TestOa --reports 200",
            "rkl GT1 (",
        ),
    ] {
        let (file, err) = recorded(line);
        says(&err, &format!("recording emulated {part}"));
        says(&err, "recorded 200 reports (0 report-lost, 0 buffer-lost)");
        let bytes = file.bytes();
        let (rec, error) = read_all(&bytes);
        assert!(error.is_none(), "{line}: {error:?}");
        assert_eq!(rec.igt_readable(), Ok(()), "{line}");
        let project = &part[..3];
        assert_eq!(part_of(u32_at(walk(&bytes)[1].2, 8)).0, project, "{line}");
        let rerr = check_test_oa_report(line, &file, 200, 50, 16384, 19_200_000);
        says(&rerr, &format!("project {project};"));
    }
    let (_, err) = recorded("--emulate adl --driver xe --metric-set TestOa --reports 10");
    says(
        &err,
        "format A32U40_A4U32_B8_C8 (Xe OA_FORMAT 0x500, OA unit 0, engine render 0; \
         IGT xe format 4 XE_OA_FORMAT_A32u40_A4u32_B8_C8 in DEVICE_INFO)",
    );
}

/// DG2 (ACM GT1..3) and MTL (GT2, GT3), under i915 and xe: TestOa gives
/// IGT's B-counter ratios (tests/intel/xe_oa.c sanity_check_reports, as on
/// TGL), every recording reads back through its format's checks, and the
/// xe one says the unit and IGT's xe format (A24u40_A14u32_B8_C8: 6).
#[test]
fn xe_hp_test_oa_gives_igts_ratios_under_i915_and_xe() {
    for part in [
        "dg2 --gt 1",
        "dg2 --gt 2",
        "dg2 --gt 3",
        "mtl --gt 2",
        "mtl --gt 3",
    ] {
        for driver in ["i915", "xe"] {
            let line =
                format!("--emulate {part} --driver {driver} --metric-set TestOa --reports 200");
            let (file, err) = recorded(&line);
            says(&err, "recorded 200 reports (0 report-lost, 0 buffer-lost)");
            says(&err, "format A24U40_A14U32_B8_C8");
            let bytes = file.bytes();
            let (rec, error) = read_all(&bytes);
            assert!(error.is_none(), "{line}: {error:?}");
            assert_eq!(rec.igt_readable(), Ok(()), "{line}");
            let rerr = check_test_oa_report(&line, &file, 200, 50, 16384, 19_200_000);
            says(&rerr, &format!("project {}", &part[..3]));
            if driver == "xe" {
                says(&rerr, "OA unit OAG (engine render 0), OA format 6");
            }
        }
    }
}

/// Every project only xe drives (the catalogue's): TestOa's PEC counters
/// meet IGT's pec_sanity_check (tests/intel/xe_oa.c): each present
/// XeCore's TEST_EVENT1 cycles advance with the GPU clock, TEST_EVENT1
/// cycles of all XeCores by the clock times the XeCore count; the counters
/// of absent XeCores are said to be unavailable. i915 refuses them.
#[test]
fn xe2_xe3_test_oa_gives_igts_pec_identities() {
    // The projects only xe drives, from the catalogue.
    let xe_only: Vec<&str> = hal::PROJECTS
        .iter()
        .filter(|p| p.gpu.is_some_and(|g| g.drivers == [hal::meta::Driver::Xe]))
        .map(|p| p.name)
        .collect();
    assert!(!xe_only.is_empty());
    for project in xe_only {
        let line = format!("--emulate {project} --metric-set TestOa --reports 200");
        let (file, err) = recorded(&line);
        says(&err, &format!("recording emulated {project} GT1 under xe"));
        says(&err, "format PEC64U64");
        let (code, out, rerr) = report(&file, &["--format", "csv", "--reports", "50"]);
        assert_eq!(code, 0, "{line}: {rerr}");
        says(&rerr, "OA format 11 XE_OA_FORMAT_PEC64u64");
        let rows = csv_rows(&out);
        assert_eq!(rows.len(), 4, "{out}");
        // The part's XeCores: the catalogue's dual-subslice mask.
        let xecores = hal::part(project, 1)
            .expect("the part")
            .device
            .dual_subslice_mask
            .count_ones() as u64;
        for row in &rows {
            let clocks = int(row, "GpuCoreClocks");
            assert!(clocks > 0, "{line}");
            let per_core: Vec<u64> = (0..64)
                .filter_map(|n| {
                    let name = format!("TEST_EVENT1_CYCLES_XECORE{n} (");
                    row.iter()
                        .find(|(h, _)| h.starts_with(&name))
                        .map(|(_, v)| v.parse::<u64>().expect("an integer"))
                })
                .collect();
            assert_eq!(per_core.len() as u64, xecores, "{line}: {row:?}");
            for v in &per_core {
                assert_eq!(*v, clocks, "{line}: {row:?}");
            }
            assert_eq!(int(row, "TEST_EVENT1_CYCLES"), clocks * xecores, "{line}");
        }
        if xecores < 28 && project == "bmg" {
            says(
                &rerr,
                "not on this device (availability false): TEST_EVENT1_CYCLES_XECORE",
            );
        }
        let e = record_usage_error(
            &file,
            &format!("--emulate {project} --driver i915 --metric-set TestOa"),
        );
        says(&e, "runs under xe only");
    }
}

/// The media units: MTL's OAM (i915 and xe) and the Xe2/Xe3 SCMI units
/// record a media set in its MPEC format, chosen by the set, with the
/// unit's engine in DEVICE_INFO; B0 is 0 and B1 = B2 = clocks on the OAM
/// unit (TestOam); a unit that does not write the set's format is refused.
#[test]
fn media_sets_record_on_the_media_units() {
    let (file, err) = recorded("--emulate mtl --gt 2 --metric-set TestOam --reports 100");
    says(&err, "recording OA unit oam");
    says(&err, "format MPEC8U32_B8_C8 (i915 id 14)");
    let (code, out, rerr) = report(&file, &["--format", "csv", "--reports", "33"]);
    assert_eq!(code, 0, "{rerr}");
    for row in csv_rows(&out) {
        let clocks = int(&row, "GpuCoreClocks");
        assert!(clocks > 0);
        assert_eq!(int(&row, "Counter0"), 0);
        assert_eq!(int(&row, "Counter1"), clocks);
        assert_eq!(int(&row, "Counter2"), clocks);
    }
    for (line, unit, index) in [
        (
            "--emulate mtl --gt 3 --driver xe --metric-set MediaSet1",
            "oam",
            1,
        ),
        ("--emulate lnl --metric-set MediaSet1", "scmi0", 2),
        (
            "--emulate bmg --unit scmi1 --metric-set MediaSet2",
            "scmi1",
            3,
        ),
        ("--emulate ptl --metric-set MediaSet2", "scmi0", 2),
    ] {
        let (file, err) = recorded(&format!("{line} --reports 50"));
        says(&err, "format MPEC8U32_B8_C8 (Xe OA_FORMAT 0x204");
        says(&err, &format!("OA unit {index}, engine video_decode"));
        if !line.contains("--unit") {
            says(&err, &format!("recording OA unit {unit}"));
        }
        let (code, _, rerr) = report(&file, &["--format", "csv"]);
        assert_eq!(code, 0, "{line}: {rerr}");
        says(&rerr, "OA unit OAM (engine video_decode");
        says(&rerr, "OA format 10 XE_OAM_FORMAT_MPEC8u32_B8_C8");
    }
    let e = record_usage_error(&file, "--emulate lnl --unit scmi0 --metric-set TestOa");
    says(&e, "--unit scmi0: TestOa reads PEC64U64 reports, which unit scmi0 does not write (units that do: oag)");
    let e = record_usage_error(&file, "--emulate lnl --unit oam --metric-set TestOa");
    says(&e, "lnl has no such OA unit (its units: oag, sag, scmi0)");
}

/// `-o` into a folder that does not exist fails before anything is
/// programmed or opened (usage error 2), and leaves nothing behind.
#[test]
fn an_output_that_cannot_be_created_fails_first() {
    let dir = std::env::temp_dir().join(format!("perfregs-no-such-dir-{}", std::process::id()));
    let path = dir.join("x.record");
    let out = perfregs(&[
        "record",
        "--emulate",
        "tgl",
        "--metric-set",
        "TestOa",
        "-o",
        path.to_str().expect("utf-8"),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot create") && err.contains("x.record"),
        "{err}"
    );
    assert!(
        !err.contains("programmed"),
        "programmed before failing: {err}"
    );
    assert!(!dir.exists());
    // An existing file is checked without being emptied.
    let keep = TempFile::with("keep.record", b"kept");
    let out = perfregs(&[
        "record",
        "--emulate",
        "tgl",
        "--metric-set",
        "NoSuchSet",
        "-o",
        keep.path(),
    ]);
    assert_ne!(out.status.code(), Some(0));
    assert_eq!(keep.bytes(), b"kept");
}

/// A period faster than i915's default oa_max_sample_rate (100 kHz) is
/// recorded on the emulator with a note that a real i915 refuses it without
/// CAP_PERFMON; a period under the limit gets no note, nor does xe.
#[test]
fn a_period_above_i915s_sample_rate_limit_is_said() {
    let (_f, err) = recorded("--emulate tgl --metric-set TestOa --period 10ns --reports 4");
    assert!(err.contains("oa_max_sample_rate (100000 Hz)"), "{err}");
    assert!(err.contains("CAP_PERFMON"), "{err}");
    let (_f, err) = recorded("--emulate tgl --metric-set TestOa --period 20us --reports 4");
    assert!(!err.contains("oa_max_sample_rate"), "{err}");
    let (_f, err) =
        recorded("--emulate tgl --driver xe --metric-set TestOa --period 10ns --reports 4");
    assert!(!err.contains("oa_max_sample_rate"), "{err}");
}

/// The float of the column `name` (or `name (unit)`).
fn float(row: &BTreeMap<String, String>, name: &str) -> f64 {
    let v = row
        .iter()
        .find(|(h, _)| *h == name || h.starts_with(&format!("{name} (")))
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no column {name}: {:?}", row.keys()));
    v.parse()
        .unwrap_or_else(|_| panic!("{name}: `{v}` is not a number"))
}

/// An emulated recording runs the default workload (busy) and says so:
/// RenderBasic's GpuBusy and EuActive are busy and at most 100%, and the
/// GPU clock sits inside the part's frequency range (the catalogue's).
/// `--workload none` says none is scripted and leaves them 0.
#[test]
fn an_emulated_recording_runs_a_workload_unless_none() {
    let part = hal::part("tgl", 2).expect("TGL GT2");
    let (min, max) = (
        part.device.gpu_min_frequency as f64,
        part.device.gpu_max_frequency as f64,
    );
    let (f, err) = recorded("--emulate tgl --metric-set RenderBasic --reports 40");
    assert!(err.contains("\nworkload: busy ("), "{err}");
    let (out, _) = reported(&f, &["--format", "csv"], 0);
    let rows = csv_rows(&out);
    assert!(!rows.is_empty());
    for r in &rows {
        for c in ["GpuBusy", "EuActive", "EuStall", "EuThreadOccupancy"] {
            let v = float(r, c);
            assert!(v > 0.0 && v <= 100.0, "{c} {v}: {r:?}");
        }
        let hz = float(r, "AvgGpuCoreFrequency");
        assert!(
            hz >= min && hz <= max,
            "AvgGpuCoreFrequency {hz} outside {min}..{max}"
        );
        assert!(int(r, "PsThreads") > 0, "{r:?}");
    }
    let (f, err) = recorded("--emulate tgl --metric-set RenderBasic --reports 8 --workload none");
    assert!(err.contains("workload: none scripted"), "{err}");
    let (out, _) = reported(&f, &["--format", "csv"], 0);
    for r in &csv_rows(&out) {
        for c in ["GpuBusy", "EuActive", "PsThreads"] {
            assert_eq!(float(r, c), 0.0, "{c}: {r:?}");
        }
        let hz = float(r, "AvgGpuCoreFrequency");
        assert!(hz >= min && hz <= max, "idle: AvgGpuCoreFrequency {hz}");
    }
}

/// A workload of one's own from a file; a name that is none gets the close
/// ones, a malformed file its file:line:column, both exit 2; --workload
/// needs --emulate.
#[test]
fn workload_files_and_bad_workloads() {
    let w = TempFile::new("mine.yaml");
    std::fs::write(
        w.path(),
        "workload: mine\ndescription: half the EUs\nevents:\n  gpu_busy: 1\n  eu_active: 0.5\n",
    )
    .expect("write");
    let (f, err) = recorded(&format!(
        "--emulate bdw --metric-set RenderBasic --reports 8 --workload {}",
        w.path()
    ));
    assert!(err.contains("workload: mine (half the EUs; "), "{err}");
    let (out, _) = reported(&f, &["--format", "csv"], 0);
    for r in &csv_rows(&out) {
        assert!((float(r, "EuActive") - 50.0).abs() < 0.01, "{r:?}");
        assert!((float(r, "GpuBusy") - 100.0).abs() < 1e-9, "{r:?}");
        assert_eq!(float(r, "EuStall"), 0.0, "{r:?}");
    }
    let out = TempFile::new("bad.record");
    let line = record_usage_error(
        &out,
        "--emulate tgl --metric-set RenderBasic --workload bussy",
    );
    assert!(
        line.contains("no workload `bussy` (did you mean busy?)"),
        "{line}"
    );
    std::fs::write(
        w.path(),
        "workload: x\nevents:\n  gpu_busy: 0.5\n  eu_active: [1\n",
    )
    .expect("write");
    let line = record_usage_error(
        &out,
        &format!(
            "--emulate tgl --metric-set RenderBasic --workload {}",
            w.path()
        ),
    );
    assert!(line.contains(&format!("{}:5:1: ", w.path())), "{line}");
    std::fs::write(
        w.path(),
        "workload: x\nevents:\n  gpu_busy: 0.5\n  eu_activ: 0.1\n",
    )
    .expect("write");
    let line = record_usage_error(
        &out,
        &format!(
            "--emulate tgl --metric-set RenderBasic --workload {}",
            w.path()
        ),
    );
    assert!(
        line.contains(&format!(
            "{}:4:3: no event `eu_activ` (did you mean eu_active",
            w.path()
        )),
        "{line}"
    );
    let line = record_usage_error(
        &out,
        "--device card0 --metric-set RenderBasic --workload busy",
    );
    assert!(line.contains("--workload"), "{line}");
}

/// The sample payloads of a recording, in order.
fn sample_payloads(bytes: &[u8]) -> Vec<Vec<u8>> {
    walk(bytes)
        .into_iter()
        .filter(|(kind, _, _)| *kind == SAMPLE)
        .map(|(_, _, payload)| payload.to_vec())
        .collect()
}

/// `--ring SIZE` keeps the last records of the same run whole: its samples
/// are the last samples of a full recording of that run, byte for byte, it
/// stays within SIZE, and `report` reads it.
#[test]
fn a_ring_keeps_the_last_records_of_the_run() {
    let line = "--emulate tgl --metric-set TestOa --reports 3000";
    let (full, _) = recorded(line);
    let (ring, err) = recorded(&format!("{line} --ring 64K"));
    assert!(err.contains("the ring kept the last"), "{err}");
    let all = sample_payloads(&full.bytes());
    let kept = sample_payloads(&ring.bytes());
    assert!(
        all.len() >= 3000 && kept.len() > 100,
        "{} {}",
        all.len(),
        kept.len()
    );
    assert!(kept.len() < all.len());
    assert_eq!(kept[..], all[all.len() - kept.len()..]);
    assert!(
        ring.bytes().len() <= 64 * 1024 + 4096,
        "{}",
        ring.bytes().len()
    );
    let (_, rerr) = reported(&ring, &["--format", "csv"], 0);
    assert!(
        rerr.contains(&format!("read: {} sample(s)", kept.len())),
        "{rerr}"
    );
    // A size too small, or not a size, is a usage error.
    for bad in ["100", "lots"] {
        let out = perfregs(&[
            "record",
            "--emulate",
            "tgl",
            "--metric-set",
            "TestOa",
            "--ring",
            bad,
            "-o",
            "/tmp/x",
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

/// The 32-bit report timestamps (dword 1, TGL's layout) of samples.
fn report_timestamps(samples: &[Vec<u8>]) -> Vec<u64> {
    samples.iter().map(|s| u64::from(u32_at(s, 4))).collect()
}

/// `--ring TIME` keeps the reports of the last TIME by their timestamps
/// (and the one before, so the first pair spans the window's start): the
/// tail of a full recording of the same run, byte for byte, whole; `report`
/// reads it; on command (the control FIFO) it writes the same window.
#[test]
fn a_time_ring_keeps_the_last_milliseconds() {
    let line = "--emulate tgl --metric-set TestOa --period 100us --duration 200ms";
    let (full, _) = recorded(line);
    let (ring, err) = recorded(&format!("{line} --ring 20ms"));
    assert!(
        err.contains("ring: the reports of the last 20.000ms (384000 timestamp ticks"),
        "{err}"
    );
    let all = sample_payloads(&full.bytes());
    let kept = sample_payloads(&ring.bytes());
    assert!(
        kept.len() > 10 && kept.len() < all.len(),
        "{} {}",
        kept.len(),
        all.len()
    );
    assert_eq!(kept[..], all[all.len() - kept.len()..]);
    let ts = report_timestamps(&kept);
    let newest = *ts.last().expect("a report");
    let window = 20 * 19_200; // 20 ms at 19.2 MHz
                              // Every kept report but the first is inside the window, the first is
                              // outside it, and the report before it in the full run too.
    assert!(ts[1..].iter().all(|&t| newest - t <= window), "{ts:?}");
    assert!(newest - ts[0] > window, "{ts:?}");
    let (_, rerr) = reported(&ring, &["--format", "csv"], 0);
    assert!(
        rerr.contains(&format!("read: {} sample(s)", kept.len())),
        "{rerr}"
    );
    // Neither a size nor a time.
    let out = TempFile::new("bad.record");
    let l = record_usage_error(&out, "--emulate tgl --metric-set TestOa --ring 10x");
    assert!(l.contains("nor a time (10s, 500ms)"), "{l}");
}

/// A ring recording (`--ring 256K`) of an emulated TGL that runs until it
/// is told to stop, with `extra` arguments, writing `out`.
fn ring_recorder(out: &TempFile, extra: &[&str]) -> std::process::Child {
    ring_recorder_keeping(out, "256K", extra)
}

/// [`ring_recorder`] with `--ring KEEP`.
fn ring_recorder_keeping(out: &TempFile, keep: &str, extra: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_perfregs"))
        .args([
            "record",
            "--emulate",
            "tgl",
            "--metric-set",
            "TestOa",
            "--exponent",
            "0",
            "--duration",
            "3600s",
            "--ring",
            keep,
            "-o",
            out.path(),
        ])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn perfregs record")
}

/// The first numbered snapshot beside `out` (`x.record`: `x.1.record`).
fn first_snapshot(out: &TempFile) -> PathBuf {
    out.0.with_file_name(
        out.0
            .file_name()
            .and_then(|n| n.to_str())
            .expect("name")
            .replace(".record", ".1.record"),
    )
}

/// SIGUSR1 writes a numbered snapshot while a ring recording runs; Ctrl-C
/// (SIGINT) then ends it with the final window in the output.
#[test]
fn sigusr1_writes_a_snapshot_of_the_ring() {
    let out = TempFile::new("sig.record");
    let child = ring_recorder(&out, &[]);
    let pid = child.id().to_string();
    let snapshot = first_snapshot(&out);
    let _cleanup = TempFile(snapshot.clone());
    // Wait until the ring is full enough, then ask for a snapshot.
    std::thread::sleep(Duration::from_millis(1500));
    let kill = |sig: &str| {
        let ok = Command::new("kill")
            .args([sig, &pid])
            .status()
            .map(|s| s.success());
        assert_eq!(ok.ok(), Some(true), "kill {sig}");
    };
    kill("-USR1");
    let start = Instant::now();
    while !snapshot.exists() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    kill("-INT");
    let done = child.wait_with_output().expect("wait");
    let err = text(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{err}");
    assert!(err.contains("snapshot"), "{err}");
    let snap = std::fs::read(&snapshot).expect("the snapshot file");
    assert!(!sample_payloads(&snap).is_empty());
    let last = sample_payloads(&out.bytes());
    assert!(!last.is_empty());
}

/// A time ring takes the control FIFO's `dump` too: the snapshot holds
/// the last 200 us of reports (and the one before).
#[test]
fn a_time_ring_dumps_its_window_on_command() {
    let out = TempFile::new("tctl.record");
    let fifo = TempFile::new("tctl.fifo");
    let snapshot = first_snapshot(&out);
    let _cleanup = TempFile(snapshot.clone());
    let child = ring_recorder_keeping(&out, "200us", &["--control", fifo.path()]);
    let start = Instant::now();
    let send = |command: &str| {
        while !fifo.0.exists() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::fs::write(&fifo.0, format!("{command}\n")).expect("write the FIFO");
    };
    std::thread::sleep(Duration::from_millis(500));
    send("dump");
    while !snapshot.exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    send("quit");
    let done = child.wait_with_output().expect("wait");
    let err = text(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{err}");
    let window = 200 * 192 / 10; // 200 us at 19.2 MHz
    for file in [std::fs::read(&snapshot).expect("snapshot"), out.bytes()] {
        let ts = report_timestamps(&sample_payloads(&file));
        assert!(ts.len() > 2, "{}", ts.len());
        let newest = *ts.last().expect("a report");
        let span = |t: u64| newest.wrapping_sub(t) & 0xFFFF_FFFF;
        assert!(ts[1..].iter().all(|&t| span(t) <= window), "{ts:?}");
        assert!(span(ts[0]) > window, "{ts:?}");
    }
}

/// `--control FIFO` takes IGT's recorder commands: `dump` writes a
/// snapshot, `quit` ends the recording cleanly (exit 0, the output
/// written); the FIFO is made when missing.
#[test]
fn a_control_fifo_dumps_and_quits() {
    let out = TempFile::new("ctl.record");
    let fifo = TempFile::new("ctl.fifo");
    let snapshot = first_snapshot(&out);
    let _cleanup = TempFile(snapshot.clone());
    let child = ring_recorder(&out, &["--control", fifo.path()]);
    let start = Instant::now();
    let send = |command: &str| {
        // Opening for writing waits for the reader: the recorder is up.
        while !fifo.0.exists() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::fs::write(&fifo.0, format!("{command}\n")).expect("write the FIFO");
    };
    std::thread::sleep(Duration::from_millis(500));
    send("dump");
    while !snapshot.exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    send("quit");
    let done = child.wait_with_output().expect("wait");
    let err = text(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(!sample_payloads(&std::fs::read(&snapshot).expect("snapshot")).is_empty());
    assert!(!sample_payloads(&out.bytes()).is_empty());
    // --control needs --ring.
    let o = perfregs(&[
        "record",
        "--emulate",
        "tgl",
        "--metric-set",
        "TestOa",
        "--control",
        "/tmp/f",
        "-o",
        "/tmp/x",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// `report --counters` prints exactly the counters its patterns match, in
/// the set's order, with their units, in every format; a pattern that
/// matches nothing is a usage error with a did-you-mean. The same for
/// `metrics run`.
#[test]
fn counters_chosen_by_name_and_glob() {
    let (file, _) = recorded("--emulate tgl --metric-set RenderBasic --reports 20");
    let part = hal::part("tgl", 2).expect("TGL GT2");
    let set = perfregs_metrics::FILES
        .iter()
        .find(|(f, _, _)| part.metric_files.contains(f))
        .and_then(|(_, _, sets)| sets.iter().find(|s| s.symbol == "RenderBasic"))
        .expect("RenderBasic of TGL GT2");
    let want: Vec<String> = set
        .counters
        .iter()
        .filter(|c| c.symbol == "GpuTime" || c.symbol.to_ascii_lowercase().ends_with("busy"))
        .map(|c| format!("{} ({})", c.symbol, c.units))
        .collect();
    assert!(want.len() >= 2, "{want:?}");
    let (csv, _) = reported(
        &file,
        &["--counters", "gpu_time,*BUSY", "--format", "csv"],
        0,
    );
    let head: Vec<&str> = csv.lines().next().expect("a header").split(',').collect();
    let got: Vec<&str> = head.iter().copied().filter(|h| h.contains(" (")).collect();
    assert_eq!(got, want);
    let (json, _) = reported(&file, &["--counters", "GpuTime", "--format", "json"], 0);
    let doc: Json = serde_json::from_str(&json).expect("JSON");
    let first = &doc["intervals"][0]["counters"];
    assert_eq!(first.as_object().map(|o| o.len()), Some(1), "{first}");
    assert_eq!(first["GpuTime"]["unit"], "ns");
    let (_, err) = reported(&file, &["--counters", "GpuTime,GpuBusyy"], 2);
    assert!(
        err.contains("no counter matches `GpuBusyy`") && err.contains("GpuBusy"),
        "{err}"
    );
    // metrics run.
    let out = perfregs(&[
        "metrics",
        "run",
        "tgl",
        "RenderBasic",
        "--counters",
        "GpuTime,*Busy",
        "--format",
        "csv",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let head: Vec<&str> = csv.lines().next().expect("a header").split(',').collect();
    let got: Vec<&str> = head.iter().copied().filter(|h| h.contains(" (")).collect();
    assert_eq!(got, want);
    let out = perfregs(&["metrics", "run", "tgl", "RenderBasic", "--counters", "Nope"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `--reports 0` says what it takes, not Rust's parse message.
#[test]
fn zero_reports_is_refused_plainly() {
    let out = perfregs(&[
        "record",
        "--emulate",
        "tgl",
        "--metric-set",
        "TestOa",
        "--reports",
        "0",
        "-o",
        "/tmp/x",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("at least 1") && !err.contains("zero for non-zero"),
        "{err}"
    );
}

/// A recording of an emulated client running two contexts: `report` counts
/// the reports of each (CTX_ID), `report --context` keeps one context's
/// reports (fewer pairs, the same per-clock counters); `record --context`
/// records only that context's reports; xe refuses exec queue 0 with
/// ENOENT; a context that is no number is a usage error.
#[test]
fn contexts_are_counted_filtered_and_recorded() {
    let (f, _) = recorded(
        "--emulate tgl --metric-set RenderBasic --reports 200 --inject-contexts 0x11,0x22",
    );
    let (_, err) = reported(&f, &["--format", "csv"], 0);
    let line = err
        .lines()
        .find(|l| l.starts_with("contexts (CTX_ID, reports): 0x11 ("))
        .unwrap_or_else(|| panic!("no contexts line: {err}"));
    assert!(line.contains(", 0x22 ("), "{line}");
    let pairs = |out: &str| -> u64 { csv_rows(out).iter().map(|r| int(r, "pairs")).sum() };
    let (all, _) = reported(&f, &["--format", "csv"], 0);
    let (one, oerr) = reported(&f, &["--format", "csv", "--context", "0x22"], 0);
    assert!(
        oerr.contains("context: only the reports of CTX_ID 0x22 (--context)"),
        "{oerr}"
    );
    assert!(
        pairs(&one) > 0 && pairs(&one) < pairs(&all),
        "{} {}",
        pairs(&one),
        pairs(&all)
    );
    for r in csv_rows(&one) {
        let v = float(&r, "GpuBusy");
        assert!(v > 0.0 && v <= 100.0, "{r:?}");
    }
    // Recorded with the filter: the emulated kernel forwards 0x22 alone.
    let (g, _) = recorded(
        "--emulate tgl --metric-set RenderBasic --reports 50 --inject-contexts 0x11,0x22 --context 0x22",
    );
    let (_, gerr) = reported(&g, &["--format", "csv"], 0);
    let only: Vec<&str> = gerr
        .lines()
        .filter(|l| l.starts_with("contexts (CTX_ID"))
        .collect();
    assert_eq!(only.len(), 1, "{gerr}");
    assert!(
        only[0].starts_with("contexts (CTX_ID, reports): 0x22 (") && !only[0].contains("0x11"),
        "{gerr}"
    );
    // xe numbers exec queues from 1.
    let out = TempFile::new("ctx.record");
    let o = perfregs(&[
        "record",
        "--emulate",
        "tgl",
        "--driver",
        "xe",
        "--metric-set",
        "RenderBasic",
        "--reports",
        "4",
        "--context",
        "0",
        "-o",
        out.path(),
    ]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("EXEC_QUEUE_ID=0") && e.contains("ENOENT"), "{e}");
    let l = record_usage_error(
        &out,
        "--emulate tgl --metric-set RenderBasic --context ctx1",
    );
    assert!(l.contains("is not a context id"), "{l}");
    // HSW's reports have no CTX_ID: no contexts line, and --context is a
    // usage error that says why.
    let (h, _) = recorded("--emulate hsw --metric-set RenderBasic --reports 8");
    let (_, herr) = reported(&h, &["--format", "csv"], 0);
    assert!(!herr.contains("contexts (CTX_ID"), "{herr}");
    let (_, herr) = reported(&h, &["--context", "1"], 2);
    assert!(herr.contains("has no CTX_ID field"), "{herr}");
}
