//! Hardware conversions: F16C and AVX-512 `vcvtps2ph` / `vcvtph2ps` for f32 <-> f16, and
//! AVX512-BF16 `vcvtneps2bf16` for the Cast-24 bf16 rounding. All three round half to even
//! and keep subnormals, as the exact path does, with two exceptions patched here:
//! * a NaN keeps (part of) its payload and `vcvtps2ph` quiets it, where the exact path gives
//!   its canonical NaN: every NaN lane is replaced by the exact path's code for its sign;
//! * `vcvtneps2bf16` treats subnormal inputs as zero (Intel SDM: "input denormals are always
//!   treated as zero"): a vector holding one goes through the scalar function instead.
//!
//! The rounding immediates are explicit, so MXCSR's rounding mode does not matter; the
//! scalar paths assume MXCSR's FTZ/DAZ are off (Rust's default), as they always did.
//! Every kernel passes its vector body to [`blocks`], whose heads (up to the first aligned
//! output element) and tails go through the scalar function, which the tests hold to the
//! exact path.
//!
//! Below AVX512-BF16, the Cast-24 bf16 rounding is done on the bits in AVX2 registers
//! (`f32_to_bf16_rne_v3`): not a conversion instruction, but the same kind of kernel.
//!
//! AVX512-FP16 has no path here: its f32 <-> f16 conversions (`vcvtps2phx`, `vcvtph2psx`)
//! round exactly as the ones above, and it converts nothing to or from float8 (that is
//! AVX10.2), so it would add code that the machines this is tested on cannot run.

use super::kernel::by_level;
use super::map::{fill, Mode};
use crate::tuning::{simd_fn, SimdLevel};
use half::{bf16, f16};
use std::mem::MaybeUninit;

#[cfg(target_arch = "x86_64")]
use super::kernel::{blocks, store};
#[cfg(target_arch = "x86_64")]
use super::map::fill_plain;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// The rounding immediate: to nearest even, whatever MXCSR's rounding mode says. No
/// `_MM_FROUND_NO_EXC`: it only keeps MXCSR's sticky flags clear, and with exceptions masked
/// (the floating-point environment Rust assumes) it changes no result.
#[cfg(target_arch = "x86_64")]
const NEAREST: i32 = _MM_FROUND_TO_NEAREST_INT;

/// The codes `scalar` gives for +NaN and -NaN: the exact path's, which the vector kernels put
/// in place of the hardware's NaNs (the exact path's NaN code depends on the sign alone).
#[cfg(target_arch = "x86_64")]
fn nan_codes<D>(scalar: impl Fn(f32) -> D, bits: impl Fn(D) -> u16) -> (u16, u16) {
    (bits(scalar(f32::NAN)), bits(scalar(-f32::NAN)))
}

/// f32 to f16 into `dst`; `scalar` is the element function for the baseline level, heads and
/// tails, and gives the NaN codes.
pub(super) fn f32_to_f16(
    mode: Mode,
    src: &[f32],
    dst: &mut [MaybeUninit<f16>],
    scalar: impl Fn(f32) -> f16 + Copy,
) {
    by_level!(mode.level.min(SimdLevel::detected()) => {
        x86_64 {
            // SAFETY: the level is at most what the CPU has; the function needs only its features.
            SimdLevel::Avx512 => unsafe { f32_to_f16_v4(src, dst, scalar, mode.stream) },
            // SAFETY: as above.
            SimdLevel::Avx2 => unsafe { f32_to_f16_v3(src, dst, scalar, mode.stream) },
        }
        portable level => fill(mode.at(level), src, dst, scalar),
    })
}

/// f16 to f32 into `dst`, NaNs made canonical with their sign kept; `scalar` as above.
pub(super) fn f16_to_f32(
    mode: Mode,
    src: &[f16],
    dst: &mut [MaybeUninit<f32>],
    scalar: impl Fn(f16) -> f32 + Copy,
) {
    by_level!(mode.level.min(SimdLevel::detected()) => {
        x86_64 {
            // SAFETY: the level is at most what the CPU has; the function needs only its features.
            SimdLevel::Avx512 => unsafe { f16_to_f32_v4(src, dst, scalar, mode.stream) },
            // SAFETY: as above.
            SimdLevel::Avx2 => unsafe { f16_to_f32_v3(src, dst, scalar, mode.stream) },
        }
        portable level => fill(mode.at(level), src, dst, scalar),
    })
}

