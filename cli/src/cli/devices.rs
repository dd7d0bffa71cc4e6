//! `perfregs devices`: the machine's GPUs, what each one is (PCI address,
//! id, platform, project and GT, driver), what its driver says (perf
//! revision, OA timestamp frequency, EUs: asked through the render node) and
//! whether OA streams can be opened on it, with the exact reason and remedy
//! when not.
//!
//! Discovery reads sysfs and procfs (`perfregs_linux::discovery`); the probe
//! opens `/dev/dri/renderD*` (Linux only). `--sys`, `--proc` and `--dev`
//! replace those roots (for tests on fake trees); with `--sys` or `--proc`
//! and no `--dev` nothing is probed (the fake tree's render nodes are not
//! this machine's).

use perfregs_linux::discovery::{
    discover, Blocked, Discovered, DiscoveryError, OaAccess, Paranoid, Roots,
};
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::process::ExitCode;

/// Output format of `devices`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DevicesFormat {
    /// Text: a few lines per card.
    #[default]
    Table,
    /// One JSON document: `{"cards": [...], "errors": [...]}`.
    Json,
}

/// `perfregs devices`.
#[derive(Debug, clap::Args)]
#[command(
    about = "The machine's GPUs and whether OA streams can be opened on them",
    long_about = "Each DRM card (/sys/class/drm/cardN): PCI address, PCI id, platform, project and \
GT (or \"not described yet\"), driver and render node; what the driver answers through the render \
node (i915: perf revision, OA timestamp frequency, EUs; xe: timestamp reference clock, EUs); and \
whether OA streams can be opened, and when not, why and what to do (the paranoid sysctl, \
CAP_PERFMON, SNB/IVB/VLV without OA streams, platforms not described yet).\n\n\
Without a GPU: `devices PCI_ID` (0x46a6, 46A6 or 8086:46a6) says what perfregs knows of one \
id (platform, GT, project, part, drivers, whether OA streams exist and how to try it on the \
emulator); `devices --known` lists every id of the device table (regdefs/devices.yaml) so.\n\n\
Exit code 0 when every card was read (also when there is none), 1 when a card or the DRM \
folder could not be read, or PCI_ID is not in the device table."
)]
pub struct DevicesArgs {
    /// A PCI device id (`0x46a6`, `46A6`, `8086:46a6`): what perfregs knows
    /// of it, without a GPU.
    #[arg(value_name = "PCI_ID", value_parser = pci_id, conflicts_with_all = ["known", "sys", "proc", "dev"])]
    pub pci_id: Option<u16>,
    /// Every PCI id of the device table: platform, GT, project, part,
    /// drivers and whether OA streams exist.
    #[arg(long, conflicts_with_all = ["sys", "proc", "dev"])]
    pub known: bool,
    /// Output format.
    #[arg(long, value_enum, ignore_case = true, default_value_t = DevicesFormat::Table)]
    pub format: DevicesFormat,
    /// The sysfs root (default /sys): for tests on a fake tree.
    #[arg(long, value_name = "DIR", hide = true)]
    pub sys: Option<PathBuf>,
    /// The procfs root (default /proc): for tests on a fake tree.
    #[arg(long, value_name = "DIR", hide = true)]
    pub proc: Option<PathBuf>,
    /// The devtmpfs root whose `dri/` holds the render nodes (default /dev;
    /// not probed when --sys or --proc is given without --dev).
    #[arg(long, value_name = "DIR", hide = true)]
    pub dev: Option<PathBuf>,
}

/// What the driver said through the render node, as text lines and JSON
/// (built on Linux only).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
struct ProbeView {
    lines: Vec<String>,
    json: Json,
}

