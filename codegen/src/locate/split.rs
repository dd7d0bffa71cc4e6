//! Parsing a large description in pieces, one thread each: the YAML parser
//! runs unoptimized in the proc-macro (about 0.3 ms per KB), and a user's
//! file of 1,000 registers is mostly one block sequence.
//!
//! Assumes a text whose last top-level key holds a block sequence indented
//! by at least one space (`registers:` then `  - ...` lines) running to the
//! end of the text. A line at the sequence's indentation starting with `- `
//! then starts one of its items, whatever came before: a block scalar, a
//! plain scalar's continuation and a block collection of an item all end at
//! a line that indented (YAML's indentation rules), and a quoted scalar or
//! a flow collection left open, or an alias of an anchor in another piece,
//! is an error in the piece that holds it. So the text is cut before such
//! lines, the head (the keys and the first items) and each run of items are
//! parsed apart, and their trees are joined: the items' nodes follow the
//! head's, numbered and placed (lines shifted) as one parse of the whole
//! text numbers and places them.
//!
//! Gives `None` (the caller parses the text whole) for any other text: no
//! such key last, a tab in an indentation, a lone `\r` line break (lines
//! are counted at `\n`), a line of the sequence indented less than its
//! items, an error in any piece, or a node a piece places at its end (the
//! empty value of a last key, which a whole parse places at the next line).

use super::{Children, PosIndex};

/// Texts shorter than this are parsed whole (threads cost more than they save).
pub(super) const MIN_LEN: usize = 64 * 1024;

