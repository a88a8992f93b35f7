//! The Python workers, compiled into this crate: written out when a backend starts, so that a
//! run needs no checkout of this repository (a runtime judged from its own CI, or the
//! installed command). Every shipped Python backend and the `onnx-backend:` adapter run from
//! this one copy.

use crate::error::Error;
use std::path::{Path, PathBuf};

/// Every script a Python backend runs, as (file name, text): the shared protocol loop first.
const SCRIPTS: [(&str, &str); 6] = [
    (
        "worker_loop.py",
        include_str!("../../python/worker_loop.py"),
    ),
    (
        "onnxruntime_worker.py",
        include_str!("../../python/onnxruntime_worker.py"),
    ),
    (
        "reference_worker.py",
        include_str!("../../python/reference_worker.py"),
    ),
    (
        "openvino_worker.py",
        include_str!("../../python/openvino_worker.py"),
    ),
    (
        "iree_worker.py",
        include_str!("../../python/iree_worker.py"),
    ),
    (
        "onnx_backend_worker.py",
        include_str!("../../python/onnx_backend_worker.py"),
    ),
];

/// The protocol loop every Python worker imports (`worker_loop.py`), as compiled in.
pub(crate) fn worker_loop() -> &'static str {
    SCRIPTS[0].1
}

/// The path of worker `script` (a file name of [`SCRIPTS`]) after writing every script into a
/// directory of `dir` named by their content's hash (two builds of this crate never share
/// one). A file already there with the same bytes is left alone; any other is written aside
/// and renamed, so two runs starting at once both find whole scripts.
pub(crate) fn script(dir: &Path, script: &str) -> Result<PathBuf, Error> {
    if !SCRIPTS.iter().any(|(name, _)| *name == script) {
        return Err(Error::msg(format!(
            "no Python worker {script} is compiled in"
        )));
    }
    let mut all = Vec::new();
    for (name, text) in SCRIPTS {
        all.extend_from_slice(name.as_bytes());
        all.push(0);
        all.extend_from_slice(text.as_bytes());
        all.push(0);
    }
    let digest = schema::hash::sha256_hex(&all);
    let dir = dir.join(format!("python-{}", &digest[..12]));
    std::fs::create_dir_all(&dir).map_err(|e| Error::at(&dir, format!("cannot create: {e}")))?;
    for (name, text) in SCRIPTS {
        let path = dir.join(name);
        if !std::fs::read(&path).is_ok_and(|held| held == text.as_bytes()) {
            schema::files::write_atomic(&path, text.as_bytes())?;
        }
    }
    Ok(dir.join(script))
}

#[cfg(test)]
mod tests;
