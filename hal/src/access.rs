//! Access types as types, and the field traits built on them.
//!
//! Every field carries its access marker (`Rw`, `Ro`, `Rw1c`, ...). What a
//! field allows is a trait of its marker: a setter needs [`Settable`], a getter
//! [`Gettable`], a clear [`Clearable`]. Misuse is a compile error whose message
//! names the access type.

use crate::register::Layout;
use core::marker::PhantomData;

mod sealed {
    pub trait Sealed {}
}

/// An access type marker.
pub trait AccessType: sealed::Sealed + Copy + Default + 'static {
    /// Canonical spelling (`RW1C`).
    const NAME: &'static str;
}

macro_rules! access_types {
    ($($(#[$m:meta])* $t:ident = $s:literal),* $(,)?) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $t;
        impl sealed::Sealed for $t {}
        impl AccessType for $t { const NAME: &'static str = $s; }
    )*};
}

access_types! {
    /// Read and write.
    Rw = "RW",
    /// Read only: writes are ignored.
    Ro = "RO",
    /// Write only: reads return zero.
    Wo = "WO",
    /// Write one to clear.
    Rw1c = "RW1C",
    /// Write one to set.
    Rw1s = "RW1S",
    /// Clear on read.
    Rc = "RC",
    /// Must be zero: software always writes zero.
    Mbz = "MBZ",
    /// Reserved: ignored on read, written as zero.
    Rsvd = "RSVD",
    /// Preserve: written back as read.
    Pbc = "PBC",
    /// Read/write, hardware may change the value.
    RwV = "RW-V",
    /// Read only, hardware may change the value.
    RoV = "RO-V",
    /// Read/write, double buffered.
    RwDb = "RW-DB",
}

/// Access types whose fields have setters.
#[diagnostic::on_unimplemented(
    message = "cannot set a field of access type `{Self}`",
    label = "this field's access type does not allow setting it",
    note = "only RW, WO, RW-V and RW-DB fields have setters: RO fields are read-only, MBZ and RSVD fields are always written as zero, RW1C fields are cleared with `clear(..)` and never written back, PBC fields are preserved by `modify`"
)]
pub trait Settable: AccessType {}
impl Settable for Rw {}
impl Settable for Wo {}
impl Settable for RwV {}
impl Settable for RwDb {}

/// Access types whose fields have getters.
#[diagnostic::on_unimplemented(
    message = "cannot read a field of access type `{Self}`",
    label = "this field's access type does not allow reading it",
    note = "WO fields read as zero, MBZ/RSVD fields are undefined, PBC fields are opaque"
)]
pub trait Gettable: AccessType {}
impl Gettable for Rw {}
impl Gettable for Ro {}
impl Gettable for Rw1c {}
impl Gettable for Rw1s {}
impl Gettable for Rc {}
impl Gettable for RwV {}
impl Gettable for RoV {}
impl Gettable for RwDb {}

/// Write-one-to-clear access: the only way to clear such a bit is [`WriteValue::clear`].
#[diagnostic::on_unimplemented(
    message = "cannot clear a field of access type `{Self}`",
    label = "only RW1C fields are cleared by writing ones",
    note = "use a setter for RW fields"
)]
pub trait Clearable: AccessType {}
impl Clearable for Rw1c {}

/// Write-one-to-set access: set with [`WriteValue::set_ones`].
#[diagnostic::on_unimplemented(
    message = "cannot set-by-one a field of access type `{Self}`",
    label = "only RW1S fields are set by writing ones"
)]
pub trait OneSettable: AccessType {}
impl OneSettable for Rw1s {}

/// A value a field holds: `bool`, [`Bits<N>`](crate::Bits) or a generated enum.
pub trait FieldValue: Sized {
    /// What a read yields: `Self`, or `Result<Self, u64>` for enums that do not
    /// name every encoding (the `Err` carries the unnamed raw value).
    type Read;
    /// Encode (already within the field width).
    fn to_bits(self) -> u64;
    /// Decode the field's bits (already shifted down and masked).
    fn from_bits(bits: u64) -> Self::Read;

    /// The bits of [`FieldValue::to_raw_bits`] that carry the value.
    #[doc(hidden)]
    const RAW_MASK: u64 = u64::MAX;
    /// Encode, possibly with meaningless bits above [`FieldValue::RAW_MASK`]
    /// (for setters, which shift the value into place and mask it there).
    #[doc(hidden)]
    #[inline(always)]
    fn to_raw_bits(self) -> u64 {
        self.to_bits()
    }
}

impl FieldValue for bool {
    type Read = bool;
    #[inline]
    fn to_bits(self) -> u64 {
        self as u64
    }
    #[inline]
    fn from_bits(bits: u64) -> bool {
        bits != 0
    }
}

