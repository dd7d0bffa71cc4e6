//! `perfregs report FILE.record`: the counters of a recording in IGT's
//! `i915-perf-recorder` or `xe-perf-recorder` format (ours or IGT's), per
//! interval, with units.
//!
//! What is taken from where:
//! - driver: the first record's type (i915's metadata types 65536-65539,
//!   xe's 4-7, [`RecordingFormat::detect`]); the header and the document's
//!   notes say it, with the engine class and instance of DEVICE_INFO (xe:
//!   the OA unit they belong to) and the recorded OA format;
//! - project and GT: DEVICE_INFO's PCI id (its low 16 bits, as IGT's reader
//!   takes it) through the device table (`hal::device`);
//! - report layout: DEVICE_INFO's `oa_format` (`I915_OA_FORMAT_*`; xe: IGT's
//!   xe format number, whose layout name and size are looked for) among the
//!   project's typed formats ([`formats`]);
//! - metric set: DEVICE_INFO's set name, matched against the symbol names of
//!   the project's shipped sets, as IGT's reader does (`--metric-set`
//!   overrides it);
//! - device values: DEVICE_TOPOLOGY (slices, subslices, EUs), the timestamp
//!   frequency and GPU frequencies of DEVICE_INFO; what neither gives (threads
//!   per EU, frequencies not recorded) comes from the part's preset, and the
//!   header says so.
//!
//! Intervals: `--interval TIME` (default 10 ms, laid from the first report;
//! an interval closes at the first report at or past its end) or
//! `--reports N` (every N report pairs). Losses (`OA_REPORT_LOST`,
//! `OA_BUFFER_LOST`) end the pairing and are counted in the interval they
//! fall in: a label column each, a flag, and a summary note. Invalid report
//! pairs (`hal::oa_buffer::check_pair`: a report never written, a timestamp
//! stepping back, an impossible GPU clock) end the pairing too and never
//! enter a counter: a flag and a summary note; a recording without one
//! valid pair prints no interval and exits 1. A damaged
//! recording is reported up to the damage, then the error (byte offset and
//! record index) on stderr and exit code 1.

use super::output::{self, Column, Format, Row, Series, Value};
use super::Fail;
use hal::meta::DeviceId;
use perfregs_linux::discovery::{device_values, GtFrequencies, Topology};
use perfregs_linux::recording::{RecordedDevice, RecordingFormat};
use perfregs_linux::xe_recording::{self, engine_class};
use perfregs_metrics::intervals::{Interval, InvalidPairs, Window};
use perfregs_metrics::{DeviceInfo, SetInfo};
pub use perfregs_session::{formats, sets_of as sets, Accumulate, Format as TypedFormat};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::num::{NonZeroU32, NonZeroU64};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

/// `perfregs report`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Counters per interval from an IGT-format recording",
    long_about = "Read a recording in IGT's i915-perf-recorder or xe-perf-recorder format (made by \
`perfregs record` or by IGT; which one, and so the driver, is told by the first record's type) and \
print the counters of its metric set per interval, with units.\n\n\
The project and GT come from the recorded PCI id, the report layout from the recorded OA format, \
the metric set from the recorded set name (its symbol name, as IGT's reader finds it; \
--metric-set overrides it), the device values from the recorded topology and timestamp \
frequency (values the recording does not hold come from the part's preset, and the header \
says which).\n\n\
Intervals: --interval TIME (default 10ms; units ns, us, ms, s) lays time windows from the first \
report, an interval closing at the first report at or past its end; --reports N sums every N \
report pairs. Losses (OA_REPORT_LOST, OA_BUFFER_LOST records) end the pairing: the report after a \
loss is not paired with the one before it; each interval counts its losses (columns \
reports_lost, buffers_lost, and a flag) and a note sums them. Invalid report pairs (a report never \
written: all zero or a zero timestamp; a timestamp stepping back; more GPU clocks than the time \
between the reports allows: stale or unwritten memory) end the pairing too and never enter a \
counter: each interval flags them and a note (\"invalid report pairs: N ...\") sums them; the \
pairs column counts the valid pairs.\n\n\
Table: the header above the counters on stdout; with csv, json or perfetto only the document is \
on stdout and the header on stderr. A truncated or corrupt recording: the intervals read before \
the damage are printed, then the error with its byte offset and record index on stderr, exit \
code 1. A recording without one valid report pair (all zero, say) prints no interval, the \
summary and the reason on stderr, exit code 1; some invalid pairs among valid ones are flagged, \
exit code 0. Exit code 2: bad arguments, an unreadable file, or a file that is not a recording (a raw OA \
buffer dump: `perfregs oa-decode` reads those)."
)]
pub struct ReportArgs {
    /// The recording.
    #[arg(value_name = "FILE.record")]
    pub file: PathBuf,
    /// Interval length (10ms, 500us, 1s, 2000000ns; default 10ms).
    #[arg(long, value_name = "TIME", value_parser = duration_ns, conflicts_with = "reports")]
    pub interval: Option<NonZeroU64>,
    /// Sum every N report pairs into an interval instead of time windows.
    #[arg(long, value_name = "N", value_parser = report_count::<NonZeroU32>)]
    pub reports: Option<NonZeroU32>,
    /// Output format: table (text), csv, json, or perfetto (a Chrome /
    /// Perfetto JSON trace, one counter track per metric).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Table)]
    pub format: Format,
    /// The metric set (symbol or underscore name, case-insensitive) instead
    /// of the recorded one.
    #[arg(long, value_name = "SET")]
    pub metric_set: Option<String>,
    /// Only these counters, computed and printed (the others are not
    /// computed): comma-separated symbol or underscore names, any case,
    /// with globs `*` and `?` (`'GpuTime,*Busy'`); each must match one.
    #[arg(long, value_name = "LIST")]
    pub counters: Option<String>,
    /// Only the reports of this context (their CTX_ID field: the context's
    /// hardware id, decimal or 0x hex) enter the intervals; formats with a
    /// CTX_ID field only (Gen8 and later).
    #[arg(long, value_name = "ID", value_parser = super::record::context_id)]
    pub context: Option<u32>,
}

