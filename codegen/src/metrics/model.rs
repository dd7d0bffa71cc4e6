//! What a metric-set file says, with the position of every item.

use crate::diag::Pos;
use crate::ir::ConfigKind;

/// One metric-set file (`<metrics>`).
#[derive(Debug, Clone, Default)]
pub struct MetricFile {
    /// File name as given to the reader (used in diagnostics).
    pub file: String,
    /// The sets, in file order.
    pub sets: Vec<MetricSet>,
}

/// One `<set>`.
#[derive(Debug, Clone, Default)]
pub struct MetricSet {
    /// `name` ("Metric set TestOa").
    pub name: String,
    /// `symbol_name` (`TestOa`).
    pub symbol_name: String,
    /// `underscore_name` (`test_oa`).
    pub underscore_name: String,
    /// `chipset` (`BDW`, `TGL`, `HSW`).
    pub chipset: String,
    /// `hw_config_guid`.
    pub guid: String,
    /// `oa_format`, when present (IGT's name of the report format the set
    /// is read with: `576B_PEC64LL`, `128B_MPEC8_NOA16`, ...).
    pub oa_format: Option<Located<String>>,
    /// Counters, in file order.
    pub counters: Vec<Counter>,
    /// Register programming blocks, in file order.
    pub configs: Vec<RegisterConfig>,
    /// Position of the `<set` tag.
    pub pos: Pos,
}

/// One `<counter>`.
#[derive(Debug, Clone, Default)]
pub struct Counter {
    /// `name` ("GPU Core Clocks").
    pub name: String,
    /// `symbol_name` (`GpuCoreClocks`): what `$GpuCoreClocks` refers to.
    pub symbol_name: String,
    /// `underscore_name` (`gpu_core_clocks`).
    pub underscore_name: String,
    /// `description`.
    pub description: String,
    /// `data_type` (`uint64`, `float`, ...).
    pub data_type: String,
    /// `units` (`cycles`, `ns`, `percent`, ...).
    pub units: String,
    /// `semantic_type`.
    pub semantic_type: String,
    /// `equation` (RPN text) and where its attribute value starts.
    pub equation: Located<String>,
    /// `max_equation`, when present.
    pub max_equation: Option<Located<String>>,
    /// `availability`, when present.
    pub availability: Option<Located<String>>,
    /// Position of the `<counter` tag.
    pub pos: Pos,
}

/// A text and where it starts in the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Where it starts.
    pub pos: Pos,
    /// Where each character of the value is in the file (and, last, where
    /// the value ends) when that is not `pos` plus the character's index:
    /// an attribute value with an entity or character reference (`&amp;`
    /// is one character of the value, five of the file) or a line break.
    /// Empty otherwise.
    pub char_pos: Vec<Pos>,
}

impl<T> Located<T> {
    /// A value at `pos`, each character one column after the previous one.
    pub fn new(value: T, pos: Pos) -> Self {
        Located {
            value,
            pos,
            char_pos: Vec::new(),
        }
    }
    /// Where the value's character `index` is in the file (past the end:
    /// where the value ends).
    pub fn pos_at(&self, index: usize) -> Pos {
        match self.char_pos.get(index).or(self.char_pos.last()) {
            Some(&p) => p,
            None => Pos {
                line: self.pos.line,
                column: self.pos.column.saturating_add(index),
            },
        }
    }
}

/// One `<register_config>` block.
#[derive(Debug, Clone)]
pub struct RegisterConfig {
    /// Its `type` (OA, NOA, FLEX).
    pub kind: ConfigKind,
    /// `availability` (an RPN condition on device variables), when present.
    pub availability: Option<Located<String>>,
    /// The writes, in order (order matters: NOA writes are a sequence).
    pub writes: Vec<ConfigWrite>,
    /// Position of the `<register_config` tag.
    pub pos: Pos,
}

/// One `<register type=... address=... value=.../>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConfigWrite {
    /// Its `type`.
    pub kind: ConfigKind,
    /// Byte address.
    pub address: u64,
    /// Value written (32 bits in every shipped file).
    pub value: u64,
    /// Position of the `<register` tag.
    pub pos: Pos,
}
