//! `tests/known-failures.json` and `tests/tolerances.json`: trial patterns with a reason each,
//! and how a trial's result is judged against a known-failure entry.

use crate::backend::FailureKind;
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How an entry's `pattern` selects trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Match {
    /// `pattern` is a whole trial name.
    Exact,
    /// `pattern` is a substring of the trial name, as a libtest filter is.
    Substring,
}

impl Match {
    /// Whether `pattern` selects trial `name`.
    pub fn selects(self, pattern: &str, name: &str) -> bool {
        match self {
            Match::Exact => name == pattern,
            Match::Substring => name.contains(pattern),
        }
    }
}

/// A trial that is expected to fail, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailure {
    /// A trial name or substring, per `match`.
    pub pattern: String,
    /// How `pattern` is matched.
    #[serde(rename = "match")]
    pub how: Match,
    /// The class of failure, as in `upstream data corrupt`.
    pub kind: String,
    /// Why it fails, with the evidence.
    pub reason: String,
    /// Substrings the failure message must all contain, so another bug cannot hide behind
    /// this entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<String>,
    /// The failure kind the trial must fail with (`mismatch`, `unsupported`, ...), if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_kind: Option<FailureKind>,
}

/// The known-failures file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailures {
    /// Schema version; 1.
    pub format: u32,
    /// The entries; the first that selects a trial applies.
    pub entries: Vec<KnownFailure>,
}

/// A per-case tolerance that replaces the default rtol/atol (not used in strict mode).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToleranceOverride {
    /// A trial name or substring, per `match`.
    pub pattern: String,
    /// How `pattern` is matched.
    #[serde(rename = "match")]
    pub how: Match,
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
    /// Why the default is not right for these trials.
    pub reason: String,
}

/// The tolerances file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerances {
    /// Schema version; 1.
    pub format: u32,
    /// The overrides; the first that selects a trial applies.
    pub entries: Vec<ToleranceOverride>,
}

impl KnownFailures {
    /// Reads the file at `path`; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<KnownFailures, Error> {
        let list: KnownFailures = load_json(path)?;
        for (i, e) in list.entries.iter().enumerate() {
            if e.pattern.is_empty() || e.reason.trim().is_empty() || e.kind.trim().is_empty() {
                let what = "needs a non-empty pattern, kind and reason";
                return Err(Error::at(path, format!("entry {i} {what}")));
            }
        }
        Ok(list)
    }

    /// The first entry selecting trial `name`.
    pub fn find(&self, name: &str) -> Option<&KnownFailure> {
        self.entries
            .iter()
            .find(|e| e.how.selects(&e.pattern, name))
    }

    /// Entries that select none of `names` (stale entries when `names` is the full list).
    pub fn unmatched<'a>(&'a self, names: &[&str]) -> Vec<&'a KnownFailure> {
        let selects = |e: &KnownFailure| names.iter().any(|n| e.how.selects(&e.pattern, n));
        self.entries.iter().filter(|e| !selects(e)).collect()
    }
}

impl Tolerances {
    /// Reads the file at `path`; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<Tolerances, Error> {
        let list: Tolerances = load_json(path)?;
        for (i, e) in list.entries.iter().enumerate() {
            let sane = |x: f64| x.is_finite() && x >= 0.0;
            if e.pattern.is_empty() || e.reason.trim().is_empty() || !sane(e.rtol) || !sane(e.atol)
            {
                let what = "needs a pattern, a reason and finite non-negative rtol and atol";
                return Err(Error::at(path, format!("entry {i} {what}")));
            }
        }
        Ok(list)
    }

    /// The first override selecting trial `name`.
    pub fn find(&self, name: &str) -> Option<&ToleranceOverride> {
        self.entries
            .iter()
            .find(|e| e.how.selects(&e.pattern, name))
    }
}

fn load_json<T: Default + for<'de> Deserialize<'de>>(path: &Path) -> Result<T, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(T::default()),
        Err(e) => return Err(Error::at(path, format!("cannot read: {e}"))),
    };
    serde_json::from_str(&text).map_err(|e| Error::at(path, format!("invalid: {e}")))
}

/// What became of a trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Ran and matched.
    Pass,
    /// Failed, and is not a known failure.
    Fail,
    /// Failed as its known-failures entry says.
    KnownFailure,
    /// Listed as a known failure but passed: a failure of the run.
    UnexpectedPass,
}

impl Outcome {
    /// The report spelling, as in `known-failure`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::KnownFailure => "known-failure",
            Outcome::UnexpectedPass => "unexpected-pass",
        }
    }

    /// Whether this outcome fails the run.
    pub fn fails_run(self) -> bool {
        matches!(self, Outcome::Fail | Outcome::UnexpectedPass)
    }
}

/// A trial's failure before judging: its kind and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    /// What kind of failure.
    pub kind: FailureKind,
    /// What happened.
    pub message: String,
}

/// What a trial is judged to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The outcome.
    pub outcome: Outcome,
    /// The kind of failure, for a trial that failed (known failures included).
    pub failure_kind: Option<FailureKind>,
    /// The message to show: the failure, or why a pass or a failure fails the run.
    pub message: Option<String>,
    /// The entry's class (`upstream data corrupt`) when the trial is a known failure.
    pub known_kind: Option<String>,
}

/// Judges a trial's result against its known-failures entry, if any: the one place a
/// known-failure decision is made. A listed trial is a known failure only when it fails with
/// the entry's failure kind (when the entry gives one) and a message holding every `expect`
/// substring; a listed trial that passes fails the run.
pub fn judge(result: Result<(), Failed>, entry: Option<&KnownFailure>) -> Verdict {
    let verdict = |outcome, failure_kind, message| Verdict {
        outcome,
        failure_kind,
        message: Some(message),
        known_kind: None,
    };
    let (Some(entry), result) = (entry, &result) else {
        return match result {
            Ok(()) => Verdict {
                outcome: Outcome::Pass,
                failure_kind: None,
                message: None,
                known_kind: None,
            },
            Err(f) => verdict(Outcome::Fail, Some(f.kind), f.message),
        };
    };
    let Err(Failed { kind, message }) = result else {
        return verdict(
            Outcome::UnexpectedPass,
            None,
            format!(
                "unexpectedly passed, remove it from tests/known-failures.json \
                 (entry {:?}, kind {:?})",
                entry.pattern, entry.kind
            ),
        );
    };
    let kind = *kind;
    // A known failure of another kind than listed is another failure.
    if let Some(want) = entry.failure_kind.filter(|&want| want != kind) {
        return verdict(
            Outcome::Fail,
            Some(kind),
            format!("failure kind {kind}, but the known-failures entry expects {want}: {message}"),
        );
    }
    if let Some(want) = entry.expect.iter().find(|w| !message.contains(w.as_str())) {
        return verdict(
            Outcome::Fail,
            Some(kind),
            format!(
                "failed, but not as tests/known-failures.json expects (a message \
                 containing {want:?}); this may be another bug: {message}"
            ),
        );
    }
    Verdict {
        known_kind: Some(entry.kind.clone()),
        ..verdict(
            Outcome::KnownFailure,
            Some(kind),
            format!(
                "known failure ({}): {}\n{message}",
                entry.kind, entry.reason
            ),
        )
    }
}

#[cfg(test)]
mod tests;
