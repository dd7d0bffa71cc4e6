//! `perfregs metrics check|list|run`, and the metric-set counters that
//! `perfregs oa-decode --metric-set` adds.
//!
//! Metric-set files (IGT's `lib/i915/perf-configs/` XML) are read and checked
//! with `perfregs_codegen::metrics::load` against the register descriptions
//! (`regdefs/` in the current directory, else the shipped ones); counters are
//! computed with its interpreter. `run` programs a set on the emulator.

use hal::meta::ProjectInfo;
use hal::oa_buffer::{reports_between, ReportDelta};
use hal::ReportFormat;
use perfregs_codegen::metrics::equation::{self, CheckedSet, ExprKind};
use perfregs_codegen::metrics::interp::{self, DeviceInfo, Sample, Value};
use perfregs_codegen::metrics::model::MetricSet;
use perfregs_codegen::metrics::{self, Loaded};
use perfregs_codegen::Ir;
use std::fmt::Write as _;

use super::output::{self, Column, Interval, Series};
use std::path::{Path, PathBuf};

/// A failed command: the exit code and a message for stderr (empty when the
/// details were printed already).
#[derive(Debug)]
pub struct Fail {
    /// Exit code: 2 for bad arguments or unreadable input, 1 for findings.
    pub code: u8,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for Fail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Fail {}

impl Fail {
    /// Bad arguments or unreadable input (exit code 2).
    pub(super) fn usage(message: impl Into<String>) -> Self {
        Fail {
            code: 2,
            message: message.into(),
        }
    }
    /// Findings (exit code 1).
    pub(super) fn findings(message: impl Into<String>) -> Self {
        Fail {
            code: 1,
            message: message.into(),
        }
    }
}

/// A TGL part: which shipped file and which device values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gt {
    /// GT1 (`oa-tglgt1.xml`, 48 EUs).
    Gt1,
    /// GT2 (`oa-tglgt2.xml`, 96 EUs).
    Gt2,
}

impl Gt {
    /// `gt1` / `gt2` in a file name.
    fn of_file(name: &str) -> Option<Gt> {
        let lower = name.to_ascii_lowercase();
        if lower.contains("gt1") {
            Some(Gt::Gt1)
        } else if lower.contains("gt2") {
            Some(Gt::Gt2)
        } else {
            None
        }
    }
    fn label(self) -> &'static str {
        match self {
            Gt::Gt1 => "GT1",
            Gt::Gt2 => "GT2",
        }
    }
    /// The part's number (`DeviceInfo::preset`).
    fn number(self) -> u8 {
        match self {
            Gt::Gt1 => 1,
            Gt::Gt2 => 2,
        }
    }
}

/// The part `list`, `run` and `oa-decode --metric-set` take on `project`
/// when no `--gt1` / `--gt2` names one: GT2 on tgl (the only project with
/// two shipped parts).
const DEFAULT_GT: Gt = Gt::Gt2;

/// The note that says which part was taken by default (stderr).
fn default_part_note(project: &str, choice: &Choice) -> Option<String> {
    (project == "tgl" && choice.gt.is_none() && choice.file.is_none()).then(|| {
        format!(
            "note: tgl {} (the default part; --gt1 for GT1)",
            DEFAULT_GT.label()
        )
    })
}

/// Where the metric sets come from (`--file`, `--gt1` / `--gt2`) and the
/// device values to use instead of the emulated part's (`--device`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choice {
    /// A metric-set file of the user's.
    pub file: Option<PathBuf>,
    /// The TGL part.
    pub gt: Option<Gt>,
    /// `--device NAME=VALUE`: device variables set by hand (for a dump of a
    /// real part), in order; a later one wins.
    pub device: Vec<(equation::DeviceVar, u64)>,
}

