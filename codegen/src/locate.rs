//! Position index: maps a path inside a YAML document (`registers/3/fields/1/bits`)
//! to the line and column where that node starts.
//!
//! serde_yaml reports positions only for syntax and type errors. Semantic checks
//! run on the typed model, so we parse the same text a second time with
//! yaml-rust2's event parser, which marks every event, and remember where each
//! node (and each mapping key) starts. Validators then ask for the path of the
//! node they complain about; a path that is absent (an omitted key) falls back
//! to its nearest present ancestor.

use crate::diag::Pos;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// Node positions of one YAML document: a tree of its mappings and
/// sequences, looked up by slash-separated path. (A tree rather than a map of
/// full path strings: building it allocates only the keys, which matters for
/// descriptions of thousands of registers.)
#[derive(Debug, Default, Clone)]
pub struct PosIndex {
    nodes: Vec<Node>,
}

#[derive(Debug, Clone)]
struct Node {
    pos: Pos,
    /// Position of the mapping key this node is the value of.
    key: Option<Pos>,
    children: Children,
}

#[derive(Debug, Clone)]
enum Children {
    Leaf,
    Map(Vec<(String, usize)>),
    Seq(Vec<usize>),
}

#[derive(Default)]
struct Builder {
    index: PosIndex,
    /// Open collections (node indices).
    stack: Vec<usize>,
    /// For the innermost open mapping: the key read, awaiting its value.
    pending: Option<(String, Pos)>,
    /// Pending keys of the outer mappings, restored when a nested collection ends.
    saved: Vec<Option<(String, Pos)>>,
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
            Some(&top) => {
                matches!(self.index.nodes[top].children, Children::Map(_)) && self.pending.is_none()
            }
            None => false,
        }
    }

    /// Add a node at `at` to the open collection (or as the root).
    fn add(&mut self, at: Pos, children: Children) -> usize {
        let id = self.index.nodes.len();
        let (key_name, key_pos) = match self.pending.take() {
            Some((k, p)) => (Some(k), Some(p)),
            None => (None, None),
        };
        self.index.nodes.push(Node {
            pos: at,
            key: key_pos,
            children,
        });
        if let Some(&top) = self.stack.last() {
            match (&mut self.index.nodes[top].children, key_name) {
                (Children::Map(m), Some(k)) => m.push((k, id)),
                (Children::Seq(v), _) => v.push(id),
                _ => {}
            }
        }
        id
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::Scalar(v, ..) => {
                if self.is_key() {
                    self.pending = Some((v, pos(mark)));
                } else {
                    self.add(pos(mark), Children::Leaf);
                }
            }
            Event::Alias(_) => {
                if self.is_key() {
                    self.pending = Some(("*alias".into(), pos(mark)));
                } else {
                    self.add(pos(mark), Children::Leaf);
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let children = if matches!(ev, Event::MappingStart(..)) {
                    Children::Map(Vec::new())
                } else {
                    Children::Seq(Vec::new())
                };
                // A collection used as a key is indexed under the key "?".
                if self.is_key() {
                    self.pending = Some(("?".into(), pos(mark)));
                }
                let id = self.add(pos(mark), children);
                self.saved.push(self.pending.take());
                self.stack.push(id);
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
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
/// The loader locates serde_yaml's errors with this and their byte offset:
/// serde_yaml's line and column are libyaml's, which differ in two ways.
/// libyaml also breaks lines at NEL, LS and PS (YAML 1.1), and at the end of
/// a text without a final line break it reports the line after the last one.
pub fn pos_at(text: &str, offset: usize) -> Pos {
    let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let bytes = text.as_bytes();
    let mut pos = Pos { line: 1, column: 1 };
    for (i, &b) in bytes.iter().enumerate().take(offset).skip(bom) {
        match b {
            // The `\n` of a `\r\n` ends the line.
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {}
            b'\n' | b'\r' => {
                pos = Pos {
                    line: pos.line + 1,
                    column: 1,
                }
            }
            // One column per character: skip UTF-8 continuation bytes.
            b if b & 0xC0 != 0x80 => pos.column += 1,
            _ => {}
        }
    }
    pos
}

impl PosIndex {
    /// Index `text`. A text that does not parse gives a partial (possibly empty) index:
    /// its syntax error is reported by the serde pass.
    pub fn build(text: &str) -> Self {
        let mut b = Builder::default();
        let mut parser = Parser::new_from_str(text);
        // The events of the first document, pulled one at a time: yaml-rust2's
        // `Parser::load` recurses once per nesting level, so a deeply nested
        // text (`- - - - ...`, two characters a level) would overflow the
        // stack. The builder keeps its own stack of open collections.
        while let Ok((ev, mark)) = parser.next_token() {
            if matches!(ev, Event::DocumentEnd | Event::StreamEnd) {
                break;
            }
            b.on_event(ev, mark);
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
        b.index
    }

    fn child(&self, node: usize, seg: &str) -> Option<usize> {
        match &self.nodes[node].children {
            Children::Map(m) => m.iter().find(|(k, _)| k == seg).map(|&(_, i)| i),
            Children::Seq(v) => seg.parse::<usize>().ok().and_then(|i| v.get(i).copied()),
            Children::Leaf => None,
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
