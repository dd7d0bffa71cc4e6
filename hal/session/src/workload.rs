//! Emulated workloads: what the emulated GPU does while a set is sampled.
//!
//! A workload is data, written per event kind (`gpu_busy: 0.95`,
//! `eu_active: 0.70`, ...: events per GPU clock per unit of the device,
//! so that one workload means the same on every part), never in A-counter
//! numbers, which differ by generation. `regdefs/workloads/counters.yaml`
//! ([`perfregs_regdefs::WORKLOAD_COUNTERS`]) says which A counters count
//! each event per graphics IP range and how the event scales with the
//! part's topology; [`lower`] turns a workload into the emulator's
//! [`perfregs_emu::Workload`] (events per timestamp tick per A counter)
//! for one part. B and C counters are not driven: they come from NOA
//! signals through the CEC stage, which the emulator models on its own
//! (TestOa's test signals; constant signals otherwise, so an idle Gen9
//! part reads `Sampler0Busy` 100 as IGT sees on hardware).
//!
//! Built-in workloads: [`BUILTIN`] (`regdefs/workloads/NAME.yaml`), and
//! [`NONE`]. A file of one's own has the same shape:
//!
//! ```yaml
//! workload: mine
//! description: half the EUs active
//! events:
//!   gpu_busy: 0.9
//!   eu_active: 0.5
//! ```
//!
//! ```
//! use perfregs_session::workload;
//! let part = perfregs_session::part("tgl", None)?;
//! let spec = workload::choose(workload::DEFAULT).expect("a built-in");
//! let lowered = workload::lower(spec.as_ref(), &hal::tgl::PROJECT, &part.device).expect("lowers");
//! assert!(lowered.workload.rate_of(0) > 0); // A0: GpuBusy's clocks
//! assert!(lowered.line.starts_with("workload: busy"));
//! # Ok::<(), perfregs_session::Error>(())
//! ```

use std::collections::BTreeMap;
use std::sync::OnceLock;

use hal::meta::ProjectInfo;
use perfregs_types::{DeviceInfo, DeviceVar};
use serde::Deserialize;

/// The workload used when none is asked for: `busy`, so that a first run
/// shows activity.
pub const DEFAULT: &str = "busy";

/// The name that asks for no workload (the A counters stay 0).
pub const NONE: &str = "none";

/// The built-in workloads: (name, YAML text).
pub const BUILTIN: &[(&str, &str)] = perfregs_regdefs::WORKLOADS;

/// What [`NONE`] means, in a few words (a completion's or a listing's help).
pub const NONE_HELP: &str = "no workload: shader-event counters stay 0";

/// The line a tool prints when no workload is scripted.
pub const NONE_LINE: &str = "workload: none scripted (the emulator runs no shader work): counters of shader events stay 0; clocks, timestamps and what the set's programming derives from them count";

/// A workload: per event kind, a value (see `regdefs/workloads/counters.yaml`).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadSpec {
    /// Its name (the file's `workload:`).
    pub name: String,
    /// What it stands for (the file's `description:`, maybe empty).
    pub description: String,
    /// Where it came from: `built-in` or the file's path.
    pub origin: String,
    /// `(event, value)`, in the file's order.
    pub events: Vec<(String, f64)>,
}

/// A workload that could not be chosen or read; the message says where
/// (`file:line:column`) and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadError(pub String);

impl core::fmt::Display for WorkloadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WorkloadError {}

/// Every name `--workload` takes besides a file: [`NONE`] and the built-ins.
pub fn names() -> Vec<&'static str> {
    std::iter::once(NONE)
        .chain(BUILTIN.iter().map(|(n, _)| *n))
        .collect()
}

/// The workload `arg` names: `None` for [`NONE`], a built-in by name, or a
/// YAML file (a path: it exists, holds a `/`, or ends in `.yaml`/`.yml`).
/// An unknown name gets the close names; a bad file its `file:line:column`.
pub fn choose(arg: &str) -> Result<Option<WorkloadSpec>, WorkloadError> {
    if arg.eq_ignore_ascii_case(NONE) {
        return Ok(None);
    }
    if let Some((_, text)) = BUILTIN.iter().find(|(n, _)| n.eq_ignore_ascii_case(arg)) {
        let mut spec = parse(text, &format!("regdefs/workloads/{arg}.yaml"))?;
        spec.origin = "built-in".to_string();
        return Ok(Some(spec));
    }
    let path = std::path::Path::new(arg);
    let looks_like_file =
        arg.contains('/') || arg.ends_with(".yaml") || arg.ends_with(".yml") || path.is_file();
    if looks_like_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            WorkloadError(format!(
                "{arg}: {e} (a workload file is YAML: workload:, description:, events:)"
            ))
        })?;
        return parse(&text, arg).map(Some);
    }
    let all = names();
    let close = crate::set::close_names(arg, all.iter().copied());
    let hint = match close.as_slice() {
        [] => String::new(),
        c => format!(" (did you mean {}?)", c.join(", ")),
    };
    Err(WorkloadError(format!(
        "no workload `{arg}`{hint}: the workloads are {}, or a YAML file",
        all.join(", ")
    )))
}