/// The default interval: 10 ms.
pub const DEFAULT_INTERVAL_NS: u64 = 10_000_000;

/// `--interval`: a whole number with a unit (`ns`, `us`, `µs`, `ms`, `s`),
/// in ns, at least 1.
pub fn duration_ns(text: &str) -> Result<NonZeroU64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let scale: u64 = match unit.trim() {
        "ns" => 1,
        "us" | "µs" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        _ => return Err("a time with a unit: 10ms, 500us, 1s, 2000000ns".to_string()),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .and_then(NonZeroU64::new)
        .ok_or_else(|| format!("`{t}` is not a time of at least 1 ns that fits 64 bits"))
}

/// `--reports`: a whole number of reports, at least 1, as any non-zero
/// integer type (`NonZeroU32`, `NonZeroU64`); clap's own message for 0
/// would be Rust's "number would be zero for non-zero type".
pub fn report_count<T: TryFrom<NonZeroU64>>(text: &str) -> Result<T, String> {
    let n: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number of reports (at least 1)"))?;
    let n = NonZeroU64::new(n).ok_or("at least 1")?;
    T::try_from(n).map_err(|_| format!("{n} is more reports than this option counts"))
}

/// The set named `name` in `all` (the sets of `part`;
/// `perfregs_session::find_set`'s rule), else the message naming close
/// names and how to list the sets.
pub(super) fn find_set(
    all: &'static [perfregs_metrics::SetInfo],
    name: &str,
    part: &str,
) -> Result<&'static perfregs_metrics::SetInfo, String> {
    perfregs_session::find_set(all, name).map_err(|e| {
        let perfregs_session::Error::NoSet(e) = e else {
            return e.to_string();
        };
        let hint = match &e.close[..] {
            [] => String::new(),
            close => format!(" (did you mean {}?)", close.join(", ")),
        };
        format!(
            "no metric set `{name}` among the {} sets of {part}{hint}; `perfregs metrics list {}` lists them",
            e.known.len(),
            part.split(' ').next().unwrap_or(part)
        )
    })
}

/// GPU frequencies of DEVICE_INFO: IGT's recorder writes Hz; a value under
/// 1 MHz is taken as MHz. `None` when either is 0 (not recorded).
fn recorded_frequencies(d: &RecordedDevice) -> Option<GtFrequencies> {
    let mhz = |v: u32| {
        let v = u64::from(v);
        if v >= 1_000_000 {
            v / 1_000_000
        } else {
            v
        }
    };
    (d.gt_min_frequency != 0 && d.gt_max_frequency != 0).then(|| GtFrequencies {
        min_mhz: mhz(d.gt_min_frequency),
        max_mhz: mhz(d.gt_max_frequency),
    })
}

/// The engine of DEVICE_INFO as the header says it (`render 0`).
fn engine_text(d: &RecordedDevice) -> String {
    let class = engine_class::name(d.engine_class)
        .map(str::to_ascii_lowercase)
        .unwrap_or_else(|| format!("class {}", d.engine_class));
    format!("{class} {}", d.engine_instance)
}

/// Where the recording came from: the driver, the engine (xe: and its OA
/// unit) and the recorded format, in that driver's numbering.
fn origin_text(rec: RecordingFormat, d: &RecordedDevice) -> String {
    match rec {
        RecordingFormat::I915 => format!(
            "recorded under i915 (IGT's i915-perf-recorder format): engine {}, OA format {} (I915_OA_FORMAT numbering)",
            engine_text(d),
            d.oa_format
        ),
        RecordingFormat::Xe => format!(
            "recorded under xe (IGT's xe-perf-recorder format): OA unit {} (engine {}), OA format {}",
            xe_recording::unit_of_engine_class(d.engine_class),
            engine_text(d),
            xe_recording::by_igt(d.oa_format).map_or_else(
                || format!("{} (not in IGT's xe numbering)", d.oa_format),
                |f| format!("{f}, IGT's xe numbering")
            )
        ),
    }
}

/// Everything the recording's header decides.
struct Setup {
    id: &'static DeviceId,
    format: TypedFormat,
    set: &'static SetInfo,
    device: DeviceInfo,
    window: Window,
    /// Header lines (device, format, set, values, intervals).
    header: Vec<String>,
    /// Where the recording came from ([`origin_text`]).
    origin: String,
    /// The counters `--counters` chose (none: every counter of the set).
    chosen: Option<Vec<&'static perfregs_metrics::CounterInfo>>,
    /// Reports per CTX_ID (formats with the field), filled while reading.
    contexts: Option<Rc<RefCell<BTreeMap<u32, u64>>>>,
}

/// The accumulator behind `--context` and the per-context counts: every
/// report's CTX_ID is counted; with `keep`, only that context's reports
/// reach `inner`.
struct Contexts {
    inner: Box<dyn perfregs_session::Accumulate>,
    /// The report size and the CTX_ID field's byte offset.
    size: usize,
    offset: usize,
    keep: Option<u32>,
    seen: Rc<RefCell<BTreeMap<u32, u64>>>,
}

impl perfregs_session::Accumulate for Contexts {
    fn push(&mut self, report: &[u8]) -> Option<Option<Interval>> {
        let ctx = report
            .get(self.offset..self.offset + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))?;
        *self.seen.borrow_mut().entry(ctx).or_insert(0) += 1;
        match self.keep {
            // Another context's report: not one of ours, not an error.
            Some(k) if k != ctx => (report.len() == self.size).then_some(None),
            _ => self.inner.push(report),
        }
    }
    fn report_lost(&mut self) {
        self.inner.report_lost();
    }
    fn buffer_lost(&mut self) {
        self.inner.buffer_lost();
    }
    fn finish(&mut self) -> Option<Interval> {
        self.inner.finish()
    }
}

