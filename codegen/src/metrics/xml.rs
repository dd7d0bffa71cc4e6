//! Metric-set XML (IGT `lib/i915/perf-configs/oa-*.xml`) -> [`MetricFile`],
//! every item located.
//!
//! Malformed XML is reported once (PR201, where the parser stopped); every
//! other problem is reported and reading goes on: a missing required
//! attribute, an unexpected element or text, a number that does not parse
//! (PR202), a configuration type other than OA/NOA/FLEX or a register whose
//! type differs from its block's (PR203). Elements nested deeper than
//! [`MAX_NESTING`] are refused before parsing (PR202, where the first such
//! tag starts; nothing else is read). Attributes this reader does not use
//! (`mdapi_*`, `priority`, watermarks, ...) are ignored.

use super::model::{ConfigWrite, Counter, Located, MetricFile, MetricSet, RegisterConfig};
use crate::diag::{Code, Diagnostic, Diagnostics, Pos};
use crate::ir::ConfigKind;
use roxmltree::{Document, Node};

/// The position just after the last character of `text`.
fn end_of(text: &str) -> Pos {
    let last_line = text.rsplit('\n').next().unwrap_or("");
    Pos {
        line: text.matches('\n').count() + 1,
        column: last_line.chars().count() + 1,
    }
}

/// Read one metric-set file. `None` only when the text is not well-formed
/// XML; otherwise the file as far as it could be read (items with errors are
/// left out, and each error is in `diags`).
pub fn read(file: &str, text: &str, diags: &mut Diagnostics) -> Option<MetricFile> {
    if let Some(at) = too_deep(text) {
        let line = text[..at].matches('\n').count() + 1;
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        diags.push(Diagnostic {
            code: Code::XmlShape,
            file: file.into(),
            pos: Pos {
                line,
                column: text[start..at].chars().count() + 1,
            },
            item: String::new(),
            message: format!(
                "elements nest deeper than {MAX_NESTING} levels here (a metric-set file nests 4); \
                 reading stops"
            ),
        });
        return None;
    }
    let doc = match Document::parse(text) {
        Ok(d) => d,
        Err(e) => {
            // roxmltree places an unexpected end at 1:1: say where the text ends.
            let pos = match e {
                roxmltree::Error::UnexpectedEndOfStream => end_of(text),
                _ => Pos {
                    line: e.pos().row as usize,
                    column: e.pos().col as usize,
                },
            };
            diags.push(Diagnostic {
                code: Code::XmlSyntax,
                file: file.into(),
                pos,
                item: String::new(),
                message: format!("not well-formed XML: {e}"),
            });
            return None;
        }
    };
    let lines = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut r = Reader {
        file,
        doc: &doc,
        diags,
        lines,
        checkpoints: checkpoints(text),
    };
    let root = doc.root_element();
    let mut out = MetricFile {
        file: file.into(),
        sets: Vec::new(),
    };
    if root.tag_name().name() != "metrics" {
        r.err(
            Code::XmlShape,
            r.pos(root),
            "",
            format!(
                "the root element is <{}>; expected <metrics>",
                root.tag_name().name()
            ),
        );
        return Some(out);
    }
    for n in r.children(root, "metrics") {
        if n.tag_name().name() == "set" {
            if let Some(s) = r.set(n) {
                out.sets.push(s);
            }
        } else {
            r.unexpected(n, "metrics", "<set>");
        }
    }
    Some(out)
}

/// Deepest element nesting read: the XML parser recurses once per level, so
/// a deeper file is refused before parsing (PR202) rather than overflowing
/// the stack.
pub const MAX_NESTING: usize = 64;

/// Byte offset of the first start tag nested deeper than [`MAX_NESTING`].
/// A quick scan of tags (comments, CDATA, processing instructions,
/// declarations and quoted attribute values skipped): on well-formed XML it
/// sees the parser's nesting; on malformed XML the parser stops at the error
/// anyway.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let skip_to = |from: usize, end: &str| text[from..].find(end).map(|i| from + i + end.len());
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(k) = text[i..].find('<') {
        let at = i + k;
        let rest = &text[at..];
        i = if rest.starts_with("<!--") {
            skip_to(at + 4, "-->")?
        } else if rest.starts_with("<![CDATA[") {
            skip_to(at + 9, "]]>")?
        } else if rest.starts_with("<?") {
            skip_to(at + 2, "?>")?
        } else if rest.starts_with("<!") {
            skip_to(at + 2, ">")?
        } else if rest.starts_with("</") {
            depth = depth.saturating_sub(1);
            skip_to(at + 2, ">")?
        } else {
            // A start tag: to its `>`, over quoted values.
            let mut j = at + 1;
            let mut quote = None;
            while j < b.len() {
                match (quote, b[j]) {
                    (None, q @ (b'"' | b'\'')) => quote = Some(q),
                    (Some(q), c) if c == q => quote = None,
                    (None, b'>') => break,
                    _ => {}
                }
                j += 1;
            }
            if j >= b.len() {
                return None;
            }
            if b[j - 1] != b'/' || j - 1 == at {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(at);
                }
            }
            j + 1
        };
    }
    None
}

