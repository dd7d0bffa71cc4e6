//! The command line of the `perfregs` binary (clap, derive): the [`Cli`]
//! parser, the [`Command`] enum and the shared argument parsers; each
//! command lives in a module of its own.
//!
//! Adding a command: a module with a `clap::Args` struct and a
//! `run(self) -> ExitCode` method, a variant of [`Command`] and its arm in
//! [`Command::run`].

pub mod check;
pub mod complete;
pub mod devices;
pub mod diff;
pub mod dump;
pub mod emulate;
pub mod lookup;
pub mod metrics;
pub mod oa_decode;
pub mod output;
pub mod produce;
pub mod record;
pub mod reg;
pub mod regs;
pub mod report;
pub mod target;
pub mod top;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{CommandFactory, Parser, Subcommand};
use hal::{meta::ProjectInfo, PROJECTS};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Check register descriptions, decode register values and OA buffer dumps,
/// list, diff and export projects, check and run metric sets.
///
/// `perfregs help <command>` or `perfregs <command> --help` explains one
/// command. Usage errors exit with code 2, findings (a failed check, a
/// register that does not exist) with code 1.
///
/// Descriptions folder, when none is given: `regdefs/` in the current
/// directory, else the descriptions shipped with perfregs (`export` reads
/// `$PERFREGS_REGDEFS` first).
#[derive(Debug, Parser)]
#[command(
    name = "perfregs",
    version,
    arg_required_else_help = true,
    subcommand_required = true,
    max_term_width = 100
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `perfregs`.
#[derive(Debug, Subcommand)]
pub enum Command {
    // Validate register descriptions (default: regdefs/, else the shipped ones).
    #[allow(missing_docs)]
    Check(check::CheckArgs),
    // Decode a value into the named fields of a register.
    #[allow(missing_docs)]
    Decode(regs::DecodeArgs),
    // List a project's registers, opaque ranges and commands.
    #[allow(missing_docs)]
    List(regs::ListArgs),
    // The compiled view of a project as JSON.
    #[allow(missing_docs)]
    Dump(regs::DumpArgs),
    // Register (or opaque range), wake domain and replication at an address.
    #[allow(missing_docs)]
    Lookup(regs::LookupArgs),
    // Registers added, removed, moved; fields changed between two projects.
    #[allow(missing_docs)]
    Diff(regs::DiffArgs),
    // Export a project as a C header, Markdown or SVD.
    #[allow(missing_docs)]
    Export(check::ExportArgs),
    // Run register accesses on the emulator and print the trace and the warnings.
    #[allow(missing_docs)]
    Emulate(emulate::EmulateArgs),
    // The reports of a raw OA buffer dump, one row per report.
    #[allow(missing_docs)]
    OaDecode(oa_decode::Options),
    // Check, list and run IGT metric sets.
    #[allow(missing_docs)]
    Metrics(metrics::MetricsArgs),
    // Read, write and dump a live GPU's registers through PCI BAR 0.
    #[allow(missing_docs)]
    Reg(reg::RegArgs),
    // The machine's GPUs and whether OA streams can be opened on them.
    #[allow(missing_docs)]
    Devices(devices::DevicesArgs),
    // Counters per interval from an IGT-format recording.
    #[allow(missing_docs)]
    Report(report::ReportArgs),
    // Record an OA stream (a real GPU or the emulated one) in IGT's recording format.
    #[allow(missing_docs)]
    Record(record::RecordArgs),
    // A live view of an OA stream: chosen counters as values, bars and sparklines.
    #[allow(missing_docs)]
    Top(top::TopArgs),
    // Offer an OA stream's counters to system traces: the Perfetto data source gpu.counters.perfregs.
    #[allow(missing_docs)]
    Produce(produce::ProduceArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    ///
    /// For example `source <(perfregs completions bash)` in `~/.bashrc`
    /// (the same as `source <(COMPLETE=bash perfregs)`). The script asks
    /// `perfregs` itself as you type, so metric sets, registers and projects
    /// complete from its tables; `--static` prints a script without them
    /// (options and subcommands only) that never runs `perfregs`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
        /// A static script: options and subcommands only.
        #[arg(long = "static")]
        static_only: bool,
    },
}

