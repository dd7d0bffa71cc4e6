//! Counters per interval, and the output formats they are printed in
//! (`--format table|csv|json|perfetto` of `metrics run` and `oa-decode`; a
//! `report` command over a recording renders through the same functions).
//!
//! The model is a [`Series`]: named [`Column`]s with units, and one
//! [`Row`] per row of data (a report pair, or a time window), each with
//! its start and duration when known, one optional [`Value`] per column
//! (`None` = unavailable, never a made-up 0) and flags (`zero report`, ...).
//!
//! - [`table`]: one row per counter, one column per interval (`#k`), as
//!   `metrics run` always printed. Beyond [`TABLE_MAX_INTERVALS`] intervals
//!   that table would be unreadable (10,000 reports made a 3.8 MB table with
//!   10,000 columns), so it becomes a summary instead: one row per counter
//!   with the number of intervals that have a value, min, mean and max,
//!   and a hint to use `--format csv`, `json` or `perfetto` for the values.
//! - [`csv`]: RFC 4180 quoting, one record per interval: `interval`,
//!   `start_ns`, `duration_ns`, one field per column headed `NAME (UNIT)`,
//!   then `flags`; an unavailable value is an empty field.
//! - [`json`]: one document: `title`, `columns` (name, unit, kind),
//!   `intervals` (one object per interval: `interval`, `start_ns`,
//!   `duration_ns`, `flags`, `counters` {name: {value, unit}}, `labels`
//!   {name: value}) and `notes`. Unavailable values are `null`; the
//!   objects are keyed by name, `columns` gives the order.
//! - [`perfetto`]: the Chrome / Perfetto JSON trace format: process and
//!   thread name metadata, one counter track (`"ph":"C"`) per counter
//!   column, named `NAME (UNIT)`, with a value at the start of each interval
//!   that has one (in µs, `displayTimeUnit` ns), and an instant event per
//!   flag. The Perfetto UI (ui.perfetto.dev) and chrome://tracing open it.

use serde_json::{json, Map, Value as Json};
use std::fmt::Write as _;

/// An output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Text for a terminal (the default).
    #[default]
    Table,
    /// Comma-separated values (RFC 4180), one record per interval.
    Csv,
    /// One JSON document, one object per interval.
    Json,
    /// A Chrome / Perfetto JSON trace: one counter track per counter.
    Perfetto,
    /// Perfetto's native protobuf trace (`.pftrace`) on the system clock:
    /// binary, written by `report` to `-o FILE` (crate perfregs-perfetto).
    PerfettoProto,
}

/// A value of a column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer (a count, a delta, an identifier).
    Int(u64),
    /// A float (a rate, a ratio, a time).
    Float(f64),
    /// A boolean.
    Bool(bool),
}

impl From<perfregs_codegen::metrics::interp::Value> for Value {
    fn from(v: perfregs_codegen::metrics::interp::Value) -> Self {
        use perfregs_codegen::metrics::interp::Value as V;
        match v {
            V::Int(i) => Value::Int(i),
            V::Float(f) => Value::Float(f),
            V::Bool(b) => Value::Bool(b),
        }
    }
}

impl Value {
    /// As a float (a boolean as 0 or 1).
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            Value::Bool(b) => u8::from(b).into(),
        }
    }

    /// The text of a table cell: integers whole, floats with 4 decimals
    /// (1 from 1000 up).
    pub fn show(self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(f) if f.abs() >= 1000.0 => format!("{f:.1}"),
            Value::Float(f) => format!("{f:.4}"),
            Value::Bool(b) => b.to_string(),
        }
    }

    /// The text of a CSV field: every digit (floats in Rust's shortest
    /// form that reads back to the same value).
    fn exact(self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Bool(b) => b.to_string(),
        }
    }

    /// As JSON: a number, a boolean, or for a float that is not finite its
    /// name as a string (`"NaN"`, `"inf"`), which JSON has no number for.
    fn json(self) -> Json {
        match self {
            Value::Int(i) => json!(i),
            Value::Float(f) => {
                serde_json::Number::from_f64(f).map_or_else(|| json!(f.to_string()), Json::Number)
            }
            Value::Bool(b) => json!(b),
        }
    }
}

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A measured quantity: a Perfetto counter track, a table row.
    Counter,
    /// An identifier or position (report id, context id, byte offset): a
    /// field of CSV and JSON, not a Perfetto track.
    Label,
}

