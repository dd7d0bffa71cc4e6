//! Mutation testing of the front end, shared by the short CI test
//! (`tests/all/diagnostics.rs`: `mutated_descriptions_never_panic`) and the long
//! run (`tests/all/mutation.rs`, ignored; see `codegen/README.md`).
//!
//! Input `index` of a run with `seed` is a pure function of the two (a
//! hand-written SplitMix64 seeds a xorshift64* stream per input), so any
//! failure is reproduced by running that one index again, in any thread
//! count. Each input is one corpus file (every shipped `regdefs/*.yaml`, every
//! `tests/fixtures/**.yaml`, every `tests/cases/*/input.yaml`) damaged by one
//! to eight mutations, compiled on the `perfregs check` path
//! (`compile_sources` with the standard catalogue) or, for a fraction of the
//! block files, on the `regdefs!` path (`compile_user_sources`).
//!
//! Checks: no panic, and every diagnostic inside the text it names: line in
//! `1..=lines` and column in `1..=chars + 1` of that line, where lines end at
//! `\n`, `\r\n` or a lone `\r` (YAML 1.2's line breaks, which editors count
//! too) and a text ending in a line break has an empty last line (where an
//! "unexpected end of input" points).

#![allow(dead_code)] // each test target uses a part

use perfregs_codegen::{compile_sources, compile_user_sources, Error};
use perfregs_regdefs::PROJECTS_YAML as STANDARD_PROJECTS;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::support::harness::{
    any_pos, catch, floor_boundary, insert_any, line_spans, Done, Rng, WIDE_INTEGERS,
};
pub use crate::support::harness::{Failure, Outcome, Report};

/// Name under which the standard catalogue is given (as `perfregs check` does).
pub const STD_CATALOGUE: &str = "<standard projects.yaml>";

// ---------------------------------------------------------------- corpus

/// One valid (or deliberately broken, for fixtures) description file.
pub struct CorpusFile {
    /// Name given to the compiler (`regdefs/oa_bdw.yaml`, `fixtures/ok.yaml`).
    pub name: String,
    pub text: String,
    /// Has a top-level `families:` key (the project catalogue).
    pub catalogue: bool,
    /// Written for the `regdefs!` path (`tests/cases`).
    pub user_case: bool,
}

/// The files mutations start from, and material they splice in.
pub struct Corpus {
    pub files: Vec<CorpusFile>,
    /// Every `key:` spelled in the corpus, sorted.
    keys: Vec<String>,
    /// Texts the compiler may name besides the damaged one (the standard
    /// catalogue, the built-in descriptions, the catalogue's companion).
    fixed: BTreeMap<String, Lines>,
    /// Block file compiled beside a damaged catalogue.
    companion: (String, String),
}

fn yaml_in(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("folder entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_in(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p);
        }
    }
}

impl Corpus {
    /// Every shipped description, every fixture and every golden case input.
    pub fn load() -> Corpus {
        let mut files: Vec<CorpusFile> = perfregs_regdefs::FILES
            .iter()
            .map(|(n, t)| CorpusFile {
                name: format!("regdefs/{n}"),
                text: t.to_string(),
                catalogue: false,
                user_case: false,
            })
            .collect();
        let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let mut paths = Vec::new();
        yaml_in(&tests.join("fixtures"), &mut paths);
        yaml_in(&tests.join("cases"), &mut paths);
        for p in paths {
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let rel = p.strip_prefix(&tests).expect("under tests/");
            let name: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            files.push(CorpusFile {
                user_case: name[0] == "cases",
                name: name.join("/"),
                text,
                catalogue: false,
            });
        }
        for f in &mut files {
            f.catalogue = f.text.lines().any(|l| l.starts_with("families:"));
        }
        let mut keys: Vec<String> = files.iter().flat_map(|f| keys_of(&f.text)).collect();
        keys.sort();
        keys.dedup();
        let companion = files
            .iter()
            .find(|f| f.name == "fixtures/ok.yaml")
            .map(|f| (f.name.clone(), f.text.clone()))
            .expect("fixtures/ok.yaml");
        let mut fixed = BTreeMap::new();
        fixed.insert(STD_CATALOGUE.to_string(), Lines::of(STANDARD_PROJECTS));
        for (n, t) in perfregs_regdefs::FILES {
            fixed.insert(format!("<built-in {n}>"), Lines::of(t));
        }
        fixed.insert(companion.0.clone(), Lines::of(&companion.1));
        Corpus {
            files,
            keys,
            fixed,
            companion,
        }
    }
}

