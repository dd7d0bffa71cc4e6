//! The checked model validation hands to lowering.
//!
//! Resolution keeps what did not resolve as `None` so that every pass can
//! still look at the rest of a file. Once the passes reported nothing,
//! [`check`] turns the resolved blocks into these types, where what the
//! passes proved is no longer optional: every register has a width and, per
//! project, one address, one reset and an element count of at least one;
//! every field has bits, an access and projects; every power domain is
//! either always on or has request and ack registers and the request bit's
//! field; every command field has bits. Lowering reads only these types
//! for those facts, so it has nothing left to unwrap.
//!
//! Assumes the passes of [`super::PASSES`] ran on the same blocks without a
//! diagnostic. A value still missing here (a pass that failed to report it)
//! becomes an internal diagnostic at the item, never a default.

use crate::access::AccessKind;
use crate::diag::{Diagnostic, Diagnostics};
use crate::projects::{Catalogue, ProjectSet};
use crate::resolve::{RBlock, REvent, RField, RRegister};
use crate::sections::{RCommand, RCommandField, RDomain, RDword};

/// A block whose registers, events, domains and commands passed validation.
#[derive(Debug)]
pub struct VBlock<'a> {
    /// The resolved block (source, names, texts, the other sections).
    pub block: &'a RBlock,
    /// Registers, in description order.
    pub registers: Vec<VRegister<'a>>,
    /// Counter event rows.
    pub events: Vec<VEvent<'a>>,
    /// Power domains, in description order.
    pub domains: Vec<VDomain<'a>>,
    /// GPU commands, in description order.
    pub commands: Vec<VCommand<'a>>,
}

/// A register (arrays not expanded) with what validation proved.
#[derive(Debug)]
pub struct VRegister<'a> {
    /// The resolved register (name, texts, array stride, ...).
    pub reg: &'a RRegister,
    /// 32 or 64.
    pub width: u32,
    /// One placement per project the register exists on, by project index.
    pub on: Vec<Placement>,
    /// Fields, in description order.
    pub fields: Vec<VField<'a>>,
}

/// Where a register sits on one project (PR114: the address and reset maps
/// cover each of its projects exactly once; PR123: an array has at least
/// one element there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Project index.
    pub project: usize,
    /// Address (of element 0 for an array).
    pub address: u64,
    /// Reset value.
    pub reset: u64,
    /// Element count (1 for a plain register).
    pub count: u32,
}

/// A field with its bits, access and projects.
#[derive(Debug)]
pub struct VField<'a> {
    /// The resolved field (name, texts, enum).
    pub field: &'a RField,
    /// Most significant bit.
    pub msb: u32,
    /// Least significant bit.
    pub lsb: u32,
    /// Access.
    pub access: AccessKind,
    /// Projects (a subset of the register's, PR115).
    pub projects: ProjectSet,
}

/// A counter event row with its projects.
#[derive(Debug)]
pub struct VEvent<'a> {
    /// The resolved row.
    pub event: &'a REvent,
    /// Projects.
    pub projects: ProjectSet,
}

/// How a power domain wakes (PR124).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake<'a> {
    /// Always on: no handshake.
    AlwaysOn,
    /// Woken through a request and an ack register (both exist, PR125).
    Handshake {
        /// Request register.
        request: &'a str,
        /// Acknowledge register.
        ack: &'a str,
        /// The request register's field that is the driver's request bit
        /// (the section's `request_field`, a field of `request`, PR125).
        request_field: &'a str,
    },
}

/// A power domain with its wake handshake.
#[derive(Debug)]
pub struct VDomain<'a> {
    /// The resolved domain (name, projects, text).
    pub domain: &'a RDomain,
    /// How it wakes.
    pub wake: Wake<'a>,
}

/// A command with the fields whose bits resolved.
#[derive(Debug)]
pub struct VCommand<'a> {
    /// The resolved command.
    pub command: &'a RCommand,
    /// Its dwords in order, each with its fields.
    pub dwords: Vec<(&'a RDword, Vec<VCommandField<'a>>)>,
}

/// A command field with its bits (PR116: the range parsed).
#[derive(Debug)]
pub struct VCommandField<'a> {
    /// The resolved field.
    pub field: &'a RCommandField,
    /// Most significant bit.
    pub msb: u32,
    /// Least significant bit.
    pub lsb: u32,
}

/// An internal error: a fact a validation pass should have proved is missing.
fn internal(b: &RBlock, path: &str, item: &str, what: &str) -> Diagnostic {
    Diagnostic::internal(&b.source.name, b.source.index.node(path), item, what)
}

/// The value of a per-project map on project `p`.
fn on_project(map: &[(ProjectSet, u64, String)], p: usize) -> Option<u64> {
    map.iter().find(|(s, _, _)| s.contains(p)).map(|x| x.1)
}

