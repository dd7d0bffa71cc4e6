//! Reading reports out of a circular OA buffer: iteration from head to tail,
//! wrap-around, reports straddling the end of the buffer, deltas and rates, on
//! hand-built buffers written through each format's counter slots.

use perfregs::hal::bdw::reports::A32u40A4u32B8C8;
use perfregs::hal::hsw::reports::{A29B8C8, A45B8C8};
use perfregs::hal::meta::CounterSlot;
use perfregs::hal::oa_buffer::{
    available, counter_delta, reports_between, timestamp32, OaBuffer, ReportDelta, Summary,
    MAX_REPORT_SIZE,
};
use perfregs::hal::{bdw, hsw, snb, tgl, FormatVisitor, Report, ReportFormat};

fn slot<F: ReportFormat>(name: &str) -> &'static CounterSlot {
    F::INFO
        .counter(name)
        .unwrap_or_else(|| panic!("{} has no {name}", F::INFO.name))
}

/// Write counter `name` of the report at `base` in the ring `mem`, wrapping
/// bytes past the end to the start of the buffer like the hardware does.
fn put<F: ReportFormat>(mem: &mut [u8], base: usize, name: &str, v: u64) {
    let s = slot::<F>(name);
    let len = mem.len();
    let mut write = |off: u32, bytes: &[u8]| {
        for (i, b) in bytes.iter().enumerate() {
            mem[(base + off as usize + i) % len] = *b;
        }
    };
    match s.high_byte_offset {
        Some(h) => {
            write(s.offset, &(v as u32).to_le_bytes());
            write(h, &[(v >> 32) as u8]);
        }
        None => {
            let n = (s.bits as usize).div_ceil(8);
            write(s.offset, &v.to_le_bytes()[..n]);
        }
    }
}

/// A distinct value for counter `i` of report `k`, fitting the slot.
fn value(k: usize, i: usize, s: &CounterSlot) -> u64 {
    let v = 0x0100_0000u64 * (k as u64 + 1) + 0x1_0001 * i as u64 + 7;
    match s.high_byte_offset {
        Some(_) => v | (((i + k) as u64 % 250 + 1) << 32),
        None if s.bits >= 64 => v | (k as u64 + 3) << 40,
        None => v & ((1u64 << s.bits) - 1),
    }
}

/// Fill every counter of the report at `base` with `value(k, ..)`.
fn fill<F: ReportFormat>(mem: &mut [u8], base: usize, k: usize) {
    for (i, s) in F::INFO.counters.iter().enumerate() {
        put::<F>(mem, base, s.name, value(k, i, s));
    }
}

/// Every counter of `r` holds `value(k, ..)`.
fn check<F: ReportFormat>(r: &Report<'_, F>, k: usize) {
    for (i, s) in F::INFO.counters.iter().enumerate() {
        assert_eq!(
            r.counter(s.name),
            Some(value(k, i, s)),
            "{} report {k}: {}",
            F::INFO.name,
            s.name
        );
    }
}

#[test]
fn iterates_from_head_to_tail() {
    let mut mem = vec![0u8; 16 * 256];
    for k in 0..16 {
        fill::<A45B8C8>(&mut mem, k * 256, k);
    }
    let buf = OaBuffer::new(&mem);
    assert_eq!((buf.len(), buf.available(512, 1536)), (4096, 1024));
    let mut it = buf.reports::<A45B8C8>(512, 1536);
    assert_eq!(it.size_hint(), (0, Some(4)));
    let got: Vec<_> = it.by_ref().collect();
    assert_eq!(it.head(), 1536);
    assert_eq!(
        got.iter().map(|r| r.offset()).collect::<Vec<_>>(),
        [512, 768, 1024, 1280]
    );
    for (r, k) in got.iter().zip(2..) {
        assert!(!r.straddles());
        check(&r.view(), k);
        // Zero copy: the view borrows the buffer itself.
        let b = r.borrowed().expect("not straddling");
        assert!(std::ptr::eq(b.bytes().as_ptr(), mem[r.offset()..].as_ptr()));
        assert_eq!(r.bytes(), &mem[r.offset()..r.offset() + 256]);
    }
    // The whole buffer: head 0, tail = size.
    assert_eq!(reports_between::<A45B8C8>(&mem, 0, 4096).count(), 16);
}

