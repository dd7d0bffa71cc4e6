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
use std::collections::HashMap;
use std::fmt::Write as _;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// Node positions of one YAML document, keyed by slash-separated path.
#[derive(Debug, Default, Clone)]
pub struct PosIndex {
    nodes: HashMap<String, Pos>,
    keys: HashMap<String, Pos>,
}

enum Frame {
    Map { path: String, key: Option<String> },
    Seq { path: String, next: usize },
}

#[derive(Default)]
struct Builder {
    index: PosIndex,
    stack: Vec<Frame>,
}

fn pos(m: Marker) -> Pos {
    Pos {
        line: m.line(),
        column: m.col() + 1,
    }
}

fn join(parent: &str, seg: &str) -> String {
    if parent.is_empty() {
        seg.to_string()
    } else {
        let mut s = String::with_capacity(parent.len() + seg.len() + 1);
        let _ = write!(s, "{parent}/{seg}");
        s
    }
}

impl Builder {
    /// Path of the node that starts now, or `None` when it is a mapping key.
    fn next_path(&mut self, scalar_key: Option<&str>, mark: Marker) -> Option<String> {
        match self.stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Seq { path, next }) => {
                let p = join(path, &next.to_string());
                *next += 1;
                Some(p)
            }
            Some(Frame::Map { path, key }) => match key.take() {
                Some(k) => Some(join(path, &k)),
                None => {
                    // This node is a key. Complex (non-scalar) keys get a placeholder.
                    let k = scalar_key.unwrap_or("?").to_string();
                    self.index.keys.insert(join(path, &k), pos(mark));
                    *key = Some(k);
                    None
                }
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::Scalar(ref v, ..) => {
                if let Some(p) = self.next_path(Some(v), mark) {
                    self.index.nodes.entry(p).or_insert(pos(mark));
                }
            }
            Event::Alias(_) => {
                if let Some(p) = self.next_path(Some("*alias"), mark) {
                    self.index.nodes.entry(p).or_insert(pos(mark));
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let is_map = matches!(ev, Event::MappingStart(..));
                let p = self.next_path(None, mark);
                let path = match p {
                    Some(p) => {
                        self.index.nodes.entry(p.clone()).or_insert(pos(mark));
                        p
                    }
                    // A collection used as a key: index its contents under "?".
                    None => "?".to_string(),
                };
                self.stack.push(if is_map {
                    Frame::Map { path, key: None }
                } else {
                    Frame::Seq { path, next: 0 }
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
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

    /// Position of the node at `path`, or of its nearest indexed ancestor.
    pub fn node(&self, path: &str) -> Pos {
        let mut p = path;
        loop {
            if let Some(pos) = self.nodes.get(p) {
                return *pos;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => {
                    return self
                        .nodes
                        .get("")
                        .copied()
                        .unwrap_or(Pos { line: 1, column: 1 })
                }
            }
        }
    }

    /// True when a mapping key exists at `path`.
    pub fn has_key(&self, path: &str) -> bool {
        self.keys.contains_key(path)
    }

    /// Position of the key of the mapping entry at `path` (falls back like [`PosIndex::node`]).
    pub fn key(&self, path: &str) -> Pos {
        self.keys
            .get(path)
            .copied()
            .unwrap_or_else(|| self.node(path))
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
