//! `perfregs decode`, `list`, `dump`, `lookup` and `diff`: the commands on a
//! project's compiled-in register metadata.

use super::{number, parse_value, project_parser};
use hal::meta::{FieldInfo, ProjectInfo, RegisterInfo};
use std::process::ExitCode;

/// `perfregs decode <project> <REGISTER> <value>`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Decode a value into the named fields of a register",
    long_about = "Decode a value into the named fields of a register: one line per field with \
its bits, value (decimal and hex), the name of its encoding (or, for a field whose value is the \
upper bits of an address, such as an OA buffer's base, head and tail, the address it encodes) \
and its access; bits set outside every field are shown as reserved. Exit code 1 when the project has no such register or the \
value does not fit it."
)]
pub struct DecodeArgs {
    /// The project.
    #[arg(value_parser = project_parser())]
    pub project: &'static ProjectInfo,
    /// The register: its name (case-insensitive) or its address (0x hex,
    /// decimal).
    #[arg(value_name = "REGISTER|ADDRESS")]
    pub register: String,
    /// The value: decimal, 0x hex or 0b binary (`_` separators allowed).
    #[arg(value_parser = number)]
    pub value: u64,
}

impl DecodeArgs {
    /// Run `decode`.
    pub fn run(self) -> ExitCode {
        let (p, v) = (self.project, self.value);
        let r = match resolve(p, &self.register) {
            Ok(r) => r,
            Err(msg) => {
                eprintln!("perfregs: {msg}");
                return ExitCode::FAILURE;
            }
        };
        if r.width < 64 && v >> r.width != 0 {
            eprintln!(
                "perfregs: {v:#x} does not fit the {}-bit register {}",
                r.width, r.name
            );
            return ExitCode::FAILURE;
        }
        for line in decode_lines(p, r, v) {
            say!("{line}");
        }
        ExitCode::SUCCESS
    }
}

/// What `decode` prints for the value `v` of `r` on `p`: a header line,
/// one line per field (highest first) with its bits, value, encoding name
/// and access, and a line for bits set outside every field. `reg read` and
/// `reg write` print the same.
pub fn decode_lines(p: &ProjectInfo, r: &RegisterInfo, v: u64) -> Vec<String> {
    let mut lines = vec![format!(
        "{} ({}) @ {:#x} on {} = {v:#x}",
        r.name, r.title, r.address, p.name
    )];
    let mut covered = 0u64;
    for f in r.fields.iter().rev() {
        covered |= f.mask();
        let x = f.extract(v);
        lines.push(format!(
            "  [{:>5}] {:<24} = {}  {}",
            bits(f),
            f.name,
            field_value(f, x),
            f.access.as_str()
        ));
    }
    let stray = v & !covered;
    if stray != 0 {
        lines.push(format!(
            "  bits {stray:#x} set outside every field (reserved)"
        ));
    }
    lines
}

/// The bits of `f`: `5` or `4:2`.
pub fn bits(f: &FieldInfo) -> String {
    if f.width == 1 {
        format!("{}", f.lsb)
    } else {
        format!("{}:{}", f.lsb + f.width - 1, f.lsb)
    }
}

/// The value `x` of field `f` as `decode` shows it: decimal, hex, and the
/// name of its encoding when the field is enumerated (`2 (0x2) (a12_b8_c8)`)
/// or the address it encodes when it is an address field (`encodes:
/// address`: `1024 (0x400) (address 0x10000)`).
pub fn field_value(f: &FieldInfo, x: u64) -> String {
    match (encoding(f, x), f.address_of(x)) {
        (Some(name), _) => format!("{x} ({x:#x}) ({name})"),
        (None, Some(a)) => format!("{x} ({x:#x}) (address {a:#x})"),
        (None, None) => format!("{x} ({x:#x})"),
    }
}

/// The name of the encoding `x` of an enumerated field `f` (`no named
/// encoding` when it has none); `None` when `f` is not enumerated.
pub fn encoding(f: &FieldInfo, x: u64) -> Option<&'static str> {
    if f.values.is_empty() {
        None
    } else {
        Some(f.value_name(x).unwrap_or("no named encoding"))
    }
}

/// The register `reg` of `p`: by name, else by address (the register that
/// starts there). `Err` says why there is none: the close names of a
/// misspelt one, or what the address is inside.
pub fn resolve(p: &ProjectInfo, reg: &str) -> Result<&'static RegisterInfo, String> {
    if let Some(r) = p.register(reg) {
        return Ok(r);
    }
    if let Some(address) = parse_value(reg) {
        let at: Vec<&RegisterInfo> = p
            .registers
            .iter()
            .filter(|r| r.address == address)
            .collect();
        return match at.as_slice() {
            [r] => Ok(r),
            [] => {
                let inside = p.registers.iter().find(|r| {
                    r.address < address && address < r.address + u64::from(r.width / 8).max(1)
                });
                Err(match inside {
                    Some(r) => format!(
                        "{address:#x} is inside {} (+{:#x}) on {}: decode {} ({:#x}) with its whole value",
                        r.name,
                        address - r.address,
                        p.name,
                        r.name,
                        r.address
                    ),
                    None => format!(
                        "no register at {address:#x} on {} (`perfregs lookup {} {address:#x}` says what is there)",
                        p.name, p.name
                    ),
                })
            }
            many => Err(format!(
                "{} registers at {address:#x} on {}: {}; name one",
                many.len(),
                p.name,
                many.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
            )),
        };
    }
    let hint = did_you_mean(reg, p.registers.iter().map(|r| r.name));
    Err(format!(
        "no register `{reg}` on {}{hint}; {} registers described, `perfregs list {}` lists them",
        p.name,
        p.registers.len(),
        p.name
    ))
}

