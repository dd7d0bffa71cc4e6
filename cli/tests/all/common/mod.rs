//! What the cli's test binaries share: running the `perfregs` binary (in
//! the repository root, with the exit code it must give), a temp file
//! removed on drop.
#![allow(dead_code)] // each test binary uses its part

use std::process::Command;

/// The `perfregs` binary under test, as a command to add arguments to.
pub fn perfregs() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfregs"))
}

#[allow(unused_imports)] // each test binary uses its part
pub use perfregs_testkit::{run, says, TempFile};

/// The repository root (this crate is `cli/`): the tests name files
/// relative to it (`codegen/tests/fixtures/...`), and `check` and `metrics`
/// read its `regdefs/`.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// `perfregs ARGS` in [`ROOT`]: (exit code, stdout, stderr).
pub fn in_root(args: &[&str]) -> (i32, String, String) {
    run(perfregs().args(args).current_dir(ROOT))
}

/// `perfregs ARGS` in [`ROOT`], which must exit with `code`: (stdout,
/// stderr).
#[track_caller]
pub fn exits(code: i32, args: &[&str]) -> (String, String) {
    let (got, out, err) = in_root(args);
    assert_eq!(got, code, "{args:?}: {out}{err}");
    (out, err)
}
