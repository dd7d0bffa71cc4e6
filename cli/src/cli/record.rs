//! `perfregs record`: an OA stream written to a recording in IGT's
//! `i915-perf-recorder` format (VERSION, DEVICE_INFO, DEVICE_TOPOLOGY,
//! TIMESTAMP_CORRELATION records, then the stream's records as read), which
//! `perfregs report` and IGT's `i915-perf-reader` read; a stream of the xe
//! driver in IGT's `xe-perf-recorder` format (the same records with xe's
//! metadata types 4-7, DEVICE_INFO's `oa_format` in IGT's xe numbering,
//! the topology as IGT's xe recorder lays it out), which `perfregs report`
//! and IGT's `xe-perf-reader` read.
//!
//! Two sources, one path from the stream on: the record loops of
//! [`perfregs_session::record`] ([`Recorder::record_emulated`],
//! [`Recorder::record`]) append the stream reader's records to a
//! [`RecordingWriter`]; this command parses the arguments, finds and asks
//! the card, prints the opening lines, the progress line and the summary.
//!
//! - `--emulate PROJECT`: the emulated GPU programmed with the set (the
//!   blocks whose availability holds on the part's preset, through the
//!   typed, checked path) and an [`EmulatedStream`] writing i915's framing
//!   into a real pipe. Time is emulated: `--duration` counts emulated time,
//!   correlations pair the GPU timestamp with the start's `CLOCK_MONOTONIC`
//!   plus emulated nanoseconds.
//!   `--driver xe` (TGL and later) makes the emulated kernel answer as Xe does: raw
//!   reports without headers, losses as `EIO` then the STATUS ioctl.
//! - `--device cardN` (Linux): the discovery verdict first, the set of the
//!   card's part uploaded with ADD_CONFIG (or the registered config of the
//!   same uuid reused), an i915 perf stream or an Xe observation stream
//!   opened (by the driver the card is bound to), records appended as
//!   `poll` finds them, until `--duration` (wall time), `--reports` or
//!   Ctrl-C.
//!
//! Xe streams carry raw reports: each becomes a SAMPLE record; an `EIO`
//! read is answered by the STATUS ioctl, whose REPORT_LOST and
//! BUFFER_OVERFLOW bits are written as IGT's OA_REPORT_LOST and
//! OA_BUFFER_LOST records, and whose COUNTER_OVERFLOW and MMIO_TRG_Q_FULL
//! bits (no record type in IGT's format) are counted in the summary.
//! DEVICE_INFO's `oa_format` holds the i915 id under i915 and IGT's xe
//! format number under xe (`perfregs_linux::xe_recording::igt_format`: 4
//! for TGL's A32u40_A4u32_B8_C8); its engine is render 0, the engine of the
//! OAG unit (OA unit 0) the stream is opened on.
//!
//! Ctrl-C (SIGINT) and SIGTERM end the recording cleanly: what was read is
//! written, then the closing correlation; the file is valid.

#![cfg_attr(not(target_os = "linux"), allow(dead_code, unused_imports))]

use super::report::{duration_ns, find_set, sets, TypedFormat};
use super::Fail;
use perfregs_linux::discovery::Topology;
use perfregs_linux::recording::{RecordedDevice, RecordingFormat, RecordingWriter};
use perfregs_linux::stream::OaStream;
use perfregs_linux::xe_recording;
use perfregs_metrics::{DeviceInfo, SetInfo};
use perfregs_session::record::{self, EmulatedPlan, Faults, RecordError, Recorded, Recorder, Stop};
use perfregs_session::{runs_under_xe, stream_format, xe_format, xe_projects};
use std::io::{BufWriter, IsTerminal as _, Write};
use std::num::{NonZeroU64, NonZeroU8};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `record`'s long help: the emulated projects, their drivers, parts and OA
/// units, from the catalogue.
fn record_help() -> String {
    let gpus = || {
        hal::PROJECTS.iter().filter_map(|p| {
            let g = p.gpu?;
            perfregs_session::oa_projects()
                .contains(&p.name)
                .then_some((p.name, g))
        })
    };
    let names = |f: &dyn Fn(&hal::meta::GpuInfo) -> bool| {
        gpus()
            .filter(|(_, g)| f(g))
            .map(|(n, _)| n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let xe = xe_projects();
    let xe_only = names(&|g| g.drivers == [hal::meta::Driver::Xe]);
    let units = gpus()
        .filter_map(|(n, g)| {
            let units = g.oa?.units;
            (units.len() > 1).then(|| {
                let u: Vec<&str> = units.iter().map(|u| u.name).collect();
                format!("{n}: {}", u.join(", "))
            })
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "Record an OA stream into a file in IGT's i915-perf-recorder format (VERSION, \
DEVICE_INFO, DEVICE_TOPOLOGY and TIMESTAMP_CORRELATION records, then the stream's records as \
read), which `perfregs report` and IGT's i915-perf-reader read; an xe stream (--driver xe, or a \
card on the xe driver) in IGT's xe-perf-recorder format (the same records with xe's types 4-7, \
IGT's xe OA format number, xe's topology), which `perfregs report` and IGT's xe-perf-reader \
read.\n\n\
--device cardN records a real GPU (Linux, i915 or xe): the card must pass `perfregs devices`' \
verdict; the set's configuration is uploaded (or the one registered under its uuid reused) and \
an OA stream opened (xe: OA unit 0; its losses, read from the STATUS ioctl, become \
OA_REPORT_LOST and OA_BUFFER_LOST records; counter-overflow and trigger-queue-full events are \
counted in the summary, IGT's format has no record for them). --emulate PROJECT ({projects}) \
records the emulated GPU through the same reader (a pipe carrying the kernel's framing; \
--driver xe: as the xe driver frames it, on the projects xe drives ({xe}); the projects only xe \
drives ({xe_only}) default to it); --gt N picks the part of a project with several ({parts}; \
default GT{gt}); --unit picks the OA unit where a part has several ({units}; default the render \
unit, or for a media set the first media unit with engines); --duration is then emulated \
time.\n\n\
The period: --period TIME picks the nearest timer exponent (a report every 2^(E+1) timestamp \
ticks) and says which; --exponent E sets it (default: the exponent nearest 1ms). The end: \
--duration TIME, --reports N (at least N reports), or Ctrl-C (SIGINT, SIGTERM), which ends \
the recording cleanly with a valid file (a second Ctrl-C ends at once, the file then without \
its closing correlation). Default: until Ctrl-C on a device, 1s of emulated time on the \
emulator.\n\n\
On a terminal stderr shows a live progress line (reports, losses, MB/s, elapsed); the final \
line sums reports, losses by kind, bytes and the file. DEVICE_INFO holds the PCI id, the \
timestamp frequency, the GT frequencies in Hz (as IGT's recorder writes them), the engine (the \
OA unit's first: render 0 for the render unit, video decode 0 for a media unit), the OA format \
(the i915 id; under xe IGT's xe number, 4 for TGL's A32u40_A4u32_B8_C8), the set's symbol name \
and its uuid.\n\n\
Exit code 1: the device refused (the reason and the remedy), a kernel error (its errno \
explained; an error while reading closes the file with what was read before it), a write \
error; 2: bad arguments.",
        projects = perfregs_session::oa_projects().join(", "),
        parts = super::metrics::multi_part_projects(),
        gt = perfregs_session::DEFAULT_GT,
    )
}

/// `perfregs record`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Record an OA stream (a real GPU or the emulated one) in IGT's recording format",
    long_about = record_help(),
    group(clap::ArgGroup::new("target").required(true).args(["device", "emulate"]))
)]
pub struct RecordArgs {
    /// A real GPU: the DRM card (`card0`, or `0`), as `perfregs devices` lists it.
    #[arg(long, value_name = "cardN", group = "target")]
    pub device: Option<String>,
    /// The emulated GPU of a project.
    #[arg(long, value_name = "PROJECT", value_parser = clap::builder::PossibleValuesParser::new(perfregs_session::oa_projects()), ignore_case = true, group = "target")]
    pub emulate: Option<String>,
    /// With --emulate: the part (--gt N, --gt1, --gt2; default GT2 on a
    /// project with several parts).
    #[command(flatten)]
    pub part: super::metrics::Part,
    /// With --emulate: the driver the emulated kernel answers as (default:
    /// the catalogue's first driver of the project; xe: raw reports and
    /// losses through the STATUS ioctl).
    #[arg(long, value_name = "DRIVER", requires = "emulate", value_parser = ["i915", "xe"], ignore_case = true)]
    pub driver: Option<String>,
    /// With --emulate: the OA unit, by its catalogue name, where the part
    /// has several (the long help lists them); default: the render unit, or
    /// for a set of the media units' formats the first media unit that
    /// writes them.
    #[arg(long, value_name = "UNIT", requires = "emulate")]
    pub unit: Option<String>,
    /// With --emulate: what the emulated GPU does: a built-in workload
    /// (busy, light), `none` (the A counters stay 0), or a YAML file of
    /// one's own (regdefs/workloads/*.yaml show the shape); default busy.
    #[arg(long, value_name = "NAME|FILE", requires = "emulate")]
    pub workload: Option<String>,
    /// The metric set (symbol or underscore name, case-insensitive).
    #[arg(long, value_name = "SET")]
    pub metric_set: String,
    /// The sampling period (1ms, 100us, ...): the nearest timer exponent is used.
    #[arg(long, value_name = "TIME", value_parser = duration_ns, conflicts_with = "exponent")]
    pub period: Option<NonZeroU64>,
    /// The timer exponent: a report every 2^(E+1) timestamp ticks (0 to 31).
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(u64).range(0..=31))]
    pub exponent: Option<u64>,
    /// How long to record (emulated time with --emulate).
    #[arg(long, value_name = "TIME", value_parser = duration_ns, conflicts_with = "reports")]
    pub duration: Option<NonZeroU64>,
    /// Record until at least N reports are written.
    #[arg(long, value_name = "N", value_parser = super::report::report_count::<NonZeroU64>)]
    pub reports: Option<NonZeroU64>,
    /// The recording to write.
    #[arg(short = 'o', long = "output", value_name = "FILE.record")]
    pub output: PathBuf,
    /// Keep only the last SIZE bytes of records (64M, 512K, bytes) or the
    /// last TIME of reports by their timestamps (10s, 500ms), in memory:
    /// written to the output at the end, and to FILE.N.record each time
    /// SIGUSR1 arrives (a circular capture, as IGT's recorder keeps).
    #[arg(long, value_name = "SIZE|TIME", value_parser = ring_keep)]
    pub ring: Option<RingKeep>,
    /// With --ring: a FIFO (made if missing) taking commands as IGT's
    /// recorder does: `echo dump > FIFO` writes a snapshot, `echo quit >
    /// FIFO` ends the recording.
    #[arg(long, value_name = "FIFO", requires = "ring")]
    pub control: Option<PathBuf>,
    /// Record only the reports of one context: i915's CTX_HANDLE (a GEM
    /// context handle), xe's EXEC_QUEUE_ID (an exec queue id). The kernel
    /// looks it up in the DRM file that opens the stream (ENOENT when it is
    /// not there: another process's context cannot be named). Reports carry
    /// the context's hardware id in their CTX_ID field (`report --context`
    /// filters a recording by it).
    #[arg(long, value_name = "ID", value_parser = context_id)]
    pub context: Option<u32>,
    /// For tests: the emulated client runs these two contexts in turn
    /// (A,B: hardware ids), each for 8 report periods.
    #[arg(long, value_name = "A,B", hide = true, requires = "emulate", value_parser = context_pair)]
    pub inject_contexts: Option<[u32; 2]>,
    /// For tests: inject N losses into the emulated stream, spread over the
    /// recording, OA_REPORT_LOST and OA_BUFFER_LOST in turn (with --emulate only).
    #[arg(long, value_name = "N", hide = true, requires = "emulate")]
    pub inject_loss: Option<NonZeroU8>,
    /// For tests: the emulated kernel answers one read halfway through with
    /// this errno (EIO, EINTR, ENOSPC, ...; with --emulate only).
    #[arg(long, value_name = "ERRNO", hide = true, requires = "emulate", value_parser = errno_arg)]
    pub inject_errno: Option<i32>,
    /// For tests: the emulated Xe kernel sets these STATUS bits once,
    /// halfway (names joined by `,`: REPORT_LOST, BUFFER_OVERFLOW,
    /// COUNTER_OVERFLOW, MMIO_TRG_Q_FULL, or a number; with --driver xe).
    #[arg(long, value_name = "BITS", hide = true, requires = "driver", value_parser = status_arg)]
    pub inject_status: Option<u64>,
    /// For tests: the emulated kernel refuses the open with this errno
    /// (EACCES, ENODEV, EBUSY, ...; with --emulate only).
    #[arg(long, value_name = "ERRNO", hide = true, requires = "emulate", value_parser = errno_arg)]
    pub inject_open_errno: Option<i32>,
    /// Where a card is found (hidden, for tests on a fake tree).
    #[command(flatten)]
    pub roots: DeviceRoots,
}

