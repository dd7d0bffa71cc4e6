//! The record framing of an i915 perf stream, which IGT's recordings reuse.
//!
//! Every `read()` of an i915 perf stream returns whole records: an 8-byte
//! `struct drm_i915_perf_record_header { u32 type; u16 pad; u16 size; }`
//! (`size` counts the header) followed by the payload. [`frames`] walks a
//! byte buffer of records; [`Record`] is what a frame means in a stream (a
//! report or a loss). Nothing here trusts the bytes: a size of zero, a size
//! smaller than the header, a record cut by the end of the buffer or a
//! payload of the wrong length is a [`FramingError`] that names the byte
//! offset and the record index, and the records before it stay readable.

use core::fmt;
use hal::report::{Report, ReportFormat};

/// Size of `struct drm_i915_perf_record_header`.
pub const HEADER_SIZE: usize = 8;

/// `struct drm_i915_perf_record_header` of the i915 uAPI.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordHeader {
    /// The record type (`DRM_I915_PERF_RECORD_*`, or a recorder's own type).
    pub kind: u32,
    /// Reserved, zero.
    pub pad: u16,
    /// Size of the record in bytes, header included.
    pub size: u16,
}

assert_layout!(RecordHeader: HEADER_SIZE, kind @ 0, pad @ 4, size @ 6);

impl RecordHeader {
    /// The header at the start of `bytes` (little-endian), if 8 bytes are there.
    #[inline]
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let b: &[u8; HEADER_SIZE] = bytes.get(..HEADER_SIZE)?.try_into().ok()?;
        Some(RecordHeader {
            kind: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            pad: u16::from_le_bytes([b[4], b[5]]),
            size: u16::from_le_bytes([b[6], b[7]]),
        })
    }

    /// The 8 bytes of the header, little-endian.
    #[inline]
    pub fn to_bytes(self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        b[..4].copy_from_slice(&self.kind.to_le_bytes());
        b[4..6].copy_from_slice(&self.pad.to_le_bytes());
        b[6..].copy_from_slice(&self.size.to_le_bytes());
        b
    }
}

/// `DRM_I915_PERF_RECORD_SAMPLE`: the header and one raw OA report.
pub const RECORD_SAMPLE: u32 = 1;
/// `DRM_I915_PERF_RECORD_OA_REPORT_LOST`: the OA unit lost a report
/// (header only).
pub const RECORD_OA_REPORT_LOST: u32 = 2;
/// `DRM_I915_PERF_RECORD_OA_BUFFER_LOST`: the OA buffer overflowed and was
/// reset (header only).
pub const RECORD_OA_BUFFER_LOST: u32 = 3;

/// One framed record: its type, its payload, and where it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The record type.
    pub kind: u32,
    /// The bytes after the header.
    pub payload: &'a [u8],
    /// Byte offset of the header in the input.
    pub offset: u64,
    /// Index of the record in the input (0 = first).
    pub index: u64,
}

/// What went wrong while framing records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FramingErrorKind {
    /// Fewer than 8 bytes are left for a header (`have` bytes).
    TruncatedHeader {
        /// Bytes left.
        have: usize,
    },
    /// The header's size is 0 (IGT's reader loops forever on it).
    ZeroSize,
    /// The header's size is smaller than the header itself.
    SizeBelowHeader {
        /// The size field.
        size: u16,
    },
    /// The record runs past the end of the input.
    TruncatedRecord {
        /// The size field.
        size: u16,
        /// Bytes left from the header on.
        have: usize,
    },
    /// A sample's payload is not one report of the stream's format.
    SampleSize {
        /// Payload bytes.
        payload: usize,
        /// The format's report size.
        report: usize,
    },
    /// A loss record carries a payload (the kernel's are header-only).
    LossWithPayload {
        /// The record type.
        kind: u32,
        /// Payload bytes.
        payload: usize,
    },
    /// A record type a stream never produces.
    UnknownKind {
        /// The record type.
        kind: u32,
    },
}

/// A framing error, located.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramingError {
    /// Byte offset of the bad record's header in the input.
    pub offset: u64,
    /// Index of the bad record (the number of good records before it).
    pub index: u64,
    /// What is wrong.
    pub kind: FramingErrorKind,
}

impl fmt::Display for FramingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {} at byte {}: ", self.index, self.offset)?;
        match self.kind {
            FramingErrorKind::TruncatedHeader { have } => {
                write!(f, "cut off: {have} byte(s) left, a record header is {HEADER_SIZE}")
            }
            FramingErrorKind::ZeroSize => f.write_str("record size 0"),
            FramingErrorKind::SizeBelowHeader { size } => {
                write!(f, "record size {size} is smaller than its {HEADER_SIZE}-byte header")
            }
            FramingErrorKind::TruncatedRecord { size, have } => {
                write!(f, "cut off: the record is {size} bytes, {have} byte(s) left")
            }
            FramingErrorKind::SampleSize { payload, report } => write!(
                f,
                "a sample of {payload} bytes, the stream's reports are {report} bytes"
            ),
            FramingErrorKind::LossWithPayload { kind, payload } => write!(
                f,
                "loss record (type {kind}) with a {payload}-byte payload (the kernel's are header-only)"
            ),
            FramingErrorKind::UnknownKind { kind } => write!(f, "unknown record type {kind}"),
        }
    }
}

