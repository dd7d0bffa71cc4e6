//! Recordings in the formats of IGT's `i915-perf-recorder` (read by IGT's
//! `i915-perf-reader`) and `xe-perf-recorder` (read by `xe-perf-reader`),
//! written and read.
//!
//! A recording is a sequence of records in the i915 perf framing
//! ([`crate::record`]: an 8-byte header whose `size` counts the header, then
//! the payload), in this order:
//!
//! 1. VERSION ([`RECORD_VERSION`], 65536; xe: 4): `u32 version` (= 1), `u32 pad`;
//! 2. DEVICE_INFO ([`RECORD_DEVICE_INFO`], 65537; xe: 5): a
//!    [`RecordedDevice`], 336 payload bytes (a 344-byte record), packed,
//!    little-endian;
//! 3. DEVICE_TOPOLOGY ([`RECORD_DEVICE_TOPOLOGY`], 65538; xe: 6): `struct
//!    drm_i915_query_topology_info` as the kernel returned it, padded to 8
//!    bytes (xe: the same layout as IGT's `xe_fill_topology_info` fills it
//!    from xe's GT topology query, [`crate::xe_recording::topology`]);
//! 4. the stream's own records exactly as read from the stream
//!    (`SAMPLE`, `OA_REPORT_LOST`, `OA_BUFFER_LOST`; xe streams give raw
//!    reports, each becomes a SAMPLE record as IGT's xe recorder writes it),
//!    with TIMESTAMP_CORRELATION records ([`RECORD_TIMESTAMP_CORRELATION`],
//!    65539; xe: 7; `u64` CPU time in ns, `u64` GPU timestamp) among them:
//!    one before the first sample and one after the last (IGT's readers
//!    need the samples between two correlations), and optionally more in
//!    between.
//!
//! The two formats differ in the four metadata record types, in what
//! DEVICE_INFO's `oa_format` numbers (i915: `I915_OA_FORMAT_*`; xe: IGT's
//! `enum intel_xe_oa_format_name`, [`crate::xe_recording::XE_FORMATS`]) and
//! in how the topology is obtained ([`RecordingFormat`]).
//!
//! [`RecordingWriter`] writes that order and checks every record it is given;
//! [`entries`] reads a recording record by record and [`read_all`] gathers
//! it into a [`Recording`]; both take the format from the first metadata
//! record (a recording starts with VERSION). Reading trusts nothing: every error is a
//! [`RecordingError`] that names the byte offset and the index of the bad
//! record, everything before it stays available, nothing panics and no
//! allocation is sized by a field of the file.

use crate::record::{
    frames, Frame, Frames, FramingError, FramingErrorKind, Record, RecordHeader, HEADER_SIZE,
    RECORD_SAMPLE,
};
use std::fmt;
use std::io::{self, Write};

/// `INTEL_PERF_RECORD_TYPE_VERSION`: the recording's format version.
pub const RECORD_VERSION: u32 = 65536;
/// `INTEL_PERF_RECORD_TYPE_DEVICE_INFO`: the device and the stream's set.
pub const RECORD_DEVICE_INFO: u32 = 65537;
/// `INTEL_PERF_RECORD_TYPE_DEVICE_TOPOLOGY`: the kernel's topology query.
pub const RECORD_DEVICE_TOPOLOGY: u32 = 65538;
/// `INTEL_PERF_RECORD_TYPE_TIMESTAMP_CORRELATION`: a CPU/GPU time pair.
pub const RECORD_TIMESTAMP_CORRELATION: u32 = 65539;

/// Which recorder's format a recording is in: the metadata record types
/// and the numbering of DEVICE_INFO's `oa_format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordingFormat {
    /// IGT's `i915-perf-recorder` (`lib/i915/perf_data.h`): types
    /// 65536-65539, `I915_OA_FORMAT_*` ids.
    I915,
    /// IGT's `xe-perf-recorder` (`lib/xe/xe_oa_data.h`): types 4-7, IGT's
    /// xe format numbers ([`crate::xe_recording`]).
    Xe,
}

/// One of the four metadata records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Meta {
    Version,
    DeviceInfo,
    Topology,
    Correlation,
}

impl RecordingFormat {
    /// Both, i915 first.
    pub const ALL: [RecordingFormat; 2] = [RecordingFormat::I915, RecordingFormat::Xe];

    /// The record types of VERSION, DEVICE_INFO, DEVICE_TOPOLOGY and
    /// TIMESTAMP_CORRELATION.
    pub const fn metadata_types(self) -> [u32; 4] {
        match self {
            RecordingFormat::I915 => [
                RECORD_VERSION,
                RECORD_DEVICE_INFO,
                RECORD_DEVICE_TOPOLOGY,
                RECORD_TIMESTAMP_CORRELATION,
            ],
            RecordingFormat::Xe => [
                crate::xe_recording::RECORD_VERSION,
                crate::xe_recording::RECORD_DEVICE_INFO,
                crate::xe_recording::RECORD_DEVICE_TOPOLOGY,
                crate::xe_recording::RECORD_TIMESTAMP_CORRELATION,
            ],
        }
    }

    fn kind(self, m: Meta) -> u32 {
        self.metadata_types()[m as usize]
    }

    /// The format and record a metadata record type belongs to.
    fn meta(kind: u32) -> Option<(RecordingFormat, Meta)> {
        const METAS: [Meta; 4] = [
            Meta::Version,
            Meta::DeviceInfo,
            Meta::Topology,
            Meta::Correlation,
        ];
        RecordingFormat::ALL.into_iter().find_map(|f| {
            let i = f.metadata_types().iter().position(|&k| k == kind)?;
            Some((f, METAS[i]))
        })
    }

    /// The format whose metadata record type is `kind` (`None`: a stream
    /// record type or an unknown one).
    pub fn of_record_type(kind: u32) -> Option<RecordingFormat> {
        Self::meta(kind).map(|(f, _)| f)
    }

    /// The format of the recording that starts with `bytes`: that of its
    /// first record's type (`None`: fewer than 8 bytes, or a first record
    /// that is not a metadata record).
    pub fn detect(bytes: &[u8]) -> Option<RecordingFormat> {
        RecordHeader::parse(bytes).and_then(|h| Self::of_record_type(h.kind))
    }

