//! The emulated kernel (feature `emulated`): an OA stream ([`EmulatedStream`]) that drives the
//! emulator's [`OaUnit`] as i915 perf (or Xe) drives the hardware, and
//! hands its records to the reader through a real pipe, in exactly the
//! kernel's framing, so every test of
//! [`StreamReader`](crate::stream::StreamReader) runs the real read path
//! ([`StreamFd`]).
//!
//! What it does, as the kernel does:
//!
//! - **open** wakes the power domains (the kernel holds force-wake while
//!   sampling) and starts periodic sampling with
//!   [`start_periodic`](perfregs_emu::UnitMut::start_periodic): the OA buffer at
//!   [`StreamConfig::base`], the report format, the timer exponent (a report
//!   every 2^(e+1) timestamp ticks). SNB, IVB and VLV answer `ENODEV` (no
//!   OA stream under Linux); bad arguments `EINVAL`.
//! - **time** passes while the reader waits: a `read()` that finds nothing
//!   (it returns `EAGAIN`) and a `poll()` that finds nothing advance the
//!   emulator by [`StreamConfig::ticks_per_read`] ticks, so reading until
//!   `EAGAIN` ends, and the next read or poll has new reports; a blocking
//!   `poll(None)` advances period by period until a report is there.
//!   [`EmulatedStream::advance`] and [`EmulatedStream::advance_reports`]
//!   move time at will.
//! - **read** looks at the OA status register (i915: buffer overflow → an
//!   `OA_BUFFER_LOST` record and the buffer reset; report lost → an
//!   `OA_REPORT_LOST` record and the bit cleared; Xe: any relevant bit →
//!   `EIO`, the bits kept for the STATUS ioctl), takes the reports between
//!   the head and tail registers from graphics memory and moves the head,
//!   then copies only whole records that fit the caller's buffer (`ENOSPC`
//!   when not even one fits; `EAGAIN` when nothing is pending). i915 refuses
//!   reads of a disabled stream with `EIO` (as `i915_perf_read` does); Xe
//!   keeps returning what is left.
//! - **enable** re-initialises the OA buffer and starts sampling;
//!   **disable** clears the OA counter enable (no more reports).
//!
//! A full buffer whose tail met its head exactly is indistinguishable from
//! an empty one in the registers (as on hardware); the next report sets the
//! overflow status, which is reported as a buffer loss, so nothing is lost
//! silently.
//!
//! A **context filter** ([`StreamConfig::context`]: i915's `CTX_HANDLE`, xe's
//! `EXEC_QUEUE_ID`) forwards only the reports whose CTX_ID is that context
//! (formats without a CTX_ID field forward every report). The emulated
//! kernel takes the handle as the context's hardware id, so a report's
//! CTX_ID is the number asked for (on a real kernel it is the context's
//! hardware id, which differs from the handle). It checks the id as the
//! drivers do where it can: xe numbers exec queues from 1, so 0 is `ENOENT`;
//! i915 accepts 0 (every DRM file has a default context 0) and, since the
//! emulated kernel has no GEM contexts to look up, any other handle. The
//! contexts the emulated client runs are [`StreamConfig::clients`] (with a
//! filter and no clients: the filtered context alone).
//!
//! Faults ([`Fault`]) inject each loss and each errno at a chosen read, and
//! [`StreamConfig::open_errno`] an errno at open (`EACCES`, `ENODEV`, ...).
//!
//! ```
//! use perfregs_emu::Emulator;
//! use perfregs_linux::emulated::{EmulatedStream, Fault, StreamConfig};
//! use perfregs_linux::record::Record;
//! use perfregs_linux::stream::{Framing, Item, StreamReader};
//!
//! let p = &hal::tgl::PROJECT;
//! let format = p.formats.iter().find(|f| f.size == 256).unwrap();
//! let mut stream = EmulatedStream::open(
//!     Emulator::new(p, Default::default()),
//!     StreamConfig::new(Framing::I915Records, format),
//! )
//! .unwrap();
//! stream.advance_reports(10);
//! stream.inject_next(Fault::ReportLost);
//! let mut reader = StreamReader::new(stream);
//! let (mut reports, mut lost) = (0, 0);
//! reader
//!     .drain(|item| match item {
//!         Item::Record(Record::Sample(r)) => reports += usize::from(r.len() == 256),
//!         Item::Record(Record::ReportLost) => lost += 1,
//!         _ => {}
//!     })
//!     .unwrap();
//! assert_eq!((reports, lost), (10, 1));
//! assert_eq!(reader.counts().reports, 10);
//! ```

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;
use std::vec::Vec;

