//! GPU counters as a native Perfetto protobuf trace (`.pftrace`) on the
//! system clock.
//!
//! One writer sequence (trusted packet sequence id [`SEQUENCE_ID`]): its
//! first packet clears incremental state and holds a clock snapshot pairing
//! the GPU clock (sequence-scoped clock 64, GPU time in ns) with the CPU
//! clock of the recording's correlations (`primary_trace_clock` set to it);
//! later correlations become snapshots at most once a second of GPU time.
//! Samples are `GpuCounterEvent`s stamped on the GPU clock at the end of the
//! interval they cover (Perfetto's backwards-looking default), the first
//! one carrying the inline `GpuCounterDescriptor` (one block per metric
//! set, one spec per counter). Losses are `TrackEvent` instants on a track
//! named "`GPU<id>` OA stream". The wire encoding is `prost`'s.
//!
//! # Live: the data source (feature `data-source`)
//!
//! `source::Source` offers the same counters, from the same inputs
//! ([`Group`], [`CounterSpec`], [`Value`], [`ClockPair`]), to a running
//! trace as the Perfetto data source `gpu.counters.perfregs`, as Mesa's pps
//! producer offers `gpu.counters.i915`: registered with the system's
//! tracing service (`traced`) through Perfetto's Rust SDK, it writes to
//! every trace session whose config enables it, with the counters and the
//! period the session's `gpu_counter_config` chose. The feature compiles
//! Perfetto's C++ SDK (`perfetto-sdk-sys`: a C++ compiler, about a minute),
//! which is why it is off by default. `perfregs produce` (crate
//! `perfregs-cli`, feature `perfetto-data-source`) is the command that runs
//! it on an OA stream. With Perfetto's `tracebox` (no `traced` installed):
//!
//! ```sh
//! perfregs produce --device card0 --metric-set RenderBasic &   # waits for a session
//! tracebox --system-sockets --txt -c gpu.cfg -o gpu.pftrace    # traced on the system sockets
//! ```
//!
//! where `gpu.cfg` is (the counters by their names, or `counter_ids`;
//! none: all; `counter_period_ns`: the period, else the producer's):
//!
//! ```text
//! buffers { size_kb: 65536 }
//! data_sources {
//!   config {
//!     name: "gpu.counters.perfregs"
//!     gpu_counter_config {
//!       counter_period_ns: 1000000
//!       counter_names: "GpuBusy"
//!       counter_names: "EuActive"
//!     }
//!   }
//! }
//! duration_ms: 10000
//! ```

pub mod proto;
#[cfg(feature = "data-source")]
pub mod source;

use prost::Message as _;
use std::io::{self, Write};

/// The trusted packet sequence id of perfregs' writer: non-zero and unusual,
/// so a file concatenated with a system trace keeps its own sequence.
pub const SEQUENCE_ID: u32 = 0x5045_5246; // "PERF"

/// The sequence-scoped clock id of the GPU clock (Perfetto: 64..127 are a
/// sequence's own clocks).
pub const GPU_CLOCK_ID: u32 = 64;

/// Least GPU time between two clock snapshots after the first (Mesa's
/// `CORRELATION_TIMESTAMP_PERIOD`).
pub const SNAPSHOT_PERIOD_NS: u64 = 1_000_000_000;

/// The CPU clock of the correlations (Perfetto's `BuiltinClock` ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuClock {
    /// `CLOCK_REALTIME` (1).
    Realtime = 1,
    /// `CLOCK_MONOTONIC` (3): IGT's recordings' correlations.
    Monotonic = 3,
    /// `CLOCK_MONOTONIC_RAW` (5).
    MonotonicRaw = 5,
    /// `CLOCK_BOOTTIME` (6): Perfetto's default trace clock.
    Boottime = 6,
}

/// The same instant on the GPU clock (ns) and the CPU clock (ns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockPair {
    /// GPU time in ns (the 64-bit GPU timestamp scaled to ns).
    pub gpu_ns: u64,
    /// CPU time in ns on the writer's [`CpuClock`].
    pub cpu_ns: u64,
}

/// A counter's unit, mapped to Perfetto's `MeasureUnit`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// No unit (an event count, a ratio).
    None,
    /// Percent.
    Percent,
    /// Bytes.
    Bytes,
    /// Bytes per second.
    BytesPerSecond,
    /// Hertz.
    Hertz,
    /// Nanoseconds.
    Nanoseconds,
    /// Pixels.
    Pixels,
    /// Vertices.
    Vertices,
    /// Primitives.
    Primitives,
    /// Instructions.
    Instructions,
}

