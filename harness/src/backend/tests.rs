//! Backends judged through whole data sets: the native one, and worker pools whose (sh)
//! workers write good, missing, truncated or mistyped outputs, or die and come back.

use super::*;
use crate::case::{Graph, Node, ValueInfo};
use crate::settings::{Env, Settings, BACKEND_VAR, TIMEOUT_VAR};
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

/// A one-node Cast FLOAT -> `to` model and its input (the model file is never read by these
/// workers).
fn case(op_type: &str, to: DataType) -> (Model, Vec<Tensor>) {
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
    let model = Model {
        ir_version: 8,
        producer: String::new(),
        opset: 21,
        graph,
    };
    (model, vec![input])
}

/// Prepares `model` on `backend` and runs it on `inputs`.
fn run(
    backend: &dyn Backend,
    model: &Model,
    inputs: &[Tensor],
) -> Result<Vec<Tensor>, BackendFailure> {
    let file = ModelFile {
        path: Path::new("/nonexistent/model.onnx"),
        model,
    };
    backend.prepare(file)?.run(inputs)
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
        env: Vec::new(),
    };
    WorkerPool::start("fake", spec, dir.join("io")).expect("the fake worker starts")
}

fn refusal(result: Result<Vec<Tensor>, BackendFailure>) -> BackendFailure {
    match result {
        Ok(t) => panic!("expected a refusal, got {t:?}"),
        Err(r) => r,
    }
}

#[cfg(feature = "native")]
#[test]
fn native_runs_the_node_and_refuses_unknown_operators_at_load() {
    let (c, ds) = case("Cast", DataType::Double);
    let out = run(&Native, &c, &ds).unwrap();
    assert_eq!(out[0].as_slice::<f64>(), Some(&[1.5, -2.0, 0.25][..]));
    let (c, ds) = case("Relu", DataType::Float);
    let r = refusal(run(&Native, &c, &ds));
    assert_eq!(r.kind, FailureKind::Unsupported, "{}", r.message);
    assert!(r.message.contains("Relu"), "{}", r.message);
}

