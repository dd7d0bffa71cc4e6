/// Enumerated field values, shared by every project.
pub mod enums {
    /// Operating mode.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum CtlMode {
        /// `0x0` off
        Off = 0,
        /// `0x1` single: One shot.
        Single = 1,
        /// `0x2` continuous
        Continuous = 2,
    }
    ::perfregs::hal::field_enum_impls!(
        CtlMode, partial, [Off = 0 "off", Single = 1 "single", Continuous = 2
        "continuous"]
    );
}
/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `CTL` (32 bits).

 Used by: `CTL` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 9:8 | `mode` | RW | Operating mode. |
 | 7:4 | `period` | RW | Timer period exponent. |
 | 0 | `enable` | RW | Enable the unit. |*/
    pub mod ctl {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use ::perfregs::hal::Bits;
        use super::super::enums::CtlMode;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CTL";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x3f1;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "enable", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "Enable the unit.", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "period", lsb: 4u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "Timer period exponent.", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "mode", lsb: 8u32, width: 2u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[("off", 0), ("single", 1), ("continuous", 2)], description: "Operating mode.", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("CTL", plain, u32);
        impl R {
            /// `enable` (bits 0, RW).
            #[inline]
            pub fn enable(self) -> bool {
                self.0 & 0x1 != 0
            }
            /// `period` (bits 7:4, RW).
            #[inline]
            pub fn period(self) -> Bits<4> {
                Bits::truncate(self.0 >> 4u32)
            }
            /// `mode` (bits 9:8, RW).
            #[inline]
            pub fn mode(self) -> ::core::result::Result<CtlMode, u64> {
                ::perfregs::hal::ReadValue::get(self, MODE)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CTL")
                    .field("enable", &(self.0 & 0x1 != 0))
                    .field(
                        "period",
                        &::perfregs::hal::values::DebugBits(self.0 >> 4u32 & 0xf),
                    )
                    .field("mode", &self.mode())
                    .finish()
            }
        }
        impl W {
            /// `enable` (bits 0, RW).
            #[inline]
            pub fn enable(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x1, (value as u64) << 0u32);
                self
            }
            /// `period` (bits 7:4, RW).
            #[inline]
            pub fn period(&mut self, value: Bits<4>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xf0,
                    (value.get() << 4u32) & 0xf0,
                );
                self
            }
            /// `mode` (bits 9:8, RW).
            #[inline]
            pub fn mode(&mut self, value: CtlMode) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, MODE, value)
            }
        }
        /** `enable`: bits 0, RW

 Enable the unit.*/
        pub const ENABLE: FieldAt<FieldLayout, Rw, bool, 0> = FieldAt::NEW;
        /** `period`: bits 7:4, RW

 Timer period exponent.*/
        pub const PERIOD: FieldAt<FieldLayout, Rw, Bits<4>, 1> = FieldAt::NEW;
        /** `mode`: bits 9:8, RW

 Operating mode.*/
        pub const MODE: FieldAt<FieldLayout, Rw, CtlMode, 2> = FieldAt::NEW;
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
            "CTL", "golden", "Control", Mmio, 0x1000, 32u32, 0x10, false, ctl,
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
    /// The enumerated field values of this project's registers, under one
    /// naming rule for every project (`ReportFormat`, `BufferSize`, ...).
    pub mod enums {
        #[doc(no_inline)]
        pub use super::super::enums::CtlMode;
    }
    ::perfregs::hal::register_location!(
        #[doc =
        " CTL: Control\n \n A plain read/write control register.\n \n | | |\n |---|---|\n | MMIO offset | `0x1000` on hsw; 32 bits, reset `0x10` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | source | golden test |\n | fields | [`CTL`](ctl), defined at `rw_basic/input.yaml:6:9` |"]
        CTL = Mmio, ::perfregs::hal::hsw::domains::Render, ctl, Single, 0; ctl
    );
}
