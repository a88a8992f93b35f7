//! The sha256 of a crate's own sources, computed by the crate's build script and compiled into
//! it, so that code whose output depends on that crate (the deep tree's fingerprint) can tell
//! which sources it was built from without a checkout at run time.
//!
//! A build script reads only files of its own package (`cargo package` packs nothing else),
//! so each crate hashes its own sources and exposes the result; this crate is the one walker
//! and hash they share. Standard library only: it runs in the build scripts of the lowest
//! crates, and a dependency here would be compiled once more for the host.

mod sha256;

use std::fmt;
use std::path::{Path, PathBuf};

pub use sha256::Sha256;

/// The variable a build script sets for its crate ([`emit`]); read it with
/// `env!("SOURCES_SHA256")`.
pub const VAR: &str = "SOURCES_SHA256";

/// For a build script: hashes the sources under `paths` of the package being built
/// ([`hash`]), hands the hash to the crate as [`VAR`], and has cargo run the script again when
/// anything under `paths` changes. A path that cannot be read fails the build, naming it.
pub fn emit(paths: &[&str], excluded: &[&str]) {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        eprintln!("error: source-hash: CARGO_MANIFEST_DIR is not set (run from a build script)");
        std::process::exit(1);
    };
    for path in paths {
        println!("cargo:rerun-if-changed={path}");
    }
    match hash(Path::new(&dir), paths, excluded) {
        Ok(sha) => println!("cargo:rustc-env={VAR}={sha}"),
        Err(e) => {
            eprintln!("error: source-hash: {e}");
            std::process::exit(1);
        }
    }
}

/// Why the sources could not be hashed: which path, and what was being done to it.
#[derive(Debug)]
pub enum Error {
    /// `path` does not exist or its metadata cannot be read.
    Missing {
        /// The path named in the build script (or found under one).
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The directory `path` cannot be listed.
    List {
        /// The directory.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file `path` cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Missing { path, source } => write!(f, "{}: {source}", path.display()),
            Error::List { path, source } => write!(f, "{}: cannot list: {source}", path.display()),
            Error::Read { path, source } => write!(f, "{}: cannot read: {source}", path.display()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Missing { source, .. }
            | Error::List { source, .. }
            | Error::Read { source, .. } => Some(source),
        }
    }
}

/// sha256 over the `.rs` files under `paths` (each a directory or a file, relative to
/// `root`), in name order, each as its relative path, its length and its bytes. Tests
/// (`tests.rs`, anything under a `tests/` directory, `testkit`) cannot change what the code
/// does and are left out, as is every file whose relative path starts with one of `excluded`;
/// any other file counts, new ones included.
pub fn hash(root: &Path, paths: &[&str], excluded: &[&str]) -> Result<String, Error> {
    let mut files = Vec::new();
    for path in paths {
        list(root, &root.join(path), &mut files)?;
    }
    let mut sha = Sha256::default();
    for rel in files {
        let is_test =
            rel.ends_with("/tests.rs") || rel.contains("/tests/") || rel.contains("/testkit");
        if !rel.ends_with(".rs") || is_test || excluded.iter().any(|x| rel.starts_with(x)) {
            continue;
        }
        let path = root.join(&rel);
        let bytes = std::fs::read(&path).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        sha.update(rel.as_bytes());
        sha.update(&(bytes.len() as u64).to_le_bytes());
        sha.update(&bytes);
    }
    Ok(sha.finish())
}

/// Appends the files at or under `path` to `files` by their path relative to `root` (with
/// `/`), each directory's entries in name order.
fn list(root: &Path, path: &Path, files: &mut Vec<String>) -> Result<(), Error> {
    let meta = std::fs::metadata(path).map_err(|source| Error::Missing {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.is_dir() {
        let rel = path.strip_prefix(root).unwrap_or(path);
        let parts: Vec<_> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect();
        files.push(parts.join("/"));
        return Ok(());
    }
    let cannot_list = |source| Error::List {
        path: path.to_path_buf(),
        source,
    };
    let listing = std::fs::read_dir(path).map_err(cannot_list)?;
    let mut entries = listing
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(cannot_list)?;
    entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for entry in entries {
        list(root, &entry, files)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
