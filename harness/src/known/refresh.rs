//! A backend's known-failures list from its last run, grouped by (failure kind, cause), for a
//! person to review before committing it (`cargo xtask backends known-failures NAME`).

use crate::backend::FailureKind;
use crate::known::{names_type, Indexed, KnownFailure, KnownFailures, Outcome, FORMAT};
use crate::report::{self, ReportDir, TrialRecord};
use std::collections::{BTreeMap, BTreeSet};
use std::error::Error;
use std::path::{Path, PathBuf};

/// A group needs at least this many characters in common to pin them as `expect`.
const MIN_EXPECT: usize = 8;

/// Writes the list of backend `name` (a shipped name, a worker's label, or
/// `worker:<label>=<command line>`) from its report: to `output`, or to the backend's own
/// list path, and nowhere else.
pub fn run(
    root: &Path,
    target: &Path,
    name: &str,
    report: Option<&Path>,
    output: Option<&Path>,
) -> Result<(), Box<dyn Error>> {
    let name = crate::backend::backend_name(name)?;
    let report_path = match report {
        Some(path) => path.to_path_buf(),
        None => default_report(target, &name),
    };
    let report = report::load(&report_path)?;
    report.of_backend(&report_path, &name)?;
    let out = match output {
        Some(path) => path.to_path_buf(),
        None => crate::backend::list_path(root, &name),
    };
    // No list yet: this run writes the first.
    let old = match out.try_exists() {
        Ok(false) => KnownFailures::default(),
        _ => KnownFailures::load(&out)?,
    };
    let (old, data) = (Indexed::new(old), Indexed::new(KnownFailures::data()?));
    let root_text = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let list = refresh(
        &old,
        &data,
        &report.trials,
        &root_text.display().to_string(),
    );
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let json = serde_json::to_string_pretty(&list)? + "\n";
    std::fs::write(&out, json).map_err(|e| format!("{}: {e}", out.display()))?;
    let review = list
        .entries
        .iter()
        .filter(|e| e.reason.starts_with("REVIEW:"))
        .count();
    eprintln!(
        "wrote {} ({} entries, {review} to review: replace their REVIEW: reason before \
         committing)",
        out.display(),
        list.entries.len()
    );
    Ok(())
}

fn default_report(target: &Path, name: &str) -> PathBuf {
    ReportDir::of(target, name).json()
}

/// A failing trial, as the grouping sees it.
struct Failing<'a> {
    name: &'a str,
    kind: Option<FailureKind>,
    /// The first message line that is evidence on any machine.
    evidence: String,
    /// The reviewed (kind, reason) of the old entry that held it, if any.
    reviewed: Option<(String, String)>,
}

/// The list for `trials`: every trial that failed (and that the data list does not hold) is
/// selected by exactly one entry, grouped by (failure kind, cause): first one entry per data
/// type whose every trial fails the same way, then one per remaining cause (the reviewed
/// reason of an old entry, else the message with its numbers left out). An entry's `expect`
/// is the part of the message its trials share, up to any debug dump; its reason is the old
/// entries' reason when they agree, else `REVIEW:`.
pub fn refresh(old: &Indexed, data: &Indexed, trials: &[TrialRecord], root: &str) -> KnownFailures {
    // Setup checks (no release) are about the run, not the runtime: never listed; the data
    // list's trials are judged by it.
    let trials: Vec<&TrialRecord> = trials
        .iter()
        .filter(|t| t.release.is_some() && data.find(&t.name).is_none())
        .collect();
    let failing: Vec<Failing<'_>> = trials
        .iter()
        .filter(|t| {
            matches!(
                t.outcome,
                Outcome::Fail | Outcome::KnownFailure | Outcome::Predates
            )
        })
        .map(|t| Failing {
            name: &t.name,
            kind: t.failure_kind,
            evidence: evidence(t.message.as_deref().unwrap_or(""), root),
            reviewed: old
                .find(&t.name)
                .map(|(_, e)| e)
                .filter(|e| e.failure_kind.is_none() || e.failure_kind == t.failure_kind)
                .map(|e| (e.kind.clone(), e.reason.clone())),
        })
        .collect();
    let by_name: BTreeMap<&str, &Failing<'_>> = failing.iter().map(|f| (f.name, f)).collect();
    let mut claimed: BTreeSet<&str> = BTreeSet::new();
    let mut entries = Vec::new();

    // One entry per data type all of whose unclaimed trials fail the same way.
    loop {
        let mut best: Option<(usize, &str, Vec<&Failing<'_>>)> = None;
        for dtype in vocab_names() {
            let selected: Vec<&&TrialRecord> = trials
                .iter()
                .filter(|t| !claimed.contains(t.name.as_str()) && names_type(&t.name, dtype))
                .collect();
            let group: Vec<&Failing<'_>> = selected
                .iter()
                .filter_map(|t| by_name.get(t.name.as_str()).copied())
                .collect();
            let uniform = group.len() == selected.len()
                && group.len() >= 2
                && one(group.iter().map(|f| f.kind))
                && one(group.iter().map(|f| f.reviewed.clone()));
            if uniform && best.as_ref().is_none_or(|(n, ..)| group.len() > *n) {
                best = Some((group.len(), dtype, group));
            }
        }
        let Some((_, dtype, group)) = best else { break };
        claimed.extend(group.iter().map(|f| f.name));
        entries.push(entry(Vec::new(), vec![dtype.to_string()], &group));
    }

    // The rest, one entry per (failure kind, cause).
    let mut rest: BTreeMap<(Option<FailureKind>, String), Vec<&Failing<'_>>> = BTreeMap::new();
    for f in failing.iter().filter(|f| !claimed.contains(f.name)) {
        let cause = match &f.reviewed {
            Some((kind, reason)) => format!("{kind}\n{reason}"),
            None => digits_out(&f.evidence),
        };
        rest.entry((f.kind, cause)).or_default().push(f);
    }
    let all: Vec<&str> = trials.iter().map(|t| t.name.as_str()).collect();
    for group in rest.values() {
        entries.push(entry(trial_patterns(group, &all), Vec::new(), group));
    }
    KnownFailures {
        format: FORMAT,
        entries,
    }
}

/// Every ONNX data type name.
fn vocab_names() -> impl Iterator<Item = &'static str> {
    vocab::DataType::ALL.iter().map(|d| d.name())
}