fn setup(
    d: &RecordedDevice,
    topology: &[u8],
    rec: RecordingFormat,
    args_set: Option<&str>,
    interval_ns: Option<NonZeroU64>,
    reports: Option<NonZeroU32>,
) -> Result<Setup, Fail> {
    let pci_id = (d.device_id & 0xFFFF) as u16;
    let id = hal::device(pci_id).ok_or_else(|| {
        Fail::findings(format!(
            "the recorded PCI id {pci_id:#06x} is not in perfregs' device table (regdefs/devices.yaml, from the kernel's i915_pciids.h)"
        ))
    })?;
    let project = id.project.ok_or_else(|| {
        Fail::findings(format!(
            "the recording is of {id}: platform not described yet (no OA registers or metric sets in regdefs/)"
        ))
    })?;
    // i915 numbers its formats; an xe recording may be of any layout a
    // driver numbers (the xe-only parts' PEC64u64, the media units' MPEC).
    let all = match rec {
        RecordingFormat::I915 => formats(project),
        RecordingFormat::Xe => perfregs_session::layouts(project),
    };
    if perfregs_linux::discovery::access::no_oa_stream(project) {
        return Err(Fail::findings(format!(
            "the recording is of {id}: it has no OA stream under Linux (the catalogue gives it no OA unit), so no i915 perf recording of one can be read"
        )));
    }
    if all.is_empty() {
        return Err(Fail::findings(format!(
            "the recording is of {id} (project {project}): no typed report path for {project} yet (report reads {})",
            perfregs_session::oa_projects().join(", ")
        )));
    }
    let format = match rec {
        RecordingFormat::I915 => all.iter().find(|f| f.id == d.oa_format).copied(),
        // IGT's xe number names a layout; the project's typed format of that
        // layout and size reads it.
        RecordingFormat::Xe => xe_recording::by_igt(d.oa_format).and_then(|x| {
            all.iter()
                .find(|f| f.name.eq_ignore_ascii_case(x.layout) && f.size == x.size)
                .copied()
        }),
    }
    .ok_or_else(|| {
        let known = all
            .iter()
            .map(|f| format!("{} {}", f.id, f.name))
            .collect::<Vec<_>>()
            .join(", ");
        match rec {
            RecordingFormat::I915 => Fail::findings(format!(
                "OA format {} is not one {project} describes (i915 ids: {known})",
                d.oa_format
            )),
            RecordingFormat::Xe => Fail::findings(format!(
                "xe OA format {} is not one {project} describes ({}; {project}'s layouts: {known})",
                d.oa_format,
                xe_recording::by_igt(d.oa_format).map_or_else(
                    || "not in IGT's xe numbering".to_string(),
                    |f| f.to_string()
                )
            )),
        }
    })?;
    if rec.report_size(d.oa_format) != Some(format.size) {
        return Err(Fail::findings(format!(
            "OA format {} ({}): the recording's report size {:?} is not the layout's {} bytes",
            d.oa_format,
            format.name,
            rec.report_size(d.oa_format),
            format.size
        )));
    }
    let (sets, part, gt_note) = sets(project, id.gt).ok_or_else(|| {
        Fail::findings(format!(
            "the recording is of {id} (project {project}): no metric sets are shipped for {project}"
        ))
    })?;
    let wanted = args_set.unwrap_or(&d.metric_set_name);
    if wanted.is_empty() {
        return Err(Fail::findings(
            "the recording names no metric set: give one with --metric-set",
        ));
    }
    let set = find_set(sets, wanted, &part).map_err(|m| {
        let m = format!("{m}, --metric-set picks one");
        if args_set.is_some() {
            Fail::usage(m)
        } else {
            Fail::findings(format!("the recorded set: {m}"))
        }
    })?;

    let mut header = Vec::new();
    let origin = origin_text(rec, d);
    header.push(origin.clone());
    header.push(format!(
        "device: {id} rev {:#04x}, project {part}; OA format {} ({}, {} bytes); metric set {} ({}{})",
        d.device_revision,
        d.oa_format,
        format.name,
        format.size,
        set.symbol,
        set.name,
        if args_set.is_some() {
            format!(", --metric-set; recorded: `{}`", d.metric_set_name)
        } else {
            String::new()
        }
    ));
    if !d.metric_set_uuid.is_empty() && !d.metric_set_uuid.eq_ignore_ascii_case(set.guid) {
        header.push(format!(
            "note: the recorded set uuid {} is not {}'s {} (the set is found by name, as IGT's reader does)",
            d.metric_set_uuid, set.symbol, set.guid
        ));
    }
    if let Some(n) = gt_note {
        header.push(format!("note: {n}"));
    }

    // Device values.
    let preset = hal::part_or_first(project, id.gt).map(|p| p.device);
    let mut ts = d.timestamp_frequency;
    if ts == 0 {
        let p = preset.map_or(0, |p| p.gpu_timestamp_frequency);
        if p == 0 {
            return Err(Fail::findings(
                "the recorded timestamp frequency is 0 and no preset of the part gives one",
            ));
        }
        header.push(format!(
            "note: the recorded timestamp frequency is 0: the preset's {p} Hz is used"
        ));
        ts = p;
    }
    let frequencies = recorded_frequencies(d);
    let device = match Topology::parse(topology)
        .map_err(|e| e.to_string())
        .and_then(|t| device_values(&t, project, id.gt, ts, frequencies).map_err(|e| e.to_string()))
    {
        Ok(v) => {
            let names: Vec<&str> = v.from_preset.iter().map(|x| x.name()).collect();
            header.push(format!(
                "device values: {} (timestamp frequency from DEVICE_INFO, topology from DEVICE_TOPOLOGY{}; from the {part} preset: {})",
                values_text(&v.info),
                if frequencies.is_some() {
                    ", GPU frequencies from DEVICE_INFO"
                } else {
                    ""
                },
                names.join(", ")
            ));
            v.info
        }
        Err(why) => {
            let Some(mut p) = preset else {
                return Err(Fail::findings(format!(
                    "DEVICE_TOPOLOGY is unusable ({why}) and {project} has no preset"
                )));
            };
            p.gpu_timestamp_frequency = ts;
            if let Some(f) = frequencies {
                p.gpu_min_frequency = f.min_mhz * 1_000_000;
                p.gpu_max_frequency = f.max_mhz * 1_000_000;
            }
            header.push(format!(
                "device values: {} (DEVICE_TOPOLOGY unusable: {why}; everything but the timestamp frequency{} from the {part} preset)",
                values_text(&p),
                if frequencies.is_some() { " and GPU frequencies" } else { "" }
            ));
            p
        }
    };

    let window = match (reports, interval_ns) {
        (Some(n), _) => {
            header.push(format!("intervals: every {n} report pair(s) (--reports)"));
            Window::Pairs(n)
        }
        (None, given) => {
            let ns = given.map_or(DEFAULT_INTERVAL_NS, NonZeroU64::get);
            let ticks = u128::from(ns) * u128::from(device.gpu_timestamp_frequency) / 1_000_000_000;
            let ticks = u64::try_from(ticks)
                .ok()
                .and_then(NonZeroU64::new)
                .ok_or_else(|| {
                    Fail::usage(format!(
                        "--interval {ns} ns is less than one timestamp tick at {} Hz (or too long)",
                        device.gpu_timestamp_frequency
                    ))
                })?;
            header.push(format!(
                "intervals: {} windows ({ticks} timestamp ticks){}",
                ns_text(ns),
                if given.is_none() {
                    " (the default; --interval or --reports to change)"
                } else {
                    ""
                }
            ));
            Window::Ticks(ticks)
        }
    };
    Ok(Setup {
        id,
        format,
        set,
        device,
        window,
        header,
        origin,
        chosen: None,
        contexts: None,
    })
}