/// The shape of a workload file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    workload: String,
    #[serde(default)]
    description: String,
    events: serde_yaml::Mapping,
}

/// Read a workload from `text` (named `origin` in messages): its events
/// must be events of `counters.yaml`, each a number from 0 to its `max`.
pub fn parse(text: &str, origin: &str) -> Result<WorkloadSpec, WorkloadError> {
    let file: File = serde_yaml::from_str(text).map_err(|e| {
        let at = e
            .location()
            .map_or(String::new(), |l| format!(":{}:{}", l.line(), l.column()));
        WorkloadError(format!("{origin}{at}: {e}"))
    })?;
    let m = meanings()?;
    let mut events = Vec::new();
    for (k, v) in &file.events {
        let Some(name) = k.as_str() else {
            return Err(WorkloadError(format!(
                "{origin}: an event name must be a string, not {k:?}"
            )));
        };
        let at = locate(text, name, origin);
        let Some(def) = m.events.get(name) else {
            let close = crate::set::close_names(name, m.events.keys().map(String::as_str));
            let hint = match close.as_slice() {
                [] => String::new(),
                c => format!(" (did you mean {}?)", c.join(", ")),
            };
            return Err(WorkloadError(format!(
                "{at}: no event `{name}`{hint}: the events are {}",
                m.events.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        };
        let Some(value) = v.as_f64().filter(|x| x.is_finite()) else {
            return Err(WorkloadError(format!(
                "{at}: {name}: a number is needed ({})",
                def.doc
            )));
        };
        if !(0.0..=def.max).contains(&value) {
            return Err(WorkloadError(format!(
                "{at}: {name}: {value} is outside 0..={} ({})",
                def.max, def.doc
            )));
        }
        events.push((name.to_string(), value));
    }
    Ok(WorkloadSpec {
        name: file.workload,
        description: file.description,
        origin: origin.to_string(),
        events,
    })
}

/// `origin:line:column` of the key `name:` in `text` (its first mention as
/// a key), or `origin` alone.
fn locate(text: &str, name: &str, origin: &str) -> String {
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
        {
            return format!("{origin}:{}:{}", i + 1, line.len() - t.len() + 1);
        }
    }
    origin.to_string()
}

/// One event of `counters.yaml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventDef {
    #[serde(default)]
    doc: String,
    #[serde(default)]
    per: Vec<String>,
    #[serde(default = "one")]
    divide: f64,
    max: f64,
}

fn one() -> f64 {
    1.0
}

/// One graphics IP range of `counters.yaml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeDef {
    graphics: [String; 2],
    a: BTreeMap<String, Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CountersFile {
    events: BTreeMap<String, EventDef>,
    counters: Vec<RangeDef>,
}

/// `counters.yaml`, checked: every `per` a device variable, every range's
/// events defined.
struct Meanings {
    events: BTreeMap<String, EventDef>,
    /// (first, last graphics version, event -> A counters).
    ranges: Vec<Range>,
}

/// A graphics IP range's table: (first, last version, event -> A counters).
type Range = ((u8, u8), (u8, u8), BTreeMap<String, Vec<u32>>);

fn version(s: &str) -> Option<(u8, u8)> {
    let (a, b) = s.split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn read_meanings(text: &str) -> Result<Meanings, String> {
    const ORIGIN: &str = "regdefs/workloads/counters.yaml";
    let f: CountersFile = serde_yaml::from_str(text).map_err(|e| {
        let at = e
            .location()
            .map_or(String::new(), |l| format!(":{}:{}", l.line(), l.column()));
        format!("{ORIGIN}{at}: {e}")
    })?;
    for (name, def) in &f.events {
        for v in &def.per {
            if DeviceVar::parse(v).is_none() {
                return Err(format!(
                    "{}: {name}: `{v}` is not a device value",
                    locate(text, name, ORIGIN)
                ));
            }
        }
        if !(def.divide > 0.0 && def.max >= 0.0) {
            return Err(format!(
                "{}: {name}: divide must be above 0 and max at least 0",
                locate(text, name, ORIGIN)
            ));
        }
    }
    let mut ranges = Vec::new();
    for r in f.counters {
        let (Some(lo), Some(hi)) = (version(&r.graphics[0]), version(&r.graphics[1])) else {
            return Err(format!(
                "{ORIGIN}: graphics {:?}: versions are \"major.minor\"",
                r.graphics
            ));
        };
        if let Some(e) = r.a.keys().find(|e| !f.events.contains_key(*e)) {
            return Err(format!(
                "{}: the counters of `{e}`, an event `events:` does not define",
                locate(text, e, ORIGIN)
            ));
        }
        ranges.push((lo, hi, r.a));
    }
    Ok(Meanings {
        events: f.events,
        ranges,
    })
}

fn meanings() -> Result<&'static Meanings, WorkloadError> {
    static M: OnceLock<Result<Meanings, String>> = OnceLock::new();
    M.get_or_init(|| read_meanings(perfregs_regdefs::WORKLOAD_COUNTERS))
        .as_ref()
        .map_err(|e| WorkloadError(e.clone()))
}

/// A workload lowered for one part: the emulator's rates, and the line a
/// tool prints about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lowered {
    /// Events per timestamp tick per A counter.
    pub workload: perfregs_emu::Workload,
    /// `workload: NAME (...)`, or [`NONE_LINE`].
    pub line: String,
}

