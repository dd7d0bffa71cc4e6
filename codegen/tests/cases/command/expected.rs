/** Registers of Haswell (Gen7.5) (`hsw`): 0 described (0 with array elements).

 Every item here exists on this project at the address its docs give.*/
pub mod hsw {
    /// Everything described for this project, at run time.
    pub static PROJECT: ::perfregs::hal::meta::ProjectInfo = ::perfregs::hal::meta::ProjectInfo {
        name: "hsw",
        title: "Haswell (Gen7.5)",
        registers: &REGISTERS,
        events: &[],
        formats: &[],
        commands: &[&commands::MI_USER_MARK],
        gpu: None,
        steering: None,
        domains: &[],
        groups: &[],
        map: &[],
        tables: &[],
        opaque: &[],
    };
    /// Runtime description of every register (array elements expanded) of this project.
    pub static REGISTERS: [::perfregs::hal::meta::RegisterInfo; 0usize] = [];
    /// [`REGISTERS`] as the table the registers' locations read.
    #[doc(hidden)]
    pub struct Table;
    impl ::perfregs::hal::register::Table for Table {
        type Project = ::perfregs::hal::Hsw;
        const ROWS: &'static [::perfregs::hal::meta::RegisterInfo] = &REGISTERS;
    }
    /// GPU command layouts of this project: build a command's dwords
    /// from its fields, or decode dwords back.
    pub mod commands {
        pub(super) static MI_USER_MARK: ::perfregs::hal::meta::CommandInfo = ::perfregs::hal::meta::CommandInfo {
            name: "MI_USER_MARK",
            title: "User Mark",
            dwords: 2u32,
            fields: &[
                ::perfregs::hal::meta::CommandField {
                    name: "dword_length",
                    dword: 0u32,
                    lsb: 0u32,
                    width: 6u32,
                    value: Some(0),
                    description: "",
                },
                ::perfregs::hal::meta::CommandField {
                    name: "opcode",
                    dword: 0u32,
                    lsb: 23u32,
                    width: 6u32,
                    value: Some(63),
                    description: "",
                },
                ::perfregs::hal::meta::CommandField {
                    name: "mark",
                    dword: 1u32,
                    lsb: 0u32,
                    width: 16u32,
                    value: None,
                    description: "The mark.",
                },
                ::perfregs::hal::meta::CommandField {
                    name: "urgent",
                    dword: 1u32,
                    lsb: 31u32,
                    width: 1u32,
                    value: None,
                    description: "",
                },
            ],
        };
        /** `MI_USER_MARK`: User Mark (2 dwords).

 Writes a mark.

 | dword | bits | field | fixed |
 |---|---|---|---|
 | 0 | 5:0 | `dword_length` | `0x0` |
 | 0 | 28:23 | `opcode` | `0x3f` |
 | 1 | 15:0 | `mark` |  |
 | 1 | 31:31 | `urgent` |  |


 Defined at `command/input.yaml:7:9`.*/
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct MiUserMark {
            /// Dword 1, bits 15:0: The mark.
            pub mark: u32,
            /// Dword 1, bits 31:31.
            pub urgent: bool,
        }
        impl MiUserMark {
            /// The layout: length, fields and fixed values.
            pub const INFO: &'static ::perfregs::hal::meta::CommandInfo = &MI_USER_MARK;
            /// Length in dwords.
            pub const DWORDS: usize = 2;
            /// The command's dwords (fixed fields from the description);
            /// an error when a value does not fit its field.
            pub fn encode(
                &self,
            ) -> Result<[u32; 2], ::perfregs::hal::meta::CommandError> {
                let mut d = [0u32; 2];
                MI_USER_MARK.encode_into(&[self.mark, u32::from(self.urgent)], &mut d)?;
                Ok(d)
            }
            /// The fields of `dwords`; an error for a wrong length or a
            /// fixed field (opcode, dword length) with another value.
            pub fn decode(
                dwords: &[u32],
            ) -> Result<Self, ::perfregs::hal::meta::CommandError> {
                let mut v = [0u32; 2];
                MI_USER_MARK.decode_into(dwords, &mut v)?;
                Ok(Self {
                    mark: v[0],
                    urgent: v[1] != 0,
                })
            }
        }
    }
}
