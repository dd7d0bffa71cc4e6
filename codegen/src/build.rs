//! Build-script helpers: one way to compile the register descriptions into a
//! crate's `OUT_DIR`, used by the build scripts of `perfregs-hal`,
//! `perfregs-emu` and `perfregs-metrics`.
//!
//! A [`Config`] finds the descriptions (`$PERFREGS_REGDEFS`, else the folder
//! the build script names, `perfregs_regdefs::dir()` for the perfregs
//! crates, a build-dependency), prints the same `cargo:rerun-if-*` lines for every
//! crate (the variable, the folder, each file), compiles them, and writes a
//! crate's outputs only when their text changed, so a build with nothing
//! changed rebuilds nothing. Each output records the [fingerprint] of the
//! descriptions it was generated from (`DESCRIPTIONS_HASH`), and the crates
//! built on the HAL check at compile time that the HAL was generated from the
//! same ones.
//!
//! The generator itself does not depend on the descriptions (editing one
//! reruns the build scripts, which are cheap, not the generator's build).
//!
//! A build script is a few lines:
//!
//! ```no_run
//! // The body of `fn main` in the build script of a crate that includes
//! // `OUT_DIR/perfregs_generated.rs` (as `hal/build.rs` does), with
//! // `perfregs-regdefs` as a build-dependency:
//! if let Err(e) = perfregs_codegen::build::Config::new(perfregs_regdefs::dir()).hal() {
//!     // Each line as `cargo:warning` and on stderr, then exit status 1.
//!     e.exit();
//! }
//! ```
//!
//! Outside a build script (tests, tools), set the folders explicitly
//! (`descriptions` names the folder whatever `$PERFREGS_REGDEFS` says):
//!
//! ```no_run
//! # fn main() -> Result<(), perfregs_codegen::build::BuildError> {
//! use perfregs_codegen::build::Config;
//! let built = Config::new(perfregs_regdefs::dir())
//!     .descriptions("my-regdefs")
//!     .out_dir("/tmp/perfregs-out")
//!     .manifest_dir("hal")
//!     .hal()?;
//! println!("{} registers, fingerprint {:#018x}", built.ir.registers.len(), built.fingerprint);
//! # Ok(())
//! # }
//! ```
//!
//! [fingerprint]: fingerprint

use crate::diag::Diagnostic;
use crate::ir::Ir;
use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable that points every build script at another
/// description folder (the default is the one given to [`Config::new`]).
pub const REGDEFS_ENV: &str = "PERFREGS_REGDEFS";

/// The name of the constant every generated output defines (or, for the
/// emulator's bindings, checks): the [`fingerprint`] of its descriptions.
pub const HASH_CONST: &str = "DESCRIPTIONS_HASH";

/// How generated code names the HAL: `hal`, the library name of `perfregs-hal`.
const HAL: &str = "hal";

/// The variable in which a dependent's build script reads the projects the
/// HAL is compiled with (the HAL's `links = "perfregs_hal"` metadata).
pub const HAL_PROJECTS_ENV: &str = "DEP_PERFREGS_HAL_PROJECTS";

/// A 64-bit fingerprint (FNV-1a) of a description set: every description
/// file of `dir` (as [`crate::input_files`] lists them), by name relative to
/// the folder and content. It does not depend on where the folder is, only
/// on what it holds: two folders with the same files give the same value.
pub fn fingerprint(dir: &Path) -> Result<u64, BuildError> {
    let files = crate::input_files(dir)
        .map_err(|d| BuildError::diagnostics("the register descriptions", d))?
        .0;
    let mut h = Fnv::new();
    for f in &files {
        let text = std::fs::read(f).map_err(|e| BuildError::io(f, e))?;
        h.bytes(crate::load::relative_name(dir, f).as_bytes());
        h.bytes(&(text.len() as u64).to_le_bytes());
        h.bytes(&text);
    }
    // The metric files' names and chipsets: which part claims which file.
    let sets =
        crate::gpu::metric_files(dir).map_err(|e| BuildError::io(&dir.join("metricsets"), e))?;
    for (name, text) in &sets {
        h.bytes(name.as_bytes());
        let chipset = crate::gpu::chipset_of(text)
            .map(|(c, _)| c)
            .unwrap_or_default();
        h.bytes(chipset.as_bytes());
    }
    Ok(h.0)
}

