//! Diagnosing a disagreement: a library of known wrong behaviours, each run on the case's
//! input through our implementation with one thing changed (an attribute dropped, the other
//! side of the version-24 switch, a detour through FLOAT, another rounding direction), and the
//! first whose bits equal the runtime's names the element's root cause. An element that no
//! behaviour reproduces keeps no diagnosis: a guess is worse than none.

use crate::generate::run;
use harness::case::Model;
use harness::read::{tensor_codes, tensor_from_codes};
use harness::write::Encoding;
use onnx_conformance::ops;
use serde::{Deserialize, Serialize};
use vocab::{AttrValue, Attribute, DataType, Storage, Tensor, TypeKind};

/// A known wrong behaviour. Where two reproduce the same elements, the earlier in
/// [`Behaviour::ALL`] names them: double rounding first, since a wide source rounded through
/// FLOAT can land where an ignored attribute or the other version's rule would also put it
/// (INT32 2147483647 under `down` becomes 2^31 either way), and it names the DOUBLE and
/// 64-bit sources elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Behaviour {
    /// `round_mode` ignored: every mode rounds as the default `up`.
    RoundModeIgnored,
    /// `saturate=0` ignored: the value saturates as under the default.
    SaturateIgnored,
    /// Saturation ignored: `saturate=1` (or its default) behaves as `saturate=0`.
    SaturationIgnored,
    /// The rules of the versions before the version-24 switch, at a version from 24.
    EarlierVersionRules,
    /// The rules of the versions from 24, at a version before the switch.
    LaterVersionRules,
    /// The source rounded to FLOAT first, then again into the target.
    RoundedTwiceThroughFloat,
    /// Ties rounded away from zero instead of to even.
    HalfAwayFromZero,
    /// The value truncated toward zero instead of rounded to nearest.
    Truncation,
    /// A NaN's sign dropped before the conversion.
    NanSignDropped,
    /// The middle cast of a chain skipped (the two casts folded into one).
    ChainMiddleSkipped,
    /// Into BOOL, the bits tested instead of the value (−0 true, a zero bit pattern false).
    BoolFromBits,
    /// An overflow without saturation gives NaN where the target has ±Inf.
    OverflowToNan,
    /// Subnormal inputs and outputs flushed to zero of their sign (FTZ/DAZ).
    SubnormalsFlushed,
    /// Concat writes +0 where an input held −0.
    ConcatNegativeZeroLost,
    /// Into a 64-bit integer, the value went through INT32 (clamped, wrapped, or x86's
    /// "integer indefinite" 0x80000000).
    NarrowedThroughInt32,
    /// NaN into BOOL gives false.
    NanToFalse,
    /// FLOAT16, BFLOAT16 or float8 bit patterns in `int32_data` read as numbers.
    TypedFieldsReadAsNumbers,
    /// A loader refuses `dims` written packed.
    PackedDimsRefused,
    /// A model with packed `dims` loads to other values.
    PackedDimsMisread,
    /// A loader refuses an attribute written with its type and without its zero value.
    OmittedZeroRefused,
    /// A model with its zero values left out (an attribute's `i`, the opset domain) runs to
    /// other values than the same model with them written.
    OmittedZeroMisread,
    /// A loader refuses a tensor whose values are in the typed fields.
    TypedFieldsRefused,
    /// A tensor whose values are in the typed fields loads to other values.
    TypedFieldsMisread,
    /// The output holds values that are no value of its type (a BOOL of 2, a FLOAT16 output
    /// holding unrounded FLOAT values): the conversion does not produce the target type.
    NotOfTheTargetType,
    /// NaN becomes ±Inf (a conversion that shifts the NaN's payload out).
    NanToInf,
    /// The range is checked before rounding: above the largest finite value ±Inf, below the
    /// smallest normal ±0, where rounding would have brought the value in range.
    RangeBeforeRounding,
}

impl Behaviour {
    /// Every behaviour tried on a case's elements, in the order they are tried. The loader's
    /// refusals and misreadings are not tried: they are assigned to a case written in an
    /// encoding variant by what its plain twin did (`findings::loader`).
    pub const ALL: [Behaviour; 19] = [
        Behaviour::TypedFieldsReadAsNumbers,
        Behaviour::RoundedTwiceThroughFloat,
        Behaviour::RoundModeIgnored,
        Behaviour::SaturateIgnored,
        Behaviour::SaturationIgnored,
        Behaviour::EarlierVersionRules,
        Behaviour::LaterVersionRules,
        Behaviour::ChainMiddleSkipped,
        Behaviour::NanSignDropped,
        Behaviour::HalfAwayFromZero,
        Behaviour::Truncation,
        Behaviour::BoolFromBits,
        Behaviour::OverflowToNan,
        Behaviour::SubnormalsFlushed,
        Behaviour::ConcatNegativeZeroLost,
        Behaviour::NarrowedThroughInt32,
        Behaviour::NanToFalse,
        Behaviour::NanToInf,
        Behaviour::RangeBeforeRounding,
    ];

