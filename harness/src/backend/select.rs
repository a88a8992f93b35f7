//! Choosing the backend: the table of shipped backends, and `ONNX_CONFORMANCE_BACKEND`
//! (a shipped name or `worker:<label>=<command line>`) resolved into a started backend, its
//! known-failures list and its report directory. A backend that cannot start is not replaced
//! by another: it becomes [`Unavailable`], and every case trial fails naming it.

use super::{BackendHandle, FailureKind, OnnxBackend, WorkerPool};
use crate::report::ReportDir;
use crate::settings::{Settings, BACKEND_VAR, CONFIGURATION_VAR, PYTHON_VAR};
use crate::worker::WorkerSpec;
use crate::Error;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// How a shipped backend starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// In this process: the implementation crate (the `native` feature).
    InProcess,
    /// A script of `harness/python/` (compiled in), run by the venv's Python (or
    /// `ONNX_CONFORMANCE_PYTHON`).
    Python(&'static str),
    /// A binary built by `cargo xtask backends setup`, at this path below the target directory.
    Binary(&'static str),
    /// In this process, a Rust runtime linked into the conformance binary when it is built
    /// with the cargo feature of this name (`--features rten`), through [`link`].
    Linked(&'static str),
}

/// A backend shipped with this repository.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shipped {
    /// The name `ONNX_CONFORMANCE_BACKEND` chooses it by.
    pub name: &'static str,
    /// How it starts.
    pub start: Start,
    /// Its known-failures list, relative to the workspace.
    pub list: &'static str,
    /// The pip packages a Python backend's interpreter needs (their tested versions are pinned
    /// in the repository's backends/python/requirements.txt); empty for the others.
    pub packages: &'static str,
}

/// Every shipped backend, native first. A new one is a row here (and its setup in the xtask).
pub const SHIPPED: &[Shipped] = &[
    Shipped {
        name: "native",
        start: Start::InProcess,
        list: "tests/known-failures/native.json",
        packages: "",
    },
    Shipped {
        name: "onnxruntime",
        start: Start::Python("onnxruntime_worker.py"),
        list: "tests/known-failures/onnxruntime.json",
        packages: "onnxruntime onnx numpy",
    },
    Shipped {
        name: "reference",
        start: Start::Python("reference_worker.py"),
        list: "tests/known-failures/reference.json",
        packages: "onnx numpy",
    },
    Shipped {
        name: "tract",
        start: Start::Binary("backends/tract/release/tract-worker"),
        list: "tests/known-failures/tract.json",
        packages: "",
    },
    Shipped {
        name: "openvino",
        start: Start::Python("openvino_worker.py"),
        list: "tests/known-failures/openvino.json",
        packages: "openvino onnx numpy",
    },
    Shipped {
        name: "iree",
        start: Start::Python("iree_worker.py"),
        list: "tests/known-failures/iree.json",
        packages: "iree-base-compiler iree-base-runtime onnx numpy",
    },
    Shipped {
        name: "rten",
        start: Start::Linked("rten"),
        list: "tests/known-failures/rten.json",
        packages: "",
    },
    Shipped {
        name: "candle",
        start: Start::Linked("candle"),
        list: "tests/known-failures/candle.json",
        packages: "",
    },
];

impl Shipped {
    /// The shipped backend called `name`.
    pub fn find(name: &str) -> Option<&'static Shipped> {
        SHIPPED.iter().find(|s| s.name == name)
    }

    /// What the backend needs to have been built or installed, under `target`: the venv's
    /// Python, the worker binary, or the stamp `setup` writes once a linked runtime's build
    /// succeeded; `None` for the built-in backend.
    pub fn needs(&self, target: &Path) -> Option<PathBuf> {
        match self.start {
            Start::InProcess => None,
            Start::Python(_) => Some(python_venv(target).join("bin").join("python")),
            Start::Binary(path) => Some(target.join(path)),
            Start::Linked(feature) => {
                Some(target.join("backends").join(format!("{feature}.built")))
            }
        }
    }

    /// The cargo feature the conformance binary needs to run this backend, if any.
    pub fn cargo_feature(&self) -> Option<&'static str> {
        match self.start {
            Start::Linked(feature) => Some(feature),
            _ => None,
        }
    }
}

