//! Address spaces and the buses that reach them: the raw volatile MMIO
//! backend for a mapped BAR, and an in-memory backend for tests and examples.

/// An address space marker (GPU MMIO, CPU MSR, PCI configuration space).
pub trait Space: Copy + Default + 'static {
    /// Lower-case name.
    const NAME: &'static str;
}

/// GPU MMIO: byte offsets in the GT BAR.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mmio;
/// CPU model-specific registers, addressed by index.
#[derive(Clone, Copy, Debug, Default)]
pub struct Msr;
/// PCI configuration space of one device/function, byte offsets.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pci;

impl Space for Mmio {
    const NAME: &'static str = "mmio";
}
impl Space for Msr {
    const NAME: &'static str = "msr";
}
impl Space for Pci {
    const NAME: &'static str = "pci";
}

/// Why one bus access failed (see [`BusFault`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultKind {
    /// The address lies outside what the bus reaches (past the end of a
    /// mapping or of a file).
    OutOfRange,
    /// The address is not aligned to the access width.
    Unaligned,
    /// The operating system refused the access (no permission).
    Denied,
    /// The device is gone (unplugged, unbound, reset).
    Gone,
    /// Another operating-system error, by its error number (`errno`).
    Os(i32),
    /// A failure the bus cannot name more precisely.
    Other,
}

impl core::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FaultKind::OutOfRange => f.write_str("address out of range"),
            FaultKind::Unaligned => f.write_str("unaligned address"),
            FaultKind::Denied => f.write_str("permission denied"),
            FaultKind::Gone => f.write_str("the device is gone"),
            FaultKind::Os(errno) => write!(f, "operating-system error {errno}"),
            FaultKind::Other => f.write_str("the access failed"),
        }
    }
}

/// A bus access that failed: where, how wide, which direction, and why.
/// Kept by a bus that can fail until [`Bus::take_fault`] takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusFault {
    /// The address space ([`Space::NAME`]).
    pub space: &'static str,
    /// The address of the access.
    pub addr: u64,
    /// Width of the access in bits (32 or 64).
    pub width: u8,
    /// True for a write.
    pub write: bool,
    /// Why it failed.
    pub kind: FaultKind,
}

impl BusFault {
    /// A fault of a `width`-bit access at `addr` in space `S`.
    pub fn new<S: Space>(addr: u64, width: u8, write: bool, kind: FaultKind) -> Self {
        BusFault {
            space: S::NAME,
            addr,
            width,
            write,
            kind,
        }
    }
}

impl core::fmt::Display for BusFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let dir = if self.write { "write" } else { "read" };
        write!(
            f,
            "{} {dir}{} at {:#x} failed: {}",
            self.space, self.width, self.addr, self.kind
        )
    }
}

impl core::error::Error for BusFault {}

/// Something that performs register accesses in space `S`.
///
/// Implementations must not panic on any address: an address they cannot
/// reach reads as all ones or zero (documented per backend) and drops writes.
/// A bus that can fail (a device file, a mapping that ends) also keeps the
/// [`BusFault`] for [`Bus::take_fault`], which the `try_` accessors of
/// [`Device`](crate::Device) check; infallible buses keep the default (no
/// fault ever), which those checks compile away.
///
/// A bus on a real machine also tells time ([`Bus::now_ns`]), so that
/// force-wake waits are bounded in time rather than in polls.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot access the `{S}` address space",
    label = "this bus has no `Bus<{S}>` implementation"
)]
pub trait Bus<S: Space> {
    /// Read 32 bits.
    fn read32(&mut self, addr: u64) -> u32;
    /// Write 32 bits.
    fn write32(&mut self, addr: u64, value: u32);
    /// Read 64 bits (default: low dword, then high dword at `addr + 4`).
    #[inline]
    fn read64(&mut self, addr: u64) -> u64 {
        let lo = self.read32(addr) as u64;
        let hi = self.read32(addr.wrapping_add(4)) as u64;
        lo | hi << 32
    }
    /// Write 64 bits (default: low dword, then high dword).
    #[inline]
    fn write64(&mut self, addr: u64, value: u64) {
        self.write32(addr, value as u32);
        self.write32(addr.wrapping_add(4), (value >> 32) as u32);
    }
    /// Called between two polls of a status register (force-wake acks):
    /// a hardware backend spins or sleeps a short bounded step (and tells
    /// time through [`Bus::now_ns`]); the emulator lets one tick of time
    /// pass. The default does nothing.
    #[inline]
    fn pause(&mut self) {}
    /// True when a kernel driver owns the device behind this bus (a live
    /// GPU's BAR, mapped while i915 or xe drives it): the force-wake request
    /// registers and the multicast steering selector are the kernel's, and
    /// writing them from here races with it.
    /// [`Device::forcewake`](crate::Device::forcewake) then returns
    /// [`WakeError::KernelOwned`](crate::WakeError::KernelOwned) and
    /// [`Device::try_steering`](crate::Device::try_steering)
    /// [`BusyError::KernelOwned`](crate::BusyError::KernelOwned); the
    /// proof that domains are awake comes from holding the kernel's user
    /// force-wake file instead. The default is false.
    #[inline(always)]
    fn kernel_owned(&self) -> bool {
        false
    }
    /// A monotonic clock in nanoseconds (from an origin of the bus's
    /// choosing), which bounds waits in time: with it, a force-wake ack is
    /// awaited for [`FORCEWAKE_TIMEOUT_NS`](crate::power::FORCEWAKE_TIMEOUT_NS)
    /// (the kernel's 50 ms) of this clock, with [`Bus::pause`] between polls.
    /// `None` (the default: plain memory, the emulator, whose time is the
    /// ticks `pause` advances) bounds waits by a number of polls instead
    /// ([`Device::set_poll_limit`](crate::Device::set_poll_limit)).
    #[inline(always)]
    fn now_ns(&mut self) -> Option<u64> {
        None
    }
    /// The first fault since the last call, taken (so each is reported
    /// once): a bus that can fail keeps the fault of the first access that
    /// failed (which read all ones or zero, or dropped its write) until it
    /// is taken. The default (an infallible bus) is `None`.
    #[inline(always)]
    fn take_fault(&mut self) -> Option<BusFault> {
        None
    }
}

