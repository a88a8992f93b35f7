//! The tree as the cases of a harness run: the fingerprint of the sources that write it, and
//! the neutral indexed source the harness runs (`harness::source::IndexedTree`), listed from the
//! index here, or a failing guard when the tree is missing, unreadable or stale.
//!
//! The fingerprint is taken when the crates are built, not read from a checkout: each crate
//! whose code decides the tree's bytes hashes its own sources in its build script
//! (`source-hash`) and exposes the hash, so a runtime of another repository that depends on
//! this crate by path, git or version gets the fingerprint of the code it compiled.

use crate::index::{self, Index, CASES_DIR, FORMAT, INDEX_FILE, REGENERATE};
use harness::source::{IndexedCase, IndexedTree, Source, Unusable};
use schema::hash::Hasher;
use std::path::Path;

/// The crates whose code decides the tree's bytes, each with the sha256 of that code taken
/// when it was built: the generator (this crate less the code that only reads a tree,
/// `generator_files.rs`), the kernels that compute the expected values, the vocabulary the
/// cases are written in, the harness's readers, writers and executor, and `onnx.proto`'s
/// messages. A change to any of them makes a written tree stale.
pub const SOURCES: [(&str, &str); 5] = [
    ("deep", env!("SOURCES_SHA256")),
    ("onnx-conformance", onnx_conformance::SOURCES_SHA256),
    ("vocab", vocab::SOURCES_SHA256),
    ("harness", harness::CASE_CODE_SHA256),
    ("schema", schema::PROTO_SHA256),
];

/// The fingerprint of the sources that write the tree, which its index records: sha256 over
/// [`SOURCES`], one `<crate> <sha256>` line each.
pub fn fingerprint() -> String {
    let mut hash = Hasher::default();
    for (name, sha) in SOURCES {
        hash.update(format!("{name} {sha}\n").as_bytes());
    }
    hash.finish()
}

/// The tree at `dir` as the cases of a harness run (`harness::runner::Suite::source`): its
/// cases when these sources wrote it, or else one failing guard naming the command to run.
pub fn source(dir: &Path) -> Source {
    Source::Indexed(indexed(dir))
}

/// The tree at its default place under the cargo target directory `target`, which
/// `ONNX_CONFORMANCE_SUITE=deep` runs: the conformance binary hands it to the harness with
/// `harness::source::link_deep(deep::indexed_source)`.
pub fn indexed_source(target: &Path) -> IndexedTree {
    indexed(&index::default_dir(target))
}

/// Whether the tree at `root` can run as it is: its index is readable, in this format, and
/// these sources wrote it.
pub fn is_current(root: &Path) -> bool {
    indexed(root).listing.is_ok()
}

/// The tree at `root`, listed from its index (no model is opened).
fn indexed(root: &Path) -> IndexedTree {
    let (content_sha256, listing) = match read(root) {
        Ok(index) => (Some(index.content_sha256.clone()), list(root, &index)),
        Err(unusable) => (None, Err(unusable)),
    };
    IndexedTree {
        root: root.to_path_buf(),
        cases: root.join(CASES_DIR),
        content_sha256,
        listing,
    }
}

/// A guard `check` (the trial `deep/<check>`) that says `why` and how to write the tree.
fn unusable(check: &str, why: String) -> Unusable {
    Unusable {
        check: check.to_string(),
        why: format!("{why}; run `{REGENERATE}`"),
    }
}

/// The index of the tree at `root`; no tree, or an index that cannot be read, is a guard.
fn read(root: &Path) -> Result<Index, Unusable> {
    let index_path = root.join(INDEX_FILE);
    let text = match std::fs::read_to_string(&index_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let why = format!("no deep tree: {} not found", index_path.display());
            return Err(unusable("missing", why));
        }
        Err(e) => {
            let why = format!("{}: cannot read: {e}", index_path.display());
            return Err(unusable("index", why));
        }
    };
    serde_json::from_str(&text).map_err(|e| {
        let why = format!("{}: invalid index: {e}", index_path.display());
        unusable("index", why)
    })
}

/// The cases of `index` (of the tree at `root`), when these sources in this format wrote it;
/// otherwise the stale guard.
fn list(root: &Path, index: &Index) -> Result<Vec<IndexedCase>, Unusable> {
    if index.format != FORMAT {
        let why = format!(
            "{}: format {}, this harness reads {FORMAT}",
            root.join(INDEX_FILE).display(),
            index.format
        );
        return Err(unusable("stale", why));
    }
    if index.fingerprint != fingerprint() {
        let why = format!(
            "{} was written by other sources than these (the generator, the implementation or \
             the writers changed since), so its expected outputs may be stale",
            root.display()
        );
        return Err(unusable("stale", why));
    }
    let cases = index.cases.iter().map(|c| IndexedCase {
        case: c.case.clone(),
        op_type: c.op.name().to_string(),
        opset: c.opset,
    });
    Ok(cases.collect())
}

#[cfg(test)]
mod tests;