    /// Whether the behaviour is a loader's: how the model or its tensors are read, judged
    /// against onnx.proto, not the operator's rules.
    pub fn is_loader(self) -> bool {
        matches!(
            self,
            Behaviour::TypedFieldsReadAsNumbers
                | Behaviour::PackedDimsRefused
                | Behaviour::PackedDimsMisread
                | Behaviour::OmittedZeroRefused
                | Behaviour::OmittedZeroMisread
                | Behaviour::TypedFieldsRefused
                | Behaviour::TypedFieldsMisread
        )
    }

    /// The kebab-case name, as in JSON.
    pub fn label(self) -> &'static str {
        match self {
            Behaviour::RoundModeIgnored => "round-mode-ignored",
            Behaviour::SaturateIgnored => "saturate-ignored",
            Behaviour::SaturationIgnored => "saturation-ignored",
            Behaviour::EarlierVersionRules => "earlier-version-rules",
            Behaviour::LaterVersionRules => "later-version-rules",
            Behaviour::RoundedTwiceThroughFloat => "rounded-twice-through-float",
            Behaviour::HalfAwayFromZero => "half-away-from-zero",
            Behaviour::Truncation => "truncation",
            Behaviour::NanSignDropped => "nan-sign-dropped",
            Behaviour::ChainMiddleSkipped => "chain-middle-skipped",
            Behaviour::BoolFromBits => "bool-from-bits",
            Behaviour::OverflowToNan => "overflow-to-nan",
            Behaviour::SubnormalsFlushed => "subnormals-flushed",
            Behaviour::ConcatNegativeZeroLost => "concat-negative-zero-lost",
            Behaviour::NarrowedThroughInt32 => "narrowed-through-int32",
            Behaviour::NanToFalse => "nan-to-false",
            Behaviour::TypedFieldsReadAsNumbers => "typed-fields-read-as-numbers",
            Behaviour::PackedDimsRefused => "packed-dims-refused",
            Behaviour::PackedDimsMisread => "packed-dims-misread",
            Behaviour::OmittedZeroRefused => "omitted-zero-refused",
            Behaviour::OmittedZeroMisread => "omitted-zero-misread",
            Behaviour::TypedFieldsRefused => "typed-fields-refused",
            Behaviour::TypedFieldsMisread => "typed-fields-misread",
            Behaviour::NotOfTheTargetType => "not-of-the-target-type",
            Behaviour::NanToInf => "nan-to-inf",
            Behaviour::RangeBeforeRounding => "range-before-rounding",
        }
    }

    /// The behaviour in a sentence.
    pub fn text(self) -> &'static str {
        match self {
            Behaviour::RoundModeIgnored => {
                "round_mode is ignored: every mode rounds up, as the default does"
            }
            Behaviour::SaturateIgnored => {
                "saturate=0 is ignored: out-of-range values saturate as under the default"
            }
            Behaviour::SaturationIgnored => {
                "saturation is not applied: out-of-range values become Inf or NaN as under saturate=0"
            }
            Behaviour::EarlierVersionRules => {
                "the rules of the versions before 24 are applied (the version-24 switch is missed)"
            }
            Behaviour::LaterVersionRules => {
                "the rules of version 24 and later are applied at a version before the switch"
            }
            Behaviour::RoundedTwiceThroughFloat => {
                "the source is rounded to FLOAT first and then again into the target (double rounding)"
            }
            Behaviour::HalfAwayFromZero => "ties are rounded away from zero instead of to even",
            Behaviour::Truncation => "the value is truncated toward zero instead of rounded",
            Behaviour::NanSignDropped => "a NaN's sign is dropped before the conversion",
            Behaviour::ChainMiddleSkipped => {
                "the middle cast of the chain is skipped: the two casts are folded into one"
            }
            Behaviour::BoolFromBits => {
                "into BOOL the bits are tested, not the value: -0 gives true, a value whose bits are zero false"
            }
            Behaviour::OverflowToNan => {
                "an overflow without saturation gives NaN where the target has ±Inf"
            }
            Behaviour::SubnormalsFlushed => {
                "subnormal values are flushed to zero, on input or on output (FTZ/DAZ)"
            }
            Behaviour::ConcatNegativeZeroLost => {
                "Concat loses the sign of -0.0: the output holds +0.0 where an input held -0.0"
            }
            Behaviour::NarrowedThroughInt32 => {
                "a 64-bit integer goes through INT32 (clamped, wrapped or made 0x80000000), as \
                 the output or as the input, so values beyond 32 bits are lost"
            }
            Behaviour::NanToFalse => "NaN into BOOL gives false, where any value but ±0 is true",
            Behaviour::TypedFieldsReadAsNumbers => {
                "the loader reads FLOAT16, BFLOAT16 or float8 elements in int32_data as numbers \
                 (0x3F80 as 16256.0), not as the bit patterns onnx.proto says they are"
            }
            Behaviour::PackedDimsRefused => {
                "the loader refuses a tensor whose dims are written packed, which protobuf \
                 parsers must accept"
            }
            Behaviour::PackedDimsMisread => {
                "a tensor whose dims are written packed loads to other values"
            }
            Behaviour::OmittedZeroRefused => {
                "the loader refuses an attribute whose zero value is left out (its type kept), \
                 which proto2 reads as 0"
            }
            Behaviour::OmittedZeroMisread => {
                "a model whose zero values are left out (an INT attribute's i with its type kept, \
                 the opset import's domain, an empty tensor's raw_data) runs to other values than \
                 the same model with them written"
            }
            Behaviour::TypedFieldsRefused => {
                "the loader refuses a tensor whose values are in the typed fields (float_data, \
                 int32_data, ...) rather than raw_data"
            }
            Behaviour::TypedFieldsMisread => {
                "a tensor whose values are in the typed fields (float_data, int32_data, ...) \
                 rather than raw_data loads to other values"
            }
            Behaviour::NotOfTheTargetType => {
                "the output holds values that are no value of the target type: the conversion \
                 does not produce that type"
            }
            Behaviour::NanToInf => "NaN becomes ±Inf, where NaN stays NaN",
            Behaviour::RangeBeforeRounding => {
                "the range is checked before rounding: values above the largest finite value \
                 become ±Inf and values below the smallest normal ±0, where rounding would \
                 bring them in range"
            }
        }
    }
}

