//! `cargo xtask bench-compare`: our kernel benchmarks beside onnxruntime, in one run, one table.
//!
//! Creates `target/bench-venv` (python3 -m venv) with the pinned onnxruntime, numpy, onnx and
//! ml_dtypes of `xtask/bench-requirements.txt` installed by its own pip, runs
//! `cargo bench --bench kernels -- --json`, then a Python script that times the same
//! single-node models in onnxruntime and prints the table (optionally also as JSON).

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python side, kept beside this file and written into `target/` at run time.
const SCRIPT: &str = include_str!("bench_compare.py");
/// What the virtual environment needs, pinned, by package name only.
const REQUIREMENTS: &str = include_str!("../bench-requirements.txt");

const USAGE: &str = "usage: cargo xtask bench-compare [--repeat N] [--simd LEVEL] [--json PATH] [--fresh-pages] [FILTER]
  --repeat N      best of N timed runs per figure (default 5)
  --simd LEVEL    cap our SIMD level: native, avx512, avx2 or baseline (sets
                  ONNX_CONFORMANCE_SIMD for the benchmark)
  --json PATH     also write the rows as JSON (element rates in Gelem/s, null where
                  onnxruntime has no kernel)
  --fresh-pages   let the allocator return freed memory to the system, so every output
                  is written to freshly faulted pages (the default keeps freed memory, as
                  onnxruntime's arena does)
  FILTER          only cases whose name contains this text";

/// Runs the comparison with the command-line arguments after `bench-compare`.
pub fn run(root: &Path, args: &[String]) -> Result<(), Box<dyn Error>> {
    let mut repeat = "5".to_owned();
    let mut fresh_pages = false;
    let mut filter = None;
    let mut simd = None;
    let mut json = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--repeat" => match it.next() {
                Some(n) if n.parse::<u32>().is_ok_and(|n| n > 0) => repeat = n.clone(),
                _ => return Err(format!("--repeat needs a positive integer\n{USAGE}").into()),
            },
            "--simd" => match it.next() {
                Some(l) if ["native", "avx512", "avx2", "baseline"].contains(&l.as_str()) => {
                    simd = Some(l.clone())
                }
                _ => {
                    return Err(
                        format!("--simd needs native, avx512, avx2 or baseline\n{USAGE}").into(),
                    )
                }
            },
            "--json" => match it.next() {
                Some(p) => json = Some(std::path::absolute(p)?),
                None => return Err(format!("--json needs a path\n{USAGE}").into()),
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
    // The cap is always set explicitly, so a stray value in the caller's environment cannot
    // change a run that asked for none.
    bench.env("ONNX_CONFORMANCE_SIMD", simd.as_deref().unwrap_or("native"));
    bench.env_remove("ONNX_CONFORMANCE_THREADS");
    let out = bench.stderr(Stdio::inherit()).output()?;
    if !out.status.success() {
        return Err(format!("cargo bench failed ({})", out.status).into());
    }
    let ours = work.join("ours.jsonl");
    write(&ours, &out.stdout)?;

    eprintln!("timing onnxruntime on the same cases");
    let script = work.join("bench_compare.py");
    write(&script, SCRIPT.as_bytes())?;
    let mut compare = Command::new(&python);
    compare
        .arg(&script)
        .arg("--ours")
        .arg(&ours)
        .args(["--repeat", &repeat]);
    if let Some(path) = &json {
        compare.arg("--json").arg(path);
    }
    let status = compare
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

/// The venv's python, creating the venv and installing the pinned packages when the venv
/// was made from another requirements text (a stamp file in the venv records the last one).
fn ensure_venv(dir: &Path) -> Result<PathBuf, Box<dyn Error>> {
    let python = dir.join("bin/python");
    if !python.exists() {
        eprintln!("creating {} (python3 -m venv)", dir.display());
        check(
            Command::new("python3").arg("-m").arg("venv").arg(dir),
            "python3 -m venv (is python3 with the venv module installed?)",
        )?;
    }
    let stamp = dir.join("bench-requirements.txt");
    if fs::read_to_string(&stamp).ok().as_deref() != Some(REQUIREMENTS) {
        let wanted = dir.join("bench-requirements.wanted.txt");
        write(&wanted, REQUIREMENTS.as_bytes())?;
        eprintln!(
            "installing xtask/bench-requirements.txt into {}",
            dir.display()
        );
        check(
            Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", "-r"])
                .arg(&wanted),
            "pip install (network access to the package index is needed once)",
        )?;
        fs::rename(&wanted, &stamp)
            .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
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
