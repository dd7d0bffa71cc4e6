//! `perfregs oa-decode <project> <format> <file>`: the reports of a raw OA
//! buffer dump, one table row per report, with the increments since the
//! previous report.
//!
//! The format is chosen at run time by name and dispatched to the generated
//! typed format through the project's `reports::visit_all`.

use hal::meta::{FormatInfo, ProjectInfo};
use hal::oa_buffer::{
    available, check_pair, timestamp32, unwritten, InvalidPair, OaBuffer, ReportDelta, Summary,
    Unwritten, MAX_REPORT_SIZE,
};
use hal::{FormatVisitor, Report, ReportFormat};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use super::metrics::{self, Choice, Chosen};
use super::output::{self, Column, Format, Row, Series, Value};
use perfregs_codegen::metrics::equation::DeviceVar;
use perfregs_linux::recording::RecordingFormat;

/// The command line of `oa-decode`.
#[derive(Clone, Debug, clap::Args)]
#[command(
    about = "The reports of a raw OA buffer dump, one row per report",
    long_about = "The reports of a raw OA buffer dump (base at byte 0), from head (default 0) to \
tail (default: the file's length), wrapping when tail < head. One row per report: index, offset \
(* = straddles the end of the buffer, reassembled), RPT_ID, timestamp (low 32 bits), d_ts, \
[CTX_ID], [GPU clock: GPU_TICKS, or C2 on HSW; d_gpu] and the counters: on the first row the \
A/B/C values (`A0=12`), then the non-zero increments since the previous report (`A0+5`, \
wrap-aware).\n\n\
Flagged with `!`, not printed as data, and counted in a summary line: a report that is all zero \
or has a zero timestamp (never written: not decoded, and no increments are taken from it), and a \
pair whose timestamp steps back or whose GPU clock runs faster than any GPU (stale or unwritten \
memory reached through a wrong head or tail: its increments and the set's counters of that pair \
are left out, and the next report starts a new pairing). The check is the one `perfregs report` \
makes (hal::oa_buffer::check_pair).\n\n\
With --metric-set, also SET's counters for each report pair (hsw and the Gen8..Gen12 projects; \
the shipped file unless --metric-file; a project with several parts: GT2 unless --gt N), with the emulated part's device values or, for a \
dump of a real part, --device values (NAME: an equation variable, e.g. EuCoresTotalCount=96, \
SliceMask=0x1). See `perfregs help metrics run` for the emulated parts' values."
)]
pub struct Options {
    /// The project.
    #[arg(value_parser = super::project_parser())]
    pub project: &'static ProjectInfo,
    /// The report format (`perfregs dump <project> --json` lists them;
    /// case-insensitive, `_` and `-` ignored: A45_B8_C8 = a45b8c8).
    #[arg(value_name = "FORMAT")]
    pub format: String,
    /// The buffer dump.
    pub file: PathBuf,
    /// First byte to decode (default 0).
    #[arg(long, value_name = "H", value_parser = super::offset)]
    pub head: Option<usize>,
    /// End of the data (default: the file's length).
    #[arg(long, value_name = "T", value_parser = super::offset)]
    pub tail: Option<usize>,
    /// Every counter of the format on every row, as `A0=17(+5)`.
    #[arg(long)]
    pub all: bool,
    /// Timestamp frequency in Hz: adds rates per second (a summary below
    /// the rows).
    #[arg(long, value_name = "HZ", value_parser = frequency)]
    pub hz: Option<f64>,
    /// Also this metric set's counters per report pair (column #k: report
    /// k-1 to report k).
    #[arg(long, value_name = "SET")]
    pub metric_set: Option<String>,
    /// The set's metric-set file (IGT perf-configs XML) instead of the
    /// shipped one.
    #[arg(long, value_name = "F.xml")]
    pub metric_file: Option<PathBuf>,
    /// The part of the set and device values.
    #[command(flatten)]
    pub part: metrics::Part,
    /// A device value of the set's equations by hand (NAME=VALUE, e.g.
    /// EuCoresTotalCount=96, SliceMask=0x1); may repeat, a later one wins.
    #[arg(long, value_name = "NAME=VALUE", value_parser = metrics::device_override)]
    pub device: Vec<(DeviceVar, u64)>,
    /// Output format: table (the listing, and the set's table); csv, json
    /// or perfetto (a trace the Perfetto UI opens; needs --hz or
    /// --metric-set for the time) on stdout: the set's counters per report
    /// pair with --metric-set (interval k: report k-1 to k), else every
    /// counter's value and increment per report (interval k: report k); the
    /// text around them on stderr.
    #[arg(long = "format", value_name = "F", value_enum, ignore_case = true, default_value_t = Format::Table)]
    pub output: Format,
}

