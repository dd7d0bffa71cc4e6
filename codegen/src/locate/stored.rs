//! A parsed text stored as bytes: [`PosIndex`] trees written once (by a
//! build script, for the built-in descriptions) and read back without the
//! YAML parser, which dominates loading when it runs unoptimized (as cargo
//! builds a proc-macro).
//!
//! The form: the magic [`MAGIC`], then per text its name, its length in
//! bytes and its tree; numbers are little-endian `u32`, strings a length and
//! UTF-8 bytes. Reading checks every length and index and gives `None` for
//! anything else, so a stale or damaged store is never trusted.

use super::{Children, Entry, KeyKind, Node, PosIndex};
use crate::diag::Pos;

/// The first bytes of a store (with the form's version).
pub const MAGIC: &[u8] = b"perfregs parsed descriptions v1\n";

/// One text of a store: its name, its length and its tree.
pub(crate) struct StoredText {
    pub(crate) name: String,
    pub(crate) len: usize,
    pub(crate) index: PosIndex,
}

/// Write `texts` (name, length of the text, its tree with its values).
pub(crate) fn write(texts: &[(&str, usize, &PosIndex)]) -> Vec<u8> {
    let mut w = Writer(MAGIC.to_vec());
    w.len(texts.len());
    for (name, len, index) in texts {
        w.str(name);
        w.len(*len);
        w.len(index.nodes.len());
        for n in &index.nodes {
            w.pos(n.pos);
            match n.key {
                Some(k) => {
                    w.0.push(1);
                    w.pos(k);
                }
                None => w.0.push(0),
            }
            w.index(n.parent);
            match &n.children {
                Children::Leaf { value, plain } => {
                    w.0.push(0);
                    w.0.push(u8::from(*plain));
                    w.str(value);
                }
                Children::Map(entries) => {
                    w.0.push(1);
                    w.len(entries.len());
                    for e in entries {
                        w.str(&e.key);
                        w.0.push(match e.kind {
                            KeyKind::Plain => 0,
                            KeyKind::Quoted => 1,
                            KeyKind::Complex => 2,
                        });
                        w.index(e.value);
                    }
                }
                Children::Seq(items) => {
                    w.0.push(2);
                    w.len(items.len());
                    for &i in items {
                        w.index(i);
                    }
                }
                Children::Alias(target) => {
                    w.0.push(3);
                    w.index(*target);
                }
            }
        }
    }
    w.0
}

/// Read a store written by [`write`]; `None` if it is not one, or is damaged
/// anywhere (a node index out of range included).
pub(crate) fn read(bytes: &[u8]) -> Option<Vec<StoredText>> {
    let mut r = Reader(bytes.strip_prefix(MAGIC)?);
    let count = r.u32()?;
    let mut out = Vec::new();
    for _ in 0..count {
        let name = r.str()?;
        let len = r.u32()? as usize;
        let nodes = r.u32()? as usize;
        // Every node takes at least 14 bytes: a count beyond the rest is damage.
        if nodes > r.0.len() / 14 {
            return None;
        }
        let mut index = PosIndex {
            nodes: Vec::with_capacity(nodes),
        };
        let valid = |i: usize| (i < nodes).then_some(i);
        for _ in 0..nodes {
            let pos = r.pos()?;
            let key = match r.u8()? {
                0 => None,
                1 => Some(r.pos()?),
                _ => return None,
            };
            let parent = r.index(nodes)?;
            let children = match r.u8()? {
                0 => {
                    let plain = match r.u8()? {
                        0 => false,
                        1 => true,
                        _ => return None,
                    };
                    Children::Leaf {
                        value: r.str()?,
                        plain,
                    }
                }
                1 => {
                    let n = r.u32()? as usize;
                    let mut entries = Vec::with_capacity(n.min(r.0.len()));
                    for _ in 0..n {
                        let key = r.str()?;
                        let kind = match r.u8()? {
                            0 => KeyKind::Plain,
                            1 => KeyKind::Quoted,
                            2 => KeyKind::Complex,
                            _ => return None,
                        };
                        let value = valid(r.u32()? as usize)?;
                        entries.push(Entry { key, kind, value });
                    }
                    Children::Map(entries)
                }
                2 => {
                    let n = r.u32()? as usize;
                    let mut items = Vec::with_capacity(n.min(r.0.len()));
                    for _ in 0..n {
                        items.push(valid(r.u32()? as usize)?);
                    }
                    Children::Seq(items)
                }
                3 => Children::Alias(r.index(nodes)?),
                _ => return None,
            };
            index.nodes.push(Node {
                pos,
                key,
                parent,
                children,
            });
        }
        out.push(StoredText { name, len, index });
    }
    r.0.is_empty().then_some(out)
}

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// A length or position; the texts are far below 4 GiB.
    fn len(&mut self, v: usize) {
        self.u32(u32::try_from(v).unwrap_or(u32::MAX));
    }
    /// A node index, `usize::MAX` (no node) as `u32::MAX`.
    fn index(&mut self, v: usize) {
        self.len(v);
    }
    fn pos(&mut self, p: Pos) {
        self.len(p.line);
        self.len(p.column);
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    /// A node index below `nodes`, or `u32::MAX` for none.
    fn index(&mut self, nodes: usize) -> Option<usize> {
        match self.u32()? {
            u32::MAX => Some(usize::MAX),
            i if (i as usize) < nodes => Some(i as usize),
            _ => None,
        }
    }
    fn pos(&mut self) -> Option<Pos> {
        Some(Pos {
            line: self.u32()? as usize,
            column: self.u32()? as usize,
        })
    }
    fn str(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        std::str::from_utf8(self.take(n)?).ok().map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &PosIndex, b: &PosIndex) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    /// What is written reads back as the same trees, for texts with every
    /// kind of node (keys quoted and complex, aliases, a BOM-free empty text).
    #[test]
    fn round_trips() {
        let texts = [
            ("a.yaml", "a: 1\nb: [x, 'y', {c: d}]\n? [k]\n: v\n"),
            ("b.yaml", "x: &r {p: 1}\ny: *r\nz: \"q\"\n"),
            ("c.yaml", ""),
        ];
        let parsed: Vec<PosIndex> = texts.iter().map(|(_, t)| PosIndex::parse(t).0).collect();
        let rows: Vec<(&str, usize, &PosIndex)> = texts
            .iter()
            .zip(&parsed)
            .map(|((n, t), i)| (*n, t.len(), i))
            .collect();
        let bytes = write(&rows);
        let back = read(&bytes).expect("reads");
        assert_eq!(back.len(), 3);
        for ((name, text), (stored, index)) in texts.iter().zip(back.iter().zip(&parsed)) {
            assert_eq!(&stored.name, name);
            assert_eq!(stored.len, text.len());
            assert!(same(&stored.index, index), "{name}");
        }
    }

    /// Every truncation and a changed magic are refused, never misread; a
    /// node index out of range is refused.
    #[test]
    fn refuses_damage() {
        let (index, _) = PosIndex::parse("a: [1, 2]\nb: {c: d}\n");
        let bytes = write(&[("a.yaml", 20, &index)]);
        for cut in 0..bytes.len() {
            assert!(read(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        let mut other = bytes.clone();
        other[0] ^= 1;
        assert!(read(&other).is_none());
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(read(&extra).is_none());
        // The first node's parent (after name, len, node count, pos, key flag).
        let at = MAGIC.len() + 4 + (4 + 6) + 4 + 4 + 8 + 1;
        let mut bad = bytes;
        bad[at..at + 4].copy_from_slice(&7u32.to_le_bytes());
        assert!(read(&bad).is_none());
    }
}