use crate::errno::{code, Driver, KernelError, Op, StreamError};
use crate::record::Record;
use crate::stream::fd::{self, PipeWriter, StreamFd};
use crate::stream::{Framing, OaStream};
use crate::uapi::xe::status as xe_status;
use hal::meta::{FormatInfo, ProjectInfo};

use perfregs_emu::{Emulator, OaUnit, StartError};

/// How an emulated stream is opened.
#[derive(Clone, Copy, Debug)]
pub struct StreamConfig {
    /// i915 records or Xe raw reports.
    pub framing: Framing,
    /// The report format (one of the project's [`ProjectInfo::formats`]).
    pub format: &'static FormatInfo,
    /// Timer exponent: a report every 2^(exponent + 1) timestamp ticks.
    pub exponent: u64,
    /// OA buffer size in bytes (an encodable size: 128 KiB << n).
    pub buffer_size: u64,
    /// OA buffer graphics address (aligned to its size).
    pub base: u64,
    /// Emulator ticks a `read()` or `poll()` that finds nothing advances.
    pub ticks_per_read: u64,
    /// Open disabled (`I915_PERF_FLAG_DISABLED`, Xe `OA_DISABLED`).
    pub disabled: bool,
    /// Fail the open with this errno (`EACCES`, `ENODEV`, `EBUSY`, ...).
    pub open_errno: Option<i32>,
    /// The OA unit (xe's `OA_UNIT_ID`: the catalogue's order, 0 the render
    /// unit).
    pub unit: usize,
    /// Forward only the reports of this context (i915 `CTX_HANDLE`, xe
    /// `EXEC_QUEUE_ID`); `None`: system-wide.
    pub context: Option<u32>,
    /// The render contexts the emulated client runs, in turn; `None`: none
    /// (reports carry no valid context), or with [`context`](Self::context)
    /// that context alone.
    pub clients: Option<ContextRun>,
}

impl StreamConfig {
    /// Defaults: exponent 9 (a report every 1024 ticks), a 16 MiB buffer at
    /// 16 MiB, 8 periods per read, enabled.
    pub fn new(framing: Framing, format: &'static FormatInfo) -> Self {
        StreamConfig {
            framing,
            format,
            exponent: 9,
            buffer_size: 16 << 20,
            base: 0x0100_0000,
            ticks_per_read: 8 << 10,
            disabled: false,
            open_errno: None,
            unit: 0,
            context: None,
            clients: None,
        }
    }

    /// The stream `params` would open on `project` under i915: its format
    /// (the project's layout of the same name as the `I915_OA_FORMAT_*`),
    /// exponent and disabled flag; the other settings are the defaults.
    /// `EINVAL` (naming OA_FORMAT) when the project has no such layout.
    pub fn from_i915(
        project: &'static ProjectInfo,
        params: &crate::stream::i915::I915Params,
    ) -> Result<Self, StreamError> {
        let name = crate::uapi::i915::oa_format(params.format).map(|f| f.name);
        let format = name.and_then(|n| {
            project
                .formats
                .iter()
                .copied()
                .find(|f| f.name.eq_ignore_ascii_case(n))
        });
        let Some(format) = format else {
            return Err(KernelError::new(
                Driver::Emulated,
                Op::OpenStream {
                    properties: params.summary(),
                    suspect: Some(format!(
                        "OA_FORMAT={} ({}: not a format of {})",
                        params.format,
                        name.unwrap_or("unknown"),
                        project.name
                    )),
                },
                code::EINVAL,
            )
            .into());
        };
        let mut cfg = StreamConfig::new(Framing::I915Records, format);
        cfg.exponent = params.exponent;
        cfg.context = params.ctx_handle;
        cfg.disabled = params.flags & crate::uapi::i915::I915_PERF_FLAG_DISABLED != 0;
        Ok(cfg)
    }

