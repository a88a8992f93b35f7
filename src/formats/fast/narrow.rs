//! The float8 and FLOAT4E2M1 encoders in vector registers, from f32, FLOAT16 and BFLOAT16:
//! [`Narrow::encode`]'s arithmetic lane for lane (the same additions, shifts and comparisons,
//! the selects done with masks), with the source widened to f32 in the register it was loaded
//! into. The codes are narrowed to bytes by saturating packs (exact: every code fits a byte)
//! and one permutation, and stored as one aligned register.
//!
//! The subnormal rounding is an f32 addition, as in the scalar encoder: it rounds by MXCSR's
//! mode, which Rust leaves at round to nearest even with FTZ and DAZ off.
//! Heads, tails and levels below AVX2 go through the scalar encoder.
//!
//! The special values cost fewer operations than the scalar encoder's three selects by sign,
//! through two shortcuts that the exact path's codes allow ([`shortcuts_hold`], checked on
//! every call; where they do not hold, the scalar encoder does the whole call):
//! * finite overflow (and infinity) is the magnitude clamped: the overflow code is the largest
//!   finite magnitude (saturation) or the next code (infinity, NaN or the FNUZ NaN), with the
//!   sign bit of the source, so a minimum replaces a comparison and two selects;
//! * a zero takes the source's sign bit like any other value, except in the FNUZ formats,
//!   which have no -0 (known from the format, so the choice costs nothing per element).
//!
//! NaN keeps its select by sign: FLOAT4E2M1's NaN codes are not symmetric.
//!
//! A 16-bit source whose normal range covers the target's (FLOAT16 to every target but
//! FLOAT8E5M2FNUZ, BFLOAT16 to all five) is encoded in 16-bit lanes, twice as many per
//! register: the same rounding on its own bits, rebiased, for the target's normal values; only
//! the target's subnormal lanes are widened to f32 for the addition that rounds them. Where
//! the two share exponent field and bias (FLOAT16 to FLOAT8E5M2) the rounded bits are the code
//! for the subnormals too, and nothing is widened. At AVX-512 and AVX2, the pairs whose
//! negative codes are the positive ones with the sign flipped go to `table16.rs` instead, which
//! rounds the subnormal lanes in 16-bit lanes too.
//!
//! At AVX2, and at AVX-512 where `table16.rs` serves the target, an f32 source goes through
//! bf16 rounded to odd and then the 16-bit-lane kernels (`odd16.rs`), which gives the same
//! codes for fewer operations.

use super::super::codec::Specials;
use super::encode::{Narrow, Target, Wide};
use super::kernel::by_level;
use super::map::{fill, Mode};
use super::odd16;
use super::table16::Table16;
use crate::tuning::{simd_fn, SimdLevel};
use std::mem::MaybeUninit;

