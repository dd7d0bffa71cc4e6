//! A live Perfetto data source of GPU counters, `gpu.counters.perfregs`
//! (feature `data-source`): what Mesa's pps producer is for
//! `gpu.counters.i915`, through Perfetto's Rust SDK (`perfetto-sdk`).
//!
//! [`Source::register`] connects to a tracing service (the system's
//! `traced`, or one inside this process for tests) and registers the data
//! source. A trace session whose config names [`NAME`] enables it; while
//! one does ([`Source::is_enabled`]), [`Source::config`] says what the
//! sessions asked for in their `gpu_counter_config` (the period to sample
//! at, the counters), and [`Source::correlation`], [`Source::sample`] and
//! [`Source::loss`] write to every enabled session. The inputs are the file
//! writer's ([`Group`], [`CounterSpec`], [`Value`], [`ClockPair`],
//! [`CpuClock`]), and so are the messages (the same descriptor, counters
//! and loss instants).
//!
//! Each writer sequence (one per session and writing thread) begins, and
//! begins again whenever the service clears its incremental state, with a
//! packet flagged `SEQ_INCREMENTAL_STATE_CLEARED` holding a `ClockSnapshot`
//! that pairs the GPU clock (the sequence-scoped clock [`GPU_CLOCK_ID`],
//! GPU time in ns) with `CLOCK_BOOTTIME` (and with the correlations' own
//! clock when it is another one), then a `GpuCounterEvent` holding the
//! inline `GpuCounterDescriptor` of the session's counters. Then one
//! `GpuCounterEvent` per sample, stamped on the GPU clock with `gpu_id`,
//! holding only the counters the session chose; a new snapshot at most once
//! per [`SNAPSHOT_PERIOD_NS`] of GPU time; losses as instants on the track
//! "`GPU<id>` OA stream", as [`crate::TraceWriter::loss`] writes them.
//! Packets after the first of a sequence are flagged
//! `SEQ_NEEDS_INCREMENTAL_STATE`: they need its clock snapshot.
//!
//! Not done: the registered `DataSourceDescriptor` does not carry the
//! `GpuCounterDescriptor` (perfetto-sdk 1.2.1's `DataSource::register`
//! writes the descriptor itself, with the name and two flags only), so a
//! tool that lists a producer's counters before tracing finds none here;
//! traces hold the inline descriptor, which is what trace processor reads.

use crate::{
    check_values, counters, descriptor, loss_event, loss_track, proto, spec_ids, ClockPair,
    CounterSpec, CpuClock, Error, Group, Value, GPU_CLOCK_ID, SNAPSHOT_PERIOD_NS,
};
use perfetto_sdk::data_source::{Clear, DataSource, DataSourceArgsBuilder, TraceContext};
use perfetto_sdk::heap_buffer::HeapBuffer;
use perfetto_sdk::pb_msg::{PbMsg, PbMsgWriter};
use perfetto_sdk::producer::{Backends, Producer, ProducerInitArgsBuilder};
use perfetto_sdk::protos::config::data_source_config::DataSourceConfig;
use perfetto_sdk::protos::config::trace_config::{
    TraceConfig, TraceConfigBufferConfig, TraceConfigDataSource, TraceConfigIncrementalStateConfig,
};
use perfetto_sdk::protos::trace::clock_snapshot::{ClockSnapshot, ClockSnapshotClock};
use perfetto_sdk::protos::trace::trace_packet::TracePacket;
use perfetto_sdk::protos::trace::track_event::debug_annotation::DebugAnnotation;
use perfetto_sdk::protos::trace::track_event::track_descriptor::TrackDescriptor;
use perfetto_sdk::protos::trace::track_event::track_event::{TrackEvent, TrackEventType};
use perfetto_sdk::tracing_session::TracingSession;
use perfetto_sdk_protos_gpu::protos::common::gpu_counter_descriptor::{
    GpuCounterDescriptor, GpuCounterDescriptorGpuCounterBlock, GpuCounterDescriptorGpuCounterSpec,
    GpuCounterDescriptorMeasureUnit,
};
use perfetto_sdk_protos_gpu::protos::config::data_source_config::prelude::*;
use perfetto_sdk_protos_gpu::protos::config::gpu::gpu_counter_config::GpuCounterConfig;
use perfetto_sdk_protos_gpu::protos::trace::gpu::gpu_counter_event::{
    GpuCounterEvent, GpuCounterEventGpuCounter,
};
use perfetto_sdk_protos_gpu::protos::trace::trace_packet::prelude::*;
use prost::Message as _;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The data source's name: what a trace config's `data_sources.config.name`
/// says to enable it (not `gpu.counters.i915`, which Mesa's pps producer
/// registers).
pub const NAME: &str = "gpu.counters.perfregs";

