//! The data source `gpu.counters.perfregs` through a tracing service in
//! this process (the SDK's IN_PROCESS backend): the path the system
//! backend takes too, from registration to the bytes of the trace, read
//! back by Perfetto's own `.proto` files. The system backend's test is
//! `data_source_system.rs` (a process registers the data source once).

#![cfg(feature = "data-source")]

mod common;

use common::{clocks, counter_ids, decoded, groups, ours, specs, GPU};
use perfregs_perfetto::source::{Backend, Config, Session, Source, Wish};
use perfregs_perfetto::{ClockPair, CpuClock, Error, Value};
use perfregs_testkit::proto::{Message, SERVICE_SEQUENCE_ID};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// CPU time (CLOCK_MONOTONIC) of the correlations: GPU time plus this.
const CPU_AHEAD: u64 = 1_000_000_000_000;

fn pair(gpu_ns: u64) -> ClockPair {
    ClockPair {
        gpu_ns,
        cpu_ns: gpu_ns + CPU_AHEAD,
    }
}

/// The process's data source, registered once (on first use, where what
/// only a new one shows is checked); held for a whole test, so sessions of
/// two tests never overlap.
fn source() -> MutexGuard<'static, Source> {
    static SOURCE: OnceLock<Mutex<Source>> = OnceLock::new();
    let s = SOURCE.get_or_init(|| {
        let mut s = Source::register(
            Backend::InProcess,
            GPU,
            CpuClock::Monotonic,
            &groups(),
            &specs(),
        )
        .expect("registered");
        assert!(!s.is_enabled());
        assert_eq!(s.config(), None);
        // Nothing can be stamped before a correlation.
        assert!(matches!(s.sample(1, &[]), Err(Error::NoCorrelation)));
        assert!(matches!(s.loss(1, "x", 1), Err(Error::NoCorrelation)));
        Mutex::new(s)
    });
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// A session asking `period_ns`, `ids` and `names`; clearing incremental
/// state every `clear_ms` when given.
fn start(period_ns: Option<u64>, ids: &[u32], names: &[&str], clear_ms: Option<u32>) -> Session {
    Session::start(
        Backend::InProcess,
        &Wish {
            period_ns,
            counter_ids: ids.to_vec(),
            counter_names: names.iter().map(|n| n.to_string()).collect(),
            clear_period_ms: clear_ms,
        },
    )
    .expect("an in-process session")
}

fn stop_and_read(session: Session) -> Vec<Message> {
    decoded(&session.stop())
}

fn event(p: &Message) -> Option<&Message> {
    p.msg("gpu_counter_event")
}

/// The packet is the sequence's descriptor event.
/// The inline counter descriptor of packet `p` (a test failure if none).
fn descriptor(p: &Message) -> &Message {
    event(p)
        .and_then(|e| e.msg("counter_descriptor"))
        .expect("a descriptor")
}

/// The names of a descriptor's specs, in order.
fn spec_names(d: &Message) -> Vec<&str> {
    d.msgs("specs")
        .iter()
        .filter_map(|s| s.str("name"))
        .collect()
}

fn is_descriptor(p: &Message) -> bool {
    event(p).is_some_and(|e| e.has("counter_descriptor"))
}

