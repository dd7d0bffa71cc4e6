//! `perfregs reg read|write|dump`: a live GPU's registers through PCI BAR 0
//! (sysfs `resource0`, mapped with `perfregs_linux::bar::Bar`), decoded and
//! checked with the project's register metadata.
//!
//! The register is named at run time, so the accesses are the typed
//! accessors' rules carried out on the metadata (`RegisterInfo`): reads
//! take the bus's fault before and after the access as `Device::try_read`
//! does (a fault is an error, never an all-ones value shown as data);
//! writes set only described, writable fields, start from what was read
//! with the bits a write must not carry back cleared (`KEEP_MASK`), and
//! write masked registers from zero with the enable bits of the fields set
//! (`write_masked`). Anything else (a whole raw value, an undescribed
//! address) needs `--raw`.
//!
//! Replicated (multicast) registers: steering belongs to the kernel, so a
//! read returns the instance the kernel's steering selects at that moment
//! (which one is not known; the output says so) and a write is refused.
//!
//! Force-wake: the kernel owns the request registers of a device it drives;
//! the kernel's user force-wake file (`ForcewakeHolder`) is held open for
//! every access, which keeps every power domain awake.

use super::regs::{close_names, decode_lines, encoding, field_value, resolve};
use super::{find_project, parse_value, project_parser, Fail};
use hal::bus::{Bus, BusFault, Mmio};
use hal::meta::{low_bits, AccessKind, FieldInfo, ProjectInfo, RegisterInfo, SpaceKind};
use std::path::PathBuf;
use std::process::ExitCode;

/// `perfregs reg read|write|dump`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Read, write and dump a live GPU's registers through PCI BAR 0",
    long_about = "Read, write and dump a live GPU's registers through PCI BAR 0 (sysfs \
resource0; root needed), decoded as `decode` prints them. Writes go through the register \
descriptions: described registers, writable fields, enable bits of masked registers; a whole \
raw value or an undescribed address needs --raw, and every write is echoed before and after. \
Replicated (multicast) registers: steering belongs to the kernel, so a read shows the instance \
the kernel's steering selects (not known which) and a write is refused. The kernel's user \
force-wake file is held open during the accesses."
)]
pub struct RegArgs {
    /// The operation.
    #[command(subcommand)]
    pub command: RegCommand,
}

/// The operations of `perfregs reg`.
#[derive(Debug, clap::Subcommand)]
pub enum RegCommand {
    /// Read one register and decode it.
    Read(ReadArgs),
    /// Write fields of one register (or, with --raw, a whole value).
    Write(WriteArgs),
    /// Read and decode every readable register (or those of a block or
    /// name prefix), one line each.
    Dump(DumpArgs),
}

impl RegArgs {
    /// Run `reg`.
    pub fn run(self) -> ExitCode {
        match self.command {
            RegCommand::Read(a) => a.run(),
            RegCommand::Write(a) => a.run(),
            RegCommand::Dump(a) => a.run(),
        }
    }
}

/// The device and how to reach it.
#[derive(Debug, clap::Args)]
pub struct Target {
    /// The GPU: a DRM card (`card0`), a PCI address (`0000:00:02.0`), or a
    /// file to map as BAR 0 (a sysfs `resource0`, or a regular file
    /// standing in for one; a path with a `/` is always a file).
    pub device: String,
    /// The device's project (required until device discovery names it).
    #[arg(long, value_parser = project_parser())]
    pub project: Option<&'static ProjectInfo>,
    /// Hold this force-wake file open during the accesses (default for a
    /// card or PCI address bound to i915 or xe: its debugfs file,
    /// `i915_forcewake_user` or `forcewake_all`).
    #[arg(long, value_name = "PATH", conflicts_with = "no_forcewake")]
    pub forcewake: Option<PathBuf>,
    /// Hold no force-wake file: registers of a sleeping power domain read
    /// 0 or stale values and writes to them are lost.
    #[arg(long)]
    pub no_forcewake: bool,
    /// The sysfs root (default /sys): for tests on a fake tree, as
    /// `devices --sys`.
    #[arg(long, value_name = "DIR", hide = true)]
    pub sys: Option<PathBuf>,
}

/// `perfregs reg read <DEVICE> <REGISTER>`.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
    /// The register: its name (case-insensitive) or its address (0x hex).
    #[arg(value_name = "REGISTER|ADDRESS")]
    pub register: String,
    /// Read an address no register is described at (32 bits, undecoded).
    #[arg(long)]
    pub raw: bool,
}

/// `perfregs reg write <DEVICE> <REGISTER> field=value...`.
#[derive(Debug, clap::Args)]
pub struct WriteArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
    /// The register (name or 0x address); `NAME=VALUE` or `0xADDR=VALUE`
    /// writes a whole value (needs --raw).
    #[arg(value_name = "REGISTER[=VALUE]")]
    pub register: String,
    /// Fields to set: `field=value`, the value a number or the name of one
    /// of the field's encodings; fields not named keep their value.
    #[arg(value_name = "FIELD=VALUE")]
    pub fields: Vec<String>,
    /// Allow a whole raw value, or an address no register is described at
    /// (32 bits).
    #[arg(long)]
    pub raw: bool,
}

