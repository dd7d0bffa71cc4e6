//! IGT-format recordings: the exact bytes the writer lays down, read back
//! byte for byte, and every kind of damage located with what came before it kept.

use perfregs_linux::record::{FramingErrorKind, Record};
use perfregs_linux::recording::{
    entries, read_all, Correlation, Entry, IgtProblem, Item, RecordedDevice, RecordingError,
    RecordingErrorKind, RecordingReader, RecordingWriter, WriteError, DEVICE_INFO_SIZE,
};
use std::io;

fn device() -> RecordedDevice {
    RecordedDevice {
        timestamp_frequency: 19_200_000,
        device_id: 0x9A49,
        device_revision: 3,
        gt_min_frequency: 100,
        gt_max_frequency: 1350,
        engine_class: 0,
        engine_instance: 0,
        oa_format: 10, // A32u40_A4u32_B8_C8: 256-byte reports
        metric_set_name: "TestOa".into(),
        metric_set_uuid: "1651949f-0ac0-4cb1-a06f-dafd74a407d1".into(),
    }
}

/// A report whose bytes say which one it is.
fn report(n: u8) -> Vec<u8> {
    (0..256).map(|i| (i as u8).wrapping_mul(7) ^ n).collect()
}

/// Raw i915 stream bytes: sample 1, report lost, sample 2, buffer lost, sample 3.
fn stream_bytes() -> Vec<u8> {
    let mut b = Vec::new();
    for r in [
        Record::Sample(&report(1)),
        Record::ReportLost,
        Record::Sample(&report(2)),
        Record::BufferLost,
        Record::Sample(&report(3)),
    ] {
        r.write_to(&mut b).unwrap();
    }
    b
}

const TOPOLOGY: [u8; 24] = [
    0, 0, 1, 0, 6, 0, 16, 0, 2, 0, 1, 0, 3, 0, 2, 0, 1, 0x3f, 0xff, 0xff, 0xff, 0xff, 0, 0,
];

/// VERSION, DEVICE_INFO, TOPOLOGY, CORR, S1, LOST, S2, BUFLOST, S3, CORR, S4, CORR.
fn small_recording() -> Vec<u8> {
    let mut w = RecordingWriter::new(Vec::new(), &device(), &TOPOLOGY).unwrap();
    w.correlation(Correlation {
        cpu_ns: 1_000,
        gpu_timestamp: 50,
    })
    .unwrap();
    assert_eq!(w.stream_bytes(&stream_bytes()).unwrap(), 5);
    w.correlation(Correlation {
        cpu_ns: 2_000,
        gpu_timestamp: 70,
    })
    .unwrap();
    w.record(&Record::Sample(&report(4))).unwrap();
    assert_eq!((w.samples(), w.reports_lost(), w.buffers_lost()), (4, 1, 1));
    w.finish(Correlation {
        cpu_ns: 3_000,
        gpu_timestamp: 90,
    })
    .unwrap()
}

fn le16(v: u16) -> [u8; 2] {
    v.to_le_bytes()
}
fn le32(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}
fn le64(v: u64) -> [u8; 8] {
    v.to_le_bytes()
}

