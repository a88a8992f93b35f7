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
use std::error::Error;
use std::path::Path;

/// The files under `root` that differ from the generator's, are missing, or are extra,
/// each with what is wrong; empty when `root` is exactly what [`write`] would make.
pub fn check(root: &Path) -> Result<Vec<String>, Box<dyn Error>> {
    let mut stale = Vec::new();
    let files = files();
    for (rel, bytes) in &files {
        match std::fs::read(root.join(rel)) {
            Ok(on_disk) if on_disk == *bytes => {}
            Ok(_) => stale.push(format!("{rel} (stale)")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                stale.push(format!("{rel} (missing)"))
            }
            Err(e) => return Err(format!("cannot read {}: {e}", root.join(rel).display()).into()),
        }
    }
    let generated: BTreeSet<&str> = files.iter().map(|(rel, _)| rel.as_str()).collect();
    // The harness runs every directory under tests/cases as a case, even one without files
    // (it fails for want of model.onnx), so the directories must match as well as the files.
    let generated_dirs = directories(generated.iter().copied());
    if root.exists() {
        for entry in walkdir::WalkDir::new(root).min_depth(1).sort_by_file_name() {
            let entry = entry.map_err(|e| format!("cannot list {}: {e}", root.display()))?;
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
mod tests;
