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

    /// Start periodic sampling as a driver does: register writes through
    /// the bus (every unit and the trace see them), in the PRMs' order:
    /// status cleared, head, upper address, buffer (base, GGTT, size), tail,
    /// then the timer (a report every 2^(`exponent` + the project's shift)
    /// timestamp ticks), the report format code `format` and the counter
    /// enable. The buffer is `size` bytes at GGTT address `base` (aligned to
    /// its size). The power domains must be awake (else the writes are
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
        let m = self
            .emu
            .find::<OaUnit>()
            .ok_or(StartError::NoOaUnit)?
            .map
            .clone();
        let (Some(head), Some(tail), Some(b)) = (m.head, m.tail, m.base) else {
            return Err(StartError::NoOaUnit);
        };
        let enc = m
            .sizes
            .iter()
            .position(|&s| s == size)
            .filter(|_| m.size.is_some())
            .ok_or(StartError::Size(size))?;
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
        // The timer, then the format and the enable.
        self.bus_set(&[
            (m.timer_period, exponent),
            (m.timer_enable, 1),
            (m.format, format),
            (m.enable, 1),
        ]);
        if m.format.map(|f| f.ri) != m.timer_period.map(|f| f.ri) {
            self.bus_set(&[(m.format, format), (m.enable, 1)]);
        }
        Ok(())
    }
}