/// Mapping keys (`name:` at the start of a line or after `- `, `{ `, `, `).
fn keys_of(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_ident_start(b[i]) && (i == 0 || b" \t{,-\n".contains(&b[i - 1])) {
            let s = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            if i < b.len() && b[i] == b':' && b.get(i + 1).is_none_or(|c| b" \n".contains(c)) {
                out.push(text[s..i].to_string());
            }
        } else {
            i += 1;
        }
    }
    out
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

// ---------------------------------------------------------------- lines

/// Character count of each line of a text (YAML 1.2 line breaks).
#[derive(Clone, Debug)]
pub struct Lines(Vec<usize>);

impl Lines {
    pub fn of(text: &str) -> Lines {
        let mut lens = Vec::new();
        let mut n = 0;
        let mut cs = text.chars().peekable();
        while let Some(c) = cs.next() {
            match c {
                '\n' => {
                    lens.push(n);
                    n = 0;
                }
                '\r' => {
                    if cs.peek() == Some(&'\n') {
                        cs.next();
                    }
                    lens.push(n);
                    n = 0;
                }
                _ => n += 1,
            }
        }
        lens.push(n);
        Lines(lens)
    }
    pub fn count(&self) -> usize {
        self.0.len()
    }
    /// `None` when `line:column` is inside the text; otherwise why not.
    pub fn outside(&self, line: usize, column: usize) -> Option<String> {
        if line == 0 || line > self.0.len() {
            return Some(format!("line {line} not in 1..={}", self.0.len()));
        }
        let len = self.0[line - 1];
        if column == 0 || column > len + 1 {
            return Some(format!(
                "column {column} not in 1..={} (line {line} has {len} characters)",
                len + 1
            ));
        }
        None
    }
}

// ---------------------------------------------------------------- mutations

/// Characters and short strings that mean something to YAML (or to a lexer).
const INSERTS: &[&str] = &[
    ":",
    ": ",
    "-",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "'",
    "\"",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "&",
    "&a ",
    "*",
    "*a",
    "!",
    "!!str ",
    "!!binary ",
    "!tag ",
    "%",
    "#",
    " #",
    "|",
    ">",
    "|-\n",
    "? ",
    "@",
    "`",
    " ",
    "  ",
    "\u{FEFF}",
    "\0",
    "\\",
    "\\u",
    "é",
    "\u{85}",
    "\u{2028}",
    "\u{1F600}",
    "\u{7F}",
    "\u{1B}",
    "<<: ",
    "~",
    "null",
    "0x",
    "..",
    "+",
    "{n}",
    ":\n",
];

/// Replacement values for a scalar.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "0x0",
    "0xFFFFFFFF",
    "0x100000000",
    "0xFFFFFFFFFFFFFFFF",
    "0x10000000000000000",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "4294967295",
    "4294967296",
    "-0x10",
    "1.5",
    "1e400",
    ".inf",
    ".nan",
    "0b1010",
    "0o777",
    "1_000",
    "true",
    "false",
    "yes",
    "~",
    "null",
    "''",
    "\"\"",
    "[]",
    "{}",
    "[1, 2]",
    "{ a: 1 }",
    "hsw",
    "tgl",
    "snb..hsw",
    "hsw..snb",
    "hsw+",
    "tgl, p4",
    "ivb,",
    ",",
    "..",
    "snb..",
    "+",
    "zzz",
    "\"7:4\"",
    "\"4:7\"",
    "\"64:0\"",
    "\"63:0\"",
    "\"31:32\"",
    "RW",
    "RO",
    "R/W",
    "MBZ",
    "RSVD",
    "RW1C",
    "mmio",
    "msr",
    "pci",
    "io",
    "CTL",
    "A{n}",
    "{n}",
    "Bad Name",
    "_",
    "x",
    "\"\\u0000\"",
    "*a",
    "&a 1",
    "!!binary aGk=",
    "!!int 7",
];

