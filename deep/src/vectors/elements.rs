//! The elements of a file and what the deep suite knows of each: the input, its class and
//! authority (from the generator's own value sets, classes and rules), and the expected output
//! (our implementation, as the deep tree's).

use super::units::{Part, Unit};
use crate::generate::authority::{self, Step, Val as AuthVal};
use crate::generate::classes::{self, Ctx, Elem};
use crate::generate::plan::{self, Plan, Shape};
use crate::generate::values::{self, Val};
use crate::index::{Authority, InputClass};
use harness::read::{tensor_codes, tensor_from_codes};
use vocab::{DataType, Storage, Tensor, TypeKind};

/// Input (or output) elements: codes of a numeric or bool type, or strings.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Items {
    /// Bit patterns.
    Codes(Vec<u128>),
    /// STRING elements.
    Strings(Vec<String>),
}

impl Items {
    /// Number of elements.
    pub(crate) fn len(&self) -> usize {
        match self {
            Items::Codes(c) => c.len(),
            Items::Strings(s) => s.len(),
        }
    }

    /// The elements of a tensor.
    pub(crate) fn of(t: &Tensor) -> Items {
        match t.storage() {
            Storage::String(v) => Items::Strings(v.clone()),
            _ => Items::Codes(tensor_codes(t).expect("a numeric tensor")),
        }
    }

    /// A vector of `dtype` holding these elements.
    pub(crate) fn tensor(&self, dtype: DataType) -> Result<Tensor, String> {
        match self {
            Items::Codes(c) => {
                tensor_from_codes(dtype, vec![c.len()], c).map_err(|e| e.to_string())
            }
            Items::Strings(s) => {
                Tensor::from_vec(vec![s.len()], s.clone()).map_err(|e| e.to_string())
            }
        }
    }
}

/// What fixes an element's expected value, and the class it is judged in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Tag {
    /// The authority (docs/deep.md, "Authority").
    pub authority: Authority,
    /// The input class.
    pub class: InputClass,
}

/// Some elements of a file, with their tags.
#[derive(Debug)]
pub(crate) struct Chunk {
    /// The inputs.
    pub inputs: Items,
    /// One tag per input.
    pub tags: Vec<Tag>,
}

/// Classes and authorities of elements no value set produced (a sample, every code, or the
/// lines of someone's file), by the generator's own class definitions and rules.
pub(crate) struct Classifier {
    ctx: Ctx,
    step: Step,
}

impl Classifier {
    /// The classifier of `unit`'s pair and attributes.
    pub(crate) fn new(unit: &Unit) -> Classifier {
        Classifier {
            ctx: Ctx::new(unit.from, unit.to),
            step: unit.step(),
        }
    }

    /// The tag of each element of `items` (of the unit's source type).
    pub(crate) fn tags(&self, items: &Items) -> Vec<Tag> {
        match items {
            Items::Codes(codes) => {
                let from = self.ctx.from;
                let vals = values::vals(from, codes);
                let (preds, succs) = values::neighbours(from, codes, &vals);
                let exact = plan::source_values(from, codes);
                (0..codes.len())
                    .map(|i| {
                        let elem = match vals[i] {
                            Val::Float(v) => Elem::Float {
                                code: codes[i],
                                v,
                                pred: preds[i],
                                succ: succs[i],
                            },
                            Val::Int(n) => Elem::Int(n),
                        };
                        self.tag(&elem, exact[i])
                    })
                    .collect()
            }
            Items::Strings(strings) => strings
                .iter()
                .map(|s| {
                    let v = s.parse::<f64>().map_or(AuthVal::Text, AuthVal::Float);
                    self.tag(&Elem::Str(s), v)
                })
                .collect(),
        }
    }

    fn tag(&self, elem: &Elem<'_>, v: AuthVal) -> Tag {
        // A sampled value may be of none of the pair's classes (a FLOAT between two FLOAT16
        // values, near neither a tie nor a value): it is then judged among the source's
        // normal, subnormal or plain codes.
        let class = classes::try_choose(None, elem, &self.ctx)
            .or_else(|| {
                [InputClass::Normal, InputClass::Subnormal, InputClass::Code]
                    .into_iter()
                    .find(|&k| classes::holds(k, elem, &self.ctx))
            })
            .unwrap_or(InputClass::Code);
        let authority = authority::decide(&self.step, class, v).0;
        Tag { authority, class }
    }

    /// Whether the spec defines the result of each element (docs/semantics.md §3.11): the
    /// others are left out of an export, as the deep tree leaves them out.
    pub(crate) fn defined(&self, items: &Items) -> Vec<bool> {
        let (from, to) = (self.ctx.from, self.ctx.to);
        match items {
            Items::Codes(codes) => values::vals(from, codes)
                .into_iter()
                .map(|v| match (to, v) {
                    // Only integer sources reach a STRING target here ([`super::units`]).
                    (DataType::String, v) => matches!(v, Val::Int(_)) && from != DataType::Bool,
                    (_, v) => values::defined(v, to),
                })
                .collect(),
            Items::Strings(s) => s.iter().map(|s| values::string_defined(s, to)).collect(),
        }
    }
}

