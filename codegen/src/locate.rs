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

impl PosIndex {
    /// Index `text`. A text that does not parse gives a partial (possibly empty) index:
    /// its syntax error is reported by the serde pass.
    pub fn build(text: &str) -> Self {
        let mut b = Builder::default();
        let mut parser = Parser::new_from_str(text);
        let _ = parser.load(&mut b, false);
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
