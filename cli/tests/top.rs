//! `perfregs top` run as a user runs it: the plain-text lines when stdout
//! is not a terminal (values of the chosen counters, bad `--counters`),
//! then the live view through a real terminal (tmux: capture the pane,
//! send keys p, s, q).
#![cfg(target_os = "linux")]

#[path = "all/common/mod.rs"]
mod common;

use common::{exits, in_root};
use std::process::Command;
use std::time::{Duration, Instant};

const COUNTERS: &str = "GpuBusy,EuActive,*Busy";

/// The counter values of a plain line (`NAME=VALUE` words after the first four).
fn values(line: &str) -> Vec<(&str, &str)> {
    line.split_whitespace()
        .filter_map(|w| w.split_once('='))
        .filter(|(k, _)| !["t", "reports/s", "emulated", "report_lost", "buffer_lost"].contains(k))
        .collect()
}

#[test]
fn plain_mode_prints_the_chosen_counters_each_refresh() {
    let (out, err) = exits(
        0,
        &[
            "top",
            "--emulate",
            "tgl",
            "--metric-set",
            "RenderBasic",
            "--counters",
            COUNTERS,
            "--refresh",
            "100ms",
            "--iterations",
            "3",
        ],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "a header and 3 refreshes: {out}{err}");
    assert!(
        lines[0].starts_with("# tgl GT") && lines[0].contains("RenderBasic"),
        "{out}"
    );
    assert!(err.contains("workload: busy"), "{err}");
    for line in &lines[1..] {
        let v = values(line);
        let names: Vec<&str> = v.iter().map(|(k, _)| *k).collect();
        assert!(
            names.contains(&"GpuBusy") && names.contains(&"EuActive"),
            "{line}"
        );
        // `*Busy` added more than GpuBusy; nothing else was chosen.
        assert!(v.len() > 2, "{line}");
        assert!(
            names
                .iter()
                .all(|n| ["GpuBusy", "EuActive"].contains(n) || n.ends_with("Busy")),
            "{line}"
        );
        for (k, x) in v {
            assert!(
                x.trim_end_matches(['k', 'M', 'G']).parse::<f64>().is_ok(),
                "{k}={x} in {line}"
            );
        }
        // The default workload (busy) keeps the GPU busy.
        let busy: f64 = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("GpuBusy="))
            .and_then(|r| r.parse().ok())
            .expect("GpuBusy");
        assert!(busy > 50.0, "{line}");
        let rate: f64 = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("reports/s="))
            .and_then(|r| r.parse().ok())
            .expect("reports/s");
        assert!(rate > 0.0, "{line}");
    }
}

#[test]
fn bad_counters_get_a_suggestion() {
    let (_, err) = exits(
        2,
        &[
            "top",
            "--emulate",
            "tgl",
            "--metric-set",
            "RenderBasic",
            "--counters",
            "GpuBusyy",
            "--iterations",
            "1",
        ],
    );
    assert!(err.contains("GpuBusy"), "did you mean: {err}");
    // The default counters when none are given: GpuBusy among them.
    let (out, _) = exits(
        0,
        &[
            "top",
            "--emulate",
            "tgl",
            "--metric-set",
            "RenderBasic",
            "--refresh",
            "50ms",
            "--iterations",
            "1",
        ],
    );
    assert!(out.contains(" GpuBusy="), "{out}");
}

/// A tmux server of this test's own (its socket), killed when dropped.
struct Tmux(String);

impl Tmux {
    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.0)
            .args(args)
            .output()
            .expect("run tmux")
    }
    fn capture(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "top"]).stdout).into_owned()
    }
    fn keys(&self, k: &str) {
        assert!(self.cmd(&["send-keys", "-t", "top", k]).status.success());
    }
    fn alive(&self) -> bool {
        self.cmd(&["has-session", "-t", "top"]).status.success()
    }
    /// Capture until `ok` holds (at most `secs`).
    fn wait_for(&self, secs: u64, ok: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.capture();
            if ok(&s) || Instant::now() > end {
                return s;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// The table's rows of counter `names` in a capture.
fn rows<'a>(screen: &'a str, names: &[&str]) -> Vec<&'a str> {
    screen
        .lines()
        .filter(|l| names.iter().any(|n| l.trim_start().starts_with(n)))
        .collect()
}

