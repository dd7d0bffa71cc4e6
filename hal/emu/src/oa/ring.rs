//! The OA buffer: its geometry and the PRM programming order.

/// The PRM programming order of the OA buffer registers.
#[derive(Clone, Copy, Debug)]
pub(super) struct Order {
    /// A head write happened since the last complete sequence.
    pub(super) head_seen: bool,
    /// A tail write happened after the last head write.
    pub(super) tail_since_head: bool,
    /// The buffer register was written; the tail write that completes the
    /// sequence has not come yet.
    pub(super) pending: bool,
    /// The pending sequence is in order so far.
    pub(super) seq_ok: bool,
    /// Overflow detection is on.
    pub(super) valid: bool,
    /// The missing tail write was reported, or needs no report (the
    /// sequence was already reported out of order).
    pub(super) warned_pending: bool,
}

impl Default for Order {
    fn default() -> Self {
        Order {
            head_seen: false,
            tail_since_head: false,
            pending: false,
            seq_ok: true,
            valid: true,
            warned_pending: false,
        }
    }
}

impl Order {
    pub(super) fn head(&mut self) {
        self.head_seen = true;
        self.tail_since_head = false;
    }

    pub(super) fn buffer(&mut self) -> Option<&'static str> {
        let reason = if !self.head_seen {
            Some("written without a head-pointer write before it (PRM order: head pointer, OA buffer, tail pointer)")
        } else if self.tail_since_head {
            Some("written after the tail-pointer register (PRM order: head pointer, OA buffer, tail pointer)")
        } else {
            None
        };
        self.seq_ok = reason.is_none();
        self.pending = true;
        self.valid = false;
        // One mistake, one warning: a sequence already reported out of
        // order is not reported again for its missing tail write.
        self.warned_pending = !self.seq_ok;
        reason
    }

    pub(super) fn tail(&mut self) {
        self.tail_since_head = true;
        if self.pending {
            self.pending = false;
            self.valid = self.seq_ok;
            if self.seq_ok {
                self.head_seen = false;
            }
        }
    }
}

/// The OA buffer as the registers describe it now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ring {
    /// Full graphics address of the buffer.
    pub(super) base: u64,
    /// Bits 31:0 of the base (head and tail are 32-bit addresses).
    pub(super) base_lo: u64,
    pub(super) size: u64,
    pub(super) head: u64,
    pub(super) tail: u64,
}

impl Ring {
    pub(super) fn off(&self, ptr: u64) -> u64 {
        (ptr.wrapping_sub(self.base_lo) & 0xFFFF_FFFF) % self.size
    }
    pub(super) fn head_off(&self) -> u64 {
        self.off(self.head)
    }
    pub(super) fn tail_off(&self) -> u64 {
        self.off(self.tail)
    }
    /// Unread bytes: all of them while `full`, else `(tail - head) mod
    /// size`.
    pub(super) fn used(&self, full: bool) -> u64 {
        if full {
            self.size
        } else {
            (self.tail_off() + self.size - self.head_off()) % self.size
        }
    }
}