#[cfg(target_arch = "x86_64")]
use super::encode::WideFrom;
#[cfg(target_arch = "x86_64")]
use super::kernel::{blocks, store};
#[cfg(target_arch = "x86_64")]
use super::table16;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Encodes `src` into the one-byte format `T` by `n` (whose constants are `T`'s under the
/// call's rules); `scalar` is the same encoder per element.
pub(super) fn encode<S: Wide, T: Target>(
    mode: Mode,
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    n: &Narrow,
    scalar: impl Fn(S) -> T + Copy,
) {
    let level = mode.level.min(SimdLevel::detected());
    if let Some(route) = odd16::route::<S, T>(level, n) {
        // SAFETY: `route` holds `S` to be f32.
        let src = unsafe { std::slice::from_raw_parts(src.as_ptr().cast::<f32>(), src.len()) };
        return odd16::encode(mode.at(level), src, dst, n, route);
    }
    encoder(mode.at(level), n, scalar)(src, dst)
}

/// [`encode`] without the route through bf16, its choice of kernel made once: the returned
/// function encodes a `src` into a `dst` as `encode` does (`odd16.rs` calls it per chunk).
pub(super) fn encoder<'a, S: Wide, T: Target>(
    mode: Mode,
    n: &'a Narrow,
    scalar: impl Fn(S) -> T + Copy + 'a,
) -> impl Fn(&[S], &mut [MaybeUninit<T>]) + 'a {
    let level = mode.level.min(SimdLevel::detected());
    let vector = shortcuts_hold::<T>(n);
    let lanes16 = vector && lanes16_fit::<S, T>();
    // Built only where a kernel reads it: at AVX2, the table by height.
    let table = match level {
        SimdLevel::Avx512 | SimdLevel::Avx2 if lanes16 => Table16::new::<S, T>(n),
        _ => None,
    };
    let heights = match level {
        SimdLevel::Avx2 => table.as_ref().and_then(Table16::by_height),
        _ => None,
    };
    move |src, dst| {
        by_level!((level, vector, lanes16, &table, &heights) => {
            x86_64 {
                (SimdLevel::Avx512, _, _, Some(t), _) => {
                    // SAFETY: the level is at most what the CPU has; the function needs only its
                    // features.
                    unsafe { table16::encode_v4(src, dst, t, scalar, mode.stream) }
                },
                (SimdLevel::Avx2, _, _, Some(t), Some(d)) => {
                    // SAFETY: as above.
                    unsafe { table16::encode_v3(src, dst, t, d, scalar, mode.stream) }
                },
                // SAFETY: as above.
                (SimdLevel::Avx512, _, true, _, _) => unsafe { lanes16_v4(src, dst, n, scalar, mode.stream) },
                // SAFETY: as above.
                (SimdLevel::Avx2, _, true, _, _) => unsafe { lanes16_v3(src, dst, n, scalar, mode.stream) },
                // SAFETY: as above.
                (SimdLevel::Avx512, true, _, _, _) => unsafe { encode_v4(src, dst, n, scalar, mode.stream) },
                // SAFETY: as above.
                (SimdLevel::Avx2, true, _, _, _) => unsafe { encode_v3(src, dst, n, scalar, mode.stream) },
            }
            portable (level, _, _, _, _) => fill(mode.at(level), src, dst, scalar),
        })
    }
}

/// Whether `S` is a 16-bit IEEE format whose normal range reaches down to `T`'s smallest
/// normal, with a longer mantissa: then `T`'s normal codes are `S`'s bits rounded and rebiased,
/// in 16-bit lanes (`lanes16_v3`, `lanes16_v4`).
pub(super) fn lanes16_fit<S: Wide, T: Target>() -> bool {
    let (s, t) = (S::ROW, T::ROW);
    size_of::<S>() == 2
        && s.specials == Specials::Ieee
        && 1 - t.bias >= 1 - s.bias
        && s.mant_bits > t.mant_bits
}

/// Whether `S` and `T` share exponent field and bias: then `S`'s subnormals round to `T`'s
/// by the same bit arithmetic as its normals, and the 16-bit-lane kernels skip the f32 path.
pub(super) fn same_exponent<S: Wide, T: Target>() -> bool {
    let (s, t) = (S::ROW, T::ROW);
    (s.exp_bits, s.bias) == (t.exp_bits, t.bias)
}

/// The constants of the 16-bit-lane kernels, as 16-bit lane values (wrapping) and shift
/// counts.
#[cfg(target_arch = "x86_64")]
struct Lanes16 {
    /// `S`'s mantissa bits minus `T`'s.
    shift: i32,
    /// Round half to even and rebias in one addition (as [`round_rebiased`] for f32 lanes).
    round: i16,
    /// `S`'s bits of `T`'s smallest normal: below it, the f32 path.
    min_normal: i16,
    /// `S`'s bits of infinity: above it, NaN.
    inf: i16,
    /// How far `S`'s sign bit moves down to `T`'s.
    sign_down: i32,
}

