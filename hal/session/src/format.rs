//! The driver's format for a set: the typed report layouts of a project
//! with their i915 numbers and Xe `OA_FORMAT` values, and the intervals of
//! a stream of one layout.

use hal::report::{Report, ReportFormat};
use perfregs_metrics::Reads;
use perfregs_metrics::intervals::{Interval, Intervals, Window};

/// Reports of one format in, intervals out: [`Intervals`] behind a trait,
/// so the format can be chosen at run time (from a recording's header).
pub trait Accumulate {
    /// Take one report (`None`: it is not one report of the format;
    /// `Some(Some(_))`: an interval ended).
    fn push(&mut self, report: &[u8]) -> Option<Option<Interval>>;
    /// An `OA_REPORT_LOST`.
    fn report_lost(&mut self);
    /// An `OA_BUFFER_LOST`.
    fn buffer_lost(&mut self);
    /// The last, partial interval.
    fn finish(&mut self) -> Option<Interval>;
    /// A report's timestamp as drivers read it (low 32 bits; `None`: not
    /// one report of the format, or a format without a timestamp).
    fn timestamp(&self, report: &[u8]) -> Option<u64>;
}

struct Acc<F>(Intervals<F>);

impl<F: ReportFormat> Accumulate for Acc<F> {
    fn push(&mut self, report: &[u8]) -> Option<Option<Interval>> {
        if report.len() != F::INFO.size {
            return None;
        }
        Report::<F>::new(report).map(|r| self.0.push(&r))
    }
    fn report_lost(&mut self) {
        self.0.report_lost();
    }
    fn buffer_lost(&mut self) {
        self.0.buffer_lost();
    }
    fn finish(&mut self) -> Option<Interval> {
        self.0.finish()
    }
    fn timestamp(&self, report: &[u8]) -> Option<u64> {
        if report.len() != F::INFO.size {
            return None;
        }
        Report::<F>::new(report).and_then(|r| hal::oa_buffer::timestamp32(&r))
    }
}

/// A typed report layout of a project with its i915 number.
#[derive(Clone, Copy)]
pub struct Format {
    /// `I915_OA_FORMAT_*`.
    pub id: u32,
    /// The layout's name (`A32u40_A4u32_B8_C8`).
    pub name: &'static str,
    /// Report size in bytes.
    pub size: usize,
    make: fn(Window, Option<Reads>) -> Box<dyn Accumulate>,
}

impl core::fmt::Debug for Format {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Format")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl Format {
    /// An accumulator of reports of this layout into intervals of `window`.
    ///
    /// ```
    /// use perfregs_metrics::intervals::Window;
    /// let f = perfregs_session::stream_format("tgl").expect("a TGL format");
    /// let mut acc = f.intervals(Window::Pairs(core::num::NonZeroU32::MIN));
    /// assert!(acc.push(&[0; 3]).is_none(), "not a report of the layout");
    /// assert!(acc.finish().is_none());
    /// ```
    pub fn intervals(&self, window: Window) -> Box<dyn Accumulate> {
        (self.make)(window, None)
    }

    /// [`intervals`](Self::intervals) that accumulate only the counters in
    /// `reads` (`Intervals::reading`: the chosen counters'
    /// `perfregs_metrics::reads_of`), each pair costing what they read;
    /// `None`: every counter.
    ///
    /// ```
    /// use perfregs_metrics::intervals::Window;
    /// let f = perfregs_session::stream_format("tgl").expect("a TGL format");
    /// let part = perfregs_session::part("tgl", None)?;
    /// let set = perfregs_session::find_set(perfregs_session::sets(part)?, "RenderBasic")?;
    /// let chosen = perfregs_session::choose_counters(set.counters, "GpuBusy")?;
    /// let reads = perfregs_metrics::reads_of(chosen.iter().copied());
    /// let mut acc = f.intervals_reading(Window::Pairs(core::num::NonZeroU32::MIN), Some(reads));
    /// assert!(acc.finish().is_none(), "no report yet");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn intervals_reading(&self, window: Window, reads: Option<Reads>) -> Box<dyn Accumulate> {
        (self.make)(window, reads)
    }

    /// The Xe `OA_FORMAT` value of this layout on `project`
    /// ([`xe_format`]).
    pub fn xe(&self, project: &str) -> Option<u64> {
        xe_format(project, self.name)
    }
}

fn typed<F: ReportFormat>(id: u32) -> Format {
    Format {
        id,
        name: F::INFO.name,
        size: F::INFO.size,
        make: |w, reads| {
            let i = Intervals::new(w);
            Box::new(Acc::<F>(match reads {
                Some(r) => i.reading(r),
                None => i,
            }))
        },
    }
}

