//! Report layouts resolved to sources, and rendering a report into bytes.

#[allow(unused_imports)]
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

/// Counters of one kind stored as consecutive dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bank {
    A,
    B,
    C,
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

/// A report layout with its slots resolved to sources: consecutive dword
/// counters merged into runs, everything else one slot at a time.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    pub(super) info: &'static FormatInfo,
    pub(super) ops: Vec<SlotOp>,
    pub(super) runs: Vec<Run>,
    /// Byte ranges no slot writes (zeroed by `render`).
    pub(super) gaps: Vec<(usize, usize)>,
}

impl Layout {
    /// `kinds`: the slots' kinds, as the bindings classify them (in
    /// `info.counters` order; a slot without a kind is written as 0).
    pub(super) fn new(
        info: &'static FormatInfo,
        kinds: &[SlotKind],
        n_a: usize,
        c2_clock: bool,
    ) -> Self {
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
        Layout {
            info,
            ops: singles,
            runs,
            gaps,
        }
    }
}

/// The report header values.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    pub(super) rpt_id: u32,
    pub(super) time: u64,
}

impl Oa {
    /// Render the current counters into `buf` (the layout's size).
    /// Write a whole report of `layout` into `buf`: every slot, and zeros
    /// where no slot is.
    pub(super) fn render(&self, layout: &Layout, h: Header, buf: &mut [u8]) {
        for &(from, n) in &layout.gaps {
            if let Some(g) = buf.get_mut(from..from.saturating_add(n)) {
                g.fill(0);
            }
        }
        for r in &layout.runs {
            let bank: &[u64] = match r.bank {
                Bank::A => &self.a,
                Bank::B => &self.b,
                Bank::C => &self.c,
            };
            let vals = bank.get(r.first..r.first + r.count).unwrap_or_default();
            if let Some(dst) = buf.get_mut(r.offset..r.offset + 4 * r.count) {
                low_dwords(dst, vals);
            }
            if let Some(dst) = r.high.and_then(|h| buf.get_mut(h..h + r.count)) {
                high_bytes(dst, vals);
            }
        }
        for op in &layout.ops {
            let v = match op.src {
                Src::RptId => u64::from(h.rpt_id),
                Src::TimeStamp => h.time,
                Src::CtxId => u64::from(self.ctx.unwrap_or(0)),
                Src::GpuTicks => self.gpu_clock,
                Src::A(i) => self.a.get(i).copied().unwrap_or(0),
                Src::B(i) => self.b.get(i).copied().unwrap_or(0),
                Src::C(i) => self.c.get(i).copied().unwrap_or(0),
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

/// The low dwords of `vals`, little-endian, into `dst` (4 bytes each).
#[inline(always)]
pub(super) fn low_dwords(dst: &mut [u8], vals: &[u64]) {
    for (d, v) in dst.chunks_exact_mut(4).zip(vals) {
        d.copy_from_slice(&(*v as u32).to_le_bytes());
    }
}

/// Bits 39:32 of `vals` into `dst` (one byte each).
#[inline(always)]
pub(super) fn high_bytes(dst: &mut [u8], vals: &[u64]) {
    for (d, v) in dst.iter_mut().zip(vals) {
        *d = (v >> 32) as u8;
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
