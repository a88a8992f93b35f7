//! The known-failures lists (`tests/known-failures/<backend>.json`, and `data.json`, which
//! applies to every backend) and `tests/tolerances.json`: trial selectors with a reason each,
//! and how a trial's result is judged against a known-failure entry.

use crate::error::Error;
use crate::outcome::FailureKind;
pub use crate::outcome::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// How a pattern selects trials (format 1 entries, and `tests/tolerances.json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Match {
    /// `pattern` is a whole trial name.
    Exact,
    /// `pattern` is a substring of the trial name, as a libtest filter is.
    Substring,
}

impl Match {
    /// The file's spelling, as in `exact`.
    pub fn label(self) -> &'static str {
        match self {
            Match::Exact => "exact",
            Match::Substring => "substring",
        }
    }

    /// Whether `pattern` selects trial `name`.
    pub fn selects(self, pattern: &str, name: &str) -> bool {
        match self {
            Match::Exact => name == pattern,
            Match::Substring => name.contains(pattern),
        }
    }

    /// The same selection as a `trials` pattern of format 2.
    fn as_glob(self, pattern: &str) -> String {
        match self {
            Match::Exact => pattern.to_string(),
            Match::Substring => format!("*{pattern}*"),
        }
    }
}

/// The known-failures format written today: 2 selects trials by `trials` (whole names with
/// `*` wildcards) and `types`; format 1 (`pattern` and `match`) is still read.
pub const FORMAT: u32 = 2;

/// The name of the list of upstream data problems, which no worker label may take.
pub const DATA_LIST_NAME: &str = "data";

/// The list of upstream data problems, relative to the workspace: it applies to every
/// backend, and is compiled in, so that a runtime judged from another repository gets it too.
pub const DATA_LIST: &str = "harness/known-failures/data.json";

const DATA_LIST_TEXT: &str = include_str!("../known-failures/data.json");

/// Whether glob `pattern` (`*` matches any run of characters, nothing else is special)
/// matches the whole of `name`.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether data type `dtype` is a word of trial `name`'s case name (the part after the last
/// `/`, split at `_`): `test_cast_FLOAT16_to_FLOAT8E4M3FN` has FLOAT16 and FLOAT8E4M3FN, not
/// FLOAT8E4M3FNUZ.
pub fn names_type(name: &str, dtype: &str) -> bool {
    let case = name.rsplit('/').next().unwrap_or(name);
    case.split('_').any(|w| w == dtype)
}

/// A trial that is expected to fail, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailure {
    /// Which trials, as whole names with `*` wildcards; empty: any trial that `types`
    /// selects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trials: Vec<String>,
    /// Data types, each a word of the case name (`FLOAT8E4M3FNUZ`); empty: any. A trial is
    /// selected when it matches one of `trials` (if given) and names one of `types` (if given).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
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

impl KnownFailure {
    /// Whether this entry selects trial `name`.
    pub fn selects(&self, name: &str) -> bool {
        (self.trials.is_empty() || self.trials.iter().any(|g| glob_matches(g, name)))
            && (self.types.is_empty() || self.types.iter().any(|t| names_type(name, t)))
    }

    /// What the entry selects, for messages: `trials [..] types [..]`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.trials.is_empty() {
            parts.push(format!("trials {:?}", self.trials));
        }
        if !self.types.is_empty() {
            parts.push(format!("types {:?}", self.types));
        }
        parts.join(" ")
    }
}

/// An entry as the file spells it, format 1 or 2.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    pattern: Option<String>,
    #[serde(rename = "match")]
    how: Option<Match>,
    #[serde(default)]
    trials: Vec<String>,
    #[serde(default)]
    types: Vec<String>,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    expect: Vec<String>,
    failure_kind: Option<FailureKind>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawList {
    format: u32,
    #[serde(deserialize_with = "numbered")]
    entries: Vec<RawEntry>,
}

/// A list's entries, each of which that does not parse (a field twice, a field unknown) named
/// by its number: `#[serde(deserialize_with = "numbered")]`.
fn numbered<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Numbered<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Numbered<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of entries")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut entries = Vec::new();
            loop {
                match seq.next_element::<T>() {
                    Ok(Some(entry)) => entries.push(entry),
                    Ok(None) => return Ok(entries),
                    // serde_json moves the position the inner message ends with to the end.
                    Err(e) => {
                        let i = entries.len();
                        return Err(serde::de::Error::custom(format_args!("entry {i}: {e}")));
                    }
                }
            }
        }
    }
    d.deserialize_seq(Numbered(std::marker::PhantomData))
}

/// The known-failures file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailures {
    /// Schema version: [`FORMAT`] when written.
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
    #[serde(deserialize_with = "numbered")]
    pub entries: Vec<ToleranceOverride>,
}

