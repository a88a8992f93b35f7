//! Two conformance runs at once on one report directory, ten rounds: a default run and a
//! strict run of the whole official suite, each a process of its own exactly as
//! `tests/onnx_backend.rs` makes it. Afterwards every report must be whole and the four files
//! of the directory must all be of one run: the second run waits for the first (the report
//! directory's lock), and each writes its set aside and renames it into place.
//!
//! This binary is its own child: started with [`CHILD_VAR`] set, it is a conformance run.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// Set (to the report directory) in a child process: run the suite there.
const CHILD_VAR: &str = "CONCURRENT_RUNS_CHILD";
const ROUNDS: usize = 10;

fn main() -> ExitCode {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os(CHILD_VAR).is_some() {
        return harness::runner::main(workspace);
    }
    let args = libtest_mimic::Arguments::from_args();
    let trial =
        libtest_mimic::Trial::test("two_runs_at_once_leave_whole_reports_of_one_run", || {
            two_runs_at_once().map_err(Into::into)
        });
    libtest_mimic::run(&args, vec![trial]).exit_code()
}

fn two_runs_at_once() -> Result<(), String> {
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let reports = scratch.path().join("reports");
    for round in 0..ROUNDS {
        let start = |strict: bool| child(&reports, strict);
        let (mut a, mut b) = (start(false)?, start(true)?);
        let (a, b) = (a.wait(), b.wait());
        for (status, which) in [(a, "default"), (b, "strict")] {
            let status = status.map_err(|e| e.to_string())?;
            if !status.success() {
                return Err(format!("round {round}: the {which} run failed ({status})"));
            }
        }
        one_whole_run(&reports).map_err(|e| format!("round {round}: {e}"))?;
    }
    Ok(())
}

/// A conformance run of the whole official suite writing to `reports`.
fn child(reports: &Path, strict: bool) -> Result<std::process::Child, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    cmd.arg("--quiet")
        .env(CHILD_VAR, "1")
        .env(harness::runner::REPORT_DIR_VAR, reports)
        .env(harness::runner::STRICT_VAR, if strict { "1" } else { "0" })
        .env_remove(harness::runner::BACKEND_VAR)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd.spawn().map_err(|e| e.to_string())
}

/// Every report file in `dir` is whole and all four are of the same run: the same comparison
/// mode and the same trial count, which is the whole suite's.
fn one_whole_run(dir: &Path) -> Result<(), String> {
    let read = |name: &str| -> Result<String, String> {
        let path: PathBuf = dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let report =
        harness::report::load(&dir.join(harness::report::JSON_FILE)).map_err(|e| e.to_string())?;
    let (strict, count) = (report.strict, report.trials.len());
    if report.run.as_ref().is_none_or(|r| !r.complete) {
        return Err("report.json is not of a complete run".into());
    }
    let junit = read("report.junit.xml")?;
    let doc = roxmltree::Document::parse(&junit)
        .map_err(|e| format!("report.junit.xml is not well-formed: {e}"))?;
    let suites = doc.root_element();
    let tests = suites.attribute("tests").unwrap_or("");
    if tests != count.to_string() {
        return Err(format!(
            "report.junit.xml counts {tests} tests, report.json {count}"
        ));
    }
    let junit_strict = doc
        .descendants()
        .find(|n| n.has_tag_name("property") && n.attribute("name") == Some("strict"))
        .and_then(|n| n.attribute("value"));
    if junit_strict != Some(&strict.to_string()) {
        return Err(format!(
            "report.junit.xml says strict={junit_strict:?}, report.json strict={strict}"
        ));
    }
    let md = read("report.md")?;
    let html = read("report.html")?;
    let mode = |text: &str| text.contains("- comparison: strict");
    if mode(&md) != strict {
        return Err(format!(
            "report.md's mode differs from report.json's strict={strict}"
        ));
    }
    if html.contains("strict (bit-exact") != strict || !html.trim_end().ends_with("</html>") {
        return Err(format!(
            "report.html is cut short or of the other run (report.json strict={strict})"
        ));
    }
    Ok(())
}
