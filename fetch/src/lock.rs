//! Reading, checking and writing the lock file (`onnx-backend-data.lock.json`).

use super::error::{Error, Result};
use schema::index::{release_cmp, Lock, LockedRelease};
use std::collections::BTreeMap;
use std::path::Path;

/// Lowercase hex sha256 of the file at `path` (`schema::hash`, the lock's one hash).
pub fn sha256_file(path: &Path) -> Result<String> {
    let mut f = std::fs::File::open(path).map_err(|e| Error::io("open", path, e))?;
    schema::hash::sha256_read(&mut f).map_err(|e| Error::io("read", path, e))
}

/// Reads the lock file; a missing file is an empty lock (first `--update-lock`).
pub fn load(path: &Path) -> Result<Option<Lock>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", path, e)),
    };
    let lock: Lock = serde_json::from_str(&text).map_err(|e| {
        Error::new(format!("{} is not a valid lock file: {e}", path.display()))
            .hint("restore it from git (`git checkout -- onnx-backend-data.lock.json`)")
    })?;
    if lock.format != 1 {
        return Err(Error::new(format!(
            "{}: lock format {} is not supported (expected 1)",
            path.display(),
            lock.format
        )));
    }
    Ok(Some(lock))
}

/// Writes the lock file atomically (temporary file, then rename), releases in version order.
pub fn save(path: &Path, lock: &Lock) -> Result<()> {
    let mut lock = lock.clone();
    lock.releases
        .sort_by(|a, b| release_cmp(&a.release, &b.release));
    let mut text = serde_json::to_string_pretty(&lock)
        .map_err(|e| Error::new(format!("cannot serialize the lock: {e}")))?;
    text.push('\n');
    schema::files::write_atomic(path, text.as_bytes()).map_err(Error::from)
}

/// The sha256 of one release's lock entry, as a stamp records it: any change to the entry
/// (a file's hash, the wheel, how it is derived) changes it, and a lock re-formatted or
/// re-ordered does not (the entry is hashed as serialized here, not as written in the file).
pub fn entry_sha256(entry: &LockedRelease) -> Result<String> {
    let bytes = serde_json::to_vec(entry).map_err(|e| {
        Error::new(format!(
            "cannot serialize the lock entry of onnx {}: {e}",
            entry.release
        ))
    })?;
    Ok(schema::hash::sha256_hex(&bytes))
}

/// Checks a wheel's sha256 against the lock entry.
pub fn check_wheel(entry: &LockedRelease, wheel: &Path, sha256: &str) -> Result<()> {
    if entry.sha256 == sha256 {
        return Ok(());
    }
    Err(Error::new(format!(
        "onnx {}: wheel {} has sha256 {sha256}, but the lock pins {} to {}",
        entry.release,
        wheel.display(),
        entry.wheel,
        entry.sha256
    ))
    .hint(format!(
        "a damaged download: delete {} and re-run; a re-published wheel: review it, then \
         re-run with --update-lock",
        wheel.display()
    )))
}

/// Checks extracted files (`node/<case>/<file>` -> sha256) against the lock entry: same set
/// of files, same hashes. The first difference is the error.
pub fn check_files(entry: &LockedRelease, found: &BTreeMap<String, String>) -> Result<()> {
    let hint = "the data differs from what the lock pins; if that is expected (a new wheel or \
                other --ops), review it and re-run with --update-lock";
    for (path, want) in &entry.files {
        match found.get(path) {
            None => {
                return Err(Error::new(format!(
                    "onnx {}: {path} is in the lock (sha256 {want}) but missing from the data",
                    entry.release
                ))
                .hint(hint))
            }
            Some(got) if got != want => {
                return Err(Error::new(format!(
                    "onnx {}: {path} has sha256 {got}, but the lock says {want}",
                    entry.release
                ))
                .hint(hint))
            }
            Some(_) => {}
        }
    }
    if let Some((path, got)) = found.iter().find(|(p, _)| !entry.files.contains_key(*p)) {
        return Err(Error::new(format!(
            "onnx {}: {path} (sha256 {got}) is in the data but not in the lock",
            entry.release
        ))
        .hint(hint));
    }
    Ok(())
}

/// Replaces (or adds) `entry` in `lock`.
pub fn upsert(lock: &mut Lock, entry: LockedRelease) {
    match lock
        .releases
        .iter_mut()
        .find(|r| r.release == entry.release)
    {
        Some(r) => *r = entry,
        None => lock.releases.push(entry),
    }
}

#[cfg(test)]
mod tests;
