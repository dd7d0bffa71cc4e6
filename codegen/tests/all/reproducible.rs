//! Generated code does not depend on where the descriptions are: the HAL code
//! from two copies of `regdefs/` at different paths is byte-identical and names
//! no absolute path; diagnostics still name the files as given.

use perfregs_codegen::diag::Diagnostics;
use perfregs_codegen::{compile_path, generate, EmitOptions};
use std::path::{Path, PathBuf};

/// A fresh temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir =
            std::env::temp_dir().join(format!("perfregs-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create a temporary folder");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copy every description file of the shipped folder into `to` (created).
fn copy_regdefs(to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy's folder");
    let mut n = 0;
    for entry in std::fs::read_dir(perfregs_regdefs::dir()).expect("read regdefs/") {
        let path = entry.expect("a regdefs/ entry").path();
        if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).expect("copy a file");
            n += 1;
        }
    }
    // The metric files, which the catalogue's parts claim.
    std::fs::create_dir_all(to.join("metricsets")).expect("create metricsets/");
    for (name, _, text) in perfregs_regdefs::METRIC_SETS {
        std::fs::write(to.join(name), text).expect("copy a metric file");
    }
    assert_eq!(n, perfregs_regdefs::FILES.len());
}

fn hal_code(dir: &Path) -> String {
    let ir = compile_path(dir)
        .unwrap_or_else(|d| panic!("{} does not compile: {}", dir.display(), Diagnostics(d)));
    generate(&ir, &EmitOptions::for_hal())
}

#[test]
fn hal_code_is_the_same_in_every_checkout_path() {
    let tmp = TempDir::new("repro");
    let a = tmp.0.join("a").join("regdefs");
    let b = tmp
        .0
        .join("checkout two")
        .join("deeper")
        .join("descriptions");
    copy_regdefs(&a);
    copy_regdefs(&b);
    // The three generations side by side (each is single-threaded).
    let (code_a, code_b, code_shipped) = std::thread::scope(|s| {
        let one = s.spawn(|| hal_code(&b));
        let two = s.spawn(|| hal_code(Path::new(perfregs_regdefs::dir())));
        let code_a = hal_code(&a);
        let join = |h: std::thread::ScopedJoinHandle<'_, String>| {
            h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
        };
        (code_a, join(one), join(two))
    });
    assert!(
        code_a == code_b,
        "generated HAL code differs between {} and {}",
        a.display(),
        b.display()
    );
    // The same again from the shipped folder itself.
    assert!(code_a == code_shipped);

    let prefixes = [
        tmp.0.display().to_string(),
        std::env::temp_dir().display().to_string(),
        perfregs_regdefs::dir().to_string(),
        env!("CARGO_MANIFEST_DIR").to_string(),
    ];
    for p in &prefixes {
        if let Some(i) = code_a.find(p.as_str()) {
            let line = code_a[..i].lines().count();
            panic!("generated code names the absolute path {p} (line {line})");
        }
    }
    // Source positions are relative to the description folder.
    assert!(
        code_a.contains("`oa_gen7.yaml:"),
        "defined-at positions name the file relative to the folder"
    );
}

#[test]
fn diagnostics_name_the_file_as_given() {
    let tmp = TempDir::new("diag");
    let dir = tmp.0.join("regdefs");
    copy_regdefs(&dir);
    let broken = dir.join("zz_broken.yaml");
    std::fs::write(
        &broken,
        "block: broken\nspace: mmio\nsource: test\nregisters:\n  - { name: BROKEN, projects: nosuch, address: 0x10 }\n",
    )
    .expect("write a broken file");
    let diags = compile_path(&dir).expect_err("an unknown project is an error");
    let want = broken.display().to_string();
    assert!(
        diags.iter().any(|d| d.file == want),
        "diagnostics name {want}: {diags:?}"
    );
}