/// FNV-1a, 64 bits: stable across Rust releases and machines (unlike
/// `DefaultHasher`), which a value compiled into two crates must be.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x0100_0000_01b3);
    }
}

/// What a build step failed on. [`BuildError::exit`] reports it the way a
/// build script should.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// Problems found in an input (the descriptions, `bindings.yaml`, a metric set).
    Diagnostics {
        /// The input, in words (`"the register descriptions"`, `"bindings.yaml"`).
        what: String,
        /// Every problem, located.
        diagnostics: Vec<Diagnostic>,
    },
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// Projects of the descriptions that have no cargo feature in the crate's
    /// manifest: their modules (each behind the feature of its name) would
    /// silently never compile.
    MissingFeatures {
        /// The manifest (`Cargo.toml`) read.
        manifest: PathBuf,
        /// The projects without a feature, in catalogue order.
        projects: Vec<String>,
    },
    /// An environment variable cargo sets for build scripts is missing (the
    /// helper runs outside a build script without the folder set on [`Config`]).
    MissingEnv(&'static str),
}

impl BuildError {
    fn diagnostics(what: &str, diagnostics: Vec<Diagnostic>) -> BuildError {
        BuildError::Diagnostics {
            what: what.to_string(),
            diagnostics,
        }
    }

    fn io(path: &Path, error: std::io::Error) -> BuildError {
        BuildError::Io {
            path: path.to_path_buf(),
            error,
        }
    }

    /// Report the error as a build script must and stop: every line as a
    /// `cargo:warning` (shown by cargo) and on stderr (kept in the build
    /// log), then exit with status 1.
    pub fn exit(self) -> ! {
        let package = std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "perfregs".into());
        for line in self.to_string().lines() {
            println!("cargo:warning={line}");
            eprintln!("{line}");
        }
        eprintln!("{package}: build failed");
        std::process::exit(1);
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Diagnostics { what, diagnostics } => {
                for d in diagnostics {
                    writeln!(f, "{d}")?;
                }
                write!(f, "perfregs: {} error(s) in {what}", diagnostics.len())
            }
            BuildError::Io { path, error } => {
                write!(f, "perfregs: cannot access {}: {error}", path.display())
            }
            BuildError::MissingFeatures { manifest, projects } => write!(
                f,
                "perfregs: project(s) {} have no cargo feature in {}: add `name = []` under [features] (and to `default`)",
                projects.join(", "),
                manifest.display()
            ),
            BuildError::MissingEnv(var) => write!(
                f,
                "perfregs: `{var}` is not set: run from a build script, or set the folder on build::Config"
            ),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The result of one build step: the compiled descriptions, their
/// fingerprint, where the outputs went and which inputs cargo now watches.
#[derive(Debug)]
pub struct Built {
    /// The compiled descriptions.
    pub ir: Ir,
    /// The [`fingerprint`] of the descriptions (the generated `DESCRIPTIONS_HASH`).
    pub fingerprint: u64,
    /// The folder the outputs were written to.
    pub out_dir: PathBuf,
    /// Every file and folder the step printed a `cargo:rerun-if-changed` line
    /// for, in order (the descriptions first, then the step's own inputs;
    /// [`Config::user_descriptions`] prints its own).
    pub inputs: Vec<PathBuf>,
}

impl Built {
    /// Write `text` to `name` in [`Built::out_dir`] unless the file already
    /// holds it (an unchanged output keeps its time stamp, so nothing that
    /// includes it is rebuilt). Returns whether the file was written.
    pub fn write(&self, name: &str, text: &str) -> Result<bool, BuildError> {
        write_if_changed(&self.out_dir.join(name), text)
    }
}

/// Write `text` to `path` unless the file already holds exactly it. Returns
/// whether the file was written.
pub fn write_if_changed(path: &Path, text: &str) -> Result<bool, BuildError> {
    if std::fs::read(path).ok().as_deref() == Some(text.as_bytes()) {
        return Ok(false);
    }
    std::fs::write(path, text).map_err(|e| BuildError::io(path, e))?;
    Ok(true)
}

/// How to find the inputs and where to write: every setting but the default
/// description folder has the default a build script wants, so
/// `Config::new(perfregs_regdefs::dir())` is the usual start. One `Config`
/// can run several steps.
#[derive(Clone, Debug)]
pub struct Config {
    default_descriptions: PathBuf,
    descriptions: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    manifest_dir: Option<PathBuf>,
    metric_projects: Option<Vec<String>>,
}

impl Config {
    /// Compile the description folder `default_descriptions` (the folder
    /// of the `perfregs-regdefs` crate, `perfregs_regdefs::dir()`, for the
    /// perfregs crates) unless `$PERFREGS_REGDEFS` names another; outputs in
    /// `$OUT_DIR`, the crate's own files under `$CARGO_MANIFEST_DIR`.
    pub fn new(default_descriptions: impl Into<PathBuf>) -> Config {
        Config {
            default_descriptions: default_descriptions.into(),
            descriptions: None,
            out_dir: None,
            manifest_dir: None,
            metric_projects: None,
        }
    }

