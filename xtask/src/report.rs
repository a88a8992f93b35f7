//! `cargo xtask report [report.json]`: re-renders `report.md` and `report.html` from a
//! `report.json` (by default the last run's, under `target/onnx-conformance/`).
//! `cargo xtask report --nextest [RUN_ID|latest]`: builds all three reports from the trial
//! records that the processes of a `cargo nextest run` appended.

use harness::report::{self, nextest};
use std::error::Error;
use std::path::{Path, PathBuf};

const USAGE: &str =
    "usage: cargo xtask report [path/to/report.json] | cargo xtask report --nextest [RUN_ID|latest]";

const HELP: &str = "
Re-renders report.md and report.html beside a report.json (default: the last run's, under
target/onnx-conformance/). With --nextest, builds all three reports from the records that the
processes of a `cargo nextest run` appended (default: the latest run), says how many listed
trials did not run, and keeps the newest run files only.";

/// Runs the task with the arguments after `report`.
pub fn main(args: &[String]) -> Result<(), Box<dyn Error>> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}\n{HELP}");
        return Ok(());
    }
    match args {
        [flag, rest @ ..] if flag == "--nextest" => from_nextest(rest),
        [] => rerender(&default_dir().join("report.json")),
        [path] if !path.starts_with('-') => rerender(Path::new(path)),
        _ => Err(USAGE.into()),
    }
}

/// Re-renders the Markdown and HTML beside `json`.
fn rerender(json: &Path) -> Result<(), Box<dyn Error>> {
    let report = report::load(json)?;
    let dir = json.parent().unwrap_or(Path::new(".")).to_path_buf();
    report::render(&dir, &report)?;
    eprintln!("wrote {}/report.{{md,html}}", dir.display());
    Ok(())
}

/// Assembles one nextest run's JSONL records into the three reports.
fn from_nextest(args: &[String]) -> Result<(), Box<dyn Error>> {
    let which = match args {
        [] => None,
        [id] => Some(id.as_str()),
        _ => return Err(USAGE.into()),
    };
    let dir = default_dir();
    let jsonl = nextest::find(&dir, which)?;
    let report = nextest::load(&jsonl)?;
    report::write_all(&dir, &report)?;
    nextest::prune(&dir, nextest::KEEP_RUNS)?;
    print!("{}", report::summary_table(&report));
    if let Some(note) = nextest::not_run_note(&report) {
        eprintln!("warning: {note}");
    }
    eprintln!(
        "wrote {}/report.{{json,md,html}} from {} ({} trials)",
        dir.display(),
        jsonl.display(),
        report.trials.len()
    );
    Ok(())
}

/// `target/onnx-conformance` of this workspace, honouring `CARGO_TARGET_DIR`.
pub(crate) fn default_dir() -> PathBuf {
    target_dir().join("onnx-conformance")
}

/// The workspace's target directory, honouring `CARGO_TARGET_DIR`.
pub(crate) fn target_dir() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = xtask.parent().unwrap_or(xtask);
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => workspace.join(dir),
        _ => workspace.join("target"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_is_an_answer_not_an_error() {
        for args in [&["--help"][..], &["-h"], &["--nextest", "--help"]] {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            assert!(main(&args).is_ok(), "{args:?}");
        }
        assert!(main(&["--bogus".to_string()]).is_err());
    }
}
