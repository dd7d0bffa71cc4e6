//! The kernel ABI of this crate against the kernel uAPI header: C programs
//! compiled against Debian libdrm-dev's `i915_drm.h` print sizes, offsets,
//! ioctl numbers and enum values; every one is compared with the Rust
//! definitions (and every Rust value listed here must be printed). Two
//! programs: `abi/i915.c` for the perf ABI (`uapi::i915`, `record`),
//! `abi/query.c` for the discovery uAPI (`uapi::i915`).
//!
//! Without the header the tests are built `#[ignore]`d (the build script
//! sets cfg `perfregs_no_i915_header`), so the harness lists them as
//! ignored with the reason; run anyway (`--include-ignored`), or without a
//! C compiler (`cc`, or `$CC`), a test prints a `SKIPPED:` line to stderr
//! (past the harness's capture) and passes. With `PERFREGS_REQUIRE_ABI=1`
//! (CI) nothing is ignored and a missing header or compiler fails.
//! `PERFREGS_DRM_INCLUDE` names another folder holding `i915_drm.h`
//! (default `/usr/include/libdrm`). The header of Debian bookworm (libdrm
//! 2.4.114) has no engine class/instance properties (9, 10) and no formats
//! above 10 (OAR, A24u40, MTL OAM): those are checked against the facts
//! page in the crate's unit tests only.
#![cfg(target_os = "linux")]

use std::collections::BTreeMap;
use std::io::Write as _;
use std::mem::{offset_of, size_of};
use std::path::Path;
use std::process::Command;

use perfregs_linux::record::{self, RecordHeader};
use perfregs_linux::uapi::i915 as q;
use perfregs_linux::uapi::i915::{
    self as u, prop, DrmI915PerfOaConfig as Cfg, DrmI915PerfOpenParam as Open,
};

/// The values a C program prints, as the Rust side defines them.
type Values = BTreeMap<String, u64>;

/// `sizeof STRUCT` and `offsetof STRUCT.FIELD` of each field, named as the C
/// programs print them, into `$v`.
macro_rules! layout {
    ($v:ident, $c:literal: $t:ty { $($f:ident),* $(,)? }) => {
        $v.insert(concat!("sizeof ", $c).into(), size_of::<$t>() as u64);
        $($v.insert(
            concat!("offsetof ", $c, ".", stringify!($f)).into(),
            offset_of!($t, $f) as u64,
        );)*
    };
}

/// Constants by their C names, into `$v`.
macro_rules! values {
    ($v:ident; $($name:literal => $value:expr),* $(,)?) => {
        $($v.insert($name.into(), $value as u64);)*
    };
}

