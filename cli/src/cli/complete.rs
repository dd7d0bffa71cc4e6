//! Shell completion that knows the values: metric sets, registers and
//! projects, from the compiled tables (clap_complete's dynamic engine:
//! the shell asks `COMPLETE=<shell> perfregs -- <words>` as the user types).
//!
//! The completers are attached here, by argument id, to the command clap
//! derives, so the commands' own modules stay free of completion code; a
//! renamed argument panics in [`command`], which a test builds.

use clap::CommandFactory as _;
use clap_complete::engine::{
    ArgValueCandidates, ArgValueCompleter, CompletionCandidate, PathCompleter, ValueCompleter as _,
};
use std::ffi::OsStr;

/// The environment variable the shell scripts call back with.
pub const VAR: &str = "COMPLETE";

/// What an argument completes to.
#[derive(Clone, Copy, Debug)]
enum Values {
    /// Metric-set symbols.
    Sets,
    /// Register names.
    Registers,
    /// GT numbers of the catalogue's parts.
    Gts,
    /// Counter symbols, in a comma-separated list.
    Counters,
    /// Workload names (built-in and `none`), then YAML files.
    Workloads,
}

/// The arguments that complete values: (subcommand path, argument id,
/// values). A test checks that each exists.
const ARGS: &[(&[&str], &str, Values)] = &[
    (&["record"], "metric_set", Values::Sets),
    (&["top"], "metric_set", Values::Sets),
    (&["produce"], "metric_set", Values::Sets),
    (&["report"], "metric_set", Values::Sets),
    (&["oa-decode"], "metric_set", Values::Sets),
    (&["metrics", "run"], "set", Values::Sets),
    (&["metrics", "list"], "counters", Values::Sets),
    (&["decode"], "register", Values::Registers),
    (&["reg", "read"], "register", Values::Registers),
    (&["reg", "write"], "register", Values::Registers),
    (&["record"], "gt", Values::Gts),
    (&["top"], "gt", Values::Gts),
    (&["produce"], "gt", Values::Gts),
    (&["oa-decode"], "gt", Values::Gts),
    (&["metrics", "run"], "gt", Values::Gts),
    (&["metrics", "list"], "gt", Values::Gts),
    (&["metrics", "check"], "gt", Values::Gts),
    (&["report"], "counters", Values::Counters),
    (&["metrics", "run"], "counters", Values::Counters),
    (&["top"], "counters", Values::Counters),
    (&["record"], "workload", Values::Workloads),
    (&["top"], "workload", Values::Workloads),
    (&["produce"], "workload", Values::Workloads),
    (&["metrics", "run"], "workload", Values::Workloads),
];

/// The whole command line with its value completers.
pub fn command() -> clap::Command {
    let mut cmd = super::Cli::command();
    for &(path, id, values) in ARGS {
        cmd = attach(cmd, path, id, values);
    }
    cmd
}

/// `cmd` with the completer of `values` on argument `id` of subcommand
/// `path` (in place: a positional keeps its index); unchanged where there
/// is no such subcommand or argument.
fn attach(cmd: clap::Command, path: &[&str], id: &str, values: Values) -> clap::Command {
    match path.split_first() {
        Some((first, rest)) => {
            if cmd.find_subcommand(first).is_none() {
                return cmd;
            }
            cmd.mut_subcommand(first, |c| attach(c, rest, id, values))
        }
        None => cmd.mut_args(|a| {
            if a.get_id() != id {
                return a;
            }
            match values {
                Values::Sets => a.add(ArgValueCandidates::new(metric_sets)),
                Values::Registers => a.add(ArgValueCompleter::new(registers)),
                Values::Gts => a.add(ArgValueCandidates::new(gts)),
                Values::Counters => a.add(ArgValueCompleter::new(counters)),
                Values::Workloads => a.add(ArgValueCompleter::new(workloads)),
            }
        }),
    }
}

