//! The deep suite's findings: a backend's disagreements with our expected values, grouped
//! (docs/deep.md) per class of operator, types, attributes and input class, with the versions
//! affected, the element count, three examples, the section of docs/semantics.md that fixes
//! the expected value and a reproducer in the node-test layout.

use super::diagnosis;
use super::diagnosis::Behaviour;
use super::run;
use crate::index::{
    self, Authority, CaseAttribute, CaseEntry, CaseShape, Citation, InputClass, Section,
};
use harness::backend::FailureKind;
use harness::known::Outcome;
use harness::read::{tensor_codes, tensor_from_codes};
use harness::report::{self, TrialRecord};
use onnx_conformance::formats::Generation;
use schema::files::{DirLock, Staged};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::error::Error;
use std::path::Path;
use vocab::{DataType, OpKind, Storage, Tensor, TypeKind};

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
}

/// A defect of onnx's own that a runtime inherits.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Inherited {
    /// Whose defect it is: `onnx`.
    pub from: String,
    /// The defect, with what onnx wrote quoted.
    pub text: String,
}

/// CastLike-24's and CastLike-25's function body in onnx (1.23.2, as
/// `onnx.defs.get_schema("CastLike", 25).get_context_dependent_function` builds it for a
/// FLOAT8E8M0 `target_type`) passes `saturate` to Cast and drops `round_mode`.
const CASTLIKE_BODY: &str = "onnx's function body of CastLike-24 and CastLike-25 is one \
Cast with the attributes `to` (the target type) and `saturate = @saturate`, and no \
`round_mode` (onnx 1.23.2): a runtime that runs CastLike as this body rounds every round_mode \
as the default `up`, while its own Cast honours round_mode.";

/// Whether `f` is onnx's defect inherited: a CastLike ignoring `round_mode` on a backend
/// whose own Cast honours it (no Cast finding of that backend ignores it), which is what
/// running onnx's CastLike function body gives.
fn inherited(f: &Finding, all: &[Finding]) -> Option<Inherited> {
    let ignores = |g: &Finding| {
        g.diagnosis
            .as_ref()
            .is_some_and(|d| d.behaviour == Behaviour::RoundModeIgnored)
    };
    let own_cast_ignores = all
        .iter()
        .any(|g| g.backend == f.backend && g.op == OpKind::Cast && ignores(g));
    (f.op == OpKind::CastLike && ignores(f) && !own_cast_ignores).then(|| Inherited {
        from: "onnx".into(),
        text: CASTLIKE_BODY.into(),
    })
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
    /// The reproducer's directory, relative to the findings directory.
    pub reproducer: String,
    /// The verdict: from the authority for elements that differ, else the failure kind.
    pub verdict: Verdict,
    /// The first line of the runtime's message, for cases that did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
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
}

/// An element as bits and as a number (or text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// The bits, as `0x..` (for strings: the text).
    pub bits: String,
    /// The decoded value.
    pub decoded: String,
}

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
) -> Result<(RunSummary, Vec<Finding>), Box<dyn Error>> {
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
    eprintln!(
        "deep: {name}: {} of {} trials did not pass; grouping",
        failed.len(),
        report.trials.len()
    );
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
    let mut classes = Classes::new();
    for t in failed {
        let Some(entry) = t.case.as_deref().and_then(|c| by_case.get(c)) else {
            continue;
        };
        let dir = out.join(index::CASES_DIR).join(&entry.case);
        let dumps = harness::report::failure_dir(report_dir, &t.name);
        let judged = judge(&dir, &dumps, entry, t).map_err(|e| format!("backend {name}: {e}"))?;
        for judged in judged {
            if let Some(f) = absorb(&mut classes, name, &report.backend.version, entry, judged) {
                // The case the reproducer is cut from; its path is set once all are known.
                f.reproducer = entry.case.clone();
            }
        }
    }
    Ok((run, classes.into_values().collect()))
}

/// `cargo xtask deep --render-only`: findings.md and findings.html written again from the
/// findings.json in the tree directory `lock` holds, both renamed into place together.
pub fn render_again(root: &Path, lock: &DirLock) -> Result<(), Box<dyn Error>> {
    let out = lock.dir();
    let path = out.join("findings.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e}; run `cargo xtask deep` first", path.display()))?;
    let all: Findings =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let links = super::render::Links::of(root, out);
    let mut pages = Staged::new();
    stage_pages(&mut pages, out, &all, &links)?;
    pages.commit()?;
    eprintln!("wrote {}/findings.{{md,html}}", out.display());
    Ok(())
}

