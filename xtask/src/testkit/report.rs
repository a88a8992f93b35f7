//! Trial records, reports and scoreboards for the tests of `report --diff` and
//! `scoreboard --diff`, written to scratch files as the runs would.

use crate::cli::{Cli, Task};
use harness::backend::{BackendInfo, FailureKind};
use harness::known::Outcome;
use harness::report::{Report, TrialRecord, FORMAT};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A trial of release 1.22.0, opset 25, with its operator version, types and outcome.
pub fn trial(
    case: &str,
    op_version: &str,
    (input, output): (&str, &str),
    outcome: Outcome,
    kind: Option<FailureKind>,
) -> TrialRecord {
    TrialRecord {
        name: format!("onnx-1.22.0/opset25/{case}"),
        release: Some("1.22.0".into()),
        case: Some(case.into()),
        op_type: op_version.split('-').next().map(String::from),
        op_version: Some(op_version.into()),
        opset: Some(25),
        inputs: vec![input.into()],
        outputs: vec![output.into()],
        outcome,
        rule: "onnx-default".into(),
        rtol: None,
        atol: None,
        duration_ms: 1.0,
        message: kind.map(|k| format!("{k}: details")),
        backend: BackendInfo::default(),
        failure_kind: kind,
    }
}

/// A report of today's format by backend `name` at `version`.
pub fn report(name: &str, version: &str, trials: Vec<TrialRecord>) -> Report {
    Report {
        format: FORMAT,
        strict: false,
        data: "onnx-backend-data".into(),
        backend: BackendInfo {
            name: name.into(),
            runtime: name.into(),
            version: version.into(),
        },
        run: None,
        known_failures: None,
        trials,
    }
}

/// Writes `value` as JSON to `dir/file`.
pub fn write(dir: &Path, file: &str, value: &impl Serialize) -> PathBuf {
    let path = dir.join(file);
    std::fs::write(&path, serde_json::to_string_pretty(value).expect("json")).expect("write");
    path
}

/// The options of `cargo xtask report` for `args` (after `report`).
pub fn report_args(args: &[&str]) -> crate::cli::Report {
    match parse_task("report", args) {
        Task::Report(r) => r,
        other => panic!("not a report task: {other:?}"),
    }
}

/// The options of `cargo xtask scoreboard` for `args` (after `scoreboard`).
pub fn scoreboard_args(args: &[&str]) -> crate::cli::Scoreboard {
    match parse_task("scoreboard", args) {
        Task::Scoreboard(s) => s,
        other => panic!("not a scoreboard task: {other:?}"),
    }
}

fn parse_task(task: &str, args: &[&str]) -> Task {
    let words: Vec<&str> = std::iter::once(task).chain(args.iter().copied()).collect();
    let cli: Cli = super::parse(&words).unwrap_or_else(|e| panic!("{words:?}: {e}"));
    cli.task
}
