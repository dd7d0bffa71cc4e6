//! Every register write of a metric set, checked against the descriptions of
//! its project.
//!
//! Assumes: the [`Ir`] passed validation and lowering (addresses aligned,
//! fields inside their registers, layouts by ascending lsb); the
//! [`MetricFile`] came from the XML reader (kinds parsed, numbers parsed).
//!
//! For each `<register>` of each `register_config` block:
//!
//! 1. the address is 4-byte aligned and is a described register of the
//!    project (an element of an array, or a dword of a 64-bit register) or
//!    lies in a described opaque range (PR206);
//! 2. the register (or range) is a configuration register of the block's
//!    kind: its `config:` is the block's `type` (PR209);
//! 3. for a described register, the value fits the register and sets no bit
//!    that no field covers, no MBZ/reserved bit and no read-only bit (PR207);
//! 4. for a masked register, every data bit (15:0) the value sets has its
//!    enable bit (n + 16), and the write enables something (PR208);
//! 5. a write to a replicated register is counted as multicast (it reaches
//!    every instance; the report shows it, it is not a finding).

use std::collections::HashMap;

use crate::access::AccessKind;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir::{ConfigKind, Ir, LayoutIr};
use crate::model::Space;

use super::model::{ConfigWrite, MetricFile, MetricSet};

/// What checking one set found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetReport {
    /// The set's `symbol_name`.
    pub set: String,
    /// Register writes in all its blocks.
    pub writes: usize,
    /// Writes checked field by field against a described register.
    pub against_fields: usize,
    /// Writes into a described opaque range (address and kind checked only).
    pub opaque: usize,
    /// Writes to a replicated register: they reach every instance.
    pub multicast: usize,
    /// Problems reported as diagnostics.
    pub findings: usize,
}

/// A described register dword at one address of one project.
#[derive(Clone, Copy)]
struct Target<'a> {
    /// Element name is built on demand from these.
    register: &'a crate::ir::RegisterIr,
    element: Option<u32>,
    layout: &'a LayoutIr,
    /// Bit of the register that the written dword's bit 0 lands on (0, or 32
    /// for the upper dword of a 64-bit register).
    shift: u32,
    replicated: bool,
}

impl Target<'_> {
    fn name(&self) -> String {
        match self.element {
            Some(n) => self.register.element_name(n),
            None => self.register.name.clone(),
        }
    }
}

/// The project's MMIO registers by dword address.
fn targets(ir: &Ir, project: usize) -> HashMap<u64, Target<'_>> {
    let mut map = HashMap::new();
    for r in ir.registers.iter().filter(|r| r.space == Space::Mmio) {
        for inst in r.instances.iter().filter(|i| i.project == project) {
            let Some(layout) = ir.layouts.get(inst.layout) else {
                continue;
            };
            let stride = r.array.map_or(0, |a| a.stride);
            for n in 0..inst.count {
                let base = inst.element_address(stride, n);
                let element = r.array.map(|_| n);
                for (k, shift) in [(0u64, 0u32), (4, 32)] {
                    if shift >= layout.width {
                        break;
                    }
                    map.insert(
                        base.wrapping_add(k),
                        Target {
                            register: r,
                            element,
                            layout,
                            shift,
                            replicated: inst.replication.is_some(),
                        },
                    );
                }
            }
        }
    }
    map
}

/// Bit list as `3, 5, 16..=18`.
fn bit_list(mask: u64) -> String {
    let mut out = Vec::new();
    let mut b = 0u32;
    while b < 64 {
        if mask >> b & 1 == 1 {
            let start = b;
            while b + 1 < 64 && mask >> (b + 1) & 1 == 1 {
                b += 1;
            }
            out.push(if start == b {
                start.to_string()
            } else {
                format!("{b}:{start}")
            });
        }
        b += 1;
    }
    out.join(", ")
}