/// What a diagnosis needs of one case: its model and fed inputs, the data input (fed or
/// initializer), and the expected and actual outputs.
pub(crate) struct Subject<'a> {
    /// The parsed model.
    pub model: &'a Model,
    /// The inputs the data set feeds.
    pub fed: &'a [Tensor],
    /// The data input of the first cast.
    pub input: Option<&'a Tensor>,
    /// Our expected output.
    pub expected: &'a Tensor,
    /// The runtime's output.
    pub actual: &'a Tensor,
    /// How the model file is written: the loader's behaviours apply to their variant only.
    pub encoding: Encoding,
}

/// For each index of `differing`, the behaviour whose output bits equal the runtime's there.
/// Where several do, the one that reproduces the most elements of the case wins (then the
/// earlier in [`Behaviour::ALL`]), so that one root cause names a whole case rather than
/// whichever behaviour happens to coincide on a few elements.
pub(crate) fn diagnose(s: &Subject<'_>, differing: &[usize]) -> Vec<Option<Behaviour>> {
    let mut out = vec![None; differing.len()];
    let Some(actual) = Codes::of(s.actual) else {
        return out;
    };
    let mut matches: Vec<(Behaviour, Vec<bool>)> = Vec::new();
    for b in Behaviour::ALL {
        let alts: Vec<Codes> = alternatives(s, b).iter().filter_map(Codes::of).collect();
        if alts.is_empty() {
            continue;
        }
        let hits: Vec<bool> = differing
            .iter()
            .map(|&i| alts.iter().any(|alt| alt.same(i, &actual)))
            .collect();
        if hits.iter().any(|&h| h) {
            matches.push((b, hits));
        }
    }
    loop {
        let best = matches
            .iter()
            .enumerate()
            .map(|(k, (_, hits))| {
                let n = hits
                    .iter()
                    .zip(&out)
                    .filter(|(h, o)| **h && o.is_none())
                    .count();
                (n, std::cmp::Reverse(k))
            })
            .max();
        let Some((n, std::cmp::Reverse(k))) = best else {
            break;
        };
        if n == 0 {
            break;
        }
        let (b, hits) = &matches[k];
        for (slot, &h) in out.iter_mut().zip(hits) {
            if h && slot.is_none() {
                *slot = Some(*b);
            }
        }
    }
    out
}

/// A tensor's elements as codes (strings as themselves), with which of them are NaN.
struct Codes {
    codes: Vec<u128>,
    strings: Vec<String>,
    nan: Vec<bool>,
}

impl Codes {
    fn of(t: &Tensor) -> Option<Codes> {
        if let Storage::String(v) = t.storage() {
            return Some(Codes {
                codes: Vec::new(),
                strings: v.clone(),
                nan: Vec::new(),
            });
        }
        let codes = tensor_codes(t)?;
        let nan = if t.dtype().kind() == TypeKind::Float {
            run::decode(t.dtype(), &codes)
                .iter()
                .map(|x| x.is_nan())
                .collect()
        } else {
            vec![false; codes.len()]
        };
        Some(Codes {
            codes,
            strings: Vec::new(),
            nan,
        })
    }

