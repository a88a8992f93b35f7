//! A line on stderr every few seconds while a long run's trials go: how many ran, of how
//! many, and the time left at the pace so far. Only on a terminal: a CI log gets none.

use crate::report::{TrialRecord, JSON_FILE};
use serde::Deserialize;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::Path;
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
    /// land in `records`; first the time `estimate` gives, when it gives one (it is asked only
    /// on a terminal).
    pub(crate) fn start(
        total: usize,
        records: Arc<Mutex<Vec<TrialRecord>>>,
        estimate: impl FnOnce() -> Option<Duration>,
    ) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress {
                stop: None,
                thread: None,
            };
        }
        if let Some(time) = estimate() {
            eprintln!("{}", opening(total, time));
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

/// `progress: 1773 cases to run; about 6 min 10 s at the pace of the last run here`.
pub(crate) fn opening(total: usize, estimate: Duration) -> String {
    format!(
        "progress: {total} cases to run; about {} at the pace of the last run here",
        span(estimate.as_secs().max(1))
    )
}

/// How long the trials called `names` take on `threads` threads, by the last run reported in
/// `dir`: the time its records of them took, spread over the threads, scaled up for those it
/// has no record of. `None` when there is no report there or it holds none of them.
pub(crate) fn estimate(dir: &Path, names: &[&str], threads: usize) -> Option<Duration> {
    /// Just the trials' names and times of a `report.json`.
    #[derive(Deserialize)]
    struct Held {
        trials: Vec<Timed>,
    }
    #[derive(Deserialize)]
    struct Timed {
        name: String,
        duration_ms: f64,
    }
    let text = std::fs::read_to_string(dir.join(JSON_FILE)).ok()?;
    let held: Held = serde_json::from_str(&text).ok()?;
    let took: HashMap<&str, f64> = held
        .trials
        .iter()
        .map(|t| (t.name.as_str(), t.duration_ms))
        .collect();
    let known: Vec<f64> = names.iter().filter_map(|n| took.get(n).copied()).collect();
    if known.is_empty() {
        return None;
    }
    let ms = known.iter().sum::<f64>() * names.len() as f64 / known.len() as f64;
    Some(Duration::from_secs_f64(
        (ms / 1e3 / threads.max(1) as f64).max(0.0),
    ))
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