impl KnownFailures {
    /// Reads the file at `path`. A list that is named must exist: a missing file is an
    /// error, never an empty list (an empty list is written as one).
    pub fn load(path: &Path) -> Result<KnownFailures, Error> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::known_at(path, MISSING_LIST.to_string()))
            }
            Err(e) => return Err(Error::known_at(path, format!("cannot read: {e}"))),
        };
        Self::parse(&text).map_err(|e| e.in_file(path))
    }

    /// The list of upstream data problems, compiled in.
    pub fn data() -> Result<KnownFailures, Error> {
        Self::parse(DATA_LIST_TEXT).map_err(|e| e.in_file(DATA_LIST))
    }

    /// A list from its JSON text (format 1 or 2, read as format 2); the error names the entry
    /// and the field.
    pub fn parse(text: &str) -> Result<KnownFailures, Error> {
        let refused = |message: String| Error::Known {
            path: None,
            message,
        };
        let raw: RawList =
            serde_json::from_str(text).map_err(|e| refused(format!("invalid: {e}")))?;
        if raw.format != 1 && raw.format != FORMAT {
            return Err(refused(format!(
                "format {} is not one this harness reads (1 or {FORMAT})",
                raw.format
            )));
        }
        let entries = raw
            .entries
            .into_iter()
            .enumerate()
            .map(|(i, e)| entry(raw.format, e).map_err(|why| refused(format!("entry {i}: {why}"))))
            .collect::<Result<Vec<_>, _>>()?;
        twice(&entries).map_err(refused)?;
        Ok(KnownFailures {
            format: FORMAT,
            entries,
        })
    }
}

/// One entry of a format 1 or 2 file, checked.
fn entry(format: u32, raw: RawEntry) -> Result<KnownFailure, String> {
    let (trials, types) = match (format, raw.pattern, raw.how) {
        (1, Some(pattern), Some(how)) if raw.trials.is_empty() && raw.types.is_empty() => {
            if pattern.is_empty() {
                return Err("field `pattern` is empty".into());
            }
            (vec![how.as_glob(&pattern)], Vec::new())
        }
        (1, ..) => {
            return Err("format 1 needs `pattern` and `match` (and no `trials` or `types`)".into())
        }
        (_, None, None) => (raw.trials, raw.types),
        (..) => {
            return Err(format!(
            "`pattern` and `match` are format 1; format {FORMAT} selects with `trials` and `types`"
        ))
        }
    };
    if trials.is_empty() && types.is_empty() {
        return Err("needs `trials` or `types` (or both)".into());
    }
    if let Some(bad) = trials
        .iter()
        .find(|g| g.is_empty() || g.chars().all(|c| c == '*'))
    {
        return Err(format!("field `trials`: {bad:?} would select every trial"));
    }
    if let Some(bad) = types
        .iter()
        .find(|t| vocab::DataType::from_name(t).is_none())
    {
        return Err(format!(
            "field `types`: {bad:?} is not an ONNX data type name"
        ));
    }
    for (field, value) in [("kind", &raw.kind), ("reason", &raw.reason)] {
        if value.trim().is_empty() {
            return Err(format!("field `{field}` is missing or empty"));
        }
    }
    if raw.expect.iter().any(|x| x.is_empty()) {
        return Err("field `expect` holds an empty string".into());
    }
    for (field, items) in [
        ("trials", &trials),
        ("types", &types),
        ("expect", &raw.expect),
    ] {
        let mut seen = BTreeSet::new();
        if let Some(again) = items.iter().find(|x| !seen.insert(x.as_str())) {
            return Err(format!("field `{field}` holds {again:?} twice"));
        }
    }
    Ok(KnownFailure {
        trials,
        types,
        kind: raw.kind,
        reason: raw.reason,
        expect: raw.expect,
        failure_kind: raw.failure_kind,
    })
}

/// An entry whose selector is an earlier entry's (the same `trials` and `types`, in any
/// order): the same entry twice, of which only the first would ever apply.
fn twice(entries: &[KnownFailure]) -> Result<(), String> {
    let mut first: HashMap<(BTreeSet<&str>, BTreeSet<&str>), usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        let trials = e.trials.iter().map(String::as_str).collect();
        let types = e.types.iter().map(String::as_str).collect();
        if let Some(earlier) = first.insert((trials, types), i) {
            return Err(format!(
                "entry {i} selects what entry {earlier} selects ({}): the same entry twice, of \
                 which only the first applies; merge them",
                e.describe()
            ));
        }
    }
    Ok(())
}

/// What a missing list's error says after its path.
const MISSING_LIST: &str = "no such known-failures list: a list that is named must exist \
    (an empty list is written as {\"format\": 2, \"entries\": []}; `cargo xtask backends \
    known-failures NAME` writes a backend's from its run)";

/// The lists a run judges by: the upstream data problems, which apply to every backend, then
/// the backend's own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lists {
    /// `harness/known-failures/data.json`.
    pub data: Indexed,
    /// The backend's list.
    pub backend: Indexed,
    /// The backend's list as messages name it.
    pub backend_path: String,
}