/// `perfregs reg dump <DEVICE> [BLOCK|PREFIX]`.
#[derive(Debug, clap::Args)]
pub struct DumpArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
    /// Only the registers of this block (`oa_tgl`), else those whose name
    /// starts with this (`OAG_`).
    #[arg(value_name = "BLOCK|PREFIX")]
    pub filter: Option<String>,
}

/// A fault as an error message: where, what, and the mapping it is on.
fn fault_message(fault: BusFault, device: &str) -> String {
    use hal::bus::FaultKind;
    let hint = match fault.kind {
        FaultKind::OutOfRange => " (past the end of the mapped BAR)".to_string(),
        FaultKind::Os(errno) => format!(" ({})", std::io::Error::from_raw_os_error(errno)),
        FaultKind::Denied => " (run as root)".to_string(),
        FaultKind::Gone => " (the driver was unbound or the device removed or reset)".to_string(),
        _ => String::new(),
    };
    format!("{device}: {fault}{hint}")
}

/// Read `width` bits at `addr`, as `Device::try_read` does: a fault left by
/// an earlier access is returned first, then this access's own.
pub fn try_read<B: Bus<Mmio>>(bus: &mut B, addr: u64, width: u32) -> Result<u64, BusFault> {
    if let Some(f) = bus.take_fault() {
        return Err(f);
    }
    let v = if width == 64 {
        bus.read64(addr)
    } else {
        u64::from(bus.read32(addr))
    };
    bus.take_fault().map_or(Ok(v), Err)
}

/// Write `width` bits at `addr`, faults as [`try_read`].
pub fn try_write<B: Bus<Mmio>>(
    bus: &mut B,
    addr: u64,
    width: u32,
    value: u64,
) -> Result<(), BusFault> {
    if let Some(f) = bus.take_fault() {
        return Err(f);
    }
    if width == 64 {
        bus.write64(addr, value);
    } else {
        // Truncation is intended: checked to fit 32 bits before.
        bus.write32(addr, value as u32);
    }
    bus.take_fault().map_or(Ok(()), Err)
}

/// The bits of `r` a write carries over from what was read (the typed
/// HAL's `KEEP_MASK`): every described field except RW1C, RW1S, MBZ and
/// reserved ones.
pub fn keep_mask(r: &RegisterInfo) -> u64 {
    r.fields
        .iter()
        .filter(|f| {
            !f.access.reserved() && !matches!(f.access, AccessKind::Rw1c | AccessKind::Rw1s)
        })
        .fold(0, |m, f| m | f.mask())
}

/// Whether a field of this access can be named in `reg write`.
fn writable(a: AccessKind) -> bool {
    a.settable() || matches!(a, AccessKind::Rw1c | AccessKind::Rw1s)
}

/// Whether `r` can be read meaningfully (some field readable, or none
/// described).
fn readable(r: &RegisterInfo) -> bool {
    r.fields.is_empty() || r.fields.iter().any(|f| f.access.readable())
}

/// The fields of `r` whose read clears them.
fn read_clears(r: &RegisterInfo) -> Vec<&'static str> {
    r.fields
        .iter()
        .filter(|f| f.access == AccessKind::Rc)
        .map(|f| f.name)
        .collect()
}

/// What `reg` says about a replicated register's value.
fn instance_note(r: &RegisterInfo) -> Option<String> {
    r.replication.map(|(group, n)| {
        format!(
            "replicated over {n} {group} instances: this is the instance the kernel's steering \
             selects now (which one is not known; steering belongs to the kernel)"
        )
    })
}

