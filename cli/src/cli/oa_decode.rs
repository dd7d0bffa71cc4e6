//! `perfregs oa-decode <project> <format> <file>`: the reports of a raw OA
//! buffer dump, one table row per report, with the increments since the
//! previous report.
//!
//! The format is chosen at run time by name and dispatched to the generated
//! typed format through the project's `reports::visit_all`.

use hal::meta::{FormatInfo, ProjectInfo};
use hal::oa_buffer::{available, timestamp32, OaBuffer, ReportDelta, Summary, MAX_REPORT_SIZE};
use hal::{FormatVisitor, Report, ReportFormat};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use super::metrics::{self, Choice, Chosen};
use perfregs_codegen::metrics::equation::DeviceVar;

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
With --metric-set, also SET's counters for each report pair (hsw, bdw, tgl; the shipped file \
unless --metric-file; tgl: GT2 unless --gt1), with the emulated part's device values or, for a \
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
    /// The TGL part of the set and device values.
    #[command(flatten)]
    pub part: metrics::Part,
    /// A device value of the set's equations by hand (NAME=VALUE, e.g.
    /// EuCoresTotalCount=96, SliceMask=0x1); may repeat, a later one wins.
    #[arg(long, value_name = "NAME=VALUE", value_parser = metrics::device_override)]
    pub device: Vec<(DeviceVar, u64)>,
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
    /// The metric-set choice of `--metric-file`, `--gt1` / `--gt2` and
    /// `--device`.
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
                "--metric-file, --gt1, --gt2 and --device go with --metric-set",
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
        match decode(p, format, &self, &mem, chosen.as_ref(), out) {
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
    use hal::{bdw, hsw, ivb, snb, tgl, vlv};
    match name {
        "snb" => snb::reports::visit_all(v),
        "ivb" => ivb::reports::visit_all(v),
        "vlv" => vlv::reports::visit_all(v),
        "hsw" => hsw::reports::visit_all(v),
        "bdw" => bdw::reports::visit_all(v),
        "tgl" => tgl::reports::visit_all(v),
        _ => return false,
    }
    true
}

struct Decoder<'a> {
    project: &'a ProjectInfo,
    format: &'static FormatInfo,
    opts: &'a Options,
    mem: &'a [u8],
    out: &'a mut dyn FnMut(&str),
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

impl Decoder<'_> {
    fn say(&mut self, line: &str) {
        (self.out)(line);
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
        let bytes = available(head, tail, len);
        let buf = OaBuffer::new(self.mem);
        let count = buf.reports::<F>(head, tail).count();
        self.say(&format!(
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
        self.say(&header);

        let mut prev: Option<[u8; MAX_REPORT_SIZE]> = None;
        let mut straddled = 0;
        let mut summary = self.opts.hz.map(Summary::<F>::new);
        let mut samples = Vec::new();
        for (i, br) in buf.reports::<F>(head, tail).enumerate() {
            let r = br.view();
            if let Some(s) = summary.as_mut() {
                s.push(&r);
            }
            let previous = prev.as_ref().and_then(|p| Report::<F>::new(p));
            let d = previous.map(|p| ReportDelta::between(&p, &r));
            if let Some(d) = &d {
                samples.push(metrics::sample(d));
            }
            let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
            let mark = if br.straddles() {
                straddled += 1;
                '*'
            } else {
                ' '
            };
            let mut row = format!(
                "{i:>5}  {:<9}  {:<10}  {:>10}  {:>10}",
                format!("{:#08x}{mark}", br.offset()),
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
            let cells: Vec<String> = match &d {
                None => values
                    .iter()
                    .filter(|(_, v)| self.opts.all || *v != 0)
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect(),
                Some(d) => {
                    let deltas = abc::<F>(|n| d.a(n), |n| d.b(n), |n| d.c(n));
                    values
                        .iter()
                        .zip(&deltas)
                        .filter(|(_, (_, dv))| self.opts.all || *dv != 0)
                        .map(|((n, v), (_, dv))| {
                            if self.opts.all {
                                format!("{n}={v}(+{dv})")
                            } else {
                                format!("{n}+{dv}")
                            }
                        })
                        .collect()
                }
            };
            if !cells.is_empty() {
                row.push_str("  ");
                row.push_str(&cells.join(" "));
            }
            self.say(row.trim_end());
            let mut copy = [0u8; MAX_REPORT_SIZE];
            copy[..size].copy_from_slice(r.bytes());
            prev = Some(copy);
        }
        let partial = bytes - count * size;
        if straddled > 0 {
            self.say(&format!(
                "* {straddled} report(s) straddle the end of the buffer (reassembled)"
            ));
        }
        if partial > 0 {
            self.say(&format!(
                "{partial} trailing byte(s) short of a whole report not decoded"
            ));
        }
        if let Some(s) = summary {
            self.summary(&s);
        }
        if let Some(m) = self.metrics {
            if samples.is_empty() {
                self.say("metric set: no report pairs to compute counters from");
            } else {
                m.print(&samples, self.out);
            }
        }
        Ok(())
    }

    fn summary<F: ReportFormat>(&mut self, s: &Summary<F>) {
        let Some(secs) = s.seconds() else {
            self.say("rates: no elapsed time (need two reports with different timestamps)");
            return;
        };
        self.say(&format!(
            "rates over {secs:.6} s ({} ticks at {} Hz, {} reports):",
            s.ticks().unwrap_or(0),
            s.frequency_hz(),
            s.reports()
        ));
        if let Some(g) = s.gpu_clock_hz() {
            self.say(&format!("  {:<9} {g:.1}/s", "gpu_clock"));
        }
        let t = s.totals();
        for (name, total) in abc::<F>(|n| t.a(n), |n| t.b(n), |n| t.c(n)) {
            if total != 0 || self.opts.all {
                let rate = total as f64 / secs;
                self.say(&format!("  {name:<9} {rate:.1}/s"));
            }
        }
    }
}

/// Decode `mem` (the buffer dump, base at offset 0) as reports of `format`
/// of project `p`, giving each output line to `out`; with `metrics`, also
/// that set's counters per report pair (column `#k`: report k-1 to k). `Err`
/// is a message for an argument that does not fit (head/tail outside the
/// buffer).
pub fn decode(
    p: &ProjectInfo,
    format: &'static FormatInfo,
    opts: &Options,
    mem: &[u8],
    metrics: Option<&Chosen>,
    out: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let mut d = Decoder {
        project: p,
        format,
        opts,
        mem,
        out,
        metrics,
        result: None,
    };
    if !visit_project(p.name, &mut d) {
        return Err(format!("{} has no typed report formats", p.name));
    }
    d.result
        .unwrap_or_else(|| Err(format!("no typed format {} on {}", format.name, p.name)))
}
