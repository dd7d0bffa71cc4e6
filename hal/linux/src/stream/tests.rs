//! The reader on a scripted stream (the emulated kernel, `crate::emulated`,
//! tests it on a real pipe).

use super::*;
use crate::record::FramingErrorKind;

enum Step {
    Bytes(Vec<u8>),
    Errno(i32),
}

struct Script {
    framing: Framing,
    steps: VecDeque<Step>,
    status: VecDeque<u64>,
}

impl OaStream for Script {
    fn driver(&self) -> Driver {
        Driver::Emulated
    }
    fn framing(&self) -> Framing {
        self.framing
    }
    fn report_size(&self) -> usize {
        16
    }
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, StreamError> {
        let err = |e| Err(KernelError::new(Driver::Emulated, Op::Read, e).into());
        match self.steps.front() {
            None => err(code::EAGAIN),
            Some(Step::Bytes(b)) if b.len() > buf.len() => err(code::ENOSPC),
            Some(Step::Bytes(b)) => {
                buf[..b.len()].copy_from_slice(b);
                let n = b.len();
                self.steps.pop_front();
                Ok(n)
            }
            Some(Step::Errno(e)) => {
                let e = *e;
                self.steps.pop_front();
                err(e)
            }
        }
    }
    fn poll(&mut self, _: Option<Duration>) -> Result<bool, StreamError> {
        Ok(!self.steps.is_empty())
    }
    fn enable(&mut self) -> Result<(), StreamError> {
        Ok(())
    }
    fn disable(&mut self) -> Result<(), StreamError> {
        Ok(())
    }
    fn status(&mut self) -> Result<u64, StreamError> {
        match self.framing {
            Framing::XeRaw => Ok(self.status.pop_front().unwrap_or(0)),
            Framing::I915Records => Err(StreamError::Unsupported("status")),
        }
    }
}

fn sample(fill: u8) -> Vec<u8> {
    let mut v = Vec::new();
    Record::Sample(&[fill; 16]).write_to(&mut v).unwrap();
    v
}

fn script(framing: Framing, steps: Vec<Step>, status: Vec<u64>) -> Script {
    Script {
        framing,
        steps: steps.into(),
        status: status.into(),
    }
}

/// Every item until `None`, as owned values.
fn all<S: OaStream>(r: &mut StreamReader<S>) -> Result<Vec<(u32, Vec<u8>)>, StreamError> {
    let mut out = Vec::new();
    while let Some(item) = r.next()? {
        out.push(match item {
            Item::Record(Record::Sample(b)) => (1, b.to_vec()),
            Item::Record(r) => (r.kind(), vec![]),
            Item::CounterOverflow => (100, vec![]),
            Item::TriggerQueueFull => (101, vec![]),
            Item::UnknownStatus(b) => (102, b.to_le_bytes().to_vec()),
        });
    }
    Ok(out)
}

#[test]
fn i915_records_eintr_retried_enospc_grows_losses_counted() {
    let mut two = sample(1);
    Record::ReportLost.write_to(&mut two).unwrap();
    Record::BufferLost.write_to(&mut two).unwrap();
    two.extend(sample(2));
    let s = script(
        Framing::I915Records,
        vec![
            Step::Errno(code::EINTR),
            Step::Bytes(two),
            Step::Bytes(sample(3)),
        ],
        vec![],
    );
    // 10 bytes: no 24-byte sample fits, the buffer grows (10, 20, 40, 80).
    let mut r = StreamReader::with_buffer(s, 10, 1024);
    let got = all(&mut r).unwrap();
    let kinds: Vec<u32> = got.iter().map(|g| g.0).collect();
    assert_eq!(kinds, [1, 2, 3, 1, 1]);
    assert_eq!(got[0].1, [1; 16]);
    assert_eq!(got[4].1, [3; 16]);
    let c = r.counts();
    assert_eq!((c.reports, c.report_lost, c.buffer_lost), (3, 1, 1));
    assert_eq!(c.interrupted, 1);
    assert_eq!(c.buffer_grown, 3);
    assert_eq!(r.buffer_size(), 80);
    assert_eq!(c.bytes, 2 * 24 + 16 + 24);
    assert_eq!(r.next().unwrap(), None, "EAGAIN: nothing yet");
}