#[test]
fn header_records_are_laid_out_as_igt_reads_them() {
    let w = RecordingWriter::new(Vec::new(), &device(), &TOPOLOGY[..19]).unwrap();
    let got = w.get_ref().clone();

    // Laid out by hand from the facts page, field by field.
    let mut want = vec![0u8; 16 + 344 + 8 + 24];
    // VERSION: type 65536, pad, size 16; u32 version 1, u32 pad.
    want[0..4].copy_from_slice(&le32(65536));
    want[6..8].copy_from_slice(&le16(16));
    want[8..12].copy_from_slice(&le32(1));
    // DEVICE_INFO at 16: type 65537, size 344.
    let d = 16;
    want[d..d + 4].copy_from_slice(&le32(65537));
    want[d + 6..d + 8].copy_from_slice(&le16(344));
    let p = d + 8;
    want[p..p + 8].copy_from_slice(&le64(19_200_000)); // timestamp_frequency
    want[p + 8..p + 12].copy_from_slice(&le32(0x9A49)); // device_id
    want[p + 12..p + 16].copy_from_slice(&le32(3)); // device_revision
    want[p + 16..p + 20].copy_from_slice(&le32(100)); // gt_min_frequency
    want[p + 20..p + 24].copy_from_slice(&le32(1350)); // gt_max_frequency
    want[p + 24..p + 28].copy_from_slice(&le32(0)); // engine_class
    want[p + 28..p + 32].copy_from_slice(&le32(0)); // engine_instance
    want[p + 32..p + 36].copy_from_slice(&le32(10)); // oa_format
    want[p + 36..p + 42].copy_from_slice(b"TestOa"); // char metric_set_name[256]
    let uuid = b"1651949f-0ac0-4cb1-a06f-dafd74a407d1";
    want[p + 292..p + 292 + 36].copy_from_slice(uuid); // char metric_set_uuid[40]
                                                       // u32 pad at p + 332; the record ends at p + 336 = 16 + 344.
    assert_eq!(p + 336, 360);
    // DEVICE_TOPOLOGY at 360: 19 bytes padded to 24.
    let t = 360;
    want[t..t + 4].copy_from_slice(&le32(65538));
    want[t + 6..t + 8].copy_from_slice(&le16(8 + 24));
    want[t + 8..t + 8 + 19].copy_from_slice(&TOPOLOGY[..19]);
    assert_eq!(got, want);
    assert_eq!(DEVICE_INFO_SIZE, 344);

    // A correlation: type 65539, size 24, u64 cpu ns, u64 gpu timestamp.
    let mut w = w;
    w.correlation(Correlation {
        cpu_ns: 0x0102_0304_0506_0708,
        gpu_timestamp: 0x1122_3344,
    })
    .unwrap();
    let mut c = Vec::new();
    c.extend_from_slice(&le32(65539));
    c.extend_from_slice(&[0, 0]);
    c.extend_from_slice(&le16(24));
    c.extend_from_slice(&le64(0x0102_0304_0506_0708));
    c.extend_from_slice(&le64(0x1122_3344));
    assert_eq!(&w.get_ref()[want.len()..], &c[..]);
}

#[test]
fn stream_records_are_appended_exactly_as_read() {
    let bytes = small_recording();
    let header_len = 16 + 344 + 8 + 24;
    let stream = stream_bytes();
    // CORR (24 bytes), then the stream bytes untouched.
    let at = header_len + 24;
    assert_eq!(&bytes[at..at + stream.len()], &stream[..]);
    // Then CORR, then S4 in the kernel's framing, then the closing CORR.
    let s4 = at + stream.len() + 24;
    let mut framed = Vec::new();
    Record::Sample(&report(4)).write_to(&mut framed).unwrap();
    assert_eq!(&bytes[s4..s4 + framed.len()], &framed[..]);
    assert_eq!(bytes.len(), s4 + framed.len() + 24);
}

#[test]
fn a_recording_reads_back_byte_for_byte() {
    let bytes = small_recording();
    let (rec, err) = read_all(&bytes);
    assert_eq!(err, None);
    assert_eq!(rec.version, Some(1));
    assert_eq!(rec.device.as_ref(), Some(&device()));
    assert_eq!(rec.topology, Some(&TOPOLOGY[..]));
    assert_eq!(rec.correlations.len(), 3);
    assert_eq!(rec.correlations[1].gpu_timestamp, 70);
    assert_eq!((rec.samples, rec.reports_lost, rec.buffers_lost), (4, 1, 1));
    assert_eq!(rec.records, 12);
    assert_eq!(rec.bytes, bytes.len() as u64);
    assert_eq!(rec.report_size(), Some(256));
    assert_eq!(rec.igt_readable(), Ok(()));
    let samples: Vec<_> = rec.sample_bytes().collect();
    assert_eq!(samples, [report(1), report(2), report(3), report(4)]);

    // The events in file order, with their offsets.
    let kinds: Vec<&str> = rec
        .events
        .iter()
        .map(|e| match e.item {
            Item::Correlation(_) => "C",
            Item::Stream(Record::Sample(_)) => "S",
            Item::Stream(Record::ReportLost) => "RL",
            Item::Stream(Record::BufferLost) => "BL",
            _ => "?",
        })
        .collect();
    assert_eq!(kinds, ["C", "S", "RL", "S", "BL", "S", "C", "S", "C"]);
    assert_eq!(rec.events[0].offset, 392);
    assert_eq!(rec.events[0].index, 3);
    assert_eq!(rec.events[1].offset, 392 + 24);

    // Writing what was read gives the same bytes.
    let dev = rec.device.clone().unwrap();
    let mut w = RecordingWriter::new(Vec::new(), &dev, rec.topology.unwrap()).unwrap();
    let (last, rest) = rec.events.split_last().unwrap();
    for e in rest {
        match &e.item {
            Item::Correlation(c) => w.correlation(*c).unwrap(),
            Item::Stream(r) => w.record(r).unwrap(),
            other => panic!("{other:?} among the events"),
        }
    }
    let Item::Correlation(closing) = last.item else {
        panic!("the last event is the closing correlation")
    };
    assert_eq!(w.finish(closing).unwrap(), bytes);
}

