//! `perfregs produce`: an OA stream's counters offered to system traces as
//! the Perfetto data source `gpu.counters.perfregs`
//! ([`perfregs_perfetto::source`], cargo feature `perfetto-data-source`),
//! as Mesa's pps producer offers `gpu.counters.i915`.
//!
//! The data source is registered with the system's tracing service
//! (`traced`, `tracebox --system-sockets`) with every counter of the set
//! the part has; while a trace session enables it, the stream is open at
//! the period the session asks (`gpu_counter_config.counter_period_ns`)
//! and each report pair becomes a sample of the counters the sessions
//! chose, stamped at its later report on the GPU clock. The stream is
//! opened as `top` and `record` open it ([`super::record::open_emulated`],
//! [`super::record::device::open`]); it is closed when no session is left.
//!
//! Correlations: a card's pair the last report read with `CLOCK_MONOTONIC`
//! when it was read (as `record --device` does); the emulated GPU's pair
//! emulated time with the start's `CLOCK_MONOTONIC` plus emulated
//! nanoseconds (as `record --emulate` does), its time following wall time
//! (as `top --emulate`'s does).
//!
//! Without the feature the command is there and says how to build it.

#![cfg_attr(
    any(not(target_os = "linux"), not(feature = "perfetto-data-source")),
    allow(dead_code, unused_imports)
)]

use super::report::duration_ns;
use super::Fail;
use std::num::NonZeroU64;
use std::process::ExitCode;

/// What a build without the data source says.
#[cfg(not(feature = "perfetto-data-source"))]
pub const NOT_BUILT: &str = "this perfregs is built without the Perfetto data source: build it with the feature, `cargo install perfregs-cli --features perfetto-data-source` (in the repository: `cargo run -p perfregs-cli --features perfetto-data-source -- produce ...`; it compiles Perfetto's C++ SDK, so a C++ compiler is needed)";

/// Sampling period when the sessions ask for none and `--period` is not
/// given.
const DEFAULT_PERIOD_NS: u64 = 1_000_000;

/// The shortest period sampled at (Mesa's pps: 50 us): a session asking
/// for less gets this, and is told.
const MIN_PERIOD_NS: u64 = 50_000;

/// `perfregs produce`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Offer an OA stream's counters to system traces: the Perfetto data source gpu.counters.perfregs",
    long_about = "Offer an OA stream's counters (the emulated GPU with --emulate, a real one with \
--device) to system traces: registers the Perfetto data source gpu.counters.perfregs with the \
system's tracing service (traced, or `tracebox --system-sockets`), with every counter of the \
metric set that the part has, and waits. While a trace session enables it (a trace config with \
`data_sources { config { name: \"gpu.counters.perfregs\" } }`), the stream is open and each report \
pair becomes a GPU counter sample in the trace, stamped on the GPU clock and correlated with \
CLOCK_BOOTTIME, as Mesa's pps producer writes gpu.counters.i915.\n\n\
The session chooses: gpu_counter_config's counter_period_ns is the period (the nearest timer \
exponent; at least 50us; default --period, else 1ms), its counter_ids (a counter's place in the \
set, as `perfregs metrics list` shows it from 0) or counter_names (symbol names) the counters \
(default: all). Counters it names that the set lacks are said on stderr.\n\n\
--device cardN opens the card's stream as `perfregs record --device` does (the card judged \
first; the set's configuration added or reused); --emulate PROJECT the emulated GPU's, whose \
time follows wall time. Ctrl-C (SIGINT, SIGTERM) or --duration ends it.\n\n\
Needs the cargo feature perfetto-data-source (Perfetto's C++ SDK is compiled in): `cargo \
install perfregs-cli --features perfetto-data-source`. Without it the command says so (exit \
code 1)."
)]
pub struct ProduceArgs {
    /// The stream: `--device` or `--emulate` with its flags, and `--metric-set`.
    #[command(flatten)]
    pub target: super::target::StreamTarget,
    /// The sampling period when the session asks for none (1ms, 100us, ...;
    /// default 1ms): the nearest timer exponent is used.
    #[arg(long, value_name = "TIME", value_parser = duration_ns)]
    pub period: Option<NonZeroU64>,
    /// End after this much wall time (default: until Ctrl-C).
    #[arg(long, value_name = "TIME", value_parser = duration_ns)]
    pub duration: Option<NonZeroU64>,
    /// Where a card is found (hidden, for tests on a fake tree).
    #[command(flatten)]
    pub roots: super::record::DeviceRoots,
    /// Instead of the system's tracing service, one in this process with a
    /// session enabling the data source for the whole run (every counter,
    /// --period), whose trace is written to FILE at the end (hidden: for
    /// tests, where no traced runs).
    #[arg(long, value_name = "FILE", hide = true)]
    pub in_process_trace: Option<std::path::PathBuf>,
}

