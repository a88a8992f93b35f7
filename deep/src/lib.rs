//! The deep suite as a library: its tree ([`write`]), the check that the tree on disk is the
//! one its index describes ([`integrity`]), the findings of a run of it ([`runs`],
//! [`findings`]), and its answers as plain-text test vectors ([`vectors`]).
//!
//! The tree: Every allowed (source, target) pair of every
//! Cast and CastLike version with every attribute combination that changes a result, over the
//! values where runtimes go wrong, plus the case shapes the official data lacks and Concat's
//! shapes (docs/deep.md). Expected outputs come from our implementation; the tree judges other
//! runtimes and never counts as a test of ours.
//!
//! Layout: `<out>/cases/<case>/{model.onnx, test_data_set_0/{input,output}_K.pb}` and
//! `<out>/index.json` ([`index::Index`]). The tree reaches a harness run as a neutral indexed
//! source ([`source()`], [`indexed_source`]), checked against the [`fingerprint`] of the
//! sources that write it.

pub mod error;
pub mod findings;
mod generate;
// Read by build.rs, which hashes the files it names; here only for the tests.
#[cfg(test)]
mod generator_files;
pub mod index;
pub mod integrity;
pub mod names;
pub mod runs;
mod source;
#[cfg(test)]
mod testkit;
pub mod vectors;

pub use error::Error;
use index::{CaseEntry, Index, CASES_DIR};
use schema::hash::{sha256_hex, Hasher};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use source::{fingerprint, indexed_source, is_current, source, SOURCES};

/// The lock of a tree's directory, which [`write`] and [`findings::publish`] take as proof that
/// the caller holds it, and what a second taker does; re-exported, so that a runtime of another
/// repository takes it without naming another crate.
pub use schema::files::{DirLock, WhenBusy};

/// What [`write`] wrote.
#[derive(Debug)]
pub struct Summary {
    /// Case directories.
    pub cases: usize,
    /// Files, the index included.
    pub files: usize,
    /// Bytes of every file.
    pub bytes: u64,
    /// The content hash the index records.
    pub content_sha256: String,
}

/// A case's index entry, its files and each file's sha256.
type Written = (CaseEntry, generate::model::Files, Vec<String>);

/// Every case's index entry and files, in name order, built on all available threads.
fn generate() -> Result<Vec<Written>, String> {
    let plans = generate::plan::plans();
    // The cases are spread over threads here; a kernel call need not split its tensor too.
    onnx_conformance::tuning::set_threads(1);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Interleaved, so that the large cases spread over the threads.
    let results: Vec<Vec<(usize, Result<Written, String>)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let plans = &plans;
                s.spawn(move || {
                    plans
                        .iter()
                        .enumerate()
                        .skip(t)
                        .step_by(threads)
                        .map(|(i, (name, plan))| {
                            let (entry, graph) = generate::plan::build(name, plan);
                            (
                                i,
                                generate::model::files(name, &graph).map(|f| hashed(entry, f)),
                            )
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a generator thread panicked"))
            .collect()
    });
    let mut all: Vec<_> = results.into_iter().flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

/// A case with the sha256 of each of its files, which the index records for the integrity
/// check (hashed here, on the generator's threads).
fn hashed(entry: CaseEntry, files: generate::model::Files) -> Written {
    let hashes = files.iter().map(|(_, data)| sha256_hex(data)).collect();
    (entry, files, hashes)
}

/// The checkout this crate sits in, whose docs/semantics.md the findings link
/// ([`findings::publish`]).
pub fn sources_root() -> PathBuf {
    let deep = Path::new(env!("CARGO_MANIFEST_DIR"));
    deep.parent().unwrap_or(deep).to_path_buf()
}

/// Writes the tree in the directory `lock` holds, replacing the cases and index there (and
/// nothing else). The lock (`cargo xtask deep-cases` and `deep` take the same one) keeps a
/// second writer, and a findings run reading the tree, out until the tree is whole.
pub fn write(lock: &DirLock) -> Result<Summary, Error> {
    let fingerprint = fingerprint();
    let generated = generate()?;
    store(lock.dir(), fingerprint, generated)
}

/// Writes `generated` as the tree under `out`, its index recording `fingerprint`.
fn store(out: &Path, fingerprint: String, generated: Vec<Written>) -> Result<Summary, Error> {
    let cases_dir = out.join(CASES_DIR);
    // Index first out: a run during the rewrite finds no tree rather than a mixed one, and a
    // writer killed half way leaves none (the index goes back in last, whole).
    let index_path = out.join(index::INDEX_FILE);
    if index_path.exists() {
        std::fs::remove_file(&index_path)
            .map_err(|e| format!("cannot remove {}: {e}", index_path.display()))?;
    }
    remove_extra(&cases_dir, &generated)?;
    let mut hash = Hasher::default();
    let (mut files, mut bytes) = (0usize, 0u64);
    let mut entries = Vec::new();
    let mut file_hashes = BTreeMap::new();
    for (entry, case_files, hashes) in generated {
        for ((rel, data), sha) in case_files.iter().zip(hashes) {
            let rel = format!("{}/{rel}", entry.case);
            hash.update(rel.as_bytes());
            hash.update(&(data.len() as u64).to_le_bytes());
            hash.update(data);
            let path = cases_dir.join(&rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            }
            // Unchanged files stay: rewriting ~30k files costs far more than reading them.
            if std::fs::read(&path).ok().as_deref() != Some(data.as_slice()) {
                // Aside and renamed: a killed writer leaves no file cut short.
                schema::files::replace(&path, data).map_err(|e| e.to_string())?;
            }
            files += 1;
            bytes += data.len() as u64;
            file_hashes.insert(rel, sha);
        }
        entries.push(entry);
    }
    let index = Index {
        format: index::FORMAT,
        fingerprint,
        content_sha256: hash.finish(),
        cases: entries,
        files: file_hashes,
    };
    let text = serde_json::to_string_pretty(&index)? + "\n";
    schema::files::write_atomic(&index_path, text.as_bytes())?;
    Ok(Summary {
        cases: index.cases.len(),
        files: files + 1,
        bytes: bytes + text.len() as u64,
        content_sha256: index.content_sha256,
    })
}

/// Removes what under `cases_dir` no case of `generated` writes: stale case directories and
/// stray files, so that the tree holds exactly the generated files.
fn remove_extra(cases_dir: &Path, generated: &[Written]) -> Result<(), Error> {
    if !cases_dir.exists() {
        return Ok(());
    }
    let mut keep = std::collections::BTreeSet::new();
    for (entry, files, _) in generated {
        for (rel, _) in files {
            let mut path = format!("{}/{rel}", entry.case);
            keep.insert(path.clone());
            while let Some((dir, _)) = path.rsplit_once('/') {
                path = dir.to_string();
                keep.insert(path.clone());
            }
        }
    }
    let mut walk = walkdir::WalkDir::new(cases_dir).min_depth(1).into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", cases_dir.display()))?;
        let rel = entry.path().strip_prefix(cases_dir).unwrap_or(entry.path());
        let rel = rel.to_string_lossy().replace('\\', "/");
        if keep.contains(&rel) {
            continue;
        }
        let path = entry.path();
        let removed = match entry.file_type().is_dir() {
            true => {
                walk.skip_current_dir();
                std::fs::remove_dir_all(path)
            }
            false => std::fs::remove_file(path),
        };
        removed.map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
