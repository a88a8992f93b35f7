//! The one place that decides what fixes each expected value of the deep tree: the operator
//! page, IEEE 754 rounding, the official data, or only our reading (docs/deep.md,
//! "Authority"). The rules restate docs/semantics.md; each names its section there.
//!
//! The decision is per element, from the pair, the attributes, the input class and the exact
//! source value, so that an element whose value the target holds exactly never rests on a
//! rounding rule. The generator groups a class's elements by authority, so every class range
//! of the index carries one.

use crate::index::{Authority, Citation, InputClass, Section};
use vocab::{DataType, OpKind, RoundMode, TypeKind};

/// The exact value of a source element, as the rules need it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Val {
    /// A floating value (every floating type decodes exactly into f64).
    Float(f64),
    /// An integer or bool value.
    Int(i128),
    /// A string that is no number ("INF" and "NaN" spellings parse as floats).
    Text,
}

/// One conversion step: operator, version, types and the attributes that change results.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// Cast or CastLike.
    pub op: OpKind,
    /// The operator's since-version.
    pub version: u32,
    /// Source type.
    pub from: DataType,
    /// Target type.
    pub to: DataType,
    /// `saturate` (default 1).
    pub saturate: bool,
    /// `round_mode` (default `up`).
    pub round_mode: RoundMode,
}

/// Releases whose official data truncates FLOAT into BFLOAT16 (test_cast_FLOAT_to_BFLOAT16,
/// test_castlike_FLOAT_to_BFLOAT16, opsets 13-23).
const DATA_BF16_TRUNCATION: &str =
    "test_cast_FLOAT_to_BFLOAT16 and test_castlike_FLOAT_to_BFLOAT16 \
     at opsets 13-23 (onnx 1.8.1-1.18.0): truncation";
/// Releases whose data saturates ±Inf into the FNUZ types at 19-23.
const DATA_FNUZ_INF: &str = "test_cast_FLOAT_to_FLOAT8E4M3FNUZ, test_cast_FLOAT_to_FLOAT8E5M2FNUZ \
     and their CastLike cases at opsets 19-23 (onnx 1.14.1-1.18.0): ±Inf → ±max";
/// Releases whose data gives NaN → FLOAT4E2M1 0x8.
const DATA_F4_NAN: &str = "test_cast_FLOAT_to_FLOAT4E2M1 and test_castlike_FLOAT_to_FLOAT4E2M1 at \
     opsets 24-25 (onnx 1.19.1-1.22.0): NaN → 0x8";
/// Releases whose data fixes the text of FLOAT → STRING.
const DATA_FLOAT_TEXT: &str = "test_cast_FLOAT_to_STRING and test_castlike_FLOAT_to_STRING at \
     opsets 9-23 (onnx 1.4.1-1.18.0): shortest round-trip decimal";

/// The operator page of `op` at `version`, as a link to onnx's change log anchor.
fn page_link(op: OpKind, version: u32) -> String {
    format!("https://github.com/onnx/onnx/blob/main/docs/Changelog.md#{op}-{version}")
}

fn technical_note(name: &str) -> String {
    format!("https://github.com/onnx/onnx/blob/main/docs/docsgen/source/technical/{name}.md")
}

const IEEE: &str = "IEEE 754-2019 §5.4.2 (formatOf conversions, correctly rounded, ties to even)";

fn cite(
    authority: Authority,
    section: Section,
    rule: &str,
    source: String,
) -> (Authority, Citation) {
    (
        authority,
        Citation {
            section,
            rule: rule.into(),
            source,
        },
    )
}

fn is_float8(t: DataType) -> bool {
    t.kind() == TypeKind::Float && t.bit_width() == 8
}

fn is_float6(t: DataType) -> bool {
    matches!(t, DataType::Float6E2M3 | DataType::Float6E3M2)
}

fn is_fnuz(t: DataType) -> bool {
    matches!(t, DataType::Float8E4M3FNUZ | DataType::Float8E5M2FNUZ)
}

/// Significand bits (hidden bit included), smallest normal exponent and largest finite value
/// of a floating type with a sign (docs/semantics.md §3.1).
fn format_of(t: DataType) -> Option<(u32, i32, f64)> {
    Some(match t {
        DataType::Double => (53, -1022, f64::MAX),
        DataType::Float => (24, -126, f64::from(f32::MAX)),
        DataType::Float16 => (11, -14, 65504.0),
        DataType::Bfloat16 => (8, -126, f64::from(f32::from_bits(0x7F7F_0000))),
        DataType::Float8E4M3FN => (4, -6, 448.0),
        DataType::Float8E4M3FNUZ => (4, -7, 240.0),
        DataType::Float8E5M2 => (3, -14, 57344.0),
        DataType::Float8E5M2FNUZ => (3, -15, 57344.0),
        DataType::Float4E2M1 => (2, 0, 6.0),
        DataType::Float6E2M3 => (4, 0, 7.5),
        DataType::Float6E3M2 => (3, -2, 28.0),
        _ => return None,
    })
}

