//! The `FloatFormat` trait and its implementations for every floating format but E8M0.

use super::exact::{CastRules, Exact, Generation};
use super::round::{self, Layout};
use super::{F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ};
use half::{bf16, f16};

/// A floating format that can be decoded exactly and encoded with one rounding.
pub trait FloatFormat: Copy {
    /// Exact value of self (FNUZ NaN sign depends on rules.generation, §3.2/3.4).
    fn to_exact(self, rules: &CastRules) -> Exact;
    /// The format value nearest to v per the rules (RNE, saturate/overflow rules, NaN codes),
    /// rounding once.
    fn from_exact(v: &Exact, rules: &CastRules) -> Self;
}

/// Converts between two floating formats through the exact value, rounding once.
pub fn cast_float<S: FloatFormat, T: FloatFormat>(x: S, rules: &CastRules) -> T {
    T::from_exact(&x.to_exact(rules), rules)
}

/// Implements `FloatFormat` through a format table row and the type's bit accessors.
macro_rules! via_layout {
    ($($t:ty => $layout:expr, $bits:ty;)*) => {$(
        impl FloatFormat for $t {
            fn to_exact(self, rules: &CastRules) -> Exact {
                $layout.decode(u64::from(self.to_bits()), rules.generation)
            }
            fn from_exact(v: &Exact, rules: &CastRules) -> Self {
                // The encoder never sets bits above the format's width.
                <$t>::from_bits($layout.encode(v, rules) as $bits)
            }
        }
    )*};
}

via_layout! {
    f64 => round::F64, u64;
    f32 => round::F32, u32;
    f16 => round::F16, u16;
    F8E4M3FN => round::E4M3FN, u8;
    F8E4M3FNUZ => round::E4M3FNUZ, u8;
    F8E5M2 => round::E5M2, u8;
    F8E5M2FNUZ => round::E5M2FNUZ, u8;
    F4E2M1 => round::E2M1, u8;
}

impl FloatFormat for bf16 {
    fn to_exact(self, rules: &CastRules) -> Exact {
        BF16.decode(u64::from(self.to_bits()), rules.generation)
    }

    /// Cast-24 and later round once (RNE). Cast <= 23 data was made by rounding the source to
    /// f32 first (any source: numpy `astype(float32)`) and then keeping the top 16 bits of the
    /// f32, so that is what Before24 does; NaN is canonicalised with its sign kept.
    fn from_exact(v: &Exact, rules: &CastRules) -> Self {
        match (rules.generation, v) {
            (Generation::From24, _) | (_, Exact::Nan { .. }) => {
                bf16::from_bits(BF16.encode(v, rules) as u16)
            }
            (Generation::Before24, _) => {
                let single = f32::from_exact(v, rules).to_bits();
                bf16::from_bits((single >> 16) as u16)
            }
        }
    }
}

/// The BFLOAT16 table row.
const BF16: Layout = round::BF16;
