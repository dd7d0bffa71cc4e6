//! Diagnostics: every problem found in a description, located at `file:line:column`.

use std::fmt;

/// A stable error code. The numbers never change meaning; see `codegen/README.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The file could not be read.
    Io,
    /// YAML syntax error.
    Syntax,
    /// A key has a value of the wrong type, a required key is missing, or a key is unknown.
    Shape,
    /// Unknown access type.
    UnknownAccess,
    /// Unknown project, or a malformed project expression.
    UnknownProject,
    /// A field extends past the register width.
    FieldOutsideRegister,
    /// Two fields share a bit on some project.
    OverlappingFields,
    /// Two registers of one project share a name.
    DuplicateRegister,
    /// Two fields of one register share a name on some project.
    DuplicateField,
    /// Two enums, or two values of one enum, share a name or value.
    DuplicateEnum,
    /// Two registers sit at one address in one project and space.
    AddressClash,
    /// An enum value does not fit the field that uses it.
    EnumValueTooWide,
    /// A reset value sets bits of an MBZ or reserved field.
    ResetInReserved,
    /// A reset value is wider than its register.
    ResetTooWide,
    /// An address is not aligned to the register width.
    Misaligned,
    /// An array stride is smaller than the element size.
    StrideTooSmall,
    /// A per-project map does not cover the register's projects exactly once.
    ProjectMapCoverage,
    /// A field names projects its register does not exist on.
    FieldProjectsNotSubset,
    /// A bit range is malformed (`msb:lsb` with msb >= lsb expected).
    BadBits,
    /// A field names an enum that does not exist.
    UnknownEnum,
    /// A register width other than 32 or 64.
    BadWidth,
    /// A masked register has a field above bit 15, or is not 32 bits wide.
    MaskedLayout,
    /// A field reset disagrees with the register reset.
    ResetMismatch,
    /// A name is not a valid identifier of the required case.
    BadName,
    /// Reserved: projects of two families mixed (reported as `UnknownProject` today).
    FamilyMix,
    /// Inconsistent array description (`{n}` missing, count zero, ...).
    BadArray,
    /// A power domain is neither always-on nor has a request and an ack register.
    BadPowerDomain,
    /// A name refers to a register, field, domain or group that does not exist.
    UnknownReference,
    /// An address-map row is malformed (size, order, overlap, instance count).
    MapRow,
    /// A register straddles address-map rows with different targets.
    Straddle,
    /// A register lies in a reserved address-map row.
    ReservedRange,
    /// A report-format entry lies outside the report or overlaps another.
    Layout,
    /// A table row does not have one cell per column.
    TableShape,
    /// Two domains, groups, formats or tables of one project share a name.
    DuplicateName,
    /// A PCI device id listed twice in the device table.
    DuplicateDeviceId,
    /// A device-table entry out of range: an id above 0xFFFF, GT 0, no ids.
    BadDeviceId,
    /// Metric-set XML that is not well-formed.
    XmlSyntax,
    /// Metric-set XML of the wrong shape: a missing or malformed attribute,
    /// an unexpected element, a number that does not parse.
    XmlShape,
    /// A metric-set register (or `register_config`) type other than OA, NOA or FLEX.
    UnknownConfigType,
    /// A counter equation that does not parse (unknown token, operator
    /// without its operands, values left over).
    Equation,
    /// A counter equation that does not type-check (integer vs float vs
    /// boolean), reads a counter the project's reports lack, or names an
    /// unknown or circular counter or device variable.
    EquationType,
    /// A metric-set write to an address no description covers, or a misaligned one.
    UndescribedAddress,
    /// A metric-set value that sets reserved or must-be-zero bits, or does not fit the register.
    ReservedBits,
    /// A masked register written without the enable bits of what the value changes.
    MaskedWithoutEnable,
    /// A metric-set write whose block type (OA, NOA, FLEX) is not the
    /// register's configuration kind, or to a register that is not a
    /// configuration register at all.
    WrongConfigKind,
    /// A GPU fact of the catalogue (`gpu:`) that names what its project
    /// does not have, or is inconsistent.
    BadGpuFact,
    /// A metric-set file whose chipset no catalogue part claims.
    UnclaimedMetricFile,
    /// Steering geometry that cannot be encoded: `per_group` 0, a group id
    /// or instance id wider than its selector field, a semaphore field not
    /// one bit wide, a group selector without the section's.
    BadSteering,
}

