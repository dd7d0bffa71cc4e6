//! perfregs sessions: what a tool does between "this project" and "these
//! counters", behind one typed API (the `perfregs` command is clap and
//! printing over it).
//!
//! - [`part`]: a project and an optional GT to the catalogue's part
//!   ([`hal::meta::PartInfo`]), GT2 by default where a project has several.
//! - [`find_set`] (and [`find_name`] for sets read at run time): one rule
//!   to look a metric set up by name.
//! - [`program`]: write a set's programming on a device with the domains
//!   the catalogue says it needs awake (`oa: wake:`).
//! - [`Format`], [`formats`], [`stream_format`], [`xe_format`]: the driver's
//!   number for a report layout.
//! - [`sample_emulated`]: program and sample the emulated GPU;
//!   [`Format::intervals`]: cut reports into intervals of counters.
//! - [`record`]: the record loop, an OA stream (a device's, or the emulated
//!   kernel's in emulated time) written to an IGT-format recording until a
//!   stop; [`read_recording`]: a recording's report intervals.
//! - [`workload`]: what the emulated GPU does: a named or file workload,
//!   written per event kind and lowered to A-counter rates with the data of
//!   `regdefs/workloads/counters.yaml`.
//!
//! ```
//! let part = perfregs_session::part("tgl", None)?;
//! assert_eq!(part.gt, 2);
//! let set = perfregs_session::find_set(perfregs_session::sets(part)?, "renderbasic")?;
//! assert_eq!(set.symbol, "RenderBasic");
//! # Ok::<(), perfregs_session::Error>(())
//! ```

mod counters;
mod error;
mod format;
mod part;
mod program;
pub mod record;
mod recording;
mod set;
pub mod workload;

pub use counters::{CounterNotFound, choose_counters, choose_names};
pub use error::Error;
pub use format::{
    Accumulate, Format, formats, layout, layouts, runs_under_xe, stream_format, unit_takes,
    xe_format,
};
pub use part::{DEFAULT_GT, choose_gt, emulated_device, file_gt, part, part_gts, xe_projects};
pub use program::{
    Emulated, SAMPLE_PERIOD, emulator, oa_projects, program, sample_emulated, sample_emulated_with,
};
pub use recording::{Recording, read_recording};
pub use set::{SetNotFound, close_names, find_name, find_set, sets, sets_of};
