//! The metric-set front end on the four shipped files (clean) and on damaged
//! copies (each failing with its code at its line).

use perfregs_codegen::diag::{Diagnostic, Diagnostics};
use perfregs_codegen::metrics::equation::{self, CheckedFile, ExprKind, ReportCaps, Source, Type};
use perfregs_codegen::metrics::model::MetricFile;
use perfregs_codegen::metrics::xml;
use perfregs_codegen::Ir;
use std::path::Path;
use std::sync::OnceLock;

fn ir() -> &'static Ir {
    static IR: OnceLock<Ir> = OnceLock::new();
    IR.get_or_init(|| {
        perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir()))
            .expect("shipped descriptions")
    })
}

fn front(
    file: &str,
    project: &str,
    text: &str,
) -> Result<(MetricFile, CheckedFile), Vec<Diagnostic>> {
    let mut d = Diagnostics::default();
    let caps = equation::FormatCaps::of(ir(), project).expect("project with report formats");
    let f = xml::read(file, text, &mut d);
    let checked = f
        .as_ref()
        .and_then(|f| equation::check_file(f, &caps, &errata(), &mut d));
    match (f, checked) {
        (Some(f), Some(c)) if d.is_empty() => Ok((f, c)),
        _ => Err(d.sorted()),
    }
}

/// The shipped errata (`regdefs/metricsets/errata.yaml`).
fn errata() -> Vec<perfregs_codegen::metrics::errata::Erratum> {
    perfregs_codegen::metrics::errata::parse(
        perfregs_codegen::metrics::errata::FILE,
        perfregs_regdefs::METRIC_ERRATA,
    )
    .expect("errata.yaml")
}

fn shipped(name: &str) -> (&'static str, &'static str, &'static str) {
    *perfregs_regdefs::METRIC_SETS
        .iter()
        .find(|(f, _, _)| f.ends_with(name))
        .expect("shipped file")
}

#[test]
fn report_caps_follow_the_formats() {
    let hsw = ReportCaps::of(ir(), "hsw").expect("hsw");
    let bdw = ReportCaps::of(ir(), "bdw").expect("bdw");
    let tgl = ReportCaps::of(ir(), "tgl").expect("tgl");
    assert_eq!(
        (hsw.a, hsw.b, hsw.c, hsw.gpu_time, hsw.gpu_clock),
        (45, 8, 8, true, false)
    );
    assert_eq!((bdw.b, bdw.c, bdw.gpu_clock), (8, 8, true));
    assert!(bdw.a >= 36 && tgl.a >= 36, "{bdw:?} {tgl:?}");
    assert!(ReportCaps::of(ir(), "p4").is_none());
}

#[test]
fn shipped_files_are_clean() {
    let mut totals = (0, 0, 0, 0);
    for (file, project, text) in perfregs_regdefs::METRIC_SETS {
        let (f, c) = match front(file, project, text) {
            Ok(x) => x,
            Err(d) => panic!("{file}: {}", Diagnostics(d)),
        };
        assert_eq!(f.sets.len(), c.sets.len());
        totals.0 += f.sets.len();
        totals.1 += f.sets.iter().map(|s| s.counters.len()).sum::<usize>();
        totals.2 += c.equations;
        totals.3 += f
            .sets
            .iter()
            .flat_map(|s| &s.configs)
            .map(|c| c.writes.len())
            .sum::<usize>();
    }
    // Counted independently of this reader (XML attribute counts of the 28
    // files, Python's ElementTree): 858 sets, 18103 counters, 18103
    // equations + 7512 max equations + 3069 counter availabilities + 27
    // config availabilities, 68051 register writes.
    assert_eq!(totals, (858, 18103, 18103 + 7512 + 3069 + 27, 68051));
}

