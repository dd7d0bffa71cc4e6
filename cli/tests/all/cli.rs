//! The `perfregs` command line: check, decode, list.

use crate::common;
use common::{exits, in_root as perfregs, says, TempFile};
use perfregs_testkit::{check_test_oa, Within};

fn perfregs_in(dir: &str, args: &[&str]) -> (i32, String, String) {
    common::run(common::perfregs().args(args).current_dir(dir))
}

#[test]
fn check_passes_on_shipped_descriptions() {
    let out = exits(0, &["check"]).0;
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
    let (_, err) = exits(
        1,
        &[
            "check",
            "codegen/tests/fixtures/overlap.yaml",
            "codegen/tests/fixtures/access.yaml",
        ],
    );
    says(&err, "error[PR104]: codegen/tests/fixtures/overlap.yaml:10:26: CTL.b: bits 4:2 overlap field `a` (7:4) on hsw");
    says(
        &err,
        "error[PR101]: codegen/tests/fixtures/access.yaml:9:38: CTL.go",
    );
    says(&err, "error(s)");
}

#[test]
fn check_reports_missing_paths() {
    let (_, err) = exits(1, &["check", "no/such/dir"]);
    assert!(
        err.contains("PR001") && err.contains("no/such/dir"),
        "{err}"
    );
}

#[test]
fn decode_prints_one_line_per_field() {
    let out = exits(0, &["decode", "hsw", "OACONTROL", "0xABD"]).0;
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
    says(&cec, "mask");
}

#[test]
fn decode_shows_the_address_an_address_field_encodes() {
    // OAG_OABUFFER.base_address is bits 31:6 of the buffer's address.
    let out = exits(0, &["decode", "tgl", "OAG_OABUFFER", "0x1000009"]).0;
    says(
        &out,
        "] base_address             = 262144 (0x40000) (address 0x1000000)  RW",
    );
    // A field that is not an address gets no address.
    assert!(
        out.lines()
            .filter(|l| l.contains("address 0x"))
            .all(|l| l.contains("base_address")),
        "{out}"
    );
    // HSW's buffer offset and head pointer, from the same attribute.
    let out = exits(0, &["decode", "hsw", "OABUFFER", "0x1000000"]).0;
    says(&out, "(address 0x1000000)");
    let out = exits(0, &["decode", "hsw", "OASTATUS2", "0x1000040"]).0;
    says(
        &out,
        "head_pointer             = 262145 (0x40001) (address 0x1000040)",
    );
}

#[test]
fn decode_rejects_bad_input() {
    assert_eq!(perfregs(&["decode", "ivb", "OAPERF_A0", "1"]).0, 1);
    assert_eq!(perfregs(&["decode", "pvc", "OACONTROL", "1"]).0, 2);
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
    let out = exits(0, &["list", "hsw"]).0;
    assert!(out.lines().any(|l| l.contains("OAPERF_B7")), "{out}");
    let (_, ivb, _) = perfregs(&["list", "ivb"]);
    assert!(!ivb.contains("OAPERF"), "{ivb}");
}

fn dump(project: &str) -> serde_json::Value {
    let out = exits(0, &["dump", project, "--json"]).0;
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
    exits(0, &["lookup", project, addr]).0
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
    says(&out, "OAG_OACONTROL");
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
    let out = exits(0, &["diff", "ivb", "hsw"]).0;
    says(&out, "~ CEC0_0 moved: 0x2390 on ivb -> 0x2770 on hsw");
    says(&out, "+ OAPERF_A0 0x2800 (hsw only)");
    says(&out, "~ OASTATUS2.memory_select changed: 0:0 RW -> 0:0 RO");
    says(&out, "~ OASTATUS2 reset: 0x0 -> 0x1");
    let (_, same, _) = perfregs(&["diff", "hsw", "hsw"]);
    assert_eq!(same.trim(), "0 difference(s) from hsw to hsw");
}

