//! Periodic sampling started the way a driver starts it: the OA buffer and
//! unit programmed by register writes through the bus, in the PRMs' order,
//! with the fields the bindings name (no register named here).

use super::*;

/// Why [`UnitMut::<OaUnit>::start_periodic`](UnitMut::start_periodic) did not
/// start sampling (nothing was written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The OA model is off, or the project has no OA unit.
    NoOaUnit,
    /// The buffer size is not one the size field can encode.
    Size(u64),
    /// The base address is not aligned to the buffer size, or does not fit
    /// the base field.
    Base(u64),
    /// The report format code does not fit the format field.
    Format(u64),
    /// The timer exponent does not fit the period field.
    Period(u64),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StartError::NoOaUnit => f.write_str("no OA unit (the OA model is off)"),
            StartError::Size(s) => write!(
                f,
                "buffer size {s} bytes is not an encodable OA buffer size"
            ),
            StartError::Base(b) => {
                write!(
                    f,
                    "buffer base {b:#x} is not aligned to its size or does not fit"
                )
            }
            StartError::Format(c) => {
                write!(f, "report format code {c} does not fit the format field")
            }
            StartError::Period(p) => write!(f, "timer exponent {p} does not fit the period field"),
        }
    }
}

impl core::error::Error for StartError {}

impl UnitMut<'_, OaUnit> {
    /// Read-modify-write of fields through the bus (so every unit sees it):
    /// each `(field, value)` with the value shifted into place.
    fn bus_set(&mut self, fields: &[(Option<Rf>, u64)]) {
        let Some(ri) = fields.iter().find_map(|(f, _)| f.map(|f| f.ri)) else {
            return;
        };
        let Some(addr) = self.emu.rf.regs.get(ri).map(|r| r.info.address) else {
            return;
        };
        let mut v = self.emu.peek(addr, 0).unwrap_or(0);
        for &(f, x) in fields {
            if let Some(f) = f.filter(|f| f.ri == ri) {
                v = (v & !f.mask) | (x.checked_shl(f.lsb).unwrap_or(0) & f.mask);
            }
        }
        self.emu.write32(addr, v as u32);
    }

    /// Write field `f` of a masked register (bits 31:16 enable bits 15:0)
    /// through the bus.
    fn masked_set(&mut self, f: Rf, value: u64) {
        let Some(addr) = self.emu.rf.regs.get(f.ri).map(|r| r.info.address) else {
            return;
        };
        let bits = value.checked_shl(f.lsb).unwrap_or(0) & f.mask;
        let enables = (f.mask & 0xFFFF) << 16;
        self.emu.write32(addr, (enables | bits) as u32);
    }

    /// Start periodic sampling as a driver does: register writes through
    /// the bus (every unit and the trace see them), in the PRMs' order:
    /// status cleared, head, upper address, buffer (base, GGTT, size), tail,
    /// then the timer (a report every 2^(`exponent` + the project's shift)
    /// timestamp ticks), the report format code `format` (with the counter
    /// size the unit's format of that code requires, where the unit has a
    /// counter-size field) and the counter enable. The buffer is `size` bytes at GGTT address `base` (aligned to
    /// its size); a size the size field reaches only counting from 1 MiB
    /// (32 to 128 MiB) sets the unit's buffer size select first, as xe
    /// does (any other size clears it). The power domains must be awake (else the writes are
    /// dropped, with warnings). Checked first: on an error nothing is
    /// written. For tools and tests; a driver uses the typed HAL
    /// (`examples/oa_sample.rs`).
    pub fn start_periodic(
        &mut self,
        base: u64,
        size: u64,
        exponent: u64,
        format: u64,
    ) -> Result<(), StartError> {
        let m = self.find().ok_or(StartError::NoOaUnit)?.map.clone();
        let (Some(head), Some(tail), Some(b)) = (m.head, m.tail, m.base) else {
            return Err(StartError::NoOaUnit);
        };
        // A size the field encodes, else (with a buffer size select) one
        // it encodes counting from 1 MiB: 8 times the encoded size.
        let plain = m.sizes.iter().position(|&s| s == size);
        let selected = m
            .buf_size_select
            .and(size.checked_rem(8).filter(|&r| r == 0))
            .and_then(|_| m.sizes.iter().position(|&s| s.checked_mul(8) == Some(size)));
        let (enc, select) = match (plain, selected) {
            (Some(e), _) => (e, false),
            (None, Some(e)) => (e, true),
            (None, None) => return Err(StartError::Size(size)),
        };
        if m.size.is_none() {
            return Err(StartError::Size(size));
        }
        let fits = |f: Option<Rf>, v: u64| {
            f.is_some_and(|f| (v.checked_shl(f.lsb).unwrap_or(u64::MAX) & !f.mask) == 0)
        };
        // Address fields hold the address bits in place (31:6, or 31:12).
        let low = base & 0xFFFF_FFFF;
        if base % size != 0 || (low & !b.mask) != 0 || (base >> 32 != 0 && m.udw.is_none()) {
            return Err(StartError::Base(base));
        }
        if !fits(m.format, format) {
            return Err(StartError::Format(format));
        }
        if !fits(m.timer_period, exponent) {
            return Err(StartError::Period(exponent));
        }
        let place = |f: Rf, addr: u64| (addr & f.mask) >> f.lsb;
        // Status first (cleared), then head, upper address, buffer, tail:
        // the order the PRMs ask for (the buffer between head and tail).
        if let Some(s) = m.report_lost {
            let addr = self.emu.rf.regs.get(s.ri).map(|r| r.info.address);
            if let Some(addr) = addr.filter(|_| s.ri != tail.ri && s.ri != head.ri) {
                self.emu.write32(addr, 0);
            }
        }
        if let Some(f) = m.buf_size_select {
            self.masked_set(f, u64::from(select));
        }
        self.bus_set(&[(Some(head), place(head, low))]);
        if m.udw.is_some() {
            self.bus_set(&[(m.udw, base >> 32)]);
        }
        self.bus_set(&[
            (Some(b), place(b, low)),
            (m.mem_select, 1),
            (m.size, enc as u64),
        ]);
        self.bus_set(&[(Some(tail), place(tail, low)), (m.size, enc as u64)]);
        // The counter size the unit's format with this code requires
        // (Xe2's PEC64u64: 1), where the unit has the field.
        let csize = self
            .find()
            .and_then(|oa| {
                let formats = self.emu.rf.project.formats;
                oa.formats
                    .iter()
                    .find(|(i, _)| formats.get(*i).is_some_and(|f| f.select == format))
                    .and_then(|(_, c)| *c)
            })
            .unwrap_or(0);
        // The timer, then the format and the enable.
        self.bus_set(&[
            (m.timer_period, exponent),
            (m.timer_enable, 1),
            (m.format, format),
            (m.counter_size, csize),
            (m.enable, 1),
        ]);
        if m.format.map(|f| f.ri) != m.timer_period.map(|f| f.ri) {
            self.bus_set(&[(m.format, format), (m.counter_size, csize), (m.enable, 1)]);
        }
        Ok(())
    }
}
