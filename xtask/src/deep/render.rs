//! findings.md, findings.html and the console summary of `cargo xtask deep`.

use super::findings::{Finding, Findings};
use std::fmt::Write;

fn row(f: &Finding) -> [String; 9] {
    let versions: Vec<String> = f.op_versions.iter().map(u32::to_string).collect();
    let example = f.examples.first().map_or("-".into(), |e| {
        format!(
            "{} ({}) → want {} ({}), got {} ({})",
            e.input.bits,
            e.input.decoded,
            e.expected.bits,
            e.expected.decoded,
            e.actual.bits,
            e.actual.decoded
        )
    });
    [
        f.verdict.label().to_string(),
        format!("{}-{}", f.op, versions.join(",")),
        format!("{} → {}", f.from, f.to),
        f.attributes.join(" "),
        f.input_class.clone(),
        f.elements.to_string(),
        f.section.clone(),
        f.message.clone().map_or(example, |m| m),
        f.reproducer.clone(),
    ]
}

const HEAD: [&str; 9] = [
    "verdict",
    "operator",
    "types",
    "attributes",
    "input class",
    "elements",
    "section",
    "first example / message",
    "reproducer",
];

/// findings.md.
pub fn markdown(all: &Findings) -> String {
    let mut s = String::from("# Deep suite findings\n\n");
    let _ = writeln!(s, "Tree sha256 `{}`.\n", all.tree_sha256);
    for run in &all.runs {
        let n = all
            .findings
            .iter()
            .filter(|f| f.backend == run.backend)
            .count();
        let _ = writeln!(
            s,
            "## {} {}\n\n{} of {} trials did not pass; {n} classes.\n",
            run.backend, run.runtime_version, run.failed, run.trials
        );
        let _ = writeln!(
            s,
            "| {} |\n|{}",
            HEAD.join(" | "),
            "---|".repeat(HEAD.len())
        );
        for f in all.findings.iter().filter(|f| f.backend == run.backend) {
            let cells = row(f).map(|c| c.replace('|', "\\|"));
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        s.push('\n');
    }
    s
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// findings.html.
pub fn html(all: &Findings) -> String {
    let mut s = String::from("<!doctype html><meta charset=utf-8><title>Deep suite findings</title><style>td,th{border:1px solid #ccc;padding:2px 6px;font:13px monospace}table{border-collapse:collapse}</style><h1>Deep suite findings</h1>");
    for run in &all.runs {
        let _ = write!(
            s,
            "<h2>{} {}</h2><p>{} of {} trials did not pass.</p><table><tr>",
            esc(&run.backend),
            esc(&run.runtime_version),
            run.failed,
            run.trials
        );
        for h in HEAD {
            let _ = write!(s, "<th>{h}</th>");
        }
        s.push_str("</tr>");
        for f in all.findings.iter().filter(|f| f.backend == run.backend) {
            s.push_str("<tr>");
            for c in row(f) {
                let _ = write!(s, "<td>{}</td>", esc(&c));
            }
            s.push_str("</tr>");
        }
        s.push_str("</table>");
    }
    s
}

/// The console summary: classes and elements per backend and verdict.
pub fn summary(all: &Findings) -> String {
    let mut s = String::new();
    for run in &all.runs {
        let mine: Vec<&Finding> = all
            .findings
            .iter()
            .filter(|f| f.backend == run.backend)
            .collect();
        let _ = writeln!(
            s,
            "{} {}: {} of {} trials failed, {} classes, {} elements wrong",
            run.backend,
            run.runtime_version,
            run.failed,
            run.trials,
            mine.len(),
            mine.iter().map(|f| f.elements).sum::<usize>()
        );
        let mut verdicts = std::collections::BTreeMap::<&str, usize>::new();
        for f in &mine {
            *verdicts.entry(f.verdict.label()).or_default() += 1;
        }
        for (v, n) in verdicts {
            let _ = writeln!(s, "  {v}: {n} classes");
        }
    }
    s
}
