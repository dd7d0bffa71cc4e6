//! Metric-set register writes against the shipped descriptions: the
//! shipped IGT files (all 28) validate clean on their projects, and damaged copies
//! fail with the code at the XML line of the damage.

use perfregs_codegen::diag::Diagnostics;
use perfregs_codegen::metrics::errata::{self, Erratum};
use perfregs_codegen::metrics::{load, Loaded};
use perfregs_codegen::Ir;
use std::sync::OnceLock;

fn ir() -> &'static Ir {
    static IR: OnceLock<Ir> = OnceLock::new();
    IR.get_or_init(|| {
        perfregs_codegen::compile_path(std::path::Path::new(perfregs_regdefs::dir()))
            .unwrap_or_else(|d| panic!("shipped descriptions: {d:?}"))
    })
}

/// The shipped errata (`regdefs/metricsets/errata.yaml`), parsed once.
fn errata() -> &'static [Erratum] {
    static E: OnceLock<Vec<Erratum>> = OnceLock::new();
    E.get_or_init(|| {
        errata::parse(errata::FILE, perfregs_regdefs::METRIC_ERRATA).expect("errata.yaml")
    })
}

fn shipped(name: &str) -> (&'static str, &'static str) {
    perfregs_regdefs::METRIC_SETS
        .iter()
        .find(|(f, _, _)| f.ends_with(name))
        .map(|&(_, p, t)| (p, t))
        .unwrap_or_else(|| panic!("{name} is shipped"))
}

#[test]
fn shipped_files_validate_clean_with_counts() {
    // (file, writes, against fields, in opaque ranges, multicast)
    let mut got = Vec::new();
    for (file, project, text) in perfregs_regdefs::METRIC_SETS {
        let l: Loaded = load(ir(), project, file, text, errata())
            .unwrap_or_else(|d| panic!("{file}: {}", Diagnostics(d)));
        let sum = |f: fn(&perfregs_codegen::metrics::check::SetReport) -> usize| {
            l.reports.iter().map(f).sum::<usize>()
        };
        assert_eq!(sum(|r| r.findings), 0);
        assert_eq!(
            sum(|r| r.writes),
            sum(|r| r.against_fields) + sum(|r| r.opaque)
        );
        println!(
            "{file} ({project}): {} sets, {} writes: {} against fields, {} in opaque ranges, {} multicast; {} equations",
            l.reports.len(),
            sum(|r| r.writes),
            sum(|r| r.against_fields),
            sum(|r| r.opaque),
            sum(|r| r.multicast),
            l.checked.equations
        );
        got.push((
            file.rsplit('/').next().unwrap_or(file),
            sum(|r| r.writes),
            sum(|r| r.opaque),
        ));
    }
    got.sort();
    // Every write of every file counted (totals counted from the XML
    // itself: its <register> elements, and those inside the described
    // opaque ranges); the opaque ranges written are HSW's NOA unit, CHV's
    // one mux register outside the write port, 0xDD40 of OAG_LCE (DG2,
    // MTL) and MTL's media VISACTL.
    assert_eq!(
        got,
        vec![
            ("oa-acmgt1.xml", 91, 2),
            ("oa-acmgt2.xml", 79, 2),
            ("oa-acmgt3.xml", 75, 2),
            ("oa-adl.xml", 2363, 0),
            ("oa-bdw.xml", 3525, 0),
            ("oa-bmg.xml", 1840, 0),
            ("oa-bxt.xml", 1447, 0),
            ("oa-cflgt2.xml", 1504, 0),
            ("oa-cflgt3.xml", 1561, 0),
            ("oa-chv.xml", 1651, 1),
            ("oa-cnl.xml", 1632, 0),
            ("oa-dg1.xml", 2466, 0),
            ("oa-ehl.xml", 1900, 0),
            ("oa-glk.xml", 1321, 0),
            ("oa-hsw.xml", 302, 182),
            ("oa-icl.xml", 2005, 0),
            ("oa-kblgt2.xml", 1504, 0),
            ("oa-kblgt3.xml", 1561, 0),
            ("oa-lnl.xml", 1728, 0),
            ("oa-mtlgt2.xml", 9571, 229),
            ("oa-mtlgt3.xml", 17283, 331),
            ("oa-ptl.xml", 1726, 0),
            ("oa-rkl.xml", 1616, 0),
            ("oa-sklgt2.xml", 2062, 0),
            ("oa-sklgt3.xml", 1561, 0),
            ("oa-sklgt4.xml", 1615, 0),
            ("oa-tglgt1.xml", 1642, 0),
            ("oa-tglgt2.xml", 2420, 0),
        ]
    );
}

/// The shipped text with the `n`th occurrence of `from` replaced, and the
/// 1-based line of that occurrence.
fn damage(text: &str, from: &str, to: &str) -> (String, usize) {
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("`{from}` occurs in the file"));
    let line = text[..at].matches('\n').count() + 1;
    let mut s = String::with_capacity(text.len());
    s.push_str(&text[..at]);
    s.push_str(to);
    s.push_str(&text[at + from.len()..]);
    (s, line)
}

fn codes_at(project: &str, text: &str) -> Vec<(usize, String)> {
    match load(ir(), project, "damaged.xml", text, errata()) {
        Ok(_) => Vec::new(),
        Err(d) => d
            .iter()
            .map(|d| (d.pos.line, d.code.as_str().to_string()))
            .collect(),
    }
}

