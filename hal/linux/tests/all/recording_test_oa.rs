//! End to end without hardware: TestOa reports from the emulated TGL,
//! framed as an i915 stream gives them (with an injected loss), recorded in
//! IGT's format, read back through the streaming reader, paired and summed
//! per interval, and TestOa's counters computed: IGT's ratios.

use core::num::NonZeroU32;
use hal::report::Report;
use hal::tgl::reports::A32u40A4u32B8C8 as Tgl;
use perfregs_emu::test_support;
use perfregs_linux::record::Record;
use perfregs_linux::recording::{
    Correlation, Item, RecordedDevice, RecordingReader, RecordingWriter,
};
use perfregs_metrics::intervals::{Interval, Intervals, Window};
use perfregs_metrics::rt::program;
use perfregs_metrics::Value;

/// `n` periodic reports of TGL GT2 running TestOa (programmed through the
/// typed, checked path).
fn test_oa_reports(n: u64) -> Vec<Vec<u8>> {
    let set = &perfregs_metrics::tgl_gt2::test_oa::SET;
    test_support::tgl_reports(n, |gpu, awake| {
        program(
            gpu,
            set,
            &hal::part("tgl", 2).expect("TGL GT2").device,
            awake,
        )
        .expect("TestOa programs");
    })
}

#[test]
fn test_oa_recorded_read_back_and_counted_gives_igts_ratios() {
    let reports = test_oa_reports(31);
    // The stream as i915 would give it: 15 samples, a lost report, 16 samples.
    let mut stream = Vec::new();
    for (k, r) in reports.iter().enumerate() {
        if k == 15 {
            Record::ReportLost.write_to(&mut stream).unwrap();
        }
        Record::Sample(r).write_to(&mut stream).unwrap();
    }
    let device = RecordedDevice {
        timestamp_frequency: hal::part("tgl", 2)
            .expect("TGL GT2")
            .device
            .gpu_timestamp_frequency,
        device_id: 0x9A49,
        oa_format: 10, // I915_OA_FORMAT_A32u40_A4u32_B8_C8
        metric_set_name: "TestOa".into(),
        metric_set_uuid: perfregs_metrics::tgl_gt2::test_oa::SET.guid.into(),
        ..Default::default()
    };
    let mut w = RecordingWriter::new(Vec::new(), &device, &[0; 16]).unwrap();
    w.correlation(Correlation {
        cpu_ns: 1,
        gpu_timestamp: 0,
    })
    .unwrap();
    // In two reads' worth of bytes, split on a record boundary.
    let cut = 7 * (8 + 256);
    assert_eq!(w.stream_bytes(&stream[..cut]).unwrap(), 7);
    assert_eq!(w.stream_bytes(&stream[cut..]).unwrap(), 25);
    let file = w
        .finish(Correlation {
            cpu_ns: 2,
            gpu_timestamp: 1 << 20,
        })
        .unwrap();

    // Read back as `perfregs report` would: the device from the file, the
    // records one by one.
    let mut r = RecordingReader::new(&file[..]);
    let mut dev = hal::part("tgl", 2).expect("TGL GT2").device;
    let mut iv = Intervals::<Tgl>::new(Window::Pairs(NonZeroU32::new(5).unwrap()));
    let mut out: Vec<Interval> = Vec::new();
    let mut samples = 0;
    while let Some(e) = r.next_entry() {
        match e.expect("a valid recording").item {
            Item::Device(d) => {
                assert_eq!(d.metric_set_name, "TestOa");
                dev.gpu_timestamp_frequency = d.timestamp_frequency;
            }
            Item::Stream(Record::Sample(b)) => {
                samples += 1;
                let rep = Report::<Tgl>::new(b).expect("256 bytes, checked by the reader");
                out.extend(iv.push(&rep));
            }
            Item::Stream(Record::ReportLost) => iv.report_lost(),
            Item::Stream(Record::BufferLost) => iv.buffer_lost(),
            _ => {}
        }
    }
    out.extend(iv.finish());
    assert_eq!(samples, 31);
    // 29 pairs (30 minus the one across the loss): 5 + 5 + 5 + 5 + 5 + 4.
    assert_eq!(
        out.iter().map(|i| i.pairs).collect::<Vec<_>>(),
        [5, 5, 5, 5, 5, 4]
    );
    assert_eq!(out.iter().map(|i| i.reports_lost).sum::<u32>(), 1);
    assert!(out[2].has_loss(), "the loss is in the third interval");

    let set = &perfregs_metrics::tgl_gt2::test_oa::SET;
    let value = |name: &str, i: &Interval| match set.counter(name).and_then(|c| i.value(c, &dev)) {
        Some(Value::U64(v)) => v,
        other => panic!("{name}: {other:?}"),
    };
    for i in &out {
        perfregs_testkit::check_test_oa_ratios(
            "interval",
            |name| value(name, i),
            u64::from(i.pairs),
        );
        // GPU time in ns from the recorded timestamp frequency: 5 periods of 128 ticks.
        let ns = value("GpuTime", i);
        let ticks = i.sample.gpu_time.unwrap();
        assert_eq!(ticks, 128 * u64::from(i.pairs));
        assert_eq!(ns, ticks * 1_000_000_000 / dev.gpu_timestamp_frequency);
    }
}
