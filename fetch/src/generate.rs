//! `--generate V`: exports the node-test cases of onnx releases that no longer ship them as
//! files (1.23 and later), by running onnx's own case generators in a private virtual
//! environment, into `onnx-backend-data/onnx-<V>-generated/`.

use super::error::{Error, Result};
use super::extract::{list_files, rehash};
use super::install;
use super::present::Stats;
use super::Paths;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The exporter run inside the virtual environment.
const EXPORTER: &str = include_str!("export_cases.py");

/// What one generation produced.
pub struct Exported {
    /// Counts of the exported cases.
    pub stats: Stats,
    /// sha256 of every exported file, keyed `node/<case>/<file>` as in the lock.
    pub hashes: BTreeMap<String, String>,
    /// The versions of the packages that generated them (`generated.json`).
    pub packages: BTreeMap<String, String>,
}

/// Generates the cases of `release` with the case prefixes `ops`.
pub fn generate(paths: &Paths, release: &str, ops: &[String]) -> Result<Exported> {
    let venv = paths.data.join(format!(".venv-{release}"));
    let python = venv_python(&venv);
    if !python.is_file() {
        eprintln!("  onnx {release}: creating {}", venv.display());
        run(
            Command::new(&paths.python).arg("-m").arg("venv").arg(&venv),
            "create a venv",
        )
        .map_err(|e| e.hint("install Python's venv module (e.g. python3-venv), or set PYTHON"))?;
    }
    eprintln!("  onnx {release}: pip install onnx=={release}");
    run(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(format!("onnx=={release}")),
        "install onnx",
    )
    .map_err(|e| {
        e.hint("check that your package index has this release and that pip can reach it")
    })?;
    let script = venv.join("export_cases.py");
    schema::files::write_atomic(&script, EXPORTER.as_bytes()).map_err(Error::from)?;
    let name = format!("{release}{}", schema::index::GENERATED_SUFFIX);
    let tmp = install::make_temp_dir(&paths.data, &name)?;
    let exported = run(
        Command::new(&python)
            .arg(&script)
            .arg(&tmp)
            .arg(ops.join(",")),
        "export the cases",
    )
    .and_then(|()| list_files(&tmp));
    let files = match exported.and_then(|f| install::install(&paths.data, &name, &tmp).map(|()| f))
    {
        Ok(f) => f,
        Err(e) => {
            install::discard(&tmp);
            return Err(e);
        }
    };
    let stats = Stats::of(&files);
    let dir = install::release_dir(&paths.data, &name);
    eprintln!(
        "  onnx {release}: exported {} into {}",
        super::plural(stats.cases, "case"),
        dir.display()
    );
    let hashes = rehash(&dir, &files)?;
    let packages = packages(&dir.join("generated.json"))?;
    Ok(Exported {
        stats,
        hashes,
        packages,
    })
}

/// The package versions of `generated.json` (the string-valued entries but `prefixes`).
fn packages(path: &Path) -> Result<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
    let all: BTreeMap<String, serde_json::Value> = serde_json::from_str(&text)
        .map_err(|e| Error::new(format!("{}: not valid JSON: {e}", path.display())))?;
    Ok(all
        .into_iter()
        .filter_map(|(k, v)| Some((k, v.as_str()?.to_string())))
        .collect())
}

fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    }
}

/// Runs `cmd` with its output shown to the user; a failure names the step.
fn run(cmd: &mut Command, step: &str) -> Result<()> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    // The user sees pip's and the exporter's messages, but our stdout stays clean.
    let status = cmd
        .stdout(std::io::stderr())
        .status()
        .map_err(|e| Error::new(format!("cannot {step}: cannot run `{program}`: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "cannot {step}: `{program}` failed ({status})"
        )))
    }
}
