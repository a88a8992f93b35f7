//! Exact values and the rules that parameterise a conversion (docs/semantics.md §3.2, §3.3).

use std::ops::{Add, BitAnd, Shl, Shr, Sub};

/// Which generation of Cast/CastLike behaviour applies: since-version <= 23 or >= 24 (docs/semantics.md §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generation {
    /// Cast/CastLike up to version 23: bf16 truncation, int4 clamp, old NaN codes.
    Before24,
    /// Cast/CastLike 24 and later: bf16 RNE, int4 wrap, new NaN codes.
    From24,
}

impl Generation {
    /// The generation of a Cast/CastLike since-version.
    pub const fn of_version(since: u32) -> Generation {
        if since >= 24 {
            Generation::From24
        } else {
            Generation::Before24
        }
    }
}

/// E8M0 rounding (Cast-24 `round_mode`): the shared vocabulary's type.
pub use vocab::RoundMode;

/// Everything that parameterises a conversion besides the types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastRules {
    /// The `saturate` attribute (Cast-19 and later; default 1).
    pub saturate: bool,
    /// The `round_mode` attribute (Cast-24 and later; default "up").
    pub round_mode: RoundMode,
    /// Which side of the version-24 switch applies.
    pub generation: Generation,
}

impl Default for CastRules {
    /// The attribute defaults of the newest Cast: saturate on, round up, version 24+ behaviour.
    fn default() -> Self {
        CastRules {
            saturate: true,
            round_mode: RoundMode::Up,
            generation: Generation::From24,
        }
    }
}

/// Which parts of [`CastRules`] a conversion reads; the others cannot change its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RulesRead {
    /// Whether `saturate` is read.
    pub saturate: bool,
    /// Whether the version-24 switch is read.
    pub generation: bool,
    /// Whether `round_mode` is read.
    pub round_mode: bool,
}

impl RulesRead {
    /// Every part read: the safe answer where nothing narrower is known.
    pub const ALL: RulesRead = RulesRead {
        saturate: true,
        generation: true,
        round_mode: true,
    };
}

impl CastRules {
    /// These rules with every part `read` does not name set to its default: two rule sets a
    /// conversion cannot tell apart become one value.
    pub fn keeping(&self, read: RulesRead) -> CastRules {
        let default = CastRules::default();
        CastRules {
            saturate: if read.saturate {
                self.saturate
            } else {
                default.saturate
            },
            round_mode: if read.round_mode {
                self.round_mode
            } else {
                default.round_mode
            },
            generation: if read.generation {
                self.generation
            } else {
                default.generation
            },
        }
    }
}

/// A value decoded exactly: value = (-1)^negative * mant * 2^exp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exact {
    /// Not a number; the sign is kept because the data expects it in some places.
    Nan {
        /// Sign bit of the NaN.
        negative: bool,
    },
    /// An infinity.
    Inf {
        /// Whether this is -Inf.
        negative: bool,
    },
    /// A finite value (mant = 0 is a signed zero).
    Finite {
        /// Sign (kept for zeros too).
        negative: bool,
        /// Integer significand; not necessarily normalised.
        mant: u128,
        /// Power-of-two scale.
        exp: i32,
    },
}

impl Exact {
    /// A signed integer, exactly.
    pub fn from_i128(v: i128) -> Exact {
        Exact::Finite {
            negative: v < 0,
            mant: v.unsigned_abs(),
            exp: 0,
        }
    }

    /// An unsigned integer, exactly.
    pub fn from_u128(v: u128) -> Exact {
        Exact::Finite {
            negative: false,
            mant: v,
            exp: 0,
        }
    }

    /// Truncates toward zero to an integer, saturating at the i128 range; None for NaN/Inf.
    pub fn trunc_to_i128(&self) -> Option<i128> {
        let (negative, mant, exp) = self.finite()?;
        let magnitude = if exp >= 0 {
            shl_saturating(mant, exp)
        } else {
            // A right shift drops the fraction, which is truncation for a magnitude.
            mant.checked_shr(exp.unsigned_abs()).unwrap_or(0)
        };
        Some(signed_saturating(negative, magnitude))
    }

