//! A backend's list and a partial run: what makes a run partial (its list is then refused),
//! and the list written from one all the same (`--merge`): the entries for the trials that
//! ran are written again from the run, and the old list's entries for the trials that did not
//! run are kept, so that a filtered run loses no reviewed entry.

use super::{refresh_over, trial_patterns};
use crate::known::{glob_matches, names_type, Indexed, KnownFailure, KnownFailures, LIST_CHECK};
use crate::provenance::Source as RunSource;
use crate::report::{Report, TrialRecord};
use crate::source::Source;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How many entries of the old list a merge kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// Old entries in the merged list: those that select no trial that ran, as they were, and
    /// those that select some, narrowed.
    pub kept: usize,
    /// Of those, the entries that selected trials that ran as well as trials that did not:
    /// they now select only the trials that did not.
    pub narrowed: usize,
}

/// The list for a run of `trials` that left out some of the trials `all` (every trial of the
/// source): the entries written from the trials that ran (as a whole run's list would hold,
/// none selecting a trial that did not run), then each old entry that selects no trial that
/// ran, as it was, and each that selects trials that ran and trials that did not, narrowed to
/// the latter (its patterns that selected a trial that ran are replaced by the trials they
/// selected that did not). An old entry all of whose trials ran is replaced by the run's. The
/// trials the data list holds are its own: they count for no old entry.
pub fn merge(
    old: &Indexed,
    data: &Indexed,
    trials: &[TrialRecord],
    all: &[&str],
    root: &str,
) -> (KnownFailures, Kept) {
    let ran: BTreeSet<&str> = trials
        .iter()
        .filter(|t| t.release.is_some())
        .map(|t| t.name.as_str())
        .collect();
    let mut list = refresh_over(old, data, trials, all, root);
    let entries = &old.list().entries;
    // The trials each old entry judges: the data list judges its own.
    let mut selects: Vec<Vec<&str>> = vec![Vec::new(); entries.len()];
    for name in all.iter().filter(|n| data.find(n).is_none()) {
        for i in old.selecting(name) {
            selects[i].push(name);
        }
    }
    let mut kept = Kept::default();
    for (entry, selected) in entries.iter().zip(&selects) {
        let (ran_here, not_run): (Vec<&str>, Vec<&str>) =
            selected.iter().partition(|n| ran.contains(*n));
        match (ran_here.is_empty(), not_run.is_empty()) {
            (true, _) => list.entries.push(entry.clone()),
            (false, true) => continue,
            (false, false) => {
                list.entries.push(narrowed(entry, selected, &ran, all));
                kept.narrowed += 1;
            }
        }
        kept.kept += 1;
    }
    (list, kept)
}

/// `entry` selecting only its trials (`selected`, of `all`, none the data list's) that did
/// not run: each pattern
/// that selected a trial that `ran` gives way to the trials it selected that did not, and a
/// type that names none of the trials left is dropped.
fn narrowed(
    entry: &KnownFailure,
    selected: &[&str],
    ran: &BTreeSet<&str>,
    all: &[&str],
) -> KnownFailure {
    let mut kept_patterns = Vec::new();
    let mut loose: BTreeSet<&str> = BTreeSet::new();
    if entry.trials.is_empty() {
        loose.extend(selected.iter().filter(|n| !ran.contains(*n)));
    }
    for pattern in &entry.trials {
        let hits: Vec<&str> = selected
            .iter()
            .copied()
            .filter(|n| glob_matches(pattern, n))
            .collect();
        match hits.iter().any(|n| ran.contains(n)) {
            false => kept_patterns.push(pattern.clone()),
            true => loose.extend(hits.into_iter().filter(|n| !ran.contains(n))),
        }
    }
    // A trial a kept pattern selects needs no pattern of its own.
    loose.retain(|n| !kept_patterns.iter().any(|p| glob_matches(p, n)));
    let left: Vec<&str> = selected
        .iter()
        .copied()
        .filter(|n| !ran.contains(n))
        .collect();
    let mut trials = kept_patterns;
    trials.extend(trial_patterns(&loose, all));
    KnownFailure {
        trials,
        types: entry
            .types
            .iter()
            .filter(|t| left.iter().any(|n| names_type(n, t)))
            .cloned()
            .collect(),
        ..entry.clone()
    }
}

/// Why `report` is not a run of every trial of the official data, if it is not: a list
/// written from it would lose the entries of the trials it did not run. A failed check of the
/// list itself (stale or contradicting entries, a missing list) is no reason: every trial
/// still ran, and writing the list again is how such a list is mended.
pub fn partial(report: &Report) -> Option<String> {
    let Some(run) = &report.run else {
        return Some("the report does not say how its run was made (format 1)".into());
    };
    let mut why = Vec::new();
    if !run.filters.is_empty() {
        why.push(format!("filter {}", run.filters.join(" ")));
    }
    if run.listed == 0 || run.ran < run.listed {
        why.push(format!("{} of {} listed trials ran", run.ran, run.listed));
    }
    match run.source {
        RunSource::Official => {}
        RunSource::Custom => why.push("a run of ONNX_BACKEND_DATA, not the official data".into()),
        RunSource::Deep => why.push("a run of the deep tree, which judges no list".into()),
    }
    let broken: Vec<&str> = report
        .trials
        .iter()
        .filter(|t| t.release.is_none() && t.outcome.fails_run())
        .map(|t| t.name.as_str())
        .filter(|n| !n.starts_with(LIST_CHECK))
        .collect();
    if !broken.is_empty() {
        why.push(format!("failed setup checks: {}", broken.join(", ")));
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// Every case trial of the source `report` ran, as a whole run would list them, and those
/// it ran: the trials a kept entry may select.
pub(super) fn universe(root: &Path, report: &Report) -> Result<Vec<String>, String> {
    let source = match report.run.as_ref().map(|r| r.source) {
        None | Some(RunSource::Official) => Source::Official,
        Some(RunSource::Custom) => Source::Custom(PathBuf::from(&report.data)),
        Some(RunSource::Deep) => return Err("a run of the deep tree judges no list".into()),
    };
    let mut names: BTreeSet<String> = source
        .case_names(root)
        .map_err(|e| format!("the trials the run did not run cannot be listed ({e})"))?
        .into_iter()
        .collect();
    names.extend(
        report
            .trials
            .iter()
            .filter(|t| t.release.is_some())
            .map(|t| t.name.clone()),
    );
    Ok(names.into_iter().collect())
}

#[cfg(test)]
mod tests;
