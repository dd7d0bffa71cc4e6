//! What only the driver can say, asked through a render node (Linux).
//!
//! - i915 ([`Probe`]): the PCI id and revision as the driver sees them, the
//!   perf interface revision, the command streamer timestamp frequency
//!   (`GETPARAM`) and the topology (`QUERY`, `DRM_I915_QUERY_TOPOLOGY_INFO`).
//! - xe ([`XeProbe`]): the GT list (the main GT's timestamp
//!   `reference_clock`) and the GT topology (`DRM_IOCTL_XE_DEVICE_QUERY`).
//!   The OA timestamp frequency is the GT's reference clock here; xe's OA
//!   units query, which gives it per OA unit, is not read yet.

use super::topology::{device_values, DeviceInfoError, DeviceValues, GtFrequencies, Topology};
use super::{Card, Driver};
use crate::uapi::i915::{
    DrmI915Getparam, DrmI915Query, DrmI915QueryItem, DRM_I915_QUERY_TOPOLOGY_INFO,
    I915_PARAM_CHIPSET_ID, I915_PARAM_CS_TIMESTAMP_FREQUENCY, I915_PARAM_PERF_REVISION,
    I915_PARAM_REVISION,
};
use crate::uapi::xe::{
    DrmXeDeviceQuery, DRM_XE_DEVICE_QUERY_GT_LIST, DRM_XE_DEVICE_QUERY_GT_TOPOLOGY,
    DRM_XE_DEVICE_QUERY_OA_UNITS,
};
use crate::uapi::{i915, xe};
use core::fmt;
use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::io::Errno;
use rustix::ioctl::{ioctl, Updater};
use std::path::{Path, PathBuf};

/// Why probing failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The card has no render node.
    NoRenderNode {
        /// The card.
        card: String,
    },
    /// The card is driven by neither i915 nor xe.
    UnsupportedDriver {
        /// The driver (or `none`).
        driver: String,
    },
    /// The render node could not be opened.
    Open {
        /// Its path.
        path: PathBuf,
        /// The error.
        errno: Errno,
    },
    /// An ioctl failed.
    Ioctl {
        /// Which (`GETPARAM I915_PARAM_PERF_REVISION`, `QUERY topology`).
        what: &'static str,
        /// The error.
        errno: Errno,
    },
    /// The kernel returned a length that does not make sense.
    Length {
        /// Which query.
        what: &'static str,
        /// The length.
        length: i32,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::NoRenderNode { card } => write!(f, "{card} has no render node"),
            ProbeError::UnsupportedDriver { driver } => {
                write!(f, "driver `{driver}`: only i915 and xe can be asked")
            }
            ProbeError::Open { path, errno } => {
                write!(f, "cannot open {}: {errno}", path.display())?;
                if *errno == Errno::ACCESS {
                    f.write_str(" (add the user to the `render` group)")?;
                }
                Ok(())
            }
            ProbeError::Ioctl { what, errno } => write!(f, "{what}: {errno}"),
            ProbeError::Length { what, length } => {
                write!(f, "{what}: the kernel answered length {length}")
            }
        }
    }
}

impl std::error::Error for ProbeError {}

/// `DRM_IOCTL_I915_GETPARAM` of `param`.
pub fn getparam(fd: BorrowedFd<'_>, param: i32) -> Result<i32, Errno> {
    let mut value: i32 = 0;
    let mut arg = DrmI915Getparam {
        param,
        value: core::ptr::addr_of_mut!(value),
    };
    // SAFETY: GETPARAM's argument is a `drm_i915_getparam_t` (asserted in
    // `uapi`): the kernel reads `param` and writes one int through `value`,
    // which points at a local that outlives the call.
    unsafe {
        ioctl(
            fd,
            Updater::<{ i915::ioctl::GETPARAM }, DrmI915Getparam>::new(&mut arg),
        )
    }?;
    Ok(value)
}

