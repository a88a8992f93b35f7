//! The nouns of findings.json: a run's findings, each finding with its examples, the causes
//! they group into, and what a finding says of the runtime.

use super::diagnosis::Behaviour;
use crate::index::{Authority, CaseAttribute, CaseShape, Citation, InputClass, Section};
use harness::backend::FailureKind;
use serde::{Deserialize, Serialize};
use vocab::{DataType, OpKind};

/// `findings.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    /// The content hash of the tree that was run.
    pub tree_sha256: String,
    /// Per backend: trials run and trials that did not pass.
    pub runs: Vec<RunSummary>,
    /// The findings grouped by root cause: per backend, authority, verdict and diagnosis,
    /// strongest authority first.
    pub causes: Vec<Cause>,
    /// Every finding, by backend then class.
    pub findings: Vec<Finding>,
}

/// One root cause of one backend: the findings that share authority, verdict and diagnosis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cause {
    /// The backend.
    pub backend: String,
    /// What fixes the expected values (none for cases that did not run).
    pub authority: Option<Authority>,
    /// The verdict its findings share.
    pub verdict: Verdict,
    /// The behaviour that reproduces the runtime's bits, if one does.
    pub diagnosis: Option<Behaviour>,
    /// The cause in a sentence.
    pub text: String,
    /// Its findings (indices into `findings`).
    pub findings: Vec<usize>,
    /// Elements that differ, over its findings.
    pub elements: usize,
    /// The type pairs, as `FLOAT→INT4`.
    pub pairs: Vec<String>,
    /// The operator versions, as `Cast-24`.
    pub versions: Vec<String>,
    /// When the defect is onnx's own, which this runtime shows by running what onnx wrote (a
    /// function body): reported against onnx, once, and listed as inherited here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inherited: Option<Inherited>,
    /// Its issue body, ready for the runtime's tracker (or onnx's, when inherited), relative
    /// to the findings directory; empty for a cause that is no bug.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub issue: String,
    /// What triggers it beyond its behaviour (an encoding variant, a target type, or for an
    /// undiagnosed cause its operator, pair family and case shape), if anything does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// The configurations of the backend its findings show in (empty for a backend that
    /// declares none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub configurations: Vec<String>,
}

/// A defect of onnx's own that a runtime inherits.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Inherited {
    /// Whose defect it is: `onnx`.
    pub from: String,
    /// The defect, with what onnx wrote quoted.
    pub text: String,
}

/// What a finding says of the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The runtime differs from a value the page or IEEE 754 fixes: a bug.
    Disagrees,
    /// The runtime differs from a value only the official data fixes: not a bug of the page.
    DiffersFromData,
    /// The runtime differs from our reading where neither page nor data decides: not a bug.
    DiffersFromReading,
    /// The case's output had another type or shape.
    TypeOrShape,
    /// The runtime refused the case (an unsupported type or operator version).
    Unsupported,
    /// The runtime failed to load or run the case.
    Error,
    /// The runtime process died.
    Crash,
    /// The runtime did not answer in time.
    Timeout,
}

impl Verdict {
    /// The verdict a difference from a value of `authority` gets.
    pub fn of(authority: Authority) -> Verdict {
        match authority {
            Authority::Page | Authority::Ieee => Verdict::Disagrees,
            Authority::Data => Verdict::DiffersFromData,
            Authority::Reading => Verdict::DiffersFromReading,
        }
    }

    /// The verdict of a case that did not run.
    pub fn of_failure(kind: FailureKind) -> Verdict {
        match kind {
            // A runtime that predates the case did not run it: it has no answer either.
            FailureKind::Unsupported | FailureKind::Predates => Verdict::Unsupported,
            FailureKind::Crash => Verdict::Crash,
            FailureKind::Timeout => Verdict::Timeout,
            FailureKind::Mismatch => Verdict::TypeOrShape,
            _ => Verdict::Error,
        }
    }

    /// Whether a finding of this verdict is a case the runtime did not run.
    pub fn is_refusal(self) -> bool {
        matches!(
            self,
            Verdict::Unsupported | Verdict::Error | Verdict::Crash | Verdict::Timeout
        )
    }

    /// The kebab-case name, as in JSON.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Disagrees => "disagrees",
            Verdict::DiffersFromData => "differs-from-data",
            Verdict::DiffersFromReading => "differs-from-reading",
            Verdict::TypeOrShape => "type-or-shape",
            Verdict::Unsupported => "unsupported",
            Verdict::Error => "error",
            Verdict::Crash => "crash",
            Verdict::Timeout => "timeout",
        }
    }
}

/// The known wrong behaviour that reproduces a finding's actual bits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// The behaviour.
    pub behaviour: Behaviour,
    /// The behaviour in a sentence, for this finding's pair and attributes.
    pub text: String,
}

