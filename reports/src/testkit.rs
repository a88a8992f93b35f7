//! Reports and scoreboards for the tests of the diffs, written to scratch files
//! as the runs would.

use harness::backend::BackendInfo;
use harness::report::{Report, TrialRecord, FORMAT};
use serde::Serialize;
use std::path::{Path, PathBuf};

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