/// Parse `--device`'s `NAME=VALUE` (`EuCoresTotalCount=96`, `SliceMask=0x1`;
/// the names are the equations' `$` variables).
pub fn device_override(arg: &str) -> Result<(equation::DeviceVar, u64), String> {
    let names = || {
        equation::DeviceVar::ALL
            .iter()
            .map(|v| v.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (name, value) = arg.split_once('=').ok_or_else(|| {
        format!(
            "--device takes NAME=VALUE, not `{arg}` (names: {})",
            names()
        )
    })?;
    let var = equation::DeviceVar::parse(name.trim_start_matches('$'))
        .ok_or_else(|| format!("--device: no device variable `{name}` (names: {})", names()))?;
    let v = value.replace('_', "");
    let n = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => v.parse::<u64>().ok(),
    }
    .ok_or_else(|| format!("--device {name}: `{value}` is not a number (decimal or 0x hex)"))?;
    Ok((var, n))
}

/// `d` with the `--device` values of `choice` applied.
fn with_overrides(mut d: DeviceInfo, choice: &[(equation::DeviceVar, u64)]) -> DeviceInfo {
    for &(var, v) in choice {
        d.set(var, v);
    }
    d
}

/// One metric-set file to read.
struct MetricText {
    /// Its name in diagnostics and headings.
    name: String,
    text: String,
    gt: Option<Gt>,
}

/// The files `choice` selects for `project` (every shipped file of the
/// project when it names none).
fn texts(project: &str, choice: &Choice) -> Result<Vec<MetricText>, Fail> {
    if choice.gt.is_some() && project != "tgl" {
        return Err(Fail::usage(format!(
            "--gt1 / --gt2 select a TGL part; {project} has one"
        )));
    }
    if let Some(f) = &choice.file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Fail::usage(format!("cannot read {}: {e}", f.display())))?;
        let name = f.display().to_string();
        let gt = choice
            .gt
            .or_else(|| (project == "tgl").then(|| Gt::of_file(&name).unwrap_or(DEFAULT_GT)));
        return Ok(vec![MetricText { name, text, gt }]);
    }
    let all: Vec<MetricText> = perfregs_regdefs::METRIC_SETS
        .iter()
        .filter(|(_, p, _)| *p == project)
        .map(|(f, _, t)| MetricText {
            name: (*f).to_string(),
            text: (*t).to_string(),
            gt: if project == "tgl" {
                Gt::of_file(f)
            } else {
                None
            },
        })
        // Without --gt1 / --gt2: the default part, as `run` takes it.
        .filter(|m| m.gt.is_none() || m.gt == Some(choice.gt.unwrap_or(DEFAULT_GT)))
        .collect();
    if all.is_empty() {
        let mut shipped: Vec<&str> = perfregs_regdefs::METRIC_SETS
            .iter()
            .map(|(_, p, _)| *p)
            .collect();
        shipped.dedup();
        return Err(Fail::usage(format!(
            "no shipped metric sets for {project} (shipped: {}); give a file",
            shipped.join(", ")
        )));
    }
    Ok(all)
}

/// One file for `project`: the chosen one, else the shipped one of the
/// chosen (or default) part.
fn one_text(project: &str, choice: &Choice) -> Result<MetricText, Fail> {
    let mut all = texts(project, choice)?;
    Ok(all.swap_remove(0))
}

/// Compile the descriptions in `dir`.
fn compile(dir: &Path) -> Result<Ir, Fail> {
    perfregs_codegen::compile_path(dir).map_err(|diags| {
        for d in &diags {
            eprintln!("{d}");
        }
        Fail::findings(format!("{} error(s) in {}", diags.len(), dir.display()))
    })
}

/// `metrics::load`, diagnostics to stderr.
fn load(ir: &Ir, project: &str, m: &MetricText) -> Result<Loaded, Fail> {
    metrics::load(ir, project, &m.name, &m.text).map_err(|diags| {
        for d in &diags {
            eprintln!("{d}");
        }
        Fail::findings(format!("{} error(s) in {}", diags.len(), m.name))
    })
}

/// A set of `l` by symbol name (or underscore name), case-insensitive.
fn find_set(l: &Loaded, name: &str, file: &str) -> Result<usize, Fail> {
    l.file
        .sets
        .iter()
        .position(|s| {
            s.symbol_name.eq_ignore_ascii_case(name) || s.underscore_name.eq_ignore_ascii_case(name)
        })
        .ok_or_else(|| {
            let known: Vec<&str> = l.file.sets.iter().map(|s| s.symbol_name.as_str()).collect();
            Fail::usage(format!(
                "no set `{name}` in {file} (sets: {})",
                known.join(", ")
            ))
        })
}

fn writes(set: &MetricSet) -> usize {
    set.configs.iter().map(|c| c.writes.len()).sum()
}

/// `perfregs metrics <check|list|run>`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Check, list and run IGT metric sets",
    subcommand_required = true,
    arg_required_else_help = true
)]
pub struct MetricsArgs {
    /// What to do.
    #[command(subcommand)]
    pub verb: MetricsCommand,
}

/// The verbs of `perfregs metrics`.
#[derive(Debug, clap::Subcommand)]
pub enum MetricsCommand {
    // Check a metric-set file (IGT perf-configs XML).
    #[allow(missing_docs)]
    Check(CheckArgs),
    // The sets of a metric-set file, or one set's counters.
    #[allow(missing_docs)]
    List(ListArgs),
    // Program a set on the emulated part, sample and print its counters.
    #[allow(missing_docs)]
    Run(RunArgs),
}

