//! Discovery: the machine's DRM cards, what each one is and whether OA
//! streams can be opened on it.
//!
//! - [`cards`] lists `/sys/class/drm/cardN` (any sysfs root: tests build a
//!   fake tree): PCI vendor, device, revision and subsystem ids, PCI address,
//!   bound driver (i915 or xe), render node, and the device-table row
//!   ([`hal::device`], from `regdefs/devices.yaml`) with project and GT.
//! - [`access`]: the process's privileges (`CapEff` of `/proc/self/status`),
//!   the driver's paranoid sysctl and the [`OaAccess`] verdict with its exact
//!   reason and remedy.
//! - [`topology`]: the slice/subslice/EU masks of `DRM_I915_QUERY_TOPOLOGY_INFO`
//!   and the [`perfregs_types::DeviceInfo`] the metric equations read.
//! - The GETPARAM and QUERY structs and ioctl numbers (and xe's
//!   DEVICE_QUERY) are in [`crate::uapi::i915`] and [`crate::uapi::xe`].
//! - [`xe`]: xe's GT list and GT topology answers, read into the same
//!   [`Topology`].
//! - [`probe`] (Linux): the ioctls on a render node (perf revision,
//!   timestamp frequency, topology).
//!
//! [`discover`] runs all the file-based steps for every card.

pub mod access;
pub mod oa_units;
#[cfg(target_os = "linux")]
pub mod probe;
pub mod topology;
pub mod xe;

pub use access::{verdict, AccessInputs, Allowed, Blocked, OaAccess, Paranoid, Privileges};
pub use topology::{
    device_values, DeviceInfoError, DeviceValues, GtFrequencies, Topology, TopologyError,
};

use core::fmt;
use hal::meta::DeviceId;
use std::path::{Path, PathBuf};

/// Intel's PCI vendor id.
pub const INTEL_VENDOR: u16 = 0x8086;

/// Where discovery looks: the roots of sysfs and procfs (`/sys`, `/proc`),
/// replaceable by a fake tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roots {
    /// sysfs (`/sys`).
    pub sys: PathBuf,
    /// procfs (`/proc`).
    pub proc: PathBuf,
}

impl Default for Roots {
    fn default() -> Self {
        Roots {
            sys: PathBuf::from("/sys"),
            proc: PathBuf::from("/proc"),
        }
    }
}

/// A failure to read or understand a file of sysfs or procfs.
#[derive(Debug)]
pub enum DiscoveryError {
    /// The file (or folder) could not be read.
    Io {
        /// Its path.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// Its content is not what the kernel writes there.
    Parse {
        /// Its path.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

impl DiscoveryError {
    fn io(path: &Path, error: std::io::Error) -> Self {
        DiscoveryError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiscoveryError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            DiscoveryError::Parse { path, why } => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for DiscoveryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DiscoveryError::Io { error, .. } => Some(error),
            DiscoveryError::Parse { .. } => None,
        }
    }
}

/// The kernel driver bound to a card (basename of `device/driver`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Driver {
    /// `i915`.
    I915,
    /// `xe`.
    Xe,
    /// Any other driver.
    Other(String),
}

impl Driver {
    /// From the driver's name.
    pub fn from_name(name: &str) -> Driver {
        match name {
            "i915" => Driver::I915,
            "xe" => Driver::Xe,
            other => Driver::Other(other.to_string()),
        }
    }
}

impl fmt::Display for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Driver::I915 => "i915",
            Driver::Xe => "xe",
            Driver::Other(n) => n,
        })
    }
}

/// One DRM card as sysfs describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// `card0`.
    pub name: String,
    /// The `N` of `cardN`.
    pub index: u32,
    /// PCI address (`0000:00:02.0`), the basename of the `device` link.
    pub pci_address: Option<String>,
    /// PCI vendor id.
    pub vendor: u16,
    /// PCI device id.
    pub pci_id: u16,
    /// PCI revision (`None` when sysfs has no `revision` file).
    pub revision: Option<u8>,
    /// PCI subsystem device id (`None` when sysfs has none).
    pub subsystem_device: Option<u16>,
    /// The bound driver (`None`: no driver).
    pub driver: Option<Driver>,
    /// The render node (`renderD128`), if the card has one.
    pub render_node: Option<String>,
    /// The device-table row of `pci_id` (Intel cards only).
    pub id: Option<&'static DeviceId>,
}