/// The elements of one file, from which any range of candidates is drawn.
pub(crate) enum Source {
    /// The deep tree's value set, tagged by the generator.
    Values(Chunk),
    /// Candidates made one by one: a sample or every code.
    Drawn {
        /// Classes and authorities, and which candidates are defined.
        classifier: Classifier,
        /// The seed and the file's own key (a sample), or none (every code).
        seed: Option<(u64, u64)>,
        /// The source type.
        from: DataType,
        /// The target type.
        to: DataType,
        /// Number of candidates.
        total: u64,
    },
}

impl Source {
    /// The source of `unit`'s file; `seed` and `sample` for a sampled file.
    pub(crate) fn new(unit: &Unit, seed: u64, sample: u64) -> Source {
        let drawn = |seed, total| Source::Drawn {
            classifier: Classifier::new(unit),
            seed,
            from: unit.from,
            to: unit.to,
            total,
        };
        match unit.part {
            Part::Values(size) => {
                let p = Plan::Cast {
                    spec: unit.spec,
                    from: unit.from,
                    to: unit.to,
                    attrs: unit.attrs.clone(),
                    shape: Shape::Values(size),
                };
                let (entry, graph) = plan::build(&plan::name(&p), &p);
                let inputs = Items::of(&graph.inputs[0].1);
                let mut tags = Vec::with_capacity(inputs.len());
                for r in &entry.classes {
                    let tag = Tag {
                        authority: r.authority,
                        class: r.class,
                    };
                    tags.extend(std::iter::repeat_n(tag, r.end - r.start));
                }
                Source::Values(Chunk { inputs, tags })
            }
            Part::Sample => drawn(Some((seed, key(&unit.file_name()))), sample),
            Part::Exhaustive => drawn(None, 1u64 << unit.from.bit_width()),
        }
    }

    /// Number of candidate elements (a sample's or every code's undefined ones included).
    pub(crate) fn total(&self) -> u64 {
        match self {
            Source::Values(c) => c.inputs.len() as u64,
            Source::Drawn { total, .. } => *total,
        }
    }

    /// The elements among candidates `[start, end)`, undefined ones left out, and how many
    /// were left out.
    pub(crate) fn chunk(&self, start: u64, end: u64) -> (Chunk, u64) {
        let (s, e) = (start as usize, end as usize);
        let (classifier, seed, from, to) = match self {
            Source::Values(c) => {
                let inputs = match &c.inputs {
                    Items::Codes(v) => Items::Codes(v[s..e].to_vec()),
                    Items::Strings(v) => Items::Strings(v[s..e].to_vec()),
                };
                let tags = c.tags[s..e].to_vec();
                return (Chunk { inputs, tags }, 0);
            }
            Source::Drawn {
                classifier,
                seed,
                from,
                to,
                ..
            } => (classifier, seed, *from, *to),
        };
        let candidates = match seed {
            None => Items::Codes((start..end).map(u128::from).collect()),
            Some((seed, key)) => draw(*seed, *key, from, to, start..end, |items| {
                classifier.defined(items)
            }),
        };
        let keep = classifier.defined(&candidates);
        let left_out = keep.iter().filter(|k| !**k).count() as u64;
        let inputs = match candidates {
            Items::Codes(v) => Items::Codes(select(v, &keep)),
            Items::Strings(v) => Items::Strings(select(v, &keep)),
        };
        let tags = classifier.tags(&inputs);
        (Chunk { inputs, tags }, left_out)
    }
}

fn select<T>(v: Vec<T>, keep: &[bool]) -> Vec<T> {
    v.into_iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(x, _)| x)
        .collect()
}

