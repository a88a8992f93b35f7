//! `cargo xtask backends check-example`: builds `examples/external-runtime` (a runtime's own
//! crate outside the workspace, judged in-process through `harness::runner::Suite`) and runs
//! its conformance test twice: on the cases its toy runtime implements, which must pass, and
//! on one it refuses, which must fail as `unsupported`. It compiles the harness a second time
//! (about two minutes on 2 cores, cold), so it runs in `.ci/run` rather than in `cargo test`.

use harness::known::Outcome;
use harness::report::Report;
use std::error::Error;
use std::path::Path;
use std::process::Command;

/// The example crate, relative to the workspace.
pub const CRATE: &str = "examples/external-runtime";
/// The trials its toy runtime passes (every release's FLOAT-to-DOUBLE Cast).
const PASSING: &str = "test_cast_FLOAT_to_DOUBLE";
/// A trial it refuses at load.
const REFUSED: &str = "onnx-1.22.0/opset25/test_cast_FLOAT_to_FLOAT16";

/// Runs both checks; an error says which expectation failed.
pub fn run(root: &Path, target: &Path) -> Result<(), Box<dyn Error>> {
    let target = target.join("external-runtime");
    let report = harness::report::ReportDir::of(&target, "toy-cast").json();
    let passing = test(root, &target, &[PASSING])?;
    let got = read(&report)?;
    let want = instances(root, PASSING)?;
    let passed = got
        .trials
        .iter()
        .filter(|t| t.outcome == Outcome::Pass)
        .count();
    if !passing || got.backend.name != "toy-cast" || got.trials.len() != want || passed != want {
        return Err(format!(
            "{CRATE}: expected {want} passing trials on backend toy-cast, got {passed} of {} \
             on {:?} (exit {})",
            got.trials.len(),
            got.backend.name,
            if passing { "success" } else { "failure" }
        )
        .into());
    }
    println!("check-example: {want} of {want} {PASSING} trials pass on toy-cast");
    println!("check-example: {REFUSED} next, a refusal: that run must fail");
    let refused = test(root, &target, &["--exact", REFUSED])?;
    let got = read(&report)?;
    let kind = got
        .trials
        .iter()
        .find(|t| t.name == REFUSED)
        .and_then(|t| t.failure_kind);
    if refused || kind != Some(harness::backend::FailureKind::Unsupported) {
        return Err(format!(
            "{CRATE}: {REFUSED} must fail the run as unsupported; the run {}, its kind is {kind:?}",
            if refused { "passed" } else { "failed" }
        )
        .into());
    }
    println!("check-example: {REFUSED} fails the run as unsupported");
    Ok(())
}

/// `cargo test` of the example's conformance test with `filter`; whether it passed.
fn test(root: &Path, target: &Path, filter: &[&str]) -> Result<bool, Box<dyn Error>> {
    let manifest = root.join(CRATE).join("Cargo.toml");
    let mut cmd = Command::new(crate::workspace::cargo());
    cmd.args(["test", "--locked", "--manifest-path"])
        .arg(&manifest)
        .args(["--test", "conformance", "--"])
        .args(filter)
        .env("CARGO_TARGET_DIR", target);
    // The example's run is the same whatever the caller's suite settings.
    use harness::runner::{BACKEND_VAR, DATA_VAR, KNOWN_VAR, STRICT_VAR};
    for name in [BACKEND_VAR, DATA_VAR, KNOWN_VAR, STRICT_VAR] {
        cmd.env_remove(name);
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run cargo test for {}: {e}", manifest.display()))?;
    Ok(status.success())
}

fn read(path: &Path) -> Result<Report, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read ({e}); did the run start?", path.display()))?;
    Ok(serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// How many official instances the index lists of `case`.
fn instances(root: &Path, case: &str) -> Result<usize, Box<dyn Error>> {
    let path = root
        .join(harness::index::DATA_DIR)
        .join(harness::index::INDEX_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: cannot read ({e}); run `cargo xtask fetch-tests` first",
            path.display()
        )
    })?;
    let index: harness::index::Index =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(index.instances.iter().filter(|i| i.case == case).count())
}
