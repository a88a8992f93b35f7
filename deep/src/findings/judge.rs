//! A run's failing trials judged: each mismatch element by element against its case's
//! expected values, by the outputs the run dumped, into classes with their authority and
//! diagnosis; a trial that did not run, by its failure kind and message. Nothing runs again.

use super::diagnosis::{self, Behaviour};
use super::finding::{Example, Finding, FindingClass, RunSummary, Value};
use super::group::{absorb, first_line, Classes, Judged, MAX_EXAMPLES};
use super::loader::{self, Twin};
use crate::generate::run;
use crate::index::{self, Authority, CaseAttribute, CaseEntry, CaseShape, Citation, Section};
use crate::Error;
use harness::backend::FailureKind;
use harness::case::Case;
use harness::known::Outcome;
use harness::read::tensor_codes;
use harness::report::{self, TrialRecord};
use harness::Dumped;
use schema::layout;
use std::collections::BTreeMap;
use std::path::Path;
use vocab::{DataType, OpKind, Storage, Tensor, TypeKind};

/// The findings of one finished run of the deep tree on backend `name` (its `report`): every
/// trial that did not pass is judged against the case's `entry` in `by_case`: a mismatch by
/// the actual outputs the run dumped under `report_dir` (the run's report directory,
/// `failures/<trial>/output_K.actual.pb`), any other failure by its record's kind and
/// message. Nothing runs again. A trial of the run itself (a guard) that failed, a backend
/// that crashed on every case, or a mismatch without its dump is an error.
pub fn of_run(
    out: &Path,
    by_case: &BTreeMap<&str, &CaseEntry>,
    name: &str,
    report: &report::Report,
    report_dir: &Path,
) -> Result<(RunSummary, Vec<Finding>), Error> {
    if report.backend.name != *name {
        return Err(format!(
            "backend {name}: the report is a run of {:?}",
            report.backend.name
        )
        .into());
    }
    let failed: Vec<&TrialRecord> = report
        .trials
        .iter()
        .filter(|t| t.outcome != Outcome::Pass)
        .collect();
    if let Some(t) = failed.iter().find(|t| t.release.is_none()) {
        return Err(format!(
            "backend {name}: {}: {}",
            t.name,
            t.message.as_deref().unwrap_or("")
        )
        .into());
    }
    if let Some(why) = never_ran(&report.trials) {
        return Err(format!(
            "backend {name} crashed on every case, so it most likely never started: {why}; \
             no findings were written (check its command with `cargo xtask backends \
             check-worker '<command>'`)"
        )
        .into());
    }
    let configuration = report
        .run
        .as_ref()
        .and_then(|r| r.configuration.as_ref())
        .map(|c| c.active.clone());
    let run = RunSummary {
        backend: name.to_string(),
        runtime_version: report.backend.version.clone(),
        trials: report.trials.len(),
        failed: failed.len(),
        filters: report
            .run
            .as_ref()
            .map(|r| r.filters.clone())
            .unwrap_or_default(),
        configuration: configuration.clone(),
        backend_value: None,
    };
    // A mismatch whose dump is missing is judged by its message; but when no mismatch left
    // one, the dumps are being looked for in the wrong place: stop rather than judge the run
    // by its messages alone.
    let mismatches: Vec<&&TrialRecord> = failed
        .iter()
        .filter(|t| t.failure_kind == Some(FailureKind::Mismatch))
        .collect();
    let dumped = |t: &&&TrialRecord| harness::report::failure_dir(report_dir, &t.name).is_dir();
    if !mismatches.is_empty() && !mismatches.iter().any(dumped) {
        return Err(format!(
            "backend {name}: none of its {} mismatches left a dump under {}: is that the \
             report directory of this run?",
            mismatches.len(),
            report_dir.display()
        )
        .into());
    }
    let twin = twins(by_case, &report.trials);
    let mut classes = Classes::new();
    for t in failed {
        let Some(entry) = t.case.as_deref().and_then(|c| by_case.get(c)) else {
            continue;
        };
        let dir = out.join(index::CASES_DIR).join(&entry.case);
        let dumps = harness::report::failure_dir(report_dir, &t.name);
        let mut judged =
            judge(&dir, &dumps, entry, t).map_err(|e| format!("backend {name}: {e}"))?;
        loader::attribute(entry, twin(entry), &mut judged);
        for judged in judged {
            absorb(&mut classes, name, &report.backend.version, entry, judged);
        }
    }
    let mut found: Vec<Finding> = classes.into_values().collect();
    for f in &mut found {
        f.configurations = configuration.iter().cloned().collect();
    }
    Ok((run, found))
}