/// Answer the shell when it calls back (`COMPLETE=<shell>` set); returns
/// only on a normal run.
pub fn answer_shell() {
    clap_complete::CompleteEnv::with_factory(command)
        .var(VAR)
        .complete();
}

/// The script that registers the completion in `shell`: it calls back into
/// `perfregs` for each completion, so the values are always the binary's.
pub fn registration(shell: clap_complete::Shell) -> Result<Vec<u8>, String> {
    let name = shell.to_string();
    let shells = clap_complete::env::Shells::builtins();
    let completer = shells
        .completer(&name)
        .ok_or_else(|| format!("no dynamic completion for {name}"))?;
    let mut out = Vec::new();
    completer
        .write_registration(VAR, "perfregs", "perfregs", "perfregs", &mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Every shipped metric set's symbol (each once), its name as help.
fn metric_sets() -> Vec<CompletionCandidate> {
    let mut seen = std::collections::BTreeMap::new();
    for (_, _, sets) in perfregs_metrics::FILES {
        for s in sets.iter() {
            seen.entry(s.symbol).or_insert(s.name);
        }
    }
    seen.into_iter()
        .map(|(symbol, name)| CompletionCandidate::new(symbol).help(Some(name.into())))
        .collect()
}

/// The counters of every shipped set whose symbols start with the last
/// item typed of a comma-separated list (any case), each once, completing
/// that item.
fn counters(current: &OsStr) -> Vec<CompletionCandidate> {
    let current = current.to_string_lossy();
    let (done, typed) = match current.rfind(',') {
        Some(k) => (&current[..=k], &current[k + 1..]),
        None => ("", &current[..]),
    };
    let typed = typed.to_ascii_uppercase();
    let mut seen = std::collections::BTreeMap::new();
    for (_, _, sets) in perfregs_metrics::FILES {
        for c in sets.iter().flat_map(|s| s.counters) {
            if c.symbol.to_ascii_uppercase().starts_with(&typed) {
                seen.entry(c.symbol).or_insert(c.name);
            }
        }
    }
    seen.into_iter()
        .map(|(symbol, name)| {
            CompletionCandidate::new(format!("{done}{symbol}")).help(Some(name.into()))
        })
        .collect()
}

/// The workloads `--workload` takes whose names start with what is typed
/// (any case), their descriptions as help, then the folders and YAML files
/// that complete it (a workload of one's own).
fn workloads(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy().to_ascii_lowercase();
    let mut out: Vec<CompletionCandidate> = perfregs_session::workload::names()
        .into_iter()
        .filter(|n| n.starts_with(&typed))
        .map(|n| {
            let help = match perfregs_session::workload::choose(n) {
                Ok(Some(spec)) => spec.description,
                Ok(None) => perfregs_session::workload::NONE_HELP.to_string(),
                Err(e) => e.0,
            };
            CompletionCandidate::new(n).help(Some(help.into()))
        })
        .collect();
    let yaml = |p: &std::path::Path| {
        p.is_dir() || matches!(p.extension().and_then(OsStr::to_str), Some("yaml" | "yml"))
    };
    out.extend(PathCompleter::any().filter(yaml).complete(current));
    out
}

/// Every GT number of the catalogue's parts, the parts that have it as
/// help (`1`: `tgl GT1, dg2 GT1`).
fn gts() -> Vec<CompletionCandidate> {
    let mut by_gt: std::collections::BTreeMap<u8, Vec<String>> = Default::default();
    for p in hal::PARTS {
        by_gt.entry(p.gt).or_default().push(p.to_string());
    }
    by_gt
        .into_iter()
        .map(|(gt, parts)| {
            CompletionCandidate::new(gt.to_string()).help(Some(parts.join(", ").into()))
        })
        .collect()
}

/// The registers of every compiled project whose names start with what is
/// typed (case-insensitive), each once, its title as help.
fn registers(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy().to_ascii_uppercase();
    let mut seen = std::collections::BTreeMap::new();
    for p in hal::PROJECTS {
        for r in p.registers {
            if r.name.to_ascii_uppercase().starts_with(&typed) {
                seen.entry(r.name).or_insert(r.title);
            }
        }
    }
    seen.into_iter()
        .map(|(name, title)| CompletionCandidate::new(name).help(Some(title.into())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap_complete::engine::complete;
    use std::ffi::OsString;

    /// What the engine offers for the last word of `line`.
    fn offered(line: &str) -> Vec<String> {
        let mut cmd = command();
        let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
        let at = args.len() - 1;
        complete(&mut cmd, args, at, None)
            .expect("complete")
            .into_iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn sets_registers_and_projects_complete() {
        // Every shipped set, from the generated tables.
        let test_oa = offered("perfregs record --metric-set Test");
        assert!(test_oa.iter().any(|s| s == "TestOa"), "{test_oa:?}");
        assert!(test_oa.iter().all(|s| s.starts_with("Test")), "{test_oa:?}");
        let run = offered("perfregs metrics run tgl Render");
        assert!(run.iter().any(|s| s == "RenderBasic"), "{run:?}");
        // Registers by prefix, any case.
        let regs = offered("perfregs decode tgl oag_oacon");
        assert!(regs.iter().any(|s| s == "OAG_OACONTROL"), "{regs:?}");
        assert!(regs.iter().all(|s| s.starts_with("OAG_OACON")), "{regs:?}");
        // Counters, item by item.
        let c = offered("perfregs report f.record --counters GpuTime,GpuB");
        assert!(c.iter().any(|s| s == "GpuTime,GpuBusy"), "{c:?}");
        // GT numbers, from the parts.
        let gts = offered("perfregs metrics run skl TestOa --gt ");
        for p in hal::PARTS {
            assert!(gts.contains(&p.gt.to_string()), "{p}: {gts:?}");
        }
        // Workloads: the built-ins by prefix, with their descriptions.
        let w = offered("perfregs record --emulate tgl --workload b");
        assert!(w.iter().any(|s| s == "busy"), "{w:?}");
        assert!(!w.iter().any(|s| s == "light" || s == "none"), "{w:?}");
        let all = offered("perfregs top --emulate tgl --workload ");
        for name in perfregs_session::workload::names() {
            assert!(all.iter().any(|s| s == name), "{name}: {all:?}");
        }
        // Projects where a project goes (clap's possible values).
        let projects = offered("perfregs record --emulate m");
        assert!(projects.iter().any(|s| s == "mtl"), "{projects:?}");
    }

    #[test]
    fn workload_files_complete_yaml_only() {
        let dir = std::env::temp_dir().join(format!("perfregs-complete-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("more")).expect("a folder");
        std::fs::write(dir.join("mine.yaml"), "workload: mine\nevents: {}\n").expect("a file");
        std::fs::write(dir.join("notes.txt"), "").expect("a file");
        let typed = format!("{}/", dir.display());
        let got = offered(&format!(
            "perfregs metrics run tgl RenderBasic --workload {typed}"
        ));
        std::fs::remove_dir_all(&dir).expect("removed");
        assert!(got.iter().any(|s| s.ends_with("/mine.yaml")), "{got:?}");
        assert!(got.iter().any(|s| s.ends_with("/more/")), "{got:?}");
        assert!(!got.iter().any(|s| s.ends_with("notes.txt")), "{got:?}");
    }

    #[test]
    fn every_completed_argument_exists() {
        let cmd = command();
        for (path, id, _) in ARGS {
            let mut c = &cmd;
            for p in *path {
                c = c
                    .find_subcommand(p)
                    .unwrap_or_else(|| panic!("no subcommand {path:?}"));
            }
            assert!(
                c.get_arguments().any(|a| a.get_id() == *id),
                "{path:?} has no argument {id}"
            );
        }
    }

    #[test]
    fn every_shell_registers() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
        ] {
            let script = String::from_utf8(registration(shell).expect("a script")).expect("text");
            assert!(script.contains(VAR), "{shell}: {script}");
        }
    }
}
