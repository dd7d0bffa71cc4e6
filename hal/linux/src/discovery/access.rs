//! Whether this process may open a system-wide OA stream on a card, and if
//! not, exactly why and what to do.
//!
//! The kernel's rule (i915 `i915_perf.c`, xe `xe_oa.c`): a stream that is
//! not bound to one of the caller's contexts needs the driver's paranoid
//! sysctl at 0 (`dev.i915.perf_stream_paranoid`, xe
//! `dev.xe.observation_paranoid`, both 1 by default) or `CAP_PERFMON`
//! (or `CAP_SYS_ADMIN`) in the effective set. OA streams exist on Haswell
//! and Gen8+ only: SNB, IVB and VLV sample through `MI_REPORT_PERF_COUNT`.

use super::{DiscoveryError, Driver};
use core::fmt;
use hal::meta::DeviceId;
use std::path::{Path, PathBuf};

/// `CAP_SYS_ADMIN`'s bit in the capability sets.
pub const CAP_SYS_ADMIN: u32 = 21;
/// `CAP_PERFMON`'s bit in the capability sets (Linux 5.8 and later).
pub const CAP_PERFMON: u32 = 38;

/// Whether the kernel has no OA stream on `project` (the catalogue gives
/// the project no OA unit). False for a project that is not
/// compiled (nothing known of it here).
pub fn no_oa_stream(project: &str) -> bool {
    hal::project(project)
        .and_then(|p| p.gpu)
        .is_some_and(|g| g.oa.is_none())
}

/// What the process may do, from `/proc/self/status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Privileges {
    /// Effective user id.
    pub euid: u32,
    /// The effective capability set (`CapEff`).
    pub cap_eff: u64,
}

impl Privileges {
    /// Parse the text of `/proc/<pid>/status` (`Uid:` and `CapEff:` lines).
    pub fn parse_status(text: &str) -> Result<Privileges, String> {
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
                .map(str::trim)
                .ok_or_else(|| format!("no `{name}:` line"))
        };
        let uid = field("Uid")?;
        let euid = uid
            .split_whitespace()
            .nth(1)
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or_else(|| format!("`Uid:` line `{uid}` has no effective uid"))?;
        let cap = field("CapEff")?;
        let cap_eff = u64::from_str_radix(cap, 16)
            .map_err(|_| format!("`CapEff:` value `{cap}` is not hexadecimal"))?;
        Ok(Privileges { euid, cap_eff })
    }

    /// Read `<proc_root>/self/status`.
    pub fn read(proc_root: &Path) -> Result<Privileges, DiscoveryError> {
        let path = proc_root.join("self/status");
        let text = std::fs::read_to_string(&path).map_err(|e| DiscoveryError::io(&path, e))?;
        Privileges::parse_status(&text).map_err(|why| DiscoveryError::Parse { path, why })
    }

    /// Whether capability `bit` is in the effective set.
    pub fn has(&self, bit: u32) -> bool {
        bit < 64 && self.cap_eff >> bit & 1 == 1
    }
    /// `CAP_PERFMON` in the effective set.
    pub fn perfmon(&self) -> bool {
        self.has(CAP_PERFMON)
    }
    /// `CAP_SYS_ADMIN` in the effective set.
    pub fn sys_admin(&self) -> bool {
        self.has(CAP_SYS_ADMIN)
    }
    /// Effective uid 0.
    pub fn root(&self) -> bool {
        self.euid == 0
    }
}

/// The driver's paranoid sysctl: its name, file under `/proc` and value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paranoid {
    /// `dev.i915.perf_stream_paranoid` or `dev.xe.observation_paranoid`.
    pub sysctl: &'static str,
    /// The file it was read from.
    pub path: PathBuf,
    /// Its value.
    pub value: u64,
}

impl Paranoid {
    /// The sysctl of `driver` (`None` for a driver without OA streams).
    pub fn sysctl_of(driver: &Driver) -> Option<&'static str> {
        match driver {
            Driver::I915 => Some("dev.i915.perf_stream_paranoid"),
            Driver::Xe => Some("dev.xe.observation_paranoid"),
            Driver::Other(_) => None,
        }
    }

    /// Read the paranoid setting of `driver` under `proc_root` (`/proc`).
    pub fn read(proc_root: &Path, driver: &Driver) -> Result<Paranoid, DiscoveryError> {
        let sysctl = Paranoid::sysctl_of(driver).ok_or_else(|| DiscoveryError::Parse {
            path: proc_root.to_path_buf(),
            why: format!("driver `{driver}` has no OA paranoid setting"),
        })?;
        let path = proc_root
            .join("sys")
            .join(sysctl.replace('.', "/").as_str());
        let text = std::fs::read_to_string(&path).map_err(|e| DiscoveryError::io(&path, e))?;
        let value = text
            .trim()
            .parse::<u64>()
            .map_err(|_| DiscoveryError::Parse {
                path: path.clone(),
                why: format!("`{}` is not a number", text.trim()),
            })?;
        Ok(Paranoid {
            sysctl,
            path,
            value,
        })
    }
}