    /// Timestamp ticks between timer reports: 2^(exponent + 1) (`None`
    /// when that does not fit 64 bits).
    pub fn period(&self) -> Option<u64> {
        1u64.checked_shl(u32::try_from(self.exponent.checked_add(1)?).ok()?)
    }

    /// The properties as a message names them.
    fn summary(&self) -> String {
        let ctx = match (self.context, self.framing) {
            (None, _) => String::new(),
            (Some(c), Framing::XeRaw) => format!(" EXEC_QUEUE_ID={c}"),
            (Some(c), Framing::I915Records) => format!(" CTX_HANDLE={c}"),
        };
        format!(
            "SAMPLE_OA=1 OA_FORMAT={} OA_EXPONENT={}{ctx} buffer={} bytes",
            self.format.name, self.exponent, self.buffer_size
        )
    }
}

/// The render contexts an emulated client runs: `ids[0]`, then `ids[1]`,
/// `ticks` timestamp ticks each, in turn (equal ids: one context).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ContextRun {
    /// The two contexts (hardware ids).
    pub ids: [u32; 2],
    /// Ticks each runs before the other (at least 1).
    pub ticks: u64,
}

/// A fault injected at one read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The read fails with this errno (`EINTR`, `ENOSPC`, `EIO`, `ENODEV`,
    /// ...) without consuming anything.
    Errno(i32),
    /// The OA unit lost a report: i915 an `OA_REPORT_LOST` record, Xe the
    /// REPORT_LOST status (`EIO`).
    ReportLost,
    /// The OA buffer overflowed: i915 an `OA_BUFFER_LOST` record, Xe the
    /// BUFFER_OVERFLOW status (`EIO`).
    BufferLost,
    /// Xe: these STATUS bits (`EIO`). On i915 streams: REPORT_LOST and
    /// BUFFER_OVERFLOW become records, other bits are ignored as i915
    /// ignores them.
    XeStatus(u64),
}

/// What the emulated kernel did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelStats {
    /// `read()` calls.
    pub reads: u64,
    /// Reports taken from the OA buffer.
    pub reports_taken: u64,
    /// Reports copied to the reader.
    pub reports_copied: u64,
    /// Report-lost events (status bit or injected).
    pub report_lost: u64,
    /// Buffer-overflow events (status bit or injected).
    pub buffer_lost: u64,
    /// OA buffer re-initialisations (overflow, enable).
    pub resets: u64,
    /// Faults injected that fired.
    pub faults: u64,
    /// Reports of other contexts a context filter did not forward.
    pub reports_filtered: u64,
}

/// A register field in place: the register's address and the field mask.
#[derive(Clone, Copy, Debug)]
struct Field {
    addr: u64,
    mask: u64,
}

/// The OA registers the kernel reads and writes.
#[derive(Clone, Copy, Debug)]
struct Regs {
    head: Field,
    tail: Field,
    enable: Field,
    report_lost: Field,
    buffer_overflow: Field,
    counter_overflow: Option<Field>,
    /// The ring wraps at the largest multiple of the report size.
    whole_reports: bool,
}

