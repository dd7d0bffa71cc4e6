//! Helpers shared by the root integration tests (`mod support;` in each).

use perfregs::hal::FormatVisitor;

/// Visit every report format of every GPU project, project by project.
pub fn visit_every_gpu_format<V: FormatVisitor>(v: &mut V) {
    perfregs::hal::snb::reports::visit_all(v);
    perfregs::hal::ivb::reports::visit_all(v);
    perfregs::hal::vlv::reports::visit_all(v);
    perfregs::hal::hsw::reports::visit_all(v);
    perfregs::hal::bdw::reports::visit_all(v);
    perfregs::hal::chv::reports::visit_all(v);
    perfregs::hal::skl::reports::visit_all(v);
    perfregs::hal::bxt::reports::visit_all(v);
    perfregs::hal::kbl::reports::visit_all(v);
    perfregs::hal::glk::reports::visit_all(v);
    perfregs::hal::cfl::reports::visit_all(v);
    perfregs::hal::cnl::reports::visit_all(v);
    perfregs::hal::icl::reports::visit_all(v);
    perfregs::hal::ehl::reports::visit_all(v);
    perfregs::hal::tgl::reports::visit_all(v);
    perfregs::hal::rkl::reports::visit_all(v);
    perfregs::hal::adl::reports::visit_all(v);
    perfregs::hal::dg1::reports::visit_all(v);
}

/// How many report formats the metadata lists, over every project.
pub fn listed_formats() -> usize {
    perfregs::hal::PROJECTS
        .iter()
        .map(|p| p.formats.len())
        .sum()
}
