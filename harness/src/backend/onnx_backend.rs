//! `onnx-backend:MODULE[:CLASS]`: any `onnx.backend.base.Backend` in the user's Python,
//! judged with no code of theirs. The adapter is a protocol-1 worker compiled into this
//! crate (`harness/python/onnx_backend_worker.py`, see [`super::python`]), so no checkout of
//! this repository is needed to run it.

use super::select::check_label;
use crate::worker::WorkerSpec;
use crate::Error;
use std::path::Path;
use std::time::Duration;

/// The prefix of a backend reached through onnx's backend API.
pub const PREFIX: &str = crate::report::ONNX_BACKEND_PREFIX;

/// The Python interpreter used when none is given: the one on `PATH`.
pub const DEFAULT_PYTHON: &str = "python3";

/// A backend `onnx-backend:MODULE[:CLASS]` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnnxBackend {
    /// The Python module to import (`onnxruntime.backend`).
    pub module: String,
    /// The `Backend` class inside it; `None`: the module itself is the backend.
    pub class: Option<String>,
}

impl OnnxBackend {
    /// `value` read as an `onnx-backend:` backend: `None` without the prefix, an `Err` saying
    /// how to write it when the module or class is not a Python dotted name.
    pub fn parse(value: &str) -> Option<Result<OnnxBackend, Error>> {
        let rest = value.strip_prefix(PREFIX)?;
        let (module, class) = match rest.split_once(':') {
            Some((m, c)) => (m, Some(c)),
            None => (rest, None),
        };
        let example = "onnx-backend:MODULE[:CLASS], as in onnx-backend:onnxruntime.backend";
        if !is_dotted_name(module) {
            return Some(Err(Error::Backend(format!(
                "{value:?}: {module:?} is not a Python module name; write {example}"
            ))));
        }
        if let Some(c) = class.filter(|c| !is_identifier(c)) {
            return Some(Err(Error::Backend(format!(
                "{value:?}: {c:?} is not a Python class name; write {example}"
            ))));
        }
        let backend = OnnxBackend {
            module: module.to_string(),
            class: class.map(String::from),
        };
        if let Err(why) = check_label(&backend.label()) {
            return Some(Err(Error::Backend(format!("{value:?}: {why}"))));
        }
        Some(Ok(backend))
    }

    /// The name it is known by in records and messages: `onnx-backend:MODULE[:CLASS]`.
    pub fn name(&self) -> String {
        match &self.class {
            Some(c) => format!("{PREFIX}{}:{c}", self.module),
            None => format!("{PREFIX}{}", self.module),
        }
    }

    /// The label that names its report directory and default list:
    /// `onnx-backend.<module>[.<class>]`, lowercase.
    pub fn label(&self) -> String {
        crate::report::onnx_backend_label(&self.module, self.class.as_deref())
    }

    /// The worker that serves it: `python` running the adapter written under `dir`.
    pub fn worker(
        &self,
        python: &Path,
        dir: &Path,
        timeout: Duration,
    ) -> Result<WorkerSpec, Error> {
        let script = super::python::script(dir, "onnx_backend_worker.py")
            .map_err(|e| Error::Backend(e.to_string()))?;
        let spec = match &self.class {
            Some(c) => format!("{}:{c}", self.module),
            None => self.module.clone(),
        };
        Ok(WorkerSpec {
            argv: vec![
                python.display().to_string(),
                script.display().to_string(),
                spec,
            ],
            timeout,
            env: Vec::new(),
        })
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_dotted_name(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(is_identifier)
}

#[cfg(test)]
mod tests;
