//! Worker protocol version 1: a runtime in another process, driven by JSON lines over its
//! stdin and stdout (docs/worker-protocol.md). A failed worker is replaced before the next
//! data set; the failed one is never retried.

mod process;
mod protocol;

pub use process::{WorkerProcess, WorkerSpec};
#[cfg(feature = "fuzzing")]
pub use protocol::PROTOCOL_VERSION;
#[cfg(any(test, feature = "fuzzing"))]
pub use protocol::{parse_hello, parse_reply};
pub use protocol::{Answered, Failure, Hello, IoValue, Request};

/// One slot of a worker pool: a process of the command kept alive across data sets, replaced
/// by a fresh one after a crash, timeout or protocol violation.
pub struct WorkerSlot {
    spec: WorkerSpec,
    live: Option<WorkerProcess>,
}

impl WorkerSlot {
    /// A slot that starts `spec` when first needed.
    pub fn new(spec: WorkerSpec) -> WorkerSlot {
        WorkerSlot { spec, live: None }
    }

    /// The live worker, started if there is none.
    fn worker(&mut self) -> Result<&mut WorkerProcess, Failure> {
        if self.live.is_none() {
            self.live = Some(WorkerProcess::start(&self.spec)?);
        }
        Ok(self.live.as_mut().expect("started just above"))
    }

    /// The hello of the live worker, starting one if needed.
    pub fn hello(&mut self) -> Result<Hello, Failure> {
        self.worker().map(|w| w.hello().clone())
    }

    /// Runs one data set; a failure that leaves the worker in doubt drops it.
    pub fn run(&mut self, request: &Request<'_>) -> Result<Answered, Failure> {
        let result = self.worker()?.run(request);
        if matches!(&result, Err(f) if f.kills_worker()) {
            self.live = None;
        }
        result
    }
}

#[cfg(test)]
mod tests;
