//! The `--device` path's split of a metric set into the kernel's register
//! lists ([`kernel_list`]) against the descriptions: every register write of
//! every shipped set goes to the list of the role the descriptions give the
//! register it writes (`config:` of the register, or of the opaque range
//! holding it), by the kernel list's own name for that role
//! ([`ListKind::of_block`]: NOA -> mux, OA -> boolean, FLEX -> flex).

use super::device::kernel_list;
use perfregs_codegen::ir::{ConfigKind as Role, Ir};
use perfregs_codegen::model::Space;
use perfregs_linux::config::ListKind;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The role of each MMIO dword of project `p` that a register with a
/// `config:` covers.
fn register_roles(ir: &Ir, p: usize) -> HashMap<u64, Role> {
    let mut roles = HashMap::new();
    for r in ir.registers.iter().filter(|r| r.space == Space::Mmio) {
        let Some(role) = r.config else { continue };
        let stride = r.array.map_or(0, |a| a.stride);
        for inst in r.instances.iter().filter(|i| i.project == p) {
            for n in 0..inst.count {
                let at = inst.element_address(stride, n);
                for k in (0..u64::from(r.width / 32)).map(|k| 4 * k) {
                    roles.insert(at + k, role);
                }
            }
        }
    }
    roles
}

/// The role the descriptions give the dword at `addr` on project `p`.
fn role(ir: &Ir, p: usize, registers: &HashMap<u64, Role>, addr: u64) -> Option<Role> {
    registers.get(&addr).copied().or_else(|| {
        ir.opaque
            .iter()
            .find(|o| o.project == p && o.start <= addr && addr + 3 <= o.end)
            .and_then(|o| o.config)
    })
}

#[test]
fn each_block_goes_to_the_kernel_list_of_its_registers_role() {
    let ir =
        perfregs_codegen::compile_path(Path::new(perfregs_regdefs::dir())).expect("descriptions");
    let mut per_list: BTreeMap<&str, usize> = BTreeMap::new();
    for (file, project, sets) in perfregs_metrics::FILES {
        let p = ir.catalogue.find(project).expect("a described project");
        let registers = register_roles(&ir, p);
        for set in *sets {
            for (k, block) in set.configs.iter().enumerate() {
                let list = kernel_list(block.kind);
                for &(addr, _) in block.writes {
                    let role = role(&ir, p, &registers, addr).unwrap_or_else(|| {
                        panic!("{file} {} block {k}: {addr:#x} has no role", set.symbol)
                    });
                    assert_eq!(
                        Some(list),
                        ListKind::of_block(role.as_str()),
                        "{file} {} block {k} ({:?}): {addr:#x} is a {} register",
                        set.symbol,
                        block.kind,
                        role.as_str()
                    );
                    *per_list.entry(role.as_str()).or_default() += 1;
                }
            }
        }
    }
    // Every role is met, many times: the comparison is not vacuous.
    assert_eq!(per_list.len(), 3, "{per_list:?}");
    assert!(per_list.values().all(|&n| n > 100), "{per_list:?}");
}
