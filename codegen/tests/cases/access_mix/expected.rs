/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /// Field layout `STATUS` (32 bits).
    ///
    /// Used by: `STATUS` (hsw).
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 23:16 | `level` | RW |  |
    /// | 15:12 | `keep` | PBC |  |
    /// | 11:8 | `reserved_11_8` | RSVD |  |
    /// | 7:4 | `zero` | MBZ |  |
    /// | 3 | `arm` | RW1S |  |
    /// | 2 | `overflow` | RW1C |  |
    /// | 1 | `kick` | WO |  |
    /// | 0 | `ready` | RO |  |
    pub mod status {
        /// This layout, as a type.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "STATUS";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xfff003;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &FIELDS;
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        /// Runtime description of the fields, by ascending lsb.
        pub static FIELDS: [::perfregs::hal::meta::FieldInfo; 8usize] = [
            ::perfregs::hal::meta::FieldInfo { name: "ready", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Ro, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "kick", lsb: 1u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Wo, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "overflow", lsb: 2u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw1c, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "arm", lsb: 3u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw1s, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "zero", lsb: 4u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Mbz, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "reserved_11_8", lsb: 8u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rsvd, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "keep", lsb: 12u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Pbc, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "level", lsb: 16u32, width: 8u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
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
            /// `ready` (bits 0, RO).
            #[inline]
            pub fn ready(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Ready)
            }
            /// `overflow` (bits 2, RW1C).
            #[inline]
            pub fn overflow(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Overflow)
            }
            /// `arm` (bits 3, RW1S).
            #[inline]
            pub fn arm(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Arm)
            }
            /// `level` (bits 23:16, RW).
            #[inline]
            pub fn level(
                self,
            ) -> <::perfregs::hal::Bits<8u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Level)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("STATUS")
                    .field("ready", &self.ready())
                    .field("overflow", &self.overflow())
                    .field("arm", &self.arm())
                    .field("level", &self.level())
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
            /// `kick` (bits 1, WO).
            #[inline]
            pub fn kick(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Kick, value)
            }
            /// Clear `overflow` (write-one-to-clear): writes ones to bits 2.
            #[inline]
            pub fn clear_overflow(&mut self) -> &mut Self {
                ::perfregs::hal::WriteValue::clear(self, Overflow)
            }
            /// Set `arm` (write-one-to-set): writes ones to bits 3.
            #[inline]
            pub fn set_arm(&mut self) -> &mut Self {
                ::perfregs::hal::WriteValue::set_ones(self, Arm)
            }
            /// `level` (bits 23:16, RW).
            #[inline]
            pub fn level(&mut self, value: ::perfregs::hal::Bits<8u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Level, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{}({:#x})", "STATUS", self.0)
            }
        }
        /// `ready`: bits 0, RO
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Ready;
        impl ::perfregs::hal::Field for Ready {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Ro;
            type Value = bool;
            const NAME: &'static str = "ready";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 1u32;
        }
        /// `kick`: bits 1, WO
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Kick;
        impl ::perfregs::hal::Field for Kick {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Wo;
            type Value = bool;
            const NAME: &'static str = "kick";
            const LSB: u32 = 1u32;
            const WIDTH: u32 = 1u32;
        }
        /// `overflow`: bits 2, RW1C
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Overflow;
        impl ::perfregs::hal::Field for Overflow {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw1c;
            type Value = bool;
            const NAME: &'static str = "overflow";
            const LSB: u32 = 2u32;
            const WIDTH: u32 = 1u32;
        }
        /// `arm`: bits 3, RW1S
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Arm;
        impl ::perfregs::hal::Field for Arm {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw1s;
            type Value = bool;
            const NAME: &'static str = "arm";
            const LSB: u32 = 3u32;
            const WIDTH: u32 = 1u32;
        }
        /// `zero`: bits 7:4, MBZ
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Zero;
        impl ::perfregs::hal::Field for Zero {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Mbz;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "zero";
            const LSB: u32 = 4u32;
            const WIDTH: u32 = 4u32;
        }
        /// `reserved_11_8`: bits 11:8, RSVD
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Reserved118;
        impl ::perfregs::hal::Field for Reserved118 {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rsvd;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "reserved_11_8";
            const LSB: u32 = 8u32;
            const WIDTH: u32 = 4u32;
        }
        /// `keep`: bits 15:12, PBC
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Keep;
        impl ::perfregs::hal::Field for Keep {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Pbc;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "keep";
            const LSB: u32 = 12u32;
            const WIDTH: u32 = 4u32;
        }
        /// `level`: bits 23:16, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Level;
        impl ::perfregs::hal::Field for Level {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<8u32>;
            const NAME: &'static str = "level";
            const LSB: u32 = 16u32;
            const WIDTH: u32 = 8u32;
        }
    }
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
        ::perfregs::hal::meta::RegisterInfo { name: "STATUS", block: "golden", title: "", space: ::perfregs::hal::meta::SpaceKind::Mmio, address: 0x2000, width: 32u32, reset: 0x0, masked: false, fields: &super::layouts::status::FIELDS, domain: None, replication: None, },
    ];
    /// STATUS
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0x2000` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | power domain | none (outside every force-wake range) |
    /// | replication | unicast |
    /// | source | golden test |
    /// | defined at | `access_mix/input.yaml:6:9` |
    /// | fields | [`STATUS`](status) |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy)]
    pub struct STATUS;
    impl ::perfregs::hal::Register for STATUS {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Layout = status::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        type Read = status::R;
        type Write = status::W;
        const NAME: &'static str = "STATUS";
        const ADDRESS: u64 = 0x2000;
        const RESET: u64 = 0x0;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &REGISTERS[0];
    }
    pub use super::layouts::status;
}
