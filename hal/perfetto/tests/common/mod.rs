//! What the data source's tests share: the counters, a session's trace
//! read back and decoded by Perfetto's `.proto` files (the trace config is
//! the library's `Session`'s, written with the Perfetto SDK's own messages,
//! not with this crate's, which decode it).

#![allow(dead_code)] // each test binary uses a part

use perfregs_perfetto::{CounterSpec, Group, Unit};
use perfregs_testkit::proto::{perfetto_session_packets, Message, SERVICE_SEQUENCE_ID};

/// The GPU's id and name.
pub const GPU: (i32, &str) = (3, "tgl");
/// Three counters (ids 7, 9, 3), as the file writer's tests have them.
pub fn specs() -> Vec<CounterSpec> {
    [
        (7, "GpuBusy", Unit::Percent),
        (9, "GpuTime", Unit::Nanoseconds),
        (3, "SlmBytesRead", Unit::BytesPerSecond),
    ]
    .into_iter()
    .map(|(id, name, unit)| CounterSpec {
        id,
        name: name.to_string(),
        description: format!("{name} described"),
        unit,
    })
    .collect()
}

/// Two groups: all three counters, and GpuBusy alone.
pub fn groups() -> Vec<Group> {
    vec![
        Group {
            name: "perfregs.RenderBasic".to_string(),
            counter_ids: vec![7, 9, 3],
        },
        Group {
            name: "perfregs.Busy".to_string(),
            counter_ids: vec![7],
        },
    ]
}

/// A trace's bytes, decoded.
pub fn decoded(bytes: &[u8]) -> Vec<Message> {
    assert!(!bytes.is_empty(), "the session wrote no trace");
    perfetto_session_packets(bytes)
}

/// The packets of the producers (off the service's sequence).
pub fn ours(packets: &[Message]) -> Vec<&Message> {
    packets
        .iter()
        .filter(|p| p.u64("trusted_packet_sequence_id") != Some(SERVICE_SEQUENCE_ID))
        .collect()
}

/// A snapshot's clocks as (id, ns).
pub fn clocks(snapshot: &Message) -> Vec<(u64, u64)> {
    snapshot
        .msgs("clocks")
        .iter()
        .map(|c| {
            (
                c.u64("clock_id").expect("a clock id"),
                c.u64("timestamp").expect("a timestamp"),
            )
        })
        .collect()
}

/// The ids of an event's counters, in order.
pub fn counter_ids(event: &Message) -> Vec<u64> {
    event
        .msgs("counters")
        .iter()
        .filter_map(|c| c.u64("counter_id"))
        .collect()
}
