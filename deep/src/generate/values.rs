//! The input values of a Cast or CastLike case, per (source, target) pair: every code of the
//! narrow types, rounding boundaries of the target for wide floating sources, integer
//! boundaries, string spellings. Each value carries its input class; values whose result the
//! spec leaves undefined (docs/semantics.md §3.11) are left out.

use super::{classes, run};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};
// The input classes, spelled short: the value tables name one on every line.
use crate::index::InputClass as C;
use vocab::{DataType, Tensor, TypeKind};

/// Input elements grouped by class, in class order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Input {
    /// Element codes of a numeric (or bool) source.
    Codes(Vec<(C, Vec<u128>)>),
    /// Strings of a STRING source.
    Strings(Vec<(C, Vec<String>)>),
}

impl Input {
    /// Number of elements.
    pub(crate) fn len(&self) -> usize {
        match self {
            Input::Codes(c) => c.iter().map(|(_, v)| v.len()).sum(),
            Input::Strings(c) => c.iter().map(|(_, v)| v.len()).sum(),
        }
    }

    /// The elements in order, repeated to `len` in one class (the classes are the caller's
    /// to keep: a placed case's index holds the pattern's ranges and its period).
    pub(crate) fn cycled(&self, len: usize) -> Input {
        fn cycle<T: Clone>(c: &[(C, Vec<T>)], len: usize) -> Vec<(C, Vec<T>)> {
            let all: Vec<T> = c.iter().flat_map(|(_, v)| v.iter().cloned()).collect();
            let class = c.first().map_or(C::Code, |(k, _)| *k);
            let out = all.iter().cycle().take(len).cloned().collect();
            vec![(class, out)]
        }
        match self {
            Input::Codes(c) => Input::Codes(cycle(c, len)),
            Input::Strings(c) => Input::Strings(cycle(c, len)),
        }
    }

    /// The first `per_class` elements of each class.
    pub(crate) fn sample(&self, per_class: usize) -> Input {
        fn cut<T: Clone>(c: &[(C, Vec<T>)], n: usize) -> Vec<(C, Vec<T>)> {
            c.iter()
                .map(|(k, v)| (*k, v.iter().take(n).cloned().collect()))
                .collect()
        }
        match self {
            Input::Codes(c) => Input::Codes(cut(c, per_class)),
            Input::Strings(c) => Input::Strings(cut(c, per_class)),
        }
    }
}

/// How large a value set to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Size {
    /// Every code of 16-bit sources, every value of 16-bit targets.
    Full,
    /// Boundary samples for the 16-bit types (8-bit and smaller types are always complete).
    Boundary,
}

/// The value a code stands for, as the filters need it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Val {
    Float(f64),
    Int(i128),
}

fn is_floating(t: DataType) -> bool {
    matches!(t.kind(), TypeKind::Float | TypeKind::PowerOfTwo)
}

fn is_int(t: DataType) -> bool {
    t.kind().is_integer()
}

/// The range of an integer type.
fn int_range(t: DataType) -> (i128, i128) {
    let w = t.bit_width();
    match t.kind() {
        TypeKind::Signed => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
        _ => (0, (1i128 << w) - 1),
    }
}

/// The integer a code of an integer or bool type stands for.
fn int_of(t: DataType, code: u128) -> i128 {
    let w = t.bit_width();
    match t.kind() {
        TypeKind::Signed => ((code << (128 - w)) as i128) >> (128 - w),
        _ => code as i128,
    }
}

/// The code of integer `v` in integer type `t` (two's complement, low bits).
fn code_of_int(t: DataType, v: i128) -> u128 {
    (v as u128) & ((1u128 << t.bit_width()) - 1)
}

/// Every code of a type of at most 16 bits.
fn all_codes(t: DataType) -> Vec<u128> {
    if t == DataType::Bool {
        return vec![0, 1];
    }
    (0..1u128 << t.bit_width()).collect()
}

/// The values of `codes` of `t`.
pub(crate) fn vals(t: DataType, codes: &[u128]) -> Vec<Val> {
    if is_floating(t) {
        run::decode(t, codes).into_iter().map(Val::Float).collect()
    } else {
        codes.iter().map(|&c| Val::Int(int_of(t, c))).collect()
    }
}

