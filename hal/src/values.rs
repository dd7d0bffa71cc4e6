//! The value types every generated layout has, written once: `layout_values!`
//! expands, inside a layout module, to its read value `R` and write value `W`
//! with their trait impls. The generated code adds only what differs per
//! layout: the field getters and setters and `R`'s `Debug`. Also the
//! non-generic formatting those `Debug` impls call.

/// A field's value in `Debug` output: hexadecimal (also how
/// [`Bits`](crate::Bits) prints). Generated code formats plain fields
/// through it, not through their typed getters, so `Debug` instantiates no
/// generic code per field.
#[doc(hidden)]
pub struct DebugBits(pub u64);

impl core::fmt::Debug for DebugBits {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

// The `Debug` impls of the generated value types are `#[inline]` one-line
// calls into these functions: a formatting body in each of them would be
// compiled to machine code in every crate that generates registers, used or
// not.

/// `R`'s `Debug` for a layout whose readable fields are all plain (`bool`
/// or `Bits<N>`): `TITLE { field: 0x.., flag: true, .. }`, the readable
/// fields in table order, read from the layout's field table. One function
/// instead of a formatting chain per layout (the chain cost rustc about
/// 0.15 s per 100 layouts in the compile race).
#[doc(hidden)]
pub fn debug_fields(
    f: &mut core::fmt::Formatter<'_>,
    title: &str,
    raw: u64,
    fields: &[crate::meta::FieldInfo],
) -> core::fmt::Result {
    let mut d = f.debug_struct(title);
    for field in fields.iter().filter(|field| field.access.readable()) {
        let value = raw.checked_shr(field.lsb).unwrap_or(0)
            & u64::MAX.checked_shr(64 - field.width.min(64)).unwrap_or(0);
        if field.width == 1 {
            d.field(field.name, &(value != 0));
        } else {
            d.field(field.name, &DebugBits(value));
        }
    }
    d.finish()
}

/// `W`'s `Debug`: `TITLE(0x..)`.
#[doc(hidden)]
pub fn debug_word(f: &mut core::fmt::Formatter<'_>, title: &str, word: u64) -> core::fmt::Result {
    write!(f, "{title}({word:#x})")
}

/// A masked register's `W`'s `Debug`: `TITLE(enable 0x...., value 0x....)`.
#[doc(hidden)]
pub fn debug_masked_word(
    f: &mut core::fmt::Formatter<'_>,
    title: &str,
    enable: u64,
    value: u64,
) -> core::fmt::Result {
    write!(f, "{title}(enable {enable:#06x}, value {value:#06x})")
}

/// Define `R` and `W` for the layout module it is invoked in (`FieldLayout`
/// must be in scope): `plain` registers, or `masked` ones (bits 31:16 of a
/// write enable bits 15:0). The first argument names the layout in `Debug`;
/// the last is the register's word, `u32` or `u64`.
///
/// `W` holds the word being written in the register's own width, so the
/// fields a write sets are combined in that width, as hand-written code for a
/// 32-bit register does (built in a `u64` and narrowed at the bus, the
/// combination is split across the narrowing, and LLVM no longer merges its
/// constant and loop-invariant parts).
#[doc(hidden)]
#[macro_export]
macro_rules! layout_values {
    ($title:literal, plain, $word:ty) => {
        $crate::layout_values!(@read);
        /// A value being built for a write to a register of this layout.
        pub struct W($word);
        $crate::layout_values!(@copy W);
        impl $crate::WriteValue for W {
            type Layout = FieldLayout;
            #[inline]
            fn from_raw(raw: u64) -> Self {
                W(raw as $word)
            }
            #[inline]
            fn raw(&self) -> u64 {
                ::core::convert::From::from(self.0)
            }
            #[inline]
            fn insert(&mut self, mask: u64, bits: u64) {
                self.0 = (self.0 & !(mask as $word)) | bits as $word;
            }
        }
        impl ::core::fmt::Debug for W {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::values::debug_word(f, $title, ::core::convert::From::from(self.0))
            }
        }
    };
    ($title:literal, masked, $word:ty) => {
        $crate::layout_values!(@read);
        /// A value being built for a write to a masked register of this layout:
        /// only fields set here are enabled in bits 31:16.
        pub struct W {
            value: $word,
            enable: $word,
        }
        $crate::layout_values!(@copy W);
        impl $crate::WriteValue for W {
            type Layout = FieldLayout;
            #[inline]
            fn from_raw(raw: u64) -> Self {
                W {
                    value: raw as $word & 0xffff,
                    enable: 0,
                }
            }
            #[inline]
            fn raw(&self) -> u64 {
                let word: u64 = ::core::convert::From::from(
                    (self.enable & 0xffff) << 16 | (self.value & 0xffff),
                );
                word
            }
            #[inline]
            fn insert(&mut self, mask: u64, bits: u64) {
                self.value = (self.value & !(mask as $word)) | bits as $word;
                self.enable |= mask as $word;
            }
        }
        impl ::core::fmt::Debug for W {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::values::debug_masked_word(
                    f,
                    $title,
                    ::core::convert::From::from(self.enable),
                    ::core::convert::From::from(self.value),
                )
            }
        }
    };
    (@copy $t:ident) => {
        impl ::core::clone::Clone for $t {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl ::core::marker::Copy for $t {}
    };
    (@read) => {
        /// A value read from a register of this layout.
        pub struct R(u64);
        $crate::layout_values!(@copy R);
        // By hand: the derive also emits a function per type that is compiled
        // in every build.
        impl ::core::cmp::PartialEq for R {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }
        impl ::core::cmp::Eq for R {}
        impl $crate::ReadValue for R {
            type Layout = FieldLayout;
            #[inline]
            fn from_raw(raw: u64) -> Self {
                R(raw)
            }
            #[inline]
            fn raw(self) -> u64 {
                self.0
            }
        }
        impl R {
            /// The raw value.
            #[inline]
            pub const fn bits(self) -> u64 {
                self.0
            }
        }
    };
}

