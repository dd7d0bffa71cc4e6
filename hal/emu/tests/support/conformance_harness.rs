// The conformance harness shared by tests/conformance.rs and
// tests/conformance_part1.rs (included with `include!`, so no inner docs
// here): the generated checks (`perfregs_codegen::conformance`) call it.

use std::cell::Cell;
use std::time::Instant;

use hal::access::{AccessType, Clearable, Field, FieldValue, Gettable, OneSettable, Settable};
use hal::meta::{ProjectInfo, RegisterInfo};
use hal::{
    Awake, Bits, Device, Layout, MaskedWritable, MulticastSteered, OnProject, Project, ReadValue,
    Readable, Register, Replicated, Steered, Unicast, Writable, WriteValue,
};
use perfregs_emu::{Emulator, OaUnit, Sku};

/// A device of project `P` on the emulator.
pub type Gpu<P> = Device<P, Emulator>;
type Wr<L> = <L as Layout>::Write;
type Rd<L> = <L as Layout>::Read;

/// What one step does through the HAL: the generator's own type.
pub use perfregs_codegen::conformance::Op::{self, *};

/// `(op, poke, poked, stored, read, after)`: poke `poke` (expect `poked`
/// stored), do `op`, expect `stored`, read expecting `read`, then expect
/// `after` stored.
pub type Step = (Op, u64, u64, u64, u64, u64);

/// A register element as the IR describes it (see [`reg`]).
#[derive(Debug)]
pub struct RegSpec {
    pub name: &'static str,
    pub address: u64,
    pub width: u32,
    pub reset: u64,
    /// The reset value as stored (bits that hold no value cleared).
    pub reset_stored: u64,
    pub masked: bool,
    /// Stored instances (replication group size, 1 when not replicated).
    pub instances: u32,
}

/// `RegSpec` from the generated tables.
pub const fn reg(
    name: &'static str,
    address: u64,
    width: u32,
    reset: u64,
    reset_stored: u64,
    masked: bool,
    instances: u32,
) -> RegSpec {
    RegSpec {
        name,
        address,
        width,
        reset,
        reset_stored,
        masked,
        instances,
    }
}

/// A field as the IR describes it, and the steps checking it (see [`field`]).
#[derive(Debug)]
pub struct FieldSpec {
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
    pub access: &'static str,
    pub steps: &'static [Step],
}

impl FieldSpec {
    /// The field's bits in its register, from the IR's position (not the
    /// HAL's constants, which it checks).
    fn mask(&self) -> u64 {
        let ones = if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        };
        ones << self.lsb
    }
}

/// `FieldSpec` from the generated tables.
pub const fn field(
    name: &'static str,
    lsb: u32,
    width: u32,
    access: &'static str,
    steps: &'static [Step],
) -> FieldSpec {
    FieldSpec {
        name,
        lsb,
        width,
        access,
        steps,
    }
}

/// A field value made from raw bits (`None`: no value of the type has them).
pub trait Value: FieldValue {
    fn of(bits: u64) -> Option<Self>;
}
impl Value for bool {
    fn of(bits: u64) -> Option<Self> {
        (bits <= 1).then_some(bits == 1)
    }
}
impl<const N: u32> Value for Bits<N> {
    fn of(bits: u64) -> Option<Self> {
        Bits::new(bits)
    }
}

/// The raw bits of what a typed getter returned.
pub trait ReadBits {
    fn read_bits(self) -> u64;
}
impl ReadBits for bool {
    fn read_bits(self) -> u64 {
        u64::from(self)
    }
}
impl<const N: u32> ReadBits for Bits<N> {
    fn read_bits(self) -> u64 {
        self.get()
    }
}
/// An enum that does not name every encoding: `Err` carries the raw bits.
impl<E: ReadBits> ReadBits for Result<E, u64> {
    fn read_bits(self) -> u64 {
        match self {
            Ok(e) => e.read_bits(),
            Err(raw) => raw,
        }
    }
}