/// What the plain twin of a case did in this run: the case of the same operator version,
/// types and attributes written as onnx writes it (a `values` case where there is one).
fn twins<'a>(
    by_case: &'a BTreeMap<&str, &CaseEntry>,
    trials: &'a [TrialRecord],
) -> impl Fn(&CaseEntry) -> Twin + 'a {
    // The attributes as text: `CaseAttribute` has no order of its own.
    type Key = (OpKind, u32, DataType, DataType, Vec<String>);
    fn key(e: &CaseEntry) -> Key {
        let attrs = e.attributes.iter().map(CaseAttribute::to_string).collect();
        (e.op, e.version, e.from, e.to, attrs)
    }
    let mut plain: BTreeMap<Key, &'a CaseEntry> = BTreeMap::new();
    for e in by_case.values() {
        if matches!(e.shape, CaseShape::Encoded { .. }) {
            continue;
        }
        let slot = plain.entry(key(e)).or_insert(e);
        if e.shape == CaseShape::Values {
            *slot = e;
        }
    }
    let by_name: BTreeMap<&str, &TrialRecord> = trials
        .iter()
        .filter_map(|t| Some((t.case.as_deref()?, t)))
        .collect();
    move |e: &CaseEntry| {
        let record = plain
            .get(&key(e))
            .and_then(|twin| by_name.get(twin.case.as_str()));
        match record {
            Some(t) if t.outcome == Outcome::Pass => Twin::Passed,
            Some(t) if t.failure_kind == Some(FailureKind::Mismatch) => Twin::Differed,
            _ => Twin::NotRun,
        }
    }
}

/// When every case trial of a run crashed (a backend that never started fails every case as
/// `crash`), the first line of the first message: there is nothing to group.
pub(super) fn never_ran(trials: &[TrialRecord]) -> Option<String> {
    let cases: Vec<&TrialRecord> = trials.iter().filter(|t| t.release.is_some()).collect();
    let all_crashed = !cases.is_empty()
        && cases
            .iter()
            .all(|t| t.failure_kind == Some(FailureKind::Crash));
    all_crashed.then(|| first_line(cases[0].message.as_deref().unwrap_or("")))
}

/// A mismatch without a dump, judged by the run's message: when it says the output's values
/// are no value of the target type (`... are no BOOL value`, as the harness and the in-process
/// adapters word it), a bug of the page's rule that Cast's output is of type `to`; anything
/// else (a file cut short), the message as it is.
fn no_value_of_the_type(entry: &CaseEntry, message: &str) -> Judged {
    let line = first_line(message);
    let target = entry.to.name();
    let says = [
        format!("no {target} value"),
        format!("which is no {target}"),
    ];
    let mut j = Judged::whole(
        FindingClass::Failure(FailureKind::Mismatch),
        FailureKind::Mismatch,
        &line,
    );
    if entry.op != OpKind::Concat && says.iter().any(|s| message.contains(s.as_str())) {
        j.class = FindingClass::Shape(entry.shape);
        j.diagnosis = Some(Behaviour::NotOfTheTargetType);
        j.authority = Some((
            Authority::Page,
            Citation {
                section: Section::Conversions,
                rule: format!(
                    "{}'s output is a tensor of the type its target names: every element is a \
                     value of {target}",
                    entry.op
                ),
                source: format!(
                    "https://github.com/onnx/onnx/blob/main/docs/Changelog.md#{}-{}",
                    entry.op, entry.version
                ),
            },
        ));
    }
    j
}

/// The classes of one failing case: per input class, the elements that differ; or the case
/// as a whole (its shape, or the failure kind) when it did not run or has no element ranges.
pub(super) fn judge(
    dir: &Path,
    dumps: &Path,
    entry: &CaseEntry,
    t: &TrialRecord,
) -> Result<Vec<Judged>, String> {
    let message = t.message.as_deref().unwrap_or("");
    let whole = |kind: FailureKind, msg: &str| {
        Ok(vec![Judged::whole(FindingClass::Failure(kind), kind, msg)])
    };
    // What the backend said (its words are the message's first line) when it produced no
    // outputs: the run recorded it, nothing runs again.
    let kind = t.failure_kind.unwrap_or(FailureKind::Error);
    if kind != FailureKind::Mismatch {
        return whole(kind, message);
    }
    let case = match harness::read::load_case(dir) {
        Ok(c) => c,
        Err(e) => return whole(FailureKind::Error, &e.to_string()),
    };
    let ds = &case.data_sets[0];
    let dumps = match case.data_sets.len() {
        1 => dumps.to_path_buf(),
        _ => layout::data_set(dumps, 0),
    };
    let act = match harness::read_dumped_output(&dumps, 0) {
        Ok(Dumped::Output(actual)) => actual,
        Ok(Dumped::NotProduced) => return whole(FailureKind::Mismatch, "no output"),
        // No dump to read: an output that is no value of its declared type (a BOOL of 2), a
        // file cut short. The run's message says what the backend gave; the finding is that
        // message, and the other trials are still judged.
        Err(_) => return Ok(vec![no_value_of_the_type(entry, message)]),
    };
    let Some(exp) = ds.outputs.first() else {
        return whole(FailureKind::Mismatch, "no output");
    };
    if exp.dtype() != act.dtype() || exp.shape() != act.shape() {
        let msg = format!(
            "output is {} {:?}, expected {} {:?}",
            act.dtype().name(),
            act.shape(),
            exp.dtype().name(),
            exp.shape()
        );
        let kind = FailureKind::Mismatch;
        return Ok(vec![Judged::whole(FindingClass::TypeOrShape, kind, &msg)]);
    }
    let judged = elements(entry, &case, exp, &act);
    if judged.is_empty() {
        let class = FindingClass::Shape(entry.shape);
        return Ok(vec![Judged::whole(class, FailureKind::Mismatch, message)]);
    }
    Ok(judged)
}