    /// Rounds half to even to an integer, saturating at the i128 range; None for NaN/Inf.
    pub fn round_half_even_to_i128(&self) -> Option<i128> {
        let (negative, mant, exp) = self.finite()?;
        let magnitude = if exp >= 0 {
            shl_saturating(mant, exp)
        } else {
            shr_half_even(mant, exp.unsigned_abs())
        };
        Some(signed_saturating(negative, magnitude))
    }

    /// Rounds half to even and keeps the low 128 bits of the two's-complement result
    /// (the "discard high bits" rule); None for NaN/Inf.
    pub fn round_half_even_wrapping(&self) -> Option<u128> {
        let (negative, mant, exp) = self.finite()?;
        let magnitude = if exp >= 0 {
            // Bits shifted past bit 127 are multiples of 2^128: dropping them is the wrap.
            mant.checked_shl(exp.unsigned_abs()).unwrap_or(0)
        } else {
            shr_half_even(mant, exp.unsigned_abs())
        };
        Some(if negative {
            magnitude.wrapping_neg()
        } else {
            magnitude
        })
    }

    /// Whether this is +0 or -0.
    pub fn is_zero(&self) -> bool {
        matches!(self, Exact::Finite { mant: 0, .. })
    }

    /// Sign, significand and exponent of a finite value.
    fn finite(&self) -> Option<(bool, u128, i32)> {
        match *self {
            Exact::Finite {
                negative,
                mant,
                exp,
            } => Some((negative, mant, exp)),
            _ => None,
        }
    }
}

/// An unsigned significand type the rounding steps run in: u128, which holds every exact
/// value, or u64, which holds every significand a fixed-width source decodes to and which the
/// steps take about half the instructions in (a u128 shift or compare is two, with selects).
pub(crate) trait Significand:
    Copy
    + Ord
    + From<u64>
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAnd<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The width in bits.
    const BITS: u32;
    /// The number of leading zero bits.
    fn leading_zeros(self) -> u32;
    /// The low 64 bits.
    fn low_u64(self) -> u64;
}

macro_rules! significand {
    ($($t:ty),*) => {$(
        impl Significand for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn low_u64(self) -> u64 {
                // The low 64 bits are what `as` keeps.
                self as u64
            }
        }
    )*};
}

significand!(u64, u128);

/// `mant >> shift`, rounded half to even, for any shift (the result cannot overflow).
#[inline(always)]
pub(crate) fn shr_half_even<T: Significand>(mant: T, shift: u32) -> T {
    let (zero, one) = (T::from(0), T::from(1));
    if shift == 0 {
        return mant;
    }
    if shift > T::BITS {
        // mant < 2^BITS <= 2^(shift-1): below one half.
        return zero;
    }
    let (quotient, rem) = if shift == T::BITS {
        (zero, mant)
    } else {
        (mant >> shift, mant & ((one << shift) - one))
    };
    let half = one << (shift - 1);
    let round_up = rem > half || (rem == half && quotient & one == one);
    if round_up {
        quotient + one
    } else {
        quotient
    }
}

/// `mant << shift`, or u128::MAX when bits would be lost.
fn shl_saturating(mant: u128, shift: i32) -> u128 {
    if mant == 0 {
        return 0;
    }
    let shift = shift.unsigned_abs();
    if shift > mant.leading_zeros() {
        u128::MAX
    } else {
        mant << shift
    }
}

/// A signed integer from sign and magnitude, saturating at the i128 range.
fn signed_saturating(negative: bool, magnitude: u128) -> i128 {
    if negative {
        0i128.checked_sub_unsigned(magnitude).unwrap_or(i128::MIN)
    } else {
        i128::try_from(magnitude).unwrap_or(i128::MAX)
    }
}