/// The roots `--device` finds a card under (hidden flags, for tests on a
/// fake tree): `record` and `top`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct DeviceRoots {
    /// The sysfs root (default /sys): for tests on a fake tree, as `devices --sys`.
    #[arg(long, value_name = "DIR", hide = true, requires = "device")]
    pub sys: Option<PathBuf>,
    /// The procfs root (default /proc): for tests on a fake tree.
    #[arg(long, value_name = "DIR", hide = true, requires = "device")]
    pub proc: Option<PathBuf>,
    /// The devtmpfs root whose `dri/` holds the render nodes (default /dev).
    #[arg(long, value_name = "DIR", hide = true, requires = "device")]
    pub dev: Option<PathBuf>,
}

impl DeviceRoots {
    /// The first of these flags given: they are for --device only, and
    /// clap's `requires` does not fire on them while --device is in a
    /// required group.
    pub fn given(&self) -> Option<&'static str> {
        [
            ("--sys", self.sys.is_some()),
            ("--proc", self.proc.is_some()),
            ("--dev", self.dev.is_some()),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
    }
}

impl RecordArgs {
    /// The first flag given that only --emulate takes. (clap's `requires`
    /// does not fire when --device, which conflicts with --emulate, is
    /// there: conflicts win over requirements.)
    fn emulate_only(&self) -> Option<&'static str> {
        [
            ("--driver", self.driver.is_some()),
            ("--unit", self.unit.is_some()),
            ("--workload", self.workload.is_some()),
            ("--gt1", self.part.gt1),
            ("--gt2", self.part.gt2),
            ("--gt", self.part.gt.is_some()),
            ("--inject-loss", self.inject_loss.is_some()),
            ("--inject-contexts", self.inject_contexts.is_some()),
            ("--inject-errno", self.inject_errno.is_some()),
            ("--inject-open-errno", self.inject_open_errno.is_some()),
            ("--inject-status", self.inject_status.is_some()),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
    }
}

/// A context id: decimal or 0x hex, 32 bits.
pub fn context_id(v: &str) -> Result<u32, String> {
    let t = v.trim();
    let n = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => t.parse(),
    };
    n.map_err(|_| format!("`{v}` is not a context id (a 32-bit number, decimal or 0x hex)"))
}

/// Two context ids, `A,B`.
fn context_pair(v: &str) -> Result<[u32; 2], String> {
    let (a, b) = v
        .split_once(',')
        .ok_or_else(|| format!("`{v}`: two context ids, A,B"))?;
    Ok([context_id(a)?, context_id(b)?])
}

/// An errno by its name (`EIO`), among those the errno messages know.
fn errno_arg(name: &str) -> Result<i32, String> {
    (1..=200)
        .find(|&e| {
            perfregs_linux::errno::errno_name(e).is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| format!("`{name}` is not an errno name known here (EIO, EINTR, ...)"))
}

/// Xe STATUS bits by name (`COUNTER_OVERFLOW,MMIO_TRG_Q_FULL`) or number.
fn status_arg(text: &str) -> Result<u64, String> {
    use perfregs_linux::uapi::xe::status;
    let mut bits = 0;
    for word in text.split(',').map(str::trim) {
        let named = status::ALL
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(word))
            .map(|(b, _)| *b);
        let number = || match word.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => word.parse().ok(),
        };
        bits |= named.or_else(number).ok_or_else(|| {
            format!("`{word}` is not an Xe STATUS bit (REPORT_LOST, BUFFER_OVERFLOW, COUNTER_OVERFLOW, MMIO_TRG_Q_FULL) nor a number")
        })?;
    }
    if bits == 0 {
        return Err("no STATUS bit given".into());
    }
    Ok(bits)
}

/// The default sampling period when neither --period nor --exponent is given.
const DEFAULT_PERIOD_NS: u64 = 1_000_000;
/// The default emulated duration.
const DEFAULT_EMULATED_NS: u64 = 1_000_000_000;
/// Live progress: at most this often.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// DEVICE_INFO of a recording of `set` in `format` on the device
/// `device_id` (revision `revision`) that `info` describes (its timestamp
/// and GT frequencies; a GT frequency past `u32` saturates), engine 0:0.
#[cfg(target_os = "linux")]
fn device_info(
    info: &DeviceInfo,
    device_id: u32,
    revision: u32,
    format: &TypedFormat,
    set: &SetInfo,
) -> RecordedDevice {
    RecordedDevice {
        timestamp_frequency: info.gpu_timestamp_frequency,
        device_id,
        device_revision: revision,
        gt_min_frequency: u32::try_from(info.gpu_min_frequency).unwrap_or(u32::MAX),
        gt_max_frequency: u32::try_from(info.gpu_max_frequency).unwrap_or(u32::MAX),
        engine_class: 0,
        engine_instance: 0,
        oa_format: format.id,
        metric_set_name: set.symbol.to_string(),
        metric_set_uuid: set.guid.to_string(),
    }
}

/// The format as the opening line says it: the i915 id, or the Xe
/// property, the OA unit and IGT's xe number.
fn format_text(
    typed: &TypedFormat,
    xe: Option<(u64, &xe_recording::XeFormat)>,
    unit: usize,
    device: &RecordedDevice,
) -> String {
    match xe {
        None => format!("format {} (i915 id {})", typed.name, typed.id),
        Some((f, igt)) => format!(
            "format {} (Xe OA_FORMAT {f:#x}, OA unit {unit}, engine {} {}; IGT xe format {} {} in DEVICE_INFO)",
            typed.name,
            xe_recording::engine_class::name(device.engine_class)
                .map_or_else(|| device.engine_class.to_string(), str::to_ascii_lowercase),
            device.engine_instance,
            igt.igt,
            igt.name
        ),
    }
}

/// IGT's xe format of the uapi format `packed` of layout `typed`.
fn igt_xe_format(
    packed: u64,
    typed: &TypedFormat,
) -> Result<&'static xe_recording::XeFormat, Fail> {
    let f = xe_recording::igt_format(packed, typed.name)
        .map_err(|e| Fail::findings(format!("the recording's DEVICE_INFO: {e}")))?;
    if f.size != typed.size {
        return Err(Fail::findings(format!(
            "IGT's xe format {} has {}-byte reports, the stream's {} are {} bytes",
            f.name, f.size, typed.name, typed.size
        )));
    }
    Ok(f)
}