impl Regs {
    /// The unit's fields, from the emulator's bindings.
    fn of(f: perfregs_emu::StreamFields) -> Regs {
        let k = |x: perfregs_emu::KernelField| Field {
            addr: x.addr,
            mask: x.mask,
        };
        Regs {
            head: k(f.head),
            tail: k(f.tail),
            enable: k(f.enable),
            report_lost: k(f.report_lost),
            buffer_overflow: k(f.buffer_overflow),
            counter_overflow: f.counter_overflow.map(k),
            whole_reports: f.wraps_at_whole_reports,
        }
    }
}

/// An OA stream on the emulated GPU, answering as the kernel does (see the
/// [module documentation](self)).
pub struct EmulatedStream {
    emu: Emulator,
    cfg: StreamConfig,
    regs: Regs,
    read_end: StreamFd,
    write_end: PipeWriter,
    /// Records (i915 framing) or raw reports (Xe) waiting for a read.
    pending: VecDeque<Vec<u8>>,
    enabled: bool,
    /// Xe: status bits waiting for the STATUS ioctl.
    xe_status: u64,
    faults: BTreeMap<u64, Vec<Fault>>,
    ioctl_faults: VecDeque<i32>,
    stats: KernelStats,
}

impl core::fmt::Debug for EmulatedStream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EmulatedStream")
            .field("project", &self.emu.project().name)
            .field("cfg", &self.cfg)
            .field("enabled", &self.enabled)
            .field("pending", &self.pending.len())
            .field("stats", &self.stats)
            .finish()
    }
}

impl EmulatedStream {
    /// Open a stream on `emu` (which the stream owns from now on) with
    /// `cfg`. Errors are the kernel's: the injected
    /// [`open_errno`](StreamConfig::open_errno), `ENODEV` (SNB/IVB/VLV, or
    /// no OA unit), `EINVAL` (a format not of this project, an exponent or
    /// buffer the unit cannot take), each naming the property.
    pub fn open(mut emu: Emulator, cfg: StreamConfig) -> Result<Self, StreamError> {
        let p = emu.project();
        let fail = |errno, suspect: Option<String>| -> StreamError {
            KernelError::new(
                Driver::Emulated,
                Op::OpenStream {
                    properties: cfg.summary(),
                    suspect,
                },
                errno,
            )
            .into()
        };
        if let Some(e) = cfg.open_errno {
            return Err(fail(e, None));
        }
        // The catalogue gives the project no OA unit the kernel streams.
        if p.gpu.is_some_and(|g| g.oa.is_none()) {
            return Err(fail(code::ENODEV, None));
        }
        let Some(regs) = emu
            .unit_nth::<OaUnit>(cfg.unit)
            .stream_fields()
            .map(Regs::of)
        else {
            return Err(fail(
                code::ENODEV,
                (cfg.unit > 0).then(|| format!("OA_UNIT_ID={} (no such OA unit)", cfg.unit)),
            ));
        };
        if !p.formats.iter().any(|f| {
            core::ptr::eq(*f, cfg.format)
                || (f.select == cfg.format.select
                    && f.size == cfg.format.size
                    && f.name == cfg.format.name)
        }) || cfg.format.size == 0
        {
            return Err(fail(
                code::EINVAL,
                Some(format!(
                    "OA_FORMAT={} (not a format of {})",
                    cfg.format.name, p.name
                )),
            ));
        }
        if cfg.exponent > 31 || cfg.period().is_none() {
            return Err(fail(
                code::EINVAL,
                Some(format!("OA_EXPONENT={} (at most 31)", cfg.exponent)),
            ));
        }
        if cfg.framing == Framing::XeRaw && cfg.context == Some(0) {
            return Err(fail(
                code::ENOENT,
                Some("EXEC_QUEUE_ID=0 (no such exec queue: xe numbers them from 1)".into()),
            ));
        }
        let (read_end, write_end) = fd::pipe(Driver::Emulated)
            .map_err(|e| fail(e, Some("the emulated kernel's pipe".into())))?;
        // The kernel holds force-wake while sampling: wake every domain.
        for d in p.domains.iter().filter(|d| !d.always_on) {
            if let Some(req) = d.request.and_then(|r| p.register(r)) {
                // A masked enable, or the bit alone on an unmasked request (Gen6).
                emu.write32(req.address, if req.masked { 0x0001_0001 } else { 1 });
            }
        }
        let wake = emu.sku().wake_latency;
        emu.advance(wake.saturating_mul(2).max(1));
        emu.set_tracing(false);
        let mut s = EmulatedStream {
            emu,
            cfg,
            regs,
            read_end,
            write_end,
            pending: VecDeque::new(),
            enabled: false,
            xe_status: 0,
            faults: BTreeMap::new(),
            ioctl_faults: VecDeque::new(),
            stats: KernelStats::default(),
        };
        s.start().map_err(|e| {
            let (errno, what) = match e {
                StartError::NoOaUnit => (code::ENODEV, None),
                e => (code::EINVAL, Some(e.to_string())),
            };
            fail(errno, what)
        })?;
        if let Some(c) = s.clients() {
            s.emu.unit_mut::<OaUnit>().set_context(c.ids[0]);
        }
        if cfg.disabled {
            s.stop();
        }
        Ok(s)
    }