    /// Whether `bytes` start as a recording does, and in which format: a
    /// metadata record's header (a type of [`Self::metadata_types`], pad 0,
    /// a size of at least the header). `None` for anything else: fewer than
    /// 8 bytes, or a raw OA buffer dump, whose first dword is a report's.
    pub fn looks_like_recording(bytes: &[u8]) -> Option<RecordingFormat> {
        let h = RecordHeader::parse(bytes)?;
        let f = Self::of_record_type(h.kind)?;
        (h.pad == 0 && usize::from(h.size) >= HEADER_SIZE).then_some(f)
    }

    /// Report size of DEVICE_INFO's `oa_format` in this format's numbering.
    pub fn report_size(self, oa_format: u32) -> Option<usize> {
        match self {
            RecordingFormat::I915 => oa_format_report_size(oa_format),
            RecordingFormat::Xe => crate::xe_recording::report_size(oa_format),
        }
    }

    /// The driver whose streams the format records (`i915`, `xe`).
    pub fn driver(self) -> &'static str {
        match self {
            RecordingFormat::I915 => "i915",
            RecordingFormat::Xe => "xe",
        }
    }

    /// The IGT recorder that writes the format.
    pub fn recorder(self) -> &'static str {
        match self {
            RecordingFormat::I915 => "i915-perf-recorder",
            RecordingFormat::Xe => "xe-perf-recorder",
        }
    }
}

impl fmt::Display for RecordingFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (IGT's {} format)", self.driver(), self.recorder())
    }
}

/// The only recording version there is.
pub const RECORDING_VERSION: u32 = 1;
/// Payload bytes of a VERSION record (`u32 version`, `u32 pad`).
pub const VERSION_PAYLOAD: usize = 8;
/// Payload bytes of a DEVICE_INFO record.
pub const DEVICE_INFO_PAYLOAD: usize = 336;
/// Size of a DEVICE_INFO record, header included (IGT's reader demands it).
pub const DEVICE_INFO_SIZE: usize = HEADER_SIZE + DEVICE_INFO_PAYLOAD;
/// Payload bytes of a TIMESTAMP_CORRELATION record.
pub const CORRELATION_PAYLOAD: usize = 16;
/// Bytes of `metric_set_name` (`char[256]`, NUL-terminated).
pub const NAME_BYTES: usize = 256;
/// Bytes of `metric_set_uuid` (`char[40]`, NUL-terminated).
pub const UUID_BYTES: usize = 40;
/// The longest topology payload a record holds (the 16-bit size, padded to 8).
pub const MAX_TOPOLOGY: usize = (u16::MAX as usize - HEADER_SIZE) & !7;

// Byte offsets of the DEVICE_INFO payload fields (packed).
const DI_TIMESTAMP_FREQUENCY: usize = 0;
const DI_DEVICE_ID: usize = 8;
const DI_DEVICE_REVISION: usize = 12;
const DI_GT_MIN: usize = 16;
const DI_GT_MAX: usize = 20;
const DI_ENGINE_CLASS: usize = 24;
const DI_ENGINE_INSTANCE: usize = 28;
const DI_OA_FORMAT: usize = 32;
const DI_NAME: usize = 36;
const DI_UUID: usize = DI_NAME + NAME_BYTES;
const DI_PAD: usize = DI_UUID + UUID_BYTES;
const _: () = assert!(DI_PAD + 4 == DEVICE_INFO_PAYLOAD && DEVICE_INFO_SIZE == 344);

/// Report size of an i915 OA format (`I915_OA_FORMAT_*`, the uAPI table
/// [`crate::uapi::i915::OA_FORMATS`]), `None` for 0 and unassigned ids.
pub fn oa_format_report_size(oa_format: u32) -> Option<usize> {
    crate::uapi::i915::oa_format(oa_format)?.size
}

/// The DEVICE_INFO record: the device, the engine and the metric set a
/// stream was recorded with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordedDevice {
    /// OA timestamp frequency (Hz).
    pub timestamp_frequency: u64,
    /// PCI device id (IGT uses its low 16 bits).
    pub device_id: u32,
    /// PCI revision.
    pub device_revision: u32,
    /// Lowest GT frequency (as the recorder read it).
    pub gt_min_frequency: u32,
    /// Highest GT frequency.
    pub gt_max_frequency: u32,
    /// Engine class of the OA unit.
    pub engine_class: u32,
    /// Engine instance of the OA unit.
    pub engine_instance: u32,
    /// The stream's report format (`I915_OA_FORMAT_*`).
    pub oa_format: u32,
    /// The metric set's symbol name (`TestOa`): IGT finds the set by it.
    /// At most 255 bytes, no NUL.
    pub metric_set_name: String,
    /// The metric set's uuid (36 characters). At most 39 bytes, no NUL.
    pub metric_set_uuid: String,
}

impl RecordedDevice {
    /// The stream's report size ([`oa_format_report_size`] of `oa_format`,
    /// an i915 id; [`report_size_in`](Self::report_size_in) for either
    /// format's numbering).
    pub fn report_size(&self) -> Option<usize> {
        oa_format_report_size(self.oa_format)
    }

    /// The stream's report size with `oa_format` numbered as `format` numbers it.
    pub fn report_size_in(&self, format: RecordingFormat) -> Option<usize> {
        format.report_size(self.oa_format)
    }

