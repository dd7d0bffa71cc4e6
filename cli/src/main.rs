//! The `perfregs` command (crate `perfregs-cli`): check register
//! descriptions, and decode, list, look up, diff, dump and export the
//! registers of the perfregs HAL (`perfregs-hal`), including raw OA buffer
//! dumps (`oa-decode`); check, list and run IGT metric sets on the emulator
//! (`metrics`). `perfregs help` prints the usage.
//!
//! `check` and `export` read descriptions with the `perfregs-codegen` front
//! end; the other commands read the HAL's compiled-in metadata. It is a crate
//! of its own so that the `perfregs` library does not depend on the generator.
//! In the repository, `cargo run -- <command>` runs it.
//!
//! Descriptions folder, when none is given: `$PERFREGS_REGDEFS` (`export`
//! only, as before), else `regdefs/` in the current directory, else the
//! shipped descriptions of `perfregs-regdefs`.

mod cli;

/// `println!` that ends the program quietly when stdout is closed (`| head`).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($t)*).is_err() {
            std::process::exit(0);
        }
    }};
}

use hal::{meta::ProjectInfo, PROJECTS};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
usage:
  perfregs check [PATH...]                     validate descriptions (default: regdefs/, else the shipped ones)
  perfregs decode <project> <REGISTER> <value> decode a value into named fields
  perfregs list <project>                      list a project's registers, opaque ranges and commands
  perfregs dump <project> --json               the compiled view of a project as JSON
  perfregs lookup <project> <address>          register (or opaque range), wake domain and replication at an address
  perfregs diff <projectA> <projectB>          registers added, removed, moved; fields changed
  perfregs export <project> --format F         F: c-header, markdown or svd (reads regdefs/ or $PERFREGS_REGDEFS)
  perfregs emulate <project> [--with FILE.yaml]... STEP...
                                               run register accesses on the emulator (its OA model on
                                               for GPU projects) and print the trace and the warnings;
                                               STEP: r:REG (read), w:REG=VALUE (write), t:TICKS (time);
                                               REG: a name or an address; --with: descriptions of your
                                               own, loaded at run time, join the emulated project
  perfregs oa-decode <project> <format> <file> [--head H] [--tail T] [--all] [--hz HZ]
                                               the reports of a raw OA buffer dump (base at byte 0), from
                                               head (default 0) to tail (default: file length), wrapping
                                               when tail < head; one row per report: index, offset
                                               (* = straddles the end, reassembled), RPT_ID, timestamp
                                               (low 32 bits), d_ts, [CTX_ID], [GPU clock: GPU_TICKS,
                                               or C2 on HSW; d_gpu] and
                                               counters: first row A/B/C values (`A0=12`), then non-zero
                                               increments since the previous report (`A0+5`, wrap-aware);
                                               --all: every counter as `A0=17(+5)`; --hz: rates per second
       [--metric-set SET [--metric-file F.xml] [--gt1|--gt2] [--device NAME=VALUE]...]
                                               also SET's counters for each report pair (hsw, bdw,
                                               tgl; the shipped file unless --metric-file; tgl: GT2
                                               unless --gt1), with the emulated part's device values
                                               or, for a real part, --device values (NAME: an equation
                                               variable, e.g. EuCoresTotalCount=96, SliceMask=0x1)
  perfregs metrics check <project> <file.xml>  check a metric-set file (IGT perf-configs XML): shape,
                                               names, equations, every register write against the
                                               descriptions; one line per set
  perfregs metrics list <project> [file.xml] [--gt1|--gt2] [--counters SET]
                                               the sets of a file (default: the shipped file of the
                                               project; tgl: GT2 unless --gt1, as run): symbol, name,
                                               counters, register writes, guid; --counters: one set's
                                               counters (symbol, units, data type, equation)
  perfregs metrics run <project> <SET> [--reports N] [--file F.xml] [--gt1|--gt2] [--dump OUT]
       [--device NAME=VALUE]...
                                               program SET on the emulated part (hsw, bdw, tgl; tgl:
                                               GT2 unless --gt1), sample N+1 periodic reports (default
                                               N = 4, a report every 1024 timestamp ticks) and print
                                               every counter per report pair, the device values used
                                               and the emulator's warnings; --dump: write the OA
                                               buffer to OUT (input for oa-decode)
                                               table: one row per counter (symbol, unit), column #k =
                                               report k-1 to report k; `-` = unavailable (what the
                                               reports lack is footnoted); counters whose availability
                                               is false on the device are named below the table
                                               device values of the emulated parts: timestamp 12.5 MHz
                                               (hsw, bdw), 19.2 MHz (tgl); GPU clock 8 x timestamp;
                                               hsw GT2: 20 EUs, 1 slice, 2 subslices; bdw GT2: 24 EUs,
                                               1 slice, 3 subslices; tgl GT2: 96 EUs, 1 slice, 6 dual
                                               subslices (GT1: 48 EUs, 3); 7 threads per EU;
                                               GpuMaxFrequency 1200/1000/1350 MHz, GpuMinFrequency
                                               300 MHz, QueryMode 0 (periodic sampling); tgl with
                                               --file: GT1 values when --gt1 or the file name says gt1;
                                               --device NAME=VALUE sets one of them by hand";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `perfregs <command> ... --help`: that command's part of the usage.
    if let (Some(cmd), true) = (
        args.first(),
        args.iter()
            .skip(1)
            .any(|a| matches!(a.as_str(), "-h" | "--help")),
    ) {
        let text = usage_of(cmd);
        if text.is_empty() {
            return usage_error(&format!("unknown command `{cmd}`"));
        }
        say!("{text}");
        return ExitCode::SUCCESS;
    }
    match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("decode") => decode(&args[1..]),
        Some("list") => list(&args[1..]),
        Some("dump") => dump(&args[1..]),
        Some("lookup") => lookup(&args[1..]),
        Some("diff") => diff(&args[1..]),
        Some("export") => export(&args[1..]),
        Some("oa-decode") => oa_decode(&args[1..]),
        Some("emulate") => emulate(&args[1..]),
        Some("metrics") => metrics(&args[1..]),
        Some("-h" | "--help" | "help") => {
            say!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => usage_error("expected a command"),
    }
}

