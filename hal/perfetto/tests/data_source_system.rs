//! The data source through the system's tracing service (`traced`,
//! `tracebox --system-sockets`), as `perfregs produce` offers it: runs only
//! where the service's sockets exist, and says so loudly (past the test
//! harness's capture) where they do not. A test binary of its own: a
//! process registers the data source once, with one backend.

#![cfg(feature = "data-source")]

mod common;

use common::{counter_ids, decoded, groups, ours, specs, GPU};
use perfregs_perfetto::source::{self, Backend, Session, Source, Wish};
use perfregs_perfetto::{ClockPair, CpuClock, Value};
use std::io::Write as _;
use std::time::{Duration, Instant};

/// Said on stderr itself: the harness captures only `eprintln!`.
fn loud(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
fn a_system_trace_gets_the_counters() {
    let producer = source::producer_socket();
    let consumer = source::consumer_socket();
    // Registering needs no service: the SDK connects when one appears.
    let mut s = Source::register(
        Backend::System,
        GPU,
        CpuClock::Monotonic,
        &groups(),
        &specs(),
    )
    .expect("registered");
    let (producer, _consumer) = match (producer, consumer) {
        (Ok(p), Ok(c)) => (p, c),
        (Err(at), _) => {
            assert!(!s.is_enabled());
            assert_eq!(s.config(), None);
            loud(&format!(
                "a_system_trace_gets_the_counters skipped: no traced producer socket at {at} (start `tracebox --system-sockets` or traced to run it)"
            ));
            return;
        }
        (Ok(_), Err(at)) => {
            loud(&format!(
                "a_system_trace_gets_the_counters skipped: a producer socket but no traced consumer socket at {at}"
            ));
            return;
        }
    };
    let session = Session::start(
        Backend::System,
        &Wish {
            period_ns: Some(1_000_000),
            counter_ids: vec![7],
            ..Wish::default()
        },
    )
    .expect("a system session");
    // The producer connects in the background.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !s.is_enabled() {
        assert!(
            Instant::now() < deadline,
            "not enabled 10 s after the session started: the producer did not reach {producer}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(s.config().map(|c| c.counter_ids), Some(vec![7]));
    s.correlation(ClockPair {
        gpu_ns: 1_000,
        cpu_ns: 2_000,
    })
    .expect("a correlation");
    for k in 1..=3u64 {
        s.sample(1_000 + k, &[(7, Value::Int(k as i64)), (9, Value::Int(1))])
            .expect("a sample");
    }
    let all = decoded(&session.stop());
    let p = ours(&all);
    assert_eq!(p.first().and_then(|p| p.u64("sequence_flags")), Some(1));
    let events: Vec<_> = p
        .iter()
        .filter_map(|p| p.msg("gpu_counter_event"))
        .collect();
    assert!(events[0].has("counter_descriptor"));
    assert_eq!(events.len(), 4);
    assert!(events[1..].iter().all(|e| counter_ids(e) == [7]));
    loud(&format!(
        "a_system_trace_gets_the_counters: ran against {producer}"
    ));
}
