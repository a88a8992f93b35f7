use super::*;
use crate::testkit::small_tree;
use harness::known::Outcome;
use harness::report::TrialRecord;

const CASE: &str = "cast19_FLOAT_to_INT8";

fn myrt() -> Vec<Chosen> {
    vec![Chosen {
        value: "worker:myrt=no-such-worker".into(),
        label: "myrt".into(),
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
