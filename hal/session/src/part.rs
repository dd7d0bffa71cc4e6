//! Part choice: a project and an optional GT to the catalogue's part.

use crate::Error;
use hal::meta::PartInfo;
use perfregs_types::DeviceInfo;

/// The part taken on a project with several (tgl GT1/GT2, skl GT2/GT3/GT4,
/// kbl and cfl GT2/GT3) when no GT is named.
pub const DEFAULT_GT: u8 = 2;

/// The GT of shipped metric file `file` of `project`: the catalogue part
/// that claims it.
pub fn file_gt(file: &str, project: &str) -> Option<u8> {
    hal::PARTS
        .iter()
        .find(|p| p.project == project && p.metric_files.contains(&file))
        .map(|p| p.gt)
}

/// The GTs `project` has a part for: those of its shipped metric files
/// (`perfregs_metrics::FILES`), else those of its catalogue parts; sorted.
///
/// ```
/// assert_eq!(perfregs_session::part_gts("skl"), [2, 3, 4]);
/// assert!(perfregs_session::part_gts("snb").is_empty());
/// ```
pub fn part_gts(project: &str) -> Vec<u8> {
    let mut gts: Vec<u8> = perfregs_metrics::FILES
        .iter()
        .filter(|(_, p, _)| *p == project)
        .filter_map(|(f, p, _)| file_gt(f, p))
        .collect();
    if gts.is_empty() {
        gts = hal::PARTS
            .iter()
            .filter(|p| p.project == project)
            .map(|p| p.gt)
            .collect();
    }
    gts.sort_unstable();
    gts.dedup();
    gts
}

/// The GT of `project` that `gt` names, else its default: GT2 on a project
/// with several parts, the only one on a project with one, `None` on a
/// project with none. A GT the project has no part for is
/// [`Error::NoPart`], which names the GTs it has.
///
/// ```
/// use perfregs_session::choose_gt;
/// assert_eq!(choose_gt("tgl", None), Ok(Some(2)));
/// assert_eq!(choose_gt("rkl", None), Ok(Some(1)));
/// let e = choose_gt("skl", Some(1)).unwrap_err();
/// assert!(e.to_string().contains("its parts: GT2, GT3, GT4"));
/// ```
pub fn choose_gt(project: &str, gt: Option<u8>) -> Result<Option<u8>, Error> {
    let gts = part_gts(project);
    match gt {
        Some(g) if gts.contains(&g) => Ok(Some(g)),
        Some(g) => Err(Error::NoPart {
            project: project.to_string(),
            gt: g,
            gts,
        }),
        None if gts.len() > 1 => Ok(Some(if gts.contains(&DEFAULT_GT) {
            DEFAULT_GT
        } else {
            gts[0]
        })),
        None => Ok(gts.first().copied()),
    }
}

/// The catalogue part (`hal::PARTS`) of `project` that `gt` names, else
/// its default part ([`choose_gt`]).
///
/// ```
/// let p = perfregs_session::part("skl", Some(3))?;
/// assert_eq!(p.to_string(), "skl GT3");
/// assert!(perfregs_session::part("skl", Some(1)).is_err());
/// # Ok::<(), perfregs_session::Error>(())
/// ```
pub fn part(project: &str, gt: Option<u8>) -> Result<&'static PartInfo, Error> {
    let g = choose_gt(project, gt)?.ok_or_else(|| Error::NoParts(project.to_string()))?;
    hal::part(project, g).ok_or_else(|| Error::NoPart {
        project: project.to_string(),
        gt: g,
        gts: Vec::new(),
    })
}

/// The emulated part of `project` as the metric sets' device values (the
/// part `gt` names; without one, the default part's, else the project's
/// first) and its GPU clock in Hz. `None` for a project without a part.
///
/// ```
/// let (d, clock) = perfregs_session::emulated_device("tgl", None).expect("a TGL part");
/// assert!(clock >= d.gpu_timestamp_frequency);
/// // Inside the part's frequency range.
/// assert!((d.gpu_min_frequency..=d.gpu_max_frequency).contains(&clock));
/// ```
pub fn emulated_device(project: &str, gt: Option<u8>) -> Option<(DeviceInfo, u64)> {
    let d = match gt {
        Some(g) => hal::part(project, g)?.device,
        None => hal::part_or_first(project, Some(DEFAULT_GT))?.device,
    };
    let clocks = perfregs_emu::OaConfig::for_part(&d).gpu_clocks_per_tick;
    Some((d, d.gpu_timestamp_frequency * clocks))
}

/// The compiled projects the xe driver runs (the catalogue's `drivers:`),
/// comma-separated.
pub fn xe_projects() -> String {
    hal::PROJECTS
        .iter()
        .filter(|p| crate::format::runs_under_xe(p.name))
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    /// Every emulated part's GPU clock lies inside its frequency range, in
    /// whole clocks a timestamp tick.
    #[test]
    fn every_emulated_part_clocks_inside_its_range() {
        for p in hal::PARTS {
            let Some((d, hz)) = super::emulated_device(p.project, Some(p.gt)) else {
                continue;
            };
            assert_eq!(hz % d.gpu_timestamp_frequency, 0, "{p}");
            assert!(
                (d.gpu_min_frequency..=d.gpu_max_frequency).contains(&hz),
                "{p}: {hz} Hz outside {}..={}",
                d.gpu_min_frequency,
                d.gpu_max_frequency
            );
        }
    }
}