/// `--hz`: a positive, finite frequency (`_` separators allowed).
fn frequency(v: &str) -> Result<f64, String> {
    v.replace('_', "")
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite() && *f > 0.0)
        .ok_or_else(|| "not a positive frequency".to_string())
}

impl Options {
    /// The metric-set choice of `--metric-file`, `--gt N` (`--gt1`,
    /// `--gt2`) and `--device`.
    pub fn metric_choice(&self) -> Choice {
        Choice {
            file: self.metric_file.clone(),
            gt: self.part.gt(),
            device: self.device.clone(),
        }
    }

    /// Run `oa-decode`.
    pub fn run(self) -> ExitCode {
        let p = self.project;
        if self.metric_set.is_none() && self.metric_choice() != Choice::default() {
            return super::usage_error(
                "--metric-file, --gt N (--gt1, --gt2) and --device go with --metric-set",
            );
        }
        let format = match find_format(p, &self.format) {
            Ok(f) => f,
            Err(msg) => return super::usage_error(&msg),
        };
        let mem = match std::fs::read(&self.file) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("perfregs: cannot read {}: {e}", self.file.display());
                return ExitCode::FAILURE;
            }
        };
        if self.head.is_none() {
            if let Some(rec) = RecordingFormat::looks_like_recording(&mem) {
                return super::usage_error(&format!(
                    "{} is a recording (IGT's {} format), not a raw OA buffer dump: use \
                     `perfregs report {}` (or give --head to decode its bytes anyway)",
                    self.file.display(),
                    rec.recorder(),
                    self.file.display()
                ));
            }
        }
        let chosen = match &self.metric_set {
            None => None,
            Some(set) => {
                match Chosen::load(p, &super::default_regdefs(), set, &self.metric_choice()) {
                    Ok(c) => Some(c),
                    Err(f) => {
                        if !f.message.is_empty() {
                            eprintln!("perfregs: {}", f.message);
                        }
                        return ExitCode::from(f.code);
                    }
                }
            }
        };
        let out = &mut |line: &str| say!("{line}");
        let info = &mut |line: &str| eprintln!("{line}");
        match decode(p, format, &self, &mem, chosen.as_ref(), out, info) {
            Ok(()) => ExitCode::SUCCESS,
            Err(msg) => super::usage_error(&msg),
        }
    }
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// The format `name` of `p` (case-insensitive; `_` and `-` ignored, so the
/// type name `A45B8C8` works too). `Err` names the known formats.
pub fn find_format(p: &ProjectInfo, name: &str) -> Result<&'static FormatInfo, String> {
    let want = normalise(name);
    p.formats
        .iter()
        .copied()
        .find(|f| normalise(f.name) == want)
        .ok_or_else(|| {
            let known: Vec<&str> = p.formats.iter().map(|f| f.name).collect();
            format!(
                "no report format `{name}` on {} (known: {})",
                p.name,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )
        })
}

/// Call `v.visit::<F>()` for each report format type of project `name`;
/// false when the project has no generated report formats.
fn visit_project<V: FormatVisitor>(name: &str, v: &mut V) -> bool {
    hal::visit_report_formats(name, v)
}

struct Decoder<'a> {
    project: &'a ProjectInfo,
    format: &'static FormatInfo,
    opts: &'a Options,
    mem: &'a [u8],
    /// The data: the listing and tables, or the CSV / JSON / trace document.
    out: &'a mut dyn FnMut(&str),
    /// The text around a document (stderr); `None`: through `out`.
    info: Option<&'a mut dyn FnMut(&str)>,
    metrics: Option<&'a Chosen>,
    result: Option<Result<(), String>>,
}

