//! `perfregs report` on recordings built here: TestOa reports from the
//! emulated TGL GT2 (programmed through the typed, checked path), framed as
//! i915 gives them and written in IGT's format with `RecordingWriter`.
//! IGT's TestOa ratios read back from the CSV and JSON output, losses shown,
//! a truncated recording's good prefix and located error, a Perfetto trace
//! with one counter track per metric, and clear errors for what cannot be
//! reported.

use crate::common;
use common::{says, TempFile};

use perfregs_emu::test_support;
use perfregs_linux::discovery::Topology;
use perfregs_linux::record::Record;
use perfregs_linux::recording::{entries, Correlation, Item, RecordedDevice, RecordingWriter};
use perfregs_metrics::rt::program;
use perfregs_testkit::check_test_oa_ratios;
use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};

/// A report every 2^(PERIOD+1) = 128 timestamp ticks (6.67 µs at 19.2 MHz).
const TICKS: u64 = 2 << test_support::PERIOD;

/// The default TGL part (GT2) and its TestOa set, as `record` and
/// `report` choose them (`perfregs_session`).
fn tgl_test_oa() -> (
    &'static hal::meta::PartInfo,
    &'static perfregs_metrics::SetInfo,
) {
    let part = perfregs_session::part("tgl", None).expect("a TGL part");
    let sets = perfregs_session::sets(part).expect("TGL GT2's sets");
    (
        part,
        perfregs_session::find_set(sets, "TestOa").expect("TestOa"),
    )
}

/// `n` periodic reports of TGL GT2 running TestOa.
fn test_oa_reports(n: u64) -> Vec<Vec<u8>> {
    let (part, set) = tgl_test_oa();
    test_support::tgl_reports(n, |gpu, awake| {
        program(gpu, set, &part.device, awake).expect("TestOa programs");
    })
}

/// The DEVICE_INFO of a TGL GT2 TestOa recording (in the format `record`
/// takes: `perfregs_session::stream_format`).
fn device() -> RecordedDevice {
    let (part, set) = tgl_test_oa();
    let format = perfregs_session::stream_format("tgl").expect("a TGL format");
    assert_eq!(format.id, 10, "I915_OA_FORMAT_A32u40_A4u32_B8_C8");
    RecordedDevice {
        timestamp_frequency: part.device.gpu_timestamp_frequency,
        device_id: 0x9A49,
        device_revision: 1,
        oa_format: format.id,
        metric_set_name: set.symbol.into(),
        metric_set_uuid: set.guid.into(),
        ..Default::default()
    }
}

/// TGL GT2's topology as i915's query gives it: 1 slice, 6 dual subslices of 16 EUs.
fn topology() -> Vec<u8> {
    Topology::single_slice(6, 0x3f, 16, 0xffff)
        .expect("fits")
        .to_bytes()
}

/// A recording of `reports` with `losses` (before sample k) among them.
fn recording(device: &RecordedDevice, reports: &[Vec<u8>], losses: &[(usize, Record)]) -> Vec<u8> {
    let mut w = RecordingWriter::new(Vec::new(), device, &topology()).expect("header");
    w.correlation(Correlation {
        cpu_ns: 1,
        gpu_timestamp: 0,
    })
    .expect("correlation");
    for (k, r) in reports.iter().enumerate() {
        for (at, loss) in losses {
            if *at == k {
                w.record(loss).expect("loss");
            }
        }
        w.record(&Record::Sample(r)).expect("sample");
    }
    w.finish(Correlation {
        cpu_ns: 2,
        gpu_timestamp: 1 << 20,
    })
    .expect("finish")
}

/// A recording of `n` TestOa reports with `losses` (see [`recording`]) in
/// a fresh temp file.
fn test_oa_file(n: u64, losses: &[(usize, Record)]) -> TempFile {
    temp_file(&recording(&device(), &test_oa_reports(n), losses))
}

/// `bytes` in a fresh temp file.
fn temp_file(bytes: &[u8]) -> TempFile {
    TempFile::with("report.record", bytes)
}