    /// Compile this description folder, whatever `$PERFREGS_REGDEFS` says.
    pub fn descriptions(self, dir: impl Into<PathBuf>) -> Config {
        Config {
            descriptions: Some(dir.into()),
            ..self
        }
    }

    /// Write the outputs here instead of `$OUT_DIR`.
    pub fn out_dir(self, dir: impl Into<PathBuf>) -> Config {
        Config {
            out_dir: Some(dir.into()),
            ..self
        }
    }

    /// Resolve the crate's own inputs (its `Cargo.toml`, `bindings.yaml`,
    /// fixtures) against this folder instead of `$CARGO_MANIFEST_DIR`.
    pub fn manifest_dir(self, dir: impl Into<PathBuf>) -> Config {
        Config {
            manifest_dir: Some(dir.into()),
            ..self
        }
    }

    /// Generate the metric sets of these projects only, instead of those
    /// whose cargo feature is on (`CARGO_FEATURE_<PROJECT>` in a build script).
    pub fn metric_projects<S: AsRef<str>>(self, projects: &[S]) -> Config {
        Config {
            metric_projects: Some(projects.iter().map(|p| p.as_ref().to_string()).collect()),
            ..self
        }
    }

    /// Whether the metric sets of `project` are generated: those of the
    /// projects the HAL is compiled with (its build script's `projects`
    /// metadata, `DEP_PERFREGS_HAL_PROJECTS` in a dependent's build script),
    /// else of those whose cargo feature is on.
    fn metric_project_on(&self, project: &str) -> bool {
        match &self.metric_projects {
            Some(list) => list.iter().any(|p| p == project),
            None => match std::env::var(HAL_PROJECTS_ENV) {
                Ok(list) => list.split(',').any(|p| p == project),
                Err(_) => {
                    let var = format!("CARGO_FEATURE_{}", project.to_ascii_uppercase());
                    std::env::var_os(var).is_some()
                }
            },
        }
    }

    /// The description folder the steps compile: the one set with
    /// [`Config::descriptions`], else `$PERFREGS_REGDEFS`, else the default
    /// given to [`Config::new`].
    pub fn descriptions_dir(&self) -> PathBuf {
        if let Some(d) = &self.descriptions {
            return d.clone();
        }
        match std::env::var_os(REGDEFS_ENV) {
            Some(d) => PathBuf::from(d),
            // The folder itself, not a compiled-in list of its files: a
            // file added to the folder is seen without editing a list.
            None => self.default_descriptions.clone(),
        }
    }

    fn dir_from_env(set: &Option<PathBuf>, var: &'static str) -> Result<PathBuf, BuildError> {
        match set {
            Some(d) => Ok(d.clone()),
            None => std::env::var_os(var)
                .map(PathBuf::from)
                .ok_or(BuildError::MissingEnv(var)),
        }
    }

    /// A file of the crate being built (relative to its manifest folder).
    fn crate_file(&self, rel: &str) -> Result<PathBuf, BuildError> {
        Ok(Config::dir_from_env(&self.manifest_dir, "CARGO_MANIFEST_DIR")?.join(rel))
    }