/// `--gt1` / `--gt2`: the TGL part (file and device values).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Part {
    /// TGL GT1: the shipped oa-tglgt1.xml and GT1's device values (48 EUs).
    #[arg(long, conflicts_with = "gt2")]
    pub gt1: bool,
    /// TGL GT2 (the default): oa-tglgt2.xml and GT2's device values (96 EUs).
    #[arg(long)]
    pub gt2: bool,
}

impl Part {
    /// The part named, if any.
    pub fn gt(&self) -> Option<Gt> {
        match (self.gt1, self.gt2) {
            (true, _) => Some(Gt::Gt1),
            (_, true) => Some(Gt::Gt2),
            _ => None,
        }
    }
}

/// `perfregs metrics check <project> <file.xml>`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Check a metric-set file (IGT perf-configs XML)",
    long_about = "Check a metric-set file (IGT perf-configs XML): its shape, names, equations \
and every register write against the descriptions (regdefs/ in the current directory, else \
the shipped ones). One line per set (counters, writes: against fields, in opaque ranges, \
multicast), then a total; errors located as FILE:LINE:COLUMN, exit code 1."
)]
pub struct CheckArgs {
    /// The project.
    #[arg(value_parser = super::project_parser())]
    pub project: &'static ProjectInfo,
    /// The metric-set file.
    #[arg(value_name = "file.xml")]
    pub file: PathBuf,
    /// The TGL part.
    #[command(flatten)]
    pub part: Part,
}

/// `perfregs metrics list <project> [file.xml] [--gt1|--gt2] [--counters SET]`.
#[derive(Debug, clap::Args)]
#[command(
    about = "The sets of a metric-set file, or one set's counters",
    long_about = "The sets of a metric-set file (default: the shipped file of the project; tgl: \
GT2 unless --gt1, as `run` takes it): symbol, name, counters, register writes, guid. With \
--counters, one set's counters: symbol, units, data type, equation (and availability)."
)]
pub struct ListArgs {
    /// The project.
    #[arg(value_parser = super::project_parser())]
    pub project: &'static ProjectInfo,
    /// A metric-set file instead of the shipped one(s).
    #[arg(value_name = "file.xml")]
    pub file: Option<PathBuf>,
    /// The same as the positional file.
    #[arg(long = "file", value_name = "F.xml", conflicts_with = "file")]
    pub file_option: Option<PathBuf>,
    /// One set's counters (symbol or underscore name, case-insensitive).
    #[arg(long, value_name = "SET")]
    pub counters: Option<String>,
    /// The TGL part.
    #[command(flatten)]
    pub part: Part,
}

/// `perfregs metrics run <project> <SET> [--reports N] ...`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Program a set on the emulated part, sample and print its counters",
    long_about = "Program SET on the emulated part (hsw, bdw, tgl; tgl: GT2 unless --gt1), sample \
N+1 periodic reports (a report every 1024 timestamp ticks) and print every counter per report \
pair, the device values used and the emulator's warnings.\n\n\
Table: one row per counter (symbol, unit), column #k = report k-1 to report k; `-` = \
unavailable (what the reports lack is footnoted); counters whose availability is false on the \
device are named below the table.\n\n\
Device values of the emulated parts: timestamp 12.5 MHz (hsw, bdw), 19.2 MHz (tgl); GPU clock \
8 x timestamp; hsw GT2: 20 EUs, 1 slice, 2 subslices; bdw GT2: 24 EUs, 1 slice, 3 subslices; \
tgl GT2: 96 EUs, 1 slice, 6 dual subslices (GT1: 48 EUs, 3); 7 threads per EU; \
GpuMaxFrequency 1200/1000/1350 MHz, GpuMinFrequency 300 MHz, QueryMode 0 (periodic sampling); \
tgl with --file: GT1 values when --gt1 or the file name says gt1; --device NAME=VALUE sets one \
of them by hand."
)]
pub struct RunArgs {
    /// The project.
    #[arg(value_parser = super::project_parser())]
    pub project: &'static ProjectInfo,
    /// The metric set (symbol or underscore name, case-insensitive).
    pub set: String,
    /// Report pairs to sample (1 to 10000).
    #[arg(long, value_name = "N", default_value = "4", value_parser = report_count)]
    pub reports: usize,
    /// A metric-set file instead of the shipped one.
    #[arg(long, value_name = "F.xml")]
    pub file: Option<PathBuf>,
    /// The TGL part.
    #[command(flatten)]
    pub part: Part,
    /// Write the OA buffer to OUT (input for `perfregs oa-decode`).
    #[arg(long, value_name = "OUT")]
    pub dump: Option<PathBuf>,
    /// A device value by hand (NAME=VALUE: an equation variable, e.g.
    /// EuCoresTotalCount=96, SliceMask=0x1); may repeat, a later one wins.
    #[arg(long, value_name = "NAME=VALUE", value_parser = device_override)]
    pub device: Vec<(equation::DeviceVar, u64)>,
    /// Output format of the counters: table (text); csv, json or perfetto
    /// (a trace the Perfetto UI opens) on stdout, the text around them on
    /// stderr. The table summarises more than 16 report pairs (min, mean,
    /// max per counter).
    #[arg(long, value_enum, default_value_t = output::Format::Table)]
    pub format: output::Format,
}