/// A write through the HAL, as the target's register allows it.
pub enum Typed<'a, L: Layout> {
    /// Build the value with this (from the start value of the register's write).
    Build(&'a dyn Fn(&mut Wr<L>)),
    /// `write` (or the steering write) setting nothing.
    Reset,
    /// `modify`, changing what this does.
    Modify(&'a dyn Fn(&mut Wr<L>)),
    /// A raw bus write.
    Bus(u64),
}
impl<L: Layout> Clone for Typed<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L: Layout> Copy for Typed<'_, L> {}

/// A register reached the way the HAL allows (plain, masked, read-only,
/// write-only, replicated).
pub trait Target {
    type L: Layout;
    type P: Project;
    fn gpu(&self) -> &Gpu<Self::P>;
    fn spec(&self) -> &RegSpec;
    /// What the HAL says: name, address, reset, width, masked.
    fn hal(&self) -> (&'static str, u64, u64, u32, bool);
    /// Bit n set: instance n is present (not fused off).
    fn present(&self) -> u64 {
        1
    }
    /// Write through the HAL; `instance`: a unicast write of one instance
    /// of a replicated register. `None`: the register has no such write;
    /// `Some(false)`: the HAL wrote nothing (an absent instance).
    fn write(&self, instance: Option<u32>, op: Typed<'_, Self::L>) -> Option<bool>;
    /// Read instance `instance` through the HAL (`None`: absent).
    fn read(&self, instance: u32) -> Option<Rd<Self::L>>;
    /// Whether a replicated register has unicast writes of one instance
    /// (not on a selector without a multicast bit: Gen8..Gen10).
    fn unicast(&self) -> bool {
        true
    }
    /// `Device::clear(reg, f)`; `None`: the register has no such method.
    fn clear<F>(&self, _f: F) -> Option<()>
    where
        Self: Sized,
        F: Field<Layout = Self::L>,
        F::Access: Clearable,
    {
        None
    }
}

/// The stored values of a register, poked back when dropped.
pub struct Saved<'g, P: Project> {
    gpu: &'g Gpu<P>,
    address: u64,
    values: Vec<Option<u64>>,
}

impl<'g, P: Project> Saved<'g, P> {
    fn new(gpu: &'g Gpu<P>, spec: &RegSpec) -> Self {
        let values = gpu.with_bus(|e| {
            (0..spec.instances)
                .map(|i| e.peek(spec.address, i))
                .collect()
        });
        Saved {
            gpu,
            address: spec.address,
            values,
        }
    }
}

impl<P: Project> Drop for Saved<'_, P> {
    fn drop(&mut self) {
        let (address, values) = (self.address, &self.values);
        self.gpu.with_bus(|e| {
            for (i, v) in values.iter().enumerate() {
                if let Some(v) = *v {
                    e.poke_instance(address, i as u32, v);
                }
            }
        });
    }
}

fn bus_write<P: Project, R: Register>(gpu: &Gpu<P>, reg: R, value: u64) {
    gpu.with_bus(|e| {
        if R::WIDTH == 64 {
            e.write64(reg.address(), value);
        } else {
            e.write32(reg.address(), value as u32);
        }
    });
}

fn bus_read<P: Project, R: Register>(gpu: &Gpu<P>, reg: R) -> u64 {
    gpu.with_bus(|e| {
        if R::WIDTH == 64 {
            e.read64(reg.address())
        } else {
            u64::from(e.read32(reg.address()))
        }
    })
}

fn hal_of<R: Register>(reg: R) -> (&'static str, u64, u64, u32, bool) {
    let info = reg.info();
    (info.name, reg.address(), R::RESET, R::WIDTH, info.masked)
}

/// The [`Target`] items every target type has alike (fields `gpu`, `reg`,
/// `spec`; type parameters `P`, `R`).
macro_rules! target_basics {
    () => {
        type L = R::Layout;
        type P = P;
        fn gpu(&self) -> &Gpu<P> {
            self.gpu
        }
        fn spec(&self) -> &RegSpec {
            self.spec
        }
        fn hal(&self) -> (&'static str, u64, u64, u32, bool) {
            hal_of(&self.reg)
        }
    };
}

/// A unicast target type: the struct, its `new` and its [`Target`] impl.
/// `reads`: `hal` (the HAL's `read`) or `bus` (a raw bus read); `writes`:
/// the typed ops the HAL has for it, each with the method doing it (raw bus
/// writes are for all; none writes one instance); `extra` adds methods.
macro_rules! target {
    (
        $name:ident,
        $doc:literal,
        [$($bound:tt)*],
        reads: $reads:ident,
        writes: { $($op:ident: $method:ident),* }
        $(, extra: { $($extra:tt)* })?
        $(,)?
    ) => {
        #[doc = $doc]
        pub struct $name<'g, P: Project, R, A> {
            gpu: &'g Gpu<P>,
            reg: R,
            proof: &'g A,
            spec: &'g RegSpec,
            _saved: Saved<'g, P>,
        }
        impl<'g, P, R, A> $name<'g, P, R, A>
        where
            P: Project,
            R: $($bound)* + OnProject<P>,
            A: Awake<R::Domain>,
            Emulator: hal::Bus<R::Space>,
        {
            pub fn new(gpu: &'g Gpu<P>, reg: R, proof: &'g A, spec: &'g RegSpec) -> Self {
                let _saved = Saved::new(gpu, spec);
                $name { gpu, reg, proof, spec, _saved }
            }
        }
        impl<P, R, A> Target for $name<'_, P, R, A>
        where
            P: Project,
            R: $($bound)* + OnProject<P>,
            A: Awake<R::Domain>,
            Emulator: hal::Bus<R::Space>,
        {
            target_basics!();
            fn write(&self, instance: Option<u32>, op: Typed<'_, R::Layout>) -> Option<bool> {
                if instance.is_some() {
                    return None;
                }
                match op {
                    Typed::Bus(v) => bus_write(self.gpu, &self.reg, v),
                    $(target!(@op $op f) => target!(@call self $op $method f),)*
                    #[allow(unreachable_patterns)]
                    _ => return None,
                }
                Some(true)
            }
            fn read(&self, instance: u32) -> Option<Rd<R::Layout>> {
                (instance == 0).then(|| target!(@read self $reads))
            }
            $($($extra)*)?
        }
    };
    (@op Reset $f:ident) => { Typed::Reset };
    (@op $op:ident $f:ident) => { Typed::$op($f) };
    (@call $s:tt Build $method:ident $f:ident) => {
        $s.gpu.$method(&$s.reg, $s.proof, |w| {
            $f(w);
            w
        })
    };
    (@call $s:tt Reset $method:ident $f:ident) => { $s.gpu.$method(&$s.reg, $s.proof, |w| w) };
    (@call $s:tt Modify $method:ident $f:ident) => {
        $s.gpu.$method(&$s.reg, $s.proof, |_, w| {
            $f(w);
            w
        })
    };
    (@read $s:tt hal) => { $s.gpu.read(&$s.reg, $s.proof) };
    // The HAL does not read a write-only register: what the bus returns.
    (@read $s:tt bus) => { ReadValue::from_raw(bus_read($s.gpu, &$s.reg)) };
}