/// The typed formats of `project` that i915 streams give (the catalogue's
/// `oa: formats:` with an `i915:` number): HSW 1 to 7, Gen8+ 7 to 10.
/// Empty for a project without an OA stream.
///
/// ```
/// let ids: Vec<u32> = perfregs_session::formats("hsw").iter().map(|f| f.id).collect();
/// assert!(ids.contains(&1));
/// assert!(perfregs_session::formats("snb").is_empty());
/// ```
pub fn formats(project: &str) -> Vec<Format> {
    macro_rules! arms {
        (() $({ name: $m:ident, ty: $t:ident, wake: [$($d:ident),*], sample: $s:ident, i915: [$(($id:literal, $f:ident)),*], layouts: [$($l:ident),*] }),*) => {
            match project {
                $(stringify!($m) => vec![$(typed::<hal::$m::reports::$f>($id)),*],)*
                _ => Vec::new(),
            }
        };
    }
    hal::for_each_oa_project!(arms!())
}

/// Every typed layout a driver numbers on `project` (the catalogue's `oa:
/// formats:`, i915's or xe's), with its i915 number (0 where i915 has
/// none: the xe-only parts and formats).
///
/// ```
/// let names: Vec<&str> = perfregs_session::layouts("tgl").iter().map(|f| f.name).collect();
/// assert!(names.contains(&"A32U40_A4U32_B8_C8"));
/// ```
pub fn layouts(project: &str) -> Vec<Format> {
    macro_rules! arms {
        (() $({ name: $m:ident, ty: $t:ident, wake: [$($d:ident),*], sample: $s:ident, i915: [$($i:tt)*], layouts: [$($l:ident),*] }),*) => {
            match project {
                $(stringify!($m) => vec![$(typed::<hal::$m::reports::$l>(0)),*],)*
                _ => Vec::new(),
            }
        };
    }
    let i915 = formats(project);
    hal::for_each_oa_project!(arms!())
        .into_iter()
        .map(|f| {
            let id = i915.iter().find(|x| x.name == f.name).map_or(0, |x| x.id);
            Format { id, ..f }
        })
        .collect()
}

/// The typed layout `name` (case-insensitive) of `project`.
pub fn layout(project: &str, name: &str) -> Option<Format> {
    layouts(project)
        .into_iter()
        .find(|f| f.name.eq_ignore_ascii_case(name))
}

/// The format a recording takes: the largest typed format i915 numbers
/// (HSW A45_B8_C8, Gen8+ A32u40_A4u32_B8_C8), as IGT's recorder picks; on
/// a part only xe drives, the layout the catalogue samples (LNL's
/// PEC64U64).
///
/// ```
/// assert_eq!(perfregs_session::stream_format("hsw").map(|f| f.name), Some("A45_B8_C8"));
/// ```
pub fn stream_format(project: &str) -> Option<Format> {
    formats(project)
        .into_iter()
        .max_by_key(|f| (f.size, f.id))
        .or_else(|| {
            let sample = hal::project(project)?.gpu?.oa?.sample.name;
            layout(project, sample)
        })
}

/// The Xe `OA_FORMAT` property of a layout of `project` (format type |
/// counter select << 8 | counter size << 16 | bc report << 24), from the
/// catalogue's `oa: formats:` `xe:` tuples (the kernel's `xe_oa.c`
/// `oa_formats[]`); `None` for a part or layout the xe driver does not offer.
///
/// ```
/// assert_eq!(perfregs_session::xe_format("tgl", "A32u40_A4u32_B8_C8"), Some(0x500));
/// assert_eq!(perfregs_session::xe_format("bdw", "A32u40_A4u32_B8_C8"), None);
/// ```
pub fn xe_format(project: &str, layout: &str) -> Option<u64> {
    hal::project(project)?.gpu?.oa?.format(layout)?.xe
}

/// Whether the xe driver runs `project` (the catalogue's `drivers:`).
pub fn runs_under_xe(project: &str) -> bool {
    hal::project(project)
        .and_then(|p| p.gpu)
        .is_some_and(|g| g.runs_under(hal::meta::Driver::Xe))
}

/// The xe format types a media unit (kind `oam`, `oam_sag`) writes:
/// `DRM_XE_OA_FMT_TYPE_OAM` 2 and `OAM_MPEC` 4 (xe_drm.h); every other
/// type (OAG 0, OAR 1, OAC 3, PEC 5) is the render unit's.
const MEDIA_TYPES: [u64; 2] = [2, 4];

/// Whether `unit` (one of the catalogue's `oa: units:` of `project`) writes
/// reports of layout `name`: by the layout's xe format type, media types on
/// the media units and the others on the render unit; a layout xe does not
/// number is the render unit's (i915's one OA unit before Gen12).
pub fn unit_takes(project: &str, unit: &hal::meta::OaUnitInfo, name: &str) -> bool {
    let media = matches!(unit.kind, "oam" | "oam_sag");
    let ty = hal::project(project)
        .and_then(|p| p.gpu?.oa?.format(name)?.xe)
        .map(|x| x & 0xff);
    match ty {
        Some(t) => MEDIA_TYPES.contains(&t) == media,
        None => !media,
    }
}
