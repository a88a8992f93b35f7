//! Which trials exist: official instances from `index.json` (no model or .pb is opened),
//! any tree given by `ONNX_BACKEND_DATA`, our own `tests/cases/`, and the guards that turn
//! missing or incomplete data into failing trials instead of a silently green run.

use crate::index::{Index, Lock, DATA_DIR, INDEX_FILE, LOCK_FILE};
use crate::outcome::{CUSTOM, OWN};
use schema::layout;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One trial to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The libtest name, as in `onnx-1.22.0/opset25/test_cast_FLOAT_to_FLOAT8E4M3FN`.
    pub name: String,
    /// What the trial does.
    pub kind: SpecKind,
}

/// What a trial does.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecKind {
    /// Runs one case directory.
    Case(CaseSpec),
    /// Always fails with this message: data missing, incomplete or unreadable.
    Guard(String),
}

impl Spec {
    /// A guard's message (why the setup check fails); empty for a case.
    pub(crate) fn guard_text(&self) -> &str {
        match &self.kind {
            SpecKind::Guard(msg) => msg,
            SpecKind::Case(_) => "",
        }
    }
}

/// A case directory and what is known about it before opening it.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseSpec {
    /// The case directory.
    pub dir: PathBuf,
    /// The release (`1.22.0`), or `custom` / `own` for other trees.
    pub release: String,
    /// The case name (the directory name).
    pub case: String,
    /// The node's op_type, when the index says.
    pub op_type: Option<String>,
    /// The model opset, when the index says; otherwise read from the model at run time.
    pub opset: Option<i64>,
    /// Whether the index listed this directory (its absence then means incomplete data).
    pub indexed: bool,
}

/// Name of the trial that fails when there is no data at all.
pub const MISSING_TRIAL: &str = "onnx-backend-data/missing";

/// Where a run reads its cases and lists from.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The base of relative paths in variables, of the default `target/`, and of the commit
    /// recorded in the report.
    pub root: PathBuf,
    /// The official data: `index.json` and the release directories.
    pub data: PathBuf,
    /// The lock file the index is checked against for completeness (and a failing case's
    /// files for damage); `None` checks neither.
    pub lock: Option<PathBuf>,
    /// Own cases run beside the data (`tests/cases`), if any.
    pub own_cases: Option<PathBuf>,
    /// Tolerance overrides (`tests/tolerances.json`), if any.
    pub tolerances: Option<PathBuf>,
}

impl Layout {
    /// This repository's layout, at `workspace`.
    pub fn workspace(workspace: &Path) -> Layout {
        Layout {
            root: workspace.to_path_buf(),
            data: workspace.join(DATA_DIR),
            lock: Some(workspace.join(LOCK_FILE)),
            own_cases: Some(workspace.join("tests").join("cases")),
            tolerances: Some(workspace.join("tests").join("tolerances.json")),
        }
    }
}

/// Every trial: the official data (or the `data_override` tree instead), then the own cases.
pub fn discover(layout: &Layout, data_override: Option<&Path>) -> Vec<Spec> {
    let mut specs = match data_override {
        Some(root) => custom(root),
        None => official(&layout.data, layout.lock.as_deref()),
    };
    if let Some(own_root) = layout.own_cases.as_deref().filter(|d| d.is_dir()) {
        specs.extend(walk_cases(own_root, OWN));
    }
    specs
}

fn guard(name: &str, message: String) -> Spec {
    Spec {
        name: name.to_string(),
        kind: SpecKind::Guard(message),
    }
}

/// Trials for the official data in `data`, checked against the lock file when there is one.
pub fn official(data: &Path, lock: Option<&Path>) -> Vec<Spec> {
    let index_path = data.join(INDEX_FILE);
    let text = match std::fs::read_to_string(&index_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let missing = match data.is_dir() {
                true => index_path.display().to_string(),
                false => format!("the data directory {}", data.display()),
            };
            let msg = format!(
                "no official test data: {missing} not found; run `cargo xtask fetch-tests` \
                 of onnx-conformance (or set ONNX_BACKEND_DATA=<dir> to run another tree of \
                 cases)"
            );
            return vec![guard(MISSING_TRIAL, msg)];
        }
        Err(e) => {
            let msg = format!("{}: cannot read: {e}", index_path.display());
            return vec![guard("onnx-backend-data/index", msg)];
        }
    };
    let index: Index = match serde_json::from_str(&text) {
        Ok(index) => index,
        Err(e) => {
            let msg = format!(
                "{}: invalid index: {e}; run `cargo xtask fetch-tests` again",
                index_path.display()
            );
            return vec![guard("onnx-backend-data/index", msg)];
        }
    };
    let mut specs: Vec<Spec> = index
        .instances
        .iter()
        .map(|i| Spec {
            name: format!("onnx-{}/opset{}/{}", i.release, i.opset, i.case),
            kind: SpecKind::Case(CaseSpec {
                dir: data.join(&i.dir),
                release: i.release.clone(),
                case: i.case.clone(),
                op_type: Some(i.op_type.clone()),
                opset: Some(i.opset),
                indexed: true,
            }),
        })
        .collect();
    specs.extend(lock.and_then(|lock| lock_guard(lock, &index)));
    specs
}