/// Offsets of each record's header in `bytes` (a well-formed recording).
fn boundaries(bytes: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < bytes.len() {
        out.push(at);
        at += usize::from(u16::from_le_bytes([bytes[at + 6], bytes[at + 7]]));
    }
    out
}

#[test]
fn truncation_at_every_byte_is_located_and_keeps_the_records_before() {
    let bytes = small_recording();
    let starts = boundaries(&bytes);
    assert_eq!(starts.len(), 12);
    let (full, _) = read_all(&bytes);
    let mut readable_prefixes = 0;
    for cut in 0..bytes.len() {
        let (rec, err) = read_all(&bytes[..cut]);
        // Records wholly before the cut.
        let whole = starts.iter().filter(|&&s| s < cut).count()
            - usize::from(!starts.contains(&cut) && cut > 0);
        assert_eq!(rec.records, whole as u64, "cut {cut}");
        // The events read are the full recording's first ones.
        assert_eq!(rec.events[..], full.events[..rec.events.len()], "cut {cut}");
        let start = starts[whole.min(starts.len() - 1)];
        match err {
            Some(e) if !starts.contains(&cut) => {
                // Inside a record: the cut record is named.
                assert_eq!(
                    (e.offset, e.index),
                    (start as u64, whole as u64),
                    "cut {cut}"
                );
                assert!(
                    matches!(
                        e.kind,
                        RecordingErrorKind::Framing(
                            FramingErrorKind::TruncatedHeader { .. }
                                | FramingErrorKind::TruncatedRecord { .. }
                        )
                    ),
                    "cut {cut}: {e}"
                );
                assert!(
                    e.to_string()
                        .starts_with(&format!("record {whole} at byte {start}: cut off")),
                    "{e}"
                );
            }
            Some(e) => {
                // On a boundary before the topology: the header is missing,
                // located at the end.
                assert!(cut <= starts[2], "cut {cut}: {e}");
                assert_eq!((e.offset, e.index), (cut as u64, whole as u64));
                let want = if cut <= starts[1] {
                    RecordingErrorKind::MissingDeviceInfo
                } else {
                    RecordingErrorKind::MissingTopology
                };
                assert_eq!(e.kind, want, "cut {cut}");
            }
            None => {
                // On a boundary after the header: a readable prefix. IGT's
                // reader would not take it whole (samples after the last
                // correlation, or too few), unless it ends just after a
                // periodic correlation (a valid, shorter recording).
                assert!(starts.contains(&cut) && cut > starts[2], "cut {cut}");
                let ends_correlated = matches!(
                    rec.events.last().map(|e| &e.item),
                    Some(Item::Correlation(_))
                ) && rec.correlations.len() >= 2;
                assert_eq!(rec.igt_readable().is_ok(), ends_correlated, "cut {cut}");
                readable_prefixes += usize::from(ends_correlated);
            }
        }
    }
    // Only the cut just after the middle correlation (record 9).
    assert_eq!(readable_prefixes, 1);
}

/// `bytes` with the size field of record `n` set to `size`.
fn with_size(bytes: &[u8], n: usize, size: u16) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let at = boundaries(bytes)[n];
    b[at + 6..at + 8].copy_from_slice(&size.to_le_bytes());
    b
}

#[test]
fn a_zero_size_is_rejected_at_its_offset() {
    let bytes = small_recording();
    let starts = boundaries(&bytes);
    for (n, &start) in starts.iter().enumerate() {
        let damaged = with_size(&bytes, n, 0);
        let (rec, err) = read_all(&damaged);
        let e = err.expect("an error");
        assert_eq!(
            e.kind,
            RecordingErrorKind::Framing(FramingErrorKind::ZeroSize)
        );
        assert_eq!((e.offset, e.index), (start as u64, n as u64));
        assert_eq!(rec.records, n as u64);
    }
}

