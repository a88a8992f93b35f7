//! Cast to and from STRING (Cast-9 and later): number formatting in the source's precision
//! and number parsing into the target (docs/semantics.md §3.9).
//!
//! Number → string: FLOAT and DOUBLE print the shortest decimal that round-trips in their own
//! precision, positional (Rust `{}`; `1` not `1.0`, `0.00001` not `1e-05`, unlike numpy);
//! FLOAT16, BFLOAT16, float8, float4 and E8M0 print the shortest decimal that rounds back to
//! the same value of *their* format; integers print in decimal; NaN (either sign) is "NaN",
//! infinities are "INF" and "-INF" (the tokens the Cast page lists for parsing, so every
//! string we produce parses back); −0 is "-0".

use super::OpVersion;
use crate::dtype::DataType;
use crate::error::Error;
use crate::formats::{CastRules, Exact, FloatFormat, Generation, RoundMode};

/// The tokens the Cast page names for the non-finite values (they also parse back).
const NAN: &str = "NaN";
const INF: &str = "INF";
const NEG_INF: &str = "-INF";

/// f32 → string: the shortest decimal that round-trips to the same f32, in plain positional
/// form (Rust's `{}`; it reproduces every official FLOAT → STRING string). Rust already
/// writes every NaN as "NaN", the page's token; only the infinities need ours.
pub(crate) fn f32_text(x: f32) -> String {
    if x.is_infinite() {
        infinity_text(x.is_sign_negative())
    } else {
        x.to_string()
    }
}

/// f64 → string: as for f32, in f64 precision.
pub(crate) fn f64_text(x: f64) -> String {
    if x.is_infinite() {
        infinity_text(x.is_sign_negative())
    } else {
        x.to_string()
    }
}

fn infinity_text(negative: bool) -> String {
    if negative { NEG_INF } else { INF }.to_owned()
}

/// The rules used to test whether a decimal rounds back to a small-float value: plain
/// round-to-nearest-even with no saturation (E8M0: nearest).
const ROUND_TRIP: CastRules = CastRules {
    saturate: false,
    round_mode: RoundMode::Nearest,
    generation: Generation::From24,
};

/// FLOAT16, BFLOAT16, float8, float4 → string: the decimal with the fewest significant
/// digits that rounds back to the same value of the source format, in plain positional form.
pub(crate) fn small_float_text<T: FloatFormat + PartialEq>(x: T) -> String {
    let exact = x.to_exact(&ROUND_TRIP);
    // Every value of these formats is exact in f64, so `wide` is the value itself.
    let wide = match exact {
        Exact::Nan { .. } => return NAN.to_owned(),
        Exact::Inf { negative } => return infinity_text(negative),
        Exact::Finite { .. } => f64::from_exact(&exact, &ROUND_TRIP),
    };
    // `digits` decimals in scientific form are digits + 1 significant digits. 17 of them give
    // any f64 back exactly, so the round with digits = 16 yields `wide`, the value itself: the
    // search ends there at the latest, and needs no fallback. Rust reads back what it
    // writes, so the parse cannot fail; `wide` stands in only to keep this total.
    let mut digits = 0;
    loop {
        let y = format!("{wide:.digits$e}").parse::<f64>().unwrap_or(wide);
        if digits >= 16 || T::from_exact(&y.to_exact(&ROUND_TRIP), &ROUND_TRIP) == x {
            return y.to_string();
        }
        digits += 1;
    }
}

/// String → exact value, parsed for target `to` (see [`parse_one`]).
pub(crate) fn parse_all(
    op: OpVersion,
    strings: &[String],
    to: DataType,
    rules: &CastRules,
) -> Result<Vec<Exact>, Error> {
    strings
        .iter()
        .enumerate()
        .map(|(index, s)| {
            parse_one(s, to, rules).ok_or_else(|| Error::ParseString {
                op,
                index,
                value: s.chars().take(40).collect(),
                target: to,
            })
        })
        .collect()
}

