//! Unit tests of the known-failure lists: selectors, formats, the data list, expectations and
//! tolerances.

use super::*;

fn entry(trials: &[&str], types: &[&str], expect: &[&str]) -> KnownFailure {
    KnownFailure {
        trials: trials.iter().map(|s| s.to_string()).collect(),
        types: types.iter().map(|s| s.to_string()).collect(),
        kind: "upstream data corrupt".into(),
        reason: "evidence".into(),
        expect: expect.iter().map(|s| s.to_string()).collect(),
        failure_kind: None,
    }
}

fn own(entry: &KnownFailure) -> Option<Listed<'_>> {
    Some(Listed {
        entry,
        list: "tests/known-failures/rt.json",
        data: false,
    })
}

#[test]
fn globs_match_whole_names() {
    assert!(glob_matches("a/b", "a/b"));
    assert!(!glob_matches("a/b", "a/bc"));
    assert!(!glob_matches("a/b", "xa/b"));
    assert!(glob_matches("onnx-*/test_x", "onnx-1.2.3/opset7/test_x"));
    assert!(!glob_matches(
        "onnx-*/test_x",
        "onnx-1.2.3/opset7/test_x_expanded"
    ));
    assert!(!glob_matches("onnx-*/test_x", "own/opset7/test_x"));
    assert!(glob_matches("*mid*", "a-mid-b"));
    assert!(glob_matches("a*b*c", "abc"));
    assert!(!glob_matches("a*b*c", "acb"));
    assert!(!glob_matches("ab*ba", "aba"));
}

#[test]
fn types_are_words_of_the_case_name() {
    let fn_ = "onnx-1.14.1/opset19/test_cast_FLOAT16_to_FLOAT8E4M3FN";
    assert!(names_type(fn_, "FLOAT8E4M3FN"));
    assert!(names_type(fn_, "FLOAT16"));
    assert!(!names_type(fn_, "FLOAT8E4M3FNUZ"));
    assert!(!names_type(fn_, "FLOAT"));
    // The release and opset parts are not the case name.
    assert!(!names_type("FLOAT/opset1/test_x", "FLOAT"));
}

#[test]
fn entries_select_by_trials_and_types_together() {
    let both = entry(&["onnx-1.16.2/*"], &["INT4", "UINT4"], &[]);
    assert!(both.selects("onnx-1.16.2/opset21/test_cast_FLOAT_to_INT4"));
    assert!(both.selects("onnx-1.16.2/opset21/test_cast_FLOAT_to_UINT4"));
    assert!(!both.selects("onnx-1.17.0/opset21/test_cast_FLOAT_to_INT4"));
    assert!(!both.selects("onnx-1.16.2/opset21/test_cast_FLOAT_to_INT8"));
    let typed = entry(&[], &["BFLOAT16"], &[]);
    assert!(typed.selects("own/opset13/test_concat13_axis_1_BFLOAT16"));
    let list = Indexed::new(KnownFailures {
        format: FORMAT,
        entries: vec![both, typed],
    });
    let names = [
        "onnx-1.16.2/opset21/test_cast_FLOAT_to_INT4",
        "own/opset13/test_concat13_axis_1_BFLOAT16",
    ];
    // UINT4 selects nothing here: that part of the entry is stale, and said so.
    assert_eq!(
        list.unmatched(&names),
        ["entry 0 (upstream data corrupt): type \"UINT4\""]
    );
    assert!(list.unmatched(&[names[0]])[1].starts_with("entry 1 "));
}

#[test]
fn format_1_is_read_as_format_2() {
    let text = r#"{"format":1,"entries":[
        {"pattern":"a/b","match":"exact","kind":"k","reason":"r"},
        {"pattern":"opset25/","match":"substring","kind":"k","reason":"r","expect":["e"],
         "failure_kind":"error"}]}"#;
    let list = KnownFailures::parse(text).expect("format 1");
    assert_eq!(list.format, FORMAT);
    assert_eq!(list.entries[0].trials, ["a/b"]);
    assert_eq!(list.entries[1].trials, ["*opset25/*"]);
    assert_eq!(list.entries[1].failure_kind, Some(FailureKind::Error));
    let list = Indexed::new(list);
    assert!(list.find("onnx-1.22.0/opset25/x").is_some());
    assert!(list.find("a/bc").is_none());
}

