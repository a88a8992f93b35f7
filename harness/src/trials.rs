//! Running one trial: load the case, run each data set, compare, judge against the known
//! failures, and record everything the reports need. Never panics outward.

use crate::backend::{BackendHandle, FailureKind, ModelFile};
use crate::case::{Case, ValueInfo};
use crate::compare::{compare_outputs, is_exact_type, Rule};
use crate::diag::{describe_with, dump, failure_dir, rerun_command};
use crate::discover::{CaseSpec, Spec, SpecKind};
use crate::known::{judge, KnownFailures, Outcome, Tolerances};
use crate::origin::Origins;
use crate::report::TrialRecord;
use crate::{lockcheck, read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;
use vocab::OpVersion;

/// What every trial of a run shares (by default: native, default rules, no lists).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "native", derive(Default))]
pub struct Context {
    /// `ONNX_CONFORMANCE_STRICT=1`: bit-exact comparison.
    pub strict: bool,
    /// `tests/known-failures.json`.
    pub known: KnownFailures,
    /// `tests/tolerances.json`.
    pub tolerances: Tolerances,
    /// `target/onnx-conformance`.
    pub out_dir: PathBuf,
    /// `ONNX_BACKEND_DATA`, if set.
    pub data_override: Option<PathBuf>,
    /// The data root the trials read: `onnx-backend-data` or `ONNX_BACKEND_DATA`.
    pub data_root: PathBuf,
    /// The lock file that official cases are checked against when they fail; `None` when
    /// another tree runs.
    pub lock_file: Option<PathBuf>,
    /// The runtime under test (`ONNX_CONFORMANCE_BACKEND`; native by default).
    pub backend: BackendHandle,
}

/// The comparison rule of a trial and how the report names it.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleChoice {
    /// The rule.
    pub rule: Rule,
    /// `onnx-default`, `override`, `exact` or `strict`.
    pub name: &'static str,
}

impl RuleChoice {
    /// The (rtol, atol) that apply, if any: none in strict mode, and none for an `exact`
    /// trial, whose outputs are all of exactly compared types.
    pub fn tolerances(&self) -> Option<(f64, f64)> {
        match (self.name, self.rule) {
            ("exact", _) | (_, Rule::Strict) => None,
            (_, Rule::Allclose { rtol, atol }) => Some((rtol, atol)),
        }
    }

    /// The label used in messages, with the tolerances where they apply.
    pub fn label(&self) -> String {
        match self.tolerances() {
            Some((rtol, atol)) => format!("{} rtol={rtol:e} atol={atol:e}", self.name),
            None => self.name.to_string(),
        }
    }
}

impl Context {
    /// The rule for trial `name` before its output types are known.
    pub fn rule_for(&self, name: &str) -> RuleChoice {
        if self.strict {
            return RuleChoice {
                rule: Rule::Strict,
                name: "strict",
            };
        }
        match self.tolerances.find(name) {
            Some(o) => RuleChoice {
                rule: Rule::Allclose {
                    rtol: o.rtol,
                    atol: o.atol,
                },
                name: "override",
            },
            None => RuleChoice {
                rule: Rule::ONNX_DEFAULT,
                name: "onnx-default",
            },
        }
    }
}

/// Runs trial `spec` and returns its record (outcome, message, timing, types).
pub fn run(ctx: &Context, spec: &Spec) -> TrialRecord {
    let start = Instant::now();
    let mut rec = blank_record(spec);
    rec.backend = ctx.backend.info();
    let result = match &spec.kind {
        SpecKind::Guard(msg) => Err((FailureKind::Error, msg.clone())),
        SpecKind::Case(case) => {
            let attempt = || run_case(ctx, &spec.name, case, &mut rec);
            catch_unwind(AssertUnwindSafe(attempt)).unwrap_or_else(|payload| {
                let what = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                Err((FailureKind::Error, format!("panicked: {what}")))
            })
        }
    };
    let entry = ctx.known.find(&spec.name);
    // A known failure of another kind than listed is another failure: judge it as one.
    let (kind, result) = match result {
        Ok(()) => (None, Ok(())),
        Err((kind, msg)) => match entry.and_then(|e| e.failure_kind) {
            Some(want) if want != kind => (
                Some(kind),
                Err(format!(
                    "failure kind {kind}, but the known-failures entry expects {want}: {msg}"
                )),
            ),
            _ => (Some(kind), Err(msg)),
        },
    };
    let result = result.map_err(|msg| match &spec.kind {
        SpecKind::Guard(_) => msg,
        SpecKind::Case(case) => {
            let mut msg = msg;
            if let (Some(lock), true) = (&ctx.lock_file, case.indexed) {
                // A damaged file on disk reads like a kernel bug; say so when it is one.
                if let Some(note) = lockcheck::check(lock, case) {
                    msg = format!("{note}\n{msg}");
                }
            }
            let mut rerun = rerun_command(&spec.name, ctx.strict, ctx.data_override.as_deref());
            let backend = ctx.backend.info().name;
            if backend != "native" {
                let quoted = format!("'{}'", backend.replace('\'', r"'\''"));
                rerun = format!("{}={quoted} {rerun}", crate::settings::BACKEND_VAR);
            }
            format!("{msg}\nrerun: {rerun}")
        }
    });
    let (outcome, message) = judge(result, entry);
    rec.failure_kind = kind.filter(|_| !matches!(outcome, Outcome::Pass | Outcome::UnexpectedPass));
    rec.outcome = outcome;
    rec.message = message;
    rec.duration_ms = start.elapsed().as_secs_f64() * 1e3;
    rec
}