/// Replacements for a number token, drawn together with [`WIDE_INTEGERS`].
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "7",
    "15",
    "16",
    "31",
    "32",
    "33",
    "63",
    "64",
    "65",
    "127",
    "128",
    "255",
    "256",
    "4095",
    "4096",
    "65535",
    "65536",
    "0x0",
    "0x1",
    "0x3",
    "340282366920938463463374607431768211456",
    "-0x1",
    "-9223372036854775808",
    "1e3",
    "1.0",
    ".5",
    "0b11",
    "0o17",
    "0x",
    "0xG",
    "00",
    "+1",
    "1_0",
    "0x_1",
];

/// Replacements for a bit range `msb:lsb` (the swap `lsb:msb` is its own operator).
const RANGES: &[&str] = &[
    "0:0",
    "31:0",
    "32:0",
    "63:0",
    "64:0",
    "64:64",
    "63:63",
    "65:1",
    "127:64",
    "4294967295:0",
    "4294967296:0",
    "99999999999999999999:0",
    "0:31",
    "1:0:0",
    ":0",
    "0:",
    ":",
    "-1:0",
    "7:-4",
    "7 : 4",
    "7:4 ",
    "a:b",
    "0x7:0x4",
    "7..4",
    "15:16",
];

/// Operator names, in the order `mutate` draws them (the weights are there).
pub const OPS: &[&str] = &[
    "flip",
    "delete",
    "insert",
    "dup-line",
    "swap-lines",
    "delete-line",
    "indent",
    "number",
    "bit-range",
    "rename-key",
    "value",
    "truncate",
    "splice",
    "anchor",
    "nest",
    "document",
];

/// a span `(start, end)` of a token of some kind.
fn token_from(
    rng: &mut Rng,
    s: &str,
    find: impl Fn(&[u8], usize) -> Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let from = rng.below(b.len() + 1);
    (from..b.len())
        .chain(0..from)
        .find_map(|i| find(b, i))
        .filter(|&(a, e)| s.is_char_boundary(a) && s.is_char_boundary(e))
}

/// Replace a token (found by `find` from a random place, as [`token_from`])
/// with `with(rng, old)`: its first byte, the old and the new text, or
/// `None` when the text holds no such token.
fn replace_token(
    rng: &mut Rng,
    text: &mut String,
    find: impl Fn(&[u8], usize) -> Option<(usize, usize)>,
    with: impl FnOnce(&mut Rng, &str) -> String,
) -> Option<(usize, String, String)> {
    let (a, e) = token_from(rng, text, find)?;
    let old = text[a..e].to_string();
    let new = with(rng, &old);
    text.replace_range(a..e, &new);
    Some((a, old, new))
}

/// A number (decimal or `0x` hex) starting at `i`.
fn number_at(b: &[u8], i: usize) -> Option<(usize, usize)> {
    if !b[i].is_ascii_digit() || (i > 0 && (is_ident(b[i - 1]) || b[i - 1] == b'{')) {
        return None;
    }
    let mut e = i + 1;
    if b[i] == b'0' && b.get(e).is_some_and(|c| *c == b'x' || *c == b'X') {
        e += 1;
        while e < b.len() && (b[e].is_ascii_hexdigit() || b[e] == b'_') {
            e += 1;
        }
    } else {
        while e < b.len() && (b[e].is_ascii_digit() || b[e] == b'_') {
            e += 1;
        }
    }
    Some((i, e))
}