/// |x| = mant · 2^exp exactly, for a finite `x`: its significand with the hidden bit and the
/// exponent of its last place.
fn significand(x: f64) -> (u64, i32) {
    let bits = x.abs().to_bits();
    match (bits >> 52) as i32 {
        0 => (bits & ((1 << 52) - 1), -1074),
        e => ((bits & ((1 << 52) - 1)) | (1 << 52), e - 1075),
    }
}

/// `v` rounded to nearest, ties to even, into the floating type `t` (an IEEE-like format: ±Inf
/// beyond its largest value), from its exact value, by integer arithmetic; `None` for a value
/// with no number (NaN, text) or a type outside [`format_of`].
fn nearest(t: DataType, v: Val) -> Option<f64> {
    let (p, emin, max) = format_of(t)?;
    let (negative, mant, exp): (bool, u128, i32) = match v {
        Val::Float(x) if x.is_infinite() => return Some(x),
        Val::Float(x) if x.is_finite() => {
            let (m, e) = significand(x);
            (x.is_sign_negative(), u128::from(m), e)
        }
        Val::Int(i) => (i < 0, i.unsigned_abs(), 0),
        _ => return None,
    };
    let signed = |a: f64| if negative { -a } else { a };
    if mant == 0 {
        return Some(signed(0.0));
    }
    let top = exp + (127 - mant.leading_zeros() as i32);
    let last = top.max(emin) - (p as i32 - 1);
    let (r, q) = match last - exp {
        s if s <= 0 => (mant, exp),
        s if s > 127 => (0, last),
        s => {
            let (kept, rest, half) = (mant >> s, mant & ((1u128 << s) - 1), 1u128 << (s - 1));
            let up = rest > half || (rest == half && kept & 1 == 1);
            (kept + u128::from(up), last)
        }
    };
    // Exact in f64: r has at most p + 1 significant bits and q is in f64's range for every
    // type of format_of.
    let a = r as f64 * 2f64.powi(q);
    Some(signed(if a > max { f64::INFINITY } else { a }))
}

/// Whether `v` rounds into `t` to another value through FLOAT (rounded to FLOAT first, then
/// into `t`) than from its exact value: the elements whose authority depends on which value
/// the rule rounds.
pub(crate) fn rounds_differently_through_float(t: DataType, v: Val) -> bool {
    let once = nearest(t, v);
    let twice = nearest(DataType::Float, v).and_then(|f| nearest(t, Val::Float(f)));
    once.zip(twice)
        .is_some_and(|(a, b)| a.to_bits() != b.to_bits())
}

/// Whether `t` holds the finite value `v` exactly (so no rounding rule is involved).
pub(crate) fn holds_exactly(t: DataType, v: Val) -> bool {
    let x = match v {
        Val::Float(x) if x.is_finite() => x,
        Val::Int(i) => {
            if t.kind().is_integer() || t == DataType::Bool {
                return false;
            }
            // An integer is exact in a float type when its significant bits fit.
            let m = i.unsigned_abs();
            if m == 0 {
                return true;
            }
            let bits = 128 - m.leading_zeros() - m.trailing_zeros();
            return match (t, format_of(t)) {
                (DataType::Float8E8M0, _) => m.is_power_of_two() && i > 0 && m < (1u128 << 127),
                (_, Some((p, _, max))) => bits <= p && (m as f64) <= max,
                _ => false,
            };
        }
        _ => return false,
    };
    if t == DataType::Float8E8M0 {
        let a = x.abs();
        return x > 0.0 && a.log2().fract() == 0.0 && (-127.0..=127.0).contains(&a.log2());
    }
    let Some((p, emin, max)) = format_of(t) else {
        return false;
    };
    if x == 0.0 {
        return true;
    }
    let a = x.abs();
    if a > max {
        return false;
    }
    // a = mant · 2^exp with mant odd: a fits when its exponent stays at or above the format's
    // last place and its significant bits fit.
    let (mut mant, mut exp) = significand(a);
    let tz = mant.trailing_zeros();
    mant >>= tz;
    exp += tz as i32;
    let width = 64 - mant.leading_zeros();
    let top = exp + width as i32 - 1;
    let last_place = top.max(emin) - (p as i32 - 1);
    exp >= last_place
}

