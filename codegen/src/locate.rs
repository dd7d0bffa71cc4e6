//! Position index: maps a path inside a YAML document (`registers/3/fields/1/bits`)
//! to the line and column where that node starts.
//!
//! Each text is parsed once, with yaml-rust2's event parser, which marks every
//! event: the tree built from the events holds the scalars (the typed model is
//! deserialized from it, `crate::yaml`) and where each node (and each mapping
//! key) starts. Semantic checks run on the typed model; validators then ask
//! for the path of the node they complain about; a path that is absent (an
//! omitted key) falls back to its nearest present ancestor.

use crate::diag::Pos;

mod split;
pub(crate) mod stored;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// One YAML document, parsed once: a tree of its mappings, sequences and
/// scalars with the position of every node (and of every mapping key),
/// looked up by slash-separated path. The loader deserializes the model
/// from this tree ([`crate::yaml`]), so the positions and the values come
/// from the same parse. (A flat arena rather than nested nodes: building
/// and dropping it never recurses, however deep the text nests.)
#[derive(Debug, Default, Clone)]
pub struct PosIndex {
    pub(crate) nodes: Vec<Node>,
}

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) pos: Pos,
    /// Position of the mapping key this node is the value of.
    pub(crate) key: Option<Pos>,
    /// The collection holding this node (`usize::MAX` for the root).
    pub(crate) parent: usize,
    pub(crate) children: Children,
}

#[derive(Debug, Clone)]
pub(crate) enum Children {
    /// A scalar: its text, and whether it was written plain (unquoted, so
    /// `0x10`, `true` and `~` are a number, a boolean and null).
    Leaf { value: String, plain: bool },
    /// A mapping: its entries in order.
    Map(Vec<Entry>),
    /// A sequence.
    Seq(Vec<usize>),
    /// An alias (`*a`): the node its anchor names (`usize::MAX` when the
    /// anchor's collection contains the alias).
    Alias(usize),
}

/// A mapping entry.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The key as written (`?` for a key that is a collection).
    pub(crate) key: String,
    /// The key's shape.
    pub(crate) kind: KeyKind,
    /// The value node.
    pub(crate) value: usize,
}

/// How a mapping key was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyKind {
    /// An unquoted scalar.
    Plain,
    /// A quoted or block scalar.
    Quoted,
    /// A sequence, a mapping or an alias: not a key the descriptions use.
    Complex,
}

/// A text that is not YAML: the parser's message and where it stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What the parser expected.
    pub message: String,
    /// Where.
    pub pos: Pos,
}

#[derive(Default)]
struct Builder {
    index: PosIndex,
    /// Open collections (node indices) and their anchor ids.
    stack: Vec<(usize, usize)>,
    /// For the innermost open mapping: the key read, awaiting its value.
    pending: Option<(String, Pos, KeyKind)>,
    /// Pending keys of the outer mappings, restored when a nested collection ends.
    saved: Vec<Option<(String, Pos, KeyKind)>>,
    /// Anchor id -> node, for complete nodes.
    anchors: std::collections::HashMap<usize, usize>,
}

fn pos(m: Marker) -> Pos {
    Pos {
        line: m.line(),
        column: m.col() + 1,
    }
}

impl Builder {
    /// True when the node starting now is a key of the innermost mapping.
    fn is_key(&self) -> bool {
        match self.stack.last() {
            Some(&(top, _)) => {
                matches!(self.index.nodes[top].children, Children::Map(_)) && self.pending.is_none()
            }
            None => false,
        }
    }

    /// Add a node at `at` to the open collection (or as the root).
    fn add(&mut self, at: Pos, children: Children) -> usize {
        let id = self.index.nodes.len();
        let (key, key_pos) = match self.pending.take() {
            Some((k, p, kind)) => (Some((k, kind)), Some(p)),
            None => (None, None),
        };
        let parent = self.stack.last().map_or(usize::MAX, |&(top, _)| top);
        self.index.nodes.push(Node {
            pos: at,
            key: key_pos,
            parent,
            children,
        });
        if parent != usize::MAX {
            match (&mut self.index.nodes[parent].children, key) {
                (Children::Map(m), Some((key, kind))) => m.push(Entry {
                    key,
                    kind,
                    value: id,
                }),
                (Children::Seq(v), _) => v.push(id),
                _ => {}
            }
        }
        id
    }

    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::Scalar(v, style, anchor, tag) => {
                // `!!str 12` is the string "12"; other tags are not interpreted.
                let plain = style == TScalarStyle::Plain
                    && !tag.is_some_and(|t| {
                        (t.handle == "tag:yaml.org,2002:" || t.handle == "!!") && t.suffix == "str"
                    });
                if self.is_key() {
                    let kind = if plain {
                        KeyKind::Plain
                    } else {
                        KeyKind::Quoted
                    };
                    self.pending = Some((v, pos(mark), kind));
                } else {
                    let id = self.add(pos(mark), Children::Leaf { value: v, plain });
                    if anchor > 0 {
                        self.anchors.insert(anchor, id);
                    }
                }
            }
            Event::Alias(anchor) => {
                if self.is_key() {
                    self.pending = Some(("*alias".into(), pos(mark), KeyKind::Complex));
                } else {
                    let target = self.anchors.get(&anchor).copied().unwrap_or(usize::MAX);
                    self.add(pos(mark), Children::Alias(target));
                }
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                let children = if matches!(ev, Event::MappingStart(..)) {
                    Children::Map(Vec::new())
                } else {
                    Children::Seq(Vec::new())
                };
                // A collection used as a key is indexed under the key "?".
                if self.is_key() {
                    self.pending = Some(("?".into(), pos(mark), KeyKind::Complex));
                }
                let id = self.add(pos(mark), children);
                self.saved.push(self.pending.take());
                self.stack.push((id, anchor));
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some((id, anchor)) = self.stack.pop() {
                    if anchor > 0 {
                        self.anchors.insert(anchor, id);
                    }
                }
                self.pending = self.saved.pop().flatten();
            }
            _ => {}
        }
    }
}

