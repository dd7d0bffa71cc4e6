//! What the perfregs crates' tests share, so that each test file does not
//! write it again: a seeded generator ([`Rng`], [`XorShift`]), running a
//! built binary ([`run`]), temporary files ([`TempFile`]), register look-ups (`reg`, `val`, feature
//! `meta`), IGT's TestOa expectations ([`check_test_oa_ratios`]), and
//! protobuf messages read by their `.proto` schema ([`proto`]: Perfetto
//! traces decoded by Perfetto's own `.proto` files).
//!
//! A dev-dependency only (`publish = false`, a path without a version, which
//! cargo drops from the packages of the crates that use it).

pub mod proto;

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// xorshift64*: a small deterministic generator, so seeded sequences of
/// operations are the same on every run. The state must not be zero.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    #[allow(clippy::should_implement_trait)] // an endless stream, not an iterator
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below64(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `v` (None when it is empty).
    pub fn try_pick<T: Copy>(&mut self, v: &[T]) -> Option<T> {
        let i = self.below(v.len());
        v.get(i).copied()
    }

    /// One of `items`.
    ///
    /// # Panics
    /// When `items` is empty.
    #[track_caller]
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// One item of the concatenation of `parts`, each item equally likely.
    ///
    /// # Panics
    /// When every part is empty.
    #[track_caller]
    pub fn pick_in<T: Copy>(&mut self, parts: &[&[T]]) -> T {
        let mut i = self.below(parts.iter().map(|p| p.len()).sum());
        for p in parts {
            if i < p.len() {
                return p[i];
            }
            i -= p.len();
        }
        panic!("pick_in: no items")
    }

    /// The stream of input `index` of a run with `seed`: SplitMix64 of the
    /// two (never zero), so input `index` is reproduced alone, in any thread.
    pub fn for_input(seed: u64, index: u64) -> Rng {
        Rng(splitmix(seed ^ splitmix(index)) | 1)
    }

    /// The stream that starts from `state` (not zero).
    pub fn from_state(state: u64) -> Rng {
        Rng(state)
    }
}

/// SplitMix64's output function.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The plain xorshift64 (13, 7, 17) of Marsaglia: the state itself is the
/// value. The state must not be zero.
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The state the tests start from when they need no other.
    pub const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

    /// The next value (the new state).
    #[allow(clippy::should_implement_trait)] // an endless stream, not an iterator
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next value modulo `n` (0 when `n` is 0 or 1).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Run `cmd` (a built binary, `env!("CARGO_BIN_EXE_...")` in the test):
/// its exit code (-1 when a signal ended it), stdout and stderr.
///
/// # Panics
/// When the command cannot be started.
#[track_caller]
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("run {:?}: {e}", cmd.get_program()));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Assert that `text` contains `part`, saying `text` when it does not.
#[track_caller]
pub fn says(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}

/// Register `name` of `p`.
///
/// # Panics
/// With the project and the name, when `p` has no such register.
#[cfg(feature = "meta")]
#[track_caller]
pub fn reg(p: &hal::meta::ProjectInfo, name: &str) -> &'static hal::meta::RegisterInfo {
    p.register(name)
        .unwrap_or_else(|| panic!("{} has no register {name}", p.name))
}

/// A value of register `name` of `p` from `(field, value)` pairs, the
/// positions from the metadata (a value wider than its field is cut).
///
/// # Panics
/// When the register or a field does not exist.
#[cfg(feature = "meta")]
#[track_caller]
pub fn val(p: &hal::meta::ProjectInfo, name: &str, fields: &[(&str, u64)]) -> u64 {
    let r = reg(p, name);
    fields.iter().fold(0u64, |v, &(f, x)| {
        let fi = r
            .field(f)
            .unwrap_or_else(|| panic!("{}: {name} has no field {f}", p.name));
        v | ((x << fi.lsb) & fi.mask())
    })
}

/// How near a TestOa counter must be to its share of the clock.
#[derive(Clone, Copy, Debug)]
pub enum Within {
    /// At most this many counts from `clock * num / den` rounded down.
    Counts(u64),
    /// At most this many counts from the exact `clock * num / den`
    /// (`|got * den - clock * num| <= n * den`).
    Exact(u64),
}

impl Within {
    /// Whether `got` is `num / den` of `clock`, this near.
    pub fn holds(self, got: u64, clock: u64, num: u64, den: u64) -> bool {
        match self {
            Within::Counts(n) => got.abs_diff(clock * num / den) <= n,
            Within::Exact(n) => (got * den).abs_diff(clock * num) <= n * den,
        }
    }
}

