//! Errata of the metric files of a description folder
//! (`metricsets/errata.yaml`; the shipped ones are
//! `perfregs_regdefs::METRIC_ERRATA`): a named counter whose exact equation
//! the checker accepts with a stated fix. Nothing else is relaxed: an
//! erratum applies to one set's counter with one equation text only, and the
//! checker reports every erratum it applied.

use crate::diag::Diagnostic;
use serde::Deserialize;
use std::path::Path;

/// The errata file's name, relative to its description folder.
pub const FILE: &str = "metricsets/errata.yaml";

/// What the checker does for an erratum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fix {
    /// A float equation of a `uint64` counter is converted as IGT's C does
    /// (truncated toward zero; Rust `as u64` saturates, NaN gives 0).
    TruncateToUint,
    /// The counter reads `A n` in a set whose format has MPEC counters:
    /// perfregs reads MPEC n (the file's meaning); IGT's generated C reads
    /// the report's n-th accumulated value from its start (so `A 0` is the
    /// timestamp delta). Nothing is relaxed: the erratum names the
    /// difference, and applies only where the equation reads MPEC.
    IgtReadsHeader,
}

impl Fix {
    /// The name the errata file uses (`truncate_to_uint`).
    pub fn name(self) -> &'static str {
        match self {
            Fix::TruncateToUint => "truncate_to_uint",
            Fix::IgtReadsHeader => "igt_reads_header",
        }
    }
}

/// One erratum.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Erratum {
    /// The chipsets whose files carry it (documentation).
    pub chipsets: Vec<String>,
    /// The set's `symbol_name`.
    pub set: String,
    /// The counter's `symbol_name`.
    pub counter: String,
    /// The exact `equation` text it was written for.
    pub equation: String,
    /// The fix.
    pub fix: Fix,
    /// Why.
    pub note: String,
    /// Its line in the errata file (filled in when loaded).
    #[serde(skip)]
    pub line: usize,
}

/// What IGT's generated C computes for a device variable whose erratum is
/// listed ([`VariableErratum`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IgtValue {
    /// Never available (0).
    Never,
    /// Xe core `n` of the flattened Xe core mask, whatever the slice.
    XeCoreNOfAnySlice,
    /// Xe core 0, whatever `n`.
    #[serde(rename = "xe_core_0")]
    XeCore0,
}

/// A device variable that IGT's generated C computes other than its
/// definition; perfregs computes the definition.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariableErratum {
    /// The chipsets whose files name it.
    pub chipsets: Vec<String>,
    /// The variable's pattern: `GtSlice<s>`, `GtSlice<s>XeCore<n>`, `GtXeCore<n>`.
    pub variable: String,
    /// What IGT computes.
    pub igt: IgtValue,
    /// Why.
    pub note: String,
}

impl VariableErratum {
    /// Whether `t` is of this erratum's pattern.
    pub fn matches(&self, t: perfregs_types::TopologyVar) -> bool {
        use perfregs_types::TopologyVar as T;
        matches!(
            (self.variable.as_str(), t),
            ("GtSlice<s>", T::Slice(_))
                | ("GtSlice<s>XeCore<n>", T::SliceXeCore(..))
                | ("GtXeCore<n>", T::XeCore(_))
        )
    }
    /// What IGT's C gives for `t` on device `d` (its Xe core mask being
    /// [`DeviceInfo::xe_core_mask`](perfregs_types::DeviceInfo::xe_core_mask)).
    pub fn igt_value(&self, t: perfregs_types::TopologyVar, d: &perfregs_types::DeviceInfo) -> u64 {
        use perfregs_types::TopologyVar as T;
        match (self.igt, t) {
            (IgtValue::Never, _) => 0,
            (IgtValue::XeCoreNOfAnySlice, T::SliceXeCore(_, n)) => d.gt_xe_core(n),
            (IgtValue::XeCore0, _) => d.gt_xe_core(0),
            _ => d.topology(t),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrataFile {
    errata: Vec<Erratum>,
    #[serde(default)]
    variables: Vec<VariableErratum>,
}

/// The device-variable errata of an errata file (`file` names it in
/// diagnostics).
pub fn parse_variables(file: &str, text: &str) -> Result<Vec<VariableErratum>, Diagnostic> {
    crate::yaml::parse_str::<ErrataFile>(file, text).map(|(f, _)| f.variables)
}

/// Parse an errata file (`file` names it in diagnostics).
pub fn parse(file: &str, text: &str) -> Result<Vec<Erratum>, Diagnostic> {
    let (f, idx) = crate::yaml::parse_str::<ErrataFile>(file, text)?;
    Ok(f.errata
        .into_iter()
        .enumerate()
        .map(|(i, mut e)| {
            e.line = idx.node(&format!("errata/{i}")).line;
            e
        })
        .collect())
}

/// The errata of the description folder `dir` ([`FILE`] in it, named in
/// diagnostics as found): none when the folder has no such file (a folder
/// without metric sets needs none).
pub fn read(dir: &Path) -> Result<Vec<Erratum>, Diagnostic> {
    let path = dir.join(FILE);
    let name = path.display().to_string();
    match std::fs::read_to_string(&path) {
        Ok(text) => parse(&name, &text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(Diagnostic::io(name, format!("cannot read: {e}"))),
    }
}

/// The erratum for counter `counter` of set `set` with equation `equation`.
pub fn find<'a>(
    errata: &'a [Erratum],
    set: &str,
    counter: &str,
    equation: &str,
) -> Option<&'a Erratum> {
    errata
        .iter()
        .find(|e| e.set == set && e.counter == counter && e.equation.trim() == equation.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    #[test]
    fn the_shipped_file_parses_with_lines() {
        let e = parse(FILE, perfregs_regdefs::METRIC_ERRATA).expect("errata.yaml");
        assert_eq!(read(Path::new(perfregs_regdefs::dir())), Ok(e.clone()));
        assert!(!e.is_empty());
        assert!(e.iter().all(|e| e.line > 1 && !e.note.trim().is_empty()));
        let first = &e[0];
        assert!(find(&e, &first.set, &first.counter, &first.equation).is_some());
        assert!(find(&e, &first.set, &first.counter, "A 0 READ").is_none());
    }

    /// A folder without an errata file has none; an unreadable one is an
    /// I/O error at the file.
    #[test]
    fn a_folder_without_errata_has_none() {
        let dir = std::env::temp_dir().join(format!("perfregs-errata-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(FILE)).expect("a folder where the file should be");
        let d = read(&dir).expect_err("a folder is not a file");
        assert_eq!(d.code, Code::Io);
        assert!(d.file.ends_with("errata.yaml"), "{d}");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(read(&dir), Ok(Vec::new()));
    }

    #[test]
    fn a_bad_file_is_located() {
        let d = parse("x.yaml", "errata:\n  - set: A\n    fixx: 1\n").expect_err("unknown key");
        assert_eq!(d.file, "x.yaml");
        assert!(d.pos.line >= 2, "{d}");
        let d = parse(
            "x.yaml",
            "errata:\n  - {chipsets: [], set: S, counter: C, equation: E, fix: round, note: n}\n",
        )
        .expect_err("unknown fix");
        assert!(d.message.contains("round"), "{d}");
    }
}
