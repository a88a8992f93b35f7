//! One worker process: start, hello, one request line and one answer line per data set,
//! with a deadline on every answer and its stderr drained into a short tail for messages.

use super::protocol::{parse_hello, parse_reply, request_line, Answered, Failure, Hello, Request};
use crate::Error;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// How many stderr lines a message quotes, and how long each may be.
const TAIL_LINES: usize = 12;
const TAIL_LINE_CHARS: usize = 300;

/// A worker command: its argument vector (run without a shell) and the answer deadline.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerSpec {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// How long a hello or an answer may take before the worker is killed.
    pub timeout: Duration,
    /// Variables set in the worker's environment beside the harness's own (the configuration
    /// it is asked to run in).
    pub env: Vec<(String, String)>,
}

impl WorkerSpec {
    /// A spec from a command line split as a POSIX shell would, without running one.
    pub fn from_command_line(line: &str, timeout: Duration) -> Result<WorkerSpec, Error> {
        let argv = shlex::split(line).ok_or_else(|| {
            Error::Worker(format!(
                "worker command line '{line}' has an unclosed quote"
            ))
        })?;
        if argv.is_empty() {
            return Err(Error::Worker("the worker command line is empty".into()));
        }
        Ok(WorkerSpec {
            argv,
            timeout,
            env: Vec::new(),
        })
    }
}

/// The last lines a worker wrote to stderr, kept while a thread drains the pipe, and how many
/// lines it has written in all.
#[derive(Clone, Default)]
struct Tail(Arc<Mutex<TailLines>>);

#[derive(Default)]
struct TailLines {
    lines: VecDeque<String>,
    written: u64,
}

impl Tail {
    fn push(&self, line: String) {
        let mut tail = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if tail.lines.len() == TAIL_LINES {
            tail.lines.pop_front();
        }
        let mut line = line;
        if line.chars().count() > TAIL_LINE_CHARS {
            line = line.chars().take(TAIL_LINE_CHARS).collect::<String>() + "...";
        }
        tail.lines.push_back(line);
        tail.written += 1;
    }

    /// How many lines have been written so far: a mark for [`Tail::quote_since`].
    fn mark(&self) -> u64 {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).written
    }

    /// The last lines, for a crash, hang or protocol break.
    fn quote(&self) -> String {
        self.quote_since(0)
    }

    /// The last lines written after `mark`: what the worker said about one data set.
    fn quote_since(&self, mark: u64) -> String {
        let tail = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let new = usize::try_from(tail.written.saturating_sub(mark)).unwrap_or(usize::MAX);
        let skip = tail.lines.len().saturating_sub(new);
        let body: Vec<String> = tail
            .lines
            .iter()
            .skip(skip)
            .map(|l| format!("  | {l}"))
            .collect();
        if body.is_empty() {
            return String::new();
        }
        format!("\nlast lines of the worker's stderr:\n{}", body.join("\n"))
    }
}

/// A live worker process that has said a valid hello.
pub struct WorkerProcess {
    child: Child,
    /// `None` once closed by [`WorkerProcess::finish`].
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    tail: Tail,
    timeout: Duration,
    hello: Hello,
    next_id: u64,
    last_line: String,
    last_request: String,
}