/// `perfregs report FILE ARGS`, which must exit with `code`: (stdout,
/// stderr).
fn reported(file: &TempFile, args: &[&str], code: i32) -> (String, String) {
    let (got, out, err) = report(file, args);
    assert_eq!(got, code, "{args:?}: {out}{err}");
    (out, err)
}

fn report(file: &TempFile, args: &[&str]) -> (i32, String, String) {
    common::run(common::perfregs().arg("report").arg(&file.0).args(args))
}

/// RFC 4180 records (fields may be quoted; no line breaks inside fields here).
fn csv(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let mut fields = Vec::new();
            let mut f = String::new();
            let mut quoted = false;
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match (c, quoted) {
                    ('"', true) if chars.peek() == Some(&'"') => {
                        f.push('"');
                        chars.next();
                    }
                    ('"', _) => quoted = !quoted,
                    (',', false) => fields.push(std::mem::take(&mut f)),
                    (c, _) => f.push(c),
                }
            }
            fields.push(f);
            fields
        })
        .collect()
}

/// The CSV as one map per interval: heading -> field.
fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let recs = csv(text);
    let (head, rows) = recs.split_first().expect("a header");
    rows.iter()
        .map(|r| {
            assert_eq!(r.len(), head.len(), "{r:?}");
            head.iter().cloned().zip(r.iter().cloned()).collect()
        })
        .collect()
}

/// The field whose heading is `name` or starts with `name (`.
fn field<'a>(row: &'a BTreeMap<String, String>, name: &str) -> &'a str {
    row.iter()
        .find(|(h, _)| *h == name || h.starts_with(&format!("{name} (")))
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no column {name}: {:?}", row.keys()))
}

fn int(row: &BTreeMap<String, String>, name: &str) -> u64 {
    let v = field(row, name);
    v.parse()
        .unwrap_or_else(|_| panic!("{name}: `{v}` is not an integer"))
}

/// The integers of column `name`, one per row.
fn ints(rows: &[BTreeMap<String, String>], name: &str) -> Vec<u64> {
    rows.iter().map(|r| int(r, name)).collect()
}

#[test]
fn csv_gives_igts_test_oa_ratios_per_interval() {
    let file = test_oa_file(31, &[]);
    let (out, err) = reported(&file, &["--format", "csv", "--reports", "5"], 0);
    // The header goes to stderr: stdout is the document alone.
    says(&err, "device: TGL GT2 (0x9a49)");
    says(&err, "metric set TestOa");
    says(&err, "OA format 10 (A32U40_A4U32_B8_C8, 256 bytes)");
    says(&err, "EuCoresTotalCount 96");
    says(&err, "from the tgl GT2 preset: EuThreadsCount");
    says(&err, "losses: none");
    assert!(out.starts_with("interval,start_ns,duration_ns,"), "{out}");
    let rows = csv_rows(&out);
    // 30 pairs in 6 intervals of 5.
    assert_eq!(rows.len(), 6, "{out}");
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(int(row, "interval"), k as u64 + 1);
        assert_eq!(int(row, "pairs"), 5);
        assert_eq!(int(row, "reports_lost"), 0);
        assert_eq!(field(row, "flags"), "");
        check_test_oa_ratios("interval", |n| int(row, n), 5);
        // GPU time: 5 periods of 128 ticks at 19.2 MHz, in ns.
        assert_eq!(int(row, "GpuTime"), 5 * TICKS * 1_000_000_000 / 19_200_000);
        // Whole ns in CSV (5 periods are 33333.3 ns).
        let want = (k as u64 * 5 * TICKS) as f64 * 1e9 / 19.2e6;
        assert_eq!(int(row, "start_ns"), want.round() as u64);
        assert_eq!(
            int(row, "duration_ns"),
            (5.0 * TICKS as f64 * 1e9 / 19.2e6).round() as u64
        );
    }
}