/// The finite positive values of floating type `t`, ascending, as adjacent pairs: every pair
/// for types of 8 bits or fewer and under [`Size::Full`]; otherwise pairs at the edges of the
/// range, around every power of two, and a spread between.
fn grid(t: DataType, size: Size) -> Vec<(f64, f64)> {
    if t.bit_width() > 16 {
        // FLOAT: each exponent field with mantissas 0, 1, half and all ones, and the next value.
        let mut pairs = Vec::new();
        for exp in 0u32..255 {
            for mant in [0u32, 1, 0x40_0000, 0x7F_FFFF] {
                let bits = (exp << 23) | mant;
                let (lo, hi) = (f32::from_bits(bits), f32::from_bits(bits + 1));
                if bits != 0 && hi.is_finite() {
                    pairs.push((f64::from(lo), f64::from(hi)));
                }
            }
        }
        return pairs;
    }
    let codes = all_codes(t);
    let mut v: Vec<f64> = run::decode(t, &codes)
        .into_iter()
        .filter(|x| x.is_finite() && *x >= 0.0 && x.is_sign_positive())
        .collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    let pairs: Vec<(f64, f64)> = v.windows(2).map(|w| (w[0], w[1])).collect();
    if t.bit_width() <= 8 || size == Size::Full {
        return pairs;
    }
    let n = pairs.len();
    let pow2 = |x: f64| x > 0.0 && x.log2().fract() == 0.0;
    pairs
        .into_iter()
        .enumerate()
        .filter(|(i, (lo, hi))| *i < 4 || i + 4 >= n || pow2(*lo) || pow2(*hi) || i % 61 == 0)
        .map(|(_, p)| p)
        .collect()
}

/// The smallest positive normal value of `t`, from its grid: the first binade keeps the
/// subnormal spacing, so it is half the first value whose gap is twice the smallest.
fn min_normal(pairs: &[(f64, f64)]) -> f64 {
    let Some(&(lo0, hi0)) = pairs.first() else {
        return 0.0;
    };
    let step = hi0 - lo0;
    pairs
        .iter()
        .find(|(lo, hi)| hi - lo > step)
        .map_or(0.0, |(lo, _)| lo / 2.0)
}

/// Classes of floating source codes taken whole: NaN, infinity, zero, subnormal, normal.
fn classify_floats(t: DataType, codes: &[u128]) -> Vec<(C, Vec<u128>)> {
    let normal = if t == DataType::Float8E8M0 {
        0.0
    } else {
        min_normal(&grid(t, Size::Full))
    };
    let values = run::decode(t, codes);
    let mut out: Vec<(C, Vec<u128>)> = [C::Nan, C::Inf, C::Zero, C::Subnormal, C::Normal]
        .iter()
        .map(|k| (*k, Vec::new()))
        .collect();
    for (&c, v) in codes.iter().zip(values) {
        let k = if v.is_nan() {
            0
        } else if v.is_infinite() {
            1
        } else if v == 0.0 {
            2
        } else if v.abs() < normal {
            3
        } else {
            4
        };
        out[k].1.push(c);
    }
    out
}

/// Signed points (exact f64 values) for a floating target: the target's values, the
/// midpoints between neighbours, the overflow edge, zeros, infinities.
fn float_target_points(to: DataType, size: Size) -> Vec<(C, f64)> {
    let pairs = grid(to, size);
    let normal = min_normal(&pairs);
    let mut pts = Vec::new();
    for &(lo, hi) in &pairs {
        let mid = lo + (hi - lo) / 2.0;
        let sub = lo < normal;
        pts.push((if sub { C::ExactSubnormal } else { C::Exact }, lo));
        pts.push((if sub { C::SubnormalTie } else { C::Tie }, mid));
    }
    if let (Some(&(first, _)), Some(&(below, max))) = (pairs.first(), pairs.last()) {
        pts.push((C::SubnormalTie, first / 2.0));
        let gap = max - below;
        pts.push((C::Exact, max));
        for above in [
            max + gap / 2.0,
            max + gap,
            max * 2.0,
            f64::from(f32::MAX),
            f64::MAX,
        ] {
            pts.push((C::AboveMax, above));
        }
    }
    pts.push((C::Zero, 0.0));
    let mut signed: Vec<(C, f64)> = pts.iter().flat_map(|&(k, v)| [(k, v), (k, -v)]).collect();
    signed.push((C::Inf, f64::INFINITY));
    signed.push((C::Inf, f64::NEG_INFINITY));
    signed
}

