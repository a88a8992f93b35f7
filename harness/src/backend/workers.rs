//! A runtime behind worker processes (docs/worker-protocol.md): a pool of restarting worker
//! slots, one in use per trial thread; inputs written as plain TensorProto files, outputs read
//! back with the harness's reader.

use super::{Backend, BackendFailure, BackendInfo, FailureKind, Limits, ModelFile, Prepared};
use crate::case::ValueInfo;
use crate::read::TensorReader;
use crate::worker::{Failure, Hello, IoValue, Request, WorkerSlot, WorkerSpec};
use crate::write::write_transient_tensor;
use crate::Error;
use schema::layout;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use vocab::{Storage, Tensor};

/// The `Backend` of a worker command: slots of its processes, started on demand and reused
/// across data sets.
pub struct WorkerPool {
    name: String,
    spec: WorkerSpec,
    hello: Hello,
    /// Idle slots.
    idle: Mutex<Vec<Slot>>,
    /// Output storage handed back ([`Backend::recycle`]), which the next outputs are read into.
    spare: Mutex<Vec<Storage>>,
    io_dir: PathBuf,
    /// Numbers the slots' directories.
    next_slot: AtomicU64,
}

/// A worker process with what it keeps from data set to data set: its directory of input and
/// output files, rewritten in place each time (a large run's chunks reuse the file system's
/// blocks), and the reader of its outputs, which keeps its memory too.
struct Slot {
    worker: WorkerSlot,
    dir: PathBuf,
    reader: TensorReader,
}

/// Output storages kept for reuse: one per slot of a trial thread would do; a few more cost
/// nothing.
const SPARE: usize = 4;

impl WorkerPool {
    /// Starts one worker of `spec` to learn who it is; `io_dir` receives a directory of input
    /// and output files per worker, removed with the pool. Fails with the worker's own complaint if it cannot say hello.
    pub fn start(name: &str, spec: WorkerSpec, io_dir: PathBuf) -> Result<WorkerPool, Error> {
        let mut first = WorkerSlot::new(spec.clone());
        let hello = first.hello().map_err(|f| {
            Error::Backend(format!(
                "backend {name} ({}) did not start: {f}",
                spec.argv.join(" ")
            ))
        })?;
        let pool = WorkerPool {
            name: name.to_string(),
            spec,
            hello,
            idle: Mutex::new(Vec::new()),
            spare: Mutex::new(Vec::new()),
            io_dir,
            next_slot: AtomicU64::new(0),
        };
        pool.give_back(pool.slot(first));
        Ok(pool)
    }

    /// `worker` with a directory of its own.
    fn slot(&self, worker: WorkerSlot) -> Slot {
        let n = self.next_slot.fetch_add(1, Ordering::Relaxed);
        Slot {
            worker,
            dir: self.io_dir.join(format!("{}-{n}", std::process::id())),
            reader: TensorReader::default(),
        }
    }

    fn take(&self) -> Slot {
        let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        idle.unwrap_or_else(|| self.slot(WorkerSlot::new(self.spec.clone())))
    }

    fn give_back(&self, worker: Slot) {
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

    /// Writes the inputs, runs the request, and reads the outputs, all in the slot's
    /// directory.
    fn run_in(
        &self,
        slot: &mut Slot,
        model: &WorkerModel<'_>,
        inputs: &[Tensor],
    ) -> Result<(Vec<Tensor>, Option<f64>), BackendFailure> {
        let dir = &slot.dir;
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
        // An earlier data set's output must never pass for this one's: its first byte is set
        // to 0, which no TensorProto starts with (field 0 does not exist), and a file still
        // starting so after the answer was not written. Kept, not removed, so that a worker
        // writing over it in place reuses its blocks.
        for path in &output_paths {
            poison(path).map_err(|e| self.error(format!("cannot mark {}: {e}", path.display())))?;
        }
        let request = Request {
            model: &model.path,
            inputs: io(model.inputs, &input_paths),
            outputs: io(model.outputs, &output_paths),
        };
        let answered = slot.worker.run(&request).map_err(|f| self.failure(f))?;
        // Read as the file says, with no declared type: a worker writing another type than
        // the graph declares must show up as a dtype mismatch, not be reinterpreted.
        let outputs = model
            .outputs
            .iter()
            .zip(&output_paths)
            .map(|(v, path)| {
                if !written(path) {
                    return Err(self.error(format!(
                        "answered ok but wrote no file for output '{}' ({})",
                        v.name,
                        path.display()
                    )));
                }
                let spare = self.spare.lock().unwrap_or_else(|p| p.into_inner()).pop();
                slot.reader.read(path, None, spare).map_err(|e| {
                    self.error(format!("output '{}' is not a valid tensor: {e}", v.name))
                })
            })
            .collect::<Result<Vec<Tensor>, BackendFailure>>()?;
        Ok((outputs, answered.run_seconds))
    }
}

impl Drop for WorkerPool {
    /// Removes the slots' directories: every slot is idle once nothing borrows the pool.
    fn drop(&mut self) {
        let idle = self.idle.get_mut().unwrap_or_else(|p| p.into_inner());
        for slot in idle.iter() {
            let _ = std::fs::remove_dir_all(&slot.dir);
        }
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

    fn recycle(&self, outputs: Vec<Tensor>) {
        let mut spare = self.spare.lock().unwrap_or_else(|p| p.into_inner());
        for t in outputs {
            if spare.len() < SPARE {
                spare.push(t.into_parts().1);
            }
        }
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
        let mut slot = pool.take();
        let result = pool.run_in(&mut slot, self, inputs);
        pool.give_back(slot);
        result
    }
}

/// Sets the first byte of an existing output file to 0 ([`written`] tells it apart); nothing
/// for a missing or empty file, which no worker's answer can be mistaken for either.
fn poison(path: &Path) -> std::io::Result<()> {
    use std::io::Write;
    match std::fs::OpenOptions::new().write(true).open(path) {
        Ok(f) if f.metadata()?.len() > 0 => (&f).write_all(&[0]),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Whether an output file is there and was written since [`poison`] marked it: an empty
/// file is an empty TensorProto, and a TensorProto's first byte is a field key, never 0. A
/// file that cannot be read counts as written, for the reader to say what is wrong with it.
fn written(path: &Path) -> bool {
    use std::io::Read;
    if !path.is_file() {
        return false;
    }
    let mut first = [0u8; 1];
    let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut first));
    !matches!(read, Ok(1) if first[0] == 0)
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
