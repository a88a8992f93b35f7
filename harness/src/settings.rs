//! The environment variables the conformance binary reads, each with the values it accepts.
//! A bad value, or an `ONNX_CONFORMANCE_*` name we do not know (a typo would otherwise be
//! ignored in silence), is a setup problem: it fails the run whatever the filter.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Environment variable selecting strict (bit-exact) comparison.
pub const STRICT_VAR: &str = "ONNX_CONFORMANCE_STRICT";
/// Environment variable naming another tree of cases to run instead of the official data.
pub const DATA_VAR: &str = "ONNX_BACKEND_DATA";
/// The prefix of our own variables; an unknown name with it is an error.
pub const PREFIX: &str = "ONNX_CONFORMANCE_";

/// Every variable of ours that the suite reads, with the values it accepts. A new variable
/// must be added here, or setting it fails the run as an unknown name.
pub const VARIABLES: &[(&str, &str)] = &[
    (
        STRICT_VAR,
        "1 or true: strict; 0, false or empty: default rules",
    ),
    (
        DATA_VAR,
        "a directory of cases to run instead of the official data; empty: the official data",
    ),
    (
        crate::backend::BACKEND_VAR,
        "native (default), onnxruntime, reference, tract, openvino or worker:<command line>",
    ),
    (
        crate::backend::TIMEOUT_VAR,
        "seconds a worker may take per data set, above 0; default 30",
    ),
    (
        crate::backend::PYTHON_VAR,
        "the Python for the onnxruntime, reference and openvino workers; default the venv of `cargo xtask backends setup`",
    ),
    (
        crate::backend::KNOWN_VAR,
        "the known-failures list of a worker: backend",
    ),
    // Read by the implementation crate itself (`onnx_conformance::tuning`), not by the harness;
    // listed so that setting them is not taken for a typo.
    (
        onnx_conformance::tuning::SIMD_VAR,
        "the highest SIMD level the kernels use: native, avx512, avx2 or baseline",
    ),
    (
        onnx_conformance::tuning::THREADS_VAR,
        "threads per kernel call; 0 or unset: the available parallelism",
    ),
];

/// A snapshot of the environment, so that tests can hand in their own.
#[derive(Clone, Debug, Default)]
pub struct Env(Vec<(OsString, OsString)>);

impl Env {
    /// The process's environment.
    pub fn from_process() -> Env {
        Env(std::env::vars_os().collect())
    }

    /// An environment holding exactly `pairs`.
    pub fn of(pairs: &[(&str, &str)]) -> Env {
        Env(pairs
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect())
    }

    /// The value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<&OsStr> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_os_str())
    }
}

/// The settings a run takes from the environment.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `ONNX_CONFORMANCE_STRICT`: bit-exact comparison.
    pub strict: bool,
    /// `ONNX_BACKEND_DATA`, resolved against the workspace, if set and not empty.
    pub data_override: Option<PathBuf>,
    /// The cargo target directory (`CARGO_TARGET_DIR`, default `<workspace>/target`).
    pub target: PathBuf,
}

/// A setup problem: the name of the check that failed and what to do about it.
pub type Problem = (String, String);

/// Reads the settings from `env`; every bad value or unknown name is a problem.
pub fn read(workspace: &Path, env: &Env) -> (Settings, Vec<Problem>) {
    let mut problems = Vec::new();
    for (key, _) in &env.0 {
        let key = key.to_string_lossy();
        if key.starts_with(PREFIX) && !VARIABLES.iter().any(|(k, _)| *k == key) {
            problems.push((
                "settings/unknown-variable".to_string(),
                format!(
                    "{key} is set, but the suite reads no such variable (a typo?); \
                     it knows: {}",
                    known_list()
                ),
            ));
        }
    }
    let strict = match flag(env, STRICT_VAR) {
        Ok(on) => on,
        Err(msg) => {
            problems.push(("settings/strict".to_string(), msg));
            false
        }
    };
    let data_override = env
        .get(DATA_VAR)
        .filter(|v| !v.is_empty())
        .map(|v| workspace.join(PathBuf::from(v)));
    let target =
        schema::workspace::target_dir(workspace, env.get(schema::workspace::TARGET_DIR_VAR));
    let settings = Settings {
        strict,
        data_override,
        target,
    };
    (settings, problems)
}

/// A yes/no variable: unset, empty, `0` or `false` is off; `1` or `true` is on.
fn flag(env: &Env, key: &str) -> Result<bool, String> {
    let Some(value) = env.get(key) else {
        return Ok(false);
    };
    match value.to_str() {
        Some("" | "0" | "false") => Ok(false),
        Some("1" | "true") => Ok(true),
        _ => Err(format!(
            "{key}={value:?} is not a value the suite accepts: use 1 or true (on), \
             0, false or empty (off)"
        )),
    }
}

fn known_list() -> String {
    let names: Vec<&str> = VARIABLES.iter().map(|(k, _)| *k).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests;