/// Points for an integer target: fractions, powers of two, the range's edges.
fn int_target_points(to: DataType) -> Vec<(C, f64)> {
    let (lo, hi) = int_range(to);
    let mut pts = Vec::new();
    for f in [0.25, 0.5, 1.0, 1.5, 2.5, 3.5] {
        pts.push((C::Fraction, f));
        pts.push((C::Fraction, -f));
    }
    for k in 1..to.bit_width().min(64) {
        let p = (1u64 << k) as f64;
        for v in [p, p - 0.5, p + 0.5, -p, -p + 0.5, -p - 0.5] {
            pts.push((C::PowerOfTwo, v));
        }
    }
    for (edge, dir) in [(hi as f64, 1.0), (lo as f64, -1.0)] {
        for d in [0.0, 0.25, 0.5, 0.75, 1.0] {
            pts.push((C::RangeEdge, edge + dir * d));
        }
    }
    if hi > i128::from(i32::MAX) {
        // Past INT32, where a runtime that converts through it goes wrong.
        for v in [3e9, -3e9, 5e9, -5e9] {
            pts.push((C::BeyondInt32, v));
        }
    }
    pts.push((C::Zero, 0.0));
    pts.push((C::Zero, -0.0));
    pts
}

/// Points for a BOOL target: zeros and the smallest and largest nonzero values.
fn bool_target_points() -> Vec<(C, f64)> {
    let mut pts = vec![(C::Zero, 0.0), (C::Zero, -0.0)];
    for v in [
        f64::from_bits(1),
        1e-40,
        0.5,
        1.0,
        2.0,
        256.0,
        1e30,
        f64::MAX,
    ] {
        pts.push((C::Nonzero, v));
        pts.push((C::Nonzero, -v));
    }
    pts.push((C::Inf, f64::INFINITY));
    pts.push((C::Inf, f64::NEG_INFINITY));
    pts
}

/// Decimals whose FLOAT and DOUBLE text the official data fixes (shortest round trip,
/// positional; the first four are official FLOAT→STRING inputs).
const DECIMALS: &[&str] = &[
    "0.9767611",
    "0.039187793",
    "0.064147495",
    "0.12019656",
    "0.001",
    "0.1",
    "0.2",
    "0.3",
    "0.5",
    "0.75",
    "1.5",
    "2.5",
    "3.14159",
    "314.15926",
    "1234.5677",
    "65504.5",
    "8388607.5",
    "0.47892547",
    "0.816468",
    "0.7229038",
];

/// The special codes of a wide floating source: NaN of both signs and with payloads.
fn nan_codes(from: DataType) -> Vec<(C, u128)> {
    let sign = 1u128 << (from.bit_width() - 1);
    let inf = run::encode_nearest(from, &[f64::INFINITY])[0];
    let nan = run::encode_nearest(from, &[f64::NAN])[0];
    vec![
        (C::Nan, nan),
        (C::Nan, nan | sign),
        (C::NanPayload, inf | 1),
        (C::NanPayload, nan | 1),
        (C::NanPayload, (sign << 1) - 1),
    ]
}

/// Codes of `from` (f16, bf16, f32 or f64) at and beside each point: the nearest code and the
/// codes one unit in the last place below and above it.
fn into_source(from: DataType, pts: &[(C, f64)]) -> Vec<(C, u128)> {
    let values: Vec<f64> = pts.iter().map(|p| p.1).collect();
    let codes = run::encode_nearest(from, &values);
    let sign = 1u128 << (from.bit_width() - 1);
    let mut out = Vec::new();
    let decoded = run::decode(from, &codes);
    for ((&(class, v), code), back) in pts.iter().zip(codes).zip(decoded) {
        let exact = back == v || (back.is_nan() && v.is_nan());
        out.push((if exact { class } else { near(class) }, code));
        let mag = code & !sign;
        let near_class = near(class);
        if mag > 0 {
            out.push((near_class, code - 1));
        }
        if mag + 1 < sign {
            out.push((near_class, code + 1));
        }
    }
    out
}

