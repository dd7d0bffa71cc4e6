//! The metric sets and the HAL are generated from one description set: the
//! fingerprint each build script embeds (`perfregs_codegen::build`) is the
//! same, and it is the fingerprint of the folder the builds read.

#[test]
fn metric_sets_and_hal_share_their_descriptions() {
    assert_eq!(perfregs_metrics::DESCRIPTIONS_HASH, hal::DESCRIPTIONS_HASH);
    let dir = perfregs_codegen::build::Config::new(perfregs_regdefs::dir()).descriptions_dir();
    let now = perfregs_codegen::build::fingerprint(&dir).expect("the description folder");
    assert_eq!(
        hal::DESCRIPTIONS_HASH,
        now,
        "the HAL was built from other descriptions than {}",
        dir.display()
    );
}

/// One access-kind type on both sides of the build/run line: the kind the
/// generator reads from the descriptions (`perfregs_codegen::access::AccessKind`)
/// is the kind the HAL's run-time tables hold (`hal::meta::AccessKind`), so
/// a value passes from one to the other unconverted.
#[test]
fn generator_and_hal_share_the_access_kind() {
    for a in perfregs_codegen::access::AccessKind::ALL {
        let run: hal::meta::AccessKind = a;
        assert_eq!(hal::meta::AccessKind::parse(run.as_str()), Some(a));
    }
    // Every field of the HAL's tables carries a kind the generator spells back.
    let mut fields = 0;
    for p in hal::PROJECTS {
        for r in p.registers {
            for f in r.fields {
                assert_eq!(
                    perfregs_codegen::access::AccessKind::parse(f.access.as_str()),
                    Some(f.access),
                    "{}.{}",
                    r.name,
                    f.name
                );
                fields += 1;
            }
        }
    }
    assert!(fields > 500, "only {fields} fields in the HAL's tables");
}

#[test]
fn the_hals_projects_are_the_catalogue_in_its_order() {
    let names: Vec<&str> = hal::PROJECTS.iter().map(|p| p.name).collect();
    let ir = perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
        .expect("shipped descriptions");
    let catalogue: Vec<&str> = ir.catalogue.tags().collect();
    assert_eq!(names, catalogue);
    assert!(names.len() >= 20, "{names:?}");
}