#[test]
fn header_damage_is_named_and_located() {
    let bytes = small_recording();
    let starts = boundaries(&bytes);
    let di = starts[1];
    let check = |b: Vec<u8>, at: usize, index: u64, kind: RecordingErrorKind| {
        let (rec, err) = read_all(&b);
        let e = err.unwrap_or_else(|| panic!("{kind:?}: no error"));
        assert_eq!((e.offset, e.index, &e.kind), (at as u64, index, &kind));
        assert_eq!(rec.records, index);
        assert!(e
            .to_string()
            .starts_with(&format!("record {index} at byte {at}: ")));
    };

    // Version 2.
    let mut b = bytes.clone();
    b[8] = 2;
    check(b, 0, 0, RecordingErrorKind::Version { version: 2 });

    // A DEVICE_INFO record 8 bytes short (the rest of the file shifted).
    let mut b = bytes[..di].to_vec();
    let mut short = bytes[di..di + DEVICE_INFO_SIZE - 8].to_vec();
    short[6..8].copy_from_slice(&336u16.to_le_bytes());
    b.extend(short);
    b.extend_from_slice(&bytes[starts[2]..]);
    check(b, di, 1, RecordingErrorKind::DeviceInfoSize { size: 336 });

    // A name without its NUL, or not UTF-8.
    let name = di + 8 + 36;
    for (bytes_at, byte, kind) in [
        (
            name..name + 256,
            b'x',
            RecordingErrorKind::NameWithoutNul {
                field: "metric_set_name",
            },
        ),
        (
            di + 8 + 292..di + 8 + 332,
            b'x',
            RecordingErrorKind::NameWithoutNul {
                field: "metric_set_uuid",
            },
        ),
        (
            name..name + 1,
            0xFF,
            RecordingErrorKind::NameNotUtf8 {
                field: "metric_set_name",
            },
        ),
    ] {
        let mut b = bytes.clone();
        b[bytes_at].fill(byte);
        check(b, di, 1, kind);
    }

    // An unknown OA format: the first sample cannot be checked; a 64-byte
    // format: the 256-byte samples are wrong.
    for (oa_format, kind) in [
        // 15 is I915_OA_FORMAT_MAX: no format (13 and 14 are MTL's MPEC
        // formats, 192 and 128 bytes).
        (15, RecordingErrorKind::UnknownFormat { oa_format: 15 }),
        (
            8,
            RecordingErrorKind::Framing(FramingErrorKind::SampleSize {
                payload: 256,
                report: 64,
            }),
        ),
    ] {
        let mut b = bytes.clone();
        b[di + 8 + 32] = oa_format;
        check(b, starts[4], 4, kind);
    }

    // Samples before DEVICE_INFO or TOPOLOGY: the stream records moved up.
    let stream_at = starts[4];
    let mut b = bytes[..starts[1]].to_vec();
    b.extend_from_slice(&bytes[stream_at..]);
    check(b, 16, 1, RecordingErrorKind::MissingDeviceInfo);
    let mut b = bytes[..starts[2]].to_vec();
    b.extend_from_slice(&bytes[stream_at..]);
    check(b, starts[2], 2, RecordingErrorKind::MissingTopology);

    // A correlation of the wrong size (the cut bytes dropped).
    let c = starts[3];
    let mut b = bytes[..c].to_vec();
    let mut short = bytes[c..c + 16].to_vec();
    short[6..8].copy_from_slice(&16u16.to_le_bytes());
    b.extend(short);
    b.extend_from_slice(&bytes[starts[4]..]);
    check(b, c, 3, RecordingErrorKind::CorrelationSize { payload: 8 });

    // A loss record with a payload, an unknown record type.
    let l = starts[5];
    let mut b = bytes[..l].to_vec();
    b.extend_from_slice(&[2, 0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0]);
    check(
        b,
        l,
        5,
        RecordingErrorKind::Framing(FramingErrorKind::LossWithPayload {
            kind: 2,
            payload: 4,
        }),
    );
    let mut b = bytes.clone();
    b[l] = 7;
    check(
        b,
        l,
        5,
        RecordingErrorKind::Framing(FramingErrorKind::UnknownKind { kind: 7 }),
    );

    // Sizes below the header.
    for size in [1u16, 7] {
        let (_, err) = read_all(&with_size(&bytes, 6, size));
        let e = err.unwrap();
        assert_eq!(
            (e.offset, e.index, e.kind),
            (
                starts[6] as u64,
                6,
                RecordingErrorKind::Framing(FramingErrorKind::SizeBelowHeader { size })
            )
        );
    }
}