    /// The 336 payload bytes, or why the names do not fit.
    pub fn to_payload(&self) -> Result<[u8; DEVICE_INFO_PAYLOAD], WriteError> {
        let mut p = [0u8; DEVICE_INFO_PAYLOAD];
        p[DI_TIMESTAMP_FREQUENCY..DI_DEVICE_ID]
            .copy_from_slice(&self.timestamp_frequency.to_le_bytes());
        for (at, v) in [
            (DI_DEVICE_ID, self.device_id),
            (DI_DEVICE_REVISION, self.device_revision),
            (DI_GT_MIN, self.gt_min_frequency),
            (DI_GT_MAX, self.gt_max_frequency),
            (DI_ENGINE_CLASS, self.engine_class),
            (DI_ENGINE_INSTANCE, self.engine_instance),
            (DI_OA_FORMAT, self.oa_format),
        ] {
            p[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        put_c_string(
            &mut p[DI_NAME..DI_UUID],
            &self.metric_set_name,
            "metric_set_name",
        )?;
        put_c_string(
            &mut p[DI_UUID..DI_PAD],
            &self.metric_set_uuid,
            "metric_set_uuid",
        )?;
        Ok(p)
    }

    /// The device of a DEVICE_INFO payload (exactly 336 bytes), or what is
    /// wrong with it.
    pub fn from_payload(p: &[u8]) -> Result<Self, RecordingErrorKind> {
        if p.len() != DEVICE_INFO_PAYLOAD {
            return Err(RecordingErrorKind::DeviceInfoSize {
                size: p.len() + HEADER_SIZE,
            });
        }
        Ok(RecordedDevice {
            timestamp_frequency: le_u64(p, DI_TIMESTAMP_FREQUENCY),
            device_id: le_u32(p, DI_DEVICE_ID),
            device_revision: le_u32(p, DI_DEVICE_REVISION),
            gt_min_frequency: le_u32(p, DI_GT_MIN),
            gt_max_frequency: le_u32(p, DI_GT_MAX),
            engine_class: le_u32(p, DI_ENGINE_CLASS),
            engine_instance: le_u32(p, DI_ENGINE_INSTANCE),
            oa_format: le_u32(p, DI_OA_FORMAT),
            metric_set_name: get_c_string(&p[DI_NAME..DI_UUID], "metric_set_name")?,
            metric_set_uuid: get_c_string(&p[DI_UUID..DI_PAD], "metric_set_uuid")?,
        })
    }
}

/// The little-endian u32 at `at` (0 past the end: callers check lengths first).
fn le_u32(p: &[u8], at: usize) -> u32 {
    p.get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// The little-endian u64 at `at` (0 past the end: callers check lengths first).
fn le_u64(p: &[u8], at: usize) -> u64 {
    p.get(at..at + 8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

fn put_c_string(to: &mut [u8], s: &str, field: &'static str) -> Result<(), WriteError> {
    if s.as_bytes().contains(&0) {
        return Err(WriteError::FieldHasNul { field });
    }
    if s.len() >= to.len() {
        return Err(WriteError::FieldTooLong {
            field,
            len: s.len(),
            max: to.len() - 1,
        });
    }
    to[..s.len()].copy_from_slice(s.as_bytes());
    Ok(())
}

fn get_c_string(from: &[u8], field: &'static str) -> Result<String, RecordingErrorKind> {
    let end = from
        .iter()
        .position(|&b| b == 0)
        .ok_or(RecordingErrorKind::NameWithoutNul { field })?;
    String::from_utf8(from[..end].to_vec()).map_err(|_| RecordingErrorKind::NameNotUtf8 { field })
}

/// A TIMESTAMP_CORRELATION record: the same instant on both clocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Correlation {
    /// CPU time, `CLOCK_MONOTONIC`, nanoseconds.
    pub cpu_ns: u64,
    /// GPU timestamp (the render ring timestamp; IGT compares its low 32 bits).
    pub gpu_timestamp: u64,
}

impl Correlation {
    /// `gpu_timestamp` paired with the CPU's `CLOCK_MONOTONIC` now (read
    /// the GPU timestamp as close to this call as possible).
    #[cfg(target_os = "linux")]
    pub fn now(gpu_timestamp: u64) -> Self {
        Correlation {
            cpu_ns: monotonic_ns(),
            gpu_timestamp,
        }
    }

    /// The 16 payload bytes.
    pub fn to_payload(self) -> [u8; CORRELATION_PAYLOAD] {
        let mut p = [0u8; CORRELATION_PAYLOAD];
        p[..8].copy_from_slice(&self.cpu_ns.to_le_bytes());
        p[8..].copy_from_slice(&self.gpu_timestamp.to_le_bytes());
        p
    }
}

/// `CLOCK_MONOTONIC` now, in nanoseconds (the CPU time of a
/// [`Correlation`], as IGT's recorder takes it).
#[cfg(target_os = "linux")]
pub fn monotonic_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    // CLOCK_MONOTONIC is never negative.
    let secs = u64::try_from(t.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(t.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// What went wrong while writing a recording.
#[derive(Debug)]
pub enum WriteError {
    /// The writer failed.
    Io(io::Error),
    /// Stream bytes or a record that are not what a stream of the recorded
    /// format gives; located in the recording being written. Nothing of
    /// them was written.
    Framing(FramingError),
    /// A name longer than its `char[]` field can hold with its NUL.
    FieldTooLong {
        /// The field.
        field: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The most it can hold.
        max: usize,
    },
    /// A name with a NUL byte inside.
    FieldHasNul {
        /// The field.
        field: &'static str,
    },
    /// A report format whose report size is not known, so samples could
    /// not be checked.
    UnknownFormat {
        /// The `oa_format` given.
        oa_format: u32,
    },
    /// A topology larger than a record holds ([`MAX_TOPOLOGY`]).
    TopologyTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// An earlier write failed: the recording's last record may be cut
    /// after `offset`, so nothing more is written.
    AfterFailure {
        /// Bytes of whole records written before the failure.
        offset: u64,
    },
    /// A sample before any correlation: IGT's reader needs one before the
    /// first sample (call [`RecordingWriter::correlation`] first).
    SampleBeforeCorrelation {
        /// Byte offset the sample would have had.
        offset: u64,
        /// Record index it would have had.
        index: u64,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Io(e) => write!(f, "writing the recording: {e}"),
            WriteError::Framing(e) => write!(f, "not written: {e}"),
            WriteError::FieldTooLong { field, len, max } => {
                write!(f, "{field} is {len} bytes, at most {max} fit")
            }
            WriteError::FieldHasNul { field } => write!(f, "{field} contains a NUL byte"),
            WriteError::UnknownFormat { oa_format } => write!(
                f,
                "OA format {oa_format} has no known report size (samples cannot be checked)"
            ),
            WriteError::TopologyTooLong { len } => write!(
                f,
                "a topology of {len} bytes does not fit a record (at most {MAX_TOPOLOGY})"
            ),
            WriteError::AfterFailure { offset } => write!(
                f,
                "an earlier write failed: the recording is whole up to byte {offset} only"
            ),
            WriteError::SampleBeforeCorrelation { offset, index } => write!(
                f,
                "record {index} at byte {offset}: a sample before any timestamp correlation \
                 (IGT's reader needs one before the first sample)"
            ),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(e) => Some(e),
            WriteError::Framing(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// Writes a recording: the header records at [`new`](Self::new), then
/// correlations and stream records, then the closing correlation at
/// [`finish`](Self::finish).
///
/// The caller must write a [`correlation`](Self::correlation) before the
/// first sample (a sample before one is refused) and should write more
/// periodically (IGT: every second); [`finish`](Self::finish) writes the
/// one after the last sample. A writer dropped without `finish` leaves a
/// file whose last samples IGT's reader does not use.
///
/// ```
/// use perfregs_linux::record::Record;
/// use perfregs_linux::recording::{read_all, Correlation, RecordedDevice, RecordingWriter};
///
/// let device = RecordedDevice {
///     timestamp_frequency: 12_500_000,
///     device_id: 0x1616,
///     oa_format: 10, // A32u40_A4u32_B8_C8: 256-byte reports
///     metric_set_name: "TestOa".into(),
///     ..Default::default()
/// };
/// let mut w = RecordingWriter::new(Vec::new(), &device, &[0; 16]).unwrap();
/// w.correlation(Correlation { cpu_ns: 1, gpu_timestamp: 10 }).unwrap();
/// w.record(&Record::Sample(&[0; 256])).unwrap();
/// w.record(&Record::ReportLost).unwrap();
/// let bytes = w.finish(Correlation { cpu_ns: 2, gpu_timestamp: 20 }).unwrap();
/// let (rec, err) = read_all(&bytes);
/// assert!(err.is_none());
/// assert_eq!((rec.samples, rec.reports_lost), (1, 1));
/// assert_eq!(rec.device.unwrap().metric_set_name, "TestOa");
/// ```
#[derive(Debug)]
pub struct RecordingWriter<W: Write> {
    out: W,
    format: RecordingFormat,
    report_size: usize,
    offset: u64,
    index: u64,
    correlated: bool,
    failed: bool,
    samples: u64,
    reports_lost: u64,
    buffers_lost: u64,
}

impl<W: Write> RecordingWriter<W> {
    /// Start a recording in IGT's i915 format on `out`: writes VERSION,
    /// DEVICE_INFO and DEVICE_TOPOLOGY (`topology`: the bytes of the
    /// kernel's `drm_i915_query_topology_info`, written as given and padded
    /// to 8; `device.oa_format` an `I915_OA_FORMAT_*` id).
    pub fn new(out: W, device: &RecordedDevice, topology: &[u8]) -> Result<Self, WriteError> {
        Self::with_format(out, RecordingFormat::I915, device, topology)
    }

    /// Start a recording in IGT's xe format on `out` (`device.oa_format`
    /// IGT's xe format number, [`crate::xe_recording::igt_format`];
    /// `topology` as [`crate::xe_recording::topology`] builds it).
    ///
    /// ```
    /// use perfregs_linux::record::Record;
    /// use perfregs_linux::recording::{read_all, Correlation, RecordedDevice, RecordingFormat, RecordingWriter};
    /// use perfregs_linux::xe_recording::{igt_format, topology_of_masks};
    ///
    /// let format = igt_format(0x500, "A32u40_A4u32_B8_C8").unwrap(); // TGL's OAG format
    /// let device = RecordedDevice {
    ///     timestamp_frequency: 19_200_000,
    ///     device_id: 0x9a49,
    ///     oa_format: format.igt, // 4
    ///     metric_set_name: "TestOa".into(),
    ///     ..Default::default()
    /// };
    /// let topology = topology_of_masks(0x3f, 0xffff).unwrap();
    /// let mut w = RecordingWriter::new_xe(Vec::new(), &device, &topology).unwrap();
    /// w.correlation(Correlation { cpu_ns: 1, gpu_timestamp: 10 }).unwrap();
    /// w.record(&Record::Sample(&[0; 256])).unwrap();
    /// let bytes = w.finish(Correlation { cpu_ns: 2, gpu_timestamp: 20 }).unwrap();
    /// assert_eq!(&bytes[..4], &4u32.to_le_bytes()); // VERSION is type 4
    /// let (rec, err) = read_all(&bytes);
    /// assert!(err.is_none());
    /// assert_eq!(rec.format, Some(RecordingFormat::Xe));
    /// assert_eq!(rec.report_size(), Some(256));
    /// ```
    pub fn new_xe(out: W, device: &RecordedDevice, topology: &[u8]) -> Result<Self, WriteError> {
        Self::with_format(out, RecordingFormat::Xe, device, topology)
    }

    /// Start a recording in `format` on `out` (see [`new`](Self::new) and
    /// [`new_xe`](Self::new_xe)). Nothing is written when `device` or
    /// `topology` is refused.
    pub fn with_format(
        mut out: W,
        format: RecordingFormat,
        device: &RecordedDevice,
        topology: &[u8],
    ) -> Result<Self, WriteError> {
        let report_size = device
            .report_size_in(format)
            .ok_or(WriteError::UnknownFormat {
                oa_format: device.oa_format,
            })?;
        let info = device.to_payload()?;
        let padded = topology.len().div_ceil(8) * 8;
        if padded > MAX_TOPOLOGY {
            return Err(WriteError::TopologyTooLong {
                len: topology.len(),
            });
        }
        // The whole header in one buffer, so a failure writes nothing of it
        // (as far as the writer lets us know).
        let mut head = Vec::with_capacity(HEADER_SIZE * 3 + VERSION_PAYLOAD + info.len() + padded);
        let mut version = [0u8; VERSION_PAYLOAD];
        version[..4].copy_from_slice(&RECORDING_VERSION.to_le_bytes());
        push_record(&mut head, format.kind(Meta::Version), &[&version]);
        push_record(&mut head, format.kind(Meta::DeviceInfo), &[&info]);
        let pad = [0u8; 8];
        push_record(
            &mut head,
            format.kind(Meta::Topology),
            &[topology, &pad[..padded - topology.len()]],
        );
        out.write_all(&head)?;
        Ok(RecordingWriter {
            out,
            format,
            report_size,
            offset: head.len() as u64,
            index: 3,
            correlated: false,
            failed: false,
            samples: 0,
            reports_lost: 0,
            buffers_lost: 0,
        })
    }

    /// Write a TIMESTAMP_CORRELATION record.
    pub fn correlation(&mut self, c: Correlation) -> Result<(), WriteError> {
        let mut b = [0u8; HEADER_SIZE + CORRELATION_PAYLOAD];
        b[..HEADER_SIZE].copy_from_slice(&header(
            self.format.kind(Meta::Correlation),
            CORRELATION_PAYLOAD,
        ));
        b[HEADER_SIZE..].copy_from_slice(&c.to_payload());
        self.write(&[&b])?;
        self.advance(b.len(), 1);
        self.correlated = true;
        Ok(())
    }

    /// Append bytes read from an i915 perf stream, exactly as read (whole
    /// records). They are checked first (framing, one report of the
    /// recorded format per sample, header-only losses, stream record types
    /// only); on an error nothing is written and the error is located in
    /// the recording. Returns the number of records appended.
    pub fn stream_bytes(&mut self, bytes: &[u8]) -> Result<u64, WriteError> {
        let (mut samples, mut reports_lost, mut buffers_lost) = (0u64, 0u64, 0u64);
        for f in frames(bytes, self.offset, self.index) {
            let f = f.map_err(WriteError::Framing)?;
            match Record::from_frame(&f, self.report_size).map_err(WriteError::Framing)? {
                Record::Sample(_) if !self.correlated => {
                    return Err(WriteError::SampleBeforeCorrelation {
                        offset: f.offset,
                        index: f.index,
                    })
                }
                Record::Sample(_) => samples += 1,
                Record::ReportLost => reports_lost += 1,
                Record::BufferLost => buffers_lost += 1,
            }
        }
        self.write(&[bytes])?;
        let n = samples + reports_lost + buffers_lost;
        self.advance(bytes.len(), n);
        self.samples += samples;
        self.reports_lost += reports_lost;
        self.buffers_lost += buffers_lost;
        Ok(n)
    }

    /// Append one stream record (a sample must be one report of the
    /// recorded format).
    pub fn record(&mut self, r: &Record<'_>) -> Result<(), WriteError> {
        let located = |kind| {
            WriteError::Framing(FramingError {
                offset: self.offset,
                index: self.index,
                kind,
            })
        };
        let payload: &[u8] = match r {
            Record::Sample(b) if b.len() != self.report_size => {
                return Err(located(FramingErrorKind::SampleSize {
                    payload: b.len(),
                    report: self.report_size,
                }))
            }
            Record::Sample(_) if !self.correlated => {
                return Err(WriteError::SampleBeforeCorrelation {
                    offset: self.offset,
                    index: self.index,
                })
            }
            Record::Sample(b) => b,
            Record::ReportLost | Record::BufferLost => &[],
        };
        // `report_size` is at most 640 (PEC64u64_B8_C8): the size fits a u16.
        self.write(&[&header(r.kind(), payload.len()), payload])?;
        self.advance(HEADER_SIZE + payload.len(), 1);
        match r {
            Record::Sample(_) => self.samples += 1,
            Record::ReportLost => self.reports_lost += 1,
            Record::BufferLost => self.buffers_lost += 1,
        }
        Ok(())
    }

    /// Write the closing correlation (after the last sample), flush, and
    /// give the writer back.
    pub fn finish(mut self, closing: Correlation) -> Result<W, WriteError> {
        self.correlation(closing)?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// Write `parts` whole, or refuse everything from the first failure on.
    fn write(&mut self, parts: &[&[u8]]) -> Result<(), WriteError> {
        if self.failed {
            return Err(WriteError::AfterFailure {
                offset: self.offset,
            });
        }
        for p in parts {
            if let Err(e) = self.out.write_all(p) {
                self.failed = true;
                return Err(WriteError::Io(e));
            }
        }
        Ok(())
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.offset
    }
    /// Records written so far (header records included).
    pub fn records_written(&self) -> u64 {
        self.index
    }
    /// Samples written so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }
    /// `OA_REPORT_LOST` records written so far.
    pub fn reports_lost(&self) -> u64 {
        self.reports_lost
    }
    /// `OA_BUFFER_LOST` records written so far.
    pub fn buffers_lost(&self) -> u64 {
        self.buffers_lost
    }
    /// The recorded format's report size.
    pub fn report_size(&self) -> usize {
        self.report_size
    }
    /// The recording's format.
    pub fn format(&self) -> RecordingFormat {
        self.format
    }
    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    fn advance(&mut self, bytes: usize, records: u64) {
        self.offset += bytes as u64;
        self.index += records;
    }
}

/// A record header for `payload` bytes (callers keep payloads under 65,528 bytes).
fn header(kind: u32, payload: usize) -> [u8; HEADER_SIZE] {
    RecordHeader {
        kind,
        pad: 0,
        size: u16::try_from(HEADER_SIZE + payload).unwrap_or(u16::MAX),
    }
    .to_bytes()
}

fn push_record(out: &mut Vec<u8>, kind: u32, parts: &[&[u8]]) {
    let len = parts.iter().map(|p| p.len()).sum();
    out.extend_from_slice(&header(kind, len));
    for p in parts {
        out.extend_from_slice(p);
    }
}

/// What is wrong with a recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordingErrorKind {
    /// A framing error (zero size, a cut record, a sample that is not one
    /// report of the recorded format, a loss with a payload, an unknown
    /// record type).
    Framing(FramingErrorKind),
    /// A VERSION record whose payload is not 8 bytes.
    VersionSize {
        /// Payload bytes.
        payload: usize,
    },
    /// A version other than 1.
    Version {
        /// The version found.
        version: u32,
    },
    /// A DEVICE_INFO record not 344 bytes long.
    DeviceInfoSize {
        /// The record's size.
        size: usize,
    },
    /// A name field of DEVICE_INFO without its terminating NUL.
    NameWithoutNul {
        /// The field.
        field: &'static str,
    },
    /// A name field of DEVICE_INFO that is not UTF-8.
    NameNotUtf8 {
        /// The field.
        field: &'static str,
    },
    /// A TIMESTAMP_CORRELATION record whose payload is not 16 bytes.
    CorrelationSize {
        /// Payload bytes.
        payload: usize,
    },
    /// A sample before any DEVICE_INFO record (its size cannot be checked),
    /// or a recording without one (located at its end).
    MissingDeviceInfo,
    /// A sample before any DEVICE_TOPOLOGY record, or a recording without
    /// one (located at its end).
    MissingTopology,
    /// A sample in a format whose report size is not known (an i915
    /// recording: `I915_OA_FORMAT_*` numbering).
    UnknownFormat {
        /// DEVICE_INFO's `oa_format`.
        oa_format: u32,
    },
    /// A sample of an xe recording whose DEVICE_INFO `oa_format` is not a
    /// number of IGT's `enum intel_xe_oa_format_name`.
    UnknownXeFormat {
        /// DEVICE_INFO's `oa_format`.
        oa_format: u32,
    },
    /// Reading the input failed ([`RecordingReader`]).
    Io {
        /// The error's kind.
        kind: io::ErrorKind,
        /// The error's message.
        message: String,
    },
}

impl RecordingErrorKind {
    fn io(e: &io::Error) -> Self {
        RecordingErrorKind::Io {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

/// An error in a recording, located: the byte offset of the bad record's
/// header and its index (the number of good records before it). Errors
/// found at the end of the input have the input's length as offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordingError {
    /// Byte offset.
    pub offset: u64,
    /// Record index.
    pub index: u64,
    /// What is wrong.
    pub kind: RecordingErrorKind,
}

impl From<FramingError> for RecordingError {
    fn from(e: FramingError) -> Self {
        RecordingError {
            offset: e.offset,
            index: e.index,
            kind: RecordingErrorKind::Framing(e.kind),
        }
    }
}

impl fmt::Display for RecordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordingErrorKind as K;
        if let K::Framing(kind) = self.kind {
            let e = FramingError {
                offset: self.offset,
                index: self.index,
                kind,
            };
            return e.fmt(f);
        }
        write!(f, "record {} at byte {}: ", self.index, self.offset)?;
        match &self.kind {
            K::Framing(_) => Ok(()),
            K::VersionSize { payload } => {
                write!(
                    f,
                    "a VERSION record with {payload} payload bytes (8 expected)"
                )
            }
            K::Version { version } => write!(f, "recording version {version} (only 1 exists)"),
            K::DeviceInfoSize { size } => {
                write!(
                    f,
                    "a DEVICE_INFO record of {size} bytes ({DEVICE_INFO_SIZE} expected)"
                )
            }
            K::NameWithoutNul { field } => write!(f, "DEVICE_INFO's {field} has no NUL"),
            K::NameNotUtf8 { field } => write!(f, "DEVICE_INFO's {field} is not UTF-8"),
            K::CorrelationSize { payload } => write!(
                f,
                "a TIMESTAMP_CORRELATION record with {payload} payload bytes (16 expected)"
            ),
            K::MissingDeviceInfo => {
                f.write_str("no DEVICE_INFO record before this point (a recording needs one)")
            }
            K::MissingTopology => {
                f.write_str("no DEVICE_TOPOLOGY record before this point (a recording needs one)")
            }
            K::UnknownFormat { oa_format } => write!(
                f,
                "a sample of OA format {oa_format}, whose report size is not known"
            ),
            K::UnknownXeFormat { oa_format } => write!(
                f,
                "a sample of xe OA format {oa_format}, not a number of IGT's intel_xe_oa_format_name (1 to {})",
                crate::xe_recording::XE_FORMATS.len()
            ),
            K::Io { message, .. } => write!(f, "reading failed: {message}"),
        }
    }
}

impl std::error::Error for RecordingError {}

/// What one record of a recording holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// VERSION (always [`RECORDING_VERSION`]: other versions are errors).
    Version(u32),
    /// DEVICE_INFO.
    Device(RecordedDevice),
    /// DEVICE_TOPOLOGY: the payload as stored (with its padding).
    Topology(&'a [u8]),
    /// TIMESTAMP_CORRELATION.
    Correlation(Correlation),
    /// A stream record: a sample (one report of the recorded format) or a loss.
    Stream(Record<'a>),
}

/// One record of a recording, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// Byte offset of the record's header.
    pub offset: u64,
    /// Index of the record (0 = first).
    pub index: u64,
    /// What it holds.
    pub item: Item<'a>,
}

/// The records of the recording `bytes`, in file order, each checked. The
/// iterator ends after the first error; once the input is consumed it
/// gives one more error if the recording had no DEVICE_INFO or no
/// DEVICE_TOPOLOGY record. Samples are checked against the DEVICE_INFO in
/// force (the last one before them, as IGT's reader takes the last). The
/// first metadata record decides the format ([`Entries::format`]); the
/// other format's metadata types are then unknown record types, as IGT's
/// readers would not take them either.
/// [`RecordingReader`] reads the same from an [`io::Read`] without holding
/// the whole file.
pub fn entries(bytes: &[u8]) -> Entries<'_> {
    Entries {
        frames: frames(bytes, 0, 0),
        len: bytes.len() as u64,
        check: Checker::default(),
        done: false,
    }
}

/// What a reader knows of the header records so far, to check the next record.
#[derive(Clone, Copy, Debug, Default)]
struct Checker {
    /// The format, from the first metadata record.
    format: Option<RecordingFormat>,
    /// The report size of the DEVICE_INFO in force (`None` inside: unknown format).
    report_size: Option<Option<usize>>,
    oa_format: Option<u32>,
    topology: bool,
}

impl Checker {
    /// The item a frame holds, checked.
    fn item<'a>(&mut self, f: &Frame<'a>) -> Result<Item<'a>, RecordingErrorKind> {
        use RecordingErrorKind as K;
        let p = f.payload;
        let meta = match RecordingFormat::meta(f.kind) {
            Some((format, m)) if *self.format.get_or_insert(format) == format => Some(m),
            _ => None,
        };
        let format = self.format.unwrap_or(RecordingFormat::I915);
        Ok(match meta {
            Some(Meta::Version) => {
                if p.len() != VERSION_PAYLOAD {
                    return Err(K::VersionSize { payload: p.len() });
                }
                let version = le_u32(p, 0);
                if version != RECORDING_VERSION {
                    return Err(K::Version { version });
                }
                Item::Version(version)
            }
            Some(Meta::DeviceInfo) => {
                let d = RecordedDevice::from_payload(p)?;
                self.report_size = Some(d.report_size_in(format));
                self.oa_format = Some(d.oa_format);
                Item::Device(d)
            }
            Some(Meta::Topology) => {
                self.topology = true;
                Item::Topology(p)
            }
            Some(Meta::Correlation) => {
                if p.len() != CORRELATION_PAYLOAD {
                    return Err(K::CorrelationSize { payload: p.len() });
                }
                Item::Correlation(Correlation {
                    cpu_ns: le_u64(p, 0),
                    gpu_timestamp: le_u64(p, 8),
                })
            }
            None if f.kind == RECORD_SAMPLE => {
                let size = match self.report_size {
                    None => return Err(K::MissingDeviceInfo),
                    Some(None) => {
                        let oa_format = self.oa_format.unwrap_or_default();
                        return Err(match format {
                            RecordingFormat::I915 => K::UnknownFormat { oa_format },
                            RecordingFormat::Xe => K::UnknownXeFormat { oa_format },
                        });
                    }
                    Some(Some(s)) => s,
                };
                if !self.topology {
                    return Err(K::MissingTopology);
                }
                Item::Stream(Record::from_frame(f, size).map_err(|e| K::Framing(e.kind))?)
            }
            // Losses need no report size (and other types are refused by it).
            None => Item::Stream(Record::from_frame(f, 0).map_err(|e| K::Framing(e.kind))?),
        })
    }

    /// What is missing at the end of the input.
    fn at_end(&self) -> Option<RecordingErrorKind> {
        if self.report_size.is_none() {
            Some(RecordingErrorKind::MissingDeviceInfo)
        } else if !self.topology {
            Some(RecordingErrorKind::MissingTopology)
        } else {
            None
        }
    }
}

/// Iterator of [`entries`].
#[derive(Clone, Debug)]
pub struct Entries<'a> {
    frames: Frames<'a>,
    len: u64,
    check: Checker,
    done: bool,
}

impl<'a> Entries<'a> {
    /// The recording's format, once a metadata record has been read.
    pub fn format(&self) -> Option<RecordingFormat> {
        self.check.format
    }

    fn fail(&mut self, offset: u64, index: u64, kind: RecordingErrorKind) -> RecordingError {
        self.done = true;
        RecordingError {
            offset,
            index,
            kind,
        }
    }
}

impl<'a> Iterator for Entries<'a> {
    type Item = Result<Entry<'a>, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.frames.next() {
            Some(Ok(f)) => Some(match self.check.item(&f) {
                Ok(item) => Ok(Entry {
                    offset: f.offset,
                    index: f.index,
                    item,
                }),
                Err(kind) => Err(self.fail(f.offset, f.index, kind)),
            }),
            Some(Err(e)) => {
                self.done = true;
                Some(Err(e.into()))
            }
            None => {
                let (len, index) = (self.len, self.frames.next_index());
                match self.check.at_end() {
                    Some(kind) => Some(Err(self.fail(len, index, kind))),
                    None => {
                        self.done = true;
                        None
                    }
                }
            }
        }
    }
}

/// Reads a recording record by record from an [`io::Read`] (a file, a
/// pipe), holding one record at a time (at most 65,535 bytes): the same
/// entries and errors as [`entries`] on the whole input, plus
/// [`RecordingErrorKind::Io`] for a failed read. Wrap a file in an
/// `io::BufReader`: every record takes two reads.
///
/// ```
/// # use perfregs_linux::recording::*;
/// # let device = RecordedDevice { oa_format: 10, ..Default::default() };
/// # let mut w = RecordingWriter::new(Vec::new(), &device, &[0; 16]).unwrap();
/// # w.correlation(Correlation::default()).unwrap();
/// # let file = w.finish(Correlation::default()).unwrap();
/// let mut r = RecordingReader::new(&file[..]);
/// let mut n = 0;
/// while let Some(e) = r.next_entry() {
///     let e = e.unwrap();
///     assert_eq!(e.index, n);
///     n += 1;
/// }
/// assert_eq!(n, 5); // VERSION, DEVICE_INFO, DEVICE_TOPOLOGY, 2 correlations
/// ```
#[derive(Debug)]
pub struct RecordingReader<R> {
    src: R,
    buf: Vec<u8>,
    offset: u64,
    index: u64,
    check: Checker,
    done: bool,
}

impl<R: io::Read> RecordingReader<R> {
    /// A reader of `src`, from its current position (taken as byte 0).
    pub fn new(src: R) -> Self {
        RecordingReader {
            src,
            buf: Vec::new(),
            offset: 0,
            index: 0,
            check: Checker::default(),
            done: false,
        }
    }

    /// Bytes of the good records read so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Good records read so far.
    pub fn records(&self) -> u64 {
        self.index
    }

    /// The recording's format, once a metadata record has been read.
    pub fn format(&self) -> Option<RecordingFormat> {
        self.check.format
    }

    /// Read into `buf` until it is full or the input ends: the bytes read.
    fn fill(src: &mut R, buf: &mut [u8]) -> io::Result<usize> {
        let mut got = 0;
        while got < buf.len() {
            match src.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(got)
    }

    fn fail(&mut self, kind: RecordingErrorKind) -> Option<Result<Entry<'_>, RecordingError>> {
        self.done = true;
        Some(Err(RecordingError {
            offset: self.offset,
            index: self.index,
            kind,
        }))
    }

    /// The next record (`None` after the last one or after an error).
    pub fn next_entry(&mut self) -> Option<Result<Entry<'_>, RecordingError>> {
        use FramingErrorKind as F;
        use RecordingErrorKind as K;
        if self.done {
            return None;
        }
        let mut head = [0u8; HEADER_SIZE];
        let got = match Self::fill(&mut self.src, &mut head) {
            Ok(n) => n,
            Err(e) => return self.fail(K::io(&e)),
        };
        if got == 0 {
            return match self.check.at_end() {
                Some(kind) => self.fail(kind),
                None => {
                    self.done = true;
                    None
                }
            };
        }
        let Some(h) = RecordHeader::parse(&head[..got]) else {
            return self.fail(K::Framing(F::TruncatedHeader { have: got }));
        };
        let size = usize::from(h.size);
        if size == 0 {
            return self.fail(K::Framing(F::ZeroSize));
        }
        if size < HEADER_SIZE {
            return self.fail(K::Framing(F::SizeBelowHeader { size: h.size }));
        }
        // At most 65,527 bytes: the size field is 16 bits.
        self.buf.resize(size - HEADER_SIZE, 0);
        let got = match Self::fill(&mut self.src, &mut self.buf) {
            Ok(n) => n,
            Err(e) => return self.fail(K::io(&e)),
        };
        if got < self.buf.len() {
            return self.fail(K::Framing(F::TruncatedRecord {
                size: h.size,
                have: HEADER_SIZE + got,
            }));
        }
        let frame = Frame {
            kind: h.kind,
            payload: &self.buf,
            offset: self.offset,
            index: self.index,
        };
        match self.check.item(&frame) {
            Ok(item) => {
                let e = Entry {
                    offset: self.offset,
                    index: self.index,
                    item,
                };
                self.offset += size as u64;
                self.index += 1;
                Some(Ok(e))
            }
            Err(kind) => {
                self.done = true;
                Some(Err(RecordingError {
                    offset: self.offset,
                    index: self.index,
                    kind,
                }))
            }
        }
    }
}

/// A recording as read: the header (the last of each header record, as
/// IGT's reader takes them), then every correlation and stream record in
/// file order, and the counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recording<'a> {
    /// The recording's format (`None`: no metadata record was read).
    pub format: Option<RecordingFormat>,
    /// The VERSION record's version (`None`: no VERSION record, which IGT allows).
    pub version: Option<u32>,
    /// The DEVICE_INFO record.
    pub device: Option<RecordedDevice>,
    /// The DEVICE_TOPOLOGY payload.
    pub topology: Option<&'a [u8]>,
    /// Every TIMESTAMP_CORRELATION, in file order.
    pub correlations: Vec<Correlation>,
    /// Every correlation and stream record, in file order (items
    /// [`Item::Correlation`] and [`Item::Stream`]).
    pub events: Vec<Entry<'a>>,
    /// Samples read.
    pub samples: u64,
    /// `OA_REPORT_LOST` records read.
    pub reports_lost: u64,
    /// `OA_BUFFER_LOST` records read.
    pub buffers_lost: u64,
    /// Records read (all types, the good ones).
    pub records: u64,
    /// Bytes of the good records.
    pub bytes: u64,
}

/// Why IGT's `i915-perf-reader` (or `xe-perf-reader`) would not use (all of) a recording that
/// reads without error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IgtProblem {
    /// Fewer than two correlations.
    TooFewCorrelations {
        /// Correlations found.
        found: usize,
    },
    /// Correlations not in rising CPU time (record index of the first one
    /// out of order).
    CorrelationsOutOfOrder {
        /// Record index.
        index: u64,
    },
    /// A sample before the first correlation (its record index).
    SampleBeforeFirstCorrelation {
        /// Record index.
        index: u64,
    },
    /// A sample after the last correlation (its record index): a recording
    /// not finished, or cut.
    SampleAfterLastCorrelation {
        /// Record index.
        index: u64,
    },
}

