//! A compact, line-oriented layout of the generated metric code: one line
//! per item (a counter's function, a `use`), a doc comment per line of its
//! text, a module's items between its `mod name {` and `}` lines, and the
//! `SetInfo` constants with one line per counter and per configuration
//! block. A metric file has thousands of counters whose equations nest deep:
//! laid out by `prettyplease` they took 26 lines a counter, here about 4,
//! which keeps the crate small to read and quick to compile.
//!
//! The layout works on tokens (no `syn` parse of the whole file), and its
//! output parses to the same tokens: words are separated by a space, a
//! punctuation mark that stood alone is never glued to the next one.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// Lay `tokens` (items) out, one item per line.
pub fn layout(tokens: TokenStream) -> String {
    let mut out = String::new();
    items(&tokens.into_iter().collect::<Vec<_>>(), &mut out);
    out
}

/// Print the items of `toks`.
fn items(toks: &[TokenTree], out: &mut String) {
    let mut i = 0;
    while i < toks.len() {
        // An attribute: `#` and a bracket group.
        if let (TokenTree::Punct(p), Some(TokenTree::Group(g))) = (&toks[i], toks.get(i + 1)) {
            if p.as_char() == '#' && g.delimiter() == Delimiter::Bracket {
                attribute(g.stream(), out);
                i += 2;
                continue;
            }
        }
        let end = item_end(toks, i);
        let item = &toks[i..end];
        // A module with a body: its header, its items, its closing brace.
        let is_mod = item
            .iter()
            .any(|t| matches!(t, TokenTree::Ident(id) if id == "mod"));
        match item.split_last() {
            Some((TokenTree::Group(body), head))
                if is_mod && body.delimiter() == Delimiter::Brace =>
            {
                out.push_str(&compact(head.iter().cloned().collect()));
                out.push_str(" {\n");
                items(&body.stream().into_iter().collect::<Vec<_>>(), out);
                out.push_str("}\n");
            }
            _ if is_struct_const(item) => struct_const(item, out),
            _ => {
                out.push_str(compact(item.iter().cloned().collect()).trim_end());
                out.push('\n');
            }
        }
        i = end;
    }
}

/// Where the item starting at `start` ends: after its `;`, or after the
/// brace group that closes a `fn` or `mod`.
fn item_end(toks: &[TokenTree], start: usize) -> usize {
    let braced_item = toks[start..]
        .iter()
        .take_while(|t| !is_semi(t))
        .any(|t| matches!(t, TokenTree::Ident(id) if id == "fn" || id == "mod" || id == "impl"));
    for (k, t) in toks.iter().enumerate().skip(start) {
        if is_semi(t) {
            return k + 1;
        }
        if braced_item {
            if let TokenTree::Group(g) = t {
                if g.delimiter() == Delimiter::Brace {
                    return k + 1;
                }
            }
        }
    }
    toks.len()
}

fn is_semi(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == ';')
}

/// `#[doc = "text"]` as `///` lines; any other attribute on a line of its own.
fn attribute(inner: TokenStream, out: &mut String) {
    let toks: Vec<TokenTree> = inner.clone().into_iter().collect();
    if let [TokenTree::Ident(id), TokenTree::Punct(eq), TokenTree::Literal(lit)] = toks.as_slice() {
        if id == "doc" && eq.as_char() == '=' {
            if let Ok(s) = syn::parse_str::<syn::LitStr>(&lit.to_string()) {
                for line in s.value().split('\n') {
                    out.push_str("///");
                    out.push_str(line);
                    out.push('\n');
                }
                return;
            }
        }
    }
    out.push_str("#[");
    out.push_str(&compact(inner));
    out.push_str("]\n");
}

/// `pub const NAME: T = T { field: value, ... };`
fn is_struct_const(item: &[TokenTree]) -> bool {
    let is_const = item
        .iter()
        .any(|t| matches!(t, TokenTree::Ident(id) if id == "const"));
    is_const
        && matches!(
            item.iter().rev().nth(1),
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace
        )
}