#[test]
fn export_writes_each_format() {
    let header = exits(0, &["export", "hsw", "--format", "c-header"]).0;
    says(&header, "#define HSW_OACONTROL 0x2360");
    let md = exits(0, &["export", "tgl", "--format", "markdown"]).0;
    assert!(md.contains("OAG_OACONTROL"), "markdown");
    let svd = exits(0, &["export", "ivt", "--format", "svd"]).0;
    assert!(
        svd.contains("<device") && svd.contains("R2_PCI_PMON_BOX_STATUS"),
        "svd"
    );
    assert_eq!(perfregs(&["export", "hsw", "--format", "pdf"]).0, 2);
    assert_eq!(perfregs(&["export", "pvc", "--format", "svd"]).0, 2);
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

/// `oa-decode hsw A45_B8_C8 TMP EXTRA...`, which must succeed: its stdout.
fn hsw_decoded(tmp: &TempFile, extra: &[&str]) -> String {
    exits(
        0,
        &[&["oa-decode", "hsw", "A45_B8_C8", tmp.path()][..], extra].concat(),
    )
    .0
}

#[test]
fn oa_decode_prints_one_row_per_report() {
    let tmp = TempFile::with("oa-decode.bin", &hsw_a45_buffer());
    let out = hsw_decoded(&tmp, &[]);
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
    let out = exits(
        0,
        &[
            "oa-decode",
            "hsw",
            "a45b8c8",
            tmp.path(),
            "--head",
            "0x200",
            "--tail",
            "0x100",
            "--all",
            "--hz",
            "1000",
        ],
    )
    .0;
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
    // The one pair steps back (flagged): no rate is taken from it.
    says(
        &out,
        "rates: no valid report pair to take them from (1 invalid pair(s) left out)",
    );
    assert!(!out.contains("rates over"), "{out}");
    // Rates over the whole buffer; the GPU clock rate from C2 on HSW (1200
    // clocks over 1100 ticks at 1000 Hz).
    let out = hsw_decoded(&tmp, &["--hz", "1000"]);
    says(
        &out,
        "rates over 1.100000 s (1100 ticks at 1000 Hz, 3 reports):",
    );
    says(&out, "\n  gpu_clock 1090.9/s\n");

    // A tail short of a whole report.
    let out = hsw_decoded(&tmp, &["--tail", "600"]);
    says(&out, ": 600 bytes, 2 reports");
    says(
        &out,
        "88 trailing byte(s) short of a whole report not decoded",
    );
}

#[test]
fn oa_decode_rejects_bad_input() {
    let tmp = TempFile::with("oa-decode-bad.bin", &hsw_a45_buffer());
    let file = tmp.path();
    let (_, err) = exits(2, &["oa-decode", "hsw", "A99", file]);
    says(&err, "no report format `A99` on hsw (known: A13, A29, A13_B8_C8, A29_B8_C8, B4_C8, A45_B8_C8, B4_C8_A16, C4_B8)");
    assert_eq!(perfregs(&["oa-decode", "skl", "A13", file]).0, 2);
    assert_eq!(perfregs(&["oa-decode", "p4", "A13", file]).0, 2);
    let (_, err) = exits(1, &["oa-decode", "hsw", "A13", "no/such/dump.bin"]);
    says(&err, "cannot read no/such/dump.bin");
    assert_eq!(perfregs(&["oa-decode", "hsw", "A13"]).0, 2);
    assert_eq!(
        perfregs(&["oa-decode", "hsw", "A13", file, "--head", "zz"]).0,
        2
    );
    assert_eq!(perfregs(&["oa-decode", "hsw", "A13", file, "--bogus"]).0, 2);
    assert_eq!(
        perfregs(&["oa-decode", "hsw", "A13", file, "--tail", "769"]).0,
        2
    );
}

#[test]
fn emulate_runs_steps_and_reports_warnings() {
    let out = exits(
        0,
        &[
            "emulate",
            "hsw",
            "r:OACONTROL",
            "w:FORCEWAKE_MT=0x00010001",
            "t:3",
            "w:OACONTROL=0x335",
            "r:0x2360",
        ],
    )
    .0;
    says(&out, "t=3 read 0x2360 OACONTROL = 0x335 [render] ok");
    says(
        &out,
        "warning: t=0 read of 0x2360 (OACONTROL) while power domain render sleeps",
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
    let out = exits(0, &args).0;
    // STATUS (RW enable, RW1S kick at bit 3) joins the project: stored and read back.
    says(&out, "t=3 read 0x100 STATUS = 0x9 [render] ok");
    assert!(!out.contains("warning"), "{out}");
    // Without the file the name is unknown.
    let (_, err) = exits(1, &["emulate", "hsw", "w:STATUS=1"]);
    says(&err, "`STATUS`: not an address or a register of hsw");
}

/// A description starting with a UTF-8 byte-order mark checks like the same
/// file without it (it used to be read as a key of its own).
#[test]
fn check_reads_a_file_with_a_bom() {
    let out = exits(0, &["check", "codegen/tests/fixtures/bom_ok.yaml"]).0;
    assert_eq!(
        out,
        perfregs(&["check", "codegen/tests/fixtures/ok.yaml"]).1
    );
    let (_, err) = exits(1, &["check", "codegen/tests/fixtures/bom_overlap.yaml"]);
    says(
        &err,
        "error[PR104]: codegen/tests/fixtures/bom_overlap.yaml:10:26: CTL.b",
    );
}

/// The counter table of `metrics run` / `oa-decode --metric-set`: counter
/// symbol -> (unit, the cells of each report pair).
fn counter_table(out: &str) -> std::collections::BTreeMap<String, (String, Vec<String>)> {
    let mut lines = out.lines().skip_while(|l| !l.starts_with("counter "));
    let header = lines.next().expect("a counter table");
    let columns = header.split_whitespace().count();
    lines
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .take_while(|cells| cells.len() == columns)
        .map(|cells| {
            (
                cells[0].to_string(),
                (
                    cells[1].to_string(),
                    cells[2..].iter().map(|c| c.to_string()).collect(),
                ),
            )
        })
        .collect()
}

/// The integer values of `counter` per report pair (panics on a cell that is
/// not an integer, such as the `-` of an unavailable value).
/// The floats of a counter's row.
fn floats(
    table: &std::collections::BTreeMap<String, (String, Vec<String>)>,
    counter: &str,
) -> Vec<f64> {
    let (_, cells) = table
        .get(counter)
        .unwrap_or_else(|| panic!("no row {counter}: {table:?}"));
    cells
        .iter()
        .map(|c| {
            c.parse()
                .unwrap_or_else(|_| panic!("{counter}: `{c}` is not a number"))
        })
        .collect()
}

fn ints(
    table: &std::collections::BTreeMap<String, (String, Vec<String>)>,
    counter: &str,
) -> Vec<u64> {
    let (_, cells) = table
        .get(counter)
        .unwrap_or_else(|| panic!("no row {counter}: {table:?}"));
    cells
        .iter()
        .map(|c| {
            c.parse()
                .unwrap_or_else(|_| panic!("{counter}: `{c}` is not a count"))
        })
        .collect()
}

/// GPU clocks a timestamp tick of `project`'s emulated default part (its
/// maximum frequency in whole clocks a tick), and that clock in Hz.
fn emulated_clock(project: &str) -> (u64, u64) {
    let (d, hz) = perfregs_session::emulated_device(project, None).expect("an emulated part");
    (hz / d.gpu_timestamp_frequency, hz)
}

/// The clocks a tick that `metrics run`'s device line says.
fn said_ratio(out: &str) -> u64 {
    out.split_once("(emulated: ")
        .and_then(|(_, r)| r.split_once(' '))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no clock ratio in {out}"))
}

/// IGT's TestOa expectations, read from the printed table: Counter0..7 are
/// B0..B7 (0, 1, 1, 1/2, 1/3, 1/3, 1/6, 2/3 of the GPU clock).
fn check_test_oa_table(what: &str, out: &str, pairs: usize) {
    let t = counter_table(out);
    let clocks = ints(&t, "GpuCoreClocks");
    assert_eq!(clocks.len(), pairs, "{what}: {out}");
    assert_eq!(t["GpuCoreClocks"].0, "cycles");
    assert_eq!(t["Counter3"].0, "events");
    let ratio = said_ratio(out);
    for (k, &clock) in clocks.iter().enumerate() {
        assert_eq!(
            clock,
            1024 * ratio,
            "{what} #{k}: 1024 ticks x {ratio} clocks"
        );
        let c = |n: usize| ints(&t, &format!("Counter{n}"))[k];
        check_test_oa(&format!("{what} #{k}"), clock, c, Within::Exact(1));
        // A C counter (C7 on BDW, C0 on TGL): the emulator's C counters
        // count nothing without a workload.
        assert_eq!(c(8), 0, "{what} #{k}");
    }
}

#[test]
fn metrics_run_test_oa_gives_the_igt_ratios() {
    for (args, pairs) in [
        (&["metrics", "run", "bdw", "TestOa"][..], 4),
        (
            &["metrics", "run", "tgl", "TestOa", "--reports", "6"][..],
            6,
        ),
        (&["metrics", "run", "tgl", "test_oa", "--gt1"][..], 4),
    ] {
        let out = exits(0, args).0;
        check_test_oa_table(&format!("{args:?}"), &out, pairs);
        assert!(out.contains("emulator warnings: 0"), "{args:?}: {out}");
        says(&out, "device: GpuTimestampFrequency ");
    }
    let (_, out, _) = perfregs(&["metrics", "run", "tgl", "TestOa", "--gt1"]);
    assert!(
        out.starts_with("tgl GT1 TestOa") && out.contains("EuCoresTotalCount 32"),
        "{out}"
    );
    // The GPU time of 1024 ticks at 12.5 MHz, in ns.
    let (_, out, _) = perfregs(&["metrics", "run", "bdw", "TestOa"]);
    assert_eq!(ints(&counter_table(&out), "GpuTime"), [81920; 4]);
}

#[test]
fn metrics_run_hsw_render_basic_prints_every_value() {
    let out = exits(0, &["metrics", "run", "hsw", "RenderBasic"]).0;
    // The workload is named before the table: busy by default.
    let workload = out
        .lines()
        .position(|l| l.starts_with("workload: busy ("))
        .unwrap_or_else(|| panic!("no workload line in {out}"));
    let table = out
        .lines()
        .position(|l| l.starts_with("counter "))
        .expect("a table");
    assert!(workload < table, "{out}");
    let t = counter_table(&out);
    // 70 counters, 3 of them (LLC) only with $QueryMode.
    assert_eq!(t.len(), 67, "{out}");
    assert!(
        out.contains(
            "not on this device (availability false): LlcAccesses, LlcHits, LlcGpuThroughput"
        ),
        "{out}"
    );
    for (name, (_, cells)) in &t {
        assert_eq!(cells.len(), 4, "{name}");
        for c in cells {
            assert!(c.parse::<f64>().is_ok(), "{name}: `{c}` in {out}");
        }
    }
    // HSW reports carry no GPU_TICKS: the HSW sets read the clock from C2.
    let (ratio, hz) = emulated_clock("hsw");
    assert_eq!(ints(&t, "GpuCoreClocks"), [1024 * ratio; 4]);
    assert_eq!(ints(&t, "AvgGpuCoreFrequency"), [hz; 4]);
    // Every A/B/C delta stays at or below the GPU clock x the 20 EUs.
    for name in ["Sampler0Texels", "SamplerTexels", "VsThreads"] {
        assert!(
            ints(&t, name).iter().all(|&v| v <= 1024 * ratio * 20),
            "{name}"
        );
    }
    // The default workload keeps the EUs busy; none leaves them idle and
    // says why the rows are zeros.
    for name in ["GpuBusy", "EuActive"] {
        let v = floats(&t, name);
        assert!(v.iter().all(|&x| x > 0.0 && x <= 100.0), "{name} {v:?}");
    }
    assert!(ints(&t, "VsThreads").iter().all(|&v| v > 0));
    let idle = exits(
        0,
        &["metrics", "run", "hsw", "RenderBasic", "--workload", "none"],
    )
    .0;
    says(&idle, "workload: none scripted");
    let it = counter_table(&idle);
    assert_eq!(floats(&it, "EuActive"), [0.0; 4]);
    assert_eq!(ints(&it, "VsThreads"), [0; 4]);
    let (code, _, err) = perfregs(&["metrics", "run", "hsw", "RenderBasic", "--workload", "lght"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no workload `lght` (did you mean light?)"),
        "{err}"
    );
    // RenderBasic's start triggers (threshold enable, threshold 0 on
    // OASTARTTRIG1/2 and 5/6) are ungated in the emulator's model: no
    // warning at all.
    says(&out, "emulator warnings: 0");
    assert!(out.trim_end().ends_with("emulator warnings: 0"), "{out}");
}

#[test]
fn metrics_run_rejects_bad_input() {
    let run = |args: &[&str]| perfregs(&[&["metrics", "run"][..], args].concat());
    let (code, _, err) = run(&["bdw", "NoSuchSet"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no set `NoSuchSet`") && err.contains("TestOa"),
        "{err}"
    );
    assert_eq!(run(&["ivb", "TestOa"]).0, 2);
    // VLV has no emulated OA part (skl, emulated since issue 18, was the
    // example before).
    assert_eq!(run(&["vlv", "TestOa"]).0, 2);
    assert_eq!(run(&["bdw", "TestOa", "--gt1"]).0, 2);
    assert_eq!(run(&["tgl", "TestOa", "--gt1", "--gt2"]).0, 2);
    assert_eq!(run(&["bdw", "TestOa", "--reports", "0"]).0, 2);
    assert_eq!(run(&["bdw", "TestOa", "--reports", "x"]).0, 2);
    assert_eq!(run(&["bdw", "TestOa", "--reports"]).0, 2);
    assert_eq!(run(&["bdw", "TestOa", "--file", "no/such.xml"]).0, 2);
    assert_eq!(run(&["bdw"]).0, 2);
    assert_eq!(perfregs(&["metrics"]).0, 2);
    assert_eq!(perfregs(&["metrics", "frob", "bdw"]).0, 2);
}

/// The row of counter `name` in a `metrics run` / `oa-decode` table.
fn counter_row<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row {name} in {out}"))
        .split_whitespace()
        .skip(2)
        .collect()
}

#[test]
fn device_values_can_be_set_by_hand() {
    let run = |extra: &[&str]| {
        exits(
            0,
            &[
                &["metrics", "run", "bdw", "TestOa", "--reports", "1"][..],
                extra,
            ]
            .concat(),
        )
        .0
    };
    let base = run(&[]);
    let fast = run(&[
        "--device",
        "GpuTimestampFrequency=25000000",
        "--device",
        "$EuCoresTotalCount=0x30",
    ]);
    // GpuTime = ticks x 1e9 / timestamp frequency: half at twice the frequency.
    let (a, b) = (counter_row(&base, "GpuTime"), counter_row(&fast, "GpuTime"));
    assert_eq!(a, ["81920"]);
    assert_eq!(b, ["40960"]);
    says(&fast, "EuCoresTotalCount 48");
    says(&base, "EuCoresTotalCount 24");
    for bad in ["Foo=1", "EuCoresTotalCount", "EuCoresTotalCount=x"] {
        let (_, err) = exits(2, &["metrics", "run", "bdw", "TestOa", "--device", bad]);
        says(&err, "--device");
    }
    // oa-decode takes them too, and only with --metric-set.
    exits(
        2,
        &[
            "oa-decode",
            "bdw",
            "A32u40_A4u32_B8_C8",
            "/dev/null",
            "--device",
            "QueryMode=1",
        ],
    );
}

#[test]
fn metrics_check_prints_one_line_per_set() {
    let out = exits(
        0,
        &["metrics", "check", "bdw", "regdefs/metricsets/oa-bdw.xml"],
    )
    .0;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 25, "{out}");
    let test_oa = lines
        .iter()
        .find(|l| l.starts_with("TestOa "))
        .expect("TestOa line");
    assert!(
        test_oa.contains("12 counters")
            && test_oa.contains("36 writes: 36 against fields, 0 in opaque ranges, 0 multicast"),
        "{test_oa}"
    );
    assert!(
        lines[24].starts_with("ok: regdefs/metricsets/oa-bdw.xml on bdw: 24 sets"),
        "{out}"
    );
    // HSW's NOA writes land in an opaque range.
    let out = exits(
        0,
        &["metrics", "check", "hsw", "regdefs/metricsets/oa-hsw.xml"],
    )
    .0;
    let total = out.lines().last().unwrap_or_default();
    assert!(
        total.starts_with("ok: ") && !total.contains(" 0 in opaque"),
        "{total}"
    );
}

#[test]
fn metrics_check_reports_located_errors() {
    let xml = r#"<?xml version="1.0"?>
<metrics version="1" merge_md5="">
  <set name="Bad set" chipset="BDW" symbol_name="Bad" underscore_name="bad" hw_config_guid="0">
    <counter name="Clocks" symbol_name="Clocks" underscore_name="clocks" description="x" data_type="uint64" units="cycles" semantic_type="event" equation="GPU_CLOCK 0 READ Q UADD"/>
    <register_config type="OA">
      <register type="OA" address="0x00001234" value="0x00000001" />
    </register_config>
  </set>
</metrics>
"#;
    let tmp = TempFile::with("bad-metrics.bin", xml.as_bytes());
    let file = tmp.path();
    let (out, err) = exits(1, &["metrics", "check", "bdw", file]);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!(
            "error[PR206]: {file}:6:7: Bad: 0x1234: no described register"
        )),
        "{err}"
    );
    assert!(err.contains(&format!("error[PR204]: {file}:4:")), "{err}");
    says(&err, "2 error(s)");
    // The file cannot be read, the project is unknown: usage errors.
    assert_eq!(perfregs(&["metrics", "check", "bdw", "no/such.xml"]).0, 2);
    assert_eq!(perfregs(&["metrics", "check", "pvc", file]).0, 2);
    assert_eq!(perfregs(&["metrics", "check", "bdw"]).0, 2);
}

