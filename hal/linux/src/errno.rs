//! Every errno of opening, configuring and reading an OA stream as an
//! actionable message: [`KernelError`] says which driver, which operation
//! (with the properties being opened), the errno, what it means there and
//! what to do. [`StreamError`] is what stream operations return.

use core::fmt;

use crate::record::FramingError;

/// Linux errno numbers used here (the generic table of x86, x86_64, arm
/// and aarch64).
pub mod code {
    named_consts! {
        i32;
        /// The errno's symbolic name (see [`super::errno_name`]).
        pub(super) fn name;
        /// Operation not permitted.
        EPERM = 1;
        /// No such file or directory.
        ENOENT = 2;
        /// Interrupted system call.
        EINTR = 4;
        /// I/O error.
        EIO = 5;
        /// No such device or address.
        ENXIO = 6;
        /// Resource temporarily unavailable.
        EAGAIN = 11;
        /// Out of memory.
        ENOMEM = 12;
        /// Permission denied.
        EACCES = 13;
        /// Bad address.
        EFAULT = 14;
        /// Device or resource busy.
        EBUSY = 16;
        /// No such device.
        ENODEV = 19;
        /// Invalid argument.
        EINVAL = 22;
        /// Inappropriate ioctl for device.
        ENOTTY = 25;
        /// No space left (a read buffer too small for one record).
        ENOSPC = 28;
        /// Operation not supported.
        EOPNOTSUPP = 95;
        /// Address already in use (a config uuid already registered).
        EADDRINUSE = 98;
    }
}

/// The errno's symbolic name (`"EACCES"`), or `None` for one not listed
/// in [`code`].
pub fn errno_name(errno: i32) -> Option<&'static str> {
    code::name(errno)
}

/// Which kernel interface answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Driver {
    /// i915 perf.
    I915,
    /// Xe observation.
    Xe,
    /// The emulated GPU (the `emulated` module's kernel model), which answers as
    /// i915 or Xe would.
    Emulated,
}

impl Driver {
    /// The sysctl that gates system-wide streams.
    pub fn paranoid_sysctl(self) -> &'static str {
        match self {
            Driver::Xe => "dev.xe.observation_paranoid",
            _ => "dev.i915.perf_stream_paranoid",
        }
    }
}

impl fmt::Display for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Driver::I915 => "i915 perf",
            Driver::Xe => "xe observation",
            Driver::Emulated => "emulated stream",
        })
    }
}

/// The operation that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Opening the DRM device node.
    OpenDevice {
        /// The path.
        path: String,
    },
    /// Opening a stream with these properties.
    OpenStream {
        /// The properties as `NAME=value` list.
        properties: String,
        /// The property most likely refused on `EINVAL`, with why, when
        /// the builder could tell.
        suspect: Option<String>,
    },
    /// ADD_CONFIG of a uuid.
    AddConfig {
        /// The uuid.
        uuid: String,
    },
    /// REMOVE_CONFIG of an id.
    RemoveConfig {
        /// The config id.
        id: u64,
    },
    /// The stream's ENABLE ioctl.
    Enable,
    /// The stream's DISABLE ioctl.
    Disable,
    /// The stream's CONFIG ioctl (switch to config `id`).
    SwitchConfig {
        /// The config id.
        id: u64,
    },
    /// Xe's STATUS ioctl.
    Status,
    /// Xe's INFO ioctl.
    Info,
    /// `read()` of the stream.
    Read,
    /// `poll()` of the stream.
    Poll,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::OpenDevice { path } => write!(f, "opening {path}"),
            Op::OpenStream { properties, .. } => write!(f, "opening a stream ({properties})"),
            Op::AddConfig { uuid } => write!(f, "adding config {uuid}"),
            Op::RemoveConfig { id } => write!(f, "removing config {id}"),
            Op::Enable => f.write_str("enabling the stream"),
            Op::Disable => f.write_str("disabling the stream"),
            Op::SwitchConfig { id } => write!(f, "switching the stream to config {id}"),
            Op::Status => f.write_str("reading the stream status"),
            Op::Info => f.write_str("reading the stream info"),
            Op::Read => f.write_str("reading the stream"),
            Op::Poll => f.write_str("polling the stream"),
        }
    }
}