impl FormatVisitor for Decoder<'_> {
    fn visit<F: ReportFormat>(&mut self) {
        if self.result.is_none() && F::INFO.name.eq_ignore_ascii_case(self.format.name) {
            self.result = Some(self.run::<F>());
        }
    }
}

/// The counter names of `F`: `A0..`, `B0..`, `C0..`.
fn names<F: ReportFormat>() -> Vec<String> {
    [('A', F::A.len()), ('B', F::B.len()), ('C', F::C.len())]
        .into_iter()
        .flat_map(|(prefix, n)| (0..n).map(move |i| format!("{prefix}{i}")))
        .collect()
}

/// `A0..A63, B0..B7, C0..C7` as `(name, value)` for the counters `F` carries,
/// from per-index accessors.
fn abc<F: ReportFormat>(
    a: impl Fn(usize) -> Option<u64>,
    b: impl Fn(usize) -> Option<u64>,
    c: impl Fn(usize) -> Option<u64>,
) -> Vec<(String, u64)> {
    let mut v = Vec::new();
    for (prefix, n, get) in [
        ('A', F::A.len(), &a as &dyn Fn(usize) -> Option<u64>),
        ('B', F::B.len(), &b),
        ('C', F::C.len(), &c),
    ] {
        for i in 0..n {
            if let Some(x) = get(i) {
                v.push((format!("{prefix}{i}"), x));
            }
        }
    }
    v
}

/// The flag of an all-zero report.
const ZERO_FLAG: &str = "all zero (never written)";

/// The flag of a report whose timestamp is zero (and the rest not).
const ZERO_TS_FLAG: &str = "zero timestamp (never written)";

/// What is wrong with a report pair.
#[derive(Default)]
struct Mark {
    flags: Vec<String>,
    /// Its increments are not data (a timestamp jump).
    void: bool,
}

/// Put `marks` (one per interval) on `s`: the flags, no values and no
/// duration for a void interval, and the start times again (unknown after
/// an interval of unknown duration).
fn apply(s: &mut Series, marks: &[Mark]) {
    for (iv, m) in s.rows.iter_mut().zip(marks) {
        iv.flags.extend(m.flags.iter().cloned());
        if m.void {
            iv.values.iter_mut().for_each(|v| *v = None);
            iv.duration_ns = None;
        }
    }
    let mut t = Some(0.0);
    for iv in &mut s.rows {
        iv.start_ns = t;
        t = t.zip(iv.duration_ns).map(|(a, b)| a + b);
    }
}

