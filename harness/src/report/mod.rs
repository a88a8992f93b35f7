//! The run's reports: `report.json` (every trial), `report.md` (tables), `report.html` (a
//! matrix), `report.junit.xml` (for CI services), and the short per-opset table printed after
//! the libtest summary.

mod dir;
mod for_test;
pub mod html;
pub mod junit;
pub mod md;
pub mod nextest;
pub mod page;

pub use crate::outcome::RuleName;
pub use crate::provenance::{RunInfo, Runner, Source};
pub use dir::{onnx_backend_label, ReportDir, ONNX_BACKEND_PREFIX};

use crate::error::Error;
use crate::outcome::Outcome;
use crate::outcome::{BackendInfo, FailureKind, Origin};
use schema::files::{DirLock, Staged, WhenBusy};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vocab::OpVersion;

/// What one trial did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord {
    /// The libtest trial name.
    pub name: String,
    /// The release (`1.22.0`), `custom` or `own`; absent for guard trials.
    pub release: Option<String>,
    /// The case directory name.
    pub case: Option<String>,
    /// The node's op_type.
    pub op_type: Option<String>,
    /// The operator version the model opset resolves to, as in `Cast-19`.
    pub op_version: Option<OpVersion>,
    /// The model's default-domain opset.
    pub opset: Option<i64>,
    /// Declared graph input types, in order (`?` when undeclared).
    pub inputs: Vec<String>,
    /// Declared graph output types, in order.
    pub outputs: Vec<String>,
    /// What became of the trial.
    pub outcome: Outcome,
    /// The comparison rule applied: `onnx-default`, `override`, `exact` or `strict` (`none`
    /// when the trial ended before its outputs were compared).
    pub rule: RuleName,
    /// Relative tolerance, for tolerance rules.
    pub rtol: Option<f64>,
    /// Absolute tolerance, for tolerance rules.
    pub atol: Option<f64>,
    /// Wall time of the trial, in milliseconds.
    pub duration_ms: f64,
    /// Why it failed (or the known-failure note).
    pub message: Option<String>,
    /// The backend that ran it.
    #[serde(default)]
    pub backend: BackendInfo,
    /// For a trial that did not pass (known failures included): what kind of failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_kind: Option<FailureKind>,
}

impl TrialRecord {
    /// Where its case comes from ([`Origin::of`] its release).
    pub fn origin(&self) -> Origin {
        Origin::of(self.release.as_deref())
    }
}

/// The file name of a run's full report, beside its Markdown, HTML and JUnit renderings: the
/// one place that spells it.
pub const JSON_FILE: &str = "report.json";

/// The schema version of `report.json` written today: 2 added `run`; 3 `backend` and each
/// trial's `backend` and `failure_kind`; 4 the outcome `data-problem`; 5 the outcome and
/// failure kind `predates`.
pub const FORMAT: u32 = 5;

/// The whole `report.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Schema version, [`FORMAT`].
    pub format: u32,
    /// Whether strict mode was on.
    pub strict: bool,
    /// The data root the trials read.
    pub data: String,
    /// The backend the run judged.
    #[serde(default)]
    pub backend: BackendInfo,
    /// How the run was made; absent in reports of format 1.
    #[serde(default)]
    pub run: Option<RunInfo>,
    /// The known-failures list the run judged against (relative to the workspace when
    /// inside it); `None` when it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_failures: Option<String>,
    /// Every trial that ran, sorted by name.
    pub trials: Vec<TrialRecord>,
}

impl Report {
    /// `Ok` when this report (read from `path`) is a run of backend `name`; otherwise the
    /// sentence that says whose run it is, for the tools that read a report of one backend.
    pub fn of_backend(&self, path: &Path, name: &str) -> Result<(), Error> {
        match self.backend.name == name {
            true => Ok(()),
            false => Err(Error::Report(format!(
                "{} is a run of backend {:?}, not {name:?}",
                path.display(),
                self.backend.name
            ))),
        }
    }
}

/// The reports' title: the suite and what it judged, as in `ONNX conformance: onnxruntime
/// 1.32.0` (with the backend's name when it differs from the runtime's).
pub fn title(report: &Report) -> String {
    let b = &report.backend;
    let mut title = String::from("ONNX conformance");
    if !b.runtime.is_empty() {
        title = format!("{title}: {} {}", b.runtime, b.version);
        title.truncate(title.trim_end().len());
    }
    if !b.name.is_empty() && b.name != b.runtime {
        title = format!("{title} (backend {})", b.name);
    }
    title
}