/// Ask the driver of `d`'s card (Linux; `dev` = `None`: not probed).
#[cfg(target_os = "linux")]
fn probe_view(
    d: &Discovered,
    dev: Option<&std::path::Path>,
    sys: &std::path::Path,
) -> Option<ProbeView> {
    use perfregs_linux::discovery::probe::{probe, Answers};
    let dev = dev?;
    let c = &d.card;
    if !c.is_intel() || c.driver.is_none() {
        return None;
    }
    let answers = match probe(dev, c) {
        Ok(a) => a,
        Err(e) => {
            return Some(ProbeView {
                lines: vec![format!("driver not asked: {e}")],
                json: json!({"error": e.to_string()}),
            })
        }
    };
    let mut lines = Vec::new();
    let mut obj = serde_json::Map::new();
    match &answers {
        Answers::I915(p) => {
            let mut parts = Vec::new();
            match p.perf_revision {
                Ok(r) => {
                    parts.push(format!("perf revision {r}"));
                    obj.insert("perf_revision".into(), json!(r));
                }
                Err(e) => {
                    parts.push(format!("perf revision unknown (GETPARAM: {e})"));
                    obj.insert("perf_revision_error".into(), json!(e.to_string()));
                }
            }
            match p.timestamp_frequency {
                Ok(f) => {
                    parts.push(format!("OA timestamp frequency {f} Hz"));
                    obj.insert("timestamp_frequency_hz".into(), json!(f));
                }
                Err(e) => {
                    parts.push(format!("timestamp frequency unknown (GETPARAM: {e})"));
                    obj.insert("timestamp_frequency_error".into(), json!(e.to_string()));
                }
            }
            lines.push(parts.join(", "));
        }
        Answers::Xe(x) => {
            match x.topology() {
                Ok((_, clock)) => {
                    lines.push(format!("timestamp reference clock {clock} Hz"));
                    obj.insert("timestamp_frequency_hz".into(), json!(clock));
                }
                Err(e) => {
                    lines.push(format!("GT list unreadable: {e}"));
                    obj.insert("error".into(), json!(e.to_string()));
                }
            }
            match x.oa_units() {
                Ok(units) => {
                    for u in &units {
                        lines.push(format!("OA {u}"));
                    }
                    let list: Vec<_> = units
                        .iter()
                        .map(|u| {
                            json!({
                                "id": u.id,
                                "type": u.kind,
                                "kind": u.kind_name(),
                                "gt": u.gt,
                                "timestamp_frequency_hz": u.timestamp_hz,
                                "engines": u.engines.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
                            })
                        })
                        .collect();
                    obj.insert("oa_units".into(), json!(list));
                }
                Err(e) => {
                    lines.push(format!("OA units unreadable: {e}"));
                    obj.insert("oa_units_error".into(), json!(e));
                }
            }
        }
    }
    // Frequencies sysfs cannot give are the preset's (said below).
    let freqs = match perfregs_linux::discovery::gt_frequencies(sys, c) {
        Ok(f) => f,
        Err(e) => {
            lines.push(format!("GPU frequencies unreadable: {e}"));
            obj.insert("frequencies_error".into(), json!(e.to_string()));
            None
        }
    };
    match answers.device_values(c, freqs) {
        Ok(v) => {
            let i = &v.info;
            let preset: Vec<&str> = v.from_preset.iter().map(|x| x.name()).collect();
            lines.push(format!(
                "topology: {} EUs, {} slice(s), {} subslice(s) (mask {:#x}); from the part's preset: {}",
                i.eu_cores_total_count,
                i.eu_slices_total_count,
                i.eu_subslices_total_count,
                i.subslice_mask,
                preset.join(", ")
            ));
            obj.insert("from_preset".into(), json!(preset));
            obj.insert("eus".into(), json!(i.eu_cores_total_count));
            obj.insert("slices".into(), json!(i.eu_slices_total_count));
            obj.insert("subslices".into(), json!(i.eu_subslices_total_count));
        }
        Err(e) => {
            lines.push(format!("no device values: {e}"));
            obj.insert("device_values_error".into(), json!(e.to_string()));
        }
    }
    Some(ProbeView {
        lines,
        json: Json::Object(obj),
    })
}

#[cfg(not(target_os = "linux"))]
fn probe_view(
    _: &Discovered,
    _: Option<&std::path::Path>,
    _: &std::path::Path,
) -> Option<ProbeView> {
    None
}

/// What `devices` suggests on a machine without a GPU.
const NO_CARD_HINTS: [&str; 3] = [
    "  perfregs devices --known        every GPU perfregs knows (PCI id, part, drivers)",
    "  perfregs devices 0x46a6         one PCI id: is it supported, and as which part?",
    "  perfregs record --emulate tgl --metric-set TestOa -o t.record   the emulated GPU",
];

