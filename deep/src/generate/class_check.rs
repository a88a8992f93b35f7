//! Every element of every input the tree uses, checked against the definition of its class
//! (docs/deep.md), with code of its own: the bits are decoded here (Rust's f32/f64, the
//! `half` crate, a small-float decoder from the format parameters of docs/semantics.md §3.1),
//! and the target's values, midpoints and neighbours are found here, never by the generator
//! (`classes.rs`, `values.rs`) or the implementation.

use super::plan::{plans, Plan, Shape};
use super::values::{self, Input, Size};
use std::collections::{BTreeMap, HashMap, HashSet};
// The input classes, spelled short: the value tables name one on every line.
use crate::index::InputClass as C;
use vocab::{DataType, TypeKind};

/// Sign, exponent and mantissa widths and bias of a small float, and how it spells NaN/Inf.
#[derive(Clone, Copy)]
struct Params {
    e: u32,
    m: u32,
    bias: i32,
    /// NaN and Inf: IEEE (exponent all ones), FN (only S.1111.111 is NaN), FNUZ (0x80 only),
    /// none (FLOAT4E2M1, the float6 types).
    special: Special,
}

#[derive(Clone, Copy, PartialEq)]
enum Special {
    Ieee,
    Fn,
    Fnuz,
    None,
}

fn params(t: DataType) -> Option<Params> {
    let p = |e, m, bias, special| {
        Some(Params {
            e,
            m,
            bias,
            special,
        })
    };
    match t {
        DataType::Float8E4M3FN => p(4, 3, 7, Special::Fn),
        DataType::Float8E4M3FNUZ => p(4, 3, 8, Special::Fnuz),
        DataType::Float8E5M2 => p(5, 2, 15, Special::Ieee),
        DataType::Float8E5M2FNUZ => p(5, 2, 16, Special::Fnuz),
        DataType::Float4E2M1 => p(2, 1, 1, Special::None),
        DataType::Float6E2M3 => p(2, 3, 1, Special::None),
        DataType::Float6E3M2 => p(3, 2, 3, Special::None),
        DataType::Float16 => p(5, 10, 15, Special::Ieee),
        DataType::Bfloat16 => p(8, 7, 127, Special::Ieee),
        _ => None,
    }
}