#[test]
fn json_with_time_windows_gives_the_ratios_too() {
    let file = test_oa_file(31, &[]);
    // 10 report periods = 1280 ticks = 66.67 µs: 50us windows close every
    // 960 ticks, at the first report at or past the end.
    let (out, err) = reported(&file, &["--format", "json", "--interval", "50us"], 0);
    says(&err, "intervals: 50us windows (960 timestamp ticks)");
    let doc: Json = serde_json::from_str(&out).expect("one JSON document");
    let intervals = doc["intervals"].as_array().expect("intervals");
    assert!(intervals.len() >= 4, "{out}");
    let mut pairs_total = 0;
    for iv in intervals {
        let pairs = iv["labels"]["pairs"].as_u64().expect("pairs");
        pairs_total += pairs;
        let c = |n: &str| {
            iv["counters"][n]["value"]
                .as_u64()
                .unwrap_or_else(|| panic!("{n}: {}", iv["counters"][n]))
        };
        check_test_oa_ratios("interval", c, pairs);
        assert_eq!(iv["counters"]["GpuCoreClocks"]["unit"], "cycles");
    }
    assert_eq!(pairs_total, 30, "every pair is in one interval");
    // The default: 10 ms windows, here one interval of all 30 pairs.
    let (out, err) = reported(&file, &["--format", "json"], 0);
    says(
        &err,
        "intervals: 10ms windows (192000 timestamp ticks) (the default",
    );
    let doc: Json = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["intervals"].as_array().map(Vec::len), Some(1));
    assert_eq!(doc["intervals"][0]["labels"]["pairs"], 30);
}

#[test]
fn the_table_has_the_header_on_stdout() {
    let file = test_oa_file(11, &[]);
    let (out, err) = reported(&file, &["--reports", "5"], 0);
    assert!(err.is_empty(), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("recording: "), "{out}");
    says(&out, "device: TGL GT2 (0x9a49) rev 0x01, project tgl GT2");
    let head = lines
        .iter()
        .position(|l| l.starts_with("counter "))
        .expect("a table");
    let cells: Vec<&str> = lines[head].split_whitespace().collect();
    assert_eq!(cells, ["counter", "unit", "#1", "#2"], "{}", lines[head]);
    let clocks = lines
        .iter()
        .find(|l| l.starts_with("GpuCoreClocks "))
        .expect("GpuCoreClocks row");
    says(clocks, "cycles");
    says(&out, "losses: none");
}

#[test]
fn injected_losses_appear_per_interval_and_in_the_summary() {
    let reports = test_oa_reports(31);
    let file = temp_file(&recording(
        &device(),
        &reports,
        &[(12, Record::ReportLost), (23, Record::BufferLost)],
    ));
    let (out, err) = reported(&file, &["--format", "csv", "--reports", "5"], 0);
    says(
        &err,
        "read: 31 sample(s), 1 OA_REPORT_LOST, 1 OA_BUFFER_LOST",
    );
    says(
        &err,
        "losses: 1 OA_REPORT_LOST, 1 OA_BUFFER_LOST record(s), in interval(s) #3, #5",
    );
    let rows = csv_rows(&out);
    // 28 pairs (30 minus the two across the losses): 5 5 5 5 5 3.
    assert_eq!(ints(&rows, "pairs"), [5, 5, 5, 5, 5, 3], "{out}");
    assert_eq!(int(&rows[2], "reports_lost"), 1);
    assert_eq!(
        field(&rows[2], "flags"),
        "1 report(s) lost (OA_REPORT_LOST)"
    );
    assert_eq!(int(&rows[4], "buffers_lost"), 1);
    assert_eq!(
        field(&rows[4], "flags"),
        "1 buffer overflow(s) (OA_BUFFER_LOST)"
    );
    let lost: u64 = rows
        .iter()
        .map(|r| int(r, "reports_lost") + int(r, "buffers_lost"))
        .sum();
    assert_eq!(lost, 2, "every loss is in one interval");
    for row in &rows {
        check_test_oa_ratios("interval", |n| int(row, n), int(row, "pairs"));
    }
    // The table flags them too.
    let (out, _) = reported(&file, &["--reports", "5"], 0);
    says(&out, "flagged intervals: 2 of 6: #3 (1 report(s) lost (OA_REPORT_LOST)), #5 (1 buffer overflow(s) (OA_BUFFER_LOST))");
    // A loss after the last sample still shows, in an interval of its own.
    let mut r = reports.clone();
    r.truncate(6);
    let mut w = RecordingWriter::new(Vec::new(), &device(), &topology()).expect("header");
    w.correlation(Correlation::default()).expect("c");
    for s in &r {
        w.record(&Record::Sample(s)).expect("s");
    }
    w.record(&Record::ReportLost).expect("loss");
    let bytes = w
        .finish(Correlation {
            cpu_ns: 1,
            gpu_timestamp: 1,
        })
        .expect("finish");
    let file = temp_file(&bytes);
    let (out, _) = reported(&file, &["--format", "csv", "--reports", "5"], 0);
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!(int(&rows[1], "pairs"), 0);
    assert_eq!(int(&rows[1], "reports_lost"), 1);
    assert_eq!(
        field(&rows[1], "flags"),
        "1 report(s) lost (OA_REPORT_LOST); no report pair"
    );
    assert_eq!(field(&rows[1], "GpuCoreClocks"), "", "no made-up value");
}

