//! Checks the metric sets of the description folder the HAL is built from
//! (`$PERFREGS_REGDEFS`, else that of `perfregs-regdefs`: its
//! `metricsets/*.xml`, with its `metricsets/errata.yaml`) against its
//! register descriptions and writes one module per file into `OUT_DIR`, with
//! `perfregs_codegen::build`. Any diagnostic fails the build.
fn main() {
    if let Err(e) = perfregs_codegen::build::Config::new(perfregs_regdefs::dir()).metric_sets() {
        e.exit();
    }
}
