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
        if let Some(rest) = backend.strip_prefix(ONNX_BACKEND_PREFIX) {
            let (module, class) = match rest.split_once(':') {
                Some((m, c)) => (m, Some(c)),
                None => (rest, None),
            };
            return Some(format!("backend-{}", onnx_backend_label(module, class)));
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

/// How an `onnx-backend:MODULE[:CLASS]` backend is written.
pub const ONNX_BACKEND_PREFIX: &str = "onnx-backend:";

/// The label that names an `onnx-backend:` backend's report directory and default list:
/// `onnx-backend.<module>[.<class>]`, lowercase, `_` as `-`.
pub fn onnx_backend_label(module: &str, class: Option<&str>) -> String {
    let mut label = format!("onnx-backend.{module}");
    if let Some(c) = class {
        label.push('.');
        label.push_str(c);
    }
    label.to_ascii_lowercase().replace('_', "-")
}
