//! `perfregs emulate`: run register accesses on the emulator from the shell,
//! with descriptions of your own loaded at run time (`--with FILE.yaml`).

use hal::meta::{FieldInfo, ProjectInfo, RegisterInfo, SpaceKind};
use perfregs_codegen::ir::Ir;
use perfregs_emu::{Emulator, Sku};

/// One step of the script.
enum Op {
    Read(u64),
    Write(u64, u32),
    Advance(u64),
}

/// `s` leaked: registers loaded at run time live as long as the program.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// The registers the user's files describe on `project` (not the built-in
/// ones they were compiled with), as runtime metadata the emulator takes.
pub fn user_registers(ir: &Ir, project: &str) -> Vec<&'static RegisterInfo> {
    let Some(p) = ir.catalogue.find(project) else {
        return Vec::new();
    };
    ir.elements(p)
        .filter(|e| !e.register.external)
        .map(|e| {
            let fields: Vec<FieldInfo> = e
                .fields()
                .iter()
                .map(|f| FieldInfo {
                    name: leak(&f.name),
                    lsb: f.lsb,
                    width: f.width,
                    access: f.access,
                    values: &[],
                    description: leak(&e.text(&f.description)),
                    address: f.address,
                })
                .collect();
            let info = RegisterInfo {
                name: leak(&e.name),
                block: leak(&e.register.block),
                title: leak(&e.text(&e.register.title)),
                space: match e.register.space {
                    perfregs_codegen::model::Space::Mmio => SpaceKind::Mmio,
                    perfregs_codegen::model::Space::Msr => SpaceKind::Msr,
                    perfregs_codegen::model::Space::Pci => SpaceKind::Pci,
                },
                address: e.address,
                width: e.register.width,
                reset: e.instance.reset,
                masked: e.register.masked,
                fields: Box::leak(fields.into_boxed_slice()),
                domain: ir.wake_name_of(e.instance).map(|d| leak(&d)),
                replication: e
                    .instance
                    .replication
                    .map(|g| (leak(&ir.groups[g].name), ir.groups[g].instances)),
            };
            &*Box::leak(Box::new(info))
        })
        .collect()
}

/// `perfregs emulate <project> [--with FILE.yaml]... STEP...`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Run register accesses on the emulator and print the trace and the warnings",
    long_about = "Run register accesses on the emulator (its OA model on for GPU projects) and \
print the trace and the warnings (a read of a sleeping power domain, a write to a read-only \
field, ...). Descriptions of your own (--with) are loaded at run time and join the emulated \
project.",
    after_help = "Example: perfregs emulate hsw w:FORCEWAKE_MT=0x00010001 t:3 w:OACONTROL=0x335 r:0x2360"
)]
pub struct EmulateArgs {
    /// The project.
    #[arg(value_parser = super::project_parser())]
    pub project: &'static ProjectInfo,
    /// Descriptions of your own (YAML), loaded at run time; may repeat.
    #[arg(long = "with", value_name = "FILE.yaml")]
    pub with: Vec<String>,
    /// The steps, in order: r:REG (read), w:REG=VALUE (write), t:TICKS
    /// (advance time); REG: a register name or an address.
    #[arg(value_name = "STEP")]
    pub steps: Vec<String>,
}

impl EmulateArgs {
    /// Run `emulate`.
    pub fn run(self) -> std::process::ExitCode {
        match run(self.project, &self.with, &self.steps, super::parse_value) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("perfregs: {e}");
                std::process::ExitCode::FAILURE
            }
        }
    }
}

/// Run the command: `perfregs emulate <project> [--with FILE.yaml]... OP...`.
pub fn run(
    project: &'static ProjectInfo,
    files: &[String],
    ops: &[String],
    parse_value: fn(&str) -> Option<u64>,
) -> Result<(), String> {
    let mut sources = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        sources.push((f.clone(), text));
    }
    let extra = if sources.is_empty() {
        Vec::new()
    } else {
        let lines = |diags: Vec<perfregs_codegen::Error>| {
            let lines: Vec<String> = diags.iter().map(ToString::to_string).collect();
            lines.join("\n")
        };
        let built_in =
            perfregs_codegen::BuiltIn::from_files(perfregs_regdefs::FILES).map_err(lines)?;
        let ir = perfregs_codegen::compile_user_sources(&built_in, &sources).map_err(lines)?;
        user_registers(&ir, project.name)
    };
    let all: Vec<&'static RegisterInfo> = project
        .registers
        .iter()
        .chain(extra.iter().copied())
        .collect();
    let address = |s: &str| -> Result<u64, String> {
        parse_value(s)
            .or_else(|| {
                all.iter()
                    .find(|r| r.name.eq_ignore_ascii_case(s))
                    .map(|r| r.address)
            })
            .ok_or_else(|| format!("`{s}`: not an address or a register of {}", project.name))
    };
    let mut script = Vec::new();
    for op in ops {
        let (verb, arg) = op
            .split_once(':')
            .ok_or_else(|| format!("`{op}`: expected r:REG, w:REG=VALUE or t:TICKS"))?;
        script.push(match verb {
            "r" => Op::Read(address(arg)?),
            "w" => {
                let (reg, v) = arg
                    .split_once('=')
                    .ok_or_else(|| format!("`{op}`: expected w:REG=VALUE"))?;
                let v = parse_value(v)
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| format!("`{op}`: the value is not a 32-bit number"))?;
                Op::Write(address(reg)?, v)
            }
            "t" => Op::Advance(parse_value(arg).ok_or_else(|| format!("`{op}`: ticks"))?),
            _ => return Err(format!("`{op}`: unknown step `{verb}`")),
        });
    }
    let mut emu = Emulator::builder(project, Sku::default())
        .registers(&extra)
        .build();
    for op in script {
        match op {
            Op::Read(a) => {
                emu.read32(a);
            }
            Op::Write(a, v) => emu.write32(a, v),
            Op::Advance(n) => emu.advance(n),
        }
    }
    for t in emu.trace() {
        println!("{t}");
    }
    for w in emu.warnings() {
        println!("warning: {w}");
    }
    Ok(())
}
