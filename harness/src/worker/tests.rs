//! Worker protocol tests: the line parsers, then real processes (POSIX sh scripts) that
//! behave well, crash, hang, lie or flood stderr, and the shipped Python worker loop.

use super::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const HELLO: &str = r#"printf '{"protocol": 1, "runtime": "fake", "version": "0.1"}\n'"#;

/// A worker running `script` under sh, with a short deadline.
fn sh(script: &str) -> WorkerSlot {
    sh_with_timeout(script, Duration::from_secs(5))
}

fn sh_with_timeout(script: &str, timeout: Duration) -> WorkerSlot {
    WorkerSlot::new(WorkerSpec {
        argv: vec!["sh".into(), "-c".into(), script.into()],
        timeout,
        env: Vec::new(),
    })
}

/// A loop answering every request with `answer`, where `$id` is the request's id.
fn answering(answer: &str) -> String {
    format!(
        r#"{HELLO}; while read -r line; do id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); printf '%s\n' "{answer}"; done"#
    )
}

fn request() -> Request<'static> {
    Request {
        model: Path::new("/nonexistent/model.onnx"),
        inputs: vec![IoValue {
            name: "x",
            path: Path::new("/nonexistent/input_0.pb"),
        }],
        outputs: vec![IoValue {
            name: "y",
            path: Path::new("/nonexistent/output_0.pb"),
        }],
    }
}

fn failure(backend: &mut WorkerSlot) -> Failure {
    match backend.run(&request()) {
        Ok(_) => panic!("expected a failure"),
        Err(f) => f,
    }
}

