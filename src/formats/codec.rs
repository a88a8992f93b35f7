//! The codec of every sign/exponent/mantissa format: the format table (one [`FormatRow`] per
//! format), one decoder and one rounding encoder driven by it (docs/semantics.md §3.1, §3.3, §3.4).

use super::exact::{shr_half_even, CastRules, Exact, Generation, Significand};

/// How a format spends its special codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Specials {
    /// IEEE 754 (f16, bf16, f32, f64): exponent all ones is Inf or NaN; overflow gives Inf.
    Ieee,
    /// FLOAT8E5M2: IEEE layout, but NaN is written S.11111.11 (Cast <= 23) or S.11111.10
    /// (Cast-24 and later), and saturation applies.
    E5M2,
    /// FLOAT8E4M3FN: no Inf; only S.1111.111 is NaN.
    Fn,
    /// FNUZ float8: no Inf and no -0; the code 0x80 alone is NaN.
    Fnuz,
    /// FLOAT4E2M1 and the float6 types: no Inf, no NaN; overflow always saturates.
    Finite,
}

/// A row of the format table: field widths, bias, largest finite value and special codes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FormatRow {
    /// Exponent field width E.
    pub exp_bits: u32,
    /// Mantissa field width M (hidden bit not counted).
    pub mant_bits: u32,
    /// Exponent bias; emin = 1 - bias.
    pub bias: i32,
    /// Unbiased exponent of the largest finite value.
    pub emax: i32,
    /// Largest finite significand at emax, hidden bit included, as an integer.
    pub rmax: u64,
    /// Special-code scheme.
    pub specials: Specials,
}

/// Builds a table row (a `const fn`, so that the rows are constants).
const fn row(
    exp_bits: u32,
    mant_bits: u32,
    bias: i32,
    emax: i32,
    rmax: u64,
    s: Specials,
) -> FormatRow {
    FormatRow {
        exp_bits,
        mant_bits,
        bias,
        emax,
        rmax,
        specials: s,
    }
}

// Rows of docs/semantics.md §3.1. rmax for IEEE formats is 2^(M+1) - 1.
pub(crate) const F64: FormatRow = row(11, 52, 1023, 1023, (1 << 53) - 1, Specials::Ieee);
pub(crate) const F32: FormatRow = row(8, 23, 127, 127, (1 << 24) - 1, Specials::Ieee);
pub(crate) const F16: FormatRow = row(5, 10, 15, 15, 2047, Specials::Ieee);
pub(crate) const BF16: FormatRow = row(8, 7, 127, 127, 255, Specials::Ieee);
pub(crate) const E4M3FN: FormatRow = row(4, 3, 7, 8, 14, Specials::Fn);
pub(crate) const E4M3FNUZ: FormatRow = row(4, 3, 8, 7, 15, Specials::Fnuz);
pub(crate) const E5M2: FormatRow = row(5, 2, 15, 15, 7, Specials::E5M2);
pub(crate) const E5M2FNUZ: FormatRow = row(5, 2, 16, 15, 7, Specials::Fnuz);
pub(crate) const E2M1: FormatRow = row(2, 1, 1, 2, 3, Specials::Finite);
pub(crate) const E2M3: FormatRow = row(2, 3, 1, 2, 15, Specials::Finite);
pub(crate) const E3M2: FormatRow = row(3, 2, 3, 4, 7, Specials::Finite);

impl FormatRow {
    /// The sign bit.
    const fn sign_bit(&self) -> u64 {
        1 << (self.exp_bits + self.mant_bits)
    }

    /// The exponent field with every bit set, in place.
    const fn exp_all_ones(&self) -> u64 {
        ((1 << self.exp_bits) - 1) << self.mant_bits
    }

    /// The smallest normal exponent.
    const fn emin(&self) -> i32 {
        1 - self.bias
    }

    /// The code of the largest finite value, sign clear.
    const fn max_code(&self) -> u64 {
        (((self.emax + self.bias) as u64) << self.mant_bits) | (self.rmax - (1 << self.mant_bits))
    }

    /// The sign bit if `negative`, else 0.
    #[inline(always)]
    fn sign(&self, negative: bool) -> u64 {
        if negative {
            self.sign_bit()
        } else {
            0
        }
    }

    /// Decodes `code` exactly (docs/semantics.md §3.1); the FNUZ NaN sign follows the generation (§3.2).
    #[inline(always)]
    pub(crate) fn decode(&self, code: u64, generation: Generation) -> Exact {
        let m = self.mant_bits;
        let negative = code & self.sign_bit() != 0;
        let field = (code >> m) & ((1 << self.exp_bits) - 1);
        let frac = code & ((1 << m) - 1);
        let all_ones = field == (1 << self.exp_bits) - 1;
        match self.specials {
            Specials::Ieee | Specials::E5M2 if all_ones && frac == 0 => {
                return Exact::Inf { negative };
            }
            Specials::Ieee | Specials::E5M2 if all_ones => return Exact::Nan { negative },
            Specials::Fn if all_ones && frac == (1 << m) - 1 => return Exact::Nan { negative },
            // 0x80 is "-0" in the layout; older generators decoded it as +NaN, ml_dtypes as -NaN.
            Specials::Fnuz if code == self.sign_bit() => {
                return Exact::Nan {
                    negative: generation == Generation::From24,
                };
            }
            _ => {}
        }
        let (mant, scale) = if field == 0 {
            (frac, self.emin())
        } else {
            (frac | (1 << m), field as i32 - self.bias)
        };
        Exact::Finite {
            negative,
            mant: u128::from(mant),
            exp: scale - m as i32,
        }
    }