/// The elements of output 0 of `case` that differ from `exp` in `act`, per input class,
/// authority and diagnosis, each group with its count and first examples; empty when none
/// differs bit for bit.
fn elements(entry: &CaseEntry, case: &Case, exp: &Tensor, act: &Tensor) -> Vec<Judged> {
    let ds = &case.data_sets[0];
    // The data input: an initializer, a Constant node's value, or the first fed input.
    let constant = case.model.graph.nodes.iter().find_map(|n| {
        (n.op_type == "Constant").then_some(())?;
        n.attributes.iter().find_map(|a| match &a.value {
            vocab::AttrValue::Tensor(t) if a.name == "value" => Some(t.clone()),
            _ => None,
        })
    });
    let input = case
        .model
        .graph
        .initializers
        .first()
        .map(|(_, t)| t.clone())
        .or(constant)
        .or_else(|| ds.inputs.first().cloned());
    // Codes once per tensor: a case of 65536 elements may differ everywhere.
    let codes = |t: &Tensor| tensor_codes(t).unwrap_or_default();
    let (in_codes, exp_codes, act_codes) = (input.as_ref().map(codes), codes(exp), codes(act));
    let differ = differing(exp, act);
    let subject = diagnosis::Subject {
        model: &case.model,
        fed: &ds.inputs,
        input: input.as_ref(),
        expected: exp,
        actual: act,
        encoding: match entry.shape {
            CaseShape::Encoded { encoding, .. } => encoding,
            _ => harness::write::Encoding::Onnx,
        },
    };
    let causes = diagnosis::diagnose(&subject, &differ);
    type Key = (
        FindingClass,
        Option<(Authority, Citation)>,
        Option<Behaviour>,
    );
    let mut by_class: BTreeMap<Key, (usize, Vec<Example>)> = BTreeMap::new();
    for (&i, cause) in differ.iter().zip(causes) {
        let class = match entry.shape {
            CaseShape::Values => entry
                .class_of(i)
                .map_or(FindingClass::Other, FindingClass::Input),
            shape => FindingClass::Shape(shape),
        };
        let slot = by_class
            .entry((class, Some(authority_at(entry, i)), cause))
            .or_default();
        slot.0 += 1;
        if slot.1.len() < MAX_EXAMPLES {
            let same_len = input.as_ref().filter(|x| x.len() == exp.len());
            let (input, source) = match (entry.op, concat_source(case, exp, i)) {
                (OpKind::Concat, Some((name, t, k))) => {
                    let codes = tensor_codes(t).unwrap_or_default();
                    (value(t, &codes, k), Some(format!("{name}[{k}]")))
                }
                _ => {
                    let none = Value {
                        bits: "-".into(),
                        decoded: "-".into(),
                    };
                    let codes = in_codes.as_deref().unwrap_or(&[]);
                    (same_len.map_or(none, |x| value(x, codes, i)), None)
                }
            };
            slot.1.push(Example {
                index: i,
                input,
                expected: value(exp, &exp_codes, i),
                actual: value(act, &act_codes, i),
                source,
            });
        }
    }
    by_class
        .into_iter()
        .map(|((class, authority, diagnosis), (n, examples))| Judged {
            class,
            authority,
            diagnosis,
            elements: n,
            examples,
            refusal: None,
        })
        .collect()
}