impl Code {
    /// The stable code printed in diagnostics, e.g. `PR104`.
    pub fn as_str(self) -> &'static str {
        use Code::*;
        match self {
            Io => "PR001",
            Syntax => "PR002",
            Shape => "PR003",
            UnknownAccess => "PR101",
            UnknownProject => "PR102",
            FieldOutsideRegister => "PR103",
            OverlappingFields => "PR104",
            DuplicateRegister => "PR105",
            DuplicateField => "PR106",
            DuplicateEnum => "PR107",
            AddressClash => "PR108",
            EnumValueTooWide => "PR109",
            ResetInReserved => "PR110",
            ResetTooWide => "PR111",
            Misaligned => "PR112",
            StrideTooSmall => "PR113",
            ProjectMapCoverage => "PR114",
            FieldProjectsNotSubset => "PR115",
            BadBits => "PR116",
            UnknownEnum => "PR117",
            BadWidth => "PR118",
            MaskedLayout => "PR119",
            ResetMismatch => "PR120",
            BadName => "PR121",
            FamilyMix => "PR122",
            BadArray => "PR123",
            BadPowerDomain => "PR124",
            UnknownReference => "PR125",
            MapRow => "PR126",
            Straddle => "PR127",
            ReservedRange => "PR128",
            Layout => "PR129",
            TableShape => "PR130",
            DuplicateName => "PR131",
            DuplicateDeviceId => "PR132",
            BadDeviceId => "PR133",
            XmlSyntax => "PR201",
            XmlShape => "PR202",
            UnknownConfigType => "PR203",
            Equation => "PR204",
            EquationType => "PR205",
            UndescribedAddress => "PR206",
            ReservedBits => "PR207",
            MaskedWithoutEnable => "PR208",
            WrongConfigKind => "PR209",
            BadGpuFact => "PR134",
            BadSteering => "PR135",
            UnclaimedMetricFile => "PR210",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position in a source file (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, PartialOrd, Ord)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// One problem in one description file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable error code.
    pub code: Code,
    /// File the problem is in, as given to the loader.
    pub file: String,
    /// Where in the file.
    pub pos: Pos,
    /// The item concerned (`OACONTROL`, `OACONTROL.timer_period`), empty for file-level problems.
    pub item: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error[{}]: {}:{}:{}: ",
            self.code, self.file, self.pos.line, self.pos.column
        )?;
        if !self.item.is_empty() {
            write!(f, "{}: ", self.item)?;
        }
        f.write_str(&self.message)
    }
}

/// The error of [`load`](crate::metrics::load) and of the compile functions
/// (`Box<dyn Error>`, `?` in `main`).
impl core::error::Error for Diagnostic {}

impl Diagnostic {
    /// An internal error: a later stage found at `item` what validation
    /// should have reported (`PR125`, the message starting `internal:`).
    pub fn internal(file: &str, pos: Pos, item: &str, what: &str) -> Diagnostic {
        Diagnostic {
            code: Code::UnknownReference,
            file: file.to_string(),
            pos,
            item: item.to_string(),
            message: format!("internal: {what} (validation should have reported this)"),
        }
    }

    /// A file or folder that could not be read (`PR001`): reported at its
    /// start, about no item.
    pub(crate) fn io(file: String, message: String) -> Diagnostic {
        Diagnostic {
            code: Code::Io,
            file,
            pos: Pos { line: 1, column: 1 },
            item: String::new(),
            message,
        }
    }
}

/// All diagnostics of one run, in file order.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Record one problem.
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    /// True when nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Sort by file and position, dropping exact duplicates.
    pub fn sorted(mut self) -> Vec<Diagnostic> {
        self.0
            .sort_by(|a, b| (&a.file, a.pos, a.code).cmp(&(&b.file, b.pos, b.code)));
        self.0.dedup();
        self.0
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl core::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A diagnostic (and a run's list) goes through `?` into a boxed error
    /// and prints as `Display` does.
    #[test]
    fn diagnostics_are_errors() {
        let d = Diagnostic {
            code: Code::OverlappingFields,
            file: "regdefs/oa.yaml".into(),
            pos: Pos {
                line: 42,
                column: 11,
            },
            item: "OACONTROL.b".into(),
            message: "bits 4:2 overlap field `a`".into(),
        };
        let one = || -> Result<(), Box<dyn core::error::Error>> { Err(d.clone())? };
        let all = || -> Result<(), Box<dyn core::error::Error>> {
            Err(Diagnostics(vec![d.clone(), d.clone()]))?
        };
        let line = "error[PR104]: regdefs/oa.yaml:42:11: OACONTROL.b: bits 4:2 overlap field `a`";
        assert_eq!(one().unwrap_err().to_string(), line);
        assert_eq!(all().unwrap_err().to_string(), format!("{line}\n{line}\n"));
    }
}