/// `TGL GT2 (tgl)`, or `SKL GT2: not described yet`.
fn identity(d: &Discovered) -> String {
    let c = &d.card;
    match c.id {
        Some(id) => match id.project {
            Some(p) => {
                let gt = id.gt.map(|g| format!(" GT{g}")).unwrap_or_default();
                format!("project {p}{gt}")
            }
            None => "not described yet".to_string(),
        },
        None if c.is_intel() => "not in the device table".to_string(),
        None => "not an Intel GPU".to_string(),
    }
}

/// The lines of one card.
fn card_lines(d: &Discovered, probe: Option<&ProbeView>) -> Vec<String> {
    let c = &d.card;
    let mut head = c.name.clone();
    if let Some(a) = &c.pci_address {
        head.push_str(&format!("  {a}"));
    }
    match c.id {
        Some(id) => head.push_str(&format!("  {id}")),
        None => head.push_str(&format!("  {:04x}:{:04x}", c.vendor, c.pci_id)),
    }
    if let Some(r) = c.revision {
        head.push_str(&format!(" rev {r:#04x}"));
    }
    let mut lines = vec![head];
    let driver = c
        .driver
        .as_ref()
        .map_or("no driver".to_string(), |d| format!("driver {d}"));
    let node = c
        .render_node
        .as_ref()
        .map_or("no render node".to_string(), |n| format!("render node {n}"));
    lines.push(format!("  {}, {driver}, {node}", identity(d)));
    if let Some(p) = probe {
        lines.extend(p.lines.iter().map(|l| format!("  {l}")));
    }
    match &d.access {
        OaAccess::Yes(_) => lines.push(format!("  OA streams: {}", d.access)),
        OaAccess::No(b) => {
            lines.push(format!("  OA streams: no: {b}"));
            lines.push(format!("    remedy: {}", b.remedy()));
        }
    }
    lines
}

fn paranoid_json(p: &Option<Result<Paranoid, DiscoveryError>>) -> Json {
    match p {
        None => Json::Null,
        Some(Ok(p)) => json!({"sysctl": p.sysctl, "value": p.value}),
        Some(Err(e)) => json!({"error": e.to_string()}),
    }
}

fn blocked_kind(b: &Blocked) -> &'static str {
    match b {
        Blocked::NotIntel { .. } => "not_intel",
        Blocked::UnknownDevice { .. } => "unknown_device",
        Blocked::NotDescribed(_) => "not_described",
        Blocked::NoOaStream(_) => "no_oa_stream",
        Blocked::NoDriver => "no_driver",
        Blocked::UnsupportedDriver { .. } => "unsupported_driver",
        Blocked::ParanoidUnreadable { .. } => "paranoid_unreadable",
        Blocked::PrivilegesUnreadable { .. } => "privileges_unreadable",
        Blocked::NeedsPermission { .. } => "needs_permission",
    }
}

/// One card as JSON.
fn card_json(d: &Discovered, probe: Option<&ProbeView>) -> Json {
    let c = &d.card;
    let oa = match &d.access {
        OaAccess::Yes(_) => json!({"allowed": true, "why": d.access.to_string()}),
        OaAccess::No(b) => json!({
            "allowed": false,
            "kind": blocked_kind(b),
            "reason": b.to_string(),
            "remedy": b.remedy(),
        }),
    };
    json!({
        "card": c.name,
        "pci_address": c.pci_address,
        "vendor": format!("{:#06x}", c.vendor),
        "pci_id": format!("{:#06x}", c.pci_id),
        "revision": c.revision,
        "platform": c.id.map(|i| i.platform),
        "gt": c.id.and_then(|i| i.gt),
        "project": c.project(),
        "described": c.project().is_some(),
        "driver": c.driver.as_ref().map(|d| d.to_string()),
        "render_node": c.render_node,
        "paranoid": paranoid_json(&d.paranoid),
        "probe": probe.map_or(Json::Null, |p| p.json.clone()),
        "oa_streams": oa,
    })
}