impl Command {
    /// Run the command.
    pub fn run(self) -> ExitCode {
        match self {
            Command::Check(a) => a.run(),
            Command::Decode(a) => a.run(),
            Command::List(a) => a.run(),
            Command::Dump(a) => a.run(),
            Command::Lookup(a) => a.run(),
            Command::Diff(a) => a.run(),
            Command::Export(a) => a.run(),
            Command::Emulate(a) => a.run(),
            Command::OaDecode(a) => a.run(),
            Command::Metrics(a) => a.run(),
            Command::Reg(a) => a.run(),
            Command::Devices(a) => a.run(),
            Command::Report(a) => a.run(),
            Command::Record(a) => a.run(),
            Command::Top(a) => a.run(),
            Command::Produce(a) => a.run(),
            Command::Completions { shell, static_only } => {
                let mut out = Vec::new();
                if static_only {
                    clap_complete::generate(shell, &mut Cli::command(), "perfregs", &mut out);
                } else {
                    match complete::registration(shell) {
                        Ok(script) => out = script,
                        Err(e) => {
                            eprintln!("perfregs completions: {e}; try --static");
                            return ExitCode::from(1);
                        }
                    }
                }
                say_bytes(&out);
                ExitCode::SUCCESS
            }
        }
    }
}

/// Parse the command line and run the command.
pub fn main() -> ExitCode {
    complete::answer_shell();
    match Cli::try_parse() {
        Ok(cli) => cli.command.run(),
        Err(e) => clap_error(&e),
    }
}

/// Report a clap error: help and version on stdout (exit 0); help asked
/// for by omission (`perfregs`, `perfregs metrics`) on stderr (exit 2);
/// any other usage error as [`one_line`] (exit 2).
fn clap_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            let mut text = one_line(&e.render().to_string());
            if let Some(tip) = format_tip(e) {
                // Instead of clap's tip to pass it as a value, before its
                // `For more information` line.
                text = text
                    .lines()
                    .filter(|l| !l.contains("as a value, use '--"))
                    .collect::<Vec<_>>()
                    .join("\n");
                let at = text.rfind('\n').map_or(text.len(), |i| i + 1);
                text.insert_str(at, &format!("  tip: {tip}\n"));
            }
            eprintln!("{text}");
            ExitCode::from(2)
        }
    }
}

/// `--json`, `--csv`, `--perfetto` or `--table` given as an option of its
/// own: the tip to write `--format NAME`.
fn format_tip(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let name = arg.strip_prefix("--")?;
    ["table", "csv", "json", "perfetto", "perfetto-proto"]
        .contains(&name)
        .then(|| {
            format!(
                "output formats are chosen with --format {name} (metrics run, oa-decode, report)"
            )
        })
}

/// A rendered clap error in one line (the message, with the lists clap
/// indents below it joined in), then clap's tips (`a similar subcommand
/// exists: 'list'`) and its `For more information, try '--help'.`; the
/// usage line is left out.
pub fn one_line(rendered: &str) -> String {
    let mut message = String::new();
    let mut rest = Vec::new();
    let mut in_usage = false;
    for line in rendered.lines() {
        let t = line.trim();
        if t.is_empty() {
            in_usage = false;
            continue;
        }
        if t.starts_with("Usage:") {
            in_usage = true;
            continue;
        }
        if in_usage && line.starts_with(' ') {
            continue;
        }
        in_usage = false;
        if t.starts_with("tip:") || t.starts_with("For more information") {
            rest.push(if t.starts_with("tip:") {
                format!("  {t}")
            } else {
                t.to_string()
            });
        } else if message.is_empty() {
            message = t.to_string();
        } else if rest.is_empty() {
            if !message.ends_with(':') && !t.starts_with('[') {
                message.push(',');
            }
            message.push(' ');
            message.push_str(t);
        } else {
            rest.push(format!("  {t}"));
        }
    }
    std::iter::once(message)
        .chain(rest)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Write `bytes` to stdout; end the program quietly when stdout is closed.
fn say_bytes(bytes: &[u8]) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if out.write_all(bytes).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// The project of `name` (case-insensitive).
pub fn find_project(name: &str) -> Option<&'static ProjectInfo> {
    let lower = name.to_ascii_lowercase();
    PROJECTS.iter().copied().find(|p| p.name == lower)
}