/// A failing trial when the lock file is missing or lists instances the index lacks.
fn lock_guard(lock_path: &Path, index: &Index) -> Option<Spec> {
    let lock: Lock = match std::fs::read_to_string(lock_path) {
        Ok(text) => match serde_json::from_str(&text) {
            Ok(lock) => lock,
            Err(e) => {
                let msg = format!("{}: invalid lock file: {e}", lock_path.display());
                return Some(guard("onnx-backend-data/lock", msg));
            }
        },
        Err(e) => {
            let msg = format!(
                "{}: cannot read ({e}), so the index cannot be checked for completeness",
                lock_path.display()
            );
            return Some(guard("onnx-backend-data/lock", msg));
        }
    };
    let have: BTreeSet<(&str, &str)> = index
        .instances
        .iter()
        .map(|i| (i.release.as_str(), i.case.as_str()))
        .collect();
    let missing: Vec<String> = lock
        .releases
        .iter()
        .flat_map(|r| r.cases().into_iter().map(move |c| (r.release.as_str(), c)))
        .filter(|key| !have.contains(key))
        .map(|(r, c)| format!("onnx-{r}/{c}"))
        .collect();
    let locked = lock.case_count();
    if missing.is_empty() && index.instances.len() >= locked {
        return None;
    }
    let shown: Vec<&str> = missing.iter().take(5).map(String::as_str).collect();
    let msg = format!(
        "index.json lists {} case instances but {} lists {locked}; {} missing, first: {}; \
         run `cargo xtask fetch-tests` again",
        index.instances.len(),
        LOCK_FILE,
        missing.len(),
        shown.join(", ")
    );
    Some(guard("onnx-backend-data/incomplete", msg))
}

/// Trials for every case directory under `root` (named `custom/opset<N>/<relative path>`).
pub fn custom(root: &Path) -> Vec<Spec> {
    if !root.is_dir() {
        let msg = format!("ONNX_BACKEND_DATA={}: not a directory", root.display());
        return vec![guard("custom/missing", msg)];
    }
    let specs = walk_cases(root, CUSTOM);
    if specs.is_empty() {
        let msg = format!(
            "ONNX_BACKEND_DATA={}: no case directory (one holding model.onnx or \
             test_data_set_N) found",
            root.display()
        );
        return vec![guard("custom/empty", msg)];
    }
    specs
}

/// Trials for every case directory under `root`: each directory holding a `model.onnx` or a
/// `test_data_set_N` directory (a case without its model then fails, saying so). A trial is
/// named `<prefix>/opset<N>/<relative dir>` with the model's opset, as the official trials
/// are, so that an opset filter selects it; only `model.onnx` is read, never a `.pb`. A model
/// that cannot be read leaves the opset out of the name, and its trial fails with the reason.
pub fn walk_cases(root: &Path, prefix: &str) -> Vec<Spec> {
    let mut specs: Vec<Spec> = Vec::new();
    let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
    for entry in walkdir::WalkDir::new(root).follow_links(true) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let name = format!("{prefix}/unreadable-{}", specs.len());
                specs.push(guard(&name, format!("cannot list {}: {e}", root.display())));
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy();
        let is_case_part = match entry.file_type().is_dir() {
            true => name.starts_with(layout::DATA_SET_PREFIX),
            false => name == layout::MODEL && entry.file_type().is_file(),
        };
        if let (true, Some(dir)) = (is_case_part, entry.path().parent()) {
            dirs.insert(dir.to_path_buf());
        }
    }
    specs.extend(dirs.into_iter().map(|dir| case_spec(root, prefix, dir)));
    specs.sort_by(|a, b| a.name.cmp(&b.name));
    specs
}

/// The trial of case directory `dir` under `root`.
fn case_spec(root: &Path, prefix: &str, dir: PathBuf) -> Spec {
    let rel = dir.strip_prefix(root).unwrap_or(&dir);
    let rel: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let case = rel.last().cloned().unwrap_or_else(|| prefix.to_string());
    let opset = crate::read::read_model(&layout::model(&dir))
        .ok()
        .map(|m| m.opset);
    let mut name = prefix.to_string();
    if let Some(opset) = opset {
        name.push_str(&format!("/opset{opset}"));
    }
    if !rel.is_empty() {
        name.push('/');
        name.push_str(&rel.join("/"));
    }
    Spec {
        name,
        kind: SpecKind::Case(CaseSpec {
            dir,
            release: prefix.to_string(),
            case,
            op_type: None,
            opset,
            indexed: false,
        }),
    }
}

#[cfg(test)]
mod tests;