/// A column: a counter (or label) with its unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Its name (a counter's symbol name).
    pub name: String,
    /// Its unit (`ns`, `cycles`, `events`, `percent`, ...; may be empty).
    pub unit: String,
    /// Counter or label.
    pub kind: Kind,
}

impl Column {
    /// A counter column.
    pub fn counter(name: impl Into<String>, unit: impl Into<String>) -> Self {
        Column {
            name: name.into(),
            unit: unit.into(),
            kind: Kind::Counter,
        }
    }

    /// A label column.
    pub fn label(name: impl Into<String>, unit: impl Into<String>) -> Self {
        Column {
            name: name.into(),
            unit: unit.into(),
            kind: Kind::Label,
        }
    }

    /// `NAME (UNIT)`, or the name alone without a unit.
    pub fn heading(&self) -> String {
        if self.unit.is_empty() {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, self.unit)
        }
    }
}

/// One interval (a report pair, a time window): a row of data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// Its number (`#k` in tables: from report k-1 to report k).
    pub index: usize,
    /// Its start in ns from the start of the series, when known.
    pub start_ns: Option<f64>,
    /// Its length in ns, when known.
    pub duration_ns: Option<f64>,
    /// One value per column of the series; `None` = unavailable.
    pub values: Vec<Option<Value>>,
    /// What is wrong with it (`zero report`, `timestamp jump`, ...).
    pub flags: Vec<String>,
}

/// Counters per interval.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// What was measured (a heading, the Perfetto process name).
    pub title: String,
    /// The columns.
    pub columns: Vec<Column>,
    /// The intervals, in time order.
    pub rows: Vec<Row>,
    /// Footnotes (why values are unavailable, ...).
    pub notes: Vec<String>,
}

/// The most intervals [`table`] prints as columns; more are summarised.
pub const TABLE_MAX_INTERVALS: usize = 16;

/// Print `rows` (cells) with columns padded to their widest cell, the
/// first `left` columns left-aligned and the others right-aligned.
fn aligned(rows: &[Vec<String>], left: usize, out: &mut dyn FnMut(&str)) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|k| {
            rows.iter()
                .filter_map(|r| r.get(k))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let mut line = String::new();
        for (k, cell) in r.iter().enumerate() {
            let w = width[k];
            if k < left {
                let _ = write!(line, "{cell:<w$}  ");
            } else {
                let _ = write!(line, "{cell:>w$}  ");
            }
        }
        out(line.trim_end());
    }
}

/// The series as text: one row per counter column (name, unit), one column
/// per interval (`#k`, `-` = unavailable); beyond [`TABLE_MAX_INTERVALS`]
/// intervals a summary per counter (intervals with a value, min, mean,
/// max) and a hint. Then the flagged intervals and the notes.
pub fn table(s: &Series, out: &mut dyn FnMut(&str)) {
    let counters = s
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == Kind::Counter);
    let value = |iv: &Row, k: usize| iv.values.get(k).copied().flatten();
    let mut rows = Vec::new();
    if s.rows.len() <= TABLE_MAX_INTERVALS {
        let mut h = vec!["counter".to_string(), "unit".to_string()];
        h.extend(s.rows.iter().map(|iv| format!("#{}", iv.index)));
        rows.push(h);
        for (k, c) in counters {
            let mut row = vec![c.name.clone(), c.unit.clone()];
            row.extend(
                s.rows
                    .iter()
                    .map(|iv| value(iv, k).map_or("-".to_string(), Value::show)),
            );
            rows.push(row);
        }
        aligned(&rows, 2, out);
    } else {
        rows.push(
            ["counter", "unit", "intervals", "min", "mean", "max"]
                .map(String::from)
                .to_vec(),
        );
        for (k, c) in counters {
            let values: Vec<Value> = s.rows.iter().filter_map(|iv| value(iv, k)).collect();
            let mut row = vec![c.name.clone(), c.unit.clone(), values.len().to_string()];
            row.extend(summary(&values).map_or_else(
                || vec!["-".to_string(); 3],
                |(min, mean, max)| vec![min.show(), mean.show(), max.show()],
            ));
            rows.push(row);
        }
        aligned(&rows, 2, out);
        out(&format!(
            "{} intervals summarised (over those with a value); every value: --format csv, json or perfetto",
            s.rows.len()
        ));
    }
    let flagged: Vec<String> = s
        .rows
        .iter()
        .filter(|iv| !iv.flags.is_empty())
        .map(|iv| format!("#{} ({})", iv.index, iv.flags.join(", ")))
        .collect();
    if !flagged.is_empty() {
        out(&format!(
            "flagged intervals: {} of {}: {}",
            flagged.len(),
            s.rows.len(),
            flagged.join(", ")
        ));
    }
    for n in &s.notes {
        out(n);
    }
}