/// ` (did you mean A, B?)` for the names [`close_names`] finds, or nothing.
pub fn did_you_mean(wanted: &str, names: impl Iterator<Item = &'static str>) -> String {
    let close = close_names(wanted, names);
    if close.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", close.join(", "))
    }
}

pub use perfregs_session::close_names;

/// `perfregs list <project>`.
#[derive(Debug, clap::Args)]
#[command(
    about = "List a project's registers, opaque ranges and commands",
    long_about = "List a project's registers (address, name, block, title), then its opaque \
ranges (marked [range]) and GPU commands (marked [command])."
)]
pub struct ListArgs {
    /// The project.
    #[arg(value_parser = project_parser())]
    pub project: &'static ProjectInfo,
}

impl ListArgs {
    /// Run `list`.
    pub fn run(self) -> ExitCode {
        let p = self.project;
        for r in p.registers {
            say!(
                "{:#08x}  {:<14} {:<10} {}",
                r.address,
                r.name,
                r.block,
                r.title
            );
        }
        for line in super::lookup::list_extras(p) {
            say!("{line}");
        }
        ExitCode::SUCCESS
    }
}

/// `perfregs dump <project> --json`.
#[derive(Debug, clap::Args)]
#[command(
    about = "The compiled view of a project as JSON",
    long_about = "The compiled view of a project as JSON: registers (space, address, width, \
reset, masked, wake domain, replication, fields), the force-wake and replication tables, \
report formats, opaque ranges and GPU commands."
)]
pub struct DumpArgs {
    /// The project.
    #[arg(value_parser = project_parser())]
    pub project: &'static ProjectInfo,
    /// Write JSON (the only output; required so that a later text form
    /// does not change what scripts get).
    #[arg(long, required = true)]
    pub json: bool,
}

impl DumpArgs {
    /// Run `dump`.
    pub fn run(self) -> ExitCode {
        match serde_json::to_string_pretty(&super::dump::project_json(self.project)) {
            Ok(text) => {
                say!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("perfregs: cannot serialise: {e}");
                ExitCode::FAILURE
            }
        }
    }
}

/// `perfregs lookup <project> <address>`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Register (or opaque range), wake domain and replication at an address",
    long_about = "What lives at an address: the register (or opaque range) with the offset into \
it, the wake domain of the force-wake table (or that the address is outside it) and the \
replication (steering group and instances)."
)]
pub struct LookupArgs {
    /// The project.
    #[arg(value_parser = project_parser())]
    pub project: &'static ProjectInfo,
    /// The address: decimal, 0x hex or 0b binary.
    #[arg(value_parser = number)]
    pub address: u64,
}

impl LookupArgs {
    /// Run `lookup`.
    pub fn run(self) -> ExitCode {
        for line in super::lookup::lookup(self.project, self.address) {
            say!("{line}");
        }
        ExitCode::SUCCESS
    }
}

/// `perfregs diff <projectA> <projectB>`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Registers added, removed, moved; fields changed between two projects",
    long_about = "Registers added (+), removed (-) and moved (~) from project A to project B, \
fields and resets changed, then the number of differences."
)]
pub struct DiffArgs {
    /// Project A.
    #[arg(value_name = "PROJECT_A", value_parser = project_parser())]
    pub a: &'static ProjectInfo,
    /// Project B.
    #[arg(value_name = "PROJECT_B", value_parser = project_parser())]
    pub b: &'static ProjectInfo,
}

impl DiffArgs {
    /// Run `diff`.
    pub fn run(self) -> ExitCode {
        let (a, b) = (self.a, self.b);
        let lines = super::diff::diff(a, b);
        for line in &lines {
            say!("{line}");
        }
        say!(
            "{} difference(s) from {} to {}",
            lines.len(),
            a.name,
            b.name
        );
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every project with an OA buffer (report formats) marks its buffer's
    /// base, head and tail as addresses in its descriptions, and every
    /// address field is the upper bits of its register.
    #[test]
    fn oa_buffer_addresses_are_marked_on_every_project() {
        for p in hal::PROJECTS {
            let fields: Vec<(&RegisterInfo, &FieldInfo)> = p
                .registers
                .iter()
                .flat_map(|r| r.fields.iter().map(move |f| (r, f)))
                .filter(|(_, f)| f.address)
                .collect();
            for (r, f) in &fields {
                assert_eq!(
                    f.lsb + f.width,
                    r.width,
                    "{}: {}.{}",
                    p.name,
                    r.name,
                    f.name
                );
                assert_eq!(f.address_of(1), Some(1 << f.lsb));
                assert!(
                    field_value(f, 2).ends_with(&format!("(address {:#x})", 2u64 << f.lsb)),
                    "{}",
                    field_value(f, 2)
                );
            }
            if !p.formats.is_empty() {
                assert!(
                    fields.len() >= 3,
                    "{}: an OA buffer's base, head and tail are address fields: {:?}",
                    p.name,
                    fields
                        .iter()
                        .map(|(r, f)| format!("{}.{}", r.name, f.name))
                        .collect::<Vec<_>>()
                );
            }
        }
    }
}
