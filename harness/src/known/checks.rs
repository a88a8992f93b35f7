//! The checks a run makes of its lists before the first trial, over every trial it lists
//! (so that no filter skips them): entries that select no trial (stale), and entries that
//! select the same trial but do not say the same of it (contradicting). Each walks the
//! trials once, through the index: entries plus trials, never their product.

use super::{Indexed, KnownFailure, Lists, DATA_LIST};
use std::collections::{BTreeMap, BTreeSet};

/// The setup check failing on a list that cannot be read (or does not exist).
pub const LIST_CHECK: &str = "settings/known-failures";
/// The setup check failing on entries that select no trial of the official data.
pub const STALE_CHECK: &str = "settings/known-failures-stale";
/// The setup check failing on entries that select the same trial and do not say the same.
pub const CONTRADICTION_CHECK: &str = "settings/known-failures-contradiction";

impl Indexed {
    /// Entries, or parts of their selectors (each `trials` pattern, each type), that select
    /// none of `names` together with the rest of their entry (stale when `names` is the full
    /// list), each described for a message.
    pub fn unmatched(&self, names: &[&str]) -> Vec<String> {
        let entries = &self.list().entries;
        // Which patterns and types of each entry select some trial.
        let mut live: Vec<(Vec<bool>, Vec<bool>)> = entries
            .iter()
            .map(|e| (vec![false; e.trials.len()], vec![false; e.types.len()]))
            .collect();
        for name in names {
            for i in self.selecting(name) {
                let (e, (trials, types)) = (&entries[i], &mut live[i]);
                for (g, hit) in e.trials.iter().zip(trials.iter_mut()) {
                    *hit |= super::glob_matches(g, name);
                }
                for (t, hit) in e.types.iter().zip(types.iter_mut()) {
                    *hit |= super::names_type(name, t);
                }
            }
        }
        let mut stale = Vec::new();
        for (i, (e, (trials, types))) in entries.iter().zip(&live).enumerate() {
            let dead_trials = e.trials.iter().zip(trials).filter(|(_, hit)| !**hit);
            let dead_types = e.types.iter().zip(types).filter(|(_, hit)| !**hit);
            let parts = dead_trials
                .map(|(g, _)| format!("trials pattern {g:?}"))
                .chain(dead_types.map(|(t, _)| format!("type {t:?}")));
            stale.extend(parts.map(|part| format!("entry {i} ({}): {part}", e.kind)));
        }
        stale
    }

    /// Pairs of entries that select a trial of `names` together, where the later one says
    /// what the first does not check: only the first entry selecting a trial is held to it,
    /// so a later one that expects another failure kind (they cannot both hold), or a kind or
    /// an `expect` string the first does not, would never be reported false. One message per
    /// pair, naming both entries and a trial they share.
    pub fn contradictions(&self, names: &[&str]) -> Vec<String> {
        let entries = &self.list().entries;
        // (first, later) -> (trials they share, one of them).
        let mut pairs: BTreeMap<(usize, usize), (usize, &str)> = BTreeMap::new();
        for name in names {
            let selecting = self.selecting(name);
            let Some((&first, later)) = selecting.split_first() else {
                continue;
            };
            for &k in later {
                if unchecked(&entries[first], &entries[k]).is_some() {
                    pairs.entry((first, k)).or_insert((0, name)).0 += 1;
                }
            }
        }
        pairs
            .into_iter()
            .map(|((i, k), (shared, name))| {
                let (first, later) = (&entries[i], &entries[k]);
                let why = unchecked(first, later).unwrap_or_default();
                let more = match shared {
                    1 => String::new(),
                    2 => " and 1 more trial".to_string(),
                    n => format!(" and {} more trials", n - 1),
                };
                format!(
                    "entries {i} ({}) and {k} ({}) both select {name}{more}, but only entry \
                     {i}, the first, is checked against them, and {why}; narrow one of them so \
                     that they share no trial, or merge them",
                    named(first),
                    named(later)
                )
            })
            .collect()
    }
}

/// An entry as a message names it: its kind and selector.
fn named(entry: &KnownFailure) -> String {
    format!("{:?}, {}", entry.kind, entry.describe())
}