/// The class of a value one ulp off a point of class `class` (where it holds: see
/// [`classes::choose`]).
fn near(class: C) -> C {
    match class {
        C::Tie => C::NearTie,
        C::SubnormalTie => C::NearSubnormalTie,
        C::Exact => C::NearExact,
        C::ExactSubnormal => C::NearExactSubnormal,
        other => other,
    }
}

/// DOUBLE values less than half a FLOAT ulp off each midpoint of a target narrower than FLOAT
/// (and off each value of E8M0, whose round modes decide there too): 2^(e-40) either side of
/// a point in [2^e, 2^(e+1)). Rounding to FLOAT first moves them onto the point.
fn double_rounding_doubles(to: DataType, pts: &[(C, f64)]) -> Vec<(C, u128)> {
    let mut out = Vec::new();
    for &(k, v) in pts {
        let boundary =
            matches!(k, C::Tie | C::SubnormalTie) || (to == DataType::Float8E8M0 && k == C::Exact);
        if !boundary || !v.is_finite() || v == 0.0 {
            continue;
        }
        let e = v.abs().log2().floor() as i32;
        let d = 2f64.powi(e - 40).copysign(v);
        for x in [v + d, v - d] {
            out.push((C::DoubleRounding, u128::from(x.to_bits())));
        }
    }
    out
}

/// Integers that rounding to FLOAT first (DOUBLE first for FLOAT targets) moves onto a
/// midpoint of `to` (for E8M0 also onto a power of two): one off the midpoints
/// 2^k + (2j+1)·2^(k-p) of a p-bit significand above the intermediate's precision. Kept
/// only where they are in the source's range and the class holds (see [`classes`]).
fn double_rounding_ints(from: DataType, to: DataType) -> Vec<(C, u128)> {
    let (p, ks): (u32, Vec<u32>) = match to {
        DataType::Bfloat16 => (8, vec![24, 25, 31, 32, 40, 53, 62, 63]),
        DataType::Float => (24, vec![54, 55, 62, 63]),
        DataType::Float8E8M0 => (1, (24..=63).collect()),
        _ => return Vec::new(),
    };
    let (lo, hi) = int_range(from);
    let mut pts = Vec::new();
    for k in ks {
        let mut odd = vec![1i128, 3, (1i128 << p) - 1];
        if to == DataType::Float8E8M0 {
            // The powers of two themselves: 2^k ± 1.
            odd.push(0);
        }
        for j in odd {
            let t = (1i128 << k) + j * (1i128 << (k - p));
            for v in [t - 1, t + 1, -(t - 1), -(t + 1)] {
                if (lo..=hi).contains(&v) {
                    pts.push((C::DoubleRounding, code_of_int(from, v)));
                }
            }
        }
    }
    pts
}

/// Whether every value of `from` is a value of `to` (so no rounding happens).
fn widens_exactly(from: DataType, to: DataType) -> bool {
    from == to
        || to == DataType::Double
        || (to == DataType::Float && matches!(from, DataType::Float16 | DataType::Bfloat16))
}

/// Integer source values: range edges, small values, the precision edges of every floating
/// type, values that a round through a narrower float would round twice, and the wrap-around
/// edges of every narrower integer type.
fn int_source_values(from: DataType) -> Vec<(C, u128)> {
    let (lo, hi) = int_range(from);
    let mut pts: Vec<(C, i128)> = vec![
        (C::RangeEdge, lo),
        (C::RangeEdge, hi),
        (C::RangeEdge, lo + 1),
        (C::RangeEdge, hi - 1),
    ];
    for v in [0, 1, -1, 2, -2, 3, -3, 7, -8] {
        pts.push((C::Small, v));
    }
    // Significand widths (hidden bit included) of the floating types the table has.
    for p in [2u32, 3, 4, 8, 11, 24, 53] {
        for k in [p, p + 1] {
            let base = 1i128 << k;
            for d in [-1, 0, 1, 2] {
                pts.push((C::PrecisionEdge, base + d));
                pts.push((C::PrecisionEdge, -(base + d)));
            }
        }
        // x = 2^k + 2^(k-p) ± 1: just off a tie of a p-bit significand, which a first
        // rounding to a wider float would move onto the tie.
        for k in [p + 2, p + 8, 31, 40, 62, 63] {
            if k > p && k < 127 {
                let tie = (1i128 << k) + (1i128 << (k - p));
                for d in [-1, 1] {
                    pts.push((C::OffTie, tie + d));
                    pts.push((C::OffTie, -(tie + d)));
                }
            }
        }
    }
    for w in [2u32, 4, 8, 16, 32, 64] {
        let half = 1i128 << (w - 1);
        for v in [
            half - 1,
            half,
            -half,
            -half - 1,
            2 * half - 1,
            2 * half,
            2 * half + 1,
            -2 * half,
        ] {
            pts.push((C::WrapEdge, v));
        }
    }
    pts.into_iter()
        .filter(|&(_, v)| (lo..=hi).contains(&v))
        .map(|(k, v)| (k, code_of_int(from, v)))
        .collect()
}

