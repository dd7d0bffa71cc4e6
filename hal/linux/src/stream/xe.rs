//! Xe observation streams: the open property chain ([`XeParams`], pure
//! and testable) and, on Linux, [`XeStream`] (`DRM_IOCTL_XE_OBSERVATION`
//! with op STREAM_OPEN, then ENABLE / DISABLE / STATUS / INFO).

use crate::errno::{Driver, Op, StreamError};
use crate::uapi::xe::{self, prop, DrmXeExtSetProperty};

/// The open properties of an Xe OA stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XeParams {
    /// The OA unit (from `DRM_XE_DEVICE_QUERY_OA_UNITS`; `None`: the
    /// kernel's default, unit 0).
    pub unit: Option<u64>,
    /// The config id.
    pub metric_set: u64,
    /// The packed format ([`xe::oa_format`]).
    pub format: u64,
    /// Bytes of one report of that format.
    pub report_size: usize,
    /// Period = timestamp period × 2^(exponent + 1).
    pub exponent: u64,
    /// Open disabled (the default).
    pub disabled: bool,
    /// Filter on one exec queue.
    pub exec_queue: Option<u64>,
    /// The OA buffer size in bytes (128 KiB..128 MiB).
    pub buffer_size: Option<u64>,
    /// Wake readers only after this many reports.
    pub wait_num_reports: Option<u64>,
}

impl XeParams {
    /// A stream of config `metric_set`, packed format `format` (reports of
    /// `report_size` bytes) and `exponent`, opened disabled.
    pub fn new(metric_set: u64, format: u64, report_size: usize, exponent: u64) -> Self {
        XeParams {
            unit: None,
            metric_set,
            format,
            report_size,
            exponent,
            disabled: true,
            exec_queue: None,
            buffer_size: None,
            wait_num_reports: None,
        }
    }

    /// The `(property, value)` pairs in chain order: OA_UNIT_ID (if set),
    /// SAMPLE_OA, OA_METRIC_SET, OA_FORMAT, OA_PERIOD_EXPONENT,
    /// OA_DISABLED, then the optional ones.
    pub fn properties(&self) -> Vec<(u32, u64)> {
        let mut p = Vec::new();
        if let Some(u) = self.unit {
            p.push((prop::OA_UNIT_ID, u));
        }
        p.extend([
            (prop::SAMPLE_OA, 1),
            (prop::OA_METRIC_SET, self.metric_set),
            (prop::OA_FORMAT, self.format),
            (prop::OA_PERIOD_EXPONENT, self.exponent),
            (prop::OA_DISABLED, u64::from(self.disabled)),
        ]);
        if let Some(q) = self.exec_queue {
            p.push((prop::EXEC_QUEUE_ID, q));
        }
        if let Some(s) = self.buffer_size {
            p.push((prop::OA_BUFFER_SIZE, s));
        }
        if let Some(n) = self.wait_num_reports {
            p.push((prop::WAIT_NUM_REPORTS, n));
        }
        p
    }

    /// The chain's links, not yet linked (`next_extension` 0; [`link`]
    /// points each at the next once they sit where the kernel reads them).
    pub fn chain(&self) -> Vec<DrmXeExtSetProperty> {
        self.properties()
            .into_iter()
            .map(|(property, value)| DrmXeExtSetProperty {
                name: xe::OA_EXTENSION_SET_PROPERTY,
                property,
                value,
                ..Default::default()
            })
            .collect()
    }

