use super::*;

#[test]
fn a_missing_venv_names_the_setup_command() {
    let target = tempfile::tempdir().unwrap();
    let e = venv_python(target.path()).unwrap_err();
    assert!(e.contains("is missing"), "{e}");
    assert!(e.contains("cargo xtask backends setup onnxruntime"), "{e}");
}

/// The self-test's report holds what its expected summary counts: every failure kind, the
/// setup check and the unexpected pass fail, the known failure, the data problem and the
/// predated case are skipped.
#[test]
fn the_self_test_report_matches_its_expected_summary() {
    let report = every_outcome();
    let fails = report
        .trials
        .iter()
        .filter(|t| matches!(t.outcome, Outcome::Fail | Outcome::UnexpectedPass))
        .count();
    let skipped = report
        .trials
        .iter()
        .filter(|t| {
            matches!(
                t.outcome,
                Outcome::KnownFailure | Outcome::DataProblem | Outcome::Predates
            )
        })
        .count();
    let summary = format!(
        "{} testcases as report.json says ({fails} failures, {skipped} skipped)",
        report.trials.len()
    );
    assert_eq!(summary, SELF_TEST_SUMMARY);
    for outcome in [Outcome::DataProblem, Outcome::Predates] {
        assert!(
            report.trials.iter().any(|t| t.outcome == outcome),
            "{outcome:?}"
        );
    }
    for kind in FailureKind::ALL {
        assert!(
            report.trials.iter().any(|t| t.failure_kind == Some(kind)),
            "{kind}"
        );
    }
    // The planted error has a timeout failure to change.
    let dir = tempfile::tempdir().unwrap();
    write_all(dir.path(), &report).unwrap();
    let xml = std::fs::read_to_string(dir.path().join("report.junit.xml")).unwrap();
    let broken = plant_wrong_type(&xml).expect("a timeout failure");
    assert_eq!(
        broken.matches("type=\"timeout\"").count() + 1,
        xml.matches("type=\"timeout\"").count()
    );
    assert_eq!(
        plant_wrong_type(&broken.replace("type=\"timeout\"", "")),
        None
    );
}
