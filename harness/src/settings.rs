//! The environment variables the conformance binary reads, each with the values it accepts.
//! A bad value, or an `ONNX_CONFORMANCE_*` name we do not know (a typo would otherwise be
//! ignored in silence), is a setup problem: it fails the run whatever the filter.

use crate::source::{DeepSource, Source};
use schema::files::WhenBusy;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Environment variable selecting strict (bit-exact) comparison.
pub const STRICT_VAR: &str = "ONNX_CONFORMANCE_STRICT";
/// Environment variable naming another tree of cases to run instead of the official data.
pub const DATA_VAR: &str = "ONNX_BACKEND_DATA";
/// Environment variable choosing the backend; `native` when unset.
pub const BACKEND_VAR: &str = "ONNX_CONFORMANCE_BACKEND";
/// Environment variable: seconds a worker may take per data set (default 30).
pub const TIMEOUT_VAR: &str = "ONNX_CONFORMANCE_TIMEOUT";
/// Environment variable: the Python interpreter for the Python workers, instead of the venv
/// that `cargo xtask backends setup` makes.
pub const PYTHON_VAR: &str = "ONNX_CONFORMANCE_PYTHON";
/// Environment variable: the known-failures list of a `worker:` backend.
pub const KNOWN_VAR: &str = "ONNX_CONFORMANCE_KNOWN_FAILURES";
/// The per-data-set deadline of a worker when `ONNX_CONFORMANCE_TIMEOUT` is not set.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Environment variable choosing the suite: the official data (default) or the deep tree.
pub const SUITE_VAR: &str = "ONNX_CONFORMANCE_SUITE";
/// Environment variable naming the directory a run writes its reports to, instead of the
/// backend's own (`cargo xtask scoreboard` sets it, so that its runs never overwrite them).
pub const REPORT_DIR_VAR: &str = "ONNX_CONFORMANCE_REPORT_DIR";
/// Environment variable: what a run does when another run holds its report directory:
/// `wait` (default) or `stop`.
pub const WHEN_BUSY_VAR: &str = "ONNX_CONFORMANCE_WHEN_BUSY";
/// Environment variable: the `onnx-conformance` command's home (its fetched data, lock and own
/// cases); the suite run by cargo ignores it.
pub const HOME_VAR: &str = "ONNX_CONFORMANCE_HOME";
/// The configuration a backend that declares several runs in (a worker reads it too).
pub const CONFIGURATION_VAR: &str = "ONNX_CONFORMANCE_CONFIGURATION";
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
        SUITE_VAR,
        "deep: the tree of `cargo xtask deep-cases`, compared bit for bit; official or empty: the official data",
    ),
    (
        BACKEND_VAR,
        "native (default), onnxruntime, reference, tract, openvino, iree or worker:<label>=<command line>",
    ),
    (
        TIMEOUT_VAR,
        "seconds a worker may take per data set, above 0; default 30",
    ),
    (
        PYTHON_VAR,
        "the Python for the onnxruntime, reference, openvino and iree workers; default the venv of `cargo xtask backends setup`",
    ),
    (
        KNOWN_VAR,
        "the known-failures list of a worker: backend, instead of tests/known-failures/<label>.json",
    ),
    (
        REPORT_DIR_VAR,
        "the directory the reports are written to, instead of target/onnx-conformance[/backend-<name>]; empty: the backend's own",
    ),
    (
        HOME_VAR,
        "the onnx-conformance command's home (data, lock, own cases); ignored by cargo test",
    ),
    (
        CONFIGURATION_VAR,
        "the configuration to run the backend in, of those it declares (its hello's configurations); unset: its default",
    ),
    (
        WHEN_BUSY_VAR,
        "wait (default) or stop: when another run writes the same report directory, wait for it or stop naming it",
    ),
    // Read by the implementation crate itself (`onnx_conformance::tuning`) when the native
    // backend runs; checked here with its own parsers, so that a bad value fails the run as a
    // setup check instead of every kernel call.
    #[cfg(feature = "native")]
    (
        onnx_conformance::tuning::SIMD_VAR,
        "the highest SIMD level the kernels use: native, avx512, avx2 or baseline",
    ),
    #[cfg(feature = "native")]
    (
        onnx_conformance::tuning::THREADS_VAR,
        "threads per kernel call, a positive integer; unset: the available parallelism",
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
    #[cfg(test)]
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
    /// The cases: `ONNX_CONFORMANCE_SUITE=deep` (the deep tree the binary linked, under the
    /// target directory),
    /// `ONNX_BACKEND_DATA` (resolved against the workspace), or the official data.
    pub source: Source,
    /// The cargo target directory (`CARGO_TARGET_DIR`, default `<workspace>/target`).
    pub target: PathBuf,
    /// `ONNX_CONFORMANCE_BACKEND`: the backend's name, `native` when unset or empty.
    pub backend: String,
    /// `ONNX_CONFORMANCE_TIMEOUT`: the deadline of a worker per data set.
    pub timeout: Duration,
    /// `ONNX_CONFORMANCE_PYTHON`: the interpreter of the Python workers, if set.
    pub python: Option<PathBuf>,
    /// `ONNX_CONFORMANCE_KNOWN_FAILURES`, resolved against the workspace: a `worker:`
    /// backend's list instead of `tests/known-failures/<label>.json`, if set.
    pub worker_list: Option<PathBuf>,
    /// `ONNX_CONFORMANCE_REPORT_DIR`, resolved against the workspace: where the reports go
    /// instead of the backend's own directory.
    pub report_dir: Option<PathBuf>,
    /// `ONNX_CONFORMANCE_CONFIGURATION`: the configuration to run the backend in, if set.
    pub configuration: Option<String>,
    /// `ONNX_CONFORMANCE_WHEN_BUSY`: wait for another run that holds the report directory, or
    /// stop.
    pub when_busy: WhenBusy,
}

