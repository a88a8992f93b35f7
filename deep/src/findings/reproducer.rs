//! The reproducers of the deep findings (docs/deep.md): where each finding's goes, and the
//! README.md and run.py beside every model. A class whose elements differ gets its own; the
//! classes a runtime refused share one per (backend, verdict, type), the type being the one of
//! their source and target (or their operator version) of which the backend refused the
//! largest share.

use super::finding::{Example, Finding, Verdict};
use super::render::{self, Links};
use crate::index::{CaseEntry, CaseShape};
use crate::Error;
use harness::read::{tensor_codes, tensor_from_codes};
use harness::report::page::md_text;
use schema::layout;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;
use vocab::{Storage, Tensor};

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
    /// For a shared refusal reproducer, the type or operator version the refusals are blamed
    /// on.
    pub refused_type: Option<String>,
}

fn clean(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '-',
        })
        .collect()
}

/// What a refused case can be blamed on: its source type, its target type, or its operator
/// version (`Cast-1`).
fn blame_keys(c: &CaseEntry) -> Vec<String> {
    let mut keys = vec![c.from.name().to_string()];
    if c.to != c.from {
        keys.push(c.to.name().to_string());
    }
    keys.push(format!("{}-{}", c.op, c.version));
    keys
}

/// What each refusal is blamed on: of its source type, its target type and (for a class of
/// one version) its operator version, the one with the largest share of the tree's cases
/// (`tree`) that the backend refused with that verdict; the target, then the source, on a
/// tie. FLOAT4E2M1, refused everywhere, is blamed rather than FLOAT, refused in a few pairs;
/// Cast-1, refused for every pair, rather than any type.
fn blamed(findings: &[Finding], tree: &BTreeMap<&str, &CaseEntry>) -> BTreeMap<usize, String> {
    let mut total: BTreeMap<String, usize> = BTreeMap::new();
    for c in tree.values() {
        for k in blame_keys(c) {
            *total.entry(k).or_default() += 1;
        }
    }
    let mut refused: BTreeMap<(&str, Verdict, String), usize> = BTreeMap::new();
    for f in findings.iter().filter(|f| f.verdict.is_refusal()) {
        for c in f.cases.iter().filter_map(|c| tree.get(c.as_str())) {
            for k in blame_keys(c) {
                *refused.entry((&f.backend, f.verdict, k)).or_default() += 1;
            }
        }
    }
    let share = |f: &Finding, k: &str| {
        let n = refused
            .get(&(f.backend.as_str(), f.verdict, k.to_string()))
            .copied()
            .unwrap_or(0);
        n as f64 / total.get(k).copied().unwrap_or(0).max(n).max(1) as f64
    };
    findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.verdict.is_refusal())
        .map(|(i, f)| {
            let mut keys = vec![f.to.name().to_string(), f.from.name().to_string()];
            if let [v] = f.op_versions.as_slice() {
                keys.push(format!("{}-{v}", f.op));
            }
            let mut best = keys[0].clone();
            for k in &keys[1..] {
                if share(f, k) > share(f, &best) {
                    best = k.clone();
                }
            }
            (i, best)
        })
        .collect()
}

