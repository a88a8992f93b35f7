//! `cargo xtask report [report.json]`: re-renders `report.md` and `report.html` from a
//! `report.json` (by default the last run's, under `target/onnx-conformance/`).
//! `cargo xtask report --nextest [RUN_ID|latest]`: builds all three reports from the trial
//! records that the processes of a `cargo nextest run` appended.
//! `cargo xtask report --diff OLD`: what moved since an older report of the same backend.

use crate::scoreboard::diff;
use harness::report::{self, nextest, Report};
use std::error::Error;
use std::path::{Path, PathBuf};

/// Runs the task with the options after `report`.
pub fn main(args: &crate::cli::Report) -> Result<(), Box<dyn Error>> {
    if let Some(old) = &args.diff {
        let (text, regressions) = diff_text(old, args)?;
        print!("{text}");
        return diff::judge(regressions, args.fail_on_regression);
    }
    match (&args.nextest, &args.json) {
        (Some(run), _) => from_nextest(run),
        (None, Some(json)) => rerender(json),
        (None, None) => rerender(&default_dir().join("report.json")),
    }
}

/// Re-renders the Markdown and HTML beside `json`.
fn rerender(json: &Path) -> Result<(), Box<dyn Error>> {
    let report = report::load(json)?;
    let dir = json.parent().unwrap_or(Path::new(".")).to_path_buf();
    report::render(&dir, &report)?;
    eprintln!("wrote {}/report.{{md,html,junit.xml}}", dir.display());
    Ok(())
}

/// Assembles one nextest run's JSONL records (`latest` or a run id) into the three reports.
fn from_nextest(which: &str) -> Result<(), Box<dyn Error>> {
    let dir = default_dir();
    let jsonl = nextest::find(&dir, Some(which))?;
    let report = nextest::load(&jsonl)?;
    report::write_all(&dir, &report)?;
    nextest::prune(&dir, nextest::KEEP_RUNS)?;
    print!("{}", report::summary_table(&report));
    if let Some(note) = nextest::not_run_note(&report) {
        eprintln!("warning: {note}");
    }
    eprintln!(
        "wrote {}/report.{{json,md,html,junit.xml}} from {} ({} trials)",
        dir.display(),
        jsonl.display(),
        report.trials.len()
    );
    Ok(())
}

/// `target/onnx-conformance` of this workspace, honouring `CARGO_TARGET_DIR`.
pub(crate) fn default_dir() -> PathBuf {
    harness::report::ReportDir::root(&crate::workspace::target_dir())
}

/// Where backend `name`'s reports go, by the harness's one rule.
pub(crate) fn backend_dir(name: &str) -> PathBuf {
    report::ReportDir::of(&crate::workspace::target_dir(), name).into_path()
}

/// The Markdown diff of `old` against the new report (`--new`, or the latest of `--backend`),
/// and how many regressions it holds. Both must be reports of today's format, and of the
/// backend compared unless `--any-backend`.
pub(crate) fn diff_text(
    old_path: &Path,
    args: &crate::cli::Report,
) -> Result<(String, usize), Box<dyn Error>> {
    let new_path = match (&args.new, &args.backend) {
        (Some(file), _) => file.clone(),
        (None, backend) => {
            let name = backend.as_deref().unwrap_or("native");
            let path = backend_dir(name).join("report.json");
            if !path.exists() {
                return Err(format!(
                    "backend {name} has no report at {}: run \
                     `ONNX_CONFORMANCE_BACKEND={name} cargo test --test onnx_backend` first, \
                     or name the new report with --new",
                    path.display()
                )
                .into());
            }
            path
        }
    };
    let new = load_current(&new_path)?;
    let old = load_current(old_path)?;
    let backend = args.backend.clone().unwrap_or_else(|| match args.new {
        Some(_) => new.backend.name.clone(),
        None => "native".into(),
    });
    if new.backend.name != backend {
        return Err(format!(
            "{} is a run of backend {:?}, not {backend:?}",
            new_path.display(),
            new.backend.name
        )
        .into());
    }
    if old.backend.name != backend && !args.any_backend {
        return Err(format!(
            "{} is a run of backend {:?}, not {backend:?}; pass --any-backend to compare \
             two backends",
            old_path.display(),
            old.backend.name
        )
        .into());
    }
    let mut notes = Vec::new();
    for (label, path, r) in [("old", old_path, &old), ("new", &new_path, &new)] {
        notes.push(format!(
            "{label}: {} ({} {}, {} trials; {})",
            path.display(),
            r.backend.name,
            r.backend.version,
            r.trials.len(),
            report::provenance_text(r)
        ));
        for t in r
            .trials
            .iter()
            .filter(|t| t.release.is_none() && !passed(t))
        {
            notes.push(format!(
                "{label} run: setup check {} failed: {}",
                t.name,
                t.message
                    .as_deref()
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("")
            ));
        }
    }
    if old.strict != new.strict {
        notes.push(format!(
            "strict mode differs (old {}, new {}): outcomes are not judged alike",
            old.strict, new.strict
        ));
    }
    let trials = |r: &Report| -> Vec<harness::report::TrialRecord> {
        r.trials
            .iter()
            .filter(|t| t.release.is_some())
            .cloned()
            .collect()
    };
    let d = diff::compare(
        &backend,
        (&old.backend.version, &trials(&old)),
        (&new.backend.version, &trials(&new)),
    );
    let regressions = d.regressions();
    let text = diff::markdown("Conformance: what moved", &notes, &[d], args.max_rows);
    Ok((text, regressions))
}

fn passed(t: &harness::report::TrialRecord) -> bool {
    matches!(
        t.outcome,
        harness::known::Outcome::Pass | harness::known::Outcome::UnexpectedPass
    )
}

/// Reads a `report.json` of the format this xtask writes (or of format 4, the same less the
/// outcome `predates`), refusing another format by its number before any field of it is read.
fn load_current(path: &Path) -> Result<Report, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    match value.get("format").and_then(serde_json::Value::as_u64) {
        Some(f) if f == u64::from(report::FORMAT) => {}
        // Format 4 differs only in lacking the outcome `predates`: it reads as format 5.
        Some(4) => {}
        Some(f) => {
            return Err(format!(
                "{}: a report of format {f}; this xtask compares format {} only (rerun the \
                 suite with the same version to compare)",
                path.display(),
                report::FORMAT
            )
            .into())
        }
        None => return Err(format!("{}: not a report.json (no format)", path.display()).into()),
    }
    Ok(serde_json::from_value(value)
        .map_err(|e| format!("{}: invalid report: {e}", path.display()))?)
}

#[cfg(test)]
mod tests;
