//! A circular recording: the sink a [`RecordingWriter`](crate::recording::RecordingWriter)
//! writes into when only the last part of a long capture is wanted (as
//! IGT's recorder keeps a circular buffer). It keeps the recording's header
//! (VERSION, DEVICE_INFO, DEVICE_TOPOLOGY) and the newest whole records
//! within a byte budget, and gives them back as a recording of their own
//! ([`Ring::snapshot`]) on request: at the end, or whenever a flag (set by a
//! signal) asks, into a file of its own.
//!
//! What it keeps is a byte budget ([`Ring::new`]) or a time window by the
//! reports' own timestamps ([`Ring::window`]: the reports of the last N
//! timestamp ticks before the newest, with the records between them).
//!
//! Nothing of what it keeps is cut: records are kept whole and in order, the
//! losses among them too, and when the oldest records go, the newest
//! TIMESTAMP_CORRELATION among them is kept to lead the snapshot, so its
//! samples can still be placed in CPU time.

use crate::record::{RecordHeader, HEADER_SIZE, RECORD_SAMPLE};
use crate::recording::RecordingFormat;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Records of the header (VERSION, DEVICE_INFO, DEVICE_TOPOLOGY).
const HEADER_RECORDS: usize = 3;

/// Where a sample record's report holds its timestamp (the layout's
/// `TIME_STAMP` slot): byte offset into the report and width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampSlot {
    /// Byte offset in the report.
    pub offset: usize,
    /// Width in bits (32 or 64); the timestamp wraps at this width.
    pub bits: u32,
}

impl TimestampSlot {
    /// The timestamp of `report`, if it holds the slot.
    fn read(self, report: &[u8]) -> Option<u64> {
        let bytes = report.get(self.offset..self.offset + 8.min(self.bits as usize / 8))?;
        let mut v = [0u8; 8];
        v.get_mut(..bytes.len())?.copy_from_slice(bytes);
        Some(u64::from_le_bytes(v))
    }
}

/// The time-window rule: the slot, the window in ticks, and the unwrapped
/// timeline (last raw timestamp, its unwrapped value).
#[derive(Debug, Clone, Copy)]
struct Window {
    slot: TimestampSlot,
    ticks: u64,
    last: Option<(u64, u64)>,
}

/// The circular sink; see the module documentation.
#[derive(Debug)]
pub struct Ring {
    budget: usize,
    /// With a time window: what it keeps is the window, not the budget.
    window: Option<Window>,
    /// Bytes of a record not complete yet.
    partial: Vec<u8>,
    head: Vec<u8>,
    head_records: usize,
    format: Option<RecordingFormat>,
    /// The kept records, each with the unwrapped timestamp of its report or
    /// of the last report before it (0 without a window).
    records: VecDeque<(Vec<u8>, u64)>,
    bytes: usize,
    /// The newest correlation that left the ring.
    lead: Option<Vec<u8>>,
    dropped: u64,
    dump: Option<Dump>,
}

/// Snapshots on request: when `flag` is set, the next whole record written
/// writes one into `stem.N.ext`.
#[derive(Debug)]
struct Dump {
    flag: Arc<AtomicBool>,
    path: PathBuf,
    taken: u32,
    said: Vec<(PathBuf, io::Result<usize>)>,
}

impl Ring {
    /// A ring keeping at most `budget` bytes of stream records (the header
    /// and the leading correlation come on top).
    pub fn new(budget: usize) -> Self {
        Ring {
            budget,
            window: None,
            partial: Vec::new(),
            head: Vec::new(),
            head_records: 0,
            format: None,
            records: VecDeque::new(),
            bytes: 0,
            lead: None,
            dropped: 0,
            dump: None,
        }
    }

    /// A ring keeping the reports of the last `ticks` timestamp ticks (a
    /// report whose timestamp is at most `ticks` before the newest one's
    /// stays, and the one report before them, so that the first kept pair
    /// spans the window's start), with the records between them, whatever
    /// their size (memory grows with the report rate times the window); `slot`
    /// says where a report holds its timestamp. Timestamps are unwrapped at
    /// the slot's width, so a 32-bit timestamp wrapping inside the window
    /// is no gap.
    pub fn window(ticks: u64, slot: TimestampSlot) -> Self {
        let mut r = Ring::new(usize::MAX);
        r.window = Some(Window {
            slot,
            ticks,
            last: None,
        });
        r
    }