/// `CLOCK_BOOTTIME`'s id (Perfetto's `BuiltinClock`): the trace clock
/// every snapshot pairs the GPU clock with.
pub const BOOTTIME_CLOCK_ID: u32 = 6;

/// `TracePacket.SequenceFlags.SEQ_NEEDS_INCREMENTAL_STATE`.
const SEQ_NEEDS_INCREMENTAL_STATE: u32 = 2;

/// Which tracing service the data source is offered to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The system's (`traced`, `tracebox --system-sockets`), through its
    /// producer socket: `$PERFETTO_PRODUCER_SOCK_NAME`, else
    /// `/run/perfetto/traced-producer.sock` when `/run/perfetto/` is usable,
    /// else `/tmp/perfetto-producer`. The SDK connects in the background
    /// and again after the service restarts; until it does, nothing is
    /// enabled.
    System,
    /// A tracing service inside this process, whose sessions
    /// (`perfetto_sdk::tracing_session::TracingSession::in_process`) the
    /// process starts itself: for tests.
    InProcess,
}

/// Where the system's tracing service's producer socket is, as the SDK
/// looks for it (Perfetto's `default_socket.cc`): `$PERFETTO_PRODUCER_SOCK_NAME`
/// when set (an `@name` abstract socket is taken as there), else
/// `/run/perfetto/traced-producer.sock`, else `/tmp/perfetto-producer`.
/// `Err` lists every place looked at: no service runs (yet).
pub fn producer_socket() -> Result<String, String> {
    service_socket(
        "PERFETTO_PRODUCER_SOCK_NAME",
        "traced-producer.sock",
        "perfetto-producer",
    )
}

/// The same for the consumer socket (`$PERFETTO_CONSUMER_SOCK_NAME`,
/// `/run/perfetto/traced-consumer.sock`, `/tmp/perfetto-consumer`), which a
/// system [`Session`] uses.
pub fn consumer_socket() -> Result<String, String> {
    service_socket(
        "PERFETTO_CONSUMER_SOCK_NAME",
        "traced-consumer.sock",
        "perfetto-consumer",
    )
}

/// `$<var>` when set, else `/run/perfetto/<run>`, else `/tmp/<tmp>`: the
/// one that exists, or every place looked at.
fn service_socket(var: &str, run: &str, tmp: &str) -> Result<String, String> {
    use std::path::Path;
    if let Ok(v) = std::env::var(var) {
        // `@name`: an abstract socket, which no file shows.
        return if v.starts_with('@') || Path::new(&v).exists() {
            Ok(v)
        } else {
            Err(format!("${var}={v}"))
        };
    }
    let places = [format!("/run/perfetto/{run}"), format!("/tmp/{tmp}")];
    places
        .iter()
        .find(|p| Path::new(p).exists())
        .cloned()
        .ok_or_else(|| format!("${var} (unset), {}", places.join(", ")))
}

/// What the enabled sessions asked for (their `gpu_counter_config`),
/// merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The period to sample at, in ns: the shortest `counter_period_ns` of
    /// the sessions; `None` when none gave one (sample at your default).
    pub period_ns: Option<u64>,
    /// The counters to compute, in the specs' order: those any session
    /// chose (`counter_ids`, `counter_names`), all of them when a session
    /// chose none. A session is written only the counters it chose.
    pub counter_ids: Vec<u32>,
    /// What the configs asked for that the data source cannot give: ids
    /// and names no spec has, a config that does not decode. Worth saying
    /// to the user: those counters are missing from the trace.
    pub unknown: Vec<String>,
}

/// What one session (data source instance) asked for.
#[derive(Clone, Debug, Default)]
struct Wanted {
    period_ns: Option<u64>,
    /// `None`: every counter.
    ids: Option<Vec<u32>>,
    unknown: Vec<String>,
}