/// The causes of `findings`, for the fixtures of other modules' tests.
#[cfg(test)]
pub fn causes_of(findings: &[Finding]) -> Vec<Cause> {
    causes(findings)
}

/// findings.md and findings.html of `all`, written aside into `pages` for `out`.
fn stage_pages(
    pages: &mut Staged,
    out: &Path,
    all: &Findings,
    links: &super::render::Links,
) -> Result<(), schema::files::Error> {
    pages.add(
        &out.join("findings.md"),
        super::render::markdown(all, links).as_bytes(),
    )?;
    pages.add(
        &out.join("findings.html"),
        super::render::html(all, links).as_bytes(),
    )
}

/// The prefix of the directory a run builds its reproducers in, beside the findings.
const STAGING_PREFIX: &str = "findings.new-";

/// Writes the reproducers and findings.{json,md,html} of a finished run into the tree
/// directory `lock` holds (`cargo xtask deep` holds it for its whole run): the reproducers into
/// a staging directory, the pages as [`Staged`] files, all moved into place only once
/// everything is written. So the set on disk is all of one run: a failure leaves the last good
/// set as it was (and no staging directory), and a second run, waiting for the lock, replaces
/// it whole after this one.
pub fn publish(
    root: &Path,
    lock: &DirLock,
    by_case: &BTreeMap<&str, &CaseEntry>,
    findings: Vec<Finding>,
    runs: Vec<RunSummary>,
    tree_sha256: &str,
) -> Result<Findings, Box<dyn Error>> {
    let out = lock.dir();
    remove_leftovers(out)?;
    let staging = out.join(format!("{STAGING_PREFIX}{}", std::process::id()));
    let written = write_outputs(root, out, &staging, by_case, findings, runs, tree_sha256);
    // Holds the old reproducers after a success, the partial new ones after a failure.
    let _ = std::fs::remove_dir_all(&staging);
    written
}