/// One `DRM_IOCTL_I915_QUERY` with one item.
fn query_once(fd: BorrowedFd<'_>, item: &mut DrmI915QueryItem) -> Result<(), Errno> {
    let mut q = DrmI915Query {
        num_items: 1,
        flags: 0,
        items_ptr: core::ptr::addr_of_mut!(*item) as u64,
    };
    // SAFETY: QUERY's argument is a `struct drm_i915_query` (asserted in
    // `uapi`) pointing at one item; the item's `data_ptr` is 0 or points at
    // a buffer of `length` bytes (see `query`), all alive across the call.
    unsafe {
        ioctl(
            fd,
            Updater::<{ i915::ioctl::QUERY }, DrmI915Query>::new(&mut q),
        )
    }
}

/// The bytes of query item `query_id`: once for the length, once for the data.
pub fn query(fd: BorrowedFd<'_>, query_id: u64, what: &'static str) -> Result<Vec<u8>, ProbeError> {
    let mut item = DrmI915QueryItem {
        query_id,
        ..DrmI915QueryItem::default()
    };
    query_once(fd, &mut item).map_err(|errno| ProbeError::Ioctl { what, errno })?;
    let len = item_length(&item, what)?;
    let mut buf = vec![0u8; len];
    item.data_ptr = buf.as_mut_ptr() as u64;
    query_once(fd, &mut item).map_err(|errno| ProbeError::Ioctl { what, errno })?;
    let got = item_length(&item, what)?;
    if got > buf.len() {
        return Err(ProbeError::Length {
            what,
            length: item.length,
        });
    }
    buf.truncate(got);
    Ok(buf)
}

/// An item's length: a negative one is the item's errno.
fn item_length(item: &DrmI915QueryItem, what: &'static str) -> Result<usize, ProbeError> {
    match usize::try_from(item.length) {
        Ok(0) => Err(ProbeError::Length { what, length: 0 }),
        Ok(n) => Ok(n),
        Err(_) => Err(ProbeError::Ioctl {
            what,
            errno: Errno::from_raw_os_error(item.length.saturating_neg()),
        }),
    }
}

/// What the driver said about a card; each answer on its own, so an old
/// kernel without one parameter still gives the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// `I915_PARAM_CHIPSET_ID`.
    pub chipset_id: Result<i32, Errno>,
    /// `I915_PARAM_REVISION`.
    pub revision: Result<i32, Errno>,
    /// `I915_PARAM_PERF_REVISION` (EINVAL before Linux 5.4 or so).
    pub perf_revision: Result<i32, Errno>,
    /// `I915_PARAM_CS_TIMESTAMP_FREQUENCY` (Hz).
    pub timestamp_frequency: Result<i32, Errno>,
    /// The raw `DRM_I915_QUERY_TOPOLOGY_INFO` answer.
    pub topology: Result<Vec<u8>, ProbeError>,
}

impl Probe {
    /// Ask the driver through an open render node.
    pub fn of_fd(fd: BorrowedFd<'_>) -> Probe {
        Probe {
            chipset_id: getparam(fd, I915_PARAM_CHIPSET_ID),
            revision: getparam(fd, I915_PARAM_REVISION),
            perf_revision: getparam(fd, I915_PARAM_PERF_REVISION),
            timestamp_frequency: getparam(fd, I915_PARAM_CS_TIMESTAMP_FREQUENCY),
            topology: query(fd, DRM_I915_QUERY_TOPOLOGY_INFO, "QUERY topology"),
        }
    }

    /// The topology and the OA timestamp frequency (Hz) of the answers.
    pub fn topology_and_frequency(&self) -> Result<(Topology, u64), ProbeDeviceInfoError> {
        let bytes = self
            .topology
            .as_ref()
            .map_err(|e| ProbeDeviceInfoError::Probe(e.clone()))?;
        let freq = match self.timestamp_frequency {
            Ok(f) => u64::try_from(f).map_err(|_| {
                ProbeDeviceInfoError::Probe(ProbeError::Length {
                    what: "GETPARAM I915_PARAM_CS_TIMESTAMP_FREQUENCY",
                    length: f,
                })
            })?,
            Err(errno) => {
                return Err(ProbeDeviceInfoError::Probe(ProbeError::Ioctl {
                    what: "GETPARAM I915_PARAM_CS_TIMESTAMP_FREQUENCY",
                    errno,
                }))
            }
        };
        let topology = Topology::parse(bytes).map_err(DeviceInfoError::Topology)?;
        Ok((topology, freq))
    }
}

