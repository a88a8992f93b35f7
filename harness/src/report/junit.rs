//! `report.junit.xml`: the run in the JUnit XML form that CI services read (GitLab, Jenkins,
//! GitHub test-report actions). One `<testcase>` per trial: its class is the trial name up to
//! the case (`onnx-1.22.0/opset25`, a release and model opset), its name the case. A failure is a
//! `<failure>` typed by its failure kind, an unexpected pass a `<failure type="unexpected-pass">`,
//! a known failure `<skipped>` with its reason; the whole message is the element's text.
//!
//! Messages can carry any text a runtime printed, so everything written goes through
//! [`text`] or [`attr`], which escape markup and replace the characters XML 1.0 forbids.

use super::{Report, Tally, TrialRecord};
use crate::outcome::Outcome;
use std::fmt::Write;

/// The class of a setup check (a trial without a release).
pub const SETUP_CLASS: &str = "setup";

/// The `type` of the failure that stands for an unexpected pass.
pub const UNEXPECTED_PASS: &str = "unexpected-pass";

/// The longest `message` attribute, in characters; the element's text holds the whole message.
const MESSAGE_ATTR_CHARS: usize = 300;

/// `report` as a JUnit XML document.
pub fn render(report: &Report) -> String {
    let mut all = Tally::default();
    for t in &report.trials {
        all.add(t);
    }
    let seconds: f64 = report.trials.iter().map(|t| t.duration_ms).sum::<f64>() / 1e3;
    let b = &report.backend;
    let suite = format!("onnx-conformance {}", b.name);
    let counts = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{seconds:.3}\"",
        all.total,
        all.failed,
        all.known + all.data + all.predates
    );
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"{}\" {counts}>", attr(&suite));
    let _ = writeln!(out, "  <testsuite name=\"{}\" {counts}>", attr(&suite));
    out.push_str("    <properties>\n");
    for (name, value) in properties(report) {
        let _ = writeln!(
            out,
            "      <property name=\"{}\" value=\"{}\"/>",
            attr(name),
            attr(&value)
        );
    }
    out.push_str("    </properties>\n");
    for t in &report.trials {
        testcase(&mut out, t);
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// The run's facts a CI page shows beside the cases: the backend, the data lock, how the run
/// was made.
fn properties(report: &Report) -> Vec<(&'static str, String)> {
    let b = &report.backend;
    let mut props = vec![
        ("backend.name", b.name.clone()),
        ("backend.runtime", b.runtime.clone()),
        ("backend.version", b.version.clone()),
        ("strict", report.strict.to_string()),
    ];
    let run = report.run.as_ref();
    let lock = run.and_then(|r| r.data_lock_sha256.clone());
    props.push(("data_lock_sha256", lock.unwrap_or_else(|| "none".into())));
    if let Some(run) = run {
        props.push(("started", run.started.clone()));
        props.push((
            "commit",
            run.commit.clone().unwrap_or_else(|| "none".into()),
        ));
        props.push(("complete", run.complete.to_string()));
    }
    props
}

/// The class and name of a trial's testcase: `onnx-1.22.0/opset25` and the case for a case
/// trial, [`SETUP_CLASS`] and the trial name for a setup check.
pub fn class_and_name(t: &TrialRecord) -> (String, String) {
    match (&t.release, t.name.rsplit_once('/')) {
        (Some(_), Some((class, case))) => (class.to_string(), case.to_string()),
        _ => (SETUP_CLASS.to_string(), t.name.clone()),
    }
}

fn testcase(out: &mut String, t: &TrialRecord) {
    let (class, name) = class_and_name(t);
    let _ = write!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6}\"",
        attr(&class),
        attr(&name),
        t.duration_ms / 1e3
    );
    let message = t.message.as_deref().unwrap_or("");
    let kind = t.failure_kind.map_or("fail", |k| k.label());
    let (element, kind) = match t.outcome {
        Outcome::Pass => {
            out.push_str("/>\n");
            return;
        }
        Outcome::Fail => ("failure", Some(kind)),
        Outcome::UnexpectedPass => ("failure", Some(UNEXPECTED_PASS)),
        Outcome::KnownFailure | Outcome::DataProblem | Outcome::Predates => ("skipped", None),
    };
    let _ = write!(
        out,
        ">\n      <{element} message=\"{}\"",
        attr(&headline(message))
    );
    if let Some(kind) = kind {
        let _ = write!(out, " type=\"{}\"", attr(kind));
    }
    let _ = writeln!(out, ">{}</{element}>\n    </testcase>", text(message));
}

/// The first line of `message`, cut to [`MESSAGE_ATTR_CHARS`] characters.
fn headline(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    match first.char_indices().nth(MESSAGE_ATTR_CHARS) {
        Some((cut, _)) => format!("{}…", &first[..cut]),
        None => first.to_string(),
    }
}

/// `s` as character data: markup escaped, carriage returns kept (a parser would turn a bare one
/// into a line feed), forbidden characters replaced.
pub fn text(s: &str) -> String {
    escape(s, false)
}

/// `s` as an attribute value in double quotes: markup and double quotes escaped (an apostrophe
/// is plain data there), tabs and line breaks as character references (a parser would normalise
/// them to spaces), forbidden characters replaced.
pub fn attr(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, in_attr: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if in_attr => out.push_str("&quot;"),
            '\t' if in_attr => out.push_str("&#9;"),
            '\n' if in_attr => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if !xml_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether XML 1.0 allows `c` in a document (its `Char` production). A Rust `char` is never a
/// surrogate, so what remains to refuse is the C0 controls other than tab, line feed and
/// carriage return, and U+FFFE and U+FFFF.
pub fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

#[cfg(test)]
mod tests;