/// f32 to bf16, Cast-24 rounding (half to even), with `vcvtneps2bf16` where the CPU has it at
/// this level, else `scalar` compiled for the level (which also gives the NaN codes).
pub(super) fn f32_to_bf16_rne(
    mode: Mode,
    src: &[f32],
    dst: &mut [MaybeUninit<bf16>],
    scalar: impl Fn(f32) -> bf16 + Copy,
) {
    by_level!(mode.level.min(SimdLevel::detected()) => {
        x86_64 {
            // SAFETY: AVX-512 (the level, at most what the CPU has) and AVX512-BF16 are present.
            SimdLevel::Avx512 if crate::tuning::has_avx512bf16() => unsafe {
                f32_to_bf16_v4(src, dst, scalar, mode.stream)
            },
            // The integer rounding below is as fast at AVX-512 as at AVX2 once memory-bound,
            // so AVX-512 without BF16 takes it too.
            // SAFETY: the level (at most what the CPU has) is at least AVX2.
            SimdLevel::Avx2 | SimdLevel::Avx512 => unsafe {
                f32_to_bf16_rne_v3(src, dst, scalar, mode.stream)
            },
        }
        portable level => fill(mode.at(level), src, dst, scalar),
    })
}

simd_fn! { avx2:
/// f32 to bf16 rounding half to even on the bits: adding 0x7FFF plus the kept bit's parity
/// carries into the upper half exactly when the dropped half is above one half, or exactly one
/// half with an odd kept bit; a carry out of the mantissa moves into the exponent, up to
/// infinity, and subnormals need nothing special since bf16 has f32's exponent range. The
/// exact path's infinity, overflow and -0 codes are these under every rule set
/// ([`super::encode::Narrow::ieee_specials`], held by a test); NaN lanes get the exact
/// path's, by sign.
fn f32_to_bf16_rne_v3(
    src: &[f32],
    dst: &mut [MaybeUninit<bf16>],
    scalar: impl Fn(f32) -> bf16 + Copy,
    stream: bool,
) {
    let nan = nan_codes(scalar, bf16::to_bits);
    let (pos, neg) = (
        _mm256_set1_epi32(i32::from(nan.0)),
        _mm256_set1_epi32(i32::from(nan.1)),
    );
    let (abs, inf) = (
        _mm256_set1_epi32(0x7FFF_FFFF),
        _mm256_set1_epi32(0x7F80_0000),
    );
    let (half, one) = (_mm256_set1_epi32(0x7FFF), _mm256_set1_epi32(1));
    // Eight codes in the low halves of 32-bit lanes.
    let round = |x: __m256i| {
        let odd = _mm256_and_si256(_mm256_srli_epi32::<16>(x), one);
        let r = _mm256_srli_epi32::<16>(_mm256_add_epi32(x, _mm256_add_epi32(half, odd)));
        let is_nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, abs), inf);
        let code = _mm256_blendv_epi8(pos, neg, _mm256_srai_epi32::<31>(x));
        _mm256_blendv_epi8(r, code, is_nan)
    };
    blocks::<_, _, 16, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 16 elements (unaligned loads); `d` is 32 aligned bytes.
        unsafe {
            let lo = round(_mm256_loadu_si256(s.as_ptr().cast()));
            let hi = round(_mm256_loadu_si256(s.as_ptr().add(8).cast()));
            // The pack interleaves the 128-bit halves; the permutation restores their order.
            let h = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(lo, hi));
            store(d, h, stream);
        }
    });
}
}

simd_fn! { avx2:
/// Replaces the NaN lanes of sixteen f16 codes by `pos` or `neg`, by their sign.
#[inline]
fn fix_f16_nans(h: __m256i, pos: __m256i, neg: __m256i) -> __m256i {
    let mag = _mm256_and_si256(h, _mm256_set1_epi16(0x7FFF));
    let is_nan = _mm256_cmpgt_epi16(mag, _mm256_set1_epi16(0x7C00));
    let code = _mm256_blendv_epi8(pos, neg, _mm256_srai_epi16(h, 15));
    _mm256_blendv_epi8(h, code, is_nan)
}
}

