//! The direct address index built once per emulator: address -> register
//! slot, and address -> wake target of the force-wake table row.
//!
//! Two levels: `addr >> 12` selects a page entry; a page of register slots
//! holds one `u32` per byte address (so the odd addresses of MSR projects
//! decode as well as dword-aligned MMIO offsets), and a page's wake target is
//! either one target for the whole page or, where table rows split the page,
//! one target per byte address. Lookups are two array loads; nothing is
//! hashed or searched per access. Addresses beyond the table (at most
//! [`MAX_PAGES`] pages, 4 GiB) fall back to binary searches over the few
//! registers and rows out there.

use std::vec;
use std::vec::Vec;

use hal::meta::MapRow;

/// Bytes per page.
pub(crate) const PAGE: usize = 4096;
/// Largest number of directly indexed pages (addresses below 4 GiB).
pub(crate) const MAX_PAGES: u64 = 1 << 20;
/// "No target" / "no page".
pub(crate) const NONE16: u16 = u16::MAX;
const NONE32: u32 = u32::MAX;
/// Tag bit of [`PageEntry::dom`]: the low bits index a fine page.
const FINE: u32 = 1 << 31;

/// A slot: 0 for no register, else `(register index + 1) << 1 | half`,
/// `half` 1 for the high dword of a 64-bit register.
pub(crate) type Slot = u32;

/// Make a slot value.
pub(crate) fn slot(reg: usize, high: bool) -> Slot {
    u32::try_from(reg)
        .ok()
        .and_then(|r| r.checked_add(1))
        .and_then(|r| r.checked_mul(2))
        .map_or(0, |s| s | u32::from(high))
}

/// Split a slot into `(register index, high half)`; `None` for slot 0.
#[inline]
pub(crate) fn unslot(s: Slot) -> Option<(usize, bool)> {
    let r = (s >> 1).checked_sub(1)?;
    Some((r as usize, s & 1 != 0))
}

#[derive(Clone, Copy, Debug)]
struct PageEntry {
    /// Index of the slot page, or `NONE32` when no register is in the page.
    slots: u32,
    /// Wake target for the whole page (`FINE` clear; `NONE16` for none), or
    /// `FINE | index` of a fine page with one target per byte.
    dom: u32,
}

/// The index. Built by [`AddressIndex::new`], read by [`AddressIndex::slot_at`]
/// and [`AddressIndex::row_target`].
#[derive(Clone, Debug)]
pub(crate) struct AddressIndex {
    pages: Vec<PageEntry>,
    /// Slot pages, `PAGE` entries each.
    slot_pages: Vec<Slot>,
    /// Fine wake-target pages, `PAGE` entries each.
    dom_pages: Vec<u16>,
    /// Claimed addresses beyond the table, sorted.
    far_slots: Vec<(u64, Slot)>,
    /// Table rows (or their parts) beyond the table: `(start, end, target)`,
    /// sorted by start.
    far_rows: Vec<(u64, u64, u16)>,
}

impl AddressIndex {
    /// Build the index. `claims` are `(address, slot)` pairs in priority
    /// order (the first claim of an address wins); `rows` are the force-wake
    /// table rows with each row's wake target id (`NONE16`: none), sorted by
    /// start; where rows overlap the later one wins.
    pub(crate) fn new(claims: &[(u64, Slot)], rows: &[(&MapRow, u16)]) -> Self {
        let need = claims
            .iter()
            .map(|&(a, _)| a >> 12)
            .chain(rows.iter().map(|(r, _)| r.end >> 12))
            .filter(|&p| p < MAX_PAGES)
            .max()
            .map_or(0, |p| p + 1);
        let mut ix = AddressIndex {
            pages: vec![
                PageEntry {
                    slots: NONE32,
                    dom: u32::from(NONE16),
                };
                need as usize
            ],
            slot_pages: Vec::new(),
            dom_pages: Vec::new(),
            far_slots: Vec::new(),
            far_rows: Vec::new(),
        };
        for &(addr, s) in claims {
            ix.claim(addr, s);
        }
        ix.far_slots.sort_by_key(|&(a, _)| a);
        for &(row, t) in rows {
            ix.paint(row.start, row.end, t);
        }
        ix
    }

