//! The per-user home of the command: the fetched data, the lock it was verified against and
//! our own cases, apart from any checkout. The lock and the own cases come from this binary
//! and are written there when missing or different, so a home always matches the binary
//! that uses it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The variable naming the home, before the platform's cache directory.
pub use harness::runner::HOME_VAR;

/// The lock this binary verifies the data against: the repository's, compiled into the
/// implementation crate (the one whose directory holds it, so its package carries it).
const LOCK: &str = onnx_conformance::DATA_LOCK;

/// The home directory, resolved and checked to be a directory (created if missing).
#[derive(Clone, Debug)]
pub struct Home(PathBuf);

impl Home {
    /// `given` (`--home`), else `$ONNX_CONFORMANCE_HOME`, else the platform's cache
    /// directory; an error names the path when it cannot be a directory.
    pub fn resolve(given: Option<&Path>) -> Result<Home, String> {
        let var = std::env::var_os(HOME_VAR).filter(|v| !v.is_empty());
        let dir = match (given, var) {
            (Some(dir), _) => dir.to_path_buf(),
            (None, Some(dir)) => PathBuf::from(dir),
            (None, None) => cache_dir()
                .ok_or_else(|| format!("no home directory: set {HOME_VAR} or give --home DIR"))?
                .join("onnx-conformance"),
        };
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "{}: the onnx-conformance home is a file, not a directory (give --home DIR or \
                 set {HOME_VAR})",
                dir.display()
            ));
        }
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("{}: cannot create the home: {e}", dir.display()))?;
        Ok(Home(dir))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// The fetched official data.
    pub fn data(&self) -> PathBuf {
        self.0.join(schema::index::DATA_DIR)
    }

    /// The lock file, written from this binary when missing or different.
    pub fn lock(&self) -> Result<PathBuf, String> {
        let path = self.0.join(schema::index::LOCK_FILE);
        if std::fs::read(&path).ok().as_deref() != Some(LOCK.as_bytes()) {
            schema::files::write_atomic(&path, LOCK.as_bytes()).map_err(|e| e.to_string())?;
        }
        Ok(path)
    }

    /// Our own cases, written from this binary into a directory named by their content's
    /// hash when not there yet, and checked file by file against it otherwise.
    pub fn own_cases(&self) -> Result<PathBuf, String> {
        let files = cases::files();
        let mut digest = schema::hash::Hasher::default();
        for (rel, bytes) in &files {
            digest.update(rel.as_bytes());
            digest.update(&[0]);
            digest.update(bytes);
        }
        let digest = digest.finish();
        let dir = self.0.join("own-cases").join(&digest[..16]);
        for (rel, bytes) in &files {
            let path = dir.join(rel);
            if std::fs::read(&path).ok().as_deref() == Some(bytes.as_slice()) {
                continue;
            }
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: cannot create: {e}", parent.display()))?;
            }
            schema::files::write_atomic(&path, bytes).map_err(|e| e.to_string())?;
        }
        Ok(dir)
    }
}

/// The platform's per-user cache directory.
fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if cfg!(windows) {
        return var("LOCALAPPDATA");
    }
    if cfg!(target_os = "macos") {
        return var("HOME").map(|h| h.join("Library").join("Caches"));
    }
    var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache")))
}

/// `onnx-conformance fetch`: the fetch of `cargo xtask fetch-tests`, into the home.
pub fn fetch(home: &Home, opts: &fetch::Options, python: Option<&Path>) -> ExitCode {
    if opts.update_lock {
        return crate::fail(
            &"--update-lock: this command's lock is compiled in; update it in a \
             checkout of onnx-conformance with `cargo xtask fetch-tests --update-lock`",
        );
    }
    let lock = match home.lock() {
        Ok(lock) => lock,
        Err(e) => return crate::fail(&e),
    };
    let paths = fetch::Paths {
        data: home.data(),
        lock,
        python: python.map_or_else(|| "python3".to_string(), |p| p.display().to_string()),
    };
    fetch::main(opts, &paths)
}