/// What an errno means, grouped for callers that act on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `EACCES`, `EPERM`: permissions (the paranoid sysctl, `CAP_PERFMON`).
    Permission,
    /// `ENODEV`, `ENXIO`: the device is gone or has no OA streams.
    NoDevice,
    /// `EINVAL`: a property, register or argument the kernel refused.
    Invalid,
    /// `EADDRINUSE`: a config with this uuid exists.
    ConfigExists,
    /// `EIO`: the OA unit reported an error (Xe: the status bits).
    Io,
    /// `ENOSPC`: the read buffer cannot hold one record.
    NoSpace,
    /// `ENOENT`: no such config or file.
    NotFound,
    /// `EBUSY`: another stream is open.
    Busy,
    /// `EINTR`: interrupted by a signal.
    Interrupted,
    /// `EAGAIN`: nothing to read yet.
    WouldBlock,
    /// `ENOTTY`, `EOPNOTSUPP`: the driver does not know the request.
    Unsupported,
    /// Anything else.
    Other,
}

/// An errno from the kernel (or the emulated kernel), with the operation
/// and driver it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError {
    /// Who answered.
    pub driver: Driver,
    /// What was being done.
    pub op: Op,
    /// The errno.
    pub errno: i32,
    /// Xe: the STATUS bits read after an `EIO` (see
    /// [`crate::uapi::xe::status`]).
    pub status: Option<u64>,
}

impl KernelError {
    /// An error of `op` on `driver` with `errno`.
    pub fn new(driver: Driver, op: Op, errno: i32) -> Self {
        KernelError {
            driver,
            op,
            errno,
            status: None,
        }
    }

    /// The group the errno belongs to.
    pub fn kind(&self) -> ErrorKind {
        use code::*;
        match self.errno {
            EACCES | EPERM => ErrorKind::Permission,
            ENODEV | ENXIO => ErrorKind::NoDevice,
            EINVAL => ErrorKind::Invalid,
            EADDRINUSE => ErrorKind::ConfigExists,
            EIO => ErrorKind::Io,
            ENOSPC => ErrorKind::NoSpace,
            ENOENT => ErrorKind::NotFound,
            EBUSY => ErrorKind::Busy,
            EINTR => ErrorKind::Interrupted,
            EAGAIN => ErrorKind::WouldBlock,
            ENOTTY | EOPNOTSUPP => ErrorKind::Unsupported,
            _ => ErrorKind::Other,
        }
    }

    /// What it means here and what to do (the part after the errno in
    /// the message).
    pub fn remedy(&self) -> String {
        let sysctl = self.driver.paranoid_sysctl();
        match (self.kind(), &self.op) {
            (ErrorKind::Permission, Op::OpenDevice { path }) => format!(
                "no access to {path}: add the user to the group that owns it (usually `render` or `video`)"
            ),
            (ErrorKind::Permission, _) => format!(
                "system-wide OA streams and configs need `sysctl {sysctl}=0` (as root), or CAP_PERFMON (or root) for this program"
            ),
            (ErrorKind::NoDevice, _) => format!(
                "the device is gone (unplugged, unbound or reset), or {} has no OA unit on this platform (SNB, IVB and VLV have no OA stream under Linux)",
                self.driver
            ),
            (ErrorKind::Invalid, Op::OpenStream { suspect, .. }) => match suspect {
                Some(s) => format!("the kernel refused a property: likely {s}"),
                None => "the kernel refused a property: likely OA_METRICS_SET (the config id is not registered: see <card>/metrics/<uuid>/id), or OA_FORMAT (not a format of this platform), or OA_EXPONENT (a rate above oa_max_sample_rate)".to_string(),
            },
            (ErrorKind::Invalid, Op::AddConfig { .. }) => "the kernel refused the config: a register address not allowed in its list (mux, boolean or flex), an empty config, or a malformed uuid".to_string(),
            (ErrorKind::Invalid, Op::SwitchConfig { id }) => format!("config {id} is not registered, or the perf revision is below 2 (no CONFIG ioctl)"),
            (ErrorKind::Invalid, _) => "the kernel refused an argument".to_string(),
            (ErrorKind::ConfigExists, Op::AddConfig { uuid }) => format!(
                "a config with uuid {uuid} is already registered: reuse its id from <card>/metrics/{uuid}/id"
            ),
            (ErrorKind::ConfigExists, _) => "a config with this uuid is already registered: reuse its id".to_string(),
            (ErrorKind::Io, _) => match (self.driver, self.status) {
                (_, Some(s)) => format!("the OA unit's status is {}", status_names(s)),
                (Driver::Xe, None) => "the OA unit's status is non-zero: read it with the STATUS ioctl".to_string(),
                (_, None) if self.op == Op::Read => "the stream is disabled (i915 answers reads of a disabled stream with EIO: enable it first), or the OA unit failed".to_string(),
                _ => "the OA unit reported an error".to_string(),
            },
            (ErrorKind::NoSpace, _) => "the read buffer is smaller than one record: read with a larger buffer".to_string(),
            (ErrorKind::NotFound, Op::RemoveConfig { id }) => format!("no config with id {id} (removed already?)"),
            (ErrorKind::NotFound, Op::OpenDevice { path }) => format!("{path} does not exist: no such DRM device"),
            (ErrorKind::NotFound, Op::OpenStream { suspect, .. }) => format!(
                "no such context: {}; the kernel looks the id up in the DRM file that opens the stream, so a context of another process cannot be named",
                suspect.as_deref().unwrap_or("CTX_HANDLE (i915) or EXEC_QUEUE_ID (xe)")
            ),
            (ErrorKind::NotFound, _) => "not found".to_string(),
            (ErrorKind::Busy, _) => format!(
                "another OA stream is open on this device ({} allows one at a time): close the other tool (gputop, a Mesa INTEL_PERF user, another perfregs record)",
                self.driver
            ),
            (ErrorKind::Interrupted, _) => "interrupted by a signal: retry".to_string(),
            (ErrorKind::WouldBlock, _) => "nothing to read yet: poll() and read again".to_string(),
            (ErrorKind::Unsupported, _) => format!("{} does not know this request: an older kernel, or another driver on this device", self.driver),
            (ErrorKind::Other, _) => "unexpected error".to_string(),
        }
    }
}

