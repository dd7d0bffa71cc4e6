//! The mutation run of the recording reader (outside CI): valid recordings
//! damaged again and again with seeded mutations, each read with
//! `catch_unwind` around the reader. Counts panics and errors that are not
//! located (an error must name the byte offset and record index where the
//! good records end: `offset == bytes read`, `index == records read`, its
//! message starting `record <index> at byte <offset>: `), checks a read
//! without error consumed the whole input, and that the stream reader
//! (`RecordingReader` over `io::Read`) gives the same entries and error as
//! the slice reader. Exit code 1 on any panic or
//! unlocated error.
//!
//! Mutations (1 to 3 per recording): bit flips, truncation, a record's
//! size field set to 0, 1, 7, 8, 65535 or a random value, a record's type
//! changed, bytes inserted, bytes deleted, two records swapped, a record
//! duplicated.
//!
//! Run (release, with overflow checks, so an arithmetic overflow is a
//! panic too):
//!
//! ```text
//! CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
//!     cargo run --release -p perfregs-linux --example mutate_recordings -- [COUNT] [SEED]
//! ```
//!
//! (`RUSTFLAGS=-Coverflow-checks=on` does the same.) COUNT defaults to
//! 1,000,000, SEED to 1. The test `recording_mutations` runs 2,000 of them
//! in `cargo test`.

use perfregs_linux::record::Record;
use perfregs_linux::recording::{
    entries, read_all, Correlation, RecordedDevice, RecordingReader, RecordingWriter,
};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// SplitMix64: small, seeded, good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A value in `0..n` (0 when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// A valid recording: `samples` reports of `oa_format` (64- or 256-byte)
/// with losses and correlations among them, closed.
pub fn base_recording(oa_format: u32, samples: usize) -> Vec<u8> {
    let device = RecordedDevice {
        timestamp_frequency: 19_200_000,
        device_id: 0x9A49,
        device_revision: 1,
        gt_min_frequency: 100,
        gt_max_frequency: 1350,
        oa_format,
        metric_set_name: "TestOa".into(),
        metric_set_uuid: "1651949f-0ac0-4cb1-a06f-dafd74a407d1".into(),
        ..Default::default()
    };
    let size = device.report_size().unwrap_or(64);
    let topology: Vec<u8> = (0..40u8).collect();
    let mut w = RecordingWriter::new(Vec::new(), &device, &topology).expect("a valid header");
    let mut t = 1000u64;
    w.correlation(Correlation {
        cpu_ns: t,
        gpu_timestamp: t,
    })
    .expect("written");
    for k in 0..samples {
        let report: Vec<u8> = (0..size).map(|i| (i * 31 + k * 7) as u8).collect();
        w.record(&Record::Sample(&report)).expect("a report");
        match k % 7 {
            3 => w.record(&Record::ReportLost).expect("a loss"),
            5 => w.record(&Record::BufferLost).expect("a loss"),
            6 => {
                t += 100;
                w.correlation(Correlation {
                    cpu_ns: t,
                    gpu_timestamp: t,
                })
                .expect("written")
            }
            _ => {}
        }
    }
    w.finish(Correlation {
        cpu_ns: t + 100,
        gpu_timestamp: t + 100,
    })
    .expect("written")
}

/// Byte offsets of the records of a well-formed `bytes`.
fn boundaries(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let size = usize::from(u16::from_le_bytes([bytes[at + 6], bytes[at + 7]]));
        if size < 8 || at + size > bytes.len() {
            break;
        }
        out.push((at, size));
        at += size;
    }
    out
}

