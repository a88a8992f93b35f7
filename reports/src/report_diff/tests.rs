//! `report --diff` on planted changes: a copy of a report with one trial flipped.

use super::*;
use crate::diff::judge;
use crate::testkit::{report, write};
use harness::backend::FailureKind::{self, Error as KindError, Mismatch, Unsupported};
use harness::known::Outcome::{self, Fail, KnownFailure, Pass};
use harness::report::TrialRecord;
use harness::report::JSON_FILE;

/// A baseline run: passes, a mismatch, a refusal and a known failure.
fn baseline() -> Vec<TrialRecord> {
    vec![
        TrialRecord::official_for_test("test_cast_a", "Cast-25", ("FLOAT", "FLOAT16"), Pass, None),
        TrialRecord::official_for_test(
            "test_cast_b",
            "Cast-25",
            ("FLOAT", "FLOAT8E4M3FN"),
            Pass,
            None,
        ),
        TrialRecord::official_for_test(
            "test_concat_c",
            "Concat-13",
            ("INT64", "INT64"),
            Pass,
            None,
        ),
        TrialRecord::official_for_test(
            "test_cast_d",
            "Cast-25",
            ("DOUBLE", "FLOAT"),
            Fail,
            Some(Mismatch),
        ),
        TrialRecord::official_for_test(
            "test_cast_e",
            "Cast-25",
            ("FLOAT", "INT2"),
            Fail,
            Some(Unsupported),
        ),
        TrialRecord::official_for_test(
            "test_cast_f",
            "Cast-25",
            ("STRING", "FLOAT"),
            KnownFailure,
            Some(Mismatch),
        ),
    ]
}

/// `baseline` with trial `case` set to `outcome` and `kind`.
fn flipped(case: &str, outcome: Outcome, kind: Option<FailureKind>) -> Vec<TrialRecord> {
    let mut trials = baseline();
    let t = trials
        .iter_mut()
        .find(|t| t.case.as_deref() == Some(case))
        .expect("case in the baseline");
    (t.outcome, t.failure_kind) = (outcome, kind);
    trials
}

/// Writes the old and new reports of `backend` and returns their paths.
fn pair(dir: &Path, old: Vec<TrialRecord>, new: Vec<TrialRecord>) -> (String, String) {
    let old = write(dir, "old.json", &report("onnxruntime", "1.31.0", old));
    let new = write(dir, "new.json", &report("onnxruntime", "1.32.0", new));
    (old.display().to_string(), new.display().to_string())
}

/// `report --diff OLD --new NEW` plus `extra`: the text and regressions, and what the task
/// returns with `--fail-on-regression`.
fn run(old: &str, new: &str, extra: &[&str]) -> (String, usize, bool) {
    let mut words = vec!["--diff", old, "--new", new];
    words.extend_from_slice(extra);
    let (text, regressions) = diff_text(Path::new(old), &report_args(&words)).expect("diff");
    (text, regressions, judge(regressions, true).is_err())
}

/// The options `cargo xtask report` gives for `words` (after `report`), with the flags it
/// takes after `--diff OLD`; the target directory is one with no reports.
fn report_args(words: &[&str]) -> DiffOptions {
    let mut options = DiffOptions {
        target: PathBuf::from("no-target"),
        new: None,
        backend: None,
        any_backend: false,
        max_rows: 60,
    };
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        let mut value = || words.next().expect("a value").to_string();
        match word {
            "--diff" => drop(value()),
            "--new" => options.new = Some(value().into()),
            "--backend" => options.backend = Some(value()),
            "--max-rows" => options.max_rows = value().parse().expect("a number"),
            "--any-backend" => options.any_backend = true,
            other => panic!("not a flag of the diff: {other}"),
        }
    }
    options
}

#[test]
fn a_planted_regression_shows_and_fails_the_gate() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (old, new) = pair(
        tmp.path(),
        baseline(),
        flipped("test_cast_b", Fail, Some(Mismatch)),
    );
    let (text, regressions, gate_failed) = run(&old, &new, &[]);
    assert_eq!(regressions, 1, "{text}");
    assert!(
        gate_failed,
        "--fail-on-regression must fail on a regression"
    );
    assert!(
        text.contains("### onnxruntime (1.31.0 -> 1.32.0)"),
        "{text}"
    );
    assert!(text.contains("**1 newly failing**"), "{text}");
    assert!(text.contains("#### Newly failing (1)"), "{text}");
    assert!(
        text.contains(
            "| Cast-25 | FLOAT -> FLOAT8E4M3FN | `onnx-1.22.0/opset25/test_cast_b` | pass | mismatch |"
        ),
        "{text}"
    );
    // Without the flag, the same diff is only printed.
    assert!(judge(regressions, false).is_ok());
}

