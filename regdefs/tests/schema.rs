//! The generator side of the schema checks: the documents of
//! `tests/schema_cases.yaml` that `regdefs/schema.json` must accept compile,
//! and every malformed one it must reject is rejected by the generator too
//! (so the schema is not stricter than the tool on these cases).
//! `.ci/schema-check` runs the same cases, and the shipped files, through the
//! schema itself (Python's jsonschema).

use serde::Deserialize;

/// `tests/schema_cases.yaml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    good_block: String,
    good_catalogue: String,
    bad: Vec<Bad>,
}

/// A malformed document: a good one with `from` replaced by `to`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Bad {
    what: String,
    /// `block` (the default), `catalogue`, or `both` (the two as one).
    #[serde(default)]
    base: Option<String>,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
}

fn cases() -> Cases {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schema_cases.yaml");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The malformed documents, each with what it spoils.
fn bad_documents(c: &Cases) -> Vec<(String, String)> {
    c.bad
        .iter()
        .map(|b| {
            let base = match b.base.as_deref().unwrap_or("block") {
                "block" => c.good_block.clone(),
                "catalogue" => c.good_catalogue.clone(),
                "both" => format!("{}{}", c.good_block, c.good_catalogue),
                other => panic!("{}: base `{other}` (block, catalogue or both)", b.what),
            };
            let text = match (&b.from, &b.to) {
                (Some(from), Some(to)) => {
                    assert!(
                        base.contains(from.as_str()),
                        "{}: `{from}` not in its base",
                        b.what
                    );
                    base.replacen(from.as_str(), to, 1)
                }
                (None, None) => base,
                _ => panic!("{}: `from` and `to` go together", b.what),
            };
            (b.what.clone(), text)
        })
        .collect()
}

fn codegen(name: &str, text: &str) -> Result<(), Vec<String>> {
    perfregs_codegen::compile_sources(
        &[(format!("{name}.yaml"), text.to_string())],
        Some(("projects.yaml", perfregs_regdefs::PROJECTS_YAML)),
    )
    .map(|_| ())
    .map_err(|diags| diags.iter().map(ToString::to_string).collect())
}

#[test]
fn the_generator_rejects_what_the_schema_rejects() {
    let c = cases();
    for (name, text) in [
        ("good block", &c.good_block),
        ("good catalogue", &c.good_catalogue),
    ] {
        if let Err(diags) = codegen(name, text) {
            panic!(
                "{name} is rejected by perfregs_codegen:\n{}",
                diags.join("\n")
            );
        }
    }
    let bad = bad_documents(&c);
    assert!(bad.len() >= 20, "only {} malformed documents", bad.len());
    let compiled: Vec<&str> = bad
        .iter()
        .filter(|(what, text)| codegen(what, text).is_ok())
        .map(|(what, _)| what.as_str())
        .collect();
    assert!(
        compiled.is_empty(),
        "perfregs_codegen accepts what the schema rejects: {compiled:?}"
    );
}
