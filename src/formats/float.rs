//! The `FloatFormat` trait and its implementations for every floating format.

use super::exact::{CastRules, Exact};
use super::{F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0};
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

macro_rules! skeleton {
    ($($t:ty),*) => {$(
        impl FloatFormat for $t {
            fn to_exact(self, rules: &CastRules) -> Exact {
                todo!("{rules:?}")
            }
            fn from_exact(v: &Exact, rules: &CastRules) -> Self {
                todo!("{v:?} {rules:?}")
            }
        }
    )*};
}
skeleton!(f32, f64, f16, bf16, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0, F4E2M1);
