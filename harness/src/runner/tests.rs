//! The runner on throw-away workspaces: settings, lists, and setup checks that no filter can
//! switch off.

use super::*;
use crate::report::load;
use crate::report::JSON_FILE;
use crate::testkit::{instance, scratch, write_index, write_lock};

fn names(specs: &[Spec]) -> Vec<&str> {
    specs.iter().map(|s| s.name.as_str()).collect()
}

/// The message of failed setup check `name`.
fn guard_message<'a>(prep: &'a Setup, name: &str) -> &'a str {
    prep.guards
        .iter()
        .find(|g| g.name == name)
        .map_or("", Spec::guard_text)
}

/// libtest arguments as after `cargo test --test onnx_backend --`, with libtest's own output
/// sent to a log file in the workspace (it bypasses the test harness's capture).
fn args(ws: &Path, list: &[&str]) -> Arguments {
    let log = ws.join("libtest.log").display().to_string();
    let argv = ["onnx_backend", "--logfile", &log]
        .into_iter()
        .chain(list.iter().copied());
    Arguments::from_iter(argv.map(String::from))
}

/// Writes native's known-failures list, empty, in the workspace `ws`: a list must exist.
fn with_empty_list(ws: &Path) {
    std::fs::create_dir_all(ws.join("tests/known-failures")).expect("dir");
    let empty = r#"{"format": 2, "entries": []}"#;
    std::fs::write(ws.join("tests/known-failures/native.json"), empty).expect("write");
}

/// A workspace with one own case copied from the real `tests/cases`.
fn with_own_case(ws: &Path) {
    copy_dir(
        &own_case(),
        &ws.join("tests/cases/test_cast13_BOOL_to_INT64"),
    );
}

