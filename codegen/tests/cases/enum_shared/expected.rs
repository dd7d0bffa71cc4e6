/// Enumerated field values, shared by every project.
pub mod enums {
    /// Clock speed.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum Speed {
        /// `0x0` slow
        Slow = 0,
        /// `0x1` medium
        Medium = 1,
        /// `0x2` fast: Full speed.
        Fast = 2,
    }
    impl Speed {
        /// Every named encoding.
        pub const ALL: &'static [Speed] = &[Speed::Slow, Speed::Medium, Speed::Fast];
        /// The encoding named by `bits`, if any.
        #[inline]
        pub const fn from_bits(bits: u64) -> ::core::option::Option<Self> {
            match bits {
                0 => Some(Self::Slow),
                1 => Some(Self::Medium),
                2 => Some(Self::Fast),
                _ => None,
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
                Self::Slow => "slow",
                Self::Medium => "medium",
                Self::Fast => "fast",
            }
        }
    }
    impl ::perfregs::hal::FieldValue for Speed {
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
}
/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `CLK_IVB` (32 bits).

 Used by: `CLK_IVB` (ivb).

 | bits | field | access | description |
 |---|---|---|---|
 | 1:0 | `speed` | RW |  |*/
    pub mod clk_ivb {
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        #[derive(Clone, Copy)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CLK_IVB";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x3;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "speed", lsb: 0u32, width: 2u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[("slow", 0), ("medium", 1), ("fast", 2)], description: "", },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        /// A value read from a register of this layout.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
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
            /// `speed` (bits 1:0, RW).
            #[inline]
            pub fn speed(
                self,
            ) -> <super::super::enums::Speed as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, SPEED)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CLK_IVB").field("speed", &self.speed()).finish()
            }
        }
        /// A value being built for a write to a register of this layout.
        #[derive(Clone, Copy)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
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
        impl W {
            /// `speed` (bits 1:0, RW).
            #[inline]
            pub fn speed(&mut self, value: super::super::enums::Speed) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, SPEED, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "CLK_IVB", self.0)
            }
        }
        /// `speed`: bits 1:0, RW
        pub const SPEED: ::perfregs::hal::access::FieldAt<
            FieldLayout,
            ::perfregs::hal::access::Rw,
            super::super::enums::Speed,
            0,
        > = ::perfregs::hal::access::FieldAt::NEW;
    }
    /** Field layout `CLK_HSW` (32 bits).

 Used by: `CLK_HSW` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 5:4 | `speed` | RW |  |*/
    pub mod clk_hsw {
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        #[derive(Clone, Copy)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CLK_HSW";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x30;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "speed", lsb: 4u32, width: 2u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[("slow", 0), ("medium", 1), ("fast", 2)], description: "", },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        /// A value read from a register of this layout.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
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
            /// `speed` (bits 5:4, RW).
            #[inline]
            pub fn speed(
                self,
            ) -> <super::super::enums::Speed as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, SPEED)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CLK_HSW").field("speed", &self.speed()).finish()
            }
        }
        /// A value being built for a write to a register of this layout.
        #[derive(Clone, Copy)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
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
        impl W {
            /// `speed` (bits 5:4, RW).
            #[inline]
            pub fn speed(&mut self, value: super::super::enums::Speed) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, SPEED, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "CLK_HSW", self.0)
            }
        }
        /// `speed`: bits 5:4, RW
        pub const SPEED: ::perfregs::hal::access::FieldAt<
            FieldLayout,
            ::perfregs::hal::access::Rw,
            super::super::enums::Speed,
            0,
        > = ::perfregs::hal::access::FieldAt::NEW;
    }
}
/** Registers of Ivy Bridge (Gen7) (`ivb`): 1 described (1 with array elements).

 Every item here exists on this project at the address its docs give.*/
pub mod ivb {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "ivb",
        title: "Ivy Bridge (Gen7)",
        registers: &[&REGISTERS[0]],
        events: &[],
        formats: &[],
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
    };
    /// Runtime description of every register (array elements expanded) of this project.
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 1usize] = [
        ::perfregs::hal::meta::RegisterInfo { name: "CLK_IVB", block: "golden", title: "", space: ::perfregs::hal::meta::SpaceKind::Mmio, address: 0x5000, width: 32u32, reset: 0x0, masked: false, fields: <super::layouts::clk_ivb::FieldLayout as ::perfregs::hal::register::Layout>::FIELDS, domain: None, replication: None, },
    ];
    /** CLK_IVB

 | | |
 |---|---|
 | MMIO offset | `0x5000` on ivb |
 | width | 32 bits |
 | reset | `0x0` |
 | access | read, write, modify |
 | power domain | none (outside every force-wake range) |
 | replication | unicast |
 | source | golden test |
 | defined at | `enum_shared/input.yaml:13:9` |
 | fields | [`CLK_IVB`](clk_ivb) |*/
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy)]
    pub struct CLK_IVB;
    impl ::perfregs::hal::Register for CLK_IVB {
        type Project = ::perfregs::hal::Ivb;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Layout = clk_ivb::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        const NAME: &'static str = "CLK_IVB";
        const ADDRESS: u64 = 0x5000;
        const RESET: u64 = 0x0;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &REGISTERS[0];
    }
    #[doc(no_inline)]
    pub use super::layouts::clk_ivb;
}
/** Registers of Haswell (Gen7.5) (`hsw`): 1 described (1 with array elements).

 Every item here exists on this project at the address its docs give.*/
pub mod hsw {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "hsw",
        title: "Haswell (Gen7.5)",
        registers: &[&REGISTERS[0]],
        events: &[],
        formats: &[],
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
    };
    /// Runtime description of every register (array elements expanded) of this project.
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 1usize] = [
        ::perfregs::hal::meta::RegisterInfo { name: "CLK_HSW", block: "golden", title: "", space: ::perfregs::hal::meta::SpaceKind::Mmio, address: 0x5100, width: 32u32, reset: 0x0, masked: false, fields: <super::layouts::clk_hsw::FieldLayout as ::perfregs::hal::register::Layout>::FIELDS, domain: Some("render"), replication: None, },
    ];
    /** CLK_HSW

 | | |
 |---|---|
 | MMIO offset | `0x5100` on hsw |
 | width | 32 bits |
 | reset | `0x0` |
 | access | read, write, modify |
 | power domain | `render` |
 | replication | unicast |
 | source | golden test |
 | defined at | `enum_shared/input.yaml:18:9` |
 | fields | [`CLK_HSW`](clk_hsw) |*/
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy)]
    pub struct CLK_HSW;
    impl ::perfregs::hal::Register for CLK_HSW {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::hsw::domains::Render;
        type Layout = clk_hsw::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        const NAME: &'static str = "CLK_HSW";
        const ADDRESS: u64 = 0x5100;
        const RESET: u64 = 0x0;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &REGISTERS[0];
    }
    #[doc(no_inline)]
    pub use super::layouts::clk_hsw;
}