/// A Rust runtime compiled into this process, for a [`Start::Linked`] row of [`SHIPPED`].
#[derive(Clone, Copy, Debug)]
pub struct Linked {
    /// The shipped backend's name.
    pub name: &'static str,
    /// Makes the backend.
    pub start: fn() -> BackendHandle,
}

static LINKED: OnceLock<&'static [Linked]> = OnceLock::new();

/// Makes the runtimes compiled into this binary available to `ONNX_CONFORMANCE_BACKEND`.
/// Called once, first thing in `main` (the conformance binary's, the xtask's); a second call
/// is ignored.
pub fn link(runtimes: &'static [Linked]) {
    let _ = LINKED.set(runtimes);
}

/// The linked runtime called `name`, if this binary has it.
fn linked(name: &str) -> Option<&'static Linked> {
    LINKED.get()?.iter().find(|l| l.name == name)
}

/// The venv the Python workers run in, made by `cargo xtask backends setup`.
pub fn python_venv(target: &Path) -> PathBuf {
    target.join("backends").join("venv")
}

/// What a run knows about the backend it was asked for, started or not.
pub struct Selected {
    /// The name it was asked for by: the label of every record and the report directory.
    pub name: String,
    /// The backend, or why it could not start (also a failing setup check).
    pub backend: Result<BackendHandle, Error>,
    /// Its known-failures list; `None` for a `worker:` backend without one.
    pub known_failures: Option<PathBuf>,
    /// Where its reports go.
    pub report_dir: ReportDir,
}

impl Selected {
    /// A backend of the caller's, already started (an in-process runtime); its own list, if
    /// any, must exist.
    pub fn given(target: &Path, backend: BackendHandle, known_failures: Option<PathBuf>) -> Self {
        let name = backend.info().name;
        Selected {
            report_dir: ReportDir::of(target, &name),
            name,
            backend: Ok(backend),
            known_failures,
        }
    }

    /// The backend the trials run on: the started one, or one that fails every case as a
    /// `crash` quoting why it could not start.
    pub fn handle(&self) -> BackendHandle {
        match &self.backend {
            Ok(b) => b.clone(),
            Err(why) => BackendHandle(Arc::new(Unavailable {
                name: self.name.clone(),
                why: why.to_string(),
            })),
        }
    }
}

fn setup_hint(name: &str) -> String {
    format!("run `cargo xtask backends setup {name}` first")
}

/// How to start a backend, apart from the environment: what a run's settings give, or what
/// a caller in-process (a task, the command) chooses.
#[derive(Clone, Debug, PartialEq)]
pub struct Starting {
    /// The directory backends keep their files under: the worker I/O and the compiled-in
    /// scripts (`onnx-conformance/` below it), the venv and binaries of `cargo xtask backends
    /// setup` (`backends/` below it). A cargo target directory, or the command's data home.
    pub target: PathBuf,
    /// The Python of the Python backends; `None`: the venv under `target` (a shipped one) or
    /// `python3` on `PATH` (an `onnx-backend:`).
    pub python: Option<PathBuf>,
    /// How long a worker may take per data set.
    pub timeout: std::time::Duration,
    /// The configuration to run in, of those the backend declares; `None`: its default.
    pub configuration: Option<String>,
}

impl Starting {
    /// What a run's settings say.
    pub fn of(settings: &Settings) -> Starting {
        Starting {
            target: settings.target.clone(),
            python: settings.python.clone(),
            timeout: settings.timeout,
            configuration: settings.configuration.clone(),
        }
    }
}