/// Why an OA stream can be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// The paranoid sysctl is 0: any user may.
    ParanoidOff {
        /// The sysctl's name.
        sysctl: &'static str,
    },
    /// The process has `CAP_PERFMON`.
    Perfmon,
    /// The process has `CAP_SYS_ADMIN`.
    SysAdmin,
}

/// Why an OA stream cannot be opened (each with its remedy, see [`Blocked::remedy`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// The card is not an Intel GPU.
    NotIntel {
        /// Its PCI vendor id.
        vendor: u16,
    },
    /// An Intel PCI id the kernel's tables (as transcribed here) do not list.
    UnknownDevice {
        /// The PCI device id.
        pci_id: u16,
    },
    /// A platform the descriptions do not cover yet (`SKL GT2`).
    NotDescribed(&'static DeviceId),
    /// SNB, IVB or VLV: no OA stream under Linux.
    NoOaStream(&'static DeviceId),
    /// No kernel driver is bound to the device.
    NoDriver,
    /// A driver other than i915 or xe.
    UnsupportedDriver {
        /// Its name.
        driver: String,
    },
    /// The paranoid sysctl could not be read.
    ParanoidUnreadable {
        /// The sysctl.
        sysctl: &'static str,
        /// What went wrong.
        error: String,
    },
    /// The privileges could not be read.
    PrivilegesUnreadable {
        /// What went wrong.
        error: String,
    },
    /// The paranoid sysctl is set and the process has neither capability.
    NeedsPermission {
        /// The sysctl.
        sysctl: &'static str,
        /// Its value.
        value: u64,
        /// Whether the process runs as root (without the capabilities: a
        /// container or a dropped bounding set).
        root: bool,
    },
}

impl Blocked {
    /// What the user can do about it.
    pub fn remedy(&self) -> String {
        match self {
            Blocked::NotIntel { .. } => "perfregs samples Intel GPUs only".into(),
            Blocked::UnknownDevice { .. } => {
                "newer than perfregs' device table (regdefs/devices.yaml): check the kernel's i915_pciids.h".into()
            }
            Blocked::NotDescribed(_) => {
                "its OA registers and metric sets are not described in regdefs/ yet".into()
            }
            Blocked::NoOaStream(_) => {
                "sample with MI_REPORT_PERF_COUNT from a batch instead (Gen7 and earlier)".into()
            }
            Blocked::NoDriver => "load the i915 or xe kernel driver".into(),
            Blocked::UnsupportedDriver { .. } => "bind the device to i915 or xe".into(),
            Blocked::ParanoidUnreadable { sysctl, .. } => {
                format!("check that the driver exposes {sysctl} (/proc mounted, driver loaded)")
            }
            Blocked::PrivilegesUnreadable { .. } => "check that /proc is mounted".into(),
            Blocked::NeedsPermission { sysctl, .. } => format!(
                "run `sudo sysctl {sysctl}=0`, or give the program CAP_PERFMON (`sudo setcap cap_perfmon+ep <binary>`)"
            ),
        }
    }
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocked::NotIntel { vendor } => write!(f, "not an Intel device (vendor {vendor:#06x})"),
            Blocked::UnknownDevice { pci_id } => write!(f, "unknown Intel device {pci_id:#06x}"),
            Blocked::NotDescribed(id) => {
                write!(f, "platform not described yet ({}", id.platform)?;
                if let Some(gt) = id.gt {
                    write!(f, " GT{gt}")?;
                }
                write!(f, ", PCI id {:#06x})", id.pci_id)
            }
            Blocked::NoOaStream(id) => write!(
                f,
                "{id}: no OA stream under Linux (the catalogue gives this GPU no OA unit; MI_REPORT_PERF_COUNT only)"
            ),
            Blocked::NoDriver => f.write_str("no kernel driver bound to the device"),
            Blocked::UnsupportedDriver { driver } => {
                write!(f, "driver `{driver}` has no OA streams")
            }
            Blocked::ParanoidUnreadable { sysctl, error } => {
                write!(f, "cannot read {sysctl}: {error}")
            }
            Blocked::PrivilegesUnreadable { error } => {
                write!(f, "cannot read the process's capabilities: {error}")
            }
            Blocked::NeedsPermission {
                sysctl,
                value,
                root,
            } => {
                write!(
                    f,
                    "{sysctl} is {value} and the process has neither CAP_PERFMON nor CAP_SYS_ADMIN"
                )?;
                if *root {
                    f.write_str(" (it runs as root with those capabilities dropped)")?;
                }
                Ok(())
            }
        }
    }
}

/// Whether OA streams can be opened on a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OaAccess {
    /// Yes, and why.
    Yes(Allowed),
    /// No, and why.
    No(Blocked),
}

