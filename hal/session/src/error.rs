//! The error of a session.

use crate::set::SetNotFound;

/// What went wrong in a session step.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A GT the project has no part for (`gts`: the GTs it has, maybe none).
    NoPart {
        /// The project.
        project: String,
        /// The GT asked for.
        gt: u8,
        /// The GTs the project has.
        gts: Vec<u8>,
    },
    /// A project without a part (no shipped metric file, no preset).
    NoParts(String),
    /// A part without shipped metric sets.
    NoSets(String),
    /// No metric set of that name.
    NoSet(SetNotFound),
    /// A project without an emulated or typed OA path.
    NoOaPath(String),
    /// Waking, checking or writing a set's programming failed.
    Program {
        /// The set.
        set: String,
        /// Why.
        why: String,
    },
    /// The emulator could not run the stream.
    Emulator(String),
}

impl Error {
    /// Whether the caller's input is at fault (a command line's usage error)
    /// rather than the device or the catalogue.
    pub fn is_usage(&self) -> bool {
        matches!(self, Error::NoPart { .. } | Error::NoSet(_))
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::NoPart { project, gt, gts } if gts.is_empty() => write!(
                f,
                "--gt {gt}: {project} has no shipped metric file and no preset, so no GT to choose"
            ),
            Error::NoPart { project, gt, gts } => write!(
                f,
                "--gt {gt}: {project} has no GT{gt} metric file (its parts: {}; --gt N picks one)",
                gts.iter()
                    .map(|g| format!("GT{g}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Error::NoParts(p) => write!(f, "{p}: no part to emulate"),
            Error::NoSets(part) => write!(f, "no metric sets for {part}"),
            Error::NoSet(e) => e.fmt(f),
            Error::NoOaPath(p) => write!(f, "no emulated OA path for {p}"),
            Error::Program { set, why } => write!(f, "programming {set}: {why}"),
            Error::Emulator(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Error {}

impl From<SetNotFound> for Error {
    fn from(e: SetNotFound) -> Self {
        Error::NoSet(e)
    }
}