#[test]
fn the_live_view_through_a_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        let why = "tmux is not installed: the live view's terminal test cannot run (apt-get install tmux)";
        if std::env::var_os("CI").is_some() {
            panic!("{why}; CI installs it (.ci/run)");
        }
        eprintln!("SKIPPED: {why}");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_perfregs");
    let t = Tmux(format!("perfregs-top-test-{}", std::process::id()));
    let line = format!(
        "{bin} top --emulate tgl --metric-set RenderBasic --counters '{COUNTERS}' --refresh 100ms"
    );
    let started = t.cmd(&[
        "new-session",
        "-d",
        "-s",
        "top",
        "-x",
        "120",
        "-y",
        "40",
        &line,
    ]);
    assert!(started.status.success(), "{started:?}");

    let names = ["GpuBusy", "EuActive"];
    let first = t.wait_for(10, |s| {
        s.contains("RenderBasic") && rows(s, &names).len() == 2 && s.contains('▁')
    });
    assert!(
        first.contains("tgl GT") && first.contains("RenderBasic"),
        "header:\n{first}"
    );
    assert!(
        first.contains("period") && first.contains("reports/s"),
        "{first}"
    );
    assert!(
        first.contains("lost: 0 report-lost, 0 buffer-lost"),
        "{first}"
    );
    assert_eq!(rows(&first, &names).len(), 2, "{first}");
    assert!(
        !rows(&first, &["Sampler"]).is_empty(),
        "*Busy rows: {first}"
    );

    // Values move: each refresh extends the sparklines.
    let moving = t.wait_for(5, |s| rows(s, &names) != rows(&first, &names));
    assert_ne!(
        rows(&moving, &names),
        rows(&first, &names),
        "values do not change:\n{moving}"
    );

    // Paused: the rows stay as they are.
    t.keys("p");
    let paused = t.wait_for(3, |s| s.contains("PAUSED"));
    assert!(paused.contains("PAUSED"), "{paused}");
    std::thread::sleep(Duration::from_millis(500));
    let still = t.capture();
    assert_eq!(
        rows(&still, &names),
        rows(&paused, &names),
        "paused, yet:\n{paused}\n{still}"
    );
    t.keys("p");

    // s: the next metric set.
    t.keys("s");
    let switched = t.wait_for(5, |s| !s.contains("RenderBasic"));
    assert!(
        !switched.contains("RenderBasic") && switched.contains("tgl GT"),
        "s did not switch:\n{switched}"
    );

    // q: the end.
    t.keys("q");
    let end = Instant::now() + Duration::from_secs(5);
    while t.alive() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!t.alive(), "q did not end it:\n{}", t.capture());
}

#[test]
fn top_is_in_the_help() {
    let (code, out, _) = in_root(&["top", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("--counters") && out.contains("GpuBusy"),
        "{out}"
    );
}

/// `top --device` judges and opens a card as `record --device` does
/// (shared code): a refused card gets the verdict and its remedy, a set
/// not of the part a usage error, an allowed card is asked (the fake tree
/// has no render node, said as the driver's answer), flags of --emulate
/// are refused with --device. The stream itself needs a GPU.
#[test]
fn a_card_is_judged_and_asked_as_record_does() {
    use perfregs_linux::test_support::FakeTree;
    let t = FakeTree::tgl_i915("top", 1);
    let top = |extra: &[&str], code: i32| -> String {
        let roots = t.roots();
        let (got, out, err) = common::run(
            common::perfregs()
                .args(["top", "--device", "card0", "--iterations", "1"])
                .arg("--sys")
                .arg(&roots.sys)
                .arg("--proc")
                .arg(&roots.proc)
                .arg("--dev")
                .arg(t.0.join("dev"))
                .args(extra),
        );
        assert_eq!(got, code, "{extra:?}: {out}{err}");
        assert!(out.is_empty(), "nothing shown before the stream: {out}");
        err
    };
    let err = top(&["--metric-set", "TestOa"], 1);
    assert!(
        err.starts_with("perfregs top: card0 0000:00:02.0 TGL GT2 (0x9a49)"),
        "{err}"
    );
    common::says(&err, "sysctl dev.i915.perf_stream_paranoid=0");
    t.paranoid("i915", 0);
    let err = top(&["--metric-set", "TestOx"], 2);
    common::says(&err, "(did you mean TestOa?)");
    let err = top(&["--metric-set", "TestOa"], 1);
    assert!(
        err.starts_with("perfregs top: card0: asking the driver:"),
        "{err}"
    );
    let err = top(&["--metric-set", "TestOa", "--workload", "busy"], 2);
    common::says(&err, "--workload is for --emulate");
    let err = top(&["--metric-set", "TestOa", "--card", "1"], 2);
    common::says(&err, "--card");
}
