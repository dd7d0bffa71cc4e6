//! `perfregs top`: a live view of an OA stream, the chosen counters of its
//! metric set as values, bars and sparklines, refreshed as reports arrive.
//!
//! The stream is opened as `record --emulate` opens it
//! ([`super::record::open_emulated`]), or as `record --device` opens a
//! card's ([`super::record::device::open`]); its reports go through the fast
//! path of the chosen counters only (`Format::intervals_reading` with
//! their `reads_of`): each refresh takes the interval accumulated since the
//! last one. The emulated time advances with wall time, at the stream's
//! period (as far as the emulator keeps up: the header says when it does
//! not). Memory stays flat: each counter keeps the last [`HISTORY`] values.
//!
//! On a terminal: a ratatui view (keys: q quit, space/p pause, +/- refresh
//! rate, s/S next/previous metric set, ? help). Elsewhere (a pipe, a file):
//! one line per refresh, `NAME=VALUE` for each counter.

#![cfg_attr(not(target_os = "linux"), allow(dead_code, unused_imports))]

use super::report::duration_ns;
use super::Fail;
use perfregs_metrics::intervals::{Interval, Window};
use perfregs_metrics::{CounterInfo, DeviceInfo, SetInfo};
use std::collections::VecDeque;
use std::io::{IsTerminal as _, Write as _};
use std::num::{NonZeroU32, NonZeroU64};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Values each counter keeps: the sparkline's width.
pub const HISTORY: usize = 48;
/// Error lines kept for the status line.
const ERRORS_KEPT: usize = 3;
/// Default counters: these patterns, else the set's first [`DEFAULT_FIRST`].
const DEFAULT_COUNTERS: &str = "GpuBusy,*Busy";
/// Default counters when [`DEFAULT_COUNTERS`] matches none.
const DEFAULT_FIRST: usize = 8;
/// Reports the emulator is asked for at most per step (each step is
/// followed by a look at the keyboard): at small periods the emulator runs
/// behind wall time rather than freezing the view.
pub(super) const STEP_REPORTS: u64 = 2_000;
/// Refresh bounds for `+`/`-`.
const REFRESH_MIN: Duration = Duration::from_millis(50);
const REFRESH_MAX: Duration = Duration::from_secs(10);

/// `perfregs top`.
#[derive(Clone, Debug, clap::Args)]
#[command(
    about = "A live view of an OA stream: the chosen counters as values, bars and sparklines",
    long_about = "A live view of an OA stream (the emulated GPU with --emulate): the chosen \
counters of a metric set as values, bars (percentages, counters with a known maximum) and \
sparklines of their last values, refreshed every --refresh; a header (part, set, period, \
refresh, elapsed, reports/s) and a status line (report-lost and buffer-lost records, errors of \
the stream).\n\n\
Keys: q quit, space or p pause, + and - refresh faster or slower, s and S the next or previous \
metric set of the part (the stream reprogrammed), ? help.\n\n\
--counters chooses counters by name or glob (`GpuBusy,EuActive,*Busy`); default: GpuBusy and \
the set's *Busy counters, else the set's first 8. Only the chosen counters are computed.\n\n\
When stdout is not a terminal, one line per refresh (`NAME=VALUE` for each counter), so \
`perfregs top ... | head` works; --iterations N or --duration TIME ends it (on a terminal too).\n\n\
The emulated time advances with wall time at the stream's period, as far as the emulator keeps \
up (the header says when it runs behind, as at the smallest periods); --workload chooses what \
the emulated GPU does (default busy, as `record --emulate`).\n\n\
--device cardN shows a real GPU's stream (Linux, i915 or xe), opened as `perfregs record \
--device` opens it: the card judged first (`perfregs devices` says why one is refused), the \
set's configuration added or reused, the stream read at the hardware's pace; s and S reopen it \
with another set."
)]
pub struct TopArgs {
    /// The stream: `--device` or `--emulate` with its flags, and `--metric-set`.
    #[command(flatten)]
    pub target: super::target::StreamTarget,
    /// The counters shown, by name or glob, joined by `,` (default:
    /// GpuBusy and the set's *Busy counters, else its first 8).
    #[arg(long, value_name = "LIST")]
    pub counters: Option<String>,
    /// The sampling period (1ms, 100us, ...): the nearest timer exponent is used.
    #[arg(long, value_name = "TIME", value_parser = duration_ns, conflicts_with = "exponent")]
    pub period: Option<NonZeroU64>,
    /// The timer exponent: a report every 2^(E+1) timestamp ticks (0 to 31).
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(u64).range(0..=31))]
    pub exponent: Option<u64>,
    /// How often the values refresh (default 500ms; + and - change it).
    #[arg(long, value_name = "TIME", value_parser = duration_ns, default_value = "500ms")]
    pub refresh: NonZeroU64,
    /// End after N refreshes.
    #[arg(long, value_name = "N")]
    pub iterations: Option<NonZeroU64>,
    /// End after this much wall time.
    #[arg(long, value_name = "TIME", value_parser = duration_ns)]
    pub duration: Option<NonZeroU64>,
    /// Where a card is found (hidden, for tests on a fake tree).
    #[command(flatten)]
    pub roots: super::record::DeviceRoots,
}