/// The real own case the runner tests run (Cast-13, BOOL to INT64).
fn own_case() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/test_cast13_BOOL_to_INT64")
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("list");
        let dest = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("dir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

/// The tree of the linked test deep suite (`testkit::deep_source`) under `ws`'s target
/// directory, holding the own case as its one case `c`; returns the tree's root.
#[cfg(feature = "native")] // only the tests that run the case use it
fn with_deep_tree(ws: &Path) -> PathBuf {
    crate::source::link_deep(crate::testkit::deep_source);
    let tree = ws.join("target/onnx-conformance/deep");
    copy_dir(&own_case(), &tree.join("cases/c"));
    tree
}

/// The deep source decides every difference from the official one: its own trials (and not
/// the own cases), bit-exact comparison, no lists, no lock, its own report directory, and a
/// provenance that names the tree and is never complete.
#[cfg(feature = "native")] // runs the case on the native backend
#[test]
fn a_deep_tree_is_its_own_source() {
    let ws_tmp = scratch("deep-source");
    let ws = ws_tmp.path();
    with_own_case(ws);
    let tree = with_deep_tree(ws);
    // The official data's lock is there, and says nothing of the tree.
    std::fs::write(
        ws.join(crate::index::LOCK_FILE),
        r#"{"format":1,"ops":[],"releases":[]}"#,
    )
    .expect("lock");
    let env = Env::of(&[(settings::SUITE_VAR, "deep")]);
    let prep = prepare(ws, &env);
    assert!(prep.guards.is_empty(), "{:?}", names(&prep.guards));
    assert_eq!(names(&prep.cases), ["deep/opset13/c"]);
    assert!(prep.ctx.strict);
    assert_eq!(prep.ctx.lock_file, None);
    assert_eq!(prep.ctx.data_root, tree.join("cases"));
    assert_eq!(prep.ctx.out_dir, tree.join("reports/native"));
    assert_eq!(prep.ctx.known_list, None);
    assert!(run(ws, &args(ws, &[]), &env, None));
    let info = load(&tree.join("reports/native").join(JSON_FILE))
        .expect("report")
        .run
        .expect("run info");
    assert_eq!(info.source, crate::provenance::Source::Deep);
    let named = info.deep_tree.expect("the tree is named");
    assert_eq!(
        (named.path, named.content_sha256.as_str()),
        (tree.display().to_string(), "abc")
    );
    assert!(!info.complete);
    assert_eq!(
        info.data_lock_sha256, None,
        "the official data's lock says nothing of it"
    );
    // A tree its writer calls stale: one stale guard, and the run fails.
    std::fs::write(tree.join("stale"), "").expect("write");
    let prep = prepare(ws, &env);
    assert_eq!(names(&prep.guards), ["deep/stale"]);
    assert!(!run(ws, &args(ws, &[]), &env, None));
}

/// In-process, without libtest: the caller's deep source runs on the caller's backend, the
/// report comes back and is written; an environment asking for another source is a failing
/// setup check.
#[cfg(feature = "native")]
#[test]
fn a_suite_runs_in_process_and_returns_its_report() {
    let ws_tmp = scratch("in-process");
    let ws = ws_tmp.path();
    let tree = with_deep_tree(ws);
    let source = crate::source::Source::Indexed(crate::testkit::indexed(&tree));
    let given = || Given {
        source: Some(source.clone()),
        ..Given::new(BackendHandle(Arc::new(crate::backend::Native)))
    };
    let layout = Layout::workspace(ws);
    let report = run_in_process(&layout, &Env::of(&[]), given()).expect("reports written");
    let outcomes: Vec<_> = report
        .trials
        .iter()
        .map(|t| (t.name.as_str(), t.outcome))
        .collect();
    assert_eq!(outcomes, [("deep/opset13/c", Outcome::Pass)]);
    assert!(report.strict);
    assert!(tree.join("reports/native").join(JSON_FILE).is_file());
    let env = Env::of(&[(DATA_VAR, "elsewhere")]);
    let report = run_in_process(&layout, &env, given()).expect("reports written");
    let failed: Vec<_> = report
        .trials
        .iter()
        .filter(|t| t.outcome != Outcome::Pass)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(failed, ["settings/suite"]);
}

#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn settings_come_from_the_environment() {
    let ws_tmp = scratch("prepare");
    let ws = ws_tmp.path();
    with_empty_list(ws);
    let prep = prepare(ws, &Env::of(&[]));
    assert!(!prep.ctx.strict && prep.ctx.source == crate::source::Source::Official);
    assert_eq!(prep.ctx.out_dir, ws.join("target/onnx-conformance"));
    assert_eq!(prep.ctx.lock_file, Some(ws.join(crate::index::LOCK_FILE)));
    assert_eq!(names(&prep.guards), [crate::discover::MISSING_TRIAL]);
    assert!(prep.cases.is_empty());
    let vars = [
        (STRICT_VAR, "1"),
        (DATA_VAR, "mine"),
        ("CARGO_TARGET_DIR", "/t"),
    ];
    let prep = prepare(ws, &Env::of(&vars));
    assert!(prep.ctx.strict);
    assert_eq!(
        prep.ctx.source,
        crate::source::Source::Custom(ws.join("mine"))
    );
    assert_eq!(prep.ctx.lock_file, None);
    assert_eq!(prep.ctx.out_dir, Path::new("/t/onnx-conformance"));
    assert_eq!(names(&prep.guards), ["custom/missing"]);
    let prep = prepare(ws, &Env::of(&[(STRICT_VAR, "yes")]));
    assert!(names(&prep.guards).contains(&"settings/strict"));
}

#[test]
fn bad_lists_and_stale_entries_are_failing_checks() {
    let ws_tmp = scratch("prepare-lists");
    let ws = ws_tmp.path();
    std::fs::create_dir_all(ws.join("tests")).expect("dir");
    std::fs::write(ws.join("tests/tolerances.json"), "[]").expect("write");
    let prep = prepare(ws, &Env::of(&[]));
    assert!(names(&prep.guards).contains(&"settings/tolerances"));
    let known =
        r#"{"format":1,"entries":[{"pattern":"gone","match":"exact","kind":"k","reason":"r"}]}"#;
    std::fs::create_dir_all(ws.join("tests/known-failures")).expect("dir");
    std::fs::write(ws.join("tests/known-failures/native.json"), known).expect("write");
    std::fs::create_dir_all(ws.join("tests/cases/test_a")).expect("dir");
    std::fs::write(ws.join("tests/cases/test_a/model.onnx"), b"").expect("write");
    // (The data list, compiled in, is stale in this throw-away workspace; only the native
    // list's entries matter here.)
    let stale =
        |prep: &Setup| guard_message(prep, "settings/known-failures-stale").contains("native.json");
    // Checked only against the full official list, never against another tree.
    assert!(!stale(&prepare(ws, &Env::of(&[(DATA_VAR, "tests/cases")]))));
    write_index(ws, vec![instance("1.22.0", "test_a", 25)]);
    write_lock(ws, "1.22.0", &["test_a"]);
    assert!(stale(&prepare(ws, &Env::of(&[]))));
    let known = known.replace("\"gone\"", "\"onnx-1.22.0/opset25/test_a\"");
    std::fs::write(ws.join("tests/known-failures/native.json"), known).expect("write");
    assert!(!stale(&prepare(ws, &Env::of(&[]))));
    // A list that does not parse is a failing check naming the file and the entry.
    let bad = r#"{"format":2,"entries":[{"types":["FLOAT9"],"kind":"k","reason":"r"}]}"#;
    std::fs::write(ws.join("tests/known-failures/native.json"), bad).expect("write");
    let prep = prepare(ws, &Env::of(&[]));
    let msg = guard_message(&prep, "settings/known-failures");
    assert!(
        msg.contains("native.json") && msg.contains("entry 0") && msg.contains("FLOAT9"),
        "{msg}"
    );
}