    /// The contexts the client runs: [`StreamConfig::clients`], else the
    /// filtered context alone.
    fn clients(&self) -> Option<ContextRun> {
        self.cfg.clients.or(self.cfg.context.map(|c| ContextRun {
            ids: [c, c],
            ticks: u64::MAX,
        }))
    }

    /// Move emulated time by `ticks`, switching the client's contexts at
    /// their boundaries.
    fn run(&mut self, ticks: u64) {
        let Some(c) = self.clients().filter(|c| c.ids[0] != c.ids[1]) else {
            self.emu.advance(ticks);
            return;
        };
        let each = c.ticks.max(1);
        let end = self.emu.now().saturating_add(ticks);
        while self.emu.now() < end {
            let now = self.emu.now();
            let next = (now / each).saturating_add(1).saturating_mul(each).min(end);
            self.emu.advance(next - now);
            if next % each == 0 {
                let id = c.ids[((next / each) % 2) as usize];
                self.emu.unit_mut::<OaUnit>().set_context(id);
            }
        }
    }

    /// Program the OA buffer and periodic sampling (open and enable).
    fn start(&mut self) -> Result<(), StartError> {
        self.emu
            .unit_nth_mut::<OaUnit>(self.cfg.unit)
            .start_periodic(
                self.cfg.base,
                self.cfg.buffer_size,
                self.cfg.exponent,
                self.cfg.format.select,
            )?;
        self.pending.clear();
        self.xe_status = 0;
        self.enabled = true;
        self.stats.resets += 1;
        Ok(())
    }

    /// Clear the OA counter enable (disable).
    fn stop(&mut self) {
        self.rmw(self.regs.enable, 0);
        self.enabled = false;
    }

    /// Set field `f` to `value_in_place` through the bus (read-modify-write
    /// of the stored register).
    fn rmw(&mut self, f: Field, value_in_place: u64) {
        let old = self.emu.peek(f.addr, 0).unwrap_or(0);
        let v = (old & !f.mask) | (value_in_place & f.mask);
        self.emu.write32(f.addr, v as u32);
    }

    fn bit(&self, f: Field) -> bool {
        self.emu.peek(f.addr, 0).unwrap_or(0) & f.mask != 0
    }

    /// The emulator (to look at the OA unit, its stats and warnings).
    pub fn emulator(&self) -> &Emulator {
        &self.emu
    }

    /// The emulator, to change the workload or the context while sampling.
    pub fn emulator_mut(&mut self) -> &mut Emulator {
        &mut self.emu
    }

    /// The configuration the stream was opened with.
    pub fn config(&self) -> &StreamConfig {
        &self.cfg
    }

    /// What the emulated kernel did so far.
    pub fn stats(&self) -> KernelStats {
        self.stats
    }

