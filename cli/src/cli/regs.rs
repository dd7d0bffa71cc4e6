//! `perfregs decode`, `list`, `dump`, `lookup` and `diff`: the commands on a
//! project's compiled-in register metadata.

use super::{number, project_parser};
use hal::meta::ProjectInfo;
use std::process::ExitCode;

/// `perfregs decode <project> <REGISTER> <value>`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Decode a value into the named fields of a register",
    long_about = "Decode a value into the named fields of a register: one line per field with \
its bits, value (decimal and hex), the name of its encoding and its access; bits set outside \
every field are shown as reserved. Exit code 1 when the project has no such register or the \
value does not fit it."
)]
pub struct DecodeArgs {
    /// The project.
    #[arg(value_parser = project_parser())]
    pub project: &'static ProjectInfo,
    /// The register's name (case-insensitive).
    pub register: String,
    /// The value: decimal, 0x hex or 0b binary (`_` separators allowed).
    #[arg(value_parser = number)]
    pub value: u64,
}

impl DecodeArgs {
    /// Run `decode`.
    pub fn run(self) -> ExitCode {
        let (p, reg, v) = (self.project, &self.register, self.value);
        let Some(r) = p.register(reg) else {
            eprintln!(
                "perfregs: no register `{reg}` on {} ({} registers described; try `perfregs list {}`)",
                p.name,
                p.registers.len(),
                p.name
            );
            return ExitCode::FAILURE;
        };
        if r.width < 64 && v >> r.width != 0 {
            eprintln!(
                "perfregs: {v:#x} does not fit the {}-bit register {}",
                r.width, r.name
            );
            return ExitCode::FAILURE;
        }
        say!(
            "{} ({}) @ {:#x} on {} = {v:#x}",
            r.name,
            r.title,
            r.address,
            p.name
        );
        let mut covered = 0u64;
        for f in r.fields.iter().rev() {
            covered |= f.mask();
            let x = f.extract(v);
            let bits = if f.width == 1 {
                format!("{}", f.lsb)
            } else {
                format!("{}:{}", f.lsb + f.width - 1, f.lsb)
            };
            let name = match (f.values.is_empty(), f.value_name(x)) {
                (false, Some(n)) => format!(" ({n})"),
                (false, None) => " (no named encoding)".to_string(),
                _ => String::new(),
            };
            say!(
                "  [{bits:>5}] {:<24} = {x} ({x:#x}){name}  {}",
                f.name,
                f.access.as_str()
            );
        }
        let stray = v & !covered;
        if stray != 0 {
            say!("  bits {stray:#x} set outside every field (reserved)");
        }
        ExitCode::SUCCESS
    }
}

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
