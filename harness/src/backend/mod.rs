//! The seam between the harness and the runtime under test, in the shape of ONNX's own
//! `onnx/backend/base.py`: a backend prepares a model ([`Backend::prepare`]), then runs the
//! prepared model on one data set's inputs ([`Prepared::run`]). Expected outputs never cross
//! the seam. `native` runs this repository's own implementation in-process (the `native`
//! feature); every other runtime runs behind a pool of worker processes.

#[cfg(feature = "native")]
pub(crate) mod native;
mod onnx_backend;
pub(crate) mod python;
mod select;
mod workers;

#[cfg(feature = "native")]
pub use native::Native;
pub use onnx_backend::OnnxBackend;
pub use select::{
    backend_name, check_label, link, list_path, python_venv, start_backend, Linked, Shipped, Start,
    Starting, WorkerLabel, MAX_LABEL, SHIPPED,
};
pub(crate) use select::{select, Selected};
pub(crate) use workers::WorkerPool;

use crate::case::Model;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use vocab::Tensor;

/// Why a trial did not pass, as a type: nothing branches on the text of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureKind {
    /// The backend ran and its outputs differ in dtype, shape or values.
    Mismatch,
    /// The backend refused the model at load: an unknown type, operator or kernel.
    Unsupported,
    /// Reading the case, feeding inputs, running or returning outputs failed.
    Error,
    /// The backend's process exited or could not be started.
    Crash,
    /// The backend gave no answer within the deadline.
    Timeout,
    /// The runtime predates the case: the model's IR version or opset is above what the
    /// backend declares it supports ([`Backend::limits`]); the case was not run.
    Predates,
}

impl FailureKind {
    /// Every kind, in report order.
    pub const ALL: [FailureKind; 6] = [
        FailureKind::Mismatch,
        FailureKind::Unsupported,
        FailureKind::Error,
        FailureKind::Crash,
        FailureKind::Timeout,
        FailureKind::Predates,
    ];

    /// The report spelling, as in `unsupported`.
    pub fn label(self) -> &'static str {
        match self {
            FailureKind::Mismatch => "mismatch",
            FailureKind::Unsupported => "unsupported",
            FailureKind::Error => "error",
            FailureKind::Crash => "crash",
            FailureKind::Timeout => "timeout",
            FailureKind::Predates => "predates",
        }
    }

    /// The kind for a report spelling.
    pub fn from_label(label: &str) -> Option<FailureKind> {
        FailureKind::ALL.into_iter().find(|k| k.label() == label)
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Why a backend gave no outputs: a refusal at load, an error, a crash or a timeout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendFailure {
    /// What kind of failure.
    pub kind: FailureKind,
    /// What happened, naming the backend.
    pub message: String,
}

impl BackendFailure {
    /// A failure of `kind`.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> BackendFailure {
        BackendFailure {
            kind,
            message: message.into(),
        }
    }
}

/// Which runtime a run judged: the name it was chosen by, and what the runtime says it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendInfo {
    /// The name the backend was chosen by: `native`, `onnxruntime`, ..., or a worker's label.
    pub name: String,
    /// The runtime's own name, from its hello.
    pub runtime: String,
    /// The runtime's version, from its hello.
    pub version: String,
}

/// The newest IR version and opsets a backend's runtime supports, as it declares them
/// (a worker in its hello). `None` and a domain absent from `max_opset` are unknown: nothing
/// predates them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The newest `ModelProto.ir_version` the runtime loads.
    pub max_ir_version: Option<i64>,
    /// The newest opset per domain (`""` is the default domain, `ai.onnx` too).
    pub max_opset: BTreeMap<String, i64>,
}

impl Limits {
    /// Why the runtime predates `model`, as in `runtime predates opset 28 (it supports at
    /// most 25)`; `None` when it does not, or when the limits are unknown.
    pub fn predates(&self, model: &Model) -> Option<String> {
        let max_opset = self
            .max_opset
            .get("")
            .or_else(|| self.max_opset.get("ai.onnx"));
        if let Some(&max) = max_opset.filter(|&&max| model.opset > max) {
            return Some(format!(
                "runtime predates opset {} (it supports at most {max})",
                model.opset
            ));
        }
        if let Some(max) = self.max_ir_version.filter(|&max| model.ir_version > max) {
            return Some(format!(
                "runtime predates IR version {} (it supports at most {max})",
                model.ir_version
            ));
        }
        None
    }
}

/// The model a backend is asked to load: its file, and the harness's reading of it (declared
/// types applied). A worker loads the file; an in-process runtime may use either.
#[derive(Clone, Copy, Debug)]
pub struct ModelFile<'a> {
    /// The `model.onnx` file, absolute.
    pub path: &'a Path,
    /// Its graph and opset.
    pub model: &'a Model,
}

/// A runtime under test. Trials run on several threads at once, so one backend value serves
/// them all.
pub trait Backend: Send + Sync {
    /// Who this backend is, for the records.
    fn info(&self) -> BackendInfo;

    /// The newest IR version and opsets the runtime supports; a case above them is not run
    /// and its trial is `predates`. By default unknown: nothing predates the backend.
    fn limits(&self) -> Limits {
        Limits::default()
    }

    /// Loads `model`, ready to run; a model the runtime cannot load (an unknown operator,
    /// type or attribute) is a [`FailureKind::Unsupported`] failure.
    fn prepare<'a>(
        &'a self,
        model: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure>;
}

/// A model loaded by a backend.
pub trait Prepared {
    /// Runs the model on one data set's inputs, bound to the graph inputs by position; the
    /// result holds one tensor per graph output, in declared order.
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure>;
}

/// A shared backend (the native one by default, with the `native` feature).
#[derive(Clone)]
pub struct BackendHandle(pub Arc<dyn Backend>);

#[cfg(feature = "native")]
impl Default for BackendHandle {
    fn default() -> BackendHandle {
        BackendHandle(Arc::new(Native))
    }
}

impl fmt::Debug for BackendHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BackendHandle({})", self.0.info().name)
    }
}

impl std::ops::Deref for BackendHandle {
    type Target = dyn Backend;
    fn deref(&self) -> &(dyn Backend + 'static) {
        &*self.0
    }
}

#[cfg(test)]
mod tests;