/// The value parser of a `<PROJECT>` argument: one of the HAL's projects
/// (case-insensitive; completions and `--help` list them).
pub fn project_parser() -> impl TypedValueParser<Value = &'static ProjectInfo> {
    PossibleValuesParser::new(PROJECTS.iter().map(|p| p.name)).try_map(|name: String| {
        find_project(&name).ok_or_else(|| format!("unknown project `{name}`"))
    })
}

/// A number: decimal, `0x` hex or `0b` binary, `_` separators allowed.
pub fn parse_value(s: &str) -> Option<u64> {
    let s = s.replace('_', "");
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

/// [`parse_value`] as a clap value parser.
pub fn number(s: &str) -> Result<u64, String> {
    parse_value(s).ok_or_else(|| "not a number (decimal, 0x hex or 0b binary)".to_string())
}

/// A byte offset ([`parse_value`] that fits `usize`) as a clap value parser.
pub fn offset(s: &str) -> Result<usize, String> {
    parse_value(s)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| "not an offset (decimal or 0x hex)".to_string())
}

/// The descriptions folder when none is given: `regdefs/` in the current
/// directory (the repository root), else the one `perfregs-regdefs` ships.
pub fn default_regdefs() -> PathBuf {
    let local = Path::new("regdefs");
    if local.is_dir() {
        local.to_path_buf()
    } else {
        PathBuf::from(perfregs_regdefs::dir())
    }
}

/// A failed command: the exit code and a message for stderr (empty when the
/// details were printed already). The one error type of the commands.
#[derive(Debug)]
pub struct Fail {
    /// Exit code: 2 for bad arguments or unreadable input, 1 for findings.
    pub code: u8,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for Fail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Fail {}

impl Fail {
    /// Bad arguments or unreadable input (exit code 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Fail {
            code: 2,
            message: message.into(),
        }
    }
    /// Findings (exit code 1).
    pub fn findings(message: impl Into<String>) -> Self {
        Fail {
            code: 1,
            message: message.into(),
        }
    }
    /// `message` on stderr after `perfregs: `; the exit code.
    pub fn exit(self) -> ExitCode {
        eprintln!("perfregs: {}", self.message);
        ExitCode::from(self.code)
    }
    /// `message` on stderr after `perfregs COMMAND: `; the exit code.
    pub fn exit_from(self, command: &str) -> ExitCode {
        eprintln!("perfregs {command}: {}", self.message);
        ExitCode::from(self.code)
    }
}

impl From<perfregs_session::Error> for Fail {
    /// A usage error when the caller's input is at fault, else findings.
    fn from(e: perfregs_session::Error) -> Self {
        if e.is_usage() {
            Fail::usage(e.to_string())
        } else {
            Fail::findings(e.to_string())
        }
    }
}

impl From<perfregs_linux::recording::WriteError> for Fail {
    fn from(e: perfregs_linux::recording::WriteError) -> Self {
        Fail::findings(format!("writing the recording: {e}"))
    }
}

/// A usage error found after parsing: one line on stderr, exit code 2.
pub fn usage_error(msg: &str) -> ExitCode {
    eprintln!("perfregs: {msg}");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn one_line_joins_the_message_and_drops_the_usage() {
        let rendered = "error: the following required arguments were not provided:\n  <VALUE>\n\nUsage: perfregs decode <PROJECT> <REGISTER> <VALUE>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered),
            "error: the following required arguments were not provided: <VALUE>\nFor more information, try '--help'."
        );
        let rendered = "error: unrecognized subcommand 'lsit'\n\n  tip: a similar subcommand exists: 'list'\n\nUsage: perfregs <COMMAND>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered),
            "error: unrecognized subcommand 'lsit'\n  tip: a similar subcommand exists: 'list'\nFor more information, try '--help'."
        );
    }
}
