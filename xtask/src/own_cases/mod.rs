//! `cargo xtask own-cases`: writes our own cases, in the official layout, under `tests/cases/`.
//!
//! They cover operator versions and types the official data never exercises (Cast-1 with its
//! string `to`, Concat-1 with its default axis, integer/bool casts, Concat of non-float types).
//! Expected outputs are computed here from the spec's rules with deliberately plain code
//! (Rust `as` casts, index-by-index loops), never by the kernels under test.

mod encode;
mod specs;

use prost::Message;
use std::error::Error;
use std::path::Path;

/// Every file of every own case: (path relative to the cases dir, bytes).
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for spec in specs::cast_specs().into_iter().chain(specs::concat_specs()) {
        let dir = spec.name;
        out.push((
            format!("{dir}/model.onnx"),
            encode::model(&spec).encode_to_vec(),
        ));
        for (kind, tensors) in [("input", &spec.inputs), ("output", &spec.outputs)] {
            for (k, t) in tensors.iter().enumerate() {
                let pb = encode::tensor_proto(&format!("{kind}_{k}"), t).encode_to_vec();
                out.push((format!("{dir}/test_data_set_0/{kind}_{k}.pb"), pb));
            }
        }
    }
    out
}

/// Writes every own case under `root` (normally `tests/cases`), replacing what is there.
pub fn write(root: &Path) -> Result<usize, Box<dyn Error>> {
    if root.exists() {
        std::fs::remove_dir_all(root)
            .map_err(|e| format!("cannot clear {}: {e}", root.display()))?;
    }
    let files = files();
    for (rel, bytes) in &files {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(files.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed `tests/cases` must be exactly what the generator writes.
    #[test]
    fn committed_cases_are_fresh() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases");
        for (rel, bytes) in files() {
            let path = root.join(&rel);
            let on_disk = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("{}: {e}; run `cargo xtask own-cases`", path.display()));
            assert!(
                on_disk == bytes,
                "{rel} is stale; run `cargo xtask own-cases`"
            );
        }
    }
}
