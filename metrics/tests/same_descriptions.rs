//! The metric sets and the HAL are generated from one description set: the
//! fingerprint each build script embeds (`perfregs_codegen::build`) is the
//! same, and it is the fingerprint of the folder the builds read.

#[test]
fn metric_sets_and_hal_share_their_descriptions() {
    assert_eq!(perfregs_metrics::DESCRIPTIONS_HASH, hal::DESCRIPTIONS_HASH);
    let dir = perfregs_codegen::build::descriptions_dir();
    let now = perfregs_codegen::build::fingerprint(&dir).expect("the description folder");
    assert_eq!(
        hal::DESCRIPTIONS_HASH,
        now,
        "the HAL was built from other descriptions than {}",
        dir.display()
    );
}
