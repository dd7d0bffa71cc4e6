//! Misuse of the HAL must not compile; each case's expected message is
//! checked in beside it (`tests/ui/*.stderr`). The pass case makes trybuild
//! run `cargo build` rather than `cargo check`, so compile-time constant
//! checks (`bits!` literals) are exercised too. After reviewing a change in
//! the messages, regenerate with `TRYBUILD=overwrite cargo test -p perfregs-misuse`.

#[test]
fn misuse_does_not_compile() {
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