impl ProduceArgs {
    /// Run the command.
    pub fn run(self) -> ExitCode {
        match self.go() {
            Ok(()) => ExitCode::SUCCESS,
            Err(f) => f.exit_from("produce"),
        }
    }

    #[cfg(not(feature = "perfetto-data-source"))]
    fn go(&self) -> Result<(), Fail> {
        Err(Fail::findings(NOT_BUILT))
    }

    #[cfg(all(feature = "perfetto-data-source", not(target_os = "linux")))]
    fn go(&self) -> Result<(), Fail> {
        Err(Fail::findings(
            "the emulated stream uses a pipe and the Linux read path: Linux only",
        ))
    }

    #[cfg(all(feature = "perfetto-data-source", target_os = "linux"))]
    fn go(&self) -> Result<(), Fail> {
        self.target.check(&self.roots)?;
        live::run(self)
    }
}

/// The command with the data source (Linux).
#[cfg(all(feature = "perfetto-data-source", target_os = "linux"))]
mod live {
    use super::*;
    use perfregs_linux::record::Record;
    use perfregs_linux::stream::{Item, OaStream, StreamReader};
    use perfregs_metrics::intervals::{Interval, Window};
    use perfregs_metrics::{CounterInfo, DeviceInfo, SetInfo};
    use perfregs_perfetto::source::{Backend, Config, Session, Source, Wish};
    use perfregs_perfetto::{ClockPair, CounterSpec, CpuClock, Group, Unit, Value};
    use std::num::NonZeroU32;
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    /// How often the sessions' wishes are looked at while streaming.
    const LOOK_EVERY: Duration = Duration::from_millis(100);

    /// A stream open for the sessions, and what its samples need.
    struct Open {
        reader: Reader,
        sink: Sink,
        /// The wishes it was opened for.
        config: Config,
        samples: u64,
        losses: u64,
    }

    /// The stream an [`Open`] reads.
    enum Reader {
        /// The emulated GPU's: its time follows wall time.
        Emulated {
            reader: Box<StreamReader<perfregs_linux::emulated::EmulatedStream>>,
            since: Instant,
            /// Emulated ticks advanced since `since`.
            ticks: u64,
            /// The emulator's time at the open.
            t0: u64,
            /// `CLOCK_MONOTONIC` at the open.
            cpu0: u64,
            period_ticks: u64,
        },
        /// A card's.
        Device(Box<StreamReader<Box<dyn OaStream>>>),
    }

    /// What opening a stream gave.
    struct Opened {
        reader: Reader,
        typed: super::super::report::TypedFormat,
        set: &'static SetInfo,
        part: String,
        device: DeviceInfo,
        freq: u64,
        period_line: String,
        /// The GPU's id in the trace: the card's number, 0 when emulated.
        gpu_id: i32,
    }

    fn open(a: &ProduceArgs, period: Option<NonZeroU64>) -> Result<Opened, Fail> {
        if let Some(card) = &a.target.device {
            let o =
                super::super::record::device::open(&super::super::record::device::DeviceOpen {
                    card,
                    metric_set: &a.target.metric_set,
                    exponent: None,
                    period,
                    context: None,
                    roots: &a.roots,
                })?;
            let mut stream = o.stream;
            stream
                .enable()
                .map_err(|e| Fail::findings(format!("{}: enabling the stream: {e}", o.name)))?;
            let gpu_id = o
                .name
                .trim_start_matches("card")
                .parse()
                .unwrap_or_default();
            return Ok(Opened {
                reader: Reader::Device(Box::new(StreamReader::new(stream))),
                typed: o.typed,
                set: o.set,
                part: o.part,
                device: o.info,
                freq: o.freq,
                period_line: o.period_line,
                gpu_id,
            });
        }
        let project = a.target.emulate.as_deref().unwrap_or_default();
        let o = super::super::record::open_emulated(&super::super::record::EmulatedOpen {
            project: &project.to_ascii_lowercase(),
            gt: a.target.part.gt().map(|g| g.0),
            driver: a.target.driver.as_deref(),
            unit: None,
            metric_set: &a.target.metric_set,
            exponent: None,
            period,
            open_errno: None,
            xe_status: false,
            workload: a.target.workload.as_deref(),
            context: None,
            inject_contexts: None,
        })?;
        let mut stream = o.stream;
        // Time moves as this command says.
        stream.set_ticks_per_read(0);
        let t0 = stream.emulator().now();
        Ok(Opened {
            reader: Reader::Emulated {
                reader: Box::new(StreamReader::new(stream)),
                since: Instant::now(),
                ticks: 0,
                t0,
                cpu0: perfregs_linux::recording::monotonic_ns(),
                period_ticks: 1u64 << (o.exponent + 1),
            },
            typed: o.typed,
            set: o.set,
            part: o.part,
            device: o.preset,
            freq: o.freq,
            period_line: o.period_line,
            gpu_id: 0,
        })
    }

