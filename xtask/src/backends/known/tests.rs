use super::*;
use harness::backend::FailureKind;

fn trial(name: &str, outcome: Outcome, kind: Option<FailureKind>, message: &str) -> TrialRecord {
    TrialRecord {
        name: name.into(),
        release: (!name.starts_with("settings/")).then(|| "1.22.0".into()),
        case: None,
        op_type: None,
        op_version: None,
        opset: None,
        inputs: Vec::new(),
        outputs: Vec::new(),
        outcome,
        rule: "exact".into(),
        rtol: None,
        atol: None,
        duration_ms: 0.0,
        message: Some(message.into()),
        backend: Default::default(),
        failure_kind: kind,
    }
}

#[test]
fn entries_carry_kind_and_machine_independent_evidence() {
    let trials = [
        trial("a", Outcome::Pass, None, ""),
        trial(
            "b",
            Outcome::Fail,
            Some(FailureKind::Mismatch),
            "/home/me/repo/onnx-backend-data/x/test_data_set_0:\noutput 0 (\"y\"): 3 of 12 elements differ\nrerun: cargo test",
        ),
        trial("c", Outcome::Fail, Some(FailureKind::Unsupported), "backend rt: unsupported (refused at load): no kernel"),
        trial("settings/known-failures-stale", Outcome::Fail, Some(FailureKind::Error), "stale"),
    ];
    let list = refresh(&KnownFailures::default(), &trials, "/home/me/repo");
    let got: Vec<(&str, &str, &[String], Option<FailureKind>)> = list
        .entries
        .iter()
        .map(|e| {
            (
                e.pattern.as_str(),
                e.kind.as_str(),
                &e.expect[..],
                e.failure_kind,
            )
        })
        .collect();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].0, "b");
    assert_eq!(got[0].1, "mismatch");
    assert_eq!(got[0].2, ["output 0 (\"y\"): 3 of 12 elements differ"]);
    assert_eq!(
        got[1],
        (
            "c",
            "unsupported",
            &["backend rt: unsupported (refused at load): no kernel".to_string()][..],
            Some(FailureKind::Unsupported)
        )
    );
}

#[test]
fn reviewed_entries_keep_their_reason_until_the_kind_changes() {
    let mut old = refresh(
        &KnownFailures::default(),
        &[trial(
            "b",
            Outcome::Fail,
            Some(FailureKind::Unsupported),
            "no kernel",
        )],
        "/r",
    );
    old.entries[0].reason = "onnxruntime has no FLOAT4E2M1 kernel".into();
    let again = refresh(
        &old,
        &[trial(
            "b",
            Outcome::KnownFailure,
            Some(FailureKind::Unsupported),
            "known failure (unsupported): x\nno kernel",
        )],
        "/r",
    );
    assert_eq!(
        again.entries[0].reason,
        "onnxruntime has no FLOAT4E2M1 kernel"
    );
    let changed = refresh(
        &old,
        &[trial(
            "b",
            Outcome::Fail,
            Some(FailureKind::Crash),
            "crash: the worker exited",
        )],
        "/r",
    );
    assert!(changed.entries[0].reason.starts_with("REVIEW: "));
    assert_eq!(changed.entries[0].failure_kind, Some(FailureKind::Crash));
    // A trial that passes now drops out of the list.
    assert!(
        refresh(&old, &[trial("b", Outcome::UnexpectedPass, None, "")], "/r")
            .entries
            .is_empty()
    );
}
