//! The scoreboard as Markdown, HTML and a console summary: outcomes per opset and per data
//! type, one column group per backend. A trial counts by what happened to it, whether or not
//! its backend's known-failures list expects it.

use super::{BackendRun, Scoreboard};
use harness::backend::FailureKind;
use harness::known::Outcome;
use harness::report::page::escape;
use harness::report::TrialRecord;
use std::collections::BTreeMap;
use std::fmt::Write;
use vocab::OpKind;

/// What happened to a group of trials of one backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Trials.
    pub total: usize,
    /// Ran and matched.
    pub pass: usize,
    /// Ran, and dtype, shape or values differ.
    pub mismatch: usize,
    /// Refused at load.
    pub unsupported: usize,
    /// Errors, crashes and timeouts.
    pub other: usize,
    /// Upstream data problems (`harness/known-failures/data.json`): counted apart, neither a
    /// pass nor a failure of the backend.
    pub data: usize,
    /// Cases the runtime predates (a newer IR version or opset than it declares), listed or
    /// not: not run, counted apart like the data problems.
    pub predates: usize,
}

impl Counts {
    fn add(&mut self, t: &TrialRecord) {
        self.total += 1;
        match (t.outcome, t.failure_kind) {
            (Outcome::DataProblem, _) => self.data += 1,
            (_, Some(FailureKind::Predates)) => self.predates += 1,
            (Outcome::Pass | Outcome::UnexpectedPass, _) => self.pass += 1,
            (_, Some(FailureKind::Mismatch)) => self.mismatch += 1,
            (_, Some(FailureKind::Unsupported)) => self.unsupported += 1,
            _ => self.other += 1,
        }
    }

    /// `pass/total`, then the non-passing kinds that occur.
    fn cell(&self) -> String {
        if self.total == 0 {
            return String::new();
        }
        let mut s = format!("{}/{}", self.pass, self.total - self.data - self.predates);
        for (n, label) in [
            (self.mismatch, "mismatch"),
            (self.unsupported, "unsupported"),
            (self.other, "error"),
            (self.data, "data problem"),
            (self.predates, "predates"),
        ] {
            if n > 0 {
                let _ = write!(s, " · {n} {label}");
            }
        }
        s
    }

    /// The CSS class of a cell: what dominates it.
    fn class(&self) -> &'static str {
        if self.total == 0 {
            "none"
        } else if self.pass + self.data == self.total {
            "pass"
        } else if self.mismatch + self.other > 0 {
            "fail"
        } else {
            "unsupported"
        }
    }
}

/// Counts of every backend, grouped by `key` (rows sorted by key).
fn grouped<K: Ord + Clone>(
    board: &Scoreboard,
    key: impl Fn(&TrialRecord) -> K,
) -> BTreeMap<K, Vec<Counts>> {
    let mut rows: BTreeMap<K, Vec<Counts>> = BTreeMap::new();
    for (b, run) in board.backends.iter().enumerate() {
        for t in &run.trials {
            let row = rows
                .entry(key(t))
                .or_insert_with(|| vec![Counts::default(); board.backends.len()]);
            row[b].add(t);
        }
    }
    rows
}

fn totals(run: &BackendRun) -> Counts {
    let mut c = Counts::default();
    run.trials.iter().for_each(|t| c.add(t));
    c
}

/// The type pair of a trial: `FLOAT -> FLOAT16` for Cast and CastLike, `Concat FLOAT`.
pub(crate) fn type_pair(t: &TrialRecord) -> String {
    let input = t.inputs.first().map_or("?", String::as_str);
    let output = t.outputs.first().map_or("?", String::as_str);
    match t.op_version.map(|v| v.op()) {
        Some(OpKind::Concat) => format!("Concat {input}"),
        _ => format!("{input} -> {output}"),
    }
}

/// Rows by operator version, in version order within each operator (Cast-6 before Cast-13).
fn by_version(board: &Scoreboard) -> Vec<(String, Vec<Counts>)> {
    let key = |t: &TrialRecord| match t.op_version {
        Some(v) => (v.op().name().to_string(), v.since(), v.to_string()),
        None => (String::new(), 0, String::new()),
    };
    grouped(board, key)
        .into_iter()
        .map(|((_, _, label), counts)| (label, counts))
        .collect()
}

fn opset_key(t: &TrialRecord) -> i64 {
    t.opset.unwrap_or(-1)
}

fn header(board: &Scoreboard) -> Vec<String> {
    board
        .backends
        .iter()
        .map(|b| {
            format!(
                "{} ({} {})",
                b.backend.name, b.backend.runtime, b.backend.version
            )
        })
        .collect()
}

