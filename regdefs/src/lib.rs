//! The perfregs register descriptions, as data.
//!
//! The YAML files of this folder (schema: `SCHEMA.md`, editor support:
//! `schema.json`) are the single source of the perfregs HAL. This crate ships
//! them in its package and exposes them three ways:
//!
//! - [`PROJECTS_YAML`]: the project catalogue, for callers that describe
//!   registers of their own (`perfregs check` of a few files);
//! - [`FILES`]: every description file, by name, compiled in (the built-in
//!   descriptions of the `regdefs!` proc-macro);
//! - [`dir`]: the folder itself, for build scripts that read it and want
//!   `cargo:rerun-if-changed` lines for its files
//!   (`perfregs_codegen::build::Config::new(perfregs_regdefs::dir())`).
//!
//! The generator (`perfregs-codegen`) does not depend on this crate: its
//! callers pass it these, so editing a description does not rebuild it.
#![no_std]
#![forbid(unsafe_code)]

macro_rules! files {
    ($($name:literal),* $(,)?) => {
        /// Every description file of this folder: (file name relative to [`dir`], text),
        /// sorted by name. A test checks that this list matches the folder.
        pub const FILES: &[(&str, &str)] = &[$(($name, include_str!(concat!("../", $name)))),*];
    };
}

files![
    "cec.yaml",
    "devices.yaml",
    "forcewake_gen7.yaml",
    "forcewake_gen8_9.yaml",
    "gt_dg2.yaml",
    "gt_gen11.yaml",
    "gt_gen12.yaml",
    "gt_mtl.yaml",
    "gt_xe.yaml",
    "gt_xe2.yaml",
    "ivt_r2pcie.yaml",
    "ivt_ubox.yaml",
    "mcr_gen8.yaml",
    "noa.yaml",
    "oa_bdw.yaml",
    "oa_commands.yaml",
    "oa_gen7.yaml",
    "oa_gen7_formats.yaml",
    "oa_tgl.yaml",
    "oa_xehp.yaml",
    "oaperf.yaml",
    "p4.yaml",
    "projects.yaml",
    "tgl_forcewake.yaml",
    "tgl_gt_map.yaml",
];

include!(concat!(env!("OUT_DIR"), "/metric_sets.rs"));

/// Errata of the shipped metric sets (`metricsets/errata.yaml`): the
/// counters whose IGT equation the checker accepts with a named fix, and why.
pub const METRIC_ERRATA: &str = include_str!("../metricsets/errata.yaml");

/// What the A counters count, per graphics IP range
/// (`workloads/counters.yaml`): the table emulated workloads are lowered
/// with (`perfregs_session::workload`).
pub const WORKLOAD_COUNTERS: &str = include_str!("../workloads/counters.yaml");

/// The built-in emulated workloads (`workloads/NAME.yaml`, every file but
/// `counters.yaml`): (name, text), sorted by name. A test checks that this
/// list matches the folder.
pub const WORKLOADS: &[(&str, &str)] = &[
    ("busy", include_str!("../workloads/busy.yaml")),
    ("light", include_str!("../workloads/light.yaml")),
];

/// The project catalogue (`projects.yaml`): families, projects and their order.
pub const PROJECTS_YAML: &str = include_str!("../projects.yaml");

/// The folder holding the description files (this crate's manifest folder, as
/// built): for build scripts that compile the folder and print
/// `cargo:rerun-if-changed` for it and for each file.
pub fn dir() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::format;
    use std::string::String;
    use std::vec::Vec;

    /// `FILES` names exactly the folder's description files, sorted, with their text.
    #[test]
    fn files_match_the_folder() {
        let mut on_disk: Vec<String> = std::fs::read_dir(super::dir())
            .expect("the description folder")
            .map(|e| {
                e.expect("a folder entry")
                    .file_name()
                    .into_string()
                    .expect("UTF-8 name")
            })
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
            .collect();
        on_disk.sort();
        let listed: Vec<&str> = super::FILES.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            listed, on_disk,
            "regdefs/src/lib.rs: the `files!` list must name every *.yaml file of regdefs/, sorted"
        );
        for (name, text) in super::FILES {
            let path = std::path::Path::new(super::dir()).join(name);
            assert_eq!(
                std::fs::read_to_string(&path).expect("readable").as_str(),
                *text,
                "{name}"
            );
        }
    }

    /// `WORKLOADS` names every workload file of `workloads/`, sorted, with its text.
    #[test]
    fn workloads_match_the_folder() {
        let folder = std::path::Path::new(super::dir()).join("workloads");
        let mut on_disk: Vec<String> = std::fs::read_dir(&folder)
            .expect("the workloads folder")
            .map(|e| {
                e.expect("a folder entry")
                    .file_name()
                    .into_string()
                    .expect("UTF-8 name")
            })
            .filter_map(|n| n.strip_suffix(".yaml").map(String::from))
            .filter(|n| n != "counters")
            .collect();
        on_disk.sort();
        let listed: Vec<&str> = super::WORKLOADS.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            listed, on_disk,
            "regdefs/src/lib.rs: `WORKLOADS` must name every workloads/*.yaml but counters.yaml, sorted"
        );
        for (name, text) in super::WORKLOADS {
            let path = folder.join(format!("{name}.yaml"));
            assert_eq!(
                std::fs::read_to_string(&path).expect("readable").as_str(),
                *text,
                "{name}"
            );
        }
    }

    #[test]
    fn projects_yaml_is_the_catalogue() {
        let (_, text) = super::FILES
            .iter()
            .find(|(n, _)| *n == "projects.yaml")
            .expect("projects.yaml is listed");
        assert_eq!(*text, super::PROJECTS_YAML);
        assert!(super::PROJECTS_YAML.contains("families:"));
    }
}
