//! Worker protocol version 1: a runtime in another process, driven by JSON lines over its
//! stdin and stdout (docs/worker-protocol.md). A failed worker is replaced before the next
//! data set; the failed one is never retried.

pub mod encode;
mod process;
mod protocol;

pub use process::{Worker, WorkerSpec};
pub use protocol::{parse_hello, parse_reply, Failure, Hello, IoValue, Request, PROTOCOL_VERSION};

/// A worker command kept alive across data sets, restarted after a crash, timeout or
/// protocol violation.
pub struct WorkerBackend {
    spec: WorkerSpec,
    live: Option<Worker>,
}

impl WorkerBackend {
    /// A backend that starts `spec` when first needed.
    pub fn new(spec: WorkerSpec) -> WorkerBackend {
        WorkerBackend { spec, live: None }
    }

    /// The live worker, started if there is none.
    fn worker(&mut self) -> Result<&mut Worker, Failure> {
        if self.live.is_none() {
            self.live = Some(Worker::start(&self.spec)?);
        }
        Ok(self.live.as_mut().expect("started just above"))
    }

    /// The hello of the live worker, starting one if needed.
    pub fn hello(&mut self) -> Result<Hello, Failure> {
        self.worker().map(|w| w.hello().clone())
    }

    /// Runs one data set; a failure that leaves the worker in doubt drops it.
    pub fn run(&mut self, request: &Request<'_>) -> Result<(), Failure> {
        let result = self.worker()?.run(request);
        if matches!(&result, Err(f) if f.kills_worker()) {
            self.live = None;
        }
        result
    }
}

#[cfg(test)]
mod tests;