/// (min, mean, max) of `values`; `None` when empty. Integers keep their
/// type for min and max; the mean is a float.
fn summary(values: &[Value]) -> Option<(Value, Value, Value)> {
    let first = *values.first()?;
    let by = |a: &&Value, b: &&Value| a.as_f64().total_cmp(&b.as_f64());
    let min = *values.iter().min_by(by).unwrap_or(&first);
    let max = *values.iter().max_by(by).unwrap_or(&first);
    let mean = values.iter().map(|v| v.as_f64()).sum::<f64>() / values.len() as f64;
    Some((min, Value::Float(mean), max))
}

/// One CSV field, quoted as RFC 4180 asks when it holds a comma, a double
/// quote or a line break (quotes doubled).
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A number of ns as a CSV field: a whole number (rounded), empty when
/// unknown or not a finite, non-negative time.
fn ns_text(ns: Option<f64>) -> String {
    match ns {
        // Saturating: a time beyond u64's ns (584 years) prints u64::MAX.
        Some(t) if t.is_finite() && t >= 0.0 => (t.round() as u64).to_string(),
        _ => String::new(),
    }
}

/// The series as CSV records (header first), one line each.
pub fn csv(s: &Series) -> Vec<String> {
    let mut header = vec![
        "interval".to_string(),
        "start_ns".to_string(),
        "duration_ns".to_string(),
    ];
    header.extend(s.columns.iter().map(Column::heading));
    header.push("flags".to_string());
    let mut lines = vec![header
        .iter()
        .map(|h| csv_field(h))
        .collect::<Vec<_>>()
        .join(",")];
    for iv in &s.rows {
        let mut fields = vec![
            iv.index.to_string(),
            ns_text(iv.start_ns),
            ns_text(iv.duration_ns),
        ];
        fields.extend((0..s.columns.len()).map(|k| {
            iv.values
                .get(k)
                .copied()
                .flatten()
                .map_or(String::new(), Value::exact)
        }));
        fields.push(iv.flags.join("; "));
        lines.push(
            fields
                .iter()
                .map(|f| csv_field(f))
                .collect::<Vec<_>>()
                .join(","),
        );
    }
    lines
}

/// A number of ns as JSON.
fn ns_json(ns: Option<f64>) -> Json {
    ns.map_or(Json::Null, |t| Value::Float(t).json())
}

/// The series as one JSON document.
pub fn json(s: &Series) -> Json {
    let columns: Vec<Json> = s
        .columns
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "unit": c.unit,
                "kind": match c.kind { Kind::Counter => "counter", Kind::Label => "label" },
            })
        })
        .collect();
    let intervals: Vec<Json> = s
        .rows
        .iter()
        .map(|iv| {
            let (mut counters, mut labels) = (Map::new(), Map::new());
            for (k, c) in s.columns.iter().enumerate() {
                let v = iv
                    .values
                    .get(k)
                    .copied()
                    .flatten()
                    .map_or(Json::Null, Value::json);
                match c.kind {
                    Kind::Counter => {
                        counters.insert(c.name.clone(), json!({"value": v, "unit": c.unit}));
                    }
                    Kind::Label => {
                        labels.insert(c.name.clone(), v);
                    }
                }
            }
            json!({
                "interval": iv.index,
                "start_ns": ns_json(iv.start_ns),
                "duration_ns": ns_json(iv.duration_ns),
                "flags": iv.flags,
                "counters": counters,
                "labels": labels,
            })
        })
        .collect();
    json!({
        "title": s.title,
        "columns": columns,
        "intervals": intervals,
        "notes": s.notes,
    })
}