/// The usage entries of one command: each entry starts with a line
/// `  perfregs <command> ...`, and its indented lines follow.
fn usage_of(command: &str) -> String {
    let head = format!("  perfregs {command} ");
    let mut keep = false;
    let mut out = Vec::new();
    for line in USAGE.lines() {
        if line.starts_with("  perfregs ") {
            keep = line.starts_with(&head) || line.trim_end() == head.trim_end();
        } else if !line.starts_with("    ") {
            keep = false;
        }
        if keep {
            out.push(line);
        }
    }
    out.join("\n")
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("perfregs: {msg}\n{USAGE}");
    ExitCode::from(2)
}

/// The descriptions folder when none is given: `regdefs/` in the current
/// directory (the repository root), else the one `perfregs-regdefs` ships.
fn default_regdefs() -> PathBuf {
    let local = Path::new("regdefs");
    if local.is_dir() {
        local.to_path_buf()
    } else {
        PathBuf::from(perfregs_regdefs::dir())
    }
}

fn check(paths: &[String]) -> ExitCode {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        vec![default_regdefs()]
    } else {
        paths.iter().map(PathBuf::from).collect()
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
                            eprintln!("error[PR001]: {}:1:1: cannot read file: {e}", f.display());
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
    let std_cat = (
        "<standard projects.yaml>",
        perfregs_codegen::STANDARD_PROJECTS,
    );
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

fn emulate(args: &[String]) -> ExitCode {
    let Some(name) = args.first() else {
        return usage_error("emulate: expected a project");
    };
    let p = match project(name) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let (mut files, mut steps) = (Vec::new(), Vec::new());
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        if a == "--with" {
            match rest.next() {
                Some(f) => files.push(f.clone()),
                None => return usage_error("emulate: --with needs a file"),
            }
        } else {
            steps.push(a.clone());
        }
    }
    match cli::emulate::run(p, &files, &steps, parse_value) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("perfregs: {e}");
            ExitCode::FAILURE
        }
    }
}

fn project(name: &str) -> Result<&'static ProjectInfo, ExitCode> {
    let lower = name.to_ascii_lowercase();
    PROJECTS
        .iter()
        .copied()
        .find(|p| p.name == lower)
        .ok_or_else(|| {
            let known: Vec<&str> = PROJECTS.iter().map(|p| p.name).collect();
            eprintln!(
                "perfregs: unknown project `{name}` (known: {})",
                known.join(", ")
            );
            ExitCode::from(2)
        })
}

