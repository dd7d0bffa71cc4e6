//! The `perfregs` command line: check, decode, list.

use std::process::Command;

/// The repository root (this crate is `cli/`): the tests name files relative to
/// it (`codegen/tests/fixtures/...`) and `check` reads its `regdefs/`.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn perfregs(args: &[&str]) -> (i32, String, String) {
    perfregs_in(ROOT, args)
}

fn perfregs_in(dir: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_perfregs"))
        .args(args)
        .current_dir(dir)
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

/// Without `regdefs/` in the current directory, `check` reads the descriptions
/// `perfregs-regdefs` ships: the same files, the same counts.
#[test]
fn check_falls_back_to_the_shipped_descriptions() {
    let (code, out, err) = perfregs_in(env!("CARGO_MANIFEST_DIR"), &["check"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, perfregs(&["check"]).1);
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

fn dump(project: &str) -> serde_json::Value {
    let (code, out, err) = perfregs(&["dump", project, "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("dump {project}: {e}\n{out}"))
}

#[test]
fn dump_has_the_documented_shape_for_every_project() {
    for project in ["snb", "ivb", "vlv", "hsw", "bdw", "tgl", "p4", "ivt"] {
        let v = dump(project);
        assert_eq!(v["project"], project);
        let regs = v["registers"]
            .as_array()
            .unwrap_or_else(|| panic!("{project}: registers"));
        assert!(!regs.is_empty(), "{project} has no registers");
        for r in regs {
            for key in [
                "name",
                "block",
                "space",
                "address",
                "width",
                "reset",
                "masked",
                "domain",
                "replication",
                "fields",
            ] {
                assert!(r.get(key).is_some(), "{project}: {key} missing in {r}");
            }
            assert!(
                ["mmio", "msr", "pci"].contains(&r["space"].as_str().unwrap_or("")),
                "{r}"
            );
            assert!(
                r["address"].is_u64() && r["reset"].is_u64() && r["masked"].is_boolean(),
                "{r}"
            );
            assert!(r["domain"].is_null() || r["domain"].is_string(), "{r}");
            if !r["replication"].is_null() {
                assert!(
                    r["replication"]["group"].is_string() && r["replication"]["instances"].is_u64(),
                    "{r}"
                );
            }
            for f in r["fields"].as_array().into_iter().flatten() {
                assert!(f["lsb"].as_u64() <= f["msb"].as_u64(), "{f}");
                assert!(
                    f["name"].is_string() && f["access"].is_string() && f["reset"].is_u64(),
                    "{f}"
                );
            }
        }
        for row in v["forcewake"].as_array().into_iter().flatten() {
            assert!(
                row["start"].as_u64() <= row["end"].as_u64() && row["domain"].is_string(),
                "{row}"
            );
        }
        for row in v["replication"].as_array().into_iter().flatten() {
            assert!(
                row["group"].is_string() && row["instances"].as_u64() > Some(1),
                "{row}"
            );
        }
        for f in v["report_formats"].as_array().into_iter().flatten() {
            assert!(
                f["name"].is_string() && f["select"].is_u64() && f["size"].is_u64(),
                "{f}"
            );
            for c in f["counters"].as_array().into_iter().flatten() {
                assert!(
                    c["name"].is_string() && c["offset"].is_u64() && c["bits"].is_u64(),
                    "{c}"
                );
                assert_eq!(
                    c.get("high_byte_offset").is_some(),
                    c["bits"] == 40
                        && c["name"].as_str().is_some_and(|n| n.starts_with('A'))
                        && c.get("high_byte_offset").is_some()
                );
            }
        }
    }
    // Spaces per project family.
    assert!(dump("p4")["registers"]
        .as_array()
        .is_some_and(|r| r.iter().all(|r| r["space"] == "msr")));
    assert!(dump("ivt")["registers"]
        .as_array()
        .is_some_and(|r| r.iter().any(|r| r["space"] == "pci")));
    // TGL: the force-wake table and its replicated rows; domains as the issue names them.
    let tgl = dump("tgl");
    let fw = tgl["forcewake"].as_array().cloned().unwrap_or_default();
    assert_eq!(fw.len(), 199);
    for d in [
        "aon", "gt", "render", "vdbox0", "vdbox2", "vebox0", "reserved",
    ] {
        assert!(fw.iter().any(|r| r["domain"] == d), "no {d} row");
    }
    let rep = tgl["replication"].as_array().cloned().unwrap_or_default();
    for (g, n) in [("sqidi", 2), ("dss", 6), ("l3bank", 8)] {
        assert!(
            rep.iter().any(|r| r["group"] == g && r["instances"] == n),
            "no {g} x{n}"
        );
    }
}

fn lookup(project: &str, addr: &str) -> String {
    let (code, out, err) = perfregs(&["lookup", project, addr]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn lookup_names_register_domain_and_replication() {
    // One address per wake target and replication group of the TGL table.
    let cases = [
        ("0xC00", "wake domain: aon", "replication: none"),
        ("0xB00", "wake domain: aon", "replication: sqidi x2"),
        ("0x2000", "wake domain: render", "replication: none"),
        ("0x2700", "wake domain: gt", "replication: none"),
        ("0x8150", "wake domain: render", "replication: dss x6"),
        ("0x8700", "wake domain: gt", "replication: sqidi x2"),
        ("0xB100", "wake domain: render", "replication: l3bank x8"),
        ("0x0", "wake domain: reserved", "replication: none"),
    ];
    for (addr, domain, rep) in cases {
        let out = lookup("tgl", addr);
        assert!(out.contains(domain), "{addr}: {out}");
        assert!(out.contains(rep), "{addr}: {out}");
    }
    let out = lookup("tgl", "0xDAF4");
    assert!(out.contains("OAG_OACONTROL"), "{out}");
    let out = lookup("hsw", "0x2360");
    assert!(
        out.contains("OACONTROL") && out.contains("wake domain: render"),
        "{out}"
    );
    let out = lookup("hsw", "0x130044");
    assert!(
        out.contains("FORCEWAKE_ACK_HSW") && out.contains("outside the force-wake table"),
        "{out}"
    );
    let media: Vec<_> = dump("tgl")["forcewake"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let vd = media
        .iter()
        .find(|r| r["domain"] == "vdbox0")
        .and_then(|r| r["start"].as_u64())
        .unwrap_or(0);
    assert!(lookup("tgl", &format!("{vd:#x}")).contains("wake domain: vdbox0"));
}

#[test]
fn diff_lists_moves_and_field_changes() {
    let (code, out, _) = perfregs(&["diff", "ivb", "hsw"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("~ CEC0_0 moved: 0x2390 on ivb -> 0x2770 on hsw"),
        "{out}"
    );
    assert!(out.contains("+ OAPERF_A0 0x2800 (hsw only)"), "{out}");
    assert!(
        out.contains("~ OASTATUS2.memory_select changed: 0:0 RW -> 0:0 RO"),
        "{out}"
    );
    assert!(out.contains("~ OASTATUS2 reset: 0x0 -> 0x1"), "{out}");
    let (_, same, _) = perfregs(&["diff", "hsw", "hsw"]);
    assert_eq!(same.trim(), "0 difference(s) from hsw to hsw");
}

#[test]
fn export_writes_each_format() {
    let (code, header, err) = perfregs(&["export", "hsw", "--format", "c-header"]);
    assert_eq!(code, 0, "{err}");
    assert!(header.contains("#define HSW_OACONTROL 0x2360"), "{header}");
    let (code, md, _) = perfregs(&["export", "tgl", "--format", "markdown"]);
    assert_eq!(code, 0);
    assert!(md.contains("OAG_OACONTROL"), "markdown");
    let (code, svd, _) = perfregs(&["export", "ivt", "--format", "svd"]);
    assert_eq!(code, 0);
    assert!(
        svd.contains("<device") && svd.contains("R2_PCI_PMON_BOX_STATUS"),
        "svd"
    );
    assert_eq!(perfregs(&["export", "hsw", "--format", "pdf"]).0, 2);
    assert_eq!(perfregs(&["export", "skl", "--format", "svd"]).0, 2);
}

/// A file under the temp directory, unique to this process and test.
fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("perfregs-cli-{}-{name}.bin", std::process::id()));
    std::fs::write(&path, bytes).expect("write temp file");
    path
}

/// Three HSW A45_B8_C8 reports (256 bytes each): RPT_ID at 0, TIME_STAMP at
/// 4 (dword 2 holds junk that must not count), A0 at 12, B0 at 192, C0 at
/// 224 (wrapping at 2^32 between the first two reports), C2 (the GPU clock)
/// at 232.
fn hsw_a45_buffer() -> Vec<u8> {
    let mut buf = vec![0u8; 3 * 256];
    let mut put = |at: usize, v: u32| buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    let rows: [(u32, u32, u32, u32, u32); 3] = [
        (0x10, 1000, 100, 5, 0xFFFF_FFF0),
        (0x11, 1500, 130, 6, 0),
        (0x12, 2100, 160, 6, 16),
    ];
    for (k, (id, ts, a0, b0, c0)) in rows.into_iter().enumerate() {
        let r = k * 256;
        put(r, id);
        put(r + 4, ts);
        put(r + 8, 0xAB + k as u32);
        put(r + 12, a0);
        put(r + 192, b0);
        put(r + 224, c0);
        put(r + 232, 5000 + 400 * k as u32 * (k as u32 + 1) / 2); // C2: the GPU clock on HSW
    }
    buf
}

#[test]
fn oa_decode_prints_one_row_per_report() {
    let path = temp_file("oa-decode", &hsw_a45_buffer());
    let file = path.to_string_lossy().into_owned();
    let (code, out, err) = perfregs(&["oa-decode", "hsw", "A45_B8_C8", &file]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "hsw A45_B8_C8: 256-byte reports; buffer 768 bytes, head 0x0, tail 0x300: 768 bytes, 3 reports",
            "    #  offset     rpt_id       timestamp        d_ts   gpu_clock       d_gpu  counters",
            "    0  0x000000   0x00000010        1000           -        5000           -  A0=100 B0=5 C0=4294967280 C2=5000",
            "    1  0x000100   0x00000011        1500         500        5400         400  A0+30 B0+1 C0+16 C2+400",
            "    2  0x000200   0x00000012        2100         600        6200         800  A0+30 C0+16 C2+800",
        ],
        "{out}"
    );

    // Wrapping from the last report to the first; every counter with --all.
    let (code, out, err) = perfregs(&[
        "oa-decode",
        "hsw",
        "a45b8c8",
        &file,
        "--head",
        "0x200",
        "--tail",
        "0x100",
        "--all",
        "--hz",
        "1000",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].ends_with("head 0x200, tail 0x100: 512 bytes, 2 reports"),
        "{out}"
    );
    assert!(
        lines[2].starts_with(
            "    0  0x000200   0x00000012        2100           -        6200           -  A0=160 A1=0 "
        ),
        "{out}"
    );
    assert!(
        lines[3].starts_with(
            "    1  0x000000   0x00000010        1000  4294966196        5000  4294966096  A0=100(+4294967236) A1=0(+0) "
        ),
        "{out}"
    );
    assert!(
        lines[3].contains(" B0=5(+4294967295) ") && lines[3].ends_with(" C7=0(+0)"),
        "{out}"
    );
    assert!(
        out.contains("rates over 4294966.196000 s (4294966196 ticks at 1000 Hz, 2 reports):"),
        "{out}"
    );
    // The GPU clock rate, from C2 on HSW (4294966096 clocks over the same span).
    assert!(out.contains("\n  gpu_clock 1000.0/s\n"), "{out}");

    // A tail short of a whole report.
    let (code, out, _) = perfregs(&["oa-decode", "hsw", "A45_B8_C8", &file, "--tail", "600"]);
    assert_eq!(code, 0);
    assert!(out.contains(": 600 bytes, 2 reports"), "{out}");
    assert!(
        out.contains("88 trailing byte(s) short of a whole report not decoded"),
        "{out}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn oa_decode_rejects_bad_input() {
    let path = temp_file("oa-decode-bad", &hsw_a45_buffer());
    let file = path.to_string_lossy().into_owned();
    let (code, _, err) = perfregs(&["oa-decode", "hsw", "A99", &file]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no report format `A99` on hsw (known: A13, A29, A13_B8_C8, A29_B8_C8, B4_C8, A45_B8_C8, B4_C8_A16, C4_B8)"),
        "{err}"
    );
    assert_eq!(perfregs(&["oa-decode", "skl", "A13", &file]).0, 2);
    assert_eq!(perfregs(&["oa-decode", "p4", "A13", &file]).0, 2);
    let (code, _, err) = perfregs(&["oa-decode", "hsw", "A13", "no/such/dump.bin"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read no/such/dump.bin"), "{err}");
    assert_eq!(perfregs(&["oa-decode", "hsw", "A13"]).0, 2);
    assert_eq!(
        perfregs(&["oa-decode", "hsw", "A13", &file, "--head", "zz"]).0,
        2
    );
    assert_eq!(
        perfregs(&["oa-decode", "hsw", "A13", &file, "--bogus"]).0,
        2
    );
    assert_eq!(
        perfregs(&["oa-decode", "hsw", "A13", &file, "--tail", "769"]).0,
        2
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn emulate_runs_steps_and_reports_warnings() {
    let (code, out, err) = perfregs(&[
        "emulate",
        "hsw",
        "r:OACONTROL",
        "w:FORCEWAKE_MT=0x00010001",
        "t:3",
        "w:OACONTROL=0x335",
        "r:0x2360",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("t=3 read 0x2360 OACONTROL = 0x335 [render] ok"),
        "{out}"
    );
    assert!(
        out.contains("warning: t=0 read of 0x2360 (OACONTROL) while power domain render sleeps"),
        "{out}"
    );
}

#[test]
fn emulate_loads_descriptions_at_run_time() {
    let steps = [
        "w:FORCEWAKE_MT=0x00010001",
        "t:3",
        "w:STATUS=0x9",
        "r:STATUS",
    ];
    let mut args = vec!["emulate", "hsw", "--with", "tests/fixtures/extra.yaml"];
    args.extend(steps);
    let (code, out, err) = perfregs(&args);
    assert_eq!(code, 0, "{out}{err}");
    // STATUS (RW enable, RW1S kick at bit 3) joins the project: stored and read back.
    assert!(
        out.contains("t=3 read 0x100 STATUS = 0x9 [render] ok"),
        "{out}"
    );
    assert!(!out.contains("warning"), "{out}");
    // Without the file the name is unknown.
    let (code, _, err) = perfregs(&["emulate", "hsw", "w:STATUS=1"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("`STATUS`: not an address or a register of hsw"),
        "{err}"
    );
}

/// A description starting with a UTF-8 byte-order mark checks like the same
/// file without it (it used to be read as a key of its own).
#[test]
fn check_reads_a_file_with_a_bom() {
    let (code, out, err) = perfregs(&["check", "codegen/tests/fixtures/bom_ok.yaml"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        perfregs(&["check", "codegen/tests/fixtures/ok.yaml"]).1
    );
    let (code, _, err) = perfregs(&["check", "codegen/tests/fixtures/bom_overlap.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[PR104]: codegen/tests/fixtures/bom_overlap.yaml:10:26: CTL.b"),
        "{err}"
    );
}