#[cfg(target_arch = "x86_64")]
impl Lanes16 {
    fn new<S: Wide, T: Target>() -> Lanes16 {
        let (s, t) = (S::ROW, T::ROW);
        let shift = s.mant_bits - t.mant_bits;
        let rebias = ((s.bias - t.bias) << t.mant_bits) << shift;
        Lanes16 {
            shift: shift as i32,
            round: (((1i32 << (shift - 1)) - 1) - rebias) as i16,
            min_normal: ((1 - t.bias + s.bias) << s.mant_bits) as i16,
            inf: (((1 << s.exp_bits) - 1) << s.mant_bits) as i16,
            sign_down: ((s.exp_bits + s.mant_bits) - (t.exp_bits + t.mant_bits)) as i32,
        }
    }
}

/// Whether a zero of format `T` keeps the source's sign: everywhere but in the FNUZ formats.
fn signed_zero<T: Target>() -> bool {
    T::ROW.specials != Specials::Fnuz
}

/// Whether the vector kernels' shortcuts (module documentation) give the exact path's codes
/// under the rules `n` was made for: the overflow codes are the largest finite magnitude or the
/// code after it, with the source's sign bit, and -0 gives the sign bit alone, or 0 in FNUZ.
pub(super) fn shortcuts_hold<T: Target>(n: &Narrow) -> bool {
    let (positive, negative) = n.overflow;
    let zero = if signed_zero::<T>() { n.sign } else { 0 };
    (positive == n.max || positive == n.max + 1)
        && negative == positive | n.sign
        && n.neg_zero == zero
}

/// The f32-lane kernels' rounding and rebiasing in one addition: `Narrow`'s rounding constant
/// less its rebias shifted up to the f32 mantissa, so that the rebias comes off before the
/// shift. Lanes where that wraps are subnormal lanes, whose normal value is not used.
#[cfg(target_arch = "x86_64")]
fn round_rebiased(n: &Narrow) -> u32 {
    n.round.wrapping_sub(n.rebias << n.shift)
}

/// The permutation that puts the dwords of two rounds of saturating packs back in source
/// order. A 128-bit lane `k` of the packed register holds, as dwords, the `k`-th four codes of
/// each of the four source registers in turn; output dword `4j + k` must be register `j`'s
/// `k`-th four, which is packed dword `4k + j`.
#[cfg(target_arch = "x86_64")]
pub(super) const fn unpack_order<const N: usize>() -> [i32; N] {
    let lanes = N / 4;
    let mut order = [0; N];
    let mut i = 0;
    while i < N {
        let (j, k) = (i / lanes, i % lanes);
        order[i] = (4 * k + j) as i32;
        i += 1;
    }
    order
}

