//! The PCI device table (`devices.yaml`, top-level `devices:`): which
//! platform, GT variant and project each Intel GPU PCI device id is.
//!
//! `validate` checks every device file against the catalogue and reports
//! located problems: an unknown project tag (PR102), a platform or macro name
//! of the wrong form (PR121), an id listed twice, in one file or across files
//! (PR132), an id above 0xFFFF, GT 0 or a group without ids (PR133), an empty
//! `source:` (PR003). What it returns is checked: `lower` (total) sorts it
//! into [`DeviceIr`] rows by ascending id, and `emit` writes them as one
//! static slice of small structs (`DEVICES`) with a binary-search lookup.

use crate::diag::{Code, Diagnostics, Pos};
use crate::ir::DeviceIr;
use crate::load::{Document, Loaded};
use crate::projects::Catalogue;
use std::collections::HashMap;

/// `SKL`, `ADL-P`, `DG2-G10`, `I965GM`: upper-case letters and digits, words joined by `-`.
fn is_platform_name(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        })
}

fn is_macro_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Check every device file of `loaded`; problems go to `diags` (and the
/// rows they concern are left out, so the run fails anyway).
pub fn validate(loaded: &[Loaded], cat: &Catalogue, diags: &mut Diagnostics) -> Vec<DeviceIr> {
    let mut out = Vec::new();
    // id -> (file, position, platform, macro) of its first listing.
    let mut seen: HashMap<u16, (String, Pos, String, String)> = HashMap::new();
    for l in loaded {
        let Document::Devices(file) = &l.doc else {
            continue;
        };
        let src = &l.source;
        let table = &file.devices;
        if table.source.trim().is_empty() {
            diags.push(src.diag(
                Code::Shape,
                "devices/source",
                "",
                "empty `source:`: name the kernel file and macros the ids come from".into(),
            ));
        }
        for (gi, g) in table.platforms.iter().enumerate() {
            let at = format!("devices/platforms/{gi}");
            // The group's problems (field, code, message), in order.
            let mut problems: Vec<(&str, Code, String)> = Vec::new();
            if !is_platform_name(&g.platform) {
                problems.push((
                    "platform",
                    Code::BadName,
                    format!(
                        "platform name `{}` must be upper-case letters and digits, words joined by `-` (`SKL`, `ADL-P`)",
                        g.platform
                    ),
                ));
            }
            if !is_macro_name(&g.macro_name) {
                problems.push((
                    "macro",
                    Code::BadName,
                    format!(
                        "macro name `{}` must be UPPER_SNAKE_CASE (`INTEL_SKL_GT2_IDS`)",
                        g.macro_name
                    ),
                ));
            }
            let project = match &g.project {
                None => None,
                Some(tag) => match cat.find(tag) {
                    Some(i) => cat.projects.get(i).map(|p| p.name.clone()),
                    None => {
                        let known: Vec<&str> = cat.tags().collect();
                        problems.push((
                            "project",
                            Code::UnknownProject,
                            format!(
                                "unknown project `{tag}` (known: {}); leave `project` out for a platform the descriptions do not cover",
                                known.join(", ")
                            ),
                        ));
                        None
                    }
                },
            };
            if g.gt == Some(0) {
                problems.push((
                    "gt",
                    Code::BadDeviceId,
                    "GT variant 0: GT variants count from 1 (leave `gt` out when the macro names none)"
                        .into(),
                ));
            }
            if g.ids.is_empty() {
                problems.push((
                    "ids",
                    Code::BadDeviceId,
                    format!("`{}` lists no PCI device id", g.macro_name),
                ));
            }
            let ok = problems.is_empty();
            for (field, code, message) in problems {
                diags.push(src.diag(code, &format!("{at}/{field}"), &g.platform, message));
            }
            for (ii, &raw) in g.ids.iter().enumerate() {
                let path = format!("{at}/ids/{ii}");
                let Ok(id) = u16::try_from(raw) else {
                    diags.push(src.diag(
                        Code::BadDeviceId,
                        &path,
                        &g.platform,
                        format!("PCI device id {raw:#x} does not fit 16 bits (at most 0xffff)"),
                    ));
                    continue;
                };
                let pos = src.index.node(&path);
                if let Some((file0, pos0, platform0, macro0)) = seen.get(&id) {
                    diags.push(src.diag(
                        Code::DuplicateDeviceId,
                        &path,
                        &format!("{id:#06x}"),
                        format!(
                            "PCI device id {id:#06x} is listed twice: first as {platform0} (`{macro0}`) at {file0}:{}:{}",
                            pos0.line, pos0.column
                        ),
                    ));
                    continue;
                }
                seen.insert(
                    id,
                    (
                        src.name.clone(),
                        pos,
                        g.platform.clone(),
                        g.macro_name.clone(),
                    ),
                );
                if ok {
                    out.push(DeviceIr {
                        pci_id: id,
                        platform: g.platform.clone(),
                        gt: g.gt,
                        project: project.clone(),
                        macro_name: g.macro_name.clone(),
                        source: table.source.trim().to_string(),
                        external: src.external,
                    });
                }
            }
        }
    }
    out
}

/// Lower checked devices into IR rows, by ascending id (total).
pub fn lower(mut devices: Vec<DeviceIr>) -> Vec<DeviceIr> {
    devices.sort_by_key(|r| r.pci_id);
    devices
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["SKL", "ADL-P", "DG2-G10", "I965GM", "ATS-M150"] {
            assert!(is_platform_name(ok), "{ok}");
        }
        for bad in ["", "skl", "ADL-", "-P", "ADL--P", "1SKL", "ADL P"] {
            assert!(!is_platform_name(bad), "{bad}");
        }
        assert!(is_macro_name("INTEL_SKL_GT2_IDS"));
        assert!(!is_macro_name("intel_skl"));
        assert!(!is_macro_name(""));
    }
}