/// Every value `abi/i915.c` prints, as the Rust side defines it.
fn perf_values() -> Values {
    let fmt = |name: &str| u64::from(u::oa_format_by_name(name).map_or(0, |f| f.id));
    let mut v = Values::new();
    layout!(v, "drm_i915_perf_open_param": Open { flags, num_properties, properties_ptr });
    layout!(v, "drm_i915_perf_oa_config": Cfg {
        uuid, n_mux_regs, n_boolean_regs, n_flex_regs,
        mux_regs_ptr, boolean_regs_ptr, flex_regs_ptr,
    });
    layout!(v, "drm_i915_perf_record_header": RecordHeader { pad, size });
    values!(v;
        "sizeof drm_i915_perf_oa_config.uuid" => perfregs_linux::uapi::UUID_LEN,
        "offsetof drm_i915_perf_record_header.type" => offset_of!(RecordHeader, kind),
        "DRM_COMMAND_BASE" => u::DRM_COMMAND_BASE,
        "DRM_IOCTL_BASE" => u::DRM_IOCTL_BASE,
        "DRM_I915_PERF_OPEN" => u::DRM_I915_PERF_OPEN,
        "DRM_I915_PERF_ADD_CONFIG" => u::DRM_I915_PERF_ADD_CONFIG,
        "DRM_I915_PERF_REMOVE_CONFIG" => u::DRM_I915_PERF_REMOVE_CONFIG,
        "DRM_IOCTL_I915_PERF_OPEN" => u::ioctl::PERF_OPEN,
        "DRM_IOCTL_I915_PERF_ADD_CONFIG" => u::ioctl::PERF_ADD_CONFIG,
        "DRM_IOCTL_I915_PERF_REMOVE_CONFIG" => u::ioctl::PERF_REMOVE_CONFIG,
        "I915_PERF_IOCTL_ENABLE" => u::ioctl::ENABLE,
        "I915_PERF_IOCTL_DISABLE" => u::ioctl::DISABLE,
        "I915_PERF_IOCTL_CONFIG" => u::ioctl::CONFIG,
        "I915_PERF_FLAG_FD_CLOEXEC" => u::I915_PERF_FLAG_FD_CLOEXEC,
        "I915_PERF_FLAG_FD_NONBLOCK" => u::I915_PERF_FLAG_FD_NONBLOCK,
        "I915_PERF_FLAG_DISABLED" => u::I915_PERF_FLAG_DISABLED,
        "I915_PARAM_PERF_REVISION" => u::I915_PARAM_PERF_REVISION,
        "DRM_I915_PERF_PROP_CTX_HANDLE" => prop::CTX_HANDLE,
        "DRM_I915_PERF_PROP_SAMPLE_OA" => prop::SAMPLE_OA,
        "DRM_I915_PERF_PROP_OA_METRICS_SET" => prop::OA_METRICS_SET,
        "DRM_I915_PERF_PROP_OA_FORMAT" => prop::OA_FORMAT,
        "DRM_I915_PERF_PROP_OA_EXPONENT" => prop::OA_EXPONENT,
        "DRM_I915_PERF_PROP_HOLD_PREEMPTION" => prop::HOLD_PREEMPTION,
        "DRM_I915_PERF_PROP_GLOBAL_SSEU" => prop::GLOBAL_SSEU,
        "DRM_I915_PERF_PROP_POLL_OA_PERIOD" => prop::POLL_OA_PERIOD,
        "DRM_I915_PERF_RECORD_SAMPLE" => record::RECORD_SAMPLE,
        "DRM_I915_PERF_RECORD_OA_REPORT_LOST" => record::RECORD_OA_REPORT_LOST,
        "DRM_I915_PERF_RECORD_OA_BUFFER_LOST" => record::RECORD_OA_BUFFER_LOST,
    );
    for name in [
        "A13",
        "A29",
        "A13_B8_C8",
        "B4_C8",
        "A45_B8_C8",
        "B4_C8_A16",
        "C4_B8",
        "A12",
        "A12_B8_C8",
        "A32u40_A4u32_B8_C8",
    ] {
        v.insert(format!("I915_OA_FORMAT_{name}"), fmt(name));
    }
    v
}

/// Every value `abi/query.c` prints, as the Rust side defines it.
fn query_values() -> Values {
    let mut v = Values::new();
    layout!(v, "drm_i915_getparam": q::DrmI915Getparam { param, value });
    layout!(v, "drm_i915_query_item": q::DrmI915QueryItem { query_id, length, flags, data_ptr });
    layout!(v, "drm_i915_query": q::DrmI915Query { num_items, flags, items_ptr });
    // The C struct ends in `__u8 data[]`: its size is the header's.
    layout!(v, "drm_i915_query_topology_info": q::DrmI915QueryTopologyInfo {
        flags, max_slices, max_subslices, max_eus_per_subslice,
        subslice_offset, subslice_stride, eu_offset, eu_stride,
    });
    values!(v;
        "offsetof drm_i915_query_topology_info.data" => q::TOPOLOGY_HEADER_SIZE,
        "DRM_IOCTL_BASE" => q::DRM_IOCTL_BASE,
        "DRM_COMMAND_BASE" => q::DRM_COMMAND_BASE,
        "DRM_I915_GETPARAM" => q::DRM_I915_GETPARAM,
        "DRM_I915_QUERY" => q::DRM_I915_QUERY,
        "DRM_IOCTL_I915_GETPARAM" => q::ioctl::GETPARAM,
        "DRM_IOCTL_I915_QUERY" => q::ioctl::QUERY,
        "I915_PARAM_CHIPSET_ID" => q::I915_PARAM_CHIPSET_ID,
        "I915_PARAM_REVISION" => q::I915_PARAM_REVISION,
        "I915_PARAM_CS_TIMESTAMP_FREQUENCY" => q::I915_PARAM_CS_TIMESTAMP_FREQUENCY,
        "I915_PARAM_PERF_REVISION" => q::I915_PARAM_PERF_REVISION,
        "DRM_I915_QUERY_TOPOLOGY_INFO" => q::DRM_I915_QUERY_TOPOLOGY_INFO,
    );
    v
}