/// A PCI device id: hex with or without `0x`, or `VENDOR:DEVICE` with
/// Intel's vendor id.
fn pci_id(s: &str) -> Result<u16, String> {
    let t = s.trim();
    let t = match t.split_once(':') {
        Some((vendor, device)) => {
            let v = vendor.trim_start_matches("0x").trim_start_matches("0X");
            if !v.eq_ignore_ascii_case("8086") {
                return Err(format!(
                    "vendor {vendor} is not Intel's (8086): perfregs knows Intel GPUs only"
                ));
            }
            device
        }
        None => t,
    };
    let hex = t.trim_start_matches("0x").trim_start_matches("0X");
    u16::from_str_radix(hex, 16).map_err(|_| {
        format!("`{s}` is not a PCI device id: four hex digits, as 0x46a6, 46A6 or 8086:46a6")
    })
}

/// What perfregs knows of one device-table row, without a GPU.
struct Known {
    id: &'static hal::meta::DeviceId,
    part: Option<&'static hal::meta::PartInfo>,
    drivers: Vec<&'static str>,
    oa: Result<(), Blocked>,
}

impl Known {
    fn of(id: &'static hal::meta::DeviceId) -> Known {
        let gpu = id.project.and_then(hal::project).and_then(|p| p.gpu);
        let oa = match id.project {
            None => Err(Blocked::NotDescribed(id)),
            Some(p) if perfregs_linux::discovery::access::no_oa_stream(p) => {
                Err(Blocked::NoOaStream(id))
            }
            Some(_) => Ok(()),
        };
        Known {
            id,
            part: gpu.and_then(|g| g.part_or_default(id.gt)),
            drivers: gpu.map_or(Vec::new(), |g| g.drivers.iter().map(|d| d.name()).collect()),
            oa,
        }
    }

    /// `0x46a6  ADL-P GT2  adl GT2 (ADLGT2)  i915, xe  OA streams`.
    fn row(&self) -> String {
        let platform = match self.id.gt {
            Some(g) => format!("{} GT{g}", self.id.platform),
            None => self.id.platform.to_string(),
        };
        let part = match (self.id.project, self.part) {
            (_, Some(p)) => format!("{p} ({})", p.chipset),
            (Some(p), None) => p.to_string(),
            (None, None) => "not described yet".to_string(),
        };
        let oa = match &self.oa {
            Ok(()) => "OA streams",
            Err(Blocked::NoOaStream(_)) => "no OA stream",
            Err(_) => "-",
        };
        format!(
            "{:#06x}  {platform:<14} {part:<22} {:<9} {oa}",
            self.id.pci_id,
            if self.drivers.is_empty() {
                "-".to_string()
            } else {
                self.drivers.join(", ")
            }
        )
    }

    /// The lines `devices PCI_ID` prints.
    fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("{}  ({})", self.id, self.id.macro_name)];
        let Some(project) = self.id.project else {
            out.push(format!(
                "  not described yet: {}",
                Blocked::NotDescribed(self.id).remedy()
            ));
            return out;
        };
        match self.part {
            Some(p) => out.push(format!(
                "  project {project}, part {p} (metric-set chipset {}{})",
                p.chipset,
                if self.id.gt.is_none() {
                    "; the kernel's list names no GT, so the default part"
                } else {
                    ""
                }
            )),
            None => out.push(format!("  project {project}")),
        }
        if !self.drivers.is_empty() {
            out.push(format!(
                "  drivers: {} (default {})",
                self.drivers.join(", "),
                self.drivers[0]
            ));
        }
        match &self.oa {
            Ok(()) => {
                out.push(
                    "  OA streams: yes, with a driver bound and the permission `perfregs devices` checks"
                        .to_string(),
                );
                // --gt where the project has several parts.
                let gt = self
                    .part
                    .filter(|_| perfregs_session::part_gts(project).len() > 1)
                    .map(|p| format!(" --gt {}", p.gt))
                    .unwrap_or_default();
                out.push(format!(
                    "  on the emulator: perfregs record --emulate {project}{gt} --metric-set TestOa -o t.record"
                ));
            }
            Err(b) => out.push(format!("  OA streams: no: {b}; {}", b.remedy())),
        }
        out
    }

    fn json(&self) -> Json {
        json!({
            "pci_id": format!("{:#06x}", self.id.pci_id),
            "platform": self.id.platform,
            "gt": self.id.gt,
            "kernel_list": self.id.macro_name,
            "project": self.id.project,
            "part": self.part.map(|p| json!({"gt": p.gt, "chipset": p.chipset, "metric_files": p.metric_files})),
            "drivers": self.drivers,
            "oa_streams": self.oa.is_ok(),
            "why_not": self.oa.as_ref().err().map(|b| b.to_string()),
        })
    }
}

