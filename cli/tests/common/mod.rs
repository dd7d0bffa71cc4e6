//! What the cli's test binaries share: running the `perfregs` binary.
#![allow(dead_code)] // each test binary uses its part

use std::process::Command;

/// The `perfregs` binary under test, as a command to add arguments to.
pub fn perfregs() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfregs"))
}

#[allow(unused_imports)] // each test binary uses its part
pub use perfregs_testkit::{run, says};