impl Wanted {
    /// The `DataSourceConfig` bytes of a session, against `specs`.
    fn of(config: &[u8], specs: &[(u32, String)]) -> Wanted {
        let c = match proto::DataSourceConfig::decode(config) {
            Ok(c) => c.gpu_counter_config.unwrap_or_default(),
            Err(e) => {
                return Wanted {
                    unknown: vec![format!(
                        "a data source config that does not decode ({e}): every counter written"
                    )],
                    ..Wanted::default()
                }
            }
        };
        let mut unknown = Vec::new();
        let mut ids: Vec<u32> = Vec::new();
        for id in &c.counter_ids {
            if specs.iter().any(|(s, _)| s == id) {
                ids.push(*id);
            } else {
                unknown.push(format!("counter id {id}"));
            }
        }
        for name in &c.counter_names {
            match specs.iter().find(|(_, n)| n == name) {
                Some((id, _)) => ids.push(*id),
                None => unknown.push(format!("counter name {name:?}")),
            }
        }
        let chose = !c.counter_ids.is_empty() || !c.counter_names.is_empty();
        Wanted {
            period_ns: c.counter_period_ns.filter(|&p| p > 0),
            ids: chose.then(|| {
                // In the specs' order, once each.
                specs
                    .iter()
                    .map(|(id, _)| *id)
                    .filter(|id| ids.contains(id))
                    .collect()
            }),
            unknown,
        }
    }

    fn keeps(&self, id: u32) -> bool {
        self.ids.as_ref().is_none_or(|ids| ids.contains(&id))
    }
}

/// A writer sequence's state (the SDK's incremental state: new per
/// session and thread, and again after the service clears it).
#[derive(Debug)]
struct Sequence {
    /// Nothing written since it began (or was cleared): the next write
    /// starts with the snapshot and the descriptor.
    fresh: bool,
    /// GPU time of the last snapshot written.
    last_snapshot: Option<u64>,
    /// The loss track's descriptor is written.
    loss_track: bool,
}

impl Default for Sequence {
    fn default() -> Self {
        Sequence {
            fresh: true,
            last_snapshot: None,
            loss_track: false,
        }
    }
}

impl Clear for Sequence {}

/// A correlation as a snapshot writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Snapshot {
    gpu_ns: u64,
    boottime_ns: u64,
    /// The correlations' own clock (id, ns) when it is not BOOTTIME.
    other: Option<(u32, u64)>,
}

/// The sessions' wishes by instance index, shared with the SDK's callbacks.
type Instances = Arc<Mutex<HashMap<u32, Wanted>>>;

/// Set once the data source is registered in this process.
static REGISTERED: AtomicBool = AtomicBool::new(false);

/// The data source of one GPU's counters, registered with a tracing
/// service; writes to the sessions that enable it. One per process
/// (Perfetto cannot unregister a data source): dropping it leaves the data
/// source registered, and enabled sessions get nothing more.
pub struct Source {
    ds: &'static DataSource<'static, Sequence>,
    instances: Instances,
    gpu_id: i32,
    gpu_name: String,
    cpu_clock: CpuClock,
    groups: Vec<Group>,
    specs: Vec<CounterSpec>,
    ids: Vec<u32>,
    latest: Option<Snapshot>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("gpu_id", &self.gpu_id)
            .field("gpu_name", &self.gpu_name)
            .field("cpu_clock", &self.cpu_clock)
            .field("counters", &self.ids)
            .field("enabled", &self.is_enabled())
            .finish_non_exhaustive()
    }
}