#[test]
fn a_session_gets_its_counters_after_the_descriptor_on_the_gpu_clock() {
    let mut s = source();
    // GpuTime by id, SlmBytesRead by name; not GpuBusy.
    let session = start(Some(100_000), &[9], &["SlmBytesRead"], None);
    assert!(s.is_enabled());
    assert_eq!(
        s.config(),
        Some(Config {
            period_ns: Some(100_000),
            counter_ids: vec![9, 3],
            unknown: vec![],
        })
    );
    // 30 samples 100 ms apart from 5.1 s of GPU time, a correlation
    // before each, a loss with the tenth; SlmBytesRead NaN in the fifth.
    let t = |k: u64| 5_000_000_000 + k * 100_000_000;
    s.correlation(pair(t(0))).expect("a correlation");
    for k in 1..=30u64 {
        s.correlation(pair(t(k))).expect("a correlation");
        let slm = if k == 5 { f64::NAN } else { k as f64 * 2.5 };
        s.sample(
            t(k),
            &[
                (7, Value::Float(k as f64)),
                (9, Value::Int(100_000_000)),
                (3, Value::Float(slm)),
            ],
        )
        .expect("a sample");
        if k == 10 {
            s.loss(t(k), "OA_REPORT_LOST", 1).expect("a loss");
        }
    }
    let all = stop_and_read(session);
    assert!(!s.is_enabled());
    assert_eq!(s.config(), None, "a stopped session asks for nothing");
    let p = ours(&all);
    // One writer, one sequence.
    let seq = p[0].u64("trusted_packet_sequence_id").expect("a sequence");
    assert!(p
        .iter()
        .all(|p| p.u64("trusted_packet_sequence_id") == Some(seq)));

    // First: state cleared, and the GPU clock paired with BOOTTIME and
    // MONOTONIC (the correlations' clock) before anything uses it.
    assert_eq!(
        p[0].u64("sequence_flags"),
        Some(1),
        "SEQ_INCREMENTAL_STATE_CLEARED"
    );
    assert!(
        p[1..].iter().all(|p| p.u64("sequence_flags") == Some(2)),
        "SEQ_NEEDS_INCREMENTAL_STATE"
    );
    let first = clocks(p[0].msg("clock_snapshot").expect("a snapshot first"));
    assert_eq!(first.iter().map(|c| c.0).collect::<Vec<_>>(), [6, 3, 64]);
    assert_eq!(
        first[2].1,
        t(1),
        "the latest correlation when the first sample came"
    );
    assert_eq!(first[1].1, t(1) + CPU_AHEAD);
    // BOOTTIME from MONOTONIC as the service's own snapshot relates them.
    let service = all
        .iter()
        .filter(|p| p.u64("trusted_packet_sequence_id") == Some(SERVICE_SEQUENCE_ID))
        .find_map(|p| p.msg("clock_snapshot"))
        .map(clocks)
        .expect("the service's snapshot");
    let on = |c: &[(u64, u64)], id| c.iter().find(|x| x.0 == id).map(|x| x.1 as i128);
    let theirs = on(&service, 6).expect("BOOTTIME") - on(&service, 3).expect("MONOTONIC");
    let mine = i128::from(first[0].1) - i128::from(first[1].1);
    assert!(
        (mine - theirs).abs() < 50_000_000,
        "BOOTTIME - MONOTONIC: {mine} vs {theirs}"
    );

    // Then the descriptor, of the chosen counters only, no later than the
    // first value.
    assert!(is_descriptor(p[1]));
    let d = descriptor(p[1]);
    assert_eq!(spec_names(d), ["GpuTime", "SlmBytesRead"]);
    let slm = d.msgs("specs")[1];
    assert_eq!(slm.enum_names("numerator_units"), ["BYTE"]);
    assert_eq!(slm.enum_names("denominator_units"), ["SECOND"]);
    let blocks = d.msgs("blocks");
    assert_eq!(blocks.len(), 1, "perfregs.Busy holds no chosen counter");
    assert_eq!(blocks[0].str("name"), Some("perfregs.RenderBasic"));
    assert_eq!(blocks[0].all("counter_ids").count(), 2);
    assert_eq!(p[1].u64("timestamp"), Some(t(1)));
    assert_eq!(p[1].u64("timestamp_clock_id"), Some(64));
    assert!(p[2..].iter().all(|p| !is_descriptor(p)), "one descriptor");

    // The samples: on the GPU clock, the GPU's id, the chosen counters.
    let samples: Vec<_> = p
        .iter()
        .filter(|p| event(p).is_some_and(|e| e.has("counters")))
        .collect();
    assert_eq!(samples.len(), 30);
    for (k, smp) in (1u64..).zip(&samples) {
        assert_eq!(smp.u64("timestamp"), Some(t(k)));
        assert_eq!(smp.u64("timestamp_clock_id"), Some(64));
        let e = event(smp).expect("an event");
        assert_eq!(e.u64("gpu_id"), Some(3));
        let c = e.msgs("counters");
        assert_eq!(c[0].u64("counter_id"), Some(9));
        assert_eq!(c[0].i64("int_value"), Some(100_000_000));
        if k == 5 {
            assert_eq!(counter_ids(e), [9], "NaN left out");
        } else {
            assert_eq!(counter_ids(e), [9, 3]);
            assert_eq!(c[1].f64("double_value"), Some(k as f64 * 2.5));
        }
    }

    // Snapshots: the first, then one a second of GPU time, each pairing
    // the correlation given.
    let snaps: Vec<_> = p
        .iter()
        .filter_map(|p| p.msg("clock_snapshot"))
        .map(clocks)
        .collect();
    let gpu_times: Vec<u64> = snaps
        .iter()
        .filter_map(|c| on(c, 64).map(|v| v as u64))
        .collect();
    assert_eq!(gpu_times, [t(1), t(11), t(21)]);
    assert!(snaps
        .iter()
        .all(|c| on(c, 3) == on(c, 64).map(|g| g + i128::from(CPU_AHEAD))));

    // The loss: its track named first, then the instant.
    let track = p
        .iter()
        .position(|p| p.has("track_descriptor"))
        .expect("the loss track");
    let td = p[track].msg("track_descriptor").expect("a descriptor");
    assert_eq!(td.str("name"), Some("GPU3 OA stream (tgl)"));
    let loss = p.iter().position(|p| p.has("track_event")).expect("a loss");
    assert!(track < loss);
    let e = p[loss].msg("track_event").expect("an event");
    assert_eq!(e.u64("track_uuid"), td.u64("uuid"));
    assert_eq!(e.enum_names("type"), ["TYPE_INSTANT"]);
    assert_eq!(e.str("name"), Some("OA_REPORT_LOST"));
    assert_eq!(e.msgs("debug_annotations")[0].u64("uint_value"), Some(1));
    assert_eq!(p[loss].u64("timestamp"), Some(t(10)));
    assert_eq!(p[loss].u64("timestamp_clock_id"), Some(64));
}

