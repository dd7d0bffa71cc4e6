//! OA streams behind one trait, and one reader for all of them.
//!
//! [`OaStream`] is what the i915 perf stream ([`i915`]), the Xe observation
//! stream ([`xe`]) and the emulated GPU (this crate's `emulated` module, feature `emulated`)
//! have in common: one non-blocking `read()` of whole records, `poll()`,
//! enable, disable, and (Xe) the status. [`StreamReader`] turns the bytes
//! into typed records the same way for all three:
//!
//! - i915 framing: records parsed with [`crate::record`];
//! - Xe: raw reports cut by the report size; an `EIO` reads the STATUS and
//!   becomes loss items, one per status bit;
//! - `EINTR` is retried, `EAGAIN` is "nothing yet", `ENOSPC` (buffer shorter
//!   than one record) grows the buffer and retries; every case is counted;
//! - a framing error is an error with its byte offset, never skipped.

use std::collections::VecDeque;
use std::time::Duration;

use crate::errno::{code, Driver, KernelError, Op, StreamError};
use crate::record::{frames, Record, HEADER_SIZE};
use crate::uapi::xe::status;

/// The [`OaStream`] methods a kernel stream answers from its `fd`
/// ([`fd::StreamFd`]) and `report_size` fields.
#[cfg(target_os = "linux")]
macro_rules! fd_stream_methods {
    () => {
        fn driver(&self) -> Driver {
            self.fd.driver()
        }
        fn report_size(&self) -> usize {
            self.report_size
        }
        fn read(&mut self, buf: &mut [u8]) -> Result<usize, StreamError> {
            self.fd.read(buf)
        }
        fn poll(&mut self, timeout: Option<Duration>) -> Result<bool, StreamError> {
            self.fd.poll(timeout)
        }
    };
}

#[cfg(target_os = "linux")]
pub mod fd;
pub mod i915;
pub mod xe;

/// How the bytes of a stream are framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Framing {
    /// i915: each record has a `drm_i915_perf_record_header`.
    I915Records,
    /// Xe: raw reports, no headers; losses come from the STATUS ioctl.
    XeRaw,
}

/// An OA stream: i915 perf, Xe observation, or the emulated GPU.
pub trait OaStream {
    /// Who answers (names the driver in errors).
    fn driver(&self) -> Driver;
    /// How [`read`](OaStream::read) frames its bytes.
    fn framing(&self) -> Framing;
    /// Bytes of one OA report of the stream's format.
    fn report_size(&self) -> usize;
    /// One non-blocking `read()` of whole records into `buf`: the bytes
    /// read, or the kernel's errno (`EAGAIN`: nothing yet; `EINTR`;
    /// `ENOSPC`: `buf` holds no whole record; Xe `EIO`: status set).
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, StreamError>;
    /// Wait up to `timeout` (`None`: forever) until a read can return
    /// data: `true` when it can.
    fn poll(&mut self, timeout: Option<Duration>) -> Result<bool, StreamError>;
    /// Start sampling.
    fn enable(&mut self) -> Result<(), StreamError>;
    /// Stop sampling (reports already taken stay readable).
    fn disable(&mut self) -> Result<(), StreamError>;
    /// Xe: the STATUS ioctl's bits (reading clears them). i915 has none.
    fn status(&mut self) -> Result<u64, StreamError> {
        Err(StreamError::Unsupported("the STATUS ioctl (Xe only)"))
    }
}

impl<S: OaStream + ?Sized> OaStream for Box<S> {
    fn driver(&self) -> Driver {
        (**self).driver()
    }
    fn framing(&self) -> Framing {
        (**self).framing()
    }
    fn report_size(&self) -> usize {
        (**self).report_size()
    }
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, StreamError> {
        (**self).read(buf)
    }
    fn poll(&mut self, timeout: Option<Duration>) -> Result<bool, StreamError> {
        (**self).poll(timeout)
    }
    fn enable(&mut self) -> Result<(), StreamError> {
        (**self).enable()
    }
    fn disable(&mut self) -> Result<(), StreamError> {
        (**self).disable()
    }
    fn status(&mut self) -> Result<u64, StreamError> {
        (**self).status()
    }
}

/// What a [`StreamReader`] yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// A report or a loss, as an i915 stream frames it (Xe losses from
    /// the status bits REPORT_LOST and BUFFER_OVERFLOW).
    Record(Record<'a>),
    /// Xe status COUNTER_OVERFLOW: a counter wrapped more than once
    /// between reports.
    CounterOverflow,
    /// Xe status MMIO_TRG_Q_FULL: the MMIO trigger queue was full.
    TriggerQueueFull,
    /// Xe status bits this crate does not know (never dropped).
    UnknownStatus(u64),
}