/// A lock that a panic elsewhere did not poison for good: the SDK's
/// callbacks must not panic (it aborts the process).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Source {
    /// Register [`NAME`] with `backend` for GPU `gpu` (id, as `gpu_id`;
    /// name, in the loss track's name), whose correlations are on
    /// `cpu_clock`, with `specs` grouped in `groups` (as
    /// [`crate::TraceWriter::new`] takes them).
    ///
    /// Errors: the ids are not unique or a group names an unknown one; the
    /// data source is registered already in this process
    /// ([`Error::AlreadyRegistered`]); Perfetto refused.
    pub fn register(
        backend: Backend,
        gpu: (i32, &str),
        cpu_clock: CpuClock,
        groups: &[Group],
        specs: &[CounterSpec],
    ) -> Result<Source, Error> {
        let ids = spec_ids(groups, specs)?;
        if REGISTERED.swap(true, Ordering::SeqCst) {
            return Err(Error::AlreadyRegistered);
        }
        let backends = match backend {
            Backend::System => Backends::SYSTEM,
            Backend::InProcess => Backends::IN_PROCESS,
        };
        Producer::init(ProducerInitArgsBuilder::new().backends(backends).build());
        let instances: Instances = Arc::default();
        let names: Arc<[(u32, String)]> = specs.iter().map(|s| (s.id, s.name.clone())).collect();
        let (on_setup, on_stop) = (Arc::clone(&instances), Arc::clone(&instances));
        let args = DataSourceArgsBuilder::new()
            .handles_incremental_state_clear(true)
            // Default: drop when the shared buffer is full (the service
            // marks the loss in the trace); a trace config may choose to
            // stall instead.
            .buffer_exhausted_policy_configurable(true)
            .on_setup(move |inst, config, _| {
                lock(&on_setup).insert(inst, Wanted::of(config, &names));
            })
            .on_stop(move |inst, _| {
                lock(&on_stop).remove(&inst);
            })
            .build();
        // The SDK keeps pointers into the data source: it must stay put for
        // the life of the process.
        let mut ds = Box::new(DataSource::<Sequence>::new_with_incremental_state_type());
        if let Err(e) = ds.register(NAME, args) {
            REGISTERED.store(false, Ordering::SeqCst);
            return Err(Error::Register(e.to_string()));
        }
        let ds: &'static DataSource<'static, Sequence> = Box::leak(ds);
        Ok(Source {
            ds,
            instances,
            gpu_id: gpu.0,
            gpu_name: gpu.1.to_string(),
            cpu_clock,
            groups: groups.to_vec(),
            specs: specs.to_vec(),
            ids,
            latest: None,
        })
    }

    /// Whether a session has the data source enabled now (then samples are
    /// written; else [`Source::sample`] only checks its input).
    pub fn is_enabled(&self) -> bool {
        self.ds.is_enabled()
    }

    /// What the sessions set up now asked for, merged; `None` when there
    /// is none.
    pub fn config(&self) -> Option<Config> {
        let instances = lock(&self.instances);
        if instances.is_empty() {
            return None;
        }
        let period_ns = instances.values().filter_map(|w| w.period_ns).min();
        let counter_ids = self
            .ids
            .iter()
            .copied()
            .filter(|&id| instances.values().any(|w| w.keeps(id)))
            .collect();
        let mut unknown: Vec<String> = Vec::new();
        for u in instances.values().flat_map(|w| &w.unknown) {
            if !unknown.contains(u) {
                unknown.push(u.clone());
            }
        }
        Some(Config {
            period_ns,
            counter_ids,
            unknown,
        })
    }

    /// A correlation: the same instant on the GPU clock and on the
    /// `cpu_clock` given to [`Source::register`]. Written to each session
    /// as a snapshot when at least [`SNAPSHOT_PERIOD_NS`] of GPU time
    /// after the last one it got (a sequence's first write carries the
    /// latest correlation in any case). Give correlations in GPU time
    /// order; the first before the first sample.
    pub fn correlation(&mut self, pair: ClockPair) -> Result<(), Error> {
        let snap = snapshot_of(self.cpu_clock, pair, || boottime_offset(self.cpu_clock))?;
        self.latest = Some(snap);
        let this = &*self;
        this.each(|ctx, seq, _| {
            if !seq.fresh {
                this.snapshot_if_due(ctx, seq, snap);
            }
        });
        Ok(())
    }

    /// A sample at `gpu_ns` (the end of the interval it covers): the
    /// values of counters by id; each session is written the counters it
    /// chose, a non-finite float none. Errors: an id no spec has
    /// ([`Error::UnknownId`]); no correlation yet ([`Error::NoCorrelation`]).
    pub fn sample(&mut self, gpu_ns: u64, values: &[(u32, Value)]) -> Result<(), Error> {
        check_values(&self.ids, values)?;
        let latest = self.latest.ok_or(Error::NoCorrelation)?;
        self.each(|ctx, seq, wanted| {
            self.begin(ctx, seq, wanted, latest, gpu_ns);
            let event = proto::GpuCounterEvent {
                counter_descriptor: None,
                counters: counters(values, |id| wanted.keeps(id)),
                gpu_id: Some(self.gpu_id),
            };
            ctx.add_packet(|p: &mut TracePacket| {
                on_gpu_clock(p, gpu_ns);
                p.set_gpu_counter_event(|e: &mut GpuCounterEvent| put_event(e, &event));
            });
        });
        Ok(())
    }

    /// A loss at `gpu_ns` (`kind`: "OA_REPORT_LOST", "OA_BUFFER_LOST", ...;
    /// `count` of them): an instant on the track "`GPU<id>` OA stream", as
    /// the file writer writes it. Error: no correlation yet.
    pub fn loss(&mut self, gpu_ns: u64, kind: &str, count: u64) -> Result<(), Error> {
        let latest = self.latest.ok_or(Error::NoCorrelation)?;
        let track = loss_track(self.gpu_id, &self.gpu_name);
        let event = loss_event(self.gpu_id, kind, count);
        self.each(|ctx, seq, wanted| {
            self.begin(ctx, seq, wanted, latest, gpu_ns);
            if !seq.loss_track {
                ctx.add_packet(|p: &mut TracePacket| {
                    on_gpu_clock(p, gpu_ns);
                    p.set_track_descriptor(|t: &mut TrackDescriptor| put_track(t, &track));
                });
                seq.loss_track = true;
            }
            ctx.add_packet(|p: &mut TracePacket| {
                on_gpu_clock(p, gpu_ns);
                p.set_track_event(|t: &mut TrackEvent| put_track_event(t, &event));
            });
        });
        Ok(())
    }

    /// Run `f` on each enabled session's sequence of this thread, with
    /// what the session asked for.
    fn each(&self, mut f: impl FnMut(&mut TraceContext<'_, Sequence>, &mut Sequence, &Wanted)) {
        self.ds.trace(|ctx: &mut TraceContext<'_, Sequence>| {
            let wanted = lock(&self.instances)
                .get(&ctx.instance_index())
                .cloned()
                .unwrap_or_default();
            ctx.with_incremental_state(|ctx, seq| f(ctx, seq, &wanted));
        });
    }

    /// Before a write at `gpu_ns`: on a fresh sequence the snapshot of
    /// `latest` (flagged as clearing the state) and the descriptor (at
    /// `gpu_ns` or before, so no value precedes it); else the snapshot of
    /// `latest` when due.
    fn begin(
        &self,
        ctx: &mut TraceContext<'_, Sequence>,
        seq: &mut Sequence,
        wanted: &Wanted,
        latest: Snapshot,
        gpu_ns: u64,
    ) {
        if !seq.fresh {
            self.snapshot_if_due(ctx, seq, latest);
            return;
        }
        *seq = Sequence {
            fresh: false,
            ..Sequence::default()
        };
        write_snapshot(ctx, latest, true);
        seq.last_snapshot = Some(latest.gpu_ns);
        let event = proto::GpuCounterEvent {
            counter_descriptor: Some(descriptor(&self.groups, &self.specs, |id| wanted.keeps(id))),
            counters: Vec::new(),
            gpu_id: Some(self.gpu_id),
        };
        ctx.add_packet(|p: &mut TracePacket| {
            on_gpu_clock(p, gpu_ns.min(latest.gpu_ns));
            p.set_gpu_counter_event(|e: &mut GpuCounterEvent| put_event(e, &event));
        });
    }

    fn snapshot_if_due(
        &self,
        ctx: &mut TraceContext<'_, Sequence>,
        seq: &mut Sequence,
        snap: Snapshot,
    ) {
        let due = seq
            .last_snapshot
            .is_none_or(|t| snap.gpu_ns >= t.saturating_add(SNAPSHOT_PERIOD_NS));
        if due {
            write_snapshot(ctx, snap, false);
            seq.last_snapshot = Some(snap.gpu_ns);
        }
    }
}

