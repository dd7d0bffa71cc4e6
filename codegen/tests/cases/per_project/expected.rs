/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /// Field layout `CFG` (32 bits).
    ///
    /// Used by: `CFG` (ivb).
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:4 | `select` | RW |  |
    /// | 0 | `go` | RW |  |
    pub mod cfg {
        /// This layout, as a type.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CFG";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xf1;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &FIELDS;
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        /// Runtime description of the fields, by ascending lsb.
        pub static FIELDS: [::perfregs::hal::meta::FieldInfo; 2usize] = [
            ::perfregs::hal::meta::FieldInfo { name: "go", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "select", lsb: 4u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
        ];
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
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Go)
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(
                self,
            ) -> <::perfregs::hal::Bits<4u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Select)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CFG")
                    .field("go", &self.go())
                    .field("select", &self.select())
                    .finish()
            }
        }
        /// A value being built for a write to a register of this layout.
        #[derive(Clone, Copy, PartialEq, Eq)]
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
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Go, value)
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(&mut self, value: ::perfregs::hal::Bits<4u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Select, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "CFG", self.0)
            }
        }
        /// `go`: bits 0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Go;
        impl ::perfregs::hal::Field for Go {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "go";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 1u32;
        }
        /// `select`: bits 7:4, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Select;
        impl ::perfregs::hal::Field for Select {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "select";
            const LSB: u32 = 4u32;
            const WIDTH: u32 = 4u32;
        }
    }
    /// Field layout `CFG` (32 bits).
    ///
    /// Used by: `CFG` (hsw).
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:4 | `select` | RW |  |
    /// | 2 | `fast` | RW |  |
    /// | 0 | `go` | RW |  |
    pub mod cfg_hsw {
        /// This layout, as a type.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CFG";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xf5;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &FIELDS;
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        /// Runtime description of the fields, by ascending lsb.
        pub static FIELDS: [::perfregs::hal::meta::FieldInfo; 3usize] = [
            ::perfregs::hal::meta::FieldInfo { name: "go", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "fast", lsb: 2u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "select", lsb: 4u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
        ];
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
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Go)
            }
            /// `fast` (bits 2, RW).
            #[inline]
            pub fn fast(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Fast)
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(
                self,
            ) -> <::perfregs::hal::Bits<4u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Select)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CFG")
                    .field("go", &self.go())
                    .field("fast", &self.fast())
                    .field("select", &self.select())
                    .finish()
            }
        }
        /// A value being built for a write to a register of this layout.
        #[derive(Clone, Copy, PartialEq, Eq)]
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
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Go, value)
            }
            /// `fast` (bits 2, RW).
            #[inline]
            pub fn fast(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Fast, value)
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(&mut self, value: ::perfregs::hal::Bits<4u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Select, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "CFG", self.0)
            }
        }
        /// `go`: bits 0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Go;
        impl ::perfregs::hal::Field for Go {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "go";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 1u32;
        }
        /// `fast`: bits 2, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Fast;
        impl ::perfregs::hal::Field for Fast {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "fast";
            const LSB: u32 = 2u32;
            const WIDTH: u32 = 1u32;
        }
        /// `select`: bits 7:4, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Select;
        impl ::perfregs::hal::Field for Select {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "select";
            const LSB: u32 = 4u32;
            const WIDTH: u32 = 4u32;
        }
    }
}
/// Registers of Ivy Bridge (Gen7) (`ivb`): 1 described (1 with array elements).
///
/// Every item here exists on this project at the address its docs give.
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
        ::perfregs::hal::meta::RegisterInfo { name: "CFG", block: "golden", title: "", space: ::perfregs::hal::meta::SpaceKind::Mmio, address: 0x2100, width: 32u32, reset: 0x0, masked: false, fields: &super::layouts::cfg::FIELDS, domain: None, replication: None, },
    ];
    /// CFG
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x2100` on ivb |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | power domain | none (outside every force-wake range) |
    /// | replication | unicast |
    /// | other projects | hsw `0x2200` |
    /// | source | golden test |
    /// | defined at | `per_project/input.yaml:6:9` |
    /// | fields | [`CFG`](cfg) |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy)]
    pub struct CFG;
    impl ::perfregs::hal::Register for CFG {
        type Project = ::perfregs::hal::Ivb;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Layout = cfg::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        type Read = cfg::R;
        type Write = cfg::W;
        const NAME: &'static str = "CFG";
        const ADDRESS: u64 = 0x2100;
        const RESET: u64 = 0x0;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &REGISTERS[0];
    }
    pub use super::layouts::cfg;
}
/// Registers of Haswell (Gen7.5) (`hsw`): 1 described (1 with array elements).
///
/// Every item here exists on this project at the address its docs give.
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
        ::perfregs::hal::meta::RegisterInfo { name: "CFG", block: "golden", title: "", space: ::perfregs::hal::meta::SpaceKind::Mmio, address: 0x2200, width: 32u32, reset: 0x4, masked: false, fields: &super::layouts::cfg_hsw::FIELDS, domain: None, replication: None, },
    ];
    /// CFG
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x2200` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x4` |
    /// | power domain | none (outside every force-wake range) |
    /// | replication | unicast |
    /// | other projects | ivb `0x2100` |
    /// | source | golden test |
    /// | defined at | `per_project/input.yaml:6:9` |
    /// | fields | [`CFG`](cfg) |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy)]
    pub struct CFG;
    impl ::perfregs::hal::Register for CFG {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Layout = cfg::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        type Read = cfg::R;
        type Write = cfg::W;
        const NAME: &'static str = "CFG";
        const ADDRESS: u64 = 0x2200;
        const RESET: u64 = 0x4;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &REGISTERS[0];
    }
    pub use super::layouts::cfg_hsw as cfg;
}
