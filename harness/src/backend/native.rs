//! The `native` backend: this repository's own implementation, run in-process.

use super::{Backend, BackendFailure, BackendInfo, FailureKind, ModelFile, Prepared};
use crate::error::Error;
use crate::exec::Plan;
use onnx_conformance::ops;
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

    fn prepare<'a>(
        &'a self,
        file: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure> {
        // An operator or domain the implementation does not have is a refusal at load, as a
        // runtime without that kernel would report it; everything after is an error.
        let plan = Plan::new(file.model)
            .map_err(|e| BackendFailure::new(FailureKind::Unsupported, format!("native: {e}")))?;
        Ok(Box::new(NativePlan(plan)))
    }
}

/// A model the implementation has every operator of.
struct NativePlan<'m>(Plan<'m>);

impl Prepared for NativePlan<'_> {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure> {
        run_plan(&self.0, inputs).map_err(|e| {
            BackendFailure::new(FailureKind::Error, format!("running the model failed: {e}"))
        })
    }
}

fn run_plan(plan: &Plan<'_>, inputs: &[Tensor]) -> Result<Vec<Tensor>, Error> {
    plan.run(inputs, &|version, attrs, args| {
        ops::run(version, attrs, args).map_err(|e| e.to_string())
    })
}

/// Runs `model` on `inputs` with the implementation's kernels, planning and running in one.
#[cfg(test)]
pub(crate) fn run_graph(
    model: &crate::case::Model,
    inputs: &[Tensor],
) -> Result<Vec<Tensor>, Error> {
    run_plan(&Plan::new(model)?, inputs)
}