fn blank_record(spec: &Spec) -> TrialRecord {
    let case = match &spec.kind {
        SpecKind::Case(case) => Some(case),
        SpecKind::Guard(_) => None,
    };
    let op_type = case.and_then(|c| c.op_type.clone());
    let opset = case.and_then(|c| c.opset);
    TrialRecord {
        name: spec.name.clone(),
        release: case.map(|c| c.release.clone()),
        case: case.map(|c| c.case.clone()),
        op_version: op_version(op_type.as_deref(), opset),
        op_type,
        opset,
        inputs: Vec::new(),
        outputs: Vec::new(),
        outcome: Outcome::Fail,
        rule: "none".into(),
        rtol: None,
        atol: None,
        duration_ms: 0.0,
        message: None,
        backend: Default::default(),
        failure_kind: None,
    }
}

/// `Cast-19` for op `Cast` at opset 19..20, if the operator and opset resolve.
fn op_version(op_type: Option<&str>, opset: Option<i64>) -> Option<String> {
    let (op, opset) = (op_type?, opset?);
    let version = OpVersion::resolve(op, opset).ok()?;
    Some(format!("{op}-{}", version.since()))
}

/// A failed trial: its kind and message.
type Failed = (FailureKind, String);

fn run_case(
    ctx: &Context,
    name: &str,
    spec: &CaseSpec,
    rec: &mut TrialRecord,
) -> Result<(), Failed> {
    let error = |msg: String| (FailureKind::Error, msg);
    let mut choice = ctx.rule_for(name);
    set_rule(rec, &choice);
    // Dumps from an earlier failing run of this trial would mislead once it passes.
    let dumps = failure_dir(&ctx.out_dir, name);
    if dumps.exists() {
        let _ = std::fs::remove_dir_all(&dumps);
    }
    if !spec.dir.is_dir() {
        let hint = if spec.indexed {
            "listed in index.json but missing; run `cargo xtask fetch-tests`"
        } else {
            "missing"
        };
        return Err(error(format!(
            "case directory {} is {hint}",
            spec.dir.display()
        )));
    }
    let model = spec.dir.join("model.onnx");
    if !model.is_file() {
        return Err(error(format!(
            "{}: no model.onnx in this case directory (it holds {}); a case needs model.onnx \
             beside its test_data_set_N directories",
            spec.dir.display(),
            listing(&spec.dir)
        )));
    }
    let case = read::load_case(&spec.dir).map_err(|e| error(e.to_string()))?;
    describe_case(rec, &case);
    let outputs = &case.model.graph.outputs;
    if !ctx.strict
        && !outputs.is_empty()
        && outputs.iter().all(|o| o.dtype.is_some_and(is_exact_type))
    {
        choice.name = "exact";
        set_rule(rec, &choice);
    }
    if case.data_sets.is_empty() {
        return Err(error(format!(
            "{}: no test_data_set_N directory, nothing to compare",
            spec.dir.display()
        )));
    }
    let names: Vec<String> = outputs.iter().map(|o| o.name.clone()).collect();
    let file = ModelFile {
        path: &model,
        model: &case.model,
    };
    let prepared = ctx.backend.prepare(file).map_err(|f| (f.kind, f.message))?;
    for (k, ds) in case.data_sets.iter().enumerate() {
        // Only the inputs cross the seam; the expected outputs stay here.
        let actual = prepared
            .run(&ds.inputs)
            .map_err(|f| (f.kind, format!("{}: {}", ds.dir.display(), f.message)))?;
        let mismatches = compare_outputs(&ds.outputs, &actual, choice.rule);
        if mismatches.is_empty() {
            continue;
        }
        let mut dir = dumps.clone();
        if case.data_sets.len() > 1 {
            dir.push(format!("test_data_set_{k}"));
        }
        let origins = Origins::of(rec.op_type.as_deref(), &case.model.graph, &ds.inputs);
        let mut msg = format!(
            "{}:\n{}",
            ds.dir.display(),
            describe_with(&mismatches, &names, &choice.label(), &origins)
        );
        for line in dump(&dir, &ds.outputs, &actual) {
            msg.push('\n');
            msg.push_str(&line);
        }
        return Err((FailureKind::Mismatch, msg));
    }
    Ok(())
}

/// The entry names of `dir`, sorted, for a message.
fn listing(dir: &std::path::Path) -> String {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|list| {
            list.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    match names.is_empty() {
        true => "nothing".to_string(),
        false => names.join(", "),
    }
}

fn set_rule(rec: &mut TrialRecord, choice: &RuleChoice) {
    rec.rule = choice.name.to_string();
    (rec.rtol, rec.atol) = choice.tolerances().unzip();
}

/// Fills the record with what the model declares: opset, op type, version and value types.
/// The index's op type wins: for an `_expanded` case it names the operator under test
/// (CastLike), while the model's node is the inlined body (Cast).
fn describe_case(rec: &mut TrialRecord, case: &Case) {
    rec.opset = Some(case.model.opset);
    if rec.op_type.is_none() {
        rec.op_type = case.model.graph.nodes.first().map(|n| n.op_type.clone());
    }
    rec.op_version = op_version(rec.op_type.as_deref(), rec.opset).or(rec.op_version.take());
    let types = |values: &[ValueInfo]| -> Vec<String> {
        values
            .iter()
            .map(|v| {
                v.dtype
                    .map_or_else(|| "?".to_string(), |d| d.name().to_string())
            })
            .collect()
    };
    rec.inputs = types(&case.model.graph.inputs);
    rec.outputs = types(&case.model.graph.outputs);
}

#[cfg(all(test, feature = "native"))]
mod tests;