impl Decoder<'_> {
    fn say(&mut self, line: &str) {
        (self.out)(line);
    }

    /// Text around the data: on stderr when a document goes to stdout.
    fn note(&mut self, line: &str) {
        match self.info.as_mut() {
            Some(info) => info(line),
            None => (self.out)(line),
        }
    }

    fn run<F: ReportFormat>(&mut self) -> Result<(), String> {
        let size = F::INFO.size;
        let len = self.mem.len();
        let head = self.opts.head.unwrap_or(0);
        let tail = self.opts.tail.unwrap_or(len);
        if head > len || tail > len {
            return Err(format!(
                "head {head:#x} / tail {tail:#x} outside the {len}-byte buffer"
            ));
        }
        if size > MAX_REPORT_SIZE {
            return Err(format!(
                "{size}-byte reports are larger than the decoder handles"
            ));
        }
        let listing = self.opts.output == Format::Table;
        let bytes = available(head, tail, len);
        let buf = OaBuffer::new(self.mem);
        let count = buf.reports::<F>(head, tail).count();
        self.note(&format!(
            "{} {}: {size}-byte reports; buffer {len} bytes, head {head:#x}, tail {tail:#x}: {bytes} bytes, {count} reports",
            self.project.name, F::INFO.name
        ));
        let ctx = F::CTX_ID.is_some();
        let gpu = F::GPU_CLOCK.is_some();
        let mut header = format!(
            "{:>5}  {:<9}  {:<10}  {:>10}  {:>10}",
            "#", "offset", "rpt_id", "timestamp", "d_ts"
        );
        if ctx {
            let _ = write!(header, "  {:<10}", "ctx_id");
        }
        if gpu {
            let _ = write!(header, "  {:>10}  {:>10}", "gpu_clock", "d_gpu");
        }
        header.push_str("  counters");
        if listing {
            self.say(&header);
        }
        // Nanoseconds per timestamp tick: from --hz, else the set's device.
        let ns_per_tick = self.opts.hz.map(|hz| 1e9 / hz).or_else(|| {
            self.metrics
                .map(|m| m.device().gpu_timestamp_frequency)
                .filter(|&f| f > 0)
                .map(|f| 1e9 / f as f64)
        });
        if self.opts.output == Format::Perfetto && ns_per_tick.is_none() {
            return Err(
                "--format perfetto needs the timestamp frequency: --hz HZ or --metric-set SET"
                    .to_string(),
            );
        }
        let counter_names = names::<F>();
        let mut raw = raw_series::<F>(
            format!(
                "{} {} {}",
                self.project.name,
                F::INFO.name,
                self.opts.file.display()
            ),
            &counter_names,
        );

        // The last report that is not all zero: increments are taken from it.
        let mut prev: Option<[u8; MAX_REPORT_SIZE]> = None;
        let (mut straddled, mut zero, mut jumps, mut zeros_since) = (0, 0, 0, 0);
        let (mut zero_ts, mut zero_ts_since, mut clocks) = (0, 0, 0);
        let mut summary = self.opts.hz.map(Summary::<F>::new);
        let (mut samples, mut marks) = (Vec::new(), Vec::new());
        let mut time = Some(0.0);
        for (i, br) in buf.reports::<F>(head, tail).enumerate() {
            let r = br.view();
            let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
            let mark = if br.straddles() {
                straddled += 1;
                '*'
            } else {
                ' '
            };
            let offset = format!("{:#08x}{mark}", br.offset());
            if let Some(u) = unwritten(&r) {
                // Never written: not data, not a base for increments.
                let flag = match u {
                    Unwritten::AllZero => {
                        zero += 1;
                        zeros_since += 1;
                        ZERO_FLAG
                    }
                    Unwritten::ZeroTimestamp => {
                        zero_ts += 1;
                        zero_ts_since += 1;
                        ZERO_TS_FLAG
                    }
                };
                if listing {
                    self.say(&format!("{i:>5}  {offset}  ! {flag}: not decoded"));
                }
                raw.rows.push(Row {
                    index: i,
                    values: vec![None; raw.columns.len()],
                    flags: vec![flag.to_string()],
                    ..Row::default()
                });
                continue;
            }
            if let Some(s) = summary.as_mut() {
                s.push(&r);
            }
            let previous = prev.as_ref().and_then(|p| Report::<F>::new(p));
            // The increments as read (shown even for an invalid pair), and
            // whether they are data.
            let d = previous.map(|p| ReportDelta::between(&p, &r));
            let verdict = previous.map(|p| check_pair(&p, &r));
            let mut m = Mark::default();
            if zeros_since > 0 && d.is_some() {
                m.flags
                    .push(format!("after {zeros_since} all-zero report(s)"));
            }
            if zero_ts_since > 0 && d.is_some() {
                m.flags
                    .push(format!("after {zero_ts_since} zero-timestamp report(s)"));
            }
            (zeros_since, zero_ts_since) = (0, 0);
            let mut dropped = false;
            if let Some(Err(why)) = verdict {
                m.flags.push(match why {
                    InvalidPair::Backward { ticks } => {
                        jumps += 1;
                        format!(
                            "timestamp jump: {ticks} ticks back (stale or unwritten memory, not the next report)"
                        )
                    }
                    InvalidPair::ImpossibleClock { clocks: c, ticks } => {
                        clocks += 1;
                        format!(
                            "impossible GPU clock: {c} clocks in {ticks} ticks (stale or unwritten memory, not the next report)"
                        )
                    }
                    // Unwritten reports are skipped above.
                    other => other.to_string(),
                });
                m.void = true;
                dropped = why.drops_later();
            }
            if let Some(d) = &d {
                samples.push(perfregs_codegen::metrics::interp::Sample::from_delta(d));
            }
            let mut row = format!(
                "{i:>5}  {:<9}  {:<10}  {:>10}  {:>10}",
                offset,
                r.rpt_id().map_or("-".to_string(), |v| format!("{v:#010x}")),
                opt(timestamp32(&r)),
                opt(d.and_then(|d| d.timestamp)),
            );
            if ctx {
                let c = r.ctx_id().map_or("-".to_string(), |v| format!("{v:#010x}"));
                let _ = write!(row, "  {c:<10}");
            }
            if gpu {
                let _ = write!(
                    row,
                    "  {:>10}  {:>10}",
                    opt(r.gpu_clock()),
                    opt(d.and_then(|d| d.gpu_clock))
                );
            }
            let values = abc::<F>(|n| r.a(n), |n| r.b(n), |n| r.c(n));
            let deltas = d.map(|d| abc::<F>(|n| d.a(n), |n| d.b(n), |n| d.c(n)));
            if listing {
                let cells: Vec<String> = match &deltas {
                    None => values
                        .iter()
                        .filter(|(_, v)| self.opts.all || *v != 0)
                        .map(|(n, v)| format!("{n}={v}"))
                        .collect(),
                    Some(deltas) => values
                        .iter()
                        .zip(deltas)
                        .filter(|(_, (_, dv))| self.opts.all || *dv != 0)
                        .map(|((n, v), (_, dv))| {
                            if self.opts.all {
                                format!("{n}={v}(+{dv})")
                            } else {
                                format!("{n}+{dv}")
                            }
                        })
                        .collect(),
                };
                if !cells.is_empty() {
                    row.push_str("  ");
                    row.push_str(&cells.join(" "));
                }
                self.say(row.trim_end());
                for f in &m.flags {
                    self.say(&format!("{:>5}  ! {f}", ""));
                }
            } else {
                // The raw series: one interval per report.
                let delta = |v: Option<u64>| if m.void { None } else { v.map(Value::Int) };
                let duration = d
                    .and_then(|d| d.timestamp)
                    .zip(ns_per_tick)
                    .map(|(t, n)| t as f64 * n)
                    .filter(|_| !m.void);
                let start = if d.is_none() {
                    time
                } else {
                    time.zip(duration).map(|(a, b)| a + b)
                };
                time = start;
                let mut v: Vec<Option<Value>> = vec![
                    Some(Value::Int(br.offset() as u64)),
                    r.rpt_id().map(|x| Value::Int(x.into())),
                    timestamp32(&r).map(Value::Int),
                    delta(d.and_then(|d| d.timestamp)),
                ];
                if ctx {
                    v.push(r.ctx_id().map(|x| Value::Int(x.into())));
                }
                if gpu {
                    v.push(r.gpu_clock().map(Value::Int));
                    v.push(delta(d.and_then(|d| d.gpu_clock)));
                }
                let find = |list: &[(String, u64)], name: &str| {
                    list.iter().find(|(n, _)| n == name).map(|(_, x)| *x)
                };
                for name in &counter_names {
                    v.push(find(&values, name).map(Value::Int));
                    v.push(delta(deltas.as_ref().and_then(|ds| find(ds, name))));
                }
                raw.rows.push(Row {
                    index: i,
                    start_ns: start,
                    duration_ns: duration,
                    values: v,
                    flags: m.flags.clone(),
                });
            }
            if d.is_some() {
                marks.push(m);
            }
            if dropped {
                // Stale: the next report starts a new pairing.
                prev = None;
                continue;
            }
            let mut copy = [0u8; MAX_REPORT_SIZE];
            copy[..size].copy_from_slice(r.bytes());
            prev = Some(copy);
        }
        let mut notes = Vec::new();
        let partial = bytes - count * size;
        if straddled > 0 {
            notes.push(format!(
                "* {straddled} report(s) straddle the end of the buffer (reassembled)"
            ));
        }
        if partial > 0 {
            notes.push(format!(
                "{partial} trailing byte(s) short of a whole report not decoded"
            ));
        }
        if zero + jumps + zero_ts + clocks > 0 {
            let mut line = format!(
                "! flagged: {zero} all-zero report(s) (never written: not decoded, no increments from them), {jumps} timestamp jump(s) (stale or unwritten memory: no increments, no counters)"
            );
            if zero_ts > 0 {
                let _ = write!(
                    line,
                    ", {zero_ts} zero-timestamp report(s) (never written: not decoded, no increments from them)"
                );
            }
            if clocks > 0 {
                let _ = write!(
                    line,
                    ", {clocks} impossible GPU clock(s) (stale or unwritten memory: no increments, no counters)"
                );
            }
            notes.push(line);
        }
        if listing {
            for n in &notes {
                self.say(n);
            }
        }
        if let Some(s) = summary {
            for line in self.summary(&s) {
                self.note(&line);
            }
            if jumps + clocks > 0 {
                self.note("rates: the pairs flagged above are left out of them");
            }
        }
        let mut series = match self.metrics {
            Some(_) if listing && samples.is_empty() => {
                self.say("metric set: no report pairs to compute counters from");
                return Ok(());
            }
            Some(m) => {
                m.describe(&mut |line| self.note(line));
                let title = format!(
                    "{} {} {} {}",
                    self.project.name,
                    m.symbol(),
                    F::INFO.name,
                    self.opts.file.display()
                );
                let mut series = m.series(title, &samples);
                apply(&mut series, &marks);
                series
            }
            None if listing => return Ok(()),
            None => raw,
        };
        if !listing {
            series.notes.extend(notes);
        }
        output::print(&series, self.opts.output, self.out)
    }

    fn summary<F: ReportFormat>(&mut self, s: &Summary<F>) -> Vec<String> {
        let Some(secs) = s.seconds() else {
            if s.invalid_pairs() > 0 {
                return vec![format!(
                    "rates: no valid report pair to take them from ({} invalid pair(s) left out)",
                    s.invalid_pairs()
                )];
            }
            return vec![
                "rates: no elapsed time (need two reports with different timestamps)".to_string(),
            ];
        };
        let mut lines = vec![format!(
            "rates over {secs:.6} s ({} ticks at {} Hz, {} reports):",
            s.ticks().unwrap_or(0),
            s.frequency_hz(),
            s.reports()
        )];
        if let Some(g) = s.gpu_clock_hz() {
            lines.push(format!("  {:<9} {g:.1}/s", "gpu_clock"));
        }
        let t = s.totals();
        for (name, total) in abc::<F>(|n| t.a(n), |n| t.b(n), |n| t.c(n)) {
            if total != 0 || self.opts.all {
                let rate = total as f64 / secs;
                lines.push(format!("  {name:<9} {rate:.1}/s"));
            }
        }
        lines
    }
}