simd_fn! { avx2:
/// Eight lanes per register, four registers (32 codes) per aligned 32-byte store.
fn encode_v3<S: Wide, T: Target>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    n: &Narrow,
    scalar: impl Fn(S) -> T + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    let c = |v: u32| _mm256_set1_epi32(v as i32);
    let (abs, inf, one) = (c(0x7FFF_FFFF), c(0x7F80_0000), c(1));
    let (magic, magic_ps) = (c(n.magic), _mm256_set1_ps(f32::from_bits(n.magic)));
    let shift = _mm_cvtsi32_si128(n.shift as i32);
    let round = c(round_rebiased(n));
    let (min_normal, over, sign) = (c(n.min_normal), c(n.overflow.0), c(n.sign));
    let (nan_pos, nan_neg) = (c(n.nan.0), c(n.nan.1));
    let zero = _mm256_setzero_si256();
    let signed_zero = signed_zero::<T>();
    let codes = |x: __m256i| {
        let a = _mm256_and_si256(x, abs);
        let sum = _mm256_add_ps(_mm256_castsi256_ps(a), magic_ps);
        let sub = _mm256_sub_epi32(_mm256_castps_si256(sum), magic);
        let odd = _mm256_and_si256(_mm256_srl_epi32(a, shift), one);
        let normal = _mm256_srl_epi32(_mm256_add_epi32(_mm256_add_epi32(a, round), odd), shift);
        // Signed comparison: every lane that is not NaN is below 2^31 here; NaN lanes are
        // replaced at the end.
        let mag = _mm256_blendv_epi8(normal, sub, _mm256_cmpgt_epi32(min_normal, a));
        let mag = _mm256_min_epu32(mag, over);
        // Chosen by the sign of `x` itself: `vblendvps` reads each lane's top bit.
        let by_sign = |pos: __m256i, neg: __m256i| {
            let (pos, neg) = (_mm256_castsi256_ps(pos), _mm256_castsi256_ps(neg));
            _mm256_castps_si256(_mm256_blendv_ps(pos, neg, _mm256_castsi256_ps(x)))
        };
        let signs = match signed_zero {
            true => by_sign(zero, sign),
            false => _mm256_andnot_si256(_mm256_cmpeq_epi32(mag, zero), by_sign(zero, sign)),
        };
        let r = _mm256_or_si256(mag, signs);
        _mm256_blendv_epi8(r, by_sign(nan_pos, nan_neg), _mm256_cmpgt_epi32(a, inf))
    };
    let order = {
        let o = unpack_order::<8>();
        _mm256_setr_epi32(o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7])
    };
    blocks::<_, _, 32, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 32 elements (unaligned loads of 8 each); `d` is 32 aligned bytes
        // (T is one byte). Every code is one `T::from_code` builds (the tests hold each to the
        // scalar encoder), and the one-byte formats are plain bytes.
        unsafe {
            let p = s.as_ptr();
            // One call site, so that the encoder is inlined (called from four, it was not).
            let mut n = [_mm256_setzero_si256(); 4];
            for (k, v) in n.iter_mut().enumerate() {
                *v = codes(widen8(p.add(8 * k)));
            }
            let ab = _mm256_packus_epi32(n[0], n[1]);
            let cd = _mm256_packus_epi32(n[2], n[3]);
            let v = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), order);
            store(d, v, stream);
        }
    });
}
}

simd_fn! { avx2:
/// Eight elements from `p` as f32 bits, widened exactly.
///
/// # Safety
/// `p` must be valid for reading eight elements.
#[inline]
unsafe fn widen8<S: Wide>(p: *const S) -> __m256i {
    // SAFETY: the caller's contract; each load reads eight elements.
    unsafe {
        match S::FROM {
            WideFrom::F32 => _mm256_loadu_si256(p.cast()),
            WideFrom::F16 => _mm256_castps_si256(_mm256_cvtph_ps(_mm_loadu_si128(p.cast()))),
            WideFrom::Bf16 => {
                _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(_mm_loadu_si128(p.cast())))
            }
        }
    }
}
}