/// The input of a one-node Concat case that output element `i` of `out` is copied from: its
/// name, its tensor and the element's index in it (docs/semantics.md §6: the inputs' blocks
/// follow each other along the axis, in input order).
fn concat_source<'c>(
    case: &'c Case,
    out: &Tensor,
    i: usize,
) -> Option<(&'c str, &'c Tensor, usize)> {
    let node = case.model.graph.nodes.first()?;
    let fed = &case.data_sets.first()?.inputs;
    let tensor = |name: &str| {
        let k = case
            .model
            .graph
            .inputs
            .iter()
            .position(|v| v.name == name)?;
        fed.get(k)
    };
    let inputs: Vec<(&str, &Tensor)> = node
        .inputs
        .iter()
        .map(|n| Some((n.as_str(), tensor(n)?)))
        .collect::<Option<_>>()?;
    let dims = out.shape();
    let axis = match node.attributes.iter().find(|a| a.name == "axis") {
        Some(a) => match a.value {
            vocab::AttrValue::Int(v) => v,
            _ => return None,
        },
        // Concat-1's default.
        None => 1,
    };
    let axis = usize::try_from(if axis < 0 {
        axis + dims.len() as i64
    } else {
        axis
    })
    .ok()?;
    let inner: usize = dims.get(axis + 1..)?.iter().product();
    let along = *dims.get(axis)?;
    let (outer, at, within) = (
        i / (inner * along).max(1),
        (i / inner.max(1)) % along.max(1),
        i % inner.max(1),
    );
    let mut start = 0;
    for (name, t) in inputs {
        let extent = *t.shape().get(axis)?;
        if (start..start + extent).contains(&at) {
            let k = outer * extent * inner + (at - start) * inner + within;
            return Some((name, t, k));
        }
        start += extent;
    }
    None
}

/// Whether an element type's NaNs all match each other (the IEEE kinds and float8: the spec
/// fixes no NaN bits there that the comparison keeps).
fn nan_free_bits(t: DataType) -> bool {
    t.kind() == TypeKind::Float
}

/// The indices where `act` differs from `exp`: bit for bit, any NaN matching any NaN.
fn differing(exp: &Tensor, act: &Tensor) -> Vec<usize> {
    match (exp.storage(), act.storage()) {
        (Storage::String(e), Storage::String(a)) => {
            (0..e.len()).filter(|&i| e[i] != a[i]).collect()
        }
        _ => {
            let (Some(e), Some(a)) = (tensor_codes(exp), tensor_codes(act)) else {
                return Vec::new();
            };
            let nan = |t: &Tensor, c: &[u128]| -> Vec<bool> {
                if nan_free_bits(t.dtype()) {
                    run::decode(t.dtype(), c)
                        .iter()
                        .map(|x| x.is_nan())
                        .collect()
                } else {
                    vec![false; c.len()]
                }
            };
            let (en, an) = (nan(exp, &e), nan(act, &a));
            (0..e.len())
                .filter(|&i| e[i] != a[i] && !(en[i] && an[i]))
                .collect()
        }
    }
}

/// Element `i` of `t` as bits and decoded.
pub(super) fn value(t: &Tensor, codes: &[u128], i: usize) -> Value {
    if let Storage::String(v) = t.storage() {
        return Value {
            bits: format!("{:?}", v[i]),
            decoded: format!("{:?}", v[i]),
        };
    }
    let code = codes.get(i).copied().unwrap_or(0);
    let width = (t.dtype().bit_width() as usize).div_ceil(4).max(1);
    let decoded = match t.dtype().kind() {
        TypeKind::Float | TypeKind::PowerOfTwo => {
            format!("{:?}", run::decode(t.dtype(), &[code])[0])
        }
        TypeKind::Signed => {
            let w = t.dtype().bit_width();
            format!("{}", ((code << (128 - w)) as i128) >> (128 - w))
        }
        TypeKind::Bool => format!("{}", code != 0),
        _ => format!("{code}"),
    };
    Value {
        bits: format!("0x{code:0width$x}"),
        decoded,
    }
}

/// The authority of output element `i` of a case: its input element's class range; Concat's
/// page; for an element no range holds, the weakest authority of the case.
fn authority_at(entry: &CaseEntry, i: usize) -> (Authority, Citation) {
    if entry.op == OpKind::Concat {
        return (
            Authority::Page,
            Citation {
                section: Section::Concat,
                rule: "Concat copies its inputs' elements unchanged, in order along the axis"
                    .into(),
                source: format!(
                    "https://github.com/onnx/onnx/blob/main/docs/Changelog.md#Concat-{}",
                    entry.version
                ),
            },
        );
    }
    if let Some(r) = entry.range_of(i) {
        return (r.authority, r.citation.clone());
    }
    entry
        .classes
        .iter()
        .max_by_key(|r| r.authority)
        .map(|r| (r.authority, r.citation.clone()))
        .unwrap_or((
            Authority::Reading,
            Citation {
                section: Section::Conversions,
                rule: "no class range covers this element".into(),
                source: String::new(),
            },
        ))
}