/// Damage `b` once.
pub fn mutate(b: &mut Vec<u8>, rng: &mut Rng) {
    let recs = boundaries(b);
    let rec = |rng: &mut Rng| recs.get(rng.below(recs.len())).copied();
    match rng.below(10) {
        // Bit flips.
        0 | 1 => {
            for _ in 0..=rng.below(4) {
                if !b.is_empty() {
                    let at = rng.below(b.len());
                    b[at] ^= 1 << rng.below(8);
                }
            }
        }
        // Truncation.
        2 => {
            let at = rng.below(b.len() + 1);
            b.truncate(at);
        }
        // A size field.
        3 | 4 => {
            if let Some((at, _)) = rec(rng) {
                let sizes = [0u16, 1, 7, 8, 65535, rng.next_u64() as u16];
                let s = sizes[rng.below(sizes.len())];
                b[at + 6..at + 8].copy_from_slice(&s.to_le_bytes());
            }
        }
        // A type field.
        5 => {
            if let Some((at, _)) = rec(rng) {
                let kinds = [0u32, 1, 2, 3, 4, 65535, 65536, 65537, 65538, 65539, 65540];
                let k = kinds[rng.below(kinds.len())];
                b[at..at + 4].copy_from_slice(&k.to_le_bytes());
            }
        }
        // Inserted bytes.
        6 => {
            let at = rng.below(b.len() + 1);
            let n = 1 + rng.below(16);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            b.splice(at..at, bytes);
        }
        // Deleted bytes.
        7 => {
            if !b.is_empty() {
                let at = rng.below(b.len());
                let n = (1 + rng.below(16)).min(b.len() - at);
                b.drain(at..at + n);
            }
        }
        // Two records swapped.
        8 => {
            if let (Some((a, la)), Some((c, lc))) = (rec(rng), rec(rng)) {
                let (x, lx, y, ly) = if a <= c {
                    (a, la, c, lc)
                } else {
                    (c, lc, a, la)
                };
                if x != y {
                    let mut out = Vec::with_capacity(b.len());
                    out.extend_from_slice(&b[..x]);
                    out.extend_from_slice(&b[y..y + ly]);
                    out.extend_from_slice(&b[x + lx..y]);
                    out.extend_from_slice(&b[x..x + lx]);
                    out.extend_from_slice(&b[y + ly..]);
                    *b = out;
                }
            }
        }
        // A record duplicated, or a record's header moved onto another's.
        _ => {
            if let Some((at, len)) = rec(rng) {
                let copy = b[at..at + len].to_vec();
                let to = recs[rng.below(recs.len())].0;
                b.splice(to..to, copy);
            }
        }
    }
}

/// What a run found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Recordings read.
    pub recordings: u64,
    /// Reads that panicked.
    pub panics: u64,
    /// Errors not located at the end of the good records.
    pub unlocated: u64,
    /// Reads without error that did not consume the whole input.
    pub unconsumed: u64,
    /// Recordings on which the stream reader (`RecordingReader` over
    /// `io::Read`) and the slice reader (`entries`) disagree.
    pub reader_mismatches: u64,
    /// Reads that gave an error.
    pub errors: u64,
    /// Reads without error (the damage left a valid recording).
    pub clean: u64,
    /// Errors by kind (`Framing::ZeroSize`, `Version`, ...).
    pub kinds: std::collections::BTreeMap<String, u64>,
    /// The first problem found, for the report.
    pub first_problem: Option<String>,
}

impl Summary {
    /// No panic, every error located, every clean read whole.
    pub fn ok(&self) -> bool {
        self.panics == 0
            && self.unlocated == 0
            && self.unconsumed == 0
            && self.reader_mismatches == 0
    }
}

