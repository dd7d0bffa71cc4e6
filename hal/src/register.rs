//! Registers as locations: a zero-sized value (or an array element carrying its
//! index) with address, reset and project as constants, a shared field
//! [`Layout`], and the traits that say what may be done with it.
//!
//! What a register allows follows from its layout and its cast through blanket
//! impls, so each generated register is a struct and one [`Register`] impl.

use crate::access::{ReadValue, WriteValue};
use crate::bus::Space;
use crate::meta::{FieldInfo, RegisterInfo};
use crate::power::Domain;
use core::marker::PhantomData;

/// A project (SNB, HSW, TGL, ...): the type parameter of a device handle.
pub trait Project: Copy + Default + core::fmt::Debug + 'static {
    /// Lower-case tag (`hsw`).
    const NAME: &'static str;
    /// Human name.
    const TITLE: &'static str;
    /// C2 carries the GPU clock: the project's report layouts have no
    /// GPU_TICKS (SNB..HSW). Set by the generator from the layouts.
    const GPU_CLOCK_IN_C2: bool = false;
    /// The project's register metadata (`hal::bdw::PROJECT`), for checks
    /// made at run time on address lists such as
    /// [`Device::program`](crate::Device::program); `None` for projects
    /// defined by hand.
    const INFO: Option<&'static crate::meta::ProjectInfo> = None;
    /// The steering semaphores of the project (graphics 12.70+: the
    /// selector's, and the media GT's): [`Device::program`](crate::Device::program)
    /// holds them around its writes, as Linux xe's `mcr_lock` holds them
    /// around every CPU access to a replicated range. Empty before 12.70.
    const SEMAPHORES: &'static [Semaphore] = &[];
}

/// A field layout: the value types, fields and masks that every register with
/// the same fields shares (across registers and projects).
pub trait Layout: 'static {
    /// Value read from a register of this layout.
    type Read: ReadValue<Layout = Self>;
    /// Value built to write a register of this layout.
    type Write: WriteValue<Layout = Self>;
    /// Name of the layout (the first register that uses it).
    const NAME: &'static str;
    /// 32 or 64.
    const WIDTH: u32;
    /// Bits a `modify` writes back as read and a `write` starts at their reset
    /// value: every described field except RW1C and RW1S (a written one would
    /// clear or set them) and MBZ/reserved ones. Those, and bits no field
    /// describes, are always written as zero.
    const KEEP_MASK: u64;
    /// Runtime description of the fields, by ascending lsb.
    const FIELDS: &'static [FieldInfo];
}

/// The value read from register `R` (its layout's `R`).
pub type ReadOf<R> = <<R as Register>::Layout as Layout>::Read;
/// The value built to write register `R` (its layout's `W`).
pub type WriteOf<R> = <<R as Register>::Layout as Layout>::Write;

/// Layouts with at least one readable field (or none described).
pub trait ReadableLayout: Layout {}
/// Layouts written with `write`/`modify`: not masked, at least one writable field.
pub trait WritableLayout: Layout {}
/// Masked layouts: bits 31:16 of a write enable the write of bits 15:0.
pub trait MaskedLayout: Layout {}

/// How a register is reached: [`Single`] or [`Multicast`].
pub trait Cast: 'static {}
/// One value: plain `read`/`write`/`modify`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Single;
impl Cast for Single {}
/// One value per instance of replication group `G`: the steering API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Multicast<G>(PhantomData<G>);
impl<G: ReplicationGroup> Cast for Multicast<G> {}