/// The xe DEVICE_TOPOLOGY bytes (IGT's `xe_fill_topology_info` layout) of a
/// topology with one slice enabled: its DSS and the EUs of its DSS (the
/// union of their EU masks, as xe reports one mask for all).
fn xe_topology(t: &Topology) -> Result<Vec<u8>, Fail> {
    // xe reports one flat DSS mask (DRM_XE_TOPO_DSS_*); IGT's record is one
    // slice holding them: slice s's subslice n is DSS s * max_subslices + n.
    let eus = t.eu_masks.iter().fold(0, |m, e| m | e);
    xe_recording::topology_of_masks(t.subslice_mask(), eus)
        .map_err(|e| Fail::findings(format!("the xe topology record: {e}")))
}

/// The exponent whose period 2^(e+1) ticks is nearest `ns` at `freq` Hz
/// (ties: the shorter period).
pub fn nearest_exponent(ns: u64, freq: u64) -> u64 {
    let ticks = u128::from(ns) * u128::from(freq) / 1_000_000_000;
    (0..=31u64)
        .min_by_key(|e| (1u128 << (e + 1)).abs_diff(ticks))
        .unwrap_or(0)
}

/// `ticks` at `freq` Hz as a time text (`853.333us`).
pub(super) fn ticks_text(ticks: u64, freq: u64) -> String {
    let ns = ticks as f64 * 1e9 / freq.max(1) as f64;
    if ns >= 1e9 {
        format!("{:.3}s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.3}ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.3}us", ns / 1e3)
    } else {
        format!("{ns:.0}ns")
    }
}

/// The exponent from the arguments at `freq` Hz, and the line saying it.
fn exponent_of(exponent: Option<u64>, period: Option<NonZeroU64>, freq: u64) -> (u64, String) {
    let (e, why) = match (exponent, period) {
        (Some(e), _) => (e, "--exponent".to_string()),
        (None, Some(p)) => (
            nearest_exponent(p.get(), freq),
            format!("nearest --period {}", ticks_text_ns(p.get())),
        ),
        (None, None) => (
            nearest_exponent(DEFAULT_PERIOD_NS, freq),
            "nearest the default 1ms".to_string(),
        ),
    };
    let ticks = 1u64 << (e + 1);
    (
        e,
        format!(
            "period: exponent {e} ({why}): a report every 2^{} = {ticks} timestamp ticks = {} at {freq} Hz",
            e + 1,
            ticks_text(ticks, freq)
        ),
    )
}

fn ticks_text_ns(ns: u64) -> String {
    ticks_text(ns, 1_000_000_000)
}

/// i915's default `dev.i915.oa_max_sample_rate` (Hz): i915 refuses a faster
/// period (EACCES) to a process without CAP_PERFMON
/// (`drivers/gpu/drm/i915/i915_perf.c`, `i915_oa_max_sample_rate`).
pub const I915_MAX_SAMPLE_RATE: u64 = 100_000;

/// The note for an i915 stream whose exponent `e` at `freq` Hz samples
/// faster than `limit` Hz (the sysctl's value, or its default), if it does.
fn i915_rate_note(e: u64, freq: u64, limit: u64) -> Option<String> {
    let rate = freq / (1u64 << (e + 1));
    (rate > limit).then(|| {
        format!(
            "note: exponent {e} samples at {rate} Hz, above i915's oa_max_sample_rate ({limit} Hz): \
i915 refuses it (EACCES) unless the process has CAP_PERFMON or root, or `sudo sysctl \
dev.i915.oa_max_sample_rate={rate}`; a longer --period or a larger --exponent stays under it"
        )
    })
}

/// Fail early when `path` cannot be written (no such folder, no
/// permission), before anything is programmed; a file this creates is
/// removed again, an existing one is left as it is.
fn check_output(path: &Path) -> Result<(), Fail> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| Fail::usage(format!("cannot create {}: {e}", path.display())))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// The topology bytes (i915's query layout) of a preset: its slices, each
/// with its subslices (3 bits a slice in a several-slice preset's mask: the
/// metric sets' numbering before Gen11, the only generations with several
/// slices), the same EUs in each subslice.
fn preset_topology(d: &DeviceInfo) -> Result<Vec<u8>, Fail> {
    let subslices = d.subslice_mask.count_ones();
    let per = d.eu_cores_total_count / u64::from(subslices.max(1));
    let unusable = || {
        Fail::findings(format!(
            "the preset's topology is unusable: slice mask {:#x}, subslice mask {:#x}, {} EUs",
            d.slice_mask, d.subslice_mask, d.eu_cores_total_count
        ))
    };
    if subslices == 0 || per == 0 || per > 64 || d.slice_mask == 0 {
        return Err(unusable());
    }
    let eu_mask = if per == 64 { u64::MAX } else { (1 << per) - 1 };
    let topology = if d.slice_mask == 1 {
        let max_subslices = 64 - d.subslice_mask.leading_zeros();
        Topology::single_slice(max_subslices as u16, d.subslice_mask, per as u16, eu_mask)
    } else {
        let slices = 64 - d.slice_mask.leading_zeros();
        // Bits a slice takes in the subslice mask (the catalogue's
        // `topology: subslices_per_slice`: 3 on Gen9, 4 from DG2 on).
        let width = match d.subslices_per_slice {
            w @ 1..=16 => w as u32,
            _ => return Err(unusable()),
        };
        let all = (1u64 << width) - 1;
        let masks: Vec<u64> = (0..slices)
            .map(|s| d.subslice_mask.checked_shr(width * s).unwrap_or(0) & all)
            .collect();
        // Every subslice bit belongs to an enabled slice.
        let covered = (0..slices)
            .filter(|s| d.slice_mask >> s & 1 == 1)
            .fold(0u64, |m, s| m | all.checked_shl(width * s).unwrap_or(0));
        if d.subslice_mask & !covered != 0 {
            return Err(unusable());
        }
        Topology::from_masks(d.slice_mask, width as u16, &masks, per as u16, eu_mask)
    };
    topology
        .map(|t| t.to_bytes())
        .map_err(|e| Fail::findings(format!("the preset's topology: {e}")))
}

/// The stop flag that SIGINT and SIGTERM set.
pub(super) fn stop_flag() -> Result<Arc<AtomicBool>, Fail> {
    let flag = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The second signal, once the flag is set, ends the program at once
        // (exit code 1): a way out should the recorder hang.
        signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(&flag))
            .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&flag)))
            .map_err(|e| Fail::findings(format!("cannot catch signal {sig}: {e}")))?;
    }
    Ok(flag)
}

/// The progress line.
struct Progress {
    live: bool,
    started: Instant,
    last: Option<Instant>,
}

impl Progress {
    fn new() -> Self {
        Progress {
            live: std::io::stderr().is_terminal(),
            started: Instant::now(),
            last: None,
        }
    }

    /// The line for `p` (at most every [`PROGRESS_EVERY`]), `extra` after it.
    fn tick(&mut self, p: &record::Progress, extra: impl FnOnce() -> String) {
        if !self.live {
            return;
        }
        let now = Instant::now();
        if self
            .last
            .is_some_and(|l| now.duration_since(l) < PROGRESS_EVERY)
        {
            return;
        }
        self.last = Some(now);
        let secs = now.duration_since(self.started).as_secs_f64();
        let mbs = p.bytes as f64 / 1e6 / secs.max(1e-9);
        eprint!(
            "\r\x1b[K{} reports, {} lost, {mbs:.2} MB/s, {secs:.1}s elapsed{}",
            p.samples,
            p.reports_lost + p.buffers_lost,
            extra()
        );
        let _ = std::io::stderr().flush();
    }

    fn done(&self) {
        if self.live && self.last.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

/// The summary line, with what the reader did beyond reading (`EINTR`s
/// retried, the buffer grown on `ENOSPC`, Xe STATUS reads and events).
fn summary<W>(r: &Recorded<W>, file: &Path, how: &str) -> String {
    let counts = r.counts;
    let mut s = format!(
        "recorded {} reports ({} report-lost, {} buffer-lost) in {} bytes to {}{how}",
        r.samples,
        r.reports_lost,
        r.buffers_lost,
        r.bytes,
        file.display()
    );
    if counts.interrupted > 0 {
        s.push_str(&format!(
            "; {} read(s) interrupted (EINTR) and retried",
            counts.interrupted
        ));
    }
    if counts.buffer_grown > 0 {
        s.push_str(&format!(
            "; the read buffer grown {} time(s) (ENOSPC)",
            counts.buffer_grown
        ));
    }
    if counts.status_reads > 0 {
        s.push_str(&format!(
            "; {} EIO read(s) answered by the Xe STATUS ioctl",
            counts.status_reads
        ));
    }
    let events = counts.counter_overflow + counts.trigger_queue_full + counts.unknown_status;
    if events > 0 {
        s.push_str(&format!(
            "; Xe status events not in the file (IGT's format has no record type for them): \
             {} COUNTER_OVERFLOW, {} MMIO_TRG_Q_FULL, {} unknown",
            counts.counter_overflow, counts.trigger_queue_full, counts.unknown_status
        ));
    }
    s
}

/// Where a recording goes: its file, or with --ring a circular buffer
/// whose last records are written to the file at the end.
enum Sink {
    /// The file, buffered.
    File(BufWriter<std::fs::File>),
    /// The circular buffer.
    Ring(Box<perfregs_linux::ring::Ring>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::File(f) => f.write(buf),
            Sink::Ring(r) => r.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Ring(r) => r.flush(),
        }
    }
}

/// What `--ring` keeps: bytes of records, or nanoseconds of reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingKeep {
    /// The last N bytes of records.
    Bytes(usize),
    /// The reports of the last N nanoseconds (by their timestamps).
    Ns(u64),
}

