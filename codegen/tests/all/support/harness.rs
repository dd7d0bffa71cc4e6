//! What the mutation tests of the description front end
//! (`support/mutate.rs`) and of the metric-set front end
//! (`metrics_mutation.rs`) share: the per-input random stream, text
//! positions, the panic capture, the report and the threaded run loop.
//!
//! Input `index` of a run with `seed` is a pure function of the two (a
//! SplitMix64 seeds a xorshift64* stream per input), so a failure is
//! reproduced by running that one index again, in any thread count.

#![allow(dead_code)] // each test target uses a part

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use std::time::{Duration, Instant};

/// xorshift64*, seeded through SplitMix64 (never zero), or with a fixed
/// non-zero state.
pub use perfregs_testkit::Rng;

/// Integers at the edges of 16, 32, 64 and more bits, which both front ends
/// are given in place of a number.
pub const WIDE_INTEGERS: &[&str] = &[
    "0xFFFF",
    "0xFFFFFFFF",
    "0x100000000",
    "0x7FFFFFFFFFFFFFFF",
    "0xFFFFFFFFFFFFFFFF",
    "0x10000000000000000",
    "0xFFFFFFFFFFFFFFFFFFFF",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
];

/// The char boundary at or before byte `i` (clamped to the text).
pub fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A random char boundary in `0..=len`.
pub fn any_pos(rng: &mut Rng, s: &str) -> usize {
    floor_boundary(s, rng.below(s.len() + 1))
}

/// Insert one of `inserts` at a random char boundary; what was done.
pub fn insert_any(rng: &mut Rng, text: &mut String, inserts: &[&str]) -> String {
    let at = any_pos(rng, text);
    let s = rng.pick(inserts);
    text.insert_str(at, s);
    format!("insert {s:?} at byte {at}")
}

/// Byte spans of the lines, each with its `\n`.
pub fn line_spans(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in s.match_indices('\n') {
        out.push((start, i + 1));
        start = i + 1;
    }
    if start < s.len() {
        out.push((start, s.len()));
    }
    out
}

/// What one input did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted without a diagnostic.
    Clean,
    /// Rejected; the code of its first diagnostic and the number of diagnostics.
    Rejected(&'static str, usize),
}

/// A failed check.
pub struct Failure {
    /// Groups failures of one cause: panic location, or code and problem.
    pub signature: String,
    pub detail: String,
}

thread_local! {
    /// `Some` while `catch` runs on this thread: the panic hook stores the
    /// message here instead of printing it.
    static CAPTURED: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// Install (once per process) a panic hook that captures panics inside
/// [`catch`] and leaves every other panic to the previous hook.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let captured = CAPTURED.with(|c| match c.borrow_mut().as_mut() {
                Some(slot) => {
                    let msg = info
                        .payload()
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| info.payload().downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "<non-string payload>".into());
                    let at = info
                        .location()
                        .map_or("<unknown>".into(), |l| format!("{}:{}", l.file(), l.line()));
                    *slot = Some(format!("{at}: {msg}"));
                    true
                }
                None => false,
            });
            if !captured {
                previous(info);
            }
        }));
    });
}

/// Run `f`, turning a panic into a [`Failure`] grouped by its location.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Failure> {
    install_hook();
    CAPTURED.with(|c| *c.borrow_mut() = Some(None));
    let result = catch_unwind(AssertUnwindSafe(f));
    let panic = CAPTURED.with(|c| c.borrow_mut().take()).flatten();
    result.map_err(|_| {
        let msg = panic.unwrap_or_else(|| "<panic message not captured>".into());
        // Group by location (the message may hold input values).
        let at = msg.split(": ").next().unwrap_or("").to_string();
        Failure {
            signature: format!("panic at {at}"),
            detail: format!("panic: {msg}"),
        }
    })
}

/// Totals of a run.
#[derive(Default)]
pub struct Report {
    pub inputs: u64,
    pub clean: u64,
    pub rejected: u64,
    pub diagnostics: u64,
    /// Rejected inputs by the code of their first diagnostic.
    pub first_codes: BTreeMap<&'static str, u64>,
    /// Inputs by kind (route, mutation operator: what the test counts).
    pub kinds: BTreeMap<String, u64>,
    /// Failures by signature: count and the first case's report.
    pub failures: BTreeMap<String, (u64, String)>,
    /// The slowest input: time, index, label.
    pub slowest: (Duration, u64, String),
    pub elapsed: Duration,
}

impl Report {
    pub fn failed(&self) -> u64 {
        self.failures.values().map(|v| v.0).sum()
    }

    fn merge(&mut self, o: Report) {
        self.inputs += o.inputs;
        self.clean += o.clean;
        self.rejected += o.rejected;
        self.diagnostics += o.diagnostics;
        for (k, v) in o.first_codes {
            *self.first_codes.entry(k).or_default() += v;
        }
        for (k, v) in o.kinds {
            *self.kinds.entry(k).or_default() += v;
        }
        for (k, (n, first)) in o.failures {
            self.failures.entry(k).or_insert((0, first)).0 += n;
        }
        if o.slowest.0 > self.slowest.0 {
            self.slowest = o.slowest;
        }
    }

