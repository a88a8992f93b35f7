//! `cargo xtask scoreboard`: the official suite on several backends, one after the other, and
//! one side-by-side report of their outcomes (`target/onnx-conformance/scoreboard.*`).

mod render;

use harness::backend::{BackendInfo, FailureKind};
use harness::known::Outcome;
use harness::report::{self, TrialRecord};
use serde::{Deserialize, Serialize};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::Command;

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
    /// The name it was chosen by.
    pub name: String,
    /// The runtime's name, from its hello.
    pub runtime: String,
    /// The runtime's version.
    pub version: String,
    /// Every official trial.
    pub trials: Vec<Trial>,
}

/// One trial of one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// The trial name.
    pub name: String,
    /// The onnx release.
    pub release: Option<String>,
    /// The case directory name.
    pub case: Option<String>,
    /// The model opset.
    pub opset: Option<i64>,
    /// The operator version, as in `Cast-19`.
    pub op_version: Option<String>,
    /// `pass`, `fail`, `known-failure` or `unexpected-pass`.
    pub outcome: Outcome,
    /// Why it did not pass.
    pub failure_kind: Option<FailureKind>,
    /// Declared input types.
    pub inputs: Vec<String>,
    /// Declared output types.
    pub outputs: Vec<String>,
}

impl From<&TrialRecord> for Trial {
    fn from(t: &TrialRecord) -> Trial {
        Trial {
            name: t.name.clone(),
            release: t.release.clone(),
            case: t.case.clone(),
            opset: t.opset,
            op_version: t.op_version.clone(),
            outcome: t.outcome,
            failure_kind: t.failure_kind,
            inputs: t.inputs.clone(),
            outputs: t.outputs.clone(),
        }
    }
}

/// Runs the task with the options after `scoreboard`.
pub fn main(root: &Path, args: &crate::cli::Scoreboard) -> Result<(), Box<dyn Error>> {
    let target = crate::workspace::target_dir();
    let mut not_set_up = Vec::new();
    let names: Vec<String> = if args.backends.is_empty() {
        let (ready, missing): (Vec<&str>, Vec<&str>) = crate::backends::SHIPPED
            .into_iter()
            .partition(|n| crate::backends::is_set_up(&target, n));
        not_set_up = missing
            .into_iter()
            .map(|n| NotSetUp {
                name: n.to_string(),
                status: crate::backends::status(&target, n),
            })
            .collect();
        std::iter::once("native")
            .chain(ready)
            .map(String::from)
            .collect()
    } else {
        args.backends.clone()
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
    let out = target.join("onnx-conformance");
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

/// Runs the official trials on backend `name` and returns its records.
fn run_backend(root: &Path, target: &Path, name: &str) -> Result<BackendRun, Box<dyn Error>> {
    let sub = harness::backend::report_subdir(name);
    let report_path: PathBuf = target
        .join("onnx-conformance")
        .join(sub)
        .join("report.json");
    // A report left by an earlier run must not stand in for this one.
    let _ = std::fs::remove_file(&report_path);
    eprintln!("scoreboard: running the official cases on {name}");
    let cargo = crate::workspace::cargo();
    let status = Command::new(cargo)
        .current_dir(root)
        .args([
            "test",
            "--quiet",
            "--test",
            "onnx_backend",
            "--",
            "--quiet",
            "onnx-",
        ])
        .env(harness::backend::BACKEND_VAR, name)
        .status()?;
    let report = report::load(&report_path)
        .map_err(|e| format!("backend {name}: the run ({status}) left no report: {e}"))?;
    let BackendInfo {
        name: chosen,
        runtime,
        version,
    } = report.backend.clone();
    if chosen != name {
        return Err(format!(
            "{} is a run of {chosen:?}, not {name:?}",
            report_path.display()
        )
        .into());
    }
    let trials: Vec<Trial> = report
        .trials
        .iter()
        .filter(|t| t.release.is_some() && t.name.starts_with("onnx-"))
        .map(Trial::from)
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
        name: chosen,
        runtime,
        version,
        trials,
    })
}