    /// The common first step: find, watch, compile and fingerprint the
    /// descriptions.
    fn start(&self) -> Result<Built, BuildError> {
        let out_dir = Config::dir_from_env(&self.out_dir, "OUT_DIR")?;
        println!("cargo:rerun-if-env-changed={REGDEFS_ENV}");
        let dir = self.descriptions_dir();
        // The folder (a new or removed file) and each file (an edit).
        let mut built = Built {
            ir: Ir::default(),
            fingerprint: 0,
            out_dir,
            inputs: Vec::new(),
        };
        watch(&mut built.inputs, &dir);
        let (files, ()) = crate::input_files(&dir)
            .map_err(|d| BuildError::diagnostics("the register descriptions", d))?;
        for f in files {
            watch(&mut built.inputs, &f);
        }
        // The metric files the catalogue's parts claim.
        let sets = dir.join("metricsets");
        if sets.is_dir() {
            watch(&mut built.inputs, &sets);
            for (f, _) in crate::gpu::metric_files(&dir).map_err(|e| BuildError::io(&sets, e))? {
                watch(&mut built.inputs, &dir.join(f));
            }
        }
        built.ir = crate::compile_path(&dir)
            .map_err(|d| BuildError::diagnostics("the register descriptions", d))?;
        built.fingerprint = fingerprint(&dir)?;
        Ok(built)
    }

    /// Read a file of the crate being built and watch it.
    fn read_crate_file(&self, built: &mut Built, rel: &str) -> Result<String, BuildError> {
        let path = self.crate_file(rel)?;
        watch(&mut built.inputs, &path);
        std::fs::read_to_string(&path).map_err(|e| BuildError::io(&path, e))
    }

    /// The HAL (`perfregs-hal`): the register modules to
    /// `perfregs_generated.rs`, ending with `pub const DESCRIPTIONS_HASH`.
    /// Fails when a project of the descriptions has no cargo feature of its
    /// name in the crate's `Cargo.toml` (its module would never compile).
    pub fn hal(&self) -> Result<Built, BuildError> {
        let built = self.start()?;
        let manifest = self.crate_file("Cargo.toml")?;
        let text = std::fs::read_to_string(&manifest).map_err(|e| BuildError::io(&manifest, e))?;
        let features = cargo_features(&text);
        let missing: Vec<String> = built
            .ir
            .catalogue
            .tags()
            .filter(|n| !features.contains(n))
            .map(String::from)
            .collect();
        if !missing.is_empty() {
            return Err(BuildError::MissingFeatures {
                manifest,
                projects: missing,
            });
        }
        // The lists without a `cfg` of their own (`for_each_oa_project!`)
        // name the projects whose feature is on.
        let enabled = built
            .ir
            .catalogue
            .tags()
            .filter(|n| {
                std::env::var_os(format!("CARGO_FEATURE_{}", n.to_ascii_uppercase())).is_some()
            })
            .map(String::from)
            .collect::<Vec<String>>();
        // Crates that depend on the HAL follow its projects (`links`
        // metadata: `DEP_PERFREGS_HAL_PROJECTS` in their build scripts).
        println!("cargo:projects={}", enabled.join(","));
        let opts = crate::EmitOptions {
            enabled: std::env::var_os("CARGO_MANIFEST_DIR").map(|_| enabled),
            ..crate::EmitOptions::for_hal()
        };
        let mut code = crate::generate(&built.ir, &opts);
        code += &hash_const(built.fingerprint, "the HAL was generated from");
        built.write("perfregs_generated.rs", &code)?;
        Ok(built)
    }