#[test]
fn loss_records_round_trip_and_are_counted() {
    let mut w = RecordingWriter::new(Vec::new(), &device(), &TOPOLOGY).unwrap();
    for _ in 0..3 {
        w.record(&Record::ReportLost).unwrap();
    }
    w.correlation(Correlation::default()).unwrap();
    let mut raw = Vec::new();
    for r in [Record::BufferLost, Record::ReportLost, Record::BufferLost] {
        r.write_to(&mut raw).unwrap();
    }
    w.stream_bytes(&raw).unwrap();
    assert_eq!((w.reports_lost(), w.buffers_lost()), (4, 2));
    let bytes = w.finish(Correlation::default()).unwrap();
    let (rec, err) = read_all(&bytes);
    assert_eq!(err, None);
    assert_eq!((rec.samples, rec.reports_lost, rec.buffers_lost), (0, 4, 2));
    let losses: Vec<_> = rec
        .events
        .iter()
        .filter_map(|e| match e.item {
            Item::Stream(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(
        losses,
        [
            Record::ReportLost,
            Record::ReportLost,
            Record::ReportLost,
            Record::BufferLost,
            Record::ReportLost,
            Record::BufferLost
        ]
    );
    // Each is a header-only record of its type.
    let at = 16 + 344 + 8 + 24;
    assert_eq!(&bytes[at..at + 8], &[2, 0, 0, 0, 0, 0, 8, 0]);
}

#[test]
fn the_writer_refuses_what_igt_could_not_read() {
    let mut d = device();
    d.metric_set_name = "x".repeat(256);
    assert!(matches!(
        RecordingWriter::new(Vec::new(), &d, &[]),
        Err(WriteError::FieldTooLong {
            field: "metric_set_name",
            len: 256,
            max: 255
        })
    ));
    d.metric_set_name = "x".repeat(255);
    assert!(RecordingWriter::new(Vec::new(), &d, &[]).is_ok());
    d.metric_set_uuid = "a\0b".into();
    assert!(matches!(
        RecordingWriter::new(Vec::new(), &d, &[]),
        Err(WriteError::FieldHasNul { .. })
    ));
    let mut d = device();
    d.oa_format = 15;
    assert!(matches!(
        RecordingWriter::new(Vec::new(), &d, &[]),
        Err(WriteError::UnknownFormat { oa_format: 15 })
    ));
    assert!(matches!(
        RecordingWriter::new(Vec::new(), &device(), &vec![0; 65_521]),
        Err(WriteError::TopologyTooLong { len: 65_521 })
    ));

    let mut w = RecordingWriter::new(Vec::new(), &device(), &TOPOLOGY).unwrap();
    let before = w.get_ref().len();
    // A sample before any correlation.
    let e = w.record(&Record::Sample(&report(1))).unwrap_err();
    assert!(matches!(
        e,
        WriteError::SampleBeforeCorrelation { offset, index: 3 } if offset == before as u64
    ));
    assert!(w.stream_bytes(&stream_bytes()).is_err());
    assert_eq!(w.get_ref().len(), before, "nothing written");
    w.correlation(Correlation::default()).unwrap();
    let at = w.bytes_written();
    // A sample of the wrong size, framed or typed.
    let mut raw = stream_bytes();
    Record::Sample(&[0; 64]).write_to(&mut raw).unwrap();
    let e = w.stream_bytes(&raw).unwrap_err();
    let WriteError::Framing(f) = e else {
        panic!("{e}")
    };
    assert_eq!(
        (f.offset, f.index),
        (at + stream_bytes().len() as u64, 4 + 5)
    );
    assert_eq!(w.bytes_written(), at, "nothing of the bad chunk written");
    assert!(matches!(
        w.record(&Record::Sample(&[0; 255])),
        Err(WriteError::Framing(_))
    ));
    // Zero-size framing in raw bytes.
    let e = w.stream_bytes(&[1, 0, 0, 0, 0, 0, 0, 0]).unwrap_err();
    assert!(e.to_string().contains("record size 0"), "{e}");
    assert_eq!(w.get_ref().len() as u64, at);
}

#[test]
fn igt_readability_needs_correlations_around_the_samples() {
    let base = || RecordingWriter::new(Vec::new(), &device(), &TOPOLOGY).unwrap();
    let c = |t| Correlation {
        cpu_ns: t,
        gpu_timestamp: t,
    };
    // What the IGT check says of the recording written so far.
    let igt = |bytes: &[u8]| read_all(bytes).0.igt_readable();
    // One correlation only.
    let mut w = base();
    w.correlation(c(1)).unwrap();
    w.record(&Record::Sample(&report(1))).unwrap();
    assert_eq!(
        igt(w.get_ref()),
        Err(IgtProblem::TooFewCorrelations { found: 1 })
    );
    // Finished: readable.
    assert_eq!(igt(&w.finish(c(2)).unwrap()), Ok(()));
    // A sample after the last correlation.
    let mut w = base();
    w.correlation(c(1)).unwrap();
    w.correlation(c(2)).unwrap();
    w.record(&Record::Sample(&report(1))).unwrap();
    assert_eq!(
        igt(w.get_ref()),
        Err(IgtProblem::SampleAfterLastCorrelation { index: 5 })
    );
    // Out of order.
    let mut w = base();
    w.correlation(c(5)).unwrap();
    w.correlation(c(2)).unwrap();
    assert_eq!(
        igt(w.get_ref()),
        Err(IgtProblem::CorrelationsOutOfOrder { index: 4 })
    );
}

#[test]
fn entries_stream_the_file_in_order_and_stop_at_the_first_error() {
    let bytes = small_recording();
    let all: Vec<_> = entries(&bytes).collect::<Result<_, _>>().unwrap();
    assert_eq!(all.len(), 12);
    assert!(matches!(all[0].item, Item::Version(1)));
    assert!(matches!(&all[1].item, Item::Device(d) if d.metric_set_name == "TestOa"));
    assert!(matches!(all[2].item, Item::Topology(t) if t == TOPOLOGY));
    assert!(all
        .windows(2)
        .all(|w| w[1].index == w[0].index + 1 && w[1].offset > w[0].offset));
    // A zero size in the middle: the records before it, one error, then nothing.
    let damaged = with_size(&bytes, 7, 0);
    let got: Vec<_> = entries(&damaged).collect();
    assert_eq!(got.len(), 8);
    assert!(got[..7].iter().all(Result::is_ok));
    assert_eq!(got[7].as_ref().unwrap_err().index, 7);
    // An empty input is a recording without its header.
    let got: Vec<_> = entries(&[]).collect();
    assert_eq!(got.len(), 1);
    let e = got[0].as_ref().unwrap_err();
    assert_eq!(
        (e.offset, e.index, &e.kind),
        (0, 0, &RecordingErrorKind::MissingDeviceInfo)
    );
}

/// What a reader gave: the entries, then the error if any.
type Read<'a> = (Vec<Entry<'a>>, Option<RecordingError>);

fn from_slice(b: &[u8]) -> Read<'_> {
    let mut out = Vec::new();
    for e in entries(b) {
        match e {
            Ok(e) => out.push(e),
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

/// The stream reader's entries, each checked against the slice reader's
/// (same offset, index and item) as it comes.
fn stream_matches(b: &[u8], src: impl io::Read) {
    let (want, want_err) = from_slice(b);
    let mut r = RecordingReader::new(src);
    let mut k = 0;
    let mut err = None;
    while let Some(e) = r.next_entry() {
        match e {
            Ok(e) => {
                assert_eq!(Some(&e), want.get(k), "entry {k}");
                k += 1;
            }
            Err(e) => err = Some(e),
        }
    }
    assert_eq!(k, want.len());
    assert_eq!(err, want_err);
    assert_eq!(r.records(), k as u64);
    assert!(r.next_entry().is_none(), "nothing after the end");
}

/// Gives one byte per read, with an `Interrupted` before each.
struct Dribble<'a>(&'a [u8], bool);

impl io::Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.1 = !self.1;
        if self.1 {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        match (self.0.split_first(), buf.first_mut()) {
            (Some((b, rest)), Some(out)) => {
                *out = *b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn the_stream_reader_reads_what_the_slice_reader_reads() {
    let bytes = small_recording();
    stream_matches(&bytes, &bytes[..]);
    stream_matches(&bytes, Dribble(&bytes, false));
    for cut in 0..bytes.len() {
        stream_matches(&bytes[..cut], &bytes[..cut]);
    }
    for n in 0..12 {
        let damaged = with_size(&bytes, n, 0);
        stream_matches(&damaged, &damaged[..]);
    }
    let mut b = bytes.clone();
    b[8] = 2;
    stream_matches(&b, &b[..]);
}

/// Fails after `ok` bytes.
struct Failing<'a> {
    bytes: &'a [u8],
    ok: usize,
}

impl io::Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ok == 0 {
            return Err(io::Error::other("the disk went away"));
        }
        let n = buf.len().min(self.ok).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.ok -= n;
        Ok(n)
    }
}

#[test]
fn a_failed_read_is_located_after_the_good_records() {
    let bytes = small_recording();
    let starts = boundaries(&bytes);
    // Inside record 5 (the first loss record's header).
    let mut r = RecordingReader::new(Failing {
        bytes: &bytes,
        ok: starts[5] + 3,
    });
    let mut good = 0;
    let err = loop {
        match r.next_entry() {
            Some(Ok(_)) => good += 1,
            Some(Err(e)) => break e,
            None => panic!("no error"),
        }
    };
    assert_eq!(good, 5);
    assert_eq!((err.offset, err.index), (starts[5] as u64, 5));
    assert!(matches!(
        err.kind,
        RecordingErrorKind::Io {
            kind: io::ErrorKind::Other,
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        format!(
            "record 5 at byte {}: reading failed: the disk went away",
            starts[5]
        )
    );
    assert!(r.next_entry().is_none());
}

#[cfg(target_os = "linux")]
#[test]
fn correlations_take_the_monotonic_clock() {
    use perfregs_linux::recording::monotonic_ns;
    let a = monotonic_ns();
    std::thread::sleep(std::time::Duration::from_millis(2));
    let c = Correlation::now(42);
    assert!(a > 0);
    assert!(c.cpu_ns >= a + 2_000_000, "{} then {}", a, c.cpu_ns);
    assert!(c.cpu_ns - a < 10_000_000_000, "within 10 s");
    assert_eq!(c.gpu_timestamp, 42);
}

/// Accepts `room` bytes, then fails.
struct Full {
    bytes: Vec<u8>,
    room: usize,
}

impl io::Write for Full {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::other("no space left"));
        }
        let n = b.len().min(self.room);
        self.bytes.extend_from_slice(&b[..n]);
        self.room -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn after_a_failed_write_nothing_more_is_written() {
    let header = 16 + 344 + 8 + 24;
    let mut w = RecordingWriter::new(
        Full {
            bytes: Vec::new(),
            room: header + 24 + 100,
        },
        &device(),
        &TOPOLOGY,
    )
    .unwrap();
    w.correlation(Correlation::default()).unwrap();
    // The sample is cut after 100 bytes: an I/O error.
    let e = w.record(&Record::Sample(&report(1))).unwrap_err();
    assert!(matches!(e, WriteError::Io(_)), "{e}");
    assert_eq!(
        w.bytes_written(),
        (header + 24) as u64,
        "the cut record is not counted"
    );
    // Everything after is refused, naming where the recording is whole.
    for r in [
        w.record(&Record::ReportLost),
        w.correlation(Correlation::default()),
        w.stream_bytes(&stream_bytes()).map(|_| ()),
    ] {
        let e = r.unwrap_err();
        assert!(
            matches!(e, WriteError::AfterFailure { offset } if offset == (header + 24) as u64),
            "{e}"
        );
    }
    assert_eq!(w.get_ref().bytes.len(), header + 24 + 100);
    // What was written reads back as far as it is whole.
    let bytes = w.get_ref().bytes.clone();
    let (rec, err) = read_all(&bytes);
    assert_eq!(rec.records, 4);
    let e = err.unwrap();
    assert_eq!((e.offset, e.index), ((header + 24) as u64, 4));
}