impl core::error::Error for FramingError {}

/// The records of `bytes`, in order. `base_offset` and `base_index` locate
/// the first byte and record when `bytes` is a part of a longer input (a
/// file read in pieces). After the first error the iterator ends.
#[inline]
pub fn frames(bytes: &[u8], base_offset: u64, base_index: u64) -> Frames<'_> {
    Frames {
        bytes,
        at: 0,
        base_offset,
        index: base_index,
        failed: false,
    }
}

/// Iterator of [`frames`].
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    bytes: &'a [u8],
    at: usize,
    base_offset: u64,
    index: u64,
    failed: bool,
}

impl<'a> Frames<'a> {
    /// Bytes consumed by the good records so far.
    pub fn consumed(&self) -> usize {
        self.at
    }

    /// Index the next record will have.
    pub fn next_index(&self) -> u64 {
        self.index
    }

    fn fail(&mut self, kind: FramingErrorKind) -> Option<Result<Frame<'a>, FramingError>> {
        self.failed = true;
        Some(Err(FramingError {
            offset: self.base_offset + self.at as u64,
            index: self.index,
            kind,
        }))
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>, FramingError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        if rest.is_empty() {
            return None;
        }
        let Some(h) = RecordHeader::parse(rest) else {
            return self.fail(FramingErrorKind::TruncatedHeader { have: rest.len() });
        };
        let size = usize::from(h.size);
        if size == 0 {
            return self.fail(FramingErrorKind::ZeroSize);
        }
        if size < HEADER_SIZE {
            return self.fail(FramingErrorKind::SizeBelowHeader { size: h.size });
        }
        let Some(record) = rest.get(..size) else {
            return self.fail(FramingErrorKind::TruncatedRecord {
                size: h.size,
                have: rest.len(),
            });
        };
        let frame = Frame {
            kind: h.kind,
            payload: &record[HEADER_SIZE..],
            offset: self.base_offset + self.at as u64,
            index: self.index,
        };
        self.at += size;
        self.index += 1;
        Some(Ok(frame))
    }
}

/// What a record of an OA stream means: one report, or a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record<'a> {
    /// One raw OA report (`report_size` bytes of the stream's format).
    Sample(&'a [u8]),
    /// The OA unit could not write a report (`OA_REPORT_LOST`; Xe: the
    /// status's REPORT_LOST bit).
    ReportLost,
    /// The OA buffer overflowed and was reset: reports are missing
    /// (`OA_BUFFER_LOST`; Xe: BUFFER_OVERFLOW).
    BufferLost,
}

impl<'a> Record<'a> {
    /// The record a stream frame holds, checked: a sample is exactly one
    /// report of `report_size` bytes, a loss carries no payload, and no
    /// other type occurs in a stream.
    pub fn from_frame(frame: &Frame<'a>, report_size: usize) -> Result<Self, FramingError> {
        let err = |kind| FramingError {
            offset: frame.offset,
            index: frame.index,
            kind,
        };
        match frame.kind {
            RECORD_SAMPLE if frame.payload.len() == report_size => {
                Ok(Record::Sample(frame.payload))
            }
            RECORD_SAMPLE => Err(err(FramingErrorKind::SampleSize {
                payload: frame.payload.len(),
                report: report_size,
            })),
            RECORD_OA_REPORT_LOST | RECORD_OA_BUFFER_LOST if !frame.payload.is_empty() => {
                Err(err(FramingErrorKind::LossWithPayload {
                    kind: frame.kind,
                    payload: frame.payload.len(),
                }))
            }
            RECORD_OA_REPORT_LOST => Ok(Record::ReportLost),
            RECORD_OA_BUFFER_LOST => Ok(Record::BufferLost),
            kind => Err(err(FramingErrorKind::UnknownKind { kind })),
        }
    }

    /// The report as the HAL's typed view of format `F` (`None` for a loss,
    /// or when the payload is shorter than `F`'s reports).
    #[inline]
    pub fn report<F: ReportFormat>(&self) -> Option<Report<'a, F>> {
        match *self {
            Record::Sample(bytes) => Report::new(bytes),
            _ => None,
        }
    }

    /// The record's type code (`DRM_I915_PERF_RECORD_*`).
    pub fn kind(&self) -> u32 {
        match self {
            Record::Sample(_) => RECORD_SAMPLE,
            Record::ReportLost => RECORD_OA_REPORT_LOST,
            Record::BufferLost => RECORD_OA_BUFFER_LOST,
        }
    }

    /// Append the record in the kernel's framing to `out`. A sample longer
    /// than a record can hold (65,527 bytes) is refused.
    pub fn write_to(&self, out: &mut Vec<u8>) -> Result<(), RecordTooLong> {
        let payload: &[u8] = match self {
            Record::Sample(b) => b,
            _ => &[],
        };
        let size = u16::try_from(HEADER_SIZE + payload.len()).map_err(|_| RecordTooLong)?;
        let header = RecordHeader {
            kind: self.kind(),
            pad: 0,
            size,
        };
        out.extend_from_slice(&header.to_bytes());
        out.extend_from_slice(payload);
        Ok(())
    }
}