/// A setup problem: the name of the check that failed and what to do about it.
pub type Problem = (String, String);

/// Reads the settings from `env`; every bad value or unknown name is a problem.
pub fn read(workspace: &Path, env: &Env) -> (Settings, Vec<Problem>) {
    read_with(workspace, env, crate::source::linked_deep())
}

/// [`read`], with the deep suite `deep` (the one this binary linked, or none).
pub(crate) fn read_with(
    workspace: &Path,
    env: &Env,
    deep: Option<DeepSource>,
) -> (Settings, Vec<Problem>) {
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
    let target =
        schema::workspace::target_dir(workspace, env.get(schema::workspace::TARGET_DIR_VAR));
    let backend = match env.get(BACKEND_VAR).map(|v| v.to_str().ok_or(v)) {
        None | Some(Ok("")) => "native".to_string(),
        Some(Ok(name)) => name.to_string(),
        Some(Err(v)) => {
            problems.push((
                "settings/backend".to_string(),
                format!("{BACKEND_VAR}={v:?} is not UTF-8"),
            ));
            v.to_string_lossy().into_owned()
        }
    };
    let timeout = timeout(env).unwrap_or_else(|msg| {
        problems.push(("settings/timeout".to_string(), msg));
        DEFAULT_TIMEOUT
    });
    #[cfg(feature = "native")]
    tuning_problems(env, &mut problems);
    let when_busy = when_busy(env).unwrap_or_else(|msg| {
        problems.push(("settings/when-busy".to_string(), msg));
        WhenBusy::Stop
    });
    let source = source(workspace, &target, env, deep, &mut problems);
    let settings = Settings {
        when_busy,
        source,
        strict,
        target,
        backend,
        timeout,
        python: path(env, PYTHON_VAR, None),
        worker_list: path(env, KNOWN_VAR, Some(workspace)),
        report_dir: path(env, REPORT_DIR_VAR, Some(workspace)),
        configuration: configuration(env, &mut problems),
    };
    (settings, problems)
}

/// `ONNX_CONFORMANCE_CONFIGURATION`, if set to a name a configuration may have.
fn configuration(env: &Env, problems: &mut Vec<Problem>) -> Option<String> {
    let value = env.get(CONFIGURATION_VAR)?;
    match value.to_str() {
        Some("") => None,
        Some(name) if crate::outcome::Configuration::valid_name(name) => Some(name.to_string()),
        _ => {
            problems.push((
                "settings/configuration".to_string(),
                format!(
                    "{CONFIGURATION_VAR}={value:?}: give the name of one of the backend's \
                     configurations (1 to 40 of a-z, 0-9 and '-')"
                ),
            ));
            None
        }
    }
}