#[test]
fn metrics_list_shows_sets_and_counters() {
    let out = exits(0, &["metrics", "list", "bdw"]).0;
    assert!(
        out.starts_with("metricsets/oa-bdw.xml (bdw): 24 sets"),
        "{out}"
    );
    let test_oa = out
        .lines()
        .find(|l| l.trim_start().starts_with("TestOa "))
        .expect("TestOa");
    assert!(
        test_oa.contains("MDAPI testing set")
            && test_oa.contains(" 12 counters")
            && test_oa.contains(" 36 writes"),
        "{test_oa}"
    );
    // TGL: each file, labelled; without --gt1 / --gt2 the part `run` takes
    // (GT2), and stderr says so.
    let (out, err) = exits(0, &["metrics", "list", "tgl"]);
    assert!(
        out.contains("metricsets/oa-tglgt2.xml GT2 (tgl): 26 sets") && !out.contains("GT1"),
        "{out}"
    );
    says(&err, "tgl GT2 (the default part; --gt1 for GT1)");
    let (code, gt2, err) = perfregs(&["metrics", "list", "tgl", "--gt2"]);
    assert_eq!((code, gt2.as_str(), err.as_str()), (0, out.as_str(), ""));
    let (_, gt1, err) = perfregs(&["metrics", "list", "tgl", "--gt1"]);
    assert!(
        gt1.contains("metricsets/oa-tglgt1.xml GT1 (tgl): 23 sets") && !gt1.contains("GT2"),
        "{gt1}"
    );
    assert!(err.is_empty(), "{err}");
    // `run` takes the same part by default, and says so.
    let (out, err) = exits(0, &["metrics", "run", "tgl", "TestOa", "--reports", "1"]);
    assert!(
        out.starts_with("tgl GT2 TestOa") && out.contains("EuCoresTotalCount 96"),
        "{out}"
    );
    says(&err, "tgl GT2 (the default part; --gt1 for GT1)");
    // A file given.
    let out = exits(
        0,
        &["metrics", "list", "hsw", "regdefs/metricsets/oa-hsw.xml"],
    )
    .0;
    assert!(
        out.starts_with("regdefs/metricsets/oa-hsw.xml (hsw): 6 sets"),
        "{out}"
    );
    // One set's counters.
    let out = exits(0, &["metrics", "list", "bdw", "--counters", "TestOa"]).0;
    assert_eq!(out.lines().count(), 13, "{out}");
    let c3 = out
        .lines()
        .find(|l| l.trim_start().starts_with("Counter3 "))
        .expect("Counter3");
    assert_eq!(
        c3.split_whitespace().collect::<Vec<_>>(),
        ["Counter3", "events", "uint64", "B", "3", "READ"]
    );
    exits(2, &["metrics", "list", "bdw", "--counters", "Nope"]);
    assert_eq!(perfregs(&["metrics", "list", "ivb"]).0, 2);
}

