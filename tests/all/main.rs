//! The integration tests of the `perfregs` crate, as one test binary: one
//! build and link instead of one per file, and the files' tests run side by
//! side (`cargo test --test all report_formats::` runs one file's).

mod support;

mod cascade;
mod catalogue;
mod cpu_counters;
mod device_api;
mod emu_extra;
mod forcewake_steering;
mod forcewake_steering_gen11_12;
mod gen8_steering;
mod hal;
mod kernel_forcewake;
mod kernel_forcewake_gen11;
mod kernel_forcewake_gen12;
mod kernel_forcewake_gen8;
mod kernel_forcewake_xe;
mod oa_buffer;
mod oa_sampling;
mod prm_crosscheck;
mod program_config;
mod regdefs_maps;
mod report_formats;
mod report_formats_igt;
mod report_formats_xe;
mod report_offsets;
mod report_views;