#[test]
fn a_truncated_recording_reports_the_good_prefix_and_the_located_error() {
    let reports = test_oa_reports(31);
    let whole = recording(&device(), &reports, &[]);
    // The 21st sample's record: cut 100 bytes into it.
    let samples: Vec<(u64, u64)> = entries(&whole)
        .map(|e| e.expect("valid"))
        .filter(|e| matches!(e.item, Item::Stream(Record::Sample(_))))
        .map(|e| (e.offset, e.index))
        .collect();
    let (offset, index) = samples[20];
    let cut = &whole[..offset as usize + 100];
    let file = temp_file(cut);
    let (out, err) = reported(&file, &["--format", "csv", "--reports", "5"], 1);
    let want = format!(
        "record {index} at byte {offset}: cut off: the record is 264 bytes, 100 byte(s) left"
    );
    assert!(err.contains(&want), "{err}\nwant: {want}");
    says(
        &err,
        "4 interval(s) from the 20 sample(s) before it are reported",
    );
    // 20 samples: 19 pairs, 5 5 5 4.
    let rows = csv_rows(&out);
    assert_eq!(ints(&rows, "pairs"), [5, 5, 5, 4], "{out}");
    for row in &rows {
        check_test_oa_ratios("interval", |n| int(row, n), int(row, "pairs"));
    }
    // A corrupt record (size 0) in place of a sample: located the same way.
    let mut bad = whole.clone();
    bad[offset as usize + 6..offset as usize + 8].copy_from_slice(&0u16.to_le_bytes());
    let file = temp_file(&bad);
    let (out, err) = reported(&file, &["--reports", "5"], 1);
    assert!(
        err.contains(&format!("record {index} at byte {offset}: record size 0")),
        "{err}"
    );
    assert!(
        out.contains("counter "),
        "the good prefix is a table: {out}"
    );
    // Cut inside the header: nothing to report, the error located.
    let file = temp_file(&whole[..100]);
    let (_, err) = reported(&file, &[], 1);
    says(&err, "record 1 at byte 16: cut off");
}