/// The OA buffer of BDW TestOa, programmed here on the emulator directly
/// (register metadata, the set's writes from `metrics::load`), not through
/// `metrics run`: (buffer, report pairs).
fn bdw_test_oa_buffer() -> Vec<u8> {
    use hal::meta::ProjectInfo;
    let p: &'static ProjectInfo = &hal::bdw::PROJECT;
    let ir = perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
        .expect("descriptions");
    let (file, _, text) = perfregs_regdefs::METRIC_SETS
        .iter()
        .find(|(_, proj, _)| *proj == "bdw")
        .expect("bdw metric sets");
    let errata = perfregs_codegen::metrics::errata::parse(
        perfregs_codegen::metrics::errata::FILE,
        perfregs_regdefs::METRIC_ERRATA,
    )
    .expect("errata.yaml");
    let loaded =
        perfregs_codegen::metrics::load(&ir, "bdw", file, text, &errata).expect("oa-bdw.xml");
    let set = loaded
        .file
        .sets
        .iter()
        .find(|s| s.symbol_name == "TestOa")
        .expect("TestOa");
    let mut emu = perfregs_emu::Emulator::builder(p, perfregs_emu::Sku::default())
        .with::<perfregs_emu::OaUnit>(perfregs_emu::OaConfig::default())
        .build();
    for d in p.domains {
        if let Some(req) = d.request.and_then(|n| p.register(n)) {
            emu.write32(req.address, 0x0001_0001);
        }
    }
    emu.advance(emu.sku().wake_latency);
    for w in set.configs.iter().flat_map(|c| &c.writes) {
        emu.write32(w.address, w.value as u32);
    }
    let reg = |name: &str| p.register(name).expect(name);
    let val = |name: &str, fields: &[(&str, u64)]| {
        fields.iter().fold(0u64, |v, &(f, x)| {
            let fi = reg(name).field(f).expect(f);
            v | ((x << fi.lsb) & fi.mask())
        }) as u32
    };
    const BASE: u64 = 0x0100_0000;
    let ptr = BASE >> 6;
    let fmt = p
        .formats
        .iter()
        .find(|f| f.name == "A32U40_A4U32_B8_C8")
        .expect("format")
        .select;
    for (name, fields) in [
        ("OAHEADPTR", &[("head_pointer", ptr)][..]),
        (
            "OABUFFER",
            &[
                ("base_address", ptr),
                ("buffer_size", 7),
                ("memory_select", 1),
            ],
        ),
        ("OATAILPTR", &[("tail_pointer", ptr)]),
        // A report every 2^(6+1) = 128 ticks: 1024 GPU clocks.
        ("OACTXCONTROL", &[("timer_period", 6), ("timer_enable", 1)]),
        (
            "OACONTROL",
            &[("counter_select", fmt), ("counter_enable", 1)],
        ),
    ] {
        emu.write32(reg(name).address, val(name, fields));
    }
    emu.advance(128 * 5 + 10);
    let tail = reg("OATAILPTR");
    let t = tail
        .field("tail_pointer")
        .expect("tail_pointer")
        .extract(emu.peek(tail.address, 0).expect("tail"));
    let used = ((t << 6) - BASE) as usize;
    assert!(emu.warnings().is_empty(), "{:?}", emu.warnings());
    emu.gpu_mem().read(BASE, used)
}

/// `oa-decode PROJECT FORMAT FILE --metric-set SET EXTRA..`, which must
/// succeed: its output.
fn decode_with_set(project: &str, format: &str, file: &str, set: &str, extra: &[&str]) -> String {
    let args = [
        &["oa-decode", project, format, file, "--metric-set", set][..],
        extra,
    ]
    .concat();
    exits(0, &args).0
}

#[test]
fn oa_decode_computes_the_metric_set() {
    let buf = bdw_test_oa_buffer();
    assert_eq!(buf.len(), 5 * 256);
    let tmp = TempFile::with("oa-decode-test-oa.bin", &buf);
    let file = tmp.path();
    let out = decode_with_set("bdw", "A32U40_A4U32_B8_C8", file, "TestOa", &[]);
    says(
        &out,
        "metric set TestOa (MDAPI testing set) from metricsets/oa-bdw.xml",
    );
    let t = counter_table(&out);
    let clocks = ints(&t, "GpuCoreClocks");
    assert_eq!(clocks, [1024; 4], "{out}");
    assert_eq!(ints(&t, "GpuTime"), [10240; 4], "128 ticks at 12.5 MHz");
    for (k, &clock) in clocks.iter().enumerate() {
        let c = |n: usize| ints(&t, &format!("Counter{n}"))[k];
        check_test_oa(&format!("{out}\n#{k}"), clock, c, Within::Exact(1));
    }
    // The same buffer, with the set from a file given.
    let out2 = decode_with_set(
        "bdw",
        "A32U40_A4U32_B8_C8",
        file,
        "testoa",
        &["--metric-file", "regdefs/metricsets/oa-bdw.xml"],
    );
    assert_eq!(counter_table(&out2), t);
    // Bad metric-set arguments.
    let decode = |extra: &[&str]| {
        perfregs(&[&["oa-decode", "bdw", "A32U40_A4U32_B8_C8", file][..], extra].concat()).0
    };
    assert_eq!(decode(&["--metric-set", "Nope"]), 2);
    assert_eq!(decode(&["--metric-set"]), 2);
    assert_eq!(decode(&["--gt1"]), 2, "--gt1 without --metric-set");
    assert_eq!(
        decode(&["--metric-set", "TestOa", "--gt1"]),
        2,
        "bdw has no GT1 file"
    );
    assert_eq!(
        decode(&["--metric-set", "TestOa", "--metric-file", "no/such.xml"]),
        2
    );
}

