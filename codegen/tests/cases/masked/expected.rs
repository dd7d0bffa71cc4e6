/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `WAKE` (32 bits, masked: bits 31:16 enable the write of bits 15:0).

 Used by: `WAKE` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 11:8 | `level` | RW |  |
 | 1 | `user` | RW |  |
 | 0 | `kernel` | RW |  |*/
    pub mod wake {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "WAKE";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xf03;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "kernel", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "user", lsb: 1u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "level", lsb: 8u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::MaskedLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("WAKE", masked, u32);
        impl R {
            /// `kernel` (bits 0, RW).
            #[inline]
            pub fn kernel(self) -> bool {
                self.0 & 0x1 != 0
            }
            /// `user` (bits 1, RW).
            #[inline]
            pub fn user(self) -> bool {
                self.0 & 0x2 != 0
            }
            /// `level` (bits 11:8, RW).
            #[inline]
            pub fn level(self) -> Bits<4> {
                Bits::truncate(self.0 >> 8u32)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "WAKE",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `kernel` (bits 0, RW).
            #[inline]
            pub fn kernel(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x1, (value as u64) << 0u32);
                self
            }
            /// `user` (bits 1, RW).
            #[inline]
            pub fn user(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x2, (value as u64) << 1u32);
                self
            }
            /// `level` (bits 11:8, RW).
            #[inline]
            pub fn level(&mut self, value: Bits<4>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xf00,
                    (value.get() << 8u32) & 0xf00,
                );
                self
            }
        }
        /// `kernel`: bits 0, RW
        pub const KERNEL: FieldAt<FieldLayout, Rw, bool, 0> = FieldAt::NEW;
        /// `user`: bits 1, RW
        pub const USER: FieldAt<FieldLayout, Rw, bool, 1> = FieldAt::NEW;
        /// `level`: bits 11:8, RW
        pub const LEVEL: FieldAt<FieldLayout, Rw, Bits<4>, 2> = FieldAt::NEW;
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
            "WAKE", "golden", "", Mmio, 0x4a188, 32u32, 0x0, true, wake, None, None
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
        " WAKE\n \n | | |\n |---|---|\n | MMIO offset | `0x4a188` on hsw; 32 bits, reset `0x0` |\n | access | masked: bits 31:16 enable the write of bits 15:0 (`write_masked`) |\n | power domain | none (outside every force-wake range); unicast |\n | source | golden test |\n | fields | [`WAKE`](wake), defined at `masked/input.yaml:6:9` |"]
        WAKE = Mmio, ::perfregs::hal::power::NoDomain, wake, Single, 0; wake
    );
}
