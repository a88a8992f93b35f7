//! rten (`rten::Model`), in-process: loads `model.onnx` itself, fed and read through its
//! declared narrowing ([`crate::RTEN_TYPES`]).

use crate::narrow::Types;
use crate::panic_text;
use harness::backend::{
    Backend, BackendFailure, BackendHandle, BackendInfo, FailureKind, ModelFile, Prepared,
};
use harness::case::ValueInfo;
use harness::vocab::{Storage, Tensor};
use rten::{NodeId, Value};
use rten_tensor::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// The rten version pinned in this crate's Cargo.toml (a test holds them equal).
pub const VERSION: &str = "0.27.0";

const TYPES: Types = crate::RTEN_TYPES;

/// The `rten` backend.
pub fn backend() -> BackendHandle {
    BackendHandle(Arc::new(Rten))
}

/// rten, loading each model from its file.
struct Rten;

impl Backend for Rten {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "rten".into(),
            runtime: "rten".into(),
            version: VERSION.into(),
        }
    }

    fn prepare<'a>(
        &'a self,
        file: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure> {
        TYPES.check_inputs(file.model)?;
        let loaded = catch_unwind(|| rten::Model::load_file(file.path))
            .map_err(|p| crash("loading the model", &*p))?
            .map_err(|e| {
                BackendFailure::new(
                    FailureKind::Unsupported,
                    format!("rten: refused at load: {e}"),
                )
            })?;
        let graph = &file.model.graph;
        let ids = |values: &[ValueInfo], what: &str| -> Result<Vec<NodeId>, BackendFailure> {
            values
                .iter()
                .map(|v| {
                    loaded.find_node(&v.name).ok_or_else(|| {
                        BackendFailure::new(
                            FailureKind::Error,
                            format!("rten: the loaded model has no {what} `{}`", v.name),
                        )
                    })
                })
                .collect()
        };
        let inputs = ids(&graph.inputs, "input")?;
        let outputs = ids(&graph.outputs, "output")?;
        Ok(Box::new(Loaded {
            model: loaded,
            inputs,
            outputs,
            declared: graph.outputs.clone(),
        }))
    }
}

/// A model rten loaded, with the node ids of the graph's inputs and outputs.
struct Loaded {
    model: rten::Model,
    inputs: Vec<NodeId>,
    outputs: Vec<NodeId>,
    declared: Vec<ValueInfo>,
}

impl Prepared for Loaded {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure> {
        let mut fed = Vec::with_capacity(inputs.len());
        for (&id, tensor) in self.inputs.iter().zip(inputs) {
            fed.push((id, to_value(&TYPES.to_runtime(tensor)?)?.into()));
        }
        let ran = catch_unwind(AssertUnwindSafe(|| {
            self.model.run(fed, &self.outputs, None)
        }))
        .map_err(|p| crash("running the model", &*p))?
        .map_err(|e| BackendFailure::new(FailureKind::Error, format!("rten: run failed: {e}")))?;
        ran.into_iter()
            .zip(&self.declared)
            .enumerate()
            .map(|(k, (value, info))| {
                TYPES.from_runtime(k, &info.name, info.dtype, from_value(value)?)
            })
            .collect()
    }
}

fn crash(what: &str, payload: &(dyn std::any::Any + Send)) -> BackendFailure {
    BackendFailure::new(
        FailureKind::Crash,
        format!("rten panicked {what}: {}", panic_text(payload)),
    )
}

/// A tensor of a type rten holds, as an rten value.
fn to_value(tensor: &Tensor) -> Result<Value, BackendFailure> {
    let shape = tensor.shape().to_vec();
    let value = match tensor.storage() {
        Storage::Float(v) => Value::from(rten_tensor::Tensor::from_data(&shape, v.clone())),
        Storage::Int32(v) => Value::from(rten_tensor::Tensor::from_data(&shape, v.clone())),
        Storage::Int8(v) => Value::from(rten_tensor::Tensor::from_data(&shape, v.clone())),
        Storage::Uint8(v) => Value::from(rten_tensor::Tensor::from_data(&shape, v.clone())),
        other => {
            return Err(BackendFailure::new(
                FailureKind::Unsupported,
                format!("rten: no tensors of {}", other.dtype().name()),
            ))
        }
    };
    Ok(value)
}

/// An rten output value as a tensor of the type rten holds it in.
fn from_value(value: Value) -> Result<Tensor, BackendFailure> {
    fn parts<T: Clone>(t: rten_tensor::Tensor<T>) -> (Vec<usize>, Vec<T>) {
        (t.shape().to_vec(), t.into_data())
    }
    let tensor = match value {
        Value::FloatTensor(t) => parts(t).into_tensor(),
        Value::Int32Tensor(t) => parts(t).into_tensor(),
        Value::Int8Tensor(t) => parts(t).into_tensor(),
        Value::UInt8Tensor(t) => parts(t).into_tensor(),
        // A sequence, or a kind of value newer than this adapter.
        _ => {
            return Err(BackendFailure::new(
                FailureKind::Error,
                "rten: an output is not a tensor",
            ))
        }
    };
    tensor.map_err(|e| BackendFailure::new(FailureKind::Error, format!("rten: an output: {e}")))
}

/// A (shape, elements) pair as a tensor.
trait IntoTensor {
    fn into_tensor(self) -> Result<Tensor, harness::vocab::Error>;
}

impl<T: harness::vocab::Element> IntoTensor for (Vec<usize>, Vec<T>) {
    fn into_tensor(self) -> Result<Tensor, harness::vocab::Error> {
        Tensor::from_vec(self.0, self.1)
    }
}

#[cfg(test)]
mod tests;