fn check_register<'a>(
    b: &'a RBlock,
    r: &'a RRegister,
    cat: &Catalogue,
    d: &mut Diagnostics,
) -> Option<VRegister<'a>> {
    let (Some(projects), Some(width), Some(addrs), Some(resets)) =
        (r.projects, r.width, &r.address, &r.reset)
    else {
        d.push(internal(
            b,
            &r.path,
            &r.name,
            "register without projects, width, address or reset",
        ));
        return None;
    };
    let mut on = Vec::new();
    for p in projects.iter() {
        let count = r.count_on(p);
        match (on_project(addrs, p), on_project(resets, p)) {
            (Some(address), Some(reset)) if count > 0 => on.push(Placement {
                project: p,
                address,
                reset,
                count,
            }),
            _ => d.push(internal(
                b,
                &r.path,
                &r.name,
                &format!(
                    "no address, reset or element on {}",
                    cat.names(ProjectSet(1 << p))
                ),
            )),
        }
    }
    let mut fields = Vec::new();
    for f in &r.fields {
        let (Some((msb, lsb)), Some(access), Some(projects)) = (f.bits, f.access, f.projects)
        else {
            d.push(internal(
                b,
                &f.path,
                &format!("{}.{}", r.name, f.name),
                "field without bits, access or projects",
            ));
            continue;
        };
        fields.push(VField {
            field: f,
            msb,
            lsb,
            access,
            projects,
        });
    }
    Some(VRegister {
        reg: r,
        width,
        on,
        fields,
    })
}

fn check_domain<'a>(b: &'a RBlock, x: &'a RDomain, d: &mut Diagnostics) -> Option<VDomain<'a>> {
    let wake = match (x.always_on, &x.request, &x.ack, &x.request_field.0) {
        (true, None, None, _) => Wake::AlwaysOn,
        (false, Some(request), Some(ack), Some(field)) => Wake::Handshake {
            request,
            ack,
            request_field: field,
        },
        _ => {
            d.push(internal(
                b,
                &x.path,
                &x.name,
                "domain neither always on nor with request, ack and request field",
            ));
            return None;
        }
    };
    Some(VDomain { domain: x, wake })
}

fn check_command<'a>(b: &'a RBlock, c: &'a RCommand, d: &mut Diagnostics) -> VCommand<'a> {
    let dwords = c
        .dwords
        .iter()
        .map(|w| {
            let fields = w
                .fields
                .iter()
                .filter_map(|f| match f.bits {
                    Some((msb, lsb)) if !f.bad_value => Some(VCommandField { field: f, msb, lsb }),
                    _ => {
                        let item = format!("{}.{}", c.name, f.name);
                        d.push(internal(
                            b,
                            &f.path,
                            &item,
                            "command field without bits or value",
                        ));
                        None
                    }
                })
                .collect();
            (w, fields)
        })
        .collect();
    VCommand { command: c, dwords }
}

/// The checked blocks, or the internal errors of what a pass missed.
pub fn check<'a>(
    blocks: &'a [RBlock],
    cat: &Catalogue,
) -> Result<Vec<VBlock<'a>>, Vec<Diagnostic>> {
    let mut d = Diagnostics::default();
    let out = blocks
        .iter()
        .map(|b| VBlock {
            block: b,
            registers: b
                .registers
                .iter()
                .filter_map(|r| check_register(b, r, cat, &mut d))
                .collect(),
            events: b
                .events
                .iter()
                .enumerate()
                .filter_map(|(i, e)| match e.projects {
                    Some(projects) => Some(VEvent { event: e, projects }),
                    None => {
                        let path = format!("counter_events/{i}/projects");
                        d.push(internal(b, &path, &e.counter, "event without projects"));
                        None
                    }
                })
                .collect(),
            domains: b
                .sections
                .domains
                .iter()
                .filter_map(|x| check_domain(b, x, &mut d))
                .collect(),
            commands: b
                .sections
                .commands
                .iter()
                .map(|c| check_command(b, c, &mut d))
                .collect(),
        })
        .collect();
    if d.is_empty() {
        Ok(out)
    } else {
        Err(d.sorted())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{self, Document};
    use crate::resolve::resolve_block;

    const TEXT: &str = "block: t
space: mmio
source: test
registers:
  - name: CTL
    projects: hsw
    address: 0x2360
    reset: 0x20
    fields: [ { name: go, bits: 5, access: RW } ]
";

    /// A clean block becomes checked types; a fact no pass proved (here
    /// removed by hand after resolution) is an internal error at the item,
    /// never a default.
    #[test]
    fn facts_no_pass_proved_are_internal_errors() {
        let mut diags = Diagnostics::default();
        let projects = load::load_str("projects.yaml", perfregs_regdefs::PROJECTS_YAML, &mut diags);
        let Some(Document::Catalogue(c)) = projects.map(|l| l.doc) else {
            panic!("standard catalogue")
        };
        let (cat, _) = Catalogue::from_file(&c);
        let loaded = load::load_str("t.yaml", TEXT, &mut diags).expect("loads");
        let Document::Block(file) = &loaded.doc else {
            panic!("a block file")
        };
        let mut b = resolve_block(&loaded.source, file, &cat, &mut diags);
        assert!(diags.is_empty(), "{diags}");
        let hsw = cat.find("hsw").expect("hsw");
        let ok = check(std::slice::from_ref(&b), &cat).expect("checked");
        let r = &ok[0].registers[0];
        let at = Placement {
            project: hsw,
            address: 0x2360,
            reset: 0x20,
            count: 1,
        };
        assert_eq!((r.width, r.on.as_slice()), (32, &[at][..]));
        assert_eq!((r.fields[0].msb, r.fields[0].lsb), (5, 5));

        b.registers[0].fields[0].access = None;
        b.registers[0].reset = Some(Vec::new());
        let err = check(std::slice::from_ref(&b), &cat).expect_err("internal errors");
        let lines: Vec<String> = err.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            lines,
            [
                "error[PR125]: t.yaml:5:9: CTL: internal: no address, reset or element on hsw (validation should have reported this)",
                "error[PR125]: t.yaml:9:15: CTL.go: internal: field without bits, access or projects (validation should have reported this)",
            ]
        );
    }
}
