//! A `serde::Deserializer` over the parsed tree of [`PosIndex`]: the loader
//! parses each text once and gets both the model and the positions of its
//! nodes from that one parse.
//!
//! Scalars resolve as serde_yaml 0.9 resolved them (YAML 1.2's core schema):
//! a plain `~`, `null` or empty scalar is null; `true`/`false` (also
//! `True`, `TRUE`, ...) a boolean; decimal integers and `0x`/`0o`/`0b`
//! integers (an optional sign; no `_`) integers; `1.5`, `.inf`, `.nan`
//! floats; everything else, and every quoted scalar, a string. A string
//! field takes any scalar as written (`name: 12` is the string `12`).
//! Errors carry the position of the node they concern (an unknown key: the
//! key) and its path (`registers[3].fields[1].bits`).

use crate::diag::Pos;
use crate::locate::{Children, Entry, KeyKind, PosIndex};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Unexpected, Visitor};
use std::cell::Cell;
use std::fmt;

/// Collections nested deeper than this are refused (a value the model keeps
/// as it is written, such as `address:`, would otherwise recurse without bound).
const MAX_DEPTH: usize = 128;

/// A shape error: what did not fit the model, where, and the path of the node.
#[derive(Debug, Clone)]
pub struct Error {
    message: String,
    at: Option<(Pos, String)>,
}

impl Error {
    /// Where the error is (1:1 when unknown).
    pub fn pos(&self) -> Pos {
        self.at
            .as_ref()
            .map_or(Pos { line: 1, column: 1 }, |(p, _)| *p)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some((_, path)) if !path.is_empty() => write!(f, "{path}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error {
            message: msg.to_string(),
            at: None,
        }
    }
}

/// Deserialize `T` from the document `doc` (the root node).
pub fn from_index<'de, T: de::Deserialize<'de>>(doc: &'de PosIndex) -> Result<T, Error> {
    if doc.nodes.is_empty() {
        return Err(de::Error::custom("the document is empty"));
    }
    // Aliases can repeat a subtree many times (`a: &a [*b, *b]` ...): the
    // nodes visited are bounded by a multiple of the nodes written.
    let budget = Cell::new(doc.nodes.len().saturating_mul(16).saturating_add(100_000));
    T::deserialize(Node {
        doc,
        id: 0,
        depth: 0,
        budget: &budget,
    })
}

/// Parse `text` once and deserialize `T` from it: the value and the tree of
/// positions, or the diagnostic (a syntax error, or a shape error with the
/// node's path) located in `file`.
pub(crate) fn parse_str<T: de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<(T, PosIndex), crate::diag::Diagnostic> {
    use crate::diag::{Code, Diagnostic};
    let (index, syntax) = PosIndex::parse(text);
    if let Some(e) = syntax {
        return Err(Diagnostic {
            code: Code::Syntax,
            file: file.to_string(),
            pos: e.pos,
            item: String::new(),
            message: e.message,
        });
    }
    match from_index::<T>(&index) {
        Ok(v) => Ok((v, index)),
        Err(e) => Err(Diagnostic {
            code: Code::Shape,
            file: file.to_string(),
            pos: e.pos(),
            item: String::new(),
            message: e.to_string(),
        }),
    }
}

/// The path of node `id` as serde_yaml wrote it: `registers[3].fields[1]`.
fn path_of(doc: &PosIndex, id: usize) -> String {
    let mut segs = Vec::new();
    let mut at = id;
    while let Some(n) = doc.nodes.get(at) {
        let Some(p) = doc.nodes.get(n.parent) else {
            break;
        };
        match &p.children {
            Children::Map(m) => {
                if let Some(e) = m.iter().find(|e| e.value == at) {
                    segs.push(format!(".{}", e.key));
                }
            }
            Children::Seq(v) => {
                if let Some(i) = v.iter().position(|&c| c == at) {
                    segs.push(format!("[{i}]"));
                }
            }
            Children::Leaf { .. } | Children::Alias(_) => {}
        }
        at = n.parent;
    }
    let s: String = segs.iter().rev().map(String::as_str).collect();
    s.strip_prefix('.').map(str::to_string).unwrap_or(s)
}

fn locate(mut e: Error, doc: &PosIndex, id: usize, pos: Option<Pos>) -> Error {
    if e.at.is_none() {
        // yaml-rust2 marks a block mapping where its first `:` is; the
        // mapping starts at its first key.
        let node = &doc.nodes[id];
        let first_key = match &node.children {
            Children::Map(m) => m.first().and_then(|e| doc.nodes[e.value].key),
            _ => None,
        };
        let start = first_key.map_or(node.pos, |k| k.min(node.pos));
        let p = pos.unwrap_or(start);
        e.at = Some((p, path_of(doc, id)));
    }
    e
}

