//! perfregs-codegen: one pipeline from register descriptions to Rust.
//!
//! `load` (YAML -> model, located syntax/shape errors) -> `resolve` (values
//! interpreted, located errors; what did not resolve stays `None`) ->
//! `validate` (independent passes, then the checked types of
//! `validate::checked`, without those `None`s) -> `lower` (checked types ->
//! IR: arrays kept with a count per project, layouts shared, cross
//! references as indices) -> `emit` (tokens with `quote`) or `export` (C,
//! Markdown, SVD from `ir::Element`). Each stage runs only if the previous
//! one reported nothing. The HAL's build script, the `regdefs!` proc-macro
//! and the CLI all call it.
//!
//! The public API is what those callers use: the entry points
//! ([`compile_path`], [`compile_path_with`], [`compile_sources`],
//! [`compile_user_sources`] with its [`BuiltIn`] descriptions, [`generate`]),
//! [`build::Config`] for build scripts, the IR ([`ir`], [`model`]'s vocabulary), diagnostics
//! ([`diag`]), the exporters ([`export`]), the metric-set front end
//! ([`metrics`]) and the emulator's bindings and conformance code
//! ([`bindings`], [`conformance`]). The passes (`load`, `resolve`,
//! `validate`, `lower`, `sections`, `layout`, `gpu`, ...) are private.
//!
//! The generator holds no descriptions of its own: the callers pass them
//! (a folder, files, the built-in set, the metric sets and their errata),
//! so editing a description rebuilds the callers' inputs, not the generator.

pub mod access;
pub mod bindings;
pub mod build;
pub mod conformance;
mod devices;
pub mod diag;
pub mod emit;
pub mod export;
mod gpu;
pub mod ir;
mod layout;
mod load;
mod locate;
mod lower;
pub mod metrics;
pub mod model;
mod projects;
mod resolve;
mod restrict;
mod sections;
pub mod timing;
mod validate;
mod yaml;

use diag::{Code, Diagnostic, Diagnostics, Pos};
use load::{Document, Loaded};
use std::path::{Path, PathBuf};

pub use diag::Diagnostic as Error;
pub use emit::EmitOptions;
pub use ir::Ir;

/// Compile already-read sources `(name, text)` into the IR. A catalogue must be
/// among them or given as `catalogue`.
pub fn compile_sources(
    sources: &[(String, String)],
    catalogue: Option<(&str, &str)>,
) -> Result<Ir, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    let mut loaded: Vec<Loaded> = sources
        .iter()
        .filter_map(|(n, t)| load::load_str(n, t, &mut diags))
        .collect();
    let facts = with_catalogue(&mut loaded, catalogue, &mut diags);
    compile_loaded(loaded, diags, facts, false)
}

/// Add `catalogue` to `loaded` when no input is a catalogue, and say how
/// much of the catalogue the compile then checks ([`Facts`]: only the
/// projects of an added one).
fn with_catalogue(
    loaded: &mut Vec<Loaded>,
    catalogue: Option<(&str, &str)>,
    diags: &mut Diagnostics,
) -> Facts {
    let Some((name, text)) = catalogue else {
        return Facts::Gpu;
    };
    if loaded
        .iter()
        .any(|l| matches!(l.doc, Document::Catalogue(_)))
    {
        return Facts::Gpu;
    }
    if let Some(l) = load::load_str(name, text, diags) {
        loaded.push(l);
    }
    Facts::ProjectsOnly
}

/// The built-in descriptions a user's own are compiled against (the
/// `regdefs!` path, [`compile_user_sources`]): a catalogue and description
/// blocks, loaded once and reused for every compile (the compiler keeps a
/// proc-macro loaded for a whole crate, so a crate with several `regdefs!`
/// can parse them once). Blocks are marked external; the catalogue is not.
#[derive(Debug, Clone)]
pub struct BuiltIn {
    loaded: Vec<Loaded>,
}