#[test]
fn two_sessions_get_what_each_chose() {
    let mut s = source();
    let a = start(Some(200_000), &[7], &[], None);
    let b = start(Some(50_000), &[], &["GpuTime", "Nope"], None);
    // The shortest period, the union of the counters, what no spec has.
    assert_eq!(
        s.config(),
        Some(Config {
            period_ns: Some(50_000),
            counter_ids: vec![7, 9],
            unknown: vec!["counter name \"Nope\"".to_string()],
        })
    );
    s.correlation(pair(1_000)).expect("a correlation");
    for k in 1..=3u64 {
        let values = [
            (7, Value::Int(k as i64)),
            (9, Value::Int(10)),
            (3, Value::Int(0)),
        ];
        s.sample(1_000 + k, &values).expect("a sample");
    }
    // A session's counters only, in its own descriptor and its samples.
    for (session, id, name) in [(a, 7, "GpuBusy"), (b, 9, "GpuTime")] {
        let all = stop_and_read(session);
        let p = ours(&all);
        assert_eq!(p[0].u64("sequence_flags"), Some(1));
        assert_eq!(spec_names(descriptor(p[1])), [name]);
        let samples: Vec<_> = p[2..].iter().filter_map(|p| event(p)).collect();
        assert_eq!(samples.len(), 3);
        assert!(samples.iter().all(|e| counter_ids(e) == [id]));
    }
}

#[test]
fn a_cleared_state_is_written_again() {
    let mut s = source();
    // The service clears incremental state every 10 ms.
    let session = start(None, &[], &[], Some(10));
    s.correlation(pair(2_000)).expect("a correlation");
    s.sample(2_001, &[(7, Value::Int(1))]).expect("a sample");
    s.loss(2_002, "OA_BUFFER_LOST", 1).expect("a loss");
    // Long enough for a clear to reach this process's sequence.
    std::thread::sleep(Duration::from_millis(500));
    s.sample(2_003, &[(7, Value::Int(2))]).expect("a sample");
    s.loss(2_004, "OA_BUFFER_LOST", 2).expect("a loss");
    let all = stop_and_read(session);
    let p = ours(&all);
    let cleared: Vec<usize> = (0..p.len())
        .filter(|&k| p[k].u64("sequence_flags") == Some(1))
        .collect();
    assert_eq!(
        cleared.len(),
        2,
        "the first write, and the first after the clear"
    );
    for &k in &cleared {
        // Each time: the snapshot, then the descriptor (of every counter:
        // none chosen), then the sample, the loss track, the loss.
        assert!(p[k].has("clock_snapshot"));
        let d = descriptor(p[k + 1]);
        assert_eq!(d.msgs("specs").len(), 3);
        assert_eq!(d.msgs("blocks").len(), 2);
        assert_eq!(event(p[k + 2]).map(counter_ids), Some(vec![7]));
        assert!(p[k + 3].has("track_descriptor"));
        assert!(p[k + 4].has("track_event"));
    }
    assert_eq!(p.len(), 10);
}

#[test]
fn misuse_is_an_error() {
    let mut s = source();
    let again = Source::register(
        Backend::InProcess,
        GPU,
        CpuClock::Monotonic,
        &groups(),
        &specs(),
    );
    assert!(matches!(again, Err(Error::AlreadyRegistered)));
    s.correlation(pair(10)).expect("a correlation");
    assert!(matches!(
        s.sample(11, &[(42, Value::Int(1))]),
        Err(Error::UnknownId(42))
    ));
    // Bad specs are refused before anything is registered.
    let mut dup = specs();
    dup[1].id = 7;
    let e = Source::register(Backend::InProcess, GPU, CpuClock::Monotonic, &[], &dup);
    assert!(matches!(e, Err(Error::DuplicateId(7))));
}
