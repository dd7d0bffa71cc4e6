/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `UNIT_CTL` (32 bits).

 Used by: `UNIT_CTL` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 0 | `enable` | RW |  |*/
    pub mod unit_ctl {
        use ::perfregs::hal::access::{FieldAt, Rw};
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "UNIT_CTL";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x1;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "enable", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("UNIT_CTL", plain, u32);
        impl R {
            /// `enable` (bits 0, RW).
            #[inline]
            pub fn enable(self) -> bool {
                self.0 & 0x1 != 0
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "UNIT_CTL",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `enable` (bits 0, RW).
            #[inline]
            pub fn enable(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x1, (value as u64) << 0u32);
                self
            }
        }
        /// `enable`: bits 0, RW
        pub const ENABLE: FieldAt<FieldLayout, Rw, bool, 0> = FieldAt::NEW;
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
        opaque: &[
            ::perfregs::hal::meta::OpaqueRange {
                name: "UNIT_BODY",
                start: 0x1f000,
                end: 0x1f0ff,
                domain: Some("render"),
            },
        ],
    };
    /// Runtime description of every register (array elements expanded) of this project.
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 1usize] = [
        ::perfregs::hal::register_row!(
            "UNIT_CTL", "golden", "", Mmio, 0x1f100, 32u32, 0x0, false, unit_ctl,
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
        " UNIT_CTL\n \n | | |\n |---|---|\n | MMIO offset | `0x1f100` on hsw; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | source | golden test |\n | fields | [`UNIT_CTL`](unit_ctl), defined at `opaque_range/input.yaml:7:9` |"]
        UNIT_CTL = Mmio, ::perfregs::hal::hsw::domains::Render, unit_ctl, Single, 0;
        unit_ctl
    );
}