fn small_float(p: Params, code: u128) -> f64 {
    let code = code as u64;
    let width = 1 + p.e + p.m;
    let negative = code >> (width - 1) & 1 == 1;
    let exp = (code >> p.m) & ((1 << p.e) - 1);
    let mant = code & ((1 << p.m) - 1);
    let all_ones = (1 << p.e) - 1;
    let nan = match p.special {
        Special::Ieee => exp == all_ones && mant != 0,
        Special::Fn => exp == all_ones && mant == (1 << p.m) - 1,
        Special::Fnuz => negative && exp == 0 && mant == 0,
        Special::None => false,
    };
    if nan {
        return f64::NAN;
    }
    if p.special == Special::Ieee && exp == all_ones {
        return if negative {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let scale = |k: i32| 2f64.powi(k);
    let mag = if exp == 0 {
        mant as f64 * scale(1 - p.bias - p.m as i32)
    } else {
        (1.0 + mant as f64 / scale(p.m as i32)) * scale(exp as i32 - p.bias)
    };
    if negative {
        -mag
    } else {
        mag
    }
}

/// The value of a code of floating type `t`.
pub(crate) fn decode(t: DataType, code: u128) -> f64 {
    match t {
        DataType::Float => f64::from(f32::from_bits(code as u32)),
        DataType::Double => f64::from_bits(code as u64),
        DataType::Float16 => f64::from(half::f16::from_bits(code as u16)),
        DataType::Bfloat16 => f64::from(half::bf16::from_bits(code as u16)),
        DataType::Float8E8M0 if code == 0xFF => f64::NAN,
        DataType::Float8E8M0 => 2f64.powi(code as i32 - 127),
        _ => small_float(params(t).expect("a small float"), code),
    }
}

fn floating(t: DataType) -> bool {
    matches!(t.kind(), TypeKind::Float | TypeKind::PowerOfTwo)
}

/// The integer a code of integer (or bool) type `t` holds.
fn integer(t: DataType, code: u128) -> i128 {
    let w = t.bit_width();
    if t.kind() == TypeKind::Signed && code >> (w - 1) & 1 == 1 {
        code as i128 - (1i128 << w)
    } else {
        code as i128
    }
}

fn range(t: DataType) -> (i128, i128) {
    let w = t.bit_width();
    if t.kind() == TypeKind::Signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// A floating target's values, found here.
struct Target {
    t: DataType,
    /// Non-negative finite values, ascending, for types of 16 bits or fewer.
    table: Vec<f64>,
    min_normal: f64,
    min_pos: f64,
    max: f64,
}

impl Target {
    fn new(t: DataType) -> Target {
        let (min_normal, min_pos, max) = match t {
            DataType::Float => (
                f64::from(f32::MIN_POSITIVE),
                f64::from(f32::from_bits(1)),
                f64::from(f32::MAX),
            ),
            DataType::Double => (f64::MIN_POSITIVE, f64::from_bits(1), f64::MAX),
            DataType::Float8E8M0 => (2f64.powi(-127), 2f64.powi(-127), 2f64.powi(127)),
            _ => {
                let p = params(t).expect("a small float");
                let min_normal = 2f64.powi(1 - p.bias);
                let min_pos = 2f64.powi(1 - p.bias - p.m as i32);
                let max = (0..1u128 << (p.e + p.m))
                    .map(|c| small_float(p, c))
                    .filter(|x| x.is_finite())
                    .fold(0.0, f64::max);
                (min_normal, min_pos, max)
            }
        };
        let table = if t.bit_width() <= 16 {
            let mut v: Vec<f64> = (0..1u128 << t.bit_width())
                .map(|c| decode(t, c))
                .filter(|x| x.is_finite() && *x >= 0.0)
                .collect();
            v.sort_by(f64::total_cmp);
            v.dedup();
            v
        } else {
            Vec::new()
        };
        Target {
            t,
            table,
            min_normal,
            min_pos,
            max,
        }
    }

    /// The values next to `a` (>= 0, finite, at most max): the largest at or below it and the
    /// smallest above it.
    fn around(&self, a: f64) -> (Option<f64>, Option<f64>) {
        match self.t {
            DataType::Double => (Some(a), Some(a.next_up()).filter(|x| x.is_finite())),
            DataType::Float => {
                let mut lo = a as f32;
                if f64::from(lo) > a {
                    lo = lo.next_down();
                }
                let hi = lo.next_up();
                (
                    Some(f64::from(lo)),
                    Some(f64::from(hi)).filter(|x| x.is_finite()),
                )
            }
            _ => {
                let n = self.table.partition_point(|&y| y <= a);
                (
                    n.checked_sub(1).map(|i| self.table[i]),
                    self.table.get(n).copied(),
                )
            }
        }
    }

    fn is_value(&self, a: f64) -> bool {
        a <= self.max && self.around(a).0 == Some(a)
    }

    /// The lower neighbour when `a` is the midpoint of two adjacent values.
    fn midpoint(&self, a: f64) -> Option<f64> {
        if self.t == DataType::Double || a > self.max || self.is_value(a) {
            return None;
        }
        match self.around(a) {
            (Some(lo), Some(hi)) if (lo + hi) / 2.0 == a => Some(lo),
            _ => None,
        }
    }

    /// Every nonzero value, and every midpoint's lower neighbour, in [p, s], as (value, is a
    /// midpoint).
    fn inside(&self, p: f64, s: f64) -> Vec<(f64, bool)> {
        let mut out = Vec::new();
        let Some(mut x) = self.around(p).0.or_else(|| self.around(p).1) else {
            return out;
        };
        while x <= s {
            if x >= p && x > 0.0 {
                out.push((x, false));
            }
            let Some(next) = self.around(x).1 else { break };
            let mid = (x + next) / 2.0;
            if self.t != DataType::Double && mid >= p && mid <= s {
                out.push((x, true));
            }
            x = next;
        }
        out
    }
}

/// One element and its surroundings, as the definitions need them.
struct Case<'a> {
    from: DataType,
    to: DataType,
    target: Option<&'a Target>,
    src_min_normal: f64,
}

/// The canonical quiet NaNs of the wide floating types, positive.
fn canonical_nan(t: DataType) -> Option<u128> {
    match t {
        DataType::Float => Some(0x7FC0_0000),
        DataType::Double => Some(0x7FF8_0000_0000_0000),
        DataType::Float16 => Some(0x7E00),
        DataType::Bfloat16 => Some(0x7FC0),
        _ => None,
    }
}

/// Whether `x` (integer `n` when an integer source) is neither a value nor a midpoint of the
/// target while rounding it first to FLOAT (DOUBLE for FLOAT targets) gives a midpoint (for
/// E8M0 also a value).
fn double_rounding(c: &Case<'_>, x: f64, n: Option<i128>) -> bool {
    let Some(t) = c.target else { return false };
    if c.to == DataType::Double {
        return false;
    }
    let first_double = c.to == DataType::Float;
    let source_wider = match c.from {
        DataType::Double => !first_double,
        DataType::Int32 | DataType::Uint32 => !first_double,
        DataType::Int64 | DataType::Uint64 => true,
        _ => false,
    };
    if !source_wider {
        return false;
    }
    let a = x.abs();
    let held = n.is_none_or(|n| (n as f64) as i128 == n);
    if a > t.max || (held && (t.is_value(a) || t.midpoint(a).is_some())) {
        return false;
    }
    let r = match (first_double, n) {
        (false, Some(n)) => f64::from(n as f32),
        (false, None) => f64::from(x as f32),
        (true, Some(n)) => n as f64,
        (true, None) => x,
    }
    .abs();
    t.midpoint(r).is_some() || (c.to == DataType::Float8E8M0 && t.is_value(r))
}

/// Whether the class `class` of a floating source element (code, value, neighbours'
/// magnitudes) is true.
fn float_claim(c: &Case<'_>, class: C, code: u128, v: f64, pred: f64, succ: f64) -> bool {
    let a = v.abs();
    let fin = v.is_finite() && v != 0.0;
    let sign = 1u128 << (c.from.bit_width() - 1);
    let ulp = (a - pred).max(succ - a);
    let r = if c.to.bit_width() <= 4 {
        v.round_ties_even()
    } else {
        v.trunc()
    };
    let t = c.target;
    let normal = |x: f64| t.is_some_and(|t| x >= t.min_normal);
    let neither = t.is_some_and(|t| !t.is_value(a) && t.midpoint(a).is_none() && a <= t.max);
    let inside = |mid: bool, norm: bool| {
        fin && neither
            && t.is_some_and(|t| {
                t.inside(pred, succ)
                    .iter()
                    .any(|&(x, m)| m == mid && (x >= t.min_normal) == norm)
            })
    };
    match class {
        C::Nan => v.is_nan(),
        C::NanPayload => v.is_nan() && canonical_nan(c.from).is_some_and(|n| code & !sign != n),
        C::Inf => v.is_infinite(),
        C::Zero => v == 0.0,
        C::Subnormal => fin && a < c.src_min_normal,
        C::Normal => fin && a >= c.src_min_normal,
        C::Nonzero => c.to == DataType::Bool && fin,
        C::Decimal => {
            c.to == DataType::String
                && v.is_finite()
                && v.fract() != 0.0
                && (1e-3..1e7).contains(&a)
        }
        C::Fraction => c.to.kind().is_integer() && v.is_finite() && v.fract() != 0.0,
        C::PowerOfTwo => {
            c.to.kind().is_integer() && (-1..130).any(|k| (a - 2f64.powi(k)).abs() <= 0.5 + ulp)
        }
        C::RangeEdge => {
            let (lo, hi) = range(c.to);
            c.to.kind().is_integer()
                && r.abs() < 1e30
                && ((r as i128 - lo).abs() as f64 <= ulp.max(1.0)
                    || (r as i128 - hi).abs() as f64 <= ulp.max(1.0))
        }
        C::BeyondInt32 => {
            c.to.kind().is_integer() && r.abs() < 1e30 && i32::try_from(r as i128).is_err()
        }
        C::AboveMax => t.is_some_and(|t| v.is_finite() && a > t.max),
        C::BelowMin => t.is_some_and(|t| fin && a < t.min_pos),
        C::Exact => fin && t.is_some_and(|t| t.is_value(a)) && normal(a),
        C::ExactSubnormal => fin && t.is_some_and(|t| t.is_value(a)) && !normal(a),
        C::Tie => fin && t.and_then(|t| t.midpoint(a)).is_some_and(normal),
        C::SubnormalTie => fin && t.and_then(|t| t.midpoint(a)).is_some_and(|lo| !normal(lo)),
        C::NearTie => inside(true, true),
        C::NearSubnormalTie => inside(true, false),
        C::NearExact => inside(false, true),
        C::NearExactSubnormal => inside(false, false),
        C::DoubleRounding => v.is_finite() && double_rounding(c, v, None),
        // The source's largest finite value: its code is one below the infinity's, or (no
        // infinity) the code below is finite and the one above is not a larger finite value.
        C::Max => {
            fin && succ == a
                && (1..=3).all(|d| {
                    let up = decode(c.from, (code & !sign) + d);
                    !(up.is_finite() && up.abs() > a)
                })
        }
        other => panic!("{:?} -> {:?}: no definition of class {other}", c.from, c.to),
    }
}

fn int_claim(c: &Case<'_>, class: C, n: i128) -> bool {
    let a = n.abs();
    let (lo, hi) = range(c.from);
    let off_pow2 = |d: std::ops::RangeInclusive<i128>, ks: std::ops::RangeInclusive<u32>| {
        ks.into_iter().any(|k| d.contains(&(a - (1i128 << k))))
    };
    match class {
        C::Code => c.from.bit_width() <= 8,
        C::RangeEdge => n == lo || n == hi || n == lo + 1 || n == hi - 1,
        C::Small => a <= 8,
        C::PrecisionEdge => off_pow2(-1..=2, 2..=54),
        C::WrapEdge => off_pow2(-1..=1, 1..=64),
        C::OffTie => [2u32, 3, 4, 8, 11, 24, 53].iter().any(|&p| {
            (p + 1..=100).any(|k| {
                let tie = (1i128 << k) + (1i128 << (k - p));
                a == tie - 1 || a == tie + 1
            })
        }),
        C::DoubleRounding => double_rounding(c, n as f64, Some(n)),
        other => panic!("{:?} -> {:?}: no definition of class {other}", c.from, c.to),
    }
}

fn string_claim(c: &Case<'_>, class: C, s: &str) -> bool {
    let body = s.trim_start_matches(['+', '-']);
    let special = ["inf", "nan"].contains(&body.to_lowercase().as_str());
    let x = if special { None } else { s.parse::<f64>().ok() };
    let mantissa = body.split(['e', 'E']).next().unwrap_or("");
    let nonzero = mantissa.chars().any(|ch| ('1'..='9').contains(&ch));
    let t = c.target;
    match class {
        C::IntegerLiteral => {
            s.len() - body.len() <= 1
                && !body.is_empty()
                && body.chars().all(|ch| ch.is_ascii_digit())
        }
        C::SpecialSpelling => special && s.len() - body.len() <= 1,
        C::Spelling => x.is_some(),
        C::Text => s.parse::<f64>().is_err(),
        C::Overflow => matches!((x, t), (Some(x), Some(t)) if x.abs() > t.max),
        C::Underflow => nonzero && matches!((x, t), (Some(x), Some(t)) if x.abs() < t.min_pos),
        C::ExtremeText => matches!((x, t), (Some(x), Some(t))
            if [t.min_pos, t.max].iter().any(|e| (0.5..=2.0).contains(&(x.abs() / e)))),
        other => panic!("STRING -> {:?}: no definition of class {other}", c.to),
    }
}

/// The inputs the tree holds: every (source, target, size) a case reads.
fn inputs_in_use() -> HashSet<(DataType, DataType, Size)> {
    let mut out = HashSet::new();
    for (_, plan) in plans() {
        match plan {
            Plan::Cast {
                from, to, shape, ..
            } => {
                let (to, size) = match shape {
                    Shape::Values(size) => (to, size),
                    Shape::Chain(mid) => (mid, Size::Boundary),
                    _ => (to, Size::Boundary),
                };
                out.insert((from, to, size));
            }
            Plan::Concat { dtype, .. } if dtype.kind() != TypeKind::Complex => {
                out.insert((dtype, dtype, Size::Boundary));
            }
            Plan::Concat { .. } => {}
        }
    }
    out
}

#[test]
fn every_element_of_every_input_is_what_its_class_says() {
    let mut targets: HashMap<DataType, Target> = HashMap::new();
    let mut seen: BTreeMap<C, usize> = BTreeMap::new();
    let mut wrong: Vec<String> = Vec::new();
    for (from, to, size) in inputs_in_use() {
        for t in [from, to].into_iter().filter(|&t| floating(t)) {
            targets.entry(t).or_insert_with(|| Target::new(t));
        }
        let src_min_normal = if floating(from) {
            targets[&from].min_normal
        } else {
            0.0
        };
        let c = Case {
            from,
            to,
            target: targets.get(&to).filter(|_| floating(to)),
            src_min_normal,
        };
        let mut check = |class: C, ok: bool, what: &dyn Fn() -> String| {
            *seen.entry(class).or_default() += 1;
            if !ok && wrong.len() < 40 {
                wrong.push(format!("{from:?} -> {to:?} ({size:?}) {class}: {}", what()));
            }
        };
        match values::input(from, to, size) {
            Input::Strings(classes) => {
                for (class, v) in &classes {
                    for s in v {
                        check(*class, string_claim(&c, *class, s), &|| format!("{s:?}"));
                    }
                }
            }
            Input::Codes(classes) => {
                for (class, v) in &classes {
                    for &code in v {
                        if floating(from) {
                            let x = decode(from, code);
                            // The neighbouring codes of the magnitude (E8M0 has no sign bit).
                            let top = if from == DataType::Float8E8M0 {
                                1u128 << 8
                            } else {
                                1u128 << (from.bit_width() - 1)
                            };
                            let m = code & (top - 1);
                            let near = |n: u128| {
                                let y = decode(from, n).abs();
                                if y.is_finite() {
                                    y
                                } else {
                                    x.abs()
                                }
                            };
                            let pred = if m > 0 { near(m - 1) } else { x.abs() };
                            let succ = if m + 1 < top { near(m + 1) } else { x.abs() };
                            let ok = float_claim(&c, *class, code, x, pred, succ);
                            check(*class, ok, &|| format!("{x:e} (code {code:#x})"));
                        } else {
                            let n = integer(from, code);
                            check(*class, int_claim(&c, *class, n), &|| format!("{n}"));
                        }
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_named_double_rounding_values_are_in_the_tree() {
    let has = |from: DataType, to: DataType, class: C, code: u128| {
        [Size::Boundary, Size::Full]
            .iter()
            .any(|&size| match values::input(from, to, size) {
                Input::Codes(c) => c.iter().any(|(k, v)| *k == class && v.contains(&code)),
                Input::Strings(_) => false,
            })
    };
    let d = |x: f64| u128::from(x.to_bits());
    let f16_tie = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    assert!(has(
        DataType::Double,
        DataType::Float16,
        C::DoubleRounding,
        d(f16_tie)
    ));
    assert!(has(
        DataType::Int64,
        DataType::Bfloat16,
        C::DoubleRounding,
        16_973_823
    ));
    assert!(has(
        DataType::Double,
        DataType::Float8E4M3FN,
        C::DoubleRounding,
        d(-431.999_999_999_999_94)
    ));
    assert!(has(
        DataType::Int32,
        DataType::Float8E8M0,
        C::DoubleRounding,
        2_147_483_647
    ));
    // Into BOOL: 0.5, -0.5, NaN, 256 and -1 from FLOAT; 256 and -1 from the integers.
    let f = |x: f32| u128::from(x.to_bits());
    for x in [0.5f32, -0.5, 256.0, -1.0] {
        assert!(
            [Size::Boundary].iter().any(|&s| {
                match values::input(DataType::Float, DataType::Bool, s) {
                    Input::Codes(c) => c.iter().any(|(_, v)| v.contains(&f(x))),
                    Input::Strings(_) => false,
                }
            }),
            "{x}"
        );
    }
    let Input::Codes(c) = values::input(DataType::Float, DataType::Bool, Size::Boundary) else {
        panic!()
    };
    assert!(c.iter().any(|(k, v)| *k == C::Nan && !v.is_empty()));
    for from in [DataType::Int16, DataType::Int32, DataType::Int64] {
        let Input::Codes(c) = values::input(from, DataType::Bool, Size::Boundary) else {
            panic!()
        };
        let all: Vec<u128> = c.iter().flat_map(|(_, v)| v.iter().copied()).collect();
        let mask = (1u128 << from.bit_width()) - 1;
        assert!(all.contains(&256) && all.contains(&mask), "{from:?}");
    }
}
