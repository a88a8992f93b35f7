//! Backends judged through whole data sets: the native one, and worker pools whose (sh)
//! workers write good, missing, truncated or mistyped outputs, or die and come back.

use super::*;
use crate::case::{Graph, Model, Node, ValueInfo};
use crate::compare::{compare_outputs, Rule};
use crate::worker::WorkerSpec;
use std::path::Path;
use std::time::Duration;
use vocab::DataType;

fn value(name: &str, dtype: DataType) -> ValueInfo {
    ValueInfo {
        name: name.into(),
        dtype: Some(dtype),
        shape: None,
    }
}

/// A one-node Cast FLOAT -> `to` case (its model file is never read by these workers).
fn case(dir: &Path, op_type: &str, to: DataType) -> (Case, DataSet) {
    let input = Tensor::from_vec(vec![3], vec![1.5f32, -2.0, 0.25]).unwrap();
    let graph = Graph {
        name: "g".into(),
        nodes: vec![Node {
            op_type: op_type.into(),
            domain: String::new(),
            inputs: vec!["x".into()],
            outputs: vec!["y".into()],
            attributes: vec![vocab::Attribute {
                name: "to".into(),
                value: vocab::AttrValue::Int(to.code().into()),
            }],
        }],
        inputs: vec![value("x", DataType::Float)],
        outputs: vec![value("y", to)],
        initializers: Vec::new(),
    };
    let ds = DataSet {
        dir: dir.join("test_data_set_0"),
        inputs: vec![input],
        outputs: Vec::new(),
    };
    let case = Case {
        dir: dir.to_path_buf(),
        name: "test_case".into(),
        model: Model {
            ir_version: 8,
            opset: 21,
            graph,
        },
        data_sets: vec![ds.clone()],
    };
    (case, ds)
}

/// A worker that runs `act` (with `$in` and `$out` set to the first input and output paths)
/// for every request, then answers ok.
fn pool(dir: &Path, act: &str) -> WorkerPool {
    let script = format!(
        r#"printf '{{"protocol": 1, "runtime": "fake", "version": "1"}}\n'
while read -r line; do
  id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  in=$(printf '%s' "$line" | sed 's/.*"inputs":\[{{"name":"[^"]*","path":"\([^"]*\)".*/\1/')
  out=$(printf '%s' "$line" | sed 's/.*"outputs":\[{{"name":"[^"]*","path":"\([^"]*\)".*/\1/')
  {act}
  printf '{{"id": %s, "ok": true}}\n' "$id"
done"#
    );
    let spec = WorkerSpec {
        argv: vec!["sh".into(), "-c".into(), script],
        timeout: Duration::from_secs(10),
    };
    WorkerPool::start("fake", spec, dir.join("io")).expect("the fake worker starts")
}

fn refusal(result: Result<Vec<Tensor>, Refusal>) -> Refusal {
    match result {
        Ok(t) => panic!("expected a refusal, got {t:?}"),
        Err(r) => r,
    }
}

#[test]
fn native_runs_the_node_and_refuses_unknown_operators_at_load() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-native")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let (c, ds) = case(dir, "Cast", DataType::Double);
    let out = Native.run(&c, &ds).unwrap();
    assert_eq!(out[0].as_slice::<f64>(), Some(&[1.5, -2.0, 0.25][..]));
    let (c, ds) = case(dir, "Relu", DataType::Float);
    let r = refusal(Native.run(&c, &ds));
    assert_eq!(r.kind, FailureKind::Unsupported, "{}", r.message);
    assert!(r.message.contains("Relu"), "{}", r.message);
}

