//! The errata of the Xe files (regdefs/metricsets/errata.yaml), from the
//! list, not from a list of projects: each `igt_reads_header` counter reads
//! MPEC n (not IGT's accumulator value n, the timestamp delta for `A 0`),
//! generated and interpreted; each `variables:` entry is used by a shipped
//! file of its chipsets, and perfregs' value differs from IGT's on a part
//! where IGT's defect shows, both worked out by hand from the masks.

use perfregs_codegen::metrics::errata::{self, Fix};
use perfregs_codegen::metrics::interp::{self, Value as IValue};
use perfregs_metrics::{DeviceInfo, Sample};
use std::path::Path;

#[test]
fn media_a_reads_mpec_not_the_header() {
    let ir =
        perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir())).expect("descriptions");
    let list = errata::parse(errata::FILE, perfregs_regdefs::METRIC_ERRATA).expect("errata.yaml");
    let mut checked = 0;
    for (file, project, text) in perfregs_regdefs::METRIC_SETS {
        let Some((_, _, gsets)) = perfregs_metrics::FILES
            .iter()
            .find(|(f, p, _)| f == file && p == project)
        else {
            continue; // not compiled
        };
        let loaded =
            perfregs_codegen::metrics::load(&ir, project, file, text, &list).expect("clean");
        for (item, e) in &loaded.checked.errata {
            if e.fix != Fix::IgtReadsHeader {
                continue;
            }
            let (set, counter) = item.split_once('.').expect("Set.Counter");
            let k = loaded
                .file
                .sets
                .iter()
                .position(|s| s.symbol_name == set)
                .expect("set");
            let i = loaded.file.sets[k]
                .counters
                .iter()
                .position(|c| c.symbol_name == counter)
                .expect("counter");
            // `A n READ ...`: n from the equation text.
            let n: usize = e
                .equation
                .split_whitespace()
                .nth(1)
                .and_then(|t| t.parse().ok())
                .expect("A n");
            let mut s = Sample::EMPTY;
            s.gpu_time = Some(1_000_000); // IGT's `A 0`
            s.gpu_clock = Some(4_000); // IGT's `A 1`, and $GpuCoreClocks
            for (m, v) in s.mpec.iter_mut().enumerate() {
                *v = Some(100 + m as u64);
            }
            let d = DeviceInfo::default();
            let cs = &loaded.checked.sets[k];
            let g = gsets
                .iter()
                .find(|x| x.symbol == set)
                .and_then(|x| x.counter(counter))
                .expect("generated");
            let want = 100 + n as u64; // MPEC n
            let (gv, iv) = (g.value(&s, &d), interp::counter(cs, i, &s, &d));
            match (gv, iv) {
                (Some(perfregs_metrics::Value::U64(a)), Some(IValue::Int(b))) => {
                    assert_eq!((a, b), (want, want), "{file} {item}")
                }
                (Some(perfregs_metrics::Value::F64(a)), Some(IValue::Float(b))) => {
                    // MPEC n * 100 / GpuCoreClocks (4000).
                    let w = want as f64 * 100.0 / 4_000.0;
                    assert!(
                        (a - w).abs() < 1e-9 && (b - w).abs() < 1e-9,
                        "{file} {item}: {a} {b}"
                    )
                }
                other => panic!("{file} {item}: {other:?}"),
            }
            checked += 1;
        }
    }
    // Every listed igt_reads_header erratum was applied by a compiled file,
    // or its project is not compiled.
    let listed = list.iter().filter(|e| e.fix == Fix::IgtReadsHeader).count();
    if perfregs_metrics::FILES.iter().any(|(_, p, _)| *p == "lnl") {
        assert!(
            listed > 0 && checked >= listed,
            "{checked} checked, {listed} listed"
        );
    }
}

#[test]
fn variable_errata_are_used_and_differ_from_igt() {
    use perfregs_metrics::rt::TopologyVar as T;
    let vars = errata::parse_variables(errata::FILE, perfregs_regdefs::METRIC_ERRATA)
        .expect("errata.yaml");
    assert!(!vars.is_empty());
    for v in &vars {
        // Used by a shipped file of its chipsets.
        let used = perfregs_regdefs::METRIC_SETS.iter().any(|(_, _, text)| {
            v.chipsets
                .iter()
                .any(|c| text.contains(&format!("chipset=\"{c}\"")))
                && text
                    .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '$'))
                    .filter_map(|t| t.strip_prefix('$'))
                    .filter_map(T::parse)
                    .any(|t| v.matches(t))
        });
        assert!(
            used,
            "{} is used by no shipped file of {:?}",
            v.variable, v.chipsets
        );
    }
    // A part with slices 2 and 3 of 4 Xe cores each (Xe cores 8..15).
    let d = DeviceInfo {
        slice_mask: 0xc,
        subslice_mask: 0xff00,
        dual_subslice_mask: 0xff00,
        subslices_per_slice: 4,
        ..DeviceInfo::default()
    };
    let by = |name: &str| vars.iter().find(|v| v.variable == name).expect(name);
    // $GtSlice2: slice 2 is present; IGT: never.
    assert_eq!(
        (
            d.topology(T::Slice(2)),
            by("GtSlice<s>").igt_value(T::Slice(2), &d)
        ),
        (1, 0)
    );
    // $GtSlice2XeCore0 is Xe core 8 (present); IGT tests Xe core 0 (absent).
    let t = T::SliceXeCore(2, 0);
    assert_eq!(
        (d.topology(t), by("GtSlice<s>XeCore<n>").igt_value(t, &d)),
        (1, 0)
    );
    // A part of 20 Xe cores: $GtXeCore25 absent; IGT: Xe core 0, present.
    let b = DeviceInfo {
        dual_subslice_mask: 0xfffff,
        subslice_mask: 0xfffff,
        ..DeviceInfo::default()
    };
    let t = T::XeCore(25);
    assert_eq!((b.topology(t), by("GtXeCore<n>").igt_value(t, &b)), (0, 1));
}
