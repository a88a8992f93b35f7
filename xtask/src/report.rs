//! `cargo xtask report [report.json]`: re-renders `report.md` and `report.html` from a
//! `report.json` (by default the last run's, under `target/onnx-conformance/`).

use std::error::Error;
use std::path::{Path, PathBuf};

/// Runs the task with the arguments after `report`.
pub fn main(args: &[String]) -> Result<(), Box<dyn Error>> {
    let dir = run(args)?;
    eprintln!("wrote {}/report.{{md,html}}", dir.display());
    Ok(())
}

fn run(args: &[String]) -> Result<PathBuf, Box<dyn Error>> {
    let json = match args {
        [] => default_dir().join("report.json"),
        [path] => PathBuf::from(path),
        _ => return Err("usage: cargo xtask report [path/to/report.json]".into()),
    };
    let report = harness::report::load(&json)?;
    let dir = json.parent().unwrap_or(Path::new(".")).to_path_buf();
    harness::report::render(&dir, &report)?;
    Ok(dir)
}

/// `target/onnx-conformance` of this workspace, honouring `CARGO_TARGET_DIR`.
pub(crate) fn default_dir() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = xtask.parent().unwrap_or(xtask);
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => workspace.join(dir),
        _ => workspace.join("target"),
    };
    target.join("onnx-conformance")
}
