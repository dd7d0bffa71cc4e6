//! `perfregs check` and `perfregs export`: the commands that read
//! description files with the `perfregs-codegen` front end.

use super::default_regdefs;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use perfregs_codegen::export::Format;
use std::path::PathBuf;
use std::process::ExitCode;

/// `perfregs check [PATH...]`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Validate register descriptions (default: regdefs/, else the shipped ones)",
    long_about = "Validate register descriptions: every file of each PATH (a file or a folder), \
against the schema and each other (overlapping fields, access kinds, addresses, projects). \
Prints one summary line (files, registers, fields, layouts, enums, counter events) or the \
errors, each located as FILE:LINE:COLUMN with its code (error[PR104]: ...); exit code 1 on \
errors."
)]
pub struct CheckArgs {
    /// Files or folders of descriptions (default: regdefs/ in the current
    /// directory, else the shipped descriptions).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl CheckArgs {
    /// Run `check`.
    pub fn run(self) -> ExitCode {
        let paths = if self.paths.is_empty() {
            vec![default_regdefs()]
        } else {
            self.paths
        };
        let mut sources = Vec::new();
        let mut io_errors = 0;
        for p in &paths {
            match perfregs_codegen::input_files(p) {
                Ok((files, ())) => {
                    for f in files {
                        match std::fs::read_to_string(&f) {
                            Ok(t) => sources.push((f.display().to_string(), t)),
                            Err(e) => {
                                eprintln!(
                                    "error[PR001]: {}:1:1: cannot read file: {e}",
                                    f.display()
                                );
                                io_errors += 1;
                            }
                        }
                    }
                }
                Err(diags) => {
                    for d in diags {
                        eprintln!("{d}");
                        io_errors += 1;
                    }
                }
            }
        }
        let std_cat = ("<standard projects.yaml>", perfregs_regdefs::PROJECTS_YAML);
        match perfregs_codegen::compile_sources(&sources, Some(std_cat)) {
            Ok(ir) if io_errors == 0 => {
                let pairs = ir.registers.iter().flat_map(|r| &r.instances);
                let elements: usize = pairs.clone().map(|i| i.count as usize).sum();
                let fields: usize = pairs
                    .clone()
                    .map(|i| i.count as usize * ir.layouts[i.layout].fields.len())
                    .sum();
                say!(
                    "ok: {} files, {} registers and arrays ({} register-project pairs, {} elements, {} fields; {} distinct layouts), {} enums, {} counter events",
                    sources.len(),
                    ir.registers.len(),
                    pairs.count(),
                    elements,
                    fields,
                    ir.layouts.len(),
                    ir.enums.len(),
                    ir.events.len()
                );
                ExitCode::SUCCESS
            }
            Ok(_) => ExitCode::FAILURE,
            Err(diags) => {
                for d in &diags {
                    eprintln!("{d}");
                }
                eprintln!("{} error(s)", diags.len() + io_errors);
                ExitCode::FAILURE
            }
        }
    }
}

/// `perfregs export <project> --format F`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Export a project as a C header, Markdown or SVD",
    long_about = "Export a project's registers as a C header (c-header), a Markdown register \
reference (markdown) or CMSIS-SVD 1.3 XML (svd). Reads the descriptions in $PERFREGS_REGDEFS, \
else regdefs/ in the current directory, else the shipped ones; the project is one of theirs."
)]
pub struct ExportArgs {
    /// The project (of the descriptions read).
    pub project: String,
    /// The output format.
    #[arg(long, value_name = "F", value_parser = format_parser())]
    pub format: Format,
}

/// The value parser of `--format`: the export formats by name.
fn format_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(Format::ALL.map(|f| f.as_str()))
        .try_map(|s: String| s.parse::<Format>())
}

impl ExportArgs {
    /// Run `export`.
    pub fn run(self) -> ExitCode {
        let p = &self.project;
        let dir = std::env::var_os("PERFREGS_REGDEFS").map_or_else(default_regdefs, PathBuf::from);
        let ir = match perfregs_codegen::compile_path(&dir) {
            Ok(ir) => ir,
            Err(diags) => {
                for d in &diags {
                    eprintln!("{d}");
                }
                eprintln!("perfregs: {} error(s) in {}", diags.len(), dir.display());
                return ExitCode::FAILURE;
            }
        };
        let Some(index) = ir.catalogue.find(&p.to_ascii_lowercase()) else {
            let known: Vec<&str> = ir.catalogue.tags().collect();
            eprintln!(
                "perfregs: unknown project `{p}` (known: {})",
                known.join(", ")
            );
            return ExitCode::from(2);
        };
        say!(
            "{}",
            perfregs_codegen::export::export(&ir, index, self.format).trim_end()
        );
        ExitCode::SUCCESS
    }
}