/// A bit range `digits:digits` starting at `i`.
fn range_at(b: &[u8], i: usize) -> Option<(usize, usize)> {
    if !b[i].is_ascii_digit() || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
        return None;
    }
    let mut e = i;
    while e < b.len() && b[e].is_ascii_digit() {
        e += 1;
    }
    if b.get(e) != Some(&b':') || !b.get(e + 1).is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    e += 1;
    while e < b.len() && b[e].is_ascii_digit() {
        e += 1;
    }
    Some((i, e))
}

/// A mapping key `ident` (followed by `:` and a space or line break) starting at `i`.
fn key_at(b: &[u8], i: usize) -> Option<(usize, usize)> {
    if !is_ident_start(b[i]) || (i > 0 && !b" \t{,-\n".contains(&b[i - 1])) {
        return None;
    }
    let mut e = i;
    while e < b.len() && is_ident(b[e]) {
        e += 1;
    }
    (b.get(e) == Some(&b':') && b.get(e + 1).is_none_or(|c| b" \n".contains(c))).then_some((i, e))
}

/// A value: the text after `: ` up to the end of the line or a `,`/`}` (flow).
fn value_at(b: &[u8], i: usize) -> Option<(usize, usize)> {
    if i < 2 || b[i - 1] != b' ' || b[i - 2] != b':' || b[i] == b'\n' {
        return None;
    }
    let mut e = i;
    let (mut sq, mut dq) = (false, false);
    while e < b.len() && b[e] != b'\n' {
        match b[e] {
            b'\'' if !dq => sq = !sq,
            b'"' if !sq => dq = !dq,
            b',' | b'}' | b']' if !sq && !dq => break,
            _ => {}
        }
        e += 1;
    }
    (e > i).then_some((i, e))
}