#[test]
fn a_worker_output_is_read_as_written_and_a_wrong_dtype_is_a_mismatch() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-echo")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    // Echoing the FLOAT input where the graph declares DOUBLE: read back as FLOAT, so the
    // comparison reports a dtype mismatch instead of reinterpreting the bytes.
    let pool = pool(dir, r#"cp "$in" "$out""#);
    assert_eq!(pool.info().runtime, "fake");
    let (c, ds) = case(dir, "Cast", DataType::Double);
    let out = pool.run(&c, &ds).unwrap();
    assert_eq!(out[0], ds.inputs[0], "the echo comes back bit for bit");
    let expected = Native.run(&c, &ds).unwrap();
    let mismatches = compare_outputs(&expected, &out, Rule::Strict);
    assert_eq!(mismatches.len(), 1);
    assert!(
        format!("{:?}", mismatches[0]).contains("Float"),
        "{mismatches:?}"
    );
    // The per-call files are gone afterwards.
    let left = std::fs::read_dir(dir.join("io"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(left, 0);
}

#[test]
fn missing_and_truncated_outputs_are_errors_naming_the_output() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-bad-out")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let (c, ds) = case(dir, "Cast", DataType::Float);
    let r = refusal(pool(dir, ":").run(&c, &ds));
    assert_eq!(r.kind, FailureKind::Error);
    assert!(
        r.message
            .contains("backend fake: answered ok but wrote no file for output 'y'"),
        "{}",
        r.message
    );
    let r = refusal(pool(dir, r#"head -c 7 "$in" > "$out""#).run(&c, &ds));
    assert_eq!(r.kind, FailureKind::Error);
    assert!(
        r.message.contains("output 'y' is not a valid tensor"),
        "{}",
        r.message
    );
}

#[test]
fn a_crashing_worker_fails_one_data_set_and_the_next_gets_a_fresh_worker() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-crash")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let marker = dir.join("crashed-once");
    let act = format!(
        r#"if [ ! -e '{m}' ]; then touch '{m}'; echo 'fatal: kernel fault' >&2; exit 134; fi; cp "$in" "$out""#,
        m = marker.display()
    );
    let pool = pool(dir, &act);
    let (c, ds) = case(dir, "Cast", DataType::Float);
    let r = refusal(pool.run(&c, &ds));
    assert_eq!(r.kind, FailureKind::Crash);
    assert!(r.message.contains("fatal: kernel fault"), "{}", r.message);
    assert!(
        pool.run(&c, &ds).is_ok(),
        "a fresh worker serves the next data set"
    );
}

#[test]
fn a_worker_that_will_not_start_is_an_error_naming_the_backend() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-nostart")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let spec = WorkerSpec {
        argv: vec![
            "sh".into(),
            "-c".into(),
            "echo 'No module named onnxruntime' >&2; exit 1".into(),
        ],
        timeout: Duration::from_secs(5),
    };
    let e = WorkerPool::start("onnxruntime", spec, dir.to_path_buf())
        .err()
        .unwrap();
    assert!(e.contains("backend onnxruntime (sh -c"), "{e}");
    assert!(e.contains("No module named onnxruntime"), "{e}");
}

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<std::ffi::OsString> {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |key| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.into())
}

fn select_error(pairs: &[(&str, &str)]) -> String {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-select")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    match select(dir, &dir.join("target"), &env_of(pairs)) {
        Ok(s) => panic!("expected an error, got backend {}", s.backend.info().name),
        Err(e) => e,
    }
}

#[test]
fn the_environment_chooses_the_backend_and_bad_choices_say_what_to_do() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-select-ok")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let native = select(dir, &dir.join("target"), &env_of(&[])).unwrap();
    assert_eq!(native.backend.info().name, "native");
    assert_eq!(
        native.known_failures,
        Some(dir.join("tests/known-failures.json"))
    );
    let worker = select(
        dir,
        &dir.join("target"),
        &env_of(&[(BACKEND_VAR, r#"worker:sh -c 'echo "{\"protocol\": 1, \"runtime\": \"w\", \"version\": \"2\"}"; cat'"#)]),
    )
    .unwrap();
    assert_eq!(
        (
            worker.backend.info().runtime.as_str(),
            worker.report_subdir.as_str()
        ),
        ("w", "backend-worker")
    );
    let e = select_error(&[(BACKEND_VAR, "onnxrt")]);
    assert!(
        e.contains("is not a backend: use native, onnxruntime"),
        "{e}"
    );
    let e = select_error(&[(BACKEND_VAR, "onnxruntime")]);
    assert!(
        e.contains("backend onnxruntime is not set up")
            && e.contains("cargo xtask backends setup onnxruntime"),
        "{e}"
    );
    let e = select_error(&[(BACKEND_VAR, "tract")]);
    assert!(e.contains("cargo xtask backends setup tract"), "{e}");
    let e = select_error(&[(BACKEND_VAR, "worker:")]);
    assert!(e.contains("empty"), "{e}");
    for bad in ["0", "-1", "soon", "inf"] {
        let e = select_error(&[(BACKEND_VAR, "native"), (TIMEOUT_VAR, bad)]);
        assert!(e.contains("ONNX_CONFORMANCE_TIMEOUT"), "{bad}: {e}");
    }
}
