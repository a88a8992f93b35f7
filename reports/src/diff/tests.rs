//! `cargo xtask scoreboard --diff` on two boards with planted moves, and the move rules.

use super::*;
use crate::scoreboard::{BackendRun, Scoreboard};
use crate::testkit::write;
use harness::backend::BackendInfo;
use harness::backend::FailureKind::{Mismatch, Predates, Timeout, Unsupported};
use harness::known::Outcome::Predates as PredatesOutcome;
use harness::known::Outcome::{Fail, KnownFailure, Pass, UnexpectedPass};

fn t(case: &str, outcome: Outcome, kind: Option<FailureKind>) -> TrialRecord {
    TrialRecord::official_for_test(case, "Cast-25", ("FLOAT", "FLOAT16"), outcome, kind)
}

fn run(name: &str, version: &str, trials: Vec<TrialRecord>) -> BackendRun {
    BackendRun {
        backend: BackendInfo {
            name: name.into(),
            runtime: name.into(),
            version: version.into(),
        },
        trials,
    }
}

#[test]
fn moves_follow_what_the_backend_did() {
    let old = [
        t("test_a", Pass, None),
        t("test_b", Fail, Some(Mismatch)),
        t("test_c", KnownFailure, Some(Unsupported)),
        t("test_d", KnownFailure, Some(Mismatch)),
        t("test_e", Fail, Some(Mismatch)),
        t("test_f", Pass, None),
    ];
    let new = [
        t("test_a", Fail, Some(Timeout)),
        t("test_b", UnexpectedPass, None),
        t("test_c", Fail, Some(Mismatch)),
        t("test_d", Fail, Some(Mismatch)),
        t("test_e", Fail, Some(Timeout)),
        t("test_f", Pass, None),
    ];
    let d = compare("x", ("1", &old), ("2", &new));
    let got: Vec<(&str, Move, bool)> = d
        .rows
        .iter()
        .map(|r| (r.name.rsplit('/').next().unwrap(), r.moved, r.regression))
        .collect();
    assert_eq!(
        got,
        [
            ("test_a", Move::NewlyFailing, true),
            ("test_c", Move::KindChanged, true),
            ("test_e", Move::KindChanged, false),
            ("test_b", Move::NewlyPassing, false),
        ]
    );
    assert_eq!((d.common, d.regressions()), (6, 2));
}

/// A trial the runtime starts or stops predating did not run: the kind changed, never a
/// regression, listed (`predates`) or not (`fail`).
#[test]
fn predating_a_case_is_no_regression() {
    let old = [
        t("test_a", Pass, None),
        t("test_b", Fail, Some(Unsupported)),
        t("test_c", PredatesOutcome, Some(Predates)),
        t("test_d", Fail, Some(Predates)),
    ];
    let new = [
        t("test_a", Fail, Some(Predates)),
        t("test_b", PredatesOutcome, Some(Predates)),
        t("test_c", Pass, None),
        t("test_d", PredatesOutcome, Some(Predates)),
    ];
    let d = compare("x", ("1.32", &old), ("1.31", &new));
    let got: Vec<(&str, Move, bool, &str)> = d
        .rows
        .iter()
        .map(|r| {
            let name = r.name.rsplit('/').next().unwrap();
            (name, r.moved, r.regression, r.now.as_str())
        })
        .collect();
    assert_eq!(
        got,
        [
            ("test_a", Move::KindChanged, false, "predates"),
            ("test_b", Move::KindChanged, false, "predates"),
            ("test_c", Move::KindChanged, false, "pass"),
        ]
    );
    assert_eq!(d.regressions(), 0);
}

fn board(lock: &str, backends: Vec<BackendRun>) -> Scoreboard {
    Scoreboard {
        data_lock: lock.into(),
        backends,
        not_set_up: vec![],
    }
}

#[test]
fn boards_are_compared_backend_by_backend() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = || vec![t("test_a", Pass, None), t("test_b", Fail, Some(Mismatch))];
    let old = board(
        "aaaa",
        vec![
            run("native", "0.1.0", base()),
            run("onnxruntime", "1.31.0", base()),
            run("tract", "0.21", base()),
        ],
    );
    let regressed = vec![
        t("test_a", Fail, Some(Mismatch)),
        t("test_b", Fail, Some(Mismatch)),
    ];
    let new = board(
        "bbbb",
        vec![
            run("native", "0.1.0", base()),
            run("onnxruntime", "1.32.0", regressed),
            run("openvino", "2026.4.1", base()),
        ],
    );
    let old = write(tmp.path(), "old.json", &old);
    let new = write(tmp.path(), "new.json", &new);
    let (text, regressions) = crate::scoreboard::diff_files(&old, &new, 60).expect("diff");
    assert_eq!(regressions, 1, "{text}");
    assert!(
        text.contains("### native (0.1.0)\n\nNothing moved (2 trials in both runs)."),
        "{text}"
    );
    let ort = text
        .find("### onnxruntime (1.31.0 -> 1.32.0)")
        .expect(&text);
    assert!(
        text[ort..].contains("| `onnx-1.22.0/opset25/test_a` | pass | mismatch |"),
        "{text}"
    );
    assert!(
        text.contains("openvino is new on the board (2 trials), not compared"),
        "{text}"
    );
    assert!(
        text.contains("- tract is no longer on the board\n\n### native (0.1.0)"),
        "{text}"
    );
    assert!(
        text.contains("the data differs (lock sha256 aaaa -> bbbb)"),
        "{text}"
    );

    assert!(judge(regressions, true).is_err());
    assert!(judge(regressions, false).is_ok());
    // The other way round, onnxruntime improved: the gate holds.
    let (_, regressions) = crate::scoreboard::diff_files(&new, &old, 60).expect("diff");
    assert!(judge(regressions, true).is_ok());
}

