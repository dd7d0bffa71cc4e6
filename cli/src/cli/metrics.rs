//! `perfregs metrics check|list|run`, and the metric-set counters that
//! `perfregs oa-decode --metric-set` adds.
//!
//! Metric-set files (IGT's `lib/i915/perf-configs/` XML) are read and checked
//! with `perfregs_codegen::metrics::load` against the register descriptions
//! (`regdefs/` in the current directory, else the shipped ones); counters are
//! computed with its interpreter. `run` programs a set on the emulator.

use hal::meta::ProjectInfo;
use perfregs_codegen::metrics::equation::{self, CheckedSet, ExprKind};
use perfregs_codegen::metrics::interp::{self, DeviceInfo, Sample, Value};
use perfregs_codegen::metrics::model::MetricSet;
use perfregs_codegen::metrics::{self, Loaded};
use perfregs_codegen::Ir;
use std::fmt::Write as _;

use super::output::{self, Column, Row, Series};
pub use super::Fail;
use perfregs_session::Emulated;
use std::path::{Path, PathBuf};

/// A part of a project: its GT number (`--gt N`, `--gt1`, `--gt2`), which
/// picks the shipped file (`oa-sklgt3.xml`) and the device values (the
/// catalogue part's, `hal::part`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gt(pub u8);

impl Gt {
    /// `GT3`.
    fn label(self) -> String {
        format!("GT{}", self.0)
    }
}

/// The GT number a file name gives (`oa-sklgt3.xml`: 3): the digit after
/// the first `gt` of its last path component (a user's file, which no
/// catalogue part claims).
fn gt_in_name(file: &str) -> Option<u8> {
    let name = file
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(file)
        .to_ascii_lowercase();
    let at = name.find("gt")?;
    let digit = name[at + 2..].chars().next()?.to_digit(10)?;
    u8::try_from(digit).ok().filter(|&g| g > 0)
}

/// One shipped metric-set file: (file, text, its GT).
type ShippedFile = (&'static str, &'static str, Option<u8>);

/// The shipped files of `project` (`perfregs_regdefs::METRIC_SETS`) with
/// their GTs.
fn shipped_files(project: &str) -> Vec<ShippedFile> {
    perfregs_regdefs::METRIC_SETS
        .iter()
        .filter(|(_, p, _)| *p == project)
        .map(|(f, p, t)| (*f, *t, file_gt(f, p)))
        .collect()
}

use perfregs_session::{choose_gt, emulated_device, file_gt, part_gts};

/// Whether `project` has several parts (whose names then say the GT).
fn several_parts(project: &str) -> bool {
    part_gts(project).len() > 1
}

/// The note that says which part was taken by default (stderr): on a
/// project with several parts, when neither `--gt` nor `--file` was given.
fn default_part_note(project: &str, choice: &Choice) -> Option<String> {
    if choice.gt.is_some() || choice.file.is_some() || !several_parts(project) {
        return None;
    }
    let chosen = choose_gt(project, None).ok().flatten()?;
    let others: Vec<String> = part_gts(project)
        .into_iter()
        .filter(|&g| g != chosen)
        .map(|g| match g {
            1 | 2 => format!("--gt{g} for GT{g}"),
            _ => format!("--gt {g} for GT{g}"),
        })
        .collect();
    Some(format!(
        "note: {project} GT{chosen} (the default part; {})",
        others.join(", ")
    ))
}

/// Where the metric sets come from (`--file`, `--gt N`) and the device
/// values to use instead of the emulated part's (`--device`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choice {
    /// A metric-set file of the user's.
    pub file: Option<PathBuf>,
    /// The part.
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
    /// The part whose device values go with it.
    gt: Option<u8>,
    /// Whether headings name the part (a project with several parts).
    labelled: bool,
}

impl MetricText {
    /// ` GT2` after the project in headings, on a project with several parts.
    fn part_label(&self) -> String {
        match (self.labelled, self.gt) {
            (true, Some(g)) => format!(" {}", Gt(g).label()),
            _ => String::new(),
        }
    }
}