/// A file's key for its sample: FNV-1a of its name, so that every file draws its own values
/// from one seed.
fn key(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64's finalizer: a bijection of u64 that mixes every bit into every other.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The random word `n` of candidate `i`, attempt `attempt`: a function of its arguments only,
/// so that any shard draws its candidates without drawing the others'.
fn word(seed: u64, key: u64, i: u64, attempt: u64, n: u64) -> u64 {
    let golden = 0x9e37_79b9_7f4a_7c15u64;
    mix(mix(seed ^ mix(key)) ^ mix(i.wrapping_mul(golden) ^ (attempt << 8) ^ n))
}

/// Attempts per candidate at a defined value: a sampled FLOAT into INT8 is defined for few
/// bit patterns, so a candidate draws again until one is (then stays undefined, left out).
const ATTEMPTS: u64 = 64;

/// The candidates `range` of a sample of `from` into `to`: even ones uniform over bit
/// patterns, odd ones uniform over exponents (bit lengths for integers), each drawn again
/// while `defined` refuses it (in batches: `defined` decodes through our Cast).
fn draw(
    seed: u64,
    key: u64,
    from: DataType,
    to: DataType,
    range: std::ops::Range<u64>,
    defined: impl Fn(&Items) -> Vec<bool>,
) -> Items {
    let indices: Vec<u64> = range.collect();
    let make = |which: &[usize], attempt: u64| -> Items {
        let w = |i: u64| move |n| word(seed, key, i, attempt, n);
        match from {
            DataType::String => Items::Strings(
                which
                    .iter()
                    .map(|&p| text(to, indices[p], w(indices[p])))
                    .collect(),
            ),
            _ => Items::Codes(
                which
                    .iter()
                    .map(|&p| code(from, indices[p] % 2 == 1, w(indices[p])))
                    .collect(),
            ),
        }
    };
    let all: Vec<usize> = (0..indices.len()).collect();
    let mut picks = make(&all, 0);
    let ok = defined(&picks);
    let mut pending: Vec<usize> = all.into_iter().filter(|&p| !ok[p]).collect();
    for attempt in 1..ATTEMPTS {
        if pending.is_empty() {
            break;
        }
        let again = make(&pending, attempt);
        let ok = defined(&again);
        match (&mut picks, again) {
            (Items::Codes(c), Items::Codes(a)) => {
                for (&p, v) in pending.iter().zip(a) {
                    c[p] = v;
                }
            }
            (Items::Strings(s), Items::Strings(a)) => {
                for (&p, v) in pending.iter().zip(a) {
                    s[p] = v;
                }
            }
            _ => unreachable!("one source type"),
        }
        pending = pending
            .into_iter()
            .zip(ok)
            .filter(|(_, ok)| !ok)
            .map(|(p, _)| p)
            .collect();
    }
    picks
}

/// A code of the numeric source `from`: uniform over bit patterns, or (`by_exponent`) with a
/// uniform exponent (a uniform bit length for integers) and uniform bits below it.
fn code(from: DataType, by_exponent: bool, w: impl Fn(u64) -> u64) -> u128 {
    let bits = from.bit_width();
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let r = w(0) & mask;
    if !by_exponent {
        return u128::from(r);
    }
    let code = match from {
        DataType::Float | DataType::Double => {
            let (exp_bits, man_bits) = if from == DataType::Float {
                (8, 23)
            } else {
                (11, 52)
            };
            let e = w(1) % (1 << exp_bits);
            let sign = w(2) & 1;
            (sign << (bits - 1)) | (e << man_bits) | (r & ((1u64 << man_bits) - 1))
        }
        _ => {
            let signed = from.kind() == TypeKind::Signed;
            let magnitude_bits = if signed { bits - 1 } else { bits };
            let len = w(1) % u64::from(magnitude_bits + 1);
            let m = match len {
                0 => 0,
                l => (1u64 << (l - 1)) | (r & ((1u64 << (l - 1)) - 1)),
            };
            if signed && w(2) & 1 == 1 {
                m.wrapping_neg() & mask
            } else {
                m
            }
        }
    };
    u128::from(code)
}

/// A text for a STRING source into `to`: an integer literal for integer and bool targets, else
/// a decimal spelling of a sampled DOUBLE (shortest, scientific, or at a drawn precision).
fn text(to: DataType, i: u64, w: impl Fn(u64) -> u64) -> String {
    if to.kind().is_integer() || to == DataType::Bool {
        let t = if to == DataType::Bool {
            DataType::Int64
        } else {
            to
        };
        let c = code(t, i % 2 == 1, &w);
        return match t.kind() {
            TypeKind::Signed => {
                let b = t.bit_width();
                (((c << (128 - b)) as i128) >> (128 - b)).to_string()
            }
            _ => c.to_string(),
        };
    }
    let x = f64::from_bits(code(DataType::Double, i % 2 == 1, &w) as u64);
    let x = if to == DataType::Float8E8M0 {
        x.abs()
    } else {
        x
    };
    match w(3) % 3 {
        0 => format!("{x}"),
        1 => format!("{x:e}"),
        _ => format!("{x:.*e}", (w(4) % 20) as usize),
    }
}

/// Our output for `inputs` of `unit`'s source: the expected values (docs/deep.md: the deep
/// suite's expected values are our implementation's).
pub(crate) fn expected(unit: &Unit, inputs: &Items) -> Result<Items, String> {
    Ok(Items::of(&expected_tensor(
        unit,
        &inputs.tensor(unit.from)?,
    )?))
}

/// [`expected`] of a tensor `x` of the unit's source, as a tensor.
pub(crate) fn expected_tensor(unit: &Unit, x: &Tensor) -> Result<Tensor, String> {
    let own = unit
        .attrs
        .iter()
        .map(crate::index::CaseAttribute::attribute);
    let like = plan::like(unit.to);
    let (attrs, fed): (Vec<_>, Vec<&Tensor>) = match unit.spec.op() {
        vocab::OpKind::CastLike => (own.collect(), vec![x, &like]),
        _ => (
            std::iter::once(plan::to_attr(unit.spec, unit.to))
                .chain(own)
                .collect(),
            vec![x],
        ),
    };
    let mut out = onnx_conformance::ops::run(unit.spec.version(), &attrs, &fed)
        .map_err(|e| format!("{}: {e}", unit.file_name()))?;
    Ok(out.remove(0))
}
