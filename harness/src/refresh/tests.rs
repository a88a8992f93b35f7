use super::*;
use crate::outcome::FailureKind;
use crate::report::RuleName;

fn trial(name: &str, outcome: Outcome, kind: Option<FailureKind>, message: &str) -> TrialRecord {
    let t = TrialRecord::for_test(name, outcome)
        .with_rule(RuleName::Exact, None, None)
        .with_message(message)
        .with_kind(kind);
    match name.starts_with("settings/") {
        true => t,
        false => t.with_release("1.22.0"),
    }
}

fn no_data() -> Indexed {
    Indexed::default()
}

/// `text` read as a list, indexed.
fn list(text: &str) -> Indexed {
    Indexed::new(KnownFailures::parse(text).expect("a list"))
}

const UNSUPPORTED: Option<FailureKind> = Some(FailureKind::Unsupported);
const MISMATCH: Option<FailureKind> = Some(FailureKind::Mismatch);

fn refused(name: &str, dump: &str) -> TrialRecord {
    let message = format!(
        "backend rt: unsupported (refused at load): Unknown DatumType {dump}\nrerun: \
         ONNX_CONFORMANCE_BACKEND='worker:rt=/home/me/rt --x' cargo test"
    );
    trial(name, Outcome::Fail, UNSUPPORTED, &message)
}

/// One entry per data type all of whose trials are refused alike, its `expect` the shared
/// words up to the debug dump; no path, no command line.
#[test]
fn refusals_group_by_type_and_expect_the_stable_words() {
    let trials = [
        refused(
            "onnx-1.14.1/opset19/test_cast_FLOAT_to_FLOAT8E4M3FN",
            "Float8 { a: 1 }",
        ),
        refused(
            "onnx-1.15.0/opset19/test_cast_FLOAT16_to_FLOAT8E4M3FN",
            "Float8 { a: 2 }",
        ),
        refused(
            "onnx-1.15.0/opset19/test_castlike_FLOAT8E4M3FN_to_FLOAT",
            "Float8 { b }",
        ),
        trial(
            "onnx-1.15.0/opset19/test_cast_FLOAT_to_FLOAT16",
            Outcome::Pass,
            None,
            "",
        ),
        trial(
            "settings/known-failures-stale",
            Outcome::Fail,
            Some(FailureKind::Error),
            "x",
        ),
    ];
    let list = refresh(&no_data(), &no_data(), &trials, "/home/me/repo");
    assert_eq!(list.format, crate::known::FORMAT);
    assert_eq!(list.entries.len(), 1, "{list:?}");
    let e = &list.entries[0];
    assert_eq!(e.types, ["FLOAT8E4M3FN"]);
    assert!(e.trials.is_empty());
    assert_eq!(e.failure_kind, UNSUPPORTED);
    assert_eq!(
        e.expect,
        ["backend rt: unsupported (refused at load): Unknown DatumType Float8"]
    );
    assert!(e.reason.starts_with("REVIEW: 3 trials"));
    for t in &trials[..3] {
        assert!(e.selects(&t.name));
    }
    assert!(!e.selects(&trials[3].name));
}

/// A type some of whose trials pass is no entry of its own: its failing trials are grouped
/// by cause, by case name across releases when every release fails it.
#[test]
fn other_failures_group_by_cause_and_case() {
    let differ = |n: usize| {
        format!("/home/me/repo/x:\noutput 0 (\"y\"): {n} of 12 elements differ (BFLOAT16, shape [3, 4], rule exact)")
    };
    let trials = [
        trial(
            "onnx-1.10.2/opset13/test_cast_FLOAT_to_BFLOAT16",
            Outcome::Fail,
            MISMATCH,
            &differ(5),
        ),
        trial(
            "onnx-1.11.0/opset13/test_cast_FLOAT_to_BFLOAT16",
            Outcome::Fail,
            MISMATCH,
            &differ(4),
        ),
        trial(
            "onnx-1.10.2/opset13/test_cast_BFLOAT16_to_FLOAT",
            Outcome::Pass,
            None,
            "",
        ),
        trial(
            "onnx-1.11.0/opset13/test_cast_BFLOAT16_to_FLOAT",
            Outcome::Pass,
            None,
            "",
        ),
        trial(
            "onnx-1.11.0/opset13/test_castlike_FLOAT_to_BFLOAT16",
            Outcome::Fail,
            MISMATCH,
            &differ(5),
        ),
        trial(
            "onnx-1.12.0/opset13/test_castlike_FLOAT_to_BFLOAT16",
            Outcome::Pass,
            None,
            "",
        ),
    ];
    let list = refresh(&no_data(), &no_data(), &trials, "/home/me/repo");
    assert_eq!(list.entries.len(), 1, "{list:?}");
    let e = &list.entries[0];
    assert!(e.types.is_empty());
    assert_eq!(
        e.trials,
        [
            "onnx-*/test_cast_FLOAT_to_BFLOAT16",
            "onnx-1.11.0/opset13/test_castlike_FLOAT_to_BFLOAT16"
        ]
    );
    assert_eq!(
        e.expect,
        ["of 12 elements differ (BFLOAT16, shape [3, 4], rule exact)"]
    );
    for t in &trials {
        assert_eq!(e.selects(&t.name), t.outcome == Outcome::Fail, "{}", t.name);
    }
}