/// Why a probe gave no device values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeDeviceInfoError {
    /// The card's platform is not described.
    NotDescribed,
    /// A probe answer is missing.
    Probe(ProbeError),
    /// The answers do not make device values.
    DeviceInfo(DeviceInfoError),
}

impl From<DeviceInfoError> for ProbeDeviceInfoError {
    fn from(e: DeviceInfoError) -> Self {
        ProbeDeviceInfoError::DeviceInfo(e)
    }
}

impl fmt::Display for ProbeDeviceInfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeDeviceInfoError::NotDescribed => f.write_str("platform not described"),
            ProbeDeviceInfoError::Probe(e) => e.fmt(f),
            ProbeDeviceInfoError::DeviceInfo(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ProbeDeviceInfoError {}

/// One `DRM_IOCTL_XE_DEVICE_QUERY`.
fn xe_query_once(fd: BorrowedFd<'_>, q: &mut DrmXeDeviceQuery) -> Result<(), Errno> {
    // SAFETY: DEVICE_QUERY's argument is a `struct drm_xe_device_query`
    // (asserted in `uapi`); `data` is 0 or points at a buffer of `size`
    // bytes (see `xe_query`) alive across the call.
    unsafe {
        ioctl(
            fd,
            Updater::<{ xe::ioctl::DEVICE_QUERY }, DrmXeDeviceQuery>::new(q),
        )
    }
}

/// The answer to xe device query `query`: once for the size, once for the data.
pub fn xe_query(fd: BorrowedFd<'_>, query: u32, what: &'static str) -> Result<Vec<u8>, ProbeError> {
    let mut q = DrmXeDeviceQuery {
        query,
        ..DrmXeDeviceQuery::default()
    };
    xe_query_once(fd, &mut q).map_err(|errno| ProbeError::Ioctl { what, errno })?;
    let len = usize::try_from(q.size).unwrap_or(usize::MAX);
    if len == 0 || len > 1 << 24 {
        return Err(ProbeError::Length {
            what,
            length: i32::try_from(q.size).unwrap_or(i32::MAX),
        });
    }
    let mut buf = vec![0u8; len];
    q.data = buf.as_mut_ptr() as u64;
    xe_query_once(fd, &mut q).map_err(|errno| ProbeError::Ioctl { what, errno })?;
    Ok(buf)
}

/// What the xe driver said about a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XeProbe {
    /// `DRM_XE_DEVICE_QUERY_GT_LIST`.
    pub gt_list: Result<Vec<u8>, ProbeError>,
    /// `DRM_XE_DEVICE_QUERY_GT_TOPOLOGY`.
    pub topology: Result<Vec<u8>, ProbeError>,
    /// `DRM_XE_DEVICE_QUERY_OA_UNITS`.
    pub oa_units: Result<Vec<u8>, ProbeError>,
}

impl XeProbe {
    /// Ask the driver through an open render node.
    pub fn of_fd(fd: BorrowedFd<'_>) -> XeProbe {
        XeProbe {
            gt_list: xe_query(fd, DRM_XE_DEVICE_QUERY_GT_LIST, "DEVICE_QUERY GT list"),
            topology: xe_query(fd, DRM_XE_DEVICE_QUERY_GT_TOPOLOGY, "DEVICE_QUERY topology"),
            oa_units: xe_query(fd, DRM_XE_DEVICE_QUERY_OA_UNITS, "DEVICE_QUERY OA units"),
        }
    }

    /// The OA units the driver lists (the render unit first).
    pub fn oa_units(&self) -> Result<Vec<super::oa_units::XeOaUnit>, String> {
        let bytes = self.oa_units.as_ref().map_err(|e| e.to_string())?;
        super::oa_units::parse(bytes).map_err(|e| e.to_string())
    }