/// A list that is named must exist: native's default list missing, or the list
/// `ONNX_CONFORMANCE_KNOWN_FAILURES` names for a worker, is a failing check naming the file,
/// never an empty list; a deep tree, which judges by no list, reads none.
#[test]
fn a_missing_list_is_a_failing_check_naming_it() {
    let ws_tmp = scratch("missing-list");
    let ws = ws_tmp.path();
    let data = (DATA_VAR, "tests/cases");
    let prep = prepare(ws, &Env::of(&[data]));
    let msg = guard_message(&prep, known::LIST_CHECK);
    assert!(
        msg.contains("tests/known-failures/native.json")
            && msg.contains("no such known-failures list"),
        "{msg}"
    );
    let env = Env::of(&[
        data,
        (BACKEND_VAR, "worker:w=sh -c 'exit 1'"),
        (KNOWN_VAR, "lists/typo.json"),
    ]);
    let msg = guard_message(&prepare(ws, &env), known::LIST_CHECK).to_string();
    assert!(msg.contains("lists/typo.json"), "{msg}");
    with_empty_list(ws);
    let prep = prepare(ws, &Env::of(&[data]));
    assert_eq!(guard_message(&prep, known::LIST_CHECK), "");
}

/// Two entries selecting the same trial that cannot both hold (a mismatch and a refusal at
/// load) fail the run whatever the filter, naming both entries, though the trial would judge
/// green by the first.
#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn contradicting_entries_fail_the_run_whatever_the_filter() {
    let ws_tmp = scratch("contradiction");
    let ws = ws_tmp.path();
    with_own_case(ws);
    let list = r#"{"format": 2, "entries": [
        {"trials": ["own/*/test_cast13_BOOL_to_INT64"], "kind": "wrong", "reason": "r",
         "failure_kind": "mismatch", "expect": ["differ"]},
        {"types": ["BOOL"], "kind": "refused", "reason": "r",
         "failure_kind": "unsupported", "expect": ["refused at load"]}]}"#;
    std::fs::create_dir_all(ws.join("tests/known-failures")).expect("dir");
    std::fs::write(ws.join("tests/known-failures/native.json"), list).expect("write");
    let env = Env::of(&[(DATA_VAR, "tests/cases")]);
    let msg = guard_message(&prepare(ws, &env), known::CONTRADICTION_CHECK).to_string();
    for want in [
        "native.json entries 0 (\"wrong\"",
        "and 1 (\"refused\"",
        "cannot both hold",
    ] {
        assert!(msg.contains(want), "{want:?} not in {msg}");
    }
    assert!(!run(ws, &args(ws, &["--skip", "own"]), &env, None));
}

#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn a_filter_cannot_switch_off_the_missing_data_check() {
    let ws_tmp = scratch("guard-filter");
    let ws = ws_tmp.path();
    with_empty_list(ws);
    with_own_case(ws);
    // The own case alone passes.
    let env = Env::of(&[(DATA_VAR, "tests/cases")]);
    assert!(run(ws, &args(ws, &["opset13"]), &env, None));
    // No official data: the filter selects only the passing own case, the run still fails,
    // and the report holds the check that the filter left out.
    assert!(!run(ws, &args(ws, &["opset13"]), &Env::of(&[]), None));
    let report = load(&ws.join("target/onnx-conformance").join(JSON_FILE)).expect("report");
    let got: Vec<(&str, Outcome)> = report
        .trials
        .iter()
        .map(|t| (t.name.as_str(), t.outcome))
        .collect();
    assert_eq!(
        got,
        [
            (crate::discover::MISSING_TRIAL, Outcome::Fail),
            ("own/opset13/test_cast13_BOOL_to_INT64", Outcome::Pass)
        ]
    );
    // A filter matching nothing at all fails too.
    assert!(!run(ws, &args(ws, &["no-such-trial"]), &Env::of(&[]), None));
}