/// One counter's row: its last values.
struct Row {
    counter: &'static CounterInfo,
    /// The last values, oldest first (at most [`HISTORY`]).
    history: VecDeque<f64>,
    /// The maximum its equation gives on the last interval, if any.
    max: Option<f64>,
}

impl Row {
    fn new(counter: &'static CounterInfo) -> Self {
        Row {
            counter,
            history: VecDeque::with_capacity(HISTORY),
            max: None,
        }
    }
    fn last(&self) -> Option<f64> {
        self.history.back().copied()
    }
    /// The scale's top: the maximum, 100 for a percentage.
    fn top(&self) -> Option<f64> {
        self.max
            .filter(|m| *m > 0.0)
            .or_else(|| (self.counter.units == "percent").then_some(100.0))
    }
    fn push(&mut self, v: f64, max: Option<f64>) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(v);
        self.max = max;
    }
}

fn value_f64(v: perfregs_metrics::Value) -> f64 {
    match v {
        perfregs_metrics::Value::U64(x) => x as f64,
        perfregs_metrics::Value::F64(x) => x,
    }
}

/// What the view shows.
struct Model {
    project: String,
    part: String,
    set: &'static SetInfo,
    sets: &'static [SetInfo],
    device: DeviceInfo,
    period_text: String,
    period_ticks: u64,
    freq: u64,
    refresh: Duration,
    started: Instant,
    rows: Vec<Row>,
    /// `workload: busy (...)`, or none scripted.
    workload: String,
    /// A note on the counters (a --counters list that matched none of a set).
    counters_note: Option<String>,
    reports: u64,
    reports_lost: u64,
    buffers_lost: u64,
    invalid: u64,
    xe_events: u64,
    /// Reports per second over the last refresh.
    rate: f64,
    /// Emulated ticks over wall ticks in the last refresh (1: keeping up;
    /// always 1 on a device).
    pace: f64,
    /// The stream is the emulator's (the plain lines say its pace).
    emulated: bool,
    refreshes: u64,
    paused: bool,
    help: bool,
    errors: VecDeque<String>,
    /// The stream ended (an error); the view stays until q.
    ended: bool,
}

impl Model {
    fn error(&mut self, e: String) {
        if self.errors.len() == ERRORS_KEPT {
            self.errors.pop_front();
        }
        self.errors.push_back(e);
    }

    /// Take the interval of the last refresh.
    fn take(&mut self, iv: Option<&Interval>) {
        self.refreshes += 1;
        if self.paused {
            return;
        }
        let Some(iv) = iv.filter(|iv| iv.pairs > 0) else {
            return;
        };
        let d = &self.device;
        for r in &mut self.rows {
            let v = iv.value(r.counter, d).map(value_f64);
            let max = r
                .counter
                .max
                .as_ref()
                .and_then(|m| m.call(&iv.sample, d))
                .map(value_f64);
            if let Some(v) = v {
                r.push(v, max);
            }
        }
    }

    fn header(&self) -> String {
        let secs = self.started.elapsed().as_secs_f64();
        let behind = if self.pace < 0.95 && self.reports > 0 {
            format!(
                "; emulated time at {:.1}% of wall time (the emulator is behind at this period)",
                self.pace * 100.0
            )
        } else {
            String::new()
        };
        format!(
            "{} ({}) | {} | period {} | refresh {} | {:.1}s | {:.0} reports/s{}{}",
            self.part,
            self.project,
            self.set.symbol,
            self.period_text,
            ms_text(self.refresh),
            secs,
            self.rate,
            if self.paused { " | PAUSED" } else { "" },
            behind
        )
    }