/// A payload too long for the 16-bit size of a record header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordTooLong;

impl fmt::Display for RecordTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("payload too long for a record (the size field is 16 bits)")
    }
}

impl core::error::Error for RecordTooLong {}

/// The stream records of `bytes` (i915 framing), each checked against
/// `report_size`; the iterator ends after the first error.
pub fn records(
    bytes: &[u8],
    report_size: usize,
    base_offset: u64,
    base_index: u64,
) -> impl Iterator<Item = Result<Record<'_>, FramingError>> + '_ {
    let mut failed = false;
    frames(bytes, base_offset, base_index).map_while(move |f| {
        if failed {
            return None;
        }
        let r = f.and_then(|f| Record::from_frame(&f, report_size));
        failed = r.is_err();
        Some(r)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(size: usize, fill: u8) -> Vec<u8> {
        let mut v = Vec::new();
        Record::Sample(&vec![fill; size]).write_to(&mut v).unwrap();
        v
    }

    #[test]
    fn header_round_trips_little_endian() {
        let h = RecordHeader {
            kind: 0x0001_0002,
            pad: 0,
            size: 264,
        };
        let b = h.to_bytes();
        assert_eq!(b, [2, 0, 1, 0, 0, 0, 8, 1]);
        assert_eq!(RecordHeader::parse(&b), Some(h));
        assert_eq!(RecordHeader::parse(&b[..7]), None);
    }

    #[test]
    fn samples_and_losses_frame_and_check() {
        let mut bytes = sample(256, 0xAB);
        Record::ReportLost.write_to(&mut bytes).unwrap();
        Record::BufferLost.write_to(&mut bytes).unwrap();
        bytes.extend(sample(256, 0xCD));
        let got: Vec<_> = records(&bytes, 256, 0, 0)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(got.len(), 4);
        assert!(matches!(got[0], Record::Sample(b) if b.len() == 256 && b[0] == 0xAB));
        assert_eq!(got[1], Record::ReportLost);
        assert_eq!(got[2], Record::BufferLost);
        assert!(matches!(got[3], Record::Sample(b) if b[255] == 0xCD));
    }

    #[test]
    fn every_framing_error_is_located_and_earlier_records_survive() {
        let good = sample(64, 1);
        let cases: Vec<(Vec<u8>, FramingErrorKind)> = vec![
            (vec![1, 0, 0], FramingErrorKind::TruncatedHeader { have: 3 }),
            (vec![1, 0, 0, 0, 0, 0, 0, 0], FramingErrorKind::ZeroSize),
            (
                vec![1, 0, 0, 0, 0, 0, 4, 0],
                FramingErrorKind::SizeBelowHeader { size: 4 },
            ),
            (
                vec![1, 0, 0, 0, 0, 0, 72, 0, 9, 9],
                FramingErrorKind::TruncatedRecord { size: 72, have: 10 },
            ),
            (
                sample(32, 2),
                FramingErrorKind::SampleSize {
                    payload: 32,
                    report: 64,
                },
            ),
            (
                vec![2, 0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0],
                FramingErrorKind::LossWithPayload {
                    kind: 2,
                    payload: 4,
                },
            ),
            (
                vec![9, 0, 0, 0, 0, 0, 8, 0],
                FramingErrorKind::UnknownKind { kind: 9 },
            ),
        ];
        for (bad, kind) in cases {
            let mut bytes = good.clone();
            bytes.extend_from_slice(&good);
            bytes.extend_from_slice(&bad);
            // A cut record is one at the end of the input.
            let cut = matches!(
                kind,
                FramingErrorKind::TruncatedHeader { .. } | FramingErrorKind::TruncatedRecord { .. }
            );
            if !cut {
                bytes.extend_from_slice(&good);
            }
            let got: Vec<_> = records(&bytes, 64, 1000, 5).collect();
            assert_eq!(
                got.len(),
                3,
                "{kind:?}: two good records, then the error, then nothing"
            );
            assert!(got[0].is_ok() && got[1].is_ok());
            let e = got[2].unwrap_err();
            assert_eq!(e.kind, kind);
            assert_eq!(e.offset, 1000 + 2 * 72);
            assert_eq!(e.index, 7);
            assert!(e.to_string().starts_with("record 7 at byte 1144: "), "{e}");
        }
    }

    #[test]
    fn an_oversized_payload_is_refused_not_truncated() {
        let big = vec![0u8; 65_528];
        let mut out = Vec::new();
        assert_eq!(Record::Sample(&big).write_to(&mut out), Err(RecordTooLong));
        assert!(out.is_empty());
        assert!(Record::Sample(&big[..65_527]).write_to(&mut out).is_ok());
    }
}
