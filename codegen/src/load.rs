//! Loading: read description files and deserialize them into the model, with
//! located errors for unreadable files, YAML syntax and shape problems.

use crate::diag::{Code, Diagnostic, Diagnostics, Pos};
use crate::locate::{pos_at, PosIndex};
use crate::model::{BlockFile, CatalogueFile, DevicesFile};
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
    /// Node positions.
    pub index: PosIndex,
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

fn serde_diag(name: &str, text: &str, err: &serde_yaml::Error) -> Diagnostic {
    // Not libyaml's line and column: see `pos_at`.
    let pos = err
        .location()
        .map(|l| pos_at(text, l.index()))
        .unwrap_or(Pos { line: 1, column: 1 });
    let msg = err.to_string();
    // serde_yaml appends " at line L column C"; we print the location ourselves.
    let msg = match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    let code = if msg.contains("did not find expected")
        || msg.contains("found character")
        || msg.contains("mapping values are not allowed")
        || msg.contains("while parsing")
        || msg.contains("while scanning")
        || msg.contains("found unexpected")
        || msg.contains("found undefined")
    {
        Code::Syntax
    } else {
        Code::Shape
    };
    Diagnostic {
        code,
        file: name.to_string(),
        pos,
        item: String::new(),
        message: msg,
    }
}

/// Deserialize one text. Problems go to `diags`; `None` when the file is unusable.
///
/// A leading UTF-8 byte-order mark (written by some Windows editors) is not
/// part of the document: it is dropped before parsing, so the first key is
/// read as itself. Positions are unchanged, as [`pos_at`] counts no column
/// for a BOM either.
pub fn load_str(name: &str, text: &str, diags: &mut Diagnostics) -> Option<Loaded> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    // The position index and the deserialization each parse the whole text;
    // they run side by side (on one thread where none can be started).
    std::thread::scope(|scope| {
        let mut indexing = std::thread::Builder::new()
            .name("perfregs-pos-index".into())
            .spawn_scoped(scope, || PosIndex::build(text))
            .ok();
        let mut index = None;
        let mut index_now = || match indexing.take() {
            Some(t) => t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            None => PosIndex::build(text),
        };
        // The top-level key tells the kind; serde then reports shape errors
        // with locations. A `registers:` line at column 0 is a top-level key
        // of a block file; anything else asks the index.
        // `devices:` without `registers:` or `families:` is the device table.
        let (is_catalogue, is_devices) = if text.lines().any(|l| l.starts_with("registers:")) {
            (false, false)
        } else {
            let i = index_now();
            let catalogue = i.has_key("families") && !i.has_key("registers");
            let devices = !catalogue && i.has_key("devices") && !i.has_key("registers");
            index = Some(i);
            (catalogue, devices)
        };
        let doc = if is_catalogue {
            serde_yaml::from_str::<CatalogueFile>(text).map(Document::Catalogue)
        } else if is_devices {
            serde_yaml::from_str::<DevicesFile>(text).map(Document::Devices)
        } else {
            serde_yaml::from_str::<BlockFile>(text).map(|b| Document::Block(Box::new(b)))
        };
        let index = index.unwrap_or_else(index_now);
        let source = SourceFile {
            name: name.to_string(),
            rel_name: name.to_string(),
            index,
            external: false,
        };
        match doc {
            Ok(doc) => Some(Loaded { source, doc }),
            Err(e) => {
                diags.push(serde_diag(name, text, &e));
                None
            }
        }
    })
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