/// HSW RenderBasic on the hand-made HSW buffer: the GPU clock from C2,
/// the time from the timestamps; a counter reading what the format lacks
/// (none here) would be `-`.
#[test]
fn oa_decode_metric_set_on_hsw_uses_c2_as_the_clock() {
    let tmp = TempFile::with("oa-decode-hsw-rb.bin", &hsw_a45_buffer());
    let file = tmp.path();
    let out = decode_with_set("hsw", "A45_B8_C8", file, "RenderBasic", &[]);
    let t = counter_table(&out);
    assert_eq!(ints(&t, "GpuCoreClocks"), [400, 800]);
    assert_eq!(
        ints(&t, "GpuTime"),
        [40_000, 48_000],
        "500 and 600 ticks of 80 ns"
    );
    assert_eq!(ints(&t, "AvgGpuCoreFrequency"), [10_000_000, 16_666_666]);
}

/// `metrics run --dump` writes the buffer it decoded: `oa-decode` of the
/// dump gives the same counters.
#[test]
fn metrics_run_dump_round_trips_through_oa_decode() {
    let tmp = TempFile::with("run-dump.bin", b"");
    let file = tmp.path();
    let run = exits(
        0,
        &[
            "metrics",
            "run",
            "hsw",
            "RenderBasic",
            "--reports",
            "3",
            "--dump",
            file,
        ],
    )
    .0;
    assert!(run.contains(&format!("written to {file}")), "{run}");
    let dec = decode_with_set(
        "hsw",
        "A45_B8_C8",
        file,
        "RenderBasic",
        &["--tail", "0x400"],
    );
    assert_eq!(counter_table(&dec), counter_table(&run));
}

/// A format that lacks what a set reads: those counters print `-`, with the
/// missing reads in a footnote, never a made-up 0.
#[test]
fn oa_decode_metric_set_marks_unavailable_counters() {
    // Four A13 reports (64 bytes each: no B or C counters), 100 timestamp
    // ticks apart, A counters 0.
    let mut buf = [0u8; 256];
    for k in 0..4 {
        buf[k * 64] = 0x10 + k as u8;
        buf[k * 64 + 4..k * 64 + 8].copy_from_slice(&(1000 + 100 * k as u32).to_le_bytes());
    }
    let tmp = TempFile::with("oa-decode-a13.bin", &buf);
    let file = tmp.path();
    let out = decode_with_set("hsw", "A13", file, "RenderBasic", &[]);
    let t = counter_table(&out);
    assert_eq!(t["GpuCoreClocks"].1, ["-", "-", "-"], "{out}");
    assert_eq!(
        ints(&t, "GpuTime"),
        [8000, 8000, 8000],
        "100 ticks of 80 ns"
    );
    assert_eq!(ints(&t, "VsThreads"), [0, 0, 0], "A counters are there");
    says(
        &out,
        "- = unavailable: the reports do not carry what the equation reads",
    );
    assert!(
        out.lines().any(|l| l == "  GpuCoreClocks: needs C 2"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l == "  AvgGpuCoreFrequency: needs $GpuCoreClocks"),
        "{out}"
    );
}

// --- Opaque ranges and GPU commands in `list`, `lookup` and `dump --json`
// (HSW's NOA_UNIT, MI_REPORT_PERF_COUNT on BDW).

#[test]
fn list_shows_opaque_ranges_and_commands() {
    let hsw = exits(0, &["list", "hsw"]).0;
    let lines: Vec<&str> = hsw.lines().collect();
    assert!(
        lines.contains(&"0x025100  NOA_UNIT       [range]    opaque range 0x25100..0x2ff93 (no public layout), wake domain render"),
        "{hsw}"
    );
    assert!(
        lines.contains(&"command   MI_REPORT_PERF_COUNT [command]  Report Perf Count, 3 dwords"),
        "{hsw}"
    );
    // After the registers: the last two lines.
    assert_eq!(lines.iter().filter(|l| l.contains("[range]")).count(), 1);
    assert!(lines[lines.len() - 1].starts_with("command "), "{hsw}");
    let (_, bdw, _) = perfregs(&["list", "bdw"]);
    assert!(
        bdw.lines()
            .any(|l| l == "command   MI_REPORT_PERF_COUNT [command]  Report Perf Count, 4 dwords"),
        "{bdw}"
    );
    assert!(!bdw.contains("[range]"), "{bdw}");
    let (_, snb, _) = perfregs(&["list", "snb"]);
    assert!(
        !snb.contains("[range]") && !snb.contains("[command]"),
        "{snb}"
    );
}

#[test]
fn lookup_names_the_opaque_range() {
    let out = lookup("hsw", "0x25100");
    assert!(
        out.starts_with(
            "0x25100 on hsw: NOA_UNIT — opaque range 0x25100..0x2ff93, no public register layout\n"
        ),
        "{out}"
    );
    says(&out, "\nwake domain: render");
    let out = lookup("hsw", "0x2ff93");
    assert!(
        out.starts_with("0x2ff93 on hsw: NOA_UNIT (+0xae93) — opaque range"),
        "{out}"
    );
    assert!(lookup("hsw", "0x2ff94").starts_with("0x2ff94 on hsw: no register\n"));
    assert!(lookup("hsw", "0x250fc").starts_with("0x250fc on hsw: no register\n"));
    // Only HSW describes the range.
    assert!(lookup("bdw", "0x25100").starts_with("0x25100 on bdw: no register\n"));
}

#[test]
fn dump_has_opaque_ranges_and_commands() {
    let hsw = dump("hsw");
    assert_eq!(
        hsw["opaque_ranges"],
        serde_json::json!([{"name": "NOA_UNIT", "start": 0x25100, "end": 0x2FF93, "domain": "render"}])
    );
    let bdw = dump("bdw");
    assert_eq!(bdw["opaque_ranges"], serde_json::json!([]));
    let cmds = bdw["commands"].as_array().cloned().unwrap_or_default();
    assert_eq!(cmds.len(), 1, "{cmds:?}");
    assert_eq!(cmds[0]["name"], "MI_REPORT_PERF_COUNT");
    let dwords = cmds[0]["dwords"].as_array().cloned().unwrap_or_default();
    assert_eq!(dwords.len(), 4);
    assert_eq!(
        dwords[0]["fields"],
        serde_json::json!([
            {"name": "dword_length", "lsb": 0, "msb": 5, "value": 2},
            {"name": "opcode", "lsb": 23, "msb": 28, "value": 0x28},
            {"name": "command_type", "lsb": 29, "msb": 31, "value": 0},
        ])
    );
    // Fields the user sets have no "value".
    assert_eq!(
        dwords[1]["fields"],
        serde_json::json!([
            {"name": "use_global_gtt", "lsb": 0, "msb": 0},
            {"name": "core_mode_enable", "lsb": 4, "msb": 4},
            {"name": "memory_address", "lsb": 6, "msb": 31},
        ])
    );
    assert_eq!(
        dwords[2]["fields"],
        serde_json::json!([{"name": "memory_address_high", "lsb": 0, "msb": 31}])
    );
    assert_eq!(
        dwords[3]["fields"],
        serde_json::json!([{"name": "report_id", "lsb": 0, "msb": 31}])
    );
    // HSW: 3 dwords, length 1; SNB: neither ranges nor commands, keys present.
    let hsw_len = &hsw["commands"][0]["dwords"][0]["fields"][0];
    assert_eq!(hsw_len["value"], 1, "{hsw_len}");
    assert_eq!(
        hsw["commands"][0]["dwords"].as_array().map(Vec::len),
        Some(3)
    );
    let snb = dump("snb");
    assert_eq!(snb["opaque_ranges"], serde_json::json!([]));
    assert_eq!(snb["commands"], serde_json::json!([]));
}

