//! f32 to the one-byte formats through BFLOAT16 rounded to odd ([`route`]), so that the
//! 16-bit-lane encoders, which do twice the lanes per register of the f32-lane ones, encode
//! f32 sources too. At AVX-512 the rounding is done in the registers of `table16.rs`'s kernel;
//! at AVX2 each chunk of the source is rounded into a buffer that stays in L1, and the buffer
//! goes through the encoder a bf16 source of the same target and rules runs (`narrow.rs`'s
//! 16-bit-lane kernels).
//!
//! Round-to-odd to bf16 keeps the top 16 bits of the f32 and sets the lowest of them if any
//! of the 16 bits dropped is set. Why rounding that to the target gives the f32's own code:
//! * Every one-byte target keeps at most 4 significant bits (3 mantissa bits and the implicit
//!   one), bf16 8, and bf16 has f32's exponent range. So each target value and each midpoint
//!   between two neighbours (with the exponent unbounded above, where the encoder decides
//!   overflow: its threshold is a midpoint too) is 0 or has at most 5 significant bits at an
//!   exponent of f32's normal range (the smallest non-zero one is 2^-18, half of
//!   FLOAT8E5M2FNUZ's smallest subnormal), so it is a bf16 value whose lowest bit is 0.
//! * An f32 that is a bf16 value stays as it is. Any other lies strictly between two
//!   neighbouring bf16 values, one with the lowest bit 0 and one with 1, and becomes the one
//!   with 1. No target value or midpoint lies strictly between the two, and neither of them is
//!   one (it is a bf16 with the lowest bit 0), so the f32 and its bf16 lie strictly between
//!   the same two consecutive points of {target values} ∪ {midpoints}: round half to even
//!   (no tie is involved) picks the same value for both, and so the same overflow decision.
//!   The sign never changes, so neither does a signed zero (an f32 subnormal is a bf16 of
//!   magnitude at most 2^-126, far below the target's smallest subnormal).
//! * ±0 and ±Inf are bf16 values. A NaN keeps its sign and exponent field; if its payload is
//!   only in the dropped bits, the sticky bit keeps the mantissa non-zero, so it stays a NaN,
//!   and the exact path gives a NaN by its sign alone.
//!
//! The rules (`saturate`, the generation) choose the encoder's overflow, NaN and -0 codes,
//! never its rounding: every float8, float6 and FLOAT4E2M1 target rounds half to even under
//! every rule set (`round_mode` is FLOAT8E8M0's alone, which has its own encoder). So the
//! route is taken for every rule set where the bf16 source runs a vector kernel of its own
//! ([`route`]); the tests hold the result to the exact path's at every level.

use super::encode::{Narrow, Target, Wide};
use super::kernel::by_level;
use super::map::{fill_plain, Mode};
use super::narrow::{self, shortcuts_hold};
#[cfg(target_arch = "x86_64")]
use super::table16;
#[cfg(target_arch = "x86_64")]
use super::table16::{Heights16, Table16};
use crate::tuning::{simd_fn, SimdLevel};
use half::bf16;
use std::any::TypeId;
use std::mem::MaybeUninit;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Source elements per chunk: 1 KiB of f32 become 512 bytes of bf16. Small, so that the
/// passes alternate often and the source's prefetches (8 KiB ahead, `crate::prefetch`) stay
/// in flight through the encoding passes: at 2 threads on 16M elements (Intel Xeon family 6
/// model 167, AVX2), chunks of 256 gave 8.3-8.5 Gelem/s medians, 128, 512, 1024 and 2048
/// 6.9-8.4.
const CHUNK: usize = 256;

/// The bf16 bits of the f32 `bits`, rounded to odd.
#[inline(always)]
pub(super) fn round_to_odd(bits: u32) -> u16 {
    ((bits >> 16) | u32::from(bits & 0xFFFF != 0)) as u16
}

