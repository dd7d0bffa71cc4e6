//! Regenerates the register modules from the descriptions of the
//! `perfregs-regdefs` crate (`regdefs/` in the repository; or
//! `$PERFREGS_REGDEFS`) into `OUT_DIR`.
use std::path::Path;

fn main() {
    // PERFREGS_REGDEFS points the HAL at another description folder.
    println!("cargo:rerun-if-env-changed=PERFREGS_REGDEFS");
    let dir = match std::env::var_os("PERFREGS_REGDEFS") {
        Some(d) => std::path::PathBuf::from(d),
        // The folder itself, not `perfregs_regdefs::FILES`: a file added to the
        // folder is seen without editing the crate's list.
        None => std::path::PathBuf::from(perfregs_regdefs::dir()),
    };
    // The folder (a new or removed file) and each file (an edit).
    println!("cargo:rerun-if-changed={}", dir.display());
    if let Ok((files, ())) = perfregs_codegen::input_files(&dir) {
        for f in files {
            println!("cargo:rerun-if-changed={}", f.display());
        }
    }
    let ir = match perfregs_codegen::compile_path(&dir) {
        Ok(ir) => ir,
        Err(diags) => {
            for d in &diags {
                println!("cargo:warning={d}");
                eprintln!("{d}");
            }
            eprintln!(
                "perfregs: {} error(s) in the register descriptions",
                diags.len()
            );
            std::process::exit(1);
        }
    };
    // Each project module is behind the cargo feature of its name: a project
    // without a declared feature would silently never compile, so say so.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let features = std::fs::read_to_string(&manifest).unwrap_or_default();
    let missing: Vec<&str> = ir
        .catalogue
        .projects
        .iter()
        .map(|p| p.name.as_str())
        .filter(|n| {
            !features
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{n} = ")))
        })
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "perfregs: project(s) {} have no cargo feature in {}: add `name = []` under [features] (and to `default`)",
            missing.join(", "),
            manifest.display()
        );
        std::process::exit(1);
    }
    let code = perfregs_codegen::generate(&ir, &perfregs_codegen::EmitOptions::for_hal());
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("perfregs_generated.rs");
    // Only rewrite on change, so an unchanged description does not rebuild dependents.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        if let Err(e) = std::fs::write(&out, code) {
            eprintln!("perfregs: cannot write {}: {e}", out.display());
            std::process::exit(1);
        }
    }
}