impl<S: Space, B: Bus<S> + ?Sized> Bus<S> for &mut B {
    #[inline]
    fn read32(&mut self, addr: u64) -> u32 {
        (**self).read32(addr)
    }
    #[inline]
    fn write32(&mut self, addr: u64, value: u32) {
        (**self).write32(addr, value)
    }
    #[inline]
    fn read64(&mut self, addr: u64) -> u64 {
        (**self).read64(addr)
    }
    #[inline]
    fn write64(&mut self, addr: u64, value: u64) {
        (**self).write64(addr, value)
    }
    #[inline]
    fn pause(&mut self) {
        (**self).pause()
    }
    #[inline(always)]
    fn take_fault(&mut self) -> Option<BusFault> {
        (**self).take_fault()
    }
    #[inline(always)]
    fn now_ns(&mut self) -> Option<u64> {
        (**self).now_ns()
    }
    #[inline(always)]
    fn kernel_owned(&self) -> bool {
        (**self).kernel_owned()
    }
}

/// Volatile accesses through a pointer to a mapped MMIO region (a GT BAR).
///
/// Out-of-range or unaligned accesses read as `0xFFFF_FFFF` (as an unclaimed
/// PCI read would) and drop writes; they never touch memory outside the
/// region, and the first of them is kept for [`Bus::take_fault`]. A 64-bit
/// access at an 8-byte aligned address of an 8-byte aligned region (a
/// mapping) is one volatile 64-bit access; others are two dword accesses
/// (low first).
#[derive(Debug)]
pub struct RawMmio {
    base: *mut u8,
    len: usize,
    fault: Option<BusFault>,
}

impl RawMmio {
    /// Wrap a mapped region.
    ///
    /// # Safety
    /// `base` must point to `len` bytes of device memory (or ordinary memory)
    /// that stay mapped, readable and writable with 4- and 8-byte volatile
    /// accesses for the lifetime of the returned value, and nothing else may
    /// create Rust references into it.
    pub unsafe fn new(base: *mut u8, len: usize) -> Self {
        RawMmio {
            base,
            len,
            fault: None,
        }
    }

    /// Length of the region in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the region is empty (every access faults).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The address of the `N`-byte access at `addr`, or the fault (kept).
    #[inline]
    fn ptr<const N: usize>(&mut self, addr: u64, write: bool) -> Option<*mut u8> {
        let kind = match usize::try_from(addr) {
            Ok(a) if a % N != 0 => FaultKind::Unaligned,
            Ok(a) if a.checked_add(N).is_some_and(|end| end <= self.len) => {
                // SAFETY: in bounds of the region promised by `new`.
                return Some(unsafe { self.base.add(a) });
            }
            _ => FaultKind::OutOfRange,
        };
        self.fault_at(addr, N, write, kind);
        None
    }

    /// Whether a 64-bit access at `addr` is one aligned 64-bit access.
    #[inline]
    fn whole64(&self, addr: u64) -> bool {
        (self.base as usize) % 8 == 0 && addr % 8 == 0
    }