simd_fn! { avx2:
/// Two vectors converted per step, stored as one aligned 32-byte register.
fn f32_to_f16_v3(
    src: &[f32],
    dst: &mut [MaybeUninit<f16>],
    scalar: impl Fn(f32) -> f16 + Copy,
    stream: bool,
) {
    let nan = nan_codes(scalar, f16::to_bits);
    let (pos, neg) = (
        _mm256_set1_epi16(nan.0 as i16),
        _mm256_set1_epi16(nan.1 as i16),
    );
    blocks::<_, _, 16, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 16 elements (unaligned loads); `d` is 32 aligned bytes.
        unsafe {
            let lo = _mm256_cvtps_ph::<NEAREST>(_mm256_loadu_ps(s.as_ptr()));
            let hi = _mm256_cvtps_ph::<NEAREST>(_mm256_loadu_ps(s.as_ptr().add(8)));
            let h = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
            store(d, fix_f16_nans(h, pos, neg), stream);
        }
    });
}
}

simd_fn! { avx512:
/// Sixteen f32 converted to f16 by `vcvtps2ph` (rounding to nearest even, no exceptions).
#[inline]
fn cvt16(x: __m512) -> __m256i {
    _mm512_cvtps_ph::<NEAREST>(x)
}
}

simd_fn! { avx512:
/// Two vectors converted per step and stored as one whole, aligned cache line; the NaN lanes
/// found and replaced with mask registers. Converting into a register rather than storing
/// straight from `vcvtps2ph` also keeps off its memory form, which is microcoded and slow on
/// AMD Zen 4.
fn f32_to_f16_v4(
    src: &[f32],
    dst: &mut [MaybeUninit<f16>],
    scalar: impl Fn(f32) -> f16 + Copy,
    stream: bool,
) {
    let nan = nan_codes(scalar, f16::to_bits);
    let (pos, neg) = (
        _mm512_set1_epi16(nan.0 as i16),
        _mm512_set1_epi16(nan.1 as i16),
    );
    let (abs, inf) = (_mm512_set1_epi16(0x7FFF), _mm512_set1_epi16(0x7C00));
    blocks::<_, _, 32, 64>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 32 elements (unaligned loads); `d` is 64 aligned bytes.
        unsafe {
            let lo = cvt16(_mm512_loadu_ps(s.as_ptr()));
            let hi = cvt16(_mm512_loadu_ps(s.as_ptr().add(16)));
            let h = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
            let is_nan = _mm512_cmpgt_epi16_mask(_mm512_and_si512(h, abs), inf);
            let code = _mm512_mask_blend_epi16(_mm512_movepi16_mask(h), pos, neg);
            store(d, _mm512_mask_blend_epi16(is_nan, h, code), stream);
        }
    });
}
}

simd_fn! { avx2:
/// Two vectors per step, each stored aligned.
fn f16_to_f32_v3(
    src: &[f16],
    dst: &mut [MaybeUninit<f32>],
    scalar: impl Fn(f16) -> f32 + Copy,
    stream: bool,
) {
    let (abs, inf) = (
        _mm256_set1_epi32(0x7FFF_FFFF),
        _mm256_set1_epi32(0x7F80_0000),
    );
    let (sign, quiet) = (
        _mm256_set1_epi32(0x8000_0000_u32 as i32),
        _mm256_set1_epi32(0x7FC0_0000),
    );
    let widen = |h: __m128i| {
        let x = _mm256_castps_si256(_mm256_cvtph_ps(h));
        let is_nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, abs), inf);
        let canonical = _mm256_or_si256(_mm256_and_si256(x, sign), quiet);
        _mm256_blendv_epi8(x, canonical, is_nan)
    };
    blocks::<_, _, 16, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 16 elements (unaligned load); `d` is 64 bytes from a 32-byte
        // boundary, so both halves are 32 aligned bytes.
        unsafe {
            let h = _mm256_loadu_si256(s.as_ptr().cast());
            let (lo, hi) = d.split_at_mut(8);
            store(lo, widen(_mm256_castsi256_si128(h)), stream);
            store(hi, widen(_mm256_extracti128_si256::<1>(h)), stream);
        }
    });
}
}

