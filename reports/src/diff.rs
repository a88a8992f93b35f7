//! What moved between two runs of a backend, as Markdown a pull-request comment can hold: the
//! one diff of `cargo xtask report --diff` (two `report.json` of one backend,
//! [`crate::report_diff`]) and `cargo xtask scoreboard --diff` (two scoreboards, backend by
//! backend, [`crate::scoreboard::diff_files`]).
//!
//! A trial is judged by what the backend did, not by its known-failures list: it passed (its
//! outputs matched, whether or not a list expected a failure) or it failed with a kind. So a
//! trial that moves onto a list is not a move, and one that starts passing while listed is.

use crate::scoreboard::type_pair;
use harness::backend::FailureKind;
use harness::known::Outcome;
use harness::report::page::md_text;
use harness::report::TrialRecord;
use std::collections::BTreeMap;
use std::fmt::Write;

/// How far the summary of rows past the limit goes: groups listed per section.
const MAX_SUMMARY_GROUPS: usize = 12;

/// How a trial moved between the old run and the new.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Move {
    /// Passed before, fails now.
    NewlyFailing,
    /// Failed before and fails now, with another failure kind.
    KindChanged,
    /// Failed before, passes now.
    NewlyPassing,
    /// Only in the new run.
    Added,
    /// Only in the old run.
    Removed,
}

impl Move {
    const ALL: [Move; 5] = [
        Move::NewlyFailing,
        Move::KindChanged,
        Move::NewlyPassing,
        Move::Added,
        Move::Removed,
    ];

    fn title(self) -> &'static str {
        match self {
            Move::NewlyFailing => "newly failing",
            Move::KindChanged => "failure kind changed",
            Move::NewlyPassing => "newly passing",
            Move::Added => "added",
            Move::Removed => "removed",
        }
    }
}

/// What a backend did with a trial: `pass`, or the failure kind.
fn state(t: &TrialRecord) -> String {
    match t.outcome {
        Outcome::Pass | Outcome::UnexpectedPass => "pass".into(),
        // The data is wrong: the backend's answer does not count either way.
        Outcome::DataProblem => "data problem".into(),
        Outcome::Fail | Outcome::KnownFailure | Outcome::Predates => {
            t.failure_kind.map_or("fail".into(), |k| k.label().into())
        }
    }
}

/// One trial that moved.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// How.
    pub moved: Move,
    /// The operator version, as in `Cast-19`.
    pub op_version: String,
    /// The type pair, as the scoreboard names it.
    pub types: String,
    /// The trial name.
    pub name: String,
    /// What the backend did before (empty when added).
    pub was: String,
    /// What it does now (empty when removed).
    pub now: String,
    /// Whether this move is a regression: a pass became a failure, or a refusal at load became
    /// another failure (a wrong answer, an error, a crash or a timeout).
    pub regression: bool,
}

/// One backend's moves.
#[derive(Clone, Debug, PartialEq)]
pub struct BackendDiff {
    /// The backend.
    pub name: String,
    /// Its version in the old run.
    pub old_version: String,
    /// Its version in the new run.
    pub new_version: String,
    /// Trials in both runs.
    pub common: usize,
    /// The trials that moved, by move, operator version, types and name.
    pub rows: Vec<Row>,
}

impl BackendDiff {
    /// The regressions among the moves.
    pub fn regressions(&self) -> usize {
        self.rows.iter().filter(|r| r.regression).count()
    }
}

/// Compares the trials of backend `name` in two runs, matched by trial name.
pub fn compare(
    name: &str,
    (old_version, old): (&str, &[TrialRecord]),
    (new_version, new): (&str, &[TrialRecord]),
) -> BackendDiff {
    let old: BTreeMap<&str, &TrialRecord> = old.iter().map(|t| (t.name.as_str(), t)).collect();
    let new: BTreeMap<&str, &TrialRecord> = new.iter().map(|t| (t.name.as_str(), t)).collect();
    let predates = FailureKind::Predates.label();
    let mut rows = Vec::new();
    let mut common = 0;
    for (trial, &now) in &new {
        let Some(&was) = old.get(trial) else {
            rows.push(row(Move::Added, now, String::new(), state(now)));
            continue;
        };
        common += 1;
        let (was, now_state) = (state(was), state(now));
        let moved = match (was.as_str(), now_state.as_str()) {
            (a, b) if a == b => continue,
            // The runtime predates the case, or no longer does: it did not run, neither a
            // regression nor a fix.
            (a, b) if a == predates || b == predates => Move::KindChanged,
            ("pass", _) => Move::NewlyFailing,
            (_, "pass") => Move::NewlyPassing,
            _ => Move::KindChanged,
        };
        rows.push(row(moved, now, was, now_state));
    }
    for (trial, &was) in &old {
        if !new.contains_key(trial) {
            rows.push(row(Move::Removed, was, state(was), String::new()));
        }
    }
    rows.sort_by(|a, b| {
        (a.moved, &a.op_version, &a.types, &a.name).cmp(&(
            b.moved,
            &b.op_version,
            &b.types,
            &b.name,
        ))
    });
    BackendDiff {
        name: name.to_string(),
        old_version: old_version.to_string(),
        new_version: new_version.to_string(),
        common,
        rows,
    }
}