#[test]
fn command_help_prints_that_commands_usage() {
    for cmd in [
        "check",
        "decode",
        "list",
        "dump",
        "lookup",
        "diff",
        "export",
        "oa-decode",
        "emulate",
        "metrics",
    ] {
        for help in ["--help", "-h"] {
            let out = exits(0, &[cmd, help]).0;
            assert!(
                out.contains(&format!("\nUsage: perfregs {cmd} ")),
                "{cmd} {help}:\n{out}"
            );
            // Only its own usage, not the list of every command.
            assert_eq!(out.matches("Usage: ").count(), 1, "{cmd} {help}:\n{out}");
            assert!(!out.contains("completions"), "{cmd} {help}:\n{out}");
            // `perfregs help <cmd>` is the long help.
            if help == "--help" {
                assert_eq!(
                    perfregs(&["help", cmd]),
                    (0, out, String::new()),
                    "help {cmd}"
                );
            }
        }
    }
    // The long help keeps the explanations of the old usage text.
    let (_, out, _) = perfregs(&["oa-decode", "--help"]);
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("(* = straddles the end of the buffer, reassembled)"),
        "{out}"
    );
    // `metrics --help` lists its verbs; each verb has its own help.
    let out = exits(0, &["metrics", "--help"]).0;
    for verb in ["check", "list", "run"] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{verb} "))),
            "{verb}:\n{out}"
        );
        let own = exits(0, &["metrics", verb, "--help"]).0;
        assert!(
            own.contains(&format!("Usage: perfregs metrics {verb} ")),
            "{own}"
        );
    }
    let (_, out, _) = perfregs(&["metrics", "run", "bdw", "-h"]);
    assert!(
        out.contains("--reports <N>") && out.contains("--dump <OUT>"),
        "{out}"
    );
    let (_, out, _) = perfregs(&["help", "metrics", "run"]);
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // The help's parts are the catalogue's: each with its EUs and clocks.
    let mut described = 0;
    for part in hal::PARTS {
        if !perfregs_session::oa_projects().contains(&part.project) {
            continue;
        }
        let d = &part.device;
        let line = format!("{part}: {} EUs,", d.eu_cores_total_count);
        let clocks = format!(
            "GPU {}-{} MHz",
            d.gpu_min_frequency / 1_000_000,
            d.gpu_max_frequency / 1_000_000
        );
        let at = words.find(&line).unwrap_or_else(|| panic!("{line}: {out}"));
        assert!(words[at..].contains(&clocks), "{part}: {clocks}: {out}");
        described += 1;
    }
    assert!(
        described >= hal::PARTS.len() / 2,
        "{described} parts: {out}"
    );
    let (_, err) = exits(2, &["nosuch", "--help"]);
    says(&err, "unrecognized subcommand 'nosuch'");
}

#[test]
fn version_and_usage_errors() {
    let (code, out, err) = perfregs(&["--version"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out.trim(),
        format!("perfregs {}", env!("CARGO_PKG_VERSION"))
    );
    // Usage errors: exit code 2, the error in one line and clap's hint, no
    // usage text.
    let (code, out, err) = perfregs(&["frobnicate"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: unrecognized subcommand 'frobnicate'\nFor more information, try '--help'.\n"
    );
    let (_, err) = exits(2, &["lsit", "hsw"]);
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "error: unrecognized subcommand 'lsit'",
            "  tip: a similar subcommand exists: 'list'",
            "For more information, try '--help'."
        ]
    );
    let (_, err) = exits(2, &["metrics", "run", "bdw", "TestOa", "--report", "3"]);
    assert!(
        err.starts_with("error: unexpected argument '--report' found\n"),
        "{err}"
    );
    says(&err, "tip: a similar argument exists: '--reports'");
    // The option the issue's user tried first.
    let (_, err) = exits(2, &["metrics", "run", "bdw", "TestOa", "--json"]);
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "error: unexpected argument '--json' found",
            "  tip: output formats are chosen with --format json (metrics run, oa-decode, report)",
            "For more information, try '--help'."
        ]
    );
    let (_, err) = exits(2, &["decode", "hsw", "OACONTROL"]);
    assert_eq!(
        err.lines().next(),
        Some("error: the following required arguments were not provided: <VALUE>")
    );
    let (_, err) = exits(2, &["list", "hsq"]);
    assert!(
        err.starts_with("error: invalid value 'hsq' for '<PROJECT>' [possible values: snb, ivb,"),
        "{err}"
    );
    says(&err, "tip: a similar value exists: 'hsw'");
    // No command: the help, on stderr.
    let (code, out, err) = perfregs(&[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("Usage: perfregs <COMMAND>") && err.contains("oa-decode"),
        "{err}"
    );
}

#[test]
fn completions_are_generated_for_each_shell() {
    // The static script (--static): subcommands, options, project names.
    let out = exits(0, &["completions", "bash", "--static"]).0;
    assert!(
        out.contains("_perfregs()") && out.contains("complete -F _perfregs"),
        "{out}"
    );
    for word in ["oa-decode", "--metric-set", "--reports", "tgl"] {
        assert!(out.contains(word), "{word} missing");
    }
    // The default script calls perfregs back (COMPLETE=<shell>) for values.
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = exits(0, &["completions", shell]).0;
        assert!(
            out.contains("perfregs") && out.contains("COMPLETE"),
            "{shell}: {out}"
        );
        let out = exits(0, &["completions", shell, "--static"]).0;
        assert!(
            out.contains("perfregs") && out.contains("metrics"),
            "{shell}"
        );
    }
    assert_eq!(perfregs(&["completions", "tcsh"]).0, 2);
}

// --- `--format table|csv|json|perfetto` (metrics run, oa-decode).

/// A CSV document parsed as RFC 4180 describes (quoted fields with doubled
/// quotes; separators and line breaks inside quotes).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(
        !quoted && field.is_empty() && record.is_empty(),
        "unterminated: {text}"
    );
    records
}

/// `NAME (UNIT)` of a CSV heading.
fn name_unit(heading: &str) -> (&str, &str) {
    match heading.rsplit_once(" (") {
        Some((n, u)) => (n, u.trim_end_matches(')')),
        None => (heading, ""),
    }
}

