//! What configures the OA model: its clock ratio and legacy report id
//! ([`OaConfig`]), and the events its A counters see ([`Workload`]).

use super::*;

/// Configuration of the OA model ([`UnitMut::enable`](crate::UnitMut::enable) of [`OaUnit`](crate::OaUnit)).
///
/// ```
/// use perfregs_emu::OaConfig;
/// let cfg = OaConfig::default().with_gpu_clocks_per_tick(4);
/// assert_eq!(cfg.gpu_clocks_per_tick, 4);
/// assert_eq!(cfg.legacy_timer_rpt_id, OaConfig::DEFAULT_LEGACY_TIMER_RPT_ID);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OaConfig {
    /// GPU clocks per emulator tick (one tick is one TIME_STAMP tick). The
    /// GPU clock feeds GPU_TICKS, the CEC logic (B counters count GPU
    /// clocks) and, on projects whose layouts have no GPU_TICKS, C2.
    pub gpu_clocks_per_tick: u64,
    /// RPT_ID of timer reports on projects without documented RPT_ID fields
    /// (no `rpt_id_report_reasons` table: SNB..HSW). The PRMs say nothing;
    /// the default sets bit 10, which Intel GPU tools (IGT `perf` test,
    /// `oa_report_is_periodic`) observed to correlate with timer reports on
    /// HSW, and is non-zero, which Linux i915 requires of a written HSW
    /// report.
    pub legacy_timer_rpt_id: u32,
}

impl OaConfig {
    /// Default [`OaConfig::gpu_clocks_per_tick`].
    pub const DEFAULT_GPU_CLOCKS_PER_TICK: u64 = 8;
    /// Default [`OaConfig::legacy_timer_rpt_id`].
    pub const DEFAULT_LEGACY_TIMER_RPT_ID: u32 = 1 << 10;

    /// The configuration of an emulated part with device values `d`: its
    /// GPU clock is the part's maximum frequency, rounded down to whole
    /// clocks a timestamp tick (a GPU under load runs at its maximum), but
    /// not under its minimum and at least one clock a tick; the default
    /// ratio where `d` gives no timestamp or maximum frequency.
    ///
    /// ```
    /// use perfregs_emu::OaConfig;
    /// let d = perfregs_types::DeviceInfo {
    ///     gpu_timestamp_frequency: 19_200_000,
    ///     gpu_min_frequency: 300_000_000,
    ///     gpu_max_frequency: 1_350_000_000,
    ///     ..Default::default()
    /// };
    /// // 70 clocks a tick: 1,344 MHz.
    /// assert_eq!(OaConfig::for_part(&d).gpu_clocks_per_tick, 70);
    /// ```
    pub fn for_part(d: &perfregs_types::DeviceInfo) -> Self {
        let ts = d.gpu_timestamp_frequency;
        let clocks = if ts == 0 || d.gpu_max_frequency == 0 {
            Self::DEFAULT_GPU_CLOCKS_PER_TICK
        } else {
            (d.gpu_max_frequency / ts)
                .max(d.gpu_min_frequency.div_ceil(ts))
                .max(1)
        };
        Self::default().with_gpu_clocks_per_tick(clocks)
    }

    /// Set [`OaConfig::gpu_clocks_per_tick`].
    #[must_use]
    pub fn with_gpu_clocks_per_tick(mut self, clocks: u64) -> Self {
        self.gpu_clocks_per_tick = clocks;
        self
    }

    /// Set [`OaConfig::legacy_timer_rpt_id`].
    #[must_use]
    pub fn with_legacy_timer_rpt_id(mut self, id: u32) -> Self {
        self.legacy_timer_rpt_id = id;
        self
    }
}

impl Default for OaConfig {
    fn default() -> Self {
        OaConfig {
            gpu_clocks_per_tick: Self::DEFAULT_GPU_CLOCKS_PER_TICK,
            legacy_timer_rpt_id: Self::DEFAULT_LEGACY_TIMER_RPT_ID,
        }
    }
}

/// A scripted synthetic workload: events per tick for each A counter.
///
/// `Workload::new().rate(0, 5).rate(7, 2)` adds 5 to A0 and 2 to A7 on every
/// tick the counters count. Counters the project does not have are ignored.
///
/// ```
/// use perfregs_emu::Workload;
/// let w = Workload::new().rate(0, 5).rate(7, 2).rate(0, 6);
/// assert_eq!(w.rate_of(0), 6);
/// assert_eq!(w.rates(), &[(0, 6), (7, 2)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Workload {
    /// `(counter, events per tick)`, by ascending counter, no zero rates.
    rates: Vec<(u32, u64)>,
}

impl Workload {
    /// No events.
    pub fn new() -> Self {
        Self::default()
    }

    /// A`counter` counts `events_per_tick` per tick (replacing an earlier
    /// rate; 0 removes it).
    #[must_use]
    pub fn rate(mut self, counter: u32, events_per_tick: u64) -> Self {
        match self.rates.binary_search_by_key(&counter, |&(c, _)| c) {
            Ok(i) if events_per_tick == 0 => {
                self.rates.remove(i);
            }
            Ok(i) => {
                if let Some(r) = self.rates.get_mut(i) {
                    r.1 = events_per_tick;
                }
            }
            Err(_) if events_per_tick == 0 => {}
            Err(i) => self.rates.insert(i, (counter, events_per_tick)),
        }
        self
    }

    /// Events per tick of A`counter`.
    pub fn rate_of(&self, counter: u32) -> u64 {
        self.rates
            .binary_search_by_key(&counter, |&(c, _)| c)
            .ok()
            .and_then(|i| self.rates.get(i))
            .map_or(0, |r| r.1)
    }

    /// Every non-zero rate, `(counter, events per tick)` by counter.
    pub fn rates(&self) -> &[(u32, u64)] {
        &self.rates
    }
}