/// Starts the backend `value` names: a shipped backend's name, `worker:<label>=<command
/// line>` or `onnx-backend:MODULE[:CLASS]`; a worker is greeted before this returns. An
/// unknown name, a bad label or module, or a backend that is not set up or will not start is
/// an `Err` saying what to do.
pub fn start_backend(value: &str, how: &Starting) -> Result<BackendHandle, Error> {
    let backend = start_any(value, how)?;
    let Some(asked) = &how.configuration else {
        return Ok(backend);
    };
    let name = backend.info().name;
    match backend.configuration() {
        Some(c) if &c.active == asked => Ok(backend),
        Some(c) => Err(Error::Backend(format!(
            "backend {name} was asked for configuration {asked:?} ({CONFIGURATION_VAR}) but \
             runs in {:?}; it declares {:?}",
            c.active, c.declared
        ))),
        None => Err(Error::Backend(format!(
            "backend {name} was asked for configuration {asked:?} ({CONFIGURATION_VAR}) but \
             declares none"
        ))),
    }
}

/// [`start_backend`] before the configuration is checked.
fn start_any(value: &str, how: &Starting) -> Result<BackendHandle, Error> {
    if let Some(parsed) = OnnxBackend::parse(value) {
        let backend = parsed.map_err(|why| Error::Backend(format!("{BACKEND_VAR}={why}")))?;
        let python = how
            .python
            .clone()
            .unwrap_or_else(|| PathBuf::from(super::onnx_backend::DEFAULT_PYTHON));
        let scripts = ReportDir::root(&how.target).join("python");
        let spec = backend.worker(&python, &scripts, how.timeout)?;
        return pool(&backend.name(), spec, how);
    }
    match WorkerLabel::parse(value) {
        Some(Ok(worker)) => WorkerSpec::from_command_line(&worker.command, how.timeout)
            .map_err(|e| Error::Backend(format!("{BACKEND_VAR}: {e}")))
            .and_then(|spec| pool(&worker.label, spec, how)),
        Some(Err(why)) => Err(why),
        None => match Shipped::find(value) {
            Some(shipped) => start(shipped, how),
            None => Err(Error::Backend(not_a_backend(value))),
        },
    }
}

/// The backend `settings` ask for, started and greeted when it can be ([`start_backend`]),
/// with the name its records and reports go under and its known-failures list.
pub fn select(workspace: &Path, settings: &Settings) -> Selected {
    let value = settings.backend.as_str();
    let target = &settings.target;
    let worker_list = |name: &str| {
        settings
            .worker_list
            .clone()
            .unwrap_or_else(|| list_path(workspace, name))
    };
    let (name, known_failures) = match (OnnxBackend::parse(value), WorkerLabel::parse(value)) {
        (Some(Ok(b)), _) => (b.name(), Some(worker_list(&b.name()))),
        (Some(Err(_)), _) => ("onnx-backend".to_string(), None),
        (None, Some(Ok(worker))) => (worker.label.clone(), Some(worker_list(&worker.label))),
        // A worker without a usable label has no name of its own: its trials fail under
        // `worker`, and nothing is read or written under its command line.
        (None, Some(Err(_))) => ("worker".to_string(), None),
        (None, None) => (
            value.to_string(),
            Shipped::find(value).map(|s| workspace.join(s.list)),
        ),
    };
    Selected {
        report_dir: ReportDir::of(target, &name),
        name,
        backend: start_backend(value, &Starting::of(settings)),
        known_failures,
    }
}

/// The longest label a `worker:` backend may have.
pub const MAX_LABEL: usize = 40;

/// Names a worker may not take: every shipped backend's (its reports and list are theirs)
/// and `data`, the list of upstream data problems.
fn reserved(label: &str) -> bool {
    Shipped::find(label).is_some() || label == crate::known::DATA_LIST_NAME
}