    /// Encodes `v`, rounding once half to even, with the overflow and NaN rules of docs/semantics.md §3.3/§3.4.
    #[inline(always)]
    pub(crate) fn encode(&self, v: &Exact, rules: &CastRules) -> u64 {
        match *v {
            Exact::Nan { negative } => self.nan_code(negative, rules.generation),
            Exact::Inf { negative } => self.overflow_code(negative, rules.saturate),
            Exact::Finite {
                negative,
                mant,
                exp,
            } => self.encode_finite(negative, mant, exp, rules.saturate),
        }
    }

    /// Steps 2-7 of docs/semantics.md §3.3 for a finite value (-1)^negative * mant * 2^exp.
    #[inline(always)]
    fn encode_finite(&self, negative: bool, mant: u128, exp: i32, saturate: bool) -> u64 {
        // The same steps in u64 where the significand fits, which every fixed-width source's
        // does: only strings parse to wider ones.
        match u64::try_from(mant) {
            Ok(narrow) => self.encode_finite_in(negative, narrow, exp, saturate),
            Err(_) => self.encode_finite_in(negative, mant, exp, saturate),
        }
    }

    /// [`Self::encode_finite`] with the significand in `T`.
    #[inline(always)]
    fn encode_finite_in<T: Significand>(
        &self,
        negative: bool,
        mant: T,
        exp: i32,
        saturate: bool,
    ) -> u64 {
        let one = T::from(1);
        if mant == T::from(0) {
            return self.zero_code(negative);
        }
        let m = self.mant_bits;
        // e = floor(log2 |x|); e2 is the exponent actually used, never below emin.
        let e = i64::from(T::BITS - 1 - mant.leading_zeros()) + i64::from(exp);
        let mut e2 = e.max(i64::from(self.emin()));
        // r = |x| / 2^(e2 - M), rounded half to even with integer shifts only.
        let shift = e2 - i64::from(m) - i64::from(exp);
        let mut r = if shift <= 0 {
            // Here |x| < 2^(e2+1), so the shifted significand stays below 2^(M+1) (and the
            // shift is at most M + 1).
            mant << u32::try_from(shift.unsigned_abs()).unwrap_or(u32::MAX)
        } else {
            shr_half_even(mant, u32::try_from(shift).unwrap_or(u32::MAX))
        };
        if r == one << (m + 1) {
            // Rounding carried into the next binade.
            r = one << m;
            e2 += 1;
        }
        if r == T::from(0) {
            return self.zero_code(negative);
        }
        let emax = i64::from(self.emax);
        if e2 > emax || (e2 == emax && r > T::from(self.rmax)) {
            return self.overflow_code(negative, saturate);
        }
        // r < 2^(M+1) <= 2^53 here: its low 64 bits are all of it.
        let r = r.low_u64();
        let body = if r >= 1 << m {
            // Normal: biased exponent and the mantissa without its hidden bit.
            (((e2 + i64::from(self.bias)) as u64) << m) | (r - (1 << m))
        } else {
            // Subnormal: exponent field 0 (only possible at e2 = emin).
            r
        };
        self.sign(negative) | body
    }

    /// A zero of the given sign; FNUZ formats have only +0.
    #[inline(always)]
    fn zero_code(&self, negative: bool) -> u64 {
        match self.specials {
            Specials::Fnuz => 0,
            _ => self.sign(negative),
        }
    }

    /// What a too-large finite value or an infinity becomes (docs/semantics.md §3.3 step 6).
    #[inline(always)]
    fn overflow_code(&self, negative: bool, saturate: bool) -> u64 {
        let max = self.sign(negative) | self.max_code();
        let inf = self.sign(negative) | self.exp_all_ones();
        match self.specials {
            // saturate is a float8 attribute: IEEE targets always overflow to Inf.
            Specials::Ieee => inf,
            // No Inf to fall back to (QuantizeLinear-28: saturate "has no effect" for these).
            Specials::Finite => max,
            _ if saturate => max,
            Specials::E5M2 => inf,
            Specials::Fn => self.sign(negative) | self.exp_all_ones() | ((1 << self.mant_bits) - 1),
            Specials::Fnuz => self.sign_bit(),
        }
    }

    /// The NaN code for a NaN of the given sign (docs/semantics.md §3.4).
    #[inline(always)]
    fn nan_code(&self, negative: bool, generation: Generation) -> u64 {
        let s = self.sign(negative);
        let all = self.exp_all_ones();
        let before = generation == Generation::Before24;
        match self.specials {
            // Canonical quiet NaN: top mantissa bit only, sign kept.
            Specials::Ieee => s | all | (1 << (self.mant_bits - 1)),
            // Cast <= 23 wrote S.11111.11, ml_dtypes (Cast-24 and later) S.11111.10.
            Specials::E5M2 if before => s | all | 0b11,
            Specials::E5M2 => s | all | 0b10,
            Specials::Fn => s | all | ((1 << self.mant_bits) - 1),
            Specials::Fnuz => self.sign_bit(),
            // No NaN in FLOAT4E2M1 or float6: Cast <= 23 gave FLOAT4E2M1 +6 for any NaN;
            // ml_dtypes (Cast-24 and later, the float6 types at Cast-28) gives -0 for +NaN
            // and +0 for -NaN (docs/semantics.md §3.4 and the float6 section).
            Specials::Finite if before => self.max_code(),
            Specials::Finite => self.sign(!negative),
        }
    }
}
