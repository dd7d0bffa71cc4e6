//! Resolves `bindings.yaml` (the registers and fields each emulated unit
//! uses) against the descriptions of `perfregs-regdefs` and writes the
//! constants to `OUT_DIR/bindings.rs`. A renamed or missing register fails
//! here, with the line of `bindings.yaml` that names it.
//!
//! Also writes the per-field conformance checks of `tests/conformance.rs`
//! (`perfregs_codegen::conformance`): `OUT_DIR/conformance.rs` for every
//! described register, and for the registers of
//! `tests/fixtures/conformance.yaml` (access types the shipped descriptions
//! lack) their code, as `regdefs!` would emit it, in
//! `OUT_DIR/conformance_fixture_regs.rs` and their checks in
//! `OUT_DIR/conformance_fixture.rs`.
use std::path::{Path, PathBuf};

fn fail(diags: &[perfregs_codegen::Error], what: &str) -> ! {
    for d in diags {
        println!("cargo:warning={d}");
        eprintln!("{d}");
    }
    eprintln!("perfregs-emu: {} error(s) in {what}", diags.len());
    std::process::exit(1);
}

fn main() {
    println!("cargo:rerun-if-env-changed=PERFREGS_REGDEFS");
    let dir = match std::env::var_os("PERFREGS_REGDEFS") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(perfregs_regdefs::dir()),
    };
    println!("cargo:rerun-if-changed={}", dir.display());
    if let Ok((files, ())) = perfregs_codegen::input_files(&dir) {
        for f in files {
            println!("cargo:rerun-if-changed={}", f.display());
        }
    }
    let spec_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bindings.yaml");
    println!("cargo:rerun-if-changed={}", spec_path.display());
    let ir = perfregs_codegen::compile_path(&dir)
        .unwrap_or_else(|d| fail(&d, "the register descriptions"));
    let spec = std::fs::read_to_string(&spec_path).unwrap_or_else(|e| {
        eprintln!("perfregs-emu: cannot read {}: {e}", spec_path.display());
        std::process::exit(1);
    });
    let code = perfregs_codegen::bindings::generate(&ir, "bindings.yaml", &spec, "hal")
        .unwrap_or_else(|d| fail(&d, "bindings.yaml"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write(&out_dir.join("bindings.rs"), &code);

    // The conformance checks (tests/conformance.rs).
    use perfregs_codegen::conformance;
    write(&out_dir.join("conformance.rs"), &conformance::generate(&ir));
    let fixture_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance.yaml");
    println!("cargo:rerun-if-changed={}", fixture_path.display());
    let text = std::fs::read_to_string(&fixture_path).unwrap_or_else(|e| {
        eprintln!("perfregs-emu: cannot read {}: {e}", fixture_path.display());
        std::process::exit(1);
    });
    let fixture =
        perfregs_codegen::compile_user_sources(&[("tests/fixtures/conformance.yaml".into(), text)])
            .unwrap_or_else(|d| fail(&d, "tests/fixtures/conformance.yaml"));
    write(
        &out_dir.join("conformance_fixture_regs.rs"),
        &conformance::registers_module(&fixture, "hal"),
    );
    write(
        &out_dir.join("conformance_fixture.rs"),
        &conformance::generate_with(
            &fixture,
            &conformance::Options::extra("crate::fixture", "fixture_checks"),
        ),
    );
}

fn write(path: &Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("perfregs-emu: cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
}
