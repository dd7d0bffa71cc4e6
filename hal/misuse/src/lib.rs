//! The compile-fail cases of perfregs (`tests/ui/`): each misuse of the
//! HAL beside the compiler message it must give, run by trybuild
//! (`cargo test -p perfregs-misuse`). The crate has nothing to use: its
//! own dependencies are only what the cases need, which keeps trybuild's
//! separate build of them small.
#![no_std]