/// The authority and citation of one element of `step` with input class `class` and exact
/// value `v`.
pub(crate) fn decide(step: &Step, class: InputClass, v: Val) -> (Authority, Citation) {
    use Authority::*;
    let Step {
        op,
        version,
        from,
        to,
        ..
    } = *step;
    let page = page_link(op, version);
    let cast13 = page_link(OpKind::Cast, 13);
    let infinite = matches!(v, Val::Float(x) if x.is_infinite());
    if from == to && infinite && step.saturate && is_float8(to) {
        return cite(
            Reading,
            Section::OtherNumeric,
            "FLOAT8E5M2 ±Inf into itself under saturate=1: the same-type rule keeps it, the \
             saturate table would give ±max; we keep it",
            page,
        );
    }
    if from == to {
        return cite(
            Page,
            Section::OtherNumeric,
            "a cast to the same type returns the input unchanged",
            page,
        );
    }
    if to == DataType::String {
        return match (from, class) {
            (DataType::Float, InputClass::Decimal) => cite(
                Data,
                Section::Strings,
                "FLOAT prints as the shortest decimal that reads back as the same float, positional",
                DATA_FLOAT_TEXT.into(),
            ),
            _ => cite(
                Reading,
                Section::Undefined,
                "the page asks for a plain representation and fixes no text; this is our reading",
                page,
            ),
        };
    }
    if from == DataType::String && class == InputClass::SpecialSpelling {
        return cite(
            Page,
            Section::Strings,
            "\"NaN\", \"INF\", \"+INF\" and \"-INF\", in any case, are NaN and the infinities",
            page_link(op, version),
        );
    }
    if to == DataType::Bool {
        return cite(
            Page,
            Section::OtherNumeric,
            "into BOOL, ±0 (and integer 0) are false and every other value true",
            cast13,
        );
    }
    if from == DataType::Bool {
        return cite(
            Page,
            Section::OtherNumeric,
            "BOOL converts to 1 or 0",
            cast13,
        );
    }
    if from.kind().is_integer() && to.kind().is_integer() {
        return cite(
            Page,
            Section::OtherNumeric,
            "integer to integer keeps the low bits (two's complement)",
            cast13,
        );
    }
    if to.kind().is_integer() {
        return float_to_int(to, v, &cast13);
    }
    // A floating target from here on.
    if let Val::Float(x) = v {
        if x.is_nan() {
            return nan_into(step, &page);
        }
    }
    if to == DataType::Float8E8M0 {
        return into_e8m0(step, class, v, &page);
    }
    into_float(step, v, page)
}