/// Whether every item is the same.
fn one<T: PartialEq>(mut items: impl Iterator<Item = T>) -> bool {
    let first = items.next();
    items.all(|x| Some(x) == first)
}

/// The entry selecting `group`.
fn entry(trials: Vec<String>, types: Vec<String>, group: &[&Failing<'_>]) -> KnownFailure {
    let kind = group[0].kind;
    let lines: BTreeSet<&str> = group.iter().map(|f| f.evidence.as_str()).collect();
    let shared = stable(&common_part(&lines));
    let expect = match shared.chars().count() >= MIN_EXPECT {
        true => vec![shared.clone()],
        false => Vec::new(),
    };
    let (class, reason) = match &group[0].reviewed {
        Some((class, reason)) if one(group.iter().map(|f| &f.reviewed)) => {
            (class.clone(), reason.clone())
        }
        _ => (
            kind.map_or("failure", |k| k.label()).to_string(),
            format!(
                "REVIEW: {} trials: {}",
                group.len(),
                if shared.is_empty() {
                    &group[0].evidence
                } else {
                    &shared
                }
            ),
        ),
    };
    KnownFailure {
        trials,
        types,
        kind: class,
        reason,
        expect,
        failure_kind: kind,
    }
}

/// The `trials` patterns of a group: `onnx-*/<case>` (or `own/*/<case>`) when the group holds
/// every trial of that case name, else the trial's name.
fn trial_patterns(group: &[&Failing<'_>], all: &[&str]) -> Vec<String> {
    let split = |n: &str| -> (String, String) {
        let (source, _) = n.split_once('/').unwrap_or((n, ""));
        let family = match source.strip_prefix("onnx-") {
            Some(_) => "onnx-*".to_string(),
            None => format!("{source}/*"),
        };
        let case = n.rsplit('/').next().unwrap_or(n).to_string();
        (family, case)
    };
    let mine: BTreeSet<&str> = group.iter().map(|f| f.name).collect();
    let mut patterns = BTreeSet::new();
    for name in &mine {
        let (family, case) = split(name);
        let pattern = format!("{family}/{case}");
        let every = all
            .iter()
            .filter(|n| crate::known::glob_matches(&pattern, n))
            .all(|n| mine.contains(n));
        patterns.insert(match every {
            true => pattern,
            false => name.to_string(),
        });
    }
    patterns.into_iter().collect()
}

/// The longest text every line holds.
fn common_part(lines: &BTreeSet<&str>) -> String {
    let Some(shortest) = lines.iter().min_by_key(|l| l.len()) else {
        return String::new();
    };
    let chars: Vec<(usize, char)> = shortest.char_indices().collect();
    let ends: Vec<usize> = chars.iter().map(|(i, c)| i + c.len_utf8()).collect();
    for len in (1..=chars.len()).rev() {
        for start in 0..=chars.len() - len {
            let (from, to) = (chars[start].0, ends[start + len - 1]);
            if lines.iter().all(|l| l.contains(&shortest[from..to])) {
                return whole_words(shortest, from, to).to_string();
            }
        }
    }
    String::new()
}

/// `line[from..to]` less a word cut at either end, so that an `expect` string never starts
/// or ends inside a word or a number.
fn whole_words(line: &str, mut from: usize, mut to: usize) -> &str {
    let word = |c: char| !c.is_whitespace();
    let text = &line[from..to];
    (from, to) = (
        from + text.len() - text.trim_start().len(),
        to - (text.len() - text.trim_end().len()),
    );
    if line[..from].chars().next_back().is_some_and(word) {
        from = line[from..to]
            .find(char::is_whitespace)
            .map_or(to, |at| from + at);
    }
    if line[to..].chars().next().is_some_and(word) {
        to = line[from..to]
            .rfind(char::is_whitespace)
            .map_or(from, |at| from + at);
    }
    line[from..to].trim()
}

/// `text` up to a runtime's debug dump (a `{`: `Tensor { elem_type: ...`), trimmed.
fn stable(text: &str) -> String {
    let cut = text.find('{').map_or(text, |at| &text[..at]);
    cut.trim()
        .trim_end_matches([':', ',', '('])
        .trim()
        .to_string()
}

/// `text` with every run of digits as `#`: the cause, less the counts.
fn digits_out(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c.is_ascii_digit() {
            true if out.ends_with('#') => {}
            true => out.push('#'),
            false => out.push(c),
        }
    }
    out
}

/// The first line of the runtime's own message (below the harness's known-failure verdict,
/// if any: `expect` is matched against the runtime's words) that is evidence on any machine:
/// not a path of this checkout, not the rerun hint; at most 160 characters.
fn evidence(message: &str, root: &str) -> String {
    crate::known::runtime_message(message)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.contains(root) && !l.starts_with("rerun:"))
        .map(|l| match l.char_indices().nth(160) {
            // Cut at a word's end, so that the line ends as the message's words do.
            Some((at, _)) => l[..at].rsplit_once(' ').map_or(&l[..at], |(head, _)| head),
            None => l,
        })
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests;
