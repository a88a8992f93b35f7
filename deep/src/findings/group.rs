//! Judged cases grouped: into classes, one finding per class of a backend's run, and the
//! findings into causes, one per backend, authority, verdict and diagnosis; a defect of onnx's
//! own that a runtime inherits is a cause of its own.

use super::diagnosis::Behaviour;
use super::finding::{Cause, Diagnosis, Example, Finding, FindingClass, Inherited, Verdict};
use crate::index::{Authority, CaseAttribute, CaseEntry, CaseShape, Citation, Section};
use harness::backend::FailureKind;
use onnx_conformance::formats::Generation;
use std::collections::BTreeMap;
use vocab::{DataType, OpKind, TypeKind};

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

/// A class of one backend's run: what makes two judged cases one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ClassKey {
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
pub(super) type Classes = BTreeMap<ClassKey, Finding>;

/// The first version of the rule era of `version` (docs/semantics.md §3.2: Cast and CastLike
/// follow one set of rules up to 23 and another from 24; Concat has one era). A class never
/// spans two eras, so its examples hold for every version it lists.
fn rule_era(op: OpKind, version: u32) -> u32 {
    match (op, Generation::of_version(version)) {
        (OpKind::Cast | OpKind::CastLike, Generation::From24) => 24,
        _ => 0,
    }
}

/// Adds one judged class of case `entry` to `classes`. The case that gives a class its examples
/// (the first with element examples, or its first case) is the one its reproducer is cut from.
pub(super) fn absorb(
    classes: &mut Classes,
    backend: &str,
    runtime_version: &str,
    entry: &CaseEntry,
    judged: Judged,
) {
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
        source_case: String::new(),
        verdict: match (&refusal, &authority) {
            // A refusal with an authority is the loader's: it breaks onnx.proto.
            (Some(_), Some((a, _))) => Verdict::of(*a),
            (Some((k, _)), None) => Verdict::of_failure(*k),
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
        configurations: Vec::new(),
    });
    if !f.op_versions.contains(&entry.version) {
        f.op_versions.push(entry.version);
    }
    f.cases.push(entry.case.clone());
    f.elements += elements;
    if f.examples.is_empty() && (!examples.is_empty() || f.source_case.is_empty()) {
        f.examples = examples;
        f.source_case = entry.case.clone();
    }
}

/// Examples kept per class.
pub(super) const MAX_EXAMPLES: usize = 3;

/// One class of a failing case: its elements that differ (three kept), or why it did not run.
pub(super) struct Judged {
    pub(super) class: FindingClass,
    pub(super) authority: Option<(Authority, Citation)>,
    pub(super) diagnosis: Option<Behaviour>,
    pub(super) elements: usize,
    pub(super) examples: Vec<Example>,
    pub(super) refusal: Option<(FailureKind, String)>,
}

impl Judged {
    /// A case judged as a whole (`class`), for why it gave no elements to compare: the failure
    /// `kind` and the first line of the message.
    pub(super) fn whole(class: FindingClass, kind: FailureKind, message: &str) -> Judged {
        Judged {
            class,
            authority: None,
            diagnosis: None,
            elements: 0,
            examples: Vec::new(),
            refusal: Some((kind, first_line(message))),
        }
    }
}

/// The first line of a runtime's message, at most 300 characters: what a finding quotes.
pub(super) fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(300).collect()
}

/// The findings of one backend in one more configuration added to those of the others: a
/// class it shows too (same operator, types, attributes, input class, rule era, authority,
/// verdict and diagnosis) gains the configuration, its versions and cases (its counts and
/// examples stay the first configuration's, its element count the largest); a class only it
/// shows is appended, in its order.
pub fn merge_configurations(mut into: Vec<Finding>, more: Vec<Finding>) -> Vec<Finding> {
    let key = |f: &Finding| {
        (
            f.op,
            f.from,
            f.to,
            f.attributes.clone(),
            f.input_class,
            f.op_versions.first().map(|&v| rule_era(f.op, v)),
            f.authority,
            f.verdict,
            f.diagnosis.as_ref().map(|d| d.behaviour),
        )
    };
    for f in more {
        match into
            .iter_mut()
            .find(|g| g.backend == f.backend && key(g) == key(&f))
        {
            Some(g) => {
                for k in f.configurations {
                    if !g.configurations.contains(&k) {
                        g.configurations.push(k);
                    }
                }
                for v in f.op_versions {
                    if !g.op_versions.contains(&v) {
                        g.op_versions.push(v);
                    }
                }
                for c in f.cases {
                    if !g.cases.contains(&c) {
                        g.cases.push(c);
                    }
                }
                g.elements = g.elements.max(f.elements);
            }
            None => into.push(f),
        }
    }
    into
}

