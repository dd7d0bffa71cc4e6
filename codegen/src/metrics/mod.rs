//! Metric sets: the i915 OA configurations (IGT `lib/i915/perf-configs/`
//! XML) read with positions, their register writes checked against the
//! descriptions, and their counter equations parsed, type-checked,
//! interpreted and compiled to Rust.
//!
//! Passes: `xml` (text -> [`model`], located syntax and shape errors) ->
//! `equation` (RPN -> typed expressions) -> `check` (register writes against
//! the [`Ir`]) -> `interp` (run-time values) / `emit` (Rust).
//! [`load`] runs the first three.

pub mod check;
pub mod emit;
pub mod equation;
pub mod errata;
pub mod interp;
pub mod lines;
pub mod model;
pub mod xml;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::Ir;

/// A metric-set file that passed every check.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// What the file says.
    pub file: model::MetricFile,
    /// Its typed equations.
    pub checked: equation::CheckedFile,
    /// One register-write report per set.
    pub reports: Vec<check::SetReport>,
}

/// Read `text` (metric-set XML named `file`) and check it against project
/// `project` of `ir`: XML shape, names, equations (typed against the
/// project's report formats, with `errata` applied: [`errata::read`] or
/// [`errata::parse`]) and every register write (against its descriptions).
/// Every problem found is returned, sorted by position.
pub fn load(
    ir: &Ir,
    project: &str,
    file: &str,
    text: &str,
    errata: &[errata::Erratum],
) -> Result<Loaded, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    let Some(f) = xml::read(file, text, &mut diags) else {
        return Err(diags.sorted());
    };
    emit::check_names(&f, &mut diags);
    let Some(caps) = equation::FormatCaps::of(ir, project) else {
        diags.push(Diagnostic {
            code: Code::UnknownProject,
            file: file.to_string(),
            pos: Default::default(),
            item: String::new(),
            message: format!("project `{project}` has no report format in the descriptions"),
        });
        return Err(diags.sorted());
    };
    let checked = equation::check_file(&f, &caps, errata, &mut diags);
    let reports = check::check_file(ir, project, &f, &mut diags);
    match checked {
        Some(checked) if diags.is_empty() => Ok(Loaded {
            file: f,
            checked,
            reports,
        }),
        _ => Err(diags.sorted()),
    }
}

/// One shipped metric-set file, loaded.
#[derive(Debug, Clone)]
pub struct Shipped {
    /// Its name in the list given to [`load_shipped`] (`metricsets/oa-bdw.xml`).
    pub file: &'static str,
    /// Its project (`bdw`).
    pub project: &'static str,
    /// What [`load`] made of it.
    pub loaded: Loaded,
}

/// [`load_shipped`] with the errata given as the text of an errata file
/// ([`errata::FILE`], `perfregs_regdefs::METRIC_ERRATA` for the shipped
/// one), parsed first: its diagnostic is returned like a file's.
pub fn load_shipped_texts(
    ir: &Ir,
    sets: &[(&'static str, &'static str, &'static str)],
    errata_text: &str,
) -> Result<Vec<Shipped>, Vec<Diagnostic>> {
    let errata = errata::parse(errata::FILE, errata_text).map_err(|d| vec![d])?;
    load_shipped(ir, sets, &errata)
}

/// Every metric-set file of `sets` ((file, project, text), in its order:
/// `perfregs_regdefs::METRIC_SETS` for the shipped ones) [`load`]ed against
/// `ir` with `errata` (`perfregs_regdefs::METRIC_ERRATA`, [`errata::parse`]d,
/// for those); the diagnostics of every file that fails.
pub fn load_shipped(
    ir: &Ir,
    sets: &[(&'static str, &'static str, &'static str)],
    errata: &[errata::Erratum],
) -> Result<Vec<Shipped>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for &(file, project, text) in sets {
        match load(ir, project, file, text, errata) {
            Ok(loaded) => out.push(Shipped {
                file,
                project,
                loaded,
            }),
            Err(d) => diags.extend(d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}
