//! Pass between resolving and validating, for a user's descriptions
//! compiled against the built-in ones (`regdefs!`): restrict the built-in
//! (external) items to the projects the user's items are on.
//!
//! Assumes: the built-in blocks were validated whole when the HAL was built
//! (they are the same files), and every check pairs items on one project
//! (a name, an address, a domain, a register a section names: each on
//! project `p`). So an external item's projects outside the user's can
//! neither clash with a user item nor serve one, and restricting every set
//! of every external item (nested ones included) to the user's projects
//! keeps each kept check's partners: an item kept on `p` still finds the
//! items on `p` it refers to. Items left on no project are dropped.
//!
//! Gives: the same diagnostics and the same IR for the user's items, with
//! validation and lowering no longer spending most of their time on
//! built-in projects the user does not name.

use crate::projects::ProjectSet;
use crate::resolve::RBlock;

/// Restrict the external blocks of `blocks` to the projects of the others.
pub(crate) fn restrict_external(blocks: &mut Vec<RBlock>) {
    let mut user = ProjectSet::EMPTY;
    for b in blocks.iter().filter(|b| !b.source.external) {
        user = user.union(projects_of(b));
    }
    for b in blocks.iter_mut().filter(|b| b.source.external) {
        restrict_block(b, user);
    }
    blocks.retain(|b| !b.source.external || !projects_of(b).is_empty());
}

/// Every project some item of `b` is on.
fn projects_of(b: &RBlock) -> ProjectSet {
    let s = &b.sections;
    let sets = (b.registers.iter().filter_map(|r| r.projects))
        .chain(b.events.iter().filter_map(|e| e.projects))
        .chain(s.domains.iter().map(|x| x.projects))
        .chain(s.groups.iter().map(|x| x.projects))
        .chain(s.rows.iter().map(|x| x.projects))
        .chain(s.formats.iter().map(|x| x.projects))
        .chain(s.tables.iter().map(|x| x.projects))
        .chain(s.steering.iter().map(|x| x.projects))
        .chain(s.opaque.iter().map(|x| x.projects))
        .chain(s.commands.iter().map(|x| x.projects));
    sets.fold(ProjectSet::EMPTY, ProjectSet::union)
}

/// `set` restricted to `to`: whether anything is left.
fn keep(set: &mut ProjectSet, to: ProjectSet) -> bool {
    *set = set.intersect(to);
    !set.is_empty()
}

/// Keep an unresolved set (`None`, reported when the block was first
/// checked; never in a built-in block) as it is.
fn keep_opt(set: &mut Option<ProjectSet>, to: ProjectSet) -> bool {
    set.as_mut().is_none_or(|s| keep(s, to))
}

/// Per-project values (`address`, `reset`, a command field's `value`).
fn keep_values<T>(rows: &[(ProjectSet, u64, T)], to: ProjectSet) -> Vec<(ProjectSet, u64, T)>
where
    T: Clone,
{
    rows.iter()
        .filter(|r| !r.0.intersect(to).is_empty())
        .map(|(set, v, t)| (set.intersect(to), *v, t.clone()))
        .collect()
}

fn restrict_block(b: &mut RBlock, to: ProjectSet) {
    b.registers.retain_mut(|r| {
        if !keep_opt(&mut r.projects, to) {
            return false;
        }
        if let Some(a) = &mut r.address {
            *a = keep_values(a, to);
        }
        if let Some(v) = &mut r.reset {
            *v = keep_values(v, to);
        }
        r.array_counts.retain_mut(|(set, _)| keep(set, to));
        r.fields.retain_mut(|f| keep_opt(&mut f.projects, to));
        true
    });
    b.events.retain_mut(|e| keep_opt(&mut e.projects, to));
    let s = &mut b.sections;
    s.domains.retain_mut(|x| keep(&mut x.projects, to));
    s.groups.retain_mut(|x| keep(&mut x.projects, to));
    s.rows.retain_mut(|x| keep(&mut x.projects, to));
    s.formats.retain_mut(|x| keep(&mut x.projects, to));
    s.tables.retain_mut(|x| keep(&mut x.projects, to));
    s.steering.retain_mut(|x| keep(&mut x.projects, to));
    s.opaque.retain_mut(|x| keep(&mut x.projects, to));
    s.commands.retain_mut(|c| {
        if !keep(&mut c.projects, to) {
            return false;
        }
        c.dwords.retain_mut(|d| {
            if !keep(&mut d.projects, to) {
                return false;
            }
            d.fields.retain_mut(|f| {
                if let Some(v) = &mut f.value {
                    *v = keep_values(v, to);
                }
                keep(&mut f.projects, to)
            });
            true
        });
        true
    });
}