/// A board holding a backend twice, or a trial twice in one column, is refused naming it.
#[test]
fn a_board_holding_a_backend_or_a_trial_twice_is_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = || vec![t("test_a", Pass, None)];
    let good = write(
        tmp.path(),
        "good.json",
        &board("a", vec![run("native", "0.1.0", base())]),
    );
    let two_columns = board(
        "a",
        vec![
            run("native", "0.1.0", base()),
            run("native", "0.1.0", base()),
        ],
    );
    let two_columns = write(tmp.path(), "columns.json", &two_columns);
    let e = crate::scoreboard::diff_files(&good, &two_columns, 60)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("columns.json: backend native has two columns"),
        "{e}"
    );
    let twice = vec![t("test_a", Pass, None), t("test_a", Fail, Some(Mismatch))];
    let trial_twice = write(
        tmp.path(),
        "trials.json",
        &board("a", vec![run("onnxruntime", "1.32.0", twice)]),
    );
    let e = crate::scoreboard::diff_files(&trial_twice, &good, 60)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("trials.json") && e.contains("recorded twice"),
        "{e}"
    );
    assert!(
        e.contains("test_a") && e.contains("column of onnxruntime"),
        "{e}"
    );
}

#[test]
fn a_file_that_is_not_a_scoreboard_is_named() {
    let tmp = tempfile::tempdir().expect("tmp");
    let good = write(tmp.path(), "good.json", &board("a", vec![]));
    let bad = write(
        tmp.path(),
        "report.json",
        &serde_json::json!({"format": 3, "trials": []}),
    );
    let e = crate::scoreboard::diff_files(&bad, &good, 60)
        .expect_err("refused")
        .to_string();
    assert!(e.contains("report.json: not a scoreboard"), "{e}");
    let missing = tmp.path().join("none.json");
    let e = crate::scoreboard::diff_files(&good, &missing, 60)
        .expect_err("refused")
        .to_string();
    assert!(e.contains("none.json: cannot read"), "{e}");
}

#[test]
fn markdown_cells_cannot_break_the_table() {
    assert_eq!(cell("a|b\nc<d>"), "a\\|b c&lt;d>");
}

/// `groups` trials that regressed, each its own operator version (the first rows of the
/// version table: `Cast-1`, `Cast-6`, ...), as Markdown listing `max_rows` of them.
fn regressed_groups(groups: usize, max_rows: usize) -> String {
    let old: Vec<TrialRecord> = vocab::OpVersion::all()
        .take(groups)
        .enumerate()
        .map(|(i, v)| {
            TrialRecord::official_for_test(
                &format!("test_{i}"),
                &v.to_string(),
                ("FLOAT", "INT8"),
                Pass,
                None,
            )
        })
        .collect();
    let new: Vec<TrialRecord> = old
        .iter()
        .cloned()
        .map(|mut t| {
            (t.outcome, t.failure_kind) = (Fail, Some(Mismatch));
            t
        })
        .collect();
    let d = compare("x", ("1", &old), ("2", &new));
    markdown("t", &[], &[d], max_rows)
}

#[test]
fn the_summary_past_the_limit_is_bounded_too() {
    let text = regressed_groups(14, 0);
    assert!(text.starts_with("## t\n\n### x (1 -> 2)\n\n"), "{text}");
    assert!(!text.contains("| operator |"), "{text}");
    assert!(
        text.contains("14 more not listed: Cast-1 FLOAT -> INT8 (1), Cast-13 "),
        "{text}"
    );
    assert!(text.contains(", and 2 more groups."), "{text}");
    assert_eq!(text.matches(" (1)").count(), 12, "{text}");
}

#[test]
fn a_summary_of_twelve_groups_names_them_all() {
    let text = regressed_groups(12, 0);
    assert!(text.contains("12 more not listed: "), "{text}");
    assert!(!text.contains("more groups"), "{text}");
}

#[test]
fn the_row_limit_holds_across_sections() {
    let mut old = vec![t("test_a", Pass, None), t("test_b", Pass, None)];
    let mut new = vec![
        t("test_a", Fail, Some(Mismatch)),
        t("test_b", Fail, Some(Mismatch)),
    ];
    for case in ["test_c", "test_d"] {
        old.push(t(case, Fail, Some(Mismatch)));
        new.push(t(case, Pass, None));
    }
    let d = compare("x", ("1", &old), ("1", &new));
    let text = markdown("t", &[], std::slice::from_ref(&d), 1);
    assert_eq!(text.matches("| `onnx-").count(), 1, "{text}");
    assert!(
        text.contains("1 more not listed: Cast-25 FLOAT -> FLOAT16 (1)."),
        "{text}"
    );
    assert!(
        text.contains("2 more not listed: Cast-25 FLOAT -> FLOAT16 (2)."),
        "{text}"
    );
    // Within the limit, nothing is summarised.
    let text = markdown("t", &[], &[d], 4);
    assert_eq!(text.matches("| `onnx-").count(), 4, "{text}");
    assert!(!text.contains("more not listed"), "{text}");
}