simd_fn! { avx512:
/// One vector per step, stored as one whole, aligned cache line.
fn f16_to_f32_v4(
    src: &[f16],
    dst: &mut [MaybeUninit<f32>],
    scalar: impl Fn(f16) -> f32 + Copy,
    stream: bool,
) {
    let (abs, inf) = (
        _mm512_set1_epi32(0x7FFF_FFFF),
        _mm512_set1_epi32(0x7F80_0000),
    );
    let (sign, quiet) = (
        _mm512_set1_epi32(0x8000_0000_u32 as i32),
        _mm512_set1_epi32(0x7FC0_0000),
    );
    blocks::<_, _, 16, 64>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 16 elements (unaligned load); `d` is 64 aligned bytes.
        unsafe {
            let h = _mm256_loadu_si256(s.as_ptr().cast());
            let x = _mm512_castps_si512(_mm512_cvtph_ps(h));
            let is_nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(x, abs), inf);
            let canonical = _mm512_or_si512(_mm512_and_si512(x, sign), quiet);
            store(d, _mm512_mask_blend_epi32(is_nan, x, canonical), stream);
        }
    });
}
}

simd_fn! { avx512bf16:
/// One vector per step through `vcvtneps2bf16`; a block holding a subnormal goes through
/// `scalar` instead (the instruction treats them as zero).
fn f32_to_bf16_v4(
    src: &[f32],
    dst: &mut [MaybeUninit<bf16>],
    scalar: impl Fn(f32) -> bf16 + Copy,
    stream: bool,
) {
    let nan = nan_codes(scalar, bf16::to_bits);
    let (pos, neg) = (
        _mm256_set1_epi16(nan.0 as i16),
        _mm256_set1_epi16(nan.1 as i16),
    );
    let (abs, exp, inf) = (
        _mm512_set1_epi32(0x7FFF_FFFF),
        _mm512_set1_epi32(0x7F80_0000),
        _mm512_set1_epi32(0x7F80_0000),
    );
    let zero = _mm512_setzero_si512();
    blocks::<_, _, 16, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 16 elements (unaligned load); `d` is 32 aligned bytes;
        // __m256bh and __m256i are both 32 plain bytes.
        unsafe {
            let x = _mm512_loadu_ps(s.as_ptr());
            let bits = _mm512_castps_si512(x);
            let mag = _mm512_and_si512(bits, abs);
            let nonzero = _mm512_cmpneq_epi32_mask(mag, zero);
            let subnormal =
                _mm512_mask_cmpeq_epi32_mask(nonzero, _mm512_and_si512(bits, exp), zero);
            if subnormal != 0 {
                return fill_plain(s, d, scalar);
            }
            let h: __m256i = std::mem::transmute(_mm512_cvtneps_pbh(x));
            let is_nan = _mm512_cmpgt_epi32_mask(mag, inf);
            let code = _mm256_mask_blend_epi16(_mm512_movepi32_mask(bits), pos, neg);
            store(d, _mm256_mask_blend_epi16(is_nan, h, code), stream);
        }
    });
}
}

/// How f32 values become INT4 or UINT4 codes (docs/semantics.md §3.2).
#[derive(Clone, Copy, Debug)]
pub(super) enum Nibbles {
    /// Cast-24 and later into INT4: round half to even, keep the low four bits, sign-extended;
    /// NaN, infinities (and |x| >= 2^27, multiples of 16) give 0.
    WrapSigned,
    /// Cast-24 and later into UINT4: the same, the low four bits as they are.
    WrapUnsigned,
    /// Cast-23 and earlier: clamp to [lo, hi], then round half to even; NaN gives 0.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        expect(dead_code, reason = "the bounds are read by the x86-64 kernel only")
    )]
    Clamp(f32, f32),
}