simd_fn! { avx512:
/// Sixteen lanes per register, four registers (64 codes) per aligned 64-byte store; the
/// selects by mask registers.
fn encode_v4<S: Wide, T: Target>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    n: &Narrow,
    scalar: impl Fn(S) -> T + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    let c = |v: u32| _mm512_set1_epi32(v as i32);
    let (abs, inf, one) = (c(0x7FFF_FFFF), c(0x7F80_0000), c(1));
    let (magic, magic_ps) = (c(n.magic), _mm512_set1_ps(f32::from_bits(n.magic)));
    let shift = _mm_cvtsi32_si128(n.shift as i32);
    let round = c(round_rebiased(n));
    let (min_normal, over, sign) = (c(n.min_normal), c(n.overflow.0), c(n.sign));
    let (nan_pos, nan_neg) = (c(n.nan.0), c(n.nan.1));
    let signed_zero = signed_zero::<T>();
    let codes = |x: __m512i| {
        let a = _mm512_and_si512(x, abs);
        let sum = _mm512_add_ps(_mm512_castsi512_ps(a), magic_ps);
        let sub = _mm512_sub_epi32(_mm512_castps_si512(sum), magic);
        let odd = _mm512_and_si512(_mm512_srl_epi32(a, shift), one);
        let normal = _mm512_srl_epi32(_mm512_add_epi32(_mm512_add_epi32(a, round), odd), shift);
        // Signed comparison: every lane that is not NaN is below 2^31 here; NaN lanes are
        // replaced at the end.
        let mag = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(a, min_normal), normal, sub);
        let mag = _mm512_min_epu32(mag, over);
        let negative = _mm512_movepi32_mask(x);
        let signed = match signed_zero {
            true => negative,
            false => negative & _mm512_test_epi32_mask(mag, mag),
        };
        let r = _mm512_mask_or_epi32(mag, signed, mag, sign);
        let nan = _mm512_mask_blend_epi32(negative, nan_pos, nan_neg);
        _mm512_mask_blend_epi32(_mm512_cmpgt_epi32_mask(a, inf), r, nan)
    };
    let order = {
        let o = unpack_order::<16>();
        _mm512_setr_epi32(
            o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12],
            o[13], o[14], o[15],
        )
    };
    blocks::<_, _, 64, 64>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 64 elements (unaligned loads of 16 each); `d` is 64 aligned bytes
        // (T is one byte). Every code is one `T::from_code` builds, as in `encode_v3`.
        unsafe {
            let p = s.as_ptr();
            // One call site, as in `encode_v3`.
            let mut n = [_mm512_setzero_si512(); 4];
            for (k, v) in n.iter_mut().enumerate() {
                *v = codes(widen16(p.add(16 * k)));
            }
            let ab = _mm512_packus_epi32(n[0], n[1]);
            let cd = _mm512_packus_epi32(n[2], n[3]);
            let v = _mm512_permutexvar_epi32(order, _mm512_packus_epi16(ab, cd));
            store(d, v, stream);
        }
    });
}
}

simd_fn! { avx512:
/// Sixteen elements from `p` as f32 bits, widened exactly.
///
/// # Safety
/// `p` must be valid for reading sixteen elements.
#[inline]
unsafe fn widen16<S: Wide>(p: *const S) -> __m512i {
    // SAFETY: the caller's contract; each load reads sixteen elements.
    unsafe {
        match S::FROM {
            WideFrom::F32 => _mm512_loadu_si512(p.cast()),
            WideFrom::F16 => _mm512_castps_si512(_mm512_cvtph_ps(_mm256_loadu_si256(p.cast()))),
            WideFrom::Bf16 => {
                _mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(_mm256_loadu_si256(p.cast())))
            }
        }
    }
}
}

