//! The `perfregs` command's integration tests, as one test binary: one
//! build and link instead of one per file, and the files' tests run side by
//! side (`cargo test -p perfregs-cli --test all record::` runs one file's).
//! `top.rs` stays a binary of its own: its terminal tests wait on tmux and
//! keep their timing away from these.

mod common;

mod cli;
mod devices;
mod parts;
mod perfetto;
mod produce;
mod record;
mod reg;
mod report;
