//! `report.html`: one self-contained page (no external assets) with a matrix of case groups by
//! opset, each cell coloured by its worst outcome, the trials and messages in its tooltip.

use super::{opset_label, Report, Tally, TrialRecord};
use crate::known::Outcome;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:1.5em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}\
th{background:#f4f4f4;position:sticky;top:0}td.name{font-family:monospace;white-space:nowrap}\
td.c{text-align:center;min-width:3.5em;cursor:help}.pass{background:#b7e4b0}\
.fail{background:#f19c9c}.known{background:#f6d58e}.none{background:#fafafa}\
pre{background:#f8f8f8;padding:.5em;white-space:pre-wrap}";

/// The HTML report.
pub fn render(report: &Report) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">");
    let _ = write!(
        out,
        "<title>ONNX conformance</title><style>{STYLE}</style></head><body>"
    );
    let mode = if report.strict {
        "strict"
    } else {
        "default (ONNX runner tolerance)"
    };
    let mut all = Tally::default();
    report.trials.iter().for_each(|t| all.add(t.outcome));
    let _ = write!(
        out,
        "<h1>ONNX conformance</h1><p>comparison: {}; data: <code>{}</code><br>{} trials: \
         {} passed, {} failed, {} known failures</p>",
        esc(mode),
        esc(&report.data),
        all.total,
        all.passed,
        all.failed,
        all.known
    );
    out.push_str(
        "<p><span class=\"pass\">&nbsp;pass&nbsp;</span> <span class=\"known\">&nbsp;known \
         failure&nbsp;</span> <span class=\"fail\">&nbsp;fail or unexpected pass&nbsp;</span> \
         &mdash; a cell counts passed/total over releases and <code>_expanded</code> twins; \
         hover for trials and messages.</p>",
    );
    run_checks(&mut out, report);
    matrix(&mut out, report);
    out.push_str("</body></html>\n");
    out
}

/// Trials that are not cases (missing or incomplete data), listed above the matrix.
fn run_checks(out: &mut String, report: &Report) {
    let checks: Vec<&TrialRecord> = report.trials.iter().filter(|t| t.case.is_none()).collect();
    if checks.is_empty() {
        return;
    }
    out.push_str("<h2>Run checks</h2>");
    for t in checks {
        let _ = write!(
            out,
            "<p class=\"{}\"><code>{}</code></p><pre>{}</pre>",
            class(t.outcome),
            esc(&t.name),
            esc(t.message.as_deref().unwrap_or(""))
        );
    }
}

fn matrix(out: &mut String, report: &Report) {
    let cases: Vec<&TrialRecord> = report.trials.iter().filter(|t| t.case.is_some()).collect();
    let columns: BTreeSet<(i64, String)> = cases
        .iter()
        .map(|t| (t.opset.unwrap_or(i64::MAX), opset_label(t)))
        .collect();
    let mut cells: BTreeMap<((bool, String), String), Vec<&TrialRecord>> = BTreeMap::new();
    for t in &cases {
        cells.entry((group(t), opset_label(t))).or_default().push(t);
    }
    let groups: BTreeSet<&(bool, String)> = cells.keys().map(|(g, _)| g).collect();
    out.push_str("<table><tr><th>case group</th>");
    for (_, label) in &columns {
        let _ = write!(out, "<th>{}</th>", esc(label));
    }
    out.push_str("</tr>");
    for g in groups {
        let _ = write!(out, "<tr><td class=\"name\">{}</td>", esc(&g.1));
        for (_, label) in &columns {
            match cells.get(&(g.clone(), label.clone())) {
                Some(trials) => cell(out, trials),
                None => out.push_str("<td class=\"none\"></td>"),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("<tr><th>all</th>");
    for (_, label) in &columns {
        let mut t = Tally::default();
        cases
            .iter()
            .filter(|c| &opset_label(c) == label)
            .for_each(|c| t.add(c.outcome));
        let _ = write!(out, "<th>{}/{}</th>", t.passed, t.total);
    }
    out.push_str("</tr></table>");
}

fn cell(out: &mut String, trials: &[&TrialRecord]) {
    let mut t = Tally::default();
    trials.iter().for_each(|r| t.add(r.outcome));
    let worst = trials
        .iter()
        .map(|r| r.outcome)
        .max_by_key(|o| severity(*o));
    let title: Vec<String> = trials.iter().map(|r| tooltip_line(r)).collect();
    let _ = write!(
        out,
        "<td class=\"c {}\" title=\"{}\">{}/{}</td>",
        worst.map_or("none", class),
        esc(&title.join("\n")),
        t.passed,
        t.total
    );
}

fn tooltip_line(t: &TrialRecord) -> String {
    let mut line = format!("{}: {}", t.name, t.outcome.label());
    if let Some(v) = &t.op_version {
        line.push_str(&format!(" [{v}, {}]", t.rule));
    }
    if let Some(msg) = &t.message {
        let short: String = msg.lines().take(4).collect::<Vec<_>>().join("\n  ");
        let short: String = short.chars().take(400).collect();
        line.push_str(&format!("\n  {short}"));
    }
    line
}

/// The case group: the case name with a trailing `_expanded` folded into its twin; cases of
/// other trees (`own`, `custom`) are kept apart, after the official ones.
fn group(t: &TrialRecord) -> (bool, String) {
    let case = t.case.as_deref().unwrap_or(&t.name);
    let case = case.strip_suffix("_expanded").unwrap_or(case);
    match t.release.as_deref() {
        Some(r) if !r.starts_with(|c: char| c.is_ascii_digit()) => (true, format!("{r}/{case}")),
        _ => (false, case.to_string()),
    }
}

fn severity(o: Outcome) -> u8 {
    match o {
        Outcome::Pass => 0,
        Outcome::KnownFailure => 1,
        Outcome::Fail | Outcome::UnexpectedPass => 2,
    }
}

fn class(o: Outcome) -> &'static str {
    match o {
        Outcome::Pass => "pass",
        Outcome::KnownFailure => "known",
        Outcome::Fail | Outcome::UnexpectedPass => "fail",
    }
}

/// `s` escaped for HTML text and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
