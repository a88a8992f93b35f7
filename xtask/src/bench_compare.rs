//! `cargo xtask bench-compare`: our kernel benchmarks beside onnxruntime, in one run, one table.
//!
//! Creates `target/bench-venv` (python3 -m venv) with onnxruntime, numpy, onnx and ml_dtypes
//! installed by its own pip, runs `cargo bench --bench kernels -- --json`, then a Python
//! script that times the same single-node models in onnxruntime and prints the table.

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python side, kept beside this file and written into `target/` at run time.
const SCRIPT: &str = include_str!("bench_compare.py");
/// What the virtual environment needs, by package name only.
const PACKAGES: &[&str] = &["onnxruntime", "numpy", "onnx", "ml_dtypes"];

const USAGE: &str = "usage: cargo xtask bench-compare [--repeat N] [--fresh-pages] [FILTER]
  --repeat N      best of N timed runs per figure (default 5)
  --fresh-pages   let the allocator return freed memory to the system, so every output
                  is written to freshly faulted pages (the default keeps freed memory, as
                  onnxruntime's arena does)
  FILTER          only cases whose name contains this text";

/// Runs the comparison with the command-line arguments after `bench-compare`.
pub fn run(root: &Path, args: &[String]) -> Result<(), Box<dyn Error>> {
    let mut repeat = "5".to_owned();
    let mut fresh_pages = false;
    let mut filter = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--repeat" => match it.next() {
                Some(n) if n.parse::<u32>().is_ok_and(|n| n > 0) => repeat = n.clone(),
                _ => return Err(format!("--repeat needs a positive integer\n{USAGE}").into()),
            },
            "--fresh-pages" => fresh_pages = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}").into()),
            s => filter = Some(s.to_owned()),
        }
    }
    let root = &root.canonicalize()?;
    let work = root.join("target/bench-compare");
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let python = ensure_venv(&root.join("target/bench-venv"))?;

    eprintln!("running our benchmarks (cargo bench --bench kernels -- --json)");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut bench = Command::new(cargo);
    bench
        .current_dir(root)
        .args(["bench", "--quiet", "--bench", "kernels", "--", "--json"])
        .args(["--repeat", &repeat])
        .args(filter.iter());
    if fresh_pages {
        bench.env("KERNELS_FRESH_PAGES", "1");
    }
    let out = bench.stderr(Stdio::inherit()).output()?;
    if !out.status.success() {
        return Err(format!("cargo bench failed ({})", out.status).into());
    }
    let ours = work.join("ours.jsonl");
    write(&ours, &out.stdout)?;

    eprintln!("timing onnxruntime on the same cases");
    let script = work.join("bench_compare.py");
    write(&script, SCRIPT.as_bytes())?;
    let status = Command::new(&python)
        .arg(&script)
        .arg("--ours")
        .arg(&ours)
        .args(["--repeat", &repeat])
        .status()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !status.success() {
        return Err(format!("{} failed ({status})", script.display()).into());
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Box<dyn Error>> {
    fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()).into())
}

/// The venv's python, creating the venv and installing the packages when they are missing.
fn ensure_venv(dir: &Path) -> Result<PathBuf, Box<dyn Error>> {
    let python = dir.join("bin/python");
    if !python.exists() {
        eprintln!("creating {} (python3 -m venv)", dir.display());
        check(
            Command::new("python3").arg("-m").arg("venv").arg(dir),
            "python3 -m venv (is python3 with the venv module installed?)",
        )?;
    }
    let probe = format!("import {}", PACKAGES.join(", "));
    let present = Command::new(&python)
        .args(["-c", &probe])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !present {
        eprintln!("installing {} into {}", PACKAGES.join(" "), dir.display());
        check(
            Command::new(&python)
                .args(["-m", "pip", "install", "--quiet"])
                .args(PACKAGES),
            "pip install (network access to the package index is needed once)",
        )?;
    }
    Ok(python)
}

fn check(cmd: &mut Command, what: &str) -> Result<(), Box<dyn Error>> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})").into())
    }
}
