//! Checks shared by the workspace's tests (not part of the API).

/// IGT's TestOa expectations: Counter0 = 0, Counter1 = Counter2 =
/// GpuCoreClocks (> 0), Counter3 = clocks/2, Counter4/5 = clocks/3,
/// Counter6 = clocks/6, Counter7 = 2 clocks/3, the last five each within
/// `tolerance` counts. `counter` gives a counter's value by name; `what`
/// names the sample in failure messages.
///
/// # Panics
/// When an expectation does not hold.
#[track_caller]
pub fn check_test_oa_ratios(what: &str, counter: impl Fn(&str) -> u64, tolerance: u64) {
    let clock = counter("GpuCoreClocks");
    assert!(clock > 0, "{what}: GpuCoreClocks is 0");
    assert_eq!(counter("Counter0"), 0, "{what}: Counter0");
    assert_eq!(counter("Counter1"), clock, "{what}: Counter1");
    assert_eq!(counter("Counter2"), clock, "{what}: Counter2");
    for (name, num, den) in [
        ("Counter3", 1, 2),
        ("Counter4", 1, 3),
        ("Counter5", 1, 3),
        ("Counter6", 1, 6),
        ("Counter7", 2, 3),
    ] {
        let want = clock * num / den;
        let got = counter(name);
        assert!(
            got.abs_diff(want) <= tolerance,
            "{what} {name}: {got}, want {want} (+-{tolerance}) of {clock} clocks"
        );
    }
}
