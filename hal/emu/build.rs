//! Resolves `bindings.yaml` (the registers and fields each emulated unit
//! uses) against the descriptions the HAL is built from and writes the
//! constants to `OUT_DIR/bindings.rs` (`perfregs_codegen::build`). A renamed
//! or missing register fails here, with the line of `bindings.yaml` that
//! names it.
//!
//! Also writes the per-field conformance checks of `tests/conformance.rs`
//! (`perfregs_codegen::conformance`): `OUT_DIR/conformance.rs` for every
//! described register, and for the registers of
//! `tests/fixtures/conformance.yaml` (access types the shipped descriptions
//! lack) their code, as `regdefs!` would emit it (against the same
//! descriptions), in
//! `OUT_DIR/conformance_fixture_regs.rs` and their checks in
//! `OUT_DIR/conformance_fixture.rs`.
use perfregs_codegen::build::{BuildError, Config};
use perfregs_codegen::conformance;

fn main() {
    if let Err(e) = run() {
        e.exit();
    }
}

fn run() -> Result<(), BuildError> {
    let cfg = Config::new(perfregs_regdefs::dir());
    let built = cfg.bindings("bindings.yaml")?;
    // The shipped registers' checks in two halves, one per test binary
    // (tests/conformance.rs, tests/conformance_part1.rs): each binary is
    // large, and two compile side by side.
    for (k, file) in ["conformance.rs", "conformance_part1.rs"]
        .iter()
        .enumerate()
    {
        let opts = conformance::Options::descriptions().part(k, 2);
        built.write(file, &conformance::generate_with(&built.ir, &opts))?;
    }
    let fixture = cfg.user_descriptions("tests/fixtures/conformance.yaml")?;
    built.write(
        "conformance_fixture_regs.rs",
        &conformance::registers_module(&fixture, "hal"),
    )?;
    let options = conformance::Options::extra("crate::fixture", "fixture_checks");
    built.write(
        "conformance_fixture.rs",
        &conformance::generate_with(&fixture, &options),
    )?;
    Ok(())
}
