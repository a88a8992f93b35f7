//! `cargo xtask backends check-junit [DIR...]`: `report.junit.xml` read by a real JUnit
//! consumer, Python's `junitparser`, through `backends/python/check_junit.py`, which checks
//! every testcase against the `report.json` beside it. First a self-test: a report holding
//! every outcome and failure kind, a setup check, and a message with markup and control bytes
//! is written by the harness's writer and must pass; then the same file with one failure type
//! changed must be refused, naming the testcase. Then each `DIR` given (a run's report
//! directory) is checked.
//!
//! junitparser is pinned in `backends/python/requirements.txt`, so it lives in the backends'
//! venv (`cargo xtask backends setup onnxruntime`). Without the venv the task fails and names
//! that command. It runs in `.ci/run` after the setup, not in `cargo test`, which must pass
//! without the venv (this was `harness/tests/junit_consumer.rs`, which skipped itself there).

use harness::backend::{python_venv, BackendInfo, FailureKind};
use harness::known::Outcome;
use harness::report::{write_all, Report, TrialRecord, FORMAT};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The checker, relative to the workspace.
const SCRIPT: &str = "backends/python/check_junit.py";

/// What the checker says of [`every_outcome`].
pub const SELF_TEST_SUMMARY: &str = "12 testcases as report.json says (8 failures, 3 skipped)";

/// Runs the self-test, then checks each of `dirs`.
pub fn run(root: &Path, target: &Path, dirs: &[PathBuf]) -> Result<(), Box<dyn Error>> {
    let python = venv_python(target)?;
    let scratch = harness::report::ReportDir::root(target).join("check-junit");
    self_test(root, &python, &scratch)?;
    for dir in dirs {
        for file in [harness::report::JSON_FILE, "report.junit.xml"] {
            if !dir.join(file).is_file() {
                return Err(format!(
                    "{}: no {file}; give a run's report directory (did the run happen?)",
                    dir.display()
                )
                .into());
            }
        }
        let out = check(root, &python, dir)?;
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            return Err(format!(
                "{}: report.junit.xml disagrees with report.json:\n{}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
    }
    Ok(())
}

/// The venv's interpreter, with junitparser; an error naming the setup command otherwise.
pub fn venv_python(target: &Path) -> Result<PathBuf, String> {
    let python = python_venv(target).join("bin").join("python");
    let setup = "run `cargo xtask backends setup onnxruntime` first";
    if !python.exists() {
        return Err(format!(
            "{} is missing: the JUnit check needs junitparser from the backends' venv; {setup}",
            python.display()
        ));
    }
    let has = Command::new(&python)
        .args(["-c", "import junitparser"])
        .status()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !has.success() {
        return Err(format!(
            "{} lacks junitparser (pinned in backends/python/requirements.txt); {setup}",
            python.display()
        ));
    }
    Ok(python)
}

/// The checker's run on `dir`.
fn check(root: &Path, python: &Path, dir: &Path) -> Result<Output, String> {
    Command::new(python)
        .arg(root.join(SCRIPT))
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run {SCRIPT} with {}: {e}", python.display()))
}

/// Every outcome's file, written into `dir` (emptied first), must pass, and a planted wrong
/// failure type must be refused.
fn self_test(root: &Path, python: &Path, dir: &Path) -> Result<(), Box<dyn Error>> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_all(dir, &every_outcome())?;
    let out = check(root, python, dir)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !stdout.contains(SELF_TEST_SUMMARY) {
        return Err(format!(
            "check-junit self-test: the report of every outcome did not pass as \
             `{SELF_TEST_SUMMARY}`:\n{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    println!("check-junit: every outcome and failure kind read as report.json says");

    // The checker is not a rubber stamp: a file that lost a testcase's failure type is refused.
    let path = dir.join("report.junit.xml");
    let xml = std::fs::read_to_string(&path)?;
    let broken =
        plant_wrong_type(&xml).ok_or("check-junit self-test: no timeout failure to change")?;
    std::fs::write(&path, broken)?;
    let out = check(root, python, dir)?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() || !stderr.contains("test_timeout: failure type 'mismatch'") {
        return Err(format!(
            "check-junit self-test: a timeout failure written as a mismatch was not refused \
             by name (exit {}):\n{stderr}",
            out.status
        )
        .into());
    }
    println!("check-junit: a planted wrong failure type is refused");
    Ok(())
}

/// `xml` with the first timeout failure written as a mismatch; `None` when it has none.
pub fn plant_wrong_type(xml: &str) -> Option<String> {
    let broken = xml.replacen("type=\"timeout\"", "type=\"mismatch\"", 1);
    (broken != xml).then_some(broken)
}

/// A Cast-25 FLOAT -> FLOAT16 trial of the self-test, by the harness's record builder.
fn record(case: &str, outcome: Outcome, kind: Option<FailureKind>, message: &str) -> TrialRecord {
    let t = TrialRecord::case_for_test("1.22.0", 25, case, outcome)
        .with_op("Cast-25")
        .with_types(&["FLOAT"], &["FLOAT16"])
        .with_duration(2.5)
        .with_kind(kind);
    match message.is_empty() {
        true => t,
        false => t.with_message(message),
    }
}

/// Every outcome and failure kind, a setup check, and a message with markup and control bytes.
pub fn every_outcome() -> Report {
    let mut trials = vec![record("test_pass", Outcome::Pass, None, "")];
    for kind in FailureKind::ALL {
        let msg = format!("{kind}: <out> & \"x\"\r\n\u{1b}[1mbold\u{0}");
        trials.push(record(
            &format!("test_{kind}"),
            Outcome::Fail,
            Some(kind),
            &msg,
        ));
    }
    trials.push(record(
        "test_known",
        Outcome::KnownFailure,
        Some(FailureKind::Mismatch),
        "known failure (mismatch): upstream data\ndetails",
    ));
    trials.push(record(
        "test_data_problem",
        Outcome::DataProblem,
        Some(FailureKind::Error),
        "upstream data problem (corrupt): the data is wrong\ndetails",
    ));
    trials.push(record(
        "test_predates_listed",
        Outcome::Predates,
        Some(FailureKind::Predates),
        "runtime predates the case, as listed (older runtime): 1.31 loads IR 13\n\
         backend x: runtime predates opset 25 (it supports at most 24)",
    ));
    trials.push(record(
        "test_unexpected",
        Outcome::UnexpectedPass,
        None,
        "unexpectedly passed",
    ));
    let mut guard = record("x", Outcome::Fail, None, "the data is incomplete");
    guard.name = "onnx-backend-data/incomplete".into();
    (guard.release, guard.case) = (None, None);
    trials.push(guard);
    Report {
        format: FORMAT,
        strict: false,
        data: "/d".into(),
        backend: BackendInfo {
            name: "native".into(),
            runtime: "onnx-conformance".into(),
            version: "0.1.0".into(),
        },
        run: None,
        known_failures: None,
        trials,
    }
}

#[cfg(test)]
mod tests;