    /// The main GT's topology, in i915's layout, and its reference clock (Hz).
    pub fn topology(&self) -> Result<(Topology, u32), ProbeDeviceInfoError> {
        let list = self
            .gt_list
            .as_ref()
            .map_err(|e| ProbeDeviceInfoError::Probe(e.clone()))?;
        let bytes = self
            .topology
            .as_ref()
            .map_err(|e| ProbeDeviceInfoError::Probe(e.clone()))?;
        let (gt_id, clock) = super::xe::main_gt(list).map_err(DeviceInfoError::Topology)?;
        let topology = super::xe::topology(bytes, gt_id).map_err(DeviceInfoError::Topology)?;
        Ok((topology, clock))
    }
}

/// A driver's answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answers {
    /// From i915.
    I915(Probe),
    /// From xe.
    Xe(XeProbe),
}

impl Answers {
    /// The device values for the metric equations (project and GT from
    /// the card's device-table row; `frequencies` from [`super::gt_frequencies`]).
    pub fn device_values(
        &self,
        card: &Card,
        frequencies: Option<GtFrequencies>,
    ) -> Result<DeviceValues, ProbeDeviceInfoError> {
        let id = card.id.ok_or(ProbeDeviceInfoError::NotDescribed)?;
        let project = id.project.ok_or(ProbeDeviceInfoError::NotDescribed)?;
        let (topology, timestamp_frequency) = match self {
            Answers::I915(p) => p.topology_and_frequency()?,
            Answers::Xe(p) => p.topology().map(|(t, clock)| (t, u64::from(clock)))?,
        };
        Ok(device_values(
            &topology,
            project,
            id.gt,
            timestamp_frequency,
            frequencies,
        )?)
    }
}