/// Trial counts by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Trials.
    pub total: usize,
    /// Passed.
    pub passed: usize,
    /// Failed, unexpected passes included.
    pub failed: usize,
    /// Known failures.
    pub known: usize,
    /// Upstream data problems (`harness/known-failures/data.json`): neither passed nor failed.
    pub data: usize,
    /// Cases the runtime predates (newer IR version or opset), as its list expects: not run,
    /// neither passed nor failed.
    pub predates: usize,
    /// Of the failed and known failures, those refused at load (`unsupported`): shown apart,
    /// since a runtime without a kernel is not giving wrong answers.
    pub unsupported: usize,
}

impl Tally {
    /// Counts one trial.
    pub fn add(&mut self, trial: &TrialRecord) {
        let outcome = trial.outcome;
        if trial.failure_kind == Some(FailureKind::Unsupported) && outcome != Outcome::Pass {
            self.unsupported += 1;
        }
        self.total += 1;
        match outcome {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail | Outcome::UnexpectedPass => self.failed += 1,
            Outcome::KnownFailure => self.known += 1,
            Outcome::DataProblem => self.data += 1,
            Outcome::Predates => self.predates += 1,
        }
    }
}

/// Tallies of `trials` grouped by `key` (sorted by key).
pub fn tally_by<K: Ord>(
    trials: &[TrialRecord],
    key: impl Fn(&TrialRecord) -> K,
) -> BTreeMap<K, Tally> {
    let mut groups: BTreeMap<K, Tally> = BTreeMap::new();
    for t in trials {
        groups.entry(key(t)).or_default().add(t);
    }
    groups
}

/// The opset column label of a trial: `opset25`, or `-` when unknown.
pub fn opset_label(t: &TrialRecord) -> String {
    t.opset
        .map_or_else(|| "-".to_string(), |o| format!("opset{o}"))
}

/// Writes `report.json` and the reports rendered from it ([`render`]) into `dir`, as one set:
/// each written aside, then all renamed into place, so that a reader (or a run killed half
/// way) never finds a file cut short or the files of two runs mixed while the writer holds
/// the directory's [`lock`].
pub fn write_all(dir: &Path, report: &Report) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::at(dir, format!("cannot create: {e}")))?;
    let json = serde_json::to_string_pretty(report)
        .map_err(|e| Error::msg(format!("cannot serialise the report: {e}")))?;
    let mut set = Staged::new();
    set.add(&dir.join(JSON_FILE), json.as_bytes())?;
    stage_rendered(&mut set, dir, report)?;
    Ok(set.commit()?)
}

/// The subdirectory of a report directory where a partial run's reports go when the directory
/// holds a complete run's ([`destination`]).
pub const PARTIAL_DIR: &str = "partial";

/// Where the reports of `report` go in the report directory `dir`: `dir` itself, unless the
/// run is not complete (a filter, other data, a failed setup check) and `dir` holds the reports
/// of a complete run, which a partial run never replaces: then `dir/partial`. The complete
/// run's reports are what the known-failures writer, `report --diff` and the scoreboard read.
pub fn destination(dir: &Path, report: &Report) -> PathBuf {
    let complete = |r: Option<&RunInfo>| r.is_some_and(|r| r.complete);
    if complete(report.run.as_ref()) {
        return dir.to_path_buf();
    }
    /// Just enough of a `report.json` to see whether its run was complete.
    #[derive(Deserialize)]
    struct Head {
        #[serde(default)]
        run: Option<RunInfo>,
    }
    let held = std::fs::read_to_string(dir.join(JSON_FILE))
        .ok()
        .and_then(|text| serde_json::from_str::<Head>(&text).ok());
    match held.is_some_and(|h| complete(h.run.as_ref())) {
        true => dir.join(PARTIAL_DIR),
        false => dir.to_path_buf(),
    }
}

/// The reports rendered from `report.json`, beside it.
pub const RENDERED: [&str; 3] = ["report.md", "report.html", "report.junit.xml"];

/// Writes the [`RENDERED`] reports into `dir` from `report`, as one set (see [`write_all`]).
pub fn render(dir: &Path, report: &Report) -> Result<(), Error> {
    let mut set = Staged::new();
    stage_rendered(&mut set, dir, report)?;
    Ok(set.commit()?)
}

