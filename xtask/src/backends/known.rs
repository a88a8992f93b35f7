//! `cargo xtask backends known-failures NAME`: a backend's known-failures list from its last
//! run, for a person to review before committing it.

use harness::known::Outcome;
use harness::known::{KnownFailure, KnownFailures, Match};
use harness::report::{self, ReportDir, TrialRecord};
use std::error::Error;
use std::path::{Path, PathBuf};

/// Writes `tests/known-failures/NAME.json` from the backend's report.
pub fn run(
    root: &Path,
    target: &Path,
    name: &str,
    report: Option<&Path>,
) -> Result<(), Box<dyn Error>> {
    let report_path = match report {
        Some(path) => path.to_path_buf(),
        None => default_report(target, name),
    };
    if name == "native" {
        return Err(
            "the native list is tests/known-failures.json, kept by hand: it should \
                    hold upstream-data entries only"
                .into(),
        );
    }
    let report = report::load(&report_path)?;
    if report.backend.name != name {
        return Err(format!(
            "{} is a run of backend {:?}, not {name:?}",
            report_path.display(),
            report.backend.name
        )
        .into());
    }
    let out = root
        .join("tests/known-failures")
        .join(format!("{name}.json"));
    let old = if out.exists() {
        KnownFailures::load(&out)?
    } else {
        KnownFailures {
            format: 1,
            entries: Vec::new(),
        }
    };
    let root_text = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let list = refresh(&old, &report.trials, &root_text.display().to_string());
    std::fs::create_dir_all(out.parent().unwrap_or(root))?;
    let json = serde_json::to_string_pretty(&list)? + "\n";
    std::fs::write(&out, json)?;
    let new = list.entries.len()
        - list
            .entries
            .iter()
            .filter(|e| old.entries.iter().any(|o| o.pattern == e.pattern))
            .count();
    eprintln!(
        "wrote {} ({} entries, {new} new: review their reason before committing)",
        out.display(),
        list.entries.len()
    );
    Ok(())
}

fn default_report(target: &Path, name: &str) -> PathBuf {
    ReportDir::of(target, name).path().join("report.json")
}

/// One entry per trial that did not pass: an old entry that still selects it keeps its
/// reason; a new one gets the failure kind and the first message line that names no path of
/// this machine (so the entry holds on another checkout).
pub fn refresh(old: &KnownFailures, trials: &[TrialRecord], root: &str) -> KnownFailures {
    let entries = trials
        .iter()
        // Setup checks (no release) are about the run, not the runtime: never listed.
        .filter(|t| t.release.is_some())
        .filter(|t| matches!(t.outcome, Outcome::Fail | Outcome::KnownFailure))
        .map(|t| {
            if let Some(e) = old
                .entries
                .iter()
                .find(|e| e.how.selects(&e.pattern, &t.name))
            {
                if e.failure_kind.is_none() || e.failure_kind == t.failure_kind {
                    return e.clone();
                }
            }
            let kind = t.failure_kind.map_or("failure", |k| k.label());
            let line = evidence(t.message.as_deref().unwrap_or(""), root);
            KnownFailure {
                pattern: t.name.clone(),
                how: Match::Exact,
                kind: kind.to_string(),
                reason: format!("REVIEW: {line}"),
                expect: if line.is_empty() {
                    Vec::new()
                } else {
                    vec![line]
                },
                failure_kind: t.failure_kind,
            }
        })
        .collect::<Vec<_>>();
    let mut seen = std::collections::BTreeSet::new();
    KnownFailures {
        format: 1,
        entries: entries
            .into_iter()
            .filter(|e| seen.insert(e.pattern.clone()))
            .collect(),
    }
}

/// The first line of `message` that is evidence on any machine: not a path of this checkout,
/// not the known-failure preamble or the rerun hint; at most 160 characters.
fn evidence(message: &str, root: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.contains(root) && !l.starts_with("rerun:"))
        .find(|l| !l.starts_with("known failure ("))
        .map(|l| l.chars().take(160).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