impl fmt::Display for IgtProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IgtProblem::TooFewCorrelations { found } => {
                write!(f, "{found} timestamp correlation(s); IGT's reader needs two around the samples")
            }
            IgtProblem::CorrelationsOutOfOrder { index } => {
                write!(f, "record {index}: timestamp correlations out of order")
            }
            IgtProblem::SampleBeforeFirstCorrelation { index } => {
                write!(f, "record {index}: a sample before the first timestamp correlation")
            }
            IgtProblem::SampleAfterLastCorrelation { index } => write!(
                f,
                "record {index}: a sample after the last timestamp correlation (the recording was not finished or was cut)"
            ),
        }
    }
}

impl<'a> Recording<'a> {
    /// The recorded format's report size (`None` without DEVICE_INFO or for
    /// an unknown format).
    pub fn report_size(&self) -> Option<usize> {
        let format = self.format?;
        self.device.as_ref().and_then(|d| d.report_size_in(format))
    }

    /// The samples, in order.
    pub fn sample_bytes(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.events.iter().filter_map(|e| match e.item {
            Item::Stream(Record::Sample(b)) => Some(b),
            _ => None,
        })
    }

    /// Whether IGT's reader would use every sample: at least two
    /// correlations, in rising CPU time, with the samples between the first
    /// and the last. (IGT also compares the low 32 bits of the GPU
    /// timestamps, which wrap after about 224 s at 19.2 MHz: not checked.)
    pub fn igt_readable(&self) -> Result<(), IgtProblem> {
        if self.correlations.len() < 2 {
            return Err(IgtProblem::TooFewCorrelations {
                found: self.correlations.len(),
            });
        }
        let mut last_cpu: Option<u64> = None;
        let mut pending_sample: Option<u64> = None;
        for e in &self.events {
            match e.item {
                Item::Correlation(c) => {
                    if last_cpu.is_some_and(|t| c.cpu_ns < t) {
                        return Err(IgtProblem::CorrelationsOutOfOrder { index: e.index });
                    }
                    last_cpu = Some(c.cpu_ns);
                    pending_sample = None;
                }
                Item::Stream(Record::Sample(_)) => {
                    if last_cpu.is_none() {
                        return Err(IgtProblem::SampleBeforeFirstCorrelation { index: e.index });
                    }
                    pending_sample.get_or_insert(e.index);
                }
                _ => {}
            }
        }
        match pending_sample {
            Some(index) => Err(IgtProblem::SampleAfterLastCorrelation { index }),
            None => Ok(()),
        }
    }
}