impl BuiltIn {
    /// Load already-read files `(name, text)`, such as `perfregs_regdefs::FILES`;
    /// every problem found.
    pub fn from_files(files: &[(&str, &str)]) -> Result<BuiltIn, Vec<Diagnostic>> {
        let mut diags = Diagnostics::default();
        let trees = files
            .iter()
            .map(|(name, text)| {
                (
                    name.to_string(),
                    load::parse(&label(name), text, &mut diags),
                )
            })
            .collect();
        BuiltIn::from_trees(trees, diags)
    }

    /// The parsed form of `files` (as [`BuiltIn::from_files`] takes them),
    /// for [`BuiltIn::from_stored`]: a build script stores it, so that a
    /// load at every build of a user's crate skips the YAML parser. Errors
    /// are the syntax errors of the files.
    pub fn store(files: &[(&str, &str)]) -> Result<Vec<u8>, Vec<Diagnostic>> {
        let mut diags = Diagnostics::default();
        let trees: Vec<(&str, usize, Option<locate::PosIndex>)> = files
            .iter()
            .map(|(name, text)| {
                (
                    *name,
                    text.len(),
                    load::parse(&label(name), text, &mut diags),
                )
            })
            .collect();
        if !diags.is_empty() {
            return Err(diags.sorted());
        }
        let rows: Vec<(&str, usize, &locate::PosIndex)> = trees
            .iter()
            .filter_map(|(name, len, index)| Some((*name, *len, index.as_ref()?)))
            .collect();
        Ok(locate::stored::write(&rows))
    }

    /// [`BuiltIn::from_files`], with the trees of [`BuiltIn::store`] of the
    /// same files instead of parsing them. A store that does not read, or
    /// does not hold these files (names and lengths), is not used: the
    /// files are parsed, so the result is the same either way.
    pub fn from_stored(files: &[(&str, &str)], stored: &[u8]) -> Result<BuiltIn, Vec<Diagnostic>> {
        match read_store(files, stored) {
            Some(texts) => BuiltIn::from_trees(
                texts.into_iter().map(|t| (t.name, Some(t.index))).collect(),
                Diagnostics::default(),
            ),
            None => BuiltIn::from_files(files),
        }
    }

    /// Whether `stored` is a store of `files` that [`BuiltIn::from_stored`]
    /// uses (else it parses the files).
    pub fn store_holds(files: &[(&str, &str)], stored: &[u8]) -> bool {
        read_store(files, stored).is_some()
    }

    /// Deserialize the trees (`None`: a text with a syntax error, already
    /// in `diags`); only the catalogue is not external.
    fn from_trees(
        trees: Vec<(String, Option<locate::PosIndex>)>,
        mut diags: Diagnostics,
    ) -> Result<BuiltIn, Vec<Diagnostic>> {
        let loaded = trees
            .into_iter()
            .filter_map(|(name, index)| {
                let mut l = load::load_index(&label(&name), index?, &mut diags)?;
                l.source.external = !matches!(l.doc, Document::Catalogue(_));
                Some(l)
            })
            .collect();
        if diags.is_empty() {
            Ok(BuiltIn { loaded })
        } else {
            Err(diags.sorted())
        }
    }

    /// Load every description file of a folder (as [`compile_path`] reads
    /// it), such as the one a build uses.
    pub fn from_path(dir: &Path) -> Result<BuiltIn, Vec<Diagnostic>> {
        let (paths, ()) = input_files(dir)?;
        let mut files = Vec::new();
        for f in &paths {
            let text = std::fs::read_to_string(f).map_err(|e| {
                vec![Diagnostic::io(
                    f.display().to_string(),
                    format!("cannot read: {e}"),
                )]
            })?;
            files.push((load::relative_name(dir, f), text));
        }
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        BuiltIn::from_files(&refs)
    }

    /// How many files were loaded (the catalogue included).
    pub fn len(&self) -> usize {
        self.loaded.len()
    }

    /// Whether no file was loaded.
    pub fn is_empty(&self) -> bool {
        self.loaded.is_empty()
    }
}