#[test]
fn enospc_beyond_the_limit_is_an_error() {
    let s = script(Framing::I915Records, vec![Step::Bytes(sample(1))], vec![]);
    let mut r = StreamReader::with_buffer(s, 8, 16);
    assert_eq!(r.next(), Err(StreamError::BufferLimit { limit: 16 }));
}

#[test]
fn a_framing_error_is_located_and_sticky() {
    let mut bytes = sample(1);
    bytes.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]); // size 0
    let s = script(
        Framing::I915Records,
        vec![Step::Bytes(sample(9)), Step::Bytes(bytes)],
        vec![],
    );
    let mut r = StreamReader::new(s);
    assert!(matches!(
        r.next(),
        Ok(Some(Item::Record(Record::Sample(_))))
    ));
    assert!(matches!(
        r.next(),
        Ok(Some(Item::Record(Record::Sample(_))))
    ));
    let e = r.next().unwrap_err();
    match &e {
        StreamError::Framing(f) => {
            assert_eq!(f.kind, FramingErrorKind::ZeroSize);
            assert_eq!((f.offset, f.index), (48, 2));
        }
        e => panic!("{e}"),
    }
    assert_eq!(r.next().unwrap_err(), e, "sticky");
}

#[test]
fn xe_raw_reports_and_eio_status_bits_become_items() {
    let reports: Vec<u8> = (0..48).collect();
    let s = script(
        Framing::XeRaw,
        vec![
            Step::Bytes(reports[..32].to_vec()),
            Step::Errno(code::EIO),
            Step::Bytes(reports[32..].to_vec()),
        ],
        vec![0b1111 | 0x40],
    );
    let mut r = StreamReader::new(s);
    let got = all(&mut r).unwrap();
    let kinds: Vec<u32> = got.iter().map(|g| g.0).collect();
    assert_eq!(kinds, [1, 1, 2, 3, 100, 101, 102, 1]);
    assert_eq!(got[1].1, (16..32).collect::<Vec<u8>>());
    assert_eq!(got[7].1, (32..48).collect::<Vec<u8>>());
    let c = r.counts();
    assert_eq!(
        (
            c.reports,
            c.losses(),
            c.counter_overflow,
            c.trigger_queue_full
        ),
        (3, 2, 1, 1)
    );
    assert_eq!((c.unknown_status, c.status_reads), (1, 1));
}

#[test]
fn xe_partial_report_and_eio_without_status_are_errors() {
    let s = script(Framing::XeRaw, vec![Step::Bytes(vec![0; 20])], vec![]);
    let mut r = StreamReader::new(s);
    assert!(r.next().unwrap().is_some());
    match r.next().unwrap_err() {
        StreamError::Framing(f) => {
            assert_eq!((f.offset, f.index), (16, 1));
            assert_eq!(
                f.kind,
                FramingErrorKind::SampleSize {
                    payload: 4,
                    report: 16
                }
            );
        }
        e => panic!("{e}"),
    }
    let s = script(Framing::XeRaw, vec![Step::Errno(code::EIO)], vec![]);
    let e = StreamReader::new(s).next().unwrap_err();
    assert!(e.to_string().contains("status is 0"), "{e}");
}

#[test]
fn other_errnos_reach_the_caller_and_i915_eio_is_not_a_status() {
    for errno in [code::ENODEV, code::EIO, code::EACCES] {
        let s = script(Framing::I915Records, vec![Step::Errno(errno)], vec![]);
        let e = StreamReader::new(s).next().unwrap_err();
        assert_eq!(e.errno(), Some(errno), "{e}");
    }
    let steps = (0..=MAX_EINTR).map(|_| Step::Errno(code::EINTR)).collect();
    let e = StreamReader::new(script(Framing::I915Records, steps, vec![]))
        .next()
        .unwrap_err();
    assert_eq!(e.errno(), Some(code::EINTR), "endless EINTR is reported");
}