impl Card {
    /// An Intel GPU.
    pub fn is_intel(&self) -> bool {
        self.vendor == INTEL_VENDOR
    }
    /// The project tag, when the platform is described.
    pub fn project(&self) -> Option<&'static str> {
        self.id.and_then(|d| d.project)
    }
}

fn read_trimmed(path: &Path) -> Result<String, DiscoveryError> {
    std::fs::read_to_string(path)
        .map(|t| t.trim().to_string())
        .map_err(|e| DiscoveryError::io(path, e))
}

/// A sysfs number such as `0x8086`.
fn read_hex(path: &Path) -> Result<u64, DiscoveryError> {
    let text = read_trimmed(path)?;
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(&text);
    u64::from_str_radix(digits, 16).map_err(|_| DiscoveryError::Parse {
        path: path.to_path_buf(),
        why: format!("`{text}` is not a hexadecimal number"),
    })
}

fn read_hex_as<T: TryFrom<u64>>(path: &Path) -> Result<T, DiscoveryError> {
    let v = read_hex(path)?;
    T::try_from(v).map_err(|_| DiscoveryError::Parse {
        path: path.to_path_buf(),
        why: format!("{v:#x} is out of range"),
    })
}

/// An optional file: absent is `None`, present but bad is an error.
fn optional<T>(
    path: &Path,
    read: impl Fn(&Path) -> Result<T, DiscoveryError>,
) -> Result<Option<T>, DiscoveryError> {
    match read(path) {
        Ok(v) => Ok(Some(v)),
        Err(DiscoveryError::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

fn link_basename(path: &Path) -> Result<Option<String>, DiscoveryError> {
    match std::fs::read_link(path) {
        Ok(target) => Ok(target.file_name().map(|n| n.to_string_lossy().into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        // Not a link (a plain folder in a copied tree): no name to take.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => Ok(None),
        Err(e) => Err(DiscoveryError::io(path, e)),
    }
}

/// `cardN` names only (not the connectors `card0-eDP-1`), with their `N`.
fn card_index(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("card")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Read one card `sys/class/drm/<name>`.
pub fn read_card(sys: &Path, name: &str) -> Result<Card, DiscoveryError> {
    let dir = sys.join("class/drm").join(name);
    let index = card_index(name).ok_or_else(|| DiscoveryError::Parse {
        path: dir.clone(),
        why: "not a `cardN` name".into(),
    })?;
    let dev = dir.join("device");
    let vendor: u16 = read_hex_as(&dev.join("vendor"))?;
    let pci_id: u16 = read_hex_as(&dev.join("device"))?;
    let revision = optional(&dev.join("revision"), read_hex_as::<u8>)?;
    let subsystem_device = optional(&dev.join("subsystem_device"), read_hex_as::<u16>)?;
    let driver = link_basename(&dev.join("driver"))?.map(|n| Driver::from_name(&n));
    let pci_address = link_basename(&dev)?;
    let render_node = match std::fs::read_dir(dev.join("drm")) {
        Ok(entries) => {
            let mut nodes: Vec<String> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("renderD"))
                .collect();
            nodes.sort();
            nodes.into_iter().next()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(DiscoveryError::io(&dev.join("drm"), e)),
    };
    let id = if vendor == INTEL_VENDOR {
        hal::device(pci_id)
    } else {
        None
    };
    Ok(Card {
        name: name.to_string(),
        index,
        pci_address,
        vendor,
        pci_id,
        revision,
        subsystem_device,
        driver,
        render_node,
        id,
    })
}

/// Every `cardN` under `<sys>/class/drm`, by ascending `N`; a card that
/// cannot be read is an error in its place (the others are still listed).
/// A missing `class/drm` folder (no DRM driver loaded) is an empty list.
pub fn cards(sys: &Path) -> Result<Vec<Result<Card, DiscoveryError>>, DiscoveryError> {
    let dir = sys.join("class/drm");
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(DiscoveryError::io(&dir, e)),
    };
    let mut names: Vec<(u32, String)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| DiscoveryError::io(&dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(i) = card_index(&name) {
            names.push((i, name));
        }
    }
    names.sort();
    Ok(names.into_iter().map(|(_, n)| read_card(sys, &n)).collect())
}

/// The card's GPU frequency range from sysfs: i915's
/// `cardN/gt_min_freq_mhz` and `gt_max_freq_mhz`, xe's
/// `cardN/device/tile0/gt0/freq0/min_freq` and `max_freq`. `None` when the
/// driver has neither (the preset's values are then used and said so, see
/// [`DeviceValues::from_preset`]); a file present but unreadable is an error.
pub fn gt_frequencies(sys: &Path, card: &Card) -> Result<Option<GtFrequencies>, DiscoveryError> {
    let dir = sys.join("class/drm").join(&card.name);
    let (min, max) = match card.driver {
        Some(Driver::Xe) => (
            dir.join("device/tile0/gt0/freq0/min_freq"),
            dir.join("device/tile0/gt0/freq0/max_freq"),
        ),
        _ => (dir.join("gt_min_freq_mhz"), dir.join("gt_max_freq_mhz")),
    };
    let decimal = |path: &Path| -> Result<u64, DiscoveryError> {
        let text = read_trimmed(path)?;
        text.parse().map_err(|_| DiscoveryError::Parse {
            path: path.to_path_buf(),
            why: format!("`{text}` is not a number of MHz"),
        })
    };
    match (optional(&min, decimal)?, optional(&max, decimal)?) {
        (Some(min_mhz), Some(max_mhz)) => Ok(Some(GtFrequencies { min_mhz, max_mhz })),
        (None, None) => Ok(None),
        (Some(_), None) => Err(DiscoveryError::Parse {
            path: max,
            why: "missing beside its minimum".into(),
        }),
        (None, Some(_)) => Err(DiscoveryError::Parse {
            path: min,
            why: "missing beside its maximum".into(),
        }),
    }
}

/// One card with its OA verdict.
#[derive(Debug)]
pub struct Discovered {
    /// The card.
    pub card: Card,
    /// The driver's paranoid setting (`None` without an i915/xe driver).
    pub paranoid: Option<Result<Paranoid, DiscoveryError>>,
    /// Whether OA streams can be opened.
    pub access: OaAccess,
}

impl fmt::Display for Discovered {
    /// `card0 0000:00:02.0 TGL GT2 (0x9a49) rev 0x01, tgl, i915, renderD128: OA streams: yes (...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.card;
        write!(f, "{}", c.name)?;
        if let Some(a) = &c.pci_address {
            write!(f, " {a}")?;
        }
        match c.id {
            Some(id) => write!(f, " {id}")?,
            None => write!(f, " {:04x}:{:04x}", c.vendor, c.pci_id)?,
        }
        if let Some(r) = c.revision {
            write!(f, " rev {r:#04x}")?;
        }
        if let Some(p) = c.project() {
            write!(f, ", {p}")?;
        }
        match &c.driver {
            Some(d) => write!(f, ", {d}")?,
            None => f.write_str(", no driver")?,
        }
        if let Some(r) = &c.render_node {
            write!(f, ", {r}")?;
        }
        write!(f, ": OA streams: {}", self.access)
    }
}

/// Discover every card under `roots` with its verdict. The privileges are
/// read once; the paranoid setting once per driver.
pub fn discover(roots: &Roots) -> Result<Vec<Result<Discovered, DiscoveryError>>, DiscoveryError> {
    let privileges = Privileges::read(&roots.proc);
    let list = cards(&roots.sys)?;
    Ok(list
        .into_iter()
        .map(|card| {
            let card = card?;
            let paranoid = card
                .driver
                .as_ref()
                .filter(|d| Paranoid::sysctl_of(d).is_some())
                .map(|d| Paranoid::read(&roots.proc, d));
            let access = verdict(&AccessInputs {
                vendor: card.vendor,
                pci_id: card.pci_id,
                id: card.id,
                driver: card.driver.as_ref(),
                paranoid: paranoid.as_ref(),
                privileges: &privileges,
            });
            Ok(Discovered {
                card,
                paranoid,
                access,
            })
        })
        .collect())
}