/// Parse `field=value` words into the fields of `r` and their values,
/// checked as the typed setters are: described fields, writable access,
/// values that fit, encodings by name.
pub fn check_fields(
    r: &RegisterInfo,
    words: &[String],
) -> Result<Vec<(&'static FieldInfo, u64)>, String> {
    let mut out: Vec<(&'static FieldInfo, u64)> = Vec::new();
    for word in words {
        let Some((name, value)) = word.split_once('=') else {
            return Err(format!("`{word}` is not field=value"));
        };
        let Some(f) = r.fields.iter().find(|f| f.name.eq_ignore_ascii_case(name)) else {
            let close = close_names(name, r.fields.iter().map(|f| f.name));
            let all: Vec<&str> = r.fields.iter().map(|f| f.name).collect();
            return Err(if close.is_empty() {
                format!(
                    "{} has no field `{name}` (fields: {})",
                    r.name,
                    all.join(", ")
                )
            } else {
                format!(
                    "{} has no field `{name}` (did you mean {}?)",
                    r.name,
                    close.join(", ")
                )
            });
        };
        if !writable(f.access) {
            return Err(format!(
                "{}.{} is {}: not writable",
                r.name,
                f.name,
                f.access.as_str()
            ));
        }
        let v = match parse_value(value) {
            Some(v) => v,
            None => match f.values.iter().find(|(n, _)| n.eq_ignore_ascii_case(value)) {
                Some(&(_, v)) => v,
                None if f.values.is_empty() => {
                    return Err(format!("{}.{}: `{value}` is not a number", r.name, f.name))
                }
                None => {
                    let names: Vec<&str> = f.values.iter().map(|(n, _)| *n).collect();
                    return Err(format!(
                        "{}.{}: `{value}` is neither a number nor one of its encodings ({})",
                        r.name,
                        f.name,
                        names.join(", ")
                    ));
                }
            },
        };
        if v > low_bits(f.width) {
            return Err(format!(
                "{}.{}: {v:#x} does not fit its {} bit(s) (at most {:#x})",
                r.name,
                f.name,
                f.width,
                low_bits(f.width)
            ));
        }
        if out.iter().any(|(g, _)| g.name == f.name) {
            return Err(format!("{}.{} is set twice", r.name, f.name));
        }
        out.push((f, v));
    }
    Ok(out)
}

/// The word that writes `fields` into `r` whose value is `old`: a masked
/// register from zero with the enable bits (31:16) of the fields set; any
/// other from `old` with the bits a write must not carry back cleared.
pub fn build_word(r: &RegisterInfo, fields: &[(&FieldInfo, u64)], old: u64) -> u64 {
    let set = fields.iter().fold(0, |m, (f, _)| m | f.mask());
    let values = fields.iter().fold(0, |m, (f, v)| m | (v << f.lsb));
    if r.masked {
        (set << 16) | values
    } else {
        (old & keep_mask(r) & !set) | values
    }
}

/// The lines saying how each field of `r` changed from `before` to
/// `after`; the fields set and unchanged are said too.
pub fn field_diff(
    r: &RegisterInfo,
    set: &[(&FieldInfo, u64)],
    before: u64,
    after: u64,
) -> Vec<String> {
    let mut lines = Vec::new();
    for f in r.fields.iter().rev() {
        let (b, a) = (f.extract(before), f.extract(after));
        let named = set.iter().any(|(g, _)| g.name == f.name);
        if b != a {
            lines.push(format!(
                "  {}: {} -> {}",
                f.name,
                field_value(f, b),
                field_value(f, a)
            ));
        } else if named {
            lines.push(format!("  {}: {} (unchanged)", f.name, field_value(f, a)));
        }
    }
    let changed = (before ^ after) & uncovered(r);
    if changed != 0 {
        lines.push(format!(
            "  reserved bits {} (no field covers them): {:#x} -> {:#x}",
            bit_list(changed),
            before & changed,
            after & changed
        ));
    }
    if lines.is_empty() {
        lines.push("  no field changed".to_string());
    }
    lines
}

/// The bits of `r` no field covers (its reserved bits, in the sense of
/// `decode`'s "set outside every field").
pub fn uncovered(r: &RegisterInfo) -> u64 {
    let covered = r.fields.iter().fold(0, |m, f| m | f.mask());
    low_bits(r.width) & !covered
}

/// The bits set in `mask` as runs, highest first: `31:28, 1`.
pub fn bit_list(mask: u64) -> String {
    let mut runs = Vec::new();
    let mut bit = 64u32;
    while bit > 0 {
        bit -= 1;
        if mask >> bit & 1 == 0 {
            continue;
        }
        let hi = bit;
        while bit > 0 && mask >> (bit - 1) & 1 == 1 {
            bit -= 1;
        }
        runs.push(if hi == bit {
            format!("{hi}")
        } else {
            format!("{hi}:{bit}")
        });
    }
    runs.join(", ")
}

/// One dump line: address, name, value, every non-reserved field, and the
/// bits set outside every field (as `reg read` flags them).
pub fn dump_line(r: &RegisterInfo, v: u64) -> String {
    let digits = if r.width == 64 { 18 } else { 10 };
    let mut line = format!("{:#08x}  {:<24} = {v:#0digits$x}", r.address, r.name);
    for f in r.fields.iter().filter(|f| !f.access.reserved()) {
        let x = f.extract(v);
        line.push_str(&format!(" {}={x:#x}", f.name));
        if let Some(e) = encoding(f, x) {
            line.push_str(&format!("({e})"));
        }
    }
    let stray = v & uncovered(r);
    if stray != 0 {
        line.push_str(&format!(
            "  [bits {stray:#x} set outside every field (reserved)]"
        ));
    }
    if let Some((group, n)) = r.replication {
        line.push_str(&format!(
            "  [one of {n} {group} instances, which one not known: the kernel steers]"
        ));
    }
    line
}

/// The registers `filter` selects on `p` (a block by name, else a name
/// prefix, case-insensitive), by address then name.
pub fn select<'p>(
    p: &'p ProjectInfo,
    filter: Option<&str>,
) -> Result<Vec<&'p RegisterInfo>, String> {
    let mut regs = selected(p, filter)?;
    regs.sort_by(|a, b| (a.address, a.name).cmp(&(b.address, b.name)));
    Ok(regs)
}

