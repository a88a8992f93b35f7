//! Checking someone's outputs: vector files with an `observed` column, each element compared
//! as the deep suite compares (bits; any NaN matches any NaN in a floating target), the
//! mismatches grouped by pair, authority, class and diagnosis as findings are
//! ([`crate::findings::diagnosis`]).

use super::elements::{self, Classifier, Items, Tag};
use super::export::item;
use super::line::{self, Token};
use super::units::{Part, Unit};
use crate::findings::diagnosis::{self, Behaviour, Subject};
use crate::findings::Verdict;
use crate::generate::model;
use crate::generate::{plan, run};
use crate::index::{Authority, InputClass};
use crate::Error;
use harness::write::Encoding;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use vocab::{DataType, TypeKind};

/// Lines compared at once: our expected values and the diagnoses run per batch.
const BATCH: usize = 1 << 16;

/// Examples kept per group.
const EXAMPLES: usize = 3;

/// The result of a check.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Files read.
    pub files: usize,
    /// Element lines compared.
    pub lines: u64,
    /// Elements whose observed value differs from the expected one.
    pub mismatches: u64,
    /// The mismatches grouped, in pair, authority, class and diagnosis order.
    pub groups: Vec<Group>,
}

/// Mismatches of one pair, authority, input class and diagnosis.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The operator version, pair and attributes, as `Cast-19 FLOAT -> FLOAT8E4M3FN saturate=0`.
    pub pair: String,
    /// What fixes the expected values.
    pub authority: Authority,
    /// What a difference from them says of the converter.
    pub verdict: Verdict,
    /// The input class.
    pub class: InputClass,
    /// The known wrong behaviour that reproduces the observed bits, if one does.
    pub diagnosis: Option<Behaviour>,
    /// Elements.
    pub elements: u64,
    /// The first few: `file:line`, input, expected, observed.
    pub examples: Vec<[String; 4]>,
}

/// Checks `files`; an error names the file, the line and the column that cannot be read.
pub fn check(files: &[PathBuf]) -> Result<Report, Error> {
    let mut groups: BTreeMap<Key, Group> = BTreeMap::new();
    let mut lines = 0;
    for f in files {
        lines += check_file(f, &mut groups)?;
    }
    let groups: Vec<Group> = groups.into_values().collect();
    Ok(Report {
        files: files.len(),
        lines,
        mismatches: groups.iter().map(|g| g.elements).sum(),
        groups,
    })
}

type Key = (String, Authority, InputClass, Option<Behaviour>);

/// One file's lines not yet compared.
struct Pending {
    unit: Unit,
    classifier: Option<Classifier>,
    at: Vec<usize>,
    inputs: Items,
    expected: Items,
    observed: Items,
    tags: Vec<Option<Tag>>,
}

fn check_file(path: &Path, groups: &mut BTreeMap<Key, Group>) -> Result<u64, Error> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut header: Vec<(String, String)> = Vec::new();
    let mut pending: Option<Pending> = None;
    let mut lines = 0u64;
    for (n, text) in std::io::BufReader::new(file).lines().enumerate() {
        let at = n + 1;
        let text = text.map_err(|e| format!("{shown}:{at}: cannot read: {e}"))?;
        if text.trim().is_empty() {
            continue;
        }
        if let Some((k, v)) = line::header_entry(&text) {
            if pending.is_none() {
                header.push((k.to_string(), v.to_string()));
            }
            continue;
        }
        if pending.is_none() {
            let unit = unit_of(&header).map_err(|e| format!("{shown}:{at}: {e}"))?;
            pending = Some(Pending::new(unit));
        }
        let p = pending.as_mut().expect("set above");
        p.push(at, &text)
            .map_err(|e| format!("{shown}:{at}: {e}"))?;
        lines += 1;
        if p.at.len() >= BATCH {
            let unit = p.unit.clone();
            let full = std::mem::replace(p, Pending::new(unit));
            full.judge(&shown, groups)?;
        }
    }
    if let Some(p) = pending {
        p.judge(&shown, groups)?;
    }
    Ok(lines)
}

