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

pub mod proto;

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
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Io(e) => write!(f, "writing the trace: {e}"),
            Error::DuplicateId(id) => write!(f, "two counters have id {id}: give each its own"),
            Error::UnknownId(id) => write!(f, "counter id {id} has no spec: describe it first"),
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
        let descriptor = proto::GpuCounterDescriptor {
            specs: specs
                .iter()
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
                .map(|(k, g)| proto::GpuCounterBlock {
                    block_id: u32::try_from(k).ok(),
                    name: Some(g.name.clone()),
                    counter_ids: g.counter_ids.clone(),
                })
                .collect(),
        };
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
        if let Some(&(id, _)) = values.iter().find(|(id, _)| !self.ids.contains(id)) {
            return Err(Error::UnknownId(id));
        }
        let counters = values
            .iter()
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
            .collect();
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
        0x7065_7266_0000_0000 | u64::from(self.gpu_id as u32)
    }

    /// A loss at `gpu_ns` (`kind`: "report lost", "buffer lost", ...;
    /// `count` of them): an instant on the track "`GPU<id>` OA stream".
    pub fn loss(&mut self, gpu_ns: u64, kind: &str, count: u64) -> Result<(), Error> {
        let uuid = self.loss_track_uuid();
        if !self.loss_track {
            let name = format!("GPU{} OA stream ({})", self.gpu_id, self.gpu_name);
            self.packet(proto::TracePacket {
                timestamp: Some(gpu_ns),
                timestamp_clock_id: Some(GPU_CLOCK_ID),
                track_descriptor: Some(proto::TrackDescriptor {
                    uuid: Some(uuid),
                    name: Some(name),
                }),
                ..Default::default()
            })?;
            self.loss_track = true;
        }
        self.packet(proto::TracePacket {
            timestamp: Some(gpu_ns),
            timestamp_clock_id: Some(GPU_CLOCK_ID),
            track_event: Some(proto::TrackEvent {
                r#type: Some(proto::TYPE_INSTANT),
                track_uuid: Some(uuid),
                name: Some(kind.to_string()),
                debug_annotations: vec![proto::DebugAnnotation {
                    name: Some("count".to_string()),
                    uint_value: Some(count),
                }],
            }),
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

#[cfg(test)]
mod tests {
    use super::*;
    use perfetto_protos::gpu_counter_descriptor::gpu_counter_descriptor::MeasureUnit;
    use perfetto_protos::trace::Trace;
    use perfetto_protos::trace_packet::TracePacket;
    use protobuf::Message as _;

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

    fn parsed(bytes: &[u8]) -> Vec<TracePacket> {
        Trace::parse_from_bytes(bytes)
            .expect("Perfetto's protos read it")
            .packet
    }

    #[test]
    fn one_sequence_cleared_first() {
        let p = parsed(&written());
        assert!(p.len() > 30);
        assert!(p
            .iter()
            .all(|p| p.trusted_packet_sequence_id() == SEQUENCE_ID));
        assert_ne!(SEQUENCE_ID, 0);
        assert_eq!(p[0].sequence_flags(), 1, "SEQ_INCREMENTAL_STATE_CLEARED");
        assert!(p[1..].iter().all(|p| p.sequence_flags() == 0));
    }

    #[test]
    fn snapshots_pair_the_gpu_clock_with_the_cpu_clock_before_use() {
        let p = parsed(&written());
        let first_use = p
            .iter()
            .position(|p| p.timestamp_clock_id() == GPU_CLOCK_ID)
            .expect("GPU-clock packets");
        let snaps: Vec<_> = p
            .iter()
            .enumerate()
            .filter(|(_, p)| p.has_clock_snapshot())
            .collect();
        assert!(snaps[0].0 < first_use);
        for (_, s) in &snaps {
            let s = s.clock_snapshot();
            assert_eq!(s.primary_trace_clock() as i32, 3, "MONOTONIC");
            let get = |id| {
                s.clocks
                    .iter()
                    .find(|c| c.clock_id() == id)
                    .map(|c| c.timestamp())
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
        let events: Vec<_> = p.iter().filter(|p| p.has_gpu_counter_event()).collect();
        assert_eq!(events.len(), 30);
        let d = events[0].gpu_counter_event().counter_descriptor.clone();
        let d = d
            .into_option()
            .expect("the first event holds the descriptor");
        assert!(events[1..]
            .iter()
            .all(|e| e.gpu_counter_event().counter_descriptor.is_none()));
        assert_eq!(d.blocks.len(), 1);
        assert_eq!(d.blocks[0].name(), "perfregs.RenderBasic");
        assert_eq!(d.blocks[0].counter_ids, vec![7, 9, 3]);
        let unit = |name: &str| {
            let s = d.specs.iter().find(|s| s.name() == name).expect("a spec");
            let n: Vec<_> = s.numerator_units.iter().map(|u| u.enum_value()).collect();
            let dn: Vec<_> = s.denominator_units.iter().map(|u| u.enum_value()).collect();
            (n, dn)
        };
        assert_eq!(unit("GpuBusy"), (vec![Ok(MeasureUnit::PERCENT)], vec![]));
        assert_eq!(unit("GpuTime"), (vec![Ok(MeasureUnit::NANOSECOND)], vec![]));
        assert_eq!(
            unit("SlmBytesRead"),
            (vec![Ok(MeasureUnit::BYTE)], vec![Ok(MeasureUnit::SECOND)])
        );
        let ids: Vec<u32> = d.specs.iter().map(|s| s.counter_id()).collect();
        let mut last = 0;
        for (k, e) in events.iter().enumerate() {
            assert!(e.timestamp() > last, "timestamps rise");
            last = e.timestamp();
            let g = e.gpu_counter_event();
            assert_eq!(g.gpu_id(), 0);
            assert!(g.counters.iter().all(|c| ids.contains(&c.counter_id())));
            // The NaN is left out; the float and the integer are there.
            assert_eq!(g.counters.len(), 2);
            assert_eq!(g.counters[0].double_value(), (k + 1) as f64);
            assert_eq!(g.counters[1].int_value(), 100_000_000);
        }
    }

    #[test]
    fn losses_are_instants_on_a_named_track() {
        let p = parsed(&written());
        let track = p
            .iter()
            .position(|p| p.has_track_descriptor())
            .expect("the loss track");
        let uuid = p[track].track_descriptor().uuid();
        assert!(p[track].track_descriptor().name().contains("OA stream"));
        let loss = p.iter().position(|p| p.has_track_event()).expect("a loss");
        assert!(track < loss);
        let e = p[loss].track_event();
        assert_eq!(e.track_uuid(), uuid);
        assert_eq!(e.type_() as i32, 3, "TYPE_INSTANT");
        assert_eq!(e.name(), "report lost");
        assert_eq!(p[loss].timestamp(), 6_000_000_000);
        assert_eq!(e.debug_annotations[0].uint_value(), 1);
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
        assert!(p[1].gpu_counter_event().counter_descriptor.is_some());
    }
}
