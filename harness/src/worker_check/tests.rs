//! The worker check against POSIX sh workers that keep or break the protocol, on a scratch
//! data directory holding two of the chosen cases (copies of an own case), and the one built in
//! memory.

use super::*;
use crate::testkit::{instance, scratch, write_index};

const HELLO: &str = r#"printf '{"protocol": 1, "runtime": "sh", "version": "0"}\n'"#;
/// Shell lines setting `$id`, `$model` and `$out` (the first output's path) from `$line`.
const FIELDS: &str = r#"id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); model=$(printf '%s' "$line" | sed 's/.*"model":"\([^"]*\)".*/\1/'); out=$(printf '%s' "$line" | sed 's/.*"outputs":\[{"name":"[^"]*","path":"\([^"]*\)".*/\1/')"#;

/// A data directory whose index lists two chosen cases, both a copy of an own Cast case.
fn data() -> tempfile::TempDir {
    let ws = scratch("check-worker");
    let chosen = [("1.22.0", CASES[0].1, 25), ("1.2.3", CASES[1].1, 7)];
    let own =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/test_cast1_FLOAT_to_DOUBLE");
    let instances = chosen.map(|(r, c, o)| instance(r, c, o)).to_vec();
    for i in &instances {
        let dir = ws.path().join(crate::index::DATA_DIR).join(&i.dir);
        let ds = dir.join("test_data_set_0");
        std::fs::create_dir_all(&ds).expect("case dir");
        std::fs::copy(own.join("model.onnx"), dir.join("model.onnx")).expect("model");
        for f in ["input_0.pb", "output_0.pb"] {
            std::fs::copy(own.join("test_data_set_0").join(f), ds.join(f)).expect("pb");
        }
    }
    write_index(ws.path(), instances);
    ws
}

/// A worker that says hello, then runs `body` (with the request's fields set) per line.
/// How many cases a check runs on [`data`]: its two official ones and every built one.
fn ran() -> usize {
    2 + CASES
        .iter()
        .filter(|(release, ..)| *release == BUILT)
        .count()
}

fn worker(body: &str) -> String {
    worker_then(body, "true")
}

