//! The seam between the harness and the runtime under test: given a case and one data set,
//! a backend returns the graph outputs or a typed refusal. `native` runs this repository's
//! own implementation in-process; every other runtime runs behind a worker process.

pub(crate) mod native;
mod select;
mod workers;

pub use native::Native;
pub use select::{
    python_venv, report_subdir, select, tract_worker, Selected, BACKEND_VAR, KNOWN_VAR, PYTHON_VAR,
    TIMEOUT_VAR,
};
pub use workers::WorkerPool;

use crate::case::{Case, DataSet};
use serde::{Deserialize, Serialize};
use std::fmt;
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
}

impl FailureKind {
    /// Every kind, in report order.
    pub const ALL: [FailureKind; 5] = [
        FailureKind::Mismatch,
        FailureKind::Unsupported,
        FailureKind::Error,
        FailureKind::Crash,
        FailureKind::Timeout,
    ];

    /// The report spelling, as in `unsupported`.
    pub fn label(self) -> &'static str {
        match self {
            FailureKind::Mismatch => "mismatch",
            FailureKind::Unsupported => "unsupported",
            FailureKind::Error => "error",
            FailureKind::Crash => "crash",
            FailureKind::Timeout => "timeout",
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

/// A backend's refusal or failure on one data set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What kind of failure.
    pub kind: FailureKind,
    /// What happened, naming the backend.
    pub message: String,
}

impl Refusal {
    /// A refusal of `kind`.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            message: message.into(),
        }
    }
}

/// Which runtime a run judged: the name it was chosen by, and what the runtime says it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendInfo {
    /// The name the backend was chosen by: `native`, `onnxruntime`, `worker:...`.
    pub name: String,
    /// The runtime's own name, from its hello.
    pub runtime: String,
    /// The runtime's version, from its hello.
    pub version: String,
}

/// A runtime under test. Trials run on several threads at once, so one backend value serves
/// them all.
pub trait Backend: Send + Sync {
    /// Who this backend is, for the records.
    fn info(&self) -> BackendInfo;

    /// Runs one data set of `case`: its inputs bind to the graph inputs by position, and the
    /// result holds one tensor per graph output, in declared order.
    fn run(&self, case: &Case, data_set: &DataSet) -> Result<Vec<Tensor>, Refusal>;
}

/// A shared backend, with the native one as the default.
#[derive(Clone)]
pub struct BackendHandle(pub Arc<dyn Backend>);

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
