//! Running one trial: load the case, run each data set, compare, judge against the known
//! failures, and record everything the reports need. Never panics outward.

use crate::backend::{BackendHandle, FailureKind, ModelFile};
use crate::case::{Case, ValueInfo};
use crate::compare::{compare_outputs, is_exact_type, Rule};
use crate::diag::{describe_with, dump, rerun_command, RerunEnv};
use crate::discover::{CaseSpec, Spec, SpecKind};
use crate::known::{judge, Failed, Lists, Tolerances};
use crate::origin::Origins;
use crate::outcome::RuleName;
use crate::report::failure_dir;
use crate::report::TrialRecord;
use crate::source::Source;
use crate::{expected_error, lockcheck, read};
use schema::layout;
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
    /// The data list and the backend's known-failures list.
    pub known: Lists,
    /// `tests/tolerances.json`.
    pub tolerances: Tolerances,
    /// `target/onnx-conformance`.
    pub out_dir: PathBuf,
    /// The cases the run judges.
    pub source: Source,
    /// The data root the trials read: `onnx-backend-data`, `ONNX_BACKEND_DATA` or the deep
    /// tree's cases.
    pub data_root: PathBuf,
    /// The lock file that official cases are checked against when they fail; `None` when
    /// another tree runs.
    pub lock_file: Option<PathBuf>,
    /// The runtime under test (`ONNX_CONFORMANCE_BACKEND`; native by default).
    pub backend: BackendHandle,
    /// The known-failures list in use, as messages name it; `None` when there is none.
    pub known_list: Option<String>,
    /// What a rerun line carries beyond the backend, rule and data: the list variable, the
    /// cargo profile and the test target.
    pub rerun: RerunEnv,
}

/// The comparison rule of a trial and how the report names it.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleChoice {
    /// The rule.
    pub rule: Rule,
    /// Its name in the report.
    pub name: RuleName,
}

impl RuleChoice {
    /// The (rtol, atol) that apply, if any: none in strict mode, and none for an `exact`
    /// trial, whose outputs are all of exactly compared types.
    pub fn tolerances(&self) -> Option<(f64, f64)> {
        match (self.name, self.rule) {
            (RuleName::Exact, _) | (_, Rule::Strict) => None,
            (_, Rule::Allclose { rtol, atol }) => Some((rtol, atol)),
        }
    }

    /// The label used in messages, with the tolerances where they apply.
    pub fn label(&self) -> String {
        match self.tolerances() {
            Some((rtol, atol)) => format!("{} rtol={rtol:e} atol={atol:e}", self.name.label()),
            None => self.name.label().to_string(),
        }
    }
}

impl Context {
    /// The rule for trial `name` before its output types are known.
    pub fn rule_for(&self, name: &str) -> RuleChoice {
        if self.strict {
            return RuleChoice {
                rule: Rule::Strict,
                name: RuleName::Strict,
            };
        }
        match self.tolerances.find(name) {
            Some(o) => RuleChoice {
                rule: Rule::Allclose {
                    rtol: o.rtol,
                    atol: o.atol,
                },
                name: RuleName::Override,
            },
            None => RuleChoice {
                rule: Rule::ONNX_DEFAULT,
                name: RuleName::OnnxDefault,
            },
        }
    }
}

/// A trial's record, and the note libtest shows beside a known failure.
#[derive(Clone, Debug)]
pub struct Judged {
    /// What the reports hold.
    pub record: TrialRecord,
    /// `known failure: <class>` for a known failure.
    pub ignored_note: Option<String>,
}

/// What a trial learns about its case while it runs, before it is judged.
#[derive(Default)]
struct Facts {
    /// The model's opset once read (the index's before).
    opset: Option<i64>,
    /// The operator under test: the index's, else the model's first node.
    op_type: Option<String>,
    /// Declared input and output types.
    inputs: Vec<String>,
    outputs: Vec<String>,
    /// The comparison rule, once chosen.
    rule: Option<RuleChoice>,
}

