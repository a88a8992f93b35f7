//! Whether the deep tree on disk is the tree its index describes: every case file against the
//! sha256 that `index.json` records for it ([`Index::files`], written by [`crate::write`]).
//!
//! A run trusts the expected outputs on disk. Without this check one flipped bit in an
//! expected file reads as the runtime's bug ("expected 16777218, actual 2"), and an expected
//! file altered to agree with a wrong runtime makes that runtime pass. The official data has
//! the same check against its lock (`harness::lockcheck`); this one checks every case, not
//! only the failing ones, since a pass is as wrong as a finding on a changed file, and the
//! whole tree (about 145 MB) hashes in well under a second.

use crate::index::{Index, CASES_DIR, INDEX_FILE, REGENERATE};
use schema::hash::sha256_read;
use std::collections::BTreeMap;
use std::path::Path;

/// How many damaged files the error names.
const SHOWN: usize = 5;

/// Checks every file of every case of `index` under the tree at `root` against the sha256 the
/// index records for it, and that a case holds no file the index does not record (an extra
/// data set would run too). The error names each damaged file (up to [`SHOWN`]) with its case
/// and says how to write the tree again: it is a setup problem, never the runtime's.
pub fn verify(root: &Path, index: &Index) -> Result<(), crate::Error> {
    let cases_dir = root.join(CASES_DIR);
    let mut recorded: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for (path, hash) in &index.files {
        let (case, rel) = path.split_once('/').unwrap_or((path.as_str(), ""));
        recorded.entry(case).or_default().insert(rel, hash.as_str());
    }
    let mut problems = Vec::new();
    for entry in &index.cases {
        let files = recorded.remove(entry.case.as_str()).unwrap_or_default();
        let dir = cases_dir.join(&entry.case);
        problems.extend(
            check_case(&dir, files)
                .into_iter()
                .map(|p| format!("{p} (case {})", entry.case)),
        );
    }
    // Hashes of no listed case: the index itself was changed.
    problems.extend(recorded.keys().map(|case| {
        format!(
            "{}: records files of {case}, which it does not list as a case",
            root.join(INDEX_FILE).display()
        )
    }));
    if problems.is_empty() {
        return Ok(());
    }
    let more = match problems.len() > SHOWN {
        true => format!(" and {} more", problems.len() - SHOWN),
        false => String::new(),
    };
    problems.truncate(SHOWN);
    Err(crate::Error::Tree(format!(
        "the deep tree at {} is not what its {INDEX_FILE} records, so its expected outputs \
         cannot judge a runtime (a changed file would read as the runtime's bug, or pass it): \
         {}{more}; run `{REGENERATE}` to write the tree again",
        root.display(),
        problems.join(", ")
    )))
}

/// What differs between the files under `dir` (one case) and `recorded` (relative path to
/// sha256): each differing, unreadable, unrecorded or missing file, by its path.
fn check_case(dir: &Path, mut recorded: BTreeMap<&str, &str>) -> Vec<String> {
    if !dir.is_dir() {
        return vec![format!("{} is missing", dir.display())];
    }
    let mut problems = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                problems.push(format!("{}: cannot list: {e}", dir.display()));
                continue;
            }
        };
        if entry.file_type().is_dir() {
            continue;
        }
        let path = entry.path();
        let rel = path.strip_prefix(dir).unwrap_or(path);
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let rel = rel.join("/");
        let Some(want) = recorded.remove(rel.as_str()) else {
            problems.push(format!("{} (not in {INDEX_FILE})", path.display()));
            continue;
        };
        match std::fs::File::open(path).and_then(|mut f| sha256_read(&mut f)) {
            Err(e) => problems.push(format!("{}: cannot read: {e}", path.display())),
            Ok(got) if got != want => problems.push(format!(
                "{} (sha256 {got}, {INDEX_FILE} records {want})",
                path.display()
            )),
            Ok(_) => {}
        }
    }
    problems.extend(
        recorded
            .keys()
            .map(|rel| format!("{} is missing", dir.join(rel).display())),
    );
    problems
}

#[cfg(test)]
mod tests;