/// The unit a header names (its part does not matter to a check).
fn unit_of(header: &[(String, String)]) -> Result<Unit, String> {
    let h = line::header(header)?;
    let spec = vocab::version::versions_of(h.op)
        .find(|s| s.since() == h.version)
        .ok_or_else(|| format!("header: {} has no version {}", h.op, h.version))?;
    for t in [h.from, h.to] {
        if !spec.types.contains(t) {
            return Err(format!(
                "header: {}-{} does not take {}",
                h.op,
                h.version,
                t.name()
            ));
        }
    }
    // Only the attribute sets an export writes: each changes the result, and the diagnosis
    // varies exactly those.
    let combos = plan::attr_combos(spec, h.to);
    if !combos.contains(&h.attrs) {
        let sets: Vec<String> = combos.iter().map(|c| line::attrs_text(c)).collect();
        return Err(format!(
            "header `attributes`: {} is not an attribute set of {}-{} into {} (one of: {})",
            line::attrs_text(&h.attrs),
            h.op,
            h.version,
            h.to.name(),
            sets.join(", ")
        ));
    }
    Ok(Unit {
        spec,
        from: h.from,
        to: h.to,
        attrs: h.attrs,
        part: Part::Exhaustive,
    })
}

fn empty(t: DataType) -> Items {
    match t {
        DataType::String => Items::Strings(Vec::new()),
        _ => Items::Codes(Vec::new()),
    }
}

fn push_item(items: &mut Items, t: DataType, token: &Token) -> Result<(), String> {
    match items {
        Items::Codes(c) => c.push(line::parse_code(t, token)?),
        Items::Strings(s) => s.push(line::parse_string(token)?),
    }
    Ok(())
}

impl Pending {
    fn new(unit: Unit) -> Pending {
        Pending {
            classifier: None,
            at: Vec::new(),
            inputs: empty(unit.from),
            expected: empty(unit.to),
            observed: empty(unit.to),
            tags: Vec::new(),
            unit,
        }
    }

    /// Reads one element line: `input expected authority/class observed`, or `input expected
    /// observed`.
    fn push(&mut self, at: usize, text: &str) -> Result<(), String> {
        let cols = line::tokens(text)?;
        let (tag, observed) = match cols.len() {
            4 => (
                Some(
                    line::parse_tag(match &cols[2] {
                        Token::Bare(t) => t,
                        Token::Quoted(t) => t,
                    })
                    .map_err(|e| format!("column authority/class: {e}"))?,
                ),
                &cols[3],
            ),
            3 => (None, &cols[2]),
            n => {
                return Err(format!(
                    "{n} columns; a line is `input expected authority/class observed` or \
                     `input expected observed`"
                ))
            }
        };
        let (from, to) = (self.unit.from, self.unit.to);
        push_item(&mut self.inputs, from, &cols[0]).map_err(|e| format!("column input: {e}"))?;
        push_item(&mut self.expected, to, &cols[1]).map_err(|e| format!("column expected: {e}"))?;
        push_item(&mut self.observed, to, observed).map_err(|e| format!("column observed: {e}"))?;
        self.tags.push(tag);
        self.at.push(at);
        Ok(())
    }

    /// Compares the lines read, adding the mismatches to `groups`.
    fn judge(mut self, shown: &str, groups: &mut BTreeMap<Key, Group>) -> Result<(), Error> {
        if self.at.is_empty() {
            return Ok(());
        }
        let unit = &self.unit;
        // The expected column must be ours: a file edited, or written by another version of
        // this implementation, would otherwise judge a converter against other answers.
        let ours = elements::expected(unit, &self.inputs).map_err(|e| format!("{shown}: {e}"))?;
        if let Some(i) = differing(unit.to, &ours, &self.expected, true).first() {
            return Err(format!(
                "{shown}:{}: column expected: {} is not this implementation's value {} (a file \
                 edited, or exported by another version)",
                self.at[*i],
                item(&self.expected, unit.to, *i),
                item(&ours, unit.to, *i),
            )
            .into());
        }
        let bad = differing(unit.to, &self.expected, &self.observed, false);
        if bad.is_empty() {
            return Ok(());
        }
        let pick = |items: &Items| match items {
            Items::Codes(c) => Items::Codes(bad.iter().map(|&i| c[i]).collect()),
            Items::Strings(s) => Items::Strings(bad.iter().map(|&i| s[i].clone()).collect()),
        };
        let (inputs, expected, observed) = (
            pick(&self.inputs),
            pick(&self.expected),
            pick(&self.observed),
        );
        let untagged: Vec<usize> = (0..bad.len())
            .filter(|&k| self.tags[bad[k]].is_none())
            .collect();
        let computed = if untagged.is_empty() {
            Vec::new()
        } else {
            let classifier = self.classifier.get_or_insert_with(|| Classifier::new(unit));
            classifier.tags(&inputs)
        };
        let causes = diagnose(unit, &inputs, &expected, &observed)?;
        let pair = pair_label(unit);
        for (k, &i) in bad.iter().enumerate() {
            let tag = self.tags[i].unwrap_or_else(|| computed[k]);
            let g = groups
                .entry((pair.clone(), tag.authority, tag.class, causes[k]))
                .or_insert_with(|| Group {
                    pair: pair.clone(),
                    authority: tag.authority,
                    verdict: Verdict::of(tag.authority),
                    class: tag.class,
                    diagnosis: causes[k],
                    elements: 0,
                    examples: Vec::new(),
                });
            g.elements += 1;
            if g.examples.len() < EXAMPLES {
                g.examples.push([
                    format!("{shown}:{}", self.at[i]),
                    item(&inputs, unit.from, k),
                    item(&expected, unit.to, k),
                    item(&observed, unit.to, k),
                ]);
            }
        }
        Ok(())
    }
}