/// Lower `spec` (`None`: no workload) for `project`'s part with device
/// values `d`, at the GPU clock the emulator runs it
/// ([`perfregs_emu::OaConfig::for_part`]). Each counter of an event counts
/// an equal share of `value * clocks * product(per) / divide` a tick,
/// rounded down (so a fraction of 1 never reads above 100%).
pub fn lower(
    spec: Option<&WorkloadSpec>,
    project: &ProjectInfo,
    d: &DeviceInfo,
) -> Result<Lowered, WorkloadError> {
    let Some(spec) = spec else {
        return Ok(Lowered {
            workload: perfregs_emu::Workload::new(),
            line: NONE_LINE.to_string(),
        });
    };
    let m = meanings()?;
    let clocks = perfregs_emu::OaConfig::for_part(d).gpu_clocks_per_tick;
    let what = if spec.description.is_empty() {
        spec.origin.clone()
    } else {
        format!("{}; {}", spec.description, spec.origin)
    };
    let graphics = project.gpu.map(|g| g.graphics);
    let range = graphics.and_then(|g| m.ranges.iter().find(|(lo, hi, _)| *lo <= g && g <= *hi));
    let Some((_, _, table)) = range else {
        let why = match graphics {
            Some((a, b)) => format!(
                "graphics {a}.{b} has no A-counter events in regdefs/workloads/counters.yaml (its counters are chosen by PES programming)"
            ),
            None => "not a GPU project".to_string(),
        };
        return Ok(Lowered {
            workload: perfregs_emu::Workload::new(),
            line: format!(
                "workload: {} ({what}): drives nothing on {}: {why}",
                spec.name, project.name
            ),
        });
    };
    let mut w = perfregs_emu::Workload::new();
    let (mut driven, mut counters, mut idle) = (0, 0, Vec::new());
    for (name, value) in &spec.events {
        let (Some(def), Some(list)) = (m.events.get(name), table.get(name)) else {
            idle.push(name.as_str());
            continue;
        };
        let scale: f64 = def
            .per
            .iter()
            .filter_map(|v| DeviceVar::parse(v))
            .map(|v| d.get(v) as f64)
            .product();
        let total = value * clocks as f64 * scale / def.divide;
        let share = total / list.len().max(1) as f64;
        let rate = if share.is_finite() && share > 0.0 {
            share.floor() as u64
        } else {
            0
        };
        for &a in list {
            let sum = w.rate_of(a).saturating_add(rate);
            w = w.rate(a, sum);
        }
        if rate > 0 {
            driven += 1;
            counters += list.len();
        }
    }
    let (a, b) = graphics.unwrap_or_default();
    let mut line = format!(
        "workload: {} ({what}): {driven} events on {counters} A counters of {} (graphics {a}.{b}, {clocks} GPU clocks a timestamp tick); B and C counters follow the NOA model",
        spec.name, project.name
    );
    if !idle.is_empty() {
        line.push_str(&format!("; not counted here: {}", idle.join(", ")));
    }
    Ok(Lowered { workload: w, line })
}

