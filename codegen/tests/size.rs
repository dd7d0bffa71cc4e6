//! Size budget of the generated HAL: the shipped descriptions must generate
//! at most 25,000 lines (they generated 138,212 before layouts were shared).

use perfregs_codegen::{compile_path, generate, EmitOptions};
use std::path::Path;

const BUDGET: usize = 25_000;

#[test]
fn shipped_descriptions_generate_within_budget() {
    let dir = Path::new(perfregs_regdefs::dir());
    let ir = compile_path(dir).unwrap_or_else(|d| panic!("shipped descriptions: {d:?}"));
    let code = generate(&ir, &EmitOptions::for_hal());
    let lines = code.lines().count();
    println!(
        "generated HAL: {lines} lines, {} bytes, {} layouts for {} register-project pairs",
        code.len(),
        ir.layouts.len(),
        ir.registers
            .iter()
            .map(|r| r.instances.len())
            .sum::<usize>()
    );
    assert!(lines <= BUDGET, "{lines} generated lines, budget {BUDGET}");
    // Layouts are shared: far fewer than register-project pairs.
    let pairs: usize = ir.registers.iter().map(|r| r.instances.len()).sum();
    assert!(
        ir.layouts.len() * 3 / 2 < pairs,
        "{} layouts for {pairs} pairs",
        ir.layouts.len()
    );
}
