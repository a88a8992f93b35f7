//! The coverage tables (`cargo xtask coverage`): per operator version, which type pairs the
//! implementation supports (measured by running each through `ops::run`) and which the
//! official data, our own cases and the exhaustive format tests exercise. [`update`] writes
//! the README section between the coverage markers and `docs/coverage.md`.

mod measure;
mod render;

use crate::Error;
use measure::{Pair, VersionCoverage};
use onnx_conformance::formats::Generation;
use std::collections::BTreeSet;
use std::path::Path;
// The sweep list the kernel's format tests assert they run exactly.
use onnx_conformance::formats::sweeps::SWEEPS;
use vocab::{DataType, TypeKind};
use vocab::{OpKind, VERSIONS};

const START: &str = "<!-- coverage:start -->";
const END: &str = "<!-- coverage:end -->";
/// What [`update`] found.
#[derive(Debug)]
pub struct Update {
    /// The files (relative to the workspace) that differed from the tables: written, unless
    /// checking.
    pub stale: Vec<String>,
    /// The pairs a version allows that `ops::run` fails, each with its error, as a sentence.
    pub rejected: Vec<String>,
}

/// Recomputes the tables from the complete official run recorded in `report` and rewrites the
/// README section between the coverage markers and `docs/coverage.md` under the workspace
/// `root`, or with `check` only compares them. Nothing is written when the report is not of a
/// complete official run of the native implementation.
pub fn update(root: &Path, report: &Path, check: bool) -> Result<Update, Error> {
    let coverage = collect(report)?;
    let files = [
        ("README.md", readme(root, &coverage)?),
        ("docs/coverage.md", render::details(&coverage)),
    ];
    let stale = write_or_check(root, &files, check)?;
    let mut rejected = Vec::new();
    for v in coverage.iter().filter(|v| !v.rejected.is_empty()) {
        for (pair, error) in &v.rejected {
            rejected.push(format!(
                "{} allows {} but ops::run fails: {error}",
                v.version(),
                pair_name(*pair)
            ));
        }
    }
    Ok(Update { stale, rejected })
}

/// Writes each file (relative to `root`) whose content differs, unless `check`; returns the
/// names that differed.
fn write_or_check(
    root: &Path,
    files: &[(&str, String)],
    check: bool,
) -> Result<Vec<String>, Error> {
    let mut stale = Vec::new();
    for (name, text) in files {
        let path = root.join(name);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if old == *text {
            continue;
        }
        stale.push((*name).to_owned());
        if !check {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(stale)
}

/// The README with the section between the markers replaced by the summary table.
fn readme(root: &Path, coverage: &[VersionCoverage]) -> Result<String, Error> {
    let path = root.join("README.md");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    splice(&text, &render::summary(coverage))
        .ok_or_else(|| format!("{}: no `{START}` ... `{END}` markers", path.display()).into())
}

/// `text` with everything between the start and end markers replaced by `section`.
fn splice(text: &str, section: &str) -> Option<String> {
    let start = text.find(START)? + START.len();
    let end = start + text[start..].find(END)?;
    Some(format!("{}\n{section}{}", &text[..start], &text[end..]))
}

/// Everything the tables show, one entry per row of the version table.
fn collect(report: &Path) -> Result<Vec<VersionCoverage>, Error> {
    let loaded = harness::report::load(report).map_err(|e| {
        format!("{e}\nrun `cargo test --test onnx_backend` first, or pass --report FILE")
    })?;
    complete_official(&loaded).map_err(|why| format!("{}: {why}", report.display()))?;
    let report = loaded;
    let exercised = measure::exercised(&report.trials);
    Ok(VERSIONS
        .iter()
        .map(|spec| {
            let mut v = measure::support(spec);
            if let Some(e) = exercised.get(&spec.version()) {
                v.official = e.official.clone();
                v.own = e.own.clone();
            }
            v.exhaustive = exhaustive(spec.version().op(), spec.version().since(), &v.allowed);
            v
        })
        .collect())
}

/// How to make a run that the coverage tables may count.
const COMPLETE_RUN: &str = "make a complete run first: `cargo xtask fetch-tests && cargo test \
     --test onnx_backend` with no filter after `--` and without ONNX_BACKEND_DATA, then run \
     `cargo xtask coverage` again";

/// `Ok` when `report` is of a complete run of the official data; the tables would be wrong
/// after a filtered run, a run of another tree, or one whose setup checks failed.
fn complete_official(report: &harness::report::Report) -> Result<(), String> {
    // The tables describe this repository's implementation: another backend's run says
    // nothing about it. (Reports from before backends existed name none: native.)
    let backend = report.backend.name.as_str();
    if !backend.is_empty() && backend != "native" {
        return Err(format!(
            "a run of backend {backend}, not of the native implementation; {COMPLETE_RUN}"
        ));
    }
    match &report.run {
        // A deep tree's run is never the official data, whatever else it records.
        Some(run) if run.source == harness::report::Source::Deep => Err(format!(
            "a run of the deep tree, not of the official data ({}); {COMPLETE_RUN}",
            run.summary()
        )),
        Some(run) if run.complete => Ok(()),
        Some(run) => Err(format!(
            "not a complete run of the official data ({}); {COMPLETE_RUN}",
            run.summary()
        )),
        None => Err(format!(
            "written by an older harness, which did not record how the run was made; \
             {COMPLETE_RUN}"
        )),
    }
}

/// The allowed pairs some exhaustive format sweep checks under the version's Cast generation.
fn exhaustive(op: OpKind, since: u32, allowed: &BTreeSet<Pair>) -> BTreeSet<Pair> {
    if op == OpKind::Concat {
        return BTreeSet::new();
    }
    let generation = Generation::of_version(since);
    allowed
        .iter()
        .filter(|&&pair| swept(pair, generation))
        .copied()
        .collect()
}

/// Whether some exhaustive sweep checks `pair` under `generation`.
fn swept(pair: Pair, generation: Generation) -> bool {
    SWEEPS
        .iter()
        .any(|s| s.generations.contains(&generation) && s.pairs().any(|p| p == pair))
}

/// "FLOAT -> FLOAT16", or just the type for Concat's one-type "pairs".
fn pair_name((s, t): Pair) -> String {
    if s == t {
        s.name().to_owned()
    } else {
        format!("{s} -> {t}")
    }
}

/// Every data type in the order the matrices list them: floating types, signed, unsigned,
/// bool, string, complex (the kind column of the type table), wider types first, then by code.
fn matrix_order() -> Vec<DataType> {
    let group = |t: DataType| match t.kind() {
        TypeKind::Float | TypeKind::PowerOfTwo => 0,
        TypeKind::Signed => 1,
        TypeKind::Unsigned => 2,
        TypeKind::Bool => 3,
        TypeKind::String => 4,
        TypeKind::Complex => 5,
    };
    let mut types = DataType::ALL.to_vec();
    types.sort_by_key(|&t| (group(t), std::cmp::Reverse(t.bit_width()), t.code()));
    types
}

#[cfg(test)]
mod tests;
