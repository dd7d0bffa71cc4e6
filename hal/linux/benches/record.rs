//! Writing and reading recordings (IGT's format), in reports per second.
//!
//! - `write`: 4096 SAMPLE records (TGL, 256-byte reports) as
//!   read from a stream, checked and appended by
//!   [`RecordingWriter::stream_bytes`] to an `io::sink` (target: >= 2,000,000
//!   reports/s).
//! - `write_memory`: as `write`, into memory (a 4 MiB buffer written
//!   round and round: the copy is paid, no file system).
//! - `write_file`: as `write`, into a real file through a `BufWriter`
//!   (the page cache: what `perfregs record` pays), rewound every 64 MiB.
//! - `write_records`: the same reports appended one typed record at a time
//!   ([`RecordingWriter::record`]) to an `io::sink`.
//! - `read`: a recording of those reports read back from memory ([`read_all`]).
//! - `read_stream`: the same through [`RecordingReader`] over `io::Read`
//!   (a byte slice: the copy into its record buffer is paid).
//!
//! Run: `cargo bench -p perfregs-linux --bench record` (release).

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use perfregs_linux::record::{records, Record};
use perfregs_linux::recording::{
    read_all, Correlation, RecordedDevice, RecordingReader, RecordingWriter,
};
use std::io;

mod common;
use common::{REPORTS, SIZE};

fn stream() -> Vec<u8> {
    common::stream(|k, r| {
        r[4..8].copy_from_slice(&k.wrapping_mul(128).to_le_bytes());
        r[16..20].copy_from_slice(&k.to_le_bytes());
    })
}

fn device() -> RecordedDevice {
    RecordedDevice {
        timestamp_frequency: 19_200_000,
        device_id: 0x9A49,
        oa_format: 10,
        metric_set_name: "RenderBasic".into(),
        ..Default::default()
    }
}

fn writer<W: io::Write>(out: W) -> RecordingWriter<W> {
    let mut w = RecordingWriter::new(out, &device(), &[0; 16]).expect("header written");
    w.correlation(Correlation::default()).expect("written");
    w
}

/// A recording of [`stream`] in memory, and the reports written into it.
fn recording() -> (u64, Vec<u8>) {
    let mut w = writer(Vec::new());
    let written = w.stream_bytes(&stream()).expect("valid records");
    (written, w.finish(Correlation::default()).expect("written"))
}

#[divan::bench]
fn write(bencher: Bencher) {
    let bytes = stream();
    let mut w = writer(io::sink());
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| w.stream_bytes(black_box(&bytes)).expect("valid records"));
}

/// Memory written round and round (no allocation once made).
struct Memory {
    buf: Vec<u8>,
    at: usize,
}

impl io::Write for Memory {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if self.at + b.len() > self.buf.len() {
            self.at = 0;
        }
        let n = b.len().min(self.buf.len());
        self.buf[self.at..self.at + n].copy_from_slice(&b[..n]);
        self.at += n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[divan::bench]
fn write_memory(bencher: Bencher) {
    let bytes = stream();
    let mut w = writer(Memory {
        buf: vec![0; 4 << 20],
        at: 0,
    });
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| w.stream_bytes(black_box(&bytes)).expect("valid records"));
    assert!(w.get_ref().buf.iter().any(|&b| b != 0), "bytes were copied");
}

/// A file in the temporary folder, rewound to its start every 64 MiB so the
/// bench does not fill the disk.
struct RewoundFile {
    file: std::fs::File,
    at: u64,
}

impl io::Write for RewoundFile {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        use io::Seek;
        if self.at > 64 << 20 {
            self.file.seek(io::SeekFrom::Start(0))?;
            self.at = 0;
        }
        let n = self.file.write(b)?;
        self.at += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

#[divan::bench]
fn write_file(bencher: Bencher) {
    let bytes = stream();
    let path = std::env::temp_dir().join(format!("perfregs-bench-{}.record", std::process::id()));
    let file = std::fs::File::create(&path).expect("a temporary file");
    let mut w = writer(io::BufWriter::with_capacity(
        1 << 20,
        RewoundFile { file, at: 0 },
    ));
    bencher
        .counter(ItemsCount::new(REPORTS))
        .bench_local(|| w.stream_bytes(black_box(&bytes)).expect("valid records"));
    drop(w);
    let _ = std::fs::remove_file(&path);
}

#[divan::bench]
fn write_records(bencher: Bencher) {
    let bytes = stream();
    let recs: Vec<Record<'_>> = records(&bytes, SIZE, 0, 0)
        .collect::<Result<_, _>>()
        .expect("valid records");
    let mut w = writer(io::sink());
    bencher.counter(ItemsCount::new(REPORTS)).bench_local(|| {
        for r in black_box(&recs) {
            w.record(r).expect("a valid record");
        }
    });
}

#[divan::bench]
fn read(bencher: Bencher) {
    let file = recording().1;
    bencher.counter(ItemsCount::new(REPORTS)).bench_local(|| {
        let (rec, err) = read_all(black_box(&file));
        assert!(err.is_none());
        black_box(rec.samples)
    });
}

#[divan::bench]
fn read_stream(bencher: Bencher) {
    let file = recording().1;
    bencher.counter(ItemsCount::new(REPORTS)).bench_local(|| {
        let mut r = RecordingReader::new(black_box(&file[..]));
        while let Some(e) = r.next_entry() {
            black_box(e.expect("a valid record").offset);
        }
        r.records()
    });
}

fn main() {
    // What is timed is what it claims: the stream writes and reads back whole.
    let (written, file) = recording();
    assert_eq!(written, REPORTS as u64);
    let (rec, err) = read_all(&file);
    assert!(err.is_none());
    assert_eq!(rec.samples, REPORTS as u64);
    divan::main();
}