    /// Every counter of the set that the part has, by its place in the set.
    fn available(set: &'static SetInfo, d: &DeviceInfo) -> Vec<(u32, &'static CounterInfo)> {
        set.counters
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_available(d))
            .filter_map(|(k, c)| Some((u32::try_from(k).ok()?, c)))
            .collect()
    }

    pub(super) fn run(a: &ProduceArgs) -> Result<(), Fail> {
        let stop = super::super::record::stop_flag()?;
        let deadline = a
            .duration
            .map(|d| Instant::now() + Duration::from_nanos(d.get()));
        let ended =
            || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
        // The arguments checked, and the counters learnt, by opening the
        // stream once (closed again: a card takes one stream at a time).
        let first = open(a, a.period)?;
        let (set, part, gpu_id) = (first.set, first.part.clone(), first.gpu_id);
        let all = available(set, &first.device);
        drop(first);
        let specs: Vec<CounterSpec> = all
            .iter()
            .map(|&(id, c)| CounterSpec {
                id,
                name: c.symbol.to_string(),
                description: c.description.to_string(),
                unit: Unit::of(c.units),
            })
            .collect();
        let groups = [Group {
            name: format!("perfregs.{}", set.symbol),
            counter_ids: all.iter().map(|&(id, _)| id).collect(),
        }];
        let gpu = format!("{part} {}", set.symbol);
        let backend = match a.in_process_trace {
            Some(_) => Backend::InProcess,
            None => Backend::System,
        };
        let mut source = Source::register(
            backend,
            (gpu_id, &gpu),
            CpuClock::Monotonic,
            &groups,
            &specs,
        )
        .map_err(|e| Fail::findings(e.to_string()))?;
        let session = match a.in_process_trace {
            Some(_) => Some(
                Session::start(
                    Backend::InProcess,
                    &Wish {
                        period_ns: a.period.map(NonZeroU64::get),
                        ..Wish::default()
                    },
                )
                .map_err(|e| Fail::findings(e.to_string()))?,
            ),
            None => None,
        };
        eprintln!(
            "data source {} registered with {}: {} counter(s) of {} on {part}; waiting for a trace session to enable it ({})",
            perfregs_perfetto::source::NAME,
            match backend {
                Backend::System => "the system's tracing service",
                Backend::InProcess => "a tracing service in this process",
            },
            specs.len(),
            set.symbol,
            if deadline.is_some() { "--duration or Ctrl-C ends" } else { "Ctrl-C ends" }
        );
        if backend == Backend::System {
            if let Err(looked) = perfregs_perfetto::source::producer_socket() {
                eprintln!(
                    "perfregs produce: no tracing service yet (no producer socket at {looked}): start traced, or `tracebox --system-sockets ...`; the data source connects when one appears"
                );
            }
        }
        let mut sessions = 0u64;
        while !ended() {
            let Some(config) = source.is_enabled().then(|| source.config()).flatten() else {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            };
            sessions += 1;
            let mut o = start(a, &config, &all)?;
            let mut looked = Instant::now();
            loop {
                if ended() {
                    break;
                }
                if looked.elapsed() >= LOOK_EVERY {
                    looked = Instant::now();
                    if !source.is_enabled() || source.config().as_ref() != Some(&o.config) {
                        break;
                    }
                }
                o.step(&mut source)?;
            }
            eprintln!(
                "{} sample(s), {} loss(es) written; {}",
                o.samples,
                o.losses,
                if ended() {
                    "ending"
                } else {
                    "the sessions changed: waiting"
                }
            );
        }
        if sessions == 0 {
            eprintln!(
                "no trace session enabled {}",
                perfregs_perfetto::source::NAME
            );
        }
        if let (Some(path), Some(session)) = (&a.in_process_trace, session) {
            std::fs::write(path, session.stop())
                .map_err(|e| Fail::findings(format!("{}: {e}", path.display())))?;
        }
        Ok(())
    }

    /// Open the stream for `config`, saying what it streams.
    fn start(
        a: &ProduceArgs,
        config: &Config,
        all: &[(u32, &'static CounterInfo)],
    ) -> Result<Open, Fail> {
        for u in &config.unknown {
            eprintln!(
                "perfregs produce: the session asks for {u}: not written (no such counter here)"
            );
        }
        let asked = config.period_ns.or(a.period.map(NonZeroU64::get));
        let mut period = asked.unwrap_or(DEFAULT_PERIOD_NS);
        if period < MIN_PERIOD_NS {
            eprintln!(
                "perfregs produce: a period of {period} ns asked for: sampling at the shortest, {MIN_PERIOD_NS} ns"
            );
            period = MIN_PERIOD_NS;
        }
        let o = open(a, NonZeroU64::new(period))?;
        let counters: Vec<(u32, &'static CounterInfo)> = all
            .iter()
            .copied()
            .filter(|(id, _)| config.counter_ids.contains(id))
            .collect();
        let reads = perfregs_metrics::reads_of(counters.iter().map(|&(_, c)| c));
        let acc = o
            .typed
            .intervals_reading(Window::Pairs(NonZeroU32::MIN), Some(reads));
        eprintln!(
            "a session enabled it: {} counter(s); {}",
            counters.len(),
            o.period_line
        );
        Ok(Open {
            reader: o.reader,
            sink: Sink {
                acc,
                origin: None,
                freq: o.freq,
                device: o.device,
                counters,
            },
            config: config.clone(),
            samples: 0,
            losses: 0,
        })
    }

    /// Where a stream's items go: report pairs accumulated, each interval
    /// and loss an event at its GPU time.
    struct Sink {
        acc: Box<dyn perfregs_session::Accumulate>,
        /// The first report's raw timestamp (the GPU axis's origin).
        origin: Option<u64>,
        freq: u64,
        device: DeviceInfo,
        /// The chosen counters, by id (their places in the set).
        counters: Vec<(u32, &'static CounterInfo)>,
    }

    impl Sink {
        /// GPU ns of `ticks` on the stream's axis.
        fn ns(&self, ticks: u64) -> u64 {
            u64::try_from(u128::from(ticks) * 1_000_000_000 / u128::from(self.freq.max(1)))
                .unwrap_or(u64::MAX)
        }

        /// Take `item` into `events`.
        fn take(&mut self, item: Item<'_>, events: &mut Vec<(u64, Event)>) -> Result<(), Fail> {
            match item {
                Item::Record(Record::Sample(b)) => {
                    if self.origin.is_none() {
                        self.origin = self.acc.timestamp(b);
                    }
                    match self.acc.push(b) {
                        Some(Some(iv)) => {
                            let at = self.origin.zip(iv.end);
                            if let Some(at) = at.map(|(o, e)| self.ns(o.saturating_add(e))) {
                                events.push((at, Event::Sample(self.values(&iv))));
                            }
                        }
                        Some(None) => {}
                        None => {
                            return Err(Fail::findings(format!(
                                "a {}-byte report that is not one of the stream's format",
                                b.len()
                            )))
                        }
                    }
                }
                Item::Record(Record::ReportLost) => {
                    self.acc.report_lost();
                    events.push((self.last_at(events), Event::Loss("OA_REPORT_LOST")));
                }
                Item::Record(Record::BufferLost) => {
                    self.acc.buffer_lost();
                    events.push((self.last_at(events), Event::Loss("OA_BUFFER_LOST")));
                }
                // Xe's other status events: no loss of reports.
                _ => {}
            }
            Ok(())
        }

        /// The chosen counters' values on `iv`.
        fn values(&self, iv: &Interval) -> Vec<(u32, Value)> {
            self.counters
                .iter()
                .filter_map(|&(id, c)| {
                    let v = match iv.value(c, &self.device)? {
                        perfregs_metrics::Value::U64(x) => {
                            Value::Int(i64::try_from(x).unwrap_or(i64::MAX))
                        }
                        perfregs_metrics::Value::F64(x) => Value::Float(x),
                    };
                    Some((id, v))
                })
                .collect()
        }

        /// GPU ns for a loss: the last event's time, else the origin's.
        fn last_at(&self, events: &[(u64, Event)]) -> u64 {
            events
                .last()
                .map(|e| e.0)
                .or_else(|| self.origin.map(|o| self.ns(o)))
                .unwrap_or(0)
        }
    }

    impl Open {
        /// Let the stream run (the emulated one up to wall time, a card's
        /// until it has reports or a short wait ends) and write what it
        /// gave.
        fn step(&mut self, source: &mut Source) -> Result<(), Fail> {
            let mut events = Vec::new();
            let freq = self.sink.freq;
            match &mut self.reader {
                Reader::Emulated {
                    reader,
                    since,
                    ticks,
                    period_ticks,
                    ..
                } => {
                    let target = u64::try_from(
                        since.elapsed().as_nanos() * u128::from(freq) / 1_000_000_000,
                    )
                    .unwrap_or(u64::MAX);
                    let n = target
                        .saturating_sub(*ticks)
                        .min(super::super::top::STEP_REPORTS.saturating_mul(*period_ticks));
                    if n == 0 {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    reader.stream_mut().advance(n);
                    *ticks = ticks.saturating_add(n);
                    drain(reader, &mut self.sink, &mut events)?;
                }
                Reader::Device(reader) => {
                    match reader.wait(Some(Duration::from_millis(20))) {
                        Ok(_) => {}
                        // A signal (Ctrl-C): the caller looks at the stop.
                        Err(e) if e.errno() == Some(perfregs_linux::errno::code::EINTR) => {
                            return Ok(())
                        }
                        Err(e) => {
                            return Err(Fail::findings(format!("waiting for the stream: {e}")))
                        }
                    }
                    drain(reader, &mut self.sink, &mut events)?;
                }
            }
            self.write(events, source)
        }

        /// Write `events` (each report pair a sample of the chosen
        /// counters, each loss a loss), after the correlation of the last.
        fn write(&mut self, events: Vec<(u64, Event)>, source: &mut Source) -> Result<(), Fail> {
            let err = |e: perfregs_perfetto::Error| Fail::findings(format!("the trace: {e}"));
            let Some(&(last, _)) = events.last() else {
                return Ok(());
            };
            source.correlation(self.pair(last)).map_err(err)?;
            for (at, e) in events {
                match e {
                    Event::Sample(values) => {
                        source.sample(at, &values).map_err(err)?;
                        self.samples += 1;
                    }
                    Event::Loss(kind) => {
                        source.loss(at, kind, 1).map_err(err)?;
                        self.losses += 1;
                    }
                }
            }
            Ok(())
        }

        /// The correlation of GPU ns `gpu_ns` (the last event's): a card's
        /// with `CLOCK_MONOTONIC` now, the emulated GPU's with the open's
        /// `CLOCK_MONOTONIC` plus the emulated time since.
        fn pair(&self, gpu_ns: u64) -> ClockPair {
            match &self.reader {
                Reader::Device(_) => ClockPair {
                    gpu_ns,
                    cpu_ns: perfregs_linux::recording::monotonic_ns(),
                },
                Reader::Emulated { t0, cpu0, .. } => {
                    // The origin's ticks after the open (reports carry the
                    // low 32 bits of the emulator's time).
                    let origin = self.sink.origin.unwrap_or(0);
                    let after = (origin as u32).wrapping_sub(*t0 as u32);
                    let origin_ns = self.sink.ns(origin);
                    let since = self
                        .sink
                        .ns(u64::from(after))
                        .saturating_add(gpu_ns.saturating_sub(origin_ns));
                    ClockPair {
                        gpu_ns,
                        cpu_ns: cpu0.saturating_add(since),
                    }
                }
            }
        }
    }

    /// What the stream gave, in GPU time order.
    enum Event {
        /// The chosen counters' values.
        Sample(Vec<(u32, Value)>),
        Loss(&'static str),
    }

    /// Every item `reader` has now, into `sink`.
    fn drain<S: OaStream>(
        reader: &mut StreamReader<S>,
        sink: &mut Sink,
        events: &mut Vec<(u64, Event)>,
    ) -> Result<(), Fail> {
        loop {
            match reader.next() {
                Ok(Some(item)) => sink.take(item, events)?,
                Ok(None) => return Ok(()),
                Err(e) => return Err(Fail::findings(format!("reading the stream: {e}"))),
            }
        }
    }
}
