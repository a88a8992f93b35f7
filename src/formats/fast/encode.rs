//! Branch-free element conversions on bit patterns: the narrow float encoder (one rounding,
//! specials taken from the exact path), f16 widening, NaN canonicalisation, float to int4.

use super::super::codec::Specials;
use super::super::exact::{CastRules, Exact};
use super::super::float::TableFormat;
use super::super::{FloatFormat, F8E8M0};
use crate::stream::NoPadding;
use std::marker::PhantomData;

/// A float format the narrow encoder can target: its table row and its code come from
/// [`TableFormat`], its special values from the exact path.
pub(crate) trait Target:
    FloatFormat + TableFormat + NoPadding + Send + Sync + 'static
{
}

impl<T: FloatFormat + TableFormat + NoPadding + Send + Sync + 'static> Target for T {}

/// Everything the encoder needs for one target under one set of rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Narrow {
    /// 23 - M: how many f32 mantissa bits are rounded away.
    pub(super) shift: u32,
    /// Added before the shift for round-half-to-even (plus the kept bit's parity).
    pub(super) round: u32,
    /// The f32 exponent bias minus the target's, in place: subtracted from a shifted normal.
    pub(super) rebias: u32,
    /// f32 bits of the smallest normal of the target; below it the subnormal path applies.
    pub(super) min_normal: u32,
    /// f32 bits of 2^(emin - M + 23): adding it aligns the f32 ulp with the target's
    /// subnormal ulp, so the hardware's own round-half-to-even does the rounding.
    pub(super) magic: u32,
    /// Largest finite magnitude code.
    pub(super) max: u32,
    /// The sign bit of the target.
    pub(super) sign: u32,
    /// Codes asked of the exact path, for positive and negative sources: NaN, finite
    /// overflow (infinity's code too), and what -0 becomes. Plain fields, not arrays, so that
    /// choosing one is a vector select rather than a load.
    pub(super) nan: (u32, u32),
    pub(super) overflow: (u32, u32),
    pub(super) neg_zero: u32,
}

/// The code the exact path gives for `v`.
fn exact_code<T: Target>(v: Exact, rules: &CastRules) -> u32 {
    T::from_exact(&v, rules).code() as u32
}

impl Narrow {
    /// The encoder constants for `T` under `rules`.
    pub(crate) fn new<T: Target>(rules: &CastRules) -> Narrow {
        let l = T::ROW;
        let (m, emin) = (l.mant_bits, 1 - l.bias);
        let f32_exp = |e: i32| ((e + 127) as u32) << 23;
        let both = |f: &dyn Fn(bool) -> Exact| {
            (
                exact_code::<T>(f(false), rules),
                exact_code::<T>(f(true), rules),
            )
        };
        Narrow {
            shift: 23 - m,
            round: (1 << (22 - m)) - 1,
            rebias: ((127 - l.bias) as u32) << m,
            min_normal: f32_exp(emin),
            magic: f32_exp(emin - m as i32 + 23),
            max: (((l.emax + l.bias) as u32) << m) | (l.rmax as u32 - (1 << m)),
            sign: 1 << (l.exp_bits + m),
            nan: both(&|negative| Exact::Nan { negative }),
            overflow: both(&|negative| Exact::Finite {
                negative,
                mant: 1,
                exp: 4096,
            }),
            neg_zero: exact_code::<T>(
                Exact::Finite {
                    negative: true,
                    mant: 0,
                    exp: 0,
                },
                rules,
            ),
        }
    }

    /// The NaN code for the sign of the f32 `bits`.
    #[inline(always)]
    pub(crate) fn nan(&self, bits: u32) -> u32 {
        pick(bits, self.nan)
    }

    /// Whether the exact path gives this target's IEEE codes for infinities, finite overflow
    /// and -0 (infinity for both overflows, the sign bit alone for -0): then rounding the bits
    /// as IEEE does needs only its NaN lanes replaced, which the FLOAT16 and BFLOAT16 vector
    /// kernels rely on. A test holds it for both under every rule set, so no kernel asks.
    #[cfg(test)]
    pub(crate) fn ieee_specials(&self) -> bool {
        // Every exponent bit set, the mantissa zero.
        let exp = (self.sign - 1) & !((1 << (23 - self.shift)) - 1);
        let inf = (exp, exp | self.sign);
        self.overflow == inf && self.neg_zero == self.sign
    }

