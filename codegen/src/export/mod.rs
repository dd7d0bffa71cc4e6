//! Exporters: the lowered IR of one project as text for tools outside Rust.
//!
//! - [`Format::CHeader`]: a C header in the style of Linux i915's register
//!   definitions (`#define HSW_OACONTROL 0x2360`, `REG_GENMASK(h, l)` field
//!   masks, enum values, the force-wake table as an initializer list);
//! - [`Format::Markdown`]: a register reference (register table, one section
//!   per register with its field table, report formats, force-wake rows);
//! - [`Format::Svd`]: CMSIS-SVD 1.3 XML (one peripheral per block) for
//!   svd2rust and other SVD tooling.
//!
//! Every exporter reads only the IR, walks the registers of the project in
//! address order, then its opaque ranges (MMIO ranges without a public
//! layout) and GPU commands (dword layouts); a project with neither gets the
//! same document as before they existed. Exporters never fail: text that cannot be represented (a name
//! clash in C, a character outside an SVD identifier) is adapted, not
//! rejected, since the descriptions were validated before lowering.

mod c_header;
mod markdown;
mod svd;

use crate::ir::{CommandFieldIr, CommandIr, Element, FieldIr, Ir, OpaqueRangeIr};
use std::fmt;
use std::str::FromStr;

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A C header (`c-header`).
    CHeader,
    /// A Markdown register reference (`markdown`).
    Markdown,
    /// CMSIS-SVD 1.3 XML (`svd`).
    Svd,
}

impl Format {
    /// Every format, in the order the error message lists them.
    pub const ALL: [Format; 3] = [Format::CHeader, Format::Markdown, Format::Svd];

