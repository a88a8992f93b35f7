//! What an export holds: the options ([`Options`]), the files it writes ([`Unit`], one per
//! operator version, pair, attributes and part), and how a shard takes its slice of each.

use crate::generate::authority::Step;
use crate::generate::model::Graph;
use crate::generate::plan::{self, Plan, Shape};
use crate::generate::values::Size;
use crate::index::CaseAttribute;
use harness::write::Encoding;
use vocab::version::{versions_of, VersionSpec};
use vocab::{DataType, OpKind, Tensor, TypeKind};

/// How much an export writes (docs/vectors.md, "Levels").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The deep tree's values of every Cast and CastLike pair at every version.
    One,
    /// Level 1 and, per pair with a wide source, a seeded sample.
    Two,
    /// Every code of every 32-bit source into every narrower target at every rule era.
    Exhaustive,
}

impl Level {
    /// The level `text` names (`1`, `2` or `exhaustive`).
    pub fn parse(text: &str) -> Result<Level, String> {
        match text {
            "1" => Ok(Level::One),
            "2" => Ok(Level::Two),
            "exhaustive" => Ok(Level::Exhaustive),
            _ => Err(format!("no level {text:?}: 1, 2 or exhaustive")),
        }
    }
}

/// Shard K of N: a contiguous K-th of each file's candidate elements, so that the shards'
/// bodies, concatenated in order, are the unsharded file's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// The whole: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The shard `text` names, as `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("no shard {text:?}: K/N with 1 <= K <= N");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) =
            (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// This shard's part `[start, end)` of `total` elements.
    pub fn range(self, total: u64) -> (u64, u64) {
        // u128: total * index overflows u64 for 2^32 elements and large N.
        let at = |k: u64| (u128::from(total) * u128::from(k) / u128::from(self.count)) as u64;
        (at(self.index - 1), at(self.index))
    }
}

/// Which files an export writes, each field `None` for all.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// The operator.
    pub op: Option<OpKind>,
    /// The operator version (its since-version).
    pub version: Option<u32>,
    /// The source type.
    pub from: Option<DataType>,
    /// The target type.
    pub to: Option<DataType>,
}

impl Filter {
    /// The filter the command's options spell: an operator name (Cast or CastLike), a
    /// since-version, type names as the spec writes them (FLOAT8E4M3FN).
    pub fn parse(
        op: Option<&str>,
        version: Option<u32>,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Filter, String> {
        let op = op
            .map(|n| {
                OpKind::from_name(n)
                    .filter(|o| *o != OpKind::Concat)
                    .ok_or_else(|| format!("--op {n}: Cast or CastLike"))
            })
            .transpose()?;
        let dtype = |flag: &str, n: Option<&str>| {
            n.map(|n| DataType::from_name(n).ok_or_else(|| format!("{flag} {n}: no such type")))
                .transpose()
        };
        Ok(Filter {
            op,
            version,
            from: dtype("--from", from)?,
            to: dtype("--to", to)?,
        })
    }

    fn keeps(&self, spec: &VersionSpec, from: DataType, to: DataType) -> bool {
        self.op.is_none_or(|o| o == spec.op())
            && self.version.is_none_or(|v| v == spec.since())
            && self.from.is_none_or(|f| f == from)
            && self.to.is_none_or(|t| t == to)
    }
}

/// What to export.
#[derive(Clone, Debug)]
pub struct Options {
    /// The level.
    pub level: Level,
    /// The seed of level 2's samples.
    pub seed: u64,
    /// Candidate elements per sampled file (level 2).
    pub sample: u64,
    /// The shard this export writes.
    pub shard: Shard,
    /// Which files.
    pub filter: Filter,
}

/// Level 2's default sample: 2^24 candidate elements per file.
pub const DEFAULT_SAMPLE: u64 = 1 << 24;

/// Which elements a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// The deep tree's value set of the pair, at the tree's size for the version.
    Values(Size),
    /// A seeded sample over bit patterns and exponents (level 2).
    Sample,
    /// Every code of the 32-bit source.
    Exhaustive,
}

/// One file of an export.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    /// The operator version.
    pub spec: &'static VersionSpec,
    /// Source type.
    pub from: DataType,
    /// Target type.
    pub to: DataType,
    /// Attributes other than `to`.
    pub attrs: Vec<CaseAttribute>,
    /// Which elements.
    pub part: Part,
}

impl Unit {
    /// The file name: the deep case's name and the part.
    pub(crate) fn file_name(&self) -> String {
        let plan = Plan::Cast {
            spec: self.spec,
            from: self.from,
            to: self.to,
            attrs: self.attrs.clone(),
            shape: Shape::Values(Size::Boundary),
        };
        let part = match self.part {
            Part::Values(_) => "",
            Part::Sample => ".sample",
            Part::Exhaustive => ".exhaustive",
        };
        format!("{}{part}.txt", plan::name(&plan))
    }

