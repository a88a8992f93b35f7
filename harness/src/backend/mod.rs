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
// The nouns of the seam live on the ground floor (`crate::outcome`); named here too.
pub use crate::outcome::{BackendInfo, FailureKind, Limits};

use crate::case::Model;
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use vocab::Tensor;

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

    /// The configuration it runs in, when it declares several; by default none.
    fn configuration(&self) -> Option<crate::outcome::Configuration> {
        None
    }

    /// Takes back outputs the caller is done with, whose memory the backend may read the next
    /// outputs into (a worker's are read from files: fresh memory of tens of megabytes a
    /// chunk costs more in page faults than the reading). By default they are dropped.
    fn recycle(&self, outputs: Vec<Tensor>) {
        drop(outputs);
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

    /// [`Prepared::run`], with the seconds the runtime itself spent: by default the whole
    /// call's (an in-process runtime's own time); a worker says its runtime's share of the
    /// data set, without the files and the pipes ([`crate::worker::Answered`]), or nothing.
    fn run_timed(&self, inputs: &[Tensor]) -> Result<(Vec<Tensor>, Option<f64>), BackendFailure> {
        let t = std::time::Instant::now();
        let out = self.run(inputs)?;
        Ok((out, Some(t.elapsed().as_secs_f64())))
    }
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
