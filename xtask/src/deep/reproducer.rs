//! The reproducers of `cargo xtask deep` (docs/deep.md): where each finding's goes, and the
//! README.md and run.py beside every model. A class whose elements differ gets its own; the
//! classes a runtime refused share one per (backend, verdict, type), the type being the one of
//! their source and target that more of the backend's refusals of that verdict name.

use super::findings::{self, Finding, Verdict};
use super::render::{self, Links};
use harness::deep::CaseEntry;
use std::collections::BTreeMap;
use std::error::Error;
use std::fmt::Write;
use std::path::Path;

/// The script every reproducer holds: runs the model and prints each element.
pub const RUN_PY: &str = include_str!("reproducer/run.py");

/// One reproducer directory and the findings it serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Its path below the findings directory: `<backend>/<name>`.
    pub rel: String,
    /// The finding whose case and examples it is cut from.
    pub source: usize,
    /// Every finding it serves (the source first).
    pub members: Vec<usize>,
    /// For a shared refusal reproducer, the type the refusals are blamed on.
    pub refused_type: Option<String>,
}

/// Whether a finding is a case the runtime did not run.
pub fn is_refusal(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::Unsupported | Verdict::Error | Verdict::Crash | Verdict::Timeout
    )
}

fn clean(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '-',
        })
        .collect()
}

/// Cases of the tree per type, as source or target (a type counts once per case).
pub fn cases_per_type<'a>(
    cases: impl IntoIterator<Item = &'a CaseEntry>,
) -> BTreeMap<String, usize> {
    let mut n: BTreeMap<String, usize> = BTreeMap::new();
    for c in cases {
        *n.entry(c.from.clone()).or_default() += 1;
        if c.to != c.from {
            *n.entry(c.to.clone()).or_default() += 1;
        }
    }
    n
}

/// The type each refusal is blamed on: of its source and target, the one with the larger
/// share of its cases (`per_type`) refused by the backend with that verdict (the target on a
/// tie). FLOAT4E2M1, refused everywhere, is blamed rather than FLOAT, refused in a few pairs.
fn blamed_types(
    findings: &[Finding],
    per_type: &BTreeMap<String, usize>,
) -> BTreeMap<usize, String> {
    let mut refused: BTreeMap<(&str, Verdict, &str), usize> = BTreeMap::new();
    for f in findings.iter().filter(|f| is_refusal(f.verdict)) {
        let types: &[&str] = if f.from == f.to {
            &[&f.from]
        } else {
            &[&f.from, &f.to]
        };
        for t in types {
            *refused.entry((&f.backend, f.verdict, t)).or_default() += f.cases.len();
        }
    }
    let share = |f: &Finding, t: &str| {
        let n = refused
            .get(&(f.backend.as_str(), f.verdict, t))
            .copied()
            .unwrap_or(0);
        // Without the tree's count, the refusals alone; a share never exceeds 1.
        let of = per_type.get(t).copied().unwrap_or(n).max(n).max(1);
        n as f64 / of as f64
    };
    findings
        .iter()
        .enumerate()
        .filter(|(_, f)| is_refusal(f.verdict))
        .map(|(i, f)| {
            let t = if share(f, &f.from) > share(f, &f.to) {
                &f.from
            } else {
                &f.to
            };
            (i, t.clone())
        })
        .collect()
}

/// Where every finding's reproducer goes: one per class that ran, named by its case and
/// input class (numbered when two classes of a case share an input class); one per
/// (backend, verdict, blamed type) for refusals, `<backend>/<verdict>__<TYPE>`. `per_type`
/// counts the tree's cases per type ([`cases_per_type`]).
pub fn plan(findings: &[Finding], per_type: &BTreeMap<String, usize>) -> Vec<Planned> {
    let blamed = blamed_types(findings, per_type);
    let mut out: Vec<Planned> = Vec::new();
    let mut shared: BTreeMap<String, usize> = BTreeMap::new();
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if f.reproducer.is_empty() {
            continue;
        }
        if let Some(t) = blamed.get(&i) {
            let rel = format!("{}/{}__{}", f.backend, f.verdict.label(), clean(t));
            match shared.get(&rel) {
                Some(&k) => out[k].members.push(i),
                None => {
                    shared.insert(rel.clone(), out.len());
                    out.push(Planned {
                        rel,
                        source: i,
                        members: vec![i],
                        refused_type: Some(t.clone()),
                    });
                }
            }
            continue;
        }
        let base = format!(
            "{}/{}__{}",
            f.backend,
            clean(&f.reproducer),
            clean(&f.input_class)
        );
        let n = taken.entry(base.clone()).or_default();
        *n += 1;
        let rel = match *n {
            1 => base,
            k => format!("{base}-{k}"),
        };
        out.push(Planned {
            rel,
            source: i,
            members: vec![i],
            refused_type: None,
        });
    }
    out
}

