//! Force-wake: a request register, an ack register that follows the
//! request's low 16 bits after the SKU's wake latency, and the delay line in
//! between.

use std::collections::VecDeque;

/// One power domain with a request and an ack register.
#[derive(Clone, Debug)]
pub(crate) struct ForceWake {
    /// Wake target id of the domain.
    pub target: u16,
    /// Register index of the request register.
    pub request: usize,
    /// Register index of the ack register.
    pub ack: usize,
    /// The domain exists on the SKU (an absent one never acks).
    pub present: bool,
    /// Request value (low 16 bits) last seen.
    last: u64,
    /// Ack values to apply, `(due time, value)`, by ascending due time.
    pending: VecDeque<(u64, u64)>,
}

impl ForceWake {
    pub(crate) fn new(target: u16, request: usize, ack: usize, present: bool, req: u64) -> Self {
        ForceWake {
            target,
            request,
            ack,
            present,
            last: req & 0xFFFF,
            pending: VecDeque::new(),
        }
    }

    /// The request register now holds `req`: schedule the ack to follow at
    /// `now + latency` when its low 16 bits changed. Changes at the same time
    /// coalesce, so the line holds at most one entry per distinct due time.
    pub(crate) fn requested(&mut self, now: u64, latency: u64, req: u64) {
        let low = req & 0xFFFF;
        if low == self.last {
            return;
        }
        self.last = low;
        if !self.present {
            return;
        }
        let due = now.saturating_add(latency);
        match self.pending.back_mut() {
            Some(last) if last.0 == due => last.1 = low,
            _ => self.pending.push_back((due, low)),
        }
    }

    /// Schedule the ack to follow the request value `req` at construction
    /// (when the reset values disagree).
    pub(crate) fn start(&mut self, latency: u64, ack: u64) {
        if self.present && self.last != ack & 0xFFFF {
            self.pending.push_back((latency, self.last));
        }
    }

    /// The latest ack value due at `now`, removing every due entry.
    pub(crate) fn due(&mut self, now: u64) -> Option<u64> {
        let mut value = None;
        while let Some(&(t, v)) = self.pending.front() {
            if t > now {
                break;
            }
            value = Some(v);
            self.pending.pop_front();
        }
        value
    }
}