    /// The one-node model of this unit's operator, version, types and attributes, fed `x`
    /// (and, for CastLike, a `like` input of the target type): what the diagnosis reruns and
    /// what a runtime is given (`vectors run`).
    pub(crate) fn graph(&self, x: Tensor) -> Graph {
        let n = x.len();
        let mut fed = vec![("input".to_string(), x)];
        if self.spec.op() == OpKind::CastLike {
            fed.push(("like_output".to_string(), plan::like(self.to)));
        }
        Graph {
            opset: i64::from(self.spec.since()),
            nodes: vec![plan::cast_node(
                self.spec,
                self.to,
                &self.attrs,
                "input",
                "output",
            )],
            inputs: fed,
            initializers: Vec::new(),
            outputs: vec![("output".into(), self.to, vec![n])],
            encoding: Encoding::Onnx,
        }
    }

    /// The conversion step, as the authority rules take it.
    pub(crate) fn step(&self) -> Step {
        plan::steps(self.spec, self.from, self.to, &self.attrs, None)[0]
    }
}

/// The rule set of a version (docs/semantics.md §3.2: the rules switch at version 24).
pub(crate) fn rules(version: u32) -> &'static str {
    if version >= 24 {
        "from-24"
    } else {
        "up-to-23"
    }
}

/// Sources whose pairs level 2 samples.
const WIDE: [DataType; 7] = [
    DataType::Float,
    DataType::Double,
    DataType::Int32,
    DataType::Int64,
    DataType::Uint32,
    DataType::Uint64,
    DataType::String,
];

/// Sources level exhaustive enumerates.
const EXHAUSTIVE: [DataType; 3] = [DataType::Float, DataType::Int32, DataType::Uint32];

/// Whether level 2 samples `from` → `to`: a wide source, and a target whose value the spec
/// fixes for arbitrary inputs. A float's text (into STRING) is fixed only for the few values
/// the deep tree chooses (docs/semantics.md §3.9), so floating sources into STRING are left to
/// level 1.
fn sampled(from: DataType, to: DataType) -> bool {
    let floating = matches!(from, DataType::Float | DataType::Double | DataType::String);
    WIDE.contains(&from) && !(floating && to == DataType::String)
}

/// Whether `to` is narrower than a 32-bit source, for the exhaustive level (STRING is no
/// narrower type).
fn narrower(to: DataType) -> bool {
    to != DataType::String && to.kind() != TypeKind::Complex && to.bit_width() < 32
}

/// The files of `level` that `filter` keeps, in name order within each part. `newest`, the
/// newest opset a runtime takes, leaves out the versions above it; at the exhaustive level it
/// moves each rule era to its newest version at or below it (a runtime of opset 26 is judged
/// at Cast-25, not Cast-28), and a `--version` filter there names the version itself.
pub(crate) fn units(level: Level, filter: &Filter, newest: Option<u32>) -> Vec<Unit> {
    let mut out = Vec::new();
    let takes = |spec: &VersionSpec| newest.is_none_or(|n| spec.since() <= n);
    if level != Level::Exhaustive {
        for (_, p) in plan::plans() {
            let Plan::Cast {
                spec,
                from,
                to,
                attrs,
                shape: Shape::Values(size),
            } = p
            else {
                continue;
            };
            if !filter.keeps(spec, from, to) || !takes(spec) {
                continue;
            }
            let unit = Unit {
                spec,
                from,
                to,
                attrs,
                part: Part::Values(size),
            };
            if level == Level::Two && sampled(from, to) {
                let sample = Unit {
                    part: Part::Sample,
                    ..unit.clone()
                };
                out.push(unit);
                out.push(sample);
            } else {
                out.push(unit);
            }
        }
        return out;
    }
    // One version per rule era: Cast's newest of each that the runtime takes (CastLike's
    // rules are Cast's), or the one the filter names.
    let taken: Vec<&'static VersionSpec> = versions_of(OpKind::Cast).filter(|s| takes(s)).collect();
    let era_newest = |spec: &VersionSpec| match filter.version {
        Some(v) => spec.since() == v,
        None => !taken
            .iter()
            .any(|t| t.since() > spec.since() && rules(t.since()) == rules(spec.since())),
    };
    for spec in taken.iter().copied().filter(|s| era_newest(s)) {
        for from in EXHAUSTIVE.into_iter().filter(|&f| spec.types.contains(f)) {
            for to in spec.types.iter().filter(|&t| narrower(t)) {
                if !filter.keeps(spec, from, to) {
                    continue;
                }
                for attrs in plan::attr_combos(spec, to) {
                    out.push(Unit {
                        spec,
                        from,
                        to,
                        attrs,
                        part: Part::Exhaustive,
                    });
                }
            }
        }
    }
    out
}
