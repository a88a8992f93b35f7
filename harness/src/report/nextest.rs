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
mod tests {
    use super::*;
    use crate::known::Outcome;
    use crate::testkit::record;
    use crate::testkit::scratch;

    fn line(case: &str, outcome: Outcome) -> Line {
        Line {
            strict: false,
            data: "d".into(),
            run: None,
            trial: record("1.22.0", 25, case, "Cast", outcome),
        }
    }

    #[test]
    fn run_ids_are_safe_file_names() {
        assert_eq!(run_id(None), None);
        assert_eq!(run_id(Some("")), None);
        let uuid = "1f79aa0d-4ec8-4a5c-aa83-5e8dc2f36573";
        assert_eq!(run_id(Some(uuid)).as_deref(), Some(uuid));
        assert_eq!(run_id(Some("../x y")).as_deref(), Some("___x_y"));
    }

    #[test]
    fn appended_lines_make_one_report_last_attempt_wins() {
        let out_tmp = scratch("nextest-report");
        let out = out_tmp.path();
        let path = run_file(out, "run-1");
        append(&path, &[line("test_b", Outcome::Fail)]).expect("append");
        append(&path, &[line("test_a", Outcome::Pass)]).expect("append");
        // nextest retried test_b, and it passed.
        append(&path, &[line("test_b", Outcome::Pass)]).expect("append");
        let report = load(&path).expect("load");
        let names: Vec<(&str, Outcome)> = report
            .trials
            .iter()
            .map(|t| (t.case.as_deref().unwrap_or(""), t.outcome))
            .collect();
        assert_eq!(
            names,
            [("test_a", Outcome::Pass), ("test_b", Outcome::Pass)]
        );
        assert!(!report.strict);
        assert_eq!(find(out, None).expect("latest"), path);
        assert_eq!(find(out, Some("latest")).expect("latest"), path);
        assert_eq!(find(out, Some("run-1")).expect("by id"), path);
        let e = find(out, Some("run-2")).expect_err("no such run");
        assert!(e.to_string().contains("no such nextest run"), "{e}");
        // A later run becomes the latest; pruning to one keeps only it.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let later = run_file(out, "run-2");
        append(&later, &[line("test_a", Outcome::Pass)]).expect("append");
        assert_eq!(find(out, None).expect("latest"), later);
        assert_eq!(prune(out, 1).expect("prune"), 1);
        assert!(!path.exists() && later.exists());
    }

    fn run_info(listed: usize) -> RunInfo {
        RunInfo {
            started: "2026-11-23T20:00:00Z".into(),
            commit: None,
            data_lock_sha256: None,
            source: crate::provenance::Source::Official,
            runner: Runner::Nextest,
            filters: vec![],
            listed,
            ran: 1,
            complete: false,
        }
    }

    #[test]
    fn the_report_says_how_many_listed_trials_did_not_run() {
        let out_tmp = scratch("nextest-partial");
        let out = out_tmp.path();
        let path = run_file(out, "r");
        let mut first = line("test_a", Outcome::Fail);
        first.run = Some(RunInfo {
            commit: Some("abc".into()),
            ..run_info(26)
        });
        let mut second = line("test_b", Outcome::Pass);
        second.run = Some(run_info(26));
        append(&path, &[first, second]).expect("append");
        let report = load(&path).expect("load");
        let run = report.run.clone().expect("merged run");
        assert_eq!((run.listed, run.ran, run.complete), (26, 2, false));
        assert_eq!(run.commit.as_deref(), Some("abc"));
        let note = not_run_note(&report).expect("a note");
        assert!(
            note.starts_with("24 of 26 listed trials did not run"),
            "{note}"
        );
        let mut whole = report.clone();
        whole.run = Some(RunInfo { ran: 26, ..run });
        assert_eq!(not_run_note(&whole), None);
        whole.run = None;
        assert!(not_run_note(&whole).is_some());
    }

    #[test]
    fn a_new_run_prunes_old_run_files() {
        let out_tmp = scratch("nextest-prune");
        let out = out_tmp.path();
        for i in 0..KEEP_RUNS + 3 {
            append_to_run(
                out,
                &format!("old-{i:02}"),
                &[line("test_a", Outcome::Pass)],
            )
            .expect("append");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let count = || std::fs::read_dir(out.join(DIR)).expect("dir").count();
        assert_eq!(count(), KEEP_RUNS);
        assert!(run_file(out, "old-12").exists() && !run_file(out, "old-02").exists());
        // Later processes of a run append without pruning anything.
        append_to_run(out, "old-12", &[line("test_b", Outcome::Pass)]).expect("append");
        assert_eq!(count(), KEEP_RUNS);
    }

    // nextest's default profile stops at the first failure, which leaves a report of a few
    // trials; the workspace's configuration must turn that off.
    #[test]
    fn the_shipped_nextest_profile_runs_every_trial() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.config/nextest.toml");
        let text = std::fs::read_to_string(&path).expect(".config/nextest.toml is shipped");
        let mut section = "";
        let mut found = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.starts_with('#')) {
            if line.starts_with('[') {
                section = line;
            } else if let Some((key, value)) = line.split_once('=') {
                found.push((section, key.trim(), value.trim()));
            }
        }
        assert!(
            found.contains(&("[profile.default]", "fail-fast", "false")),
            "{found:?}"
        );
        assert!(
            found.contains(&("[profile.default]", "retries", "0")),
            "{found:?}"
        );
    }

    #[test]
    fn bad_and_mixed_lines_are_errors() {
        let out_tmp = scratch("nextest-bad");
        let out = out_tmp.path();
        let path = run_file(out, "r");
        append(&path, &[line("test_a", Outcome::Pass)]).expect("append");
        let mut strict = line("test_b", Outcome::Pass);
        strict.strict = true;
        append(&path, &[strict]).expect("append");
        let e = load(&path).expect_err("mixed settings");
        assert!(
            e.to_string().contains("line 2: ran with strict=true"),
            "{e}"
        );
        std::fs::write(&path, "{\"strict\":false}\n").expect("write");
        let e = load(&path).expect_err("bad line");
        assert!(e.to_string().contains("line 1: invalid record"), "{e}");
        std::fs::write(&path, "\n").expect("write");
        assert!(load(&path).is_err());
        std::fs::remove_dir_all(out).expect("cleanup");
        assert!(find(out, None).is_err(), "no directory, no run");
    }
}
