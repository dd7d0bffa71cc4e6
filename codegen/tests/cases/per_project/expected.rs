/// Enumerated field values, shared by every project.
pub mod enums {}
/// Registers of Ivy Bridge (Gen7) (`ivb`): 1 described.
///
/// Every item here exists on this project at the address its docs give.
pub mod ivb {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "ivb",
        title: "Ivy Bridge (Gen7)",
        registers: &[&cfg::INFO],
        events: &[],
        formats: &[],
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
    };
    /// CFG
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x2100` on ivb |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | other projects | hsw `0x2200` |
    /// | source | golden test |
    /// | description | `per_project/input.yaml:6:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:4 | `select` | RW |  |
    /// | 0 | `go` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct CFG;
    impl ::perfregs::hal::Register for CFG {
        type Project = ::perfregs::hal::Ivb;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = cfg::R;
        type Write = cfg::W;
        const NAME: &'static str = "CFG";
        const ADDRESS: u64 = 0x2100;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xf1;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &cfg::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Ivb> for CFG {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for CFG {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for CFG {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for CFG {}
    /// Fields and values of [`CFG`](CFG).
    pub mod cfg {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "CFG",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x2100,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "go",
                    lsb: 0u32,
                    width: 1u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
                ::perfregs::hal::meta::FieldInfo {
                    name: "select",
                    lsb: 4u32,
                    width: 4u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`CFG`](super::CFG).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::CFG;
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
            /// `go` — bits 0, RW
            #[inline]
            pub fn go(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Go)
            }
            /// `select` — bits 7:4, RW
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
        /// A value being written to [`CFG`](super::CFG).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::CFG;
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
            /// `go` — bits 0, RW
            #[inline]
            pub fn go(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Go, value)
            }
            /// `select` — bits 7:4, RW
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
        /// `go` — bits 0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Go;
        impl ::perfregs::hal::Field for Go {
            type Register = super::CFG;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "go";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 1u32;
        }
        /// `select` — bits 7:4, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Select;
        impl ::perfregs::hal::Field for Select {
            type Register = super::CFG;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "select";
            const LSB: u32 = 4u32;
            const WIDTH: u32 = 4u32;
        }
    }
}
/// Registers of Haswell (Gen7.5) (`hsw`): 1 described.
///
/// Every item here exists on this project at the address its docs give.
pub mod hsw {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "hsw",
        title: "Haswell (Gen7.5)",
        registers: &[&cfg::INFO],
        events: &[],
        formats: &[],
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
    };
    /// CFG
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x2200` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x4` |
    /// | other projects | ivb `0x2100` |
    /// | source | golden test |
    /// | description | `per_project/input.yaml:6:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:4 | `select` | RW |  |
    /// | 2 | `fast` | RW |  |
    /// | 0 | `go` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct CFG;
    impl ::perfregs::hal::Register for CFG {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = cfg::R;
        type Write = cfg::W;
        const NAME: &'static str = "CFG";
        const ADDRESS: u64 = 0x2200;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x4;
        const KEEP_MASK: u64 = 0xf5;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &cfg::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for CFG {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for CFG {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for CFG {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for CFG {}
    /// Fields and values of [`CFG`](CFG).
    pub mod cfg {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "CFG",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x2200,
            width: 32u32,
            reset: 0x4,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "go",
                    lsb: 0u32,
                    width: 1u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
                ::perfregs::hal::meta::FieldInfo {
                    name: "fast",
                    lsb: 2u32,
                    width: 1u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
                ::perfregs::hal::meta::FieldInfo {
                    name: "select",
                    lsb: 4u32,
                    width: 4u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`CFG`](super::CFG).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::CFG;
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
            /// `go` — bits 0, RW
            #[inline]
            pub fn go(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Go)
            }
            /// `fast` — bits 2, RW
            #[inline]
            pub fn fast(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Fast)
            }
            /// `select` — bits 7:4, RW
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
        /// A value being written to [`CFG`](super::CFG).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::CFG;
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
            /// `go` — bits 0, RW
            #[inline]
            pub fn go(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Go, value)
            }
            /// `fast` — bits 2, RW
            #[inline]
            pub fn fast(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Fast, value)
            }
            /// `select` — bits 7:4, RW
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
        /// `go` — bits 0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Go;
        impl ::perfregs::hal::Field for Go {
            type Register = super::CFG;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "go";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 1u32;
        }
        /// `fast` — bits 2, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Fast;
        impl ::perfregs::hal::Field for Fast {
            type Register = super::CFG;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "fast";
            const LSB: u32 = 2u32;
            const WIDTH: u32 = 1u32;
        }
        /// `select` — bits 7:4, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Select;
        impl ::perfregs::hal::Field for Select {
            type Register = super::CFG;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "select";
            const LSB: u32 = 4u32;
            const WIDTH: u32 = 4u32;
        }
    }
}