/// Reviewed reasons survive a regeneration, even from a format 1 list of exact entries; a
/// trial whose failure kind changed gets a new entry to review; the data list's trials and
/// passing trials are left out.
#[test]
fn reviewed_reasons_survive_and_data_problems_stay_out() {
    let old = list(
        r#"{"format":1,"entries":[
        {"pattern":"onnx-1.18.0/opset23/test_cast_FLOAT_to_FLOAT4E2M1","match":"exact",
         "kind":"no kernel","reason":"rt has no FLOAT4E2M1 kernel","failure_kind":"unsupported"},
        {"pattern":"onnx-1.19.1/opset24/test_cast_FLOAT_to_FLOAT4E2M1","match":"exact",
         "kind":"no kernel","reason":"rt has no FLOAT4E2M1 kernel","failure_kind":"unsupported"}]}"#,
    );
    let data =
        list(r#"{"format":2,"entries":[{"trials":["onnx-1.4.1/*"],"kind":"k","reason":"r"}]}"#);
    let trials = [
        refused("onnx-1.18.0/opset23/test_cast_FLOAT_to_FLOAT4E2M1", "F4"),
        refused("onnx-1.19.1/opset24/test_cast_FLOAT_to_FLOAT4E2M1", "F4"),
        trial(
            "onnx-1.4.1/opset9/test_cast_FLOAT_to_STRING",
            Outcome::DataProblem,
            Some(FailureKind::Error),
            "bad",
        ),
        trial(
            "onnx-1.19.1/opset24/test_cast_FLOAT_to_DOUBLE",
            Outcome::Pass,
            None,
            "",
        ),
    ];
    let list = refresh(&old, &data, &trials, "/home/me/repo");
    assert_eq!(list.entries.len(), 1, "{list:?}");
    assert_eq!(list.entries[0].types, ["FLOAT4E2M1"]);
    assert_eq!(list.entries[0].reason, "rt has no FLOAT4E2M1 kernel");
    assert_eq!(list.entries[0].kind, "no kernel");
    let crashed = [
        trial(
            &trials[0].name,
            Outcome::Fail,
            Some(FailureKind::Crash),
            "crash: exited",
        ),
        trial(
            &trials[1].name,
            Outcome::Fail,
            Some(FailureKind::Crash),
            "crash: exited",
        ),
        trials[3].clone(),
    ];
    let again = refresh(&old, &data, &crashed, "/r");
    assert!(again.entries[0].reason.starts_with("REVIEW: "));
    assert_eq!(again.entries[0].failure_kind, Some(FailureKind::Crash));
    let passed = [trial(&trials[0].name, Outcome::UnexpectedPass, None, "")];
    assert!(refresh(&old, &data, &passed, "/r").entries.is_empty());
}

#[test]
fn expect_strings_keep_whole_words() {
    let lines: BTreeSet<&str> = ["shape [3, 4], rule x", "shape [3, 5], rule x"].into();
    assert_eq!(stable(&common_part(&lines)), "shape [3");
    let lines: BTreeSet<&str> = ["abc def1", "xbc def2"].into();
    assert_eq!(common_part(&lines), "");
    assert_eq!(
        stable("translating: Tensor { elem_type: Bfloat16 }"),
        "translating: Tensor"
    );
    assert_eq!(digits_out("3 of 12 elements"), "# of # elements");
    let long = format!("{} tail", "word ".repeat(40));
    assert!(evidence(&long, "/r").ends_with("word"));
}