target!(
    Plain,
    "A readable, writable register: `write_from_zero`, `write`, `modify`, `read`.",
    [Readable + Writable + Unicast],
    reads: hal,
    writes: { Build: write_from_zero, Reset: write, Modify: modify },
    extra: {
        fn clear<F>(&self, f: F) -> Option<()>
        where
            Self: Sized,
            F: Field<Layout = R::Layout>,
            F::Access: Clearable,
        {
            self.gpu.clear(&self.reg, self.proof, f);
            Some(())
        }
    },
);
target!(
    Masked,
    "A masked register: `write_masked`, `read`.",
    [Readable + MaskedWritable + Unicast],
    reads: hal,
    writes: { Build: write_masked },
);
target!(
    ReadOnly,
    "A read-only register: `read` (writes are raw bus writes).",
    [Readable + Unicast],
    reads: hal,
    writes: {},
);
target!(
    WriteOnly,
    "A write-only register: `write_from_zero`, `write` (reads are raw bus reads).",
    [Writable + Unicast],
    reads: bus,
    writes: { Build: write_from_zero, Reset: write },
);

/// A replicated target type (through the steering API, per-instance
/// `read`): the struct, its `new` and its [`Target`] impl, on projects
/// `$steered`. `$write`: [`Target::write`] of a build or reset op from the
/// target `$t`, its steering handle `$s`, `$instance` and `$build` (what the
/// op does to the value); `$unicast`: [`Target::unicast`].
macro_rules! replicated {
    (
        $name:ident,
        $doc:literal,
        $steered:ident,
        unicast: $unicast:literal,
        |$t:ident, $s:ident, $instance:ident, $build:ident| $write:block $(,)?
    ) => {
        #[doc = $doc]
        pub struct $name<'g, P: Project, R, A, S> {
            gpu: &'g Gpu<P>,
            reg: R,
            proof: &'g A,
            steer: &'g S,
            spec: &'g RegSpec,
            _saved: Saved<'g, P>,
        }

        // The bounds are on the `Target` impl, which is what a checker needs.
        impl<'g, P: Project, R, A, S> $name<'g, P, R, A, S> {
            pub fn new(
                gpu: &'g Gpu<P>,
                reg: R,
                proof: &'g A,
                steer: &'g S,
                spec: &'g RegSpec,
            ) -> Self {
                let _saved = Saved::new(gpu, spec);
                $name {
                    gpu,
                    reg,
                    proof,
                    steer,
                    spec,
                    _saved,
                }
            }
        }

        impl<P, R, A, S> Target for $name<'_, P, R, A, S>
        where
            P: $steered,
            R: Readable + Writable + Replicated + OnProject<P>,
            A: Awake<R::Domain>,
            S: Awake<<P as Steered>::Domain>,
            Emulator: hal::Bus<R::Space>,
        {
            target_basics!();
            fn present(&self) -> u64 {
                self.gpu.steering(self.steer).present::<R>()
            }
            fn write(&self, $instance: Option<u32>, op: Typed<'_, R::Layout>) -> Option<bool> {
                if matches!(op, Typed::Modify(_) | Typed::Bus(_)) {
                    return None;
                }
                let $build = |w: &mut Wr<R::Layout>| {
                    if let Typed::Build(f) = op {
                        f(w);
                    }
                };
                let $t = self;
                let mut $s = self.gpu.steering(self.steer);
                $write
            }
            fn read(&self, instance: u32) -> Option<Rd<R::Layout>> {
                self.gpu
                    .steering(self.steer)
                    .read(&self.reg, instance, self.proof)
            }
            fn unicast(&self) -> bool {
                $unicast
            }
        }
    };
}

