//! `cargo xtask backends setup`: the Python workers' venv and the tract worker's build, each
//! step shown as it runs.

use harness::backend::{python_venv, Shipped};
use std::error::Error;
use std::path::Path;
use std::process::Command;

/// Whether `name` is ready to run, in words.
pub fn status(target: &Path, name: &str) -> String {
    let ready = |p: &Path, what: &str| {
        if p.exists() {
            format!("ready ({})", p.display())
        } else {
            format!("not set up: cargo xtask backends setup {what}")
        }
    };
    match Shipped::find(name).map(|s| s.needs(target)) {
        Some(None) => "ready (built in)".into(),
        Some(Some(needed)) => match python_module(name) {
            Some(module) if needed.exists() && !venv_has(target, module) => format!(
                "not set up ({module} is not in the venv): cargo xtask backends setup {name}"
            ),
            _ => ready(&needed, name),
        },
        None => "unknown".into(),
    }
}

/// The Python package a Python backend imports.
fn python_module(name: &str) -> Option<&'static str> {
    match name {
        "onnxruntime" => Some("onnxruntime"),
        "reference" => Some("onnx"),
        "openvino" => Some("openvino"),
        _ => None,
    }
}

/// Whether the venv holds package `module`: a venv made before a runtime joined the
/// requirements file lacks it.
fn venv_has(target: &Path, module: &str) -> bool {
    let Ok(libs) = std::fs::read_dir(python_venv(target).join("lib")) else {
        return false;
    };
    libs.flatten().any(|lib| {
        lib.path()
            .join("site-packages")
            .join(module)
            .join("__init__.py")
            .exists()
    })
}

/// Sets up the named backends (by default the Python ones).
pub fn run(root: &Path, target: &Path, names: &[String]) -> Result<(), Box<dyn Error>> {
    let mut wanted: Vec<&str> = names.iter().map(String::as_str).collect();
    if wanted.is_empty() {
        wanted = vec!["onnxruntime", "reference", "openvino"];
    }
    if wanted == ["all"] {
        wanted = super::shipped();
    }
    if let Some(bad) = wanted.iter().find(|n| !super::shipped().contains(n)) {
        return Err(format!(
            "unknown backend {bad:?}: setup knows {} (native needs none; a worker: backend is \
             yours to install)",
            super::shipped().join(", ")
        )
        .into());
    }
    if wanted.iter().any(|n| python_module(n).is_some()) {
        python_venv_setup(root, target)?;
    }
    if wanted.contains(&"tract") {
        tract_setup(root, target)?;
    }
    for name in wanted {
        eprintln!("backends: {name}: {}", status(target, name));
    }
    Ok(())
}

fn step(what: &str, cmd: &mut Command) -> Result<(), Box<dyn Error>> {
    eprintln!("backends: {what}");
    let status = cmd
        .status()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", cmd.get_program()))?;
    if !status.success() {
        return Err(format!("{what} failed ({status})").into());
    }
    Ok(())
}

/// The venv the Python workers share, with the pinned requirements installed by its pip.
fn python_venv_setup(root: &Path, target: &Path) -> Result<(), Box<dyn Error>> {
    let venv = python_venv(target);
    let python = venv.join("bin/python");
    let base = crate::workspace::python();
    if !python.exists() {
        step(
            &format!("creating {} with {base} -m venv", venv.display()),
            Command::new(&base).arg("-m").arg("venv").arg(&venv),
        )
        .map_err(|e| {
            format!(
                "{e}\nhint: install Python 3 with its venv module (Debian: python3-venv), or \
                 set PYTHON to an interpreter that has it"
            )
        })?;
    }
    let requirements = root.join("backends/python/requirements.txt");
    step(
        &format!(
            "installing {} into the venv (pip's progress follows)",
            requirements.display()
        ),
        Command::new(&python)
            .args(["-m", "pip", "install", "--disable-pip-version-check", "-r"])
            .arg(&requirements),
    )?;
    // A worker that cannot import its runtime says so here, not on the first trial.
    step(
        "checking that the workers' imports load",
        Command::new(&python).args([
            "-c",
            "import onnxruntime, onnx, numpy, ml_dtypes, openvino; \
             from onnx.reference import ReferenceEvaluator; \
             print('onnxruntime', onnxruntime.__version__, '/ onnx', onnx.__version__, \
             '/ openvino', openvino.__version__)",
        ]),
    )
}

/// Builds the tract worker into `target/backends/tract`, outside the workspace build.
fn tract_setup(root: &Path, target: &Path) -> Result<(), Box<dyn Error>> {
    let cargo = crate::workspace::cargo();
    step(
        "building backends/tract-worker (tract-onnx; several minutes the first time)",
        Command::new(cargo)
            .args(["build", "--release", "--manifest-path"])
            .arg(root.join("backends/tract-worker/Cargo.toml"))
            .arg("--target-dir")
            .arg(target.join("backends/tract")),
    )
}

#[cfg(test)]
mod tests;
