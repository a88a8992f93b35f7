//! What the coverage tables count: the pairs each version allows, the ones `ops::run` actually
//! runs, and the ones passing conformance trials exercise.

use harness::known::Outcome;
use harness::outcome::Origin;
use harness::report::TrialRecord;
use onnx_conformance::ops;
use std::collections::{BTreeMap, BTreeSet};
use vocab::elements::{Complex128, Complex64};
use vocab::version::{AttrKind, VersionSpec};
use vocab::{AttrValue, Attribute, OpKind, OpVersion};
use vocab::{DataType, Storage, Tensor};

/// (source, target) for Cast and CastLike; (T, T) for Concat.
pub type Pair = (DataType, DataType);

/// One operator version's row of the tables.
#[derive(Clone, Debug)]
pub struct VersionCoverage {
    /// The version's row of the implementation's version table.
    pub spec: &'static VersionSpec,
    /// Every pair the version allows.
    pub allowed: BTreeSet<Pair>,
    /// The allowed pairs that `ops::run` ran with the right output type and shape.
    pub supported: BTreeSet<Pair>,
    /// The allowed pairs that `ops::run` rejected, with its error.
    pub rejected: Vec<(Pair, String)>,
    /// Passing official trials per pair.
    pub official: BTreeMap<Pair, usize>,
    /// Passing trials of our own cases per pair.
    pub own: BTreeMap<Pair, usize>,
    /// The allowed pairs an exhaustive format sweep checks.
    pub exhaustive: BTreeSet<Pair>,
}

impl VersionCoverage {
    /// The operator version.
    pub fn version(&self) -> OpVersion {
        self.spec.version()
    }
}

/// The pairs `spec` allows, each run once through `ops::run` on a small tensor.
pub fn support(spec: &'static VersionSpec) -> VersionCoverage {
    let types: Vec<DataType> = spec.types.iter().collect();
    let allowed: BTreeSet<Pair> = match spec.version().op() {
        OpKind::Concat => types.iter().map(|&t| (t, t)).collect(),
        OpKind::Cast | OpKind::CastLike => types
            .iter()
            .flat_map(|&s| types.iter().map(move |&t| (s, t)))
            .collect(),
    };
    let mut supported = BTreeSet::new();
    let mut rejected = Vec::new();
    for &pair in &allowed {
        match run_pair(spec, pair) {
            Ok(()) => {
                supported.insert(pair);
            }
            Err(e) => rejected.push((pair, e)),
        }
    }
    VersionCoverage {
        spec,
        allowed,
        supported,
        rejected,
        official: BTreeMap::new(),
        own: BTreeMap::new(),
        exhaustive: BTreeSet::new(),
    }
}

/// Runs one pair: Cast to the target, CastLike with an empty tensor of the target type,
/// Concat of the sample with itself on axis 0; checks the output's type and shape.
fn run_pair(spec: &VersionSpec, (source, target): Pair) -> Result<(), String> {
    let v = spec.version();
    let input = sample(source)?;
    let outputs = match v.op() {
        OpKind::Cast => {
            // Cast-1 names the type; later versions give its enum code.
            let by_name = spec.attrs.iter().any(|a| a.kind == AttrKind::TypeName);
            let to = match by_name {
                true => AttrValue::String(target.name().as_bytes().to_vec()),
                false => AttrValue::Int(i64::from(target.code())),
            };
            ops::run(v, &[attr("to", to)], &[&input])
        }
        OpKind::CastLike => {
            let like = Tensor::new(vec![0], Storage::empty(target)).map_err(|e| e.to_string())?;
            ops::run(v, &[], &[&input, &like])
        }
        OpKind::Concat => ops::run(v, &[attr("axis", AttrValue::Int(0))], &[&input, &input]),
    }
    .map_err(|e| e.to_string())?;
    let shape = match v.op() {
        // The samples are 1-d, so axis 0 doubles the only dimension.
        OpKind::Concat => input.shape().iter().map(|d| 2 * d).collect(),
        _ => input.shape().to_vec(),
    };
    match outputs.as_slice() {
        [out] if out.dtype() == target && out.shape() == shape => Ok(()),
        [out] => Err(format!(
            "gave {} of shape {:?}, want {target} of shape {shape:?}",
            out.dtype(),
            out.shape()
        )),
        other => Err(format!("gave {} outputs, want 1", other.len())),
    }
}