/// Damage `count` recordings from `seed` and read each.
pub fn run(seed: u64, count: u64) -> Summary {
    let bases = [
        base_recording(10, 24),
        base_recording(8, 40),
        base_recording(3, 9),
    ];
    let mut rng = Rng::new(seed);
    let mut s = Summary::default();
    for n in 0..count {
        let mut b = bases[(n % bases.len() as u64) as usize].clone();
        for _ in 0..=rng.below(3) {
            mutate(&mut b, &mut rng);
        }
        s.recordings += 1;
        let got = catch_unwind(AssertUnwindSafe(|| {
            let (rec, err) = read_all(&b);
            (rec.bytes, rec.records, err)
        }));
        let same = catch_unwind(AssertUnwindSafe(|| readers_agree(&b)));
        if same.as_ref().map_or(true, |same| !same) {
            s.reader_mismatches += 1;
            if s.first_problem.is_none() {
                s.first_problem = Some(format!(
                    "recording {n}: the stream reader {} the slice reader",
                    if same.is_err() {
                        "panicked, unlike"
                    } else {
                        "disagrees with"
                    }
                ));
            }
        }
        let problem = match got {
            Err(_) => {
                s.panics += 1;
                Some(format!("recording {n}: the reader panicked"))
            }
            Ok((bytes, records, Some(e))) => {
                s.errors += 1;
                let kind = format!("{:?}", e.kind);
                let kind = kind.split(' ').next().unwrap_or("").trim_end_matches(')');
                let kind = kind.replace('(', "::");
                *s.kinds.entry(kind).or_default() += 1;
                let located = e.offset == bytes
                    && e.index == records
                    && e.offset <= b.len() as u64
                    && e.to_string()
                        .starts_with(&format!("record {} at byte {}: ", e.index, e.offset));
                if located {
                    None
                } else {
                    s.unlocated += 1;
                    Some(format!(
                        "recording {n}: error {e} after {records} records / {bytes} bytes"
                    ))
                }
            }
            Ok((bytes, _, None)) => {
                s.clean += 1;
                if bytes == b.len() as u64 {
                    None
                } else {
                    s.unconsumed += 1;
                    Some(format!(
                        "recording {n}: read {bytes} of {} bytes without error",
                        b.len()
                    ))
                }
            }
        };
        if s.first_problem.is_none() {
            s.first_problem = problem;
        }
    }
    s
}

/// Whether [`RecordingReader`] over `io::Read` gives the same entries and
/// error as [`entries`] on the slice.
fn readers_agree(b: &[u8]) -> bool {
    let mut slice = entries(b);
    let mut stream = RecordingReader::new(b);
    loop {
        match (slice.next(), stream.next_entry()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
    }
}

/// Whether arithmetic overflow panics in this build.
fn overflow_checks_on() -> bool {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let on = catch_unwind(|| {
        let x: u8 = std::hint::black_box(255);
        std::hint::black_box(x + 1)
    })
    .is_err();
    std::panic::set_hook(prev);
    on
}

fn main() {
    let mut args = std::env::args().skip(1);
    let parse = |a: Option<String>, default: u64| -> u64 {
        match a {
            None => default,
            Some(a) => a.replace('_', "").parse().unwrap_or_else(|_| {
                eprintln!("mutate_recordings: not a number: {a}");
                std::process::exit(2)
            }),
        }
    };
    let count = parse(args.next(), 1_000_000);
    let seed = parse(args.next(), 1);
    let checks = overflow_checks_on();
    println!(
        "mutate_recordings: {count} recordings, seed {seed}, overflow checks {}",
        if checks {
            "on"
        } else {
            "OFF (see the doc comment)"
        }
    );
    // Panics are counted, not printed one by one.
    std::panic::set_hook(Box::new(|_| {}));
    let t = Instant::now();
    let s = run(seed, count);
    let secs = t.elapsed().as_secs_f64();
    let _ = std::panic::take_hook();
    println!(
        "{} recordings in {secs:.1} s ({:.0}/s): {} errors, {} read clean; {} panics, {} unlocated errors, {} clean reads short of the end, {} stream/slice reader disagreements",
        s.recordings,
        s.recordings as f64 / secs,
        s.errors,
        s.clean,
        s.panics,
        s.unlocated,
        s.unconsumed,
        s.reader_mismatches
    );
    for (k, n) in &s.kinds {
        println!("  {n:>9}  {k}");
    }
    if let Some(p) = &s.first_problem {
        println!("first problem: {p}");
    }
    if !s.ok() {
        std::process::exit(1);
    }
}
