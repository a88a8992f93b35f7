//! Conversions into INT4, UINT4, INT2 and UINT2 (spec §3.2, §3.8).

use super::exact::{CastRules, Exact};
use super::{I2, I4, U2, U4};

macro_rules! skeleton {
    ($($t:ident),*) => {$(
        impl $t {
            /// The value nearest to `v` per the generation's rule (clamp or wrap, §3.2).
            pub fn from_exact(v: &Exact, rules: &CastRules) -> $t {
                todo!("{v:?} {rules:?}")
            }
            /// The low bits of `v` ("discard high bits", as integer casts do).
            pub fn wrapping_from_i128(v: i128) -> $t {
                $t::from_bits(v as u8)
            }
        }
    )*};
}
skeleton!(I4, U4, I2, U2);
