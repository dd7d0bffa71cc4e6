//! The discovery uAPI (`discovery::uapi`) against the C header: compiles
//! `abi_query.c` against libdrm's `i915_drm.h` (Debian's `libdrm-dev`) with
//! `cc` (or `$CC`), runs it, and compares every size, field offset, ioctl
//! number and parameter with the Rust definitions. Without a compiler or
//! the header it prints why and skips, unless `PERFREGS_REQUIRE_ABI=1`
//! (as in CI), which makes that a failure. `PERFREGS_DRM_INCLUDE` names
//! another folder holding `i915_drm.h` (default `/usr/include/libdrm`).
#![cfg(target_os = "linux")]

use core::mem::{offset_of, size_of};
use perfregs_linux::discovery::uapi::{self, *};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Where `i915_drm.h` is looked for (`$PERFREGS_DRM_INCLUDE` overrides).
fn header_dir() -> String {
    std::env::var("PERFREGS_DRM_INCLUDE").unwrap_or_else(|_| "/usr/include/libdrm".into())
}

fn required() -> bool {
    std::env::var("PERFREGS_REQUIRE_ABI").is_ok_and(|v| v == "1")
}

/// Skip with a reason, or fail when the ABI check is required.
fn skip(why: &str) {
    if required() {
        panic!("PERFREGS_REQUIRE_ABI=1 but the ABI test cannot run: {why}");
    }
    println!("SKIPPED abi_query: {why} (set PERFREGS_REQUIRE_ABI=1 to make this a failure)");
}

/// The C program's `name value` lines, or why there are none.
fn c_values() -> Result<BTreeMap<String, u64>, String> {
    let dir = header_dir();
    let header = Path::new(&dir).join("i915_drm.h");
    if !header.exists() {
        return Err(format!(
            "{} is missing (install libdrm-dev)",
            header.display()
        ));
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/abi_query.c");
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi_query");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .arg(format!("-I{dir}"))
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .map_err(|e| format!("cannot run `{cc}`: {e}"))?;
    if !out.status.success() {
        // The header is there: a compile error is a real failure.
        panic!(
            "`{cc}` failed on {}:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let run = Command::new(&exe)
        .output()
        .expect("run the compiled program");
    assert!(run.status.success(), "{} failed", exe.display());
    let text = String::from_utf8(run.stdout).expect("ASCII output");
    Ok(text
        .lines()
        .map(|l| {
            let (name, v) = l.rsplit_once(' ').expect("`name value`");
            (name.to_string(), v.parse().expect("a number"))
        })
        .collect())
}

#[test]
fn discovery_uapi_matches_i915_drm_h() {
    let c = match c_values() {
        Ok(c) => c,
        Err(why) => return skip(&why),
    };
    type G = DrmI915Getparam;
    type I = DrmI915QueryItem;
    type Q = DrmI915Query;
    type T = DrmI915QueryTopologyInfo;
    let rust: Vec<(&str, u64)> = vec![
        ("sizeof(drm_i915_getparam)", size_of::<G>() as u64),
        (
            "offsetof(drm_i915_getparam, param)",
            offset_of!(G, param) as u64,
        ),
        (
            "offsetof(drm_i915_getparam, value)",
            offset_of!(G, value) as u64,
        ),
        ("sizeof(drm_i915_query_item)", size_of::<I>() as u64),
        (
            "offsetof(drm_i915_query_item, query_id)",
            offset_of!(I, query_id) as u64,
        ),
        (
            "offsetof(drm_i915_query_item, length)",
            offset_of!(I, length) as u64,
        ),
        (
            "offsetof(drm_i915_query_item, flags)",
            offset_of!(I, flags) as u64,
        ),
        (
            "offsetof(drm_i915_query_item, data_ptr)",
            offset_of!(I, data_ptr) as u64,
        ),
        ("sizeof(drm_i915_query)", size_of::<Q>() as u64),
        (
            "offsetof(drm_i915_query, num_items)",
            offset_of!(Q, num_items) as u64,
        ),
        (
            "offsetof(drm_i915_query, flags)",
            offset_of!(Q, flags) as u64,
        ),
        (
            "offsetof(drm_i915_query, items_ptr)",
            offset_of!(Q, items_ptr) as u64,
        ),
        // The C struct ends in `__u8 data[]`: its size is the header's.
        (
            "sizeof(drm_i915_query_topology_info)",
            size_of::<T>() as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, flags)",
            offset_of!(T, flags) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, max_slices)",
            offset_of!(T, max_slices) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, max_subslices)",
            offset_of!(T, max_subslices) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, max_eus_per_subslice)",
            offset_of!(T, max_eus_per_subslice) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, subslice_offset)",
            offset_of!(T, subslice_offset) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, subslice_stride)",
            offset_of!(T, subslice_stride) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, eu_offset)",
            offset_of!(T, eu_offset) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, eu_stride)",
            offset_of!(T, eu_stride) as u64,
        ),
        (
            "offsetof(drm_i915_query_topology_info, data)",
            TOPOLOGY_HEADER_SIZE as u64,
        ),
        ("DRM_IOCTL_BASE", u64::from(DRM_IOCTL_BASE)),
        ("DRM_COMMAND_BASE", u64::from(DRM_COMMAND_BASE)),
        ("DRM_I915_GETPARAM", u64::from(DRM_I915_GETPARAM)),
        ("DRM_I915_QUERY", u64::from(DRM_I915_QUERY)),
        ("DRM_IOCTL_I915_GETPARAM", uapi::ioctl::I915_GETPARAM as u64),
        ("DRM_IOCTL_I915_QUERY", uapi::ioctl::I915_QUERY as u64),
        ("I915_PARAM_CHIPSET_ID", I915_PARAM_CHIPSET_ID as u64),
        ("I915_PARAM_REVISION", I915_PARAM_REVISION as u64),
        (
            "I915_PARAM_CS_TIMESTAMP_FREQUENCY",
            I915_PARAM_CS_TIMESTAMP_FREQUENCY as u64,
        ),
        ("I915_PARAM_PERF_REVISION", I915_PARAM_PERF_REVISION as u64),
        ("DRM_I915_QUERY_TOPOLOGY_INFO", DRM_I915_QUERY_TOPOLOGY_INFO),
    ];
    let mut wrong = Vec::new();
    for (name, ours) in &rust {
        match c.get(*name) {
            Some(theirs) if theirs == ours => {}
            Some(theirs) => wrong.push(format!("{name}: C {theirs:#x}, Rust {ours:#x}")),
            None => wrong.push(format!("{name}: not printed by abi_query.c")),
        }
    }
    assert_eq!(c.len(), rust.len(), "every C value is compared");
    assert!(wrong.is_empty(), "ABI mismatches:\n{}", wrong.join("\n"));
    println!(
        "abi_query: {} values agree with {}/i915_drm.h",
        rust.len(),
        header_dir()
    );
}