// Multicast and unicast writes: selectors with a multicast bit only (the
// generator skips replicated registers of Gen8..Gen10 projects).
replicated!(
    Multicast,
    "A replicated register, through the steering API: multicast `write`, \
     `write_one`, per-instance `read`.",
    MulticastSteered,
    unicast: true,
    |t, s, instance, build| {
        Some(match instance {
            None => {
                s.write(&t.reg, t.proof, |w| {
                    build(w);
                    w
                });
                true
            }
            Some(i) => s.write_one(&t.reg, i, t.proof, |w| {
                build(w);
                w
            }),
        })
    },
);
replicated!(
    Broadcast,
    "A replicated register of a project whose selector has no multicast bit \
     (Gen8..Gen10), through the steering API: `write_each` (one steered write \
     per present instance) and per-instance `read`; no unicast write.",
    Steered,
    unicast: false,
    |t, s, instance, build| {
        if instance.is_some() {
            return None;
        }
        let present = s.present::<R>().count_ones();
        let each = s.write_each(&t.reg, t.proof, |w| {
            build(w);
            w
        });
        Some(each == present)
    },
);

/// The typed write of a settable field: `set`, on its own or in a `modify`.
fn setter<L: Layout, F: Field<Layout = L>>(f: F) -> impl Fn(Op, &mut Wr<L>) -> bool
where
    F::Access: Settable,
    F::Value: Value,
{
    move |op, w| match op {
        Set(v) | ModifySet(v) => F::Value::of(v).map(|x| w.set(f, x)).is_some(),
        _ => false,
    }
}

/// The typed write of a field with one write op and no value (`clear`,
/// `set_ones`): `act` on the ops `hit` picks.
fn one_op<L: Layout>(
    hit: impl Fn(Op) -> bool,
    act: impl Fn(&mut Wr<L>),
) -> impl Fn(Op, &mut Wr<L>) -> bool {
    move |op, w| {
        let yes = hit(op);
        if yes {
            act(w);
        }
        yes
    }
}

/// The typed getter of a field, as bits.
fn getter<L: Layout, F: Field<Layout = L>>(f: F) -> impl Fn(Rd<L>) -> u64
where
    F::Access: Gettable,
    <F::Value as FieldValue>::Read: ReadBits,
{
    move |r| r.get(f).read_bits()
}

