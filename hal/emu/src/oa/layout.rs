//! Report layouts resolved to sources, and rendering a report into bytes.

use super::*;

/// Where a report value comes from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Src {
    RptId,
    TimeStamp,
    CtxId,
    GpuTicks,
    A(usize),
    B(usize),
    C(usize),
    P(usize),
    M(usize),
    Zero,
}

/// How a value is stored in its slot.
#[derive(Clone, Copy, Debug)]
pub(super) enum Width {
    /// Low 32 bits.
    Dword,
    /// 64 bits.
    Qword,
    /// Low 32 bits, and bits 39:32 in the byte at this offset.
    Split(usize),
    /// The low `n` (1..=8) bytes.
    Bytes(usize),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct SlotOp {
    pub(super) src: Src,
    pub(super) offset: usize,
    pub(super) width: Width,
}

/// `count` counters of `bank` from index `first`, low dwords at `offset`,
/// `offset + 4`, ...; with `high`, bits 39:32 in consecutive bytes there.
#[derive(Clone, Copy, Debug)]
pub(super) struct Run {
    pub(super) bank: Bank,
    pub(super) first: usize,
    pub(super) count: usize,
    pub(super) offset: usize,
    pub(super) high: Option<usize>,
}

/// A report layout with its slots resolved to sources: where each run
/// counter sits (the counters are arranged to match), the header fields,
/// everything else one slot at a time.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    pub(super) info: &'static FormatInfo,
    /// Where the report holds its run counters: `(counter index, low dword
    /// offset, high byte offset)` ([`Counters::arrange`]).
    pub(super) places: Vec<(usize, usize, Option<usize>)>,
    pub(super) ops: Vec<SlotOp>,
    /// Where the header values go: RPT_ID, TIME_STAMP, CTX_ID, GPU_TICKS,
    /// each `(offset, qword)` (a dword otherwise), when the layout has it.
    pub(super) header: [Option<(usize, bool)>; 4],
    /// Byte ranges no slot writes (zeroed by `render`).
    pub(super) gaps: Vec<(usize, usize)>,
}

impl Layout {
    /// `kinds`: the slots' kinds, as the bindings classify them (in
    /// `info.counters` order; a slot without a kind is written as 0).
    /// `ctr`: the counters the report reads (their banks' sizes and image
    /// offsets).
    pub(super) fn new(
        info: &'static FormatInfo,
        kinds: &[SlotKind],
        ctr: &Counters,
        c2_clock: bool,
    ) -> Self {
        let n_a = ctr.len(Bank::A);
        let mut ops = Vec::with_capacity(info.counters.len());
        for (i, slot) in info.counters.iter().enumerate() {
            let src = match kinds.get(i).copied().unwrap_or(SlotKind::Other) {
                SlotKind::RptId => Src::RptId,
                SlotKind::TimeStamp => Src::TimeStamp,
                SlotKind::CtxId => Src::CtxId,
                SlotKind::GpuTicks => Src::GpuTicks,
                SlotKind::A(n) if (n as usize) < n_a => Src::A(n as usize),
                SlotKind::B(n) if (n as usize) < CECS => Src::B(n as usize),
                SlotKind::C(2) if c2_clock => Src::GpuTicks,
                SlotKind::C(n) if n < 8 => Src::C(n as usize),
                SlotKind::Pec(n) if (n as usize) < ctr.len(Bank::P) => Src::P(n as usize),
                SlotKind::Mpec(n) if (n as usize) < ctr.len(Bank::M) => Src::M(n as usize),
                _ => Src::Zero,
            };
            let offset = slot.offset as usize;
            let high = slot.high_byte_offset.map(|h| h as usize);
            let (width, bytes) = match (high, (slot.bits as usize).div_ceil(8).clamp(1, 8)) {
                (Some(h), _) => (Width::Split(h), 4),
                (None, 4) => (Width::Dword, 4),
                (None, 8) => (Width::Qword, 8),
                (None, n) => (Width::Bytes(n), n),
            };
            let fits =
                offset.saturating_add(bytes) <= info.size && high.is_none_or(|h| h < info.size);
            if fits {
                ops.push(SlotOp { src, offset, width });
            }
        }
        // Merge consecutive dword (or split) counters of one bank.
        let mut runs: Vec<Run> = Vec::new();
        let mut singles = Vec::with_capacity(ops.len());
        for op in ops {
            let (bank, i) = match op.src {
                Src::A(i) => (Bank::A, i),
                Src::B(i) => (Bank::B, i),
                Src::C(i) => (Bank::C, i),
                _ => {
                    singles.push(op);
                    continue;
                }
            };
            let high = match op.width {
                Width::Dword => None,
                Width::Split(h) => Some(h),
                _ => {
                    singles.push(op);
                    continue;
                }
            };
            let extends = runs.last().is_some_and(|r| {
                r.bank == bank
                    && r.first + r.count == i
                    && r.offset + 4 * r.count == op.offset
                    && match (r.high, high) {
                        (None, None) => true,
                        (Some(a), Some(b)) => a + r.count == b,
                        _ => false,
                    }
            });
            match runs.last_mut() {
                Some(r) if extends => r.count += 1,
                _ => runs.push(Run {
                    bank,
                    first: i,
                    count: 1,
                    offset: op.offset,
                    high,
                }),
            }
        }
        // The bytes no slot covers.
        let mut covered = vec![false; info.size];
        let mut cover = |from: usize, n: usize| {
            for c in covered.iter_mut().skip(from).take(n) {
                *c = true;
            }
        };
        for op in &singles {
            let n = match op.width {
                Width::Dword => 4,
                Width::Qword => 8,
                Width::Bytes(n) => n,
                Width::Split(h) => {
                    cover(h, 1);
                    4
                }
            };
            cover(op.offset, n);
        }
        for r in &runs {
            cover(r.offset, 4 * r.count);
            if let Some(h) = r.high {
                cover(h, r.count);
            }
        }
        let mut gaps = Vec::new();
        let mut i = 0;
        while i < covered.len() {
            if covered[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < covered.len() && !covered[i] {
                i += 1;
            }
            gaps.push((start, i - start));
        }
        // Where each run counter sits in the report.
        let mut places = Vec::new();
        for r in &runs {
            for j in 0..r.count {
                if let Some(k) = ctr.index(r.bank, r.first + j) {
                    places.push((k, r.offset + 4 * j, r.high.map(|h| h + j)));
                }
            }
        }
        // Header slots, written directly (the first of each kind).
        let mut header = [None; 4];
        singles.retain(|op| {
            let src = match op.src {
                Src::RptId => 0,
                Src::TimeStamp => 1,
                Src::CtxId => 2,
                Src::GpuTicks => 3,
                _ => return true,
            };
            let qword = match op.width {
                Width::Dword => false,
                Width::Qword => true,
                _ => return true,
            };
            match header.get_mut(src) {
                Some(h @ None) => {
                    *h = Some((op.offset, qword));
                    false
                }
                _ => true,
            }
        });
        Layout {
            info,
            places,
            ops: singles,
            header,
            gaps,
        }
    }
}

/// The report header values.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    pub(super) rpt_id: u32,
    pub(super) time: u64,
    /// The context-id field (the active context, or an MMIO trigger's
    /// value).
    pub(super) ctx: u32,
}

