//! Conformance checks: a Rust test module, generated from the IR, that
//! writes patterns into every field of every register through the typed HAL
//! (into the emulator of `perfregs-emu`) and checks the stored value and the
//! typed read-back against what the field's access type says.
//!
//! The expected values are computed here, from the IR and the access rules
//! below, independently of both the HAL's emitted constants (`KEEP_MASK`)
//! and the emulator's precomputed masks; the generated code only carries
//! them out. The rules (the emulator's "Storage and access rules" and the
//! HAL's `write`/`modify`/`write_masked` contracts):
//!
//! - a write takes the written bits of RW, RW-V, RW-DB and WO fields; RO,
//!   RO-V, PBC and RC fields keep their value; a written 1 clears an RW1C
//!   bit and sets an RW1S bit; MBZ, RSVD and bits no field describes are
//!   always 0 (also after a hardware-side poke);
//! - a read returns 0 for WO, MBZ and RSVD bits and clears the RC bits;
//! - a masked register stores bits 15:0; bits 31:16 of a write enable the
//!   matching low bits (a bit not enabled keeps its value);
//! - the HAL's `write` starts from the reset value with RW1C, RW1S, MBZ,
//!   RSVD and undescribed bits zero, `write_from_zero` from 0, `write_masked`
//!   from 0 with only the fields set enabled, and a raw value made with
//!   `WriteValue::from_raw` enables nothing on a masked register; `modify`
//!   reads, then writes back every bit except RW1C, RW1S, MBZ, RSVD and
//!   undescribed ones (written 0).
//!
//! # Generated code
//!
//! One module (named by [`Options::module`]) with, per project that has
//! registers to check, a module gated on the HAL's project (`perfregs_hal`) with
//! two tests, `all_fields` and `all_fields_traced` (the emulator tracing
//! every access, which takes its general paths instead of the fast ones);
//! `Value`/`ReadBits` impls for the enums the checked fields use; and the
//! step lists (`S12`) and field specs (`F3`), each emitted once, in one
//! module per set of projects using them (`u3`, gated on those projects).
//! The code drives a harness that
//! the including test defines (`hal/emu/tests/conformance.rs`) and reaches
//! as `super::super::*`: `Checker` (the device, counts, failures), the
//! targets `Plain`, `Masked`, `ReadOnly`, `WriteOnly` and `Multicast` (a
//! register reached the way the HAL allows), `RegSpec`/`reg` and
//! `FieldSpec`/`field` (what the IR says), `Step` and its operations
//! (`Set`, `Clear`, `SetOnes`, `Raw`, `Bus`, `Read`, `Write`, `Modify`,
//! `ModifySet`, `ModifySetOnes`, `DeviceClear`), and the traits `Value` (a
//! field value from raw bits) and `ReadBits` (raw bits of a typed read).
//!
//! Per register element: its `RegSpec` and register-level steps
//! (`c.register`), then per field one typed call (`c.rw`, `c.wo`, `c.w1c`,
//! `c.w1s`, `c.ro`, `c.opaque`, by access type) with the HAL's field
//! constant (`hal::hsw::oacontrol::TIMER_PERIOD`) and its `FieldSpec`.
//! Arrays are one loop over the HAL's elements, zipped with the IR's
//! element specs, which the generated `array_elements` builds from the
//! elements' names and their stride (or their listed addresses); the reset
//! rows of a checked array come from those specs. A step is `(op, poke,
//! poked, stored, read, after)`: poke the background `poke` into every
//! instance (expect `poked` stored), do `op` through the HAL, expect
//! `stored` (fused-off instances keep `poked`), read every present instance
//! through the HAL expecting `read` (and the field's typed getter to
//! agree), then expect `after` stored (RC bits cleared). On a replicated
//! register each writing step is repeated as a `write_one` of every
//! instance. Every register is poked back to its value when its checks end.

use crate::access::AccessKind;
use crate::emit::hex;
use crate::ir::{Element, FieldIr, Ir, LayoutIr};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// How to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Path of the HAL crate in the generated code (`hal`).
    pub hal: String,
    /// Path of the module holding the project modules, `enums` and `layouts`
    /// of the registers checked: the HAL itself, or a `regdefs!`-style module
    /// of extra registers (`crate::fixture`).
    pub registers: String,
    /// Name of the generated module.
    pub module: String,
    /// The registers are extra ones (not the HAL's own): the emulator is built
    /// with them (`Builder::registers`), and only they are checked.
    pub extra: bool,
    /// Only part `k` of `n` (`(k, n)`) of the projects: see [`Options::part`].
    pub part: (usize, usize),
}

impl Options {
    /// Checks of the HAL's own registers (`hal`), in module `descriptions`.
    pub fn descriptions() -> Self {
        Options {
            hal: "hal".into(),
            registers: "hal".into(),
            module: "descriptions".into(),
            extra: false,
            part: (0, 1),
        }
    }
    /// Only part `k` of `n` of the projects (`k < n`), for `n` test binaries
    /// that the compiler builds side by side: the projects are spread over
    /// the parts by their register counts (largest first, each to the part
    /// with the fewest registers so far). Part `k >= n` checks nothing.
    pub fn part(mut self, k: usize, n: usize) -> Self {
        self.part = (k, n.max(1));
        self
    }
    /// Checks of extra registers emitted into module `registers` (see
    /// [`registers_module`]), in module `module`.
    pub fn extra(registers: &str, module: &str) -> Self {
        Options {
            hal: "hal".into(),
            registers: registers.into(),
            module: module.into(),
            extra: true,
            part: (0, 1),
        }
    }
}