/// Apply one mutation; returns its description.
fn mutate_once(rng: &mut Rng, corpus: &Corpus, text: &mut String) -> String {
    // Weights per operator, in the order of `OPS`.
    const WEIGHTS: [usize; 16] = [10, 10, 16, 5, 5, 4, 5, 10, 6, 6, 8, 2, 3, 2, 1, 1];
    let total: usize = WEIGHTS.iter().sum();
    let mut roll = rng.below(total);
    let mut op = 0;
    while roll >= WEIGHTS[op] {
        roll -= WEIGHTS[op];
        op += 1;
    }
    let name = OPS[op];
    let lines = line_spans(text);
    let what = match name {
        "flip" => {
            let at = any_pos(rng, text);
            let Some(c) = text[at..].chars().next() else {
                return "flip: at end (no-op)".into();
            };
            let new: String = if c.is_ascii() && rng.one_in(2) {
                // One bit of the byte, kept ASCII.
                char::from((c as u8) ^ (1 << rng.below(7))).to_string()
            } else {
                rng.pick(INSERTS).to_string()
            };
            text.replace_range(at..at + c.len_utf8(), &new);
            format!("flip {c:?} at byte {at} -> {new:?}")
        }
        "delete" => {
            let at = any_pos(rng, text);
            let n = if rng.one_in(3) { 1 + rng.below(16) } else { 1 };
            let end = floor_boundary(text, (at + n).min(text.len()));
            let gone = text[at..end].to_string();
            text.replace_range(at..end, "");
            format!("delete {gone:?} at byte {at}")
        }
        "insert" => insert_any(rng, text, INSERTS),
        "dup-line" | "delete-line" | "indent" if lines.is_empty() => format!("{name}: no lines"),
        "dup-line" => {
            let (a, e) = lines[rng.below(lines.len())];
            let mut line = text[a..e].to_string();
            if !line.ends_with('\n') {
                line.insert(0, '\n');
            }
            text.insert_str(e, &line);
            format!("duplicate line at byte {a}")
        }
        "swap-lines" if lines.len() < 2 => "swap-lines: fewer than 2 lines".into(),
        "swap-lines" => {
            let i = rng.below(lines.len() - 1);
            let j = if rng.one_in(2) {
                i + 1
            } else {
                i + 1 + rng.below(lines.len() - 1 - i)
            };
            let (la, le) = lines[i];
            let (ra, re) = lines[j];
            let strip = |s: &str| s.strip_suffix('\n').unwrap_or(s).to_string();
            let (l, r) = (strip(&text[la..le]), strip(&text[ra..re]));
            let (l_end, r_end) = (la + l.len(), ra + r.len());
            text.replace_range(ra..r_end, &l);
            text.replace_range(la..l_end, &r);
            format!("swap lines {} and {}", i + 1, j + 1)
        }
        "delete-line" => {
            let i = rng.below(lines.len());
            let (a, e) = lines[i];
            text.replace_range(a..e, "");
            format!("delete line {}", i + 1)
        }
        "indent" => {
            let i = rng.below(lines.len());
            let (a, _) = lines[i];
            let lead = text[a..].bytes().take_while(|c| *c == b' ').count();
            match rng.below(4) {
                0 => text.insert(a, ' '),
                1 => text.insert_str(a, "  "),
                2 => text.replace_range(a..a + lead.min(1 + rng.below(4)), ""),
                _ => text.replace_range(a..a + lead.min(2), "\t"),
            }
            format!("re-indent line {}", i + 1)
        }
        "number" => match replace_token(rng, text, number_at, |rng, _| {
            rng.pick_in(&[NUMBERS, WIDE_INTEGERS]).to_string()
        }) {
            Some((a, old, new)) => format!("number {old} at byte {a} -> {new}"),
            None => "number: none (no-op)".into(),
        },
        "bit-range" => match replace_token(rng, text, range_at, |rng, old| {
            if rng.one_in(2) {
                let (m, l) = old.split_once(':').expect("a range has a colon");
                format!("{l}:{m}")
            } else {
                rng.pick(RANGES).to_string()
            }
        }) {
            Some((a, old, new)) => format!("bit range {old} at byte {a} -> {new}"),
            None => "bit-range: none (no-op)".into(),
        },
        "rename-key" => match replace_token(rng, text, key_at, |rng, old| match rng.below(5) {
            0 | 1 => corpus.keys[rng.below(corpus.keys.len())].clone(),
            2 => {
                let mut k = old.to_string();
                k.remove(rng.below(k.len()));
                k
            }
            3 => old.to_ascii_uppercase(),
            _ => rng
                .pick(&["<<", "?", "\"name\"", "'bits'", "name name", "1", "~"])
                .to_string(),
        }) {
            Some((a, old, new)) => format!("key {old} at byte {a} -> {new}"),
            None => "rename-key: none (no-op)".into(),
        },
        "value" => {
            match replace_token(rng, text, value_at, |rng, _| rng.pick(VALUES).to_string()) {
                Some((a, old, new)) => format!("value {old:?} at byte {a} -> {new}"),
                None => "value: none (no-op)".into(),
            }
        }
        "truncate" => {
            let at = any_pos(rng, text);
            text.truncate(at);
            format!("truncate at byte {at}")
        }
        "splice" => {
            let other = &corpus.files[rng.below(corpus.files.len())];
            let theirs = line_spans(&other.text);
            if theirs.is_empty() {
                return "splice: empty donor (no-op)".into();
            }
            let i = rng.below(theirs.len());
            let j = (i + 1 + rng.below(20)).min(theirs.len());
            let mut chunk = other.text[theirs[i].0..theirs[j - 1].1].to_string();
            if !chunk.ends_with('\n') {
                chunk.push('\n');
            }
            let at = lines
                .get(rng.below(lines.len() + 1))
                .map_or(text.len(), |l| l.0);
            if at == text.len() && !text.is_empty() && !text.ends_with('\n') {
                chunk.insert(0, '\n');
            }
            text.insert_str(at, &chunk);
            format!(
                "splice lines {}..={} of {} at byte {at}",
                i + 1,
                j,
                other.name
            )
        }
        "anchor" => {
            // Anchor one value and refer to it from another (or from itself).
            let Some((a, _)) = token_from(rng, text, value_at) else {
                return "anchor: no value (no-op)".into();
            };
            let Some((b, e)) = token_from(rng, text, value_at) else {
                return "anchor: no value (no-op)".into();
            };
            if a >= e {
                text.insert_str(a, "&x ");
                text.replace_range(b..e, "*x");
            } else if b >= a {
                text.replace_range(b..e, "*x");
                text.insert_str(a, "&x ");
            } else {
                // The anchor would land inside the aliased value.
                text.replace_range(b..e, "&x *x");
            }
            format!("anchor &x at byte {a}, alias *x at byte {b}")
        }
        "nest" => {
            let at = any_pos(rng, text);
            let depth = *rng.pick(&[&16usize, &130, &1000, &5000]);
            let (open, close) =
                *rng.pick(&[&("[", "]"), &("{a: ", "}"), &("- ", ""), &("- - ", "")]);
            let mut s = open.repeat(depth);
            if rng.one_in(2) {
                s.push_str(&close.repeat(depth));
            }
            if open == "- " {
                // One line per level, each indented one more: quadratic, so shallower.
                s = (0..depth.min(1000))
                    .map(|d| format!("{}- ", " ".repeat(d)))
                    .collect::<Vec<_>>()
                    .join("\n");
            }
            text.insert_str(at, &s);
            format!("nest {open:?} x{depth} at byte {at}")
        }
        _ => {
            let s = *rng.pick(&[
                &"---\n",
                &"...\n",
                &"%YAML 1.2\n---\n",
                &"%TAG ! tag:x,2000:\n---\n",
                &"--- !!map\n",
            ]);
            let at = if rng.one_in(2) {
                0
            } else {
                lines
                    .get(rng.below(lines.len() + 1))
                    .map_or(text.len(), |l| l.0)
            };
            text.insert_str(at, s);
            format!("document marker {s:?} at byte {at}")
        }
    };
    what
}

