//! A backend's known-failures list from its last run, grouped by (failure kind, cause), for a
//! person to review before committing it (`cargo xtask backends known-failures NAME`).

use crate::known::{names_type, Indexed, KnownFailure, KnownFailures, Outcome, FORMAT};
use crate::outcome::FailureKind;
use crate::report::{self, ReportDir, TrialRecord};
use crate::Error;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod merge;

pub use merge::{merge, partial, Kept};

/// A group needs at least this many characters in common to pin them as `expect`.
const MIN_EXPECT: usize = 8;

/// Writes the list of backend `name` (a shipped name, a worker's label, or
/// `worker:<label>=<command line>`) from its report: to `output`, or to the backend's own
/// list path, and nowhere else. A report of a partial run (a filter, trials that did not
/// run, another source, a broken setup) is refused, since the list written from it would
/// lose the entries of every trial it did not run, unless `merge`: then the old list's
/// entries for those trials are kept. Returns what it wrote, in a line for the user.
pub fn run(
    root: &Path,
    target: &Path,
    name: &str,
    report: Option<&Path>,
    output: Option<&Path>,
    merge: bool,
) -> Result<String, Error> {
    let name = crate::backend::backend_name(name)?;
    let report_path = match report {
        Some(path) => path.to_path_buf(),
        None => default_report(target, &name),
    };
    let report = report::load(&report_path)?;
    report.of_backend(&report_path, &name)?;
    let partial = partial(&report);
    if let (Some(why), false) = (&partial, merge) {
        return Err(Error::Report(format!(
            "{}: a partial run ({why}): a list written from it would drop the entries of every \
             trial it did not run. Run the whole suite on {name} (no filter) and write the \
             list again (in a checkout, `cargo xtask backends known-failures --merge` keeps the \
             old list's entries for the trials this run did not run)",
            report_path.display()
        )));
    }
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
    let root_text = root_text.display().to_string();
    let (list, kept) = match merge {
        true => {
            let universe = merge::universe(root, &report).map_err(|e| {
                Error::Report(format!("{}: cannot merge: {e}", report_path.display()))
            })?;
            let universe: Vec<&str> = universe.iter().map(String::as_str).collect();
            let (list, kept) = merge::merge(&old, &data, &report.trials, &universe, &root_text);
            (list, Some(kept))
        }
        false => (refresh(&old, &data, &report.trials, &root_text), None),
    };
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::Output(format!("{}: {e}", dir.display())))?;
    }
    let json =
        serde_json::to_string_pretty(&list).map_err(|e| Error::Output(e.to_string()))? + "\n";
    schema::files::write_atomic(&out, json.as_bytes())?;
    let review = list
        .entries
        .iter()
        .filter(|e| e.reason.starts_with("REVIEW:"))
        .count();
    let kept = match kept {
        Some(k) => format!(
            "; kept {} entries of the old list for trials this run did not run, {} of them \
             narrowed to those trials",
            k.kept, k.narrowed
        ),
        None => String::new(),
    };
    Ok(format!(
        "wrote {} ({} entries, {review} to review: replace their REVIEW: reason before \
         committing{kept})",
        out.display(),
        list.entries.len()
    ))
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
    let all: Vec<&str> = trials
        .iter()
        .filter(|t| t.release.is_some())
        .map(|t| t.name.as_str())
        .collect();
    refresh_over(old, data, trials, &all, root)
}

/// As [`refresh`], over the trials `all` (those of `trials` that ran, and others that did
/// not): an entry selects only trials of `trials` that failed, never one of `all` that did
/// not run or passed.
fn refresh_over(
    old: &Indexed,
    data: &Indexed,
    trials: &[TrialRecord],
    all: &[&str],
    root: &str,
) -> KnownFailures {
    // Setup checks (no release) are about the run, not the runtime: never listed; the data
    // list's trials are judged by it.
    let ours = |name: &str| data.find(name).is_none();
    let all: Vec<&str> = all.iter().copied().filter(|n| ours(n)).collect();
    let failing: Vec<Failing<'_>> = trials
        .iter()
        .filter(|t| t.release.is_some() && ours(&t.name))
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
    // The trials each entry written so far holds, by the entry's number.
    let mut claimed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut entries = Vec::new();

    // One entry per data type all of whose unclaimed trials fail the same way, and which
    // says nothing of the claimed trials it selects too that their entry, the first to
    // select them, does not check.
    loop {
        let mut best: Option<(usize, &str, KnownFailure, Vec<&Failing<'_>>)> = None;
        for dtype in vocab_names() {
            let named: Vec<&str> = all
                .iter()
                .copied()
                .filter(|n| names_type(n, dtype))
                .collect();
            let selected: Vec<&str> = named
                .iter()
                .copied()
                .filter(|n| !claimed.contains_key(n))
                .collect();
            let group: Vec<&Failing<'_>> = selected
                .iter()
                .filter_map(|n| by_name.get(n).copied())
                .collect();
            let uniform = group.len() == selected.len()
                && group.len() >= 2
                && one(group.iter().map(|f| f.kind))
                && one(group.iter().map(|f| f.reviewed.clone()));
            if !uniform || best.as_ref().is_some_and(|(n, ..)| group.len() <= *n) {
                continue;
            }
            let candidate = entry(Vec::new(), vec![dtype.to_string()], &group);
            let agrees = named
                .iter()
                .filter_map(|n| claimed.get(n))
                .all(|&i| crate::known::checks::unchecked(&entries[i], &candidate).is_none());
            if agrees {
                best = Some((group.len(), dtype, candidate, group));
            }
        }
        let Some((_, _, candidate, group)) = best else {
            break;
        };
        claimed.extend(group.iter().map(|f| (f.name, entries.len())));
        entries.push(candidate);
    }

    // The rest, one entry per (failure kind, cause).
    let mut rest: BTreeMap<(Option<FailureKind>, String), Vec<&Failing<'_>>> = BTreeMap::new();
    for f in failing.iter().filter(|f| !claimed.contains_key(f.name)) {
        let cause = match &f.reviewed {
            Some((kind, reason)) => format!("{kind}\n{reason}"),
            None => digits_out(&f.evidence),
        };
        rest.entry((f.kind, cause)).or_default().push(f);
    }
    for group in rest.values() {
        let names: BTreeSet<&str> = group.iter().map(|f| f.name).collect();
        entries.push(entry(trial_patterns(&names, &all), Vec::new(), group));
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

/// The `trials` patterns selecting exactly `names` of `all`: `onnx-*/<case>` (or
/// `own/*/<case>`) when `names` holds every trial of `all` with that case name, else the
/// trial's name.
fn trial_patterns(names: &BTreeSet<&str>, all: &[&str]) -> Vec<String> {
    let split = |n: &str| -> (String, String) {
        let (source, _) = n.split_once('/').unwrap_or((n, ""));
        let family = match source.strip_prefix("onnx-") {
            Some(_) => "onnx-*".to_string(),
            None => format!("{source}/*"),
        };
        let case = n.rsplit('/').next().unwrap_or(n).to_string();
        (family, case)
    };
    let mut patterns = BTreeSet::new();
    for name in names {
        let (family, case) = split(name);
        let pattern = format!("{family}/{case}");
        let every = all
            .iter()
            .filter(|n| crate::known::glob_matches(&pattern, n))
            .all(|n| names.contains(n));
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