#[test]
fn perfetto_is_json_with_one_counter_track_per_metric() {
    let file = test_oa_file(21, &[(10, Record::ReportLost)]);
    let (out, _) = reported(&file, &["--format", "perfetto", "--reports", "4"], 0);
    let trace: Json = serde_json::from_str(&out).expect("a JSON trace");
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let tracks: BTreeSet<&str> = events
        .iter()
        .filter(|e| e["ph"] == "C")
        .filter_map(|e| e["name"].as_str())
        .collect();
    let d = hal::part("tgl", 2).expect("TGL GT2").device;
    let want: BTreeSet<String> = perfregs_metrics::tgl_gt2::test_oa::SET
        .counters
        .iter()
        .filter(|c| c.is_available(&d))
        .map(|c| {
            if c.units.is_empty() {
                c.symbol.to_string()
            } else {
                format!("{} ({})", c.symbol, c.units)
            }
        })
        .collect();
    let tracks: BTreeSet<String> = tracks.into_iter().map(String::from).collect();
    assert_eq!(tracks, want);
    assert!(tracks.contains("GpuCoreClocks (cycles)"), "{tracks:?}");
    // Each track has one value per interval with pairs; the loss is an instant event.
    let clocks = events
        .iter()
        .filter(|e| e["ph"] == "C" && e["name"] == "GpuCoreClocks (cycles)")
        .count();
    assert_eq!(clocks, 5, "19 pairs in 4 4 4 4 3");
    assert!(events
        .iter()
        .any(|e| e["ph"] == "i" && e["name"] == "1 report(s) lost (OA_REPORT_LOST)"));
}

#[test]
fn what_cannot_be_reported_is_said_clearly() {
    let reports = test_oa_reports(6);
    // An unknown PCI id.
    let mut d = device();
    d.device_id = 0x1234;
    let file = temp_file(&recording(&d, &reports, &[]));
    let (_, err) = reported(&file, &[], 1);
    says(
        &err,
        "the recorded PCI id 0x1234 is not in perfregs' device table",
    );
    // A listed platform that is not described: PVC (no driver streams OA on it).
    let mut d = device();
    d.device_id = 0x0BD5;
    let file = temp_file(&recording(&d, &reports, &[]));
    let (_, err) = reported(&file, &[], 1);
    says(&err, "PVC (0x0bd5): platform not described yet");
    // A recorded set name that is not a TGL GT2 set: did you mean.
    let mut d = device();
    d.metric_set_name = "TestOA_".into();
    let file = temp_file(&recording(&d, &reports, &[]));
    let (_, err) = reported(&file, &[], 1);
    says(&err, "no metric set `TestOA_`");
    says(&err, "did you mean TestOa");
    // --metric-set overrides it (case-insensitive), and misspelt is a usage error.
    let (out, err) = reported(&file, &["--metric-set", "testoa", "--format", "csv"], 0);
    says(&err, "--metric-set; recorded: `TestOA_`");
    assert_eq!(csv_rows(&out).len(), 1);
    let (_, err) = reported(&file, &["--metric-set", "RenderBasik"], 2);
    says(&err, "did you mean RenderBasic");
    // An OA format TGL does not have.
    let mut d = device();
    d.oa_format = 5; // A45_B8_C8: HSW only, 256 bytes
    let file = temp_file(&recording(&d, &reports, &[]));
    let (_, err) = reported(&file, &[], 1);
    says(&err, "OA format 5 is not one tgl describes");
    // Bad arguments.
    reported(&file, &["--interval", "10"], 2);
    reported(&file, &["--interval", "1ms", "--reports", "3"], 2);
    let missing = TempFile(std::env::temp_dir().join("perfregs-no-such.record"));
    let (_, err) = reported(&missing, &[], 2);
    says(&err, "cannot read");
}