/// How an f32 source reaches a 16-bit-lane encoder at one level ([`route`]).
#[derive(Debug)]
pub(super) enum Route {
    /// Rounded to odd in the registers of `table16.rs`'s AVX-512 kernel, encoded there by
    /// bf16's table.
    #[cfg(target_arch = "x86_64")]
    Fused512(Table16),
    /// The same in its AVX2 kernel, with the table by height.
    #[cfg(target_arch = "x86_64")]
    Fused256(Table16, Heights16),
    /// Rounded to odd a chunk at a time into a buffer, which the kernel of a bf16 source of
    /// the same target and rules encodes (at AVX2 where `table16.rs` does not serve the target:
    /// the FNUZ ones).
    #[cfg_attr(
        not(target_arch = "x86_64"),
        expect(dead_code, reason = "no level outside x86-64 has a 16-bit-lane kernel")
    )]
    Staged,
}

/// How an `S` to `T` call at `level` (at most what the CPU has) under the rules `n` was made
/// for goes through bf16, or `None` where it does not: `S` is f32, and a bf16 source at that
/// level runs a 16-bit-lane kernel (where it would run the scalar encoder, so would the f32
/// source). At AVX-512 only `table16.rs`'s, fused; at AVX2 that one fused, else staged, since
/// every one-byte target fits bf16's 16-bit lanes (`narrow::lanes16_fit`: bf16 has f32's
/// exponent range and more mantissa bits than any of them) where the rules' shortcuts hold.
///
/// At AVX2, measured at 2 threads on 16M elements (Intel Xeon family 6 model 167, 2 vCPUs),
/// the staged route took f32 to FLOAT6E2M3, FLOAT6E3M2, FLOAT8E4M3FN (saturating or not) and
/// FLOAT4E2M1 from 5.4-5.7 to 7.6-8.2 Gelem/s (medians; 0.48-0.52x to 0.67-0.75x memcpy). At
/// AVX-512 it ran no faster than the f32-lane kernel there (7.7-9.5 Gelem/s against 9.1-9.5):
/// the staging pass, which alone reads memory, overlaps the reads less than one loop does.
/// Fused, at both levels, it is faster on the model-207 Xeon (docs/performance.md).
pub(super) fn route<S: Wide, T: Target>(level: SimdLevel, n: &Narrow) -> Option<Route> {
    if TypeId::of::<S>() != TypeId::of::<f32>() || !shortcuts_hold::<T>(n) {
        return None;
    }
    by_level!(level => {
        x86_64 {
            SimdLevel::Avx512 => Table16::new::<bf16, T>(n).map(Route::Fused512),
            SimdLevel::Avx2 => Some(
                Table16::new::<bf16, T>(n)
                    .and_then(|t| t.by_height().map(|h| Route::Fused256(t, h)))
                    .unwrap_or(Route::Staged),
            ),
        }
        portable _ => None,
    })
}

/// Encodes the f32 `src` into `T` by `n` (as `narrow::encode`), through bf16 rounded to odd,
/// at `mode.level` (at most what the CPU has) by the `route` [`route`] gave for it.
pub(super) fn encode<T: Target>(
    mode: Mode,
    src: &[f32],
    dst: &mut [MaybeUninit<T>],
    n: &Narrow,
    route: Route,
) {
    #[cfg(target_arch = "x86_64")]
    let scalar = move |x: f32| T::from_code(u64::from(n.encode(x.to_bits())));
    match route {
        // SAFETY: `route` gives it at AVX-512 only, at most what the CPU has; the function
        // needs only that level's features.
        #[cfg(target_arch = "x86_64")]
        Route::Fused512(t) => unsafe { table16::encode_v4(src, dst, &t, scalar, mode.stream) },
        // SAFETY: as above, at AVX2.
        #[cfg(target_arch = "x86_64")]
        Route::Fused256(t, h) => unsafe {
            table16::encode_v3(src, dst, &t, &h, scalar, mode.stream)
        },
        Route::Staged => staged(mode, src, dst, n),
    }
}