/// What an in-process [`Session`] asks of the data source: its
/// `gpu_counter_config`, and how often its service clears incremental
/// state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wish {
    /// `counter_period_ns`.
    pub period_ns: Option<u64>,
    /// `counter_ids`.
    pub counter_ids: Vec<u32>,
    /// `counter_names`.
    pub counter_names: Vec<String>,
    /// `incremental_state_config.clear_period_ms`.
    pub clear_period_ms: Option<u32>,
}

/// A tracing session that enables [`NAME`] (a 4 MB ring buffer), as a
/// consumer of the tracing service of a [`Backend`]: where a test, or a
/// check without the `perfetto` command, reads what the data source
/// writes. The data source must be registered with the same backend.
pub struct Session(TracingSession);

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Session")
    }
}

impl Session {
    /// Set up and start a session of `backend`'s service (the system's:
    /// through its consumer socket) asking `wish`; returns once the
    /// service has started it (a system producer may connect later).
    pub fn start(backend: Backend, wish: &Wish) -> Result<Session, Error> {
        let config = trace_config(wish)?;
        let t = match backend {
            Backend::InProcess => TracingSession::in_process(),
            Backend::System => TracingSession::system(),
        };
        let mut t = t.map_err(|e| Error::Session(e.to_string()))?;
        t.setup(&config);
        t.start_blocking();
        Ok(Session(t))
    }