/// `--ring`: a duration (a number with ns, us, ms or s) or a size.
fn ring_keep(v: &str) -> Result<RingKeep, String> {
    let t = v.trim();
    if t.ends_with('s') || t.ends_with('S') {
        return duration_ns(t).map(|n| RingKeep::Ns(n.get()));
    }
    ring_size(t).map(RingKeep::Bytes)
}

/// Where reports of `layout` on `project` hold their timestamp (the
/// layout's `TIME_STAMP` slot).
fn timestamp_slot(project: &str, layout: &str) -> Option<perfregs_linux::ring::TimestampSlot> {
    let slot = hal::project(project)?
        .formats
        .iter()
        .find(|f| f.name == layout)?
        .counter("TIME_STAMP")?;
    Some(perfregs_linux::ring::TimestampSlot {
        offset: slot.offset as usize,
        bits: slot.bits,
    })
}

/// The sink of `args`: `-o`'s file created, or (--ring SIZE|TIME) a
/// circular buffer that SIGUSR1 asks to write a numbered snapshot of; a
/// time window needs the timestamp frequency `freq` and the reports'
/// timestamp `slot`.
fn create(
    args: &RecordArgs,
    stop: &Arc<AtomicBool>,
    freq: u64,
    slot: Option<perfregs_linux::ring::TimestampSlot>,
) -> Result<Sink, Fail> {
    let path = &args.output;
    let Some(keep) = args.ring else {
        return std::fs::File::create(path)
            .map(|f| Sink::File(BufWriter::with_capacity(1 << 20, f)))
            .map_err(|e| Fail::findings(format!("cannot create {}: {e}", path.display())));
    };
    let (ring, what) = match keep {
        RingKeep::Bytes(size) => (
            perfregs_linux::ring::Ring::new(size),
            format!("the last {} of records", bytes_text(size as u64)),
        ),
        RingKeep::Ns(ns) => {
            let slot = slot.ok_or_else(|| {
                Fail::usage("--ring TIME: this report layout has no timestamp; give a size (64M)")
            })?;
            let ticks = u64::try_from(u128::from(ns) * u128::from(freq) / 1_000_000_000)
                .unwrap_or(u64::MAX);
            (
                perfregs_linux::ring::Ring::window(ticks, slot),
                format!(
                    "the reports of the last {} ({ticks} timestamp ticks at {freq} Hz)",
                    ticks_text_ns(ns)
                ),
            )
        }
    };
    #[cfg(not(target_os = "linux"))]
    let _ = stop;
    #[cfg(unix)]
    let ring = {
        let flag = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(signal_hook::consts::SIGUSR1, Arc::clone(&flag))
            .map_err(|e| Fail::findings(format!("cannot catch SIGUSR1: {e}")))?;
        eprintln!(
            "ring: {what} kept; `kill -USR1 {}` writes them to a numbered file beside {}",
            std::process::id(),
            path.display()
        );
        #[cfg(target_os = "linux")]
        if let Some(fifo) = &args.control {
            perfregs_linux::ring::control_fifo(fifo, Arc::clone(&flag), Arc::clone(stop))
                .map_err(|e| Fail::usage(format!("--control {}: {e}", fifo.display())))?;
            eprintln!(
                "control: `echo dump > {0}` writes a snapshot, `echo quit > {0}` ends",
                fifo.display()
            );
        }
        ring.dump_on(flag, path.clone())
    };
    Ok(Sink::Ring(Box::new(ring)))
}

