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

#[test]
fn judging_known_failures() {
    let plain = entry("x", Match::Exact, &[]);
    let strict = entry("x", Match::Exact, &["input_0.pb", "not UTF-8"]);
    assert_eq!(judge(Ok(()), None).0, Outcome::Pass);
    assert_eq!(judge(Err("boom".into()), None).0, Outcome::Fail);
    let (outcome, msg) = judge(Ok(()), Some(&plain));
    assert_eq!(outcome, Outcome::UnexpectedPass);
    assert!(msg
        .unwrap_or_default()
        .contains("unexpectedly passed, remove it from"));
    assert_eq!(
        judge(Err("boom".into()), Some(&plain)).0,
        Outcome::KnownFailure
    );
    let bad = "case/test_data_set_0/input_0.pb: 3 strings for 12 elements, not UTF-8";
    assert_eq!(
        judge(Err(bad.into()), Some(&strict)).0,
        Outcome::KnownFailure
    );
    let half = "case/test_data_set_0/input_0.pb: 3 strings for 12 elements";
    assert_eq!(judge(Err(half.into()), Some(&strict)).0, Outcome::Fail);
    let (outcome, msg) = judge(Err("operator not implemented".into()), Some(&strict));
    assert_eq!(outcome, Outcome::Fail);
    assert!(msg.unwrap_or_default().contains("another bug"));
    assert!(Outcome::UnexpectedPass.fails_run() && !Outcome::KnownFailure.fails_run());
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