/// The files `choice` selects for `project`: the user's file (its part:
/// `--gt`, else the GT its name says, else the default part), else the
/// shipped file of the chosen (or default) part.
fn texts(project: &str, choice: &Choice) -> Result<Vec<MetricText>, Fail> {
    let labelled = several_parts(project);
    let chosen = choose_gt(project, choice.gt.map(|g| g.0))?;
    if let Some(f) = &choice.file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Fail::usage(format!("cannot read {}: {e}", f.display())))?;
        let name = f.display().to_string();
        let gts = part_gts(project);
        let gt = match choice.gt {
            Some(_) => chosen,
            None => gt_in_name(&name).filter(|g| gts.contains(g)).or(chosen),
        };
        return Ok(vec![MetricText {
            name,
            text,
            gt,
            labelled,
        }]);
    }
    let all: Vec<MetricText> = shipped_files(project)
        .into_iter()
        .filter(|(_, _, g)| chosen.is_none() || *g == chosen)
        .map(|(f, t, gt)| MetricText {
            name: f.to_string(),
            text: t.to_string(),
            gt,
            labelled,
        })
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

/// The errata of the shipped metric sets (`perfregs_regdefs::METRIC_ERRATA`),
/// parsed once.
fn shipped_errata() -> Result<&'static [metrics::errata::Erratum], Fail> {
    static ERRATA: std::sync::OnceLock<Result<Vec<metrics::errata::Erratum>, String>> =
        std::sync::OnceLock::new();
    ERRATA
        .get_or_init(|| {
            metrics::errata::parse(metrics::errata::FILE, perfregs_regdefs::METRIC_ERRATA)
                .map_err(|d| d.to_string())
        })
        .as_deref()
        .map_err(|e| Fail::findings(e.clone()))
}

/// `metrics::load` with the shipped errata, diagnostics to stderr.
fn load(ir: &Ir, project: &str, m: &MetricText) -> Result<Loaded, Fail> {
    metrics::load(ir, project, &m.name, &m.text, shipped_errata()?).map_err(|diags| {
        for d in &diags {
            eprintln!("{d}");
        }
        Fail::findings(format!("{} error(s) in {}", diags.len(), m.name))
    })
}

