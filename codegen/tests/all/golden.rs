//! Golden tests of the emitted code: every folder `tests/cases/<case>/` holds
//! an `input.yaml` and either `expected.rs` (what `generate` emits for it) or
//! `expected.diagnostics` (one `Display`ed diagnostic per line, for inputs
//! that must fail). `BLESS=1 cargo test -p perfregs-codegen --test all golden::`
//! (re)writes the expected files from the current output.

use perfregs_codegen::{compile_user_sources, generate, EmitOptions};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

const RS: &str = "expected.rs";
const DIAGS: &str = "expected.diagnostics";
/// Most differing lines shown for a mismatch.
const DIFF_LINES: usize = 20;
const HOW: &str =
    "bless with `BLESS=1 cargo test -p perfregs-codegen --test all golden::` if the new output is right";

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

fn blessing() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// What the pipeline makes of a case: the expected file it should match and
/// the text that file should hold.
fn run(case: &str, input: String) -> (&'static str, String) {
    // A relative source name keeps paths in diagnostics the same on every machine.
    let sources = [(format!("{case}/input.yaml"), input)];
    // The proc-macro's pipeline: against the built-in descriptions.
    match compile_user_sources(built_in(), &sources) {
        // The proc-macro's options: the HAL's project types, no project table.
        Ok(ir) => {
            let opts = EmitOptions::for_macro(quote::quote!(::perfregs::hal));
            (RS, generate(&ir, &opts))
        }
        Err(diags) => {
            let mut text = String::new();
            for d in diags {
                writeln!(text, "{d}").unwrap();
            }
            (DIAGS, text)
        }
    }
}

/// A compact line diff: the first hunks of differing lines, each line with
/// its number in the expected (`-`) or generated (`+`) text.
fn line_diff(expected: &str, got: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let g: Vec<&str> = got.lines().collect();
    // Common prefix and suffix first: the LCS table then only covers the changed middle.
    let pre = e.iter().zip(&g).take_while(|(a, b)| a == b).count();
    let suf = e[pre..]
        .iter()
        .rev()
        .zip(g[pre..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (em, gm) = (&e[pre..e.len() - suf], &g[pre..g.len() - suf]);
    let ops = if em.len().saturating_mul(gm.len()) <= 16_000_000 {
        lcs_ops(em, gm)
    } else {
        // Too big to align: show the whole middle as replaced.
        let mut ops = vec![Op::Del; em.len()];
        ops.extend(vec![Op::Add; gm.len()]);
        ops
    };
    let mut out = String::new();
    let (mut i, mut j, mut shown, mut hidden) = (pre, pre, 0, 0);
    let mut in_hunk = false;
    for op in ops {
        let line = match op {
            Op::Same => {
                i += 1;
                j += 1;
                in_hunk = false;
                continue;
            }
            Op::Del => {
                i += 1;
                format!("  -{i:5} | {}\n", e[i - 1])
            }
            Op::Add => {
                j += 1;
                format!("  +{j:5} | {}\n", g[j - 1])
            }
        };
        if shown == DIFF_LINES {
            hidden += 1;
            continue;
        }
        if !in_hunk && shown > 0 {
            out += "  ...\n";
        }
        in_hunk = true;
        out += &line;
        shown += 1;
    }
    if hidden > 0 {
        writeln!(out, "  ... and {hidden} more differing line(s)").unwrap();
    }
    if shown == 0 {
        out += "  (the texts differ only in line endings or a final newline)\n";
    }
    out
}

#[derive(Clone, Copy)]
enum Op {
    Same,
    Del,
    Add,
}

/// Edit script from a longest-common-subsequence table.
fn lcs_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    let w = b.len() + 1;
    // lcs[i * w + j]: LCS length of a[i..] and b[j..].
    let mut lcs = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j, mut ops) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push(Op::Same);
            i += 1;
            j += 1;
        } else if j == b.len() || (i < a.len() && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            ops.push(Op::Del);
            i += 1;
        } else {
            ops.push(Op::Add);
            j += 1;
        }
    }
    ops
}

/// Check (or bless) one case; `Err` describes the failure.
fn check(dir: &Path, bless: bool) -> Result<(), String> {
    let case = dir.file_name().unwrap().to_string_lossy().into_owned();
    let input = fs::read_to_string(dir.join("input.yaml"))
        .map_err(|e| format!("{case}: cannot read input.yaml: {e}"))?;
    let (kind, got) = run(&case, input);
    let other = if kind == RS { DIAGS } else { RS };
    if bless {
        let write = |name: &str, text: &str| {
            fs::write(dir.join(name), text).map_err(|e| format!("{case}: cannot write {name}: {e}"))
        };
        write(kind, &got)?;
        if dir.join(other).exists() {
            fs::remove_file(dir.join(other))
                .map_err(|e| format!("{case}: cannot remove {other}: {e}"))?;
            eprintln!("golden: {case}: now {kind} (removed {other})");
        }
        return Ok(());
    }
    let (has_rs, has_diags) = (dir.join(RS).exists(), dir.join(DIAGS).exists());
    match (has_rs, has_diags) {
        (false, false) => {
            return Err(format!(
                "{case}: no {RS} or {DIAGS}; run with BLESS=1 to create it"
            ))
        }
        (true, true) => return Err(format!("{case}: both {RS} and {DIAGS}; keep one")),
        _ => {}
    }
    if !dir.join(kind).exists() {
        let what = if kind == RS {
            "compiles but was expected to fail".to_string()
        } else {
            format!("was expected to compile but fails:\n{got}")
        };
        return Err(format!("{case}: {what}\n  {HOW}"));
    }
    let expected = fs::read_to_string(dir.join(kind))
        .map_err(|e| format!("{case}: cannot read {kind}: {e}"))?
        .replace("\r\n", "\n");
    if expected == got {
        return Ok(());
    }
    Err(format!(
        "{case}: output differs from {kind}\n{}  {HOW}",
        line_diff(&expected, &got)
    ))
}

#[test]
fn golden() {
    let mut dirs: Vec<PathBuf> = fs::read_dir(cases_dir())
        .expect("tests/cases")
        .map(|e| e.expect("tests/cases entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no cases under tests/cases");
    let bless = blessing();
    let failures: Vec<String> = dirs.iter().filter_map(|d| check(d, bless).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} golden case(s) failed:\n\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
}

/// The built-in descriptions of the `regdefs!` path (`perfregs_regdefs::FILES`),
/// loaded once per process.
fn built_in() -> &'static perfregs_codegen::BuiltIn {
    static B: std::sync::OnceLock<perfregs_codegen::BuiltIn> = std::sync::OnceLock::new();
    B.get_or_init(|| {
        perfregs_codegen::BuiltIn::from_files(perfregs_regdefs::FILES).expect("the shipped files")
    })
}