/// Process id of the trace (one process: the series).
const PID: u64 = 1;
/// Thread id of the counter tracks and flags.
const TID: u64 = 1;

/// The series as a Chrome / Perfetto JSON trace. Intervals without a start
/// time (after a timestamp jump) are left out and listed in
/// `otherData.untimed_intervals`, with the notes in `otherData.notes`.
/// `Err` when no interval has a time (a trace needs the timestamp
/// frequency).
pub fn perfetto(s: &Series) -> Result<Json, String> {
    if !s.rows.is_empty() && s.rows.iter().all(|iv| iv.start_ns.is_none()) {
        return Err(
            "no interval has a start time: a trace needs the timestamp frequency".to_string(),
        );
    }
    let mut events = vec![
        json!({"ph": "M", "name": "process_name", "pid": PID, "tid": TID,
               "args": {"name": format!("perfregs: {}", s.title)}}),
        json!({"ph": "M", "name": "thread_name", "pid": PID, "tid": TID,
               "args": {"name": "OA counters"}}),
    ];
    let mut untimed = Vec::new();
    for iv in &s.rows {
        let Some(start) = iv.start_ns else {
            untimed.push(iv.index);
            continue;
        };
        let ts = Value::Float(start / 1000.0).json();
        for (k, c) in s.columns.iter().enumerate() {
            if c.kind != Kind::Counter {
                continue;
            }
            // No event for an unavailable value: the track shows no new
            // value, rather than a made-up 0.
            let Some(v) = iv.values.get(k).copied().flatten() else {
                continue;
            };
            let v = match v {
                Value::Bool(b) => json!(u8::from(b)),
                other => other.json(),
            };
            events.push(json!({"ph": "C", "name": c.heading(), "ts": ts, "pid": PID,
                               "tid": TID, "args": {"value": v}}));
        }
        for f in &iv.flags {
            events.push(json!({"ph": "i", "s": "p", "name": f, "ts": ts, "pid": PID,
                               "tid": TID, "args": {"interval": iv.index}}));
        }
    }
    Ok(json!({
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"title": s.title, "untimed_intervals": untimed, "notes": s.notes},
    }))
}

