//! Running the conformance binary on one backend from a task (scoreboard, deep), and reading
//! the report that run left.

use harness::report::{self, Report};
use std::error::Error;
use std::path::Path;
use std::process::Command;

/// Runs `cargo test --test onnx_backend [--features <linked runtime>] -- <filter>` with
/// `ONNX_CONFORMANCE_BACKEND=<backend>` and the variables of `env`, then reads `<report_dir>/report.json`, which is removed first so
/// that a report of an earlier run cannot stand in for this one. `name` names the backend in
/// messages. The run's own output (a line of dots and every failure's message: thousands of
/// lines, and cargo's "test failed" whenever a trial fails, which is what these tasks expect)
/// goes to `<report_dir>/run.log`, not to the terminal; its last lines are quoted when the run
/// left no report.
pub fn run(
    root: &Path,
    report_dir: &Path,
    backend: &str,
    name: &str,
    filter: &str,
    env: &[(&str, &str)],
) -> Result<Report, Box<dyn Error>> {
    let path = report_dir.join(report::JSON_FILE);
    let _ = std::fs::remove_file(&path);
    std::fs::create_dir_all(report_dir)
        .map_err(|e| format!("cannot create {}: {e}", report_dir.display()))?;
    let log_path = report_dir.join("run.log");
    let log = std::fs::File::create(&log_path)
        .map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
    // A linked runtime (rten, candle) exists only in a binary built with its feature.
    let feature = harness::backend::Shipped::find(backend).and_then(|s| s.cargo_feature());
    let features = feature.map(|f| ["--features", f]);
    let status = Command::new(crate::workspace::cargo())
        .current_dir(root)
        .args(["test", "--quiet", "--test", "onnx_backend"])
        .args(features.iter().flatten())
        .args(["--", "--quiet", filter])
        .env(harness::runner::BACKEND_VAR, backend)
        .envs(env.iter().copied())
        .stdout(log.try_clone()?)
        .stderr(log)
        .status()?;
    eprintln!("{name}: the suite's output is in {}", log_path.display());
    report::load(&path).map_err(|e| {
        let text = std::fs::read_to_string(&log_path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(30)..].join("\n");
        format!("backend {name}: the run ({status}) left no report: {e}; the end of its output:\n{tail}").into()
    })
}
