//! This runtime judged by the ONNX conformance harness, in-process: every official case a
//! trial, per-opset reports in `target/onnx-conformance/backend-toy-cast/`. Run it with
//! `cargo test --test conformance -- [libtest filters]`.
//!
//! The official data comes from onnx-conformance's `cargo xtask fetch-tests`; here, from the
//! checkout this example lives in. Point `Suite::new` at your own copy.

use harness::backend::{
    Backend, BackendFailure, BackendHandle, BackendInfo, FailureKind, ModelFile, Prepared,
};
use harness::vocab::{AttrValue, DataType, Tensor};
use std::process::ExitCode;
use std::sync::Arc;

/// The harness's side of the runtime: load a model, then run it on one data set at a time.
struct ToyCast;

impl Backend for ToyCast {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "toy-cast".into(),
            runtime: "external-runtime".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    fn prepare<'a>(
        &'a self,
        file: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure> {
        let graph = &file.model.graph;
        let to_double = AttrValue::Int(i64::from(DataType::Double.code()));
        let supported = match &graph.nodes[..] {
            [node] => {
                node.op_type == "Cast"
                    && node
                        .attributes
                        .iter()
                        .any(|a| a.name == "to" && a.value == to_double)
                    && graph
                        .inputs
                        .iter()
                        .all(|i| i.dtype == Some(DataType::Float))
            }
            _ => false,
        };
        match supported {
            true => Ok(Box::new(Widen)),
            // A refusal at load is counted apart from wrong answers.
            false => Err(BackendFailure::new(
                FailureKind::Unsupported,
                "toy-cast: only Cast from FLOAT to DOUBLE",
            )),
        }
    }
}

/// A loaded FLOAT-to-DOUBLE Cast: it gets the inputs, never the expected outputs.
struct Widen;

impl Prepared for Widen {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure> {
        let error = |msg: String| BackendFailure::new(FailureKind::Error, msg);
        let [input] = inputs else {
            return Err(error(format!(
                "toy-cast: {} inputs, expected 1",
                inputs.len()
            )));
        };
        let values = input
            .as_slice::<f32>()
            .ok_or_else(|| error(format!("toy-cast: input is {}", input.dtype())))?;
        let out = Tensor::from_vec(input.shape().to_vec(), external_runtime::widen(values))
            .map_err(|e| error(format!("toy-cast: {e}")))?;
        Ok(vec![out])
    }
}

fn main() -> ExitCode {
    let here = env!("CARGO_MANIFEST_DIR");
    let backend = BackendHandle(Arc::new(ToyCast));
    harness::runner::Suite::new(here, "../../onnx-backend-data", backend)
        .lock_file("../../onnx-backend-data.lock.json")
        .known_failures("known-failures.json")
        .main()
}