/// Where every finding's reproducer goes: one per class that ran, named by its case and
/// input class (numbered when two classes of a case share an input class); one per
/// (backend, verdict, and the type or operator version they are blamed on) for refusals,
/// `<backend>/<verdict>__<TYPE or Op-version>`. `tree` is the tree's index, by case.
pub fn plan(findings: &[Finding], tree: &BTreeMap<&str, &CaseEntry>) -> Vec<Planned> {
    let blamed = blamed(findings, tree);
    let mut out: Vec<Planned> = Vec::new();
    let mut shared: BTreeMap<String, usize> = BTreeMap::new();
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if f.source_case.is_empty() {
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
            clean(&f.source_case),
            clean(&f.input_class.to_string())
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
/// each finding's `reproducer` to its directory, each cut from its finding's `source_case`.
pub fn write_all(
    findings_dir: &Path,
    cases_dir: &Path,
    by_case: &BTreeMap<&str, &CaseEntry>,
    findings: &mut [Finding],
    links: &Links,
) -> Result<(), Error> {
    let planned = plan(findings, by_case);
    for p in &planned {
        let src = &findings[p.source];
        let entry = by_case
            .get(src.source_case.as_str())
            .ok_or_else(|| format!("finding of case {:?}: no such case", src.source_case))?;
        write_one(
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
    // The README sits three levels below the directory of findings.html:
    // findings/<backend>/<name>/.
    let depth = 3;
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
                    md_text(&format!("{} → {}", f.from, f.to)),
                    md_text(f.message.as_deref().unwrap_or("-"))
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
            // No link to the reproducer: it is this directory.
            let here = Finding {
                reproducer: String::new(),
                ..(*first).clone()
            };
            let _ = writeln!(s, "{}\n", render::finding_md(&here, links, depth));
            if let Some(d) = &first.diagnosis {
                let _ = writeln!(
                    s,
                    "**Diagnosis** (`{}`): {}. Our implementation, made to behave so, gives \
                     the runtime's bits for every element of the class.\n",
                    d.behaviour.label(),
                    md_text(&d.text)
                );
            }
            if first.examples.is_empty() {
                let _ = writeln!(s, "{}\n", md_text(first.message.as_deref().unwrap_or("")));
            } else {
                s.push_str("| element here | element of the case | input | expected | actual |\n");
                s.push_str("|---:|---:|---|---|---|\n");
                for (k, e) in first.examples.iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "| {k} | {} | {}{} | {} | {} |",
                        e.index,
                        e.source
                            .as_deref()
                            .map_or(String::new(), |s| format!("`{s}` ")),
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
                md_text(&first.cases.join(", "))
            );
        }
    }
    s.push_str(
        "## Run it\n\n```sh\npython run.py                        # onnxruntime if importable, \
         else onnx.reference\npython run.py --runtime reference\n```\n\nrun.py needs onnx and \
         numpy (in a checkout of onnx-conformance, `target/backends/venv/bin/python` has both). It \
         loads `model.onnx` and `test_data_set_0/` (inputs, and `output_0.pb`, the expected \
         output) and prints each element's input, expected and actual value as bits and decoded, \
         marking those that differ. It runs onnxruntime or onnx's reference only; to run this \
         directory on another runtime through its worker, from the onnx-conformance checkout:\n\n\
         ```sh\nONNX_CONFORMANCE_STRICT=1 ONNX_BACKEND_DATA=<this directory> \
         ONNX_CONFORMANCE_BACKEND='worker:<label>=<command>' cargo test --test onnx_backend -- custom/\n```\n",
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

/// Elements a case that did not run keeps in its reproducer, at most.
pub(super) const REFUSED_ELEMENTS: usize = 8;

/// The elements of a `values` case of `len` elements that its reproducer keeps: the
/// examples' elements; for a case that did not run (no examples), the first element of each
/// input class, at most [`REFUSED_ELEMENTS`], or the first element when no class is known.
pub(super) fn reproducer_elements(
    entry: &CaseEntry,
    examples: &[Example],
    len: usize,
) -> Vec<usize> {
    if !examples.is_empty() {
        return examples.iter().map(|e| e.index).collect();
    }
    let mut idx: Vec<usize> = Vec::new();
    for r in &entry.classes {
        if r.start < r.end && r.start < len && !idx.contains(&r.start) {
            idx.push(r.start);
        }
    }
    idx.truncate(REFUSED_ELEMENTS);
    if idx.is_empty() && len > 0 {
        idx.push(0);
    }
    idx
}

/// Writes the reproducer of a class: the case's model with a few input elements only (the
/// examples', or a few for a case that did not run; the whole case when its shape is not
/// `values`), one data set, under
/// `findings_dir/<rel>` (`rel` is `<label>/<name>`, chosen by [`write_all`]).
fn write_one(
    findings_dir: &Path,
    rel: &str,
    dir: &Path,
    entry: &CaseEntry,
    examples: &[Example],
) -> Result<(), Error> {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_string();
    let out = findings_dir.join(rel);
    let set = layout::data_set(&out, 0);
    std::fs::create_dir_all(&set)?;
    let model_bytes = std::fs::read(layout::model(dir))?;
    let case = harness::read::load_case(dir)?;
    let ds = &case.data_sets[0];
    let fed = ds
        .inputs
        .first()
        .filter(|t| entry.shape == CaseShape::Values && !t.is_empty());
    let Some(input) = fed else {
        // Copy the (small) case as it is.
        for entry in walkdir::WalkDir::new(dir).min_depth(1) {
            let entry = entry?;
            let to = out.join(entry.path().strip_prefix(dir)?);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to)?;
            } else {
                std::fs::copy(entry.path(), &to)?;
            }
        }
        return Ok(());
    };
    let idx = reproducer_elements(entry, examples, input.len());
    let pick = |t: &Tensor| -> Result<Tensor, Error> {
        Ok(match t.storage() {
            Storage::String(v) => Tensor::from_vec(
                vec![idx.len()],
                idx.iter().map(|&i| v[i].clone()).collect::<Vec<_>>(),
            )?,
            _ => {
                let c = tensor_codes(t).unwrap_or_default();
                tensor_from_codes(
                    t.dtype(),
                    vec![idx.len()],
                    &idx.iter().map(|&i| c[i]).collect::<Vec<_>>(),
                )?
            }
        })
    };
    use prost::Message;
    let mut mp = harness::proto::ModelProto::decode(model_bytes.as_slice())?;
    let n = idx.len() as i64;
    if let Some(g) = mp.graph.as_mut() {
        g.name = name.clone();
        for vi in [g.input.first_mut(), g.output.first_mut()]
            .into_iter()
            .flatten()
        {
            if let Some(shape) = vi
                .r#type
                .as_mut()
                .and_then(|t| t.tensor_type.as_mut())
                .and_then(|t| t.shape.as_mut())
            {
                for d in &mut shape.dim {
                    d.dim_value = Some(n);
                }
            }
        }
    }
    std::fs::write(layout::model(&out), mp.encode_to_vec())?;
    let names: Vec<String> = mp
        .graph
        .iter()
        .flat_map(|g| g.input.iter().map(|v| v.name.clone()))
        .collect();
    for (k, t) in ds.inputs.iter().enumerate() {
        let t = if k == 0 { pick(input)? } else { t.clone() };
        let tp = harness::write::tensor_proto(names.get(k).map_or("input", |s| s), &t);
        std::fs::write(layout::input(&set, k), tp.encode_to_vec())?;
    }
    let expected = pick(&ds.outputs[0])?;
    let tp = harness::write::tensor_proto("output", &expected);
    std::fs::write(layout::output(&set, 0), tp.encode_to_vec())?;
    Ok(())
}

#[cfg(test)]
mod tests;
