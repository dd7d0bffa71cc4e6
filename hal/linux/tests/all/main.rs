//! perfregs-linux's integration tests, as one test binary: one build and
//! link instead of one per file, and the files' tests run side by side
//! (`cargo test -p perfregs-linux --test all recording::` runs one file's).

mod abi;
mod bar;
mod discovery;
mod emulated_stream;
mod hardware;
mod recording;
mod recording_mutations;
mod recording_test_oa;
mod stream_pipe;
mod xe_recording;