/// The conformance module for the HAL's own registers
/// ([`Options::descriptions`]).
pub fn generate(ir: &Ir) -> String {
    generate_with(ir, &Options::descriptions())
}

/// The register code of a description compiled with
/// [`compile_user_sources`](crate::compile_user_sources), as `regdefs!`
/// emits it (HAL at path `hal`), each project gated on the HAL's project,
/// to include in a module of its own.
pub fn registers_module(ir: &Ir, hal: &str) -> String {
    let opts = crate::EmitOptions {
        // Each project's module behind the HAL's project, as the HAL's are
        // (the including crate follows the HAL's projects: `perfregs_hal`).
        features: true,
        hal_cfg: true,
        ..crate::EmitOptions::for_macro(path(hal))
    };
    crate::generate(ir, &opts)
}

/// The conformance module, formatted.
pub fn generate_with(ir: &Ir, opts: &Options) -> String {
    let tokens = emit(ir, opts);
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(f) => prettyplease::unparse(&f),
        Err(_) => tokens.to_string(),
    }
}

fn path(s: &str) -> TokenStream {
    s.parse().unwrap_or_else(|_| quote!(hal))
}

fn low(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// How the HAL lets a register be written and read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `write_from_zero` / `write` / `modify` / `read`.
    Plain,
    /// `write_masked` / `read`.
    Masked,
    /// `read` only (writes are raw bus writes: the HAL has none).
    ReadOnly,
    /// `write_from_zero` / `write` only (reads are raw bus reads).
    WriteOnly,
    /// The steering API: multicast `write`, `write_one`, per-instance `read`
    /// (`Broadcast` in the harness, `write_each` and `read`, where the
    /// selector has no multicast bit).
    Multicast,
}

impl Kind {
    fn of(l: &LayoutIr, replicated: bool) -> Option<Kind> {
        match (replicated, l.masked, l.readable(), l.writable()) {
            (true, false, true, true) => Some(Kind::Multicast),
            (true, ..) => None,
            (false, true, true, _) => Some(Kind::Masked),
            (false, true, false, _) => None,
            (false, false, true, true) => Some(Kind::Plain),
            (false, false, true, false) => Some(Kind::ReadOnly),
            (false, false, false, true) => Some(Kind::WriteOnly),
            (false, false, false, false) => None,
        }
    }
    fn target(self) -> TokenStream {
        match self {
            Kind::Plain => quote!(Plain),
            Kind::Masked => quote!(Masked),
            Kind::ReadOnly => quote!(ReadOnly),
            Kind::WriteOnly => quote!(WriteOnly),
            Kind::Multicast => quote!(Multicast),
        }
    }
}

/// What a step does through the HAL: the generator emits steps as these
/// variants' names (`Set(0x1)`, `Clear`, ...), and the harness that includes
/// the generated checks (`hal/emu/tests/conformance.rs`) runs them with this
/// same type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Op {
    /// The field's typed setter (generic `set`) with these raw bits.
    Set(u64),
    /// `clear(field)` (RW1C).
    Clear,
    /// `set_ones(field)` (RW1S).
    SetOnes,
    /// The register's write with a value made by `WriteValue::from_raw`.
    Raw(u64),
    /// A raw bus write of this word (what the HAL has no typed way to write).
    Bus(u64),
    /// No write: poke, then read.
    Read,
    /// `write` with nothing set (starts from the reset value).
    Write,
    /// `modify` changing nothing.
    Modify,
    /// `modify` setting the field to these raw bits.
    ModifySet(u64),
    /// `modify` with `set_ones(field)` (RW1S).
    ModifySetOnes,
    /// `Device::clear(reg, field)` (RW1C): `modify` with `clear(field)`.
    DeviceClear,
}

