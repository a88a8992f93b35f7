//! `cargo xtask deep-audit`: every expected element of the deep tree checked against onnx's
//! reference evaluator, each difference under a named, verified rule of docs/semantics.md
//! (docs/deep.md, "Auditing the expected values"). The work is done by
//! `backends/python/deep_audit.py` in the venv of `cargo xtask backends setup reference`;
//! this module finds the tree and the interpreter and, for `--self-test`, makes sure the tree
//! is current.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The script that audits a tree.
pub const SCRIPT: &str = "backends/python/deep_audit.py";

/// The packages the script imports, each a directory of the venv's site-packages.
const PACKAGES: [&str; 3] = ["onnx", "ml_dtypes", "numpy"];

/// Runs `cargo xtask deep-audit`.
pub fn main(root: &Path, args: &crate::cli::DeepAudit) -> Result<(), Box<dyn Error>> {
    let target = crate::workspace::target_dir();
    let python = interpreter(&target)?;
    let tree = (args.tree.clone()).unwrap_or_else(|| deep::index::default_dir(&target));
    // The audit reads the tree (and writes audit.json into it): held against a writer of it.
    let lock = deep::runs::lock(
        &tree,
        "cargo xtask deep-audit",
        deep::WhenBusy::Wait,
        &crate::say,
    )?;
    let mut cmd = Command::new(&python);
    cmd.arg(root.join(SCRIPT)).arg("--tree").arg(&tree);
    if args.self_test {
        if args.tree.is_none() {
            refresh(&lock)?;
        }
        let scratch = target.join("onnx-conformance").join("deep-audit-self-test");
        cmd.arg("--self-test").arg("--scratch").arg(&scratch);
    } else {
        if let Some(why) = deep::index::missing(&tree) {
            return Err(format!("{why}, or give --tree").into());
        }
        let json = args.json.clone().unwrap_or_else(|| tree.join("audit.json"));
        cmd.arg("--json").arg(json);
        cmd.arg("--workers").arg(args.workers.to_string());
        // Every file must be what onnx.save writes (the encoding-variant cases excepted).
        cmd.arg("--strict-encoding");
        for case in &args.cases {
            cmd.arg("--case").arg(case);
        }
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !status.success() {
        let what = if args.self_test {
            "deep-audit --self-test failed"
        } else {
            "deep-audit failed"
        };
        return Err(format!("{what} ({status}); see the output above").into());
    }
    Ok(())
}

/// The Python of the reference backend's venv, with the packages the script imports.
pub fn interpreter(target: &Path) -> Result<PathBuf, Box<dyn Error>> {
    let venv = harness::backend::python_venv(target);
    let python = venv.join("bin").join("python");
    if !python.exists() {
        return Err(format!(
            "deep-audit needs onnx's reference evaluator in {}: run `cargo xtask backends \
             setup reference` first",
            venv.display()
        )
        .into());
    }
    if let Some(missing) = PACKAGES.iter().find(|p| !venv_has(&venv, p)) {
        return Err(format!(
            "the venv {} lacks {missing}: run `cargo xtask backends setup reference`",
            venv.display()
        )
        .into());
    }
    Ok(python)
}

/// Whether `venv` holds package `name` (a directory with `__init__.py` in site-packages).
fn venv_has(venv: &Path, name: &str) -> bool {
    let Ok(libs) = std::fs::read_dir(venv.join("lib")) else {
        return false;
    };
    libs.flatten().any(|lib| {
        lib.path()
            .join("site-packages")
            .join(name)
            .join("__init__.py")
            .exists()
    })
}

/// Writes the tree `lock` holds again unless these sources wrote it (unchanged files stay, so
/// a current tree costs a few seconds).
fn refresh(lock: &deep::DirLock) -> Result<(), Box<dyn Error>> {
    if !deep::is_current(lock.dir()) {
        let tree = lock.dir().display();
        eprintln!("deep-audit: writing the deep tree under {tree} first");
        deep::write(lock)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