/// A `worker:` backend as `ONNX_CONFORMANCE_BACKEND` spells it: `worker:<label>=<command
/// line>`. The label names the backend everywhere (records, messages, report directory,
/// known-failures list, scoreboard column); the command line only starts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerLabel {
    /// The backend's name.
    pub label: String,
    /// How to start it.
    pub command: String,
}

impl WorkerLabel {
    /// `value` read as a `worker:` backend: `None` when it does not start with `worker:`, an
    /// `Err` saying how to write it when its label is missing or not a valid label.
    pub fn parse(value: &str) -> Option<Result<WorkerLabel, Error>> {
        let rest = value.strip_prefix("worker:")?;
        let example = "worker:<label>=<command line>, as in worker:myrt=python3 my_worker.py";
        let Some((label, command)) = rest.split_once('=') else {
            return Some(Err(Error::Backend(format!(
                "{BACKEND_VAR}: a worker: backend needs a label, which names its reports and \
                 its known-failures list: write {example}"
            ))));
        };
        if let Err(why) = check_label(label) {
            return Some(Err(Error::Backend(format!(
                "{BACKEND_VAR}: {why}; write {example}"
            ))));
        }
        if command.trim().is_empty() {
            return Some(Err(Error::Backend(format!(
                "{BACKEND_VAR}: worker {label:?} has no command line; write {example}"
            ))));
        }
        Some(Ok(WorkerLabel {
            label: label.to_string(),
            command: command.to_string(),
        }))
    }
}

/// Whether `label` may name a worker: 1 to 40 of `a-z 0-9 . _ -`, starting with a letter or
/// a digit (a directory and file name on every system, the same in any case), and no
/// shipped backend's name.
pub fn check_label(label: &str) -> Result<(), Error> {
    let well_formed = !label.is_empty()
        && label.len() <= MAX_LABEL
        && label.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && label
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c));
    if !well_formed {
        return Err(Error::Backend(format!(
            "{label:?} is not a worker label: use 1 to {MAX_LABEL} of a-z, 0-9, '.', '_' and \
             '-', starting with a letter or a digit"
        )));
    }
    if reserved(label) {
        return Err(Error::Backend(format!(
            "the label {label:?} is taken (by a shipped backend or the data list \
             harness/known-failures/data.json): pick another"
        )));
    }
    Ok(())
}

/// The name a value of `ONNX_CONFORMANCE_BACKEND` is known by: a shipped backend's name, or
/// a worker's label (given alone or as `worker:<label>=<command line>`).
pub fn backend_name(value: &str) -> Result<String, Error> {
    if let Some(worker) = WorkerLabel::parse(value) {
        return worker.map(|w| w.label);
    }
    if let Some(parsed) = OnnxBackend::parse(value) {
        return parsed.map(|b| b.name());
    }
    if Shipped::find(value).is_some() {
        return Ok(value.to_string());
    }
    check_label(value)
        .map(|()| value.to_string())
        .map_err(|why| {
            Error::Backend(format!(
                "{why} (nor a shipped backend: {})",
                shipped_names()
            ))
        })
}

/// The default known-failures list of the backend called `name`: a shipped backend's own,
/// or `tests/known-failures/<label>.json` for a worker.
pub fn list_path(workspace: &Path, name: &str) -> PathBuf {
    if let Some(Ok(b)) = OnnxBackend::parse(name) {
        return list_path(workspace, &b.label());
    }
    match Shipped::find(name) {
        Some(shipped) => workspace.join(shipped.list),
        None => workspace
            .join("tests")
            .join("known-failures")
            .join(format!("{name}.json")),
    }
}

