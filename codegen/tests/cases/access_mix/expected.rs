/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `STATUS` (32 bits).

 Used by: `STATUS` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 23:16 | `level` | RW |  |
 | 15:12 | `keep` | PBC |  |
 | 11:8 | `reserved_11_8` | RSVD |  |
 | 7:4 | `zero` | MBZ |  |
 | 3 | `arm` | RW1S |  |
 | 2 | `overflow` | RW1C |  |
 | 1 | `kick` | WO |  |
 | 0 | `ready` | RO |  |*/
    pub mod status {
        use ::perfregs::hal::access::{FieldAt, Mbz, Pbc, Ro, Rsvd, Rw, Rw1c, Rw1s, Wo};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "STATUS";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xfff003;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "ready", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Ro, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "kick", lsb: 1u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Wo, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "overflow", lsb: 2u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw1c, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "arm", lsb: 3u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw1s, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "zero", lsb: 4u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Mbz, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "reserved_11_8", lsb: 8u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rsvd, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "keep", lsb: 12u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Pbc, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "level", lsb: 16u32, width: 8u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("STATUS", plain, u32);
        impl R {
            /// `ready` (bits 0, RO).
            #[inline]
            pub fn ready(self) -> bool {
                self.0 & 0x1 != 0
            }
            /// `overflow` (bits 2, RW1C).
            #[inline]
            pub fn overflow(self) -> bool {
                self.0 & 0x4 != 0
            }
            /// `arm` (bits 3, RW1S).
            #[inline]
            pub fn arm(self) -> bool {
                self.0 & 0x8 != 0
            }
            /// `level` (bits 23:16, RW).
            #[inline]
            pub fn level(self) -> Bits<8> {
                Bits::truncate(self.0 >> 16u32)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "STATUS",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            #[doc(hidden)]
            pub fn ready(&mut self, _value: bool) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Ro: ::perfregs::hal::access::Settable,
            {
                self
            }
            /// `kick` (bits 1, WO).
            #[inline]
            pub fn kick(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x2, (value as u64) << 1u32);
                self
            }
            #[doc(hidden)]
            pub fn overflow(&mut self, _value: bool) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Rw1c: ::perfregs::hal::access::Settable,
            {
                self
            }
            /// Clear `overflow` (write-one-to-clear): writes ones to bits 2.
            #[inline]
            pub fn clear_overflow(&mut self) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x4, 0x4);
                self
            }
            #[doc(hidden)]
            pub fn arm(&mut self, _value: bool) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Rw1s: ::perfregs::hal::access::Settable,
            {
                self
            }
            /// Set `arm` (write-one-to-set): writes ones to bits 3.
            #[inline]
            pub fn set_arm(&mut self) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x8, 0x8);
                self
            }
            #[doc(hidden)]
            pub fn zero(&mut self, _value: Bits<4>) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Mbz: ::perfregs::hal::access::Settable,
            {
                self
            }
            #[doc(hidden)]
            pub fn reserved_11_8(&mut self, _value: Bits<4>) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Rsvd: ::perfregs::hal::access::Settable,
            {
                self
            }
            #[doc(hidden)]
            pub fn keep(&mut self, _value: Bits<4>) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Pbc: ::perfregs::hal::access::Settable,
            {
                self
            }
            /// `level` (bits 23:16, RW).
            #[inline]
            pub fn level(&mut self, value: Bits<8>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xff0000,
                    (value.get() << 16u32) & 0xff0000,
                );
                self
            }
        }
        /// `ready`: bits 0, RO
        pub const READY: FieldAt<FieldLayout, Ro, bool, 0> = FieldAt::NEW;
        /// `kick`: bits 1, WO
        pub const KICK: FieldAt<FieldLayout, Wo, bool, 1> = FieldAt::NEW;
        /// `overflow`: bits 2, RW1C
        pub const OVERFLOW: FieldAt<FieldLayout, Rw1c, bool, 2> = FieldAt::NEW;
        /// `arm`: bits 3, RW1S
        pub const ARM: FieldAt<FieldLayout, Rw1s, bool, 3> = FieldAt::NEW;
        /// `zero`: bits 7:4, MBZ
        pub const ZERO: FieldAt<FieldLayout, Mbz, Bits<4>, 4> = FieldAt::NEW;
        /// `reserved_11_8`: bits 11:8, RSVD
        pub const RESERVED_11_8: FieldAt<FieldLayout, Rsvd, Bits<4>, 5> = FieldAt::NEW;
        /// `keep`: bits 15:12, PBC
        pub const KEEP: FieldAt<FieldLayout, Pbc, Bits<4>, 6> = FieldAt::NEW;
        /// `level`: bits 23:16, RW
        pub const LEVEL: FieldAt<FieldLayout, Rw, Bits<8>, 7> = FieldAt::NEW;
    }
}
/** Registers of Haswell (Gen7.5) (`hsw`): 1 described (1 with array elements).

 Every item here exists on this project at the address its docs give.*/
pub mod hsw {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "hsw",
        title: "Haswell (Gen7.5)",
        registers: &REGISTERS,
        events: &[],
        formats: &[],
        commands: &[],
        gpu: None,
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
        opaque: &[],
    };
    /// Runtime description of every register (array elements expanded) of this project.
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 1usize] = [
        ::perfregs::hal::register_row!(
            "STATUS", "golden", "", Mmio, 0x2000, 32u32, 0x0, false, status,
            Some("render"), None
        ),
    ];
    /// [`REGISTERS`] as the table the registers' locations read.
    #[doc(hidden)]
    pub struct Table;
    impl ::perfregs::hal::register::Table for Table {
        type Project = ::perfregs::hal::Hsw;
        const ROWS: &'static [::perfregs::hal::meta::RegisterInfo] = &REGISTERS;
    }
    ::perfregs::hal::register_location!(
        #[doc =
        " STATUS\n \n | | |\n |---|---|\n | MMIO offset | `0x2000` on hsw; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | source | golden test |\n | fields | [`STATUS`](status), defined at `access_mix/input.yaml:6:9` |"]
        STATUS = Mmio, ::perfregs::hal::hsw::domains::Render, status, Single, 0; status
    );
}
