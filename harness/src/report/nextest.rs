//! Reports under `cargo nextest run`, which starts one process per trial: each process appends
//! its trial's record as one JSON line to `nextest/<run id>.jsonl`, and `cargo xtask report
//! --nextest` assembles the usual report from those lines afterwards.

use super::{Report, TrialRecord};
use crate::error::Error;
use crate::provenance::{RunInfo, Runner};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The variable nextest sets to the run's UUID in every test process.
pub const RUN_ID_VAR: &str = "NEXTEST_RUN_ID";
/// The directory, under the reports directory, holding one JSONL file per nextest run.
pub const DIR: &str = "nextest";
/// How many run files are kept; older ones are deleted when a new run starts.
pub const KEEP_RUNS: usize = 10;

/// One line of a run's JSONL file: a trial record with the run settings it ran under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// Whether strict mode was on.
    pub strict: bool,
    /// The data root the trial read.
    pub data: String,
    /// How the process ran: its `listed` is the whole list, before nextest's filter.
    #[serde(default)]
    pub run: Option<RunInfo>,
    /// The known-failures list the trial was judged against, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_failures: Option<String>,
    /// The trial's record.
    pub trial: TrialRecord,
}

/// The nextest run id from `value` of [`RUN_ID_VAR`], if set; characters that do not belong
/// in a file name are replaced, so an odd value cannot point outside the directory.
pub fn run_id(value: Option<&str>) -> Option<String> {
    let id = value.filter(|v| !v.is_empty())?;
    let safe = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    Some(id.chars().map(|c| if safe(c) { c } else { '_' }).collect())
}

/// The JSONL file of run `id` under the reports directory `out_dir`.
pub fn run_file(out_dir: &Path, id: &str) -> PathBuf {
    out_dir.join(DIR).join(format!("{id}.jsonl"))
}

/// Appends `lines` to the run's file, one `write` per line on a file opened with O_APPEND, so
/// that lines from parallel processes never interleave.
pub fn append(path: &Path, lines: &[Line]) -> Result<(), Error> {
    let fail = |e: std::io::Error| Error::at(path, format!("cannot append: {e}"));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(fail)?;
    for line in lines {
        let mut text = serde_json::to_string(line)
            .map_err(|e| Error::msg(format!("cannot serialise a trial record: {e}")))?;
        text.push('\n');
        // One buffer, one call: a regular file takes it whole (a short write only happens
        // when the disk is full, and then the report is lost anyway).
        file.write_all(text.as_bytes()).map_err(fail)?;
    }
    Ok(())
}

/// Appends `lines` to run `id`'s file under `out_dir`. The first process of a run (the one
/// that creates the file) deletes all but the [`KEEP_RUNS`] newest run files, so that they
/// do not pile up when nobody runs `cargo xtask report --nextest`.
pub fn append_to_run(out_dir: &Path, id: &str, lines: &[Line]) -> Result<(), Error> {
    let path = run_file(out_dir, id);
    let first = !path.exists();
    append(&path, lines)?;
    if first {
        prune(out_dir, KEEP_RUNS)?;
    }
    Ok(())
}

/// The JSONL file `which` names: a run id, or the newest file for `latest` or `None`.
pub fn find(out_dir: &Path, which: Option<&str>) -> Result<PathBuf, Error> {
    if let Some(id) = which.filter(|w| *w != "latest") {
        let path = run_file(out_dir, id);
        return match path.is_file() {
            true => Ok(path),
            false => Err(Error::at(&path, "no such nextest run recorded")),
        };
    }
    let dir = out_dir.join(DIR);
    runs_newest_first(&dir)?
        .into_iter()
        .next()
        .ok_or_else(|| Error::at(&dir, "holds no nextest run; run `cargo nextest run` first"))
}

/// Deletes all but the `keep` newest run files (each full run's file is about 0.6 MB).
pub fn prune(out_dir: &Path, keep: usize) -> Result<usize, Error> {
    let old = runs_newest_first(&out_dir.join(DIR))?;
    let old = old.get(keep..).unwrap_or_default();
    for path in old {
        match std::fs::remove_file(path) {
            // Another process of the same run pruned it first.
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Error::at(path, format!("cannot remove: {e}")));
            }
            _ => {}
        }
    }
    Ok(old.len())
}

