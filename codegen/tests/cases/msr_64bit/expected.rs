/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /// Field layout `PMON_CTL` (64 bits).
    ///
    /// Used by: `PMON_CTL` (ivt).
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 63:40 | `reserved_63_40` | RSVD |  |
    /// | 39:32 | `count` | RW |  |
    /// | 31 | `freeze` | WO |  |
    /// | 30 | `overflow` | RW1C |  |
    /// | 14:0 | `core_sel` | RW |  |
    pub mod pmon_ctl {
        /// This layout, as a type.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "PMON_CTL";
            const WIDTH: u32 = 64u32;
            const KEEP_MASK: u64 = 0xff80007fff;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &FIELDS;
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        /// Runtime description of the fields, by ascending lsb.
        pub static FIELDS: [::perfregs::hal::meta::FieldInfo; 5usize] = [
            ::perfregs::hal::meta::FieldInfo { name: "core_sel", lsb: 0u32, width: 15u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "overflow", lsb: 30u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw1c, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "freeze", lsb: 31u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Wo, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "count", lsb: 32u32, width: 8u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "reserved_63_40", lsb: 40u32, width: 24u32, access: ::perfregs::hal::meta::AccessKind::Rsvd, values: &[], description: "", },
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
            /// `core_sel` (bits 14:0, RW).
            #[inline]
            pub fn core_sel(
                self,
            ) -> <::perfregs::hal::Bits<15u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, CoreSel)
            }
            /// `overflow` (bits 30, RW1C).
            #[inline]
            pub fn overflow(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Overflow)
            }
            /// `count` (bits 39:32, RW).
            #[inline]
            pub fn count(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Count)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("PMON_CTL")
                    .field("core_sel", &self.core_sel())
                    .field("overflow", &self.overflow())
                    .field("count", &self.count())
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
            /// `core_sel` (bits 14:0, RW).
            #[inline]
            pub fn core_sel(
                &mut self,
                value: ::perfregs::hal::Bits<15u32>,
            ) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, CoreSel, value)
            }
            /// Clear `overflow` (write-one-to-clear): writes ones to bits 30.
            #[inline]
            pub fn clear_overflow(&mut self) -> &mut Self {
                ::perfregs::hal::WriteValue::clear(self, Overflow)
            }
            /// `freeze` (bits 31, WO).
            #[inline]
            pub fn freeze(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Freeze, value)
            }
            /// `count` (bits 39:32, RW).
            #[inline]
            pub fn count(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Count, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "PMON_CTL", self.0)
            }
        }
        /// `core_sel`: bits 14:0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct CoreSel;
        impl ::perfregs::hal::Field for CoreSel {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<15u32>;
            const NAME: &'static str = "core_sel";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 15u32;
        }
        /// `overflow`: bits 30, RW1C
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Overflow;
        impl ::perfregs::hal::Field for Overflow {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw1c;
            type Value = bool;
            const NAME: &'static str = "overflow";
            const LSB: u32 = 30u32;
            const WIDTH: u32 = 1u32;
        }
        /// `freeze`: bits 31, WO
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Freeze;
        impl ::perfregs::hal::Field for Freeze {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Wo;
            type Value = bool;
            const NAME: &'static str = "freeze";
            const LSB: u32 = 31u32;
            const WIDTH: u32 = 1u32;
        }
        /// `count`: bits 39:32, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Count;
        impl ::perfregs::hal::Field for Count {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "count";
            const LSB: u32 = 32u32;
            const WIDTH: u32 = 8u32;
        }
        /// `reserved_63_40`: bits 63:40, RSVD
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Reserved6340;
        impl ::perfregs::hal::Field for Reserved6340 {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rsvd;
            type Value = ::perfregs::hal::Bits<24u32>;
            const NAME: &'static str = "reserved_63_40";
            const LSB: u32 = 40u32;
            const WIDTH: u32 = 24u32;
        }
    }
}
/// Registers of Ivy Bridge-EP / Xeon E5 v2 (IVT) (`ivt`): 1 described (1 with array elements).
///
/// Every item here exists on this project at the address its docs give.
pub mod ivt {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "ivt",
        title: "Ivy Bridge-EP / Xeon E5 v2 (IVT)",
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
        ::perfregs::hal::meta::RegisterInfo { name: "PMON_CTL", block: "golden", title: "", space: ::perfregs::hal::meta::SpaceKind::Msr, address: 0xc00, width: 64u32, reset: 0x0, masked: false, fields: &super::layouts::pmon_ctl::FIELDS, domain: None, replication: None, },
    ];
    /// PMON_CTL
    ///
    /// | | |
    /// |---|---|
    /// | MSR | `0xc00` on ivt |
    /// | width | 64 bits |
    /// | reset | `0x0` |
    /// | source | golden test |
    /// | defined at | `msr_64bit/input.yaml:6:9` |
    /// | fields | [`PMON_CTL`](pmon_ctl) |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy)]
    pub struct PMON_CTL;
    impl ::perfregs::hal::Register for PMON_CTL {
        type Project = ::perfregs::hal::Ivt;
        type Space = ::perfregs::hal::Msr;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Layout = pmon_ctl::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        type Read = pmon_ctl::R;
        type Write = pmon_ctl::W;
        const NAME: &'static str = "PMON_CTL";
        const ADDRESS: u64 = 0xc00;
        const RESET: u64 = 0x0;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &REGISTERS[0];
    }
    pub use super::layouts::pmon_ctl;
}
