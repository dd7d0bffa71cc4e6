//! Metric sets: the i915 OA configurations (IGT `lib/i915/perf-configs/`
//! XML) read with positions, their register writes checked against the
//! descriptions, and their counter equations parsed, type-checked,
//! interpreted and compiled to Rust.
//!
//! Passes: `xml` (text -> [`model`], located syntax and shape errors) ->
//! `equation` (RPN -> typed expressions) -> `check` (register writes against
//! the [`Ir`](crate::Ir)) -> `interp` (run-time values) / `emit` (Rust).

pub mod emit;
pub mod equation;
pub mod interp;
pub mod model;
pub mod xml;
