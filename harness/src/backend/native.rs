//! The `native` backend: this repository's own implementation, run in-process.

use super::{Backend, BackendInfo, FailureKind, Refusal};
use crate::case::{Case, DataSet, Model};
use crate::error::Error;
use crate::exec;
use crate::read::is_default_domain;
use onnx_conformance::ops::{self, OpVersion};
use onnx_conformance::Tensor;

/// Runs graphs with `onnx_conformance::ops`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Native;

impl Backend for Native {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "native".into(),
            runtime: "onnx-conformance".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    fn run(&self, case: &Case, data_set: &DataSet) -> Result<Vec<Tensor>, Refusal> {
        // An operator or domain the implementation does not have is a refusal at load, as a
        // runtime without that kernel would report it; everything after is an error.
        let opset = case.model.opset;
        for node in &case.model.graph.nodes {
            if exec::is_constant(node) {
                continue;
            }
            if !is_default_domain(&node.domain) {
                return Err(Refusal::new(
                    FailureKind::Unsupported,
                    format!(
                        "native: operator domain '{}' is not implemented",
                        node.domain
                    ),
                ));
            }
            if let Err(e) = OpVersion::resolve(&node.op_type, opset) {
                return Err(Refusal::new(
                    FailureKind::Unsupported,
                    format!("native: {e}"),
                ));
            }
        }
        run_graph(&case.model, &data_set.inputs).map_err(|e| {
            Refusal::new(
                FailureKind::Error,
                format!("{}: running the model failed: {e}", data_set.dir.display()),
            )
        })
    }
}

/// Runs `model` on `inputs` with the implementation's kernels.
pub(crate) fn run_graph(model: &Model, inputs: &[Tensor]) -> Result<Vec<Tensor>, Error> {
    exec::run_graph(model, inputs, &|version, attrs, args| {
        ops::run(version, attrs, args).map_err(|e| e.to_string())
    })
}
