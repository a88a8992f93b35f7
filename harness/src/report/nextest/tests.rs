//! Unit tests of the nextest JSON-lines report.

use super::*;
use crate::outcome::Outcome;
use crate::testkit::record;
use crate::testkit::scratch;

fn line(case: &str, outcome: Outcome) -> Line {
    Line {
        known_failures: None,
        strict: false,
        data: "d".into(),
        run: None,
        trial: record("1.22.0", 25, case, "Cast", outcome),
    }
}

#[test]
fn run_ids_are_safe_file_names() {
    assert_eq!(run_id(None), None);
    assert_eq!(run_id(Some("")), None);
    let uuid = "1f79aa0d-4ec8-4a5c-aa83-5e8dc2f36573";
    assert_eq!(run_id(Some(uuid)).as_deref(), Some(uuid));
    assert_eq!(run_id(Some("../x y")).as_deref(), Some("___x_y"));
}

#[test]
fn appended_lines_make_one_report_last_attempt_wins() {
    let out_tmp = scratch("nextest-report");
    let out = out_tmp.path();
    let path = run_file(out, "run-1");
    append(&path, &[line("test_b", Outcome::Fail)]).expect("append");
    append(&path, &[line("test_a", Outcome::Pass)]).expect("append");
    // nextest retried test_b, and it passed.
    append(&path, &[line("test_b", Outcome::Pass)]).expect("append");
    let report = load(&path).expect("load");
    let names: Vec<(&str, Outcome)> = report
        .trials
        .iter()
        .map(|t| (t.case.as_deref().unwrap_or(""), t.outcome))
        .collect();
    assert_eq!(
        names,
        [("test_a", Outcome::Pass), ("test_b", Outcome::Pass)]
    );
    assert!(!report.strict);
    assert_eq!(find(out, None).expect("latest"), path);
    assert_eq!(find(out, Some("latest")).expect("latest"), path);
    assert_eq!(find(out, Some("run-1")).expect("by id"), path);
    let e = find(out, Some("run-2")).expect_err("no such run");
    assert!(e.to_string().contains("no such nextest run"), "{e}");
    // A later run becomes the latest; pruning to one keeps only it.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let later = run_file(out, "run-2");
    append(&later, &[line("test_a", Outcome::Pass)]).expect("append");
    assert_eq!(find(out, None).expect("latest"), later);
    assert_eq!(prune(out, 1).expect("prune"), 1);
    assert!(!path.exists() && later.exists());
}

fn run_info(listed: usize) -> RunInfo {
    RunInfo {
        started: "2026-11-23T20:00:00Z".into(),
        commit: None,
        data_lock_sha256: None,
        source: crate::provenance::Source::Official,
        deep_tree: None,
        runner: Runner::Nextest,
        filters: vec![],
        listed,
        ran: 1,
        complete: false,
        configuration: None,
    }
}

#[test]
fn the_report_says_how_many_listed_trials_did_not_run() {
    let out_tmp = scratch("nextest-partial");
    let out = out_tmp.path();
    let path = run_file(out, "r");
    let mut first = line("test_a", Outcome::Fail);
    first.run = Some(RunInfo {
        commit: Some("abc".into()),
        ..run_info(26)
    });
    let mut second = line("test_b", Outcome::Pass);
    second.run = Some(run_info(26));
    append(&path, &[first, second]).expect("append");
    let report = load(&path).expect("load");
    let run = report.run.clone().expect("merged run");
    assert_eq!((run.listed, run.ran, run.complete), (26, 2, false));
    assert_eq!(run.commit.as_deref(), Some("abc"));
    let note = not_run_note(&report).expect("a note");
    assert!(
        note.starts_with("24 of 26 listed trials did not run"),
        "{note}"
    );
    let mut whole = report.clone();
    whole.run = Some(RunInfo { ran: 26, ..run });
    assert_eq!(not_run_note(&whole), None);
    whole.run = None;
    assert!(not_run_note(&whole).is_some());
}

#[test]
fn a_new_run_prunes_old_run_files() {
    let out_tmp = scratch("nextest-prune");
    let out = out_tmp.path();
    for i in 0..KEEP_RUNS + 3 {
        append_to_run(
            out,
            &format!("old-{i:02}"),
            &[line("test_a", Outcome::Pass)],
        )
        .expect("append");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let count = || std::fs::read_dir(out.join(DIR)).expect("dir").count();
    assert_eq!(count(), KEEP_RUNS);
    assert!(run_file(out, "old-12").exists() && !run_file(out, "old-02").exists());
    // Later processes of a run append without pruning anything.
    append_to_run(out, "old-12", &[line("test_b", Outcome::Pass)]).expect("append");
    assert_eq!(count(), KEEP_RUNS);
}

// nextest's default profile stops at the first failure, which leaves a report of a few
// trials; the workspace's configuration must turn that off.
#[test]
fn the_shipped_nextest_profile_runs_every_trial() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.config/nextest.toml");
    let text = std::fs::read_to_string(&path).expect(".config/nextest.toml is shipped");
    let mut section = "";
    let mut found = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.starts_with('#')) {
        if line.starts_with('[') {
            section = line;
        } else if let Some((key, value)) = line.split_once('=') {
            found.push((section, key.trim(), value.trim()));
        }
    }
    assert!(
        found.contains(&("[profile.default]", "fail-fast", "false")),
        "{found:?}"
    );
    assert!(
        found.contains(&("[profile.default]", "retries", "0")),
        "{found:?}"
    );
}

#[test]
fn bad_and_mixed_lines_are_errors() {
    let out_tmp = scratch("nextest-bad");
    let out = out_tmp.path();
    let path = run_file(out, "r");
    append(&path, &[line("test_a", Outcome::Pass)]).expect("append");
    let mut strict = line("test_b", Outcome::Pass);
    strict.strict = true;
    append(&path, &[strict]).expect("append");
    let e = load(&path).expect_err("mixed settings");
    assert!(
        e.to_string().contains("line 2: ran with strict=true"),
        "{e}"
    );
    std::fs::write(&path, "{\"strict\":false}\n").expect("write");
    let e = load(&path).expect_err("bad line");
    assert!(e.to_string().contains("line 1: invalid record"), "{e}");
    std::fs::write(&path, "\n").expect("write");
    assert!(load(&path).is_err());
    std::fs::remove_dir_all(out).expect("cleanup");
    assert!(find(out, None).is_err(), "no directory, no run");
}
