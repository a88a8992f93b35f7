//! `cargo xtask backends setup`: the Python workers' venv, the tract worker's build, and the
//! conformance binary built with a linked Rust runtime (rten, candle), each step shown as it
//! runs.

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
        "iree" => Some("iree/runtime"),
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
        wanted = vec!["onnxruntime", "reference", "openvino", "iree"];
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
    for name in &wanted {
        if let Some(feature) = Shipped::find(name).and_then(Shipped::cargo_feature) {
            linked_setup(root, target, name, feature)?;
        }
    }
    for name in wanted {
        eprintln!("backends: {name}: {}", status(target, name));
    }
    Ok(())
}

fn step(what: &str, cmd: &mut Command) -> Result<(), Box<dyn Error>> {
    Ok(crate::workspace::step("backends: ", what, cmd)?)
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
            "import onnxruntime, onnx, numpy, ml_dtypes, openvino, iree.compiler, iree.runtime; \
             from onnx.reference import ReferenceEvaluator; \
             from iree.compiler import version; \
             print('onnxruntime', onnxruntime.__version__, '/ onnx', onnx.__version__, \
             '/ openvino', openvino.__version__, '/ iree', version.VERSION)",
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

/// Builds the conformance binary with the runtime's feature (its crates downloaded and
/// compiled: minutes the first time), then writes the stamp `backends list` reads as ready.
fn linked_setup(
    root: &Path,
    target: &Path,
    name: &str,
    feature: &str,
) -> Result<(), Box<dyn Error>> {
    if name == "candle" {
        protoc()?;
    }
    step(
        &format!(
            "building the conformance binary with --features {feature} ({name}; minutes the \
             first time)"
        ),
        Command::new(crate::workspace::cargo())
            .current_dir(root)
            .args([
                "test",
                "--no-run",
                "--test",
                "onnx_backend",
                "--features",
                feature,
            ]),
    )?;
    let stamp = Shipped::find(name)
        .and_then(|s| s.needs(target))
        .ok_or_else(|| format!("{name} is not a linked backend"))?;
    if let Some(dir) = stamp.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&stamp, format!("cargo test --features {feature} built\n"))
        .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(())
}

/// candle-onnx's build script compiles its `onnx.proto3` with protoc (`$PROTOC`, else the one
/// on `PATH`). When there is none, Debian's `protobuf-compiler` is installed with apt-get (as
/// root, or through sudo), as `.ci/run` installs pip; elsewhere the error says what to do.
fn protoc() -> Result<(), Box<dyn Error>> {
    if std::env::var_os("PROTOC").is_some() || crate::apt::on_path("protoc") {
        return Ok(());
    }
    let hint = "candle-onnx's build script needs protoc: install it (Debian and Ubuntu: \
                apt-get install protobuf-compiler; macOS: brew install protobuf) or point PROTOC \
                at one";
    crate::apt::install("protobuf-compiler", "candle-onnx's build runs", hint).map_err(Into::into)
}

#[cfg(test)]
mod tests;