/// `--reports`: a count from 1 to [`MAX_REPORTS`].
fn report_count(v: &str) -> Result<usize, String> {
    v.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_REPORTS).contains(n))
        .ok_or_else(|| format!("not a count from 1 to {MAX_REPORTS}"))
}

impl MetricsArgs {
    /// Run `metrics <verb>` with the descriptions of `regdefs/` (or the
    /// shipped ones).
    pub fn run(self) -> std::process::ExitCode {
        let dir = super::default_regdefs();
        // Text around a CSV, JSON or trace document goes to stderr.
        let document =
            matches!(&self.verb, MetricsCommand::Run(a) if a.format != output::Format::Table);
        let info = &mut |line: &str| {
            if document {
                eprintln!("{line}");
            } else {
                say!("{line}");
            }
        };
        match self.verb.run(&dir, &mut |line| say!("{line}"), info) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(f) => {
                if !f.message.is_empty() {
                    eprintln!("perfregs: {}", f.message);
                }
                std::process::ExitCode::from(f.code)
            }
        }
    }
}

impl MetricsCommand {
    /// Run the verb with descriptions from `regdefs`, printing the data
    /// (lists, tables, documents) through `out` and the text around it
    /// (headings, device values, warnings) through `info`.
    pub fn run(
        self,
        regdefs: &Path,
        out: &mut dyn FnMut(&str),
        info: &mut dyn FnMut(&str),
    ) -> Result<(), Fail> {
        match self {
            MetricsCommand::Check(a) => {
                let choice = Choice {
                    file: Some(a.file),
                    gt: a.part.gt(),
                    device: Vec::new(),
                };
                let m = one_text(a.project.name, &choice)?;
                let ir = compile(regdefs)?;
                check(a.project, &ir, &m, out)
            }
            MetricsCommand::List(a) => {
                let p = a.project;
                let choice = Choice {
                    file: a.file.or(a.file_option),
                    gt: a.part.gt(),
                    device: Vec::new(),
                };
                if let Some(note) = default_part_note(p.name, &choice) {
                    eprintln!("{note}");
                }
                let files = texts(p.name, &choice)?;
                let ir = compile(regdefs)?;
                list(p, &ir, &files, a.counters.as_deref(), out)
            }
            MetricsCommand::Run(a) => {
                let p = a.project;
                if emulated_device(p.name, None).is_none() {
                    return Err(Fail::usage(format!(
                        "metrics run: no emulated OA part for {} ({})",
                        p.name,
                        emulated_projects()
                    )));
                }
                let choice = Choice {
                    file: a.file.clone(),
                    gt: a.part.gt(),
                    device: a.device.clone(),
                };
                if let Some(note) = default_part_note(p.name, &choice) {
                    eprintln!("{note}");
                }
                let m = one_text(p.name, &choice)?;
                let ir = compile(regdefs)?;
                let e = run(p, &ir, &m, &a, out, info)?;
                if let Some(f) = a.dump {
                    std::fs::write(&f, &e.buffer)
                        .map_err(|e| Fail::usage(format!("cannot write {}: {e}", f.display())))?;
                    info(&format!(
                        "OA buffer ({} bytes, {}) written to {}",
                        e.buffer.len(),
                        e.format,
                        f.display()
                    ));
                }
                if e.samples.len() < a.reports {
                    return Err(Fail::findings(format!(
                        "only {} report pairs, {} asked for",
                        e.samples.len(),
                        a.reports
                    )));
                }
                Ok(())
            }
        }
    }
}

fn check(p: &ProjectInfo, ir: &Ir, m: &MetricText, out: &mut dyn FnMut(&str)) -> Result<(), Fail> {
    let l = load(ir, p.name, m)?;
    let (mut counters, mut total) = (0, metrics::check::SetReport::default());
    for (set, r) in l.file.sets.iter().zip(&l.reports) {
        counters += set.counters.len();
        total.writes += r.writes;
        total.against_fields += r.against_fields;
        total.opaque += r.opaque;
        total.multicast += r.multicast;
        out(&format!(
            "{:<28} {:>3} counters, {:>4} writes: {} against fields, {} in opaque ranges, {} multicast",
            set.symbol_name,
            set.counters.len(),
            r.writes,
            r.against_fields,
            r.opaque,
            r.multicast
        ));
    }
    for (item, e) in &l.checked.errata {
        out(&format!(
            "erratum applied: {item}: {} ({} line {})",
            e.fix.name(),
            metrics::errata::FILE,
            e.line
        ));
    }
    out(&format!(
        "ok: {} on {}: {} sets, {counters} counters, {} writes: {} against fields, {} in opaque ranges, {} multicast; {} equations, {} errata",
        m.name,
        p.name,
        l.file.sets.len(),
        total.writes,
        total.against_fields,
        total.opaque,
        total.multicast,
        l.checked.equations,
        l.checked.errata.len()
    ));
    Ok(())
}