    /// The target code of the f32 with these bits, rounding once, half to even.
    #[inline(always)]
    pub(crate) fn encode(&self, bits: u32) -> u32 {
        let a = bits & 0x7FFF_FFFF;
        // Subnormal results: the f32 addition rounds at the target's subnormal ulp.
        let sub = (f32::from_bits(a) + f32::from_bits(self.magic))
            .to_bits()
            .wrapping_sub(self.magic);
        // Normal results: round the mantissa in place; a carry moves into the exponent.
        let normal =
            ((a + self.round + ((a >> self.shift) & 1)) >> self.shift).wrapping_sub(self.rebias);
        let mag = if a < self.min_normal { sub } else { normal };
        let signed_zero = pick(bits, (0, self.neg_zero));
        let finite = if mag > self.max {
            pick(bits, self.overflow)
        } else if mag == 0 {
            signed_zero
        } else {
            mag | pick(bits, (0, self.sign))
        };
        // ±Inf goes down the finite path and comes out as finite overflow: every format
        // gives the two the same code under every rule set (docs/semantics.md §3.5: ±Inf and
        // "above max" share a row's answer; §3.2 for FLOAT16 and BFLOAT16), which
        // `infinity_is_finite_overflow_under_every_rule_set` holds.
        if a <= 0x7F80_0000 {
            finite
        } else {
            pick(bits, self.nan)
        }
    }
}

/// The FLOAT8E8M0 encoder under one set of rules (docs/semantics.md §3.7): in [2^-127,
/// 2^127] the f32 exponent field, plus one when the round mode rounds the bits below the
/// leading one up; the sign is ignored. NaN and the codes of the values above and below that
/// range are asked of the exact path once. Branch-free, so that it vectorises: the round mode
/// is one mask.
#[derive(Clone, Copy, Debug)]
pub(crate) struct E8m0 {
    /// The bits below the leading one that make it round up: up, any of them; down, none;
    /// nearest, the half bit (ties up).
    mask: u32,
    /// The exact path's codes for NaN, for values above 2^127 and for values below 2^-127.
    nan: u32,
    above: u32,
    below: u32,
}

impl E8m0 {
    /// The encoder constants under `rules`.
    pub(crate) fn new(rules: &CastRules) -> E8m0 {
        use super::super::exact::RoundMode;
        let code_of =
            |x: f32| u32::from(super::super::cast_float::<f32, F8E8M0>(x, rules).to_bits());
        E8m0 {
            mask: match rules.round_mode {
                RoundMode::Up => 0x7F_FFFF,
                RoundMode::Down => 0,
                RoundMode::Nearest => 0x40_0000,
            },
            nan: code_of(f32::NAN),
            above: code_of(f32::INFINITY),
            below: code_of(0.0),
        }
    }

    /// The code of the f32 with these bits.
    #[inline(always)]
    pub(crate) fn encode(&self, bits: u32) -> u8 {
        let abs = bits & 0x7FFF_FFFF;
        let (exp, frac) = (abs >> 23, abs & 0x7F_FFFF);
        // An f32 subnormal from 2^-127 on has its leading one at bit 22.
        let rest = if exp == 0 {
            (frac << 1) & 0x7F_FFFF
        } else {
            frac
        };
        let code = exp + u32::from(rest & self.mask != 0);
        let code = if abs < 0x40_0000 { self.below } else { code };
        let code = if abs > 0x7F00_0000 { self.above } else { code };
        (if abs > 0x7F80_0000 { self.nan } else { code }) as u8
    }
}

/// `codes.0` for a positive f32 (by its bits), `codes.1` for a negative one, branch-free.
#[inline(always)]
fn pick(bits: u32, codes: (u32, u32)) -> u32 {
    let negative = ((bits as i32) >> 31) as u32;
    (codes.0 & !negative) | (codes.1 & negative)
}

