//! `cargo xtask backends new-worker NAME`: writes a skeleton Python worker (the template
//! `worker_template.py`, with NAME substituted) that runs out of the box on onnx's reference
//! evaluator, and prints the commands that check it and run the suite with it.

use harness::worker_skeleton::{self, quoted, LoopAt, Words};
use std::error::Error;
use std::path::{Path, PathBuf};

/// Where a worker called `name` is written by default: `backends/workers/<name>_worker.py`,
/// beside none of the shipped ones.
pub fn default_path(root: &Path, name: &str) -> PathBuf {
    root.join("backends")
        .join("workers")
        .join(format!("{name}_worker.py"))
}

/// Writes the skeleton of worker `name` to `out` (refusing an existing file), finding
/// `worker_loop.py` in `<root>/harness/python`; returns the path written, absolute.
pub fn write(root: &Path, name: &str, out: Option<&Path>) -> Result<PathBuf, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("new-worker: {e}"))?;
    let out = match out {
        Some(path) => cwd.join(path),
        None => default_path(root, name),
    };
    let at = LoopAt::Dir {
        dir: root.join("harness").join("python"),
        root: root.to_path_buf(),
    };
    let words = Words {
        written_by: &format!("cargo xtask backends new-worker {name}"),
        check: "cargo xtask backends check-worker '<python> <this file>'",
    };
    let written =
        worker_skeleton::write(name, &out, &at, &words).map_err(|e| format!("new-worker: {e}"))?;
    Ok(written.worker)
}

/// The task: writes the skeleton and prints how to check it and run the suite with it.
pub fn run(
    root: &Path,
    target: &Path,
    name: &str,
    out: Option<&Path>,
) -> Result<(), Box<dyn Error>> {
    let path = write(root, name, out)?;
    let venv = harness::backend::python_venv(target)
        .join("bin")
        .join("python");
    let python = match venv.exists() {
        true => venv.display().to_string(),
        false => "python3".to_string(),
    };
    let command = format!(
        "{} {}",
        quoted(&python),
        quoted(&path.display().to_string())
    );
    println!("wrote {}", path.display());
    println!("check it step by step:");
    println!("  cargo xtask backends check-worker {}", quoted(&command));
    println!("run the suite with it:");
    println!(
        "  {}={} cargo test --test onnx_backend",
        harness::runner::BACKEND_VAR,
        quoted(&format!("worker:{name}={command}"))
    );
    let list = harness::backend::list_path(root, name);
    println!(
        "then write its known-failures list, {}, from that run (the run fails until the list \
         exists):",
        list.strip_prefix(root).unwrap_or(&list).display()
    );
    println!("  cargo xtask backends known-failures {name}");
    if !venv.exists() {
        println!(
            "(python3 needs onnx installed; `cargo xtask backends setup reference` makes a venv \
             that has it)"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests;