    #[cold]
    fn fault_at(&mut self, addr: u64, bytes: usize, write: bool, kind: FaultKind) {
        if self.fault.is_none() {
            self.fault = Some(BusFault::new::<Mmio>(addr, (bytes * 8) as u8, write, kind));
        }
    }
}

impl Bus<Mmio> for RawMmio {
    #[inline]
    fn read32(&mut self, addr: u64) -> u32 {
        match self.ptr::<4>(addr, false) {
            // SAFETY: aligned, in bounds, mapped per `new`'s contract.
            Some(p) => unsafe { p.cast::<u32>().read_volatile() },
            None => u32::MAX,
        }
    }
    #[inline]
    fn write32(&mut self, addr: u64, value: u32) {
        if let Some(p) = self.ptr::<4>(addr, true) {
            // SAFETY: aligned, in bounds, mapped per `new`'s contract.
            unsafe { p.cast::<u32>().write_volatile(value) }
        }
    }
    #[inline]
    fn read64(&mut self, addr: u64) -> u64 {
        if !self.whole64(addr) {
            let lo = u64::from(self.read32(addr));
            return lo | u64::from(self.read32(addr.wrapping_add(4))) << 32;
        }
        match self.ptr::<8>(addr, false) {
            // SAFETY: 8-byte aligned, in bounds, mapped per `new`'s contract.
            Some(p) => unsafe { p.cast::<u64>().read_volatile() },
            None => u64::MAX,
        }
    }
    #[inline]
    fn write64(&mut self, addr: u64, value: u64) {
        if !self.whole64(addr) {
            self.write32(addr, value as u32);
            return self.write32(addr.wrapping_add(4), (value >> 32) as u32);
        }
        if let Some(p) = self.ptr::<8>(addr, true) {
            // SAFETY: 8-byte aligned, in bounds, mapped per `new`'s contract.
            unsafe { p.cast::<u64>().write_volatile(value) }
        }
    }
    #[inline]
    fn take_fault(&mut self) -> Option<BusFault> {
        self.fault.take()
    }
}

/// Plain memory standing in for a register space: word `i` is address `4 * i`.
/// Unaligned or out-of-range addresses read 0 and drop writes.
/// No register semantics: use it to look at what a driver writes.
#[derive(Debug)]
pub struct SliceBus<'a> {
    words: &'a mut [u32],
}

impl<'a> SliceBus<'a> {
    /// Wrap a word slice.
    pub fn new(words: &'a mut [u32]) -> Self {
        SliceBus { words }
    }
    /// The backing words.
    pub fn words(&self) -> &[u32] {
        self.words
    }
    /// Read the word at byte address `addr` (0 when out of range or unaligned).
    #[inline]
    pub fn read32(&mut self, addr: u64) -> u32 {
        self.slot(addr).map_or(0, |w| *w)
    }
    /// Write the word at byte address `addr` (dropped when out of range or unaligned).
    #[inline]
    pub fn write32(&mut self, addr: u64, value: u32) {
        if let Some(w) = self.slot(addr) {
            *w = value;
        }
    }
    #[inline]
    fn slot(&mut self, addr: u64) -> Option<&mut u32> {
        if addr % 4 != 0 {
            return None;
        }
        self.words.get_mut(usize::try_from(addr / 4).ok()?)
    }
}

impl<S: Space> Bus<S> for SliceBus<'_> {
    #[inline]
    fn read32(&mut self, addr: u64) -> u32 {
        SliceBus::read32(self, addr)
    }
    #[inline]
    fn write32(&mut self, addr: u64, value: u32) {
        SliceBus::write32(self, addr, value)
    }
}

/// One access seen by a [`Recording`] bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Address accessed.
    pub addr: u64,
    /// Value read or written.
    pub value: u64,
    /// Width in bits (32 or 64).
    pub width: u32,
    /// True for a write.
    pub write: bool,
}

/// A bus wrapper that reports every access to a callback, then forwards it.
#[derive(Debug)]
pub struct Recording<B, F> {
    inner: B,
    log: F,
}

impl<B, F: FnMut(Access)> Recording<B, F> {
    /// Wrap `inner`; `log` sees each access (reads with the value returned).
    pub fn new(inner: B, log: F) -> Self {
        Recording { inner, log }
    }
    /// The wrapped bus.
    pub fn inner(&self) -> &B {
        &self.inner
    }
    /// The wrapped bus, mutably (accesses through it are not recorded).
    pub fn inner_mut(&mut self) -> &mut B {
        &mut self.inner
    }
}

