//! Helpers shared by the root integration tests (`mod support;` in each).

use perfregs::hal::FormatVisitor;

/// Visit every report format of every GPU project, project by project.
pub fn visit_every_gpu_format<V: FormatVisitor>(v: &mut V) {
    perfregs::hal::snb::reports::visit_all(v);
    perfregs::hal::ivb::reports::visit_all(v);
    perfregs::hal::vlv::reports::visit_all(v);
    perfregs::hal::hsw::reports::visit_all(v);
    perfregs::hal::bdw::reports::visit_all(v);
    perfregs::hal::tgl::reports::visit_all(v);
}

/// How many report formats the metadata lists, over every project.
pub fn listed_formats() -> usize {
    perfregs::hal::PROJECTS
        .iter()
        .map(|p| p.formats.len())
        .sum()
}
