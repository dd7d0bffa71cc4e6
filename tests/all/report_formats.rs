//! Every report format of every project, through its typed view, on a
//! hand-built buffer in which each counter holds a distinct value.

use crate::support;

use perfregs::hal::meta::CounterSlot;
use perfregs::hal::{FormatVisitor, Report, ReportFormat};

/// A distinct value per counter; 40-bit counters use their high byte too.
fn value_for(i: usize, slot: &CounterSlot) -> u64 {
    let base = 0x1000_0000u64 * (i as u64 % 15 + 1) + i as u64;
    match slot.high_byte_offset {
        Some(_) => base | ((i as u64 % 200 + 1) << 32),
        None if slot.bits >= 64 => base | (i as u64) << 40,
        None => base & ((1u64 << slot.bits.min(63)) - 1),
    }
}

fn build<F: ReportFormat>() -> Vec<u8> {
    let mut buf = vec![0u8; F::INFO.size];
    for (i, s) in F::INFO.counters.iter().enumerate() {
        let v = value_for(i, s);
        let o = s.offset as usize;
        match s.high_byte_offset {
            Some(h) => {
                buf[o..o + 4].copy_from_slice(&(v as u32).to_le_bytes());
                buf[h as usize] = (v >> 32) as u8;
            }
            None => {
                let n = (s.bits as usize).div_ceil(8);
                buf[o..o + n].copy_from_slice(&v.to_le_bytes()[..n]);
            }
        }
    }
    buf
}

#[derive(Default)]
struct CheckAll {
    formats: Vec<String>,
}

impl FormatVisitor for CheckAll {
    fn visit<F: ReportFormat>(&mut self) {
        let buf = build::<F>();
        let r = Report::<F>::new(&buf).expect("buffer of the format's size");
        let name = F::INFO.name;
        for (i, s) in F::INFO.counters.iter().enumerate() {
            let want = value_for(i, s);
            assert_eq!(r.counter(s.name), Some(want), "{name}.{}", s.name);
            let (prefix, rest) = s.name.split_at(1);
            if let Ok(n) = rest.parse::<usize>() {
                let got = match prefix {
                    "A" => r.a(n),
                    "B" => r.b(n),
                    "C" => r.c(n),
                    _ => None,
                };
                if matches!(prefix, "A" | "B" | "C") {
                    assert_eq!(got, Some(want), "{name}: typed {}", s.name);
                }
            }
            match s.name {
                "RPT_ID" => assert_eq!(r.rpt_id(), Some(want as u32), "{name}"),
                "TIME_STAMP" => assert_eq!(r.timestamp(), Some(want), "{name}"),
                "CTX_ID" => assert_eq!(r.ctx_id(), Some(want as u32), "{name}"),
                "GPU_TICKS" => assert_eq!(r.gpu_ticks(), Some(want), "{name}"),
                _ => {}
            }
        }
        // The GPU clock: GPU_TICKS where the layout has it, else C2.
        assert_eq!(
            r.gpu_clock(),
            r.gpu_ticks().or_else(|| r.c(2)),
            "{name}: gpu_clock"
        );
        // Every typed index the format does not carry reads None.
        let count = |p: char| {
            F::INFO
                .counters
                .iter()
                .filter(|c| c.name.starts_with(p) && c.name[1..].parse::<u32>().is_ok())
                .count()
        };
        assert_eq!(
            (0..64).filter(|&n| r.a(n).is_some()).count(),
            count('A'),
            "{name}: A"
        );
        assert_eq!(
            (0..64).filter(|&n| r.b(n).is_some()).count(),
            count('B'),
            "{name}: B"
        );
        assert_eq!(
            (0..64).filter(|&n| r.c(n).is_some()).count(),
            count('C'),
            "{name}: C"
        );
        assert!(
            Report::<F>::new(&buf[..buf.len() - 1]).is_none(),
            "{name}: short buffer"
        );
        self.formats.push(format!(
            "{}:{name}",
            <F::Project as perfregs::hal::Project>::NAME
        ));
    }
}

#[test]
fn every_format_of_every_project() {
    let mut v = CheckAll::default();
    support::visit_every_gpu_format(&mut v);
    // Every format the metadata lists was visited through its type.
    let listed = support::listed_formats();
    assert_eq!(v.formats.len(), listed, "{:?}", v.formats);
    // Every GPU project of the catalogue.
    for p in perfregs::hal::PROJECTS
        .iter()
        .filter(|p| p.gpu.is_some())
        .map(|p| p.name)
    {
        assert!(
            v.formats.iter().any(|f| f.starts_with(&format!("{p}:"))),
            "{p} has no report format: {:?}",
            v.formats
        );
    }
}