/// The SKU checked: dual subslice 1 and L3 bank 2 fused off.
fn sku() -> Sku {
    Sku::default().fuse_dss(1).fuse_l3bank(2)
}

/// The register file alone: the OA unit off (the CPU counter models are
/// off after construction), tracing or not.
fn emulator(
    project: &'static ProjectInfo,
    extra: &'static [RegisterInfo],
    traced: bool,
) -> Emulator {
    let mut e = Emulator::builder(project, sku()).registers(extra).build();
    e.unit_mut::<OaUnit>().disable();
    e.set_tracing(traced);
    e
}

/// Counts, failures and the device of one project's checks.
pub struct Checker {
    project: &'static str,
    traced: bool,
    registers: usize,
    fields: usize,
    checks: usize,
    /// Registers the reset table lists (each must get its typed checks).
    listed: usize,
    /// Fields the listed registers have in the metadata.
    listed_fields: usize,
    failed: usize,
    failures: Vec<String>,
    skipped: Vec<String>,
    started: Instant,
}

/// Failures described in full (the rest are counted).
const SHOWN: usize = 40;

impl Checker {
    pub fn new(project: &'static str, traced: bool) -> Self {
        Checker {
            project,
            traced,
            registers: 0,
            fields: 0,
            checks: 0,
            listed: 0,
            listed_fields: 0,
            failed: 0,
            failures: Vec::new(),
            skipped: Vec::new(),
            started: Instant::now(),
        }
    }