    /// Stop the session and read its trace: a `Trace` of the service's
    /// packets (its config, clock snapshots, stats) and the data source's.
    pub fn stop(mut self) -> Vec<u8> {
        self.0.stop_blocking();
        let data = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&data);
        self.0.read_trace_blocking(move |bytes, _more| {
            lock(&sink).extend_from_slice(bytes);
        });
        let bytes = std::mem::take(&mut *lock(&data));
        bytes
    }
}

/// The `TraceConfig` of a [`Session`], written with the SDK's messages.
fn trace_config(wish: &Wish) -> Result<Vec<u8>, Error> {
    let writer = PbMsgWriter::new();
    let hb = HeapBuffer::new(writer.stream_writer());
    let mut msg = PbMsg::new(&writer)
        .map_err(|e| Error::Session(format!("writing its trace config: {e}")))?;
    {
        let mut cfg = TraceConfig { msg: &mut msg };
        cfg.set_buffers(|b: &mut TraceConfigBufferConfig| {
            b.set_size_kb(4096);
        });
        cfg.set_data_sources(|d: &mut TraceConfigDataSource| {
            d.set_config(|c: &mut DataSourceConfig| {
                c.set_name(NAME);
                c.set_gpu_counter_config(|g: &mut GpuCounterConfig| {
                    if let Some(p) = wish.period_ns {
                        g.set_counter_period_ns(p);
                    }
                    for &id in &wish.counter_ids {
                        g.set_counter_ids(id);
                    }
                    for n in &wish.counter_names {
                        g.set_counter_names(n.as_str());
                    }
                });
            });
        });
        if let Some(ms) = wish.clear_period_ms {
            cfg.set_incremental_state_config(|i: &mut TraceConfigIncrementalStateConfig| {
                i.set_clear_period_ms(ms);
            });
        }
    }
    msg.finalize();
    let mut bytes = vec![0u8; writer.stream_writer().get_written_size()];
    hb.copy_into(&mut bytes);
    Ok(bytes)
}

/// The snapshot of `pair` on `clock`: BOOTTIME as given, or the pair's CPU
/// time moved by `offset()` (BOOTTIME minus `clock`, read now).
fn snapshot_of(
    clock: CpuClock,
    pair: ClockPair,
    offset: impl FnOnce() -> Result<i128, Error>,
) -> Result<Snapshot, Error> {
    if clock == CpuClock::Boottime {
        return Ok(Snapshot {
            gpu_ns: pair.gpu_ns,
            boottime_ns: pair.cpu_ns,
            other: None,
        });
    }
    let boot = i128::from(pair.cpu_ns) + offset()?;
    let boottime_ns = u64::try_from(boot).map_err(|_| {
        Error::Clock(format!(
            "the correlation's CPU time {} ns on {clock:?} is {boot} ns on CLOCK_BOOTTIME, out of its range",
            pair.cpu_ns
        ))
    })?;
    Ok(Snapshot {
        gpu_ns: pair.gpu_ns,
        boottime_ns,
        other: Some((clock as u32, pair.cpu_ns)),
    })
}

/// `CLOCK_BOOTTIME` minus `clock`: BOOTTIME is Linux's (and Android's).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn boottime_offset(clock: CpuClock) -> Result<i128, Error> {
    match clock {
        CpuClock::Boottime => Ok(0),
        _ => Err(Error::Clock(format!(
            "{clock:?} cannot be related to CLOCK_BOOTTIME here (Linux only): give correlations on CpuClock::Boottime"
        ))),
    }
}

/// `CLOCK_BOOTTIME` minus `clock`, now (clock read before and after
/// BOOTTIME, their middle taken).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn boottime_offset(clock: CpuClock) -> Result<i128, Error> {
    use rustix::time::ClockId;
    let id = match clock {
        CpuClock::Realtime => ClockId::Realtime,
        CpuClock::Monotonic => ClockId::Monotonic,
        CpuClock::MonotonicRaw => ClockId::MonotonicRaw,
        CpuClock::Boottime => return Ok(0),
    };
    let a = read_clock(id);
    let boot = read_clock(ClockId::Boottime);
    let b = read_clock(id);
    Ok(boot - (a + b) / 2)
}

