//! Report intervals of an IGT-format recording (what `perfregs report`
//! computes before it prints).

use crate::Accumulate;
use perfregs_linux::record::Record;
use perfregs_linux::recording::{Correlation, Item, RecordedDevice, RecordingReader};
use perfregs_metrics::intervals::Interval;

/// What [`read_recording`] read: the setup the header decided, the
/// intervals, and counts of the records.
#[derive(Debug)]
pub struct Recording<S> {
    /// What the header's DEVICE_INFO and DEVICE_TOPOLOGY decided (`None`
    /// when the recording has neither).
    pub setup: Option<S>,
    /// The intervals, in order (the last one maybe partial).
    pub intervals: Vec<Interval>,
    /// The VERSION record's number.
    pub version: Option<u32>,
    /// Samples (OA reports) read.
    pub samples: u64,
    /// `OA_REPORT_LOST` records.
    pub reports_lost: u64,
    /// `OA_BUFFER_LOST` records.
    pub buffers_lost: u64,
    /// Timestamp correlations.
    pub correlations: u64,
    /// The timestamp correlations, in the order read.
    pub clock_pairs: Vec<Correlation>,
    /// The first sample's timestamp as drivers read it (its low 32 bits;
    /// `None`: no sample, or a format without one): the origin of the
    /// intervals' `start`/`end` ticks.
    pub first_timestamp: Option<u64>,
    /// Records read.
    pub records: u64,
    /// Bytes read.
    pub bytes: u64,
    /// The first error, located: what was read before it is kept.
    pub error: Option<String>,
}

impl<S> Default for Recording<S> {
    fn default() -> Self {
        Recording {
            setup: None,
            intervals: Vec::new(),
            version: None,
            samples: 0,
            reports_lost: 0,
            buffers_lost: 0,
            correlations: 0,
            clock_pairs: Vec::new(),
            first_timestamp: None,
            records: 0,
            bytes: 0,
            error: None,
        }
    }
}

