//! The conformance suite: one libtest-mimic trial per official ONNX backend case instance
//! (named `onnx-<release>/opset<N>/<case>`), plus `ONNX_BACKEND_DATA` and `tests/cases/` trees.
//! All logic lives in the harness crate (`harness::runner`); this file only names the workspace.

fn main() -> std::process::ExitCode {
    harness::runner::main(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
}