/// String spellings for a STRING source cast to `to`.
fn string_values(to: DataType) -> Vec<(C, String)> {
    let mut out: Vec<(C, String)> = Vec::new();
    let mut push = |k: C, v: &[&str]| out.extend(v.iter().map(|s| (k, s.to_string())));
    push(
        C::IntegerLiteral,
        &[
            "0",
            "1",
            "-1",
            "+1",
            "7",
            "-8",
            "+15",
            "007",
            "-0012",
            "127",
            "-128",
            "255",
            "32767",
            "-32768",
            "65535",
            "2147483647",
            "-2147483648",
            "4294967295",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
        ],
    );
    push(
        C::Spelling,
        &[
            "1.5",
            "-2.25",
            "1e-5",
            "1E8",
            ".5",
            "5.",
            "-.5",
            "+0.75",
            "3.14",
            "0.47892547",
            "0.816468",
            "-0",
            "-0.0",
            "1e0",
            "2.5e-3",
        ],
    );
    push(
        C::SpecialSpelling,
        &[
            "INF", "inf", "+INF", "+inf", "Inf", "-INF", "-inf", "NaN", "nan", "NAN",
        ],
    );
    push(
        C::Overflow,
        &[
            "1e39", "-1e39", "1e309", "-1e309", "65520", "70000", "3.5e38",
        ],
    );
    push(C::Underflow, &["1e-46", "-1e-46", "1e-400", "1e-50"]);
    if is_floating(to) {
        // The shortest decimals of the target's smallest positive and largest value.
        let pairs = grid(to, Size::Full);
        let smallest = pairs.first().map(|p| if p.0 > 0.0 { p.0 } else { p.1 });
        for v in smallest.into_iter().chain(pairs.last().map(|p| p.1)) {
            let t = Tensor::from_vec(vec![1], vec![v]).expect("a vector");
            out.push((C::ExtremeText, run::text(&t).remove(0)));
        }
        out.push((C::ExtremeText, "1e-45".into()));
        out.push((C::ExtremeText, "5e-324".into()));
    }
    if to == DataType::String {
        for s in ["", "Hello World!", "héllo", " 1 "] {
            out.push((C::Text, s.to_string()));
        }
    }
    out
}

/// Whether the spec defines the result of STRING `s` cast to `to`: numbers only, integer
/// literals in range for integer and bool targets, no negative for E8M0.
pub(crate) fn string_defined(s: &str, to: DataType) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match to {
        DataType::String => true,
        t if is_int(t) => {
            let (lo, hi) = int_range(t);
            integer && s.parse::<i128>().is_ok_and(|v| (lo..=hi).contains(&v))
        }
        DataType::Bool => integer,
        DataType::Float8E8M0 => !s.starts_with('-') && s.parse::<f64>().is_ok(),
        _ => s.parse::<f64>().is_ok(),
    }
}

/// Whether the spec defines the result of `v` cast to `to` (STRING targets apart).
pub(crate) fn defined(v: Val, to: DataType) -> bool {
    match (v, to) {
        (Val::Float(x), t) if is_int(t) => {
            let (lo, hi) = int_range(t);
            // Into the 4- and 2-bit types a float rounds half to even (docs/semantics.md
            // §3.8); into the others it truncates (§3.10).
            let r = if t.bit_width() <= 4 {
                x.round_ties_even()
            } else {
                x.trunc()
            };
            // `r` is an integer; compared as one, exactly (`hi as f64` would round
            // i64::MAX up to 2^63). Beyond 2^126 it is outside every range here.
            x.is_finite() && r.abs() < 2f64.powi(126) && (lo..=hi).contains(&(r as i128))
        }
        (Val::Float(x), DataType::Float8E8M0) => x.is_nan() || x.is_sign_positive(),
        (Val::Int(i), DataType::Float8E8M0) => i >= 0,
        _ => true,
    }
}

