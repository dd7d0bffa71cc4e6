//! Per-field conformance of the typed HAL and the emulator, generated from
//! the descriptions (`perfregs_codegen::conformance`, run by `build.rs`).
//!
//! For every register (array elements included) and every field of every
//! project, patterns are written through the typed HAL (generic `set` /
//! `clear` / `set_ones` with the field constants, `write`, `modify`,
//! `write_masked`, the steering API) into an [`Emulator`], and both the
//! stored value ([`Emulator::peek`]) and the typed read-back are
//! checked against what the IR says the field's access type does. The
//! expected values are computed by the generator; this file is the harness
//! the generated code drives.
//!
//! Set-up: the OA unit is off (`unit_mut::<OaUnit>().disable()`; the CPU counter
//! models are off after construction), so only the register file's rules
//! act; wakeable domains are held by real force-wake guards (the emulator
//! acks after its wake latency, through the polls' `pause`); dual subslice
//! 1 and L3 bank 2 are fused off, so multicast writes must skip them. Each
//! step starts from a hardware-side poke of a background value, and every
//! register is restored (poked back) after its checks, so force-wake
//! request/ack and steering registers can be checked like the others.
//!
//! The shipped registers' checks are split in two halves by the build
//! script, this binary and `conformance_part1.rs`, which compile side by
//! side; this one also runs the fixture's.
//!
//! Two generated modules: `descriptions` (the shipped registers) and
//! `fixture_checks` (the registers of `tests/fixtures/conformance.yaml`,
//! with the access types the shipped descriptions lack: RW1S, RC, PBC,
//! RW-DB, and side-effect bits in masked, 64-bit and replicated registers).
//! Run with `--nocapture` to see the counts per project.

include!("support/conformance_harness.rs");

/// The registers of `tests/fixtures/conformance.yaml`, as `regdefs!` emits them.
#[allow(non_camel_case_types, dead_code, unused_imports, clippy::all)]
mod fixture {
    include!(concat!(env!("OUT_DIR"), "/conformance_fixture_regs.rs"));
}

// The first half of the shipped projects (the build script splits them).
include!(concat!(env!("OUT_DIR"), "/conformance.rs"));
include!(concat!(env!("OUT_DIR"), "/conformance_fixture.rs"));
