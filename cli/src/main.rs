//! The `perfregs` command (crate `perfregs-cli`): check register
//! descriptions, and decode, list, look up, diff, dump and export the
//! registers of the perfregs HAL (`perfregs-hal`), including raw OA buffer
//! dumps (`oa-decode`); check, list and run IGT metric sets on the emulator
//! (`metrics`). `perfregs help` lists the commands, `perfregs help <command>`
//! explains one.
//!
//! `check` and `export` read descriptions with the `perfregs-codegen` front
//! end; the other commands read the HAL's compiled-in metadata. It is a crate
//! of its own so that the `perfregs` library does not depend on the generator.
//! In the repository, `cargo run -- <command>` runs it.
//!
//! The command line is parsed with clap (`cli/mod.rs`); each command is a
//! module of `cli/`.

/// `println!` that ends the program quietly when stdout is closed (`| head`).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($t)*).is_err() {
            std::process::exit(0);
        }
    }};
}

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
