//! Emulated graphics memory (the GGTT view): a sparse byte store.
//!
//! The 4 GiB GGTT address space is cut into 64 KiB chunks; a chunk is
//! allocated (zero-filled) the first time a byte in it is written, so reading
//! never allocates and unwritten memory reads as zeros. Bytes at or above
//! 4 GiB ([`GpuMem::LIMIT`]) are outside the modelled GGTT: writes to them are
//! dropped and reads return zeros.

use std::boxed::Box;
use std::vec;
use std::vec::Vec;

/// Bits of an address inside one chunk.
const CHUNK_BITS: u32 = 16;
/// Bytes per chunk (64 KiB).
const CHUNK: usize = 1 << CHUNK_BITS;
/// Chunks covering [`GpuMem::LIMIT`].
const CHUNKS: usize = 1 << (32 - CHUNK_BITS);

/// Emulated graphics memory (GGTT, [`Emulator::gpu_mem`](crate::Emulator::gpu_mem)):
/// a sparse byte store of 64 KiB chunks allocated on first write, zeros
/// where unwritten; bytes at or above 4 GiB ([`GpuMem::LIMIT`]) read 0 and
/// are dropped when written. PPGTT is not modelled.
#[derive(Clone, Default)]
pub struct GpuMem {
    /// Empty until the first write, then [`CHUNKS`] entries.
    chunks: Vec<Option<Box<[u8]>>>,
    /// Chunks allocated.
    allocated: usize,
}

impl core::fmt::Debug for GpuMem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuMem")
            .field("allocated_chunks", &self.allocated)
            .finish()
    }
}

impl GpuMem {
    /// First address outside the modelled GGTT (4 GiB).
    pub const LIMIT: u64 = 1 << 32;

    /// Copy `out.len()` bytes from `addr` into `out` (zeros where nothing
    /// was written or the address is at or above [`GpuMem::LIMIT`]).
    pub fn read_into(&self, addr: u64, out: &mut [u8]) {
        let mut done = 0usize;
        while done < out.len() {
            let a = addr.checked_add(done as u64);
            let Some(rest) = out.get_mut(done..) else {
                break;
            };
            let n = match a.filter(|&a| a < Self::LIMIT) {
                Some(a) => {
                    let off = (a as usize) & (CHUNK - 1);
                    let n = rest.len().min(CHUNK - off);
                    let src = self
                        .chunks
                        .get((a >> CHUNK_BITS) as usize)
                        .and_then(|c| c.as_deref())
                        .and_then(|c| c.get(off..off + n));
                    let dst = rest.get_mut(..n).unwrap_or_default();
                    match src {
                        Some(s) => dst.copy_from_slice(s),
                        None => dst.fill(0),
                    }
                    n
                }
                None => {
                    rest.fill(0);
                    rest.len()
                }
            };
            done = done.saturating_add(n.max(1));
        }
    }

    /// Write `data` at `addr`; bytes at or above [`GpuMem::LIMIT`] are
    /// dropped. Returns how many bytes were stored.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> usize {
        let mut done = 0usize;
        let mut stored = 0usize;
        while done < data.len() {
            let Some(a) = addr.checked_add(done as u64).filter(|&a| a < Self::LIMIT) else {
                break;
            };
            let off = (a as usize) & (CHUNK - 1);
            let Some(rest) = data.get(done..) else { break };
            let n = rest.len().min(CHUNK - off);
            if let (Some(chunk), Some(src)) = (self.chunk_mut(a), rest.get(..n)) {
                if let Some(dst) = chunk.get_mut(off..off + n) {
                    dst.copy_from_slice(src);
                    stored += n;
                }
            }
            done = done.saturating_add(n.max(1));
        }
        stored
    }

    /// `len` bytes from `addr` (as [`GpuMem::read_into`], allocating).
    pub fn read(&self, addr: u64, len: usize) -> Vec<u8> {
        let mut v = std::vec![0u8; len];
        self.read_into(addr, &mut v);
        v
    }

    /// Bytes allocated so far (64 KiB chunks, on first write).
    pub fn allocated(&self) -> usize {
        self.allocated_chunks().saturating_mul(CHUNK)
    }

    /// Chunks allocated so far (64 KiB each).
    fn allocated_chunks(&self) -> usize {
        self.allocated
    }

    /// The chunk holding `addr` (below [`GpuMem::LIMIT`]), allocated if new.
    fn chunk_mut(&mut self, addr: u64) -> Option<&mut [u8]> {
        if self.chunks.is_empty() {
            self.chunks.resize_with(CHUNKS, || None);
        }
        let slot = self.chunks.get_mut((addr >> CHUNK_BITS) as usize)?;
        if slot.is_none() {
            *slot = Some(vec![0u8; CHUNK].into_boxed_slice());
            self.allocated += 1;
        }
        slot.as_deref_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_reads_and_writes() {
        let mut m = GpuMem::default();
        let mut out = [0xAAu8; 8];
        m.read_into(0x1234, &mut out);
        assert_eq!(out, [0; 8]);
        assert_eq!(m.allocated_chunks(), 0);
        // Across a chunk boundary.
        let data: Vec<u8> = (0..16).collect();
        assert_eq!(m.write(0x1_FFF8, &data), 16);
        assert_eq!(m.allocated_chunks(), 2);
        let mut back = [0u8; 20];
        m.read_into(0x1_FFF6, &mut back);
        assert_eq!(&back[2..18], &data[..]);
        assert_eq!(back[0], 0);
        // Beyond 4 GiB: dropped, reads zero.
        assert_eq!(m.write(GpuMem::LIMIT - 2, &[1, 2, 3, 4]), 2);
        let mut edge = [9u8; 4];
        m.read_into(GpuMem::LIMIT - 2, &mut edge);
        assert_eq!(edge, [1, 2, 0, 0]);
        assert_eq!(m.write(u64::MAX - 1, &[1, 2, 3]), 0);
        m.read_into(u64::MAX - 1, &mut edge);
        assert_eq!(edge, [0; 4]);
    }
}
