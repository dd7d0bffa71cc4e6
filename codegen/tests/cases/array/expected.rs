/// Enumerated field values, shared by every project.
pub mod enums {}
/// Registers of Ivy Bridge (Gen7) (`ivb`): 2 described.
///
/// Every item here exists on this project at the address its docs give.
pub mod ivb {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "ivb",
        title: "Ivy Bridge (Gen7)",
        registers: &[&sel0::INFO, &sel1::INFO],
        events: &[],
        formats: &[],
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
    };
    /// SEL0
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3100` on ivb |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | other projects | hsw `0x3200` |
    /// | source | golden test |
    /// | description | `array/input.yaml:13:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:0 | `event` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SEL0;
    impl ::perfregs::hal::Register for SEL0 {
        type Project = ::perfregs::hal::Ivb;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = sel0::R;
        type Write = sel0::W;
        const NAME: &'static str = "SEL0";
        const ADDRESS: u64 = 0x3100;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &sel0::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Ivb> for SEL0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for SEL0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for SEL0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for SEL0 {}
    /// Fields and values of [`SEL0`](SEL0).
    pub mod sel0 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "SEL0",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3100,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "event",
                    lsb: 0u32,
                    width: 8u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`SEL0`](super::SEL0).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::SEL0;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Event)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("SEL0").field("event", &self.event()).finish()
            }
        }
        /// A value being written to [`SEL0`](super::SEL0).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::SEL0;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Event, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "SEL0", self.0)
            }
        }
        /// `event` — bits 7:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Event;
        impl ::perfregs::hal::Field for Event {
            type Register = super::SEL0;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "event";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 8u32;
        }
    }
    /// SEL1
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3104` on ivb |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | other projects | hsw `0x3204` |
    /// | source | golden test |
    /// | description | `array/input.yaml:13:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:0 | `event` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SEL1;
    impl ::perfregs::hal::Register for SEL1 {
        type Project = ::perfregs::hal::Ivb;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = sel1::R;
        type Write = sel1::W;
        const NAME: &'static str = "SEL1";
        const ADDRESS: u64 = 0x3104;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &sel1::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Ivb> for SEL1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for SEL1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for SEL1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for SEL1 {}
    /// Fields and values of [`SEL1`](SEL1).
    pub mod sel1 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "SEL1",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3104,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "event",
                    lsb: 0u32,
                    width: 8u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`SEL1`](super::SEL1).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::SEL1;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Event)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("SEL1").field("event", &self.event()).finish()
            }
        }
        /// A value being written to [`SEL1`](super::SEL1).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::SEL1;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Event, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "SEL1", self.0)
            }
        }
        /// `event` — bits 7:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Event;
        impl ::perfregs::hal::Field for Event {
            type Register = super::SEL1;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "event";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 8u32;
        }
    }
}
/// Registers of Haswell (Gen7.5) (`hsw`): 7 described.
///
/// Every item here exists on this project at the address its docs give.
pub mod hsw {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "hsw",
        title: "Haswell (Gen7.5)",
        registers: &[
            &cnt0::INFO,
            &cnt1::INFO,
            &cnt2::INFO,
            &sel0::INFO,
            &sel1::INFO,
            &sel2::INFO,
            &sel3::INFO,
        ],
        events: &[],
        formats: &[],
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
    };
    /// CNT0 — Counter 0
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3000` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | description | `array/input.yaml:6:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 31:0 | `value` | RW-V | Value of counter 0. |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct CNT0;
    impl ::perfregs::hal::Register for CNT0 {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = cnt0::R;
        type Write = cnt0::W;
        const NAME: &'static str = "CNT0";
        const ADDRESS: u64 = 0x3000;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xffffffff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &cnt0::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for CNT0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for CNT0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for CNT0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for CNT0 {}
    /// Fields and values of [`CNT0`](CNT0).
    pub mod cnt0 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "CNT0",
            block: "golden",
            title: "Counter 0",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3000,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "value",
                    lsb: 0u32,
                    width: 32u32,
                    access: ::perfregs::hal::meta::AccessKind::RwV,
                    values: &[],
                    description: "Value of counter 0.",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`CNT0`](super::CNT0).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::CNT0;
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
            /// `value` — bits 31:0, RW-V
            ///
            /// Value of counter 0.
            #[inline]
            pub fn value(
                self,
            ) -> <::perfregs::hal::Bits<32u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Value)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CNT0").field("value", &self.value()).finish()
            }
        }
        /// A value being written to [`CNT0`](super::CNT0).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::CNT0;
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
            /// `value` — bits 31:0, RW-V
            ///
            /// Value of counter 0.
            #[inline]
            pub fn value(&mut self, value: ::perfregs::hal::Bits<32u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Value, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "CNT0", self.0)
            }
        }
        /// `value` — bits 31:0, RW-V
        ///
        /// Value of counter 0.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Value;
        impl ::perfregs::hal::Field for Value {
            type Register = super::CNT0;
            type Access = ::perfregs::hal::access::RwV;
            type Value = ::perfregs::hal::Bits<32u32>;
            const NAME: &'static str = "value";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 32u32;
        }
    }
    /// CNT1 — Counter 1
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3008` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | description | `array/input.yaml:6:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 31:0 | `value` | RW-V | Value of counter 1. |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct CNT1;
    impl ::perfregs::hal::Register for CNT1 {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = cnt1::R;
        type Write = cnt1::W;
        const NAME: &'static str = "CNT1";
        const ADDRESS: u64 = 0x3008;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xffffffff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &cnt1::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for CNT1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for CNT1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for CNT1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for CNT1 {}
    /// Fields and values of [`CNT1`](CNT1).
    pub mod cnt1 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "CNT1",
            block: "golden",
            title: "Counter 1",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3008,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "value",
                    lsb: 0u32,
                    width: 32u32,
                    access: ::perfregs::hal::meta::AccessKind::RwV,
                    values: &[],
                    description: "Value of counter 1.",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`CNT1`](super::CNT1).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::CNT1;
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
            /// `value` — bits 31:0, RW-V
            ///
            /// Value of counter 1.
            #[inline]
            pub fn value(
                self,
            ) -> <::perfregs::hal::Bits<32u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Value)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CNT1").field("value", &self.value()).finish()
            }
        }
        /// A value being written to [`CNT1`](super::CNT1).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::CNT1;
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
            /// `value` — bits 31:0, RW-V
            ///
            /// Value of counter 1.
            #[inline]
            pub fn value(&mut self, value: ::perfregs::hal::Bits<32u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Value, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "CNT1", self.0)
            }
        }
        /// `value` — bits 31:0, RW-V
        ///
        /// Value of counter 1.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Value;
        impl ::perfregs::hal::Field for Value {
            type Register = super::CNT1;
            type Access = ::perfregs::hal::access::RwV;
            type Value = ::perfregs::hal::Bits<32u32>;
            const NAME: &'static str = "value";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 32u32;
        }
    }
    /// CNT2 — Counter 2
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3010` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | description | `array/input.yaml:6:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 31:0 | `value` | RW-V | Value of counter 2. |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct CNT2;
    impl ::perfregs::hal::Register for CNT2 {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = cnt2::R;
        type Write = cnt2::W;
        const NAME: &'static str = "CNT2";
        const ADDRESS: u64 = 0x3010;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xffffffff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &cnt2::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for CNT2 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for CNT2 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for CNT2 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for CNT2 {}
    /// Fields and values of [`CNT2`](CNT2).
    pub mod cnt2 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "CNT2",
            block: "golden",
            title: "Counter 2",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3010,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "value",
                    lsb: 0u32,
                    width: 32u32,
                    access: ::perfregs::hal::meta::AccessKind::RwV,
                    values: &[],
                    description: "Value of counter 2.",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`CNT2`](super::CNT2).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::CNT2;
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
            /// `value` — bits 31:0, RW-V
            ///
            /// Value of counter 2.
            #[inline]
            pub fn value(
                self,
            ) -> <::perfregs::hal::Bits<32u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Value)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CNT2").field("value", &self.value()).finish()
            }
        }
        /// A value being written to [`CNT2`](super::CNT2).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::CNT2;
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
            /// `value` — bits 31:0, RW-V
            ///
            /// Value of counter 2.
            #[inline]
            pub fn value(&mut self, value: ::perfregs::hal::Bits<32u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Value, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "CNT2", self.0)
            }
        }
        /// `value` — bits 31:0, RW-V
        ///
        /// Value of counter 2.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Value;
        impl ::perfregs::hal::Field for Value {
            type Register = super::CNT2;
            type Access = ::perfregs::hal::access::RwV;
            type Value = ::perfregs::hal::Bits<32u32>;
            const NAME: &'static str = "value";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 32u32;
        }
    }
    /// SEL0
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3200` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | other projects | ivb `0x3100` |
    /// | source | golden test |
    /// | description | `array/input.yaml:13:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:0 | `event` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SEL0;
    impl ::perfregs::hal::Register for SEL0 {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = sel0::R;
        type Write = sel0::W;
        const NAME: &'static str = "SEL0";
        const ADDRESS: u64 = 0x3200;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &sel0::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for SEL0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for SEL0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for SEL0 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for SEL0 {}
    /// Fields and values of [`SEL0`](SEL0).
    pub mod sel0 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "SEL0",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3200,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "event",
                    lsb: 0u32,
                    width: 8u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`SEL0`](super::SEL0).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::SEL0;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Event)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("SEL0").field("event", &self.event()).finish()
            }
        }
        /// A value being written to [`SEL0`](super::SEL0).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::SEL0;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Event, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "SEL0", self.0)
            }
        }
        /// `event` — bits 7:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Event;
        impl ::perfregs::hal::Field for Event {
            type Register = super::SEL0;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "event";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 8u32;
        }
    }
    /// SEL1
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3204` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | other projects | ivb `0x3104` |
    /// | source | golden test |
    /// | description | `array/input.yaml:13:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:0 | `event` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SEL1;
    impl ::perfregs::hal::Register for SEL1 {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = sel1::R;
        type Write = sel1::W;
        const NAME: &'static str = "SEL1";
        const ADDRESS: u64 = 0x3204;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &sel1::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for SEL1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for SEL1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for SEL1 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for SEL1 {}
    /// Fields and values of [`SEL1`](SEL1).
    pub mod sel1 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "SEL1",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3204,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "event",
                    lsb: 0u32,
                    width: 8u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`SEL1`](super::SEL1).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::SEL1;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Event)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("SEL1").field("event", &self.event()).finish()
            }
        }
        /// A value being written to [`SEL1`](super::SEL1).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::SEL1;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Event, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "SEL1", self.0)
            }
        }
        /// `event` — bits 7:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Event;
        impl ::perfregs::hal::Field for Event {
            type Register = super::SEL1;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "event";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 8u32;
        }
    }
    /// SEL2
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x3208` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | description | `array/input.yaml:13:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:0 | `event` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SEL2;
    impl ::perfregs::hal::Register for SEL2 {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = sel2::R;
        type Write = sel2::W;
        const NAME: &'static str = "SEL2";
        const ADDRESS: u64 = 0x3208;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &sel2::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for SEL2 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for SEL2 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for SEL2 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for SEL2 {}
    /// Fields and values of [`SEL2`](SEL2).
    pub mod sel2 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "SEL2",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x3208,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "event",
                    lsb: 0u32,
                    width: 8u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`SEL2`](super::SEL2).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::SEL2;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Event)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("SEL2").field("event", &self.event()).finish()
            }
        }
        /// A value being written to [`SEL2`](super::SEL2).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::SEL2;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Event, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "SEL2", self.0)
            }
        }
        /// `event` — bits 7:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Event;
        impl ::perfregs::hal::Field for Event {
            type Register = super::SEL2;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "event";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 8u32;
        }
    }
    /// SEL3
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x320c` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | description | `array/input.yaml:13:9` |
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 7:0 | `event` | RW |  |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SEL3;
    impl ::perfregs::hal::Register for SEL3 {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Read = sel3::R;
        type Write = sel3::W;
        const NAME: &'static str = "SEL3";
        const ADDRESS: u64 = 0x320c;
        const WIDTH: u32 = 32u32;
        const RESET: u64 = 0x0;
        const KEEP_MASK: u64 = 0xff;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &sel3::INFO;
    }
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::OnProject<::perfregs::hal::Hsw> for SEL3 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Readable for SEL3 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Writable for SEL3 {}
    #[diagnostic::do_not_recommend]
    impl ::perfregs::hal::Unicast for SEL3 {}
    /// Fields and values of [`SEL3`](SEL3).
    pub mod sel3 {
        /// Runtime description of this register on this project.
        pub static INFO: ::perfregs::hal::meta::RegisterInfo = ::perfregs::hal::meta::RegisterInfo {
            name: "SEL3",
            block: "golden",
            title: "",
            space: ::perfregs::hal::meta::SpaceKind::Mmio,
            address: 0x320c,
            width: 32u32,
            reset: 0x0,
            masked: false,
            fields: &[
                ::perfregs::hal::meta::FieldInfo {
                    name: "event",
                    lsb: 0u32,
                    width: 8u32,
                    access: ::perfregs::hal::meta::AccessKind::Rw,
                    values: &[],
                    description: "",
                },
            ],
            domain: None,
            replication: None,
        };
        /// A value read from [`SEL3`](super::SEL3).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct R(u64);
        impl ::perfregs::hal::ReadValue for R {
            type Register = super::SEL3;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Event)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("SEL3").field("event", &self.event()).finish()
            }
        }
        /// A value being written to [`SEL3`](super::SEL3).
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W(u64);
        impl ::perfregs::hal::WriteValue for W {
            type Register = super::SEL3;
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
            /// `event` — bits 7:0, RW
            #[inline]
            pub fn event(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Event, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "SEL3", self.0)
            }
        }
        /// `event` — bits 7:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Event;
        impl ::perfregs::hal::Field for Event {
            type Register = super::SEL3;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "event";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 8u32;
        }
    }
}
