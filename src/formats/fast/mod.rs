//! Fast slice conversions for the hot Cast pairs. Each reproduces the exact path
//! ([`super::cast_float`] and friends) bit for bit at every SIMD level and thread count; the
//! tests in `tests.rs` hold them to it, exhaustively over every 8- and 16-bit code and over
//! every f32 midpoint class, at every level the CPU has; `onnx-conformance self-check`
//! (`crate::self_check`) over every code of the 32-bit sources.
//!
//! Specials (NaN codes, infinities, overflow codes, the zero of FNUZ formats) are never
//! hand-written here: they are asked of the exact path once per call, so a rule change there
//! cannot leave a fast path behind.

mod encode;
mod hw;
mod kernel;
mod map;
mod narrow;
mod odd16;
pub(crate) mod par;
mod table16;
#[cfg(test)]
mod tests;
mod widen64;

pub(crate) use encode::{Target, Wide};

use super::exact::{CastRules, Generation};
use super::{cast_float, F8E8M0, I4, U4};
use crate::tuning::{Exec, SimdLevel};
use encode::{Narrow, Widen};
use half::{bf16, f16};
use map::{map, run};

/// f32 to BFLOAT16: Cast-24 and later round half to even; earlier versions keep the top 16
/// bits (docs/semantics.md §3.2); NaN is canonical with its sign kept in both.
pub(crate) fn f32_to_bf16(exec: &Exec, src: &[f32], rules: &CastRules) -> Vec<bf16> {
    let n = Narrow::new::<bf16>(rules);
    match rules.generation {
        Generation::From24 => {
            let scalar = move |x: f32| bf16::from_bits(n.encode(x.to_bits()) as u16);
            // The vector kernels give IEEE codes for infinities, overflow and -0, which is
            // what the exact path gives under every rule set
            // (`bf16_and_f16_specials_are_ieee_under_every_rule_set`), as for f32_to_f16.
            // SAFETY: f32_to_bf16_rne writes its whole output piece.
            unsafe {
                run(exec, src, &|mode, s, d| {
                    hw::f32_to_bf16_rne(mode, s, d, scalar)
                })
            }
        }
        Generation::Before24 => map(exec, src, move |x| {
            let bits = x.to_bits();
            let code = if bits & 0x7FFF_FFFF > 0x7F80_0000 {
                n.nan(bits)
            } else {
                bits >> 16
            };
            bf16::from_bits(code as u16)
        }),
    }
}

/// The scalar f16 widening, exact, NaN canonical with its sign kept.
fn widen_f16(h: f16) -> f32 {
    f32::from_bits(encode::f16_bits_to_f32_bits(h.to_bits()))
}

/// FLOAT16 to f32, exact; NaN becomes the canonical quiet NaN with its sign kept.
pub(crate) fn f16_to_f32(exec: &Exec, src: &[f16]) -> Vec<f32> {
    // SAFETY: hw::f16_to_f32 writes its whole output piece.
    unsafe {
        run(exec, src, &|mode, s, d| {
            hw::f16_to_f32(mode, s, d, widen_f16)
        })
    }
}

/// BFLOAT16 to f32, exact; NaN becomes the canonical quiet NaN with its sign kept.
pub(crate) fn bf16_to_f32(exec: &Exec, src: &[bf16]) -> Vec<f32> {
    map(exec, src, move |h| {
        let bits = u32::from(h.to_bits()) << 16;
        f32::from_bits(encode::canonical_nan_f32(bits))
    })
}

/// f64 to f32, round half to even (the hardware conversion), NaN made canonical explicitly
/// with the source's sign, read from its bits: `as` promises neither the payload nor the
/// sign of the NaN it gives (the hardware keeps the sign; Miri flips it at random).
pub(crate) fn f64_to_f32(exec: &Exec, src: &[f64]) -> Vec<f32> {
    map(exec, src, move |x| {
        let nan = if x.is_sign_negative() {
            0xFFC0_0000
        } else {
            0x7FC0_0000
        };
        f32::from_bits(if x.is_nan() {
            nan
        } else {
            (x as f32).to_bits()
        })
    })
}

/// f32 to f64, exact; NaN made canonical with its sign kept. The NaN lanes are chosen by a
/// mask rather than a branch, so that a line of eight (streaming stores) vectorises too.
pub(crate) fn f32_to_f64(exec: &Exec, src: &[f32]) -> Vec<f64> {
    map(exec, src, move |x| {
        let bits = x.to_bits();
        let nan = (u64::from(bits >> 31) << 63) | 0x7FF8_0000_0000_0000;
        let is_nan = 0u64.wrapping_sub(u64::from(bits & 0x7FFF_FFFF > 0x7F80_0000));
        f64::from_bits((f64::from(x).to_bits() & !is_nan) | (nan & is_nan))
    })
}

/// f32 to FLOAT16 with the hardware conversion where the level has it; the exact path's NaN
/// codes replace the hardware's NaNs.
pub(crate) fn f32_to_f16(exec: &Exec, src: &[f32], rules: &CastRules) -> Vec<f16> {
    let n = Narrow::new::<f16>(rules);
    let scalar = move |x: f32| f16::from_bits(n.encode(x.to_bits()) as u16);
    // SAFETY: hw::f32_to_f16 writes its whole output piece.
    unsafe { run(exec, src, &|mode, s, d| hw::f32_to_f16(mode, s, d, scalar)) }
}

