//! Cross-check the generated HAL against the PRM text itself: every
//! OAPERF_An / OAPERF_Bn / CECn-m heading in PRM 000 is followed by its
//! address(es); each must match the HAL's address for that register. The only
//! exceptions are the PRM typos recorded (with `note:`) in regdefs.

use perfregs::hal::meta::{ProjectInfo, SpaceKind};
use perfregs::hal::{hsw, ivb, snb, vlv};
use std::path::Path;

const PRM_000: &str = "../shared/prm/000_dc608fbea3076705.txt";

/// PRM typos we override, each with a `note:` in regdefs: (heading, PRM address, ours).
const KNOWN_TYPOS: &[(&str, u64, u64)] = &[("OAPERF_A31", 0x278C, 0x287C)];

/// Headings the OCR lost entirely (only the description's "counter A4" survives);
/// regdefs gives them the array stride's address.
const LOST_IN_OCR: &[(&str, u64)] = &[("OAPERF_A4", 0x2810)];

/// Every `XXXXXh` (five hex digits and an `h`) not preceded by a hex digit.
fn hex_addresses(s: &str) -> Vec<u64> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len().saturating_sub(5) {
        let word = &b[i..i + 5];
        if b[i + 5] == b'h'
            && word
                .iter()
                .all(|c| c.is_ascii_digit() || (b'A'..=b'F').contains(c))
            && (i == 0 || !b[i - 1].is_ascii_hexdigit())
        {
            if let Ok(a) = u64::from_str_radix(std::str::from_utf8(word).unwrap_or(""), 16) {
                out.push(a);
            }
        }
    }
    out
}

fn prm_text() -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(PRM_000);
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        // CI always has ../shared beside the checkout; a user's clone may not.
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("skipping PRM cross-check: {}: {e}", path.display());
            None
        }
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// (register name as in the HAL, addresses in order of appearance) per heading.
fn headings(text: &str) -> Vec<(String, Vec<u64>)> {
    let mut out: Vec<(String, Vec<u64>)> = Vec::new();
    for line in text.lines() {
        let clean = line.replace(['\\', '*', '#'], "");
        let clean = clean.trim();
        let name = if let Some(rest) = clean
            .strip_prefix("OAPERF_")
            .or_else(|| clean.strip_prefix("OAPERF "))
        {
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            rest[id.len()..]
                .trim_start()
                .starts_with("- ")
                .then(|| format!("OAPERF_{id}"))
        } else if clean.starts_with("CEC") && clean.contains(" - Customizable Event Creation") {
            clean.get(..6).map(|s| s.replace('-', "_"))
        } else {
            None
        };
        if let Some(name) = name {
            if out.last().is_none_or(|(n, _)| *n != name) {
                out.push((name, Vec::new()));
            }
        }
        // Addresses look like `02800h`; OCR sometimes splits one with a tab (`02\t8ACh`).
        if let Some((_, addrs)) = out.last_mut() {
            let mut found = hex_addresses(line);
            if line.contains("Address") {
                found.extend(hex_addresses(&line.replace(['\t', ' '], "")));
            }
            for a in found {
                if (0x2000..0x3000).contains(&a) && !addrs.contains(&a) {
                    addrs.push(a);
                }
            }
        }
    }
    out
}

fn addr(p: &ProjectInfo, name: &str) -> Option<u64> {
    p.register(name)
        .filter(|r| r.space == SpaceKind::Mmio)
        .map(|r| r.address)
}