/// The registers `filter` selects on `p`, in the description's order.
fn selected<'p>(p: &'p ProjectInfo, filter: Option<&str>) -> Result<Vec<&'p RegisterInfo>, String> {
    let Some(filter) = filter else {
        return Ok(p.registers.iter().collect());
    };
    let block: Vec<&RegisterInfo> = p
        .registers
        .iter()
        .filter(|r| r.block.eq_ignore_ascii_case(filter))
        .collect();
    if !block.is_empty() {
        return Ok(block);
    }
    let upper = filter.to_ascii_uppercase().replace('-', "_");
    let prefixed: Vec<&RegisterInfo> = p
        .registers
        .iter()
        .filter(|r| r.name.starts_with(&upper))
        .collect();
    if prefixed.is_empty() {
        let mut blocks: Vec<&str> = p.registers.iter().map(|r| r.block).collect();
        blocks.sort_unstable();
        blocks.dedup();
        return Err(format!(
            "`{filter}` is neither a block nor the start of a register name on {} (blocks: {})",
            p.name,
            blocks.join(", ")
        ));
    }
    Ok(prefixed)
}

/// What `reg dump` found: lines to print, notes, faults.
#[derive(Debug, Default)]
pub struct Dumped {
    /// One line per register read (or skipped, saying why).
    pub lines: Vec<String>,
    /// Registers read.
    pub read: usize,
    /// Registers skipped (write-only, read-clears, not MMIO).
    pub skipped: usize,
    /// Faults, as messages.
    pub faults: Vec<String>,
}

/// Read and decode `regs` on `bus`, one line each.
pub fn dump<B: Bus<Mmio>>(bus: &mut B, regs: &[&RegisterInfo], device: &str) -> Dumped {
    let mut d = Dumped::default();
    for r in regs {
        let skip = if r.space != SpaceKind::Mmio {
            Some("not in MMIO".to_string())
        } else if !readable(r) {
            Some("write-only".to_string())
        } else {
            let rc = read_clears(r);
            (!rc.is_empty()).then(|| format!("reading clears {} (read it by name)", rc.join(", ")))
        };
        if let Some(why) = skip {
            d.skipped += 1;
            d.lines.push(format!(
                "{:#08x}  {:<24}   skipped: {why}",
                r.address, r.name
            ));
            continue;
        }
        match try_read(bus, r.address, r.width) {
            Ok(v) => {
                d.read += 1;
                d.lines.push(dump_line(r, v));
            }
            Err(fault) => d
                .faults
                .push(format!("{}: {}", r.name, fault_message(fault, device))),
        }
    }
    d
}