impl DevicesArgs {
    /// `devices PCI_ID` and `devices --known`: the device table, no GPU.
    fn run_known(&self) -> ExitCode {
        let rows: Vec<Known> = match self.pci_id {
            Some(id) => match hal::device(id) {
                Some(d) => vec![Known::of(d)],
                None => {
                    eprintln!(
                        "perfregs: devices: {}: {}",
                        Blocked::UnknownDevice { pci_id: id },
                        Blocked::UnknownDevice { pci_id: id }.remedy()
                    );
                    return ExitCode::from(1);
                }
            },
            None => hal::DEVICES.iter().map(Known::of).collect(),
        };
        match (self.format, self.pci_id) {
            (DevicesFormat::Json, Some(_)) => {
                say!("{}", rows.first().map_or(Json::Null, Known::json))
            }
            (DevicesFormat::Json, None) => {
                say!("{}", Json::Array(rows.iter().map(Known::json).collect()))
            }
            (DevicesFormat::Table, Some(_)) => {
                for l in rows.iter().flat_map(Known::lines) {
                    say!("{l}");
                }
            }
            (DevicesFormat::Table, None) => {
                let described = rows.iter().filter(|k| k.id.described()).count();
                say!(
                    "{} PCI ids, {described} on described projects (source: {})",
                    rows.len(),
                    hal::DEVICES_SOURCE
                );
                say!("pci id  platform       part                   drivers   OA");
                for k in &rows {
                    say!("{}", k.row());
                }
            }
        }
        ExitCode::SUCCESS
    }

    /// Run `devices`.
    pub fn run(self) -> ExitCode {
        if self.known || self.pci_id.is_some() {
            return self.run_known();
        }
        let fake = self.sys.is_some() || self.proc.is_some();
        let defaults = Roots::default();
        let roots = Roots {
            sys: self.sys.unwrap_or(defaults.sys),
            proc: self.proc.unwrap_or(defaults.proc),
        };
        let dev = match (self.dev, fake) {
            (Some(d), _) => Some(d),
            (None, false) => Some(PathBuf::from("/dev")),
            (None, true) => None,
        };
        let list = match discover(&roots) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("perfregs: devices: {e}");
                return ExitCode::from(1);
            }
        };
        let drm = roots.sys.join("class/drm");
        let mut failed = false;
        let mut cards = Vec::new();
        let mut errors = Vec::new();
        for item in &list {
            match item {
                Ok(d) => {
                    let p = probe_view(d, dev.as_deref(), &roots.sys);
                    cards.push((d, p));
                }
                Err(e) => {
                    failed = true;
                    errors.push(e.to_string());
                }
            }
        }
        match self.format {
            DevicesFormat::Table => {
                if list.is_empty() {
                    say!("no DRM cards under {}", drm.display());
                    for l in NO_CARD_HINTS {
                        say!("{l}");
                    }
                }
                for (k, (d, p)) in cards.iter().enumerate() {
                    if k > 0 {
                        say!("");
                    }
                    for l in card_lines(d, p.as_ref()) {
                        say!("{l}");
                    }
                }
                for e in &errors {
                    eprintln!("perfregs: devices: a card could not be read: {e}");
                }
            }
            DevicesFormat::Json => {
                if list.is_empty() {
                    eprintln!("no DRM cards under {}", drm.display());
                }
                let doc = json!({
                    "cards": cards.iter().map(|(d, p)| card_json(d, p.as_ref())).collect::<Vec<_>>(),
                    "errors": errors,
                });
                match serde_json::to_string_pretty(&doc) {
                    Ok(t) => say!("{t}"),
                    Err(e) => {
                        eprintln!("perfregs: devices: {e}");
                        return ExitCode::from(1);
                    }
                }
            }
        }
        if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}