/// f32, FLOAT16 or BFLOAT16 to a float8 format or FLOAT4E2M1, rounding once (the 16-bit
/// sources are widened to f32 exactly first) with the rules' overflow and NaN codes: vector
/// kernels (`narrow.rs`) at AVX2 and AVX-512, the scalar encoder below.
pub(crate) fn wide_to_narrow<S: Wide, T: Target>(
    exec: &Exec,
    src: &[S],
    rules: &CastRules,
) -> Vec<T> {
    let n = Narrow::new::<T>(rules);
    let scalar = move |x: S| T::from_code(u64::from(n.encode(x.f32_bits())));
    // SAFETY: narrow::encode writes its whole output piece.
    unsafe {
        run(exec, src, &|mode, s, d| {
            narrow::encode(mode, s, d, &n, scalar)
        })
    }
}

/// FLOAT16 to FLOAT16: every value stays, a NaN becomes the rules' NaN code for its sign.
pub(crate) fn f16_to_f16(exec: &Exec, src: &[f16], rules: &CastRules) -> Vec<f16> {
    let n = Narrow::new::<f16>(rules);
    map(exec, src, move |h: f16| {
        f16::from_bits(n.encode(h.f32_bits()) as u16)
    })
}

/// A float8, float6 or float4 format to f32, exactly: at AVX2 and AVX-512 the formats of at
/// most 64 codes by table lookups (`widen64.rs`, the tables built here once per call from the
/// scalar decoder), the others by bit arithmetic.
pub(crate) fn narrow_to_f32<T: Target>(exec: &Exec, src: &[T], rules: &CastRules) -> Vec<f32> {
    let w = Widen::<T>::new(rules);
    let scalar = move |c: T| f32::from_bits(w.decode(c.code() as u32));
    // Built only where a kernel reads it.
    let halves = match exec.level.min(SimdLevel::detected()) {
        SimdLevel::Baseline => None,
        SimdLevel::Avx2 | SimdLevel::Avx512 => widen64::Halves::new(&w),
    };
    // SAFETY: widen64::decode writes its whole output piece.
    unsafe {
        run(exec, src, &|mode, s, d| {
            widen64::decode(mode, s, d, halves.as_ref(), scalar)
        })
    }
}

/// f32, FLOAT16 or BFLOAT16 to FLOAT8E8M0 ([`encode::E8m0`]), the 16-bit sources widened to
/// f32 exactly first.
pub(crate) fn wide_to_e8m0<S: Wide>(exec: &Exec, src: &[S], rules: &CastRules) -> Vec<F8E8M0> {
    let e = encode::E8m0::new(rules);
    map(exec, src, move |x: S| {
        F8E8M0::from_bits(e.encode(x.f32_bits()))
    })
}

/// FLOAT8E8M0 to f32: code c is 2^(c - 127), the f32 with exponent field c, except code 0
/// (2^-127, an f32 subnormal) and the NaN code, both asked of the exact path once per call.
pub(crate) fn e8m0_to_f32(exec: &Exec, src: &[F8E8M0], rules: &CastRules) -> Vec<f32> {
    let decode = |c: u8| cast_float::<F8E8M0, f32>(F8E8M0::from_bits(c), rules).to_bits();
    let (zero, nan) = (decode(0), decode(0xFF));
    // Two selects rather than a `match`, which became a jump table and ran scalar.
    map(exec, src, move |c: F8E8M0| {
        let c = u32::from(c.to_bits());
        let bits = if c == 0 { zero } else { c << 23 };
        f32::from_bits(if c == 0xFF { nan } else { bits })
    })
}

/// f32 to INT4: Cast-24 and later round half to even and keep the low 4 bits (NaN and
/// infinities give 0); earlier versions clamp to [-8, 7] first (docs/semantics.md §3.2).
pub(crate) fn f32_to_i4(exec: &Exec, src: &[f32], rules: &CastRules) -> Vec<I4> {
    match rules.generation {
        Generation::From24 => nibbles(exec, src, hw::Nibbles::WrapSigned, |x| {
            I4::from_bits(encode::f32_wrap_i4(x) as u8)
        }),
        Generation::Before24 => nibbles(exec, src, hw::Nibbles::Clamp(-8.0, 7.0), |x| {
            I4::from_bits(encode::f32_clamp(x, -8.0, 7.0) as u8)
        }),
    }
}

/// f32 to UINT4, by the same rules as [`f32_to_i4`] with the range [0, 15].
pub(crate) fn f32_to_u4(exec: &Exec, src: &[f32], rules: &CastRules) -> Vec<U4> {
    match rules.generation {
        Generation::From24 => nibbles(exec, src, hw::Nibbles::WrapUnsigned, |x| {
            U4::from_bits(encode::f32_wrap_u4(x))
        }),
        Generation::Before24 => nibbles(exec, src, hw::Nibbles::Clamp(0.0, 15.0), |x| {
            U4::from_bits(encode::f32_clamp(x, 0.0, 15.0) as u8)
        }),
    }
}

/// f32 to 4-bit integers by `how`, `scalar` being the same rules per element.
fn nibbles<D: crate::stream::NoPadding + Send>(
    exec: &Exec,
    src: &[f32],
    how: hw::Nibbles,
    scalar: impl Fn(f32) -> D + Copy + Sync,
) -> Vec<D> {
    // SAFETY: hw::f32_to_nibbles writes its whole output piece.
    unsafe {
        run(exec, src, &|mode, s, d| {
            hw::f32_to_nibbles(mode, s, d, how, scalar)
        })
    }
}

/// Applies a plain `as`-style conversion to every element (integer wrapping, int to float
/// round half to even): the exact path's rules for these pairs coincide with Rust's `as`.
pub(crate) fn convert<S: Copy + Sync, D: crate::stream::NoPadding + Send>(
    exec: &Exec,
    src: &[S],
    f: impl Fn(S) -> D + Copy + Sync,
) -> Vec<D> {
    map(exec, src, f)
}
