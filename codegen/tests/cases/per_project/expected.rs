/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `CFG` (32 bits).

 Used by: `CFG` (ivb).

 | bits | field | access | description |
 |---|---|---|---|
 | 7:4 | `select` | RW |  |
 | 0 | `go` | RW |  |*/
    pub mod cfg {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CFG";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xf1;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "go", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "select", lsb: 4u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("CFG", plain, u32);
        impl R {
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(self) -> bool {
                self.0 & 0x1 != 0
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(self) -> Bits<4> {
                Bits::truncate(self.0 >> 4u32)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "CFG",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x1, (value as u64) << 0u32);
                self
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(&mut self, value: Bits<4>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xf0,
                    (value.get() << 4u32) & 0xf0,
                );
                self
            }
        }
        /// `go`: bits 0, RW
        pub const GO: FieldAt<FieldLayout, Rw, bool, 0> = FieldAt::NEW;
        /// `select`: bits 7:4, RW
        pub const SELECT: FieldAt<FieldLayout, Rw, Bits<4>, 1> = FieldAt::NEW;
    }
    /** Field layout `CFG` (32 bits).

 Used by: `CFG` (hsw).

 | bits | field | access | description |
 |---|---|---|---|
 | 7:4 | `select` | RW |  |
 | 2 | `fast` | RW |  |
 | 0 | `go` | RW |  |*/
    pub mod cfg_hsw {
        use ::perfregs::hal::access::{FieldAt, Rw};
        use ::perfregs::hal::Bits;
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "CFG";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0xf5;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "go", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "fast", lsb: 2u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
                ::perfregs::hal::meta::FieldInfo { name: "select", lsb: 4u32, width: 4u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("CFG", plain, u32);
        impl R {
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(self) -> bool {
                self.0 & 0x1 != 0
            }
            /// `fast` (bits 2, RW).
            #[inline]
            pub fn fast(self) -> bool {
                self.0 & 0x4 != 0
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(self) -> Bits<4> {
                Bits::truncate(self.0 >> 4u32)
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "CFG",
                    self.0,
                    <FieldLayout as ::perfregs::hal::register::Layout>::FIELDS,
                )
            }
        }
        impl W {
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x1, (value as u64) << 0u32);
                self
            }
            /// `fast` (bits 2, RW).
            #[inline]
            pub fn fast(&mut self, value: bool) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(self, 0x4, (value as u64) << 2u32);
                self
            }
            /// `select` (bits 7:4, RW).
            #[inline]
            pub fn select(&mut self, value: Bits<4>) -> &mut Self {
                ::perfregs::hal::WriteValue::insert(
                    self,
                    0xf0,
                    (value.get() << 4u32) & 0xf0,
                );
                self
            }
        }
        /// `go`: bits 0, RW
        pub const GO: FieldAt<FieldLayout, Rw, bool, 0> = FieldAt::NEW;
        /// `fast`: bits 2, RW
        pub const FAST: FieldAt<FieldLayout, Rw, bool, 1> = FieldAt::NEW;
        /// `select`: bits 7:4, RW
        pub const SELECT: FieldAt<FieldLayout, Rw, Bits<4>, 2> = FieldAt::NEW;
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
            "CFG", "golden", "", Mmio, 0x2100, 32u32, 0x0, false, cfg, Some("render"),
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
    ::perfregs::hal::register_location!(
        #[doc =
        " CFG\n \n | | |\n |---|---|\n | MMIO offset | `0x2100` on ivb; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | other projects | hsw `0x2200` |\n | source | golden test |\n | fields | [`CFG`](cfg), defined at `per_project/input.yaml:6:9` |"]
        CFG = Mmio, ::perfregs::hal::ivb::domains::Render, cfg, Single, 0; cfg
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
            "CFG", "golden", "", Mmio, 0x2200, 32u32, 0x4, false, cfg_hsw,
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
        " CFG\n \n | | |\n |---|---|\n | MMIO offset | `0x2200` on hsw; 32 bits, reset `0x4` |\n | access | read, write, modify |\n | power domain | `render`; unicast |\n | other projects | ivb `0x2100` |\n | source | golden test |\n | fields | [`CFG`](cfg), defined at `per_project/input.yaml:6:9` |"]
        CFG = Mmio, ::perfregs::hal::hsw::domains::Render, cfg, Single, 0; cfg_hsw
    );
}
