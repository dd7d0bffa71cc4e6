//! Wake-and-program, and sampling the emulated GPU.

use crate::Error;
use hal::ReportFormat;
use hal::meta::ProjectInfo;
use hal::oa_buffer::{ReportDelta, reports_between};
use perfregs_metrics::SetInfo;
use perfregs_types::{DeviceInfo, Sample};

/// The compiled projects with an OA unit (`hal::for_each_oa_project!`):
/// those [`program`] and [`sample_emulated`] run on.
///
/// ```
/// assert!(perfregs_session::oa_projects().contains(&"tgl"));
/// ```
pub fn oa_projects() -> &'static [&'static str] {
    macro_rules! names {
        (() $({ name: $m:ident, $($rest:tt)* }),*) => {
            &[$(stringify!($m)),*]
        };
    }
    hal::for_each_oa_project!(names!())
}

/// The emulated GPU of `p` with the (dual) subslices of `device` present
/// (`Sku::for_part`) and an OA unit whose GPU clock is the part's
/// (`OaConfig::for_part`: its maximum frequency in whole clocks a tick).
pub fn emulator(p: &'static ProjectInfo, device: &DeviceInfo) -> perfregs_emu::Emulator {
    perfregs_emu::Emulator::builder(p, perfregs_emu::Sku::for_part(p, device))
        .with::<perfregs_emu::OaUnit>(perfregs_emu::OaConfig::for_part(device))
        .build()
}

/// Write `set`'s programming on `bus` (a GPU of `project`) through the
/// typed, checked path (the blocks available on `d`), with the domains the
/// catalogue says its programming needs awake (`oa: wake:`), woken in order
/// and released in reverse: the bus back and the number of writes.
///
/// ```
/// let part = perfregs_session::part("tgl", None)?;
/// let set = perfregs_session::find_set(perfregs_session::sets(part)?, "RenderBasic")?;
/// let emu = perfregs_session::emulator(&hal::tgl::PROJECT, &part.device);
/// let (_emu, writes) = perfregs_session::program(emu, "tgl", set, &part.device)?;
/// assert!(writes > 0);
/// # Ok::<(), perfregs_session::Error>(())
/// ```
pub fn program<B: hal::Bus<hal::Mmio>>(
    bus: B,
    project: &str,
    set: &SetInfo,
    d: &DeviceInfo,
) -> Result<(B, usize), Error> {
    use hal::config::AwakeAny;
    use hal::{Device, Unbranded};
    use perfregs_metrics::rt::program as write;
    let fail = |e: &dyn core::fmt::Display| Error::Program {
        set: set.symbol.to_string(),
        why: e.to_string(),
    };
    macro_rules! program_awake {
        ($part:ty; $($domain:ty),*) => {{
            let gpu = Device::<$part, _>::new(bus);
            let n = {
                let awake: &[&dyn AwakeAny<Unbranded>] =
                    &[$(&gpu.forcewake::<$domain>().map_err(|e| fail(&e))?),*];
                write(&gpu, set, d, awake).map_err(|e| fail(&e))?
            };
            (n, gpu.into_bus())
        }};
    }
    macro_rules! arms {
        (() $({ name: $m:ident, ty: $t:ident, wake: [$($d:ident),*], $($rest:tt)* }),*) => {
            match project {
                $(stringify!($m) => program_awake!(hal::$t; $(hal::$m::domains::$d),*),)*
                other => return Err(Error::NoOaPath(other.to_string())),
            }
        };
    }
    let (n, back) = hal::for_each_oa_project!(arms!());
    Ok((back, n))
}

/// GGTT address of the OA buffer (16 MiB aligned, as HSW requires).
const BASE: u64 = 0x0100_0000;
/// OA buffer size (16 MiB).
const BUFFER_SIZE: u64 = 16 << 20;
/// Timer exponent: a report every 2^(p+1) = 1024 timestamp ticks.
const PERIOD_EXPONENT: u64 = 9;
/// Timestamp ticks between the reports of [`sample_emulated`].
pub const SAMPLE_PERIOD: u64 = 1 << (PERIOD_EXPONENT + 1);

/// What a run on the emulator produced.
#[derive(Debug, Clone)]
pub struct Emulated {
    /// The report layout sampled.
    pub format: &'static str,
    /// The samples, one per report pair.
    pub samples: Vec<Sample>,
    /// The emulator's warnings.
    pub warnings: Vec<String>,
    /// The OA buffer from its base to the tail.
    pub buffer: Vec<u8>,
}

