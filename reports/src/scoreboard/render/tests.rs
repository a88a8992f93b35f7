use super::*;
use crate::scoreboard::NotSetUp;
use harness::backend::BackendInfo;

fn trial(opset: i64, outcome: Outcome, kind: Option<FailureKind>) -> TrialRecord {
    TrialRecord::case_for_test("1.22.0", opset, "test_cast_FLOAT_to_FLOAT16", outcome)
        .with_op("Cast-21")
        .with_types(&["FLOAT"], &["FLOAT16"])
        .with_kind(kind)
}

#[test]
fn versions_sort_by_number_within_an_operator() {
    let mut b = board();
    b.backends[0].trials[1].op_version = vocab::OpVersion::parse("Cast-6");
    let md = markdown(&b);
    assert!(
        md.find("| Cast-6 |").unwrap() < md.find("| Cast-21 |").unwrap(),
        "{md}"
    );
}

fn board() -> Scoreboard {
    let run = |name: &str, trials| BackendRun {
        backend: BackendInfo {
            name: name.into(),
            runtime: name.into(),
            version: "1".into(),
        },
        trials,
    };
    Scoreboard {
        data_lock: "abc".into(),
        backends: vec![
            run(
                "a",
                vec![
                    trial(21, Outcome::Pass, None),
                    trial(23, Outcome::Pass, None),
                ],
            ),
            run(
                "b",
                vec![
                    trial(21, Outcome::KnownFailure, Some(FailureKind::Unsupported)),
                    trial(23, Outcome::Fail, Some(FailureKind::Mismatch)),
                ],
            ),
        ],
        not_set_up: vec![],
    }
}

#[test]
fn a_backend_not_set_up_is_named_not_dropped() {
    let mut b = board();
    b.not_set_up.push(NotSetUp {
        name: "tract".into(),
        status: "not set up: cargo xtask backends setup tract".into(),
    });
    let line = "tract          not set up: cargo xtask backends setup tract";
    assert!(summary(&b).contains(line), "{}", summary(&b));
    assert!(
        markdown(&b).contains("- **tract**: not run, not set up: cargo xtask backends setup tract")
    );
    assert!(html(&b).contains("<p><b>tract</b>: not run, not set up:"));
    assert!(!summary(&board()).contains("not set up"));
}

#[test]
fn cells_count_what_happened_known_or_not() {
    let md = markdown(&board());
    assert!(
        md.contains("| opset 21 | 1/1 | 0/1 · 1 unsupported |"),
        "{md}"
    );
    assert!(md.contains("| opset 23 | 1/1 | 0/1 · 1 mismatch |"), "{md}");
    assert!(
        md.contains("| FLOAT -> FLOAT16 | 2/2 | 0/2 · 1 mismatch · 1 unsupported |"),
        "{md}"
    );
    let html = html(&board());
    assert!(
        html.contains("<td class=\"unsupported\">0/1 · 1 unsupported</td>"),
        "{html}"
    );
    assert!(html.contains("<td class=\"fail\">0/1 · 1 mismatch</td>"));
    assert!(summary(&board()).contains(
        "b                  2 trials     0 pass     1 mismatch     1 unsupported     0 error"
    ));
}

/// A case the runtime predates counts apart, listed or not: out of the cell's trials, named
/// in it, a grey cell when nothing else went wrong, a column of the console summary.
#[test]
fn predated_cases_count_apart() {
    let mut b = board();
    let old = &mut b.backends[1];
    old.trials = vec![
        trial(21, Outcome::Pass, None),
        trial(25, Outcome::Predates, Some(FailureKind::Predates)),
        trial(25, Outcome::Fail, Some(FailureKind::Predates)),
    ];
    let md = markdown(&b);
    assert!(md.contains("| opset 25 |  | 0/0 · 2 predates |"), "{md}");
    assert!(md.contains("| 1/1 · 2 predates |"), "{md}");
    assert!(md.contains("cases the runtime predates"), "{md}");
    assert!(
        html(&b).contains("<td class=\"unsupported\">0/0 · 2 predates</td>"),
        "{}",
        html(&b)
    );
    let text = summary(&b);
    assert!(text.contains("0 error     2 predates"), "{text}");
}
