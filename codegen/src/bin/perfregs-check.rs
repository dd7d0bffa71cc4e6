//! `perfregs-check [PATH...]`: validate descriptions without building the HAL
//! (for editing `regdefs/`; `perfregs check` does the same from the main CLI).
//! The paths (default `regdefs`) are compiled together and must hold the
//! project catalogue: a folder with its `projects.yaml`, or files of one's
//! own beside it (`perfregs-check regdefs/projects.yaml my.yaml`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push("regdefs".into());
    }
    let mut sources = Vec::new();
    for p in &paths {
        let files = match perfregs_codegen::input_files(std::path::Path::new(p)) {
            Ok((f, ())) => f,
            Err(diags) => {
                diags.iter().for_each(|d| eprintln!("{d}"));
                return ExitCode::FAILURE;
            }
        };
        for f in files {
            match std::fs::read_to_string(&f) {
                Ok(t) => sources.push((f.display().to_string(), t)),
                Err(e) => {
                    eprintln!("error[PR001]: {}:1:1: cannot read file: {e}", f.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    // The catalogue is one of the inputs: a folder's `projects.yaml`, or
    // given as a path beside the files (this crate ships no descriptions).
    match perfregs_codegen::compile_sources(&sources, None) {
        Ok(ir) => {
            println!(
                "ok: {} files, {} registers",
                sources.len(),
                ir.registers.len()
            );
            ExitCode::SUCCESS
        }
        Err(diags) => {
            diags.iter().for_each(|d| eprintln!("{d}"));
            eprintln!("{} error(s)", diags.len());
            ExitCode::FAILURE
        }
    }
}
