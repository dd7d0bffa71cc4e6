//! Every report format of every project, through its typed view, on a
//! hand-built buffer in which each counter holds a distinct value.

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
    perfregs::hal::snb::reports::visit_all(&mut v);
    perfregs::hal::ivb::reports::visit_all(&mut v);
    perfregs::hal::vlv::reports::visit_all(&mut v);
    perfregs::hal::hsw::reports::visit_all(&mut v);
    perfregs::hal::bdw::reports::visit_all(&mut v);
    perfregs::hal::tgl::reports::visit_all(&mut v);
    // Every format the metadata lists was visited through its type.
    let listed: usize = perfregs::hal::PROJECTS
        .iter()
        .map(|p| p.formats.len())
        .sum();
    assert_eq!(v.formats.len(), listed, "{:?}", v.formats);
    for p in ["snb", "ivb", "vlv", "hsw", "bdw", "tgl"] {
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