struct Reader<'a, 'd, 'i> {
    file: &'a str,
    doc: &'d Document<'i>,
    diags: &'a mut Diagnostics,
    /// Byte offset of the start of each line (roxmltree's `text_pos_at`
    /// counts lines from the start of the text on every call: quadratic
    /// over a file).
    lines: Vec<usize>,
    /// (byte offset, its column) every [`CHECKPOINT`] bytes or so: a
    /// column is counted from the last one, not from the start of a line
    /// that may be the whole file.
    checkpoints: Vec<(usize, usize)>,
}

/// Bytes between column checkpoints.
const CHECKPOINT: usize = 4096;

/// Column checkpoints of `text` (see [`Reader::checkpoints`]).
fn checkpoints(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut column = 1;
    let mut next = CHECKPOINT;
    for (i, c) in text.char_indices() {
        if i >= next {
            out.push((i, column));
            next = i + CHECKPOINT;
        }
        column = if c == '\n' { 1 } else { column + 1 };
    }
    out
}

impl<'d, 'i> Reader<'_, 'd, 'i> {
    fn at(&self, offset: usize) -> Pos {
        let text = self.doc.input_text();
        let offset = offset.min(text.len());
        let line = self.lines.partition_point(|&s| s <= offset).max(1);
        let mut start = self.lines.get(line - 1).copied().unwrap_or(0);
        let mut column = 1;
        // From the last checkpoint of this line before `offset`, if any.
        let k = self.checkpoints.partition_point(|&(b, _)| b <= offset);
        if let Some(&(b, c)) = k.checked_sub(1).and_then(|k| self.checkpoints.get(k)) {
            if b > start {
                (start, column) = (b, c);
            }
        }
        let column = text
            .get(start..offset)
            .map_or(1, |t| column + t.chars().count());
        Pos { line, column }
    }
    fn pos(&self, n: Node) -> Pos {
        self.at(n.range().start)
    }
    fn err(&mut self, code: Code, pos: Pos, item: &str, message: String) {
        self.diags.push(Diagnostic {
            code,
            file: self.file.into(),
            pos,
            item: item.into(),
            message,
        });
    }
    fn unexpected(&mut self, n: Node, parent: &str, expected: &str) {
        let pos = self.pos(n);
        self.err(
            Code::XmlShape,
            pos,
            parent,
            format!(
                "unexpected element <{}> in <{parent}>; expected {expected}",
                n.tag_name().name()
            ),
        );
    }
    /// Element children of `n`; non-blank text is reported (comments and
    /// processing instructions are skipped).
    fn children(&mut self, n: Node<'d, 'i>, item: &str) -> Vec<Node<'d, 'i>> {
        let mut out = Vec::new();
        for c in n.children() {
            if c.is_element() {
                out.push(c);
            } else if c.is_text() && c.text().is_some_and(|t| !t.trim().is_empty()) {
                let pos = self.pos(c);
                self.err(
                    Code::XmlShape,
                    pos,
                    item,
                    format!(
                        "unexpected text {:?} in <{}>",
                        c.text().unwrap_or_default().trim(),
                        n.tag_name().name()
                    ),
                );
            }
        }
        out
    }
    /// An attribute with the position of its value.
    fn attr(&self, n: Node, name: &str) -> Option<Located<String>> {
        n.attributes().find(|a| a.name() == name).map(|a| {
            let range = a.range_value();
            let pos = self.at(range.start);
            let raw = self.doc.input_text().get(range).unwrap_or_default();
            Located {
                value: a.value().to_string(),
                pos,
                char_pos: char_positions(raw, pos, a.value().chars().count()),
            }
        })
    }
    /// A required attribute; reported (PR202) when missing.
    fn req(&mut self, n: Node, name: &str, item: &str) -> Option<Located<String>> {
        let a = self.attr(n, name);
        if a.is_none() {
            let pos = self.pos(n);
            self.err(
                Code::XmlShape,
                pos,
                item,
                format!("<{}> has no `{name}` attribute", n.tag_name().name()),
            );
        }
        a
    }
    fn number(&mut self, a: &Located<String>, what: &str, item: &str) -> Option<u64> {
        let v = parse_number(&a.value);
        if v.is_none() {
            self.err(
                Code::XmlShape,
                a.pos,
                item,
                format!(
                    "{what} {:?} is not a number (decimal or 0x hexadecimal, 64 bits at most)",
                    a.value
                ),
            );
        }
        v
    }
    fn kind(&mut self, a: &Located<String>, item: &str) -> Option<ConfigKind> {
        let k = ConfigKind::parse(&a.value);
        if k.is_none() {
            self.err(
                Code::UnknownConfigType,
                a.pos,
                item,
                format!("configuration type {:?}; expected OA, NOA or FLEX", a.value),
            );
        }
        k
    }

    fn set(&mut self, n: Node<'d, 'i>) -> Option<MetricSet> {
        let sym = self.attr(n, "symbol_name").map(|a| a.value);
        let item = sym.clone().unwrap_or_else(|| "<set>".into());
        let name = self.req(n, "name", &item);
        let symbol = self.req(n, "symbol_name", &item);
        let under = self.req(n, "underscore_name", &item);
        let chipset = self.req(n, "chipset", &item);
        let guid = self.req(n, "hw_config_guid", &item);
        let oa_format = self.attr(n, "oa_format");
        let mut counters = Vec::new();
        let mut configs = Vec::new();
        for c in self.children(n, &item) {
            match c.tag_name().name() {
                "counter" => counters.extend(self.counter(c, &item)),
                "register_config" => configs.extend(self.config(c, &item)),
                _ => self.unexpected(c, &item, "<counter> or <register_config>"),
            }
        }
        Some(MetricSet {
            name: name?.value,
            symbol_name: symbol?.value,
            underscore_name: under?.value,
            chipset: chipset?.value,
            guid: guid?.value,
            oa_format,
            counters,
            configs,
            pos: self.pos(n),
        })
    }

    fn counter(&mut self, n: Node<'d, 'i>, set: &str) -> Option<Counter> {
        let sym = self.attr(n, "symbol_name").map(|a| a.value);
        let item = format!("{set}.{}", sym.as_deref().unwrap_or("<counter>"));
        let name = self.req(n, "name", &item);
        let symbol = self.req(n, "symbol_name", &item);
        let under = self.req(n, "underscore_name", &item);
        let description = self.req(n, "description", &item);
        let data_type = self.req(n, "data_type", &item);
        let units = self.req(n, "units", &item);
        let semantic = self.req(n, "semantic_type", &item);
        let equation = self.req(n, "equation", &item);
        let max_equation = self.attr(n, "max_equation");
        let availability = self.attr(n, "availability");
        for c in self.children(n, &item) {
            self.unexpected(c, &item, "no child element");
        }
        Some(Counter {
            name: name?.value,
            symbol_name: symbol?.value,
            underscore_name: under?.value,
            description: description?.value,
            data_type: data_type?.value,
            units: units?.value,
            semantic_type: semantic?.value,
            equation: equation?,
            max_equation,
            availability,
            pos: self.pos(n),
        })
    }

    fn config(&mut self, n: Node<'d, 'i>, set: &str) -> Option<RegisterConfig> {
        let item = format!("{set}.register_config");
        let ty = self.req(n, "type", &item);
        let kind = ty.as_ref().and_then(|t| self.kind(t, &item));
        let availability = self.attr(n, "availability");
        let mut writes = Vec::new();
        for c in self.children(n, &item) {
            if c.tag_name().name() != "register" {
                self.unexpected(c, &item, "<register>");
                continue;
            }
            let rty = self.req(c, "type", &item);
            let addr = self.req(c, "address", &item);
            let value = self.req(c, "value", &item);
            let rkind = rty.as_ref().and_then(|t| self.kind(t, &item));
            let address = addr.as_ref().and_then(|a| self.number(a, "address", &item));
            let value = value.as_ref().and_then(|v| self.number(v, "value", &item));
            if let (Some(rk), Some(bk), Some(t)) = (rkind, kind, &rty) {
                if rk != bk {
                    self.err(
                        Code::UnknownConfigType,
                        t.pos,
                        &item,
                        format!(
                            "a {} register in a {} block (a block's registers share its type)",
                            rk.as_str(),
                            bk.as_str()
                        ),
                    );
                }
            }
            if let (Some(kind), Some(address), Some(value)) = (rkind, address, value) {
                writes.push(ConfigWrite {
                    kind,
                    address,
                    value,
                    pos: self.pos(c),
                });
            }
        }
        Some(RegisterConfig {
            kind: kind?,
            availability,
            writes,
            pos: self.pos(n),
        })
    }
}

