//! Running the conformance binary on one backend from a task (scoreboard, deep), and reading
//! the report that run left.

use harness::report::{self, Report};
use std::error::Error;
use std::path::Path;
use std::process::Command;

/// Runs `cargo test --test onnx_backend -- <filter>` with `ONNX_CONFORMANCE_BACKEND=<backend>`
/// and the variables of `env`, then reads `<report_dir>/report.json`, which is removed first so
/// that a report of an earlier run cannot stand in for this one. `name` names the backend in
/// messages.
pub fn run(
    root: &Path,
    report_dir: &Path,
    backend: &str,
    name: &str,
    filter: &str,
    env: &[(&str, &str)],
) -> Result<Report, Box<dyn Error>> {
    let path = report_dir.join("report.json");
    let _ = std::fs::remove_file(&path);
    let status = Command::new(crate::workspace::cargo())
        .current_dir(root)
        .args([
            "test",
            "--quiet",
            "--test",
            "onnx_backend",
            "--",
            "--quiet",
            filter,
        ])
        .env(harness::runner::BACKEND_VAR, backend)
        .envs(env.iter().copied())
        .status()?;
    report::load(&path)
        .map_err(|e| format!("backend {name}: the run ({status}) left no report: {e}").into())
}