    /// Whether element `i` is the same in both (bits, or NaN in both), as the deep comparison
    /// judges.
    fn same(&self, i: usize, other: &Codes) -> bool {
        if !self.strings.is_empty() || !other.strings.is_empty() {
            return self.strings.get(i).is_some() && self.strings.get(i) == other.strings.get(i);
        }
        match (self.codes.get(i), other.codes.get(i)) {
            (Some(a), Some(b)) => a == b || (self.nan[i] && other.nan[i]),
            _ => false,
        }
    }
}

/// Our outputs under behaviour `b`: none when `b` does not apply to the case, several when
/// the behaviour comes in variants (a narrowing through INT32 that clamps or wraps).
fn alternatives(s: &Subject<'_>, b: Behaviour) -> Vec<Tensor> {
    match b {
        Behaviour::NarrowedThroughInt32 => narrowed_through_int32(s),
        Behaviour::TypedFieldsReadAsNumbers => read_as_numbers(s),
        Behaviour::SubnormalsFlushed if concat(s) => concat_flushed(s),
        b => alternative(s, b).into_iter().collect(),
    }
}

/// Our output under behaviour `b`, if `b` applies to the case.
fn alternative(s: &Subject<'_>, b: Behaviour) -> Option<Tensor> {
    let casts: Vec<usize> = s
        .model
        .graph
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n.op_type.as_str(), "Cast" | "CastLike"))
        .map(|(i, _)| i)
        .collect();
    let chain = casts.len() > 1;
    match b {
        Behaviour::RoundModeIgnored => rerun(s, |m| strip(m, "round_mode", None)),
        Behaviour::SaturateIgnored => rerun(s, |m| strip(m, "saturate", Some(0))),
        Behaviour::SaturationIgnored if !chain && saturates(s.expected.dtype()) => rerun(s, |m| {
            for n in cast_nodes(m) {
                n.attributes.retain(|a| a.name != "saturate");
                n.attributes.push(int_attr("saturate", 0));
            }
            m.opset >= 19
        }),
        Behaviour::EarlierVersionRules => rerun(s, |m| {
            let later = m.opset >= 24;
            m.opset = 23;
            for n in cast_nodes(m) {
                n.attributes.retain(|a| a.name != "round_mode");
            }
            later
        }),
        Behaviour::LaterVersionRules => rerun(s, |m| {
            let earlier = m.opset < 24;
            m.opset = 24;
            earlier
        }),
        Behaviour::ChainMiddleSkipped if chain => {
            let to = s.expected.dtype();
            cast(s.model.opset, s.input?, to, &[])
        }
        Behaviour::RoundedTwiceThroughFloat if concat(s) => concat_through_float(s),
        Behaviour::RoundedTwiceThroughFloat if !chain => {
            let (to, attrs) = single_cast(s)?;
            let from = s.input?.dtype();
            if from == DataType::Float || to == DataType::Float || to == DataType::String {
                return None;
            }
            let keep: Vec<Attribute> = attrs
                .into_iter()
                .filter(|a| a.name != "saturate" && a.name != "round_mode")
                .collect();
            let f = cast(s.model.opset, s.input?, DataType::Float, &keep)?;
            cast(s.model.opset, &f, to, &single_cast(s)?.1)
        }
        Behaviour::NanSignDropped if !chain => {
            let input = s.input?;
            let flipped = drop_nan_signs(input)?;
            let (to, attrs) = single_cast(s)?;
            cast(s.model.opset, &flipped, to, &attrs)
        }
        Behaviour::BoolFromBits if !chain && s.expected.dtype() == DataType::Bool => {
            let input = s.input?;
            let codes: Vec<u128> = tensor_codes(input)?
                .iter()
                .map(|&c| u128::from(c != 0))
                .collect();
            tensor_from_codes(DataType::Bool, s.expected.shape().to_vec(), &codes).ok()
        }
        Behaviour::OverflowToNan if !chain => overflow_to_nan(s),
        Behaviour::SubnormalsFlushed if !chain => flushed(s),
        Behaviour::HalfAwayFromZero if !chain => nudged(s, Direction::Away),
        Behaviour::Truncation if !chain => nudged(s, Direction::TowardZero),
        Behaviour::ConcatNegativeZeroLost => negative_zeros_lost(s),
        Behaviour::NanToFalse if !chain && s.expected.dtype() == DataType::Bool => nan_to_false(s),
        Behaviour::NanToInf if !chain => by_input_value(s, |x, _| {
            let inf = if x.is_sign_negative() {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            x.is_nan().then_some(inf)
        }),
        Behaviour::RangeBeforeRounding if !chain => by_input_value(s, |x, (max, min_normal)| {
            if x.is_finite() && x.abs() > max {
                Some(x.signum() * f64::INFINITY)
            } else if x != 0.0 && x.abs() < min_normal {
                Some(0.0f64.copysign(x))
            } else {
                None
            }
        }),
        _ => None,
    }
}

