//! The project catalogue and project expressions (`hsw`, `hsw+`, `snb..ivb`, lists).

use crate::model::CatalogueFile;
use std::collections::BTreeMap;

/// One project as the rest of the pipeline sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Tag (`hsw`).
    pub name: String,
    /// Family name.
    pub family: String,
    /// Order in the family.
    pub rank: i64,
    /// Human name.
    pub title: String,
}

/// A set of projects, as a bit set over catalogue indices (at most 64 projects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
pub struct ProjectSet(pub u64);

impl ProjectSet {
    /// The empty set.
    pub const EMPTY: ProjectSet = ProjectSet(0);
    /// True when empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Set union.
    pub fn union(self, o: ProjectSet) -> ProjectSet {
        ProjectSet(self.0 | o.0)
    }
    /// Set intersection.
    pub fn intersect(self, o: ProjectSet) -> ProjectSet {
        ProjectSet(self.0 & o.0)
    }
    /// True when `self` is a subset of `o`.
    pub fn subset_of(self, o: ProjectSet) -> bool {
        self.0 & !o.0 == 0
    }
    /// True when project `i` is in the set.
    pub fn contains(self, i: usize) -> bool {
        i < 64 && self.0 & (1 << i) != 0
    }
    /// Catalogue indices in the set, ascending.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..64).filter(move |i| self.0 & (1u64 << i) != 0)
    }
}

/// The resolved catalogue.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    /// Projects in catalogue order.
    pub projects: Vec<Project>,
    names: BTreeMap<String, usize>,
}

impl Catalogue {
    /// The projects' names (tags), in catalogue order.
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.projects.iter().map(|p| p.name.as_str())
    }

    /// Build from the catalogue file; returns the problems as `(path, message)` pairs.
    pub fn from_file(file: &CatalogueFile) -> (Catalogue, Vec<(String, String)>) {
        let mut cat = Catalogue::default();
        let mut errors = Vec::new();
        for (fi, fam) in file.families.iter().enumerate() {
            for (pi, p) in fam.projects.iter().enumerate() {
                let path = format!("families/{fi}/projects/{pi}");
                if !is_tag(&p.name) {
                    errors.push((
                        format!("{path}/name"),
                        format!(
                            "project name `{}` must be lower-case letters and digits",
                            p.name
                        ),
                    ));
                    continue;
                }
                let idx = cat.projects.len();
                if cat.projects.len() == 64 {
                    errors.push((path, "at most 64 projects are supported".into()));
                    break;
                }
                for n in std::iter::once(&p.name).chain(&p.aliases) {
                    if cat.names.insert(n.clone(), idx).is_some() {
                        errors.push((
                            format!("{path}/name"),
                            format!("project name `{n}` is defined twice"),
                        ));
                    }
                }
                cat.projects.push(Project {
                    name: p.name.clone(),
                    family: fam.name.clone(),
                    rank: p.rank,
                    title: p.title.clone(),
                });
            }
        }
        (cat, errors)
    }

    /// Index of a project by name or alias.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.get(name).copied()
    }

    /// Every project.
    pub fn all(&self) -> ProjectSet {
        ProjectSet(if self.projects.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.projects.len()) - 1
        })
    }

    /// Parse a project expression. Errors say what is wrong in words.
    pub fn parse(&self, expr: &str) -> Result<ProjectSet, String> {
        let mut set = ProjectSet::EMPTY;
        let mut family: Option<&str> = None;
        if expr.trim().is_empty() {
            return Err("empty project expression".into());
        }
        for term in expr.split(',') {
            let term = term.trim();
            let lookup = |n: &str| -> Result<usize, String> {
                self.find(n.trim()).ok_or_else(|| {
                    let known: Vec<&str> = self.tags().collect();
                    format!(
                        "unknown project `{}` (known: {})",
                        n.trim(),
                        known.join(", ")
                    )
                })
            };
            let (fam, part) = if let Some(base) = term.strip_suffix('+') {
                let b = lookup(base)?;
                let bp = &self.projects[b];
                (
                    bp.family.as_str(),
                    self.select(|p| p.family == bp.family && p.rank >= bp.rank),
                )
            } else if let Some((lo, hi)) = term.split_once("..") {
                let (l, h) = (lookup(lo)?, lookup(hi)?);
                let (lp, hp) = (&self.projects[l], &self.projects[h]);
                if lp.family != hp.family {
                    return Err(format!("range `{term}` spans two families"));
                }
                if lp.rank > hp.rank {
                    return Err(format!(
                        "range `{term}` is empty: `{}` comes after `{}`",
                        lp.name, hp.name
                    ));
                }
                (
                    lp.family.as_str(),
                    self.select(|p| {
                        p.family == lp.family && p.rank >= lp.rank && p.rank <= hp.rank
                    }),
                )
            } else {
                if term.is_empty() {
                    return Err(format!("empty term in project expression `{expr}`"));
                }
                let i = lookup(term)?;
                (self.projects[i].family.as_str(), ProjectSet(1 << i))
            };
            if let Some(f) = family {
                if f != fam {
                    return Err(format!(
                        "project expression `{expr}` mixes families `{f}` and `{fam}`"
                    ));
                }
            }
            family = Some(fam);
            set = set.union(part);
        }
        Ok(set)
    }

    fn select(&self, f: impl Fn(&Project) -> bool) -> ProjectSet {
        let mut s = 0u64;
        for (i, p) in self.projects.iter().enumerate() {
            if f(p) {
                s |= 1 << i;
            }
        }
        ProjectSet(s)
    }

    /// Project names of a set, comma separated.
    pub fn names(&self, set: ProjectSet) -> String {
        set.iter()
            .filter_map(|i| self.projects.get(i))
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn is_tag(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat() -> Catalogue {
        let f: CatalogueFile = serde_yaml::from_str(
            "families:\n - name: gpu\n   projects:\n    - {name: snb, rank: 60, title: s}\n    - {name: ivb, rank: 70, title: i}\n    - {name: vlv, rank: 70, title: v, aliases: [vlvt]}\n    - {name: hsw, rank: 75, title: h}\n - name: cpu\n   projects:\n    - {name: p4, rank: 0, title: p}\n",
        )
        .unwrap();
        let (c, e) = Catalogue::from_file(&f);
        assert!(e.is_empty());
        c
    }

    #[test]
    fn expressions() {
        let c = cat();
        assert_eq!(c.names(c.parse("ivb+").unwrap()), "ivb, vlv, hsw");
        assert_eq!(c.names(c.parse("snb..ivb").unwrap()), "snb, ivb, vlv");
        assert_eq!(c.names(c.parse("hsw, vlvt").unwrap()), "vlv, hsw");
        assert!(c
            .parse("bdw")
            .unwrap_err()
            .contains("unknown project `bdw`"));
        assert!(c.parse("hsw..snb").unwrap_err().contains("empty"));
        assert!(c.parse("hsw, p4").unwrap_err().contains("mixes families"));
        assert!(c.parse("").is_err());
        assert!(c.parse("snb,,ivb").is_err());
    }
}
