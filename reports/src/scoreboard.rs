//! The scoreboard: the official suite's outcomes on several backends side by side
//! (`target/onnx-conformance/scoreboard.*`, written by `cargo xtask scoreboard`, which runs
//! the backends), and what moved since an older scoreboard, backend by backend ([`diff_files`]).

pub(crate) use render::type_pair;
pub use render::{html, markdown, summary};

/// The scoreboard's JSON file name.
pub const JSON_FILE: &str = "scoreboard.json";

mod render;

use crate::diff;
use crate::Error;
use harness::backend::BackendInfo;
use harness::known::Outcome;
use harness::outcome::Origin;
use harness::report::{Report, TrialRecord};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The scoreboard's JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scoreboard {
    /// sha256 of `onnx-backend-data.lock.json`: which data every backend ran.
    pub data_lock: String,
    /// One entry per backend, in the order run.
    pub backends: Vec<BackendRun>,
    /// Shipped backends left out because they are not set up, each with what to run: the
    /// board says so rather than silently showing fewer columns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_set_up: Vec<NotSetUp>,
}

/// A shipped backend the scoreboard could not run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NotSetUp {
    /// Its name.
    pub name: String,
    /// Why, in the words of `cargo xtask backends list`.
    pub status: String,
}

/// One backend's outcomes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BackendRun {
    /// The name it was chosen by, and the runtime and version from its hello.
    #[serde(flatten)]
    pub backend: BackendInfo,
    /// Every official trial, as its report recorded it (less the message, which the
    /// backend's own report.json keeps).
    pub trials: Vec<TrialRecord>,
}

/// Writes `scoreboard.{json,md,html}` of `board` into `dir` (created if missing), as one set:
/// each written aside, then all renamed into place.
pub fn write(dir: &Path, board: &Scoreboard) -> Result<(), Error> {
    std::fs::create_dir_all(dir)?;
    let mut set = schema::files::Staged::new();
    let json = serde_json::to_string_pretty(board)? + "\n";
    set.add(&dir.join(JSON_FILE), json.as_bytes())?;
    set.add(
        &dir.join("scoreboard.md"),
        render::markdown(board).as_bytes(),
    )?;
    set.add(&dir.join("scoreboard.html"), render::html(board).as_bytes())?;
    set.commit()?;
    Ok(())
}

/// The scoreboard a run writes under the report root (`ReportDir::root`), which `--diff`
/// compares by default.
pub fn latest(report_root: &Path) -> PathBuf {
    report_root.join(JSON_FILE)
}

/// Reads a `scoreboard.json`.
fn load(path: &Path) -> Result<Scoreboard, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let board: Scoreboard = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a scoreboard: {e}", path.display()))?;
    let mut seen = std::collections::HashSet::new();
    for run in &board.backends {
        if !seen.insert(run.backend.name.as_str()) {
            return Err(format!(
                "{}: backend {} has two columns (a board holds each backend once)",
                path.display(),
                run.backend.name
            )
            .into());
        }
        harness::report::each_trial_once(path, &run.trials)
            .map_err(|e| format!("{e} (in the column of {})", run.backend.name))?;
    }
    Ok(board)
}

/// The Markdown diff of two scoreboard files, and how many regressions it holds.
pub fn diff_files(
    old_path: &Path,
    new_path: &Path,
    max_rows: usize,
) -> Result<(String, usize), Error> {
    let (old, new) = (load(old_path)?, load(new_path)?);
    let mut notes = vec![
        format!("old: {}", old_path.display()),
        format!("new: {}", new_path.display()),
    ];
    if old.data_lock != new.data_lock {
        notes.push(format!(
            "the data differs (lock sha256 {:.12} -> {:.12}): trials can be added or removed",
            old.data_lock, new.data_lock
        ));
    }
    let mut diffs = Vec::new();
    for b in &new.backends {
        match old
            .backends
            .iter()
            .find(|o| o.backend.name == b.backend.name)
        {
            Some(o) => diffs.push(diff::compare(
                &b.backend.name,
                (&o.backend.version, &o.trials),
                (&b.backend.version, &b.trials),
            )),
            None => notes.push(format!(
                "{} is new on the board ({} trials), not compared",
                b.backend.name,
                b.trials.len()
            )),
        }
    }
    for o in old.backends.iter().filter(|o| {
        !new.backends
            .iter()
            .any(|b| b.backend.name == o.backend.name)
    }) {
        notes.push(format!("{} is no longer on the board", o.backend.name));
    }
    let regressions = diffs.iter().map(diff::BackendDiff::regressions).sum();
    let text = diff::markdown("Scoreboard: what moved", &notes, &diffs, max_rows);
    Ok((text, regressions))
}

/// Backend `name`'s column of the board, from the report of its run of the official cases
/// (`report_path` names it in errors): the official trials less their messages. A run of
/// another backend, or one whose setup checks failed, is refused.
pub fn run_of(report: Report, name: &str, report_path: &Path) -> Result<BackendRun, Error> {
    let chosen = &report.backend.name;
    if chosen != name {
        return Err(format!(
            "{} is a run of {chosen:?}, not {name:?}",
            report_path.display()
        )
        .into());
    }
    let trials: Vec<TrialRecord> = report
        .trials
        .iter()
        .filter(|t| matches!(t.origin(), Origin::Official | Origin::Generated))
        .map(|t| TrialRecord {
            message: None,
            ..t.clone()
        })
        .collect();
    let setup_failures: Vec<&TrialRecord> = report
        .trials
        .iter()
        .filter(|t| t.release.is_none() && t.outcome != Outcome::Pass)
        .collect();
    if let Some(t) = setup_failures.first() {
        return Err(format!(
            "backend {name}: the run failed before judging any case: {}: {}",
            t.name,
            t.message.as_deref().unwrap_or("")
        )
        .into());
    }
    Ok(BackendRun {
        backend: report.backend,
        trials,
    })
}