fn attr(name: &str, value: AttrValue) -> Attribute {
    Attribute {
        name: name.to_owned(),
        value,
    }
}

/// Values that take every path of a cast: zeros, fractions, ties, large, NaN, infinities.
const SAMPLES: [f32; 8] = [
    0.0,
    -0.0,
    1.5,
    -2.5,
    300.75,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
];

/// A small 1-d tensor of `t`: the samples cast by Cast-28 where it allows `t`, else built here.
fn sample(t: DataType) -> Result<Tensor, String> {
    let n = SAMPLES.len();
    let tensor = match t {
        DataType::String => Tensor::from_vec(
            vec![4],
            ["0", "-1.5", "NaN", "-INF"].map(String::from).to_vec(),
        ),
        DataType::Complex64 => Tensor::from_vec(vec![n], vec![Complex64::default(); n]),
        DataType::Complex128 => Tensor::from_vec(vec![n], vec![Complex128::default(); n]),
        _ => {
            let floats = Tensor::from_vec(vec![n], SAMPLES.to_vec()).map_err(|e| e.to_string())?;
            let cast = OpVersion::of(OpKind::Cast, 28).ok_or("no Cast-28 in the table")?;
            let to = attr("to", AttrValue::Int(i64::from(t.code())));
            let mut out = ops::run(cast, &[to], &[&floats])
                .map_err(|e| format!("cannot build a {t} sample: {e}"))?;
            return out.pop().ok_or_else(|| "Cast-28 gave no output".to_owned());
        }
    };
    tensor.map_err(|e| e.to_string())
}

/// Per operator version: passing official trials and passing own-case trials per pair.
#[derive(Clone, Debug, Default)]
pub struct Exercised {
    /// Official releases (and data generated by onnx's own generators).
    pub official: BTreeMap<Pair, usize>,
    /// Our cases under `tests/cases` (release `own`).
    pub own: BTreeMap<Pair, usize>,
}

/// The pairs that passing trials exercise, by operator version. Trials of `custom` data, of
/// cases exported by `fetch-tests --generate` (not shipped data), guard trials and trials whose
/// types are undeclared are left out.
pub fn exercised(trials: &[TrialRecord]) -> BTreeMap<OpVersion, Exercised> {
    let mut out: BTreeMap<OpVersion, Exercised> = BTreeMap::new();
    for t in trials.iter().filter(|t| t.outcome == Outcome::Pass) {
        let Some(version) = parse_version(t) else {
            continue;
        };
        let Some(pair) = trial_pair(version.op(), t) else {
            continue;
        };
        let counts = match t.origin() {
            Origin::Custom | Origin::Generated | Origin::Guard => continue,
            Origin::Own => &mut out.entry(version).or_default().own,
            _ => &mut out.entry(version).or_default().official,
        };
        *counts.entry(pair).or_default() += 1;
    }
    out
}

/// The trial's operator version, as in `Cast-19`.
fn parse_version(t: &TrialRecord) -> Option<OpVersion> {
    t.op_version
}

/// Cast and CastLike: (input 0, output 0), the output having the `to` or `target_type` type;
/// Concat: (T, T) from input 0.
fn trial_pair(op: OpKind, t: &TrialRecord) -> Option<Pair> {
    let source = DataType::from_name(t.inputs.first()?)?;
    let target = match op {
        OpKind::Concat => source,
        OpKind::Cast | OpKind::CastLike => DataType::from_name(t.outputs.first()?)?,
    };
    Some((source, target))
}