/// `Cast-19 FLOAT -> FLOAT8E4M3FN saturate=0`.
pub(super) fn pair_label(unit: &Unit) -> String {
    let mut s = format!(
        "{}-{} {} -> {}",
        unit.spec.op(),
        unit.spec.since(),
        unit.from.name(),
        unit.to.name()
    );
    for a in &unit.attrs {
        s.push(' ');
        s.push_str(&a.to_string());
    }
    s
}

/// The indices where `b` differs from `a` (elements of `to`): bit for bit, any NaN matching
/// any NaN in a floating target, as the deep comparison judges; `exact` for bit for bit only.
fn differing(to: DataType, a: &Items, b: &Items, exact: bool) -> Vec<usize> {
    match (a, b) {
        (Items::Strings(x), Items::Strings(y)) => (0..x.len()).filter(|&i| x[i] != y[i]).collect(),
        (Items::Codes(x), Items::Codes(y)) => {
            let nan = |c: &[u128]| -> Vec<bool> {
                if !exact && to.kind() == TypeKind::Float {
                    run::decode(to, c).iter().map(|v| v.is_nan()).collect()
                } else {
                    vec![false; c.len()]
                }
            };
            let (xn, yn) = (nan(x), nan(y));
            (0..x.len())
                .filter(|&i| x[i] != y[i] && !(xn[i] && yn[i]))
                .collect()
        }
        _ => (0..a.len()).collect(),
    }
}

/// The behaviour that reproduces each observed element, by the findings' diagnosis: the
/// mismatching elements as one case of `unit`, run with one thing changed.
pub(super) fn diagnose(
    unit: &Unit,
    inputs: &Items,
    expected: &Items,
    observed: &Items,
) -> Result<Vec<Option<Behaviour>>, String> {
    let x = inputs.tensor(unit.from)?;
    let graph = unit.graph(x.clone());
    let m = model::model("vectors", &graph);
    let fed: Vec<vocab::Tensor> = graph.inputs.iter().map(|(_, t)| t.clone()).collect();
    let (e, a) = (expected.tensor(unit.to)?, observed.tensor(unit.to)?);
    let subject = Subject {
        model: &m,
        fed: &fed,
        input: Some(&x),
        expected: &e,
        actual: &a,
        encoding: Encoding::Onnx,
    };
    let all: Vec<usize> = (0..inputs.len()).collect();
    Ok(diagnosis::diagnose(&subject, &all))
}

/// The report as text: a summary line, then per pair its groups with examples.
pub fn render(report: &Report) -> String {
    let mut out = format!(
        "vectors check: {} files, {} lines, {} mismatches in {} groups\n",
        report.files,
        report.lines,
        report.mismatches,
        report.groups.len()
    );
    let mut last = "";
    for g in &report.groups {
        if g.pair != last {
            out.push_str(&format!("\n{}\n", g.pair));
            last = &g.pair;
        }
        let cause = g
            .diagnosis
            .map_or("no known behaviour reproduces it".to_string(), |b| {
                format!("{}: {}", b.label(), b.text())
            });
        out.push_str(&format!(
            "  {} ({}) {}: {} elements; {cause}\n",
            g.verdict.label(),
            g.authority.label(),
            g.class,
            g.elements
        ));
        for [at, input, expected, observed] in &g.examples {
            out.push_str(&format!(
                "    {at}: input {input} expected {expected} observed {observed}\n"
            ));
        }
    }
    out
}