    fn status(&self) -> String {
        let mut s = format!(
            "lost: {} report-lost, {} buffer-lost; {} invalid pair(s)",
            self.reports_lost, self.buffers_lost, self.invalid
        );
        if self.xe_events > 0 {
            s.push_str(&format!("; {} xe status event(s)", self.xe_events));
        }
        if let Some(n) = &self.counters_note {
            s.push_str("; ");
            s.push_str(n);
        }
        // As `metrics run` and `record --emulate` say it.
        s.push_str("; ");
        s.push_str(self.workload.split(" (").next().unwrap_or(&self.workload));
        s
    }
}

fn ms_text(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms >= 1000.0 {
        format!("{:.2}s", ms / 1e3)
    } else {
        format!("{ms:.0}ms")
    }
}

/// A value as the view prints it.
fn value_text(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.2}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The bar of `v` on a scale of `top`, `width` cells.
fn bar_text(v: f64, top: f64, width: usize) -> String {
    let f = (v / top).clamp(0.0, 1.0);
    let full = (f * width as f64).round() as usize;
    let mut s = "█".repeat(full);
    s.push_str(&"·".repeat(width - full));
    s
}

/// The sparkline of `h` (scaled to `top`, else to its own range).
fn spark_text(h: &VecDeque<f64>, top: Option<f64>) -> String {
    const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let (lo, hi) = match top {
        Some(t) => (0.0, t),
        None => {
            let lo = h.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = h.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (lo, hi)
        }
    };
    h.iter()
        .map(|v| {
            let f = if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
            LEVELS[((f.clamp(0.0, 1.0) * 7.0).round() as usize).min(7)]
        })
        .collect()
}

/// The counters of `set` that `spec` names (default: [`DEFAULT_COUNTERS`],
/// else the first [`DEFAULT_FIRST`]), available on `d`; a note when a
/// given list names none of this set (the default taken instead).
fn chosen(
    set: &'static SetInfo,
    spec: Option<&str>,
    d: &DeviceInfo,
) -> Result<(Vec<&'static CounterInfo>, Option<String>), String> {
    let available = |v: Vec<&'static CounterInfo>| -> Vec<&'static CounterInfo> {
        v.into_iter().filter(|c| c.is_available(d)).collect()
    };
    let default = || {
        let v = available(
            perfregs_session::choose_counters(set.counters, DEFAULT_COUNTERS).unwrap_or_default(),
        );
        if v.is_empty() {
            available(set.counters.iter().collect())
                .into_iter()
                .take(DEFAULT_FIRST)
                .collect()
        } else {
            v
        }
    };
    match spec {
        None => Ok((default(), None)),
        Some(spec) => match perfregs_session::choose_counters(set.counters, spec) {
            Ok(v) => {
                let v = available(v);
                if v.is_empty() {
                    return Err(format!(
                        "--counters {spec}: none of them is available on this part in {}",
                        set.symbol
                    ));
                }
                Ok((v, None))
            }
            Err(e) => Err(format!("--counters: {e} in {}", set.symbol)),
        },
    }
}

/// Where the reports come from.
#[cfg(target_os = "linux")]
struct Source {
    reader: Reader,
    acc: Box<dyn perfregs_session::Accumulate>,
}

/// The stream a [`Source`] reads.
#[cfg(target_os = "linux")]
enum Reader {
    /// The emulated GPU's: its clock follows wall time.
    Emulated {
        reader: Box<perfregs_linux::stream::StreamReader<perfregs_linux::emulated::EmulatedStream>>,
        /// Wall time the emulated clock follows, from this instant.
        since: Instant,
        /// Emulated ticks advanced since `since`.
        ticks: u64,
    },
    /// A card's (or any stream that runs by itself): read as it comes.
    Device(Box<perfregs_linux::stream::StreamReader<Box<dyn perfregs_linux::stream::OaStream>>>),
    /// None: closed while another set's stream is opened (a device takes
    /// one stream at a time).
    Closed,
}

#[cfg(target_os = "linux")]
impl TopArgs {
    /// Open the stream of `set` (a name), the card's or the emulated
    /// GPU's; the model's set and rows follow it.
    fn open(&self, set: &str) -> Result<(Source, Model), Fail> {
        match (&self.target.device, &self.target.emulate) {
            (Some(card), _) => self.open_device(card, set),
            (None, Some(project)) => self.open_emulated(project, set),
            (None, None) => Err(Fail::usage(
                "give one of --device cardN and --emulate PROJECT",
            )),
        }
    }

