//! Putting a release directory in place atomically, the stamp that records what was
//! verified, and cleaning up after a killed run.
//!
//! A release is extracted into `.tmp-onnx-<release>-<pid>` inside the data directory (same
//! file system, so `rename` is atomic), verified, stamped, then renamed to `onnx-<release>`.
//! An older tree is first renamed to `.old-onnx-<release>-<pid>` and deleted last, so at any
//! instant `onnx-<release>` is either the old complete tree, the new one, or (between the two
//! renames) absent with the old tree kept aside, which the next run puts back.

use super::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// File name of the stamp inside a release directory.
pub const STAMP_FILE: &str = "fetch-stamp.json";

/// What was verified when a release directory was installed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stamp {
    /// The release, as in `1.22.0`.
    pub release: String,
    /// Where the data came from (wheel file name, or the checkout path).
    pub source: String,
    /// The lock's wheel sha256 the files were verified against (empty when not locked).
    pub wheel_sha256: String,
    /// The sha256 of the whole lock entry the files were verified against
    /// (`lock::entry_sha256`): when the lock's entry changes, the next run re-hashes the files
    /// instead of trusting the sizes. Empty in stamps written before it existed, which is a
    /// change too.
    #[serde(default)]
    pub lock_entry_sha256: String,
    /// The case prefixes extracted.
    pub ops: Vec<String>,
    /// Size of every file, keyed `node/<case>/<file>`.
    pub files: BTreeMap<String, u64>,
}

/// The final directory of a release.
pub fn release_dir(data: &Path, release: &str) -> PathBuf {
    data.join(format!("onnx-{release}"))
}

/// A fresh temporary directory for extracting `release`.
pub fn make_temp_dir(data: &Path, release: &str) -> Result<PathBuf> {
    let tmp = data.join(format!(".tmp-onnx-{release}-{}", std::process::id()));
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(|e| Error::io("remove", &tmp, e))?;
    }
    fs::create_dir_all(&tmp).map_err(|e| Error::io("create directory", &tmp, e))?;
    Ok(tmp)
}

/// Removes a temporary directory after a failure; a failure to remove is reported, not fatal.
pub fn discard(tmp: &Path) {
    if let Err(e) = fs::remove_dir_all(tmp) {
        eprintln!(
            "warning: cannot remove {}: {e}; delete it by hand",
            tmp.display()
        );
    }
}

/// Writes the stamp into `dir`: the temporary directory before it is renamed into place, or
/// an installed release whose lock entry changed (atomically, so a kill keeps the old stamp).
pub fn write_stamp(dir: &Path, stamp: &Stamp) -> Result<()> {
    let path = dir.join(STAMP_FILE);
    let text = serde_json::to_string_pretty(stamp)
        .map_err(|e| Error::new(format!("cannot serialize {}: {e}", path.display())))?;
    schema::files::write_atomic(&path, text.as_bytes()).map_err(Error::from)
}