/// A set of `l` by name (`perfregs_session::find_name`'s rule).
fn find_set(l: &Loaded, name: &str, file: &str) -> Result<usize, Fail> {
    let sets = l.file.sets.iter();
    perfregs_session::find_name(
        sets.map(|s| (s.symbol_name.as_str(), s.underscore_name.as_str())),
        name,
    )
    .map_err(|e| {
        Fail::usage(format!(
            "no set `{name}` in {file} (sets: {})",
            e.known.join(", ")
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

/// `--gt N` (and its aliases `--gt1`, `--gt2`): the part of the project
/// (its shipped file and device values).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Part {
    /// GT1: the same as --gt 1.
    #[arg(long, conflicts_with_all = ["gt2", "gt"])]
    pub gt1: bool,
    /// GT2: the same as --gt 2 (the default part of a project with several).
    #[arg(long, conflicts_with = "gt")]
    pub gt2: bool,
    /// The part GT N (a project with several parts: the GTs its catalogue
    /// entry gives; a project with one: its part's GT). Default: GT2 on a
    /// project with several parts, the only part on the others.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=9))]
    pub gt: Option<u8>,
}

impl Part {
    /// The part named, if any.
    pub fn gt(&self) -> Option<Gt> {
        match (self.gt1, self.gt2, self.gt) {
            (true, _, _) => Some(Gt(1)),
            (_, true, _) => Some(Gt(2)),
            (_, _, g) => g.map(Gt),
        }
    }
}

/// `perfregs metrics check <project> <file.xml>` or `perfregs metrics check --shipped`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Check a metric-set file (IGT perf-configs XML), or every shipped one",
    long_about = "Check a metric-set file (IGT perf-configs XML): its shape, names, equations \
and every register write against the descriptions (regdefs/ in the current directory, else \
the shipped ones). One line per set (counters, writes: against fields, in opaque ranges, \
multicast), then a total; errors located as FILE:LINE:COLUMN, exit code 1.\n\n\
--shipped (no project, no file): every shipped file against its project, one summary line per \
file (sets, counters, writes: against fields, opaque, multicast; equations; errata applied), \
then a total line; exit code 1 with the located errors if any file fails."
)]
pub struct CheckArgs {
    /// The project.
    #[arg(value_parser = super::project_parser(), required_unless_present = "shipped")]
    pub project: Option<&'static ProjectInfo>,
    /// The metric-set file.
    #[arg(value_name = "file.xml", required_unless_present = "shipped")]
    pub file: Option<PathBuf>,
    /// Check every shipped file against its project.
    #[arg(long, conflicts_with_all = ["project", "file", "gt1", "gt2", "gt"])]
    pub shipped: bool,
    /// The part.
    #[command(flatten)]
    pub part: Part,
}

/// The projects with several parts, each with its GTs (`skl (GT2, GT3,
/// GT4)`), from the catalogue.
pub(crate) fn multi_part_projects() -> String {
    let mut out: Vec<String> = Vec::new();
    for p in hal::PROJECTS {
        let gts = perfregs_session::part_gts(p.name);
        if gts.len() > 1 {
            let gts: Vec<String> = gts.iter().map(|g| format!("GT{g}")).collect();
            out.push(format!("{} ({})", p.name, gts.join(", ")));
        }
    }
    out.join(", ")
}

/// `metrics list`'s long help (the projects with several parts from the catalogue).
fn list_help() -> String {
    format!(
        "The sets of a metric-set file (default: the shipped file of the project; a project with \
several parts ({}): GT{} unless --gt N names another, as `run` takes it): symbol, name, counters, \
register writes, guid. With --counters, one set's counters: symbol, units, data type, equation \
(and availability).",
        multi_part_projects(),
        perfregs_session::DEFAULT_GT
    )
}

/// `metrics run`'s long help: the emulated projects and every part's device
/// values, from the catalogue.
fn run_help() -> String {
    let mut parts = String::new();
    for part in hal::PARTS {
        if !perfregs_session::oa_projects().contains(&part.project) {
            continue;
        }
        let d = &part.device;
        let dual = hal::project(part.project)
            .and_then(|p| p.gpu)
            .is_some_and(|g| g.dual_subslices);
        let mhz = |hz: u64| hz as f64 / 1e6;
        parts.push_str(&format!(
            "\n  {part}: {} EUs, {} slice(s), {} {}, {} threads/EU, timestamp {} MHz, GPU {}-{} MHz",
            d.eu_cores_total_count,
            d.eu_slices_total_count,
            d.eu_subslices_total_count,
            if dual { "dual subslices" } else { "subslices" },
            d.eu_threads_count,
            mhz(d.gpu_timestamp_frequency),
            mhz(d.gpu_min_frequency),
            mhz(d.gpu_max_frequency),
        ));
    }
    format!(
        "Program SET on the emulated part ({}; a project with several parts ({}): GT{} unless \
--gt N names another), sample N+1 periodic reports (a report every 1024 timestamp ticks) and print \
every counter per report pair, the device values used and the emulator's warnings.\n\n\
Table: one row per counter (symbol, unit), column #k = report k-1 to report k; `-` = unavailable \
(what the reports lack is footnoted); counters whose availability is false on the device are named \
below the table.\n\n\
Device values: the catalogue's part (printed on the `device:` line); GPU clock: the part's \
maximum frequency in whole clocks a timestamp tick; \
QueryMode 0 (periodic sampling). The parts:{parts}\n\n\
With --file: the part --gt names, else the one the file name says (gt1, gt3, ...), else the \
default; --device NAME=VALUE sets one of them by hand.",
        perfregs_session::oa_projects().join(", "),
        multi_part_projects(),
        perfregs_session::DEFAULT_GT
    )
}

/// `perfregs metrics list <project> [file.xml] [--gt1|--gt2] [--counters SET]`.
#[derive(Debug, clap::Args)]
#[command(
    about = "The sets of a metric-set file, or one set's counters",
    long_about = list_help()
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
    /// The part.
    #[command(flatten)]
    pub part: Part,
}

/// `perfregs metrics run <project> <SET> [--reports N] ...`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Program a set on the emulated part, sample and print its counters",
    long_about = run_help()
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
    /// The part.
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
    #[arg(long, value_enum, ignore_case = true, default_value_t = output::Format::Table)]
    pub format: output::Format,
    /// Only these counters, computed and printed: comma-separated symbol
    /// or underscore names, any case, with globs `*` and `?`
    /// (`'GpuTime,*Busy'`); each must match one.
    #[arg(long, value_name = "LIST")]
    pub counters: Option<String>,
    /// What the emulated GPU does: a built-in workload (busy, light),
    /// `none` (the A counters stay 0), or a YAML file of one's own
    /// (regdefs/workloads/*.yaml show the shape); default busy.
    #[arg(long, value_name = "NAME|FILE", default_value = perfregs_session::workload::DEFAULT)]
    pub workload: String,
}

