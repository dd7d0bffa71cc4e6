//! Checks the shipped metric sets (`perfregs_regdefs::METRIC_SETS`) against
//! the register descriptions the HAL is built from (`$PERFREGS_REGDEFS`, else
//! those of `perfregs-regdefs`) and writes one module per file into
//! `OUT_DIR`, with `perfregs_codegen::build`. Any diagnostic fails the build.
fn main() {
    if let Err(e) = perfregs_codegen::build::Config::new().metric_sets() {
        e.exit();
    }
}