/// Runs trial `spec`: its result judged against its known-failures entry, as a record.
pub fn run(ctx: &Context, spec: &Spec) -> Judged {
    let start = Instant::now();
    let case = match &spec.kind {
        SpecKind::Case(case) => Some(case),
        SpecKind::Guard(_) => None,
    };
    let mut facts = Facts {
        opset: case.and_then(|c| c.opset),
        op_type: case.and_then(|c| c.op_type.clone()),
        ..Facts::default()
    };
    let result = match case {
        None => Err(Failed {
            kind: FailureKind::Error,
            message: spec.guard_text().to_string(),
        }),
        Some(case) => {
            let attempt = || run_case(ctx, &spec.name, case, &mut facts);
            let result = catch_unwind(AssertUnwindSafe(attempt)).unwrap_or_else(|payload| {
                let what = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                Err(failed(FailureKind::Error, format!("panicked: {what}")))
            });
            result.map_err(|f| Failed {
                message: with_context(ctx, &spec.name, case, f.message),
                ..f
            })
        }
    };
    let mut verdict = judge(result, ctx.known.find(&spec.name));
    let note = match verdict.outcome {
        crate::outcome::Outcome::DataProblem => "upstream data problem",
        crate::outcome::Outcome::Predates => "runtime predates the case",
        _ => "known failure",
    };
    if verdict.outcome == crate::outcome::Outcome::Fail
        && verdict.failure_kind == Some(FailureKind::Predates)
    {
        if let Some(msg) = verdict.message.as_mut() {
            // Above the rerun line, which stays the message's last.
            let at = msg.rfind("\nrerun: ").unwrap_or(msg.len());
            msg.insert_str(at, &predates_hint(ctx, &spec.name));
        }
    }
    let index_opset = case.and_then(|c| c.opset);
    let op_version = op_version(facts.op_type.as_deref(), facts.opset)
        .or_else(|| op_version(facts.op_type.as_deref(), index_opset));
    let rule = facts.rule.as_ref();
    let (rtol, atol) = rule.and_then(RuleChoice::tolerances).unzip();
    let record = TrialRecord {
        name: spec.name.clone(),
        release: case.map(|c| c.release.clone()),
        case: case.map(|c| c.case.clone()),
        op_type: facts.op_type,
        op_version,
        opset: facts.opset,
        inputs: facts.inputs,
        outputs: facts.outputs,
        outcome: verdict.outcome,
        rule: rule.map_or(RuleName::None, |r| r.name),
        rtol,
        atol,
        duration_ms: start.elapsed().as_secs_f64() * 1e3,
        message: verdict.message,
        backend: ctx.backend.info(),
        failure_kind: verdict.failure_kind,
    };
    Judged {
        record,
        ignored_note: verdict.known_kind.map(|k| format!("{note}: {k}")),
    }
}

/// How to expect a `predates` trial that the backend's list does not: an entry of kind
/// `predates` (docs/running.md).
fn predates_hint(ctx: &Context, name: &str) -> String {
    let list = match ctx.known_list.as_deref() {
        Some(list) => list.to_string(),
        None if ctx.known.backend_path.is_empty() => "the backend's known-failures list".into(),
        None => ctx.known.backend_path.clone(),
    };
    format!(
        "\nan older runtime is not wrong on a newer case, but the run expects it: list it in \
         {list} with an entry {{\"trials\": [\"{name}\"], \"kind\": \"older runtime\", \
         \"reason\": \"...\", \"failure_kind\": \"predates\"}} (docs/running.md, known \
         failures), or `cargo xtask backends known-failures` writes them"
    )
}

/// A failing case's message with what helps next: whether its files are damaged, and the
/// command that reruns it.
fn with_context(ctx: &Context, name: &str, case: &CaseSpec, message: String) -> String {
    let mut msg = message;
    if let (Some(lock), true) = (&ctx.lock_file, case.indexed) {
        // A damaged file on disk reads like a kernel bug; say so when it is one.
        if let Some(note) = lockcheck::check(lock, case) {
            msg = format!("{note}\n{msg}");
        }
    }
    let env = RerunEnv {
        strict: ctx.strict,
        ..ctx.rerun.clone()
    };
    let rerun = rerun_command(name, &env);
    format!("{msg}\nrerun: {rerun}")
}

