//! i915 perf streams: the open properties ([`I915Params`], pure and
//! testable) and, on Linux, [`I915Stream`] (`DRM_IOCTL_I915_PERF_OPEN` on
//! a DRM fd, then ENABLE / DISABLE / CONFIG on the stream fd).

use crate::errno::{Driver, Op, StreamError};
use crate::uapi::i915::{self, prop};

/// Flags a stream is opened with by default: close-on-exec, non-blocking,
/// disabled (enable it when ready).
pub const DEFAULT_FLAGS: u32 = i915::I915_PERF_FLAG_FD_CLOEXEC
    | i915::I915_PERF_FLAG_FD_NONBLOCK
    | i915::I915_PERF_FLAG_DISABLED;

/// The largest exponent the kernel accepts (`OA_EXPONENT_MAX`).
pub const MAX_EXPONENT: u64 = 31;
/// The smallest `POLL_OA_PERIOD` the kernel accepts (100 µs).
pub const MIN_POLL_PERIOD_NS: u64 = 100_000;

/// The open properties of an i915 perf stream, in the order they are
/// passed: SAMPLE_OA, OA_METRICS_SET, OA_FORMAT, OA_EXPONENT, then the
/// optional CTX_HANDLE, POLL_OA_PERIOD, OA_ENGINE_CLASS/INSTANCE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct I915Params {
    /// The config id (`metrics/<uuid>/id`, or ADD_CONFIG's answer).
    pub metrics_set: u64,
    /// `I915_OA_FORMAT_*`.
    pub format: u32,
    /// Period = timestamp period × 2^(exponent + 1).
    pub exponent: u64,
    /// Filter on one GEM context.
    pub ctx_handle: Option<u32>,
    /// How often the kernel checks the OA buffer, ns (revision 5).
    pub poll_period_ns: Option<u64>,
    /// Engine class and instance (revision 6).
    pub engine: Option<(u64, u64)>,
    /// `I915_PERF_FLAG_*` ([`DEFAULT_FLAGS`]).
    pub flags: u32,
}

impl I915Params {
    /// A system-wide stream of config `metrics_set`, format `format` and
    /// exponent `exponent`, opened with [`DEFAULT_FLAGS`].
    pub fn new(metrics_set: u64, format: u32, exponent: u64) -> Self {
        I915Params {
            metrics_set,
            format,
            exponent,
            ctx_handle: None,
            poll_period_ns: None,
            engine: None,
            flags: DEFAULT_FLAGS,
        }
    }

    /// Filter on GEM context `handle`.
    pub fn ctx_handle(mut self, handle: u32) -> Self {
        self.ctx_handle = Some(handle);
        self
    }

    /// Let the kernel check the OA buffer every `ns` nanoseconds.
    pub fn poll_period_ns(mut self, ns: u64) -> Self {
        self.poll_period_ns = Some(ns);
        self
    }

    /// Sample engine `class`/`instance` (revision 6).
    pub fn engine(mut self, class: u64, instance: u64) -> Self {
        self.engine = Some((class, instance));
        self
    }

    /// Open enabled (without `I915_PERF_FLAG_DISABLED`).
    pub fn enabled(mut self) -> Self {
        self.flags &= !i915::I915_PERF_FLAG_DISABLED;
        self
    }

    /// The `(id, value)` pairs, in order.
    pub fn properties(&self) -> Vec<[u64; 2]> {
        let mut p = vec![
            [prop::SAMPLE_OA, 1],
            [prop::OA_METRICS_SET, self.metrics_set],
            [prop::OA_FORMAT, u64::from(self.format)],
            [prop::OA_EXPONENT, self.exponent],
        ];
        if let Some(h) = self.ctx_handle {
            p.push([prop::CTX_HANDLE, u64::from(h)]);
        }
        if let Some(ns) = self.poll_period_ns {
            p.push([prop::POLL_OA_PERIOD, ns]);
        }
        if let Some((class, instance)) = self.engine {
            p.push([prop::OA_ENGINE_CLASS, class]);
            p.push([prop::OA_ENGINE_INSTANCE, instance]);
        }
        p
    }