/// The f32 bits of a FLOAT16 value, exactly; NaN becomes the canonical quiet NaN.
#[inline(always)]
pub(crate) fn f16_bits_to_f32_bits(h: u16) -> u32 {
    let sign = u32::from(h & 0x8000) << 16;
    let a = u32::from(h & 0x7FFF);
    // Subnormal (and zero): the integer significand times 2^-24, exact in f32.
    let sub = (a as f32 * f32::from_bits(0x3380_0000)).to_bits();
    let normal = (a << 13) + ((127 - 15) << 23);
    let mag = if a < 0x0400 {
        sub
    } else if a < 0x7C00 {
        normal
    } else if a == 0x7C00 {
        0x7F80_0000
    } else {
        0x7FC0_0000
    };
    sign | mag
}

/// A source format whose values widen to f32 exactly: f32 itself, FLOAT16 and BFLOAT16. The
/// narrow encoders take any of them, widening in registers (`narrow.rs`) or per element here.
pub(crate) trait Wide: TableFormat + Sync + 'static {
    /// How the vector kernels widen a register of these.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        expect(dead_code, reason = "read by the x86-64 kernels only")
    )]
    const FROM: WideFrom;
    /// The f32 bits of this value, exactly (a NaN gives a NaN of the same sign).
    fn f32_bits(self) -> u32;
}

/// The widening a [`Wide`] source needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WideFrom {
    /// None: the bits are f32 already.
    F32,
    /// FLOAT16 to f32: F16C `vcvtph2ps`, exact (NaNs quieted, their sign kept).
    F16,
    /// BFLOAT16 to f32: the code in the upper half of the f32 bits.
    Bf16,
}

impl Wide for f32 {
    const FROM: WideFrom = WideFrom::F32;
    #[inline(always)]
    fn f32_bits(self) -> u32 {
        self.to_bits()
    }
}

impl Wide for half::f16 {
    const FROM: WideFrom = WideFrom::F16;
    #[inline(always)]
    fn f32_bits(self) -> u32 {
        f16_bits_to_f32_bits(self.to_bits())
    }
}

impl Wide for half::bf16 {
    const FROM: WideFrom = WideFrom::Bf16;
    #[inline(always)]
    fn f32_bits(self) -> u32 {
        u32::from(self.to_bits()) << 16
    }
}

/// `bits` unchanged, or the canonical quiet NaN with the same sign if `bits` is a NaN.
#[inline(always)]
pub(crate) fn canonical_nan_f32(bits: u32) -> u32 {
    if bits & 0x7FFF_FFFF > 0x7F80_0000 {
        (bits & 0x8000_0000) | 0x7FC0_0000
    } else {
        bits
    }
}

/// `x` rounded half to even, or 0 for NaN, infinities and |x| of 2^27 and more (every f32
/// there is a multiple of 16, so its low four bits are 0 anyway). Below 2^23, adding 2^23 to
/// |x| leaves no fraction bits, so the addition itself rounds half to even, and subtracting
/// 2^23 again is exact; from 2^23 up every f32 is an integer already. All in f32 lanes, twice
/// as many per vector as the f64 rounding this replaced (`round_ties_even` compiled to a
/// library call here and ran at a tenth of the speed), and the out-of-range lanes are zeroed
/// before the conversion, so no mask has to follow the integers.
#[inline(always)]
fn round_small(x: f32) -> i32 {
    const TWO_23: f32 = 8_388_608.0;
    let a = x.abs();
    let r = if a < TWO_23 { (a + TWO_23) - TWO_23 } else { a };
    let r = if r < 134_217_728.0 { r } else { 0.0 };
    // SAFETY: r is finite and below 2^27 in magnitude, so it fits an i32.
    unsafe { r.copysign(x).to_int_unchecked::<i32>() }
}

/// The low four bits of `x` rounded half to even, sign-extended (-8..=7), as Cast-24 and
/// later wrap into INT4: NaN and infinities give 0. Sign-extended in i32 lanes, so that
/// narrowing to bytes is a saturating pack.
#[inline(always)]
pub(crate) fn f32_wrap_i4(x: f32) -> i8 {
    ((round_small(x) << 28) >> 28) as i8
}

/// The low four bits of `x` rounded half to even (0..=15), as Cast-24 and later wrap into
/// UINT4: NaN and infinities give 0.
#[inline(always)]
pub(crate) fn f32_wrap_u4(x: f32) -> u8 {
    (round_small(x) & 0x0F) as u8
}

