//! `cargo xtask scoreboard`: the official suite on several backends, one after the other, and
//! one side-by-side report of their outcomes (`target/onnx-conformance/scoreboard.*`).
//! `cargo xtask scoreboard --diff OLD`: what moved since an older scoreboard, backend by backend.

pub(crate) mod diff;
mod render;

use harness::backend::BackendInfo;
use harness::known::Outcome;
use harness::report::{ReportDir, TrialRecord};
use serde::{Deserialize, Serialize};
use std::error::Error;
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

/// Runs the task with the options after `scoreboard`.
pub fn main(root: &Path, args: &crate::cli::Scoreboard) -> Result<(), Box<dyn Error>> {
    if let Some(old) = &args.diff {
        let new = args.new.clone().unwrap_or_else(latest);
        let (text, regressions) = diff_files(old, &new, args.max_rows)?;
        print!("{text}");
        return diff::judge(regressions, args.fail_on_regression);
    }
    let target = crate::workspace::target_dir();
    let mut not_set_up = Vec::new();
    let asked = args.backend_values();
    let names: Vec<String> = if asked.is_empty() {
        let (ready, missing): (Vec<&str>, Vec<&str>) = harness::backend::SHIPPED
            .iter()
            .map(|s| s.name)
            .partition(|n| crate::backends::is_set_up(&target, n));
        not_set_up = missing
            .into_iter()
            .map(|n| NotSetUp {
                name: n.to_string(),
                status: crate::backends::status(&target, n),
            })
            .collect();
        ready.into_iter().map(String::from).collect()
    } else {
        // Checked before anything runs, as `deep` checks its own: a label or a shipped name
        // that is set up, each once.
        deep::names::check(&asked, |n| crate::deep::ready(&target, n))?
            .into_iter()
            .map(|c| c.value)
            .collect()
    };
    let data_lock =
        schema::hash::lock_sha256(root).map_err(|e| format!("cannot read the lock file: {e}"))?;
    let mut board = Scoreboard {
        data_lock,
        backends: Vec::new(),
        not_set_up,
    };
    for name in &names {
        let run = run_backend(root, &target, name)?;
        board.backends.push(run);
    }
    let out = ReportDir::root(&target);
    std::fs::create_dir_all(&out)?;
    std::fs::write(
        out.join("scoreboard.json"),
        serde_json::to_string_pretty(&board)? + "\n",
    )?;
    std::fs::write(out.join("scoreboard.md"), render::markdown(&board))?;
    std::fs::write(out.join("scoreboard.html"), render::html(&board))?;
    print!("{}", render::summary(&board));
    eprintln!("wrote {}/scoreboard.{{json,md,html}}", out.display());
    Ok(())
}

/// The scoreboard the last `cargo xtask scoreboard` wrote.
fn latest() -> PathBuf {
    ReportDir::root(&crate::workspace::target_dir()).join("scoreboard.json")
}

/// Reads a `scoreboard.json`.
fn load(path: &Path) -> Result<Scoreboard, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Ok(serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a scoreboard: {e}", path.display()))?)
}

/// The Markdown diff of two scoreboard files, and how many regressions it holds.
pub(crate) fn diff_files(
    old_path: &Path,
    new_path: &Path,
    max_rows: usize,
) -> Result<(String, usize), Box<dyn Error>> {
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

/// Runs the official trials on backend `name` and returns its records.
fn run_backend(root: &Path, target: &Path, value: &str) -> Result<BackendRun, Box<dyn Error>> {
    // A worker runs as `worker:<label>=<command line>`; its label names its column.
    let name = &harness::backend::backend_name(value)?;
    // Its own directory: the backend's reports (a full run, own cases included) stay as
    // they are.
    let report_dir = ReportDir::scoreboard(target, name);
    let report_path = report_dir.path().join("report.json");
    eprintln!(
        "scoreboard: running the official cases on {name} (reports in {})",
        report_dir.path().display()
    );
    let dir = report_dir.path().to_string_lossy();
    let env = [(harness::runner::REPORT_DIR_VAR, dir.as_ref())];
    let report = crate::suite_run::run(root, report_dir.path(), value, name, "onnx-", &env)?;
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
        .filter(|t| t.release.is_some() && t.name.starts_with("onnx-"))
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