/// What a [`StreamReader`] has seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StreamCounts {
    /// Successful `read()`s.
    pub reads: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Reports yielded.
    pub reports: u64,
    /// Report-lost records (Xe: REPORT_LOST bits).
    pub report_lost: u64,
    /// Buffer-lost records (Xe: BUFFER_OVERFLOW bits).
    pub buffer_lost: u64,
    /// Xe COUNTER_OVERFLOW bits.
    pub counter_overflow: u64,
    /// Xe MMIO_TRG_Q_FULL bits.
    pub trigger_queue_full: u64,
    /// Xe status bits not known here.
    pub unknown_status: u64,
    /// `EINTR`s retried.
    pub interrupted: u64,
    /// `ENOSPC`s answered by growing the buffer.
    pub buffer_grown: u64,
    /// `EIO`s answered by reading the Xe status.
    pub status_reads: u64,
}

impl StreamCounts {
    /// Loss events: report-lost plus buffer-lost (the Xe counter-overflow
    /// and trigger-queue events are counted apart).
    pub fn losses(&self) -> u64 {
        self.report_lost + self.buffer_lost
    }
}

/// Most `EINTR`s in a row retried before the reader gives up.
const MAX_EINTR: u32 = 1000;

/// Typed records from any [`OaStream`], the same way for all of them.
#[derive(Debug)]
pub struct StreamReader<S> {
    stream: S,
    buf: Vec<u8>,
    filled: usize,
    pos: usize,
    /// Stream byte offset of `buf[0]`.
    base: u64,
    /// Index of the next record.
    index: u64,
    limit: usize,
    pending: VecDeque<Item<'static>>,
    failed: Option<StreamError>,
    counts: StreamCounts,
}

impl<S: OaStream> StreamReader<S> {
    /// Default size of the read buffer (grown on `ENOSPC`).
    pub const DEFAULT_BUFFER: usize = 64 << 10;
    /// Default limit the buffer may grow to.
    pub const DEFAULT_LIMIT: usize = 16 << 20;

    /// A reader of `stream` with the default buffer.
    pub fn new(stream: S) -> Self {
        Self::with_buffer(stream, Self::DEFAULT_BUFFER, Self::DEFAULT_LIMIT)
    }

    /// A reader whose buffer starts at `size` bytes (at least 1) and grows
    /// on `ENOSPC` up to `limit`.
    pub fn with_buffer(stream: S, size: usize, limit: usize) -> Self {
        StreamReader {
            stream,
            buf: vec![0; size.max(1)],
            filled: 0,
            pos: 0,
            base: 0,
            index: 0,
            limit: limit.max(size.max(1)),
            pending: VecDeque::new(),
            failed: None,
            counts: StreamCounts::default(),
        }
    }

    /// What the reader has seen so far.
    pub fn counts(&self) -> StreamCounts {
        self.counts
    }

    /// The stream.
    pub fn stream(&self) -> &S {
        &self.stream
    }

    /// The stream, to enable, disable or poll it.
    pub fn stream_mut(&mut self) -> &mut S {
        &mut self.stream
    }

    /// The stream back.
    pub fn into_inner(self) -> S {
        self.stream
    }

    /// The read buffer's current size.
    pub fn buffer_size(&self) -> usize {
        self.buf.len()
    }

    /// Wait up to `timeout` for data (`true`: a read can return some, or
    /// items are buffered already).
    pub fn wait(&mut self, timeout: Option<Duration>) -> Result<bool, StreamError> {
        if self.pos < self.filled || !self.pending.is_empty() {
            return Ok(true);
        }
        self.stream.poll(timeout)
    }