impl Unit {
    /// The unit of a perfregs metric's unit text (`percent`, `bytes`,
    /// `ns`, `hz`, `pixels`, ...); anything else is [`Unit::None`].
    pub fn of(text: &str) -> Unit {
        match text.trim().to_ascii_lowercase().as_str() {
            "percent" | "%" => Unit::Percent,
            "bytes" | "byte" => Unit::Bytes,
            "bytes/s" | "bytes per second" => Unit::BytesPerSecond,
            "hz" => Unit::Hertz,
            "ns" | "nanoseconds" => Unit::Nanoseconds,
            "pixels" | "pixel" => Unit::Pixels,
            "vertices" | "vertex" => Unit::Vertices,
            "primitives" | "primitive" => Unit::Primitives,
            "instructions" | "instruction" => Unit::Instructions,
            _ => Unit::None,
        }
    }

    /// Numerator and denominator `MeasureUnit`s (NONE 0, BYTE 7, HERTZ 13,
    /// NANOSECOND 19, SECOND 22, VERTEX 25, PIXEL 26, PERCENT 37,
    /// PRIMITIVE 38, INSTRUCTION 40).
    fn measure(self) -> (Vec<i32>, Vec<i32>) {
        let n = |u: i32| (vec![u], Vec::new());
        match self {
            Unit::None => (Vec::new(), Vec::new()),
            Unit::Percent => n(37),
            Unit::Bytes => n(7),
            Unit::BytesPerSecond => (vec![7], vec![22]),
            Unit::Hertz => n(13),
            Unit::Nanoseconds => n(19),
            Unit::Pixels => n(26),
            Unit::Vertices => n(25),
            Unit::Primitives => n(38),
            Unit::Instructions => n(40),
        }
    }
}

/// A counter: a stable id (unique in the trace), its name, description and
/// unit.
#[derive(Clone, Debug, PartialEq)]
pub struct CounterSpec {
    /// Its id in the trace's samples.
    pub id: u32,
    /// Its name (a metric's symbol name).
    pub name: String,
    /// What it measures.
    pub description: String,
    /// Its unit.
    pub unit: Unit,
}

/// A group of counters (a metric set): a block of the descriptor.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Its name (`perfregs.RenderBasic`).
    pub name: String,
    /// The ids of its counters.
    pub counter_ids: Vec<u32>,
}

/// A value of a counter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A float (a non-finite one is not written).
    Float(f64),
}

