//! Conversions into INT4, UINT4, INT2 and UINT2 (docs/semantics.md §3.2, §3.8). The clamp of Cast ≤ 23 is
//! for floating sources; callers with integer sources use the wrapping rule at every version.

use super::exact::{CastRules, Exact, Generation};
use super::{I2, I4, U2, U4};

/// How a floating value becomes a sub-byte integer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Cast-21/23 data: clamp to the range, then round half to even; +-Inf clamp to the
    /// bounds. NaN has no defined result there (numpy's NaN-to-int cast); we give 0.
    Clamp,
    /// Cast-24 and later (and INT2/UINT2 always): round half to even, keep the low bits.
    /// NaN and +-Inf give 0, as ml_dtypes (the Cast-24 generator) does.
    Wrap,
}

/// The integer (as an i128) that `v` converts to under `rule`, for a range [min, max].
fn convert(v: &Exact, rule: Rule, min: i128, max: i128) -> i128 {
    match (rule, v) {
        (_, Exact::Nan { .. }) | (Rule::Wrap, Exact::Inf { .. }) => 0,
        (Rule::Clamp, Exact::Inf { negative }) => {
            if *negative {
                min
            } else {
                max
            }
        }
        // Rounding is monotonic and the bounds are integers, so rounding then clamping
        // equals the generator's clamp then round.
        (Rule::Clamp, _) => v.round_half_even_to_i128().unwrap_or(0).clamp(min, max),
        // Only the low bits matter, and the wrapping rounding keeps them exactly.
        (Rule::Wrap, _) => v.round_half_even_wrapping().unwrap_or(0) as i128,
    }
}

/// Conversions into INT4, UINT4, INT2 and UINT2. A trait because the types themselves are the
/// vocabulary crate's.
pub trait SubByteInt: Sized {
    /// The value `v` converts to: Cast <= 23 clamps then rounds half to even, Cast-24 and
    /// later round half to even then keep the low bits (docs/semantics.md §3.2); INT2 and UINT2 (Cast-25 only)
    /// always wrap. NaN gives 0; +-Inf give 0 when wrapping and the bound when clamping.
    fn from_exact(v: &Exact, rules: &CastRules) -> Self;

    /// The value `v` converts to under the wrapping rule at every version: for an integer `v`
    /// its low bits, as integer → integer casts keep them (the rule of integer, bool and
    /// string sources; only floating sources clamp before 24).
    fn from_exact_wrapping(v: &Exact) -> Self;

    /// The low bits of `v` ("discard high bits", as integer casts do).
    fn wrapping_from_i128(v: i128) -> Self;
}

macro_rules! subbyte_int {
    ($($t:ident: $min:literal..=$max:literal, $wrap_only:literal;)*) => {$(
        impl SubByteInt for $t {
            fn from_exact(v: &Exact, rules: &CastRules) -> $t {
                let rule = if $wrap_only || rules.generation == Generation::From24 {
                    Rule::Wrap
                } else {
                    Rule::Clamp
                };
                $t::wrapping_from_i128(convert(v, rule, $min, $max))
            }

            fn from_exact_wrapping(v: &Exact) -> $t {
                $t::wrapping_from_i128(convert(v, Rule::Wrap, $min, $max))
            }

            fn wrapping_from_i128(v: i128) -> $t {
                $t::from_bits(v as u8)
            }
        }
    )*};
}

subbyte_int! {
    I4: -8..=7, false;
    U4: 0..=15, false;
    I2: -2..=1, true;
    U2: 0..=3, true;
}