/// Removes what a run killed half way left in `out`: its staging directory and the
/// temporary files of its pages. Only the holder of the lock writes them, so any found by the
/// holder is a leftover.
fn remove_leftovers(out: &Path) -> Result<(), Box<dyn Error>> {
    let Ok(listing) = std::fs::read_dir(out) else {
        return Ok(());
    };
    for entry in listing.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if name.starts_with(STAGING_PREFIX) && path.is_dir() {
            std::fs::remove_dir_all(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        } else if name.starts_with(schema::files::TEMP_PREFIX) && path.is_file() {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn write_outputs(
    root: &Path,
    out: &Path,
    staging: &Path,
    by_case: &BTreeMap<&str, &CaseEntry>,
    mut findings: Vec<Finding>,
    runs: Vec<RunSummary>,
    tree_sha256: &str,
) -> Result<Findings, Box<dyn Error>> {
    let repro = staging.join("findings");
    std::fs::create_dir_all(&repro)
        .map_err(|e| format!("cannot create {}: {e}", repro.display()))?;
    let links = super::render::Links::of(root, out);
    super::reproducer::write_all(
        &repro,
        &out.join(index::CASES_DIR),
        by_case,
        &mut findings,
        &links,
    )?;
    let all = Findings {
        tree_sha256: tree_sha256.to_string(),
        runs,
        causes: causes(&findings),
        findings,
    };
    let mut pages = Staged::new();
    let json = serde_json::to_string_pretty(&all)? + "\n";
    pages.add(&out.join("findings.json"), json.as_bytes())?;
    stage_pages(&mut pages, out, &all, &links)?;
    // Everything is written: the reproducers' directory is swapped in, then the pages renamed,
    // five renames in one directory.
    let place = out.join("findings");
    let old = staging.join("old");
    if place.exists() {
        std::fs::rename(&place, &old)
            .map_err(|e| format!("cannot move {} aside: {e}", place.display()))?;
    }
    if let Err(e) = std::fs::rename(&repro, &place) {
        // Back as it was, so the pages and reproducers on disk stay one run's.
        let _ = std::fs::rename(&old, &place);
        return Err(format!("cannot move {} into place: {e}", place.display()).into());
    }
    pages.commit()?;
    Ok(all)
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

/// A class of one backend's run: what makes two judged cases one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ClassKey {
    /// The operator.
    op: OpKind,
    /// The source type.
    from: DataType,
    /// The target type.
    to: DataType,
    /// The attributes set, as `name=value`.
    attributes: Vec<CaseAttribute>,
    /// The input class.
    input_class: FindingClass,
    /// The first version of the rule era.
    era: u32,
    /// What fixes the expected values, if the case has them.
    authority: Option<Authority>,
    /// The behaviour that reproduces the runtime's bits, if one does.
    diagnosis: Option<Behaviour>,
}
impl ClassKey {
    /// The order of the classes, and so of the findings: by the operator's and the types'
    /// names (not the type codes), then the other fields in turn.
    #[expect(clippy::type_complexity, reason = "a sort key, used once")]
    fn order(
        &self,
    ) -> (
        (&str, &str, &str),
        Vec<String>,
        FindingClass,
        u32,
        Option<Authority>,
        Option<Behaviour>,
    ) {
        (
            (self.op.name(), self.from.name(), self.to.name()),
            // As text: `axis=-1` sorts before `axis=-2` and `axis=0`, as it always has.
            self.attributes.iter().map(ToString::to_string).collect(),
            self.input_class,
            self.era,
            self.authority,
            self.diagnosis,
        )
    }
}

impl Ord for ClassKey {
    fn cmp(&self, other: &ClassKey) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for ClassKey {
    fn partial_cmp(&self, other: &ClassKey) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The classes of one backend's run.
type Classes = BTreeMap<ClassKey, Finding>;

/// The first version of the rule era of `version` (docs/semantics.md §3.2: Cast and CastLike
/// follow one set of rules up to 23 and another from 24; Concat has one era). A class never
/// spans two eras, so its examples hold for every version it lists.
fn rule_era(op: OpKind, version: u32) -> u32 {
    match (op, Generation::of_version(version)) {
        (OpKind::Cast | OpKind::CastLike, Generation::From24) => 24,
        _ => 0,
    }
}

/// Adds one judged class of case `entry` to `classes`. Returns the class when this case
/// gave it its examples (the first case with element examples, or its first case), so the
/// caller writes the reproducer from this case.
fn absorb<'a>(
    classes: &'a mut Classes,
    backend: &str,
    runtime_version: &str,
    entry: &CaseEntry,
    judged: Judged,
) -> Option<&'a mut Finding> {
    let Judged {
        class: input_class,
        authority,
        diagnosis,
        elements,
        mut examples,
        refusal,
    } = judged;
    examples.truncate(MAX_EXAMPLES);
    let key = ClassKey {
        op: entry.op,
        from: entry.from,
        to: entry.to,
        attributes: entry.attributes.clone(),
        input_class,
        era: rule_era(entry.op, entry.version),
        authority: authority.as_ref().map(|a| a.0),
        diagnosis,
    };
    // The finding's facts are the key's, so each is written once, here.
    let facts = key.clone();
    let f = classes.entry(key).or_insert_with(|| Finding {
        backend: backend.to_string(),
        runtime_version: runtime_version.to_string(),
        op: facts.op,
        op_versions: Vec::new(),
        from: facts.from,
        to: facts.to,
        attributes: facts.attributes,
        elements: 0,
        cases: Vec::new(),
        examples: Vec::new(),
        section: authority
            .as_ref()
            .map_or_else(|| section(entry, facts.input_class), |a| a.1.section),
        // After the section, which reads it.
        input_class: facts.input_class,
        reproducer: String::new(),
        verdict: match (&refusal, &authority) {
            (Some((k, _)), _) => Verdict::of_failure(*k),
            (None, Some((a, _))) => Verdict::of(*a),
            (None, None) => Verdict::DiffersFromReading,
        },
        authority: authority.as_ref().map(|a| a.0),
        citation: authority.map(|a| a.1),
        diagnosis: facts.diagnosis.map(|b| Diagnosis {
            behaviour: b,
            text: b.text().into(),
        }),
        message: refusal.map(|(_, m)| m),
    });
    if !f.op_versions.contains(&entry.version) {
        f.op_versions.push(entry.version);
    }
    f.cases.push(entry.case.clone());
    f.elements += elements;
    if f.examples.is_empty() && (!examples.is_empty() || f.reproducer.is_empty()) {
        f.examples = examples;
        // Marks the class as having a reproducer, whatever path the caller gives it.
        f.reproducer = entry.case.clone();
        return Some(f);
    }
    None
}

/// Examples kept per class.
const MAX_EXAMPLES: usize = 3;

/// When every case trial of a run crashed (a backend that never started fails every case as
/// `crash`), the first line of the first message: there is nothing to group.
fn never_ran(trials: &[TrialRecord]) -> Option<String> {
    let cases: Vec<&TrialRecord> = trials.iter().filter(|t| t.release.is_some()).collect();
    let all_crashed = !cases.is_empty()
        && cases
            .iter()
            .all(|t| t.failure_kind == Some(FailureKind::Crash));
    all_crashed.then(|| first_line(cases[0].message.as_deref().unwrap_or("")))
}

/// One class of a failing case: its elements that differ (three kept), or why it did not run.
struct Judged {
    class: FindingClass,
    authority: Option<(Authority, Citation)>,
    diagnosis: Option<Behaviour>,
    elements: usize,
    examples: Vec<Example>,
    refusal: Option<(FailureKind, String)>,
}

/// The classes of one failing case: per input class, the elements that differ; or the case
/// as a whole (its shape, or the failure kind) when it did not run or has no element ranges.
fn judge(
    dir: &Path,
    dumps: &Path,
    entry: &CaseEntry,
    t: &TrialRecord,
) -> Result<Vec<Judged>, String> {
    let whole = |kind: FailureKind, msg: &str| {
        let refusal = Some((kind, first_line(msg)));
        Ok(vec![Judged {
            class: FindingClass::Failure(kind),
            authority: None,
            diagnosis: None,
            elements: 0,
            examples: Vec::new(),
            refusal,
        }])
    };
    // What the backend said (its words are the message's first line) when it produced no
    // outputs: the run recorded it, nothing runs again.
    let kind = t.failure_kind.unwrap_or(FailureKind::Error);
    if kind != FailureKind::Mismatch {
        return whole(kind, t.message.as_deref().unwrap_or(""));
    }
    let case = match harness::read::load_case(dir) {
        Ok(c) => c,
        Err(e) => return whole(FailureKind::Error, &e.to_string()),
    };
    let ds = &case.data_sets[0];
    let dumps = match case.data_sets.len() {
        1 => dumps.to_path_buf(),
        _ => dumps.join("test_data_set_0"),
    };
    let actual = match dumped_output(&dumps, &t.name) {
        Ok(Some(actual)) => actual,
        Ok(None) => return whole(FailureKind::Mismatch, "no output"),
        // No dump to read: an output that is no value of its declared type (a BOOL of 2), a
        // file cut short. The run's message says what the backend gave; the finding is that
        // message, and the other trials are still judged.
        Err(_) => return whole(FailureKind::Mismatch, t.message.as_deref().unwrap_or("")),
    };
    let actual = [actual];
    let (Some(exp), Some(act)) = (ds.outputs.first(), actual.first()) else {
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
        let refusal = Some((FailureKind::Mismatch, msg));
        return Ok(vec![Judged {
            class: FindingClass::TypeOrShape,
            authority: None,
            diagnosis: None,
            elements: 0,
            examples: Vec::new(),
            refusal,
        }]);
    }
    let input = case
        .model
        .graph
        .initializers
        .first()
        .map(|(_, t)| t.clone())
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
            slot.1.push(Example {
                index: i,
                input: same_len.map_or(
                    Value {
                        bits: "-".into(),
                        decoded: "-".into(),
                    },
                    |x| value(x, in_codes.as_deref().unwrap_or(&[]), i),
                ),
                expected: value(exp, &exp_codes, i),
                actual: value(act, &act_codes, i),
            });
        }
    }
    if by_class.is_empty() {
        let msg = t.message.clone().unwrap_or_default();
        let refusal = Some((FailureKind::Mismatch, first_line(&msg)));
        return Ok(vec![Judged {
            class: FindingClass::Shape(entry.shape),
            authority: None,
            diagnosis: None,
            elements: 0,
            examples: Vec::new(),
            refusal,
        }]);
    }
    Ok(by_class
        .into_iter()
        .map(|((class, authority, diagnosis), (n, examples))| Judged {
            class,
            authority,
            diagnosis,
            elements: n,
            examples,
            refusal: None,
        })
        .collect())
}

/// The first actual output of a mismatched trial, as its run dumped it under `dumps`
/// (`output_0.actual.pb`); `None` when the backend produced no output 0 (the run dumped the
/// expected side alone). A mismatch without its dump is an error naming the trial and file.
fn dumped_output(dumps: &Path, trial: &str) -> Result<Option<Tensor>, String> {
    let pb = dumps.join("output_0.actual.pb");
    if !pb.is_file()
        && dumps.join("output_0.expected.npy").is_file()
        && !dumps.join("output_0.actual.npy").exists()
    {
        return Ok(None);
    }
    if !pb.is_file() {
        return Err(format!(
            "trial {trial} is a mismatch but its run left no dump {} (findings read the \
             run's outputs, they do not run it again; run the suite again)",
            pb.display()
        ));
    }
    harness::read::read_tensor(&pb, None)
        .map(Some)
        .map_err(|e| format!("trial {trial}: {e}"))
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(300).collect()
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
fn value(t: &Tensor, codes: &[u128], i: usize) -> Value {
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

/// The findings grouped by root cause, per backend in run order: strongest authority first,
/// then verdict, then diagnosis (none last).
fn causes(findings: &[Finding]) -> Vec<Cause> {
    let mut order: Vec<&str> = Vec::new();
    for f in findings {
        if !order.contains(&f.backend.as_str()) {
            order.push(&f.backend);
        }
    }
    type Key = (usize, u8, Verdict, u8, Option<Behaviour>, Option<Inherited>);
    let mut groups: BTreeMap<Key, Cause> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        let backend = order.iter().position(|b| *b == f.backend).unwrap_or(0);
        let authority = f.authority.map_or(u8::MAX, |a| a as u8);
        let behaviour = f.diagnosis.as_ref().map(|d| d.behaviour);
        // onnx's defect is a cause of its own, never merged with the runtime's.
        let inherited = inherited(f, findings);
        let key = (
            backend,
            authority,
            f.verdict,
            u8::from(behaviour.is_none()),
            behaviour,
            inherited.clone(),
        );
        let c = groups.entry(key).or_insert_with(|| Cause {
            backend: f.backend.clone(),
            authority: f.authority,
            verdict: f.verdict,
            diagnosis: behaviour,
            text: match (&f.diagnosis, f.authority) {
                (Some(d), _) => d.text.clone(),
                (None, Some(_)) => "no known behaviour reproduces the runtime's bits".into(),
                (None, None) => {
                    format!("the runtime does not run the case ({})", f.verdict.label())
                }
            },
            findings: Vec::new(),
            elements: 0,
            pairs: Vec::new(),
            versions: Vec::new(),
            inherited,
        });
        c.findings.push(i);
        c.elements += f.elements;
        let pair = format!("{}→{}", f.from, f.to);
        if !c.pairs.contains(&pair) {
            c.pairs.push(pair);
        }
        for v in &f.op_versions {
            let version = format!("{}-{v}", f.op);
            if !c.versions.contains(&version) {
                c.versions.push(version);
            }
        }
    }
    groups.into_values().collect()
}

/// The section of docs/semantics.md that fixes the expected value of the class.
fn section(e: &CaseEntry, class: FindingClass) -> Section {
    let (from, to) = (e.from, e.to);
    if e.op == OpKind::Concat {
        return Section::Concat;
    }
    if matches!(class, FindingClass::Input(c) if c.is_nan()) {
        return Section::NanCodes;
    }
    match (from, to) {
        (_, DataType::Float8E8M0) | (DataType::Float8E8M0, _) => Section::Float8E8M0,
        (DataType::String, _) | (_, DataType::String) => Section::Strings,
        (_, t) if t.bit_width() <= 4 => Section::SubByte,
        (f, _) if f.bit_width() <= 4 => Section::SubByte,
        (_, DataType::Bfloat16) => Section::VersionSwitch,
        (_, t) if t.kind() == TypeKind::Float && t.bit_width() == 8 => Section::NarrowerFloat,
        (f, t) if f.kind() == TypeKind::Float && t.kind() == TypeKind::Float => Section::WideFloats,
        _ => Section::OtherNumeric,
    }
}

/// Elements a case that did not run keeps in its reproducer, at most.
const REFUSED_ELEMENTS: usize = 8;

/// The elements of a `values` case of `len` elements that its reproducer keeps: the
/// examples' elements; for a case that did not run (no examples), the first element of each
/// input class, at most [`REFUSED_ELEMENTS`], or the first element when no class is known.
fn reproducer_elements(entry: &CaseEntry, examples: &[Example], len: usize) -> Vec<usize> {
    if !examples.is_empty() {
        return examples.iter().map(|e| e.index).collect();
    }
    let mut idx: Vec<usize> = Vec::new();
    for r in &entry.classes {
        if r.start < r.end && r.start < len && !idx.contains(&r.start) {
            idx.push(r.start);
        }
    }
    idx.truncate(REFUSED_ELEMENTS);
    if idx.is_empty() && len > 0 {
        idx.push(0);
    }
    idx
}

/// Writes the reproducer of a class: the case's model with a few input elements only (the
/// examples', or a few for a case that did not run; the whole case when its shape is not
/// `values`), one data set, under
/// `findings_dir/<rel>` (`rel` is `<label>/<name>`, chosen by `reproducer::write_all`).
pub(super) fn reproducer(
    findings_dir: &Path,
    rel: &str,
    dir: &Path,
    entry: &CaseEntry,
    examples: &[Example],
) -> Result<(), Box<dyn Error>> {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_string();
    let out = findings_dir.join(rel);
    std::fs::create_dir_all(out.join("test_data_set_0"))?;
    let model_bytes = std::fs::read(dir.join("model.onnx"))?;
    let case = harness::read::load_case(dir)?;
    let ds = &case.data_sets[0];
    let fed = ds
        .inputs
        .first()
        .filter(|t| entry.shape == CaseShape::Values && !t.is_empty());
    let Some(input) = fed else {
        // Copy the (small) case as it is.
        for entry in walkdir::WalkDir::new(dir).min_depth(1) {
            let entry = entry?;
            let to = out.join(entry.path().strip_prefix(dir)?);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to)?;
            } else {
                std::fs::copy(entry.path(), &to)?;
            }
        }
        return Ok(());
    };
    let idx = reproducer_elements(entry, examples, input.len());
    let pick = |t: &Tensor| -> Result<Tensor, Box<dyn Error>> {
        Ok(match t.storage() {
            Storage::String(v) => Tensor::from_vec(
                vec![idx.len()],
                idx.iter().map(|&i| v[i].clone()).collect::<Vec<_>>(),
            )?,
            _ => {
                let c = tensor_codes(t).unwrap_or_default();
                tensor_from_codes(
                    t.dtype(),
                    vec![idx.len()],
                    &idx.iter().map(|&i| c[i]).collect::<Vec<_>>(),
                )?
            }
        })
    };
    use prost::Message;
    let mut mp = harness::proto::ModelProto::decode(model_bytes.as_slice())?;
    let n = idx.len() as i64;
    if let Some(g) = mp.graph.as_mut() {
        g.name = name.clone();
        for vi in [g.input.first_mut(), g.output.first_mut()]
            .into_iter()
            .flatten()
        {
            if let Some(shape) = vi
                .r#type
                .as_mut()
                .and_then(|t| t.tensor_type.as_mut())
                .and_then(|t| t.shape.as_mut())
            {
                for d in &mut shape.dim {
                    d.dim_value = Some(n);
                }
            }
        }
    }
    std::fs::write(out.join("model.onnx"), mp.encode_to_vec())?;
    let names: Vec<String> = mp
        .graph
        .iter()
        .flat_map(|g| g.input.iter().map(|v| v.name.clone()))
        .collect();
    for (k, t) in ds.inputs.iter().enumerate() {
        let t = if k == 0 { pick(input)? } else { t.clone() };
        let tp = harness::write::tensor_proto(names.get(k).map_or("input", |s| s), &t);
        std::fs::write(
            out.join(format!("test_data_set_0/input_{k}.pb")),
            tp.encode_to_vec(),
        )?;
    }
    let expected = pick(&ds.outputs[0])?;
    let tp = harness::write::tensor_proto("output", &expected);
    std::fs::write(out.join("test_data_set_0/output_0.pb"), tp.encode_to_vec())?;
    Ok(())
}

#[cfg(test)]
mod tests;