/// Open the card's render node under `dev_root` (`/dev`) and ask its driver.
pub fn probe(dev_root: &Path, card: &Card) -> Result<Answers, ProbeError> {
    let xe = match &card.driver {
        Some(Driver::I915) => false,
        Some(Driver::Xe) => true,
        other => {
            return Err(ProbeError::UnsupportedDriver {
                driver: other.as_ref().map_or("none".into(), |d| d.to_string()),
            })
        }
    };
    let node = card
        .render_node
        .as_ref()
        .ok_or_else(|| ProbeError::NoRenderNode {
            card: card.name.clone(),
        })?;
    let path = dev_root.join("dri").join(node);
    let fd: OwnedFd = rustix::fs::open(
        &path,
        rustix::fs::OFlags::RDWR | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .map_err(|errno| ProbeError::Open {
        path: path.clone(),
        errno,
    })?;
    Ok(if xe {
        Answers::Xe(XeProbe::of_fd(fd.as_fd()))
    } else {
        Answers::I915(Probe::of_fd(fd.as_fd()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uapi::i915::TGL_GT2_TOPOLOGY;
    use perfregs_types::DeviceVar;

    fn card(pci_id: u16, driver: Option<Driver>) -> Card {
        Card {
            name: "card0".into(),
            index: 0,
            pci_address: Some("0000:00:02.0".into()),
            vendor: 0x8086,
            pci_id,
            revision: Some(1),
            subsystem_device: None,
            driver,
            render_node: Some("renderD128".into()),
            id: hal::device(pci_id),
        }
    }

    /// TGL GT2's topology: one slice, 6 dual subslices of 16 EUs.
    fn tgl_gt2_topology() -> Vec<u8> {
        let h = TGL_GT2_TOPOLOGY;
        let mut b = h.to_bytes().to_vec();
        b.extend_from_slice(&[0x01, 0x3f]);
        b.extend_from_slice(&[0xff; 12]);
        b
    }

    fn probe_answers() -> Probe {
        Probe {
            chipset_id: Ok(0x9A49),
            revision: Ok(1),
            perf_revision: Ok(5),
            timestamp_frequency: Ok(19_200_000),
            topology: Ok(tgl_gt2_topology()),
        }
    }

    #[test]
    fn answers_become_device_values() {
        let v = Answers::I915(probe_answers())
            .device_values(&card(0x9A49, Some(Driver::I915)), None)
            .expect("values");
        assert_eq!(v.info, hal::part("tgl", 2).expect("TGL GT2").device);
        assert!(v.from_preset.contains(&DeviceVar::GpuMaxFrequency));
        // A missing answer is named, never replaced.
        let mut p = probe_answers();
        p.timestamp_frequency = Err(Errno::INVAL);
        let e = Answers::I915(p)
            .device_values(&card(0x9A49, Some(Driver::I915)), None)
            .expect_err("no frequency");
        assert_eq!(
            e.to_string(),
            format!(
                "GETPARAM I915_PARAM_CS_TIMESTAMP_FREQUENCY: {}",
                Errno::INVAL
            )
        );
        let mut p = probe_answers();
        p.timestamp_frequency = Ok(-1);
        assert!(Answers::I915(p)
            .device_values(&card(0x9A49, Some(Driver::I915)), None)
            .is_err());
        let mut p = probe_answers();
        p.topology = Ok(vec![0; 4]);
        assert!(matches!(
            Answers::I915(p).device_values(&card(0x9A49, Some(Driver::I915)), None),
            Err(ProbeDeviceInfoError::DeviceInfo(DeviceInfoError::Topology(
                _
            )))
        ));
        assert_eq!(
            Answers::I915(probe_answers()).device_values(&card(0x0BD5, Some(Driver::I915)), None),
            Err(ProbeDeviceInfoError::NotDescribed)
        );
    }

    #[test]
    fn probe_needs_i915_and_a_node() {
        let root = Path::new("/nonexistent-perfregs-dev");
        assert_eq!(
            probe(root, &card(0x9A49, Some(Driver::Other("vfio-pci".into())))),
            Err(ProbeError::UnsupportedDriver {
                driver: "vfio-pci".into()
            })
        );
        assert_eq!(
            probe(root, &card(0x9A49, None)),
            Err(ProbeError::UnsupportedDriver {
                driver: "none".into()
            })
        );
        assert!(matches!(
            probe(root, &card(0x9A49, Some(Driver::Xe))),
            Err(ProbeError::Open { .. })
        ));
        match probe(root, &card(0x9A49, Some(Driver::I915))) {
            Err(ProbeError::Open { path, errno }) => {
                assert_eq!(errno, Errno::NOENT);
                assert!(path.ends_with("dri/renderD128"));
            }
            other => panic!("{other:?}"),
        }
        let mut no_node = card(0x9A49, Some(Driver::I915));
        no_node.render_node = None;
        assert!(matches!(
            probe(root, &no_node),
            Err(ProbeError::NoRenderNode { .. })
        ));
    }

    /// The ioctls reach the kernel: on a file that is not a DRM device
    /// each one fails with ENOTTY, reported per answer.
    #[test]
    fn ioctls_on_a_non_drm_file_fail_cleanly() {
        let fd = rustix::fs::open(
            "/dev/null",
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .expect("/dev/null");
        let p = Probe::of_fd(fd.as_fd());
        assert_eq!(p.chipset_id, Err(Errno::NOTTY));
        assert_eq!(p.perf_revision, Err(Errno::NOTTY));
        assert_eq!(
            p.topology,
            Err(ProbeError::Ioctl {
                what: "QUERY topology",
                errno: Errno::NOTTY
            })
        );
        let x = XeProbe::of_fd(fd.as_fd());
        assert_eq!(
            x.gt_list,
            Err(ProbeError::Ioctl {
                what: "DEVICE_QUERY GT list",
                errno: Errno::NOTTY
            })
        );
        assert!(matches!(
            Answers::Xe(x).device_values(&card(0x9A49, Some(Driver::Xe)), None),
            Err(ProbeDeviceInfoError::Probe(ProbeError::Ioctl { .. }))
        ));
    }
}
