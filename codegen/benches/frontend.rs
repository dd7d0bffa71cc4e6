//! Generator front-end time on large synthetic descriptions (divan).
//!
//! `cargo bench -p perfregs-codegen --bench frontend`
//!
//! One synthetic block file of N registers on `tgl` (N = 1,000 and 10,000),
//! built in memory by [`synthetic_yaml`]: 100 distinct field layouts of 4 to 6
//! fields, access types mixed among RW, RO, RW1C and WO, some fields typed by
//! file-level enums, registers at plain MMIO addresses above the TGL
//! force-wake table. Three benchmarks, each from the YAML text:
//!
//! - `compile`: `compile_user_sources` (load, resolve, validate, lower, with
//!   the built-in descriptions, as `regdefs!` does);
//! - `compile_emit`: compile, then `emit::emit(..).to_string()` with the
//!   proc-macro's options (`regdefs!` path);
//! - `compile_generate`: compile, then `generate` with the HAL's options
//!   (build-script path: tokens formatted with prettyplease).
//!
//! Only the public pipeline entry points are used, so the benchmark does not
//! depend on the shape of the generated API. Each size takes 20 samples (one
//! 10,000-register iteration takes seconds); `--sample-count N` overrides it.

// The xorshift64* of the mutation tests, so the description is the same on
// every run.
#[path = "../tests/all/support/harness.rs"]
mod harness;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use harness::Rng;
use perfregs_codegen::{compile_user_sources, emit, generate, EmitOptions, Ir};
use std::fmt::Write as _;

fn main() {
    divan::main();
}

/// Number of distinct field layouts in the synthetic description.
const LAYOUTS: usize = 100;
/// Number of file-level enums the layouts draw from.
const ENUMS: usize = 10;
/// First register address: above every row of the TGL force-wake and
/// steering table (which ends at 0x23FFFF), so the registers are plain.
const BASE: u64 = 0x30_0000;

/// One field of a layout: (name, lsb, msb, access, enum index).
type Field = (String, u32, u32, &'static str, Option<usize>);

/// The synthetic block file: `registers` registers on `tgl`, register i with
/// layout i % 100 at `BASE + 4 * i`. Used by every benchmark here.
fn synthetic_yaml(registers: usize) -> String {
    const ACCESS: [&str; 4] = ["RW", "RO", "RW1C", "WO"];
    const WIDTHS: [u32; 7] = [1, 2, 3, 4, 5, 6, 8];
    let enum_width = |e: usize| 2 + (e % 2) as u32;
    let mut rng = Rng::from_state(0x9E37_79B9_7F4A_7C15);

    let mut layouts: Vec<Vec<Field>> = Vec::with_capacity(LAYOUTS);
    while layouts.len() < LAYOUTS {
        let i = layouts.len();
        let mut fields = Vec::new();
        let mut bit = 0;
        for f in 0..4 + i % 3 {
            let mut access = if rng.below(10) < 7 {
                ACCESS[(i + f) % 4]
            } else {
                ACCESS[rng.below(4)]
            };
            let mut en = None;
            let width = if access == "RW1C" {
                1
            } else if rng.below(4) == 0 {
                let e = rng.below(ENUMS);
                en = Some(e);
                access = ["RW", "RO"][rng.below(2)];
                enum_width(e)
            } else {
                WIDTHS[rng.below(WIDTHS.len())]
            };
            bit += [0, 0, 1, 2][rng.below(4)];
            if bit + width > 32 {
                break;
            }
            let name = format!("f{f}_{}", access.to_ascii_lowercase());
            fields.push((name, bit, bit + width - 1, access, en));
            bit += width;
        }
        if fields.len() >= 4 && !layouts.contains(&fields) {
            layouts.push(fields);
        }
    }

    let mut y = String::with_capacity(registers * 600);
    y.push_str("block: synthetic\nspace: mmio\nsource: \"synthetic (codegen/benches/frontend.rs)\"\nenums:\n");
    for e in 0..ENUMS {
        let values = (3 + e % 3).min(1 << enum_width(e));
        let _ = writeln!(
            y,
            "  - name: SynMode{e}\n    description: Synthetic enum {e}.\n    values:"
        );
        for v in 0..values {
            let _ = writeln!(
                y,
                "      - {{ name: mode_{v}, value: {v}, description: \"Mode {v}\" }}"
            );
        }
    }
    y.push_str("registers:\n");
    for i in 0..registers {
        let l = i % LAYOUTS;
        let _ = writeln!(
            y,
            "  - name: SYN_REG_{i:05}\n    title: Synthetic register {i} (layout {l})\n    \
             description: Synthetic register {i}, field layout {l}.\n    projects: tgl\n    \
             address: {:#x}\n    fields:",
            BASE + 4 * i as u64
        );
        for (name, lsb, msb, access, en) in &layouts[l] {
            let bits = if lsb == msb {
                lsb.to_string()
            } else {
                format!("\"{msb}:{lsb}\"")
            };
            let en = en.map_or(String::new(), |e| format!(", enum: SynMode{e}"));
            let _ = writeln!(
                y,
                "      - {{ name: {name}, bits: {bits}, access: {access}{en}, \
                 description: \"Field {name} of layout {l}.\" }}"
            );
        }
    }
    y
}

/// The synthetic description as `compile_sources` input.
fn sources(registers: usize) -> Vec<(String, String)> {
    vec![("synthetic.yaml".to_string(), synthetic_yaml(registers))]
}

/// load + resolve + validate + lower, as the `regdefs!` proc-macro does it:
/// against the built-in descriptions (catalogue and project maps).
fn compile(sources: &[(String, String)]) -> Ir {
    match compile_user_sources(built_in(), sources) {
        Ok(ir) => ir,
        Err(diags) => {
            let list: Vec<String> = diags.iter().map(ToString::to_string).collect();
            panic!("synthetic description rejected:\n{}", list.join("\n"));
        }
    }
}

/// `EmitOptions` as the `regdefs!` proc-macro builds them.
fn macro_options() -> EmitOptions {
    EmitOptions::for_macro(quote::quote!(::perfregs::hal))
}

/// load + resolve + validate + lower.
#[divan::bench(args = [1000, 10000], sample_count = 20)]
fn compile_only(bencher: Bencher, registers: usize) {
    let src = sources(registers);
    bencher
        .counter(ItemsCount::new(registers))
        .bench_local(|| compile(black_box(&src)));
}

/// compile + emit to a token string (the `regdefs!` proc-macro path).
#[divan::bench(args = [1000, 10000], sample_count = 20)]
fn compile_emit(bencher: Bencher, registers: usize) {
    let src = sources(registers);
    let opts = macro_options();
    bencher
        .counter(ItemsCount::new(registers))
        .bench_local(|| emit::emit(&compile(black_box(&src)), &opts).to_string());
}

/// compile + generate formatted source (the HAL build-script path).
#[divan::bench(args = [1000, 10000], sample_count = 20)]
fn compile_generate(bencher: Bencher, registers: usize) {
    let src = sources(registers);
    let opts = EmitOptions::for_hal();
    bencher
        .counter(ItemsCount::new(registers))
        .bench_local(|| generate(&compile(black_box(&src)), &opts));
}

/// The built-in descriptions of the `regdefs!` path (`perfregs_regdefs::FILES`),
/// loaded once per process.
fn built_in() -> &'static perfregs_codegen::BuiltIn {
    static B: std::sync::OnceLock<perfregs_codegen::BuiltIn> = std::sync::OnceLock::new();
    B.get_or_init(|| {
        perfregs_codegen::BuiltIn::from_files(perfregs_regdefs::FILES).expect("the shipped files")
    })
}
