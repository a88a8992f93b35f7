//! Trial records, reports and scoreboards for the tests of the diffs, written to scratch files
//! as the runs would.

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
    let t = TrialRecord::case_for_test("1.22.0", 25, case, outcome)
        .with_op(op_version)
        .with_types(&[input], &[output])
        .with_duration(1.0)
        .with_kind(kind);
    match kind {
        Some(k) => t.with_message(format!("{k}: details")),
        None => t,
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
