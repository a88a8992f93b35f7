//! `report.md`: outcome tables per opset x operator, per release and per operator version,
//! then the failures and known failures by name.

use super::page::md_cell;
use super::{opset_label, tally_by, Report, Tally, TrialRecord};
use crate::outcome::Outcome;
use std::fmt::Write as _;

/// The Markdown report.
pub fn render(report: &Report) -> String {
    let mut out = format!("# {}\n\n", super::title(report));
    let mode = if report.strict {
        "strict (bit-exact; any NaN matches any NaN of the same type)"
    } else {
        "default (ONNX backend runner rules: rtol 1e-3, atol 1e-7 on floats, other types exact)"
    };
    let _ = writeln!(out, "- comparison: {mode}");
    let _ = writeln!(out, "- data: `{}`", report.data);
    let _ = writeln!(out, "- run: {}", super::provenance_text(report));
    let all = tally_by(&report.trials, |_| ())
        .remove(&())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "- backend: {} ({} {})",
        report.backend.name, report.backend.runtime, report.backend.version
    );
    let _ = writeln!(
        out,
        "- known failures: {}",
        match &report.known_failures {
            Some(list) => format!("`{list}`"),
            None => "no list".to_string(),
        }
    );
    let _ = writeln!(
        out,
        "- trials: {} total, {} passed, {} failed, {} known failures, {} upstream data \
         problems, {} the runtime predates (newer IR version or opset, not run); {} of the \
         failures and known failures are refusals at load (unsupported)\n",
        all.total, all.passed, all.failed, all.known, all.data, all.predates, all.unsupported
    );

    let by_opset_op = tally_by(&report.trials, |t| {
        (
            t.opset.unwrap_or(i64::MAX),
            opset_label(t),
            t.op_type.clone().unwrap_or_else(|| "-".into()),
        )
    });
    let rows = by_opset_op
        .into_iter()
        .map(|((_, o, op), t)| (vec![o, op], t));
    table(
        &mut out,
        "By opset and operator",
        &["opset", "operator"],
        rows,
    );

    let by_release = tally_by(&report.trials, release_key);
    let rows = by_release.into_iter().map(|((_, _, r), t)| (vec![r], t));
    table(&mut out, "By release", &["release"], rows);

    let by_version = tally_by(&report.trials, version_key);
    let rows = by_version.into_iter().map(|((_, _, v), t)| (vec![v], t));
    table(&mut out, "By operator version", &["operator version"], rows);

    // Keyed by label, not by the enum, so that the rows stay in alphabetical order.
    let by_rule = tally_by(&report.trials, |t| t.rule.label());
    let rows = by_rule.into_iter().map(|(r, t)| (vec![r.to_string()], t));
    table(&mut out, "By comparison rule", &["rule"], rows);

    listing(&mut out, "Failures", report, |o| o.fails_run());
    listing(&mut out, "Known failures", report, |o| {
        o == Outcome::KnownFailure
    });
    listing(&mut out, "Upstream data problems", report, |o| {
        o == Outcome::DataProblem
    });
    listing(&mut out, "Cases the runtime predates", report, |o| {
        o == Outcome::Predates
    });
    out
}

/// Sort key and label of a trial's release: releases in version order, then others.
pub(super) fn release_key(t: &TrialRecord) -> (u8, Vec<u64>, String) {
    match &t.release {
        Some(r) => {
            let numbers = crate::index::release_numbers(r);
            (
                u8::from(numbers.is_none()),
                numbers.unwrap_or_default(),
                r.clone(),
            )
        }
        None => (2, Vec::new(), "(run checks)".into()),
    }
}

/// Sort key and label of a trial's operator version, as in `Cast-19`.
fn version_key(t: &TrialRecord) -> (String, u64, String) {
    match &t.op_version {
        Some(v) => (v.op().name().to_string(), v.since().into(), v.to_string()),
        None => {
            let op = t.op_type.clone().unwrap_or_else(|| "-".into());
            (op.clone(), u64::MAX, format!("{op} (unresolved)"))
        }
    }
}

fn table(
    out: &mut String,
    title: &str,
    keys: &[&str],
    rows: impl Iterator<Item = (Vec<String>, Tally)>,
) {
    let _ = writeln!(out, "## {title}\n");
    let head: Vec<&str> = keys
        .iter()
        .copied()
        .chain([
            "total",
            "passed",
            "failed",
            "known failure",
            "of which unsupported",
            "data problem",
            "predates",
        ])
        .collect();
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let rule: Vec<&str> = keys
        .iter()
        .map(|_| "---")
        .chain(["---:", "---:", "---:", "---:", "---:", "---:", "---:"])
        .collect();
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    for (key, t) in rows {
        let key: Vec<String> = key.iter().map(|k| md_cell(k)).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            key.join(" | "),
            t.total,
            t.passed,
            t.failed,
            t.known,
            t.unsupported,
            t.data,
            t.predates
        );
    }
    out.push('\n');
}

fn listing(out: &mut String, title: &str, report: &Report, pick: impl Fn(Outcome) -> bool) {
    let chosen: Vec<&TrialRecord> = report.trials.iter().filter(|t| pick(t.outcome)).collect();
    let _ = writeln!(out, "## {title} ({})\n", chosen.len());
    for t in &chosen {
        let first = t
            .message
            .as_deref()
            .and_then(|m| m.lines().next())
            .unwrap_or("");
        let _ = writeln!(
            out,
            "- `{}` ({}): {}",
            t.name,
            t.outcome.label(),
            md_cell(first)
        );
    }
    out.push('\n');
}