    /// The span of the kept reports in timestamp ticks (newest minus
    /// oldest; 0 without a window or with fewer than two).
    pub fn kept_ticks(&self) -> u64 {
        match (self.records.front(), self.records.back()) {
            (Some(a), Some(b)) if self.window.is_some() => b.1 - a.1,
            _ => 0,
        }
    }

    /// Write a snapshot next to `path` (`run.record` gives `run.1.record`,
    /// `run.2.record`, ...) each time `flag` is found set after a record
    /// (the flag is cleared).
    #[must_use]
    pub fn dump_on(mut self, flag: Arc<AtomicBool>, path: PathBuf) -> Self {
        self.dump = Some(Dump {
            flag,
            path,
            taken: 0,
            said: Vec::new(),
        });
        self
    }

    /// The recording it holds now: the header, the leading correlation
    /// (when the oldest records have gone and the kept ones do not start
    /// with one), then the kept records.
    pub fn snapshot(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.head.len() + self.bytes + 64);
        out.extend_from_slice(&self.head);
        let starts_with_correlation = self
            .records
            .front()
            .is_some_and(|r| self.is_correlation(&r.0));
        if let Some(lead) = self.lead.as_ref().filter(|_| !starts_with_correlation) {
            out.extend_from_slice(lead);
        }
        for (r, _) in &self.records {
            out.extend_from_slice(r);
        }
        out
    }

    /// Stream records kept now.
    pub fn kept(&self) -> usize {
        self.records.len()
    }
    /// Bytes of stream records kept now.
    pub fn kept_bytes(&self) -> usize {
        self.bytes
    }
    /// Records that left the ring (oldest first) so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
    /// The snapshots written on request, each with its size or its error,
    /// taken out (for the caller to say).
    pub fn take_dumps(&mut self) -> Vec<(PathBuf, io::Result<usize>)> {
        self.dump
            .as_mut()
            .map_or_else(Vec::new, |d| std::mem::take(&mut d.said))
    }

    fn is_correlation(&self, record: &[u8]) -> bool {
        let Some(f) = self.format else { return false };
        RecordHeader::parse(record).is_some_and(|h| h.kind == f.metadata_types()[3])
    }

    /// The unwrapped timestamp of `record` (a sample's report), else of the
    /// last report; 0 without a window.
    fn timestamp_of(&mut self, record: &[u8]) -> u64 {
        let Some(w) = self.window.as_mut() else {
            return 0;
        };
        let last = w.last.map_or(0, |l| l.1);
        let sample = RecordHeader::parse(record).is_some_and(|h| h.kind == RECORD_SAMPLE);
        let Some(raw) = sample
            .then(|| record.get(HEADER_SIZE..))
            .flatten()
            .and_then(|r| w.slot.read(r))
        else {
            return last;
        };
        let mask = match w.slot.bits {
            b if b >= 64 => u64::MAX,
            b => (1u64 << b) - 1,
        };
        let raw = raw & mask;
        let at = match w.last {
            None => raw,
            Some((prev, un)) => un.saturating_add(raw.wrapping_sub(prev) & mask),
        };
        w.last = Some((raw, at));
        at
    }

    /// One whole record.
    fn push(&mut self, record: Vec<u8>) {
        if self.head_records < HEADER_RECORDS {
            if self.head_records == 0 {
                self.format = RecordingFormat::detect(&record);
            }
            self.head.extend_from_slice(&record);
            self.head_records += 1;
            return;
        }
        let at = self.timestamp_of(&record);
        self.bytes += record.len();
        self.records.push_back((record, at));
        loop {
            let over = match self.window {
                // The oldest goes when the record after it is outside the
                // window too: the newest report before the window stays,
                // so the first kept pair spans the window's start; the
                // records after a report carry its timestamp and leave
                // after it.
                Some(w) => self
                    .records
                    .get(1)
                    .is_some_and(|next| at - next.1 > w.ticks),
                None => self.bytes > self.budget && self.records.len() > 1,
            };
            if !over {
                break;
            }
            let Some((old, _)) = self.records.pop_front() else {
                break;
            };
            self.bytes -= old.len();
            self.dropped += 1;
            if self.is_correlation(&old) {
                self.lead = Some(old);
            }
        }
        if self
            .dump
            .as_ref()
            .is_some_and(|d| d.flag.swap(false, Ordering::AcqRel))
        {
            let snapshot = self.snapshot();
            if let Some(d) = self.dump.as_mut() {
                d.taken += 1;
                let path = numbered(&d.path, d.taken);
                let result = std::fs::write(&path, &snapshot).map(|()| snapshot.len());
                d.said.push((path, result));
            }
        }
    }
}

