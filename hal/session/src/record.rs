//! The record loop: an OA stream written to a recording in IGT's
//! `i915-perf-recorder` format until a [`Stop`] or a stop flag.
//!
//! - [`Recorder::record`]: any [`OaStream`] (an i915 perf stream, an Xe
//!   observation stream, or the emulated kernel's): enabled, waited on and
//!   drained until the stop, then disabled (an Xe stream drained once more:
//!   Xe keeps the reports taken before the disable readable). The first
//!   report's `TIME_STAMP` with `CLOCK_MONOTONIC` when it was read is the
//!   opening correlation, the last report's with the time at the end the
//!   closing one.
//! - [`Recorder::record_emulated`] (Linux): an
//!   [`EmulatedStream`](perfregs_linux::emulated::EmulatedStream) whose time
//!   moves only as the recorder says, in chunks of at most
//!   [`CHUNK_REPORTS`] reports and never past the next emulated second, with
//!   a correlation each emulated second (the start's `CLOCK_MONOTONIC` plus
//!   emulated nanoseconds) and the [`Faults`] of the [`EmulatedPlan`].
//!
//! Both give a [`Recorded`]: the counts, whether a flag ended it, and the
//! stream error that ended it midway, if one did (the recording is then
//! closed with what was read before it). A [`RecordError`] is returned only
//! when the recording could not be written or the stream not enabled.

use perfregs_linux::errno::{StreamError, code};
use perfregs_linux::record::Record;
use perfregs_linux::recording::{Correlation, RecordingWriter, WriteError};
use perfregs_linux::stream::{Framing, Item, OaStream, StreamCounts, StreamReader};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Where a recording stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Once at least this many reports are read.
    Reports(u64),
    /// After this many nanoseconds: wall time for [`Recorder::record`],
    /// emulated time for [`Recorder::record_emulated`].
    Ns(u64),
    /// Only when the stop flag ([`Recorder::flag`]) is set.
    Signal,
}

/// Reports the emulated loop lets the emulated GPU take between two drains
/// at most.
pub const CHUNK_REPORTS: u64 = 64;

/// How long [`Recorder::record`] waits for the stream at most before it
/// looks at the stop again (and calls the progress callback), by default.
pub const POLL_TIMEOUT: Duration = Duration::from_millis(100);

/// Where a recording is, for a progress display (the records written so
/// far).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Samples (OA reports) written.
    pub samples: u64,
    /// `OA_REPORT_LOST` records written.
    pub reports_lost: u64,
    /// `OA_BUFFER_LOST` records written.
    pub buffers_lost: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Emulated timestamp ticks since the start ([`Recorder::record_emulated`]
    /// only).
    pub emulated_ticks: Option<u64>,
}

/// What the emulated loop did to the emulated GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emulation {
    /// Emulated timestamp ticks from the start to the closing correlation.
    pub ticks: u64,
    /// Reports the emulated kernel took from the OA buffer (equal to the
    /// reports read unless some were left in the stream).
    pub reports_taken: u64,
}

/// What a recording did.
#[derive(Debug)]
pub struct Recorded<W> {
    /// What the recording was written into, after its closing correlation.
    pub output: W,
    /// Samples (OA reports) written.
    pub samples: u64,
    /// `OA_REPORT_LOST` records written.
    pub reports_lost: u64,
    /// `OA_BUFFER_LOST` records written.
    pub buffers_lost: u64,
    /// Bytes of the recording, its closing correlation included.
    pub bytes: u64,
    /// What the stream reader counted (reads, `EINTR`s retried, the buffer
    /// grown, Xe STATUS reads and events without a record type).
    pub counts: StreamCounts,
    /// Whether the stop flag ended the recording.
    pub interrupted: bool,
    /// Wall time from the enable (or the start) to the end.
    pub elapsed: Duration,
    /// The closing correlation written. With no report read, the device
    /// loop's correlations carry GPU timestamp 0.
    pub closing: Correlation,
    /// The emulated time and the emulated kernel's count
    /// ([`Recorder::record_emulated`] only).
    pub emulated: Option<Emulation>,
    /// The disable failed ([`Recorder::record`]; the recording is whole).
    pub disable_error: Option<StreamError>,
    /// The error that ended the recording midway: the recording holds what
    /// was read before it and its closing correlation.
    pub failure: Option<RecordError>,
}