/// Read the whole recording `bytes`: what was read, and the first error
/// (everything before it is in the [`Recording`]).
pub fn read_all(bytes: &[u8]) -> (Recording<'_>, Option<RecordingError>) {
    let mut rec = Recording::default();
    let mut it = entries(bytes);
    while let Some(e) = it.next() {
        rec.format = it.format();
        let e = match e {
            Ok(e) => e,
            Err(err) => return (rec, Some(err)),
        };
        rec.records += 1;
        // A record's size came from a u16 and fit the input: no overflow.
        rec.bytes = e.offset + record_size(&e.item) as u64;
        match e.item {
            Item::Version(v) => rec.version = Some(v),
            Item::Device(d) => rec.device = Some(d),
            Item::Topology(t) => rec.topology = Some(t),
            Item::Correlation(c) => {
                rec.correlations.push(c);
                rec.events.push(e);
            }
            Item::Stream(r) => {
                match r {
                    Record::Sample(_) => rec.samples += 1,
                    Record::ReportLost => rec.reports_lost += 1,
                    Record::BufferLost => rec.buffers_lost += 1,
                }
                rec.events.push(e);
            }
        }
    }
    (rec, None)
}

/// The size of the record that held `item`.
fn record_size(item: &Item<'_>) -> usize {
    HEADER_SIZE
        + match item {
            Item::Version(_) => VERSION_PAYLOAD,
            Item::Device(_) => DEVICE_INFO_PAYLOAD,
            Item::Topology(t) => t.len(),
            Item::Correlation(_) => CORRELATION_PAYLOAD,
            Item::Stream(Record::Sample(b)) => b.len(),
            Item::Stream(_) => 0,
        }
}
