//! A runtime behind worker processes (docs/worker-protocol.md): a pool of restarting worker
//! slots, one in use per trial thread; inputs written as plain TensorProto files, outputs read
//! back with the harness's reader.

use super::{Backend, BackendFailure, BackendInfo, FailureKind, Limits, ModelFile, Prepared};
use crate::case::ValueInfo;
use crate::read::read_tensor;
use crate::worker::{Failure, Hello, IoValue, Request, WorkerSlot, WorkerSpec};
use crate::write::write_transient_tensor;
use crate::Error;
use schema::layout;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use vocab::Tensor;

/// The `Backend` of a worker command: slots of its processes, started on demand and reused
/// across data sets.
pub struct WorkerPool {
    name: String,
    spec: WorkerSpec,
    hello: Hello,
    idle: Mutex<Vec<WorkerSlot>>,
    io_dir: PathBuf,
    next_call: AtomicU64,
}

impl WorkerPool {
    /// Starts one worker of `spec` to learn who it is; `io_dir` receives the per-call input
    /// and output files. Fails with the worker's own complaint if it cannot say hello.
    pub fn start(name: &str, spec: WorkerSpec, io_dir: PathBuf) -> Result<WorkerPool, Error> {
        let mut first = WorkerSlot::new(spec.clone());
        let hello = first.hello().map_err(|f| {
            Error::Backend(format!(
                "backend {name} ({}) did not start: {f}",
                spec.argv.join(" ")
            ))
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

    fn take(&self) -> WorkerSlot {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.pop()
            .unwrap_or_else(|| WorkerSlot::new(self.spec.clone()))
    }

    fn give_back(&self, worker: WorkerSlot) {
        self.idle
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(worker);
    }

    fn failure(&self, failure: Failure) -> BackendFailure {
        let kind = match failure {
            Failure::Unsupported(_) => FailureKind::Unsupported,
            Failure::Error { .. } | Failure::Protocol(_) => FailureKind::Error,
            Failure::Crash(_) => FailureKind::Crash,
            Failure::Timeout(_) => FailureKind::Timeout,
        };
        BackendFailure::new(kind, format!("backend {}: {failure}", self.name))
    }

    fn error(&self, message: String) -> BackendFailure {
        BackendFailure::new(
            FailureKind::Error,
            format!("backend {}: {message}", self.name),
        )
    }

    /// Writes the inputs, runs the request, and reads the outputs, all in `dir`.
    fn run_in(
        &self,
        worker: &mut WorkerSlot,
        dir: &Path,
        model: &WorkerModel<'_>,
        inputs: &[Tensor],
    ) -> Result<(Vec<Tensor>, Option<f64>), BackendFailure> {
        std::fs::create_dir_all(dir)
            .map_err(|e| self.error(format!("cannot create {}: {e}", dir.display())))?;
        let mut input_paths = Vec::new();
        for (k, (value, tensor)) in model.inputs.iter().zip(inputs).enumerate() {
            let path = layout::input(dir, k);
            write_transient_tensor(&path, &value.name, tensor)
                .map_err(|e| self.error(e.to_string()))?;
            input_paths.push(path);
        }
        let output_paths: Vec<PathBuf> = (0..model.outputs.len())
            .map(|k| layout::output(dir, k))
            .collect();
        let request = Request {
            model: &model.path,
            inputs: io(model.inputs, &input_paths),
            outputs: io(model.outputs, &output_paths),
        };
        let answered = worker.run(&request).map_err(|f| self.failure(f))?;
        // Read as the file says, with no declared type: a worker writing another type than
        // the graph declares must show up as a dtype mismatch, not be reinterpreted.
        let outputs = model
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
            .collect::<Result<Vec<Tensor>, BackendFailure>>()?;
        Ok((outputs, answered.run_seconds))
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

    fn limits(&self) -> Limits {
        self.hello.limits.clone()
    }

    fn configuration(&self) -> Option<crate::outcome::Configuration> {
        self.hello.configuration.clone()
    }

    fn prepare<'a>(
        &'a self,
        file: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure> {
        // The worker loads the model with each request (protocol v1 has no load step), so a
        // refusal at load comes back from the first run.
        let path = std::path::absolute(file.path)
            .map_err(|e| self.error(format!("cannot resolve the model path: {e}")))?;
        Ok(Box::new(WorkerModel {
            pool: self,
            path,
            inputs: &file.model.graph.inputs,
            outputs: &file.model.graph.outputs,
        }))
    }
}

/// A model as the workers of a pool are sent it: its file and its graph's value names.
struct WorkerModel<'a> {
    pool: &'a WorkerPool,
    path: PathBuf,
    inputs: &'a [ValueInfo],
    outputs: &'a [ValueInfo],
}

impl Prepared for WorkerModel<'_> {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure> {
        self.run_timed(inputs).map(|(outputs, _)| outputs)
    }

    fn run_timed(&self, inputs: &[Tensor]) -> Result<(Vec<Tensor>, Option<f64>), BackendFailure> {
        let pool = self.pool;
        let call = pool.next_call.fetch_add(1, Ordering::Relaxed);
        let dir = pool.io_dir.join(format!("{}-{call}", std::process::id()));
        let mut worker = pool.take();
        let result = pool.run_in(&mut worker, &dir, self, inputs);
        pool.give_back(worker);
        let _ = std::fs::remove_dir_all(&dir);
        result
    }
}

/// The request's entries for `values`, each with its file.
fn io<'v>(values: &'v [ValueInfo], paths: &'v [PathBuf]) -> Vec<IoValue<'v>> {
    values
        .iter()
        .zip(paths)
        .map(|(v, p)| IoValue {
            name: &v.name,
            path: p,
        })
        .collect()
}