/// The authority of an element into a floating target other than E8M0, its value not NaN.
fn into_float(step: &Step, v: Val, page: String) -> (Authority, Citation) {
    use Authority::*;
    let Step {
        version, from, to, ..
    } = *step;
    let infinite = matches!(v, Val::Float(x) if x.is_infinite());
    if holds_exactly(to, v) {
        return cite(
            Page,
            Section::WideFloats,
            &format!(
                "{} holds this value exactly, so the cast keeps it",
                to.name()
            ),
            page,
        );
    }
    match to {
        DataType::Float | DataType::Double | DataType::Float16 => cite(
            Ieee,
            Section::NarrowerFloat,
            &format!(
                "into {} the value rounds once, to nearest even, overflowing to ±Inf",
                to.name()
            ),
            IEEE.into(),
        ),
        // Whether a wide source rounds once from its exact value or through FLOAT first is
        // fixed for IEEE 754's own formats (a conversion rounds once), not for bfloat16, which
        // is none of them (docs/semantics.md §3.6): where the two paths differ, our reading.
        DataType::Bfloat16 if version >= 24 && rounds_differently_through_float(to, v) => cite(
            Reading,
            Section::WideFloats,
            "from version 24 BFLOAT16 rounds to nearest even, but neither the page nor IEEE 754 \
             (whose conversions are between its own formats, and bfloat16 is none) says from \
             which value a wide source rounds; once from the exact value is our reading",
            page,
        ),
        DataType::Bfloat16 if version >= 24 => cite(
            Ieee,
            Section::VersionSwitch,
            "from version 24 BFLOAT16 rounds once, to nearest even: IEEE 754's rounding for a \
             binary format of precision 8 and emax 127, which the version-24 data shows for FLOAT",
            IEEE.into(),
        ),
        DataType::Bfloat16 if from == DataType::Float => cite(
            Data,
            Section::VersionSwitch,
            "up to version 23 the official data truncates FLOAT into BFLOAT16",
            DATA_BF16_TRUNCATION.into(),
        ),
        DataType::Bfloat16 => cite(
            Reading,
            Section::VersionSwitch,
            "up to version 23 we truncate after rounding to FLOAT; the data truncates FLOAT \
             sources only",
            DATA_BF16_TRUNCATION.into(),
        ),
        t if is_fnuz(t) && infinite && step.saturate && version < 24 => cite(
            Data,
            Section::FnuzInfinity,
            "at 19-23 the data saturates ±Inf into the FNUZ types (the page says NaN)",
            DATA_FNUZ_INF.into(),
        ),
        t if is_float8(t) => cite(
            Page,
            Section::NarrowerFloat,
            &format!(
                "into {} the exact value rounds once, to nearest even; overflow follows the \
                 page's saturate table",
                t.name()
            ),
            page,
        ),
        DataType::Float4E2M1 => cite(
            Page,
            Section::SubByte,
            "into FLOAT4E2M1 the exact value rounds once, to nearest even, saturating at ±6",
            technical_note("float4"),
        ),
        // The Cast-28 page lists the float6 types and says nothing more (§3.12).
        t if is_float6(t) && beyond_max(t, v) => cite(
            Reading,
            Section::Float6,
            &format!(
                "into {} overflow and ±Inf saturate to ±max whatever saturate says (onnx's FP6 \
                 note and QuantizeLinear-28's schema; the Cast page is silent)",
                t.name()
            ),
            page,
        ),
        t if is_float6(t) => cite(
            Ieee,
            Section::Float6,
            &format!(
                "into {} the exact value rounds once, to nearest even, within the range",
                t.name()
            ),
            IEEE.into(),
        ),
        _ => cite(
            Reading,
            Section::NarrowerFloat,
            "no rule of the page or the data covers this pair",
            page,
        ),
    }
}

/// Whether `v` lies beyond the largest finite value of `t` (infinities included), where only
/// a saturation rule, not IEEE rounding, gives a value.
fn beyond_max(t: DataType, v: Val) -> bool {
    let max = format_of(t).map_or(f64::INFINITY, |f| f.2);
    match v {
        Val::Float(x) => x.abs() > max,
        Val::Int(i) => i.unsigned_abs() as f64 > max,
        Val::Text => false,
    }
}

/// A floating (or string) value into an integer type: only in-range values are generated.
fn float_to_int(to: DataType, v: Val, cast13: &str) -> (Authority, Citation) {
    let whole = matches!(v, Val::Float(x) if x.fract() == 0.0) || matches!(v, Val::Int(_));
    if whole {
        return cite(
            Authority::Page,
            Section::OtherNumeric,
            "an integral value in the target's range converts exactly",
            cast13.into(),
        );
    }
    if to.bit_width() <= 4 {
        let note = if to.bit_width() == 4 { "int4" } else { "int2" };
        return cite(
            Authority::Page,
            Section::SubByte,
            &format!(
                "into {} a fraction rounds to nearest, ties to even ({note}.md)",
                to.name()
            ),
            technical_note(note),
        );
    }
    cite(
        Authority::Ieee,
        Section::OtherNumeric,
        "a fraction into an integer type is truncated toward zero (IEEE 754 \
         convertToIntegerTowardZero, C's conversion)",
        IEEE.into(),
    )
}

/// NaN into a floating target.
fn nan_into(step: &Step, page: &str) -> (Authority, Citation) {
    match step.to {
        DataType::Float4E2M1 if step.version >= 24 => cite(
            Authority::Data,
            Section::VersionSwitch,
            "from version 24 the data turns NaN into FLOAT4E2M1 0x8 (float4.md says 6)",
            DATA_F4_NAN.into(),
        ),
        DataType::Float4E2M1 => cite(
            Authority::Page,
            Section::SubByte,
            "FLOAT4E2M1 has no NaN; float4.md maps NaN to 6 (0x7)",
            technical_note("float4"),
        ),
        DataType::Float8E8M0 => cite(
            Authority::Page,
            Section::Float8E8M0,
            "NaN into FLOAT8E8M0 is 0xFF",
            page.into(),
        ),
        t if is_float6(t) => cite(
            Authority::Reading,
            Section::Float6,
            &format!(
                "{} has no NaN: +NaN becomes 0x20 (-0) and -NaN 0x00, the reference's codes, as \
                 the FLOAT4E2M1 data has it",
                t.name()
            ),
            page.into(),
        ),
        t => cite(
            Authority::Page,
            Section::NanCodes,
            &format!("NaN into {} stays NaN", t.name()),
            page.into(),
        ),
    }
}