/// Why a recording failed or ended early.
#[derive(Debug)]
#[non_exhaustive]
pub enum RecordError {
    /// Enabling the stream failed (nothing was read).
    Enable(StreamError),
    /// Waiting for the stream (`poll`) failed with other than `EINTR`.
    Wait(StreamError),
    /// Reading the stream failed.
    Read(StreamError),
    /// Writing the recording failed.
    Write(WriteError),
    /// [`EmulatedPlan::timestamp_frequency`] is 0: emulated time cannot be
    /// turned into nanoseconds.
    NoFrequency,
}

impl core::fmt::Display for RecordError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RecordError::Enable(e) => write!(f, "enabling the OA stream: {e}"),
            RecordError::Wait(e) => write!(f, "waiting for the OA stream: {e}"),
            RecordError::Read(e) => write!(f, "reading the OA stream: {e}"),
            // `WriteError::Io` says "writing the recording" already.
            RecordError::Write(e @ WriteError::Io(_)) => e.fmt(f),
            RecordError::Write(e) => write!(f, "writing the recording: {e}"),
            RecordError::NoFrequency => {
                f.write_str("a timestamp frequency of 0 Hz: emulated time has no length")
            }
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Enable(e) | RecordError::Wait(e) | RecordError::Read(e) => Some(e),
            RecordError::Write(e) => Some(e),
            RecordError::NoFrequency => None,
        }
    }
}

impl From<WriteError> for RecordError {
    fn from(e: WriteError) -> Self {
        RecordError::Write(e)
    }
}

/// Faults the emulated kernel is made to show during
/// [`Recorder::record_emulated`], for tests of what consumes a recording.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Losses spread over the recording (one every `expected chunks /
    /// (losses + 1)` chunks, the expected chunks from the [`Stop`]), an
    /// `OA_REPORT_LOST` and an `OA_BUFFER_LOST` in turn, report-lost first.
    pub losses: u8,
    /// The emulated kernel answers one read halfway through with this
    /// errno.
    pub errno: Option<i32>,
    /// The emulated Xe kernel sets these STATUS bits once, halfway.
    pub xe_status: Option<u64>,
}

/// What [`Recorder::record_emulated`] needs beyond the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmulatedPlan {
    /// The part's GPU timestamp frequency (Hz): emulated ticks to
    /// nanoseconds, and the length of an emulated second.
    pub timestamp_frequency: u64,
    /// The faults to inject.
    pub faults: Faults,
}

impl EmulatedPlan {
    /// A plan at `timestamp_frequency` Hz, without faults.
    pub fn new(timestamp_frequency: u64) -> Self {
        EmulatedPlan {
            timestamp_frequency,
            faults: Faults::default(),
        }
    }
}

/// A progress callback.
type ProgressFn<'a> = Box<dyn FnMut(&Progress) + 'a>;

/// Records a stream: a [`Stop`], an optional stop flag and an optional
/// progress callback.
pub struct Recorder<'a> {
    stop: Stop,
    flag: Option<&'a AtomicBool>,
    progress: Option<ProgressFn<'a>>,
    poll_timeout: Duration,
}

impl core::fmt::Debug for Recorder<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Recorder")
            .field("stop", &self.stop)
            .field("flag", &self.flag)
            .field("progress", &self.progress.is_some())
            .field("poll_timeout", &self.poll_timeout)
            .finish()
    }
}

impl<'a> Recorder<'a> {
    /// A recorder that stops at `stop`, without a flag or a progress
    /// callback, waiting [`POLL_TIMEOUT`] at most.
    pub fn new(stop: Stop) -> Self {
        Recorder {
            stop,
            flag: None,
            progress: None,
            poll_timeout: POLL_TIMEOUT,
        }
    }

    /// Stop also when `flag` is set (by a signal handler, another thread);
    /// the recording is then [`Recorded::interrupted`].
    pub fn flag(mut self, flag: &'a AtomicBool) -> Self {
        self.flag = Some(flag);
        self
    }

