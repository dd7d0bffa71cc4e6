//! Whether libdrm's `i915_drm.h` is there, for the ABI test
//! (`tests/all/abi.rs`): without it, and unless `PERFREGS_REQUIRE_ABI=1` asks
//! for the check, the tests that compile against it are built `#[ignore]`d
//! (cfg `perfregs_no_i915_header`), so the harness lists them as ignored,
//! with the reason, instead of passed.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(perfregs_no_i915_header)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PERFREGS_DRM_INCLUDE");
    println!("cargo::rerun-if-env-changed=PERFREGS_REQUIRE_ABI");
    // The folder the test reads (`header_dir` there).
    let dir =
        std::env::var("PERFREGS_DRM_INCLUDE").unwrap_or_else(|_| "/usr/include/libdrm".into());
    let header = Path::new(&dir).join("i915_drm.h");
    // Run again when the header comes or goes: watch it, or the nearest
    // folder above it that exists (a path that does not exist would make
    // cargo run this script, and rebuild the crate, every time).
    if let Some(watch) = header.ancestors().find(|p| p.exists()) {
        println!("cargo::rerun-if-changed={}", watch.display());
    }
    let required = std::env::var("PERFREGS_REQUIRE_ABI").as_deref() == Ok("1");
    if !header.is_file() && !required {
        println!("cargo::rustc-cfg=perfregs_no_i915_header");
    }
}
