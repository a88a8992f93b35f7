//! The input classes of the deep suite's values. Each element is put in the first class that
//! is true of its value, from a list fixed by its kind of input and led by the class of the
//! point that produced it: a neighbour of +Inf that is a NaN is `nan-payload`, one of zero
//! that is not zero is `below-min` or `subnormal`, never the point's class. docs/deep.md
//! defines every class; `class_check.rs` checks every element against those definitions with
//! code of its own.

use super::run;
// The input classes, spelled short: the value tables name one on every line.
use crate::index::InputClass as C;
use vocab::{DataType, TypeKind};

/// The non-negative values of a floating target, for the classes defined on them.
pub(crate) struct Grid {
    kind: GridKind,
    /// The smallest positive normal value (E8M0: its smallest value, it has no subnormals).
    pub(crate) min_normal: f64,
    /// The smallest positive value.
    pub(crate) min_pos: f64,
    /// The largest finite value.
    pub(crate) max: f64,
}

enum GridKind {
    /// Every non-negative finite value, ascending (0 first when the type has a zero).
    Table(Vec<f64>),
    Float,
    Double,
}

impl Grid {
    /// The grid of floating type `t`.
    pub(crate) fn of(t: DataType) -> Grid {
        match t {
            DataType::Float => Grid {
                kind: GridKind::Float,
                min_normal: f64::from(f32::MIN_POSITIVE),
                min_pos: f64::from(f32::from_bits(1)),
                max: f64::from(f32::MAX),
            },
            DataType::Double => Grid {
                kind: GridKind::Double,
                min_normal: f64::MIN_POSITIVE,
                min_pos: f64::from_bits(1),
                max: f64::MAX,
            },
            _ => {
                let codes: Vec<u128> = (0..1u128 << t.bit_width()).collect();
                let mut v: Vec<f64> = run::decode(t, &codes)
                    .into_iter()
                    .filter(|x| x.is_finite() && x.is_sign_positive())
                    .collect();
                v.sort_by(f64::total_cmp);
                v.dedup();
                let min_pos = v.iter().copied().find(|&x| x > 0.0).unwrap_or(0.0);
                let max = v.last().copied().unwrap_or(0.0);
                // The first binade keeps the subnormal spacing, so the smallest normal is half
                // the first value whose gap to the next is wider than the smallest gap; with
                // no zero (E8M0) it is the smallest value.
                let min_normal = if v.first() == Some(&0.0) {
                    let step = v[1] - v[0];
                    v.windows(2)
                        .find(|w| w[1] - w[0] > step)
                        .map_or(min_pos, |w| w[0] / 2.0)
                        .max(min_pos)
                } else {
                    min_pos
                };
                Grid {
                    kind: GridKind::Table(v),
                    min_normal,
                    min_pos,
                    max,
                }
            }
        }
    }

    /// The largest value at or below `x` (x >= 0), if any.
    fn floor(&self, x: f64) -> Option<f64> {
        match &self.kind {
            GridKind::Table(v) => {
                let n = v.partition_point(|&y| y <= x);
                n.checked_sub(1).map(|i| v[i])
            }
            GridKind::Float => {
                let r = x as f32;
                let r = if f64::from(r) > x {
                    f32::from_bits(r.to_bits() - 1)
                } else {
                    r
                };
                Some(f64::from(r))
            }
            GridKind::Double => Some(x),
        }
    }

    /// The smallest value above `x` (x >= 0), if finite.
    fn next_up(&self, x: f64) -> Option<f64> {
        let up = match &self.kind {
            GridKind::Table(v) => v.get(v.partition_point(|&y| y <= x)).copied(),
            GridKind::Float => self
                .floor(x)
                .map(|f| f64::from(f32::from_bits((f as f32).to_bits() + 1))),
            GridKind::Double => Some(f64::from_bits(x.to_bits() + 1)),
        };
        up.filter(|u| u.is_finite())
    }

    /// Whether `a` (>= 0) is a value.
    pub(crate) fn contains(&self, a: f64) -> bool {
        self.floor(a) == Some(a)
    }

    /// The lower neighbour when `a` (>= 0, finite) is the midpoint of two adjacent values.
    pub(crate) fn midpoint_lo(&self, a: f64) -> Option<f64> {
        if matches!(self.kind, GridKind::Double) || self.contains(a) {
            return None;
        }
        let lo = self.floor(a)?;
        let hi = self.next_up(lo)?;
        (lo + (hi - lo) / 2.0 == a).then_some(lo)
    }

