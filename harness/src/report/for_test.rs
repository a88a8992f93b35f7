//! The one way tests build a [`TrialRecord`]: a record of a name and an outcome, its other
//! facts set by the builder methods below, so that a field added to the record is one change
//! here rather than in every crate's tests. Hidden from the documentation: not for a run.

use super::{RuleName, TrialRecord};
use crate::outcome::Outcome;
use crate::outcome::{BackendInfo, FailureKind};

#[doc(hidden)]
impl TrialRecord {
    /// A record of `name` with `outcome`, the default rule, and every other fact empty.
    pub fn for_test(name: impl Into<String>, outcome: Outcome) -> TrialRecord {
        TrialRecord {
            name: name.into(),
            release: None,
            case: None,
            op_type: None,
            op_version: None,
            opset: None,
            inputs: Vec::new(),
            outputs: Vec::new(),
            outcome,
            rule: RuleName::OnnxDefault,
            rtol: None,
            atol: None,
            duration_ms: 0.0,
            message: None,
            backend: BackendInfo::default(),
            failure_kind: None,
        }
    }

    /// A record of an official case: named `onnx-<release>/opset<opset>/<case>`, with those facts.
    pub fn case_for_test(release: &str, opset: i64, case: &str, outcome: Outcome) -> TrialRecord {
        TrialRecord {
            release: Some(release.into()),
            case: Some(case.into()),
            opset: Some(opset),
            ..TrialRecord::for_test(format!("onnx-{release}/opset{opset}/{case}"), outcome)
        }
    }

    /// A record of official case `case` of release 1.22.0 at opset 25, of operator version
    /// `op_version` (as in `Cast-25`) from `input` to `output`, that took a millisecond; a
    /// failure `kind` comes with the message `<kind>: details`.
    pub fn official_for_test(
        case: &str,
        op_version: &str,
        (input, output): (&str, &str),
        outcome: Outcome,
        kind: Option<FailureKind>,
    ) -> TrialRecord {
        let t = TrialRecord::case_for_test("1.22.0", 25, case, outcome)
            .with_op(op_version)
            .with_types(&[input], &[output])
            .with_duration(1.0)
            .with_kind(kind);
        match kind {
            Some(k) => t.with_message(format!("{k}: details")),
            None => t,
        }
    }

    /// With the operator version `op_version` (as in `Cast-25`, a row of the version table)
    /// and its op_type.
    pub fn with_op(mut self, op_version: &str) -> TrialRecord {
        let version = vocab::OpVersion::parse(op_version)
            .unwrap_or_else(|| panic!("{op_version:?} is no row of the version table"));
        self.op_type = Some(version.op().name().into());
        self.op_version = Some(version);
        self
    }

    /// With these declared input and output types.
    pub fn with_types(mut self, inputs: &[&str], outputs: &[&str]) -> TrialRecord {
        self.inputs = inputs.iter().map(|&t| t.into()).collect();
        self.outputs = outputs.iter().map(|&t| t.into()).collect();
        self
    }

    /// With the failure kind `kind`, if any.
    pub fn with_kind(mut self, kind: Option<FailureKind>) -> TrialRecord {
        self.failure_kind = kind;
        self
    }

    /// With the message `message`.
    pub fn with_message(mut self, message: impl Into<String>) -> TrialRecord {
        self.message = Some(message.into());
        self
    }

    /// With the release `release` (`own`, `custom`, `1.22.0`).
    pub fn with_release(mut self, release: &str) -> TrialRecord {
        self.release = Some(release.into());
        self
    }

    /// With this comparison rule and tolerances.
    pub fn with_rule(
        mut self,
        rule: RuleName,
        rtol: Option<f64>,
        atol: Option<f64>,
    ) -> TrialRecord {
        self.rule = rule;
        (self.rtol, self.atol) = (rtol, atol);
        self
    }

    /// With this wall time, in milliseconds.
    pub fn with_duration(mut self, ms: f64) -> TrialRecord {
        self.duration_ms = ms;
        self
    }

    /// Run by `backend`.
    pub fn with_backend(mut self, backend: BackendInfo) -> TrialRecord {
        self.backend = backend;
        self
    }
}