/// What is wrong with the writer's input.
#[derive(Debug)]
pub enum Error {
    /// Writing failed.
    Io(io::Error),
    /// Two counter specs share an id.
    DuplicateId(u32),
    /// A group or sample names an id no spec has.
    UnknownId(u32),
    /// The data source is registered already in this process (only
    /// `source::Source::register`, feature `data-source`).
    AlreadyRegistered,
    /// Perfetto refused to register the data source (only the data source).
    Register(String),
    /// A tracing session could not be started (only the data source's
    /// `Session`).
    Session(String),
    /// A sample or loss before the first correlation: GPU time cannot be
    /// put on the trace's clock yet (only the data source).
    NoCorrelation,
    /// Reading a CPU clock failed, or a correlation's CPU time is outside
    /// `CLOCK_BOOTTIME`'s range (only the data source).
    Clock(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Io(e) => write!(f, "writing the trace: {e}"),
            Error::DuplicateId(id) => write!(f, "two counters have id {id}: give each its own"),
            Error::UnknownId(id) => write!(f, "counter id {id} has no spec: describe it first"),
            Error::AlreadyRegistered => write!(
                f,
                "the Perfetto data source is registered already in this process (Perfetto cannot unregister one): register once and keep the Source"
            ),
            Error::Register(why) => write!(f, "registering the Perfetto data source: {why}"),
            Error::Session(why) => write!(f, "a tracing session: {why}"),
            Error::NoCorrelation => write!(
                f,
                "no correlation yet: give a ClockPair (Source::correlation) before the first sample or loss, so GPU time can be put on the trace's clock"
            ),
            Error::Clock(why) => write!(f, "the CPU clock: {why}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// Writes a `.pftrace` of one GPU's counters to `W`, packet by packet
/// (a `Trace` is a run of field-1 records, so nothing is buffered).
pub struct TraceWriter<W: Write> {
    out: W,
    gpu_id: i32,
    gpu_name: String,
    cpu_clock: CpuClock,
    /// The descriptor, until the first sample carries it.
    descriptor: Option<proto::GpuCounterDescriptor>,
    ids: Vec<u32>,
    /// GPU time of the last snapshot written.
    last_snapshot: Option<u64>,
    loss_track: bool,
}

impl<W: Write> TraceWriter<W> {
    /// A writer of `gpu` (id, name) whose correlations are on `cpu_clock`,
    /// with `specs` grouped in `groups`; writes the first packet (state
    /// cleared, the snapshot of `first`).
    pub fn new(
        out: W,
        gpu: (i32, &str),
        cpu_clock: CpuClock,
        groups: &[Group],
        specs: &[CounterSpec],
        first: ClockPair,
    ) -> Result<Self, Error> {
        let ids = spec_ids(groups, specs)?;
        let descriptor = descriptor(groups, specs, |_| true);
        let mut w = TraceWriter {
            out,
            gpu_id: gpu.0,
            gpu_name: gpu.1.to_string(),
            cpu_clock,
            descriptor: Some(descriptor),
            ids,
            last_snapshot: None,
            loss_track: false,
        };
        w.snapshot(first, true)?;
        Ok(w)
    }

    fn packet(&mut self, mut p: proto::TracePacket) -> Result<(), Error> {
        p.trusted_packet_sequence_id = Some(SEQUENCE_ID);
        let trace = proto::Trace { packet: vec![p] };
        self.out.write_all(&trace.encode_to_vec())?;
        Ok(())
    }

    fn snapshot(&mut self, c: ClockPair, first: bool) -> Result<(), Error> {
        let cpu = self.cpu_clock as u32;
        self.packet(proto::TracePacket {
            timestamp: Some(c.cpu_ns),
            timestamp_clock_id: Some(cpu),
            sequence_flags: first.then_some(proto::SEQ_INCREMENTAL_STATE_CLEARED),
            clock_snapshot: Some(proto::ClockSnapshot {
                clocks: vec![
                    proto::Clock {
                        clock_id: Some(cpu),
                        timestamp: Some(c.cpu_ns),
                    },
                    proto::Clock {
                        clock_id: Some(GPU_CLOCK_ID),
                        timestamp: Some(c.gpu_ns),
                    },
                ],
                primary_trace_clock: Some(cpu as i32),
            }),
            ..Default::default()
        })?;
        self.last_snapshot = Some(c.gpu_ns);
        Ok(())
    }

    /// A later correlation: written as a snapshot when it is at least
    /// [`SNAPSHOT_PERIOD_NS`] of GPU time after the last one written
    /// (returns whether it was). Give correlations in GPU time order, each
    /// before the samples after it.
    pub fn correlation(&mut self, c: ClockPair) -> Result<bool, Error> {
        match self.last_snapshot {
            Some(t) if c.gpu_ns < t.saturating_add(SNAPSHOT_PERIOD_NS) => Ok(false),
            _ => self.snapshot(c, false).map(|()| true),
        }
    }

    /// A sample at `gpu_ns` (the end of the interval it covers): the
    /// values of counters by id. The first sample carries the descriptor.
    pub fn sample(&mut self, gpu_ns: u64, values: &[(u32, Value)]) -> Result<(), Error> {
        check_values(&self.ids, values)?;
        let counters = counters(values, |_| true);
        let event = proto::GpuCounterEvent {
            counter_descriptor: self.descriptor.take(),
            counters,
            gpu_id: Some(self.gpu_id),
        };
        self.packet(proto::TracePacket {
            timestamp: Some(gpu_ns),
            timestamp_clock_id: Some(GPU_CLOCK_ID),
            gpu_counter_event: Some(event),
            ..Default::default()
        })
    }

    /// The uuid of the loss track: stable per GPU.
    pub fn loss_track_uuid(&self) -> u64 {
        loss_track_uuid(self.gpu_id)
    }

    /// A loss at `gpu_ns` (`kind`: "report lost", "buffer lost", ...;
    /// `count` of them): an instant on the track "`GPU<id>` OA stream".
    pub fn loss(&mut self, gpu_ns: u64, kind: &str, count: u64) -> Result<(), Error> {
        if !self.loss_track {
            self.packet(proto::TracePacket {
                timestamp: Some(gpu_ns),
                timestamp_clock_id: Some(GPU_CLOCK_ID),
                track_descriptor: Some(loss_track(self.gpu_id, &self.gpu_name)),
                ..Default::default()
            })?;
            self.loss_track = true;
        }
        self.packet(proto::TracePacket {
            timestamp: Some(gpu_ns),
            timestamp_clock_id: Some(GPU_CLOCK_ID),
            track_event: Some(loss_event(self.gpu_id, kind, count)),
            ..Default::default()
        })
    }

    /// Flush and return the output; a trace without samples gets the
    /// descriptor alone (at `end_gpu_ns`).
    pub fn finish(mut self, end_gpu_ns: u64) -> Result<W, Error> {
        if self.descriptor.is_some() {
            self.sample(end_gpu_ns, &[])?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

// What the file writer and the data source (`source`) share: the checks of
// their input and the messages they write, built once here.

/// The ids of `specs` in their order; an error when two share an id or a
/// group names an id no spec has.
fn spec_ids(groups: &[Group], specs: &[CounterSpec]) -> Result<Vec<u32>, Error> {
    let mut ids: Vec<u32> = Vec::with_capacity(specs.len());
    for s in specs {
        if ids.contains(&s.id) {
            return Err(Error::DuplicateId(s.id));
        }
        ids.push(s.id);
    }
    if let Some(&id) = groups
        .iter()
        .flat_map(|g| &g.counter_ids)
        .find(|id| !ids.contains(id))
    {
        return Err(Error::UnknownId(id));
    }
    Ok(ids)
}

/// An error when a sample's value names an id not in `ids`.
fn check_values(ids: &[u32], values: &[(u32, Value)]) -> Result<(), Error> {
    match values.iter().find(|(id, _)| !ids.contains(id)) {
        Some(&(id, _)) => Err(Error::UnknownId(id)),
        None => Ok(()),
    }
}

/// The `GpuCounterDescriptor` of the specs `keep` takes: one spec each
/// (units mapped by [`Unit::measure`]), one block per group (its index is
/// its id) with the kept counters; a group left with none of its counters
/// is left out.
fn descriptor(
    groups: &[Group],
    specs: &[CounterSpec],
    keep: impl Fn(u32) -> bool,
) -> proto::GpuCounterDescriptor {
    proto::GpuCounterDescriptor {
        specs: specs
            .iter()
            .filter(|s| keep(s.id))
            .map(|s| {
                let (num, den) = s.unit.measure();
                proto::GpuCounterSpec {
                    counter_id: Some(s.id),
                    name: Some(s.name.clone()),
                    description: Some(s.description.clone()),
                    numerator_units: num,
                    denominator_units: den,
                }
            })
            .collect(),
        blocks: groups
            .iter()
            .enumerate()
            .filter_map(|(k, g)| {
                let ids: Vec<u32> = g
                    .counter_ids
                    .iter()
                    .copied()
                    .filter(|&id| keep(id))
                    .collect();
                (!ids.is_empty() || g.counter_ids.is_empty()).then(|| proto::GpuCounterBlock {
                    block_id: u32::try_from(k).ok(),
                    name: Some(g.name.clone()),
                    counter_ids: ids,
                })
            })
            .collect(),
    }
}

/// The counters of a sample that `keep` takes; a non-finite float is left
/// out.
fn counters(values: &[(u32, Value)], keep: impl Fn(u32) -> bool) -> Vec<proto::GpuCounter> {
    values
        .iter()
        .filter(|(id, _)| keep(*id))
        .filter_map(|&(id, v)| match v {
            Value::Int(i) => Some(proto::GpuCounter {
                counter_id: Some(id),
                int_value: Some(i),
                double_value: None,
            }),
            Value::Float(f) if f.is_finite() => Some(proto::GpuCounter {
                counter_id: Some(id),
                int_value: None,
                double_value: Some(f),
            }),
            Value::Float(_) => None,
        })
        .collect()
}

/// The uuid of GPU `gpu_id`'s loss track: stable per GPU.
fn loss_track_uuid(gpu_id: i32) -> u64 {
    0x7065_7266_0000_0000 | u64::from(gpu_id as u32)
}

/// The loss track of GPU `gpu_id` named `gpu_name`: "`GPU<id>` OA stream
/// (`<name>`)".
fn loss_track(gpu_id: i32, gpu_name: &str) -> proto::TrackDescriptor {
    proto::TrackDescriptor {
        uuid: Some(loss_track_uuid(gpu_id)),
        name: Some(format!("GPU{gpu_id} OA stream ({gpu_name})")),
    }
}

/// A loss (`kind`, `count` of them) as an instant on GPU `gpu_id`'s loss
/// track.
fn loss_event(gpu_id: i32, kind: &str, count: u64) -> proto::TrackEvent {
    proto::TrackEvent {
        r#type: Some(proto::TYPE_INSTANT),
        track_uuid: Some(loss_track_uuid(gpu_id)),
        name: Some(kind.to_string()),
        debug_annotations: vec![proto::DebugAnnotation {
            name: Some("count".to_string()),
            uint_value: Some(count),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfregs_testkit::proto::{perfetto_packets, Message};

    fn specs() -> Vec<CounterSpec> {
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

    /// A trace of 30 samples 100 ms apart (GPU ns from 5 s), correlations
    /// every 100 ms (CPU = GPU + 1000 s), a loss after the tenth.
    fn written() -> Vec<u8> {
        let groups = [Group {
            name: "perfregs.RenderBasic".to_string(),
            counter_ids: vec![7, 9, 3],
        }];
        let pair = |g: u64| ClockPair {
            gpu_ns: g,
            cpu_ns: g + 1_000_000_000_000,
        };
        let mut w = TraceWriter::new(
            Vec::new(),
            (0, "tgl"),
            CpuClock::Monotonic,
            &groups,
            &specs(),
            pair(5_000_000_000),
        )
        .expect("a writer");
        for k in 1..=30u64 {
            let t = 5_000_000_000 + k * 100_000_000;
            w.correlation(pair(t)).expect("written");
            w.sample(
                t,
                &[
                    (7, Value::Float(k as f64)),
                    (9, Value::Int(100_000_000)),
                    (3, Value::Float(f64::NAN)),
                ],
            )
            .expect("a sample");
            if k == 10 {
                w.loss(t, "report lost", 1).expect("a loss");
            }
        }
        w.finish(9_000_000_000).expect("finished")
    }

    /// The packets, decoded by Perfetto's own `.proto` files.
    fn parsed(bytes: &[u8]) -> Vec<Message> {
        perfetto_packets(bytes)
    }

    #[test]
    fn one_sequence_cleared_first() {
        let p = parsed(&written());
        assert!(p.len() > 30);
        assert!(p
            .iter()
            .all(|p| p.u64("trusted_packet_sequence_id") == Some(SEQUENCE_ID.into())));
        assert_ne!(SEQUENCE_ID, 0);
        assert_eq!(
            p[0].u64("sequence_flags"),
            Some(1),
            "SEQ_INCREMENTAL_STATE_CLEARED"
        );
        assert!(p[1..]
            .iter()
            .all(|p| p.u64("sequence_flags").unwrap_or(0) == 0));
    }

    #[test]
    fn snapshots_pair_the_gpu_clock_with_the_cpu_clock_before_use() {
        let p = parsed(&written());
        let first_use = p
            .iter()
            .position(|p| p.u64("timestamp_clock_id") == Some(GPU_CLOCK_ID.into()))
            .expect("GPU-clock packets");
        let snaps: Vec<_> = p
            .iter()
            .enumerate()
            .filter_map(|(k, p)| p.msg("clock_snapshot").map(|s| (k, s)))
            .collect();
        assert!(snaps[0].0 < first_use);
        for (_, s) in &snaps {
            assert_eq!(
                s.enum_names("primary_trace_clock"),
                ["BUILTIN_CLOCK_MONOTONIC"]
            );
            let get = |id| {
                s.msgs("clocks")
                    .into_iter()
                    .find(|c| c.u64("clock_id") == Some(id))
                    .and_then(|c| c.u64("timestamp"))
            };
            let (cpu, gpu) = (get(3).expect("MONOTONIC"), get(64).expect("GPU clock"));
            assert_eq!(cpu - gpu, 1_000_000_000_000);
        }
        // 3 s of samples, a correlation every 100 ms: one snapshot a second.
        assert_eq!(snaps.len(), 4);
    }

    #[test]
    fn descriptor_first_and_every_id_resolves_with_units() {
        let p = parsed(&written());
        let events: Vec<_> = p.iter().filter(|p| p.has("gpu_counter_event")).collect();
        assert_eq!(events.len(), 30);
        let event = |p: &Message| p.msg("gpu_counter_event").cloned().expect("an event");
        let d = event(events[0])
            .msg("counter_descriptor")
            .cloned()
            .expect("the first event holds the descriptor");
        assert!(events[1..]
            .iter()
            .all(|e| !event(e).has("counter_descriptor")));
        let blocks = d.msgs("blocks");
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].str("name"), Some("perfregs.RenderBasic"));
        let block_ids: Vec<u64> = blocks[0]
            .all("counter_ids")
            .map(|v| match v {
                perfregs_testkit::proto::Value::Int(n) => *n,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(block_ids, [7, 9, 3]);
        let specs = d.msgs("specs");
        let unit = |name: &str| {
            let s = specs
                .iter()
                .find(|s| s.str("name") == Some(name))
                .expect("a spec");
            (
                s.enum_names("numerator_units"),
                s.enum_names("denominator_units"),
            )
        };
        let none: [&str; 0] = [];
        assert_eq!(unit("GpuBusy"), (vec!["PERCENT".to_string()], vec![]));
        assert_eq!(unit("GpuTime").0, ["NANOSECOND"]);
        assert_eq!(unit("GpuTime").1, none);
        assert_eq!(
            unit("SlmBytesRead"),
            (vec!["BYTE".into()], vec!["SECOND".into()])
        );
        let ids: Vec<u64> = specs.iter().filter_map(|s| s.u64("counter_id")).collect();
        let mut last = 0;
        for (k, e) in events.iter().enumerate() {
            let t = e.u64("timestamp").expect("a timestamp");
            assert!(t > last, "timestamps rise");
            last = t;
            let g = event(e);
            assert_eq!(g.u64("gpu_id"), Some(0));
            let counters = g.msgs("counters");
            assert!(counters
                .iter()
                .all(|c| c.u64("counter_id").is_some_and(|id| ids.contains(&id))));
            // The NaN is left out; the float and the integer are there.
            assert_eq!(counters.len(), 2);
            assert_eq!(counters[0].f64("double_value"), Some((k + 1) as f64));
            assert_eq!(counters[1].u64("int_value"), Some(100_000_000));
        }
    }

    #[test]
    fn losses_are_instants_on_a_named_track() {
        let p = parsed(&written());
        let track = p
            .iter()
            .position(|p| p.has("track_descriptor"))
            .expect("the loss track");
        let td = p[track].msg("track_descriptor").expect("a descriptor");
        let uuid = td.u64("uuid").expect("a uuid");
        assert!(td.str("name").is_some_and(|n| n.contains("OA stream")));
        let loss = p.iter().position(|p| p.has("track_event")).expect("a loss");
        assert!(track < loss);
        let e = p[loss].msg("track_event").expect("an event");
        assert_eq!(e.u64("track_uuid"), Some(uuid));
        assert_eq!(e.enum_names("type"), ["TYPE_INSTANT"]);
        assert_eq!(e.str("name"), Some("report lost"));
        assert_eq!(p[loss].u64("timestamp"), Some(6_000_000_000));
        assert_eq!(e.msgs("debug_annotations")[0].u64("uint_value"), Some(1));
    }

    #[test]
    fn bad_ids_are_errors() {
        let mut s = specs();
        s[1].id = 7;
        let first = ClockPair {
            gpu_ns: 0,
            cpu_ns: 0,
        };
        let e = TraceWriter::new(Vec::new(), (0, "x"), CpuClock::Boottime, &[], &s, first);
        assert!(matches!(e, Err(Error::DuplicateId(7))));
        let g = [Group {
            name: "g".into(),
            counter_ids: vec![42],
        }];
        let e = TraceWriter::new(
            Vec::new(),
            (0, "x"),
            CpuClock::Boottime,
            &g,
            &specs(),
            first,
        );
        assert!(matches!(e, Err(Error::UnknownId(42))));
        let mut w = TraceWriter::new(
            Vec::new(),
            (0, "x"),
            CpuClock::Boottime,
            &[],
            &specs(),
            first,
        )
        .expect("a writer");
        assert!(matches!(
            w.sample(1, &[(5, Value::Int(1))]),
            Err(Error::UnknownId(5))
        ));
        // Without samples the descriptor is still written.
        let p = parsed(&w.finish(1).expect("finished"));
        assert!(p[1]
            .msg("gpu_counter_event")
            .is_some_and(|e| e.has("counter_descriptor")));
    }
}
