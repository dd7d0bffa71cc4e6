//! `perfregs report --format perfetto-proto`: an emulated TGL RenderBasic
//! recording written as Perfetto's native trace, parsed back with
//! Perfetto's own generated protos (`perfetto_protos`): each counter
//! sample's GPU time, converted through the trace's clock snapshots as
//! trace processor converts it, is the recording's CLOCK_MONOTONIC time of
//! its report (from the recording's correlations) within a tick.

mod common;
use common::{says, TempFile};

use perfetto_protos::trace::Trace;
use perfetto_protos::trace_packet::TracePacket;
use perfregs_linux::record::Record;
use perfregs_linux::recording::{read_all, Item};
use protobuf::Message as _;

/// Perfetto's `BuiltinClock` MONOTONIC, and the GPU's sequence clock.
const MONOTONIC: u32 = 3;
const GPU_CLOCK: u32 = 64;

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
fn traced(file: &TempFile, args: &[&str]) -> (Vec<TracePacket>, String) {
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
    let packets = Trace::parse_from_bytes(&bytes)
        .expect("Perfetto's protos read it")
        .packet;
    (packets, err)
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
    let seq = p[0].trusted_packet_sequence_id();
    assert_ne!(seq, 0);
    assert!(p.iter().all(|x| x.trusted_packet_sequence_id() == seq));
    assert_eq!(p[0].sequence_flags(), 1);
    assert!(p[0].has_clock_snapshot());
    // Snapshots in file order: (GPU ns, MONOTONIC ns).
    let mut snaps: Vec<(u64, u64)> = Vec::new();
    let mut samples = Vec::new();
    for x in &p {
        if x.has_clock_snapshot() {
            let s = x.clock_snapshot();
            assert_eq!(s.primary_trace_clock() as u32, MONOTONIC);
            let get = |id| {
                s.clocks
                    .iter()
                    .find(|c| c.clock_id() == id)
                    .map(|c| c.timestamp())
            };
            snaps.push((
                get(GPU_CLOCK).expect("GPU"),
                get(MONOTONIC).expect("MONOTONIC"),
            ));
        }
        if x.has_gpu_counter_event() {
            assert_eq!(x.timestamp_clock_id(), GPU_CLOCK);
            assert!(
                !snaps.is_empty(),
                "a snapshot before the GPU clock's first use"
            );
            samples.push(x.timestamp());
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
    let events: Vec<_> = p.iter().filter(|x| x.has_gpu_counter_event()).collect();
    assert!(!events.is_empty());
    let d = events[0]
        .gpu_counter_event()
        .counter_descriptor
        .clone()
        .into_option()
        .expect("the first event holds the descriptor");
    let names: Vec<&str> = d.specs.iter().map(|s| s.name()).collect();
    assert!(
        names.contains(&"GpuBusy") && names.contains(&"GpuTime"),
        "{names:?}"
    );
    assert!(
        names.iter().all(|n| n.ends_with("Busy") || *n == "GpuTime"),
        "{names:?}"
    );
    assert_eq!(d.blocks.len(), 1);
    assert_eq!(d.blocks[0].name(), "perfregs.RenderBasic");
    let unit = |name: &str| {
        let s = d.specs.iter().find(|s| s.name() == name).expect("a spec");
        s.numerator_units
            .iter()
            .map(|u| u.value())
            .collect::<Vec<_>>()
    };
    assert_eq!(unit("GpuBusy"), [37], "PERCENT");
    assert_eq!(unit("GpuTime"), [19], "NANOSECOND");
    let ids: Vec<u32> = d.specs.iter().map(|s| s.counter_id()).collect();
    for e in &events {
        let g = e.gpu_counter_event();
        assert!(g.counters.iter().all(|c| ids.contains(&c.counter_id())));
    }
    assert!(events[1..]
        .iter()
        .all(|e| e.gpu_counter_event().counters.len() == ids.len()));
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
