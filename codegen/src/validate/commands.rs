//! Validation of GPU command layouts: a dword on each project, project
//! subsets, fields inside their dword without overlaps, constants that fit
//! their field. The command's name (its case, one per project) is checked
//! with the other section names (`sections::names`).

use super::is_snake;
use crate::diag::{Code, Diagnostics};
use crate::projects::{Catalogue, ProjectSet};
use crate::resolve::RBlock;

/// Every check of every command.
pub(super) fn commands(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    for b in blocks {
        let s = &b.source;
        for c in &b.sections.commands {
            let name = c.name.as_str();
            for p in c.projects.iter() {
                if !c.dwords.iter().any(|w| w.projects.contains(p)) {
                    d.push(s.diag(
                        Code::Shape,
                        &format!("{}/dwords", c.path),
                        name,
                        format!("the command has no dword on {}", cat.projects[p].name),
                    ));
                }
            }
            // Field names are unique in the command (on a shared project).
            let all: Vec<_> = c.dwords.iter().flat_map(|w| &w.fields).collect();
            for (i, f) in all.iter().enumerate() {
                let earlier = all[..i]
                    .iter()
                    .find(|g| g.name == f.name && !g.projects.intersect(f.projects).is_empty());
                if let Some(g) = earlier {
                    d.push(s.diag(
                        Code::DuplicateField,
                        &format!("{}/name", f.path),
                        &format!("{name}.{}", f.name),
                        format!(
                            "field `{}` is already in the command on {}",
                            f.name,
                            cat.names(g.projects.intersect(f.projects))
                        ),
                    ));
                }
            }
            for w in &c.dwords {
                let extra = ProjectSet(w.projects.0 & !c.projects.0);
                if !extra.is_empty() {
                    d.push(s.diag(
                        Code::FieldProjectsNotSubset,
                        &format!("{}/projects", w.path),
                        name,
                        format!(
                            "the dword names {}, where the command does not exist",
                            cat.names(extra)
                        ),
                    ));
                }
                for (i, f) in w.fields.iter().enumerate() {
                    let item = format!("{name}.{}", f.name);
                    // A diagnostic at key `key` of this field.
                    let at = |code, key: &str, message| {
                        s.diag(code, &format!("{}/{key}", f.path), &item, message)
                    };
                    if !is_snake(&f.name) {
                        d.push(at(
                            Code::BadName,
                            "name",
                            "command field name must be snake_case and not a Rust keyword".into(),
                        ));
                    }
                    let extra = ProjectSet(f.projects.0 & !w.projects.0);
                    if !extra.is_empty() {
                        d.push(at(
                            Code::FieldProjectsNotSubset,
                            "projects",
                            format!(
                                "the field names {}, where its dword does not exist",
                                cat.names(extra)
                            ),
                        ));
                    }
                    let Some((msb, lsb)) = f.bits else { continue };
                    if msb > 31 {
                        d.push(at(
                            Code::FieldOutsideRegister,
                            "bits",
                            format!("bits {msb}:{lsb} lie outside the 32-bit dword"),
                        ));
                        continue;
                    }
                    let width = msb - lsb + 1;
                    for (set, v, vpath) in f.value.iter().flatten() {
                        if width < 64 && *v >> width != 0 {
                            d.push(s.diag(
                                Code::EnumValueTooWide,
                                vpath,
                                &item,
                                format!(
                                    "value {v:#x} on {} does not fit bits {msb}:{lsb}",
                                    cat.names(*set)
                                ),
                            ));
                        }
                    }
                    let mask = |m: u32, l: u32| ((1u64 << (m - l + 1)) - 1) << l;
                    for g in &w.fields[..i] {
                        let Some((m2, l2)) = g.bits.filter(|b| b.0 <= 31) else {
                            continue;
                        };
                        let common = f.projects.intersect(g.projects);
                        if common.is_empty() {
                            continue;
                        }
                        if mask(msb, lsb) & mask(m2, l2) != 0 {
                            d.push(at(
                                Code::OverlappingFields,
                                "bits",
                                format!(
                                    "bits {msb}:{lsb} overlap field `{}` ({m2}:{l2}) on {}",
                                    g.name,
                                    cat.names(common)
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
}
