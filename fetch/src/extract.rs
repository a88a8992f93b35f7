//! Extracting the selected node-test cases from a wheel or an onnx source checkout into a
//! directory, hashing every file on the way, and refusing entries that escape the target.

use super::error::{Error, Result};
use super::lock::sha256_file;
use schema::hash::Hasher;
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Where the node tests live inside a wheel (and inside a source checkout).
pub const NODE_PREFIX: &str = "onnx/backend/test/data/node/";

/// What one extraction produced: `node/<case>/<file>` -> (sha256, size).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Extracted {
    /// Every extracted file with its sha256 and size.
    pub files: BTreeMap<String, (String, u64)>,
}

impl Extracted {
    /// `node/<case>/<file>` -> sha256, as the lock records it.
    pub fn hashes(&self) -> BTreeMap<String, String> {
        self.files
            .iter()
            .map(|(k, (h, _))| (k.clone(), h.clone()))
            .collect()
    }

    /// `node/<case>/<file>` -> size, as the stamp records it.
    pub fn sizes(&self) -> BTreeMap<String, u64> {
        self.files
            .iter()
            .map(|(k, (_, n))| (k.clone(), *n))
            .collect()
    }
}

/// Maps an archive entry name to its place in the release directory (`node/<case>/...`).
/// `Ok(None)`: not a selected file (another operator, a directory entry, not test data).
/// `Err`: a selected entry whose path could escape the target (zip-slip) or is not portable.
pub fn target_of(name: &str, ops: &[String]) -> std::result::Result<Option<String>, String> {
    let Some(rest) = name.strip_prefix(NODE_PREFIX) else {
        return Ok(None);
    };
    let case = rest.split('/').next().unwrap_or("");
    if case.is_empty() || !ops.iter().any(|p| case.starts_with(p.as_str())) {
        return Ok(None);
    }
    let is_dir = rest.ends_with('/');
    let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    for part in &parts {
        let bad =
            part.is_empty() || *part == "." || *part == ".." || part.contains(['\\', ':', '\0']);
        if bad {
            return Err(format!(
                "entry `{name}` has an unsafe path component `{part}`"
            ));
        }
    }
    Ok((!is_dir).then(|| format!("node/{rest}")))
}

/// Whether `rel` (`node/<case>/...`) belongs to a case that one of `prefixes` selects.
pub fn covered_by(rel: &str, prefixes: &[String]) -> bool {
    let case = rel.split('/').nth(1).unwrap_or("");
    prefixes.iter().any(|p| case.starts_with(p.as_str()))
}

/// Extracts the selected cases of the wheel at `wheel` into `dest` (which must exist).
pub fn from_wheel(wheel: &Path, ops: &[String], dest: &Path) -> Result<Extracted> {
    let damaged = |e: &dyn std::fmt::Display| {
        Error::new(format!(
            "wheel {} is damaged or not a zip file: {e}",
            wheel.display()
        ))
        .hint(format!(
            "delete {} and re-run to download it again",
            wheel.display()
        ))
    };
    let file = File::open(wheel).map_err(|e| Error::io("open", wheel, e))?;
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file)).map_err(|e| damaged(&e))?;
    let mut out = Extracted::default();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| damaged(&e))?;
        let rel = match target_of(entry.name(), ops) {
            Ok(Some(rel)) => rel,
            Ok(None) => continue,
            Err(why) => return Err(unsafe_entry(wheel, why)),
        };
        if entry.is_symlink() {
            let why = format!("entry `{}` is a symbolic link", entry.name());
            return Err(unsafe_entry(wheel, why));
        }
        let written = write_file(dest, &rel, &mut entry, &|e| damaged(&e))?;
        out.files.insert(rel, written);
    }
    Ok(out)
}

fn unsafe_entry(wheel: &Path, why: String) -> Error {
    Error::new(format!(
        "wheel {}: {why}; refusing to extract it",
        wheel.display()
    ))
    .hint("this wheel is not a genuine onnx wheel; delete it and use a trusted source")
}

/// Copies the selected cases of an onnx source checkout (`<root>/onnx/backend/test/data/node`).
pub fn from_checkout(root: &Path, ops: &[String], dest: &Path) -> Result<Extracted> {
    let node = root.join(NODE_PREFIX);
    let mut out = Extracted::default();
    for entry in walkdir::WalkDir::new(&node).sort_by_file_name() {
        let entry =
            entry.map_err(|e| Error::new(format!("cannot list {}: {e}", node.display())))?;
        if entry.file_type().is_dir() {
            continue;
        }
        let rel_os = entry.path().strip_prefix(&node).unwrap_or(entry.path());
        let name = format!(
            "{NODE_PREFIX}{}",
            rel_os.to_string_lossy().replace('\\', "/")
        );
        let rel = match target_of(&name, ops) {
            Ok(Some(rel)) => rel,
            Ok(None) => continue,
            Err(why) => return Err(Error::new(format!("{}: {why}", root.display()))),
        };
        if !entry.file_type().is_file() {
            let p = entry.path().display();
            return Err(Error::new(format!(
                "{p} is not a regular file; refusing to copy it"
            )));
        }
        let mut f = File::open(entry.path()).map_err(|e| Error::io("open", entry.path(), e))?;
        let path = entry.path().to_path_buf();
        let written = write_file(dest, &rel, &mut f, &|e| {
            Error::new(format!("cannot read {}: {e}", path.display()))
        })?;
        out.files.insert(rel, written);
    }
    Ok(out)
}

/// Writes one file under `dest`, returning its sha256 and size. Read failures go through
/// `on_read` (a damaged archive); write failures name the file written (e.g. a full disk).
fn write_file(
    dest: &Path,
    rel: &str,
    src: &mut dyn Read,
    on_read: &dyn Fn(std::io::Error) -> Error,
) -> Result<(String, u64)> {
    let path: PathBuf = dest.join(rel);
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| Error::io("create directory", dir, e))?;
    }
    // create_new: a second entry with the same name must not silently replace the first.
    let mut out = File::options()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| Error::io("create", &path, e))?;
    let mut hasher = Hasher::default();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = src.read(&mut buf).map_err(on_read)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(|e| Error::io("write", &path, e))?;
        size += n as u64;
    }
    out.flush().map_err(|e| Error::io("write", &path, e))?;
    Ok((hasher.finish(), size))
}

/// Lists the files under `dir/node` as `node/<case>/<file>` -> size, for the presence check.
pub fn list_files(dir: &Path) -> Result<BTreeMap<String, u64>> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir.join("node")) {
        let entry = entry.map_err(|e| Error::new(format!("cannot list {}: {e}", dir.display())))?;
        if entry.file_type().is_dir() {
            continue;
        }
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let size = entry.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
        out.insert(rel.to_string_lossy().replace('\\', "/"), size);
    }
    Ok(out)
}

/// Re-hashes the listed files of `dir` (`--verify`).
pub fn rehash(dir: &Path, files: &BTreeMap<String, u64>) -> Result<BTreeMap<String, String>> {
    files
        .keys()
        .map(|rel| Ok((rel.clone(), sha256_file(&dir.join(rel))?)))
        .collect()
}

#[cfg(test)]
mod tests;