impl WorkerProcess {
    /// Starts `spec` and waits for its hello line.
    pub fn start(spec: &WorkerSpec) -> Result<WorkerProcess, Failure> {
        let mut child = Command::new(&spec.argv[0])
            .args(&spec.argv[1..])
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Failure::Crash(format!("cannot start worker '{}': {e}", spec.argv[0])))?;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    return Err(Failure::Crash(
                        "the worker's pipes could not be opened".into(),
                    ))
                }
            };
        let tail = Tail::default();
        let drain = tail.clone();
        thread::spawn(move || {
            BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
                .for_each(|l| drain.push(l))
        });
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let stop = line.is_err();
                if send.send(line).is_err() || stop {
                    break;
                }
            }
        });
        let mut worker = WorkerProcess {
            child,
            stdin: Some(stdin),
            lines,
            tail,
            timeout: spec.timeout,
            hello: Hello::default(),
            next_id: 1,
            last_line: String::new(),
            last_request: String::new(),
        };
        let line = worker.next_line("its hello line")?;
        worker.hello = parse_hello(&line).map_err(|e| worker.with_tail(Failure::Protocol(e)))?;
        Ok(worker)
    }

    /// What the worker said in its hello.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// Sends one data set and waits for its answer. After any failure but `Unsupported` and
    /// `Error`, the worker is in an unknown state: drop it and start a fresh one.
    pub fn run(&mut self, request: &Request<'_>) -> Result<Answered, Failure> {
        let id = self.next_id;
        self.next_id += 1;
        let line = request_line(id, request);
        self.last_request.clone_from(&line);
        let mark = self.tail.mark();
        let sent = match &mut self.stdin {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("stdin is closed")),
        };
        if let Err(e) = sent {
            let crash = self.exited(&format!("could not take the request ({e})"));
            return Err(self.with_tail(crash));
        }
        let answer = self.next_line("its answer")?;
        // A protocol failure quotes stderr; so does an error the worker reported, with what
        // it wrote to stderr for this data set (a traceback, a log line). A refusal at load
        // speaks for itself.
        match parse_reply(&answer, id).map_err(|f| self.with_tail(f))? {
            Err(f @ Failure::Error { .. }) => Err(self.with_tail_since(f, mark)),
            result => result,
        }
    }

    /// The last line read from the worker's stdout (its hello, then each answer), as written.
    pub fn last_line(&self) -> &str {
        &self.last_line
    }

    /// The last request line sent, as written.
    pub fn last_request(&self) -> &str {
        &self.last_request
    }

    /// Closes stdin, as the harness does at the end of a run, and waits up to the timeout
    /// for the worker to exit: its exit status, or why not (it is then killed).
    pub fn finish(mut self) -> Result<std::process::ExitStatus, Error> {
        self.stdin = None;
        let start = std::time::Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Ok(status),
                Ok(None) if start.elapsed() < self.timeout => {
                    thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => {
                    return Err(Error::Worker(format!(
                        "the worker did not exit within {} s of its stdin being closed",
                        self.timeout.as_secs_f64()
                    )))
                }
                Err(e) => return Err(Error::Worker(format!("cannot wait for the worker: {e}"))),
            }
        }
    }

    /// The next stdout line, or the failure that stands in for it.
    fn next_line(&mut self, what: &str) -> Result<String, Failure> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(Ok(line)) => {
                self.last_line.clone_from(&line);
                Ok(line)
            }
            Ok(Err(e)) => Err(self.with_tail(Failure::Protocol(format!(
                "stdout is not UTF-8 text while waiting for {what}: {e}"
            )))),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                Err(self.with_tail(Failure::Timeout(format!(
                    "{what} did not come within {} s (the timeout: ONNX_CONFORMANCE_TIMEOUT, or the command's --timeout); the worker was killed",
                    self.timeout.as_secs_f64()
                ))))
            }
            Err(RecvTimeoutError::Disconnected) => {
                let crash = self.exited(&format!("closed stdout before {what}"));
                Err(self.with_tail(crash))
            }
        }
    }

    /// A crash, with the exit status if the process has ended.
    fn exited(&mut self, what: &str) -> Failure {
        // The stdout EOF can come a moment before the exit status is ready.
        let status = (0..50).find_map(|_| match self.child.try_wait() {
            Ok(Some(s)) => Some(s.to_string()),
            Ok(None) => {
                thread::sleep(Duration::from_millis(2));
                None
            }
            Err(_) => None,
        });
        Failure::Crash(match status {
            Some(s) => format!("the worker {what} and exited ({s})"),
            None => format!("the worker {what}"),
        })
    }

    fn with_tail(&self, failure: Failure) -> Failure {
        // The drain thread may still be reading the last lines of a dying worker.
        thread::sleep(Duration::from_millis(20));
        failure.with_detail(&self.tail.quote())
    }

    /// `failure` with the stderr lines written since `mark`.
    fn with_tail_since(&self, failure: Failure, mark: u64) -> Failure {
        // The drain thread may still be reading what the worker wrote before answering.
        thread::sleep(Duration::from_millis(20));
        failure.with_detail(&self.tail.quote_since(mark))
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