    /// Open card `card`'s stream of `set` and enable it.
    fn open_device(&self, card: &str, set: &str) -> Result<(Source, Model), Fail> {
        let o = super::record::device::open(&super::record::device::DeviceOpen {
            card,
            metric_set: set,
            exponent: self.exponent,
            period: self.period,
            context: None,
            roots: &self.roots,
        })?;
        let mut stream = o.stream;
        stream
            .enable()
            .map_err(|e| Fail::findings(format!("{}: enabling the stream: {e}", o.name)))?;
        let what = format!("reading {}", o.opened);
        let (model, acc) = self.model(
            Opened {
                project: o.project,
                part: o.part,
                set: o.set,
                sets: o.sets,
                device: o.info,
                exponent: o.exponent,
                freq: o.freq,
                typed: &o.typed,
                what,
            },
            false,
        )?;
        let source = Source {
            reader: Reader::Device(Box::new(perfregs_linux::stream::StreamReader::new(stream))),
            acc,
        };
        Ok((source, model))
    }

    /// Open the emulated GPU's stream of `set`.
    fn open_emulated(&self, project: &str, set: &str) -> Result<(Source, Model), Fail> {
        let o = super::record::open_emulated(&super::record::EmulatedOpen {
            project: &project.to_ascii_lowercase(),
            gt: self.target.part.gt().map(|g| g.0),
            driver: self.target.driver.as_deref(),
            unit: None,
            metric_set: set,
            exponent: self.exponent,
            period: self.period,
            open_errno: None,
            xe_status: false,
            workload: self.target.workload.as_deref(),
            context: None,
            inject_contexts: None,
        })?;
        let (model, acc) = self.model(
            Opened {
                project: o.project.name,
                part: o.part,
                set: o.set,
                sets: o.sets,
                device: o.preset,
                exponent: o.exponent,
                freq: o.freq,
                typed: &o.typed,
                what: o.workload_line,
            },
            true,
        )?;
        let mut stream = o.stream;
        // Time moves as this command says.
        stream.set_ticks_per_read(0);
        let source = Source {
            reader: Reader::Emulated {
                reader: Box::new(perfregs_linux::stream::StreamReader::new(stream)),
                since: Instant::now(),
                ticks: 0,
            },
            acc,
        };
        Ok((source, model))
    }

    /// The view of a stream opened as `o` says, and the accumulator of its
    /// chosen counters.
    fn model(
        &self,
        o: Opened<'_>,
        emulated: bool,
    ) -> Result<(Model, Box<dyn perfregs_session::Accumulate>), Fail> {
        let (counters, note) =
            chosen(o.set, self.counters.as_deref(), &o.device).map_err(Fail::usage)?;
        let reads = perfregs_metrics::reads_of(counters.iter().copied());
        let acc = o
            .typed
            .intervals_reading(Window::Pairs(NonZeroU32::MAX), Some(reads));
        let period_ticks = 1u64 << (o.exponent + 1);
        let model = Model {
            project: o.project.to_string(),
            part: o.part,
            set: o.set,
            sets: o.sets,
            device: o.device,
            period_text: format!(
                "{} (exponent {})",
                super::record::ticks_text(period_ticks, o.freq),
                o.exponent
            ),
            period_ticks,
            freq: o.freq,
            refresh: Duration::from_nanos(self.refresh.get()),
            started: Instant::now(),
            rows: counters.into_iter().map(Row::new).collect(),
            counters_note: note,
            workload: o.what,
            reports: 0,
            reports_lost: 0,
            buffers_lost: 0,
            invalid: 0,
            xe_events: 0,
            rate: 0.0,
            pace: 1.0,
            emulated,
            refreshes: 0,
            paused: false,
            help: false,
            errors: VecDeque::new(),
            ended: false,
        };
        Ok((model, acc))
    }

