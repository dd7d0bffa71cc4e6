//! `perfregs report --format perfetto-proto`: an emulated TGL RenderBasic
//! recording written as Perfetto's native trace, parsed back by
//! Perfetto's own `.proto` files (`hal/perfetto/protos/`, read by
//! `perfregs_testkit::proto`, not by the writer's messages): each counter
//! sample's GPU time, converted through the trace's clock snapshots as
//! trace processor converts it, is the recording's CLOCK_MONOTONIC time of
//! its report (from the recording's correlations) within a tick.

use crate::common;
use common::{says, TempFile};

use perfregs_linux::record::Record;
use perfregs_linux::recording::{read_all, Item};
use perfregs_testkit::proto::{perfetto_packets, Message};

/// Perfetto's `BuiltinClock` MONOTONIC, and the GPU's sequence clock.
const MONOTONIC: u64 = 3;
const GPU_CLOCK: u64 = 64;

/// An emulated TGL RenderBasic recording of `duration` at a 10 ms period.
fn recorded(name: &str, duration: &str) -> TempFile {
    let file = TempFile::new(name);
    let (code, out, err) = common::in_root(&[
        "record",
        "--emulate",
        "tgl",
        "--metric-set",
        "RenderBasic",
        "--period",
        "10ms",
        "--duration",
        duration,
        "-o",
        file.path(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    file
}

/// `report FILE --format perfetto-proto -o TRACE ARGS`: the packets and
/// stderr.
fn traced(file: &TempFile, args: &[&str]) -> (Vec<Message>, String) {
    let trace = TempFile::new("t.pftrace");
    let (code, out, err) = common::in_root(
        &[
            &[
                "report",
                file.path(),
                "--format",
                "perfetto-proto",
                "-o",
                trace.path(),
            ],
            args,
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.is_empty(), "the trace goes to the file: {out}");
    let bytes = std::fs::read(trace.path()).expect("the trace");
    (perfetto_packets(&bytes), err)
}

#[test]
fn counter_samples_are_on_the_recordings_system_clock() {
    let file = recorded("sys-clock.record", "2500ms");
    let bytes = std::fs::read(file.path()).expect("the recording");
    let (rec, e) = read_all(&bytes);
    assert!(e.is_none(), "{e:?}");
    let hz = rec
        .device
        .as_ref()
        .expect("DEVICE_INFO")
        .timestamp_frequency;
    let c0 = rec.correlations[0];
    assert!(
        rec.correlations.len() >= 3,
        "a correlation a second: {:?}",
        rec.correlations
    );
    // Each report's CLOCK_MONOTONIC time, by the first correlation (the
    // emulated clocks are linear): its 32 timestamp bits past c0's.
    let expected: Vec<u64> = rec
        .events
        .iter()
        .filter_map(|e| match e.item {
            Item::Stream(Record::Sample(r)) => {
                let ts = u64::from(u32::from_le_bytes(r[4..8].try_into().expect("4 bytes")));
                let ticks = ts.wrapping_sub(c0.gpu_timestamp) & 0xFFFF_FFFF;
                Some(c0.cpu_ns + (u128::from(ticks) * 1_000_000_000 / u128::from(hz)) as u64)
            }
            _ => None,
        })
        .collect();
    assert!(expected.len() > 200, "{} reports", expected.len());

    let (p, err) = traced(&file, &[]);
    says(&err, "perfetto-proto: ");
    // One sequence, non-zero, state cleared by the first packet, which is
    // the first snapshot: GPU clock and MONOTONIC, MONOTONIC primary.
    let seq = p[0].u64("trusted_packet_sequence_id");
    assert!(seq.is_some_and(|s| s != 0), "{seq:?}");
    assert!(p.iter().all(|x| x.u64("trusted_packet_sequence_id") == seq));
    assert_eq!(p[0].u64("sequence_flags"), Some(1));
    assert!(p[0].has("clock_snapshot"));
    // Snapshots in file order: (GPU ns, MONOTONIC ns).
    let mut snaps: Vec<(u64, u64)> = Vec::new();
    let mut samples = Vec::new();
    for x in &p {
        if let Some(s) = x.msg("clock_snapshot") {
            assert_eq!(s.u64("primary_trace_clock"), Some(MONOTONIC));
            let get = |id| {
                s.msgs("clocks")
                    .into_iter()
                    .find(|c| c.u64("clock_id") == Some(id))
                    .and_then(|c| c.u64("timestamp"))
            };
            snaps.push((
                get(GPU_CLOCK).expect("GPU"),
                get(MONOTONIC).expect("MONOTONIC"),
            ));
        }
        if x.has("gpu_counter_event") {
            assert_eq!(x.u64("timestamp_clock_id"), Some(GPU_CLOCK));
            assert!(
                !snaps.is_empty(),
                "a snapshot before the GPU clock's first use"
            );
            samples.push(x.u64("timestamp").expect("a timestamp"));
        }
    }
    assert!(
        snaps.len() >= 2,
        "a snapshot about once a second: {snaps:?}"
    );
    // One sample per report pair, stamped at the pair's later report.
    assert_eq!(samples.len(), expected.len() - 1);
    let tick = 1_000_000_000 / hz + 1;
    let mut last = 0;
    for (k, &t) in samples.iter().enumerate() {
        assert!(t > last, "GPU times rise");
        last = t;
        // Trace processor: the nearest earlier snapshot plus the delta.
        let &(g, c) = snaps.iter().rev().find(|s| s.0 <= t).unwrap_or(&snaps[0]);
        let system = (i128::from(c) + i128::from(t) - i128::from(g)) as u64;
        let want = expected[k + 1];
        assert!(
            system.abs_diff(want) <= tick,
            "sample {k}: {system} ns on CLOCK_MONOTONIC, the recording says {want}"
        );
    }
}

#[test]
fn the_descriptor_holds_the_chosen_counters_with_units() {
    let file = recorded("chosen.record", "100ms");
    let (p, _) = traced(&file, &["--counters", "GpuBusy,*Busy,GpuTime"]);
    let events: Vec<&Message> = p
        .iter()
        .filter_map(|x| x.msg("gpu_counter_event"))
        .collect();
    assert!(!events.is_empty());
    let d = events[0]
        .msg("counter_descriptor")
        .expect("the first event holds the descriptor");
    let specs = d.msgs("specs");
    let names: Vec<&str> = specs.iter().filter_map(|s| s.str("name")).collect();
    assert!(
        names.contains(&"GpuBusy") && names.contains(&"GpuTime"),
        "{names:?}"
    );
    assert!(
        names.iter().all(|n| n.ends_with("Busy") || *n == "GpuTime"),
        "{names:?}"
    );
    let blocks = d.msgs("blocks");
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].str("name"), Some("perfregs.RenderBasic"));
    let unit = |name: &str| {
        let s = specs
            .iter()
            .find(|s| s.str("name") == Some(name))
            .expect("a spec");
        s.enum_names("numerator_units")
    };
    assert_eq!(unit("GpuBusy"), ["PERCENT"]);
    assert_eq!(unit("GpuTime"), ["NANOSECOND"]);
    let ids: Vec<u64> = specs.iter().filter_map(|s| s.u64("counter_id")).collect();
    for e in &events {
        let counters = e.msgs("counters");
        assert!(counters
            .iter()
            .all(|c| c.u64("counter_id").is_some_and(|id| ids.contains(&id))));
    }
    assert!(events[1..]
        .iter()
        .all(|e| e.msgs("counters").len() == ids.len()));
}

#[test]
fn o_is_for_documents() {
    let file = recorded("table-o.record", "50ms");
    let out = TempFile::new("table.txt");
    let (code, _, err) = common::in_root(&["report", file.path(), "-o", out.path()]);
    assert_eq!(code, 2, "{err}");
    says(
        &err,
        "-o writes a document: give --format csv, json, perfetto or perfetto-proto",
    );
    // A CSV to a file: the same as on stdout.
    let (code, csv, err) = common::in_root(&["report", file.path(), "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        common::in_root(&["report", file.path(), "--format", "csv", "-o", out.path()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(out.path()).expect("written"), csv);
    // metrics run has no recording to take system times from.
    let (code, _, err) = common::in_root(&[
        "metrics",
        "run",
        "tgl",
        "TestOa",
        "--format",
        "perfetto-proto",
    ]);
    assert_eq!(code, 2, "{err}");
    says(
        &err,
        "--format perfetto-proto is written from a recording's correlations",
    );
}
