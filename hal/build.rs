//! Regenerates the register modules from the descriptions of the
//! `perfregs-regdefs` crate (`regdefs/` in the repository; or
//! `$PERFREGS_REGDEFS`) into `OUT_DIR`, with `perfregs_codegen::build`.
fn main() {
    if let Err(e) = perfregs_codegen::build::Config::new(perfregs_regdefs::dir()).hal() {
        e.exit();
    }
}