/// The trees of `stored` if it is a store of `files` (names and lengths).
fn read_store(files: &[(&str, &str)], stored: &[u8]) -> Option<Vec<locate::stored::StoredText>> {
    locate::stored::read(stored).filter(|texts| {
        texts.len() == files.len()
            && (texts.iter().zip(files))
                .all(|(t, (name, text))| t.name == *name && t.len == text.len())
    })
}

/// How diagnostics name a built-in file.
fn label(name: &str) -> String {
    format!("<built-in {name}>")
}

/// Compile a user's own descriptions (the `regdefs!` path) against the
/// `built_in` ones (those of `perfregs-regdefs` for the proc-macro): their
/// catalogue and, unless the user's files describe power domains,
/// replication groups or an address map of their own, every built-in
/// description, so that user registers learn their wake domain and
/// replication group from the projects' maps (and clash loudly with a
/// built-in register of the same name or address). Built-in items are
/// marked external: emission refers to them in the HAL and does not repeat
/// them.
pub fn compile_user_sources(
    built_in: &BuiltIn,
    sources: &[(String, String)],
) -> Result<Ir, Vec<Diagnostic>> {
    compile_user_sources_inner(|| Ok(built_in), sources, true)
}

/// [`compile_user_sources`], with the built-in descriptions got by
/// `built_in` (such as a first load of them) on a second thread while the
/// user's files are parsed; its errors are returned as they are.
pub fn compile_user_sources_loading<'b>(
    built_in: impl FnOnce() -> Result<&'b BuiltIn, Vec<Diagnostic>> + Send,
    sources: &[(String, String)],
) -> Result<Ir, Vec<Diagnostic>> {
    compile_user_sources_inner(built_in, sources, true)
}