#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn a_filter_cannot_switch_off_a_bad_variable() {
    let ws_tmp = scratch("guard-env");
    let ws = ws_tmp.path();
    with_empty_list(ws);
    with_own_case(ws);
    let data = (DATA_VAR, "tests/cases");
    for bad in [(STRICT_VAR, "yes"), ("ONNX_CONFORMANCE_STRCT", "1")] {
        let env = Env::of(&[data, bad]);
        assert!(!run(ws, &args(ws, &["opset13"]), &env, None), "{bad:?}");
        assert!(!run(
            ws,
            &args(ws, &["--exact", "own/opset13/test_cast13_BOOL_to_INT64"]),
            &env,
            None
        ));
    }
    assert!(run(
        ws,
        &args(ws, &["opset13"]),
        &Env::of(&[data, (STRICT_VAR, "true")]),
        None
    ));
}

#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn the_report_records_how_the_run_was_made() {
    let ws_tmp = scratch("provenance-run");
    let ws = ws_tmp.path();
    with_empty_list(ws);
    with_own_case(ws);
    write_index(ws, vec![]);
    std::fs::write(
        ws.join(crate::index::LOCK_FILE),
        r#"{"format":1,"ops":[],"releases":[]}"#,
    )
    .expect("lock");
    let out = ws.join("target/onnx-conformance");
    // After the first, complete run, the partial runs report under partial/.
    let run_info = |a: &[&str], env: &Env| {
        assert!(run(ws, &args(ws, a), env, None));
        let partial = out.join(crate::report::PARTIAL_DIR).join(JSON_FILE);
        let json = match partial.exists() {
            true => partial,
            false => out.join(JSON_FILE),
        };
        load(&json).expect("report").run.expect("run info")
    };
    let info = run_info(&[], &Env::of(&[]));
    assert!(info.complete, "{info:?}");
    assert_eq!(
        (info.listed, info.ran, info.source),
        (1, 1, crate::provenance::Source::Official)
    );
    assert!(info.filters.is_empty() && info.data_lock_sha256.is_some());
    assert!(info.started.ends_with('Z'));
    let info = run_info(&["opset13"], &Env::of(&[]));
    assert!(!info.complete);
    assert_eq!(info.filters, ["opset13"]);
    let info = run_info(&["--skip", "x"], &Env::of(&[]));
    assert!(!info.complete);
    let info = run_info(&[], &Env::of(&[(DATA_VAR, "tests/cases")]));
    assert!(!info.complete);
    assert_eq!(info.source, crate::provenance::Source::Custom);
}

/// A worker that dies before its hello: the own case fails as a crash quoting its stderr,
/// under the backend asked for and in its report directory, never as a native pass.
#[test]
fn a_backend_that_cannot_start_fails_the_cases_under_its_own_name() {
    let ws_tmp = scratch("broken-backend");
    let ws = ws_tmp.path();
    with_own_case(ws);
    let backend = "worker:broken=sh -c 'echo cannot load libfoo.so >&2; exit 1'";
    let env = Env::of(&[
        (DATA_VAR, "tests/cases"),
        (crate::settings::BACKEND_VAR, backend),
        (STRICT_VAR, "1"),
        (KNOWN_VAR, "lists/w.json"),
    ]);
    assert!(!run(ws, &args(ws, &[]), &env, None));
    assert!(!ws.join("target/onnx-conformance").join(JSON_FILE).exists());
    let report = load(
        &ws.join("target/onnx-conformance/backend-broken")
            .join(JSON_FILE),
    )
    .expect("the report of the backend asked for");
    assert_eq!(report.backend.name, "broken");
    let case = report
        .trials
        .iter()
        .find(|t| t.name == "own/opset13/test_cast13_BOOL_to_INT64")
        .expect("the case ran");
    assert_eq!(case.outcome, Outcome::Fail);
    assert_eq!(case.failure_kind, Some(crate::outcome::FailureKind::Crash));
    assert_eq!(case.backend.name, "broken");
    let message = case.message.as_deref().unwrap_or("");
    assert!(
        message.contains("backend broken could not start"),
        "{message}"
    );
    // The rerun line reruns the worker, command line and all.
    assert!(
        message.contains("ONNX_CONFORMANCE_BACKEND='worker:broken=sh -c"),
        "{message}"
    );
    assert!(message.contains("cannot load libfoo.so"), "{message}");
    assert!(report.trials.iter().any(|t| t.name == "settings/backend"));
    // The rerun line, split back as a shell would, sets everything this run was made with.
    let rerun = message.lines().find_map(|l| l.strip_prefix("rerun: "));
    let words = shlex::split(rerun.expect("a rerun line")).expect("shell words");
    for want in [
        format!("{}={backend}", crate::settings::BACKEND_VAR),
        format!("{KNOWN_VAR}={}", ws.join("lists/w.json").display()),
        format!("{STRICT_VAR}=1"),
        format!("{DATA_VAR}={}", ws.join("tests/cases").display()),
        "own/opset13/test_cast13_BOOL_to_INT64".to_string(),
    ] {
        assert!(words.contains(&want), "{want:?} not in {words:?}");
    }
    assert_eq!(report.known_failures.as_deref(), Some("lists/w.json"));
}

