//! Choosing the backend from the environment: `ONNX_CONFORMANCE_BACKEND` names a shipped
//! backend or gives `worker:<command line>`; each has its own known-failures list.

use super::{BackendHandle, Native, WorkerPool};
use crate::worker::WorkerSpec;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Environment variable choosing the backend; `native` when unset.
pub const BACKEND_VAR: &str = "ONNX_CONFORMANCE_BACKEND";
/// Environment variable: seconds a worker may take per data set (default 30).
pub const TIMEOUT_VAR: &str = "ONNX_CONFORMANCE_TIMEOUT";
/// Environment variable: the Python interpreter for the Python workers, instead of the venv
/// that `cargo xtask backends setup` makes.
pub const PYTHON_VAR: &str = "ONNX_CONFORMANCE_PYTHON";
/// Environment variable: the known-failures list of a `worker:` backend.
pub const KNOWN_VAR: &str = "ONNX_CONFORMANCE_KNOWN_FAILURES";

/// The Python workers shipped in `backends/python/`: backend name and script.
const PYTHON_WORKERS: [(&str, &str); 3] = [
    ("onnxruntime", "onnxruntime_worker.py"),
    ("reference", "reference_worker.py"),
    ("openvino", "openvino_worker.py"),
];

/// What a run needs to know about its backend.
pub struct Selected {
    /// The backend.
    pub backend: BackendHandle,
    /// Its known-failures list; `None` for a `worker:` backend without one.
    pub known_failures: Option<PathBuf>,
    /// Where its reports go, below `target/onnx-conformance`: `""` for native.
    pub report_subdir: String,
}

/// Where a backend's reports go, below `target/onnx-conformance`: nothing for native,
/// `backend-<name>` for the others, `backend-worker` for every `worker:` command.
pub fn report_subdir(name: &str) -> String {
    match name {
        "native" => String::new(),
        _ => format!("backend-{}", name.split(':').next().unwrap_or(name)),
    }
}

/// The venv the Python workers run in, made by `cargo xtask backends setup`.
pub fn python_venv(target: &Path) -> PathBuf {
    target.join("backends").join("venv")
}

/// The tract worker binary, built by `cargo xtask backends setup tract`.
pub fn tract_worker(target: &Path) -> PathBuf {
    target
        .join("backends")
        .join("tract")
        .join("release")
        .join("tract-worker")
}

fn setup_hint(name: &str) -> String {
    format!("run `cargo xtask backends setup {name}` first")
}

/// The backend the environment `env` asks for, started and greeted; an unknown name, a bad
/// timeout or a backend that is not set up is an error saying what to do.
pub fn select(
    workspace: &Path,
    target: &Path,
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Result<Selected, String> {
    let name = match env(BACKEND_VAR) {
        None => "native".to_string(),
        Some(v) => v
            .into_string()
            .map_err(|v| format!("{BACKEND_VAR}={v:?} is not UTF-8"))?,
    };
    let name = if name.is_empty() {
        "native".to_string()
    } else {
        name
    };
    let timeout = timeout(env)?;
    let io_dir = target.join("onnx-conformance").join("worker-io");
    let known = |n: &str| {
        Some(
            workspace
                .join("tests")
                .join("known-failures")
                .join(format!("{n}.json")),
        )
    };
    let subdir = report_subdir(&name);
    let pool = |spec: WorkerSpec| -> Result<BackendHandle, String> {
        Ok(BackendHandle(Arc::new(WorkerPool::start(
            &name,
            spec,
            io_dir.clone(),
        )?)))
    };
    if name == "native" {
        return Ok(Selected {
            backend: BackendHandle(Arc::new(Native)),
            known_failures: Some(workspace.join("tests").join("known-failures.json")),
            report_subdir: String::new(),
        });
    }
    if let Some(command) = name.strip_prefix("worker:") {
        let spec = WorkerSpec::from_command_line(command, timeout)
            .map_err(|e| format!("{BACKEND_VAR}: {e}"))?;
        return Ok(Selected {
            backend: pool(spec)?,
            known_failures: env(KNOWN_VAR)
                .filter(|v| !v.is_empty())
                .map(|v| workspace.join(PathBuf::from(v))),
            report_subdir: subdir,
        });
    }
    if let Some((_, script)) = PYTHON_WORKERS.iter().find(|(n, _)| *n == name) {
        let python = match env(PYTHON_VAR).filter(|v| !v.is_empty()) {
            Some(p) => PathBuf::from(p),
            None => {
                let venv = python_venv(target).join("bin").join("python");
                if !venv.exists() {
                    return Err(format!(
                        "backend {name} is not set up ({} does not exist): {}, or point \
                         {PYTHON_VAR} at a Python that has the packages of \
                         backends/python/requirements.txt",
                        venv.display(),
                        setup_hint(&name)
                    ));
                }
                venv
            }
        };
        let script = workspace.join("backends").join("python").join(script);
        let spec = WorkerSpec {
            argv: vec![python.display().to_string(), script.display().to_string()],
            timeout,
        };
        return Ok(Selected {
            backend: pool(spec).map_err(|e| format!("{e}\n{}", setup_hint(&name)))?,
            known_failures: known(&name),
            report_subdir: subdir,
        });
    }
    if name == "tract" {
        let binary = tract_worker(target);
        if !binary.exists() {
            return Err(format!(
                "backend tract is not set up ({} does not exist): {}",
                binary.display(),
                setup_hint("tract")
            ));
        }
        let spec = WorkerSpec {
            argv: vec![binary.display().to_string()],
            timeout,
        };
        return Ok(Selected {
            backend: pool(spec)?,
            known_failures: known("tract"),
            report_subdir: subdir,
        });
    }
    Err(format!(
        "{BACKEND_VAR}={name:?} is not a backend: use native, onnxruntime, reference, tract, \
         openvino or worker:<command line>"
    ))
}

/// The per-data-set deadline from `ONNX_CONFORMANCE_TIMEOUT`.
fn timeout(env: &dyn Fn(&str) -> Option<OsString>) -> Result<Duration, String> {
    let Some(value) = env(TIMEOUT_VAR).filter(|v| !v.is_empty()) else {
        return Ok(Duration::from_secs(30));
    };
    let text = value.to_string_lossy();
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "{TIMEOUT_VAR}={text:?}: give the seconds a worker may take per data set, a number \
             above 0 (default 30)"
        )),
    }
}
