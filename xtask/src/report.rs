//! `cargo xtask report [report.json]`: re-renders `report.md` and `report.html` from a
//! `report.json` (by default the last run's, under `target/onnx-conformance/`).
//! `cargo xtask report --nextest [RUN_ID|latest]`: builds all three reports from the trial
//! records that the processes of a `cargo nextest run` appended.
//! `cargo xtask report --diff OLD`: what moved since an older report of the same backend
//! (`reports::report_diff`).

use harness::report::{self, nextest};
use reports::diff;
use reports::report_diff::{diff_text, DiffOptions};
use schema::files::{DirLock, WhenBusy};
use std::error::Error;
use std::path::{Path, PathBuf};

/// Runs the task with the options after `report`.
pub fn main(_root: &Path, args: &crate::cli::Report) -> Result<(), Box<dyn Error>> {
    if let Some(old) = &args.diff {
        let options = DiffOptions {
            target: crate::workspace::target_dir(),
            new: args.new.clone(),
            backend: args.backend.clone(),
            any_backend: args.any_backend,
            max_rows: args.max_rows,
        };
        let (text, regressions) = diff_text(old, &options)?;
        print!("{text}");
        return Ok(diff::judge(regressions, args.fail_on_regression)?);
    }
    match (&args.nextest, &args.json) {
        (Some(run), _) => from_nextest(run),
        (None, Some(json)) => rerender(json),
        (None, None) => rerender(&default_dir().join(report::JSON_FILE)),
    }
}

/// Re-renders the Markdown and HTML beside `json`.
fn rerender(json: &Path) -> Result<(), Box<dyn Error>> {
    let report = report::load(json)?;
    let dir = json.parent().unwrap_or(Path::new(".")).to_path_buf();
    let _held = lock(&dir, "cargo xtask report")?;
    report::render(&dir, &report)?;
    eprintln!("wrote {}/report.{{md,html,junit.xml}}", dir.display());
    Ok(())
}

/// Assembles one nextest run's JSONL records (`latest` or a run id) into the three reports.
fn from_nextest(which: &str) -> Result<(), Box<dyn Error>> {
    let dir = default_dir();
    let _held = lock(&dir, "cargo xtask report")?;
    let jsonl = nextest::find(&dir, Some(which))?;
    let report = nextest::load(&jsonl)?;
    let dest = report::destination(&dir, &report);
    report::write_all(&dest, &report)?;
    nextest::prune(&dir, nextest::KEEP_RUNS)?;
    print!("{}", report::summary_table(&report));
    if let Some(note) = nextest::not_run_note(&report) {
        eprintln!("warning: {note}");
    }
    eprintln!(
        "wrote {}/report.{{json,md,html,junit.xml}} from {} ({} trials)",
        dest.display(),
        jsonl.display(),
        report.trials.len()
    );
    Ok(())
}

/// A report directory's lock for task `purpose`, waited for (saying so).
pub(crate) fn lock(dir: &Path, purpose: &str) -> Result<DirLock, Box<dyn Error>> {
    let on_wait = |holder: &str| eprintln!("waiting for {}: in use by {holder}", dir.display());
    Ok(report::lock(dir, purpose, WhenBusy::Wait, on_wait)?)
}

/// `target/onnx-conformance` of this workspace, honouring `CARGO_TARGET_DIR`.
pub(crate) fn default_dir() -> PathBuf {
    harness::report::ReportDir::root(&crate::workspace::target_dir())
}