#[test]
fn a_planted_improvement_passes_the_gate() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (old, new) = pair(tmp.path(), baseline(), flipped("test_cast_d", Pass, None));
    let (text, regressions, gate_failed) = run(&old, &new, &[]);
    assert_eq!(regressions, 0, "{text}");
    assert!(!gate_failed);
    assert!(text.contains("#### Newly passing (1)"), "{text}");
    assert!(
        text.contains("| `onnx-1.22.0/opset25/test_cast_d` | mismatch | pass |"),
        "{text}"
    );
    assert!(!text.contains("Newly failing"), "{text}");
    assert!(
        text.contains(
            "6 trials in both runs; 0 newly failing, 0 failure kind changed, 1 newly passing, \
             0 added, 0 removed; 0 regressions."
        ),
        "{text}"
    );
}

#[test]
fn kind_changes_show_and_a_refusal_turned_wrong_answer_regresses() {
    let tmp = tempfile::tempdir().expect("tmp");
    // mismatch -> error: shown, not a regression.
    let (old, new) = pair(
        tmp.path(),
        baseline(),
        flipped("test_cast_d", Fail, Some(KindError)),
    );
    let (text, regressions, gate_failed) = run(&old, &new, &[]);
    assert!(text.contains("#### Failure kind changed (1)"), "{text}");
    assert!(text.contains("| mismatch | error |"), "{text}");
    assert_eq!((regressions, gate_failed), (0, false), "{text}");
    // unsupported -> mismatch: the runtime now answers, wrongly.
    let (old, new) = pair(
        tmp.path(),
        baseline(),
        flipped("test_cast_e", Fail, Some(Mismatch)),
    );
    let (text, regressions, gate_failed) = run(&old, &new, &[]);
    assert!(text.contains("| unsupported | mismatch |"), "{text}");
    assert_eq!((regressions, gate_failed), (1, true), "{text}");
}

#[test]
fn a_trial_moving_onto_the_list_is_not_a_move() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (old, new) = pair(
        tmp.path(),
        baseline(),
        flipped("test_cast_d", KnownFailure, Some(Mismatch)),
    );
    let (text, regressions, _) = run(&old, &new, &[]);
    assert!(
        text.contains("Nothing moved (6 trials in both runs)."),
        "{text}"
    );
    assert_eq!(regressions, 0);
}

#[test]
fn added_and_removed_trials_are_listed_apart() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut new = baseline();
    new.retain(|t| t.case.as_deref() != Some("test_concat_c"));
    new.push(TrialRecord::official_for_test(
        "test_cast_g",
        "Cast-25",
        ("FLOAT", "INT4"),
        Fail,
        Some(Mismatch),
    ));
    let (old, new) = pair(tmp.path(), baseline(), new);
    let (text, regressions, gate_failed) = run(&old, &new, &[]);
    assert!(text.contains("#### Added (1)"), "{text}");
    assert!(
        text.contains("| `onnx-1.22.0/opset25/test_cast_g` | - | mismatch |"),
        "{text}"
    );
    assert!(text.contains("#### Removed (1)"), "{text}");
    assert!(
        text.contains(
            "| Concat-13 | Concat INT64 | `onnx-1.22.0/opset25/test_concat_c` | pass | - |"
        ),
        "{text}"
    );
    assert_eq!((regressions, gate_failed), (0, false), "{text}");
}

#[test]
fn rows_past_the_limit_are_counted_by_version_and_types() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut old = Vec::new();
    let mut new = Vec::new();
    for i in 0..7 {
        let types = if i < 5 {
            ("FLOAT", "FLOAT16")
        } else {
            ("FLOAT", "BFLOAT16")
        };
        old.push(TrialRecord::official_for_test(
            &format!("test_cast_{i}"),
            "Cast-25",
            types,
            Pass,
            None,
        ));
        new.push(TrialRecord::official_for_test(
            &format!("test_cast_{i}"),
            "Cast-25",
            types,
            Fail,
            Some(Mismatch),
        ));
    }
    let (old, new) = pair(tmp.path(), old, new);
    let (text, regressions, _) = run(&old, &new, &["--max-rows", "2"]);
    assert_eq!(regressions, 7);
    assert_eq!(text.matches("| pass | mismatch |").count(), 2, "{text}");
    // The two listed are the BFLOAT16 ones (sorted by types); the rest is counted.
    assert!(
        text.contains("5 more not listed: Cast-25 FLOAT -> FLOAT16 (5)."),
        "{text}"
    );
}

fn diff_error(old: &Path, words: &[&str]) -> String {
    let args = report_args(words);
    diff_text(old, &args)
        .expect_err("must be refused")
        .to_string()
}