    /// The device: project `P` on a fresh emulator with `extra` registers.
    pub fn device<P: Project>(
        &self,
        project: &'static ProjectInfo,
        extra: &'static [RegisterInfo],
    ) -> Gpu<P> {
        Device::new(emulator(project, extra, self.traced))
    }

    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failed += 1;
            if self.failures.len() < SHOWN {
                self.failures.push(what());
            }
        }
    }

    fn eq(&mut self, ctx: &dyn Fn() -> String, what: &str, got: Option<u64>, want: u64) {
        self.check(got == Some(want), || {
            let got = got.map_or("nothing".into(), |g| format!("{g:#x}"));
            format!("{}: {what}: got {got}, want {want:#x}", ctx())
        });
    }

    /// Every register holds its reset value (bits that hold no value 0) on a
    /// fresh emulator: `(name, address, instances, stored)`.
    pub fn reset(
        &mut self,
        project: &'static ProjectInfo,
        extra: &'static [RegisterInfo],
        table: &[(&str, u64, u32, u64)],
    ) {
        let e = emulator(project, extra, self.traced);
        // The table covers every register checked (the extra ones when
        // there are, else the project's; not the fuse mirrors, which the SKU
        // sets at construction): a generator that leaves one out fails here,
        // one that lists none fails every register.
        let checked = if extra.is_empty() {
            project.registers
        } else {
            extra
        };
        let fuse = |r: &RegisterInfo| {
            project
                .groups
                .iter()
                .any(|g| g.fuse.is_some_and(|f| f.register == r.name))
        };
        for r in checked.iter().filter(|r| !fuse(r)) {
            let listed = table
                .iter()
                .any(|&(n, a, ..)| n == r.name && a == r.address);
            let project = self.project;
            self.check(listed, || {
                format!("{project} {}: not in the generated reset table", r.name)
            });
        }
        self.listed = table.len();
        self.listed_fields = table
            .iter()
            .filter_map(|&(n, a, ..)| checked.iter().find(|r| r.name == n && r.address == a))
            .map(|r| r.fields.len())
            .sum();
        for &(name, address, instances, stored) in table {
            for i in 0..instances {
                let got = e.peek(address, i);
                self.eq(&|| format!("{name} instance {i}"), "reset", got, stored);
            }
        }
    }

    /// A register the generator could not check (reported, not failed).
    pub fn skip(&mut self, why: &str) {
        self.skipped.push(why.to_string());
    }

    /// The HAL's array has as many elements as the IR's.
    pub fn elements(&mut self, hal: usize, ir: usize, name: &str) {
        self.check(hal == ir, || {
            format!("{name}: the HAL has {hal} elements, the IR {ir}")
        });
    }

    /// The register's HAL constants against the IR, and its register-level
    /// steps (`write`, `modify`, raw writes of all ones and zeros).
    pub fn register<T: Target>(&mut self, t: &T, steps: &[Step]) {
        self.register_dyn(t, steps);
    }

    /// [`Checker::register`], compiled once per layout and project (the
    /// checks are the same code for every register).
    fn register_dyn<L: Layout, P: Project>(
        &mut self,
        t: &dyn Target<L = L, P = P>,
        steps: &[Step],
    ) {
        self.registers += 1;
        let s = t.spec();
        let (name, address, reset, width, masked) = t.hal();
        let ctx = || format!("{} {}", self.project, s.name);
        let ctx = ctx();
        self.check(name == s.name, || format!("{ctx}: HAL name {name}"));
        let c = || ctx.clone();
        self.eq(&c, "HAL address", Some(address), s.address);
        self.eq(&c, "HAL reset", Some(reset), s.reset);
        self.eq(&c, "HAL width", Some(u64::from(width)), u64::from(s.width));
        self.check(masked == s.masked, || format!("{ctx}: HAL masked {masked}"));
        self.run(t, None, steps, &|_, _| false, None, None);
    }

    /// The field's HAL constants (`F`'s) against the IR's `spec`.
    fn field_meta<T: Target, F: Field>(&mut self, t: &T, spec: &FieldSpec) {
        let hal = (
            F::NAME,
            F::LSB,
            F::WIDTH,
            F::MASK,
            <F::Access as AccessType>::NAME,
        );
        self.field_consts(t.spec().name, spec, hal);
    }

    /// [`Checker::field_meta`] without the types: `hal` is the field's
    /// (name, lsb, width, mask, access) as the HAL gives them.
    fn field_consts(
        &mut self,
        register: &str,
        spec: &FieldSpec,
        hal: (&str, u32, u32, u64, &str),
    ) {
        let (name, lsb, width, mask, access) = hal;
        self.fields += 1;
        let ctx = format!("{} {register}.{}", self.project, spec.name);
        let c = || ctx.clone();
        self.check(name == spec.name, || format!("{ctx}: HAL name {name}"));
        self.eq(&c, "HAL lsb", Some(u64::from(lsb)), u64::from(spec.lsb));
        self.eq(&c, "HAL width", Some(u64::from(width)), u64::from(spec.width));
        self.eq(&c, "HAL mask", Some(mask), spec.mask());
        self.check(access == spec.access, || {
            format!("{ctx}: HAL access {access}")
        });
    }

    /// An RW, RW-V or RW-DB field: typed setter and getter.
    pub fn rw<T: Target, F: Field<Layout = T::L>>(&mut self, t: &T, f: F, spec: &FieldSpec)
    where
        F::Access: Settable + Gettable,
        F::Value: Value,
        <F::Value as FieldValue>::Read: ReadBits,
    {
        self.field(t, f, spec, &setter(f), Some(&getter(f)), None);
    }

    /// A WO field: typed setter, no getter.
    pub fn wo<T: Target, F: Field<Layout = T::L>>(&mut self, t: &T, f: F, spec: &FieldSpec)
    where
        F::Access: Settable,
        F::Value: Value,
    {
        self.field(t, f, spec, &setter(f), None, None);
    }

    /// An RW1C field: `clear`, getter.
    pub fn w1c<T: Target, F: Field<Layout = T::L>>(&mut self, t: &T, f: F, spec: &FieldSpec)
    where
        F::Access: Clearable + Gettable,
        <F::Value as FieldValue>::Read: ReadBits,
    {
        let build = one_op::<T::L>(
            |op| matches!(op, Clear),
            |w| {
                w.clear(f);
            },
        );
        let clear = || t.clear(f);
        self.field(t, f, spec, &build, Some(&getter(f)), Some(&clear));
    }

    /// An RW1S field: `set_ones`, getter.
    pub fn w1s<T: Target, F: Field<Layout = T::L>>(&mut self, t: &T, f: F, spec: &FieldSpec)
    where
        F::Access: OneSettable + Gettable,
        <F::Value as FieldValue>::Read: ReadBits,
    {
        let build = one_op::<T::L>(
            |op| matches!(op, SetOnes | ModifySetOnes),
            |w| {
                w.set_ones(f);
            },
        );
        self.field(t, f, spec, &build, Some(&getter(f)), None);
    }

    /// An RO, RO-V or RC field: getter only.
    pub fn ro<T: Target, F: Field<Layout = T::L>>(&mut self, t: &T, f: F, spec: &FieldSpec)
    where
        F::Access: Gettable,
        <F::Value as FieldValue>::Read: ReadBits,
    {
        self.field(t, f, spec, &|_, _| false, Some(&getter(f)), None);
    }

    /// An MBZ, RSVD or PBC field: neither setter nor getter.
    pub fn opaque<T: Target, F: Field<Layout = T::L>>(&mut self, t: &T, f: F, spec: &FieldSpec) {
        self.field(t, f, spec, &|_, _| false, None, None);
    }

    /// The field's HAL constants against the IR, then its steps (see [`Checker::run`]).
    fn field<T: Target, F: Field<Layout = T::L>>(
        &mut self,
        t: &T,
        _f: F,
        spec: &FieldSpec,
        build: &dyn Fn(Op, &mut Wr<T::L>) -> bool,
        get: Option<&dyn Fn(Rd<T::L>) -> u64>,
        clear: Option<&dyn Fn() -> Option<()>>,
    ) {
        self.field_meta::<T, F>(t, spec);
        self.run(t, Some(spec), spec.steps, build, get, clear);
    }

    /// Carry out `steps` on `t`; `build` makes the field's typed writes
    /// (false: not one this field has), `get` reads the field's bits,
    /// `clear` is `Device::clear` of the field.
    fn run<L: Layout, P: Project>(
        &mut self,
        t: &dyn Target<L = L, P = P>,
        field: Option<&FieldSpec>,
        steps: &[Step],
        build: &dyn Fn(Op, &mut Wr<L>) -> bool,
        get: Option<&dyn Fn(Rd<L>) -> u64>,
        clear: Option<&dyn Fn() -> Option<()>>,
    ) {
        let project = self.project;
        let spec = t.spec();
        let (addr, n) = (spec.address, spec.instances);
        let (fmask, lsb) = field.map_or((0, 0), |f| (f.mask(), f.lsb));
        let present = t.present();
        let here = |i: u32| present >> i & 1 != 0;
        let peek = |i: u32| t.gpu().with_bus(|e| e.peek(addr, i));
        let poke = |v: u64| t.gpu().with_bus(|e| e.poke(addr, v));
        for (k, &(op, bg, poked, stored, read, after)) in steps.iter().enumerate() {
            let ctx = || {
                let field = field.map_or(String::new(), |f| format!(".{} ({})", f.name, f.access));
                format!(
                    "{project} {}{field} step {k} {op:x?} over {bg:#x}",
                    spec.name
                )
            };
            let built = Cell::new(true);
            let make = |w: &mut Wr<L>| {
                if !build(op, w) {
                    built.set(false);
                }
            };
            let raw = |w: &mut Wr<L>| {
                if let Raw(v) = op {
                    *w = WriteValue::from_raw(v);
                }
            };
            let nothing = |_: &mut Wr<L>| {};
            let typed = match op {
                Set(_) | Clear | SetOnes => Some(Typed::Build(&make)),
                Raw(_) => Some(Typed::Build(&raw)),
                Bus(v) => Some(Typed::Bus(v)),
                Write => Some(Typed::Reset),
                Modify => Some(Typed::Modify(&nothing)),
                ModifySet(_) | ModifySetOnes => Some(Typed::Modify(&make)),
                DeviceClear | Read => None,
            };
            // Multicast (or the only instance).
            poke(bg);
            self.each_instance(&ctx, "poked", n, &peek, |_| poked);
            let wrote = match (op, typed) {
                (Read, _) => Some(true),
                (DeviceClear, _) => clear.and_then(|c| c()).map(|()| true),
                (_, Some(typed)) => t.write(None, typed),
                (_, None) => None,
            };
            self.check(wrote == Some(true) && built.get(), || {
                format!("{}: the HAL has no such write ({wrote:?})", ctx())
            });
            self.each_instance(&ctx, "stored", n, &peek, |i| {
                if here(i) {
                    stored
                } else {
                    poked
                }
            });
            self.read_back(t, &ctx, read, fmask, lsb, get, None);
            self.each_instance(&ctx, "after the read", n, &peek, |i| {
                if here(i) {
                    after
                } else {
                    poked
                }
            });
            // Unicast writes of each instance of a replicated register.
            let unicast =
                n > 1 && t.unicast() && matches!(op, Set(_) | Clear | SetOnes | Raw(_) | Write);
            let Some(typed) = typed.filter(|_| unicast) else {
                continue;
            };
            for i in 0..n {
                let ctx = || format!("{} write_one({i})", ctx());
                poke(bg);
                let wrote = t.write(Some(i), typed);
                self.check(wrote == Some(here(i)) && built.get(), || {
                    format!("{}: wrote {wrote:?}, instance present: {}", ctx(), here(i))
                });
                self.each_instance(&ctx, "stored", n, &peek, |j| {
                    if j == i && here(i) {
                        stored
                    } else {
                        poked
                    }
                });
                if here(i) {
                    self.read_back(t, &ctx, read, fmask, lsb, get, Some(i));
                    self.eq(
                        &|| format!("{} instance {i}", ctx()),
                        "after the read",
                        peek(i),
                        after,
                    );
                }
            }
        }
    }

    /// The stored value of each of the `n` instances (`peek`) against `want`.
    fn each_instance(
        &mut self,
        ctx: &dyn Fn() -> String,
        what: &str,
        n: u32,
        peek: &dyn Fn(u32) -> Option<u64>,
        want: impl Fn(u32) -> u64,
    ) {
        for i in 0..n {
            self.eq(
                &|| format!("{} instance {i}", ctx()),
                what,
                peek(i),
                want(i),
            );
        }
    }

    /// Read every present instance (or only `only`) through the HAL: the raw
    /// value is `read`, the field's getter agrees with its bits; an absent
    /// instance reads as nothing.
    #[allow(clippy::too_many_arguments)]
    fn read_back<L: Layout, P: Project>(
        &mut self,
        t: &dyn Target<L = L, P = P>,
        ctx: &dyn Fn() -> String,
        read: u64,
        fmask: u64,
        lsb: u32,
        get: Option<&dyn Fn(Rd<L>) -> u64>,
        only: Option<u32>,
    ) {
        let present = t.present();
        for i in 0..t.spec().instances {
            if only.is_some_and(|o| o != i) {
                continue;
            }
            let ctx = || format!("{} read instance {i}", ctx());
            let r = t.read(i);
            if present >> i & 1 == 0 {
                self.check(r.is_none(), || {
                    format!("{}: an absent instance read", ctx())
                });
                continue;
            }
            let Some(r) = r else {
                self.check(false, || format!("{}: nothing read", ctx()));
                continue;
            };
            self.eq(&ctx, "read", Some(r.raw()), read);
            if let Some(get) = get {
                self.eq(&ctx, "typed getter", Some(get(r)), (read & fmask) >> lsb);
            }
        }
    }

    /// Print the counts; fail with the failures, if any, and when fewer
    /// registers or fields were checked than the reset table lists (each
    /// listed register is checked or skipped with a reason; each of its
    /// fields is checked unless the register is skipped).
    pub fn finish(self) {
        assert!(
            self.listed > 0,
            "conformance {}: the generated reset table lists no register",
            self.project
        );
        assert!(
            self.registers + self.skipped.len() >= self.listed,
            "conformance {}: {} registers checked and {} skipped, the reset table lists {}",
            self.project,
            self.registers,
            self.skipped.len(),
            self.listed
        );
        assert!(
            !self.skipped.is_empty() || self.fields >= self.listed_fields,
            "conformance {}: {} fields checked, the listed registers have {}",
            self.project,
            self.fields,
            self.listed_fields
        );
        println!(
            "conformance {}{}: {} registers, {} fields, {} checks, {} skipped, {:.2?}",
            self.project,
            if self.traced { " (traced)" } else { "" },
            self.registers,
            self.fields,
            self.checks,
            self.skipped.len(),
            self.started.elapsed()
        );
        for s in &self.skipped {
            println!("  skipped {s}");
        }
        if self.failed > 0 {
            let more = self.failed - self.failures.len();
            panic!(
                "conformance {}: {} of {} checks failed:\n{}{}",
                self.project,
                self.failed,
                self.checks,
                self.failures.join("\n"),
                if more > 0 {
                    format!("\n... and {more} more")
                } else {
                    String::new()
                }
            );
        }
    }
}
