//! Text layout of the generated file: `prettyplease` spreads every struct
//! literal over one line per field, which turns the runtime tables (a
//! `RegisterInfo` per register, a `FieldInfo` per field, a `MapRow` per
//! address-map row) into most of the file. This pass puts each such row on
//! one line, the way a hand-written table reads. It only joins lines: the
//! tokens, and so the compiled code, are unchanged.

/// Struct literals of `hal::meta` that are table rows.
const ROWS: &[&str] = &[
    "meta::RegisterInfo {",
    "meta::FieldInfo {",
    "meta::MapRow {",
    "meta::DomainInfo {",
    "meta::GroupInfo {",
    "meta::CounterEvent {",
    "meta::FuseInfo {",
    "meta::DeviceId {",
];

/// Widest line a packed run of short list items makes.
const PACK_WIDTH: usize = 100;

/// Short list items packed several to a line: references into the register
/// table and report counter slots (one complete item per source line).
fn packable(t: &str) -> bool {
    (t.starts_with("&REGISTERS[") && t.ends_with("],"))
        || (t.starts_with("CounterSlot::") && t.ends_with("),") && depth_change(t) == 0)
}

/// Bracket depth change of a line, ignoring brackets inside string literals.
fn depth_change(line: &str) -> i64 {
    let mut depth = 0;
    let mut in_str = false;
    let mut escaped = false;
    for c in line.chars() {
        if in_str {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// Join each multi-line table-row literal into one line; pack runs of
/// short list items (register-table references, report counter slots) up
/// to 100 columns.
pub fn rows_on_one_line(text: &str) -> String {
    rows_on_one_line_of(text, ROWS)
}

/// [`rows_on_one_line`] for row literals ending in any of `rows` (such as
/// `"FieldRef {"`).
pub fn rows_on_one_line_of(text: &str, rows: &[&str]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if rows.iter().any(|r| trimmed.ends_with(r)) && !trimmed.contains('=') {
            let mut joined = line.trim_end().to_string();
            let mut depth = depth_change(line);
            i += 1;
            while depth > 0 && i < lines.len() {
                let next = lines[i].trim();
                depth += depth_change(next);
                if !(joined.ends_with('(')
                    || joined.ends_with('[')
                    || next.starts_with(')')
                    || next.starts_with(']'))
                {
                    joined.push(' ');
                }
                joined.push_str(next);
                i += 1;
            }
            out.push_str(&joined);
            out.push('\n');
            continue;
        }
        if packable(trimmed) {
            let indent = &line[..line.len() - trimmed.len()];
            let mut row = String::new();
            while i < lines.len() && packable(lines[i].trim()) {
                let t = lines[i].trim();
                if !row.is_empty() && indent.len() + row.len() + 1 + t.len() > PACK_WIDTH {
                    out.push_str(indent);
                    out.push_str(&row);
                    out.push('\n');
                    row.clear();
                }
                if !row.is_empty() {
                    row.push(' ');
                }
                row.push_str(t);
                i += 1;
            }
            out.push_str(indent);
            out.push_str(&row);
            out.push('\n');
            continue;
        }
        out.push_str(line);
        out.push('\n');
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_join_and_strings_keep_their_brackets() {
        let text = "static X: [crate::meta::FieldInfo; 1] = [\n    crate::meta::FieldInfo {\n        name: \"a}{\\\"\",\n        values: &[\n            (\"x\", 1),\n        ],\n    },\n];\n";
        let got = rows_on_one_line(text);
        assert_eq!(
            got,
            "static X: [crate::meta::FieldInfo; 1] = [\n    crate::meta::FieldInfo { name: \"a}{\\\"\", values: &[(\"x\", 1),], },\n];\n"
        );
    }

    #[test]
    fn register_refs_pack_to_the_width() {
        let mut text = String::from("registers: &[\n");
        for i in 0..12 {
            text += &format!("    &REGISTERS[{i}],\n");
        }
        text += "],\n";
        let got = rows_on_one_line(&text);
        assert!(got.lines().all(|l| l.len() <= PACK_WIDTH), "{got}");
        assert_eq!(got.lines().count(), 4, "{got}");
        // Nothing lost or reordered.
        let refs: Vec<&str> = got
            .split_whitespace()
            .filter(|w| w.starts_with("&REGISTERS"))
            .collect();
        assert_eq!(refs.len(), 12);
        assert_eq!(refs[11], "&REGISTERS[11],");
    }
}