/// Whether the text of `v` of floating type `from` is fixed by the spec and the data
/// (docs/semantics.md §3.9): finite, not an integer, at least 1e-3 in magnitude; FLOAT and
/// DOUBLE below 1e7 (shortest round trip, positional), the narrower types only when that text
/// is the value itself, so it reads the same whatever precision a runtime prints in.
fn text_fixed(from: DataType, x: f64, text: &str) -> bool {
    let plain = x.is_finite() && x.fract() != 0.0 && x.abs() >= 1e-3;
    match from {
        DataType::Float | DataType::Double => plain && x.abs() < 1e7,
        _ => plain && text.parse::<f64>() == Ok(x),
    }
}

/// The input of the case `from` → `to`, by class, with undefined values left out. Many cases
/// share one (every attribute combination, every version of an era, Cast and CastLike), so
/// each is built once per run.
pub(crate) fn input(from: DataType, to: DataType, size: Size) -> Input {
    type Cache = Mutex<HashMap<(DataType, DataType, Size), Arc<OnceLock<Input>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cell = {
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        Arc::clone(cache.entry((from, to, size)).or_default())
    };
    cell.get_or_init(|| build_input(from, to, size)).clone()
}

/// The input of a chain `from` → `mid` → `to`: the first four elements of each class of the
/// `from` → `mid` input (so every first step is defined), without those whose `mid` value the
/// second step leaves undefined (docs/semantics.md §3.11: an INT64 whose FLOAT16 is Inf does
/// not go on into INT64). The middle values are our Cast's at the newest version; where a
/// chain's versions differ (BFLOAT16 truncation before 24), only into FLOAT, which is defined
/// for every value.
pub(crate) fn chain_input(from: DataType, mid: DataType, to: DataType) -> Input {
    match input(from, mid, Size::Boundary).sample(4) {
        Input::Codes(classes) => Input::Codes(
            classes
                .into_iter()
                .map(|(k, codes)| {
                    let middle = vals(mid, &run::cast_codes(from, mid, &codes));
                    let kept = codes
                        .into_iter()
                        .zip(middle)
                        .filter(|&(_, m)| to == DataType::String || defined(m, to))
                        .map(|(c, _)| c)
                        .collect();
                    (k, kept)
                })
                .collect(),
        ),
        strings => strings,
    }
}

