//! Our own cases, in the official layout, as files ([`files`], which the command writes into
//! its home), written under a directory ([`write`], normally `tests/cases/`) or compared with
//! one ([`check`]).
//!
//! They cover operator versions and types the official data never exercises (Cast-1 with its
//! string `to`, Concat-1 with its default axis, integer/bool casts, Concat of non-float types).
//! Expected outputs are computed here from the spec's rules with deliberately plain code
//! (Rust `as` casts, index-by-index loops), never by the kernels under test.
#![forbid(unsafe_code)]

mod encode;
mod float6;
mod specs;

use harness::write::{self, Encoding};
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why the own cases could not be checked or written: the file or directory, and what was
/// being done to it.
#[derive(Debug)]
pub enum Error {
    /// An I/O operation (`op`: read, clear, create, write) on `path` failed.
    Io {
        /// What was being done.
        op: &'static str,
        /// The file or directory concerned.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The tree under `root` could not be listed.
    List {
        /// The cases' root.
        root: PathBuf,
        /// The walk's error.
        source: walkdir::Error,
    },
}

impl Error {
    fn io(op: &'static str, path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            op,
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { op, path, source } => write!(f, "cannot {op} {}: {source}", path.display()),
            Error::List { root, source } => write!(f, "cannot list {}: {source}", root.display()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::List { source, .. } => Some(source),
        }
    }
}

/// The files under `root` that differ from the generator's, are missing, or are extra,
/// each with what is wrong; empty when `root` is exactly what [`write`] would make.
pub fn check(root: &Path) -> Result<Vec<String>, Error> {
    let mut stale = Vec::new();
    let files = files();
    for (rel, bytes) in &files {
        match std::fs::read(root.join(rel)) {
            Ok(on_disk) if on_disk == *bytes => {}
            Ok(_) => stale.push(format!("{rel} (stale)")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                stale.push(format!("{rel} (missing)"))
            }
            Err(e) => return Err(Error::io("read", &root.join(rel), e)),
        }
    }
    let generated: BTreeSet<&str> = files.iter().map(|(rel, _)| rel.as_str()).collect();
    // The harness runs every directory under tests/cases as a case, even one without files
    // (it fails for want of model.onnx), so the directories must match as well as the files.
    let generated_dirs = directories(generated.iter().copied());
    if root.exists() {
        for entry in walkdir::WalkDir::new(root).min_depth(1).sort_by_file_name() {
            let entry = entry.map_err(|source| Error::List {
                root: root.to_path_buf(),
                source,
            })?;
            let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
            let rel = rel.to_string_lossy().replace('\\', "/");
            if entry.file_type().is_dir() {
                if !generated_dirs.contains(rel.as_str()) {
                    stale.push(format!("{rel}/ (directory not generated)"));
                }
            } else if !generated.contains(rel.as_str()) {
                stale.push(format!("{rel} (not generated)"));
            }
        }
    }
    Ok(stale)
}

/// Every directory that holds one of `files` (relative paths with `/`), at any depth.
fn directories<'a>(files: impl Iterator<Item = &'a str>) -> BTreeSet<&'a str> {
    let mut dirs = BTreeSet::new();
    for file in files {
        let mut rest = file;
        while let Some((dir, _)) = rest.rsplit_once('/') {
            dirs.insert(dir);
            rest = dir;
        }
    }
    dirs
}

/// Every file of every own case: (path relative to the cases dir, bytes).
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let specs = specs::cast_specs()
        .into_iter()
        .chain(specs::concat_specs())
        .chain(float6::specs())
        .chain(float6::bad_specs());
    for spec in specs {
        let dir = &spec.name;
        out.push((
            format!("{dir}/model.onnx"),
            write::model::encode(&encode::model(&spec), Encoding::Onnx),
        ));
        let tensors = [("input", &spec.inputs), ("output", &spec.outputs)];
        for ((kind, tensors), encoding) in tensors.into_iter().zip(spec.encodings) {
            for (k, t) in tensors.iter().enumerate() {
                let pb = write::tensor::encode(&format!("{kind}_{k}"), t, encoding);
                out.push((format!("{dir}/test_data_set_0/{kind}_{k}.pb"), pb));
            }
        }
        if let Some((replacement, expected)) = &spec.bad {
            if let Some(bytes) = replacement {
                let input = format!("{dir}/test_data_set_0/input_0.pb");
                out.retain(|(rel, _)| *rel != input);
                out.push((input, bytes.clone()));
            }
            let file = harness::expected_error::FILE;
            out.push((format!("{dir}/{file}"), expected.to_bytes()));
        }
    }
    out
}

/// Writes every own case under `root` (normally `tests/cases`), replacing what is there.
pub fn write(root: &Path) -> Result<usize, Error> {
    if root.exists() {
        std::fs::remove_dir_all(root).map_err(|e| Error::io("clear", root, e))?;
    }
    let files = files();
    for (rel, bytes) in &files {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| Error::io("write", &path, e))?;
    }
    Ok(files.len())
}

#[cfg(test)]
mod tests;