/// The names of the Xe status bits set in `bits` (`"REPORT_LOST |
/// BUFFER_OVERFLOW"`; unknown bits in hex; `"0"` for none).
pub fn status_names(bits: u64) -> String {
    let mut parts: Vec<String> = crate::uapi::xe::status::ALL
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, n)| (*n).to_string())
        .collect();
    let known = crate::uapi::xe::status::ALL
        .iter()
        .fold(0, |a, (b, _)| a | b);
    if bits & !known != 0 {
        parts.push(format!("{:#x}", bits & !known));
    }
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join(" | ")
    }
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} failed with ", self.driver, self.op)?;
        match errno_name(self.errno) {
            Some(n) => f.write_str(n)?,
            None => write!(f, "errno {}", self.errno)?,
        }
        write!(f, ": {}", self.remedy())
    }
}

impl core::error::Error for KernelError {}

/// What a stream operation can fail with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// The kernel (or the emulated kernel) answered with an errno.
    Kernel(KernelError),
    /// The bytes read are not whole records of the stream's format: never
    /// skipped, the error says where.
    Framing(FramingError),
    /// A read needed a buffer larger than the reader's limit.
    BufferLimit {
        /// The limit in bytes.
        limit: usize,
    },
    /// A request this stream does not have (e.g. STATUS on i915).
    Unsupported(&'static str),
    /// An argument refused before the kernel saw it.
    Invalid(String),
}

impl StreamError {
    /// The errno, when the kernel answered.
    pub fn errno(&self) -> Option<i32> {
        match self {
            StreamError::Kernel(k) => Some(k.errno),
            _ => None,
        }
    }
}

impl From<KernelError> for StreamError {
    fn from(k: KernelError) -> Self {
        StreamError::Kernel(k)
    }
}

impl From<FramingError> for StreamError {
    fn from(e: FramingError) -> Self {
        StreamError::Framing(e)
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Kernel(k) => k.fmt(f),
            StreamError::Framing(e) => write!(f, "stream data: {e}"),
            StreamError::BufferLimit { limit } => write!(
                f,
                "the next record does not fit the read buffer's limit of {limit} bytes"
            ),
            StreamError::Unsupported(what) => write!(f, "not supported by this stream: {what}"),
            StreamError::Invalid(why) => f.write_str(why),
        }
    }
}

impl core::error::Error for StreamError {}

#[cfg(test)]
mod tests {
    use super::code::*;
    use super::*;

    fn msg(driver: Driver, op: Op, errno: i32) -> String {
        KernelError::new(driver, op, errno).to_string()
    }

    fn open() -> Op {
        Op::OpenStream {
            properties: "SAMPLE_OA=1 OA_METRICS_SET=7 OA_FORMAT=10 OA_EXPONENT=9".into(),
            suspect: None,
        }
    }