    /// The emulator's bindings (`perfregs-emu`): resolves `spec` (a YAML file
    /// of the crate naming the registers and fields each emulated unit uses)
    /// against the descriptions into `bindings.rs`, which checks at compile
    /// time that the HAL was generated from the same descriptions.
    ///
    /// The crate follows the HAL's projects: each project the HAL is
    /// compiled with (`DEP_PERFREGS_HAL_PROJECTS`, else the crate's own
    /// `CARGO_FEATURE_<PROJECT>`) is `cfg(perfregs_hal = "<project>")` in
    /// it, so the crate keeps no feature list of its own.
    pub fn bindings(&self, spec: &str) -> Result<Built, BuildError> {
        let mut built = self.start()?;
        let names: Vec<String> = built.ir.catalogue.tags().map(String::from).collect();
        let values: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
        println!(
            "cargo::rustc-check-cfg=cfg(perfregs_hal, values({}))",
            values.join(", ")
        );
        for n in names.iter().filter(|n| self.metric_project_on(n)) {
            println!("cargo::rustc-cfg=perfregs_hal={n:?}");
        }
        let text = self.read_crate_file(&mut built, spec)?;
        let mut code = crate::bindings::generate(&built.ir, spec, &text, HAL)
            .map_err(|d| BuildError::diagnostics(spec, d))?;
        code += &same_hal_check(built.fingerprint);
        built.write("bindings.rs", &code)?;
        Ok(built)
    }

    /// The metric sets (`perfregs-metrics`): every file of the folder's
    /// `metricsets/` that a part of the catalogue claims and whose project
    /// is on (its cargo feature, or [`Config::metric_projects`]), checked
    /// against the descriptions with the folder's errata
    /// (`metricsets/errata.yaml`, [`errata::read`](crate::metrics::errata::read);
    /// watched too), to one module per file in `metrics_generated.rs`
    /// (the other files are watched, not read), ending with
    /// `pub const DESCRIPTIONS_HASH` and a compile-time check that the HAL was
    /// generated from the same descriptions.
    pub fn metric_sets(&self) -> Result<Built, BuildError> {
        use crate::metrics::{emit, errata, load};
        let mut built = self.start()?;
        // The files the catalogue's parts claim in the folder the
        // descriptions come from (`start` watched them).
        let dir = self.descriptions_dir();
        let errata_file = dir.join(errata::FILE);
        if errata_file.is_file() {
            watch(&mut built.inputs, &errata_file);
        }
        let errata = errata::read(&dir)
            .map_err(|d| BuildError::diagnostics(&errata_file.display().to_string(), vec![d]))?;
        let claimed: Vec<(String, String)> = built
            .ir
            .gpus
            .iter()
            .flat_map(|g| {
                let project = &built.ir.catalogue.projects[g.project].name;
                g.parts.iter().flat_map(move |p| {
                    p.metric_files
                        .iter()
                        .map(move |f| (f.clone(), project.clone()))
                })
            })
            .collect();
        let mut claimed = claimed;
        claimed.sort();
        let mut diags = Vec::new();
        let mut out = String::from("// Generated by perfregs-codegen's build::Config::metric_sets from the metricsets/*.xml of the descriptions. Do not edit.\n");
        let mut files = Vec::new();
        for (file, project) in &claimed {
            let (file, project) = (file.as_str(), project.as_str());
            if !self.metric_project_on(project) {
                continue;
            }
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).map_err(|e| BuildError::io(&path, e))?;
            let text = text.as_str();
            // Shape, names, equations and every register write, against the
            // descriptions of the file's project.
            let loaded = match load(&built.ir, project, file, text, &errata) {
                Ok(l) => l,
                Err(d) => {
                    diags.extend(d);
                    continue;
                }
            };
            let module = emit::module_name(file, project);
            let addresses = emit::hal_addresses(&built.ir, project, HAL);
            out += &emit::emit_file(&module, project, &loaded.file, &loaded.checked, &addresses);
            files.push((file.to_string(), project.to_string(), module));
        }
        if !diags.is_empty() {
            return Err(BuildError::diagnostics("the metric sets", diags));
        }
        out += &emit::emit_files_table(&files);
        out += &hash_const(built.fingerprint, "the metric sets were checked against");
        out += &same_hal_check(built.fingerprint);
        built.write("metrics_generated.rs", &out)?;
        Ok(built)
    }