    fn claim(&mut self, addr: u64, s: Slot) {
        let Some(pe) = usize::try_from(addr >> 12)
            .ok()
            .and_then(|p| self.pages.get_mut(p))
        else {
            if !self.far_slots.iter().any(|&(a, _)| a == addr) {
                self.far_slots.push((addr, s));
            }
            return;
        };
        if pe.slots == NONE32 {
            pe.slots = (self.slot_pages.len() / PAGE) as u32;
            self.slot_pages.resize(self.slot_pages.len() + PAGE, 0);
        }
        let i = pe.slots as usize * PAGE + (addr as usize & (PAGE - 1));
        if let Some(e) = self.slot_pages.get_mut(i) {
            if *e == 0 {
                *e = s;
            }
        }
    }

    /// Give bytes `start..=end` wake target `t`.
    fn paint(&mut self, start: u64, end: u64, t: u16) {
        if end < start {
            return;
        }
        let table_end = (self.pages.len() as u64) << 12; // first byte not indexed
        if end >= table_end {
            self.far_rows.push((start.max(table_end), end, t));
        }
        if start >= table_end {
            return;
        }
        let end = end.min(table_end - 1);
        for p in (start >> 12)..=(end >> 12) {
            let base = p << 12;
            let lo = start.max(base);
            let hi = end.min(base + PAGE as u64 - 1);
            let Some(pe) = self.pages.get_mut(p as usize) else {
                return;
            };
            if lo == base && hi == base + PAGE as u64 - 1 {
                pe.dom = u32::from(t);
                continue;
            }
            if pe.dom & FINE == 0 {
                let fill = pe.dom as u16;
                pe.dom = FINE | (self.dom_pages.len() / PAGE) as u32;
                self.dom_pages.resize(self.dom_pages.len() + PAGE, fill);
            }
            let fp = (pe.dom & !FINE) as usize * PAGE;
            let (a, b) = (fp + (lo - base) as usize, fp + (hi - base) as usize);
            if let Some(bytes) = self.dom_pages.get_mut(a..=b) {
                bytes.fill(t);
            }
        }
    }

    /// The slot at `addr` (0: no register).
    #[inline]
    pub(crate) fn slot_at(&self, addr: u64) -> Slot {
        match usize::try_from(addr >> 12)
            .ok()
            .and_then(|p| self.pages.get(p))
        {
            Some(pe) if pe.slots != NONE32 => self
                .slot_pages
                .get(pe.slots as usize * PAGE + (addr as usize & (PAGE - 1)))
                .copied()
                .unwrap_or(0),
            Some(_) => 0,
            None => self.far_slot(addr),
        }
    }

    #[cold]
    fn far_slot(&self, addr: u64) -> Slot {
        self.far_slots
            .binary_search_by_key(&addr, |&(a, _)| a)
            .ok()
            .and_then(|i| self.far_slots.get(i))
            .map_or(0, |&(_, s)| s)
    }

    /// The wake target of the table row holding `addr` (`NONE16`: no row,
    /// or a reserved row).
    #[inline]
    pub(crate) fn row_target(&self, addr: u64) -> u16 {
        match usize::try_from(addr >> 12)
            .ok()
            .and_then(|p| self.pages.get(p))
        {
            Some(pe) if pe.dom & FINE == 0 => pe.dom as u16,
            Some(pe) => self
                .dom_pages
                .get((pe.dom & !FINE) as usize * PAGE + (addr as usize & (PAGE - 1)))
                .copied()
                .unwrap_or(NONE16),
            None => self.far_row(addr),
        }
    }

    #[cold]
    fn far_row(&self, addr: u64) -> u16 {
        let i = self.far_rows.partition_point(|&(s, _, _)| s <= addr);
        // The last row starting at or below addr; rows are sorted by start.
        i.checked_sub(1)
            .and_then(|i| self.far_rows.get(i))
            .filter(|&&(_, e, _)| addr <= e)
            .map_or(NONE16, |&(_, _, t)| t)
    }

    /// Bytes of memory held by the index (for documentation and tests).
    #[cfg(test)]
    pub(crate) fn footprint(&self) -> usize {
        self.pages.len() * core::mem::size_of::<PageEntry>()
            + self.slot_pages.len() * 4
            + self.dom_pages.len() * 2
            + self.far_slots.len() * 16
            + self.far_rows.len() * 24
    }
}