/// A register of one project.
///
/// A generated register is a zero-sized value that is not `Copy`: the two
/// impls would be compiled again for every register of every crate that
/// generates registers. Name the register again, or pass a reference (a
/// reference to a register is that register, with the same capabilities,
/// in generic code too):
///
/// ```
/// use hal::{hsw, Awake, Device, Hsw, OnProject, ReadOf, Readable, SliceBus, Unicast, Writable};
///
/// /// Clear a register and read it back (a helper that keeps its register).
/// fn clear_and_read<R, A>(gpu: &Device<Hsw, SliceBus<'_>>, reg: R, rw: &A) -> ReadOf<R>
/// where
///     R: Readable + Writable + Unicast + OnProject<Hsw>,
///     A: Awake<R::Domain>,
/// {
///     gpu.write_from_zero(&reg, rw, |w| w);
///     gpu.read(&reg, rw)
/// }
///
/// let mut mem = [0u32; 0x3000 / 4];
/// mem[0x2360 / 4] = 0xABD;
/// let gpu = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
/// let rw = gpu.assume_awake::<hsw::domains::Render>();
/// assert_eq!(clear_and_read(&gpu, hsw::OACONTROL, &rw).bits(), 0);
/// let oacontrol = &hsw::OACONTROL; // a reference is `Copy`
/// assert_eq!(gpu.read(oacontrol, &rw).bits(), gpu.read(oacontrol, &rw).bits());
/// ```
pub trait Register: Sized {
    /// The project it belongs to.
    type Project: Project;
    /// Its address space.
    type Space: Space;
    /// Its power domain ([`NoDomain`](crate::power::NoDomain) outside every force-wake range).
    type Domain: Domain;
    /// Its field layout.
    type Layout: Layout;
    /// [`Single`] or [`Multicast`].
    type Cast: Cast;
    /// Runtime description (of element 0 for an array). A generated register
    /// gives only this: its name, address and reset are read from it.
    const INFO: &'static RegisterInfo;
    /// Name as in the PRM (`OACONTROL`; `CEC{n}_0` for an array).
    const NAME: &'static str = Self::INFO.name;
    /// Address: byte offset (MMIO, PCI) or MSR index (of element 0 for an array).
    const ADDRESS: u64 = Self::INFO.address;
    /// 32 or 64.
    const WIDTH: u32 = <Self::Layout as Layout>::WIDTH;
    /// Reset value on this project.
    const RESET: u64 = Self::INFO.reset;
    /// See [`Layout::KEEP_MASK`].
    const KEEP_MASK: u64 = <Self::Layout as Layout>::KEEP_MASK;
    /// The address of this register (of this element, for an array element).
    #[inline(always)]
    fn address(&self) -> u64 {
        Self::ADDRESS
    }
    /// Runtime description of this register (of this element).
    #[inline]
    fn info(&self) -> &'static RegisterInfo {
        Self::INFO
    }
}

/// A reference to a register is that register: code that keeps a register
/// (a generic helper, a table, a struct field) passes `&reg` as often as it
/// likes. Generated registers are zero-sized values that are not `Copy` (the
/// two impls a register would need cost compile time in every crate that
/// generates registers); name the register again or pass a reference.
impl<R: Register> Register for &R {
    type Project = R::Project;
    type Space = R::Space;
    type Domain = R::Domain;
    type Layout = R::Layout;
    type Cast = R::Cast;
    const INFO: &'static RegisterInfo = R::INFO;
    const NAME: &'static str = R::NAME;
    const ADDRESS: u64 = R::ADDRESS;
    const RESET: u64 = R::RESET;
    #[inline(always)]
    fn address(&self) -> u64 {
        R::address(self)
    }
    #[inline]
    fn info(&self) -> &'static RegisterInfo {
        R::info(self)
    }
}

/// Registers that can be read.
#[diagnostic::on_unimplemented(
    message = "this register cannot be read",
    label = "this register is write-only",
    note = "reads of write-only registers return nothing meaningful; keep a copy of what you wrote"
)]
pub trait Readable: Register<Layout: ReadableLayout> {}
// Hidden from the docs: a register page states what it allows in its table.
#[doc(hidden)]
#[diagnostic::do_not_recommend]
impl<R: Register> Readable for R where R::Layout: ReadableLayout {}

/// Registers written with `write`/`modify` (not masked, at least one writable field).
#[diagnostic::on_unimplemented(
    message = "this register cannot be written with `write` or `modify`",
    label = "this register is read-only or masked",
    note = "read-only registers ignore writes; a masked register (bits 31:16 enable bits 15:0) is written with `write_masked`, never read-modify-written"
)]
pub trait Writable: Register<Layout: WritableLayout> {}
// Hidden from the docs: a register page states what it allows in its table.
#[doc(hidden)]
#[diagnostic::do_not_recommend]
impl<R: Register> Writable for R where R::Layout: WritableLayout {}

/// Masked registers: bits 31:16 of a write enable the write of bits 15:0.
#[diagnostic::on_unimplemented(
    message = "this register is not a masked register",
    label = "`write_masked` is only for masked registers",
    note = "write ordinary registers with `write` or `modify`"
)]
pub trait MaskedWritable: Register<Layout: MaskedLayout> {}
// Hidden from the docs: a register page states what it allows in its table.
#[doc(hidden)]
#[diagnostic::do_not_recommend]
impl<R: Register> MaskedWritable for R where R::Layout: MaskedLayout {}