/// Check every set of `file` against project `project` of `ir`; problems go
/// to `diags` at their XML positions. Returns one report per set. An unknown
/// project is one diagnostic at the file's start and no reports.
pub fn check_file(
    ir: &Ir,
    project: &str,
    file: &MetricFile,
    diags: &mut Diagnostics,
) -> Vec<SetReport> {
    let Some(p) = ir.catalogue.find(project) else {
        diags.push(Diagnostic {
            code: Code::UnknownProject,
            file: file.file.clone(),
            pos: Default::default(),
            item: String::new(),
            message: format!("no project `{project}` in the descriptions"),
        });
        return Vec::new();
    };
    let map = targets(ir, p);
    file.sets
        .iter()
        .map(|set| check_set(ir, p, &map, &file.file, set, diags))
        .collect()
}

fn check_set(
    ir: &Ir,
    p: usize,
    map: &HashMap<u64, Target<'_>>,
    file: &str,
    set: &MetricSet,
    diags: &mut Diagnostics,
) -> SetReport {
    let mut rep = SetReport {
        set: set.symbol_name.clone(),
        ..SetReport::default()
    };
    let project = ir
        .catalogue
        .projects
        .get(p)
        .map_or("?", |x| x.name.as_str());
    for block in &set.configs {
        for w in &block.writes {
            rep.writes += 1;
            let mut found = Vec::new();
            check_write(ir, p, project, map, block.kind, w, &mut rep, &mut found);
            rep.findings += found.len();
            for (code, item, message) in found {
                diags.push(Diagnostic {
                    code,
                    file: file.to_string(),
                    pos: w.pos,
                    item: format!("{}: {item}", set.symbol_name),
                    message,
                });
            }
        }
    }
    rep
}

type Finding = (Code, String, String);

#[allow(clippy::too_many_arguments)]
fn check_write(
    ir: &Ir,
    p: usize,
    project: &str,
    map: &HashMap<u64, Target<'_>>,
    block: ConfigKind,
    w: &ConfigWrite,
    rep: &mut SetReport,
    out: &mut Vec<Finding>,
) {
    let at = format!("{:#06x}", w.address);
    if w.address % 4 != 0 {
        out.push((
            Code::UndescribedAddress,
            at,
            "address is not aligned to 4 bytes".into(),
        ));
        return;
    }
    if let Some(t) = map.get(&w.address) {
        let name = t.name();
        let item = format!("{at} {name}");
        match t.register.config {
            Some(k) if k == block => {}
            Some(k) => out.push((
                Code::WrongConfigKind,
                item.clone(),
                format!(
                    "written by a {} block, but {name} is a {} configuration register",
                    block.as_str(),
                    k.as_str()
                ),
            )),
            None => out.push((
                Code::WrongConfigKind,
                item.clone(),
                format!("{name} is not a metric-set configuration register (no `config:` in its description)"),
            )),
        }
        if t.replicated {
            rep.multicast += 1;
        }
        rep.against_fields += 1;
        check_value(t, w.value, &item, out);
        return;
    }
    let range = ir
        .opaque
        .iter()
        .find(|r| r.project == p && r.start <= w.address && w.address.saturating_add(3) <= r.end);
    let Some(r) = range else {
        out.push((
            Code::UndescribedAddress,
            at,
            format!("no described register or opaque range at this address on {project}"),
        ));
        return;
    };
    rep.opaque += 1;
    if r.config != Some(block) {
        out.push((
            Code::WrongConfigKind,
            format!("{at} (in {})", r.name),
            format!(
                "written by a {} block, but range {} is {}",
                block.as_str(),
                r.name,
                r.config
                    .map_or("not a configuration range".to_string(), |k| format!(
                        "a {} configuration range",
                        k.as_str()
                    ))
            ),
        ));
    }
}