    /// A crate's own descriptions (`rel`, relative to its manifest folder),
    /// compiled as `regdefs!` compiles a user's files, against the
    /// descriptions of [`Config::descriptions_dir`] as the
    /// [`BuiltIn`](crate::BuiltIn) ones; the file is watched (the folder is
    /// watched by the step run before, or should be). For build scripts
    /// that generate code for registers of their own, such as test fixtures.
    pub fn user_descriptions(&self, rel: &str) -> Result<Ir, BuildError> {
        let path = self.crate_file(rel)?;
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).map_err(|e| BuildError::io(&path, e))?;
        let built_in = crate::BuiltIn::from_path(&self.descriptions_dir())
            .map_err(|d| BuildError::diagnostics("the register descriptions", d))?;
        crate::compile_user_sources(&built_in, &[(rel.to_string(), text)])
            .map_err(|d| BuildError::diagnostics(rel, d))
    }
}

/// A compile-time check, in a crate built on the HAL, that the HAL was
/// generated from the descriptions of `fingerprint`.
fn same_hal_check(fingerprint: u64) -> String {
    format!(
        "\n// The HAL must be generated from the same descriptions as this file.\nconst _: () = assert!(::{HAL}::{HASH_CONST} == {fingerprint:#018x}_u64, \"perfregs: the HAL was generated from other register descriptions than this crate (PERFREGS_REGDEFS differs between the builds?)\");\n",
    )
}

/// Print `cargo:rerun-if-changed` for `path` and record it.
fn watch(inputs: &mut Vec<PathBuf>, path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
    inputs.push(path.to_path_buf());
}

/// The `pub const DESCRIPTIONS_HASH` item ending a generated file.
fn hash_const(fingerprint: u64, what: &str) -> String {
    format!(
        "\n/// Fingerprint of the register descriptions {what} (`perfregs_codegen::build::fingerprint`).\n/// Crates generated from the same description files hold the same value.\npub const {HASH_CONST}: u64 = {fingerprint:#018x}_u64;\n"
    )
}

