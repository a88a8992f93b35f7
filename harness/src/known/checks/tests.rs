//! The list checks: contradicting entries, and the shipped lists holding together.

use super::*;
use crate::known::KnownFailures;
use crate::outcome::FailureKind;
use crate::testkit::lists;
use std::path::Path;

fn entry(trials: &[&str], kind: Option<FailureKind>, expect: &[&str]) -> KnownFailure {
    KnownFailure {
        trials: trials.iter().map(|s| s.to_string()).collect(),
        types: Vec::new(),
        kind: "k".into(),
        reason: "r".into(),
        expect: expect.iter().map(|s| s.to_string()).collect(),
        failure_kind: kind,
    }
}

const A: &str = "onnx-1.22.0/opset25/test_cast_FLOAT_to_INT4";
const B: &str = "onnx-1.21.0/opset25/test_cast_FLOAT_to_INT4";

/// Two entries selecting a trial, one a mismatch and one a refusal at load: they cannot both
/// hold, and only the first is ever checked, so the pair is a failing check naming both,
/// once, with a trial they share.
#[test]
fn entries_that_cannot_both_hold_are_named() {
    use FailureKind::{Mismatch, Unsupported};
    let wrong = entry(
        &["onnx-*/test_cast_FLOAT_to_INT4"],
        Some(Mismatch),
        &["differ"],
    );
    let refused = entry(&[A, B], Some(Unsupported), &["refused at load"]);
    let both = lists(vec![], vec![wrong, refused]);
    let found = both.contradictions(&[A, B, "other"]);
    assert_eq!(found.len(), 1, "{found:?}");
    let msg = &found[0];
    for want in [
        "tests/known-failures/rt.json entries 0 (",
        "and 1 (",
        "both select onnx-1.22.0/opset25/test_cast_FLOAT_to_INT4 and 1 more trial,",
        "failure kind mismatch where the other expects unsupported: they cannot both hold",
    ] {
        assert!(msg.contains(want), "{want:?} not in {msg}");
    }
    let checks = both.checks(&[A, B], false);
    assert_eq!(checks.len(), 1);
    assert_eq!(checks[0].0, CONTRADICTION_CHECK);
}

/// A later entry may say less than the first (the first checks it all), never more: another
/// kind, a kind the first leaves open, or an `expect` string the first's do not hold.
#[test]
fn a_later_entry_may_claim_only_what_the_first_checks() {
    use FailureKind::Unsupported;
    let first = entry(
        &[A],
        Some(Unsupported),
        &["backend rt: unsupported (refused at load): no INT4"],
    );
    let agree = [
        entry(
            &["onnx-*/test_cast_FLOAT_to_INT4"],
            Some(Unsupported),
            &["refused at load"],
        ),
        entry(&["*INT4"], None, &[]),
        first.clone(),
    ];
    for later in agree {
        let pair = lists(vec![], vec![first.clone(), later.clone()]);
        assert_eq!(pair.contradictions(&[A]), Vec::<String>::new(), "{later:?}");
    }
    let open = entry(&[A], None, &["refused"]);
    let disagree = [
        (
            first.clone(),
            entry(&["*INT4"], Some(Unsupported), &["no INT8"]),
            "\"no INT8\"",
        ),
        (
            open.clone(),
            entry(&["*INT4"], Some(Unsupported), &["refused"]),
            "failure kind unsupported, which the first does not check",
        ),
    ];
    for (first, later, want) in disagree {
        let pair = lists(vec![], vec![first, later]);
        let found = pair.contradictions(&[A]);
        assert!(
            found.len() == 1 && found[0].contains(want),
            "{want:?}: {found:?}"
        );
    }
    // Apart, they select no trial in common: nothing to say.
    let apart = lists(
        vec![],
        vec![first, entry(&[B], Some(FailureKind::Mismatch), &[])],
    );
    assert!(apart.contradictions(&[A, B]).is_empty());
}

/// The data list judges its trials alone: a backend entry selecting one of them is not held
/// against the data entry (the stale check speaks of an entry that selects only those).
#[test]
fn the_data_list_judges_its_trials_alone() {
    let data = entry(&[A], Some(FailureKind::Error), &["not UTF-8"]);
    let own = entry(
        &["onnx-*/test_cast_FLOAT_to_INT4"],
        Some(FailureKind::Unsupported),
        &[],
    );
    assert!(lists(vec![data.clone()], vec![own])
        .contradictions(&[A, B])
        .is_empty());
    let twice = lists(
        vec![data, entry(&["*INT4"], Some(FailureKind::Mismatch), &[])],
        vec![],
    );
    let found = twice.contradictions(&[A]);
    assert!(
        found.len() == 1 && found[0].starts_with(DATA_LIST),
        "{found:?}"
    );
}

/// Every list in tests/known-failures loads, and over the official trials no two entries
/// contradict and none is stale: a backend's run checks its own list only when it runs, so
/// this holds the lists of the backends CI does not run.
#[test]
fn every_shipped_list_holds_together() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let names = crate::source::Source::Official
        .case_names(&root)
        .unwrap_or_else(|e| panic!("the official data is needed (`cargo xtask fetch-tests`): {e}"));
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let data = KnownFailures::data().expect("the data list");
    let mut checked = Vec::new();
    // The shipped backends' lists, and those of the onnx-backend: runtimes CI runs.
    let onnx_backends = ["onnx-backend:onnxruntime.backend"];
    let lists: Vec<String> = crate::backend::SHIPPED
        .iter()
        .map(|s| s.list.to_string())
        .chain(onnx_backends.iter().map(|b| {
            let path = crate::backend::list_path(Path::new(""), b);
            path.display().to_string()
        }))
        .collect();
    for rel in &lists {
        let list = KnownFailures::load(&root.join(rel)).unwrap_or_else(|e| panic!("{e}"));
        let lists = Lists::new(data.clone(), list, rel.clone());
        assert_eq!(lists.checks(&names, true), [], "{rel}");
        checked.push(rel.as_str());
    }
    // No list in the directory is left out: each is a backend's above. The data list is the
    // harness's own (compiled in), never a copy here.
    let dir = root.join("tests/known-failures");
    for file in std::fs::read_dir(&dir).expect("tests/known-failures") {
        let file = file
            .expect("a file")
            .file_name()
            .to_string_lossy()
            .into_owned();
        let rel = format!("tests/known-failures/{file}");
        assert!(
            checked.contains(&rel.as_str()),
            "{rel} is no shipped backend's list"
        );
    }
}