/// The position of byte `offset` of `text` (clamped to its end): lines end at
/// `\n`, `\r\n` or a lone `\r` (YAML 1.2's line breaks, which editors count
/// too), columns count characters, and a leading BOM is not a column.
///
/// The parse clamps its positions to the end of the text with this
/// (yaml-rust2, like libyaml, marks a node at the end of a text without a
/// final line break on the line after the last one), and places a
/// misplaced tab with it.
pub fn pos_at(text: &str, offset: usize) -> Pos {
    let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let (mut line, mut column) = (1, 1);
    // A plain loop: the generator runs unoptimized in a proc-macro, where
    // iterator adapters over a whole text cost several times as much.
    let mut i = bom;
    while i < end {
        match bytes[i] {
            // The `\n` of a `\r\n` ends the line.
            b'\r' if i + 1 < bytes.len() && bytes[i + 1] == b'\n' => {}
            b'\n' | b'\r' => {
                line += 1;
                column = 1;
            }
            // One column per character: skip UTF-8 continuation bytes.
            b if b & 0xC0 != 0x80 => column += 1,
            _ => {}
        }
        i += 1;
    }
    Pos { line, column }
}

/// The byte offset of `pos` in `text` (the inverse of [`pos_at`]; the end
/// of the text for a position past it).
fn offset_of(text: &str, pos: Pos) -> usize {
    let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let mut at = Pos { line: 1, column: 1 };
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices().skip_while(|&(i, _)| i < bom) {
        if at >= pos {
            return i;
        }
        match c {
            '\r' if bytes.get(i + 1) == Some(&b'\n') => {}
            '\n' | '\r' => {
                at = Pos {
                    line: at.line + 1,
                    column: 1,
                }
            }
            _ => at.column += 1,
        }
    }
    text.len()
}

impl PosIndex {
    /// Index `text`. A text that does not parse gives a partial (possibly
    /// empty) index; [`PosIndex::parse`] also says why.
    #[cfg(test)]
    pub fn build(text: &str) -> Self {
        Self::parse(text).0
    }

    /// Parse `text` (one document): the tree, and the first syntax error
    /// (the tree then holds what was read before it). An empty text is a
    /// null document. A second document (after `---`) is an error: a
    /// description file holds one.
    ///
    /// A large text of the shape [`split`] describes (a long sequence of
    /// registers last) is parsed in pieces on the machine's threads, to the
    /// same tree.
    pub fn parse(text: &str) -> (Self, Option<SyntaxError>) {
        if text.len() >= split::MIN_LEN {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            if threads > 1 {
                if let Some(index) = split::parse(text, threads) {
                    return (index, None);
                }
            }
        }
        Self::parse_whole(text)
    }

    /// [`PosIndex::parse`] in one piece.
    fn parse_whole(text: &str) -> (Self, Option<SyntaxError>) {
        let mut b = Builder::default();
        let mut parser = Parser::new_from_str(text);
        let mut error = None;
        let mut documents = 0;
        // The events pulled one at a time: yaml-rust2's `Parser::load`
        // recurses once per nesting level, so a deeply nested text (`- - - -
        // ...`, two characters a level) would overflow the stack. The
        // builder keeps its own stack of open collections.
        loop {
            match parser.next_token() {
                Ok((Event::StreamEnd, _)) => break,
                Ok((Event::DocumentStart, mark)) => {
                    documents += 1;
                    if documents > 1 {
                        error = Some(SyntaxError {
                            message: "a second YAML document (after `---`): a description \
                                      file holds one document"
                                .into(),
                            pos: pos(mark),
                        });
                        break;
                    }
                }
                Ok((ev, mark)) => b.on_event(ev, mark),
                Err(e) => {
                    let mut at = pos(*e.marker());
                    // yaml-rust2 marks a misplaced tab where the scalar
                    // before it starts: point at the tab itself.
                    if e.info().contains("tab") {
                        let from = offset_of(text, at);
                        if let Some(i) = text[from..].find('\t') {
                            at = pos_at(text, from + i);
                        }
                    }
                    error = Some(SyntaxError {
                        message: e.info().to_string(),
                        pos: at,
                    });
                    break;
                }
            }
        }
        if b.index.nodes.is_empty() && error.is_none() {
            b.index.nodes.push(Node {
                pos: Pos { line: 1, column: 1 },
                key: None,
                parent: usize::MAX,
                children: Children::Leaf {
                    value: String::new(),
                    plain: true,
                },
            });
        }
        // yaml-rust2, like libyaml, ends a text without a final line break
        // with a line break of its own: a node it marks there (the empty
        // value of a last `key:`) would lie on the line after the last one.
        // Such a node is at the end of the text.
        let end = pos_at(text, text.len());
        for n in &mut b.index.nodes {
            n.pos = n.pos.min(end);
            n.key = n.key.map(|k| k.min(end));
        }
        if let Some(e) = &mut error {
            e.pos = e.pos.min(end);
        }
        (b.index, error)
    }