simd_fn! { avx2:
/// [`lanes16_fit`] pairs in 16-bit lanes: sixteen per register, two registers (32 codes) per
/// aligned 32-byte store. Normal codes: the magnitude rounded half to even and rebiased, as in
/// `encode_v3`, in 16-bit lanes; subnormal ones (unless [`same_exponent`]): the magnitudes
/// widened to f32 and rounded by the addition of `encode_v3`, packed back. The clamp, sign and
/// NaN as in `encode_v3`.
fn lanes16_v3<S: Wide, T: Target>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    n: &Narrow,
    scalar: impl Fn(S) -> T + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    // Not a `const` assertion: the kernel is compiled for every source, called for 16-bit ones.
    assert_eq!(size_of::<S>(), 2, "a 16-bit-lane kernel on a wider source");
    let k = Lanes16::new::<S, T>();
    let widen_subnormals = !same_exponent::<S, T>();
    let c = |v: u32| _mm256_set1_epi16(v as i16);
    let (abs, one, zero) = (c(0x7FFF), c(1), _mm256_setzero_si256());
    let (round, min_normal, inf) = (
        _mm256_set1_epi16(k.round),
        _mm256_set1_epi16(k.min_normal),
        _mm256_set1_epi16(k.inf),
    );
    let (shift, sign_down) = (_mm_cvtsi32_si128(k.shift), _mm_cvtsi32_si128(k.sign_down));
    let (magic, magic_ps) = (
        _mm256_set1_epi32(n.magic as i32),
        _mm256_set1_ps(f32::from_bits(n.magic)),
    );
    let (over, sign) = (c(n.overflow.0), c(n.sign));
    let (nan_pos, nan_neg) = (c(n.nan.0), c(n.nan.1));
    let signed_zero = signed_zero::<T>();
    // Codes of target subnormals from eight f32 magnitudes, as in `encode_v3`.
    let sub32 = |f: __m256i| {
        let sum = _mm256_add_ps(_mm256_castsi256_ps(f), magic_ps);
        _mm256_sub_epi32(_mm256_castps_si256(sum), magic)
    };
    let codes = |h: __m256i| {
        let a = _mm256_and_si256(h, abs);
        let odd = _mm256_and_si256(_mm256_srl_epi16(a, shift), one);
        // Wrapping in 16 bits: exact for every normal lane; lanes below the smallest normal
        // take the subnormal codes.
        let normal = _mm256_srl_epi16(_mm256_add_epi16(_mm256_add_epi16(a, round), odd), shift);
        let mag = if widen_subnormals {
            let sub = match S::FROM {
                // The code in the upper half of each f32: the unpacks interleave within 128-bit
                // halves, and the pack below undoes exactly that.
                WideFrom::Bf16 => _mm256_packus_epi32(
                    sub32(_mm256_unpacklo_epi16(zero, a)),
                    sub32(_mm256_unpackhi_epi16(zero, a)),
                ),
                // In order; the pack interleaves 128-bit halves, the permutation restores them.
                _ => {
                    let lo = _mm256_castps_si256(_mm256_cvtph_ps(_mm256_castsi256_si128(a)));
                    let hi = _mm256_castps_si256(_mm256_cvtph_ps(_mm256_extracti128_si256::<1>(a)));
                    _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(sub32(lo), sub32(hi)))
                }
            };
            // Signed comparison: `a` has no sign bit.
            _mm256_blendv_epi8(normal, sub, _mm256_cmpgt_epi16(min_normal, a))
        } else {
            normal
        };
        let mag = _mm256_min_epu16(mag, over);
        let negative = _mm256_srai_epi16::<15>(h);
        let signs = _mm256_and_si256(_mm256_srl_epi16(h, sign_down), sign);
        let signs = match signed_zero {
            true => signs,
            false => _mm256_andnot_si256(_mm256_cmpeq_epi16(mag, zero), signs),
        };
        let r = _mm256_or_si256(mag, signs);
        let nan = _mm256_blendv_epi8(nan_pos, nan_neg, negative);
        // Signed comparison: `a` has no sign bit.
        _mm256_blendv_epi8(r, nan, _mm256_cmpgt_epi16(a, inf))
    };
    blocks::<_, _, 32, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 32 two-byte elements (unaligned loads of 16 each); `d` is 32 aligned
        // bytes (T is one byte). Every code is one `T::from_code` builds, as in `encode_v3`.
        unsafe {
            let p = s.as_ptr();
            let mut n = [_mm256_setzero_si256(); 2];
            for (k, v) in n.iter_mut().enumerate() {
                *v = codes(_mm256_loadu_si256(p.add(16 * k).cast()));
            }
            // The pack interleaves the 128-bit halves; the permutation restores their order.
            let v = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(n[0], n[1]));
            store(d, v, stream);
        }
    });
}
}