    /// The smallest nonzero value in [p, s].
    fn value_between(&self, p: f64, s: f64) -> Option<f64> {
        let first = if self.contains(p) {
            Some(p)
        } else {
            self.next_up(p)
        };
        first.filter(|&x| x <= s && x > 0.0)
    }

    /// The lower neighbour of the first midpoint in [p, s].
    fn tie_between(&self, p: f64, s: f64) -> Option<f64> {
        if matches!(self.kind, GridKind::Double) {
            return None;
        }
        let mut lo = match self.floor(p) {
            Some(lo) => lo,
            None => self.next_up(p)?,
        };
        loop {
            let hi = self.next_up(lo)?;
            let mid = lo + (hi - lo) / 2.0;
            if mid > s {
                return None;
            }
            if mid >= p {
                return Some(lo);
            }
            lo = hi;
        }
    }
}

/// One element, as its classes need it.
#[derive(Debug)]
pub(crate) enum Elem<'a> {
    /// A floating source value with the magnitudes of its neighbouring codes (the value's own
    /// magnitude where there is none).
    Float {
        code: u128,
        v: f64,
        pred: f64,
        succ: f64,
    },
    /// An integer (or bool) source value.
    Int(i128),
    /// A STRING source value.
    Str(&'a str),
}

/// What the classes of one (source, target) input are judged against.
pub(crate) struct Ctx {
    pub(crate) from: DataType,
    pub(crate) to: DataType,
    /// The target's grid, for floating targets (E8M0 included).
    pub(crate) grid: Option<Grid>,
    /// The source's canonical quiet NaN, positive, for wide floating sources.
    nan: Option<u128>,
    /// The source's smallest normal and largest finite value, for floating sources.
    src_min_normal: f64,
    src_max: f64,
}

impl Ctx {
    pub(crate) fn new(from: DataType, to: DataType) -> Ctx {
        let floating = |t: DataType| matches!(t.kind(), TypeKind::Float | TypeKind::PowerOfTwo);
        let (src_min_normal, src_max) = if floating(from) {
            let g = Grid::of(from);
            (g.min_normal, g.max)
        } else {
            (0.0, 0.0)
        };
        let nan = matches!(
            from,
            DataType::Float | DataType::Double | DataType::Float16 | DataType::Bfloat16
        )
        .then(|| run::encode_nearest(from, &[f64::NAN])[0]);
        Ctx {
            from,
            to,
            grid: floating(to).then(|| Grid::of(to)),
            nan,
            src_min_normal,
            src_max,
        }
    }

    /// The type a runtime that rounds twice rounds to first: FLOAT, or DOUBLE for FLOAT
    /// targets; `None` when the source holds no value that rounding into it could change.
    fn intermediate(&self) -> Option<DataType> {
        let grid_ok = self.grid.is_some() && self.to != DataType::Double;
        let i = if self.to == DataType::Float {
            DataType::Double
        } else {
            DataType::Float
        };
        let wider = match self.from {
            DataType::Double => i == DataType::Float,
            DataType::Int32 | DataType::Uint32 => i == DataType::Float,
            DataType::Int64 | DataType::Uint64 => true,
            _ => false,
        };
        (grid_ok && wider).then_some(i)
    }
}

/// Whether `class` is true of `e`.
pub(crate) fn holds(class: C, e: &Elem<'_>, ctx: &Ctx) -> bool {
    match e {
        Elem::Float {
            code,
            v,
            pred,
            succ,
        } => float_holds(class, *code, *v, *pred, *succ, ctx),
        Elem::Int(i) => int_holds(class, *i, ctx),
        Elem::Str(s) => str_holds(class, s, ctx),
    }
}

