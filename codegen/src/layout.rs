//! Text layout of the generated file: `prettyplease` spreads every struct
//! literal over one line per field, which turns the runtime tables (a
//! `RegisterInfo` per register, a `FieldInfo` per field, a `MapRow` per
//! address-map row) into most of the file. This pass puts each such row on
//! one line, the way a hand-written table reads. It only joins lines: the
//! tokens, and so the compiled code, are unchanged.

/// Struct literals of `perfregs_hal::meta` that are table rows.
const ROWS: &[&str] = &[
    "meta::RegisterInfo {",
    "meta::FieldInfo {",
    "meta::MapRow {",
    "meta::DomainInfo {",
    "meta::GroupInfo {",
    "meta::CounterEvent {",
    "meta::FuseInfo {",
];

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
/// `&REGISTERS[n],` lines ten to a line.
pub fn rows_on_one_line(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if ROWS.iter().any(|r| trimmed.ends_with(r)) && !trimmed.contains('=') {
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
        if trimmed.starts_with("&REGISTERS[") && trimmed.ends_with("],") {
            let indent = &line[..line.len() - trimmed.len()];
            let mut run = Vec::new();
            while i < lines.len() {
                let t = lines[i].trim();
                if !(t.starts_with("&REGISTERS[") && t.ends_with("],")) {
                    break;
                }
                run.push(t);
                i += 1;
            }
            for chunk in run.chunks(10) {
                out.push_str(indent);
                out.push_str(&chunk.join(" "));
                out.push('\n');
            }
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
    fn register_refs_pack_ten_to_a_line() {
        let mut text = String::from("registers: &[\n");
        for i in 0..12 {
            text += &format!("    &REGISTERS[{i}],\n");
        }
        text += "],\n";
        let got = rows_on_one_line(&text);
        assert_eq!(got.lines().count(), 4);
        assert!(got.contains("&REGISTERS[9], \n") || got.contains("&REGISTERS[9],\n"));
    }
}
