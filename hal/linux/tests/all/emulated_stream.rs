//! The emulated kernel (`perfregs_linux::emulated`) read through
//! `perfregs_linux::stream::StreamReader` and the real fd path (a pipe).
//! Each test names the IGT `tests/intel/perf.c` subtest whose checks it
//! mirrors.
#![cfg(target_os = "linux")]

use hal::meta::{FormatInfo, ProjectInfo};
use perfregs_emu::{Emulator, OaConfig, OaUnit, ReportOutcome, Sku, Workload};
use perfregs_linux::emulated::{EmulatedStream, Fault, StreamConfig};
use perfregs_linux::errno::{code, StreamError};
use perfregs_linux::record::Record;
use perfregs_linux::stream::{Framing, Item, OaStream, StreamReader};
use perfregs_linux::uapi::xe::status;

fn emulator(p: &'static ProjectInfo) -> Emulator {
    let mut e = Emulator::builder(p, Sku::default())
        .with::<OaUnit>(OaConfig::default())
        .build();
    e.unit_mut::<OaUnit>()
        .set_workload(Workload::new().rate(0, 3).rate(1, 1));
    e
}

fn format(p: &'static ProjectInfo, name: &str) -> &'static FormatInfo {
    p.formats
        .iter()
        .copied()
        .find(|f| f.name.eq_ignore_ascii_case(name))
        .unwrap_or_else(|| panic!("{} has no format {name}", p.name))
}

fn tgl_cfg(framing: Framing) -> StreamConfig {
    StreamConfig::new(framing, format(&hal::tgl::PROJECT, "A32u40_A4u32_B8_C8"))
}

fn open(cfg: StreamConfig) -> EmulatedStream {
    EmulatedStream::open(emulator(&hal::tgl::PROJECT), cfg).expect("open")
}

/// What a reader yields, owned: reports, or the loss as a record type.
#[derive(Debug, PartialEq)]
enum Got {
    Report(Vec<u8>),
    ReportLost,
    BufferLost,
    CounterOverflow,
    Other,
}

fn drain<S: OaStream>(r: &mut StreamReader<S>) -> Vec<Got> {
    let mut out = Vec::new();
    r.drain(|i| {
        out.push(match i {
            Item::Record(Record::Sample(b)) => Got::Report(b.to_vec()),
            Item::Record(Record::ReportLost) => Got::ReportLost,
            Item::Record(Record::BufferLost) => Got::BufferLost,
            Item::CounterOverflow => Got::CounterOverflow,
            _ => Got::Other,
        })
    })
    .expect("drain");
    out
}

/// `rounds` times: poll without waiting, then read until `EAGAIN`;
/// everything read.
fn collect<S: OaStream>(r: &mut StreamReader<S>, rounds: usize) -> Vec<Got> {
    (0..rounds)
        .flat_map(|_| {
            r.wait(Some(std::time::Duration::ZERO)).expect("poll");
            drain(r)
        })
        .collect()
}

fn reports(got: &[Got]) -> Vec<&[u8]> {
    got.iter()
        .filter_map(|g| match g {
            Got::Report(b) => Some(b.as_slice()),
            _ => None,
        })
        .collect()
}

fn field(f: &FormatInfo, name: &str, report: &[u8]) -> u64 {
    f.counter(name)
        .and_then(|c| c.read(report))
        .unwrap_or_else(|| panic!("{name} of {}", f.name))
}

/// IGT `oa-exponents`: timer reports are 2^(e+1) timestamp ticks apart.
#[test]
fn oa_exponents() {
    for e in [5u64, 7, 9, 12] {
        let mut cfg = tgl_cfg(Framing::I915Records);
        cfg.exponent = e;
        cfg.ticks_per_read = 40 << (e + 1).min(12) >> 2;
        let f = cfg.format;
        let mut r = StreamReader::new(open(cfg));
        let got = collect(&mut r, 30);
        let reps = reports(&got);
        assert!(reps.len() >= 10, "exponent {e}: {} reports", reps.len());
        let ts: Vec<u64> = reps.iter().map(|b| field(f, "TIME_STAMP", b)).collect();
        for w in ts.windows(2) {
            assert_eq!(
                (w[1] as u32).wrapping_sub(w[0] as u32),
                1 << (e + 1),
                "exponent {e}: {ts:?}"
            );
        }
        assert_eq!(r.counts().losses(), 0);
    }
}

/// IGT `oa-formats`: every format of the project gives reports of its size
/// with a rising timestamp, on HSW, BDW and TGL.
#[test]
fn oa_formats() {
    for p in [&hal::hsw::PROJECT, &hal::bdw::PROJECT, &hal::tgl::PROJECT] {
        for f in p.formats {
            let Some(ts) = f.counter("TIME_STAMP") else {
                continue;
            };
            let mut cfg = StreamConfig::new(Framing::I915Records, f);
            cfg.exponent = 5;
            cfg.ticks_per_read = 64 * 8;
            let mut r = StreamReader::new(EmulatedStream::open(emulator(p), cfg).expect("open"));
            let got = collect(&mut r, 4);
            let reps = reports(&got);
            assert!(reps.len() >= 20, "{} {}: {}", p.name, f.name, reps.len());
            let mut last = None;
            for b in reps {
                assert_eq!(b.len(), f.size, "{} {}", p.name, f.name);
                let t = ts.read(b).expect("timestamp");
                if let Some(l) = last {
                    assert!(t > l, "{} {}: {t} after {l}", p.name, f.name);
                }
                last = Some(t);
            }
        }
    }
}

/// IGT `non-zero-reason`: every timer report carries a report reason (TGL
/// RPT_ID bits 25:19, the timer bit 19).
#[test]
fn non_zero_reason() {
    let cfg = tgl_cfg(Framing::I915Records);
    let f = cfg.format;
    let mut r = StreamReader::new(open(cfg));
    let got = collect(&mut r, 5);
    let reps = reports(&got);
    assert!(reps.len() >= 30);
    for b in reps {
        let rpt = field(f, "RPT_ID", b);
        let reason = (rpt >> 19) & 0x7F;
        assert_ne!(reason, 0, "RPT_ID {rpt:#x}");
        assert_eq!(reason & 1, 1, "timer reason in {rpt:#x}");
    }
}

/// IGT `short-reads`: a buffer shorter than one record gives ENOSPC; the
/// reader grows its buffer, counts it, and loses nothing.
#[test]
fn short_reads() {
    let cfg = tgl_cfg(Framing::I915Records);
    let rs = cfg.format.size;
    let mut s = open(cfg);
    s.advance_reports(4);
    let mut small = vec![0u8; rs + 8 - 1];
    let e = s.read(&mut small).unwrap_err();
    assert_eq!(e.errno(), Some(code::ENOSPC), "{e}");
    assert!(e.to_string().contains("larger buffer"), "{e}");
    // Exactly one record's room: exactly one record.
    let mut one = vec![0u8; rs + 8];
    assert_eq!(s.read(&mut one).unwrap(), rs + 8);
    assert_eq!(&one[..4], &1u32.to_le_bytes(), "a SAMPLE header");
    assert_eq!(&one[6..8], &((rs + 8) as u16).to_le_bytes());
    // One and a half records' room: still one whole record.
    let mut odd = vec![0u8; (rs + 8) * 3 / 2];
    assert_eq!(s.read(&mut odd).unwrap(), rs + 8);

    let f = s.config().format;
    let mut r = StreamReader::with_buffer(s, 17, 1 << 20);
    let got = collect(&mut r, 10);
    assert!(r.counts().buffer_grown >= 1);
    let ts: Vec<u64> = reports(&got)
        .iter()
        .map(|b| field(f, "TIME_STAMP", b))
        .collect();
    assert!(ts.len() > 50);
    assert!(ts.windows(2).all(|w| w[1] - w[0] == 1024), "no gaps");
    assert_eq!(r.counts().losses(), 0);
}

/// IGT `buffer-fill`: reports not read in time overflow the OA buffer: a
/// buffer-lost record, then reports again at the period.
#[test]
fn buffer_fill() {
    for framing in [Framing::I915Records, Framing::XeRaw] {
        let mut cfg = tgl_cfg(framing);
        cfg.buffer_size = 128 << 10; // 512 reports of 256 bytes
        cfg.exponent = 5; // every 64 ticks
        cfg.ticks_per_read = 64 * 16;
        let f = cfg.format;
        let mut s = open(cfg);
        s.advance_reports(2000);
        let mut r = StreamReader::new(s);
        let got = collect(&mut r, 4);
        assert_eq!(got[0], Got::BufferLost, "{framing:?}: {:?}", &got[..2]);
        assert!(r.counts().buffer_lost >= 1, "{framing:?}");
        let reps = reports(&got);
        assert!(reps.len() >= 40, "{framing:?}: {}", reps.len());
        let ts: Vec<u64> = reps.iter().map(|b| field(f, "TIME_STAMP", b)).collect();
        assert!(
            ts.windows(2).all(|w| w[1] - w[0] == 64),
            "{framing:?}: {ts:?}"
        );
        assert_eq!(r.stream().stats().buffer_lost, r.counts().buffer_lost);
    }
}

/// IGT `enable-disable`: a disabled stream takes no reports; i915 refuses
/// to read it (EIO), Xe gives what is left and then nothing.
#[test]
fn enable_disable() {
    let mut cfg = tgl_cfg(Framing::I915Records);
    cfg.disabled = true;
    let f = cfg.format;
    let mut s = open(cfg);
    let mut buf = vec![0u8; 1 << 16];
    let e = s.read(&mut buf).unwrap_err();
    assert_eq!(e.errno(), Some(code::EIO));
    assert!(e.to_string().contains("disabled"), "{e}");
    s.enable().unwrap();
    let mut r = StreamReader::new(s);
    let first = collect(&mut r, 3);
    assert!(reports(&first).len() >= 16, "{}", first.len());
    r.stream_mut().disable().unwrap();
    let before = r.stream().emulator().unit::<OaUnit>().stats().unwrap();
    r.stream_mut().advance_reports(100);
    let after = r.stream().emulator().unit::<OaUnit>().stats().unwrap();
    assert_eq!(
        before.timer_reports, after.timer_reports,
        "no reports while disabled"
    );
    assert_eq!(r.next().unwrap_err().errno(), Some(code::EIO));
    // Enabled again: a fresh buffer, reports at the period.
    let mut s = r.into_inner();
    s.enable().unwrap();
    let mut r = StreamReader::new(s);
    let again = collect(&mut r, 3);
    let ts: Vec<u64> = reports(&again)
        .iter()
        .map(|b| field(f, "TIME_STAMP", b))
        .collect();
    assert!(ts.len() >= 16 && ts.windows(2).all(|w| w[1] - w[0] == 1024));

    // Xe: disabled, the reports taken are still read, then EAGAIN.
    let mut s = open(tgl_cfg(Framing::XeRaw));
    s.advance_reports(10);
    s.disable().unwrap();
    let mut r = StreamReader::new(s);
    let left = drain(&mut r);
    assert!(reports(&left).len() >= 10);
    assert_eq!(drain(&mut r), vec![], "nothing new while disabled");
    assert_eq!(r.next().unwrap(), None);
}

/// IGT `polling`: poll() says when a read has reports; `blocking`: a poll
/// without timeout waits (in emulated time) for the next report.
#[test]
fn polling_and_blocking() {
    let mut cfg = tgl_cfg(Framing::I915Records);
    cfg.ticks_per_read = 300; // under one period (1024)
    let mut r = StreamReader::new(open(cfg));
    let mut total = 0;
    let mut empty_polls = 0;
    for _ in 0..40 {
        if r.wait(Some(std::time::Duration::from_millis(1))).unwrap() {
            let n = reports(&drain(&mut r)).len();
            assert!(n >= 1, "poll said readable");
            total += n;
        } else {
            empty_polls += 1;
            assert_eq!(r.next().unwrap(), None, "poll said nothing");
        }
    }
    assert!(
        total >= 10 && empty_polls >= 1,
        "{total} reports, {empty_polls} empty polls"
    );

    let mut cfg = tgl_cfg(Framing::I915Records);
    cfg.ticks_per_read = 0; // only the blocking poll moves time
    let mut s = open(cfg);
    let mut buf = vec![0u8; 1 << 16];
    assert_eq!(s.read(&mut buf).unwrap_err().errno(), Some(code::EAGAIN));
    assert!(!s.poll(Some(std::time::Duration::ZERO)).unwrap());
    let t0 = s.emulator().now();
    assert!(s.poll(None).unwrap(), "blocking poll returns with a report");
    assert!(s.emulator().now() > t0);
    assert!(s.read(&mut buf).unwrap() >= 264);
}

/// The OA unit's report-lost status (two reports in one tick) becomes an
/// OA_REPORT_LOST record (i915) or the REPORT_LOST status (Xe).
#[test]
fn report_lost_from_the_oa_unit() {
    for framing in [Framing::I915Records, Framing::XeRaw] {
        let mut s = open(tgl_cfg(framing));
        let mut lost = false;
        for i in 0..4096 {
            s.advance(1);
            let id = 0x1000 + i;
            if s.emulator_mut().unit_mut::<OaUnit>().set_context(id) == ReportOutcome::Lost {
                lost = true;
                break;
            }
        }
        assert!(lost, "a context switch at a timer tick is lost");
        let mut r = StreamReader::new(s);
        let got = collect(&mut r, 2);
        assert!(got.contains(&Got::ReportLost), "{framing:?}");
        assert_eq!(r.counts().report_lost, 1, "{framing:?}");
        assert!(reports(&got).len() >= 2);
    }
}

/// Every injected loss and errno reaches the caller through the reader.
#[test]
fn injected_losses_and_errors_reach_the_reader() {
    // i915: losses as records, EINTR retried, ENOSPC grows the buffer.
    let mut s = open(tgl_cfg(Framing::I915Records));
    s.inject(0, Fault::Errno(code::EINTR));
    s.inject(1, Fault::ReportLost);
    s.inject(1, Fault::BufferLost);
    s.inject(2, Fault::Errno(code::ENOSPC));
    s.inject(4, Fault::XeStatus(status::REPORT_LOST));
    let mut r = StreamReader::new(s);
    let got = collect(&mut r, 6);
    let losses: Vec<&Got> = got
        .iter()
        .filter(|g| !matches!(g, Got::Report(_)))
        .collect();
    assert_eq!(
        losses,
        [&Got::ReportLost, &Got::BufferLost, &Got::ReportLost]
    );
    let c = r.counts();
    assert_eq!(
        (c.interrupted, c.buffer_grown, c.report_lost, c.buffer_lost),
        (1, 1, 2, 1)
    );
    assert_eq!(r.stream().stats().faults, 5);
    // Errors that end reading, each with its message.
    for (errno, words) in [
        (code::ENODEV, "gone"),
        (code::EIO, "disabled"),
        (code::EACCES, "perf_stream_paranoid"),
        (code::EINVAL, "refused"),
    ] {
        let mut s = open(tgl_cfg(Framing::I915Records));
        s.inject_next(Fault::Errno(errno));
        let e = StreamReader::new(s).next().unwrap_err();
        assert_eq!(e.errno(), Some(errno));
        assert!(e.to_string().contains(words), "{e}");
    }
    // Xe: losses and the other status bits through EIO and STATUS.
    let mut s = open(tgl_cfg(Framing::XeRaw));
    s.inject(
        1,
        Fault::XeStatus(status::COUNTER_OVERFLOW | status::MMIO_TRG_Q_FULL),
    );
    s.inject(2, Fault::BufferLost);
    let mut r = StreamReader::new(s);
    let got = collect(&mut r, 4);
    assert!(got.contains(&Got::CounterOverflow) && got.contains(&Got::Other));
    assert!(got.contains(&Got::BufferLost));
    let c = r.counts();
    assert_eq!(
        (
            c.status_reads,
            c.counter_overflow,
            c.trigger_queue_full,
            c.buffer_lost
        ),
        (2, 1, 1, 1)
    );
    // An ioctl fault.
    let mut s = open(tgl_cfg(Framing::XeRaw));
    s.inject_ioctl(code::ENODEV);
    assert_eq!(s.status().unwrap_err().errno(), Some(code::ENODEV));
    assert_eq!(s.status(), Ok(0));
}

/// Errors at open, as the kernel gives them.
#[test]
fn open_errors() {
    let mut cfg = tgl_cfg(Framing::I915Records);
    cfg.open_errno = Some(code::EACCES);
    let e = EmulatedStream::open(emulator(&hal::tgl::PROJECT), cfg).unwrap_err();
    assert!(
        e.to_string()
            .contains("sysctl dev.i915.perf_stream_paranoid=0"),
        "{e}"
    );
    cfg.open_errno = None;
    cfg.exponent = 40;
    let e = EmulatedStream::open(emulator(&hal::tgl::PROJECT), cfg).unwrap_err();
    assert_eq!(e.errno(), Some(code::EINVAL));
    assert!(e.to_string().contains("OA_EXPONENT=40"), "{e}");
    cfg.exponent = 9;
    cfg.buffer_size = 1000;
    let e = EmulatedStream::open(emulator(&hal::tgl::PROJECT), cfg).unwrap_err();
    assert!(e.to_string().contains("buffer size 1000"), "{e}");
    // A HSW format on TGL.
    let cfg = StreamConfig::new(
        Framing::I915Records,
        format(&hal::hsw::PROJECT, "A45_B8_C8"),
    );
    let e = EmulatedStream::open(emulator(&hal::tgl::PROJECT), cfg).unwrap_err();
    assert!(e.to_string().contains("not a format of tgl"), "{e}");
    // SNB and IVB have no OA stream under Linux.
    for p in [&hal::snb::PROJECT, &hal::ivb::PROJECT] {
        let cfg = StreamConfig::new(Framing::I915Records, p.formats[0]);
        let e = EmulatedStream::open(emulator(p), cfg).unwrap_err();
        assert_eq!(e.errno(), Some(code::ENODEV), "{}", p.name);
        assert!(e.to_string().contains("SNB, IVB and VLV"), "{e}");
    }
}

/// The two framings carry the same reports byte for byte.
#[test]
fn i915_and_xe_framings_carry_the_same_reports() {
    let mut a = StreamReader::new(open(tgl_cfg(Framing::I915Records)));
    let mut b = StreamReader::new(open(tgl_cfg(Framing::XeRaw)));
    let ga = collect(&mut a, 5);
    let gb = collect(&mut b, 5);
    assert!(ga.len() >= 30);
    assert_eq!(ga, gb);
}

/// No call sequence panics (HSW, BDW, TGL; both framings; odd buffers).
#[test]
fn never_panics() {
    let mut x = perfregs_testkit::XorShift(perfregs_testkit::XorShift::SEED);
    let mut rnd = move |n: u64| x.below(n);
    for p in [&hal::hsw::PROJECT, &hal::bdw::PROJECT, &hal::tgl::PROJECT] {
        for framing in [Framing::I915Records, Framing::XeRaw] {
            let f = p.formats[rnd(p.formats.len() as u64) as usize];
            let mut cfg = StreamConfig::new(framing, f);
            cfg.buffer_size = 128 << 10;
            cfg.exponent = rnd(12);
            cfg.ticks_per_read = rnd(5000);
            let Ok(mut s) = EmulatedStream::open(emulator(p), cfg) else {
                continue;
            };
            let mut buf = vec![0u8; 1 << 16];
            for _ in 0..300 {
                let _ = match rnd(9) {
                    0 => s.enable().map(drop),
                    1 => s.disable().map(drop),
                    2 => s.status().map(drop),
                    3 => s.poll(Some(std::time::Duration::ZERO)).map(drop),
                    4 => {
                        s.advance(rnd(1 << 20));
                        Ok(())
                    }
                    5 => {
                        let faults = [
                            Fault::Errno(rnd(200) as i32),
                            Fault::ReportLost,
                            Fault::BufferLost,
                            Fault::XeStatus(rnd(1 << 8)),
                        ];
                        s.inject(s.stats().reads + rnd(3), faults[rnd(4) as usize]);
                        Ok(())
                    }
                    _ => {
                        let len = rnd(buf.len() as u64 + 1) as usize;
                        s.read(&mut buf[..len]).map(drop)
                    }
                };
            }
            // And a reader on what is left.
            let mut r = StreamReader::with_buffer(s, 1, 1 << 20);
            for _ in 0..10 {
                match r.next() {
                    Err(StreamError::Framing(e)) => {
                        panic!("framing error from the emulated kernel: {e}")
                    }
                    Err(_) | Ok(None) => break,
                    Ok(Some(_)) => {}
                }
            }
        }
    }
}

/// The same i915 open properties drive the emulated stream.
#[test]
fn i915_params_open_the_emulated_stream() {
    use perfregs_linux::stream::i915::I915Params;
    let p = &hal::tgl::PROJECT;
    let params = I915Params::new(1, 10, 7); // A32u40_A4u32_B8_C8, 256 ticks
    let cfg = StreamConfig::from_i915(p, &params).unwrap();
    assert_eq!(
        (cfg.format.size, cfg.exponent, cfg.disabled),
        (256, 7, true)
    );
    let mut s = EmulatedStream::open(emulator(p), cfg).unwrap();
    s.enable().unwrap();
    s.advance_reports(5);
    let mut r = StreamReader::new(s);
    let got = drain(&mut r);
    let ts: Vec<u64> = reports(&got)
        .iter()
        .map(|b| field(cfg.format, "TIME_STAMP", b))
        .collect();
    assert_eq!(ts.len(), 5);
    assert!(ts.windows(2).all(|w| w[1] - w[0] == 256), "{ts:?}");
    // A HSW-only format on TGL.
    let e = StreamConfig::from_i915(p, &I915Params::new(1, 5, 7)).unwrap_err();
    assert!(
        e.to_string().contains("A45_B8_C8: not a format of tgl"),
        "{e}"
    );
}

/// Report reasons and context ids as the OA unit writes them (the checks
/// `non-zero-reason` makes of the reason field, applied to context-switch
/// reports): a context switch writes a report with the context-switch
/// reason (TGL RPT_ID bit 22), the new context's id and the context-valid
/// bit (16); timer reports after it carry the same id.
#[test]
fn context_switch_reports_carry_reason_and_id() {
    let cfg = tgl_cfg(Framing::I915Records);
    let f = cfg.format;
    let mut s = open(cfg);
    s.advance(100);
    let out = s
        .emulator_mut()
        .unit_mut::<OaUnit>()
        .set_context(0x00AB_C000);
    assert!(matches!(out, ReportOutcome::Written { .. }), "{out:?}");
    s.advance_reports(3);
    let mut r = StreamReader::new(s);
    let got = drain(&mut r);
    let reps = reports(&got);
    assert!(reps.len() >= 4, "{}", reps.len());
    let rpt = |b: &[u8]| field(f, "RPT_ID", b);
    let ctx = |b: &[u8]| field(f, "CTX_ID", b);
    let switch: Vec<&&[u8]> = reps.iter().filter(|b| rpt(b) & (1 << 22) != 0).collect();
    assert_eq!(switch.len(), 1, "one context-switch report");
    assert_eq!(ctx(switch[0]), 0x00AB_C000);
    assert_ne!(rpt(switch[0]) & (1 << 16), 0, "context valid");
    let last = reps.last().unwrap();
    assert_eq!(
        (ctx(last), rpt(last) >> 19 & 1),
        (0x00AB_C000, 1),
        "a timer report in the context"
    );
}

/// The CTX_ID dword of TGL's A32u40_A4u32_B8_C8 report.
fn ctx_id(report: &[u8]) -> u32 {
    let slot = format(&hal::tgl::PROJECT, "A32u40_A4u32_B8_C8")
        .counter("CTX_ID")
        .expect("a CTX_ID field");
    let at = slot.offset as usize;
    u32::from_le_bytes(report[at..at + 4].try_into().expect("4 bytes"))
}

/// A context filter (i915 `CTX_HANDLE`, xe `EXEC_QUEUE_ID`) forwards only
/// the reports of that context while the client runs two in turn; without
/// it, both contexts' reports come. The properties the kernel saw name it;
/// xe refuses exec queue 0 (`ENOENT`), i915 takes context 0.
#[test]
fn a_context_filter_forwards_only_that_contexts_reports() {
    use perfregs_linux::emulated::ContextRun;
    let run = ContextRun {
        ids: [0x11, 0x22],
        ticks: 8 << 10,
    };
    let mut seen = Vec::new();
    for filter in [None, Some(0x22)] {
        let mut cfg = tgl_cfg(Framing::I915Records);
        cfg.clients = Some(run);
        cfg.context = filter;
        let mut r = StreamReader::new(open(cfg));
        let got = collect(&mut r, 40);
        let ids: std::collections::BTreeSet<u32> =
            reports(&got).iter().map(|b| ctx_id(b)).collect();
        let stats = r.stream().stats();
        match filter {
            None => {
                assert_eq!(ids, [0x11, 0x22].into(), "both contexts");
                assert_eq!(stats.reports_filtered, 0);
            }
            Some(c) => {
                assert_eq!(ids, [c].into(), "only the filtered context");
                assert!(stats.reports_filtered > 0, "{stats:?}");
            }
        }
        seen.push(reports(&got).len());
    }
    assert!(seen[1] < seen[0], "{seen:?}");
    // xe numbers exec queues from 1; the message names the property.
    let mut cfg = tgl_cfg(Framing::XeRaw);
    cfg.context = Some(0);
    let e = EmulatedStream::open(emulator(&hal::tgl::PROJECT), cfg).expect_err("ENOENT");
    assert_eq!(e.errno(), Some(code::ENOENT), "{e}");
    assert!(e.to_string().contains("EXEC_QUEUE_ID=0"), "{e}");
    let mut cfg = tgl_cfg(Framing::I915Records);
    cfg.context = Some(0);
    let s = EmulatedStream::open(emulator(&hal::tgl::PROJECT), cfg).expect("i915 context 0");
    assert_eq!(s.config().context, Some(0));
}