/// The classes an element of this input may take, in order, after the class of its origin.
fn fallbacks(e: &Elem<'_>, ctx: &Ctx) -> &'static [C] {
    let to = ctx.to;
    match e {
        Elem::Float { .. } if to == DataType::String => &[C::Decimal],
        Elem::Float { .. } if to.kind().is_integer() => &[
            C::Zero,
            C::BeyondInt32,
            C::RangeEdge,
            C::PowerOfTwo,
            C::Fraction,
        ],
        Elem::Float { .. } if to == DataType::Bool => &[
            C::NanPayload,
            C::Nan,
            C::Inf,
            C::Zero,
            C::Subnormal,
            C::Nonzero,
        ],
        Elem::Float { .. } => &[
            C::NanPayload,
            C::Nan,
            C::Inf,
            C::Zero,
            C::AboveMax,
            C::Exact,
            C::ExactSubnormal,
            C::Tie,
            C::SubnormalTie,
            C::NearTie,
            C::NearSubnormalTie,
            C::NearExact,
            C::NearExactSubnormal,
            C::Max,
            C::BelowMin,
        ],
        Elem::Int(_) => &[
            C::RangeEdge,
            C::Small,
            C::PrecisionEdge,
            C::OffTie,
            C::WrapEdge,
        ],
        Elem::Str(_) => &[
            C::IntegerLiteral,
            C::SpecialSpelling,
            C::Overflow,
            C::Underflow,
            C::ExtremeText,
            C::Spelling,
            C::Text,
        ],
    }
}

/// The class of `e`, whose point was of class `origin`: `double-rounding` when it holds,
/// else `origin` when it holds, else the first of the input's other classes that holds.
/// Every element has one (`class_check` checks every element of the tree); one that had none
/// would be a value set's bug, so it stops the generator naming the element.
pub(crate) fn choose(origin: C, e: &Elem<'_>, ctx: &Ctx) -> C {
    try_choose(Some(origin), e, ctx)
        .unwrap_or_else(|| panic!("{e:?} (from a point of class {origin}) is of no class"))
}

/// [`choose`] for an element that no point produced (a sampled one, `origin` none), which may
/// be of no class: a random FLOAT between two FLOAT16 values, near neither a tie nor a value.
pub(crate) fn try_choose(origin: Option<C>, e: &Elem<'_>, ctx: &Ctx) -> Option<C> {
    std::iter::once(C::DoubleRounding)
        .chain(origin)
        .chain(fallbacks(e, ctx).iter().copied())
        .find(|k| holds(*k, e, ctx))
}

/// Whether `x` (exact, given as f64 when `int` is none) is neither a value nor a midpoint of
/// the target while its rounding into the intermediate type is a midpoint (for E8M0, whose
/// round modes also decide at its values, a value or a midpoint).
fn double_rounds(x: f64, int: Option<i128>, ctx: &Ctx) -> bool {
    let (Some(i), Some(grid)) = (ctx.intermediate(), ctx.grid.as_ref()) else {
        return false;
    };
    let a = x.abs();
    // An integer that no f64 holds is neither a value nor a midpoint of a target of at most
    // 24 significand bits.
    let exact_in_f64 = int.is_none_or(|n| x as i128 == n);
    if !a.is_finite()
        || a > grid.max
        || (exact_in_f64 && (grid.contains(a) || grid.midpoint_lo(a).is_some()))
    {
        return false;
    }
    let r = match (i, int) {
        (DataType::Float, Some(n)) => f64::from(n as f32),
        (DataType::Float, None) => f64::from(x as f32),
        (_, Some(n)) => n as f64,
        (_, None) => x,
    }
    .abs();
    r.is_finite()
        && r <= grid.max
        && (grid.midpoint_lo(r).is_some() || (ctx.to == DataType::Float8E8M0 && grid.contains(r)))
}

fn float_holds(class: C, code: u128, v: f64, pred: f64, succ: f64, ctx: &Ctx) -> bool {
    let a = v.abs();
    let finite_nonzero = v.is_finite() && v != 0.0;
    let sign = 1u128 << (ctx.from.bit_width() - 1);
    match class {
        C::Nan => v.is_nan(),
        C::NanPayload => v.is_nan() && ctx.nan.is_some_and(|n| code & !sign != n),
        C::Inf => v.is_infinite(),
        C::Zero => v == 0.0,
        C::Subnormal => finite_nonzero && a < ctx.src_min_normal,
        C::Normal => v.is_finite() && a >= ctx.src_min_normal && a > 0.0,
        C::Nonzero => finite_nonzero,
        C::Decimal => v.is_finite() && v.fract() != 0.0 && (1e-3..1e7).contains(&a),
        C::Max => finite_nonzero && a == ctx.src_max,
        C::DoubleRounding => double_rounds(v, None, ctx),
        C::Fraction | C::PowerOfTwo | C::RangeEdge | C::BeyondInt32 => {
            v.is_finite() && int_target_holds(class, v, pred, succ, ctx.to)
        }
        _ => {
            let Some(g) = ctx.grid.as_ref().filter(|_| finite_nonzero) else {
                return false;
            };
            let normal = |x: f64| x >= g.min_normal;
            let value = g.contains(a) && a <= g.max;
            let tie = g.midpoint_lo(a).filter(|_| a <= g.max);
            match class {
                C::AboveMax => a > g.max,
                C::BelowMin => a < g.min_pos,
                C::Exact => value && normal(a),
                C::ExactSubnormal => value && !normal(a),
                C::Tie => tie.is_some_and(normal),
                C::SubnormalTie => tie.is_some_and(|lo| !normal(lo)),
                _ if value || tie.is_some() || a > g.max => false,
                C::NearTie => g.tie_between(pred, succ).is_some_and(normal),
                C::NearSubnormalTie => g.tie_between(pred, succ).is_some_and(|lo| !normal(lo)),
                C::NearExact => g.value_between(pred, succ).is_some_and(normal),
                C::NearExactSubnormal => g.value_between(pred, succ).is_some_and(|x| !normal(x)),
                _ => false,
            }
        }
    }
}

/// The classes of a float into integer target `to` (v finite): see docs/deep.md.
fn int_target_holds(class: C, v: f64, pred: f64, succ: f64, to: DataType) -> bool {
    let a = v.abs();
    let ulp = (a - pred).max(succ - a);
    let r = if to.bit_width() <= 4 {
        v.round_ties_even()
    } else {
        v.trunc()
    };
    match class {
        C::Fraction => v.fract() != 0.0,
        C::PowerOfTwo => {
            a >= 0.5 && {
                let k = a.log2().floor();
                [k, k + 1.0]
                    .iter()
                    .any(|&k| (a - 2f64.powf(k)).abs() <= 0.5 + ulp)
            }
        }
        C::RangeEdge => {
            let (lo, hi) = int_range(to);
            if r.abs() >= 2f64.powi(126) {
                return false;
            }
            let r = r as i128;
            let d = (r - lo).abs().min((r - hi).abs());
            (d as f64) <= ulp.max(1.0)
        }
        C::BeyondInt32 => r.abs() < 2f64.powi(126) && i32::try_from(r as i128).is_err(),
        _ => false,
    }
}

/// The range of an integer type.
fn int_range(t: DataType) -> (i128, i128) {
    let w = t.bit_width();
    match t.kind() {
        TypeKind::Signed => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
        _ => (0, (1i128 << w) - 1),
    }
}

/// The significand widths of the floating types, for `off-tie`.
const WIDTHS: [u32; 7] = [2, 3, 4, 8, 11, 24, 53];

fn int_holds(class: C, v: i128, ctx: &Ctx) -> bool {
    let a = v.unsigned_abs();
    let near_pow2 = |lo: i128, hi: i128, ks: std::ops::RangeInclusive<u32>| {
        ks.into_iter().any(|k| {
            let d = a as i128 - (1i128 << k);
            (lo..=hi).contains(&d)
        })
    };
    match class {
        C::Code => true,
        C::RangeEdge => {
            let (lo, hi) = int_range(ctx.from);
            [lo, lo + 1, hi - 1, hi].contains(&v)
        }
        C::Small => a <= 8,
        C::PrecisionEdge => near_pow2(-1, 2, 2..=54),
        C::WrapEdge => near_pow2(-1, 1, 1..=64),
        C::OffTie => WIDTHS.iter().any(|&p| {
            (p + 1..=126).any(|k| {
                let tie = (1u128 << k) + (1u128 << (k - p));
                a == tie + 1 || a == tie - 1
            })
        }),
        C::DoubleRounding => double_rounds(v as f64, Some(v), ctx),
        _ => false,
    }
}

fn str_holds(class: C, s: &str, ctx: &Ctx) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = digits.to_ascii_lowercase();
    let special = lower == "inf" || lower == "nan";
    let number = s.parse::<f64>().ok().filter(|_| !special);
    let nonzero_digit = digits
        .bytes()
        .take_while(|b| !matches!(b, b'e' | b'E'))
        .any(|b| (b'1'..=b'9').contains(&b));
    let grid = ctx.grid.as_ref();
    match class {
        C::IntegerLiteral => !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
        C::SpecialSpelling => special,
        C::Spelling => number.is_some(),
        C::Text => s.parse::<f64>().is_err(),
        C::Overflow => matches!((number, grid), (Some(x), Some(g)) if x.abs() > g.max),
        C::Underflow => {
            nonzero_digit && matches!((number, grid), (Some(x), Some(g)) if x.abs() < g.min_pos)
        }
        C::ExtremeText => matches!((number, grid), (Some(x), Some(g))
            if (0.5..=2.0).contains(&(x.abs() / g.min_pos)) || (0.5..=2.0).contains(&(x.abs() / g.max))),
        _ => false,
    }
}