#[test]
fn hello_lines() {
    let ok = parse_hello(r#"{"protocol": 1, "runtime": "rt", "version": "2.0"}"#).unwrap();
    assert_eq!((ok.runtime.as_str(), ok.version.as_str()), ("rt", "2.0"));
    let cases = [
        (
            r#"{"protocol": 2, "runtime": "rt", "version": "1"}"#,
            "speaks protocol 2",
        ),
        (r#"{"runtime": "rt", "version": "1"}"#, "no \"protocol\""),
        (r#"{"protocol": 1, "version": "1"}"#, "no \"runtime\""),
        (
            r#"{"protocol": 1, "runtime": 5, "version": "1"}"#,
            "not a string",
        ),
        ("hello there", "not JSON"),
        ("[1]", "not a JSON object"),
    ];
    for (line, expect) in cases {
        let e = parse_hello(line).unwrap_err();
        assert!(e.contains(expect), "{line}: {e}");
    }
}

/// The hello's optional limits: absent they are unknown; present they must be positive
/// integers, `max_opset` an object of domain to opset.
#[test]
fn hello_limits_are_optional_and_checked() {
    let plain = parse_hello(r#"{"protocol": 1, "runtime": "rt", "version": "2.0"}"#).unwrap();
    assert_eq!(plain.limits, crate::outcome::Limits::default());
    let ok = parse_hello(
        r#"{"protocol": 1, "runtime": "rt", "version": "1.31", "max_ir_version": 13,
            "max_opset": {"": 25, "ai.onnx.ml": 5}, "max_elements": 16777216}"#,
    )
    .unwrap();
    assert_eq!(ok.limits.max_ir_version, Some(13));
    assert_eq!(ok.limits.max_elements, Some(1 << 24));
    assert_eq!(ok.limits.default_opset(), Some(25));
    assert_eq!(ok.limits.max_opset.get(""), Some(&25));
    assert_eq!(ok.limits.max_opset.get("ai.onnx.ml"), Some(&5));
    for (extra, expect) in [
        (
            r#""max_ir_version": "13""#,
            "\"max_ir_version\": \"13\", not a positive integer",
        ),
        (r#""max_ir_version": 0"#, "not a positive integer"),
        (r#""max_opset": 25"#, "not an object of domain to opset"),
        (r#""max_opset": {"": 2.5}"#, "not a positive integer"),
        (
            r#""max_elements": 0"#,
            "\"max_elements\": 0, not a positive integer",
        ),
        (r#""max_elements": -3"#, "not a positive integer"),
    ] {
        let line = format!(r#"{{"protocol": 1, "runtime": "rt", "version": "1", {extra}}}"#);
        let e = parse_hello(&line).unwrap_err();
        assert!(e.contains(expect), "{line}: {e}");
    }
}

/// `configurations` and `configuration` come together: the names distinct and well formed,
/// the active one among them.
#[test]
fn hello_configurations_are_optional_and_checked() {
    let plain = parse_hello(r#"{"protocol": 1, "runtime": "rt", "version": "2.0"}"#).unwrap();
    assert_eq!(plain.configuration, None);
    let ok = parse_hello(
        r#"{"protocol": 1, "runtime": "rt", "version": "1", "configurations": ["fast", "exact"],
            "configuration": "exact"}"#,
    )
    .unwrap();
    let c = ok.configuration.unwrap();
    assert_eq!(c.active, "exact");
    assert_eq!(c.declared, ["fast", "exact"]);
    for (extra, expect) in [
        (r#""configurations": ["a"]"#, "give both"),
        (r#""configuration": "a""#, "give both"),
        (
            r#""configurations": ["a"], "configuration": "b""#,
            "which its \"configurations\" [\"a\"] do not hold",
        ),
        (
            r#""configurations": ["a", "a"], "configuration": "a""#,
            "distinct name",
        ),
        (
            r#""configurations": ["Opt On"], "configuration": "Opt On""#,
            "distinct name",
        ),
        (
            r#""configurations": "a", "configuration": "a""#,
            "give both",
        ),
    ] {
        let line = format!(r#"{{"protocol": 1, "runtime": "rt", "version": "1", {extra}}}"#);
        let e = parse_hello(&line).unwrap_err();
        assert!(e.contains(expect), "{line}: {e}");
    }
}

#[test]
fn reply_lines() {
    assert_eq!(
        parse_reply(r#"{"id": 3, "ok": true}"#, 3),
        Ok(Ok(Answered::default()))
    );
    // A worker may say how long its runtime ran; the harness reports it beside its own time.
    assert_eq!(
        parse_reply(r#"{"id": 3, "ok": true, "run_seconds": 0.25}"#, 3),
        Ok(Ok(Answered {
            run_seconds: Some(0.25)
        }))
    );
    assert_eq!(
        parse_reply(
            r#"{"id": 3, "ok": false, "stage": "load", "error": "no kernel"}"#,
            3
        ),
        Ok(Err(Failure::Unsupported("no kernel".into())))
    );
    for stage in ["input", "run", "output"] {
        let line = format!(r#"{{"id": 3, "ok": false, "stage": "{stage}", "error": "boom"}}"#);
        assert_eq!(
            parse_reply(&line, 3),
            Ok(Err(Failure::Error {
                stage: stage.into(),
                message: "boom".into()
            }))
        );
    }
    // A load failure names its kind: a refusal (the default, as every worker before `kind`
    // said it) or the loader failing on a valid model, an error.
    let load = |kind: &str| {
        let line = format!(r#"{{"id": 3, "ok": false, "stage": "load", {kind}"error": "e"}}"#);
        parse_reply(&line, 3)
    };
    assert_eq!(
        load(r#""kind": "unsupported", "#),
        Ok(Err(Failure::Unsupported("e".into())))
    );
    assert_eq!(
        load(r#""kind": "load-error", "#),
        Ok(Err(Failure::Error {
            stage: "load".into(),
            message: "e".into()
        }))
    );
    let violations = [
        (
            r#"{"id": 3, "ok": false, "stage": "load", "kind": "oops", "error": "x"}"#,
            "\"kind\": \"oops\"",
        ),
        (r#"{"id": 4, "ok": true}"#, "has id 4, but request 3"),
        (r#"{"ok": true}"#, "no \"id\""),
        (r#"{"id": 3}"#, "no boolean \"ok\""),
        (
            r#"{"id": 3, "ok": false, "stage": "boot", "error": "x"}"#,
            "stage \"boot\"",
        ),
        (r#"{"id": 3, "ok": false, "stage": "run"}"#, "no \"error\""),
        (
            r#"{"id": 3, "ok": true, "run_seconds": -1}"#,
            "\"run_seconds\": -1, not a number of seconds",
        ),
        (
            r#"{"id": 3, "ok": true, "run_seconds": "1"}"#,
            "\"run_seconds\": \"1\"",
        ),
        ("garbage", "not JSON"),
    ];
    for (line, expect) in violations {
        match parse_reply(line, 3) {
            Err(Failure::Protocol(m)) => assert!(m.contains(expect), "{line}: {m}"),
            other => panic!("{line}: expected a protocol violation, got {other:?}"),
        }
    }
}

#[test]
fn a_command_line_is_split_as_a_shell_would() {
    let spec = WorkerSpec::from_command_line(
        r#"python3 -u "my worker.py" --flag='a b'"#,
        Duration::from_secs(1),
    )
    .unwrap();
    assert_eq!(spec.argv, ["python3", "-u", "my worker.py", "--flag=a b"]);
    assert!(WorkerSpec::from_command_line("", Duration::from_secs(1)).is_err());
    assert!(WorkerSpec::from_command_line("python3 'open", Duration::from_secs(1)).is_err());
}

#[test]
fn a_well_behaved_worker_answers_every_request() {
    let mut backend = sh(&answering(r#"{\"id\": $id, \"ok\": true}"#));
    assert_eq!(backend.hello().unwrap().runtime, "fake");
    for _ in 0..3 {
        assert_eq!(backend.run(&request()), Ok(Answered::default()));
    }
}

#[test]
fn the_request_line_carries_the_paths() {
    let dir = std::env::temp_dir().join(format!("worker-req-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seen = dir.join("seen.txt");
    let script = answering(r#"{\"id\": $id, \"ok\": true}"#).replace(
        "while read -r line; do",
        &format!(
            "while read -r line; do printf '%s\\n' \"$line\" >> '{}';",
            seen.display()
        ),
    );
    sh(&script).run(&request()).unwrap();
    let line = std::fs::read_to_string(&seen).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["id"], 1);
    assert_eq!(v["model"], "/nonexistent/model.onnx");
    assert_eq!(v["inputs"][0]["name"], "x");
    assert_eq!(v["inputs"][0]["path"], "/nonexistent/input_0.pb");
    assert_eq!(v["outputs"][0]["path"], "/nonexistent/output_0.pb");
}

#[test]
fn refusals_and_errors_keep_the_worker() {
    let script = format!(
        r#"{HELLO}; n=0; while read -r line; do n=$((n+1)); id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); if [ $n = 1 ]; then printf '{{"id": %s, "ok": false, "stage": "load", "error": "no FLOAT4E2M1 kernel"}}\n' $id; else printf '{{"id": %s, "ok": false, "stage": "run", "error": "pid %s"}}\n' $id $$; fi; done"#
    );
    let mut backend = sh(&script);
    assert_eq!(
        failure(&mut backend),
        Failure::Unsupported("no FLOAT4E2M1 kernel".into())
    );
    let first = failure(&mut backend);
    let second = failure(&mut backend);
    assert!(
        matches!(&first, Failure::Error { stage, .. } if stage == "run"),
        "{first:?}"
    );
    assert_eq!(first, second, "the same process answers both");
}

/// An error answer quotes what the worker wrote to stderr for that data set (not the lines of
/// the data sets before); a refusal at load quotes nothing. (The worker waits after writing to
/// stderr, so that the harness has drained the line before the answer comes.)
#[test]
fn an_error_answer_quotes_the_stderr_of_its_data_set() {
    let script = format!(
        r#"{HELLO}; n=0; while read -r line; do n=$((n+1)); id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "traceback of request $n" >&2; sleep 0.2; if [ $n = 1 ]; then printf '{{"id": %s, "ok": false, "stage": "load", "error": "no kernel"}}\n' $id; else printf '{{"id": %s, "ok": false, "stage": "run", "error": "boom"}}\n' $id; fi; done"#
    );
    let mut backend = sh(&script);
    assert_eq!(
        failure(&mut backend),
        Failure::Unsupported("no kernel".into())
    );
    match failure(&mut backend) {
        Failure::Error { stage, message } => {
            assert_eq!(stage, "run");
            assert!(
                message.starts_with("boom\nlast lines of the worker's stderr:")
                    && message.contains("traceback of request 2")
                    && !message.contains("request 1"),
                "{message}"
            );
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn a_worker_without_hello_is_a_crash_or_timeout() {
    let f = sh("echo 'starting up' >&2; exit 3").hello().unwrap_err();
    assert!(
        matches!(&f, Failure::Crash(m) if m.contains("before its hello") && m.contains("starting up")),
        "{f}"
    );
    let started = Instant::now();
    let f = sh_with_timeout("sleep 30", Duration::from_millis(300))
        .hello()
        .unwrap_err();
    assert!(
        matches!(&f, Failure::Timeout(m) if m.contains("its hello line did not come within 0.3 s")),
        "{f}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn another_protocol_version_or_garbage_hello_is_refused() {
    let f = sh(r#"printf '{"protocol": 7, "runtime": "x", "version": "1"}\n'; cat"#)
        .hello()
        .unwrap_err();
    assert!(
        matches!(&f, Failure::Protocol(m) if m.contains("speaks protocol 7")),
        "{f}"
    );
    let f = sh("echo READY; cat").hello().unwrap_err();
    assert!(
        matches!(&f, Failure::Protocol(m) if m.contains("not JSON")),
        "{f}"
    );
}

#[test]
fn a_missing_program_is_a_crash_naming_it() {
    let mut backend = WorkerSlot::new(WorkerSpec {
        argv: vec!["/nonexistent/worker-binary".into()],
        timeout: Duration::from_secs(1),
        env: Vec::new(),
    });
    let f = backend.hello().unwrap_err();
    assert!(
        matches!(&f, Failure::Crash(m) if m.contains("/nonexistent/worker-binary")),
        "{f}"
    );
}

#[test]
fn a_crash_mid_run_is_reported_and_a_fresh_worker_serves_the_next_case() {
    // Each process crashes on its second request: a fresh process serves the next one.
    let script = format!(
        r#"{HELLO}; n=0; while read -r line; do n=$((n+1)); id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); if [ $n = 2 ]; then echo "segfault in kernel" >&2; exit 139; fi; printf '{{"id": %s, "ok": true}}\n' $id; done"#
    );
    let mut backend = sh(&script);
    assert_eq!(backend.run(&request()), Ok(Answered::default()));
    let f = failure(&mut backend);
    assert!(
        matches!(&f, Failure::Crash(m) if m.contains("segfault in kernel")),
        "{f}"
    );
    assert_eq!(
        backend.run(&request()),
        Ok(Answered::default()),
        "a fresh worker answers"
    );
}

#[test]
fn a_hang_is_a_timeout_and_the_worker_is_replaced() {
    let script = format!(
        r#"{HELLO}; n=0; while read -r line; do n=$((n+1)); id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); if [ $n = 1 ]; then sleep 30; fi; printf '{{"id": %s, "ok": true}}\n' $id; done"#
    );
    let mut backend = sh_with_timeout(&script, Duration::from_millis(500));
    let started = Instant::now();
    let f = failure(&mut backend);
    assert!(matches!(&f, Failure::Timeout(_)), "{f}");
    assert!(started.elapsed() < Duration::from_secs(10));
    // The replacement's first request hangs as well (the same script), which shows it is new.
    assert!(matches!(failure(&mut backend), Failure::Timeout(_)));
}

#[test]
fn garbage_and_wrong_ids_are_protocol_violations() {
    let f = failure(&mut sh(&answering("not json at all")));
    assert!(
        matches!(&f, Failure::Protocol(m) if m.contains("not JSON")),
        "{f}"
    );
    let f = failure(&mut sh(&answering(r#"{\"id\": 99, \"ok\": true}"#)));
    assert!(
        matches!(&f, Failure::Protocol(m) if m.contains("has id 99")),
        "{f}"
    );
}

#[test]
fn a_worker_flooding_stderr_still_passes() {
    // 4 MiB of stderr before every answer: far beyond a pipe buffer, so only a drained
    // stderr lets the worker reach its answer.
    let flood = r#"head -c 4194304 /dev/zero | tr '\0' 'e' >&2; echo >&2"#;
    let script = format!(
        r#"{flood}; {HELLO}; while read -r line; do id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); {flood}; printf '{{"id": %s, "ok": true}}\n' $id; done"#
    );
    let mut backend = sh(&script);
    for _ in 0..2 {
        assert_eq!(backend.run(&request()), Ok(Answered::default()));
    }
}

// `harness/python/worker_loop.py` keeps the protocol stream clean when a runtime writes to
// file descriptor 1 itself (a native library's banner or printf, a child process), not only
// through Python's `print`. A fake runtime module does all three, at import and during a run,
// and the harness must still read a valid hello and valid answers. Needs `python3` (or
// `$PYTHON`), as `cargo xtask fetch-tests` does; the worker loop uses the standard library only.

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

def loader_bug(path):
    raise IndexError("loader bug")

def not_implemented(path):
    raise NotImplementedError("no kernel")
"#;

/// A worker in the shape of the shipped ones: worker_loop first, then the runtime.
const WORKER: &str = r#"
import sys
sys.path.insert(0, sys.argv[1])
from worker_loop import load, serve, stage
import chatty_runtime

def run_case(request):
    model = request["model"]
    if model.endswith("refuse.onnx"):
        stage("load", chatty_runtime.fail)
    valid = lambda path: True
    if model.endswith("bug.onnx"):
        load(chatty_runtime.loader_bug, model, (NotImplementedError,), valid)
    if model.endswith("ni.onnx"):
        load(chatty_runtime.not_implemented, model, (NotImplementedError,), valid)
    if model.endswith("invalid.onnx"):
        load(chatty_runtime.loader_bug, model, (NotImplementedError,), lambda path: False)
    stage("run", chatty_runtime.run, request["outputs"][0]["path"])

serve("chatty", "1.0", run_case)
"#;

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn worker_loop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("python")
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
        env: Vec::new(),
    };
    let mut worker = match WorkerProcess::start(&spec) {
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

/// `worker_loop.load` tells a refusal from a loader failing on a valid model: an exception
/// of the runtime's refusal classes, or on a model the checker rejects, is `unsupported`; any
/// other is a `load-error`, an error quoting the traceback the loop wrote to stderr.
#[test]
fn the_python_loop_reports_a_loader_failing_on_a_valid_model_as_an_error() {
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
        env: Vec::new(),
    };
    let mut worker = match WorkerProcess::start(&spec) {
        Ok(w) => w,
        Err(e) => panic!("the worker's hello was not read cleanly: {e:?}"),
    };
    let mut answer = |name: &str| {
        let model = dir.path().join(name);
        let request = Request {
            model: &model,
            inputs: vec![],
            outputs: vec![],
        };
        worker.run(&request)
    };
    match answer("bug.onnx") {
        Err(Failure::Error { stage, message }) => {
            assert_eq!(stage, "load");
            assert!(
                message.starts_with("IndexError: loader bug\nlast lines of the worker's stderr:")
                    && message.contains("Traceback"),
                "{message}"
            );
        }
        other => panic!("expected a load error, got {other:?}"),
    }
    assert_eq!(
        answer("ni.onnx"),
        Err(Failure::Unsupported(
            "NotImplementedError: no kernel".into()
        ))
    );
    assert_eq!(
        answer("invalid.onnx"),
        Err(Failure::Unsupported("IndexError: loader bug".into()))
    );
}