#[test]
fn hsw_a45_b8_c8_matches_the_driver_layout() {
    use perfregs::hal::hsw::reports::A45B8C8;
    // Mesa/i915 read A0..A44, B0..B7, C0..C7 as consecutive dwords from dword 3.
    let info = A45B8C8::INFO;
    assert_eq!((info.size, info.select), (256, 5));
    for n in 0..45 {
        assert_eq!(
            A45B8C8::A[n].map(|s| s.offset),
            Some(12 + 4 * n as u32),
            "A{n}"
        );
    }
    for n in 0..8 {
        assert_eq!(
            A45B8C8::B[n].map(|s| s.offset),
            Some(12 + 4 * (45 + n) as u32),
            "B{n}"
        );
        assert_eq!(
            A45B8C8::C[n].map(|s| s.offset),
            Some(12 + 4 * (53 + n) as u32),
            "C{n}"
        );
    }
}

/// Which counter each format's GPU clock comes from, and that the views read
/// it there: the report, the buffered report, the delta and the summary.
#[derive(Default)]
struct GpuClockSources {
    seen: Vec<(String, Option<&'static str>)>,
}

impl FormatVisitor for GpuClockSources {
    fn visit<F: ReportFormat>(&mut self) {
        use perfregs::hal::oa_buffer::{OaBuffer, ReportDelta, Summary};
        let project = <F::Project as perfregs::hal::Project>::NAME;
        let name = format!("{project}:{}", F::INFO.name);
        let source = F::GPU_CLOCK.map(|s| s.name);
        // Two reports back to back, the second with the GPU clock 0x10 ahead
        // (wherever the format keeps it).
        let first = build::<F>();
        let mut second = first.clone();
        if let Some(slot) = F::GPU_CLOCK {
            let o = slot.offset as usize;
            let v = u32::from_le_bytes(second[o..o + 4].try_into().expect("dword"));
            second[o..o + 4].copy_from_slice(&v.wrapping_add(0x10).to_le_bytes());
        }
        let buf = [first.clone(), second].concat();
        let r0 = Report::<F>::new(&buf).expect("first report");
        let r1 = Report::<F>::new(&buf[F::INFO.size..]).expect("second report");
        let slot_value = F::GPU_CLOCK.and_then(|s| r0.counter(s.name));
        assert_eq!(r0.gpu_clock(), slot_value, "{name}");
        match source {
            Some("GPU_TICKS") => assert_eq!(r0.gpu_clock(), r0.gpu_ticks(), "{name}"),
            Some("C2") => assert_eq!(r0.gpu_clock(), r0.c(2), "{name}"),
            Some(other) => panic!("{name}: GPU clock from {other}"),
            None => assert_eq!(r0.gpu_clock(), None, "{name}"),
        }
        let buffered: Vec<_> = OaBuffer::new(&buf).reports::<F>(0, buf.len()).collect();
        assert_eq!(buffered.len(), 2, "{name}");
        assert_eq!(buffered[0].gpu_clock(), r0.gpu_clock(), "{name}: buffered");
        let d = ReportDelta::between(&r0, &r1);
        assert_eq!(d.gpu_clock, source.map(|_| 0x10), "{name}: delta");
        // One timestamp tick between the reports, at 1 Hz: 16 clocks a second.
        let mut timed = buf.clone();
        if let Some(ts) = F::TIME_STAMP {
            let o = F::INFO.size + ts.offset as usize;
            let v = u32::from_le_bytes(timed[o..o + 4].try_into().expect("dword"));
            timed[o..o + 4].copy_from_slice(&v.wrapping_add(1).to_le_bytes());
        }
        let summary =
            Summary::<F>::from_reports(OaBuffer::new(&timed).reports::<F>(0, timed.len()), 1.0);
        assert_eq!(summary.gpu_clock_hz(), source.map(|_| 16.0), "{name}: rate");
        self.seen.push((name, source));
    }
}

#[test]
fn gpu_clock_on_every_format_of_every_project() {
    let mut v = GpuClockSources::default();
    support::visit_every_gpu_format(&mut v);
    let listed = support::listed_formats();
    assert_eq!(v.seen.len(), listed);
    for (name, source) in &v.seen {
        let project = &name[..3];
        let want = match project {
            // SNB, IVB, VLV layouts carry neither GPU_TICKS nor C counters.
            "snb" | "ivb" | "vlv" => None,
            // HSW: C2 in every layout with C counters; A13 and A29 have none.
            "hsw" if name.ends_with(":A13") || name.ends_with(":A29") => None,
            "hsw" => Some("C2"),
            // Every BDW+ layout (Gen8 to Gen12) has GPU_TICKS.
            _ => Some("GPU_TICKS"),
        };
        assert_eq!(*source, want, "{name}");
    }
    let with_clock = v.seen.iter().filter(|(_, s)| s.is_some()).count();
    // HSW's 6, and every format of every project from Gen8 on (by the
    // catalogue's generation: the 4 of each Gen8..Gen12 LP project, and
    // those of the projects added later).
    let from_gen8: usize = perfregs::hal::PROJECTS
        .iter()
        .filter(|p| p.gpu.is_some_and(|g| g.generation() >= 8))
        .map(|p| p.formats.len())
        .sum();
    assert!(from_gen8 >= 4 * 14, "{from_gen8}");
    assert_eq!(with_clock, 6 + from_gen8, "{:?}", v.seen);
}