/// The entry a trial is listed under, and in which list.
#[derive(Clone, Copy, Debug)]
pub struct Listed<'a> {
    /// The entry.
    pub entry: &'a KnownFailure,
    /// The list, as messages name it.
    pub list: &'a str,
    /// Whether it is an upstream data problem (the data list), not the backend's own.
    pub data: bool,
}

impl Lists {
    /// The data list and the backend's list (named `backend_path` in messages), indexed.
    pub fn new(data: KnownFailures, backend: KnownFailures, backend_path: String) -> Lists {
        Lists {
            data: Indexed::new(data),
            backend: Indexed::new(backend),
            backend_path,
        }
    }

    /// The entry that applies to trial `name`: the data list's first, else the backend's.
    pub fn find(&self, name: &str) -> Option<Listed<'_>> {
        if let Some((_, entry)) = self.data.find(name) {
            return Some(Listed {
                entry,
                list: DATA_LIST,
                data: true,
            });
        }
        self.backend.find(name).map(|(_, entry)| Listed {
            entry,
            list: &self.backend_path,
            data: false,
        })
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
                return Err(Error::known_at(path, format!("entry {i} {what}")));
            }
        }
        let mut first: HashMap<(&str, Match), usize> = HashMap::new();
        for (i, e) in list.entries.iter().enumerate() {
            if let Some(earlier) = first.insert((&e.pattern, e.how), i) {
                let msg = format!(
                    "entry {i} has the pattern of entry {earlier} ({:?}, match {}): the same \
                     entry twice, of which only the first applies; merge them",
                    e.pattern,
                    e.how.label()
                );
                return Err(Error::known_at(path, msg));
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
        Err(e) => return Err(Error::known_at(path, format!("cannot read: {e}"))),
    };
    serde_json::from_str(&text).map_err(|e| Error::known_at(path, format!("invalid: {e}")))
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

/// Judges a trial's result against the entry it is listed under, if any: the one place a
/// known-failure decision is made. A listed trial is a known failure (a data problem, when
/// the data list holds it) only when it fails with the entry's failure kind (when the entry
/// gives one) and a message holding every `expect` substring; a listed trial that passes
/// fails the run.
pub fn judge(result: Result<(), Failed>, listed: Option<Listed<'_>>) -> Verdict {
    let verdict = |outcome, failure_kind, message| Verdict {
        outcome,
        failure_kind,
        message: Some(message),
        known_kind: None,
    };
    let (Some(Listed { entry, list, data }), result) = (listed, &result) else {
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
                "unexpectedly passed, remove it from {list} (entry {}, kind {:?})",
                entry.describe(),
                entry.kind
            ),
        );
    };
    let kind = *kind;
    // A known failure of another kind than listed is another failure.
    if let Some(want) = entry.failure_kind.filter(|&want| want != kind) {
        return verdict(
            Outcome::Fail,
            Some(kind),
            format!("{OTHER_KIND}{kind}, but the entry of {list} expects {want}:\n{message}"),
        );
    }
    if let Some(want) = entry.expect.iter().find(|w| !message.contains(w.as_str())) {
        return verdict(
            Outcome::Fail,
            Some(kind),
            format!(
                "{NOT_AS_LISTED}{list} expects (a message containing {want:?}); this may be \
                 another bug:\n{message}"
            ),
        );
    }
    let (outcome, what) = match (data, kind) {
        (true, _) => (Outcome::DataProblem, DATA_PROBLEM),
        (false, FailureKind::Predates) => (Outcome::Predates, PREDATES),
        (false, _) => (Outcome::KnownFailure, KNOWN),
    };
    Verdict {
        known_kind: Some(entry.kind.clone()),
        ..verdict(
            outcome,
            Some(kind),
            format!("{what}{}): {}\n{message}", entry.kind, entry.reason),
        )
    }
}

// The first lines `judge` puts above a runtime's message, each a line of its own.
const KNOWN: &str = "known failure (";
const DATA_PROBLEM: &str = "upstream data problem (";
const PREDATES: &str = "runtime predates the case, as listed (";
const NOT_AS_LISTED: &str = "failed, but not as ";
const OTHER_KIND: &str = "failure kind ";

/// The runtime's own message in a message `judge` wrote: the text below judge's first line
/// (a known failure, a data problem, a failure not as listed or of another kind), else
/// `message` as it is. A list's `expect` is matched against the runtime's message, so this is
/// what `cargo xtask backends known-failures` takes its `expect` from, never judge's words.
pub fn runtime_message(message: &str) -> &str {
    let (first, rest) = message.split_once('\n').unwrap_or((message, ""));
    let wrapped = [KNOWN, DATA_PROBLEM, PREDATES, NOT_AS_LISTED, OTHER_KIND]
        .iter()
        .any(|p| first.starts_with(p));
    match wrapped {
        true => rest,
        false => message,
    }
}

pub(crate) mod checks;
mod index;

pub use checks::{CONTRADICTION_CHECK, LIST_CHECK, STALE_CHECK};
pub use index::Indexed;

#[cfg(test)]
mod tests;
