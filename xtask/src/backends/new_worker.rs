//! `cargo xtask backends new-worker NAME`: writes a skeleton Python worker (the template
//! `worker_template.py`, with NAME substituted) that runs out of the box on onnx's reference
//! evaluator, and prints the commands that check it and run the suite with it.

use std::error::Error;
use std::path::{Component, Path, PathBuf};

/// The skeleton, with `{{NAME}}` and `{{WORKER_LOOP_DIR}}` to substitute.
const TEMPLATE: &str = include_str!("worker_template.py");

/// Where a worker called `name` is written by default: `backends/workers/<name>_worker.py`,
/// beside none of the shipped ones.
pub fn default_path(root: &Path, name: &str) -> PathBuf {
    root.join("backends")
        .join("workers")
        .join(format!("{name}_worker.py"))
}

/// The skeleton for worker `name`, finding `worker_loop.py` in `loop_dir` (a path relative to
/// the skeleton's own directory, or absolute).
pub fn render(name: &str, loop_dir: &str) -> String {
    TEMPLATE
        .replace("{{NAME}}", name)
        .replace("{{WORKER_LOOP_DIR}}", loop_dir)
}

/// `to` relative to directory `from`, both absolute and without `..`; `None` when they share
/// no root.
fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    let from: Vec<Component<'_>> = from.components().collect();
    let to: Vec<Component<'_>> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut path: PathBuf = from[common..].iter().map(|_| "..").collect();
    path.extend(&to[common..]);
    Some(path)
}

/// Writes the skeleton of worker `name` to `out` (refusing an existing file), finding
/// `worker_loop.py` in `<root>/harness/python`; returns the path written, absolute.
pub fn write(root: &Path, name: &str, out: Option<&Path>) -> Result<PathBuf, String> {
    harness::backend::check_label(name).map_err(|why| format!("new-worker: {why}"))?;
    let cwd = std::env::current_dir().map_err(|e| format!("new-worker: {e}"))?;
    let out = match out {
        Some(path) => cwd.join(path),
        None => default_path(root, name),
    };
    if out.extension().and_then(|e| e.to_str()) != Some("py") {
        return Err(format!("new-worker: {} does not end in .py", out.display()));
    }
    let dir = out
        .parent()
        .ok_or_else(|| format!("new-worker: {} has no directory", out.display()))?;
    let loop_dir = root.join("harness").join("python");
    // Relative when the skeleton is inside the repository (it moves with it), else absolute.
    let inside = dir.starts_with(root) && !dir.components().any(|c| c == Component::ParentDir);
    let loop_rel = match inside {
        true => relative(dir, &loop_dir),
        false => None,
    };
    let loop_rel = loop_rel.unwrap_or(loop_dir);
    let loop_rel = loop_rel
        .to_str()
        .ok_or("new-worker: a path that is not UTF-8")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("new-worker: {}: {e}", dir.display()))?;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&out);
    let mut file = match file {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(format!(
                "new-worker: {} exists; it is not overwritten (remove it, or give --out PATH)",
                out.display()
            ))
        }
        Err(e) => return Err(format!("new-worker: {}: {e}", out.display())),
    };
    std::io::Write::write_all(&mut file, render(name, loop_rel).as_bytes())
        .map_err(|e| format!("new-worker: {}: {e}", out.display()))?;
    Ok(out)
}

/// A word of a shell command line, quoted when it needs to be.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c));
    match plain {
        true => word.to_string(),
        false => {
            let mut out = String::from("\"");
            for c in word.chars() {
                if "\"\\$`".contains(c) {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('"');
            out
        }
    }
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
    println!("  cargo xtask backends check-worker '{command}'");
    println!("run the suite with it:");
    println!(
        "  {}='worker:{name}={command}' cargo test --test onnx_backend",
        harness::runner::BACKEND_VAR
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