/// A trial that failed, but not as its entry expects, is listed with the runtime's own
/// words as `expect`, never the harness's verdict around them: the regenerated list then
/// holds the trial again, and a second regeneration from its run writes the same list.
#[test]
fn a_failure_not_as_listed_is_relisted_with_the_runtime_words() {
    let old = list(
        r#"{"format":2,"entries":[{"trials":["onnx-*/test_cast_FLOAT_to_BFLOAT16"],
         "kind":"k","reason":"rt rounds BFLOAT16 down","expect":["old words"]}]}"#,
    );
    let name = "onnx-1.22.0/opset21/test_cast_FLOAT_to_BFLOAT16";
    let run = |list: &Indexed| {
        let listed = list.find(name).map(|(_, entry)| crate::known::Listed {
            entry,
            list: "tests/known-failures/rt.json",
            data: false,
        });
        let failed = crate::known::Failed {
            kind: FailureKind::Error,
            message: "Unsupported cast from float to bfloat16 in node 0\nrerun: cargo test".into(),
        };
        let verdict = crate::known::judge(Err(failed), listed);
        let mut record = trial(name, verdict.outcome, verdict.failure_kind, "");
        record.message = verdict.message;
        record
    };
    let first = run(&old);
    assert_eq!(first.outcome, Outcome::Fail);
    let list = refresh(&old, &no_data(), &[first], "/r");
    assert_eq!(list.entries.len(), 1, "{list:?}");
    assert_eq!(
        list.entries[0].expect,
        ["Unsupported cast from float to bfloat16 in node 0"]
    );
    assert_eq!(list.entries[0].reason, "rt rounds BFLOAT16 down");
    let list = Indexed::new(list);
    let second = run(&list);
    assert_eq!(second.outcome, Outcome::KnownFailure);
    assert_eq!(&refresh(&list, &no_data(), &[second], "/r"), list.list());
}

/// Cases the runtime predates, unlisted (a `fail`) or listed (`predates`), are listed again
/// with failure kind `predates` and the runtime's words, never the harness's hint.
#[test]
fn predated_cases_are_listed_with_their_kind() {
    let predated = |name: &str, outcome: Outcome| {
        let mut message = "backend old: runtime predates opset 25 (it supports at most 24)\n\
             an older runtime is not wrong on a newer case, but the run expects it: list it in \
             tests/known-failures/old.json with an entry {\"trials\": [\"x\"]}\nrerun: cargo test"
            .to_string();
        if outcome == Outcome::Predates {
            message =
                format!("runtime predates the case, as listed (older runtime): why\n{message}");
        }
        trial(name, outcome, Some(FailureKind::Predates), &message)
    };
    let trials = [
        predated("onnx-1.22.0/opset25/test_cast_FLOAT_to_INT4", Outcome::Fail),
        predated(
            "onnx-1.22.0/opset25/test_concat_1d_axis_0",
            Outcome::Predates,
        ),
    ];
    let list = refresh(&no_data(), &no_data(), &trials, "/home/me/repo");
    let selected: Vec<&str> = trials
        .iter()
        .filter(|t| list.entries.iter().any(|e| e.selects(&t.name)))
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(selected.len(), 2, "{list:?}");
    for e in &list.entries {
        assert_eq!(e.failure_kind, Some(FailureKind::Predates), "{e:?}");
        assert!(
            e.expect
                .iter()
                .all(|x| !x.contains("older runtime is not wrong")),
            "{e:?}"
        );
        assert!(
            e.expect
                .iter()
                .any(|x| x.contains("runtime predates opset 25")),
            "{e:?}"
        );
    }
}

/// A data type's entry is not written when it would also select trials an earlier entry
/// holds and say something of them that entry does not check (here: FLOAT4E2M1 refused,
/// while its pairs with FLOAT6E2M3 fail earlier, at the float6 type): its trials are listed
/// by case instead, and no two entries contradict.
#[test]
fn a_type_entry_never_contradicts_an_earlier_one() {
    let error = Some(FailureKind::Error);
    let load_error = "backend rt: error at stage load: FAIL: type not registered";
    let trials = [
        ("test_cast_FLOAT_to_FLOAT6E2M3", error, load_error),
        ("test_cast_FLOAT6E2M3_to_FLOAT", error, load_error),
        ("test_cast_FLOAT4E2M1_to_FLOAT6E2M3", error, load_error),
        (
            "test_cast_FLOAT_to_FLOAT4E2M1",
            UNSUPPORTED,
            "backend rt: unsupported (refused at load): NOT_IMPLEMENTED",
        ),
        (
            "test_cast_FLOAT4E2M1_to_FLOAT",
            UNSUPPORTED,
            "backend rt: unsupported (refused at load): NOT_IMPLEMENTED",
        ),
    ]
    .map(|(case, kind, message)| {
        trial(
            &format!("onnx-1.22.0/opset25/{case}"),
            Outcome::Fail,
            kind,
            message,
        )
    });
    let list = Indexed::new(refresh(&no_data(), &no_data(), &trials, "/r"));
    let names: Vec<&str> = trials.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        list.contradictions(&names),
        Vec::<String>::new(),
        "{list:#?}"
    );
    for t in &trials {
        let (_, entry) = list.find(&t.name).expect("listed");
        assert_eq!(entry.failure_kind, t.failure_kind, "{}", t.name);
        assert!(t
            .message
            .as_deref()
            .unwrap_or("")
            .contains(&entry.expect[0]));
    }
    assert_eq!(list.list().entries[0].types, ["FLOAT6E2M3"]);
}
