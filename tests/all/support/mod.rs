//! Helpers shared by the root integration tests (`use crate::support;`).

pub mod kernel_tables;

use perfregs::hal::FormatVisitor;

/// Visit every report format of every GPU project, project by project.
pub fn visit_every_gpu_format<V: FormatVisitor>(v: &mut V) {
    // The generated dispatch over every compiled project with formats.
    for p in perfregs::hal::PROJECTS {
        perfregs::hal::visit_report_formats(p.name, v);
    }
}

/// How many report formats the metadata lists, over every project.
pub fn listed_formats() -> usize {
    perfregs::hal::PROJECTS
        .iter()
        .map(|p| p.formats.len())
        .sum()
}