/// Proof that a register exists on project `P` (at the address its constants give).
#[diagnostic::on_unimplemented(
    message = "this register does not exist on project `{P}`",
    label = "this register is not available on `{P}`",
    note = "each project has its own module of registers (`perfregs::hal::hsw`, `perfregs::hal::ivb`, ...): use the one your device handle is for"
)]
pub trait OnProject<P: Project>: Register<Project: SameProject<P>> {}
// Hidden from the docs: a register page states what it allows in its table.
#[doc(hidden)]
#[diagnostic::do_not_recommend]
impl<R: Register, P: Project> OnProject<P> for R where R::Project: SameProject<P> {}

/// `P` and `Q` are one project (a trait, so a mismatch reports [`OnProject`]'s message).
#[doc(hidden)]
pub trait SameProject<Q> {}
#[doc(hidden)]
impl<P: Project> SameProject<P> for P {}

/// Registers with one value (not replicated): plain `read`/`write`/`modify` work.
#[diagnostic::on_unimplemented(
    message = "this register is replicated (multicast): it has one value per instance",
    label = "a plain access would hit whichever instance the steering register selects",
    note = "use the steering API: `let mut mcr = gpu.steering(&proof);` then `mcr.read(reg, instance, &guard)`, `read_any`, `read_each`, `write` (multicast) or `write_one`"
)]
pub trait Unicast: Register<Cast = Single> {}
// Hidden from the docs: a register page states what it allows in its table.
#[doc(hidden)]
#[diagnostic::do_not_recommend]
impl<R: Register<Cast = Single>> Unicast for R {}

/// Replicated (multicast) registers: one value per instance of a group.
#[diagnostic::on_unimplemented(
    message = "this register is not replicated",
    label = "the steering API is for multicast registers",
    note = "access it with `gpu.read`/`gpu.write`"
)]
pub trait Replicated: Register<Cast: MulticastCast> {
    /// Its replication group.
    type Group: ReplicationGroup;
}
// Hidden from the docs: a register page states what it allows in its table.
#[doc(hidden)]
#[diagnostic::do_not_recommend]
impl<R> Replicated for R
where
    R: Register<Cast: MulticastCast>,
{
    type Group = <R::Cast as MulticastCast>::Group;
}

/// [`Multicast`], with its group (a trait, so that `R: Replicated` tells
/// generic code that `&R` is replicated too).
#[doc(hidden)]
pub trait MulticastCast: Cast {
    /// The replication group.
    type Group: ReplicationGroup;
}
#[doc(hidden)]
impl<G: ReplicationGroup> MulticastCast for Multicast<G> {
    type Group = G;
}

/// An array of registers (`CEC{n}_0`: `count` elements, `stride` bytes apart).
/// The array itself is a zero-sized value; [`Elem`] is one element.
pub trait RegisterArray: Copy + 'static {
    /// The project it belongs to.
    type Project: Project;
    /// Its address space.
    type Space: Space;
    /// Power domain of every element.
    type Domain: Domain;
    /// Field layout of every element.
    type Layout: Layout;
    /// [`Single`] or [`Multicast`], for every element.
    type Cast: Cast;
    /// Template name (`CEC{n}_0`).
    const NAME: &'static str;
    /// Address of element 0.
    const BASE: u64;
    /// Distance between elements.
    const STRIDE: u64;
    /// Number of elements on this project.
    const COUNT: usize;
    /// Reset value of every element.
    const RESET: u64;
    /// Runtime descriptions of the elements, in order (`COUNT` of them).
    const INFOS: &'static [&'static RegisterInfo];
}

/// One element of a register array: a register whose address is
/// `BASE + index * STRIDE`. Made by the array's `at::<N>()` (index checked at
/// compile time), `get(n)` (checked at run time) or `iter()`.
pub struct Elem<A> {
    index: u32,
    array: PhantomData<A>,
}

impl<A> Clone for Elem<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for Elem<A> {}
impl<A> PartialEq for Elem<A> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<A> Eq for Elem<A> {}

impl<A: RegisterArray> core::fmt::Debug for Elem<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.info().name)
    }
}

