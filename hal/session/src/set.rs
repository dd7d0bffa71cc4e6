//! Metric-set lookup: one rule for the generated sets and for sets read at
//! run time.

use crate::Error;
use crate::part::file_gt;
use hal::meta::PartInfo;
use perfregs_metrics::SetInfo;

/// No set of the name: the name, the sets looked at and the close names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetNotFound {
    /// The name asked for.
    pub name: String,
    /// The symbol names of the sets looked at, in order.
    pub known: Vec<String>,
    /// Up to three of `known` close to `name`, closest first.
    pub close: Vec<String>,
}

impl core::fmt::Display for SetNotFound {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "no metric set `{}` among the {} sets",
            self.name,
            self.known.len()
        )?;
        if !self.close.is_empty() {
            write!(f, " (did you mean {}?)", self.close.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for SetNotFound {}

/// The index of the set named `name` among `sets` (each its symbol name and
/// its underscore name): the exact symbol name first (as IGT's reader finds
/// it), then symbol or underscore name, case-insensitive.
///
/// ```
/// let sets = [("RenderBasic", "render_basic"), ("TestOa", "test_oa")];
/// assert_eq!(perfregs_session::find_name(sets, "test_oa"), Ok(1));
/// let e = perfregs_session::find_name(sets, "TestOx").unwrap_err();
/// assert_eq!(e.close, ["TestOa"]);
/// ```
pub fn find_name<'a>(
    sets: impl IntoIterator<Item = (&'a str, &'a str)>,
    name: &str,
) -> Result<usize, SetNotFound> {
    let sets: Vec<(&str, &str)> = sets.into_iter().collect();
    sets.iter()
        .position(|(s, _)| *s == name)
        .or_else(|| {
            sets.iter()
                .position(|(s, u)| s.eq_ignore_ascii_case(name) || u.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| SetNotFound {
            name: name.to_string(),
            known: sets.iter().map(|(s, _)| s.to_string()).collect(),
            close: close_names(name, sets.iter().map(|(s, _)| *s))
                .into_iter()
                .map(String::from)
                .collect(),
        })
}

/// The set named `name` among `sets` ([`find_name`]'s rule).
///
/// ```
/// let part = perfregs_session::part("hsw", None)?;
/// let sets = perfregs_session::sets(part)?;
/// assert_eq!(perfregs_session::find_set(sets, "render_basic")?.symbol, "RenderBasic");
/// assert!(perfregs_session::find_set(sets, "NoSuchSet").is_err());
/// # Ok::<(), perfregs_session::Error>(())
/// ```
pub fn find_set(sets: &'static [SetInfo], name: &str) -> Result<&'static SetInfo, Error> {
    let i = find_name(sets.iter().map(|s| (s.symbol, s.underscore)), name)?;
    Ok(&sets[i])
}

/// The shipped metric sets of `part` (`perfregs_metrics::FILES`).
pub fn sets(part: &PartInfo) -> Result<&'static [SetInfo], Error> {
    let files = files(part.project);
    match files[..] {
        [(one, _)] => Ok(one),
        _ => files
            .iter()
            .find(|(_, g)| *g == Some(part.gt))
            .map(|f| f.0)
            .ok_or_else(|| Error::NoSets(part.to_string())),
    }
}

/// The shipped files of `project`: their sets and GTs.
fn files(project: &str) -> Vec<(&'static [SetInfo], Option<u8>)> {
    perfregs_metrics::FILES
        .iter()
        .filter(|(_, p, _)| *p == project)
        .map(|(f, p, s)| (*s, file_gt(f, p)))
        .collect()
}

/// The shipped metric sets of `project` for a device of GT `gt` (from a
/// device table, so maybe unknown), and the part's name (`tgl GT2`; the
/// project alone when it has one file); a note when GT2's sets are taken
/// because `gt` names none with a file. `None` without shipped sets.
///
/// ```
/// let (_, part, note) = perfregs_session::sets_of("skl", Some(1)).expect("skl");
/// assert_eq!(part, "skl GT2");
/// assert!(note.is_some());
/// ```
pub fn sets_of(
    project: &str,
    gt: Option<u8>,
) -> Option<(&'static [SetInfo], String, Option<String>)> {
    let files = files(project);
    match files[..] {
        [] => None,
        [(one, _)] => Some((one, project.to_string(), None)),
        _ => {
            let of = |g: u8| files.iter().find(|(_, fg)| *fg == Some(g)).map(|f| f.0);
            if let Some(s) = gt.and_then(of) {
                return gt.map(|g| (s, format!("{project} GT{g}"), None));
            }
            let upper = project.to_ascii_uppercase();
            let why = match gt {
                Some(g) => format!("{upper} GT{g} has no metric file"),
                None => format!("the device table names no {upper} GT"),
            };
            of(2).map(|s| {
                (
                    s,
                    format!("{project} GT2"),
                    Some(format!("{why}: the GT2 sets are used")),
                )
            })
        }
    }
}

/// Up to three of `names` close to `wanted`: within an edit distance of
/// about a quarter of its length (at least 1, at most 3), or containing it
/// (4 characters or more); closest first. Names compare as register names
/// do: upper case, `-` as `_`.
///
/// ```
/// let names = ["OACONTROL", "OASTATUS", "OABUFFER"];
/// assert_eq!(perfregs_session::close_names("oacontrl", names.into_iter()), ["OACONTROL"]);
/// ```
pub fn close_names<'a>(wanted: &str, names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let w = canonical(wanted);
    let limit = (w.len() / 4).clamp(1, 3);
    let mut found: Vec<(usize, &'a str)> = names
        .filter_map(|n| {
            let c = canonical(n);
            let d = distance(&w, &c);
            let contains = w.len() >= 4 && c.windows(w.len()).any(|x| x == w.as_slice());
            (d <= limit || contains).then_some((if contains { d.min(limit) } else { d }, n))
        })
        .collect();
    found.sort_unstable();
    found.dedup_by_key(|(_, n)| *n);
    found.into_iter().take(3).map(|(_, n)| n).collect()
}

/// A name compared as `ProjectInfo::register` does: upper case, `-` as `_`.
pub(crate) fn canonical(name: &str) -> Vec<u8> {
    name.bytes()
        .map(|c| {
            if c == b'-' {
                b'_'
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// The edit distance of `a` and `b` (insertions, deletions, substitutions
/// and swaps of two neighbours, each 1).
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        let d = |a: &str, b: &str| distance(a.as_bytes(), b.as_bytes());
        assert_eq!(d("OACONTROL", "OACONTROL"), 0);
        assert_eq!(d("OACONTRL", "OACONTROL"), 1);
        assert_eq!(d("OACNOTROL", "OACONTROL"), 1, "a swap");
        assert_eq!(d("", "ABC"), 3);
        assert_eq!(d("KITTEN", "SITTING"), 3);
    }

    #[test]
    fn close_names_are_ranked() {
        let names = [
            "OACONTROL",
            "OASTATUS1",
            "OASTATUS2",
            "OAG_OACONTROL",
            "GPU_TICKS",
        ];
        let close = |w| close_names(w, names.iter().copied());
        assert_eq!(close("oacontrl"), ["OACONTROL"]);
        assert_eq!(close("OASTATUS"), ["OASTATUS1", "OASTATUS2"]);
        assert_eq!(close("control"), ["OACONTROL", "OAG_OACONTROL"]);
        assert!(close("FROB").is_empty());
    }
}