    /// Call `f` after each wait and drain (each chunk when emulated).
    pub fn progress(mut self, f: impl FnMut(&Progress) + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Wait for the stream at most `timeout` before looking at the stop
    /// again ([`Recorder::record`]).
    pub fn poll_timeout(mut self, timeout: Duration) -> Self {
        self.poll_timeout = timeout;
        self
    }

    fn flagged(&self) -> bool {
        self.flag.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    fn tick<W: Write>(&mut self, w: &RecordingWriter<W>, emulated_ticks: Option<u64>) {
        if let Some(f) = self.progress.as_mut() {
            f(&Progress {
                samples: w.samples(),
                reports_lost: w.reports_lost(),
                buffers_lost: w.buffers_lost(),
                bytes: w.bytes_written(),
                emulated_ticks,
            });
        }
    }

    /// Record `stream` into `w` until the stop: enable it, wait and drain
    /// until the [`Stop`] or the flag, drain what the kernel still holds,
    /// disable it (an Xe stream is drained once more), and close the
    /// recording with its correlation.
    ///
    /// Each correlation pairs a report's `TIME_STAMP` (dword 1) with
    /// `CLOCK_MONOTONIC` when it was read: the first report's before it,
    /// the last one's at the end (GPU timestamp 0 when none was read, the
    /// opening correlation then written at the end too).
    ///
    /// `Err` when the stream cannot be enabled or the recording cannot be
    /// written; a stream error midway ends the recording and is
    /// [`Recorded::failure`].
    pub fn record<S: OaStream, W: Write>(
        mut self,
        mut stream: S,
        mut w: RecordingWriter<W>,
    ) -> Result<Recorded<W>, RecordError> {
        stream.enable().map_err(RecordError::Enable)?;
        let mut reader = StreamReader::new(stream);
        let started = Instant::now();
        let mut interrupted = false;
        let mut last_ts = None;
        let mut failure = None;
        loop {
            if self.flagged() {
                interrupted = true;
                break;
            }
            match self.stop {
                Stop::Reports(n) if reader.counts().reports >= n => break,
                Stop::Ns(ns) if started.elapsed().as_nanos() >= u128::from(ns) => break,
                _ => {}
            }
            match reader.wait(Some(self.poll_timeout)) {
                Ok(_) => {}
                Err(e) if e.errno() == Some(code::EINTR) => continue,
                Err(e) => {
                    failure = Some(RecordError::Wait(e));
                    break;
                }
            }
            if let Err(e) = device_drain(&mut reader, &mut w, &mut last_ts) {
                failure = Some(e);
                break;
            }
            self.tick(&w, None);
        }
        // What the kernel holds still (i915 refuses reads once disabled).
        if failure.is_none() {
            failure = device_drain(&mut reader, &mut w, &mut last_ts).err();
        }
        let disabled = reader.stream_mut().disable();
        // Xe keeps the reports taken before the disable readable (i915
        // refuses): read them too, rather than lose them with the fd.
        if failure.is_none() && disabled.is_ok() && reader.stream().framing() == Framing::XeRaw {
            failure = device_drain(&mut reader, &mut w, &mut last_ts).err();
        }
        // The closing correlation: the last report's timestamp now (none
        // read: no sample, and the first correlation is still to write).
        let closing = Correlation::now(last_ts.unwrap_or(0));
        if last_ts.is_none() {
            if let Err(e) = w.correlation(closing) {
                return Err(failure.unwrap_or(RecordError::Write(e)));
            }
        }
        let elapsed = started.elapsed();
        finish(w, closing, failure, |mut r| {
            r.counts = reader.counts();
            r.interrupted = interrupted;
            r.elapsed = elapsed;
            r.disable_error = disabled.err();
            r
        })
    }

    /// Record an emulated stream into `w` until the stop, in emulated time:
    /// the stream (enabled if it was opened disabled) advances at most
    /// [`CHUNK_REPORTS`] reports at a time and never past the next emulated
    /// second, is drained after each advance, and a correlation (the
    /// start's `CLOCK_MONOTONIC` plus the emulated nanoseconds, with the
    /// emulated timestamp) is written at the start, at each emulated second
    /// and at the end. [`Stop::Ns`] counts emulated time; `plan`'s
    /// [`Faults`] are injected as they say.
    ///
    /// `Err` when the stream cannot be enabled, the plan has no frequency or
    /// the recording cannot be written; a stream error midway ends the
    /// recording and is [`Recorded::failure`].
    ///
    /// ```
    /// use perfregs_linux::emulated::{EmulatedStream, StreamConfig};
    /// use perfregs_linux::recording::{RecordedDevice, RecordingWriter};
    /// use perfregs_linux::stream::Framing;
    /// use perfregs_metrics::intervals::Window;
    /// use perfregs_session::record::{EmulatedPlan, Recorder, Stop};
    ///
    /// let part = perfregs_session::part("tgl", None)?;
    /// let set = perfregs_session::find_set(perfregs_session::sets(part)?, "TestOa")?;
    /// let p = &hal::tgl::PROJECT;
    /// let emu = perfregs_session::emulator(p, &part.device);
    /// let (emu, _writes) = perfregs_session::program(emu, "tgl", set, &part.device)?;
    /// let typed = perfregs_session::stream_format("tgl").ok_or("no TGL format")?;
    /// let format = p.formats.iter().find(|f| f.name == typed.name).ok_or("no layout")?;
    /// let mut cfg = StreamConfig::new(Framing::I915Records, format);
    /// cfg.exponent = 13;
    /// let stream = EmulatedStream::open(emu, cfg)?;
    ///
    /// let device = RecordedDevice {
    ///     timestamp_frequency: part.device.gpu_timestamp_frequency,
    ///     device_id: 0x9a49,
    ///     oa_format: typed.id,
    ///     metric_set_name: set.symbol.into(),
    ///     metric_set_uuid: set.guid.into(),
    ///     ..Default::default()
    /// };
    /// let w = RecordingWriter::new(Vec::new(), &device, &[0; 16])?;
    /// let plan = EmulatedPlan::new(part.device.gpu_timestamp_frequency);
    /// let done = Recorder::new(Stop::Reports(100)).record_emulated(stream, w, plan)?;
    /// assert!(done.samples >= 100 && done.failure.is_none(), "{done:?}");
    ///
    /// let window = Window::Pairs(core::num::NonZeroU32::new(10).ok_or("zero")?);
    /// let read = perfregs_session::read_recording(&done.output[..], |d: &RecordedDevice, _| {
    ///     Ok::<_, String>((d.metric_set_name.clone(), typed.intervals(window)))
    /// })?;
    /// assert_eq!(read.setup.as_deref(), Some("TestOa"));
    /// assert_eq!((read.samples, read.bytes), (done.samples, done.bytes));
    /// assert!(read.intervals.len() >= 9 && read.error.is_none(), "{read:?}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(target_os = "linux")]
    pub fn record_emulated<W: Write>(
        mut self,
        mut stream: perfregs_linux::emulated::EmulatedStream,
        mut w: RecordingWriter<W>,
        plan: EmulatedPlan,
    ) -> Result<Recorded<W>, RecordError> {
        use perfregs_linux::emulated::Fault;

        let freq = plan.timestamp_frequency;
        if freq == 0 {
            return Err(RecordError::NoFrequency);
        }
        if !stream.is_enabled() {
            stream.enable().map_err(RecordError::Enable)?;
        }
        // Time moves only as the recorder says.
        stream.set_ticks_per_read(0);
        let period = stream.config().period().unwrap_or(u64::MAX).max(1);
        let started = Instant::now();
        let cpu0 = perfregs_linux::recording::monotonic_ns();
        let t0 = stream.emulator().now();
        let correlation = |now: u64| {
            let ns = u128::from(now.saturating_sub(t0)) * 1_000_000_000 / u128::from(freq);
            Correlation {
                cpu_ns: cpu0.saturating_add(u64::try_from(ns).unwrap_or(u64::MAX)),
                gpu_timestamp: now,
            }
        };
        w.correlation(correlation(t0))?;
        let limit_ticks = match self.stop {
            Stop::Ns(ns) => Some(
                u64::try_from(u128::from(ns) * u128::from(freq) / 1_000_000_000)
                    .unwrap_or(u64::MAX),
            ),
            _ => None,
        };
        // Injected losses, spread over the recording (one every `every` chunks).
        let expected_reports = match self.stop {
            Stop::Reports(n) => n,
            _ => limit_ticks.unwrap_or(0) / period,
        };
        let losses = u64::from(plan.faults.losses);
        let mut losses_left = losses;
        let every = (expected_reports / CHUNK_REPORTS / (losses_left + 1)).max(1);
        let halfway = (expected_reports / CHUNK_REPORTS / 2).max(1);

        let mut reader = StreamReader::new(stream);
        let elapsed = |r: &StreamReader<perfregs_linux::emulated::EmulatedStream>| {
            r.stream().emulator().now().saturating_sub(t0)
        };
        let mut next_second = freq;
        let mut step = 0u64;
        let mut failure = None;
        let interrupted = loop {
            if self.flagged() {
                break true;
            }
            let before = elapsed(&reader);
            let mut ticks = CHUNK_REPORTS.saturating_mul(period);
            let read = reader.counts().reports;
            match (self.stop, limit_ticks) {
                (Stop::Reports(n), _) if read >= n => break false,
                (Stop::Reports(n), _) => ticks = ticks.min((n - read).saturating_mul(period)),
                (_, Some(l)) if before >= l => break false,
                (_, Some(l)) => ticks = ticks.min(l - before),
                _ => {}
            }
            // Not past the next emulated second, so its correlation falls
            // between the reports before and after it.
            ticks = ticks.min(next_second.saturating_sub(before)).max(1);
            step += 1;
            let stream = reader.stream_mut();
            if losses_left > 0 && step % every == 0 {
                // Report-lost and buffer-lost in turn, report-lost first.
                stream.inject_next(if (losses - losses_left) % 2 == 0 {
                    Fault::ReportLost
                } else {
                    Fault::BufferLost
                });
                losses_left -= 1;
            }
            if step == halfway {
                if let Some(e) = plan.faults.errno {
                    stream.inject_next(Fault::Errno(e));
                }
                if let Some(bits) = plan.faults.xe_status {
                    stream.inject_next(Fault::XeStatus(bits));
                }
            }
            stream.advance(ticks);
            if let Err(e) = drain(&mut reader, &mut w, |_, _| Ok(())) {
                failure = Some(e);
                break false;
            }
            let after = elapsed(&reader);
            if after >= next_second {
                w.correlation(correlation(t0.saturating_add(after)))?;
                next_second = next_second.saturating_add(freq);
            }
            self.tick(&w, Some(after));
        };
        // Whatever the kernel still holds.
        if failure.is_none() {
            failure = drain(&mut reader, &mut w, |_, _| Ok(())).err();
        }
        let now = reader.stream().emulator().now();
        let closing = correlation(now);
        let emulation = Emulation {
            ticks: now.saturating_sub(t0),
            reports_taken: reader.stream().stats().reports_taken,
        };
        let elapsed = started.elapsed();
        finish(w, closing, failure, |mut r| {
            r.counts = reader.counts();
            r.interrupted = interrupted;
            r.elapsed = elapsed;
            r.emulated = Some(emulation);
            r
        })
    }
}

/// Close `w` with `closing`: the [`Recorded`] that `fill` completes, or
/// (when the writer fails) the error that ended the recording, else the
/// writer's.
fn finish<W: Write>(
    w: RecordingWriter<W>,
    closing: Correlation,
    failure: Option<RecordError>,
    fill: impl FnOnce(Recorded<W>) -> Recorded<W>,
) -> Result<Recorded<W>, RecordError> {
    let closing_size =
        perfregs_linux::record::HEADER_SIZE + perfregs_linux::recording::CORRELATION_PAYLOAD;
    let (samples, reports_lost, buffers_lost) = (w.samples(), w.reports_lost(), w.buffers_lost());
    let bytes = w.bytes_written() + closing_size as u64;
    let output = match w.finish(closing) {
        Ok(out) => out,
        Err(e) => return Err(failure.unwrap_or(RecordError::Write(e))),
    };
    Ok(fill(Recorded {
        output,
        samples,
        reports_lost,
        buffers_lost,
        bytes,
        counts: StreamCounts::default(),
        interrupted: false,
        elapsed: Duration::ZERO,
        closing,
        emulated: None,
        disable_error: None,
        failure,
    }))
}

/// Take every item the reader has now into the writer, `before` called
/// with each record and the writer ahead of writing it (the Xe status
/// events without a record type are counted by the reader).
fn drain<S: OaStream, W: Write>(
    reader: &mut StreamReader<S>,
    w: &mut RecordingWriter<W>,
    mut before: impl FnMut(&Record, &mut RecordingWriter<W>) -> Result<(), WriteError>,
) -> Result<(), RecordError> {
    loop {
        match reader.next().map_err(RecordError::Read)? {
            None => return Ok(()),
            Some(Item::Record(r)) => {
                before(&r, w)?;
                w.record(&r)?
            }
            Some(Item::CounterOverflow | Item::TriggerQueueFull | Item::UnknownStatus(_)) => {}
        }
    }
}

/// [`drain`] for [`Recorder::record`]: the first sample's TIME_STAMP
/// (dword 1) with the CPU time now is the opening correlation; `last`
/// keeps the last sample's.
fn device_drain<S: OaStream, W: Write>(
    reader: &mut StreamReader<S>,
    w: &mut RecordingWriter<W>,
    last: &mut Option<u64>,
) -> Result<(), RecordError> {
    drain(reader, w, |r, w| {
        if let Record::Sample(b) = r {
            let ts = b
                .get(4..8)
                .and_then(|x| x.try_into().ok())
                .map(u32::from_le_bytes)
                .map(u64::from);
            if last.is_none() {
                w.correlation(Correlation::now(ts.unwrap_or(0)))?;
            }
            *last = ts.or(*last);
        }
        Ok(())
    })
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use perfregs_linux::emulated::{EmulatedStream, Fault, StreamConfig};
    use perfregs_linux::recording::{RecordedDevice, read_all};
    use perfregs_linux::uapi::xe::status;
    use std::cell::Cell;

    /// TGL GT2's timestamp frequency.
    const TGL_HZ: u64 = 19_200_000;

    /// An emulated TGL GT2 stream programmed with TestOa, at `exponent`.
    fn stream(framing: Framing, exponent: u64, disabled: bool) -> EmulatedStream {
        let part = crate::part("tgl", None).expect("TGL");
        assert_eq!(part.device.gpu_timestamp_frequency, TGL_HZ);
        let set = crate::find_set(crate::sets(part).expect("sets"), "TestOa").expect("TestOa");
        let p = &hal::tgl::PROJECT;
        let emu = crate::emulator(p, &part.device);
        let (emu, _) = crate::program(emu, "tgl", set, &part.device).expect("programmed");
        let typed = crate::stream_format("tgl").expect("a TGL format");
        let format = p
            .formats
            .iter()
            .find(|f| f.name == typed.name)
            .expect("the layout");
        let mut cfg = StreamConfig::new(framing, format);
        cfg.exponent = exponent;
        cfg.disabled = disabled;
        EmulatedStream::open(emu, cfg).expect("the stream")
    }

    fn writer() -> RecordingWriter<Vec<u8>> {
        let device = RecordedDevice {
            timestamp_frequency: TGL_HZ,
            device_id: 0x9a49,
            oa_format: crate::stream_format("tgl").expect("a TGL format").id,
            metric_set_name: "TestOa".into(),
            ..Default::default()
        };
        RecordingWriter::new(Vec::new(), &device, &[0; 16]).expect("a header")
    }

    /// The recording reads back whole, IGT's reader takes it, and its
    /// counts are the outcome's.
    fn check_file(r: &Recorded<Vec<u8>>) -> usize {
        let (rec, error) = read_all(&r.output);
        assert!(error.is_none(), "{error:?}");
        assert_eq!(rec.igt_readable(), Ok(()));
        assert_eq!(
            (rec.samples, rec.reports_lost, rec.buffers_lost, rec.bytes),
            (r.samples, r.reports_lost, r.buffers_lost, r.bytes)
        );
        assert_eq!(rec.correlations.last(), Some(&r.closing));
        rec.correlations.len()
    }

    #[test]
    fn reports_stop_gives_at_least_that_many_reports() {
        for n in [1, 63, 64, 65, 1000] {
            let r = Recorder::new(Stop::Reports(n))
                .record_emulated(
                    stream(Framing::I915Records, 9, false),
                    writer(),
                    EmulatedPlan::new(TGL_HZ),
                )
                .expect("recorded");
            assert!(r.samples >= n, "{n}: {}", r.samples);
            // Time advances by the reports still wanted: none past them.
            assert!(r.samples <= n + 1, "{n}: {}", r.samples);
            assert_eq!(r.counts.reports, r.samples);
            assert!(!r.interrupted && r.failure.is_none(), "{r:?}");
            let e = r.emulated.expect("emulated");
            assert_eq!(e.reports_taken, r.samples);
            check_file(&r);
        }
    }

    #[test]
    fn ns_stop_is_emulated_time_with_a_correlation_each_second() {
        // Exponent 16: a report every 2^17 ticks at 19.2 MHz (6.8 ms).
        let r = Recorder::new(Stop::Ns(2_500_000_000))
            .record_emulated(
                stream(Framing::I915Records, 16, false),
                writer(),
                EmulatedPlan::new(TGL_HZ),
            )
            .expect("recorded");
        let e = r.emulated.expect("emulated");
        assert_eq!(e.ticks, TGL_HZ * 5 / 2);
        assert_eq!(r.samples, (TGL_HZ * 5 / 2) >> 17);
        // The start, 1 s, 2 s, the end.
        assert_eq!(check_file(&r), 4);
        let (rec, _) = read_all(&r.output);
        let c = &rec.correlations;
        assert_eq!(c[1].gpu_timestamp - c[0].gpu_timestamp, TGL_HZ);
        assert_eq!(c[1].cpu_ns - c[0].cpu_ns, 1_000_000_000);
        assert_eq!(c[3].cpu_ns - c[0].cpu_ns, 2_500_000_000);
    }

    #[test]
    fn a_set_flag_stops_the_recording_and_marks_it_interrupted() {
        let flag = AtomicBool::new(false);
        let calls = Cell::new(0u32);
        let r = Recorder::new(Stop::Signal)
            .flag(&flag)
            .progress(|p| {
                calls.set(calls.get() + 1);
                if p.samples >= 300 {
                    flag.store(true, Ordering::Relaxed);
                }
            })
            .record_emulated(
                stream(Framing::I915Records, 9, false),
                writer(),
                EmulatedPlan::new(TGL_HZ),
            )
            .expect("recorded");
        assert!(r.interrupted, "{r:?}");
        assert!((300..300 + CHUNK_REPORTS).contains(&r.samples), "{r:?}");
        assert!(calls.get() >= 5, "{}", calls.get());
        check_file(&r);

        // The device loop too, the flag set before it starts: nothing read.
        let flag = AtomicBool::new(true);
        let r = Recorder::new(Stop::Reports(10))
            .flag(&flag)
            .record(stream(Framing::I915Records, 9, true), writer())
            .expect("recorded");
        assert!(r.interrupted && r.samples == 0, "{r:?}");
        assert_eq!(r.closing.gpu_timestamp, 0);
        // Both correlations written at the end.
        assert_eq!(check_file(&r), 2);
    }

    #[test]
    fn injected_losses_are_counted_in_turn() {
        let plan = EmulatedPlan {
            timestamp_frequency: TGL_HZ,
            faults: Faults {
                losses: 3,
                ..Faults::default()
            },
        };
        let r = Recorder::new(Stop::Reports(2000))
            .record_emulated(stream(Framing::I915Records, 9, false), writer(), plan)
            .expect("recorded");
        assert_eq!((r.reports_lost, r.buffers_lost), (2, 1), "{r:?}");
        assert_eq!((r.counts.report_lost, r.counts.buffer_lost), (2, 1));
        assert!(r.samples >= 2000);
        check_file(&r);
    }

    #[test]
    fn an_injected_errno_ends_the_recording_with_what_was_read() {
        let plan = EmulatedPlan {
            timestamp_frequency: TGL_HZ,
            faults: Faults {
                errno: Some(code::EIO),
                ..Faults::default()
            },
        };
        let r = Recorder::new(Stop::Reports(2000))
            .record_emulated(stream(Framing::I915Records, 9, false), writer(), plan)
            .expect("recorded");
        let failure = r.failure.as_ref().expect("the EIO");
        assert!(
            matches!(failure, RecordError::Read(e) if e.errno() == Some(code::EIO)),
            "{failure:?}"
        );
        assert!(failure.to_string().starts_with("reading the OA stream: "));
        // Halfway: 2000 / 64 / 2 = 15 chunks of 64 before the failing read.
        assert_eq!(r.samples, 14 * CHUNK_REPORTS, "{r:?}");
        check_file(&r);
    }

    #[test]
    fn an_xe_status_halfway_is_counted() {
        let plan = EmulatedPlan {
            timestamp_frequency: TGL_HZ,
            faults: Faults {
                xe_status: Some(status::COUNTER_OVERFLOW | status::REPORT_LOST),
                ..Faults::default()
            },
        };
        // Opened disabled, as on a device: the loop enables it.
        let r = Recorder::new(Stop::Reports(1000))
            .record_emulated(stream(Framing::XeRaw, 9, true), writer(), plan)
            .expect("recorded");
        assert!(r.failure.is_none(), "{r:?}");
        assert!(r.samples >= 1000);
        assert_eq!((r.reports_lost, r.buffers_lost), (1, 0));
        assert_eq!((r.counts.status_reads, r.counts.counter_overflow), (1, 1));
        check_file(&r);
    }

    #[test]
    fn the_device_loop_records_an_xe_stream_with_its_losses() {
        let mut s = stream(Framing::XeRaw, 9, true);
        s.inject(3, Fault::ReportLost);
        s.inject(
            9,
            Fault::XeStatus(status::COUNTER_OVERFLOW | status::MMIO_TRG_Q_FULL),
        );
        s.inject(15, Fault::BufferLost);
        let ticks = Cell::new(0u32);
        let r = Recorder::new(Stop::Reports(500))
            .poll_timeout(Duration::from_millis(10))
            .progress(|p| {
                assert!(p.emulated_ticks.is_none());
                ticks.set(ticks.get() + 1);
            })
            .record(s, writer())
            .expect("recorded");
        assert!(r.samples >= 500 && !r.interrupted, "{r:?}");
        assert!(r.failure.is_none() && r.disable_error.is_none(), "{r:?}");
        assert!(r.emulated.is_none());
        assert_eq!((r.reports_lost, r.buffers_lost), (1, 1));
        assert_eq!(r.counts.status_reads, 3);
        assert_eq!(
            (r.counts.counter_overflow, r.counts.trigger_queue_full),
            (1, 1)
        );
        assert!(ticks.get() > 0);
        // The opening correlation before the first report, the closing one
        // with the last report's TIME_STAMP.
        assert_eq!(check_file(&r), 2);
        let (rec, _) = read_all(&r.output);
        let last = rec.sample_bytes().last().expect("a sample");
        let ts = u32::from_le_bytes(last[4..8].try_into().expect("4 bytes"));
        assert_eq!(r.closing.gpu_timestamp, u64::from(ts));
    }

    #[test]
    fn an_enable_refused_and_no_frequency_are_errors() {
        let mut s = stream(Framing::I915Records, 9, true);
        s.inject_ioctl(code::EIO);
        let e = Recorder::new(Stop::Reports(1))
            .record(s, writer())
            .expect_err("the enable fails");
        assert!(matches!(e, RecordError::Enable(_)), "{e:?}");
        assert!(e.to_string().starts_with("enabling the OA stream: "), "{e}");

        let e = Recorder::new(Stop::Reports(1))
            .record_emulated(
                stream(Framing::I915Records, 9, false),
                writer(),
                EmulatedPlan::new(0),
            )
            .expect_err("no frequency");
        assert!(matches!(e, RecordError::NoFrequency), "{e:?}");
    }
}
