//! Loading: read description files and deserialize them into the model, with
//! located errors for unreadable files, YAML syntax and shape problems.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::locate::PosIndex;
use crate::model::{BlockFile, CatalogueFile, DevicesFile};
use crate::yaml;
use std::path::{Path, PathBuf};

/// One source text and its position index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Name used in diagnostics (the path as given, so a user can open it).
    pub name: String,
    /// Name used in generated output: relative to the description folder
    /// (`oa_gen7.yaml`), so the output is the same in every checkout path.
    /// Equal to `name` for sources that are not read from a folder.
    pub rel_name: String,
    /// Node positions (shared: every item resolved from the file keeps its source).
    pub index: std::sync::Arc<PosIndex>,
    /// A built-in description compiled beside a user's (the `regdefs!`
    /// path): its items are cross-referenced, never emitted.
    pub external: bool,
}

impl SourceFile {
    /// Build a diagnostic located at the node `path` of this file.
    pub fn diag(&self, code: Code, path: &str, item: &str, message: String) -> Diagnostic {
        Diagnostic {
            code,
            file: self.name.clone(),
            pos: self.index.node(path),
            item: item.to_string(),
            message,
        }
    }
}

/// What a file contains.
#[derive(Debug, Clone)]
pub enum Document {
    /// The project catalogue.
    Catalogue(CatalogueFile),
    /// A block of registers.
    Block(Box<BlockFile>),
    /// The PCI device table (`devices:`).
    Devices(DevicesFile),
}

/// A file that deserialized.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Its source.
    pub source: SourceFile,
    /// Its content.
    pub doc: Document,
}

/// Deserialize one text. Problems go to `diags`; `None` when the file is unusable.
///
/// The text is parsed once ([`PosIndex::parse`]); the model is deserialized
/// from that tree ([`crate::yaml`]), whose positions then locate every later
/// diagnostic.
///
/// A leading UTF-8 byte-order mark (written by some Windows editors) is not
/// part of the document: it is dropped before parsing, so the first key is
/// read as itself. Positions are unchanged, as [`crate::locate::pos_at`]
/// counts no column for a BOM either.
pub fn load_str(name: &str, text: &str, diags: &mut Diagnostics) -> Option<Loaded> {
    let index = parse(name, text, diags)?;
    load_index(name, index, diags)
}

/// Parse one text into its tree ([`PosIndex::parse`], a leading BOM
/// dropped as [`load_str`] says); a syntax error goes to `diags`.
pub(crate) fn parse(name: &str, text: &str, diags: &mut Diagnostics) -> Option<PosIndex> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    match PosIndex::parse(text) {
        (index, None) => Some(index),
        (_, Some(e)) => {
            diags.push(Diagnostic {
                code: Code::Syntax,
                file: name.to_string(),
                pos: e.pos,
                item: String::new(),
                message: e.message,
            });
            None
        }
    }
}

/// [`load_str`] from the text's tree, already parsed (without a syntax error).
pub(crate) fn load_index(
    name: &str,
    mut index: PosIndex,
    diags: &mut Diagnostics,
) -> Option<Loaded> {
    // The top-level key tells the kind. `devices:` without `registers:` or
    // `families:` is the device table.
    let catalogue = index.has_key("families") && !index.has_key("registers");
    let devices = !catalogue && index.has_key("devices") && !index.has_key("registers");
    let doc = if catalogue {
        yaml::from_index::<CatalogueFile>(&index).map(Document::Catalogue)
    } else if devices {
        yaml::from_index::<DevicesFile>(&index).map(Document::Devices)
    } else {
        yaml::from_index::<BlockFile>(&index).map(|b| Document::Block(Box::new(b)))
    };
    let doc = match doc {
        Ok(doc) => doc,
        Err(e) => {
            diags.push(Diagnostic {
                code: Code::Shape,
                file: name.to_string(),
                pos: e.pos(),
                item: String::new(),
                message: e.to_string(),
            });
            return None;
        }
    };
    index.shed_values();
    let source = SourceFile {
        name: name.to_string(),
        rel_name: name.to_string(),
        index: std::sync::Arc::new(index),
        external: false,
    };
    Some(Loaded { source, doc })
}

/// Read and deserialize one file; diagnostics name it as given, generated output by `rel_name`.
pub fn load_file_as(path: &Path, rel_name: &str, diags: &mut Diagnostics) -> Option<Loaded> {
    let mut loaded = load_file(path, diags)?;
    loaded.source.rel_name = rel_name.to_string();
    Some(loaded)
}

/// The name of `file` relative to `base` (a folder, or the file itself), with `/`
/// separators: what generated output records, independent of the checkout path.
pub fn relative_name(base: &Path, file: &Path) -> String {
    let rel = if base.is_file() {
        file.file_name().map(Path::new).unwrap_or(file)
    } else {
        file.strip_prefix(base).unwrap_or(file)
    };
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// Read and deserialize one file.
pub fn load_file(path: &Path, diags: &mut Diagnostics) -> Option<Loaded> {
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => load_str(&name, &text, diags),
        Err(e) => {
            diags.push(Diagnostic::io(name, format!("cannot read file: {e}")));
            None
        }
    }
}

/// The `*.yaml` files of a folder (not recursive), sorted by name; a file path is returned as is.
pub fn yaml_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    Ok(files)
}