/// From another repository: only the data directory is given. A directory that does not
/// exist is a failing setup check naming it; with no lock file, no completeness check runs
/// and the report records no lock hash; no own cases or tolerances are read.
#[test]
fn a_suite_outside_this_repository_reads_only_what_it_is_given() {
    let ws_tmp = scratch("suite");
    let ws = ws_tmp.path();
    with_own_case(ws);
    let layout = |data: &str| Suite::new(ws, data, BackendHandle(Arc::new(Unstartable))).layout;
    let given = || Some(Given::new(BackendHandle(Arc::new(Unstartable))));
    let prep = prepare_with(&layout("no/such/data"), &Env::of(&[]), given());
    assert_eq!(names(&prep.guards), [crate::discover::MISSING_TRIAL]);
    let SpecKind::Guard(msg) = &prep.guards[0].kind else {
        panic!("a guard")
    };
    assert!(
        msg.contains(&format!(
            "the data directory {}",
            ws.join("no/such/data").display()
        )),
        "{msg}"
    );
    assert!(
        prep.cases.is_empty(),
        "tests/cases is not read unless given"
    );
    write_index(ws, vec![instance("1.22.0", "test_cast_x", 25)]);
    let prep = prepare_with(&layout("onnx-backend-data"), &Env::of(&[]), given());
    assert!(prep.guards.is_empty(), "no lock, no completeness check");
    assert_eq!(names(&prep.cases), ["onnx-1.22.0/opset25/test_cast_x"]);
    assert_eq!(prep.ctx.lock_file, None);
    let suite = Suite::new(
        ws,
        "onnx-backend-data",
        BackendHandle(Arc::new(Unstartable)),
    )
    .lock_file("lock.json")
    .own_cases("tests/cases");
    let prep = prepare_with(&suite.layout, &Env::of(&[]), given());
    assert_eq!(names(&prep.guards), ["onnx-backend-data/lock"]);
    assert!(names(&prep.cases).contains(&"own/opset13/test_cast13_BOOL_to_INT64"));
}

/// A backend for tests that need one but never run a case.
struct Unstartable;

impl crate::backend::Backend for Unstartable {
    fn info(&self) -> crate::outcome::BackendInfo {
        crate::outcome::BackendInfo::default()
    }

    fn prepare<'a>(
        &'a self,
        _: crate::backend::ModelFile<'a>,
    ) -> Result<Box<dyn crate::backend::Prepared + 'a>, crate::backend::BackendFailure> {
        Err(crate::backend::BackendFailure::new(
            crate::outcome::FailureKind::Crash,
            "never started",
        ))
    }
}