#[test]
fn test_oa_shape() {
    for name in ["oa-bdw.xml", "oa-tglgt1.xml", "oa-tglgt2.xml"] {
        let (file, project, text) = shipped(name);
        let (f, c) = front(file, project, text).expect("clean");
        let i = f
            .sets
            .iter()
            .position(|s| s.symbol_name == "TestOa")
            .expect("TestOa");
        let (s, cs) = (&f.sets[i], &c.sets[i]);
        assert_eq!(s.underscore_name, "test_oa");
        let syms: Vec<&str> = s.counters.iter().map(|c| c.symbol_name.as_str()).collect();
        let mut expect = vec![
            "GpuTime".to_string(),
            "GpuCoreClocks".into(),
            "AvgGpuCoreFrequency".into(),
        ];
        let n = if name == "oa-bdw.xml" { 9 } else { 10 };
        expect.extend((0..n).map(|k| format!("Counter{k}")));
        assert_eq!(syms, expect, "{name}");
        // Counter8 (and Counter9 on TGL) read C counters: C7 on BDW, C0/C1 on TGL.
        let c8 = if name == "oa-bdw.xml" { 7 } else { 0 };
        assert_eq!(
            cs.counters[11].equation.expr.kind,
            ExprKind::Read(Source::C, c8)
        );
        let kinds: Vec<&str> = s.configs.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(
            kinds,
            if name == "oa-bdw.xml" {
                &["NOA", "OA"][..]
            } else {
                &["NOA", "OA", "FLEX"][..]
            }
        );
        // CounterN reads B N.
        for (k, cc) in cs.counters.iter().enumerate().skip(3).take(8) {
            assert_eq!(cc.ty, Type::Int);
            assert_eq!(
                cc.equation.expr.kind,
                ExprKind::Read(Source::B, (k - 3) as u64),
                "{name} {k}"
            );
        }
        // AvgGpuCoreFrequency = $GpuCoreClocks 1000000000 UMUL $GpuTime UDIV, max $GpuMaxFrequency.
        let avg = &cs.counters[2];
        let mut refs = Vec::new();
        avg.equation.expr.visit(&mut |e| {
            if let ExprKind::Counter(k) = e.kind {
                refs.push(k)
            }
        });
        assert_eq!(refs, [1, 0], "{name}");
        assert!(avg.max.is_some());
        assert!(!s.configs.is_empty() && s.configs.iter().all(|c| !c.writes.is_empty()));
    }
}

/// Line and column (1-based) of the first occurrence of `needle` in `text`.
fn locate(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).expect("needle in text");
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, col)
}

fn first(d: &[Diagnostic]) -> (&'static str, usize, usize) {
    (d[0].code.as_str(), d[0].pos.line, d[0].pos.column)
}

#[test]
fn damaged_copies_fail_at_the_right_line() {
    let (file, project, text) = shipped("oa-bdw.xml");
    // The first GpuTime equation (RenderBasic).
    let eq = r#"equation="GPU_TIME 0 READ 1000000000 UMUL $GpuTimestampFrequency UDIV""#;
    let (l, c) = locate(text, eq);
    // Unknown token: PR204 at the token (`UMULX` is the 5th token, value starts at column c + 10).
    let broken = text.replacen(eq, &eq.replace("UMUL", "UMULX"), 1);
    let d = front(file, project, &broken).expect_err("broken equation");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        first(&d),
        ("PR204", l, c + 10 + "GPU_TIME 0 READ 1000000000 ".len())
    );
    assert!(
        d[0].message.contains("UMULX") && d[0].item == "RenderBasic.GpuTime",
        "{}",
        d[0]
    );
    // Unknown variable: PR205.
    let broken = text.replacen(
        eq,
        &eq.replace("$GpuTimestampFrequency", "$GpuTimestampFreq"),
        1,
    );
    let d = front(file, project, &broken).expect_err("unknown variable");
    assert_eq!(
        first(&d),
        (
            "PR205",
            l,
            c + 10 + "GPU_TIME 0 READ 1000000000 UMUL ".len()
        )
    );
    // A read the BDW reports lack: PR205.
    let broken = text.replacen(eq, &eq.replace("GPU_TIME 0 READ", "B 8 READ"), 1);
    let d = front(file, project, &broken).expect_err("B8");
    assert_eq!(first(&d), ("PR205", l, c + 10 + "B 8 ".len()));
    // Unknown register type: PR203 at the type's value.
    let reg = r#"<register type="OA" address="0x00002724""#;
    let (l, c) = locate(text, reg);
    let broken = text.replacen(reg, &reg.replace("\"OA\"", "\"OAX\""), 1);
    let d = front(file, project, &broken).expect_err("unknown type");
    assert_eq!(first(&d), ("PR203", l, c + r#"<register type=""#.len()));
    // Malformed XML: PR201 at the line where the parser stopped.
    let (l, _) = locate(text, eq);
    let broken = text.replacen(eq, "equation=\"A 1 READ", 1);
    let d = front(file, project, &broken).expect_err("malformed");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code.as_str(), "PR201");
    assert!(d[0].pos.line > l, "{}", d[0]);
    // HSW reads no GPU_CLOCK: the BDW TestOa equation in the HSW file fails.
    let (hfile, hproject, htext) = shipped("oa-hsw.xml");
    let heq = htext.find("equation=\"").expect("an equation");
    let mut damaged = htext.to_string();
    let end = heq + 10 + htext[heq + 10..].find('"').expect("closing quote");
    damaged.replace_range(heq..=end, "equation=\"GPU_CLOCK 0 READ\"");
    let d = front(hfile, hproject, &damaged).expect_err("HSW has no GPU clock");
    assert_eq!(first(&d).0, "PR205");
    assert!(d[0].message.contains("GPU_CLOCK 0"), "{}", d[0]);
}
