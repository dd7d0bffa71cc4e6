//! The command line on every shipped metric file and every GT variant
//! (issue 18): `--gt N` and its aliases, the default part of a project with
//! several files, a GT a project has no file for, `metrics run` on a Gen9
//! and a Gen11 part, `metrics check --shipped`.

use crate::common;

use common::{exits, in_root as perfregs, says, TempFile, ROOT};

/// The cells of counter `name` in a `metrics run` table, as integers.
fn row(out: &str, name: &str) -> Vec<u64> {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row {name} in {out}"))
        .split_whitespace()
        .skip(2)
        .map(|c| {
            c.parse()
                .unwrap_or_else(|_| panic!("{name}: `{c}` is not a count in {out}"))
        })
        .collect()
}

/// IGT's TestOa ratios (B0..B7: 0, 1, 1, 1/2, 1/3, 1/3, 1/6, 2/3 of the
/// GPU clock, +-1) in every report pair of a `metrics run` table.
fn check_test_oa(what: &str, out: &str, pairs: usize) {
    let clocks = row(out, "GpuCoreClocks");
    assert_eq!(clocks.len(), pairs, "{what}: {out}");
    // 1024 timestamp ticks x the emulated part's clocks a tick, as the
    // device line says them.
    let ratio: u64 = out
        .split_once("(emulated: ")
        .and_then(|(_, r)| r.split_once(' '))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{what}: no clock ratio in {out}"));
    assert!(ratio > 8, "{what}: {ratio} clocks a tick");
    for (k, &clock) in clocks.iter().enumerate() {
        assert_eq!(clock, 1024 * ratio, "{what} #{k}");
        let c = |n: usize| row(out, &format!("Counter{n}"))[k];
        assert_eq!(c(0), 0, "{what} #{k}");
        assert_eq!(c(1), clock, "{what} #{k}");
        assert_eq!(c(2), clock, "{what} #{k}");
        for (n, num, den) in [(3, 1, 2), (4, 1, 3), (5, 1, 3), (6, 1, 6), (7, 2, 3)] {
            let want = clock * num / den;
            assert!(
                c(n).abs_diff(want) <= 1,
                "{what} #{k}: Counter{n} {} want {want}",
                c(n)
            );
        }
    }
    assert!(out.contains("emulator warnings: 0"), "{what}: {out}");
}

#[test]
fn gt_n_picks_the_skl_gt3_file_and_values() {
    for (args, pairs) in [
        (&["metrics", "run", "skl", "TestOa", "--gt", "3"][..], 4),
        (
            &[
                "metrics",
                "run",
                "skl",
                "test_oa",
                "--gt=3",
                "--reports",
                "3",
            ][..],
            3,
        ),
    ] {
        let (out, err) = exits(0, args);
        // The part chosen by hand: no note.
        assert!(err.is_empty(), "{args:?}: {err}");
        assert!(
            out.starts_with("skl GT3 TestOa (MDAPI testing set) from metricsets/oa-sklgt3.xml"),
            "{out}"
        );
        // SKL GT3's preset: 48 EUs, 2 slices, 12 MHz timestamp.
        assert!(
            out.contains("GpuTimestampFrequency 12000000 Hz")
                && out.contains("EuCoresTotalCount 48, EuSlicesTotalCount 2"),
            "{out}"
        );
        check_test_oa(&format!("{args:?}"), &out, pairs);
    }
    // `list` takes the same file.
    let out = exits(0, &["metrics", "list", "skl", "--gt", "3"]).0;
    assert!(
        out.starts_with("metricsets/oa-sklgt3.xml GT3 (skl): 21 sets"),
        "{out}"
    );
    assert!(!out.contains("GT2") && !out.contains("GT4"), "{out}");
    // GT4 too.
    let (_, out, _) = perfregs(&["metrics", "list", "skl", "--gt", "4"]);
    assert!(
        out.starts_with("metricsets/oa-sklgt4.xml GT4 (skl): 21 sets"),
        "{out}"
    );
}