/// `dir/run.record` numbered `n`: `dir/run.n.record` (`run` without an
/// extension: `run.n`).
fn numbered(path: &std::path::Path, n: u32) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(Default::default, |s| s.to_os_string());
    let mut name = stem;
    name.push(format!(".{n}"));
    if let Some(ext) = path.extension() {
        name.push(".");
        name.push(ext);
    }
    path.with_file_name(name)
}

impl Write for Ring {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        let mut at = 0;
        while let Some(h) = self.partial.get(at..).and_then(RecordHeader::parse) {
            let size = usize::from(h.size);
            if size < HEADER_SIZE {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a record of {size} bytes: not a recording's framing"),
                ));
            }
            let Some(record) = self.partial.get(at..at + size) else {
                break;
            };
            let record = record.to_vec();
            at += size;
            self.push(record);
        }
        self.partial.drain(..at);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The control of a circular recording through a FIFO, as IGT's recorder
/// takes commands: a line `dump` asks for a snapshot, `quit` ends the
/// recording. The FIFO is made when `path` does not exist; a thread reads
/// it (reopened after each writer closes) for as long as the process runs.
#[cfg(target_os = "linux")]
pub fn control_fifo(
    path: &std::path::Path,
    dump: Arc<AtomicBool>,
    quit: Arc<AtomicBool>,
) -> io::Result<()> {
    use rustix::fs::{FileType, Mode, CWD};
    match std::fs::metadata(path) {
        Ok(m)
            if FileType::from_raw_mode(std::os::unix::fs::MetadataExt::mode(&m))
                == FileType::Fifo => {}
        Ok(_) => {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists and is not a FIFO", path.display()),
            ))
        }
        Err(_) => rustix::fs::mkfifoat(CWD, path, Mode::from_raw_mode(0o600))?,
    }
    let path = path.to_path_buf();
    std::thread::Builder::new()
        .name("perfregs-control".into())
        .spawn(move || loop {
            // Blocks until a writer opens the FIFO; its lines, then EOF.
            let Ok(f) = std::fs::File::open(&path) else {
                return;
            };
            for line in io::BufRead::lines(io::BufReader::new(f)) {
                match line.as_deref().map(str::trim) {
                    Ok("dump") => dump.store(true, Ordering::Release),
                    Ok("quit") => {
                        quit.store(true, Ordering::Release);
                        return;
                    }
                    Ok("") => {}
                    Ok(other) => {
                        eprintln!("perfregs: control: unknown command `{other}` (dump, quit)");
                    }
                    Err(_) => break,
                }
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::recording::{read_all, Correlation, RecordedDevice, RecordingWriter};

    fn device() -> RecordedDevice {
        RecordedDevice {
            timestamp_frequency: 12_500_000,
            device_id: 0x1616,
            oa_format: 10, // 256-byte reports
            metric_set_name: "TestOa".into(),
            ..Default::default()
        }
    }

    /// A report whose timestamp dword is `k`.
    fn report(k: u32) -> [u8; 256] {
        let mut r = [0u8; 256];
        r[4..8].copy_from_slice(&k.to_le_bytes());
        r
    }

    fn timestamps(bytes: &[u8]) -> Vec<u32> {
        let (rec, err) = read_all(bytes);
        assert!(err.is_none(), "{err:?}");
        rec.sample_bytes()
            .map(|s| u32::from_le_bytes([s[4], s[5], s[6], s[7]]))
            .collect()
    }

    #[test]
    fn the_newest_records_are_kept_whole_with_a_correlation() {
        let budget = 20 * (HEADER_SIZE + 256);
        let mut w = RecordingWriter::new(Ring::new(budget), &device(), &[0; 16]).expect("header");
        w.correlation(Correlation {
            cpu_ns: 1,
            gpu_timestamp: 0,
        })
        .expect("c");
        for k in 0..100u32 {
            w.record(&Record::Sample(&report(k))).expect("sample");
            if k == 90 {
                w.record(&Record::ReportLost).expect("loss");
            }
            if k % 50 == 49 {
                w.correlation(Correlation {
                    cpu_ns: u64::from(k),
                    gpu_timestamp: u64::from(k),
                })
                .expect("c");
            }
        }
        let ring = w
            .finish(Correlation {
                cpu_ns: 200,
                gpu_timestamp: 99,
            })
            .expect("finish");
        assert!(ring.kept_bytes() <= budget);
        let snap = ring.snapshot();
        let (rec, err) = read_all(&snap);
        assert!(err.is_none(), "{err:?}");
        // The newest samples, in order, none cut; the loss among them kept.
        let ts = timestamps(&snap);
        assert_eq!(ts.last(), Some(&99));
        assert!(ts.windows(2).all(|w| w[1] == w[0] + 1), "{ts:?}");
        assert!(ts.len() >= 15, "{}", ts.len());
        assert_eq!(rec.reports_lost, 1);
        // The correlation that left with the oldest records leads them.
        assert!(rec.correlations.len() >= 2, "{:?}", rec.correlations);
        assert_eq!(
            rec.device.map(|d| d.metric_set_name),
            Some("TestOa".to_string())
        );
        assert!(ring.dropped() > 0);
    }

    #[test]
    fn a_flag_writes_a_numbered_snapshot() {
        let dir = std::env::temp_dir().join(format!("perfregs-ring-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let flag = Arc::new(AtomicBool::new(false));
        let ring = Ring::new(1 << 20).dump_on(flag.clone(), dir.join("run.record"));
        let mut w = RecordingWriter::new(ring, &device(), &[0; 16]).expect("header");
        w.correlation(Correlation {
            cpu_ns: 1,
            gpu_timestamp: 0,
        })
        .expect("c");
        for k in 0..10u32 {
            if k == 5 {
                flag.store(true, Ordering::Release);
            }
            w.record(&Record::Sample(&report(k))).expect("sample");
        }
        let mut ring = w
            .finish(Correlation {
                cpu_ns: 2,
                gpu_timestamp: 9,
            })
            .expect("finish");
        let dumps = ring.take_dumps();
        assert_eq!(dumps.len(), 1);
        let (path, size) = &dumps[0];
        assert_eq!(path, &dir.join("run.1.record"));
        let bytes = std::fs::read(path).expect("the snapshot");
        assert_eq!(size.as_ref().ok(), Some(&bytes.len()));
        // Written after sample 5, with samples 0..=5.
        assert_eq!(timestamps(&bytes), (0..=5).collect::<Vec<_>>());
        assert!(!flag.load(Ordering::Acquire));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A time window keeps the reports of the last N ticks (and the one
    /// before them) by their timestamps, whole, across a 32-bit wrap,
    /// whatever their bytes; the loss inside it stays; the correlation that
    /// left leads them.
    #[test]
    fn a_time_window_keeps_the_last_ticks_across_a_wrap() {
        let slot = TimestampSlot {
            offset: 4,
            bits: 32,
        };
        let mut w =
            RecordingWriter::new(Ring::window(1000, slot), &device(), &[0; 16]).expect("header");
        w.correlation(Correlation {
            cpu_ns: 1,
            gpu_timestamp: 0,
        })
        .expect("c");
        // A report every 100 ticks, from 3000 ticks before the 32-bit wrap.
        let start = u32::MAX - 2999;
        let ts: Vec<u32> = (0..60u32).map(|k| start.wrapping_add(k * 100)).collect();
        for (k, &t) in ts.iter().enumerate() {
            w.record(&Record::Sample(&report(t))).expect("sample");
            if k == 55 {
                w.record(&Record::ReportLost).expect("loss");
            }
        }
        let ring = w
            .finish(Correlation {
                cpu_ns: 2,
                gpu_timestamp: 0,
            })
            .expect("finish");
        let snap = ring.snapshot();
        let (rec, err) = read_all(&snap);
        assert!(err.is_none(), "{err:?}");
        // Newest at ts[59]; the window's reports are ts[49..=59] (0 to 1000
        // ticks before it), and ts[48] before them.
        assert_eq!(timestamps(&snap), ts[48..].to_vec());
        assert_eq!(rec.reports_lost, 1);
        assert_eq!(ring.kept_ticks(), 1100);
        assert!(rec.correlations.len() >= 2, "the leading correlation");
    }

    #[test]
    fn numbered_names() {
        assert_eq!(
            numbered(std::path::Path::new("/a/run.record"), 2),
            PathBuf::from("/a/run.2.record")
        );
        assert_eq!(
            numbered(std::path::Path::new("run"), 1),
            PathBuf::from("run.1")
        );
    }
}