#[cfg(feature = "native")]
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
    let (c, ds) = case("Cast", DataType::Double);
    let out = run(&pool, &c, &ds).unwrap();
    assert_eq!(out[0], ds[0], "the echo comes back bit for bit");
    let expected = run(&Native, &c, &ds).unwrap();
    let mismatches = crate::compare::compare_outputs(&expected, &out, crate::compare::Rule::Strict);
    assert_eq!(mismatches.len(), 1);
    assert!(
        format!("{:?}", mismatches[0]).contains("Float"),
        "{mismatches:?}"
    );
    // Data sets one after another, longer and shorter, through the same slot's files: each
    // comes back as itself, and the outputs read back into recycled memory are the same.
    for n in [1000usize, 2, 0, 700] {
        let x = Tensor::from_vec(vec![n], (0..n).map(|i| i as f32 * 0.5).collect()).unwrap();
        let out = run(&pool, &c, std::slice::from_ref(&x)).unwrap();
        assert_eq!(out, vec![x], "{n} elements");
        pool.recycle(out);
    }
    // The slot's files live as long as the pool.
    let left = |dir: &Path| {
        std::fs::read_dir(dir.join("io"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    assert_eq!(left(dir), 1, "one slot directory");
    drop(pool);
    assert_eq!(left(dir), 0, "removed with the pool");
}

/// A slot's files outlive a data set, but an earlier data set's output is never read for a
/// later one whose worker wrote none.
#[test]
fn an_earlier_output_never_passes_for_a_missing_one() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-stale")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    // Writes its output for the first request only.
    let pool = pool(
        dir,
        r#"if [ ! -e "$out.once" ]; then cp "$in" "$out"; : > "$out.once"; fi"#,
    );
    let (c, ds) = case("Cast", DataType::Float);
    assert_eq!(run(&pool, &c, &ds).unwrap(), ds);
    let r = refusal(run(&pool, &c, &ds));
    assert!(
        r.message
            .contains("backend fake: answered ok but wrote no file for output 'y'"),
        "{}",
        r.message
    );
}

#[test]
fn missing_and_truncated_outputs_are_errors_naming_the_output() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-bad-out")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let (c, ds) = case("Cast", DataType::Float);
    let r = refusal(run(&pool(dir, ":"), &c, &ds));
    assert_eq!(r.kind, FailureKind::Error);
    assert!(
        r.message
            .contains("backend fake: answered ok but wrote no file for output 'y'"),
        "{}",
        r.message
    );
    let r = refusal(run(&pool(dir, r#"head -c 7 "$in" > "$out""#), &c, &ds));
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
    let (c, ds) = case("Cast", DataType::Float);
    let r = refusal(run(&pool, &c, &ds));
    assert_eq!(r.kind, FailureKind::Crash);
    assert!(r.message.contains("fatal: kernel fault"), "{}", r.message);
    assert!(
        run(&pool, &c, &ds).is_ok(),
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
        env: Vec::new(),
    };
    let e = WorkerPool::start("onnxruntime", spec, dir.to_path_buf())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("backend onnxruntime (sh -c"), "{e}");
    assert!(e.contains("No module named onnxruntime"), "{e}");
}

/// The backend `pairs` choose for a workspace at `dir`, with the settings they give.
fn select_in(dir: &Path, pairs: &[(&str, &str)]) -> Selected {
    let (settings, problems): (Settings, _) = crate::settings::read(dir, &Env::of(pairs));
    assert!(problems.is_empty(), "{problems:?}");
    select(dir, &settings)
}

fn select_error(pairs: &[(&str, &str)]) -> String {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-select")
        .tempdir()
        .expect("temp dir");
    let selected = select_in(dir_tmp.path(), pairs);
    match selected.backend {
        Ok(b) => panic!("expected an error, got backend {}", b.info().name),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_environment_chooses_the_backend_and_bad_choices_say_what_to_do() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("backend-select-ok")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let native = select_in(dir, &[]);
    assert_eq!(native.name, "native");
    match &native.backend {
        Ok(b) => assert_eq!(b.info().name, "native"),
        Err(e) => assert!(
            !cfg!(feature = "native") && e.to_string().contains("not compiled in"),
            "{e}"
        ),
    }
    assert_eq!(
        native.known_failures,
        Some(dir.join("tests/known-failures/native.json"))
    );
    assert_eq!(
        native.report_dir.path(),
        dir.join("target/onnx-conformance")
    );
    let hello = r#"sh -c 'echo "{\"protocol\": 1, \"runtime\": \"w\", \"version\": \"2\"}"; cat'"#;
    let worker = select_in(dir, &[(BACKEND_VAR, &format!("worker:myrt={hello}"))]);
    let started = worker.backend.as_ref().unwrap().info();
    assert_eq!(
        (started.name.as_str(), started.runtime.as_str()),
        ("myrt", "w")
    );
    assert_eq!(worker.name, "myrt");
    assert_eq!(
        worker.report_dir.path(),
        dir.join("target/onnx-conformance/backend-myrt")
    );
    assert_eq!(
        worker.known_failures,
        Some(dir.join("tests/known-failures/myrt.json"))
    );
    // Two labels never share a directory or a list; the list variable overrides the default.
    let other = select_in(
        dir,
        &[
            (BACKEND_VAR, &format!("worker:myrt-2={hello}")),
            (crate::settings::KNOWN_VAR, "lists/mine.json"),
        ],
    );
    assert_ne!(other.report_dir, worker.report_dir);
    assert_eq!(other.known_failures, Some(dir.join("lists/mine.json")));
    let e = select_error(&[(BACKEND_VAR, "onnxrt")]);
    assert!(
        e.contains("is not a backend: use native, onnxruntime, reference, tract"),
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
    // A worker needs a valid label of its own: each refusal says how to write one.
    for (value, why) in [
        ("worker:", "needs a label"),
        ("worker:python3 w.py", "needs a label"),
        ("worker:env A=1 w", "\"env A\" is not a worker label"),
        ("worker:My=w", "\"My\" is not a worker label"),
        ("worker:=w", "\"\" is not a worker label"),
        ("worker:onnxruntime=w", "is taken"),
        ("worker:data=w", "is taken"),
        ("worker:rt=  ", "has no command line"),
    ] {
        let e = select_error(&[(BACKEND_VAR, value)]);
        assert!(
            e.contains(why) && e.contains("worker:<label>=<command line>"),
            "{value}: {e}"
        );
    }
    let long = format!("worker:{}=w", "a".repeat(MAX_LABEL + 1));
    assert!(select_error(&[(BACKEND_VAR, &long)]).contains("is not a worker label"));
    // A worker without a usable label writes under `worker`, never under its command line.
    let unlabelled = select_in(dir, &[(BACKEND_VAR, "worker:python3 w.py")]);
    assert_eq!(unlabelled.name, "worker");
    assert_eq!(unlabelled.known_failures, None);
}

/// A linked runtime this binary was not built with is a failing setup check that names the
/// feature to build with; no other backend stands in for it.
#[test]
fn a_linked_runtime_not_compiled_in_says_which_feature_builds_it() {
    for name in ["rten", "candle"] {
        let e = select_error(&[(BACKEND_VAR, name)]);
        assert!(
            e.contains(&format!("--features {name}")) && e.contains("not compiled into"),
            "{e}"
        );
    }
}

#[test]
fn every_shipped_backend_has_its_own_list_and_report_directory() {
    let dir = Path::new("/w");
    for shipped in SHIPPED {
        let selected = select_in(dir, &[(BACKEND_VAR, shipped.name)]);
        assert_eq!(selected.name, shipped.name);
        assert_eq!(selected.known_failures, Some(dir.join(shipped.list)));
        let want = match shipped.name {
            "native" => dir.join("target/onnx-conformance"),
            name => dir.join(format!("target/onnx-conformance/backend-{name}")),
        };
        assert_eq!(selected.report_dir.path(), want);
    }
    let names: Vec<&str> = SHIPPED.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "native",
            "onnxruntime",
            "reference",
            "tract",
            "openvino",
            "iree",
            "rten",
            "candle"
        ]
    );
}

#[test]
fn names_of_backends_and_their_lists() {
    let ws = Path::new("/w");
    assert_eq!(backend_name("tract").as_deref(), Ok("tract"));
    assert_eq!(backend_name("myrt").as_deref(), Ok("myrt"));
    assert_eq!(
        backend_name("worker:myrt=python3 -u w.py").as_deref(),
        Ok("myrt")
    );
    assert!(backend_name("worker:python3 w.py").is_err());
    assert!(backend_name("My RT")
        .unwrap_err()
        .to_string()
        .contains("nor a shipped backend"));
    assert_eq!(
        list_path(ws, "myrt"),
        ws.join("tests/known-failures/myrt.json")
    );
    assert_eq!(
        list_path(ws, "tract"),
        ws.join("tests/known-failures/tract.json")
    );
    assert_eq!(
        list_path(ws, "native"),
        ws.join("tests/known-failures/native.json")
    );
}

#[test]
fn a_bad_timeout_is_a_setup_problem() {
    for bad in ["0", "-1", "soon", "inf"] {
        let (s, problems) = crate::settings::read(Path::new("/w"), &Env::of(&[(TIMEOUT_VAR, bad)]));
        assert_eq!(s.timeout, crate::settings::DEFAULT_TIMEOUT);
        assert_eq!(problems.len(), 1, "{bad}");
        assert_eq!(problems[0].0, "settings/timeout");
        assert!(
            problems[0].1.contains("ONNX_CONFORMANCE_TIMEOUT"),
            "{bad}: {problems:?}"
        );
    }
    let (s, _) = crate::settings::read(Path::new("/w"), &Env::of(&[(TIMEOUT_VAR, "2.5")]));
    assert_eq!(s.timeout, Duration::from_millis(2500));
}

/// A backend that cannot start: every case trial of the run fails as a crash naming it, and
/// nothing runs on another backend.
#[test]
fn a_backend_that_cannot_start_fails_every_case_and_replaces_nothing() {
    let dir = Path::new("/w");
    for (script, quoted) in [
        (
            "echo 'ImportError: no module onnxruntime' >&2; exit 3",
            "ImportError: no module onnxruntime",
        ),
        (
            r#"echo 'version 2 here' >&2; printf '{"protocol": 2, "runtime": "rt", "version": "1"}\n'; cat"#,
            "speaks protocol 2",
        ),
    ] {
        let command = format!("worker:rt=sh -c {}", shlex::try_quote(script).unwrap());
        let selected = select_in(dir, &[(BACKEND_VAR, &command)]);
        let Err(why) = &selected.backend else {
            panic!("the worker started")
        };
        assert!(why.to_string().contains(quoted), "{why}");
        let backend = selected.handle();
        assert_eq!(backend.info().name, "rt", "labelled as asked");
        let (model, inputs) = case("Cast", DataType::Float);
        let f = refusal(run(&*backend, &model, &inputs));
        assert_eq!(f.kind, FailureKind::Crash, "{}", f.message);
        assert!(
            f.message.contains("backend rt could not start"),
            "{}",
            f.message
        );
        assert!(f.message.contains(quoted), "{}", f.message);
    }
}

/// What a backend declares decides which cases it predates: the default domain's opset
/// first, then the IR version; an unknown limit (none declared, or another domain's only)
/// predates nothing, and neither does a model at the limit.
#[test]
fn a_model_above_the_declared_limits_is_predated() {
    let (mut model, _) = case("Cast", DataType::Float16);
    (model.ir_version, model.opset) = (14, 28);
    assert_eq!(Limits::default().predates(&model), None, "unknown");
    let mut limits = Limits {
        max_ir_version: None,
        max_opset: [("ai.onnx.ml".to_string(), 5)].into_iter().collect(),
        max_elements: None,
    };
    assert_eq!(limits.predates(&model), None, "another domain's only");
    limits.max_opset.insert(String::new(), 25);
    assert_eq!(
        limits.predates(&model).as_deref(),
        Some("runtime predates opset 28 (it supports at most 25)")
    );
    limits.max_opset = [("ai.onnx".to_string(), 28)].into_iter().collect();
    assert_eq!(limits.predates(&model), None, "at the limit");
    limits.max_ir_version = Some(13);
    assert_eq!(
        limits.predates(&model).as_deref(),
        Some("runtime predates IR version 14 (it supports at most 13)")
    );
    // The native backend declares nothing.
    #[cfg(feature = "native")]
    assert_eq!(Native.limits(), Limits::default());
}

/// A worker's hello fills the pool's limits.
#[test]
fn a_worker_pool_declares_what_its_hello_says() {
    let dir = crate::testkit::scratch("limits");
    let hello = r#"{"protocol": 1, "runtime": "w", "version": "2", "max_ir_version": 13, "max_opset": {"": 24}}"#;
    let script = format!("printf '%s\\n' '{hello}'; cat");
    let spec = WorkerSpec {
        argv: vec!["sh".into(), "-c".into(), script],
        timeout: Duration::from_secs(10),
        env: Vec::new(),
    };
    let pool = WorkerPool::start("w", spec, dir.path().join("io")).expect("starts");
    let limits = pool.limits();
    assert_eq!(limits.max_ir_version, Some(13));
    assert_eq!(limits.max_opset.get(""), Some(&24));
}

/// A backend asked for a configuration gets it in `ONNX_CONFORMANCE_CONFIGURATION`, and runs
/// only when its hello says it runs in it: a worker that ignores the variable, or declares no
/// configurations, fails to start naming both.
#[test]
fn a_configuration_is_passed_to_the_worker_and_checked_in_its_hello() {
    let dir = tempfile::tempdir().unwrap();
    // Runs in what it is asked for; "stubborn" always says "a".
    let worker = |active: &str| {
        format!(
            r#"worker:cfg=sh -c 'printf "{{\"protocol\": 1, \"runtime\": \"c\", \"version\": \"1\", \"configurations\": [\"a\", \"b\"], \"configuration\": \"%s\"}}\n" "{active}"; cat >/dev/null'"#
        )
    };
    let how = |c: Option<&str>| crate::backend::Starting {
        target: dir.path().to_path_buf(),
        python: None,
        timeout: Duration::from_secs(10),
        configuration: c.map(String::from),
    };
    let b = crate::backend::start_backend(
        &worker("${ONNX_CONFORMANCE_CONFIGURATION:-a}"),
        &how(Some("b")),
    )
    .expect("starts in b");
    assert_eq!(b.configuration().unwrap().active, "b");
    let b =
        crate::backend::start_backend(&worker("${ONNX_CONFORMANCE_CONFIGURATION:-a}"), &how(None))
            .expect("starts in its default");
    assert_eq!(b.configuration().unwrap().active, "a");
    let refused = |r: Result<BackendHandle, crate::Error>| match r {
        Ok(_) => panic!("the backend started"),
        Err(e) => e.to_string(),
    };
    // A worker that ignores the variable is refused.
    let e = refused(crate::backend::start_backend(&worker("a"), &how(Some("b"))));
    assert!(
        e.contains("asked for configuration \"b\"") && e.contains("runs in \"a\""),
        "{e}"
    );
    let plain = r#"worker:plain=sh -c 'printf "{\"protocol\": 1, \"runtime\": \"p\", \"version\": \"1\"}\n"; cat >/dev/null'"#;
    let e = refused(crate::backend::start_backend(plain, &how(Some("b"))));
    assert!(e.contains("declares none"), "{e}");
}

/// A shipped Python backend whose interpreter lacks its packages says which to install with
/// that interpreter, by name: a user of the installed command has no checkout to look in.
#[test]
fn a_python_without_the_packages_is_told_which_to_install() {
    let dir = crate::testkit::scratch("backend-no-packages");
    let how = Starting {
        target: dir.path().to_path_buf(),
        python: Some(std::path::PathBuf::from("/bin/false")),
        timeout: Duration::from_secs(10),
        configuration: None,
    };
    let e = start_backend("onnxruntime", &how).expect_err("does not start");
    assert!(
        e.to_string()
            .contains("`/bin/false -m pip install onnxruntime onnx numpy` installs them"),
        "{e}"
    );
}
