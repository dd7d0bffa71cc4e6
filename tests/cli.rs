//! The `perfregs` command line: check, decode, list.

use std::process::Command;

fn perfregs(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_perfregs"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run perfregs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_passes_on_shipped_descriptions() {
    let (code, out, err) = perfregs(&["check"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("ok: "), "{out}");
}

#[test]
fn check_fails_with_located_errors() {
    let (code, out, err) = perfregs(&[
        "check",
        "codegen/tests/fixtures/overlap.yaml",
        "codegen/tests/fixtures/access.yaml",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("error[PR104]: codegen/tests/fixtures/overlap.yaml:10:26: CTL.b: bits 4:2 overlap field `a` (7:4) on hsw"), "{err}");
    assert!(
        err.contains("error[PR101]: codegen/tests/fixtures/access.yaml:9:38: CTL.go"),
        "{err}"
    );
    assert!(err.contains("error(s)"), "{err}");
}

#[test]
fn check_reports_missing_paths() {
    let (code, _, err) = perfregs(&["check", "no/such/dir"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("PR001") && err.contains("no/such/dir"),
        "{err}"
    );
}

#[test]
fn decode_prints_one_line_per_field() {
    let (code, out, err) = perfregs(&["decode", "hsw", "OACONTROL", "0xABD"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "OACONTROL (Observation Architecture Control) @ 0x2360 on hsw = 0xabd"
    );
    assert_eq!(lines.len(), 1 + 6, "{out}");
    let field = |name: &str| {
        lines
            .iter()
            .find(|l| l.contains(&format!("] {name} ")))
            .copied()
            .unwrap_or_default()
    };
    assert!(field("timer_period").contains("= 42 (0x2a)"), "{out}");
    assert!(
        field("timer_enable").contains("= 1 (0x1) (enable)"),
        "{out}"
    );
    assert!(
        field("counter_select").contains("= 7 (0x7) (c4_b8)"),
        "{out}"
    );
    assert!(field("counter_enable").contains("= 1 (0x1)"), "{out}");
}

#[test]
fn decode_uses_the_projects_layout() {
    // Bit 0 of OASTATUS2 is the RO memory select on HSW; IVB's 4:1 are MBZ.
    let (_, hsw, _) = perfregs(&["decode", "hsw", "oastatus2", "0x1000001"]);
    assert!(
        hsw.contains("memory_select") && hsw.contains("(ggtt)  RO"),
        "{hsw}"
    );
    let (_, ivb, _) = perfregs(&["decode", "ivb", "OASTATUS2", "0x1e"]);
    assert!(
        ivb.contains("reserved_4_1") && ivb.contains("= 15 (0xf)") && ivb.contains("MBZ"),
        "{ivb}"
    );
    // Bits outside every field are shown, not dropped.
    let (_, cec, _) = perfregs(&["decode", "hsw", "CEC0_1", "0x0"]);
    assert!(cec.contains("mask"), "{cec}");
}

#[test]
fn decode_rejects_bad_input() {
    assert_eq!(perfregs(&["decode", "ivb", "OAPERF_A0", "1"]).0, 1);
    assert_eq!(perfregs(&["decode", "skl", "OACONTROL", "1"]).0, 2);
    assert_eq!(
        perfregs(&["decode", "hsw", "OACONTROL", "0x1_0000_0000"]).0,
        1
    );
    assert_eq!(perfregs(&["decode", "hsw", "OACONTROL", "zz"]).0, 2);
    assert_eq!(perfregs(&["decode", "hsw"]).0, 2);
    assert_eq!(perfregs(&[]).0, 2);
}

#[test]
fn list_names_every_register() {
    let (code, out, _) = perfregs(&["list", "hsw"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.contains("OAPERF_B7")), "{out}");
    let (_, ivb, _) = perfregs(&["list", "ivb"]);
    assert!(!ivb.contains("OAPERF"), "{ivb}");
}