/// IGT's TestOa shares of the GPU clock, counters 3 to 7: (counter, num, den).
pub const TEST_OA_SHARES: [(usize, u64, u64); 5] =
    [(3, 1, 2), (4, 1, 3), (5, 1, 3), (6, 1, 6), (7, 2, 3)];

/// IGT's TestOa expectations on counters numbered 0 to 7 (`counter(n)`):
/// counter 0 = 0, counters 1 and 2 = `clock` (> 0), counter 3 = clock/2,
/// counters 4 and 5 = clock/3, counter 6 = clock/6, counter 7 = 2 clock/3,
/// the last five `within` the given distance. `what` names the sample in
/// failure messages.
///
/// # Panics
/// When an expectation does not hold.
#[track_caller]
pub fn check_test_oa(what: &str, clock: u64, counter: impl Fn(usize) -> u64, within: Within) {
    assert!(clock > 0, "{what}: the GPU clock delta is 0");
    assert_eq!(counter(0), 0, "{what}: Counter0");
    assert_eq!(counter(1), clock, "{what}: Counter1");
    assert_eq!(counter(2), clock, "{what}: Counter2");
    for (n, num, den) in TEST_OA_SHARES {
        let got = counter(n);
        assert!(
            within.holds(got, clock, num, den),
            "{what} Counter{n}: {got}, want {num}/{den} of {clock} clocks ({within:?})"
        );
    }
}

/// [`check_test_oa`] on a metric set's counters by name (`GpuCoreClocks`,
/// `Counter0` .. `Counter7`), the last five within `tolerance` counts of the
/// rounded-down share.
///
/// # Panics
/// When an expectation does not hold.
#[track_caller]
pub fn check_test_oa_ratios(what: &str, counter: impl Fn(&str) -> u64, tolerance: u64) {
    check_test_oa(
        what,
        counter("GpuCoreClocks"),
        |n| counter(&format!("Counter{n}")),
        Within::Counts(tolerance),
    );
}

/// A fresh path in the temp folder, unique to this process and call, its
/// file name ending in `name` (`oa-decode.bin`); the file is removed on
/// drop, also when the test fails.
pub struct TempFile(pub PathBuf);

impl TempFile {
    /// The path; no file yet.
    pub fn new(name: &str) -> TempFile {
        static N: AtomicUsize = AtomicUsize::new(0);
        TempFile(std::env::temp_dir().join(format!(
            "perfregs-test-{}-{}-{name}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        )))
    }

    /// A file holding `bytes`.
    pub fn with(name: &str, bytes: &[u8]) -> TempFile {
        let t = TempFile::new(name);
        std::fs::write(&t.0, bytes).expect("write temp file");
        t
    }

    /// The path as an argument (temp paths are UTF-8 here).
    pub fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }

    /// What the file holds.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.0).expect("the temp file exists")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_the_published_streams() {
        // xorshift64* from 1: the first outputs of Vigna's reference.
        let mut r = Rng(1);
        assert_eq!(r.next(), 0x47E4_CE4B_896C_DD1D);
        let mut x = XorShift(1);
        assert_eq!(x.next(), 0x4082_2041);
        assert_eq!(r.below(0), 0);
        assert!(r.below(7) < 7);
    }

    #[test]
    fn test_oa_checks_can_fail() {
        let good = |n: usize| [0, 512, 512, 256, 171, 170, 85, 341][n];
        check_test_oa("good", 512, good, Within::Exact(1));
        let r = std::panic::catch_unwind(|| {
            check_test_oa(
                "bad",
                512,
                |n| if n == 6 { 87 } else { good(n) },
                Within::Exact(1),
            )
        });
        assert!(
            r.is_err(),
            "Counter6 = 87 of 512 clocks is more than 1 from 85.3"
        );
        // 169 is 1 from 170 (512 / 3 rounded down), not within 1 of 170.67.
        let c4 = |n: usize| if n == 4 { 169 } else { good(n) };
        check_test_oa("rounded", 512, c4, Within::Counts(1));
        assert!(
            std::panic::catch_unwind(|| check_test_oa("exact", 512, c4, Within::Exact(1))).is_err()
        );
        assert!(
            std::panic::catch_unwind(|| check_test_oa("idle", 0, |_| 0, Within::Counts(9)))
                .is_err()
        );
    }

    #[test]
    fn run_gives_code_and_output() {
        let (code, out, _) = run(Command::new("sh").args(["-c", "echo hi; exit 3"]));
        assert_eq!((code, out.as_str()), (3, "hi\n"));
    }
}
