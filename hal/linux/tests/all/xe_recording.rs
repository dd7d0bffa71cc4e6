//! Recordings in IGT's `xe-perf-recorder` format: the bytes against the
//! layout of IGT's `lib/xe/xe_oa_data.h` (offsets written from the header,
//! not from perfregs' code), the round trip, every IGT xe format, and
//! truncated or damaged files located without a panic.

use perfregs_linux::discovery::Topology;
use perfregs_linux::record::{FramingErrorKind, Record};
use perfregs_linux::recording::{
    entries, read_all, Correlation, Item, RecordedDevice, RecordingErrorKind, RecordingFormat,
    RecordingReader, RecordingWriter, WriteError,
};
use perfregs_linux::xe_recording::{self, XE_FORMATS};

/// A TGL GT2 device as IGT's xe recorder describes it: engine render 0,
/// `XE_OA_FORMAT_A32u40_A4u32_B8_C8` (4 in IGT's enum).
fn device() -> RecordedDevice {
    RecordedDevice {
        timestamp_frequency: 19_200_000,
        device_id: 0x9A49,
        device_revision: 3,
        gt_min_frequency: 300_000_000,
        gt_max_frequency: 1_350_000_000,
        engine_class: 0,
        engine_instance: 0,
        oa_format: 4,
        metric_set_name: "TestOa".into(),
        metric_set_uuid: "1651949f-0ac0-4cb1-a06f-dafd74a407d1".into(),
    }
}

fn report(n: u8, size: usize) -> Vec<u8> {
    (0..size).map(|i| (i as u8).wrapping_mul(13) ^ n).collect()
}

fn topology() -> Vec<u8> {
    xe_recording::topology_of_masks(0x3f, 0xffff).expect("TGL GT2 fits")
}