// ---------------------------------------------------------------- cases

/// Which entry point compiles an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Route {
    /// `compile_sources` with the standard catalogue (`perfregs check`).
    Check,
    /// `compile_user_sources` (`regdefs!`).
    User,
}

/// One damaged input.
pub struct Case {
    pub seed: u64,
    pub index: u64,
    /// Index into `Corpus::files`.
    pub base: usize,
    pub route: Route,
    /// What was done, in order.
    pub mutations: Vec<String>,
    pub text: String,
}

/// Input `index` of the run with `seed`.
pub fn make_case(corpus: &Corpus, seed: u64, index: u64) -> Case {
    let mut rng = Rng::for_input(seed, index);
    let base = rng.below(corpus.files.len());
    let file = &corpus.files[base];
    // The `regdefs!` path (which compiles every built-in description beside
    // the input, so costs about ten inputs of `check`) for the golden cases'
    // inputs one time in 3 and for other block files one time in 32 (about
    // one input in 8 in all); a catalogue goes through `check`.
    let route = if !file.catalogue && rng.one_in(if file.user_case { 3 } else { 32 }) {
        Route::User
    } else {
        Route::Check
    };
    let mut n = 1;
    while n < 8 && rng.one_in(2) {
        n += 1;
    }
    let mut text = file.text.clone();
    let mutations = (0..n)
        .map(|_| mutate_once(&mut rng, corpus, &mut text))
        .collect();
    Case {
        seed,
        index,
        base,
        route,
        mutations,
        text,
    }
}
pub fn run_case(corpus: &Corpus, case: &Case) -> Result<Outcome, Failure> {
    let file = &corpus.files[case.base];
    let damaged = (file.name.clone(), case.text.clone());
    let mut sources = vec![damaged];
    if file.catalogue {
        sources.push(corpus.companion.clone());
    }
    let diags: Vec<Error> = match catch(|| match case.route {
        Route::Check => compile_sources(&sources, Some((STD_CATALOGUE, STANDARD_PROJECTS))),
        Route::User => compile_user_sources(built_in(), &sources),
    })? {
        Ok(_) => return Ok(Outcome::Clean),
        Err(d) => d,
    };
    let Some(first) = diags.first() else {
        return Err(Failure {
            signature: "rejected without a diagnostic".into(),
            detail: "compile returned Err(vec![])".into(),
        });
    };
    let own = Lines::of(&case.text);
    for d in &diags {
        let problem = if d.file == file.name {
            own.outside(d.pos.line, d.pos.column)
        } else if d.file == "<input>" {
            (d.pos.line != 1 || d.pos.column != 1).then(|| "not at 1:1".to_string())
        } else {
            match corpus.fixed.get(&d.file) {
                Some(lines) => lines.outside(d.pos.line, d.pos.column),
                None => Some("names a file that was not given".into()),
            }
        };
        if let Some(p) = problem {
            return Err(Failure {
                signature: format!("{} outside the text ({:?})", d.code, case.route),
                detail: format!(
                    "diagnostic outside the text ({p}; the damaged text has {} lines):\n  {d}",
                    own.count()
                ),
            });
        }
    }
    Ok(Outcome::Rejected(first.code.as_str(), diags.len()))
}

