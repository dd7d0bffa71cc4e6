//! `perfregs metrics check` of every shipped metric file (divan): the
//! target "metrics check --shipped of every file <= 1 s in release" (issue
//! 18 for 20 files, issue 25 for 28).
//!
//! `cargo bench -p perfregs-cli --bench metrics_check`
//!
//! - `check_all_shipped`: what `metrics check --shipped` does in-process:
//!   compile the shipped descriptions once (`perfregs_codegen::compile_path`),
//!   then load and check each shipped file against its project
//!   (`perfregs_codegen::metrics::load`: XML shape, names, equations, every
//!   register write);
//! - `load_all_shipped`: the loads alone, on descriptions compiled before
//!   the timing;
//! - `command`: the `perfregs metrics check --shipped` process itself, run in
//!   the repository root (start-up, compile, loads, output).
//!
//! Before anything is timed, every file is checked to load cleanly and the
//! totals are printed. 10 samples each; `--sample-count N` overrides it.
//!
//! Measured (release, the 2-core development machine, quiet, 2026-11-28,
//! 28 files, 858 sets, 18,103 counters, 68,051 writes): `check_all_shipped`
//! median 268 ms, `command` median 367 ms, `load_all_shipped` median 264 ms.
//! (Issue 18, 20 files: 159, 154 and 108 ms.)

use divan::{black_box, Bencher};
use perfregs_codegen::metrics::{errata, load, Loaded};
use perfregs_codegen::Ir;
use std::path::Path;

fn main() {
    check_totals();
    divan::main();
}

/// The shipped descriptions, compiled.
fn compile() -> Ir {
    perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir()))
        .unwrap_or_else(|d| panic!("the shipped descriptions: {} error(s)", d.len()))
}

/// Load and check every shipped file against its project.
fn load_all(ir: &Ir) -> Vec<Loaded> {
    let errata = errata::parse(errata::FILE, perfregs_regdefs::METRIC_ERRATA).expect("errata.yaml");
    perfregs_regdefs::METRIC_SETS
        .iter()
        .map(|(file, project, text)| {
            load(ir, project, file, text, &errata)
                .unwrap_or_else(|d| panic!("{file}: {} error(s)", d.len()))
        })
        .collect()
}

/// Every shipped file loads cleanly; the totals are printed so that a run
/// says what it measured (the metric files' README gives the same figures).
fn check_totals() {
    let all = load_all(&compile());
    assert_eq!(all.len(), perfregs_regdefs::METRIC_SETS.len());
    let sets: usize = all.iter().map(|l| l.file.sets.len()).sum();
    let counters: usize = all
        .iter()
        .flat_map(|l| &l.file.sets)
        .map(|s| s.counters.len())
        .sum();
    let writes: usize = all.iter().flat_map(|l| &l.reports).map(|r| r.writes).sum();
    eprintln!(
        "{} files, {sets} sets, {counters} counters, {writes} writes",
        all.len()
    );
}

#[divan::bench(sample_count = 10)]
fn check_all_shipped(bencher: Bencher) {
    bencher.bench(|| {
        let ir = compile();
        black_box(load_all(&ir))
    });
}

#[divan::bench(sample_count = 10)]
fn load_all_shipped(bencher: Bencher) {
    let ir = compile();
    bencher.bench(|| black_box(load_all(&ir)));
}

#[divan::bench(sample_count = 10)]
fn command(bencher: Bencher) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    bencher.bench(|| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_perfregs"))
            .args(["metrics", "check", "--shipped"])
            .current_dir(&root)
            .output()
            .expect("run perfregs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        black_box(out.stdout.len())
    });
}