/// [`compile_user_sources_loading`]; `restrict`: restrict the built-in
/// items to the user's projects ([`restrict`]), which only the tests turn
/// off, to show that it changes nothing but the time taken.
fn compile_user_sources_inner<'b>(
    built_in: impl FnOnce() -> Result<&'b BuiltIn, Vec<Diagnostic>> + Send,
    sources: &[(String, String)],
    restrict: bool,
) -> Result<Ir, Vec<Diagnostic>> {
    let mut t = timing::Phases::start();
    let mut diags = Diagnostics::default();
    let (user, built_in) = std::thread::scope(|s| {
        let loading = s.spawn(built_in);
        let user: Vec<Loaded> = sources
            .iter()
            .filter_map(|(n, t)| load::load_str(n, t, &mut diags))
            .collect();
        match loading.join() {
            Ok(built_in) => (user, built_in),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    let built_in = built_in?;
    t.mark("load user file(s), and the built-in ones beside");
    let own_catalogue = user.iter().any(|l| matches!(l.doc, Document::Catalogue(_)));
    let own_maps = user.iter().any(|l| match &l.doc {
        Document::Block(b) => {
            !b.power_domains.is_empty()
                || !b.replication_groups.is_empty()
                || !b.address_map.is_empty()
        }
        Document::Catalogue(_) | Document::Devices(_) => false,
    });
    // Built-in files first, so a clash is reported at the user's register.
    let mut loaded: Vec<Loaded> = built_in
        .loaded
        .iter()
        .filter(|l| match l.doc {
            Document::Catalogue(_) => !own_catalogue,
            Document::Block(_) => !own_maps,
            // The built-in device table is the HAL's; a user's is checked on its own.
            Document::Devices(_) => false,
        })
        .cloned()
        .collect();
    loaded.extend(user);
    t.mark("copy built-in descriptions");
    compile_loaded(loaded, diags, Facts::ProjectsOnly, restrict)
}

/// Compile every `*.yaml` file of a folder, or one file; the inputs must
/// hold the project catalogue (`projects.yaml`), else see
/// [`compile_path_with`].
///
/// Diagnostics name the files as found under `path`; generated output names
/// them relative to the folder (`oa_gen7.yaml:12:5`), so it does not depend on
/// where the folder is.
pub fn compile_path(path: &Path) -> Result<Ir, Vec<Diagnostic>> {
    compile_path_inner(path, None)
}

/// [`compile_path`], with `catalogue` `(name, text)` (such as
/// `perfregs_regdefs::PROJECTS_YAML`) added when the inputs hold none: for
/// a few description files of one's own.
pub fn compile_path_with(path: &Path, catalogue: (&str, &str)) -> Result<Ir, Vec<Diagnostic>> {
    compile_path_inner(path, Some(catalogue))
}

fn compile_path_inner(path: &Path, catalogue: Option<(&str, &str)>) -> Result<Ir, Vec<Diagnostic>> {
    let (files, _) = input_files(path)?;
    let mut diags = Diagnostics::default();
    let mut loaded: Vec<Loaded> = files
        .iter()
        .filter_map(|f| load::load_file_as(f, &load::relative_name(path, f), &mut diags))
        .collect();
    let facts = with_catalogue(&mut loaded, catalogue, &mut diags);
    let mut ir = compile_loaded(loaded, diags, facts, false)?;
    if path.is_dir() {
        // Every metric file of the folder belongs to a part of the catalogue.
        let files = gpu::metric_files(path).map_err(|e| {
            vec![Diagnostic::io(
                path.join("metricsets").display().to_string(),
                format!("cannot read: {e}"),
            )]
        })?;
        gpu::claim_metric_files(&mut ir, &files).map_err(|mut e| {
            for d in &mut e {
                d.file = path.join(&d.file).display().to_string();
            }
            e
        })?;
    }
    Ok(ir)
}

/// The description files a path stands for (for `rerun-if-changed`).
pub fn input_files(path: &Path) -> Result<(Vec<PathBuf>, ()), Vec<Diagnostic>> {
    load::yaml_files(path).map(|f| (f, ())).map_err(|e| {
        vec![Diagnostic::io(
            path.display().to_string(),
            format!("cannot read: {e}"),
        )]
    })
}

/// How much of the catalogue a compile checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Facts {
    /// The inputs bring their own catalogue: check and lower its GPU facts
    /// (`gpu:`) against the descriptions, when these are a whole set
    /// ([`gpu::whole`]).
    Gpu,
    /// The catalogue is the standard one added beside a few files, or a
    /// user's descriptions beside the built-in ones (`regdefs!`): the GPU
    /// facts are the HAL's, not checked again.
    ProjectsOnly,
}

/// `restrict`: restrict the external (built-in) items to the projects of
/// the others ([`restrict`]).
fn compile_loaded(
    loaded: Vec<Loaded>,
    mut diags: Diagnostics,
    facts: Facts,
    restrict: bool,
) -> Result<Ir, Vec<Diagnostic>> {
    let mut t = timing::Phases::start();
    let mut catalogue = None;
    for l in &loaded {
        if let Document::Catalogue(c) = &l.doc {
            if catalogue.is_some() {
                diags.push(l.source.diag(
                    Code::Shape,
                    "families",
                    "",
                    "a second project catalogue; only one is allowed".into(),
                ));
                continue;
            }
            let (cat, errors) = projects::Catalogue::from_file(c);
            for (path, msg) in errors {
                diags.push(l.source.diag(Code::UnknownProject, &path, "", msg));
            }
            catalogue = Some(cat);
        }
    }
    let Some(cat) = catalogue else {
        let names: Vec<&str> = loaded.iter().map(|l| l.source.name.as_str()).collect();
        diags.push(Diagnostic {
            code: Code::Shape,
            file: "<input>".into(),
            pos: Pos { line: 1, column: 1 },
            item: String::new(),
            message: format!(
                "no project catalogue among the {} description file(s) read ({}): a \
                 description folder needs one, a file with top-level `families:` \
                 (the shipped one is regdefs/projects.yaml)",
                names.len(),
                names.join(", ")
            ),
        });
        return Err(diags.sorted());
    };
    let mut blocks: Vec<resolve::RBlock> = loaded
        .iter()
        .filter_map(|l| match &l.doc {
            Document::Block(b) => Some(resolve::resolve_block(&l.source, b, &cat, &mut diags)),
            Document::Catalogue(_) | Document::Devices(_) => None,
        })
        .collect();
    if restrict {
        restrict::restrict_external(&mut blocks);
    }
    t.mark("catalogue and resolve");
    let devices = devices::validate(&loaded, &cat, &mut diags);
    let Some(checked) = validate::validate(&blocks, &cat, &mut diags) else {
        return Err(diags.sorted());
    };
    t.mark("validate");
    let lowered = lower::lower(&checked, &cat).and_then(|mut ir| {
        ir.devices = devices::lower(devices);
        // The catalogue's GPU facts name formats, domains and registers of
        // the lowered descriptions.
        for l in loaded.iter().filter(|_| facts == Facts::Gpu) {
            if let Document::Catalogue(c) = &l.doc {
                if gpu::whole(c, &ir) {
                    ir.gpus = gpu::validate(c, &l.source, &ir, &mut diags);
                }
            }
        }
        if diags.is_empty() {
            Ok(ir)
        } else {
            Err(diags.sorted())
        }
    });
    t.mark("lower");
    lowered.map_err(|mut e| {
        e.sort_by(|a, b| {
            (&a.file, a.pos.line, a.pos.column).cmp(&(&b.file, b.pos.line, b.pos.column))
        });
        e
    })
}

/// Emit the IR as formatted Rust source text (as `rustfmt` would lay it out).
/// Runtime-table rows are laid one to a line, and runs of short list items
/// packed to 100 columns (rustfmt would give every item a line of its own).
pub fn generate(ir: &Ir, opts: &EmitOptions) -> String {
    let tokens = emit::emit(ir, opts);
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => layout::rows_on_one_line(&prettyplease::unparse(&file)),
        // Unreachable for tokens we emit; keep the unformatted text rather than fail.
        Err(_) => tokens.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in descriptions are every shipped file, loaded without
    /// a diagnostic (nothing is dropped silently from the `regdefs!` path),
    /// the same from the compiled-in files as from the folder; a file that
    /// does not load is reported, not dropped.
    #[test]
    fn files_load_clean() {
        let mut diags = Diagnostics::default();
        for (name, text) in perfregs_regdefs::FILES {
            assert!(load::load_str(name, text, &mut diags).is_some(), "{name}");
        }
        assert!(diags.is_empty(), "{:?}", diags.sorted());
        let built_in = BuiltIn::from_files(perfregs_regdefs::FILES).expect("shipped files");
        assert_eq!(built_in.len(), perfregs_regdefs::FILES.len());
        assert_eq!(
            built_in
                .loaded
                .iter()
                .filter(|l| !l.source.external)
                .count(),
            1,
            "only the catalogue is not external"
        );
        let from_dir =
            BuiltIn::from_path(Path::new(perfregs_regdefs::dir())).expect("shipped folder");
        let names = |b: &BuiltIn| -> Vec<(String, bool)> {
            b.loaded
                .iter()
                .map(|l| (l.source.name.clone(), l.source.external))
                .collect()
        };
        assert_eq!(names(&from_dir), names(&built_in));
        let bad = BuiltIn::from_files(&[("x.yaml", "block: [")]).expect_err("bad YAML");
        assert!(bad.iter().all(|d| d.file == "<built-in x.yaml>"), "{bad:?}");
    }

    /// The built-in descriptions load the same from their stored trees as
    /// from their texts; a store of other files, or bytes that are not a
    /// store, are not used (the texts are parsed).
    #[test]
    fn stored_built_ins_load_the_same() {
        let files = perfregs_regdefs::FILES;
        let from_texts = format!("{:?}", BuiltIn::from_files(files).expect("shipped files"));
        let stored = BuiltIn::store(files).expect("shipped files parse");
        let from_store = BuiltIn::from_stored(files, &stored).expect("stored");
        assert_eq!(format!("{from_store:?}"), from_texts);
        let fewer = BuiltIn::store(&files[1..]).expect("parse");
        assert!(BuiltIn::store_holds(files, &stored));
        for other in [&fewer[..], b"not a store", &stored[..stored.len() - 1]] {
            assert!(!BuiltIn::store_holds(files, other));
            let b = BuiltIn::from_stored(files, other).expect("parsed again");
            assert_eq!(format!("{b:?}"), from_texts);
        }
        let bad = BuiltIn::store(&[("x.yaml", "block: [")]).expect_err("bad YAML");
        assert!(bad.iter().all(|d| d.file == "<built-in x.yaml>"), "{bad:?}");
    }

    /// Restricting the built-in items to the user's projects changes
    /// neither the generated code nor the diagnostics of any golden case
    /// (each case's projects differ), nor of a file on every project.
    #[test]
    fn restricting_built_ins_changes_nothing() {
        let built_in = BuiltIn::from_files(perfregs_regdefs::FILES).expect("shipped files");
        let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
        let mut inputs: Vec<(String, String)> = std::fs::read_dir(&cases)
            .expect("cases")
            .filter_map(|e| {
                let dir = e.ok()?.path();
                let text = std::fs::read_to_string(dir.join("input.yaml")).ok()?;
                let case = dir.file_name()?.to_string_lossy().into_owned();
                Some((format!("{case}/input.yaml"), text))
            })
            .collect();
        assert!(inputs.len() > 10, "{} cases", inputs.len());
        let every = "block: every\nspace: mmio\nsource: test\nregisters:\n  - { name: EVERY, \
                     projects: \"snb+\", address: 0x2404, fields: [ { name: go, bits: 0, access: RW } ] }\n";
        inputs.push(("every.yaml".into(), every.into()));
        let opts = EmitOptions::for_macro(quote::quote!(::perfregs::hal));
        for (name, text) in inputs {
            let src = [(name.clone(), text)];
            let restricted = compile_user_sources_inner(|| Ok(&built_in), &src, true);
            assert!(name != "every.yaml" || restricted.is_ok(), "{restricted:?}");
            let whole = compile_user_sources_inner(|| Ok(&built_in), &src, false);
            let same = match (&restricted, &whole) {
                (Ok(a), Ok(b)) => generate(a, &opts) == generate(b, &opts),
                (Err(a), Err(b)) => format!("{a:?}") == format!("{b:?}"),
                _ => false,
            };
            let summary = |r: &Result<Ir, Vec<Diagnostic>>| match r {
                Ok(_) => "compiles".to_string(),
                Err(d) => d.iter().map(|d| format!("{d}; ")).collect(),
            };
            assert!(
                same,
                "{name}: restricted {}, whole {}",
                summary(&restricted),
                summary(&whole)
            );
        }
    }

    /// `row_at` finds the row holding an address, on that project only, and
    /// nothing in a gap or past the last row.
    #[test]
    fn row_at_searches_sorted_rows() {
        let ir = compile_path(Path::new(perfregs_regdefs::dir())).expect("shipped descriptions");
        let tgl = ir.catalogue.find("tgl").expect("tgl");
        let hsw = ir.catalogue.find("hsw").expect("hsw");
        for r in ir.map.iter() {
            for at in [r.start, r.end, r.start + (r.end - r.start) / 2] {
                assert_eq!(ir.row_at(r.project, at), Some(r));
            }
        }
        assert_eq!(
            ir.row_at(tgl, 0x9400).and_then(|r| r.wake.as_deref()),
            Some("gt")
        );
        assert_eq!(ir.row_at(tgl, 0x30_0000), None);
        assert_eq!(
            ir.row_at(hsw, 0x9400).and_then(|r| r.wake.as_deref()),
            Some("render")
        );
        assert_eq!(ir.row_at(hsw, 0x4_0000), None);
    }
}
