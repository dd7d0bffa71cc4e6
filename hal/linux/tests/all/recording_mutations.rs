//! The mutation run of `examples/mutate_recordings.rs`, CI-sized: 2,000
//! damaged recordings, none panics, every error located.

#[allow(dead_code)]
#[path = "../../examples/mutate_recordings.rs"]
mod mutate;

#[test]
fn two_thousand_damaged_recordings_never_panic_and_every_error_is_located() {
    let s = mutate::run(17, 2_000);
    assert_eq!(s.recordings, 2_000);
    assert!(s.ok(), "{s:?}");
    // The damage is real: most reads fail, in many ways, and some damage
    // (a flipped payload byte) leaves a valid recording.
    assert!(s.errors > 1_000, "{s:?}");
    assert!(s.clean > 0, "{s:?}");
    assert!(s.kinds.len() >= 8, "{:?}", s.kinds);
    for k in [
        "Framing::ZeroSize",
        "Framing::TruncatedRecord",
        "Framing::SampleSize",
        "Framing::UnknownKind",
    ] {
        assert!(s.kinds.contains_key(k), "no {k} in {:?}", s.kinds);
    }
}

#[test]
fn the_base_recordings_read_clean_and_the_run_is_seeded() {
    for (format, n) in [(10, 24), (8, 40), (3, 9)] {
        let b = mutate::base_recording(format, n);
        let (rec, err) = perfregs_linux::recording::read_all(&b);
        assert_eq!(err, None);
        assert_eq!(rec.samples, n as u64);
        assert!(rec.reports_lost > 0 && rec.buffers_lost > 0);
        assert_eq!(rec.igt_readable(), Ok(()));
    }
    assert_eq!(mutate::run(5, 300), mutate::run(5, 300));
}