/// What a plain scalar is.
enum Plain<'a> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    U128(u128),
    I128(i128),
    F64(f64),
    Str(&'a str),
}

fn unsigned<T>(s: &str, radix: fn(&str, u32) -> Result<T, std::num::ParseIntError>) -> Option<T> {
    let s = s.strip_prefix('+').unwrap_or(s);
    for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = s.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(v) = radix(rest, base) {
                return Some(v);
            }
        }
    }
    if s.starts_with(['+', '-']) || leading_zero(s) {
        return None;
    }
    radix(s, 10).ok()
}

fn negative<T>(s: &str, radix: fn(&str, u32) -> Result<T, std::num::ParseIntError>) -> Option<T> {
    for (prefix, base) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = s.strip_prefix(prefix) {
            if let Ok(v) = radix(&format!("-{rest}"), base) {
                return Some(v);
            }
        }
    }
    if leading_zero(s) {
        return None;
    }
    radix(s, 10).ok()
}

/// `0123`: digits with a leading zero are a string in YAML 1.2.
fn leading_zero(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    s.len() > 1 && s.starts_with('0') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

fn float(s: &str) -> Option<f64> {
    let unsigned = match s.strip_prefix('+') {
        Some(u) if u.starts_with(['+', '-']) => return None,
        Some(u) => u,
        None => s,
    };
    match unsigned {
        ".inf" | ".Inf" | ".INF" => return Some(f64::INFINITY),
        _ => {}
    }
    match s {
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    unsigned.parse::<f64>().ok().filter(|f| f.is_finite())
}

fn resolve(s: &str) -> Plain<'_> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Plain::Null,
        "true" | "True" | "TRUE" => return Plain::Bool(true),
        "false" | "False" | "FALSE" => return Plain::Bool(false),
        _ => {}
    }
    // Only what starts like a number is tried as one.
    if !s.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) {
        return Plain::Str(s);
    }
    if let Some(v) = unsigned(s, u64::from_str_radix) {
        return Plain::U64(v);
    }
    if let Some(v) = negative(s, i64::from_str_radix) {
        return Plain::I64(v);
    }
    if let Some(v) = unsigned(s, u128::from_str_radix) {
        return Plain::U128(v);
    }
    if let Some(v) = negative(s, i128::from_str_radix) {
        return Plain::I128(v);
    }
    if !leading_zero(s) {
        if let Some(f) = float(s) {
            return Plain::F64(f);
        }
    }
    Plain::Str(s)
}

fn visit_scalar<'de, V: Visitor<'de>>(
    v: V,
    value: &'de str,
    plain: bool,
) -> Result<V::Value, Error> {
    if !plain {
        return v.visit_borrowed_str(value);
    }
    match resolve(value) {
        Plain::Null => v.visit_unit(),
        Plain::Bool(b) => v.visit_bool(b),
        Plain::U64(n) => v.visit_u64(n),
        Plain::I64(n) => v.visit_i64(n),
        Plain::U128(n) => v.visit_u128(n),
        Plain::I128(n) => v.visit_i128(n),
        Plain::F64(f) => v.visit_f64(f),
        Plain::Str(s) => v.visit_borrowed_str(s),
    }
}

/// A node of the tree, as a serde deserializer.
#[derive(Clone, Copy)]
struct Node<'de, 'b> {
    doc: &'de PosIndex,
    id: usize,
    depth: usize,
    budget: &'b Cell<usize>,
}

impl<'de, 'b> Node<'de, 'b> {
    fn child(&self, id: usize) -> Node<'de, 'b> {
        Node {
            doc: self.doc,
            id,
            depth: self.depth + 1,
            budget: self.budget,
        }
    }

    /// The node itself, its alias followed (and the visit counted).
    fn target(self) -> Result<Node<'de, 'b>, Error> {
        let left = self.budget.get();
        if left == 0 {
            return Err(de::Error::custom(
                "the aliases (`*name`) repeat too much of the document",
            ));
        }
        self.budget.set(left - 1);
        if self.depth > MAX_DEPTH {
            return Err(de::Error::custom(format!(
                "nested more than {MAX_DEPTH} levels deep"
            )));
        }
        match self.doc.nodes[self.id].children {
            Children::Alias(t) if t < self.doc.nodes.len() => Node {
                id: t,
                depth: self.depth + 1,
                ..self
            }
            .target(),
            Children::Alias(_) => Err(de::Error::custom(
                "an alias (`*name`) inside the collection its anchor names",
            )),
            _ => Ok(self),
        }
    }