/// As [`worker`], running `after` once stdin is closed.
fn worker_then(body: &str, after: &str) -> String {
    let script = format!(r#"{HELLO}; while read -r line; do {FIELDS}; {body}; done; {after}"#);
    shlex::try_join(["sh", "-c", script.as_str()]).expect("joinable")
}

const COPIES: &str = r#"cp "$(dirname "$model")/test_data_set_0/output_0.pb" "$out"; printf '{"id": %s, "ok": true}\n' "$id""#;

fn check(
    ws: &tempfile::TempDir,
    command: &str,
    timeout: f64,
) -> (Result<Summary, crate::Error>, String) {
    let mut out = Vec::new();
    let io = ws.path().join("io");
    let data = ws.path().join(crate::index::DATA_DIR);
    let got = run(
        &data,
        command,
        Duration::from_secs_f64(timeout),
        &io,
        &mut out,
    );
    assert!(!io.exists(), "the check removes its files");
    (got, String::from_utf8(out).expect("utf-8"))
}

#[test]
fn a_worker_that_keeps_the_protocol_passes_the_check() {
    let ws = data();
    let (got, text) = check(&ws, &worker(COPIES), 10.0);
    let s = got.expect("checked");
    assert_eq!(
        (s.matched, s.skipped, s.broken),
        (ran(), CASES.len() - ran(), 0),
        "{text}"
    );
    assert!(s.ok());
    for want in [
        "start: hello after",
        r#"< {"protocol": 1, "runtime": "sh", "version": "0"}"#,
        r#"> {"id":1,"inputs":[{"name":"x0","path":"#,
        r#"< {"id": 2, "ok": true}"#,
        "equal to the expected ones",
        "skipped: onnx 1.22.0 test_concat_3d_axis_negative_2 is not in",
        "the worker exited (exit status: 0)",
    ] {
        assert!(text.contains(want), "{want:?} missing from:\n{text}");
    }
}

/// Wrong outputs and refusals are the runtime's to answer for, not protocol breaks.
#[test]
fn wrong_outputs_and_refusals_are_not_protocol_problems() {
    let ws = data();
    // The input (FLOAT) written as the output (DOUBLE expected): a dtype mismatch.
    let wrong = worker(
        r#"cp "$(dirname "$model")/test_data_set_0/input_0.pb" "$out"; printf '{"id": %s, "ok": true}\n' "$id""#,
    );
    let s = check(&ws, &wrong, 10.0).0.expect("checked");
    assert_eq!((s.differ, s.broken), (ran(), 0));
    let refuses =
        worker(r#"printf '{"id": %s, "ok": false, "stage": "load", "error": "no"}\n' "$id""#);
    let (got, text) = check(&ws, &refuses, 10.0);
    let s = got.expect("checked");
    assert_eq!((s.refused, s.broken), (ran(), 0), "{text}");
    assert!(
        text.contains("answered: unsupported (refused at load): no"),
        "{text}"
    );
}

/// The case whose data shape differs from the declared one is built in memory, so it reaches
/// the worker whatever the data directory holds (the official ones are refused by the reader).
#[test]
fn the_shape_mismatch_case_reaches_the_worker() {
    let ws = data();
    let (got, text) = check(&ws, &worker(COPIES), 10.0);
    let s = got.expect("checked");
    assert_eq!((s.matched, s.broken), (ran(), 0), "{text}");
    let n = CASES.len();
    for want in [
        format!("case {n}/{n}: built/opset15/test_castlike_FLOAT_to_BFLOAT16"),
        r#"> {"id":4,"inputs":[{"name":"input","path":"#.to_string(),
        r#"{"name":"like","path":"#.to_string(),
    ] {
        assert!(text.contains(&want), "{want:?} missing from:\n{text}");
    }
    let dir = ws.path().join("built");
    let case = built_case(&dir, "test_castlike_FLOAT_to_BFLOAT16").expect("built");
    let like = &case.data_sets[0].inputs[1];
    assert_eq!(
        (like.shape(), like.dtype()),
        (&[1][..], vocab::DataType::Bfloat16)
    );
    assert_eq!(
        case.model.graph.inputs[1].shape,
        Some(vec![Some(3), Some(4)])
    );
    // As read from its files, the suite's reader refuses it, as it refuses the official ones.
    let e = load_case(&dir).expect_err("the reader checks declared shapes");
    assert!(e.to_string().contains("declares shape [3, 4]"), "{e}");
}

#[test]
fn each_broken_step_is_named_and_fails_the_check() {
    let ws = data();
    let cases: [(&str, String, usize, &str); 5] = [
        (
            "answers before its hello",
            shlex::try_join(["sh", "-c", r#"printf '{"id": 1, "ok": true}\n'; cat"#])
                .expect("join"),
            1,
            r#"has no "protocol""#,
        ),
        (
            "does not start",
            "/nonexistent/worker --flag".into(),
            1,
            "cannot start worker '/nonexistent/worker'",
        ),
        (
            "answers ok without writing",
            worker(r#"printf '{"id": %s, "ok": true}\n' "$id""#),
            ran(),
            "answered ok but wrote no file for output 'y0'",
        ),
        (
            "answers with a wrong id",
            worker(r#"printf '{"id": 99, "ok": true}\n'"#),
            ran(),
            "has id 99, but request 1 was sent",
        ),
        (
            "does not exit when stdin closes",
            worker_then(COPIES, "sleep 5"),
            1,
            "did not exit within",
        ),
    ];
    for (what, command, broken, why) in cases {
        let (got, text) = check(&ws, &command, 1.0);
        let s = got.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(s.broken, broken, "{what}:\n{text}");
        assert!(!s.ok(), "{what}");
        assert!(
            text.contains("PROTOCOL") && text.contains(why),
            "{what}: {why:?} missing:\n{text}"
        );
    }
}

#[test]
fn a_check_that_cannot_be_made_is_an_error() {
    let ws = data();
    let mut out = Vec::new();
    let io = ws.path().join("io");
    let missing = ws.path().join("nowhere");
    let e = run(&missing, "true", Duration::from_secs(1), &io, &mut out)
        .unwrap_err()
        .to_string();
    assert!(e.contains("nowhere") && e.contains("does not exist"), "{e}");
    let data = ws.path().join(crate::index::DATA_DIR);
    let e = run(&data, "sh -c 'open", Duration::from_secs(1), &io, &mut out)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unclosed quote"), "{e}");
    std::fs::remove_file(data.join(crate::index::INDEX_FILE)).expect("rm");
    let e = run(&data, "true", Duration::from_secs(1), &io, &mut out)
        .unwrap_err()
        .to_string();
    assert!(e.contains("index.json") && e.contains("fetch-tests"), "{e}");
}
