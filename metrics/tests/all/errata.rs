//! The errata of regdefs/metricsets/errata.yaml give the values IGT's C
//! gives, in both the generated code and the interpreter of
//! `perfregs-codegen` (which `agree.rs` holds to each other, so a change
//! made to both would pass there): `truncate_to_uint` truncates toward
//! zero, it does not round.

use perfregs_codegen::metrics::interp::{self, Value as IValue};
use perfregs_metrics::{DeviceInfo, Sample, Value};
use std::path::Path;

/// ICL and EHL ComputeBasic.TypedAtomics: `(B4 + B5) / 2 * $EuSubslicesTotalCount`
/// in double, returned as uint64 (IGT's C: truncation toward zero).
#[test]
fn truncate_to_uint_truncates_in_generated_code_and_interpreter() {
    let ir =
        perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir())).expect("descriptions");
    // (B4, B5, EuSubslicesTotalCount) -> the float, then the uint64.
    let cases: [(u64, u64, u64, f64, u64); 6] = [
        (3, 4, 1, 3.5, 3),
        (1, 0, 1, 0.5, 0),
        (2, 3, 3, 7.5, 7),
        (5, 6, 1, 5.5, 5),
        (9, 10, 7, 66.5, 66),
        (4, 4, 1, 4.0, 4),
    ];
    let errata = perfregs_codegen::metrics::errata::parse(
        perfregs_codegen::metrics::errata::FILE,
        perfregs_regdefs::METRIC_ERRATA,
    )
    .expect("errata.yaml");
    let mut checked = 0;
    for project in ["icl", "ehl"] {
        let (file, _, text) = perfregs_regdefs::METRIC_SETS
            .iter()
            .find(|(_, p, _)| *p == project)
            .expect("a shipped file");
        let loaded = perfregs_codegen::metrics::load(&ir, project, file, text, &errata)
            .expect("a clean file");
        let k = loaded
            .file
            .sets
            .iter()
            .position(|s| s.symbol_name == "ComputeBasic")
            .expect("ComputeBasic");
        let i = loaded.file.sets[k]
            .counters
            .iter()
            .position(|c| c.symbol_name == "TypedAtomics")
            .expect("TypedAtomics");
        let cs = &loaded.checked.sets[k];
        let generated = perfregs_metrics::FILES
            .iter()
            .find(|(f, p, _)| f == file && *p == project)
            .and_then(|(_, _, sets)| sets.iter().find(|s| s.symbol == "ComputeBasic"))
            .and_then(|s| s.counter("TypedAtomics"))
            .expect("generated TypedAtomics");
        for (b4, b5, subslices, float, want) in cases {
            assert_eq!((b4 + b5) as f64 / 2.0 * subslices as f64, float);
            let mut s = Sample::EMPTY;
            s.b[4] = Some(b4);
            s.b[5] = Some(b5);
            let d = DeviceInfo {
                eu_subslices_total_count: subslices,
                ..DeviceInfo::default()
            };
            let what = format!("{project} TypedAtomics of {float}");
            assert_eq!(generated.value(&s, &d), Some(Value::U64(want)), "{what}");
            assert_eq!(
                interp::counter(cs, i, &s, &d),
                Some(IValue::Int(want)),
                "{what}, interpreted"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * cases.len());
}