/// A worker that declares opset 24 at most (protocol v1's optional `max_opset`) on an
/// opset-25 case: the case is `predates` and never reaches the worker. Unlisted, it fails the
/// run saying how to list it; listed with failure kind `predates`, the run passes and the
/// reports count it apart.
#[test]
fn a_runtime_that_predates_a_case_fails_the_run_until_listed() {
    use prost::Message;
    let ws_tmp = scratch("predates");
    let ws = ws_tmp.path();
    let from =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/test_cast13_BOOL_to_INT64");
    let to = ws.join("newer/test_cast_BOOL_to_INT64");
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.expect("list");
        let dest = to.join(entry.path().strip_prefix(&from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("dir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
    // The same Cast, at opset 25.
    let model_path = to.join("model.onnx");
    let bytes = std::fs::read(&model_path).expect("model");
    let mut model = crate::proto::ModelProto::decode(bytes.as_slice()).expect("a model");
    for import in &mut model.opset_import {
        import.version = 25;
    }
    std::fs::write(&model_path, model.encode_to_vec()).expect("write");
    // Sent a request, this worker would echo it: a protocol violation, never a pass.
    let hello = r#"{"protocol": 1, "runtime": "old", "version": "1", "max_ir_version": 20, "max_opset": {"": 24}}"#;
    let script = format!("printf '%s\\n' '{hello}'; cat");
    let backend = format!(
        "worker:old=sh -c {}",
        shlex::try_quote(&script).expect("quote")
    );
    let env = Env::of(&[
        (DATA_VAR, "newer"),
        (BACKEND_VAR, &backend),
        (KNOWN_VAR, "lists/old.json"),
    ]);
    let name = "custom/opset25/test_cast_BOOL_to_INT64";
    let report_file = ws
        .join("target/onnx-conformance/backend-old")
        .join(JSON_FILE);
    let trial = |report: &Report| {
        report
            .trials
            .iter()
            .find(|t| t.name == name)
            .cloned()
            .expect("the case ran")
    };

    assert!(
        !run(ws, &args(ws, &[]), &env, None),
        "unlisted: the run fails"
    );
    let report = load(&report_file).expect("report");
    let t = trial(&report);
    assert_eq!(t.outcome, Outcome::Fail);
    assert_eq!(t.failure_kind, Some(crate::outcome::FailureKind::Predates));
    let message = t.message.as_deref().unwrap_or("");
    for want in [
        "backend old: runtime predates opset 25 (it supports at most 24)",
        "list it in lists/old.json",
        "\"failure_kind\": \"predates\"",
        "docs/running.md",
    ] {
        assert!(message.contains(want), "{want:?} not in {message}");
    }
    let last = message.lines().last().unwrap_or("");
    assert!(
        last.starts_with("rerun: "),
        "the rerun line stays last: {message}"
    );

    let list = r#"{"format": 2, "entries": [{"trials": ["custom/opset25/*"],
        "kind": "older runtime", "reason": "old loads opset 24 at most",
        "expect": ["runtime predates opset 25"], "failure_kind": "predates"}]}"#;
    std::fs::create_dir_all(ws.join("lists")).expect("dir");
    std::fs::write(ws.join("lists/old.json"), list).expect("list");
    assert!(
        run(ws, &args(ws, &[]), &env, None),
        "listed: the run passes"
    );
    let report = load(&report_file).expect("report");
    let t = trial(&report);
    assert_eq!(t.outcome, Outcome::Predates);
    assert_eq!(t.failure_kind, Some(crate::outcome::FailureKind::Predates));
    let mut tally = report::Tally::default();
    report
        .trials
        .iter()
        .filter(|t| t.case.is_some())
        .for_each(|t| tally.add(t));
    assert_eq!((tally.predates, tally.failed, tally.known), (1, 0, 0));
    let table = report::summary_table(&report);
    assert!(table.contains("predates"), "{table}");

    // A list that expects another kind does not hide it.
    let other = list.replace(
        "\"failure_kind\": \"predates\"",
        "\"failure_kind\": \"unsupported\"",
    );
    std::fs::write(ws.join("lists/old.json"), other).expect("list");
    assert!(
        !run(ws, &args(ws, &[]), &env, None),
        "listed as another kind"
    );
    let t = trial(&load(&report_file).expect("report"));
    assert_eq!(t.outcome, Outcome::Fail);
}

