//! `cargo xtask own-cases`: writes our own cases, in the official layout, under `tests/cases/`.
//!
//! They cover operator versions and types the official data never exercises (Cast-1 with its
//! string `to`, Concat-1 with its default axis, integer/bool casts, Concat of non-float types).
//! Expected outputs are computed here from the spec's rules with deliberately plain code
//! (Rust `as` casts, index-by-index loops), never by the kernels under test.

mod encode;
mod specs;

use prost::Message;
use std::collections::BTreeSet;
use std::error::Error;
use std::path::Path;

const USAGE: &str = "usage: cargo xtask own-cases [--check]
  (no option)  rewrite tests/cases from the generator
  --check      compare tests/cases with what the generator writes; write nothing
  -h, --help   this text";

/// Runs the task with the arguments after `own-cases` on the cases directory `root`.
pub fn main(root: &Path, args: &[String]) -> Result<(), Box<dyn Error>> {
    // `xtask/../tests/cases` reads better resolved.
    let canonical = root.canonicalize().ok();
    let shown = canonical.as_deref().unwrap_or(root).display();
    match args {
        [] => {
            let n = write(root)?;
            eprintln!("wrote {n} files under {shown}");
            Ok(())
        }
        [a] if a == "--check" => {
            let stale = check(root)?;
            if stale.is_empty() {
                eprintln!("{shown} is up to date");
                return Ok(());
            }
            Err(format!(
                "{shown} differs from the generator: {}; run `cargo xtask own-cases`",
                stale.join(", ")
            )
            .into())
        }
        [a] if a == "-h" || a == "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("unexpected arguments {args:?}\n{USAGE}").into()),
    }
}

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
    if root.exists() {
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = entry.map_err(|e| format!("cannot list {}: {e}", root.display()))?;
            if entry.file_type().is_dir() {
                continue;
            }
            let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
            let rel = rel.to_string_lossy().replace('\\', "/");
            if !generated.contains(rel.as_str()) {
                stale.push(format!("{rel} (not generated)"));
            }
        }
    }
    Ok(stale)
}

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
        let stale = check(&root).expect("readable");
        assert!(stale.is_empty(), "{stale:?}; run `cargo xtask own-cases`");
    }

    /// Every file under `root`, with its contents.
    fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
        walkdir::WalkDir::new(root)
            .sort_by_file_name()
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                (
                    e.path().display().to_string(),
                    std::fs::read(e.path()).expect("read"),
                )
            })
            .collect()
    }

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn check_and_help_write_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("cases");
        main(&root, &args(&["--help"])).expect("help");
        main(&root, &args(&["-h"])).expect("help");
        assert!(!root.exists(), "--help wrote the cases");
        let e = main(&root, &args(&["--check"])).expect_err("nothing written yet");
        assert!(e.to_string().contains("(missing)"), "{e}");
        assert!(!root.exists(), "--check wrote the cases");

        main(&root, &[]).expect("write");
        main(&root, &args(&["--check"])).expect("fresh");
        let (rel, _) = &files()[0];
        std::fs::write(root.join(rel), b"stale").expect("tamper");
        std::fs::write(root.join("extra.pb"), b"x").expect("extra");
        let before = snapshot(&root);
        let e = main(&root, &args(&["--check"])).expect_err("stale");
        let msg = e.to_string();
        assert!(msg.contains(&format!("{rel} (stale)")), "{msg}");
        assert!(msg.contains("extra.pb (not generated)"), "{msg}");
        assert_eq!(snapshot(&root), before, "--check changed files");
        assert!(main(&root, &args(&["--bogus"])).is_err());
        assert_eq!(snapshot(&root), before, "a bad option changed files");
    }
}