/// The infinity codes of the floating types that have one: (positive, sign bit).
fn infinity(t: DataType) -> Option<(u128, u128)> {
    let positive = match t {
        DataType::Float16 => 0x7C00,
        DataType::Bfloat16 => 0x7F80,
        DataType::Float => 0x7F80_0000,
        DataType::Double => 0x7FF0_0000_0000_0000,
        DataType::Float8E5M2 => 0x7C,
        _ => return None,
    };
    Some((positive, 1u128 << (t.bit_width() - 1)))
}

/// Our output with the elements `change` picks replaced: it sees each input value and the
/// target's (largest finite, smallest normal) and returns the new value (±Inf or ±0) for an
/// element it changes. For the targets with an infinity, from a floating source.
fn by_input_value(
    s: &Subject<'_>,
    change: impl Fn(f64, (f64, f64)) -> Option<f64>,
) -> Option<Tensor> {
    let input = s.input?;
    let (from, to) = (input.dtype(), s.expected.dtype());
    let (inf, sign) = infinity(to)?;
    if from.kind() != TypeKind::Float || input.len() != s.expected.len() {
        return None;
    }
    let max = run::decode(to, &[inf - 1])[0];
    let min_normal = smallest_normal(to);
    let xs = run::decode(from, &tensor_codes(input)?);
    let mut codes = tensor_codes(s.expected)?;
    let mut changed = false;
    for (c, &x) in codes.iter_mut().zip(&xs) {
        if let Some(v) = change(x, (max, min_normal)) {
            let negative = if v.is_sign_negative() { sign } else { 0 };
            *c = if v.is_infinite() { inf } else { 0 } | negative;
            changed = true;
        }
    }
    changed.then(|| tensor_from_codes(to, s.expected.shape().to_vec(), &codes).ok())?
}

/// Whether the case is one Concat node.
fn concat(s: &Subject<'_>) -> bool {
    s.model.graph.nodes.len() == 1 && s.model.graph.nodes[0].op_type == "Concat"
}

/// Concat's expected output with every subnormal flushed: to the zero of its sign, or to +0
/// (a flush, then a copy that loses the sign as a sum with +0 does).
fn concat_flushed(s: &Subject<'_>) -> Vec<Tensor> {
    let Some((signed, true)) = flush_codes(s.expected) else {
        return Vec::new();
    };
    let t = s.expected.dtype();
    let original = tensor_codes(s.expected).unwrap_or_default();
    let sign = 1u128 << (t.bit_width() - 1);
    // Only the elements the flush changed become +0.
    let plus: Vec<u128> = signed
        .iter()
        .zip(&original)
        .map(|(&f, &o)| if f != o && f == sign { 0 } else { f })
        .collect();
    [signed, plus]
        .into_iter()
        .filter_map(|codes| tensor_from_codes(t, s.expected.shape().to_vec(), &codes).ok())
        .collect()
}

/// Concat's expected DOUBLE output with every value rounded to FLOAT and back: what a
/// runtime that holds DOUBLE as FLOAT copies.
fn concat_through_float(s: &Subject<'_>) -> Option<Tensor> {
    let values = s.expected.as_slice::<f64>()?;
    let rounded: Vec<f64> = values.iter().map(|&v| f64::from(v as f32)).collect();
    (rounded
        .iter()
        .zip(values)
        .any(|(a, b)| a.to_bits() != b.to_bits()))
    .then(|| Tensor::from_vec(s.expected.shape().to_vec(), rounded).ok())?
}

/// Concat's expected output with every −0 made +0, when the model is one Concat of a type
/// that has a −0 and the output holds one.
fn negative_zeros_lost(s: &Subject<'_>) -> Option<Tensor> {
    let t = s.expected.dtype();
    if !concat(s) || t.kind() != TypeKind::Float {
        return None;
    }
    let sign = 1u128 << (t.bit_width() - 1);
    let mut codes = tensor_codes(s.expected)?;
    let mut changed = false;
    // −0 is the sign bit alone; in the FNUZ formats that code is their NaN, left as it is.
    let fnuz = matches!(t, DataType::Float8E4M3FNUZ | DataType::Float8E5M2FNUZ);
    for c in codes.iter_mut().filter(|c| **c == sign && !fnuz) {
        *c = 0;
        changed = true;
    }
    changed.then(|| tensor_from_codes(t, s.expected.shape().to_vec(), &codes).ok())?
}

/// Our BOOL output with every element whose input is NaN made false.
fn nan_to_false(s: &Subject<'_>) -> Option<Tensor> {
    let input = s.input?;
    let from = input.dtype();
    if !matches!(from.kind(), TypeKind::Float | TypeKind::PowerOfTwo)
        || input.len() != s.expected.len()
    {
        return None;
    }
    let nan: Vec<bool> = run::decode(from, &tensor_codes(input)?)
        .iter()
        .map(|x| x.is_nan())
        .collect();
    let mut codes = tensor_codes(s.expected)?;
    for (c, _) in codes.iter_mut().zip(&nan).filter(|(_, n)| **n) {
        *c = 0;
    }
    nan.contains(&true)
        .then(|| tensor_from_codes(DataType::Bool, s.expected.shape().to_vec(), &codes).ok())?
}