    /// Switch `model` to the set `step` places from its own (wrapping), the
    /// stream reopened; sets that cannot be opened here (another unit's
    /// layout) are skipped and said.
    fn switch(&self, source: &mut Source, model: &mut Model, step: isize) {
        let sets = model.sets;
        let n = sets.len() as isize;
        let Some(at) = sets.iter().position(|s| s.symbol == model.set.symbol) else {
            return;
        };
        // A device takes one stream at a time: the current one is closed
        // first (and reopened when no other set opens).
        source.reader = Reader::Closed;
        for k in 1..n {
            let i = (at as isize + step * k).rem_euclid(n) as usize;
            let Some(set) = sets.get(i) else { continue };
            // The set's counters: the list given, else (none of them in
            // this set) the default ones.
            let attempt = self.open(set.symbol).or_else(|f| {
                if self.counters.is_some() && f.message.starts_with("--counters") {
                    let without = TopArgs {
                        counters: None,
                        ..self.clone()
                    };
                    without.open(set.symbol).map(|(s, mut m)| {
                        m.counters_note = Some(format!("{}: default counters shown", f.message));
                        (s, m)
                    })
                } else {
                    Err(f)
                }
            });
            match attempt {
                Ok((s, mut m)) => {
                    m.started = model.started;
                    m.refresh = model.refresh;
                    m.errors = std::mem::take(&mut model.errors);
                    m.paused = model.paused;
                    *source = s;
                    *model = m;
                    return;
                }
                Err(f) => model.error(format!("{} skipped: {}", set.symbol, f.message)),
            }
        }
        match self.open(model.set.symbol) {
            Ok((s, _)) => *source = s,
            Err(f) => {
                model.error(format!("reopening {}: {}", model.set.symbol, f.message));
                model.ended = true;
            }
        }
    }
}

/// What [`TopArgs::model`] takes from an opened stream.
#[cfg(target_os = "linux")]
struct Opened<'a> {
    project: &'static str,
    part: String,
    set: &'static SetInfo,
    sets: &'static [SetInfo],
    device: DeviceInfo,
    exponent: u64,
    freq: u64,
    typed: &'a super::report::TypedFormat,
    /// What runs: the workload line, or the card's stream (`reading
    /// card0 (...)`).
    what: String,
}

#[cfg(target_os = "linux")]
impl Source {
    /// Advance the emulated clock toward wall time (at most
    /// [`STEP_REPORTS`] reports) and take what the stream gives.
    fn step(&mut self, model: &mut Model) {
        if model.ended {
            return;
        }
        match &mut self.reader {
            Reader::Emulated {
                reader,
                since,
                ticks,
            } => {
                let wall = since.elapsed();
                let target =
                    u64::try_from(wall.as_nanos() * u128::from(model.freq) / 1_000_000_000)
                        .unwrap_or(u64::MAX);
                let n = target
                    .saturating_sub(*ticks)
                    .min(STEP_REPORTS.saturating_mul(model.period_ticks));
                if n > 0 {
                    reader.stream_mut().advance(n);
                    *ticks = ticks.saturating_add(n);
                }
                take(reader, self.acc.as_mut(), model);
            }
            Reader::Device(reader) => take(reader, self.acc.as_mut(), model),
            Reader::Closed => {}
        }
    }

    /// The interval since the last refresh; the pace and the rate over it.
    fn refresh(&mut self, model: &mut Model, reports_before: u64, took: Duration) {
        let iv = self.acc.finish();
        if let Some(iv) = &iv {
            model.invalid += u64::from(iv.invalid.total());
        }
        let secs = took.as_secs_f64().max(1e-9);
        model.rate = (model.reports - reports_before) as f64 / secs;
        if let Reader::Emulated { since, ticks, .. } = &self.reader {
            let wall_ticks = since.elapsed().as_secs_f64() * model.freq as f64;
            model.pace = if wall_ticks > 0.0 {
                (*ticks as f64 / wall_ticks).min(1.0)
            } else {
                1.0
            };
        }
        model.take(iv.as_ref());
    }
}

/// Every item `reader` has now, into `acc` and `model`'s counts; a
/// stream error ends the stream.
#[cfg(target_os = "linux")]
fn take<S: perfregs_linux::stream::OaStream>(
    reader: &mut perfregs_linux::stream::StreamReader<S>,
    acc: &mut dyn perfregs_session::Accumulate,
    model: &mut Model,
) {
    use perfregs_linux::record::Record;
    use perfregs_linux::stream::Item;
    loop {
        match reader.next() {
            Ok(None) => break,
            Ok(Some(Item::Record(Record::Sample(b)))) => {
                model.reports += 1;
                if acc.push(b).is_none() {
                    model.error(format!(
                        "a {}-byte report that is not one of the stream's format",
                        b.len()
                    ));
                }
            }
            Ok(Some(Item::Record(Record::ReportLost))) => {
                model.reports_lost += 1;
                acc.report_lost();
            }
            Ok(Some(Item::Record(Record::BufferLost))) => {
                model.buffers_lost += 1;
                acc.buffer_lost();
            }
            Ok(Some(_)) => model.xe_events += 1,
            Err(e) => {
                model.error(format!("reading the stream: {e}; the stream ends there"));
                model.ended = true;
                break;
            }
        }
    }
}

