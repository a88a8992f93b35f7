use super::*;
use crate::testkit::small_tree;
use harness::known::Outcome;
use harness::report::TrialRecord;

const CASE: &str = "cast19_FLOAT_to_INT8";

fn myrt() -> Vec<Chosen> {
    vec![Chosen {
        value: "worker:myrt=no-such-worker".into(),
        label: "myrt".into(),
        configuration: None,
    }]
}

/// The report of a run of backend `myrt` in which [`CASE`] passed.
fn passing_run() -> Report {
    let trial = TrialRecord::case_for_test("deep", 19, CASE, Outcome::Pass);
    serde_json::from_value(serde_json::json!({
        "format": harness::report::FORMAT,
        "strict": true,
        "data": "",
        "backend": {"name": "myrt", "runtime": "myrt", "version": "1"},
        "trials": [trial],
    }))
    .unwrap()
}

/// A second taker of a held tree told to stop is refused naming the directory and the holder.
#[test]
fn a_held_tree_stops_a_second_taker_naming_the_directory_and_the_holder() {
    let tmp = tempfile::tempdir().unwrap();
    let _held = lock(tmp.path(), "the other deep run", WhenBusy::Stop, &|_| ()).unwrap();
    let e = lock(tmp.path(), "cargo xtask deep", WhenBusy::Stop, &|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains(&tmp.path().display().to_string()), "{e}");
    assert!(e.contains("the other deep run"), "{e}");
    assert!(
        e.contains(&format!("process {}", std::process::id())),
        "{e}"
    );
}

/// A tree file changed after its index was written is a setup error naming the file, its case
/// and `cargo xtask deep-cases`: never a finding, and never a pass, whatever the runtime
/// answered. Here the expected output changes while the backend runs and the runtime
/// "agrees" with the changed file (its case passes): the task stops and the last findings
/// stay; the next run stops before running anything.
#[test]
fn a_changed_tree_file_is_a_setup_error_never_a_finding_nor_a_pass() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path();
    small_tree(tree, &[CASE], "sources");
    let output = tree
        .join(tree::CASES_DIR)
        .join(CASE)
        .join("test_data_set_0/output_0.pb");
    let root = crate::testkit::root();
    let held = lock(tree, "this test", WhenBusy::Stop, &|_| ()).unwrap();
    // The intact tree: the passing run gives findings (of nothing).
    findings(&root, &held, &myrt(), |_| Ok(passing_run()), &|_| ()).unwrap();
    let good = std::fs::read(tree.join("findings.json")).unwrap();
    let e = findings(
        &root,
        &held,
        &myrt(),
        |_| {
            let mut bytes = std::fs::read(&output).unwrap();
            let last = bytes.len() - 1;
            bytes[last] ^= 1;
            std::fs::write(&output, bytes).unwrap();
            Ok(passing_run())
        },
        &|_| (),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains(&output.display().to_string()), "{e}");
    assert!(e.contains(&format!("(case {CASE})")), "{e}");
    assert!(e.contains(tree::REGENERATE), "{e}");
    assert!(e.contains("no findings were written"), "{e}");
    assert_eq!(std::fs::read(tree.join("findings.json")).unwrap(), good);
    let mut ran = false;
    let e = findings(
        &root,
        &held,
        &myrt(),
        |_| {
            ran = true;
            Ok(passing_run())
        },
        &|_| (),
    )
    .unwrap_err()
    .to_string();
    assert!(!ran, "a backend ran on a changed tree");
    assert!(e.contains(&output.display().to_string()), "{e}");
    assert!(e.contains("nothing was run"), "{e}");
}

/// A run of backend `myrt` in configuration `active` of `a` and `b`, in which [`CASE`] passes,
/// or is refused when `refused`.
fn configured_run(active: &str, refused: bool) -> Report {
    let mut trial = TrialRecord::case_for_test("deep", 19, CASE, Outcome::Pass);
    if refused {
        trial.outcome = Outcome::Fail;
        trial.failure_kind = Some(harness::backend::FailureKind::Unsupported);
        trial.message = Some("no kernel in b".into());
    }
    let mut report = passing_run();
    report.trials = vec![trial];
    report.run = Some(
        serde_json::from_value(serde_json::json!({
            "started": "", "commit": null, "data_lock_sha256": null, "source": "deep",
            "runner": "libtest", "filters": [], "listed": 1, "ran": 1, "complete": true,
            "configuration": {"active": active, "declared": ["a", "b"]},
        }))
        .unwrap(),
    );
    report
}

/// A backend that declares configurations runs in each, its default first; a class says the
/// configurations it shows in, and the runs are listed one per configuration.
#[test]
fn every_configuration_a_backend_declares_runs_and_a_finding_names_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path();
    small_tree(tree, &[CASE], "sources");
    let root = crate::testkit::root();
    let held = lock(tree, "this test", WhenBusy::Stop, &|_| ()).unwrap();
    let mut asked = Vec::new();
    let all = findings(
        &root,
        &held,
        &myrt(),
        |c| {
            asked.push(c.configuration.clone());
            let active = c.configuration.as_deref().unwrap_or("a");
            Ok(configured_run(active, active == "b"))
        },
        &|_| (),
    )
    .unwrap();
    assert_eq!(asked, [None, Some("b".to_string())]);
    let runs: Vec<Option<&str>> = all
        .runs
        .iter()
        .map(|r| r.configuration.as_deref())
        .collect();
    assert_eq!(runs, [Some("a"), Some("b")]);
    assert_eq!(all.findings.len(), 1);
    assert_eq!(all.findings[0].configurations, ["b"]);
    assert_eq!(all.causes[0].configurations, ["b"]);
    // A run that says another configuration than the one asked for stops the task.
    let e = findings(
        &root,
        &held,
        &myrt(),
        |_| Ok(configured_run("a", false)),
        &|_| (),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("asked for configuration \"b\""), "{e}");
}
