//! The GPU facts of the catalogue (`gpu:` of a project in `projects.yaml`):
//! graphics IP version, drivers, OA units, report formats per driver,
//! topology numbering and GT parts, checked against the lowered
//! descriptions of the same project.
//!
//! Assumes: the descriptions lowered without a problem (the formats, power
//! domains and registers a fact names are looked up in the [`Ir`]). Checks:
//! every name a fact uses exists on its project (a format, a power domain, a
//! register), drivers and Xe format types are known ones, a driver's format
//! numbers are unique, parts have distinct chipsets and GT numbers and
//! consistent masks (PR134). What it returns is total: [`GpuIr`] holds
//! indices into the IR, so emission looks nothing up.
//!
//! [`claim_metric_files`] then gives each part its metric files: every
//! `metricsets/*.xml` of the description folder is claimed by the part whose
//! `chipset` it names; a file no part claims is an error (PR210), never a
//! silent skip.

use crate::diag::{Code, Diagnostic, Diagnostics, Pos};
use crate::ir::{DriverFormatIr, GpuIr, Ir, OaIr, OaUnitIr, PartIr};
use crate::load::SourceFile;
use crate::model::{CatalogueFile, GpuDef};
use std::path::Path;

/// The kernel drivers a project may name, in `drivers:` order of preference.
pub const DRIVERS: &[&str] = &["i915", "xe"];

/// Engine classes an OA unit may observe (`engines:`), as xe's
/// `DRM_XE_ENGINE_CLASS_*` name them: RENDER, COPY, VIDEO_DECODE,
/// VIDEO_ENHANCE, COMPUTE.
pub const ENGINE_CLASSES: &[&str] = &["render", "copy", "video", "video_enhance", "compute"];

/// Xe's OA format types (`enum drm_xe_oa_format_type` in `xe_drm.h`), by value.
pub const XE_FORMAT_TYPES: &[&str] = &["oag", "oar", "oam", "oac", "oam_mpec", "pec"];

/// Whether the descriptions compiled beside catalogue `file` are a whole
/// set its GPU facts can be checked against: they describe a report format
/// of some project with `oa:` facts. A few files with the shipped catalogue
/// (a test fixture, one file given to `perfregs check`) describe none, and
/// their IR carries no GPU facts.
pub fn whole(file: &CatalogueFile, ir: &Ir) -> bool {
    file.families
        .iter()
        .flat_map(|f| &f.projects)
        .filter(|p| p.gpu.as_ref().is_some_and(|g| g.oa.is_some()))
        .filter_map(|p| ir.catalogue.find(&p.name))
        .any(|pi| ir.formats.iter().any(|f| f.project == pi))
}

/// Check the `gpu:` facts of every project of `file` (the catalogue, read
/// from `src`) against `ir`; problems go to `diags`, and a project with one
/// gets no [`GpuIr`] (so the run fails anyway).
pub fn validate(
    file: &CatalogueFile,
    src: &SourceFile,
    ir: &Ir,
    diags: &mut Diagnostics,
) -> Vec<GpuIr> {
    let mut out = Vec::new();
    let mut chipsets: Vec<(String, String)> = Vec::new();
    for (fi, fam) in file.families.iter().enumerate() {
        for (pi, p) in fam.projects.iter().enumerate() {
            let Some(g) = &p.gpu else { continue };
            let Some(project) = ir.catalogue.find(&p.name) else {
                continue; // reported by the catalogue itself
            };
            let at = format!("families/{fi}/projects/{pi}/gpu");
            let mut problems: Vec<(String, String)> = Vec::new();
            let gpu = check_one(g, project, ir, &mut chipsets, &p.name, &mut problems);
            if problems.is_empty() {
                out.extend(gpu);
            }
            for (path, message) in problems {
                let path = if path.is_empty() {
                    at.clone()
                } else {
                    format!("{at}/{path}")
                };
                diags.push(src.diag(Code::BadGpuFact, &path, &p.name, message));
            }
        }
    }
    out
}