impl<A: RegisterArray> Elem<A> {
    /// Element `N`; an index past the end does not compile.
    #[inline(always)]
    pub const fn at<const N: usize>() -> Self {
        const { assert!(N < A::COUNT, "register array index out of bounds") };
        Elem {
            index: N as u32,
            array: PhantomData,
        }
    }
    /// Element `n`, or `None` past the end.
    #[inline]
    pub const fn get(n: usize) -> Option<Self> {
        if n < A::COUNT {
            Some(Elem {
                index: n as u32,
                array: PhantomData,
            })
        } else {
            None
        }
    }
    /// Every element, in order.
    pub fn all() -> impl Iterator<Item = Self> + Clone {
        (0..A::COUNT).map(|n| Elem {
            index: n as u32,
            array: PhantomData,
        })
    }
    /// This element's index.
    #[inline]
    pub const fn index(self) -> usize {
        self.index as usize
    }
}

/// The register table of one project of one generated module (its
/// `REGISTERS`): the rows a [`Location`] reads its description from.
pub trait Table: 'static {
    /// The project the rows describe.
    type Project: Project;
    /// One row per register (array elements expanded), in table order.
    const ROWS: &'static [RegisterInfo];
}

/// A generated register: where it is (row `ROW` of table `T`, in space `S`,
/// power domain `D`, reached as `C`) and its field layout `L`. Every
/// generated register that is not an array is a type alias of a `Location`
/// and a constant of the same name (`tgl::OACONTROL` names both), so one
/// generic [`Register`] impl serves every register of every crate instead of
/// one impl per register. Like a unit struct, it is a zero-sized value that
/// is not `Copy` (see [`Register`]).
pub struct Location<T, S, D, L, C, const ROW: usize>(PhantomData<LocationParts<T, S, D, L, C>>);

/// What a [`Location`] holds of its parameters: nothing (a `fn` pointer
/// type, so it is `Send` and `Sync` whatever they are).
type LocationParts<T, S, D, L, C> = fn() -> (T, S, D, L, C);

impl<T, S, D, L, C, const ROW: usize> Location<T, S, D, L, C, ROW> {
    /// The register's value (what the generated constant holds).
    pub const NEW: Self = Location(PhantomData);
}

/// A generated register that is not an array, in a project module (where
/// `Table` is the project's [`Table`] and `super::layouts` the field
/// layouts): its attributes (the docs), then `NAME = Space, Domain, module,
/// Cast, row; layout`. Gives the [`Location`] type alias and the constant
/// of the same name, and re-exports the layout module `layout` as `module`
/// (the register's lower-case name). The generated code is this short form
/// because the proc-macro that writes it runs unoptimized: its time goes
/// into every token it builds, rustc's expansion of the form into none.
#[doc(hidden)]
#[macro_export]
macro_rules! register_location {
    ($(#[$attr:meta])* $name:ident = $space:ident, $domain:ty, $module:ident,
     $cast:ident $(<$group:ty>)?, $row:literal; $layout:ident) => {
        $(#[$attr])*
        pub type $name = $crate::register::Location<
            Table,
            $crate::$space,
            $domain,
            $module::FieldLayout,
            $crate::register::$cast $(<$group>)?,
            $row,
        >;
        // `$name::NEW`, not `Location::NEW`: rustc has no parameters to
        // infer (3% of a 1,000-register crate's compile time).
        #[doc(hidden)]
        pub const $name: $name = $name::NEW;
        #[doc(no_inline)]
        pub use super::layouts::$layout as $module;
    };
}

/// One row of a project's register table ([`RegisterInfo`]), in a project
/// module (where `super::layouts` holds the field layouts): name, block,
/// title, space kind, address, width, reset, masked, layout module, wake
/// domain, replication. Short for the reason [`register_location!`] gives.
#[doc(hidden)]
#[macro_export]
macro_rules! register_row {
    ($name:literal, $block:literal, $title:literal, $space:ident, $address:literal,
     $width:literal, $reset:literal, $masked:literal, $layout:ident, $domain:expr,
     $replication:expr) => {
        $crate::meta::RegisterInfo {
            name: $name,
            block: $block,
            title: $title,
            space: $crate::meta::SpaceKind::$space,
            address: $address,
            width: $width,
            reset: $reset,
            masked: $masked,
            fields: <super::layouts::$layout::FieldLayout as $crate::register::Layout>::FIELDS,
            domain: $domain,
            replication: $replication,
        }
    };
}

impl<T: Table, S: Space, D: Domain, L: Layout, C: Cast, const ROW: usize> Register
    for Location<T, S, D, L, C, ROW>
{
    type Project = T::Project;
    type Space = S;
    type Domain = D;
    type Layout = L;
    type Cast = C;
    const INFO: &'static RegisterInfo = &T::ROWS[ROW];
}

impl<A: RegisterArray> Register for Elem<A> {
    type Project = A::Project;
    type Space = A::Space;
    type Domain = A::Domain;
    type Layout = A::Layout;
    type Cast = A::Cast;
    const NAME: &'static str = A::NAME;
    const ADDRESS: u64 = A::BASE;
    const RESET: u64 = A::RESET;
    const INFO: &'static RegisterInfo = A::INFOS[0];
    #[inline(always)]
    fn address(&self) -> u64 {
        A::BASE.wrapping_add((self.index as u64).wrapping_mul(A::STRIDE))
    }
    #[inline]
    fn info(&self) -> &'static RegisterInfo {
        A::INFOS[self.index as usize]
    }
}
/// Where the presence of each instance of a group is fused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fuse {
    /// MMIO address of the fuse mirror register.
    pub address: u64,
    /// Lowest bit of the field (bit `lsb + n` is instance n).
    pub lsb: u32,
    /// Field width.
    pub width: u32,
    /// True: a set bit means present; false: a set bit means fused off.
    pub set_means_present: bool,
}