impl TopArgs {
    /// Run the command.
    pub fn run(self) -> ExitCode {
        match self.go() {
            Ok(()) => ExitCode::SUCCESS,
            Err(f) => f.exit_from("top"),
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn go(&self) -> Result<(), Fail> {
        Err(Fail::findings(
            "the emulated stream uses a pipe and the Linux read path: Linux only",
        ))
    }

    #[cfg(target_os = "linux")]
    fn go(&self) -> Result<(), Fail> {
        self.target.check(&self.roots)?;
        let (source, model) = self.open(&self.target.metric_set)?;
        let deadline = self
            .duration
            .map(|d| Instant::now() + Duration::from_nanos(d.get()));
        let limits = Limits {
            iterations: self.iterations.map(NonZeroU64::get),
            deadline,
        };
        if std::io::stdout().is_terminal() {
            self.live(source, model, limits)
        } else {
            eprintln!("{}", model.workload);
            self.plain(source, model, limits)
        }
    }

    /// One line per refresh on stdout.
    #[cfg(target_os = "linux")]
    fn plain(&self, mut source: Source, mut model: Model, limits: Limits) -> Result<(), Fail> {
        let stop = super::record::stop_flag()?;
        let mut out = std::io::stdout().lock();
        let mut say = |line: String| {
            if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                // stdout closed (`| head`): done.
                std::process::exit(0);
            }
        };
        say(format!("# {}", model.header()));
        let mut errors_said = 0;
        loop {
            let began = Instant::now();
            let before = model.reports;
            while began.elapsed() < model.refresh && !model.ended {
                source.step(&mut model);
                std::thread::sleep(Duration::from_millis(5).min(model.refresh / 4));
            }
            source.refresh(&mut model, before, began.elapsed());
            let mut line = format!(
                "t={:.2}s reports/s={:.0}",
                model.started.elapsed().as_secs_f64(),
                model.rate,
            );
            if model.emulated {
                line.push_str(&format!(" emulated={:.1}%", model.pace * 100.0));
            }
            line.push_str(&format!(
                " report_lost={} buffer_lost={}",
                model.reports_lost, model.buffers_lost
            ));
            for r in &model.rows {
                line.push_str(&format!(
                    " {}={}",
                    r.counter.symbol,
                    r.last().map_or_else(|| "-".to_string(), value_text)
                ));
            }
            say(line);
            // Every error line, once.
            let all: Vec<String> = model.errors.iter().cloned().collect();
            for e in all.iter().skip(errors_said.min(all.len())) {
                eprintln!("perfregs top: {e}");
            }
            errors_said = all.len();
            if model.ended {
                return Err(Fail::findings("the stream ended with an error"));
            }
            if limits.done(model.refreshes) || stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Ok(());
            }
        }
    }

    /// The terminal view.
    #[cfg(target_os = "linux")]
    fn live(&self, mut source: Source, mut model: Model, limits: Limits) -> Result<(), Fail> {
        use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
        let mut terminal = Screen::enter()?;
        let mut began = Instant::now();
        let mut before = model.reports;
        loop {
            source.step(&mut model);
            if began.elapsed() >= model.refresh {
                source.refresh(&mut model, before, began.elapsed());
                began = Instant::now();
                before = model.reports;
                if limits.done(model.refreshes) {
                    return Ok(());
                }
            }
            terminal
                .0
                .draw(|f| draw(f, &model))
                .map_err(|e| Fail::findings(format!("drawing: {e}")))?;
            let wait = Duration::from_millis(20);
            if event::poll(wait).map_err(|e| Fail::findings(format!("the terminal: {e}")))? {
                let Event::Key(k) =
                    event::read().map_err(|e| Fail::findings(format!("the terminal: {e}")))?
                else {
                    continue;
                };
                if k.kind != KeyEventKind::Press {
                    continue;
                }
                match k.code {
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                    KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
                        return Ok(())
                    }
                    KeyCode::Char(' ') | KeyCode::Char('p') => model.paused = !model.paused,
                    KeyCode::Char('+') | KeyCode::Char('=') => {
                        model.refresh = (model.refresh / 2).max(REFRESH_MIN)
                    }
                    KeyCode::Char('-') => model.refresh = (model.refresh * 2).min(REFRESH_MAX),
                    KeyCode::Char('s') => {
                        self.switch(&mut source, &mut model, 1);
                        began = Instant::now();
                        before = model.reports;
                    }
                    KeyCode::Char('S') => {
                        self.switch(&mut source, &mut model, -1);
                        began = Instant::now();
                        before = model.reports;
                    }
                    KeyCode::Char('?') | KeyCode::Char('h') => model.help = !model.help,
                    _ => {}
                }
            }
            if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(());
            }
        }
    }
}