/// Write `writes` (a set's programming) on the emulated GPU of `project`
/// with the domains its programming needs awake (held while it runs: the
/// catalogue's `oa: wake:`), sample its largest layout (`oa: sample:`)
/// periodically as a driver does, and decode `pairs` report pairs.
///
/// ```
/// let (d, _) = perfregs_session::emulated_device("hsw", None).expect("an HSW part");
/// let run = perfregs_session::sample_emulated("hsw", &d, &[], 4)?;
/// assert_eq!(run.samples.len(), 4);
/// # Ok::<(), perfregs_session::Error>(())
/// ```
pub fn sample_emulated(
    project: &str,
    device: &DeviceInfo,
    writes: &[(u64, u32)],
    pairs: usize,
) -> Result<Emulated, Error> {
    sample_emulated_with(
        project,
        device,
        writes,
        pairs,
        &perfregs_emu::Workload::new(),
    )
}

/// [`sample_emulated`] with the A counters counting `workload` (a lowered
/// [`crate::workload`]) while it runs.
///
/// ```
/// let (d, _) = perfregs_session::emulated_device("tgl", None).expect("a TGL part");
/// let w = perfregs_emu::Workload::new().rate(0, 5);
/// let run = perfregs_session::sample_emulated_with("tgl", &d, &[], 2, &w)?;
/// assert_eq!(run.samples[0].a[0], Some(5 * perfregs_session::SAMPLE_PERIOD));
/// # Ok::<(), perfregs_session::Error>(())
/// ```
pub fn sample_emulated_with(
    project: &str,
    device: &DeviceInfo,
    writes: &[(u64, u32)],
    pairs: usize,
    workload: &perfregs_emu::Workload,
) -> Result<Emulated, Error> {
    use hal::config::AwakeAny;
    use hal::{Device, Unbranded};
    let wake = |e: hal::WakeError| Error::Emulator(e.to_string());
    macro_rules! arms {
        (() $({ name: $m:ident, ty: $t:ident, wake: [$($d:ident),*], sample: $s:ident, $($rest:tt)* }),*) => {
            match project {
                $(stringify!($m) => {
                    let mut emu = emulator(&hal::$m::PROJECT, device);
                    emu.unit_mut::<perfregs_emu::OaUnit>().set_workload(workload.clone());
                    let gpu = Device::<hal::$t, _>::new(emu);
                    let awake: &[&dyn AwakeAny<Unbranded>] = &[$(
                        &gpu.forcewake::<hal::$m::domains::$d>().map_err(wake)?
                    ),*];
                    let result = gpu.with_bus(|e| {
                        sample_emulator::<hal::$m::reports::$s>(e, writes, pairs)
                    });
                    // The guards are held until the run is sampled.
                    let _ = awake;
                    result
                })*
                other => Err(Error::NoOaPath(other.to_string())),
            }
        };
    }
    hal::for_each_oa_project!(arms!())
}

/// Ticks to run for `pairs` report pairs (the first report comes within one
/// period of the enable), plus a margin.
fn run_ticks(pairs: usize) -> u64 {
    (pairs as u64 + 2) * SAMPLE_PERIOD
}

fn warnings(e: &perfregs_emu::Emulator) -> Vec<String> {
    let mut w: Vec<String> = e.warnings().iter().map(ToString::to_string).collect();
    let dropped = e.counts().warnings_dropped;
    if dropped > 0 {
        w.push(format!("({dropped} more warnings dropped)"));
    }
    w
}

/// The samples of the consecutive report pairs of `buf` (head 0, tail at its
/// end), at most `pairs` of them.
fn samples<F: ReportFormat>(buf: &[u8], pairs: usize) -> Vec<Sample> {
    let reports: Vec<_> = reports_between::<F>(buf, 0, buf.len())
        .take(pairs.saturating_add(1))
        .collect();
    reports
        .windows(2)
        .map(|w| Sample::from_delta(&ReportDelta::between(&w[0].view(), &w[1].view())))
        .collect()
}

/// Write the programming, start periodic sampling of format `F` as a driver
/// does (`start_periodic` of the OA unit), run, and decode the buffer.
fn sample_emulator<F: ReportFormat>(
    e: &mut perfregs_emu::Emulator,
    program: &[(u64, u32)],
    pairs: usize,
) -> Result<Emulated, Error> {
    program.iter().for_each(|&(a, v)| e.write32(a, v));
    e.unit_mut::<perfregs_emu::OaUnit>()
        .start_periodic(BASE, BUFFER_SIZE, PERIOD_EXPONENT, F::INFO.select)
        .map_err(|x| Error::Emulator(x.to_string()))?;
    e.advance(run_ticks(pairs));
    let reports = e
        .unit::<perfregs_emu::OaUnit>()
        .stats()
        .map_or(0, |s| s.timer_reports + s.context_reports);
    let used = usize::try_from(reports)
        .ok()
        .and_then(|n| n.checked_mul(F::INFO.size))
        .filter(|&n| n as u64 <= BUFFER_SIZE)
        .ok_or_else(|| Error::Emulator("the run filled the OA buffer".to_string()))?;
    let buf = e.gpu_mem().read(BASE, used);
    Ok(Emulated {
        format: F::INFO.name,
        samples: samples::<F>(&buf, pairs),
        warnings: warnings(e),
        buffer: buf,
    })
}