#[test]
fn unwritten_and_stale_reports_are_flagged_and_never_counted() {
    // 231 reports, 100 of them (60..160) zeroed as never written: the 101
    // pairs touching them are invalid, 129 valid pairs remain.
    let mut reports = test_oa_reports(231);
    for r in &mut reports[60..160] {
        r.fill(0);
    }
    let file = temp_file(&recording(&device(), &reports, &[]));
    let (out, err) = reported(&file, &["--format", "csv", "--reports", "100"], 0);
    says(&err, "losses: none");
    says(
        &err,
        "invalid report pairs: 101 in interval(s) #1: 101 with a report never written (all zero or a zero timestamp); stale or unwritten memory, left out of the counters",
    );
    let rows = csv_rows(&out);
    assert_eq!(ints(&rows, "pairs"), [100, 29], "{out}");
    assert_eq!(
        field(&rows[0], "flags"),
        "101 invalid report pair(s) (101 never written)"
    );
    assert_eq!(field(&rows[1], "flags"), "");
    for row in &rows {
        let n = int(row, "pairs");
        check_test_oa_ratios("interval", |c| int(row, c), n);
        // The counters hold the valid pairs' time only.
        assert_eq!(int(row, "GpuTime"), n * TICKS * 1_000_000_000 / 19_200_000);
    }
    // No 2^32-tick (223 s) interval: the time axis spans the recording.
    let whole = 230.0 * TICKS as f64 * 1e9 / 19.2e6;
    // Whole ns in CSV: each rounded, so within 1 ns of the sum.
    let mut end = 0.0;
    for row in &rows {
        let (start, duration) = (int(row, "start_ns") as f64, int(row, "duration_ns") as f64);
        assert!((start - end).abs() <= 1.0, "{out}");
        end = start + duration;
    }
    assert!((end - whole).abs() <= 1.0, "{end} ns, want {whole}: {out}");
    // The table flags it too.
    let (out, _) = reported(&file, &["--reports", "100"], 0);
    says(
        &out,
        "flagged intervals: 1 of 2: #1 (101 invalid report pair(s) (101 never written))",
    );
    says(&out, "invalid report pairs: 101 in interval(s) #1");

    // A stale report (an earlier one again): its pair steps back, and it
    // pairs with nothing after it.
    let mut reports = test_oa_reports(31);
    reports[20] = reports[10].clone();
    let file = temp_file(&recording(&device(), &reports, &[]));
    let (out, err) = reported(&file, &["--format", "csv", "--reports", "5"], 0);
    says(
        &err,
        "invalid report pairs: 1 in interval(s) #4: 1 with the timestamp stepping back",
    );
    let rows = csv_rows(&out);
    // 30 pairs but 19-20 (invalid) and 20-21 (not formed): 5 5 5 5 5 3.
    assert_eq!(ints(&rows, "pairs"), [5, 5, 5, 5, 5, 3], "{out}");
    assert_eq!(
        field(&rows[3], "flags"),
        "1 invalid report pair(s) (1 timestamp back)"
    );
    for row in &rows {
        check_test_oa_ratios("interval", |c| int(row, c), int(row, "pairs"));
    }
}

#[test]
fn a_recording_of_zeros_is_a_finding_without_intervals() {
    let zeros = vec![vec![0u8; 256]; 50];
    let file = temp_file(&recording(&device(), &zeros, &[]));
    for format in ["csv", "table", "json"] {
        let (out, err) = reported(&file, &["--format", format, "--reports", "10"], 1);
        let all = format!("{out}{err}");
        says(
            &all,
            "invalid report pairs: 49: 49 with a report never written",
        );
        says(
            &err,
            "no valid report pair: all 49 report pair(s) of the 50 sample(s) are invalid (stale or unwritten memory), so no counter interval is printed",
        );
        assert!(!out.contains("GpuCoreClocks"), "{format}: {out}");
        assert!(!out.contains("interval,"), "{format}: {out}");
    }
}