/// The feature names declared under `[features]` of a `Cargo.toml`.
fn cargo_features(manifest: &str) -> Vec<&str> {
    let mut in_features = false;
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_features = line == "[features]";
        } else if in_features && !line.starts_with('#') {
            if let Some((key, _)) = line.split_once('=') {
                names.push(key.trim().trim_matches('"'));
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the target directory's temp area.
    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("perfregs-build-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch folder");
        d
    }

    fn copy_shipped(to: &Path) {
        std::fs::create_dir_all(to.join("metricsets")).expect("metricsets folder");
        for (name, _, text) in perfregs_regdefs::METRIC_SETS {
            std::fs::write(to.join(name), text).expect("copy");
        }
        for (name, text) in perfregs_regdefs::FILES {
            std::fs::write(to.join(name), text).expect("copy");
        }
        std::fs::write(
            to.join(crate::metrics::errata::FILE),
            perfregs_regdefs::METRIC_ERRATA,
        )
        .expect("copy");
    }

    #[test]
    fn fingerprint_follows_content_not_place() {
        let shipped = fingerprint(Path::new(perfregs_regdefs::dir())).expect("shipped");
        let copy = scratch("copy");
        copy_shipped(&copy);
        assert_eq!(fingerprint(&copy).expect("copy"), shipped);
        // One changed byte, a renamed file, an extra file: other values.
        let edited = scratch("edited");
        copy_shipped(&edited);
        let p4 = edited.join("p4.yaml");
        let text = std::fs::read_to_string(&p4).expect("p4");
        std::fs::write(&p4, text.replacen("0x", "0X", 1)).expect("edit");
        let e = fingerprint(&edited).expect("edited");
        assert_ne!(e, shipped);
        let extra = scratch("extra");
        copy_shipped(&extra);
        std::fs::write(extra.join("zz.yaml"), "block: zz\n").expect("extra");
        let x = fingerprint(&extra).expect("extra");
        assert_ne!(x, shipped);
        assert_ne!(x, e);
        let renamed = scratch("renamed");
        copy_shipped(&renamed);
        std::fs::rename(renamed.join("p4.yaml"), renamed.join("p5.yaml")).expect("rename");
        assert_ne!(fingerprint(&renamed).expect("renamed"), shipped);
        for d in [copy, edited, extra, renamed] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    /// A manifest folder with a feature for every shipped project and a
    /// small bindings spec (the crate's own inputs of the HAL and emulator steps).
    fn crate_folder(name: &str) -> PathBuf {
        let d = scratch(name);
        let ir = crate::compile_path(Path::new(perfregs_regdefs::dir())).expect("shipped");
        let mut m = String::from("[package]\nname = \"x\"\n\n[features]\n");
        for p in &ir.catalogue.projects {
            m += &format!("{} = []\n", p.name);
        }
        std::fs::write(d.join("Cargo.toml"), m).expect("manifest");
        std::fs::write(
            d.join("spec.yaml"),
            "units:\n  oa:\n    doc: The OA unit.\n    projects: [hsw]\n    roles:\n      enable: OACONTROL.counter_enable\n",
        )
        .expect("spec");
        d
    }

    /// A [`Config`] on the shipped descriptions, the [`crate_folder`] and a
    /// fresh output folder (returned too).
    fn shipped_config(name: &str) -> (Config, PathBuf) {
        let out = scratch(&format!("{name}-out"));
        let cfg = Config::new(perfregs_regdefs::dir())
            .descriptions(perfregs_regdefs::dir())
            .manifest_dir(crate_folder(&format!("{name}-crate")))
            .out_dir(&out);
        (cfg, out)
    }

    #[test]
    fn hal_step_writes_once_and_records_inputs() {
        let (cfg, out) = shipped_config("hal");
        let built = cfg.hal().expect("the shipped descriptions build");
        let path = out.join("perfregs_generated.rs");
        let code = std::fs::read_to_string(&path).expect("written");
        assert!(code.contains(&format!(
            "pub const DESCRIPTIONS_HASH: u64 = {:#018x}_u64;",
            built.fingerprint
        )));
        // The folder first, then every description file.
        let dir = PathBuf::from(perfregs_regdefs::dir());
        assert_eq!(built.inputs[0], dir);
        // ... and the metric files, whose chipsets give the parts their files.
        assert_eq!(
            built.inputs.len(),
            1 + perfregs_regdefs::FILES.len() + 1 + perfregs_regdefs::METRIC_SETS.len()
        );
        for (name, _, _) in perfregs_regdefs::METRIC_SETS {
            assert!(built.inputs.contains(&dir.join(name)), "{name}");
        }
        for (name, _) in perfregs_regdefs::FILES {
            assert!(built.inputs.contains(&dir.join(name)), "{name}");
        }
        // Unchanged text: not written again.
        assert!(!built.write("perfregs_generated.rs", &code).expect("same"));
        assert!(built.write("perfregs_generated.rs", "x").expect("other"));
        let _ = std::fs::remove_dir_all(out);
    }

    #[test]
    fn every_step_watches_the_same_descriptions() {
        let (cfg, out) = shipped_config("steps");
        let hal = cfg.hal().expect("hal");
        let emu = cfg.bindings("spec.yaml").expect("bindings");
        let metrics = cfg
            .clone()
            .metric_projects(&["bdw"])
            .metric_sets()
            .expect("metric sets");
        let n = hal.inputs.len();
        assert_eq!(emu.inputs[..n], hal.inputs[..]);
        assert_eq!(metrics.inputs[..n], hal.inputs[..]);
        assert_eq!(emu.inputs.len(), n + 1);
        assert!(emu.inputs[n].ends_with("spec.yaml"));
        // The metric files are the descriptions' own inputs (the parts
        // claim them), watched by every step; the metric step watches the
        // errata it applies too.
        assert_eq!(metrics.inputs.len(), n + 1);
        assert_eq!(
            metrics.inputs[n],
            Path::new(perfregs_regdefs::dir()).join(crate::metrics::errata::FILE)
        );
        assert_eq!(hal.fingerprint, emu.fingerprint);
        assert_eq!(hal.fingerprint, metrics.fingerprint);
        // Both crates built on the HAL check its fingerprint at compile time.
        let check = format!("::hal::DESCRIPTIONS_HASH == {:#018x}_u64", hal.fingerprint);
        for f in ["bindings.rs", "metrics_generated.rs"] {
            let text = std::fs::read_to_string(out.join(f)).expect("written");
            assert!(text.contains(&check), "{f}");
        }
        // Only the files of the projects asked for are generated.
        let generated = std::fs::read_to_string(out.join("metrics_generated.rs")).expect("written");
        assert!(generated.contains("pub mod bdw"), "bdw");
        for other in ["pub mod hsw", "pub mod tgl_gt1", "pub mod skl_gt2"] {
            assert!(!generated.contains(other), "{other}");
        }
        let _ = std::fs::remove_dir_all(out);
    }

    #[test]
    fn a_project_without_a_feature_fails() {
        let manifest = scratch("manifest");
        std::fs::write(
            manifest.join("Cargo.toml"),
            "[package]\nname = \"x\"\n\n[features]\ndefault = [\"tgl\"]\ntgl = []\n\"p4\" = []\n",
        )
        .expect("manifest");
        let out = scratch("manifest-out");
        let err = Config::new(perfregs_regdefs::dir())
            .descriptions(perfregs_regdefs::dir())
            .manifest_dir(&manifest)
            .out_dir(&out)
            .hal()
            .expect_err("projects without features");
        let BuildError::MissingFeatures { projects, .. } = &err else {
            panic!("{err}");
        };
        assert!(projects.iter().any(|p| p == "hsw"), "{projects:?}");
        assert!(!projects.iter().any(|p| p == "tgl" || p == "p4"));
        assert!(err.to_string().contains("have no cargo feature"));
        assert!(!out.join("perfregs_generated.rs").exists());
        let _ = std::fs::remove_dir_all(manifest);
        let _ = std::fs::remove_dir_all(out);
    }

    #[test]
    fn errors_are_reported_with_their_location() {
        let bad = scratch("bad");
        copy_shipped(&bad);
        std::fs::write(bad.join("zz.yaml"), "block: zz\nspace: nowhere\n").expect("bad file");
        let err = Config::new(perfregs_regdefs::dir())
            .descriptions(&bad)
            .out_dir(&bad)
            .metric_sets()
            .expect_err("a bad description");
        let text = err.to_string();
        assert!(text.contains("zz.yaml"), "{text}");
        assert!(
            text.ends_with("error(s) in the register descriptions"),
            "{text}"
        );
        let e: &dyn std::error::Error = &err;
        assert!(e.source().is_none());
        let _ = std::fs::remove_dir_all(bad);
    }

    /// The metric step applies the errata of the folder it compiles: without
    /// them a shipped file that needs one fails; a broken errata file fails
    /// at its line.
    #[test]
    fn metric_sets_take_the_folder_s_errata() {
        let dir = scratch("errata");
        copy_shipped(&dir);
        let cfg = Config::new(perfregs_regdefs::dir())
            .descriptions(&dir)
            .out_dir(&dir)
            .metric_projects(&["icl"]);
        assert_eq!(cfg.descriptions_dir(), dir);
        let built = cfg.metric_sets().expect("with the errata");
        assert!(built
            .inputs
            .contains(&dir.join(crate::metrics::errata::FILE)));
        std::fs::remove_file(dir.join(crate::metrics::errata::FILE)).expect("remove");
        let err = cfg.metric_sets().expect_err("an erratum is needed");
        assert!(
            err.to_string().contains("error(s) in the metric sets"),
            "{err}"
        );
        std::fs::write(
            dir.join(crate::metrics::errata::FILE),
            "errata:\n  - set: A\n    fixx: 1\n",
        )
        .expect("write");
        let text = cfg
            .metric_sets()
            .expect_err("a bad errata file")
            .to_string();
        assert!(text.contains("metricsets/errata.yaml:"), "{text}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn outside_a_build_script_the_folders_must_be_set() {
        if std::env::var_os("OUT_DIR").is_some() {
            return;
        }
        let err = Config::new(perfregs_regdefs::dir())
            .hal()
            .expect_err("no OUT_DIR");
        assert!(matches!(err, BuildError::MissingEnv("OUT_DIR")));
        assert!(err.to_string().contains("OUT_DIR"));
    }

    #[test]
    fn features_are_read_from_the_features_table_only() {
        let m = "[package]\nname = \"x\"\nsnb = 1\n[features]\n# a = []\ndefault = []\nivb = []\n\"hsw\" = [\"ivb\"]\n[dependencies]\ntgl = \"1\"\n";
        assert_eq!(cargo_features(m), ["default", "ivb", "hsw"]);
    }
}
