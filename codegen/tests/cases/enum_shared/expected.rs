/// Enumerated field values, shared by every project.
pub mod enums {
    /// Clock speed.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum Speed {
        /// `0x0` slow
        Slow = 0,
        /// `0x1` medium
        Medium = 1,
        /// `0x2` fast: Full speed.
        Fast = 2,
    }
    ::perfregs::hal::field_enum_impls!(
        Speed, partial, [Slow = 0 "slow", Medium = 1 "medium", Fast = 2 "fast"]
    );
}
/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `CLK_IVB` (32 bits).

 Used by: `CLK_IVB` (ivb).

 | bits | field | access | description |
 |---|---|---|---|
 | 1:0 | `speed` | RW |  |*/
    pub mod clk_ivb {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use super::super::enums::Speed;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CLK_IVB";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x3;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "speed", lsb: 0u32, width: 2u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[("slow", 0), ("medium", 1), ("fast", 2)], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("CLK_IVB", plain, u32);
        impl R {
            /// `speed` (bits 1:0, RW).
            #[inline]
            pub fn speed(self) -> ::core::result::Result<Speed, u64> {
                ::perfregs::hal::ReadValue::get(self, SPEED)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CLK_IVB").field("speed", &self.speed()).finish()
            }
        }
        impl W {
            /// `speed` (bits 1:0, RW).
            #[inline]
            pub fn speed(&mut self, value: Speed) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, SPEED, value)
            }
        }
        /// `speed`: bits 1:0, RW
        pub const SPEED: FieldAt<FieldLayout, Rw, Speed, 0> = FieldAt::NEW;
    }
    /** Field layout `CLK_HSW` (32 bits).

 Used by: `CLK_HSW` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 5:4 | `speed` | RW |  |*/
    pub mod clk_hsw {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use super::super::enums::Speed;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CLK_HSW";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x30;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "speed", lsb: 4u32, width: 2u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[("slow", 0), ("medium", 1), ("fast", 2)], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("CLK_HSW", plain, u32);
        impl R {
            /// `speed` (bits 5:4, RW).
            #[inline]
            pub fn speed(self) -> ::core::result::Result<Speed, u64> {
                ::perfregs::hal::ReadValue::get(self, SPEED)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("CLK_HSW").field("speed", &self.speed()).finish()
            }
        }
        impl W {
            /// `speed` (bits 5:4, RW).
            #[inline]
            pub fn speed(&mut self, value: Speed) -> &mut Self {
                ::perfregs::hal::WriteValue::set(self, SPEED, value)
            }
        }
        /// `speed`: bits 5:4, RW
        pub const SPEED: FieldAt<FieldLayout, Rw, Speed, 0> = FieldAt::NEW;
    }
}
/** Registers of Ivy Bridge (Gen7) (`ivb`): 1 described (1 with array elements).

 Every item here exists on this project at the address its docs give.*/
pub mod ivb {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "ivb",
        title: "Ivy Bridge (Gen7)",
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
            "CLK_IVB", "golden", "", Mmio, 0x5000, 32u32, 0x0, false, clk_ivb,
            Some("render"), None
        ),
    ];
    /// [`REGISTERS`] as the table the registers' locations read.
    #[doc(hidden)]
    pub struct Table;
    impl ::perfregs::hal::register::Table for Table {
        type Project = ::perfregs::hal::Ivb;
        const ROWS: &'static [::perfregs::hal::meta::RegisterInfo] = &REGISTERS;
    }
    /// The enumerated field values of this project's registers, under one
    /// naming rule for every project (`ReportFormat`, `BufferSize`, ...).
    pub mod enums {
        #[doc(no_inline)]
        pub use super::super::enums::Speed;
    }
    ::perfregs::hal::register_location!(
        #[doc =
        " CLK_IVB\n \n | | |\n |---|---|\n | MMIO offset | `0x5000` on ivb; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | source | golden test |\n | fields | [`CLK_IVB`](clk_ivb), defined at `enum_shared/input.yaml:13:9` |"]
        CLK_IVB = Mmio, ::perfregs::hal::ivb::domains::Render, clk_ivb, Single, 0;
        clk_ivb
    );
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
            "CLK_HSW", "golden", "", Mmio, 0x5100, 32u32, 0x0, false, clk_hsw,
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
        pub use super::super::enums::Speed;
    }
    ::perfregs::hal::register_location!(
        #[doc =
        " CLK_HSW\n \n | | |\n |---|---|\n | MMIO offset | `0x5100` on hsw; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | source | golden test |\n | fields | [`CLK_HSW`](clk_hsw), defined at `enum_shared/input.yaml:18:9` |"]
        CLK_HSW = Mmio, ::perfregs::hal::hsw::domains::Render, clk_hsw, Single, 0;
        clk_hsw
    );
}