/// One project's facts; problems as (path below `gpu/`, message).
fn check_one(
    g: &GpuDef,
    project: usize,
    ir: &Ir,
    chipsets: &mut Vec<(String, String)>,
    name: &str,
    problems: &mut Vec<(String, String)>,
) -> Option<GpuIr> {
    let mut bad = |path: &str, message: String| problems.push((path.to_string(), message));
    let graphics = g
        .graphics
        .split_once('.')
        .and_then(|(a, b)| Some((a.parse::<u8>().ok()?, b.parse::<u8>().ok()?)));
    if graphics.is_none() {
        bad(
            "graphics",
            format!(
                "graphics IP version `{}` must be `major.minor` (`12.10`)",
                g.graphics
            ),
        );
    }
    if g.drivers.is_empty() {
        bad(
            "drivers",
            "no driver: name the kernel drivers that run it (`[i915]`)".into(),
        );
    }
    for (k, d) in g.drivers.iter().enumerate() {
        if !DRIVERS.contains(&d.as_str()) {
            bad(
                &format!("drivers/{k}"),
                format!("unknown driver `{d}` (known: {})", DRIVERS.join(", ")),
            );
        } else if g.drivers[..k].contains(d) {
            bad(
                &format!("drivers/{k}"),
                format!("driver `{d}` listed twice"),
            );
        }
    }
    if !matches!(g.topology.subslices_per_slice, 1..=32) {
        bad(
            "topology/subslices_per_slice",
            format!(
                "{} bits a slice: between 1 and 32",
                g.topology.subslices_per_slice
            ),
        );
    }
    let format_of = |layout: &str| {
        ir.formats
            .iter()
            .position(|f| f.project == project && f.name.eq_ignore_ascii_case(layout))
    };
    let formats_known = || {
        ir.formats
            .iter()
            .filter(|f| f.project == project)
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut oa = None;
    if let Some(o) = &g.oa {
        let mut units = Vec::new();
        if o.units.is_empty() {
            bad("oa/units", "no OA unit".into());
        }
        for (k, u) in o.units.iter().enumerate() {
            let reg = ir
                .registers
                .iter()
                .filter(|r| r.name == u.control)
                .flat_map(|r| &r.instances)
                .find(|i| i.project == project)
                .map(|i| i.address);
            match reg {
                Some(base) => units.push(OaUnitIr {
                    name: u.name.clone(),
                    kind: u.kind.clone(),
                    control: u.control.clone(),
                    base,
                    engines: u.engines.clone(),
                }),
                None => bad(
                    &format!("oa/units/{k}/control"),
                    format!("`{}` is not a register of {name}", u.control),
                ),
            }
            for (e, engine) in u.engines.iter().enumerate() {
                let (class, instance) = engine.split_once(':').unwrap_or((engine.as_str(), "0"));
                if !ENGINE_CLASSES.contains(&class) || instance.parse::<u16>().is_err() {
                    bad(
                        &format!("oa/units/{k}/engines/{e}"),
                        format!(
                            "engine `{engine}`: `class` or `class:instance`, class one of {}",
                            ENGINE_CLASSES.join(", ")
                        ),
                    );
                }
            }
            if o.units[..k].iter().any(|v| v.name == u.name) {
                bad(
                    &format!("oa/units/{k}/name"),
                    format!("OA unit `{}` listed twice", u.name),
                );
            }
        }
        let mut wake = Vec::new();
        for (k, w) in o.wake.iter().enumerate() {
            match ir
                .domains
                .iter()
                .position(|d| d.project == project && d.name == *w)
            {
                Some(d) if !wake.contains(&d) => wake.push(d),
                Some(_) => bad(
                    &format!("oa/wake/{k}"),
                    format!("domain `{w}` listed twice"),
                ),
                None => {
                    let known: Vec<&str> = ir
                        .domains
                        .iter()
                        .filter(|d| d.project == project)
                        .map(|d| d.name.as_str())
                        .collect();
                    bad(
                        &format!("oa/wake/{k}"),
                        format!(
                            "`{w}` is not a power domain of {name} (known: {})",
                            known.join(", ")
                        ),
                    )
                }
            }
        }
        let sample = format_of(&o.sample);
        if sample.is_none() {
            bad(
                "oa/sample",
                format!(
                    "`{}` is not a report format of {name} (known: {})",
                    o.sample,
                    formats_known()
                ),
            );
        }
        let mut formats = Vec::new();
        for (k, f) in o.formats.iter().enumerate() {
            let Some(format) = format_of(&f.layout) else {
                bad(
                    &format!("oa/formats/{k}/layout"),
                    format!(
                        "`{}` is not a report format of {name} (known: {})",
                        f.layout,
                        formats_known()
                    ),
                );
                continue;
            };
            if f.i915.is_none() && f.xe.is_none() {
                bad(
                    &format!("oa/formats/{k}"),
                    format!("`{}` gives no driver's number (`i915:`, `xe:`)", f.layout),
                );
            }
            for (driver, given) in [("i915", f.i915.is_some()), ("xe", f.xe.is_some())] {
                if given && !g.drivers.iter().any(|d| d == driver) {
                    bad(
                        &format!("oa/formats/{k}/{driver}"),
                        format!("a {driver} number, but {driver} is not among `drivers:`"),
                    );
                }
            }
            let xe = match &f.xe {
                None => None,
                Some(x) => match XE_FORMAT_TYPES.iter().position(|t| *t == x.kind) {
                    Some(t) => Some(
                        t as u64
                            | u64::from(x.select) << 8
                            | u64::from(x.counter_size) << 16
                            | u64::from(x.bc_report) << 24,
                    ),
                    None => {
                        bad(
                            &format!("oa/formats/{k}/xe/type"),
                            format!(
                                "unknown Xe format type `{}` (known: {})",
                                x.kind,
                                XE_FORMAT_TYPES.join(", ")
                            ),
                        );
                        None
                    }
                },
            };
            let earlier: &[DriverFormatIr] = &formats;
            if f.i915.is_some() && earlier.iter().any(|e| e.i915 == f.i915) {
                bad(
                    &format!("oa/formats/{k}/i915"),
                    format!("i915 format {} given twice", f.i915.unwrap_or_default()),
                );
            }
            if xe.is_some() && earlier.iter().any(|e| e.xe == xe) {
                bad(
                    &format!("oa/formats/{k}/xe"),
                    "the same Xe format tuple given twice".into(),
                );
            }
            if earlier.iter().any(|e| e.format == format) {
                bad(
                    &format!("oa/formats/{k}/layout"),
                    format!("`{}` listed twice", f.layout),
                );
            }
            formats.push(DriverFormatIr {
                format,
                i915: f.i915,
                xe,
            });
        }
        if let Some(sample) = sample {
            oa = Some(OaIr {
                units,
                wake,
                sample,
                formats,
            });
        }
    }
    let mut parts = Vec::new();
    for (k, p) in g.parts.iter().enumerate() {
        let at = format!("parts/{k}");
        let upper = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        };
        if !upper(&p.chipset) {
            bad(
                &format!("{at}/chipset"),
                format!(
                    "chipset `{}` must be upper-case letters and digits, as the metric files' `chipset` (`TGLGT2`)",
                    p.chipset
                ),
            );
        }
        if let Some((_, other)) = chipsets.iter().find(|(c, _)| *c == p.chipset) {
            bad(
                &format!("{at}/chipset"),
                format!("chipset `{}` is a part of {other} already", p.chipset),
            );
        }
        chipsets.push((p.chipset.clone(), name.to_string()));
        if p.gt == 0 {
            bad(&format!("{at}/gt"), "GT 0: GT variants count from 1".into());
        }
        if g.parts[..k].iter().any(|q| q.gt == p.gt) {
            bad(
                &format!("{at}/gt"),
                format!("two parts of {name} are GT{}", p.gt),
            );
        }
        if p.slice_mask == 0 || p.subslice_mask == 0 || p.eus == 0 || p.threads == 0 {
            bad(
                &at,
                "a part has at least one slice, subslice, EU and thread".into(),
            );
        }
        if g.topology.dual_subslices != (p.dual_subslice_mask != 0) {
            bad(
                &format!("{at}/dual_subslice_mask"),
                if g.topology.dual_subslices {
                    "the project numbers dual subslices: give `dual_subslice_mask`".into()
                } else {
                    "`dual_subslice_mask` on a project without dual subslices".into()
                },
            );
        }
        let (min, max) = (p.mhz[0], p.mhz[1]);
        if min == 0 || min > max {
            bad(
                &format!("{at}/mhz"),
                format!("frequencies [{min}, {max}] MHz: lowest first, not 0"),
            );
        }
        if p.timestamp_hz == 0 {
            bad(
                &format!("{at}/timestamp_hz"),
                "timestamp frequency 0".into(),
            );
        }
        for (key, v) in p.unit_counts() {
            if v == Some(0) {
                bad(
                    &format!("{at}/{key}"),
                    format!("`{key}: 0`: give the count, or leave the key out where no source gives it (unknown: the device value is then 0)"),
                );
            }
        }
        let counted = if g.topology.dual_subslices {
            p.dual_subslice_mask
        } else {
            p.subslice_mask
        };
        parts.push(PartIr {
            chipset: p.chipset.clone(),
            gt: p.gt,
            device: perfregs_types::DeviceInfo {
                eu_cores_total_count: p.eus,
                eu_slices_total_count: u64::from(p.slice_mask.count_ones()),
                eu_subslices_total_count: u64::from(counted.count_ones()),
                eu_threads_count: p.threads,
                slice_mask: p.slice_mask,
                subslice_mask: p.subslice_mask,
                dual_subslice_mask: p.dual_subslice_mask,
                gpu_max_frequency: max.saturating_mul(1_000_000),
                gpu_min_frequency: min.saturating_mul(1_000_000),
                gpu_timestamp_frequency: p.timestamp_hz,
                query_mode: 0,
                sku_revision_id: p.revision,
                l3_bank_total_count: p.l3_banks.unwrap_or(0),
                sqidi_total_count: p.sqidis.unwrap_or(0),
                l3_node_total_count: p.l3_nodes.unwrap_or(0),
                geometry_pipe_total_count: p.geometry_pipes.unwrap_or(0),
                depth_pipe_total_count: p.depth_pipes.unwrap_or(0),
                color_pipe_total_count: p.color_pipes.unwrap_or(0),
                subslices_per_slice: u64::from(g.topology.subslices_per_slice),
            },
            note: p.note.clone(),
            metric_files: Vec::new(),
        });
    }
    let (major, minor) = graphics?;
    Some(GpuIr {
        project,
        graphics: (major, minor),
        drivers: g.drivers.clone(),
        subslices_per_slice: g.topology.subslices_per_slice,
        dual_subslices: g.topology.dual_subslices,
        oa,
        parts,
    })
}

