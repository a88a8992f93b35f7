//! A line on stderr every few seconds while a long run's trials go: how many ran, of how
//! many, and the time left at the pace so far. Only on a terminal: a CI log gets none.

use crate::report::TrialRecord;
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a line is printed.
const EVERY: Duration = Duration::from_secs(5);

/// The printing thread, stopped when dropped.
pub(crate) struct Progress {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts printing, unless stderr is not a terminal, for `total` trials whose records
    /// land in `records`.
    pub(crate) fn start(total: usize, records: Arc<Mutex<Vec<TrialRecord>>>) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress {
                stop: None,
                thread: None,
            };
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let started = Instant::now();
        let thread = std::thread::spawn(move || loop {
            match stopped.recv_timeout(EVERY) {
                Err(RecvTimeoutError::Timeout) => {}
                _ => return,
            }
            let done = records.lock().map_or(0, |r| r.len());
            eprintln!("{}", line(done, total, started.elapsed()));
        });
        Progress {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `progress: 412 of 1773 cases in 35 s; about 1 min 56 s left`, the time left at the pace so
/// far (none before the first case ends).
pub(crate) fn line(done: usize, total: usize, elapsed: Duration) -> String {
    let mut out = format!(
        "progress: {done} of {total} cases in {}",
        span(elapsed.as_secs())
    );
    if done > 0 && done < total {
        let left = elapsed.as_secs_f64() / done as f64 * (total - done) as f64;
        out.push_str(&format!("; about {} left", span(left.round() as u64)));
    }
    out
}

fn span(secs: u64) -> String {
    match (secs / 3600, secs / 60 % 60, secs % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, m, _) => format!("{h} h {m} min"),
    }
}

#[cfg(test)]
mod tests;