impl Op {
    fn tokens(self) -> TokenStream {
        match self {
            Op::Set(v) => {
                let v = hex(v);
                quote!(Set(#v))
            }
            Op::Clear => quote!(Clear),
            Op::SetOnes => quote!(SetOnes),
            Op::Raw(v) => {
                let v = hex(v);
                quote!(Raw(#v))
            }
            Op::Bus(v) => {
                let v = hex(v);
                quote!(Bus(#v))
            }
            Op::Read => quote!(Read),
            Op::Write => quote!(Write),
            Op::Modify => quote!(Modify),
            Op::ModifySet(v) => {
                let v = hex(v);
                quote!(ModifySet(#v))
            }
            Op::ModifySetOnes => quote!(ModifySetOnes),
            Op::DeviceClear => quote!(DeviceClear),
        }
    }
}

/// One expected step: `(op, poke, poked, stored, read, after)`.
type Step = (Op, u64, u64, u64, u64, u64);

/// The access rules applied to one register's layout and reset value.
struct Model<'a> {
    fields: &'a [FieldIr],
    masked: bool,
    /// Bits of the register (32 or 64; masked registers: the 32 bits of a write).
    width: u64,
    /// Bits that hold a value.
    defined: u64,
    /// Bits `write` starts from (reset) and `modify` writes back (as read).
    keep: u64,
    reset: u64,
}

impl<'a> Model<'a> {
    fn new(l: &'a LayoutIr, reset: u64) -> Self {
        let width = low(l.width);
        let mut defined = 0;
        let mut keep = 0;
        for f in &l.fields {
            let m = f.mask() & width;
            match f.access {
                AccessKind::Mbz | AccessKind::Rsvd => {}
                AccessKind::Rw1c | AccessKind::Rw1s => defined |= m,
                AccessKind::Rw
                | AccessKind::Ro
                | AccessKind::Wo
                | AccessKind::Rc
                | AccessKind::Pbc
                | AccessKind::RwV
                | AccessKind::RoV
                | AccessKind::RwDb => {
                    defined |= m;
                    keep |= m;
                }
            }
        }
        if l.masked {
            defined &= 0xFFFF;
        }
        Model {
            fields: &l.fields,
            masked: l.masked,
            width,
            defined,
            keep: keep & defined,
            reset,
        }
    }

    /// The value stored after a hardware-side poke of `v`.
    fn poke(&self, v: u64) -> u64 {
        v & self.defined
    }

    /// The value stored after writing `word` over `old`.
    fn write(&self, old: u64, word: u64) -> u64 {
        let (value, enabled) = if self.masked {
            (word & 0xFFFF, word >> 16 & 0xFFFF)
        } else {
            (word & self.width, self.width)
        };
        let mut new = 0;
        for f in self.fields {
            let m = f.mask() & self.defined;
            let (o, w) = (old & m, value & m);
            let written = match f.access {
                AccessKind::Rw | AccessKind::RwV | AccessKind::RwDb | AccessKind::Wo => w,
                AccessKind::Ro | AccessKind::RoV | AccessKind::Pbc | AccessKind::Rc => o,
                AccessKind::Rw1c => o & !w,
                AccessKind::Rw1s => o | w,
                AccessKind::Mbz | AccessKind::Rsvd => 0,
            };
            new |= (written & enabled) | (o & !enabled);
        }
        new & self.defined
    }

    /// What a read of `stored` returns, and what stays stored.
    fn read(&self, stored: u64) -> (u64, u64) {
        let (mut value, mut cleared) = (0, 0);
        for f in self.fields {
            let m = f.mask() & self.defined;
            match f.access {
                AccessKind::Wo | AccessKind::Mbz | AccessKind::Rsvd => {}
                AccessKind::Rc => {
                    value |= stored & m;
                    cleared |= m;
                }
                _ => value |= stored & m,
            }
        }
        (value, stored & !cleared)
    }

    /// The word the HAL writes for `op` on a register of kind `k` (`field`:
    /// the field a typed op sets); `None` for `Read` and `Modify`.
    fn word(&self, k: Kind, op: Op, field: Option<&FieldIr>) -> Option<u64> {
        let start = self.reset & self.keep;
        let fmask = field.map_or(0, FieldIr::mask);
        let typed = |bits: u64| -> u64 {
            let bits = bits << field.map_or(0, |f| f.lsb) & fmask;
            match k {
                Kind::Plain | Kind::WriteOnly | Kind::ReadOnly => bits,
                Kind::Multicast => start & !fmask | bits,
                Kind::Masked => (fmask & 0xFFFF) << 16 | bits,
            }
        };
        Some(match op {
            Op::Set(v) => typed(v),
            Op::Clear | Op::SetOnes => typed(u64::MAX),
            Op::Raw(v) => match k {
                Kind::Masked => v & 0xFFFF,
                _ => v & self.width,
            },
            Op::Bus(v) => v,
            Op::Write => start,
            Op::Read | Op::Modify | Op::ModifySet(_) | Op::ModifySetOnes | Op::DeviceClear => {
                return None
            }
        })
    }

    fn step(&self, k: Kind, op: Op, field: Option<&FieldIr>, bg: u64) -> Step {
        let poked = self.poke(bg);
        // What `modify` writes over the field: read-back bits elsewhere.
        let modify = |bits: u64| {
            let (read, left) = self.read(poked);
            let fmask = field.map_or(0, FieldIr::mask);
            let lsb = field.map_or(0, |f| f.lsb);
            self.write(left, read & self.keep & !fmask | (bits << lsb & fmask))
        };
        let stored = match op {
            Op::Modify => modify(0),
            Op::ModifySet(v) => modify(v),
            Op::ModifySetOnes | Op::DeviceClear => modify(u64::MAX),
            _ => match self.word(k, op, field) {
                Some(w) => self.write(poked, w),
                None => poked,
            },
        };
        let (read, after) = self.read(stored);
        (op, bg, poked, stored, read, after)
    }
}

/// Raw patterns for a field: every named encoding of an enum field (the
/// typed setter takes no other), else all ones, zero and both alternating
/// patterns.
fn patterns(f: &FieldIr, ir: &Ir) -> Vec<u64> {
    let ones = low(f.width);
    let mut out = match enum_of(f, ir) {
        Some(e) => ir.enums[e]
            .values
            .iter()
            .map(|v| v.value)
            .filter(|&v| v <= ones)
            .collect(),
        None => vec![
            ones,
            0,
            0x5555_5555_5555_5555 & ones,
            0xAAAA_AAAA_AAAA_AAAA & ones,
        ],
    };
    let mut seen = Vec::new();
    out.retain(|v| {
        let new = !seen.contains(v);
        seen.push(*v);
        new
    });
    out
}

/// The enum a field's values come from (after merging).
fn enum_of(f: &FieldIr, ir: &Ir) -> Option<usize> {
    let mut e = f.enum_index?;
    while let Some(m) = ir.enums[e].merged_into {
        e = m;
    }
    Some(e)
}

/// Background for step `i` of a field: `field` in the field's bits, and the
/// other bits all ones (even steps) or all zeros (odd steps).
fn background(m: &Model, f: &FieldIr, field: u64, i: usize) -> u64 {
    let others = if i % 2 == 0 { m.width & !f.mask() } else { 0 };
    others | (field << f.lsb & f.mask())
}

/// The steps checking field `f` of a register of kind `k`.
fn field_steps(m: &Model, k: Kind, f: &FieldIr, ir: &Ir) -> Vec<Step> {
    let ones = low(f.width);
    let fm = f.mask();
    let enabled = (fm & 0xFFFF) << 16;
    let mut plan: Vec<(Op, u64)> = Vec::new();
    match f.access {
        AccessKind::Rw | AccessKind::RwV | AccessKind::RwDb | AccessKind::Wo => {
            let values = patterns(f, ir);
            for &v in &values {
                plan.push((Op::Set(v), !v & ones));
                if k == Kind::Masked {
                    // Without enable bits a masked write changes nothing.
                    plan.push((Op::Raw(v << f.lsb & fm), !v & ones));
                }
            }
            if k == Kind::Plain {
                // Read-modify-write of the field: the other fields as read.
                for &v in values.iter().take(2) {
                    plan.push((Op::ModifySet(v), !v & ones));
                }
            }
        }
        AccessKind::Rw1c => {
            plan.extend([
                (Op::Read, ones),
                (Op::Clear, ones),
                (Op::Clear, 0),
                (Op::Raw(0), ones),
                (Op::Raw(fm), ones),
            ]);
            if k == Kind::Plain {
                // Other RW1C bits set too: only this field's are cleared.
                plan.extend([(Op::DeviceClear, ones), (Op::DeviceClear, ones)]);
            }
            if k == Kind::Masked {
                plan.extend([(Op::Bus(enabled | fm), ones), (Op::Bus(enabled), ones)]);
            }
        }
        AccessKind::Rw1s => {
            plan.extend([
                (Op::Read, ones),
                (Op::SetOnes, 0),
                (Op::SetOnes, ones),
                (Op::Raw(0), ones),
                (Op::Raw(0), 0),
                (Op::Raw(fm), 0),
            ]);
            if k == Kind::Plain {
                plan.extend([(Op::ModifySetOnes, 0), (Op::ModifySetOnes, 0)]);
            }
            if k == Kind::Masked {
                plan.extend([(Op::Bus(enabled | fm), 0), (Op::Bus(enabled), ones)]);
            }
        }
        AccessKind::Rc
        | AccessKind::Ro
        | AccessKind::RoV
        | AccessKind::Pbc
        | AccessKind::Mbz
        | AccessKind::Rsvd => {
            plan.extend([
                (Op::Read, ones),
                (Op::Read, 0),
                (Op::Raw(fm), 0),
                (Op::Raw(0), ones),
            ]);
            if k == Kind::Masked {
                plan.extend([(Op::Bus(enabled | fm), 0), (Op::Bus(enabled), ones)]);
            }
        }
    }
    plan.into_iter()
        .enumerate()
        .map(|(i, (op, field))| {
            let op = match (k, op) {
                // The HAL cannot write a read-only register: raw bus writes.
                (Kind::ReadOnly, Op::Raw(v)) => Op::Bus(v),
                (_, op) => op,
            };
            m.step(k, op, Some(f), background(m, f, field, i))
        })
        .collect()
}

/// The register-level steps of a register of kind `k`.
fn register_steps(m: &Model, k: Kind) -> Vec<Step> {
    let ones = m.width;
    let alt = 0x5555_5555_5555_5555 & ones;
    let plan: Vec<(Op, u64)> = match k {
        Kind::Plain => vec![
            (Op::Read, ones),
            (Op::Write, ones),
            (Op::Write, 0),
            (Op::Raw(ones), 0),
            (Op::Raw(0), ones),
            (Op::Modify, ones),
            (Op::Modify, alt),
        ],
        Kind::WriteOnly | Kind::Multicast => vec![
            (Op::Read, ones),
            (Op::Write, ones),
            (Op::Write, 0),
            (Op::Raw(ones), 0),
            (Op::Raw(0), ones),
        ],
        Kind::Masked => vec![
            (Op::Read, ones),
            (Op::Raw(ones), 0),
            (Op::Bus(0xFFFF_FFFF), 0),
            (Op::Bus(0xFFFF_0000), ones),
            (Op::Bus(0x0000_FFFF), 0),
        ],
        Kind::ReadOnly => vec![
            (Op::Read, ones),
            (Op::Read, 0),
            (Op::Bus(ones), 0),
            (Op::Bus(0), ones),
        ],
    };
    plan.into_iter()
        .map(|(op, bg)| m.step(k, op, None, bg))
        .collect()
}

/// Items emitted once: each with its index and the projects using it.
type Items<K> = BTreeMap<K, (usize, Vec<String>)>;

/// A field spec: `(name, lsb, width, access, index of its steps)`.
type FieldKey = (String, u32, u32, &'static str, usize);

/// Step lists and field checks, each emitted once as a static, gated on
/// the projects that use it (`perfregs_hal`).
#[derive(Default)]
struct Tables {
    steps: Items<Vec<Step>>,
    fields: Items<FieldKey>,
}

/// Record that `project` uses the item keyed `key`: its index.
fn use_item<K: Ord>(map: &mut Items<K>, key: K, project: &str) -> usize {
    let n = map.len();
    let (i, users) = map.entry(key).or_insert_with(|| (n, Vec::new()));
    if !users.iter().any(|u| u == project) {
        users.push(project.to_string());
    }
    *i
}

impl Tables {
    /// The static holding `steps` (`S12`).
    fn steps(&mut self, steps: Vec<Step>, project: &str) -> proc_macro2::Ident {
        format_ident!("S{}", use_item(&mut self.steps, steps, project))
    }

    /// The static holding field `f`'s spec and steps (`F3`).
    fn field(&mut self, f: &FieldIr, steps: Vec<Step>, project: &str) -> proc_macro2::Ident {
        let s = use_item(&mut self.steps, steps, project);
        let key = (f.name.clone(), f.lsb, f.width, f.access.as_str(), s);
        format_ident!("F{}", use_item(&mut self.fields, key, project))
    }

    /// The statics, in one module per set of projects using them (`u3`,
    /// gated on those projects and glob-imported), so each set's gate is
    /// written once rather than on each of its statics.
    fn emit(&self) -> TokenStream {
        let mut groups: BTreeMap<&[String], Vec<(usize, TokenStream)>> = BTreeMap::new();
        for (rows, (i, users)) in &self.steps {
            let name = format_ident!("S{}", i);
            let rows = rows.iter().map(|&(op, bg, poked, stored, read, after)| {
                let op = op.tokens();
                let (bg, poked, stored, read, after) =
                    (hex(bg), hex(poked), hex(stored), hex(read), hex(after));
                quote!((#op, #bg, #poked, #stored, #read, #after))
            });
            let item = quote!(pub(super) static #name: &[Step] = &[#(#rows),*];);
            groups.entry(users).or_default().push((*i, item));
        }
        for ((field, lsb, width, access, s), (i, users)) in &self.fields {
            let name = format_ident!("F{}", i);
            let s = format_ident!("S{}", s);
            let item = quote!(pub(super) static #name: FieldSpec = field(#field, #lsb, #width, #access, #s););
            // After every step list (`S..` sort first).
            groups
                .entry(users)
                .or_default()
                .push((self.steps.len() + i, item));
        }
        let mut groups: Vec<_> = groups.into_iter().collect();
        groups.sort_by_key(|(_, items)| items.iter().map(|(i, _)| *i).min());
        let modules = groups
            .into_iter()
            .enumerate()
            .map(|(g, (users, mut items))| {
                items.sort_by_key(|(i, _)| *i);
                let items = items.into_iter().map(|(_, item)| item);
                let cfg = quote!(#[cfg(any(#(perfregs_hal = #users),*))]);
                let module = format_ident!("u{}", g);
                quote! {
                    #cfg
                    mod #module {
                        use super::*;
                        #(#items)*
                    }
                    #cfg
                    use #module::*;
                }
            });
        quote!(#(#modules)*)
    }
}

/// The field check function for an access type.
fn field_fn(a: AccessKind) -> TokenStream {
    match a {
        AccessKind::Rw | AccessKind::RwV | AccessKind::RwDb => quote!(rw),
        AccessKind::Wo => quote!(wo),
        AccessKind::Rw1c => quote!(w1c),
        AccessKind::Rw1s => quote!(w1s),
        AccessKind::Ro | AccessKind::RoV | AccessKind::Rc => quote!(ro),
        AccessKind::Mbz | AccessKind::Rsvd | AccessKind::Pbc => quote!(opaque),
    }
}

/// The proof for domain `d`: the guard held for a wakeable domain
/// (`&wake_render`), else `&AlwaysAwake`.
fn proof(ir: &Ir, d: Option<usize>, hal: &TokenStream) -> TokenStream {
    match d.map(|d| &ir.domains[d]) {
        Some(d) if !d.always_on && d.wake.is_some() => {
            let g = format_ident!("wake_{}", d.name);
            quote!(&#g)
        }
        _ => quote!(&#hal::AlwaysAwake),
    }
}

/// Path of domain `d`'s type.
fn domain_type(ir: &Ir, d: usize, opts: &Options) -> TokenStream {
    let d = &ir.domains[d];
    let root = path(if d.external {
        &opts.hal
    } else {
        &opts.registers
    });
    let p = format_ident!("{}", ir.catalogue.projects[d.project].name);
    let t = format_ident!("{}", crate::resolve::camel(&d.name));
    quote!(#root::#p::domains::#t)
}

/// The elements of an array as the generated `array_elements` builds them:
/// their names joined by spaces, and their addresses (`base + i * stride`
/// when they are evenly spaced, else each listed), so an array costs a few
/// bytes per element rather than a `reg(..)` row and a reset row each.
fn array_spec(elements: &[Element], m: &Model, instances: u32) -> TokenStream {
    let names = elements
        .iter()
        .map(|e| e.name.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let addresses: Vec<u64> = elements.iter().map(|e| e.address).collect();
    let base = addresses.first().copied().unwrap_or(0);
    let stride = match addresses.get(1) {
        Some(&a) => a.wrapping_sub(base),
        None => 0,
    };
    let even = addresses.iter().enumerate().all(|(i, &a)| {
        Some(a)
            == stride
                .checked_mul(i as u64)
                .and_then(|d| base.checked_add(d))
    });
    let list: Vec<TokenStream> = if even {
        Vec::new()
    } else {
        addresses.iter().map(|&a| hex(a)).collect()
    };
    let (base, stride) = (hex(base), hex(stride));
    let first = elements.first();
    let reset = first.map_or(0, |e| e.instance.reset);
    let (width, masked) = first.map_or((32, false), |e| (e.layout.width, e.layout.masked));
    let (stored, reset) = (hex(m.poke(reset)), hex(reset));
    quote!(array_elements(#names, #base, #stride, &[#(#list),*], #width, #reset, #stored, #masked, #instances))
}

fn reg_spec(e: &Element, m: &Model, instances: u32) -> TokenStream {
    let name = e.name.as_str();
    let (address, reset) = (hex(e.address), hex(e.instance.reset));
    let stored = hex(m.poke(e.instance.reset));
    let width = e.layout.width;
    let masked = e.layout.masked;
    quote!(reg(#name, #address, #width, #reset, #stored, #masked, #instances))
}

/// The test of project `pi`, or `None` when it has nothing to check.
fn emit_project(ir: &Ir, pi: usize, opts: &Options, tables: &mut Tables) -> Option<TokenStream> {
    let hal = path(&opts.hal);
    let regs_root = path(&opts.registers);
    let project = &ir.catalogue.projects[pi];
    let pmod = format_ident!("{}", project.name);
    let ptype = crate::emit::project_type(&project.name);
    let feature = project.name.as_str();
    let label = format!("{}::{}", opts.module, project.name);
    let registers: Vec<_> = ir.emitted(pi).collect();
    if registers.is_empty() {
        return None;
    }
    let mut body = Vec::new();
    let mut specs = Vec::new();
    let mut domains: Vec<usize> = Vec::new();
    let mut resets = Vec::new();
    let mut arrays = Vec::new();
    let fuses: Vec<u64> = ir
        .groups
        .iter()
        .filter(|g| g.project == pi)
        .filter_map(|g| g.fuse.as_ref().map(|f| f.address))
        .collect();
    let steering = ir.steering.iter().find(|s| s.project == pi);
    // Steering semaphores: a read takes one (it reads 0 until given back),
    // which no access-kind model says; hal/emu/tests/all/steering_xe.rs checks them.
    let semaphores: Vec<u64> = steering
        .and_then(|s| s.semaphore.as_ref())
        .into_iter()
        .chain(
            ir.groups
                .iter()
                .filter(|g| g.project == pi)
                .filter_map(|g| g.selector.as_ref()?.semaphore.as_ref()),
        )
        .map(|x| x.address)
        .collect();
    for (r, inst) in &registers {
        let l = ir.layout(inst);
        let group = inst.replication.map(|g| &ir.groups[g]);
        let instances = group.map_or(1, |g| g.instances.clamp(1, 64));
        let elements: Vec<Element> = ir
            .emitted_elements(pi)
            .filter(|e| std::ptr::eq(e.register, *r))
            .collect();
        // The reset rows of the elements (not the fuse mirrors): listed,
        // unless the register is a checked array whose rows the generated
        // code derives from its element specs.
        let rows: Vec<TokenStream> = elements
            .iter()
            .filter(|e| !fuses.contains(&e.address))
            .map(|e| {
                let (name, addr) = (e.name.as_str(), hex(e.address));
                let stored = hex(Model::new(l, inst.reset).poke(inst.reset));
                quote!((#name, #addr, #instances, #stored))
            })
            .collect();
        let derived = r.array.is_some()
            && rows.len() == elements.len()
            && elements.iter().all(|e| e.instance.reset == inst.reset);
        let mut rows = Some(rows);
        let mut list_rows = || resets.extend(rows.take().into_iter().flatten());
        let ident = format_ident!("{}", r.ident());
        if elements.iter().any(|e| semaphores.contains(&e.address)) {
            list_rows();
            let why = format!(
                "{}: steering semaphore (a read that returns 1 takes it, writing 1 gives it back)",
                r.ident()
            );
            body.push(quote!(c.skip(#why);));
            continue;
        }
        let Some(kind) = Kind::of(l, group.is_some()) else {
            let why = format!(
                "{}: no conformance target for a register that is {}{}{}",
                r.ident(),
                if group.is_some() { "replicated, " } else { "" },
                if l.masked { "masked, " } else { "" },
                match (l.readable(), l.writable()) {
                    (true, true) => "readable and writable",
                    (true, false) => "read-only",
                    (false, true) => "write-only",
                    (false, false) => "neither readable nor writable",
                }
            );
            list_rows();
            body.push(quote!(c.skip(#why);));
            continue;
        };
        if kind == Kind::Multicast && steering.is_none() {
            let why = format!("{}: replicated, but the project has no steering", r.ident());
            list_rows();
            body.push(quote!(c.skip(#why);));
            continue;
        }
        let m = Model::new(l, inst.reset);
        let reg_steps = tables.steps(register_steps(&m, kind), feature);
        let layout_mod = format_ident!("{}", r.ident().to_ascii_lowercase());
        let mut field_calls = Vec::new();
        for f in &l.fields {
            let spec = tables.field(f, field_steps(&m, kind, f, ir), feature);
            let konst = format_ident!("{}", f.name.to_ascii_uppercase());
            let func = field_fn(f.access);
            field_calls.push(quote!(c.#func(&t, p::#layout_mod::#konst, &#spec);));
        }
        for d in [inst.domain, inst.domain2].into_iter().flatten() {
            if !domains.contains(&d) {
                domains.push(d);
            }
        }
        // A row that wakes two domains: the pair of their guards (a local,
        // which the target borrows).
        let (pair, reg_proof) = match inst.domain2 {
            Some(_) => {
                let (a, b) = (proof(ir, inst.domain, &hal), proof(ir, inst.domain2, &hal));
                (quote!(let wake_pair = (#a, #b);), quote!(&wake_pair))
            }
            None => (quote!(), proof(ir, inst.domain, &hal)),
        };
        // A selector without a multicast bit (Gen8..Gen10): `write_each`
        // and steered reads, no multicast or unicast write.
        let target = match steering {
            Some(s) if kind == Kind::Multicast && s.multicast_mask == 0 => quote!(Broadcast),
            _ => kind.target(),
        };
        let extra = match (kind, steering) {
            (Kind::Multicast, Some(s)) => {
                if let Some(d) = s.domain {
                    if !domains.contains(&d) {
                        domains.push(d);
                    }
                }
                let sp = proof(ir, s.domain, &hal);
                quote!(, #sp)
            }
            _ => quote!(),
        };
        let check = quote! {
            #pair
            let t = #target::new(&gpu, reg, #reg_proof #extra, spec);
            c.register(&t, #reg_steps);
            #(#field_calls)*
        };
        if r.array.is_some() {
            let spec_name = format_ident!("spec_{}", specs.len());
            let spec = array_spec(&elements, &m, instances);
            specs.push(quote!(let #spec_name = #spec;));
            if derived {
                arrays.push(spec_name.clone());
            } else {
                list_rows();
            }
            body.push(quote! {
                c.elements(p::#ident.iter().count(), #spec_name.len(), stringify!(#ident));
                for (reg, spec) in p::#ident.iter().zip(&#spec_name) {
                    #check
                }
            });
        } else {
            list_rows();
            let row = elements
                .first()
                .map(|e| reg_spec(e, &m, instances))
                .unwrap_or_default();
            body.push(quote! {
                {
                    let (reg, spec) = (p::#ident, &#row);
                    #check
                }
            });
        }
    }
    domains.sort_unstable();
    let guards = domains.iter().filter_map(|&d| {
        let dom = &ir.domains[d];
        if dom.always_on || dom.wake.is_none() {
            return None;
        }
        let g = format_ident!("wake_{}", dom.name);
        let ty = domain_type(ir, d, opts);
        let msg = format!("force-wake {}", dom.name);
        Some(quote!(let #g = gpu.forcewake::<#ty>().expect(#msg);))
    });
    let extra = if opts.extra {
        quote!(#regs_root::#pmod::PROJECT.registers)
    } else {
        quote!(&[])
    };
    Some(quote! {
        #[cfg(perfregs_hal = #feature)]
        mod #pmod {
            use super::super::*;
            use super::*;
            use #regs_root::#pmod as p;

            /// Every register and field of the project, through the typed HAL
            /// (the emulator not tracing: its fast paths).
            #[test]
            fn all_fields() {
                run(false);
            }

            /// The same with the emulator tracing every access (its general paths).
            #[test]
            fn all_fields_traced() {
                run(true);
            }

            fn run(traced: bool) {
                let mut c = Checker::new(#label, traced);
                #(#specs)*
                // The listed reset rows and those of the checked arrays.
                let resets: Vec<(&str, u64, u32, u64)> = RESETS
                    .iter()
                    .copied()
                    .chain(
                        [#(&#arrays),*]
                            .into_iter()
                            .flat_map(|a: &Vec<RegSpec>| a.iter())
                            .map(|s| (s.name, s.address, s.instances, s.reset_stored)),
                    )
                    .collect();
                c.reset(&#hal::#pmod::PROJECT, #extra, &resets);
                let gpu = c.device::<#hal::#ptype>(&#hal::#pmod::PROJECT, #extra);
                #(#guards)*
                #(#body)*
                c.finish();
            }

            /// Reset values as stored: `(name, address, instances, stored)`.
            static RESETS: &[(&str, u64, u32, u64)] = &[#(#resets),*];
        }
    })
}

/// `Value` and `ReadBits` for every enum a checked field uses.
fn emit_enum_impls(ir: &Ir, opts: &Options) -> TokenStream {
    let mut used: Vec<usize> = Vec::new();
    for pi in 0..ir.catalogue.projects.len() {
        for (_, inst) in ir.emitted(pi) {
            for f in &ir.layout(inst).fields {
                if let Some(e) = enum_of(f, ir) {
                    if !used.contains(&e) {
                        used.push(e);
                    }
                }
            }
        }
    }
    used.sort_unstable();
    let impls = used.iter().filter(|&&e| !ir.enums[e].external).map(|&e| {
        let root = path(&opts.registers);
        let name = format_ident!("{}", ir.enums[e].name);
        quote! {
            impl super::Value for #root::enums::#name {
                fn of(bits: u64) -> Option<Self> {
                    Self::from_bits(bits)
                }
            }
            impl super::ReadBits for #root::enums::#name {
                fn read_bits(self) -> u64 {
                    self.bits()
                }
            }
        }
    });
    quote!(#(#impls)*)
}

/// The part (of `n`) that checks each project: largest first, each to the
/// part with the fewest registers so far.
fn parts(ir: &Ir, n: usize) -> Vec<usize> {
    let count = ir.catalogue.projects.len();
    let weight: Vec<usize> = (0..count).map(|pi| ir.emitted(pi).count()).collect();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&pi| (std::cmp::Reverse(weight[pi]), pi));
    let mut load = vec![0usize; n.max(1)];
    let mut part = vec![0; count];
    for pi in order {
        let k = (0..load.len()).min_by_key(|&k| (load[k], k)).unwrap_or(0);
        load[k] += weight[pi];
        part[pi] = k;
    }
    part
}

fn emit(ir: &Ir, opts: &Options) -> TokenStream {
    let module = format_ident!("{}", opts.module);
    let mut tables = Tables::default();
    let (k, n) = opts.part;
    let part = parts(ir, n);
    let projects: Vec<_> = (0..ir.catalogue.projects.len())
        .filter(|&pi| part[pi] == k)
        .filter_map(|pi| emit_project(ir, pi, opts, &mut tables))
        .collect();
    let enums = emit_enum_impls(ir, opts);
    let mut users: Vec<&str> = Vec::new();
    for (_, (_, u)) in tables.steps.iter() {
        for p in u {
            if !users.contains(&p.as_str()) {
                users.push(p);
            }
        }
    }
    let cfg = quote!(#[cfg(any(#(perfregs_hal = #users),*))]);
    let tables = tables.emit();
    quote! {
        /// Generated conformance checks (`perfregs_codegen::conformance`).
        mod #module {
            #cfg
            use super::{field, FieldSpec, Step};
            #cfg
            use super::Op::*;
            #cfg
            use super::{reg, RegSpec};

            /// The specs of an array's elements: `names` separated by spaces,
            /// element `i` at `list[i]`, or at `base + i * stride` when
            /// `list` is empty.
            #cfg
            #[allow(dead_code, clippy::too_many_arguments)]
            fn array_elements(
                names: &'static str,
                base: u64,
                stride: u64,
                list: &[u64],
                width: u32,
                reset: u64,
                stored: u64,
                masked: bool,
                instances: u32,
            ) -> Vec<RegSpec> {
                let names: Vec<&'static str> = names.split(' ').collect();
                assert!(
                    list.is_empty() || list.len() == names.len(),
                    "{} names, {} addresses",
                    names.len(),
                    list.len()
                );
                names
                    .into_iter()
                    .enumerate()
                    .map(|(i, name)| {
                        let address = match list.get(i) {
                            Some(&a) => a,
                            None => base + i as u64 * stride,
                        };
                        reg(name, address, width, reset, stored, masked, instances)
                    })
                    .collect()
            }
            #enums
            #(#projects)*
            #tables
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn ir() -> Ir {
        crate::compile_path(Path::new(perfregs_regdefs::dir())).expect("shipped descriptions")
    }

    /// A 32-bit layout of `(name, lsb, width, access)` fields.
    fn layout(masked: bool, fields: &[(&str, u32, u32, AccessKind)]) -> LayoutIr {
        let fields = fields
            .iter()
            .map(|&(name, lsb, width, access)| FieldIr {
                name: name.into(),
                lsb,
                width,
                access,
                description: String::new(),
                note: String::new(),
                enum_index: None,
                address: false,
            })
            .collect();
        LayoutIr {
            name: "x".into(),
            title: "X".into(),
            width: 32,
            masked,
            fields,
        }
    }

    #[test]
    fn rules_per_access_type() {
        let l = layout(
            false,
            &[
                ("rw", 0, 2, AccessKind::Rw),
                ("ro", 2, 2, AccessKind::Ro),
                ("wo", 4, 2, AccessKind::Wo),
                ("w1c", 6, 2, AccessKind::Rw1c),
                ("w1s", 8, 2, AccessKind::Rw1s),
                ("rc", 10, 2, AccessKind::Rc),
                ("mbz", 12, 2, AccessKind::Mbz),
            ],
        );
        let m = Model::new(&l, 0);
        assert_eq!(m.defined, 0xFFF);
        assert_eq!(m.poke(u64::MAX), 0xFFF);
        // Write all ones over 0b01 in every field.
        let old = 0x555;
        let new = m.write(old, 0xFFFF_FFFF);
        assert_eq!(new & 0x3, 0x3, "RW takes");
        assert_eq!(new >> 2 & 0x3, 0x1, "RO keeps");
        assert_eq!(new >> 4 & 0x3, 0x3, "WO takes");
        assert_eq!(new >> 6 & 0x3, 0x0, "RW1C cleared by ones");
        assert_eq!(new >> 8 & 0x3, 0x3, "RW1S set by ones");
        assert_eq!(new >> 10 & 0x3, 0x1, "RC kept");
        assert_eq!(m.write(old, 0), 0x554 & !0x30 & !0x3, "zeros: RW, WO 0");
        let (read, after) = m.read(0xFFF);
        assert_eq!(read, 0xFFF & !0x30, "WO reads 0");
        assert_eq!(after, 0xFFF & !0xC00, "RC cleared by the read");
    }

    #[test]
    fn masked_writes_need_enables() {
        let l = layout(true, &[("a", 0, 4, AccessKind::Rw)]);
        let m = Model::new(&l, 0);
        assert_eq!(m.write(0x5, 0x000A), 0x5, "no enable, no change");
        assert_eq!(m.write(0x5, 0x0003_000A), 0x6, "bits 1:0 enabled");
        // The typed setter enables exactly the field; from_raw enables nothing.
        let f = &l.fields[0];
        assert_eq!(
            m.word(Kind::Masked, Op::Set(0x3), Some(f)),
            Some(0x000F_0003)
        );
        assert_eq!(
            m.word(Kind::Masked, Op::Raw(0xFFFF_FFFF), Some(f)),
            Some(0xFFFF)
        );
    }

    #[test]
    fn write_starts_from_reset_without_side_effect_bits() {
        let l = layout(
            false,
            &[
                ("rw", 0, 4, AccessKind::Rw),
                ("w1c", 4, 4, AccessKind::Rw1c),
            ],
        );
        let m = Model::new(&l, 0xFF);
        assert_eq!(m.word(Kind::Plain, Op::Write, None), Some(0x0F));
        // modify of a set RW1C bit writes 0 there: the bit stays set.
        let s = m.step(Kind::Plain, Op::Modify, None, 0xF0);
        assert_eq!(s.3, 0xF0);
    }

    #[test]
    fn generates_every_project_and_parses() {
        let ir = ir();
        let code = generate(&ir);
        syn::parse_file(&code).expect("parses");
        for p in &ir.catalogue.projects {
            assert!(
                code.contains(&format!("mod {} {{", p.name)),
                "{} has a test",
                p.name
            );
        }
        // A tripwire on the generator's growth. An array costs a few bytes
        // per element (its names and stride), the tables one gate per set of
        // projects: with those, the 25 projects (dg2, mtl, lnl, bmg, ptl
        // included: 4,418 field calls) take about 1.19 MB, where one row
        // per element and a gate per table item took 1.71 MB (1.03 MB
        // before the five). What is left grows with (project, register,
        // field): the new projects add about 70 KB each.
        assert!(code.len() < 5 << 18, "{} bytes", code.len());
    }
}
