/// Field layouts, each emitted once and shared by every register (of
/// any project) with the same fields. A project module re-exports
/// each register's layout under the register's lower-case name.
pub mod layouts {
    /** Field layout `MY_GT_REG` (32 bits).

 Used by: `MY_GT_REG` (tgl), `MY_DSS_REG` (tgl), `MY_PLAIN_REG` (tgl).

 | bits | field | access | description |
 |---|---|---|---|
 | 0 | `go` | RW |  |*/
    pub mod my_gt_reg {
        use ::perfregs::hal::access::{FieldAt, Rw};
        /// This layout, as a type (the `Layout` of the registers that use it).
        #[doc(hidden)]
        pub struct FieldLayout;
        impl ::perfregs::hal::register::Layout for FieldLayout {
            type Read = R;
            type Write = W;
            const NAME: &'static str = "MY_GT_REG";
            const WIDTH: u32 = 32u32;
            const KEEP_MASK: u64 = 0x1;
            const FIELDS: &'static [::perfregs::hal::meta::FieldInfo] = &[
                ::perfregs::hal::meta::FieldInfo { name: "go", lsb: 0u32, width: 1u32, access: ::perfregs::hal::meta::AccessKind::Rw, values: &[], description: "", address: false, },
            ];
        }
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::ReadableLayout for FieldLayout {}
        #[diagnostic::do_not_recommend]
        impl ::perfregs::hal::register::WritableLayout for FieldLayout {}
        ::perfregs::hal::layout_values!("MY_GT_REG", plain, u32);
        impl R {
            /// `go` (bits 0, RW).
            #[inline]
            pub fn go(self) -> bool {
                self.0 & 0x1 != 0
            }
        }
        impl ::core::fmt::Debug for R {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::perfregs::hal::values::debug_fields(
                    f,
                    "MY_GT_REG",
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
        }
        /// `go`: bits 0, RW
        pub const GO: FieldAt<FieldLayout, Rw, bool, 0> = FieldAt::NEW;
    }
}
/** Registers of Tiger Lake (Gen12 LP) (`tgl`): 3 described (3 with array elements).

 Every item here exists on this project at the address its docs give.*/
pub mod tgl {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "tgl",
        title: "Tiger Lake (Gen12 LP)",
        registers: &REGISTERS,
        events: &[],
        formats: &[],
        commands: &[],
        gpu: None,
        steering: Some("MCR_SELECTOR"),
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
        opaque: &[],
    };
    /// Runtime description of every register (array elements expanded) of this project.
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 3usize] = [
        ::perfregs::hal::register_row!(
            "MY_GT_REG", "mine", "", Mmio, 0x9400, 32u32, 0x0, false, my_gt_reg,
            Some("gt"), None
        ),
        ::perfregs::hal::register_row!(
            "MY_DSS_REG", "mine", "", Mmio, 0x8150, 32u32, 0x0, false, my_gt_reg,
            Some("render"), Some(("dss", 6u32))
        ),
        ::perfregs::hal::register_row!(
            "MY_PLAIN_REG", "mine", "", Mmio, 0x300000, 32u32, 0x0, false, my_gt_reg,
            None, None
        ),
    ];
    /// [`REGISTERS`] as the table the registers' locations read.
    #[doc(hidden)]
    pub struct Table;
    impl ::perfregs::hal::register::Table for Table {
        type Project = ::perfregs::hal::Tgl;
        const ROWS: &'static [::perfregs::hal::meta::RegisterInfo] = &REGISTERS;
    }
    ::perfregs::hal::register_location!(
        #[doc =
        " MY_GT_REG\n \n | | |\n |---|---|\n | MMIO offset | `0x9400` on tgl; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `gt`; unicast |\n | source | golden case tgl_maps |\n | fields | [`MY_GT_REG`](my_gt_reg), defined at `tgl_maps/input.yaml:7:5` |"]
        MY_GT_REG = Mmio, ::perfregs::hal::tgl::domains::Gt, my_gt_reg, Single, 0;
        my_gt_reg
    );
    ::perfregs::hal::register_location!(
        #[doc =
        " MY_DSS_REG\n \n | | |\n |---|---|\n | MMIO offset | `0x8150` on tgl; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | `render`; replicated: `dss`, 6 instances (steering API) |\n | source | golden case tgl_maps |\n | fields | [`MY_GT_REG`](my_dss_reg), defined at `tgl_maps/input.yaml:8:5` |"]
        MY_DSS_REG = Mmio, ::perfregs::hal::tgl::domains::Render, my_dss_reg, Multicast <
        ::perfregs::hal::tgl::groups::Dss >, 1; my_gt_reg
    );
    ::perfregs::hal::register_location!(
        #[doc =
        " MY_PLAIN_REG\n \n | | |\n |---|---|\n | MMIO offset | `0x300000` on tgl; 32 bits, reset `0x0` |\n | access | read, write, modify |\n | power domain | none (outside every force-wake range); unicast |\n | source | golden case tgl_maps |\n | fields | [`MY_GT_REG`](my_plain_reg), defined at `tgl_maps/input.yaml:9:5` |"]
        MY_PLAIN_REG = Mmio, ::perfregs::hal::power::NoDomain, my_plain_reg, Single, 2;
        my_gt_reg
    );
}