/// A replication group type (`tgl::groups::Dss`).
pub trait ReplicationGroup: Copy + Default + core::fmt::Debug + 'static {
    /// Name (`dss`).
    const NAME: &'static str;
    /// Index among the project's groups.
    const INDEX: usize;
    /// Number of instances.
    const INSTANCES: u32;
    /// Fuse mirror, if instances can be fused off.
    const FUSE: Option<Fuse>;
    /// Instances per group id of the selector: instance n is steered to
    /// group (slice field) `n / PER_GROUP`, instance (subslice field)
    /// `n % PER_GROUP`. 0: `2^width(subslice)` (slice `n >> width`,
    /// subslice the low bits: the encoding of Gen8..Gen12).
    const PER_GROUP: u32 = 0;
    /// The selector this group is steered through when it is not the
    /// project's ([`Steered`]): the media GT's own, at +0x380000.
    const SELECTOR: Option<Selector> = None;
}

/// A hardware steering semaphore shared with firmware (graphics 12.70+): a
/// read that returns bit `bit` set takes it, a write of that bit gives it
/// back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semaphore {
    /// MMIO address.
    pub address: u64,
    /// The bit read and written.
    pub bit: u32,
}

/// A steering selector: where it is and where its fields are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selector {
    /// MMIO address.
    pub address: u64,
    /// Mask of the multicast bit (0: none).
    pub multicast: u64,
    /// `(lsb, width)` of the slice (group id) field.
    pub slice: (u32, u32),
    /// `(lsb, width)` of the subslice (instance id) field.
    pub subslice: (u32, u32),
    /// Semaphore held around each access steered through it.
    pub semaphore: Option<Semaphore>,
}

/// Projects with multicast steering: where the CPU's steering selector lives.
pub trait Steered: Project {
    /// MMIO address of the selector (MCR_SELECTOR).
    const SELECTOR: u64;
    /// Mask of the multicast bit; 0 when the selector has none (Gen8..Gen10:
    /// such a project is not [`MulticastSteered`]).
    const MULTICAST: u64;
    /// `(lsb, width)` of the slice id field.
    const SLICE: (u32, u32);
    /// `(lsb, width)` of the subslice id field.
    const SUBSLICE: (u32, u32);
    /// Power domain of the selector and the fuse mirrors (read when steering starts).
    type Domain: Domain;
    /// Fuses of every group, indexed by [`ReplicationGroup::INDEX`].
    const GROUPS: &'static [(u32, Option<Fuse>)];
    /// Semaphore held around each access steered through [`Steered::SELECTOR`]
    /// (graphics 12.70+, Linux xe's `mcr_lock`); `None` before.
    const SEMAPHORE: Option<Semaphore> = None;
}

/// Steered projects whose selector has a multicast bit (TGL): one write can
/// reach every instance, and a write can be made unicast. Gen8..Gen10
/// selectors (GEN8_MCR_SELECTOR) have no such bit and no public source says
/// whether a steered CPU write there reaches one instance or all, so those
/// projects get only steered reads and
/// [`Steering::write_each`](crate::Steering::write_each) (the same value
/// written to each instance, correct either way).
#[diagnostic::on_unimplemented(
    message = "the steering selector of `{Self}` has no multicast bit",
    label = "multicast and unicast writes need a selector with a multicast bit",
    note = "write the same value to every instance with `mcr.write_each(reg, &guard, |w| ...)`"
)]
pub trait MulticastSteered: Steered {}