/// Value checks for a described register dword.
fn check_value(t: &Target<'_>, value: u64, item: &str, out: &mut Vec<Finding>) {
    let l = t.layout;
    let dword_bits = l.width.saturating_sub(t.shift).min(32);
    if dword_bits < 64 && value >> dword_bits != 0 {
        out.push((
            Code::ReservedBits,
            item.to_string(),
            format!("value {value:#x} does not fit {dword_bits} bits"),
        ));
        return;
    }
    // The register bits this write sets (for a masked register: the data bits).
    let (data, enables) = if l.masked {
        (value & 0xFFFF, value >> 16 & 0xFFFF)
    } else {
        (value, 0)
    };
    let set = data << t.shift;
    let mut covered = 0u64;
    let mut bad: Vec<String> = Vec::new();
    for f in &l.fields {
        covered |= f.mask();
        let hit = set & f.mask();
        if hit == 0 {
            continue;
        }
        let why = match f.access {
            a if a.reserved() => Some(if a == AccessKind::Mbz {
                "must be zero"
            } else {
                "reserved"
            }),
            AccessKind::Ro | AccessKind::RoV => Some("read-only (the write is ignored)"),
            _ => None,
        };
        if let Some(why) = why {
            bad.push(format!(
                "field {} (bits {}) is {why}",
                f.name,
                bit_list(f.mask() >> t.shift)
            ));
        }
    }
    let outside = set & !covered;
    if outside != 0 {
        bad.push(format!(
            "bits {} are in no field (reserved)",
            bit_list(outside >> t.shift)
        ));
    }
    if !bad.is_empty() {
        out.push((
            Code::ReservedBits,
            item.to_string(),
            format!(
                "value {value:#010x} sets bits it may not: {}",
                bad.join("; ")
            ),
        ));
    }
    if l.masked {
        let without = data & !enables;
        if without != 0 {
            out.push((
                Code::MaskedWithoutEnable,
                item.to_string(),
                format!(
                    "masked register: value {value:#010x} sets bits {} without their enable bits (n + 16); the hardware leaves them unchanged",
                    bit_list(without)
                ),
            ));
        } else if enables == 0 {
            out.push((
                Code::MaskedWithoutEnable,
                item.to_string(),
                format!("masked register: value {value:#010x} enables no bit (bits 31:16 are 0), so it changes nothing"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Pos;
    use crate::metrics::model::RegisterConfig;

    const CAT: &str = "families:\n  - name: gpu\n    description: d\n    projects:\n      - { name: bdw, rank: 80, title: B }\n";

    fn ir(config: &[(&str, ConfigKind)], opaque: Option<(u64, u64, ConfigKind)>) -> Ir {
        let yaml = r#"
block: t
space: mmio
source: test
registers:
  - name: CTL
    projects: bdw
    address: 0x2710
    fields:
      - { name: threshold, bits: "15:0", access: RW }
      - { name: mbz, bits: 24, access: MBZ }
      - { name: ro, bits: 25, access: RO }
  - name: MASKED
    projects: bdw
    address: 0x20CC
    masked: true
    fields:
      - { name: a, bits: 0, access: RW }
      - { name: b, bits: 1, access: RW }
  - name: CNT{n}
    projects: bdw
    address: 0x2780
    width: 64
    array: { count: 2, stride: 8 }
    fields:
      - { name: value, bits: "39:0", access: RW }
"#;
        let mut ir = crate::compile_sources(
            &[
                ("t.yaml".into(), yaml.into()),
                ("p.yaml".into(), CAT.into()),
            ],
            None,
        )
        .expect("fixture compiles");
        for r in &mut ir.registers {
            r.config = config.iter().find(|(n, _)| *n == r.name).map(|x| x.1);
        }
        if let Some((start, end, k)) = opaque {
            ir.opaque.push(crate::ir::OpaqueRangeIr {
                project: 0,
                name: "UNIT".into(),
                start,
                end,
                config: Some(k),
                domain: None,
                domain2: None,
                description: String::new(),
                note: String::new(),
                defined_at: String::new(),
                external: false,
            });
        }
        ir
    }

    fn file(kind: ConfigKind, writes: &[(u64, u64)]) -> MetricFile {
        MetricFile {
            file: "m.xml".into(),
            sets: vec![MetricSet {
                symbol_name: "S".into(),
                configs: vec![RegisterConfig {
                    kind,
                    availability: None,
                    pos: Pos { line: 1, column: 1 },
                    writes: writes
                        .iter()
                        .enumerate()
                        .map(|(i, &(address, value))| ConfigWrite {
                            kind,
                            address,
                            value,
                            pos: Pos {
                                line: 10 + i,
                                column: 9,
                            },
                        })
                        .collect(),
                }],
                ..MetricSet::default()
            }],
        }
    }

    fn run(ir: &Ir, f: &MetricFile) -> (Vec<SetReport>, Vec<Diagnostic>) {
        let mut d = Diagnostics::default();
        let r = check_file(ir, "bdw", f, &mut d);
        (r, d.sorted())
    }

    const ALL: &[(&str, ConfigKind)] = &[
        ("CTL", ConfigKind::Oa),
        ("MASKED", ConfigKind::Oa),
        ("CNT{n}", ConfigKind::Oa),
    ];

    #[test]
    fn clean_writes_are_counted() {
        let ir = ir(ALL, Some((0x25100, 0x2FF93, ConfigKind::Oa)));
        let f = file(
            ConfigKind::Oa,
            &[
                (0x2710, 0xFFFF),
                (0x20CC, 0x0003_0001),
                (0x2788, 0xFFFF_FFFF),
                (0x278C, 0xFF),
                (0x25104, 0x1234_5678),
            ],
        );
        let (r, d) = run(&ir, &f);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            r,
            vec![SetReport {
                set: "S".into(),
                writes: 5,
                against_fields: 4,
                opaque: 1,
                multicast: 0,
                findings: 0
            }]
        );
    }

    #[test]
    fn each_problem_is_reported_at_its_line() {
        let ir = ir(ALL, None);
        let f = file(
            ConfigKind::Oa,
            &[
                (0x2712, 0),             // 10: misaligned
                (0x2730, 0),             // 11: undescribed
                (0x2710, 0x0100_0000),   // 12: MBZ bit 24
                (0x2710, 0x0002_0000),   // 13: bit 17 in no field
                (0x2710, 0x0200_0000),   // 14: RO bit 25
                (0x20CC, 0x0000_0003),   // 15: masked without enables
                (0x20CC, 0x0001_0003),   // 16: bit 1 without its enable
                (0x278C, 0x100),         // 17: upper dword bit 40 outside the field
                (0x2710, 0x1_0000_0000), // 18: does not fit
            ],
        );
        let (r, d) = run(&ir, &f);
        let got: Vec<(usize, &str)> = d.iter().map(|d| (d.pos.line, d.code.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (10, "PR206"),
                (11, "PR206"),
                (12, "PR207"),
                (13, "PR207"),
                (14, "PR207"),
                (15, "PR208"),
                (16, "PR208"),
                (17, "PR207"),
                (18, "PR207"),
            ]
        );
        assert_eq!(r[0].findings, 9);
        assert!(d[3].message.contains("bits 17 are in no field"), "{}", d[3]);
        assert!(d[7].message.contains("bits 8 are in no field"), "{}", d[7]);
    }

    #[test]
    fn kinds_must_match() {
        let ir = ir(
            &[("CTL", ConfigKind::Noa)],
            Some((0x25100, 0x2FF93, ConfigKind::Noa)),
        );
        let f = file(
            ConfigKind::Oa,
            &[(0x2710, 1), (0x20CC, 0x10001), (0x25100, 0)],
        );
        let (r, d) = run(&ir, &f);
        assert_eq!(d.len(), 3, "{d:?}");
        assert!(d.iter().all(|d| d.code == Code::WrongConfigKind));
        assert!(d[1]
            .message
            .contains("not a metric-set configuration register"));
        assert_eq!(r[0].opaque, 1);
    }

    #[test]
    fn unknown_project_is_one_diagnostic() {
        let ir = ir(ALL, None);
        let mut d = Diagnostics::default();
        let r = check_file(&ir, "tgl", &file(ConfigKind::Oa, &[(0x2710, 0)]), &mut d);
        assert!(r.is_empty());
        assert_eq!(d.0.len(), 1);
    }

    #[test]
    fn bit_lists_read_as_ranges() {
        assert_eq!(bit_list(0b1011_0000), "5:4, 7");
        assert_eq!(bit_list(1 << 63), "63");
        assert_eq!(bit_list(0), "");
    }
}