    /// The spelling accepted by [`FromStr`] (`c-header`, `markdown`, `svd`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::CHeader => "c-header",
            Format::Markdown => "markdown",
            Format::Svd => "svd",
        }
    }

    /// The usual file extension of the format (`h`, `md`, `svd`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::CHeader => "h",
            Format::Markdown => "md",
            Format::Svd => "svd",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Format`] from an unknown name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFormatError {
    /// The name that was given.
    pub given: String,
}

impl fmt::Display for ParseFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown export format `{}` (expected one of: c-header, markdown, svd)",
            self.given
        )
    }
}

impl core::error::Error for ParseFormatError {}

impl FromStr for Format {
    type Err = ParseFormatError;

    fn from_str(s: &str) -> Result<Format, ParseFormatError> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| ParseFormatError {
                given: s.to_string(),
            })
    }
}

/// Export the registers of project `project` (an index into
/// [`Ir::catalogue`]'s projects) in `format`.
///
/// A project index outside the catalogue gives a document without registers.
pub fn export(ir: &Ir, project: usize, format: Format) -> String {
    match format {
        Format::CHeader => c_header::render(ir, project),
        Format::Markdown => markdown::render(ir, project),
        Format::Svd => svd::render(ir, project),
    }
}

/// Name (tag) of a project, or a stand-in for an index outside the catalogue.
fn project_name(ir: &Ir, project: usize) -> String {
    ir.catalogue
        .projects
        .get(project)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("project{project}"))
}

/// Title of a project (empty for an index outside the catalogue).
fn project_title(ir: &Ir, project: usize) -> String {
    ir.catalogue
        .projects
        .get(project)
        .map(|p| p.title.clone())
        .unwrap_or_default()
}

/// The register elements of a project in address order (by space,
/// address, name); each exporter reads an element's texts through
/// [`Element::text`], so `{n}` becomes its index.
fn registers_in_order(ir: &Ir, project: usize) -> Vec<Element<'_>> {
    let mut regs: Vec<Element> = ir.elements(project).collect();
    regs.sort_by(|a, b| {
        (a.register.space, a.address, &a.name).cmp(&(b.register.space, b.address, &b.name))
    });
    regs
}

/// The opaque ranges of a project, by ascending start.
fn opaque_of(ir: &Ir, project: usize) -> Vec<&OpaqueRangeIr> {
    let mut v: Vec<_> = ir.opaque.iter().filter(|o| o.project == project).collect();
    v.sort_by_key(|o| (o.start, o.end));
    v
}

/// The wake domain name of an opaque range (`None`: outside the table).
fn opaque_domain(ir: &Ir, o: &OpaqueRangeIr) -> Option<String> {
    ir.wake_name(o.domain, o.domain2)
}

/// The GPU commands of a project, by name.
fn commands_of(ir: &Ir, project: usize) -> Vec<&CommandIr> {
    let mut v: Vec<_> = ir
        .commands
        .iter()
        .filter(|c| c.project == project)
        .collect();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

/// The fields of dword `dword` of a command, by descending lsb (the order
/// of the register field tables).
fn dword_fields(c: &CommandIr, dword: u32) -> Vec<&CommandFieldIr> {
    let mut v: Vec<_> = c.fields.iter().filter(|f| f.dword == dword).collect();
    v.sort_by_key(|f| std::cmp::Reverse(f.lsb));
    v
}

/// Mask of a command field's bits in its dword.
fn command_mask(f: &CommandFieldIr) -> u64 {
    width_mask(f.width) << f.lsb
}

/// The bit range of a command field: `31:29`, or `4` for one bit.
fn command_bits(f: &CommandFieldIr) -> String {
    if f.width == 1 {
        f.lsb.to_string()
    } else {
        format!("{}:{}", f.lsb + f.width - 1, f.lsb)
    }
}

/// The value of a field in the register's reset value.
fn field_reset(reset: u64, f: &FieldIr) -> u64 {
    (reset & f.mask()) >> f.lsb
}

/// Mask of a register's width.
fn width_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// First non-empty line of a text, trimmed.
fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// The first line of a description, with `...` when more text follows.
fn summary(text: &str) -> String {
    let first = first_line(text);
    let rest = text.trim().len() > first.len();
    if rest {
        format!("{first} ...")
    } else {
        first.to_string()
    }
}

/// Text on one line: every run of white space (newlines included) becomes
/// one space, ends trimmed.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `0x...` with upper-case digits, zero-padded to the register width.
fn hex_width(value: u64, width: u32) -> String {
    let digits = (width.div_ceil(4)).max(1) as usize;
    format!("0x{value:0digits$X}")
}

/// `0x...` with upper-case digits, no padding.
fn hex(value: u64) -> String {
    format!("0x{value:X}")
}

/// The bit range of a field as the PRM writes it: `31:12`, or `5` for one bit.
fn bits(f: &FieldIr) -> String {
    if f.width == 1 {
        f.lsb.to_string()
    } else {
        format!("{}:{}", f.msb(), f.lsb)
    }
}

/// `s` with every character outside `[A-Za-z0-9_]` replaced by `_` (the
/// common core of C and SVD identifiers; each format adds its own rule for
/// an empty name or a leading digit).
fn identifier_chars(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.as_str().parse::<Format>(), Ok(f));
        }
        let e = "yaml".parse::<Format>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown export format `yaml` (expected one of: c-header, markdown, svd)"
        );
    }

    #[test]
    fn helpers() {
        assert_eq!(hex_width(0x2360, 32), "0x00002360");
        assert_eq!(hex_width(1, 64), "0x0000000000000001");
        assert_eq!(hex(0xa188), "0xA188");
        assert_eq!(first_line("\n  One.\n Two.\n"), "One.");
        assert_eq!(one_line(" a\n b  c \n"), "a b c");
        assert_eq!(summary("One line.\n"), "One line.");
        assert_eq!(summary("First\nsecond"), "First ...");
        assert_eq!(width_mask(32), 0xFFFF_FFFF);
        assert_eq!(width_mask(64), u64::MAX);
        let f = CommandFieldIr {
            name: "opcode".into(),
            dword: 0,
            lsb: 23,
            width: 6,
            value: Some(0x28),
            description: String::new(),
            note: String::new(),
        };
        assert_eq!(command_mask(&f), 0x1F80_0000);
        assert_eq!(command_bits(&f), "28:23");
        assert_eq!(command_bits(&CommandFieldIr { width: 1, ..f }), "23");
    }
}