impl<S: Space, B: Bus<S>, F: FnMut(Access)> Bus<S> for Recording<B, F> {
    fn read32(&mut self, addr: u64) -> u32 {
        let value = self.inner.read32(addr);
        (self.log)(Access {
            addr,
            value: value.into(),
            width: 32,
            write: false,
        });
        value
    }
    fn write32(&mut self, addr: u64, value: u32) {
        (self.log)(Access {
            addr,
            value: value.into(),
            width: 32,
            write: true,
        });
        self.inner.write32(addr, value)
    }
    fn read64(&mut self, addr: u64) -> u64 {
        let value = self.inner.read64(addr);
        (self.log)(Access {
            addr,
            value,
            width: 64,
            write: false,
        });
        value
    }
    fn write64(&mut self, addr: u64, value: u64) {
        (self.log)(Access {
            addr,
            value,
            width: 64,
            write: true,
        });
        self.inner.write64(addr, value)
    }
    fn pause(&mut self) {
        self.inner.pause()
    }
    fn take_fault(&mut self) -> Option<BusFault> {
        self.inner.take_fault()
    }
    fn now_ns(&mut self) -> Option<u64> {
        self.inner.now_ns()
    }
    fn kernel_owned(&self) -> bool {
        self.inner.kernel_owned()
    }
}

#[cfg(all(test, feature = "hsw"))]
mod tests {
    use super::*;
    use crate::{hsw, Device, Hsw, Register};

    #[test]
    fn raw_mmio_keeps_the_first_fault_and_accesses_64_bits_whole() {
        let mut mem = [0u64; 8];
        // SAFETY: `mem` outlives `bus` and is only accessed through it meanwhile.
        let mut bus = unsafe { RawMmio::new(mem.as_mut_ptr().cast(), 64) };
        Bus::<Mmio>::write64(&mut bus, 8, 0x1122_3344_5566_7788);
        assert_eq!(Bus::<Mmio>::read32(&mut bus, 12), 0x1122_3344);
        assert_eq!(Bus::<Mmio>::read64(&mut bus, 8), 0x1122_3344_5566_7788);
        assert_eq!(Bus::<Mmio>::take_fault(&mut bus), None);
        assert_eq!(
            Bus::<Mmio>::read64(&mut bus, 60),
            0xFFFF_FFFF_0000_0000,
            "crosses the end"
        );
        Bus::<Mmio>::write32(&mut bus, 2, 1);
        let first = Bus::<Mmio>::take_fault(&mut bus).expect("kept");
        assert_eq!(
            first,
            BusFault::new::<Mmio>(64, 32, false, FaultKind::OutOfRange),
            "the high dword of the split read is the first failing access"
        );
        assert_eq!(Bus::<Mmio>::take_fault(&mut bus), None, "taken once");
        Bus::<Mmio>::write32(&mut bus, 2, 1);
        assert_eq!(
            Bus::<Mmio>::take_fault(&mut bus).map(|f| (f.kind, f.write)),
            Some((FaultKind::Unaligned, true))
        );
        assert_eq!(mem[1], 0x1122_3344_5566_7788);
    }

    #[test]
    fn try_accessors_report_faults_and_pass_values_of_infallible_buses() {
        let mut mem = [0u32; 16];
        // SAFETY: `mem` outlives `gpu` and is only accessed through it meanwhile.
        let bus = unsafe { RawMmio::new(mem.as_mut_ptr().cast(), 64) };
        let gpu = Device::<Hsw, _>::new(bus);
        let rw = gpu.assume_awake::<hsw::domains::Render>();
        let addr = hsw::OACONTROL.address();
        let fault = gpu.try_read(hsw::OACONTROL, &rw).unwrap_err();
        assert_eq!(
            (fault.addr, fault.write, fault.kind),
            (addr, false, FaultKind::OutOfRange)
        );
        let fault = gpu.try_write(hsw::OACONTROL, &rw, |w| w).unwrap_err();
        assert_eq!((fault.addr, fault.write), (addr, true));
        // A fault a plain accessor left is reported by the next checked one.
        gpu.write(hsw::OACONTROL, &rw, |w| w);
        let fault = gpu.io().try_read(hsw::OACONTROL, &rw).unwrap_err();
        assert_eq!((fault.addr, fault.write), (addr, true));

        let mut words = [0u32; 0x3000 / 4];
        let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut words));
        let rw = gpu.assume_awake::<hsw::domains::Render>();
        gpu.try_write(hsw::OACONTROL, &rw, |w| w.timer_period(crate::bits!(5)))
            .unwrap();
        assert_eq!(gpu.try_read(hsw::OACONTROL, &rw).unwrap().timer_period(), 5);
    }
}