/// `n` bytes as text (`64 MiB`).
fn bytes_text(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Flush the sink into the file at `path` and sync it (a ring: its
/// snapshot written); the note a ring adds to the summary.
fn sync(out: Sink, path: &Path) -> Result<String, Fail> {
    let file = match out {
        Sink::File(f) => f
            .into_inner()
            .map_err(|e| Fail::findings(format!("writing {}: {}", path.display(), e.error())))?,
        Sink::Ring(mut ring) => {
            let mut note = String::new();
            for (p, r) in ring.take_dumps() {
                match r {
                    Ok(n) => note.push_str(&format!("; snapshot {} ({n} bytes)", p.display())),
                    Err(e) => note.push_str(&format!("; snapshot {} failed: {e}", p.display())),
                }
            }
            let snapshot = ring.snapshot();
            std::fs::write(path, &snapshot)
                .map_err(|e| Fail::findings(format!("writing {}: {e}", path.display())))?;
            return Ok(format!(
                "; the ring kept the last {} records ({} bytes written), {} older ones dropped{note}",
                ring.kept(),
                snapshot.len(),
                ring.dropped()
            ));
        }
    };
    file.sync_all()
        .map_err(|e| Fail::findings(format!("writing {}: {e}", path.display())))?;
    Ok(String::new())
}

/// A recording's error as the command says it: a write error as every
/// write error, the stream's enable and wait errors after `stream`, the
/// others as the session says them (`reading the OA stream: ...`).
fn record_fail(e: RecordError, stream: &str) -> Fail {
    match e {
        RecordError::Write(e) => e.into(),
        RecordError::Enable(e) | RecordError::Wait(e) => Fail::findings(format!("{stream}: {e}")),
        other => Fail::findings(other.to_string()),
    }
}

/// What opening an emulated stream takes: `record --emulate`'s and `top
/// --emulate`'s arguments.
#[derive(Debug, Clone, Copy)]
pub(super) struct EmulatedOpen<'a> {
    /// The project (lower case).
    pub project: &'a str,
    /// `--gt`.
    pub gt: Option<u8>,
    /// `--driver`.
    pub driver: Option<&'a str>,
    /// `--unit`.
    pub unit: Option<&'a str>,
    /// `--metric-set`.
    pub metric_set: &'a str,
    /// `--exponent`.
    pub exponent: Option<u64>,
    /// `--period`.
    pub period: Option<NonZeroU64>,
    /// `--inject-open-errno`.
    pub open_errno: Option<i32>,
    /// `--inject-status` given (it needs xe).
    pub xe_status: bool,
    /// `--workload` (`None`: the default).
    pub workload: Option<&'a str>,
    /// `--context`: the context filter.
    pub context: Option<u32>,
    /// `--inject-contexts`: an emulated client on two contexts.
    pub inject_contexts: Option<[u32; 2]>,
}

/// An emulated stream opened, programmed with its set, and what was chosen
/// on the way (what `record` and `top` print and `record` writes).
#[cfg(target_os = "linux")]
pub(super) struct EmulatedOpened {
    /// The stream (enabled).
    pub stream: perfregs_linux::emulated::EmulatedStream,
    /// The project.
    pub project: &'static hal::meta::ProjectInfo,
    /// `tgl GT2`.
    pub part: String,
    /// The part's device values.
    pub preset: DeviceInfo,
    /// The metric set.
    pub set: &'static SetInfo,
    /// The set's metric sets, all of the part's.
    pub sets: &'static [SetInfo],
    /// Under xe.
    pub xe: bool,
    /// The report layout.
    pub typed: TypedFormat,
    /// Xe: the uapi format and IGT's xe format.
    pub xe_format: Option<(u64, &'static xe_recording::XeFormat)>,
    /// The OA unit's index and catalogue entry.
    pub unit_index: usize,
    /// The OA unit's catalogue entry.
    pub unit: Option<&'static hal::meta::OaUnitInfo>,
    /// The PCI id of the part.
    pub pci_id: u16,
    /// The PCI id's platform name.
    pub platform: &'static str,
    /// Register writes the set's programming took.
    pub writes: usize,
    /// The timer exponent.
    pub exponent: u64,
    /// The line saying the period.
    pub period_line: String,
    /// i915's sample-rate note, if the period is above it.
    pub rate_note: Option<String>,
    /// The timestamp frequency (Hz).
    pub freq: u64,
    /// The stream's format in the catalogue.
    pub format: &'static hal::meta::FormatInfo,
    /// The workload line (`workload: busy (...)`, or none scripted).
    pub workload_line: String,
}

/// Open the emulated stream of `o`: the part, driver, set, format and OA
/// unit chosen and checked, the emulated GPU programmed with the set, the
/// stream opened and enabled (shared by `record --emulate` and `top
/// --emulate`).
#[cfg(target_os = "linux")]
pub(super) fn open_emulated(o: &EmulatedOpen<'_>) -> Result<EmulatedOpened, Fail> {
    use perfregs_linux::emulated::{EmulatedStream, StreamConfig};
    use perfregs_linux::stream::Framing;

    let project_name = o.project;

    let project = super::find_project(project_name)
        .ok_or_else(|| Fail::usage(format!("unknown project `{project_name}`")))?;
    let gt = perfregs_session::choose_gt(project.name, o.gt)
        .map_err(|f| Fail::usage(f.to_string()))?
        .ok_or_else(|| Fail::usage(format!("{}: no part to emulate", project.name)))?;
    // The driver asked for, else the catalogue's default (xe on the parts
    // only xe drives).
    let default_xe = project
        .gpu
        .and_then(|g| g.default_driver())
        .is_some_and(|d| d == hal::meta::Driver::Xe);
    let xe = o
        .driver
        .map_or(default_xe, |d| d.eq_ignore_ascii_case("xe"));
    if !xe
        && project
            .gpu
            .is_some_and(|g| !g.runs_under(hal::meta::Driver::I915))
    {
        return Err(Fail::usage(format!(
            "--driver i915: {} runs under xe only",
            project.name.to_ascii_uppercase()
        )));
    }
    if xe && !runs_under_xe(project.name) {
        return Err(Fail::usage(format!(
            "--driver xe: {} runs under i915 only (xe drives TGL and later: {} here)",
            project.name.to_ascii_uppercase(),
            xe_projects()
        )));
    }
    if o.xe_status && !xe {
        return Err(Fail::usage(
            "--inject-status is an Xe STATUS: give --driver xe",
        ));
    }
    let preset = hal::part(project.name, gt)
        .ok_or_else(|| Fail::findings(format!("no part {} GT{gt} in the catalogue", project.name)))?
        .device;
    let part = format!("{} GT{gt}", project.name);
    let (all, ..) = sets(project.name, Some(gt))
        .ok_or_else(|| Fail::findings(format!("no metric sets for {part}")))?;
    let set = find_set(all, o.metric_set, &part).map_err(Fail::usage)?;
    // A PCI id of the part: one the device table gives this GT, else (a
    // project whose ids name no GT) one of the project's.
    let of_project = || {
        hal::DEVICES
            .iter()
            .filter(|d| d.project == Some(project.name))
    };
    let pci = of_project()
        .find(|d| d.gt == Some(gt))
        .or_else(|| of_project().find(|d| d.gt.is_none()))
        .ok_or_else(|| Fail::findings(format!("the device table has no PCI id of {part}")))?;
    // The set's own layout (a media set's MPEC format), else the stream's.
    let typed = match set.format {
        Some(layout) => perfregs_session::layout(project.name, layout),
        None => stream_format(project.name),
    }
    .ok_or_else(|| Fail::findings(format!("no typed report format of {}", project.name)))?;
    let (unit_index, unit) = choose_unit(project, o.unit, typed.name, set.symbol)?;
    let format = project
        .formats
        .iter()
        .copied()
        .find(|f| f.name == typed.name && f.size == typed.size)
        .ok_or_else(|| Fail::findings(format!("{} has no format {}", project.name, typed.name)))?;
    let xe_format = match xe {
        true => {
            let packed = xe_format(project.name, typed.name).ok_or_else(|| {
                Fail::findings(format!("xe offers no format {} on {part}", typed.name))
            })?;
            Some((packed, igt_xe_format(packed, &typed)?))
        }
        false => None,
    };
    let freq = preset.gpu_timestamp_frequency;
    let (exponent, period_line) = exponent_of(o.exponent, o.period, freq);
    // The emulated kernel takes any exponent; a real i915 would not.
    let rate_note = (!xe)
        .then(|| i915_rate_note(exponent, freq, I915_MAX_SAMPLE_RATE))
        .flatten()
        .map(|n| format!("{n} (the emulated i915 takes it)"));

    // The emulated part (its preset's subslices present) with the set's programming.
    let lowered = super::metrics::workload(
        o.workload.unwrap_or(perfregs_session::workload::DEFAULT),
        project,
        &preset,
    )?;
    let emu = perfregs_session::emulator(project, &preset);
    let (mut emu, writes) = perfregs_session::program(emu, project.name, set, &preset)
        .map_err(|e| Fail::findings(e.to_string()))?;
    perfregs_session::workload::apply(&mut emu, &lowered);
    let framing = match xe {
        true => Framing::XeRaw,
        false => Framing::I915Records,
    };
    let mut cfg = StreamConfig::new(framing, format);
    cfg.unit = unit_index;
    cfg.exponent = exponent;
    cfg.open_errno = o.open_errno;
    cfg.context = o.context;
    cfg.clients = o
        .inject_contexts
        .map(|ids| perfregs_linux::emulated::ContextRun {
            ids,
            ticks: cfg.period().unwrap_or(1).saturating_mul(8),
        });
    // Xe: opened disabled (OA_DISABLED), then enabled, as on a device.
    cfg.disabled = xe;
    let mut stream = EmulatedStream::open(emu, cfg)
        .map_err(|e| Fail::findings(format!("opening the emulated stream: {e}")))?;
    if xe {
        stream
            .enable()
            .map_err(|e| Fail::findings(format!("enabling the emulated stream: {e}")))?;
    }

    Ok(EmulatedOpened {
        stream,
        project,
        part,
        preset,
        set,
        sets: all,
        xe,
        typed,
        xe_format,
        unit_index,
        unit,
        pci_id: pci.pci_id,
        platform: pci.platform,
        writes,
        exponent,
        period_line,
        rate_note,
        freq,
        format,
        workload_line: lowered.line,
    })
}

/// `--emulate`.
#[cfg(target_os = "linux")]
fn emulated(args: &RecordArgs, project_name: &str) -> Result<String, Fail> {
    let EmulatedOpened {
        stream,
        project,
        part,
        preset,
        set,
        sets: _,
        xe,
        typed,
        xe_format,
        unit_index,
        unit,
        pci_id,
        platform,
        writes,
        exponent: _,
        period_line,
        rate_note,
        freq,
        format,
        workload_line,
    } = open_emulated(&EmulatedOpen {
        project: project_name,
        gt: args.part.gt().map(|g| g.0),
        driver: args.driver.as_deref(),
        unit: args.unit.as_deref(),
        metric_set: &args.metric_set,
        exponent: args.exponent,
        period: args.period,
        open_errno: args.inject_open_errno,
        xe_status: args.inject_status.is_some(),
        workload: args.workload.as_deref(),
        context: args.context,
        inject_contexts: args.inject_contexts,
    })?;
    let stop = match (args.reports, args.duration) {
        (Some(n), _) => Stop::Reports(n.get()),
        (None, Some(d)) => Stop::Ns(d.get()),
        (None, None) => Stop::Ns(DEFAULT_EMULATED_NS),
    };
    let mut device = device_info(&preset, u32::from(pci_id), 0, &typed, set);
    // The unit's first engine names it in DEVICE_INFO (IGT's recorders);
    // a unit without engines (Xe2's SAG) keeps render 0.
    if let Some((class, instance)) = unit
        .and_then(|u| u.engines.first())
        .and_then(|e| perfregs_linux::discovery::oa_units::engine(e).ok())
    {
        device.engine_class = u32::from(class);
        device.engine_instance = u32::from(instance);
    }
    let topology = preset_topology(&preset)?;
    // Under xe: IGT's xe format number and xe's topology record.
    let (recording, topology) = match xe_format {
        Some((_, igt)) => {
            device.oa_format = igt.igt;
            let t = Topology::parse(&topology)
                .map_err(|e| Fail::findings(format!("the preset's topology: {e}")))?;
            (RecordingFormat::Xe, xe_topology(&t)?)
        }
        None => (RecordingFormat::I915, topology),
    };
    eprintln!(
        "recording emulated {part}{} (PCI id {:#06x}, {}), {} ({}, uuid {}): {writes} register writes programmed, {}, {freq} Hz timestamp, GT {}-{} Hz",
        if xe { " under xe" } else { "" },
        pci_id,
        platform,
        set.symbol,
        set.name,
        set.guid,
        format_text(&typed, xe_format, unit_index, &device),
        device.gt_min_frequency,
        device.gt_max_frequency
    );
    eprintln!("{period_line}");
    eprintln!("{workload_line}");
    if let Some(n) = rate_note {
        eprintln!("{n}");
    }

    let flag = stop_flag()?;
    let slot = timestamp_slot(project.name, format.name);
    let w = RecordingWriter::with_format(
        create(args, &flag, freq, slot)?,
        recording,
        &device,
        &topology,
    )?;
    let plan = EmulatedPlan {
        timestamp_frequency: freq,
        faults: Faults {
            losses: args.inject_loss.map_or(0, NonZeroU8::get),
            errno: args.inject_errno,
            xe_status: args.inject_status,
        },
    };
    let mut progress = Progress::new();
    const ENABLING: &str = "enabling the emulated stream";
    let recorded = Recorder::new(stop)
        .flag(&flag)
        .progress(|p| {
            let ticks = p.emulated_ticks.unwrap_or(0);
            progress.tick(p, || format!(", {} emulated", ticks_text(ticks, freq)))
        })
        .record_emulated(stream, w, plan)
        .map_err(|e| record_fail(e, ENABLING))?;
    progress.done();
    let (ticks, taken) = recorded
        .emulated
        .map_or((0, 0), |e| (e.ticks, e.reports_taken));
    let how = format!(
        " ({} emulated{}; the emulated kernel took {taken} reports)",
        ticks_text(ticks, freq),
        if recorded.interrupted {
            ", interrupted"
        } else {
            ""
        },
    );
    let mut line = summary(&recorded, &args.output, &how);
    line.push_str(&sync(recorded.output, &args.output)?);
    if taken != recorded.counts.reports {
        line.push_str(&format!(
            "; note: {taken} reports taken by the kernel, {} read",
            recorded.counts.reports
        ));
    }
    ended_by(recorded.failure.map(|e| record_fail(e, ENABLING)), line)
}

/// The OA unit to record from: `--unit NAME`, else the render unit, or for
/// a set whose layout only a media unit writes, the first such unit (said
/// on stderr). Its index (xe's `OA_UNIT_ID`) and catalogue entry (`None`
/// before Gen12, where the catalogue names one unit without kinds).
fn choose_unit(
    project: &hal::meta::ProjectInfo,
    name: Option<&str>,
    layout: &str,
    set: &str,
) -> Result<(usize, Option<&'static hal::meta::OaUnitInfo>), Fail> {
    let units: &[hal::meta::OaUnitInfo] = project.gpu.and_then(|g| g.oa).map_or(&[], |o| o.units);
    let names = || units.iter().map(|u| u.name).collect::<Vec<_>>().join(", ");
    let takes = |u: &hal::meta::OaUnitInfo| perfregs_session::unit_takes(project.name, u, layout);
    match name {
        Some(n) => {
            let i = units
                .iter()
                .position(|u| u.name.eq_ignore_ascii_case(n))
                .ok_or_else(|| {
                    Fail::usage(format!(
                        "--unit {n}: {} has no such OA unit (its units: {})",
                        project.name,
                        names()
                    ))
                })?;
            if !takes(&units[i]) {
                let by: Vec<&str> = units.iter().filter(|u| takes(u)).map(|u| u.name).collect();
                return Err(Fail::usage(format!(
                    "--unit {n}: {set} reads {layout} reports, which unit {} does not write (units that do: {})",
                    units[i].name,
                    by.join(", ")
                )));
            }
            Ok((i, Some(&units[i])))
        }
        // A media set: the first media unit with engines (IGT opens its
        // media streams on a video engine's unit), else any that writes it.
        None => match units
            .iter()
            .position(|u| takes(u) && !u.engines.is_empty())
            .or_else(|| units.iter().position(takes))
        {
            Some(0) => Ok((0, units.first())),
            Some(i) => {
                eprintln!(
                    "note: {set} reads {layout} reports, a media unit's: recording OA unit {} (--unit chooses among {})",
                    units[i].name,
                    names()
                );
                Ok((i, Some(&units[i])))
            }
            None if units.is_empty() => Ok((0, None)),
            None => Err(Fail::findings(format!(
                "{set} reads {layout} reports, which no OA unit of {} writes",
                project.name
            ))),
        },
    }
}

/// The summary, or the stream error that ended the recording (the file,
/// closed with its correlation, holds what was read before it).
fn ended_by(failed: Option<Fail>, line: String) -> Result<String, Fail> {
    match failed {
        None => Ok(line),
        Some(f) => Err(Fail {
            code: f.code,
            message: format!("{}; the recording ends there: {line}", f.message),
        }),
    }
}

impl RecordArgs {
    /// Run the command.
    pub fn run(self) -> ExitCode {
        let result =
            check_output(&self.output).and_then(|()| match (&self.emulate, &self.device) {
                (Some(p), None) => match self.roots.given() {
                    Some(flag) => Err(Fail::usage(format!("{flag} is for --device"))),
                    None => run_emulated(&self, p),
                },
                (None, Some(card)) => match self.emulate_only() {
                    Some(flag) => Err(Fail::usage(format!(
                    "{flag} is for --emulate; with --device the card's own driver and part are used"
                ))),
                    None => run_device(&self, card),
                },
                _ => Err(Fail::usage(
                    "give one of --device cardN and --emulate PROJECT",
                )),
            });
        match result {
            Ok(line) => {
                eprintln!("{line}");
                ExitCode::SUCCESS
            }
            Err(f) => f.exit_from("record"),
        }
    }
}

#[cfg(target_os = "linux")]
fn run_emulated(args: &RecordArgs, project: &str) -> Result<String, Fail> {
    emulated(args, &project.to_ascii_lowercase())
}

#[cfg(not(target_os = "linux"))]
fn run_emulated(_: &RecordArgs, _: &str) -> Result<String, Fail> {
    Err(Fail::findings(
        "the emulated stream uses a pipe and the Linux read path: Linux only",
    ))
}

#[cfg(not(target_os = "linux"))]
fn run_device(_: &RecordArgs, _: &str) -> Result<String, Fail> {
    Err(Fail::findings(
        "recording a real GPU needs Linux (i915 perf or Xe observation)",
    ))
}

#[cfg(target_os = "linux")]
fn run_device(args: &RecordArgs, card: &str) -> Result<String, Fail> {
    device::run(args, card)
}

#[cfg(all(test, target_os = "linux"))]
mod kernel_lists;

/// `--device cardN`: a real GPU through i915 perf or Xe observation.
#[cfg(target_os = "linux")]
pub(super) mod device {
    use super::*;
    use perfregs_linux::config::{self, ListKind, OaConfig};
    use perfregs_linux::discovery::probe::{probe, Answers};
    use perfregs_linux::discovery::{discover, gt_frequencies, Driver, Roots};
    use perfregs_linux::errno::Driver as KernelDriver;
    use perfregs_linux::stream::i915::{I915Params, I915Stream};
    use perfregs_linux::stream::xe::{XeParams, XeStream};
    use perfregs_metrics::rt::ConfigKind;

    /// The i915 register list of a metric set's block: NOA blocks go to the
    /// mux list, OA blocks to the boolean list, FLEX blocks to the flex list.
    pub(super) fn kernel_list(kind: ConfigKind) -> ListKind {
        match kind {
            ConfigKind::Oa => ListKind::Boolean,
            ConfigKind::Noa => ListKind::Mux,
            ConfigKind::Flex => ListKind::Flex,
        }
    }

    /// What opening a card's stream takes (`record --device`, `top
    /// --device`).
    pub(crate) struct DeviceOpen<'a> {
        /// The card: `card0` or `0`.
        pub card: &'a str,
        /// `--metric-set`.
        pub metric_set: &'a str,
        /// `--exponent`.
        pub exponent: Option<u64>,
        /// `--period`.
        pub period: Option<NonZeroU64>,
        /// `--context`: the context filter.
        pub context: Option<u32>,
        /// Where the card is found.
        pub roots: &'a DeviceRoots,
    }

    /// A card's stream opened (disabled) with its set's configuration, and
    /// what was found on the way (what `record` writes and `top` shows).
    pub(crate) struct DeviceOpened {
        /// The stream, opened disabled: enable it to sample.
        pub stream: Box<dyn OaStream>,
        /// `card0`.
        pub name: String,
        /// The project the card is.
        pub project: &'static str,
        /// `tgl GT2`.
        pub part: String,
        /// The device values the driver gave.
        pub info: DeviceInfo,
        /// The metric set.
        pub set: &'static SetInfo,
        /// The part's metric sets.
        pub sets: &'static [SetInfo],
        /// The timer exponent.
        pub exponent: u64,
        /// The timestamp frequency (Hz).
        pub freq: u64,
        /// The line saying the period.
        pub period_line: String,
        /// What was opened: `card0 (...), SET (GUID): config id ...`.
        pub opened: String,
        /// The recording's format (i915 or Xe framing).
        pub recording: RecordingFormat,
        /// The recording's DEVICE_INFO.
        pub device: RecordedDevice,
        /// The recording's DEVICE_TOPOLOGY.
        pub topology: Vec<u8>,
        /// Where the reports' timestamps are (for a time ring).
        pub slot: Option<perfregs_linux::ring::TimestampSlot>,
        /// The report layout.
        pub typed: TypedFormat,
    }

    /// Record card `args.device` (`card0` or `0`).
    pub(super) fn run(args: &RecordArgs, card: &str) -> Result<String, Fail> {
        let o = open(&DeviceOpen {
            card,
            metric_set: &args.metric_set,
            exponent: args.exponent,
            period: args.period,
            context: args.context,
            roots: &args.roots,
        })?;
        let name = o.name.clone();
        record(
            args,
            &name,
            o.stream,
            (o.recording, &o.device, &o.topology),
            o.slot,
            &o.opened,
            &o.period_line,
        )
    }

    /// Open card `o.card`'s stream of `o.metric_set`: the card judged, the
    /// driver asked, the configuration added (or reused), the stream opened
    /// disabled.
    pub(crate) fn open(o: &DeviceOpen<'_>) -> Result<DeviceOpened, Fail> {
        let name = o.card;
        let name = if name.chars().all(|c| c.is_ascii_digit()) {
            format!("card{name}")
        } else {
            name.to_string()
        };
        let defaults = Roots::default();
        let roots = Roots {
            sys: o.roots.sys.clone().unwrap_or(defaults.sys),
            proc: o.roots.proc.clone().unwrap_or(defaults.proc),
        };
        let list = discover(&roots).map_err(|e| {
            Fail::findings(format!(
                "no such card `{name}`: the DRM devices cannot be listed ({e}); `perfregs devices` says what this machine has"
            ))
        })?;
        let mut names = Vec::new();
        let mut found = None;
        for d in list {
            match d {
                Ok(d) if d.card.name == name => found = Some(d),
                Ok(d) => names.push(d.card.name.clone()),
                Err(e) => names.push(format!("(unreadable: {e})")),
            }
        }
        let d = found.ok_or_else(|| {
            Fail::findings(format!(
                "no such card `{name}` (cards here: {}); `perfregs devices` lists them",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        })?;
        if !d.access.allowed() {
            return Err(Fail::findings(format!("{d}")));
        }
        let card = &d.card;
        let id = card
            .id
            .ok_or_else(|| Fail::findings(format!("{name}: not in the device table")))?;
        let project = id
            .project
            .ok_or_else(|| Fail::findings(format!("{name}: {id} is not described yet")))?;
        let kernel = match card.driver {
            Some(Driver::I915) => KernelDriver::I915,
            Some(Driver::Xe) => KernelDriver::Xe,
            ref other => {
                return Err(Fail::findings(format!(
                    "{name}: bound to the {} driver: OA streams need i915 or xe",
                    other.as_ref().map_or("no".into(), |d| d.to_string())
                )))
            }
        };
        let part = match id.gt {
            Some(g) => format!("{project} GT{g}"),
            None => project.to_string(),
        };
        let (all, ..) = sets(project, id.gt)
            .ok_or_else(|| Fail::findings(format!("no metric sets for {part}")))?;
        let set = find_set(all, o.metric_set, &part).map_err(Fail::usage)?;
        let typed = stream_format(project)
            .ok_or_else(|| Fail::findings(format!("no typed report format of {project}")))?;
        let xe_format = match kernel {
            KernelDriver::Xe => {
                let packed = xe_format(project, typed.name).ok_or_else(|| {
                    Fail::findings(format!(
                        "{name}: the xe driver offers no format {} on {part}",
                        typed.name
                    ))
                })?;
                Some((packed, igt_xe_format(packed, &typed)?))
            }
            _ => None,
        };

        // The device as the driver says it.
        let dev_root = o.roots.dev.as_deref().unwrap_or(Path::new("/dev"));
        let answers = probe(dev_root, card)
            .map_err(|e| Fail::findings(format!("{name}: asking the driver: {e}")))?;
        let frequencies = match gt_frequencies(&roots.sys, card) {
            Ok(f) => f,
            Err(e) => {
                eprintln!(
                    "note: {name}: GPU frequencies unreadable ({e}): the preset's are recorded"
                );
                None
            }
        };
        let values = answers
            .device_values(card, frequencies)
            .map_err(|e| Fail::findings(format!("{name}: device values: {e}")))?;
        let info = values.info;
        // DEVICE_TOPOLOGY: i915's query as the kernel gave it; under xe the
        // main GT's masks in IGT's xe recorder layout.
        let (topology, revision) = match &answers {
            Answers::I915(p) => (
                p.topology
                    .clone()
                    .map_err(|e| Fail::findings(format!("{name}: topology: {e}")))?,
                p.perf_revision.ok().and_then(|r| u32::try_from(r).ok()),
            ),
            Answers::Xe(p) => (
                xe_topology(
                    &p.topology()
                        .map_err(|e| Fail::findings(format!("{name}: topology: {e}")))?
                        .0,
                )?,
                None,
            ),
        };
        let freq = info.gpu_timestamp_frequency;
        let (exponent, period_line) = exponent_of(o.exponent, o.period, freq);
        if matches!(kernel, KernelDriver::I915) {
            // The sysctl's value where it reads, else its default.
            let limit = std::fs::read_to_string(roots.proc.join("sys/dev/i915/oa_max_sample_rate"))
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(I915_MAX_SAMPLE_RATE);
            if let Some(n) = i915_rate_note(exponent, freq, limit) {
                eprintln!("{n}");
            }
        }

        // The configuration: blocks available on this device.
        let mut cfg =
            OaConfig::new(set.guid).map_err(|e| Fail::findings(format!("{}: {e}", set.symbol)))?;
        for b in set.configs.iter().filter(|b| b.is_available(&info)) {
            let list = kernel_list(b.kind);
            for &(a, v) in b.writes {
                cfg.push(list, a, v)
                    .map_err(|e| Fail::findings(format!("{}: {e}", set.symbol)))?;
            }
        }
        let node = card
            .render_node
            .as_ref()
            .ok_or_else(|| Fail::findings(format!("{name}: no render node")))?;
        let path = dev_root.join("dri").join(node);
        let drm = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| Fail::findings(format!("cannot open {}: {e}", path.display())))?;
        let card_dir = roots.sys.join("class/drm").join(&name);
        let (config_id, added) = config::ensure(&drm, kernel, &card_dir, &cfg)
            .map_err(|e| Fail::findings(format!("{name}: the configuration: {e}")))?;

        let mut device = device_info(
            &info,
            u32::from(card.pci_id),
            card.revision.map_or(0, u32::from),
            &typed,
            set,
        );
        let recording = match xe_format {
            Some((_, igt)) => {
                device.oa_format = igt.igt;
                RecordingFormat::Xe
            }
            None => RecordingFormat::I915,
        };
        let opened = format!(
            "{name} ({id}), {} ({}): config id {config_id} ({}), {}",
            set.symbol,
            set.guid,
            if added {
                "added"
            } else {
                "registered already, reused"
            },
            format_text(&typed, xe_format, 0, &device)
        );
        // Open the stream (either driver's type), disabled.
        let stream: Box<dyn OaStream> = match xe_format {
            Some((format, _)) => {
                // OA unit 0 (the OAG unit), opened disabled, then enabled.
                let mut params = XeParams::new(config_id, format, typed.size, exponent);
                params.exec_queue = o.context.map(u64::from);
                params.unit = Some(0);
                Box::new(
                    XeStream::open(&drm, &params)
                        .map_err(|e| Fail::findings(format!("{name}: {e}")))?,
                )
            }
            None => {
                let mut params = I915Params::new(config_id, typed.id, exponent);
                params.ctx_handle = o.context;
                Box::new(
                    I915Stream::open(&drm, &params, revision)
                        .map_err(|e| Fail::findings(format!("{name}: {e}")))?,
                )
            }
        };
        Ok(DeviceOpened {
            stream,
            slot: timestamp_slot(project, typed.name),
            name,
            project,
            part,
            info,
            set,
            sets: all,
            exponent,
            freq,
            period_line,
            opened,
            recording,
            device,
            topology,
            typed,
        })
    }

    /// Record `stream` (either driver's) into `args.output` until the
    /// stop: the same loop for i915 and Xe; `header` is the recording's
    /// format, DEVICE_INFO and DEVICE_TOPOLOGY bytes.
    pub(super) fn record<S: OaStream>(
        args: &RecordArgs,
        name: &str,
        stream: S,
        header: (RecordingFormat, &RecordedDevice, &[u8]),
        slot: Option<perfregs_linux::ring::TimestampSlot>,
        opened: &str,
        period_line: &str,
    ) -> Result<String, Fail> {
        let (format, device, topology) = header;
        eprintln!("recording {opened}");
        eprintln!("{period_line}");
        let flag = stop_flag()?;
        let w = RecordingWriter::with_format(
            create(args, &flag, device.timestamp_frequency, slot)?,
            format,
            device,
            topology,
        )?;
        let stop = match (args.reports, args.duration) {
            (Some(n), _) => Stop::Reports(n.get()),
            (None, Some(d)) => Stop::Ns(d.get()),
            (None, None) => Stop::Signal,
        };
        let mut progress = Progress::new();
        let recorded = Recorder::new(stop)
            .flag(&flag)
            .poll_timeout(PROGRESS_EVERY)
            .progress(|p| progress.tick(p, String::new))
            .record(stream, w)
            .map_err(|e| record_fail(e, name))?;
        progress.done();
        let mut line = summary(
            &recorded,
            &args.output,
            &format!(
                " ({:.1}s{})",
                recorded.elapsed.as_secs_f64(),
                if recorded.interrupted {
                    ", interrupted"
                } else {
                    ""
                }
            ),
        );
        if recorded.samples == 0 && recorded.closing.gpu_timestamp == 0 {
            line.push_str("; no report was read: the correlations carry GPU timestamp 0");
        }
        if let Some(e) = &recorded.disable_error {
            line.push_str(&format!("; disabling the stream failed: {e}"));
        }
        line.push_str(&sync(recorded.output, &args.output)?);
        ended_by(recorded.failure.map(|e| record_fail(e, name)), line)
    }
}

/// A --ring size: a number of bytes with an optional K, M or G (powers of
/// 1024), at least one report's worth (4 KiB).
fn ring_size(v: &str) -> Result<usize, String> {
    let t = v.trim();
    let (num, shift) = match t.char_indices().last() {
        Some((i, c)) if c.eq_ignore_ascii_case(&'k') => (&t[..i], 10),
        Some((i, c)) if c.eq_ignore_ascii_case(&'m') => (&t[..i], 20),
        Some((i, c)) if c.eq_ignore_ascii_case(&'g') => (&t[..i], 30),
        _ => (t, 0),
    };
    let n: usize = num.trim().parse().map_err(|_| {
        format!("`{v}` is not a size (bytes, or with K, M or G: 64M) nor a time (10s, 500ms)")
    })?;
    let bytes = n
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{v}` is too large"))?;
    if bytes < 4096 {
        return Err(format!("`{v}`: at least 4K (a few reports)"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfregs_linux::discovery::device_values;

    #[test]
    fn the_long_help_lists_the_catalogues_projects_parts_and_units() {
        let help = record_help();
        for name in perfregs_session::oa_projects() {
            let p = hal::project(name).expect("a compiled project");
            let Some(units) = p.gpu.and_then(|g| g.oa).map(|o| o.units) else {
                continue;
            };
            if units.len() > 1 {
                let names: Vec<&str> = units.iter().map(|u| u.name).collect();
                let listed = format!("{name}: {}", names.join(", "));
                assert!(help.contains(&listed), "{listed} missing from {help}");
            }
            let gts = perfregs_session::part_gts(name);
            if gts.len() > 1 {
                let gts: Vec<String> = gts.iter().map(|g| format!("GT{g}")).collect();
                let listed = format!("{name} ({})", gts.join(", "));
                assert!(help.contains(&listed), "{listed} missing");
            }
        }
        assert!(help.contains(&perfregs_session::oa_projects().join(", ")));
    }

    #[test]
    fn the_nearest_exponent_is_chosen() {
        // TGL, 19.2 MHz: 1 ms = 19200 ticks, nearest 2^14 (exponent 13).
        assert_eq!(nearest_exponent(1_000_000, 19_200_000), 13);
        // 100 us = 1920 ticks: 2^11 = 2048.
        assert_eq!(nearest_exponent(100_000, 19_200_000), 10);
        // HSW/BDW, 12.5 MHz: 1 ms = 12500 ticks: 2^14 = 16384 (3884 off)
        // is nearer than 2^13 = 8192 (4308 off).
        assert_eq!(nearest_exponent(1_000_000, 12_500_000), 13);
        // Ties and extremes: the shortest period, the longest.
        assert_eq!(nearest_exponent(1, 19_200_000), 0);
        assert_eq!(nearest_exponent(u64::MAX, 19_200_000), 31);
        // 3 ticks is as far from 2 as from 4: the shorter wins.
        assert_eq!(nearest_exponent(3_000_000_000, 1), 0);
    }

    #[test]
    fn preset_topologies_give_the_presets_back() {
        for part in hal::PARTS {
            let (project, gt, d) = (part.project, &part.gt, &part.device);
            let bytes = preset_topology(d).expect("a topology");
            let t = Topology::parse(&bytes).expect("parses");
            let v = device_values(&t, project, Some(*gt), d.gpu_timestamp_frequency, None)
                .expect("device values");
            assert_eq!(v.info, *d, "{project} GT{gt}");
        }
    }

    #[test]
    fn xe_formats_are_the_kernels() {
        // xe_oa.c oa_formats[]: { counter_select, size, OAG = 0 }.
        assert_eq!(xe_format("tgl", "A32u40_A4u32_B8_C8"), Some(0x500));
        assert_eq!(xe_format("tgl", "A32U40_A4U32_B8_C8"), Some(0x500));
        assert_eq!(xe_format("tgl", "A12"), Some(0));
        assert_eq!(xe_format("tgl", "A12_B8_C8"), Some(0x200));
        assert_eq!(xe_format("tgl", "C4_B8"), Some(0x700));
        // The layout recorded on TGL is one xe offers.
        let typed = stream_format("tgl").expect("a TGL format");
        assert_eq!(xe_format("tgl", typed.name), Some(0x500));
        // The other Gen12 parts xe drives (graphics 12 before 12.55) take
        // the same four layouts.
        for p in ["rkl", "adl", "dg1"] {
            assert_eq!(xe_format(p, "A32u40_A4u32_B8_C8"), Some(0x500), "{p}");
            assert_eq!(xe_format(p, "C4_B8"), Some(0x700), "{p}");
            let typed = stream_format(p).expect("a Gen12 format");
            assert_eq!(xe_format(p, typed.name), Some(0x500), "{p}");
        }
        // HSW to ICL have no xe; an unknown layout is not guessed.
        for p in ["chv", "skl", "kbl", "cfl", "cnl", "icl", "ehl"] {
            assert_eq!(xe_format(p, "A32u40_A4u32_B8_C8"), None, "{p}");
        }
        assert_eq!(xe_format("bdw", "A32u40_A4u32_B8_C8"), None);
        assert_eq!(xe_format("hsw", "A45_B8_C8"), None);
        assert_eq!(xe_format("tgl", "A45_B8_C8"), None);
    }

    #[test]
    fn status_bits_read_by_name_or_number() {
        assert_eq!(status_arg("COUNTER_OVERFLOW"), Ok(4));
        assert_eq!(status_arg("report_lost, MMIO_TRG_Q_FULL"), Ok(9));
        assert_eq!(status_arg("0x10"), Ok(16));
        assert_eq!(status_arg("3"), Ok(3));
        assert!(status_arg("0").is_err());
        assert!(status_arg("OVERHEAT").unwrap_err().contains("OVERHEAT"));
    }

    /// The `--device` loop (the one i915 and Xe share), fed an emulated
    /// stream in Xe mode opened disabled: raw reports become samples, the
    /// STATUS bits after an `EIO` become loss records or are counted, and
    /// the file is one IGT's reader takes.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_device_loop_records_an_xe_stream_with_its_losses() {
        use clap::Parser as _;
        use perfregs_linux::emulated::{EmulatedStream, Fault, StreamConfig};
        use perfregs_linux::recording::read_all;
        use perfregs_linux::stream::Framing;
        use perfregs_linux::uapi::xe::status;

        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: RecordArgs,
        }
        let out = std::env::temp_dir().join(format!(
            "perfregs-record-unit-xe-{}.record",
            std::process::id()
        ));
        let out_text = out.to_str().expect("utf-8 temp path");
        let cli = Cli::try_parse_from([
            "record",
            "--device",
            "card9",
            "--metric-set",
            "TestOa",
            "--reports",
            "500",
            "-o",
            out_text,
        ])
        .expect("arguments");

        let p = &hal::tgl::PROJECT;
        let format = p
            .formats
            .iter()
            .copied()
            .find(|f| f.size == 256)
            .expect("a 256-byte layout");
        let emu = perfregs_emu::Emulator::builder(p, perfregs_emu::Sku::default())
            .with::<perfregs_emu::OaUnit>(perfregs_emu::OaConfig::default())
            .build();
        let mut cfg = StreamConfig::new(Framing::XeRaw, format);
        cfg.disabled = true;
        let mut stream = EmulatedStream::open(emu, cfg).expect("the emulated stream");
        assert!(!stream.is_enabled(), "opened disabled");
        stream.inject(3, Fault::ReportLost);
        stream.inject(
            9,
            Fault::XeStatus(status::COUNTER_OVERFLOW | status::MMIO_TRG_Q_FULL),
        );
        stream.inject(15, Fault::BufferLost);
        let preset = hal::part("tgl", 2).expect("the TGL GT2 part").device;
        let device = RecordedDevice {
            timestamp_frequency: preset.gpu_timestamp_frequency,
            device_id: 0x9a49,
            device_revision: 1,
            gt_min_frequency: 300_000_000,
            gt_max_frequency: 1_350_000_000,
            engine_class: 0,
            engine_instance: 0,
            // IGT's XE_OA_FORMAT_A32u40_A4u32_B8_C8.
            oa_format: 4,
            metric_set_name: "TestOa".into(),
            metric_set_uuid: perfregs_metrics::tgl_gt2::test_oa::SET.guid.into(),
        };
        let topology = xe_topology(
            &Topology::parse(&preset_topology(&preset).expect("a topology")).expect("parses"),
        )
        .expect("an xe topology");
        let line = device::record(
            &cli.args,
            "card9",
            stream,
            (RecordingFormat::Xe, &device, &topology),
            None,
            "opened",
            "period",
        )
        .expect("the recording");
        let bytes = std::fs::read(&out).expect("the file");
        let _ = std::fs::remove_file(&out);
        let (rec, error) = read_all(&bytes);
        assert!(error.is_none(), "{error:?}");
        assert_eq!(rec.format, Some(RecordingFormat::Xe));
        assert_eq!(&bytes[..4], &4u32.to_le_bytes(), "xe's VERSION type");
        assert_eq!(rec.topology, Some(&topology[..]));
        assert!(rec.samples >= 500, "{}", rec.samples);
        assert_eq!((rec.reports_lost, rec.buffers_lost), (1, 1), "{line}");
        assert_eq!(rec.igt_readable(), Ok(()));
        assert!(
            line.contains(&format!(
                "recorded {} reports (1 report-lost, 1 buffer-lost)",
                rec.samples
            )),
            "{line}"
        );
        assert!(
            line.contains("; 3 EIO read(s) answered by the Xe STATUS ioctl"),
            "{line}"
        );
        assert!(
            line.contains("1 COUNTER_OVERFLOW, 1 MMIO_TRG_Q_FULL, 0 unknown"),
            "{line}"
        );
    }

    /// Every set of every shipped file is programmed on its own part's
    /// emulated GPU through the typed, checked path: the domains the
    /// dispatch wakes cover every register written, and the emulator has
    /// nothing to warn about.
    #[cfg(target_os = "linux")]
    #[test]
    fn every_shipped_set_programs_on_its_emulated_part() {
        let mut files = 0;
        for (file, project, sets) in perfregs_metrics::FILES {
            let gt = perfregs_session::file_gt(file, project);
            let d = hal::part_or_first(project, gt).expect("a part").device;
            let p = super::super::find_project(project).expect("a project");
            for set in *sets {
                let emu = perfregs_emu::Emulator::builder(p, perfregs_emu::Sku::default())
                    .with::<perfregs_emu::OaUnit>(perfregs_emu::OaConfig::default())
                    .build();
                let (emu, n) = perfregs_session::program(emu, project, set, &d)
                    .unwrap_or_else(|e| panic!("{file} {}: {e}", set.symbol));
                let want: usize = set
                    .configs
                    .iter()
                    .filter(|b| b.is_available(&d))
                    .map(|b| b.writes.len())
                    .sum();
                assert_eq!(n, want, "{file} {}", set.symbol);
                let w: Vec<String> = emu.warnings().iter().map(ToString::to_string).collect();
                assert!(w.is_empty(), "{file} {}: {w:#?}", set.symbol);
            }
            files += 1;
        }
        // Every shipped file (the folder's, as the regdefs crate lists them).
        assert_eq!(files, perfregs_regdefs::METRIC_SETS.len());
    }

    #[test]
    fn times_read_well() {
        assert_eq!(ticks_text(16384, 19_200_000), "853.333us");
        assert_eq!(ticks_text(19_200_000, 19_200_000), "1.000s");
        assert_eq!(ticks_text(2, 1_000_000_000), "2ns");
        // A frequency of 0 is taken as 1 Hz, never a division by zero.
        assert_eq!(ticks_text(5, 0), "5.000s");
    }
}
