//! The one rule for where a backend's reports go, shared by the harness and the xtask.

use std::path::{Path, PathBuf};

/// A backend's report directory: `target/onnx-conformance` for native,
/// `target/onnx-conformance/backend-<name>` for every other backend (`backend-worker` for a
/// `worker:` command line, which must not become a path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportDir(PathBuf);

impl ReportDir {
    /// The directory below the target directory that holds every run's reports.
    pub const ROOT: &'static str = "onnx-conformance";

    /// `target/onnx-conformance`: native's reports, the scoreboard and the worker files.
    pub fn root(target: &Path) -> PathBuf {
        target.join(Self::ROOT)
    }

    /// The report directory of the backend named `backend` under `target`.
    pub fn of(target: &Path, backend: &str) -> ReportDir {
        let root = Self::root(target);
        ReportDir(match Self::subdir(backend) {
            Some(sub) => root.join(sub),
            None => root,
        })
    }

    /// Where a run of `backend` over the deep tree at `tree` reports:
    /// `<tree>/reports/<native or backend-name>`, apart from the official runs' reports.
    pub fn deep(tree: &Path, backend: &str) -> ReportDir {
        let sub = Self::subdir(backend).unwrap_or_else(|| "native".into());
        ReportDir(tree.join("reports").join(sub))
    }

    /// Where `cargo xtask scoreboard`'s run of `backend` reports: `scoreboard/<native or
    /// backend-name>` under the root, apart from the backend's own reports, which a
    /// scoreboard run (official cases only) would otherwise overwrite.
    pub fn scoreboard(target: &Path, backend: &str) -> ReportDir {
        let sub = Self::subdir(backend).unwrap_or_else(|| "native".into());
        ReportDir(Self::root(target).join("scoreboard").join(sub))
    }

    /// The directory below the root, `None` for native.
    fn subdir(backend: &str) -> Option<String> {
        if let Some(Ok(b)) = crate::backend::OnnxBackend::parse(backend) {
            return Some(format!("backend-{}", b.label()));
        }
        match backend {
            "native" => None,
            _ => Some(format!(
                "backend-{}",
                backend.split(':').next().unwrap_or(backend)
            )),
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The run's `report.json` in the directory ([`super::JSON_FILE`]).
    pub fn json(&self) -> PathBuf {
        self.0.join(super::JSON_FILE)
    }

    /// The directory, owned.
    pub fn into_path(self) -> PathBuf {
        self.0
    }
}