/// The impls of a generated field enum: `ALL`, `from_bits`, `bits`, `name`
/// and `FieldValue`. `complete(u8)`: the enum names every encoding of its
/// fields' width, so a read always decodes, and is a cast from its integer
/// representation (`u8` here, any unsigned type); `partial`: a read of an
/// unnamed encoding is `Err(raw)`.
#[doc(hidden)]
#[macro_export]
macro_rules! field_enum_impls {
    ($name:ident, $kind:ident $(($repr:ident))?, [$($v:ident = $bits:literal $text:literal),* $(,)?]) => {
        impl $name {
            /// Every named encoding.
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            /// The encoding named by `bits`, if any.
            #[inline]
            pub const fn from_bits(bits: u64) -> ::core::option::Option<Self> {
                match bits {
                    $($bits => ::core::option::Option::Some(Self::$v),)*
                    _ => ::core::option::Option::None,
                }
            }
            /// The encoded value.
            #[inline]
            pub const fn bits(self) -> u64 {
                self as u64
            }
            /// The PRM name of the encoding.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$v => $text,)*
                }
            }
        }
        $crate::field_enum_impls!(@read $name, $kind $(($repr))?, [$($v = $bits),*]);
    };
    (@read $name:ident, complete($repr:ident), [$($v:ident = $bits:literal),*]) => {
        impl $crate::FieldValue for $name {
            type Read = Self;
            /// A cast, not a `match`: every encoding up to the highest is a
            /// variant, so decoding is the identity on the field's bits and
            /// compiles to nothing beyond the mask and shift of the read (a
            /// `match` is left to LLVM to fold, and in some callers it becomes
            /// a jump table). A wider value, which no field read yields,
            /// decodes as the highest variant.
            #[inline(always)]
            fn from_bits(bits: u64) -> Self {
                /// The highest encoding, checked at compile time to make the
                /// cast below sound: the `n` listed variants have distinct
                /// encodings below `n`, each the way the variant is stored
                /// (as a `$repr`), so every value `0..n` is a stored variant.
                const MAX: u64 = {
                    let all: &[$name] = $name::ALL;
                    let n = all.len();
                    let mut i = 0;
                    while i < n {
                        let v = all[i] as u64;
                        // SAFETY: a variant's bytes read as an integer of the
                        // same size (`transmute` checks the sizes) are defined.
                        let stored = unsafe { ::core::mem::transmute::<$name, $repr>(all[i]) };
                        assert!(stored as u64 == v, "enum not stored as its encoding");
                        assert!(v < n as u64, "enum does not name every encoding up to its highest");
                        let mut j = i + 1;
                        while j < n {
                            assert!(all[j] as u64 != v, "encoding listed twice");
                            j += 1;
                        }
                        i += 1;
                    }
                    n as u64 - 1
                };
                let bits = if bits < MAX { bits } else { MAX };
                // SAFETY: `bits <= MAX`, and every value `0..=MAX` is how a
                // variant is stored as a `$repr` (see `MAX`).
                unsafe { ::core::mem::transmute::<$repr, Self>(bits as $repr) }
            }
            #[inline]
            fn to_bits(self) -> u64 {
                self.bits()
            }
        }
    };
    (@read $name:ident, partial, [$($v:ident = $bits:literal),*]) => {
        impl $crate::FieldValue for $name {
            type Read = ::core::result::Result<Self, u64>;
            #[inline]
            fn from_bits(bits: u64) -> ::core::result::Result<Self, u64> {
                Self::from_bits(bits).ok_or(bits)
            }
            #[inline]
            fn to_bits(self) -> u64 {
                self.bits()
            }
        }
    };
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::debug_fields;
    use crate::meta::{AccessKind, FieldInfo};
    use std::format;

    const fn field(name: &'static str, lsb: u32, width: u32, access: AccessKind) -> FieldInfo {
        FieldInfo {
            name,
            lsb,
            width,
            access,
            values: &[],
            description: "",
            address: false,
        }
    }

    struct Shown(u64, &'static [FieldInfo]);
    impl core::fmt::Debug for Shown {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            debug_fields(f, "CTL", self.0, self.1)
        }
    }

    #[test]
    fn debug_fields_prints_the_readable_fields_from_the_table() {
        static FIELDS: [FieldInfo; 5] = [
            field("go", 0, 1, AccessKind::Rw),
            field("kick", 1, 1, AccessKind::Wo),
            field("level", 4, 8, AccessKind::Ro),
            field("flag", 31, 1, AccessKind::Rw1c),
            field("high", 32, 32, AccessKind::Rw),
        ];
        let raw = 0xdead_beef_8000_1ab3u64; // bit 12 (above `level`) set
        assert_eq!(
            format!("{:?}", Shown(raw, &FIELDS)),
            "CTL { go: true, level: 0xab, flag: true, high: 0xdeadbeef }"
        );
        static WHOLE: [FieldInfo; 1] = [field("all", 0, 64, AccessKind::Ro)];
        assert_eq!(
            format!("{:?}", Shown(u64::MAX, &WHOLE)),
            "CTL { all: 0xffffffffffffffff }"
        );
    }
}
