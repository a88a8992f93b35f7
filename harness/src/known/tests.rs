//! Unit tests of the known-failure list: matching, expectations and tolerances.

use super::*;

fn entry(pattern: &str, how: Match, expect: &[&str]) -> KnownFailure {
    KnownFailure {
        pattern: pattern.into(),
        how,
        kind: "upstream data corrupt".into(),
        reason: "evidence".into(),
        expect: expect.iter().map(|s| s.to_string()).collect(),
        failure_kind: None,
    }
}

#[test]
fn patterns_select_exactly_or_by_substring() {
    let list = KnownFailures {
        format: 1,
        entries: vec![
            entry(
                "onnx-1.4.1/opset9/test_cast_FLOAT_to_STRING",
                Match::Exact,
                &[],
            ),
            entry("opset25/test_castlike", Match::Substring, &[]),
        ],
    };
    assert!(list
        .find("onnx-1.4.1/opset9/test_cast_FLOAT_to_STRING")
        .is_some());
    assert!(list
        .find("onnx-1.4.1/opset9/test_cast_FLOAT_to_STRING_x")
        .is_none());
    assert!(list
        .find("onnx-1.22.0/opset25/test_castlike_A_to_B")
        .is_some());
    assert!(list
        .find("onnx-1.22.0/opset24/test_castlike_A_to_B")
        .is_none());
    let stale = list.unmatched(&["onnx-1.22.0/opset25/test_castlike_A"]);
    assert_eq!(stale.len(), 1);
    assert_eq!(stale[0].how, Match::Exact);
}

/// A failed result of `kind` with `message`.
fn err(kind: FailureKind, message: &str) -> Result<(), Failed> {
    Err(Failed {
        kind,
        message: message.into(),
    })
}

#[test]
fn judging_known_failures() {
    use FailureKind::{Error, Mismatch};
    let plain = entry("x", Match::Exact, &[]);
    let strict = entry("x", Match::Exact, &["input_0.pb", "not UTF-8"]);
    let pass = judge(Ok(()), None);
    assert_eq!(
        (pass.outcome, pass.failure_kind, pass.message),
        (Outcome::Pass, None, None)
    );
    let fail = judge(err(Mismatch, "boom"), None);
    assert_eq!(
        (fail.outcome, fail.failure_kind, fail.message.as_deref()),
        (Outcome::Fail, Some(Mismatch), Some("boom"))
    );
    let v = judge(Ok(()), Some(&plain));
    assert_eq!((v.outcome, v.failure_kind), (Outcome::UnexpectedPass, None));
    assert!(v
        .message
        .unwrap_or_default()
        .contains("unexpectedly passed, remove it from"));
    let v = judge(err(Error, "boom"), Some(&plain));
    assert_eq!(
        (v.outcome, v.failure_kind),
        (Outcome::KnownFailure, Some(Error))
    );
    assert_eq!(v.known_kind.as_deref(), Some("upstream data corrupt"));
    let message = v.message.unwrap_or_default();
    assert_eq!(
        message,
        "known failure (upstream data corrupt): evidence\nboom"
    );
    let bad = "case/test_data_set_0/input_0.pb: 3 strings for 12 elements, not UTF-8";
    assert_eq!(
        judge(err(Error, bad), Some(&strict)).outcome,
        Outcome::KnownFailure
    );
    let half = "case/test_data_set_0/input_0.pb: 3 strings for 12 elements";
    assert_eq!(
        judge(err(Error, half), Some(&strict)).outcome,
        Outcome::Fail
    );
    let v = judge(err(Error, "operator not implemented"), Some(&strict));
    assert_eq!((v.outcome, v.known_kind), (Outcome::Fail, None));
    assert!(v.message.unwrap_or_default().contains("another bug"));
    assert!(Outcome::UnexpectedPass.fails_run() && !Outcome::KnownFailure.fails_run());
}

/// An entry that names a failure kind holds only trials failing with that kind, even when
/// the message holds every `expect` substring.
#[test]
fn a_known_failure_of_another_kind_is_another_failure() {
    let mut listed = entry("x", Match::Exact, &["boom"]);
    listed.failure_kind = Some(FailureKind::Mismatch);
    let v = judge(err(FailureKind::Mismatch, "boom"), Some(&listed));
    assert_eq!(v.outcome, Outcome::KnownFailure);
    let v = judge(err(FailureKind::Crash, "boom"), Some(&listed));
    assert_eq!(
        (v.outcome, v.failure_kind),
        (Outcome::Fail, Some(FailureKind::Crash))
    );
    let message = v.message.unwrap_or_default();
    let want = "failure kind crash, but the known-failures entry expects mismatch: boom";
    assert_eq!(message, want);
}

#[test]
fn loading_rejects_bad_entries_and_tolerates_absence() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("known")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let path = dir.join("k.json");
    assert_eq!(KnownFailures::load(&path), Ok(KnownFailures::default()));
    let bad = r#"{"format":1,"entries":[{"pattern":"x","match":"exact","kind":"k","reason":" "}]}"#;
    std::fs::write(&path, bad).expect("write");
    assert!(KnownFailures::load(&path).is_err());
    std::fs::write(&path, "{").expect("write");
    let err = KnownFailures::load(&path).expect_err("invalid json");
    assert!(err.to_string().contains("invalid"));
    let tol = r#"{"format":1,"entries":[{"pattern":"x","match":"substring","rtol":-1,"atol":0,"reason":"r"}]}"#;
    std::fs::write(&path, tol).expect("write");
    assert!(Tolerances::load(&path).is_err());
    let tol = tol.replace("-1", "0.01");
    std::fs::write(&path, tol).expect("write");
    let list = Tolerances::load(&path).expect("valid overrides");
    assert_eq!(list.find("axb").map(|e| e.rtol), Some(0.01));
}