    /// The properties as `NAME=value` words (for messages).
    pub fn summary(&self) -> String {
        self.properties()
            .iter()
            .map(|&(id, v)| {
                let name = prop::name(id).unwrap_or("?");
                if id == prop::OA_FORMAT {
                    format!("{name}={v:#x}")
                } else {
                    format!("{name}={v}")
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The property the kernel would refuse, as far as it can be told.
    pub fn suspect(&self) -> Option<String> {
        if self.metric_set == 0 {
            return Some("OA_METRIC_SET=0 (config ids start at 1)".into());
        }
        if self.exponent > 31 {
            return Some(format!("OA_PERIOD_EXPONENT={} (at most 31)", self.exponent));
        }
        if let Some(s) = self
            .buffer_size
            .filter(|&s| !(128 << 10..=128 << 20).contains(&s) || !s.is_power_of_two())
        {
            return Some(format!(
                "OA_BUFFER_SIZE={s} (a power of two, 128 KiB..128 MiB)"
            ));
        }
        if self.report_size == 0 {
            return Some("a report size of 0".into());
        }
        None
    }

    /// Refuse what the kernel would refuse, before asking it.
    pub fn check(&self) -> Result<(), StreamError> {
        match self.suspect() {
            Some(s) => Err(StreamError::Invalid(format!(
                "{}: {s} (properties {})",
                Driver::Xe,
                self.summary()
            ))),
            None => Ok(()),
        }
    }

    /// The operation, for error messages.
    pub fn op(&self) -> Op {
        Op::OpenStream {
            properties: self.summary(),
            suspect: self.suspect(),
        }
    }
}

/// Point each link's `next_extension` at the link after it (the last at
/// 0). The links must not move before the kernel reads them.
pub fn link(chain: &mut [DrmXeExtSetProperty]) {
    let n = chain.len();
    for i in 0..n {
        chain[i].next_extension = if i + 1 < n {
            (&chain[i + 1] as *const DrmXeExtSetProperty) as u64
        } else {
            0
        };
    }
}

/// One link as the kernel reads it (48 bytes, little-endian).
pub fn link_bytes(l: &DrmXeExtSetProperty) -> [u8; 48] {
    let mut b = [0u8; 48];
    b[0..8].copy_from_slice(&l.next_extension.to_le_bytes());
    b[8..12].copy_from_slice(&l.name.to_le_bytes());
    b[12..16].copy_from_slice(&l.pad.to_le_bytes());
    b[16..20].copy_from_slice(&l.property.to_le_bytes());
    b[20..24].copy_from_slice(&l.pad2.to_le_bytes());
    b[24..32].copy_from_slice(&l.value.to_le_bytes());
    b[32..40].copy_from_slice(&l.reserved[0].to_le_bytes());
    b[40..48].copy_from_slice(&l.reserved[1].to_le_bytes());
    b
}

#[cfg(target_os = "linux")]
pub use linux::XeStream;

#[cfg(target_os = "linux")]
mod linux {
    use std::os::fd::AsFd;
    use std::time::Duration;

    use super::*;
    use crate::errno::KernelError;
    use crate::stream::fd::StreamFd;
    use crate::stream::{Framing, OaStream};
    use crate::uapi::xe::{ioctl, DrmXeOaStreamInfo, DrmXeOaStreamStatus, DrmXeObservationParam};

    /// An open Xe OA stream.
    #[derive(Debug)]
    pub struct XeStream {
        fd: StreamFd,
        report_size: usize,
    }

    impl XeStream {
        /// Open a stream on DRM fd `drm` with `params` (checked first);
        /// the stream fd is made non-blocking and close-on-exec.
        pub fn open(drm: impl AsFd, params: &XeParams) -> Result<Self, StreamError> {
            params.check()?;
            let mut chain = params.chain();
            link(&mut chain);
            let mut arg = DrmXeObservationParam {
                extensions: 0,
                observation_type: xe::OBSERVATION_TYPE_OA,
                observation_op: xe::OBSERVATION_OP_STREAM_OPEN,
                param: chain.as_mut_ptr() as u64,
            };
            // SAFETY: OBSERVATION takes a drm_xe_observation_param whose
            // param points to the first link of a linked set-property
            // chain; `chain` neither moves nor drops during the call.
            let fd = unsafe {
                StreamFd::open(&drm, ioctl::OBSERVATION, &mut arg, Driver::Xe, params.op())
            }?;
            let flags = rustix::fs::fcntl_getfl(&fd)
                .map_err(|e| KernelError::new(Driver::Xe, params.op(), e.raw_os_error()))?;
            rustix::fs::fcntl_setfl(&fd, flags | rustix::fs::OFlags::NONBLOCK)
                .map_err(|e| KernelError::new(Driver::Xe, params.op(), e.raw_os_error()))?;
            rustix::io::fcntl_setfd(&fd, rustix::io::FdFlags::CLOEXEC)
                .map_err(|e| KernelError::new(Driver::Xe, params.op(), e.raw_os_error()))?;
            Ok(XeStream {
                fd,
                report_size: params.report_size,
            })
        }

        fn call(
            &self,
            opcode: rustix::ioctl::Opcode,
            arg: *mut core::ffi::c_void,
            op: Op,
        ) -> Result<i32, StreamError> {
            // SAFETY: each caller passes the argument its opcode takes.
            unsafe { self.fd.ioctl(opcode, arg, op) }
        }

        /// The OA buffer size (INFO ioctl).
        pub fn buffer_size(&mut self) -> Result<u64, StreamError> {
            let info: DrmXeOaStreamInfo = self.query(ioctl::INFO, Op::Info)?;
            Ok(info.oa_buf_size)
        }

        /// The struct a STATUS or INFO ioctl (`opcode`) fills in.
        fn query<T: Default>(
            &self,
            opcode: rustix::ioctl::Opcode,
            op: Op,
        ) -> Result<T, StreamError> {
            let mut out = T::default();
            self.call(opcode, (&mut out as *mut T).cast(), op)?;
            Ok(out)
        }
    }

    impl OaStream for XeStream {
        fd_stream_methods!();
        fn framing(&self) -> Framing {
            Framing::XeRaw
        }
        fn enable(&mut self) -> Result<(), StreamError> {
            self.call(ioctl::ENABLE, core::ptr::null_mut(), Op::Enable)
                .map(drop)
        }
        fn disable(&mut self) -> Result<(), StreamError> {
            self.call(ioctl::DISABLE, core::ptr::null_mut(), Op::Disable)
                .map(drop)
        }
        fn status(&mut self) -> Result<u64, StreamError> {
            let s: DrmXeOaStreamStatus = self.query(ioctl::STATUS, Op::Status)?;
            Ok(s.oa_status)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_order_values_and_links() {
        let mut p = XeParams::new(5, xe::oa_format(1, 0, 1, 0), 256, 9);
        p.unit = Some(0);
        p.buffer_size = Some(16 << 20);
        let props = p.properties();
        assert_eq!(
            props,
            [
                (1, 0),
                (2, 1),
                (3, 5),
                (4, 0x1_0001),
                (5, 9),
                (6, 1),
                (12, 16 << 20)
            ]
        );
        let mut chain = p.chain();
        link(&mut chain);
        for (i, l) in chain.iter().enumerate() {
            assert_eq!(l.name, 0, "set property");
            assert_eq!((l.property, l.value), props[i]);
            let next = chain.get(i + 1).map_or(0, |n| n as *const _ as u64);
            assert_eq!(l.next_extension, next);
        }
        let b = link_bytes(&chain[3]);
        assert_eq!(&b[0..8], &chain[3].next_extension.to_le_bytes());
        assert_eq!(&b[8..24], &[0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&b[24..32], &0x1_0001u64.to_le_bytes());
        assert_eq!(&b[32..], &[0; 16]);
        assert!(
            p.summary()
                .contains("OA_FORMAT=0x10001 OA_PERIOD_EXPONENT=9"),
            "{}",
            p.summary()
        );
    }

    #[test]
    fn suspects() {
        let ok = XeParams::new(5, 1, 256, 9);
        assert_eq!(ok.suspect(), None);
        let mut p = ok.clone();
        p.buffer_size = Some(1000);
        assert!(p.suspect().unwrap().contains("OA_BUFFER_SIZE=1000"));
        let mut p = ok.clone();
        p.exponent = 40;
        assert!(p.suspect().unwrap().contains("OA_PERIOD_EXPONENT=40"));
        assert!(XeParams::new(0, 1, 256, 9)
            .suspect()
            .unwrap()
            .contains("OA_METRIC_SET=0"));
        match ok.op() {
            Op::OpenStream {
                properties,
                suspect,
            } => {
                assert!(
                    properties.starts_with("SAMPLE_OA=1 OA_METRIC_SET=5"),
                    "{properties}"
                );
                assert_eq!(suspect, None);
            }
            op => panic!("{op:?}"),
        }
    }
}
