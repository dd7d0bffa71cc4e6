//! Per-field conformance of the typed HAL and the emulator: the second half
//! of the shipped projects (the first, and the harness's description, are in
//! `conformance.rs`; the build script splits the projects by register count
//! so that the two binaries compile side by side).

include!("support/conformance_harness.rs");

include!(concat!(env!("OUT_DIR"), "/conformance_part1.rs"));
