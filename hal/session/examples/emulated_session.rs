//! A session on the emulated GPU, end to end: choose a part, look a set up,
//! program it with the domains the catalogue says, sample the emulator in
//! the driver's format and cut the reports into intervals.
//!
//! `cargo run -p perfregs-session --example emulated_session -- [PROJECT [SET]]`
//! (default: tgl RenderBasic).

use perfregs_metrics::intervals::Window;
use std::num::NonZeroU32;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let project = args.next().unwrap_or_else(|| "tgl".to_string());
    let name = args.next().unwrap_or_else(|| "RenderBasic".to_string());

    let part = perfregs_session::part(&project, None)?;
    let set = perfregs_session::find_set(perfregs_session::sets(part)?, &name)?;
    let p = hal::project(part.project).ok_or("not a compiled project")?;
    let emu = perfregs_session::emulator(p, &part.device);
    let (_emu, writes) = perfregs_session::program(emu, part.project, set, &part.device)?;
    println!(
        "{part}: {} ({}) programs {writes} registers",
        set.symbol, set.name
    );

    let format = perfregs_session::stream_format(part.project).ok_or("no OA stream")?;
    let xe = format
        .xe(part.project)
        .map_or_else(|| "not offered by xe".to_string(), |v| format!("xe {v:#x}"));
    println!("format {} (i915 id {}, {xe})", format.name, format.id);

    let writes: Vec<(u64, u32)> = set
        .configs
        .iter()
        .filter(|b| b.is_available(&part.device))
        .flat_map(|b| b.writes.iter())
        .filter_map(|&(a, v)| u32::try_from(v).ok().map(|v| (a, v)))
        .collect();
    let run = perfregs_session::sample_emulated(part.project, &part.device, &writes, 16)?;
    if run.format != format.name {
        return Err(format!("the emulator sampled {}, not {}", run.format, format.name).into());
    }
    let mut acc = format.intervals(Window::Pairs(NonZeroU32::new(4).ok_or("zero")?));
    let mut intervals = Vec::new();
    for report in run.buffer.chunks(format.size) {
        intervals.extend(acc.push(report).ok_or("not a report")?);
    }
    intervals.extend(acc.finish());
    println!(
        "{} report pairs sampled, {} intervals of 4 pairs, {} emulator warnings",
        run.samples.len(),
        intervals.len(),
        run.warnings.len()
    );
    Ok(())
}
