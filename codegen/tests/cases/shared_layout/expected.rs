/// Enumerated field values, shared by every project.
pub mod enums {}
/// Registers of Haswell (Gen7.5) (`hsw`): 2 described.
///
/// Every item here exists on this project at the address its docs give.
pub mod hsw {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "hsw",
        title: "Haswell (Gen7.5)",
        registers: &[&limit_lo::INFO, &limit_hi::INFO],
        events: &[],
        formats: &[],
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
    };
    /// LIMIT_LO
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x4000` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | description | `shared_layout/input.yaml:6:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 31 | `valid` | RW |  |
    /// | 15:0 | `value` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct LIMIT_LO;
    impl ::perfregs::hal::Register for LIMIT_LO {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = limit_lo::R;
        type Write = limit_lo::W;
        const NAME: &'static str = "LIMIT_LO";
        const ADDRESS: u64 = 0x4000;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0x8000ffff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &limit_lo::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for LIMIT_LO {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for LIMIT_LO {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for LIMIT_LO {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for LIMIT_LO {}
    /// Fields and values of [`LIMIT_LO`](LIMIT_LO).
    pub mod limit_lo {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "LIMIT_LO",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x4000,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "value",
                    lsb: 0u32,
                    width: 16u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
                ::perfregs::hal::meta::FieldInfo {
                    name: "valid",
                    lsb: 31u32,
                    width: 1u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`LIMIT_LO`](super::LIMIT_LO).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::LIMIT_LO;
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
            /// `value` — bits 15:0, RW
            #[inline]
            pub fn value(
                self,
            ) -> <::perfregs::hal::Bits<16u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Value)
            }
            /// `valid` — bits 31, RW
            #[inline]
            pub fn valid(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Valid)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("LIMIT_LO")
                    .field("value", &self.value())
                    .field("valid", &self.valid())
                    .finish()
            }
        }
        /// A value being written to [`LIMIT_LO`](super::LIMIT_LO).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::LIMIT_LO;
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
            /// `value` — bits 15:0, RW
            #[inline]
            pub fn value(&mut self, value: ::perfregs::hal::Bits<16u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Value, value)
            }
            /// `valid` — bits 31, RW
            #[inline]
            pub fn valid(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Valid, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "LIMIT_LO", self.0)
            }
        }
        /// `value` — bits 15:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Value;
        impl ::perfregs::hal::Field for Value {
            type Register = super::LIMIT_LO;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<16u32>;
            const NAME: &'static str = "value";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 16u32;
        }
        /// `valid` — bits 31, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Valid;
        impl ::perfregs::hal::Field for Valid {
            type Register = super::LIMIT_LO;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "valid";
            const LSB: u32 = 31u32;
            const WIDTH: u32 = 1u32;
        }
    }
    /// LIMIT_HI
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x4004` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | description | `shared_layout/input.yaml:12:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 31 | `valid` | RW |  |
    /// | 15:0 | `value` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct LIMIT_HI;
    impl ::perfregs::hal::Register for LIMIT_HI {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = limit_hi::R;
        type Write = limit_hi::W;
        const NAME: &'static str = "LIMIT_HI";
        const ADDRESS: u64 = 0x4004;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0x8000ffff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &limit_hi::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for LIMIT_HI {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for LIMIT_HI {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for LIMIT_HI {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for LIMIT_HI {}
    /// Fields and values of [`LIMIT_HI`](LIMIT_HI).
    pub mod limit_hi {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "LIMIT_HI",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x4004,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "value",
                    lsb: 0u32,
                    width: 16u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
                ::perfregs::hal::meta::FieldInfo {
                    name: "valid",
                    lsb: 31u32,
                    width: 1u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`LIMIT_HI`](super::LIMIT_HI).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::LIMIT_HI;
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
            /// `value` — bits 15:0, RW
            #[inline]
            pub fn value(
                self,
            ) -> <::perfregs::hal::Bits<16u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Value)
            }
            /// `valid` — bits 31, RW
            #[inline]
            pub fn valid(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Valid)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("LIMIT_HI")
                    .field("value", &self.value())
                    .field("valid", &self.valid())
                    .finish()
            }
        }
        /// A value being written to [`LIMIT_HI`](super::LIMIT_HI).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::LIMIT_HI;
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
            /// `value` — bits 15:0, RW
            #[inline]
            pub fn value(&mut self, value: ::perfregs::hal::Bits<16u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Value, value)
            }
            /// `valid` — bits 31, RW
            #[inline]
            pub fn valid(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Valid, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "LIMIT_HI", self.0)
            }
        }
        /// `value` — bits 15:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Value;
        impl ::perfregs::hal::Field for Value {
            type Register = super::LIMIT_HI;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<16u32>;
            const NAME: &'static str = "value";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 16u32;
        }
        /// `valid` — bits 31, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Valid;
        impl ::perfregs::hal::Field for Valid {
            type Register = super::LIMIT_HI;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "valid";
            const LSB: u32 = 31u32;
            const WIDTH: u32 = 1u32;
        }
    }
}
