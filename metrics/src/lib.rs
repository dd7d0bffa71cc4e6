//! The i915 metric sets shipped in `perfregs-regdefs` (IGT's
//! `lib/i915/perf-configs/` XML) as typed Rust.
//!
//! The build script reads every file, checks it (XML shape, counter
//! equations typed against the project's report formats) and generates one
//! module per file ([`bdw`], [`hsw`], [`tgl_gt1`], [`tgl_gt2`]) holding one
//! module per set: `perfregs_metrics::bdw::test_oa::gpu_core_clocks(&sample,
//! &device)` is a counter, `perfregs_metrics::bdw::test_oa::SET` the set's
//! description and OA programming ([`SetInfo`]), `bdw::all()` every set.
//!
//! Counters compute from a [`Sample`] (counter deltas between two reports)
//! and a [`DeviceInfo`]; a counter the sample lacks makes the value `None`.
//! Both are the types of `perfregs-types`, which the run-time interpreter of
//! `perfregs-codegen` takes too. [`DeviceInfo::default()`] is all zeros
//! (counters dividing by a device value give 0): use the running device's
//! values or a catalogue part's (`hal::part("tgl", 2)`, `hal::PARTS`).
//! Arithmetic follows IGT's generated C: integers wrap, a division by zero
//! gives 0 (see `perfregs_codegen::metrics::equation` for every rule).
//!
//! From a stream of reports to counters: [`intervals`] pairs consecutive
//! reports into deltas (wraps handled, a loss ends the pairing) and sums
//! them per interval (N pairs or a time window) into a [`Sample`].
#![no_std]
#![forbid(unsafe_code)]

pub mod intervals;
pub mod rt;

pub use intervals::{Interval, Intervals, Pair, PairInfo, Pairs, Window};
pub use rt::{
    reads_of, ConfigBlock, ConfigKind, CounterInfo, DeviceInfo, Eval, Reads, Sample, SetInfo, Value,
};

include!(concat!(env!("OUT_DIR"), "/metrics_generated.rs"));