/// Our INT64 or UINT64 output taken through INT32 in each of the ways a narrowing goes:
/// clamped to its range, wrapped to its low 32 bits, or made 0x80000000 when out of range
/// (x86's conversion of an out-of-range float). Each is then widened back, sign-extended.
fn narrowed_through_int32(s: &Subject<'_>) -> Vec<Tensor> {
    let to = s.expected.dtype();
    if !matches!(to, DataType::Int64 | DataType::Uint64) {
        return narrowed_input(s);
    }
    let Some(codes) = tensor_codes(s.expected) else {
        return Vec::new();
    };
    let value = |c: u128| match to {
        DataType::Int64 => i128::from(c as u64 as i64),
        _ => c as i128,
    };
    let (lo, hi) = (i128::from(i32::MIN), i128::from(i32::MAX));
    let ways: [fn(i128, i128, i128) -> i128; 3] = [
        |v, lo, hi| v.clamp(lo, hi),
        |v, _, _| i128::from(v as i32),
        |v, lo, hi| if (lo..=hi).contains(&v) { v } else { lo },
    ];
    let out_of_range = codes.iter().any(|&c| !(lo..=hi).contains(&value(c)));
    if !out_of_range {
        return Vec::new();
    }
    ways.iter()
        .filter_map(|way| {
            let narrowed: Vec<u128> = codes
                .iter()
                .map(|&c| way(value(c), lo, hi) as u128 & u128::from(u64::MAX))
                .collect();
            tensor_from_codes(to, s.expected.shape().to_vec(), &narrowed).ok()
        })
        .collect()
}

/// Our output when an INT64 input went through INT32 before the cast, clamped, as a runtime
/// without 64-bit integer tensors loads it (rten). Not UINT64, nor wrapped: a wrap of UINT64's
/// top codes lands on values other behaviours give (a false diagnosis seen on tinygrad's
/// UINT64 -> BFLOAT16).
fn narrowed_input(s: &Subject<'_>) -> Vec<Tensor> {
    let Some(input) = s.input else {
        return Vec::new();
    };
    let from = input.dtype();
    let cast_count = s
        .model
        .graph
        .nodes
        .iter()
        .filter(|n| matches!(n.op_type.as_str(), "Cast" | "CastLike"))
        .count();
    if from != DataType::Int64 || cast_count != 1 {
        return Vec::new();
    }
    let (Some(codes), Some((to, attrs))) = (tensor_codes(input), single_cast(s)) else {
        return Vec::new();
    };
    let value = |c: u128| i128::from(c as u64 as i64);
    let (lo, hi) = (i128::from(i32::MIN), i128::from(i32::MAX));
    if codes.iter().all(|&c| (lo..=hi).contains(&value(c))) {
        return Vec::new();
    }
    let narrowed: Vec<u128> = codes
        .iter()
        .map(|&c| value(c).clamp(lo, hi) as u128 & u128::from(u64::MAX))
        .collect();
    tensor_from_codes(from, input.shape().to_vec(), &narrowed)
        .ok()
        .and_then(|fed| cast(s.model.opset, &fed, to, &attrs))
        .into_iter()
        .collect()
}

/// Our output when the initializer's FLOAT16, BFLOAT16 or float8 elements, held in
/// `int32_data` as bit patterns (onnx.proto), are read as the numbers those entries are and
/// converted into the source type, saturating or overflowing to ±Inf: only for a model
/// written with typed fields whose data input is an initializer.
fn read_as_numbers(s: &Subject<'_>) -> Vec<Tensor> {
    let Some(input) = s.input else {
        return Vec::new();
    };
    let from = input.dtype();
    let bit_patterns = matches!(from.kind(), TypeKind::Float | TypeKind::PowerOfTwo)
        && from.bit_width() <= 16
        && from.bit_width() >= 8;
    if s.encoding != Encoding::TypedFields || s.model.graph.initializers.is_empty() || !bit_patterns
    {
        return Vec::new();
    }
    let Some(codes) = tensor_codes(input) else {
        return Vec::new();
    };
    let Ok(numbers) = Tensor::from_vec(
        input.shape().to_vec(),
        codes.iter().map(|&c| c as i32).collect::<Vec<i32>>(),
    ) else {
        return Vec::new();
    };
    let Some((to, attrs)) = single_cast(s) else {
        return Vec::new();
    };
    [1, 0]
        .into_iter()
        .filter_map(|saturate| {
            // INT32 into every float type is defined from Cast-25 (float8 from 19).
            let read = cast(25, &numbers, from, &[int_attr("saturate", saturate)])?;
            cast(s.model.opset, &read, to, &attrs)
        })
        .collect()
}

