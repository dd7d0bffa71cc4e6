//! Counters chosen by name (`--counters 'GpuTime,*Busy'`): symbol names or
//! underscore names, any case, `-` and `_` alike, with the globs `*` (any
//! run) and `?` (one character); in the set's order, each once.

use crate::set::canonical;
use perfregs_metrics::CounterInfo;

/// A pattern that matches no counter of the set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterNotFound {
    /// The pattern as given.
    pub pattern: String,
    /// The set's counters nearest it (at most three).
    pub close: Vec<String>,
}

impl core::fmt::Display for CounterNotFound {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "no counter matches `{}`", self.pattern)?;
        if !self.close.is_empty() {
            write!(f, " (did you mean {}?)", self.close.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for CounterNotFound {}

/// The counters of `counters` that `spec` (comma-separated patterns)
/// names, in `counters`' order, each once; the first pattern that matches
/// none is the error (an empty pattern matches none).
///
/// ```
/// let part = perfregs_session::part("tgl", None)?;
/// let set = perfregs_session::find_set(perfregs_session::sets(part)?, "RenderBasic")?;
/// let chosen = perfregs_session::choose_counters(set.counters, "gpu_time, *Busy")?;
/// assert_eq!(chosen[0].symbol, "GpuTime");
/// assert!(chosen[1..].iter().all(|c| c.symbol.ends_with("Busy")));
/// let e = perfregs_session::choose_counters(set.counters, "GpuBusyy").unwrap_err();
/// assert_eq!(e.close, ["GpuBusy"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn choose_counters<'a>(
    counters: &'a [CounterInfo],
    spec: &str,
) -> Result<Vec<&'a CounterInfo>, CounterNotFound> {
    let names: Vec<(&str, &str)> = counters.iter().map(|c| (c.symbol, c.underscore)).collect();
    Ok(choose_names(&names, spec)?
        .into_iter()
        .filter_map(|i| counters.get(i))
        .collect())
}

/// [`choose_counters`] over (symbol, underscore name) pairs: the indices
/// chosen, ascending.
///
/// ```
/// let names = [("GpuTime", "gpu_time"), ("GpuBusy", "gpu_busy"), ("EuActive", "eu_active")];
/// assert_eq!(perfregs_session::choose_names(&names, "gpu*"), Ok(vec![0, 1]));
/// ```
pub fn choose_names(names: &[(&str, &str)], spec: &str) -> Result<Vec<usize>, CounterNotFound> {
    let mut on = vec![false; names.len()];
    for pattern in spec.split(',').map(str::trim) {
        let p = canonical(pattern);
        let mut any = false;
        for (i, (symbol, underscore)) in names.iter().enumerate() {
            if !p.is_empty() && (glob(&p, &canonical(symbol)) || glob(&p, &canonical(underscore))) {
                on[i] = true;
                any = true;
            }
        }
        if !any {
            let plain: String = pattern
                .chars()
                .filter(|c| !matches!(c, '*' | '?'))
                .collect();
            return Err(CounterNotFound {
                pattern: pattern.to_string(),
                close: crate::close_names(&plain, names.iter().map(|(s, _)| *s))
                    .into_iter()
                    .map(String::from)
                    .collect(),
            });
        }
    }
    Ok(on
        .into_iter()
        .enumerate()
        .filter_map(|(i, on)| on.then_some(i))
        .collect())
}

/// Whether glob `p` (`*`, `?`) matches all of `s`.
fn glob(p: &[u8], s: &[u8]) -> bool {
    // Greedy with one backtrack point: the last `*` seen.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < s.len() {
        match p.get(i) {
            Some(b'*') => {
                star = Some((i, j));
                i += 1;
            }
            Some(&c) if c == b'?' || c == s[j] => {
                i += 1;
                j += 1;
            }
            _ => match star {
                Some((si, sj)) => {
                    i = si + 1;
                    j = sj + 1;
                    star = Some((si, sj + 1));
                }
                None => return false,
            },
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_whole_names() {
        let m = |p: &str, s: &str| glob(&canonical(p), &canonical(s));
        assert!(m("*Busy", "GpuBusy") && m("gpu*", "GpuTime") && m("*", "X"));
        assert!(m("Gpu?ime", "GpuTime") && m("*b*y", "GpuBusy") && m("a*b*c", "aXbYc"));
        assert!(!m("*Busy", "GpuBusyX") && !m("Gpu", "GpuTime") && !m("?", "ab"));
        assert!(m("gpu-time", "GPU_TIME"));
    }

    fn set() -> &'static perfregs_metrics::SetInfo {
        let part = crate::part("tgl", None).expect("TGL");
        crate::find_set(crate::sets(part).expect("sets"), "RenderBasic").expect("RenderBasic")
    }

    #[test]
    fn chosen_in_the_sets_order_each_once() {
        let s = set();
        let chosen = choose_counters(s.counters, "*Busy,GpuTime,gpu_time,GpuBusy").expect("found");
        let order: Vec<usize> = chosen
            .iter()
            .map(|c| {
                s.counters
                    .iter()
                    .position(|x| x.symbol == c.symbol)
                    .expect("of the set")
            })
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        assert_eq!(chosen.iter().filter(|c| c.symbol == "GpuTime").count(), 1);
        let busy = s
            .counters
            .iter()
            .filter(|c| c.symbol.ends_with("Busy"))
            .count();
        assert_eq!(chosen.len(), busy + 1);
    }

    #[test]
    fn a_pattern_matching_nothing_is_the_error() {
        let s = set();
        // A counter's name with its last letter left out.
        let name = s
            .counters
            .iter()
            .map(|c| c.symbol)
            .find(|n| n.len() > 8)
            .expect("a long name");
        let typo = &name[..name.len() - 1];
        let e = choose_counters(s.counters, &format!("GpuTime,{typo}")).unwrap_err();
        assert_eq!(e.pattern, typo);
        assert!(e.close.iter().any(|c| c == name), "{e}");
        assert!(e.to_string().contains("did you mean"), "{e}");
        assert!(choose_counters(s.counters, "").is_err());
        assert!(choose_counters(s.counters, "GpuTime,").is_err());
        assert!(choose_counters(s.counters, "Nothing*Like*This").is_err());
    }
}