/// Where each of the `decoded` characters of an attribute value whose text
/// in the file is `raw` (starting at `start`) is, and where the value ends;
/// empty when each character is one column after the previous one. A
/// reference (`&amp;`, `&#10;`) is one character of the value; `\r\n` is one
/// (a blank: attribute-value normalization) and ends a line.
fn char_positions(raw: &str, start: Pos, decoded: usize) -> Vec<Pos> {
    if !raw.contains(['&', '\n', '\r']) {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(decoded + 1);
    let mut pos = start;
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        out.push(pos);
        let unit = if c == '&' {
            rest.find(';').map_or(1, |i| i + 1)
        } else if rest.starts_with("\r\n") {
            2
        } else {
            c.len_utf8()
        };
        let text = rest.get(..unit).unwrap_or(rest);
        if text.ends_with('\n') {
            pos = Pos {
                line: pos.line + 1,
                column: 1,
            };
        } else {
            pos.column += text.chars().count();
        }
        rest = rest.get(unit..).unwrap_or_default();
    }
    // Reported positions never go past the value's end.
    out.truncate(decoded);
    out.resize(decoded + 1, pos);
    out
}

/// A decimal or `0x` hexadecimal number (surrounding blanks allowed).
pub fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) if !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(h, 16).ok()
        }
        Some(_) => None,
        None if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Option<MetricFile>, Vec<Diagnostic>) {
        let mut d = Diagnostics::default();
        let f = read("t.xml", text, &mut d);
        (f, d.sorted())
    }

    #[test]
    fn a_truncated_file_is_located_at_its_end() {
        // Cut inside the second line's element: the end is line 2, column 12.
        let (f, d) = run("<metrics>\n  <set name");
        assert!(f.is_none());
        assert_eq!(codes(&d), [("PR201", 2, 12)]);
        assert!(d[0].message.contains("end"), "{}", d[0].message);
    }

    fn codes(d: &[Diagnostic]) -> Vec<(&'static str, usize, usize)> {
        d.iter()
            .map(|d| (d.code.as_str(), d.pos.line, d.pos.column))
            .collect()
    }

    const SET: &str = r#"<metrics>
  <set name="S" chipset="BDW" symbol_name="S" underscore_name="s" hw_config_guid="g">
    <counter name="C" symbol_name="C" underscore_name="c" description="d" data_type="uint64"
             units="events" semantic_type="event" equation="A 1 READ" mdapi_group="x"/>
    <register_config type="NOA">
      <register type="NOA" address="0x9888" value="0x14150001"/>
      <register type="NOA" address="37000" value="0"/>
    </register_config>
  </set>