/// Writes every reproducer under `findings_dir`, each with run.py and README.md, and sets
/// each finding's `reproducer` to its directory. On entry a finding's `reproducer` names the
/// case its examples came from.
pub fn write_all(
    findings_dir: &Path,
    cases_dir: &Path,
    by_case: &BTreeMap<&str, &CaseEntry>,
    findings: &mut [Finding],
    links: &Links,
) -> Result<(), Box<dyn Error>> {
    let planned = plan(findings, &cases_per_type(by_case.values().copied()));
    for p in &planned {
        let src = &findings[p.source];
        let entry = by_case
            .get(src.reproducer.as_str())
            .ok_or_else(|| format!("finding of case {:?}: no such case", src.reproducer))?;
        findings::reproducer(
            findings_dir,
            &p.rel,
            &cases_dir.join(&entry.case),
            entry,
            &src.examples,
        )?;
        let dir = findings_dir.join(&p.rel);
        std::fs::write(dir.join("run.py"), RUN_PY)?;
        let members: Vec<&Finding> = p.members.iter().map(|&i| &findings[i]).collect();
        std::fs::write(dir.join("README.md"), readme(p, &members, links))?;
    }
    for p in planned {
        for i in p.members {
            findings[i].reproducer = p.rel.clone();
        }
    }
    Ok(())
}

/// The README.md of a reproducer: what the finding is, its elements, how to run it.
pub fn readme(p: &Planned, members: &[&Finding], links: &Links) -> String {
    let Some(first) = members.first() else {
        return String::new();
    };
    // The README sits two levels below the findings directory.
    let depth = 2;
    let mut s = String::new();
    match &p.refused_type {
        Some(t) => {
            let _ = writeln!(
                s,
                "# {} {}: {} {t}\n",
                first.backend,
                first.runtime_version,
                refusal_phrase(first.verdict)
            );
            let _ = writeln!(
                s,
                "Verdict **{}**: the runtime did not run these cases; no element was \
                 compared. {} class(es) share this reproducer, cut from case `{}`:\n",
                first.verdict.label(),
                members.len(),
                first.cases.first().map_or("", String::as_str)
            );
            for f in members {
                let _ = writeln!(
                    s,
                    "- {} {}: {}",
                    render::versions(f),
                    render::md_text(&format!("{} → {}", f.from, f.to)),
                    render::md_text(f.message.as_deref().unwrap_or("-"))
                );
            }
            s.push('\n');
        }
        None => {
            let _ = writeln!(
                s,
                "# {} {}: {} {} → {}, input class `{}`\n",
                first.backend,
                first.runtime_version,
                render::versions(first),
                first.from,
                first.to,
                first.input_class
            );
            let _ = writeln!(s, "{}\n", render::finding_md(first, links, depth));
            if first.examples.is_empty() {
                let _ = writeln!(
                    s,
                    "{}\n",
                    render::md_text(first.message.as_deref().unwrap_or(""))
                );
            } else {
                s.push_str("| element here | element of the case | input | expected | actual |\n");
                s.push_str("|---:|---:|---|---|---|\n");
                for (k, e) in first.examples.iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "| {k} | {} | {} | {} | {} |",
                        e.index,
                        render::value_md(&e.input),
                        render::value_md(&e.expected),
                        render::value_md(&e.actual)
                    );
                }
                s.push('\n');
            }
            let _ = writeln!(
                s,
                "{} element(s) differ over {} case(s): {}.\n",
                first.elements,
                first.cases.len(),
                render::md_text(&first.cases.join(", "))
            );
        }
    }
    s.push_str(
        "## Run it\n\n```sh\npython run.py                        # onnxruntime if importable, \
         else onnx.reference\npython run.py --runtime reference\n```\n\nrun.py needs onnx and \
         numpy. It loads `model.onnx` and `test_data_set_0/` (inputs, and `output_0.pb`, the \
         expected output) and prints each element's input, expected and actual value as bits \
         and decoded, marking those that differ.\n",
    );
    s
}

/// How a refusal reads in a title.
fn refusal_phrase(v: Verdict) -> &'static str {
    match v {
        Verdict::Unsupported => "refuses",
        Verdict::Crash => "crashes on",
        Verdict::Timeout => "times out on",
        _ => "fails on",
    }
}

#[cfg(test)]
mod tests;