/// The workload `arg` names, lowered for `project`'s part with device
/// values `d`: a usage error (exit 2) when it names nothing or its file is
/// malformed.
pub fn workload(
    arg: &str,
    project: &ProjectInfo,
    d: &DeviceInfo,
) -> Result<perfregs_session::workload::Lowered, Fail> {
    perfregs_session::workload::for_part(arg, project, d)
        .map_err(|e| Fail::usage(format!("--workload: {e}")))
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
                let (Some(project), Some(file)) = (a.project, a.file) else {
                    let ir = compile(regdefs)?;
                    return check_shipped(&ir, out);
                };
                let choice = Choice {
                    file: Some(file),
                    gt: a.part.gt(),
                    device: Vec::new(),
                };
                let m = one_text(project.name, &choice)?;
                let ir = compile(regdefs)?;
                check(project, &ir, &m, out)
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

/// What checking one file found: its sets, counters, writes by kind,
/// equations and errata applied.
#[derive(Default)]
struct Checked {
    sets: usize,
    counters: usize,
    writes: metrics::check::SetReport,
    equations: usize,
    errata: usize,
}

impl Checked {
    fn add(&mut self, o: &Checked) {
        self.sets += o.sets;
        self.counters += o.counters;
        self.writes.writes += o.writes.writes;
        self.writes.against_fields += o.writes.against_fields;
        self.writes.opaque += o.writes.opaque;
        self.writes.multicast += o.writes.multicast;
        self.equations += o.equations;
        self.errata += o.errata;
    }

    /// `24 sets, 291 counters, 1234 writes: ...; 300 equations, 0 errata`.
    fn text(&self) -> String {
        format!(
            "{} sets, {} counters, {} writes: {} against fields, {} in opaque ranges, {} multicast; {} equations, {} errata",
            self.sets,
            self.counters,
            self.writes.writes,
            self.writes.against_fields,
            self.writes.opaque,
            self.writes.multicast,
            self.equations,
            self.errata
        )
    }
}

/// Load `m` on `p` and sum what it holds; `per_set` gets each set's line
/// and each erratum applied.
fn check_file(
    p: &str,
    ir: &Ir,
    m: &MetricText,
    per_set: &mut dyn FnMut(&str),
) -> Result<Checked, Fail> {
    let l = load(ir, p, m)?;
    let mut c = Checked {
        sets: l.file.sets.len(),
        equations: l.checked.equations,
        errata: l.checked.errata.len(),
        ..Checked::default()
    };
    for (set, r) in l.file.sets.iter().zip(&l.reports) {
        c.counters += set.counters.len();
        c.writes.writes += r.writes;
        c.writes.against_fields += r.against_fields;
        c.writes.opaque += r.opaque;
        c.writes.multicast += r.multicast;
        per_set(&format!(
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
        per_set(&format!(
            "erratum applied: {item}: {} ({} line {})",
            e.fix.name(),
            metrics::errata::FILE,
            e.line
        ));
    }
    Ok(c)
}

fn check(p: &ProjectInfo, ir: &Ir, m: &MetricText, out: &mut dyn FnMut(&str)) -> Result<(), Fail> {
    let c = check_file(p.name, ir, m, out)?;
    out(&format!("ok: {} on {}: {}", m.name, p.name, c.text()));
    Ok(())
}

/// `check --shipped`: every shipped file against its project, one line
/// each, then the total; a failed file's errors are on stderr, and the
/// command fails once every file was checked.
fn check_shipped(ir: &Ir, out: &mut dyn FnMut(&str)) -> Result<(), Fail> {
    let mut total = Checked::default();
    let mut failed = Vec::new();
    let files = perfregs_regdefs::METRIC_SETS;
    for (file, project, text) in files {
        let m = MetricText {
            name: (*file).to_string(),
            text: (*text).to_string(),
            gt: file_gt(file, project),
            labelled: false,
        };
        match check_file(project, ir, &m, &mut |_| {}) {
            Ok(c) => {
                out(&format!("ok: {file} on {project}: {}", c.text()));
                total.add(&c);
            }
            Err(f) => {
                out(&format!("FAILED: {file} on {project}: {}", f.message));
                failed.push(*file);
            }
        }
    }
    if failed.is_empty() {
        out(&format!(
            "ok: {} shipped files: {}",
            files.len(),
            total.text()
        ));
        Ok(())
    } else {
        Err(Fail::findings(format!(
            "{} of {} shipped files failed: {}",
            failed.len(),
            files.len(),
            failed.join(", ")
        )))
    }
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
        let part = m.part_label();
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

/// The projects `metrics run` emulates (compiled, with an OA unit and a
/// part), comma-separated.
fn emulated_projects() -> String {
    perfregs_session::oa_projects().join(", ")
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
            ", GPU clock {c} Hz (emulated: {} clocks a timestamp tick)",
            c / d.gpu_timestamp_frequency.max(1)
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
    chosen: Option<&[usize]>,
) -> Series {
    let (mut unavailable, mut absent) = (Vec::new(), Vec::new());
    // Every counter (or every chosen one) of each sample, computed once.
    let values: Vec<Vec<Option<Value>>> = samples
        .iter()
        .map(|s| match chosen {
            None => interp::counters(checked, s, d),
            Some(ch) => (0..set.counters.len())
                .map(|i| {
                    ch.contains(&i)
                        .then(|| interp::counter(checked, i, s, d))
                        .flatten()
                })
                .collect(),
        })
        .collect();
    let mut columns = Vec::new();
    let mut kept = Vec::new();
    for (i, c) in set.counters.iter().enumerate() {
        if chosen.is_some_and(|ch| !ch.contains(&i)) {
            continue;
        }
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
            let iv = Row {
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
        rows: intervals,
        notes,
    }
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
    let lowered = workload(&a.workload, p, &device)?;
    let e =
        perfregs_session::sample_emulated_with(p.name, &device, &program, pairs, &lowered.workload)
            .map_err(|e| Fail::findings(e.to_string()))?;
    let part = m.part_label();
    info(&format!(
        "{}{part} {} ({}) from {}: {} register writes programmed{}, format {}, a report every {} timestamp ticks; {} report pairs",
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
        perfregs_session::SAMPLE_PERIOD,
        e.samples.len()
    ));
    info(&device_line(&device, Some(clock_hz)));
    info(&lowered.line);
    let title = format!("{}{part} {} ({})", p.name, set.symbol_name, set.name);
    let chosen = match &a.counters {
        Some(spec) => {
            let names: Vec<(&str, &str)> = set
                .counters
                .iter()
                .map(|c| (c.symbol_name.as_str(), c.underscore_name.as_str()))
                .collect();
            Some(
                perfregs_session::choose_names(&names, spec)
                    .map_err(|e| Fail::usage(format!("--counters: {e} in {}", set.symbol_name)))?,
            )
        }
        None => None,
    };
    let series = series(title, set, checked, &device, &e.samples, chosen.as_deref());
    output::print(&series, format, out).map_err(Fail::usage)?;
    info(&format!("emulator warnings: {}", e.warnings.len()));
    for w in &e.warnings {
        info(&format!("  {w}"));
    }
    Ok(e)
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
    /// Load set `name` of project `p` from `choice` (the shipped file of
    /// the chosen part when it names no file; a project with several parts:
    /// GT2 unless `--gt` names another).
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
            Fail::usage(format!(
                "no device values for {} ({})",
                p.name,
                emulated_projects()
            ))
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
            None,
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
