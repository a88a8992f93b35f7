//! The codec of the number formats that Rust and `half` lack: float8 (x5), float6 (x2), float4,
//! int4/uint4, int2/uint2 and the two complex types. Their bit newtypes live in
//! `vocab::elements` and are re-exported here.
//!
//! Conversions go through [`Exact`], an exact value, so that every cast rounds once.

mod codec;
mod e8m0;
mod exact;
pub(crate) mod fast;
mod float;
mod subbyte_int;
pub mod sweeps;
#[cfg(test)]
mod tests;

pub use exact::{CastRules, Exact, Generation, RoundMode, RulesRead};
pub use float::{cast_float, FloatFormat};
pub use subbyte_int::SubByteInt;
pub use vocab::elements::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};
