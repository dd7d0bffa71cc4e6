//! Every OA and FLEX register value of the shipped metric sets
//! (`perfregs_regdefs::METRIC_SETS`, IGT's XML) fits its register description:
//! the address names a described register of the set's project, and no set bit
//! lies outside every field or inside a reserved / must-be-zero field.
//!
//! NOA (mux) addresses are skipped: their registers are described elsewhere
//! and their values are opaque mux programming.

use perfregs::hal::meta::{AccessKind, ProjectInfo, SpaceKind};
use perfregs::hal::PROJECTS;

/// NOA addresses, not checked here.
fn is_noa(project: &str, address: u64) -> bool {
    matches!(address, 0x9840 | 0x9884 | 0x9888)
        || (0x91B8..=0x91CC).contains(&address)
        || (0x0D00..=0x0D2C).contains(&address)
        || (project == "hsw" && (0x25100..=0x2FF90).contains(&address))
}

/// `(address, value)` of every `<register ... address="0x.." value="0x.."/>`.
fn pairs(xml: &str) -> Vec<(u64, u64)> {
    let hex = |s: &str, key: &str| -> Option<u64> {
        let at = s.find(key)? + key.len();
        let end = s[at..].find('"')? + at;
        let digits = s[at..end]
            .strip_prefix("0x")
            .or_else(|| s[at..end].strip_prefix("0X"))?;
        Some(u64::from_str_radix(digits, 16).expect("hex value"))
    };
    xml.split("<register ")
        .skip(1)
        .map(|r| {
            let tag = &r[..r.find('>').expect("closed tag")];
            let a = hex(tag, "address=\"").expect("an address");
            let v = hex(tag, "value=\"").expect("a value");
            (a, v)
        })
        .collect()
}

/// Why `value` does not fit the register at `address` (empty: it fits).
fn misfits(p: &ProjectInfo, address: u64, value: u64) -> Vec<String> {
    let Some(r) = p.at(SpaceKind::Mmio, address) else {
        return vec![format!("{address:#x}: no {} register here", p.name)];
    };
    let mut out = Vec::new();
    if r.width < 64 && value >> r.width != 0 {
        out.push(format!(
            "{}: {value:#x} wider than {} bits",
            r.name, r.width
        ));
    }
    let mut covered = 0u64;
    for f in r.fields {
        let mask = (u64::MAX >> (64 - f.width)) << f.lsb;
        covered |= mask;
        if value & mask != 0 && matches!(f.access, AccessKind::Mbz | AccessKind::Rsvd) {
            out.push(format!(
                "{}: {value:#x} sets {} bits of {} ({}:{})",
                r.name,
                f.access.as_str(),
                f.name,
                f.lsb + f.width - 1,
                f.lsb
            ));
        }
    }
    if value & !covered != 0 {
        out.push(format!(
            "{}: {value:#x} sets bits {:#x} outside every field",
            r.name,
            value & !covered
        ));
    }
    out
}

fn project(name: &str) -> &'static ProjectInfo {
    PROJECTS
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no project {name}"))
}

#[test]
fn every_oa_and_flex_value_fits_its_description() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for (file, proj, xml) in perfregs_regdefs::METRIC_SETS {
        let p = project(proj);
        let mut seen = std::collections::BTreeSet::new();
        for (a, v) in pairs(xml) {
            if is_noa(proj, a) || !seen.insert((a, v)) {
                continue;
            }
            checked += 1;
            bad.extend(misfits(p, a, v).into_iter().map(|m| format!("{file}: {m}")));
        }
    }
    assert!(checked > 300, "only {checked} distinct values checked");
    assert!(bad.is_empty(), "{} misfits:\n{}", bad.len(), bad.join("\n"));
}

/// The check itself finds what it should.
#[test]
fn the_check_catches_misfits() {
    let bdw = project("bdw");
    // OASTARTTRIG2 bit 24 is MBZ.
    assert_eq!(misfits(bdw, 0x2714, 1 << 24).len(), 1);
    assert!(misfits(bdw, 0x2714, 0xF080_0000).is_empty());
    // OAREPORTTRIG2 bits 30:24 are in no field.
    assert_eq!(misfits(bdw, 0x2744, 1 << 25).len(), 1);
    // An address no register has.
    assert_eq!(misfits(bdw, 0x2700, 0).len(), 1);
    assert!(is_noa("hsw", 0x25100) && !is_noa("bdw", 0x25100));
    let xml = r#"<register type="OA" address="0x00002710" value="0x0000000A" />"#;
    assert_eq!(pairs(xml), [(0x2710, 0xA)]);
}