/// `Cast-19` for op `Cast` at opset 19..20, if the operator and opset resolve.
fn op_version(op_type: Option<&str>, opset: Option<i64>) -> Option<OpVersion> {
    OpVersion::resolve(op_type?, opset?).ok()
}

fn failed(kind: FailureKind, message: String) -> Failed {
    Failed { kind, message }
}

fn run_case(ctx: &Context, name: &str, spec: &CaseSpec, facts: &mut Facts) -> Result<(), Failed> {
    let error = |msg: String| failed(FailureKind::Error, msg);
    let mut choice = ctx.rule_for(name);
    facts.rule = Some(choice.clone());
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
    let model = layout::model(&spec.dir);
    if !model.is_file() {
        return Err(error(format!(
            "{}: no model.onnx in this case directory (it holds {}); a case needs model.onnx \
             beside its test_data_set_N directories",
            spec.dir.display(),
            listing(&spec.dir)
        )));
    }
    // A case that must be refused is judged by the refusal, before any backend sees it.
    if let Some(expected) = expected_error::read(&spec.dir).map_err(error)? {
        return expected_error::judge(&expected, read::load_case(&spec.dir)).map_err(error);
    }
    let case = read::load_case(&spec.dir).map_err(|e| error(e.to_string()))?;
    describe_case(facts, &case);
    let outputs = &case.model.graph.outputs;
    if !ctx.strict
        && !outputs.is_empty()
        && outputs.iter().all(|o| o.dtype.is_some_and(is_exact_type))
    {
        choice.name = RuleName::Exact;
        facts.rule = Some(choice.clone());
    }
    if case.data_sets.is_empty() {
        return Err(error(format!(
            "{}: no test_data_set_N directory, nothing to compare",
            spec.dir.display()
        )));
    }
    if let Some(why) = ctx.backend.limits().predates(&case.model) {
        let name = ctx.backend.info().name;
        return Err(failed(
            FailureKind::Predates,
            format!("backend {name}: {why}"),
        ));
    }
    let names: Vec<String> = outputs.iter().map(|o| o.name.clone()).collect();
    let file = ModelFile {
        path: &model,
        model: &case.model,
    };
    let prepared = ctx
        .backend
        .prepare(file)
        .map_err(|f| failed(f.kind, f.message))?;
    for (k, ds) in case.data_sets.iter().enumerate() {
        // Only the inputs cross the seam; the expected outputs stay here. The backend's own
        // words stay the message's first line (known-failure lists quote it).
        let actual = prepared
            .run(&ds.inputs)
            .map_err(|f| failed(f.kind, format!("{}\nin {}", f.message, ds.dir.display())))?;
        let mismatches = compare_outputs(&ds.outputs, &actual, choice.rule);
        if mismatches.is_empty() {
            continue;
        }
        let mut dir = dumps.clone();
        if case.data_sets.len() > 1 {
            dir.push(layout::data_set_name(k));
        }
        let origins = Origins::of(facts.op_type.as_deref(), &case.model.graph, &ds.inputs);
        let mut msg = format!(
            "{}:\n{}",
            ds.dir.display(),
            describe_with(&mismatches, &names, &choice.label(), &origins)
        );
        for line in dump(&dir, &ds.outputs, &actual) {
            msg.push('\n');
            msg.push_str(&line);
        }
        return Err(failed(FailureKind::Mismatch, msg));
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

/// What the model declares: opset, op type and value types. The index's op type wins: for
/// an `_expanded` case it names the operator under test (CastLike), while the model's node is
/// the inlined body (Cast).
fn describe_case(facts: &mut Facts, case: &Case) {
    facts.opset = Some(case.model.opset);
    if facts.op_type.is_none() {
        facts.op_type = case.model.graph.nodes.first().map(|n| n.op_type.clone());
    }
    let types = |values: &[ValueInfo]| -> Vec<String> {
        values
            .iter()
            .map(|v| {
                v.dtype
                    .map_or_else(|| "?".to_string(), |d| d.name().to_string())
            })
            .collect()
    };
    facts.inputs = types(&case.model.graph.inputs);
    facts.outputs = types(&case.model.graph.outputs);
}

#[cfg(all(test, feature = "native"))]
mod tests;
