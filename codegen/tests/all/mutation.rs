//! Long mutation run of the front end (ignored: outside CI). CI runs a short
//! run of the same mutations in `tests/all/diagnostics.rs`.
//!
//! ```text
//! CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
//!     cargo test -p perfregs-codegen --release --test all mutation:: -- --ignored --nocapture
//! ```
//!
//! (Overflow checks on, as in the debug builds of CI: without them an
//! arithmetic overflow wraps silently instead of panicking.)
//!
//! Environment: `PERFREGS_MUTATIONS` (inputs, default 1,000,000),
//! `PERFREGS_MUTATION_SEED` (decimal or `0x` hex, default [`SEED`]),
//! `PERFREGS_MUTATION_START` (first input index, default 0),
//! `PERFREGS_MUTATION_THREADS` (default 1). A failure prints its seed, index,
//! mutations and the damaged input, and the command that runs it alone.

use crate::support::harness;
use crate::support::mutate;

/// Default seed of the long run.
const SEED: u64 = 0x5EED_0FBA_D1DE_A000;

#[test]
#[ignore = "long run (minutes in --release): see codegen/README.md"]
fn long_run() {
    harness::long_run(
        "mutation",
        "PERFREGS_MUTATION",
        1_000_000,
        SEED,
        mutate::run,
    );
}

/// An input is a function of seed and index alone.
#[test]
fn inputs_are_reproducible() {
    let corpus = mutate::Corpus::load();
    for i in [0, 1, 77, 123_456] {
        let (a, b) = (
            mutate::make_case(&corpus, SEED, i),
            mutate::make_case(&corpus, SEED, i),
        );
        assert_eq!((a.base, a.route, &a.text), (b.base, b.route, &b.text));
        assert_eq!(a.mutations, b.mutations);
    }
    let other = mutate::make_case(&corpus, SEED ^ 1, 0);
    assert_ne!(other.text, mutate::make_case(&corpus, SEED, 0).text);
}

/// Every shipped file and fixture is in the corpus; every operator gets used.
#[test]
fn corpus_and_operators() {
    let corpus = mutate::Corpus::load();
    let names: Vec<&str> = corpus.files.iter().map(|f| f.name.as_str()).collect();
    for (n, _) in perfregs_regdefs::FILES {
        assert!(names.contains(&format!("regdefs/{n}").as_str()), "{n}");
    }
    for n in [
        "fixtures/ok.yaml",
        "fixtures/export/oa.yaml",
        "cases/array/input.yaml",
    ] {
        assert!(names.contains(&n), "{n}: {names:?}");
    }
    assert_eq!(corpus.files.iter().filter(|f| f.catalogue).count(), 1);
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..2000 {
        for m in mutate::make_case(&corpus, SEED, i).mutations {
            seen.insert(m.split([' ', ':']).next().unwrap_or("").to_string());
        }
    }
    for op in mutate::OPS {
        let word = match *op {
            "dup-line" => "duplicate",
            "swap-lines" => "swap",
            "delete-line" => "delete",
            "indent" => "re-indent",
            "bit-range" => "bit",
            "rename-key" => "key",
            "document" => "document",
            other => other,
        };
        assert!(seen.contains(word), "{op} never drawn: {seen:?}");
    }
}

/// Lines end at `\n`, `\r\n` or `\r`; a final line break opens an empty line.
#[test]
fn line_table() {
    let l = mutate::Lines::of("ab\r\ncde\rf\n");
    assert_eq!(l.count(), 4);
    assert_eq!(l.outside(1, 3), None);
    assert!(l.outside(1, 4).is_some());
    assert_eq!(l.outside(2, 4), None);
    assert_eq!(l.outside(4, 1), None);
    assert!(l.outside(4, 2).is_some());
    assert!(l.outside(5, 1).is_some());
    assert!(l.outside(0, 1).is_some());
    assert!(l.outside(1, 0).is_some());
    assert_eq!(mutate::Lines::of("é€x").outside(1, 4), None);
}
