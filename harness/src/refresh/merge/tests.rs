//! A list written from a partial run: refused unless merged, and merged, nothing lost.

use super::*;
use crate::known::{KnownFailures, Outcome};
use crate::outcome::{BackendInfo, FailureKind};
use crate::provenance::{RunInfo, Runner, Source};
use crate::report::Report;
use crate::testkit::{instance, scratch, write_index, write_lock};

const RELEASES: [&str; 2] = ["1.21.0", "1.22.0"];

/// The names of case `case` in every release.
fn case_names(case: &str) -> Vec<String> {
    RELEASES
        .iter()
        .map(|r| format!("onnx-{r}/opset25/{case}"))
        .collect()
}

/// A trial refused at load, as a list of reviewed entries expects it.
fn refused(name: &str, outcome: Outcome) -> TrialRecord {
    let (release, _) = name
        .trim_start_matches("onnx-")
        .split_once('/')
        .expect("a release");
    TrialRecord::for_test(name, outcome)
        .with_release(release)
        .with_kind(Some(FailureKind::Unsupported))
        .with_message("backend rt: unsupported (refused at load): no such kernel")
}

/// A reviewed list of eleven entries, one per case `test_cast_c<i>`, each refused.
fn reviewed() -> KnownFailures {
    let entries: Vec<String> = (0..11)
        .map(|i| {
            format!(
                r#"{{"trials": ["onnx-*/test_cast_c{i}"], "kind": "no kernel",
                "reason": "reviewed reason {i}", "failure_kind": "unsupported"}}"#
            )
        })
        .collect();
    let text = format!(r#"{{"format": 2, "entries": [{}]}}"#, entries.join(","));
    KnownFailures::parse(&text).expect("a list")
}

/// A filtered run of the trials of two of the eleven entries: merged, the nine others stay as
/// they were, and the two are written again from the run with their reviewed reasons.
#[test]
fn a_merge_keeps_the_entries_of_the_trials_that_did_not_run() {
    let old = Indexed::new(reviewed());
    let all: Vec<String> = (0..11)
        .flat_map(|i| case_names(&format!("test_cast_c{i}")))
        .collect();
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let ran: Vec<TrialRecord> = ["test_cast_c1", "test_cast_c10"]
        .iter()
        .flat_map(|c| case_names(c))
        .map(|n| refused(&n, Outcome::KnownFailure))
        .collect();
    let (list, kept) = merge(&old, &Indexed::default(), &ran, &all, "/r");
    assert_eq!(
        kept,
        Kept {
            kept: 9,
            narrowed: 0
        }
    );
    let reasons: BTreeSet<&str> = list.entries.iter().map(|e| e.reason.as_str()).collect();
    let want: BTreeSet<String> = (0..11).map(|i| format!("reviewed reason {i}")).collect();
    assert_eq!(reasons, want.iter().map(String::as_str).collect());
    assert_eq!(list.entries.len(), 11, "{list:#?}");
    // Each trial is selected by exactly one entry, with its own reason.
    let merged = Indexed::new(list);
    for name in &all {
        let selecting = merged.selecting(name);
        assert_eq!(selecting.len(), 1, "{name}");
    }
}

/// An entry some of whose trials ran keeps selecting those that did not, and no longer those
/// that ran: a trial of it that now passes is selected by nothing. A trial the data list holds
/// is the data list's: the narrowed entry does not name it (it would be stale).
#[test]
fn a_merge_narrows_an_entry_to_the_trials_that_did_not_run() {
    let old = KnownFailures::parse(
        r#"{"format": 2, "entries": [{"types": ["INT4"], "kind": "no kernel",
            "reason": "rt has no INT4 kernel", "failure_kind": "unsupported"}]}"#,
    )
    .expect("a list");
    let old = Indexed::new(old);
    let mut all: Vec<String> = [
        "test_cast_FLOAT_to_INT4",
        "test_cast_INT4_to_FLOAT",
        "test_x",
    ]
    .iter()
    .flat_map(|c| case_names(c))
    .collect();
    all.push("own/opset21/test_cast_INT4_to_INT8".into());
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    // The run of release 1.22.0: one INT4 trial still refused, one now passing.
    let ran = [
        refused(
            "onnx-1.22.0/opset25/test_cast_FLOAT_to_INT4",
            Outcome::KnownFailure,
        ),
        TrialRecord::for_test(
            "onnx-1.22.0/opset25/test_cast_INT4_to_FLOAT",
            Outcome::UnexpectedPass,
        )
        .with_release("1.22.0"),
        TrialRecord::for_test("onnx-1.22.0/opset25/test_x", Outcome::Pass).with_release("1.22.0"),
    ];
    let data = KnownFailures::parse(
        r#"{"format": 2, "entries": [{"trials": ["onnx-1.21.0/opset25/test_cast_INT4_to_FLOAT"],
            "kind": "upstream data corrupt", "reason": "r"}]}"#,
    )
    .expect("a data list");
    let (list, kept) = merge(&old, &Indexed::new(data.clone()), &ran, &all, "/r");
    assert_eq!(
        kept,
        Kept {
            kept: 1,
            narrowed: 1
        }
    );
    let lists = crate::known::Lists::new(data, list, "rt.json".into());
    let selected: Vec<&str> = all
        .iter()
        .copied()
        .filter(|n| lists.backend.find(n).is_some())
        .collect();
    assert_eq!(
        selected,
        [
            "onnx-1.21.0/opset25/test_cast_FLOAT_to_INT4",
            "onnx-1.22.0/opset25/test_cast_FLOAT_to_INT4",
            "own/opset21/test_cast_INT4_to_INT8",
        ]
    );
    let narrowed = lists
        .backend
        .find("own/opset21/test_cast_INT4_to_INT8")
        .expect("kept")
        .1;
    assert_eq!(narrowed.reason, "rt has no INT4 kernel");
    assert_eq!(narrowed.types, ["INT4"]);
    assert_eq!(lists.checks(&all, true), []);
}

