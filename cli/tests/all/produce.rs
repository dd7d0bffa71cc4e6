//! `perfregs produce`: without the cargo feature `perfetto-data-source`
//! (the default build), the command is there and says how to build it;
//! with it, an emulated TGL RenderBasic stream produced into a tracing
//! service inside the command's process (hidden `--in-process-trace`: no
//! `traced` runs here), the trace read back by Perfetto's own `.proto`
//! files.

use crate::common;

#[cfg(not(feature = "perfetto-data-source"))]
#[test]
fn without_the_feature_it_says_how_to_build_it() {
    let (out, err) = common::exits(
        1,
        &["produce", "--emulate", "tgl", "--metric-set", "RenderBasic"],
    );
    assert!(out.is_empty(), "{out}");
    assert!(
        err.starts_with(
            "perfregs produce: this perfregs is built without the Perfetto data source"
        ),
        "{err}"
    );
    assert!(
        err.contains("cargo install perfregs-cli --features perfetto-data-source"),
        "{err}"
    );
    // Its help says so too, and `perfregs help` lists it.
    let (out, _) = common::exits(0, &["produce", "--help"]);
    assert!(out.contains("--features perfetto-data-source"), "{out}");
    assert!(!out.contains("--in-process-trace"), "hidden: {out}");
    let (out, _) = common::exits(0, &["help"]);
    assert!(out.contains("produce"), "{out}");
}

#[cfg(feature = "perfetto-data-source")]
#[test]
fn an_emulated_stream_becomes_gpu_counter_samples_in_a_trace() {
    use common::TempFile;
    use perfregs_testkit::proto::{perfetto_session_packets, SERVICE_SEQUENCE_ID};

    let trace = TempFile::new("produce.pftrace");
    let (_, err) = common::exits(
        0,
        &[
            "produce",
            "--emulate",
            "tgl",
            "--metric-set",
            "RenderBasic",
            "--period",
            "10ms",
            "--duration",
            "600ms",
            "--in-process-trace",
            trace.path(),
        ],
    );
    assert!(err.contains("a session enabled it: 34 counter(s)"), "{err}");
    let bytes = std::fs::read(trace.path()).expect("the trace");
    let all = perfetto_session_packets(&bytes);
    let p: Vec<_> = all
        .iter()
        .filter(|p| p.u64("trusted_packet_sequence_id") != Some(SERVICE_SEQUENCE_ID))
        .collect();
    // The state cleared with the snapshot of GPU clock, BOOTTIME and
    // MONOTONIC (the emulated correlations' clock).
    assert_eq!(p[0].u64("sequence_flags"), Some(1));
    let ids: Vec<_> = p[0]
        .msg("clock_snapshot")
        .expect("a snapshot first")
        .msgs("clocks")
        .iter()
        .filter_map(|c| c.u64("clock_id"))
        .collect();
    assert_eq!(ids, [6, 3, 64]);
    // The descriptor: one block, RenderBasic's counters with their units.
    let events: Vec<_> = p
        .iter()
        .filter_map(|p| p.msg("gpu_counter_event"))
        .collect();
    let d = events[0]
        .msg("counter_descriptor")
        .expect("the descriptor first");
    let blocks = d.msgs("blocks");
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].str("name"), Some("perfregs.RenderBasic"));
    let specs = d.msgs("specs");
    assert_eq!(specs.len(), 34);
    let busy = specs
        .iter()
        .find(|s| s.str("name") == Some("GpuBusy"))
        .expect("GpuBusy");
    assert_eq!(busy.enum_names("numerator_units"), ["PERCENT"]);
    let busy_id = busy.u64("counter_id");
    // The samples: a report pair each, at the stream's period (2^17 ticks
    // at 19.2 MHz) on the GPU clock, every counter; GpuBusy a percentage.
    let samples = &events[1..];
    assert!((60..=100).contains(&samples.len()), "{}", samples.len());
    let times: Vec<u64> = p[2..].iter().filter_map(|p| p.u64("timestamp")).collect();
    assert!(p[2..]
        .iter()
        .all(|p| p.u64("timestamp_clock_id") == Some(64)));
    for w in times.windows(2) {
        assert!((6_826_666..=6_826_667).contains(&(w[1] - w[0])), "{w:?}");
    }
    for e in samples {
        assert_eq!(e.u64("gpu_id"), Some(0));
        let c = e.msgs("counters");
        assert_eq!(c.len(), 34);
        let v = c
            .iter()
            .find(|c| c.u64("counter_id") == busy_id)
            .and_then(|c| c.f64("double_value"))
            .expect("GpuBusy's value");
        assert!((0.0..=100.0).contains(&v), "{v}");
    }
}

#[cfg(feature = "perfetto-data-source")]
#[test]
fn without_a_tracing_service_it_says_where_it_looked() {
    // A producer socket that does not exist: the data source registers,
    // waits for --duration, and says that no service is there.
    let missing = std::env::temp_dir().join("perfregs-no-traced-here.sock");
    let out = common::perfregs()
        .args([
            "produce",
            "--emulate",
            "tgl",
            "--metric-set",
            "RenderBasic",
            "--duration",
            "200ms",
        ])
        .env("PERFETTO_PRODUCER_SOCK_NAME", &missing)
        .output()
        .expect("perfregs runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "no tracing service yet (no producer socket at $PERFETTO_PRODUCER_SOCK_NAME={})",
            missing.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("no trace session enabled gpu.counters.perfregs"),
        "{err}"
    );
}
