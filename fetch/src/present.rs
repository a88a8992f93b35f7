//! The no-op path: is an installed release still what was verified when it was installed?
//!
//! "Present and verified" means: the release directory has a stamp, written only after every
//! extracted file matched the lock; the stamp names the lock's wheel sha256 and the same case
//! prefixes; the stamp's file list under the lock's prefixes equals the lock's; and the files
//! on disk are exactly the stamp's, with the recorded sizes. That costs a directory walk, not a
//! re-hash of 33 MB, and is trusted only while the lock entry is the one the stamp records:
//! when the entry changed (a file's hash edited, a merge), every file the lock covers is
//! re-hashed, as `--verify` always does.

use super::error::{Error, Result};
use super::extract::{covered_by, list_files, rehash};
use super::install::{read_stamp, release_dir, Stamp};
use super::lock::entry_sha256;
use super::plural;
use schema::index::LockedRelease;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Counts of one release's data.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Stats {
    /// Case directories.
    pub cases: usize,
    /// Files.
    pub files: usize,
    /// Bytes of all files.
    pub bytes: u64,
}

impl Stats {
    /// Counts of a `node/<case>/<file>` -> size map.
    pub fn of(files: &BTreeMap<String, u64>) -> Stats {
        let mut cases: Vec<&str> = files.keys().filter_map(|k| k.split('/').nth(1)).collect();
        cases.dedup();
        Stats {
            cases: cases.len(),
            files: files.len(),
            bytes: files.values().sum(),
        }
    }
}

/// What the presence check compares against.
pub struct Expect<'a> {
    /// The lock entry, if the lock has the release.
    pub entry: Option<&'a LockedRelease>,
    /// The lock's case prefixes, whose files the lock lists.
    pub locked_ops: &'a [String],
    /// The case prefixes asked for: the lock's, then those `--ops` adds.
    pub ops: &'a [String],
    /// Re-hash every file (`--verify`).
    pub rehash: bool,
}

/// An installed release found verified.
#[derive(Debug)]
pub struct Verified {
    /// Its counts.
    pub stats: Stats,
    /// The stamp to write when the lock entry changed since the stamp and the files were
    /// re-hashed against the new one: with it, the next run takes the cheap path again.
    pub restamp: Option<Stamp>,
}

/// `Ok` if the release is installed and verified, else why it is not (an I/O failure on the
/// way is a reason too: the release is then fetched again).
pub fn check(data: &Path, release: &str, want: &Expect<'_>) -> Result<Verified> {
    let dir = release_dir(data, release);
    if !dir.is_dir() {
        return Err(Error::new("not fetched yet"));
    }
    let stamp = read_stamp(&dir)
        .ok_or_else(|| Error::new("no readable fetch stamp (an unverified tree)"))?;
    let sorted = |ops: &[String]| ops.iter().cloned().collect::<BTreeSet<String>>();
    if stamp.release != release || sorted(&stamp.ops) != sorted(want.ops) {
        return Err(Error::new(format!(
            "fetched with other case prefixes ({})",
            stamp.ops.join(",")
        )));
    }
    let entry = want.entry.ok_or_else(|| Error::new("not in the lock"))?;
    if stamp.wheel_sha256 != entry.sha256 {
        return Err(Error::new("fetched from another wheel than the lock pins"));
    }
    let locked_files = stamp
        .files
        .keys()
        .filter(|p| covered_by(p, want.locked_ops));
    if !locked_files.eq(entry.files.keys()) {
        return Err(Error::new("its file list differs from the lock's"));
    }
    let on_disk = list_files(&dir)?;
    if let Some(diff) = first_difference(&stamp.files, &on_disk) {
        return Err(Error::new(diff));
    }
    let digest = entry_sha256(entry)?;
    let relocked = stamp.lock_entry_sha256 != digest;
    if want.rehash || relocked {
        let locked: BTreeMap<String, u64> = on_disk
            .iter()
            .filter(|(p, _)| covered_by(p, want.locked_ops))
            .map(|(p, n)| (p.clone(), *n))
            .collect();
        let hashes = rehash(&dir, &locked)?;
        for (path, got) in &hashes {
            let want = entry.files.get(path).map_or("", String::as_str);
            if got != want {
                return Err(Error::new(format!(
                    "{path} has sha256 {got}, the lock says {want}"
                )));
            }
        }
    }
    let restamp = relocked.then_some(Stamp {
        lock_entry_sha256: digest,
        ..stamp
    });
    Ok(Verified {
        stats: Stats::of(&on_disk),
        restamp,
    })
}

/// The first file that is missing, extra or of another size on disk than recorded.
fn first_difference(
    recorded: &BTreeMap<String, u64>,
    disk: &BTreeMap<String, u64>,
) -> Option<String> {
    for (path, size) in recorded {
        match disk.get(path) {
            None => return Some(format!("{path} is missing")),
            Some(s) if s != size => {
                return Some(format!(
                    "{path} is {} on disk, but {} when extracted",
                    plural(*s as usize, "byte"),
                    plural(*size as usize, "byte")
                ))
            }
            Some(_) => {}
        }
    }
    let extra = disk.keys().find(|p| !recorded.contains_key(*p))?;
    Some(format!("{extra} was not extracted by the fetch"))
}
