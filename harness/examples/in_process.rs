//! A Rust runtime judged in-process, as a runtime's own `tests/conformance.rs` would do it
//! (with `harness = false` in its Cargo.toml). The toy runtime here implements Concat of
//! FLOAT tensors along axis 0 by itself and refuses every other model at load, which the
//! reports count as `unsupported` rather than as wrong answers.
//!
//! Run: `cargo run -p onnx-conformance-harness --example in_process -- [libtest filters]`.

use harness::backend::{
    Backend, BackendFailure, BackendHandle, BackendInfo, FailureKind, ModelFile, Prepared,
};
use harness::vocab::{AttrValue, DataType, Tensor};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Concat of FLOAT tensors along axis 0, and nothing else.
struct ToyRuntime;

impl Backend for ToyRuntime {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "toy".into(),
            runtime: "toy-runtime".into(),
            version: "0.1".into(),
        }
    }

    /// Loading checks that the model is one Concat on axis 0; the data comes later.
    fn prepare<'a>(
        &'a self,
        file: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure> {
        let refuse = |why: &str| {
            Err(BackendFailure::new(
                FailureKind::Unsupported,
                format!("toy: {why}"),
            ))
        };
        let [node] = &file.model.graph.nodes[..] else {
            return refuse("only single-node graphs");
        };
        let axis0 = node
            .attributes
            .iter()
            .any(|a| a.name == "axis" && a.value == AttrValue::Int(0));
        if node.op_type != "Concat" || !axis0 {
            return refuse(&format!("no kernel for {} here", node.op_type));
        }
        Ok(Box::new(ConcatRows))
    }
}

/// A loaded Concat along axis 0: it sees the inputs only, never the expected outputs.
struct ConcatRows;

impl Prepared for ConcatRows {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure> {
        let mut shape: Option<Vec<usize>> = None;
        let mut values = Vec::new();
        for input in inputs {
            let Some(v) = input.as_slice::<f32>() else {
                return Err(BackendFailure::new(
                    FailureKind::Unsupported,
                    format!("toy: Concat of {} is not implemented", input.dtype()),
                ));
            };
            let rows = input.shape().first().copied().unwrap_or(0);
            match &mut shape {
                None => shape = Some(input.shape().to_vec()),
                Some(s) => s[0] += rows,
            }
            values.extend_from_slice(v);
        }
        let shape = shape.unwrap_or_default();
        let out = Tensor::from_vec(shape, values)
            .map_err(|e| BackendFailure::new(FailureKind::Error, format!("toy: {e}")))?;
        debug_assert_eq!(out.dtype(), DataType::Float);
        Ok(vec![out])
    }
}

fn main() -> ExitCode {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    harness::runner::Suite::in_workspace(&workspace, BackendHandle(Arc::new(ToyRuntime))).main()
}