impl<const N: u32> FieldValue for crate::Bits<N> {
    type Read = Self;
    const RAW_MASK: u64 = Self::MAX;
    #[inline]
    fn to_bits(self) -> u64 {
        self.get()
    }
    #[inline(always)]
    fn to_raw_bits(self) -> u64 {
        self.unmasked()
    }
    #[inline]
    fn from_bits(bits: u64) -> Self {
        crate::Bits::truncate(bits)
    }
}

/// A field of a layout: a zero-sized value naming bits and their access.
pub trait Field: Copy {
    /// The layout it belongs to.
    type Layout: Layout;
    /// Its access marker.
    type Access: AccessType;
    /// Its value type.
    type Value: FieldValue;
    /// Field name.
    const NAME: &'static str;
    /// Lowest bit.
    const LSB: u32;
    /// Number of bits.
    const WIDTH: u32;
    /// Mask of the field in the register.
    const MASK: u64 = (if Self::WIDTH >= 64 {
        u64::MAX
    } else {
        (1u64 << Self::WIDTH) - 1
    }) << Self::LSB;
}

/// Field `K` (its index in `L::FIELDS`) of layout `L`, with access `A` and
/// value type `V`: each generated field is a constant of this type
/// (`hsw::oacontrol::TIMER_PERIOD`), its bits read from the layout's table
/// at compile time.
pub struct FieldAt<L, A, V, const K: usize>(PhantomData<(L, A, V)>);

impl<L, A, V, const K: usize> FieldAt<L, A, V, K> {
    /// The field value (a zero-sized token).
    pub const NEW: Self = FieldAt(PhantomData);
}
impl<L, A, V, const K: usize> Clone for FieldAt<L, A, V, K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, A, V, const K: usize> Copy for FieldAt<L, A, V, K> {}
impl<L: Layout, A: AccessType, V: FieldValue, const K: usize> core::fmt::Debug
    for FieldAt<L, A, V, K>
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}.{} ({})", L::NAME, <Self as Field>::NAME, A::NAME)
    }
}
impl<L: Layout, A: AccessType, V: FieldValue, const K: usize> Field for FieldAt<L, A, V, K> {
    type Layout = L;
    type Access = A;
    type Value = V;
    const NAME: &'static str = L::FIELDS[K].name;
    const LSB: u32 = L::FIELDS[K].lsb;
    const WIDTH: u32 = L::FIELDS[K].width;
}

/// The mask of field `f` in its register.
pub const fn mask<F: Field>(_f: F) -> u64 {
    F::MASK
}

/// A value read from a register.
pub trait ReadValue: Copy {
    /// The layout.
    type Layout: Layout;
    /// Wrap raw bits.
    fn from_raw(raw: u64) -> Self;
    /// The raw bits.
    fn raw(self) -> u64;

    /// Read one field (the named getters of enumerated fields call this;
    /// those of plain fields read their bits themselves).
    #[inline]
    fn get<F>(self, _field: F) -> <F::Value as FieldValue>::Read
    where
        F: Field<Layout = Self::Layout>,
        F::Access: Gettable,
    {
        F::Value::from_bits((self.raw() & F::MASK) >> F::LSB)
    }
}

/// A value being built for a write.
pub trait WriteValue: Sized {
    /// The layout.
    type Layout: Layout;
    /// Start from raw bits.
    fn from_raw(raw: u64) -> Self;
    /// The bits to write (for masked registers, the enables in 31:16 included).
    fn raw(&self) -> u64;
    /// Replace the bits under `mask` by `bits` (and, on masked registers, enable them).
    fn insert(&mut self, mask: u64, bits: u64);

    /// Set one field (the named setters of enumerated fields call this;
    /// those of plain fields insert their bits themselves).
    ///
    /// Shift, then mask, as hand-written code does: the value's truncation to
    /// its width happens in this one mask (the second mask is constant-folded).
    #[inline]
    fn set<F>(&mut self, _field: F, value: F::Value) -> &mut Self
    where
        F: Field<Layout = Self::Layout>,
        F::Access: Settable,
    {
        let mask = F::MASK & (<F::Value as FieldValue>::RAW_MASK << F::LSB);
        self.insert(F::MASK, (value.to_raw_bits() << F::LSB) & mask);
        self
    }

    /// Clear a write-one-to-clear field: writes ones to exactly its bits.
    #[inline]
    fn clear<F>(&mut self, _field: F) -> &mut Self
    where
        F: Field<Layout = Self::Layout>,
        F::Access: Clearable,
    {
        self.insert(F::MASK, F::MASK);
        self
    }

    /// Set a write-one-to-set field: writes ones to exactly its bits.
    #[inline]
    fn set_ones<F>(&mut self, _field: F) -> &mut Self
    where
        F: Field<Layout = Self::Layout>,
        F::Access: OneSettable,
    {
        self.insert(F::MASK, F::MASK);
        self
    }
}