/// A run whose report directory another run holds: with `stop` it fails naming the directory
/// and the holder, and the earlier reports stay as they were; with `wait` (the default) it
/// runs once the holder lets go.
#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn a_run_on_a_busy_report_directory_stops_or_waits_and_never_mixes() {
    use schema::files::{DirLock, WhenBusy};
    let ws_tmp = scratch("busy-reports");
    let ws = ws_tmp.path();
    with_own_case(ws);
    with_empty_list(ws);
    write_index(ws, vec![]);
    std::fs::write(
        ws.join(crate::index::LOCK_FILE),
        r#"{"format":1,"ops":[],"releases":[]}"#,
    )
    .expect("lock");
    let out = ws.join("target/onnx-conformance");
    let json = out.join(JSON_FILE);
    assert!(run(ws, &args(ws, &[]), &Env::of(&[]), None));
    let before = std::fs::read(&json).expect("first report");

    let held = DirLock::acquire(&out, "another run", WhenBusy::Stop, |_| {}).expect("lock");
    let stop = Env::of(&[(settings::WHEN_BUSY_VAR, "stop")]);
    assert!(!run(ws, &args(ws, &[]), &stop, None));
    assert_eq!(std::fs::read(&json).expect("report"), before);
    let given = Given::new(BackendHandle(Arc::new(crate::backend::Native)));
    let e = run_in_process(&Layout::workspace(ws), &stop, given).expect_err("a busy directory");
    assert!(e.to_string().contains("another run"), "{e}");
    assert!(e.to_string().contains(&out.display().to_string()), "{e}");

    let waiting = std::thread::spawn({
        let ws = ws.to_path_buf();
        move || run(&ws, &args(&ws, &[]), &Env::of(&[]), None)
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        !waiting.is_finished(),
        "a waiting run went ahead of the holder"
    );
    drop(held);
    assert!(waiting.join().expect("the waiting run"));
    let after = load(&json).expect("the waiting run's report");
    assert_eq!(after.trials.len(), 1);
}

#[test]
fn a_bad_when_busy_value_is_a_failing_check() {
    let ws_tmp = scratch("when-busy");
    let ws = ws_tmp.path();
    let prep = prepare_with(
        &Layout::workspace(ws),
        &Env::of(&[(settings::WHEN_BUSY_VAR, "later")]),
        None,
    );
    assert!(
        guard_message(&prep, "settings/when-busy").contains("wait"),
        "{:?}",
        names(&prep.guards)
    );
}

/// A partial run (a filter) never replaces a complete run's reports: it reports under
/// `partial/`, and the complete run's files stay byte for byte; a later complete run
/// replaces them, and a partial run with no complete one before it reports in place.
#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn a_partial_run_never_replaces_a_complete_runs_reports() {
    let ws_tmp = scratch("partial-after-complete");
    let ws = ws_tmp.path();
    with_own_case(ws);
    with_empty_list(ws);
    write_index(ws, vec![]);
    std::fs::write(
        ws.join(crate::index::LOCK_FILE),
        r#"{"format":1,"ops":[],"releases":[]}"#,
    )
    .expect("lock");
    let out = ws.join("target/onnx-conformance");
    let partial = out.join(crate::report::PARTIAL_DIR);
    assert!(run(ws, &args(ws, &["opset13"]), &Env::of(&[]), None));
    assert!(!partial.exists(), "nothing complete to keep yet");
    assert!(
        !load(&out.join(JSON_FILE))
            .expect("report")
            .run
            .expect("run")
            .complete
    );

    assert!(run(ws, &args(ws, &[]), &Env::of(&[]), None));
    let complete: Vec<Vec<u8>> = [
        "report.json",
        "report.md",
        "report.html",
        "report.junit.xml",
    ]
    .iter()
    .map(|f| std::fs::read(out.join(f)).expect("complete report"))
    .collect();
    assert!(run(ws, &args(ws, &["opset13"]), &Env::of(&[]), None));
    for (f, before) in [
        "report.json",
        "report.md",
        "report.html",
        "report.junit.xml",
    ]
    .iter()
    .zip(&complete)
    {
        assert_eq!(
            &std::fs::read(out.join(f)).expect("kept"),
            before,
            "{f} changed"
        );
    }
    let filtered = load(&partial.join(JSON_FILE)).expect("the partial run's report");
    assert_eq!(filtered.run.expect("run").filters, ["opset13"]);
}

/// A caller's choice of strict comparison and of the report directory stands: the reports go
/// where it says (none under the target directory), and say strict.
#[cfg(feature = "native")] // runs the own case on the native backend
#[test]
fn a_suite_reports_where_its_caller_says_and_compares_as_it_says() {
    let ws_tmp = scratch("suite-out");
    let ws = ws_tmp.path();
    with_own_case(ws);
    write_index(ws, vec![]);
    let out = ws.join("elsewhere/reports");
    let given = Given {
        strict: true,
        report_dir: Some(out.clone()),
        ..Given::new(BackendHandle(Arc::new(crate::backend::Native)))
    };
    let report = run_in_process(&Layout::workspace(ws), &Env::of(&[]), given).expect("run");
    assert!(report.strict);
    assert!(load(&out.join(JSON_FILE)).expect("written there").strict);
    assert!(!ws.join("target/onnx-conformance").join(JSON_FILE).exists());
}

