//! The conformance suite: one libtest-mimic trial per official ONNX backend case instance
//! (named `onnx-<release>/opset<N>/<case>`), plus `ONNX_BACKEND_DATA` and `tests/cases/` trees
//! (`custom/opset<N>/...`, `own/opset<N>/...`), or the deep tree with
//! `ONNX_CONFORMANCE_SUITE=deep`; failed setup checks fail it whatever the filter.
//! All logic lives in the harness crate (`harness::runner`); this file only names the workspace
//! and links the Rust runtimes this build was given (`--features rten`, `--features candle`)
//! and the deep suite.

fn main() -> std::process::ExitCode {
    harness::backend::link(inproc::LINKED);
    harness::source::link_deep(deep::indexed_source);
    harness::runner::main(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
}
