//! `cargo xtask bench-compare`: our kernel benchmarks beside onnxruntime, in one run, one table.
//!
//! Creates `target/bench-venv` ($PYTHON -m venv, default python3) with the pinned onnxruntime, numpy, onnx and
//! ml_dtypes of `xtask/bench-requirements.txt` installed by its own pip, runs
//! `cargo bench --bench kernels -- --json`, then a Python script that times the same
//! single-node models in onnxruntime and prints the table (optionally also as JSON).

use onnx_conformance::tuning;
use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python side, kept beside this file and written into `target/` at run time.
const SCRIPT: &str = include_str!("bench_compare.py");
/// What the virtual environment needs, pinned, by package name only.
const REQUIREMENTS: &str = include_str!("../bench-requirements.txt");

/// Runs the comparison with the options after `bench-compare`.
pub fn main(root: &Path, args: &crate::cli::BenchCompare) -> Result<(), Box<dyn Error>> {
    let repeat = args.repeat.to_string();
    let json = args.json.as_deref().map(std::path::absolute).transpose()?;
    let root = &root.canonicalize()?;
    let target = crate::workspace::target_dir();
    let work = target.join("bench-compare");
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let python = ensure_venv(&target.join("bench-venv"))?;

    eprintln!("running our benchmarks (cargo bench --bench kernels -- --json)");
    let mut bench = Command::new(crate::workspace::cargo());
    bench
        .current_dir(root)
        .args(["bench", "--quiet", "--bench", "kernels", "--", "--json"])
        .args(["--repeat", &repeat])
        .args(args.filter.iter());
    if args.fresh_pages {
        bench.env("KERNELS_FRESH_PAGES", "1");
    }
    // The cap is always set explicitly, so a stray value in the caller's environment cannot
    // change a run that asked for none.
    bench.env(tuning::SIMD_VAR, &args.simd);
    bench.env_remove(tuning::THREADS_VAR);
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
        let base = crate::workspace::python();
        eprintln!("creating {} ({base} -m venv)", dir.display());
        check(
            Command::new(&base).arg("-m").arg("venv").arg(dir),
            &format!("{base} -m venv (is {base} with the venv module installed?)"),
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