/// [`choose`] then [`lower`]: the workload `arg` names for `project`'s
/// part with device values `d` (a tool's `--workload`).
pub fn for_part(
    arg: &str,
    project: &ProjectInfo,
    d: &DeviceInfo,
) -> Result<Lowered, WorkloadError> {
    lower(choose(arg)?.as_ref(), project, d)
}

/// Run `lowered`'s rates on the emulator's OA unit from now on.
pub fn apply(emu: &mut perfregs_emu::Emulator, lowered: &Lowered) {
    emu.unit_mut::<perfregs_emu::OaUnit>()
        .set_workload(lowered.workload.clone());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_and_workloads_read() {
        let m = meanings().expect("counters.yaml reads");
        assert!(!m.ranges.is_empty());
        for (name, text) in BUILTIN {
            let s = parse(text, name).expect("a built-in parses");
            assert_eq!(s.name, *name, "a built-in's `workload:` is its file name");
            assert!(!s.events.is_empty());
        }
    }

    /// Every part whose graphics version the table covers gets non-zero
    /// rates under every built-in, and a percentage event never exceeds its
    /// clocks: a fraction of 1 of the EU clocks is at most EUs x clocks a tick.
    #[test]
    fn builtins_lower_inside_each_parts_clocks() {
        let m = meanings().expect("reads");
        for part in hal::PARTS {
            let Some(p) = hal::PROJECTS.iter().find(|p| p.name == part.project) else {
                continue;
            };
            let Some(g) = p.gpu.map(|g| g.graphics) else {
                continue;
            };
            let covered = m.ranges.iter().any(|(lo, hi, _)| *lo <= g && g <= *hi);
            let clocks = perfregs_emu::OaConfig::for_part(&part.device).gpu_clocks_per_tick;
            for (name, _) in BUILTIN {
                let spec = choose(name).expect("built-in").expect("not none");
                let l = lower(Some(&spec), p, &part.device).expect("lowers");
                assert_eq!(
                    !l.workload.rates().is_empty(),
                    covered,
                    "{part} {name}: {}",
                    l.line
                );
                if let Some((_, _, t)) = m.ranges.iter().find(|(lo, hi, _)| *lo <= g && g <= *hi) {
                    let busy: u64 = t["gpu_busy"].iter().map(|&a| l.workload.rate_of(a)).sum();
                    assert!(busy <= clocks, "{part} {name}: gpu_busy {busy} > {clocks}");
                    let eus = part.device.eu_cores_total_count;
                    let active: u64 = t["eu_active"].iter().map(|&a| l.workload.rate_of(a)).sum();
                    assert!(active <= clocks * eus, "{part} {name}: eu_active");
                }
            }
        }
    }

    #[test]
    fn none_and_unknown_names() {
        assert_eq!(choose("none"), Ok(None));
        let e = choose("bussy").expect_err("unknown");
        assert!(e.0.contains("did you mean busy"), "{e}");
    }

    #[test]
    fn bad_files_are_located() {
        let e = parse("workload: x\nevents:\n  gpu_busy: [1\n", "w.yaml").expect_err("syntax");
        assert!(e.0.starts_with("w.yaml:"), "{e}");
        let e = parse(
            "workload: x\nevents:\n  gpu_busy: 0.5\n  eu_activ: 0.2\n",
            "w.yaml",
        )
        .expect_err("unknown event");
        assert!(
            e.0.starts_with("w.yaml:4:3: no event `eu_activ` (did you mean eu_active"),
            "{e}"
        );
        let e = parse("workload: x\nevents:\n  gpu_busy: 1.5\n", "w.yaml").expect_err("range");
        assert!(
            e.0.starts_with("w.yaml:3:3: gpu_busy: 1.5 is outside 0..=1"),
            "{e}"
        );
    }

    #[test]
    fn a_damaged_table_is_located() {
        let e = read_meanings("events:\n  x: { per: [Nope], max: 1 }\ncounters: []\n").err();
        assert!(e.is_some_and(|e| e.contains("counters.yaml:2:3: x: `Nope`")));
        let e = read_meanings(
            "events: {}\ncounters:\n  - graphics: [\"8.0\", \"9.0\"]\n    a:\n      y: [1]\n",
        )
        .err();
        assert!(e.is_some_and(|e| e.contains(":5:7: the counters of `y`")));
    }
}