/// The Markdown page.
pub fn markdown(board: &Scoreboard) -> String {
    let mut s = String::from("# Scoreboard: official Cast, CastLike and Concat cases\n\n");
    let _ = writeln!(s, "Data lock sha256 `{}`. Cells: passed/trials, then mismatches, refusals at load (unsupported) and errors, crashes or timeouts; upstream data problems and cases the runtime predates (a newer IR version or opset than it declares, not run) are counted apart.\n", board.data_lock);
    for missing in &board.not_set_up {
        let _ = writeln!(s, "- **{}**: not run, {}\n", missing.name, missing.status);
    }
    let heads = header(board);
    let table = |s: &mut String, first: &str, rows: Vec<(String, Vec<Counts>)>| {
        let _ = writeln!(s, "| {first} | {} |", heads.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(heads.len()));
        for (label, counts) in rows {
            let cells: Vec<String> = counts.iter().map(Counts::cell).collect();
            let _ = writeln!(s, "| {label} | {} |", cells.join(" | "));
        }
        s.push('\n');
    };
    s.push_str("## All official instances\n\n");
    table(
        &mut s,
        "",
        vec![("all".into(), board.backends.iter().map(totals).collect())],
    );
    s.push_str("## By opset\n\n");
    let rows = grouped(board, opset_key)
        .into_iter()
        .map(|(k, v)| (format!("opset {k}"), v))
        .collect();
    table(&mut s, "opset", rows);
    s.push_str("## By operator version\n\n");
    table(&mut s, "version", by_version(board));
    s.push_str("## By data type (input -> output; Concat: its type)\n\n");
    let rows = grouped(board, type_pair).into_iter().collect();
    table(&mut s, "types", rows);
    s
}

/// The scoreboard page's CSS.
const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:1.5em}\
    table{border-collapse:collapse;margin-bottom:2em}\
    td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;white-space:nowrap}\
    .pass{background:#d9f2d9}.fail{background:#f7c6c6;font-weight:bold}\
    .unsupported{background:#e6e6e6}.none{background:#fff}";

/// The HTML page: the same tables, coloured by what dominates each cell.
pub fn html(board: &Scoreboard) -> String {
    let mut s = harness::report::page::html_open("onnx-conformance scoreboard", STYLE);
    s.push_str("\n<h1>Scoreboard: official Cast, CastLike and Concat cases</h1>\n");
    let _ = writeln!(s, "<p>Data lock sha256 <code>{}</code>. Cells: passed/trials, then mismatches, refusals at load (unsupported) and errors, crashes or timeouts. Green: all pass; grey: only refusals; red: a wrong answer or an error.</p>", escape(&board.data_lock));
    for missing in &board.not_set_up {
        let _ = writeln!(
            s,
            "<p><b>{}</b>: not run, {}</p>",
            escape(&missing.name),
            escape(&missing.status)
        );
    }
    let heads = header(board);
    let table = |s: &mut String, title: &str, rows: Vec<(String, Vec<Counts>)>| {
        let _ = write!(s, "<h2>{}</h2><table><tr><th></th>", escape(title));
        for h in &heads {
            let _ = write!(s, "<th>{}</th>", escape(h));
        }
        s.push_str("</tr>\n");
        for (label, counts) in rows {
            let _ = write!(s, "<tr><th>{}</th>", escape(&label));
            for c in counts {
                let _ = write!(s, "<td class=\"{}\">{}</td>", c.class(), escape(&c.cell()));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n");
    };
    table(
        &mut s,
        "All official instances",
        vec![("all".into(), board.backends.iter().map(totals).collect())],
    );
    let rows = grouped(board, opset_key)
        .into_iter()
        .map(|(k, v)| (format!("opset {k}"), v))
        .collect();
    table(&mut s, "By opset", rows);
    table(&mut s, "By operator version", by_version(board));
    table(
        &mut s,
        "By data type (input -> output; Concat: its type)",
        grouped(board, type_pair).into_iter().collect(),
    );
    s.push_str(harness::report::page::HTML_CLOSE);
    s
}

/// A few lines for the console: each backend's totals.
pub fn summary(board: &Scoreboard) -> String {
    let mut s = String::from("scoreboard (official instances)\n");
    for missing in &board.not_set_up {
        let _ = writeln!(s, "{:14} {}", missing.name, missing.status);
    }
    for run in &board.backends {
        let c = totals(run);
        let _ = writeln!(
            s,
            "{:14} {:>5} trials {:>5} pass {:>5} mismatch {:>5} unsupported {:>5} error {:>5} \
             predates  ({} {})",
            run.backend.name,
            c.total,
            c.pass,
            c.mismatch,
            c.unsupported,
            c.other,
            c.predates,
            run.backend.runtime,
            run.backend.version
        );
    }
    s
}

#[cfg(test)]
mod tests;
