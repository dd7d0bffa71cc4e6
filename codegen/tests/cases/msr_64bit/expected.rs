/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `PMON_CTL` (64 bits).

 Used by: `PMON_CTL` (ivt).

 | bits | field | access | description |
 |---|---|---|---|
 | 63:40 | `reserved_63_40` | RSVD |  |
 | 39:32 | `count` | RW |  |
 | 31 | `freeze` | WO |  |
 | 30 | `overflow` | RW1C |  |
 | 14:0 | `core_sel` | RW |  |*/
    pub mod pmon_ctl {
        use ::perfregs::hal::access::{FieldAt, Rsvd, Rw, Rw1c, Wo};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "PMON_CTL";
            const WIDTH: u32 = 64u32;
            const KEEP_MASK: u64 = 0xff80007fff;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "core_sel", lsb: 0u32, width: 15u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "overflow", lsb: 30u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw1c, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "freeze", lsb: 31u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Wo, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "count", lsb: 32u32, width: 8u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "reserved_63_40", lsb: 40u32, width: 24u32, access: ::perfregs::hal::meta::AccessKind::Rsvd, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("PMON_CTL", plain, u64);
        impl R {
            /// `core_sel` (bits 14:0, RW).
            #[inline]
            pub fn core_sel(self) -> Bits<15> {
                Bits::truncate(self.0 >> 0u32)
            }
            /// `overflow` (bits 30, RW1C).
            #[inline]
            pub fn overflow(self) -> bool {
                self.0 & 0x40000000 != 0
            }
            /// `count` (bits 39:32, RW).
            #[inline]
            pub fn count(self) -> Bits<8> {
                Bits::truncate(self.0 >> 32u32)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "PMON_CTL",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `core_sel` (bits 14:0, RW).
            #[inline]
            pub fn core_sel(&mut self, value: Bits<15>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0x7fff,
                    (value.get() << 0u32) & 0x7fff,
                );
                self
            }
            #[doc(hidden)]
            pub fn overflow(&mut self, _value: bool) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Rw1c: ::perfregs::hal::access::Settable,
            {
                self
            }
            /// Clear `overflow` (write-one-to-clear): writes ones to bits 30.
            #[inline]
            pub fn clear_overflow(&mut self) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x40000000, 0x40000000);
                self
            }
            /// `freeze` (bits 31, WO).
            #[inline]
            pub fn freeze(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0x80000000,
                    (value as u64) << 31u32,
                );
                self
            }
            /// `count` (bits 39:32, RW).
            #[inline]
            pub fn count(&mut self, value: Bits<8>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xff00000000,
                    (value.get() << 32u32) & 0xff00000000,
                );
                self
            }
            #[doc(hidden)]
            pub fn reserved_63_40(&mut self, _value: Bits<24>) -> &mut Self
            where
                for<'a> ::perfregs::hal::access::Rsvd: ::perfregs::hal::access::Settable,
            {
                self
            }
        }
        /// `core_sel`: bits 14:0, RW
        pub const CORE_SEL: FieldAt<FieldLayout, Rw, Bits<15>, 0> = FieldAt::NEW;
        /// `overflow`: bits 30, RW1C
        pub const OVERFLOW: FieldAt<FieldLayout, Rw1c, bool, 1> = FieldAt::NEW;
        /// `freeze`: bits 31, WO
        pub const FREEZE: FieldAt<FieldLayout, Wo, bool, 2> = FieldAt::NEW;
        /// `count`: bits 39:32, RW
        pub const COUNT: FieldAt<FieldLayout, Rw, Bits<8>, 3> = FieldAt::NEW;
        /// `reserved_63_40`: bits 63:40, RSVD
        pub const RESERVED_63_40: FieldAt<FieldLayout, Rsvd, Bits<24>, 4> = FieldAt::NEW;
    }
}
/** Registers of Ivy Bridge-EP / Xeon E5 v2 (IVT) (`ivt`): 1 described (1 with array elements).

 Every item here exists on this project at the address its docs give.*/
pub mod ivt {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "ivt",
        title: "Ivy Bridge-EP / Xeon E5 v2 (IVT)",
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
            "PMON_CTL", "golden", "", Msr, 0xc40, 64u32, 0x0, false, pmon_ctl, None, None
        ),
    ];
    /// [`REGISTERS`] as the table the registers' locations read.
    #[doc(hidden)]
    pub struct Table;
    impl ::perfregs::hal::register::Table for Table {
        type Project = ::perfregs::hal::Ivt;
        const ROWS: &'static [::perfregs::hal::meta::RegisterInfo] = &REGISTERS;
    }
    ::perfregs::hal::register_location!(
        #[doc =
        " PMON_CTL\n \n | | |\n |---|---|\n | MSR | `0xc40` on ivt; 64 bits, reset `0x0` |\n | access | read, write, modify |\n | source | golden test |\n | fields | [`PMON_CTL`](pmon_ctl), defined at `msr_64bit/input.yaml:6:9` |"]
        PMON_CTL = Msr, ::perfregs::hal::power::NoDomain, pmon_ctl, Single, 0; pmon_ctl
    );
}