/// A clock's time in ns.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn read_clock(id: rustix::time::ClockId) -> i128 {
    // These clocks always exist on Linux: rustix's call cannot fail for them.
    let ts = rustix::time::clock_gettime(id);
    i128::from(ts.tv_sec) * 1_000_000_000 + i128::from(ts.tv_nsec)
}

/// A packet stamped at `gpu_ns` on the GPU clock, needing the sequence's
/// state (its snapshot).
fn on_gpu_clock(p: &mut TracePacket, gpu_ns: u64) {
    p.set_timestamp(gpu_ns);
    p.set_timestamp_clock_id(GPU_CLOCK_ID);
    p.set_sequence_flags(SEQ_NEEDS_INCREMENTAL_STATE);
}

/// The clocks of a snapshot: BOOTTIME, the correlations' own clock, the
/// GPU clock.
fn clocks(s: Snapshot) -> Vec<(u32, u64)> {
    let mut v = vec![(BOOTTIME_CLOCK_ID, s.boottime_ns)];
    v.extend(s.other);
    v.push((GPU_CLOCK_ID, s.gpu_ns));
    v
}

/// A snapshot packet, stamped on BOOTTIME; `first`: flagged as clearing the
/// sequence's state.
fn write_snapshot(ctx: &mut TraceContext<'_, Sequence>, s: Snapshot, first: bool) {
    let clocks = clocks(s);
    ctx.add_packet(|p: &mut TracePacket| {
        p.set_timestamp(s.boottime_ns);
        p.set_timestamp_clock_id(BOOTTIME_CLOCK_ID);
        p.set_sequence_flags(if first {
            proto::SEQ_INCREMENTAL_STATE_CLEARED
        } else {
            SEQ_NEEDS_INCREMENTAL_STATE
        });
        p.set_clock_snapshot(|c: &mut ClockSnapshot| {
            for &(id, ns) in &clocks {
                c.set_clocks(|k: &mut ClockSnapshotClock| {
                    k.set_clock_id(id);
                    k.set_timestamp(ns);
                });
            }
        });
    });
}

// The shared messages (`crate::descriptor`, `crate::counters`, the loss
// track's), written through the SDK's message writers field by field.

fn put_event(e: &mut GpuCounterEvent, m: &proto::GpuCounterEvent) {
    if let Some(d) = &m.counter_descriptor {
        e.set_counter_descriptor(|g: &mut GpuCounterDescriptor| put_descriptor(g, d));
    }
    for c in &m.counters {
        e.set_counters(|g: &mut GpuCounterEventGpuCounter| {
            if let Some(id) = c.counter_id {
                g.set_counter_id(id);
            }
            if let Some(v) = c.int_value {
                g.set_int_value(v);
            }
            if let Some(v) = c.double_value {
                g.set_double_value(v);
            }
        });
    }
    if let Some(id) = m.gpu_id {
        e.set_gpu_id(id);
    }
}

fn put_descriptor(g: &mut GpuCounterDescriptor, d: &proto::GpuCounterDescriptor) {
    for s in &d.specs {
        g.set_specs(|w: &mut GpuCounterDescriptorGpuCounterSpec| {
            if let Some(id) = s.counter_id {
                w.set_counter_id(id);
            }
            if let Some(n) = &s.name {
                w.set_name(n.as_str());
            }
            if let Some(n) = &s.description {
                w.set_description(n.as_str());
            }
            for u in s.numerator_units.iter().filter_map(|&u| measure_unit(u)) {
                w.set_numerator_units(u);
            }
            for u in s.denominator_units.iter().filter_map(|&u| measure_unit(u)) {
                w.set_denominator_units(u);
            }
        });
    }
    for b in &d.blocks {
        g.set_blocks(|w: &mut GpuCounterDescriptorGpuCounterBlock| {
            if let Some(id) = b.block_id {
                w.set_block_id(id);
            }
            if let Some(n) = &b.name {
                w.set_name(n.as_str());
            }
            for &id in &b.counter_ids {
                w.set_counter_ids(id);
            }
        });
    }
}

/// The SDK's `MeasureUnit` of a number [`crate::Unit`] maps to (every one
/// of them is in it: the unit tests check).
fn measure_unit(n: i32) -> Option<GpuCounterDescriptorMeasureUnit> {
    u32::try_from(n)
        .ok()
        .and_then(|n| GpuCounterDescriptorMeasureUnit::try_from(n).ok())
}