/// Where `i915_drm.h` is looked for (`$PERFREGS_DRM_INCLUDE` overrides).
fn header_dir() -> String {
    std::env::var("PERFREGS_DRM_INCLUDE").unwrap_or_else(|_| "/usr/include/libdrm".into())
}

/// Skip with a reason, or fail when CI requires the check.
fn skip(program: &str, why: &str) {
    if std::env::var("PERFREGS_REQUIRE_ABI").as_deref() == Ok("1") {
        panic!("ABI test {program} required (PERFREGS_REQUIRE_ABI=1) but {why}");
    }
    // Straight to stderr: the harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED: ABI test {program}: {why} (install libdrm-dev and a C compiler, \
         set PERFREGS_REQUIRE_ABI=1 to make this a failure)"
    );
}

/// The `name value` lines `tests/abi/{program}.c` prints, compiled against
/// the header, or why it cannot run. A compile error with the header there
/// is a failure, as is a name printed twice.
fn c_values(program: &str) -> Result<Values, String> {
    let dir = header_dir();
    let header = Path::new(&dir).join("i915_drm.h");
    if !header.exists() {
        return Err(format!("{} is missing", header.display()));
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/abi/{program}.c"));
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("perfregs_abi_{program}"));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .arg(format!("-I{dir}"))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("`{cc}` could not run: {e}"))?;
    assert!(
        out.status.success(),
        "`{cc}` failed on {}:\n{}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run the ABI program");
    assert!(run.status.success(), "{} failed", exe.display());
    let text = String::from_utf8(run.stdout).expect("ASCII output");
    let mut c = Values::new();
    for line in text.lines() {
        let (k, v) = line.rsplit_once(' ').expect("name value");
        let v: u64 = v.parse().expect("a number");
        assert!(c.insert(k.to_string(), v).is_none(), "{k} printed twice");
    }
    Ok(c)
}

/// Compare what `tests/abi/{program}.c` prints with `rust`: every value
/// equal, none missing on either side.
fn check(program: &str, rust: &Values) {
    let c = match c_values(program) {
        Ok(c) => c,
        Err(why) => return skip(program, &why),
    };
    let mut bad = Vec::new();
    for (k, v) in rust {
        match c.get(k) {
            Some(cv) if cv == v => {}
            Some(cv) => bad.push(format!("{k}: header {cv:#x}, Rust {v:#x}")),
            None => bad.push(format!("{k}: not printed by {program}.c")),
        }
    }
    for k in c.keys().filter(|k| !rust.contains_key(*k)) {
        bad.push(format!("{k}: printed but not compared"));
    }
    assert!(bad.is_empty(), "ABI mismatches:\n{}", bad.join("\n"));
    println!(
        "{program}: {} values match {}/i915_drm.h",
        rust.len(),
        header_dir()
    );
}

/// Test `$name`: the values `$values` against what `$program.c` prints
/// from the header ([`check`]); ignored where `i915_drm.h` is missing.
macro_rules! header_test {
    ($name:ident, $program:literal, $values:expr) => {
        #[test]
        #[cfg_attr(
            perfregs_no_i915_header,
            ignore = "SKIPPED: i915_drm.h is missing (install libdrm-dev)"
        )]
        fn $name() {
            check($program, &$values);
        }
    };
}

header_test!(i915_abi_matches_the_kernel_header, "i915", perf_values());
header_test!(discovery_uapi_matches_i915_drm_h, "query", query_values());
