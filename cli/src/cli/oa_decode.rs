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

use super::metrics::{self, Choice, Chosen};

/// The command line of `oa-decode`.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Project tag.
    pub project: String,
    /// Report format name.
    pub format: String,
    /// The buffer dump.
    pub file: PathBuf,
    /// `--head`: first byte to decode (default 0).
    pub head: Option<usize>,
    /// `--tail`: end of the data (default: the file's length).
    pub tail: Option<usize>,
    /// `--all`: every counter of the format on every row.
    pub all: bool,
    /// `--hz`: timestamp frequency, for a rate summary.
    pub hz: Option<f64>,
    /// `--metric-set`: also this set's counters per report pair.
    pub metric_set: Option<String>,
    /// `--metric-file`, `--gt1` / `--gt2`: where the set comes from.
    pub metric_choice: Choice,
}

impl Options {
    /// Parse the arguments after `oa-decode`; `number` parses a decimal / hex
    /// value. `Err` is a usage message.
    pub fn parse(args: &[String], number: fn(&str) -> Option<u64>) -> Result<Self, String> {
        let mut positional = Vec::new();
        let (mut head, mut tail, mut all, mut hz) = (None, None, false, None);
        let (mut metric_set, mut metric_choice) = (None, Choice::default());
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut offset = |flag: &str| -> Result<usize, String> {
                let v = it
                    .next()
                    .ok_or_else(|| format!("{flag} takes a byte offset"))?;
                number(v)
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| format!("{flag}: `{v}` is not an offset (decimal or 0x hex)"))
            };
            match a.as_str() {
                "--head" => head = Some(offset("--head")?),
                "--tail" => tail = Some(offset("--tail")?),
                "--all" => all = true,
                "--metric-set" => {
                    metric_set = Some(it.next().ok_or("--metric-set takes a set name")?.clone());
                }
                "--device" => {
                    let v = it.next().ok_or("--device takes NAME=VALUE")?;
                    metric_choice.device.push(metrics::device_override(v)?);
                }
                "--metric-file" => {
                    let f = it.next().ok_or("--metric-file takes a file")?;
                    metric_choice.file = Some(PathBuf::from(f));
                }
                flag @ ("--gt1" | "--gt2") => {
                    let gt = metrics::gt_flag(flag);
                    if metric_choice.gt.is_some() && metric_choice.gt != gt {
                        return Err("--gt1 and --gt2 exclude each other".to_string());
                    }
                    metric_choice.gt = gt;
                }
                "--hz" => {
                    let v = it.next().ok_or("--hz takes a frequency in Hz")?;
                    let f = v
                        .replace('_', "")
                        .parse::<f64>()
                        .ok()
                        .filter(|f| f.is_finite() && *f > 0.0)
                        .ok_or_else(|| format!("--hz: `{v}` is not a positive frequency"))?;
                    hz = Some(f);
                }
                flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
                _ => positional.push(a.clone()),
            }
        }
        let [project, format, file] = <[String; 3]>::try_from(positional)
            .map_err(|_| "oa-decode takes <project> <format> <file>".to_string())?;
        Ok(Options {
            project,
            format,
            file: PathBuf::from(file),
            head,
            tail,
            all,
            hz,
            metric_set,
            metric_choice,
        })
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