/// VERSION, DEVICE_INFO, TOPOLOGY, CORR, S1, LOST, S2, BUFLOST, S3, CORR.
fn recording() -> Vec<u8> {
    let mut w = RecordingWriter::new_xe(Vec::new(), &device(), &topology()).expect("header");
    assert_eq!(w.format(), RecordingFormat::Xe);
    w.correlation(Correlation {
        cpu_ns: 1_000,
        gpu_timestamp: 50,
    })
    .expect("correlation");
    for r in [
        Record::Sample(&report(1, 256)),
        Record::ReportLost,
        Record::Sample(&report(2, 256)),
        Record::BufferLost,
    ] {
        w.record(&r).expect("record");
    }
    // Bytes already framed (as an i915 stream gives them) are taken too.
    let mut framed = Vec::new();
    Record::Sample(&report(3, 256))
        .write_to(&mut framed)
        .expect("framed");
    assert_eq!(w.stream_bytes(&framed).expect("appended"), 1);
    w.finish(Correlation {
        cpu_ns: 3_000,
        gpu_timestamp: 90,
    })
    .expect("finish")
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// `struct intel_xe_perf_record_header { u32 type; u16 pad; u16 size; }`
/// (`lib/xe/xe_oa.h:338-342`).
fn header_at(b: &[u8], at: usize) -> (u32, u16, u16) {
    (u32_at(b, at), u16_at(b, at + 4), u16_at(b, at + 6))
}

#[test]
fn the_header_records_have_the_layout_of_igts_xe_oa_data_h() {
    let b = recording();
    // enum intel_xe_perf_record_type (xe_oa_data.h:16-38): SAMPLE = 1,
    // REPORT_LOST, BUFFER_LOST, VERSION, DEVICE_INFO, DEVICE_TOPOLOGY,
    // TIMESTAMP_CORRELATION: 1..=7.
    // VERSION: struct intel_xe_perf_record_version { u32 version; u32 pad; }
    // packed, version 1 (xe_oa_data.h:41-50).
    assert_eq!(header_at(&b, 0), (4, 0, 8 + 8));
    assert_eq!((u32_at(&b, 8), u32_at(&b, 12)), (1, 0));

    // DEVICE_INFO at byte 16: struct intel_xe_perf_record_device_info,
    // packed (xe_oa_data.h:52-80):
    //   u64 timestamp_frequency   @ 0
    //   u32 device_id             @ 8
    //   u32 device_revision       @ 12
    //   u32 gt_min_frequency      @ 16
    //   u32 gt_max_frequency      @ 20
    //   u32 engine_class          @ 24
    //   u32 engine_instance       @ 28
    //   u32 oa_format             @ 32
    //   char metric_set_name[256] @ 36
    //   char metric_set_uuid[40]  @ 292
    //   u32 pad                   @ 332
    //   sizeof = 336; the reader asserts size == 336 + 8.
    let di = 16;
    assert_eq!(header_at(&b, di), (5, 0, 344));
    let p = di + 8;
    let d = device();
    assert_eq!(u64_at(&b, p), d.timestamp_frequency);
    assert_eq!(u32_at(&b, p + 8), 0x9A49);
    assert_eq!(u32_at(&b, p + 12), 3);
    assert_eq!(u32_at(&b, p + 16), 300_000_000);
    assert_eq!(u32_at(&b, p + 20), 1_350_000_000);
    assert_eq!(u32_at(&b, p + 24), 0, "DRM_XE_ENGINE_CLASS_RENDER");
    assert_eq!(u32_at(&b, p + 28), 0);
    assert_eq!(u32_at(&b, p + 32), 4, "XE_OA_FORMAT_A32u40_A4u32_B8_C8");
    assert_eq!(&b[p + 36..p + 42], b"TestOa");
    assert!(b[p + 42..p + 292].iter().all(|&x| x == 0));
    assert_eq!(
        &b[p + 292..p + 328],
        b"1651949f-0ac0-4cb1-a06f-dafd74a407d1"
    );
    assert!(b[p + 328..p + 336].iter().all(|&x| x == 0));

    // DEVICE_TOPOLOGY at 16 + 344 = 360: struct intel_xe_topology_info
    // (xe_oa.h:326-336: eight u16, then data[]) as xe_fill_topology_info
    // fills it (xe_oa.c:448-546) for 6 DSS of 16 EUs: max_slices 1,
    // subslice_offset 1, subslice_stride 1, eu_offset 2, eu_stride 2, data:
    // slice mask 1, DSS mask, an EU mask per DSS; 16 + 2 + 12 = 30 bytes,
    // aligned to 8 = 32.
    let t = 360;
    assert_eq!(header_at(&b, t), (6, 0, 8 + 32));
    let h: Vec<u16> = (0..8).map(|i| u16_at(&b, t + 8 + 2 * i)).collect();
    assert_eq!(h, [0, 1, 6, 16, 1, 1, 2, 2]);
    assert_eq!(&b[t + 24..t + 26], &[0x01, 0x3f]);
    assert_eq!(&b[t + 26..t + 38], &[0xff; 12]);

    // TIMESTAMP_CORRELATION at 360 + 40 = 400: { u64 cpu_timestamp; u64
    // gpu_timestamp; } packed (xe_oa_data.h:88-95).
    let c = 400;
    assert_eq!(header_at(&b, c), (7, 0, 24));
    assert_eq!((u64_at(&b, c + 8), u64_at(&b, c + 16)), (1_000, 50));
    // The first sample: type 1, one 256-byte report (xe_perf_recorder.c:572-592).
    assert_eq!(header_at(&b, 424), (1, 0, 8 + 256));
    assert_eq!(&b[432..432 + 256], &report(1, 256)[..]);
    // Losses: header only (the reader asserts size == 8).
    assert_eq!(header_at(&b, 688), (2, 0, 8));
}

#[test]
fn an_xe_recording_reads_back_as_written() {
    let b = recording();
    assert_eq!(RecordingFormat::detect(&b), Some(RecordingFormat::Xe));
    let (rec, err) = read_all(&b);
    assert_eq!(err, None);
    assert_eq!(rec.format, Some(RecordingFormat::Xe));
    assert_eq!(rec.version, Some(1));
    assert_eq!(rec.device, Some(device()));
    assert_eq!(rec.report_size(), Some(256));
    assert_eq!(rec.topology, Some(&topology()[..]));
    assert_eq!((rec.samples, rec.reports_lost, rec.buffers_lost), (3, 1, 1));
    assert_eq!(rec.correlations.len(), 2);
    assert_eq!(rec.records, 10);
    assert_eq!(rec.bytes, b.len() as u64);
    let samples: Vec<&[u8]> = rec.sample_bytes().collect();
    assert_eq!(
        samples,
        [
            &report(1, 256)[..],
            &report(2, 256)[..],
            &report(3, 256)[..]
        ]
    );
    assert_eq!(rec.igt_readable(), Ok(()));
    // The topology is i915's query layout: the same parser reads it.
    let t = Topology::parse(rec.topology.expect("a topology")).expect("parses");
    assert_eq!((t.subslice_mask(), t.eu_count()), (0x3f, 96));

    // The streaming reader gives the same entries and the format.
    let mut r = RecordingReader::new(&b[..]);
    assert_eq!(r.format(), None);
    let mut slice = entries(&b);
    let mut n = 0;
    while let Some(e) = r.next_entry() {
        let e = e.expect("valid");
        assert_eq!(Some(Ok(e)), slice.next());
        n += 1;
    }
    assert_eq!((n, r.format()), (10, Some(RecordingFormat::Xe)));
    assert_eq!(slice.format(), Some(RecordingFormat::Xe));
}

#[test]
fn every_igt_xe_format_writes_and_reads_back_with_its_report_size() {
    for f in &XE_FORMATS {
        let d = RecordedDevice {
            oa_format: f.igt,
            ..device()
        };
        let mut w = RecordingWriter::new_xe(Vec::new(), &d, &topology()).expect(f.name);
        assert_eq!(w.report_size(), f.size, "{}", f.name);
        w.correlation(Correlation::default()).expect("correlation");
        w.record(&Record::Sample(&report(9, f.size))).expect(f.name);
        // A report of another size is refused, located.
        match w.record(&Record::Sample(&report(9, f.size - 64))) {
            Err(WriteError::Framing(e)) => {
                assert_eq!(e.index, 5, "{}", f.name);
                assert!(matches!(e.kind, FramingErrorKind::SampleSize { .. }));
            }
            other => panic!("{}: {other:?}", f.name),
        }
        let b = w.finish(Correlation::default()).expect("finish");
        let (rec, err) = read_all(&b);
        assert_eq!(err, None, "{}", f.name);
        assert_eq!(rec.report_size(), Some(f.size), "{}", f.name);
        assert_eq!(rec.samples, 1);
    }
    // IGT's numbers from lib/xe/xe_oa.h:25-57, the ones the issue names.
    assert_eq!(xe_recording::report_size(4), Some(256));
    assert_eq!(
        xe_recording::by_igt(10).map(|f| (f.name, f.type_name())),
        Some(("XE_OAM_FORMAT_MPEC8u32_B8_C8", "OAM_MPEC"))
    );
    assert_eq!(xe_recording::report_size(11), Some(576), "PEC64u64");
    // Not numbers of IGT's enum: refused before anything is written.
    for n in [0, 20, 10_000] {
        let d = RecordedDevice {
            oa_format: n,
            ..device()
        };
        assert!(matches!(
            RecordingWriter::new_xe(Vec::new(), &d, &[]),
            Err(WriteError::UnknownFormat { oa_format }) if oa_format == n
        ));
    }
    // 10 is an i915 id (A32u40_A4u32_B8_C8) and an xe one (MPEC8u32_B8_C8):
    // the same device is 256-byte reports in one and 128 in the other.
    let d = RecordedDevice {
        oa_format: 10,
        ..device()
    };
    assert_eq!(d.report_size_in(RecordingFormat::I915), Some(256));
    assert_eq!(d.report_size_in(RecordingFormat::Xe), Some(128));
}

#[test]
fn a_truncated_xe_recording_is_located_at_every_byte() {
    let b = recording();
    let starts: Vec<u64> = entries(&b).map(|e| e.expect("valid").offset).collect();
    for cut in 0..b.len() {
        let (rec, err) = read_all(&b[..cut]);
        let before = starts.iter().filter(|&&s| s < cut as u64).count() as u64;
        if cut >= 16 {
            assert_eq!(rec.format, Some(RecordingFormat::Xe), "cut at {cut}");
        }
        if starts.contains(&(cut as u64)) {
            // Whole records only: a whole recording from the first
            // correlation on; before it, what is missing said at the end.
            if cut >= starts[3] as usize {
                assert_eq!(err, None, "cut at {cut}");
            } else {
                let e = err.expect("something missing");
                assert_eq!((e.offset, e.index), (cut as u64, before), "{cut}");
                assert!(matches!(
                    e.kind,
                    RecordingErrorKind::MissingDeviceInfo | RecordingErrorKind::MissingTopology
                ));
            }
            continue;
        }
        // Cut inside the record that starts before `cut`: located at its
        // header, the records before it kept.
        let e = err.expect("a cut record");
        let start = starts[before as usize - 1];
        assert_eq!((e.offset, e.index), (start, before - 1), "{cut}: {e}");
        assert!(matches!(
            e.kind,
            RecordingErrorKind::Framing(
                FramingErrorKind::TruncatedHeader { .. } | FramingErrorKind::TruncatedRecord { .. }
            )
        ));
        assert!(
            e.to_string()
                .starts_with(&format!("record {} at byte {}: ", e.index, e.offset)),
            "{e}"
        );
        assert_eq!(rec.records, e.index, "{cut}");
    }
}

#[test]
fn damaged_xe_recordings_are_named_and_located() {
    let b = recording();
    let starts: Vec<usize> = entries(&b)
        .map(|e| e.expect("valid").offset as usize)
        .collect();
    let check = |bytes: Vec<u8>, at: usize, index: u64, kind: RecordingErrorKind| {
        let (rec, err) = read_all(&bytes);
        let e = err.expect("an error");
        assert_eq!(
            (e.offset, e.index, &e.kind),
            (at as u64, index, &kind),
            "{e}"
        );
        assert_eq!(rec.records, index);
    };

    // An i915 recorder's metadata type (65539) in an xe recording: unknown
    // there, as IGT's xe reader does not know it.
    let mut d = b.clone();
    d[starts[3]..starts[3] + 4].copy_from_slice(&65_539u32.to_le_bytes());
    check(
        d,
        starts[3],
        3,
        RecordingErrorKind::Framing(FramingErrorKind::UnknownKind { kind: 65_539 }),
    );
    // DEVICE_INFO not 344 bytes.
    let mut d = b.clone();
    d[starts[1] + 6..starts[1] + 8].copy_from_slice(&340u16.to_le_bytes());
    let (_, err) = read_all(&d);
    let e = err.expect("an error");
    assert_eq!((e.offset, e.index), (starts[1] as u64, 1));
    // An oa_format that is no IGT xe number: the first sample says it.
    let mut d = b.clone();
    d[starts[1] + 8 + 32..starts[1] + 8 + 36].copy_from_slice(&99u32.to_le_bytes());
    check(
        d,
        starts[4],
        4,
        RecordingErrorKind::UnknownXeFormat { oa_format: 99 },
    );
    // MPEC8u32_B8_C8 (10, 128 bytes): the 256-byte samples do not fit it.
    let mut d = b.clone();
    d[starts[1] + 8 + 32..starts[1] + 8 + 36].copy_from_slice(&10u32.to_le_bytes());
    check(
        d,
        starts[4],
        4,
        RecordingErrorKind::Framing(FramingErrorKind::SampleSize {
            payload: 256,
            report: 128,
        }),
    );
    // A zero size.
    let mut d = b.clone();
    d[starts[5] + 6..starts[5] + 8].copy_from_slice(&0u16.to_le_bytes());
    check(
        d,
        starts[5],
        5,
        RecordingErrorKind::Framing(FramingErrorKind::ZeroSize),
    );
    // No topology: said at the end.
    let mut d = b.clone();
    d.drain(starts[2]..starts[3]);
    let (_, err) = read_all(&d);
    let e = err.expect("an error");
    assert_eq!(e.kind, RecordingErrorKind::MissingTopology);
    assert_eq!(e.index, 3);
}

#[test]
fn random_damage_never_panics_and_every_error_is_located() {
    let whole = recording();
    let mut rng = perfregs_testkit::XorShift(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next();
    let mut errors = 0;
    for _ in 0..3_000 {
        let mut b = whole.clone();
        for _ in 0..(next() % 4 + 1) {
            let at = (next() % b.len() as u64) as usize;
            b[at] = next() as u8;
        }
        let (rec, err) = read_all(&b);
        if let Some(e) = err {
            errors += 1;
            assert!(e.offset <= b.len() as u64, "{e}");
            assert_eq!(rec.records, e.index, "{e}");
            assert!(e.to_string().starts_with("record "), "{e}");
            // The streaming reader stops at the same place with the same error.
            let mut r = RecordingReader::new(&b[..]);
            let mut last = None;
            while let Some(x) = r.next_entry() {
                last = Some(x.map(|e| e.index));
            }
            assert_eq!(last, Some(Err(e)));
        }
    }
    assert!(errors > 500, "{errors}");
}

#[test]
fn i915_recordings_stay_i915() {
    let d = RecordedDevice {
        oa_format: 10,
        ..device()
    };
    let mut w = RecordingWriter::new(Vec::new(), &d, &[0; 16]).expect("header");
    assert_eq!(w.format(), RecordingFormat::I915);
    w.correlation(Correlation::default()).expect("correlation");
    w.record(&Record::Sample(&report(1, 256))).expect("sample");
    let b = w.finish(Correlation::default()).expect("finish");
    assert_eq!(u32_at(&b, 0), 65_536);
    assert_eq!(RecordingFormat::detect(&b), Some(RecordingFormat::I915));
    let (rec, err) = read_all(&b);
    assert_eq!((rec.format, err), (Some(RecordingFormat::I915), None));
    // xe's metadata types are unknown in an i915 recording.
    let mut bad = b.clone();
    let at = 16 + 344 + 24; // VERSION, DEVICE_INFO, 16-byte TOPOLOGY
    bad[at..at + 4].copy_from_slice(&5u32.to_le_bytes());
    let (_, err) = read_all(&bad);
    assert_eq!(
        err.map(|e| e.kind),
        Some(RecordingErrorKind::Framing(FramingErrorKind::UnknownKind {
            kind: 5
        }))
    );
    assert!(matches!(
        entries(&b).nth(1),
        Some(Ok(e)) if matches!(e.item, Item::Device(_))
    ));
    assert_eq!(RecordingFormat::detect(&[4, 0, 0]), None);
    assert_eq!(RecordingFormat::detect(&[1, 0, 0, 0, 0, 0, 8, 0]), None);
}