/// A value into FLOAT8E8M0 (§3.7): the page's table fixes two columns, (saturate, up) and (no
/// saturation, nearest); `round_mode` fixes the rounding inside the range, except how ties go
/// under `nearest`.
fn into_e8m0(step: &Step, class: InputClass, v: Val, page: &str) -> (Authority, Citation) {
    let x = match v {
        Val::Float(x) => x.abs(),
        Val::Int(i) => i.unsigned_abs() as f64,
        Val::Text => f64::NAN,
    };
    let (min, max) = (2f64.powi(-127), 2f64.powi(127));
    let outside = x.is_infinite() || x > max || x < min;
    let page_column = (step.saturate && step.round_mode == RoundMode::Up)
        || (!step.saturate && step.round_mode == RoundMode::Nearest);
    if outside {
        return if page_column {
            cite(
                Authority::Page,
                Section::Float8E8M0,
                "the page's E8M0 table fixes values outside [2^-127, 2^127] in this mode",
                page.into(),
            )
        } else {
            cite(
                Authority::Reading,
                Section::Float8E8M0,
                "outside [2^-127, 2^127] we let saturate decide at every round_mode; the page's \
                 table gives two of the six columns",
                page.into(),
            )
        };
    }
    let k = x.log2().floor();
    let tie = x == 1.5 * 2f64.powf(k);
    if step.round_mode == RoundMode::Nearest && tie && class != InputClass::Exact {
        return cite(
            Authority::Reading,
            Section::Float8E8M0,
            "under nearest, 1.5·2^k goes up: the page does not say how ties go",
            page.into(),
        );
    }
    cite(
        Authority::Page,
        Section::Float8E8M0,
        "inside [2^-127, 2^127] round_mode picks the power of two of the exact value",
        page.into(),
    )
}

/// The weaker of two decisions (for chains: the whole is no stronger than its weakest step).
pub(crate) fn weaker(a: (Authority, Citation), b: (Authority, Citation)) -> (Authority, Citation) {
    if b.0 > a.0 {
        b
    } else {
        a
    }
}

/// Whether every value of `from` is a value of `to`.
pub(crate) fn widens(from: DataType, to: DataType) -> bool {
    if from == to {
        return true;
    }
    if from.kind().is_integer() || from == DataType::Bool {
        let w = from.bit_width();
        let lo = if from.kind() == TypeKind::Signed {
            -(1i128 << (w - 1))
        } else {
            0
        };
        let hi = if from.kind() == TypeKind::Signed {
            (1i128 << (w - 1)) - 1
        } else {
            (1i128 << w) - 1
        };
        return !to.kind().is_integer()
            && to != DataType::Bool
            && to != DataType::Float8E8M0
            && [lo, hi, hi - 1, lo + 1]
                .iter()
                .all(|&i| holds_exactly(to, Val::Int(i)));
    }
    if from == DataType::Float8E8M0 {
        return [-127, 127]
            .iter()
            .all(|&e| holds_exactly(to, Val::Float(2f64.powi(e))));
    }
    match (format_of(from), format_of(to)) {
        (Some((p, emin, max)), Some((q, tmin, tmax))) => {
            // The smallest step, the precision and the range must all fit.
            emin - (p as i32 - 1) >= tmin - (q as i32 - 1) && p <= q && max <= tmax
        }
        _ => false,
    }
}

/// What a step decides for a value it has not seen (a chain's second step): exact when every
/// value of the pair's source is a value of its target, else the rule of an inexact value.
pub(crate) fn decide_any(step: &Step) -> (Authority, Citation) {
    if widens(step.from, step.to) {
        let rule = format!(
            "every {} value is a {} value, so the cast keeps it",
            step.from.name(),
            step.to.name()
        );
        return cite(
            Authority::Page,
            Section::WideFloats,
            &rule,
            page_link(step.op, step.version),
        );
    }
    let probe = match format_of(step.from) {
        Some((p, _, _)) => Val::Float(1.0 + 2f64.powi(1 - p as i32) + 0.5),
        None => Val::Int(i128::from(i64::MAX)),
    };
    decide(step, InputClass::NearTie, probe)
}

#[cfg(test)]
mod tests;