#[test]
fn wraps_when_tail_is_before_head() {
    let mut mem = vec![0u8; 8 * 256];
    for k in 0..8 {
        fill::<A45B8C8>(&mut mem, k * 256, k);
    }
    let mut it = reports_between::<A45B8C8>(&mem, 6 * 256, 2 * 256);
    let got: Vec<_> = it.by_ref().collect();
    assert_eq!(
        got.iter().map(|r| r.offset()).collect::<Vec<_>>(),
        [1536, 1792, 0, 256]
    );
    for (r, k) in got.iter().zip([6, 7, 0, 1]) {
        check(&r.view(), k);
    }
    assert_eq!(it.head(), 512);
    // Head at the very end counts as the start.
    let from_end: Vec<_> = reports_between::<A45B8C8>(&mem, 2048, 512)
        .map(|r| r.offset())
        .collect();
    assert_eq!(from_end, [0, 256]);
}

#[test]
fn reassembles_a_report_straddling_the_end() {
    // 128 KiB is not a multiple of 192: the report at 682 * 192 = 130944 has
    // 128 bytes before the end of the buffer and 64 after its start.
    const SIZE: usize = 128 * 1024;
    let mut mem = vec![0u8; SIZE];
    let head = 130_944 - 192;
    for k in 0..4 {
        fill::<A29B8C8>(&mut mem, (head + k * 192) % SIZE, k);
    }
    let tail = (head + 4 * 192) % SIZE;
    assert_eq!((tail, available(head, tail, SIZE)), (448, 768));
    let got: Vec<_> = reports_between::<A29B8C8>(&mem, head, tail).collect();
    let where_: Vec<_> = got.iter().map(|r| (r.offset(), r.straddles())).collect();
    assert_eq!(
        where_,
        [(130_752, false), (130_944, true), (64, false), (256, false)]
    );
    for (k, r) in got.iter().enumerate() {
        check(&r.view(), k);
    }
    // The reassembled copy holds the two pieces, in order.
    let straddling = &got[1];
    assert!(straddling.borrowed().is_none());
    let mut expect = mem[130_944..].to_vec();
    expect.extend_from_slice(&mem[..64]);
    assert_eq!(straddling.bytes(), &expect[..]);
    // Its counters sit on both sides of the end: RPT_ID before, C7 after.
    assert_eq!(
        straddling.view().rpt_id(),
        Some(value(1, 0, slot::<A29B8C8>("RPT_ID")) as u32)
    );
    let c7 = A29B8C8::INFO
        .counters
        .iter()
        .position(|c| c.name == "C7")
        .expect("C7");
    assert_eq!(
        straddling.view().c(7),
        Some(value(1, c7, &A29B8C8::INFO.counters[c7]))
    );
    // Deltas across the straddling report.
    let d = ReportDelta::between(&got[0].view(), &straddling.view());
    assert_eq!(d.a(0), Some(0x0100_0000));
    assert_eq!(d.c(7), Some(0x0100_0000));
}

#[test]
fn empty_when_head_equals_tail() {
    let mut mem = vec![0u8; 1024];
    fill::<A45B8C8>(&mut mem, 0, 0);
    for at in [0, 100, 256, 1023, 1024] {
        assert_eq!(available(at, at, 1024), 0);
        assert_eq!(reports_between::<A45B8C8>(&mem, at, at).count(), 0, "{at}");
    }
    // Less than one report between head and tail: nothing either.
    assert_eq!(reports_between::<A45B8C8>(&mem, 0, 255).count(), 0);
    assert_eq!(reports_between::<A45B8C8>(&mem, 900, 100).count(), 0);
    // A trailing partial report is left for later.
    let mut it = reports_between::<A45B8C8>(&mem, 0, 600);
    assert_eq!(it.by_ref().count(), 2);
    assert_eq!(it.head(), 512);
}

