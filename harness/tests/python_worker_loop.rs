//! `backends/python/worker_loop.py` keeps the protocol stream clean when a runtime writes to
//! file descriptor 1 itself (a native library's banner or printf, a child process), not only
//! through Python's `print`. A fake runtime module does all three, at import and during a run,
//! and the harness must still read a valid hello and valid answers.
//!
//! Needs `python3` (or `$PYTHON`), as `cargo xtask fetch-tests` does; the worker loop uses the
//! standard library only.

use harness::worker::{IoValue, Request, Worker, WorkerSpec};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A runtime that writes to fd 1 behind Python's back, the way a native library does.
const CHATTY_RUNTIME: &str = r#"
import os
os.write(1, b"chatty runtime: banner written to fd 1 at import\n")
print("chatty runtime: print at import")

def run(path):
    os.write(1, b"chatty runtime: kernel log written to fd 1\n")
    os.system("echo 'chatty runtime: a child process writing to its stdout'")
    print("chatty runtime: print during run")
    with open(path, "wb") as f:
        f.write(b"ran")

def fail():
    os.write(1, b"chatty runtime: fd 1 before failing\n")
    raise RuntimeError("no kernel for this")
"#;

/// A worker in the shape of the shipped ones: worker_loop first, then the runtime.
const WORKER: &str = r#"
import sys
sys.path.insert(0, sys.argv[1])
from worker_loop import serve, stage
import chatty_runtime

def run_case(request):
    if request["model"].endswith("refuse.onnx"):
        stage("load", chatty_runtime.fail)
    stage("run", chatty_runtime.run, request["outputs"][0]["path"])

serve("chatty", "1.0", run_case)
"#;

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn worker_loop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("backends")
        .join("python")
}

#[test]
fn fd1_writes_of_the_runtime_never_reach_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chatty_runtime.py"), CHATTY_RUNTIME).unwrap();
    let script = dir.path().join("worker.py");
    std::fs::write(&script, WORKER).unwrap();
    let spec = WorkerSpec {
        argv: vec![
            python(),
            script.display().to_string(),
            worker_loop_dir().display().to_string(),
        ],
        timeout: Duration::from_secs(30),
    };
    let mut worker = match Worker::start(&spec) {
        Ok(w) => w,
        Err(e) => panic!("the worker's hello was not read cleanly: {e:?}"),
    };
    assert_eq!(
        (
            worker.hello().runtime.as_str(),
            worker.hello().version.as_str()
        ),
        ("chatty", "1.0")
    );
    let output = dir.path().join("output_0.pb");
    let model = dir.path().join("model.onnx");
    for round in 0..2 {
        let request = Request {
            model: &model,
            inputs: vec![],
            outputs: vec![IoValue {
                name: "y",
                path: &output,
            }],
        };
        if let Err(e) = worker.run(&request) {
            panic!("answer {round} was not read cleanly: {e:?}");
        }
        assert_eq!(std::fs::read(&output).unwrap(), b"ran");
        std::fs::remove_file(&output).unwrap();
    }
    // A refusal after fd-1 noise is still a well-formed `load` answer.
    let refuse = dir.path().join("refuse.onnx");
    let request = Request {
        model: &refuse,
        inputs: vec![],
        outputs: vec![],
    };
    let answer = format!("{:?}", worker.run(&request));
    assert!(
        answer.starts_with("Err(Unsupported(") && answer.contains("no kernel for this"),
        "{answer}"
    );
}