/// [`encode`] through the staging buffer.
fn staged<T: Target>(mode: Mode, src: &[f32], dst: &mut [MaybeUninit<T>], n: &Narrow) {
    let scalar = move |h: bf16| T::from_code(u64::from(n.encode(h.f32_bits())));
    let encode16 = narrow::encoder(mode, n, scalar);
    // The first chunk runs up to a 64-byte boundary of the output and a chunk beyond, so that
    // every later chunk starts aligned and the 16-bit encoder's blocks have no scalar head.
    let mut buf = [MaybeUninit::<bf16>::uninit(); CHUNK + 63];
    let len = src.len().min(dst.len());
    let mut start = 0;
    let mut end = (dst.as_ptr().align_offset(64).min(63) + CHUNK).min(len);
    while start < len {
        let staged = &mut buf[..end - start];
        stage(mode.level, &src[start..end], staged);
        // SAFETY: `stage` wrote every element of `staged`; `MaybeUninit<bf16>` has bf16's
        // layout.
        let staged = unsafe { &*(staged as *const [MaybeUninit<bf16>] as *const [bf16]) };
        encode16(staged, &mut dst[start..end]);
        start = end;
        end = (end + CHUNK).min(len);
    }
}

/// Rounds `src` to odd into `staged` (of the same length), compiled for `level` (at most what
/// the CPU has), the source asked for ahead as the kernels do (`crate::prefetch`): this is the
/// pass that reads it from memory.
fn stage(level: SimdLevel, src: &[f32], staged: &mut [MaybeUninit<bf16>]) {
    by_level!(level => {
        x86_64 {
            // SAFETY: the level is at most what the CPU has, and AVX2 at least; the function
            // needs only the AVX2 level's features.
            SimdLevel::Avx2 | SimdLevel::Avx512 => unsafe { stage_v3(src, staged) },
        }
        portable _ => fill_plain(src, staged, odd),
    })
}

/// [`round_to_odd`] on an f32, for the heads and tails.
#[inline(always)]
fn odd(x: f32) -> bf16 {
    bf16::from_bits(round_to_odd(x.to_bits()))
}

simd_fn! { avx2:
/// 32 elements a step: each register of eight f32 rounded by [`round_to_odd_v3`], two of them
/// packed to 16 bits (exact: each lane is below 2^16).
fn stage_v3(src: &[f32], staged: &mut [MaybeUninit<bf16>]) {
    const STEP: usize = 32;
    let len = src.len().min(staged.len());
    let whole = len / STEP * STEP;
    for i in (0..whole).step_by(STEP) {
        crate::prefetch::ahead(src, i, STEP);
        // SAFETY: i + STEP <= whole <= the length of both: four loads of eight f32 and two
        // stores of sixteen bf16, unaligned.
        unsafe {
            let (p, d) = (src.as_ptr().add(i), staged.as_mut_ptr().add(i));
            let x = [0, 1, 2, 3].map(|k| round_to_odd_v3(_mm256_loadu_si256(p.add(8 * k).cast())));
            for k in 0..2 {
                // The pack interleaves 128-bit halves; the permutation restores their order.
                let v = _mm256_packus_epi32(x[2 * k], x[2 * k + 1]);
                let v = _mm256_permute4x64_epi64::<0b11_01_10_00>(v);
                _mm256_storeu_si256(d.add(16 * k).cast(), v);
            }
        }
    }
    fill_plain(&src[whole..len], &mut staged[whole..len], odd);
}
}

simd_fn! { avx2:
/// [`round_to_odd`] on eight f32 bits: each bf16 in the lower half of its lane, the upper half
/// zero, so that a `vpackusdw` narrows two registers exactly. `(x & 0xFFFF) + 0xFFFF` carries
/// into bit 16 exactly when a dropped bit is set. Shared by the staging pass and
/// `table16.rs`'s fused AVX2 kernel.
#[inline]
pub(super) fn round_to_odd_v3(x: __m256i) -> __m256i {
    let low = _mm256_set1_epi32(0xFFFF);
    let sticky = _mm256_add_epi32(_mm256_and_si256(x, low), low);
    _mm256_srli_epi32::<16>(_mm256_or_si256(x, sticky))
}
}