#[test]
fn a_project_with_several_files_takes_gt2_and_says_so() {
    let (out, err) = exits(0, &["metrics", "list", "skl"]);
    assert!(
        out.starts_with("metricsets/oa-sklgt2.xml GT2 (skl): 22 sets"),
        "{out}"
    );
    assert_eq!(
        err.trim(),
        "note: skl GT2 (the default part; --gt 3 for GT3, --gt 4 for GT4)"
    );
    // --gt2 and --gt 2 are that part, without the note.
    for alias in ["--gt2", "--gt=2"] {
        let (code, same, err) = perfregs(&["metrics", "list", "skl", alias]);
        assert_eq!((code, same.as_str(), err.as_str()), (0, out.as_str(), ""));
    }
    let (_, _, err) = perfregs(&["metrics", "list", "kbl"]);
    assert_eq!(
        err.trim(),
        "note: kbl GT2 (the default part; --gt 3 for GT3)"
    );
    let (out, err) = exits(0, &["metrics", "run", "cfl", "TestOa", "--reports", "1"]);
    assert!(out.starts_with("cfl GT2 TestOa"), "{out}");
    says(&err, "note: cfl GT2 (the default part; --gt 3 for GT3)");
    // A project with one file: no part named, no note; --gt of its own
    // part (chv: GT1, its only preset) is accepted.
    let (out, err) = exits(0, &["metrics", "list", "chv", "--gt1"]);
    assert!(
        out.starts_with("metricsets/oa-chv.xml (chv): 14 sets"),
        "{out}"
    );
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_gt_without_a_file_is_a_usage_error_naming_the_gts() {
    for (args, want) in [
        (
            &["metrics", "run", "skl", "TestOa", "--gt", "1"][..],
            "--gt 1: skl has no GT1 metric file (its parts: GT2, GT3, GT4; --gt N picks one)",
        ),
        (
            &["metrics", "list", "kbl", "--gt1"][..],
            "--gt 1: kbl has no GT1 metric file (its parts: GT2, GT3;",
        ),
        (
            &["metrics", "list", "tgl", "--gt", "3"][..],
            "--gt 3: tgl has no GT3 metric file (its parts: GT1, GT2;",
        ),
        // A project with one file: another GT than its file's is refused,
        // not ignored.
        (
            &["metrics", "run", "bdw", "TestOa", "--gt", "3"][..],
            "--gt 3: bdw has no GT3 metric file (its parts: GT2;",
        ),
        (
            &["metrics", "run", "icl", "TestOa", "--gt1"][..],
            "--gt 1: icl has no GT1 metric file (its parts: GT2;",
        ),
        (
            &[
                "metrics",
                "check",
                "rkl",
                "regdefs/metricsets/oa-rkl.xml",
                "--gt2",
            ][..],
            "--gt 2: rkl has no GT2 metric file (its parts: GT1;",
        ),
        (
            &[
                "oa-decode",
                "skl",
                "A12",
                "/dev/null",
                "--metric-set",
                "TestOa",
                "--gt",
                "5",
            ][..],
            "--gt 5: skl has no GT5 metric file",
        ),
    ] {
        let (_, err) = exits(2, args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // --gt with --gt1 / --gt2, or out of range: clap's usage errors.
    for args in [
        &["metrics", "list", "skl", "--gt", "3", "--gt2"][..],
        &["metrics", "list", "skl", "--gt", "0"][..],
        &["metrics", "list", "skl", "--gt", "x"][..],
    ] {
        assert_eq!(perfregs(args).0, 2, "{args:?}");
    }
}

#[test]
fn a_project_with_no_file_is_a_usage_error() {
    let (_, err) = exits(2, &["metrics", "list", "ivb"]);
    says(&err, "no shipped metric sets for ivb");
    says(&err, "skl, tgl");
    let (_, err) = exits(2, &["metrics", "list", "snb", "--gt", "2"]);
    says(&err, "--gt 2: snb has no shipped metric file and no preset");
    let (_, err) = exits(2, &["metrics", "run", "vlv", "TestOa"]);
    // The list the message gives is the catalogue's emulated parts.
    says(
        &err,
        &format!(
            "no emulated OA part for vlv ({}",
            perfregs_session::oa_projects()[..2].join(", ")
        ),
    );
}

#[test]
fn metrics_run_test_oa_gives_igts_ratios_on_gen9_and_gen11_parts() {
    for (args, heading) in [
        (&["metrics", "run", "skl", "TestOa"][..], "skl GT2 TestOa"),
        (&["metrics", "run", "bxt", "TestOa"][..], "bxt TestOa"),
        (&["metrics", "run", "icl", "TestOa"][..], "icl TestOa"),
        (&["metrics", "run", "dg1", "TestOa"][..], "dg1 TestOa"),
    ] {
        let out = exits(0, args).0;
        assert!(out.starts_with(heading), "{args:?}: {out}");
        check_test_oa(&format!("{args:?}"), &out, 4);
    }
}

#[test]
fn metrics_check_shipped_checks_every_file() {
    let (out, err) = exits(0, &["metrics", "check", "--shipped"]);
    assert!(err.is_empty(), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let files = perfregs_regdefs::METRIC_SETS.len();
    assert_eq!(lines.len(), files + 1, "{files} files and the total: {out}");
    // One line per shipped file, each against its own project.
    for ((file, project, _), line) in perfregs_regdefs::METRIC_SETS.iter().zip(&lines) {
        assert!(
            line.starts_with(&format!("ok: {file} on {project}: ")),
            "{line}"
        );
        assert!(
            line.contains(" sets, ") && line.contains(" equations, "),
            "{line}"
        );
    }
    // The per-file line is the one `metrics check FILE` ends with.
    let one = exits(
        0,
        &["metrics", "check", "bdw", "regdefs/metricsets/oa-bdw.xml"],
    )
    .0;
    let last = one.lines().last().unwrap_or_default();
    let bdw = lines
        .iter()
        .find(|l| l.starts_with("ok: metricsets/oa-bdw.xml on bdw: "))
        .expect("the BDW line");
    assert_eq!(
        last.split_once(" on bdw: ").map(|x| x.1),
        bdw.split_once(" on bdw: ").map(|x| x.1),
        "{last}\n{bdw}"
    );
    // The total: the sets and counters of the generated files (404 sets,
    // 12,544 counters when issue 18 closed), and their 35,658 writes.
    let sets: usize = perfregs_metrics::FILES.iter().map(|f| f.2.len()).sum();
    let counters: usize = perfregs_metrics::FILES
        .iter()
        .flat_map(|f| f.2.iter())
        .map(|s| s.counters.len())
        .sum();
    let writes: usize = perfregs_metrics::FILES
        .iter()
        .flat_map(|f| f.2.iter())
        .flat_map(|s| s.configs.iter())
        .map(|b| b.writes.len())
        .sum();
    assert_eq!(perfregs_metrics::FILES.len(), files);
    assert!(
        lines[files].starts_with(&format!(
            "ok: {files} shipped files: {sets} sets, {counters} counters, {writes} writes: "
        )),
        "{}",
        lines[files]
    );
    // --shipped takes no project nor file.
    assert_eq!(perfregs(&["metrics", "check", "--shipped", "bdw"]).0, 2);
    assert_eq!(perfregs(&["metrics", "check"]).0, 2);
}

#[test]
fn metrics_check_shipped_fails_with_the_errors_of_each_file() {
    // Descriptions without the Gen12 OA unit (oa_tgl.yaml): the files of
    // Gen12 and later fail, each error naming its file; the others pass;
    // exit code 1 once all were checked.
    let dir = std::env::temp_dir().join(format!("perfregs-parts-{}", std::process::id()));
    let regdefs = dir.join("regdefs");
    std::fs::create_dir_all(&regdefs).expect("temp dir");
    let src = std::path::Path::new(ROOT).join("regdefs");
    for entry in std::fs::read_dir(&src).expect("regdefs") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.extension().is_some_and(|e| e == "yaml") && name != "oa_tgl.yaml" {
            std::fs::copy(&path, regdefs.join(name)).expect("copy");
        }
    }
    // The catalogue without the Gen12 projects' GPU facts, which name the
    // OA unit's formats and registers (its checks would stop the compile).
    let catalogue = std::fs::read_to_string(src.join("projects.yaml")).expect("catalogue");
    // The projects whose OA unit is oa_tgl.yaml's OAG: graphics IP 12 and
    // later (Gen12 LP, DG2, MTL, the Xe2/Xe3 parts).
    let gen12: Vec<&str> = hal::PROJECTS
        .iter()
        .filter(|p| p.gpu.is_some_and(|g| g.generation() >= 12))
        .map(|p| p.name)
        .collect();
    assert!(gen12.contains(&"tgl"), "{gen12:?}");
    let (mut kept, mut in_gen12) = (String::new(), false);
    for line in catalogue.lines() {
        if let Some(name) = line.strip_prefix("      - name: ") {
            in_gen12 = gen12.contains(&name.trim());
        } else if in_gen12 && line.starts_with("        gpu:") {
            continue;
        } else if in_gen12 && line.starts_with("         ") {
            continue; // inside `gpu:`
        }
        kept += line;
        kept.push('\n');
    }
    std::fs::write(regdefs.join("projects.yaml"), kept).expect("catalogue copy");
    let (code, stdout, stderr) = common::run(
        common::perfregs()
            .args(["metrics", "check", "--shipped"])
            .current_dir(&dir),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        perfregs_regdefs::METRIC_SETS.len(),
        "one line a file, no total: {stdout}"
    );
    // Xe2 and later sets program PES/MPES selects and flex counters only
    // (oa_xehp.yaml, oa_bdw.yaml), no OAG register: their files still pass.
    let xe2 = |p: &str| {
        hal::project(p)
            .and_then(|p| p.gpu)
            .is_some_and(|g| g.graphics >= (20, 0))
    };
    let fails = |p: &str| gen12.contains(&p) && !xe2(p);
    for ((file, project, _), line) in perfregs_regdefs::METRIC_SETS.iter().zip(&lines) {
        let want = if fails(project) { "FAILED" } else { "ok" };
        assert!(
            line.starts_with(&format!("{want}: {file} on {project}: ")),
            "{line}"
        );
        if want == "FAILED" {
            assert!(stderr.contains(&format!("{file}:")), "{file}: {stderr}");
        }
    }
    let failing = perfregs_regdefs::METRIC_SETS
        .iter()
        .filter(|(_, p, _)| fails(p))
        .count();
    assert!(failing >= 5, "{failing}");
    assert!(
        stderr.contains(&format!(
            "{failing} of {} shipped files failed: metricsets/oa-acmgt1.xml, ",
            perfregs_regdefs::METRIC_SETS.len()
        )),
        "{stderr}"
    );
}

#[test]
fn a_skl_gt3_run_dump_decodes_with_its_own_part() {
    let tmp = TempFile::new("parts-dump.bin");
    let file = tmp.path();
    let run = exits(
        0,
        &[
            "metrics",
            "run",
            "skl",
            "TestOa",
            "--gt",
            "3",
            "--reports",
            "3",
            "--dump",
            file,
        ],
    )
    .0;
    check_test_oa("run", &run, 3);
    // 4 reports of 256 bytes: the same counters from oa-decode, with GT3's
    // device values.
    let dec = exits(
        0,
        &[
            "oa-decode",
            "skl",
            "A32u40_A4u32_B8_C8",
            file,
            "--tail",
            "0x400",
            "--metric-set",
            "TestOa",
            "--gt",
            "3",
        ],
    )
    .0;
    says(&dec, "from metricsets/oa-sklgt3.xml");
    says(&dec, "EuCoresTotalCount 48");
    for name in ["GpuCoreClocks", "Counter3", "Counter7"] {
        assert_eq!(row(&dec, name), row(&run, name), "{name}");
    }
}