/// Print the series in `format` through `out` (one line at a time; JSON
/// and traces as one document). `Err`: the series cannot be written in
/// that format (a trace without times).
pub fn print(s: &Series, format: Format, out: &mut dyn FnMut(&str)) -> Result<(), String> {
    match format {
        Format::Table => table(s, out),
        Format::Csv => csv(s).iter().for_each(|l| out(l)),
        Format::Json => out(&serde_json::to_string_pretty(&json(s)).map_err(|e| e.to_string())?),
        Format::Perfetto => {
            out(&serde_json::to_string(&perfetto(s)?).map_err(|e| e.to_string())?);
        }
        Format::PerfettoProto => {
            return Err(
                "--format perfetto-proto is written from a recording's correlations: `perfregs report FILE.record --format perfetto-proto -o FILE.pftrace` (here: --format perfetto, the JSON trace)"
                    .to_string(),
            )
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two counters and a label over three intervals of 1 µs; the second
    /// interval lacks a value and is flagged.
    fn series() -> Series {
        Series {
            title: "test, \"quoted\"".to_string(),
            columns: vec![
                Column::counter("GpuTime", "ns"),
                Column::counter("Busy, %", "percent"),
                Column::label("rpt_id", ""),
            ],
            rows: (1..=3)
                .map(|k| Row {
                    index: k,
                    start_ns: Some((k - 1) as f64 * 1000.0),
                    duration_ns: Some(1000.0),
                    values: vec![
                        Some(Value::Int(1000)),
                        (k != 2).then_some(Value::Float(k as f64 * 12.5)),
                        Some(Value::Int(0x10 + k as u64)),
                    ],
                    flags: if k == 2 {
                        vec!["zero report".to_string()]
                    } else {
                        Vec::new()
                    },
                })
                .collect(),
            notes: vec!["a note".to_string()],
        }
    }

    fn lines(f: impl FnOnce(&mut dyn FnMut(&str))) -> Vec<String> {
        let mut v = Vec::new();
        f(&mut |l: &str| v.push(l.to_string()));
        v
    }

    #[test]
    fn table_has_a_row_per_counter_and_a_column_per_interval() {
        let t = lines(|out| table(&series(), out));
        assert_eq!(
            t,
            [
                "counter  unit          #1    #2       #3",
                "GpuTime  ns          1000  1000     1000",
                "Busy, %  percent  12.5000     -  37.5000",
                "flagged intervals: 1 of 3: #2 (zero report)",
                "a note",
            ]
        );
    }

    #[test]
    fn a_long_table_is_summarised() {
        let mut s = series();
        s.rows = (1..=TABLE_MAX_INTERVALS + 1)
            .map(|k| Row {
                index: k,
                values: vec![Some(Value::Int(k as u64)), None, None],
                ..Row::default()
            })
            .collect();
        let t = lines(|out| table(&s, out));
        assert_eq!(t[0], "counter  unit     intervals  min    mean  max");
        assert_eq!(t[1], "GpuTime  ns              17    1  9.0000   17");
        assert_eq!(t[2], "Busy, %  percent          0    -       -    -");
        assert!(t[3].starts_with("17 intervals summarised"), "{t:?}");
        assert!(t[3].contains("--format csv"), "{t:?}");
        assert!(t.iter().all(|l| l.len() < 100), "{t:?}");
    }

    #[test]
    fn csv_quotes_as_rfc_4180_asks() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_field("plain"), "plain");
        let c = csv(&series());
        assert_eq!(
            c[0],
            "interval,start_ns,duration_ns,GpuTime (ns),\"Busy, % (percent)\",rpt_id,flags"
        );
        assert_eq!(c[1], "1,0,1000,1000,12.5,17,");
        assert_eq!(c[2], "2,1000,1000,1000,,18,zero report");
        assert_eq!(c.len(), 4);
    }

    #[test]
    fn csv_times_are_whole_ns() {
        let mut s = series();
        s.rows[0].start_ns = Some(853_333.333_333_4);
        s.rows[0].duration_ns = Some(1_706_666.666_666_7);
        s.rows[1].start_ns = Some(f64::NAN);
        let c = csv(&s);
        assert!(c[1].starts_with("1,853333,1706667,"), "{}", c[1]);
        assert!(c[2].starts_with("2,,1000,"), "{}", c[2]);
    }

    #[test]
    fn perfetto_needs_times() {
        let mut s = series();
        s.rows[1].start_ns = None;
        let t = perfetto(&s).expect("two intervals have a time");
        assert_eq!(t["otherData"]["untimed_intervals"], json!([2]));
        let events = t["traceEvents"].as_array().cloned().unwrap_or_default();
        // Metadata, then interval 1 (2 values) and 3 (2 values): no label.
        assert_eq!(events.len(), 2 + 2 + 2, "{t}");
        assert!(events.iter().all(|e| e["name"] != "rpt_id"), "{t}");
        s.rows.iter_mut().for_each(|iv| iv.start_ns = None);
        let e = perfetto(&s).expect_err("no time");
        assert!(e.contains("timestamp frequency"), "{e}");
        assert!(print(&s, Format::Perfetto, &mut |_| {}).is_err());
    }

    #[test]
    fn json_keeps_non_finite_floats_visible() {
        assert_eq!(Value::Float(f64::NAN).json(), json!("NaN"));
        assert_eq!(Value::Float(f64::INFINITY).json(), json!("inf"));
        assert_eq!(Value::Float(0.5).json(), json!(0.5));
    }
}