    #[test]
    fn permission_names_the_sysctl_of_each_driver_and_cap_perfmon() {
        for e in [EACCES, EPERM] {
            let m = msg(Driver::I915, open(), e);
            assert!(m.contains("sysctl dev.i915.perf_stream_paranoid=0"), "{m}");
            assert!(m.contains("CAP_PERFMON"), "{m}");
            let m = msg(Driver::Xe, open(), e);
            assert!(m.contains("sysctl dev.xe.observation_paranoid=0"), "{m}");
        }
        let m = msg(
            Driver::I915,
            Op::OpenDevice {
                path: "/dev/dri/renderD128".into(),
            },
            EACCES,
        );
        assert!(
            m.contains("render") && m.contains("/dev/dri/renderD128"),
            "{m}"
        );
        assert_eq!(
            KernelError::new(Driver::I915, open(), EACCES).kind(),
            ErrorKind::Permission
        );
    }

    #[test]
    fn enodev_says_gone_or_no_oa() {
        let m = msg(Driver::I915, open(), ENODEV);
        assert!(
            m.starts_with("i915 perf: opening a stream (SAMPLE_OA=1"),
            "{m}"
        );
        assert!(
            m.contains("ENODEV") && m.contains("gone") && m.contains("no OA unit"),
            "{m}"
        );
    }

    #[test]
    fn einval_names_the_properties_and_the_suspect() {
        let m = msg(Driver::I915, open(), EINVAL);
        assert!(m.contains("OA_METRICS_SET=7 OA_FORMAT=10"), "{m}");
        assert!(m.contains("likely OA_METRICS_SET"), "{m}");
        let m = msg(
            Driver::I915,
            Op::OpenStream {
                properties: "OA_EXPONENT=40".into(),
                suspect: Some("OA_EXPONENT=40 (at most 31)".into()),
            },
            EINVAL,
        );
        assert!(m.ends_with("likely OA_EXPONENT=40 (at most 31)"), "{m}");
        let m = msg(Driver::Xe, Op::AddConfig { uuid: "u".into() }, EINVAL);
        assert!(m.contains("register address"), "{m}");
    }

    #[test]
    fn eaddrinuse_says_reuse_the_id() {
        let uuid = "01234567-0123-0123-0123-0123456789ab";
        let m = msg(
            Driver::I915,
            Op::AddConfig { uuid: uuid.into() },
            EADDRINUSE,
        );
        assert!(m.contains("EADDRINUSE"), "{m}");
        assert!(
            m.contains(&format!("metrics/{uuid}/id")) && m.contains("reuse"),
            "{m}"
        );
    }

    #[test]
    fn eio_decodes_the_status_bits() {
        let mut k = KernelError::new(Driver::Xe, Op::Read, EIO);
        assert!(k.to_string().contains("STATUS ioctl"), "{k}");
        k.status = Some(0b1011 | 0x100);
        let m = k.to_string();
        assert!(
            m.contains("REPORT_LOST | BUFFER_OVERFLOW | MMIO_TRG_Q_FULL | 0x100"),
            "{m}"
        );
        assert_eq!(status_names(0), "0");
        assert_eq!(status_names(4), "COUNTER_OVERFLOW");
    }

    #[test]
    fn enospc_enoent_ebusy_and_the_rest() {
        let m = msg(Driver::I915, Op::Read, ENOSPC);
        assert!(m.contains("ENOSPC") && m.contains("larger buffer"), "{m}");
        let m = msg(Driver::I915, Op::RemoveConfig { id: 42 }, ENOENT);
        assert!(m.contains("no config with id 42"), "{m}");
        let m = msg(Driver::I915, open(), EBUSY);
        assert!(
            m.contains("another OA stream") && m.contains("one at a time"),
            "{m}"
        );
        let m = msg(Driver::Xe, Op::Status, ENOTTY);
        assert!(m.contains("does not know this request"), "{m}");
        let m = msg(Driver::I915, Op::Read, EIO);
        assert!(
            m.contains("disabled") && m.contains("enable it first"),
            "{m}"
        );
        let m = msg(Driver::I915, Op::Read, 1234);
        assert!(m.contains("errno 1234"), "{m}");
        for e in [EINTR, EAGAIN, EFAULT, ENOMEM] {
            assert!(errno_name(e).is_some());
            assert!(!msg(Driver::Emulated, Op::Read, e).is_empty());
        }
    }

    #[test]
    fn stream_errors_display_their_cause() {
        let k = KernelError::new(Driver::I915, Op::Enable, EIO);
        let s = StreamError::from(k.clone());
        assert_eq!(s.errno(), Some(EIO));
        assert_eq!(s.to_string(), k.to_string());
        let s = StreamError::BufferLimit { limit: 4096 };
        assert!(s.to_string().contains("4096"));
        assert_eq!(s.errno(), None);
    }
}