impl OaUnit {
    /// Render the current counters into `buf` (the layout's size).
    /// Write a whole report of `layout` into `buf`: every slot, and zeros
    /// where no slot is.
    #[inline]
    pub(super) fn render(&self, layout: &Layout, h: Header, buf: &mut [u8]) {
        for &(from, n) in &layout.gaps {
            if let Some(g) = buf.get_mut(from..from.saturating_add(n)) {
                g.fill(0);
            }
        }
        // The counters: one block when they are arranged for this layout,
        // else counter by counter.
        match self.ctr.block(layout.info) {
            Some((start, block)) => {
                if let Some(d) = buf.get_mut(start..start + block.len()) {
                    d.copy_from_slice(block);
                }
            }
            None => {
                for &(k, lo, hi) in &layout.places {
                    let v = self.ctr.get_index(k);
                    put(buf, lo, &(v as u32).to_le_bytes());
                    if let Some(b) = hi.and_then(|h| buf.get_mut(h)) {
                        *b = (v >> 32) as u8;
                    }
                }
            }
        }
        let [rpt, time, ctx, ticks] = layout.header;
        put_value(buf, rpt, u64::from(h.rpt_id));
        put_value(buf, time, h.time);
        put_value(buf, ctx, u64::from(h.ctx));
        put_value(buf, ticks, self.gpu_clock);
        for op in &layout.ops {
            let v = match op.src {
                Src::RptId => u64::from(h.rpt_id),
                Src::TimeStamp => h.time,
                Src::CtxId => u64::from(h.ctx),
                Src::GpuTicks => self.gpu_clock,
                Src::A(i) => self.ctr.get(Bank::A, i).unwrap_or(0),
                Src::B(i) => self.ctr.get(Bank::B, i).unwrap_or(0),
                Src::C(i) => self.ctr.get(Bank::C, i).unwrap_or(0),
                Src::P(i) => self.ctr.get(Bank::P, i).unwrap_or(0),
                Src::M(i) => self.ctr.get(Bank::M, i).unwrap_or(0),
                Src::Zero => 0,
            };
            let o = op.offset;
            match op.width {
                Width::Dword => put(buf, o, &(v as u32).to_le_bytes()),
                Width::Qword => put(buf, o, &v.to_le_bytes()),
                Width::Split(h) => {
                    put(buf, o, &(v as u32).to_le_bytes());
                    if let Some(b) = buf.get_mut(h) {
                        *b = (v >> 32) as u8;
                    }
                }
                Width::Bytes(n) => {
                    if let Some(src) = v.to_le_bytes().get(..n) {
                        if let Some(dst) = buf.get_mut(o..o.saturating_add(n)) {
                            dst.copy_from_slice(src);
                        }
                    }
                }
            }
        }
    }
}

/// `v` at `at`: `(offset, qword)`, a dword unless `qword`; nothing for
/// `None`.
#[inline(always)]
fn put_value(buf: &mut [u8], at: Option<(usize, bool)>, v: u64) {
    match at {
        Some((o, true)) => put(buf, o, &v.to_le_bytes()),
        Some((o, false)) => put(buf, o, &(v as u32).to_le_bytes()),
        None => {}
    }
}

/// Copy the fixed-size `bytes` to `buf[o..]` (nothing when it does not fit).
#[inline(always)]
pub(super) fn put<const N: usize>(buf: &mut [u8], o: usize, bytes: &[u8; N]) {
    if let Some(dst) = buf
        .get_mut(o..)
        .and_then(|b| b.get_mut(..N))
        .and_then(|b| <&mut [u8; N]>::try_from(b).ok())
    {
        *dst = *bytes;
    }
}

/// A zeroed buffer of `size` bytes: on the stack when it fits.
pub(super) fn report_buffer<'a>(
    stack: &'a mut [u8; STACK_REPORT],
    heap: &'a mut Vec<u8>,
    size: usize,
) -> &'a mut [u8] {
    if size <= STACK_REPORT {
        stack.get_mut(..size).unwrap_or_default()
    } else {
        heap.resize(size, 0);
        heap.as_mut_slice()
    }
}

/// Largest report rendered on the stack (bigger formats use the heap).
pub(super) const STACK_REPORT: usize = 256;
