//! The value types every generated layout has, written once: `layout_values!`
//! expands, inside a layout module, to its read value `R` and write value `W`
//! with their trait impls. The generated code adds only what differs per
//! layout: the field getters and setters and `R`'s `Debug`.

/// Define `R` and `W` for the layout module it is invoked in (`FieldLayout`
/// must be in scope): `plain` registers, or `masked` ones (bits 31:16 of a
/// write enable bits 15:0). The first argument names the layout in `Debug`.
#[doc(hidden)]
#[macro_export]
macro_rules! layout_values {
    ($title:literal, plain) => {
        $crate::layout_values!(@read);
        /// A value being built for a write to a register of this layout.
        #[derive(Clone, Copy)]
        pub struct W(u64);
        impl $crate::WriteValue for W {
            type Layout = FieldLayout;
            #[inline]
            fn from_raw(raw: u64) -> Self {
                W(raw)
            }
            #[inline]
            fn raw(&self) -> u64 {
                self.0
            }
            #[inline]
            fn insert(&mut self, mask: u64, bits: u64) {
                self.0 = (self.0 & !mask) | bits;
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", $title, self.0)
            }
        }
    };
    ($title:literal, masked) => {
        $crate::layout_values!(@read);
        /// A value being built for a write to a masked register of this layout:
        /// only fields set here are enabled in bits 31:16.
        #[derive(Clone, Copy)]
        pub struct W {
            value: u64,
            enable: u64,
        }
        impl $crate::WriteValue for W {
            type Layout = FieldLayout;
            #[inline]
            fn from_raw(raw: u64) -> Self {
                W {
                    value: raw & 0xffff,
                    enable: 0,
                }
            }
            #[inline]
            fn raw(&self) -> u64 {
                (self.enable & 0xffff) << 16 | (self.value & 0xffff)
            }
            #[inline]
            fn insert(&mut self, mask: u64, bits: u64) {
                self.value = (self.value & !mask) | bits;
                self.enable |= mask;
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(
                    f,
                    "{}(enable {:#06x}, value {:#06x})",
                    $title, self.enable, self.value
                )
            }
        }
    };
    (@read) => {
        /// A value read from a register of this layout.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
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
/// and `FieldValue`. `complete(Last)`: the enum names every encoding of its
/// fields' width, so a read always decodes (`Last` is its highest variant);
/// `partial`: a read of an unnamed encoding is `Err(raw)`.
#[doc(hidden)]
#[macro_export]
macro_rules! field_enum_impls {
    ($name:ident, $kind:ident $(($last:ident))?, [$($v:ident = $bits:literal $text:literal),* $(,)?]) => {
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
        $crate::field_enum_impls!(@read $name, $kind $(($last))?, [$($v = $bits),*]);
    };
    (@read $name:ident, complete($last:ident), [$($v:ident = $bits:literal),*]) => {
        impl $crate::FieldValue for $name {
            type Read = Self;
            #[inline]
            fn from_bits(bits: u64) -> Self {
                match bits {
                    $($bits => Self::$v,)*
                    _ => Self::$last,
                }
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