/// A caller's filters select the cases holding any of them; the report records them and is
/// partial, and a failed setup check still runs.
#[cfg(feature = "native")] // runs the own cases on the native backend
#[test]
fn a_suites_filters_select_cases_by_any_of_them() {
    let ws_tmp = scratch("suite-filters");
    let ws = ws_tmp.path();
    with_own_case(ws);
    copy_dir(
        &own_case().with_file_name("test_cast13_INT32_to_FLOAT"),
        &ws.join("tests/cases/test_cast13_INT32_to_FLOAT"),
    );
    write_index(ws, vec![]);
    let given = |filters: &[&str]| Given {
        filters: filters.iter().map(|f| f.to_string()).collect(),
        ..Given::new(BackendHandle(Arc::new(crate::backend::Native)))
    };
    let layout = Layout::workspace(ws);
    let ran = |filters: &[&str]| {
        let report = run_in_process(&layout, &Env::of(&[]), given(filters)).expect("run");
        let names: Vec<String> = report.trials.iter().map(|t| t.name.clone()).collect();
        (names, report.run.expect("run info"))
    };
    let (names, run) = ran(&["BOOL_to_INT64", "nothing-holds-this"]);
    assert!(
        names
            .iter()
            .any(|n| n.ends_with("test_cast13_BOOL_to_INT64")),
        "{names:?}"
    );
    assert!(
        !names
            .iter()
            .any(|n| n.ends_with("test_cast13_INT32_to_FLOAT")),
        "{names:?}"
    );
    assert_eq!(run.filters, ["BOOL_to_INT64", "nothing-holds-this"]);
    assert!(!run.complete);
    let (names, _) = ran(&["BOOL_to_INT64", "INT32_to_FLOAT"]);
    assert_eq!(
        names.iter().filter(|n| n.starts_with("own/")).count(),
        2,
        "{names:?}"
    );
}

/// A run resumed from a journal runs only the cases it lacks and reports them all; the
/// journal goes once the reports are written.
#[cfg(feature = "native")] // runs the own cases on the native backend
#[test]
fn a_resumed_run_runs_only_what_its_journal_lacks() {
    let ws_tmp = scratch("resume");
    let ws = ws_tmp.path();
    with_own_case(ws);
    copy_dir(
        &own_case().with_file_name("test_cast13_INT32_to_FLOAT"),
        &ws.join("tests/cases/test_cast13_INT32_to_FLOAT"),
    );
    write_index(ws, vec![]);
    let out = ws.join("out");
    let given = |resume: bool| Given {
        report_dir: Some(out.clone()),
        journal: Some(resume),
        ..Given::new(BackendHandle(Arc::new(crate::backend::Native)))
    };
    let layout = Layout::workspace(ws);
    // An interrupted run left the BOOL case in its journal, failed (a record no run of
    // today's code would make, so that the report shows which one it holds).
    let prep = prepare_with(&layout, &Env::of(&[]), Some(given(false)));
    let (j, _) = open_journal(&layout, &prep, false).expect("journal");
    let bool_case = "own/opset13/test_cast13_BOOL_to_INT64";
    let mut earlier = TrialRecord::for_test(bool_case, Outcome::Fail);
    earlier.message = Some("from the journal".into());
    j.record(&earlier);
    drop(j);
    assert!(!run_with(
        &layout,
        &args(ws, &[]),
        &Env::of(&[]),
        None,
        Some(given(true))
    ));
    let report = load(&out.join(JSON_FILE)).expect("report");
    let by_name = |n: &str| report.trials.iter().find(|t| t.name == n).cloned();
    let kept = by_name(bool_case).expect("the journal's record");
    assert_eq!(kept.message.as_deref(), Some("from the journal"));
    let ran = by_name("own/opset13/test_cast13_INT32_to_FLOAT").expect("the other case");
    assert_eq!(ran.outcome, Outcome::Pass);
    assert!(
        !out.join("journal.jsonl").exists(),
        "finished: the journal goes"
    );
}