fn list(
    p: &ProjectInfo,
    ir: &Ir,
    files: &[MetricText],
    counters: Option<&str>,
    out: &mut dyn FnMut(&str),
) -> Result<(), Fail> {
    let mut found = false;
    for m in files {
        let l = load(ir, p.name, m)?;
        let part = m.gt.map_or(String::new(), |g| format!(" {}", g.label()));
        if let Some(name) = counters {
            let Ok(i) = find_set(&l, name, &m.name) else {
                continue;
            };
            found = true;
            let set = &l.file.sets[i];
            out(&format!(
                "{}{part}: {} ({}), {} counters",
                m.name,
                set.symbol_name,
                set.name,
                set.counters.len()
            ));
            let w = set
                .counters
                .iter()
                .map(|c| c.symbol_name.len())
                .max()
                .unwrap_or(0);
            for c in &set.counters {
                let avail = c
                    .availability
                    .as_ref()
                    .map_or(String::new(), |a| format!("  [if {}]", a.value));
                out(&format!(
                    "  {:<w$}  {:<10} {:<7}  {}{avail}",
                    c.symbol_name, c.units, c.data_type, c.equation.value
                ));
            }
            continue;
        }
        out(&format!(
            "{}{part} ({}): {} sets",
            m.name,
            p.name,
            l.file.sets.len()
        ));
        for s in &l.file.sets {
            out(&format!(
                "  {:<28} {:<44} {:>3} counters {:>4} writes  {}",
                s.symbol_name,
                s.name,
                s.counters.len(),
                writes(s),
                s.guid
            ));
        }
    }
    match counters {
        Some(name) if !found => Err(Fail::usage(format!(
            "no set `{name}` in {}",
            files
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        _ => Ok(()),
    }
}

/// Largest `--reports`.
const MAX_REPORTS: usize = 10_000;

/// The emulated part of `project` as the metric sets' device variables (the
/// library's preset of the part: `DeviceInfo::preset`; without a GT, the
/// default part's, or the project's only one: `DeviceInfo::preset_or_first`),
/// and its GPU clock in Hz. `None` for a project without a preset.
pub fn emulated_device(project: &str, gt: Option<Gt>) -> Option<(DeviceInfo, u64)> {
    let d = match gt {
        Some(g) => DeviceInfo::preset(project, g.number())?,
        None => DeviceInfo::preset_or_first(project, Some(DEFAULT_GT.number()))?,
    };
    let clocks = perfregs_emu::OaConfig::default().gpu_clocks_per_tick;
    Some((d, d.gpu_timestamp_frequency * clocks))
}

/// The projects with a part to emulate (a preset), comma-separated.
fn emulated_projects() -> String {
    let mut names: Vec<&str> = Vec::new();
    for (p, _, _) in DeviceInfo::PRESETS {
        if !names.contains(p) {
            names.push(p);
        }
    }
    names.join(", ")
}

/// The device values, one line.
fn device_line(d: &DeviceInfo, gpu_clock_hz: Option<u64>) -> String {
    let mut s = format!(
        "device: GpuTimestampFrequency {} Hz",
        d.gpu_timestamp_frequency
    );
    if let Some(c) = gpu_clock_hz {
        let _ = write!(
            s,
            ", GPU clock {c} Hz (emulated: 8 clocks a timestamp tick)"
        );
    }
    let _ = write!(
        s,
        ", EuCoresTotalCount {}, EuSlicesTotalCount {}, EuSubslicesTotalCount {}, EuThreadsCount {}, SliceMask {:#x}, SubsliceMask {:#x}, DualSubsliceMask {:#x}, GpuMaxFrequency {} Hz, GpuMinFrequency {} Hz, QueryMode {}",
        d.eu_cores_total_count,
        d.eu_slices_total_count,
        d.eu_subslices_total_count,
        d.eu_threads_count,
        d.slice_mask,
        d.subslice_mask,
        d.dual_subslice_mask,
        d.gpu_max_frequency,
        d.gpu_min_frequency,
        d.query_mode
    );
    s
}

/// The interpreter's sample for one report pair: A/B/C deltas, GPU_TIME =
/// the timestamp delta, GPU_CLOCK = the GPU_TICKS delta (none on formats
/// without GPU_TICKS, such as HSW's), no PERFCNT.
pub fn sample(d: &ReportDelta) -> Sample {
    Sample::from_delta(d)
}

/// The samples of the consecutive report pairs of `buf` (head 0, tail at its
/// end), at most `pairs` of them.
fn samples<F: ReportFormat>(buf: &[u8], pairs: usize) -> Vec<Sample> {
    let reports: Vec<_> = reports_between::<F>(buf, 0, buf.len())
        .take(pairs.saturating_add(1))
        .collect();
    reports
        .windows(2)
        .map(|w| sample(&ReportDelta::between(&w[0].view(), &w[1].view())))
        .collect()
}

/// Why counter `i` is unavailable on `s`: the reads it lacks and the
/// unavailable counters it uses.
fn missing(set: &MetricSet, checked: &CheckedSet, i: usize, s: &Sample, d: &DeviceInfo) -> String {
    let mut why = Vec::new();
    if let Some(c) = checked.counters.get(i) {
        c.equation.expr.visit(&mut |e| match &e.kind {
            ExprKind::Read(src, n) if s.read(*src, *n).is_none() => {
                why.push(format!("{} {n}", src.as_str()));
            }
            ExprKind::Counter(k) if interp::counter(checked, *k, s, d).is_none() => {
                let name = set.counters.get(*k).map_or("?", |c| c.symbol_name.as_str());
                why.push(format!("${name}"));
            }
            _ => {}
        });
    }
    why.dedup();
    if why.is_empty() {
        "no value".to_string()
    } else {
        format!("needs {}", why.join(", "))
    }
}

/// The counters of `set` available on `d` per sample (interval `#k`: from
/// report k-1 to report k), timed by the samples' timestamp ticks at `d`'s
/// timestamp frequency; the notes say what the samples cannot give (the
/// reads a `-` lacks) and which counters the device does not have.
pub fn series(
    title: String,
    set: &MetricSet,
    checked: &CheckedSet,
    d: &DeviceInfo,
    samples: &[Sample],
) -> Series {
    let (mut unavailable, mut absent) = (Vec::new(), Vec::new());
    // Every counter of each sample, computed once.
    let values: Vec<Vec<Option<Value>>> = samples
        .iter()
        .map(|s| interp::counters(checked, s, d))
        .collect();
    let mut columns = Vec::new();
    let mut kept = Vec::new();
    for (i, c) in set.counters.iter().enumerate() {
        if interp::counter_available(checked, i, d) != Some(true) {
            absent.push(c.symbol_name.as_str());
            continue;
        }
        columns.push(Column::counter(&c.symbol_name, &c.units));
        kept.push(i);
        let gap = samples
            .iter()
            .zip(&values)
            .find(|(_, v)| v.get(i).copied().flatten().is_none());
        if let Some((s, _)) = gap {
            unavailable.push(format!(
                "{}: {}",
                c.symbol_name,
                missing(set, checked, i, s, d)
            ));
        }
    }
    let ns_per_tick =
        (d.gpu_timestamp_frequency > 0).then(|| 1e9 / d.gpu_timestamp_frequency as f64);
    let mut start = Some(0.0);
    let intervals = samples
        .iter()
        .zip(&values)
        .enumerate()
        .map(|(k, (s, v))| {
            let duration = s.gpu_time.zip(ns_per_tick).map(|(t, n)| t as f64 * n);
            let iv = Interval {
                index: k + 1,
                start_ns: start,
                duration_ns: duration,
                values: kept
                    .iter()
                    .map(|&i| v.get(i).copied().flatten().map(Into::into))
                    .collect(),
                flags: Vec::new(),
            };
            start = start.zip(duration).map(|(a, b)| a + b);
            iv
        })
        .collect();
    let mut notes = Vec::new();
    if !unavailable.is_empty() {
        notes.push("- = unavailable: the reports do not carry what the equation reads".to_string());
        notes.extend(unavailable.iter().map(|u| format!("  {u}")));
    }
    if !absent.is_empty() {
        notes.push(format!(
            "not on this device (availability false): {}",
            absent.join(", ")
        ));
    }
    Series {
        title,
        columns,
        intervals,
        notes,
    }
}

/// GGTT address of the OA buffer (16 MiB aligned, as HSW requires).
const BASE: u64 = 0x0100_0000;
/// OA buffer size (16 MiB).
const BUFFER_SIZE: u64 = 16 << 20;
/// Timer exponent: a report every 2^(p+1) = 1024 timestamp ticks.
const PERIOD_EXPONENT: u64 = 9;
/// Timestamp ticks between reports.
const PERIOD: u64 = 1 << (PERIOD_EXPONENT + 1);

/// What a run on the emulator produced.
struct Emulated {
    /// The report format programmed.
    format: &'static str,
    /// The samples, one per report pair.
    samples: Vec<Sample>,
    /// The emulator's warnings.
    warnings: Vec<String>,
    /// The OA buffer from its base to the tail.
    buffer: Vec<u8>,
}

fn run(
    p: &'static ProjectInfo,
    ir: &Ir,
    m: &MetricText,
    a: &RunArgs,
    out: &mut dyn FnMut(&str),
    info: &mut dyn FnMut(&str),
) -> Result<Emulated, Fail> {
    let (set_name, pairs, overrides, format) = (&a.set, a.reports, &a.device, a.format);
    let (device, clock_hz) = emulated_device(p.name, m.gt).ok_or_else(|| {
        Fail::usage(format!(
            "metrics run: no emulated OA part for {} ({})",
            p.name,
            emulated_projects()
        ))
    })?;
    let device = with_overrides(device, overrides);
    let l = load(ir, p.name, m)?;
    let i = find_set(&l, set_name, &m.name)?;
    let (set, checked) = (&l.file.sets[i], &l.checked.sets[i]);
    let mut program = Vec::new();
    let mut skipped = 0;
    for (k, cfg) in set.configs.iter().enumerate() {
        if interp::config_available(checked, k, &device) != Some(true) {
            skipped += cfg.writes.len();
            continue;
        }
        for w in &cfg.writes {
            let v = u32::try_from(w.value).map_err(|_| {
                Fail::usage(format!(
                    "{}:{}:{}: value {:#x} is wider than 32 bits",
                    m.name, w.pos.line, w.pos.column, w.value
                ))
            })?;
            program.push((w.address, v));
        }
    }
    let e = match p.name {
        "hsw" => {
            use hal::hsw::{domains::Render, reports::A45B8C8, PROJECT};
            emulate::<hal::Hsw, Render, A45B8C8>(&PROJECT, &program, pairs)
        }
        "bdw" => {
            use hal::bdw::{domains::Render, reports::A32u40A4u32B8C8, PROJECT};
            emulate::<hal::Bdw, Render, A32u40A4u32B8C8>(&PROJECT, &program, pairs)
        }
        _ => emulate_tgl(&program, pairs),
    }
    .map_err(Fail::findings)?;
    let part = m.gt.map_or(String::new(), |g| format!(" {}", g.label()));
    info(&format!(
        "{}{part} {} ({}) from {}: {} register writes programmed{}, format {}, a report every {PERIOD} timestamp ticks; {} report pairs",
        p.name,
        set.symbol_name,
        set.name,
        m.name,
        program.len(),
        if skipped > 0 {
            format!(" ({skipped} skipped: their availability is false on this device)")
        } else {
            String::new()
        },
        e.format,
        e.samples.len()
    ));
    info(&device_line(&device, Some(clock_hz)));
    info(NO_WORKLOAD);
    let title = format!("{}{part} {} ({})", p.name, set.symbol_name, set.name);
    let series = series(title, set, checked, &device, &e.samples);
    output::print(&series, format, out).map_err(Fail::usage)?;
    info(&format!("emulator warnings: {}", e.warnings.len()));
    for w in &e.warnings {
        info(&format!("  {w}"));
    }
    Ok(e)
}

/// The line `run` prints before the table: the emulator runs no shader
/// work, so rows of zeros are what it measures, not a fault.
pub const NO_WORKLOAD: &str = "workload: none scripted (the emulator runs no shader work): counters of shader events stay 0; clocks, timestamps and what the set's programming derives from them count";

fn emulator(p: &'static ProjectInfo) -> perfregs_emu::Emulator {
    perfregs_emu::Emulator::builder(p, perfregs_emu::Sku::default())
        .with::<perfregs_emu::OaUnit>(perfregs_emu::OaConfig::default())
        .build()
}

/// Ticks to run for `pairs` report pairs (the first report comes within one
/// period of the enable), plus a margin.
fn run_ticks(pairs: usize) -> u64 {
    (pairs as u64 + 2) * PERIOD
}

fn warnings(e: &perfregs_emu::Emulator) -> Vec<String> {
    let mut w: Vec<String> = e.warnings().iter().map(ToString::to_string).collect();
    let dropped = e.counts().warnings_dropped;
    if dropped > 0 {
        w.push(format!("({dropped} more warnings dropped)"));
    }
    w
}

/// Write the set's programming, start periodic sampling of format `F` as a
/// driver does (`start_periodic` of the OA unit), run, and decode the buffer.
fn sample_emulator<F: ReportFormat>(
    e: &mut perfregs_emu::Emulator,
    program: &[(u64, u32)],
    pairs: usize,
) -> Result<Emulated, String> {
    program.iter().for_each(|&(a, v)| e.write32(a, v));
    e.unit_mut::<perfregs_emu::OaUnit>()
        .start_periodic(BASE, BUFFER_SIZE, PERIOD_EXPONENT, F::INFO.select)
        .map_err(|x| x.to_string())?;
    e.advance(run_ticks(pairs));
    let reports = e
        .unit::<perfregs_emu::OaUnit>()
        .stats()
        .map_or(0, |s| s.timer_reports + s.context_reports);
    let used = usize::try_from(reports)
        .ok()
        .and_then(|n| n.checked_mul(F::INFO.size))
        .filter(|&n| n as u64 <= BUFFER_SIZE)
        .ok_or("the run filled the OA buffer")?;
    let buf = e.gpu_mem().read(BASE, used);
    Ok(Emulated {
        format: F::INFO.name,
        samples: samples::<F>(&buf, pairs),
        warnings: warnings(e),
        buffer: buf,
    })
}

/// Run `program` on an emulated `P` device with domain `D` awake (the
/// render domain of HSW and BDW, which holds the whole OA unit) and sample
/// format `F`.
fn emulate<P: hal::Project, D: hal::power::Wakeable<Project = P>, F: ReportFormat>(
    project: &'static ProjectInfo,
    program: &[(u64, u32)],
    pairs: usize,
) -> Result<Emulated, String> {
    let gpu = hal::Device::<P, _>::new(emulator(project));
    let _awake = gpu.forcewake::<D>().map_err(|e| e.to_string())?;
    gpu.with_bus(|e| sample_emulator::<F>(e, program, pairs))
}

fn emulate_tgl(program: &[(u64, u32)], pairs: usize) -> Result<Emulated, String> {
    use hal::{tgl, Device as Gpu};
    let gpu = Gpu::<hal::Tgl, _>::new(emulator(&tgl::PROJECT));
    // The OAG unit is in the GT domain; NOA and FLEX registers in render.
    let _gt = gpu
        .forcewake::<tgl::domains::Gt>()
        .map_err(|e| e.to_string())?;
    let _render = gpu
        .forcewake::<tgl::domains::Render>()
        .map_err(|e| e.to_string())?;
    gpu.with_bus(|e| sample_emulator::<tgl::reports::A32u40A4u32B8C8>(e, program, pairs))
}

/// A metric set chosen for `oa-decode --metric-set`: loaded, with the
/// device values of the emulated part.
pub struct Chosen {
    loaded: Loaded,
    index: usize,
    device: DeviceInfo,
    /// Where the set comes from, for the heading.
    pub heading: String,
}

impl Chosen {
    /// Load set `name` of project `p` from `choice` (the shipped file(s)
    /// when it names none; tgl: GT2 unless `--gt1`).
    pub fn load(
        p: &ProjectInfo,
        regdefs: &Path,
        name: &str,
        choice: &Choice,
    ) -> Result<Chosen, Fail> {
        let m = one_text(p.name, choice)?;
        let ir = compile(regdefs)?;
        let loaded = load(&ir, p.name, &m)?;
        let index = find_set(&loaded, name, &m.name)?;
        let (device, _) = emulated_device(p.name, m.gt).ok_or_else(|| {
            Fail::usage(format!("no device values for {} (hsw, bdw, tgl)", p.name))
        })?;
        let device = with_overrides(device, &choice.device);
        let set = &loaded.file.sets[index];
        let heading = format!(
            "metric set {} ({}) from {}; device values of the emulated part (see `perfregs help`){}:",
            set.symbol_name,
            set.name,
            m.name,
            if choice.device.is_empty() {
                ""
            } else {
                ", with --device"
            }
        );
        Ok(Chosen {
            loaded,
            index,
            device,
            heading,
        })
    }

    /// Print the heading and the device values.
    pub fn describe(&self, info: &mut dyn FnMut(&str)) {
        info(&self.heading);
        info(&format!("  {}", device_line(&self.device, None)));
    }

    /// The set's counters of `samples` (one interval per sample).
    pub fn series(&self, title: String, samples: &[Sample]) -> Series {
        series(
            title,
            &self.loaded.file.sets[self.index],
            &self.loaded.checked.sets[self.index],
            &self.device,
            samples,
        )
    }

    /// The device values the counters are computed with.
    pub fn device(&self) -> &DeviceInfo {
        &self.device
    }

    /// The set's symbol name.
    pub fn symbol(&self) -> &str {
        &self.loaded.file.sets[self.index].symbol_name
    }
}
