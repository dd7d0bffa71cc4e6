//! Stores the built-in descriptions parsed (`BuiltIn::store`) in
//! `OUT_DIR/built_in.parsed`: the macro reads them back instead of running
//! the YAML parser, which, unoptimized as cargo builds a proc-macro, took
//! about 120 ms of every build of a user's crate.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let path = std::path::Path::new(&out).join("built_in.parsed");
    // A file that does not parse is left to the macro, which parses the
    // texts and reports it at its use; the store is then empty (not used).
    let bytes = match perfregs_codegen::BuiltIn::store(perfregs_regdefs::FILES) {
        Ok(bytes) => bytes,
        Err(diags) => {
            for d in diags {
                println!("cargo:warning={d}");
            }
            Vec::new()
        }
    };
    if let Err(e) = std::fs::write(&path, bytes) {
        panic!("cannot write {}: {e}", path.display());
    }
}