fn stage_rendered(set: &mut Staged, dir: &Path, report: &Report) -> Result<(), Error> {
    let [md_file, html_file, junit_file] = RENDERED;
    set.add(&dir.join(md_file), md::render(report).as_bytes())?;
    set.add(&dir.join(html_file), html::render(report).as_bytes())?;
    set.add(&dir.join(junit_file), junit::render(report).as_bytes())?;
    Ok(())
}

/// Takes the lock of the report directory `dir` for one writer (a run, or a tool rewriting
/// its reports), held until dropped: a second one waits, after `on_wait` is told who holds
/// it, or stops with an error naming the directory and the holder.
pub fn lock(
    dir: &Path,
    purpose: &str,
    busy: WhenBusy,
    on_wait: impl FnOnce(&str),
) -> Result<DirLock, Error> {
    Ok(DirLock::acquire(dir, purpose, busy, on_wait)?)
}

/// Reads a `report.json`. A trial recorded twice is refused, naming it: a run records each
/// trial once, so two records are the files of two runs mixed or a hand edit, and any count
/// taken from them would be wrong.
pub fn load(path: &Path) -> Result<Report, Error> {
    let text =
        std::fs::read_to_string(path).map_err(|e| Error::at(path, format!("cannot read: {e}")))?;
    let report: Report =
        serde_json::from_str(&text).map_err(|e| Error::at(path, format!("invalid report: {e}")))?;
    each_trial_once(path, &report.trials)?;
    Ok(report)
}

/// `Ok` when no trial of `trials` (read from `path`) is recorded twice; else an error naming
/// it. Every reader of a report, or of a column made from one, checks it.
pub fn each_trial_once(path: &Path, trials: &[TrialRecord]) -> Result<(), Error> {
    let mut seen = std::collections::HashSet::new();
    match trials.iter().find(|t| !seen.insert(t.name.as_str())) {
        Some(twice) => Err(Error::at(
            path,
            format!(
                "invalid report: trial {} is recorded twice (a run records each trial once: \
                 the files of two runs mixed, or an edit)",
                twice.name
            ),
        )),
        None => Ok(()),
    }
}

/// How the run was made, for people: from `report.run`, or a note that it is not recorded.
pub fn provenance_text(report: &Report) -> String {
    match &report.run {
        Some(run) => run.summary(),
        None => "how the run was made is not recorded (a report of format 1)".to_string(),
    }
}

/// The short per-opset table printed after the libtest summary.
pub fn summary_table(report: &Report) -> String {
    let by_opset = tally_by(&report.trials, |t| {
        (t.opset.unwrap_or(i64::MAX), opset_label(t))
    });
    let mut out = String::from("\nonnx conformance by opset");
    if report.strict {
        out.push_str(" (strict)");
    }
    out.push_str(&format!(
        "\n{:<8} {:>6} {:>6} {:>6} {:>6} {:>11} {:>5} {:>8}\n",
        "opset", "total", "pass", "fail", "known", "unsupported", "data", "predates"
    ));
    let mut all = Tally::default();
    for ((_, label), t) in &by_opset {
        out.push_str(&format!(
            "{:<8} {:>6} {:>6} {:>6} {:>6} {:>11} {:>5} {:>8}\n",
            label.trim_start_matches("opset"),
            t.total,
            t.passed,
            t.failed,
            t.known,
            t.unsupported,
            t.data,
            t.predates
        ));
        all.total += t.total;
        all.passed += t.passed;
        all.failed += t.failed;
        all.known += t.known;
        all.unsupported += t.unsupported;
        all.data += t.data;
        all.predates += t.predates;
    }
    out.push_str(&format!(
        "{:<8} {:>6} {:>6} {:>6} {:>6} {:>11} {:>5} {:>8}\n",
        "all",
        all.total,
        all.passed,
        all.failed,
        all.known,
        all.unsupported,
        all.data,
        all.predates
    ));
    out
}

#[cfg(test)]
mod tests;

/// Where a trial's failure files go: `<out>/failures/<trial name>`, each name component made
/// safe for a file system (no `..`, no separators).
pub fn failure_dir(out: &Path, trial: &str) -> PathBuf {
    let mut dir = out.join("failures");
    for part in trial.split('/') {
        let safe: String = part
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' | '_' => c,
                _ => '_',
            })
            .collect();
        dir.push(match safe.as_str() {
            "" | "." | ".." => "_",
            s => s,
        });
    }
    dir
}