simd_fn! { avx512:
/// [`lanes16_fit`] pairs in 16-bit lanes, 32 per register, two registers (64 codes) per
/// aligned 64-byte store; otherwise `lanes16_v3` with mask registers.
fn lanes16_v4<S: Wide, T: Target>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    n: &Narrow,
    scalar: impl Fn(S) -> T + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    // Not a `const` assertion: the kernel is compiled for every source, called for 16-bit ones.
    assert_eq!(size_of::<S>(), 2, "a 16-bit-lane kernel on a wider source");
    let k = Lanes16::new::<S, T>();
    let widen_subnormals = !same_exponent::<S, T>();
    let c = |v: u32| _mm512_set1_epi16(v as i16);
    let (abs, one, zero) = (c(0x7FFF), c(1), _mm512_setzero_si512());
    let (round, min_normal, inf) = (
        _mm512_set1_epi16(k.round),
        _mm512_set1_epi16(k.min_normal),
        _mm512_set1_epi16(k.inf),
    );
    let shift = _mm_cvtsi32_si128(k.shift);
    let (magic, magic_ps) = (
        _mm512_set1_epi32(n.magic as i32),
        _mm512_set1_ps(f32::from_bits(n.magic)),
    );
    let (over, sign) = (c(n.overflow.0), c(n.sign));
    let (nan_pos, nan_neg) = (c(n.nan.0), c(n.nan.1));
    let signed_zero = signed_zero::<T>();
    // The pack interleaves 64-bit chunks of its two registers; `order` undoes it.
    let order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    let sub32 = |f: __m512i| {
        let sum = _mm512_add_ps(_mm512_castsi512_ps(f), magic_ps);
        _mm512_sub_epi32(_mm512_castps_si512(sum), magic)
    };
    let codes = |h: __m512i| {
        let a = _mm512_and_si512(h, abs);
        let odd = _mm512_and_si512(_mm512_srl_epi16(a, shift), one);
        // Wrapping in 16 bits, as in `lanes16_v3`.
        let normal = _mm512_srl_epi16(_mm512_add_epi16(_mm512_add_epi16(a, round), odd), shift);
        let mag = if widen_subnormals {
            let sub = match S::FROM {
                // As in `lanes16_v3`: unpacks within 128-bit lanes, undone by the pack.
                WideFrom::Bf16 => _mm512_packus_epi32(
                    sub32(_mm512_unpacklo_epi16(zero, a)),
                    sub32(_mm512_unpackhi_epi16(zero, a)),
                ),
                _ => {
                    let lo = _mm512_castps_si512(_mm512_cvtph_ps(_mm512_castsi512_si256(a)));
                    let hi = _mm512_castps_si512(_mm512_cvtph_ps(_mm512_extracti64x4_epi64::<1>(a)));
                    _mm512_permutexvar_epi64(order, _mm512_packus_epi32(sub32(lo), sub32(hi)))
                }
            };
            _mm512_mask_blend_epi16(_mm512_cmplt_epu16_mask(a, min_normal), normal, sub)
        } else {
            normal
        };
        let mag = _mm512_min_epu16(mag, over);
        let negative = _mm512_movepi16_mask(h);
        let signed = match signed_zero {
            true => negative,
            false => negative & _mm512_test_epi16_mask(mag, mag),
        };
        // Bitwise operations take 32-bit masks only: the sign goes in by a 16-bit blend.
        let r = _mm512_mask_blend_epi16(signed, mag, _mm512_or_si512(mag, sign));
        let nan = _mm512_mask_blend_epi16(negative, nan_pos, nan_neg);
        _mm512_mask_blend_epi16(_mm512_cmpgt_epu16_mask(a, inf), r, nan)
    };
    blocks::<_, _, 64, 64>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 64 two-byte elements (unaligned loads of 32 each); `d` is 64 aligned
        // bytes (T is one byte). Every code is one `T::from_code` builds, as in `encode_v3`.
        unsafe {
            let p = s.as_ptr();
            let mut n = [_mm512_setzero_si512(); 2];
            for (k, v) in n.iter_mut().enumerate() {
                *v = codes(_mm512_loadu_si512(p.add(32 * k).cast()));
            }
            let v = _mm512_permutexvar_epi64(order, _mm512_packus_epi16(n[0], n[1]));
            store(d, v, stream);
        }
    });
}
}