#[test]
fn metrics_run_writes_csv_json_and_perfetto() {
    let run = |format: &str| {
        let (out, err) = exits(
            0,
            &[
                "metrics",
                "run",
                "bdw",
                "TestOa",
                "--reports",
                "3",
                "--format",
                format,
            ],
        );
        // The text around the document goes to stderr.
        says(&err, "bdw TestOa (MDAPI testing set)");
        says(&err, "emulator warnings: 0");
        out
    };
    // CSV: one record per report pair, units in the headings.
    let csv = parse_csv(&run("csv"));
    assert_eq!(csv.len(), 1 + 3, "{csv:?}");
    let head: Vec<(&str, &str)> = csv[0].iter().map(|h| name_unit(h)).collect();
    assert_eq!(
        &head[..3],
        [("interval", ""), ("start_ns", ""), ("duration_ns", "")]
    );
    assert_eq!(head.last(), Some(&("flags", "")));
    let col = |name: &str| {
        head.iter()
            .position(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no column {name}: {head:?}"))
    };
    assert_eq!(head[col("GpuTime")].1, "ns");
    assert_eq!(head[col("GpuCoreClocks")].1, "cycles");
    assert_eq!(head[col("Counter3")].1, "events");
    for (k, r) in csv[1..].iter().enumerate() {
        assert_eq!(r.len(), head.len());
        let int = |name: &str| r[col(name)].parse::<u64>().expect(name);
        assert_eq!(int("interval"), k as u64 + 1);
        assert_eq!(
            r[col("start_ns")].parse::<f64>().ok(),
            Some(81920.0 * k as f64)
        );
        assert_eq!(int("GpuTime"), 81920);
        let clock = int("GpuCoreClocks");
        assert_eq!(clock, 1024 * emulated_clock("bdw").0);
        let near = Within::Exact(1);
        assert!(
            near.holds(int("Counter3"), clock, 1, 2) && near.holds(int("Counter7"), clock, 2, 3)
        );
        assert_eq!(r[col("flags")], "");
    }
    // JSON: one object per interval, counters with units, the same values.
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    assert_eq!(json["title"], "bdw TestOa (MDAPI testing set)");
    let intervals = json["intervals"].as_array().expect("intervals");
    assert_eq!(intervals.len(), 3);
    for (k, iv) in intervals.iter().enumerate() {
        assert_eq!(iv["interval"], k + 1);
        assert_eq!(iv["duration_ns"], 81920.0);
        assert_eq!(
            iv["counters"]["GpuTime"],
            serde_json::json!({"value": 81920, "unit": "ns"})
        );
        let c = &iv["counters"]["GpuCoreClocks"];
        assert_eq!(
            (c["value"].as_u64(), c["unit"].as_str()),
            (Some(1024 * emulated_clock("bdw").0), Some("cycles"))
        );
        let freq = &iv["counters"]["AvgGpuCoreFrequency"];
        assert_eq!(
            (freq["value"].as_u64(), freq["unit"].as_str()),
            (Some(emulated_clock("bdw").1), Some("hz"))
        );
        // The same value as in the CSV.
        let c3 = iv["counters"]["Counter3"]["value"]
            .as_u64()
            .expect("Counter3");
        assert_eq!(c3.to_string(), csv[k + 1][col("Counter3")]);
    }
    let columns = json["columns"].as_array().expect("columns");
    assert_eq!(columns.len(), head.len() - 4, "every counter column");
    // Perfetto: a JSON trace, one counter track per metric, rising time.
    let trace: serde_json::Value = serde_json::from_str(&run("perfetto")).expect("trace JSON");
    assert_eq!(trace["displayTimeUnit"], "ns");
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    assert!(events.iter().any(|e| e["ph"] == "M"
        && e["name"] == "process_name"
        && e["args"]["name"]
            .as_str()
            .is_some_and(|n| n.contains("TestOa"))));
    assert!(events
        .iter()
        .any(|e| e["ph"] == "M" && e["name"] == "thread_name"));
    let mut tracks: std::collections::BTreeMap<String, Vec<(f64, serde_json::Value)>> =
        Default::default();
    for e in events.iter().filter(|e| e["ph"] == "C") {
        let name = e["name"].as_str().expect("name").to_string();
        let ts = e["ts"].as_f64().expect("ts in µs");
        assert_eq!(e["args"].as_object().map(|a| a.len()), Some(1), "{e}");
        tracks
            .entry(name)
            .or_default()
            .push((ts, e["args"]["value"].clone()));
    }
    assert_eq!(
        tracks.len(),
        columns.len(),
        "one track per counter: {:?}",
        tracks.keys()
    );
    for (name, points) in &tracks {
        assert_eq!(points.len(), 3, "{name}");
        assert!(
            points.windows(2).all(|w| w[0].0 < w[1].0),
            "{name}: {points:?}"
        );
    }
    assert_eq!(tracks["GpuTime (ns)"][1], (81.92, serde_json::json!(81920)));
    assert_eq!(
        tracks["GpuCoreClocks (cycles)"][2].1,
        1024 * emulated_clock("bdw").0
    );
}

/// `--reports 10000` used to print a table with 10,000 columns: beyond 16
/// report pairs the table is a summary per counter, with a hint.
#[test]
fn a_long_run_prints_a_summary_table() {
    let out = exits(0, &["metrics", "run", "bdw", "TestOa", "--reports", "40"]).0;
    let header = out
        .lines()
        .find(|l| l.starts_with("counter "))
        .expect("table");
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["counter", "unit", "intervals", "min", "mean", "max"]
    );
    let row = counter_row(&out, "GpuCoreClocks");
    let clocks = 1024 * emulated_clock("bdw").0;
    assert_eq!(
        row,
        [
            "40".to_string(),
            clocks.to_string(),
            format!("{clocks}.0"),
            clocks.to_string()
        ]
    );
    says(&out, "40 intervals summarised (over those with a value); every value: --format csv, json or perfetto");
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("counter "))
        .take_while(|l| !l.starts_with("40 intervals"))
        .collect();
    assert!(table.iter().all(|l| l.len() < 100), "{table:?}");
    // 16 pairs still print as columns.
    let (_, out, _) = perfregs(&["metrics", "run", "bdw", "TestOa", "--reports", "16"]);
    assert_eq!(counter_table(&out)["GpuTime"].1.len(), 16);
}

/// The hand-made HSW buffer and one all-zero (never written) report after
/// it.
fn hsw_buffer_with_zero_report() -> Vec<u8> {
    [hsw_a45_buffer(), vec![0u8; 256]].concat()
}

#[test]
fn oa_decode_flags_zero_reports_and_timestamp_jumps() {
    let tmp = TempFile::with("oa-decode-zero.bin", &hsw_buffer_with_zero_report());
    let out = hsw_decoded(&tmp, &[]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2 + 4 + 1, "{out}");
    assert_eq!(
        lines[5],
        "    3  0x000300   ! all zero (never written): not decoded"
    );
    assert_eq!(
        lines[6],
        "! flagged: 1 all-zero report(s) (never written: not decoded, no increments from them), 0 timestamp jump(s) (stale or unwritten memory: no increments, no counters)"
    );
    // Read from the last report around the end: the zero report, then the
    // first report, whose timestamp is 1100 ticks earlier.
    let wrap = ["--head", "0x200", "--tail", "0x100"];
    let out = hsw_decoded(&tmp, &wrap);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[3],
        "    1  0x000300   ! all zero (never written): not decoded"
    );
    assert!(
        lines[4].starts_with("    2  0x000000   0x00000010        1000"),
        "{out}"
    );
    assert_eq!(lines[5], "       ! after 1 all-zero report(s)");
    assert_eq!(
        lines[6],
        "       ! timestamp jump: 1100 ticks back (stale or unwritten memory, not the next report)"
    );
    assert!(
        out.contains("! flagged: 1 all-zero report(s)") && out.contains(", 1 timestamp jump(s)"),
        "{out}"
    );
    // The set's counters of that pair are not data: `-` and flagged.
    let out = decode_with_set("hsw", "A45_B8_C8", tmp.path(), "RenderBasic", &wrap);
    let t = counter_table(&out);
    assert_eq!(t["GpuTime"].1, ["-"], "{out}");
    assert_eq!(t["GpuCoreClocks"].1, ["-"], "{out}");
    says(&out, "flagged intervals: 1 of 1: #1 (after 1 all-zero report(s), timestamp jump: 1100 ticks back");
    // Without the jump: the pairs before the zero report are data.
    let out = decode_with_set("hsw", "A45_B8_C8", tmp.path(), "RenderBasic", &[]);
    assert_eq!(ints(&counter_table(&out), "GpuCoreClocks"), [400, 800]);
    // CSV and JSON carry the flags, never the zero report's values.
    let csv = hsw_decoded(&tmp, &[&["--format", "csv"][..], &wrap].concat());
    let csv = parse_csv(&csv);
    let flags = csv[0].iter().position(|h| h == "flags").expect("flags");
    let d_a0 = csv[0]
        .iter()
        .position(|h| h == "d_A0 (events)")
        .expect("d_A0");
    let a0 = csv[0].iter().position(|h| h == "A0 (events)").expect("A0");
    assert_eq!(csv.len(), 4);
    assert_eq!(
        (csv[2][flags].as_str(), csv[2][a0].as_str()),
        ("all zero (never written)", "")
    );
    assert!(
        csv[3][flags].contains("timestamp jump: 1100 ticks back"),
        "{csv:?}"
    );
    assert_eq!((csv[3][a0].as_str(), csv[3][d_a0].as_str()), ("100", ""));
    let json = exits(
        0,
        &[
            &[
                "oa-decode",
                "hsw",
                "A45_B8_C8",
                tmp.path(),
                "--format",
                "json",
                "--metric-set",
                "RenderBasic",
            ][..],
            &wrap,
        ]
        .concat(),
    )
    .0;
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let iv = &json["intervals"][0];
    assert_eq!(
        iv["counters"]["GpuTime"],
        serde_json::json!({"value": null, "unit": "ns"})
    );
    assert_eq!(iv["flags"].as_array().map(Vec::len), Some(2), "{iv}");
    assert!(
        json["notes"].as_array().is_some_and(|n| n.iter().any(|n| n
            .as_str()
            .is_some_and(|n| n.starts_with("! flagged: 1 all-zero")))),
        "{json}"
    );
}