/// The one choice of the cases, from `ONNX_CONFORMANCE_SUITE` and `ONNX_BACKEND_DATA`. Both
/// at once is a problem: a deep tree is not a data directory, and half of each would run.
fn source(
    workspace: &Path,
    target: &Path,
    env: &Env,
    linked: Option<DeepSource>,
    problems: &mut Vec<Problem>,
) -> Source {
    let data = path(env, DATA_VAR, Some(workspace));
    let deep = match env.get(SUITE_VAR).map(|v| v.to_str()) {
        None | Some(Some("" | "official")) => false,
        Some(Some("deep")) => true,
        Some(value) => {
            let msg = format!("{SUITE_VAR}={value:?} is not a suite: use deep, official or empty");
            problems.push(("settings/suite".to_string(), msg));
            false
        }
    };
    match (deep, data) {
        (true, Some(dir)) => {
            let msg = format!(
                "{SUITE_VAR}=deep and {DATA_VAR}={} are both set: the deep suite runs its own \
                 tree; unset one of them",
                dir.display()
            );
            problems.push(("settings/suite".to_string(), msg));
            Source::Custom(dir)
        }
        (true, None) => match linked {
            Some(indexed_source) => Source::Indexed(indexed_source(target)),
            None => {
                let msg = format!(
                    "{SUITE_VAR}=deep, but this binary links no deep suite: its main must call \
                     harness::source::link_deep(deep::indexed_source)"
                );
                problems.push(("settings/suite".to_string(), msg));
                Source::Official
            }
        },
        (false, Some(dir)) => Source::Custom(dir),
        (false, None) => Source::Official,
    }
}

/// A path variable, resolved against `base` when given; empty is unset.
fn path(env: &Env, key: &str, base: Option<&Path>) -> Option<PathBuf> {
    let value = PathBuf::from(env.get(key).filter(|v| !v.is_empty())?);
    Some(base.map_or_else(|| value.clone(), |b| b.join(&value)))
}

/// What to do about a busy report directory, from `ONNX_CONFORMANCE_WHEN_BUSY`.
fn when_busy(env: &Env) -> Result<WhenBusy, String> {
    match env.get(WHEN_BUSY_VAR).map(|v| v.to_str()) {
        None | Some(Some("" | "wait")) => Ok(WhenBusy::Wait),
        Some(Some("stop")) => Ok(WhenBusy::Stop),
        Some(value) => Err(format!(
            "{WHEN_BUSY_VAR}={value:?}: give wait (for the other run) or stop"
        )),
    }
}

/// `secs` as a worker's deadline per data set: above 0 and at most a day, else `None`. The one
/// rule for `ONNX_CONFORMANCE_TIMEOUT` and every `--timeout`.
pub fn worker_timeout(secs: f64) -> Option<Duration> {
    (secs.is_finite() && secs > 0.0 && secs <= 86_400.0).then(|| Duration::from_secs_f64(secs))
}

/// The per-data-set deadline from `ONNX_CONFORMANCE_TIMEOUT`.
fn timeout(env: &Env) -> Result<Duration, String> {
    let Some(value) = env.get(TIMEOUT_VAR).filter(|v| !v.is_empty()) else {
        return Ok(DEFAULT_TIMEOUT);
    };
    let text = value.to_string_lossy();
    match text.parse::<f64>().ok().and_then(worker_timeout) {
        Some(t) => Ok(t),
        None => Err(format!(
            "{TIMEOUT_VAR}={text:?}: give the seconds a worker may take per data set, a number \
             above 0 (default 30)"
        )),
    }
}

/// The implementation's own variables, checked with its own parsers: a bad value is a setup
/// problem here, named once, rather than the same error from every kernel call.
#[cfg(feature = "native")]
fn tuning_problems(env: &Env, problems: &mut Vec<Problem>) {
    use onnx_conformance::tuning::{self, SimdLevel};
    let text = |key: &str| env.get(key).map(|v| v.to_string_lossy().into_owned());
    if let Some(value) = text(tuning::SIMD_VAR) {
        if let Err(e) = SimdLevel::parse(&value) {
            problems.push(("settings/simd".to_string(), e.to_string()));
        }
    }
    if let Some(value) = text(tuning::THREADS_VAR) {
        if let Err(e) = tuning::parse_threads(&value) {
            problems.push(("settings/threads".to_string(), e.to_string()));
        }
    }
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
