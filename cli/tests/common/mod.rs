//! What the cli's test binaries share: running the `perfregs` binary.
#![allow(dead_code)] // each test binary uses its part

use std::process::Command;

/// The `perfregs` binary under test, as a command to add arguments to.
pub fn perfregs() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfregs"))
}

/// Run `cmd`: its exit code (-1 when killed by a signal), stdout and stderr.
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("run perfregs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Assert that `text` contains `part`, saying `text` when it does not.
#[track_caller]
pub fn says(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}