/// f32 to INT4 / UINT4 (one element per byte) by `how`: an AVX2 kernel where the level has
/// it (AVX-512 included), since the scalar function, vectorised by the compiler, narrows its i32 lanes to bytes
/// with a shuffle per eight lanes and stayed compute-bound at AVX2; `scalar` (the same rules)
/// does the other levels, heads and tails.
pub(super) fn f32_to_nibbles<D: crate::stream::NoPadding>(
    mode: Mode,
    src: &[f32],
    dst: &mut [MaybeUninit<D>],
    how: Nibbles,
    scalar: impl Fn(f32) -> D + Copy,
) {
    const { assert!(size_of::<D>() == 1) };
    by_level!((mode.level.min(SimdLevel::detected()), how) => {
        x86_64 {
            // The AVX2 kernel at AVX-512 too: in cache it ran 1.6x the compiler's AVX-512 loop.
            // SAFETY: the level (at most what the CPU has) is at least AVX2; D is one byte.
            (SimdLevel::Avx2 | SimdLevel::Avx512, Nibbles::WrapSigned) => unsafe {
                f32_to_nibbles_v3::<D, false, true>(src, dst, (0.0, 0.0), scalar, mode.stream)
            },
            // SAFETY: as above.
            (SimdLevel::Avx2 | SimdLevel::Avx512, Nibbles::WrapUnsigned) => unsafe {
                f32_to_nibbles_v3::<D, false, false>(src, dst, (0.0, 0.0), scalar, mode.stream)
            },
            // SAFETY: as above.
            (SimdLevel::Avx2 | SimdLevel::Avx512, Nibbles::Clamp(lo, hi)) => unsafe {
                f32_to_nibbles_v3::<D, true, false>(src, dst, (lo, hi), scalar, mode.stream)
            },
        }
        portable (level, _) => fill(mode.at(level), src, dst, scalar),
    })
}

simd_fn! { avx2:
/// Four vectors of eight per step, each rounded half to even by `vroundps` (explicit
/// immediate) and converted exactly; then brought into -8..=7 or 0..=15 in i32 lanes and
/// narrowed by two saturating packs (exact, the values being that small) and one
/// permutation, into one aligned store of 32 codes: the values `D::from_bits` would build
/// (the sign-extended nibble for INT4, the nibble for UINT4).
///
/// Wrapping (`CLAMP` false): NaN and |x| >= 2^31 convert to i32::MIN, whose low nibble is 0,
/// as the rules want; from 2^27 up every f32 is a multiple of 16, low nibble 0 too.
/// Clamping: `max` gives its second operand (`lo`) for a NaN lane, so NaN lanes are zeroed
/// by an ordered comparison.
fn f32_to_nibbles_v3<D, const CLAMP: bool, const SIGNED: bool>(
    src: &[f32],
    dst: &mut [MaybeUninit<D>],
    (lo, hi): (f32, f32),
    scalar: impl Fn(f32) -> D + Copy,
    stream: bool,
) {
    let (lo, hi) = (_mm256_set1_ps(lo), _mm256_set1_ps(hi));
    let nibble = _mm256_set1_epi32(0x0F);
    let codes = |x: __m256| {
        let c = match CLAMP {
            true => _mm256_min_ps(_mm256_max_ps(x, lo), hi),
            false => x,
        };
        let r = _mm256_round_ps::<NEAREST>(c);
        let n = _mm256_cvttps_epi32(r);
        match (CLAMP, SIGNED) {
            (true, _) => {
                _mm256_and_si256(n, _mm256_castps_si256(_mm256_cmp_ps::<_CMP_ORD_Q>(x, x)))
            }
            (false, true) => _mm256_srai_epi32::<28>(_mm256_slli_epi32::<28>(n)),
            (false, false) => _mm256_and_si256(n, nibble),
        }
    };
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    blocks::<_, _, 32, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 32 elements (unaligned loads); `d` is 32 aligned bytes (D is one
        // byte).
        unsafe {
            let p = s.as_ptr();
            let n = [0, 8, 16, 24].map(|k| codes(_mm256_loadu_ps(p.add(k))));
            let ab = _mm256_packs_epi32(n[0], n[1]);
            let cd = _mm256_packs_epi32(n[2], n[3]);
            // The packs interleave 128-bit halves: dwords come out as a0 b0 c0 d0 | a1 b1
            // c1 d1 (four codes each); the permutation puts them in source order.
            let v = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(ab, cd), order);
            store(d, v, stream);
        }
    });
}
}