/// The `.jsonl` files of `dir`, newest first by modification time.
fn runs_newest_first(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let list = std::fs::read_dir(dir).map_err(|e| {
        Error::at(
            dir,
            format!("cannot list ({e}); run `cargo nextest run` first"),
        )
    })?;
    let mut runs: Vec<_> = list
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    runs.sort_by(|a, b| b.cmp(a));
    Ok(runs.into_iter().map(|(_, path)| path).collect())
}

/// Builds the report of one run from its JSONL file. A retried trial has several lines; the
/// last one (the final attempt) counts.
pub fn load(path: &Path) -> Result<Report, Error> {
    let text =
        std::fs::read_to_string(path).map_err(|e| Error::at(path, format!("cannot read: {e}")))?;
    let mut trials: BTreeMap<String, TrialRecord> = BTreeMap::new();
    let mut settings: Option<(bool, String)> = None;
    let mut runs: Vec<RunInfo> = Vec::new();
    let mut known_failures: Option<String> = None;
    for (i, raw) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let line: Line = serde_json::from_str(raw)
            .map_err(|e| Error::at(path, format!("line {}: invalid record: {e}", i + 1)))?;
        let these = (line.strict, line.data.clone());
        match &settings {
            Some(first) if *first != these => {
                return Err(Error::at(
                    path,
                    format!(
                        "line {}: ran with strict={} on {}, but earlier lines with strict={} on {}",
                        i + 1,
                        these.0,
                        these.1,
                        first.0,
                        first.1
                    ),
                ))
            }
            Some(_) => {}
            None => settings = Some(these),
        }
        runs.extend(line.run);
        known_failures = known_failures.or(line.known_failures);
        trials.insert(line.trial.name.clone(), line.trial);
    }
    let (strict, data) = settings.ok_or_else(|| Error::at(path, "holds no trial record"))?;
    let trials: Vec<TrialRecord> = trials.into_values().collect();
    Ok(Report {
        format: super::FORMAT,
        strict,
        data,
        run: merge_runs(runs, &trials),
        // Every record names its backend; a run has one.
        backend: trials
            .first()
            .map(|t| t.backend.clone())
            .unwrap_or_default(),
        known_failures,
        trials,
    })
}

/// A warning when fewer trials ran than the binary listed (nextest stopped early, or a
/// filter was given), or when the run files do not say how many were listed.
pub fn not_run_note(report: &Report) -> Option<String> {
    let Some(run) = &report.run else {
        return Some(
            "the run file does not say how many trials were listed (written by an older \
             harness), so the report may be partial"
                .to_string(),
        );
    };
    let missing = run.listed.checked_sub(run.ran).filter(|&n| n > 0)?;
    Some(format!(
        "{missing} of {} listed trials did not run, so the report covers only the {} that \
         did: nextest stopped early (without the suite's .config/nextest.toml, it stops at \
         the first failure) or a filter was given",
        run.listed, run.ran
    ))
}

/// The run of all processes: the earliest start, the commit and lock hash the first process
/// recorded, the
/// largest list, and as many trials ran as distinct trials recorded.
fn merge_runs(runs: Vec<RunInfo>, trials: &[TrialRecord]) -> Option<RunInfo> {
    let mut merged = runs
        .iter()
        .min_by(|a, b| a.started.cmp(&b.started))?
        .clone();
    merged.commit = runs.iter().find_map(|r| r.commit.clone());
    merged.data_lock_sha256 = runs.iter().find_map(|r| r.data_lock_sha256.clone());
    merged.listed = runs.iter().map(|r| r.listed).max().unwrap_or(0);
    merged.ran = trials.len();
    merged.runner = Runner::Nextest;
    merged.filters = Vec::new();
    // A setup check is recorded as a trial without a case.
    merged.judge_complete(trials.iter().all(|t| t.case.is_some()));
    Some(merged)
}

#[cfg(test)]
mod tests;
