//! The `FloatFormat` trait and its implementations for every floating format but E8M0.

use super::codec::{self, FormatRow};
use super::exact::{CastRules, Exact, Generation};
use super::{F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ};
use half::{bf16, f16};

/// A floating format that can be decoded exactly and encoded with one rounding.
pub trait FloatFormat: Copy {
    /// Exact value of self (FNUZ NaN sign depends on rules.generation, docs/semantics.md §3.2/3.4;
    /// no other part of the rules is read, which the generic Cast path relies on).
    fn to_exact(self, rules: &CastRules) -> Exact;
    /// The format value nearest to v per the rules (RNE, saturate/overflow rules, NaN codes),
    /// rounding once.
    fn from_exact(v: &Exact, rules: &CastRules) -> Self;
}

/// Converts between two floating formats through the exact value, rounding once.
pub fn cast_float<S: FloatFormat, T: FloatFormat>(x: S, rules: &CastRules) -> T {
    T::from_exact(&x.to_exact(rules), rules)
}

/// A format with a row in the format table (`codec.rs`), addressed by its code: the one
/// place that pairs each type with its row, for the exact path here and the fast paths.
pub(crate) trait TableFormat: Copy {
    /// The format's row of the table.
    const ROW: FormatRow;
    /// The code of this value, in the low bits.
    fn code(self) -> u64;
    /// The value with this code (bits above the format's width are dropped).
    fn from_code(code: u64) -> Self;
}

macro_rules! table_format {
    ($($t:ty => $row:expr, $bits:ty;)*) => {$(
        impl TableFormat for $t {
            const ROW: FormatRow = $row;
            #[inline(always)]
            fn code(self) -> u64 {
                u64::from(self.to_bits())
            }
            #[inline(always)]
            fn from_code(code: u64) -> Self {
                <$t>::from_bits(code as $bits)
            }
        }
    )*};
}

table_format! {
    f64 => codec::F64, u64;
    f32 => codec::F32, u32;
    f16 => codec::F16, u16;
    bf16 => codec::BF16, u16;
    F8E4M3FN => codec::E4M3FN, u8;
    F8E4M3FNUZ => codec::E4M3FNUZ, u8;
    F8E5M2 => codec::E5M2, u8;
    F8E5M2FNUZ => codec::E5M2FNUZ, u8;
    F4E2M1 => codec::E2M1, u8;
    F6E2M3 => codec::E2M3, u8;
    F6E3M2 => codec::E3M2, u8;
}

/// Implements `FloatFormat` straight from the table row.
macro_rules! via_row {
    ($($t:ty),*) => {$(
        impl FloatFormat for $t {
            #[inline(always)]
            fn to_exact(self, rules: &CastRules) -> Exact {
                Self::ROW.decode(self.code(), rules.generation)
            }
            #[inline(always)]
            fn from_exact(v: &Exact, rules: &CastRules) -> Self {
                // The encoder never sets bits above the format's width.
                Self::from_code(Self::ROW.encode(v, rules))
            }
        }
    )*};
}

via_row!(f64, f32, f16, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F4E2M1, F6E2M3, F6E3M2);

impl FloatFormat for bf16 {
    fn to_exact(self, rules: &CastRules) -> Exact {
        Self::ROW.decode(self.code(), rules.generation)
    }

    /// Cast-24 and later round once (RNE). Cast <= 23 data was made by rounding the source to
    /// f32 first (any source: numpy `astype(float32)`) and then keeping the top 16 bits of the
    /// f32, so that is what Before24 does; NaN is canonicalised with its sign kept.
    fn from_exact(v: &Exact, rules: &CastRules) -> Self {
        match (rules.generation, v) {
            (Generation::From24, _) | (_, Exact::Nan { .. }) => {
                Self::from_code(Self::ROW.encode(v, rules))
            }
            (Generation::Before24, _) => {
                let single = f32::from_exact(v, rules).to_bits();
                bf16::from_bits((single >> 16) as u16)
            }
        }
    }
}