fn shipped_names() -> String {
    SHIPPED
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn not_a_backend(name: &str) -> String {
    format!(
        "{name:?} is not a backend: use {}, onnx-backend:MODULE[:CLASS] (any \
         onnx.backend.base.Backend) or worker:<label>=<command line>",
        shipped_names()
    )
}

/// Starts a shipped backend.
fn start(shipped: &Shipped, how: &Starting) -> Result<BackendHandle, Error> {
    let name = shipped.name;
    let target = &how.target;
    let argv = match shipped.start {
        Start::InProcess => return native(),
        Start::Linked(feature) => {
            return match linked(name) {
                Some(l) => Ok((l.start)()),
                None => Err(Error::Backend(format!(
                    "backend {name} is not compiled into this binary: run the suite with \
                     `cargo test --test onnx_backend --features {feature}` (set it up first with \
                     `cargo xtask backends setup {name}`)"
                ))),
            }
        }
        Start::Python(script) => {
            let python = match &how.python {
                Some(p) => p.clone(),
                None => ready(
                    shipped,
                    target,
                    &format!(
                        ", or point {PYTHON_VAR} at a Python that has the packages of \
                     backends/python/requirements.txt"
                    ),
                )?,
            };
            // The copy compiled into this binary, not the checkout's: a run needs none.
            let script = super::python::script(&ReportDir::root(target).join("python"), script)
                .map_err(|e| Error::Backend(e.to_string()))?;
            vec![python.display().to_string(), script.display().to_string()]
        }
        Start::Binary(_) => vec![ready(shipped, target, "")?.display().to_string()],
    };
    let spec = WorkerSpec {
        argv,
        timeout: how.timeout,
        env: Vec::new(),
    };
    let hint = match (&how.python, shipped.start) {
        // A Python of the caller's: its packages are the caller's to install.
        (Some(python), Start::Python(_)) => format!(
            "does {python} have {name}'s packages? `{python} -m pip install {}` installs them \
             (the versions tested are pinned in the repository's \
             backends/python/requirements.txt)",
            shipped.packages,
            python = python.display()
        ),
        _ => setup_hint(name),
    };
    pool(name, spec, how).map_err(|e| Error::Backend(format!("{e}\n{hint}")))
}

/// What `shipped` needs under `target`, or an error saying how to set it up.
fn ready(shipped: &Shipped, target: &Path, alternative: &str) -> Result<PathBuf, Error> {
    let needed = shipped.needs(target).unwrap_or_default();
    match needed.exists() {
        true => Ok(needed),
        false => Err(Error::Backend(format!(
            "backend {} is not set up ({} does not exist): {}{alternative}",
            shipped.name,
            needed.display(),
            setup_hint(shipped.name)
        ))),
    }
}

#[cfg(feature = "native")]
fn native() -> Result<BackendHandle, Error> {
    Ok(BackendHandle(Arc::new(super::Native)))
}

#[cfg(not(feature = "native"))]
fn native() -> Result<BackendHandle, Error> {
    Err(Error::Backend(
        "backend native is not compiled in: build the harness with its `native` feature".into(),
    ))
}

fn pool(name: &str, mut spec: WorkerSpec, how: &Starting) -> Result<BackendHandle, Error> {
    if let Some(c) = &how.configuration {
        spec.env.push((CONFIGURATION_VAR.to_string(), c.clone()));
    }
    let io_dir = ReportDir::root(&how.target).join("worker-io");
    Ok(BackendHandle(Arc::new(WorkerPool::start(
        name, spec, io_dir,
    )?)))
}

/// The backend asked for, when it could not start: it fails every case as a `crash`.
struct Unavailable {
    name: String,
    why: String,
}

impl super::Backend for Unavailable {
    fn info(&self) -> super::BackendInfo {
        super::BackendInfo {
            name: self.name.clone(),
            runtime: "unavailable".into(),
            version: String::new(),
        }
    }

    fn prepare<'a>(
        &'a self,
        _: super::ModelFile<'a>,
    ) -> Result<Box<dyn super::Prepared + 'a>, super::BackendFailure> {
        Err(super::BackendFailure::new(
            FailureKind::Crash,
            format!("backend {} could not start: {}", self.name, self.why),
        ))
    }
}