#[test]
fn oa_decode_writes_each_format() {
    let tmp = TempFile::with("oa-decode-formats.bin", &hsw_a45_buffer());
    let file = tmp.path();
    let decode =
        |extra: &[&str]| perfregs(&[&["oa-decode", "hsw", "A45_B8_C8", file][..], extra].concat());
    // Raw counters per report: values and increments, with units.
    let (code, out, err) = decode(&["--format", "json", "--hz", "1000"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.starts_with("hsw A45_B8_C8: 256-byte reports"), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let iv = &json["intervals"][1];
    assert_eq!(iv["start_ns"], 500_000_000.0, "500 ticks at 1 kHz");
    assert_eq!(iv["labels"]["rpt_id"], 0x11);
    assert_eq!(iv["labels"]["A0"], 130);
    assert_eq!(
        iv["counters"]["d_A0"],
        serde_json::json!({"value": 30, "unit": "events"})
    );
    assert_eq!(
        iv["counters"]["d_ts"],
        serde_json::json!({"value": 500, "unit": "ticks"})
    );
    assert_eq!(
        iv["counters"]["d_gpu"],
        serde_json::json!({"value": 400, "unit": "cycles"})
    );
    assert_eq!(
        json["intervals"][0]["counters"]["d_A0"]["value"],
        serde_json::Value::Null
    );
    // A trace needs the frequency.
    let (code, _, err) = decode(&["--format", "perfetto"]);
    assert_eq!(code, 2);
    says(&err, "--hz HZ or --metric-set SET");
    let (code, out, _) = decode(&["--format", "perfetto", "--metric-set", "RenderBasic"]);
    assert_eq!(code, 0);
    let trace: serde_json::Value = serde_json::from_str(&out).expect("trace");
    let clocks: Vec<(f64, u64)> = trace["traceEvents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["ph"] == "C" && e["name"] == "GpuCoreClocks (cycles)")
        .map(|e| {
            (
                e["ts"].as_f64().unwrap_or(-1.0),
                e["args"]["value"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    // 500 ticks of 80 ns: the second pair starts at 40 µs.
    assert_eq!(clocks, [(0.0, 400), (40.0, 800)]);
    assert_eq!(decode(&["--format", "xml"]).0, 2);
}

#[test]
fn decode_takes_an_address_and_suggests_names() {
    let by_name = perfregs(&["decode", "hsw", "OACONTROL", "0xABD"]);
    assert_eq!(by_name.0, 0);
    assert_eq!(perfregs(&["decode", "hsw", "0x2360", "0xABD"]), by_name);
    assert_eq!(
        perfregs(&["decode", "hsw", "9056", "0xABD"]),
        by_name,
        "decimal"
    );
    let out = exits(0, &["decode", "tgl", "0xdaf4", "0x1"]).0;
    assert!(out.starts_with("OAG_OACONTROL "), "{out}");
    // No register there: exit 1, and where to look.
    let (code, out, err) = perfregs(&["decode", "tgl", "0x2b2c", "0x1"]);
    assert_eq!((code, out.as_str()), (1, ""));
    says(
        &err,
        "no register at 0x2b2c on tgl (`perfregs lookup tgl 0x2b2c`",
    );
    let (_, err) = exits(1, &["decode", "hsw", "0x2362", "0x1"]);
    says(&err, "0x2362 is inside OACONTROL (+0x2) on hsw");
    // A misspelt name: the close ones.
    let (_, err) = exits(1, &["decode", "hsw", "OACONTRL", "0x1"]);
    assert!(
        err.starts_with("perfregs: no register `OACONTRL` on hsw (did you mean OACONTROL?)"),
        "{err}"
    );
    let (_, _, err) = perfregs(&["decode", "hsw", "oastatus", "0x1"]);
    says(&err, "(did you mean OASTATUS1, OASTATUS2?)");
    let (_, _, err) = perfregs(&["decode", "hsw", "FROBNICATE", "0x1"]);
    assert!(!err.contains("did you mean"), "{err}");
}

/// The README's `my.yaml` is a whole file: written out as the README shows
/// it, the README's `emulate --with my.yaml` line runs on it, and `check`
/// passes it.
#[test]
fn the_readmes_my_yaml_runs_as_the_readme_says() {
    let readme = std::fs::read_to_string(format!("{}/README.md", common::ROOT)).expect("README.md");
    let after = readme
        .split_once("`my.yaml` is a whole block file")
        .expect("the README introduces my.yaml")
        .1;
    let yaml = after
        .split_once("```yaml\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a yaml block after it")
        .0;
    let line = readme
        .lines()
        .find(|l| l.contains("-- emulate hsw --with my.yaml"))
        .expect("the README's emulate line");
    let args: Vec<&str> = line
        .split_once("-- ")
        .expect("cargo run -q -- ...")
        .1
        .split_whitespace()
        .collect();
    let file = TempFile::with("my.yaml", yaml.as_bytes());
    let path = file.path();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "my.yaml" { path } else { a })
        .collect();
    let out = exits(0, &args).0;
    says(&out, "MY_CTL");
    assert!(!out.contains("error"), "{out}");
    exits(0, &["check", path]);
}

/// Completion through bash itself: the script `completions bash` prints,
/// sourced, completes a metric set and a register by calling `perfregs`
/// back (found on PATH), as a shell does on Tab.
#[test]
fn bash_completes_sets_and_registers() {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_perfregs"));
    let dir = bin.parent().expect("the binary's folder");
    if std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: no bash on this machine");
        return;
    }
    let complete = |words: &str| {
        let n = words.split(' ').count() - 1;
        let script = format!(
            "source <(perfregs completions bash)\nCOMP_WORDS=({words})\nCOMP_CWORD={n}\nCOMP_LINE='{words}'\nCOMP_POINT=${{#COMP_LINE}}\nCOMP_TYPE=9\n_clap_complete_perfregs perfregs\nprintf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let path = format!(
            "{}:{}",
            dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(script)
            .env("PATH", path)
            .output()
            .expect("run bash");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let sets = complete("perfregs record --emulate tgl --metric-set RenderB");
    assert!(sets.lines().any(|l| l.trim() == "RenderBasic"), "{sets}");
    let regs = complete("perfregs decode tgl OAG_OAST");
    assert!(regs.lines().any(|l| l.trim() == "OAG_OASTATUS"), "{regs}");
    assert!(!regs.contains("RenderBasic"), "{regs}");
}
