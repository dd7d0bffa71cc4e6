//! Resolves `bindings.yaml` (the registers and fields each emulated unit
//! uses) against the descriptions of `perfregs-regdefs` and writes the
//! constants to `OUT_DIR/bindings.rs`. A renamed or missing register fails
//! here, with the line of `bindings.yaml` that names it.
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
    let out =
        Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("bindings.rs");
    if let Err(e) = std::fs::write(&out, code) {
        eprintln!("perfregs-emu: cannot write {}: {e}", out.display());
        std::process::exit(1);
    }
}