fn build_input(from: DataType, to: DataType, size: Size) -> Input {
    let ctx = classes::Ctx::new(from, to);
    if from == DataType::String {
        let mut classes: Vec<(C, Vec<String>)> = Vec::new();
        let mut seen = BTreeSet::new();
        for (k, s) in string_values(to) {
            if string_defined(&s, to) && seen.insert(s.clone()) {
                let k = classes::choose(k, &classes::Elem::Str(&s), &ctx);
                push(&mut classes, k, s);
            }
        }
        return Input::Strings(classes);
    }
    let raw: Vec<(C, u128)> = if from.bit_width() <= 8
        || (from.bit_width() <= 16 && size == Size::Full && is_floating(from))
    {
        if is_floating(from) {
            classify_floats(from, &all_codes(from))
                .into_iter()
                .flat_map(|(k, v)| v.into_iter().map(move |c| (k, c)))
                .collect()
        } else {
            all_codes(from).into_iter().map(|c| (C::Code, c)).collect()
        }
    } else if is_int(from) {
        let mut v = int_source_values(from);
        v.extend(double_rounding_ints(from, to));
        v
    } else {
        let pts = if to == DataType::String {
            DECIMALS
                .iter()
                .flat_map(|d| {
                    let v: f64 = if from == DataType::Float {
                        f64::from(d.parse::<f32>().unwrap_or(0.0))
                    } else {
                        d.parse().unwrap_or(0.0)
                    };
                    [(C::Decimal, v), (C::Decimal, -v)]
                })
                .collect()
        } else if is_int(to) {
            int_target_points(to)
        } else if to == DataType::Bool {
            bool_target_points()
        } else if widens_exactly(from, to) {
            float_target_points(from, size)
        } else {
            float_target_points(to, size)
        };
        let mut codes = if to == DataType::String {
            pts.iter()
                .map(|&(k, v)| (k, run::encode_nearest(from, &[v])[0]))
                .collect()
        } else {
            into_source(from, &pts)
        };
        if from == DataType::Double && is_floating(to) && to.bit_width() <= 16 {
            codes.extend(double_rounding_doubles(to, &pts));
        }
        codes.extend(nan_codes(from));
        codes
    };
    let codes: Vec<u128> = raw.iter().map(|p| p.1).collect();
    let values = vals(from, &codes);
    let texts = if to == DataType::String && is_floating(from) {
        let t = harness::read::tensor_from_codes(from, vec![codes.len()], &codes)
            .expect("codes of a type");
        run::text(&t)
    } else {
        Vec::new()
    };
    let first = first_occurrences(&codes);
    let (preds, succs) = neighbours(from, &codes, &values);
    let mut classes: Vec<(C, Vec<u128>)> = Vec::new();
    for (i, (&(k, code), v)) in raw.iter().zip(&values).enumerate() {
        let ok = match (to, *v) {
            (DataType::String, Val::Float(x)) => text_fixed(from, x, &texts[i]),
            (DataType::String, Val::Int(_)) => from != DataType::Bool,
            _ => defined(*v, to),
        };
        if ok && first[i] {
            let elem = match *v {
                Val::Float(x) => classes::Elem::Float {
                    code,
                    v: x,
                    pred: preds[i],
                    succ: succs[i],
                },
                Val::Int(n) => classes::Elem::Int(n),
            };
            push(&mut classes, classes::choose(k, &elem, &ctx), code);
        }
    }
    Input::Codes(classes)
}

/// The magnitudes of the codes next to each floating code (the value's own magnitude where
/// there is none, or where it is not finite); empty for other sources.
pub(crate) fn neighbours(from: DataType, codes: &[u128], values: &[Val]) -> (Vec<f64>, Vec<f64>) {
    if !is_floating(from) {
        return (vec![0.0; codes.len()], vec![0.0; codes.len()]);
    }
    // E8M0 has no sign bit.
    let top = if from == DataType::Float8E8M0 {
        1u128 << from.bit_width()
    } else {
        1u128 << (from.bit_width() - 1)
    };
    let mags: Vec<u128> = codes.iter().map(|&c| c & (top - 1)).collect();
    let below: Vec<u128> = mags.iter().map(|&m| m.saturating_sub(1)).collect();
    let above: Vec<u128> = mags.iter().map(|&m| (m + 1).min(top - 1)).collect();
    let (below, above) = (run::decode(from, &below), run::decode(from, &above));
    let own = |i: usize| match values[i] {
        Val::Float(x) => x.abs(),
        Val::Int(_) => 0.0,
    };
    let pick = |i: usize, x: f64| if x.is_finite() { x.abs() } else { own(i) };
    (
        below.iter().enumerate().map(|(i, &x)| pick(i, x)).collect(),
        above.iter().enumerate().map(|(i, &x)| pick(i, x)).collect(),
    )
}

/// Whether each code is the first of its value in `codes` (a sort, not a set: this runs over
/// hundreds of thousands of codes).
fn first_occurrences(codes: &[u128]) -> Vec<bool> {
    let mut order: Vec<usize> = (0..codes.len()).collect();
    order.sort_unstable_by_key(|&i| (codes[i], i));
    let mut first = vec![false; codes.len()];
    for (n, &i) in order.iter().enumerate() {
        first[i] = n == 0 || codes[order[n - 1]] != codes[i];
    }
    first
}

/// Adds `v` to class `k`, keeping the classes in first-seen order.
fn push<T>(classes: &mut Vec<(C, Vec<T>)>, k: C, v: T) {
    match classes.iter_mut().find(|(c, _)| *c == k) {
        Some((_, list)) => list.push(v),
        None => classes.push((k, vec![v])),
    }
}