/// A struct constant: a line per field, and a line per element of a field
/// that is `&[...]`.
fn struct_const(item: &[TokenTree], out: &mut String) {
    let Some((TokenTree::Group(body), head)) = item[..item.len() - 1].split_last() else {
        out.push_str(&compact(item.iter().cloned().collect()));
        out.push('\n');
        return;
    };
    out.push_str(&compact(head.iter().cloned().collect()));
    out.push_str(" {\n");
    for field in split_commas(body.stream()) {
        // `name: &[elements]`
        match field.as_slice() {
            [name @ TokenTree::Ident(_), colon @ TokenTree::Punct(_), TokenTree::Punct(amp), TokenTree::Group(list)]
                if amp.as_char() == '&' && list.delimiter() == Delimiter::Bracket =>
            {
                out.push_str(&compact(
                    [name.clone(), colon.clone()].into_iter().collect(),
                ));
                out.push_str("&[\n");
                for e in split_commas(list.stream()) {
                    out.push_str(&compact(e.into_iter().collect()));
                    out.push_str(",\n");
                }
                out.push_str("],\n");
            }
            _ => {
                out.push_str(&compact(field.into_iter().collect()));
                out.push_str(",\n");
            }
        }
    }
    out.push_str("};\n");
}

/// The comma-separated parts of `ts` (a trailing comma ends the last part).
fn split_commas(ts: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for t in ts {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts.last_mut().into_iter().for_each(|v| v.push(t.clone())),
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// Tokens on one line: a space between two words, after `,` and `;`,
/// around `=`, `->` and `=>`, after a lone `:`, and between two punctuation
/// marks of which the first stood alone; nothing elsewhere.
pub fn compact(ts: TokenStream) -> String {
    let mut s = String::new();
    let mut prev = Prev::Start;
    write_tokens(ts, &mut s, &mut prev);
    s
}

#[derive(Clone, Copy, PartialEq)]
enum Prev {
    Start,
    Word,
    /// A punctuation mark: its character, whether it was joint.
    Punct(char, bool),
    /// A space was just written.
    Space,
    Open,
    Close,
}

/// Marks that can form a longer operator with a neighbouring mark.
fn glues(c: char) -> bool {
    "+-*/%^!&|=<>.:@~$".contains(c)
}

fn write_tokens(ts: TokenStream, s: &mut String, prev: &mut Prev) {
    for t in ts {
        match t {
            TokenTree::Ident(_) | TokenTree::Literal(_) => {
                if matches!(*prev, Prev::Word | Prev::Close) {
                    s.push(' ');
                }
                s.push_str(&t.to_string());
                *prev = Prev::Word;
            }
            TokenTree::Punct(p) => {
                let c = p.as_char();
                let joint = p.spacing() == Spacing::Joint;
                let after_word = matches!(*prev, Prev::Word | Prev::Close);
                let space_before = match *prev {
                    // Two operator marks that were separate tokens stay
                    // separate, so they never lex as one (`& &`, `- -`).
                    Prev::Punct(q, false) => glues(q) && glues(c) && !(q == '>' && c == ':'),
                    // `=` of `a = b` (not the tail of `==`, `<=`, `=>`...).
                    _ if c == '=' && !joint => after_word,
                    // `->`, `=>`, `==`.
                    _ if joint && (c == '-' || c == '=') => after_word,
                    _ => false,
                };
                if space_before {
                    s.push(' ');
                }
                s.push(c);
                let tail_of = |first: char| *prev == Prev::Punct(first, true);
                let space_after = !joint
                    && match c {
                        ',' | ';' | '=' => true,
                        ':' => !tail_of(':'),
                        '>' => tail_of('-') || tail_of('='),
                        _ => false,
                    };
                if space_after {
                    s.push(' ');
                    *prev = Prev::Space;
                } else if c == ':' && tail_of(':') {
                    // After `::` anything may follow directly.
                    *prev = Prev::Open;
                } else {
                    *prev = Prev::Punct(c, joint);
                }
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{ ", " }"),
                    Delimiter::None => ("", ""),
                };
                let space = match g.delimiter() {
                    Delimiter::Brace => !matches!(*prev, Prev::Space | Prev::Start),
                    // `&'static [T]` (the generated code does not index).
                    Delimiter::Bracket => *prev == Prev::Word,
                    _ => false,
                };
                if space {
                    s.push(' ');
                }
                s.push_str(open);
                *prev = Prev::Open;
                write_tokens(g.stream(), s, prev);
                if s.ends_with(' ') && close.starts_with(' ') {
                    s.pop();
                }
                s.push_str(close);
                *prev = Prev::Close;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    /// The laid-out text parses back to the same tokens.
    fn round_trip(ts: TokenStream) -> String {
        let text = layout(ts.clone());
        let back: TokenStream = text.parse().expect("the layout parses");
        // Equal up to a list's trailing comma and a doc string's raw form.
        let norm = |t: TokenStream| {
            syn::parse2::<syn::File>(t)
                .map(|f| quote!(#f).to_string())
                .expect("a file")
                .replace(" ,]", "]")
                .replace(" ,}", "}")
                .replace("r\"", "\"")
        };
        assert_eq!(norm(back), norm(ts), "{text}");
        text
    }

    #[test]
    fn one_line_per_item_and_docs_as_comments() {
        let text = round_trip(quote! {
            /// A set.
            #[allow(unused_variables)]
            pub mod m {
                use crate::rt::*;
                /// A counter.
                pub fn c(s: &Sample, d: &DeviceInfo) -> Option<u64> { Some(udiv(umul(s.gpu_time?, 1000u64), d.f)) }
                mod max { use super::*; pub fn c(s: &Sample) -> Option<u64> { s.a(3) } }
                pub fn p<B: hal::Bus<hal::Mmio>>(g: &hal::Device<B>, a: &[&dyn X<I>]) -> Result<usize, E> { x(g, &SET) }
                pub const SET: SetInfo = SetInfo {
                    name: "N", guid: "g",
                    counters: &[CounterInfo { name: "a", eval: Eval::U64(c), max: None }, CounterInfo { name: "b", eval: Eval::U64(c), max: Some(Eval::U64(max::c)) }],
                    configs: &[ConfigBlock { kind: ConfigKind::Noa, writes: &[(0x9888, 0x1u32), (<hal::bdw::X as hal::Register>::ADDRESS, 2)] },],
                };
            }
            pub const ALL: &[crate::rt::SetInfo] = &[m::SET];
            pub fn all() -> &'static [crate::rt::SetInfo] { ALL }
        });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "/// A set.");
        assert_eq!(lines[1], "#[allow(unused_variables)]");
        assert_eq!(lines[2], "pub mod m {");
        assert!(lines.contains(&"pub fn c(s: &Sample, d: &DeviceInfo) -> Option<u64> { Some(udiv(umul(s.gpu_time?, 1000u64), d.f)) }"), "{text}");
        assert!(
            lines.contains(&"CounterInfo { name: \"a\", eval: Eval::U64(c), max: None },"),
            "{text}"
        );
        assert!(
            lines.contains(&"pub fn all() -> &'static [crate::rt::SetInfo] { ALL }"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 25, "{text}");
    }

    #[test]
    fn marks_never_glue_into_other_operators() {
        // `& &x` and `a - -1`, `x = =` are not what the emitter writes, but the
        // layout must still keep separate marks separate.
        let ts: TokenStream = "fn f() { let a = & &x; let b = 1 - -2; let c = a < b; }"
            .parse()
            .expect("tokens");
        let text = round_trip(ts);
        assert!(text.contains("= & &x;"), "{text}");
        assert!(text.contains("= 1- -2;"), "{text}");
    }
}