    fn children(&self) -> &'de Children {
        &self.doc.nodes[self.id].children
    }

    fn unexpected(&self) -> Unexpected<'de> {
        match self.children() {
            Children::Leaf { value, plain: true } => match resolve(value) {
                Plain::Null => Unexpected::Unit,
                Plain::Bool(b) => Unexpected::Bool(b),
                Plain::U64(n) => Unexpected::Unsigned(n),
                Plain::I64(n) => Unexpected::Signed(n),
                Plain::U128(_) | Plain::I128(_) => Unexpected::Other("a 128-bit integer"),
                Plain::F64(f) => Unexpected::Float(f),
                Plain::Str(s) => Unexpected::Str(s),
            },
            Children::Leaf { value, .. } => Unexpected::Str(value),
            Children::Map(_) => Unexpected::Map,
            Children::Seq(_) => Unexpected::Seq,
            Children::Alias(_) => Unexpected::Other("alias"),
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.children(), Children::Leaf { value, plain: true } if matches!(resolve(value), Plain::Null))
    }

    /// Run `f` on the node (alias followed); errors without a place get this node's.
    fn with<T>(self, f: impl FnOnce(Node<'de, 'b>) -> Result<T, Error>) -> Result<T, Error> {
        let (doc, id) = (self.doc, self.id);
        let r = self
            .target()
            .and_then(|n| f(n).map_err(|e| locate(e, doc, n.id, None)));
        r.map_err(|e| locate(e, doc, id, None))
    }
}

impl<'de, 'b> de::Deserializer<'de> for Node<'de, 'b> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.with(|n| match n.children() {
            Children::Leaf { value, plain } => visit_scalar(v, value, *plain),
            Children::Seq(items) => v.visit_seq(Seq {
                node: n,
                items,
                at: 0,
            }),
            Children::Map(entries) => v.visit_map(Map {
                node: n,
                entries,
                at: 0,
            }),
            Children::Alias(_) => Err(de::Error::custom("an unresolved alias")),
        })
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.with(|n| match n.children() {
            Children::Leaf { value, .. } => v.visit_borrowed_str(value),
            _ => Err(de::Error::invalid_type(n.unexpected(), &v)),
        })
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.with(|n| {
            if n.is_null() {
                v.visit_none()
            } else {
                v.visit_some(n)
            }
        })
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.with(|n| {
            if n.is_null() {
                v.visit_unit()
            } else {
                Err(de::Error::invalid_type(n.unexpected(), &v))
            }
        })
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.with(|n| match n.children() {
            Children::Seq(items) => v.visit_seq(Seq {
                node: n,
                items,
                at: 0,
            }),
            // `key:` with nothing after it is an empty list.
            Children::Leaf { value, plain: true } if value.is_empty() => v.visit_seq(Seq {
                node: n,
                items: &[],
                at: 0,
            }),
            _ => Err(de::Error::invalid_type(n.unexpected(), &v)),
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.with(|n| match n.children() {
            Children::Map(entries) => v.visit_map(Map {
                node: n,
                entries,
                at: 0,
            }),
            Children::Leaf { value, plain: true } if value.is_empty() => v.visit_map(Map {
                node: n,
                entries: &[],
                at: 0,
            }),
            _ => Err(de::Error::invalid_type(n.unexpected(), &v)),
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.with(|n| match n.children() {
            Children::Leaf { value, .. } => v.visit_enum(value.as_str().into_deserializer()),
            _ => Err(de::Error::invalid_type(n.unexpected(), &v)),
        })
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char bytes byte_buf
    }
}

struct Seq<'de, 'b> {
    node: Node<'de, 'b>,
    items: &'de [usize],
    at: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(&id) = self.items.get(self.at) else {
            return Ok(None);
        };
        self.at += 1;
        seed.deserialize(self.node.child(id)).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len() - self.at)
    }
}

struct Map<'de, 'b> {
    node: Node<'de, 'b>,
    entries: &'de [Entry],
    at: usize,
}

impl<'de> de::MapAccess<'de> for Map<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(e) = self.entries.get(self.at) else {
            return Ok(None);
        };
        let (doc, map) = (self.node.doc, self.node.id);
        // Errors about a key (an unknown field) are placed at the key, under the mapping's path.
        let key_pos = doc.nodes[e.value].key;
        let r = match e.kind {
            KeyKind::Complex => Err(de::Error::custom(format!(
                "a mapping key must be a plain value, not a list, mapping or alias (`{}`)",
                e.key
            ))),
            KeyKind::Plain | KeyKind::Quoted => seed.deserialize(Key {
                key: &e.key,
                plain: e.kind == KeyKind::Plain,
            }),
        };
        r.map(Some).map_err(|err| locate(err, doc, map, key_pos))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some(e) = self.entries.get(self.at) else {
            return Err(de::Error::custom("a mapping value without its key"));
        };
        self.at += 1;
        seed.deserialize(self.node.child(e.value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() - self.at)
    }
}

/// A mapping key: a scalar.
struct Key<'de> {
    key: &'de str,
    plain: bool,
}