/// `x` rounded half to even and clamped to [lo, hi], as Cast <= 23 converts to INT4/UINT4:
/// infinities give the bounds, NaN gives 0. (Clamping to integer bounds before rounding
/// gives the same result as after; the bounds are far below 2^27.)
#[inline(always)]
pub(crate) fn f32_clamp(x: f32, lo: f32, hi: f32) -> i8 {
    if x.is_nan() {
        0
    } else {
        round_small(x.clamp(lo, hi)) as i8
    }
}

/// Everything the widening decoder needs for the narrow source `T` under one set of rules.
/// The format is a type parameter of the decoder, not of `new` and `decode` separately, so the
/// constants of one format can never decode the codes of another.
#[derive(Debug)]
pub(crate) struct Widen<T> {
    /// 23 - M: where the source mantissa lands in an f32.
    shift: u32,
    /// The f32 bias minus the source's, in place.
    rebias: u32,
    /// The source's exponent field mask, in place.
    exp_mask: u32,
    /// f32 value of one subnormal ulp of the source, 2^(emin - M).
    ulp: f32,
    /// Code bits below the sign.
    body: u32,
    /// Sign bit of the source.
    sign: u32,
    /// f32 bits the exact path gives for: +Inf, -Inf, +NaN, -NaN, and the FNUZ NaN code.
    inf: (u32, u32),
    nan: (u32, u32),
    fnuz_nan: u32,
    /// `fn() -> T` so that `Widen<T>` is `Send`, `Sync` and `Copy` whatever `T` is.
    format: PhantomData<fn() -> T>,
}

// Written out: a derive would ask `T: Copy`, which the decoder does not need.
impl<T> Clone for Widen<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Widen<T> {}

impl<T: Target> Widen<T> {
    /// The decoder constants for `T` under `rules`.
    pub(crate) fn new(rules: &CastRules) -> Widen<T> {
        let l = T::ROW;
        let m = l.mant_bits;
        let f32_of = |v: Exact| f32::from_exact(&v, rules).to_bits();
        let both = |f: &dyn Fn(bool) -> Exact| (f32_of(f(false)), f32_of(f(true)));
        let sign = 1u32 << (l.exp_bits + m);
        Widen {
            shift: 23 - m,
            rebias: ((127 - l.bias) as u32) << 23,
            exp_mask: ((1 << l.exp_bits) - 1) << m,
            ulp: f32::from_bits((((1 - l.bias) - m as i32 + 127) as u32) << 23),
            body: sign - 1,
            sign,
            inf: both(&|negative| Exact::Inf { negative }),
            nan: both(&|negative| Exact::Nan { negative }),
            fnuz_nan: f32_of(T::from_code(u64::from(sign)).to_exact(rules)),
            format: PhantomData,
        }
    }

    /// The f32 bits of the source code `c` of format `T`, exactly, specials as the exact path
    /// gives them. `T` is known at compile time, so the special-code scheme is too and the
    /// loop stays branch-free.
    #[inline(always)]
    pub(crate) fn decode(&self, c: u32) -> u32 {
        let body = c & self.body;
        let negative = c & self.sign != 0;
        let f32_sign = if negative { 0x8000_0000 } else { 0 };
        let normal = (body << self.shift) + self.rebias;
        let sub = ((body & !self.exp_mask) as f32 * self.ulp).to_bits();
        let finite = f32_sign
            | if body & self.exp_mask == 0 {
                sub
            } else {
                normal
            };
        let pick = |codes: (u32, u32)| pick(c << (31 - self.sign.trailing_zeros()), codes);
        let all_ones = body & self.exp_mask == self.exp_mask;
        let (special, value) = match T::ROW.specials {
            Specials::Ieee | Specials::E5M2 => {
                let inf = body == self.exp_mask;
                (all_ones, if inf { pick(self.inf) } else { pick(self.nan) })
            }
            Specials::Fn => (body == self.body, pick(self.nan)),
            Specials::Fnuz => (c == self.sign, self.fnuz_nan),
            Specials::Finite => (false, 0),
        };
        if special {
            value
        } else {
            finite
        }
    }
}
