/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `LIMIT_LO` (32 bits).

 Used by: `LIMIT_LO` (hsw), `LIMIT_HI` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 31 | `valid` | RW |  |
 | 15:0 | `value` | RW |  |*/
    pub mod limit_lo {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "LIMIT_LO";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x8000ffff;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "value", lsb: 0u32, width: 16u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "valid", lsb: 31u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("LIMIT_LO", plain, u32);
        impl R {
            /// `value` (bits 15:0, RW).
            #[inline]
            pub fn value(self) -> Bits<16> {
                Bits::truncate(self.0 >> 0u32)
            }
            /// `valid` (bits 31, RW).
            #[inline]
            pub fn valid(self) -> bool {
                self.0 & 0x80000000 != 0
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "LIMIT_LO",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `value` (bits 15:0, RW).
            #[inline]
            pub fn value(&mut self, value: Bits<16>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xffff,
                    (value.get() << 0u32) & 0xffff,
                );
                self
            }
            /// `valid` (bits 31, RW).
            #[inline]
            pub fn valid(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0x80000000,
                    (value as u64) << 31u32,
                );
                self
            }
        }
        /// `value`: bits 15:0, RW
        pub const VALUE: FieldAt<FieldLayout, Rw, Bits<16>, 0> = FieldAt::NEW;
        /// `valid`: bits 31, RW
        pub const VALID: FieldAt<FieldLayout, Rw, bool, 1> = FieldAt::NEW;
    }
}
/** Registers of Haswell (Gen7.5) (`hsw`): 2 described (2 with array elements).

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
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 2usize] = [
        ::perfregs::hal::register_row!(
            "LIMIT_LO", "golden", "", Mmio, 0x4000, 32u32, 0x0, false, limit_lo,
            Some("render"), None
        ),
        ::perfregs::hal::register_row!(
            "LIMIT_HI", "golden", "", Mmio, 0x4004, 32u32, 0x0, false, limit_lo,
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
        " LIMIT_LO\n \n | | |\n |---|---|\n | MMIO offset | `0x4000` on hsw; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | source | golden test |\n | fields | [`LIMIT_LO`](limit_lo), defined at `shared_layout/input.yaml:6:9` |"]
        LIMIT_LO = Mmio, ::perfregs::hal::hsw::domains::Render, limit_lo, Single, 0;
        limit_lo
    );
    ::perfregs::hal::register_location!(
        #[doc =
        " LIMIT_HI\n \n | | |\n |---|---|\n | MMIO offset | `0x4004` on hsw; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | source | golden test |\n | fields | [`LIMIT_LO`](limit_hi), defined at `shared_layout/input.yaml:12:9` |"]
        LIMIT_HI = Mmio, ::perfregs::hal::hsw::domains::Render, limit_hi, Single, 1;
        limit_lo
    );
}
