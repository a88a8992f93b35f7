//! A runtime behind worker processes (docs/worker-protocol.md): one process per trial thread,
//! inputs written as plain TensorProto files, outputs read back with the harness's reader.

use super::{Backend, BackendInfo, FailureKind, Refusal};
use crate::case::{Case, DataSet};
use crate::read::read_tensor;
use crate::worker::encode::write_tensor;
use crate::worker::{Failure, Hello, IoValue, Request, WorkerBackend, WorkerSpec};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use vocab::Tensor;

/// Worker processes of one command, started on demand and reused across data sets.
pub struct WorkerPool {
    name: String,
    spec: WorkerSpec,
    hello: Hello,
    idle: Mutex<Vec<WorkerBackend>>,
    io_dir: PathBuf,
    next_call: AtomicU64,
}

impl WorkerPool {
    /// Starts one worker of `spec` to learn who it is; `io_dir` receives the per-call input
    /// and output files. Fails with the worker's own complaint if it cannot say hello.
    pub fn start(name: &str, spec: WorkerSpec, io_dir: PathBuf) -> Result<WorkerPool, String> {
        let mut first = WorkerBackend::new(spec.clone());
        let hello = first.hello().map_err(|f| {
            format!(
                "backend {name} ({}) did not start: {f}",
                spec.argv.join(" ")
            )
        })?;
        Ok(WorkerPool {
            name: name.to_string(),
            spec,
            hello,
            idle: Mutex::new(vec![first]),
            io_dir,
            next_call: AtomicU64::new(0),
        })
    }

    fn take(&self) -> WorkerBackend {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.pop()
            .unwrap_or_else(|| WorkerBackend::new(self.spec.clone()))
    }

    fn give_back(&self, worker: WorkerBackend) {
        self.idle
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(worker);
    }

    fn refusal(&self, failure: Failure) -> Refusal {
        let kind = match failure {
            Failure::Unsupported(_) => FailureKind::Unsupported,
            Failure::Error { .. } | Failure::Protocol(_) => FailureKind::Error,
            Failure::Crash(_) => FailureKind::Crash,
            Failure::Timeout(_) => FailureKind::Timeout,
        };
        Refusal::new(kind, format!("backend {}: {failure}", self.name))
    }

    fn error(&self, message: String) -> Refusal {
        Refusal::new(
            FailureKind::Error,
            format!("backend {}: {message}", self.name),
        )
    }

    /// Writes the inputs, runs the request, and reads the outputs, all in `dir`.
    fn run_in(
        &self,
        worker: &mut WorkerBackend,
        dir: &Path,
        case: &Case,
        data_set: &DataSet,
    ) -> Result<Vec<Tensor>, Refusal> {
        std::fs::create_dir_all(dir)
            .map_err(|e| self.error(format!("cannot create {}: {e}", dir.display())))?;
        let graph = &case.model.graph;
        let mut input_paths = Vec::new();
        for (k, (value, tensor)) in graph.inputs.iter().zip(&data_set.inputs).enumerate() {
            let path = dir.join(format!("input_{k}.pb"));
            write_tensor(&path, &value.name, tensor).map_err(|e| self.error(e.to_string()))?;
            input_paths.push(path);
        }
        let output_paths: Vec<PathBuf> = (0..graph.outputs.len())
            .map(|k| dir.join(format!("output_{k}.pb")))
            .collect();
        let model = std::path::absolute(case.dir.join("model.onnx"))
            .map_err(|e| self.error(format!("cannot resolve the model path: {e}")))?;
        let request = Request {
            model: &model,
            inputs: graph
                .inputs
                .iter()
                .zip(&input_paths)
                .map(|(v, p)| IoValue {
                    name: &v.name,
                    path: p,
                })
                .collect(),
            outputs: graph
                .outputs
                .iter()
                .zip(&output_paths)
                .map(|(v, p)| IoValue {
                    name: &v.name,
                    path: p,
                })
                .collect(),
        };
        worker.run(&request).map_err(|f| self.refusal(f))?;
        // Read as the file says, with no declared type: a worker writing another type than
        // the graph declares must show up as a dtype mismatch, not be reinterpreted.
        graph
            .outputs
            .iter()
            .zip(&output_paths)
            .map(|(v, path)| {
                if !path.is_file() {
                    return Err(self.error(format!(
                        "answered ok but wrote no file for output '{}' ({})",
                        v.name,
                        path.display()
                    )));
                }
                read_tensor(path, None).map_err(|e| {
                    self.error(format!("output '{}' is not a valid tensor: {e}", v.name))
                })
            })
            .collect()
    }
}

impl Backend for WorkerPool {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: self.name.clone(),
            runtime: self.hello.runtime.clone(),
            version: self.hello.version.clone(),
        }
    }

    fn run(&self, case: &Case, data_set: &DataSet) -> Result<Vec<Tensor>, Refusal> {
        let call = self.next_call.fetch_add(1, Ordering::Relaxed);
        let dir = self.io_dir.join(format!("{}-{call}", std::process::id()));
        let mut worker = self.take();
        let result = self.run_in(&mut worker, &dir, case, data_set);
        self.give_back(worker);
        let _ = std::fs::remove_dir_all(&dir);
        result
    }
}