fn ns_text(ns: u64) -> String {
    for (unit, scale) in [("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)] {
        if ns % scale == 0 {
            return format!("{}{unit}", ns / scale);
        }
    }
    format!("{ns}ns")
}

/// The note when time windows of `window` ticks (`interval_ns` asked for)
/// are shorter than the recording's report period (estimated from
/// `intervals`: the ticks their pairs span over the pairs), so that each
/// interval holds one pair.
fn short_window_note(
    intervals: &[Interval],
    window: Window,
    hz: u64,
    interval_ns: u64,
) -> Option<String> {
    let Window::Ticks(window) = window else {
        return None;
    };
    let pairs: u64 = intervals.iter().map(|i| u64::from(i.pairs)).sum();
    let first = intervals.iter().find_map(|i| i.start)?;
    let last = intervals.iter().rev().find_map(|i| i.end)?;
    let period = last.checked_sub(first)?.checked_div(pairs)?;
    if window.get() >= period || hz == 0 {
        return None;
    }
    let us = period as f64 * 1e6 / hz as f64;
    Some(format!(
        "note: the interval ({}, {window} timestamp ticks) is shorter than the recording's \
         report period (about {us:.2}us, {period} ticks), so each interval holds one report \
         pair: --interval of at least the period, or --reports N, sums several",
        ns_text(interval_ns)
    ))
}

fn values_text(d: &DeviceInfo) -> String {
    use perfregs_metrics::rt::DeviceVar as V;
    [
        V::GpuTimestampFrequency,
        V::EuCoresTotalCount,
        V::EuSlicesTotalCount,
        V::EuSubslicesTotalCount,
        V::EuThreadsCount,
        V::SliceMask,
        V::SubsliceMask,
        V::GpuMinFrequency,
        V::GpuMaxFrequency,
    ]
    .iter()
    .map(|v| {
        let x = d.get(*v);
        if matches!(v, V::SliceMask | V::SubsliceMask) {
            format!("{} {x:#x}", v.name())
        } else if matches!(
            v,
            V::GpuTimestampFrequency | V::GpuMinFrequency | V::GpuMaxFrequency
        ) {
            format!("{} {x} Hz", v.name())
        } else {
            format!("{} {x}", v.name())
        }
    })
    .collect::<Vec<_>>()
    .join(", ")
}

/// What `report` read (`perfregs_session::read_recording`).
type Read = perfregs_session::Recording<Setup>;

/// Read `src`, a recording in format `rec`, to its end or its first error.
fn read(
    src: impl std::io::Read,
    rec: RecordingFormat,
    args: &ReportArgs,
    interval_ns: Option<NonZeroU64>,
) -> Result<Read, Fail> {
    perfregs_session::read_recording(src, |d, t| {
        let mut s = setup(
            d,
            t,
            rec,
            args.metric_set.as_deref(),
            interval_ns,
            args.reports,
        )?;
        if let Some(spec) = &args.counters {
            let chosen = perfregs_session::choose_counters(s.set.counters, spec)
                .map_err(|e| Fail::usage(format!("--counters: {e} in {}", s.set.symbol)))?;
            s.header.push(format!(
                "counters: {} of the set's {} (--counters)",
                chosen.len(),
                s.set.counters.len()
            ));
            s.chosen = Some(chosen);
        }
        // Chosen counters: only what they read is accumulated per pair.
        let reads = s
            .chosen
            .as_ref()
            .map(|c| perfregs_metrics::reads_of(c.iter().copied()));
        let a = s.format.intervals_reading(s.window, reads);
        // The CTX_ID field of the recorded layout, where it has one.
        let ctx_slot =
            s.id.project
                .and_then(hal::project)
                .and_then(|p| p.formats.iter().find(|f| f.name == s.format.name))
                .and_then(|f| f.counter("CTX_ID"));
        let a: Box<dyn perfregs_session::Accumulate> = match ctx_slot {
            Some(slot) => {
                let seen = Rc::new(RefCell::new(BTreeMap::new()));
                s.contexts = Some(Rc::clone(&seen));
                if let Some(k) = args.context {
                    s.header.push(format!(
                        "context: only the reports of CTX_ID {k:#x} (--context)"
                    ));
                }
                Box::new(Contexts {
                    inner: a,
                    size: s.format.size,
                    offset: slot.offset as usize,
                    keep: args.context,
                    seen,
                })
            }
            None if args.context.is_some() => {
                return Err(Fail::usage(format!(
                "--context: the recorded layout {} has no CTX_ID field (Gen8 and later have one)",
                s.format.name
            )))
            }
            None => a,
        };
        Ok((s, a))
    })
}

/// The flags of an interval.
fn flags(iv: &Interval) -> Vec<String> {
    let mut f = Vec::new();
    if iv.reports_lost > 0 {
        f.push(format!(
            "{} report(s) lost (OA_REPORT_LOST)",
            iv.reports_lost
        ));
    }
    if iv.buffers_lost > 0 {
        f.push(format!(
            "{} buffer overflow(s) (OA_BUFFER_LOST)",
            iv.buffers_lost
        ));
    }
    if iv.has_invalid() {
        f.push(format!(
            "{} invalid report pair(s) ({})",
            iv.invalid.total(),
            invalid_kinds(&iv.invalid, false)
        ));
    }
    if iv.pairs == 0 {
        f.push("no report pair".to_string());
    }
    f
}

/// The kinds of `n`'s invalid pairs with their counts (`long`: as the
/// summary says them).
fn invalid_kinds(n: &InvalidPairs, long: bool) -> String {
    let kinds = if long {
        [
            "with a report never written (all zero or a zero timestamp)",
            "with the timestamp stepping back",
            "with more GPU clocks than the time between the reports allows",
        ]
    } else {
        ["never written", "timestamp back", "impossible GPU clock"]
    };
    [n.unwritten, n.backward, n.clock]
        .into_iter()
        .zip(kinds)
        .filter(|(k, _)| *k > 0)
        .map(|(k, what)| format!("{k} {what}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The invalid report pairs of all `intervals`.
fn invalid_pairs(intervals: &[Interval]) -> InvalidPairs {
    let mut all = InvalidPairs::NONE;
    for iv in intervals {
        all.unwritten = all.unwritten.saturating_add(iv.invalid.unwritten);
        all.backward = all.backward.saturating_add(iv.invalid.backward);
        all.clock = all.clock.saturating_add(iv.invalid.clock);
    }
    all
}

/// The series of the intervals read.
fn series(r: &Read, s: &Setup) -> Series {
    let d = &s.device;
    // The chosen counters, else every counter of the set.
    let all: Vec<&perfregs_metrics::CounterInfo> = match &s.chosen {
        Some(chosen) => chosen.clone(),
        None => s.set.counters.iter().collect(),
    };
    let counters: Vec<_> = all.iter().copied().filter(|c| c.is_available(d)).collect();
    let absent: Vec<&str> = all
        .iter()
        .filter(|c| !c.is_available(d))
        .map(|c| c.symbol)
        .collect();
    let mut columns: Vec<Column> = counters
        .iter()
        .map(|c| Column::counter(c.symbol, c.units))
        .collect();
    columns.extend([
        Column::label("pairs", ""),
        Column::label("reports_lost", ""),
        Column::label("buffers_lost", ""),
    ]);
    let ns_per_tick = 1e9 / d.gpu_timestamp_frequency as f64;
    let mut unavailable: Vec<&str> = Vec::new();
    let intervals = r
        .intervals
        .iter()
        .map(|iv| {
            let mut values: Vec<Option<Value>> = counters
                .iter()
                .map(|c| {
                    if iv.pairs == 0 {
                        return None;
                    }
                    let v = iv.value(c, d).map(|v| match v {
                        perfregs_metrics::Value::U64(x) => Value::Int(x),
                        perfregs_metrics::Value::F64(x) => Value::Float(x),
                    });
                    if v.is_none() && !unavailable.contains(&c.symbol) {
                        unavailable.push(c.symbol);
                    }
                    v
                })
                .collect();
            values.extend([
                Some(Value::Int(u64::from(iv.pairs))),
                Some(Value::Int(u64::from(iv.reports_lost))),
                Some(Value::Int(u64::from(iv.buffers_lost))),
            ]);
            Row {
                index: usize::try_from(iv.index)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1),
                start_ns: iv.start.map(|t| t as f64 * ns_per_tick),
                duration_ns: iv
                    .start
                    .zip(iv.end)
                    .map(|(a, b)| b.saturating_sub(a) as f64 * ns_per_tick),
                values,
                flags: flags(iv),
            }
        })
        .collect();
    let mut notes = vec![s.origin.clone()];
    // The intervals (numbered from 1, as printed) that `which` picks.
    let numbers = |which: fn(&Interval) -> bool| -> Vec<String> {
        r.intervals
            .iter()
            .filter(|iv| which(iv))
            .map(|iv| format!("#{}", iv.index + 1))
            .collect()
    };
    let lossy = numbers(Interval::has_loss);
    if r.reports_lost + r.buffers_lost == 0 {
        notes.push("losses: none".to_string());
    } else {
        notes.push(format!(
            "losses: {} OA_REPORT_LOST, {} OA_BUFFER_LOST record(s), in interval(s) {}: their counters miss the lost reports' increments",
            r.reports_lost,
            r.buffers_lost,
            if lossy.is_empty() { "-".to_string() } else { lossy.join(", ") }
        ));
    }
    if let Some(seen) = &s.contexts {
        let seen = seen.borrow();
        if !seen.is_empty() {
            let list: Vec<String> = seen.iter().map(|(c, n)| format!("{c:#x} ({n})")).collect();
            notes.push(format!("contexts (CTX_ID, reports): {}", list.join(", ")));
        }
    }
    let invalid = invalid_pairs(&r.intervals);
    if invalid.total() > 0 {
        let at = numbers(Interval::has_invalid);
        // Without a valid pair no interval is printed: none to point at.
        let any_valid = r.intervals.iter().any(|iv| iv.pairs > 0);
        notes.push(format!(
            "invalid report pairs: {}{}: {}; stale or unwritten memory, left out of the counters",
            invalid.total(),
            if any_valid {
                format!(" in interval(s) {}", at.join(", "))
            } else {
                String::new()
            },
            invalid_kinds(&invalid, true)
        ));
    }
    if !unavailable.is_empty() {
        notes.push(format!(
            "- = unavailable: the {} reports do not carry what these counters read: {}",
            s.format.name,
            unavailable.join(", ")
        ));
    }
    if !absent.is_empty() {
        notes.push(format!(
            "not on this device (availability false): {}",
            absent.join(", ")
        ));
    }
    Series {
        title: format!("{} on {}", s.set.symbol, s.id),
        columns,
        rows: intervals,
        notes,
    }
}

impl ReportArgs {
    /// Run `report`.
    pub fn run(self) -> ExitCode {
        let file = match std::fs::File::open(&self.file) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("perfregs: report: cannot read {}: {e}", self.file.display());
                return ExitCode::from(2);
            }
        };
        let document = self.format != Format::Table;
        let info = |line: &str| {
            if document {
                eprintln!("{line}");
            } else {
                say!("{line}");
            }
        };
        // The first record's type tells the format (a file too short to
        // tell is read as i915's, whose reader says what is missing); a
        // file that does not start with a metadata record is not one.
        let mut src = std::io::BufReader::new(file);
        let rec = match std::io::BufRead::fill_buf(&mut src) {
            Ok(b) => match RecordingFormat::looks_like_recording(b) {
                Some(rec) => rec,
                None if b.len() < perfregs_linux::record::HEADER_SIZE => RecordingFormat::I915,
                None => {
                    eprintln!(
                        "perfregs: report: {}: not a recording (it does not start with a \
                         metadata record of IGT's i915-perf-recorder or xe-perf-recorder \
                         format); a raw OA buffer dump? try `perfregs oa-decode PROJECT FORMAT \
                         {}`",
                        self.file.display(),
                        self.file.display()
                    );
                    return ExitCode::from(2);
                }
            },
            Err(e) => {
                eprintln!("perfregs: report: cannot read {}: {e}", self.file.display());
                return ExitCode::from(2);
            }
        };
        let read = match read(src, rec, &self, self.interval) {
            Ok(r) => r,
            Err(f) => {
                eprintln!("perfregs: report: {}: {}", self.file.display(), f.message);
                return ExitCode::from(f.code);
            }
        };
        info(&format!(
            "recording: {}, {} format, {} record(s), {} bytes read{}",
            self.file.display(),
            rec.recorder(),
            read.records,
            read.bytes,
            read.version
                .map_or(", no VERSION record".to_string(), |v| format!(
                    ", version {v}"
                ))
        ));
        info(&format!(
            "read: {} sample(s), {} OA_REPORT_LOST, {} OA_BUFFER_LOST, {} timestamp correlation(s)",
            read.samples, read.reports_lost, read.buffers_lost, read.correlations
        ));
        let mut code = ExitCode::SUCCESS;
        match &read.setup {
            Some(s) => {
                for l in &s.header {
                    info(l);
                }
                let asked = self.interval.map_or(DEFAULT_INTERVAL_NS, NonZeroU64::get);
                let hz = s.device.gpu_timestamp_frequency;
                if let Some(note) = short_window_note(&read.intervals, s.window, hz, asked) {
                    eprintln!("perfregs: report: {note}");
                }
                let series = series(&read, s);
                let invalid = invalid_pairs(&read.intervals).total();
                let valid: u64 = read.intervals.iter().map(|i| u64::from(i.pairs)).sum();
                if read.intervals.is_empty() {
                    info("no interval: the recording has fewer than two reports");
                }
                if valid == 0 && invalid > 0 {
                    // Nothing but invalid pairs: no interval of made-up
                    // counters, a finding.
                    for n in &series.notes {
                        info(n);
                    }
                    let f = Fail::findings(format!(
                        "no valid report pair: all {invalid} report pair(s) of the {} sample(s) are invalid (stale or unwritten memory), so no counter interval is printed",
                        read.samples
                    ));
                    eprintln!("perfregs: report: {}: {}", self.file.display(), f.message);
                    code = ExitCode::from(f.code);
                } else {
                    if self.format == Format::Csv {
                        // CSV cannot carry the notes: they go with the header.
                        for n in &series.notes {
                            info(n);
                        }
                    }
                    if let Err(e) = output::print(&series, self.format, &mut |l| say!("{l}")) {
                        eprintln!("perfregs: report: {e}");
                        code = ExitCode::from(1);
                    }
                }
            }
            None => {
                if read.error.is_none() {
                    eprintln!(
                        "perfregs: report: {}: no DEVICE_INFO and DEVICE_TOPOLOGY records",
                        self.file.display()
                    );
                    code = ExitCode::from(1);
                }
            }
        }
        if let Some(e) = &read.error {
            eprintln!(
                "perfregs: report: {}: {e}; {} interval(s) from the {} sample(s) before it are reported",
                self.file.display(),
                read.intervals.len(),
                read.samples
            );
            code = ExitCode::from(1);
        }
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfregs_linux::record::Record;
    use perfregs_linux::recording::oa_format_report_size;

    /// The uuids of `sets` (each file's sets have their own).
    fn guids(sets: &[SetInfo]) -> Vec<&str> {
        sets.iter().map(|s| s.guid).collect()
    }

    #[test]
    fn every_shipped_part_has_its_sets_and_formats() {
        // A part of a project with several files: its own file.
        let (s, part, note) = sets("skl", Some(3)).expect("skl GT3");
        assert_eq!(guids(s), guids(perfregs_metrics::skl_gt3::ALL));
        assert_eq!((part.as_str(), note), ("skl GT3", None));
        let (s, part, _) = sets("tgl", Some(1)).expect("tgl GT1");
        assert_eq!(guids(s), guids(perfregs_metrics::tgl_gt1::ALL));
        assert_eq!(part, "tgl GT1");
        // No GT known, or one without a file: GT2, and a note says why.
        let (s, part, note) = sets("kbl", None).expect("kbl");
        assert_eq!(guids(s), guids(perfregs_metrics::kbl_gt2::ALL));
        assert_eq!(part, "kbl GT2");
        assert_eq!(
            note.as_deref(),
            Some("the device table names no KBL GT: the GT2 sets are used")
        );
        let (_, part, note) = sets("skl", Some(1)).expect("skl GT1");
        assert_eq!(part, "skl GT2");
        assert_eq!(
            note.as_deref(),
            Some("SKL GT1 has no metric file: the GT2 sets are used")
        );
        // A project with one file: that file, whatever the GT.
        for gt in [None, Some(1), Some(2)] {
            let (s, part, note) = sets("chv", gt).expect("chv");
            assert_eq!(guids(s), guids(perfregs_metrics::chv::ALL));
            assert_eq!((part.as_str(), note), ("chv", None));
        }
        // None shipped.
        assert!(sets("ivb", Some(2)).is_none());
        // Every shipped project reads i915's formats of its graphics version
        // (i915_perf.c): HSW 1 to 7, Gen8 to Gen12 7 to 10, DG2 12
        // (A24u40_A14u32; its OAR twin 11 is not described), MTL 12 to 14
        // (with the OAM unit's MPEC formats), none where i915 does not run.
        for (_, project, _) in perfregs_metrics::FILES {
            let ids: Vec<u32> = formats(project).iter().map(|f| f.id).collect();
            let g = hal::project(project)
                .and_then(|p| p.gpu)
                .expect("a GPU project");
            let want: &[u32] = match g.graphics {
                (7, _) => &[1, 2, 3, 4, 5, 6, 7],
                v if v < (12, 55) => &[7, 8, 9, 10],
                (12, 55) => &[12],
                (12, 70) => &[12, 13, 14],
                _ => &[],
            };
            assert_eq!(ids, want, "{project}");
        }
        assert!(formats("ivb").is_empty());
    }

    #[test]
    fn report_counts_are_at_least_one() {
        assert_eq!(
            report_count::<NonZeroU32>("5"),
            Ok(NonZeroU32::new(5).unwrap())
        );
        assert_eq!(
            report_count::<NonZeroU32>("0"),
            Err("at least 1".to_string())
        );
        assert!(report_count::<NonZeroU32>("4294967296")
            .unwrap_err()
            .contains("more reports than"));
        assert!(report_count::<NonZeroU64>("x")
            .unwrap_err()
            .contains("whole number"));
    }

    #[test]
    fn durations_have_units() {
        assert_eq!(duration_ns("10ms").map(NonZeroU64::get), Ok(10_000_000));
        assert_eq!(duration_ns("500us").map(NonZeroU64::get), Ok(500_000));
        assert_eq!(duration_ns("2s").map(NonZeroU64::get), Ok(2_000_000_000));
        assert_eq!(duration_ns("7ns").map(NonZeroU64::get), Ok(7));
        assert!(duration_ns("10").is_err());
        assert!(duration_ns("0ms").is_err());
        assert!(duration_ns("ms").is_err());
        assert!(duration_ns("99999999999999999999s").is_err());
        assert_eq!(ns_text(10_000_000), "10ms");
        assert_eq!(ns_text(1_500), "1500ns");
    }

    /// A TGL GT2 recording of `n` hand-made reports (timestamps 128
    /// ticks apart, GPU_TICKS 8 per tick) with a loss after the fifth.
    fn synthetic(n: u32) -> Vec<u8> {
        synthetic_part(
            Part(0x9A49, 10, "TestOa", (6, 0x3f, 16, 0xffff), 19_200_000),
            n,
        )
    }

    /// A recorded part: PCI id, OA format id, metric set name, single-slice
    /// topology (subslices, subslice mask, EUs per subslice, EU mask) and
    /// timestamp frequency.
    struct Part(u32, u32, &'static str, (u16, u64, u16, u64), u64);

    /// [`synthetic_of`] the recorded device and topology of `part`.
    fn synthetic_part(part: Part, n: u32) -> Vec<u8> {
        let Part(pci_id, oa_format, set, (ss, ss_mask, eu, eu_mask), ts) = part;
        let device = RecordedDevice {
            timestamp_frequency: ts,
            device_id: pci_id,
            oa_format,
            metric_set_name: set.into(),
            ..Default::default()
        };
        let t = Topology::single_slice(ss, ss_mask, eu, eu_mask)
            .expect("fits")
            .to_bytes();
        synthetic_of(&device, &t, n)
    }

    /// `n` hand-made reports of `device`'s format: RPT_ID, TIME_STAMP 128
    /// ticks apart from 128 (a zero one is an unwritten report) and the
    /// next dwords counting up (GPU_TICKS on Gen8+).
    fn synthetic_of(device: &RecordedDevice, topology: &[u8], n: u32) -> Vec<u8> {
        use perfregs_linux::recording::{Correlation, RecordingWriter};
        let size = device.report_size().expect("a known format");
        let mut w = RecordingWriter::new(Vec::new(), device, topology).expect("header");
        w.correlation(Correlation::default()).expect("correlation");
        for k in 0..n {
            let mut r = vec![0u8; size];
            r[4..8].copy_from_slice(&((k + 1) * 128).to_le_bytes());
            r[12..16].copy_from_slice(&(k * 1024).to_le_bytes());
            if k == 5 {
                w.record(&Record::ReportLost).expect("loss");
            }
            w.record(&Record::Sample(&r)).expect("sample");
        }
        w.finish(Correlation {
            cpu_ns: 1,
            gpu_timestamp: 1,
        })
        .expect("finish")
    }

    fn args() -> ReportArgs {
        ReportArgs {
            file: PathBuf::from("x.record"),
            interval: None,
            reports: NonZeroU32::new(3),
            format: Format::Csv,
            metric_set: None,
            counters: None,
            context: None,
        }
    }

    /// Read `bytes` and build its series: never a panic.
    fn report_of(bytes: &[u8]) -> Option<Read> {
        let rec = RecordingFormat::detect(bytes).unwrap_or(RecordingFormat::I915);
        let r = read(bytes, rec, &args(), None).ok()?;
        if let Some(s) = &r.setup {
            let series = series(&r, s);
            assert_eq!(series.rows.len(), r.intervals.len());
            let _ = output::csv(&series);
            let _ = output::perfetto(&series);
        }
        Some(r)
    }

    #[test]
    fn every_cut_is_located_and_keeps_the_intervals_before_it() {
        let whole = synthetic(12);
        let full = report_of(&whole).expect("reads");
        assert!(full.error.is_none());
        assert_eq!((full.samples, full.reports_lost), (12, 1));
        // 10 pairs (11 minus the one across the loss) in 3 3 3 1.
        let pairs: Vec<u32> = full.intervals.iter().map(|i| i.pairs).collect();
        assert_eq!(pairs, [3, 3, 3, 1]);
        let boundaries: Vec<u64> = perfregs_linux::recording::entries(&whole)
            .map(|e| e.expect("valid").offset)
            .collect();
        for cut in 0..whole.len() {
            let r = report_of(&whole[..cut]).expect("a cut never fails setup");
            let at_boundary = boundaries.contains(&(cut as u64));
            assert!(
                r.error.is_some() || at_boundary,
                "cut at {cut}: no error reported"
            );
            assert!(r.samples <= 12);
            if let Some(e) = &r.error {
                assert!(e.contains(" at byte "), "{e}");
            }
        }
    }

    #[test]
    fn damaged_recordings_never_panic() {
        let whole = synthetic(12);
        let mut rng = perfregs_testkit::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next();
        for _ in 0..3000 {
            let mut b = whole.clone();
            for _ in 0..(next() % 4 + 1) {
                let at = (next() % b.len() as u64) as usize;
                b[at] = next() as u8;
            }
            // Every outcome is an error, a located error or a report.
            if let Some(r) = report_of(&b) {
                if let Some(e) = &r.error {
                    assert!(e.starts_with("record "), "{e}");
                }
            }
        }
    }

    /// Each project's path: the part from the PCI id, the format from the
    /// recorded id, the set by name, the device values from the topology.
    #[test]
    fn hsw_bdw_and_tgl_gt1_recordings_are_read() {
        for (pci_id, oa_format, set, topology, eus, ts) in [
            (
                0x0416,
                5,
                "RenderBasic",
                (2, 0x3, 10, 0x3ff),
                20,
                12_500_000,
            ),
            (0x1616, 10, "RenderBasic", (3, 0x7, 8, 0xff), 24, 12_500_000),
            (0x9A60, 10, "TestOa", (6, 0x07, 16, 0xffff), 48, 19_200_000),
        ] {
            let part = Part(pci_id, oa_format, set, topology, ts);
            let r = report_of(&synthetic_part(part, 7)).expect("reads");
            assert!(r.error.is_none(), "{pci_id:#x}: {:?}", r.error);
            let s = r.setup.as_ref().expect("set up");
            assert_eq!(s.id.pci_id, pci_id as u16);
            assert_eq!(s.set.symbol, set);
            assert_eq!(s.device.eu_cores_total_count, eus, "{pci_id:#x}");
            assert_eq!(s.device.gpu_timestamp_frequency, ts);
            let series = series(&r, s);
            // 5 pairs (6 minus the one across the loss): 3 and 2.
            assert_eq!(series.rows.len(), 2, "{pci_id:#x}");
            let k = series
                .columns
                .iter()
                .position(|c| c.name == "GpuTime")
                .expect("GpuTime");
            let ns = 3 * 128 * 1_000_000_000 / ts;
            assert_eq!(series.rows[0].values[k], Some(Value::Int(ns)));
        }
        // SNB: no OA stream, said so.
        let snb = Part(0x0116, 5, "RenderBasic", (2, 0x3, 10, 0x3ff), 12_500_000);
        match read(
            &synthetic_part(snb, 3)[..],
            RecordingFormat::I915,
            &args(),
            None,
        ) {
            Err(f) => assert!(
                f.message.contains("no OA stream under Linux"),
                "{}",
                f.message
            ),
            Ok(_) => panic!("SNB has no OA stream"),
        }
    }

    #[test]
    fn every_typed_format_has_the_kernels_size() {
        for (_, p, _) in perfregs_metrics::FILES {
            // Every layout a driver numbers; those i915 numbers have the
            // size of i915's table.
            let f = perfregs_session::layouts(p);
            assert!(!f.is_empty(), "{p}");
            for t in f.iter().filter(|t| t.id != 0) {
                assert_eq!(oa_format_report_size(t.id), Some(t.size), "{p} {}", t.name);
            }
        }
        assert!(formats("snb").is_empty());
    }
}
