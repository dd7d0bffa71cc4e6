//! Lists `metricsets/*.xml` for `METRIC_SETS`: each file with the project
//! whose catalogue part (`projects.yaml`, `gpu: parts: - chipset:`) names
//! the file's `chipset`. A file no part claims stops the build (the
//! generator reports the same with its line and column). With
//! `PERFREGS_REGDEFS` set, the files and the catalogue are that folder's,
//! as the HAL's and the metric crate's are: the whole build moves together.
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-env-changed=PERFREGS_REGDEFS");
    let dir = std::env::var_os("PERFREGS_REGDEFS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let dir = dir.as_path();
    println!(
        "cargo:rerun-if-changed={}",
        dir.join("projects.yaml").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        dir.join("metricsets").display()
    );
    let catalogue = read(&dir.join("projects.yaml"));
    // (chipset, project): a project entry is `- name:` at the projects'
    // indent; its parts say `chipset: X` (block or flow style).
    let mut claims: Vec<(String, String)> = Vec::new();
    let mut project = String::new();
    for line in catalogue.lines() {
        let t = line.trim_start();
        if let Some(rest) = t
            .strip_prefix("- name:")
            .or_else(|| t.strip_prefix("- { name:"))
        {
            if line.len() - t.len() == 6 {
                project = word(rest);
            }
        }
        if let Some(at) = t.find("chipset:") {
            claims.push((word(&t[at + "chipset:".len()..]), project.clone()));
        }
    }
    let mut files: Vec<String> = std::fs::read_dir(dir.join("metricsets"))
        .unwrap_or_else(|e| fail(&format!("metricsets/: {e}")))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".xml"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// The shipped metric sets (`metricsets/*.xml`, copied unchanged from IGT's\n\
         /// `lib/i915/perf-configs/`): (file name relative to [`dir`], project, text),\n\
         /// sorted by name. Found in the folder; each file's project is the one whose\n\
         /// catalogue part has the file's `chipset` (`oa-tglgt1.xml` and\n\
         /// `oa-tglgt2.xml` both describe `tgl`).\n\
         pub const METRIC_SETS: &[(&str, &str, &str)] = &[\n",
    );
    for f in &files {
        let rel = format!("metricsets/{f}");
        let path = dir.join(&rel);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = read(&path);
        let chipset = text
            .find("chipset=\"")
            .map(|at| word(&text[at + "chipset=\"".len()..]))
            .unwrap_or_default();
        let Some((_, p)) = claims.iter().find(|(c, _)| *c == chipset) else {
            fail(&format!(
                "{rel}: no part of projects.yaml has chipset `{chipset}`; add it to its project's `gpu: parts:`"
            ));
        };
        let abs = path.display().to_string();
        let _ = writeln!(out, "    ({rel:?}, {p:?}, include_str!({abs:?})),");
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| fail("OUT_DIR unset")))
        .join("metric_sets.rs");
    if std::fs::read_to_string(&target).ok().as_deref() != Some(out.as_str()) {
        std::fs::write(&target, out)
            .unwrap_or_else(|e| fail(&format!("{}: {e}", target.display())));
    }
}

/// The leading name of `s` (letters, digits, `_`), after spaces.
fn word(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())))
}

fn fail(message: &str) -> ! {
    eprintln!("perfregs-regdefs: {message}");
    std::process::exit(1)
}