/// Read a recording from `src` to its end or its first error, cutting its
/// reports into intervals. `setup` turns the header (DEVICE_INFO and the
/// DEVICE_TOPOLOGY bytes) into the caller's setup and the accumulator of
/// the recorded format (`Format::intervals`); it is called once, at the
/// first sample (or at the end, when there is none), and its error ends
/// the read.
///
/// ```
/// use perfregs_linux::record::Record;
/// use perfregs_linux::recording::{Correlation, RecordedDevice, RecordingWriter};
/// use perfregs_metrics::intervals::Window;
/// let part = perfregs_session::part("tgl", None)?;
/// let format = perfregs_session::stream_format("tgl").expect("a TGL format");
/// let run = perfregs_session::sample_emulated("tgl", &part.device, &[], 8)?;
/// let device = RecordedDevice {
///     timestamp_frequency: part.device.gpu_timestamp_frequency,
///     device_id: 0x9a49,
///     device_revision: 0,
///     gt_min_frequency: 0,
///     gt_max_frequency: 0,
///     engine_class: 0,
///     engine_instance: 0,
///     oa_format: format.id,
///     metric_set_name: "RenderBasic".into(),
///     metric_set_uuid: String::new(),
/// };
/// let mut w = RecordingWriter::new(Vec::new(), &device, &[]).expect("a header");
/// w.correlation(Correlation { cpu_ns: 0, gpu_timestamp: 0 }).expect("a correlation");
/// for report in run.buffer.chunks(format.size) {
///     w.record(&Record::Sample(report)).expect("a report");
/// }
/// let bytes = w.finish(Correlation { cpu_ns: 1, gpu_timestamp: u64::MAX }).expect("a recording");
///
/// let window = Window::Pairs(core::num::NonZeroU32::new(4).expect("4 > 0"));
/// let r = perfregs_session::read_recording(&bytes[..], |d: &RecordedDevice, _topology: &[u8]| {
///     Ok::<_, String>((d.metric_set_name.clone(), format.intervals(window)))
/// })?;
/// assert_eq!(r.setup.as_deref(), Some("RenderBasic"));
/// assert!(r.intervals.len() >= 2, "{r:?}");
/// assert_eq!(r.clock_pairs.len(), 2, "the opening and closing correlations");
/// let first = u32::from_le_bytes(run.buffer[4..8].try_into().expect("4 bytes"));
/// assert_eq!(r.first_timestamp, Some(u64::from(first)), "the first report's TIME_STAMP");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_recording<S, E>(
    src: impl std::io::Read,
    mut setup: impl FnMut(&RecordedDevice, &[u8]) -> Result<(S, Box<dyn Accumulate>), E>,
) -> Result<Recording<S>, E> {
    let mut r = RecordingReader::new(src);
    let mut out = Recording::default();
    let mut device: Option<RecordedDevice> = None;
    let mut topology: Option<Vec<u8>> = None;
    let mut acc: Option<Box<dyn Accumulate>> = None;
    // Losses before the first sample (before the header is complete).
    let (mut early_reports, mut early_buffers) = (0u32, 0u32);
    loop {
        let entry = match r.next_entry() {
            None => break,
            Some(Err(e)) => {
                out.error = Some(e.to_string());
                break;
            }
            Some(Ok(e)) => e,
        };
        let (offset, index) = (entry.offset, entry.index);
        match entry.item {
            Item::Version(v) => out.version = Some(v),
            Item::Device(d) => {
                if acc.is_some() && device.as_ref() != Some(&d) {
                    out.error = Some(format!(
                        "record {index} at byte {offset}: a second DEVICE_INFO that changes the device or set after samples: not supported (split the recording)"
                    ));
                    break;
                }
                device = Some(d);
            }
            Item::Topology(t) => {
                if acc.is_some() && topology.as_deref() != Some(t) {
                    out.error = Some(format!(
                        "record {index} at byte {offset}: a second DEVICE_TOPOLOGY that changes the topology after samples: not supported (split the recording)"
                    ));
                    break;
                }
                topology = Some(t.to_vec());
            }
            Item::Correlation(c) => {
                out.correlations += 1;
                out.clock_pairs.push(c);
            }
            Item::Stream(Record::ReportLost) => {
                out.reports_lost += 1;
                match acc.as_mut() {
                    Some(a) => a.report_lost(),
                    None => early_reports = early_reports.saturating_add(1),
                }
            }
            Item::Stream(Record::BufferLost) => {
                out.buffers_lost += 1;
                match acc.as_mut() {
                    Some(a) => a.buffer_lost(),
                    None => early_buffers = early_buffers.saturating_add(1),
                }
            }
            Item::Stream(Record::Sample(bytes)) => {
                if acc.is_none() {
                    // The reader gives a sample only after both records.
                    let (Some(d), Some(t)) = (device.as_ref(), topology.as_deref()) else {
                        out.error = Some(format!(
                            "record {index} at byte {offset}: a sample before DEVICE_INFO and DEVICE_TOPOLOGY"
                        ));
                        break;
                    };
                    let (s, mut a) = setup(d, t)?;
                    for _ in 0..early_reports {
                        a.report_lost();
                    }
                    for _ in 0..early_buffers {
                        a.buffer_lost();
                    }
                    acc = Some(a);
                    out.setup = Some(s);
                }
                let Some(a) = acc.as_mut() else { break };
                if out.samples == 0 {
                    out.first_timestamp = a.timestamp(bytes);
                }
                match a.push(bytes) {
                    Some(closed) => out.intervals.extend(closed),
                    None => {
                        out.error = Some(format!(
                            "record {index} at byte {offset}: a sample of {} bytes is not one report of the recorded format",
                            bytes.len()
                        ));
                        break;
                    }
                }
                out.samples += 1;
            }
        }
        out.records = r.records();
        out.bytes = r.offset();
    }
    out.records = r.records();
    out.bytes = r.offset();
    match acc.as_mut() {
        Some(a) => out.intervals.extend(a.finish()),
        None => {
            // No sample: the header still decides what the recording is.
            if let (Some(d), Some(t)) = (device.as_ref(), topology.as_deref()) {
                out.setup = Some(setup(d, t)?.0);
            }
        }
    }
    Ok(out)
}