fn cast_nodes(m: &mut Model) -> impl Iterator<Item = &mut harness::case::Node> {
    m.graph
        .nodes
        .iter_mut()
        .filter(|n| matches!(n.op_type.as_str(), "Cast" | "CastLike"))
}

/// Whether `saturate` changes results into `t` (float8 and E8M0).
fn saturates(t: DataType) -> bool {
    (t.kind() == TypeKind::Float && t.bit_width() == 8) || t == DataType::Float8E8M0
}

/// Removes attribute `name` from every cast (only where it is set to `value`, if given).
/// Whether any was removed.
fn strip(m: &mut Model, name: &str, value: Option<i64>) -> bool {
    let mut changed = false;
    for n in cast_nodes(m) {
        let before = n.attributes.len();
        n.attributes.retain(|a| {
            a.name != name
                || match (value, &a.value) {
                    (Some(v), AttrValue::Int(i)) => *i != v,
                    (None, AttrValue::String(s)) => s.as_slice() == b"up",
                    _ => false,
                }
        });
        changed |= n.attributes.len() != before;
    }
    changed
}

/// Runs the case's model, changed by `change` (which says whether it changed anything), on
/// the fed inputs with our implementation.
fn rerun(s: &Subject<'_>, change: impl FnOnce(&mut Model) -> bool) -> Option<Tensor> {
    let mut model = s.model.clone();
    if !change(&mut model) {
        return None;
    }
    use harness::backend::Backend;
    let file = harness::backend::ModelFile {
        path: std::path::Path::new("model.onnx"),
        model: &model,
    };
    let prepared = harness::backend::Native.prepare(file).ok()?;
    prepared.run(s.fed).ok()?.into_iter().next()
}

/// The target and attributes (`to` apart) of a case with one cast.
fn single_cast(s: &Subject<'_>) -> Option<(DataType, Vec<Attribute>)> {
    let node = s
        .model
        .graph
        .nodes
        .iter()
        .find(|n| matches!(n.op_type.as_str(), "Cast" | "CastLike"))?;
    let attrs = node
        .attributes
        .iter()
        .filter(|a| a.name != "to")
        .cloned()
        .collect();
    Some((s.expected.dtype(), attrs))
}

fn int_attr(name: &str, v: i64) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::Int(v),
    }
}

/// Cast `input` to `to` at `opset` with `attrs`, by our implementation (CastLike's rules are
/// Cast's at the same opset).
fn cast(opset: i64, input: &Tensor, to: DataType, attrs: &[Attribute]) -> Option<Tensor> {
    let version = vocab::version::resolve("Cast", opset).ok()?;
    let mut all = vec![crate::generate::plan::to_attr(version.spec(), to)];
    all.extend(attrs.iter().cloned());
    ops::run(version, &all, &[input]).ok()?.into_iter().next()
}

/// `input` with every NaN made positive, or none when it has no negative NaN.
fn drop_nan_signs(input: &Tensor) -> Option<Tensor> {
    let t = input.dtype();
    if !matches!(t.kind(), TypeKind::Float) {
        return None;
    }
    let codes = tensor_codes(input)?;
    let values = run::decode(t, &codes);
    let sign = 1u128 << (t.bit_width() - 1);
    let mut changed = false;
    let flipped: Vec<u128> = codes
        .iter()
        .zip(&values)
        .map(|(&c, v)| {
            if v.is_nan()
                && c & sign != 0
                && !matches!(t, DataType::Float8E4M3FNUZ | DataType::Float8E5M2FNUZ)
            {
                changed = true;
                c & !sign
            } else {
                c
            }
        })
        .collect();
    changed.then(|| tensor_from_codes(t, input.shape().to_vec(), &flipped).ok())?
}

/// The smallest normal value of floating type `t`: the code just above the last subnormal, in
/// every such format exponent field 1 with mantissa 0.
fn smallest_normal(t: DataType) -> f64 {
    let mantissa = match t.bit_width() {
        64 => 52,
        32 => 23,
        16 if t == DataType::Bfloat16 => 7,
        16 => 10,
        8 if matches!(t, DataType::Float8E4M3FN | DataType::Float8E4M3FNUZ) => 3,
        8 => 2,
        _ => 1,
    };
    run::decode(t, &[1u128 << mantissa])[0]
}

/// The codes of `t` with every subnormal value made a zero of its sign, or `None` when `t` is
/// not of an IEEE-like floating type (float8 and float4 included).
fn flush_codes(t: &Tensor) -> Option<(Vec<u128>, bool)> {
    let dtype = t.dtype();
    if dtype.kind() != TypeKind::Float {
        return None;
    }
    let mut codes = tensor_codes(t)?;
    let sign = 1u128 << (dtype.bit_width() - 1);
    let values = run::decode(dtype, &codes);
    let min_normal = smallest_normal(dtype);
    let mut changed = false;
    for (c, v) in codes.iter_mut().zip(values) {
        if v != 0.0 && v.is_finite() && v.abs() < min_normal {
            // FNUZ formats have no negative zero: their zero is 0x00.
            let fnuz = matches!(dtype, DataType::Float8E4M3FNUZ | DataType::Float8E5M2FNUZ);
            *c = if fnuz { 0 } else { *c & sign };
            changed = true;
        }
    }
    Some((codes, changed))
}