#[test]
fn a_bad_list_names_the_entry_and_the_field() {
    let bad = |entries: &str, format: u32| {
        let text = format!(r#"{{"format":{format},"entries":[{entries}]}}"#);
        KnownFailures::parse(&text)
            .expect_err("refused")
            .to_string()
    };
    let e = bad(r#"{"types":["FLOAT9"],"kind":"k","reason":"r"}"#, 2);
    assert!(
        e.contains("entry 0") && e.contains("`types`") && e.contains("FLOAT9"),
        "{e}"
    );
    let e = bad(r#"{"kind":"k","reason":"r"}"#, 2);
    assert!(e.contains("needs `trials` or `types`"), "{e}");
    let e = bad(r#"{"trials":["*"],"kind":"k","reason":"r"}"#, 2);
    assert!(e.contains("every trial"), "{e}");
    let e = bad(r#"{"trials":["a"],"kind":"k","reason":" "}"#, 2);
    assert!(e.contains("field `reason`"), "{e}");
    let e = bad(
        r#"{"pattern":"a","match":"exact","kind":"k","reason":"r"}"#,
        2,
    );
    assert!(e.contains("format 1"), "{e}");
    let e = bad(r#"{"trials":["a"],"kind":"k","reason":"r"}"#, 1);
    assert!(e.contains("`pattern` and `match`"), "{e}");
    let e = bad(r#"{"trials":["a"],"kind":"k","reason":"r","colour":1}"#, 2);
    assert!(e.contains("colour"), "{e}");
    let e = bad("", 3);
    assert!(e.contains("format 3"), "{e}");
}

#[test]
fn the_data_list_parses_and_comes_first() {
    let data = Indexed::new(KnownFailures::data().expect("harness/known-failures/data.json"));
    let corrupt = "onnx-1.4.1/opset9/test_cast_FLOAT_to_STRING";
    assert!(data.find(corrupt).is_some());
    let backend = KnownFailures {
        format: FORMAT,
        entries: vec![entry(&[corrupt], &[], &[])],
    };
    let lists = Lists::new(
        data.list().clone(),
        backend,
        "tests/known-failures/rt.json".into(),
    );
    let listed = lists.find(corrupt).expect("listed");
    assert!(listed.data);
    assert_eq!(listed.list, DATA_LIST);
    // The backend's entry is shadowed by the data list's, so it is stale.
    let stale = lists.unmatched(&[corrupt, "onnx-1.4.1/opset9/test_cast_STRING_to_FLOAT"]);
    assert!(
        stale
            .iter()
            .any(|s| s.starts_with("tests/known-failures/rt.json entry 0")),
        "{stale:?}"
    );
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
    let plain = entry(&["x"], &[], &[]);
    let strict = entry(&["x"], &[], &["input_0.pb", "not UTF-8"]);
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
    let v = judge(Ok(()), own(&plain));
    assert_eq!((v.outcome, v.failure_kind), (Outcome::UnexpectedPass, None));
    assert!(v
        .message
        .unwrap_or_default()
        .contains("unexpectedly passed, remove it from tests/known-failures/rt.json"));
    let v = judge(err(Error, "boom"), own(&plain));
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
        judge(err(Error, bad), own(&strict)).outcome,
        Outcome::KnownFailure
    );
    let half = "case/test_data_set_0/input_0.pb: 3 strings for 12 elements";
    assert_eq!(judge(err(Error, half), own(&strict)).outcome, Outcome::Fail);
    let v = judge(err(Error, "operator not implemented"), own(&strict));
    assert_eq!((v.outcome, v.known_kind), (Outcome::Fail, None));
    let message = v.message.unwrap_or_default();
    assert!(message.contains("another bug") && message.contains("rt.json"));
    assert!(Outcome::UnexpectedPass.fails_run() && !Outcome::KnownFailure.fails_run());
    assert!(!Outcome::DataProblem.fails_run());
}

/// A trial the data list holds is a data problem when it fails as listed, and fails the run
/// like any listed trial when it passes or fails otherwise.
#[test]
fn data_entries_judge_data_problems() {
    let listed = entry(&["x"], &[], &["not UTF-8"]);
    let data = Some(Listed {
        entry: &listed,
        list: DATA_LIST,
        data: true,
    });
    let v = judge(err(FailureKind::Error, "3 strings, not UTF-8"), data);
    assert_eq!(v.outcome, Outcome::DataProblem);
    assert!(v
        .message
        .unwrap_or_default()
        .starts_with("upstream data problem (upstream data corrupt): evidence"));
    let v = judge(Ok(()), data);
    assert_eq!(v.outcome, Outcome::UnexpectedPass);
    assert!(v.message.unwrap_or_default().contains(DATA_LIST));
    assert_eq!(
        judge(err(FailureKind::Error, "other"), data).outcome,
        Outcome::Fail
    );
}

/// An entry that names a failure kind holds only trials failing with that kind, even when
/// the message holds every `expect` substring.
#[test]
fn a_known_failure_of_another_kind_is_another_failure() {
    let mut listed = entry(&["x"], &[], &["boom"]);
    listed.failure_kind = Some(FailureKind::Mismatch);
    let v = judge(err(FailureKind::Mismatch, "boom"), own(&listed));
    assert_eq!(v.outcome, Outcome::KnownFailure);
    let v = judge(err(FailureKind::Crash, "boom"), own(&listed));
    assert_eq!(
        (v.outcome, v.failure_kind),
        (Outcome::Fail, Some(FailureKind::Crash))
    );
    let message = v.message.unwrap_or_default();
    let want = "failure kind crash, but the entry of tests/known-failures/rt.json expects \
                mismatch:\nboom";
    assert_eq!(message, want);
    assert_eq!(runtime_message(&message), "boom");
}

/// A list that is named must exist: a missing file is an error naming it, never an empty
/// list, which is written as one.
#[test]
fn loading_rejects_bad_entries_and_a_missing_list() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("known")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    let path = dir.join("k.json");
    let e = KnownFailures::load(&path).expect_err("missing").to_string();
    assert!(
        e.contains(&path.display().to_string()) && e.contains("no such known-failures list"),
        "{e}"
    );
    std::fs::write(&path, r#"{"format": 2, "entries": []}"#).expect("write");
    assert_eq!(
        KnownFailures::load(&path),
        Ok(KnownFailures {
            format: FORMAT,
            entries: vec![]
        })
    );
    let bad = r#"{"format":1,"entries":[{"pattern":"x","match":"exact","kind":"k","reason":" "}]}"#;
    std::fs::write(&path, bad).expect("write");
    let e = KnownFailures::load(&path)
        .expect_err("empty reason")
        .to_string();
    assert!(e.contains("k.json") && e.contains("entry 0"), "{e}");
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

/// A failure not as listed keeps judge's words on a line of their own, above the runtime's
/// message, which `runtime_message` gives back whole.
#[test]
fn a_failure_not_as_listed_keeps_the_runtime_message_apart() {
    let listed = entry(&["x"], &[], &["old words"]);
    let v = judge(
        err(FailureKind::Unsupported, "new words\nmore"),
        own(&listed),
    );
    assert_eq!(v.outcome, Outcome::Fail);
    let message = v.message.unwrap_or_default();
    assert!(message.starts_with("failed, but not as "), "{message}");
    assert_eq!(runtime_message(&message), "new words\nmore");
    let listed = entry(&["x"], &[], &["new"]);
    let v = judge(err(FailureKind::Unsupported, "new words"), own(&listed));
    assert_eq!(runtime_message(&v.message.unwrap_or_default()), "new words");
    assert_eq!(
        runtime_message("plain\nfailure kind x"),
        "plain\nfailure kind x"
    );
}

/// A trial the runtime predates is `predates` when its backend's list expects it (an entry of
/// failure kind `predates`, or of no kind), counted apart and not failing the run; unlisted,
/// it fails the run like any failure; a list entry that parses `predates` selects it.
#[test]
fn a_predated_trial_is_predates_only_when_listed() {
    let why = "backend old: runtime predates opset 25 (it supports at most 24)";
    let v = judge(err(FailureKind::Predates, why), None);
    assert_eq!(
        (v.outcome, v.failure_kind),
        (Outcome::Fail, Some(FailureKind::Predates))
    );
    assert!(v.outcome.fails_run());
    let mut listed = entry(&["x"], &[], &["runtime predates opset 25"]);
    listed.failure_kind = Some(FailureKind::Predates);
    let v = judge(err(FailureKind::Predates, why), own(&listed));
    assert_eq!(
        (v.outcome, v.failure_kind),
        (Outcome::Predates, Some(FailureKind::Predates))
    );
    assert!(!Outcome::Predates.fails_run());
    assert_eq!(Outcome::Predates.label(), "predates");
    let message = v.message.unwrap_or_default();
    assert!(
        message.starts_with("runtime predates the case, as listed (upstream data corrupt)"),
        "{message}"
    );
    assert_eq!(runtime_message(&message), why);
    // Listed as predated, but the runtime ran it and answered wrong: another failure.
    let v = judge(
        err(FailureKind::Mismatch, "runtime predates opset 25"),
        own(&listed),
    );
    assert_eq!(v.outcome, Outcome::Fail);
    let list = KnownFailures::parse(
        r#"{"format": 2, "entries": [{"trials": ["x"], "kind": "older runtime",
            "reason": "r", "failure_kind": "predates"}]}"#,
    )
    .expect("a list");
    assert_eq!(list.entries[0].failure_kind, Some(FailureKind::Predates));
}

/// An entry (or a tolerance) twice, an item twice within an entry, or a field twice: each is
/// refused, naming the entry.
#[test]
fn a_list_refuses_what_it_holds_twice() {
    let bad = |entries: &str| {
        let text = format!(r#"{{"format":2,"entries":[{entries}]}}"#);
        KnownFailures::parse(&text)
            .expect_err("refused")
            .to_string()
    };
    let a = r#"{"trials":["a","b"],"types":["INT4"],"kind":"k","reason":"r"}"#;
    let again = r#"{"trials":["b","a"],"types":["INT4"],"kind":"other","reason":"s"}"#;
    let e = bad(&format!("{a},{again}"));
    assert!(
        e.contains("entry 1 selects what entry 0 selects") && e.contains("twice"),
        "{e}"
    );
    let narrower = r#"{"trials":["a"],"types":["INT4"],"kind":"k","reason":"r"}"#;
    assert!(KnownFailures::parse(&format!(r#"{{"format":2,"entries":[{a},{narrower}]}}"#)).is_ok());
    for (field, entry) in [
        ("trials", r#"{"trials":["a","a"],"kind":"k","reason":"r"}"#),
        (
            "types",
            r#"{"types":["INT4","INT4"],"kind":"k","reason":"r"}"#,
        ),
        (
            "expect",
            r#"{"trials":["a"],"kind":"k","reason":"r","expect":["x","x"]}"#,
        ),
    ] {
        let e = bad(&format!("{a},{entry}"));
        assert!(
            e.starts_with("entry 1: ")
                && e.contains(&format!("field `{field}`"))
                && e.contains("twice"),
            "{e}"
        );
    }
    let e = bad(&format!(
        r#"{a},{{"trials":["c"],"kind":"k","kind":"k2","reason":"r"}}"#
    ));
    assert!(e.contains("entry 1: duplicate field `kind`"), "{e}");

    let dir_tmp = tempfile::Builder::new()
        .prefix("known")
        .tempdir()
        .expect("temp dir");
    let path = dir_tmp.path().join("t.json");
    let tol = |p: &str| {
        format!(r#"{{"pattern":"{p}","match":"substring","rtol":0,"atol":0,"reason":"r"}}"#)
    };
    let text = format!(
        r#"{{"format":1,"entries":[{},{},{}]}}"#,
        tol("x"),
        tol("y"),
        tol("x")
    );
    std::fs::write(&path, text).expect("write");
    let e = Tolerances::load(&path).expect_err("twice").to_string();
    assert!(
        e.contains("t.json") && e.contains("entry 2 has the pattern of entry 0"),
        "{e}"
    );
    let text = format!(
        r#"{{"format":1,"entries":[{},{}]}}"#,
        tol("x"),
        tol("x").replace("\"reason\"", "\"rtol\":1,\"reason\"")
    );
    std::fs::write(&path, text).expect("write");
    let e = Tolerances::load(&path)
        .expect_err("field twice")
        .to_string();
    assert!(e.contains("entry 1: duplicate field `rtol`"), "{e}");
}
