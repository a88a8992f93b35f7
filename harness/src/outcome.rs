//! The ground floor: the nouns every other module of the harness speaks in (why a trial
//! failed, what became of it, which rule compared it, which runtime ran it and what it
//! declares it supports). It imports nothing of the harness but the case types, so the seam,
//! the lists, the reports and the workers can all use it without importing each other.

use crate::case::Model;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The name of the indexed suite: its trials are `deep/opset<N>/<case>`, its guards
/// `deep/<check>`, and `ONNX_CONFORMANCE_SUITE=deep` asks for it.
pub const DEEP: &str = "deep";
/// The `release` of the trials of the layout's own cases.
pub const OWN: &str = "own";
/// The `release` of the trials of a tree the caller names (`ONNX_BACKEND_DATA`).
pub const CUSTOM: &str = "custom";

/// Where a trial's case comes from, as its record's `release` says: decided here, where the
/// names discovery writes are, and nowhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The data an onnx release shipped.
    Official,
    /// Data exported with a release's onnx by `fetch-tests --generate`.
    Generated,
    /// The layout's own cases.
    Own,
    /// A tree the caller named.
    Custom,
    /// The deep tree.
    Deep,
    /// No case: a guard trial of the run itself.
    Guard,
}

impl Origin {
    /// The origin of a trial whose record's release is `release`.
    pub fn of(release: Option<&str>) -> Origin {
        match release {
            None => Origin::Guard,
            Some(OWN) => Origin::Own,
            Some(CUSTOM) => Origin::Custom,
            Some(DEEP) => Origin::Deep,
            Some(r) if r.ends_with(schema::index::GENERATED_SUFFIX) => Origin::Generated,
            Some(_) => Origin::Official,
        }
    }
}

/// Why a trial did not pass, as a type: nothing branches on the text of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureKind {
    /// The backend ran and its outputs differ in dtype, shape or values.
    Mismatch,
    /// The backend refused the model at load: an unknown type, operator or kernel.
    Unsupported,
    /// Reading the case, feeding inputs, running or returning outputs failed.
    Error,
    /// The backend's process exited or could not be started.
    Crash,
    /// The backend gave no answer within the deadline.
    Timeout,
    /// The runtime predates the case: the model's IR version or opset is above what the
    /// backend declares it supports ([`Backend::limits`]); the case was not run.
    Predates,
}

impl FailureKind {
    /// Every kind, in report order.
    pub const ALL: [FailureKind; 6] = [
        FailureKind::Mismatch,
        FailureKind::Unsupported,
        FailureKind::Error,
        FailureKind::Crash,
        FailureKind::Timeout,
        FailureKind::Predates,
    ];

    /// The report spelling, as in `unsupported`.
    pub fn label(self) -> &'static str {
        match self {
            FailureKind::Mismatch => "mismatch",
            FailureKind::Unsupported => "unsupported",
            FailureKind::Error => "error",
            FailureKind::Crash => "crash",
            FailureKind::Timeout => "timeout",
            FailureKind::Predates => "predates",
        }
    }

    /// The kind for a report spelling.
    pub fn from_label(label: &str) -> Option<FailureKind> {
        FailureKind::ALL.into_iter().find(|k| k.label() == label)
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Which runtime a run judged: the name it was chosen by, and what the runtime says it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendInfo {
    /// The name the backend was chosen by: `native`, `onnxruntime`, ..., or a worker's label.
    pub name: String,
    /// The runtime's own name, from its hello.
    pub runtime: String,
    /// The runtime's version, from its hello.
    pub version: String,
}

/// The configuration a backend ran in, of those it declares (a worker in its hello): a runtime
/// that ships several (graph optimizations on and off, one or all threads) is judged in each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Configuration {
    /// The one it ran in.
    pub active: String,
    /// Every one it declares, its default first.
    pub declared: Vec<String>,
}

impl Configuration {
    /// Whether `name` may name a configuration: 1 to 40 of `a-z 0-9 -`, starting with a
    /// letter or digit (it names report directories).
    pub fn valid_name(name: &str) -> bool {
        !name.is_empty()
            && name.len() <= 40
            && name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    }
}

/// The newest IR version and opsets a backend's runtime supports, as it declares them
/// (a worker in its hello). `None` and a domain absent from `max_opset` are unknown: nothing
/// predates them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The newest `ModelProto.ir_version` the runtime loads.
    pub max_ir_version: Option<i64>,
    /// The newest opset per domain (`""` is the default domain, `ai.onnx` too).
    pub max_opset: BTreeMap<String, i64>,
    /// The most elements one tensor of a data set may hold, for a run that splits its inputs
    /// into chunks (`onnx-conformance vectors run`); `None`: the harness chooses.
    pub max_elements: Option<u64>,
}

impl Limits {
    /// Why the runtime predates `model`, as in `runtime predates opset 28 (it supports at
    /// most 25)`; `None` when it does not, or when the limits are unknown.
    pub fn predates(&self, model: &Model) -> Option<String> {
        if let Some(max) = self.default_opset().filter(|&max| model.opset > max) {
            return Some(format!(
                "runtime predates opset {} (it supports at most {max})",
                model.opset
            ));
        }
        if let Some(max) = self.max_ir_version.filter(|&max| model.ir_version > max) {
            return Some(format!(
                "runtime predates IR version {} (it supports at most {max})",
                model.ir_version
            ));
        }
        None
    }

    /// The newest default-domain opset the runtime declares, if it does.
    pub fn default_opset(&self) -> Option<i64> {
        self.max_opset
            .get("")
            .or_else(|| self.max_opset.get("ai.onnx"))
            .copied()
    }
}

/// What became of a trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Ran and matched.
    Pass,
    /// Failed, and is not a known failure.
    Fail,
    /// Failed as its known-failures entry says.
    KnownFailure,
    /// Listed as a known failure but passed: a failure of the run.
    UnexpectedPass,
    /// The official data of the trial is wrong (`harness/known-failures/data.json`), and it
    /// failed as that list says: counted apart, neither the backend's pass nor its failure.
    DataProblem,
    /// The runtime predates the case's IR version or opset (failure kind `predates`), and its
    /// known-failures list expects it: not run, counted apart. An unlisted one is a `fail`.
    Predates,
}

impl Outcome {
    /// The report spelling, as in `known-failure`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::KnownFailure => "known-failure",
            Outcome::UnexpectedPass => "unexpected-pass",
            Outcome::DataProblem => "data-problem",
            Outcome::Predates => "predates",
        }
    }

    /// Whether this outcome fails the run.
    pub fn fails_run(self) -> bool {
        matches!(self, Outcome::Fail | Outcome::UnexpectedPass)
    }
}

/// How the report names a trial's comparison rule; its serde form is [`RuleName::label`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleName {
    /// No rule applied: the trial ended before its outputs were compared (a setup check).
    None,
    /// The ONNX backend runner's tolerances.
    OnnxDefault,
    /// A tolerance override from `tests/tolerances.json`.
    Override,
    /// Every output is of an exactly compared type.
    Exact,
    /// Strict mode: bit-exact.
    Strict,
}

impl RuleName {
    /// The report spelling, as in `onnx-default`.
    pub fn label(self) -> &'static str {
        match self {
            RuleName::None => "none",
            RuleName::OnnxDefault => "onnx-default",
            RuleName::Override => "override",
            RuleName::Exact => "exact",
            RuleName::Strict => "strict",
        }
    }
}

impl std::fmt::Display for RuleName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests;