fn put_track(t: &mut TrackDescriptor, m: &proto::TrackDescriptor) {
    if let Some(u) = m.uuid {
        t.set_uuid(u);
    }
    if let Some(n) = &m.name {
        t.set_name(n.as_str());
    }
}

fn put_track_event(t: &mut TrackEvent, m: &proto::TrackEvent) {
    if m.r#type == Some(proto::TYPE_INSTANT) {
        t.set_type(TrackEventType::TypeInstant);
    }
    if let Some(u) = m.track_uuid {
        t.set_track_uuid(u);
    }
    if let Some(n) = &m.name {
        t.set_name(n.as_str());
    }
    for a in &m.debug_annotations {
        t.set_debug_annotations(|d: &mut DebugAnnotation| {
            if let Some(n) = &a.name {
                d.set_name(n.as_str());
            }
            if let Some(v) = a.uint_value {
                d.set_uint_value(v);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Unit;

    fn specs() -> Vec<(u32, String)> {
        vec![
            (7, "GpuBusy".into()),
            (9, "GpuTime".into()),
            (3, "Slm".into()),
        ]
    }

    fn config(period: Option<u64>, ids: &[u32], names: &[&str]) -> Vec<u8> {
        proto::DataSourceConfig {
            name: Some(NAME.into()),
            gpu_counter_config: Some(proto::GpuCounterConfig {
                counter_period_ns: period,
                counter_ids: ids.to_vec(),
                counter_names: names.iter().map(|n| n.to_string()).collect(),
            }),
        }
        .encode_to_vec()
    }

    #[test]
    fn configs_choose_counters_by_id_and_name_in_spec_order() {
        let w = Wanted::of(
            &config(Some(1000), &[3, 42], &["GpuBusy", "Nope"]),
            &specs(),
        );
        assert_eq!(w.period_ns, Some(1000));
        assert_eq!(w.ids, Some(vec![7, 3]));
        assert_eq!(w.unknown, ["counter id 42", "counter name \"Nope\""]);
        assert!(w.keeps(7) && w.keeps(3) && !w.keeps(9));
        // None chosen: every counter; period 0 is none.
        let w = Wanted::of(&config(Some(0), &[], &[]), &specs());
        assert_eq!((w.period_ns, w.ids), (None, None));
        // No gpu_counter_config at all.
        let w = Wanted::of(&[], &specs());
        assert!(w.keeps(9) && w.unknown.is_empty());
        // Bytes that are no config: every counter, and said.
        let w = Wanted::of(&[0x0a, 0x05, b'x'], &specs());
        assert!(w.ids.is_none() && w.unknown[0].contains("does not decode"));
    }

    #[test]
    fn snapshots_pair_boottime_with_the_gpu_and_the_given_clock() {
        let pair = ClockPair {
            gpu_ns: 5,
            cpu_ns: 1_000,
        };
        let s = snapshot_of(CpuClock::Boottime, pair, || panic!("not read")).expect("ok");
        assert_eq!(clocks(s), [(6, 1_000), (64, 5)]);
        let s = snapshot_of(CpuClock::Monotonic, pair, || Ok(250)).expect("ok");
        assert_eq!(clocks(s), [(6, 1_250), (3, 1_000), (64, 5)]);
        let e = snapshot_of(CpuClock::Realtime, pair, || Ok(-2_000)).expect_err("before boot");
        assert!(matches!(e, Error::Clock(_)), "{e}");
        // The offset read here: BOOTTIME is never behind MONOTONIC (but
        // for the reads' own jitter).
        let offset = boottime_offset(CpuClock::Monotonic).expect("clocks");
        assert!(offset > -1_000_000, "{offset}");
    }

    #[test]
    fn every_unit_has_its_measure_unit() {
        for u in [
            Unit::None,
            Unit::Percent,
            Unit::Bytes,
            Unit::BytesPerSecond,
            Unit::Hertz,
            Unit::Nanoseconds,
            Unit::Pixels,
            Unit::Vertices,
            Unit::Primitives,
            Unit::Instructions,
        ] {
            let (num, den) = u.measure();
            for n in num.into_iter().chain(den) {
                let m = measure_unit(n).unwrap_or_else(|| panic!("{u:?}: {n}"));
                assert_eq!(u32::from(m), n as u32);
            }
        }
    }
}