/// The register named by `reg` on `p` or, with `raw`, the undescribed
/// 32-bit address it is.
enum Named {
    Described(&'static RegisterInfo),
    Undescribed(u64),
}

fn named(p: &ProjectInfo, reg: &str, raw: bool) -> Result<Named, Fail> {
    match resolve(p, reg) {
        Ok(r) if r.space != SpaceKind::Mmio => Err(Fail::findings(format!(
            "{} is not in the GPU's MMIO space (it is {})",
            r.name,
            format!("{:?}", r.space).to_lowercase()
        ))),
        Ok(r) => Ok(Named::Described(r)),
        Err(msg) => match parse_value(reg) {
            Some(addr) if raw => Ok(Named::Undescribed(addr)),
            Some(_) => Err(Fail::findings(format!(
                "{msg}; --raw accesses it as an undescribed 32-bit register"
            ))),
            None => Err(Fail::findings(msg)),
        },
    }
}

/// `reg read` on an open bus: the lines to print.
pub fn read_lines<B: Bus<Mmio>>(
    bus: &mut B,
    p: &ProjectInfo,
    reg: &str,
    raw: bool,
    device: &str,
) -> Result<Vec<String>, String> {
    match named(p, reg, raw).map_err(|f| f.message)? {
        Named::Described(r) => {
            if !readable(r) {
                return Err(format!(
                    "{} is write-only: reading it returns nothing",
                    r.name
                ));
            }
            let v = try_read(bus, r.address, r.width)
                .map_err(|f| format!("{}: {}", r.name, fault_message(f, device)))?;
            let mut lines = decode_lines(p, r, v);
            lines.extend(instance_note(r).map(|n| format!("  {n}")));
            let rc = read_clears(r);
            if !rc.is_empty() {
                lines.push(format!("  this read cleared {}", rc.join(", ")));
            }
            Ok(lines)
        }
        Named::Undescribed(addr) => {
            let v = try_read(bus, addr, 32).map_err(|f| fault_message(f, device))?;
            Ok(vec![format!(
                "{addr:#x} on {} = {v:#x} (undescribed: no register of {} starts there)",
                p.name, p.name
            )])
        }
    }
}

/// `reg write` on an open bus: read, write, read back; the echo.
pub fn write_lines<B: Bus<Mmio>>(
    bus: &mut B,
    p: &ProjectInfo,
    reg: &str,
    words: &[String],
    raw: bool,
    device: &str,
) -> Result<Vec<String>, String> {
    let (name, whole) = match reg.split_once('=') {
        Some((n, v)) => (
            n,
            Some(parse_value(v).ok_or_else(|| format!("`{v}` is not a number"))?),
        ),
        None => (reg, None),
    };
    if whole.is_some() && !words.is_empty() {
        return Err(
            "a whole value (REGISTER=VALUE) and field=value words exclude each other".into(),
        );
    }
    if whole.is_none() && words.is_empty() {
        return Err(format!(
            "nothing to write: give field=value words (or {name}=VALUE with --raw)"
        ));
    }
    let fault = |f| format!("{name}: {}", fault_message(f, device));
    match named(p, name, raw).map_err(|f| f.message)? {
        Named::Undescribed(addr) => {
            let v = whole.ok_or("an undescribed address takes a whole value: 0xADDR=VALUE")?;
            if v > u64::from(u32::MAX) {
                return Err(format!("{v:#x} does not fit 32 bits"));
            }
            let before = try_read(bus, addr, 32).map_err(fault)?;
            try_write(bus, addr, 32, v).map_err(fault)?;
            let after = try_read(bus, addr, 32).map_err(fault)?;
            Ok(vec![
                format!("{addr:#x} on {} (undescribed)", p.name),
                format!("  before {before:#x}"),
                format!("  write  {v:#x}"),
                format!("  after  {after:#x}"),
            ])
        }
        Named::Described(r) => {
            if let Some((group, n)) = r.replication {
                return Err(format!(
                    "{} is replicated over {n} {group} instances: steering belongs to the kernel \
                     (a write from here could reach another instance than meant), so it is not \
                     written",
                    r.name
                ));
            }
            if whole.is_some() && !raw {
                return Err(format!(
                    "a whole value is written without the field checks: add --raw (or name the fields: \
                     `perfregs decode {} {name} VALUE` shows them)",
                    p.name
                ));
            }
            let set = match whole {
                Some(v) => {
                    if r.width < 64 && v >> r.width != 0 {
                        return Err(format!(
                            "{v:#x} does not fit the {}-bit register {}",
                            r.width, r.name
                        ));
                    }
                    Vec::new()
                }
                None => {
                    if r.fields.is_empty() {
                        return Err(format!(
                            "{} has no fields described: write a whole value with --raw ({}=VALUE)",
                            r.name, r.name
                        ));
                    }
                    check_fields(r, words)?
                }
            };
            let before = try_read(bus, r.address, r.width).map_err(fault)?;
            let word = whole.unwrap_or_else(|| build_word(r, &set, before));
            try_write(bus, r.address, r.width, word).map_err(fault)?;
            let after = try_read(bus, r.address, r.width).map_err(fault)?;
            let mut lines = vec![
                format!("{} ({}) @ {:#x} on {}", r.name, r.title, r.address, p.name),
                format!("  before {before:#x}"),
                format!(
                    "  write  {word:#x}{}",
                    if r.masked && whole.is_none() {
                        " (masked: bits 31:16 enable the fields set)"
                    } else {
                        ""
                    }
                ),
                format!("  after  {after:#x}"),
            ];
            lines.extend(field_diff(r, &set, before, after));
            for (f, v) in &set {
                let got = f.extract(after);
                let plain = matches!(f.access, AccessKind::Rw | AccessKind::RwDb);
                if plain && got != *v {
                    lines.push(format!(
                        "  note: {} reads back {} after writing {v:#x}",
                        f.name,
                        field_value(f, got)
                    ));
                }
            }
            Ok(lines)
        }
    }
}

impl Target {
    /// The project, or a usage error saying how to name it.
    fn project(&self) -> Result<&'static ProjectInfo, Fail> {
        if let Some(p) = self.project {
            return Ok(p);
        }
        if let Some(p) = find_project(&self.device) {
            return Err(Fail::usage(format!(
                "`{}` is a project, not a device: give the device (card0, 0000:00:02.0 or a BAR \
                 file) and --project {}",
                self.device, p.name
            )));
        }
        // A device that does not exist is said before asking for its project.
        let pci = live::pci_id(self)?;
        let row = pci
            .as_deref()
            .and_then(|id| u16::from_str_radix(id.trim_start_matches("0x"), 16).ok())
            .and_then(hal::device);
        if let Some(row) = row {
            // The device table (regdefs/devices.yaml) names the project.
            match row.project.and_then(find_project) {
                Some(p) => return Ok(p),
                None => {
                    return Err(Fail::usage(format!(
                        "{} is {row}: platform not described yet, so its registers are unknown \
                         to perfregs",
                        self.device
                    )))
                }
            }
        }
        let id = pci
            .map(|id| format!(" (its PCI device id is {id})"))
            .unwrap_or_default();
        Err(Fail::usage(format!(
            "which project is {}{id}? pass --project (one of: {})",
            self.device,
            hal::PROJECTS
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

/// Print `lines`, or the failure.
fn finish(result: Result<Vec<String>, Fail>) -> ExitCode {
    match result {
        Ok(lines) => {
            for l in lines {
                say!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(f) => f.exit(),
    }
}

impl ReadArgs {
    /// Run `reg read`.
    pub fn run(self) -> ExitCode {
        finish((|| {
            let p = self.target.project()?;
            let mut live = live::open(&self.target)?;
            let label = live.label().to_string();
            read_lines(live.bus(), p, &self.register, self.raw, &label).map_err(Fail::findings)
        })())
    }
}

impl WriteArgs {
    /// Run `reg write`.
    pub fn run(self) -> ExitCode {
        finish((|| {
            let p = self.target.project()?;
            for w in &self.fields {
                if !w.contains('=') {
                    return Err(Fail::usage(format!("`{w}` is not field=value")));
                }
            }
            let mut live = live::open(&self.target)?;
            let label = live.label().to_string();
            write_lines(
                live.bus(),
                p,
                &self.register,
                &self.fields,
                self.raw,
                &label,
            )
            .map_err(Fail::findings)
        })())
    }
}

impl DumpArgs {
    /// Run `reg dump`.
    pub fn run(self) -> ExitCode {
        let run = || -> Result<ExitCode, Fail> {
            let p = self.target.project()?;
            let regs = select(p, self.filter.as_deref()).map_err(Fail::findings)?;
            let mut live = live::open(&self.target)?;
            let label = live.label().to_string();
            let d = dump(live.bus(), &regs, &label);
            for l in &d.lines {
                say!("{l}");
            }
            say!(
                "{} register(s) read, {} skipped, {} fault(s) on {label} as {}",
                d.read,
                d.skipped,
                d.faults.len(),
                p.name
            );
            for f in &d.faults {
                eprintln!("perfregs: {f}");
            }
            Ok(if d.faults.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        };
        run().unwrap_or_else(Fail::exit)
    }
}

/// The device named on the command line, reached through its BAR.
#[cfg(target_os = "linux")]
mod live {
    use super::{find_project, Fail, Target};
    use perfregs_linux::bar::{Bar, Owner};
    use perfregs_linux::discovery::cards;
    use perfregs_linux::forcewake::ForcewakeHolder;
    use std::io;
    use std::path::{Path, PathBuf};

    /// The mapped BAR and the force-wake file held while it is used.
    pub(super) struct Live {
        bar: Bar,
        _forcewake: Option<ForcewakeHolder>,
        label: String,
    }

    impl Live {
        /// The bus.
        pub(super) fn bus(&mut self) -> &mut Bar {
            &mut self.bar
        }
        /// What the device is called in messages.
        pub(super) fn label(&self) -> &str {
            &self.label
        }
    }

    /// What the device argument names.
    enum Device {
        /// A DRM card: its PCI function's directory in sysfs.
        Card(PathBuf),
        /// A PCI function's directory in sysfs.
        Pci(PathBuf),
        /// A file to map.
        File(PathBuf),
    }

    fn is_pci_address(s: &str) -> bool {
        let b = s.as_bytes();
        let full = b.len() == 12
            && b[4] == b':'
            && b[7] == b':'
            && b[10] == b'.'
            && s.chars()
                .enumerate()
                .all(|(i, c)| matches!(i, 4 | 7 | 10) || c.is_ascii_hexdigit());
        full
    }

    /// The sysfs root of `t`.
    fn sys(t: &Target) -> PathBuf {
        t.sys.clone().unwrap_or_else(|| PathBuf::from("/sys"))
    }

    /// "no such card `s`" with the cards that exist under `sys`, worded as
    /// `record --device` words it.
    fn no_such_card(s: &str, sys: &Path) -> Fail {
        let names: Vec<String> = match cards(sys) {
            Ok(list) => list
                .into_iter()
                .map(|c| match c {
                    Ok(c) => c.name,
                    Err(e) => format!("(unreadable: {e})"),
                })
                .collect(),
            Err(e) => {
                return Fail::findings(format!(
                    "no such card `{s}`: the DRM devices cannot be listed ({e}); `perfregs \
                     devices` says what this machine has"
                ))
            }
        };
        Fail::findings(format!(
            "no such card `{s}` (cards here: {}); `perfregs devices` lists them",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ))
    }

    fn device(t: &Target) -> Result<Device, Fail> {
        let s = t.device.as_str();
        if s.contains('/') {
            return Ok(Device::File(PathBuf::from(s)));
        }
        let sys = sys(t);
        if let Some(n) = s.strip_prefix("card").and_then(|n| n.parse::<u32>().ok()) {
            let link = sys.join(format!("class/drm/card{n}/device"));
            let dir = link.canonicalize().map_err(|_| no_such_card(s, &sys))?;
            return Ok(Device::Card(dir));
        }
        let full = if is_pci_address(s) {
            s.to_string()
        } else {
            format!("0000:{s}")
        };
        if is_pci_address(&full) {
            let dir = sys.join("bus/pci/devices").join(&full);
            if !dir.is_dir() {
                return Err(Fail::findings(format!(
                    "{s}: no such PCI device ({} is missing); `lspci -D -d 8086:` lists Intel's",
                    dir.display()
                )));
            }
            return Ok(Device::Pci(dir));
        }
        if Path::new(s).is_file() {
            return Ok(Device::File(PathBuf::from(s)));
        }
        let hint = match find_project(s) {
            Some(p) => format!(
                "`{s}` is a project, not a device: give the device and --project {}",
                p.name
            ),
            None => format!("`{s}` is not a device"),
        };
        Err(Fail::usage(format!(
            "{hint} (a DRM card such as card0, a PCI address such as 0000:00:02.0, or a path to \
             a BAR file)"
        )))
    }

    /// The PCI device id of the device `t` names, when sysfs has it; an
    /// error when there is no such device.
    pub(super) fn pci_id(t: &Target) -> Result<Option<String>, Fail> {
        let dir = match device(t)? {
            Device::Card(dir) | Device::Pci(dir) => dir,
            Device::File(path) => match path.parent() {
                Some(dir) => dir.to_path_buf(),
                None => return Ok(None),
            },
        };
        Ok(std::fs::read_to_string(dir.join("device"))
            .ok()
            .map(|id| id.trim().to_string()))
    }

    /// The DRM minor and driver name of the PCI function at `dir`.
    fn card_of(dir: &Path) -> Option<(u32, String)> {
        let minor = std::fs::read_dir(dir.join("drm"))
            .ok()?
            .filter_map(|e| {
                e.ok()?
                    .file_name()
                    .to_str()?
                    .strip_prefix("card")?
                    .parse()
                    .ok()
            })
            .min()?;
        let driver = dir.join("driver").canonicalize().ok()?;
        Some((minor, driver.file_name()?.to_str()?.to_string()))
    }

    /// An `io::Error` of opening as a message, with what to do.
    pub(super) fn opening(e: &io::Error) -> Fail {
        let hint = match e.kind() {
            io::ErrorKind::PermissionDenied => "; run as root (sudo)",
            _ => "",
        };
        Fail::findings(format!("{e}{hint}"))
    }

    /// Refuse a PCI function at `dir` that is not Intel's: its registers
    /// are not the ones described.
    fn intel(dir: &Path, label: &str) -> Result<(), Fail> {
        match std::fs::read_to_string(dir.join("vendor")) {
            Ok(v) if v.trim() != "0x8086" => Err(Fail::findings(format!(
                "{label} is not an Intel device (PCI vendor {}): its registers are not described",
                v.trim()
            ))),
            _ => Ok(()),
        }
    }

    /// Map the device's BAR and hold its force-wake file.
    pub(super) fn open(t: &Target) -> Result<Live, Fail> {
        let dev = device(t)?;
        match &dev {
            Device::Card(dir) | Device::Pci(dir) => intel(dir, &t.device)?,
            Device::File(path) => {
                if let Some(dir) = path.parent().filter(|d| d.join("vendor").is_file()) {
                    intel(dir, &t.device)?;
                }
            }
        }
        let (bar, pci_dir) = match &dev {
            Device::Card(dir) | Device::Pci(dir) => {
                // As `Bar::open_pci`, on the function's directory under
                // the sysfs root.
                let owner = if dir.join("driver").exists() {
                    Owner::Kernel
                } else {
                    Owner::Hal
                };
                (
                    Bar::open(dir.join("resource0"), owner).map_err(|e| opening(&e))?,
                    Some(dir.clone()),
                )
            }
            Device::File(path) => {
                let parent = path.parent().map(Path::to_path_buf);
                let sysfs = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("resource"))
                    && parent.as_ref().is_some_and(|d| d.join("vendor").is_file());
                let owner = if sysfs && parent.as_ref().is_some_and(|d| d.join("driver").exists()) {
                    Owner::Kernel
                } else {
                    Owner::Hal
                };
                let bar = Bar::open(path, owner).map_err(|e| opening(&e))?;
                (bar, if sysfs { parent } else { None })
            }
        };
        let label = t.device.clone();
        let forcewake = if t.no_forcewake {
            if bar.owner() == Owner::Kernel {
                eprintln!(
                    "perfregs: warning: no force-wake held on {label}: registers of a sleeping \
                     power domain read 0 or stale values, writes to them are lost"
                );
            }
            None
        } else if let Some(path) = &t.forcewake {
            Some(ForcewakeHolder::open(path).map_err(|e| opening(&e))?)
        } else {
            let card = pci_dir.as_deref().and_then(card_of);
            match card {
                Some((minor, driver)) if driver == "i915" => {
                    Some(ForcewakeHolder::i915(minor).map_err(|e| opening(&e))?)
                }
                Some((minor, driver)) if driver == "xe" => {
                    Some(ForcewakeHolder::xe(minor).map_err(|e| opening(&e))?)
                }
                _ => {
                    return Err(Fail::usage(format!(
                        "{label}: no kernel force-wake file is known for it (no i915 or xe DRM \
                         card); pass --forcewake PATH or --no-forcewake"
                    )))
                }
            }
        };
        Ok(Live {
            bar,
            _forcewake: forcewake,
            label,
        })
    }
}

/// Off Linux: no BAR to map.
#[cfg(not(target_os = "linux"))]
mod live {
    use super::{Fail, Target};

    /// Never made off Linux.
    pub(super) enum Live {}

    impl Live {
        pub(super) fn bus(&mut self) -> &mut hal::SliceBus<'static> {
            match *self {}
        }
        pub(super) fn label(&self) -> &str {
            match *self {}
        }
    }

    pub(super) fn pci_id(_: &Target) -> Result<Option<String>, Fail> {
        Ok(None)
    }

    pub(super) fn open(_: &Target) -> Result<Live, Fail> {
        Err(Fail::findings(
            "`perfregs reg` maps a GPU's BAR through Linux sysfs: Linux only",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hal::prelude::Register;

    /// The metadata's keep mask is the typed HAL's `KEEP_MASK`.
    #[test]
    fn keep_mask_is_the_typed_one() {
        fn typed<R: Register>(_: R) -> u64 {
            R::KEEP_MASK
        }
        let p = find_project("tgl").unwrap();
        assert_eq!(
            keep_mask(p.register("OAG_OACONTROL").unwrap()),
            typed(hal::tgl::OAG_OACONTROL)
        );
        assert_eq!(
            keep_mask(p.register("OA_IMR").unwrap()),
            typed(hal::tgl::OA_IMR)
        );
        assert_eq!(
            keep_mask(p.register("CEC0_0").unwrap()),
            typed(hal::tgl::CEC0_0)
        );
        let h = find_project("hsw").unwrap();
        assert_eq!(
            keep_mask(h.register("OASTATUS2").unwrap()),
            typed(hal::hsw::OASTATUS2)
        );
    }

    #[test]
    fn words_keep_fields_and_masked_ones_enable() {
        let p = find_project("tgl").unwrap();
        let ctl = p.register("OAG_OACONTROL").unwrap();
        let f = check_fields(ctl, &["report_format=a12_b8_c8".into()]).unwrap();
        assert_eq!(build_word(ctl, &f, 0xFFFF_FFFF), 0x1 | (2 << 2));
        let dbg = p.register("OAG_OA_DEBUG").unwrap();
        let f = check_fields(dbg, &["include_clk_ratio=1".into()]).unwrap();
        assert_eq!(build_word(dbg, &f, 0x2), (1 << 6) << 16 | 1 << 6);
    }

    #[test]
    fn bit_lists_are_runs_highest_first() {
        assert_eq!(bit_list(0xF000_0002), "31:28, 1");
        assert_eq!(bit_list(1 << 63 | 1), "63, 0");
        assert_eq!(bit_list(0x6), "2:1");
        assert_eq!(bit_list(0), "");
    }

    #[test]
    fn a_diff_lists_changed_bits_no_field_covers() {
        let p = find_project("tgl").unwrap();
        let ctl = p.register("OAG_OACONTROL").unwrap();
        assert_eq!(uncovered(ctl) & 0x1F, 0x2);
        let lines = field_diff(ctl, &[], 0x8000_0002, 0);
        assert_eq!(
            lines,
            ["  reserved bits 31, 1 (no field covers them): 0x80000002 -> 0x0"]
        );
    }

    #[test]
    fn checks_refuse_what_the_typed_setters_cannot_do() {
        let p = find_project("tgl").unwrap();
        let ctl = p.register("OAG_OACONTROL").unwrap();
        let e = check_fields(ctl, &["counter_enable=2".into()]).unwrap_err();
        assert!(e.contains("does not fit its 1 bit(s)"), "{e}");
        let e = check_fields(ctl, &["report_fromat=1".into()]).unwrap_err();
        assert!(e.contains("did you mean report_format"), "{e}");
        let e = check_fields(ctl, &["report_format=a13".into()]).unwrap_err();
        assert!(e.contains("a12_b8_c8"), "{e}");
        let e =
            check_fields(ctl, &["counter_enable=1".into(), "counter_enable=0".into()]).unwrap_err();
        assert!(e.contains("set twice"), "{e}");
        let fuse = p.register("MIRROR_FUSE_DSS_ENABLE").unwrap();
        let e = check_fields(fuse, &["dss_enable=1".into()]).unwrap_err();
        assert_eq!(e, "MIRROR_FUSE_DSS_ENABLE.dss_enable is RO: not writable");
    }

    #[test]
    fn faults_name_the_address_and_the_os_error() {
        let f = BusFault::new::<Mmio>(0x2358, 32, false, hal::bus::FaultKind::Os(5));
        assert_eq!(
            fault_message(f, "card0"),
            "card0: mmio read32 at 0x2358 failed: operating-system error 5 (Input/output error \
             (os error 5))"
        );
        let f = BusFault::new::<Mmio>(0x1000000, 32, true, hal::bus::FaultKind::OutOfRange);
        assert_eq!(
            fault_message(f, "bar"),
            "bar: mmio write32 at 0x1000000 failed: address out of range (past the end of the \
             mapped BAR)"
        );
    }

    #[test]
    fn dump_filters_by_block_then_prefix() {
        let p = find_project("tgl").unwrap();
        let oag = select(p, Some("oag_")).unwrap();
        assert!(!oag.is_empty() && oag.iter().all(|r| r.name.starts_with("OAG_")));
        let block = select(p, Some("OA_TGL")).unwrap();
        assert!(block.iter().all(|r| r.block == "oa_tgl"));
        assert!(select(p, Some("nothing")).unwrap_err().contains("blocks: "));
    }
}

#[cfg(all(test, target_os = "linux"))]
mod live_tests {
    use super::live::opening;
    use std::io;

    #[test]
    fn permission_denied_says_to_run_as_root() {
        let e = io::Error::new(io::ErrorKind::PermissionDenied, "resource0: cannot open");
        assert_eq!(
            opening(&e).message,
            "resource0: cannot open; run as root (sudo)"
        );
        let e = io::Error::new(io::ErrorKind::NotFound, "gone");
        assert_eq!(opening(&e).message, "gone");
    }
}
