//! The reader on the real fd path: kernel bytes written into a pipe by a
//! test stream, read back through `stream::fd::StreamFd` as an i915 or Xe
//! stream fd would be. Framing errors keep their byte offset across reads.
#![cfg(target_os = "linux")]

use std::collections::VecDeque;
use std::time::Duration;

use perfregs_linux::errno::{code, Driver, KernelError, Op, StreamError};
use perfregs_linux::record::{FramingErrorKind, Record};
use perfregs_linux::stream::fd::{pipe, PipeWriter, StreamFd};
use perfregs_linux::stream::{Framing, Item, OaStream, StreamReader};

/// Each read writes the next chunk into the pipe and reads it back, as a
/// kernel read returns one batch of records.
struct PipeStream {
    framing: Framing,
    r: StreamFd,
    w: PipeWriter,
    chunks: VecDeque<Vec<u8>>,
}

impl PipeStream {
    fn new(framing: Framing, chunks: Vec<Vec<u8>>) -> Self {
        let (r, w) = pipe(Driver::Emulated).expect("pipe");
        PipeStream {
            framing,
            r,
            w,
            chunks: chunks.into(),
        }
    }
}

impl OaStream for PipeStream {
    fn driver(&self) -> Driver {
        Driver::Emulated
    }
    fn framing(&self) -> Framing {
        self.framing
    }
    fn report_size(&self) -> usize {
        64
    }
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, StreamError> {
        if let Some(c) = self.chunks.pop_front() {
            if c.len() > buf.len() {
                self.chunks.push_front(c);
                return Err(KernelError::new(Driver::Emulated, Op::Read, code::ENOSPC).into());
            }
            assert_eq!(self.w.write(&c), Ok(c.len()));
        }
        self.r.read(buf)
    }
    fn poll(&mut self, timeout: Option<Duration>) -> Result<bool, StreamError> {
        self.r.poll(timeout)
    }
    fn enable(&mut self) -> Result<(), StreamError> {
        Ok(())
    }
    fn disable(&mut self) -> Result<(), StreamError> {
        Ok(())
    }
}

fn sample(fill: u8) -> Vec<u8> {
    let mut v = Vec::new();
    Record::Sample(&[fill; 64]).write_to(&mut v).unwrap();
    v
}

#[test]
fn records_across_reads_then_a_located_framing_error() {
    let mut second = sample(2);
    Record::BufferLost.write_to(&mut second).unwrap();
    second.extend(sample(3));
    let mut third = sample(4);
    third.extend_from_slice(&[1, 0, 0, 0, 0, 0, 200, 0, 9]); // cut record
    let s = PipeStream::new(Framing::I915Records, vec![sample(1), second, third]);
    let mut r = StreamReader::new(s);
    let mut fills = Vec::new();
    let e = loop {
        match r.next() {
            Ok(Some(Item::Record(Record::Sample(b)))) => fills.push(b[0]),
            Ok(Some(Item::Record(Record::BufferLost))) => fills.push(0),
            Ok(other) => panic!("{other:?}"),
            Err(e) => break e,
        }
    };
    assert_eq!(fills, [1, 2, 0, 3, 4]);
    match e {
        StreamError::Framing(f) => {
            // 72 + (72 + 8 + 72) + 72 bytes before the cut record.
            assert_eq!((f.offset, f.index), (296, 5));
            assert_eq!(
                f.kind,
                FramingErrorKind::TruncatedRecord { size: 200, have: 9 }
            );
        }
        e => panic!("{e}"),
    }
    assert_eq!(r.counts().reads, 3);
    assert_eq!(r.counts().bytes, 296 + 9);
}

#[test]
fn xe_reports_through_the_pipe_and_enospc_growth() {
    let reports: Vec<u8> = (0..=255).collect();
    let s = PipeStream::new(Framing::XeRaw, vec![reports.clone()]);
    let mut r = StreamReader::with_buffer(s, 100, 1024);
    let mut got = Vec::new();
    r.drain(|i| match i {
        Item::Record(Record::Sample(b)) => got.extend_from_slice(b),
        other => panic!("{other:?}"),
    })
    .unwrap();
    assert_eq!(got, reports);
    assert_eq!((r.counts().reports, r.counts().buffer_grown), (4, 2));
    assert!(!r.wait(Some(Duration::from_millis(1))).unwrap());
}