    /// Whether the stream samples.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Move emulated time by `ticks`.
    pub fn advance(&mut self, ticks: u64) {
        self.run(ticks);
    }

    /// Move emulated time by `n` timer periods (about `n` more reports
    /// while enabled).
    pub fn advance_reports(&mut self, n: u64) {
        let t = self.cfg.period().unwrap_or(u64::MAX).saturating_mul(n);
        self.run(t);
    }

    /// Set the ticks each `read()` and `poll()` advances.
    pub fn set_ticks_per_read(&mut self, ticks: u64) {
        self.cfg.ticks_per_read = ticks;
    }

    /// Inject `fault` at read number `read` (0 = the first `read()` call;
    /// [`stats`](Self::stats)`().reads` is the next one).
    pub fn inject(&mut self, read: u64, fault: Fault) {
        self.faults.entry(read).or_default().push(fault);
    }

    /// Inject `fault` at the next `read()`.
    pub fn inject_next(&mut self, fault: Fault) {
        self.inject(self.stats.reads, fault);
    }

    /// Make the next enable, disable or status call fail with `errno`.
    pub fn inject_ioctl(&mut self, errno: i32) {
        self.ioctl_faults.push_back(errno);
    }

    fn err(&self, op: Op, errno: i32) -> StreamError {
        KernelError::new(Driver::Emulated, op, errno).into()
    }

    fn ioctl_fault(&mut self, op: Op) -> Result<(), StreamError> {
        match self.ioctl_faults.pop_front() {
            Some(e) => {
                self.stats.faults += 1;
                Err(self.err(op, e))
            }
            None => Ok(()),
        }
    }

    fn loss(&mut self, record: Record<'static>) {
        match record {
            Record::ReportLost => self.stats.report_lost += 1,
            _ => self.stats.buffer_lost += 1,
        }
        match self.cfg.framing {
            Framing::I915Records => {
                let mut v = Vec::with_capacity(8);
                // Header-only records always fit a u16 size.
                if record.write_to(&mut v).is_ok() {
                    self.pending.push_back(v);
                }
            }
            Framing::XeRaw => {
                self.xe_status |= match record {
                    Record::ReportLost => xe_status::REPORT_LOST,
                    _ => xe_status::BUFFER_OVERFLOW,
                };
            }
        }
    }

    /// Head := tail (every unread report dropped), as a buffer reset.
    fn reset_buffer(&mut self) {
        let tail = self.emu.peek(self.regs.tail.addr, 0).unwrap_or(0) & self.regs.tail.mask;
        self.rmw(self.regs.head, tail);
        self.stats.resets += 1;
    }

    /// Look at the status register and the OA buffer, as the kernel's read
    /// does: losses first, then the reports between head and tail.
    fn collect(&mut self) {
        let overflow = self.bit(self.regs.buffer_overflow);
        let lost = self.bit(self.regs.report_lost);
        let counter = self.regs.counter_overflow.is_some_and(|f| self.bit(f));
        if overflow {
            self.rmw(self.regs.buffer_overflow, 0);
            match self.cfg.framing {
                // i915 resets the buffer at once; Xe when STATUS is read.
                Framing::I915Records => {
                    self.loss(Record::BufferLost);
                    self.reset_buffer();
                }
                Framing::XeRaw => self.loss(Record::BufferLost),
            }
        }
        if lost {
            self.rmw(self.regs.report_lost, 0);
            self.loss(Record::ReportLost);
        }
        if counter && self.cfg.framing == Framing::XeRaw {
            if let Some(f) = self.regs.counter_overflow {
                self.rmw(f, 0);
            }
            self.xe_status |= xe_status::COUNTER_OVERFLOW;
        }
        if self.cfg.framing == Framing::XeRaw && self.xe_status != 0 {
            // Xe reads nothing while the status is set.
            return;
        }
        self.take_reports();
    }

    /// Byte offset of a pointer in the buffer (the model's rule: pointer
    /// minus base, mod 2^32, mod size).
    fn off(&self, ptr: u64) -> u64 {
        (ptr.wrapping_sub(self.cfg.base) & 0xFFFF_FFFF) % self.ring()
    }