#[test]
fn a_raw_dump_and_a_recording_are_sent_to_the_command_that_reads_them() {
    let reports = test_oa_reports(4);
    // A raw OA buffer dump (the reports alone) is not a recording.
    let dump = TempFile::with("raw-dump.bin", &reports.concat());
    let (out, err) = reported(&dump, &[], 2);
    assert!(out.is_empty(), "{out}");
    says(&err, "not a recording");
    says(&err, "try `perfregs oa-decode PROJECT FORMAT");
    assert!(!err.contains("record size"), "{err}");
    // `oa-decode` decodes the dump, but refuses a recording.
    let oa_decode = |file: &TempFile, extra: &[&str]| {
        common::run(
            common::perfregs()
                .args(["oa-decode", "tgl", "A32u40_A4u32_B8_C8"])
                .arg(&file.0)
                .args(extra),
        )
    };
    let (code, out, err) = oa_decode(&dump, &[]);
    assert_eq!(code, 0, "{err}");
    says(&out, "256-byte reports; buffer 1024 bytes");
    let rec = test_oa_file(4, &[]);
    let (code, out, err) = oa_decode(&rec, &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    says(
        &err,
        "is a recording (IGT's i915-perf-recorder format), not a raw OA buffer dump: use \
         `perfregs report ",
    );
    // --head decodes its bytes anyway.
    let (code, _, err) = oa_decode(&rec, &["--head", "0"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn format_names_take_any_case() {
    let file = test_oa_file(6, &[]);
    let (lower, _) = reported(&file, &["--format", "csv"], 0);
    let (upper, _) = reported(&file, &["--format", "CSV"], 0);
    assert!(lower.starts_with("interval,"), "{lower}");
    assert_eq!(upper, lower);
    let (mixed, _) = reported(&file, &["--format", "Json"], 0);
    assert!(mixed.starts_with('{'), "{mixed}");
    // A name that is no format in any case is still refused, naming them.
    let (_, err) = reported(&file, &["--format", "xml"], 2);
    says(&err, "csv");
}

#[test]
fn reports_zero_is_said_plainly() {
    let file = test_oa_file(6, &[]);
    let (_, err) = reported(&file, &["--reports", "0"], 2);
    says(&err, "'--reports <N>': at least 1");
    assert!(!err.contains("non-zero type"), "{err}");
    // metrics run says its range.
    let (code, _, err) = common::in_root(&["metrics", "run", "tgl", "TestOa", "--reports", "0"]);
    assert_eq!(code, 2, "{err}");
    says(&err, "'--reports <N>': not a count from 1 to");
}

#[test]
fn an_interval_shorter_than_the_report_period_is_said() {
    let file = TempFile::new("short-interval.record");
    let (code, out, err) = common::in_root(&[
        "record",
        "--emulate",
        "tgl",
        "--metric-set",
        "TestOa",
        "--reports",
        "50",
        "-o",
        file.path(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (out, err) = reported(&file, &["--interval", "1us", "--format", "csv"], 0);
    says(
        &err,
        "is shorter than the recording's report period (about ",
    );
    says(&err, "so each interval holds one report pair");
    let rows = csv_rows(&out);
    assert!(rows.len() > 10, "{out}");
    assert!(ints(&rows, "pairs").iter().all(|&p| p == 1), "{out}");
    // The default 10 ms holds many pairs: no note.
    let (_, err) = reported(&file, &["--format", "csv"], 0);
    assert!(!err.contains("report period"), "{err}");
}

/// `--counters` accumulates only what the chosen counters read
/// (`Intervals::reading`): their values are those of the whole report,
/// interval by interval, and only their columns are printed.
#[test]
fn chosen_counters_have_the_values_of_the_whole_report() {
    let file = test_oa_file(31, &[]);
    let (_, set) = tgl_test_oa();
    let spec = "GpuTime,avg_gpu_core_frequency,Counter5,COUNTER8";
    let chosen: Vec<&str> = perfregs_session::choose_counters(set.counters, spec)
        .expect("TestOa has them")
        .iter()
        .map(|c| c.symbol)
        .collect();
    assert_eq!(chosen.len(), 4, "{chosen:?}");
    let args = ["--format", "csv", "--reports", "5"];
    let (whole, _) = reported(&file, &args, 0);
    let (some, _) = reported(&file, &[&args[..], &["--counters", spec]].concat(), 0);
    let (whole, some) = (csv_rows(&whole), csv_rows(&some));
    assert_eq!(whole.len(), 6);
    assert_eq!(some.len(), whole.len());
    for (w, s) in whole.iter().zip(&some) {
        for name in &chosen {
            assert_eq!(field(s, name), field(w, name), "{name}");
            assert!(!field(s, name).is_empty(), "{name} computed");
        }
        for name in ["interval", "start_ns", "duration_ns", "pairs", "flags"] {
            assert_eq!(field(s, name), field(w, name), "{name}");
        }
        let counters = s
            .keys()
            .filter(|h| set.counters.iter().any(|c| h.starts_with(c.symbol)))
            .count();
        assert_eq!(counters, chosen.len(), "{:?}", s.keys());
    }
}