/// The `chipset` attribute of a metric-set file's first `<set>` (IGT's
/// files give every set the same one), with its position.
pub fn chipset_of(text: &str) -> Option<(String, Pos)> {
    let start = text.find("<set")?;
    let at = start + text[start..].find("chipset=\"")? + "chipset=\"".len();
    let end = at + text[at..].find('"')?;
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    Some((text[at..end].to_string(), Pos { line, column }))
}

/// Give each part of `ir` the metric files `files` ((name relative to the
/// description folder, text), e.g. `metricsets/oa-tglgt2.xml`) whose
/// chipset is the part's. A file without a chipset, or whose chipset no
/// part claims, is an error at its `chipset` (PR210).
pub fn claim_metric_files(ir: &mut Ir, files: &[(String, String)]) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for (name, text) in files {
        let Some((chipset, pos)) = chipset_of(text) else {
            errors.push(Diagnostic {
                code: Code::UnclaimedMetricFile,
                file: name.clone(),
                pos: Pos { line: 1, column: 1 },
                item: String::new(),
                message: "no `<set chipset=\"...\">`: a metric file names the part it is for"
                    .into(),
            });
            continue;
        };
        let part = ir
            .gpus
            .iter_mut()
            .flat_map(|g| g.parts.iter_mut())
            .find(|p| p.chipset == chipset);
        match part {
            Some(p) => p.metric_files.push(name.clone()),
            None => {
                let known: Vec<&str> = ir
                    .gpus
                    .iter()
                    .flat_map(|g| g.parts.iter().map(|p| p.chipset.as_str()))
                    .collect();
                errors.push(Diagnostic {
                    code: Code::UnclaimedMetricFile,
                    file: name.clone(),
                    pos,
                    item: chipset.clone(),
                    message: format!(
                        "no part of the catalogue has chipset `{chipset}` (parts: {}); add the part to its project's `gpu: parts:` in projects.yaml",
                        known.join(", ")
                    ),
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The metric-set files of a description folder (`<dir>/metricsets/*.xml`),
/// sorted by name, as (name relative to `dir`, the text's head: enough to
/// hold its first set's `chipset`, the whole text where the head does not);
/// none when the folder has no `metricsets/`. Reading heads keeps every build
/// script from reading all the files (16 MB shipped) to claim them.
pub fn metric_files(dir: &Path) -> std::io::Result<Vec<(String, String)>> {
    let sets = dir.join("metricsets");
    if !sets.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for e in std::fs::read_dir(&sets)? {
        let path = e?.path();
        if path.extension().and_then(|x| x.to_str()) != Some("xml") {
            continue;
        }
        let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        out.push((format!("metricsets/{file}"), head(&path)?));
    }
    out.sort();
    Ok(out)
}

/// The first 64 KiB of `path` (cut at a character boundary) when they hold
/// a chipset, else the whole text.
fn head(path: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    const HEAD: u64 = 64 * 1024;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(HEAD)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 == HEAD {
        let cut = match std::str::from_utf8(&bytes) {
            Ok(_) => bytes.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => 0,
        };
        bytes.truncate(cut);
        if let Ok(text) = String::from_utf8(bytes) {
            if chipset_of(&text).is_some() {
                return Ok(text);
            }
        }
    } else if let Ok(text) = String::from_utf8(bytes) {
        return Ok(text);
    }
    std::fs::read_to_string(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chipset_past_the_head_is_found_in_the_whole_text() {
        let dir = std::env::temp_dir().join(format!("perfregs-head-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("metricsets")).expect("scratch folder");
        // A comment longer than the head, with the two-byte `é` across the
        // 64 KiB cut in the late file.
        let pad = format!("<!--{}{}-->", "x".repeat(65_523), "é".repeat(2_000));
        let late = format!("<?xml?>\n{pad}\n<metrics>\n  <set chipset=\"TGLGT2\">\n");
        assert!(!late.is_char_boundary(64 * 1024));
        std::fs::write(dir.join("metricsets/late.xml"), &late).expect("write");
        std::fs::write(
            dir.join("metricsets/early.xml"),
            format!("<metrics>\n  <set chipset=\"SKLGT2\">\n{pad}"),
        )
        .expect("write");
        let files = metric_files(&dir).expect("read");
        let _ = std::fs::remove_dir_all(&dir);
        let chipsets: Vec<_> = files
            .iter()
            .map(|(n, t)| (n.as_str(), chipset_of(t).map(|(c, p)| (c, p.line))))
            .collect();
        assert_eq!(
            chipsets,
            [
                ("metricsets/early.xml", Some(("SKLGT2".to_string(), 2))),
                ("metricsets/late.xml", Some(("TGLGT2".to_string(), 4))),
            ]
        );
        // The head of the early file, the whole of the late one.
        assert!(files[0].1.len() <= 64 * 1024);
        assert_eq!(files[1].1, late);
    }

    #[test]
    fn chipset_is_found_with_its_position() {
        let text = "<?xml?>\n<metrics>\n  <set name=\"x\" chipset=\"TGLGT2\">\n";
        let (c, pos) = chipset_of(text).expect("a chipset");
        assert_eq!(c, "TGLGT2");
        assert_eq!(
            pos,
            Pos {
                line: 3,
                column: 26
            }
        );
        assert_eq!(chipset_of("<metrics/>"), None);
    }
}