/// Parses one string for target `to`. Surrounding ASCII whitespace is ignored (numpy, which
/// made the data, ignores it too). Numbers are plain or scientific decimals; "NaN", "INF",
/// "+INF", "-INF" (any case, also "inf"/"infinity") are the non-finite values.
/// * FLOAT: parsed as f32 directly, so correctly rounded.
/// * Integer targets: an integer literal is taken exactly (then wrapped); anything else is
///   parsed as f64 and converted like a float (truncated toward zero), except that
///   INT4/UINT4/INT2/UINT2 keep the low bits at every version: a string is not a floating
///   source, so the clamp of Cast ≤ 23 does not apply.
/// * BOOL: "true"/"false" (any case), else a number (nonzero is true).
/// * Other floating targets: parsed as f64 (correctly rounded), then rounded once more into
///   the target; numpy converts strings to FLOAT16 the same way.
/// * FLOAT8E8M0 and the float6 types: parsed as f64 and, where the decimal is not exactly that
///   f64, moved a hair to the decimal's side (see [`decimal_side`]), so that the decimal, not
///   its f64, decides each rounding: one rounding from the decimal (docs/semantics.md §3.7
///   step 1 and the float6 section).
pub(crate) fn parse_one(s: &str, to: DataType, rules: &CastRules) -> Option<Exact> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let as_f64 = || t.parse::<f64>().ok().map(|x| x.to_exact(rules));
    match to {
        DataType::Float => t.parse::<f32>().ok().map(|x| x.to_exact(rules)),
        DataType::Float8E8M0 | DataType::Float6E2M3 | DataType::Float6E3M2 => {
            t.parse::<f64>().ok().map(|x| decimal_side(t, x, rules))
        }
        DataType::Bool => match t.to_ascii_lowercase().as_str() {
            "true" => Some(Exact::from_i128(1)),
            "false" => Some(Exact::from_i128(0)),
            _ => as_f64(),
        },
        _ if to.kind().is_integer() => t.parse::<i128>().ok().map(Exact::from_i128).or_else(as_f64),
        _ => as_f64(),
    }
}

/// How far [`decimal_side`] moves a value, in bits below its significand: far less than the
/// gap between two decision points of the targets that use it (a quarter of the value at
/// least for E8M0, 2^-5 of it for float6).
const NUDGE_BITS: i32 = 64;

/// `x`, the f64 nearest to decimal `t`, exactly, or, when the decimal is not exactly `x`,
/// `x` moved 2^-64 of itself towards the decimal. A target decides only at its decision
/// points (E8M0: powers of two and 1.5·2^k; float6: the midpoints between adjacent values),
/// each an f64 of at most 5 significant bits. No such point lies strictly between the decimal
/// and its nearest f64 (it would be nearer), so the f64 and the decimal fall on the same side
/// of every point unless the f64 is the point itself; the nudge settles that one case as the
/// decimal would, and crosses no other point.
fn decimal_side(t: &str, x: f64, rules: &CastRules) -> Exact {
    let exact = x.to_exact(rules);
    let Exact::Finite {
        negative,
        mant,
        exp,
    } = exact
    else {
        return exact;
    };
    if mant == 0 {
        return exact;
    }
    // An f64 significand has at most 53 bits, so the shifted one fits.
    let scaled = mant << NUDGE_BITS;
    let mant = match compare_decimal(t, x.abs()) {
        Some(std::cmp::Ordering::Greater) => scaled + 1,
        Some(std::cmp::Ordering::Less) => scaled - 1,
        _ => return exact,
    };
    Exact::Finite {
        negative,
        mant,
        exp: exp - NUDGE_BITS,
    }
}

/// A decimal literal as its significant digits d1 d2 … (no leading or trailing zeros) and
/// e10, its value being 0.d1d2… × 10^e10. `None` when `t` is not a plain decimal (optional
/// sign, digits with an optional point, optional exponent).
fn decimal_digits(t: &str) -> Option<(Vec<u8>, i64)> {
    let t = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], &t[i + 1..]),
        None => (t, "0"),
    };
    let exponent = exponent.strip_prefix('+').unwrap_or(exponent);
    let exponent: i64 = match exponent.strip_prefix('-') {
        Some(e) if !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()) => {
            -e.parse::<i64>().unwrap_or(i64::MAX / 2).min(i64::MAX / 2)
        }
        _ if !exponent.is_empty() && exponent.bytes().all(|b| b.is_ascii_digit()) => exponent
            .parse::<i64>()
            .unwrap_or(i64::MAX / 2)
            .min(i64::MAX / 2),
        _ => return None,
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let mut e10 = exponent.saturating_add(int.len() as i64);
    let leading = digits.iter().take_while(|&&d| d == 0).count();
    digits.drain(..leading);
    e10 = e10.saturating_sub(leading as i64);
    while digits.last() == Some(&0) {
        digits.pop();
    }
    Some((digits, e10))
}

/// The decimal `t` compared with `a` (finite, positive) exactly, by magnitude; `None` when
/// `t` is not a plain decimal.
fn compare_decimal(t: &str, a: f64) -> Option<std::cmp::Ordering> {
    let (d, e) = decimal_digits(t)?;
    // Every finite f64 has at most 767 significant decimal digits: 1100 print it exactly.
    let (ad, ae) = decimal_digits(&format!("{a:.1100e}"))?;
    if d.is_empty() {
        return Some(std::cmp::Ordering::Less);
    }
    Some(e.cmp(&ae).then_with(|| d.cmp(&ad)))
}