#[test]
fn out_of_range_head_or_tail_yields_nothing() {
    let mem = vec![0xFFu8; 1024];
    for (head, tail) in [
        (1025, 0),
        (0, 1025),
        (2048, 4096),
        (usize::MAX, 0),
        (0, usize::MAX),
        (usize::MAX, usize::MAX),
        (usize::MAX - 100, 512),
    ] {
        assert_eq!(available(head, tail, mem.len()), 0);
        assert_eq!(
            reports_between::<A45B8C8>(&mem, head, tail).count(),
            0,
            "{head} {tail}"
        );
        assert_eq!(reports_between::<A29B8C8>(&mem, head, tail).count(), 0);
    }
    // No memory at all; a buffer smaller than one report.
    assert_eq!(reports_between::<A45B8C8>(&[], 0, 0).count(), 0);
    assert_eq!(reports_between::<A45B8C8>(&mem[..100], 0, 100).count(), 0);
    assert_eq!(reports_between::<A45B8C8>(&mem[..100], 50, 40).count(), 0);
}

perfregs::regdefs!(mod big, r#"
block: oa_buffer_test
space: mmio
source: tests/all/oa_buffer.rs
registers: [ { name: OA_CTL, projects: tgl, address: 0x2B00 } ]
report_formats:
  - { name: HUGE, projects: tgl, select: 1, size: 1024, layout: [
      { name: RPT_ID, offset: 0x0, bits: 32 },
      { name: TIME_STAMP, offset: 0x4, bits: 32 } ] }
"#);

// HUGE is 1024 bytes: over MAX_REPORT_SIZE (640 since the 576-byte
// PEC64U64 reports of Xe2; the test's first line says whether it still is).
#[test]
fn formats_over_the_maximum_size_yield_nothing() {
    use big::tgl::reports::Huge;
    assert!(Huge::INFO.size > MAX_REPORT_SIZE);
    let mem = vec![1u8; 4096];
    assert_eq!(reports_between::<Huge>(&mem, 0, 4096).count(), 0);
    assert_eq!(reports_between::<Huge>(&mem, 3900, 3000).count(), 0);
    let mut s = Summary::<Huge>::new(1000.0);
    if let Some(r) = Report::<Huge>::new(&mem) {
        s.push(&r);
        s.push(&r);
    }
    assert_eq!((s.reports(), s.ticks()), (0, None));
}

#[test]
fn reads_reports_at_unaligned_offsets() {
    let mut mem = vec![0u8; 1000];
    for k in 0..3 {
        fill::<A45B8C8>(&mut mem, (3 + 900 + k * 256) % 1000, k);
    }
    // 903, 1159 % 1000 = 159 (straddles: 97 + 159 bytes), 415.
    let got: Vec<_> = reports_between::<A45B8C8>(&mem, 903, 671).collect();
    let where_: Vec<_> = got.iter().map(|r| (r.offset(), r.straddles())).collect();
    assert_eq!(where_, [(903, true), (159, false), (415, false)]);
    for (k, r) in got.iter().enumerate() {
        check(&r.view(), k);
    }
}

#[test]
fn deltas_wrap_at_each_counters_width() {
    type F = A32u40A4u32B8C8;
    assert_eq!((slot::<F>("A0").bits, slot::<F>("A32").bits), (40, 32));
    let mut mem = vec![0u8; 512];
    let writes: [(&str, u64, u64); 8] = [
        ("TIME_STAMP", 0xFFFF_FFF0, 0x10),
        ("GPU_TICKS", 0xFFFF_FF00, 0x100),
        ("A0", (1 << 40) - 10, 5),
        ("A1", (1 << 40) - 1, 0),
        ("A31", 0x12_0000_0000, 0x13_0000_0001),
        ("A32", 0xFFFF_FFFF, 2),
        ("B0", 10, 10),
        ("C7", 7, 3),
    ];
    for (name, a, b) in writes {
        put::<F>(&mut mem, 0, name, a);
        put::<F>(&mut mem, 256, name, b);
    }
    let r: Vec<_> = reports_between::<F>(&mem, 0, 512).collect();
    let d = ReportDelta::between(&r[0].view(), &r[1].view());
    assert_eq!(d.timestamp, Some(0x20));
    assert_eq!(d.gpu_ticks, Some(0x200));
    assert_eq!(d.a(0), Some(15));
    assert_eq!(d.a(1), Some(1));
    assert_eq!(d.a(31), Some(0x1_0000_0001));
    assert_eq!(d.a(32), Some(3));
    assert_eq!(d.a(35), Some(0));
    assert_eq!((d.a(36), d.a(63), d.a(64)), (None, None, None));
    assert_eq!(d.b(0), Some(0));
    assert_eq!(d.c(7), Some((1 << 32) - 4));
    assert_eq!((d.b(8), d.c(100)), (None, None));
    assert_eq!(counter_delta((1 << 40) - 10, 5, 40), 15);

    // HSW: TIME_STAMP is described as 64 bits over dwords 1-2, but only
    // dword 1 counts; the deltas use 32 bits and formats without GPU_TICKS
    // give none.
    let mut mem = vec![0u8; 512];
    put::<A45B8C8>(&mut mem, 0, "TIME_STAMP", 0xAB_FFFF_FFF0);
    put::<A45B8C8>(&mut mem, 256, "TIME_STAMP", 0xCD_0000_0010);
    let r: Vec<_> = reports_between::<A45B8C8>(&mem, 0, 512).collect();
    assert_eq!(r[0].view().timestamp(), Some(0xAB_FFFF_FFF0));
    assert_eq!(timestamp32(&r[0].view()), Some(0xFFFF_FFF0));
    let d = ReportDelta::between(&r[0].view(), &r[1].view());
    assert_eq!((d.timestamp, d.gpu_ticks), (Some(0x20), None));
    assert_eq!((d.a(44), d.a(45)), (Some(0), None));
}

#[test]
fn summary_gives_rates_per_second() {
    type F = A32u40A4u32B8C8;
    let mut mem = vec![0u8; 4 * 256];
    // Timestamps and A0 wrap between the first two reports (to 1: a zero
    // timestamp is an unwritten report).
    let stamps = [(1u64 << 32) - 1000, 1, 1000, 3000];
    let a0 = [(1u64 << 40) - 100, 0, 300, 700];
    let gpu = [0u64, 4000, 8000, 16000];
    for k in 0..4 {
        put::<F>(&mut mem, k * 256, "TIME_STAMP", stamps[k]);
        put::<F>(&mut mem, k * 256, "A0", a0[k]);
        put::<F>(&mut mem, k * 256, "GPU_TICKS", gpu[k]);
        put::<F>(&mut mem, k * 256, "B3", 77);
    }
    let s = Summary::from_reports(reports_between::<F>(&mem, 0, 1024), 1000.0);
    assert_eq!(s.reports(), 4);
    assert_eq!(s.ticks(), Some(4000));
    assert_eq!(s.seconds(), Some(4.0));
    assert_eq!(s.totals().a(0), Some(800));
    assert_eq!(s.a_per_second(0), Some(200.0));
    assert_eq!(s.gpu_ticks_per_second(), Some(4000.0));
    assert_eq!(s.b_per_second(3), Some(0.0));
    assert_eq!(s.c_per_second(7), Some(0.0));
    assert_eq!((s.a_per_second(36), s.b_per_second(9)), (None, None));

    // The same from views pushed one by one.
    let mut t = Summary::<F>::new(1000.0);
    for r in reports_between::<F>(&mem, 0, 1024) {
        t.push(&r.view());
    }
    assert_eq!(t.a_per_second(0), Some(200.0));

    // Not enough to give a rate.
    let one = Summary::from_reports(reports_between::<F>(&mem, 0, 256), 1000.0);
    assert_eq!(
        (one.reports(), one.seconds(), one.a_per_second(0)),
        (1, None, None)
    );
    let no_hz = Summary::from_reports(reports_between::<F>(&mem, 0, 1024), 0.0);
    assert_eq!((no_hz.seconds(), no_hz.a_per_second(0)), (None, None));
    let nan = Summary::from_reports(reports_between::<F>(&mem, 0, 1024), f64::NAN);
    assert_eq!(nan.seconds(), None);
}

/// xorshift64*: a small deterministic generator.
use perfregs_testkit::Rng;

struct Fuzz {
    rng: Rng,
    formats: usize,
    reports: usize,
    straddled: usize,
}

impl FormatVisitor for Fuzz {
    fn visit<F: ReportFormat>(&mut self) {
        self.formats += 1;
        for _ in 0..200 {
            let len = match self.rng.below(4) {
                0 => self.rng.below(300),
                _ => self.rng.below(3000),
            };
            let mem: Vec<u8> = (0..len).map(|_| self.rng.next() as u8).collect();
            let pick = |rng: &mut Rng| match rng.below(6) {
                0 => usize::MAX - rng.below(1000),
                1 => len + rng.below(500),
                2 => len,
                _ => rng.below(len + 1),
            };
            let head = pick(&mut self.rng);
            let tail = pick(&mut self.rng);
            let size = F::INFO.size;
            let want = match size {
                1..=MAX_REPORT_SIZE => available(head, tail, len) / size,
                _ => 0,
            };
            let mut summary = Summary::<F>::new(12.5e6);
            let mut prev: Option<Vec<u8>> = None;
            let mut expect_offset = head % len.max(1);
            let mut n = 0;
            for r in reports_between::<F>(&mem, head, tail) {
                assert_eq!(
                    r.offset(),
                    expect_offset,
                    "{} {len} {head} {tail}",
                    F::INFO.name
                );
                let bytes: Vec<u8> = (0..size).map(|i| mem[(r.offset() + i) % len]).collect();
                assert_eq!(r.bytes(), &bytes[..]);
                assert_eq!(r.straddles(), r.offset() + size > len);
                self.straddled += usize::from(r.straddles());
                let v = r.view();
                let _ = (v.rpt_id(), v.timestamp(), v.gpu_ticks(), v.a(63), v.c(7));
                if let Some(p) = prev.as_deref().and_then(Report::<F>::new) {
                    let d = ReportDelta::between(&p, &v);
                    let _ = (d.timestamp, d.a(0), d.b(7));
                }
                prev = Some(bytes);
                summary.push(&r);
                expect_offset = (r.offset() + size) % len;
                n += 1;
            }
            assert_eq!(n, want, "{} {len} {head} {tail}", F::INFO.name);
            self.reports += n;
            let _ = (
                summary.seconds(),
                summary.a_per_second(0),
                summary.c_per_second(7),
            );
        }
    }
}

#[test]
fn random_buffers_never_panic() {
    let mut fuzz = Fuzz {
        rng: Rng(0x9E37_79B9_7F4A_7C15),
        formats: 0,
        reports: 0,
        straddled: 0,
    };
    snb::reports::visit_all(&mut fuzz);
    hsw::reports::visit_all(&mut fuzz);
    bdw::reports::visit_all(&mut fuzz);
    tgl::reports::visit_all(&mut fuzz);
    assert!(fuzz.formats > 10, "{}", fuzz.formats);
    assert!(fuzz.reports > 1000, "{}", fuzz.reports);
    assert!(fuzz.straddled > 50, "{}", fuzz.straddled);
}
