//! Misuse of the HAL must not compile; each case's expected message is
//! checked in beside it (`tests/ui/*.stderr`). The pass case makes trybuild
//! run `cargo build` rather than `cargo check`, so compile-time constant
//! checks (`bits!` literals) are exercised too. After reviewing a change in
//! the messages, regenerate with `TRYBUILD=overwrite cargo test -p perfregs-misuse`.

#[test]
fn misuse_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/*.rs");
}