    /// The next item: `Ok(None)` when nothing is available yet (`EAGAIN`;
    /// poll with [`wait`](Self::wait)). A framing error or the buffer limit
    /// ends the stream (every later call returns it again); an errno from
    /// the kernel is returned as it comes, and a later call reads again.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Item<'_>>, StreamError> {
        loop {
            if let Some(e) = &self.failed {
                return Err(e.clone());
            }
            if let Some(item) = self.pending.pop_front() {
                return Ok(Some(item));
            }
            if self.pos < self.filled {
                return match self.parse() {
                    Ok((start, len, kind)) => Ok(Some(Item::Record(match kind {
                        crate::record::RECORD_SAMPLE => {
                            Record::Sample(&self.buf[start..start + len])
                        }
                        crate::record::RECORD_OA_REPORT_LOST => Record::ReportLost,
                        _ => Record::BufferLost,
                    }))),
                    Err(e) => {
                        self.failed = Some(e.clone());
                        Err(e)
                    }
                };
            }
            self.base += self.filled as u64;
            self.pos = 0;
            self.filled = 0;
            match self.fill() {
                Ok(0) if self.pending.is_empty() => return Ok(None),
                Ok(n) => self.filled = n,
                Err(e) => {
                    if !matches!(e, StreamError::Kernel(_)) {
                        self.failed = Some(e.clone());
                    }
                    return Err(e);
                }
            }
        }
    }

    /// Every item available now, each passed to `f`: the number of items.
    pub fn drain(&mut self, mut f: impl FnMut(Item<'_>)) -> Result<usize, StreamError> {
        let mut n = 0;
        while let Some(item) = self.next()? {
            f(item);
            n += 1;
        }
        Ok(n)
    }

    /// One record at `pos` (bytes are there): the payload's start and
    /// length in the buffer and the record type, counted.
    fn parse(&mut self) -> Result<(usize, usize, u32), StreamError> {
        let rs = self.stream.report_size();
        let offset = self.base + self.pos as u64;
        let rest = &self.buf[self.pos..self.filled];
        let (start, len, kind) = match self.stream.framing() {
            Framing::XeRaw => {
                if rest.len() < rs || rs == 0 {
                    return Err(crate::record::FramingError {
                        offset,
                        index: self.index,
                        kind: crate::record::FramingErrorKind::SampleSize {
                            payload: rest.len(),
                            report: rs,
                        },
                    }
                    .into());
                }
                (self.pos, rs, crate::record::RECORD_SAMPLE)
            }
            Framing::I915Records => {
                let frame = match frames(rest, offset, self.index).next() {
                    Some(f) => f?,
                    None => unreachable_empty(offset, self.index)?,
                };
                let kind = Record::from_frame(&frame, rs)?.kind();
                (self.pos + HEADER_SIZE, frame.payload.len(), kind)
            }
        };
        let consumed = if self.stream.framing() == Framing::XeRaw {
            len
        } else {
            HEADER_SIZE + len
        };
        self.pos += consumed;
        self.index += 1;
        match kind {
            crate::record::RECORD_SAMPLE => self.counts.reports += 1,
            crate::record::RECORD_OA_REPORT_LOST => self.counts.report_lost += 1,
            _ => self.counts.buffer_lost += 1,
        }
        Ok((start, len, kind))
    }

    /// One successful read into the buffer (0: nothing yet, or only
    /// status items queued).
    fn fill(&mut self) -> Result<usize, StreamError> {
        let mut eintr = 0;
        loop {
            let e = match self.stream.read(&mut self.buf) {
                Ok(n) => {
                    self.counts.reads += 1;
                    self.counts.bytes += n as u64;
                    return Ok(n.min(self.buf.len()));
                }
                Err(e) => e,
            };
            match e.errno() {
                Some(code::EINTR) if eintr < MAX_EINTR => {
                    eintr += 1;
                    self.counts.interrupted += 1;
                }
                Some(code::EAGAIN) => return Ok(0),
                Some(code::ENOSPC) => {
                    let want = self.buf.len().saturating_mul(2).min(self.limit);
                    if want <= self.buf.len() {
                        return Err(StreamError::BufferLimit { limit: self.limit });
                    }
                    self.buf.resize(want, 0);
                    self.counts.buffer_grown += 1;
                }
                Some(code::EIO) if self.stream.framing() == Framing::XeRaw => {
                    self.counts.status_reads += 1;
                    let bits = self.stream.status()?;
                    if bits == 0 {
                        let mut k = KernelError::new(self.stream.driver(), Op::Read, code::EIO);
                        k.status = Some(0);
                        return Err(k.into());
                    }
                    self.queue_status(bits);
                    return Ok(0);
                }
                _ => return Err(e),
            }
        }
    }

    fn queue_status(&mut self, bits: u64) {
        for (bit, _) in status::ALL {
            if bits & bit == 0 {
                continue;
            }
            let item = match bit {
                status::REPORT_LOST => {
                    self.counts.report_lost += 1;
                    Item::Record(Record::ReportLost)
                }
                status::BUFFER_OVERFLOW => {
                    self.counts.buffer_lost += 1;
                    Item::Record(Record::BufferLost)
                }
                status::COUNTER_OVERFLOW => {
                    self.counts.counter_overflow += 1;
                    Item::CounterOverflow
                }
                _ => {
                    self.counts.trigger_queue_full += 1;
                    Item::TriggerQueueFull
                }
            };
            self.pending.push_back(item);
        }
        let known = status::ALL.iter().fold(0, |a, (b, _)| a | b);
        if bits & !known != 0 {
            self.counts.unknown_status += 1;
            self.pending.push_back(Item::UnknownStatus(bits & !known));
        }
    }
}

/// `frames` yields nothing only for empty input, which `parse` never gets;
/// answered as a truncated header rather than a panic.
fn unreachable_empty(
    offset: u64,
    index: u64,
) -> Result<crate::record::Frame<'static>, StreamError> {
    Err(crate::record::FramingError {
        offset,
        index,
        kind: crate::record::FramingErrorKind::TruncatedHeader { have: 0 },
    }
    .into())
}

#[cfg(test)]
mod tests;