/// The columns of the raw series of format `F`: offset, rpt_id,
/// timestamp, d_ts, [ctx_id], [gpu_clock, d_gpu], then each counter's
/// value and its increment since the previous report (`d_A0`).
fn raw_series<F: ReportFormat>(title: String, counters: &[String]) -> Series {
    let mut columns = vec![
        Column::label("offset", "bytes"),
        Column::label("rpt_id", ""),
        Column::label("timestamp", "ticks"),
        Column::counter("d_ts", "ticks"),
    ];
    if F::CTX_ID.is_some() {
        columns.push(Column::label("ctx_id", ""));
    }
    if F::GPU_CLOCK.is_some() {
        columns.push(Column::label("gpu_clock", "cycles"));
        columns.push(Column::counter("d_gpu", "cycles"));
    }
    for n in counters {
        columns.push(Column::label(n.clone(), "events"));
        columns.push(Column::counter(format!("d_{n}"), "events"));
    }
    Series {
        title,
        columns,
        ..Series::default()
    }
}

/// Decode `mem` (the buffer dump, base at offset 0) as reports of `format`
/// of project `p`, giving each output line to `out`; with `metrics`, also
/// that set's counters per report pair (column `#k`: report k-1 to k).
/// With `--format` other than table, `out` gets the document (the set's
/// counters, else the raw counters per report) and `info` the text around
/// it. `Err` is a message for an argument that does not fit (head/tail
/// outside the buffer, a trace without a timestamp frequency).
pub fn decode(
    p: &ProjectInfo,
    format: &'static FormatInfo,
    opts: &Options,
    mem: &[u8],
    metrics: Option<&Chosen>,
    out: &mut dyn FnMut(&str),
    info: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let mut d = Decoder {
        project: p,
        format,
        opts,
        mem,
        out,
        info: (opts.output != Format::Table).then_some(info),
        metrics,
        result: None,
    };
    if !visit_project(p.name, &mut d) {
        return Err(format!("{} has no typed report formats", p.name));
    }
    d.result
        .unwrap_or_else(|| Err(format!("no typed format {} on {}", format.name, p.name)))
}