    /// Drop the scalars' text (positions stay): after deserialization only
    /// the positions are asked for, and the index is kept for the whole compile.
    pub(crate) fn shed_values(&mut self) {
        for n in &mut self.nodes {
            if let Children::Leaf { value, .. } = &mut n.children {
                *value = String::new();
            }
        }
    }

    fn child(&self, node: usize, seg: &str) -> Option<usize> {
        match &self.nodes[node].children {
            Children::Map(m) => m.iter().find(|e| e.key == seg).map(|e| e.value),
            Children::Seq(v) => seg.parse::<usize>().ok().and_then(|i| v.get(i).copied()),
            Children::Leaf { .. } | Children::Alias(_) => None,
        }
    }

    /// The node at `path` (`Ok`), or the deepest node on the way (`Err`).
    fn walk(&self, path: &str) -> Result<usize, Option<usize>> {
        if self.nodes.is_empty() {
            return Err(None);
        }
        let mut at = 0;
        if path.is_empty() {
            return Ok(0);
        }
        for seg in path.split('/') {
            match self.child(at, seg) {
                Some(c) => at = c,
                None => return Err(Some(at)),
            }
        }
        Ok(at)
    }

    /// Position of the node at `path`, or of its nearest indexed ancestor.
    pub fn node(&self, path: &str) -> Pos {
        match self.walk(path) {
            Ok(n) | Err(Some(n)) => self.nodes[n].pos,
            Err(None) => Pos { line: 1, column: 1 },
        }
    }

    /// True when a mapping key exists at `path`.
    pub fn has_key(&self, path: &str) -> bool {
        self.walk(path)
            .ok()
            .is_some_and(|n| self.nodes[n].key.is_some())
    }

    /// Position of the key of the mapping entry at `path` (falls back like [`PosIndex::node`]).
    pub fn key(&self, path: &str) -> Pos {
        match self.walk(path) {
            Ok(n) => self.nodes[n].key.unwrap_or(self.nodes[n].pos),
            Err(_) => self.node(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_of_byte_offsets() {
        let p = |line, column| Pos { line, column };
        let t = "ab\r\ncd\re\u{85}f\n";
        assert_eq!(pos_at(t, 0), p(1, 1));
        assert_eq!(pos_at(t, 3), p(1, 3)); // between the \r and \n of a CRLF
        assert_eq!(pos_at(t, 4), p(2, 1));
        assert_eq!(pos_at(t, 7), p(3, 1)); // after a lone \r
        assert_eq!(pos_at(t, 10), p(3, 3)); // NEL is a character, not a break
        assert_eq!(pos_at(t, 12), p(4, 1));
        assert_eq!(pos_at(t, 99), p(4, 1));
        assert_eq!(pos_at("\u{FEFF}ab", 3), p(1, 1));
        assert_eq!(pos_at("\u{FEFF}ab", 5), p(1, 3));
        // A last line without a line break ends after its last character.
        let idx = PosIndex::build("a:\n  b:");
        assert_eq!(idx.node("a/b"), p(2, 5));
    }

    #[test]
    fn finds_nested_nodes_and_keys() {
        let text =
            "block: oa\nregisters:\n  - name: A\n    fields:\n      - { name: x, bits: \"3:1\" }\n";
        let idx = PosIndex::build(text);
        assert_eq!(idx.node("block"), Pos { line: 1, column: 8 });
        assert_eq!(
            idx.node("registers/0/name"),
            Pos {
                line: 3,
                column: 11
            }
        );
        assert_eq!(
            idx.node("registers/0/fields/0/bits"),
            Pos {
                line: 5,
                column: 26
            }
        );
        assert_eq!(idx.key("registers/0/fields"), Pos { line: 4, column: 5 });
        // Missing key: nearest ancestor.
        assert_eq!(
            idx.node("registers/0/fields/0/access"),
            Pos { line: 5, column: 9 }
        );
    }
}