/// When the command ends by itself.
struct Limits {
    iterations: Option<u64>,
    deadline: Option<Instant>,
}

impl Limits {
    fn done(&self, refreshes: u64) -> bool {
        self.iterations.is_some_and(|n| refreshes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The terminal in raw mode on the alternate screen; restored when dropped
/// (an error or a panic included).
struct Screen(ratatui::Terminal<ratatui::backend::CrosstermBackend<std::io::Stdout>>);

impl Screen {
    fn enter() -> Result<Self, Fail> {
        use ratatui::crossterm::{execute, terminal};
        let fail = |e: std::io::Error| Fail::findings(format!("the terminal: {e}"));
        terminal::enable_raw_mode().map_err(fail)?;
        let mut out = std::io::stdout();
        if let Err(e) = execute!(out, terminal::EnterAlternateScreen) {
            let _ = terminal::disable_raw_mode();
            return Err(fail(e));
        }
        let screen = ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(out))
            .map(Screen)
            .map_err(fail)?;
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            Screen::restore();
            hook(info);
        }));
        Ok(screen)
    }

    fn restore() {
        use ratatui::crossterm::{cursor, execute, terminal};
        let _ = terminal::disable_raw_mode();
        let _ = execute!(
            std::io::stdout(),
            terminal::LeaveAlternateScreen,
            cursor::Show
        );
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        Screen::restore();
    }
}

/// The help text (`?`).
const HELP: &str =
    "q quit | space/p pause | + faster | - slower refresh | s next set | S previous set | ? help";

