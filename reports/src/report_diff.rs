//! What moved since an older `report.json` of the same backend (`cargo xtask report --diff
//! OLD`), as Markdown, by the one diff of [`crate::diff`].

use crate::diff;
use crate::Error;
use harness::report::{self, Report, ReportDir};
use std::path::{Path, PathBuf};

/// What [`diff_text`] compares the old report with, and how.
#[derive(Clone, Debug)]
pub struct DiffOptions {
    /// The cargo target directory, under which the backend's latest report is the new side
    /// when `new` is `None`.
    pub target: PathBuf,
    /// The new report, instead of the backend's latest.
    pub new: Option<PathBuf>,
    /// The backend compared (default: `native`, or the new report's when `new` is given).
    pub backend: Option<String>,
    /// Compare even when the old report is a run of another backend.
    pub any_backend: bool,
    /// List at most this many trials; count the rest by operator version and types.
    pub max_rows: usize,
}

/// The Markdown diff of `old` against the new report (`new`, or the latest of `backend`),
/// and how many regressions it holds. Both must be reports of today's format, and of the
/// backend compared unless `any_backend`.
pub fn diff_text(old_path: &Path, args: &DiffOptions) -> Result<(String, usize), Error> {
    let new_path = match (&args.new, &args.backend) {
        (Some(file), _) => file.clone(),
        (None, backend) => {
            let name = backend.as_deref().unwrap_or("native");
            let path = ReportDir::of(&args.target, name).json();
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
    new.of_backend(&new_path, &backend)?;
    if !args.any_backend {
        old.of_backend(old_path, &backend)
            .map_err(|e| format!("{e}; pass --any-backend to compare two backends"))?;
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

/// Reads a `report.json` of the format this harness writes (or of format 4, the same less the
/// outcome `predates`), refusing another format by its number before any field of it is read.
fn load_current(path: &Path) -> Result<Report, Error> {
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
    let report: Report = serde_json::from_value(value)
        .map_err(|e| format!("{}: invalid report: {e}", path.display()))?;
    report::each_trial_once(path, &report.trials)?;
    Ok(report)
}

#[cfg(test)]
mod tests;