/// Our output with subnormal inputs read as zeros and subnormal outputs written as zeros.
fn flushed(s: &Subject<'_>) -> Option<Tensor> {
    let input = s.input?;
    let (to, attrs) = single_cast(s)?;
    let fed = match flush_codes(input) {
        Some((codes, true)) => {
            tensor_from_codes(input.dtype(), input.shape().to_vec(), &codes).ok()?
        }
        _ => input.clone(),
    };
    let out = cast(s.model.opset, &fed, to, &attrs)?;
    match flush_codes(&out) {
        Some((codes, true)) => tensor_from_codes(to, out.shape().to_vec(), &codes).ok(),
        _ => Some(out),
    }
}

/// Our output with every infinity that came from a finite input made NaN.
fn overflow_to_nan(s: &Subject<'_>) -> Option<Tensor> {
    let input = s.input?;
    let (from, to) = (input.dtype(), s.expected.dtype());
    if to.kind() != TypeKind::Float || input.len() != s.expected.len() {
        return None;
    }
    let finite: Vec<bool> = match from.kind() {
        TypeKind::Float | TypeKind::PowerOfTwo => run::decode(from, &tensor_codes(input)?)
            .iter()
            .map(|x| x.is_finite())
            .collect(),
        TypeKind::String => return None,
        _ => vec![true; input.len()],
    };
    let mut codes = tensor_codes(s.expected)?;
    let values = run::decode(to, &codes);
    let mut changed = false;
    for ((c, v), f) in codes.iter_mut().zip(values).zip(finite) {
        if v.is_infinite() && f {
            // Any nonzero mantissa under the all-ones exponent is a NaN.
            *c |= 1;
            changed = true;
        }
    }
    changed.then(|| tensor_from_codes(to, s.expected.shape().to_vec(), &codes).ok())?
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Away,
    TowardZero,
}

/// Our output with each element rounded in `dir` rather than to nearest even: for an integer
/// target the source value rounded so, wrapped or clamped as the version does; for a floating
/// target the expected code moved one step where the source value lies on the other side of
/// it (for `Away`, only at an exact tie).
fn nudged(s: &Subject<'_>, dir: Direction) -> Option<Tensor> {
    let input = s.input?;
    let (to, _) = single_cast(s)?;
    let from = input.dtype();
    if !matches!(from.kind(), TypeKind::Float | TypeKind::PowerOfTwo)
        || input.len() != s.expected.len()
    {
        return None;
    }
    let xs = run::decode(from, &tensor_codes(input)?);
    let expected = tensor_codes(s.expected)?;
    let codes: Vec<u128> = if to.kind().is_integer() {
        let w = to.bit_width();
        let signed = to.kind() == TypeKind::Signed;
        let (lo, hi) = if signed {
            (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
        } else {
            (0, (1i128 << w) - 1)
        };
        let clamp = w <= 4 && s.model.opset < 24;
        xs.iter()
            .zip(&expected)
            .map(|(&x, &e)| {
                if !x.is_finite() {
                    return e;
                }
                let r = match dir {
                    Direction::Away => x.round(),
                    Direction::TowardZero => x.trunc(),
                } as i128;
                let r = if clamp { r.clamp(lo, hi) } else { r };
                (r as u128) & ((1u128 << w) - 1)
            })
            .collect()
    } else if matches!(to.kind(), TypeKind::Float) {
        let sign = 1u128 << (to.bit_width() - 1);
        let values = run::decode(to, &expected);
        let mut out = expected.clone();
        for (k, ((&x, &e), &v)) in xs.iter().zip(&expected).zip(&values).enumerate() {
            if !x.is_finite() || !v.is_finite() || v == x {
                continue;
            }
            let mag = e & !sign;
            let toward_zero = v.abs() > x.abs();
            let step = match dir {
                Direction::TowardZero if toward_zero && mag > 0 => Some(mag - 1),
                Direction::Away if !toward_zero => {
                    // Away from zero only at an exact tie: the next value up is as far.
                    let up = run::decode(to, &[(mag + 1) | (e & sign)])[0];
                    (up.is_finite() && (up - x).abs() == (x - v).abs()).then_some(mag + 1)
                }
                _ => None,
            };
            if let Some(m) = step {
                out[k] = m | (e & sign);
            }
        }
        out
    } else {
        return None;
    };
    tensor_from_codes(to, s.expected.shape().to_vec(), &codes).ok()
}

#[cfg(test)]
mod tests;