/// Reads the stamp of an installed release, if there is a readable one.
pub fn read_stamp(dir: &Path) -> Option<Stamp> {
    let text = fs::read_to_string(dir.join(STAMP_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Renames the verified `tmp` to `onnx-<release>`, replacing an older tree safely.
pub fn install(data: &Path, release: &str, tmp: &Path) -> Result<()> {
    let dest = release_dir(data, release);
    if !dest.exists() {
        return fs::rename(tmp, &dest).map_err(|e| Error::io("rename into place", &dest, e));
    }
    let old = data.join(format!(".old-onnx-{release}-{}", std::process::id()));
    fs::rename(&dest, &old).map_err(|e| Error::io("move aside", &dest, e))?;
    if let Err(e) = fs::rename(tmp, &dest) {
        // Put the old tree back so the data stays as it was.
        let _ = fs::rename(&old, &dest);
        return Err(Error::io("rename into place", &dest, e));
    }
    if let Err(e) = fs::remove_dir_all(&old) {
        eprintln!(
            "warning: cannot remove the replaced tree {}: {e}",
            old.display()
        );
    }
    Ok(())
}

/// Cleans up what a killed run left in `data`: puts a set-aside old tree back when its
/// release directory is missing, removes partial temporary directories, pip's staging
/// directories in `.cache`, and the temporary files of a killed `write_atomic` (the index, a
/// stamp). Directories of a fetch that is still running are an error.
/// Returns one message per action.
pub fn clean_leftovers(data: &Path) -> Result<Vec<String>> {
    let mut messages = clean_downloads(&data.join(".cache"))?;
    let Ok(entries) = fs::read_dir(data) else {
        return Ok(messages);
    };
    let all: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    messages.extend(clean_temp_files(data, &all)?);
    for release in all.iter().filter(|n| n.starts_with("onnx-")) {
        let dir = data.join(release);
        if let Ok(inside) = fs::read_dir(&dir) {
            let names: Vec<String> = inside
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect();
            messages.extend(clean_temp_files(&dir, &names)?);
        }
    }
    let mut names: Vec<String> = all
        .into_iter()
        .filter(|n| n.starts_with(".tmp-onnx-") || n.starts_with(".old-onnx-"))
        .collect();
    // `.old-` before `.tmp-`: restore first, then drop partial extractions.
    names.sort();
    for name in names {
        let path = data.join(&name);
        let Some((release, pid)) = split_leftover(&name) else {
            continue;
        };
        refuse_if_running(&path, pid)?;
        let dest = release_dir(data, release);
        if name.starts_with(".old-") && !dest.exists() {
            fs::rename(&path, &dest).map_err(|e| Error::io("restore", &path, e))?;
            messages.push(format!(
                "restored {} from an interrupted run",
                dest.display()
            ));
        } else {
            fs::remove_dir_all(&path).map_err(|e| Error::io("remove", &path, e))?;
            messages.push(format!(
                "removed {} left by an interrupted run",
                path.display()
            ));
        }
    }
    Ok(messages)
}

/// Removes the files among `names` (in `dir`) that `schema::files::write_atomic` wrote
/// aside for a process that is gone.
fn clean_temp_files(dir: &Path, names: &[String]) -> Result<Vec<String>> {
    let mut messages = Vec::new();
    for name in names {
        let Some(pid) = schema::files::temp_owner(name) else {
            continue;
        };
        let path = dir.join(name);
        if pid == std::process::id() || !path.is_file() {
            continue;
        }
        refuse_if_running(&path, pid)?;
        fs::remove_file(&path).map_err(|e| Error::io("remove", &path, e))?;
        messages.push(format!(
            "removed {} left by an interrupted write",
            path.display()
        ));
    }
    Ok(messages)
}

/// Removes the `.download-<pid>[-<release>]` staging directories a killed download left in
/// `cache`.
fn clean_downloads(cache: &Path) -> Result<Vec<String>> {
    let Ok(entries) = fs::read_dir(cache) else {
        return Ok(Vec::new());
    };
    let mut stages: Vec<(PathBuf, u32)> = entries
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let rest = name.strip_prefix(".download-")?;
            let pid = rest.split('-').next()?.parse().ok()?;
            Some((cache.join(name), pid))
        })
        .collect();
    stages.sort();
    let mut messages = Vec::new();
    for (path, pid) in stages {
        refuse_if_running(&path, pid)?;
        fs::remove_dir_all(&path).map_err(|e| Error::io("remove", &path, e))?;
        messages.push(format!(
            "removed {} left by an interrupted download",
            path.display()
        ));
    }
    Ok(messages)
}

/// A leftover of process `pid` is only removed once that process is gone.
fn refuse_if_running(path: &Path, pid: u32) -> Result<()> {
    if pid != std::process::id() && fetch_running(pid) {
        return Err(Error::new(format!(
            "{} belongs to a fetch that is still running (pid {pid})",
            path.display()
        ))
        .hint("wait for it to finish; if it is not a fetch, delete the directory by hand"));
    }
    Ok(())
}

/// `.tmp-onnx-<release>-<pid>` -> (release, pid).
fn split_leftover(name: &str) -> Option<(&str, u32)> {
    let rest = name
        .strip_prefix(".tmp-onnx-")
        .or_else(|| name.strip_prefix(".old-onnx-"))?;
    let (release, pid) = rest.rsplit_once('-')?;
    Some((release, pid.parse().ok()?))
}

/// Whether process `pid` exists and is an xtask (Linux `/proc`; elsewhere assumed gone).
fn fetch_running(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "xtask")
}
