//! When an official trial fails, its case files are hashed against the lock file: the cheap
//! check of `cargo xtask fetch-tests` compares sizes only, so a same-size bit flip on disk
//! would otherwise read like a bug of the implementation.

use crate::discover::CaseSpec;
use crate::index::{Lock, LOCK_FILE};
use schema::hash::sha256_hex;
use std::collections::BTreeMap;
use std::path::Path;

/// How many differing files the note names.
const SHOWN: usize = 5;

/// A note saying which of the case's files differ from the lock at `lock_path`, or `None`
/// when they all match, or when the release is not locked (generated cases) or the lock or
/// the case directory cannot be read (other checks report those).
pub fn check(lock_path: &Path, case: &CaseSpec) -> Option<String> {
    if !case.dir.is_dir() {
        return None;
    }
    let lock: Lock = serde_json::from_str(&std::fs::read_to_string(lock_path).ok()?).ok()?;
    let release = lock.releases.iter().find(|r| r.release == case.release)?;
    let prefix = format!("node/{}/", case.case);
    let mut locked: BTreeMap<&str, &str> = release
        .files
        .iter()
        .filter_map(|(path, hash)| Some((path.strip_prefix(&prefix)?, hash.as_str())))
        .collect();
    let mut problems = Vec::new();
    for entry in walkdir::WalkDir::new(&case.dir).sort_by_file_name() {
        let Ok(entry) = entry else {
            problems.push("a file that cannot be listed".to_string());
            continue;
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(&case.dir).unwrap_or(entry.path());
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let rel = rel.join("/");
        let hash = std::fs::read(entry.path()).map(|b| sha256_hex(&b));
        match (locked.remove(rel.as_str()), hash) {
            (None, _) => problems.push(format!("{rel} (not in the lock)")),
            (Some(_), Err(e)) => problems.push(format!("{rel} (cannot read: {e})")),
            (Some(want), Ok(got)) if want != got => {
                problems.push(format!("{rel} (sha256 {got}, the lock says {want})"))
            }
            (Some(_), Ok(_)) => {}
        }
    }
    problems.extend(locked.keys().map(|rel| format!("{rel} (missing)")));
    if problems.is_empty() {
        return None;
    }
    let more = match problems.len() > SHOWN {
        true => format!(" and {} more", problems.len() - SHOWN),
        false => String::new(),
    };
    problems.truncate(SHOWN);
    Some(format!(
        "the data on disk is damaged, so this failure may not be the implementation's: \
         {} differs from {LOCK_FILE} in {}{more}; run `cargo xtask fetch-tests --verify` to \
         re-check and repair the data",
        case.dir.display(),
        problems.join(", ")
    ))
}

#[cfg(test)]
mod tests;
