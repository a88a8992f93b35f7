//! candle-onnx (`candle_onnx::simple_eval`), in-process, fed and read through its declared
//! narrowing ([`crate::CANDLE_TYPES`]). candle-onnx has no load step: it reads the graph as it
//! evaluates it, so its refusals (an operator or a type it lacks) come from the run; an error
//! of the run whose text starts with `unsupported` is reported as `unsupported`.

use crate::narrow::Types;
use crate::panic_text;
use candle_core::{DType, Device};
use candle_onnx::onnx::ModelProto;
use harness::backend::{
    Backend, BackendFailure, BackendHandle, BackendInfo, FailureKind, ModelFile, Prepared,
};
use harness::case::ValueInfo;
use harness::vocab::{Storage, Tensor};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// The candle-onnx version pinned in this crate's Cargo.toml (a test holds them equal).
pub const VERSION: &str = "0.11.1";

const TYPES: Types = crate::CANDLE_TYPES;

/// The `candle` backend.
pub fn backend() -> BackendHandle {
    BackendHandle(Arc::new(Candle))
}

/// candle-onnx, evaluating each model's graph on the CPU.
struct Candle;

impl Backend for Candle {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "candle".into(),
            runtime: "candle-onnx".into(),
            version: VERSION.into(),
        }
    }

    fn prepare<'a>(
        &'a self,
        file: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure> {
        TYPES.check_inputs(file.model)?;
        let proto = catch_unwind(|| candle_onnx::read_file(file.path))
            .map_err(|p| crash("reading the model", &*p))?
            .map_err(|e| failure("cannot read the model", &e))?;
        let graph = &file.model.graph;
        Ok(Box::new(Loaded {
            proto,
            inputs: graph.inputs.clone(),
            outputs: graph.outputs.clone(),
        }))
    }
}

/// A model candle-onnx read, with the graph's declared inputs and outputs.
struct Loaded {
    proto: ModelProto,
    inputs: Vec<ValueInfo>,
    outputs: Vec<ValueInfo>,
}

impl Prepared for Loaded {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure> {
        let mut fed = HashMap::new();
        for (info, tensor) in self.inputs.iter().zip(inputs) {
            fed.insert(info.name.clone(), to_candle(&TYPES.to_runtime(tensor)?)?);
        }
        let mut ran = catch_unwind(AssertUnwindSafe(|| {
            candle_onnx::simple_eval(&self.proto, fed)
        }))
        .map_err(|p| crash("running the model", &*p))?
        .map_err(|e| failure("run failed", &e))?;
        self.outputs
            .iter()
            .enumerate()
            .map(|(k, info)| {
                let out = ran.remove(&info.name).ok_or_else(|| {
                    BackendFailure::new(
                        FailureKind::Error,
                        format!("candle-onnx: no value for output `{}`", info.name),
                    )
                })?;
                TYPES.from_runtime(k, &info.name, info.dtype, from_candle(&out)?)
            })
            .collect()
    }
}

/// A candle error: `unsupported` when candle-onnx says it lacks the operator or type. The
/// backtrace candle attaches when `RUST_BACKTRACE` is set is left out of the message.
fn failure(what: &str, e: &candle_core::Error) -> BackendFailure {
    let text = text(e);
    let text = text.trim_end();
    let kind = match text.starts_with("unsupported") {
        true => FailureKind::Unsupported,
        false => FailureKind::Error,
    };
    BackendFailure::new(kind, format!("candle-onnx: {what}: {text}"))
}

fn crash(what: &str, payload: &(dyn std::any::Any + Send)) -> BackendFailure {
    BackendFailure::new(
        FailureKind::Crash,
        format!("candle-onnx panicked {what}: {}", panic_text(payload)),
    )
}

fn error(e: candle_core::Error) -> BackendFailure {
    BackendFailure::new(FailureKind::Error, format!("candle-onnx: {}", text(&e)))
}

/// The error's text, without the backtrace candle attaches when `RUST_BACKTRACE` is set.
fn text(mut e: &candle_core::Error) -> String {
    while let candle_core::Error::WithBacktrace { inner, .. } = e {
        e = inner;
    }
    e.to_string()
}

/// A tensor of a type candle-onnx reads, as a candle tensor on the CPU.
fn to_candle(tensor: &Tensor) -> Result<candle_core::Tensor, BackendFailure> {
    let shape = tensor.shape().to_vec();
    let cpu = &Device::Cpu;
    let t = match tensor.storage() {
        Storage::Uint8(v) => candle_core::Tensor::from_vec(v.clone(), shape, cpu),
        Storage::Uint32(v) => candle_core::Tensor::from_vec(v.clone(), shape, cpu),
        Storage::Int64(v) => candle_core::Tensor::from_vec(v.clone(), shape, cpu),
        Storage::Float16(v) => candle_core::Tensor::from_vec(v.clone(), shape, cpu),
        Storage::Float(v) => candle_core::Tensor::from_vec(v.clone(), shape, cpu),
        Storage::Double(v) => candle_core::Tensor::from_vec(v.clone(), shape, cpu),
        other => {
            return Err(BackendFailure::new(
                FailureKind::Unsupported,
                format!("candle-onnx: no tensors of {}", other.dtype().name()),
            ))
        }
    };
    t.map_err(error)
}

/// A candle tensor as a tensor of its own element type.
fn from_candle(t: &candle_core::Tensor) -> Result<Tensor, BackendFailure> {
    let shape = t.dims().to_vec();
    let flat = t.reshape(t.elem_count()).map_err(error)?;
    let tensor = match t.dtype() {
        DType::U8 => Tensor::from_vec(shape, flat.to_vec1::<u8>().map_err(error)?),
        DType::U32 => Tensor::from_vec(shape, flat.to_vec1::<u32>().map_err(error)?),
        DType::I64 => Tensor::from_vec(shape, flat.to_vec1::<i64>().map_err(error)?),
        DType::F16 => Tensor::from_vec(shape, flat.to_vec1::<half::f16>().map_err(error)?),
        DType::F32 => Tensor::from_vec(shape, flat.to_vec1::<f32>().map_err(error)?),
        DType::F64 => Tensor::from_vec(shape, flat.to_vec1::<f64>().map_err(error)?),
        other => {
            return Err(BackendFailure::new(
                FailureKind::Error,
                format!("candle-onnx: an output is {other:?}, which the adapter does not read"),
            ))
        }
    };
    tensor.map_err(|e| {
        BackendFailure::new(FailureKind::Error, format!("candle-onnx: an output: {e}"))
    })
}

#[cfg(test)]
mod tests;