#[test]
fn bad_inputs_are_refused_with_the_file_named() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    let (old, new) = pair(dir, baseline(), baseline());

    let missing = dir.join("missing.json").display().to_string();
    let e = diff_error(Path::new(&missing), &["--diff", &missing, "--new", &new]);
    assert!(e.contains("missing.json: cannot read"), "{e}");

    let mut v2 = report("onnxruntime", "1.31.0", baseline());
    v2.format = 2;
    let v2 = write(dir, "v2.json", &v2);
    let e = diff_error(&v2, &["--diff", &v2.display().to_string(), "--new", &new]);
    assert!(e.contains("v2.json: a report of format 2"), "{e}");

    // Format 4, written before `predates`, reads as format 5 (nothing in it predates).
    let mut v4 = report("onnxruntime", "1.31.0", baseline());
    v4.format = 4;
    let v4 = write(dir, "v4.json", &v4);
    assert_eq!(load_current(&v4).expect("format 4 reads").format, 4);

    let board = write(
        dir,
        "board.json",
        &serde_json::json!({"data_lock": "x", "backends": []}),
    );
    let e = diff_error(
        &board,
        &["--diff", &board.display().to_string(), "--new", &new],
    );
    assert!(e.contains("board.json: not a report.json"), "{e}");

    // Old is a run of another backend: refused unless asked.
    let native = write(dir, "native.json", &report("native", "0.1.0", baseline()));
    let native = native.display().to_string();
    let e = diff_error(Path::new(&native), &["--diff", &native, "--new", &new]);
    assert!(
        e.contains("native.json is a run of backend \"native\", not \"onnxruntime\""),
        "{e}"
    );
    assert!(e.contains("--any-backend"), "{e}");
    let args = report_args(&["--diff", &native, "--new", &new, "--any-backend"]);
    assert!(diff_text(Path::new(&native), &args).is_ok());

    // The new report is not of the backend named.
    let e = diff_error(
        Path::new(&old),
        &["--diff", &old, "--new", &new, "--backend", "tract"],
    );
    assert!(
        e.contains("new.json is a run of backend \"onnxruntime\", not \"tract\""),
        "{e}"
    );
}

#[test]
fn the_default_new_side_is_the_backend_report_directory() {
    let tmp = tempfile::tempdir().expect("tmp");
    let target = tmp.path().join("target");
    let dir = ReportDir::of(&target, "onnxruntime").into_path();
    std::fs::create_dir_all(&dir).expect("dir");
    write(
        &dir,
        JSON_FILE,
        &report("onnxruntime", "1.32.0", baseline()),
    );
    let old = write(
        tmp.path(),
        "old.json",
        &report("onnxruntime", "1.31.0", baseline()),
    );
    let mut options = report_args(&["--backend", "onnxruntime"]);
    options.target = target.clone();
    let (text, _) = diff_text(&old, &options).expect("the latest report is the new side");
    assert!(text.contains("onnxruntime (1.31.0 -> 1.32.0)"), "{text}");
    options.backend = Some("tract".into());
    let e = diff_text(&old, &options).expect_err("tract has no report");
    let tract = ReportDir::of(&target, "tract").json();
    assert!(
        e.to_string().contains(&format!(
            "backend tract has no report at {}",
            tract.display()
        )),
        "{e}"
    );
}

#[test]
fn a_failed_setup_check_and_a_change_of_strict_mode_are_named() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut new = report("onnxruntime", "1.32.0", baseline());
    new.strict = true;
    let mut guard = TrialRecord::official_for_test("x", "Cast-25", ("FLOAT", "FLOAT"), Fail, None);
    (guard.name, guard.release) = ("onnx-backend-data/incomplete".into(), None);
    guard.message = Some("the data is incomplete\nmore".into());
    new.trials.push(guard.clone());
    guard.outcome = Pass;
    guard.name = "onnx-backend-data/lock".into();
    new.trials.push(guard);
    let old = write(
        tmp.path(),
        "old.json",
        &report("onnxruntime", "1.31.0", baseline()),
    );
    let new = write(tmp.path(), "new.json", &new);
    let (old, new) = (old.display().to_string(), new.display().to_string());
    let (text, regressions, _) = run(&old, &new, &[]);
    assert!(
        text.contains(
            "- new run: setup check onnx-backend-data/incomplete failed: the data is incomplete\n"
        ),
        "{text}"
    );
    assert!(!text.contains("onnx-backend-data/lock"), "{text}");
    assert!(!text.contains("old run: setup"), "{text}");
    assert!(
        text.contains("strict mode differs (old false, new true)"),
        "{text}"
    );
    // The setup checks are not trials of the comparison.
    assert!(
        text.contains("Nothing moved (6 trials in both runs)."),
        "{text}"
    );
    assert_eq!(regressions, 0);
}

/// A report that records a trial twice (two runs' files mixed) is refused naming the trial,
/// as the old or the new side of a diff: with the last record winning, the counts lied.
#[test]
fn a_report_holding_a_trial_twice_is_refused_naming_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    let (old, new) = pair(dir, baseline(), baseline());
    let mut twice = baseline();
    let again = twice[0].clone();
    twice.push(again.clone());
    let doubled = write(dir, "twice.json", &report("onnxruntime", "1.31.0", twice));
    let doubled = doubled.display().to_string();
    for (o, n) in [
        (doubled.as_str(), new.as_str()),
        (old.as_str(), doubled.as_str()),
    ] {
        let e = diff_error(Path::new(o), &["--diff", o, "--new", n]);
        assert!(e.contains("twice.json"), "{e}");
        assert!(
            e.contains(&again.name) && e.contains("recorded twice"),
            "{e}"
        );
    }
}