/// The tree of `text` parsed in `pieces` pieces (at most; fewer where it
/// has fewer items), or `None` where the text is not one this module cuts.
pub(super) fn parse(text: &str, pieces: usize) -> Option<PosIndex> {
    if text.contains('\r') {
        return None;
    }
    let cuts = cut_points(text, pieces)?;
    let mut bounds = vec![0];
    bounds.extend(cuts.iter().map(|c| c.0));
    bounds.push(text.len());
    let parts: Vec<&str> = bounds.windows(2).map(|w| &text[w[0]..w[1]]).collect();
    let parsed: Vec<(PosIndex, bool)> = std::thread::scope(|s| {
        let rest: Vec<_> = parts[1..]
            .iter()
            .map(|p| s.spawn(move || parse_piece(p)))
            .collect();
        let mut out = vec![parse_piece(parts[0])];
        for h in rest {
            match h.join() {
                Ok(r) => out.push(r),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    });
    let mut trees = parsed.into_iter();
    let (mut whole, ok) = trees.next()?;
    // The head: a mapping whose last entry is the sequence.
    let seq = match &whole.nodes.first()?.children {
        Children::Map(entries) => entries.last()?.value,
        _ => return None,
    };
    if !ok || !matches!(whole.nodes[seq].children, Children::Seq(_)) {
        return None;
    }
    for ((piece, ok), &(_, lines_before)) in trees.zip(&cuts) {
        if !ok {
            return None;
        }
        append(&mut whole, seq, piece, lines_before)?;
    }
    Some(whole)
}

/// A piece's tree, and whether it parsed without an error and places no
/// node at its end.
fn parse_piece(text: &str) -> (PosIndex, bool) {
    let (index, error) = PosIndex::parse_whole(text);
    // Lines, the last one counted whether or not a line break ends it.
    let lines = text.bytes().filter(|&b| b == b'\n').count() + usize::from(!text.ends_with('\n'));
    let inside = index
        .nodes
        .iter()
        .all(|n| n.pos.line <= lines && n.key.is_none_or(|k| k.line <= lines));
    let ok = error.is_none() && inside;
    (index, ok)
}

/// Join a piece (a sequence at its root) to `whole`: its items become
/// items of `whole`'s sequence node `seq`, its lines shifted by
/// `lines_before`.
fn append(whole: &mut PosIndex, seq: usize, piece: PosIndex, lines_before: usize) -> Option<()> {
    let Children::Seq(items) = &piece.nodes.first()?.children else {
        return None;
    };
    let base = whole.nodes.len();
    // Node `i` of the piece: its root is `seq`, the others follow `whole`'s.
    let id = |i: usize| match i {
        0 => seq,
        usize::MAX => usize::MAX,
        i => base + i - 1,
    };
    let new_items: Vec<usize> = items.iter().map(|&i| id(i)).collect();
    for mut n in piece.nodes.into_iter().skip(1) {
        n.pos.line += lines_before;
        if let Some(k) = &mut n.key {
            k.line += lines_before;
        }
        n.parent = id(n.parent);
        match &mut n.children {
            Children::Map(entries) => entries.iter_mut().for_each(|e| e.value = id(e.value)),
            Children::Seq(v) => v.iter_mut().for_each(|i| *i = id(*i)),
            Children::Alias(t) => *t = id(*t),
            Children::Leaf { .. } => {}
        }
        whole.nodes.push(n);
    }
    match &mut whole.nodes[seq].children {
        Children::Seq(v) => v.extend(new_items),
        _ => return None,
    }
    Some(())
}

/// Where to cut `text` into `pieces`: `(byte offset, lines before it)` of
/// item lines of the last key's sequence, near equal shares of the text
/// after the first item; `None` if the text is not of the assumed shape.
fn cut_points(text: &str, pieces: usize) -> Option<Vec<(usize, usize)>> {
    // Every line: (start, indentation in spaces, first byte after it).
    let mut lines: Vec<(usize, usize, u8)> = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = text[start..]
            .find('\n')
            .map_or(text.len(), |i| start + i + 1);
        let line = &text.as_bytes()[start..end];
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let first = line.get(indent).copied().unwrap_or(b'\n');
        if first == b'\t' {
            return None;
        }
        lines.push((start, indent, first));
        start = end;
    }
    let content = |&(_, _, first): &(usize, usize, u8)| !matches!(first, b'\n' | b'\r' | b'#');
    // The last top-level line: `key:` and nothing else.
    let key = lines.iter().rposition(|l| content(l) && l.1 == 0)?;
    let key_line = text[lines[key].0..].lines().next()?;
    let name = key_line.trim_end().strip_suffix(':')?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let body: Vec<(usize, (usize, usize, u8))> = (key + 1..lines.len())
        .map(|i| (i, lines[i]))
        .filter(|(_, l)| content(l))
        .collect();
    let indent = body.first()?.1 .1;
    let item = |&(start, ind, first): &(usize, usize, u8)| {
        ind == indent && first == b'-' && text.as_bytes().get(start + ind + 1) == Some(&b' ')
    };
    if indent == 0 || !item(&body.first()?.1) || body.iter().any(|(_, l)| l.1 < indent) {
        return None;
    }
    let first_item = lines[body.first()?.0].0;
    let share = (text.len() - first_item) / pieces.max(1);
    let mut cuts = Vec::new();
    for (i, l) in body.iter().skip(1).filter(|(_, l)| item(l)) {
        if cuts.len() + 1 < pieces && l.0 >= first_item + share * (cuts.len() + 1) {
            cuts.push((l.0, *i));
        }
    }
    Some(cuts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A description whose registers are the last key, `n` items with the
    /// shapes the files use (flow mappings, quoted and block scalars, an
    /// empty value, comments, blank lines).
    fn text(n: usize) -> String {
        let mut s = String::from(
            "# head\nblock: x\nspace: mmio\nnote: |\n  - not an item\n  text\nregisters:\n",
        );
        for i in 0..n {
            s += &format!(
                "  - name: R{i}\n    projects: tgl\n    address: {:#x}\n    description: \"a \
                 \\\"quoted\\\" {i}\"\n    note: |\n      block {i}\n      - not an item\n\n    \
                 # a comment\n    fields:\n      - {{ name: f, bits: 0, access: RW }}\n    \
                 prm:\n    title: >\n      folded\n",
                0x100 + 4 * i
            );
        }
        s
    }

    /// Cut into any number of pieces, the tree is the one a whole parse
    /// gives (node numbers, positions, keys, parents).
    #[test]
    fn pieces_join_to_the_whole_tree() {
        let t = text(40);
        let whole = PosIndex::parse_whole(&t).0;
        for pieces in [2, 3, 7, 40, 100] {
            let split = parse(&t, pieces).expect("cuts");
            assert_eq!(
                format!("{split:?}"),
                format!("{whole:?}"),
                "{pieces} pieces"
            );
        }
        assert!(cut_points(&t, 7).is_some_and(|c| c.len() == 6));
    }

    /// Texts of other shapes are left to the whole parse.
    #[test]
    fn other_shapes_are_not_cut() {
        let t = text(10);
        for other in [
            format!("{t}enums: []\n"),
            t.replace("registers:\n", "registers: # list\n"),
            t.replace("\n  - name: R3", "\n\t- name: R3"),
            t.replace('\n', "\r"),
            t.replace("  - name: R5\n", "  - name: R5\n - oops\n"),
            t.replace("  - name: R0", "- name: R0"),
        ] {
            assert!(parse(&other, 3).is_none(), "{other}");
        }
        // An error in a piece (a quoted scalar open across a cut) is not cut.
        let open = t.replace("a \\\"quoted\\\" 6\"", "a \\\"quoted\\\" 6");
        assert!(parse(&open, 10).is_none());
        // An alias of an anchor in another piece is not cut.
        let alias = t
            .replace(
                "projects: tgl\n    address: 0x100",
                "projects: &p tgl\n    address: 0x100",
            )
            .replace(
                "projects: tgl\n    address: 0x124",
                "projects: *p\n    address: 0x124",
            );
        assert!(parse(&alias, 10).is_none());
        assert!(PosIndex::parse_whole(&alias).1.is_none());
    }

    /// Every shipped description and the diagnostics fixtures that this
    /// module cuts give the whole parse's tree.
    #[test]
    fn shipped_files_cut_the_same() {
        let mut cut = 0;
        for (name, text) in perfregs_regdefs::FILES {
            if let Some(split) = parse(text, 5) {
                cut += 1;
                let whole = PosIndex::parse_whole(text).0;
                assert_eq!(format!("{split:?}"), format!("{whole:?}"), "{name}");
            }
        }
        assert!(cut > 3, "{cut} files cut");
    }
}
