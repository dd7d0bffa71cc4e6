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

/// Something that performs register accesses in space `S`.
///
/// Implementations must not panic on any address: an address they cannot
/// reach reads as all ones or zero (documented per backend) and drops writes.
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
    /// a hardware backend may spin or sleep briefly; the emulator lets one
    /// tick of time pass. The default does nothing.
    #[inline]
    fn pause(&mut self) {}
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
}

/// Volatile accesses through a pointer to a mapped MMIO region (a GT BAR).
///
/// Out-of-range accesses read as `0xFFFF_FFFF` (as an unclaimed PCI read
/// would) and drop writes; they never touch memory outside the region.
#[derive(Debug)]
pub struct RawMmio {
    base: *mut u8,
    len: usize,
}

impl RawMmio {
    /// Wrap a mapped region.
    ///
    /// # Safety
    /// `base` must point to `len` bytes of device memory (or ordinary memory)
    /// that stay mapped, readable and writable with 4-byte volatile accesses
    /// for the lifetime of the returned value, and nothing else may create
    /// Rust references into it.
    pub unsafe fn new(base: *mut u8, len: usize) -> Self {
        RawMmio { base, len }
    }

    #[inline]
    fn ptr(&self, addr: u64) -> Option<*mut u32> {
        let a = usize::try_from(addr).ok()?;
        if a % 4 != 0 || a.checked_add(4)? > self.len {
            return None;
        }
        // SAFETY: in bounds of the region promised by `new`.
        Some(unsafe { self.base.add(a) } as *mut u32)
    }
}

impl Bus<Mmio> for RawMmio {
    #[inline]
    fn read32(&mut self, addr: u64) -> u32 {
        match self.ptr(addr) {
            // SAFETY: aligned, in bounds, mapped per `new`'s contract.
            Some(p) => unsafe { p.read_volatile() },
            None => u32::MAX,
        }
    }
    #[inline]
    fn write32(&mut self, addr: u64, value: u32) {
        if let Some(p) = self.ptr(addr) {
            // SAFETY: aligned, in bounds, mapped per `new`'s contract.
            unsafe { p.write_volatile(value) }
        }
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
}
