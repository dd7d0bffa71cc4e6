//! The metric sets' integration tests, as one test binary: one build and
//! link instead of one per file, and the files' tests run side by side
//! (`cargo test -p perfregs-metrics --test all errata::` runs one file's).
//! `same_descriptions.rs` stays a binary of its own: `.ci/regen-check`
//! builds it alone against a copy of the descriptions.

mod agree;
mod by_hand;
mod errata;
mod intervals;
mod metric_sets;
mod xe_errata;
