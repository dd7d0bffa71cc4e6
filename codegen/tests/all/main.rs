//! The generator's integration tests, as one test binary: one build and
//! link instead of one per file, and the files' tests run side by side
//! (`cargo test -p perfregs-codegen --test all NAME` runs a file's, by
//! module name: `--test all mutation::`).

mod support {
    pub mod fixtures;
    pub mod harness;
    pub mod mutate;
}

mod bom;
mod devices;
mod diagnostics;
mod export;
mod golden;
mod metrics_check;
mod metrics_eval;
mod metrics_front;
mod metrics_mutation;
mod mutation;
mod reproducible;
mod schema_features;
mod size;