#[test]
fn damaged_copies_fail_at_the_xml_line() {
    let (project, text) = shipped("oa-bdw.xml");
    // (from, to, the code expected at the damaged line)
    #[rustfmt::skip]
    let cases = [
        // unaligned
        (r#"address="0x00002744" value="0x00800000""#, r#"address="0x00002746" value="0x00800000""#, "PR206"),
        // undescribed
        (r#"address="0x00002744" value="0x00800000""#, r#"address="0x00002F00" value="0x00800000""#, "PR206"),
        // reserved bit: CEC0_1 bits 31:16 are "considerations", so use
        // OASTARTTRIG2's MBZ bit 24.
        (r#"address="0x00002714" value="0xF0800000""#, r#"address="0x00002714" value="0xF1800000""#, "PR207"),
        // a value wider than the register
        (r#"address="0x00002744" value="0x00800000""#, r#"address="0x00002744" value="0x100800000""#, "PR207"),
        // a masked write without enables (the one masked mux register)
        (r#"address="0x00009840" value="0x000000A0""#, r#"address="0x000020CC" value="0x00000001""#, "PR208"),
        // an OA block writing a FLEX register
        (r#"type="OA" address="0x00002744""#, r#"type="OA" address="0x0000E458""#, "PR209"),
        // a register that is not a configuration register at all (OACONTROL)
        (r#"type="OA" address="0x00002744""#, r#"type="OA" address="0x00002B00""#, "PR209"),
        // a malformed equation
        (r#"equation="B 3 READ""#, r#"equation="B 3 READ UADD""#, "PR204"),
    ];
    for (from, to, code) in cases {
        let (bad, line) = damage(text, from, to);
        let got = codes_at(project, &bad);
        assert!(
            got.iter().any(|(l, c)| *l == line && c == code),
            "{to}: expected {code} at line {line}, got {got:?}"
        );
        assert!(
            got.iter().all(|(l, _)| *l == line),
            "{to}: only line {line} is damaged, got {got:?}"
        );
    }
}

#[test]
fn a_file_checked_on_the_wrong_project_is_refused() {
    // TGL's OA programming lives at 0xD900..; on BDW those are not described.
    let (_, text) = shipped("oa-tglgt2.xml");
    let got = codes_at("bdw", text);
    assert!(got.iter().any(|(_, c)| c == "PR206"), "{got:?}");
}

#[test]
fn hsw_noa_unit_writes_land_in_the_opaque_range() {
    let (project, text) = shipped("oa-hsw.xml");
    let (bad, line) = damage(
        text,
        r#"type="NOA" address="0x00025100""#,
        r#"type="OA" address="0x00025100""#,
    );
    let got = codes_at(project, &bad);
    // An OA register in a NOA block: PR203 from the reader; the block and
    // range disagree with the register type.
    assert!(got.iter().any(|(l, _)| *l == line), "{got:?}");
}

/// Every erratum of `regdefs/metricsets/errata.yaml` is applied by a shipped
/// file (none is stale), exactly where it says (by a file of each chipset
/// it lists, once), and nowhere else (no file of another chipset).
#[test]
fn every_erratum_is_used_and_only_where_it_says() {
    // (file, chipset of the set, item, erratum line)
    let mut applied = Vec::new();
    for (file, project, text) in perfregs_regdefs::METRIC_SETS {
        let l = load(ir(), project, file, text, errata())
            .unwrap_or_else(|d| panic!("{file}: {}", Diagnostics(d)));
        let file = file.rsplit('/').next().unwrap_or(file);
        for (item, e) in &l.checked.errata {
            assert_eq!(*item, format!("{}.{}", e.set, e.counter), "{file}");
            let chipset = l
                .file
                .sets
                .iter()
                .find(|s| s.symbol_name == e.set)
                .map(|s| s.chipset.clone())
                .unwrap_or_else(|| panic!("{file}: {item}: no set {}", e.set));
            assert!(
                e.chipsets.contains(&chipset),
                "{file}: erratum at errata.yaml line {} ({item}) applied on {chipset}, listed for {:?}",
                e.line,
                e.chipsets
            );
            applied.push((file, chipset, item.clone(), e.line));
        }
    }
    for e in errata() {
        for c in &e.chipsets {
            let n = applied
                .iter()
                .filter(|a| a.3 == e.line && a.1 == *c)
                .count();
            assert_eq!(
                n, 1,
                "erratum at errata.yaml line {} ({}.{}) is applied {n} times on {c}",
                e.line, e.set, e.counter
            );
        }
    }
    let listed: usize = errata().iter().map(|e| e.chipsets.len()).sum();
    applied.sort();
    assert_eq!(applied.len(), listed, "{applied:?}");
}

/// An erratum is for one equation text: the same counter with another
/// float equation still fails, at the equation.
#[test]
fn an_erratum_does_not_cover_another_equation() {
    let (project, text) = shipped("oa-icl.xml");
    let eq = "B 4 READ B 5 READ FADD 2 FDIV $EuSubslicesTotalCount FMUL";
    let (damaged, line) = damage(
        text,
        eq,
        "B 4 READ B 5 READ FADD 4 FDIV $EuSubslicesTotalCount FMUL",
    );
    assert_eq!(codes_at(project, &damaged), [(line, "PR205".to_string())]);
    // The shipped text passes with the erratum applied.
    assert_eq!(codes_at(project, text), []);
}