    /// The property array as the kernel reads it (little-endian u64s).
    pub fn property_bytes(&self) -> Vec<u8> {
        self.properties()
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect()
    }

    /// The properties as `NAME=value` words (for messages).
    pub fn summary(&self) -> String {
        self.properties()
            .iter()
            .map(|[id, v]| format!("{}={v}", prop::name(*id).unwrap_or("?")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The report size of the format.
    pub fn report_size(&self) -> Option<usize> {
        i915::oa_format(self.format).and_then(|f| f.size)
    }

    /// The property the kernel would refuse, as far as it can be told
    /// without the kernel (`revision`: the device's perf revision, when
    /// known).
    pub fn suspect(&self, revision: Option<u32>) -> Option<String> {
        if self.metrics_set == 0 {
            return Some("OA_METRICS_SET=0 (config ids start at 1)".into());
        }
        let Some(f) = i915::oa_format(self.format) else {
            return Some(format!(
                "OA_FORMAT={} (no I915_OA_FORMAT_* has this value)",
                self.format
            ));
        };
        if f.size.is_none() {
            return Some(format!(
                "OA_FORMAT={} ({}: report size unknown here)",
                self.format, f.name
            ));
        }
        if self.exponent > MAX_EXPONENT {
            return Some(format!(
                "OA_EXPONENT={} (at most {MAX_EXPONENT})",
                self.exponent
            ));
        }
        if let Some(ns) = self.poll_period_ns.filter(|&ns| ns < MIN_POLL_PERIOD_NS) {
            return Some(format!(
                "POLL_OA_PERIOD={ns} (at least {MIN_POLL_PERIOD_NS} ns)"
            ));
        }
        let rev = revision?;
        self.properties().iter().find_map(|[id, v]| {
            let need = prop::revision(*id);
            (need > rev).then(|| {
                format!(
                    "{}={v} (needs perf revision {need}, the device has {rev})",
                    prop::name(*id).unwrap_or("?")
                )
            })
        })
    }

    /// The operation, for error messages.
    pub fn op(&self, revision: Option<u32>) -> Op {
        Op::OpenStream {
            properties: self.summary(),
            suspect: self.suspect(revision),
        }
    }

    /// Refuse what the kernel would refuse, before asking it.
    pub fn check(&self, revision: Option<u32>) -> Result<(), StreamError> {
        match self.suspect(revision) {
            Some(s) => Err(StreamError::Invalid(format!(
                "{}: {} (properties {})",
                Driver::I915,
                s,
                self.summary()
            ))),
            None => Ok(()),
        }
    }
}

#[cfg(target_os = "linux")]
pub use linux::I915Stream;

#[cfg(target_os = "linux")]
mod linux {
    use std::os::fd::AsFd;
    use std::time::Duration;

    use super::*;
    use crate::stream::fd::StreamFd;
    use crate::stream::{Framing, OaStream};
    use crate::uapi::{i915::ioctl, i915::DrmI915PerfOpenParam};

    /// An open i915 perf stream.
    #[derive(Debug)]
    pub struct I915Stream {
        fd: StreamFd,
        report_size: usize,
    }

    impl I915Stream {
        /// Open a stream on DRM fd `drm` (card or render node) with
        /// `params`; `revision` (the perf revision, when known) sharpens
        /// the messages. The properties are checked first.
        pub fn open(
            drm: impl AsFd,
            params: &I915Params,
            revision: Option<u32>,
        ) -> Result<Self, StreamError> {
            params.check(revision)?;
            let report_size = params
                .report_size()
                .ok_or_else(|| StreamError::Invalid("format without a report size".into()))?;
            let mut props = params.properties();
            let mut arg = DrmI915PerfOpenParam {
                flags: params.flags,
                num_properties: props.len() as u32,
                properties_ptr: props.as_mut_ptr() as u64,
            };
            // SAFETY: PERF_OPEN takes a drm_i915_perf_open_param whose
            // properties_ptr points to num_properties (u64, u64) pairs;
            // both live across the call.
            let fd = unsafe {
                StreamFd::open(
                    &drm,
                    ioctl::PERF_OPEN,
                    &mut arg,
                    Driver::I915,
                    params.op(revision),
                )
            }?;
            Ok(I915Stream { fd, report_size })
        }

        fn simple(
            &self,
            opcode: rustix::ioctl::Opcode,
            arg: usize,
            op: Op,
        ) -> Result<i32, StreamError> {
            // SAFETY: ENABLE and DISABLE take no argument, CONFIG an
            // integer (the config id).
            unsafe { self.fd.ioctl(opcode, arg as *mut core::ffi::c_void, op) }
        }

        /// Switch to config `id` (revision ≥ 2): the previous config id.
        pub fn switch_config(&mut self, id: u64) -> Result<u64, StreamError> {
            let arg = usize::try_from(id)
                .map_err(|_| StreamError::Invalid(format!("config id {id} too large")))?;
            let prev = self.simple(ioctl::CONFIG, arg, Op::SwitchConfig { id })?;
            Ok(u64::try_from(prev).unwrap_or(0))
        }
    }

    impl OaStream for I915Stream {
        fd_stream_methods!();
        fn framing(&self) -> Framing {
            Framing::I915Records
        }
        fn enable(&mut self) -> Result<(), StreamError> {
            self.simple(ioctl::ENABLE, 0, Op::Enable).map(drop)
        }
        fn disable(&mut self) -> Result<(), StreamError> {
            self.simple(ioctl::DISABLE, 0, Op::Disable).map(drop)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_in_order_with_values_and_bytes() {
        let p = I915Params::new(7, 10, 9);
        assert_eq!(p.properties(), [[2, 1], [3, 7], [4, 10], [5, 9]]);
        assert_eq!(p.flags, 0b111);
        let b = p.property_bytes();
        assert_eq!(b.len(), 4 * 16);
        assert_eq!(&b[..16], &[2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&b[48..56], &5u64.to_le_bytes());
        assert_eq!(&b[56..], &9u64.to_le_bytes());
        let p = p
            .ctx_handle(3)
            .poll_period_ns(200_000)
            .engine(0, 1)
            .enabled();
        assert_eq!(p.properties()[4..], [[1, 3], [8, 200_000], [9, 0], [10, 1]]);
        assert_eq!(p.flags, 0b011);
        assert_eq!(
            p.summary(),
            "SAMPLE_OA=1 OA_METRICS_SET=7 OA_FORMAT=10 OA_EXPONENT=9 CTX_HANDLE=3 POLL_OA_PERIOD=200000 OA_ENGINE_CLASS=0 OA_ENGINE_INSTANCE=1"
        );
        assert_eq!(p.report_size(), Some(256));
    }

    #[test]
    fn the_likely_bad_property_is_named() {
        let ok = I915Params::new(7, 10, 9);
        assert_eq!(ok.suspect(Some(5)), None);
        assert!(ok.check(None).is_ok());
        let cases = [
            (I915Params::new(0, 10, 9), None, "OA_METRICS_SET=0"),
            (I915Params::new(7, 99, 9), None, "OA_FORMAT=99"),
            (
                I915Params::new(7, 10, 32),
                None,
                "OA_EXPONENT=32 (at most 31)",
            ),
            (ok.clone().poll_period_ns(5), None, "POLL_OA_PERIOD=5"),
            (
                ok.clone().poll_period_ns(100_000),
                Some(4),
                "needs perf revision 5, the device has 4",
            ),
            (
                ok.clone().engine(0, 0),
                Some(5),
                "OA_ENGINE_CLASS=0 (needs perf revision 6",
            ),
        ];
        for (p, rev, want) in cases {
            let s = p.suspect(rev).unwrap_or_default();
            assert!(s.contains(want), "{s:?} lacks {want:?}");
            let e = p.check(rev).unwrap_err().to_string();
            assert!(e.contains(want) && e.contains("SAMPLE_OA=1"), "{e}");
        }
    }
}
