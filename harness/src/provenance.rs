//! How a run was made, recorded in `report.json`: start time, commit, data-lock hash, data
//! source, filters, and whether the run was complete. `cargo xtask coverage` trusts only a
//! complete run of the official data.

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where a run's cases came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The fetched official data (`onnx-backend-data/index.json`), plus `tests/cases/`.
    Official,
    /// The tree `ONNX_BACKEND_DATA` names, plus `tests/cases/`.
    Custom,
    /// A deep tree (`ONNX_CONFORMANCE_SUITE=deep`, or an in-process run of one): never a
    /// complete run of the official data.
    Deep,
}

/// The deep tree a run judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeepTree {
    /// The tree's root.
    pub path: String,
    /// The content hash its index records.
    pub content_sha256: String,
}

/// Which test runner drove the trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Runner {
    /// `cargo test`: one process ran every selected trial.
    Libtest,
    /// `cargo nextest run`: one process per trial.
    Nextest,
}

/// The provenance of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// When the run started, UTC, as in `2026-11-23T20:16:29Z`.
    pub started: String,
    /// The workspace's git commit (`git rev-parse HEAD`, with `-dirty` when tracked files
    /// differ from it), if git and a repository are there.
    pub commit: Option<String>,
    /// sha256 of `onnx-backend-data.lock.json`, if the file is there.
    pub data_lock_sha256: Option<String>,
    /// Where the cases came from.
    pub source: Source,
    /// The deep tree, when the source is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep_tree: Option<DeepTree>,
    /// The test runner.
    pub runner: Runner,
    /// The libtest filters and `--skip`/`--exact` options given; empty for none. Under
    /// nextest, where each process runs one trial, nextest's own filter is not known here.
    pub filters: Vec<String>,
    /// Trials the binary listed before any filter: every case and every setup check.
    pub listed: usize,
    /// Trials that ran.
    pub ran: usize,
    /// No filter, the official data, no failed setup check, and every listed trial ran.
    pub complete: bool,
    /// The configuration the backend ran in, when it declares several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<crate::outcome::Configuration>,
}

impl RunInfo {
    /// Whether these facts make a complete run: no filter, official data, no setup problem,
    /// and as many trials ran as were listed.
    pub fn judge_complete(&mut self, setup_ok: bool) {
        self.complete = self.filters.is_empty()
            && self.source == Source::Official
            && setup_ok
            && self.listed > 0
            && self.ran == self.listed;
    }

    /// One line for people: time, commit, data lock, source, filters, complete or not.
    pub fn summary(&self) -> String {
        let short = |h: &Option<String>| {
            h.as_deref()
                .map_or("none".to_string(), |h| h.chars().take(12).collect())
        };
        let filters = match self.filters.is_empty() {
            true => "none".to_string(),
            false => self.filters.join(" "),
        };
        let source = match (self.source, &self.deep_tree) {
            (Source::Official, _) => "official".to_string(),
            (Source::Custom, _) => "ONNX_BACKEND_DATA".to_string(),
            (Source::Deep, Some(tree)) => format!(
                "deep tree {} (sha256 {})",
                tree.path,
                short(&Some(tree.content_sha256.clone()))
            ),
            (Source::Deep, None) => "deep tree (unreadable)".to_string(),
        };
        format!(
            "started {}, commit {}, data lock {}, data {source}, filter {filters}, \
             {} of {} listed trials ran, {}",
            self.started,
            short(&self.commit),
            short(&self.data_lock_sha256),
            self.ran,
            self.listed,
            if self.complete {
                "complete"
            } else {
                "not complete"
            }
        )
    }
}

/// The libtest options that select trials, as given on the command line.
pub fn filters(args: &libtest_mimic::Arguments) -> Vec<String> {
    let mut out: Vec<String> = args.filter.iter().cloned().collect();
    if args.exact && !out.is_empty() {
        out.insert(0, "--exact".to_string());
    }
    for s in &args.skip {
        out.push(format!("--skip {s}"));
    }
    if args.ignored {
        out.push("--ignored".to_string());
    }
    out
}

/// The current time, UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// `secs` since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian, UTC).
pub fn rfc3339(secs: u64) -> String {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from a day count, by eras of 400 years (146097 days each).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The workspace's HEAD commit, or `None` when git is missing or this is no repository.
pub fn git_commit(workspace: &Path) -> Option<String> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(workspace)
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let hash = text.trim();
    if !out.status.success() || hash.is_empty() {
        return None;
    }
    // Tracked files that differ from HEAD make the hash alone a claim the run cannot back.
    let clean = std::process::Command::new("git")
        .arg("-C")
        .arg(workspace)
        .args(["diff", "--quiet", "HEAD", "--"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    Some(match clean {
        true => hash.to_string(),
        false => format!("{hash}-dirty"),
    })
}

/// sha256 of the lock file `lock`, if it can be read.
pub fn lock_hash(lock: &Path) -> Option<String> {
    let mut file = std::fs::File::open(lock).ok()?;
    schema::hash::sha256_read(&mut file).ok()
}

#[cfg(test)]
mod tests;