/// The reproduction report of a failed case.
pub fn describe(corpus: &Corpus, case: &Case, f: &Failure) -> String {
    let mut s = format!(
        "mutation seed {:#x} index {}: {} via {:?}\n{}\nmutations:\n",
        case.seed, case.index, corpus.files[case.base].name, case.route, f.detail
    );
    for m in &case.mutations {
        s.push_str(&format!("  - {m}\n"));
    }
    s.push_str(&format!(
        "reproduce: PERFREGS_MUTATION_SEED={:#x} PERFREGS_MUTATION_START={} PERFREGS_MUTATIONS=1 \
         CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
         cargo test -p perfregs-codegen --release --test all mutation:: -- --ignored --nocapture\n",
        case.seed, case.index
    ));
    s.push_str("damaged input:\n-----8<-----\n");
    s.push_str(&case.text);
    s.push_str("\n-----8<-----\n");
    s
}

// ---------------------------------------------------------------- runs

/// Run inputs `start..start + count` of `seed` on `threads` threads (see
/// [`crate::support::harness::run`]). With `PERFREGS_MUTATION_TRACE` set, each input
/// is named before it runs (to find the input of an abort, such as a stack
/// overflow).
pub fn run(
    seed: u64,
    start: u64,
    count: u64,
    threads: usize,
    progress: Option<Duration>,
) -> Report {
    let corpus = Corpus::load();
    // Load the built-in descriptions of the `regdefs!` path (once per
    // process) before the clock starts.
    let _ = built_in();
    crate::support::harness::run(
        start,
        count,
        threads,
        progress,
        None,
        "PERFREGS_MUTATION_TRACE",
        &|i, trace| {
            let case = make_case(&corpus, seed, i);
            let label = corpus.files[case.base].name.clone();
            if trace {
                eprintln!("input {i}: {label}");
            }
            let outcome = run_case(&corpus, &case).map_err(|f| Failure {
                detail: describe(&corpus, &case, &f),
                signature: f.signature,
            });
            Done {
                label,
                kinds: vec![format!("{:?}", case.route)],
                outcome,
            }
        },
    )
}

/// The built-in descriptions of the `regdefs!` path (`perfregs_regdefs::FILES`),
/// loaded once per process.
fn built_in() -> &'static perfregs_codegen::BuiltIn {
    static B: std::sync::OnceLock<perfregs_codegen::BuiltIn> = std::sync::OnceLock::new();
    B.get_or_init(|| {
        perfregs_codegen::BuiltIn::from_files(perfregs_regdefs::FILES).expect("the shipped files")
    })
}