    /// Bytes of the ring: the buffer, or on a unit that wraps at whole
    /// reports (Xe2 OAG) its largest multiple of the report size (xe_oa.c:
    /// "no partial reports at the end of buffer").
    fn ring(&self) -> u64 {
        let size = self.cfg.buffer_size.max(1);
        let rs = self.cfg.format.size as u64;
        if self.regs.whole_reports && rs > 0 && rs <= size {
            size - size % rs
        } else {
            size
        }
    }

    fn take_reports(&mut self) {
        let size = self.ring();
        let rs = self.cfg.format.size as u64;
        let head_ptr = self.emu.peek(self.regs.head.addr, 0).unwrap_or(0) & self.regs.head.mask;
        let tail_ptr = self.emu.peek(self.regs.tail.addr, 0).unwrap_or(0) & self.regs.tail.mask;
        let (h, t) = (self.off(head_ptr), self.off(tail_ptr));
        let unread = (t + size - h) % size;
        let n = unread / rs.max(1);
        if n == 0 {
            return;
        }
        let mut at = h;
        for _ in 0..n {
            let mut report = vec![0u8; rs as usize];
            let first = (size - at).min(rs) as usize;
            self.emu
                .gpu_mem()
                .read_into(self.cfg.base.wrapping_add(at), &mut report[..first]);
            if first < report.len() {
                self.emu
                    .gpu_mem()
                    .read_into(self.cfg.base, &mut report[first..]);
            }
            self.push_report(&report);
            at = (at + rs) % size;
        }
        self.stats.reports_taken += n;
        let new_head = (self.cfg.base & 0xFFFF_FFFF).wrapping_add(at) & 0xFFFF_FFFF;
        self.rmw(self.regs.head, new_head);
    }

    fn push_report(&mut self, report: &[u8]) {
        if let (Some(c), Some(slot)) = (self.cfg.context, self.cfg.format.counter("CTX_ID")) {
            let at = slot.offset as usize;
            let ctx = report
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            if ctx != Some(c) {
                self.stats.reports_filtered += 1;
                return;
            }
        }
        match self.cfg.framing {
            Framing::I915Records => {
                let mut v = Vec::with_capacity(report.len() + 8);
                if Record::Sample(report).write_to(&mut v).is_ok() {
                    self.pending.push_back(v);
                }
            }
            Framing::XeRaw => self.pending.push_back(report.to_vec()),
        }
    }

    /// Whether a read now would return something.
    fn ready(&mut self) -> bool {
        if !self.pending.is_empty() || self.xe_status != 0 {
            return true;
        }
        self.collect();
        !self.pending.is_empty() || self.xe_status != 0
    }

    /// Write `bytes` into the pipe and read them back into `buf` through
    /// the stream fd, in pieces when the pipe is smaller.
    fn through_pipe(&mut self, bytes: &[u8], buf: &mut [u8]) -> Result<usize, StreamError> {
        let (mut written, mut done) = (0, 0);
        while done < bytes.len() {
            if written < bytes.len() {
                match self.write_end.write(&bytes[written..]) {
                    Ok(n) => written += n,
                    Err(code::EAGAIN) => {}
                    Err(e) => return Err(self.err(Op::Read, e)),
                }
            }
            let n = match self.read_end.read(&mut buf[done..written]) {
                Ok(n) => n,
                Err(e) if e.errno() == Some(code::EAGAIN) => 0,
                Err(e) => return Err(e),
            };
            if n == 0 && written == done {
                // Neither side moved: the pipe is stuck.
                return Err(self.err(Op::Read, code::EIO));
            }
            done += n;
        }
        Ok(done)
    }
}

impl OaStream for EmulatedStream {
    fn driver(&self) -> Driver {
        Driver::Emulated
    }