impl OaAccess {
    /// True for [`OaAccess::Yes`].
    pub fn allowed(&self) -> bool {
        matches!(self, OaAccess::Yes(_))
    }
}

impl fmt::Display for OaAccess {
    /// `yes (CAP_PERFMON)` or `no: <reason>; <remedy>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OaAccess::Yes(Allowed::ParanoidOff { sysctl }) => write!(f, "yes ({sysctl} is 0)"),
            OaAccess::Yes(Allowed::Perfmon) => f.write_str("yes (CAP_PERFMON)"),
            OaAccess::Yes(Allowed::SysAdmin) => f.write_str("yes (CAP_SYS_ADMIN)"),
            OaAccess::No(b) => write!(f, "no: {b}; {}", b.remedy()),
        }
    }
}

/// What the verdict is computed from: everything is read before, so the
/// rule is a pure function (and tested without a GPU).
#[derive(Clone, Debug)]
pub struct AccessInputs<'a> {
    /// PCI vendor id.
    pub vendor: u16,
    /// PCI device id.
    pub pci_id: u16,
    /// The device-table row of `pci_id`.
    pub id: Option<&'static DeviceId>,
    /// The bound driver.
    pub driver: Option<&'a Driver>,
    /// The paranoid setting (or why it could not be read).
    pub paranoid: Option<&'a Result<Paranoid, DiscoveryError>>,
    /// The privileges (or why they could not be read).
    pub privileges: &'a Result<Privileges, DiscoveryError>,
}

/// The verdict, checking in order: vendor, device table, described
/// project, OA stream on the platform, driver, permission.
pub fn verdict(i: &AccessInputs<'_>) -> OaAccess {
    if i.vendor != super::INTEL_VENDOR {
        return OaAccess::No(Blocked::NotIntel { vendor: i.vendor });
    }
    let Some(id) = i.id else {
        return OaAccess::No(Blocked::UnknownDevice { pci_id: i.pci_id });
    };
    let Some(project) = id.project else {
        return OaAccess::No(Blocked::NotDescribed(id));
    };
    if no_oa_stream(project) {
        return OaAccess::No(Blocked::NoOaStream(id));
    }
    let Some(driver) = i.driver else {
        return OaAccess::No(Blocked::NoDriver);
    };
    let Some(sysctl) = Paranoid::sysctl_of(driver) else {
        return OaAccess::No(Blocked::UnsupportedDriver {
            driver: driver.to_string(),
        });
    };
    let privileges = match i.privileges {
        Ok(p) => *p,
        Err(e) => {
            return OaAccess::No(Blocked::PrivilegesUnreadable {
                error: e.to_string(),
            })
        }
    };
    if privileges.perfmon() {
        return OaAccess::Yes(Allowed::Perfmon);
    }
    if privileges.sys_admin() {
        return OaAccess::Yes(Allowed::SysAdmin);
    }
    match i.paranoid {
        Some(Ok(p)) if p.value == 0 => OaAccess::Yes(Allowed::ParanoidOff { sysctl }),
        Some(Ok(p)) => OaAccess::No(Blocked::NeedsPermission {
            sysctl,
            value: p.value,
            root: privileges.root(),
        }),
        Some(Err(e)) => OaAccess::No(Blocked::ParanoidUnreadable {
            sysctl,
            error: e.to_string(),
        }),
        None => OaAccess::No(Blocked::ParanoidUnreadable {
            sysctl,
            error: "not read".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: &str = "Name:\tperfregs\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nCapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n";

    #[test]
    fn privileges_from_status() {
        let p = Privileges::parse_status(STATUS).expect("parses");
        assert_eq!(
            p,
            Privileges {
                euid: 1000,
                cap_eff: 0
            }
        );
        assert!(!p.perfmon() && !p.sys_admin() && !p.root());
        let perfmon = STATUS.replace("CapEff:\t0000000000000000", "CapEff:\t0000004000000000");
        let p = Privileges::parse_status(&perfmon).expect("parses");
        assert!(p.perfmon() && !p.sys_admin());
        let root = STATUS
            .replace("Uid:\t1000\t1000", "Uid:\t1000\t0")
            .replace("CapEff:\t0000000000000000", "CapEff:\t000001ffffffffff");
        let p = Privileges::parse_status(&root).expect("parses");
        assert!(p.root() && p.perfmon() && p.sys_admin());
        assert!(Privileges::parse_status("Uid:\t0\t0\n")
            .unwrap_err()
            .contains("CapEff"));
        assert!(Privileges::parse_status("Uid:\t0\nCapEff:\t0\n")
            .unwrap_err()
            .contains("effective uid"));
        assert!(Privileges::parse_status("Uid:\t0\t0\nCapEff:\tzz\n")
            .unwrap_err()
            .contains("hexadecimal"));
    }
}