/// The findings grouped by root cause, per backend in run order: strongest authority first,
/// then verdict, then diagnosis (none last).
pub(super) fn causes(findings: &[Finding]) -> Vec<Cause> {
    let mut order: Vec<&str> = Vec::new();
    for f in findings {
        if !order.contains(&f.backend.as_str()) {
            order.push(&f.backend);
        }
    }
    type Key = (
        usize,
        u8,
        Verdict,
        u8,
        Option<Behaviour>,
        Option<String>,
        Option<Inherited>,
    );
    let mut groups: BTreeMap<Key, Cause> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        let backend = order.iter().position(|b| *b == f.backend).unwrap_or(0);
        let authority = f.authority.map_or(u8::MAX, |a| a as u8);
        let behaviour = f.diagnosis.as_ref().map(|d| d.behaviour);
        // onnx's defect is a cause of its own, never merged with the runtime's.
        let inherited = inherited(f, findings);
        let trigger = trigger(f, findings);
        let key = (
            backend,
            authority,
            f.verdict,
            u8::from(behaviour.is_none()),
            behaviour,
            trigger.clone(),
            inherited.clone(),
        );
        let c = groups.entry(key).or_insert_with(|| Cause {
            backend: f.backend.clone(),
            authority: f.authority,
            verdict: f.verdict,
            diagnosis: behaviour,
            text: match (&f.diagnosis, f.authority, &trigger) {
                (Some(d), _, Some(t)) => format!("{} ({t})", d.text),
                (Some(d), _, None) => d.text.clone(),
                (None, Some(_), t) => format!(
                    "no known behaviour reproduces the runtime's bits: a guess, one cause per \
                     operator, pair family and case shape ({}); it may hold more than one defect",
                    t.as_deref().unwrap_or("")
                ),
                (None, None, _) => {
                    format!("the runtime does not run the case ({})", f.verdict.label())
                }
            },
            findings: Vec::new(),
            elements: 0,
            pairs: Vec::new(),
            versions: Vec::new(),
            inherited,
            issue: String::new(),
            trigger: trigger.clone(),
            configurations: Vec::new(),
        });
        c.findings.push(i);
        c.elements += f.elements;
        for k in &f.configurations {
            if !c.configurations.contains(k) {
                c.configurations.push(k.clone());
            }
        }
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

/// What triggers a finding beyond the behaviour that reproduces it, so that a cause is one
/// defect: a behaviour the backend shows only in models written in another encoding (a
/// loader's reading of onnx.proto, not the kernel's) is a trigger of its own; an undiagnosed
/// finding is grouped by operator (Cast and CastLike together, Concat apart), pair family and
/// case shape, so that no guess holds two families or two shapes. `None` for a behaviour the
/// backend also shows in plain models and for a case that did not run.
fn trigger(f: &Finding, all: &[Finding]) -> Option<String> {
    let shape = match f.input_class {
        // The values of a placed case are those of its pair's values case: where they sit is
        // no trigger of another defect unless a behaviour says so.
        FindingClass::Shape(CaseShape::Placed(_)) => Some(CaseShape::Values),
        FindingClass::Shape(s) => Some(s),
        FindingClass::Input(_) | FindingClass::Other => Some(CaseShape::Values),
        FindingClass::TypeOrShape | FindingClass::Failure(_) => None,
    }?;
    f.authority?;
    let encoded = |g: &Finding| {
        matches!(
            g.input_class,
            FindingClass::Shape(CaseShape::Encoded { .. })
        )
    };
    match (&f.diagnosis, shape) {
        // The loader's behaviours name their variant themselves.
        (Some(d), _) if d.behaviour.is_loader() => None,
        // Values outside the target type are one defect per target (rten's unrounded FLOAT16
        // and its unnormalised BOOL are two).
        (Some(d), _) if d.behaviour == Behaviour::NotOfTheTargetType => {
            Some(format!("into {}", f.to))
        }
        (Some(d), CaseShape::Encoded { encoding, .. }) => {
            let in_plain_models = all.iter().any(|g| {
                g.backend == f.backend
                    && !encoded(g)
                    && g.diagnosis
                        .as_ref()
                        .is_some_and(|e| e.behaviour == d.behaviour)
            });
            (!in_plain_models).then(|| format!("when the model is written as {}", encoding.name()))
        }
        (Some(_), _) => None,
        (None, shape) => {
            let op = match f.op {
                OpKind::Concat => "Concat",
                _ => "Cast",
            };
            Some(format!("{op} {}→{} {shape}", family(f.from), family(f.to)))
        }
    }
}

/// The family of a type in a pair family: every binary floating type is `floating`, every
/// integer `integer`; the others stand alone.
fn family(t: DataType) -> &'static str {
    match t.kind() {
        TypeKind::Float => "floating",
        TypeKind::Signed | TypeKind::Unsigned => "integer",
        _ => t.name(),
    }
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

/// The causes of `findings`, for the fixtures of other modules' tests.
#[cfg(test)]
pub(crate) fn causes_of(findings: &[Finding]) -> Vec<Cause> {
    causes(findings)
}