fn draw(f: &mut ratatui::Frame<'_>, m: &Model) {
    use ratatui::layout::{Constraint, Layout, Rect};
    use ratatui::style::{Modifier, Style};
    use ratatui::text::Line;
    use ratatui::widgets::{Block, Borders, Clear, Paragraph, Row as TRow, Table, Wrap};

    let area = f.area();
    let [head, table, status, errors, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(ERRORS_KEPT as u16),
        Constraint::Length(1),
    ])
    .areas(area);
    f.render_widget(
        Paragraph::new(m.header()).style(Style::new().add_modifier(Modifier::REVERSED)),
        head,
    );
    let name_w = m
        .rows
        .iter()
        .map(|r| r.counter.symbol.len())
        .max()
        .unwrap_or(8)
        .max(7) as u16;
    const BAR: usize = 20;
    let rows = m.rows.iter().map(|r| {
        let v = r.last();
        let top = r.top();
        TRow::new(vec![
            r.counter.symbol.to_string(),
            r.counter.units.to_string(),
            v.map_or_else(|| "-".to_string(), value_text),
            match (v, top) {
                (Some(v), Some(t)) => bar_text(v, t, BAR),
                _ => String::new(),
            },
            spark_text(&r.history, top),
        ])
    });
    let widths = [
        Constraint::Length(name_w),
        Constraint::Length(10),
        Constraint::Length(10),
        Constraint::Length(BAR as u16),
        Constraint::Length(HISTORY as u16),
    ];
    let t = Table::new(rows, widths)
        .header(
            TRow::new(vec!["counter", "unit", "value", "bar", "recent"])
                .style(Style::new().add_modifier(Modifier::BOLD)),
        )
        .column_spacing(1);
    f.render_widget(t, table);
    f.render_widget(Paragraph::new(m.status()), status);
    let lines: Vec<Line<'_>> = if m.errors.is_empty() {
        vec![Line::from("errors: none")]
    } else {
        m.errors
            .iter()
            .map(|e| Line::from(format!("error: {e}")))
            .collect()
    };
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), errors);
    f.render_widget(Paragraph::new(HELP), keys);
    if m.help {
        let w = area.width.min(70);
        let h = 12.min(area.height);
        let r = Rect::new(
            area.x + (area.width - w) / 2,
            area.y + (area.height - h) / 2,
            w,
            h,
        );
        f.render_widget(Clear, r);
        let text = format!(
            "q, Esc     quit\nspace, p   pause (the stream is still read)\n+ / -      refresh faster / slower ({} - {})\ns / S      next / previous metric set of {}\n?          this help\n\nBars: percentages and counters whose maximum is known.\nSparklines: the last {HISTORY} values.",
            ms_text(REFRESH_MIN),
            ms_text(REFRESH_MAX),
            m.part
        );
        f.render_widget(
            Paragraph::new(text).block(Block::new().borders(Borders::ALL).title(" help ")),
            r,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;

    /// `top` as a command of its own.
    #[derive(clap::Parser, Debug)]
    struct Top {
        #[command(flatten)]
        top: TopArgs,
    }

    /// `top ARGS` parsed.
    fn parse(line: &str) -> Result<TopArgs, clap::Error> {
        Top::try_parse_from(std::iter::once("top").chain(line.split_whitespace())).map(|t| t.top)
    }

    /// `top ARGS` as the command line gives them.
    fn args(line: &str) -> TopArgs {
        parse(line).expect("top's arguments")
    }

    /// A stream that runs by itself (as a card's does) is read as it
    /// comes: the emulated TGL's stream, advancing on each read, taken as
    /// a device's; the chosen counters get values, and no pace is said.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_stream_is_read_at_its_own_pace() {
        let a = args("--emulate tgl --metric-set RenderBasic --counters GpuBusy,EuActive");
        let (source, mut model) = a.open(&a.target.metric_set).expect("the emulated stream");
        let Reader::Emulated { reader, .. } = source.reader else {
            panic!("--emulate opens the emulated stream");
        };
        let mut stream = reader.into_inner();
        // 64 reports a read, by itself.
        stream.set_ticks_per_read(64 * model.period_ticks);
        let mut source = Source {
            reader: Reader::Device(Box::new(perfregs_linux::stream::StreamReader::new(
                Box::new(stream),
            ))),
            acc: source.acc,
        };
        model.emulated = false;
        // The first read finds nothing yet (EAGAIN), and time passes.
        source.step(&mut model);
        for _ in 0..3 {
            let before = model.reports;
            source.step(&mut model);
            assert!(
                model.reports > before,
                "each step reads what the stream has"
            );
            source.refresh(&mut model, before, Duration::from_millis(10));
        }
        assert_eq!(model.refreshes, 3);
        assert_eq!(model.pace, 1.0, "a device's stream has no pace of its own");
        let names: Vec<&str> = model.rows.iter().map(|r| r.counter.symbol).collect();
        assert_eq!(names, ["GpuBusy", "EuActive"]);
        for r in &model.rows {
            assert_eq!(r.history.len(), 3, "{}", r.counter.symbol);
        }
        let busy = model.rows[0].last().expect("GpuBusy");
        assert!(busy > 50.0 && busy <= 100.0, "the busy workload: {busy}");
        assert!(model.errors.is_empty(), "{:?}", model.errors);
    }

    #[test]
    fn device_and_emulate_are_exclusive() {
        let a = args("--device card0 --metric-set RenderBasic");
        assert_eq!(a.target.device.as_deref(), Some("card0"));
        assert_eq!(a.target.emulate_only(), None);
        let a = args("--device card0 --metric-set RenderBasic --workload busy");
        assert_eq!(a.target.emulate_only(), Some("--workload"));
        let a = args("--emulate tgl --metric-set RenderBasic --sys /tmp");
        assert_eq!(a.roots.given(), Some("--sys"));
        for line in [
            "--metric-set RenderBasic",
            "--device card0 --emulate tgl --metric-set RenderBasic",
        ] {
            let e = parse(line).expect_err(line);
            assert_eq!(e.exit_code(), 2, "{line}: {e}");
        }
    }

    #[test]
    fn history_is_bounded() {
        let set = perfregs_session::part("tgl", None)
            .and_then(perfregs_session::sets)
            .expect("TGL's sets");
        let c = &set[0].counters[0];
        let mut r = Row::new(c);
        for i in 0..(HISTORY * 3) {
            r.push(i as f64, None);
        }
        assert_eq!(r.history.len(), HISTORY);
        assert_eq!(r.last(), Some((HISTORY * 3 - 1) as f64));
    }

    #[test]
    fn bars_and_sparklines_scale() {
        assert_eq!(bar_text(50.0, 100.0, 4), "██··");
        assert_eq!(bar_text(500.0, 100.0, 2), "██");
        let h: VecDeque<f64> = [0.0, 100.0].into_iter().collect();
        assert_eq!(spark_text(&h, Some(100.0)), "▁█");
        assert_eq!(spark_text(&h, None), "▁█");
    }
}