/// `cargo xtask backends known-failures` on a filtered run's report: refused, naming the
/// report and what made it partial, the list left as it was; with `--merge`, written (aside
/// and renamed), the reviewed entries kept.
#[test]
fn a_partial_run_is_refused_unless_merged() {
    let ws_tmp = scratch("refresh-partial");
    let ws = ws_tmp.path();
    let cases: Vec<String> = (0..11).map(|i| format!("test_cast_c{i}")).collect();
    let instances = RELEASES
        .iter()
        .flat_map(|r| cases.iter().map(|c| instance(r, c, 25)))
        .collect();
    write_index(ws, instances);
    // A lock of one release is enough for the index to be complete.
    let locked: Vec<&str> = cases.iter().map(String::as_str).collect();
    write_lock(ws, RELEASES[1], &locked);
    let list_path = ws.join("tests/known-failures/rt.json");
    std::fs::create_dir_all(list_path.parent().expect("dir")).expect("dir");
    let text = serde_json::to_string_pretty(&reviewed()).expect("json");
    std::fs::write(&list_path, &text).expect("write");
    let ran: Vec<TrialRecord> = case_names("test_cast_c1")
        .iter()
        .map(|n| refused(n, Outcome::KnownFailure))
        .collect();
    let report = Report {
        format: crate::report::FORMAT,
        strict: false,
        data: ws.join("onnx-backend-data").display().to_string(),
        backend: BackendInfo {
            name: "rt".into(),
            ..BackendInfo::default()
        },
        run: Some(RunInfo {
            started: "2026-11-28T00:00:00Z".into(),
            commit: None,
            data_lock_sha256: None,
            source: Source::Official,
            deep_tree: None,
            runner: Runner::Libtest,
            filters: vec!["test_cast_c1".into()],
            listed: 22,
            ran: 2,
            complete: false,
            configuration: None,
        }),
        known_failures: Some("tests/known-failures/rt.json".into()),
        trials: ran,
    };
    let report_path = ws.join("report.json");
    std::fs::write(&report_path, serde_json::to_string(&report).expect("json")).expect("write");
    let target = ws.join("target");
    let refresh = |merge| super::super::run(ws, &target, "rt", Some(&report_path), None, merge);

    let e = refresh(false).expect_err("a partial run").to_string();
    for want in [
        report_path.display().to_string().as_str(),
        "a partial run (filter test_cast_c1; 2 of 22 listed trials ran)",
        "--merge",
    ] {
        assert!(e.contains(want), "{want:?} not in {e}");
    }
    assert_eq!(std::fs::read_to_string(&list_path).expect("list"), text);

    refresh(true).expect("merged");
    let merged = KnownFailures::load(&list_path).expect("the merged list");
    assert_eq!(merged.entries.len(), 11, "{merged:#?}");
    assert!(merged
        .entries
        .iter()
        .all(|e| e.reason.starts_with("reviewed reason")));
    let leftovers: Vec<_> = std::fs::read_dir(list_path.parent().expect("dir"))
        .expect("dir")
        .filter_map(|f| f.ok())
        .filter(|f| {
            f.file_name()
                .to_string_lossy()
                .starts_with(schema::files::TEMP_PREFIX)
        })
        .collect();
    assert!(leftovers.is_empty());
}
