//! Misuse of the HAL must not compile; each case's expected message is
//! checked in beside it (`tests/ui/*.stderr`). The pass case makes trybuild
//! run `cargo build` rather than `cargo check`, so compile-time constant
//! checks (`bits!` literals) are exercised too. After reviewing a change in
//! the messages, regenerate with `TRYBUILD=overwrite cargo test -p perfregs-misuse`.
//! The cases are built with the projects they name only (hal/misuse/Cargo.toml).

/// The projects the cases name (a word that is one of the HAL's project
/// features), and the ones this crate's manifest builds them with: the same.
fn check_the_projects_built() {
    let read = |p: &str| {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_string() + p)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    let list = |text: &str, key: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("no `{key}` line"));
        let inner = &line[line.rfind('[').expect("a list") + 1..line.rfind(']').expect("a list")];
        inner
            .split(',')
            .map(|w| w.trim().trim_matches('"').to_string())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let projects = list(&read("../Cargo.toml"), "default =");
    let built = list(&read("Cargo.toml"), "perfregs-hal =");
    let mut named = std::collections::BTreeSet::new();
    let dirs = ["tests/ui", "tests/ui/pass"];
    for dir in dirs {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/").to_string() + dir;
        for e in std::fs::read_dir(&path).expect("the cases") {
            let p = e.expect("a case").path();
            if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("a case");
                for w in text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
                    if projects.iter().any(|x| x == w) {
                        named.insert(w.to_string());
                    }
                }
            }
        }
    }
    let built: std::collections::BTreeSet<String> = built.into_iter().collect();
    assert_eq!(
        named, built,
        "the projects the cases name, and perfregs-hal's features in hal/misuse/Cargo.toml"
    );
}

#[test]
fn misuse_does_not_compile() {
    check_the_projects_built();
    // trybuild builds the cases' dependencies once, in a target dir of its
    // own, where nothing reruns the generator: compiled unoptimized, the
    // generator builds in a fifth of the time, more than its slower runs
    // cost (the workspace optimizes build scripts for reruns after an
    // edit), and no test reads the cases' debug info. 124 s -> 78 s for
    // this test from a cold trybuild dir. This is the only test of this
    // binary, so no other thread reads the environment while it changes.
    std::env::set_var("CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL", "0");
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/*.rs");
}