    /// A short summary (and the first case of each failure signature).
    pub fn summary(&self) -> String {
        let secs = self.elapsed.as_secs_f64();
        let panics: u64 = self
            .failures
            .iter()
            .filter(|(k, _)| k.starts_with("panic"))
            .map(|(_, v)| v.0)
            .sum();
        let mut s = format!(
            "{} inputs in {:.1} s ({:.0} inputs/s): {} clean, {} rejected with {} diagnostics, \
             {} panics, {} failed checks in all\n",
            self.inputs,
            secs,
            self.inputs as f64 / secs.max(1e-9),
            self.clean,
            self.rejected,
            self.diagnostics,
            panics,
            self.failed()
        );
        s.push_str(&format!("first codes: {:?}\n", self.first_codes));
        s.push_str(&format!("by kind: {:?}\n", self.kinds));
        s.push_str(&format!(
            "slowest: input {} ({}), {:.3} s\n",
            self.slowest.1,
            self.slowest.2,
            self.slowest.0.as_secs_f64()
        ));
        for (sig, (n, first)) in &self.failures {
            s.push_str(&format!("FAILED {n} x {sig}; first:\n{first}\n"));
        }
        s
    }
}

/// One input, made and run by the test: its label (file or set), the kinds
/// it counts under, and its outcome (a failure already described for
/// reproduction).
pub struct Done {
    pub label: String,
    pub kinds: Vec<String>,
    pub outcome: Result<Outcome, Failure>,
}

/// Run inputs `start..start + count` on `threads` threads (input `i` goes to
/// thread `i % threads`) with `input(i, trace)`, printing progress every
/// `progress` (if any); an input slower than `slow` is a failure. `trace`
/// (from the environment variable named `trace_env`) asks `input` to name
/// the input before it runs, to find the input of an abort such as a stack
/// overflow.
pub fn run(
    start: u64,
    count: u64,
    threads: usize,
    progress: Option<Duration>,
    slow: Option<Duration>,
    trace_env: &str,
    input: &(dyn Fn(u64, bool) -> Done + Sync),
) -> Report {
    let t0 = Instant::now();
    let threads = threads.max(1) as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let trace = std::env::var_os(trace_env).is_some();
    let mut report = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                // Default stack size of spawned threads (2 MiB): stricter
                // than the main thread of the CLI.
                scope.spawn(move || {
                    let mut r = Report::default();
                    let mut last = Instant::now();
                    let mut i = start + t;
                    while i < start + count {
                        r.inputs += 1;
                        let began = Instant::now();
                        let mut d = input(i, trace);
                        let took = began.elapsed();
                        for k in d.kinds {
                            *r.kinds.entry(k).or_default() += 1;
                        }
                        if took > r.slowest.0 {
                            r.slowest = (took, i, d.label.clone());
                        }
                        if slow.is_some_and(|s| took > s) && d.outcome.is_ok() {
                            d.outcome = Err(Failure {
                                signature: "slow input".into(),
                                detail: format!(
                                    "input {i} ({}) took {:.1} s",
                                    d.label,
                                    took.as_secs_f64()
                                ),
                            });
                        }
                        match d.outcome {
                            Ok(Outcome::Clean) => r.clean += 1,
                            Ok(Outcome::Rejected(code, n)) => {
                                r.rejected += 1;
                                r.diagnostics += n as u64;
                                *r.first_codes.entry(code).or_default() += 1;
                            }
                            Err(f) => {
                                let e = r
                                    .failures
                                    .entry(f.signature.clone())
                                    .or_insert((0, f.detail));
                                if e.0 == 0 {
                                    eprintln!("FAILURE: {}\n{}", f.signature, e.1);
                                }
                                e.0 += 1;
                            }
                        }
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if let Some(every) = progress {
                            if t == 0 && last.elapsed() >= every {
                                last = Instant::now();
                                let secs = t0.elapsed().as_secs_f64();
                                eprintln!(
                                    "{n} / {count} inputs, {secs:.0} s, {:.0} inputs/s",
                                    n as f64 / secs
                                );
                            }
                        }
                        i += threads;
                    }
                    r
                })
            })
            .collect();
        let mut total = Report::default();
        for h in handles {
            total.merge(h.join().expect("a mutation thread"));
        }
        total
    });
    report.elapsed = t0.elapsed();
    report
}

/// `u64` from the environment variable `name` (decimal, or hex after `0x`;
/// `_` separators allowed), `default` when it is unset.
pub fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => {
            let v = v.trim().replace('_', "");
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|e| panic!("{name}={v}: {e}"))
        }
        Err(_) => default,
    }
}

/// The checks of a short run: no failed check, and the mutations neither
/// break every input nor leave every input valid (some clean, some
/// rejected).
pub fn assert_short_run(report: &Report) {
    assert_eq!(report.failed(), 0, "{}", report.summary());
    assert!(
        report.clean > 0 && report.rejected > 0,
        "{}",
        report.summary()
    );
}

/// A long run named `what`, its size from the environment: inputs from
/// `{prefix}S` (default `count`), seed from `{prefix}_SEED` (default
/// `seed`), first input from `{prefix}_START`, threads from
/// `{prefix}_THREADS` (default 1). `run(seed, start, count, threads,
/// progress)` runs the inputs; any failed check fails the test.
pub fn long_run(
    what: &str,
    prefix: &str,
    count: u64,
    seed: u64,
    run: impl Fn(u64, u64, u64, usize, Option<Duration>) -> Report,
) {
    let count = env_u64(&format!("{prefix}S"), count);
    let seed = env_u64(&format!("{prefix}_SEED"), seed);
    let start = env_u64(&format!("{prefix}_START"), 0);
    let threads = env_u64(&format!("{prefix}_THREADS"), 1) as usize;
    eprintln!(
        "{what} run: seed {seed:#x}, inputs {start}..{}, {threads} thread(s)",
        start + count
    );
    let report = run(seed, start, count, threads, Some(Duration::from_secs(30)));
    eprintln!("{}", report.summary());
    assert_eq!(report.failed(), 0, "failed checks: see above");
}