fn row(moved: Move, t: &TrialRecord, was: String, now: String) -> Row {
    let unsupported = FailureKind::Unsupported.label();
    let regression = match moved {
        Move::NewlyFailing => true,
        Move::KindChanged => was == unsupported && now != FailureKind::Predates.label(),
        _ => false,
    };
    Row {
        moved,
        op_version: t.op_version.map_or_else(|| "-".into(), |v| v.to_string()),
        types: type_pair(t),
        name: t.name.clone(),
        was,
        now,
        regression,
    }
}

/// The diff as Markdown: a title, notes (one bullet each), then per backend a count line and a
/// table per kind of move. At most `max_rows` trial rows in all; past them, each section
/// counts its remaining trials by operator version and types.
pub fn markdown(title: &str, notes: &[String], diffs: &[BackendDiff], max_rows: usize) -> String {
    let mut out = format!("## {title}\n\n");
    for note in notes {
        let _ = writeln!(out, "- {}", cell(note));
    }
    if !notes.is_empty() {
        out.push('\n');
    }
    let mut budget = max_rows;
    for d in diffs {
        let versions = if d.old_version == d.new_version {
            d.new_version.clone()
        } else {
            format!("{} -> {}", d.old_version, d.new_version)
        };
        let _ = writeln!(out, "### {} ({})\n", cell(&d.name), cell(&versions));
        if d.rows.is_empty() {
            let _ = writeln!(out, "Nothing moved ({} trials in both runs).\n", d.common);
            continue;
        }
        let counts: Vec<String> = Move::ALL
            .iter()
            .map(|&m| {
                let n = d.rows.iter().filter(|r| r.moved == m).count();
                match m == Move::NewlyFailing && n > 0 {
                    true => format!("**{n} {}**", m.title()),
                    false => format!("{n} {}", m.title()),
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "{} trials in both runs; {}; {} regressions.\n",
            d.common,
            counts.join(", "),
            d.regressions()
        );
        for m in Move::ALL {
            let rows: Vec<&Row> = d.rows.iter().filter(|r| r.moved == m).collect();
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(out, "#### {} ({})\n", capitalised(m.title()), rows.len());
            let shown = rows.len().min(budget);
            budget -= shown;
            if shown > 0 {
                out.push_str("| operator | types | trial | was | now |\n|---|---|---|---|---|\n");
                for r in &rows[..shown] {
                    let _ = writeln!(
                        out,
                        "| {} | {} | `{}` | {} | {} |",
                        cell(&r.op_version),
                        cell(&r.types),
                        r.name.replace('`', "'").replace('|', "\\|"),
                        or_dash(&r.was),
                        or_dash(&r.now)
                    );
                }
                out.push('\n');
            }
            if shown < rows.len() {
                summarise(&mut out, &rows[shown..]);
            }
        }
    }
    out
}

/// The task's result: an error when `fail_on_regression` and anything regressed.
pub fn judge(regressions: usize, fail_on_regression: bool) -> Result<(), crate::Error> {
    match regressions {
        n if n > 0 && fail_on_regression => {
            Err(format!("{n} trials regressed (--fail-on-regression)").into())
        }
        _ => Ok(()),
    }
}

/// One line for the rows past the limit: how many, by operator version and types.
fn summarise(out: &mut String, rest: &[&Row]) {
    let mut groups: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in rest {
        *groups.entry((&r.op_version, &r.types)).or_default() += 1;
    }
    let mut parts: Vec<String> = groups
        .iter()
        .take(MAX_SUMMARY_GROUPS)
        .map(|((op, types), n)| format!("{} {} ({n})", cell(op), cell(types)))
        .collect();
    if groups.len() > MAX_SUMMARY_GROUPS {
        parts.push(format!(
            "and {} more groups",
            groups.len() - MAX_SUMMARY_GROUPS
        ));
    }
    let _ = writeln!(
        out,
        "{} more not listed: {}.\n",
        rest.len(),
        parts.join(", ")
    );
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

/// Text safe in a Markdown table cell or heading: no pipe, no line break (`\r` included), no
/// HTML.
fn cell(s: &str) -> String {
    md_text(&s.replace('\r', " "))
}

#[cfg(test)]
mod tests;
