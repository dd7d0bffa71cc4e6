/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `CNTn` (32 bits).

 Used by: `CNTn` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 31:0 | `value` | RW-V | Value of counter n. |*/
    pub mod cntn {
        use ::perfregs::hal::access::{FieldAt, RwV};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CNTn";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xffffffff;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "value", lsb: 0u32, width: 32u32, access: ::perfregs::hal::meta::AccessKind::RwV, values: &[], description: "Value of counter {n}.", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("CNTn", plain, u32);
        impl R {
            /// `value` (bits 31:0, RW-V).
            #[inline]
            pub fn value(self) -> Bits<32> {
                Bits::truncate(self.0 >> 0u32)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "CNTn",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `value` (bits 31:0, RW-V).
            #[inline]
            pub fn value(&mut self, value: Bits<32>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xffffffff,
                    (value.get() << 0u32) & 0xffffffff,
                );
                self
            }
        }
        /** `value`: bits 31:0, RW-V

 Value of counter n.*/
        pub const VALUE: FieldAt<FieldLayout, RwV, Bits<32>, 0> = FieldAt::NEW;
    }
    /** Field layout `SELn` (32 bits).

 Used by: `SELn` (ivb, hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 7:0 | `event` | RW |  |*/
    pub mod seln {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "SELn";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xff;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "event", lsb: 0u32, width: 8u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("SELn", plain, u32);
        impl R {
            /// `event` (bits 7:0, RW).
            #[inline]
            pub fn event(self) -> Bits<8> {
                Bits::truncate(self.0 >> 0u32)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "SELn",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `event` (bits 7:0, RW).
            #[inline]
            pub fn event(&mut self, value: Bits<8>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xff,
                    (value.get() << 0u32) & 0xff,
                );
                self
            }
        }
        /// `event`: bits 7:0, RW
        pub const EVENT: FieldAt<FieldLayout, Rw, Bits<8>, 0> = FieldAt::NEW;
    }
}
/** Registers of Ivy Bridge (Gen7) (`ivb`): 1 described (2 with array elements).

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
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 2usize] = [
        ::perfregs::hal::register_row!(
            "SEL0", "golden", "", Mmio, 0x3100, 32u32, 0x0, false, seln, Some("render"),
            None
        ),
        ::perfregs::hal::register_row!(
            "SEL1", "golden", "", Mmio, 0x3104, 32u32, 0x0, false, seln, Some("render"),
            None
        ),
    ];
    /// [`REGISTERS`] as the table the registers' locations read.
    #[doc(hidden)]
    pub struct Table;
    impl ::perfregs::hal::register::Table for Table {
        type Project = ::perfregs::hal::Ivb;
        const ROWS: &'static [::perfregs::hal::meta::RegisterInfo] = &REGISTERS;
    }
    /** SELn

 | | |
 |---|---|
 | MMIO offset | `0x3100` on ivb; 32 bits, reset `0x0` |
 | array | 2 elements, `0x4` apart: `.at::<N>()`, `.get(n)`, `.iter()`, or the constants `SEL0` .. `SEL1` |
 | access | read, write, modify |
 | power domain | `render`; unicast |
 | other projects | hsw `0x3200` |
 | source | golden test |
 | fields | [`SELn`](seln), defined at `array/input.yaml:13:9` |*/
    #[derive(Clone, Copy)]
    pub struct SELn;
    impl ::perfregs::hal::register::RegisterArray for SELn {
        type Project = ::perfregs::hal::Ivb;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::ivb::domains::Render;
        type Layout = seln::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        const NAME: &'static str = "SEL{n}";
        const BASE: u64 = 0x3100;
        const STRIDE: u64 = 0x4;
        const COUNT: usize = 2usize;
        const RESET: u64 = 0x0;
        const INFOS: &'static [&'static ::perfregs::hal::meta::RegisterInfo] = &[
            &REGISTERS[0], &REGISTERS[1],
        ];
    }
    impl SELn {
        /// Element `N`; an index past the end does not compile.
        #[inline(always)]
        pub const fn at<const N: usize>(self) -> ::perfregs::hal::Elem<Self> {
            ::perfregs::hal::Elem::at::<N>()
        }
        /// Element `n`, or `None` past the end.
        #[inline]
        pub const fn get(self, n: usize) -> Option<::perfregs::hal::Elem<Self>> {
            ::perfregs::hal::Elem::get(n)
        }
        /// Every element, in order.
        pub fn iter(self) -> impl Iterator<Item = ::perfregs::hal::Elem<Self>> + Clone {
            ::perfregs::hal::Elem::all()
        }
    }
    /// `SEL0`: element 0 of [`SELn`].
    #[doc(hidden)]
    pub const SEL0: ::perfregs::hal::Elem<SELn> = ::perfregs::hal::Elem::at::<0>();
    /// `SEL1`: element 1 of [`SELn`].
    #[doc(hidden)]
    pub const SEL1: ::perfregs::hal::Elem<SELn> = ::perfregs::hal::Elem::at::<1>();
    #[doc(no_inline)]
    pub use super::layouts::seln;
}
/** Registers of Haswell (Gen7.5) (`hsw`): 2 described (7 with array elements).

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
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 7usize] = [
        ::perfregs::hal::register_row!(
            "CNT0", "golden", "Counter 0", Mmio, 0x3000, 32u32, 0x0, false, cntn,
            Some("render"), None
        ),
        ::perfregs::hal::register_row!(
            "CNT1", "golden", "Counter 1", Mmio, 0x3008, 32u32, 0x0, false, cntn,
            Some("render"), None
        ),
        ::perfregs::hal::register_row!(
            "CNT2", "golden", "Counter 2", Mmio, 0x3010, 32u32, 0x0, false, cntn,
            Some("render"), None
        ),
        ::perfregs::hal::register_row!(
            "SEL0", "golden", "", Mmio, 0x3200, 32u32, 0x0, false, seln, Some("render"),
            None
        ),
        ::perfregs::hal::register_row!(
            "SEL1", "golden", "", Mmio, 0x3204, 32u32, 0x0, false, seln, Some("render"),
            None
        ),
        ::perfregs::hal::register_row!(
            "SEL2", "golden", "", Mmio, 0x3208, 32u32, 0x0, false, seln, Some("render"),
            None
        ),
        ::perfregs::hal::register_row!(
            "SEL3", "golden", "", Mmio, 0x320c, 32u32, 0x0, false, seln, Some("render"),
            None
        ),
    ];
    /// [`REGISTERS`] as the table the registers' locations read.
    #[doc(hidden)]
    pub struct Table;
    impl ::perfregs::hal::register::Table for Table {
        type Project = ::perfregs::hal::Hsw;
        const ROWS: &'static [::perfregs::hal::meta::RegisterInfo] = &REGISTERS;
    }
    /** CNTn: Counter n

 | | |
 |---|---|
 | MMIO offset | `0x3000` on hsw; 32 bits, reset `0x0` |
 | array | 3 elements, `0x8` apart: `.at::<N>()`, `.get(n)`, `.iter()`, or the constants `CNT0` .. `CNT2` |
 | access | read, write, modify |
 | power domain | `render`; unicast |
 | source | golden test |
 | fields | [`CNTn`](cntn), defined at `array/input.yaml:6:9` |*/
    #[derive(Clone, Copy)]
    pub struct CNTn;
    impl ::perfregs::hal::register::RegisterArray for CNTn {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::hsw::domains::Render;
        type Layout = cntn::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        const NAME: &'static str = "CNT{n}";
        const BASE: u64 = 0x3000;
        const STRIDE: u64 = 0x8;
        const COUNT: usize = 3usize;
        const RESET: u64 = 0x0;
        const INFOS: &'static [&'static ::perfregs::hal::meta::RegisterInfo] = &[
            &REGISTERS[0], &REGISTERS[1], &REGISTERS[2],
        ];
    }
    impl CNTn {
        /// Element `N`; an index past the end does not compile.
        #[inline(always)]
        pub const fn at<const N: usize>(self) -> ::perfregs::hal::Elem<Self> {
            ::perfregs::hal::Elem::at::<N>()
        }
        /// Element `n`, or `None` past the end.
        #[inline]
        pub const fn get(self, n: usize) -> Option<::perfregs::hal::Elem<Self>> {
            ::perfregs::hal::Elem::get(n)
        }
        /// Every element, in order.
        pub fn iter(self) -> impl Iterator<Item = ::perfregs::hal::Elem<Self>> + Clone {
            ::perfregs::hal::Elem::all()
        }
    }
    /// `CNT0`: element 0 of [`CNTn`].
    #[doc(hidden)]
    pub const CNT0: ::perfregs::hal::Elem<CNTn> = ::perfregs::hal::Elem::at::<0>();
    /// `CNT1`: element 1 of [`CNTn`].
    #[doc(hidden)]
    pub const CNT1: ::perfregs::hal::Elem<CNTn> = ::perfregs::hal::Elem::at::<1>();
    /// `CNT2`: element 2 of [`CNTn`].
    #[doc(hidden)]
    pub const CNT2: ::perfregs::hal::Elem<CNTn> = ::perfregs::hal::Elem::at::<2>();
    #[doc(no_inline)]
    pub use super::layouts::cntn;
    /** SELn

 | | |
 |---|---|
 | MMIO offset | `0x3200` on hsw; 32 bits, reset `0x0` |
 | array | 4 elements, `0x4` apart: `.at::<N>()`, `.get(n)`, `.iter()`, or the constants `SEL0` .. `SEL3` |
 | access | read, write, modify |
 | power domain | `render`; unicast |
 | other projects | ivb `0x3100` |
 | source | golden test |
 | fields | [`SELn`](seln), defined at `array/input.yaml:13:9` |*/
    #[derive(Clone, Copy)]
    pub struct SELn;
    impl ::perfregs::hal::register::RegisterArray for SELn {
        type Project = ::perfregs::hal::Hsw;
        type Space = ::perfregs::hal::Mmio;
        type Domain = ::perfregs::hal::hsw::domains::Render;
        type Layout = seln::FieldLayout;
        type Cast = ::perfregs::hal::register::Single;
        const NAME: &'static str = "SEL{n}";
        const BASE: u64 = 0x3200;
        const STRIDE: u64 = 0x4;
        const COUNT: usize = 4usize;
        const RESET: u64 = 0x0;
        const INFOS: &'static [&'static ::perfregs::hal::meta::RegisterInfo] = &[
            &REGISTERS[3], &REGISTERS[4], &REGISTERS[5], &REGISTERS[6],
        ];
    }
    impl SELn {
        /// Element `N`; an index past the end does not compile.
        #[inline(always)]
        pub const fn at<const N: usize>(self) -> ::perfregs::hal::Elem<Self> {
            ::perfregs::hal::Elem::at::<N>()
        }
        /// Element `n`, or `None` past the end.
        #[inline]
        pub const fn get(self, n: usize) -> Option<::perfregs::hal::Elem<Self>> {
            ::perfregs::hal::Elem::get(n)
        }
        /// Every element, in order.
        pub fn iter(self) -> impl Iterator<Item = ::perfregs::hal::Elem<Self>> + Clone {
            ::perfregs::hal::Elem::all()
        }
    }
    /// `SEL0`: element 0 of [`SELn`].
    #[doc(hidden)]
    pub const SEL0: ::perfregs::hal::Elem<SELn> = ::perfregs::hal::Elem::at::<0>();
    /// `SEL1`: element 1 of [`SELn`].
    #[doc(hidden)]
    pub const SEL1: ::perfregs::hal::Elem<SELn> = ::perfregs::hal::Elem::at::<1>();
    /// `SEL2`: element 2 of [`SELn`].
    #[doc(hidden)]
    pub const SEL2: ::perfregs::hal::Elem<SELn> = ::perfregs::hal::Elem::at::<2>();
    /// `SEL3`: element 3 of [`SELn`].
    #[doc(hidden)]
    pub const SEL3: ::perfregs::hal::Elem<SELn> = ::perfregs::hal::Elem::at::<3>();
    #[doc(no_inline)]
    pub use super::layouts::seln;
}
