//! Validation of opaque ranges: shape (name, MMIO, order, dword alignment),
//! no overlap with a register or another range of the same project, and one
//! wake target over the whole range.

use super::is_upper_snake;
use crate::diag::{Code, Diagnostics};
use crate::model::Space;
use crate::projects::{Catalogue, ProjectSet};
use crate::resolve::RBlock;
use crate::sections::{RMapRow, ROpaque};
use std::collections::HashMap;

/// Largest array expanded when looking for registers inside a range (as
/// the array checks: larger counts are reported there).
const MAX_ELEMENTS: u32 = 4096;

/// The byte span `[lo, hi]` of every register element on every project.
fn register_spans(blocks: &[RBlock]) -> Vec<(usize, Space, u64, u64, String)> {
    let mut out = Vec::new();
    for b in blocks {
        for r in &b.registers {
            let (Some(projects), Some(addrs), Some(width)) = (r.projects, &r.address, r.width)
            else {
                continue;
            };
            let (max, stride) = r.array.unwrap_or((1, 0));
            for n in 0..max.min(MAX_ELEMENTS) {
                for (set, base, _) in addrs {
                    for p in set
                        .iter()
                        .filter(|&p| projects.contains(p) && n < r.count_on(p))
                    {
                        let lo = base.wrapping_add(u64::from(n).wrapping_mul(stride));
                        let hi = lo.saturating_add(u64::from(width / 8) - 1);
                        out.push((p, b.space, lo, hi, r.name.replace("{n}", &n.to_string())));
                    }
                }
            }
        }
    }
    out
}

/// A range that is well formed on its own: `start <= end`, both dword aligned.
fn well_formed(o: &ROpaque) -> bool {
    o.start <= o.end && o.start % 4 == 0 && o.end % 4 == 3
}

/// Shape, overlaps and wake targets of every opaque range.
pub(super) fn opaque_ranges(blocks: &[RBlock], cat: &Catalogue, d: &mut Diagnostics) {
    let regs = register_spans(blocks);
    let mut rows: HashMap<usize, Vec<&RMapRow>> = HashMap::new();
    for b in blocks {
        for r in &b.sections.rows {
            for p in r.projects.iter() {
                rows.entry(p).or_default().push(r);
            }
        }
    }
    // Ranges seen so far: (block index, range) for overlap and name checks.
    let mut seen: Vec<(&RBlock, &ROpaque)> = Vec::new();
    for b in blocks {
        let s = &b.source;
        for o in &b.sections.opaque {
            let item = o.name.as_str();
            // A diagnostic at key `key` of this range.
            let at_key = |code, key: &str, message| {
                s.diag(code, &format!("{}/{key}", o.path), item, message)
            };
            if !is_upper_snake(item) || item.contains("{n}") {
                d.push(at_key(
                    Code::BadName,
                    "name",
                    "opaque range name must be UPPER_SNAKE_CASE".into(),
                ));
            }
            if b.space != Space::Mmio {
                d.push(s.diag(
                    Code::Shape,
                    &o.path,
                    item,
                    format!(
                        "opaque ranges are MMIO ranges; this file's space is `{}`",
                        b.space.as_str()
                    ),
                ));
                continue;
            }
            if o.start > o.end {
                d.push(at_key(
                    Code::MapRow,
                    "end",
                    format!("end {:#x} is below start {:#x}", o.end, o.start),
                ));
            }
            if o.start % 4 != 0 {
                d.push(at_key(
                    Code::Misaligned,
                    "start",
                    format!("start {:#x} is not dword aligned", o.start),
                ));
            }
            if o.end % 4 != 3 {
                d.push(at_key(Code::Misaligned, "end", format!(
                        "end {:#x} is not the last byte of a dword (an inclusive end ends in 3, 7, B or F)",
                        o.end
                    ),
                ));
            }
            if !well_formed(o) {
                continue;
            }
            let at = format!("{}/start", o.path);
            // Registers inside the range, one diagnostic per register name.
            let mut hits: Vec<(String, ProjectSet, u64)> = Vec::new();
            for (p, space, lo, hi, name) in &regs {
                if *space != b.space || !o.projects.contains(*p) || *hi < o.start || o.end < *lo {
                    continue;
                }
                match hits.iter_mut().find(|h| &h.0 == name) {
                    Some(h) => h.1 = h.1.union(ProjectSet(1 << p)),
                    None => hits.push((name.clone(), ProjectSet(1 << p), *lo)),
                }
            }
            for (name, on, lo) in hits {
                d.push(s.diag(
                    Code::AddressClash,
                    &at,
                    item,
                    format!(
                        "{:#x}..={:#x} holds register `{name}` ({lo:#x}) on {}",
                        o.start,
                        o.end,
                        cat.names(on)
                    ),
                ));
            }
            for (ob, other) in &seen {
                let common = o.projects.intersect(other.projects);
                if common.is_empty() || ob.space != b.space {
                    continue;
                }
                if other.name == o.name {
                    d.push(at_key(
                        Code::DuplicateName,
                        "name",
                        format!(
                            "opaque range `{}` is already defined for {}",
                            o.name,
                            cat.names(common)
                        ),
                    ));
                }
                if other.start <= o.end && o.start <= other.end {
                    d.push(s.diag(
                        Code::AddressClash,
                        &at,
                        item,
                        format!(
                            "{:#x}..={:#x} overlaps opaque range `{}` ({:#x}..={:#x}) on {}",
                            o.start,
                            o.end,
                            other.name,
                            other.start,
                            other.end,
                            cat.names(common)
                        ),
                    ));
                }
            }
            seen.push((b, o));
            for p in o.projects.iter() {
                let Some(map) = rows.get(&p) else { continue };
                let mut hit: Vec<&&RMapRow> = map
                    .iter()
                    .filter(|x| x.start <= o.end && o.start <= x.end)
                    .collect();
                hit.sort_by_key(|x| x.start);
                let project = &cat.projects[p].name;
                if let Some(x) = hit.iter().find(|x| x.wake.is_empty()) {
                    d.push(s.diag(
                        Code::ReservedRange,
                        &at,
                        item,
                        format!(
                            "on {project} the range meets the reserved row {:#x}..{:#x} (no wake target)",
                            x.start, x.end
                        ),
                    ));
                    break;
                }
                let same = hit
                    .windows(2)
                    .all(|w| (&w[0].wake, &w[0].group) == (&w[1].wake, &w[1].group));
                let covered = hit.first().is_some_and(|f| f.start <= o.start)
                    && hit.last().is_some_and(|l| l.end >= o.end)
                    && hit
                        .windows(2)
                        .all(|w| w[0].end.checked_add(1) == Some(w[1].start));
                if !(hit.is_empty() || same && covered) {
                    d.push(s.diag(
                        Code::Straddle,
                        &at,
                        item,
                        format!(
                            "on {project} {:#x}..={:#x} spans address-map rows with different targets (or leaves the map); split the range",
                            o.start, o.end
                        ),
                    ));
                    break;
                }
            }
        }
    }
}
