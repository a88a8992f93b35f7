//! `report.html`: one self-contained page (no external assets): a legend, a matrix of case
//! groups by opset, sectioned by operator, each cell coloured by its worst outcome with its
//! trials in a tooltip, then every failure and known failure with its full message.

use super::page::escape;
use super::{opset_label, Report, Tally, TrialRecord};
use crate::outcome::Outcome;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}\
h1{margin:.2em 0}h2{margin:1.2em 0 .4em}p{margin:.4em 0;max-width:75em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 5px}\
th{background:#eee;position:sticky;top:0;z-index:1}th.name{text-align:left}\
tr.sec th{position:static;background:#dde3ea;text-align:left;font-size:15px;padding:4px 6px}\
td.name{font:12.5px monospace;white-space:nowrap;position:sticky;left:0;background:#fff}\
td.c{text-align:center;min-width:2.2em;cursor:help;font-variant-numeric:tabular-nums}\
td.c a{color:inherit}td.c.fail{font-weight:bold;color:#700}\
.pass{background:#b7e4b0}.known{background:#f6d58e}.fail{background:#f19c9c}\
.predates{background:#c9d4e8}div.trial.predates{border-color:#6b7fa8;background:#f0f3f9}\
.none{background:#fafafa}td.all{font-size:11px;padding:1px 2px}\
.key{display:inline-block;min-width:2.6em;text-align:center;border:1px solid #ccc;margin-right:.3em}\
ul.legend{list-style:none;padding:0}ul.legend li{margin:.2em 0}\
div.trial{margin:.6em 0;padding:.3em .6em;border-left:6px solid}\
div.trial.fail{border-color:#d33;background:#fdf0f0}div.trial.known{border-color:#d9a400;background:#fdf8ea}\
pre{margin:.3em 0;white-space:pre-wrap;font-size:13px}p.run{color:#555}\
label.only{display:block;margin:.4em 0}#failing-only:checked~table tr.ok{display:none}";

/// The HTML report.
pub fn render(report: &Report) -> String {
    let mut out = super::page::html_open(&super::title(report), STYLE);
    header(&mut out, report);
    run_checks(&mut out, report);
    matrix(&mut out, report);
    details(&mut out, report, Outcome::Fail, "Failures");
    details(&mut out, report, Outcome::KnownFailure, "Known failures");
    details(
        &mut out,
        report,
        Outcome::DataProblem,
        "Upstream data problems",
    );
    details(
        &mut out,
        report,
        Outcome::Predates,
        "Cases the runtime predates",
    );
    out.push_str(super::page::HTML_CLOSE);
    out
}

/// Title, run settings, totals and the legend.
fn header(out: &mut String, report: &Report) {
    let mode = if report.strict {
        "strict (bit-exact; any NaN matches any NaN)"
    } else {
        "default (the ONNX backend runner's tolerance)"
    };
    let mut all = Tally::default();
    report.trials.iter().for_each(|t| all.add(t));
    let link = |n: usize, what: &str, id: &str| match n {
        0 => format!("{n} {what}"),
        _ => format!("<a href=\"#{id}\">{n} {what}</a>"),
    };
    let _ = write!(
        out,
        "<h1>{}</h1><p>Comparison: {}. Data: <code>{}</code>.</p>\
         <p class=\"run\">Run: {}.</p><p><b>{} trials</b>: {} passed, {}, {}, {}.</p>",
        escape(&super::title(report)),
        escape(mode),
        escape(&report.data),
        escape(&super::provenance_text(report)),
        all.total,
        all.passed,
        link(all.failed, "failed", "failures"),
        link(all.known, "known failures", "known-failures"),
        link(
            all.predates,
            "the runtime predates (not run)",
            "cases-the-runtime-predates"
        ),
    );
    let listed = match &report.known_failures {
        Some(list) => format!("listed in <code>{}</code>", escape(list)),
        None => "this run had no known-failures list".to_string(),
    };
    let _ = write!(
        out,
        "<p>Rows are case groups, columns the opset the model declares. A cell counts \
         <b>passed/trials</b>: one trial per onnx release that ships the case at that opset, \
         with an <code>_expanded</code> twin counted in its case's row. Hover over a cell to \
         list its trials; click a red or amber cell to jump to its messages. Totals (the \
         <code>all</code> row and column) do the same for a whole row or column.</p>\
         <ul class=\"legend\">\
         <li><span class=\"key pass\">2/2</span> every trial passes</li>\
         <li><span class=\"key known\">0/1</span> a known failure ({listed}) or an upstream \
         data problem (<code>harness/known-failures/data.json</code>), no other \
         failure</li>\
         <li><span class=\"key predates\">0/1</span> the runtime predates the case (a newer \
         IR version or opset than it declares; not run, as its list expects), nothing else \
         but passes</li>\
         <li><span class=\"key fail\"><b>1/2</b></span> a failure or an unexpected pass</li>\
         <li><span class=\"key none\">&nbsp;</span> no case at this opset</li></ul>",
    );
}

/// Trials that are not cases (missing or incomplete data), listed above the matrix.
fn run_checks(out: &mut String, report: &Report) {
    let checks: Vec<&TrialRecord> = report.trials.iter().filter(|t| t.case.is_none()).collect();
    if checks.is_empty() {
        return;
    }
    out.push_str("<h2>Run checks</h2>");
    for t in checks {
        trial_block(out, t);
    }
}

/// A row of the matrix: (other tree?, section title, case group).
type RowKey = (bool, String, String);

fn matrix(out: &mut String, report: &Report) {
    let cases: Vec<&TrialRecord> = report.trials.iter().filter(|t| t.case.is_some()).collect();
    let columns: BTreeSet<(i64, String)> = cases
        .iter()
        .map(|t| (t.opset.unwrap_or(i64::MAX), opset_label(t)))
        .collect();
    let mut rows: BTreeMap<RowKey, BTreeMap<String, Vec<&TrialRecord>>> = BTreeMap::new();
    for t in &cases {
        let cells = rows.entry(row_key(t)).or_default();
        cells.entry(opset_label(t)).or_default().push(t);
    }
    out.push_str(
        "<h2>By case group and opset</h2><input type=\"checkbox\" id=\"failing-only\">\
         <label class=\"only\" for=\"failing-only\"> show only rows with a failure or a known \
         failure</label><table><tr><th class=\"name\">case group \\ opset</th>",
    );
    for (_, label) in &columns {
        let number = label.trim_start_matches("opset");
        let _ = write!(
            out,
            "<th title=\"model opset {0}\">{0}</th>",
            escape(number)
        );
    }
    out.push_str("<th title=\"all opsets\">all</th></tr>");
    let clean = |cells: &BTreeMap<String, Vec<&TrialRecord>>| {
        cells.values().flatten().all(|t| t.outcome == Outcome::Pass)
    };
    let mut section = None;
    for ((_, title, name), cells) in &rows {
        if section != Some(title) {
            let all_clean = rows
                .iter()
                .filter(|((_, t, _), _)| t == title)
                .all(|(_, c)| clean(c));
            let _ = write!(
                out,
                "<tr class=\"sec{}\"><th colspan=\"{}\">{}</th></tr>",
                if all_clean { " ok" } else { "" },
                columns.len() + 2,
                escape(title)
            );
            section = Some(title);
        }
        let class = if clean(cells) { " class=\"ok\"" } else { "" };
        let _ = write!(out, "<tr{class}><td class=\"name\">{}</td>", escape(name));
        for (_, label) in &columns {
            match cells.get(label) {
                Some(trials) => cell(out, trials),
                None => out.push_str("<td class=\"none\"></td>"),
            }
        }
        let row: Vec<&TrialRecord> = cells.values().flatten().copied().collect();
        total_cell(out, name, &row);
        out.push_str("</tr>");
    }
    out.push_str("<tr><th class=\"name\">all</th>");
    for (_, label) in &columns {
        let column: Vec<&TrialRecord> = cases
            .iter()
            .filter(|c| &opset_label(c) == label)
            .copied()
            .collect();
        total_cell(out, label, &column);
    }
    total_cell(out, "all trials", &cases);
    out.push_str("</tr></table>");
}

/// The row of a trial: official case groups by operator, then other trees (`own`, `custom`).
fn row_key(t: &TrialRecord) -> RowKey {
    let case = t.case.as_deref().unwrap_or(&t.name);
    let case = case.strip_suffix("_expanded").unwrap_or(case);
    let op = t.op_type.as_deref().unwrap_or("unknown operator");
    match t.release.as_deref() {
        Some(r) if !r.starts_with(|c: char| c.is_ascii_digit()) => {
            (true, format!("{r} cases: {op}"), format!("{r}/{case}"))
        }
        _ => (false, op.to_string(), case.to_string()),
    }
}

fn cell(out: &mut String, trials: &[&TrialRecord]) {
    let mut in_order = trials.to_vec();
    in_order.sort_by_key(|r| (super::md::release_key(r), &r.name));
    let title: Vec<String> = in_order.iter().map(|r| tooltip_line(r)).collect();
    linked_cell(out, "c", trials, &title.join("\n"));
}

/// A row or column total: passed/trials, coloured like a cell; its tooltip counts the
/// outcomes and names the trials that did not pass, and it links to the first of them.
fn total_cell(out: &mut String, what: &str, trials: &[&TrialRecord]) {
    let mut t = Tally::default();
    trials.iter().for_each(|r| t.add(r));
    let mut title = format!(
        "{what}: {} trials, {} passed, {} failed, {} known failures",
        t.total, t.passed, t.failed, t.known
    );
    if t.predates > 0 {
        let _ = write!(title, ", {} the runtime predates", t.predates);
    }
    let mut bad: Vec<&TrialRecord> = trials
        .iter()
        .copied()
        .filter(|r| r.outcome != Outcome::Pass)
        .collect();
    bad.sort_by_key(|r| (std::cmp::Reverse(severity(r.outcome)), &r.name));
    for r in bad.iter().take(TOTAL_NAMES) {
        let _ = write!(title, "\n{}: {}", r.name, r.outcome.label());
    }
    if bad.len() > TOTAL_NAMES {
        let _ = write!(title, "\n… and {} more", bad.len() - TOTAL_NAMES);
    }
    linked_cell(out, "c all", trials, &title);
}

/// How many trials a total's tooltip names.
const TOTAL_NAMES: usize = 12;

/// A cell counting passed/trials, coloured by the worst outcome, with `title` as tooltip;
/// a cell with a failure or known failure links to the worst trial's message block.
fn linked_cell(out: &mut String, class_prefix: &str, trials: &[&TrialRecord], title: &str) {
    let mut t = Tally::default();
    trials.iter().for_each(|r| t.add(r));
    let mut worst_first = trials.to_vec();
    worst_first.sort_by_key(|r| (std::cmp::Reverse(severity(r.outcome)), &r.name));
    let worst = worst_first.first().copied();
    let counts = format!("{}/{}", t.passed, t.total);
    let text = match worst.filter(|w| w.outcome != Outcome::Pass) {
        Some(w) => format!("<a href=\"#{}\">{counts}</a>", escape(&anchor_id(&w.name))),
        None => counts,
    };
    let _ = write!(
        out,
        "<td class=\"{class_prefix} {}\" title=\"{}\">{text}</td>",
        worst.map_or("none", |w| class(w.outcome)),
        escape(title),
    );
}

/// How much of a message a cell's tooltip shows.
const TOOLTIP_LINES: usize = 4;
const TOOLTIP_CHARS: usize = 400;

fn tooltip_line(t: &TrialRecord) -> String {
    let mut line = format!("{}: {}", t.name, t.outcome.label());
    if let Some(v) = &t.op_version {
        line.push_str(&format!(" [{v}, {}]", t.rule));
    }
    if let Some(msg) = &t.message {
        let lines: Vec<&str> = msg.lines().collect();
        let mut short = lines[..lines.len().min(TOOLTIP_LINES)].join("\n  ");
        let mut cut = lines.len() > TOOLTIP_LINES;
        if short.chars().count() > TOOLTIP_CHARS {
            short = short.chars().take(TOOLTIP_CHARS).collect();
            cut = true;
        }
        if cut {
            // Say that the message goes on; the whole of it is in the block below.
            short.push_str(" …");
        }
        line.push_str(&format!("\n  {short}"));
    }
    line
}

/// Every trial whose outcome has the class of `kind`, with its whole message.
fn details(out: &mut String, report: &Report, kind: Outcome, heading: &str) {
    let listed: Vec<&TrialRecord> = report
        .trials
        .iter()
        .filter(|t| t.case.is_some() && class(t.outcome) == class(kind))
        .collect();
    if listed.is_empty() {
        return;
    }
    let id = heading.to_ascii_lowercase().replace(' ', "-");
    let _ = write!(out, "<h2 id=\"{id}\">{heading} ({})</h2>", listed.len());
    for t in listed {
        trial_block(out, t);
    }
}

/// One trial with its outcome, operator version, rule and message, as a link target.
fn trial_block(out: &mut String, t: &TrialRecord) {
    let version = t
        .op_version
        .map_or_else(|| "no operator version".to_string(), |v| v.to_string());
    let _ = write!(
        out,
        "<div class=\"trial {}\" id=\"{}\"><code><b>{}</b></code>: {} ({}, rule {})\
         <pre>{}</pre></div>",
        class(t.outcome),
        escape(&anchor_id(&t.name)),
        escape(&t.name),
        t.outcome.label(),
        escape(&version),
        escape(t.rule.label()),
        escape(t.message.as_deref().unwrap_or(""))
    );
}

/// The link target of a trial's block; trial names are unique within a report and their
/// characters map to distinct ids in practice (`/` becomes `-`).
fn anchor_id(name: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    let id: String = name
        .chars()
        .map(|c| if safe(c) { c } else { '-' })
        .collect();
    format!("t-{id}")
}

fn severity(o: Outcome) -> u8 {
    match o {
        Outcome::Pass => 0,
        Outcome::Predates => 1,
        Outcome::KnownFailure | Outcome::DataProblem => 2,
        Outcome::Fail | Outcome::UnexpectedPass => 3,
    }
}

fn class(o: Outcome) -> &'static str {
    match o {
        Outcome::Pass => "pass",
        Outcome::Predates => "predates",
        Outcome::KnownFailure | Outcome::DataProblem => "known",
        Outcome::Fail | Outcome::UnexpectedPass => "fail",
    }
}
