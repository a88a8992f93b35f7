//! The backends a findings run is asked for, checked before anything runs or is removed:
//! each a shipped backend that is set up, or a `worker:<label>=<command line>`, and the label
//! that names its report directory and its reproducers.

use harness::backend::{Shipped, WorkerLabel};
use harness::report::ReportDir;
use std::path::{Path, PathBuf};

/// A backend of a `cargo xtask deep` run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The value `ONNX_CONFORMANCE_BACKEND` gets: a shipped name or `worker:<label>=<command>`.
    pub value: String,
    /// The name its findings, report directory and reproducers go by: the shipped name or the
    /// worker's label.
    pub label: String,
    /// The configuration to run it in, of those it declares; `None`: its default.
    pub configuration: Option<String>,
}

impl Chosen {
    /// Where the deep run of this backend reports: `deep/reports/backend-<label>` (`native`
    /// for the built-in backend), the directory the conformance binary writes for that label.
    pub fn report_dir(&self, target: &Path) -> PathBuf {
        ReportDir::deep(&crate::index::default_dir(target), &self.label).into_path()
    }
}

/// Checks every value before anything runs: a `worker:` value needs a valid label and a
/// command line; a shipped name must be set up (`ready` says why not);
/// any other name is refused naming `cargo xtask backends list`. Two values with one label are
/// refused too (their reports and reproducers would overwrite each other).
pub fn check(
    values: &[String],
    ready: impl Fn(&str) -> Result<(), String>,
) -> Result<Vec<Chosen>, String> {
    let mut chosen: Vec<Chosen> = Vec::new();
    for value in values {
        let label = match WorkerLabel::parse(value) {
            Some(Ok(worker)) => worker.label,
            Some(Err(why)) => {
                let var = format!("{}: ", harness::runner::BACKEND_VAR);
                let why = why.to_string();
                let why = why.strip_prefix(&var).unwrap_or(&why);
                return Err(format!("--backends {value:?}: {why}"));
            }
            None => match Shipped::find(value) {
                Some(_) => {
                    ready(value).map_err(|why| format!("--backends {value}: {why}"))?;
                    value.clone()
                }
                None => {
                    return Err(format!(
                        "--backends {value:?}: no shipped backend has that name; see `cargo \
                         xtask backends list` (shipped: {}), or give a worker as \
                         worker:<label>=<command line>",
                        harness::backend::SHIPPED
                            .iter()
                            .map(|s| s.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                }
            },
        };
        if chosen.iter().any(|c| c.label == label) {
            return Err(format!(
                "--backends: {label:?} is asked for twice; each backend's reports and \
                 reproducers are named by it"
            ));
        }
        chosen.push(Chosen {
            value: value.clone(),
            label,
            configuration: None,
        });
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests;