/// One backend's run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// The backend.
    pub backend: String,
    /// Its runtime version.
    pub runtime_version: String,
    /// Trials run.
    pub trials: usize,
    /// Trials that did not pass.
    pub failed: usize,
    /// The filters the run was given: its findings hold only the cases they select. Empty for
    /// a run of the whole tree.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<String>,
    /// The configuration the run was in, when the backend declares several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    /// How the backend was asked for (`onnxruntime`, `worker:<label>=<command line>`): what a
    /// reproducer's command gives to run it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend_value: Option<String>,
}

impl RunSummary {
    /// ` (only the cases matching opset13/ or opset24/)` for a filtered run; empty otherwise.
    pub fn scope(&self) -> String {
        match self.filters.is_empty() {
            true => String::new(),
            false => format!(" (only the cases matching {})", self.filters.join(" or ")),
        }
    }
}

/// One class of disagreement on one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The backend.
    pub backend: String,
    /// Its runtime version.
    pub runtime_version: String,
    /// Cast, CastLike or Concat.
    pub op: OpKind,
    /// The operator versions where the class occurs.
    pub op_versions: Vec<u32>,
    /// Source type.
    pub from: DataType,
    /// Target type.
    pub to: DataType,
    /// Attributes set.
    pub attributes: Vec<CaseAttribute>,
    /// The input class (`tie`, `nan`, ...), or the case shape, or the failure kind of a case
    /// that did not run (`crash`, `timeout`, `unsupported`, `error`).
    pub input_class: FindingClass,
    /// Elements that differ (0 for a case that did not run).
    pub elements: usize,
    /// Cases in the class.
    pub cases: Vec<String>,
    /// Up to three elements.
    pub examples: Vec<Example>,
    /// What fixes the expected values (none for a class that did not run).
    pub authority: Option<Authority>,
    /// Where that rule is written.
    pub citation: Option<Citation>,
    /// The known wrong behaviour that reproduces every element of the class, if one does.
    pub diagnosis: Option<Diagnosis>,
    /// The section of docs/semantics.md that fixes the expected value.
    pub section: Section,
    /// The reproducer's directory, relative to the findings directory (empty until the
    /// reproducers are written).
    pub reproducer: String,
    /// The case the reproducer is cut from: the one that gave the examples. Known while a run
    /// is grouped; not in findings.json.
    #[serde(skip)]
    pub source_case: String,
    /// The verdict: from the authority for elements that differ, else the failure kind.
    pub verdict: Verdict,
    /// The first line of the runtime's message, for cases that did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The configurations of the backend the class shows in, when it declares several (empty
    /// for a backend that declares none); its counts and examples are the first one's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub configurations: Vec<String>,
}

/// One element: input, expected and actual, each as hex bits and decoded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Example {
    /// Element index in the case.
    pub index: usize,
    /// The input element.
    pub input: Value,
    /// Our expected output.
    pub expected: Value,
    /// The runtime's output.
    pub actual: Value,
    /// Where the element came from, when the case has several data inputs: Concat's
    /// `value3[2]` (the input's name and the element's index in it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// An element as bits and as a number (or text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// The bits, as `0x..` (for strings: the text).
    pub bits: String,
    /// The decoded value.
    pub decoded: String,
}

/// What a finding's elements have in common beyond operator and types, spelled in
/// findings.json as the text it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingClass {
    /// Elements of this input class of a `values` case.
    Input(InputClass),
    /// Elements of a `values` case that no class range holds.
    Other,
    /// The elements of a case of this shape (one without value sets).
    Shape(CaseShape),
    /// A case whose outputs differ in type or shape.
    TypeOrShape,
    /// A case that did not run, by the failure kind.
    Failure(FailureKind),
}

impl std::fmt::Display for FindingClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FindingClass::Input(c) => f.write_str(c.label()),
            FindingClass::Other => f.write_str("other"),
            FindingClass::Shape(s) => write!(f, "{s}"),
            FindingClass::TypeOrShape => f.write_str("type-or-shape"),
            FindingClass::Failure(k) => f.write_str(k.label()),
        }
    }
}

// By spelling, the order the classes had when they were strings, so the findings keep theirs.
impl Ord for FindingClass {
    fn cmp(&self, other: &FindingClass) -> std::cmp::Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

impl PartialOrd for FindingClass {
    fn partial_cmp(&self, other: &FindingClass) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl FindingClass {
    /// The class `text` names, as findings.json writes it; `None` for any other text.
    pub fn parse(text: &str) -> Option<FindingClass> {
        match text {
            "other" => return Some(FindingClass::Other),
            "type-or-shape" => return Some(FindingClass::TypeOrShape),
            _ => {}
        }
        InputClass::from_label(text)
            .map(FindingClass::Input)
            .or_else(|| CaseShape::parse(text).map(FindingClass::Shape))
            .or_else(|| {
                let kind = FailureKind::ALL.into_iter().find(|k| k.label() == text);
                kind.map(FindingClass::Failure)
            })
    }
}

vocab::serde_as_text!(FindingClass,
    text: ToString::to_string,
    parse: FindingClass::parse,
    refusal: |text: &str| format!("no finding class {text:?}"),
);