fn parse_value(s: &str) -> Option<u64> {
    let s = s.replace('_', "");
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

fn decode(args: &[String]) -> ExitCode {
    let [p, reg, value] = args else {
        return usage_error("decode takes <project> <REGISTER> <value>");
    };
    let p = match project(p) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let Some(r) = p.register(reg) else {
        eprintln!(
            "perfregs: no register `{reg}` on {} ({} registers described; try `perfregs list {}`)",
            p.name,
            p.registers.len(),
            p.name
        );
        return ExitCode::FAILURE;
    };
    let Some(v) = parse_value(value) else {
        eprintln!("perfregs: `{value}` is not a number (decimal, 0x hex or 0b binary)");
        return ExitCode::from(2);
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

fn list(args: &[String]) -> ExitCode {
    let [p] = args else {
        return usage_error("list takes <project>");
    };
    let p = match project(p) {
        Ok(p) => p,
        Err(code) => return code,
    };
    for r in p.registers {
        say!(
            "{:#08x}  {:<14} {:<10} {}",
            r.address,
            r.name,
            r.block,
            r.title
        );
    }
    for line in cli::lookup::list_extras(p) {
        say!("{line}");
    }
    ExitCode::SUCCESS
}

fn dump(args: &[String]) -> ExitCode {
    let (p, json) = match args {
        [p, flag] if flag == "--json" => (p, true),
        [flag, p] if flag == "--json" => (p, true),
        [p] => (p, false),
        _ => return usage_error("dump takes <project> --json"),
    };
    if !json {
        return usage_error("dump writes JSON only: add --json");
    }
    let p = match project(p) {
        Ok(p) => p,
        Err(code) => return code,
    };
    match serde_json::to_string_pretty(&cli::dump::project_json(p)) {
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

fn lookup(args: &[String]) -> ExitCode {
    let [p, addr] = args else {
        return usage_error("lookup takes <project> <address>");
    };
    let p = match project(p) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let Some(addr) = parse_value(addr) else {
        eprintln!("perfregs: `{addr}` is not an address (decimal, 0x hex or 0b binary)");
        return ExitCode::from(2);
    };
    for line in cli::lookup::lookup(p, addr) {
        say!("{line}");
    }
    ExitCode::SUCCESS
}

fn diff(args: &[String]) -> ExitCode {
    let [a, b] = args else {
        return usage_error("diff takes <projectA> <projectB>");
    };
    let (a, b) = match (project(a), project(b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let lines = cli::diff::diff(a, b);
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

fn export(args: &[String]) -> ExitCode {
    let (p, format) = match args {
        [p, flag, f] if flag == "--format" => (p, f),
        [flag, f, p] if flag == "--format" => (p, f),
        _ => return usage_error("export takes <project> --format c-header|markdown|svd"),
    };
    let format: perfregs_codegen::export::Format = match format.parse() {
        Ok(f) => f,
        Err(e) => return usage_error(&e.to_string()),
    };
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
        let known: Vec<&str> = ir
            .catalogue
            .projects
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        eprintln!(
            "perfregs: unknown project `{p}` (known: {})",
            known.join(", ")
        );
        return ExitCode::from(2);
    };
    say!(
        "{}",
        perfregs_codegen::export::export(&ir, index, format).trim_end()
    );
    ExitCode::SUCCESS
}

fn oa_decode(args: &[String]) -> ExitCode {
    let opts = match cli::oa_decode::Options::parse(args, parse_value) {
        Ok(o) => o,
        Err(msg) => return usage_error(&msg),
    };
    let p = match project(&opts.project) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let format = match cli::oa_decode::find_format(p, &opts.format) {
        Ok(f) => f,
        Err(msg) => {
            eprintln!("perfregs: {msg}");
            return ExitCode::from(2);
        }
    };
    let mem = match std::fs::read(&opts.file) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("perfregs: cannot read {}: {e}", opts.file.display());
            return ExitCode::FAILURE;
        }
    };
    let chosen = match &opts.metric_set {
        None => None,
        Some(set) => {
            match cli::metrics::Chosen::load(p, &default_regdefs(), set, &opts.metric_choice) {
                Ok(c) => Some(c),
                Err(f) => {
                    if !f.message.is_empty() {
                        eprintln!("perfregs: {}", f.message);
                    }
                    return ExitCode::from(f.code);
                }
            }
        }
    };
    if opts.metric_set.is_none() && opts.metric_choice != cli::metrics::Choice::default() {
        return usage_error("--metric-file, --gt1 and --gt2 go with --metric-set");
    }
    let out = &mut |line: &str| say!("{line}");
    match cli::oa_decode::decode(p, format, &opts, &mem, chosen.as_ref(), out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("perfregs: {msg}");
            ExitCode::from(2)
        }
    }
}

fn metrics(args: &[String]) -> ExitCode {
    let find = |name: &str| {
        let lower = name.to_ascii_lowercase();
        PROJECTS.iter().copied().find(|p| p.name == lower)
    };
    let dir = default_regdefs();
    match cli::metrics::main(find, &dir, args, &mut |line| say!("{line}")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("perfregs: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}