#[test]
fn prm_000_addresses_match_the_hal() {
    let Some(text) = prm_text() else { return };
    let found = headings(&text);
    let oaperf = found
        .iter()
        .filter(|(n, _)| n.starts_with("OAPERF_"))
        .count();
    let cec = found.iter().filter(|(n, _)| n.starts_with("CEC")).count();
    assert_eq!(
        (oaperf, cec),
        (45 + 8 - LOST_IN_OCR.len(), 16),
        "headings found: {found:?}"
    );
    for (name, ours) in LOST_IN_OCR {
        assert!(
            found.iter().all(|(n, _)| n != name),
            "{name} is in the PRM text after all"
        );
        assert_eq!(addr(&hsw::PROJECT, name), Some(*ours), "{name}");
    }
    let mut checked = 0;
    for (name, addrs) in &found {
        assert!(
            !addrs.is_empty(),
            "{name}: no address found after its heading"
        );
        let hsw_addr = addr(&hsw::PROJECT, name).unwrap_or_else(|| panic!("{name} missing on hsw"));
        // The HSW address is the last one listed (CEC lists SNB/IVB first).
        let prm = *addrs.last().unwrap_or(&0);
        match KNOWN_TYPOS.iter().find(|(n, _, _)| n == name) {
            Some((_, typo, ours)) => assert_eq!(
                (prm, hsw_addr),
                (*typo, *ours),
                "{name}: typo entry out of date"
            ),
            None => assert_eq!(hsw_addr, prm, "{name}: PRM says {prm:#x} for hsw"),
        }
        if name.starts_with("CEC") && addrs.len() > 1 {
            for p in [&snb::PROJECT, &ivb::PROJECT, &vlv::PROJECT] {
                assert_eq!(addr(p, name), Some(addrs[0]), "{name} on {}", p.name);
            }
        }
        if name.starts_with("CEC") && addrs.len() == 1 {
            assert!(
                addr(&ivb::PROJECT, name).is_none(),
                "{name} is HSW-only in the PRM"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 68);
}

#[test]
fn oa_registers_sit_where_the_prm_says() {
    let Some(text) = prm_text() else { return };
    for (name, prm) in [
        ("OACONTROL", 0x2360),
        ("OASTATUS1", 0x2364),
        ("OASTATUS2", 0x2368),
        ("OABUFFER", 0x23B0),
    ] {
        assert!(
            text.contains(&format!("{:05X}h", prm)),
            "{name}: {prm:#x} not in the PRM"
        );
        for p in [&snb::PROJECT, &ivb::PROJECT, &vlv::PROJECT, &hsw::PROJECT] {
            assert_eq!(addr(p, name), Some(prm), "{name} on {}", p.name);
        }
    }
}

const PRM_003: &str = "../shared/prm/003_23e18c9962685655.txt";

/// One row of the PRM 003 "Force Wake and Steering Table", as the PRM prints it.
#[derive(Debug, PartialEq, Eq, Hash)]
struct FwRow {
    start: u64,
    end: u64,
    bytes: u64,
    wake: Option<String>,
    group: Option<String>,
    instances: u32,
    steering: String,
}

/// Rows parsed from the PRM text: `start end bytes [target yes/no group count steering]`.
fn prm_003_rows(text: &str) -> Vec<FwRow> {
    let is_hex8 = |t: &str| t.len() == 8 && t.bytes().all(|c| c.is_ascii_hexdigit());
    let mut rows = Vec::new();
    for line in text.lines() {
        // Some rows carry OCR residue (`<|...|>`) glued to the start address.
        let line = line.rsplit_once("|>").map_or(line, |(_, rest)| rest);
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(i) = tokens
            .windows(3)
            .position(|w| is_hex8(w[0]) && is_hex8(w[1]) && w[2].parse::<u64>().is_ok())
        else {
            continue;
        };
        let t = &tokens[i..];
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap_or(u64::MAX);
        let wake = t.get(3).map(|w| match *w {
            w if w.starts_with("VD") => format!("vdbox{}", &w[2..]),
            w if w.starts_with("VE") => format!("vebox{}", &w[2..]),
            w => w.to_ascii_lowercase(),
        });
        let replicated = t.get(4) == Some(&"Yes");
        rows.push(FwRow {
            start: hex(t[0]),
            end: hex(t[1]),
            bytes: t[2].parse().unwrap_or(0),
            wake,
            group: replicated
                .then(|| t.get(5).map(|g| g.to_ascii_lowercase()))
                .flatten(),
            instances: t.get(6).and_then(|n| n.parse().ok()).unwrap_or(1),
            steering: match t.get(7) {
                Some(&"-") | None => String::new(),
                Some(s) => s.to_string(),
            },
        });
    }
    rows
}

fn fnv(rows: impl Iterator<Item = String>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for r in rows {
        for b in r.bytes().chain([b'\n']) {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

fn row_key(
    start: u64,
    end: u64,
    wake: Option<&str>,
    group: Option<&str>,
    n: u32,
    steering: &str,
) -> String {
    format!(
        "{start:x} {end:x} {} {} {n} {steering}",
        wake.unwrap_or("reserved"),
        group.unwrap_or("-")
    )
}

#[test]
fn prm_003_force_wake_table_is_complete() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(PRM_003);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if std::env::var_os("CI").is_none() => {
            return eprintln!("skipping: {}: {e}", path.display())
        }
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let prm = prm_003_rows(&text);
    assert_eq!(prm.len(), 199, "rows parsed from the PRM");
    for r in &prm {
        assert_eq!(
            r.end - r.start + 1,
            r.bytes,
            "PRM row {:#x}: its own size column",
            r.start
        );
    }
    let ours = perfregs::hal::tgl::PROJECT.map;
    assert_eq!(ours.len(), prm.len(), "every PRM row is described");
    let prm_key = |p: &FwRow| {
        row_key(
            p.start,
            p.end,
            p.wake.as_deref(),
            p.group.as_deref(),
            p.instances,
            &p.steering,
        )
    };
    for (p, o) in prm.iter().zip(ours) {
        assert_eq!(
            row_key(o.start, o.end, o.wake, o.group, o.instances, o.steering),
            prm_key(p),
        );
    }
    let prm_sum = fnv(prm.iter().map(prm_key));
    let our_sum = fnv(ours
        .iter()
        .map(|o| row_key(o.start, o.end, o.wake, o.group, o.instances, o.steering)));
    assert_eq!(our_sum, prm_sum, "checksum of all rows");
    let reserved = ours.iter().filter(|r| r.wake.is_none()).count();
    assert_eq!(reserved, prm.iter().filter(|r| r.wake.is_none()).count());
}