    fn framing(&self) -> Framing {
        self.cfg.framing
    }

    fn report_size(&self) -> usize {
        self.cfg.format.size
    }

    fn read(&mut self, buf: &mut [u8]) -> Result<usize, StreamError> {
        let index = self.stats.reads;
        self.stats.reads += 1;
        let faults = self.faults.remove(&index).unwrap_or_default();
        let mut errno = None;
        for f in faults {
            self.stats.faults += 1;
            match f {
                Fault::Errno(e) => errno = errno.or(Some(e)),
                Fault::ReportLost => self.loss(Record::ReportLost),
                Fault::BufferLost => self.loss(Record::BufferLost),
                Fault::XeStatus(bits) => match self.cfg.framing {
                    Framing::XeRaw => self.xe_status |= bits,
                    Framing::I915Records => {
                        if bits & xe_status::BUFFER_OVERFLOW != 0 {
                            self.loss(Record::BufferLost);
                        }
                        if bits & xe_status::REPORT_LOST != 0 {
                            self.loss(Record::ReportLost);
                        }
                    }
                },
            }
        }
        if let Some(e) = errno {
            return Err(self.err(Op::Read, e));
        }
        if self.cfg.framing == Framing::I915Records && !self.enabled {
            return Err(self.err(Op::Read, code::EIO));
        }
        self.collect();
        if self.cfg.framing == Framing::XeRaw && self.xe_status != 0 {
            return Err(self.err(Op::Read, code::EIO));
        }
        let Some(first) = self.pending.front() else {
            // Nothing yet: time passes while the reader waits.
            self.run(self.cfg.ticks_per_read);
            return Err(self.err(Op::Read, code::EAGAIN));
        };
        if first.len() > buf.len() {
            return Err(self.err(Op::Read, code::ENOSPC));
        }
        let mut bytes = Vec::new();
        while let Some(r) = self.pending.front() {
            if bytes.len() + r.len() > buf.len() {
                break;
            }
            bytes.extend_from_slice(r);
            let is_sample = self.cfg.framing == Framing::XeRaw
                || crate::record::RecordHeader::parse(r)
                    .is_some_and(|h| h.kind == crate::record::RECORD_SAMPLE);
            if is_sample {
                self.stats.reports_copied += 1;
            }
            self.pending.pop_front();
        }
        self.through_pipe(&bytes, buf)
    }

    fn poll(&mut self, timeout: Option<Duration>) -> Result<bool, StreamError> {
        if !self.enabled && self.cfg.framing == Framing::I915Records {
            return Ok(false);
        }
        if self.ready() {
            return Ok(true);
        }
        match timeout {
            // Blocking: wait (in emulated time) up to 1024 periods.
            None => {
                let step = self.cfg.period().unwrap_or(u64::MAX);
                for _ in 0..1024 {
                    if !self.enabled {
                        break;
                    }
                    self.run(step);
                    if self.ready() {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Some(_) => {
                self.run(self.cfg.ticks_per_read);
                Ok(self.ready())
            }
        }
    }

    fn enable(&mut self) -> Result<(), StreamError> {
        self.ioctl_fault(Op::Enable)?;
        self.start().map_err(|e| {
            let errno = match e {
                StartError::NoOaUnit => code::ENODEV,
                _ => code::EINVAL,
            };
            self.err(Op::Enable, errno)
        })
    }

    fn disable(&mut self) -> Result<(), StreamError> {
        self.ioctl_fault(Op::Disable)?;
        self.stop();
        Ok(())
    }

    fn status(&mut self) -> Result<u64, StreamError> {
        if self.cfg.framing != Framing::XeRaw {
            return Err(StreamError::Unsupported("the STATUS ioctl (Xe only)"));
        }
        self.ioctl_fault(Op::Status)?;
        let s = core::mem::take(&mut self.xe_status);
        if s & xe_status::BUFFER_OVERFLOW != 0 {
            self.reset_buffer();
        }
        Ok(s)
    }
}