/// What entry `later` claims of a trial that entry `first`, the one the trial is judged by,
/// does not check; `None` when every claim of `later` follows from `first`'s.
pub(crate) fn unchecked(first: &KnownFailure, later: &KnownFailure) -> Option<String> {
    match (first.failure_kind, later.failure_kind) {
        (Some(a), Some(b)) if a != b => {
            return Some(format!(
                "it expects failure kind {a} where the other expects {b}: they cannot both hold"
            ))
        }
        (None, Some(b)) => {
            return Some(format!(
                "the other expects failure kind {b}, which the first does not check"
            ))
        }
        _ => {}
    }
    let held = |x: &String| first.expect.iter().any(|f| f.contains(x.as_str()));
    later.expect.iter().find(|x| !held(x)).map(|x| {
        format!("the other expects a message containing {x:?}, which the first does not check")
    })
}

impl Lists {
    /// The stale parts of both lists over the full list of trial `names`: an entry of the
    /// backend's list that selects only trials of the data list is stale too.
    pub fn unmatched(&self, names: &[&str]) -> Vec<String> {
        // The data list is about the official data of every release: an entry about a
        // release this data does not hold (another tree, a test's workspace) is not judged.
        let sources: BTreeSet<&str> = names.iter().filter_map(|n| n.split('/').next()).collect();
        let held = |g: &String| {
            let source = g.split('/').next().unwrap_or(g);
            source.contains('*') || sources.contains(source)
        };
        let data = self.data.list();
        let data = Indexed::new(super::KnownFailures {
            format: data.format,
            entries: data
                .entries
                .iter()
                .filter(|e| e.trials.is_empty() || e.trials.iter().any(held))
                .map(|e| KnownFailure {
                    trials: e.trials.iter().filter(|g| held(g)).cloned().collect(),
                    ..e.clone()
                })
                .collect(),
        });
        let mut stale: Vec<String> = data
            .unmatched(names)
            .into_iter()
            .map(|s| format!("{DATA_LIST} {s}"))
            .collect();
        stale.extend(
            self.backend
                .unmatched(&self.own(names))
                .into_iter()
                .map(|s| format!("{} {s}", self.backend_path)),
        );
        stale
    }

    /// The contradicting pairs of entries of each list over trial `names`. The data list
    /// judges its trials alone, so the backend's list is checked over the others.
    pub fn contradictions(&self, names: &[&str]) -> Vec<String> {
        let data = self.data.contradictions(names);
        let own = self.backend.contradictions(&self.own(names));
        let data = data.into_iter().map(|s| format!("{DATA_LIST} {s}"));
        let own = own
            .into_iter()
            .map(|s| format!("{} {s}", self.backend_path));
        data.chain(own).collect()
    }

    /// The setup checks of the lists that fail over trial `names` (every case the run lists,
    /// before any filter), each as (check, message): contradicting entries always, and stale
    /// ones when `stale` (only `names` of the whole official data can tell).
    pub fn checks(&self, names: &[&str], stale: bool) -> Vec<(&'static str, String)> {
        let mut failed = Vec::new();
        let unmatched = match stale {
            true => self.unmatched(names),
            false => Vec::new(),
        };
        if !unmatched.is_empty() {
            let msg = format!(
                "known-failure entries that select no trial (remove or fix them): {}",
                unmatched.join("; ")
            );
            failed.push((STALE_CHECK, msg));
        }
        let contradictions = self.contradictions(names);
        if !contradictions.is_empty() {
            let msg = format!(
                "known-failure entries that select the same trial but do not say the same of \
                 it: {}",
                contradictions.join("; ")
            );
            failed.push((CONTRADICTION_CHECK, msg));
        }
        failed
    }

    /// The trials of `names` that the data list does not hold: the backend's list judges
    /// these.
    fn own<'a>(&self, names: &[&'a str]) -> Vec<&'a str> {
        names
            .iter()
            .copied()
            .filter(|n| self.data.find(n).is_none())
            .collect()
    }
}

#[cfg(test)]
mod tests;
