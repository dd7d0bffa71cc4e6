//! The emulator's integration tests, as one test binary: one build and link
//! instead of one per file, and the files' tests run side by side (`cargo
//! test -p perfregs-emu --test all emu_oa::` runs one file's). The
//! generated per-field checks stay two binaries of their own
//! (`conformance.rs`, `conformance_part1.rs`), which compile side by side.

#[path = "../support/mod.rs"]
mod support;

mod bindings_spec;
mod emu_cpu;
mod emu_oa;
mod emu_tgl_live;
mod emulator;
mod emulator_props;
mod mi_rpc;
mod opaque;
mod start_periodic;
mod steering_xe;
mod test_oa_signals;
mod xe_units;
