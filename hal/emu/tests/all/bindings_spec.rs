//! The emulator's bindings (`bindings.yaml`) against the descriptions: the
//! shipped ones resolve, and a register renamed in the descriptions fails
//! with a diagnostic at the line of `bindings.yaml` that names it.

const SPEC: &str = include_str!("../../bindings.yaml");

/// The shipped descriptions, with `edit` applied to the file named `file`.
fn descriptions(file: &str, edit: impl Fn(&str) -> String) -> Vec<(String, String)> {
    perfregs_regdefs::FILES
        .iter()
        .filter(|(name, _)| *name != "projects.yaml")
        .map(|&(name, text)| {
            let text = if name == file {
                edit(text)
            } else {
                text.to_string()
            };
            (name.to_string(), text)
        })
        .collect()
}

fn resolve(sources: &[(String, String)]) -> Result<String, Vec<String>> {
    let catalogue = Some(("projects.yaml", perfregs_regdefs::PROJECTS_YAML));
    let ir = perfregs_codegen::compile_sources(sources, catalogue)
        .map_err(|d| d.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    perfregs_codegen::bindings::generate(&ir, "bindings.yaml", SPEC, "hal")
        .map_err(|d| d.iter().map(ToString::to_string).collect())
}

/// 1-based line of the first line of the spec containing `needle`.
fn spec_line(needle: &str) -> usize {
    SPEC.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .expect("the spec names it")
}

/// Resolving `sources` fails with a diagnostic saying `message` at the line
/// of the spec containing `binding`.
#[track_caller]
fn fails_at(sources: &[(String, String)], binding: &str, message: &str) {
    let diags = resolve(sources).expect_err("the build must fail");
    let line = spec_line(binding);
    assert!(
        diags
            .iter()
            .any(|d| d.contains(&format!("bindings.yaml:{line}:")) && d.contains(message)),
        "{diags:#?}"
    );
}

#[test]
fn the_shipped_descriptions_resolve() {
    let code = resolve(&descriptions("", str::to_string)).expect("bindings resolve");
    assert!(
        code.contains("pub static HSW: Bindings"),
        "one static per project"
    );
}

#[test]
fn a_renamed_register_fails_at_the_binding_that_names_it() {
    // HSW's (and SNB..VLV's) OACONTROL renamed in the descriptions.
    let renamed = descriptions("oa_gen7.yaml", |t| {
        t.replace("  - name: OACONTROL\n", "  - name: OA_CONTROL\n")
    });
    fails_at(
        &renamed,
        "enable: {default: OACONTROL.counter_enable",
        "oa.enable: on hsw: no register `OACONTROL`",
    );
}

#[test]
fn a_renamed_field_fails_too() {
    let renamed = descriptions("p4.yaml", |t| {
        t.replacen("name: cascade\n", "name: cascade_on\n", 1)
    });
    fails_at(
        &renamed,
        "cascade: P4_CCCR0.cascade",
        "p4.cascade: on p4: register `P4_CCCR0` has no field `cascade`",
    );
}

#[test]
fn the_oa_buffer_registers_document_the_programming_order() {
    // The registers the OA unit binds as the buffer (its `base` field's
    // register): their descriptions name the order the model checks.
    let mut names: Vec<&str> = perfregs_emu::bind::ALL
        .iter()
        .filter_map(|b| b.oa.and_then(|o| o.base))
        .map(|f| f.reg.name)
        .collect();
    names.sort_unstable();
    names.dedup();
    assert!(names.len() >= 2, "{names:?}");
    for name in names {
        let header = format!("  - name: {name}\n");
        let mut found = 0;
        for (file, text) in perfregs_regdefs::FILES {
            let mut rest = *text;
            while let Some(i) = rest.find(&header) {
                let block = &rest[i + header.len()..];
                let end = block.find("\n  - name: ").unwrap_or(block.len());
                let words = block[..end]
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(
                    words.contains("Programming order: head pointer"),
                    "{file}: {name}: the description does not give the programming order"
                );
                found += 1;
                rest = &block[end..];
            }
        }
        assert!(found > 0, "{name}: no description found");
    }
}
