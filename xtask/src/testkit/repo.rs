//! The repository as the guards on its text see it: its root and its tracked files.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the xtask's parent directory).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The tracked files, from git; without git (a source archive), every file outside the
/// build, data and VCS directories, so the guard still runs.
pub fn tracked_files(root: &Path) -> Vec<PathBuf> {
    let listed = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
        .ok()
        .filter(|out| out.status.success() && !out.stdout.is_empty());
    if let Some(out) = listed {
        return out
            .stdout
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| root.join(String::from_utf8_lossy(name).as_ref()))
            .collect();
    }
    let skip = ["target", ".git", "onnx-backend-data"];
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| !skip.iter().any(|s| e.file_name() == *s))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}