</metrics>"#;

    #[test]
    fn reads_a_set_with_positions() {
        let (f, d) = run(SET);
        assert!(d.is_empty(), "{d:?}");
        let f = f.expect("file");
        let s = &f.sets[0];
        assert_eq!(
            (s.symbol_name.as_str(), s.pos),
            ("S", Pos { line: 2, column: 3 })
        );
        let c = &s.counters[0];
        assert_eq!(c.equation.value, "A 1 READ");
        assert_eq!(
            c.equation.pos,
            Pos {
                line: 4,
                column: 61
            }
        );
        let w = &s.configs[0].writes;
        assert_eq!((w[0].address, w[0].value), (0x9888, 0x1415_0001));
        assert_eq!((w[1].address, w[1].value), (37000, 0));
        assert_eq!(w[1].pos, Pos { line: 7, column: 7 });
        assert_eq!(s.configs[0].kind, ConfigKind::Noa);
    }

    #[test]
    fn malformed_xml_is_pr201_where_the_parser_stopped() {
        let (f, d) = run("<metrics>\n  <set name=\"x\">\n</metrics>");
        assert!(f.is_none());
        assert_eq!(codes(&d), [("PR201", 3, 1)]);
    }

    #[test]
    fn shape_errors_are_pr202_and_reading_goes_on() {
        let text = SET
            .replace(r#" units="events""#, "")
            .replace(r#"address="37000""#, r#"address="0xZZ""#)
            .replace("</set>", "<bogus/>\n  </set>");
        let (f, d) = run(&text);
        assert_eq!(
            codes(&d),
            [("PR202", 3, 5), ("PR202", 7, 37), ("PR202", 9, 3)],
            "{d:?}"
        );
        assert!(d[0].message.contains("`units`"));
        // The set is kept, without the broken counter and write.
        let f = f.expect("file");
        assert_eq!(f.sets[0].counters.len(), 0);
        assert_eq!(f.sets[0].configs[0].writes.len(), 1);
    }

    #[test]
    fn config_types_are_pr203() {
        let text = SET
            .replace(
                r#"<register_config type="NOA">"#,
                r#"<register_config type="MUX">"#,
            )
            .replace(
                r#"<register type="NOA" address="37000""#,
                r#"<register type="OA" address="37000""#,
            );
        let (_, d) = run(&text);
        assert_eq!(codes(&d), [("PR203", 5, 28)], "{d:?}");
        let text = SET.replace(
            r#"<register type="NOA" address="37000""#,
            r#"<register type="FLEX" address="37000""#,
        );
        let (_, d) = run(&text);
        assert_eq!(codes(&d), [("PR203", 7, 23)], "{d:?}");
        assert!(d[0].message.contains("FLEX register in a NOA block"));
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        // 100,000 levels overflowed the parser's stack (its recursion per level).
        let deep = format!("<metrics>\n{}", "<a>".repeat(100_000));
        let (f, d) = run(&deep);
        assert!(f.is_none());
        assert_eq!(codes(&d), [("PR202", 2, 3 * 63 + 1)], "{d:?}");
        // Comments, CDATA, quoted `>` and self-closed tags do not nest.
        let flat = format!(
            "<metrics>{}</metrics>",
            "<!-- <a> --><![CDATA[<a>]]><?p <a>?><x y=\"<a>\"/>".repeat(200)
        );
        let (_, d) = run(&flat);
        assert!(d.iter().all(|d| !d.message.contains("nest")), "{d:?}");
        // Exactly the limit is read (and its unexpected elements reported).
        let limit = format!(
            "<metrics>{}{}</metrics>",
            "<a>".repeat(MAX_NESTING - 1),
            "</a>".repeat(MAX_NESTING - 1)
        );
        let (f, d) = run(&limit);
        assert!(f.is_some());
        assert_eq!(codes(&d), [("PR202", 1, 10)]);
    }

    #[test]
    fn value_positions_count_references_and_line_breaks() {
        let text = SET.replace(
            r#"equation="A 1 READ""#,
            "equation=\"1 &amp;&amp;\r\n  A &#49; READ\"",
        );
        let (f, d) = run(&text);
        assert!(d.is_empty(), "{d:?}");
        let f = f.expect("file");
        let eq = &f.sets[0].counters[0].equation;
        assert_eq!(eq.value, "1 &&   A 1 READ");
        let p = |i| {
            let p = eq.pos_at(i);
            (p.line, p.column)
        };
        // `1` at the value's start; `&&` at `&amp;&amp;`; `A` on the next line.
        assert_eq!(p(0), (4, 61));
        assert_eq!(p(2), (4, 63));
        assert_eq!(p(3), (4, 68));
        assert_eq!(p(7), (5, 3));
        assert_eq!(p(9), (5, 5));
        assert_eq!(p(11), (5, 11));
        assert_eq!(p(14), (5, 14));
        assert_eq!(p(15), (5, 15));
        assert_eq!(p(99), (5, 15));
        assert_eq!(eq.char_pos.len(), 16);
        // A plain value keeps no table.
        let (f, _) = run(SET);
        assert!(f.expect("file").sets[0].counters[0]
            .equation
            .char_pos
            .is_empty());
    }

    #[test]
    fn positions_on_one_long_line() {
        // A file on one line (minified) counted each column from the start
        // of the file: quadratic. Positions are the same with checkpoints.
        let one = SET.replace('\n', " ").replace(
            "<metrics>",
            &format!("<metrics x=\"{}\">", "é ".repeat(5000)),
        );
        let text = one.replace(r#"address="37000""#, r#"address="0xZZ""#);
        let (_, d) = run(&text);
        let at = text.find("0xZZ").expect("0xZZ");
        assert_eq!(codes(&d), [("PR202", 1, text[..at].chars().count() + 1)]);
        let p = checkpoints(&text);
        assert!(p.len() > 2 && p.iter().all(|&(b, c)| text[..b].chars().count() + 1 == c));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_number("0x00FF"), Some(255));
        assert_eq!(parse_number("12"), Some(12));
        for bad in ["", "0x", "-1", "1e3", "0x1G", "99999999999999999999"] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
    }
}
