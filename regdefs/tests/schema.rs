//! `regdefs/schema.json` (the JSON Schema for editors) agrees with the shipped
//! description files, and it does reject malformed descriptions.

use std::path::PathBuf;

use boon::{Compiler, SchemaIndex, Schemas, ValidationError};
use serde_json::Value;

fn regdefs() -> PathBuf {
    PathBuf::from(perfregs_regdefs::dir())
}

const SCHEMA_URL: &str = "file:///regdefs/schema.json";

/// The compiled schema: the whole of it, and its two file kinds on their own.
struct Compiled {
    schemas: Schemas,
    root: SchemaIndex,
    catalogue: SchemaIndex,
    block: SchemaIndex,
}

/// Compile `regdefs/schema.json` (also checks it against the 2020-12 meta-schema).
fn compile_schema() -> Compiled {
    let path = regdefs().join("schema.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let json: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()));
    let mut schemas = Schemas::new();
    let mut compiler = Compiler::new();
    compiler
        .add_resource(SCHEMA_URL, json)
        .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
    let mut compile = |fragment: &str| {
        compiler
            .compile(&format!("{SCHEMA_URL}{fragment}"), &mut schemas)
            .unwrap_or_else(|e| panic!("{}{fragment} does not compile: {e:#}", path.display()))
    };
    let root = compile("");
    let catalogue = compile("#/$defs/catalogue");
    let block = compile("#/$defs/block");
    Compiled {
        schemas,
        root,
        catalogue,
        block,
    }
}

impl Compiled {
    /// Validate against the whole schema; on failure, explain with the errors of
    /// the file kind the top-level keys select (as `codegen/src/load.rs` does), which
    /// are much shorter than those of the top-level `oneOf`.
    fn check(&self, instance: &Value) -> Result<(), String> {
        let Err(err) = self.schemas.validate(instance, self.root) else {
            return Ok(());
        };
        let has = |key: &str| instance.get(key).is_some();
        let (kind, index) = if has("families") && !has("registers") {
            ("catalogue", self.catalogue)
        } else {
            ("block file", self.block)
        };
        let mut leaves = Vec::new();
        match self.schemas.validate(instance, index) {
            Err(kind_err) => leaf_errors(&kind_err, &mut leaves),
            Ok(()) => leaf_errors(&err, &mut leaves),
        }
        Err(format!(
            "does not match regdefs/schema.json (as a {kind}):\n  {}\nfull error:\n{err:#}",
            leaves.join("\n  ")
        ))
    }
}

/// The innermost errors, one line each: `at /instance/location: message`.
fn leaf_errors(err: &ValidationError, out: &mut Vec<String>) {
    if err.causes.is_empty() {
        out.push(format!("at '{}': {}", err.instance_location, err.kind));
    }
    for cause in &err.causes {
        leaf_errors(cause, out);
    }
}

fn yaml_to_json(name: &str, text: &str) -> Value {
    serde_yaml::from_str::<Value>(text).unwrap_or_else(|e| panic!("{name}: not YAML: {e}"))
}

#[test]
fn shipped_descriptions_match_the_schema() {
    let schema = compile_schema();
    let mut files: Vec<PathBuf> = std::fs::read_dir(regdefs())
        .expect("read regdefs/")
        .map(|e| e.expect("read regdefs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 4,
        "expected at least 4 description files in regdefs/, found {}: {files:?}",
        files.len()
    );

    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .display()
            .to_string();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let instance = yaml_to_json(&name, &text);
        if let Err(msg) = schema.check(&instance) {
            failures.push(format!("{name}: {msg}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A valid block file (an enum, a register with a per-project address, a
/// register array, an inline enum, an event row) for the negative cases to
/// spoil. It passes `perfregs_codegen`'s own checks too.
const GOOD_BLOCK: &str = r#"
block: oa
space: mmio
source: "PRM 000"
enums:
  - name: TimerEnable
    values:
      - { name: disable, value: 0 }
      - { name: enable, value: 1 }
registers:
  - name: OACONTROL
    projects: snb..hsw
    width: 32
    address: { "snb, ivb, vlv": 0x2360, hsw: 0x2B00 }
    reset: 0x0
    config: OA
    fields:
      - { name: timer_period, bits: "11:6", access: RW, projects: ivb..hsw }
      - { name: timer_enable, bits: 5, access: RW, enum: TimerEnable }
      - { name: counter_select, bits: "4:2", access: RW-V }
  - name: CEC{n}_0
    projects: hsw
    address: 0x2770
    array: { count: 8, stride: 8 }
    fields:
      - name: select
        bits: "20:19"
        access: RW
        values: [{ name: noa, value: 0 }, { name: prev, value: 1 }]
counter_events:
  - { counter: A0, projects: "snb, ivb", event: Active }
opaque_ranges:
  - { name: NOA_UNIT, projects: hsw, start: 0x25100, end: 0x2FF93, config: NOA }
commands:
  - name: MI_REPORT_PERF_COUNT
    projects: "ivb, hsw"
    dwords:
      - fields:
          - { name: opcode, bits: "28:23", value: 0x28 }
          - { name: dword_length, bits: "5:0", value: { ivb: 1, hsw: 1 } }
      - fields: [ { name: report_id, bits: "31:0" } ]
"#;

const GOOD_CATALOGUE: &str = r#"
families:
  - name: gpu
    projects:
      - { name: snb, rank: 60, title: "Sandy Bridge" }
      - { name: vlv, rank: 70, title: "Valleyview", aliases: [vlvt] }
"#;

#[test]
fn schema_rejects_malformed_descriptions() {
    let schema = compile_schema();

    // The baselines pass, so each rejection below is due to its one change.
    for (name, text) in [
        ("good block", GOOD_BLOCK),
        ("good catalogue", GOOD_CATALOGUE),
    ] {
        if let Err(msg) = schema.check(&yaml_to_json(name, text)) {
            panic!("{name} {msg}");
        }
    }

    let spoil = |from: &str, to: &str| {
        assert!(GOOD_BLOCK.contains(from), "`{from}` not in GOOD_BLOCK");
        GOOD_BLOCK.replacen(from, to, 1)
    };
    #[rustfmt::skip]
    let bad: Vec<(&str, String)> = vec![
        ("unknown key in a register", spoil("    width: 32\n", "    width: 32\n    offset: 0x2360\n")),
        ("access R/W", spoil("bits: 5, access: RW", "bits: 5, access: \"R/W\"")),
        ("lower-case register name", spoil("name: OACONTROL", "name: oacontrol")),
        ("bits 7-4", spoil("bits: \"4:2\"", "bits: \"7-4\"")),
        ("width 48", spoil("width: 32", "width: 48")),
        ("camelCase field name", spoil("name: timer_enable", "name: timerEnable")),
        ("space io", spoil("space: mmio", "space: io")),
        ("negative address", spoil("address: 0x2770", "address: -16")),
        ("missing address", spoil("    address: 0x2770\n", "")),
        ("empty project expression", spoil("projects: hsw\n", "projects: \"\"\n")),
        ("array count 0", spoil("count: 8", "count: 0")),
        ("array without {n}", spoil("name: CEC{n}_0", "name: CEC0_0")),
        ("both enum and values", spoil("enum: TimerEnable", "enum: TimerEnable, values: []")),
        ("snake_case enum name", spoil("- name: TimerEnable", "- name: timer_enable")),
        ("missing block", spoil("block: oa\n", "")),
        ("lower-case config kind", spoil("config: OA", "config: oa")),
        ("unknown config kind", spoil("config: OA", "config: MUX")),
        ("misaligned opaque range", spoil("start: 0x25100", "start: 0x25102")),
        ("opaque range end not at a dword's last byte", spoil("end: 0x2FF93", "end: 0x2FF94")),
        ("command field without bits", spoil("{ name: report_id, bits: \"31:0\" }", "{ name: report_id }")),
        ("opaque range without projects", spoil("projects: hsw, start", "start")),
        ("catalogue and block keys mixed", format!("{GOOD_BLOCK}{GOOD_CATALOGUE}")),
        ("unknown key in a project", GOOD_CATALOGUE.replacen("rank: 60,", "rank: 60, gen: 6,", 1)),
    ];

    let mut accepted = Vec::new();
    for (what, text) in &bad {
        if schema.check(&yaml_to_json(what, text)).is_ok() {
            accepted.push(*what);
        }
    }
    assert!(
        accepted.is_empty(),
        "regdefs/schema.json accepts malformed descriptions: {accepted:?}"
    );

    // The code generator agrees: the baselines compile, the spoiled documents
    // do not (so the schema is not stricter than the tool on these cases).
    let codegen = |name: &str, text: &str| {
        perfregs_codegen::compile_sources(
            &[(format!("{name}.yaml"), text.to_string())],
            Some(("projects.yaml", perfregs_regdefs::PROJECTS_YAML)),
        )
    };
    for (name, text) in [
        ("good block", GOOD_BLOCK),
        ("good catalogue", GOOD_CATALOGUE),
    ] {
        if let Err(diags) = codegen(name, text) {
            let diags: Vec<String> = diags.iter().map(ToString::to_string).collect();
            panic!(
                "{name} is rejected by perfregs_codegen:\n{}",
                diags.join("\n")
            );
        }
    }
    let compiled: Vec<&str> = bad
        .iter()
        .filter(|(what, text)| codegen(what, text).is_ok())
        .map(|(what, _)| *what)
        .collect();
    assert!(
        compiled.is_empty(),
        "perfregs_codegen accepts what the schema rejects: {compiled:?}"
    );
}