impl<'de> de::Deserializer<'de> for Key<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        visit_scalar(v, self.key, self.plain)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_borrowed_str(self.key)
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_borrowed_str(self.key)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_borrowed_str(self.key)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_enum(self.key.into_deserializer())
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char bytes byte_buf option unit
        unit_struct seq tuple tuple_struct map struct ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_yaml::Value;

    fn value(text: &str) -> Result<Value, Error> {
        let (doc, err) = PosIndex::parse(text);
        assert_eq!(err, None, "{text}");
        from_index::<Value>(&doc)
    }

    /// Scalars resolve as serde_yaml resolves them: the same `Value` for
    /// every form the descriptions use.
    #[test]
    fn scalars_resolve_as_serde_yaml_does() {
        let text = "a: [0x1F, 0o17, 0b101, +12, -0x10, 0123, 1.5, .inf, ~, null, '', true, False, \
                    \"0x10\", '7', 1_000, name, 7:4, x-y]\nb:\nc: { 5: x, '6': y }\n";
        let ours = value(text).expect("deserializes");
        let theirs: Value = serde_yaml::from_str(text).expect("serde_yaml");
        assert_eq!(ours, theirs);
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct S {
        name: String,
        n: u32,
        #[serde(default)]
        on: Option<bool>,
        #[serde(default)]
        list: Vec<u8>,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Top {
        items: Vec<S>,
    }

    fn shape_error(text: &str) -> String {
        let (doc, err) = PosIndex::parse(text);
        assert_eq!(err, None, "{text}");
        let e = from_index::<Top>(&doc).expect_err("a shape error");
        format!("{}:{}: {e}", e.pos().line, e.pos().column)
    }

    /// Shape errors name the node's path and position: a value at the value,
    /// an unknown key at the key, a missing key at the mapping's first key.
    #[test]
    fn shape_errors_are_located() {
        assert_eq!(
            shape_error("items:\n  - name: a\n    n: x\n"),
            "3:8: items[0].n: invalid type: string \"x\", expected u32"
        );
        assert_eq!(
            shape_error("items:\n  - name: a\n    n: 1\n    nn: 2\n"),
            "4:5: items[0]: unknown field `nn`, expected one of `name`, `n`, `on`, `list`"
        );
        assert_eq!(
            shape_error("items:\n  - name: a\n"),
            "2:5: items[0]: missing field `n`"
        );
        assert_eq!(
            shape_error("items:\n  - { name: a, n: 1, list: [1, 300] }\n"),
            "2:32: items[0].list[1]: invalid value: integer `300`, expected u8"
        );
        assert_eq!(
            shape_error("items:\n  - name: a\n    n: 1\n    on: \"true\"\n"),
            "4:9: items[0].on: invalid type: string \"true\", expected a boolean"
        );
        assert_eq!(
            shape_error("items: 5\n"),
            "1:8: items: invalid type: integer `5`, expected a sequence"
        );
        // An alias to the collection that holds it, and one that repeats too much.
        assert!(shape_error("items: &a [*a]\n").contains("inside the collection"));
        let mut bomb = String::from("x: &a0 [1, 1]\n");
        for i in 1..40 {
            bomb += &format!("x{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1);
        }
        let (doc, err) = PosIndex::parse(&bomb);
        assert_eq!(err, None);
        let e = from_index::<Value>(&doc).expect_err("too many repetitions");
        assert!(e.to_string().contains("repeat too much"), "{e}");
    }

    /// Anchors and aliases repeat a node, as in serde_yaml.
    #[test]
    fn aliases_repeat_nodes() {
        let text = "base: &b { name: a, n: 3 }\nitems: [*b, *b]\n";
        let (doc, _) = PosIndex::parse(text);
        #[derive(Deserialize)]
        struct T {
            items: Vec<S>,
            #[allow(dead_code)]
            base: Value,
        }
        let t: T = from_index(&doc).expect("aliases");
        assert_eq!(t.items.len(), 2);
        assert_eq!(t.items[1].n, 3);
    }

    /// Syntax errors, a second document and a deep nest are errors, not panics.
    #[test]
    fn syntax_errors_and_limits() {
        let (_, e) = PosIndex::parse("a: [1, 2\nb: 3\n");
        assert!(e.is_some());
        let (_, e) = PosIndex::parse("a: 1\n---\nb: 2\n");
        let e = e.expect("a second document");
        assert_eq!((e.pos.line, e.pos.column), (2, 1));
        let (_, e) = PosIndex::parse("a: 1\n\tb: 2\n");
        let e = e.expect("a tab");
        assert_eq!((e.pos.line, e.pos.column), (2, 1), "{}", e.message);
        let deep = format!("{}1\n", "- ".repeat(500));
        let (doc, e) = PosIndex::parse(&deep);
        assert_eq!(e, None);
        let err = from_index::<Value>(&doc).expect_err("too deep");
        assert!(err.to_string().contains("levels deep"), "{err}");
    }
}
