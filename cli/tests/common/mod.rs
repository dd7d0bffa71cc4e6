//! What the cli's test binaries share: running the `perfregs` binary (in
//! the repository root, with the exit code it must give), a temp file
//! removed on drop.
#![allow(dead_code)] // each test binary uses its part

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The `perfregs` binary under test, as a command to add arguments to.
pub fn perfregs() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfregs"))
}

#[allow(unused_imports)] // each test binary uses its part
pub use perfregs_testkit::{run, says};

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

/// A fresh path in the temp folder, unique to this process and call, its
/// file name ending in `name` (`oa-decode.bin`); the file is removed on
/// drop, also when the test fails.
pub struct TempFile(pub PathBuf);

impl TempFile {
    /// The path; no file yet.
    pub fn new(name: &str) -> TempFile {
        static N: AtomicUsize = AtomicUsize::new(0);
        TempFile(std::env::temp_dir().join(format!(
            "perfregs-cli-{}-{}-{name}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        )))
    }

    /// A file holding `bytes`.
    pub fn with(name: &str, bytes: &[u8]) -> TempFile {
        let t = TempFile::new(name);
        std::fs::write(&t.0, bytes).expect("write temp file");
        t
    }

    /// The path as an argument (temp paths are UTF-8 here).
    pub fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }

    /// What the file holds.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.0).expect("the temp file exists")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
