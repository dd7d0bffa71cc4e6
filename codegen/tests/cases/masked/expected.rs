/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /// Field layout `WAKE` (32 bits, masked: bits 31:16 enable the write of bits 15:0).
    ///
    /// Used by: `WAKE` (hsw).
    ///
    /// | bits | field | access | description |
    /// |---|---|---|---|
    /// | 11:8 | `level` | RW |  |
    /// | 1 | `user` | RW |  |
    /// | 0 | `kernel` | RW |  |
    pub mod wake {
        /// This layout, as a type.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "WAKE";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xf03;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &FIELDS;
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::MaskedLayout for FieldLayout {}
        /// Runtime description of the fields, by ascending lsb.
        pub static FIELDS: [::perfregs::hal::meta::FieldInfo; 3usize] = [
            ::perfregs::hal::meta::FieldInfo { name: "kernel", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "user", lsb: 1u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
            ::perfregs::hal::meta::FieldInfo { name: "level", lsb: 8u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", },
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
            /// `kernel` (bits 0, RW).
            #[inline]
            pub fn kernel(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Kernel)
            }
            /// `user` (bits 1, RW).
            #[inline]
            pub fn user(self) -> <bool as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, User)
            }
            /// `level` (bits 11:8, RW).
            #[inline]
            pub fn level(
                self,
            ) -> <::perfregs::hal::Bits<4u32> as ::perfregs::hal::FieldValue>::Read {
                ::perfregs::hal::ReadValue::get(self, Level)
            }
        }
        impl ::core::fmt::Debug for R {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("WAKE")
                    .field("kernel", &self.kernel())
                    .field("user", &self.user())
                    .field("level", &self.level())
                    .finish()
            }
        }
        /// A value being built for a write to a register of this layout.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct W {
            value: u64,
            enable: u64,
        }
        impl ::perfregs::hal::WriteValue for W {
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
        impl W {
            /// `kernel` (bits 0, RW).
            #[inline]
            pub fn kernel(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Kernel, value)
            }
            /// `user` (bits 1, RW).
            #[inline]
            pub fn user(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, User, value)
            }
            /// `level` (bits 11:8, RW).
            #[inline]
            pub fn level(&mut self, value: ::perfregs::hal::Bits<4u32>) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, Level, value)
            }
        }
        impl ::core::fmt::Debug for W {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(
                    f, "{}(enable {:#06x}, value {:#06x})", "WAKE", self.enable, self
                    .value
                )
            }
        }
        /// `kernel`: bits 0, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Kernel;
        impl ::perfregs::hal::Field for Kernel {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "kernel";
            const LSB: u32 = 0u32;
            const WIDTH: u32 = 1u32;
        }
        /// `user`: bits 1, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct User;
        impl ::perfregs::hal::Field for User {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = bool;
            const NAME: &'static str = "user";
            const LSB: u32 = 1u32;
            const WIDTH: u32 = 1u32;
        }
        /// `level`: bits 11:8, RW
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Level;
        impl ::perfregs::hal::Field for Level {
            type Layout = FieldLayout;
            type Access = ::perfregs::hal::access::Rw;
            type Value = ::perfregs::hal::Bits<4u32>;
            const NAME: &'static str = "level";
            const LSB: u32 = 8u32;
            const WIDTH: u32 = 4u32;
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
        ::perfregs::hal::meta::RegisterInfo { name: "WAKE", block: "golden", title: "", space: ::perfregs::hal::meta::SpaceKind::Mmio, address: 0xa188, width: 32u32, reset: 0x0, masked: true, fields: &super::layouts::wake::FIELDS, domain: None, replication: None, },
    ];
    /// WAKE
    ///
    /// | | |
    /// |---|---|
    /// | MMIO offset | `0xa188` on hsw |
    /// | width | 32 bits |
    /// | reset | `0x0` |
    /// | masked | bits 31:16 enable the write of bits 15:0 |
    /// | power domain | none (outside every force-wake range) |
    /// | replication | unicast |
    /// | source | golden test |
    /// | defined at | `masked/input.yaml:6:9` |
    /// | fields | [`WAKE`](wake) |
    #[allow(non_camel_case_types)]
    #[derive(Clone, Copy)]
    pub struct WAKE;
    impl ::perfregs::hal::Register for WAKE {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::power::NoDomain;
        type Layout = wake::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        type Read = wake::R;
        type Write = wake::W;
        const NAME: &'static str = "WAKE";
        const ADDRESS: u64 = 0xa188;
        const RESET: u64 = 0x0;
        const INFO: &'static ::perfregs::hal::meta::RegisterInfo = &REGISTERS[0];
    }
    pub use super::layouts::wake;
}
